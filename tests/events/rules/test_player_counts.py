"""The player counts every page shows (``events.player_counts``, issue 14): pure, no
database."""

import pytest

from events.player_counts import PlayerCounts, count_players


def test_each_registration_is_counted_once_in_its_place():
    rows = [
        ("checked_in", True, 1),
        ("checked_in", True, 1),
        ("checked_in", True, 3),  # a late arrival, joining from round 3
        ("registered", True, 1),
        ("dropped", True, 1),
        ("disqualified", True, 1),
        ("checked_in", False, 1),  # a non-competing person (a penalty, a substitute)
    ]
    counts = count_players(rows, latest_round=2)
    assert counts == PlayerCounts(
        registered=6,
        checked_in=3,
        playing=2,
        late=1,
        not_checked_in=1,
        dropped=1,
        disqualified=1,
        non_competing=1,
    )
    assert counts.registered == counts.checked_in + counts.not_checked_in + counts.out
    assert counts.checked_in == counts.playing + counts.late
    assert (counts.still_in, counts.out) == (4, 2)
    # Once round 3 is seated, the late arrival plays.
    assert count_players(rows, latest_round=3).playing == 3


def test_before_the_first_round_everyone_checked_in_plays():
    counts = count_players([("checked_in", True, 1), ("registered", True, 1)], 0)
    assert (counts.playing, counts.late, counts.registered) == (1, 0, 2)
    assert count_players([], 0) == PlayerCounts()


def test_an_unknown_status_is_a_bug():
    with pytest.raises(ValueError, match="unknown registration status"):
        count_players([("retired", True, 1)], 0)


def test_the_waitlist_is_counted_apart():
    """People waiting for a place (docs/players.md "The waitlist") are in no other count."""
    rows = [("registered", True, 1), ("checked_in", True, 1)]
    counts = count_players(rows, 0, waitlisted=3)
    assert (counts.registered, counts.still_in, counts.waitlisted) == (2, 2, 3)
    assert count_players(rows, 0).waitlisted == 0
    with pytest.raises(ValueError):
        count_players(rows, 0, waitlisted=-1)
