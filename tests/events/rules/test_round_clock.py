"""The round clock (events/round_clock.py): time left for a round and its tables, with
pauses and time extensions (JG §1.2.4). Pure: no database."""

from dataclasses import FrozenInstanceError
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from events import round_clock as rc
from events.round_clock import Clock, ClockError, RoundTiming

START = datetime(2026, 5, 9, 14, 0, tzinfo=UTC)
SANTIAGO = ZoneInfo("America/Santiago")
MADRID = ZoneInfo("Europe/Madrid")


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return START + timedelta(minutes=minutes, seconds=seconds)


def running(minutes=120, **kw) -> RoundTiming:
    return RoundTiming(started_at=START, minutes=minutes, **kw)


# ------------------------------------------------------------------ before the start
def test_before_the_start_there_is_no_time_left():
    timing = RoundTiming(started_at=None, minutes=120)
    clock = rc.clock(timing, at(5))
    assert clock == Clock(rc.NOT_STARTED, None, None, 0)
    assert clock.display == "" and clock.end_ms is None
    assert rc.end_time(timing, at(5)) is None
    assert rc.clock(timing, at(5), 7).extension_minutes == 7
    assert rc.paused_total(timing, at(5)) == timedelta(0)


def test_pause_or_resume_before_the_start_is_refused():
    timing = RoundTiming(started_at=None, minutes=120)
    with pytest.raises(ClockError) as err:
        rc.pause(timing, at())
    assert err.value.code == "not_started"
    with pytest.raises(ClockError) as err:
        rc.resume(timing, at())
    assert err.value.code == "not_started"


# ------------------------------------------------------------------ running
def test_running_round_counts_down_in_minutes_and_seconds():
    timing = running()
    assert rc.clock(timing, at()).display == "120:00"
    clock = rc.clock(timing, at(0, 1))
    assert clock.state == rc.RUNNING and clock.seconds_left == 7199 and clock.display == "119:59"
    assert clock.end == at(120) and clock.end_ms == int(at(120).timestamp() * 1000)
    assert rc.clock(timing, at(119, 59)).display == "0:01"
    # seconds are rounded up: 0:00 only at the end
    assert rc.clock(timing, at(119, 59.5)).seconds_left == 1


def test_after_the_end_the_clock_is_over_at_zero():
    timing = running()
    for moment in (at(120), at(121), at(600)):
        clock = rc.clock(timing, moment)
        assert clock.state == rc.OVER and clock.seconds_left == 0 and clock.display == "0:00"
        assert clock.end == at(120)


def test_a_mitos_y_leyendas_round_of_50_minutes():
    assert rc.clock(running(50), at(10)).display == "40:00"


def test_a_now_before_the_start_shows_the_whole_round():
    # a start stored a little ahead of the clock reading it (two servers): never more time
    # counted than the round has, never negative
    clock = rc.clock(running(), at(0, -30))
    assert clock.state == rc.RUNNING and clock.seconds_left == 120 * 60 + 30


# ------------------------------------------------------------------ extensions
def test_a_table_with_extensions_ends_later():
    timing = running()
    table = rc.clock(timing, at(100), 10)
    assert table.seconds_left == 30 * 60 and table.end == at(130)
    assert table.extension_minutes == 10
    # the round is over, the table with 4 minutes is still playing
    assert rc.clock(timing, at(121)).state == rc.OVER
    late = rc.clock(timing, at(121), 4)
    assert late.state == rc.RUNNING and late.display == "3:00"
    assert rc.clock(timing, at(124), 4).state == rc.OVER


def test_negative_extension_is_a_bug():
    with pytest.raises(ValueError):
        rc.clock(running(), at(), -1)


# ------------------------------------------------------------------ pauses
def test_a_pause_stops_every_clock():
    timing = rc.pause(running(), at(30))
    assert timing.is_paused and timing.paused_at == at(30)
    for later in (at(30), at(45), at(500)):
        round_ = rc.clock(timing, later)
        assert round_.state == rc.PAUSED and round_.display == "90:00" and round_.end is None
        table = rc.clock(timing, later, 5)
        assert table.state == rc.PAUSED and table.display == "95:00"
    assert rc.paused_total(timing, at(45)) == timedelta(minutes=15)
    # while paused, the end moves later as the pause goes on
    assert rc.end_time(timing, at(45)) == at(45 + 90)
    assert rc.end_time(timing, at(45), 5) == at(45 + 95)


def test_resume_adds_the_pause_to_every_end():
    timing = rc.resume(rc.pause(running(), at(30)), at(42))
    assert not timing.is_paused and timing.paused_seconds == 12 * 60
    clock = rc.clock(timing, at(42))
    assert clock.state == rc.RUNNING and clock.display == "90:00" and clock.end == at(132)
    assert rc.clock(timing, at(50), 3).end == at(135)
    assert rc.end_time(timing, at(50)) == at(132)


def test_pause_and_resume_several_times():
    timing = running()
    pauses = [(10, 13), (20, 20.5), (60, 90)]  # 3 + 0.5 + 30 minutes
    for start, stop in pauses:
        timing = rc.resume(rc.pause(timing, at(start)), at(stop))
    assert timing.paused_seconds == int(33.5 * 60)
    assert rc.clock(timing, at(100)).seconds_left == (120 + 33.5 - 100) * 60
    assert rc.clock(timing, at(153.5)).state == rc.OVER
    assert rc.clock(timing, at(153, 29)).display == "0:01"
    # a fourth pause under way counts up to now
    paused = rc.pause(timing, at(120))
    assert rc.paused_total(paused, at(125)) == timedelta(minutes=38.5)
    assert rc.clock(paused, at(125)).display == "33:30"


def test_pausing_twice_or_resuming_a_running_clock_is_refused():
    timing = rc.pause(running(), at(10))
    with pytest.raises(ClockError) as err:
        rc.pause(timing, at(11))
    assert err.value.code == "already_paused"
    with pytest.raises(ClockError) as err:
        rc.resume(running(), at(11))
    assert err.value.code == "not_paused"
    with pytest.raises(ClockError) as err:
        rc.resume(timing, at(9))
    assert err.value.code == "before_pause"


def test_a_pause_after_the_end_keeps_zero_and_tables_with_time():
    timing = rc.pause(running(), at(122))
    assert rc.clock(timing, at(130)).state == rc.PAUSED
    assert rc.clock(timing, at(130)).seconds_left == 0
    assert rc.clock(timing, at(130), 5).display == "3:00"
    resumed = rc.resume(timing, at(140))
    assert rc.clock(resumed, at(141), 5).display == "2:00"


def test_a_pause_dated_before_the_start_counts_from_the_start():
    timing = rc.pause(running(), at(-1))
    assert timing.paused_at == START
    assert rc.clock(timing, at(5)).display == "120:00"


def test_pause_seconds_are_whole_and_rounded_up():
    timing = rc.resume(rc.pause(running(), at(10)), at(10, 0.2))
    assert timing.paused_seconds == 1


# ------------------------------------------------------------------ time zones
def test_times_in_different_zones_are_the_same_moments():
    timing = RoundTiming(started_at=START.astimezone(SANTIAGO), minutes=120)
    now = at(30).astimezone(MADRID)
    assert rc.clock(timing, now).display == "90:00"
    assert rc.clock(timing, now).end == at(120) and rc.clock(timing, now).end.tzinfo is UTC
    paused = rc.pause(timing, at(40).astimezone(SANTIAGO))
    resumed = rc.resume(paused, at(50).astimezone(MADRID))
    assert resumed.paused_seconds == 600
    assert rc.clock(resumed, at(60)).display == "70:00"


def test_a_daylight_saving_change_during_the_round():
    # Santiago goes back from -03 to -04 at 2026-04-05 00:00 local time (03:00 UTC):
    # a round started at 23:00 local on the 4th lasts 120 real minutes
    start = datetime(2026, 4, 4, 23, 0, tzinfo=SANTIAGO)
    timing = RoundTiming(started_at=start, minutes=120)
    real_end = start.astimezone(UTC) + timedelta(minutes=120)
    assert rc.clock(timing, real_end - timedelta(minutes=1)).display == "1:00"
    assert rc.clock(timing, real_end).state == rc.OVER
    # a pause from 23:30 (-03) to 00:30 local (-04): one hour on the wall, two really
    paused = rc.pause(timing, datetime(2026, 4, 4, 23, 30, tzinfo=SANTIAGO))
    resumed = rc.resume(paused, datetime(2026, 4, 5, 0, 30, tzinfo=SANTIAGO))
    assert resumed.paused_seconds == 7200


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError):
        RoundTiming(started_at=datetime(2026, 5, 9, 14, 0), minutes=120)
    with pytest.raises(ValueError):
        rc.clock(running(), datetime(2026, 5, 9, 14, 0))


def test_an_impossible_timing_is_refused():
    with pytest.raises(ValueError):
        RoundTiming(started_at=None, minutes=120, paused_at=START)
    with pytest.raises(ValueError):
        RoundTiming(started_at=START, minutes=-1)
    with pytest.raises(ValueError):
        RoundTiming(started_at=START, minutes=120, paused_seconds=-5)


def test_timing_and_clock_are_frozen():
    with pytest.raises(FrozenInstanceError):
        running().minutes = 3
    with pytest.raises(FrozenInstanceError):
        rc.clock(running(), at()).state = rc.OVER


# ------------------------------------------------------------------ for the pages
def test_page_context_and_epoch_ms():
    ctx = rc.page_context(running(), at(1))
    assert ctx["round_clock"].display == "119:00"
    assert ctx["clock_now"] == int(at(1).timestamp() * 1000)
    assert rc.epoch_ms(None) is None
    minus_four = timezone(timedelta(hours=-4))
    assert rc.epoch_ms(datetime(1970, 1, 1, 0, 0, 1, tzinfo=minus_four)) == 4 * 3600_000 + 1000
    assert set(rc.STATES) == {rc.NOT_STARTED, rc.RUNNING, rc.PAUSED, rc.OVER}


# ------------------------------------------------------------------ one countdown on every device
def test_the_end_instant_stays_the_same_while_the_clock_runs():
    """What the phones, the tablet and the big screen carry (docs/players.md "The round
    timer"): a running clock's end does not move as time passes, so a polled page's bytes
    stay the same; a table's end is the round's plus its extension minutes."""
    timing = running(paused_seconds=90)
    ends = {rc.clock(timing, at(m), 4).end_ms for m in (1, 30, 61.5, 124)}
    assert ends == {rc.epoch_ms(at(120 + 4, 90))}
    assert rc.clock(timing, at(30), 4).end_ms - rc.clock(timing, at(30)).end_ms == 4 * 60_000


def test_a_device_with_a_wrong_clock_counts_the_servers_time_left():
    """static/js/clock.js's sum: the device's time plus (server's time − the device's, when
    the answer arrived) is the server's time, so the seconds left are the server's."""
    timing = running()
    served_at = at(30)
    device_skew_ms = -7 * 60_000 - 300  # the device is 7 minutes and 0.3 s behind
    offset = rc.epoch_ms(served_at) - (rc.epoch_ms(served_at) + device_skew_ms)
    for later in (0, 1.2, 59.9, 3600):
        device_now = rc.epoch_ms(served_at) + device_skew_ms + round(later * 1000)
        left = max(0, -(-(rc.clock(timing, served_at).end_ms - (device_now + offset)) // 1000))
        assert left == rc.clock(timing, at(30, later)).seconds_left
