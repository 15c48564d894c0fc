"""Time extensions of a table (JG §1.2.4; docs/rules-vekn-penalties.md "Time extensions"):
the minutes granted, the table's end time, the suggestion the tablet shows, granting one; and
the round's clock: starting, pausing and resuming it (the time left is worked out by
``events.round_clock``; docs/rules-vekn.md "The round clock")."""

from __future__ import annotations

import uuid
from collections import defaultdict
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import notifications, round_clock
from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from events.models import Event, Round, Seat, Table
from events.permissions import Permission as P
from penalties import vekn_guide as guide
from penalties.models import (
    TimeExtension,
)


def table_extension_minutes(table: Table) -> int:
    return sum(TimeExtension.objects.filter(table=table).values_list("minutes", flat=True))


def extension_minutes_by_table(rnd: Round) -> dict[int, int]:
    """Table number → minutes of time extension granted at it this round (JG §1.2.4),
    tables with none left out; one query."""
    rows = (
        TimeExtension.objects.filter(table__round=rnd)
        .values_list("table__number")
        .annotate(total=Sum("minutes"))
    )
    return {number: total for number, total in rows}


def table_end_time(table: Table, extension_minutes: int | None = None):
    """The table's end time (aware, UTC): round start + round time + its extensions + the
    time the round spent paused (``events.round_clock.end_time``; while paused, as if it
    resumed now); ``None`` until the round's clock is started."""
    rnd = table.round
    if rnd.started_at is None:
        return None
    extra = table_extension_minutes(table) if extension_minutes is None else extension_minutes
    return round_clock.end_time(rnd.timing(), timezone.now(), extra)


def suggest_extension(table: Table, minutes_spent, authorised: bool) -> guide.ExtensionSuggestion:
    """JG §1.2.4 suggestion for this table, counting what it already got this round.
    ``minutes_spent`` must be a number of minutes between 0 and 600."""
    try:
        minutes = Decimal(str(minutes_spent).strip().replace(",", "."))
        if not minutes.is_finite() or abs(minutes.adjusted()) > 3 or not 0 <= minutes <= 600:
            raise ValueError
    except (ArithmeticError, ValueError):
        raise UserError(_("Enter the minutes the judge spent at the table (0 to 600).")) from None
    # The rule's ValueError cannot come from the person's input (checked above, and the
    # minutes already granted come from the database): it would be a bug, so not caught.
    return guide.suggest_time_extension(
        guide.ExtensionRequest(
            minutes_spent=minutes,
            already_granted=table_extension_minutes(table),
            head_judge_authorised=authorised,
            scheduled_end=table_end_time(table),
        )
    )


def add_extension(
    table: Table,
    minutes_spent,
    *,
    client_id: uuid.UUID,
    actor=None,
    perms: frozenset,
    authorised: bool = False,
    reason: str = "",
) -> TimeExtension:
    """Grant the suggested extension (JG §1.2.4), idempotent by ``client_id``. Beyond 10
    minutes in total only when the head judge authorises."""
    existing = TimeExtension.objects.filter(client_id=client_id).first()
    if existing:
        return existing
    reason = check_free_text(
        reason,
        field_label(TimeExtension, "reason"),
        limit=TimeExtension._meta.get_field("reason").max_length,
        field="reason",
    ).strip()
    if authorised and P.CONFIRM_PENALTIES not in perms:
        raise UserError(_("Only the head judge may authorise more than 10 minutes."))
    with transaction.atomic():
        # FOR NO KEY UPDATE, as events.services.save_results: rows inserted meanwhile that
        # point at the table, its round or the event (a penalty, an audit entry) do not
        # wait for it, and cannot deadlock with it.
        table = (
            Table.objects.select_for_update(no_key=True)
            .select_related("round__event")
            .get(pk=table.pk)
        )
        suggestion = suggest_extension(table, minutes_spent, authorised)
        if suggestion.minutes <= 0:
            raise UserError(suggestion.explanation)
        ext = TimeExtension.objects.create(
            table=table,
            client_id=client_id,
            minutes_spent=Decimal(str(minutes_spent)),
            minutes=suggestion.minutes,
            reason=reason,
            head_judge_authorised=authorised,
            judge=actor if getattr(actor, "is_authenticated", False) else None,
        )
        audit(
            table.round.event,
            actor,
            "table.extension",
            f"round {table.round.number} table {table.number}",
            after={"minutes": ext.minutes, "total": suggestion.total},
        )
        # the big screen shows the table's time left (events.views_screen), its players'
        # seat boxes too
        page_cache.invalidate(table.round.event, seating=False)
        page_cache.floor_changed(table.round.event)
    return ext


def _check_clock_permission(perms) -> None:
    if P.MANAGE_SEATING not in perms:
        raise PermissionDenied("Starting, pausing or resuming a round's clock needs manage_seating")


def start_round_clock(rnd: Round, actor=None, *, perms: frozenset | None = None) -> None:
    """Start the round's clock now (the tables' end times follow). ``perms``: the
    caller's permissions, checked when given (``PermissionDenied`` without
    ``MANAGE_SEATING``; the page always gives them). ``UserError`` if it has started."""
    if perms is not None:
        _check_clock_permission(perms)
    with transaction.atomic():
        updated = Round.objects.filter(pk=rnd.pk, started_at__isnull=True).update(
            started_at=timezone.now()
        )
        if not updated:
            raise UserError(_("The clock of this round has already started."))
        audit(rnd.event, actor, "round.start", str(rnd), about=rnd)
        page_cache.invalidate(rnd.event, seating=False)  # the big screen shows the clock
        page_cache.floor_changed(rnd.event)  # and the players' seat boxes
        notifications.round_started(rnd)  # its players, after the commit


_CLOCK_ERRORS = {
    "not_started": lambda: _("The clock of this round has not started yet."),
    "already_paused": lambda: _("The clock of this round is already paused."),
    "not_paused": lambda: _("The clock of this round is not paused."),
    "before_pause": lambda: _("The clock of this round is not paused."),
}


def _change_clock(rnd: Round, actor, perms: frozenset, change, action: str) -> Round:
    """Apply ``change`` (``round_clock.pause`` or ``resume``) to the round under a row
    lock, save, audit ``action`` and make the cached public pages stale."""
    _check_clock_permission(perms)
    with transaction.atomic():
        # FOR NO KEY UPDATE, as add_extension: an audit entry inserted meanwhile that
        # points at the round's event does not wait for it.
        locked = Round.objects.select_for_update(no_key=True).select_related("event").get(pk=rnd.pk)
        before = locked.timing()
        try:
            after = change(before, timezone.now())
        except round_clock.ClockError as exc:
            raise UserError(_CLOCK_ERRORS[exc.code]()) from None
        locked.paused_at, locked.paused_seconds = after.paused_at, after.paused_seconds
        locked.save(update_fields=["paused_at", "paused_seconds"])
        audit(
            locked.event,
            actor,
            action,
            str(locked),
            {"paused_seconds": before.paused_seconds},
            {"paused_seconds": after.paused_seconds},
            about=locked,
        )
        page_cache.invalidate(locked.event, seating=False)  # the big screen shows the clock
        page_cache.floor_changed(locked.event)  # and the players' seat boxes
    return locked


def pause_round_clock(rnd: Round, actor=None, *, perms: frozenset) -> Round:
    """Pause the whole round's clock now (every table's time left stops with it).
    ``PermissionDenied`` without ``MANAGE_SEATING``; ``UserError`` if the clock has not
    started or is already paused (a second click of the same button). The round as saved."""
    return _change_clock(rnd, actor, perms, round_clock.pause, "round.pause")


def resume_round_clock(rnd: Round, actor=None, *, perms: frozenset) -> Round:
    """Resume a paused round's clock now: the pause's length is added to every table's
    end. ``PermissionDenied`` without ``MANAGE_SEATING``; ``UserError`` if it is not
    paused. The round as saved."""
    return _change_clock(rnd, actor, perms, round_clock.resume, "round.resume")


def seats_by_registration(event: Event) -> dict[int, list[int]]:
    """Registration id → round numbers played (for adjustment targets)."""
    games: dict[int, list[int]] = defaultdict(list)
    for reg, number in Seat.objects.filter(round__event=event).values_list(
        "registration_id", "round__number"
    ):
        games[reg].append(number)
    return games
