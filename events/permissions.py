"""Permissions declared as an enum and roles as bundles of them.

A user's permissions on an event are the union of the roles they hold on the event
itself and on the organisation that owns it. Superusers hold every permission.
Pattern: Tabbycat ``users/permissions.py`` and ``users/groups.py``.
"""

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
    """Staff roles, each a bundle of permissions (``ROLE_PERMISSIONS``)."""

    ORGANISER = "organiser", _("Organiser")
    HEAD_JUDGE = "head_judge", _("Head judge")
    JUDGE = "judge", _("Judge")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    OP_MANAGER = "op_manager", _("Organised Play manager")


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
    Role.OP_MANAGER: frozenset({P.VIEW_STAFF_PAGES, P.DECIDE_APPEALS}),
}


def permissions_for_roles(roles) -> frozenset[Permission]:
    """Union of the permissions of ``roles`` (iterable of ``Role`` codes)."""
    result: set[Permission] = set()
    for role in roles:
        result |= ROLE_PERMISSIONS.get(role, frozenset())
    return frozenset(result)
