"""Permissions declared as an enum and roles as bundles of them.

A user's permissions on an event are the union of the roles they hold on the event
itself and on the organisation that owns it. Superusers hold every permission.
Pattern: Tabbycat ``users/permissions.py`` and ``users/groups.py``.
"""

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _


class Permission(models.TextChoices):
    """What a staff member may do on one event. Stored codes are an API: never rename."""

    VIEW_STAFF_PAGES = "view_staff", _("See the event's staff pages")
    EDIT_EVENT = "edit_event", _("Change the event's settings")
    MANAGE_STAFF = "manage_staff", _("Appoint the event's staff")
    MANAGE_PLAYERS = "manage_players", _("Register, check in and drop players")
    MANAGE_SEATING = "manage_seating", _("Seat rounds and swap seats")
    ENTER_RESULTS = "enter_results", _("Enter table results")
    OVERRIDE_RESULTS = "override_results", _("Accept an irregular result sheet")
    RUN_FINAL = "run_final", _("Record the toss and the final's seating")
    PUBLISH = "publish", _("Publish or hide standings and seating")
    LOG_PENALTIES = "log_penalties", _("Log infractions and time extensions")
    CONFIRM_PENALTIES = "confirm_penalties", _("Confirm, change or void penalties (head judge)")
    APPROVE_RESULTS = "approve_results", _("Approve the event's results")
    DECIDE_APPEALS = (
        "decide_appeals",
        _("Decide written appeals against penalties (national Organised Play manager)"),
    )


class Role(models.TextChoices):
    """Staff roles of an event or an organisation, each a bundle of permissions
    (``ROLE_PERMISSIONS``). Stored codes are an API: never rename.

    ``op_manager`` ("Organised Play manager") was a member until issue 12: an organiser
    could give it to themselves on their own event and then decide the written appeals
    against that event's penalties. It is gone from the enum on purpose, so that no staff
    form, model choice or bundle can offer it again; migration ``events`` 0015 turned every
    stored row into an :class:`events.models.AuthorityRole`, granted only by a platform
    administrator. The code is never reused for another meaning."""

    ORGANISER = "organiser", _("Organiser")
    HEAD_JUDGE = "head_judge", _("Head judge")
    JUDGE = "judge", _("Judge")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")


P = Permission
ROLE_PERMISSIONS: dict[str, frozenset[Permission]] = {
    # The organiser runs the event; written appeals go to the Organised Play manager
    # (Mitos y Leyendas conduct rules §4.5), a role of its own.
    Role.ORGANISER: frozenset(Permission) - {Permission.DECIDE_APPEALS},
    Role.HEAD_JUDGE: frozenset(
        {
            P.VIEW_STAFF_PAGES,
            P.MANAGE_PLAYERS,
            P.MANAGE_SEATING,
            P.ENTER_RESULTS,
            P.OVERRIDE_RESULTS,
            P.RUN_FINAL,
            P.PUBLISH,
            P.LOG_PENALTIES,
            P.CONFIRM_PENALTIES,
            P.APPROVE_RESULTS,
        }
    ),
    Role.JUDGE: frozenset(
        {P.VIEW_STAFF_PAGES, P.MANAGE_SEATING, P.ENTER_RESULTS, P.OVERRIDE_RESULTS, P.LOG_PENALTIES}
    ),
    Role.SCOREKEEPER: frozenset({P.VIEW_STAFF_PAGES, P.MANAGE_PLAYERS, P.ENTER_RESULTS}),
}

AUTHORITY_PERMISSIONS = frozenset({P.VIEW_STAFF_PAGES, P.DECIDE_APPEALS})
"""What the ruleset's national authority (``events.models.AuthorityRole``) holds on every
event of that ruleset: it sees the staff pages and decides the written appeals
(Mitos y Leyendas conduct rules §4.5, §5.10) — except on an event where it also holds a
staff role (:func:`permissions_for`)."""


@dataclass(frozen=True)
class Authority:
    """What one ruleset's national authority is (the registry :data:`AUTHORITIES`, the
    one place these differences live): its ``title``, the ``pending`` words of a sanction
    waiting for it, whether it may escalate a confirmed disqualification into a
    suspension or ban (``escalates_disqualifications``) and whether the ruleset has
    written appeals to it with a deadline (``written_appeals``)."""

    title: str
    pending: str
    escalates_disqualifications: bool
    written_appeals: bool


AUTHORITIES: dict[str, Authority] = {
    # MyL conduct rules §4.5: the national Organised Play manager decides written appeals
    # (5 business days, §5.10); suspensions and bans are penalties of the conduct rules.
    "myl": Authority(
        title=_("Organised Play manager"),
        pending=_("pending the Organised Play manager"),
        escalates_disqualifications=False,
        written_appeals=True,
    ),
    # VEKN: the national coordinator **[choice]**, the body a VEKN country appoints to
    # escalate disqualifications (JG §1.1.4 leaves sanctions beyond the event to it;
    # docs/rules-vekn-penalties.md "Sanctions beyond the event").
    "vekn": Authority(
        title=_("National coordinator"),
        pending=_("pending the national coordinator"),
        escalates_disqualifications=True,
        written_appeals=False,
    ),
}
"""The national authority of each ruleset code (``events.models.Ruleset``)."""


def permissions_for(roles, *, authority: bool = False) -> frozenset[Permission]:
    """Permissions on one event from the user's staff ``roles`` there (event and
    organisation roles, ``Role`` codes) and whether they are the national ``authority``
    of the event's ruleset. The authority sees the staff pages and decides appeals, but
    never decides appeals on an event where it holds any staff role: no one decides the
    appeals against their own event (issue 12; MyL conduct rules §4.5)."""
    roles = set(roles)
    result = set(permissions_for_roles(roles))
    if authority:
        result.add(Permission.VIEW_STAFF_PAGES)
        if not roles:
            result.add(Permission.DECIDE_APPEALS)
    return frozenset(result)


def permissions_for_roles(roles) -> frozenset[Permission]:
    """Union of the permissions of ``roles`` (iterable of ``Role`` codes)."""
    result: set[Permission] = set()
    for role in roles:
        result |= ROLE_PERMISSIONS.get(role, frozenset())
    return frozenset(result)
