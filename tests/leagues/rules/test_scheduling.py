"""Pure rules of scheduling a fixture, reminders due and screenshot hash distance
(leagues.rules.scheduling; docs/leagues.md "Scheduling a fixture")."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from leagues.rules import scheduling as r

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
FINAL = NOW + timedelta(days=5)
H = timedelta(hours=1)


def check(times, **kw):
    kw.setdefault("now", NOW)
    kw.setdefault("final_deadline", FINAL)
    return r.check_times(times, **kw)


def code(fn, *a, **kw):
    with pytest.raises(r.SchedulingError) as exc:
        fn(*a, **kw)
    return exc.value.code


# ------------------------------------------------------------------ proposals
def test_times_sorted_and_deduplicated():
    a, b = NOW + 3 * H, NOW + 2 * H
    assert check([a, b, a]) == (b, a)


def test_same_instant_in_two_zones_counts_once():
    a = NOW + 2 * H
    other = a.astimezone(timezone(timedelta(hours=-3)))
    assert check([a, other]) == (a,)


@pytest.mark.parametrize("n,ok", [(1, True), (3, True), (4, False)])
def test_at_most_three_times(n, ok):
    times = [NOW + (i + 1) * H for i in range(n)]
    if ok:
        assert len(check(times)) == n
    else:
        assert code(check, times) == "too_many"


def test_three_repeats_of_four_is_fine():
    t = [NOW + H, NOW + 2 * H, NOW + 3 * H, NOW + H]
    assert len(check(t)) == 3


def test_no_times_refused():
    assert code(check, []) == "no_times"


def test_naive_time_refused():
    assert code(check, [datetime(2026, 3, 2, 20, 0)]) == "naive"


@pytest.mark.parametrize("delta", [timedelta(0), -H])
def test_time_not_in_the_future_refused(delta):
    assert code(check, [NOW + delta, NOW + 2 * H]) == "past"


def test_time_at_the_final_deadline_allowed_after_refused():
    assert check([FINAL]) == (FINAL,)
    assert code(check, [NOW + H, FINAL + timedelta(minutes=1)]) == "after_deadline"


def test_no_deadline_no_limit():
    far = NOW + timedelta(days=400)
    assert check([far], final_deadline=None) == (far,)


def test_agreed_or_played_fixture_takes_no_proposal():
    assert code(check, [NOW + H], agreed=True) == "agreed"
    assert code(check, [NOW + H], scheduled=False) == "not_scheduled"


# ------------------------------------------------------------------ acceptance
def accept(chosen, side="away", **kw):
    kw.setdefault("now", NOW)
    kw.setdefault("final_deadline", FINAL)
    return r.check_acceptance(chosen, side=side, **kw)


def test_other_player_accepts():
    t = r.OpenTime("home", NOW + 2 * H)
    assert accept(t) == NOW + 2 * H


def test_own_time_refused():
    assert code(accept, r.OpenTime("away", NOW + 2 * H)) == "own_time"


def test_missing_time_refused():
    assert code(accept, None) == "not_open"


def test_accept_past_time_refused():
    assert code(accept, r.OpenTime("home", NOW - H)) == "past"
    assert code(accept, r.OpenTime("home", NOW)) == "past"


def test_accept_after_a_moved_deadline_refused():
    t = r.OpenTime("home", NOW + 2 * H)
    assert code(accept, t, final_deadline=NOW + H) == "after_deadline"


def test_accept_twice_refused():
    t = r.OpenTime("home", NOW + 2 * H)
    assert code(accept, t, agreed=True) == "agreed"
    assert code(accept, t, scheduled=False) == "not_scheduled"


# ------------------------------------------------------------------ deadlines
def test_next_deadline():
    i, f = NOW + H, NOW + 10 * H
    assert r.next_deadline(i, f, NOW) == ("initial", i)
    assert r.next_deadline(NOW - H, f, NOW) == ("final", f)
    assert r.next_deadline(NOW - H, NOW, NOW) is None
    assert r.next_deadline(None, None, NOW) is None
    assert r.next_deadline(None, f, NOW) == ("final", f)


@pytest.mark.parametrize(
    "initial,final,agreed,scheduled,expected",
    [
        (NOW + 47 * H, NOW + 120 * H, False, True, True),
        (NOW + 48 * H, NOW + 120 * H, False, True, True),
        (NOW + 49 * H, NOW + 120 * H, False, True, False),
        (NOW + 47 * H, NOW + 120 * H, True, True, False),
        (NOW + 47 * H, NOW + 120 * H, False, False, False),
        (NOW - H, NOW + 30 * H, False, True, True),  # initial passed, final near
        (NOW - H, NOW + 72 * H, False, True, False),
        (NOW - 2 * H, NOW - H, False, True, False),  # both passed: nothing to schedule
        (None, None, False, True, False),
    ],
)
def test_needs_attention(initial, final, agreed, scheduled, expected):
    assert r.needs_attention(initial, final, NOW, agreed=agreed, scheduled=scheduled) is expected


def test_deadline_reminders_window():
    i, f = NOW + 10 * H, NOW + 20 * H
    assert r.deadline_reminders(i, f, NOW) == [("initial", i), ("final", f)]
    assert r.deadline_reminders(NOW + 25 * H, NOW + 30 * H, NOW) == []
    assert r.deadline_reminders(NOW + 24 * H, NOW + 100 * H, NOW) == [("initial", NOW + 24 * H)]
    assert r.deadline_reminders(NOW - H, f, NOW) == [("final", f)]
    assert r.deadline_reminders(NOW, f, NOW) == [("final", f)]  # a deadline now has passed
    assert r.deadline_reminders(i, f, NOW, scheduled=False) == []
    assert r.deadline_reminders(None, None, NOW) == []


def test_report_reminder_due():
    assert r.report_reminder_due(NOW - 24 * H, NOW, pending=True)
    assert not r.report_reminder_due(NOW - 23 * H, NOW, pending=True)
    assert not r.report_reminder_due(NOW - 48 * H, NOW, pending=False)


# ------------------------------------------------------------------ hashes
def test_hamming_and_reuse():
    assert r.hamming("0" * 16, "0" * 16) == 0
    assert r.hamming("0" * 16, "f" * 16) == 64
    assert r.hamming("00000000000000ff", "0000000000000000") == 8
    assert r.is_reuse("000000000000003f", "0" * 16)  # 6 bits
    assert not r.is_reuse("000000000000007f", "0" * 16)  # 7 bits
    with pytest.raises(ValueError):
        r.hamming("00", "000")
    with pytest.raises(ValueError):
        r.hamming("zz", "00")
