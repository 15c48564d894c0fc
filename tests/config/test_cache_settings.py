"""CACHE_URL selects the cache: per-process memory by default, a shared Redis on demand."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import LOCMEM_CACHE_BACKEND, REDIS_CACHE_BACKEND, env_cache


@pytest.mark.parametrize("value", [None, "", "locmem://"])
def test_default_is_the_per_process_memory_cache(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("CACHE_URL", raising=False)
    else:
        monkeypatch.setenv("CACHE_URL", value)
    assert env_cache("CACHE_URL")["default"]["BACKEND"] == LOCMEM_CACHE_BACKEND


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://:secret@cache:6380/1"])
def test_redis_url_selects_djangos_redis_cache(monkeypatch, url):
    monkeypatch.setenv("CACHE_URL", url)
    default = env_cache("CACHE_URL")["default"]
    assert (
        default["BACKEND"] == REDIS_CACHE_BACKEND == "django.core.cache.backends.redis.RedisCache"
    )
    assert default["LOCATION"] == url
    assert default["KEY_PREFIX"] == "arbitro"


@pytest.mark.parametrize("url", ["memcached://h:11211", "redis://", "127.0.0.1:6379", "nonsense"])
def test_malformed_cache_url_fails_loudly(monkeypatch, url):
    monkeypatch.setenv("CACHE_URL", url)
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        env_cache("CACHE_URL")


def test_settings_use_the_helper(settings):
    assert settings.CACHES["default"]["BACKEND"] in (LOCMEM_CACHE_BACKEND, REDIS_CACHE_BACKEND)
