"""Test settings: fast password hashing, plain static storage, an isolated cache, a
random secret key per run (nothing signed in a test outlives it)."""

import secrets

from config.env import env_str

from .base import *  # noqa: F403
from .base import STORAGES

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
# Login throttling off (the test client's login() has no request); tests/test_security.py
# turns it on for its own tests.
AXES_ENABLED = False
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
