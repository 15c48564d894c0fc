"""Judging a Mitos y Leyendas event on phones, end to end in Chromium: a floor judge gives
a game loss during a Swiss round and the match it hits changes in the standings; a
suspension confirmed by the head judge keeps the player out of a later event of the same
store, while a player whose suspension has ended is let in.

Run: ``.venv/bin/pytest tests/browser/test_myl_judging.py -q``. Screenshots:
``test-artifacts/browser/``.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.myl_pages import (
    add_players,
    answer_question,
    confirm_incident,
    fill_and_refresh,
    give_event_role,
    incident_at_match,
    incident_for_player,
    log_in,
    match_card,
    matches,
    messages,
    myl_preview,
    open_dashboard,
    pair_round,
    phone_context,
    pick_myl_infraction,
    play_round,
    publish_pairings,
    publish_standings,
    registered_names,
    standings_points,
    tap_and_wait,
    try_add_player,
)
from tests.browser.myl_pages import (
    create_myl_event as create_event,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = [
    ("Ana Rojas", "5200001"),
    ("Bruno Díaz", "5200002"),
    ("Camila Soto", "5200003"),
    ("Diego Fuentes", "5200004"),
    ("Elena Vidal", "5200005"),
    ("Felipe Muñoz", "5200006"),
    ("Gabriela Silva", "5200007"),
    ("Hernán Castro", "5200008"),
]


@pytest.fixture
def store_staff(make_user, transactional_db):
    """A store, its organiser (who is the head judge of its events: an organisation role)
    and a floor judge's account (the organiser gives the event role in the app)."""
    from django.contrib.auth import get_user_model

    from events.models import Organisation, OrganisationRole
    from events.permissions import Role

    store = Organisation.objects.create(
        slug="tienda-jueces", name="Tienda Jueces", kind=Organisation.Kind.STORE
    )
    head = make_user("juez-principal")
    OrganisationRole.objects.create(
        organisation=store,
        user=get_user_model().objects.get(username=head.username),
        role=Role.ORGANISER,
    )
    floor = make_user("juez-mesa")
    return store, head, floor


@pytest.fixture
def phones(browser, browser_log):
    contexts = []

    def make():
        context = phone_context(browser, browser_log)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def seat1_wins(m):
    """Seat 1 wins 2–1 at odd tables, seat 2 wins 2–0 at even ones."""
    return (2, 1) if m["table"] % 2 else (0, 2)


def test_game_loss_changes_a_match(live_server, store_staff, phones, shots, browser_log):
    base = live_server.url
    store, head_account, floor_account = store_staff
    slug = "liga-fecha-3"
    head = phones()  # the organiser, head judge of the event
    floor = phones()  # the floor judge
    public = phones()  # a spectator, not signed in

    # 1. The organiser creates a 3-round MyL event, adds 8 players and a floor judge.
    log_in(head, base, head_account.username, head_account.password)
    create_event(head, base, store.slug, name="Liga Fecha 3", slug=slug, rounds=3)
    add_players(head, base, slug, PLAYERS)
    give_event_role(head, base, slug, floor_account.username, "Judge")
    shots(head, "staff-page")

    # 2. Round 1 played; round 2 paired and every result entered.
    open_dashboard(head, base, slug)
    pair_round(head, 1)
    publish_pairings(head)
    play_round(head, seat1_wins)
    pair_round(head, 2)
    publish_pairings(head)
    round_2 = play_round(head, seat1_wins)
    table_1 = next(m for m in round_2 if m["table"] == 1)
    offender, victim = table_1["players"]  # seat 1 won table 1, 2–1
    publish_standings(head, base, slug)
    public.goto(f"{base}/events/{slug}/standings/")
    before = standings_points(public)
    assert len(before) == 8 and sum(before.values()) == 2 * 4 * 3  # 2 rounds, 4 wins each
    shots(public, "standings-before")

    # 3. The floor judge, on the round page, logs a serious insult by the winner of
    # table 1 to their opponent (3.1.2, serious case): the rules give a game loss.
    log_in(floor, base, floor_account.username, floor_account.password)
    floor.goto(f"{base}/events/{slug}/manage/rounds/2/")
    expect(floor.get_by_role("heading", level=2, name=re.compile("Round 2"))).to_be_visible()
    incident_at_match(floor, 1, offender, shots=shots)
    shots(floor, "pick-infraction")
    pick_myl_infraction(floor, "3.1.2", "Offensive Language or Behaviour")
    expect(floor.locator("main")).to_contain_text(f"{offender} · Round 2 · Table 1 · vs {victim}")
    answer_question(floor, "serious case", yes=True)
    expect(myl_preview(floor).locator("h2")).to_contain_text("Game Loss")
    expect(myl_preview(floor)).to_contain_text(
        f"The player loses the round 2 match (the win goes to {victim})."
    )
    expect(floor.locator("#preview")).not_to_contain_text("Stays pending")
    shots(floor, "game-loss-preview")
    confirm_incident(floor, "Game Loss")
    expect(floor.locator("p.status .badge")).to_have_text("Confirmed")
    expect(floor.locator(".myl-effect")).to_have_text("Match of round 2 lost.")
    shots(floor, "game-loss-saved")

    # 4. The round page shows the offender losing table 1.
    tap_and_wait(floor, floor.locator("main").get_by_role("link", name="Round 2", exact=True))
    card = match_card(floor, 1)
    expect(card).to_contain_text("loses the match (penalty)")
    expect(card.locator(".games-row.won")).to_contain_text(victim)
    shots(floor, "round-2-after-game-loss")

    # 5. The head judge sees it in the penalties list; the public standings change: the
    # offender loses the 3 points of that match, the opponent gets them.
    head.goto(f"{base}/events/{slug}/manage/penalties/")
    row = head.locator("table.grid tbody tr").filter(has_text=offender)
    expect(row).to_contain_text("3.1.2")
    expect(row.locator(".badge")).to_have_text("Confirmed")
    shots(head, "penalties-list")
    public.reload()
    after = standings_points(public)
    assert after[offender] == before[offender] - 3
    assert after[victim] == before[victim] + 3
    assert {n: p for n, p in after.items() if n not in (offender, victim)} == {
        n: p for n, p in before.items() if n not in (offender, victim)
    }
    shots(public, "standings-after")

    # 6. Round 3 is paired from the new standings.
    open_dashboard(head, base, slug)
    pair_round(head, 3)
    assert len(matches(head)) == 4

    browser_log.assert_clean()


def test_suspension_refused_at_registration(live_server, store_staff, phones, shots, browser_log):
    base = live_server.url
    store, head_account, floor_account = store_staff
    first, later = "torneo-diciembre", "torneo-enero"
    suspended_name, suspended_number = PLAYERS[0]  # suspended until 2027-01-31
    served_name, served_number = PLAYERS[1]  # suspended until 2026-12-31
    head = phones()
    floor = phones()

    # 1. The December event: 4 players, a floor judge, round 1 paired.
    log_in(head, base, head_account.username, head_account.password)
    create_event(head, base, store.slug, name="Torneo Diciembre", slug=first, rounds=2)
    add_players(head, base, first, PLAYERS[:4])
    give_event_role(head, base, first, floor_account.username, "Judge")
    open_dashboard(head, base, first)
    pair_round(head, 1)
    at_table = {p: m["table"] for m in matches(head) for p in m["players"]}

    # 2. The floor judge logs serious abuse of the staff (3.1.1, serious case): the rules
    # give a suspension with a disqualification, which waits for the head judge.
    log_in(floor, base, floor_account.username, floor_account.password)
    floor.goto(f"{base}/events/{first}/manage/rounds/1/")
    incident_at_match(floor, at_table[suspended_name], suspended_name)
    pick_myl_infraction(floor, "3.1.1", "Disruptive Behaviour towards Tournament Staff")
    answer_question(floor, "serious case", yes=True)
    expect(myl_preview(floor).locator("h2")).to_contain_text("Suspension")
    expect(myl_preview(floor)).to_contain_text("With: Disqualification")
    expect(myl_preview(floor)).to_contain_text("Stays pending until the head judge confirms it.")
    expect(floor.locator("#preview")).to_contain_text(
        "The head judge sets the suspension's dates when confirming it."
    )
    expect(floor.locator("#starts_on")).to_have_count(0)
    shots(floor, "suspension-preview-floor-judge")
    confirm_incident(floor, "Suspension")
    expect(floor.locator("p.status .badge")).to_have_text("Pending head judge")
    expect(floor.get_by_role("heading", name="Head judge")).to_have_count(0)

    # 3. The head judge confirms it from the penalties list, setting its dates.
    head.goto(f"{base}/events/{first}/manage/penalties/")
    waiting = head.locator("section.card").filter(has_text="Waiting for the head judge")
    shots(head, "penalties-waiting")
    tap_and_wait(head, waiting.get_by_role("link", name=re.compile(suspended_name)))
    expect(head.locator("p.status .badge")).to_have_text("Pending head judge")
    expect(head.locator("#c-starts")).to_have_value("2026-12-05")
    head.locator("#c-ends").fill("2027-01-31")
    shots(head, "suspension-confirm-form")
    confirm = head.locator("section.card").filter(has_text="Head judge")
    tap_and_wait(head, confirm.get_by_role("button", name="Confirm"))
    expect(messages(head)).to_contain_text("Confirmed.")
    expect(head.locator("p.status .badge")).to_have_text("Confirmed")
    expect(head.locator(".myl-sanctions")).to_contain_text("Suspension: ")
    shots(head, "suspension-confirmed")
    head.goto(f"{base}/events/{first}/manage/players/")
    row = head.locator("#players li").filter(has_text=suspended_name)
    # Her status, and the flag that a suspension covers this event's date.
    expect(row.locator(".badge").first).to_have_text("Disqualified")
    expect(row.locator(".badge.err").last).to_have_text("Suspended on this date")

    # 4. The head judge gives a second player a short suspension directly (3.4.2), with
    # its dates on the incident page; it is confirmed at once.
    incident_for_player(head, base, first, served_name)
    pick_myl_infraction(head, "3.4.2", "Disclosure of Confidential Information")
    expect(myl_preview(head).locator("h2")).to_contain_text("Suspension")
    expect(head.locator("#starts_on")).to_have_value("2026-12-05")
    fill_and_refresh(head, head.locator("#ends_on"), "2026-12-31")
    expect(head.locator("#ends_on")).to_have_value("2026-12-31")
    shots(head, "suspension-with-dates")
    confirm_incident(head, "Suspension")
    expect(head.locator("p.status .badge")).to_have_text("Confirmed")
    expect(head.locator(".myl-sanctions")).to_contain_text("Suspension: ")

    # 5. The January event of the same store: the suspended player is refused with a
    # clear message and not registered; the one whose suspension ended is added.
    create_event(head, base, store.slug, name="Torneo Enero", slug=later, date="2027-01-16")
    try_add_player(head, base, later, suspended_name, suspended_number)
    expect(messages(head)).to_contain_text(
        f"{suspended_name} is suspended from 2026-12-05 to 2027-01-31 and cannot play on "
        "this event's date."
    )
    assert suspended_name not in registered_names(head)
    shots(head, "registration-refused")
    try_add_player(head, base, later, served_name, served_number)
    expect(messages(head)).to_contain_text(f"{served_name} registered.")
    assert registered_names(head) == [served_name]
    shots(head, "registration-after-suspension")

    browser_log.assert_clean()
