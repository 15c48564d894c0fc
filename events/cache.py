"""Cache of anonymous public pages (standings, seating, results).

Each event carries ``public_version`` in the database; every cached page's key includes it,
and every change to the event bumps it in the same transaction (``invalidate``). So a
publication or a result change makes all the event's cached pages stale at once, for every
app server and worker, whatever the cache backend — no key scanning, no stale window.
Pages are never personalised for anonymous visitors.
"""

import re
import time

from django.conf import settings
from django.core.cache import cache
from django.db.models import F

__all__ = ["cache", "compact", "get_or_build", "invalidate", "page_key", "timeout"]

BUILD_LOCK_SECONDS = 10
"""How long one worker holds the right to rebuild a page (then anyone may)."""
WAIT_FOR_BUILD_SECONDS = 2.0
"""How long other workers wait for that page before building it themselves."""

_BETWEEN_TAGS = re.compile(r">\s*\n\s*<")
_BLANK_LINES = re.compile(r"\n[ \t]*(?=\n)|^[ \t]+", re.MULTILINE)


def page_key(event, page: str, language: str) -> str:
    """Cache key of one public page of ``event`` in one language at its current version."""
    return f"event-page:{event.pk}:{event.public_version}:{page}:{language}"


def invalidate(event) -> None:
    """Make every cached public page of ``event`` stale (call inside the change's transaction)."""
    from events.models import Event

    Event.objects.filter(pk=event.pk).update(public_version=F("public_version") + 1)


def timeout() -> int:
    """Seconds a page may stay cached (stale pages are never served: the key changes)."""
    return settings.PUBLIC_PAGE_CACHE_SECONDS


def compact(html: str) -> str:
    """``html`` without template indentation and blank lines: whitespace with a line break
    between two tags becomes one line break, which renders the same (the public pages have
    no ``<pre>`` nor ``<textarea>``). The 300-player standings page shrinks by about two
    thirds, and so does every cache transfer."""
    return _BETWEEN_TAGS.sub(">\n<", _BLANK_LINES.sub("", html))


def get_or_build(key: str, build):
    """The cached value of ``key``, else ``build()`` stored under it. When it is missing,
    one worker builds it (a short lock in the cache) while the others wait up to
    :data:`WAIT_FOR_BUILD_SECONDS` for it instead of all rebuilding the same page at once
    after a change (a stampede); past that, they build it themselves."""
    value = cache.get(key)
    if value is not None:
        return value
    lock = f"{key}:building"
    if cache.add(lock, 1, BUILD_LOCK_SECONDS):
        try:
            value = build()
            cache.set(key, value, timeout())
        finally:
            cache.delete(lock)
        return value
    deadline = time.monotonic() + WAIT_FOR_BUILD_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.05)
        value = cache.get(key)
        if value is not None:
            return value
    value = build()
    cache.set(key, value, timeout())
    return value
