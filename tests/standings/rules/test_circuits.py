"""Circuit standings (docs/ratings.md "Circuits"): GP points, best N, minimum attendance,
the score order GW → VP → TP (TR §3.7.1, §3.7.3, §3.7.4), ties and qualification. No
database; every expected figure is worked by hand."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standings.circuits import Entry, Rules, Scoring, gp_points, score_of, standings

D = Decimal
DAY = date(2026, 1, 1)


def _e(player, event, rank, *, gw=0, vp=0, tp=0, rtp=None, day=0):
    return Entry(
        player=player,
        name=f"Name {player}",
        vekn=None,
        event=event,
        date=DAY + timedelta(days=day),
        rank=rank,
        gw=gw,
        vp=D(vp),
        tp=tp,
        rating_points=rtp,
    )


# --- GP points ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "points"),
    [
        (1, 25),
        (2, 15),
        (3, 13),
        (4, 12),
        (5, 11),
        (6, 10),
        (7, 9),
        (8, 8),
        (9, 7),
        (10, 6),
        (11, 3),
        (12, 3),
        (200, 3),
    ],
)
def test_gp_points_table(rank, points):
    assert gp_points(rank) == points


@pytest.mark.parametrize("rank", [0, -1, 1.0, True, "1", None])
def test_gp_points_refuse_what_is_not_a_rank(rank):
    with pytest.raises(ValueError):
        gp_points(rank)


@given(st.integers(min_value=1, max_value=500))
def test_gp_points_never_grow_with_the_rank(rank):
    assert gp_points(rank) >= gp_points(rank + 1) >= 3


def test_the_models_codes_are_the_rules_codes():
    from events.circuit_models import Scoring as Stored

    assert sorted(Stored.values) == sorted(s.value for s in Scoring)


# --- rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{"best": 0}, {"min_events": 0}, {"places": -1}, {"scoring": "elo"}],
)
def test_rules_refuse_values_out_of_range(kwargs):
    with pytest.raises(ValueError):
        Rules(**({"scoring": Scoring.GP} | kwargs))


def test_score_of_each_method():
    e = _e("a", "x", 3, gw=2, vp=D("4.5"), tp=120, rtp=40)
    assert score_of(e, Scoring.RATING) == (40,)
    assert score_of(e, Scoring.GP) == (13,)
    assert score_of(e, Scoring.SCORE) == (2, D("4.5"), 120)
    assert score_of(_e("a", "y", 1), Scoring.RATING) == (0,)  # unrated event: 0


# --- best N --------------------------------------------------------------------------------


def test_best_n_gp_points():
    # a: ranks 1, 3, 11, 2 → 25, 13, 3, 15; best 3 = 25 + 15 + 13 = 53.
    entries = [
        _e("a", "e1", 1, day=1),
        _e("a", "e2", 3, day=2),
        _e("a", "e3", 11, day=3),
        _e("a", "e4", 2, day=4),
        _e("b", "e1", 2, day=1),
    ]
    lines = standings(entries, Rules(Scoring.GP, best=3))
    a = lines[0]
    assert (a.player, a.rank, a.points, a.played) == ("a", 1, 53, 4)
    assert [s.entry.event for s in a.entries if s.counted] == ["e1", "e4", "e2"]
    assert [(s.entry.event, s.points) for s in a.entries if not s.counted] == [("e3", 3)]
    assert (lines[1].player, lines[1].rank, lines[1].points) == ("b", 2, 15)


def test_every_event_counts_without_best():
    entries = [_e("a", f"e{i}", 11, day=i) for i in range(12)]
    (line,) = standings(entries, Rules(Scoring.GP))
    assert line.points == 36 and all(s.counted for s in line.entries)


def test_best_n_rating_points_unrated_scores_zero():
    entries = [
        _e("a", "e1", 1, rtp=100),
        _e("a", "e2", 1, rtp=None),
        _e("a", "e3", 5, rtp=30),
    ]
    (line,) = standings(entries, Rules(Scoring.RATING, best=2))
    assert line.points == 130
    assert [(s.entry.event, s.counted) for s in line.entries] == [
        ("e1", True),
        ("e3", True),
        ("e2", False),
    ]


def test_equal_results_the_more_recent_counts():
    entries = [_e("a", "old", 4, day=1), _e("a", "new", 4, day=9)]
    (line,) = standings(entries, Rules(Scoring.GP, best=1))
    assert [s.entry.event for s in line.entries if s.counted] == ["new"]
    assert line.points == 12


# --- the score method: GW, then VP, then TP ------------------------------------------------


def test_score_orders_gw_then_vp_then_tp():
    entries = [
        _e("gw", "e1", 5, gw=3, vp=5, tp=100),
        _e("vp", "e1", 1, gw=2, vp=9, tp=300),
        _e("tp-high", "e1", 2, gw=2, vp=7, tp=240),
        _e("tp-low", "e1", 3, gw=2, vp=7, tp=180),
    ]
    lines = standings(entries, Rules(Scoring.SCORE))
    assert [line.player for line in lines] == ["gw", "vp", "tp-high", "tp-low"]
    assert [line.rank for line in lines] == [1, 2, 3, 4]
    assert lines[0].points == 3 and lines[0].vp == D(5) and lines[0].tp == 100


def test_score_best_n_picks_by_gw_vp_tp_and_sums_them():
    entries = [
        _e("a", "e1", 1, gw=2, vp="3.5", tp=120),
        _e("a", "e2", 1, gw=2, vp="4", tp=60),
        _e("a", "e3", 1, gw=1, vp=9, tp=300),
    ]
    (line,) = standings(entries, Rules(Scoring.SCORE, best=2))
    assert [s.entry.event for s in line.entries if s.counted] == ["e2", "e1"]
    assert (line.gw, line.vp, line.tp) == (4, D("7.5"), 180)


# --- ties ----------------------------------------------------------------------------------


def test_equal_totals_share_a_rank_1224():
    entries = [
        _e("a", "e1", 1),  # 25
        _e("c", "e1", 2),  # 15
        _e("b", "e2", 2),  # 15
        _e("d", "e2", 3),  # 13
    ]
    lines = standings(entries, Rules(Scoring.GP))
    assert [(line.player, line.rank) for line in lines] == [
        ("a", 1),
        ("b", 2),  # equal points: name order
        ("c", 2),
        ("d", 4),
    ]


def test_score_ties_need_all_three_equal():
    entries = [
        _e("a", "e1", 1, gw=2, vp=7, tp=240),
        _e("b", "e1", 2, gw=2, vp=7, tp=240),
        _e("c", "e1", 3, gw=2, vp=7, tp=239),
    ]
    assert [line.rank for line in standings(entries, Rules(Scoring.SCORE))] == [1, 1, 3]


# --- minimum attendance and qualification --------------------------------------------------


def test_below_the_minimum_is_listed_unranked_after_the_ranked():
    entries = [
        _e("once", "e1", 1),  # 25, one event
        _e("twice", "e1", 5),
        _e("twice", "e2", 5),  # 22
        _e("thrice", "e1", 11),
        _e("thrice", "e2", 11),
        _e("thrice", "e3", 11),  # 9
    ]
    lines = standings(entries, Rules(Scoring.GP, min_events=2, places=5))
    assert [(line.player, line.rank, line.qualified) for line in lines] == [
        ("twice", 1, True),
        ("thrice", 2, True),
        ("once", None, False),
    ]
    assert lines[2].points == 25 and lines[2].played == 1


def test_top_places_qualify_and_ties_on_the_cut_all_qualify():
    entries = [
        _e("a", "e1", 1),
        _e("b", "e1", 2),
        _e("c", "e2", 2),
        _e("d", "e2", 3),
    ]
    lines = standings(entries, Rules(Scoring.GP, places=2))
    assert [(line.player, line.qualified) for line in lines] == [
        ("a", True),
        ("b", True),
        ("c", True),  # shares rank 2
        ("d", False),
    ]
    assert not any(line.qualified for line in standings(entries, Rules(Scoring.GP)))


# --- refusals and properties ---------------------------------------------------------------


def test_refuses_a_player_twice_in_one_event():
    with pytest.raises(ValueError, match="twice"):
        standings([_e("a", "e1", 1), _e("a", "e1", 2)], Rules(Scoring.GP))


def test_refuses_a_rank_below_one():
    with pytest.raises(ValueError):
        standings([_e("a", "e1", 0)], Rules(Scoring.SCORE))


def test_no_entries_no_lines():
    assert standings([], Rules(Scoring.RATING)) == ()


_entry = st.builds(
    lambda p, ev, rank, gw, vp2, tp, rtp: _e(p, ev, rank, gw=gw, vp=D(vp2) / 2, tp=tp, rtp=rtp),
    st.sampled_from("abcdef"),
    st.sampled_from(["e1", "e2", "e3", "e4", "e5"]),
    st.integers(1, 20),
    st.integers(0, 4),
    st.integers(0, 20),
    st.integers(0, 300),
    st.one_of(st.none(), st.integers(5, 300)),
)


@given(
    st.lists(_entry, max_size=30, unique_by=lambda e: (e.player, e.event)),
    st.sampled_from(list(Scoring)),
    st.one_of(st.none(), st.integers(1, 5)),
    st.integers(1, 3),
    st.integers(0, 6),
)
def test_properties(entries, scoring, best, min_events, places):
    rules = Rules(scoring, best=best, min_events=min_events, places=places)
    lines = standings(entries, rules)
    assert {line.player for line in lines} == {e.player for e in entries}
    ranked = [line for line in lines if line.rank is not None]
    assert lines[: len(ranked)] == tuple(ranked)  # ranked first
    for line in lines:
        counted = [s for s in line.entries if s.counted]
        assert len(counted) == (line.played if best is None else min(best, line.played))
        assert line.points == sum(s.points for s in counted)
        # no uncounted entry beats a counted one
        if counted and len(counted) < len(line.entries):
            worst = min(score_of(s.entry, scoring) for s in counted)
            assert all(score_of(s.entry, scoring) <= worst for s in line.entries if not s.counted)
        assert line.qualified == (line.rank is not None and line.rank <= places)
        assert (line.rank is None) == (line.played < min_events)
    for i, line in enumerate(ranked):
        assert 1 <= line.rank <= i + 1
        if i:
            total = (line.gw, line.vp, line.tp) if scoring == Scoring.SCORE else (line.points,)
            prev = ranked[i - 1]
            prev_total = (prev.gw, prev.vp, prev.tp) if scoring == Scoring.SCORE else (prev.points,)
            assert prev_total >= total
            assert (line.rank == prev.rank) == (prev_total == total)
            if line.rank != prev.rank:
                assert line.rank == i + 1
