"""Settings shared by every environment. Environment-specific modules import this."""

from datetime import timedelta
from pathlib import Path

from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import (
    env_bool,
    env_cache,
    env_database,
    env_int,
    env_list,
    env_mailers,
    env_str,
    env_tasks,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# No committed default for anything that signs (sessions, reset and calendar-feed links):
# each environment module sets it (dev: a random local file, config/secret.py; prod: the
# environment, required; tests: random per run).
SECRET_KEY = env_str("SECRET_KEY")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "axes",
    "events",
    "standings",
    "penalties",
    "leagues",
    # The notifications' queue in the site's database (TASKS_BACKEND=database, below).
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Anonymous hits of the cached public standings and seating, answered before sessions,
    # auth, CSRF, locale and messages (same key, freshness and headers as the views).
    "events.middleware.CachedPublicPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "events.limits.template_context",
                "penalties.badges.pending_items",
            ],
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Per-process memory cache by default; CACHE_URL=redis://host:port/db shares one Redis
# between every worker and machine (config.env.env_cache, docs/deploy.md "Cache").
CACHES = env_cache("CACHE_URL")
# Seconds an anonymous public page (standings, seating) stays cached; publishing or
# changing a result invalidates it at once (events.cache).
PUBLIC_PAGE_CACHE_SECONDS = 300

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The address throttle, then django-axes: they refuse a locked-out address, or
# username+address, before the password check (events.security).
AUTHENTICATION_BACKENDS = [
    "events.security.AddressThrottleBackend",
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One number and date format per language (docs/i18n.md "Numbers and dates"): Chile's
# Spanish (decimal comma, day first) and English with a decimal point, 24-hour clock in both.
FORMAT_MODULE_PATH = ["config.formats"]
USE_THOUSAND_SEPARATOR = False
TIME_ZONE = "America/Santiago"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Uploaded screenshots and evidence (leagues). Served by ``leagues.views.media`` so that a
# deployment needs no extra web-server rule; point MEDIA_ROOT at a persistent volume.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
MEDIA_URL = "media/"
# VTES card data stored by ``manage.py update_card_data FILE`` (docs/decks.md "Card data"):
# used instead of the data krcg packages when it holds a cards.json; never fetched.
CARD_DATA_DIR = Path(env_str("CARD_DATA_DIR", str(BASE_DIR / "var" / "cards")))
# Build the card index in the background when a served process starts (config/wsgi.py).
WARM_CARD_INDEX = env_bool("WARM_CARD_INDEX", True)
# Screenshots and evidence images: accepted formats and largest size (leagues.forms).
LEAGUE_IMAGE_MAX_BYTES = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Mitos y Leyendas written appeals (MyL conduct §5.10): the deadline skips this country's
# public holidays (ISO code; "none": weekends only). See penalties.myl_services.
APPEALS_HOLIDAY_COUNTRY = env_str("APPEALS_HOLIDAY_COUNTRY", "CL")

# Content security policy (Django's built-in CSP middleware), the same in every environment
# so that a stray inline script or style shows up in development: no inline scripts,
# event handlers or style attributes anywhere (behaviour lives in static/js/, looks in
# static/css/app.css).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Login throttling (django-axes): a username tried from one address is locked for
# AXES_COOLOFF_MINUTES after AXES_FAILURE_LIMIT failures; a success resets the count.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The lockout page (templates/registration/locked_out.html), status 429.
AXES_LOCKOUT_CALLABLE = "events.security.locked_out"
# The client's address for the throttling (events.security.client_ip): REMOTE_ADDR, or
# behind TRUSTED_PROXY_COUNT proxies (1 behind nginx, 2 behind a load balancer + nginx) the
# entry those proxies put in X-Forwarded-For (counted from the right, so a client cannot
# choose its address by sending the header itself).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "events.security.client_ip"
# Across usernames: an address is locked for AXES_COOLOFF_MINUTES after this many failed
# sign-ins, whatever the usernames (events.security.AddressThrottleBackend); well above
# AXES_FAILURE_LIMIT, since a venue's players may share one Wi-Fi address.
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 30)
# Password-reset e-mails (events.views.PasswordResetView): per e-mail address asked for and
# per client address, in a window of PASSWORD_RESET_LIMIT_MINUTES.
PASSWORD_RESET_LIMIT_PER_EMAIL = env_int("PASSWORD_RESET_LIMIT_PER_EMAIL", 3)
PASSWORD_RESET_LIMIT_PER_ADDRESS = env_int("PASSWORD_RESET_LIMIT_PER_ADDRESS", 10)
PASSWORD_RESET_LIMIT_MINUTES = env_int("PASSWORD_RESET_LIMIT_MINUTES", 60)
# POST /api/v1/vekn/check-deck (docs/contracts.md §8): checks per client address per minute
# (events.security.deck_check_allowed); high enough for a venue's players sharing one
# Wi-Fi address to check their lists at once.
DECK_CHECK_LIMIT_PER_MINUTE = env_int("DECK_CHECK_LIMIT_PER_MINUTE", 300)

# E-mail (password reset), with Django 6.1's MAILERS: development prints messages on the
# console; production sends through SMTP (config/settings/prod.py; variables EMAIL_HOST,
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS: config.env.env_mailers).
MAILERS = env_mailers("django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "arbitro@localhost")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3 * 24 * 3600)

# Notifications (docs/notifications.md). The queue: Django's tasks framework on
# TASKS_BACKEND=database (default; `manage.py db_worker`, started by `make run`) or
# TASKS_BACKEND=rq with REDIS_URL (workers on several machines share it; docs/deploy.md
# "Notifications"). config.env.env_tasks.
TASKS, _TASK_APPS, RQ_QUEUES = env_tasks("database")
INSTALLED_APPS += _TASK_APPS
# Web Push (pywebpush): the VAPID key pair (`manage.py vapid_keys` prints one) and the
# contact the push services may write to. Without keys the push channel is off.
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:arbitro@localhost")
# Seconds one push or webhook request may take before it counts as failed (and is retried).
NOTIFY_TIMEOUT_SECONDS = env_int("NOTIFY_TIMEOUT_SECONDS", 10)
# Minutes before a round's end its players are told it is about to end (once; the sweep
# `manage.py notify_round_ending`, run every minute, sends it: docs/notifications.md).
NOTIFY_ROUND_ENDING_MINUTES = env_int("NOTIFY_ROUND_ENDING_MINUTES", 10)
# Minutes a delivery may sit queued, or past its retry time, before `manage.py
# notify_sweep` enqueues it again (its task was lost: a worker stopped, Redis flushed).
NOTIFY_SWEEP_GRACE_MINUTES = env_int("NOTIFY_SWEEP_GRACE_MINUTES", 5)
# Days the delivery log keeps sent and failed deliveries (`manage.py prune_deliveries`).
NOTIFY_LOG_RETENTION_DAYS = env_int("NOTIFY_LOG_RETENTION_DAYS", 90)
# Webhooks go to public addresses only (events.notifications.check_webhook_host); the
# tests' local receiver needs this on.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
# The site's address, for the links in e-mails and webhooks (e.g. https://arbitro.example).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# The VEKN link (docs/vekn-link.md): the VEKN API's address (e.g. https://www.vekn.net;
# unset: the link is off and the pages say so) and the account it signs in with.
VEKN_API_URL = env_str("VEKN_API_URL", "").rstrip("/")
VEKN_API_USERNAME = env_str("VEKN_API_USERNAME", "")
VEKN_API_PASSWORD = env_str("VEKN_API_PASSWORD", "")
# Seconds one VEKN API request may take before it counts as failed (and is retried).
VEKN_TIMEOUT_SECONDS = env_int("VEKN_TIMEOUT_SECONDS", 15)

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    # Django's own "django" logger also has a console handler under DEBUG: without this,
    # every 4xx/5xx line was printed twice (once by it, once by the root's handler).
    "loggers": {"django": {"handlers": ["console"], "level": "WARNING", "propagate": False}},
}
