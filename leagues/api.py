"""JSON API v1 of leagues (docs/contracts.md §6): public read-only documents, no authentication.

Views are thin: look the object up (404 ``{"error"}`` when it does not exist), call the
service, return its document. Unknown slugs and knockouts (no table) answer 404.
"""

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from leagues import brackets, drafting, services, suspensions
from leagues.models import Competition, Season
from leagues.rules.errors import LeagueRuleError


def _error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_GET
def competition_table(request, slug):
    """``GET /api/v1/competitions/<slug>/table`` — the table (docs/contracts.md §6); a group stage
    gives one table per group under ``"groups"``."""
    competition = Competition.objects.filter(slug=slug).first()
    if competition is None:
        return _error(404, "no such competition")
    try:
        return JsonResponse(services.competition_table(competition))
    except LeagueRuleError as exc:
        return _error(404, str(exc))


@require_GET
def season_compliance(request, slug):
    """``GET /api/v1/seasons/<slug>/compliance`` — the compliance table as of now
    (docs/contracts.md §6, ANFPES T24 §IV; docs/leagues.md "Compliance table"), with display names,
    never login usernames (``public=True``)."""
    season = Season.objects.filter(slug=slug).first()
    if season is None:
        return _error(404, "no such season")
    return JsonResponse(services.season_compliance(season, public=True))


@require_GET
def season_draft_order(request, slug):
    """``GET /api/v1/seasons/<slug>/draft-order`` — the next season's draft order with the
    rule that placed each team and the recorded draw by lot (docs/contracts.md §6, ANFPES T24
    §III.4, §IV.8; docs/leagues.md "Draft order";
    :func:`leagues.drafting.draft_order_document`)."""

    season = Season.objects.filter(slug=slug).first()
    if season is None:
        return _error(404, "no such season")
    return JsonResponse(drafting.draft_order_document(season))


@require_GET
def competition_bracket(request, slug):
    """``GET /api/v1/competitions/<slug>/bracket`` — the bracket of a knockout: ties with
    their legs, aggregate, third match and winner, and what each slot is fed from
    (docs/contracts.md §6; :func:`leagues.brackets.competition_bracket`). 404 for an unknown slug or
    a competition that is not a knockout."""

    competition = Competition.objects.select_related("season").filter(slug=slug).first()
    if competition is None:
        return _error(404, "no such competition")
    if competition.kind != Competition.Kind.KNOCKOUT:
        return _error(404, f"competition {slug} is not a knockout: it has no bracket")
    return JsonResponse(brackets.competition_bracket(competition))


@require_GET
def season_suspensions(request, slug):
    """``GET /api/v1/seasons/<slug>/suspensions`` — footballers suspended for their team's
    next final-phase match, with the cards that caused it (docs/contracts.md §6;
    :func:`leagues.suspensions.season_suspensions`)."""

    season = Season.objects.filter(slug=slug).first()
    if season is None:
        return _error(404, "no such season")
    return JsonResponse(suspensions.season_suspensions(season))
