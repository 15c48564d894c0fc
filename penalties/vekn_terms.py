"""VEKN penalty vocabulary: levels, the escalation ladder, catalogue types and errors.

The shapes :mod:`penalties.vekn_catalogue` fills with the judges' guide ("JG", the VTES
*Tournament Conduct & Infraction Guide*, English version, definitive) and
:mod:`penalties.vekn_guide` computes with. Pure, no ORM. Every name here is re-exported by
:mod:`penalties.vekn_guide`, which importers use; the reading for users is
``docs/rules-vekn-penalties.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from django.utils.translation import gettext, pgettext_lazy

from penalties.levels import LevelCode, LevelInfo, LevelTable, RulesetLevel, level_words
from penalties.levels import spanish as _spanish


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
    """A required condition of the infraction was not answered (docs/rules-vekn-penalties.md "The catalogue")."""


class UnknownCondition(ConditionError):
    """An answer was given for a condition the infraction does not have (a typo guard)."""


class InvalidCondition(ConditionError):
    """A condition answer is not a boolean."""


class InvalidIncident(ValueError):
    """An incident list given to :func:`assess_incidents` is inconsistent (duplicate id,
    ``linked_to`` naming no incident or another person). The message starts with the
    incident's id so that importers can show where the problem is."""


# ---------------------------------------------------------------------------------------
# Penalty levels (JG §1.1; docs/rules-vekn-penalties.md "Levels") and the escalation ladder (JG §1.2.1)
# ---------------------------------------------------------------------------------------


class Level(RulesetLevel):
    """Penalty levels of JG §1.1, lightest first: ``severity`` 0 for a caution … 3 for a
    disqualification; ``label`` the English name (:func:`level_text` gives it in the
    active language). The values are stored codes (:class:`penalties.levels.LevelCode`):
    never rename them (docs/architecture.md "Rules of the house")."""

    CAUTION = LevelCode.CAUTION
    WARNING = LevelCode.WARNING
    STANDINGS_ADJUSTMENT = LevelCode.STANDINGS_ADJUSTMENT
    DISQUALIFICATION = LevelCode.DISQUALIFICATION


#: Levels kept in the VEKN penalty database (JG §1.1.2–§1.1.4); cautions are not (§1.1.1).
RECORDED_LEVELS = frozenset({Level.WARNING, Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION})


LEVELS: Mapping[Level, LevelInfo] = LevelTable(
    Level,
    (
        LevelInfo(
            Level.CAUTION,
            "Caution",
            "Advertencia",
            _(
                "Verbal only: explain the rule, the correct procedure and what a repeat brings. "
                "Not sent to the VEKN database, but the head judge is told so that patterns "
                "and escalation can be followed."
            ),
            "JG §1.1.1",
            recorded=False,
        ),
        LevelInfo(
            Level.WARNING,
            "Warning",
            "Amonestación",
            _(
                "Recorded permanently in the VEKN penalty database; no effect on the score. "
                "The table may get a time extension (§1.2.4)."
            ),
            "JG §1.1.2",
        ),
        LevelInfo(
            Level.STANDINGS_ADJUSTMENT,
            "Standings Adjustment",
            "Ajuste en la clasificación",
            _(
                "Recorded permanently; −1 VP on one game (which game depends on when it is "
                "given, §1.1.3), which may change the table's GW and TP."
            ),
            "JG §1.1.3",
        ),
        LevelInfo(
            Level.DISQUALIFICATION,
            "Disqualification",
            "Descalificación",
            _(
                "Recorded, always with a Warning; the person leaves the event at once and is "
                "removed from its standings. A written DQ report is required."
            ),
            "JG §1.1.4",
        ),
    ),
    {
        Level.CAUTION: pgettext_lazy("VEKN penalty level", "Caution"),
        Level.WARNING: pgettext_lazy("VEKN penalty level", "Warning"),
        Level.STANDINGS_ADJUSTMENT: pgettext_lazy("VEKN penalty level", "Standings Adjustment"),
        Level.DISQUALIFICATION: pgettext_lazy("VEKN penalty level", "Disqualification"),
    },
)
"""What each level means (JG §1.1, docs/rules-vekn-penalties.md "Levels"): names, whether
the VEKN penalty database records it, and its effect in our own words."""

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


def level_text(level: Level | str) -> str:
    """The level's name in the active language (``"Standings Adjustment"`` in English,
    ``"Ajuste en la clasificación"`` in Spanish), for composed explanations."""
    return LEVELS.text(level)


def _name(inf: Infraction) -> str:
    """``"3.7 Marked Cards"`` in the active language (the catalogue's ``name_es`` in
    Spanish)."""
    return f"{inf.code} {inf.name_es if _spanish() else inf.name}"


def _ladder_text(baseline: Level) -> str:
    return " → ".join(level_text(level) for level in ladder_from(baseline))


# ---------------------------------------------------------------------------------------
# Catalogue types (JG §2–§4, appendix; docs/rules-vekn-penalties.md "The catalogue")
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
    infraction's own section; docs/rules-vekn-penalties.md "Escalation")."""

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
    infraction's section; docs/rules-vekn-penalties.md "The catalogue")."""

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
    """A yes/no question the judge answers for one offence (docs/rules-vekn-penalties.md "The catalogue").

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
    """One infraction of JG §2–§4 (docs/rules-vekn-penalties.md "The catalogue").

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
        :attr:`baseline` (a conditional baseline is decided per offence, docs/rules-vekn-penalties.md
        "Escalation")."""
        levels = [
            c.level
            for c in self.conditions
            if c.effect is ConditionEffect.BASELINE and c.level is not None and answers[c.name]
        ]
        return max(levels, key=lambda level: level.severity) if levels else self.baseline


@dataclass(frozen=True, slots=True)
class OrganisationalCase:
    """An organisational case of JG §5 (docs/rules-vekn-penalties.md "Organisational cases"), as data the UI shows.

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
    where the guide is silent or ambiguous (**[choice]**), for the ruleset's page."""

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

    def level_words(self, level: str) -> str:
        """How a VEKN penalty shows ``level`` (a stored code) in the active language: the
        models' words (:data:`penalties.levels.LEVEL_WORDS`; "warning" is *Amonestación*,
        JG §1.1.2, a caution *Advertencia*). A code that is not a level is returned as it
        is."""
        return level_words(level)

    def infraction_title(self, code: str) -> str:
        """The infraction's name in the active language (the catalogue's ``name_es`` in
        Spanish, e.g. ``"3.7"`` → ``"Marked Cards"``); ``""`` for a code this catalogue
        does not have (a stored row of another revision)."""
        inf = self.catalogue.get(code)
        if inf is None:
            return ""
        return inf.name_es if _spanish() else inf.name
