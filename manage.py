#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    from django.core.management import execute_from_command_line  # noqa: PLC0415 deferred: Django is set up first

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
