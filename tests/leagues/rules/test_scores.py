"""Sane scores (issue 14, ``leagues.rules.scores``): at most 30 goals a side, and only
shoot-out scores that can happen."""

from leagues.rules.scores import MAX_GOALS, MAX_SHOOTOUT, REGULATION_SCORES, shootout_possible


def test_the_maxima_are_30():
    assert (MAX_GOALS, MAX_SHOOTOUT) == (30, 30)


def test_the_five_kicks_end_on_these_scores():
    won = sorted(s for s in REGULATION_SCORES if s[0] > s[1])
    assert won == [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3),
                   (5, 3), (5, 4)]  # fmt: skip
    assert all((b, a) in REGULATION_SCORES for a, b in won)


def test_possible_and_impossible_shootouts():
    for home, away in [(5, 4), (4, 5), (3, 0), (6, 5), (1, 0), (0, 1), (12, 11), (30, 29)]:
        assert shootout_possible(home, away), (home, away)
    for home, away in [(99, 98), (31, 30), (5, 0), (5, 1), (4, 0), (9, 2), (7, 5), (3, 3), (-1, 0)]:
        assert not shootout_possible(home, away), (home, away)
