"""A whole season played through on the demo data as league staff would (issue 5, "Done
when"), through the services only: the T24 regular phase finished and closed (the
playoffs appear with 1v8, 4v5, 2v7, 3v6 from the table), the T23 post-season of both
divisions to the champion, the promotion final, the zones, the Liguilla with its pairings
and next season's divisions, and both cups (Champagne League knockout and Conference Lag,
a Nucommunity Shit) to their winners. A third match is reported by its players with
extra time and penalties, with the demo accounts."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from leagues import brackets, cups, phases, reporting
from leagues.models import Competition, Match, Season
from leagues.services import competition_table
from tests.leagues.views.test_reporting import png

pytestmark = pytest.mark.django_db

STREAM = "https://twitch.tv/anfpes-walkthrough"


def user(name):
    return get_user_model().objects.get(username=name)


def correct(match, staff, home, away, **extra):
    reporting.correct_result(
        match,
        staff,
        home_goals=home,
        away_goals=away,
        reported_at=None,
        reason="walkthrough",
        stream_url=STREAM,
        **extra,
    )


def play_scheduled(competition, staff):
    """Every scheduled match of ``competition``: the host of a tie's second leg (the
    better-ranked team) wins 2–0 on aggregate; a third match or one-match tie ends 0–0,
    won 5–4 on penalties by the home side after extra time."""
    for m in competition.matches.filter(status="scheduled").select_related(
        "competition__season", "home", "away"
    ):
        if m.leg == 3 or competition.legs < 2:
            correct(m, staff, 0, 0, extra_time=True, penalties=(5, 4))
        elif m.leg == 1:
            correct(m, staff, 0, 1)
        else:
            correct(m, staff, 1, 0)


def play_out(competition, staff, *, before_close=None) -> list[str]:
    """Play and close every stage of a knockout until nothing is left; returns the stages
    closed, in order. A stage whose closing creates nothing new is closed once only."""
    closed = []
    for _ in range(20):
        if before_close:
            before_close(competition)
        play_scheduled(competition, staff)
        stages = brackets.bracket_display(brackets.competition_bracket(competition))
        stage = next((s for s in stages if s["can_close"]), None)
        if stage is None:
            return closed
        phases.advance_stage(competition, staff, stage["code"])
        closed.append(stage["code"])
    raise AssertionError("the knockout never ended")


def ties(competition):
    return {
        t["id"]: t
        for t in brackets.competition_bracket(competition)["ties"]
        if t["legs"] or t["winner"]
    }


def pair(competition, tie_id):
    m = competition.matches.select_related("home", "away").get(tie=tie_id, leg=2)
    return (m.away.code, m.home.code)  # lower-ranked first… as leg 1's home side


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", stdout=StringIO())
    return user("organiser")


def test_the_t24_regular_phase_is_finished_and_makes_the_playoffs(demo):
    staff = demo
    league = Competition.objects.get(slug="anfpes-t24-primera-a")
    play_scheduled(league, staff)  # with correct_result: every fixture, 2–0 … 0–1
    assert not league.matches.filter(status="scheduled").exists()
    table = competition_table(league)
    order = [row["team"] for row in table["rows"]]
    if table.get("unresolved"):  # a tie in the table: staff decide it first (§2)
        from leagues.services import decide_tie

        for tie in table["unresolved"]:
            decide_tie(league, staff, tie["teams"])
        order = [row["team"] for row in competition_table(league)["rows"]]
    playoffs = phases.close_regular_phase(league, staff)
    seeds = {i + 1: code for i, code in enumerate(order)}
    legs = {
        m.code: (m.home.code, m.away.code) for m in playoffs.matches.select_related("home", "away")
    }
    # The better-placed team hosts leg 2: 1v8, 4v5 | 2v7, 3v6 (ANFPES T24 §1.1.3).
    assert legs["qf1-2"] == (seeds[1], seeds[8])
    assert legs["qf2-2"] == (seeds[4], seeds[5])
    assert legs["qf3-2"] == (seeds[2], seeds[7])
    assert legs["qf4-2"] == (seeds[3], seeds[6])
    assert play_out(playoffs, staff) == ["a_quarter_finals", "a_semi_finals", "a_final"]
    final = ties(playoffs)["final"]
    assert final["winner"] == seeds[1] and final["match_minutes"] == 10


def test_the_t23_post_season_and_next_divisions(client, demo):
    staff = demo
    season = Season.objects.get(slug="anfpes-t23")
    a_playoffs = Competition.objects.get(slug="anfpes-t23-primera-a-playoffs")
    b_post = Competition.objects.get(slug="anfpes-t23-primera-b-playoffs")
    # The final tables (1-based positions).
    A = [None] + [
        r["team"]
        for r in competition_table(Competition.objects.get(slug="anfpes-t23-primera-a"))["rows"]
    ]
    B = [None] + [
        r["team"]
        for r in competition_table(Competition.objects.get(slug="anfpes-t23-primera-b"))["rows"]
    ]
    # qf2 is level on aggregate in the demo: closing creates its third match, which its
    # two players report (extra time, penalties) and confirm with their demo accounts.
    assert phases.advance_stage(a_playoffs, staff, "a_quarter_finals")["third_matches"] == ["qf2"]
    third = a_playoffs.matches.select_related("competition__season", "home", "away").get(
        code="qf2-3"
    )
    assert (third.home.code, third.away.code) == (A[4], A[5])  # the better-placed hosts
    home, away = user(third.home.user.username), user(third.away.user.username)
    report = reporting.report_result(
        third,
        away,
        home_goals=2,
        away_goals=2,
        posted_at=timezone.now() - timezone.timedelta(minutes=3),
        screenshot=png(),
        stream_url=STREAM,
        extra_time=True,
        penalties=(3, 4),
    )
    reporting.confirm_report(report, home)
    assert ties(a_playoffs)["qf2"]["winner"] == A[5]
    closed = play_out(a_playoffs, staff)
    assert closed == ["a_quarter_finals", "a_semi_finals", "a_final"]
    a = ties(a_playoffs)
    # Semi-finals in the bracket order (§1.1.4): winners of qf1 (1v8) and qf2 (4v5).
    assert [s["team"] for s in a["sf1"]["slots"]] == [A[1], A[5]]
    assert [s["team"] for s in a["sf2"]["slots"]] == [A[2], A[3]]
    assert a["final"]["winner"] == A[1]
    # Primera B: promotion semi-finals (played in the demo) → promotion final and zones,
    # then the zone finals, then the Liguilla.
    closed = play_out(b_post, staff)
    assert closed[0] == "b_promotion_semi_finals" and "liguilla" in closed
    b = ties(b_post)
    # Promotion semi-finals 2v5, 3v4 (§1.3.2), won by the better-placed: final 2nd v 3rd.
    assert pair(b_post, "psf1") == (B[5], B[2]) and pair(b_post, "psf2") == (B[4], B[3])
    assert pair(b_post, "pfinal") == (B[3], B[2])
    # Zone A: the better-placed semi-final loser (4th) v 11th, 7th v 8th; Zone B: the
    # worse-placed (5th) v 10th, 6th v 9th (§1.3.4).
    assert pair(b_post, "za_sf1") == (B[11], B[4]) and pair(b_post, "za_sf2") == (B[8], B[7])
    assert pair(b_post, "zb_sf1") == (B[10], B[5]) and pair(b_post, "zb_sf2") == (B[9], B[6])
    assert (b["za_final"]["winner"], b["zb_final"]["winner"]) == (B[4], B[5])
    # The zone finals say where each slot is fed from, in order.
    assert [s["fed_from"] for s in b["zb_final"]["slots"]] == [
        "winner of zb_sf1",
        "winner of zb_sf2",
    ]
    assert [s["team"] for s in b["zb_final"]["slots"]] == [B[5], B[6]]
    # Liguilla (§1.2.3, §1.3.5): 12th A v the worse-placed zone winner, 13th v the
    # better-placed, 14th v the promotion-final loser.
    assert [s["team"] for s in b["lig1"]["slots"]] == [A[12], B[5]]
    assert [s["team"] for s in b["lig2"]["slots"]] == [A[13], B[4]]
    assert [s["team"] for s in b["lig3"]["slots"]] == [A[14], B[3]]
    # Every stage is closed: no "close this stage" is offered any more.
    for comp in (a_playoffs, b_post):
        stages = brackets.bracket_display(brackets.competition_bracket(comp))
        assert all(s["closed"] and not s["can_close"] for s in stages if s["has_matches"])
    nxt = phases.season_next_divisions(season)
    assert nxt["pending"] == []
    up = {m["team"] for m in nxt["moves"] if m["to"] == "primera_a"}
    down = {m["team"] for m in nxt["moves"] if m["to"] == "primera_b"}
    assert up == {B[1], B[2]} and down == {A[15], A[16]}
    assert len(nxt["primera_a"]) == len(nxt["primera_b"]) == 16
    page = client.get(f"/seasons/{season.slug}/").content.decode()
    assert 'id="next-season"' in page


def test_both_cups_are_played_through(demo):
    staff = demo
    season = Season.objects.get(slug="anfpes-t23-cups")
    groups = Competition.objects.get(slug="anfpes-t23-cups-champagne")
    knockout, conference = cups.close_group_stage(groups, staff)
    assert knockout.matches.filter(leg=1).count() == conference.matches.filter(leg=1).count() == 8
    for cup in (knockout, conference):
        closed = play_out(cup, staff)
        assert len(closed) == 4  # round of 16, quarter-finals, semi-finals, final
        final = [t for t in ties(cup).values() if t["stage"].endswith("_final")]
        assert len(final) == 1 and final[0]["winner"] is not None
    nucommunity, _draw = cups.nucommunity_create(
        season, staff, format="knockout", method="seed", seed="walkthrough", legs=1
    )
    closed = play_out(nucommunity, staff)
    assert len(closed) == 5  # 32 entrants: five rounds
    assert Match.objects.filter(competition=nucommunity, status="scheduled").count() == 0
    cups.add_cup_bonus(season, staff, team="t1", points=3, reason="Nucommunity Shit final")
    assert cups.cup_bonus_ledger(season)[0]["reason"] == "Nucommunity Shit final"
