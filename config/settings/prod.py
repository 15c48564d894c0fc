"""Production: PostgreSQL through DATABASE_URL, gunicorn, whitenoise, secure cookies.

Required environment: SECRET_KEY, DATABASE_URL, ALLOWED_HOSTS. Optional: CSRF_TRUSTED_ORIGINS
(comma-separated https:// origins), SECURE_SSL_REDIRECT (default true), CACHE_URL is not
used yet (the cache is per process).
"""

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY or SECRET_KEY.startswith("insecure"):
    raise ImproperlyConfigured("SECRET_KEY must be set to a long random value in production")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
