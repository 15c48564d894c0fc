"""A table's result reported by its own players from their phones (event-day services;
docs/players.md "Reporting your table's result").

A player at the table reports its result (VEKN: the VP of every seat; Mitos y Leyendas:
the games each player won); the others confirm it on their phones. When everyone whose
word counts has confirmed (VEKN) — or the opponent confirmed, or the event's countdown
ran out without a dispute (Mitos y Leyendas) — the result **stands**: it is saved by the
judges' own result service (``events.report_adapters``: the same validation, the same
audit entry ``result.save``). Any player disputing calls a judge to the table
(``events.judge_calls``, reason "dispute"); a judge's entry or correction closes the
report (``events.report_locks``). The rules of who may do what are
``events.report_rules`` (pure).

The countdown needs no timer: a pending report whose countdown has run out is made to
stand when it is next read (:func:`settle_due`, called by the player's seat box, the
match page and the judges' round pages) **[choice]**.

Locks: every change locks the table first, then the report (the order of a judge's save,
so the two never deadlock); one open report per table is a database constraint; a
player's confirmation is a row with its own unique constraint. Each change is audited
with the player as the actor.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import judge_calls, notifications, notify_rules, rulesets
from events import report_rules as rules
from events.audit import audit
from events.errors import UserError
from events.models import (
    Event,
    Registration,
    ReportConfirmation,
    ResultReport,
    Round,
    Seat,
    Table,
)
from events.report_rules import OPEN, ReportRefused, Status

logger = logging.getLogger(__name__)

REPORTED = "result_report.reported"
CONFIRMED = "result_report.confirmed"
STOOD = "result_report.stood"
DISPUTED = "result_report.disputed"

_OPEN = [s.value for s in OPEN]


def adapter_of(event: Event):
    """The ruleset's ``result_reports`` adapter (``events.report_adapters``)."""
    return rulesets.of(event).adapter("result_reports")


def _registration(event: Event, user) -> Registration:
    reg = (
        Registration.objects.filter(event=event, person__user_id=getattr(user, "pk", None))
        .select_related("event", "person")
        .first()
    )
    if reg is None or not getattr(user, "is_authenticated", False):
        raise Http404("Not registered")
    return reg


def _current_table_id(reg: Registration) -> int:
    """The table of ``reg``'s seat in the latest round whose seating is published;
    ``UserError`` when not seated there (or a MyL bye: nothing to report)."""
    latest: Round | None = reg.event.rounds.order_by("-number").first()
    seat = None
    if latest is not None and latest.seating_published:
        seat = Seat.objects.filter(round=latest, registration=reg).select_related("table").first()
    if seat is None or seat.table.is_bye:
        raise UserError(_("You are not seated in a round that is being played."))
    return seat.table_id


def _lock_table(table_id: int) -> tuple[Table, list[Seat]]:
    table = (
        Table.objects.select_for_update(no_key=True).select_related("round__event").get(pk=table_id)
    )
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__person").order_by("position")
    )
    return table, seats


def players_of(seats: Sequence[Seat]) -> tuple[int, ...]:
    """The registrations whose word counts: the table's seats without a "Loss"."""
    return tuple(s.registration_id for s in seats if not s.loss)


def state_of(report: ResultReport, seats: Sequence[Seat], confirmed: set[int]) -> rules.ReportState:
    """The report as the rules see it (``report_rules.ReportState``)."""
    countdown = None
    if report.stands_at is not None:
        countdown = int((report.stands_at - report.created_at).total_seconds())
    return rules.ReportState(
        status=Status(report.status),
        reporter=report.reporter_id,
        players=players_of(seats),
        reported_at=report.created_at,
        confirmed=frozenset(confirmed),
        disputed_by=report.disputed_by_id,
        countdown_seconds=countdown,
    )


def _refused(exc: ReportRefused) -> UserError:
    return UserError(exc.message)


def _show(adapter, report: ResultReport) -> str:
    return "–".join(adapter.show(v) for v in adapter.load(report.values))


def _stand(report: ResultReport, table: Table, adapter, actor, comment: str, now) -> None:
    """The report stands: its status first (so the judges' save finds no open report to
    close), then the result through the ruleset's own result service, then the audit."""
    report.status = Status.CONFIRMED.value
    report.decided_at = now
    report.save(update_fields=["status", "decided_at"])
    adapter.apply(table, adapter.load(report.values), actor, comment)
    audit(
        table.round.event,
        actor,
        STOOD,
        target=str(report),
        after={"values": report.values, "how": comment},
        about=report,
    )
    page_cache.floor_changed(table.round.event)  # the table's seat boxes show it


def _notify_confirmers(report: ResultReport, seats: Sequence[Seat], reg: Registration, adapter):
    event = report.event
    others = [
        s.registration.person.user_id for s in seats if not s.loss and s.registration_id != reg.pk
    ]
    table = report.table
    notice = notify_rules.result_to_confirm(
        event.name,
        str(_("Table %(n)s") % {"n": table.number}),
        reg.person.name,
        _show(adapter, report),
        notifications.absolute(reverse("my-page")),
    )
    notifications.notify_users(
        notice, others, organisation_id=event.organisation_id, webhooks=False
    )


# --------------------------------------------------------------------------- actions
def report_result(
    event: Event, user, raw: Sequence[str], now: datetime | None = None
) -> ResultReport:
    """``user`` (a player seated in the current round) reports their table's result:
    ``raw`` is one text value per seat in seat order (VEKN VP ``"2"``, ``"1.5"``; MyL
    games; values past the table's seats are ignored). Checked as a judge's entry is (the ruleset's adapter), without the judge's
    override. The others at the table are notified (``result_to_confirm``). Sending the
    same report again returns it unchanged (a double tap). Errors: ``Http404`` when not
    registered; ``UserError`` when not seated, the result is in, another player
    reported first, or the values are not a legal result. Audited
    (``result_report.reported``)."""
    now = now or timezone.now()
    reg = _registration(event, user)
    adapter = adapter_of(event)
    table_id = _current_table_id(reg)
    with transaction.atomic():
        table, seats = _lock_table(table_id)
        open_report = ResultReport.objects.filter(table=table, status__in=_OPEN).first()
        refusal = rules.may_report(
            players_of(seats),
            reg.pk,
            has_result=adapter.has_result(seats),
            open_reporter=open_report.reporter_id if open_report else None,
        )
        if refusal is not None:
            raise UserError(str(rules.MESSAGES[refusal]))
        raw = (list(raw) + [""] * len(seats))[: len(seats)]  # the form sends five
        values = adapter.parse(raw, seats)
        if open_report is not None:
            if open_report.values == adapter.store(values):
                return open_report
            raise UserError(
                _("You already reported this table's result: dispute it to correct it.")
            )
        adapter.check(table, seats, values)
        try:
            state = rules.report(
                players_of(seats), reg.pk, now, countdown_seconds=adapter.countdown_seconds(event)
            )
        except ReportRefused as exc:
            raise _refused(exc) from None
        report = ResultReport.objects.create(
            event=event,
            table=table,
            reporter=reg,
            values=adapter.store(values),
            created_at=now,
            stands_at=rules.stands_at(state),
        )
        audit(
            event,
            user,
            REPORTED,
            target=str(report),
            after={"values": report.values, "registration": reg.pk},
            about=report,
        )
        page_cache.floor_changed(event)  # the table's seat boxes show the report
        if state.status == Status.CONFIRMED:  # nobody else to ask
            _stand(report, table, adapter, user, "reported by the only player left", now)
        else:
            _notify_confirmers(report, seats, reg, adapter)
    return report


def _locked_report(event: Event, report_id: int) -> tuple[ResultReport, Table, list[Seat]]:
    table_id = (
        ResultReport.objects.filter(event=event, pk=report_id)
        .values_list("table_id", flat=True)
        .first()
    )
    if table_id is None:
        raise Http404("No such report")
    table, seats = _lock_table(table_id)
    report = (
        ResultReport.objects.select_for_update(of=("self",))
        .select_related("table__round__event", "event")
        .get(pk=report_id)
    )
    return report, table, seats


def _confirmed_ids(report: ResultReport) -> set[int]:
    return set(report.confirmations.values_list("registration_id", flat=True))


def confirm_report(event: Event, user, report_id: int, now: datetime | None = None) -> ResultReport:
    """``user`` (a player of the report's table, not its reporter) confirms report
    ``report_id``. When nobody else is waited for (VEKN: every other player; MyL: the
    opponent) the result stands and is saved (``result.save``, by this player). A second
    confirmation, or one arriving after the report stood, changes nothing. Errors:
    ``Http404`` (not registered, another event's report), ``UserError`` (not at the
    table, the reporter, the report disputed or closed by a judge). Audited
    (``result_report.confirmed``, ``result_report.stood``)."""
    now = now or timezone.now()
    reg = _registration(event, user)
    with transaction.atomic():
        report, table, seats = _locked_report(event, report_id)
        confirmed = _confirmed_ids(report)
        state = state_of(report, seats, confirmed)
        try:
            new = rules.confirm(state, reg.pk, now)
        except ReportRefused as exc:
            raise _refused(exc) from None
        if reg.pk in new.confirmed and reg.pk not in confirmed:
            ReportConfirmation.objects.create(report=report, registration=reg, created_at=now)
            audit(
                event,
                user,
                CONFIRMED,
                target=str(report),
                after={"registration": reg.pk, "waiting": list(rules.waiting_for(new))},
                about=report,
            )
            page_cache.floor_changed(event)  # the table's seat boxes count it
        if state.status == Status.PENDING and new.status == Status.CONFIRMED:
            how = (
                "reported by a player, confirmed by the table"
                if not rules.waiting_for(new)
                else "reported by a player, stood after the countdown"
            )
            _stand(report, table, adapter_of(event), user, how, now)
    return report


def dispute_report(
    event: Event, user, report_id: int, note: str = "", now: datetime | None = None
) -> ResultReport:
    """``user`` (any player of the report's table) disputes report ``report_id``: it is
    ``disputed`` and a judge is called to the table (``events.judge_calls.call_judge``,
    reason "dispute", joining a call already open). Disputing twice changes nothing. A
    report whose countdown ran out meanwhile stands instead (returned with status
    ``confirmed``: the page says a judge corrects it). Errors: ``Http404``,
    ``UserError`` (not at the table, the result stands, closed by a judge). Audited
    (``result_report.disputed``)."""
    now = now or timezone.now()
    reg = _registration(event, user)
    with transaction.atomic():
        report, table, seats = _locked_report(event, report_id)
        state = state_of(report, seats, _confirmed_ids(report))
        settled = rules.settle(state, now)
        if settled.status == Status.CONFIRMED and state.status == Status.PENDING:
            _stand(
                report,
                table,
                adapter_of(event),
                None,
                "reported by a player, stood after the countdown",
                now,
            )
            return report
        try:
            new = rules.dispute(state, reg.pk)
        except ReportRefused as exc:
            raise _refused(exc) from None
        if new.status == state.status:
            return report
        call, _created = judge_calls.call_judge(
            event, user, "dispute", note or _("The reported result is disputed."), now=now
        )
        report.status = Status.DISPUTED.value
        report.disputed_by = reg
        report.decided_at = now
        report.judge_call = call
        report.save(update_fields=["status", "disputed_by", "decided_at", "judge_call"])
        audit(
            event,
            user,
            DISPUTED,
            target=str(report),
            before={"status": state.status.value},
            after={"status": report.status, "registration": reg.pk, "call": call.pk},
            comment=note,
            about=report,
        )
        page_cache.floor_changed(event)  # the table's seat boxes show the dispute
    return report


def settle_due(event: Event, now: datetime | None = None) -> int:
    """Make the pending reports of ``event`` whose countdown has run out stand (MyL),
    each in its own transaction under the table's and the report's locks; one query when
    none is due. A report that can no longer be saved (the next round was paired
    meanwhile: only a judge corrects it) stays pending for the judges, and is logged.
    Returns how many stood. Audited (``result_report.stood``, no actor)."""
    now = now or timezone.now()
    due = list(
        ResultReport.objects.filter(
            event=event, status=Status.PENDING.value, stands_at__lte=now
        ).values_list("pk", flat=True)
    )
    stood = 0
    for pk in due:
        try:
            with transaction.atomic():
                report, table, seats = _locked_report(event, pk)
                state = state_of(report, seats, _confirmed_ids(report))
                if state.status == Status.PENDING and rules.settle(state, now).status == (
                    Status.CONFIRMED
                ):
                    _stand(
                        report,
                        table,
                        adapter_of(event),
                        None,
                        "reported by a player, stood after the countdown",
                        now,
                    )
                    stood += 1
        except UserError:
            logger.warning("self_report: report %s could not stand", pk, exc_info=True)
    return stood


# --------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class ReportView:
    """A report as the pages show it: ``report``; ``values`` (one shown value per seat,
    seat order); ``reporter``, ``confirmed``, ``waiting`` and ``disputed_by`` (names);
    ``seconds_left`` and ``stands_at`` (the MyL countdown, ``None`` without one or once
    decided)."""

    report: ResultReport
    values: list[str]
    reporter: str
    confirmed: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    disputed_by: str = ""
    seconds_left: int | None = None
    stands_at: datetime | None = None

    @property
    def status(self) -> str:
        return self.report.status

    @property
    def is_open(self) -> bool:
        return self.report.is_open

    @property
    def counts(self) -> str:
        """``"2/3"``: confirmations over the confirmations waited for."""
        done = len(self.confirmed)
        return f"{done}/{done + len(self.waiting)}"


def _view(report: ResultReport, seats: Sequence[Seat], confirmed: set[int], adapter, now):
    names = {s.registration_id: s.registration.person.name for s in seats}
    state = state_of(report, seats, confirmed)
    return ReportView(
        report=report,
        values=[adapter.show(v) for v in adapter.load(report.values)],
        reporter=names.get(report.reporter_id, ""),
        confirmed=[names[p] for p in rules.confirmers(state) if p in confirmed],
        waiting=[names[p] for p in rules.waiting_for(state)],
        disputed_by=names.get(report.disputed_by_id, "") if report.disputed_by_id else "",
        seconds_left=rules.seconds_left(state, now),
        stands_at=rules.stands_at(state) if report.status == Status.PENDING.value else None,
    )


@dataclass(frozen=True)
class PanelRow:
    """One seat of the player's report panel: ``position``, ``name``, ``loss`` and the
    ``result`` entered (``""`` before one)."""

    position: int
    name: str
    loss: bool
    result: str
    me: bool


@dataclass(frozen=True)
class TablePanel:
    """What the player's seat box shows about their table's result: ``rows`` (the seats),
    ``report`` (the latest report, a :class:`ReportView`, or ``None``), ``has_result``
    (the result is in), ``stood`` (the result in is the players' report, not a judge's
    correction of it), ``can_report``, ``can_confirm``, ``can_dispute`` and ``mine``
    (the player reported it)."""

    rows: list[PanelRow]
    report: ReportView | None
    has_result: bool
    can_report: bool
    can_confirm: bool
    can_dispute: bool
    mine: bool
    stood: bool = False


def table_panel(reg: Registration, table_id: int, now: datetime | None = None) -> TablePanel:
    """The :class:`TablePanel` of ``reg`` (its event loaded) at table ``table_id``, after
    a due countdown made its report stand (:func:`settle_due`). At most five queries."""
    now = now or timezone.now()
    event = reg.event
    settle_due(event, now)
    adapter = adapter_of(event)
    seats = list(
        Seat.objects.filter(table_id=table_id)
        .select_related("registration__person")
        .order_by("position")
    )
    report = (
        ResultReport.objects.filter(table_id=table_id)
        .exclude(status=Status.JUDGED.value)
        .order_by("-created_at", "-pk")
        .first()
    )
    confirmed = _confirmed_ids(report) if report is not None else set()
    view = _view(report, seats, confirmed, adapter, now) if report is not None else None
    has_result = adapter.has_result(seats)
    rows = [
        PanelRow(
            s.position,
            s.registration.person.name,
            s.loss,
            _seat_result(adapter, s) if has_result else "",
            s.registration_id == reg.pk,
        )
        for s in seats
    ]
    playing = reg.pk in players_of(seats)
    pending = view is not None and view.status == Status.PENDING.value
    state = state_of(report, seats, confirmed) if report is not None else None
    return TablePanel(
        rows=rows,
        report=view if view is not None and (view.is_open or view.status == "confirmed") else None,
        has_result=has_result,
        can_report=playing
        and not has_result
        and (view is None or not view.is_open)
        and not event.results_approved,
        can_confirm=pending and state is not None and reg.pk in rules.waiting_for(state),
        can_dispute=pending and playing,
        mine=report is not None and report.reporter_id == reg.pk,
        stood=has_result
        and view is not None
        and view.status == Status.CONFIRMED.value
        and view.values == [_seat_result(adapter, s) for s in seats],
    )


def _seat_result(adapter, seat: Seat) -> str:
    """A seat's saved result as the pages show it (VP, or games won)."""
    value = seat.games_won if seat.games_won is not None else seat.vp
    return adapter.show(value)


def round_reports(
    event: Event, round_id: int, now: datetime | None = None
) -> dict[int, ReportView]:
    """Table number → the latest report of each table of round ``round_id`` that players
    reported (a judge's closed ones included: the tablet shows "closed by a judge"), for
    the judges' round page, after due countdowns stood (:func:`settle_due`). At most
    five queries."""
    now = now or timezone.now()
    settle_due(event, now)
    adapter = adapter_of(event)
    reports = (
        ResultReport.objects.filter(table__round_id=round_id, event=event)
        .select_related("table")
        .prefetch_related("confirmations", "table__seats__registration__person")
        .order_by("table_id", "-created_at", "-pk")
    )
    out: dict[int, ReportView] = {}
    for report in reports:
        number = report.table.number
        if number in out:
            continue
        seats = sorted(report.table.seats.all(), key=lambda s: s.position)
        confirmed = {c.registration_id for c in report.confirmations.all()}
        out[number] = _view(report, seats, confirmed, adapter, now)
    return out


def open_report(table: Table, now: datetime | None = None) -> ReportView | None:
    """The open report (pending or disputed) of ``table``, for the judge's result form,
    which it pre-fills; ``None`` without one. At most three queries."""
    report = ResultReport.objects.filter(table=table, status__in=_OPEN).first()
    if report is None:
        return None
    event = table.round.event
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__person").order_by("position")
    )
    return _view(report, seats, _confirmed_ids(report), adapter_of(event), now or timezone.now())
