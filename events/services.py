"""Event services: the only code that turns rules (``standings.vekn``, ``events.seating``)
into database changes. Every change runs in one transaction, locks what two people could
change at once, and writes the audit log.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import F, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events import cache as page_cache
from events import headcount, notifications, report_locks, round_clock
from events import seating as seating_rules
from events.audit import audit, own_repeat
from events.errors import ConflictError, UserError
from events.limits import check_free_text, field_label
from events.models import (
    AuditLog,
    Event,
    Organisation,
    Person,
    Registration,
    Round,
    Seat,
    Table,
)
from events.permissions import Role
from events.presets import get_preset
from events.sanctions import blocking_sanction, refuse_blocked_players, sanction_summary
from standings import vekn
from standings.services import event_standings

TENTH = Decimal("0.1")


# --------------------------------------------------------------------------- events
def create_event(
    organisation: Organisation, *, preset: str, slug: str, name: str, date, actor=None, **overrides
) -> Event:
    """Create an event from a preset (``events.presets``), applying ``overrides``.

    Raises ``UserError`` for a taken slug or an unknown preset.
    """
    try:
        fields = get_preset(preset).event_fields()
    except KeyError:
        raise UserError(_("Unknown preset “%(p)s”.") % {"p": preset}) from None
    fields.update({k: v for k, v in overrides.items() if v is not None})
    fields.update(_format_of(fields))
    if Event.objects.filter(slug=slug).exists():
        raise UserError(_("An event with the address “%(s)s” already exists.") % {"s": slug})
    with transaction.atomic():
        event = Event.objects.create(
            organisation=organisation, slug=slug, name=name, date=date, **fields
        )
        audit(
            event, actor, "event.create", event.slug, after={"preset": preset, **_jsonable(fields)}
        )
    return event


def _format_of(fields: dict) -> dict:
    """The event's ``format`` follows its VEKN ``game_format`` when one is given: limited
    for limited, else constructed (docs/rules-vekn.md "Ratings")."""
    if not fields.get("game_format"):
        return {}
    limited = fields["game_format"] == Event.GameFormat.LIMITED
    return {"format": Event.Format.LIMITED if limited else Event.Format.CONSTRUCTED}


def _jsonable(data: dict) -> dict:
    return {k: (str(v) if isinstance(v, Decimal) else v) for k, v in data.items()}


STRUCTURE_FIELDS = {"preliminary_rounds", "final_mode", "finalists_count"}


def update_event(event: Event, actor, **fields) -> Event:
    """Change event settings; refuses changes that would contradict played rounds: nothing
    changes once the results are approved, and the structure (rounds, final) is fixed once
    the final has started."""
    if event.results_approved:
        raise UserError(_("The event's results are approved: reopen them to change settings."))
    if STRUCTURE_FIELDS & set(fields) and event.rounds.filter(is_final=True).exists():
        raise UserError(_("The final has started: the rounds and the final can no longer change."))
    played = event.rounds.filter(is_final=False).count()
    if "preliminary_rounds" in fields and fields["preliminary_rounds"] < played:
        raise UserError(
            _("%(n)s rounds have already been seated; you cannot set fewer.") % {"n": played}
        )
    fields = {**fields, **_format_of(fields)}
    before = {k: getattr(event, k) for k in fields}
    with transaction.atomic():
        for key, value in fields.items():
            setattr(event, key, value)
        event.full_clean()
        event.save(update_fields=list(fields))
        audit(
            event,
            actor,
            "event.update",
            event.slug,
            _jsonable_dates(before),
            _jsonable_dates(fields),
        )
        page_cache.invalidate(event)
    return event


def _jsonable_dates(data: dict) -> dict:
    return {
        k: (v.isoformat() if hasattr(v, "isoformat") else _jsonable({k: v})[k])
        for k, v in data.items()
    }


# --------------------------------------------------------------------------- players
def _next_code(event: Event) -> str:
    existing = set(event.registrations.values_list("code", flat=True))
    n = len(existing) + 1
    while f"p{n}" in existing:
        n += 1
    return f"p{n}"


def register(event: Event, person: Person, actor=None, *, check_in: bool = False) -> Registration:
    """Register ``person``. Once a round has been seated the player is a late arrival and
    joins from the next round (TR §3.3.1). ``UserError`` if already registered, or if a
    suspension or a permanent ban keeps them out of it (:func:`blocking_sanction`; the
    message says who gave and who confirmed it)."""
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        if event.registrations.filter(person=person).exists():
            raise UserError(_("%(name)s is already registered.") % {"name": person.name})
        sanction = blocking_sanction(person, event)
        if sanction is not None:
            if sanction.ends_on is None:
                message = _("%(name)s is banned from organised play (since %(start)s).")
            else:
                message = _(
                    "%(name)s is suspended from %(start)s to %(end)s and cannot play on "
                    "this event's date."
                )
            message = message % {
                "name": person.name,
                "start": sanction.starts_on.isoformat(),
                "end": sanction.ends_on.isoformat() if sanction.ends_on else "",
            }
            raise UserError(f"{message} {sanction_summary(sanction)}")
        last = event.rounds.aggregate(n=Max("number"))["n"] or 0
        if event.rounds.filter(is_final=True).exists():
            raise UserError(_("The final has started: no more players can join."))
        first_round = last + 1
        if first_round > event.total_preliminary_rounds:
            raise UserError(
                _("Every preliminary round is seated: %(name)s could not play any more.")
                % {"name": person.name}
            )
        reg = Registration.objects.create(
            event=event,
            person=person,
            code=_next_code(event),
            first_round=first_round,
            status=Registration.Status.CHECKED_IN if check_in else Registration.Status.REGISTERED,
        )
        audit(
            event,
            actor,
            "player.register",
            person.name,
            after={"code": reg.code, "first_round": first_round, "late": last > 0},
        )
        page_cache.invalidate(event)
    return reg


def set_status(reg: Registration, status: str, actor=None, *, comment: str = "") -> Registration:
    """Check in, drop or reinstate a player.

    Dropping after the next round was seated gives the player a "Loss" in that round if
    its result is not entered yet (TR §3.1.4, §3.3.2): 0 VP, last at the table [choice].
    Disqualification is a penalty (``penalties``), not a status change made here. A
    player whose suspension or ban covers the event's date (registered before it was
    given) cannot be checked in (:func:`blocking_sanction`). ``comment`` goes to the
    audit entry (how it was done: "QR code", "by the player").
    """
    allowed = {
        Registration.Status.REGISTERED,
        Registration.Status.CHECKED_IN,
        Registration.Status.DROPPED,
    }
    if status not in allowed:
        raise UserError(_("Unknown status."))
    with transaction.atomic():
        reg = Registration.objects.select_for_update().select_related("event").get(pk=reg.pk)
        event = reg.event
        if event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        if reg.status == Registration.Status.DISQUALIFIED:
            raise UserError(_("A disqualified player cannot be reinstated here."))
        if status == Registration.Status.CHECKED_IN:
            sanction = blocking_sanction(reg.person, event)
            if sanction is not None:
                message = _(
                    "%(name)s is suspended or banned on this event's date (from "
                    "%(start)s): they cannot be checked in. Drop them."
                ) % {"name": reg.person.name, "start": sanction.starts_on.isoformat()}
                raise UserError(f"{message} {sanction_summary(sanction)}")
        before = {"status": reg.status}
        reg.status = status
        loss_round = None
        if status == Registration.Status.DROPPED:
            last = event.rounds.filter(is_final=False).order_by("-number").first()
            reg.dropped_after_round = last.number if last else 0
            if last:
                seat = Seat.objects.filter(round=last, registration=reg).first()
                if seat and seat.vp is None:
                    _mark_loss(seat)
                    loss_round = last.number
        else:
            if (
                reg.status == Registration.Status.CHECKED_IN
                and before["status"] == Registration.Status.DROPPED
            ):
                _undo_drop_loss(reg)
            reg.dropped_after_round = None
        reg.save()
        audit(
            event,
            actor,
            f"player.{status}",
            reg.person.name,
            before,
            {"status": status, "loss_in_round": loss_round},
            comment,
        )
        page_cache.invalidate(event)
    return reg


def _undo_drop_loss(reg: Registration) -> None:
    """Reinstating a dropped player takes back the "Loss" the drop gave in the last round,
    as long as nobody has entered that table's result (a mistaken tap is undone;
    ``Seat.clear_loss``)."""
    last = reg.event.rounds.filter(is_final=False).order_by("-number").first()
    if last is None:
        return
    seat = Seat.objects.filter(round=last, registration=reg, loss=True).first()
    if seat is not None:
        seat.clear_loss()


def _mark_loss(seat: Seat) -> None:
    seat.mark_loss()


# --------------------------------------------------------------------------- seating
def _previous_seatings(event: Event, before_number: int) -> list[seating_rules.Seating]:
    """Seatings (registration ids) of the preliminary rounds before ``before_number``."""
    rows = (
        Seat.objects.filter(
            round__event=event, round__is_final=False, round__number__lt=before_number
        )
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "registration_id")
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for rnd, table, reg in rows:
        rounds.setdefault(rnd, {}).setdefault(table, []).append(reg)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def players_for_round(event: Event, number: int) -> list[int]:
    """Registration ids seated in preliminary round ``number``: checked-in, competing players
    whose first round has come, minus those a staggered plan rests this round (TR §3.1.2)."""
    ids = list(
        event.registrations.filter(
            status=Registration.Status.CHECKED_IN, competing=True, first_round__lte=number
        )
        .order_by("id")
        .values_list("id", flat=True)
    )
    if len(ids) in (6, 7, 11):
        # TR §3.1.2: everyone plays one game fewer than there are rounds.
        try:
            plan = seating_rules.staggered_plan(ids, max(event.total_preliminary_rounds - 1, 1))
        except seating_rules.SeatingError as exc:
            raise UserError(str(exc)) from None
        if number > len(plan):
            raise UserError(
                _("The staggered plan for %(n)s players has only %(r)s rounds.")
                % {"n": len(ids), "r": len(plan)}
            )
        ids = list(plan[number - 1])
    return ids


def seat_next_round(event: Event, actor=None, *, seed: int | None = None) -> Round:
    """Seat the next preliminary round (TR §3.1.2): tables of 5 and 4, no predator→prey
    pair repeated, the soft criteria of ``docs/rules-vekn.md`` "Seating" minimised.

    ``UserError`` when the previous round is not finished, all preliminary rounds are
    seated, or there are too few players.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        rounds = list(event.rounds.order_by("number"))
        if any(r.is_final for r in rounds):
            raise UserError(_("The final has already been created."))
        if len(rounds) >= event.total_preliminary_rounds:
            raise UserError(_("All preliminary rounds are seated."))
        if rounds and not round_complete(rounds[-1]):
            raise UserError(
                _("Enter every result of round %(n)s first.") % {"n": rounds[-1].number}
            )
        refuse_blocked_players(event)
        number = len(rounds) + 1
        players = players_for_round(event, number)
        if len(players) < 4:
            raise UserError(_("At least 4 checked-in players are needed to seat a round."))
        if not event.has_final and len(players) >= 8:
            raise UserError(
                _(
                    "Only events of fewer than 8 players may play without a final (TR §3.1.6): "
                    "%(n)s players would be seated. Change the final in the settings, or "
                    "check fewer players in."
                )
                % {"n": len(players)}
            )
        previous = _previous_seatings(event, number)
        try:
            seating = seating_rules.seat_round(previous, players, seed=seed)
        except seating_rules.SeatingError as exc:
            raise UserError(str(exc)) from None
        rnd = Round.objects.create(event=event, number=number)
        _save_seating(rnd, seating)
        audit(event, actor, "round.seat", str(rnd), after={"tables": seating, "seed": seed})
        page_cache.invalidate(event)
    return rnd


def _save_seating(rnd: Round, seating: Sequence[Sequence[int]]) -> None:
    tables = Table.objects.bulk_create(
        [Table(round=rnd, number=i) for i in range(1, len(seating) + 1)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, round=rnd, registration_id=reg, position=pos)
            for table, players in zip(tables, seating, strict=True)
            for pos, reg in enumerate(players, start=1)
        ]
    )


def round_seating(rnd: Round) -> list[list[int]]:
    """The round's tables as lists of registration ids in seat order."""
    tables: dict[int, list[int]] = {}
    for table, reg in (
        Seat.objects.filter(round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "registration_id")
    ):
        tables.setdefault(table, []).append(reg)
    return list(tables.values())


def _round_has_results(rnd: Round) -> bool:
    return Seat.objects.filter(round=rnd, vp__isnull=False, loss=False).exists()


def reseat_round(rnd: Round, actor=None, *, seed: int | None = None) -> Round:
    """Seat a round again from scratch; only while no result of it is entered."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
        if rnd.is_final:
            raise UserError(_("The final is seated by its ritual."))
        if _round_has_results(rnd):
            raise UserError(_("Results of this round are entered: it cannot be seated again."))
        if rnd.event.rounds.filter(number__gt=rnd.number).exists():
            raise UserError(_("Only the last round can be seated again."))
        refuse_blocked_players(rnd.event)
        before = round_seating(rnd)
        players = players_for_round(rnd.event, rnd.number)
        previous = _previous_seatings(rnd.event, rnd.number)
        try:
            seating = seating_rules.seat_round(previous, players, seed=seed)
        except seating_rules.SeatingError as exc:
            raise UserError(str(exc)) from None
        Seat.objects.filter(round=rnd).delete()
        Table.objects.filter(round=rnd).delete()
        _save_seating(rnd, seating)
        audit(rnd.event, actor, "round.reseat", str(rnd), {"tables": before}, {"tables": seating})
        page_cache.invalidate(rnd.event)
    return rnd


def swap_seats(rnd: Round, reg_a: int, reg_b: int, actor=None) -> None:
    """Exchange two players' seats by hand (a judge's decision, TR §3.1.2); refused once a
    result is entered at either table."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
        if rnd.is_final:
            raise UserError(_("The final is seated by its ritual."))
        seats = {
            s.registration_id: s
            for s in Seat.objects.select_for_update()
            .select_related("table")
            .filter(round=rnd, registration_id__in=[reg_a, reg_b])
        }
        if reg_a == reg_b or len(seats) != 2:
            raise UserError(_("Choose two different players seated in this round."))
        a, b = seats[reg_a], seats[reg_b]
        if Seat.objects.filter(table__in=[a.table_id, b.table_id], vp__isnull=False).exists():
            raise UserError(_("A result is already entered at one of these tables."))
        before = {"a": [a.table.number, a.position], "b": [b.table.number, b.position]}
        a_table, a_pos, b_table, b_pos = a.table_id, a.position, b.table_id, b.position
        # No result is entered at either table, so re-creating the two seats loses nothing
        # and never trips the (table, position) constraint midway. Each player keeps the
        # time they were first seated in this round (it decides account claims).
        Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        Seat.objects.bulk_create(
            [
                Seat(
                    table_id=b_table,
                    round=rnd,
                    registration_id=reg_a,
                    position=b_pos,
                    created_at=a.created_at,
                ),
                Seat(
                    table_id=a_table,
                    round=rnd,
                    registration_id=reg_b,
                    position=a_pos,
                    created_at=b.created_at,
                ),
            ]
        )
        Table.objects.filter(pk__in=[a_table, b_table]).update(version=F("version") + 1)
        audit(
            rnd.event,
            actor,
            "round.swap",
            str(rnd),
            before,
            {"a": [b.table.number, b_pos], "b": [a.table.number, a_pos], "players": [reg_a, reg_b]},
        )
        page_cache.invalidate(rnd.event)


@dataclass(frozen=True)
class NamedPlayer:
    """A registration id that prints as the player's name, so the seating rules'
    violation texts name people (equality and hash are the id's)."""

    id: int
    name: str = field(compare=False)

    def __str__(self):
        return self.name


def seating_score(rnd: Round) -> seating_rules.SeatingScore:
    """The official criteria (``docs/rules-vekn.md`` "Seating") measured over the preliminary rounds up to
    ``rnd``; violation texts name the players. Three queries."""
    rounds = _previous_seatings(rnd.event, rnd.number) + [round_seating(rnd)]
    ids = {p for seating in rounds for table in seating for p in table}
    names = dict(Registration.objects.filter(id__in=ids).values_list("id", "person__name"))
    named = [
        [[NamedPlayer(p, names.get(p, str(p))) for p in table] for table in seating]
        for seating in rounds
    ]
    return seating_rules.score_rounds(named)


def set_seating_published(rnd: Round, published: bool, actor=None) -> None:
    """Publish (or hide) a round's seating or pairing. Publishing it the first time, or
    again after hiding it, notifies its players and the organisation's webhooks
    (``events.notifications.seating_published``: one task after the commit)."""
    with transaction.atomic():
        changed = (
            Round.objects.filter(pk=rnd.pk)
            .exclude(seating_published=published)
            .update(seating_published=published)
        )
        audit(rnd.event, actor, "round.publish" if published else "round.hide", str(rnd))
        page_cache.invalidate(rnd.event)
        if published and changed:
            # The players and the organisation's webhooks, by one task after the commit
            # (docs/notifications.md): the request never waits for a send.
            notifications.seating_published(rnd)


# --------------------------------------------------------------------------- results
def round_complete(rnd: Round) -> bool:
    """True when every seat of the round has its VP entered."""
    return rnd.seats.exists() and not rnd.seats.filter(vp__isnull=True).exists()


def parse_vp(value) -> Decimal | None:
    """Parse one VP entry ('', None → not entered; '1.5' or '1,5' → Decimal). ``UserError``
    for anything else."""
    if value is None:
        return None
    text = str(value).strip().replace(",", ".")
    if text == "":
        return None
    try:
        vp = Decimal(text)
    except InvalidOperation:
        raise UserError(_("“%(v)s” is not a number of victory points.") % {"v": value}) from None
    if not vp.is_finite() or abs(vp.adjusted()) > 6:
        raise UserError(_("“%(v)s” is not a number of victory points.") % {"v": str(value)[:20]})
    return vp


def table_check(vps: Sequence[Decimal | None]) -> vekn.SheetCheck:
    """The sheet check of a table's playing seats (seats with a "Loss" left out: a drop
    after seating, TR §3.1.4, or a disqualification during the game, JG §1.1.4). A table
    of 4 or 5 is checked against the legal sheets (TR §3.7.2; ``docs/rules-vekn.md``
    "Result sheets"); when drops or a disqualification left fewer than 4 players at it,
    only the range of each value is checked **[choice]**, which every legal ending of a
    2- or 3-player game passes (they are not enumerated)."""
    if len(vps) in vekn.TABLE_SIZES:
        return vekn.check_sheet(vps)
    for vp in vps:
        if vp is not None and not (0 <= vp <= len(vps) and (vp * 2) % 1 == 0):
            return vekn.SheetCheck(
                valid=False,
                complete=False,
                reason=_("Each player scores between 0 and %(n)s VP in steps of 0.5.")
                % {"n": len(vps)},
            )
    entered = [v for v in vps if v is not None]
    total = sum(math.ceil(v) for v in entered)
    if total > len(vps):
        return vekn.SheetCheck(
            valid=False,
            complete=False,
            reason=_("These VP add up to more than %(n)s players can score.") % {"n": len(vps)},
        )
    return vekn.SheetCheck(
        valid=True, complete=len(entered) == len(vps) and total == len(vps), reason=None
    )


IRREGULAR_SHEET_HINT = gettext_lazy(
    "If the game really ended so (a card effect, a disqualification during the game), a "
    "judge can accept this sheet with a reason."
)
"""What a scorekeeper without ``override_results`` is told under an irregular sheet: the
judge's override of :func:`save_results` (TR §3.7.2, JG §1.1.4)."""


@dataclass(frozen=True)
class ResultOutcome:
    check: vekn.SheetCheck
    version: int
    overridden: bool


def result_lock(table: Table, *, may_override: bool) -> str | None:
    """Why the sheet of ``table`` (its round and event loaded) cannot be changed by this
    caller, or ``None`` when it can: the event's results are approved (JG §1.2.5), the
    final has started (preliminary sheets chose the finalists, TR §3.1), or the next round
    is seated and ``may_override`` (a judge, ``override_results``) is false. At most two
    queries. :func:`save_results` refuses with this message; the result page shows the
    sheet read-only with it (docs/rules-vekn.md "Seating")."""
    rnd, event = table.round, table.round.event
    if event.results_approved:
        return _("The event's results are approved and locked.")
    if not rnd.is_final and event.rounds.filter(is_final=True).exists():
        return _(
            "The final has started: preliminary results are locked, since they chose "
            "the finalists (TR §3.1). Record a standings adjustment instead if needed."
        )
    if (
        not rnd.is_final
        and not may_override
        and event.rounds.filter(number__gt=rnd.number).exists()
    ):
        return _("The next round is seated: only a judge can correct this table.")
    return None


def save_results(
    table: Table,
    vps: Sequence[Decimal | None],
    *,
    version: int,
    actor=None,
    override_reason: str = "",
    may_override: bool = False,
    comment: str = "",
) -> ResultOutcome:
    """Save the VP of a table (seat order), as one transaction.

    The sheet is validated (TR §3.7.2; ``docs/rules-vekn.md`` "Result sheets"); an impossible complete sheet is
    refused unless ``may_override`` and a non-empty ``override_reason`` are given (card
    effects, mid-game disqualification). "Loss" seats keep 0 VP and are left out of the
    check. ``version`` is the table version the form was loaded with: if somebody saved
    in between, ``ConflictError`` is raised and nothing is saved. Results of a round are
    locked once the next round is seated or the event's results are approved. A save
    closes the table's open players' report as ``judged`` (``events.report_locks``: the
    judge's entry wins); ``comment`` goes to the audit entry (a report that stood says
    so).
    """
    override_reason = check_free_text(
        override_reason, field_label(Table, "override_reason"), field="override_reason"
    ).strip()
    with transaction.atomic():
        # FOR NO KEY UPDATE of the table, its round and the event: saves (and anything else
        # locking or updating them) still queue one behind the other, but a judge's penalty
        # or an audit row inserted meanwhile (their foreign keys take FOR KEY SHARE locks on
        # the same rows) no longer conflicts. With FOR UPDATE the two could deadlock
        # (make bench-load saw it: one save answered 500).
        table = (
            Table.objects.select_for_update(no_key=True)
            .select_related("round__event")
            .get(pk=table.pk)
        )
        event = table.round.event
        if table.version != version:
            last = (
                AuditLog.objects.filter(
                    event=event, action="result.save", target=_table_target(table)
                )
                .select_related("actor")
                .first()
            )
            stored = [s.vp for s in table.seats.order_by("position")]
            wanted = [None if vp is None else vp.quantize(TENTH) for vp in vps]
            if own_repeat(table.version, version, last, actor) and stored == wanted:
                # The same person sent the same sheet twice (a double tap, a retry):
                # it is saved once, and the second send is answered as the first.
                return ResultOutcome(
                    check=table_check(wanted),
                    version=table.version,
                    overridden=bool(table.override_reason),
                )
            who = last.actor.get_username() if last and last.actor else _("someone")
            raise ConflictError(
                _(
                    "%(who)s saved this table while you were typing. Nothing of yours was "
                    "saved: check the values now shown and enter your change again."
                )
                % {"who": who}
            )
        if (locked := result_lock(table, may_override=may_override)) is not None:
            raise UserError(locked)
        seats = list(table.seats.select_for_update().order_by("position"))
        if len(vps) != len(seats):
            raise UserError(_("Enter one value per seat (%(n)s seats).") % {"n": len(seats)})
        checked = [vp for seat, vp in zip(seats, vps, strict=True) if not seat.loss]
        check = table_check(checked)
        overridden = False
        if not check.valid:
            if not (may_override and override_reason):
                message = check.reason or _("This sheet is not a legal game result.")
                if not may_override:
                    stop = "" if str(message).endswith((".", "?", "!")) else "."
                    message = f"{message}{stop} {IRREGULAR_SHEET_HINT}"
                raise UserError(message)
            overridden = True
        for vp in vps:
            if vp is not None and (vp < 0 or vp > 5 or (vp * 2) % 1):
                raise UserError(_("Each seat scores between 0 and 5 VP in steps of 0.5."))
        before = {"vp": [_dec(s.vp) for s in seats], "override": table.override_reason}
        for seat, vp in zip(seats, vps, strict=True):
            seat.vp = Decimal("0.0") if seat.loss else (None if vp is None else vp.quantize(TENTH))
        Seat.objects.bulk_update(seats, ["vp"])
        table.override_reason = override_reason if overridden else ""
        table.version += 1
        table.save(update_fields=["override_reason", "version", "updated_at"])
        audit(
            event,
            actor,
            "result.save",
            _table_target(table),
            before,
            {"vp": [_dec(s.vp) for s in seats], "override": table.override_reason},
            comment=override_reason if overridden else comment,
        )
        report_locks.close_for_judge(table, actor)
        page_cache.invalidate(event, seating=False)  # VP only: the seating page shows none
    return ResultOutcome(check=check, version=table.version, overridden=overridden)


def _table_target(table: Table) -> str:
    rnd = table.round
    return f"{'final' if rnd.is_final else f'round {rnd.number}'} table {table.number}"


def _dec(value):
    return None if value is None else f"{value:.1f}"


# --------------------------------------------------------------------------- toss & final
def record_toss(event: Event, ordered_ids: Sequence[int], actor=None) -> None:
    """Record the random toss that breaks ties touching the top 5 (TR §3.1): ``ordered_ids``
    best first. Replaces an earlier toss of the same players; others keep theirs.

    :class:`UserError` once the final or a top cut (Mitos y Leyendas: the seeds are fixed
    when the top cut starts, docs/rules-myl.md) has started, or if ``ordered_ids`` are not two or
    more players of this event."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.rounds.filter(is_top_cut=True).exists():
            raise UserError(_("The top cut has started: the toss can no longer change."))
        regs = {r.id: r for r in event.registrations.filter(id__in=ordered_ids)}
        if len(regs) != len(ordered_ids) or len(ordered_ids) < 2:
            # A player named twice is not an order either.
            raise UserError(_("A toss must order two or more players of this event."))
        if event.rounds.filter(is_final=True).exists():
            raise UserError(_("The final has started: the toss can no longer change."))
        current = list(
            event.registrations.filter(toss_position__isnull=False)
            .exclude(id__in=ordered_ids)
            .order_by("toss_position")
            .values_list("id", flat=True)
        )
        before = list(
            event.registrations.filter(toss_position__isnull=False)
            .order_by("toss_position")
            .values_list("code", flat=True)
        )
        new_order = current + list(ordered_ids)
        event.registrations.update(toss_position=None)
        for pos, rid in enumerate(new_order, start=1):
            Registration.objects.filter(pk=rid).update(toss_position=pos)
        after = [regs[r].code if r in regs else r for r in new_order]
        audit(event, actor, "standings.toss", event.slug, {"toss": before}, {"toss": after})
        page_cache.invalidate(event, seating=False)  # the toss shows in the standings only


def random_toss(event: Event, ids: Sequence[int], actor=None, *, rng: random.Random | None = None):
    """Draw a random order for ``ids`` with the system's random source and record it."""
    order = list(ids)
    (rng or random.SystemRandom()).shuffle(order)
    record_toss(event, order, actor)
    return order


def start_final(event: Event, actor=None) -> Round:
    """Create the final once every preliminary result is in and the finalists are known
    (TR §3.1, §3.1.3). Its seating is then made by the ritual (``place_final_card``)."""

    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        if not event.has_final:
            raise UserError(_("This event has no final."))
        rounds = list(event.rounds.order_by("number"))
        if any(r.is_final for r in rounds):
            raise UserError(_("The final has already been created."))
        if len(rounds) < event.total_preliminary_rounds:
            raise UserError(_("Play every preliminary round first."))
        if not all(round_complete(r) for r in rounds):
            raise UserError(_("Enter every preliminary result first."))
        result = event_standings(event)
        if result.standings.toss_required:
            raise UserError(_("Ties for the top 5 need a toss first."))
        if len(result.standings.finalists) < 2:
            raise UserError(_("Not enough finalists."))
        rnd = Round.objects.create(
            event=event,
            number=len(rounds) + 1,
            is_final=True,
            finalists=list(result.standings.finalists),
        )
        audit(
            event,
            actor,
            "final.create",
            str(rnd),
            after={"finalists": [result.code(f) for f in result.standings.finalists]},
        )
        page_cache.invalidate(event)
    return rnd


def place_final_card(final: Round, reg_id: int, position: int, actor=None) -> list[int]:
    """One step of the final seating ritual (TR §3.1.3): the next finalist, lowest qualifier
    first, places their card at ``position`` (0 = left end … len(row) = right end). When the
    last card is placed the final table is created in the row's order. Returns the row."""

    with transaction.atomic():
        final = Round.objects.select_for_update().select_related("event").get(pk=final.pk)
        if final.event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        if not final.is_final:
            raise UserError(_("The ritual seats the final only."))
        if final.tables.exists():
            raise UserError(_("The final is already seated."))
        # Finalists and seeds are fixed when the final starts (a later penalty cannot
        # change who sits at the final or the order of the ritual).
        order = vekn.ritual_order(final.finalists)
        steps = list(final.ritual)
        if len(steps) >= len(order):
            raise UserError(_("Every finalist has placed their card."))
        expected = order[len(steps)]
        if reg_id != expected:
            raise UserError(_("It is another finalist's turn to place their card."))
        row: tuple = ()
        for step_reg, step_pos in steps:
            row = vekn.place_card(row, step_reg, step_pos)
        try:
            row = vekn.place_card(row, reg_id, position)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        steps.append([reg_id, position])
        final.ritual = steps
        final.save(update_fields=["ritual"])
        audit(
            final.event,
            actor,
            "final.ritual",
            str(final),
            after={"step": len(steps), "row": list(row)},
        )
        if len(steps) == len(order):
            _save_seating(final, [list(row)])
            audit(final.event, actor, "final.seated", str(final), after={"row": list(row)})
        page_cache.invalidate(final.event)
    return list(row)


def undo_final_card(final: Round, actor=None) -> None:
    """Take back the last ritual step (a misclick), while the final is not seated."""
    with transaction.atomic():
        final = Round.objects.select_for_update().select_related("event").get(pk=final.pk)
        if final.event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        if final.tables.exists() or not final.ritual:
            raise UserError(_("There is no step to take back."))
        step = final.ritual.pop()
        final.save(update_fields=["ritual"])
        audit(final.event, actor, "final.ritual_undo", str(final), before={"step": step})
        page_cache.invalidate(final.event)


def set_first_player(final: Round, reg_id: int, actor=None) -> None:
    """Record who plays first in the final (drawn by the judge, TR §3.1.3): the row is
    rotated so that player holds seat 1; predator/prey order is unchanged."""
    with transaction.atomic():
        final = Round.objects.select_for_update().select_related("event").get(pk=final.pk)
        if final.event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        table = final.tables.select_for_update().first()
        if table is None:
            raise UserError(_("Finish the seating ritual first."))
        if Seat.objects.filter(table=table, vp__isnull=False).exists():
            raise UserError(_("The final's result is entered: seats can no longer change."))
        seats = list(table.seats.order_by("position"))
        ids = [s.registration_id for s in seats]
        if reg_id not in ids:
            raise UserError(_("That player is not in the final."))
        k = ids.index(reg_id)
        rotated = ids[k:] + ids[:k]
        table.seats.all().delete()
        Seat.objects.bulk_create(
            [
                Seat(table=table, round=final, registration_id=r, position=i)
                for i, r in enumerate(rotated, start=1)
            ]
        )
        Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
        Round.objects.filter(pk=final.pk).update(first_player_drawn_at=timezone.now())
        audit(final.event, actor, "final.first_player", str(final), {"row": ids}, {"row": rotated})
        page_cache.invalidate(final.event)


def draw_first_player(final: Round, actor=None, *, rng: random.Random | None = None) -> int:
    """Draw at random who plays first in the final (TR §3.1.3) and record it."""
    ids = list(Seat.objects.filter(round=final).values_list("registration_id", flat=True))
    if not ids:
        raise UserError(_("Finish the seating ritual first."))
    if Round.objects.filter(pk=final.pk, first_player_drawn_at__isnull=False).exists():
        raise UserError(_("Who plays first has already been drawn."))
    chosen = (rng or random.SystemRandom()).choice(ids)
    set_first_player(final, chosen, actor)
    return chosen


def set_standings_published(event: Event, published: bool, actor=None) -> None:
    with transaction.atomic():
        Event.objects.filter(pk=event.pk).update(standings_published=published)
        audit(event, actor, "standings.publish" if published else "standings.hide", event.slug)
        page_cache.invalidate(event)


# --------------------------------------------------------------------------- queries
def round_overview(rnd: Round) -> list[dict]:
    """Tables of a round for display, in two queries: number, version, override, seats
    (position, registration, person name, vp, loss), the sheet check, the minutes of time
    extension (JG §1.2.4), the end time once the round's clock has started and the table's
    ``events.round_clock.Clock`` (time left with its extensions and the round's pauses)."""
    tables = list(rnd.tables.annotate(extension=Sum("extensions__minutes")).order_by("number"))
    timing, now = rnd.timing(), timezone.now()
    seats = (
        Seat.objects.filter(round=rnd)
        .select_related("registration__person")
        .order_by("table__number", "position")
    )
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    out = []
    for table in tables:
        table_seats = by_table.get(table.id, [])
        check = table_check([s.vp for s in table_seats if not s.loss])
        extension = table.extension or 0
        out.append(
            {
                "table": table,
                "seats": table_seats,
                "check": check,
                "extension": extension,
                "end": round_clock.end_time(timing, now, extension),
                "clock": round_clock.clock(timing, now, extension),
            }
        )
    return out


def staff_events_for(user):
    """Events where ``user`` holds a staff role (directly or through the organisation)."""
    if not user.is_authenticated:
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(Q(roles__user=user) | Q(organisation__roles__user=user)).distinct()


def organisations_run_by(user):
    """Organisations where ``user`` may create events (organiser role, or superuser)."""

    if not user.is_authenticated:
        return Organisation.objects.none()
    if user.is_superuser:
        return Organisation.objects.all()
    return Organisation.objects.filter(roles__user=user, roles__role=Role.ORGANISER).distinct()


def events_with_counts():
    """Every event, annotated with ``players``: its registered players
    (``events.headcount.with_registered_players``, the count its own pages show)."""
    return headcount.with_registered_players(Event.objects.all())
