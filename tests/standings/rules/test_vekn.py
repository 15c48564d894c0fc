"""VEKN standings, finals and the final seating ritual: TR §3.1, §3.1.3, §3.1.6, §3.7.5,
docs/rules-vekn.md "Standings", "Final"."""

from dataclasses import replace
from decimal import Decimal

import pytest

from standings.vekn import (
    FinalResult,
    RoundResult,
    SeatResult,
    StandingsInput,
    TableResult,
    compute_standings,
    legal_sheets,
    place_card,
    ritual_order,
)


def D(value):
    return None if value is None else Decimal(str(value))


def table(*seats):
    """``table(("a", 1.5), ("b", 0, -1), ("c", None, 0, True))``: player, VP[, adj[, loss]]."""
    return TableResult(
        tuple(
            SeatResult(player, D(vp), D(adj), loss)
            for player, vp, adj, loss in (s + (0, False)[len(s) - 2 :] for s in seats)
        )
    )


def rounds(*tables_per_round):
    return tuple(
        RoundResult(number, tuple(tables))
        for number, tables in enumerate(tables_per_round, start=1)
    )


# Eight players, two rounds of two 4-player tables (every sheet is legal).
#   R1 T1 x 2 (GW, 60) b 0 (12)   c 0.5 (36)  d 0.5 (36)
#   R1 T2 y 1.5 (60)   f 0 (12)   g 0.5 (36)  h 0.5 (36)
#   R2 T1 y 1.5 (60)   x 0 (12)   g 0.5 (36)  c 0.5 (36)
#   R2 T2 d 1.5 (48)   b 0 (18)   f 0 (18)    h 2 (GW, 60)
# Totals (GW, VP, TP): h 1/2.5/96, x 1/2/72, y 0/3/120, d 0/2/84, c 0/1/72, g 0/1/72,
# b 0/0/30, f 0/0/30.
PLAYERS = ("x", "b", "c", "d", "y", "f", "g", "h")
ROUNDS = rounds(
    [
        table(("x", 2), ("b", 0), ("c", 0.5), ("d", 0.5)),
        table(("y", 1.5), ("f", 0), ("g", 0.5), ("h", 0.5)),
    ],
    [
        table(("y", 1.5), ("x", 0), ("g", 0.5), ("c", 0.5)),
        table(("d", 1.5), ("b", 0), ("f", 0), ("h", 2)),
    ],
)
EVENT = StandingsInput(players=PLAYERS, rounds=ROUNDS, toss=("c", "g"))


def test_fixture_sheets_are_legal():
    for rnd in ROUNDS:
        for t in rnd.tables:
            assert tuple(s.vp for s in t.seats) in legal_sheets(len(t.seats))


def order(standings):
    return [row.player for row in standings.rows]


def ranks(standings):
    return {row.player: row.rank for row in standings.rows}


def row_of(standings, player):
    return next(row for row in standings.rows if row.player == player)


def test_order_is_gw_then_vp_then_tp():
    s = compute_standings(EVENT)
    # h beats x on VP (both 1 GW); x beats y on GW although y has more VP.
    assert order(s) == ["h", "x", "y", "d", "c", "g", "b", "f"]
    h = row_of(s, "h")
    assert (h.prelim_gw, h.prelim_vp, h.prelim_tp, h.rounds_played) == (1, Decimal("2.5"), 96, 2)
    y = row_of(s, "y")
    assert (y.prelim_gw, y.prelim_vp, y.prelim_tp) == (0, Decimal("3.0"), 120)
    assert str(y.prelim_vp) == "3.0"


def test_tp_breaks_a_gw_and_vp_tie():
    # One round: p and q both 1.5 VP, but p won 60 TP at a 4-table, q 54 at a 5-table.
    data = StandingsInput(
        players=("q", "p", "a", "b", "c", "d", "e", "f", "g"),
        rounds=rounds(
            [
                table(("q", 1.5), ("a", 0), ("b", 1.5), ("c", 0), ("d", 0.5)),
                table(("p", 1.5), ("e", 0), ("f", 0.5), ("g", 0.5)),
            ]
        ),
        toss=("q", "b"),
    )
    s = compute_standings(data)
    assert order(s)[:3] == ["p", "q", "b"]
    assert [row.prelim_tp for row in s.rows[:3]] == [60, 54, 54]


def test_toss_orders_a_tie_touching_the_top_five():
    s = compute_standings(EVENT)
    assert ranks(s) == {"h": 1, "x": 2, "y": 3, "d": 4, "c": 5, "g": 6, "b": 7, "f": 7}
    assert row_of(s, "c").toss == 1
    assert row_of(s, "g").toss == 2
    assert row_of(s, "h").toss is None
    assert s.toss_required == ()
    assert s.finalists == ("h", "x", "y", "d", "c")


def test_toss_order_is_the_recorded_one():
    s = compute_standings(replace(EVENT, toss=("b", "g", "c")))
    assert order(s)[4:6] == ["g", "c"]
    assert (row_of(s, "g").toss, row_of(s, "c").toss) == (2, 3)
    assert row_of(s, "b").toss is None  # b's tie is below the top five
    assert s.finalists == ("h", "x", "y", "d", "g")


@pytest.mark.parametrize("toss", [(), ("g",)])
def test_missing_toss_is_reported_and_blocks_the_cut(toss):
    s = compute_standings(replace(EVENT, toss=toss))
    assert s.toss_required == (("c", "g"),)
    assert row_of(s, "c").rank == row_of(s, "g").rank == 5
    assert row_of(s, "c").toss is None
    assert s.finalists == ()  # one seat left for two tied players


def test_missing_toss_inside_the_cut_keeps_the_finalists():
    # Disqualifying x makes c and g ranks 4 and 5: both reach the final either way.
    s = compute_standings(replace(EVENT, toss=(), disqualified=frozenset({"x"})))
    assert s.toss_required == (("c", "g"),)
    assert ranks(s)["c"] == ranks(s)["g"] == 4
    assert set(s.finalists) == {"h", "y", "d", "c", "g"}


def test_ties_below_the_top_five_stay_shared():
    s = compute_standings(EVENT)
    assert [row.rank for row in s.rows] == [1, 2, 3, 4, 5, 6, 7, 7]
    assert order(s)[-2:] == ["b", "f"]  # registration order inside the tie


def test_competition_ranking_with_a_shared_middle_tie():
    # Ten players, one round: two 5-tables, so 0-VP players tie at ranks below the top.
    data = StandingsInput(
        players=tuple("abcdefghij"),
        rounds=rounds(
            [
                table(("a", 5), ("b", 0), ("c", 0), ("d", 0), ("e", 0)),
                table(("f", 2), ("g", 0), ("h", 0), ("i", 0), ("j", 3)),
            ]
        ),
        toss=("b", "c", "d", "e", "g", "h", "i"),
    )
    s = compute_standings(data)
    # a 5 VP, j 3 (GW), f 2; b-e 0 VP 30 TP tie at ranks 4-7 (ordered: touches rank 5);
    # g, h, i 0 VP 24 TP tie at 8 and stay shared even though they are in the toss.
    assert [(row.player, row.rank) for row in s.rows] == [
        ("a", 1),
        ("j", 2),
        ("f", 3),
        ("b", 4),
        ("c", 5),
        ("d", 6),
        ("e", 7),
        ("g", 8),
        ("h", 8),
        ("i", 8),
    ]
    assert [row.toss for row in s.rows] == [None, None, None, 1, 2, 3, 4, None, None, None]


def test_disqualified_players_are_removed():
    s = compute_standings(replace(EVENT, disqualified=frozenset({"y"})))
    assert "y" not in order(s)
    assert order(s) == ["h", "x", "d", "c", "g", "b", "f"]
    assert [row.rank for row in s.rows] == [1, 2, 3, 4, 5, 6, 6]
    # y's games still count for the others.
    assert row_of(s, "x").prelim_tp == 72


def test_dropped_player_stays_with_their_score_but_is_skipped_for_the_final():
    s = compute_standings(replace(EVENT, unavailable_for_final=frozenset({"x"})))
    assert row_of(s, "x").rank == 2
    assert not row_of(s, "x").finalist
    assert s.finalists == ("h", "y", "d", "c", "g")  # g moves up
    assert [row.finalist for row in s.rows] == [True, False, True, True, True, True, False, False]


def test_absent_finalists_pull_a_lower_tie_into_the_cut():
    # With x and h absent, one final seat is left for b and f, tied at rank 7.
    data = replace(EVENT, unavailable_for_final=frozenset({"x", "h"}))
    s = compute_standings(data)
    assert s.toss_required == (("b", "f"),)
    assert s.finalists == ()
    s = compute_standings(replace(data, toss=("c", "g", "f", "b")))
    assert s.toss_required == ()
    assert s.finalists == ("y", "d", "c", "g", "f")
    assert (row_of(s, "f").rank, row_of(s, "b").rank) == (7, 8)


def test_fewer_available_players_than_final_seats():
    data = StandingsInput(
        players=tuple("abcd"),
        rounds=rounds([table(("a", 2), ("b", 0), ("c", 0.5), ("d", 0.5))]),
        toss=("c", "d"),
    )
    assert compute_standings(data).finalists == ("a", "c", "d", "b")


def test_incomplete_tables_count_for_nobody():
    data = replace(
        EVENT,
        rounds=(*ROUNDS, RoundResult(3, (table(("x", 1), ("b", None), ("c", 0), ("d", 0)),))),
    )
    s = compute_standings(data)
    assert row_of(s, "x").rounds_played == 2
    assert row_of(s, "x").prelim_vp == Decimal(2)
    assert order(s) == order(compute_standings(EVENT))


def test_adjusted_vp_drive_gw_vp_and_tp():
    data = StandingsInput(
        players=tuple("abcd"),
        rounds=rounds(
            # a scored 2 but has a -1 VP standings adjustment: 1 VP, no GW, still first.
            [table(("a", 2, -1), ("b", 0), ("c", 0.5), ("d", 0.5))],
        ),
    )
    s = compute_standings(data)
    a = row_of(s, "a")
    assert (a.prelim_gw, a.prelim_vp, a.prelim_tp) == (0, Decimal(1), 60)
    data = replace(data, rounds=rounds([table(("a", 2, -2), ("b", 0), ("c", 0.5), ("d", 0.5))]))
    a = row_of(compute_standings(data), "a")
    assert (a.prelim_gw, a.prelim_vp, a.prelim_tp) == (0, Decimal(0), 18)


def test_loss_seat_scores_zero_and_is_last():
    data = StandingsInput(
        players=tuple("abcde"),
        rounds=rounds(
            # e left after the seating (TR §3.1.4): a Loss, its VP not entered.
            [table(("a", 2), ("b", 0), ("c", 0.5), ("d", 0.5), ("e", None, 0, True))],
        ),
        toss=("c", "d"),
    )
    s = compute_standings(data)
    assert order(s) == ["a", "c", "d", "b", "e"]
    e = row_of(s, "e")
    assert (e.prelim_gw, e.prelim_vp, e.prelim_tp, e.rounds_played) == (0, Decimal(0), 12, 1)
    assert row_of(s, "b").prelim_tp == 24
    assert row_of(s, "a").prelim_gw == 1


# --- finals --------------------------------------------------------------------------------

FINAL_SEATING = ("c", "h", "y", "x", "d")  # seeds 5, 1, 3, 2, 4


def with_final(vps, adjustments=None):
    return replace(EVENT, final=FinalResult(FINAL_SEATING, tuple(map(D, vps)), adjustments))


def test_final_winner_has_most_final_vp():
    s = compute_standings(with_final((2, 0, 0, 0, 3)))
    assert s.final_played
    assert order(s) == ["d", "h", "x", "y", "c", "g", "b", "f"]
    assert [row.rank for row in s.rows] == [1, 2, 2, 2, 2, 6, 7, 7]
    assert [row.winner for row in s.rows] == [True] + [False] * 7
    assert row_of(s, "d").final_vp == Decimal(3)
    assert row_of(s, "d").prelim_rank == 4
    assert row_of(s, "g").final_vp is None


def test_final_tie_goes_to_the_better_seed():
    # Seats 1 (c, seed 5) and 3 (y, seed 3) tie on 1.5: y wins, even without 2 VP.
    s = compute_standings(with_final((1.5, 0, 1.5, 0, 0.5)))
    assert s.rows[0].player == "y" and s.rows[0].winner and s.rows[0].rank == 1
    assert row_of(s, "c").rank == 2


def test_final_uses_adjusted_vp():
    adjustments = tuple(map(D, (0, 0, 0, 0, -1)))
    s = compute_standings(with_final((2, 0, 0, 0, 3), adjustments))
    # d falls to 2 and ties c; d (seed 4) beats c (seed 5).
    assert row_of(s, "d").final_vp == Decimal(2)
    assert s.rows[0].player == "d"
    adjustments = tuple(map(D, (0, 0, 0, 0, -2)))
    assert compute_standings(with_final((2, 0, 0, 0, 3), adjustments)).rows[0].player == "c"


def test_final_not_played_yet_keeps_preliminary_ranks():
    s = compute_standings(replace(EVENT, final=FinalResult(FINAL_SEATING)))
    assert not s.final_played
    assert ranks(s) == ranks(compute_standings(EVENT))
    assert not any(row.winner for row in s.rows)
    s = compute_standings(with_final((2, 0, None, 0, 3)))
    assert not s.final_played
    assert ranks(s) == ranks(compute_standings(EVENT))
    assert row_of(s, "c").final_vp == Decimal(2)


def test_final_seating_names_the_finalists():
    s = compute_standings(replace(EVENT, final=FinalResult(FINAL_SEATING)))
    assert s.finalists == ("h", "x", "y", "d", "c")  # seed order, not seat order


def test_no_final_event():
    data = replace(EVENT, has_final=False)
    s = compute_standings(data)
    assert s.finalists == ()
    assert not s.final_played
    assert not any(row.finalist or row.winner for row in s.rows)
    assert [row.rank for row in s.rows] == [row.prelim_rank for row in s.rows]
    assert ranks(s)["c"] == 5 and ranks(s)["g"] == 6  # top-five ties still go to the toss
    with pytest.raises(ValueError):
        compute_standings(replace(data, final=FinalResult(FINAL_SEATING)))


def test_no_final_event_does_not_toss_for_absent_players():
    data = replace(EVENT, has_final=False, unavailable_for_final=frozenset({"x", "h"}))
    assert compute_standings(data).toss_required == ()


@pytest.mark.parametrize(
    "data",
    [
        replace(EVENT, players=(*PLAYERS, "x")),
        replace(EVENT, players=PLAYERS[1:]),
        replace(EVENT, rounds=rounds([table(("x", 1), ("x", 0), ("c", 0), ("d", 1))])),
        replace(EVENT, final=FinalResult(("zz", "h", "y", "x", "d"))),
        replace(EVENT, final=FinalResult(FINAL_SEATING, (D(1),))),
    ],
)
def test_inconsistent_input_raises(data):
    with pytest.raises(ValueError):
        compute_standings(data)


def test_no_results_yet():
    s = compute_standings(StandingsInput(players=tuple("abc"), rounds=()))
    assert [row.rank for row in s.rows] == [1, 1, 1]
    assert s.toss_required == (("a", "b", "c"),)


# --- final seating ritual (TR §3.1.3) ------------------------------------------------------


def test_ritual_example_from_the_rules():
    finalists = (1, 2, 3, 4, 5)  # best seed first
    assert ritual_order(finalists) == (5, 4, 3, 2, 1)
    row = ()
    steps = []
    for player, position in zip(ritual_order(finalists), (0, 1, 0, 2, 3), strict=True):
        row = place_card(row, player, position)
        steps.append(row)
    assert steps == [(5,), (5, 4), (3, 5, 4), (3, 5, 2, 4), (3, 5, 2, 1, 4)]


def test_place_card_errors():
    with pytest.raises(ValueError):
        place_card((5, 4), 4, 0)
    with pytest.raises(ValueError):
        place_card((5, 4), 3, 3)
    with pytest.raises(ValueError):
        place_card((5, 4), 3, -1)
    assert place_card((5, 4), 3, 2) == (5, 4, 3)
