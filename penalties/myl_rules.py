"""Mitos y Leyendas (MyL) penalty rules: the conduct rulebook's catalogue and its engine.

The source is the *Reglamento de Conducta y Sanciones en Torneos Mitos y Leyendas*
(``shared/rules/mitos-y-leyendas-conduct.es.txt``, Spanish only); ``docs/rules-myl-penalties.md``
restates for users what the product computes from it. Every section of §2.1–§3.4.3 is one :class:`Infraction`
whose code is the section number (``"2.1"``, ``"3.1.5"``); the penalties of §4.1, the
severity table of §4.2, the criteria of §4.3 and the violence scale of §4.2 are data the UI
shows. Citations read ``"MyL conduct §3.2.4"``. Appeal deadlines (§4.5, §5.10) are in
:mod:`penalties.appeals`.

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out, like
:mod:`penalties.vekn_guide`, whose error classes are reused here (:class:`UnknownRuleset`,
:class:`UnknownInfraction`, :class:`MissingCondition`, :class:`UnknownCondition`,
:class:`InvalidCondition`, all :class:`ConditionError` subclasses but the first two).

This module holds the registry (:data:`MYL_V1`, :data:`RULESETS`), the engine and the docs
page; it re-exports, so importers keep using it, the vocabulary of
:mod:`penalties.myl_terms` (levels, severities, criteria, violence scale, catalogue types)
and the data of :mod:`penalties.myl_catalogue` (the sections and :data:`CHOICES`).

Public API:

- Levels: :class:`Level` (stored codes ``warning``, ``game_loss``, ``disqualification``,
  ``suspension``, ``permanent_ban`` — docs/contracts.md §2; never renamed), :data:`LEVELS`.
- Severity (§4.2): :class:`Severity`, :data:`SEVERITIES`; criteria (§4.3):
  :data:`CRITERIA`; violence scale (§4.2): :data:`VIOLENCE`.
- Catalogue: :class:`Outcome`, :class:`Condition`, :class:`Group`, :class:`Infraction`.
- Ruleset: :class:`Ruleset`, :data:`MYL_V1`, :data:`RULESETS`, :func:`get_ruleset`.
- Engine: :class:`PriorPenalty`, :class:`Assessment`, :func:`assess`.
- Docs: :func:`render_markdown` (``python -m penalties.myl_rules`` prints
  ``docs/rules-myl-penalties.md``).

How the app reads the text — every **[choice]** (also in :data:`CHOICES`, shown on the
ruleset's page):

1. **[choice]** First instance: the first penalty the section names. Repeat (the text says
   *persiste*, *reincidencia*, *reiterado*, *abuso*): the first penalty the section names
   for that case. The other penalties the text allows for the case are ``alternatives``
   (docs/rules-myl-penalties.md "How a penalty is proposed").
2. **[choice]** Two penalties named at once (3.1.1 grave: disqualification and suspension;
   3.1.5: disqualification and permanent ban; 3.3.4 repeated: disqualification and
   suspension): ``level`` is the more severe, the other is in ``also``.
3. **[choice]** A penalty the text only calls *possible* (3.4.3 "posible suspensión
   temporal"; §4.2 physical aggression "posible prohibición permanente") is an
   alternative, not part of ``also``. 3.3.4's repeat ("puede ser suspendido") is the only
   penalty that section names for a repeat, so a repeat proposes it.
4. **[choice]** A repeat is an earlier penalty for the same section by the same person, in
   this event (``history``) or an earlier one (``prior_events``): both count, whatever the
   earlier level (docs/rules-myl-penalties.md "How a penalty is proposed"; §4.3 "Reincidencia"). Entries marked ``linked`` (not
   issued) do not count. *Abuso* (2.5, 3.2.6) is read as a repeat; a first instance grave
   enough to be abuse is a judge's change with a reason.
5. **[choice]** Sections silent about repeats (2.3, 2.4, 3.1.1, 3.1.2, 3.1.5, 3.2.4, 3.3.1,
   3.4.1, 3.4.2, 3.4.3) take the §4.2 escalated penalty of the section's severity, never
   below the first instance; the first-instance penalty and any initial penalty of that
   severity row in between are offered as alternatives (the text named nothing else). When
   the first instance is a disqualification and the escalated penalty is heavier, the
   disqualification stays with it in ``also`` (the act still ends the event).
6. **[choice]** Each section's severity (leve / moderada / grave / muy grave) is ours: §4.2
   only gives examples. We match the section to the row whose examples and penalties fit
   it best (table in :func:`render_markdown`).
7. **[choice]** Conditions: ``grave`` (2.4, 3.1.1, 3.1.2, 3.4.1 — "en casos graves") and
   ``intentional`` (3.2.4, 3.3.1 — "si es intencional") are required yes/no questions.
   3.3.1 also lets a DQ follow from the cards being found "at a very advanced stage of the
   event": an optional ``late_stage`` question (missing means no).
8. **[choice]** When a condition answered yes and a repeat both apply, the more severe
   outcome wins; on equal levels, the condition's (it names the specific case).
9. **[choice]** 3.2.5's "sanción progresiva hasta la suspensión": offence 2 → game loss,
   3 → disqualification, 4 and later → suspension (the order of §4.1).
10. **[choice]** 2.4 "excluido del torneo" is a disqualification (§4.1: removed from the
    event); "suspensión permanente" (3.1.5, 3.4.1) is a permanent ban.
11. **[choice]** No suspension length: the text gives none (§4.1 "un período
    determinado"), so the judge or organiser sets it; :attr:`Assessment.suspension_days`
    is always ``None``.
12. **[choice]** "Corrección inmediata" (3.2.3, 3.2.4, 3.3.1, 3.3.2) is a corrective
    action, not a penalty. §5.5's loss of turn or reduced playing time for stalling are
    not §4.1 penalties: a note on 3.2.2.
13. **[choice]** The rulebook is undated: this catalogue is version ``"v1"``.

Texts: names, definitions, questions and explanations are short English texts in our own
words; the Spanish section titles are kept (``title_es``) and Spanish names and questions
are given for the UI (``*_es`` fields). Definitions, corrective actions, notes, effects and
explanations are marked for translation (``_()``, i.e.
:class:`~penalties.vekn_guide.Translatable`, for the catalogue; ``gettext`` with named
placeholders for composed explanations) and read in the active language
(Spanish catalogue: ``locale/es``); :func:`render_markdown` and the public JSON API
(:mod:`penalties.api`) stay English.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from django.utils import translation
from django.utils.translation import gettext, ngettext

from penalties.levels import spanish as _spanish
from penalties.myl_catalogue import _INFRACTIONS, CHOICES
from penalties.myl_terms import (
    CRITERIA,
    DEFAULT_SUSPENSION_DAYS,
    DQ,
    GL,
    LEVELS,
    PB,
    SEVERITIES,
    SOURCE,
    SUS,
    VIOLENCE,
    Condition,
    Criterion,
    Group,
    Infraction,
    Level,
    LevelInfo,
    Outcome,
    Severity,
    SeverityInfo,
    ViolenceCase,
    W,
    level_text,
)
from penalties.vekn_guide import (
    ConditionError,
    InvalidCondition,
    MissingCondition,
    Translatable,
    UnknownCondition,
    UnknownInfraction,
    UnknownRuleset,
    lookup_ruleset,
)

# Re-exported: importers use this module; the vocabulary lives in penalties.myl_terms,
# the catalogue and CHOICES in penalties.myl_catalogue.
__all__ = [
    "CHOICES",
    "CRITERIA",
    "DEFAULT_SUSPENSION_DAYS",
    "DQ",
    "GL",
    "LEVELS",
    "MYL_V1",
    "PB",
    "RULESETS",
    "RULESET_VERSIONS",
    "SEVERITIES",
    "SOURCE",
    "SUS",
    "VIOLENCE",
    "W",
    "Assessment",
    "Condition",
    "ConditionError",
    "Criterion",
    "Group",
    "Infraction",
    "InvalidCondition",
    "Level",
    "LevelInfo",
    "MissingCondition",
    "Outcome",
    "PriorPenalty",
    "Ruleset",
    "Severity",
    "SeverityInfo",
    "UnknownCondition",
    "UnknownInfraction",
    "UnknownRuleset",
    "ViolenceCase",
    "assess",
    "get_ruleset",
    "level_text",
    "render_markdown",
]

_ = Translatable  # catalogue texts: English values, translated by str() (see vekn_guide)


@dataclass(frozen=True, eq=False)
class Ruleset:
    """The MyL penalty ruleset: ``code`` (MyL's), ``version``, the ``catalogue``
    (``{code: Infraction}`` in rulebook order), ``levels``, ``severities``, ``criteria``,
    ``violence`` and the ``choices`` (**[choice]**)."""

    code: str
    version: str
    name: str
    source: str
    catalogue: Mapping[str, Infraction]
    levels: Mapping[Level, LevelInfo] = LEVELS
    severities: Mapping[Severity, SeverityInfo] = SEVERITIES
    criteria: tuple[Criterion, ...] = CRITERIA
    violence: tuple[ViolenceCase, ...] = VIOLENCE
    choices: tuple[str, ...] = CHOICES

    def infraction(self, code: object) -> Infraction:
        """The infraction with this code; raises :class:`UnknownInfraction`."""
        try:
            return self.catalogue[code]  # type: ignore[index]
        except (KeyError, TypeError):
            raise UnknownInfraction(code, self.code) from None

    def level_words(self, level: str) -> str:
        """How a MyL penalty shows ``level`` (a stored code) in the active language: the
        conduct rules' own names (§4.1, :data:`LEVELS`; "warning" is *Advertencia*, not the
        judges' guide's *Amonestación*). A code that is not a MyL level is returned as it
        is."""
        return LEVELS.label(level)

    def infraction_title(self, code: str) -> str:
        """The section's name in the active language (its Spanish title in Spanish, e.g.
        ``"3.2.4"`` → ``"Card Manipulation and Information Theft"``); ``""`` for a code
        this catalogue does not have."""
        inf = self.catalogue.get(code)
        if inf is None:
            return ""
        return inf.title_es if _spanish() else inf.name


MYL_V1 = Ruleset(
    code="myl",
    version="v1",
    name="Mitos y Leyendas conduct and penalties",
    source="Reglamento de Conducta y Sanciones en Torneos Mitos y Leyendas (Spanish)",
    catalogue=MappingProxyType({i.code: i for i in _INFRACTIONS}),
)
"""The rulebook this module implements."""

RULESETS: Mapping[str, Ruleset] = MappingProxyType({"myl": MYL_V1})
"""Current ruleset per stored code."""

RULESET_VERSIONS: Mapping[tuple[str, str], Ruleset] = MappingProxyType({("myl", "v1"): MYL_V1})


def get_ruleset(code: str, version: str | None = None) -> Ruleset:
    """The ruleset ``code`` (current revision, or ``version``); raises
    :class:`UnknownRuleset`."""
    return lookup_ruleset(RULESETS, RULESET_VERSIONS, code, version)


# ---------------------------------------------------------------------------------------
# The engine (docs/rules-myl-penalties.md "How a penalty is proposed")
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PriorPenalty:
    """An earlier penalty of the same person: ``infraction`` code and ``level`` (a
    :class:`Level` or its code; anything else raises ``ValueError``). ``linked``: recorded
    as linked to another penalty, not issued — it does not count (**[choice]** 4)."""

    infraction: str
    level: Level
    linked: bool = False

    def __post_init__(self):
        object.__setattr__(self, "level", Level(self.level))


@dataclass(frozen=True, slots=True)
class Assessment:
    """What the rulebook gives for one offence, and why.

    The first eight fields are the docs/contracts.md §4 response (:meth:`as_json`):

    - ``level``: the penalty to propose; ``offence``: 1 + earlier penalties for the same
      section by this person, in this event and earlier ones; ``baseline``: the
      first-instance penalty of this case (after the conditions).
    - ``explanation``: text for the judge, in the active language; ``source``: e.g.
      ``"MyL conduct §3.2.4"`` (``", §4.2"`` added when the severity table decided).
    - ``context``: facts for the judge (earlier penalties, never a rule by themselves).
    - ``alternatives``: other penalties the text allows instead; ``also``: a second
      penalty given with ``level``.

    For the adapter and the UI: ``infraction``; ``severity``; ``in_event`` / ``earlier_events``
    (the counted earlier penalties); ``repeat_from_text`` (False when the severity table
    gave the repeat, **[choice]** 5); ``suspension_days`` (always ``None``: set by the judge,
    **[choice]** 11); ``appealable`` (always True, §4.5, §5.10).
    """

    level: Level
    offence: int
    baseline: Level
    explanation: str
    source: str
    context: tuple[str, ...] = ()
    alternatives: tuple[Level, ...] = ()
    also: tuple[Level, ...] = ()
    infraction: str = ""
    severity: Severity | None = None
    in_event: int = 0
    earlier_events: int = 0
    repeat_from_text: bool = True
    suspension_days: int | None = DEFAULT_SUSPENSION_DAYS
    appealable: bool = True
    criteria: tuple[Criterion, ...] = field(default=CRITERIA, repr=False)

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
            "alternatives": [str(x) for x in self.alternatives],
            "also": [str(x) for x in self.also],
        }


def _prior(value: PriorPenalty | Mapping) -> PriorPenalty:
    if isinstance(value, PriorPenalty):
        return value
    return PriorPenalty(value["infraction"], value["level"], bool(value.get("linked", False)))


def _condition_outcome(inf: Infraction, answers: Mapping[str, bool]) -> Condition | None:
    """The condition answered yes with the most severe outcome (first one on a tie)."""
    best: Condition | None = None
    for condition in inf.conditions:
        if answers[condition.name] and (
            best is None or condition.outcome.level.severity > best.outcome.level.severity
        ):
            best = condition
    return best


def _earlier(n: int) -> str:
    """``"1 earlier penalty"`` / ``"2 earlier penalties"`` in the active language."""
    return ngettext("%(count)s earlier penalty", "%(count)s earlier penalties", n) % {"count": n}


def assess(
    infraction: str,
    conditions: Mapping[str, bool] | None = None,
    history: Sequence[PriorPenalty | Mapping] = (),
    prior_events: Sequence[PriorPenalty | Mapping] = (),
    *,
    ruleset: Ruleset = MYL_V1,
) -> Assessment:
    """What the rulebook gives for one offence (the section, §4.2, §4.3;
    docs/rules-myl-penalties.md "How a penalty is proposed").

    - ``infraction``: the section code (``"3.2.4"``); ``conditions``: ``{name: bool}``
      answers (see :meth:`Infraction.answers`).
    - ``history``: this person's earlier penalties in this event; ``prior_events``: in
      earlier events. Both count towards a repeat, for the same section only, whatever
      their level; ``linked`` ones do not (**[choice]** 4). Plain mappings
      ``{"infraction", "level", "linked"?}`` are accepted.

    Offence 1 gets the section's first-instance outcome; later offences the outcome the
    section names for a repeat (the last one named holds for later offences), or — where
    the section is silent — the §4.2 escalated penalty of its severity (**[choice]** 5). A
    condition answered yes gives its own outcome; with a repeat, the more severe wins
    (the condition's on a tie, **[choice]** 8).

    Raises :class:`UnknownInfraction`, :class:`MissingCondition`,
    :class:`UnknownCondition`, :class:`InvalidCondition`, ``ValueError`` (a prior penalty
    with an unknown level).
    """
    inf = ruleset.infraction(infraction)
    answers = inf.answers(conditions)
    history = [_prior(p) for p in history]
    prior_events = [_prior(p) for p in prior_events]
    in_event = sum(1 for p in history if p.infraction == inf.code and not p.linked)
    earlier = sum(1 for p in prior_events if p.infraction == inf.code and not p.linked)
    offence = in_event + earlier + 1

    yes = _condition_outcome(inf, answers)
    baseline_outcome = inf.first
    if yes is not None and yes.outcome.level.severity >= inf.first.level.severity:
        baseline_outcome = yes.outcome

    spanish = _spanish()
    row = SEVERITIES[inf.severity]
    lines = [
        gettext(
            "%(infraction)s (%(severity)s infraction, §4.2): offence %(offence)s of this "
            "section by this person (%(in_event)s in this event, %(earlier)s in earlier "
            "events; both count, §4.3)."
        )
        % {
            "infraction": f"{inf.code} {inf.title_es if spanish else inf.name}",
            "severity": (row.name_es if spanish else row.name).lower(),
            "offence": offence,
            "in_event": _earlier(in_event),
            "earlier": earlier,
        }
    ]
    sections = [f"§{inf.code}"]
    repeat_from_text = True
    if yes is not None:
        lines.append(
            gettext("Answered yes — %(case)s: %(outcome)s (§%(code)s).")
            % {"case": yes.yes_means, "outcome": yes.outcome.text(), "code": inf.code}
        )
    lines.append(
        gettext("First instance: %(outcome)s (§%(code)s).")
        % {"outcome": baseline_outcome.text(), "code": inf.code}
    )

    if offence == 1:
        chosen = baseline_outcome
    else:
        repeat = inf.repeat_outcome(offence)
        repeat_from_text = inf.repeat_from_text
        if repeat_from_text:
            progressive = len(inf.repeat) > 1
            if progressive:
                text = gettext(
                    "The section says “%(term)s”: progressive penalties, offence "
                    "%(offence)s gives %(outcome)s."
                )
            else:
                text = gettext("The section says “%(term)s”: a repeat gives %(outcome)s.")
            lines.append(
                text % {"term": inf.repeat_term, "offence": offence, "outcome": repeat.text()}
            )
        else:
            if inf.repeat_term:
                text = gettext(
                    "The section names no penalty for a repeat (“%(term)s”): the "
                    "§4.2 table gives %(level)s %(when)s for a %(severity)s infraction, never "
                    "below the first instance, so %(outcome)s."
                )
            else:
                text = gettext(
                    "The section names no penalty for a repeat: the §4.2 table gives "
                    "%(level)s %(when)s for a %(severity)s infraction, never below the first "
                    "instance, so %(outcome)s."
                )
            lines.append(
                text
                % {
                    "term": inf.repeat_term,
                    "level": level_text(row.escalated),
                    "when": row.when,
                    "severity": (row.name_es if spanish else row.name).lower(),
                    "outcome": repeat.text(),
                }
            )
        if yes is not None and yes.outcome.level.severity >= repeat.level.severity:
            chosen = yes.outcome
            if yes.outcome != repeat:
                lines.append(
                    gettext(
                        "The case answered yes is at least as severe as the repeat: %(outcome)s."
                    )
                    % {"outcome": chosen.text()}
                )
        else:
            chosen = repeat
            if not repeat_from_text:
                sections.append("§4.2")
        repeat_from_text = repeat_from_text or chosen is not repeat

    level = chosen.level
    proposed = level_text(level) + "".join(
        gettext(", with %(level)s") % {"level": level_text(x)} for x in chosen.also
    )
    lines.append(gettext("Proposed: %(penalty)s.") % {"penalty": proposed})
    if chosen.alternatives:
        lines.append(
            gettext("The judge may give instead: %(penalties)s.")
            % {"penalties": ", ".join(level_text(x) for x in chosen.alternatives)}
        )
    if SUS in (level, *chosen.also, *chosen.alternatives):
        lines.append(
            gettext(
                "The rulebook gives no length for a suspension (§4.1): the judge or organiser "
                "sets it."
            )
        )
    if PB in (level, *chosen.alternatives):
        lines.append(gettext("A permanent ban bars the person from every future event (§4.1)."))
    if inf.corrective_action:
        lines.append(gettext("Corrective action: %(action)s") % {"action": inf.corrective_action})
    lines.append(
        gettext(
            "The judge weighs intent, impact, repetition and cooperation (§4.3) and confirms "
            "or changes the penalty with a reason. Every penalty is recorded (§4.4). The "
            "player may ask the head judge to review it at once (final for the event, §4.5) "
            "and appeal in writing to the national Organised Play manager within 5 business "
            "days (§5.10)."
        )
    )

    context: list[str] = []
    if in_event:
        context.append(
            _("1 earlier penalty for §%(code)s in this event", {"code": inf.code})
            if in_event == 1
            else _(
                "%(count)s earlier penalties for §%(code)s in this event",
                {"count": in_event, "code": inf.code},
            )
        )
    if earlier:
        context.append(
            _("1 earlier penalty for §%(code)s in earlier events", {"code": inf.code})
            if earlier == 1
            else _(
                "%(count)s earlier penalties for §%(code)s in earlier events",
                {"count": earlier, "code": inf.code},
            )
        )
    others = sum(1 for p in (*history, *prior_events) if p.infraction != inf.code and not p.linked)
    if others:
        context.append(
            _("1 earlier penalty for other sections")
            if others == 1
            else _("%(count)s earlier penalties for other sections", {"count": others})
        )

    return Assessment(
        level=level,
        offence=offence,
        baseline=baseline_outcome.level,
        explanation=" ".join(lines),
        source=f"{SOURCE} " + ", ".join(sections),
        context=tuple(context),
        alternatives=chosen.alternatives,
        also=chosen.also,
        infraction=inf.code,
        severity=inf.severity,
        in_event=in_event,
        earlier_events=earlier,
        repeat_from_text=repeat_from_text,
    )


# ---------------------------------------------------------------------------------------
# The ruleset's page (docs/rules-myl-penalties.md)
# ---------------------------------------------------------------------------------------


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(ruleset: Ruleset = MYL_V1) -> str:
    """The ruleset's documentation page, generated from this module's data
    (``python -m penalties.myl_rules > docs/rules-myl-penalties.md``)."""
    with translation.override("en"):
        return _render_markdown(ruleset)


def _render_markdown(ruleset: Ruleset) -> str:
    out: list[str] = [
        "# Mitos y Leyendas judging: how Árbitro applies the conduct rulebook",
        "",
        f"Ruleset `{ruleset.code}`, version `{ruleset.version}` ({ruleset.source}).",
        "The engine is pure Python (`penalties/myl_rules.py`; appeal deadlines in "
        "`penalties/appeals.py`); every rule cites its section as `MyL conduct §…`.",
        "This page is generated from the engine's own data: "
        "`.venv/bin/python -m penalties.myl_rules > docs/rules-myl-penalties.md`.",
        "How judges, players and the Organised Play manager use it in the app: "
        "[`judging-myl.md`](judging-myl.md).",
        "",
        "## Penalties (§4.1)",
        "",
        "| code | English | Spanish | effect |",
        "|---|---|---|---|",
    ]
    for info in ruleset.levels.values():
        out.append(f"| `{info.level}` | {info.name} | {info.name_es} | {_md(info.effect)} |")
    out += [
        "",
        "Every penalty from a warning up is recorded (§4.4).",
        "",
        "## Severity table (§4.2)",
        "",
        "| code | severity | Spanish | examples | initial | escalated |",
        "|---|---|---|---|---|---|",
    ]
    for row in ruleset.severities.values():
        initial = " or ".join(x.label for x in row.initial)
        out.append(
            f"| `{row.severity}` | {row.name} | {row.name_es} | {row.examples} | {initial} | "
            f"{row.escalated.label} {row.when} |"
        )
    out += ["", "Violent conduct (§4.2):", ""]
    for case in ruleset.violence:
        codes = " or ".join(f"`{x}`" for x in (case.level, *case.alternatives))
        out.append(f"- **{case.name}** ({case.name_es}) → {codes}: {case.note}")
    out += ["", "## Criteria the judge weighs (§4.3)", ""]
    for c in ruleset.criteria:
        out.append(f"- **{c.name}** ({c.name_es}): {c.question}")
    out += [
        "",
        "The app shows these four criteria and the offender's history (this event and "
        "earlier ones), proposes the penalty below, and the judge confirms it or gives "
        "another with a reason.",
        "",
        "## How a penalty is proposed",
        "",
        "- Offence number = 1 + earlier penalties for the same section by the same person, "
        "in this event **and** earlier events (unlike VEKN, earlier events count).",
        "- First instance: the section's first penalty; repeat: the penalty it names for a "
        "repeat; other penalties the text allows are *alternatives*; a second penalty named "
        "at once is listed as *also*.",
        "- Where the section is silent about repeats, the severity table (§4.2) decides.",
        "- The calculator: `POST /api/v1/rulesets/myl/penalty` (docs/contracts.md §4).",
        "",
        "## Appeals (§4.5, §5.10)",
        "",
        "- At once, to the head judge: the decision is final for the event and recorded.",
        "- In writing, to the national Organised Play manager, within **5 business days** "
        "of the penalty: the deadline skips weekends and the public holidays of the "
        "configured country (Chile by default; a region may be given). The manager "
        "confirms or reverts the penalty, with reasons.",
        "- **[choice]** The Organised Play manager is national: a platform administrator "
        "grants the role (Django admin, *national authorities*), never an event's staff "
        "page. They decide the written appeals of every organisation's MyL events except "
        "an event where they hold a staff role (on the event or its organisation): no one "
        "decides the appeals against their own event; a platform administrator or another "
        "manager does.",
        "",
        "## Sanctions beyond the event (§4.1)",
        "",
        "- A suspension or permanent ban is recorded by the event that gives it "
        "(`penalties/sanction_rules.py`). It keeps the person out of the **issuing "
        "organisation's** MyL events on the days it covers at once, and out of **every "
        "organisation's** MyL events once the national Organised Play manager confirms it "
        "on the *Suspensions and bans* page (`/authority/sanctions/`). Until then it is "
        "listed there as pending. **[choice]**",
        "- **[choice]** A MyL sanction never blocks a VEKN event: there it is shown as "
        "context only.",
        "- The Organised Play manager may lift a sanction, pending or confirmed, with a "
        "reason; confirming and lifting are written to the audit log of the penalty's "
        "event, and a double submit changes nothing.",
        "- Every organisation sees, on its event's players page and in the check-in "
        "refusal, each live sanction of its players: kind and period, ruleset, issuing "
        "event and organisation, who gave it (the head judge who confirmed the penalty), "
        "the manager's confirmation or that it is pending, the appeal state, and whether "
        "and why it blocks this event.",
        "- **[choice]** The manager never confirms a sanction given at an event where they "
        "are staff (on the event or its organisation), as they never decide its appeals: "
        "no one extends their own event's sanction to every organisation; another "
        "authority or a platform administrator confirms it. Lifting stays open to them.",
        "- **[choice]** For the same reason an organiser cannot appoint the Organised Play "
        "manager to their event's staff (which would keep the manager from reviewing the "
        "event); a platform administrator may, in the admin.",
        "- **[choice]** Once the manager confirmed a penalty's suspension or ban, it is the "
        "manager's until lifted (even after a suspension's last day): the event's staff "
        "can no longer void the penalty, change its level or "
        "the suspension's days, nor revert it on the appeal to the head judge (the page "
        "says why instead of offering it); only the manager lifts it (its page) or "
        "decides the player's written appeal, whose revert still voids the penalty and "
        "lifts the sanction. A later penalty of the person whose sanction was confirmed "
        "stays as it is (level, offence number) when an earlier one is voided. A "
        "platform administrator may still void or change it (audited as any change).",
        "- **[choice]** A player checked in before a sanction came to block the event (it "
        "was pending the manager, confirmed since) is listed on the event's dashboard "
        "with a drop button; no round is paired (Swiss, again, or the top cut) while "
        "such a player is still checked in: the message names them. Registration and "
        "check-in already refuse them.",
        "- **[choice]** Changing a suspension's first or last day while keeping the level "
        "(the penalty's *Change*) applies the new days to the same sanction, audited as "
        "*Sanction: change days*; a day left empty keeps the one it had. The player's "
        "own history shows each penalty's live sanction, else its latest lifted one, "
        "each with its own kind and days.",
        "",
        "## Our choices where the rulebook is silent or ambiguous",
        "",
    ]
    out += [f"- **[choice]** {c}" for c in ruleset.choices]
    out += [
        "",
        "## The catalogue (§2.1–§3.4.3)",
        "",
        "| code | infraction | Spanish title | severity | first instance | repeat | "
        "questions (yes →) |",
        "|---|---|---|---|---|---|---|",
    ]
    for inf in ruleset.catalogue.values():
        repeats = inf.repeat_outcomes
        if len(repeats) > 1:
            repeat = "; ".join(f"{n + 2}: {o.text()}" for n, o in enumerate(repeats)) + " (and on)"
        else:
            repeat = repeats[0].text()
        if not inf.repeat_from_text:
            repeat += " — §4.2 **[choice]**"
        questions = "; ".join(
            f"`{c.name}`{'' if c.required else ' (optional)'}: {c.question} → {c.outcome.text()}"
            for c in inf.conditions
        )
        out.append(
            f"| {inf.code} | {_md(inf.name)} | {_md(inf.title_es)} | "
            f"{inf.severity.label_es} | {inf.first.text()} | {_md(repeat)} | "
            f"{_md(questions) or '—'} |"
        )
    out += ["", "## Definitions and notes", ""]
    for inf in ruleset.catalogue.values():
        out.append(f"- **{inf.title}** ({inf.title_es}) — {inf.definition}")
        if inf.corrective_action:
            out.append(f"  Corrective action: {inf.corrective_action}")
        for note in inf.notes:
            out.append(f"  Note: {note}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # pragma: no cover
    from django.conf import settings

    if not settings.configured:
        settings.configure(USE_I18N=False)  # English texts, no project settings needed
    sys.stdout.write(render_markdown())
