"""Scheduling a fixture, the league reminders and reused screenshots: pure rules
(docs/leagues.md "Scheduling a fixture", "Reminders", "Reused screenshots").

ANFPES T24 §IV.4 gives each fixture two deadlines: played before the initial deadline it
earns 2 points in the compliance table ("Tuxedo Mask"), before the final deadline 1 point,
after it 0. The two players agree a time to play before that:

- one player **proposes** 1 to :data:`MAX_TIMES` times; each must be timezone-aware, in
  the future and no later than the fixture's final deadline (a time after it earns no
  compliance point, ANFPES T24 §IV.4) **[choice]**; the same time twice counts once;
- a new proposal — a **counter-proposal** by the other player or a new one by the same
  player — **replaces** every open time of the fixture: the open times always belong to
  one player;
- the **other** player accepts one open time: it becomes the fixture's agreed time, and
  the fixture takes no more proposals **[choice: moving an agreed time goes through
  staff or an excuse, ANFPES T24 §IV.5]**;
- a scheduled fixture with no agreed time whose next deadline is at most
  :data:`ATTENTION_HOURS` away is **flagged** to staff **[choice]**.

Reminders (:func:`deadline_reminders`, :func:`report_reminder_due`) say when a notice is
due; the services make each one once. Reused screenshots (:func:`hamming`,
:func:`is_reuse`) compare 64-bit perceptual hashes written as 16 hex digits.

Shapes: datetimes are aware (UTC or any zone); hours are integers. Errors:
:class:`SchedulingError` with a stable ``code`` (the services translate it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = [
    "ATTENTION_HOURS",
    "MAX_TIMES",
    "REMINDER_HOURS",
    "REPORT_REMINDER_HOURS",
    "REUSE_DISTANCE",
    "OpenTime",
    "SchedulingError",
    "check_acceptance",
    "check_times",
    "deadline_reminders",
    "hamming",
    "is_reuse",
    "needs_attention",
    "next_deadline",
    "report_reminder_due",
]

MAX_TIMES = 3
"""Most times one proposal offers (the issue: "propose up to 3 times")."""

ATTENTION_HOURS = 48
"""A scheduled fixture without an agreed time is flagged to staff once its next deadline
(initial, else final) is at most this many hours away **[choice: two days leave staff
time to step in before a compliance point is lost]**."""

REMINDER_HOURS = 24
"""A deadline reminder is due this many hours before the deadline **[choice]**."""

REPORT_REMINDER_HOURS = 24
"""A result report still waiting for the opponent this many hours after it was sent gets
one reminder **[choice]** (the first notice goes at once, docs/notifications.md)."""

REUSE_DISTANCE = 6
"""Two screenshots whose 64-bit perceptual hashes differ in at most this many bits are
"the same image" **[choice: a JPEG re-save or a resize moves a pHash by 0–4 bits, two
different pictures by well over 10 (18 for the two of the tests)]**."""


class SchedulingError(ValueError):
    """A proposal or an acceptance the rules refuse; ``code`` is one of ``no_times``,
    ``too_many``, ``naive``, ``past``, ``after_deadline``, ``agreed``, ``own_time``,
    ``not_open``, ``not_scheduled``."""

    def __init__(self, code: str):
        self.code = code
        super().__init__(code)


@dataclass(frozen=True)
class OpenTime:
    """An open proposed time: ``side`` (``"home"``/``"away"``) of the proposer."""

    side: str
    starts_at: datetime


def _aware(value: datetime) -> bool:
    return value.tzinfo is not None and value.utcoffset() is not None


def check_times(
    times: Sequence[datetime],
    *,
    now: datetime,
    final_deadline: datetime | None,
    agreed: bool = False,
    scheduled: bool = True,
    max_times: int = MAX_TIMES,
) -> tuple[datetime, ...]:
    """The times of a new proposal, sorted and without repeats; raises
    :class:`SchedulingError` when the fixture is not scheduled (``not_scheduled``) or
    already agreed (``agreed``), when there is no time (``no_times``), more than
    ``max_times`` distinct ones (``too_many``), a naive one (``naive``), one not after
    ``now`` (``past``) or one after ``final_deadline`` (``after_deadline``; no deadline: no
    limit). ANFPES T24 §IV.4."""
    if not scheduled:
        raise SchedulingError("not_scheduled")
    if agreed:
        raise SchedulingError("agreed")
    if any(not _aware(t) for t in times):
        raise SchedulingError("naive")
    unique = tuple(sorted(set(times)))
    if not unique:
        raise SchedulingError("no_times")
    if len(unique) > max_times:
        raise SchedulingError("too_many")
    if unique[0] <= now:
        raise SchedulingError("past")
    if final_deadline is not None and unique[-1] > final_deadline:
        raise SchedulingError("after_deadline")
    return unique


def check_acceptance(
    chosen: OpenTime | None,
    *,
    side: str,
    now: datetime,
    final_deadline: datetime | None,
    agreed: bool = False,
    scheduled: bool = True,
) -> datetime:
    """The agreed time when ``side`` accepts ``chosen``; raises :class:`SchedulingError`:
    ``not_scheduled``, ``agreed`` (already agreed), ``not_open`` (no such open time —
    replaced, or never proposed), ``own_time`` (one's own proposal), ``past`` (the time
    has gone by), ``after_deadline`` (the staff moved the deadline before it)."""
    if not scheduled:
        raise SchedulingError("not_scheduled")
    if agreed:
        raise SchedulingError("agreed")
    if chosen is None:
        raise SchedulingError("not_open")
    if chosen.side == side:
        raise SchedulingError("own_time")
    if chosen.starts_at <= now:
        raise SchedulingError("past")
    if final_deadline is not None and chosen.starts_at > final_deadline:
        raise SchedulingError("after_deadline")
    return chosen.starts_at


def next_deadline(
    initial: datetime | None, final: datetime | None, now: datetime
) -> tuple[str, datetime] | None:
    """``("initial", when)`` while the initial deadline is ahead, else ``("final", when)``
    while the final one is, else ``None`` (ANFPES T24 §IV.4)."""
    if initial is not None and initial > now:
        return ("initial", initial)
    if final is not None and final > now:
        return ("final", final)
    return None


def needs_attention(
    initial: datetime | None,
    final: datetime | None,
    now: datetime,
    *,
    agreed: bool,
    scheduled: bool = True,
    hours: int = ATTENTION_HOURS,
) -> bool:
    """Whether staff see the fixture as "no agreed time, deadline near": scheduled, not
    agreed, and its next deadline at most ``hours`` away (:data:`ATTENTION_HOURS`)."""
    if not scheduled or agreed:
        return False
    upcoming = next_deadline(initial, final, now)
    return upcoming is not None and upcoming[1] - now <= timedelta(hours=hours)


def deadline_reminders(
    initial: datetime | None,
    final: datetime | None,
    now: datetime,
    *,
    scheduled: bool = True,
    hours: int = REMINDER_HOURS,
) -> list[tuple[str, datetime]]:
    """The deadline reminders due now for a fixture: ``(which, deadline)`` for each
    deadline (``"initial"``, ``"final"``) ahead of ``now`` and at most ``hours`` away.
    Played fixtures get none. The caller sends each (fixture, which, deadline) once."""
    if not scheduled:
        return []
    due = []
    for which, when in (("initial", initial), ("final", final)):
        if when is not None and now < when <= now + timedelta(hours=hours):
            due.append((which, when))
    return due


def report_reminder_due(
    created_at: datetime, now: datetime, *, pending: bool, hours: int = REPORT_REMINDER_HOURS
) -> bool:
    """Whether a report still ``pending`` was sent at least ``hours`` ago."""
    return pending and now - created_at >= timedelta(hours=hours)


def hamming(a: str, b: str) -> int:
    """Bits that differ between two hashes written in hex (the same length; raises
    ``ValueError`` otherwise or for a non-hex digit)."""
    if len(a) != len(b):
        raise ValueError("hashes of different lengths")
    return (int(a, 16) ^ int(b, 16)).bit_count()


def is_reuse(a: str, b: str, *, distance: int = REUSE_DISTANCE) -> bool:
    """Whether two screenshots' hashes are "the same image" (:data:`REUSE_DISTANCE`)."""
    return hamming(a, b) <= distance
