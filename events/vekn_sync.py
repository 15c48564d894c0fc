"""The VEKN member registry here (docs/vekn-link.md "The member registry"): reading it
into :class:`~events.vekn_models.VeknMember` rows, bringing people's names up to date by
VEKN number, never overwriting a local edit silently (a :class:`VeknConflict` staff
resolve), the check of a VEKN number at registration and the search by name.

A person **follows the VEKN** while their names here are the ones the last sync read
(compared by ``events.player_lists.name_key``: case and accents aside): a new spelling in
the registry is then copied, with an audit entry. A person whose names were edited here
(or never matched) and differ from the registry keeps them, and an open conflict says so
**[choice]**. Services: each batch in one transaction, people locked.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from events import vekn_client
from events.audit import audit
from events.errors import UserError
from events.models import Person, VeknConflict, VeknMember
from events.player_lists import name_key

logger = logging.getLogger(__name__)


@dataclass
class SyncReport:
    """What a sync did: members read, people updated, conflicts opened (person ids)."""

    members: int = 0
    updated: list[int] = field(default_factory=list)
    conflicts: list[int] = field(default_factory=list)


def apply_batch(batch: list[vekn_client.Member], report: SyncReport | None = None) -> SyncReport:
    """Store one batch of registry members and update the people with their numbers."""
    report = report or SyncReport()
    now = timezone.now()
    by_id = {m.veknid: m for m in batch}
    with transaction.atomic():
        old = {m.veknid: m for m in VeknMember.objects.filter(veknid__in=by_id)}
        people = list(Person.objects.select_for_update().filter(vekn_number__in=by_id))
        conflicts = {
            c.person_id: c
            for c in VeknConflict.objects.filter(person__in=people).order_by("created_at")
        }
        for person in people:
            _reconcile(
                person,
                by_id[person.vekn_number],
                old.get(person.vekn_number),
                conflicts.get(person.pk),
                now,
                report,
            )
        VeknMember.objects.bulk_create(
            [
                VeknMember(
                    veknid=m.veknid,
                    first_name=m.first_name,
                    last_name=m.last_name,
                    country=m.country,
                    city=m.city,
                    synced_at=now,
                )
                for m in batch
            ],
            update_conflicts=True,
            unique_fields=["veknid"],
            update_fields=["first_name", "last_name", "country", "city", "synced_at"],
        )
    report.members += len(batch)
    return report


def _reconcile(person, member, old, conflict, now, report: SyncReport) -> None:
    here = name_key(person.name)
    follows = old is not None and here == name_key(old.name)
    if person.name != member.name and follows:
        before = {
            "name": person.name,
            "first_name": person.first_name,
            "last_name": person.last_name,
        }
        _take(person, member.first_name, member.last_name)
        audit(
            None,
            None,
            "person.vekn_sync",
            str(person),
            before=before,
            after={"name": person.name},
            about=person,
        )
        report.updated.append(person.pk)
        return
    if here == name_key(member.name):  # the same names (perhaps spelt differently here)
        if conflict and conflict.status == VeknConflict.Status.OPEN:
            conflict.status, conflict.resolved_at = VeknConflict.Status.TOOK_VEKN, now
            conflict.save(update_fields=["status", "resolved_at"])
        return
    first, last = member.first_name, member.last_name
    if (
        conflict
        and conflict.status == VeknConflict.Status.KEPT_LOCAL
        and (conflict.vekn_first_name, conflict.vekn_last_name) == (first, last)
        and name_key(f"{conflict.local_first_name} {conflict.local_last_name}") == here
    ):
        return  # staff already chose to keep these names against these VEKN names
    if conflict is None or conflict.status != VeknConflict.Status.OPEN:
        conflict = VeknConflict(person=person)
    local_first, local_last = (
        (person.first_name, person.last_name)
        if (person.first_name or person.last_name)
        else (person.name, "")
    )
    conflict.local_first_name, conflict.local_last_name = local_first, local_last
    conflict.vekn_first_name, conflict.vekn_last_name = first, last
    conflict.save()
    report.conflicts.append(person.pk)


def _take(person: Person, first: str, last: str) -> None:
    person.first_name, person.last_name = first, last
    person.name = " ".join(p for p in (first, last) if p) or person.name
    person.save(update_fields=["first_name", "last_name", "name"])


def sync_registry(client: vekn_client.Client, prefixes=("00",)) -> SyncReport:
    """Read the registry from each prefix on ("00": all of it; "56": the numbers starting
    56) and apply it batch by batch. ``VeknError`` if the VEKN fails (batches already
    applied stay)."""
    report = SyncReport()
    for prefix in prefixes:
        stop = None if prefix == "00" else prefix
        for batch in vekn_client.walk_registry(client, prefix, stop=stop):
            apply_batch(batch, report)
    return report


def resolve_conflict(conflict_id: int, take_vekn: bool, actor) -> VeknConflict:
    """Staff's decision on an open conflict: take the VEKN's names (the person's names
    change, audited) or keep the local ones (a later sync with the same VEKN names does
    not ask again). ``UserError`` if it is no longer open."""
    with transaction.atomic():
        conflict = VeknConflict.objects.select_for_update().filter(pk=conflict_id).first()
        if conflict is None or conflict.status != VeknConflict.Status.OPEN:
            raise UserError(_("This difference was already resolved."))
        person = Person.objects.select_for_update().get(pk=conflict.person_id)
        if take_vekn:
            before = {"name": person.name}
            _take(person, conflict.vekn_first_name, conflict.vekn_last_name)
            audit(
                None,
                actor,
                "person.vekn_take",
                str(person),
                before=before,
                after={"name": person.name},
                about=person,
            )
            conflict.status = VeknConflict.Status.TOOK_VEKN
        else:
            audit(None, actor, "person.vekn_keep", str(person), about=person)
            conflict.status = VeknConflict.Status.KEPT_LOCAL
        conflict.resolved_at = timezone.now()
        conflict.save(update_fields=["status", "resolved_at"])
    return conflict


@dataclass(frozen=True)
class NumberCheck:
    """The check of a VEKN number at registration: ``warning`` is ``""`` when the number
    exists and the name matches, else what to tell staff (never a refusal)."""

    warning: str = ""
    member: vekn_client.Member | None = None


def check_number(vekn_number: str, name: str) -> NumberCheck:
    """Whether ``vekn_number`` is in the registry under ``name``: the last sync's rows
    first, else one request to the VEKN. Link off: no check. The VEKN unreachable: a
    warning that it could not be checked, never an error."""
    if not vekn_number or not vekn_client.enabled():
        return NumberCheck()
    row = VeknMember.objects.filter(veknid=vekn_number).first()
    member = (
        vekn_client.Member(row.veknid, row.first_name, row.last_name, row.country, row.city)
        if row
        else None
    )
    if member is None:
        try:
            with vekn_client.Client() as client:
                member = client.member(vekn_number)
        except vekn_client.VeknError as exc:
            logger.warning("VEKN number check of %s: %s", vekn_number, exc)
            return NumberCheck(
                _("The VEKN number could not be checked: %(reason)s") % {"reason": exc}
            )
    if member is None:
        return NumberCheck(
            _("VEKN number %(number)s is not in the VEKN registry.") % {"number": vekn_number}
        )
    if name_key(member.name) != name_key(name):
        return NumberCheck(
            _("VEKN number %(number)s belongs to %(vekn_name)s in the VEKN registry, not %(name)s.")
            % {"number": vekn_number, "vekn_name": member.name, "name": name},
            member,
        )
    return NumberCheck("", member)


def search_by_name(query: str, limit: int = 10) -> list[VeknMember]:
    """Registry members (as last synced) whose names contain every word of ``query``
    (case-insensitive), for finding a new player's VEKN number."""
    words = query.split()
    if not words:
        return []
    rows = VeknMember.objects.all()
    for word in words[:4]:
        rows = rows.filter(first_name__icontains=word) | rows.filter(last_name__icontains=word)
    return list(rows.order_by("last_name", "first_name")[:limit])
