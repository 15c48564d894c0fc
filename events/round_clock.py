"""The round clock: time left for a round and for each of its tables, with pauses
(docs/rules-vekn.md "The round clock"; JG §1.2.4 for the tables' time extensions).

Pure: frozen dataclasses in and out, no ORM, no request. ``events.models.Round`` stores
the state (``started_at``, ``paused_at``, ``paused_seconds``); the services
(``penalties.time_extensions``) read it into a :class:`RoundTiming`, call :func:`pause` or
:func:`resume`, and write back what they return.

A round ends ``minutes`` after it started, plus the time it spent paused; a table ends at
the round's end plus its extensions' minutes. Every datetime must be aware; arithmetic is
done in UTC, so a daylight-saving change during a round, or times given in different
zones, count the minutes that really passed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
OVER = "over"
STATES = (NOT_STARTED, RUNNING, PAUSED, OVER)
"""What :attr:`Clock.state` may be."""


class ClockError(ValueError):
    """A pause or resume that the clock's state does not allow. ``code`` says which:
    ``"not_started"`` (no clock to pause), ``"already_paused"``, ``"not_paused"`` (a resume
    of a running clock), ``"before_pause"`` (a resume dated before its pause)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class RoundTiming:
    """A round's clock as stored: ``started_at`` (aware, ``None`` until started),
    ``minutes`` (the round's length: ``Event.round_minutes``, or ``final_minutes`` for the
    final), ``paused_at`` (aware, the start of the pause under way, else ``None``) and
    ``paused_seconds`` (≥ 0, the length of the pauses already over)."""

    started_at: datetime | None
    minutes: int
    paused_at: datetime | None = None
    paused_seconds: int = 0

    def __post_init__(self):
        for name in ("started_at", "paused_at"):
            moment = getattr(self, name)
            if moment is not None and moment.utcoffset() is None:
                raise ValueError(f"{name} must be an aware datetime")
        if self.minutes < 0 or self.paused_seconds < 0:
            raise ValueError("minutes and paused_seconds must be >= 0")
        if self.paused_at is not None and self.started_at is None:
            raise ValueError("a round cannot be paused before it starts")

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None


@dataclass(frozen=True)
class Clock:
    """The clock of a round or of one table at one moment.

    ``state``: one of :data:`STATES`. ``seconds_left``: whole seconds left (rounded up, ≥ 0;
    0 once over; ``None`` before the start). ``end``: the aware UTC time the clock reaches 0
    if nothing changes (``None`` before the start and while paused: a paused clock has no
    end until it resumes). ``extension_minutes``: the table's extensions (0 for the round)."""

    state: str
    seconds_left: int | None
    end: datetime | None
    extension_minutes: int = 0

    @property
    def display(self) -> str:
        """``seconds_left`` as minutes:seconds (``"119:59"``, ``"0:00"``; ``""`` before the
        start): the minutes are not folded into hours, as on a tournament clock."""
        if self.seconds_left is None:
            return ""
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d}"

    @property
    def end_ms(self) -> int | None:
        """:attr:`end` as :func:`epoch_ms` (for ``static/js/clock.js``)."""
        return epoch_ms(self.end)


def _utc(moment: datetime) -> datetime:
    if moment.utcoffset() is None:
        raise ValueError("now must be an aware datetime")
    return moment.astimezone(UTC)


def paused_total(timing: RoundTiming, now: datetime) -> timedelta:
    """Time the round has spent paused up to ``now``: the pauses over plus the one under
    way (counted from its start to ``now``, never negative)."""
    total = timedelta(seconds=timing.paused_seconds)
    if timing.paused_at is not None:
        total += max(timedelta(0), _utc(now) - _utc(timing.paused_at))
    return total


def clock(timing: RoundTiming, now: datetime, extension_minutes: int = 0) -> Clock:
    """The clock at ``now``: of the round (``extension_minutes`` 0), or of a table that got
    ``extension_minutes`` of time extension (JG §1.2.4). ``ValueError`` for a naive ``now``
    or negative extension minutes.

    Time left = start + round length + extensions + time paused − now; while paused, the
    time left stays what it was when the pause began."""
    now = _utc(now)
    if extension_minutes < 0:
        raise ValueError("extension_minutes must be >= 0")
    if timing.started_at is None:
        return Clock(NOT_STARTED, None, None, extension_minutes)
    length = timedelta(minutes=timing.minutes + extension_minutes)
    if timing.paused_at is not None:
        stopped = max(_utc(timing.paused_at), _utc(timing.started_at))
        elapsed = stopped - _utc(timing.started_at) - timedelta(seconds=timing.paused_seconds)
        left = _ceil_seconds(length - elapsed)
        return Clock(PAUSED, left, None, extension_minutes)
    end = _utc(timing.started_at) + length + paused_total(timing, now)
    left = _ceil_seconds(end - now)
    return Clock(RUNNING if left > 0 else OVER, left, end, extension_minutes)


def end_time(timing: RoundTiming, now: datetime, extension_minutes: int = 0) -> datetime | None:
    """When the round (or a table with ``extension_minutes``) ends if nothing changes from
    ``now``: aware UTC; ``None`` before the start. While paused, the end as if the clock
    resumed at ``now`` (it moves later as the pause goes on)."""
    current = clock(timing, now, extension_minutes)
    if current.state == NOT_STARTED:
        return None
    if current.end is not None:
        return current.end
    return _utc(now) + timedelta(seconds=current.seconds_left)


def _ceil_seconds(delta: timedelta) -> int:
    """``delta`` in whole seconds, rounded up (a clock shows 0:00 only at the end), ≥ 0."""
    micro = delta // timedelta(microseconds=1)
    return max(0, -(-micro // 1_000_000))


def pause(timing: RoundTiming, now: datetime) -> RoundTiming:
    """``timing`` paused at ``now``. :class:`ClockError` ``not_started`` before the start,
    ``already_paused`` while paused. A round past its end may be paused (a table with an
    extension may still be playing)."""
    now = _utc(now)
    if timing.started_at is None:
        raise ClockError("not_started")
    if timing.paused_at is not None:
        raise ClockError("already_paused")
    return replace(timing, paused_at=max(now, _utc(timing.started_at)))


def resume(timing: RoundTiming, now: datetime) -> RoundTiming:
    """``timing`` running again from ``now``: the pause's whole seconds (rounded up) join
    ``paused_seconds``. :class:`ClockError` ``not_paused`` if it is not paused,
    ``before_pause`` if ``now`` is before the pause began."""
    now = _utc(now)
    if timing.paused_at is None:
        raise ClockError("not_started" if timing.started_at is None else "not_paused")
    if now < _utc(timing.paused_at):
        raise ClockError("before_pause")
    seconds = _ceil_seconds(now - _utc(timing.paused_at))
    return replace(timing, paused_at=None, paused_seconds=timing.paused_seconds + seconds)


def page_context(timing: RoundTiming, now: datetime) -> dict:
    """What the round pages' clock (``templates/events/_round_clock_card.html``) needs:
    ``round_clock`` (the round's :class:`Clock` at ``now``) and ``clock_now`` (``now`` in
    :func:`epoch_ms`: the offset between the server's clock and the device's in
    ``static/js/clock.js``)."""
    return {"round_clock": clock(timing, now), "clock_now": epoch_ms(now)}


def epoch_ms(moment: datetime | None) -> int | None:
    """``moment`` as milliseconds since 1970-01-01 UTC, as JavaScript's ``Date`` counts
    (what the pages hand ``static/js/clock.js``); ``None`` stays ``None``."""
    if moment is None:
        return None
    return (_utc(moment) - _EPOCH) // timedelta(milliseconds=1)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

SERVER_TIME_HEADER = "X-Server-Time"
"""The header of a polled answer (the big screen's live fragment, the player's seat box)
holding the server's time as :func:`epoch_ms`: ``static/js/clock.js`` takes the offset
between the server's clock and the device's from it after each poll."""
