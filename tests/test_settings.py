"""Settings read the environment strictly and fail loudly on malformed values."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_database, env_int, env_list


def test_database_url_default_is_sqlite(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = env_database("DATABASE_URL", "sqlite:///tmp/x.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"


def test_database_url_postgres(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@127.0.0.1:5433/arbitro")
    config = env_database("DATABASE_URL", "sqlite:///x")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["PORT"], config["USER"]) == ("arbitro", 5433, "u")


@pytest.mark.parametrize(
    "url",
    [
        "mysql://u:p@h/db",
        "nonsense",
        "postgres://u:p@host:notaport/db",
        "postgres://u:p@host:5432/",
    ],
)
def test_malformed_database_url_fails_loudly(monkeypatch, url):
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_database("DATABASE_URL", "sqlite:///x")


def test_strict_scalars(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG", False)
    monkeypatch.setenv("N", "12x")
    with pytest.raises(ImproperlyConfigured, match="N="):
        env_int("N", 1)
    monkeypatch.setenv("HOSTS", "a.org, b.org,,")
    assert env_list("HOSTS", []) == ["a.org", "b.org"]


def test_production_settings_refuse_default_secret(monkeypatch):
    import importlib
    import sys

    monkeypatch.delenv("SECRET_KEY", raising=False)
    sys.modules.pop("config.settings.prod", None)
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        importlib.import_module("config.settings.prod")


# --------------------------------------------------------------------------- replica
def test_replica_is_optional_and_strict(monkeypatch):
    from config.env import env_replica

    monkeypatch.delenv("DATABASE_REPLICA_URL", raising=False)
    assert env_replica() is None
    monkeypatch.setenv("DATABASE_REPLICA_URL", "")
    assert env_replica() is None
    monkeypatch.setenv("DATABASE_REPLICA_URL", "postgres://ro:p@10.0.0.2:5432/arbitro")
    config = env_replica()
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["NAME"]) == ("10.0.0.2", "arbitro")
    assert config["TEST"] == {"MIRROR": "default"}
    for bad in ("sqlite:///x.sqlite3", "mysql://u:p@h/db", "postgres://u:p@h:port/db"):
        monkeypatch.setenv("DATABASE_REPLICA_URL", bad)
        with pytest.raises(ImproperlyConfigured, match="DATABASE_REPLICA_URL"):
            env_replica()


def _prod_settings(monkeypatch, replica: str | None):
    import importlib
    import sys

    monkeypatch.setenv("SECRET_KEY", "k" * 60)
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@10.0.0.1:5432/arbitro")
    monkeypatch.setenv("ALLOWED_HOSTS", "arbitro.example.org")
    if replica is None:
        monkeypatch.delenv("DATABASE_REPLICA_URL", raising=False)
    else:
        monkeypatch.setenv("DATABASE_REPLICA_URL", replica)
    sys.modules.pop("config.settings.prod", None)
    try:
        return importlib.import_module("config.settings.prod")
    finally:
        sys.modules.pop("config.settings.prod", None)


def test_production_settings_with_and_without_replica(monkeypatch):
    plain = _prod_settings(monkeypatch, None)
    assert set(plain.DATABASES) == {"default"}
    assert "config.db_router.ReplicaMiddleware" not in plain.MIDDLEWARE
    assert not getattr(plain, "DATABASE_ROUTERS", [])
    with_replica = _prod_settings(monkeypatch, "postgres://ro:p@10.0.0.2:5432/arbitro")
    assert with_replica.DATABASES["replica"]["HOST"] == "10.0.0.2"
    assert with_replica.DATABASE_ROUTERS == ["config.db_router.ReplicaRouter"]
    middleware = with_replica.MIDDLEWARE
    auth = middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware")
    assert middleware[auth + 1] == "config.db_router.ReplicaMiddleware"


class _Model:
    def __init__(self, app_label):
        self._meta = type("Meta", (), {"app_label": app_label})


def _route(path: str, user_authenticated: bool, method: str = "GET"):
    """Run ``path`` through ReplicaMiddleware; inside the view, ask the router where reads
    of an ``events`` and an ``auth`` model go, then write, then read again."""
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory
    from django.urls import resolve

    from config.db_router import ReplicaMiddleware, ReplicaRouter

    router = ReplicaRouter()
    seen = {}

    def view(request):
        seen["events"] = router.db_for_read(_Model("events"))
        seen["auth"] = router.db_for_read(_Model("auth"))
        seen["write"] = router.db_for_write(_Model("events"))
        seen["after write"] = router.db_for_read(_Model("events"))
        return "response"

    request = getattr(RequestFactory(), method.lower())(path)
    request.user = (
        type("U", (), {"is_authenticated": True})() if user_authenticated else AnonymousUser()
    )
    request.resolver_match = resolve(path)
    middleware = ReplicaMiddleware(lambda r: middleware.process_view(r, view, (), {}) or view(r))
    assert middleware(request) == "response"
    # nothing leaks to the next request
    assert router.db_for_read(_Model("events")) == "default"
    return seen


def test_router_sends_anonymous_public_reads_to_the_replica():
    seen = _route("/events/open-2026/standings/", user_authenticated=False)
    assert seen == {
        "events": "replica",
        "auth": "default",  # sessions, users, login throttling: always the primary
        "write": "default",
        "after write": "default",  # read your own writes
    }
    assert _route("/events/open-2026/standings/screen/live/", False)["events"] == "replica"
    assert _route("/api/v1/events/open-2026/standings", False)["events"] == "replica"
    assert _route("/competitions/t24-primera-a/screen/live/", False)["events"] == "replica"


@pytest.mark.parametrize(
    "path, authenticated, method",
    [
        ("/events/open-2026/standings/", True, "GET"),  # signed in: the primary
        ("/events/open-2026/standings/", False, "POST"),
        ("/events/open-2026/manage/", False, "GET"),  # staff pages
        ("/accounts/login/", False, "GET"),
        ("/players/me/", False, "GET"),
    ],
)
def test_router_keeps_everything_else_on_the_primary(path, authenticated, method):
    seen = _route(path, authenticated, method)
    assert set(seen.values()) == {"default"}


def test_router_reads_from_the_primary_inside_a_transaction(monkeypatch):
    from django.db import connections

    from config.db_router import ReplicaRouter, _use_replica

    token = _use_replica.set(True)
    try:
        router = ReplicaRouter()
        assert router.db_for_read(_Model("events")) == "replica"
        monkeypatch.setattr(connections["default"], "in_atomic_block", True)
        assert router.db_for_read(_Model("events")) == "default"
    finally:
        _use_replica.reset(token)
    assert router.allow_migrate("default", "events") is True
    assert router.allow_migrate("replica", "events") is False
    assert router.allow_relation(object(), object()) is True
