"""Local development: the embedded SQLite database, debug pages, plain static files."""

from config.env import env_bool

from .base import *  # noqa: F403
from .base import STORAGES

DEBUG = env_bool("DEBUG", True)
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT = None  # whitenoise serves from the finders; collectstatic is for production
WHITENOISE_USE_FINDERS = True
