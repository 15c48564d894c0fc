"""The penalty vocabulary (``penalties/levels.py``): the stored level and timing codes are
pinned exactly, the models' choices are built from them (and match the migrations), each
ruleset's levels are a subset in its rulebook's order of severity, and a penalty shows its
level and infraction in its own ruleset's words (``penalties/rulebooks.py``)."""

import pytest
from django.db.migrations.loader import MigrationLoader
from django.utils import translation

from penalties import (
    levels,
    models,
    myl_rules,
    myl_terms,
    rulebooks,
    vekn_guide,
    vekn_terms,
    vekn_timing,
)
from penalties.levels import LevelCode, LevelInfo, LevelTable, RulesetLevel, TimingCode

LEVEL_CODES = {
    "caution",
    "warning",
    "standings_adjustment",
    "game_loss",
    "disqualification",
    "suspension",
    "permanent_ban",
}
TIMING_CODES = {"during_game", "between_rounds", "before_first_round", "after_last_game"}

# The choices the migrations hold (penalties/migrations): codes and English words, in order.
LEVEL_CHOICES = [
    ("caution", "Caution"),
    ("warning", "Warning"),
    ("standings_adjustment", "Standings adjustment"),
    ("game_loss", "Game loss"),
    ("disqualification", "Disqualification"),
    ("suspension", "Suspension"),
    ("permanent_ban", "Permanent ban"),
]
TIMING_CHOICES = [
    ("during_game", "During a game"),
    ("between_rounds", "Between rounds"),
    ("before_first_round", "Before the first round"),
    ("after_last_game", "After the player's last game"),
]


def test_the_stored_codes_are_pinned():
    assert {code.value for code in LevelCode} == LEVEL_CODES
    assert {code.value for code in TimingCode} == TIMING_CODES
    assert set(levels.LEVEL_WORDS) == LEVEL_CODES
    assert set(levels.TIMING_WORDS) == TIMING_CODES


def test_the_models_choices_are_the_vocabulary():
    with translation.override("en"):
        assert [(v, str(label)) for v, label in models.Level.choices] == LEVEL_CHOICES
        assert [(v, str(label)) for v, label in models.Timing.choices] == TIMING_CHOICES
    assert models.Level.values == [code.value for code in LevelCode]
    assert models.Timing.values == [code.value for code in TimingCode]
    assert models.Level.labels == list(levels.LEVEL_WORDS.values())
    assert models.Level.WARNING == LevelCode.WARNING
    assert models.Timing.BETWEEN_ROUNDS == TimingCode.BETWEEN_ROUNDS


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("level", LEVEL_CHOICES),
        ("guide_level", LEVEL_CHOICES),
        ("baseline", LEVEL_CHOICES),
        ("timing", TIMING_CHOICES),
    ],
)
def test_the_migrations_hold_the_same_choices(field, expected):
    """``makemigrations --check`` stays quiet: the migrations' state of each field has the
    vocabulary's choices, in its order."""
    state = MigrationLoader(None, ignore_no_migrations=True).project_state()
    stored = state.models["penalties", "penalty"].fields[field].choices
    with translation.override("en"):
        assert [(v, str(label)) for v, label in stored] == expected
        model = models.Penalty._meta.get_field(field).choices
        assert [(v, str(label)) for v, label in model] == expected


def test_vekn_levels_are_a_subset_in_the_order_of_jg_1_1():
    """JG §1.1: Caution (§1.1.1), Warning (§1.1.2), Standings Adjustment (§1.1.3),
    Disqualification (§1.1.4)."""
    order = [level.value for level in vekn_terms.Level]
    assert order == ["caution", "warning", "standings_adjustment", "disqualification"]
    assert set(order) <= LEVEL_CODES
    assert [level.severity for level in vekn_terms.Level] == [0, 1, 2, 3]
    assert list(vekn_terms.LEVELS) == list(vekn_terms.Level)
    assert vekn_guide.Level is vekn_terms.Level


def test_myl_levels_are_a_subset_in_the_order_of_the_conduct_rules_4_1():
    """MyL conduct rules §4.1: Advertencia, Pérdida de Juego, Descalificación del Torneo,
    Suspensión Temporal, Prohibición Permanente."""
    order = [level.value for level in myl_terms.Level]
    assert order == ["warning", "game_loss", "disqualification", "suspension", "permanent_ban"]
    assert set(order) <= LEVEL_CODES
    assert [level.severity for level in myl_terms.Level] == [0, 1, 2, 3, 4]
    assert list(myl_terms.LEVELS) == list(myl_terms.Level)
    assert myl_rules.Level is myl_terms.Level


def test_every_level_code_belongs_to_a_ruleset():
    used = {level.value for level in vekn_terms.Level} | {level.value for level in myl_terms.Level}
    assert used == LEVEL_CODES


def test_vekn_timing_is_the_vocabulary():
    assert vekn_timing.Timing is TimingCode
    assert vekn_guide.Timing is TimingCode


def test_both_rulesets_share_the_level_table_structure():
    assert vekn_terms.LevelInfo is myl_terms.LevelInfo is LevelInfo
    assert isinstance(vekn_terms.LEVELS, LevelTable)
    assert isinstance(myl_terms.LEVELS, LevelTable)
    assert vekn_terms.Level.STANDINGS_ADJUSTMENT.label == "Standings Adjustment"
    assert myl_terms.Level.GAME_LOSS.label_es == "Pérdida de juego"
    assert myl_terms.Level.GAME_LOSS.info is myl_terms.LEVELS[myl_terms.Level.GAME_LOSS]


def test_a_level_table_refuses_a_code_that_is_not_stored():
    class Bad(RulesetLevel):
        WARNING = LevelCode.WARNING
        REPRIMAND = "reprimand"

    infos = [LevelInfo(level, level.value, level.value, "", "test") for level in Bad]
    with pytest.raises(ValueError, match="not stored level codes"):
        LevelTable(Bad, infos, {level: level.value for level in Bad})


def test_a_level_table_must_list_its_levels_lightest_first():
    class Pair(RulesetLevel):
        WARNING = LevelCode.WARNING
        GAME_LOSS = LevelCode.GAME_LOSS

    infos = [LevelInfo(level, level.value, level.value, "", "test") for level in Pair]
    texts = {level: level.value for level in Pair}
    with pytest.raises(ValueError, match="lightest first"):
        LevelTable(Pair, infos[::-1], texts)
    with pytest.raises(ValueError, match="needs a text"):
        LevelTable(Pair, infos, {Pair.WARNING: "w"})


@pytest.mark.parametrize(
    ("ruleset", "level", "english", "spanish"),
    [
        ("vekn", "caution", "Caution", "Advertencia"),
        ("vekn", "warning", "Warning", "Amonestación"),
        ("vekn", "standings_adjustment", "Standings adjustment", "Ajuste en la clasificación"),
        ("vekn", "disqualification", "Disqualification", "Descalificación"),
        ("myl", "warning", "Warning", "Advertencia"),
        ("myl", "game_loss", "Game Loss", "Pérdida de juego"),
        ("myl", "disqualification", "Disqualification", "Descalificación del torneo"),
        ("myl", "suspension", "Suspension", "Suspensión temporal"),
        ("myl", "permanent_ban", "Permanent Ban", "Prohibición permanente"),
        ("myl", "bogus", "bogus", "bogus"),
        ("vekn", "bogus", "bogus", "bogus"),
        ("other", "warning", "Warning", "Amonestación"),
    ],
)
def test_a_penalty_shows_its_level_in_its_rulesets_words(ruleset, level, english, spanish):
    penalty = models.Penalty(ruleset=ruleset, level=level, guide_level=level, infraction="x")
    for language, words in (("en", english), ("es", spanish)):
        with translation.override(language):
            assert rulebooks.level_words(ruleset, level) == words
            assert penalty.get_level_display() == words
            assert penalty.get_guide_level_display() == words


@pytest.mark.parametrize(
    ("ruleset", "code", "english", "spanish"),
    [
        ("vekn", "3.7", "Marked Cards", "Cartas marcadas"),
        (
            "myl",
            "3.2.4",
            "Card Manipulation and Information Theft",
            "Manipulación de cartas y robo de información",
        ),
        ("vekn", "3.2.4.9", "", ""),
        ("myl", "9.9", "", ""),
        ("other", "3.7", "", ""),
    ],
)
def test_a_penalty_names_its_infraction_from_its_rulesets_catalogue(
    ruleset, code, english, spanish
):
    penalty = models.Penalty(ruleset=ruleset, infraction=code, level="warning")
    for language, name in (("en", english), ("es", spanish)):
        with translation.override(language):
            assert penalty.infraction_name == name
            assert rulebooks.infraction_title(ruleset, code) == name


def test_the_rulebooks_are_the_two_penalty_registries():
    assert dict(rulebooks.RULESETS) == {**vekn_guide.RULESETS, **myl_rules.RULESETS}


def test_a_sanctions_kind_is_one_of_the_levels_that_give_it():
    """MyL conduct rules §4.1: a suspension or a permanent ban (``Sanction.kind``)."""
    with translation.override("en"):
        assert [(v, str(label)) for v, label in models.Sanction.Kind.choices] == [
            ("suspension", "Suspension"),
            ("permanent_ban", "Permanent ban"),
        ]
    assert set(models.Sanction.Kind.values) <= LEVEL_CODES
