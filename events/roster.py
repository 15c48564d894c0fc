"""The players of an event, as the organiser keeps them (event-day services; the rules of
lists and names are ``events.player_lists``): correcting a registration, removing one that
has not played, merging two records of one person, adding a whole list at once, checking
everybody in (and undoing it), and the players without a number. Each change runs in one
transaction, locks what two people could change at once and is audited. Rules for
organisers: ``docs/organisers.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import player_lists, rulesets, waitlist
from events.audit import audit
from events.errors import UserError
from events.limits import is_vekn_number
from events.models import AuditLog, Event, Person, Registration, WaitlistEntry
from events.permissions import Permission
from events.player_lists import Candidate, ListError, Outcome, name_key
from events.sanctions import blocking_sanction, list_sanctions
from events.services import register

CHECK_IN_ALL = "player.check_in_all"
UNDO_CHECK_IN_ALL = "player.check_in_all_undone"


# --------------------------------------------------------------------------- who is who
def _known_people(organisation):
    """The people registered in at least one event of ``organisation``."""
    return Person.objects.filter(registrations__event__organisation=organisation).distinct()


def namesakes(name: str, event: Event, *, exclude=()) -> list[Person]:
    """The people the event's organisation has met (registered in one of its events) with
    the same name as ``name`` (:func:`events.player_lists.name_key`), not registered in
    ``event``, nor in ``exclude`` (person ids): who to offer before creating a second
    record. One query."""
    key = name_key(name or "")
    if not key:
        return []
    return [
        p
        for p in _known_people(event.organisation)
        .exclude(registrations__event=event)
        .exclude(pk__in=exclude)
        .order_by("name", "id")
        if name_key(p.name) == key
    ]


def merge_candidates(reg: Registration) -> list[Person]:
    """Who ``reg``'s person could be merged with: the other people of the organisation's
    events, not registered in ``reg``'s event, by name. One query."""
    event = reg.event
    return list(
        _known_people(event.organisation)
        .exclude(registrations__event=event)
        .exclude(pk=reg.person_id)
        .order_by("name", "id")[:2000]
    )


def _only_here(person: Person, organisation) -> bool:
    """Whether ``person``'s whole history (registrations, penalties, sanctions) is in
    ``organisation``'s events: only then may its organisers rewrite it [choice]
    (``docs/organisers.md`` "Who may change a record")."""
    if person.registrations.exclude(event__organisation=organisation).exists():
        return False
    if person.penalties.exclude(event__organisation=organisation).exists():
        return False
    return not person.sanctions.exclude(organisation=organisation).exists()


def _elsewhere_error() -> UserError:
    return UserError(
        _(
            "This player also has a history in another organisation's events: only a "
            "platform administrator can change their record."
        )
    )


# --------------------------------------------------------------------------- one registration
def edit_registration(
    reg: Registration,
    name: str,
    vekn_number: str,
    actor=None,
    *,
    first_name: str = "",
    last_name: str = "",
) -> Person:
    """Correct the name, its first and last names (both ``""``: not given, the VEKN report
    guesses them; given, the name is both together: ``player_lists.person_names``) and
    the VEKN number (``""``: none) of ``reg``'s person.

    ``UserError`` when the name is empty, too long or not its first and last names
    together, the number is not 1 to 20 digits,
    another record holds the number (merge them instead: the message says so without
    naming the holder), or the person has a history in another organisation's events
    (:func:`_only_here`), unless ``actor`` is a platform administrator. Audited
    (``player.edit``, about the registration)."""
    try:
        names = player_lists.person_names(name, first_name, last_name)
    except player_lists.NamesDisagree as exc:
        raise UserError(
            _("The name is the first and last names together (“%(name)s”).")
            % {"name": exc.expected},
            field="name",
        ) from None
    name = names.name
    vekn_number = (vekn_number or "").strip()
    if not name:
        raise UserError(_("Give the player's name."), field="name")
    if len(name) > player_lists.MAX_NAME_LENGTH:
        raise UserError(_("The name is too long."), field="name")
    if vekn_number and not is_vekn_number(vekn_number):
        raise UserError(_("A VEKN number has only digits."), field="vekn_number")
    with transaction.atomic():
        reg = (
            Registration.objects.select_for_update()
            .select_related("event__organisation")
            .get(pk=reg.pk)
        )
        person = Person.objects.select_for_update().get(pk=reg.person_id)
        event = reg.event
        if not getattr(actor, "is_superuser", False) and not _only_here(person, event.organisation):
            raise _elsewhere_error()
        holder = (
            Person.objects.filter(vekn_number=vekn_number).exclude(pk=person.pk).first()
            if vekn_number
            else None
        )
        if holder is not None and _known_people(event.organisation).filter(pk=holder.pk).exists():
            raise UserError(
                _(
                    "Another player record has VEKN number %(n)s. If it is the same person, "
                    "merge the two records below."
                )
                % {"n": vekn_number},
                field="vekn_number",
            )
        if holder is not None:
            # Someone this organisation has not met: nothing here to merge with (their
            # record is another organisation's to keep; docs/organisers.md).
            raise UserError(
                _(
                    "VEKN number %(n)s belongs to a player of another organisation: check "
                    "the number; if it is right, a platform administrator can merge the "
                    "records."
                )
                % {"n": vekn_number},
                field="vekn_number",
            )
        fields = ["name", "first_name", "last_name", "vekn_number"]
        before = {f: getattr(person, f) for f in fields}
        after = {
            "name": name,
            "first_name": names.first,
            "last_name": names.last,
            "vekn_number": vekn_number,
        }
        if before == after:
            return person
        for f in fields:
            setattr(person, f, after[f])
        person.save(update_fields=fields)
        # The parts are logged when they are or were set (else the entry stays as before).
        if not any(before[f] or after[f] for f in ("first_name", "last_name")):
            for side in (before, after):
                del side["first_name"], side["last_name"]
        audit(event, actor, "player.edit", name, before, after, about=reg)
        page_cache.invalidate(event)
    return person


def removal_refusal(reg: Registration) -> str:
    """Why ``reg`` cannot be removed (``""`` if it can): a registration goes only while
    it has no seat in any round (started or not: a seat in a round not started yet is
    given back by dropping the player and seating the round again), no result and no
    penalty [choice] (``docs/organisers.md`` "Removing a registration")."""
    seat = reg.seats.select_related("round").order_by("round__number").first()
    if seat is not None:
        if seat.round.started_at is not None or seat.vp is not None or seat.loss:
            return _("%(name)s has played (%(round)s): drop them instead.") % {
                "name": reg.person.name,
                "round": seat.round,
            }
        return _(
            "%(name)s is seated in %(round)s: drop them and seat that round again, then "
            "remove them."
        ) % {"name": reg.person.name, "round": seat.round}
    if reg.penalties.exists():
        return _("%(name)s has a penalty in this event: drop them instead.") % {
            "name": reg.person.name
        }
    if reg.toss_position is not None:
        return _("%(name)s is in a recorded toss: drop them instead.") % {"name": reg.person.name}
    return ""


def remove_registration(reg: Registration, actor=None) -> None:
    """Delete ``reg`` (a typo, a player who never came), under a lock on the event.
    ``UserError`` with :func:`removal_refusal`'s reason, or when the results are approved.
    The person record stays (it may have other events; one with none is harmless).
    The first player of the waitlist takes the place (``events.waitlist.move_up``).
    Audited (``player.remove``, about the registration)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=reg.event_id)
        reg = Registration.objects.select_for_update().select_related("person").get(pk=reg.pk)
        if event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        if reason := removal_refusal(reg):
            raise UserError(reason)
        audit(
            event,
            actor,
            "player.remove",
            reg.person.name,
            before={
                "code": reg.code,
                "status": reg.status,
                "vekn_number": reg.person.vekn_number,
            },
            about=reg,
        )
        reg.delete()
        # The freed place goes to the first player waiting (docs/players.md "The waitlist").
        waitlist.move_up(event, actor)
        page_cache.invalidate(event)


# --------------------------------------------------------------------------- merging
def _events_of(person: Person) -> set[int]:
    """The ids of the events ``person`` is registered in or waiting for. Two queries."""
    registered = set(Registration.objects.filter(person=person).values_list("event_id", flat=True))
    return registered | set(
        WaitlistEntry.objects.filter(person=person).values_list("event_id", flat=True)
    )


def merge_people(reg: Registration, other_id: int, actor, perms) -> Person:
    """Merge the person with id ``other_id`` into ``reg``'s person (two records of one
    human): every row that points at the other record (registrations, their seats with
    them, penalties, sanctions, account claims, and any later foreign key to ``Person``)
    moves to ``reg``'s person, which takes the other's number and account when it has
    none; the other record is deleted. One transaction, both records locked.

    Only with ``Permission.EDIT_EVENT`` on ``reg``'s event (``PermissionDenied``).
    ``UserError`` when the other record is unknown here (not registered in any event of
    the organisation: the same words whether it exists or not), both are registered in
    one event, both have a different number or an account, or either has a history in
    another organisation's events (:func:`_only_here`) and ``actor`` is not a platform
    administrator [choice] (``docs/organisers.md`` "Merging two records"). Audited
    (``player.merge``, about the registration), with both records as they were."""
    if Permission.EDIT_EVENT not in perms:
        raise PermissionDenied
    with transaction.atomic():
        reg = (
            Registration.objects.select_for_update()
            .select_related("event__organisation")
            .get(pk=reg.pk)
        )
        event = reg.event
        ids = sorted({reg.person_id, int(other_id)})
        locked = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=ids)}
        keep, other = locked.get(reg.person_id), locked.get(int(other_id))
        if (
            other is None
            or other.pk == keep.pk
            or not other.registrations.filter(event__organisation=event.organisation).exists()
        ):
            raise UserError(_("Choose a player of this organisation's events."))
        if not getattr(actor, "is_superuser", False) and not (
            _only_here(keep, event.organisation) and _only_here(other, event.organisation)
        ):
            raise _elsewhere_error()
        # One event each record is in, registered or on the waitlist (docs/players.md
        # "The waitlist"), cannot hold both.
        shared = _events_of(keep) & _events_of(other)
        if shared:
            raise UserError(
                _("Both records are registered in %(event)s: remove one registration first.")
                % {"event": Event.objects.get(pk=min(shared)).name}
            )
        if keep.vekn_number and other.vekn_number and keep.vekn_number != other.vekn_number:
            raise UserError(
                _(
                    "The two records have different VEKN numbers (%(a)s, %(b)s): correct one "
                    "of them first."
                )
                % {"a": keep.vekn_number, "b": other.vekn_number}
            )
        if keep.user_id and other.user_id:
            raise UserError(_("Both records are linked to an account: ask an administrator."))
        before = {
            "kept": {"id": keep.pk, "name": keep.name, "vekn_number": keep.vekn_number},
            "merged": {"id": other.pk, "name": other.name, "vekn_number": other.vekn_number},
        }
        moved = {}
        for relation in Person._meta.related_objects:
            if relation.one_to_many:
                field = relation.field.name
                model = relation.related_model
                count = model._default_manager.filter(**{field: other}).update(**{field: keep})
                if count:
                    moved[model._meta.label_lower] = count
        number, user = other.vekn_number, other.user_id
        other.delete()
        fields = []
        if number and not keep.vekn_number:
            keep.vekn_number = number
            fields.append("vekn_number")
        if user and not keep.user_id:
            keep.user_id = user
            fields.append("user")
        if fields:
            keep.save(update_fields=fields)
        audit(event, actor, "player.merge", keep.name, before, {"moved": moved}, about=reg)
        page_cache.invalidate(event)
    return keep


# --------------------------------------------------------------------------- lists
@dataclass(frozen=True)
class Preview:
    """A list read against the database: each line's ``outcomes`` (in order), the
    ``digest`` the confirm step must send back, and the counts."""

    outcomes: list[Outcome]
    digest: str

    @property
    def valid(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind != player_lists.ERROR]

    @property
    def errors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind == player_lists.ERROR]


def preview_list(event: Event, text: str) -> Preview:
    """What saving ``text`` (a pasted list, ``events.player_lists.parse``) would do in
    ``event``. ``UserError`` when the whole list is refused (too long, empty). Queries:
    one for this event's registrations, one for the numbers' holders and the
    organisation's people, and one for the sanctions of all the lines found or new
    without a number (``events.sanctions.list_sanctions``), whatever the list's length."""
    try:
        lines = player_lists.parse(text, rulesets.of(event).player_number_label)
    except ListError as exc:
        raise UserError(str(exc.message), field="text") from None
    numbers = {line.vekn for line in lines if line.vekn and not line.error}
    registered = set(event.registrations.values_list("person_id", flat=True))
    people = {
        p.pk: p
        for p in Person.objects.filter(
            Q(vekn_number__in=numbers) | Q(pk__in=_known_people(event.organisation).values("pk"))
        )
        .annotate(
            known=Exists(
                Registration.objects.filter(
                    person=OuterRef("pk"), event__organisation=event.organisation
                )
            )
        )
        .only("pk", "name", "vekn_number")
    }
    known = {pk for pk, p in people.items() if p.known}

    def candidate(p: Person) -> Candidate:
        return Candidate(
            p.pk, p.name, p.vekn_number, known=p.pk in known, registered=p.pk in registered
        )

    by_number = {p.vekn_number: candidate(p) for p in people.values() if p.vekn_number in numbers}
    by_name: dict[str, list[Candidate]] = {}
    for p in people.values():
        if p.pk in known:
            by_name.setdefault(name_key(p.name), []).append(candidate(p))
    outcomes = player_lists.classify(lines, by_number, by_name)
    blocking, namesake = list_sanctions(
        [o.person.id for o in outcomes if o.kind == player_lists.EXISTING],
        [o.line.name for o in outcomes if o.kind == player_lists.NEW and not o.line.vekn],
        event,
    )
    checked = []
    for o in outcomes:
        if (o.kind == player_lists.EXISTING and o.person.id in blocking) or (
            o.kind == player_lists.NEW and not o.line.vekn and o.line.key in namesake
        ):
            o = Outcome(
                player_lists.Line(o.line.number, o.line.name, o.line.vekn, player_lists.BLOCKED),
                player_lists.ERROR,
            )
        checked.append(o)
    return Preview(checked, player_lists.digest(checked))


def save_list(event: Event, text: str, digest: str, actor=None, *, check_in: bool = False) -> int:
    """Register every valid line of ``text`` at once, as the preview showed them
    (``digest``, :func:`preview_list`), under a lock on the event: all or nothing.
    ``UserError`` when the list reads differently now (someone registered one of them
    meanwhile, the confirm step was sent twice, the text was changed), or when any
    registration is refused (the line number is in the message). Each registration is
    audited (``player.register``), and the list once (``player.import``). Returns how
    many were registered."""
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        preview = preview_list(event, text)
        if preview.digest != digest:
            raise UserError(
                _("The list has changed since the preview (or was already saved): check it again.")
            )
        if not preview.valid:
            raise UserError(_("No line of this list can be saved."))
        created = 0
        for o in preview.valid:
            line = o.line
            try:
                if o.person is None:
                    person = Person.objects.create(name=line.name, vekn_number=line.vekn)
                    created += 1
                else:
                    person = Person.objects.select_for_update().get(pk=o.person.id)
                    if o.adds_number:
                        person.vekn_number = line.vekn
                        person.save(update_fields=["vekn_number"])
                register(event, person, actor, check_in=check_in)
            except UserError as exc:
                raise UserError(
                    _("Line %(n)s: %(reason)s Nothing was saved.")
                    % {"n": line.number, "reason": exc.message}
                ) from None
        audit(
            event,
            actor,
            "player.import",
            _("%(n)s players") % {"n": len(preview.valid)},
            after={"registered": len(preview.valid), "new_people": created},
        )
    return len(preview.valid)


# --------------------------------------------------------------------------- check in all
def to_check_in(event: Event) -> list[Registration]:
    """The competing players still only registered (not checked in, dropped or
    disqualified), by name."""
    return list(
        event.registrations.filter(competing=True, status=Registration.Status.REGISTERED)
        .select_related("person")
        .order_by("person__name", "id")
    )


def check_in_all(event: Event, actor=None) -> tuple[list[str], list[str]]:
    """Check in every player of :func:`to_check_in` at once, except those a sanction
    keeps out of the event (left registered). Returns (names checked in, names left
    out). ``UserError`` when the results are approved. Audited once
    (``player.check_in_all``, with the registrations' ids, which :func:`undo_check_in_all`
    puts back); nothing to do writes nothing."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        done, left = [], []
        ids = []
        for reg in to_check_in(event):
            if blocking_sanction(reg.person, event) is not None:
                left.append(reg.person.name)
                continue
            ids.append(reg.pk)
            done.append(reg.person.name)
        if ids:
            Registration.objects.filter(pk__in=ids, status=Registration.Status.REGISTERED).update(
                status=Registration.Status.CHECKED_IN
            )
            audit(
                event,
                actor,
                CHECK_IN_ALL,
                _("%(n)s players") % {"n": len(ids)},
                after={"registrations": ids, "left_out": left},
            )
            page_cache.invalidate(event)
    return done, left


def last_check_in_all(event: Event) -> AuditLog | None:
    """The last "check in all" of ``event`` not undone yet, or ``None``."""
    last = (
        AuditLog.objects.filter(event=event, action__in=(CHECK_IN_ALL, UNDO_CHECK_IN_ALL))
        .order_by("-at", "-id")
        .first()
    )
    return last if last is not None and last.action == CHECK_IN_ALL else None


def undo_check_in_all(event: Event, actor=None) -> int:
    """Put the players the last "check in all" checked in, and who are still checked
    in, back to registered. Returns how many. ``UserError`` when there is nothing to undo
    or the results are approved. Audited (``player.check_in_all_undone``)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        entry = last_check_in_all(event)
        if entry is None:
            raise UserError(_("There is no “check in all” to undo."))
        ids = [int(i) for i in (entry.after or {}).get("registrations", [])]
        back = Registration.objects.filter(
            event=event, pk__in=ids, status=Registration.Status.CHECKED_IN
        )
        count = back.update(status=Registration.Status.REGISTERED)
        audit(
            event,
            actor,
            UNDO_CHECK_IN_ALL,
            _("%(n)s players") % {"n": count},
            before={"check_in_all": entry.pk},
            after={"registrations": ids, "back": count},
        )
        page_cache.invalidate(event)
    return count


# --------------------------------------------------------------------------- numbers
def missing_numbers(event: Event) -> list[str]:
    """The names of the competing players without a VEKN number, by name, when the event's ruleset reports
    results by number (``RulesetSpec.reports_player_numbers``); ``[]`` otherwise. One
    query."""
    if not rulesets.of(event).reports_player_numbers:
        return []
    return list(
        event.registrations.filter(competing=True, person__vekn_number="")
        .order_by("person__name")
        .values_list("person__name", flat=True)
    )
