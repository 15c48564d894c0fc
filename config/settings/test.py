"""Test settings: fast password hashing, plain static storage, an isolated cache, a
random secret key per run (nothing signed in a test outlives it), and on SQLite a test
database in a file."""

import os
import secrets
import tempfile
from pathlib import Path

from config.env import env_str

from .base import *  # noqa: F403
from .base import DATABASES, STORAGES

SECRET_KEY = env_str("SECRET_KEY") or secrets.token_urlsafe(50)

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "arbitro-tests",
    }
}
LANGUAGE_CODE = "en"
STATIC_ROOT = None  # whitenoise serves from the finders; collectstatic is for production
WHITENOISE_USE_FINDERS = True
# Login throttling off (the test client's login() has no request); tests/config/test_security.py
# turns it on for its own tests.
AXES_ENABLED = False
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}

# On SQLite the test database is a file of this process (removed at the end of the run), not
# Django's default in-memory database. The browser tests' live server answers each request
# in a thread with a connection of its own; an in-memory database shared between connections
# locks a table written by an unfinished transaction for every other connection, and SQLite
# answers them "database table is locked" at once (the busy timeout does not apply), so two
# requests at once (an htmx preview racing a submit, a double tap, a sign-in while another
# tablet saves) answered 500 at random: the browser tests' flakes. In a file, as with
# `make run`, a reader reads beside the writer and a writer waits its turn
# (tests/events/views/test_live_server.py). synchronous=OFF: a test database need not survive a crash.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"arbitro-test-{os.getpid()}.sqlite3")
    }
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "init_command": "PRAGMA synchronous=OFF",
    }
# Notifications run in the request that enqueues them (after its commit), so a test sees
# the delivery log at once; tests/events/services/test_notifications.py also runs the
# database backend's worker.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
# The webhook tests' receiver listens on this machine (pytest-httpserver).
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
