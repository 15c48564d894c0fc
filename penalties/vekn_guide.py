"""VEKN penalty rules: the judges' guide catalogue and its escalation engine.

The source is the VTES *Tournament Conduct & Infraction Guide* ("JG"), English version
(``shared/rules/vtes-judges-guide.en.md``), which the guide itself declares definitive
over its Spanish translation; ``docs/rules-vekn-penalties.md`` restates for users what the
product computes from it. Every rule below cites its JG section. Where the guide left a
choice to us, the docstring says **[choice]**; :data:`CHOICES` (also ``VEKN_V2.choices``)
lists them all for the ruleset's page.

This module holds the registry (:data:`VEKN_V2`, :data:`RULESETS`) and the engine; it
re-exports, so importers keep using it, the vocabulary of :mod:`penalties.vekn_terms`
(levels, catalogue types, errors), the data of :mod:`penalties.vekn_catalogue` and the SA
timing and time extensions of :mod:`penalties.vekn_timing`.

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out. The
penalties adapter loads the person's earlier penalties, calls :func:`assess` (or
:func:`assess_incidents` for a whole event file) and saves the result.

Public API (shapes in each docstring):

- Levels: :class:`Level` (stored codes ``caution``, ``warning``, ``standings_adjustment``,
  ``disqualification`` — never renamed), :data:`LEVELS`, :data:`LADDER`, :func:`ladder_level`.
- Catalogue: :class:`Infraction`, :class:`Condition`, :class:`Category`,
  :class:`Escalation`, :class:`EthicsReport`, :class:`OrganisationalCase`.
- Rulesets: :class:`Ruleset`, :data:`VEKN_V2`, :data:`RULESETS`, :func:`get_ruleset`.
- Engine: :class:`PriorPenalty`, :class:`Assessment`, :func:`assess`, :func:`deviate`,
  :class:`Incident`, :func:`assess_incidents`.
- Helpers: :func:`adjustment_target` (JG §1.1.3: which game an SA hits) and
  :func:`suggest_time_extension` (JG §1.2.4).
- Errors: :class:`UnknownRuleset`, :class:`UnknownInfraction` (``KeyError``);
  :class:`MissingCondition`, :class:`UnknownCondition`, :class:`InvalidCondition`
  (``ConditionError``, a ``ValueError``); :class:`InvalidIncident` (``ValueError``).

Texts: names and questions are given in English and Spanish fields (``name`` /
``name_es``, ``question`` / ``question_es``; the UI shows both); definitions, corrective
actions, notes, level effects and explanations are short English texts in our own words,
not copies of the guide, marked for translation (``_()``, i.e. :class:`Translatable`, for
the catalogue; ``gettext`` with named placeholders for composed explanations), so they read
in the active language (Spanish catalogue: ``locale/es``). Spanish level names map *crosswise*:
Advertencia = Caution (verbal), Amonestación = Warning (recorded). The public JSON API
answers in English (:mod:`penalties.api` computes under ``translation.override("en")``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from django.utils.translation import gettext

from penalties.vekn_catalogue import _INFRACTIONS, _ORGANISATIONAL, CHOICES
from penalties.vekn_terms import (
    GUIDE,
    LADDER,
    LEVELS,
    RECORDED_LEVELS,
    REMOVAL,
    Category,
    Condition,
    ConditionEffect,
    ConditionError,
    Escalation,
    EthicsReport,
    Infraction,
    InvalidCondition,
    InvalidIncident,
    Level,
    LevelInfo,
    MissingCondition,
    OrganisationalCase,
    Ruleset,
    Translatable,
    UnknownCondition,
    UnknownInfraction,
    UnknownRuleset,
    _ladder_text,
    _name,
    _spanish,
    ladder_from,
    ladder_level,
    level_text,
    validate_answers,
)
from penalties.vekn_timing import (
    EXTENSION_CAP,
    AdjustmentIssue,
    AdjustmentTarget,
    ExtensionRequest,
    ExtensionSuggestion,
    Timing,
    adjustment_target,
    suggest_time_extension,
)

# Re-exported: importers use this module; the vocabulary lives in penalties.vekn_terms,
# the catalogue in penalties.vekn_catalogue, SA timing and time extensions in
# penalties.vekn_timing.
__all__ = [
    "CHOICES",
    "EXTENSION_CAP",
    "GUIDE",
    "LADDER",
    "LEVELS",
    "PRE_EXISTING_WARNING",
    "RECORDED_LEVELS",
    "REMOVAL",
    "RULESETS",
    "RULESET_VERSIONS",
    "VEKN_V2",
    "AdjustmentIssue",
    "AdjustmentTarget",
    "Assessment",
    "Category",
    "Condition",
    "ConditionEffect",
    "ConditionError",
    "Escalation",
    "EthicsReport",
    "ExtensionRequest",
    "ExtensionSuggestion",
    "Incident",
    "Infraction",
    "InvalidCondition",
    "InvalidIncident",
    "Level",
    "LevelInfo",
    "MissingCondition",
    "OrganisationalCase",
    "PriorPenalty",
    "Ruleset",
    "Timing",
    "Translatable",
    "UnknownCondition",
    "UnknownInfraction",
    "UnknownRuleset",
    "adjustment_target",
    "assess",
    "assess_incidents",
    "deviate",
    "get_ruleset",
    "ladder_from",
    "ladder_level",
    "level_text",
    "lookup_ruleset",
    "suggest_time_extension",
    "validate_answers",
]

_ = Translatable
C, W, SA, DQ = Level.CAUTION, Level.WARNING, Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION


VEKN_V2 = Ruleset(
    code="vekn",
    version="v2",
    name="VEKN judges' guide v2",
    source="VTES Tournament Conduct & Infraction Guide (English, definitive)",
    catalogue=MappingProxyType({i.code: i for i in _INFRACTIONS}),
    organisational_cases=MappingProxyType({c.code: c for c in _ORGANISATIONAL}),
    choices=CHOICES,
)
"""The judges' guide revision this module implements."""

RULESETS: Mapping[str, Ruleset] = MappingProxyType({"vekn": VEKN_V2})
"""Current ruleset per stored code. Older revisions stay importable by name."""

RULESET_VERSIONS: Mapping[tuple[str, str], Ruleset] = MappingProxyType({("vekn", "v2"): VEKN_V2})
"""Every revision by ``(code, version)``."""


def lookup_ruleset(current: Mapping, versions: Mapping, code: str, version: str | None):
    """``current[code]`` or ``versions[(code, version)]``; raises :class:`UnknownRuleset`.
    Shared by both rulesets' ``get_ruleset``."""
    ruleset = current.get(code) if version is None else versions.get((code, version))
    if ruleset is None:
        raise UnknownRuleset(code if version is None else f"{code} {version}")
    return ruleset


def get_ruleset(code: str, version: str | None = None) -> Ruleset:
    """The ruleset ``code`` (current revision, or ``version``); raises
    :class:`UnknownRuleset`."""
    return lookup_ruleset(RULESETS, RULESET_VERSIONS, code, version)


# ---------------------------------------------------------------------------------------
# The engine (JG §1.2.1, §1.2.6; docs/rules-vekn-penalties.md "Escalation")
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PriorPenalty:
    """An earlier penalty of the same person: ``infraction`` code and ``level``.

    ``linked``: True when it was recorded as linked to a more severe penalty of the same
    error (JG §1.2.6) — it then does not count as an offence. ``level`` accepts a
    :class:`Level` or its code; anything else raises ``ValueError``.
    """

    infraction: str
    level: Level
    linked: bool = False

    def __post_init__(self):
        object.__setattr__(self, "level", Level(self.level))


@dataclass(frozen=True, slots=True)
class Assessment:
    """What the guide gives for one offence, and why.

    The first eight fields are the docs/contracts.md §4 response (see :meth:`as_json`):

    - ``level``: the penalty to issue; ``offence``: 1-based number of this offence of the
      same infraction code by this person in this event (linked ones excluded);
      ``baseline``: this offence's baseline after the conditions.
    - ``explanation``: text for the judge to read out, in the active language (offence,
      ladder, baseline, exceptions, earlier-event context, corrective action).
    - ``source``: e.g. ``"JG §3.7, §1.2.1"``.
    - ``context``: e.g. ``("pre-existing warning",)`` — information, never a ladder step.
    - ``alternatives``: other outcomes the guide allows the judge (VEKN: only
      ``"removal"`` for a first 4.10). ``also``: what comes with ``level`` (``"warning"``
      with every disqualification, JG §1.1.4; ``"removal"`` for a repeated 4.10).

    The rest is for the adapter and the UI: ``infraction`` code; ``guide_level`` (equal
    to ``level`` unless :func:`deviate` changed it; ``deviation_reason`` then says why);
    ``linked`` (recorded as linked to a more severe penalty of the same error: not issued,
    not counted, JG §1.2.6); ``by_accumulation`` (a DQ reached only by the ladder: prizes
    kept, no Ethics Committee referral); ``report_to_ethics_committee`` (True / False,
    ``None`` when the head judge decides by gravity); ``written_report``;
    ``head_judge_approval`` (an SA or DQ stays pending until the head judge confirms it,
    JG §1.2.2).
    """

    level: Level
    offence: int
    baseline: Level
    explanation: str
    source: str
    context: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    infraction: str = ""
    guide_level: Level | None = None
    linked: bool = False
    by_accumulation: bool = False
    report_to_ethics_committee: bool | None = False
    written_report: bool = False
    head_judge_approval: bool = False
    deviation_reason: str | None = None

    def as_json(self) -> dict:
        """The docs/contracts.md §4 response body: exactly ``level``, ``offence``, ``baseline``,
        ``explanation``, ``source``, ``context``, ``alternatives``, ``also``."""
        return {
            "level": str(self.level),
            "offence": self.offence,
            "baseline": str(self.baseline),
            "explanation": self.explanation,
            "source": self.source,
            "context": list(self.context),
            "alternatives": list(self.alternatives),
            "also": list(self.also),
        }


PRE_EXISTING_WARNING = _("pre-existing warning")
"""The one context entry earlier events can produce (JG §1.2.1)."""


def assess(
    ruleset: Ruleset,
    infraction: str,
    conditions: Mapping[str, bool] | None,
    history: Sequence[PriorPenalty] = (),
    prior_events: Sequence[PriorPenalty] = (),
    *,
    linked_to: Assessment | None = None,
) -> Assessment:
    """What the guide gives for one offence (JG §1.2.1, §1.2.6, the infraction's section;
    docs/rules-vekn-penalties.md "Escalation").

    - ``infraction``: the code (``"3.7"``); ``conditions``: ``{name: bool}`` answers to
      the infraction's questions (see :meth:`Infraction.answers`).
    - ``history``: this person's earlier penalties **in this event**; entries for the same
      code count as offences (cautions included), ``linked`` ones do not.
    - ``prior_events``: this person's penalties from earlier events; recorded ones
      (warning or above) for the same code give one ``"pre-existing warning"`` context
      entry, whatever their number, and never a ladder step.
    - ``linked_to``: the :class:`Assessment` of another infraction caused by the same error
      (JG §1.2.6). Only the more severe is issued; on a tie the one already assessed stays
      issued **[choice]**. If this one loses, it comes back with ``linked=True`` (record
      it, don't count it); if it wins, the caller records the other as linked. ``history``
      must not contain the incident ``linked_to`` describes.

    Rules applied: the n-th offence takes the ladder step n−1 places after this offence's
    baseline (a conditional baseline is decided per offence); 2.4 never escalates; 3.5
    escalates only when ``significant``; 4.2 is a DQ when ``malicious`` **or** on any
    repeat in the event (JG §4.2 Upgrade: "the offense occurs again" — **[choice]** we
    apply it from the history rather than relying on the judge's answer); 4.10 stays a
    Warning and a repeat removes the person from the event (``also: ["removal"]``,
    **[choice]**: removal is a withdrawal, JG §4.10 "no additional penalties").

    Raises :class:`UnknownInfraction`, :class:`MissingCondition`,
    :class:`UnknownCondition`, :class:`InvalidCondition`.
    """
    inf = ruleset.infraction(infraction)
    answers = inf.answers(conditions)
    history = [_prior(p) for p in history]
    prior_events = [_prior(p) for p in prior_events]
    earlier = sum(1 for p in history if p.infraction == inf.code and not p.linked)
    result = _assess(inf, answers, earlier + 1, prior_events)
    if linked_to is not None:
        if result.level.severity > linked_to.level.severity:
            result = _superseding(result, [linked_to])
        else:
            result = _as_linked(result, linked_to)
    return result


def _prior(value: PriorPenalty | Mapping) -> PriorPenalty:
    if isinstance(value, PriorPenalty):
        return value
    return PriorPenalty(value["infraction"], value["level"], bool(value.get("linked", False)))


def _assess(
    inf: Infraction, answers: Mapping[str, bool], offence: int, prior_events: Sequence
) -> Assessment:
    """The core of :func:`assess`, with the offence number already counted."""
    baseline = inf.baseline_for(answers)
    ladder = ladder_level(baseline, offence)
    also: list[str] = []
    alternatives: list[str] = []
    lines = [
        gettext(
            "%(infraction)s (%(category)s): offence %(offence)s of this infraction by this "
            "person in this event."
        )
        % {
            "infraction": _name(inf),
            "category": inf.category.label_es if _spanish() else inf.category.label,
            "offence": offence,
        }
    ]
    lines.append(_baseline_sentence(inf, answers, baseline))
    by_accumulation = False
    escalated = False  # reached DQ through the infraction's own upgrade

    match inf.escalation:
        case Escalation.NEVER:
            level = baseline
            lines.append(
                gettext(
                    "Repeats of this infraction never escalate (§%(code)s): every offence "
                    "gives %(level)s."
                )
                % {"code": inf.code, "level": level_text(baseline)}
            )
        case Escalation.IF_SIGNIFICANT if not answers.get("significant", False):
            level = baseline
            lines.append(
                gettext(
                    "Repeats do not escalate unless they significantly affect the game or the "
                    "event (§%(code)s); not marked significant, so %(level)s."
                )
                % {"code": inf.code, "level": level_text(baseline)}
            )
        case Escalation.REMOVAL:
            level = baseline
            if offence == 1:
                alternatives.append(REMOVAL)
                lines.append(
                    gettext(
                        "%(level)s with a private request to correct the issue; if it "
                        "cannot be corrected quickly or is severe, the person is removed from "
                        "the event instead, with no further penalty (§%(code)s)."
                    )
                    % {"code": inf.code, "level": level_text(baseline)}
                )
            else:
                also.append(REMOVAL)
                lines.append(
                    gettext(
                        "The issue was not corrected: the person is removed from the event, "
                        "a withdrawal with no further penalty; the level stays %(level)s "
                        "(§%(code)s)."
                    )
                    % {"code": inf.code, "level": level_text(baseline)}
                )
        case Escalation.REPEAT_UPGRADE if baseline is not DQ and offence > 1:
            level = DQ
            escalated = True
            lines.append(
                gettext(
                    "The offence occurred again in this event, so §%(code)s upgrades it to "
                    "Disqualification with removal from the venue."
                )
                % {"code": inf.code}
            )
        case _:
            level = ladder
            if inf.escalation is Escalation.IF_SIGNIFICANT:
                lines.append(gettext("Marked as significant, so repeats escalate (§3.5)."))
            if baseline is DQ:
                lines.append(
                    gettext(
                        "Disqualification is the top of the ladder (§1.2.1): offence "
                        "%(offence)s gives Disqualification."
                    )
                    % {"offence": offence}
                )
            else:
                lines.append(
                    gettext(
                        "Ladder from %(baseline)s: %(ladder)s. Offence %(offence)s gives %(level)s."
                    )
                    % {
                        "baseline": level_text(baseline),
                        "ladder": _ladder_text(baseline),
                        "offence": offence,
                        "level": level_text(level),
                    }
                )
            if level is DQ and baseline is not DQ:
                by_accumulation = True
            elif level is DQ and inf.escalation is Escalation.REPEAT_UPGRADE:
                escalated = True  # 4.2 marked malicious/unrepentant/repeated

    for condition in inf.conditions:
        if answers[condition.name] and condition.consequence:
            lines.append(str(condition.consequence))

    if level is DQ:
        also.insert(0, Level.WARNING.value)
        if by_accumulation:
            lines.append(
                gettext(
                    "This Disqualification comes only from accumulation: it is not a "
                    "'Disqualification without Prize' — the person keeps prizes already "
                    "received or won — and it is not referred to the Ethics Committee (§1.2.1, "
                    "§1.1.4)."
                )
            )
        lines.append(
            gettext(
                "A Disqualification always includes a Warning and needs a written report; the "
                "person leaves the event and its standings (§1.1.4)."
            )
        )

    context: list[str] = []
    if any(p.infraction == inf.code and p.level in RECORDED_LEVELS for p in prior_events):
        context.append(PRE_EXISTING_WARNING)
        lines.append(
            gettext(
                "Earlier events: a pre-existing warning for this infraction (any number of "
                "earlier recorded penalties count as one). It is context for intent, "
                "credibility and patterns only and never a step of this event's ladder "
                "(§1.2.1)."
            )
        )

    lines.append(gettext("Corrective action: %(action)s") % {"action": inf.corrective_action})

    report = _ethics(inf, level, by_accumulation, escalated)
    if report:
        lines.append(gettext("Report this penalty to the VEKN Ethics Committee."))
    elif report is None:
        lines.append(
            gettext(
                "Depending on the gravity, the head judge may report it to the VEKN Ethics "
                "Committee."
            )
        )
    approval = level is DQ or (level is SA and not inf.floor_judge_may_confirm)
    if approval:
        lines.append(
            gettext("A %(level)s takes effect once the head judge confirms it (§1.2.2).")
            % {"level": level_text(level)}
        )

    return Assessment(
        level=level,
        offence=offence,
        baseline=baseline,
        explanation=" ".join(lines),
        source=_source(inf, level),
        context=tuple(context),
        alternatives=tuple(alternatives),
        also=tuple(also),
        infraction=inf.code,
        guide_level=level,
        by_accumulation=by_accumulation,
        report_to_ethics_committee=report,
        written_report=inf.written_report or level is DQ,
        head_judge_approval=approval,
    )


def _baseline_sentence(inf: Infraction, answers: Mapping[str, bool], baseline: Level) -> str:
    reasons = [
        (c.yes_means if answers[c.name] else c.no_means)
        for c in inf.conditions
        if c.effect is ConditionEffect.BASELINE and (c.yes_means or c.no_means)
    ]
    if reasons:
        return gettext("Baseline: %(level)s (%(reasons)s).") % {
            "level": level_text(baseline),
            "reasons": "; ".join(str(reason) for reason in reasons),
        }
    return gettext("Baseline: %(level)s.") % {"level": level_text(baseline)}


def _source(inf: Infraction, level: Level, *extra: str) -> str:
    sections = [f"§{inf.code}", "§1.2.1", *extra]
    if level is DQ:
        sections.append("§1.1.4")
    return f"{GUIDE} " + ", ".join(dict.fromkeys(sections))


def _ethics(inf: Infraction, level: Level, by_accumulation: bool, escalated: bool) -> bool | None:
    """Must this penalty go to the VEKN Ethics Committee? (JG §1.1.4, §4.x; docs/rules-vekn-penalties.md "Our choices")."""
    if by_accumulation:
        return False
    match inf.report_to_ethics_committee:
        case EthicsReport.ALWAYS:
            return True
        case EthicsReport.IF_ESCALATED:
            return escalated
        case EthicsReport.BY_GRAVITY:
            return None
    return False


def _as_linked(result: Assessment, winner: Assessment, winner_id: str | None = None) -> Assessment:
    ref = gettext("incident %(id)s, ") % {"id": winner_id} if winner_id else ""
    note = gettext(
        "Linked to another infraction of the same error (%(ref)s%(infraction)s %(level)s), "
        "whose penalty is at least as severe: only that one is issued; this one is recorded "
        "as linked and does not count as an offence (§1.2.6)."
    ) % {"ref": ref, "infraction": winner.infraction, "level": level_text(winner.level)}
    return replace(
        result,
        linked=True,
        explanation=f"{note} {result.explanation}",
        source=_append_source(result.source, "§1.2.6"),
        context=(
            *result.context,
            _(
                "linked to %(infraction)s (%(level)s)",
                {"infraction": winner.infraction, "level": str(winner.level)},
            ),
        ),
        head_judge_approval=False,
        report_to_ethics_committee=False,
    )


def _superseding(
    result: Assessment, losers: Sequence[Assessment], ids: Sequence[str] = ()
) -> Assessment:
    refs = list(ids) or [""] * len(losers)
    names = ", ".join(
        (gettext("incident %(id)s, ") % {"id": ref} if ref else "")
        + f"{a.infraction} {level_text(a.level)}"
        for a, ref in zip(losers, refs, strict=True)
    )
    note = gettext(
        "The same error also caused %(names)s: only the most severe penalty, this one, is "
        "issued; the others are recorded as linked and do not count (§1.2.6)."
    ) % {"names": names}
    return replace(
        result,
        explanation=f"{result.explanation} {note}",
        source=_append_source(result.source, "§1.2.6"),
        context=(
            *result.context,
            *(
                _(
                    "supersedes linked %(infraction)s (%(level)s)",
                    {"infraction": a.infraction, "level": str(a.level)},
                )
                for a in losers
            ),
        ),
    )


def _append_source(source: str, section: str) -> str:
    return source if section in source else f"{source}, {section}"


def deviate(assessment: Assessment, level: Level | str, reason: str | None) -> Assessment:
    """A head-judge deviation (JG §1, §1.2.3; docs/rules-vekn-penalties.md "Who decides"): the same assessment with
    ``level`` given instead of what the guide gives, which stays in ``guide_level``; the
    explanation states both and the ``reason``. ``also`` is recomputed for the new level
    (a DQ includes a Warning). A deviation is never a DQ "by accumulation"; a deviation to
    a DQ leaves the Ethics Committee question to the head judge (``None``) **[choice]**.
    Raises ``ValueError`` for an unknown level."""
    level = Level(level)
    guide = assessment.guide_level or assessment.level
    if level is guide:
        return assessment
    also = tuple(x for x in assessment.also if x != Level.WARNING.value)
    if level is DQ:
        also = (Level.WARNING.value, *also)
    why = reason or gettext("no reason recorded")
    note = gettext(
        "Head-judge deviation: the guide gives %(guide)s; %(level)s was given instead "
        "(%(reason)s) (§1, §1.2.3)."
    ) % {"guide": level_text(guide), "level": level_text(level), "reason": why}
    report = assessment.report_to_ethics_committee
    if level is DQ and guide is not DQ:
        report = None
    return replace(
        assessment,
        level=level,
        also=also,
        guide_level=guide,
        deviation_reason=reason,
        explanation=f"{note} {assessment.explanation}",
        by_accumulation=False,
        report_to_ethics_committee=report,
        written_report=assessment.written_report or level is DQ,
        head_judge_approval=level in (SA, DQ),
    )


# ---------------------------------------------------------------------------------------
# A whole event's incidents, with linked groups (JG §1.2.1, §1.2.6; docs/contracts.md §1)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Incident:
    """One incident of an event, as in the event file (docs/contracts.md §1 ``incidents``).

    ``id``, ``person``, ``infraction`` code, ``conditions`` answers; ``linked_to``: id of
    another incident caused by the same error; ``level``: a head-judge deviation (``None``
    = as the rules give) with its ``reason``."""

    id: str
    person: str
    infraction: str
    conditions: Mapping[str, bool] = field(default_factory=dict)
    linked_to: str | None = None
    level: Level | None = None
    reason: str | None = None


def assess_incidents(
    ruleset: Ruleset,
    incidents: Sequence[Incident],
    prior_events: Mapping[str, Sequence[PriorPenalty]] | None = None,
) -> dict[str, Assessment]:
    """Assess an event's incidents, in the order they happened: ``{incident id:
    Assessment}`` in the same order (JG §1.2.1, §1.2.6; docs/contracts.md §1).

    Each incident counts the earlier *counted* incidents of the same person and code.
    Incidents joined by ``linked_to`` (directly or through others) form one error: only the
    most severe is issued (on a tie, the earliest **[choice]**); the others come back with
    ``linked=True`` and do not count. Because a linked incident no longer counting can
    change later levels, the groups are resolved by re-assessing until nothing changes.
    ``prior_events``: ``{person: earlier events' penalties}`` for the context entry.
    Deviations (``Incident.level``) are applied with :func:`deviate` and compared at the
    level actually given.

    Raises :class:`InvalidIncident` (duplicate id; ``linked_to`` unknown, itself, or of
    another person — a linked infraction is by the same person), and the errors of
    :func:`assess`, whose message is then prefixed with the incident id.
    """
    prior_events = prior_events or {}
    by_id: dict[str, Incident] = {}
    for incident in incidents:
        if incident.id in by_id:
            raise InvalidIncident(f"incident {incident.id}: duplicate id")
        by_id[incident.id] = incident
    parent = {i: i for i in by_id}

    def find(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for incident in incidents:
        if incident.linked_to is None:
            continue
        other = by_id.get(incident.linked_to)
        if other is None or other.id == incident.id:
            raise InvalidIncident(
                f"incident {incident.id}: linked_to {incident.linked_to!r} is not another "
                f"incident of this event"
            )
        if other.person != incident.person:
            raise InvalidIncident(
                f"incident {incident.id}: linked_to {other.id!r} concerns another person "
                f"(linked infractions come from one person's single error)"
            )
        parent[find(incident.id)] = find(other.id)

    order = {incident.id: n for n, incident in enumerate(incidents)}
    groups: dict[str, list[str]] = {}
    for incident in incidents:
        groups.setdefault(find(incident.id), []).append(incident.id)
    groups = {root: ids for root, ids in groups.items() if len(ids) > 1}

    not_counted: frozenset[str] = frozenset()
    results: dict[str, Assessment] = {}
    for _attempt in range(len(incidents) + 2):
        results = _assess_pass(ruleset, incidents, not_counted, prior_events)
        winners = {
            root: max(ids, key=lambda i: (results[i].level.severity, -order[i]))
            for root, ids in groups.items()
        }
        new = frozenset(i for root, ids in groups.items() for i in ids if i != winners[root])
        if new == not_counted:
            break
        not_counted = new

    final: dict[str, Assessment] = {}
    for incident in incidents:
        result = results[incident.id]
        root = find(incident.id)
        if root in groups:
            winner = winners[root]
            if incident.id == winner:
                losers = [i for i in groups[root] if i != winner]
                result = _superseding(result, [results[i] for i in losers], losers)
            else:
                result = _as_linked(result, results[winner], winner)
        final[incident.id] = result
    return final


def _assess_pass(
    ruleset: Ruleset,
    incidents: Sequence[Incident],
    not_counted: frozenset[str],
    prior_events: Mapping[str, Sequence[PriorPenalty]],
) -> dict[str, Assessment]:
    counts: dict[tuple[str, str], int] = {}
    results: dict[str, Assessment] = {}
    for incident in incidents:
        key = (incident.person, incident.infraction)
        try:
            inf = ruleset.infraction(incident.infraction)
            answers = inf.answers(incident.conditions)
            prior = [_prior(p) for p in prior_events.get(incident.person, ())]
            result = _assess(inf, answers, counts.get(key, 0) + 1, prior)
            if incident.level is not None:
                result = deviate(result, incident.level, incident.reason)
        except (UnknownInfraction, ValueError) as error:
            raise InvalidIncident(f"incident {incident.id}: {error}") from error
        results[incident.id] = result
        if incident.id not in not_counted:
            counts[key] = counts.get(key, 0) + 1
    return results
