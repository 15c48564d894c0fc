"""Who may do what in a league season (issue 4), and the decorator of season staff pages.

Two roles per season (:class:`leagues.models.SeasonRole`): **league staff** run the season,
the **tribunal** decides sanctions (ANFPES T24 §III). Superusers hold every permission. The
players of a match act on their own fixtures through :func:`team_of`.

Answers follow the events pages (``events.access``): anonymous → login page; signed in
without any role on the season → 404; with a role lacking the permission → 403.
"""

from enum import StrEnum
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from leagues.models import Season, SeasonRole


class LeaguePermission(StrEnum):
    """What a season role allows."""

    VIEW_STAFF_PAGES = "view_staff"
    """See the season's staff pages (queue of reports, disputes, excuses)."""
    REVIEW_RESULTS = "review_results"
    """Resolve disputes, reject reports, correct or enter results (with a reason)."""
    MANAGE_CALENDAR = "manage_calendar"
    """Move deadlines per matchday or per fixture."""
    MANAGE_COMPLIANCE = "manage_compliance"
    """Approve or refuse excuses; hold the compliance reviews."""
    MANAGE_DRAFT = "manage_draft"
    """Enter the draft's base order and draw lots."""
    RECORD_WALKOVERS = "record_walkovers"
    """Record a walkover with one team absent (ANFPES T24 §III.1)."""
    MANAGE_SQUADS = "manage_squads"
    """Edit any team's squad, also once the squads are closed (docs/leagues.md "Squads")."""
    DECIDE_SANCTIONS = "decide_sanctions"
    """Tribunal: refusals, both-absent fixtures, annulments, abandonment, points
    adjustments (ANFPES T24 §III.1–§III.4)."""


P = LeaguePermission
ROLE_PERMISSIONS = {
    SeasonRole.Role.STAFF: frozenset(
        {
            P.VIEW_STAFF_PAGES,
            P.REVIEW_RESULTS,
            P.MANAGE_CALENDAR,
            P.MANAGE_COMPLIANCE,
            P.MANAGE_DRAFT,
            P.RECORD_WALKOVERS,
            P.MANAGE_SQUADS,
        }
    ),
    SeasonRole.Role.TRIBUNAL: frozenset(
        {P.VIEW_STAFF_PAGES, P.RECORD_WALKOVERS, P.DECIDE_SANCTIONS}
    ),
}


def season_permissions(user, season: Season) -> frozenset[LeaguePermission]:
    """The permissions ``user`` holds on ``season`` (union of its roles); cached on the user
    object for the request. Anonymous users hold none."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    if user.is_superuser:
        return frozenset(LeaguePermission)
    cache = user.__dict__.setdefault("_season_permissions", {})
    if season.pk not in cache:
        roles = SeasonRole.objects.filter(season=season, user=user).values_list("role", flat=True)
        perms: set[LeaguePermission] = set()
        for role in roles:
            perms |= ROLE_PERMISSIONS.get(role, frozenset())
        cache[season.pk] = frozenset(perms)
    return cache[season.pk]


def require(user, season: Season, permission: LeaguePermission) -> None:
    """Raise ``PermissionDenied`` unless ``user`` holds ``permission`` on ``season`` (the
    services' own check, whatever the caller)."""
    if permission not in season_permissions(user, season):
        raise PermissionDenied


def season_staff_required(permission: LeaguePermission):
    """Decorator for season staff views: ``view(request, season, **kwargs)``; the URL
    carries the season's ``slug``. Sets ``request.season_permissions``."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, slug, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            season = get_object_or_404(Season, slug=slug)
            perms = season_permissions(request.user, season)
            if not perms:
                raise Http404("No such season")
            if permission not in perms:
                raise PermissionDenied
            request.season_permissions = perms
            return view(request, season, *args, **kwargs)

        wrapped.required_permission = permission
        return wrapped

    return decorator
