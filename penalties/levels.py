"""The penalty vocabulary: every stored penalty level code and timing code, defined once.

The codes are an API (docs/contracts.md, docs/contracts.md §1 ``timing``, §2 ``level``): they are
stored on penalties, written in event files and answered by the JSON API, so they are never
renamed. ``tests/penalties/rules/test_levels.py`` pins them.

- :class:`LevelCode`: every level of both rulesets. Each ruleset's ``Level`` is a
  :class:`RulesetLevel` whose members are picked from it, lightest first:
  ``penalties.vekn_terms.Level`` (JG §1.1) and ``penalties.myl_terms.Level`` (MyL conduct
  rules §4.1). What each level means in its rulebook is a :class:`LevelTable` of
  :class:`LevelInfo`.
- :class:`TimingCode`: when a penalty was issued (JG §1.1.3); ``penalties.vekn_timing``
  reads it to find the game a Standings Adjustment hits.
- :data:`LEVEL_WORDS`, :data:`TIMING_WORDS`: the words the models' choices show
  (``penalties.models.Level`` and ``Timing`` are built from these).

Pure, no ORM: the rule modules import it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


class LevelCode(StrEnum):
    """Every stored penalty level (docs/contracts.md §2 ``level``), in the order of the models'
    choices. VEKN (JG §1.1): caution, warning, standings adjustment, disqualification.
    Mitos y Leyendas (conduct rules §4.1): warning, game loss, disqualification,
    suspension, permanent ban. Never rename one."""

    CAUTION = "caution"
    WARNING = "warning"
    STANDINGS_ADJUSTMENT = "standings_adjustment"
    GAME_LOSS = "game_loss"
    DISQUALIFICATION = "disqualification"
    SUSPENSION = "suspension"
    PERMANENT_BAN = "permanent_ban"


class TimingCode(StrEnum):
    """When a penalty was issued (docs/contracts.md §1 ``timing``; JG §1.1.3). Never rename one."""

    DURING_GAME = "during_game"
    BETWEEN_ROUNDS = "between_rounds"
    BEFORE_FIRST_ROUND = "before_first_round"
    AFTER_LAST_GAME = "after_last_game"


LEVEL_WORDS: Mapping[LevelCode, str] = MappingProxyType(
    {
        LevelCode.CAUTION: _("Caution"),
        LevelCode.WARNING: _("Warning"),
        LevelCode.STANDINGS_ADJUSTMENT: _("Standings adjustment"),
        LevelCode.GAME_LOSS: _("Game loss"),
        LevelCode.DISQUALIFICATION: _("Disqualification"),
        LevelCode.SUSPENSION: _("Suspension"),
        LevelCode.PERMANENT_BAN: _("Permanent ban"),
    }
)
"""The models' word for each level (lazy, read in the reader's language): the choices of
``penalties.models.Level``, the audit log's values, and how a VEKN penalty shows its level
("warning" is *Amonestación* in Spanish, JG §1.1.2)."""

TIMING_WORDS: Mapping[TimingCode, str] = MappingProxyType(
    {
        TimingCode.DURING_GAME: _("During a game"),
        TimingCode.BETWEEN_ROUNDS: _("Between rounds"),
        TimingCode.BEFORE_FIRST_ROUND: _("Before the first round"),
        TimingCode.AFTER_LAST_GAME: _("After the player's last game"),
    }
)
"""The models' word for each timing (``penalties.models.Timing``), lazy."""


def level_words(code: str) -> str:
    """The models' word for a level ``code`` in the active language (:data:`LEVEL_WORDS`:
    ``"standings_adjustment"`` → ``"Standings adjustment"``); a code that is not a level is
    returned as it is, as a model's ``get_FOO_display`` does."""
    word = LEVEL_WORDS.get(code)
    return code if word is None else str(word)


def spanish() -> bool:
    """Whether the active language is Spanish (the rulebooks give English and Spanish
    names)."""
    return (get_language() or "").startswith("es")


# ---------------------------------------------------------------------------------------
# A ruleset's levels and what they mean
# ---------------------------------------------------------------------------------------


class RulesetLevel(StrEnum):
    """Base of a ruleset's ``Level``: subclass it with members whose values are
    :class:`LevelCode` members, lightest first (the rulebook's order of severity), then
    build its :class:`LevelTable`. E.g. ``class Level(RulesetLevel): WARNING =
    LevelCode.WARNING``."""

    @property
    def severity(self) -> int:
        """The place in the rulebook's order: 0 for the lightest level."""
        return type(self)._member_names_.index(self._name_)

    @property
    def info(self) -> LevelInfo:
        """What this level means in its rulebook (its :class:`LevelTable` entry)."""
        return _TABLES[type(self)][self]

    @property
    def label(self) -> str:
        """English name in the rulebook, e.g. ``"Standings Adjustment"``, ``"Game Loss"``
        (the table's ``text`` gives it in the active language)."""
        return self.info.name

    @property
    def label_es(self) -> str:
        """Spanish name in the rulebook, e.g. ``"Pérdida de juego"``."""
        return self.info.name_es


@dataclass(frozen=True, slots=True)
class LevelInfo:
    """What one level means in its rulebook.

    - ``level``: the ruleset's :class:`RulesetLevel` member;
    - ``name`` / ``name_es``: the rulebook's English / Spanish names;
    - ``effect``: its effect in our own words (a ``Translatable``: English value, read in
      the active language);
    - ``source``: the rulebook section, e.g. ``"JG §1.1.2"``, ``"MyL conduct §4.1"``;
    - ``recorded``: whether the penalty database keeps it (VEKN: not a caution, JG §1.1.1;
      MyL: every penalty, §4.4).
    """

    level: RulesetLevel
    name: str
    name_es: str
    effect: str
    source: str
    recorded: bool = True


class LevelTable(Mapping):
    """A ruleset's levels: ``table[level]`` → :class:`LevelInfo`, iterated lightest first.

    ``texts`` gives each level's name as the ruleset's explanations read it (the ruleset's
    own ``pgettext_lazy`` texts). Building the table checks that ``level`` only uses
    :class:`LevelCode` values and that ``infos`` and ``texts`` cover every one of its
    members, ``infos`` in the enum's order; anything else raises ``ValueError`` at import.
    """

    __slots__ = ("_infos", "_level", "_texts")
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __init__(
        self,
        level: type[RulesetLevel],
        infos: Sequence[LevelInfo],
        texts: Mapping[RulesetLevel, str],
    ):
        members = tuple(level)
        unknown = [str(m) for m in members if m.value not in LevelCode._value2member_map_]
        if unknown:
            raise ValueError(f"{level.__name__}: not stored level codes: {unknown}")
        if tuple(info.level for info in infos) != members:
            raise ValueError(f"{level.__name__}: the table must list every level, lightest first")
        if set(texts) != set(members):
            raise ValueError(f"{level.__name__}: every level needs a text")
        self._level = level
        self._infos = MappingProxyType({info.level: info for info in infos})
        self._texts = MappingProxyType(dict(texts))
        _TABLES[level] = self

    def __getitem__(self, level: str) -> LevelInfo:
        return self._infos[level]

    def __iter__(self) -> Iterator[RulesetLevel]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)

    def text(self, level: str) -> str:
        """The level's name in the active language, for composed explanations. Raises
        ``ValueError`` for a code that is not one of this ruleset's levels."""
        return str(self._texts[self._level(level)])

    def label(self, level: str) -> str:
        """The rulebook's name of ``level`` by the active language (``name_es`` in Spanish,
        else ``name``); a code that is not one of this ruleset's levels is returned as it
        is (a stored row of a newer version, shown rather than failing)."""
        try:
            info = self._infos[self._level(level)]
        except ValueError:
            return level
        return info.name_es if spanish() else info.name


_TABLES: dict[type[RulesetLevel], LevelTable] = {}
"""Each ruleset ``Level`` → its table (filled by :class:`LevelTable`)."""
