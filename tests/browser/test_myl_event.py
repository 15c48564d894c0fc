"""A Mitos y Leyendas event on a phone, end to end in Chromium: a store judge creates the
event from the MyL preset, registers 16 players, pairs and enters 4 Swiss rounds (a
player enters their own match), runs a top 8 to a champion, and the public standings
show it.

Run: ``.venv/bin/pytest tests/browser/test_myl_event.py -q``. Screenshots:
``test-artifacts/browser/``.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.myl_pages import (
    add_players,
    confirm_claim,
    enter_my_match,
    log_in,
    matches,
    messages,
    open_dashboard,
    pair_round,
    phone_context,
    play_round,
    publish_pairings,
    publish_standings,
    sign_up,
    standings_rows,
    tap_and_wait,
    top_cut_step,
)
from tests.browser.myl_pages import (
    create_myl_event as create_event,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SLUG = "copa-tienda-2026"
PLAYERS = [
    ("Ana Rojas", "5100001"),
    ("Bruno Díaz", ""),
    ("Camila Soto", ""),
    ("Diego Fuentes", ""),
    ("Elena Vidal", ""),
    ("Felipe Muñoz", ""),
    ("Gabriela Silva", ""),
    ("Hernán Castro", ""),
    ("Isabel Navarro", ""),
    ("Javier Reyes", ""),
    ("Karina Torres", ""),
    ("Lucas Morales", ""),
    ("María Herrera", ""),
    ("Nicolás Pérez", ""),
    ("Olivia Campos", ""),
    ("Pablo Vega", ""),
]
PLAYER_PASSWORD = "a-long-player-password"


@pytest.fixture
def store_judge(make_user, transactional_db):
    """A store and the judge who runs its events (an organisation organiser role)."""
    from django.contrib.auth import get_user_model

    from events.models import Organisation, OrganisationRole
    from events.permissions import Role

    store = Organisation.objects.create(
        slug="tienda-test", name="Tienda de Prueba", kind=Organisation.Kind.STORE
    )
    account = make_user("juez-tienda")
    OrganisationRole.objects.create(
        organisation=store,
        user=get_user_model().objects.get(username=account.username),
        role=Role.ORGANISER,
    )
    return store, account


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


def swiss_result(number: int, skip_table: int | None = None):
    """Games per match (seat order): seat 1 wins 2–1 at odd tables, seat 2 wins 2–0 at
    even ones; round 2's table 4 is a 1–1 draw at time. ``skip_table`` is left alone."""

    def result(m):
        if m["table"] == skip_table:
            return None
        if number == 2 and m["table"] == 4:
            return (1, 1)
        return (2, 1) if m["table"] % 2 else (0, 2)

    return result


def test_myl_event_on_a_phone(live_server, store_judge, phones, shots, browser_log):
    base = live_server.url
    store, judge_account = store_judge
    judge = phones()
    public = phones()  # a spectator's phone, not signed in
    player = phones()  # Ana's phone

    # 1. The store judge creates a MyL event: 4 Swiss rounds, best of 3, top 8.
    log_in(judge, base, judge_account.username, judge_account.password)
    create_event(judge, base, store.slug, name="Copa Tienda", slug=SLUG, top_cut=8, shots=shots)
    summary = judge.locator("main section.card").first
    expect(summary).to_contain_text("best of 3")
    expect(summary).to_contain_text("4 Swiss rounds of 50 min")
    expect(summary).to_contain_text("top 8")
    shots(judge, "dashboard-new-event")

    # 2. Sixteen players, checked in as they are added; Ana signs up on her phone (the
    # organiser confirms her claim once she has played: after round 1 is paired).
    add_players(judge, base, SLUG, PLAYERS)
    expect(judge.get_by_role("heading", name="16 players")).to_be_visible()
    shots(judge, "players")
    sign_up(player, base, "ana", "Ana Rojas", "5100001", PLAYER_PASSWORD)

    # 3. Four Swiss rounds: pair, publish, enter every match.
    open_dashboard(judge, base, SLUG)
    opponents: dict[str, set[str]] = {name: set() for name, _ in PLAYERS}
    for number in range(1, 5):
        pair_round(judge, number)
        round_matches = matches(judge)
        assert len(round_matches) == 8 and not any(m["bye"] for m in round_matches)
        seated = sorted(p for m in round_matches for p in m["players"])
        assert seated == sorted(name for name, _ in PLAYERS)
        for m in round_matches:
            a, b = m["players"]
            assert b not in opponents[a], f"rematch {a} v {b} in round {number}"
            opponents[a].add(b)
            opponents[b].add(a)
        publish_pairings(judge)
        if number == 1:
            shots(judge, "round-1-paired")
            public.goto(f"{base}/events/{SLUG}/seating/")
            expect(public.get_by_role("heading", level=2, name="Round 1")).to_be_visible()
            expect(public.locator(".table-card")).to_have_count(8)
            shots(public, "public-pairings-round-1")
        result_for = swiss_result(number)
        if number == 4:
            # Ana reports her own match from her phone; her opponent (no account here)
            # has not confirmed, so the judges' page shows it reported, and the judge's
            # own entry closes the report (docs/players.md).
            ana = next(m for m in round_matches if "Ana Rojas" in m["players"])
            games = result_for(ana)
            own = games[ana["players"].index("Ana Rojas")]
            enter_my_match(player, base, SLUG, own, games[1] if own == games[0] else games[0])
            shots(player, "my-match-reported")
            judge.reload()
            expect(judge.locator(f"#match-{ana['table']} .report-state")).to_contain_text(
                "reported · 0/1 confirmed"
            )
        play_round(judge, result_for)
        if number == 1:
            confirm_claim(judge, base, SLUG, "ana")
            expect(messages(judge)).to_have_count(0)
            open_dashboard(judge, base, SLUG)
        if number == 2:
            shots(judge, "round-2-results")
    dashboard_link = judge.locator("nav.tabs").get_by_role("link", name="Overview")
    tap_and_wait(judge, dashboard_link)
    expect(judge.get_by_role("button", name="Pair round 5")).to_have_count(0)

    # 4. Top 8: quarter-finals (a draw is refused), semi-finals, final.
    top_cut_step(judge, "Start the top 8", "Quarter-finals")
    quarter = matches(judge)
    assert len(quarter) == 4
    shots(judge, "quarter-finals")
    card = judge.locator("#match-1")
    card.locator("input.games").nth(0).fill("1")
    card.locator("input.games").nth(1).fill("1")
    tap_and_wait(judge, card.get_by_role("button", name="Save"))
    expect(judge.get_by_role("alert")).to_contain_text("cannot end in a draw")
    shots(judge, "top-cut-draw-refused")
    tap_and_wait(judge, judge.get_by_role("link", name="← Quarter-finals"))
    # Higher seeds (seat 1) win, except one upset at table 2.
    play_round(judge, lambda m: (1, 2) if m["table"] == 2 else (2, 0))
    top_cut_step(judge, "Pair the semi-finals", "Semi-finals")
    semi = matches(judge)
    assert [m["players"] for m in semi] == [
        [quarter[0]["players"][0], quarter[1]["players"][1]],
        [quarter[2]["players"][0], quarter[3]["players"][0]],
    ]
    play_round(judge, lambda m: (2, 1))
    top_cut_step(judge, "Pair the top-cut final", "Top-cut final")
    final = matches(judge)
    assert final[0]["players"] == [semi[0]["players"][0], semi[1]["players"][0]]
    play_round(judge, lambda m: (0, 2))
    champion = final[0]["players"][1]
    finalist = final[0]["players"][0]
    shots(judge, "top-cut-final")
    open_dashboard(judge, base, SLUG)
    expect(judge.locator("main")).to_contain_text(f"{champion} wins the event.")
    expect(judge.get_by_role("button", name="Pair the top-cut final")).to_have_count(0)

    # 5. Standings published: the public sees the champion, the bracket and the columns.
    public.goto(f"{base}/events/{SLUG}/standings/")
    expect(public.locator("main")).to_contain_text("has not published the standings yet")
    publish_standings(judge, base, SLUG)
    shots(judge, "staff-standings")
    public.goto(f"{base}/events/{SLUG}/standings/")
    expect(public.locator("main")).to_contain_text(f"Champion: {champion}")
    for stage in ("Quarter-finals", "Semi-finals", "Top-cut final"):
        expect(public.locator(".bracket")).to_contain_text(stage)
    header = public.locator("table.myl-standings thead").inner_text()
    for column in ("MP", "OMW %", "GW %", "OGW %"):
        assert column in header
    rows = standings_rows(public)
    assert len(rows) == 16
    assert rows[0][0] == "1" and rows[0][1].splitlines() == [champion, "Champion"]
    assert rows[1][0] == "2" and rows[1][1].splitlines() == [finalist, "Finalist"]
    assert [int(r[0]) for r in rows[:8]] == list(range(1, 9))  # the cut, one by one
    assert all(int(r[0]) >= 9 for r in rows[8:])  # everybody else from 9, Swiss order
    shots(public, "public-standings")
    doc = public.request.get(f"{base}/api/v1/events/{SLUG}/standings").json()
    assert doc["ruleset"] == "myl" and doc["final_played"] is True
    top = doc["standings"][0]
    assert (top["name"], top["winner"], top["top_cut_result"]) == (champion, True, "champion")
    assert {"match_points", "omw", "gw_pct", "ogw"} <= set(top)
    public.goto(f"{base}/events/{SLUG}/")
    expect(public.locator("main")).to_contain_text(f"Winner: {champion}")
    shots(public, "public-event")

    browser_log.assert_clean()
