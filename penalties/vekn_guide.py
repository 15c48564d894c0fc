"""VEKN penalty rules: the judges' guide catalogue and its escalation engine.

The source is the VTES *Tournament Conduct & Infraction Guide* ("JG"), English version
(``shared/rules/vtes-judges-guide.en.md``), which the guide itself declares definitive
over its Spanish translation; SPEC-penalties §1 restates what the product computes from it.
Every rule below cites its JG section. Where the guide (or SPEC) left a choice to us, the
docstring says **[choice]**; :data:`CHOICES` (also ``VEKN_V2.choices``) lists them all for
the ruleset's page.

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

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from types import MappingProxyType

from django.utils.translation import get_language, gettext, pgettext_lazy

__all__ = [
    "CHOICES",
    "LADDER",
    "LEVELS",
    "RULESETS",
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
    "ladder_level",
    "suggest_time_extension",
]


class Translatable(str):
    """A text (definition, corrective action, note, effect, context entry…) that reads in
    the active language. Its value — what ``==``, ``in``, hashing, ``+``, ``join``, JSON
    and the database see — is the English text; ``str()``, f-strings, ``%`` formatting and
    templates give its translation (``gettext`` at display time, ``locale/``). Unlike
    ``gettext_lazy``'s proxy it is a real ``str``, so the catalogue stays plain data and
    stored values stay English. Written ``_("…")`` so that ``makemessages`` extracts it;
    ``_("… %(code)s …", {"code": "3.7"})`` fills named placeholders in either language."""

    def __new__(cls, text: str, params: Mapping[str, object] | None = None):
        value = super().__new__(cls, text % params if params else text)
        value._text = text
        value._params = params
        return value

    def __str__(self) -> str:
        translated = gettext(self._text)
        return translated % self._params if self._params else translated


_ = Translatable

GUIDE = "JG"
"""Prefix of every ``source`` string: the judges' guide."""

REMOVAL = "removal"
"""Outcome code (not a penalty level) used in ``also`` / ``alternatives`` for JG §4.10:
the person is removed from the event as a withdrawal, with no further penalty."""


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------


class UnknownRuleset(KeyError):
    """No ruleset with this code (e.g. ``"vekn"``) is registered in :data:`RULESETS`."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code
        self.message = f"unknown ruleset {code!r}"

    def __str__(self) -> str:
        return self.message


class UnknownInfraction(KeyError):
    """The ruleset's catalogue has no infraction with this code (e.g. ``"9.9"``)."""

    def __init__(self, code: object, ruleset: str):
        super().__init__(code)
        self.code = code
        self.ruleset = ruleset
        self.message = f"unknown infraction {code!r} in ruleset {ruleset!r}"

    def __str__(self) -> str:
        return self.message


class ConditionError(ValueError):
    """A condition answer is missing, unknown or not a yes/no. ``condition`` names it and
    ``infraction`` is the infraction code; ``str(error)`` is a message for the user."""

    def __init__(self, message: str, *, condition: str, infraction: str):
        super().__init__(message)
        self.condition = condition
        self.infraction = infraction


class MissingCondition(ConditionError):
    """A required condition of the infraction was not answered (SPEC-penalties §1.2)."""


class UnknownCondition(ConditionError):
    """An answer was given for a condition the infraction does not have (a typo guard)."""


class InvalidCondition(ConditionError):
    """A condition answer is not a boolean."""


class InvalidIncident(ValueError):
    """An incident list given to :func:`assess_incidents` is inconsistent (duplicate id,
    ``linked_to`` naming no incident or another person). The message starts with the
    incident's id so that importers can show where the problem is."""


# ---------------------------------------------------------------------------------------
# Penalty levels (JG §1.1; SPEC-penalties §1.1) and the escalation ladder (JG §1.2.1)
# ---------------------------------------------------------------------------------------


class Level(StrEnum):
    """Penalty levels of JG §1.1, lightest first. The values are stored codes: never rename
    them (STYLE "Rule codes are an API")."""

    CAUTION = "caution"
    WARNING = "warning"
    STANDINGS_ADJUSTMENT = "standings_adjustment"
    DISQUALIFICATION = "disqualification"

    @property
    def severity(self) -> int:
        """0 for a caution … 3 for a disqualification (order of JG §1.1)."""
        return _SEVERITY[self]

    @property
    def label(self) -> str:
        """English name, e.g. ``"Standings Adjustment"`` (:func:`level_text` gives it in the
        active language)."""
        return LEVELS[self].name


_SEVERITY = {level: i for i, level in enumerate(Level)}

#: Levels kept in the VEKN penalty database (JG §1.1.2–§1.1.4); cautions are not (§1.1.1).
RECORDED_LEVELS = frozenset({Level.WARNING, Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION})


@dataclass(frozen=True, slots=True)
class LevelInfo:
    """What a level means (JG §1.1, SPEC-penalties §1.1): English and Spanish names, whether
    the VEKN penalty database records it, and its effect in our own words."""

    level: Level
    name: str
    name_es: str
    recorded: bool
    effect: str
    source: str


LEVELS: Mapping[Level, LevelInfo] = MappingProxyType(
    {
        Level.CAUTION: LevelInfo(
            Level.CAUTION,
            "Caution",
            "Advertencia",
            False,
            _(
                "Verbal only: explain the rule, the correct procedure and what a repeat brings. "
                "Not sent to the VEKN database, but the head judge is told so that patterns "
                "and escalation can be followed."
            ),
            "JG §1.1.1",
        ),
        Level.WARNING: LevelInfo(
            Level.WARNING,
            "Warning",
            "Amonestación",
            True,
            _(
                "Recorded permanently in the VEKN penalty database; no effect on the score. "
                "The table may get a time extension (§1.2.4)."
            ),
            "JG §1.1.2",
        ),
        Level.STANDINGS_ADJUSTMENT: LevelInfo(
            Level.STANDINGS_ADJUSTMENT,
            "Standings Adjustment",
            "Ajuste en la clasificación",
            True,
            _(
                "Recorded permanently; −1 VP on one game (which game depends on when it is "
                "given, §1.1.3), which may change the table's GW and TP."
            ),
            "JG §1.1.3",
        ),
        Level.DISQUALIFICATION: LevelInfo(
            Level.DISQUALIFICATION,
            "Disqualification",
            "Descalificación",
            True,
            _(
                "Recorded, always with a Warning; the person leaves the event at once and is "
                "removed from its standings. A written DQ report is required."
            ),
            "JG §1.1.4",
        ),
    }
)

LADDER: tuple[Level, ...] = (
    Level.CAUTION,
    Level.CAUTION,
    Level.WARNING,
    Level.WARNING,
    Level.STANDINGS_ADJUSTMENT,
    Level.STANDINGS_ADJUSTMENT,
    Level.DISQUALIFICATION,
)
"""The escalation order of JG §1.2.1: C → C → W → W → SA → SA → DQ."""

_LADDER_START = {level: LADDER.index(level) for level in Level}


def ladder_level(baseline: Level, offence: int) -> Level:
    """Level of the ``offence``-th offence (1-based) of an infraction whose baseline for this
    offence is ``baseline``, climbing :data:`LADDER` (JG §1.2.1).

    The n-th offence sits n−1 places after the baseline's first place on the ladder; past
    the end it stays at Disqualification. E.g. ``ladder_level(Level.WARNING, 3)`` →
    ``STANDINGS_ADJUSTMENT``. Raises ``ValueError`` if ``offence`` < 1.
    """
    if offence < 1:
        raise ValueError(f"offence must be 1 or more, not {offence}")
    baseline = Level(baseline)
    return LADDER[min(_LADDER_START[baseline] + offence - 1, len(LADDER) - 1)]


def ladder_from(baseline: Level) -> tuple[Level, ...]:
    """The ladder as it reads from ``baseline`` (JG §1.2.1): e.g. from Warning,
    ``(W, W, SA, SA, DQ)``."""
    return LADDER[_LADDER_START[Level(baseline)] :]


_LEVEL_TEXT = {
    Level.CAUTION: pgettext_lazy("VEKN penalty level", "Caution"),
    Level.WARNING: pgettext_lazy("VEKN penalty level", "Warning"),
    Level.STANDINGS_ADJUSTMENT: pgettext_lazy("VEKN penalty level", "Standings Adjustment"),
    Level.DISQUALIFICATION: pgettext_lazy("VEKN penalty level", "Disqualification"),
}


def level_text(level: Level | str) -> str:
    """The level's name in the active language (``"Standings Adjustment"`` in English,
    ``"Ajuste en la clasificación"`` in Spanish), for composed explanations."""
    return str(_LEVEL_TEXT[Level(level)])


def _spanish() -> bool:
    return (get_language() or "").startswith("es")


def _name(inf: Infraction) -> str:
    """``"3.7 Marked Cards"`` in the active language (the catalogue's ``name_es`` in
    Spanish)."""
    return f"{inf.code} {inf.name_es if _spanish() else inf.name}"


def _ladder_text(baseline: Level) -> str:
    return " → ".join(level_text(level) for level in ladder_from(baseline))


# ---------------------------------------------------------------------------------------
# Catalogue types (JG §2–§4, appendix; SPEC-penalties §1.2)
# ---------------------------------------------------------------------------------------


class Category(StrEnum):
    """The three infraction families of JG §2–§4 (stored codes)."""

    PROCEDURAL_ERROR = "procedural_error"
    TOURNAMENT_ERROR = "tournament_error"
    UNSPORTSMANLIKE_CONDUCT = "unsportsmanlike_conduct"

    @property
    def label(self) -> str:
        return _CATEGORY_NAMES[self][0]

    @property
    def label_es(self) -> str:
        return _CATEGORY_NAMES[self][1]


_CATEGORY_NAMES = {
    Category.PROCEDURAL_ERROR: ("Procedural Error", "Error de procedimiento"),
    Category.TOURNAMENT_ERROR: ("Tournament Error", "Error de torneo"),
    Category.UNSPORTSMANLIKE_CONDUCT: ("Unsportsmanlike Conduct", "Conducta antideportiva"),
}


class Escalation(StrEnum):
    """How repeats of an infraction in the same event are treated (JG §1.2.1 and the
    infraction's own section; SPEC-penalties §1.3)."""

    LADDER = "ladder"
    """The general ladder of JG §1.2.1."""
    NEVER = "never"
    """Repeats never escalate (JG §2.4)."""
    IF_SIGNIFICANT = "if_significant"
    """Repeats climb the ladder only when the ``significant`` condition is yes (JG §3.5)."""
    REPEAT_UPGRADE = "repeat_upgrade"
    """Any repeat in the event is a Disqualification (JG §4.2 Upgrade: "the offense occurs
    again")."""
    REMOVAL = "removal"
    """Warning, then removal from the event if uncorrected — a withdrawal, not a further
    penalty, so the level never climbs (JG §4.10)."""


class EthicsReport(StrEnum):
    """Whether a penalty must be referred to the VEKN Ethics Committee (JG §1.1.4 and the
    infraction's section; SPEC-penalties §1.2)."""

    NO = "no"
    ALWAYS = "always"
    IF_ESCALATED = "if_escalated"
    """Only when the infraction's own upgrade applies (JG §4.2)."""
    BY_GRAVITY = "by_gravity"
    """The head judge decides by the gravity of the case (JG §4.3, §4.5)."""


class ConditionEffect(StrEnum):
    """What a yes to a condition question does."""

    BASELINE = "baseline"
    """Yes sets this offence's baseline to the condition's ``level`` (JG §2.1, §2.3, §3.1.1,
    §3.7, §4.2, §4.12)."""
    ESCALATION = "escalation"
    """Yes lets repeats climb the ladder (JG §3.5)."""


def validate_answers(
    conditions: Sequence, given: Mapping[str, object] | None, *, title: str, code: str
) -> dict[str, bool]:
    """The judge's answers to ``conditions`` (objects with ``name``, ``question``,
    ``required``) checked: ``{name: bool}`` for every condition, optional ones defaulting
    to False. Shared by both rulesets (VEKN and Mitos y Leyendas).

    Raises :class:`MissingCondition` (a required one is absent — checked first, in the
    catalogue's order), :class:`UnknownCondition` (a name the infraction does not have),
    :class:`InvalidCondition` (a value that is not a bool)."""
    given = dict(given or {})
    result: dict[str, bool] = {}
    for condition in conditions:
        if condition.name not in given:
            if condition.required:
                raise MissingCondition(
                    f"missing condition {condition.name!r} for {title}: {condition.question}",
                    condition=condition.name,
                    infraction=code,
                )
            result[condition.name] = False
            continue
        value = given[condition.name]
        if not isinstance(value, bool):
            raise InvalidCondition(
                f"condition {condition.name!r} for {title} must be true or false",
                condition=condition.name,
                infraction=code,
            )
        result[condition.name] = value
    known = {c.name for c in conditions}
    for name in given:
        if name not in known:
            expected = ", ".join(sorted(known)) or "none"
            raise UnknownCondition(
                f"unknown condition {name!r} for {title} (its conditions: {expected})",
                condition=str(name),
                infraction=code,
            )
    return result


@dataclass(frozen=True, slots=True)
class Condition:
    """A yes/no question the judge answers for one offence (SPEC-penalties §1.2).

    - ``name``: the key used by the API and the event file (e.g. ``"pattern"``); stored,
      never renamed.
    - ``question`` / ``question_es``: what the UI asks, in English / Spanish.
    - ``effect`` and ``level``: a yes sets the baseline to ``level``
      (:attr:`ConditionEffect.BASELINE`) or lets repeats escalate (``ESCALATION``).
    - ``required``: if False, a missing answer means no.
    - ``consequence``: extra corrective action when the answer is yes.
    """

    name: str
    question: str
    question_es: str
    effect: ConditionEffect
    level: Level | None = None
    required: bool = True
    yes_means: str = ""
    no_means: str = ""
    consequence: str = ""


@dataclass(frozen=True, slots=True)
class Infraction:
    """One infraction of JG §2–§4 (SPEC-penalties §1.2).

    - ``code``: the guide's section number (``"2.1"``, ``"3.1.1"``, ``"4.12"``); stored,
      never renamed. ``name`` / ``name_es``: the guide's English / Spanish names.
    - ``baseline``: the first-offence penalty when every condition is answered no.
    - ``conditions``: the yes/no questions (:class:`Condition`).
    - ``escalation``: how repeats are treated (:class:`Escalation`).
    - ``definition`` / ``corrective_action``: short texts in our own words.
    - flags: ``requires_intent`` (the infraction exists only if the act was intentional),
      ``report_to_ethics_committee`` (:class:`EthicsReport`), ``written_report`` (a written
      report of the incident is required or recommended by the guide),
      ``floor_judge_may_confirm`` (a floor judge may confirm its Standings Adjustment:
      "clear decklist errors", JG §1.2.2 — **[choice]** 3.1.1 and 3.1.2 only),
      ``reclassify_if_intentional`` (the infraction to use instead when it was
      deliberate).
    - ``notes``: other guidance the UI shows (head-judge options, related infractions).
    """

    code: str
    name: str
    name_es: str
    category: Category
    baseline: Level
    definition: str
    corrective_action: str
    conditions: tuple[Condition, ...] = ()
    escalation: Escalation = Escalation.LADDER
    requires_intent: bool = False
    report_to_ethics_committee: EthicsReport = EthicsReport.NO
    written_report: bool = False
    floor_judge_may_confirm: bool = False
    reclassify_if_intentional: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        """E.g. ``"JG §3.7"``."""
        return f"{GUIDE} §{self.code}"

    @property
    def title(self) -> str:
        """E.g. ``"3.7 Marked Cards"``."""
        return f"{self.code} {self.name}"

    @property
    def baseline_levels(self) -> tuple[Level, ...]:
        """Every first-offence level the conditions can give, lightest first (the
        appendix's "minor / major" pair for conditional baselines)."""
        levels = {self.baseline} | {
            c.level
            for c in self.conditions
            if c.effect is ConditionEffect.BASELINE and c.level is not None
        }
        return tuple(sorted(levels, key=lambda level: level.severity))

    def condition(self, name: str) -> Condition:
        """The condition called ``name``; ``KeyError`` if the infraction has none."""
        for condition in self.conditions:
            if condition.name == name:
                return condition
        raise KeyError(name)

    def answers(self, conditions: Mapping[str, object] | None) -> dict[str, bool]:
        """Validate the judge's answers: ``{name: bool}`` for every condition of this
        infraction, optional ones defaulting to False.

        Raises :class:`MissingCondition` (a required one is absent — checked first, in the
        catalogue's order), :class:`UnknownCondition` (a name this infraction does not
        have), :class:`InvalidCondition` (a value that is not a bool).
        """
        return validate_answers(self.conditions, conditions, title=self.title, code=self.code)

    def baseline_for(self, answers: Mapping[str, bool]) -> Level:
        """This offence's baseline given validated ``answers`` (see :meth:`answers`): the
        most severe level among the BASELINE conditions answered yes, else
        :attr:`baseline` (a conditional baseline is decided per offence, SPEC-penalties
        §1.3)."""
        levels = [
            c.level
            for c in self.conditions
            if c.effect is ConditionEffect.BASELINE and c.level is not None and answers[c.name]
        ]
        return max(levels, key=lambda level: level.severity) if levels else self.baseline


@dataclass(frozen=True, slots=True)
class OrganisationalCase:
    """An organisational case of JG §5 (SPEC-penalties §1.8), as data the UI shows.

    ``resolution`` lists what the guide prescribes, in our own words; ``choices`` lists the
    product's interpretations (**[choice]**)."""

    code: str
    name: str
    name_es: str
    description: str
    resolution: tuple[str, ...]
    choices: tuple[str, ...] = ()
    note: str = ""

    @property
    def source(self) -> str:
        return f"{GUIDE} §{self.code}"


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A versioned penalty ruleset: the catalogue of one revision of the judges' guide.

    ``code`` is what events store (``"vekn"``), ``version`` the guide revision (``"v2"``);
    a later revision gets its own ``Ruleset`` beside this one (e.g. ``VEKN_V3``) and the
    registry :data:`RULESETS` points ``"vekn"`` at the current one.
    ``catalogue``: ``{code: Infraction}`` in guide order; ``organisational_cases``:
    ``{code: OrganisationalCase}``; ``choices``: the interpretations the product made
    where the guide or SPEC is silent or ambiguous (**[choice]**), for the ruleset's page."""

    code: str
    version: str
    name: str
    source: str
    catalogue: Mapping[str, Infraction]
    organisational_cases: Mapping[str, OrganisationalCase] = field(
        default_factory=lambda: MappingProxyType({})
    )
    levels: Mapping[Level, LevelInfo] = LEVELS
    ladder: tuple[Level, ...] = LADDER
    choices: tuple[str, ...] = ()

    def infraction(self, code: object) -> Infraction:
        """The infraction with this code; raises :class:`UnknownInfraction`."""
        try:
            return self.catalogue[code]  # type: ignore[index]
        except (KeyError, TypeError):
            raise UnknownInfraction(code, self.code) from None


# ---------------------------------------------------------------------------------------
# The catalogue of JG v2 (§2–§4)
# ---------------------------------------------------------------------------------------

_P = Category.PROCEDURAL_ERROR
_T = Category.TOURNAMENT_ERROR
_U = Category.UNSPORTSMANLIKE_CONDUCT
C, W, SA, DQ = Level.CAUTION, Level.WARNING, Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION

_INFRACTIONS: tuple[Infraction, ...] = (
    # -- §2 Procedural errors -----------------------------------------------------------
    Infraction(
        "2.1",
        "Missed Mandatory Effect",
        "Omisión de un efecto obligatorio",
        _P,
        C,
        definition=_(
            "A player does not show awareness of a mandatory effect of a card or game "
            "effect they control before it should visibly affect the game."
        ),
        corrective_action=_(
            "If the missed effect can still be applied without major "
            "disruption, the player applies it now; otherwise play goes on from the current "
            "state."
        ),
        conditions=(
            Condition(
                "advantage",
                "Was the missed effect detrimental to its controller, or did missing it give "
                "an advantage?",
                "¿El efecto omitido perjudicaba a quien lo controla, o su omisión le dio una "
                "ventaja?",
                ConditionEffect.BASELINE,
                W,
                yes_means=_("detrimental to its controller, or missing it gave an advantage"),
                no_means=_("neither detrimental to its controller nor an advantage"),
            ),
        ),
        reclassify_if_intentional="4.7",
    ),
    Infraction(
        "2.2",
        "Card Access Error",
        "Error en el acceso a cartas",
        _P,
        C,
        definition=_(
            "By accident, a player sees or draws cards they were not entitled to, or "
            "does not draw cards they had to draw (the opening hand included)."
        ),
        corrective_action=_(
            "Undo the information gained where possible: identified extra "
            "cards go back to their hidden area, which is shuffled; unidentified ones are taken "
            "at random from the hand and shuffled back. Missed draws are made. The head judge "
            "settles unusual fixes."
        ),
        reclassify_if_intentional="4.7",
    ),
    Infraction(
        "2.3",
        "Game Rule Violation",
        "Infracción de las reglas del juego",
        _P,
        W,
        definition=_(
            "A player breaks a game rule or carries out a game procedure wrongly, "
            "when no more specific infraction covers it."
        ),
        corrective_action=_(
            "Use the least disruptive fix: a simple roll-back of the last "
            "action; else a partial fix (unlock minions forgotten this turn, redo an illegal "
            "mandatory choice, move a misplaced card, treat a clearly declared card as the one "
            "played); else a forward fix removing the advantage gained; or leave the game as it "
            "is if fixing it would be too disruptive."
        ),
        conditions=(
            Condition(
                "simple_fix",
                "Can it be fixed by a simple roll-back, or by declaring the played card's "
                "effect correctly?",
                "¿Puede corregirse con un retroceso simple o declarando correctamente el "
                "efecto de la carta jugada?",
                ConditionEffect.BASELINE,
                C,
                yes_means=_("fixed by a simple roll-back or a correct declaration"),
                no_means=_("not fixable by a simple roll-back"),
            ),
        ),
        notes=(
            _(
                "Opponents who could reasonably have noticed the error may also receive 2.4 "
                "Failure to Maintain Game State (a separate penalty, not a linked one)."
            ),
        ),
    ),
    Infraction(
        "2.4",
        "Failure to Maintain Game State",
        "No mantener el estado de la partida",
        _P,
        SA,
        definition=_(
            "A player clearly noticed a visible, relevant and ongoing Game Rule "
            "Violation, could reasonably have spoken up, and stayed silent (missed mandatory "
            "effects excepted)."
        ),
        corrective_action=_("Nothing beyond fixing the Game Rule Violation itself (§2.3)."),
        escalation=Escalation.NEVER,
    ),
    # -- §3 Tournament errors -----------------------------------------------------------
    Infraction(
        "3.1.1",
        "Illegal Decklist",
        "Lista de mazo ilegal",
        _T,
        W,
        definition=_(
            "At an event with decklists, the registered list is illegal (card "
            "counts, banned cards, crypt grouping) or ambiguous enough to allow changing the "
            "deck, or must change because lost cards cannot be replaced."
        ),
        corrective_action=_(
            "Fix the list: remove illegal cards, clarify entries whose meaning "
            "is unambiguous, fill missing cards with basic, universally available cards, and "
            "have the head judge make the crypt legal; the list then matches the legal deck "
            "actually played. Found outside a game, the penalty normally takes effect at the "
            "start of the player's next round."
        ),
        conditions=(
            Condition(
                "irreconcilable",
                "Are both the deck and the decklist illegal, and impossible to reconcile "
                "without substantially changing the deck?",
                "¿Son ilegales tanto el mazo como la lista, y no pueden hacerse coincidir sin "
                "modificar sustancialmente el mazo?",
                ConditionEffect.BASELINE,
                SA,
                yes_means=_(
                    "deck and list both illegal and not reconcilable without substantial change"
                ),
                no_means=_("the list alone is at fault, or it can be reconciled"),
                consequence=_(
                    "The player has five minutes to adjust the decklist so that "
                    "the physical deck becomes legal."
                ),
            ),
        ),
        floor_judge_may_confirm=True,
        notes=(
            _(
                "If the head judge finds that a shorthand name clearly designates one card, "
                "the penalty may be reduced (a head-judge deviation)."
            ),
        ),
    ),
    Infraction(
        "3.1.2",
        "Illegal Main Deck (Legal Decklist)",
        "Mazo principal ilegal (lista de mazo legal)",
        _T,
        SA,
        definition=_(
            "With a legal decklist, the deck itself is illegal or does not match the "
            "list (stray cards from earlier games, missing cards)."
        ),
        corrective_action=_(
            "Make the deck match the list (or the list match the deck, if the "
            "judge finds the list was the source of the error) before the player's next round: "
            "retrieve stray cards, reveal and replace wrong cards. If the missing card came "
            "from another player's deck, both players are penalised."
        ),
        floor_judge_may_confirm=True,
    ),
    Infraction(
        "3.1.3",
        "Illegal Main Deck (No Decklists Used)",
        "Mazo principal ilegal (sin listas de mazo)",
        _T,
        SA,
        definition=_(
            "At an event without decklists, the deck is illegal: card count, cards "
            "not legal for the event, crypt grouping, improper proxies."
        ),
        corrective_action=_(
            "Remove illegal cards; refill a short deck by one neutral method "
            "chosen beforehand, with organiser proxies; remove random cards from an oversized "
            "deck; the head judge makes the crypt legal. All before the player's next round."
        ),
    ),
    Infraction(
        "3.2",
        "Outside Assistance",
        "Ayuda externa",
        _T,
        SA,
        definition=_(
            "After a game has started, someone gives or receives strategic, tactical "
            "or hidden-information help from outside that game, or consults notes prepared "
            "before the round."
        ),
        corrective_action=_(
            "Penalise each responsible person: whoever gave unsolicited help, "
            "and a player who asked for, accepted or knowingly used it. Spectators who are not "
            "participants may be removed from the venue."
        ),
        notes=(
            _(
                "The head judge may reduce or waive the penalty of a player who refused the "
                "help at once and called a judge (a head-judge deviation)."
            ),
        ),
    ),
    Infraction(
        "3.3",
        "Slow Play",
        "Juego lento",
        _T,
        C,
        definition=_(
            "A player takes clearly longer than reasonably needed for game actions or decisions."
        ),
        corrective_action=_(
            "Ask the player to speed up, without using the word "
            "'stalling'; give the table a time extension if the ruling took significant "
            "time (§1.2.4)."
        ),
        reclassify_if_intentional="4.6",
        notes=(
            _(
                "The English appendix lists Slow Play as Warning, but §3.3 (and the Spanish "
                "text) give Caution: we follow §3.3."
            ),
        ),
    ),
    Infraction(
        "3.4",
        "Limited Procedure Violation",
        "Infracción de un procedimiento Limitado",
        _T,
        C,
        definition=_(
            "A technical mistake during the draft of a limited event (passing "
            "direction, pick time, changing a pick) that gives no information."
        ),
        corrective_action=_(
            "Restore the draft flow and the booster or card; remind the pod "
            "of the procedure; a time extension only if the pod was meaningfully slowed."
        ),
        notes=(
            _(
                "If information was gained, use 2.2 Card Access Error or 3.2 Outside "
                "Assistance instead."
            ),
        ),
    ),
    Infraction(
        "3.5",
        "Public Information Miscommunication",
        "Comunicación incorrecta de información pública",
        _T,
        W,
        definition=_(
            "A player gives wrong, misleading or incomplete information about public "
            "game elements (pool, blood, bonuses, who has the Edge)."
        ),
        corrective_action=_(
            "If the wrong information directly caused an in-game action or "
            "non-action, the judge may roll back to that action (not to the statement)."
        ),
        conditions=(
            Condition(
                "significant",
                "Did this miscommunication significantly affect the game or the event's fairness?",
                "¿La comunicación incorrecta afectó de forma significativa a la partida o a "
                "la equidad del torneo?",
                ConditionEffect.ESCALATION,
                yes_means=_("significant impact on the game or event, so repeats escalate"),
                no_means=_("no significant impact, so repeats do not escalate"),
            ),
        ),
        escalation=Escalation.IF_SIGNIFICANT,
    ),
    Infraction(
        "3.6",
        "Obscuring Game State",
        "Presentación confusa de la información pública",
        _T,
        C,
        definition=_(
            "A player's physical layout hides or blurs public information (stacked "
            "cards, unclear locked, ready or torpor positions, attachments, counters)."
        ),
        corrective_action=_(
            "The player reorganises the play area at once into a clear, "
            "conventional layout; the judge may help with the player's consent."
        ),
    ),
    Infraction(
        "3.7",
        "Marked Cards",
        "Cartas marcadas",
        _T,
        W,
        definition=_(
            "Cards or sleeves (only the sleeves, if opaque) show physical differences "
            "that could let someone identify cards in the library, crypt or hand."
        ),
        corrective_action=_(
            "Replace the marked sleeves or cards as soon as possible (judge "
            "sleeves, or head-judge proxies for worn cards). A player who cannot bring the deck "
            "to a legal, unmarked state in reasonable time, with no sleeves available, is "
            "removed from the event."
        ),
        conditions=(
            Condition(
                "pattern",
                "Do the marks follow a significant pattern (card type, clan, discipline, "
                "key cards)?",
                "¿Las marcas siguen un patrón significativo (tipo de carta, clan, disciplina, "
                "cartas clave)?",
                ConditionEffect.BASELINE,
                SA,
                yes_means=_("the marks follow a significant pattern"),
                no_means=_("no significant pattern"),
            ),
            Condition(
                "deck_changed",
                "Did the deck have to be changed because marked cards could not be replaced?",
                "¿Hubo que modificar el mazo porque las cartas marcadas no podían sustituirse?",
                ConditionEffect.BASELINE,
                SA,
                required=False,
                yes_means=_("the deck had to be changed because cards could not be replaced"),
                no_means=_("the deck was not changed"),
                consequence=_(
                    "The decklist is updated to the new configuration; this may be "
                    "reverted if suitable replacements are found later."
                ),
            ),
        ),
        reclassify_if_intentional="4.7",
        notes=(
            _("Markings are presumed unintentional unless there is strong evidence otherwise."),
        ),
    ),
    Infraction(
        "3.8",
        "Insufficient Shuffling",
        "Barajado insuficiente",
        _T,
        W,
        definition=_(
            "By accident, a player presents a library or crypt (or part of one) that "
            "is not properly randomised."
        ),
        corrective_action=_(
            "Shuffle the affected portion thoroughly; the judge may require a full shuffle."
        ),
        reclassify_if_intentional="4.7",
    ),
    # -- §4 Unsportsmanlike conduct -----------------------------------------------------
    Infraction(
        "4.1",
        "Unsportsmanlike Conduct — Minor",
        "Conducta antideportiva — Leve",
        _U,
        W,
        definition=_(
            "Disruptive, disrespectful or emotional behaviour not aimed at a specific "
            "person (raised voice, rude remarks, offensive items, ignoring an official's "
            "instruction to step away)."
        ),
        corrective_action=_("The player stops the behaviour at once."),
    ),
    Infraction(
        "4.2",
        "Unsportsmanlike Conduct — Major",
        "Conducta antideportiva — Grave",
        _U,
        SA,
        definition=_(
            "Targeted, aggressive or coercive behaviour towards a person (slurs, "
            "intimidation, harassment, photos without consent); the impact matters more than "
            "the intent."
        ),
        corrective_action=_(
            "Stop the game and separate the people involved; the player "
            "corrects the behaviour at once; the guide recommends a written report of the "
            "incident to the VEKN Ethics Committee."
        ),
        conditions=(
            Condition(
                "malicious",
                "Was it malicious, is the player unrepentant, or has it happened again?",
                "¿Fue malintencionada, el jugador no muestra arrepentimiento o ha vuelto a "
                "ocurrir?",
                ConditionEffect.BASELINE,
                DQ,
                yes_means=_("malicious, unrepentant or repeated"),
                no_means=_("not malicious, unrepentant or repeated"),
                consequence=_(
                    "The person is removed from the venue and the behaviour must "
                    "be reported to the VEKN Ethics Committee."
                ),
            ),
        ),
        escalation=Escalation.REPEAT_UPGRADE,
        report_to_ethics_committee=EthicsReport.IF_ESCALATED,
        written_report=True,
    ),
    Infraction(
        "4.3",
        "Aggressive Behaviour",
        "Comportamiento agresivo",
        _U,
        DQ,
        definition=_(
            "Physically threatening, violent or damaging behaviour towards people, "
            "belongings or tournament property, or threats that make someone fear for their "
            "safety."
        ),
        corrective_action=_(
            "The organiser has the offender leave the venue at once. After a "
            "flipped table: halt the game, secure the area, rebuild the game state only if it "
            "can be done reliably (with a time extension), else end the game; document it all "
            "in the event report."
        ),
        report_to_ethics_committee=EthicsReport.BY_GRAVITY,
        written_report=True,
    ),
    Infraction(
        "4.4",
        "Bribery and Wagering",
        "Soborno y apuestas",
        _U,
        DQ,
        definition=_(
            "Offering, asking for or accepting an out-of-game incentive to influence "
            "a game's result, or betting on any part of the event."
        ),
        corrective_action=_("A written report goes to the VEKN Ethics Committee."),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.5",
        "Theft of Tournament Material",
        "Robo de material del torneo",
        _U,
        DQ,
        definition=_(
            "Taking, hiding or knowingly keeping cards, counters or other material "
            "of the event or of other participants."
        ),
        corrective_action=_(
            "The organiser has the offender leave the venue at once; "
            "depending on the gravity, a report goes to the VEKN Ethics Committee."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.BY_GRAVITY,
        written_report=True,
    ),
    Infraction(
        "4.6",
        "Stalling",
        "Pérdida de tiempo deliberada",
        _U,
        DQ,
        definition=_(
            "Deliberately slowing the game to take advantage of the round's time "
            "limit (look for a change of pace when ahead or near the end)."
        ),
        corrective_action=_(
            "The player leaves the venue if the organiser says so; the judges "
            "document the incident thoroughly."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.7",
        "Cheating",
        "Hacer trampas",
        _U,
        DQ,
        definition=_(
            "Knowingly breaking the rules or tournament policy to gain an advantage, "
            "lying to an official, or knowingly leaving a significant offence in one's game "
            "unreported."
        ),
        corrective_action=_(
            "The offender may be removed from the venue (the organiser "
            "decides); a written report goes to the VEKN Ethics Committee."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.8",
        "Fraud",
        "Fraude",
        _U,
        DQ,
        definition=_(
            "Deliberately misrepresenting rules, procedures, identity or results "
            "(a false name or VEKN ID, an altered result sheet)."
        ),
        corrective_action=_("A written report goes to the VEKN Ethics Committee."),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.9",
        "Collusion",
        "Colusión",
        _U,
        DQ,
        definition=_(
            "Players agree to fix or predetermine a game or match result outside "
            "open in-game negotiation (outside incentives, secret deals, random methods, deals "
            "about tournament outcomes)."
        ),
        corrective_action=_("A written report goes to the VEKN Ethics Committee."),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.10",
        "Health & Safety Disruption",
        "Alteración de la salud y la seguridad",
        _U,
        W,
        definition=_(
            "A player's physical condition or behaviour makes the event unsafe, "
            "unsanitary or seriously uncomfortable for others (hygiene, intoxication, health or "
            "safety risks)."
        ),
        corrective_action=_(
            "Ask the player privately to correct the issue (a break, "
            "freshening up). If it cannot be corrected quickly or is severe, the player is "
            "removed from the event with no further penalty. Handle medical conditions "
            "sensitively and without shaming."
        ),
        escalation=Escalation.REMOVAL,
    ),
    Infraction(
        "4.11",
        "Rage-Quitting",
        "Abandono airado de la partida",
        _U,
        DQ,
        definition=_(
            "Deliberately abandoning a running game in anger or frustration, "
            "without judge authorisation."
        ),
        corrective_action=_(
            "Remove the player from the game and the event, adjust the game "
            "state as for a player no longer present, and consider a time extension for the "
            "table."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.12",
        "Failure to Play to Win",
        "No jugar para ganar",
        _U,
        W,
        definition=_(
            "A player deliberately does not pursue their best result (the game win, "
            "else the most VP, else half a VP by surviving), e.g. kingmaking, or honouring a "
            "deal that could not improve their chances when it was made."
        ),
        corrective_action=_(
            "Explain what playing to win requires; the guide gives no game-state fix."
        ),
        conditions=(
            Condition(
                "uncorrectable",
                "Is it a clear case of several deliberate self-harming actions that can no "
                "longer be corrected (explicit statements, deliberate game throwing)?",
                "¿El jugador ha realizado múltiples acciones que perjudican deliberadamente "
                "sus propias posibilidades y la situación ya no puede corregirse?",
                ConditionEffect.BASELINE,
                SA,
                yes_means=_("several deliberate self-harming actions, no longer correctable"),
                no_means=_("not such a clear or uncorrectable case"),
            ),
        ),
        requires_intent=True,
    ),
)


# ---------------------------------------------------------------------------------------
# Organisational cases (JG §5; SPEC-penalties §1.8)
# ---------------------------------------------------------------------------------------

_ORGANISATIONAL: tuple[OrganisationalCase, ...] = (
    OrganisationalCase(
        "5.1",
        "Unexpected Drop",
        "Abandono inesperado",
        _("A player leaves the event unexpectedly and cannot continue."),
        (
            _("During seating of a 5-player table: it becomes a 4-player table."),
            _(
                "During seating of a 4-player table: reseat to form legal tables of 4 or 5 "
                "(Tournament Rules §3.1.2)."
            ),
            _(
                "At large events without the multi-judge system, a 4-player table that loses "
                "a player after the other tables have started gets a staff member as proxy "
                "player, with a deck drawn at random from the staff decks."
            ),
            _(
                "If legal tables can no longer be formed, the event becomes unsanctioned at "
                "once; between rounds it may be restored (e.g. a judge joins as a player)."
            ),
            _(
                "Before the first round, if legal tables cannot be formed: unsanctioned, and no "
                "official VEKN or publisher prizes."
            ),
            _(
                "Unsanctioned during the event: prizes may still be given; the report is sent "
                "as usual, noting what happened; no effect on ratings."
            ),
        ),
        (
            _(
                "A substitute (proxy) player scores nothing and is left out of the table's "
                "ranking: GW and TP are computed among the competing players only."
            ),
        ),
    ),
    OrganisationalCase(
        "5.1.1",
        "Substitute Player",
        "Jugador sustituto",
        _(
            "A staff member temporarily fills a vacant seat so the table keeps a legal size; "
            "they are not a participant."
        ),
        (
            _(
                "The substitute plays to win in good faith, at a steady pace, without favouring "
                "anyone or using outside knowledge, and follows the judges' instructions."
            ),
            _(
                "Their deck is legal, reasonably competitive, and drawn at random from decks "
                "prepared by the organisers or judges."
            ),
            _(
                "They earn no VP, GW or TP; they can oust and be ousted, and VP from those "
                "interactions go to the other players as usual."
            ),
        ),
        (_("A substitute scores nothing and is left out of the table's ranking."),),
        note=_(
            "This subsection is only in the Spanish translation; the English guide "
            "mentions the proxy player inside §5.1."
        ),
    ),
    OrganisationalCase(
        "5.2",
        "Venue Interference",
        "Interferencia del recinto",
        _("The venue imposes constraints that force shorter rounds."),
        (
            _("Adjust round times as the venue requires."),
            _(
                "The event becomes unsanctioned if a round is shorter than 2 hours and at "
                "least one of its tables ended because time was called."
            ),
            _("A round under 2 hours where no table reached time keeps the event sanctioned."),
            _(
                "Note the venue problems in the event report; prizes may be given if the event "
                "can be completed."
            ),
        ),
    ),
    OrganisationalCase(
        "5.3",
        "Force Majeure and Emergency Termination",
        "Fuerza mayor y finalización de emergencia",
        _(
            "An unexpected external event (evacuation, power failure, weather, hostile third "
            "parties) makes continuing unsafe or impossible."
        ),
        (
            _("The head judge halts all games and secures everyone's safety first."),
            _(
                "If play cannot resume: games in progress end with no further VP; standings, "
                "prizes and qualifications are those after the last fully completed round "
                "(incomplete rounds are ignored entirely)."
            ),
            _("Interrupted during the final: the event is incomplete and no winner is declared."),
            _("No round completed: the event is void."),
            _(
                "If it can resume: restart the round (recommended), or resume it only if every "
                "table agrees and no competitive information was compromised."
            ),
            _(
                "Hostile venue staff are a force majeure case; relocation is allowed only if "
                "every player can move, no information was compromised and the new space is "
                "adequate."
            ),
            _(
                "The head judge sends VEKN a full written report: what happened, how it was "
                "decided, the standings at termination, safety issues."
            ),
        ),
    ),
    OrganisationalCase(
        "5.4",
        "Organizer's / Judge's Recommended Supplies",
        "Material recomendado para organizadores y jueces",
        _("Supplies that let judges fix common problems quickly and fairly."),
        (
            _("Identical opaque sleeves for at least two complete decks."),
            _("Judge-issued proxy vampires and innocuous spare library cards."),
            _(
                "Pens, paper, blank decklists; printed or offline rules, this guide and the ban "
                "list."
            ),
            _(
                "A timer, access to the tournament software, blood and pool counters, neutral "
                "markers."
            ),
        ),
    ),
)


CHOICES: tuple[str, ...] = (
    _(
        "Slow Play (3.3) starts at Caution as §3.3 and the Spanish text say; the English "
        "appendix's 'Warning' is taken as a misprint."
    ),
    _(
        "Failure to Play to Win (4.12): the 'uncorrectable' question covers the English "
        "'particularly clear or disruptive cases' and the Spanish 'several deliberate "
        "self-harming actions that can no longer be corrected'."
    ),
    _(
        "Marked Cards (3.7): 'deck_changed' may be left out (it means no); every other condition "
        "must be answered. Answers to conditions an infraction does not have are rejected."
    ),
    _(
        "Unsportsmanlike Conduct — Major (4.2): any repeat in the same event is a "
        "Disqualification (§4.2 Upgrade), whatever the 'malicious' answer; a repeat across "
        "events is left to that answer, with the earlier events shown as context."
    ),
    _(
        "Health & Safety Disruption (4.10) never climbs the ladder: every offence is a Warning; "
        "from the second in the event the person is also removed (a withdrawal, no further "
        "penalty), and the first offers removal as an alternative."
    ),
    _(
        "Earlier events: any recorded penalty (Warning or above) for the same infraction gives "
        "the single 'pre-existing warning' context; earlier cautions are not recorded and give "
        "none."
    ),
    _(
        "Linked infractions are one person's; on equal severity the earlier incident is the one "
        "issued."
    ),
    _("A Disqualification lists 'warning' in 'also' (§1.1.4: it always includes a Warning)."),
    _(
        "Ethics Committee: 4.2 is referred when escalated (the guide also recommends a written "
        "report for every 4.2); 4.3 and 4.5 by gravity (head judge); 4.4, 4.6–4.9 and 4.11 "
        "always; a DQ by accumulation never; a head-judge deviation to DQ is left to the head "
        "judge."
    ),
    _(
        "A floor judge may confirm the Standings Adjustments of 3.1.1 and 3.1.2 (the 'clear "
        "decklist errors' of §1.2.2); every other SA and every DQ waits for the head judge."
    ),
    _(
        "Standings Adjustment 'between rounds' with round N means after round N; when the game "
        "it should hit does not exist, it falls on the next game played, else the last one."
    ),
    _(
        "Time extensions are whole minutes rounded down (never more than the time lost); "
        "within a range the suggestion is the time lost."
    ),
)
"""The product's interpretations of the guide (**[choice]**), shown on the ruleset's
page (:class:`Translatable`: ``str(choice)`` reads in the active language)."""

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
# The engine (JG §1.2.1, §1.2.6; SPEC-penalties §1.3)
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

    The first eight fields are the CONTRACTS §4 response (see :meth:`as_json`):

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
        """The CONTRACTS §4 response body: exactly ``level``, ``offence``, ``baseline``,
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
    SPEC-penalties §1.3).

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
    """Must this penalty go to the VEKN Ethics Committee? (JG §1.1.4, §4.x; SPEC §1.2)."""
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
    """A head-judge deviation (JG §1, §1.2.3; SPEC-penalties §1.6): the same assessment with
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
# A whole event's incidents, with linked groups (JG §1.2.1, §1.2.6; CONTRACTS §1)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Incident:
    """One incident of an event, as in the event file (CONTRACTS §1 ``incidents``).

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
    Assessment}`` in the same order (JG §1.2.1, §1.2.6; CONTRACTS §1).

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


# ---------------------------------------------------------------------------------------
# Standings adjustment timing (JG §1.1.3; SPEC-penalties §1.4)
# ---------------------------------------------------------------------------------------


class Timing(StrEnum):
    """When a penalty was issued (CONTRACTS §1 ``timing``)."""

    DURING_GAME = "during_game"
    BETWEEN_ROUNDS = "between_rounds"
    BEFORE_FIRST_ROUND = "before_first_round"
    AFTER_LAST_GAME = "after_last_game"


@dataclass(frozen=True, slots=True)
class AdjustmentIssue:
    """When a Standings Adjustment was issued.

    - ``timing``: a :class:`Timing` (or its code).
    - ``round``: for ``during_game``, the round of that game (required); for
      ``between_rounds``, the last round finished before it was issued — **[choice]**:
      ``round=2`` means "between rounds 2 and 3" (required); ignored otherwise.
    """

    timing: Timing
    round: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "timing", Timing(self.timing))


@dataclass(frozen=True, slots=True)
class AdjustmentTarget:
    """The game a Standings Adjustment hits (JG §1.1.3): ``round`` of that game (``None``
    if the person has played no game), ``rule`` (``"same_game"``, ``"next_game"``,
    ``"previous_game"``, ``"no_game"``), ``vp`` (−1.0), and an ``explanation`` in the active
    language."""

    round: int | None
    rule: str
    explanation: str
    vp: Decimal = Decimal("-1.0")
    source: str = f"{GUIDE} §1.1.3"


def adjustment_target(issue: AdjustmentIssue, games_played: Sequence[int]) -> AdjustmentTarget:
    """Which game's VP gets −1 for a Standings Adjustment (JG §1.1.3; SPEC-penalties §1.4).

    ``games_played``: the rounds (numbers, the final included) in which the person sat at
    a table, in any order. Resolution: during game G → G; between rounds after round N or
    before round 1 → the next game played after that point; after the last game → the
    last game. When the game it should hit does not exist (no later game yet, event over,
    dropped, not a finalist; or no game in round G), it falls back to the next game played,
    else the last one before — so recompute when more games are played. Several SAs add
    up; VP may go negative (applied by the standings engine).

    Raises ``ValueError`` when ``round`` is missing for ``during_game`` or
    ``between_rounds``, or a round number is not a positive integer.
    """
    games = sorted(set(games_played))
    for game in games:
        if isinstance(game, bool) or not isinstance(game, int) or game < 1:
            raise ValueError(f"round numbers must be positive integers, not {game!r}")
    timing = issue.timing
    if timing in (Timing.DURING_GAME, Timing.BETWEEN_ROUNDS):
        if (
            issue.round is None
            or isinstance(issue.round, bool)
            or not isinstance(issue.round, int)
            or issue.round < 0
        ):
            raise ValueError(f"{timing.value} needs the round number")
    if not games:
        return AdjustmentTarget(
            None,
            "no_game",
            gettext("The person has played no game yet: the −1 VP waits for their next game."),
        )

    def after(n: int) -> int | None:
        return next((g for g in games if g > n), None)

    def last_up_to(n: int) -> int:
        return [g for g in games if g <= n][-1]

    match timing:
        case Timing.DURING_GAME:
            if issue.round in games:
                return AdjustmentTarget(
                    issue.round,
                    "same_game",
                    gettext("Given during the round %(round)s game: −1 VP on that game.")
                    % {"round": issue.round},
                )
            nxt = after(issue.round)
            if nxt is not None:
                return AdjustmentTarget(
                    nxt,
                    "next_game",
                    gettext(
                        "No game of this person in round %(round)s: −1 VP on their next "
                        "game (round %(next)s)."
                    )
                    % {"round": issue.round, "next": nxt},
                )
            prev = last_up_to(issue.round)
            return AdjustmentTarget(
                prev,
                "previous_game",
                gettext(
                    "No game of this person in round %(round)s and none after: −1 VP on "
                    "their previous game (round %(previous)s)."
                )
                % {"round": issue.round, "previous": prev},
            )
        case Timing.BETWEEN_ROUNDS | Timing.BEFORE_FIRST_ROUND:
            point = issue.round if timing is Timing.BETWEEN_ROUNDS else 0
            nxt = after(point)
            note = (
                gettext(
                    " (English text; the Spanish translation says the previous game — the "
                    "English is definitive.)"
                )
                if timing is Timing.BETWEEN_ROUNDS
                else ""
            )
            when = (
                gettext("between rounds, after round %(round)s") % {"round": point}
                if timing is Timing.BETWEEN_ROUNDS
                else gettext("before round 1 pairings")
            )
            if nxt is not None:
                return AdjustmentTarget(
                    nxt,
                    "next_game",
                    gettext(
                        "Given %(when)s: −1 VP on the next game the person plays (round %(next)s)."
                    )
                    % {"when": when, "next": nxt}
                    + note,
                )
            prev = games[-1]
            return AdjustmentTarget(
                prev,
                "previous_game",
                gettext(
                    "Given %(when)s, and the person has played no game since: −1 VP on their "
                    "previous game (round %(previous)s) unless they play again."
                )
                % {"when": when, "previous": prev},
            )
    prev = games[-1]
    return AdjustmentTarget(
        prev,
        "previous_game",
        gettext(
            "Given after the person's last game: −1 VP on that previous game (round %(previous)s)."
        )
        % {"previous": prev},
    )


# ---------------------------------------------------------------------------------------
# Time extensions (JG §1.2.4; SPEC-penalties §1.7)
# ---------------------------------------------------------------------------------------

EXTENSION_CAP = 10
"""Minutes of extension per table per round, unless the head judge authorises more
(JG §1.2.4 "Multiple Time Extensions")."""


@dataclass(frozen=True, slots=True)
class ExtensionRequest:
    """Judge time at a table, for :func:`suggest_time_extension`.

    - ``minutes_spent``: judge time at the table (``Decimal``/``int``/``float`` ≥ 0).
    - ``already_granted``: minutes already granted to this table this round (int ≥ 0).
    - ``head_judge_authorised``: lifts the 10-minute cap (serious disruption).
    - ``scheduled_end``: the table's current end time, to show the new one (optional).
    """

    minutes_spent: Decimal | int | float
    already_granted: int = 0
    head_judge_authorised: bool = False
    scheduled_end: datetime | None = None


@dataclass(frozen=True, slots=True)
class ExtensionSuggestion:
    """A suggested time extension (JG §1.2.4), in whole minutes: ``minutes`` (0 = none),
    the range ``low``–``high`` the guide allows here, the table's ``total`` this round
    after it, whether the cap ``capped`` it, the table's ``new_end`` (when
    ``scheduled_end`` was given) and an ``explanation`` in the active language."""

    minutes: int
    low: int
    high: int
    total: int
    capped: bool
    explanation: str
    new_end: datetime | None = None
    source: str = f"{GUIDE} §1.2.4"


def suggest_time_extension(request: ExtensionRequest) -> ExtensionSuggestion:
    """Suggest a time extension from the judge's time at the table (JG §1.2.4).

    Baseline: under 1 min → none; 1 to under 3 min → +2; 3–5 min → +3 to +5; over 5 min →
    +5 to +10. Never more than the time actually lost: **[choice]** whole minutes, rounded
    down, so 1.5 min lost gives +1. Inside a range the suggestion is the time lost (the
    guide's example: 4 minutes → +4). Extensions stack per table and round, capped at 10
    minutes in total unless ``head_judge_authorised``.

    Raises ``ValueError`` for negative, non-finite or non-numeric inputs.
    """
    try:
        spent = Decimal(str(request.minutes_spent))
    except InvalidOperation:
        raise ValueError(f"minutes_spent is not a number: {request.minutes_spent!r}") from None
    if isinstance(request.minutes_spent, bool) or not spent.is_finite() or spent < 0:
        raise ValueError(f"minutes_spent must be a number ≥ 0, not {request.minutes_spent!r}")
    granted = request.already_granted
    if isinstance(granted, bool) or not isinstance(granted, int) or granted < 0:
        raise ValueError(f"already_granted must be an integer ≥ 0, not {granted!r}")
    lost = math.floor(spent)
    if spent < 1:
        low, high = 0, 0
        bracket = gettext("a brief ruling (under a minute): no extension is normally needed")
    elif spent < 3:
        low, high = 2, 2
        bracket = gettext("a standard ruling (1–3 minutes): +2 minutes")
    elif spent <= 5:
        low, high = 3, 5
        bracket = gettext("a complex investigation (3–5 minutes): +3 to +5 minutes")
    else:
        low, high = 5, 10
        bracket = gettext("a major disruption (over 5 minutes): +5 to +10 minutes")
    nominal = max(low, min(lost, high))
    minutes = min(nominal, lost)
    high = min(high, lost)
    low = min(low, high)
    lines = [
        gettext("Judge time %(spent)s min: %(bracket)s.")
        % {"spent": f"{spent.normalize():f}", "bracket": bracket}
    ]
    if minutes < nominal:
        lines.append(
            gettext("Never more than the time actually lost (%(lost)s min, whole minutes).")
            % {"lost": lost}
        )
    capped = False
    if not request.head_judge_authorised:
        room = max(0, EXTENSION_CAP - granted)
        if minutes > room:
            minutes, capped = room, True
            high, low = min(high, room), min(low, room)
            lines.append(
                gettext(
                    "Extensions at this table this round are capped at %(cap)s minutes "
                    "(%(granted)s already granted) unless the head judge authorises more."
                )
                % {"cap": EXTENSION_CAP, "granted": granted}
            )
    total = granted + minutes
    lines.append(
        gettext("Suggested: +%(minutes)s min (table total %(total)s min this round).")
        % {"minutes": minutes, "total": total}
        if granted
        else gettext("Suggested: +%(minutes)s min.") % {"minutes": minutes}
    )
    new_end = None
    if request.scheduled_end is not None:
        new_end = request.scheduled_end + timedelta(minutes=minutes)
    return ExtensionSuggestion(
        minutes=minutes,
        low=low,
        high=high,
        total=total,
        capped=capped,
        explanation=" ".join(lines),
        new_end=new_end,
    )
