"""Issue 15's player journey on a phone (360×800), in Chromium: a player opens "My deck"
from their page, pastes a Lackey list with a misspelt card, sees the live check name the
problem and suggest the card, fixes the line, saves; once the decklist deadline has
passed (VEKN TR §6.3) the page shows the list read-only.

Setup through the ORM: the account, its player record, the event and the registration
(an organiser's pages, tested elsewhere), and the deadline moved into the past.
Screenshots: ``test-artifacts/browser/``.
"""

import datetime as dt

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 800}
LACKEY = (
    "12\tDeflecshun\n20\tBlood Doll\n28\tBum's Rush\n"
    "Crypt:\n4\tTheo Bell\n4\tGratiano\n4\tLucinde, Alastor\n"
)


def assert_fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a {PHONE['width']}px phone"


def test_a_player_registers_a_lackey_list_on_a_phone(
    live_server, make_user, organisation, browser, browser_log, shots
):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events.models import Deck, Event, Person, Registration

    ana = make_user("ana")
    person = Person.objects.create(
        name="Ana Rojas",
        vekn_number="3100001",
        user=get_user_model().objects.get(username=ana.username),
    )
    event = Event.objects.create(
        organisation=organisation,
        slug="deck-open-2026",
        name="Deck Open",
        date=dt.date(2026, 11, 28),
        decklist_deadline=timezone.now() + dt.timedelta(days=1),
    )
    reg = Registration.objects.create(event=event, person=person, code="p1")
    base = live_server.url
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    context.set_default_timeout(5_000)
    context.set_default_navigation_timeout(10_000)
    browser_log.watch(context)
    page = context.new_page()
    try:
        log_in(page, base, ana.username, ana.password)
        page.goto(f"{base}/players/me/")
        click_and_wait(page, page.get_by_role("link", name="My deck"))
        expect(page.get_by_role("heading", name="My deck")).to_be_visible()
        box = page.get_by_label("Decklist")
        # Pasted with its typo; the check runs half a second after the last key.
        box.fill(LACKEY)
        box.press("End")
        check = page.locator("#deck-check")
        expect(check).to_contain_text("line 1: no card is called “Deflecshun”")
        expect(check).to_contain_text("Did you mean:")
        expect(check.locator(".suggestion").first).to_have_text("Deflection")
        expect(check).to_contain_text("the library has 48 cards")
        shots(page, "typo")
        assert_fits(page)
        box.fill(LACKEY.replace("Deflecshun", "Deflection"))
        box.press("End")
        expect(check).to_contain_text("Legal list")
        expect(check).to_contain_text("Library: 60")
        shots(page, "fixed")
        click_and_wait(page, page.get_by_role("button", name="Save my list"))
        expect(messages(page)).to_contain_text("Decklist registered.")
        registered = page.locator("#registered-deck")
        expect(registered).to_contain_text("Legal list")
        expect(registered).to_contain_text("Theo Bell")
        assert_fits(page)
        shots(page, "registered")
        assert Deck.objects.get(registration=reg).valid

        # The deadline passes: the list is locked, read-only.
        Event.objects.filter(pk=event.pk).update(
            decklist_deadline=timezone.now() - dt.timedelta(minutes=1)
        )
        page.reload()
        expect(page.locator("#deck-locked")).to_be_visible()
        expect(page.locator("textarea")).to_have_count(0)
        expect(page.get_by_role("button", name="Save my list")).to_have_count(0)
        expect(page.locator("#registered-deck")).to_contain_text("Theo Bell")
        assert_fits(page)
        shots(page, "locked")
        browser_log.assert_clean()
    finally:
        context.close()


def test_a_text_longer_than_its_limit_is_kept_and_refused_in_words(
    live_server, make_user, organisation, browser, browser_log
):
    """The browser's ``maxlength`` cut a pasted text at the limit without a word (a new
    user's finding): with scripts on, the box keeps all of it, a counter shows the length
    against the limit, and the server refuses it naming the field (README "Free text")."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events.models import Deck, Event, Person, Registration

    ana = make_user("ana")
    person = Person.objects.create(
        name="Ana Rojas", user=get_user_model().objects.get(username=ana.username)
    )
    event = Event.objects.create(
        organisation=organisation,
        slug="long-open",
        name="Long Open",
        date=dt.date(2026, 11, 28),
        decklist_deadline=timezone.now() + dt.timedelta(days=1),
    )
    Registration.objects.create(event=event, person=person, code="p1")
    context = browser.new_context(viewport=PHONE, locale="en-US")
    # Filling 20,000 characters fires the counter and the live check: seconds on a
    # loaded machine (CI timed out at 5 s).
    context.set_default_timeout(30_000)
    browser_log.watch(context)
    page = context.new_page()
    try:
        log_in(page, live_server.url, ana.username, ana.password)
        page.goto(f"{live_server.url}/events/long-open/my-deck/")
        box = page.get_by_label("Decklist")
        assert box.get_attribute("maxlength") is None and box.get_attribute("data-limit")
        limit = int(box.get_attribute("data-limit"))
        long_text = "12 Deflection\n" * (limit // 14 + 10)
        box.fill(long_text)
        assert len(box.input_value()) == len(long_text) > limit  # nothing cut
        counter = page.locator(".text-count")
        expect(counter).to_have_text(f"{len(long_text)} / {limit}")
        expect(counter).to_have_class("text-count muted over")
        click_and_wait(page, page.get_by_role("button", name="Save my list"))
        expect(page.locator("main")).to_contain_text(f"at most {limit} characters")
        assert not Deck.objects.exists()
        browser_log.assert_clean()
    finally:
        context.close()
