"""The duplicate-offence guard, pure (penalties.duplicates)."""

import datetime as dt

from penalties.duplicates import WINDOW, Earlier, Entry, check

T = dt.datetime(2026, 11, 28, 15, 0, tzinfo=dt.UTC)


def _earlier(key, code, minutes):
    return Earlier(key=key, code=code, at=T + dt.timedelta(minutes=minutes))


def test_the_same_code_within_three_minutes_is_a_duplicate():
    assert WINDOW == dt.timedelta(minutes=3)
    assert check(Entry("3.3", T), [_earlier(1, "3.3", -2)]) == _earlier(1, "3.3", -2)
    assert check(Entry("3.3", T), [_earlier(1, "3.3", -3)]) is not None  # the edge counts


def test_another_code_or_an_older_entry_is_not():
    assert check(Entry("3.3", T), [_earlier(1, "2.1", -1), _earlier(2, "3.3", -4)]) is None
    assert check(Entry("3.3", T), []) is None


def test_a_new_offence_confirmed_by_the_judge_passes():
    assert check(Entry("3.3", T, again=True), [_earlier(1, "3.3", -1)]) is None


def test_an_offline_entry_is_compared_both_ways_and_names_the_latest():
    # A tablet's entry synced later may be older than what another tablet already sent.
    earlier = [_earlier(1, "3.3", 2), _earlier(2, "3.3", -1), _earlier(3, "3.3", 10)]
    assert check(Entry("3.3", T), earlier).key == 1
