"""JSON API of the penalty calculator: ``POST /api/v1/rulesets/<ruleset>/penalty``
(docs/contracts.md §4). Public, no authentication, no database: it answers what the rules give.

Wired in ``config/urls.py`` as
``path("api/v1/rulesets/<str:ruleset>/penalty", penalties.api.penalty, name="api-penalty")``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.http import JsonResponse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from penalties import myl_rules, vekn_guide


class BadRequest(ValueError):
    """The body is malformed; the message says where (answered with 400)."""


def _error(status: int, message: str, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def _penalty_list(
    body: dict, key: str, ruleset: Any, prior: Callable = vekn_guide.PriorPenalty
) -> list:
    """``history`` / ``prior_events``: a list of ``{"infraction": code, "level": level}``
    objects (optional ``"linked": bool``; other keys ignored). Absent or null → empty.
    ``prior`` builds one entry from ``(code, level, linked)`` (the ruleset's own
    ``PriorPenalty``)."""
    value = body.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadRequest(f'"{key}" must be a list of {{"infraction", "level"}} objects')
    penalties = []
    for n, item in enumerate(value):
        where = f"{key}[{n}]"
        if not isinstance(item, dict):
            raise BadRequest(f'{where} must be an object with "infraction" and "level"')
        code = item.get("infraction")
        if not isinstance(code, str):
            raise BadRequest(f'{where}.infraction must be an infraction code such as "3.7"')
        if code not in ruleset.catalogue:
            raise BadRequest(f"{where}.infraction: unknown infraction {code!r}")
        level = item.get("level")
        if not isinstance(level, str) or level not in ruleset.levels:
            allowed = ", ".join(str(level) for level in ruleset.levels)
            raise BadRequest(f"{where}.level must be one of: {allowed}")
        linked = item.get("linked", False)
        if not isinstance(linked, bool):
            raise BadRequest(f"{where}.linked must be true or false")
        penalties.append(prior(code, level, linked))
    return penalties


def _vekn(body: dict, ruleset: vekn_guide.Ruleset) -> JsonResponse:
    code = body.get("infraction")
    if not isinstance(code, str):
        raise BadRequest('"infraction" must be an infraction code such as "3.7"')
    try:
        infraction = ruleset.infraction(code)
    except vekn_guide.UnknownInfraction as error:
        return _error(404, str(error))
    conditions = body.get("conditions")
    if conditions is None:
        conditions = {}
    if not isinstance(conditions, dict):
        raise BadRequest(
            '"conditions" must be an object of yes/no answers, e.g. {"pattern": false}'
        )
    history = _penalty_list(body, "history", ruleset)
    prior_events = _penalty_list(body, "prior_events", ruleset)
    try:
        assessment = vekn_guide.assess(ruleset, infraction.code, conditions, history, prior_events)
    except vekn_guide.ConditionError as error:
        return _error(400, str(error), condition=error.condition)
    return JsonResponse(assessment.as_json())


def _myl(body: dict, ruleset: myl_rules.Ruleset) -> JsonResponse:
    """Mitos y Leyendas (MyL conduct §2.1–§3.4.3; docs/rules-myl-penalties.md
    "How a penalty is proposed"): ``history`` and ``prior_events`` both count towards a repeat;
    ``alternatives`` / ``also`` are MyL level codes."""
    code = body.get("infraction")
    if not isinstance(code, str):
        raise BadRequest('"infraction" must be an infraction code such as "2.1"')
    try:
        infraction = ruleset.infraction(code)
    except myl_rules.UnknownInfraction as error:
        return _error(404, str(error))
    conditions = body.get("conditions")
    if conditions is None:
        conditions = {}
    if not isinstance(conditions, dict):
        raise BadRequest(
            '"conditions" must be an object of yes/no answers, e.g. {"intentional": false}'
        )
    history = _penalty_list(body, "history", ruleset, myl_rules.PriorPenalty)
    prior_events = _penalty_list(body, "prior_events", ruleset, myl_rules.PriorPenalty)
    try:
        assessment = myl_rules.assess(
            infraction.code, conditions, history, prior_events, ruleset=ruleset
        )
    except myl_rules.ConditionError as error:
        return _error(400, str(error), condition=error.condition)
    return JsonResponse(assessment.as_json())


# Ruleset code → (its rules, the function answering for it).
ENGINES: dict[str, tuple[Any, Callable[[dict, Any], JsonResponse]]] = {
    **{code: (ruleset, _vekn) for code, ruleset in vekn_guide.RULESETS.items()},
    **{code: (ruleset, _myl) for code, ruleset in myl_rules.RULESETS.items()},
}


@csrf_exempt
@require_POST
def penalty(request, ruleset):
    """``POST /api/v1/rulesets/<ruleset>/penalty`` (docs/contracts.md §4; JG §1.2.1 for ``vekn``,
    MyL conduct §2.1–§3.4.3; docs/rules-myl-penalties.md "How a penalty is proposed" for ``myl``).

    Body: ``{"infraction": "3.7", "conditions": {"pattern": false}, "history": [{"infraction":
    "3.7", "level": "warning"}], "prior_events": [...]}`` — ``conditions``, ``history``
    (this event, in order) and ``prior_events`` (earlier events) are optional; history
    entries may carry ``"linked": true`` (recorded as linked, not counted).

    200 → ``{"level", "offence", "baseline", "explanation", "source", "context",
    "alternatives", "also"}``. Errors are ``{"error": message}``: 404 for an unknown
    ruleset or infraction; 400 for a malformed body (not JSON, not an object, wrong types,
    unknown levels or codes in the lists) and for a missing, unknown or non-boolean
    condition (the body then also has ``"condition": name``); 405 for any method but POST.

    The answer is always in English (the docs/contracts.md §4 texts), whatever the request's
    language: the engines' texts are translatable for the judges' pages, so the API computes
    under ``translation.override("en")``.
    """
    with translation.override("en"):
        return _penalty(request, ruleset)


def _penalty(request, ruleset) -> JsonResponse:
    engine = ENGINES.get(ruleset)
    if engine is None:
        return _error(404, f"unknown ruleset {ruleset!r}")
    rules, answer = engine
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError):
        return _error(400, "the body is not JSON")
    if not isinstance(body, dict):
        return _error(400, 'the body must be a JSON object with an "infraction"')
    try:
        return answer(body, rules)
    except BadRequest as error:
        return _error(400, str(error))
