"""The judges' guide §1.1.3 worked examples of standings adjustments, computed by the
scoring rules from the adjusted VP (JG §1.1.3; docs/rules-vekn-penalties.md
"Standings adjustments")."""

from decimal import Decimal

from standings.vekn import score_table


def vp(*values):
    return [Decimal(str(v)) for v in values]


def test_example_1_a_3_2_win_adjusted_to_a_2_2_tie():
    # JG §1.1.3 example 1: a 3–2 win with −1 VP becomes a 2–2 tie: no GW, TP as a tie.
    before = score_table(vp(3, 2, 0, 0, 0))
    assert [s.gw for s in before] == [1, 0, 0, 0, 0]
    after = score_table(vp(3 - 1, 2, 0, 0, 0))
    assert [s.gw for s in after] == [0, 0, 0, 0, 0]
    assert [s.tp for s in after] == [54, 54, 24, 24, 24]


def test_example_2_sweep_with_a_penalised_player_in_fifth():
    # JG §1.1.3 example 2: A sweeps (5 VP); E had 0 VP and gets −1 VP during the game.
    scores = score_table(vp(5, 0, 0, 0, 0 - 1))
    assert [s.gw for s in scores] == [1, 0, 0, 0, 0]
    assert [s.tp for s in scores] == [60, 36, 36, 36, 12]
