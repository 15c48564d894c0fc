"""A table's result reported by its own players, and its confirmation (docs/players.md
"Reporting your table's result"): who may report, confirm or dispute, and when the
reported result stands.

Pure: frozen dataclasses in and out, no ORM and no request (docs/architecture.md
"Layers and the direction of imports"). The services (``events.self_report``) load a
:class:`ReportState`, call these functions under the report's row lock and store what
they return.

The state machine::

    (none) --report--> pending --every other player confirms--> confirmed (the result stands)
                          |  \\--the countdown runs out (MyL)--> confirmed
                          |--any player disputes--> disputed (a judge is called)
    pending | disputed --a judge enters the result--> judged

``confirmed`` and ``judged`` are final: a result that stands is corrected by a judge
only (VEKN TR §3.7.2: the table's result is the judges' to record; MyL: the match's
result, docs/rules-myl.md "The player's own match").

The two rulesets differ in one fact, given as ``countdown_seconds`` (the ruleset's
adapter, ``events.report_adapters``): ``None`` for a VEKN table, where **every** other
player at the table confirms **[choice]**; a number of seconds for a Mitos y Leyendas
match, where the opponent confirms, or the result stands once the countdown has run out
without a dispute **[choice: the event's setting, 5 minutes by default]**.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from django.utils.translation import gettext_lazy

DEFAULT_COUNTDOWN_MINUTES = 5
"""The Mitos y Leyendas countdown when the event does not set its own (minutes)
**[choice]**: long enough for the opponent to read the result on their phone, short
enough that the round is not held up."""


class Status(StrEnum):
    """A report's state. Stored codes: never renamed."""

    PENDING = "pending"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"
    JUDGED = "judged"


OPEN = (Status.PENDING, Status.DISPUTED)
"""The states of a report still waiting for something (players or a judge); a table has
at most one open report (a database constraint)."""


class Refusal(StrEnum):
    """Why an action on a report is refused (the services show :data:`MESSAGES`)."""

    NOT_AT_TABLE = "not_at_table"
    RESULT_IN = "result_in"
    ALREADY_REPORTED = "already_reported"
    OWN_REPORT = "own_report"
    NOT_PENDING = "not_pending"
    STANDS = "stands"


MESSAGES = {
    Refusal.NOT_AT_TABLE: gettext_lazy("You are not playing at this table."),
    Refusal.RESULT_IN: gettext_lazy(
        "This table's result is already entered: to change it, call a judge."
    ),
    Refusal.ALREADY_REPORTED: gettext_lazy(
        "Another player already reported this table's result: confirm it or dispute it."
    ),
    Refusal.OWN_REPORT: gettext_lazy("You reported this result: the other players confirm it."),
    Refusal.NOT_PENDING: gettext_lazy("This result is no longer waiting for confirmations."),
    Refusal.STANDS: gettext_lazy("The result stands: to change it, call a judge."),
}


class ReportRefused(Exception):
    """An action the rules refuse; ``code`` is a :class:`Refusal`."""

    def __init__(self, code: Refusal):
        super().__init__(str(code))
        self.code = code

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code])


@dataclass(frozen=True)
class ReportState:
    """One report as the rules see it.

    ``status`` (:class:`Status`); ``reporter`` (the registration id of the player who
    reported); ``players`` (the registration ids whose word counts: the table's players
    still in the game, a seat with a "Loss" left out, TR §3.1.4); ``confirmed`` (the
    ids that confirmed); ``disputed_by`` (the id that disputed, or ``None``);
    ``reported_at`` (aware datetime); ``countdown_seconds`` (``None``: every other player
    confirms; else the result stands that many seconds after ``reported_at``)."""

    status: Status
    reporter: int
    players: tuple[int, ...]
    reported_at: datetime
    confirmed: frozenset[int] = frozenset()
    disputed_by: int | None = None
    countdown_seconds: int | None = None


def confirmers(state: ReportState) -> tuple[int, ...]:
    """The players whose confirmation the report waits for: everyone but the reporter,
    in table order."""
    return tuple(p for p in state.players if p != state.reporter)


def waiting_for(state: ReportState) -> tuple[int, ...]:
    """The confirmers who have not confirmed yet."""
    return tuple(p for p in confirmers(state) if p not in state.confirmed)


def stands_at(state: ReportState) -> datetime | None:
    """When the countdown makes the result stand (``None`` without a countdown)."""
    if state.countdown_seconds is None:
        return None
    return state.reported_at + timedelta(seconds=state.countdown_seconds)


def seconds_left(state: ReportState, now: datetime) -> int | None:
    """Whole seconds until the countdown runs out (0 once it has; ``None`` without a
    countdown or once the report is no longer pending)."""
    end = stands_at(state)
    if end is None or state.status != Status.PENDING:
        return None
    return max(0, int((end - now).total_seconds() + 0.999))


def may_report(
    players: tuple[int, ...], actor: int, *, has_result: bool, open_reporter: int | None
) -> Refusal | None:
    """Why ``actor`` may not report the table's result now (``None``: they may).
    ``players``: the table's players still in the game; ``has_result``: a result is
    already entered (by a judge, or a report that stood); ``open_reporter``: the reporter
    of the table's open report, if any. Reporting again one's own open report is allowed
    (a double tap: the services answer with the report as it is)."""
    if actor not in players:
        return Refusal.NOT_AT_TABLE
    if has_result:
        return Refusal.RESULT_IN
    if open_reporter is not None and open_reporter != actor:
        return Refusal.ALREADY_REPORTED
    return None


def report(
    players: tuple[int, ...],
    actor: int,
    now: datetime,
    *,
    countdown_seconds: int | None,
    has_result: bool = False,
) -> ReportState:
    """The new pending report of ``actor`` (:func:`may_report` with no open report);
    ``ReportRefused`` when refused. A table of one player (everyone else dropped) stands
    at once."""
    if (
        refusal := may_report(players, actor, has_result=has_result, open_reporter=None)
    ) is not None:
        raise ReportRefused(refusal)
    state = ReportState(
        Status.PENDING, actor, tuple(players), now, countdown_seconds=countdown_seconds
    )
    return settle(state, now)


def confirm(state: ReportState, actor: int, now: datetime) -> ReportState:
    """``actor`` confirms the reported result. Returns the new state: ``confirmed`` when
    nobody else is waited for. Confirming twice returns the state unchanged (a double
    tap). ``ReportRefused``: not a player of the table (``not_at_table``), the reporter
    (``own_report``), the report disputed or judged (``not_pending``); a report that
    already stands is returned unchanged (two players confirming at once: the second
    finds it done)."""
    if actor not in state.players:
        raise ReportRefused(Refusal.NOT_AT_TABLE)
    if state.status == Status.CONFIRMED:
        return state
    if state.status != Status.PENDING:
        raise ReportRefused(Refusal.NOT_PENDING)
    if actor == state.reporter:
        raise ReportRefused(Refusal.OWN_REPORT)
    if actor in state.confirmed:
        return settle(state, now)
    return settle(replace(state, confirmed=state.confirmed | {actor}), now)


def dispute(state: ReportState, actor: int) -> ReportState:
    """``actor`` (any player of the table, the reporter included: a typing mistake)
    disputes the reported result: ``disputed``, and a judge is called (the services).
    Disputing a disputed report is nothing (a double tap). ``ReportRefused``: not a
    player of the table (``not_at_table``), the result already stands (``stands``: a
    judge corrects it), or a judge entered it (``not_pending``)."""
    if actor not in state.players:
        raise ReportRefused(Refusal.NOT_AT_TABLE)
    if state.status == Status.DISPUTED:
        return state
    if state.status == Status.CONFIRMED:
        raise ReportRefused(Refusal.STANDS)
    if state.status != Status.PENDING:
        raise ReportRefused(Refusal.NOT_PENDING)
    return replace(state, status=Status.DISPUTED, disputed_by=actor)


def settle(state: ReportState, now: datetime) -> ReportState:
    """The state once time is taken into account: a pending report stands when nobody is
    waited for, or when its countdown has run out (``now`` at or after
    :func:`stands_at`). Anything else is returned unchanged. Called when the report is
    read (the player's page, the judges' round page), so no timer is needed."""
    if state.status != Status.PENDING:
        return state
    end = stands_at(state)
    if not waiting_for(state) or (end is not None and now >= end):
        return replace(state, status=Status.CONFIRMED)
    return state


def judge(state: ReportState) -> ReportState:
    """A judge entered or corrected the table's result: an open report is closed as
    ``judged`` (the judge's entry wins). A report that already stood, or was judged,
    is returned unchanged (the judge's save corrects the result, not the report)."""
    if state.status in OPEN:
        return replace(state, status=Status.JUDGED)
    return state
