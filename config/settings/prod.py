"""Production: PostgreSQL through DATABASE_URL, gunicorn, whitenoise, secure cookies.

Required environment: SECRET_KEY, DATABASE_URL, ALLOWED_HOSTS. Optional: CSRF_TRUSTED_ORIGINS
(comma-separated https:// origins), SECURE_SSL_REDIRECT (default true), SECURE_HSTS_SECONDS,
SECURE_HSTS_PRELOAD, the e-mail variables (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, DEFAULT_FROM_EMAIL; SMTP by default) and the login
throttling ones (AXES_FAILURE_LIMIT, AXES_COOLOFF_MINUTES, TRUSTED_PROXY_COUNT). CACHE_URL
(a redis:// URL for a cache shared by every worker; default per process).
DATABASE_REPLICA_URL (optional, a postgres:// streaming replica: anonymous public pages read
from it, everything else from the primary; config/db_router.py). ``manage.py check --deploy`` is clean with these
settings (tests/config/test_security.py).
"""

from django.core.exceptions import ImproperlyConfigured

from config.env import (
    SMTP_BACKEND,
    env_bool,
    env_int,
    env_list,
    env_mailers,
    env_replica,
    env_str,
)
from config.secret import is_public

from .base import *  # noqa: F403
from .base import DATABASES, MIDDLEWARE

DEBUG = False
SECRET_KEY = env_str("SECRET_KEY")
if is_public(SECRET_KEY or ""):
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
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# No script reads the CSRF cookie: htmx sends the token from the page (base.html).
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
if not SECURE_HSTS_PRELOAD:
    # Preloading is a commitment (every subdomain, for months): opt in with
    # SECURE_HSTS_PRELOAD=true once the domain is ready; until then the warning is noise.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]

# Password-reset e-mail through SMTP (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS; DEFAULT_FROM_EMAIL is read in base.py).
MAILERS = env_mailers(SMTP_BACKEND)

# Optional PostgreSQL streaming replica (docs/deploy.md "More than one machine"): anonymous
# GETs of the public pages read from it; writes, staff pages, transactions and any read
# after a write in the request use the primary.
_REPLICA = env_replica("DATABASE_REPLICA_URL")
if _REPLICA is not None:
    DATABASES = {**DATABASES, "replica": _REPLICA}
    DATABASE_ROUTERS = ["config.db_router.ReplicaRouter"]
    _AUTH = MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware")
    MIDDLEWARE = [
        *MIDDLEWARE[: _AUTH + 1],
        "config.db_router.ReplicaMiddleware",
        *MIDDLEWARE[_AUTH + 1 :],
    ]
