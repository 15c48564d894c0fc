"""Settings of the load test (``make bench-load``): production settings, served over plain
HTTP on loopback.

Everything of ``config.settings.prod`` applies (DEBUG off, PostgreSQL from DATABASE_URL, the
cache from CACHE_URL, sessions, CSRF, django-axes) except what needs TLS: the test talks
to gunicorn directly on 127.0.0.1, so cookies may not be ``Secure`` and there is no HTTPS
redirect. Static files come from the finders (no ``collectstatic`` into the checkout);
they are not part of the measurement.
"""

import os

from config.settings.prod import *  # noqa: F403
from config.settings.prod import MIDDLEWARE, STORAGES

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True

# A/B switch for the measurement only: LOAD_FAST_CACHE=0 takes the early answer of cached
# public pages (events.middleware) out, so the views serve every hit as before.
if os.environ.get("LOAD_FAST_CACHE", "1") == "0":
    MIDDLEWARE = [m for m in MIDDLEWARE if m != "events.middleware.CachedPublicPageMiddleware"]
