"""People and accounts (events kernel): finding or creating a person record by name and VEKN
number, how a staff member is named, and the account claims that link a user to a person
record — who may decide them and where the decision is audited (``docs/deploy.md``
"Account claims").
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from events.limits import is_vekn_number
from events.models import (
    Event,
    EventRole,
    OrganisationRole,
    Person,
    PlayerClaim,
    Registration,
    Seat,
)
from events.permissions import Role
from events.player_lists import NamesDisagree, person_names
from events.player_lists import name_key as name_key  # re-exported: its old home


def find_or_create_person(
    name: str,
    vekn_number: str = "",
    organisation=None,
    *,
    first_name: str = "",
    last_name: str = "",
) -> Person:
    """The person with this VEKN number, or a new one. ``UserError`` if the number is not
    digits, or is taken under a clearly different name (compared without case, accents or
    extra spaces).

    For an ``organisation`` (an ``Organisation``: the staff pages pass the event's) the
    holder of a number is named only when that person already played in one of its
    events **[choice]**: a number is public, so the name behind it must not be learnt by
    typing numbers (``docs/deploy.md`` "Account claims"). There a number alone finds only
    such a person — otherwise the name is asked for, in the same words whether or not the
    number is known — and a name that does not match is refused without naming the
    holder. Without ``organisation`` (imports, the shell) a number alone finds any record,
    and a mismatch names nobody either.

    ``first_name`` and ``last_name`` (optional) are kept on a new record; with them the
    name may be left empty, and one typed must be both together
    (``player_lists.person_names``; ``UserError`` on ``name`` otherwise)."""
    try:
        names = person_names(name, first_name, last_name)
    except NamesDisagree as exc:
        raise UserError(
            _("The name is the first and last names together (“%(name)s”).")
            % {"name": exc.expected},
            field="name",
        ) from None
    name, first_name, last_name = names.name, names.first, names.last
    vekn_number = (vekn_number or "").strip()
    if vekn_number and not is_vekn_number(vekn_number):
        raise UserError(_("A VEKN number has only digits."), field="vekn_number")
    person = Person.objects.filter(vekn_number=vekn_number).first() if vekn_number else None
    known = (
        person is not None
        and organisation is not None
        and person.registrations.filter(event__organisation=organisation).exists()
    )
    if vekn_number and not name and organisation is not None and not known:
        raise UserError(
            _(
                "Give the player's name too: a number alone finds only a player who has "
                "already played in this organisation's events."
            ),
            field="name",
        )
    if person:
        if name and name_key(name) != name_key(person.name):
            if known:
                message = _(
                    "VEKN number %(n)s belongs to %(owner)s, not %(name)s: check the number."
                ) % {"n": vekn_number, "owner": person.name, "name": name}
            else:
                message = _(
                    "VEKN number %(n)s is recorded under another name than %(name)s: "
                    "check the number, or give the name the player registered with."
                ) % {"n": vekn_number, "name": name}
            raise UserError(message, field="vekn_number")
        return person
    if not name:
        raise UserError(_("Give the player's name."), field="name")
    return Person.objects.create(
        name=name, vekn_number=vekn_number, first_name=first_name, last_name=last_name
    )


def display_user(user) -> str:
    """How a staff member is named on pages and messages: full name, else username."""
    if user is None:
        return "—"
    return user.get_full_name() or user.get_username()


def _registrations_of(vekn_number):
    """The competing registrations of the person with ``vekn_number`` (a value or an
    ``OuterRef``), first recorded first (spectators and staff registered only to receive a
    penalty left out). Rule: ``docs/deploy.md`` "Account claims"."""
    return Registration.objects.filter(person__vekn_number=vekn_number, competing=True).order_by(
        "created_at", "id"
    )


def first_played_event(claim) -> Event | None:
    """The event that vouches for the person with ``claim``'s VEKN number: the event of
    their **first registration** the server recorded, once they **played** there (were
    seated in a round: a VEKN table, a MyL match or a bye); ``None`` while they did not
    (or have no registration). "First" is when the registration was recorded, not the
    event's date **[choice]**: an event's date is typed by its organiser and can be
    changed at any time, and seating a round is quick, so ordering by either would let
    any organisation register the number in an event of its own and make itself "first";
    when a registration was recorded cannot be changed. Rule: ``docs/deploy.md``
    "Account claims"."""
    if not claim.vekn_number:
        return None
    first = _registrations_of(claim.vekn_number).select_related("event__organisation").first()
    if first is None or not Seat.objects.filter(registration=first).exists():
        return None
    return first.event


def decidable_claims(user, claims=None):
    """The claims of ``claims`` (a ``PlayerClaim`` queryset; default: every claim) that
    ``user`` may decide, as a queryset (one query, whatever the number of claims).

    A platform administrator (superuser) may decide every claim. Anyone else only a claim
    whose person was **first registered**, and has played (been seated) there, in an
    event of an organisation where ``user`` holds the Organiser role, or in an event where
    ``user`` holds it (:func:`first_played_event`). A person not seated there yet waits
    until they are (or for an administrator). Registering, or even seating, the number in
    one's own event gives no say while the person was registered elsewhere first.
    Anonymous users decide nothing. Rule: ``docs/deploy.md`` "Account claims" [choice]:
    a VEKN number is public, so only the organisation that first met the player can
    vouch that the account is theirs — and no organisation can make itself that one."""
    claims = PlayerClaim.objects.all() if claims is None else claims
    if not getattr(user, "is_authenticated", False):
        return claims.none()
    if user.is_superuser:
        return claims
    first = _registrations_of(OuterRef("vekn_number"))
    return (
        claims.exclude(vekn_number="")
        .annotate(
            first_registration_id=Subquery(first.values("id")[:1]),
            first_event_id=Subquery(first.values("event_id")[:1]),
            first_organisation_id=Subquery(first.values("event__organisation_id")[:1]),
        )
        .filter(Exists(Seat.objects.filter(registration_id=OuterRef("first_registration_id"))))
        .filter(
            Q(
                Exists(
                    OrganisationRole.objects.filter(
                        organisation_id=OuterRef("first_organisation_id"),
                        user=user,
                        role=Role.ORGANISER,
                    )
                )
            )
            | Q(
                Exists(
                    EventRole.objects.filter(
                        event_id=OuterRef("first_event_id"), user=user, role=Role.ORGANISER
                    )
                )
            )
        )
    )


def decide_claim(claim, approve: bool, actor, event: Event) -> None:
    """Link (``approve``) or not an account to the person record with the claim's VEKN
    number (see ``PlayerClaim``).

    Only a user allowed by :func:`decidable_claims` decides, checked here under a row
    lock on the claim and the person. ``UserError`` — with one neutral message that says
    nothing of who holds the number — when ``actor`` may not decide it; otherwise when
    the claim was already decided, the record already has an account, or the claim's
    account already has a record. The decision is audited on the event where the person
    first played (:func:`first_played_event`), so that the organisation that vouches for
    the player sees it; on ``event`` (the page it was decided from) only when the person
    never played (an administrator's decision). Rule: ``docs/deploy.md``
    "Account claims"."""
    with transaction.atomic():
        claim = (
            PlayerClaim.objects.select_for_update(of=("self",))
            .select_related("user")
            .get(pk=claim.pk)
        )
        person = Person.objects.select_for_update().filter(vekn_number=claim.vekn_number).first()
        if (
            person is None
            or not decidable_claims(actor, PlayerClaim.objects.filter(pk=claim.pk)).exists()
        ):
            raise UserError(
                _(
                    "You cannot decide this claim: only an organiser of the organisation "
                    "where this player first played, or a platform administrator, can."
                )
            )
        if claim.status != PlayerClaim.Status.PENDING:
            raise UserError(_("This claim was already decided."))
        if approve and person.user_id is not None:
            raise UserError(_("This player record is already linked: reject this claim."))
        if approve and Person.objects.filter(user=claim.user).exists():
            raise UserError(_("This account is already linked to a player record."))
        home = first_played_event(claim)
        claim.person = person
        claim.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.REJECTED
        claim.decided_by = actor if getattr(actor, "is_authenticated", False) else None
        claim.decided_at = timezone.now()
        claim.save(update_fields=["person", "status", "decided_by", "decided_at"])
        if approve:
            person.user = claim.user
            person.save(update_fields=["user"])
        audit(
            home or event,
            actor,
            "player.claim_approved" if approve else "player.claim_rejected",
            person.name,
            after={"account": claim.user.get_username(), "vekn_number": claim.vekn_number},
        )
