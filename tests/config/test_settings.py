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


# --------------------------------------------------------------------------- secret key
PUBLIC_DEFAULT = "insecure-development-key-change-me"  # the committed default until issue 12


def _import_dev(monkeypatch, secret_key=None, key_file=None):
    import importlib
    import sys

    if secret_key is None:
        monkeypatch.delenv("SECRET_KEY", raising=False)
    else:
        monkeypatch.setenv("SECRET_KEY", secret_key)
    monkeypatch.setenv("SECRET_KEY_FILE", str(key_file))
    sys.modules.pop("config.settings.dev", None)
    try:
        return importlib.import_module("config.settings.dev")
    finally:
        sys.modules.pop("config.settings.dev", None)


def test_no_settings_module_carries_a_secret_key(monkeypatch):
    """Issue 12: ``make run`` signed with a public default key, so anyone could forge
    another user's calendar-feed link. No settings file names a key any more."""
    from pathlib import Path

    import config.settings

    folder = Path(config.settings.__file__).parent
    for module in folder.glob("*.py"):
        assert PUBLIC_DEFAULT not in module.read_text(), module
    from django.conf import settings

    assert settings.SECRET_KEY != PUBLIC_DEFAULT and len(settings.SECRET_KEY) >= 32


def test_dev_settings_make_a_random_local_key_once(monkeypatch, tmp_path):
    import stat

    key_file = tmp_path / "var" / "secret_key"
    first = _import_dev(monkeypatch, key_file=key_file).SECRET_KEY
    assert key_file.read_text().strip() == first
    assert len(first) >= 50 and first != PUBLIC_DEFAULT
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600  # the owner's only
    # The next start (and runserver's reloaded child) reads the same key …
    assert _import_dev(monkeypatch, key_file=key_file).SECRET_KEY == first
    # … and another checkout gets another one.
    assert _import_dev(monkeypatch, key_file=tmp_path / "other").SECRET_KEY != first


def test_dev_settings_take_a_real_key_from_the_environment(monkeypatch, tmp_path):
    real = "r" * 20 + "-a-long-random-value-42"
    assert _import_dev(monkeypatch, real, tmp_path / "unused").SECRET_KEY == real
    assert not (tmp_path / "unused").exists()


@pytest.mark.parametrize(
    "key", [PUBLIC_DEFAULT, "django-insecure-abcdefghijklmnopqrstuvwxyz0123456789", "short"]
)
def test_dev_settings_refuse_a_public_key(monkeypatch, tmp_path, key):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is a public or short value"):
        _import_dev(monkeypatch, key, tmp_path / "secret_key")


def test_dev_settings_refuse_a_public_key_in_the_file(monkeypatch, tmp_path):
    key_file = tmp_path / "secret_key"
    key_file.write_text(PUBLIC_DEFAULT + "\n")
    with pytest.raises(ImproperlyConfigured, match="delete the file"):
        _import_dev(monkeypatch, key_file=key_file)


@pytest.mark.parametrize("key", [PUBLIC_DEFAULT, "REPLACE-WITH-THE-LONG-RANDOM-VALUE"])
def test_production_settings_refuse_a_public_or_placeholder_secret(monkeypatch, key):
    import importlib
    import sys

    monkeypatch.setenv("SECRET_KEY", key)
    sys.modules.pop("config.settings.prod", None)
    try:
        with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
            importlib.import_module("config.settings.prod")
    finally:
        sys.modules.pop("config.settings.prod", None)


def test_the_local_key_file_stays_out_of_git():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        ["git", "check-ignore", "-q", "var/secret_key"], cwd=root, capture_output=True
    )
    assert result.returncode == 0, "var/secret_key must be ignored by git"


def test_a_feed_link_signed_with_the_old_public_key_is_refused(client, db):
    """The forgery of issue 12: another user's feed token made with the public key."""
    from django.core import signing
    from django.urls import reverse

    from leagues.views import FEED_SALT, feed_token
    from tests.factories import UserFactory

    victim = UserFactory(username="victim")
    forged = signing.Signer(key=PUBLIC_DEFAULT, salt=FEED_SALT).sign(str(victim.pk))
    url = reverse("leagues:fixtures-feed", kwargs={"token": forged})
    assert client.get(url).status_code == 404
    genuine = reverse("leagues:fixtures-feed", kwargs={"token": feed_token(victim)})
    assert client.get(genuine).status_code == 200


def test_a_request_warning_is_logged_once(settings, capsys):
    """Django's "django" logger had its own console handler under DEBUG, besides the
    root's: every 4xx/5xx line was printed twice in the server's log."""
    import logging

    from django.utils.log import configure_logging

    settings.DEBUG = True
    try:
        configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
        logging.getLogger("django.request").warning("Not Found: /nowhere-%s", "x")
        assert capsys.readouterr().err.count("Not Found: /nowhere-x") == 1
    finally:
        settings.DEBUG = False
        configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
