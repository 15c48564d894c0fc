"""``manage.py update_card_data`` (docs/decks.md "Card data"): a krcg card file checked and
stored into CARD_DATA_DIR, used instead of krcg's packaged data; bad files refused."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from events import deck_rules

TINY = Path(__file__).parents[1] / "rules" / "data" / "cards_tiny.json"


@pytest.fixture
def data_dir(tmp_path):
    with override_settings(CARD_DATA_DIR=tmp_path / "cards"):
        yield tmp_path / "cards"
    deck_rules.set_card_data_dir(None)


def test_stores_the_file_and_the_index_uses_it(data_dir):
    out = StringIO()
    call_command("update_card_data", str(TINY), stdout=out)
    assert "Stored 5 cards" in out.getvalue()
    assert (data_dir / "cards.json").read_bytes() == TINY.read_bytes()
    assert deck_rules.card_index().source == "cards.json"
    check = deck_rules.check_deck("12x Anson\n60x Arbitro Test Card")
    assert check.valid is True
    assert not list(data_dir.glob(".cards.json.*"))  # no temporary file left


def test_with_an_expansions_file(data_dir, tmp_path):
    sets = tmp_path / "expansions.json"
    sets.write_text('[{"id": 300033, "code": "V5", "name": "Fifth Edition"}]')
    call_command("update_card_data", str(TINY), "--sets", str(sets), stdout=StringIO())
    assert (data_dir / "sets.json").is_file()
    index = deck_rules.card_index()
    assert index.set_code("Fifth Edition") == "V5"
    assert index.set_code("Jyhad") is None


def test_clear_goes_back_to_the_packaged_data(data_dir):
    call_command("update_card_data", str(TINY), stdout=StringIO())
    call_command("update_card_data", "--clear", stdout=StringIO())
    assert not (data_dir / "cards.json").exists()
    assert len(deck_rules.card_index().cards) > 4000


@pytest.mark.parametrize("content", ["not json", "[]", '[{"kind": "Spell"}]'])
def test_a_bad_file_is_refused_and_nothing_is_stored(data_dir, tmp_path, content):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(CommandError):
        call_command("update_card_data", str(bad), stdout=StringIO())
    assert not (data_dir / "cards.json").exists()


def test_a_missing_file_is_refused(data_dir, tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("update_card_data", str(tmp_path / "nope.json"), stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("update_card_data", stdout=StringIO())
