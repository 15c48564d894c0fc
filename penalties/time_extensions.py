"""Time extensions of a table (JG §1.2.4; docs/rules-vekn-penalties.md "Time extensions"):
the minutes granted, the table's end time, the suggestion the tablet shows, granting one, and
starting the round's clock. Moved out of ``penalties.services``; same functions."""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

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


def table_end_time(table: Table, extension_minutes: int | None = None):
    """The table's end time: round start + round time + its extensions; ``None`` until the
    round's clock is started."""
    rnd = table.round
    if rnd.started_at is None:
        return None
    event = rnd.event
    minutes = event.final_minutes if rnd.is_final else event.round_minutes
    extra = table_extension_minutes(table) if extension_minutes is None else extension_minutes
    return rnd.started_at + timedelta(minutes=minutes + extra)


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
    return ext


def start_round_clock(rnd: Round, actor=None) -> None:
    """Start the round's clock now (the tables' end times follow)."""
    with transaction.atomic():
        updated = Round.objects.filter(pk=rnd.pk, started_at__isnull=True).update(
            started_at=timezone.now()
        )
        if not updated:
            raise UserError(_("The clock of this round has already started."))
        audit(rnd.event, actor, "round.start", str(rnd))


def seats_by_registration(event: Event) -> dict[int, list[int]]:
    """Registration id → round numbers played (for adjustment targets)."""
    games: dict[int, list[int]] = defaultdict(list)
    for reg, number in Seat.objects.filter(round__event=event).values_list(
        "registration_id", "round__number"
    ):
        games[reg].append(number)
    return games
