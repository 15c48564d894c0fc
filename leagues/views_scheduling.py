"""Scheduling a fixture on its match page (docs/leagues.md "Scheduling a fixture"): the
two players propose up to three times, accept one or counter-propose; the section is
``templates/leagues/_match_schedule.html``, swapped in place by htmx (a full page answer
without htmx). Staff see the fixtures with no agreed time near their deadline and the
reused screenshots (``/seasons/<slug>/manage/scheduling/``).

Thin: :mod:`leagues.scheduling` checks, locks, saves and audits. Someone who is not one
of the fixture's two players gets 403 on a POST; the proposals are shown only to the two
players and the season's staff.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.errors import UserError
from leagues import scheduling, screenshots
from leagues.access import LeaguePermission, season_permissions, season_staff_required
from leagues.forms_scheduling import ProposeForm
from leagues.models import Match, TimeProposal
from leagues.reporting import side_of
from leagues.rules.scheduling import ATTENTION_HOURS, MAX_TIMES


def _match(slug, code) -> Match:
    return get_object_or_404(
        Match.objects.select_related("competition__season", "home__user", "away__user"),
        competition__slug=slug,
        code=code,
    )


def schedule_context(request, match: Match, *, form=None, error=None) -> dict:
    """What the schedule section shows: the agreed time (to everyone), the open times,
    who may accept and the form (to the two players; staff see the open times). One
    query."""
    side = side_of(request.user, match)
    private = side is not None or bool(season_permissions(request.user, match.competition.season))
    # One query: the agreed time and the open ones (the replaced ones are history).
    live = list(
        match.time_proposals.exclude(status=TimeProposal.Status.REPLACED)
        .select_related("team")
        .order_by("starts_at", "id")
    )
    agreed = next((p for p in live if p.status == TimeProposal.Status.ACCEPTED), None)
    scheduled = match.status == Match.Status.SCHEDULED
    opened = (
        [p for p in live if p.status == TimeProposal.Status.OPEN]
        if private and scheduled and not agreed
        else []
    )
    own_team = {"home": match.home, "away": match.away}.get(side)
    mine = bool(opened) and own_team is not None and opened[0].team_id == own_team.pk
    return {
        "schedule_agreed": agreed,
        "schedule_open": opened,
        "schedule_can_accept": bool(opened) and side is not None and not mine,
        "schedule_mine": mine,
        "schedule_form": (form or ProposeForm(zone=match.competition.season.time_zone))
        if side and scheduled and not agreed
        else None,
        "schedule_error": error,
        "schedule_max": MAX_TIMES,
        "schedule_private": private,
    }


def _section(request, match, *, status=200, **extra):
    if not request.htmx:
        if extra.get("error"):
            messages.error(request, extra["error"])
        return redirect(
            reverse("leagues:match", kwargs={"slug": match.competition.slug, "code": match.code})
            + "#schedule"
        )
    context = {"match": match, "competition": match.competition, "season": match.competition.season}
    context.update(schedule_context(request, match, **extra))
    return render(request, "leagues/_match_schedule.html", context, status=status)


@login_required
@require_POST
def propose(request, slug, code):
    match = _match(slug, code)
    form = ProposeForm(request.POST, zone=match.competition.season.time_zone)
    try:
        if not form.is_valid():
            raise form.user_error()
        scheduling.propose(match, request.user, form.times())
    except UserError as exc:
        return _section(request, match, status=400, form=form, error=str(exc))
    if not request.htmx:
        messages.success(request, _("Times proposed: your opponent can accept one."))
    return _section(request, match)


@login_required
@require_POST
def accept(request, slug, code, pk):
    match = _match(slug, code)
    try:
        scheduling.accept(match, request.user, pk)
    except UserError as exc:
        return _section(request, match, status=400, error=str(exc))
    if not request.htmx:
        messages.success(request, _("Time agreed: it is on both players' fixtures."))
    return _section(request, match)


@season_staff_required(LeaguePermission.VIEW_STAFF_PAGES)
def staff_scheduling(request, season):
    """Fixtures with no agreed time near their deadline; screenshots used for two
    matches."""
    return render(
        request,
        "leagues/staff_scheduling.html",
        {
            "season": season,
            "season_perms": request.season_permissions,
            "tab": "scheduling",
            "attention_hours": ATTENTION_HOURS,
            "flagged": scheduling.flagged_fixtures(season, now=timezone.now()),
            "reuses": screenshots.reuses(season),
        },
    )
