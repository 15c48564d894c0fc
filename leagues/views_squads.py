"""The squad pages (docs/leagues.md "Squads"): every team's squad on one public page, a
team's squad with its forms for whoever may edit it (:func:`leagues.squads.may_edit`:
league staff, the team's owner while the squads are open), and staff closing or
reopening the squads. A refused form is answered 400 with the page again."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from events.errors import UserError
from leagues import squads
from leagues.access import LeaguePermission, season_permissions
from leagues.forms import FootballerForm, SquadLinesForm, SquadLockForm
from leagues.models import Footballer, Season, Team
from leagues.submissions import once


def _first_error(form) -> str:
    return next(iter(form.errors.values()))[0]


def season_squads(request, slug):
    """Public: every team's squad, numbers and names; staff close or reopen them here."""
    season = get_object_or_404(Season, slug=slug)
    teams = {t.code: t for t in season.teams.select_related("user").order_by("id")}
    locked = squads.is_locked(season)
    rows = [
        {
            "team": teams[code],
            "squad": members,
            "can_edit": squads.may_edit(request.user, teams[code], locked=locked),
        }
        for code, members in squads.season_squads(season).items()
        if code in teams
    ]
    return render(
        request,
        "leagues/squads.html",
        {
            "season": season,
            "rows": rows,
            "locked": locked,
            "can_lock": LeaguePermission.MANAGE_SQUADS in season_permissions(request.user, season),
        },
    )


def _team_page(request, team, *, form=None, error=None, status=200):
    locked = squads.is_locked(team.season)
    can_edit = squads.may_edit(request.user, team, locked=locked)
    return render(
        request,
        "leagues/squad.html",
        {
            "season": team.season,
            "team": team,
            "squad": list(team.squad.all()),
            "locked": locked,
            "can_edit": can_edit,
            "form": form or (SquadLinesForm() if can_edit else None),
            "error": error,
        },
        status=status,
    )


def _team(slug, code) -> Team:
    return get_object_or_404(
        Team.objects.select_related("season", "user"), season__slug=slug, code=code
    )


@require_http_methods(["GET", "POST"])
@once
def team_squad(request, slug, team):
    """A team's squad; a POST adds pasted footballers (all or nothing)."""
    team = _team(slug, team)
    if request.method != "POST":
        return _team_page(request, team)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not squads.may_edit(request.user, team):
        raise PermissionDenied
    form = SquadLinesForm(request.POST)
    if not form.is_valid():
        return _team_page(request, team, form=form, error=_first_error(form), status=400)
    try:
        added = squads.add_footballers(team, request.user, form.cleaned_data["lines"])
    except UserError as exc:
        return _team_page(request, team, form=form, error=str(exc), status=400)
    messages.success(
        request,
        ngettext("%(n)d footballer added.", "%(n)d footballers added.", len(added))
        % {"n": len(added)},
    )
    return redirect("leagues:team-squad", slug=slug, team=team.code)


@require_POST
@once
def squad_footballer(request, slug, team, pk):
    """Change a squad footballer's name or number, or take him out of the squad."""
    team = _team(slug, team)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    footballer = get_object_or_404(Footballer, team=team, pk=pk)
    footballer.team = team
    if not squads.may_edit(request.user, team):
        raise PermissionDenied
    form = FootballerForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError(_first_error(form))
        if form.cleaned_data["action"] == "remove":
            squads.remove_footballer(footballer, request.user)
            messages.success(request, _("%(name)s left the squad.") % {"name": footballer.name})
        else:
            squads.change_footballer(
                footballer,
                request.user,
                name=form.cleaned_data["name"],
                number=form.cleaned_data["number"],
            )
            messages.success(request, _("Squad saved."))
    except UserError as exc:
        return _team_page(request, _team(slug, team.code), error=str(exc), status=400)
    return redirect("leagues:team-squad", slug=slug, team=team.code)


@require_POST
@once
def squad_lock(request, slug):
    """League staff close or reopen the season's squads (``MANAGE_SQUADS``)."""
    season = get_object_or_404(Season, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    perms = season_permissions(request.user, season)
    if not perms:
        raise Http404("No such season")  # as the season staff pages
    if LeaguePermission.MANAGE_SQUADS not in perms:
        raise PermissionDenied
    form = SquadLockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose whether the squads are closed."))
        response = season_squads(request, slug)
        response.status_code = 400
        return response
    closed = form.cleaned_data["closed"] == "yes"
    squads.set_lock(season, request.user, closed)
    messages.success(
        request,
        _("Squads closed: only league staff change them now.")
        if closed
        else _("Squads reopened: each team's owner may edit their squad."),
    )
    return redirect("leagues:squads", slug=slug)
