"""JG §5.2–§5.3 organisational cases (pure)."""

import pytest

from penalties.organisational import RoundState, force_majeure, venue_interference_unsanctions


@pytest.mark.parametrize(
    ("minutes", "on_time", "unsanctioned"),
    [
        (90, True, True),
        (90, False, False),
        (120, True, False),
        (119, True, True),
        (150, True, False),
    ],
)
def test_venue_interference(minutes, on_time, unsanctioned):
    assert venue_interference_unsanctions(minutes, on_time) is unsanctioned


def test_venue_interference_rejects_negative():
    with pytest.raises(ValueError):
        venue_interference_unsanctions(-1, True)


def test_force_majeure_keeps_last_completed_round():
    out = force_majeure([RoundState(1, True), RoundState(2, True), RoundState(3, False)])
    assert out.counted_rounds == (1, 2) and not out.void and not out.no_winner


def test_incomplete_round_in_the_middle_stops_the_count():
    out = force_majeure([RoundState(1, True), RoundState(2, False), RoundState(3, True)])
    assert out.counted_rounds == (1,)


def test_interrupted_final_has_no_winner():
    out = force_majeure(
        [RoundState(1, True), RoundState(2, True), RoundState(3, False, is_final=True)]
    )
    assert out.counted_rounds == (1, 2) and out.no_winner and not out.final_counts


def test_completed_final_counts():
    out = force_majeure(
        [RoundState(1, True), RoundState(2, True), RoundState(3, True, is_final=True)]
    )
    assert out.final_counts and not out.no_winner


def test_no_completed_round_is_void():
    assert force_majeure([RoundState(1, False)]).void
    assert force_majeure([]).void
