"""Calling a judge, end to end in Chromium with two people (docs/players.md "Calling a
judge"): a seated player calls from a phone (360×800); the judge's queue, open on a
tablet, shows the call within a poll; the judge takes it and opens the incident of that
table; the player's seat box then names the judge coming.

Setup through the ORM: the accounts, the player records, the event with its judge, the
players and round 1 seated and published (the organiser's pages that do it are tested
by ``test_vekn_event_day.py``). Screenshots: ``test-artifacts/browser/``.
"""

import datetime as dt

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 800}
POLL_MS = 9_000  # the queue and the seat box poll every five seconds


def test_a_player_calls_a_judge_and_a_judge_takes_it(
    live_server, make_user, organisation, browser, new_context, browser_log, shots
):
    from django.contrib.auth import get_user_model

    from events import services
    from events.models import Event, EventRole, Person, Registration
    from events.permissions import Role

    users = get_user_model().objects
    ana, judge = make_user("ana"), make_user("judith")
    users.filter(username="judith").update(first_name="Judith", last_name="Soto")
    event = Event.objects.create(
        organisation=organisation, slug="call-open", name="Call Open", date=dt.date.today()
    )
    EventRole.objects.create(event=event, user=users.get(username="judith"), role=Role.JUDGE)
    me = Person.objects.create(name="Ana Rojas", user=users.get(username="ana"))
    Registration.objects.create(
        event=event, person=me, code="p0", status=Registration.Status.CHECKED_IN
    )
    for i in range(1, 8):
        Registration.objects.create(
            event=event,
            person=Person.objects.create(name=f"Player {i}"),
            code=f"p{i}",
            status=Registration.Status.CHECKED_IN,
        )
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    table = rnd.seats.get(registration__person=me).table.number
    base = live_server.url

    judge_page = new_context().new_page()
    log_in(judge_page, base, judge.username, judge.password)
    judge_page.goto(f"{base}/events/{event.slug}/manage/rounds/1/")
    click_and_wait(judge_page, judge_page.get_by_role("link", name="Judge calls"))
    expect(judge_page.get_by_text("No open calls.")).to_be_visible()

    phone = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    phone.set_default_timeout(5_000)
    browser_log.watch(phone)
    page = phone.new_page()
    try:
        log_in(page, base, ana.username, ana.password)
        page.goto(f"{base}/players/me/")
        page.get_by_text("Call a judge", exact=True).first.click()  # opens the form
        page.get_by_label("A disagreement at the table").check()
        page.get_by_label("Note (optional)").fill("Who blocked first?")
        click_and_wait(page, page.get_by_role("button", name="Call a judge"))
        expect(messages(page)).to_contain_text("A judge has been called.")
        expect(page.locator(".judge-call-state")).to_contain_text("waiting for one")
        shots(page, "called")

        card = judge_page.locator(".judge-call")
        expect(card).to_contain_text(f"Table {table}", timeout=POLL_MS)
        expect(card).to_contain_text("Who blocked first?")
        expect(card).to_contain_text("Ana Rojas")
        shots(judge_page, "queue")
        click_and_wait(judge_page, card.get_by_role("button", name="Take"))
        card = judge_page.locator(".judge-call")
        expect(card).to_contain_text("Taken by Judith Soto")
        shots(judge_page, "taken")

        expect(page.locator(".judge-call-state")).to_contain_text(
            "A judge is coming: Judith Soto.", timeout=POLL_MS
        )
        shots(page, "coming")

        click_and_wait(judge_page, card.get_by_role("link", name="Open the incident"))
        expect(judge_page.get_by_text("Ana Rojas")).to_be_visible()
    finally:
        phone.close()
    browser_log.assert_clean()
