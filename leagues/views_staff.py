"""Season staff and tribunal pages (issue 4; ANFPES T24 §III): the work queue, deadlines,
the points ledger, abandonment, the season's audit log, and the match-level sanction
endpoints (walkover, refusal, annulment, tribunal decision, §V incidents, the broadcast
requirement) posted from the match page.

Views are thin: check the permission (``season_staff_required`` for season pages,
:func:`match_staff_required` for match endpoints — same answers: anonymous → login,
no role on the season → 404, role without the permission → 403), build the form of
:mod:`leagues.forms_staff` from the POST, show its first problem or call
:mod:`leagues.sanctions` with its cleaned values, show the service's ``UserError`` as a
message, redirect. Anything else is a bug: it propagates (logged, 500).
"""

from datetime import datetime
from functools import wraps
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Q, Value, When
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from events.errors import UserError
from events.models import AuditLog
from leagues import broadcast, sanctions, squads, submissions, suspensions, views_match
from leagues.access import LeaguePermission as P
from leagues.access import season_permissions, season_staff_required
from leagues.forms_staff import (
    AbandonForm,
    AdjustmentForm,
    ConfirmedReasonForm,
    DeadlinesForm,
    IncidentForm,
    MustStreamForm,
    StreamLinkForm,
    TribunalForm,
    WalkoverForm,
)
from leagues.models import Adjustment, Competition, Excuse, Match, ResultReport, Team
from leagues.submissions import once

AUDIT_PAGE_SIZE = 50
QUEUE_LIMIT = 200
"""Most fixtures past their final deadline listed on the work queue (the count is exact)."""


# --------------------------------------------------------------------------- helpers
def match_url(match: Match) -> str:
    """The match page (``leagues:match``), or the competition page while the match page
    does not exist."""
    try:
        return reverse("leagues:match", kwargs={"slug": match.competition.slug, "code": match.code})
    except NoReverseMatch:
        return reverse("leagues:competition", kwargs={"slug": match.competition.slug})


def match_staff_required(permission: P):
    """Decorator for match endpoints ``competitions/<slug>/matches/<code>/…``:
    ``view(request, match)``. The same answers as :func:`leagues.access.season_staff_required`
    for the competition's season; the match is loaded with its competition, season and
    teams. Sets ``request.season_permissions``."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, slug, code, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
            perms = season_permissions(request.user, competition.season)
            if not perms:
                raise Http404("No such competition")
            if permission not in perms:
                raise PermissionDenied
            match = get_object_or_404(
                Match.objects.select_related("home", "away"), competition=competition, code=code
            )
            match.competition = competition
            request.season_permissions = perms
            return view(request, match, *args, **kwargs)

        wrapped.required_permission = permission
        return wrapped

    return decorator


def _input_value(value: datetime | None, zone: ZoneInfo) -> str:
    return timezone.localtime(value, zone).strftime("%Y-%m-%dT%H:%M") if value else ""


def _int_or_none(text):
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


def _nav(season, perms, tab):
    return {"season": season, "season_perms": perms, "tab": tab, "P": P}


# --------------------------------------------------------------------------- work queue
@season_staff_required(P.VIEW_STAFF_PAGES)
def staff_home(request, season):
    """Open result reports (disputed first, then pending, oldest first), excuses waiting
    for staff, fixtures past their final deadline; the teams (for abandonment)."""
    now = timezone.now()
    reports = list(
        ResultReport.objects.filter(
            match__competition__season=season, status__in=sanctions.OPEN_REPORT
        )
        .select_related("match__competition", "match__home", "match__away", "team")
        .annotate(
            disputed_first=Case(
                When(status=ResultReport.Status.DISPUTED, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("disputed_first", "created_at", "id")
    )
    excuses = list(
        Excuse.objects.filter(
            match__competition__season=season, opponent_answer="yes", staff_answer=""
        )
        .select_related("match__competition", "match__home", "match__away", "team")
        .order_by("created_at", "id")
    )
    overdue_rows = Match.objects.filter(
        competition__season=season,
        status=Match.Status.SCHEDULED,
        final_deadline__lt=now,
    )
    overdue = list(
        overdue_rows.select_related("competition", "home", "away").order_by(
            "final_deadline", "competition__position", "round", "id"
        )[: QUEUE_LIMIT + 1]
    )
    overdue_more = len(overdue) > QUEUE_LIMIT
    overdue_count = overdue_rows.count() if overdue_more else len(overdue)
    overdue = overdue[:QUEUE_LIMIT]
    for item in [r.match for r in reports] + [e.match for e in excuses] + overdue:
        item.url = match_url(item)
    for report in reports:  # names typed that are not in the team's squad (docs/leagues.md)
        report.unlisted = squads.unlisted(report.cards, report.lineup)
    teams = list(season.teams.order_by("id"))
    # Fixtures whose lineup or bookings name a suspended footballer (§1.4 ¶3).
    flags = suspensions.suspension_flags(season)
    for flag in flags:
        flag["url"] = reverse(
            "leagues:match", kwargs={"slug": flag["competition"], "code": flag["code"]}
        )
    return render(
        request,
        "leagues/staff_home.html",
        {
            **_nav(season, request.season_permissions, "home"),
            "flags": flags,
            "reports": reports,
            "excuses": excuses,
            "overdue": overdue,
            "overdue_more": overdue_more,
            "overdue_count": overdue_count,
            "teams": teams,
            "zone": season.time_zone,
        },
    )


# --------------------------------------------------------------------------- deadlines
def _matchday_deadlines(competition):
    """``[(round, initial, final, count)]``; ``initial``/``final`` are ``None`` when the
    matchday's fixtures do not share them. One query."""
    days: dict[int, dict] = {}
    for m in competition.matches.order_by("round", "id").values(
        "round", "initial_deadline", "final_deadline"
    ):
        day = days.setdefault(m["round"], {"round": m["round"], "pairs": set(), "count": 0})
        day["pairs"].add((m["initial_deadline"], m["final_deadline"]))
        day["count"] += 1
    result = []
    for day in days.values():
        shared = next(iter(day["pairs"])) if len(day["pairs"]) == 1 else (None, None)
        result.append(
            {
                "round": day["round"],
                "initial": shared[0],
                "final": shared[1],
                "count": day["count"],
                "varies": len(day["pairs"]) > 1,
            }
        )
    return result


@season_staff_required(P.MANAGE_CALENDAR)
@once
def staff_deadlines(request, season):
    """Move a matchday's or a fixture's deadlines (datetime-local inputs in the season's
    time zone); lists the chosen competition's matchdays with their deadlines."""
    zone = ZoneInfo(season.time_zone)
    competitions = list(season.competitions.order_by("position", "id"))
    form = None
    if request.method == "POST":
        form = DeadlinesForm(request.POST, competitions=competitions, zone=zone, season=season)
        picked = form["competition"].value()
    else:
        picked = request.GET.get("competition")
    chosen = next((c for c in competitions if c.slug == picked), None)
    chosen = chosen or (competitions[0] if competitions else None)
    if form is not None:
        if form.is_valid():
            data = form.cleaned_data
            competition = data["competition"]
            try:
                count = sanctions.move_deadlines(
                    competition,
                    request.user,
                    initial=data["initial"],
                    final=data["final"],
                    round=data["round"],
                    match=data["match"],
                    reason=data["reason"],
                )
            except UserError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(
                    request,
                    ngettext(
                        "Deadlines moved for %(n)d fixture.",
                        "Deadlines moved for %(n)d fixtures.",
                        count,
                    )
                    % {"n": count},
                )
                url = reverse("leagues:staff-deadlines", kwargs={"slug": season.slug})
                return redirect(f"{url}?competition={competition.slug}")
    else:
        initial = {"competition": chosen.slug if chosen else None}
        rnd = _int_or_none(request.GET.get("round"))
        code = (request.GET.get("match") or "").strip()
        if chosen and code:
            m = chosen.matches.filter(code=code).first()
            if m:
                initial.update(
                    match=m.code,
                    initial=_input_value(m.initial_deadline, zone),
                    final=_input_value(m.final_deadline, zone),
                )
        elif chosen and rnd:
            m = chosen.matches.filter(round=rnd).order_by("id").first()
            initial["round"] = rnd
            if m:
                initial.update(
                    initial=_input_value(m.initial_deadline, zone),
                    final=_input_value(m.final_deadline, zone),
                )
        form = DeadlinesForm(initial=initial, competitions=competitions, zone=zone)
    return render(
        request,
        "leagues/staff_deadlines.html",
        {
            **_nav(season, request.season_permissions, "deadlines"),
            "form": form,
            "competitions": competitions,
            "chosen": chosen,
            "matchdays": _matchday_deadlines(chosen) if chosen else [],
            "zone": season.time_zone,
        },
        status=400 if form.is_bound else 200,
    )


# --------------------------------------------------------------------------- ledger
@season_staff_required(P.VIEW_STAFF_PAGES)
@once
def staff_adjustments(request, season):
    """The points ledger of every competition; the add form for the tribunal
    (``DECIDE_SANCTIONS``)."""
    perms = request.season_permissions
    can_add = P.DECIDE_SANCTIONS in perms
    competitions = list(season.competitions.order_by("position", "id"))
    teams = list(season.teams.order_by("id"))
    form = None
    if request.method == "POST":
        if not can_add:
            raise PermissionDenied
        form = AdjustmentForm(request.POST, competitions=competitions, teams=teams, season=season)
        if form.is_valid():
            data = form.cleaned_data
            try:
                entry = sanctions.add_adjustment(
                    data["competition"],
                    data["team"],
                    data["points"],
                    data["reason"],
                    request.user,
                    client_id=submissions.client_id(request),
                )
            except UserError as exc:
                form.add_error(None, str(exc))
            else:
                if entry.already_saved:
                    messages.info(request, submissions.ALREADY_SAVED)
                else:
                    messages.success(request, _("Ledger entry added."))
                return redirect("leagues:staff-adjustments", slug=season.slug)
    elif can_add:
        form = AdjustmentForm(competitions=competitions, teams=teams)
    entries = list(
        Adjustment.objects.filter(competition__season=season)
        .select_related("team", "created_by")
        .order_by("competition_id", "id")
    )
    ledgers = []
    for c in competitions:
        rows = [e for e in entries if e.competition_id == c.pk]
        if rows or c.kind != Competition.Kind.KNOCKOUT:
            ledgers.append({"competition": c, "entries": rows, "total": len(rows)})
    return render(
        request,
        "leagues/staff_adjustments.html",
        {**_nav(season, perms, "adjustments"), "ledgers": ledgers, "form": form},
        status=400 if form is not None and form.is_bound else 200,  # refused: as events pages
    )


# --------------------------------------------------------------------------- abandonment
@season_staff_required(P.DECIDE_SANCTIONS)
@once
def staff_abandon(request, season, team):
    """A team abandons (ANFPES T24 §III.4): standing, fixtures annulled or awarded, reason,
    and an explicit confirmation."""
    team = get_object_or_404(Team, season=season, code=team)
    team.season = season
    remaining = list(
        Match.objects.filter(Q(home=team) | Q(away=team), competition__season=season)
        .filter(status=Match.Status.SCHEDULED)
        .select_related("competition", "home", "away")
        .order_by("competition__position", "round", "id")
    )
    errors = []
    values = {"standing": "suspended", "award": "void", "reason": ""}
    if request.method == "POST":
        form = AbandonForm(request.POST)
        values = form.values()
        if not form.is_valid():
            errors = form.all_errors()
        else:
            data = form.cleaned_data
            try:
                result = sanctions.abandon_team(
                    team,
                    request.user,
                    standing=data["standing"],
                    award=data["award"],
                    reason=data["reason"],
                )
            except UserError as exc:
                errors.append(str(exc))
            else:
                messages.success(
                    request,
                    _(
                        "%(team)s: %(standing)s. Fixtures annulled: %(voided)d; "
                        "awarded as walkovers: %(awarded)d."
                    )
                    % {
                        "team": team.name,
                        "standing": team.get_status_display(),
                        "voided": len(result["voided"]),
                        "awarded": len(result["awarded"]),
                    },
                )
                return redirect("leagues:staff-home", slug=season.slug)
    return render(
        request,
        "leagues/staff_abandon.html",
        {
            **_nav(season, request.season_permissions, "home"),
            "team": team,
            "remaining": remaining,
            "errors": errors,
            "values": values,
            "standings": [
                ("suspended", _("Suspended until next season")),
                ("expelled", _("Expelled")),
            ],
        },
        status=400 if errors else 200,  # a refused form is re-rendered, as events pages do
    )


# --------------------------------------------------------------------------- audit log
@season_staff_required(P.VIEW_STAFF_PAGES)
def staff_audit(request, season):
    """The season's audit entries (target ``<season>`` or ``<season>/…``), newest first."""
    rows = (
        AuditLog.objects.filter(Q(target=season.slug) | Q(target__startswith=f"{season.slug}/"))
        .select_related("actor")
        .order_by("-at", "-id")
    )
    page = Paginator(rows, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "leagues/staff_audit.html",
        {**_nav(season, request.season_permissions, "audit"), "page": page},
    )


# --------------------------------------------------------------------------- match sanctions
def _done(request, match, message):
    messages.success(request, message)
    return redirect(match_url(match))


def _failed(request, match, exc):
    """A refused form of the match page: the page again with the error, answered 400."""
    return views_match.refused(request, match, exc)


@match_staff_required(P.RECORD_WALKOVERS)
@require_POST
@once
def match_walkover(request, match):
    """Walkover (``absent``: home/away) or, with ``refusal``, a refusal to play (the
    tribunal's: ``DECIDE_SANCTIONS``, else 403). Needs ``confirm``."""
    form = WalkoverForm(request.POST)
    valid = form.is_valid()
    refusal = form.cleaned_data.get("refusal", False)
    if refusal and P.DECIDE_SANCTIONS not in request.season_permissions:
        raise PermissionDenied
    if not valid:
        return _failed(request, match, form.user_error())
    try:
        sanctions.record_walkover(
            match,
            request.user,
            form.cleaned_data["absent"],
            refusal=refusal,
            reason=form.cleaned_data["reason"],
        )
    except UserError as exc:
        return _failed(request, match, exc)
    if refusal:
        return _done(request, match, _("Refusal to play recorded."))
    return _done(request, match, _("Walkover recorded."))


@match_staff_required(P.DECIDE_SANCTIONS)
@require_POST
@once
def match_void(request, match):
    """Annul the fixture (the tribunal, with a reason)."""
    form = ConfirmedReasonForm(request.POST)
    if not form.is_valid():
        return _failed(request, match, form.user_error())
    try:
        sanctions.void_match(match, request.user, form.cleaned_data["reason"])
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Match annulled."))


@match_staff_required(P.DECIDE_SANCTIONS)
@require_POST
@once
def match_tribunal(request, match):
    """Both absent: the tribunal's score (optional) and deductions for each team. A
    positive number typed in a deduction box is read as that many points off **[choice]**."""
    form = TribunalForm(request.POST)
    if not form.is_valid():
        return _failed(request, match, form.user_error())
    data = form.cleaned_data
    try:
        sanctions.tribunal_decision(
            match,
            request.user,
            home_goals=data["home_goals"],
            away_goals=data["away_goals"],
            deductions={match.home: data["home_deduction"], match.away: data["away_deduction"]},
            reason=data["reason"],
        )
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Tribunal decision recorded."))


# --------------------------------------------------------------------------- §V incidents
def _incident_message(done) -> str:
    """A translated sentence for what :func:`leagues.sanctions.record_incident` did."""
    m, action = done.match, done.outcome.action
    if action == "replay":
        return _("Incident recorded: match %(code)s is annulled and replayed as %(replay)s.") % {
            "code": m.code,
            "replay": done.replay.code,
        }
    if action == "walkover":
        return _("Incident recorded: snow again — walkover, 1–0 to %(team)s.") % {
            "team": m.away.name
        }
    if action == "continue_later":
        return _(
            "Incident recorded: the score is kept and the rest of the match is played later; "
            "the match stays to play."
        )
    return _("Incident recorded: the result is %(home)s %(hg)d–%(ag)d %(away)s.") % {
        "home": m.home.name,
        "away": m.away.name,
        "hg": m.home_goals,
        "ag": m.away_goals,
    }


@match_staff_required(P.DECIDE_SANCTIONS)
@require_POST
@once
def match_incident(request, match):
    """Record a §V incident (the tribunal): ``kind`` snow / disconnection (``period``;
    after the first half ``agreement`` later/final and the score) / five_reds
    (``reduced`` home/away and the score), a ``reason`` and ``confirm``. A replay leads to
    the new fixture's page."""
    form = IncidentForm(request.POST)
    if not form.is_valid():
        return _failed(request, match, form.user_error())
    try:
        done = sanctions.record_incident(
            match,
            request.user,
            form.cleaned_data["kind"],
            reason=form.cleaned_data["reason"],
            **form.details(),
        )
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, done.replay or done.match, _incident_message(done))


@match_staff_required(P.MANAGE_CALENDAR)
@require_POST
@once
def match_must_stream(request, match):
    """Require (``required=1``) or stop requiring (``required=0``) the broadcast of a
    regular-phase fixture; optional ``reason``."""
    form = MustStreamForm(request.POST)
    if not form.is_valid():
        return _failed(request, match, form.user_error())
    required = form.cleaned_data["required"]
    try:
        broadcast.set_must_stream(match, request.user, required, reason=form.cleaned_data["reason"])
    except UserError as exc:
        return _failed(request, match, exc)
    if required:
        return _done(request, match, _("Broadcast required for this match."))
    return _done(request, match, _("The broadcast is no longer required for this match."))


@match_staff_required(P.VIEW_STAFF_PAGES)
@require_POST
@once
def match_replay_unstreamed(request, match):
    """League staff or the tribunal order a match played without its required stream link
    replayed (:func:`leagues.broadcast.replay_unstreamed`): ``reason`` and ``confirm``."""
    form = ConfirmedReasonForm(request.POST)
    if not form.is_valid():
        return _failed(request, match, form.user_error())
    try:
        broadcast.replay_unstreamed(match, request.user, reason=form.cleaned_data["reason"])
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("The match is to be played again."))


@match_staff_required(P.VIEW_STAFF_PAGES)
@require_POST
@once
def match_stream_link(request, match):
    """League staff or the tribunal add the stream link of a match played without it
    (:func:`leagues.broadcast.set_stream_link`): ``stream_url`` and ``reason``."""
    form = StreamLinkForm(request.POST)
    if not form.is_valid():
        return _failed(request, match, form.user_error())
    try:
        broadcast.set_stream_link(
            match,
            request.user,
            form.cleaned_data["stream_url"],
            reason=form.cleaned_data["reason"],
        )
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Stream link saved: the match counts."))
