"""Public league pages (CONTRACTS §7: ``/seasons/<slug>/``, ``/competitions/<slug>/``)
and the signed-in player's own fixtures (page and iCalendar feed).

Views are thin: look the object up (404 when unknown), call :mod:`leagues.services` for the
table, load the fixtures in one query, render. Public pages are not cached yet: a season
has no version counter to key a cache on (see ``docs/leagues.md``).
"""

from itertools import groupby
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.db.models import F, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues import ical, services
from leagues.models import Competition, Match, Season
from leagues.tables import LeagueTable, tie_breaker_label


def season_page(request, slug):
    season = get_object_or_404(Season, slug=slug)
    competitions = list(season.competitions.order_by("position", "id"))
    return render(request, "leagues/season.html", {"season": season, "competitions": competitions})


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


def competition_page(request, slug):
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
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
            tables.append(
                {
                    "group": name,
                    "table": LeagueTable.from_document(group_doc, request=request),
                    "unresolved": [
                        {**tie, "names": [names[t] for t in tie["teams"]]}
                        for tie in group_doc.get("unresolved", [])
                    ],
                }
            )
    return render(
        request,
        "leagues/competition.html",
        {
            "competition": competition,
            "season": competition.season,
            "tables": tables,
            "tie_breakers": tie_breakers,
            "matchdays": _matchdays(competition),
        },
    )


def _pending_fixtures(user):
    """The user's teams' fixtures still to play, soonest final deadline first."""
    return list(
        Match.objects.filter(Q(home__user=user) | Q(away__user=user))
        .filter(status=Match.Status.SCHEDULED)
        .select_related("competition__season", "home", "away")
        .order_by(F("final_deadline").asc(nulls_last=True), "competition__position", "round", "id")
    )


@login_required
def my_fixtures(request):
    teams = list(request.user.league_teams.select_related("season").order_by("season", "id"))
    return render(
        request,
        "leagues/my_fixtures.html",
        {"teams": teams, "fixtures": _pending_fixtures(request.user)},
    )


@login_required
def my_fixtures_ics(request):
    """iCalendar feed: one event per pending fixture at its final deadline."""
    events = []
    for m in _pending_fixtures(request.user):
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
