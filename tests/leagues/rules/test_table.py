"""League table: 3/1/0, ledger, walkovers, tie-breaker codes, head-to-head re-application,
the Primera B title decider (docs/leagues.md "Tables", ANFPES T24 §1.2.1, §1.3.1, §III.1–2,
docs/contracts.md §6). No database."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.rules import LeagueRuleError
from leagues.rules.season import Adjustment, Match
from leagues.rules.table import (
    ANFPES_TIE_BREAKERS,
    DECISION,
    PRIMERA_A,
    PRIMERA_B,
    TIE_BREAKERS,
    TableConfig,
    abandonment,
    compute_table,
    counted_score,
    missing_walkover_adjustments,
    walkover_adjustments,
)

H2H_FIRST = TableConfig(
    tie_breakers=(
        "points",
        "head_to_head",
        "goal_difference",
        "goals_for",
        "won",
        "fewest_no_shows",
    )
)

_ids = iter(range(1, 10**9))


def m(home, away, hg=None, ag=None, status=None, absent=None, id=None):
    """A match; status defaults to played with a score, scheduled without."""
    if status is None:
        status = "played" if hg is not None else "scheduled"
    return Match(
        id=id or f"m{next(_ids)}",
        round=1,
        home=home,
        away=away,
        home_goals=hg,
        away_goals=ag,
        status=status,
        absent=absent,
    )


def wo(home, away, absent, hg=None, ag=None, id=None):
    return m(home, away, hg, ag, status="walkover", absent=absent, id=id)


def order(table):
    return [row.team for row in table.rows]


def seps(table):
    return [row.separated_by for row in table.rows]


# ---------------------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------------------


def test_three_one_zero_and_the_columns():
    table = compute_table(
        ["a", "b", "c"],
        [m("a", "b", 2, 1), m("b", "c", 0, 0), m("c", "a", 3, 1), m("a", "c", 0, 0)],
    )
    a, b, c = (table.row(t) for t in "abc")
    assert (a.played, a.won, a.drawn, a.lost, a.goals_for, a.goals_against) == (3, 1, 1, 1, 3, 4)
    assert (a.goal_difference, a.points, a.adjustments, a.no_shows) == (-1, 4, 0, 0)
    assert (b.played, b.won, b.drawn, b.lost, b.points) == (2, 0, 1, 1, 1)
    assert (c.played, c.won, c.drawn, c.lost, c.points, c.goal_difference) == (3, 1, 2, 0, 5, 2)
    assert order(table) == ["c", "a", "b"]
    assert [r.position for r in table.rows] == [1, 2, 3]
    assert seps(table) == ["points", "points", None]
    assert table.tie_breakers == ANFPES_TIE_BREAKERS


def test_scheduled_and_void_matches_do_not_count_and_idle_teams_are_listed():
    table = compute_table(
        ["a", "b", "z"],
        [m("a", "b", 1, 0), m("b", "a"), m("b", "a", 5, 0, status="void")],
    )
    assert table.row("b").played == 1 and table.row("b").goals_for == 0
    assert table.row("z").played == 0 and table.row("z").points == 0
    assert order(table) == ["a", "z", "b"]  # z (GD 0) above b (GD −1)
    assert table.complete is False


def test_points_scale_is_configurable():
    two_points = TableConfig(win=2, draw=1, loss=0)
    table = compute_table(["a", "b"], [m("a", "b", 1, 0), m("b", "a", 1, 1)], config=two_points)
    assert table.row("a").points == 3 and table.row("b").points == 1


def test_ledger_adds_up_with_reasons_and_never_touches_results():
    ledger = [
        Adjustment("a", -3, "walkover m7"),
        Adjustment("a", 1, "tribunal: appeal upheld"),
        Adjustment("b", -2, "fielded a suspended footballer"),
    ]
    table = compute_table(["a", "b"], [m("a", "b", 2, 0)], ledger)
    a, b = table.row("a"), table.row("b")
    assert (a.points, a.adjustments, a.won, a.goals_for) == (1, -2, 1, 2)
    assert (b.points, b.adjustments) == (-2, -2)


# ---------------------------------------------------------------------------------------
# Walkovers (ANFPES T24 §III.1–2)
# ---------------------------------------------------------------------------------------


def test_walkover_is_one_nil_for_the_team_that_showed_up_and_a_no_show():
    match = wo("a", "b", absent="away", id="m7")
    assert counted_score(match) == (1, 0)
    assert counted_score(wo("a", "b", absent="home")) == (0, 1)
    ledger = walkover_adjustments([match])
    assert ledger == (Adjustment("b", -3, "walkover m7"),)  # docs/contracts.md §5's example form
    table = compute_table(["a", "b"], [match], ledger)
    a, b = table.row("a"), table.row("b")
    assert (a.played, a.won, a.goals_for, a.goals_against, a.points, a.no_shows) == (
        1,
        1,
        1,
        0,
        3,
        0,
    )
    assert (b.played, b.lost, b.points, b.adjustments, b.no_shows) == (1, 1, -3, -3, 1)


def test_the_table_does_not_deduct_walkover_points_by_itself():
    """The −3 lives in the ledger (one source of truth, visible with its reason)."""
    table = compute_table(["a", "b"], [wo("a", "b", absent="away", id="m1")])
    assert table.row("b").points == 0 and table.row("b").no_shows == 1


def test_walkover_with_a_given_score_uses_it():
    table = compute_table(["a", "b"], [wo("a", "b", absent="home", hg=0, ag=3)])
    assert table.row("b").goals_for == 3 and table.row("b").won == 1


def test_both_absent_without_a_score_is_a_loss_for_both():
    table = compute_table(["a", "b"], [wo("a", "b", absent="both", id="m9")])
    for team in "ab":
        row = table.row(team)
        assert (row.played, row.won, row.drawn, row.lost, row.points, row.no_shows) == (
            1,
            0,
            0,
            1,
            0,
            1,
        )
        assert row.goals_for == row.goals_against == 0
    assert walkover_adjustments([wo("a", "b", absent="both")]) == ()


def test_both_absent_with_the_tribunals_score():
    table = compute_table(
        ["a", "b"],
        [wo("a", "b", absent="both", hg=0, ag=0)],
        [Adjustment("a", -3, "tribunal m9"), Adjustment("b", -3, "tribunal m9")],
    )
    assert table.row("a").drawn == 1 and table.row("a").points == -2
    assert table.row("b").no_shows == 1


def test_missing_walkover_adjustments():
    matches = [wo("a", "b", absent="away", id="m1"), wo("c", "a", absent="home", id="m2")]
    expected = (Adjustment("b", -3, "walkover m1"), Adjustment("c", -3, "walkover m2"))
    assert missing_walkover_adjustments(matches, []) == expected
    assert missing_walkover_adjustments(matches, [expected[1]]) == (expected[0],)
    assert missing_walkover_adjustments(matches, expected) == ()
    assert missing_walkover_adjustments(matches, [Adjustment("b", -2, "walkover m1")]) == expected


def test_fewest_no_shows_separates_the_last_criterion():
    # Everyone: 1 win, 1 loss, 1-1 goals; b's loss was a walkover (absent, no ledger here).
    matches = [
        m("a", "c", 1, 0),
        wo("b", "c", absent="home", hg=0, ag=1),
        m("b", "d", 1, 0),
        m("a", "d", 0, 1),
    ]
    table = compute_table(["b", "a", "c", "d"], matches)
    assert table.row("b").no_shows == 1
    assert order(table) == ["a", "c", "d", "b"]
    assert seps(table) == [None, None, "fewest_no_shows", None]
    assert table.unresolved_ties == (("a", "c", "d"),)


# ---------------------------------------------------------------------------------------
# Tie-breakers (ANFPES T24 §1.2.1)
# ---------------------------------------------------------------------------------------


def test_each_criterion_in_turn():
    teams = ["a", "b", "c", "d", "e"]
    matches = [
        # a, b, c, d all on 3 points; e on 0.
        m("a", "e", 3, 0),  # a: GD +3
        m("b", "e", 2, 0),  # b: GD +2 GF 2
        m("c", "e", 4, 2),  # c: GD +2 GF 4
        m("d", "e", 1, 1),  # d: draw
        m("d", "e", 1, 1),
        m("d", "e", 1, 1),  # d: three draws, GD 0
    ]
    table = compute_table(teams, matches)
    assert order(table) == ["a", "c", "b", "d", "e"]
    # e drew three times with d: everyone is on 3 points.
    assert {row.points for row in table.rows} == {3}
    assert seps(table) == [
        "goal_difference",
        "goals_for",
        "goal_difference",
        "goal_difference",
        None,
    ]


def test_goals_for_then_won():
    x = [m("x", "p", 2, 0), m("x", "p", 1, 0), m("x", "p", 0, 2)]  # 6 pts, 3-2, 2 wins
    more_goals = [m("y", "q", 1, 0), m("y", "q", 2, 2), m("y", "q", 1, 1), m("y", "q", 0, 0)]
    table = compute_table(["x", "y", "p", "q"], x + more_goals)
    assert (table.row("y").points, table.row("y").goal_difference) == (6, 1)
    assert (table.row("x").points, table.row("x").goal_difference) == (6, 1)
    assert order(table)[:2] == ["y", "x"] and table.row("y").separated_by == "goals_for"
    same_goals = [m("y", "q", 1, 0), m("y", "q", 1, 1), m("y", "q", 1, 1), m("y", "q", 0, 0)]
    table = compute_table(["y", "x", "p", "q"], x + same_goals)
    assert table.row("y").goals_for == table.row("x").goals_for == 3
    assert order(table)[:2] == ["x", "y"] and table.row("x").separated_by == "won"


def test_full_tie_is_unresolved_and_listed_in_input_order():
    matches = [m("a", "c", 1, 0), m("b", "c", 1, 0)]
    table = compute_table(["b", "a", "c"], matches)
    assert order(table) == ["b", "a", "c"]
    assert table.unresolved_ties == (("b", "a"),)
    assert table.unresolved[0].reason == "decision_required"
    assert table.unresolved[0].positions == (1, 2)
    assert seps(table) == [None, "points", None]


def test_staff_decision_breaks_a_full_tie():
    matches = [m("a", "c", 1, 0), m("b", "c", 1, 0), m("d", "c", 1, 0)]
    table = compute_table(["b", "a", "d", "c"], matches, decisions=["a"])
    assert order(table) == ["a", "b", "d", "c"]
    assert seps(table) == [DECISION, None, "points", None]
    assert table.unresolved_ties == (("b", "d"),)
    table = compute_table(["b", "a", "d", "c"], matches, decisions=["d", "a", "b"])
    assert order(table) == ["d", "a", "b", "c"] and table.unresolved == ()


def test_decision_is_only_used_when_every_code_is_equal():
    draw = [m("a", "b", 1, 1)]
    assert compute_table(["a", "b"], draw).unresolved_ties == (("a", "b"),)
    table = compute_table(["a", "b"], draw, decisions=["b"])
    assert order(table) == ["b", "a"] and table.row("b").separated_by == DECISION
    table = compute_table(["a", "b"], draw, [Adjustment("b", -1, "late")], decisions=["b"])
    assert order(table) == ["a", "b"] and table.row("a").separated_by == "points"


def test_no_unresolved_ties_before_anything_is_played():
    table = compute_table(["a", "b", "c"], [m("a", "b"), m("b", "c")])
    assert order(table) == ["a", "b", "c"] and table.unresolved == ()


@pytest.mark.parametrize(
    "codes",
    [
        (),
        ("goal_difference", "points"),
        ("points", "points"),
        ("points", "away_goals"),
        ("points", DECISION),
    ],
)
def test_bad_tie_breaker_lists(codes):
    with pytest.raises(LeagueRuleError):
        TableConfig(tie_breakers=codes)


def test_codes_are_the_contracts():
    assert ANFPES_TIE_BREAKERS == (
        "points",
        "goal_difference",
        "goals_for",
        "won",
        "fewest_no_shows",
    )
    assert set(ANFPES_TIE_BREAKERS) < set(TIE_BREAKERS)
    assert "head_to_head" in TIE_BREAKERS
    assert TableConfig(tie_breakers=["points", "won"]).tie_breakers == ("points", "won")


# ---------------------------------------------------------------------------------------
# Head-to-head and its re-application
# ---------------------------------------------------------------------------------------

# Four teams, equal on points after the ledger. Among them: A 7, D 4, B 3, C 3 (B beat C);
# overall goal difference: C +3, A +2, B −1, D −4.
H2H_MATCHES = [
    m("A", "B", 1, 0),
    m("A", "C", 1, 0),
    m("A", "D", 0, 0),
    m("B", "C", 1, 0),
    m("C", "D", 5, 0),
    m("D", "B", 1, 0),
]
H2H_LEDGER = [Adjustment("A", -4, "sanction"), Adjustment("D", -1, "sanction")]


def test_head_to_head_reapplied_to_the_still_tied_subset():
    table = compute_table("ABCD", H2H_MATCHES, H2H_LEDGER, config=H2H_FIRST)
    assert {row.points for row in table.rows} == {3}
    # B and C are level (3) in the four-team mini-table; re-applied to B and C only, B's
    # win over C decides — although C has the better goal difference.
    assert order(table) == ["A", "D", "B", "C"]
    assert seps(table) == ["head_to_head", "head_to_head", "head_to_head", None]


def test_same_teams_under_the_default_order():
    table = compute_table("ABCD", H2H_MATCHES, H2H_LEDGER)
    assert order(table) == ["C", "A", "B", "D"]
    assert seps(table)[:3] == ["goal_difference"] * 3


def test_head_to_head_after_goal_difference_only_applies_to_teams_still_tied():
    codes = ("points", "goal_difference", "head_to_head")
    matches = [
        m("a", "b", 0, 1),
        m("a", "z", 2, 0),
        m("z", "a", 0, 1),
        m("b", "z", 2, 0),
        m("z", "b", 1, 0),
    ]
    table = compute_table(["a", "b", "z"], matches, config=TableConfig(codes))
    a, b = table.row("a"), table.row("b")
    assert (a.points, a.goal_difference) == (b.points, b.goal_difference) == (6, 2)
    assert order(table) == ["b", "a", "z"] and b.separated_by == "head_to_head"
    assert a.separated_by == "points"


def test_head_to_head_goal_difference_and_goals():
    config = TableConfig(
        ("points", "head_to_head", "head_to_head_goal_difference", "head_to_head_goals_for")
    )
    # a and b split their two matches; a wins on aggregate 3-1.
    table = compute_table(["b", "a"], [m("a", "b", 3, 0), m("b", "a", 1, 0)], config=config)
    assert order(table) == ["a", "b"] and table.row("a").separated_by == (
        "head_to_head_goal_difference"
    )
    # Same goal difference (2-1, 0-1): goals scored among them.
    table = compute_table(["b", "a"], [m("a", "b", 2, 1), m("b", "a", 1, 0)], config=config)
    a, b = table.row("a"), table.row("b")
    assert a.points == b.points
    # a: 2+0 = 2 goals, b: 1+1 = 2 goals: all level → unresolved, in input order.
    assert order(table) == ["b", "a"]
    assert table.unresolved_ties == (("b", "a"),)


def test_head_to_head_block_restarts_at_its_first_code():
    config = TableConfig(("points", "head_to_head", "head_to_head_goal_difference", "won"))
    table = compute_table("ABCD", H2H_MATCHES, H2H_LEDGER, config=config)
    assert order(table) == ["A", "D", "B", "C"]


def test_head_to_head_counts_walkovers_and_ignores_unplayed_matches():
    matches = [wo("a", "b", absent="away"), m("b", "a"), m("b", "z", 1, 0)]
    table = compute_table(["b", "a", "z"], matches, config=H2H_FIRST)
    assert order(table)[:2] == ["a", "b"] and table.row("a").separated_by == "head_to_head"


# ---------------------------------------------------------------------------------------
# Primera B title decider (ANFPES T24 §1.3.1)
# ---------------------------------------------------------------------------------------

# x and y on 8 points (x has the better goal difference: +6 against +2), w and v on 0.
TITLE = ["v", "w", "y", "x"]
TITLE_MATCHES = [
    m("x", "v", 5, 0),
    m("x", "w", 1, 0),
    m("y", "v", 1, 0),
    m("y", "w", 1, 0),
    m("x", "y", 1, 1),
    m("y", "x", 0, 0),
]


def test_primera_a_settles_the_title_on_goal_difference():
    table = compute_table(TITLE, TITLE_MATCHES, config=PRIMERA_A)
    assert order(table)[:2] == ["x", "y"] and table.row("x").separated_by == "goal_difference"
    assert table.unresolved == ()


def test_primera_b_title_tie_waits_for_a_decider():
    table = compute_table(TITLE, TITLE_MATCHES, config=PRIMERA_B)
    assert table.complete is True
    assert order(table) == ["x", "y", "w", "v"]  # provisional, by the normal codes
    assert table.unresolved_ties == (("x", "y"),)
    assert table.unresolved[0].reason == "title_decider"
    assert seps(table) == [None, "points", "goal_difference", None]
    payload = table.as_dict("t24-primera-b")
    assert payload["unresolved_ties"] == [["x", "y"]]
    assert payload["unresolved"] == [
        {"teams": ["x", "y"], "positions": [1, 2], "reason": "title_decider"}
    ]


def test_primera_b_decider_winner_is_champion_whatever_the_goal_difference():
    table = compute_table(TITLE, TITLE_MATCHES, config=PRIMERA_B, decisions=["y"])
    assert order(table)[:2] == ["y", "x"]
    assert table.row("y").separated_by == DECISION
    assert table.unresolved == ()


def test_primera_b_three_way_title_tie_decider_only_names_the_champion():
    # w joins x and y on 8 points: GD +2 like y, but 4 goals to y's 3.
    matches = [
        *TITLE_MATCHES,
        m("w", "v", 3, 0),
        m("w", "v", 1, 0),
        m("w", "v", 1, 1),
        m("v", "w", 0, 0),
    ]
    table = compute_table(TITLE, matches, config=PRIMERA_B)
    assert [table.row(t).points for t in "xyw"] == [8, 8, 8]
    assert order(table)[:3] == ["x", "w", "y"]
    assert table.unresolved_ties == (("x", "w", "y"),)
    assert seps(table)[:3] == [None, None, "points"]
    table = compute_table(TITLE, matches, config=PRIMERA_B, decisions=["y"])
    assert order(table)[:3] == ["y", "x", "w"]
    assert seps(table)[:3] == [DECISION, "goal_difference", "points"]
    assert table.unresolved == ()


def test_primera_b_tie_while_the_phase_is_open_is_provisional():
    open_phase = [*TITLE_MATCHES, m("v", "w")]
    table = compute_table(TITLE, open_phase, config=PRIMERA_B)
    assert table.complete is False and table.unresolved == ()
    assert order(table)[:2] == ["x", "y"] and table.row("x").separated_by == "goal_difference"
    closed = compute_table(TITLE, open_phase, config=PRIMERA_B, phase_closed=True)
    assert closed.unresolved_ties == (("x", "y"),)


def test_primera_b_ties_below_the_top_use_the_normal_codes():
    matches = [m("a", "c", 3, 0), m("b", "c", 2, 0), m("c", "d", 1, 0), m("a", "b", 5, 0)]
    table = compute_table(["a", "b", "c", "d"], matches, config=PRIMERA_B)
    assert order(table) == ["a", "b", "c", "d"]
    assert table.row("b").points == table.row("c").points == 3
    assert table.row("b").separated_by == "goal_difference"
    assert table.unresolved == ()


def test_void_matches_alone_close_the_phase():
    table = compute_table(TITLE, [*TITLE_MATCHES, m("v", "w", status="void")], config=PRIMERA_B)
    assert table.complete is True
    assert compute_table(["a", "b"], [], config=PRIMERA_B).complete is False


# ---------------------------------------------------------------------------------------
# Output and errors
# ---------------------------------------------------------------------------------------


def test_as_dict_uses_the_contract_field_names():
    table = compute_table(["a", "b"], [m("a", "b", 2, 1)], [Adjustment("b", -1, "late")])
    payload = table.as_dict("t24-primera-a")
    assert list(payload) == [
        "competition",
        "tie_breakers",
        "rows",
        "unresolved_ties",
        "unresolved",
    ]
    assert payload["competition"] == "t24-primera-a"
    assert payload["tie_breakers"] == list(ANFPES_TIE_BREAKERS)
    assert payload["rows"][0] == {
        "position": 1,
        "team": "a",
        "played": 1,
        "won": 1,
        "drawn": 0,
        "lost": 0,
        "goals_for": 2,
        "goals_against": 1,
        "goal_difference": 1,
        "points": 3,
        "adjustments": 0,
        "no_shows": 0,
        "separated_by": "points",
    }
    assert payload["rows"][1]["adjustments"] == -1 and payload["rows"][1]["points"] == -1
    assert payload["unresolved_ties"] == []


def test_every_problem_is_reported():
    bad = [
        m("a", "q", 1, 0),
        Match(id="m2", round=1, home="a", away="b", status="played"),
        Match(id="m3", round=1, home="a", away="b", status="walkover"),
        Match(id="m4", round=1, home="a", away="b", home_goals=-1, away_goals=0, status="played"),
        Match(id="m5", round=1, home="a", away="b", status="abandoned"),
        Match(id="m6", round=1, home="a", away="a", home_goals=0, away_goals=0, status="played"),
    ]
    with pytest.raises(LeagueRuleError) as error:
        compute_table(["a", "b", "a"], bad, [Adjustment("q", -3, "x")])
    problems = error.value.problems
    assert len(problems) == 8
    assert any("m2" in p and "score" in p for p in problems)
    assert any("m3" in p and "absent" in p for p in problems)
    assert any("unknown team q" in p for p in problems)
    assert "listed twice" in str(error.value)


def test_a_played_match_without_score_cannot_be_counted():
    with pytest.raises(LeagueRuleError):
        counted_score(Match(id="x", round=1, home="a", away="b", status="played"))
    assert counted_score(m("a", "b")) is None


# ---------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------

TEAMS = ["a", "b", "c", "d", "e", "f"]
result = st.tuples(
    st.sampled_from(TEAMS),
    st.sampled_from(TEAMS),
    st.integers(0, 4),
    st.integers(0, 4),
    st.sampled_from(["played", "played", "played", "walkover", "void", "scheduled"]),
    st.sampled_from(["home", "away", "both"]),
).filter(lambda r: r[0] != r[1])
configs = st.sampled_from([PRIMERA_A, PRIMERA_B, H2H_FIRST])


def build(rows):
    matches = []
    for i, (home, away, hg, ag, status, absent) in enumerate(rows):
        if status == "walkover":
            matches.append(wo(home, away, absent=absent, id=f"p{i}"))
        elif status == "scheduled":
            matches.append(m(home, away, id=f"p{i}"))
        else:
            matches.append(m(home, away, hg, ag, status=status, id=f"p{i}"))
    return matches


def key(row, code):
    return {
        "points": row.points,
        "goal_difference": row.goal_difference,
        "goals_for": row.goals_for,
        "won": row.won,
        "fewest_no_shows": -row.no_shows,
    }[code]


@settings(max_examples=300, deadline=None)
@given(st.lists(result, max_size=30), configs, st.randoms(use_true_random=False))
def test_table_invariants(rows, config, rnd):
    matches = build(rows)
    ledger = walkover_adjustments(matches)
    table = compute_table(TEAMS, matches, ledger, config=config)
    assert [r.position for r in table.rows] == list(range(1, 7))
    assert sorted(order(table)) == sorted(TEAMS)
    assert all(r.won + r.drawn + r.lost == r.played for r in table.rows)
    assert all(r.goal_difference == r.goals_for - r.goals_against for r in table.rows)
    assert all(r.points == 3 * r.won + r.drawn + r.adjustments for r in table.rows)
    assert sum(r.goals_for for r in table.rows) == sum(r.goals_against for r in table.rows)
    assert sum(r.no_shows for r in table.rows) == sum(
        (x.absent == "both") + 1 for x in matches if x.status == "walkover"
    )
    assert [r.points for r in table.rows] == sorted((r.points for r in table.rows), reverse=True)
    tied = {t for tie in table.unresolved_ties for t in tie}
    if not any(x.status in ("played", "walkover") for x in matches):
        assert table.unresolved == ()  # nothing played: ties are not reported yet
        tied = set(TEAMS)
    for upper, lower in itertools.pairwise(table.rows):
        code = upper.separated_by
        if code is None:
            assert upper.team in tied and lower.team in tied
            continue
        if code in ("points", "goal_difference", "goals_for", "won", "fewest_no_shows"):
            assert key(upper, code) > key(lower, code)
            codes = config.tie_breakers
            if code in codes and "head_to_head" not in codes[: codes.index(code)]:
                for earlier in codes[: codes.index(code)]:
                    assert key(upper, earlier) == key(lower, earlier)
    # Shuffling the input only reorders teams inside unresolved ties.
    shuffled = TEAMS[:]
    rnd.shuffle(shuffled)
    again = compute_table(shuffled, list(reversed(matches)), ledger, config=config)
    for first, second in zip(table.rows, again.rows, strict=True):
        if first.team != second.team:
            assert first.team in tied and second.team in tied
        assert first.points == second.points


def test_large_random_league_is_fast_and_consistent():
    rng = random.Random(24)
    teams = [f"t{i}" for i in range(40)]
    matches = [
        m(h, a, rng.randint(0, 3), rng.randint(0, 3)) for h in teams for a in teams if h != a
    ]
    for config in (PRIMERA_A, PRIMERA_B, H2H_FIRST):
        table = compute_table(teams, matches, config=config)
        assert len(table.rows) == 40


# ---------------------------------------------------------------------------------------
# Abandonment (ANFPES T24 §III.4)
# ---------------------------------------------------------------------------------------

ABANDON = [
    m("a", "q", 2, 0, id="m1"),
    m("q", "b", id="m2"),
    m("c", "q", id="m3"),
    m("a", "b", id="m4"),
    m("q", "c", 0, 0, id="m5"),
]


def test_abandonment_annuls_the_remaining_fixtures():
    matches, ledger = abandonment(ABANDON, "q", award=False)
    assert [x.status for x in matches] == ["played", "void", "void", "scheduled", "played"]
    assert ledger == ()
    table = compute_table(["a", "b", "c", "q"], matches, ledger)
    assert table.row("q").played == 2 and table.row("b").played == 0


def test_abandonment_awards_the_remaining_fixtures_as_walkovers():
    matches, ledger = abandonment(ABANDON, "q", award=True)
    assert [(x.status, x.absent) for x in matches[1:3]] == [
        ("walkover", "home"),
        ("walkover", "away"),
    ]
    assert ledger == (Adjustment("q", -3, "walkover m2"), Adjustment("q", -3, "walkover m3"))
    table = compute_table(["a", "b", "c", "q"], matches, ledger)
    q = table.row("q")
    assert (q.played, q.lost, q.no_shows, q.adjustments, q.points) == (4, 3, 2, -6, -5)
    assert table.row("b").points == 3 and table.row("c").points == 4


def test_walkover_scores_must_favour_the_team_that_showed_up():
    with pytest.raises(LeagueRuleError):
        compute_table(["a", "b"], [wo("a", "b", absent="home", hg=1, ag=0)])
    with pytest.raises(LeagueRuleError):
        compute_table(["a", "b"], [wo("a", "b", absent="away", hg=1, ag=1)])
    with pytest.raises(LeagueRuleError):
        compute_table(["a", "b"], [Match("x", 1, "a", "b", 1, None, "played")])
    with pytest.raises(LeagueRuleError):
        compute_table(["a", "b"], [Match("x", 1, "a", "b", True, 0, "played")])


def test_primera_b_decider_settles_1st_only_whatever_order_staff_list():
    """Issue 14: b1, b3, b2 level on points (GD +6, +3, +2), b3 wins the decider and staff
    list the three teams b3, b2, b1: b3 is champion, b1 stays 2nd and b2 3rd by goal
    difference (ANFPES T24 §1.3.1: the decider names the champion)."""
    teams = ["b1", "b2", "b3", "v"]
    matches = [
        m("b1", "v", 6, 0),
        m("b3", "v", 3, 0),
        m("b2", "v", 2, 0),
        m("b1", "b2", 0, 0),
        m("b2", "b3", 0, 0),
        m("b3", "b1", 0, 0),
    ]
    table = compute_table(teams, matches, config=PRIMERA_B)
    assert [table.row(t).points for t in ("b1", "b2", "b3")] == [5, 5, 5]
    assert order(table)[:3] == ["b1", "b3", "b2"]
    assert table.unresolved[0].reason == "title_decider"
    for decisions in (["b3", "b2", "b1"], ["b3", "b2"], ["b3"], ["b3", "b1", "b2"]):
        table = compute_table(teams, matches, config=PRIMERA_B, decisions=decisions)
        assert order(table) == ["b3", "b1", "b2", "v"], decisions
        assert seps(table)[:3] == [DECISION, "goal_difference", "points"]
        assert table.unresolved == ()
