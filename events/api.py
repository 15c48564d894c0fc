"""JSON API v1 of events (``docs/contracts.md``: standings, sheet check, deck check, penalty
calculator)."""

import json
from decimal import Decimal, InvalidOperation

from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from events import cache as page_cache
from events import deck_rules
from events.access import user_permissions
from events.forms_rankings import RankingQueryForm
from events.models import Event
from events.security import deck_check_allowed
from standings import rating_services, vekn
from standings.services import event_standings, standings_document


def _error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_GET
def standings(request, slug):
    """``GET /api/v1/events/<slug>/standings`` — public once published, staff always
    (docs/contracts.md §2). Unpublished → 404 for the public, so nothing leaks. Anyone
    without a staff permission on the event gets the public document, whose penalties are
    only the final ones that change the standings (``penalties.services.public_penalties``
    **[choice]**), cached like the public pages; staff (and ``manage.py standings --json``)
    get every penalty — cautions, warnings, pending ones, those under appeal — never from
    nor into the cache. Same keys either way."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        return _error(404, "no such event")
    staff = bool(user_permissions(request.user, event))
    if not event.standings_published and not staff:
        return _error(404, "standings are not published")
    if staff:
        return JsonResponse(standings_document(event_standings(event)))
    # The public document is cached like the public pages (invalidated on every change).
    key = page_cache.page_key(event, "api-standings", "")

    def build() -> bytes:
        return JsonResponse(standings_document(event_standings(event), public=True)).content

    body = page_cache.get_or_build(key, build)
    return HttpResponse(body, content_type="application/json")


@require_GET
def rankings(request):
    """``GET /api/v1/rankings?category=constructed&online=false&as_of=2026-12-01``
    (optional ``&organisation=<slug>``) — one VEKN ranking (TR Appendix A; docs/contracts.md
    §9). Public, no authentication; a bad parameter → 400 ``{"error": …}``. Five queries
    whatever the number of events once their rating points are stored
    (``standings.rating_services.refresh``)."""
    form = RankingQueryForm(request.GET)
    if not form.is_valid():
        return _error(400, form.first_error())
    data = form.cleaned_data
    return JsonResponse(
        rating_services.ranking_document(
            data["category"], data["online"], data["as_of"], organisation=data["organisation"]
        )
    )


@csrf_exempt
@require_POST
def check_table(request):
    """``POST /api/v1/vekn/check-table`` — body ``{"vp": [1.5, 0, 0.5, 0.5]}`` (seat order;
    ``null`` for a seat not entered yet) → ``{"valid", "complete", "reason"}`` (``docs/contracts.md``
    "Check a result sheet"; TR §3.7.2). No authentication, no database."""
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _error(400, "the body is not JSON")
    if not isinstance(body, dict) or not isinstance(body.get("vp"), list):
        return _error(400, 'the body must be an object with a "vp" list')
    vps = []
    for i, value in enumerate(body["vp"], start=1):
        if value is None:
            vps.append(None)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            return _error(400, f"seat {i}: not a number")
        try:
            vp = Decimal(str(value))
        except InvalidOperation:
            return _error(400, f"seat {i}: not a number")
        if not vp.is_finite() or abs(vp.adjusted()) > 6:
            return _error(400, f"seat {i}: not a number of victory points")
        vps.append(vp)
    check = vekn.check_sheet(vps)
    return JsonResponse(
        {
            "valid": check.valid,
            "complete": check.complete,
            "reason": None if check.reason is None else str(check.reason),
        }
    )


def deck_check_document(check: deck_rules.DeckCheck) -> dict:
    """A :class:`~events.deck_rules.DeckCheck` as docs/contracts.md §8's JSON: ``valid``,
    ``crypt_count``, ``library_count``, ``cards`` (``id``, ``name``, ``count``,
    ``section``) and ``problems`` (``code``, ``card``, ``message``; ``suggestions`` on
    ``unknown_card``)."""
    problems = []
    for problem in check.problems:
        item = {"code": problem.code, "card": problem.card, "message": problem.message}
        if problem.code == "unknown_card":
            item["suggestions"] = list(problem.suggestions)
        problems.append(item)
    return {
        "valid": check.valid,
        "crypt_count": check.crypt_count,
        "library_count": check.library_count,
        "cards": [
            {"id": card.id, "name": card.name, "count": card.count, "section": card.section}
            for card in check.cards
        ],
        "problems": problems,
    }


@csrf_exempt
@require_POST
def check_deck(request):
    """``POST /api/v1/vekn/check-deck`` — body ``{"deck": "<decklist text>", "format":
    "standard" | "v5" | "limited", "sets": [...]}`` (``format`` defaults to ``standard``,
    ``sets`` optional) → :func:`deck_check_document` (docs/contracts.md §8, docs/decks.md;
    TR §4.1.1, §6.1.1, §6.2, §6.4, §7.2.1). Public, no database, writes nothing. A body that
    is not such an object, an empty or unreadable decklist, an unknown format or set → 400
    ``{"error": message}``; more than ``DECK_CHECK_LIMIT_PER_MINUTE`` checks a minute from
    one address → 429."""
    if not deck_check_allowed(request):
        return _error(429, "too many deck checks from this address: wait a minute")
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _error(400, "the body is not JSON")
    if not isinstance(body, dict) or not isinstance(body.get("deck"), str):
        return _error(400, 'the body must be an object with a "deck" text')
    game_format = body.get("format", "standard")
    if not isinstance(game_format, str):
        return _error(400, '"format" must be one of ' + ", ".join(deck_rules.GAME_FORMATS))
    sets = body.get("sets") or []
    if not isinstance(sets, list) or not all(isinstance(name, str) for name in sets):
        return _error(400, '"sets" must be a list of set names')
    if len(sets) > 100:
        return _error(400, '"sets" lists more than 100 sets')
    try:
        check = deck_rules.check_deck(body["deck"], game_format, tuple(sets))
    except deck_rules.DeckTextError as error:
        return _error(400, str(error))
    return JsonResponse(deck_check_document(check))
