"""Real data: the 2011-12 Premier League (openfootball/football.json, CC0; see
``tests/leagues/rules/data/README-epl.md``), read from its ``arbitro.season/1`` file, must give the
official table — and the documented order under a head-to-head-first setting.
Issue 4 "Done when"; docs/leagues.md "Tables"; docs/contracts.md §5–§6. No database."""

import json
from collections import Counter
from dataclasses import replace
from datetime import UTC
from decimal import Decimal
from pathlib import Path

import pytest

from leagues.rules.compliance import compute_compliance, fixtures_from_matches
from leagues.rules.fixtures import matchday_deadlines, round_robin
from leagues.rules.season import parse_season
from leagues.rules.table import (
    ANFPES_TIE_BREAKERS,
    PRIMERA_B,
    TableConfig,
    compute_table,
    walkover_adjustments,
)

DATA = Path(__file__).parent / "data"
H2H_FIRST = TableConfig(("points", "head_to_head", *ANFPES_TIE_BREAKERS[1:]))


@pytest.fixture(scope="module")
def season():
    return parse_season(json.loads((DATA / "season-epl-2011-12.json").read_text("utf-8")))


@pytest.fixture(scope="module")
def expected():
    return json.loads((DATA / "expected-epl-2011-12.table.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def league(season):
    return season.competition("epl-2011-12-league")


def names(season, table):
    return [season.team(row.team).name for row in table.rows]


def test_the_season_file_is_read_whole(season, league):
    assert season.slug == "epl-2011-12" and len(season.teams) == 20
    assert league.kind == "league" and league.legs == 2
    assert len(league.matches) == 380 and {m.status for m in league.matches} == {"played"}
    assert {m.round for m in league.matches} == set(range(1, 39))
    pairs = {(m.home, m.away) for m in league.matches}
    assert len(pairs) == 380  # a double round robin: each pair once at each venue
    assert all(m.reported_at.utcoffset().total_seconds() == 0 for m in league.matches)


def test_official_table_exactly(season, league, expected):
    table = compute_table(league.teams, league.matches, league.adjustments)
    assert table.complete and table.unresolved == ()
    payload = table.as_dict(league.slug)
    assert payload["competition"] == expected["competition"]
    assert payload["tie_breakers"] == list(ANFPES_TIE_BREAKERS)
    assert len(payload["rows"]) == len(expected["rows"]) == 20
    for row, want in zip(payload["rows"], expected["rows"], strict=True):
        got = {**row, "name": season.team(row["team"]).name}
        assert {key: got[key] for key in want} == want
        assert row["adjustments"] == 0 and row["no_shows"] == 0


def test_title_on_goal_difference(season, league):
    table = compute_table(league.teams, league.matches)
    city, united = table.rows[:2]
    assert names(season, table)[:2] == ["Manchester City", "Manchester United"]
    assert city.points == united.points == 89
    assert (city.goal_difference, united.goal_difference) == (64, 56)
    assert city.separated_by == "goal_difference"


def test_three_teams_on_47_by_goal_difference_then_goals_for(season, league):
    table = compute_table(league.teams, league.matches)
    trio = table.rows[9:12]
    assert [season.team(r.team).name for r in trio] == [
        "West Bromwich Albion",
        "Swansea City",
        "Norwich City",
    ]
    assert [r.points for r in trio] == [47, 47, 47]
    assert [r.goal_difference for r in trio] == [-7, -7, -14]
    assert [r.goals_for for r in trio] == [45, 44, 52]
    # West Brom over Swansea on goals for (both −7); Swansea over Norwich on GD.
    assert [r.separated_by for r in trio] == ["goals_for", "goal_difference", "points"]


def test_every_other_tie_on_points_is_shown(season, league):
    table = compute_table(league.teams, league.matches)
    by_name = dict(zip(names(season, table), table.rows, strict=True))
    assert by_name["Arsenal FC"].separated_by == "points"  # 70 vs Tottenham's 69
    assert by_name["Liverpool FC"].separated_by == "goal_difference"  # 52, +7 vs Fulham −3
    assert by_name["Sunderland AFC"].separated_by == "goal_difference"  # 45, −1 vs Stoke −17


def test_head_to_head_first_reverses_the_47_point_trio(season, league):
    """README: "With head-to-head applied first among tied teams the 47-point trio
    reverses (Norwich, Swansea, West Brom: mini-table 9, 6, 3 points)"."""
    table = compute_table(league.teams, league.matches, config=H2H_FIRST)
    trio = table.rows[9:12]
    assert [season.team(r.team).name for r in trio] == [
        "Norwich City",
        "Swansea City",
        "West Bromwich Albion",
    ]
    assert [r.separated_by for r in trio] == ["head_to_head", "head_to_head", "points"]
    assert table.as_dict(league.slug)["tie_breakers"] == [
        "points",
        "head_to_head",
        "goal_difference",
        "goals_for",
        "won",
        "fewest_no_shows",
    ]


def test_head_to_head_first_other_pairs(season, league):
    """Not in the README, but the data says so: with head-to-head first Fulham (won both
    games against Liverpool, 1-0 and 0-1 away) goes above Liverpool; City stays above United
    (6-1, 1-0) and Sunderland above Stoke (4-0, 0-1)."""
    plain = names(season, compute_table(league.teams, league.matches))
    h2h = names(season, compute_table(league.teams, league.matches, config=H2H_FIRST))
    assert plain[7:9] == ["Liverpool FC", "Fulham FC"]
    assert h2h[7:9] == ["Fulham FC", "Liverpool FC"]
    changed = [i for i, (a, b) in enumerate(zip(plain, h2h, strict=True)) if a != b]
    assert changed == [7, 8, 9, 11]  # Liverpool/Fulham and West Brom/Norwich swap places
    assert h2h[:2] == ["Manchester City", "Manchester United"]
    assert h2h[12:14] == ["Sunderland AFC", "Stoke City"]


def test_as_primera_b_the_title_tie_would_need_a_decider(season, league):
    """ANFPES T24 §1.3.1 applied to this season: City and United level on 89 points."""
    table = compute_table(league.teams, league.matches, config=PRIMERA_B)
    assert table.unresolved_ties == (("t9", "t10"),)
    assert table.unresolved[0].reason == "title_decider"
    decided = compute_table(league.teams, league.matches, config=PRIMERA_B, decisions=["t10"])
    assert names(season, decided)[:2] == ["Manchester United", "Manchester City"]
    assert decided.rows[0].separated_by == "decision"


def test_the_table_after_each_matchday_is_consistent(season, league):
    """Replaying the season matchday by matchday (rounds 1…38)."""
    for last in range(1, 39):
        matches = [m for m in league.matches if m.round <= last]
        table = compute_table(league.teams, matches)
        assert sum(r.played for r in table.rows) == 2 * len(matches)
        assert sum(r.goal_difference for r in table.rows) == 0
    assert table.rows[0].team == "t9"


def test_walkover_sanction_on_real_data(season, league):
    """Turn Manchester City's 1-0 win over United (m356) into a walkover with United absent:
    the table shows the 1-0, the no-show and the ledger's −3, and City's lead grows."""
    matches = [
        replace(m, status="walkover", absent="away") if m.id == "m356" else m
        for m in league.matches
    ]
    ledger = walkover_adjustments(matches)
    assert [(a.team, a.points, a.reason) for a in ledger] == [("t10", -3, "walkover m356")]
    table = compute_table(league.teams, matches, ledger)
    united = table.row("t10")
    assert (united.points, united.adjustments, united.no_shows) == (86, -3, 1)
    assert table.row("t9").points == 89 and table.rows[0].separated_by == "points"


def test_a_twenty_team_schedule_has_the_same_shape(league):
    """Our generator for these 20 teams: 38 matchdays of 10, as the real season."""
    matchdays = round_robin(league.teams)
    assert len(matchdays) == 38 and all(len(m.pairings) == 10 for m in matchdays)


def test_compliance_flags_the_real_postponed_matches(season, league):
    """Give each matchday the ANFPES deadlines (initial: 7 days after the matchday's first
    match, at 23:59 UTC; final: 3 days later) and post every result at its real date: the
    seven matches the Premier League postponed that season — Tottenham–Everton (matchday 1,
    played in January after the August 2011 riots) among them — score 0 for both users,
    every other 2 (ANFPES T24 §IV; docs/leagues.md "Compliance table")."""
    first_day = {}
    for match in league.matches:
        day = match.reported_at.date()
        first_day[match.round] = min(first_day.get(match.round, day), day)
    due = {r: matchday_deadlines(d, 1, UTC)[0] for r, d in first_day.items()}
    matches = [
        replace(m, initial_deadline=due[m.round].initial, final_deadline=due[m.round].final)
        for m in league.matches
    ]
    users = {team.id: team.user for team in season.teams}
    fixtures = fixtures_from_matches(matches, users, phase="epl-2011-12")
    table = compute_compliance(fixtures, max(m.reported_at for m in matches))
    outcomes = Counter(f.outcome for row in table.rows for f in row.fixtures)
    assert outcomes == {"initial": 746, "late": 14}
    late = sorted({f.fixture for row in table.rows for f in row.fixtures if f.points == 0})
    assert late == ["m200", "m280", "m346", "m357", "m358", "m359", "m360"]
    assert (league.matches[199].home, league.matches[199].away) == ("t17", "t6")
    assert all(row.max_points == 76 for row in table.rows)
    everton = table.row(season.team("t6").user)
    assert (everton.points, everton.percentage) == (70, Decimal("92.1"))
    assert table.rows[-1] == everton  # three postponed matches: the lowest figure
    assert sum(row.percentage == 100 for row in table.rows) == 11
    assert not any(row.reaped for row in table.rows)
