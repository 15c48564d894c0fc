"""WSGI entry point for gunicorn (``gunicorn config.wsgi``) and ``runserver``
(``WSGI_APPLICATION``). Each process starts building the VEKN card index in the
background (``events.deck_rules.warm_in_background``), so that the first live deck check
is not the one that waits for it; ``WARM_CARD_INDEX=false`` turns that off."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
application = get_wsgi_application()

if getattr(settings, "WARM_CARD_INDEX", True):
    from events import deck_rules

    deck_rules.warm_in_background()
