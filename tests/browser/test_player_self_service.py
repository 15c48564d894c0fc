"""Issue 17's event day on the player's phone (docs/players.md), two people at once in
Chromium at phone size (390×844): the organiser opens self-registration with a capacity,
adds three players at the desk and shows the check-in QR code; the player registers from
the event's public page, checks in by visiting the code's address, and sees their table
and seat appear on their own page, without reloading, after the organiser seats and
publishes round 1.

Setup through the ORM: the accounts, the organisation's role and the player's record
linked to their account; everything else goes through the pages. Screenshots:
``test-artifacts/browser/``.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import add_player, click_and_wait, create_event, log_in, messages

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PHONE = {"width": 390, "height": 844}
SLUG = "qr-open-2026"


def phone(browser, browser_log):
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    context.set_default_timeout(5_000)
    context.set_default_navigation_timeout(10_000)
    browser_log.watch(context)
    return context


def assert_fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a {PHONE['width']}px phone"


def test_player_registers_checks_in_by_qr_and_sees_their_seat(
    live_server, browser, browser_log, organiser, organisation, make_user, shots
):
    from django.contrib.auth import get_user_model

    from events.models import Person

    pia = make_user("pia")
    Person.objects.create(name="Pía Lagos", user=get_user_model().objects.get(username="pia"))
    base = live_server.url
    staff_context, player_context = phone(browser, browser_log), phone(browser, browser_log)
    staff, me = staff_context.new_page(), player_context.new_page()
    try:
        # 1. The organiser creates the event, opens self-registration (5 places) and
        #    adds three players at the desk, checked in.
        log_in(staff, base, organiser.username, organiser.password)
        create_event(staff, base, organisation.slug, name="QR Open 2026", slug=SLUG, rounds=2)
        click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Players"))
        for name, number in (
            ("Ana Rojas", "3200001"),
            ("Bruno Díaz", "3200002"),
            ("Carla Soto", "3200003"),
        ):
            add_player(staff, name, number)
        click_and_wait(staff, staff.get_by_role("link", name="Registration and waitlist"))
        staff.get_by_label("Players register themselves").check()
        staff.locator("#id_capacity").fill("5")
        shots(staff, "registration-settings")
        assert_fits(staff)
        click_and_wait(staff, staff.get_by_role("button", name="Save"))
        expect(messages(staff)).to_contain_text("Settings saved.")

        # 2. The player finds the event, signs in and registers.
        log_in(me, base, pia.username, pia.password)
        me.goto(f"{base}/events/{SLUG}/")
        card = me.locator("#registration")
        expect(card).to_contain_text("2 of 5 places left.")
        shots(me, "event-page")
        assert_fits(me)
        click_and_wait(me, card.get_by_role("button", name="Register"))
        expect(messages(me)).to_contain_text("You are registered for QR Open 2026.")
        expect(me.locator("#registration")).to_contain_text("You are registered (Registered).")

        # 3. At the venue the organiser shows the QR code; the player visits its address.
        click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Players"))
        click_and_wait(staff, staff.get_by_role("link", name="Check-in QR code"))
        code = staff.locator("#check-in-code")
        expect(code.locator("svg.qr")).to_be_visible()
        expect(code).to_contain_text("3 of 4 players checked in.")
        shots(staff, "check-in-code")
        assert_fits(staff)
        address = code.locator(".qr-url").inner_text().strip()
        assert re.fullmatch(rf"{re.escape(base)}/events/{SLUG}/check-in/[^/]+/", address)
        me.goto(address)
        expect(me).to_have_url(f"{base}/players/me/")
        expect(messages(me)).to_contain_text("You are checked in for QR Open 2026.")
        seat_box = me.locator(".my-seat")
        expect(seat_box).to_contain_text("Checked in")
        expect(seat_box).to_contain_text("No round is seated yet")
        shots(me, "my-page-checked-in")
        assert_fits(me)
        # The organiser's page follows by itself (htmx, every 10 s).
        expect(code).to_contain_text("4 of 4 players checked in.", timeout=15_000)

        # 4. The organiser seats and publishes round 1; the player's page, left open and
        #    never reloaded, shows the table and seat within seconds.
        me.evaluate("window.__notReloaded = true")
        click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Overview"))
        click_and_wait(staff, staff.get_by_role("button", name="Seat round 1"))
        expect(messages(staff)).to_contain_text("Round 1 seated.")
        expect(seat_box).to_contain_text("Round 1 is being seated", timeout=8_000)
        click_and_wait(staff, staff.get_by_role("button", name="Publish seating"))
        expect(seat_box.locator(".my-seat-line")).to_contain_text("Table 1", timeout=8_000)
        expect(seat_box.locator(".my-position")).to_have_text(re.compile(r"Seat [1-4]"))
        others = seat_box.locator(".my-table-seats li")
        expect(others).to_have_count(3)
        for name in ("Ana Rojas", "Bruno Díaz", "Carla Soto"):
            expect(others.filter(has_text=name)).to_have_count(1)
        assert me.evaluate("window.__notReloaded") is True
        shots(me, "my-seat")
        assert_fits(me)
        browser_log.assert_clean()
    finally:
        staff_context.close()
        player_context.close()
