"""The confirmation of a result reported by the players (events/report_rules.py;
docs/players.md "Reporting your table's result"): who may report, confirm or dispute,
when it stands (every other player at a VEKN table; the opponent or the countdown in
Mitos y Leyendas), and what a judge's entry does. No database."""

import datetime as dt
import itertools

import pytest

from events import report_rules as r
from events.report_rules import Refusal, ReportRefused, Status

T0 = dt.datetime(2026, 5, 1, 15, 0, tzinfo=dt.UTC)
TABLE = (11, 12, 13, 14)


def vekn(**kw):
    return r.report(TABLE, 11, T0, countdown_seconds=None, **kw)


def myl():
    return r.report((21, 22), 21, T0, countdown_seconds=300)


def refused(code, fn, *args):
    with pytest.raises(ReportRefused) as exc:
        fn(*args)
    assert exc.value.code == code
    assert exc.value.message  # a sentence for the player
    return exc.value


# ------------------------------------------------------------------ reporting
def test_a_report_waits_for_every_other_player_at_a_vekn_table():
    state = vekn()
    assert state.status == Status.PENDING
    assert r.confirmers(state) == (12, 13, 14) and r.waiting_for(state) == (12, 13, 14)
    assert r.stands_at(state) is None and r.seconds_left(state, T0) is None


@pytest.mark.parametrize(
    ("actor", "has_result", "open_reporter", "expected"),
    [
        (99, False, None, Refusal.NOT_AT_TABLE),
        (99, True, 11, Refusal.NOT_AT_TABLE),
        (12, True, None, Refusal.RESULT_IN),
        (12, True, 11, Refusal.RESULT_IN),
        (12, False, 11, Refusal.ALREADY_REPORTED),
        (11, False, 11, None),  # one's own open report again: a double tap
        (12, False, None, None),
    ],
)
def test_who_may_report(actor, has_result, open_reporter, expected):
    assert (
        r.may_report(TABLE, actor, has_result=has_result, open_reporter=open_reporter) == expected
    )


def test_report_refuses_a_stranger_and_a_table_with_a_result():
    refused(Refusal.NOT_AT_TABLE, lambda: r.report(TABLE, 99, T0, countdown_seconds=None))
    refused(Refusal.RESULT_IN, lambda: vekn(has_result=True))


def test_the_only_player_left_reports_and_it_stands_at_once():
    assert r.report((11,), 11, T0, countdown_seconds=None).status == Status.CONFIRMED


# ------------------------------------------------------------------ confirming
@pytest.mark.parametrize("order", list(itertools.permutations((12, 13, 14))))
def test_it_stands_when_the_last_of_the_others_confirms_in_any_order(order):
    state = vekn()
    for i, player in enumerate(order):
        state = r.confirm(state, player, T0)
        assert state.status == (Status.CONFIRMED if i == 2 else Status.PENDING)
    assert r.waiting_for(state) == ()


def test_confirming_twice_changes_nothing_and_after_it_stands_neither():
    state = r.confirm(vekn(), 12, T0)
    assert r.confirm(state, 12, T0) == state
    done = r.confirm(r.confirm(state, 13, T0), 14, T0)
    assert done.status == Status.CONFIRMED
    assert r.confirm(done, 13, T0) == done  # two at once: the second finds it done


def test_the_reporter_and_strangers_do_not_confirm():
    refused(Refusal.OWN_REPORT, r.confirm, vekn(), 11, T0)
    refused(Refusal.NOT_AT_TABLE, r.confirm, vekn(), 99, T0)


def test_a_disputed_or_judged_report_is_not_confirmed():
    disputed = r.dispute(vekn(), 13)
    refused(Refusal.NOT_PENDING, r.confirm, disputed, 12, T0)
    refused(Refusal.NOT_PENDING, r.confirm, r.judge(vekn()), 12, T0)


# ------------------------------------------------------------------ disputing
@pytest.mark.parametrize("who", TABLE)
def test_any_player_disputes_the_reporter_too(who):
    state = r.dispute(r.confirm(vekn(), 12, T0), who)
    assert (state.status, state.disputed_by) == (Status.DISPUTED, who)
    assert r.dispute(state, 14) == state  # a double tap, or a second player


def test_a_dispute_after_the_result_stands_is_refused():
    done = r.confirm(r.confirm(r.confirm(vekn(), 12, T0), 13, T0), 14, T0)
    refused(Refusal.STANDS, r.dispute, done, 12)
    refused(Refusal.NOT_PENDING, r.dispute, r.judge(vekn()), 12)
    refused(Refusal.NOT_AT_TABLE, r.dispute, vekn(), 99)


# ------------------------------------------------------------------ the MyL countdown
def test_the_opponent_confirms_a_myl_result():
    assert r.confirm(myl(), 22, T0).status == Status.CONFIRMED


@pytest.mark.parametrize(
    ("seconds", "stands", "left"),
    [(0, False, 300), (1, False, 299), (299, False, 1), (300, True, None), (3600, True, None)],
)
def test_a_myl_result_stands_when_the_countdown_runs_out(seconds, stands, left):
    now = T0 + dt.timedelta(seconds=seconds)
    state = r.settle(myl(), now)
    assert (state.status == Status.CONFIRMED) is stands
    assert r.stands_at(myl()) == T0 + dt.timedelta(minutes=5)
    assert r.seconds_left(state, now) == left


def test_a_disputed_myl_result_never_stands_by_the_countdown():
    disputed = r.dispute(myl(), 22)
    assert r.settle(disputed, T0 + dt.timedelta(hours=1)).status == Status.DISPUTED


def test_a_vekn_report_never_stands_by_time():
    assert r.settle(vekn(), T0 + dt.timedelta(days=1)).status == Status.PENDING


# ------------------------------------------------------------------ a judge
@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (vekn(), Status.JUDGED),
        (r.dispute(vekn(), 12), Status.JUDGED),
        (r.confirm(myl(), 22, T0), Status.CONFIRMED),
        (r.judge(vekn()), Status.JUDGED),
    ],
)
def test_a_judges_entry_closes_an_open_report_only(state, expected):
    assert r.judge(state).status == expected


def test_open_states_and_messages_cover_every_code():
    assert set(r.OPEN) == {Status.PENDING, Status.DISPUTED}
    assert set(r.MESSAGES) == set(Refusal)
