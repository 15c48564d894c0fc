"""A VEKN event day on a tablet, end to end in Chromium, as a new organiser runs it:
create the event, register and check in 23 players, two preliminary rounds (seating,
publication, result entry with the live sheet check), the toss, the final's seating ritual
and result, and the public pages a player sees on their phone.

Run: ``.venv/bin/pytest tests/browser -q``. Screenshots: ``test-artifacts/browser/``.
"""

import re
from decimal import Decimal
from itertools import combinations, product

import pytest
from playwright.sync_api import expect

from standings import vekn
from tests.browser.pages import (
    add_player,
    assert_legal,
    click_and_wait,
    create_event,
    enter_legal_sheet,
    log_in,
    messages,
    open_table,
    player_row,
    seat_names_on_result_form,
    set_player_status,
    table_names,
    table_sizes,
    type_sheet,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = [
    ("Ana Rojas", "3100001"),
    ("Bruno Díaz", "3100002"),
    ("Camila Soto", "3100003"),
    ("Diego Fuentes", "3100004"),
    ("Elena Vidal", "3100005"),
    ("Felipe Muñoz", "3100006"),
    ("Gabriela Silva", "3100007"),
    ("Hernán Castro", "3100008"),
    ("Isabel Navarro", "3100009"),
    ("Javier Reyes", "3100010"),
    ("Karina Torres", "3100011"),
    ("Lucas Morales", "3100012"),
    ("María Herrera", "3100013"),
    ("Nicolás Pérez", "3100014"),
    ("Olivia Campos", "3100015"),
    ("Pablo Vega", "3100016"),
    ("Renata Ortiz", "3100017"),
    ("Sebastián Lagos", "3100018"),
    ("Tamara Ríos", "3100019"),
    ("Ulises Bravo", "3100020"),
    ("Valentina Cruz", "3100021"),
    ("Walter Mena", "3100022"),
    ("Ximena Paredes", "3100023"),
]
LATE = ("Zoe Araya", "3100024")

# Legal sheets typed by the scorekeeper, as a person types them ("1,5" and "2" included).
# Tables of 23 players: 5, 5, 5, 4, 4.
ROUND_1 = [
    ["1.5", "0", "1.5", "0", "0.5"],  # the TR example: nobody reaches 2 VP
    ["0.5", "0", "0", "3", "1"],
    ["2", "1.5", "0", "1", "0"],
    ["0", "0", "0.5", "2.5"],
    ["1,5", "0", "0.5", "0.5"],
]
# Round 2 is planned once it is seated (``plan_round_2``): two players with the same
# round-1 record win identical games at two tables of the same size, so they tie on GW, VP
# and TP and the top 5 needs a toss whatever the (random) seating was; the other tables
# end without a Game Win, so the finalists are known in advance.
ROUND_2_WIN = {5: ["0", "0", "4", "0.5", "0"], 4: ["1", "0", "0", "3"]}
ROUND_2_NO_GW = {
    5: [["1.5", "0", "1.5", "0", "0.5"], ["0", "1", "1.5", "0.5", "1"], ["0.5"] * 5],
    4: [["1", "0.5", "1.5", "0"], ["0.5", "1.5", "0", "1"]],
}
ILLEGAL_4 = ["1", "1", "1", "1"]
FINAL = ["1", "1", "0.5", "0", "2"]  # seat 5 wins with 2 VP
RITUAL_POSITIONS = [0, 1, 1, 3, 2]  # where each finalist puts their card, in turn

SLUG = "santiago-open-2026"


def rotate(sheet: list[str], winner_from: int, winner_to: int) -> list[str]:
    """The same game seen from another seat: rotating a sheet keeps it legal (predator and
    prey follow the seat order round the table)."""
    shift = winner_from - winner_to
    return [sheet[(i + shift) % len(sheet)] for i in range(len(sheet))]


def records(tables: list[list[str]], sheets: list[list[str]]) -> dict[str, tuple]:
    """(GW, VP, TP) each player earned in one round, by name (TR §3.7)."""
    out = {}
    for names, sheet in zip(tables, sheets, strict=True):
        vps = [Decimal(v.replace(",", ".")) for v in sheet]
        for name, vp, score in zip(names, vps, vekn.score_table(vps), strict=True):
            out[name] = (score.gw, vp, score.tp)
    return out


def plan_round_2(round_1: dict[str, tuple], tables: list[list[str]]):
    """Sheets for round 2 and the two players who will tie (see ``ROUND_2_WIN``): two
    players without a Game Win in round 1, with the same record, at tables of one size."""
    for (i, a), (j, b) in combinations(enumerate(tables), 2):
        if len(a) != len(b):
            continue
        for p, q in product(a, b):
            gw = round_1.get(p, (None,))[0]
            if gw == 0 and round_1[p] == round_1.get(q):
                no_gw = {5: iter(ROUND_2_NO_GW[5]), 4: iter(ROUND_2_NO_GW[4])}
                win = ROUND_2_WIN[len(a)]
                best = max(range(len(win)), key=lambda k: Decimal(win[k]))
                sheets = [next(no_gw[len(t)]) for t in tables]
                sheets[i] = rotate(win, best, a.index(p))
                sheets[j] = rotate(win, best, b.index(q))
                for sheet in sheets:
                    assert_legal(sheet)
                return sheets, (p, q)
    pytest.fail(f"no two players with the same round-1 record at like tables: {tables}")


def test_vekn_event_day(live_server, organiser, organisation, new_context, shots, browser_log):
    no_gw = [*ROUND_2_NO_GW[5], *ROUND_2_NO_GW[4]]
    for sheet in [*ROUND_1, *ROUND_2_WIN.values(), *no_gw, FINAL]:
        assert_legal(sheet)
    base = live_server.url
    staff = new_context().new_page()
    public = new_context().new_page()  # a player's phone, not signed in

    # 1. Sign in, create the event from the VEKN preset: 2 preliminary rounds and a final.
    log_in(staff, base, organiser.username, organiser.password)
    shots(staff, "home-signed-in")
    create_event(
        staff,
        base,
        organisation.slug,
        name="Santiago Open 2026",
        slug=SLUG,
        rounds=2,
        shots=shots,
    )
    dashboard = staff.locator("main section.card").first
    expect(dashboard).to_contain_text("2 rounds of 120 min")
    expect(dashboard).to_contain_text("Final of the top 5")
    shots(staff, "dashboard-new-event")

    # 2. 23 players, checked in as they are added.
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Players"))
    for name, number in PLAYERS:
        assert add_player(staff, name, number) == f"{name} registered."
    expect(staff.get_by_role("heading", name="23 players")).to_be_visible()
    expect(staff.locator("#players .badge.ok")).to_have_count(23)
    # Drop one (an htmx swap of the row), see the counts, check them in again.
    dropped_early = PLAYERS[6][0]
    set_player_status(staff, dropped_early, "Drop", "Dropped")
    shots(staff, "players-one-dropped")
    staff.goto(f"{base}/events/{SLUG}/manage/")
    expect_counts(staff, registered=23, playing=22, checked_in=22, dropped=1)
    staff.goto(f"{base}/events/{SLUG}/manage/players/")
    set_player_status(staff, dropped_early, "Check in", "Checked in")
    staff.goto(f"{base}/events/{SLUG}/manage/")
    expect_counts(staff, registered=23, playing=23, checked_in=23, dropped=0)

    # 3. Seat round 1: 23 players → tables of 5, 5, 5, 4, 4 and the seating quality.
    public.goto(f"{base}/events/{SLUG}/seating/")
    expect(public.locator("main")).to_contain_text("not published yet")
    click_and_wait(staff, staff.get_by_role("button", name="Seat round 1"))
    expect(messages(staff)).to_contain_text("Round 1 seated.")
    expect(staff.get_by_role("heading", level=2, name="Round 1")).to_be_visible()
    assert table_sizes(staff) == [5, 5, 5, 4, 4]
    round_1 = table_names(staff)
    assert sorted(n for t in round_1 for n in t) == sorted(n for n, _ in PLAYERS)
    quality = staff.locator("section.card").filter(
        has=staff.get_by_role("heading", name="Seating quality")
    )
    expect(quality).to_be_visible()
    expect(quality).to_contain_text("Round 1 has no earlier round")
    shots(staff, "round-1-seated")
    click_and_wait(staff, staff.get_by_role("button", name="Publish seating"))
    expect(staff.get_by_role("button", name="Hide seating")).to_be_visible()

    public.goto(f"{base}/events/{SLUG}/seating/")
    expect(public.get_by_role("heading", level=2, name="Round 1")).to_be_visible()
    expect(public.locator("main")).not_to_contain_text("Not published")
    assert table_names(public) == round_1
    shots(public, "public-seating-round-1")

    # 4. Results of round 1, table by table, with the live check.
    for number, sheet in enumerate(ROUND_1, start=1):
        open_table(staff, number)
        expect(staff.locator("#check")).to_contain_text("Game still running")
        if number == 4:
            # A sheet no game gives: the live check says why, and Save is refused.
            type_sheet(staff, ILLEGAL_4)
            reason = "someone must have at least 2 VP"
            expect(staff.locator("#check .check.bad")).to_contain_text(reason)
            shots(staff, "result-illegal-live-check")
            with staff.expect_response(
                lambda r: r.request.method == "POST" and r.url.endswith("/tables/4/")
            ) as response:
                staff.get_by_role("button", name="Save result").click()
            assert response.value.status == 400
            expect(staff.get_by_role("alert")).to_contain_text(reason)
            for i in range(4):  # what was typed is still there, to be corrected
                expect(staff.locator("input.vp").nth(i)).to_have_value("1")
            shots(staff, "result-illegal-refused")
        if number == 1:
            type_sheet(staff, sheet)
            expect(staff.locator("#check")).to_contain_text("Legal result sheet.")
            shots(staff, "result-legal-sheet")
        enter_legal_sheet(staff, sheet, number)
    expect(staff.get_by_role("heading", level=2, name=re.compile("Round 1"))).to_contain_text(
        "all results in"
    )
    expect(staff.locator(".table-card .badge.ok")).to_have_count(5)
    shots(staff, "round-1-all-results")
    round_1_records = records(round_1, ROUND_1)
    round_1_winners = {name for name, (gw, _vp, _tp) in round_1_records.items() if gw}
    assert len(round_1_winners) == 3  # tables 2, 3 and 4

    # After round 1: a player with 0 VP drops, a late arrival joins from round 2.
    dropped = round_1[0][1]  # seat 2 of table 1 scored 0 VP
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Players"))
    set_player_status(staff, dropped, "Drop", "Dropped")
    staff.reload()
    late_message = add_player(staff, *LATE)
    assert late_message == f"{LATE[0]} added as a late arrival: plays from round 2."
    expect(player_row(staff, LATE[0])).to_contain_text("from round 2")
    expect(player_row(staff, LATE[0]).locator(".badge")).to_have_text("Checked in")
    shots(staff, "players-after-round-1")

    # 5. Round 2: 22 + the late arrival = 23 again, the dropped player is not seated.
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Overview"))
    click_and_wait(staff, staff.get_by_role("button", name="Seat round 2"))
    expect(messages(staff)).to_contain_text("Round 2 seated.")
    assert table_sizes(staff) == [5, 5, 5, 4, 4]
    round_2 = table_names(staff)
    seated = [n for t in round_2 for n in t]
    assert LATE[0] in seated and dropped not in seated
    round_2_sheets, tied = plan_round_2(round_1_records, round_2)
    shots(staff, "round-2-seated")
    click_and_wait(staff, staff.get_by_role("button", name="Publish seating"))
    public.goto(f"{base}/events/{SLUG}/seating/")
    expect(public.get_by_role("heading", level=2, name="Round 2")).to_be_visible()
    expect(public.locator("main")).to_contain_text(LATE[0])
    for number, sheet in enumerate(round_2_sheets, start=1):
        open_table(staff, number)
        enter_legal_sheet(staff, sheet, number)
    expect(staff.get_by_role("heading", level=2, name=re.compile("Round 2"))).to_contain_text(
        "all results in"
    )

    # 6. Standings: the two tied players need a toss for the top 5; draw it, publish.
    public.goto(f"{base}/events/{SLUG}/standings/")
    expect(public.locator("main")).to_contain_text("has not published the standings yet")
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Standings"))
    toss_forms = staff.locator("form").filter(has=staff.get_by_role("button", name="Draw the toss"))
    expect(toss_forms.first).to_contain_text("Tie for the top 5: toss needed")
    groups = [sorted(f.locator("p").first.inner_text().split(", ")) for f in toss_forms.all()]
    assert sorted(tied) in groups  # other ties may touch the top 5 too, by chance
    standings_rows = staff.locator("table.standings tbody tr")
    tied_rows = standings_rows.filter(has_text=re.compile("|".join(tied)))
    ranks = tied_rows.locator("td:first-child").all_inner_texts()
    assert len(ranks) == 2 and ranks[0] == ranks[1]  # a shared rank until the toss
    shots(staff, "standings-toss-needed")
    for drawn in range(len(groups)):
        click_and_wait(staff, toss_forms.first.get_by_role("button", name="Draw the toss"))
        expect(messages(staff)).to_contain_text("Toss recorded")
        expect(toss_forms).to_have_count(len(groups) - drawn - 1)
    expect(tied_rows.filter(has_text="toss #")).to_have_count(2)
    ranks = tied_rows.locator("td:first-child").all_inner_texts()
    assert int(ranks[1]) == int(ranks[0]) + 1
    finalists_line = staff.locator("p").filter(has_text=re.compile(r"^Finalists:"))
    finalists = finalists_line.inner_text().removeprefix("Finalists:").strip().split(", ")
    assert set(finalists) == round_1_winners | set(tied)  # the only Game Wins
    expect(standings_rows).to_have_count(24)
    expect(standings_rows.filter(has_text=dropped)).to_contain_text("dropped")
    click_and_wait(staff, staff.get_by_role("button", name="Publish standings"))
    expect(messages(staff)).to_contain_text("Standings published.")
    expect(staff.get_by_role("button", name="Hide standings")).to_be_visible()
    shots(staff, "standings-published")
    public.goto(f"{base}/events/{SLUG}/standings/")
    expect(public.locator("table.standings tbody tr")).to_have_count(24)
    first_row = public.locator("table.standings tbody tr").first
    expect(first_row).to_contain_text(finalists[0])

    # 7. The final: start it, the seating ritual (lowest qualifier first), who plays first.
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Final"))
    expect(staff.locator("main")).to_contain_text("Finalists: " + ", ".join(finalists))
    click_and_wait(staff, staff.get_by_role("button", name="Start the final"))
    # It asks first (issue 14): the confirmation page's button has the same words.
    click_and_wait(staff, staff.locator("#confirm").get_by_role("button", name="Start the final"))
    expect(staff.get_by_role("heading", name="Seating ritual")).to_be_visible()
    row: tuple = ()
    for turn, (player, position) in enumerate(
        zip(vekn.ritual_order(finalists), RITUAL_POSITIONS, strict=True), start=1
    ):
        expect(staff.locator("main")).to_contain_text(f"{player} places their card:")
        buttons = staff.locator("form.ritual button[name=position]")
        expect(buttons).to_have_count(len(row) + 1)
        expect(staff.locator("form.ritual .cardslot")).to_have_text(list(row))
        if turn == 4:
            shots(staff, "final-ritual-in-progress")
        click_and_wait(staff, staff.get_by_role("button", name=f"Place at position {position}"))
        row = vekn.place_card(row, player, position)
    expect(staff.locator("p.ritual .cardslot")).to_have_text(list(row))
    expect(staff.get_by_role("heading", name="Who plays first")).to_be_visible()
    shots(staff, "final-ritual-done")
    click_and_wait(staff, staff.get_by_role("button", name="Draw at random"))
    seating = table_names(staff)[0]
    k = seating.index(row[0])
    assert seating[k:] + seating[:k] == list(row), "the draw must only rotate the row"
    shots(staff, "final-first-player-drawn")
    # The final's table goes up on the public seating page once published.
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Overview"))
    click_and_wait(staff, staff.get_by_role("link", name="Current round: Final"))
    click_and_wait(staff, staff.get_by_role("button", name="Publish seating"))
    public.goto(f"{base}/events/{SLUG}/seating/")
    expect(public.get_by_role("heading", level=2, name="Final")).to_be_visible()
    assert table_names(public) == [seating]
    click_and_wait(staff, staff.locator("nav.tabs").get_by_role("link", name="Final"))

    # The final's result.
    click_and_wait(staff, staff.get_by_role("link", name="Enter the final's result"))
    expect(staff.get_by_role("heading", level=1)).to_contain_text("Final")
    assert seat_names_on_result_form(staff) == seating
    winner = seating[FINAL.index("2")]
    enter_legal_sheet(staff, FINAL, 1)
    shots(staff, "final-result-saved")

    # 8. The public standings, not signed in: the winner first, then the other finalists.
    public.goto(f"{base}/events/{SLUG}/standings/")
    expect(public.locator("main")).to_contain_text("Final standings.")
    rows = public.locator("table.standings tbody tr")
    expect(rows.first).to_contain_text(winner)
    expect(rows.first).to_contain_text("Winner")
    expect(rows.first).to_have_class(re.compile(r"\bwinner\b"))
    others = public.locator("table.standings tbody tr.finalist")
    expect(others).to_have_count(4)
    expect(others).to_contain_text(["Finalist"] * 4)
    other_names = {n for n in finalists if n != winner}
    assert {others.nth(i).locator("td").nth(1).inner_text() for i in range(4)} == other_names
    shots(public, "public-standings-final")
    public.get_by_role("link", name="Results").click()
    for heading in ("Round 1", "Round 2", "Final"):
        expect(public.get_by_role("heading", level=2, name=heading)).to_be_visible()
    final_card = public.locator(".tables").last.locator(".table-card")
    expect(final_card.locator("ol > li").nth(FINAL.index("2"))).to_contain_text(
        f"{winner} — 2.0 VP"
    )
    browser_log.assert_clean()


def test_two_scorekeepers_save_the_same_table(
    live_server, organiser, organisation, make_user, new_context, shots, browser_log
):
    """Two scorekeepers open table 1 on their tablets and both type a sheet; the first
    saves, then the second: the second gets a clear conflict (HTTP 409) and the first's
    values stay."""
    base = live_server.url
    sam, tess = make_user("sam"), make_user("tess")
    slug = "friday-night"
    first_sheet, second_sheet = ["1,5", "0", "0.5", "0.5"], ["0", "0", "0.5", "2.5"]
    assert_legal(first_sheet)
    assert_legal(second_sheet)

    # The organiser makes the event, appoints the two scorekeepers, seats one table.
    org = new_context().new_page()
    log_in(org, base, organiser.username, organiser.password)
    create_event(org, base, organisation.slug, name="Friday Night", slug=slug, rounds=2)
    click_and_wait(org, org.get_by_role("link", name="Staff", exact=True))
    for account in (sam, tess):
        org.locator("#id_username").fill(account.username)
        org.locator("#id_role").select_option("scorekeeper")
        click_and_wait(org, org.get_by_role("button", name="Give role"))
        expect(messages(org)).to_contain_text("Role given.")
        expect(org.locator("main")).to_contain_text(f"{account.username} — Scorekeeper")
    org.goto(f"{base}/events/{slug}/manage/players/")
    for name, number in PLAYERS[:4]:
        add_player(org, name, number)
    click_and_wait(org, org.locator("nav.tabs").get_by_role("link", name="Overview"))
    click_and_wait(org, org.get_by_role("button", name="Seat round 1"))
    assert table_sizes(org) == [4]

    # Each scorekeeper, on their own tablet, opens table 1 and types a sheet.
    tablets = []
    for account, sheet in ((sam, first_sheet), (tess, second_sheet)):
        page = new_context().new_page()
        log_in(page, base, account.username, account.password)
        mine = page.locator("section.card").filter(has_text="Events you run")
        click_and_wait(page, mine.get_by_role("link", name="Manage"))
        click_and_wait(page, page.get_by_role("link", name="Current round: Round 1"))
        open_table(page, 1)
        type_sheet(page, sheet)
        expect(page.locator("#check")).to_contain_text("Legal result sheet.")
        tablets.append(page)
    first, second = tablets
    shots(second, "second-scorekeeper-typing")

    # The first saves.
    click_and_wait(first, first.get_by_role("button", name="Save result"))
    expect(messages(first)).to_contain_text("Table 1 saved.")

    # The second saves a form loaded before that: refused, with a clear conflict.
    with second.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/tables/1/")
    ) as response:
        second.get_by_role("button", name="Save result").click()
    assert response.value.status == 409
    expect(second.get_by_role("alert")).to_contain_text(
        "sam saved this table while you were typing. Nothing of yours was saved"
    )
    expect(second.locator(".msg.warning")).to_contain_text(
        "Your values were: " + " · ".join(second_sheet)
    )
    shown = [second.locator("input.vp").nth(i).input_value() for i in range(4)]
    assert [Decimal(v) for v in shown] == [Decimal(v.replace(",", ".")) for v in first_sheet]
    expect(second.locator("#check")).to_contain_text("Legal result sheet.")
    shots(second, "conflict-409")

    # The table keeps the first scorekeeper's result, for everyone.
    for page in (second, org):
        page.goto(f"{base}/events/{slug}/manage/rounds/1/")
        card = page.locator(".tables .table-card").first
        expect(card.locator(".badge.ok")).to_have_text("done")
        expect(card.locator("ol > li strong")).to_have_text(["1.5", "0.0", "0.5", "0.5"])
    shots(org, "round-after-conflict")
    browser_log.assert_clean()


def expect_counts(page, **counts):
    """The overview's player counts (templates/events/_player_counts.html): each label
    with its number, as the organiser reads them."""
    labels = {
        "registered": "Registered",
        "playing": "Playing",
        "checked_in": "Checked in",
        "dropped": "Dropped",
    }
    box = page.locator("dl.counts")
    for key, number in counts.items():
        item = box.locator("div").filter(
            has=page.locator("dt", has_text=re.compile(f"^{labels[key]}$"))
        )
        expect(item.locator("dd")).to_have_text(str(number))
