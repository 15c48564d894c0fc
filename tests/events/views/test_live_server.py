"""The live server of the browser tests answers two requests at once as ``make run`` would.

It answers each request in a thread of its own, with a database connection of its own.
When the test database was Django's default for SQLite — in memory, shared between
connections ("shared cache") — a table written by one unfinished transaction was locked
for every other connection, and SQLite answered a concurrent reader or writer "database
table is locked" at once: the busy timeout does not apply to those locks. Any two requests
at once (an htmx preview racing the form's submit, a double tap, a sign-in while another
tablet saves, two tabs syncing) then answered 500 at random, more often on a loaded
machine: the browser tests' flakes that reruns hid. ``config/settings/test.py`` now puts
the test database in a file, where a reader reads beside the writer and a writer waits its
turn. Each test holds a write transaction open in the test's own connection (what another
request in the middle of saving does) while a request reaches the live server.
"""

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import F

from events.permissions import Role
from tests.factories import EventFactory, EventRoleFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-live-server-password"
HOLD_SECONDS = 2.0


class Browser:
    """Just enough of a browser: cookies kept between requests, redirects not followed."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), self._NoRedirect
        )

    def request(self, path: str, data: dict | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(self.base + path, data=body, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)


def while_another_transaction_writes(write, call):
    """Run ``call()`` in a thread while this connection holds a transaction that has run
    ``write()``, for up to :data:`HOLD_SECONDS` (or until ``call`` returns); then commit
    and return what ``call`` returned."""
    outcome = {}
    thread = threading.Thread(target=lambda: outcome.setdefault("result", call()))
    with transaction.atomic():
        write()
        thread.start()
        thread.join(HOLD_SECONDS)
    thread.join(60)
    return outcome["result"]


@pytest.fixture
def organiser_browser(live_server):
    """A signed-in organiser of event ``open-2026`` (signed in through the live server)."""
    event = EventFactory(slug="open-2026", name="Open 2026")
    user = get_user_model().objects.create_user("olga", password=PASSWORD)
    EventRoleFactory(event=event, user=user, role=Role.ORGANISER)
    browser = Browser(live_server.url)
    assert sign_in(browser, "olga") == 302
    return browser, event


def sign_in(browser: Browser, username: str) -> int:
    status, html = browser.request("/accounts/login/")
    assert status == 200, html[:500]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    status, html = browser.request(
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": username, "password": PASSWORD},
    )
    return status


def test_a_staff_page_is_answered_while_another_request_writes_its_tables(organiser_browser):
    browser, event = organiser_browser
    session_key = browser.cookie("sessionid")

    def write():  # another request saving: the event's row, a session (a sign-in)
        type(event).objects.filter(pk=event.pk).update(name="Open 2026 (renamed)")
        Session.objects.filter(session_key=session_key).update(session_data="")
        transaction.set_rollback(True)

    status, html = while_another_transaction_writes(
        write, lambda: browser.request("/events/open-2026/manage/")
    )
    assert status == 200, html[:2000]
    assert "Open 2026" in html


def test_a_sign_in_waits_for_another_request_that_is_saving(organiser_browser):
    browser, event = organiser_browser
    get_user_model().objects.create_user("jude", password=PASSWORD)
    judge = Browser(browser.base)

    def write():  # another request saving a session and a user (another sign-in)
        Session.objects.filter(session_key=browser.cookie("sessionid")).update(
            expire_date=F("expire_date")
        )
        get_user_model().objects.filter(username="olga").update(first_name="Olga")

    status = while_another_transaction_writes(write, lambda: sign_in(judge, "jude"))
    assert status == 302
    assert judge.cookie("sessionid")
    assert browser.request("/events/open-2026/manage/")[0] == 200  # the first one still in
