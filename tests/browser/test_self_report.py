"""A table's result reported from the players' phones, end to end in Chromium with
several people at once (docs/players.md "Reporting your table's result"):

- four players at a VEKN table, each on their own phone (360×800): one reports the
  table's VP, the three others see it within a poll and confirm, the result stands on
  every phone and on the judges' round page (a tablet, 820 px);
- the dispute: one reports, another disputes, and the judges' queue shows the call;
- Mitos y Leyendas: a player reports on "My match", the opponent confirms on theirs.

Setup through the ORM: the accounts, the player records, the event with its judge, the
players and round 1 seated and published (the organiser's pages that do it are tested
by ``test_vekn_event_day.py``). Screenshots: ``test-artifacts/browser/``.
"""

import datetime as dt

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 800}
POLL_MS = 9_000  # the seat box polls every five seconds
SHEET = ("2", "1", "1", "0")  # seat 1 … seat 4: a legal 4-player sheet (TR §3.7.2)


def _seated(organisation, make_user, ruleset="vekn"):
    """A seated, published round 1 of four players with accounts, and a judge. Returns
    (event, judge account, [(account, seat position, table number)] in seat order)."""
    from django.contrib.auth import get_user_model

    from events import services, swiss_services
    from events.models import Event, EventRole, Person, Registration
    from events.permissions import Role

    users = get_user_model().objects
    judge = make_user("judith")
    extra = {"ruleset": ruleset, "round_minutes": 50} if ruleset == "myl" else {}
    event = Event.objects.create(
        organisation=organisation,
        slug=f"report-{ruleset}",
        name="Report Open",
        date=dt.date.today(),
        **extra,
    )
    EventRole.objects.create(event=event, user=users.get(username="judith"), role=Role.JUDGE)
    accounts = {}
    for i, name in enumerate(("Ana Rojas", "Bruno Díaz", "Carla Soto", "Diego Paz")):
        account = make_user(f"player{i}")
        person = Person.objects.create(name=name, user=users.get(username=account.username))
        reg = Registration.objects.create(
            event=event, person=person, code=f"p{i}", status=Registration.Status.CHECKED_IN
        )
        accounts[reg.pk] = account
    if ruleset == "myl":
        rnd = swiss_services.pair_next_round(event, seed=1)
    else:
        rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    table = rnd.tables.order_by("number").first()
    seats = [
        (accounts[s.registration_id], s.position, table.number)
        for s in table.seats.order_by("position")
    ]
    return event, judge, seats


def _phones(browser, browser_log, base, accounts):
    contexts, pages = [], []
    for account in accounts:
        context = browser.new_context(
            viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True
        )
        context.set_default_timeout(5_000)
        browser_log.watch(context)
        page = context.new_page()
        log_in(page, base, account.username, account.password)
        page.goto(f"{base}/players/me/")
        contexts.append(context)
        pages.append(page)
    return contexts, pages


def _report(page, event, values, shots=None):
    page.get_by_text("Report the result", exact=True).click()  # opens the form
    for position, value in enumerate(values, start=1):
        page.locator(f"#report-{event.pk}-{position}").fill(value)
    if shots:
        shots(page, "phone-form")
    page.get_by_role("button", name="Send the result").click()
    expect(page.locator(".report-panel")).to_contain_text("Waiting for:")


def test_four_players_report_and_confirm_a_vekn_table(
    live_server, make_user, organisation, browser, new_context, browser_log, shots
):
    event, judge, seats = _seated(organisation, make_user)
    base = live_server.url
    contexts, phones = _phones(browser, browser_log, base, [a for a, _, _ in seats])
    try:
        reporter, *others = phones
        expect(reporter.locator(".report-form summary")).to_be_visible()
        shots(reporter, "phone-before")
        _report(reporter, event, SHEET, shots)
        shots(reporter, "phone-reported")
        for i, page in enumerate(others):
            button = page.get_by_role("button", name="Confirm this result")
            expect(button).to_be_visible(timeout=POLL_MS)
            expect(page.locator(".report-values")).to_contain_text("Seat 1: ")
            if i == 0:
                shots(page, "phone-to-confirm")
            button.click()
            if i < 2:
                expect(page.locator(".report-panel")).to_contain_text("Waiting for:")
        expect(others[-1].locator(".report-panel")).to_contain_text("The reported result stands.")
        shots(others[-1], "phone-stands")
        expect(reporter.locator(".report-panel")).to_contain_text(
            "The reported result stands.", timeout=POLL_MS
        )
        tablet = new_context().new_page()
        log_in(tablet, base, judge.username, judge.password)
        tablet.goto(f"{base}/events/{event.slug}/manage/rounds/1/")
        expect(tablet.locator(".report-state").first).to_contain_text("confirmed by the players")
        shots(tablet, "tablet-confirmed")
    finally:
        for context in contexts:
            context.close()

    from events.models import Seat

    stored = [
        str(s.vp) for s in Seat.objects.filter(table__number=seats[0][2]).order_by("position")
    ]
    assert stored == ["2.0", "1.0", "1.0", "0.0"]
    browser_log.assert_clean()


def test_a_player_disputes_and_a_judge_is_called(
    live_server, make_user, organisation, browser, new_context, browser_log, shots
):
    event, judge, seats = _seated(organisation, make_user)
    base = live_server.url
    contexts, phones = _phones(browser, browser_log, base, [a for a, _, _ in seats])
    judge_page = new_context().new_page()
    log_in(judge_page, base, judge.username, judge.password)
    try:
        reporter, confirmer, disputer, _waiting = phones
        _report(reporter, event, SHEET)
        confirm = confirmer.get_by_role("button", name="Confirm this result")
        expect(confirm).to_be_visible(timeout=POLL_MS)
        confirm.click()
        dispute = disputer.get_by_role("button", name="Dispute: call a judge")
        expect(dispute).to_be_visible(timeout=POLL_MS)
        dispute.click()
        expect(disputer.locator(".report-panel")).to_contain_text("a judge is called")
        expect(disputer.locator(".judge-call-state")).to_contain_text("waiting for one")
        shots(disputer, "phone-disputed")
        expect(reporter.locator(".report-panel")).to_contain_text(
            "disputed the reported result", timeout=POLL_MS
        )
        judge_page.goto(f"{base}/events/{event.slug}/manage/judge-calls/")
        card = judge_page.locator(".judge-call")
        expect(card).to_contain_text(f"Table {seats[0][2]}")
        expect(card).to_contain_text("The reported result is disputed.")
        judge_page.goto(f"{base}/events/{event.slug}/manage/rounds/1/")
        expect(judge_page.locator(".report-state").first).to_contain_text("disputed by")
        shots(judge_page, "tablet-disputed")
        # The judge's result form starts from the reported VP; saving closes the report.
        judge_page.goto(f"{base}/events/{event.slug}/manage/rounds/1/tables/{seats[0][2]}/")
        expect(judge_page.locator(".report-prefill")).to_contain_text("disputed by")
        expect(judge_page.locator("#vp_1")).to_have_value("2")
        shots(judge_page, "tablet-result-prefilled")
        judge_page.locator("#vp_1").fill("3")
        judge_page.locator("#vp_3").fill("0")
        click_and_wait(judge_page, judge_page.get_by_role("button", name="Save result"))
        expect(judge_page.locator(".report-state").first).to_contain_text(
            "report closed by a judge"
        )
        expect(disputer.locator(".report-panel")).to_contain_text(
            "The result is entered.", timeout=POLL_MS
        )
        shots(disputer, "phone-judged")
    finally:
        for context in contexts:
            context.close()
    browser_log.assert_clean()


def test_a_myl_player_reports_and_the_opponent_confirms(
    live_server, make_user, organisation, browser, browser_log, shots
):
    event, _judge, seats = _seated(organisation, make_user, "myl")
    base = live_server.url
    (me, my_position, _), (opponent, _, _) = seats[0], seats[1]
    contexts, (mine, theirs) = _phones(browser, browser_log, base, [me, opponent])
    try:
        mine.goto(f"{base}/events/{event.slug}/my-match/")
        mine.locator("#own").fill("2")
        mine.locator("#opponent").fill("1")
        click_and_wait(mine, mine.get_by_role("button", name="Send the result"))
        expect(mine.locator("main")).to_contain_text("Waiting for:")
        expect(mine.locator("main")).to_contain_text("It stands at")
        shots(mine, "myl-reported")
        theirs.goto(f"{base}/events/{event.slug}/my-match/")
        shots(theirs, "myl-to-confirm")
        click_and_wait(theirs, theirs.get_by_role("button", name="Confirm this result"))
        expect(theirs.locator("main")).to_contain_text("Result entered")
        shots(theirs, "myl-confirmed")
    finally:
        for context in contexts:
            context.close()
    from events.models import Seat

    games = [
        s.games_won for s in Seat.objects.filter(table__number=seats[0][2]).order_by("position")
    ]
    assert games == ([2, 1] if my_position == 1 else [1, 2])
    browser_log.assert_clean()
