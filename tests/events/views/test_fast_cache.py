"""Cached public pages answered by ``events.middleware.CachedPublicPageMiddleware`` before
sessions, auth, CSRF and locale: the same page, headers and freshness as the view, never a
signed-in user's view, and each visitor's own CSRF token (the language switch works from a
cached page)."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from events import cache as page_cache
from events import services
from events.models import Event
from tests.conftest import add_players, play_round

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')


@pytest.fixture
def published(event):
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    services.set_standings_published(event, True)
    return event


def _url(event, page):
    return f"/events/{event.slug}/{page}/"


def _fast(client, url, **extra):
    """GET ``url`` and say whether the middleware answered (no view, no session)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **extra)
    fast = not hasattr(response.wsgi_request, "session")  # SessionMiddleware never ran
    if fast:
        # The event's version and publication, nothing else (on PostgreSQL, once the
        # connection is open, sent to psycopg directly: Django does not see it).
        assert len(queries) <= 1
    return response, fast


def _without_token(html: str) -> str:
    return re.sub(r"\b[A-Za-z0-9]{32}(?:[A-Za-z0-9]{32})?\b", "TOKEN", html)


@pytest.mark.parametrize("page", ["standings", "seating"])
def test_a_hit_is_answered_early_with_the_views_page_and_headers(published, page):
    url = _url(published, page)
    first, fast = _fast(Client(), url)  # a miss: the view renders and caches the page
    assert first.status_code == 200 and not fast
    hit, fast = _fast(Client(), url)
    assert hit.status_code == 200 and fast
    # The view's answer for a cached page (a leftover session cookie takes the long way).
    slow_client = Client()
    slow_client.cookies[settings.SESSION_COOKIE_NAME] = "stale-session-key"
    slow, fast = _fast(slow_client, url)
    assert slow.status_code == 200 and not fast
    assert _without_token(hit.content.decode()) == _without_token(slow.content.decode())
    assert _without_token(hit.content.decode()) == _without_token(first.content.decode())
    for header in (
        "Content-Type",
        "Content-Language",
        "Content-Security-Policy",
        "X-Frame-Options",
        "X-Content-Type-Options",
        "Referrer-Policy",
        "Cross-Origin-Opener-Policy",
        "Content-Length",
    ):
        assert hit.headers.get(header) == slow.headers.get(header), header
        assert hit.headers.get(header), header
    vary = {v.strip() for v in hit.headers["Vary"].split(",")}
    assert (
        vary
        == {v.strip() for v in slow.headers["Vary"].split(",")}
        == {
            "Accept-Language",
            "Cookie",
        }
    )
    assert hit.cookies["csrftoken"]["httponly"] == slow.cookies["csrftoken"]["httponly"]


def test_the_cached_html_holds_no_visitors_token_and_each_visitor_gets_their_own(published):
    url = _url(published, "standings")
    builder = Client(enforce_csrf_checks=True)
    builder.get(url)
    key = page_cache.page_key(Event.objects.get(pk=published.pk), "standings", "en")
    cached = page_cache.cache.get(key).decode()
    assert page_cache.CSRF_PLACEHOLDER in cached
    assert not re.search(r"\b[A-Za-z0-9]{32}(?:[A-Za-z0-9]{32})?\b", cached)
    # A second visitor, served from the cache, can switch the language (was: 403).
    visitor = Client(enforce_csrf_checks=True)
    response, fast = _fast(visitor, url)
    assert fast
    token = TOKEN.search(response.content.decode())[1]
    assert f'"X-CSRFToken": "{token}"' in response.content.decode()
    assert token == visitor.cookies["csrftoken"].value  # their own secret
    again, fast = _fast(visitor, url)
    assert fast and again.content == response.content  # same visitor, same version: same bytes
    switched = visitor.post(
        "/i18n/setlang/", {"language": "es", "next": "/", "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302
    # Which worked on the builder's page too.
    token = TOKEN.search(builder.get(url).content.decode())[1]
    assert (
        builder.post("/i18n/setlang/", {"language": "es", "csrfmiddlewaretoken": token}).status_code
        == 302
    )


def test_each_language_has_its_page(published):
    url = _url(published, "standings")
    Client().get(url, HTTP_ACCEPT_LANGUAGE="es")  # cached in Spanish
    response, fast = _fast(Client(), url, HTTP_ACCEPT_LANGUAGE="es-CL,es;q=0.9")
    assert fast and response.headers["Content-Language"] == "es"
    assert 'lang="es"' in response.content.decode()
    # English is not cached yet: the view renders it, then it is served early.
    response, fast = _fast(Client(), url, HTTP_ACCEPT_LANGUAGE="en")
    assert not fast and response.headers["Content-Language"] == "en"
    visitor = Client()
    visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response, fast = _fast(visitor, url, HTTP_ACCEPT_LANGUAGE="es")
    assert fast and 'lang="en"' in response.content.decode()


def test_a_change_is_seen_at_once(published):
    url = _url(published, "standings")
    Client().get(url)
    assert _fast(Client(), url)[1]
    rnd = published.rounds.get()
    play_round(rnd)  # result changes bump public_version
    response, fast = _fast(Client(), url)
    assert not fast and response.status_code == 200
    services.set_standings_published(Event.objects.get(pk=published.pk), False)
    response, fast = _fast(Client(), url)
    assert not fast
    assert "Sign in" in response.content.decode()  # the not-published page
    assert "csrfmiddlewaretoken" in response.content.decode()


def test_unpublished_seating_is_never_served_early(published):
    url = _url(published, "seating")
    Client().get(url)
    rnd = published.rounds.get()
    # Even if something unpublished the seating without bumping the version, the middleware
    # checks publication itself, as the view does.
    type(rnd).objects.filter(pk=rnd.pk).update(seating_published=False)
    response, fast = _fast(Client(), url)
    assert not fast


def test_signed_in_staff_get_their_own_page(published, staff):
    url = _url(published, "standings")
    Client().get(url)  # the anonymous page is cached
    judge = Client()
    judge.force_login(staff["judge"])
    response, fast = _fast(judge, url)
    assert not fast
    assert "Sign out" in response.content.decode()


def test_other_requests_take_the_long_way(published):
    url = _url(published, "standings")
    Client().get(url)
    assert not _fast(Client(), url + "?sort=name")[1]
    assert not _fast(Client(), "/events/unknown/standings/")[1]
    assert Client().get(url, HTTP_HOST="evil.example").status_code == 400
    response = Client(enforce_csrf_checks=True).post(url)
    assert response.status_code == 403  # CSRF, as before
    assert hasattr(response.wsgi_request, "session")


def test_a_broken_connection_takes_the_long_way(published, monkeypatch):
    """On PostgreSQL the early answer reads through the open psycopg connection without
    Django's health check; if that connection fails, the stack (which reconnects) answers."""
    from events import middleware

    url = _url(published, "standings")
    Client().get(url)
    assert _fast(Client(), url)[1]
    monkeypatch.setattr(middleware, "_published", lambda slug, page: middleware._BROKEN)
    response, fast = _fast(Client(), url)
    assert response.status_code == 200 and not fast


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the psycopg shortcut")
def test_on_postgresql_the_open_connection_is_used_directly(published):
    url = _url(published, "standings")
    first = Client().get(url)
    with CaptureQueriesContext(connection) as queries:
        hit, fast = _fast(Client(), url)
    assert fast and len(queries) == 0  # no health check, no query through Django
    assert _without_token(hit.content.decode()) == _without_token(first.content.decode())

    # The server went away under the open connection (as after a PostgreSQL restart):
    # the stack's health check reconnects and answers.
    connection.connection.close()
    close_old_connections()  # what request_started does (the test client leaves it out)
    response, fast = _fast(Client(), url)
    assert response.status_code == 200 and not fast
    assert _fast(Client(), url)[1]  # and the next visitor is answered early again


def test_a_visitors_flash_message_is_never_cached_for_everyone(published, rf):
    """A page built for a visitor with a message waiting shows it to that visitor only."""
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage

    cache.clear()
    url = _url(published, "standings")
    storage = CookieStorage(rf.get("/"))
    private = Client()
    private.cookies["messages"] = storage._encode([Message(constants.INFO, "Only for you")])
    assert "Only for you" in private.get(url).content.decode()
    for _ in range(2):  # the build, then a cached hit answered early
        assert "Only for you" not in Client().get(url).content.decode()


def test_a_result_save_keeps_the_seating_page_answered_early(published):
    """The seating page is keyed by ``seating_version``, which a result does not bump: the
    middleware reads that version (still one query) and keeps answering it from the cache;
    the standings change at once. Seating a round makes both stale."""
    seating, standings = _url(published, "seating"), _url(published, "standings")
    for url in (seating, standings):
        Client().get(url)
        assert _fast(Client(), url)[1]
    rnd = published.rounds.get()
    play_round(rnd)
    response, fast = _fast(Client(), seating)
    assert fast and response.status_code == 200
    assert not _fast(Client(), standings)[1]
    services.seat_next_round(published, seed=2)  # round 2 seated (not yet published)
    assert not _fast(Client(), seating)[1]
    assert _fast(Client(), seating)[1]
