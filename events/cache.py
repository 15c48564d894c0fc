"""Cache of anonymous public pages (standings, seating, results).

Each event has a version number in the cache; every page key includes it, so bumping the
version (on publish, on any result change) invalidates all of the event's pages at once
without scanning keys. Pages are never personalised for anonymous visitors.
"""

from django.conf import settings
from django.core.cache import cache


def _version_key(slug: str) -> str:
    return f"event-pages-version:{slug}"


def page_version(slug: str) -> int:
    """Current version of the event's public pages (creates it at 1)."""
    key = _version_key(slug)
    version = cache.get(key)
    if version is None:
        cache.add(key, 1, timeout=None)
        version = cache.get(key, 1)
    return version


def page_key(slug: str, page: str, language: str) -> str:
    """Cache key of one public page in one language at the current version."""
    return f"event-page:{slug}:{page}:{language}:{page_version(slug)}"


def invalidate(slug: str) -> None:
    """Make every cached public page of the event stale (call after any change)."""
    key = _version_key(slug)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 2, timeout=None)


def timeout() -> int:
    return settings.PUBLIC_PAGE_CACHE_SECONDS
