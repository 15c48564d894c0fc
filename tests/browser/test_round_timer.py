"""One round timer on the player's phone and the judge's tablet (docs/players.md "The
round timer"), in Chromium: a player's own page (phone, 360×780) and the judge's offline
tablet (820×1180) show the same time left at the player's table, which got 4 minutes of
time extension; then the phone loses its network and its countdown goes on ticking, still
the tablet's.

Setup through the services (what staff do on other pages): the event, its players, the
seating published, the clock started, the extension. Screenshots:
``/tmp/shots/wt-timer/``.
"""

import re
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.judging_pages import give_event_role, link_account
from tests.browser.pages import log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SLUG = "timer-open-2026"
PHONE = {"width": 360, "height": 780}
SHOTS = Path("/tmp/shots/wt-timer")


def seconds(text: str) -> int:
    match = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert match, f"not a countdown: {text!r}"
    return int(match[1]) * 60 + int(match[2])


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def floor(organisation, make_user):
    from events import people, services
    from events.models import Seat
    from events.permissions import ROLE_PERMISSIONS, Role
    from penalties import time_extensions as te
    from penalties.models import TimeExtension

    event = services.create_event(
        organisation, preset="vekn-2026", slug=SLUG, name="Timer Open", date=date(2026, 11, 28)
    )
    pia = make_user("pia")
    for i in range(7):
        services.register(event, people.find_or_create_person(f"Player {i}", ""), check_in=True)
    services.register(event, people.find_or_create_person("Pía Lagos", ""), check_in=True)
    link_account(pia.username, "Pía Lagos")
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    te.start_round_clock(rnd, perms=ROLE_PERMISSIONS[Role.ORGANISER])
    table = Seat.objects.get(round=rnd, registration__person__name="Pía Lagos").table
    TimeExtension.objects.create(table=table, minutes_spent=4, minutes=4)
    judge = make_user("jude")
    give_event_role(SLUG, judge.username, Role.JUDGE)
    return {"pia": pia, "judge": judge, "table": table.number}


def test_phone_and_tablet_count_down_together_and_the_phone_keeps_going_offline(
    live_server, browser, browser_log, new_context, floor
):
    base = live_server.url
    phone_context = browser.new_context(
        viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True
    )
    phone_context.set_default_timeout(5_000)
    browser_log.watch(phone_context)
    try:
        phone = phone_context.new_page()
        log_in(phone, base, floor["pia"].username, floor["pia"].password)
        phone.goto(f"{base}/players/me/")
        phone_clock = phone.locator(".my-seat [data-clock]")
        expect(phone_clock).to_contain_text("+4 min")
        phone_time = phone_clock.locator("[data-clock-time]")
        expect(phone_time).to_have_text(re.compile(r"^1[12]\d:\d\d$"))

        tablet = new_context().new_page()
        log_in(tablet, base, floor["judge"].username, floor["judge"].password)
        tablet.goto(f"{base}/events/{SLUG}/manage/tablet/")
        expect(tablet.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
        card = tablet.locator(f"article.tablet-table[data-table='{floor['table']}']")
        tablet_clock = card.locator("[data-clock]")
        expect(tablet_clock).to_contain_text("+4 min")
        tablet_time = tablet_clock.locator("[data-clock-time]")
        expect(tablet_time).to_have_text(re.compile(r"^1[12]\d:\d\d$"))
        # The round's own clock, without the extension, 4 minutes less.
        round_time = tablet.locator("#tablet-round-clock [data-clock-time]")
        expect(round_time).to_have_text(re.compile(r"^1[01]\d:\d\d$"))

        # The same time left on both (they tick apart by less than a second).
        on_phone, on_tablet = seconds(phone_time.inner_text()), seconds(tablet_time.inner_text())
        assert abs(on_phone - on_tablet) <= 1, (on_phone, on_tablet)
        assert abs(on_tablet - 4 * 60 - seconds(round_time.inner_text())) <= 1
        shot(phone, "phone-360-online")
        shot(tablet, "tablet-820")

        # The phone loses its network: the countdown goes on, and stays the tablet's.
        phone_context.set_offline(True)
        before = seconds(phone_time.inner_text())
        phone.wait_for_timeout(3_200)
        after = seconds(phone_time.inner_text())
        assert 2 <= before - after <= 4, (before, after)
        assert abs(after - seconds(tablet_time.inner_text())) <= 1
        shot(phone, "phone-360-offline")
    finally:
        phone_context.close()
    # A poll made while the phone is offline fails, and htmx says so in the console: what
    # the test does, not a fault of the page.
    browser_log.problems = [
        p
        for p in browser_log.problems
        if "htmx:sendError" not in p and "htmx:afterRequest" not in p
    ]
    browser_log.assert_clean()
