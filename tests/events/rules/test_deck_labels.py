"""events/deck_labels.py: every decklist problem and error has a translatable label whose
English is the API's message, from the same code and params (docs/decks.md)."""

import pytest
from django.utils import translation

from events import deck_labels, deck_rules, myl_deck_rules
from events.errors import UserError
from events.myl_deck_rules import MylDeckLimits, check_myl_deck

VEKN = (
    "Crypt (12 cards)\n6x Anson\n5x Theo Bell (G6)\n"
    "Library (2 cards)\n1x Dramatic Upheaval\n1x Zqzqzq\n" + "91x Earth Meld\n"
)


def test_every_code_has_a_label():
    assert set(deck_rules.PROBLEM_CODES) | set(myl_deck_rules.MESSAGES) <= set(deck_labels.LABELS)
    assert set(deck_rules.ERROR_MESSAGES) <= set(deck_labels.ERROR_LABELS)


def test_english_labels_are_the_messages():
    problems = list(deck_rules.check_deck(VEKN, "v5", ("Jyhad",)).problems)
    problems += deck_rules.check_deck("11x Anson\n59x Earth Meld").problems
    problems += check_myl_deck(
        "zz\n9 A", MylDeckLimits(main_deck_size=3, side_deck_size=0)
    ).problems
    problems += check_myl_deck("Side deck\n20 B").problems
    assert {p.code for p in problems} == set(deck_labels.LABELS)  # each label is tried
    with translation.override("en"):
        for problem in problems:
            assert deck_labels.problem_label(problem) == problem.message


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: deck_rules.parse_deck(""), "empty"),
        (lambda: deck_rules.parse_deck("hello"), "no_card"),
        (lambda: deck_rules.parse_deck("x" * 20_001), "too_long"),
        (lambda: deck_rules.check_deck("12x Anson", "modern"), "unknown_format"),
        (lambda: deck_rules.check_deck("12x Anson", sets=("Nope",)), "unknown_set"),
        (lambda: deck_rules.parse_deck("12x Anson\n" * 401), "too_many_lines"),
        (lambda: deck_rules.parse_deck("12x Anson\x00"), "nul"),
        (lambda: deck_rules.parse_deck("Crypt\n100x Anson"), "bad_count"),
        (lambda: check_myl_deck(""), "empty"),
        (lambda: check_myl_deck("3 Carta\x00"), "nul"),
    ],
)
def test_error_labels(call, code):
    with pytest.raises(UserError) as raised:
        call()
    assert raised.value.code == code
    with translation.override("en"):
        assert deck_labels.error_label(raised.value) == str(raised.value)
