"""The audit log: one append-only entry per change (pattern: Tabbycat ``actionlog``,
pretix ``LoggedModel.log_action``; docs/architecture.md "Rules of the house").

An entry says what it is about twice: ``target``, a short display string for people, and
(``target_type``, ``target_id``), the model label and primary key a history is read back by
(:func:`entries_about`). Nothing reads a history back by its display string.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Model, QuerySet

from events.limits import check_free_text, field_label
from events.models import AuditLog, Registration


def audit(
    event, actor, action: str, target: str = "", before=None, after=None, comment="", about=None
) -> AuditLog:
    """Append one entry to the audit log (never edited afterwards).

    ``event``: the event or ``None`` (league entries); ``actor``: the user (anonymous →
    none); ``action``: a dotted code (``"penalty.logged"``); ``target``: display string
    (cut to 200 characters); ``about``: the model instance the entry is about, stored as
    (label, pk) for :func:`entries_about`. ``comment`` is usually a reason the user typed,
    checked by the service against ``events.limits.FREE_TEXT_MAX_LENGTH``; one too long
    here (a service that forgot) is a ``UserError``, raised inside the caller's
    transaction, so nothing is saved."""
    comment = check_free_text(comment, field_label(AuditLog, "comment"))
    return AuditLog.objects.create(
        event=event,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        target=str(target)[:200],
        target_type=about._meta.label_lower if about is not None else "",
        target_id=about.pk if about is not None else None,
        before=before,
        after=after,
        comment=comment or "",
    )


def entries_about(obj: Model) -> QuerySet[AuditLog]:
    """Every audit entry about ``obj`` (written with ``about=obj``), newest first."""
    return AuditLog.objects.filter(target_type=obj._meta.label_lower, target_id=obj.pk)


@dataclass(frozen=True)
class PlayerNames:
    """The names the audit page shows instead of the ids an entry stores: registration id
    → person name (``by_id``) and player code → person name (``by_code``)."""

    by_id: dict[int, str] = field(default_factory=dict)
    by_code: dict[str, str] = field(default_factory=dict)


def player_names(event) -> PlayerNames:
    """The :class:`PlayerNames` of ``event``'s registrations (one query), for the
    template filters of ``events/templatetags/audit.py``; empty without an event."""
    if event is None:
        return PlayerNames()
    rows = Registration.objects.filter(event=event).values_list("id", "code", "person__name")
    by_id, by_code = {}, {}
    for pk, code, name in rows:
        by_id[pk] = name
        by_code[code] = name
    return PlayerNames(by_id, by_code)


def own_repeat(current_version: int, version: int, last, actor) -> bool:
    """Whether the one save of an object since the ``version`` a form was loaded with
    (it is now ``current_version``) was by the same signed-in ``actor``, as its latest
    audit entry ``last`` says (an :class:`AuditLog` or ``None``): then an identical second
    send is that person's double tap or retry, not someone else's change, and is answered
    as already saved instead of as a conflict."""
    return (
        current_version == version + 1
        and last is not None
        and last.actor_id is not None
        and last.actor_id == getattr(actor, "pk", None)
    )
