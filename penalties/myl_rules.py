"""Mitos y Leyendas (MyL) penalty rules: the conduct rulebook's catalogue and its engine.

The source is the *Reglamento de Conducta y Sanciones en Torneos Mitos y Leyendas*
(``shared/rules/mitos-y-leyendas-conduct.es.txt``, Spanish only); SPEC-penalties §2 restates
what the product computes from it. Every section of §2.1–§3.4.3 is one :class:`Infraction`
whose code is the section number (``"2.1"``, ``"3.1.5"``); the penalties of §4.1, the
severity table of §4.2, the criteria of §4.3 and the violence scale of §4.2 are data the UI
shows. Citations read ``"MyL conduct §3.2.4"``. Appeal deadlines (§4.5, §5.10) are in
:mod:`penalties.appeals`.

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out, like
:mod:`penalties.vekn_guide`, whose error classes are reused here (:class:`UnknownRuleset`,
:class:`UnknownInfraction`, :class:`MissingCondition`, :class:`UnknownCondition`,
:class:`InvalidCondition`, all :class:`ConditionError` subclasses but the first two).

Public API:

- Levels: :class:`Level` (stored codes ``warning``, ``game_loss``, ``disqualification``,
  ``suspension``, ``permanent_ban`` — CONTRACTS §2; never renamed), :data:`LEVELS`.
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
   (SPEC-penalties §2.2).
2. **[choice]** Two penalties named at once (3.1.1 grave: disqualification and suspension;
   3.1.5: disqualification and permanent ban; 3.3.4 repeated: disqualification and
   suspension): ``level`` is the more severe, the other is in ``also``.
3. **[choice]** A penalty the text only calls *possible* (3.4.3 "posible suspensión
   temporal"; §4.2 physical aggression "posible prohibición permanente") is an
   alternative, not part of ``also``. 3.3.4's repeat ("puede ser suspendido") is the only
   penalty that section names for a repeat, so a repeat proposes it.
4. **[choice]** A repeat is an earlier penalty for the same section by the same person, in
   this event (``history``) or an earlier one (``prior_events``): both count, whatever the
   earlier level (SPEC-penalties §2.2, §4.3 "Reincidencia"). Entries marked ``linked`` (not
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
from enum import StrEnum
from types import MappingProxyType

from django.utils import translation
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy

from penalties.vekn_guide import (
    ConditionError,
    InvalidCondition,
    MissingCondition,
    Translatable,
    UnknownCondition,
    UnknownInfraction,
    UnknownRuleset,
    lookup_ruleset,
    validate_answers,
)

__all__ = [
    "CHOICES",
    "CRITERIA",
    "LEVELS",
    "MYL_V1",
    "RULESETS",
    "SEVERITIES",
    "VIOLENCE",
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
    "render_markdown",
]

_ = Translatable  # catalogue texts: English values, translated by str() (see vekn_guide)

SOURCE = "MyL conduct"
"""Prefix of every ``source`` string."""

DEFAULT_SUSPENSION_DAYS: int | None = None
"""The rulebook gives no length for a temporary suspension (§4.1): the judge or organiser
sets it (**[choice]** 11)."""


# ---------------------------------------------------------------------------------------
# Penalties (§4.1; SPEC-penalties §2.1; CONTRACTS §2)
# ---------------------------------------------------------------------------------------


class Level(StrEnum):
    """The penalties of §4.1, lightest first. Stored codes (CONTRACTS §2): never rename."""

    WARNING = "warning"
    GAME_LOSS = "game_loss"
    DISQUALIFICATION = "disqualification"
    SUSPENSION = "suspension"
    PERMANENT_BAN = "permanent_ban"

    @property
    def severity(self) -> int:
        """0 for a warning … 4 for a permanent ban (order of §4.1)."""
        return _SEVERITY[self]

    @property
    def label(self) -> str:
        """English name, e.g. ``"Game Loss"`` (:func:`level_text` gives it in the active
        language)."""
        return LEVELS[self].name

    @property
    def label_es(self) -> str:
        """Spanish name, e.g. ``"Pérdida de juego"``."""
        return LEVELS[self].name_es


_SEVERITY = {level: i for i, level in enumerate(Level)}

_LEVEL_TEXT = {
    Level.WARNING: pgettext_lazy("MyL penalty", "Warning"),
    Level.GAME_LOSS: pgettext_lazy("MyL penalty", "Game Loss"),
    Level.DISQUALIFICATION: pgettext_lazy("MyL penalty", "Disqualification"),
    Level.SUSPENSION: pgettext_lazy("MyL penalty", "Suspension"),
    Level.PERMANENT_BAN: pgettext_lazy("MyL penalty", "Permanent Ban"),
}


def level_text(level: Level | str) -> str:
    """The penalty's name in the active language (``"Game Loss"`` in English, ``"Pérdida
    de juego"`` in Spanish), for composed explanations."""
    return str(_LEVEL_TEXT[Level(level)])


def _spanish() -> bool:
    return (get_language() or "").startswith("es")


W, GL, DQ, SUS, PB = (
    Level.WARNING,
    Level.GAME_LOSS,
    Level.DISQUALIFICATION,
    Level.SUSPENSION,
    Level.PERMANENT_BAN,
)


@dataclass(frozen=True, slots=True)
class LevelInfo:
    """What a penalty means (§4.1): English and Spanish names and its effect in our words.
    Every penalty is recorded in the event's database (§4.4)."""

    level: Level
    name: str
    name_es: str
    effect: str
    recorded: bool = True
    source: str = f"{SOURCE} §4.1"


LEVELS: Mapping[Level, LevelInfo] = MappingProxyType(
    {
        W: LevelInfo(
            W,
            "Warning",
            "Advertencia",
            _("For minor infractions or first offences; recorded, no effect on the result."),
        ),
        GL: LevelInfo(
            GL,
            "Game Loss",
            "Pérdida de juego",
            _("The opponent is given the win of the current round's match."),
        ),
        DQ: LevelInfo(
            DQ,
            "Disqualification",
            "Descalificación del torneo",
            _("The player is removed from the event and cannot continue in it."),
        ),
        SUS: LevelInfo(
            SUS,
            "Suspension",
            "Suspensión temporal",
            _(
                "The person may not register for events for a set period (the rulebook gives "
                "no length: the judge or organiser sets it)."
            ),
        ),
        PB: LevelInfo(
            PB,
            "Permanent Ban",
            "Prohibición permanente",
            _(
                "The person may never again take part in events; for grave infractions against "
                "the integrity of the game or the community."
            ),
        ),
    }
)


# ---------------------------------------------------------------------------------------
# Severity table (§4.2), criteria (§4.3), violence scale (§4.2)
# ---------------------------------------------------------------------------------------


class Severity(StrEnum):
    """The four rows of the §4.2 table (stored codes)."""

    LEVE = "leve"
    MODERADA = "moderada"
    GRAVE = "grave"
    MUY_GRAVE = "muy_grave"

    @property
    def label(self) -> str:
        return SEVERITIES[self].name

    @property
    def label_es(self) -> str:
        return SEVERITIES[self].name_es


@dataclass(frozen=True, slots=True)
class SeverityInfo:
    """One row of §4.2: names, the table's examples (English / Spanish), the initial
    penalties (``initial``, the first one is what the app proposes) and the escalated one
    (``escalated``, given ``when``)."""

    severity: Severity
    name: str
    name_es: str
    examples: str
    examples_es: str
    initial: tuple[Level, ...]
    escalated: Level
    when: str
    source: str = f"{SOURCE} §4.2"


SEVERITIES: Mapping[Severity, SeverityInfo] = MappingProxyType(
    {
        Severity.LEVE: SeverityInfo(
            Severity.LEVE,
            "Minor",
            "Leve",
            "delays, inappropriate language",
            "retrasos, lenguaje inadecuado",
            (W,),
            GL,
            _("if it persists"),
        ),
        Severity.MODERADA: SeverityInfo(
            Severity.MODERADA,
            "Moderate",
            "Moderada",
            "intentional slow play, breaking the rules",
            "juego lento intencional, incumplimiento de reglas",
            (W, GL),
            DQ,
            _("if repeated"),
        ),
        Severity.GRAVE: SeverityInfo(
            Severity.GRAVE,
            "Serious",
            "Grave",
            "verbal aggression, cheating, bribery",
            "agresión verbal, trampa, soborno",
            (GL, DQ),
            SUS,
            _("on escalation"),
        ),
        Severity.MUY_GRAVE: SeverityInfo(
            Severity.MUY_GRAVE,
            "Very serious",
            "Muy grave",
            "physical aggression, fraud, disclosing confidential information",
            "agresión física, fraude, difusión de información confidencial",
            (DQ,),
            PB,
            _("on escalation"),
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Criterion:
    """A criterion judges weigh to decide how severe an infraction is (§4.3)."""

    code: str
    name: str
    name_es: str
    question: str
    question_es: str
    source: str = f"{SOURCE} §4.3"


CRITERIA: tuple[Criterion, ...] = (
    Criterion(
        "intent",
        "Intent",
        "Intención del jugador",
        "Was the act accidental or deliberate?",
        "¿La acción fue accidental o deliberada?",
    ),
    Criterion(
        "impact",
        "Impact on the event",
        "Impacto en el torneo",
        "Did it affect a game's result or the fairness of the event?",
        "¿Afectó el resultado de una partida o la equidad del evento?",
    ),
    Criterion(
        "repetition",
        "Repetition",
        "Reincidencia",
        "Has the player committed the same infraction before (in this or an earlier event)?",
        "¿El jugador ya cometió la misma infracción en el pasado?",
    ),
    Criterion(
        "cooperation",
        "Cooperation",
        "Cooperación del infractor",
        "Does the player accept the correction, or resist the judge's ruling?",
        "¿Acepta la corrección o se resiste al fallo del juez?",
    ),
)
"""The four criteria of §4.3, shown with the offender's history next to the proposal."""


@dataclass(frozen=True, slots=True)
class ViolenceCase:
    """A step of §4.2's scale for violent conduct: the penalty (``level``), what the text
    allows instead (``alternatives``), and what else it asks for (``note``)."""

    code: str
    name: str
    name_es: str
    level: Level
    alternatives: tuple[Level, ...] = ()
    note: str = ""
    source: str = f"{SOURCE} §4.2"


VIOLENCE: tuple[ViolenceCase, ...] = (
    ViolenceCase(
        "verbal_minor",
        "Minor verbal aggression",
        "Agresión verbal leve",
        W,
        note=_("Warning, and the player's behaviour is monitored."),
    ),
    ViolenceCase(
        "threats_or_harassment",
        "Threats or repeated harassment",
        "Amenazas o acoso reiterado",
        GL,
        (DQ,),
        note=_("Game loss or immediate disqualification."),
    ),
    ViolenceCase(
        "physical",
        "Physical aggression",
        "Agresión física",
        DQ,
        (PB,),
        note=_(
            "Immediate disqualification and possible permanent ban; follow the violence "
            "protocol of §5.8 (separate the parties, witnesses, incident report, authorities "
            "if needed)."
        ),
    ),
)


# ---------------------------------------------------------------------------------------
# Catalogue types (§2–§3; SPEC-penalties §2.2)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the text gives in one case: ``level`` (the penalty the app proposes),
    ``alternatives`` (other penalties the text allows instead) and ``also`` (a second
    penalty named together with ``level``, less severe — **[choice]** 2)."""

    level: Level
    alternatives: tuple[Level, ...] = ()
    also: tuple[Level, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "level", Level(self.level))
        object.__setattr__(self, "alternatives", tuple(Level(x) for x in self.alternatives))
        object.__setattr__(self, "also", tuple(Level(x) for x in self.also))

    def text(self) -> str:
        """E.g. ``"Suspension with Disqualification"``, ``"Game Loss (or Disqualification)"``
        (in the active language)."""
        out = level_text(self.level)
        if self.also:
            out = gettext("%(level)s with %(also)s") % {
                "level": out,
                "also": gettext(" and ").join(level_text(x) for x in self.also),
            }
        if self.alternatives:
            out = gettext("%(outcome)s (or %(alternatives)s)") % {
                "outcome": out,
                "alternatives": gettext(" or ").join(level_text(x) for x in self.alternatives),
            }
        return out


@dataclass(frozen=True, slots=True)
class Condition:
    """A yes/no question for one offence (SPEC-penalties §2.2): ``name`` is the key of the
    API and the event file (``"grave"``, ``"intentional"``, ``"late_stage"``; stored, never
    renamed); a yes gives ``outcome``. ``required``: if False, a missing answer means no."""

    name: str
    question: str
    question_es: str
    outcome: Outcome
    required: bool = True
    yes_means: str = ""


class Group(StrEnum):
    """The rulebook's headings over the sections (stored codes)."""

    GENERAL = "general"
    UNSPORTSMANLIKE = "unsportsmanlike_conduct"
    GAME = "game_conduct"
    DECK = "deck"
    OUTSIDE = "outside_events"

    @property
    def label(self) -> str:
        return _GROUPS[self][0]

    @property
    def label_es(self) -> str:
        return _GROUPS[self][1]

    @property
    def section(self) -> str:
        return _GROUPS[self][2]


_GROUPS = {
    Group.GENERAL: ("General tournament rules", "Reglas Generales del Torneo", "2"),
    Group.UNSPORTSMANLIKE: (
        "Further unsportsmanlike conduct",
        "Conductas Antideportivas Adicionales",
        "3.1",
    ),
    Group.GAME: ("Conduct related to the game", "Conductas Relacionadas con el Juego", "3.2"),
    Group.DECK: ("Deck use and handling", "Uso y Manipulación del Mazo", "3.3"),
    Group.OUTSIDE: ("Conduct outside the event", "Comportamiento fuera del torneo", "3.4"),
}


@dataclass(frozen=True, slots=True)
class Infraction:
    """One section of §2–§3 (SPEC-penalties §2.2).

    - ``code``: the section number (stored, never renamed); ``name``: English name;
      ``title_es``: the section's Spanish title; ``group``: its heading.
    - ``severity``: its row of the §4.2 table (**[choice]** 6).
    - ``first``: the first-instance :class:`Outcome`.
    - ``repeat``: the outcomes the text names for a repeat — offence 2, 3, …; the last one
      holds for later offences. Empty when the text is silent: the severity table decides
      (:attr:`repeat_outcomes`, **[choice]** 5). ``repeat_term``: the text's word for it.
    - ``conditions``: yes/no questions (``grave``, ``intentional``, ``late_stage``).
    - ``definition``, ``corrective_action``, ``notes``: short English texts.
    """

    code: str
    name: str
    title_es: str
    group: Group
    severity: Severity
    definition: str
    first: Outcome
    repeat: tuple[Outcome, ...] = ()
    repeat_term: str = ""
    conditions: tuple[Condition, ...] = ()
    corrective_action: str = ""
    notes: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        """E.g. ``"MyL conduct §3.2.4"``."""
        return f"{SOURCE} §{self.code}"

    @property
    def title(self) -> str:
        """E.g. ``"3.2.4 Card Manipulation and Information Theft"``."""
        return f"{self.code} {self.name}"

    @property
    def repeat_from_text(self) -> bool:
        """True when the section itself names the repeat's penalty."""
        return bool(self.repeat)

    @property
    def repeat_outcomes(self) -> tuple[Outcome, ...]:
        """What a repeat gives: the text's own outcomes, else the severity table's
        (**[choice]** 5)."""
        return self.repeat or (_from_severity(self.first, self.severity),)

    def repeat_outcome(self, offence: int) -> Outcome:
        """The outcome of the ``offence``-th offence (2 or more), conditions aside."""
        outcomes = self.repeat_outcomes
        return outcomes[min(offence - 2, len(outcomes) - 1)]

    def condition(self, name: str) -> Condition:
        """The condition called ``name``; ``KeyError`` if the section has none."""
        for condition in self.conditions:
            if condition.name == name:
                return condition
        raise KeyError(name)

    def answers(self, conditions: Mapping[str, object] | None) -> dict[str, bool]:
        """Validate the judge's answers: ``{name: bool}`` for every condition of this
        section, optional ones defaulting to False.

        Raises :class:`MissingCondition` (a required one is absent — checked first),
        :class:`UnknownCondition` (a name this section does not have),
        :class:`InvalidCondition` (not a bool).
        """
        return validate_answers(self.conditions, conditions, title=self.title, code=self.code)


def _from_severity(first: Outcome, severity: Severity) -> Outcome:
    """A repeat where the section names nothing (**[choice]** 5): the §4.2 escalated
    penalty of ``severity``, never below ``first``; ``first`` and the row's initial
    penalties in between are alternatives; a first-instance DQ stays in ``also``."""
    row = SEVERITIES[severity]
    if row.escalated.severity <= first.level.severity:
        return first
    level = row.escalated
    between = [x for x in row.initial if first.level.severity < x.severity < level.severity]
    if first.level is DQ:
        return Outcome(level, tuple(between), (DQ,))
    return Outcome(level, (first.level, *between))


# ---------------------------------------------------------------------------------------
# The catalogue (§2.1–§3.4.3)
# ---------------------------------------------------------------------------------------

_LEVE, _MOD, _GRAVE, _MUY = Severity.LEVE, Severity.MODERADA, Severity.GRAVE, Severity.MUY_GRAVE
_GRAVE_Q_ES = "¿Es un caso grave?"
_INTENT_Q_ES = "¿Fue intencional?"


def _grave(question: str, outcome: Outcome, yes_means: str) -> Condition:
    return Condition("grave", question, _GRAVE_Q_ES, outcome, yes_means=yes_means)


def _intentional(question: str, outcome: Outcome) -> Condition:
    return Condition("intentional", question, _INTENT_Q_ES, outcome, yes_means=_("intentional"))


_INFRACTIONS: tuple[Infraction, ...] = (
    # -- §2 General tournament rules ----------------------------------------------------
    Infraction(
        "2.1",
        "Minor Unsportsmanlike Conduct",
        "Respeto y Deportividad",
        Group.GENERAL,
        _LEVE,
        _(
            "Discourtesy or disrespect towards opponents, judges or organisers: insults, "
            "mocking an opponent after a win, arguing disrespectfully with judges."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "si la conducta persiste",
        corrective_action=_("The player stops the behaviour."),
    ),
    Infraction(
        "2.2",
        "Failure to Respect the Rules or Judges' Decisions",
        "Cumplimiento del Reglamento y Decisiones Arbitrales",
        Group.GENERAL,
        _MOD,
        _(
            "Refusing to follow a judge's or organiser's decision, objecting improperly, or "
            "holding up play to argue about a ruling."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de conducta persistente",
        corrective_action=_("The ruling stands; play resumes."),
    ),
    Infraction(
        "2.3",
        "Untidy Play Area",
        "Mantenimiento del Área de Juego",
        Group.GENERAL,
        _LEVE,
        _(
            "Leaving litter on the table or handling tournament material (cards, playmats, "
            "counters, furniture) carelessly."
        ),
        Outcome(W),
        repeat_term="en caso de reincidencia, se podrá imponer una penalización adicional",
        corrective_action=_("The player tidies the play area."),
        notes=(
            _(
                "On a repeat the text says an additional penalty *may* be imposed without "
                "naming it: the severity table proposes it (Game Loss for a minor infraction "
                "that persists); a Warning stays available."
            ),
        ),
    ),
    Infraction(
        "2.4",
        "Inappropriate Personal Presentation",
        "Presentación Personal y Comportamiento",
        Group.GENERAL,
        _LEVE,
        _(
            "Coming to the event in unsuitable clothing (e.g. with offensive messages) or with "
            "unacceptable personal hygiene."
        ),
        Outcome(W),
        conditions=(
            _grave(
                "Is it a serious case, one where the player should be excluded from the event?",
                Outcome(DQ),
                _("serious case: the player is excluded from the event"),
            ),
        ),
        corrective_action=_(
            "Ask the player, privately, to correct the issue (cover or "
            "change the clothing, freshen up)."
        ),
    ),
    Infraction(
        "2.5",
        "Unauthorised Use of Electronic Devices",
        "Uso de Dispositivos Electrónicos",
        Group.GENERAL,
        _MOD,
        _(
            "Using a phone, tablet or other device during a game without the judge's "
            "permission (medical devices and other justified needs excepted), e.g. to look up "
            "a card."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de abuso o reincidencia",
        corrective_action=_("The device is put away."),
        notes=(_("3.2.6 covers consulting notes or digital material during a game."),),
    ),
    # -- §3.1 Further unsportsmanlike conduct -------------------------------------------
    Infraction(
        "3.1.1",
        "Disruptive Behaviour towards Tournament Staff",
        "Comportamiento disruptivo hacia el personal del torneo",
        Group.UNSPORTSMANLIKE,
        _MOD,
        _("Verbal or physical mistreatment of judges, organisers or event staff."),
        Outcome(W),
        conditions=(
            _grave(
                "Is it a serious case (e.g. physical mistreatment, or grave or sustained "
                "verbal abuse)?",
                Outcome(SUS, also=(DQ,)),
                _("serious case: disqualification and suspension"),
            ),
        ),
        corrective_action=_("Stop the behaviour; separate the people involved if needed."),
        notes=(
            _(
                "Physical aggression: §4.2 (immediate disqualification, possible permanent "
                "ban) and the violence protocol of §5.8, with an incident report."
            ),
        ),
    ),
    Infraction(
        "3.1.2",
        "Offensive Language or Behaviour",
        "Uso inapropiado de lenguaje o comportamiento ofensivo",
        Group.UNSPORTSMANLIKE,
        _LEVE,
        _(
            "Insults, discriminatory language or threats, in person or on social media linked "
            "to the event or the community; aggression, harassment or misinformation aimed at "
            "community members, judges or organisers."
        ),
        Outcome(W),
        conditions=(
            _grave(
                "Is it a serious case (e.g. threats, discrimination, harassment or aggression)?",
                Outcome(GL, (DQ, PB)),
                _("serious case: game loss, disqualification or permanent ban"),
            ),
        ),
        corrective_action=_("Stop the behaviour (and remove the posts, if online)."),
        notes=(
            _(
                "§4.2 on violence: minor verbal aggression → warning and monitoring; threats or "
                "repeated harassment → game loss or immediate disqualification."
            ),
        ),
    ),
    Infraction(
        "3.1.3",
        "Spreading False Information",
        "Difusión de información falsa sobre el torneo o la empresa",
        Group.UNSPORTSMANLIKE,
        _GRAVE,
        _(
            "Publishing misleading information about the event, its judges, its organisers or "
            "the company."
        ),
        Outcome(W),
        (Outcome(SUS),),
        "en casos reiterados",
        corrective_action=_("The person corrects or withdraws what was published."),
    ),
    Infraction(
        "3.1.4",
        "Breach of Inclusion and Respect",
        "Incumplimiento de normas de inclusión y respeto",
        Group.UNSPORTSMANLIKE,
        _MOD,
        _("Acts that discriminate against, exclude or harass other players."),
        Outcome(W),
        (Outcome(DQ),),
        "si la conducta persiste",
        corrective_action=_("Stop the behaviour."),
    ),
    Infraction(
        "3.1.5",
        "Identity or Document Fraud",
        "Falsificación de identidad o documentos",
        Group.UNSPORTSMANLIKE,
        _MUY,
        _("Presenting false credentials or impersonating another player."),
        Outcome(PB, also=(DQ,)),
        corrective_action=_("Immediate disqualification; the person is banned from events."),
    ),
    Infraction(
        "3.1.6",
        "Repeated Interference with Judges and Organisers",
        "Interrupciones reiteradas a la labor de jueces y organizadores",
        Group.UNSPORTSMANLIKE,
        _MOD,
        _(
            "Disregarding the decisions of judges and organisers or arguing aggressively with "
            "them, so that they cannot do their work."
        ),
        Outcome(W),
        (Outcome(DQ),),
        "si la conducta persiste",
        corrective_action=_("Stop the behaviour; the decision stands."),
    ),
    # -- §3.2 Conduct related to the game -----------------------------------------------
    Infraction(
        "3.2.1",
        "Result Manipulation",
        "Manipulación del resultado de un encuentro",
        Group.GAME,
        _MOD,
        _(
            "Fixing a match result outside play: agreed intentional draws, asking the opponent "
            "to concede, deciding the winner by a random method."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de reincidencia",
        corrective_action=_("The match is played out normally."),
        notes=(
            _(
                "§5.7: attempted fraud or bribery to change a result is reported to the "
                "organiser at once, who decides further penalties."
            ),
        ),
    ),
    Infraction(
        "3.2.2",
        "Intentional Slow Play (Stalling)",
        "Juego lento intencional (stalling)",
        Group.GAME,
        _MOD,
        _("Deliberately playing very slowly to force a result against the opponent."),
        Outcome(W),
        (Outcome(GL),),
        "en caso de reincidencia",
        corrective_action=_("Ask the player to keep a normal pace."),
        notes=(
            _(
                "§5.5 also allows a loss of turn or less playing time between the warning and "
                "the game loss; these are not §4.1 penalties, so the judge records them as a "
                "change with a reason."
            ),
        ),
    ),
    Infraction(
        "3.2.3",
        "Deliberately Marked Cards",
        "Marcar cartas deliberadamente",
        Group.GAME,
        _MOD,
        _(
            "Using sleeves or worn cards that can identify cards and so give the player an "
            "advantage."
        ),
        Outcome(W),
        (Outcome(GL),),
        "en caso de reincidencia",
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before play continues."
        ),
        notes=(
            _(
                "The heading says 'deliberately' yet the text starts at a warning; 3.2.4 "
                "(intentional → disqualification) also covers the intentional use of marked "
                "cards: the judge chooses the section."
            ),
        ),
    ),
    Infraction(
        "3.2.4",
        "Card Manipulation and Information Theft",
        "Manipulación de cartas y robo de información",
        Group.GAME,
        _MOD,
        _(
            "Looking at the opponent's deck without permission, handling a deck improperly, or "
            "playing marked, altered or off-format cards, on purpose or through carelessness."
        ),
        Outcome(W),
        conditions=(
            _intentional(
                "Was it intentional?",
                Outcome(DQ),
            ),
        ),
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before play continues."
        ),
    ),
    Infraction(
        "3.2.5",
        "Leaving the Event without Notice",
        "Abandono del Torneo",
        Group.GAME,
        _LEVE,
        _("Dropping from the event without telling the head judge before the next round."),
        Outcome(W),
        (Outcome(GL, (DQ, SUS)), Outcome(DQ, (GL, SUS)), Outcome(SUS, (GL, DQ))),
        "en caso de reincidencia, sanción progresiva hasta la suspensión",
        corrective_action=_("The player is dropped from the event."),
        notes=(
            _(
                "Players may leave at any time, provided they tell the head judge before the "
                "next round."
            ),
        ),
    ),
    Infraction(
        "3.2.6",
        "Improper Use of Notes or Devices",
        "Uso indebido de notas y dispositivos electrónicos",
        Group.GAME,
        _MOD,
        _("Consulting outside notes, on paper or digital, during a game."),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de abuso",
        corrective_action=_("The notes or device are put away."),
        notes=(
            _(
                "The rulebook's example for this section repeats 3.2.5's (leaving without "
                "notice), apparently by mistake."
            ),
        ),
    ),
    # -- §3.3 Deck use and handling ------------------------------------------------------
    Infraction(
        "3.3.1",
        "Banned or Off-Format Cards",
        "Uso de cartas prohibidas o no permitidas en el formato",
        Group.DECK,
        _MOD,
        _("Playing cards that are banned or not allowed in the event's format."),
        Outcome(W),
        conditions=(
            _intentional("Was it intentional?", Outcome(DQ)),
            Condition(
                "late_stage",
                "Was it only found at a very advanced stage of the event?",
                "¿Se tomó conocimiento en una etapa muy avanzada del torneo?",
                Outcome(DQ),
                required=False,
                yes_means=_("found at a very advanced stage of the event"),
            ),
        ),
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before "
            "play continues: the cards are removed and replaced."
        ),
    ),
    Infraction(
        "3.3.2",
        "Deck Registration Problems",
        "Problemas en la inscripción del mazo",
        Group.DECK,
        _MOD,
        _("The deck's registration (decklist) is wrong, incomplete or does not match the deck."),
        Outcome(W),
        (Outcome(GL),),
        "en caso de reincidencia",
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before play continues."
        ),
    ),
    Infraction(
        "3.3.3",
        "Unauthorised Proxies",
        "Uso de proxies o cartas sin autorización",
        Group.DECK,
        _MOD,
        _("Playing proxies or substitute cards without authorisation."),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "si se reincide",
        corrective_action=_("The proxies are replaced by the real cards."),
        notes=(
            _(
                "Custom cards or proxies used as starting gold (oro inicial) are allowed as an "
                "exception, provided they infringe no intellectual property."
            ),
        ),
    ),
    Infraction(
        "3.3.4",
        "Counterfeit Cards",
        "Uso de cartas falsas o que vulneren la propiedad intelectual de terceros",
        Group.DECK,
        _GRAVE,
        _("Playing fake cards, or cards that infringe third parties' intellectual property."),
        Outcome(DQ),
        (Outcome(SUS, also=(DQ,)),),
        "si el acto es reiterado",
        corrective_action=_("Immediate disqualification."),
    ),
    # -- §3.4 Conduct outside the event --------------------------------------------------
    Infraction(
        "3.4.1",
        "Selling or Distributing Counterfeit Material",
        "Venta y distribución de material falsificado",
        Group.OUTSIDE,
        _MUY,
        _("Selling or distributing counterfeit material."),
        Outcome(SUS),
        conditions=(
            _grave(
                "Is it a serious case (e.g. large-scale or organised sales)?",
                Outcome(PB),
                _("serious case: permanent ban"),
            ),
        ),
    ),
    Infraction(
        "3.4.2",
        "Disclosure of Confidential Information",
        "Difusión de información confidencial",
        Group.OUTSIDE,
        _MUY,
        _("Disclosing confidential information (of the event, the judges or the company)."),
        Outcome(SUS),
    ),
    Infraction(
        "3.4.3",
        "Conflict of Interest with the Organising Company",
        "Conflicto de intereses con la empresa organizadora",
        Group.OUTSIDE,
        _GRAVE,
        _(
            "Taking part while having a conflict of interest with the company that organises "
            "the event."
        ),
        Outcome(DQ, (SUS,)),
        notes=(
            _(
                "The text adds a 'possible' temporary suspension: offered as an alternative, in "
                "addition to the disqualification."
            ),
        ),
    ),
)


CHOICES: tuple[str, ...] = (
    _(
        "First instance: the first penalty the section names; repeat (persiste, reincidencia, "
        "reiterado, abuso): the first penalty it names for that case; the other penalties the "
        "text allows for the case are offered as alternatives."
    ),
    _(
        "Two penalties named at once (3.1.1 grave, 3.1.5, a repeated 3.3.4): the level is the "
        "more severe, the other is listed with it ('also')."
    ),
    _(
        "A penalty the text only calls possible (3.4.3's temporary suspension; the possible "
        "permanent ban for physical aggression, §4.2) is an alternative, not part of 'also'."
    ),
    _(
        "A repeat is an earlier penalty for the same section by the same person, in this event "
        "or an earlier one, whatever its level; entries recorded as linked do not count. "
        "'Abuso' (2.5, 3.2.6) is read as a repeat."
    ),
    _(
        "Sections silent about repeats (2.3, 2.4, 3.1.1, 3.1.2, 3.1.5, 3.2.4, 3.3.1, 3.4.1, "
        "3.4.2, 3.4.3) take the §4.2 escalated penalty of their severity, never below the "
        "first instance; the first-instance penalty and any initial penalty of that severity "
        "in between are alternatives; a first-instance disqualification stays in 'also'."
    ),
    _(
        "Each section's severity (leve, moderada, grave, muy grave) is ours: §4.2 gives only "
        "examples; we pick the row whose examples and penalties fit the section best."
    ),
    _(
        "'grave' (2.4, 3.1.1, 3.1.2, 3.4.1) and 'intentional' (3.2.4, 3.3.1) must be "
        "answered; 3.3.1's 'found at a very advanced stage' is an optional 'late_stage' "
        "question (missing means no)."
    ),
    _(
        "When a condition answered yes and a repeat both apply, the more severe outcome wins; "
        "on equal levels, the condition's."
    ),
    _(
        "3.2.5 'progressive up to suspension': offence 2 → game loss, 3 → disqualification, "
        "4 and later → suspension."
    ),
    _(
        "2.4 'excluded from the event' is a disqualification; 'suspensión permanente' (3.1.5, "
        "3.4.1) is a permanent ban."
    ),
    _(
        "No suspension length is proposed: the rulebook gives none, so the judge or organiser "
        "sets it."
    ),
    _(
        "'Corrección inmediata' is a corrective action, not a penalty; §5.5's loss of turn or "
        "reduced time for stalling are not §4.1 penalties (a note on 3.2.2)."
    ),
    _(
        "Appeal deadline (§5.10): 5 business days after the penalty day (that day not "
        "counted; the fifth business day is the last day to file), skipping weekends and the "
        "public holidays of the configured country — Chile by default, optionally a region; "
        "no country means weekends only."
    ),
    _("The rulebook is undated: this catalogue is version v1."),
)
"""The product's interpretations of the rulebook (**[choice]**), for the ruleset's page."""


@dataclass(frozen=True, eq=False)
class Ruleset:
    """The MyL penalty ruleset: ``code`` ``"myl"``, ``version``, the ``catalogue``
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
# The engine (SPEC-penalties §2.2, §2.3)
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

    The first eight fields are the CONTRACTS §4 response (:meth:`as_json`):

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
        """The CONTRACTS §4 response body: exactly ``level``, ``offence``, ``baseline``,
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
    """What the rulebook gives for one offence (the section, §4.2, §4.3; SPEC-penalties
    §2.2).

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
        "- The calculator: `POST /api/v1/rulesets/myl/penalty` (CONTRACTS §4).",
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
