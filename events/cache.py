"""Cache of anonymous public pages (standings, seating, results).

Each event carries ``public_version`` in the database; every cached page's key includes it,
and every change to the event bumps it in the same transaction (``invalidate``). So a
publication or a result change makes all the event's cached pages stale at once, for every
app server and worker, whatever the cache backend — no key scanning, no stale window.
Pages are never personalised for anonymous visitors.
"""

from django.conf import settings
from django.core.cache import cache
from django.db.models import F

__all__ = ["cache", "invalidate", "page_key", "timeout"]


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
