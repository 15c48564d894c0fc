"""Cache of anonymous public pages (standings, seating, results).

Each event carries two versions in the database: ``seating_version`` for the seating page
(:data:`SEATING_PAGES`), ``public_version`` for every other page. A cached page's key
includes its version, and every change to the event bumps the versions in the same
transaction (``invalidate``): both, unless the caller says the change cannot show on the
seating page (a result: ``invalidate(event, seating=False)``). So a publication, a seating
change, a drop or a result makes every page that may show it stale at once, for every app
server and worker, whatever the cache backend — no key scanning, no stale window — while a
result save no longer throws away the seating page, which shows no result. Pages are never
personalised for anonymous visitors.
"""

import logging
import re
import secrets
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.middleware.csrf import _add_new_csrf_cookie

from events.models import Event

logger = logging.getLogger(__name__)

__all__ = [
    "CSRF_PLACEHOLDER",
    "cache",
    "compact",
    "floor_changed",
    "floor_token",
    "get_or_build",
    "has_placeholder",
    "invalidate",
    "key",
    "page_key",
    "personalise",
    "prepare",
    "timeout",
    "version_field",
]

BUILD_LOCK_SECONDS = 10
"""How long one worker holds the right to rebuild a page (then anyone may)."""
WAIT_FOR_BUILD_SECONDS = 2.0
"""How long other workers wait for that page before building it themselves."""

_BETWEEN_TAGS = re.compile(r">\s*\n\s*<")
_BLANK_LINES = re.compile(r"\n[ \t]*(?=\n)|^[ \t]+", re.MULTILINE)

CSRF_PLACEHOLDER = "__arbitro-csrf-token__"
"""Stands for the visitor's CSRF token in a cached page (see :func:`prepare`)."""
_PLACEHOLDER_BYTES = CSRF_PLACEHOLDER.encode()
_CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]+(?=")')


SEATING_PAGES = frozenset({"seating"})
"""Pages keyed by ``Event.seating_version``: they show no result (the public seating page
renders ``events/_tables.html`` with ``show_vp=False``: names, tables, byes, Loss seats),
so a result save (``invalidate(event, seating=False)``) keeps them. Every other page —
standings, results, the event page (its winner), the big screen, the API — is keyed by
``public_version``, which every change bumps."""


def version_field(page: str) -> str:
    """The ``Event`` field whose value is in the cache key of ``page``."""
    return "seating_version" if page in SEATING_PAGES else "public_version"


def page_key(event, page: str, language: str) -> str:
    """Cache key of one public page of ``event`` in one language at its current version."""
    return key(event.pk, getattr(event, version_field(page)), page, language)


def key(event_pk: int, version: int, page: str, language: str) -> str:
    """:func:`page_key` from the event's primary key and the page's version
    (:func:`version_field`: what ``events.middleware`` reads in one query, without loading
    the event). The seating pages' versions are tagged ``s``: their counter is not
    ``public_version``'s, and a page cached under one must never be found under the other."""
    tag = "s" if page in SEATING_PAGES else ""
    return f"event-page:{event_pk}:{tag}{version}:{page}:{language}"


def invalidate(event, *, seating: bool = True) -> None:
    """Make the cached public pages of ``event`` stale (call inside the change's
    transaction): every page, or with ``seating=False`` every page but the seating page —
    only for a change that page cannot show (a result, a toss: not a seating, a
    publication, a drop, a Loss, a name, the round's number). When in doubt, leave the
    default."""

    versions = {"public_version": F("public_version") + 1}
    if seating:
        versions["seating_version"] = F("seating_version") + 1
    Event.objects.filter(pk=event.pk).update(**versions)


def _floor_key(event_pk: int) -> str:
    return f"event-floor:{event_pk}"


def floor_token(event_pk: int) -> str:
    """The event's *floor token*: a random value that changes with what a player's seat
    box shows besides the seating (``Event.seating_version``) and the registration — the
    round's clock (a start, pause, resume, a table's extension) and the judge calls. Part
    of the key of the cached seat boxes (``events.views_self_service.seat_box``). Random,
    never a counter: if the cache loses it, the new one matches no box cached before."""
    token = cache.get(_floor_key(event_pk))
    if token is None:
        token = secrets.token_hex(8)
        if not cache.add(_floor_key(event_pk), token, None):
            token = cache.get(_floor_key(event_pk)) or token
    return token


def floor_changed(event) -> None:
    """A new :func:`floor_token` for ``event`` (an ``Event`` or its primary key) now and again once the current transaction
    commits: its players' seat boxes are built again at their next poll, and a poll that
    read the database between the two (the old state, under the first new token) cannot
    keep its box past the commit. Robust: a cache error never undoes the change (the
    boxes' own timeout bounds the staleness)."""
    pk = getattr(event, "pk", event)

    def bump():
        try:
            cache.set(_floor_key(pk), secrets.token_hex(8), None)
        except Exception:  # the cache down: the change stands, the boxes time out
            logger.exception("cache: could not renew the floor token of event %s", pk)

    bump()
    transaction.on_commit(bump, robust=True)


def timeout() -> int:
    """Seconds a page may stay cached (stale pages are never served: the key changes)."""
    return settings.PUBLIC_PAGE_CACHE_SECONDS


def compact(html: str) -> str:
    """``html`` without template indentation and blank lines: whitespace with a line break
    between two tags becomes one line break, which renders the same (the public pages have
    no ``<pre>`` nor ``<textarea>``). The 300-player standings page shrinks by about two
    thirds, and so does every cache transfer."""
    return _BETWEEN_TAGS.sub(">\n<", _BLANK_LINES.sub("", html))


def prepare(html: str) -> bytes:
    """A rendered public page as it is cached: :func:`compact`, with the CSRF token of the
    visitor who happened to render it (the language switch form, htmx's header) replaced
    by :data:`CSRF_PLACEHOLDER`, encoded once (UTF-8) instead of at every hit. Without the
    placeholder every visitor served from the cache got that visitor's token: useless to
    them (no matching cookie: switching the language answered 403) and a leak of the
    renderer's CSRF secret."""
    return _CSRF_TOKEN.sub(r"\g<1>" + CSRF_PLACEHOLDER, compact(html)).encode()


def has_placeholder(page: bytes | str) -> bool:
    """Whether a cached page needs the visitor's CSRF token (:func:`personalise`)."""
    placeholder = _PLACEHOLDER_BYTES if isinstance(page, bytes) else CSRF_PLACEHOLDER
    return placeholder in page


def personalise(page: bytes | str, request) -> bytes | str:
    """A cached page for ``request``: the visitor's own CSRF secret in place of the
    placeholder. Pages cached before the placeholder existed (``str``) pass unchanged.

    The secret goes in unmasked (Django accepts it in the form field and the header as
    well as a masked token), so one visitor gets the same bytes for one version of a page,
    and no random mask is drawn per hit (``get_token``'s ``get_random_string`` costs
    more than the rest of a cached answer). Masking guards against BREACH, which needs
    attacker-chosen text that varies from one compressed response to the next beside the
    token; a cached page's content is fixed for its version."""
    if not has_placeholder(page):
        return page
    token = _csrf_secret(request)
    if isinstance(page, bytes):
        return page.replace(_PLACEHOLDER_BYTES, token.encode())
    return page.replace(CSRF_PLACEHOLDER, token)


def _csrf_secret(request) -> str:
    """The visitor's CSRF secret (read from the cookie by ``CsrfViewMiddleware``), or a new
    one; either way the middleware then sends the cookie — ``get_token`` without the mask."""

    if "CSRF_COOKIE" in request.META:
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
        return request.META["CSRF_COOKIE"]
    return _add_new_csrf_cookie(request)


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
