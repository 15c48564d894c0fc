"""VEKN rating points and rankings: TR Appendix A (A.1, A.2, A.2.1), TR §6.1.1 note,
docs/rules-vekn.md "Ratings". Every expected figure below is worked by hand."""

from datetime import date
from decimal import Decimal

import pytest

from standings.ratings import (
    FORMATS,
    EventResults,
    PlayerResult,
    Result,
    Why,
    category_of,
    coefficient,
    months_before,
    player_history,
    ranking,
    rating_points,
)

D = Decimal


def _event(extra: tuple[PlayerResult, ...], size: int, **kwargs) -> EventResults:
    """``extra`` plus non-scoring seated players up to ``size``."""
    filler = tuple(PlayerResult(f"x{i}", D(0), 0) for i in range(size - len(extra)))
    return EventResults(players=extra + filler, **kwargs)


# --- the coefficient (TR Appendix A.2.1) ------------------------------------------------


def test_coefficient_is_one_for_fifteen_players():
    assert coefficient(15) == 1.0


def test_coefficient_rule_example_fifty_player_national():
    # TR A.2.1: log15(2500) − 1 + 0.25 = 2.139; the winner's bonus 2.139 × 90 = 193.
    coef = coefficient(50, "national")
    assert round(coef, 3) == 2.139
    assert round(90 * coef) == 193


def test_coefficient_bonuses():
    assert coefficient(15, "national") == 1.25
    assert coefficient(15, "continental") == 2.0
    assert coefficient(15, "grand_prix") == 1.0  # "Grand Prix … get no coefficient bonus"
    assert coefficient(225) == 3.0  # 225² = 15⁴


@pytest.mark.parametrize("size", [0, -1])
def test_coefficient_needs_players(size):
    with pytest.raises(ValueError):
        coefficient(size)


def test_coefficient_rejects_unknown_level():
    with pytest.raises(ValueError):
        coefficient(15, "world")


# --- rating points (TR Appendix A.2) -----------------------------------------------------


def test_fifteen_player_worked_example():
    # coef = 1: winner +90, finalists +30.
    winner = PlayerResult("w", D("9"), 2, finalist=True, winner=True)  # 6 prelim + 3 final
    finalist = PlayerResult("f", D("6.5"), 2, finalist=True)  # 5.5 + 1
    other = PlayerResult("o", D("1.5"), 0)
    points = rating_points(_event((winner, finalist, other), 15))
    assert points["w"] == 5 + 4 * 9 + 8 * (2 + 1) + 90 == 155
    assert points["f"] == 5 + 26 + 16 + 30 == 77
    assert points["o"] == 5 + 6 == 11
    assert points["x0"] == 5  # attending only
    assert len(points) == 15


def test_twenty_player_event():
    # coef = log15(400) − 1 = 1.2125: 109.1 → 109 for the winner, 36.4 → 36 for a finalist.
    winner = PlayerResult("w", D("4"), 1, finalist=True, winner=True)
    finalist = PlayerResult("f", D("0"), 1, finalist=True)
    points = rating_points(_event((winner, finalist), 20))
    assert points["w"] == 5 + 16 + 16 + 109 == 146
    assert points["f"] == 5 + 0 + 8 + 36 == 49


def test_python_round_half_to_even():
    # National, 15 players: coef 1.25 → 112.5 → 112 and 37.5 → 38 (Python's round, as
    # the official Archon; half-up would give 113).
    winner = PlayerResult("w", D("0"), 0, finalist=True, winner=True)
    finalist = PlayerResult("f", D("0"), 0, finalist=True)
    points = rating_points(_event((winner, finalist), 15, championship="national"))
    assert points["w"] == 5 + 8 + 112
    assert points["f"] == 5 + 38


def test_continental_fifteen_players():
    winner = PlayerResult("w", D("0"), 0, finalist=True, winner=True)
    finalist = PlayerResult("f", D("0"), 0, finalist=True)
    points = rating_points(_event((winner, finalist), 15, championship="continental"))
    assert points["w"] == 5 + 8 + 180
    assert points["f"] == 5 + 60


def test_never_seated_not_counted_and_gets_nothing():
    # 16 registered, 15 seated: coef stays 1 and the absentee is not in the result.
    winner = PlayerResult("w", D("0"), 0, finalist=True, winner=True)
    absent = PlayerResult("a", D("0"), 0, seated=False)
    points = rating_points(_event((winner, absent), 16))
    assert "a" not in points
    assert points["w"] == 5 + 8 + 90


def test_small_event_has_a_negative_bonus_as_the_formula_gives():
    # 8 players: coef = log15(64) − 1 = 0.536 → 48 and 16; 2 players would be negative.
    winner = PlayerResult("w", D("0"), 0, finalist=True, winner=True)
    finalist = PlayerResult("f", D("0"), 0, finalist=True)
    points = rating_points(_event((winner, finalist), 8))
    assert (points["w"], points["f"]) == (5 + 8 + 48, 5 + 16)


def test_half_vp_and_adjusted_vp():
    p = PlayerResult("p", D("2.5"), 1)
    q = PlayerResult("q", D("-1"), 0)  # a standings adjustment took a VP
    points = rating_points(_event((p, q), 15))
    assert points["p"] == 5 + 10 + 8
    assert points["q"] == 5 - 4


def test_vp_not_in_halves_refused():
    with pytest.raises(ValueError):
        rating_points(_event((PlayerResult("p", D("0.3"), 0),), 15))


def test_two_winners_refused():
    both = tuple(PlayerResult(f"w{i}", D(0), 0, finalist=True, winner=True) for i in range(2))
    with pytest.raises(ValueError):
        rating_points(_event(both, 15))


def test_unrated_or_final_not_played_gives_none():
    assert rating_points(_event((), 15, rated=False)) is None
    assert rating_points(_event((), 15, final_played=False)) is None


def test_no_seated_player_gives_empty():
    assert rating_points(EventResults(players=(PlayerResult("a", D(0), 0, seated=False),))) == {}


def test_categories():
    assert category_of("standard") == category_of("v5") == "constructed"
    assert category_of("limited") == "limited"
    with pytest.raises(ValueError):
        category_of("sealed")
    assert {f: c for c, formats in FORMATS.items() for f in formats} == {
        f: category_of(f) for f in ("standard", "v5", "limited")
    }


# --- months -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (date(2026, 12, 1), 18, date(2025, 6, 1)),
        (date(2026, 12, 1), 12, date(2025, 12, 1)),
        (date(2026, 8, 31), 18, date(2025, 2, 28)),
        (date(2028, 8, 31), 6, date(2028, 2, 29)),
        (date(2026, 3, 15), 18, date(2024, 9, 15)),
        (date(2026, 1, 10), 1, date(2025, 12, 10)),
    ],
)
def test_months_before(day, months, expected):
    assert months_before(day, months) == expected


# --- rankings (TR Appendix A.1, A.2) -------------------------------------------------------

AS_OF = date(2026, 12, 1)


def _r(player, points, day, event=None, category="constructed", online=False, name=None):
    return Result(
        player=player,
        vekn=f"32{player}",
        name=name or f"Name {player}",
        event=event or f"{player}-{day.isoformat()}-{points}",
        date=day,
        category=category,
        online=online,
        rating_points=points,
    )


def test_best_eight_of_ten():
    results = [
        _r("a", points, date(2026, m, 1))
        for m, points in zip(range(1, 11), range(10, 110, 10), strict=True)
    ]
    (row,) = ranking(results, "constructed", False, AS_OF)
    assert row.rating == sum(range(30, 110, 10)) == 520
    assert [e.rating_points for e in row.events] == [100, 90, 80, 70, 60, 50, 40, 30]
    assert row.rank == 1 and row.vekn == "32a" and row.name == "Name a"


def test_eighteen_month_boundary_included_and_day_before_excluded():
    start = date(2025, 6, 1)  # 2026-12-01 − 18 months
    results = [
        _r("a", 50, start),
        _r("a", 70, date(2025, 5, 31)),  # a day too old
        _r("a", 10, date(2026, 11, 1)),  # keeps the player listed
    ]
    (row,) = ranking(results, "constructed", False, AS_OF)
    assert row.rating == 60


def test_results_after_as_of_ignored():
    results = [_r("a", 10, AS_OF), _r("a", 99, date(2026, 12, 2))]
    (row,) = ranking(results, "constructed", False, AS_OF)
    assert row.rating == 10  # as_of itself counts


def test_twelve_month_listing_boundary():
    listed = [_r("a", 40, date(2025, 12, 1))]  # exactly 12 months before: listed
    hidden = [_r("b", 40, date(2025, 11, 30)), _r("b", 40, date(2025, 7, 1))]
    rows = ranking(listed + hidden, "constructed", False, AS_OF)
    assert [r.player for r in rows] == ["a"]
    # The rating is kept: as of a date when b's results are recent, b is back.
    (row,) = ranking(hidden, "constructed", False, date(2026, 6, 1))
    assert row.rating == 80


def test_competition_ranks_1224_and_name_order():
    results = [
        _r("a", 100, date(2026, 11, 1), name="Zoe"),
        _r("b", 80, date(2026, 11, 1), name="Bea"),
        _r("c", 80, date(2026, 11, 1), name="alba"),
        _r("d", 50, date(2026, 11, 1), name="Dan"),
    ]
    rows = ranking(results, "constructed", False, AS_OF)
    assert [(r.rank, r.name) for r in rows] == [(1, "Zoe"), (2, "alba"), (2, "Bea"), (4, "Dan")]


def test_groups_are_separate():
    results = [
        _r("a", 10, date(2026, 11, 1)),
        _r("a", 20, date(2026, 11, 2), online=True),
        _r("a", 30, date(2026, 11, 3), category="limited"),
        _r("a", 40, date(2026, 11, 4), category="limited", online=True),
    ]
    got = {
        (c, o): ranking(results, c, o, AS_OF)[0].rating
        for c in ("constructed", "limited")
        for o in (False, True)
    }
    assert got == {
        ("constructed", False): 10,
        ("constructed", True): 20,
        ("limited", False): 30,
        ("limited", True): 40,
    }


def test_unknown_category():
    with pytest.raises(ValueError):
        ranking([], "draft", False, AS_OF)


def test_equal_results_at_the_cut_count_the_most_recent():
    results = [_r("a", 10, date(2026, m, 1), event=f"e{m}") for m in range(1, 11)]
    (row,) = ranking(results, "constructed", False, AS_OF)
    assert row.rating == 80
    assert [e.event for e in row.events] == [f"e{m}" for m in range(10, 2, -1)]


def test_player_history_says_why():
    results = [_r("a", 10 * m, date(2026, m, 1), event=f"e{m}") for m in range(1, 10)]
    results += [
        _r("a", 500, date(2025, 1, 1), event="old"),
        _r("a", 5, date(2026, 12, 5), event="later"),
        _r("a", 33, date(2026, 11, 20), event="lim", category="limited"),
    ]
    history = player_history(results, AS_OF)
    why = {e.result.event: e.why for e in history[("constructed", False)]}
    assert why["e1"] == Why.NOT_BEST  # the 9th best of 9 in the window
    assert all(why[f"e{m}"] == Why.COUNTED for m in range(2, 10))
    assert why["old"] == Why.TOO_OLD
    assert why["later"] == Why.AFTER
    assert [e.why for e in history[("limited", False)]] == [Why.COUNTED]
    # Most recent first.
    assert history[("constructed", False)][0].result.event == "later"
