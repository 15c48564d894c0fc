"""Mitos y Leyendas deck registration (events/myl_deck_rules.py; docs/decks.md "Mitos y
Leyendas"): sections, quantities, the format's limits and each problem code."""

import pytest

from events.errors import UserError
from events.myl_deck_rules import MylDeckLimits, MylDeckTextError, check_myl_deck
from events.presets import get_preset


def codes(check):
    return [problem.code for problem in check.problems]


def registration(main=None, side=None) -> str:
    main = main if main is not None else [f"3 Aliado {n}" for n in range(16)] + ["2 Oro"]
    text = "Mazo principal\n" + "\n".join(main)
    if side is not None:
        text += "\n\nSide deck\n" + "\n".join(side)
    return text


def test_defaults_are_documented_values():
    limits = MylDeckLimits()
    assert (limits.main_deck_size, limits.side_deck_size, limits.max_copies) == (50, 15, 3)
    assert limits.unlimited == ("Oro",)


def test_the_myl_preset_carries_the_limits_and_no_event_field_for_them():
    preset = get_preset("myl-2026")
    assert preset.deck_limits == MylDeckLimits()
    assert "deck_limits" not in preset.event_fields()
    assert get_preset("vekn-2026").deck_limits is None


def test_a_legal_registration():
    check = check_myl_deck(registration(side=["3 Talismán A", "2 Arma B"]))
    assert check.valid is True
    assert (check.main_count, check.side_count) == (50, 5)
    assert check.lines[0].section == "main" and check.lines[-1].section == "side"
    assert check.lines[-1].name == "Arma B"


@pytest.mark.parametrize(
    "line",
    ["3 Aliado X", "3x Aliado X", "3 x Aliado X", "x3 Aliado X", "Aliado X x3", "Aliado X (3)"],
)
def test_quantity_forms(line):
    check = check_myl_deck(line, MylDeckLimits(main_deck_size=3))
    assert [(x.name, x.count) for x in check.lines] == [("Aliado X", 3)]
    assert check.valid is True


def test_lines_before_a_header_are_main_deck_and_comments_are_ignored():
    text = "# mi mazo\n2 A\n1 B\nTotal: 3\n\n// side\nBanquillo:\n1 C\n"
    check = check_myl_deck(text, MylDeckLimits(main_deck_size=3))
    assert [(x.name, x.count, x.section) for x in check.lines] == [
        ("A", 2, "main"),
        ("B", 1, "main"),
        ("C", 1, "side"),
    ]


def test_main_deck_size():
    check = check_myl_deck(registration(main=["3 A", "3 B"]))
    assert codes(check) == ["main_deck_size"]
    assert check.problems[0].params == {"count": 6, "expected": 50}


def test_side_deck_size():
    side = [f"3 S{n}" for n in range(6)]  # 18 cards
    check = check_myl_deck(registration(side=side))
    assert codes(check) == ["side_deck_size"]
    assert check.problems[0].params == {"count": 18, "maximum": 15}
    assert check_myl_deck(registration(side=side), MylDeckLimits(side_deck_size=20)).valid


def test_too_many_copies_counts_main_and_side_and_ignores_case_and_accents():
    main = [f"3 Aliado {n}" for n in range(16)] + ["2 Oro"]
    check = check_myl_deck(registration(main=main, side=["1 aliado 0"]))
    assert codes(check) == ["too_many_copies"]
    assert check.problems[0].card == "Aliado 0"
    assert check.problems[0].params["count"] == 4
    accents = check_myl_deck("2 Dragón\n2 dragon", MylDeckLimits(main_deck_size=4))
    assert codes(accents) == ["too_many_copies"]


def test_unlimited_names_may_repeat():
    check = check_myl_deck("40 Oro\n3 A", MylDeckLimits(main_deck_size=43))
    assert check.valid is True
    limited = check_myl_deck("40 Oro\n3 A", MylDeckLimits(main_deck_size=43, unlimited=()))
    assert codes(limited) == ["too_many_copies"]


def test_unreadable_line():
    check = check_myl_deck("3 A\nsin cantidad\n0 B", MylDeckLimits(main_deck_size=3))
    assert codes(check) == ["unreadable_line", "unreadable_line"]
    assert check.problems[0].params == {"line": 2, "text": "sin cantidad"}
    assert check.valid is False


def test_messages_are_filled():
    check = check_myl_deck("zz\n9 A\n9 A", MylDeckLimits(main_deck_size=3, side_deck_size=0))
    for problem in check.problems:
        assert "{" not in problem.message


@pytest.mark.parametrize(
    ("text", "code"), [("", "empty"), ("  \n", "empty"), ("x" * 20_001, "too_long")]
)
def test_empty_or_too_long_raises(text, code):
    with pytest.raises(MylDeckTextError) as raised:
        check_myl_deck(text)
    assert raised.value.code == code
    assert isinstance(raised.value, UserError)
