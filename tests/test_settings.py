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
