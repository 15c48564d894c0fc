"""VEKN result sheets and table scores: TR §3.5–§3.7.4, docs/rules-vekn.md "Result sheets",
"Game Win and Tournament Points", docs/contracts.md §3."""

import itertools
import math
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standings.vekn import SeatScore, check_sheet, legal_sheets, score_table

TABLE_TP = {4: 60 + 48 + 24 + 12, 5: 60 + 48 + 36 + 24 + 12}


def vp(*values):
    """Sheet of Decimal VP (``None`` kept) from ints, floats or strings."""
    return tuple(None if v is None else Decimal(str(v)) for v in values)


def half_steps(seats):
    return [Decimal(k) / 2 for k in range(2 * seats + 1)]


def all_summing_sheets(seats):
    """Every sheet of half steps whose Σ ceil(VP) is the seat count."""
    for sheet in itertools.product(half_steps(seats), repeat=seats):
        if sum(math.ceil(v) for v in sheet) == seats:
            yield sheet


# --- legal_sheets -------------------------------------------------------------------------


def test_legal_sheet_counts():
    assert len(legal_sheets(4)) == 107
    assert len(legal_sheets(5)) == 546


def test_legal_sheets_are_cached_decimal_tuples():
    sheets = legal_sheets(5)
    assert legal_sheets(5) is sheets
    assert all(len(s) == 5 and all(isinstance(v, Decimal) for v in s) for s in sheets)
    assert vp(1.5, 0, 1.5, 0, 0.5) in sheets
    assert all(v == v.quantize(Decimal("0.1")) for s in sheets for v in s)


@pytest.mark.parametrize("seats", [0, 3, 6])
def test_legal_sheets_other_sizes(seats):
    with pytest.raises(ValueError):
        legal_sheets(seats)


def test_legal_sheets_are_rotation_symmetric():
    # Seat order only sets predator/prey: rotating a legal sheet gives a legal sheet.
    for seats in (4, 5):
        sheets = legal_sheets(seats)
        assert all(s[1:] + s[:1] in sheets for s in sheets)


@pytest.mark.parametrize(
    "sheet",
    [
        # Time-out with nobody ousted (also an intentional draw, TR §3.6).
        (0.5, 0.5, 0.5, 0.5, 0.5),
        (0.5, 0.5, 0.5, 0.5),
        # TR §3.7.4 examples.
        (1.5, 0, 1.5, 0, 0.5),
        (1.5, 0, 0.5, 0.5),
        # Sweep: 4 ousts + the last-player-standing VP.
        (5, 0, 0, 0, 0),
        (0, 0, 4, 0),
        # Seat 1 ousts seats 2-4, then seat 5 ousts seat 1 and is left alone: 1 + 1.
        (3, 0, 0, 0, 2),
        # Four withdrawals (0.5 each, predators get nothing), seat 5 is left alone.
        (0.5, 0.5, 0.5, 0.5, 1),
        # Seat 1 ousts seat 2 and is ousted by seat 5; time-out for seats 3, 4, 5.
        (1, 0, 0.5, 0.5, 1.5),
        # Concession (TR §3.5): seat 2 "ousts" 3, 4, 5, 1 in turn.
        (0, 5, 0, 0, 0),
    ],
)
def test_known_legal_sheets(sheet):
    assert vp(*sheet) in legal_sheets(len(sheet))
    result = check_sheet(vp(*sheet))
    assert (result.valid, result.complete, result.reason) == (True, True, None)


@pytest.mark.parametrize(
    "sheet",
    [
        (1, 1, 1, 1, 1),  # whole VP only, but nobody has the final oust + last-standing 2
        (0, 0, 1.5, 1.5),  # seat 3 cannot oust anyone past seat 4, who is still there
        (0, 1.5, 1.5, 0, 0.5),
        (1, 0.5, 0.5, 1, 0.5),
        (4, 0, 0, 0, 1),  # after 4 ousts seat 1 is alone and scores 5
    ],
)
def test_known_illegal_sheets_that_add_up(sheet):
    assert sum(math.ceil(v) for v in sheet) == len(sheet)
    assert vp(*sheet) not in legal_sheets(len(sheet))


# --- check_sheet ---------------------------------------------------------------------------


def test_complete_legal_sheet():
    assert check_sheet(vp(1.5, 0, 0.5, 0.5)) == check_sheet(vp("1.5", "0", "0.5", "0.5"))
    result = check_sheet(vp(1.5, 0, 0.5, 0.5))
    assert result.valid and result.complete and result.reason is None


@pytest.mark.parametrize(
    "sheet",
    [
        (0, 0, 0, 0, 0),  # round just started
        (1, 0, 0, 0, 0),  # seat 1 ousted seat 2
        (0.5, 0, 0, 0, 0),  # seat 1 withdrew
        (2, 0, 0, 0, 0),  # seat 1 ousted seats 2 and 3
        (None, None, None, None),  # nothing entered
        (1.5, 0, 1.5, None, None),  # being typed in
        (2, None, None, None, None),
    ],
)
def test_running_game_is_incomplete_not_an_error(sheet):
    result = check_sheet(vp(*sheet))
    assert result.valid
    assert not result.complete
    assert result.reason is None


def test_sum_too_high():
    result = check_sheet(vp(2, 2, 2, 0, 0))
    assert not result.valid
    assert result.reason == "total VP 6 is more than the 5 available at this table"


def test_sum_too_high_already_while_typing():
    result = check_sheet(vp(3, 2, None, None))
    assert not result.valid
    assert "total VP 5 is more than the 4 available" in result.reason


def test_too_many_players_accounted_for():
    # Σ VP is 5, but three half points and two whole VP need 7 players.
    result = check_sheet(vp(1.5, 1.5, 1.5, 0.5, 0))
    assert not result.valid
    assert "accounts for 7 players but only 5 are seated" in result.reason


def test_not_in_half_steps():
    result = check_sheet(vp(0.3, 0, 0, 0, 0))
    assert not result.valid
    assert result.reason == "seat 1: VP must be in steps of 0.5 (0.3)"


def test_negative():
    result = check_sheet(vp(-1, 0, None, None))
    assert not result.valid
    assert result.reason == "seat 1: VP cannot be negative (-1)"


def test_single_vp_too_large():
    result = check_sheet(vp(0, 6, 0, 0, 0))
    assert not result.valid
    assert result.reason == ("seat 2: a player cannot score more than 5 VP at a 5-player table (6)")


def test_single_vp_that_no_game_gives():
    result = check_sheet(vp(0, 0, 0, 3.5))
    assert not result.valid
    assert result.reason == (
        "seat 4: a player cannot score 3.5 VP at a 4-player table: after ousting all 3 "
        "others they are the last player standing and score 4"
    )


def test_every_bad_seat_is_reported():
    result = check_sheet([Decimal("0.3"), Decimal(-1), None, "x", 0])
    assert not result.valid
    assert result.reason == (
        "seat 1: VP must be in steps of 0.5 (0.3); seat 2: VP cannot be negative (-1); "
        "seat 4: 'x' is not a number"
    )


@pytest.mark.parametrize("bad", [Decimal("NaN"), Decimal("Infinity"), "abc", object()])
def test_bad_numbers_never_raise(bad):
    result = check_sheet([bad, 0, 0, 0])
    assert not result.valid
    assert "is not a number" in result.reason


@pytest.mark.parametrize("seats", [0, 1, 3, 6])
def test_wrong_seat_count(seats):
    result = check_sheet(vp(*[0] * seats))
    assert not result.valid
    assert result.reason == f"a VEKN table has 4 or 5 players, this sheet has {seats} seats"


def test_sums_correctly_but_no_ending_gives_it_prey_survived():
    result = check_sheet(vp(0, 0, 1.5, 1.5))
    assert not result.valid and result.complete
    assert result.reason == (
        "seat 3 has 1.5 VP, but seat 4 (its prey) has 1.5 VP: these cannot go together in "
        "any legal game — did you mean seat 3 = 2?"
    )


def test_sums_correctly_but_no_last_player_standing():
    result = check_sheet(vp(1, 1, 1, 1, 1))
    assert not result.valid and result.complete
    assert "someone must have at least 2 VP" in result.reason


def test_sums_correctly_but_predator_conflict():
    result = check_sheet(vp(0.5, 0, 0, 2.5))
    assert not result.valid
    assert result.reason == (
        "seat 1 has 0.5 VP, but seat 4 (its predator) has 2.5 VP: these cannot go together "
        "in any legal game — did you mean seat 4 = 3?"
    )


def test_sums_correctly_but_three_seats_conflict():
    result = check_sheet(vp(1, 0.5, 0.5, 1, 0.5))
    assert not result.valid
    assert result.reason.startswith("seats 1, 2, 3, 4 cannot have 1, 0.5, 0.5, 1 VP together")


@pytest.mark.parametrize("seats", [4, 5])
def test_every_sheet_that_adds_up_is_checked_against_the_endings(seats):
    legal = legal_sheets(seats)
    illegal = 0
    for sheet in all_summing_sheets(seats):
        result = check_sheet(sheet)
        assert result.complete
        assert result.valid == (sheet in legal)
        assert (result.reason is None) == result.valid
        illegal += not result.valid
    assert illegal > 0


def test_forgotten_survivor_half_point_is_explained():
    # Time-out sheet typed without seat 5's 0.5: not a moment of a running game either.
    result = check_sheet(vp(1.5, 0, 1.5, 0, 0))
    assert not result.valid and not result.complete
    assert result.reason.endswith("did you mean seat 4 = 0.5 or seat 5 = 0.5?")


def test_running_game_with_a_last_player_standing_is_invalid():
    # Seat 4 ousted all three others: the game is over and seat 4 has 4.
    result = check_sheet(vp(0, 0, 0, 3))
    assert not result.valid
    assert "while the game is running" in result.reason


def test_partial_sheet_no_legal_sheet_extends():
    result = check_sheet(vp(1, 1, 1, 1, None))
    assert not result.valid and not result.complete
    assert result.reason == "seats 1, 2, 3, 4 cannot have 1, 1, 1, 1 VP together in any legal game"


def test_partial_sheet_pair_conflict():
    # Whatever seats 1 and 2 score, seat 3 cannot oust past seat 4 if both keep a half VP.
    result = check_sheet(vp(None, None, 1.5, 1.5))
    assert not result.valid and not result.complete
    assert result.reason == (
        "seat 3 has 1.5 VP, but seat 4 (its prey) has 1.5 VP: these cannot go together in "
        "any legal game"
    )


# --- score_table ---------------------------------------------------------------------------


def tps(scores):
    return [s.tp for s in scores]


def test_tr_example_five_player_table():
    scores = score_table(vp(1.5, 0, 1.5, 0, 0.5))
    assert tps(scores) == [54, 18, 54, 18, 36]
    assert [s.gw for s in scores] == [0, 0, 0, 0, 0]
    assert [s.rank for s in scores] == [1, 4, 1, 4, 3]


def test_tr_example_four_player_table():
    scores = score_table(vp(1.5, 0, 0.5, 0.5))
    assert scores == [
        SeatScore(gw=0, tp=60, rank=1),
        SeatScore(gw=0, tp=12, rank=4),
        SeatScore(gw=0, tp=36, rank=2),
        SeatScore(gw=0, tp=36, rank=2),
    ]


def test_four_player_table_skips_third_place():
    assert tps(score_table(vp(3, 0, 1, 0))) == [60, 18, 48, 18]
    assert tps(score_table(vp(0.5, 0.5, 0.5, 0.5))) == [36, 36, 36, 36]
    assert tps(score_table(vp(2, 0.5, 0.5, 0.5))) == [60, 28, 28, 28]
    assert tps(score_table(vp(1, 1, 1, 0))) == [44, 44, 44, 12]


def test_game_win_needs_two_vp_and_a_strict_maximum():
    assert [s.gw for s in score_table(vp(2, 0, 0.5, 0.5))] == [1, 0, 0, 0]
    assert [s.gw for s in score_table(vp(1.5, 0, 0.5, 0.5))] == [0, 0, 0, 0]  # < 2 VP
    assert [s.gw for s in score_table(vp(2, 2, 0, 0, 0.5))] == [0, 0, 0, 0, 0]  # tie
    assert [s.gw for s in score_table(vp(0, 0, 0, 0, 5))] == [0, 0, 0, 0, 1]


def test_game_win_and_tp_use_adjusted_vp():
    # Seat 1 scored 2 but has a -1 VP standings adjustment: 1 VP, no GW, tied first.
    scores = score_table(vp(1, 1, 1, 0, 0))
    assert [s.gw for s in scores] == [0, 0, 0, 0, 0]
    assert tps(scores) == [48, 48, 48, 18, 18]
    # A negative adjusted VP ranks below 0 VP.
    scores = score_table(vp(2.5, 0, -1, 0, 0.5))
    assert [s.gw for s in scores] == [1, 0, 0, 0, 0]
    assert tps(scores) == [60, 30, 12, 30, 48]
    # An adjustment on another seat can hand over the GW.
    assert [s.gw for s in score_table(vp(2, 1, 0, 0, 0))] == [1, 0, 0, 0, 0]


def test_loss_seat_is_last_without_game_win():
    scores = score_table(vp(3, 0, 0, 0, 0), losses=[False, False, False, False, True])
    assert tps(scores) == [60, 36, 36, 36, 12]
    assert [s.rank for s in scores] == [1, 2, 2, 2, 5]
    # VP on a Loss seat are ignored: it scores 0 and never wins.
    scores = score_table(vp(0, 0, 0, 0, 3), losses=[False, False, False, False, True])
    assert [s.gw for s in scores] == [0, 0, 0, 0, 0]
    assert tps(scores) == [42, 42, 42, 42, 12]


def test_several_loss_seats_tie_for_last():
    scores = score_table(vp(2, 0.5, 0.5, 0, 0), losses=[False, False, False, True, True])
    assert tps(scores) == [60, 42, 42, 18, 18]
    assert [s.rank for s in scores] == [1, 2, 2, 4, 4]


def test_negative_adjusted_player_still_above_loss():
    scores = score_table(vp(-1, 2, 0, 0), losses=[False, False, False, True])
    assert tps(scores) == [24, 60, 48, 12]


@pytest.mark.parametrize("sheet", [vp(1, 1, 1), vp(1, 1, 1, 1, 1, 1)])
def test_score_table_wrong_size(sheet):
    with pytest.raises(ValueError):
        score_table(sheet)


def test_score_table_losses_length():
    with pytest.raises(ValueError):
        score_table(vp(1, 1, 1, 1), losses=[False])


# --- properties -------------------------------------------------------------------------------

legal_sheet = st.sampled_from(sorted(legal_sheets(4)) + sorted(legal_sheets(5)))


@given(legal_sheet)
def test_every_legal_sheet_accounts_for_every_seat_and_shares_all_tp(sheet):
    seats = len(sheet)
    assert sum(math.ceil(v) for v in sheet) == seats
    scores = score_table(sheet)
    assert sum(tps(scores)) == TABLE_TP[seats]
    assert sum(s.gw for s in scores) <= 1
    assert check_sheet(sheet) == check_sheet(list(sheet))
    assert check_sheet(sheet).valid and check_sheet(sheet).complete


@given(
    st.integers(4, 5).flatmap(
        lambda n: st.lists(
            st.decimals(min_value=-5, max_value=8, places=1, allow_nan=False),
            min_size=n,
            max_size=n,
        )
    ),
    st.data(),
)
def test_score_table_properties(vps, data):
    losses = data.draw(st.lists(st.booleans(), min_size=len(vps), max_size=len(vps)))
    scores = score_table(vps, losses)
    assert sum(tps(scores)) == TABLE_TP[len(vps)]
    players = [i for i, loss in enumerate(losses) if not loss]
    for i, j in itertools.permutations(range(len(vps)), 2):
        if i in players and (j not in players or vps[i] > vps[j]):
            assert scores[i].rank < scores[j].rank and scores[i].tp > scores[j].tp
    winners = [i for i, s in enumerate(scores) if s.gw]
    assert len(winners) <= 1
    for i in winners:
        assert i in players and vps[i] >= 2
        assert all(vps[i] > vps[j] for j in players if j != i)


@given(
    st.integers(4, 5).flatmap(
        lambda n: st.lists(
            st.one_of(st.none(), st.integers(-1, 12).map(lambda k: Decimal(k) / 2)),
            min_size=n,
            max_size=n,
        )
    )
)
def test_check_sheet_is_consistent(sheet):
    result = check_sheet(sheet)
    assert (result.reason is None) == result.valid
    if result.complete:
        assert None not in sheet
        assert sum(math.ceil(v) for v in sheet) == len(sheet)
        assert result.valid == (tuple(sheet) in legal_sheets(len(sheet)))
    if result.valid and not result.complete:
        # VP only grow during a game: some legal ending is at least the entered values.
        entered = [(i, v) for i, v in enumerate(sheet) if v is not None]
        assert any(all(final[i] >= v for i, v in entered) for final in legal_sheets(len(sheet)))
