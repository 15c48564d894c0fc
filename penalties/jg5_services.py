"""Organisational cases of the judges' guide in the app (JG §5; docs/rules-vekn-penalties.md
"Organisational cases"): venue interference, force majeure and its lifting, a substitute
seated. The rules are ``penalties.organisational``; these are their services (moved out of
``penalties.services``, same functions)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from events.models import Event, Registration, Round, Seat, Table
from penalties.lifecycle import ensure_open
from penalties.organisational import venue_interference_unsanctions
from penalties.services import add_non_competing


def record_venue_interference(
    event: Event, rnd: Round, minutes_played: int, any_table_on_time: bool, report: str, actor=None
) -> bool:
    """JG §5.2: record that the venue cut round ``rnd`` short. Returns whether the event is
    now unsanctioned (round under 2 hours and a table ended on time)."""

    report = check_free_text(report, _("What happened"), field="report").strip()
    if not report:
        raise UserError(_("Describe what happened."))
    try:
        minutes = int(minutes_played)
    except (TypeError, ValueError):
        minutes = -1
    if minutes < 0:
        raise UserError(_("Enter the minutes played in the round (0 or more)."), field="minutes")
    unsanctioned = venue_interference_unsanctions(minutes, any_table_on_time)
    ensure_open(event)
    with transaction.atomic():
        if unsanctioned:
            reason = _(
                "Venue interference in %(round)s: %(m)s minutes played, a table ended on time (JG §5.2). %(report)s"
            ) % {
                "round": rnd,
                "m": minutes_played,
                "report": report,
            }
            Event.objects.filter(pk=event.pk).update(sanctioned=False, unsanctioned_reason=reason)
        audit(
            event,
            actor,
            "event.venue_interference",
            str(rnd),
            after={
                "minutes_played": minutes_played,
                "table_on_time": any_table_on_time,
                "unsanctioned": unsanctioned,
            },
            comment=report,
        )
        page_cache.invalidate(event)
    return unsanctioned


def declare_force_majeure(event: Event, report: str, actor=None) -> None:
    """JG §5.3: play cannot resume. Standings become those after the last fully completed
    round; a final stopped before its end has no winner; no completed round → void."""
    report = check_free_text(
        report, field_label(Event, "force_majeure_report"), field="report"
    ).strip()
    if not report:
        raise UserError(_("Describe what happened."))
    ensure_open(event)
    with transaction.atomic():
        updated = Event.objects.filter(pk=event.pk, force_majeure_at__isnull=True).update(
            force_majeure_at=timezone.now(), force_majeure_report=report
        )
        if not updated:
            raise UserError(_("Force majeure is already recorded for this event."))
        audit(event, actor, "event.force_majeure", event.slug, comment=report)
        page_cache.invalidate(event)


def lift_force_majeure(event: Event, reason: str, actor=None) -> None:
    """Take back a force-majeure declaration (recorded by mistake, or play resumed)."""
    reason = check_free_text(reason, _("Why lift it"), field="reason")
    if not reason.strip():
        raise UserError(_("Say why."))
    ensure_open(event)
    with transaction.atomic():
        Event.objects.filter(pk=event.pk).update(force_majeure_at=None)
        audit(event, actor, "event.force_majeure_lifted", event.slug, comment=reason)
        page_cache.invalidate(event)


def seat_substitute(
    table: Table, position: int, name: str, vekn_number: str = "", actor=None
) -> Registration:
    """JG §5.1.1: a substitute (staff, not a participant) takes the seat of a player who left
    after seating, so the table keeps its size. The substitute scores nothing and is left
    out of the table's ranking **[choice]**; the player who left is no longer seated there.
    Only before the table's result is entered."""
    ensure_open(table.round.event)
    with transaction.atomic():
        # FOR NO KEY UPDATE, as events.services.save_results: rows inserted meanwhile that
        # point at the table, its round or the event (a penalty, an audit entry) do not
        # wait for it, and cannot deadlock with it.
        table = (
            Table.objects.select_for_update(no_key=True)
            .select_related("round__event")
            .get(pk=table.pk)
        )
        event = table.round.event
        seat = (
            Seat.objects.select_related("registration")
            .filter(table=table, position=position)
            .first()
        )
        if seat is None:
            raise UserError(_("No such seat."))
        if Seat.objects.filter(table=table, vp__isnull=False, loss=False).exists():
            raise UserError(_("A result is already entered at this table."))
        if seat.registration.active and not seat.loss:
            raise UserError(_("Only the seat of a player who left can take a substitute."))
        substitute = add_non_competing(event, name, vekn_number, actor)
        if Seat.objects.filter(round=table.round, registration=substitute).exists():
            raise UserError(_("This person is already seated in this round."))
        before = {"player": seat.registration.code}
        seat.registration = substitute
        seat.loss = False
        seat.vp = None
        seat.save(update_fields=["registration", "loss", "vp"])
        Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
        audit(
            event,
            actor,
            "table.substitute",
            f"round {table.round.number} table {table.number}",
            before,
            {"substitute": substitute.code},
        )
        page_cache.invalidate(event)
    return substitute
