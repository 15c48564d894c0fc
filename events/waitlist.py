"""An event's capacity and its waitlist (event-day services; docs/players.md "The
waitlist").

A place is taken by every competing registration still in the event (registered or
checked in, ``PlayerCounts.still_in``); dropped and disqualified players, and
non-competing people, take none. Beyond the capacity a player joins the waitlist
(``events.models.WaitlistEntry``). When a place frees — a player unregisters, an
organiser removes a registration, the capacity is raised — the first waiting people
become registrations, in the order they joined, in the transaction that freed it and
under the event's row lock (``select_for_update``; SQLite takes the write lock at the
start of each transaction), so two players never take one last place. The waitlist
stops moving once round 1 is seated **[choice]**: a player who joins later is a late
arrival, which only a judge decides (TR §3.3.1). Every change is audited.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from events import cache as page_cache
from events.audit import audit
from events.errors import UserError
from events.models import Event, Person, Registration, WaitlistEntry
from events.sanctions import blocking_sanction
from events.services import register

JOINED = "player.waitlist_join"
LEFT = "player.waitlist_leave"
MOVED_UP = "player.waitlist_moved_up"
SKIPPED = "player.waitlist_skipped"

IN_THE_EVENT = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)


def lock_event(event: Event) -> Event:
    """``event`` read again under a row lock (the caller's transaction)."""
    return Event.objects.select_for_update().get(pk=event.pk)


def places_taken(event: Event) -> int:
    """The competing registrations still in ``event`` (registered or checked in). One
    query."""
    return event.registrations.filter(competing=True, status__in=IN_THE_EVENT).count()


def places_left(event: Event, taken: int | None = None) -> int | None:
    """Free places under ``event.capacity`` (≥ 0), ``None`` without a capacity."""
    if event.capacity is None:
        return None
    taken = places_taken(event) if taken is None else taken
    return max(event.capacity - taken, 0)


def moves(event: Event) -> bool:
    """Whether the waitlist still moves: no round seated yet (the module's [choice])."""
    return not event.rounds.exists()


def join(event: Event, person: Person, actor=None) -> WaitlistEntry:
    """Put ``person`` at the end of ``event``'s waitlist; the entry they have if they are
    on it already (a second tap changes nothing). ``UserError`` when they are registered,
    or a suspension or ban keeps them out of the event. Call it with the event locked
    (:func:`lock_event`). Audited (``player.waitlist_join``)."""
    with transaction.atomic():
        entry = WaitlistEntry.objects.filter(event=event, person=person).first()
        if entry is not None:
            return entry
        if event.registrations.filter(person=person).exists():
            raise UserError(_("%(name)s is already registered.") % {"name": person.name})
        if blocking_sanction(person, event) is not None:
            raise UserError(
                _("A suspension or ban keeps you out of this event: ask the organiser.")
            )
        entry = WaitlistEntry.objects.create(event=event, person=person)
        audit(
            event,
            actor,
            JOINED,
            person.name,
            after={"position": position(entry)},
            about=entry,
        )
        page_cache.invalidate(event, seating=False)
    return entry


def leave(event: Event, person: Person, actor=None) -> bool:
    """Take ``person`` off ``event``'s waitlist; ``False`` if they were not on it.
    Audited (``player.waitlist_leave``)."""
    with transaction.atomic():
        entry = WaitlistEntry.objects.select_for_update().filter(event=event, person=person).first()
        if entry is None:
            return False
        audit(event, actor, LEFT, person.name, before={"position": position(entry)}, about=entry)
        entry.delete()
        page_cache.invalidate(event, seating=False)
    return True


def position(entry: WaitlistEntry) -> int:
    """``entry``'s place in its waitlist, 1 = next to move up. One query."""
    earlier = Q(created_at__lt=entry.created_at) | Q(created_at=entry.created_at, id__lt=entry.pk)
    return WaitlistEntry.objects.filter(earlier, event_id=entry.event_id).count() + 1


def move_up(event: Event, actor=None) -> list[Registration]:
    """Register the first people of ``event``'s waitlist while places are free (all of
    them without a capacity), in the order they joined; the registrations made. Nothing
    once a round is seated (:func:`moves`). A person whom a suspension or ban now keeps
    out is taken off the list instead (``player.waitlist_skipped``). Must run inside the
    transaction that freed the place, with the event locked (:func:`lock_event`).
    Audited (``player.waitlist_moved_up``, about the new registration)."""
    made: list[Registration] = []
    if not moves(event):
        return made
    taken = places_taken(event)
    while event.capacity is None or taken < event.capacity:
        entry = (
            WaitlistEntry.objects.select_for_update()
            .filter(event=event)
            .select_related("person")
            .order_by("created_at", "id")
            .first()
        )
        if entry is None:
            break
        person = entry.person
        entry.delete()
        try:
            reg = register(event, person, actor)
        except UserError as exc:
            audit(event, actor, SKIPPED, person.name, comment=str(exc)[:500])
            continue
        audit(event, actor, MOVED_UP, person.name, after={"code": reg.code}, about=reg)
        made.append(reg)
        taken += 1
    return made
