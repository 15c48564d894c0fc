"""Cached public pages served before the rest of the middleware stack.

On an event day hundreds of anonymous visitors refresh the public standings and seating.
Their pages are cached (``events.cache``), yet every hit went through sessions,
authentication, locale, CSRF, messages, htmx, django-axes, URL resolution and the view,
which then looked the event up and asked the cache. :class:`CachedPublicPageMiddleware`
sits right after the security, CSP and static-file middleware and answers such a hit
itself, with one query (the event's primary key, the page's version — ``public_version``,
or ``seating_version`` for the seating page — and what decides whether the page is
published) and one cache read, under exactly the key the view uses
(:func:`events.cache.key`). So the page is exactly as fresh as the view's: a result
change or a publication bumps the version in its transaction and the next request
misses.

It only answers when all hold, otherwise the request goes down the stack as before:

- a GET of ``/events/<slug>/standings/`` or ``/events/<slug>/seating/`` with no query
  string and a valid host (``ALLOWED_HOSTS``);
- no session cookie: a signed-in user (staff see their own, uncached pages) always has
  one; an anonymous visitor with a leftover one just takes the long way;
- the page is published (the same checks as the views) and cached in the visitor's
  language (``django_language`` cookie, then ``Accept-Language``, as ``LocaleMiddleware``);
- CSRF tokens live in a cookie (``CSRF_USE_SESSIONS`` off).

The answer is the view's: the same HTML with the visitor's own CSRF token
(``events.cache.personalise``; the CSRF cookie set as ``CsrfViewMiddleware`` would),
``Content-Language``, ``Vary: Accept-Language, Cookie``, ``X-Frame-Options``, and, from
the middleware above it, the security headers and the content security policy (which has
no nonce: the public pages have no inline script). ``tests/events/views/test_fast_cache.py`` compares
both paths header by header.
"""

import functools
import re

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import connection
from django.http import HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language_from_request

from events import cache as page_cache
from events.models import Event, Round

_PUBLIC_PAGE = re.compile(r"/events/(?P<slug>[-a-zA-Z0-9_]+)/(?P<page>standings|seating)/\Z")


class CachedPublicPageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self._csrf = CsrfViewMiddleware(get_response)
        self._xframe = XFrameOptionsMiddleware(get_response)

    def __call__(self, request):
        response = self._cached(request)
        if response is None:
            return self.get_response(request)
        return response

    def _cached(self, request):
        if (
            request.method != "GET"
            or request.META.get("QUERY_STRING")
            or settings.SESSION_COOKIE_NAME in request.COOKIES
            # a flash message waiting for this visitor (messages' cookie storage)
            or getattr(settings, "MESSAGE_COOKIE_NAME", "messages") in request.COOKIES
            or settings.CSRF_USE_SESSIONS
        ):
            return None
        match = _PUBLIC_PAGE.match(request.path_info)
        if match is None:
            return None
        try:
            request.get_host()
        except DisallowedHost:
            return None  # the stack answers 400 as usual
        page = match["page"]
        row = _published(match["slug"], page)
        if row is None or row is _BROKEN:
            return None
        language = get_language_from_request(request)
        html = page_cache.cache.get(page_cache.key(row[0], row[1], page, language))
        if html is None:
            return None  # the view renders it once (events.cache.get_or_build)
        if page_cache.has_placeholder(html):
            self._csrf.process_request(request)  # reads the visitor's CSRF cookie
        response = HttpResponse(page_cache.personalise(html, request))
        response.headers["Content-Language"] = language
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response = self._csrf.process_response(request, response)
        response = self._xframe.process_response(request, response)
        response.headers["Content-Length"] = str(len(response.content))
        return response


def _published(slug: str, page: str):
    """``(pk, version)`` of the event if its ``page`` is published for anonymous
    visitors (as ``events.views`` decides: the standings published; a round's seating
    published), else ``None``; ``version`` is the one in the page's cache key
    (``events.cache.version_field``: ``seating_version`` for the seating page,
    ``public_version`` for the standings). One query, written out once: building it with the ORM
    cost more than the rest of the answer.

    On PostgreSQL, when the worker's connection is already open, the query goes straight
    to psycopg: Django's cursor would first run its per-request health check (a
    ``SELECT 1``, a second round trip). If that connection turns out to be broken, the
    request takes the long way, where the health check reconnects."""
    raw = connection.connection
    if raw is not None and connection.vendor == "postgresql" and not connection.in_atomic_block:
        try:
            return raw.execute(_sql(page), [slug]).fetchone()
        except connection.Database.Error:
            return _BROKEN
    with connection.cursor() as cursor:
        cursor.execute(_sql(page), [slug])
        return cursor.fetchone()


_BROKEN = object()
"""Returned by :func:`_published` when the open connection failed: not answered early."""


@functools.cache
def _sql(page: str) -> str:

    q = connection.ops.quote_name
    event, rnd = Event._meta, Round._meta
    version = event.get_field(page_cache.version_field(page))  # as events.cache.page_key
    published = (
        f"{q('e')}.{q(event.get_field('standings_published').column)}"
        if page == "standings"
        else f"EXISTS (SELECT 1 FROM {q(rnd.db_table)} {q('r')}"
        f" WHERE {q('r')}.{q(rnd.get_field('event').column)} = {q('e')}.{q(event.pk.column)}"
        f" AND {q('r')}.{q(rnd.get_field('seating_published').column)})"
    )
    return (
        f"SELECT {q('e')}.{q(event.pk.column)}, {q('e')}.{q(version.column)}"
        f" FROM {q(event.db_table)} {q('e')}"
        f" WHERE {q('e')}.{q(event.get_field('slug').column)} = %s AND {published}"
    )
