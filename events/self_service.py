"""What a signed-in player does for themselves on event day, from their phone
(event-day services; docs/players.md): registering for an event the organiser opened
(or joining its waitlist) and unregistering, checking in by the QR code shown at the
venue, dropping between rounds, and their seat or match in the current round.

The player is the signed-in account's person record (``Person.user``,
``events.people``): an account not linked to one yet (a claim on a number waiting for
an organiser) cannot register itself. Each change runs in one transaction under the
event's or the registration's row lock, is audited with the player as the actor, and
repeating it (a double tap, a reload) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import round_clock, rulesets, services, waitlist
from events.audit import audit
from events.errors import UserError
from events.models import Event, Person, Registration, Round, Seat, WaitlistEntry
from events.roster import removal_refusal
from penalties.time_extensions import table_extension_minutes

UNREGISTER = "player.unregister"
CHECK_IN_PROOF = timedelta(minutes=10)
"""How long after scanning a valid code a player who had to sign in first may still be
checked in by it (``check_in_by_code``'s ``seen_at``)."""

REGISTERED = "registered"
WAITLISTED = "waitlisted"


def person_of(user) -> Person | None:
    """The person record linked to ``user`` (``None`` for an anonymous user or an
    account not linked yet). One query."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Person.objects.filter(user=user).first()


def _person_or_error(user) -> Person:
    person = person_of(user)
    if person is None:
        raise UserError(
            _(
                "Your account is not linked to a player record yet: an organiser confirms "
                "your player number first (see My page)."
            )
        )
    return person


# --------------------------------------------------------------------------- registering
def closed_reason(event: Event, now: datetime | None = None) -> str:
    """Why players cannot register themselves for ``event`` now (``""``: they can): the
    organiser has not opened it, its closing time has passed, a round is seated (a late
    arrival is a judge's decision, TR §3.3.1) or the results are approved. One query
    (whether a round exists)."""
    now = now or timezone.now()
    if not event.self_registration:
        return _("The organiser registers the players of this event.")
    if event.results_approved:
        return _("The event's results are approved.")
    if event.registration_closes_at is not None and now >= event.registration_closes_at:
        return _("Registration is closed.")
    if event.rounds.exists():
        return _(
            "Round 1 is seated: to join as a late arrival, ask a judge at the venue (TR §3.3.1)."
        )
    return ""


def self_register(event: Event, user, now: datetime | None = None) -> tuple[str, object]:
    """Register the signed-in ``user``'s person in ``event``, or put them on its waitlist
    when the event is full (or others are waiting): ``("registered", Registration)`` or
    ``("waitlisted", WaitlistEntry)``. Already registered or waiting: what they have,
    unchanged. Under the event's row lock, so two players never take the last place.
    ``UserError`` when the account has no person record, registration is closed
    (:func:`closed_reason`) or a sanction keeps them out. Audited
    (``player.register`` or ``player.waitlist_join``, by the player)."""
    person = _person_or_error(user)
    with transaction.atomic():
        event = waitlist.lock_event(event)
        reg = Registration.objects.filter(event=event, person=person).first()
        if reg is not None:
            return REGISTERED, reg
        entry = WaitlistEntry.objects.filter(event=event, person=person).first()
        if entry is not None:
            return WAITLISTED, entry
        if reason := closed_reason(event, now):
            raise UserError(reason)
        left = waitlist.places_left(event)
        if left is None or (left > 0 and not event.waitlist.exists()):
            return REGISTERED, services.register(event, person, user)
        return WAITLISTED, waitlist.join(event, person, user)


def self_unregister(event: Event, user) -> str:
    """Take the signed-in ``user``'s person out of ``event`` before round 1: their
    registration is deleted (the first player waiting takes the place,
    ``events.waitlist.move_up``), or they leave the waitlist. Returns ``"unregistered"``,
    ``"left_waitlist"`` or ``""`` (nothing to undo: a second tap). ``UserError`` once a
    round is seated (drop instead) or when the registration has a penalty or a toss
    (``events.roster.removal_refusal``). Audited (``player.unregister``)."""
    person = person_of(user)
    if person is None:
        return ""
    with transaction.atomic():
        event = waitlist.lock_event(event)
        reg = Registration.objects.select_for_update().filter(event=event, person=person).first()
        if reg is None:
            return "left_waitlist" if waitlist.leave(event, person, user) else ""
        if event.results_approved:
            raise UserError(_("The event's results are approved."))
        if event.rounds.exists():
            raise UserError(
                _("Round 1 is seated: you can no longer unregister. Drop between rounds instead.")
            )
        if reason := removal_refusal(reg):
            raise UserError(reason)
        audit(
            event,
            user,
            UNREGISTER,
            person.name,
            before={"code": reg.code, "status": reg.status},
            about=reg,
        )
        reg.delete()
        waitlist.move_up(event, user)
        page_cache.invalidate(event)
    return "unregistered"


def update_registration_settings(event: Event, actor, **fields) -> list[Registration]:
    """Change ``event``'s self-registration settings (``self_registration``,
    ``capacity``, ``registration_closes_at``) through ``events.services.update_event``
    (audited ``event.update``; ``UserError`` once the results are approved), under the
    event's lock; a higher capacity (or none) lets the waitlist move up at once. Returns
    the registrations it made."""
    allowed = {"self_registration", "capacity", "registration_closes_at"}
    if set(fields) - allowed:
        raise ValueError(f"not a registration setting: {sorted(set(fields) - allowed)}")
    with transaction.atomic():
        event = waitlist.lock_event(event)
        if fields:
            services.update_event(event, actor, **fields)
        return waitlist.move_up(event, actor)


# --------------------------------------------------------------------------- check in
def check_in_by_code(event: Event, user, *, seen_at: datetime, now: datetime | None = None):
    """Check in the signed-in ``user``'s registration in ``event`` because they scanned
    the venue's QR code (``events.check_in_tokens``) at ``seen_at`` — now, or before they
    signed in, at most :data:`CHECK_IN_PROOF` ago. Already checked in: the registration,
    unchanged. ``UserError`` for an old scan, an account without a person record, a
    person not registered (on the waitlist or not at all), dropped, disqualified or kept
    out by a sanction. Audited (``player.checked_in``, comment "QR code")."""
    now = now or timezone.now()
    if now - seen_at > CHECK_IN_PROOF:
        raise UserError(_("This code is too old: scan the code shown at the venue again."))
    person = _person_or_error(user)
    with transaction.atomic():
        reg = Registration.objects.select_for_update().filter(event=event, person=person).first()
        if reg is None:
            if WaitlistEntry.objects.filter(event=event, person=person).exists():
                raise UserError(_("You are on the waitlist, not registered: ask the organiser."))
            raise UserError(_("You are not registered in this event: ask a judge."))
        if reg.status == Registration.Status.CHECKED_IN:
            return reg
        if not reg.active or not reg.competing:
            raise UserError(_("You are no longer playing in this event: ask a judge."))
        return services.set_status(reg, Registration.Status.CHECKED_IN, user, comment="QR code")


# --------------------------------------------------------------------------- drop
def _has_result(seat: Seat) -> bool:
    """Whether ``seat``'s result is in (VP, games won or a Loss): its game is over."""
    return seat.loss or seat.vp is not None or seat.games_won is not None


def drop_refusal(reg: Registration) -> str:
    """Why the player of ``reg`` cannot drop themselves now (``""``: they can). Only
    between rounds: not before round 1 (unregister instead), not once the final or the
    top cut is seated, not while they are seated in the latest round and its result is
    not in — a judge drops them then, and the
    ruleset says what it costs (TR §3.1.4, §3.3.2; MyL conduct rules §3.2.5). Two
    queries."""
    event = reg.event
    if not reg.active:
        return _("You are no longer playing in this event.")
    if event.results_approved:
        return _("The event's results are approved.")
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return _("No round is seated yet: unregister instead.")
    if latest.is_final or latest.is_top_cut:
        # The preliminary rounds are over (VEKN TR §3.1.4 drops between rounds; MyL: the
        # top cut): dropping now would only rewrite the standings already played.
        return _("The preliminary rounds are over: there is no round left to drop from.")
    seat = Seat.objects.filter(round=latest, registration=reg).first()
    if seat is not None and not _has_result(seat):
        return _(
            "You are seated in %(round)s and its result is not in: ask a judge to drop you."
        ) % {"round": rulesets.round_label(latest, event=event)}
    return ""


def drop_consequences(event: Event) -> list[str]:
    """What dropping means, for the player's confirmation page: the ruleset's words
    (``RulesetSpec.drop_consequence``, ``drop_deadline``; VEKN: TR §3.1.4)."""
    spec = rulesets.of(event)
    return [
        str(spec.drop_consequence),
        str(spec.drop_deadline),
        _("You cannot undo it yourself: only a judge can put you back in the event."),
    ]


def self_drop(event: Event, user) -> Registration:
    """Drop the signed-in ``user``'s registration in ``event`` between rounds
    (:func:`drop_refusal`, checked again under the event's lock, so a round seated
    meanwhile is seen). Already dropped: the registration, unchanged. ``UserError`` when
    they may not. Audited (``player.dropped``, comment "by the player")."""
    person = _person_or_error(user)
    with transaction.atomic():
        event = waitlist.lock_event(event)
        reg = (
            Registration.objects.select_for_update()
            .select_related("event")
            .filter(event=event, person=person)
            .first()
        )
        if reg is None:
            raise UserError(_("You are not registered in this event."))
        if reg.status == Registration.Status.DROPPED:
            return reg
        if reason := drop_refusal(reg):
            raise UserError(reason)
        return services.set_status(reg, Registration.Status.DROPPED, user, comment="by the player")


# --------------------------------------------------------------------------- my seat
@dataclass(frozen=True)
class Neighbour:
    """Another player at the table: ``position`` (seat 1–5) and ``name``."""

    position: int
    name: str


@dataclass(frozen=True)
class MySeat:
    """The player's place in the current round, for their own page.

    ``state``: ``"no_round"`` (nothing seated yet), ``"waiting"`` (the latest round is
    seated but not published), ``"seated"``, ``"not_seated"`` (published without them:
    late, resting, dropped); ``round_label`` (the round's name, ``""`` before one);
    ``table`` and ``position`` (their table number and seat, when seated); ``others``
    (the other players at the table in seat order: VEKN the table, MyL the opponent);
    ``bye`` (a MyL bye); ``clock`` (the table's ``events.round_clock.Clock``, with its
    time extensions, JG §1.2.4); ``table_id`` (the table's key, for its judge call)."""

    state: str
    round_label: str = ""
    table: int | None = None
    position: int | None = None
    others: list[Neighbour] = field(default_factory=list)
    bye: bool = False
    clock: round_clock.Clock | None = None
    table_id: int | None = None


def my_seat(reg: Registration, now: datetime | None = None) -> MySeat:
    """Where ``reg`` (with its event loaded) sits in the event's latest round, if it is
    published (``Round.seating_published``, as the public seating page). At most four
    queries: the latest round, the seat, the table's players, its time extensions."""
    event = reg.event
    now = now or timezone.now()
    latest: Round | None = event.rounds.order_by("-number").first()
    if latest is None:
        return MySeat("no_round")
    latest.event = event
    label = rulesets.round_label(latest, event=event)
    if not latest.seating_published:
        return MySeat("waiting", label)
    seat = Seat.objects.filter(round=latest, registration=reg).select_related("table").first()
    if seat is None:
        return MySeat("not_seated", label)
    mates = (
        Seat.objects.filter(table_id=seat.table_id)
        .exclude(pk=seat.pk)
        .select_related("registration__person")
        .order_by("position")
    )
    others = [Neighbour(s.position, s.registration.person.name) for s in mates]
    clock = round_clock.clock(latest.timing(), now, table_extension_minutes(seat.table))
    return MySeat(
        "seated",
        label,
        table=seat.table.number,
        position=seat.position,
        others=others,
        bye=seat.table.is_bye,
        clock=clock,
        table_id=seat.table_id,
    )


# --------------------------------------------------------------------------- the event page
@dataclass(frozen=True)
class RegistrationPanel:
    """The registration card of the public event page: ``closed`` (:func:`closed_reason`,
    ``""`` when open), ``capacity``, ``places_left`` (``None`` without a capacity),
    ``waiting`` (people on the waitlist), ``closes_at``; for the signed-in player:
    ``linked`` (their account has a person record), ``registration``,
    ``waitlist_position`` (1 = next), ``can_unregister`` and ``drop_refusal``."""

    closed: str
    capacity: int | None
    places_left: int | None
    waiting: int
    closes_at: datetime | None
    linked: bool = False
    registration: Registration | None = None
    waitlist_position: int | None = None
    can_unregister: bool = False
    drop_refusal: str = ""


def registration_panel(event: Event, user, now: datetime | None = None) -> RegistrationPanel:
    """The :class:`RegistrationPanel` of ``event`` for ``user`` (anonymous: the public
    part only, the same for everyone, so the page can be cached). At most eight
    queries."""
    closed = closed_reason(event, now)
    waiting = event.waitlist.count()
    base = {
        "closed": closed,
        "capacity": event.capacity,
        "places_left": waitlist.places_left(event),
        "waiting": waiting,
        "closes_at": event.registration_closes_at,
    }
    person = person_of(user)
    if person is None:
        return RegistrationPanel(**base)
    reg = Registration.objects.filter(event=event, person=person).select_related("event").first()
    entry = None if reg else WaitlistEntry.objects.filter(event=event, person=person).first()
    return RegistrationPanel(
        **base,
        linked=True,
        registration=reg,
        waitlist_position=waitlist.position(entry) if entry else None,
        can_unregister=entry is not None
        or (reg is not None and not event.rounds.exists() and not removal_refusal(reg)),
        drop_refusal=drop_refusal(reg) if reg is not None else "",
    )
