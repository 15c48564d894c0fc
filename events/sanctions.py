"""Sanctions beyond the event, as the event's staff meet them (events kernel): who gave a
sanction and one sentence summing it up, the suspension or ban that keeps a person out of an
event, and the checked-in players a round is not seated or paired with (MyL conduct rules
§4.1; ``docs/rules-myl-penalties.md`` "Sanctions beyond the event"). The reach of a
sanction itself is ``penalties.sanction_rules.reach`` (``Sanction.blocks``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from events.errors import UserError
from events.models import Event, Person, Registration
from events.people import display_user, name_key
from events.permissions import AUTHORITIES
from penalties.models import Sanction

SANCTION_RELATED = (
    "penalty__event__organisation",
    "penalty__confirmed_by",
    "penalty__reported_by",
    "organisation",
    "confirmed_by",
    "created_by",
)
"""``select_related`` for :func:`sanction_summary` (one query for a list of sanctions)."""


def sanction_giver(sanction):
    """Who gave a sanction: the head judge who confirmed its penalty, else the judge who
    logged it, else whoever created it (the authority for an escalation)."""
    p = sanction.penalty
    if p is not None and (p.confirmed_by_id or p.reported_by_id):
        return p.confirmed_by if p.confirmed_by_id else p.reported_by
    return sanction.created_by


def sanction_summary(sanction) -> str:
    """One sentence for organisers: the sanction, its ruleset, where and by whom it was
    given, and the authority's confirmation or that it waits for it (issue 12). Load the
    sanction with :data:`SANCTION_RELATED`."""
    values = {
        "kind": sanction.get_kind_display(),
        "ruleset": sanction.get_ruleset_display(),
        "judge": display_user(sanction_giver(sanction)),
    }
    if sanction.penalty_id is not None:
        event = sanction.penalty.event
        given = _("%(kind)s (%(ruleset)s) given at %(event)s (%(organisation)s) by %(judge)s") % {
            **values,
            "event": event.name,
            "organisation": event.organisation.name,
        }
    else:
        given = _("%(kind)s (%(ruleset)s) given by %(judge)s") % values
    if sanction.confirmed_at is not None:
        confirmed = _("confirmed by %(who)s, %(title)s, on %(day)s") % {
            "who": display_user(sanction.confirmed_by),
            "title": AUTHORITIES[sanction.ruleset].title,
            "day": timezone.localdate(sanction.confirmed_at).isoformat(),
        }
    else:
        confirmed = str(AUTHORITIES[sanction.ruleset].pending)
    return f"{given}; {confirmed}."


def blocking_sanction(person: Person, event: Event):
    """The suspension or permanent ban that keeps ``person`` out of ``event``, or
    ``None`` (MyL conduct rules §4.1; the reach of ``penalties.sanction_rules.reach``:
    the event's ruleset only, the issuing organisation at once, every organisation once
    the ruleset's authority confirmed it). Loaded for :func:`sanction_summary`."""

    for sanction in (
        Sanction.objects.filter(
            person=person, ruleset=event.ruleset, lifted_at__isnull=True, starts_on__lte=event.date
        )
        .select_related(*SANCTION_RELATED)
        .order_by("-starts_on", "-id")
    ):
        if sanction.blocks(event):
            return sanction
    return None


@dataclass(frozen=True)
class BlockedPlayer:
    """A checked-in player whom a sanction keeps out of the event
    (:func:`blocked_players`): the registration to drop and the sanction (loaded for
    :func:`sanction_summary`)."""

    registration_id: int
    name: str
    sanction: object


def blocked_players(event: Event) -> list[BlockedPlayer]:
    """The checked-in players of ``event`` whom a suspension or permanent ban keeps out
    of it now (the rule of :func:`blocking_sanction`: ``Sanction.blocks``), by name, one
    entry per player: e.g. one checked in while another organisation's ban waited for
    the authority, confirmed since (issue 12). One query whatever the number of players.
    Rounds are not seated or paired while this list is not empty
    (:func:`refuse_blocked_players`)."""

    out: dict[int, BlockedPlayer] = {}
    for sanction in (
        Sanction.objects.filter(
            person__registrations__event=event,
            person__registrations__status=Registration.Status.CHECKED_IN,
            ruleset=event.ruleset,
            lifted_at__isnull=True,
            starts_on__lte=event.date,
        )
        .annotate(registration_id=F("person__registrations__id"))
        .select_related("person", *SANCTION_RELATED)
        .order_by("person__name", "-starts_on", "-id")
    ):
        if sanction.registration_id not in out and sanction.blocks(event):
            out[sanction.registration_id] = BlockedPlayer(
                sanction.registration_id, sanction.person.name, sanction
            )
    return list(out.values())


def refuse_blocked_players(event: Event) -> None:
    """``UserError`` naming the checked-in players a sanction keeps out of ``event``
    (:func:`blocked_players`), telling to drop them first: a round is not seated or
    paired with them (MyL conduct rules §4.1; docs/rules-myl-penalties.md "Sanctions
    beyond the event")."""
    blocked = blocked_players(event)
    if blocked:
        raise UserError(
            _(
                "Suspended or banned on this event's date, still checked in: %(names)s. "
                "Drop them before the next round (players page)."
            )
            % {"names": ", ".join(b.name for b in blocked)}
        )


def namesake_sanction(name: str, event: Event):
    """A sanction that would keep a person with the same name (accents and case aside)
    out of ``event`` (as :func:`blocking_sanction`), or ``None``: a player added without
    a number must not slip past a sanction by being created again under the same name
    **[choice]**."""

    key = name_key(name)
    for sanction in (
        Sanction.objects.filter(
            Q(organisation_id=event.organisation_id) | Q(confirmed_at__isnull=False),
            ruleset=event.ruleset,
            lifted_at__isnull=True,
            starts_on__lte=event.date,
        )
        .select_related("person")
        .order_by("-starts_on", "-id")
    ):
        if name_key(sanction.person.name) == key and sanction.blocks(event):
            return sanction
    return None


def list_sanctions(person_ids, names, event: Event) -> tuple[dict, dict]:
    """For a pasted list (``events.roster.preview_list``), in one query: the sanction
    keeping each of ``person_ids`` out of ``event`` (person id → sanction, as
    :func:`blocking_sanction`), and the one keeping a namesake of each of ``names`` out
    (:func:`name_key` → sanction, as :func:`namesake_sanction`); people and names with
    none are absent. No query when both are empty."""

    person_ids, keys = set(person_ids), {name_key(n) for n in names} - {""}
    blocking: dict[int, object] = {}
    namesake: dict[str, object] = {}
    if not person_ids and not keys:
        return blocking, namesake
    reach = Q(person_id__in=person_ids)
    if keys:
        reach |= Q(organisation_id=event.organisation_id) | Q(confirmed_at__isnull=False)
    for sanction in (
        Sanction.objects.filter(
            reach, ruleset=event.ruleset, lifted_at__isnull=True, starts_on__lte=event.date
        )
        .select_related("person", *SANCTION_RELATED)
        .order_by("-starts_on", "-id")
    ):
        if not sanction.blocks(event):
            continue
        if sanction.person_id in person_ids:
            blocking.setdefault(sanction.person_id, sanction)
        key = name_key(sanction.person.name)
        if key in keys and (
            sanction.organisation_id == event.organisation_id or sanction.confirmed_at is not None
        ):
            namesake.setdefault(key, sanction)
    return blocking, namesake
