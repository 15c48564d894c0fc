"""Local development (``make run``): the embedded SQLite database, debug pages, plain
static files, for one machine only (the venue's network needs docs/deploy.md). The secret
key comes from ``SECRET_KEY`` or a random ``var/secret_key`` made on first run
(``config.secret``); a public key is refused."""

import os
from pathlib import Path

from config.env import env_bool
from config.secret import development_secret_key

from .base import *  # noqa: F403
from .base import BASE_DIR, STORAGES

SECRET_KEY = development_secret_key(
    os.environ.get("SECRET_KEY"),
    Path(os.environ.get("SECRET_KEY_FILE") or BASE_DIR / "var" / "secret_key"),
)

DEBUG = env_bool("DEBUG", True)
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT = None  # whitenoise serves from the finders; collectstatic is for production
WHITENOISE_USE_FINDERS = True
