"""Reading a JSON interchange file for the import commands (events and seasons)."""

import json
import sys

from django.core.management.base import CommandError


def read_json_file(path: str):
    """The decoded JSON of ``path`` ('-' for standard input); ``CommandError`` with the
    reason for a missing file or malformed JSON."""
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise CommandError(f"{path}: not valid JSON ({exc})") from None
