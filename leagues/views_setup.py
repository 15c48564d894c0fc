"""The new-season pages (issue 14): a league administrator creates a season from the site
(``/leagues/new/``) or rolls a finished one over (``/seasons/<slug>/manage/next-season/``,
the same form with next season's divisions prefilled). "Preview" shows what would be
created, line by line, with every problem (htmx swaps it in; without JavaScript the page
is answered again); "Create the season" saves it all or nothing
(:mod:`leagues.season_setup`).

Answers: anonymous → login page; signed in but not a league administrator → 403 (also for
a season's own staff: creating seasons is site-wide). Views are thin: the form reads the
POST, the services check the permission again and do the work.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from events.errors import UserError
from leagues import season_setup
from leagues.access import season_permissions
from leagues.forms_setup import DEFAULT_NAMES, SeasonSetupForm
from leagues.models import Season
from leagues.submissions import once


def _admin_only(request) -> None:
    if not season_setup.is_league_admin(request.user):
        raise PermissionDenied


def _page(request, form_data, *, preview=None, error=None, status=200, moves=None, source=None):
    context = {
        "form": form_data,
        "preview": preview,
        "error": error,
        "moves": moves or [],
        "source": source,
        "recent": list(Season.objects.order_by("-created_at")[:10]),
        "zone": (form_data.get("time_zone") or "America/Santiago"),
    }
    if preview is not None:
        for item in preview.calendar:
            item["first_text"] = season_setup.local_text(item["first"], context["zone"])
            item["last_text"] = season_setup.local_text(item["last"], context["zone"])
    template = (
        "leagues/_season_preview.html"
        if getattr(request, "htmx", False) and preview is not None
        else "leagues/season_new.html"
    )
    return render(request, template, context, status=status)


def _blank(request) -> dict:
    return {
        "time_zone": "America/Santiago",
        "primera_a_name": str(DEFAULT_NAMES["primera_a"]),
        "primera_b_name": str(DEFAULT_NAMES["primera_b"]),
        "staff": request.user.username,
    }


@login_required
@require_http_methods(["GET", "POST"])
@once
def season_new(request):
    """The new-season form; POST ``step=preview`` (default) shows the preview,
    ``step=create`` creates the season and leads to its staff pages."""
    _admin_only(request)
    if request.method == "GET":
        return _page(request, _blank(request))
    form = SeasonSetupForm(request.POST)
    typed = form.data
    if not form.is_valid():
        return _page(request, typed, error=form.first_error(), status=400)
    setup = form.setup()
    if not form.creates:
        return _page(request, typed, preview=season_setup.preview_season(request.user, setup))
    try:
        season = season_setup.create_season(request.user, setup)
    except UserError as exc:
        preview = season_setup.preview_season(request.user, setup)
        return _page(request, typed, preview=preview, error=str(exc), status=400)
    messages.success(
        request,
        _("Season %(name)s created: %(teams)s teams.")
        % {"name": season.name, "teams": season.teams.count()},
    )
    if season_permissions(request.user, season):
        return redirect(reverse("leagues:staff-home", kwargs={"slug": season.slug}))
    return redirect(reverse("leagues:season", kwargs={"slug": season.slug}))


@login_required
@require_http_methods(["GET"])
def season_next(request, slug):
    """The new-season form prefilled from a finished season: next season's divisions
    (promotion, relegation, Liguilla) as the rules computed them, editable before
    "Create the season"."""
    _admin_only(request)
    season = get_object_or_404(Season, slug=slug)
    try:
        initial = season_setup.rollover_initial(request.user, season)
    except UserError as exc:
        return _page(request, _blank(request), error=str(exc), status=409, source=season)
    moves = initial.pop("moves")
    form = {**_blank(request), **initial}
    return _page(request, form, moves=moves, source=season)
