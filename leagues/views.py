"""Public league pages (docs/contracts.md §7: ``/seasons/<slug>/``, ``/competitions/<slug>/``)
and the signed-in player's own fixtures (page and iCalendar feed).

Views are thin: look the object up (404 when unknown), call :mod:`leagues.services` for the
table, load the fixtures in one query, render. Public pages are not cached yet: a season
has no version counter to key a cache on (see ``docs/leagues.md``).
"""

from itertools import groupby
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import Case, F, OuterRef, Q, Subquery, Value, When
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.errors import UserError
from leagues import brackets, ical, labels, phases, services, staff_decisions, suspensions
from leagues.access import LeaguePermission, season_permissions
from leagues.forms_staff import CloseRegularPhaseForm, TeamOrderForm
from leagues.models import Competition, Match, ResultReport, Season, TimeProposal
from leagues.submissions import once
from leagues.tables import LeagueTable, tie_breaker_label


def season_page(request, slug):

    season = get_object_or_404(Season, slug=slug)
    competitions = list(season.competitions.order_by("position", "id"))
    divisions = phases.season_next_divisions(season, competitions)
    if divisions is not None:
        # The rules' English texts, translated for the page (the document stays as is).
        divisions = {
            **divisions,
            "moves": [{**m, "reason": labels.move_label(m["reason"])} for m in divisions["moves"]],
            "stays": [
                {**m, "reason": labels.move_label(m["reason"])} for m in divisions.get("stays", [])
            ],
            "pending": [labels.pending_label(p) for p in divisions["pending"]],
        }
    return render(
        request,
        "leagues/season.html",
        {
            "season": season,
            "competitions": competitions,
            "next_divisions": divisions,
            "is_staff": bool(season_permissions(request.user, season)),
        },
    )


def _matchdays(competition):
    """Fixtures by matchday: ``(round, matches, deadlines)`` where ``deadlines`` is the
    matchday's ``(initial, final)`` when all its fixtures share them, else ``None`` (each
    fixture then shows its own). One query."""
    matches = list(
        competition.matches.select_related("home", "away").order_by("round", "group", "tie", "id")
    )
    days = []
    for number, rows in groupby(matches, key=lambda m: m.round):
        rows = list(rows)
        shared = {(m.initial_deadline, m.final_deadline) for m in rows}
        deadlines = shared.pop() if len(shared) == 1 else None
        if deadlines == (None, None):
            deadlines = None
        days.append(
            {
                "round": number,
                "matches": rows,
                "deadlines": deadlines,
                "pending": any(m.status == Match.Status.SCHEDULED for m in rows),
            }
        )
    # Open the first matchday with fixtures still to play (else the last one).
    current = next((d for d in days if d["pending"]), days[-1] if days else None)
    if current is not None:
        current["open"] = True
    return days


def competition_refused(request, slug, exc: UserError):
    """The competition page again with ``exc`` shown, answered 400: a staff form of the
    page (a tie decision, closing a phase or a stage) refused, as the events pages answer
    an invalid form."""
    messages.error(request, str(exc))
    return competition_page(request, slug, status=400)


def competition_page(request, slug, *, status=200):
    """Table(s) and fixtures. While fixtures remain to be played, teams level on every
    tie-breaker are simply level: the "staff decision required" flag appears once the
    phase is over (the API always lists them under ``unresolved_ties``) **[choice]**."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    matchdays = _matchdays(competition)
    closed = bool(matchdays) and not any(day["pending"] for day in matchdays)
    tables, tie_breakers = [], []
    if competition.kind != Competition.Kind.KNOCKOUT:
        doc = services.competition_table(competition)
        tie_breakers = [tie_breaker_label(code) for code in doc["tie_breakers"]]
        if "groups" in doc:
            groups = doc["groups"].items()
        else:
            groups = [("", doc)]
        for name, group_doc in groups:
            names = {row["team"]: row["name"] for row in group_doc["rows"]}
            if not closed:
                group_doc = {
                    **group_doc,
                    "unresolved": [
                        tie
                        for tie in group_doc.get("unresolved", [])
                        if tie["reason"] != "decision_required"
                    ],
                }
            tables.append(
                {
                    "group": name,
                    "table": LeagueTable.from_document(group_doc, request=request),
                    "unresolved": [
                        {**tie, "members": [(t, names[t]) for t in tie["teams"]]}
                        for tie in group_doc.get("unresolved", [])
                    ],
                }
            )
    bracket = None
    if competition.kind == Competition.Kind.KNOCKOUT:
        doc = brackets.competition_bracket(competition)
        bracket = {"doc": doc, "stages": brackets.bracket_display(doc)}
    perms = season_permissions(request.user, competition.season)
    return render(
        request,
        "leagues/competition.html",
        {
            "bracket": bracket,
            "can_decide": LeaguePermission.REVIEW_RESULTS in perms,
            "can_close": LeaguePermission.REVIEW_RESULTS in perms
            and closed
            and competition.kind == Competition.Kind.LEAGUE,
            "can_advance": LeaguePermission.REVIEW_RESULTS in perms and bracket is not None,
            "competition": competition,
            "group_knockouts": staff_decisions.knockouts(competition)
            if competition.kind == "groups"
            else [],
            "season": competition.season,
            "tables": tables,
            "tie_breakers": tie_breakers,
            "matchdays": matchdays,
        },
        status=status,
    )


def suspensions_page(request, slug):
    """Footballers suspended for their team's next final-phase match, with the cards that
    caused it, and the suspensions already served (:func:`leagues.suspensions.season_suspensions`,
    ANFPES T24 §1.4, §2.2)."""

    season = get_object_or_404(Season, slug=slug)
    doc = suspensions.season_suspensions(season)
    for item in doc["suspensions"] + doc["flags"]:
        ref = item.get("next_match") or item.get("match")
        if ref:
            slug_, code = ref.split("/", 1)
            item["url"] = reverse("leagues:match", kwargs={"slug": slug_, "code": code})
    return render(request, "leagues/suspensions.html", {"season": season, "doc": doc})


def _pending_fixtures(user):
    """The user's teams' fixtures still to play — final-phase legs (knockouts) first
    (issue 14: they decide ties), then soonest final deadline first — each with
    ``open_report_by``: the team id of an open result report, if any. One query."""
    open_report = ResultReport.objects.filter(
        match=OuterRef("pk"), status__in=["pending", "disputed"]
    ).values("team_id")[:1]
    # The agreed time of the fixture (docs/leagues.md "Scheduling a fixture").
    agreed = TimeProposal.objects.filter(
        match=OuterRef("pk"), status=TimeProposal.Status.ACCEPTED
    ).values("starts_at")[:1]
    return list(
        Match.objects.filter(Q(home__user=user) | Q(away__user=user))
        .filter(status=Match.Status.SCHEDULED)
        .annotate(open_report_by=Subquery(open_report))
        .annotate(agreed_at=Subquery(agreed))
        .select_related("competition__season", "home", "away")
        .annotate(
            final_phase=Case(
                When(competition__kind=Competition.Kind.KNOCKOUT, then=Value(0)),
                default=Value(1),
            )
        )
        .order_by(
            "final_phase",
            F("final_deadline").asc(nulls_last=True),
            "competition__position",
            "round",
            "id",
        )
    )


@login_required
def my_fixtures(request):
    teams = list(request.user.league_teams.select_related("season").order_by("season", "id"))
    feed = request.build_absolute_uri(
        reverse("leagues:fixtures-feed", kwargs={"token": feed_token(request.user)})
    )
    return render(
        request,
        "leagues/my_fixtures.html",
        {
            "teams": teams,
            "fixtures": _pending_fixtures(request.user),
            "recent": list(
                Match.objects.filter(Q(home__user=request.user) | Q(away__user=request.user))
                .exclude(status=Match.Status.SCHEDULED)
                .select_related("competition", "home", "away")
                .order_by(F("reported_at").desc(nulls_last=True), "-id")[:10]
            ),
            "feed_url": feed,
        },
    )


FEED_SALT = "leagues.fixtures-feed"


def feed_token(user) -> str:
    """The secret token of ``user``'s calendar feed: the user id signed with the site's
    ``SECRET_KEY`` (``django.core.signing``), so a calendar app can fetch the feed
    without a session. Changing ``SECRET_KEY`` revokes every token."""
    return signing.Signer(salt=FEED_SALT).sign(str(user.pk))


@login_required
def my_fixtures_ics(request):
    """iCalendar feed of the signed-in user: one event per pending fixture at its final
    deadline."""
    return _calendar(request, request.user)


def fixtures_feed(request, token):
    """The same feed for calendar apps, by secret token (:func:`feed_token`); 404 for a
    token that does not verify."""
    try:
        pk = signing.Signer(salt=FEED_SALT).unsign(token)
    except signing.BadSignature:
        raise Http404("No such feed") from None
    user = get_object_or_404(get_user_model(), pk=pk, is_active=True)
    return _calendar(request, user)


def _calendar(request, user):
    events = []
    for m in _pending_fixtures(user):
        match_url = request.build_absolute_uri(
            reverse("leagues:match", kwargs={"slug": m.competition.slug, "code": m.code})
        )
        if m.agreed_at is not None:
            # The time both players agreed (docs/leagues.md "Scheduling a fixture").
            events.append(
                {
                    "uid": f"{m.competition.slug}-{m.code}-agreed",
                    "start": m.agreed_at,
                    "summary": _("Match: %(home)s – %(away)s")
                    % {"home": m.home.name, "away": m.away.name},
                    "description": _("%(competition)s, matchday %(round)s: the agreed time.")
                    % {"competition": m.competition.name, "round": m.round},
                    "url": match_url,
                }
            )
        if m.final_deadline is None:
            continue
        zone = m.competition.season.time_zone
        description = _("%(competition)s, matchday %(round)s.") % {
            "competition": m.competition.name,
            "round": m.round,
        }
        if m.initial_deadline:
            initial = timezone.localtime(m.initial_deadline, timezone=ZoneInfo(zone))
            description += " " + _("Initial deadline: %(when)s (%(zone)s).") % {
                "when": initial.strftime("%Y-%m-%d %H:%M"),
                "zone": zone,
            }
        events.append(
            {
                "uid": f"{m.competition.slug}-{m.code}",
                "start": m.final_deadline,
                "summary": _("Final deadline: %(home)s – %(away)s")
                % {"home": m.home.name, "away": m.away.name},
                "description": description,
                "url": request.build_absolute_uri(
                    reverse("leagues:competition", kwargs={"slug": m.competition.slug})
                ),
            }
        )
    text = ical.calendar(events, name=_("My fixtures"), domain=request.get_host().split(":")[0])
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="fixtures.ics"'
    return response


@login_required
@require_POST
@once
def decide_tie(request, slug):
    """League staff order the teams of an unresolved tie (or record a decider match)."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    form = TeamOrderForm(request.POST)
    try:
        if not form.is_valid():
            raise form.user_error()
        services.decide_tie(
            competition, request.user, form.cleaned_data["order"], form.cleaned_data["reason"]
        )
    except UserError as exc:
        return competition_refused(request, slug, exc)
    messages.success(request, _("Order saved."))
    return redirect(reverse("leagues:competition", kwargs={"slug": slug}) + "#table")


@login_required
@require_POST
@once
def close_regular_phase(request, slug):
    """League staff close Primera A's regular phase: the playoffs are created from the
    final table (:func:`leagues.phases.close_regular_phase`). Needs a confirmation."""

    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    form = CloseRegularPhaseForm(request.POST)
    try:
        if not form.is_valid():
            raise form.user_error()
        playoffs = phases.close_regular_phase(
            competition, request.user, final_four=form.cleaned_data["final_four"]
        )
    except UserError as exc:
        return competition_refused(request, slug, exc)
    messages.success(request, _("Regular phase closed: the playoffs are ready."))
    return redirect(reverse("leagues:competition", kwargs={"slug": playoffs.slug}))
