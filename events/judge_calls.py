"""Calling a judge from the player's phone, and the judges' queue (event-day services;
docs/players.md "Calling a judge").

A seated player calls for their table with a short reason; the judges of the event see
the open calls oldest first, one of them takes a call (the row lock lets only one), opens
the incident flow for that table and closes it. How long the table waited (called →
taken) is kept: the basis of a time extension (JG §1.2.4, ``penalties.time_extensions``).

Invariant (a database constraint): one open call per table. A second tap, or another
player at the same table, joins the open call instead of making another. Each change
runs in one transaction under the table's or the call's row lock and is audited.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import notifications, notify_rules, rulesets
from events.audit import audit
from events.call_models import NOTE_MAX_LENGTH, CallReason, JudgeCall
from events.errors import ConflictError, UserError
from events.limits import check_free_text
from events.models import Event, Registration, Round, Seat, Table
from events.permissions import Permission as P

CREATED = "judge_call.created"
TAKEN = "judge_call.taken"
CLOSED = "judge_call.closed"


def reason_choices(event: Event) -> list[tuple[str, str]]:
    """The reasons ``event``'s ruleset offers a calling player, as (code, label) pairs in
    order (``RulesetSpec.judge_call_reasons``)."""
    return [(code, CallReason(code).label) for code in rulesets.of(event).judge_call_reasons]


def _current_seat(reg: Registration) -> Seat:
    """``reg``'s seat in the event's latest round, published; ``UserError`` otherwise
    (not seated, or a Mitos y Leyendas bye: no table to come to)."""
    latest: Round | None = reg.event.rounds.order_by("-number").first()
    seat = None
    if latest is not None and latest.seating_published:
        seat = Seat.objects.filter(round=latest, registration=reg).select_related("table").first()
    if seat is None or seat.table.is_bye:
        raise UserError(_("You are not seated in a round that is being played."))
    return seat


def call_judge(
    event: Event, user, reason: str, note: str = "", now: datetime | None = None
) -> tuple[JudgeCall, bool]:
    """``user`` (a signed-in player of ``event``) calls a judge to their own table in the
    current round. Returns ``(call, created)``: ``created`` is ``False`` when the table
    already had an open call, which the player joins (nothing changes: a double tap, or
    another player of the table). ``reason``: a code of the ruleset's
    ``judge_call_reasons``; ``note``: at most ``NOTE_MAX_LENGTH`` characters. Errors:
    ``Http404`` when the user is not registered; ``UserError`` when not seated, for an
    unknown reason or a note too long."""
    reg = (
        Registration.objects.filter(event=event, person__user_id=getattr(user, "pk", None))
        .select_related("event")
        .first()
    )
    if reg is None or not user.is_authenticated:
        raise Http404("Not registered")
    if reason not in rulesets.of(event).judge_call_reasons:
        raise UserError(_("Pick one of the reasons."), field="reason")
    note = check_free_text(note, _("Note"), limit=NOTE_MAX_LENGTH, field="note").strip()
    now = now or timezone.now()
    seat = _current_seat(reg)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=seat.table_id)
        existing = JudgeCall.objects.filter(table=table, closed_at__isnull=True).first()
        if existing is not None:
            return existing, False
        try:
            with transaction.atomic():
                call = JudgeCall.objects.create(
                    event=event,
                    round_id=table.round_id,
                    table=table,
                    table_number=table.number,
                    caller=reg,
                    reason=reason,
                    note=note,
                    created_at=now,
                )
        except IntegrityError:  # another player of the table, at the same instant
            return JudgeCall.objects.get(table=table, closed_at__isnull=True), False
        audit(
            event,
            user,
            CREATED,
            target=str(call),
            after={"table": table.number, "reason": reason, "registration": reg.pk},
            comment=note,
            about=call,
        )
        page_cache.floor_changed(event)  # the table's seat boxes show the call
    return call, True


def _locked_call(event: Event, call_id: int) -> JudgeCall:
    call = (
        JudgeCall.objects.select_for_update(of=("self",))
        .select_related("taken_by")
        .filter(event=event, pk=call_id)
        .first()
    )
    if call is None:
        raise Http404("No such call")
    return call


def judge_name(user) -> str:
    """How a judge is named to players and other judges: full name, else user name."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def take_call(
    event: Event, call_id: int, actor, *, perms, now: datetime | None = None
) -> JudgeCall:
    """``actor`` (holding ``LOG_PENALTIES``: the event's judges and above) takes the open
    call ``call_id``: the call's row lock lets only one judge do it. Taking it again is
    nothing; ``ConflictError`` ("already taken by …") when another judge has it,
    ``UserError`` when closed, ``PermissionDenied`` without the permission, ``Http404``
    for a call of another event. Records ``taken_at``: the table waited from
    ``created_at`` to it (JG §1.2.4). The caller is told (:func:`notify_answered`)."""
    if P.LOG_PENALTIES not in perms:
        raise PermissionDenied
    now = now or timezone.now()
    with transaction.atomic():
        call = _locked_call(event, call_id)
        if call.closed_at is not None:
            raise UserError(_("This call is closed."))
        if call.taken_by_id is not None:
            if call.taken_by_id == actor.pk:
                return call
            raise ConflictError(
                _("Already taken by %(name)s.") % {"name": judge_name(call.taken_by)}
            )
        call.taken_by, call.taken_at = actor, now
        call.save(update_fields=["taken_by", "taken_at"])
        audit(
            event,
            actor,
            TAKEN,
            target=str(call),
            after={"waited_seconds": call.waited_seconds(now)},
            about=call,
        )
        notify_answered(event, call)
        page_cache.floor_changed(event)  # "a judge is coming" on the table's seat boxes
    return call


def notify_answered(event: Event, call: JudgeCall) -> None:
    """Tell the player who called (if they have an account and opted in to
    ``judge_call_answered``) that a judge took the call: queued after the commit, never to
    a webhook **[choice: the caller only; the others at the table see it on their page]**
    (docs/notifications.md)."""
    user_id = (
        Registration.objects.filter(pk=call.caller_id)
        .values_list("person__user_id", flat=True)
        .first()
    )
    if user_id is None:
        return
    with notifications.site_language():
        notice = notify_rules.judge_call_answered(
            event.name,
            call.table_number,
            judge_name(call.taken_by),
            notifications.absolute(reverse("my-page")),
        )
    notifications.notify_users(
        notice, [user_id], organisation_id=event.organisation_id, webhooks=False
    )


def close_call(
    event: Event, call_id: int, actor, *, perms, now: datetime | None = None
) -> JudgeCall:
    """``actor`` (``LOG_PENALTIES``) closes call ``call_id``; closing a call nobody took
    takes it first (the judge came straight to the table). Closing it again is nothing.
    ``PermissionDenied`` without the permission, ``Http404`` for another event's call."""
    if P.LOG_PENALTIES not in perms:
        raise PermissionDenied
    now = now or timezone.now()
    with transaction.atomic():
        call = _locked_call(event, call_id)
        if call.closed_at is not None:
            return call
        fields = ["closed_at"]
        if call.taken_by_id is None:
            call.taken_by, call.taken_at = actor, now
            fields += ["taken_by", "taken_at"]
        call.closed_at = now
        call.save(update_fields=fields)
        audit(
            event,
            actor,
            CLOSED,
            target=str(call),
            after={"waited_seconds": call.waited_seconds(now)},
            about=call,
        )
        page_cache.floor_changed(event)  # the call leaves the table's seat boxes
    return call


@dataclass(frozen=True)
class QueueItem:
    """One open call of the judges' queue: the ``call`` (its caller's person, its round
    and taker loaded), ``waited`` (seconds the table has waited or waited, to the call
    being taken), ``taker`` (the judge's name, ``""`` while nobody took it)."""

    call: JudgeCall
    waited: int
    taker: str

    @property
    def waited_text(self) -> str:
        """``waited`` as minutes and seconds, ``"4:05"``."""
        return f"{self.waited // 60}:{self.waited % 60:02d}"


def queue(event: Event, now: datetime | None = None) -> list[QueueItem]:
    """The open calls of ``event``, oldest first (one query)."""
    now = now or timezone.now()
    calls = (
        JudgeCall.objects.filter(event=event, closed_at__isnull=True)
        .select_related("caller__person", "taken_by", "round")
        .order_by("created_at", "pk")
    )
    return [QueueItem(c, c.waited_seconds(now), judge_name(c.taken_by)) for c in calls]


def open_call_of_table(table_id: int) -> JudgeCall | None:
    """The open call of a table (its taker loaded), for the player's seat box; one
    query."""
    return (
        JudgeCall.objects.filter(table_id=table_id, closed_at__isnull=True)
        .select_related("taken_by")
        .first()
    )


def waits_by_table(rnd: Round) -> dict[int, int]:
    """Table number → seconds its taken calls of round ``rnd`` waited for a judge
    (created → taken, summed over the round), the basis of a time extension
    (JG §1.2.4). One query."""
    rows = (
        JudgeCall.objects.filter(round=rnd, taken_at__isnull=False)
        .values_list("table_number", "created_at", "taken_at")
        .order_by()
    )
    waits: dict[int, int] = {}
    for number, created, taken in rows:
        waits[number] = waits.get(number, 0) + max(0, int((taken - created).total_seconds()))
    return waits
