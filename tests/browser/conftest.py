"""Fixtures of the end-to-end browser tests: one Chromium for the session, tablet-sized
browser contexts, an organisation organiser, and a log of browser-side problems (page
errors, console errors, server errors) that each test checks at its end.

Setup through the ORM is limited to what a person cannot do in the app: the users, the
organisation and the organiser's organisation role. Everything else goes through the
browser.
"""

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the test code still uses the
# ORM for its small setup, which Django refuses to do inside a running loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import sync_playwright  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TABLET = {"width": 820, "height": 1180}
ACTION_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 10_000
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PASSWORD = "a-long-browser-test-password"


@pytest.fixture(scope="session", autouse=True)
def card_index_built():
    """The live server runs in this process: build the card index once, as a served
    process does when it starts (config/wsgi.py), rather than on a test's first check."""
    from events import deck_rules

    deck_rules.warm_in_background().join()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class BrowserLog:
    """What went wrong on the browser side during a test."""

    problems: list[str] = field(default_factory=list)

    def watch(self, context):
        context.on("weberror", lambda e: self.problems.append(f"page error: {e.error}"))
        context.on(
            "console",
            lambda m: (
                self.problems.append(f"console {m.type}: {m.text} ({m.location})")
                if m.type == "error"
                and "status of 40" not in m.text
                # A request the tablet makes while a test has cut the network: the
                # browser reports it; it is what the test does, not a page's fault.
                and "net::ERR_INTERNET_DISCONNECTED" not in m.text
                else None
            ),
        )

        def on_response(response):
            if response.status >= 500:
                self.problems.append(
                    f"HTTP {response.status} {response.request.method} {response.url}"
                )
            elif response.status == 404 and "/static/" in response.url:
                self.problems.append(f"missing static file {response.url}")

        context.on("response", on_response)

    def assert_clean(self):
        assert not self.problems, "\n".join(self.problems)


@pytest.fixture
def browser_log():
    return BrowserLog()


@pytest.fixture
def new_context(browser, browser_log):
    """Factory of tablet-sized, English browser contexts (each one a separate person)."""
    contexts = []

    def make():
        context = browser.new_context(viewport=TABLET, locale="en-US", has_touch=True)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        browser_log.watch(context)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def shots(request):
    """``shots(page, "label")`` saves a full-page screenshot, numbered in test order."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    prefix = request.node.name.removeprefix("test_")
    for old in ARTIFACTS.glob(f"{prefix}-*.png"):
        old.unlink()
    counter = iter(range(1, 1000))

    def take(page, label: str) -> Path:
        path = ARTIFACTS / f"{prefix}-{next(counter):02d}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@dataclass(frozen=True)
class Account:
    username: str
    password: str


@pytest.fixture
def make_user(transactional_db):
    from django.contrib.auth import get_user_model

    def make(username: str) -> Account:
        get_user_model().objects.create_user(username=username, password=PASSWORD)
        return Account(username, PASSWORD)

    return make


@pytest.fixture
def organisation(transactional_db):
    from events.models import Organisation

    return Organisation.objects.create(
        slug="vekn-test", name="VEKN Test Country", kind=Organisation.Kind.VEKN_COUNTRY
    )


@pytest.fixture
def organiser(make_user, organisation) -> Account:
    """A new user who organises events of ``organisation`` (an organisation role)."""
    from django.contrib.auth import get_user_model

    from events.models import OrganisationRole
    from events.permissions import Role

    account = make_user("olga")
    OrganisationRole.objects.create(
        organisation=organisation,
        user=get_user_model().objects.get(username=account.username),
        role=Role.ORGANISER,
    )
    return account
