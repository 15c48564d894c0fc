"""Strict readers for settings taken from the environment.

Each helper fails loudly (``ImproperlyConfigured``) on a malformed value instead of
silently falling back to a default, so a typo in a deployment is caught at start-up.
"""

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str | None = None) -> str | None:
    """Return the variable ``name`` as a string, or ``default`` when it is unset or empty."""
    value = os.environ.get(name)
    return default if value in (None, "") else value


def env_bool(name: str, default: bool) -> bool:
    """Return ``name`` as a boolean; accepts 1/0, true/false, yes/no, on/off (any case)."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false)")


def env_int(name: str, default: int) -> int:
    """Return ``name`` as an integer; raises ``ImproperlyConfigured`` if it is not one."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Return ``name`` as a comma-separated list of non-empty, stripped items."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


_SUPPORTED_ENGINES = {
    "django.db.backends.sqlite3",
    "django.db.backends.postgresql",
}


def env_database(name: str, default_url: str) -> dict:
    """Parse ``DATABASE_URL``-style variable ``name`` into a Django DATABASES entry.

    Accepts ``sqlite:///path`` and ``postgres://user:pass@host:port/db`` (also
    ``postgresql://``). Anything else — an unknown scheme, a PostgreSQL URL without a
    database name — raises ``ImproperlyConfigured`` naming the variable.
    """
    url = env_str(name, default_url)
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except Exception as exc:  # dj-database-url raises several kinds
        raise ImproperlyConfigured(f"{name} is malformed: {exc}") from None
    engine = config.get("ENGINE")
    if engine not in _SUPPORTED_ENGINES:
        raise ImproperlyConfigured(
            f"{name} uses an unsupported database ({engine or 'unknown scheme'}); "
            "use sqlite:///path or postgres://user:password@host:port/name"
        )
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name} has no database name")
    if engine == "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    return config


SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


def env_mailers(default_backend: str) -> dict:
    """Django's ``MAILERS`` setting (6.1+) from ``EMAIL_BACKEND`` and, for the SMTP backend,
    ``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
    ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL`` and ``EMAIL_TIMEOUT`` (seconds, default 10).

    Other backends (console, locmem, file) take no SMTP options. ``EMAIL_PORT`` may be left
    unset: it then follows the security (587 with TLS, 465 with SSL, else 25)."""
    backend = env_str("EMAIL_BACKEND", default_backend)
    options: dict = {}
    if backend == SMTP_BACKEND:
        use_tls = env_bool("EMAIL_USE_TLS", False)
        use_ssl = env_bool("EMAIL_USE_SSL", False)
        if use_tls and use_ssl:
            raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be true")
        options = {
            "host": env_str("EMAIL_HOST", "localhost"),
            "username": env_str("EMAIL_HOST_USER", ""),
            "password": env_str("EMAIL_HOST_PASSWORD", ""),
            "use_tls": use_tls,
            "use_ssl": use_ssl,
            "timeout": env_int("EMAIL_TIMEOUT", 10),
        }
        if os.environ.get("EMAIL_PORT"):
            options["port"] = env_int("EMAIL_PORT", 25)
    return {"default": {"BACKEND": backend, "OPTIONS": options}}


REDIS_CACHE_BACKEND = "django.core.cache.backends.redis.RedisCache"
LOCMEM_CACHE_BACKEND = "django.core.cache.backends.locmem.LocMemCache"


def env_cache(name: str = "CACHE_URL") -> dict:
    """Django's ``CACHES`` setting from ``CACHE_URL``.

    Unset or empty: a per-process memory cache (each gunicorn worker has its own).
    ``redis://[:password@]host:port/db`` (or ``rediss://`` for TLS): Django's built-in
    ``RedisCache``, shared by every worker and machine (needs the ``redis`` package:
    ``pip install '.[redis]'``). ``locmem://``: the memory cache explicitly. Anything else
    raises ``ImproperlyConfigured`` naming the variable.
    """
    url = env_str(name, "")
    if not url or url == "locmem://":
        return {"default": {"BACKEND": LOCMEM_CACHE_BACKEND, "LOCATION": "arbitro"}}
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("redis", "rediss") or not rest.split("/")[0]:
        raise ImproperlyConfigured(
            f"{name}={url!r} is not a cache URL (use redis://host:port/db or leave it unset)"
        )
    return {
        "default": {
            "BACKEND": REDIS_CACHE_BACKEND,
            "LOCATION": url,
            "KEY_PREFIX": "arbitro",
            # Fail fast (1 s) rather than hang a worker when Redis is unreachable.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def env_replica(name: str = "DATABASE_REPLICA_URL") -> dict | None:
    """The ``replica`` entry of ``DATABASES`` from ``name``, or ``None`` when it is unset or
    empty (no replica: everything reads from the primary).

    It must be a PostgreSQL URL (a streaming replica of the primary; see
    ``config/db_router.py``); anything malformed raises ``ImproperlyConfigured`` naming the
    variable, like ``DATABASE_URL``. Tests never create a separate replica database: it
    mirrors the primary (``TEST["MIRROR"]``)."""
    if env_str(name) is None:
        return None
    config = env_database(name, "")
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            f"{name} must be a postgres:// URL (a streaming replica of the primary)"
        )
    config["TEST"] = {"MIRROR": "default"}
    return config


TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "rq": "django_tasks_rq.RQBackend",
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
}


def env_tasks(default: str = "database") -> tuple[dict, list[str], dict]:
    """Django's ``TASKS`` setting (the queue of the notifications, docs/notifications.md)
    from ``TASKS_BACKEND``: ``database`` (the default: django-tasks-db, rows in the site's
    own database, run by ``manage.py db_worker``), ``rq`` (Redis at ``REDIS_URL``, run by
    ``manage.py rqworker --with-scheduler --job-class django_tasks_rq.Job default`` on any machine) or
    ``immediate`` (run in the request; tests). Returns ``(TASKS, extra INSTALLED_APPS,
    RQ_QUEUES)``. ``ImproperlyConfigured`` for another name, or ``rq`` without
    ``REDIS_URL``."""
    name = env_str("TASKS_BACKEND", default)
    if name not in TASK_BACKENDS:
        raise ImproperlyConfigured(
            f"TASKS_BACKEND must be one of {', '.join(TASK_BACKENDS)}, not {name!r}"
        )
    tasks = {"default": {"BACKEND": TASK_BACKENDS[name], "QUEUES": ["default"]}}
    if name != "rq":
        return tasks, [], {}
    url = env_str("REDIS_URL")
    if not url or not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("TASKS_BACKEND=rq needs REDIS_URL=redis://host:port/db")
    return tasks, ["django_rq", "django_tasks_rq"], {"default": {"URL": url}}
