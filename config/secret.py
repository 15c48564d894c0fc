"""The development server's secret key: random, made once per checkout, kept out of git.

``SECRET_KEY`` signs sessions, password-reset links, CSRF tokens and the calendar-feed
links (``leagues.views.feed_token``): a key anyone can read lets anyone forge them, so no
settings module carries a committed one. Development (``config.settings.dev``, used by
``make run``) takes ``SECRET_KEY`` from the environment or else from ``var/secret_key``,
written with a fresh random value the first time (``/var/`` is in ``.gitignore``); the
production settings require the variable (``config.settings.prod``).
"""

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

PUBLIC_PREFIXES = ("insecure", "django-insecure", "REPLACE-WITH", "THE-SAME-LONG")
"""Keys that were, or look like, a committed default (Django's ``startproject`` too, and
the placeholders of docs/deploy.md)."""


def is_public(key: str) -> bool:
    """True for a key that must not sign anything: empty, too short (under 32 characters),
    or starting like a committed default (``PUBLIC_PREFIXES``)."""
    return not key or len(key) < 32 or key.startswith(PUBLIC_PREFIXES)


def local_secret_key(path: Path) -> str:
    """The key stored in ``path``, created first (random, 50 bytes, readable by its owner
    only) when missing or empty. Two processes starting at once (runserver's reloader)
    end with the same key: the file is created exclusively and the loser reads it.
    ``ImproperlyConfigured`` if the file holds a public key (:func:`is_public`)."""
    if not path.exists() or not path.read_text().strip():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if not path.read_text().strip():  # an empty file left behind: replace it
                path.write_text(key + "\n")
                path.chmod(0o600)
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(key + "\n")
    key = path.read_text().strip()
    if is_public(key):
        raise ImproperlyConfigured(
            f"{path} holds a public or short secret key: delete the file and start again "
            "(a random one is made)"
        )
    return key


def development_secret_key(environ_value: str | None, path: Path) -> str:
    """``SECRET_KEY`` for development: the environment's value when it is a real secret,
    else the local file's (:func:`local_secret_key`). ``ImproperlyConfigured`` when the
    environment sets a public key (:func:`is_public`): it would let anyone forge links."""
    if environ_value:
        if is_public(environ_value):
            raise ImproperlyConfigured(
                "SECRET_KEY is a public or short value: unset it (make run keeps a random "
                f"one in {path}) or set a long random value"
            )
        return environ_value
    return local_secret_key(path)
