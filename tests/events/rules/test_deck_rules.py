"""VEKN decklists (events/deck_rules.py; docs/decks.md): every paste format, names as
players write them, each problem code (TR §4.1.1, §6.1.1, §6.2, §6.4, §7.2.1; JG §3.1.1),
the summary and the TWDA entry. No network, no database."""

import datetime
import threading
from pathlib import Path

import pytest
from krcg import parser as krcg_parser

from events import deck_rules
from events.deck_rules import DeckTextError, check_deck, parse_deck
from events.errors import UserError

DATA = Path(__file__).parent / "data"
# A real Tournament Winning Deck (TWDA 13373, Especial de São João 2026): accented names,
# an (ADV) vampire, an "ANY" group vampire, "The" names filed as "Shard, London, The".
TWD = (DATA / "twd_13373.txt").read_text()
LACKEY = (DATA / "lackey_13373.txt").read_text()
JOL = (DATA / "jol_13373.txt").read_text()

WANT = {
    "Sébastien Goulet": 3,
    "Sébastien Goulet (ADV)": 3,
    "Anarch Convert": 2,
    "Black Lotus": 1,
    "Catherine du Bois": 1,
    "Jeffrey Mullins": 1,
    "Denette Stensen": 1,
    "The Shard, London": 1,
    "The Unmasking": 2,
    "Earth Meld": 15,
    "Shadow Court Satyr": 9,
}


def counts(check) -> dict[str, int]:
    return {card.name: card.count for card in check.cards}


def codes(check) -> list[str]:
    return [problem.code for problem in check.problems]


def deck(crypt: str = "12x Sébastien Goulet", library: str = "60x Earth Meld") -> str:
    return f"Crypt (12 cards)\n{crypt}\n\nLibrary (60 cards)\n{library}\n"


# --------------------------------------------------------------------------- formats


@pytest.mark.parametrize("text", [TWD, LACKEY, JOL], ids=["twd", "lackey", "jol"])
def test_the_real_twd_deck_is_valid_in_every_format(text):
    check = check_deck(text)
    assert check.valid is True
    assert check.problems == ()
    assert (check.crypt_count, check.library_count) == (12, 90)
    got = counts(check)
    for name, count in WANT.items():
        assert got[name] == count, name
    assert sum(got.values()) == 102
    # crypt first, then the library
    sections = [card.section for card in check.cards]
    assert sections == sorted(sections, key=["crypt", "library"].index)


def test_all_formats_read_the_same_cards():
    twd, lackey, jol = (
        {(c.id, c.count) for c in check_deck(text).cards} for text in (TWD, LACKEY, JOL)
    )
    assert twd == lackey == jol


VDB = """Deck Name: Glorioso Goulet
Author: Paulo
Description: stealth bleed with a 2 vote vampire and
3 copies of everything

Crypt (12 cards, min=8, max=32, avg=5.5)
----------------------------------------
3x Sébastien Goulet			  8 DOM OBF cel pre pro	 Gangrel antitribu:3
3x Sébastien Goulet (ADV)		  8 DOM OBF cel pre pro	 Gangrel antitribu:3
2x Anarch Convert			  1 -none-		 Caitiff:ANY
1x Black Lotus				  5 DOM aus obf ser	 Ministry:4
1x Catherine du Bois			  5 DOM for obf pre	 Ventrue:3
1x Jeffrey Mullins			  4 OBF cel		 Gangrel antitribu:4
1x Denette Stensen			  2 obf			 Gangrel antitribu:4

Library (60 cards)
Master (3)
3x The Unmasking

Action Modifier (30)
30x Lost in Crowds

Combat (27)
27x Earth Meld

This deck was last saved with VDB
"""

AMARANTH = """Deck Name: Glorioso Goulet
Author: Paulo
Description: built in Amaranth

Crypt [12 vampires] Capacity min: 8 max: 32 average: 5.5
------------------------------------------------------------
3x Sebastien Goulet (Adv)
3x Sebastien Goulet
2x Anarch Convert
1x Black Lotus
1x Catherine du Bois
1x Jeffrey Mullins
1x Denette Stensen

Library [60 cards]
------------------------------------------------------------
Master [3 cards]
3x Unmasking, The

Action Modifier [30 cards]
30x Lost in Crowds

Combat [27 cards]
27x Earth Meld
"""


@pytest.mark.parametrize("text", [VDB, AMARANTH], ids=["vdb", "amaranth"])
def test_vdb_and_amaranth_text_exports(text):
    check = check_deck(text)
    assert check.problems == ()
    assert (check.crypt_count, check.library_count) == (12, 60)
    assert counts(check)["Sébastien Goulet (ADV)"] == 3
    assert counts(check)["The Unmasking"] == 3


ARDB = """Deck Name : Followers of Set
Author : L. Scott Johnson
Description :
Followers of Set Preconstructed Starter, 12 vampires.

Crypt [12 vampires] Capacity min: 2 max: 10 average: 5.84
------------------------------------------------------------
2x Nakhthorheb\t\t\t  10 OBF PRE SER           Follower :4
2x Theo Bell\t\t\t  7 CEL DOM POT pre  prince  Brujah antitribux :6
8x Sébastien Goulet (Adv)\t  8 DOM OBF cel pre pro  Gangrel antitribu :3

Library [60 cards]
------------------------------------------------------------
Action [20]
  20x Deflection
Combat [40]
  40x Earth Meld
"""


def test_ardb_columns_with_a_clan_the_parser_does_not_know():
    # Amaranth's text export follows the ARDB layout: columns split by tabs or spaces,
    # the group after the clan ("Follower :4"); the group picks the vampire.
    check = check_deck(ARDB)
    assert counts(check) == {
        "Nakhthorheb": 2,
        "Theo Bell (G6)": 2,
        "Sébastien Goulet (ADV)": 8,
        "Deflection": 20,
        "Earth Meld": 40,
    }
    assert codes(check) == ["crypt_groups"]  # groups 3, 4 and 6
    unknown = check_deck(ARDB.replace("Nakhthorheb", "Xyzzyq Bar")).problems[0]
    assert (unknown.code, unknown.card) == ("unknown_card", "Xyzzyq Bar")


def test_lackey_with_windows_line_ends_and_crypt_line():
    text = "30\tLost in Crowds\r\n30\tEarth Meld\r\nCrypt:\r\n12\tSebastien Goulet\r\n"
    check = check_deck(text)
    assert check.problems == ()
    assert counts(check) == {"Sébastien Goulet": 12, "Lost in Crowds": 30, "Earth Meld": 30}


def test_repeated_lines_add_up():
    check = check_deck(deck(library="30x Earth Meld\n20x Earth Meld\n10x Lost in Crowds"))
    assert counts(check)["Earth Meld"] == 50
    assert check.library_count == 60


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("deflection", "Deflection"),  # case
        ("DEFLECTION", "Deflection"),
        ("Deflectoin", "Deflection"),  # a close misspelling (krcg's fuzzy match)
        ("Unmasking", "The Unmasking"),  # without "The"
        ("The Unmasking", "The Unmasking"),
        ("Unmasking, The", "The Unmasking"),  # filed name (Lackey, JOL)
        ("Pentex Subversion", "Pentex™ Subversion"),
        ("Rotschreck", "Rötschreck"),  # accents
    ],
)
def test_library_names_as_people_write_them(written, name):
    check = check_deck(deck(library=f"59x Earth Meld\n1x {written}"))
    assert name in counts(check), counts(check)
    assert check.problems == ()


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("Sebastien Goulet", "Sébastien Goulet"),
        ("sébastien goulet", "Sébastien Goulet"),
        ("Sébastien Goulet (ADV)", "Sébastien Goulet (ADV)"),
        ("Sebastien Goulet (adv)", "Sébastien Goulet (ADV)"),
        ("Theo Bell (G6)", "Theo Bell (G6)"),  # group suffix
        ("Theo Bell (g2)", "Theo Bell (G2)"),
        ("Theo Bell     7  CEL DOM POT pre  prince  Brujah:6", "Theo Bell (G6)"),  # crypt tail
    ],
)
def test_crypt_names_as_people_write_them(written, name):
    parsed = parse_deck(f"1x {written}")
    assert [card.name for card in parsed.cards] == [name]
    assert parsed.cards[0].section == "crypt"


def test_the_contract_example_card():
    card = parse_deck("2x Anson").cards[0]
    assert (card.id, card.name, card.count, card.section) == (200107, "Anson", 2, "crypt")


def test_descriptions_and_headers_are_not_cards():
    text = (
        "Deck Name: Deflection 3\nCreated by: Someone\n"
        "Description: I played 2 Deflection in round 1. It was great.\n"
        "Abomination 8\n"
        "1. Some Player (Tremere)\n"
        "3a Jornada Liga\n"
        "Crypt (12 cards)\n12x Anson\n"
        "Library (60 cards)\nMaster (0)\nCombat (60)\n60x Earth Meld\n"
        "This deck was last saved with VDB\n"
    )
    check = check_deck(text)
    assert counts(check) == {"Anson": 12, "Earth Meld": 60}
    assert check.problems == ()


# --------------------------------------------------------------------------- problems


def test_unknown_card_with_suggestions():
    check = check_deck(deck(library="60x Earth Meld\n1x Deflectxyzq"))
    [problem] = check.problems
    assert problem.code == "unknown_card"
    assert problem.card == "Deflectxyzq"  # as written, case kept
    assert "Deflection" in problem.suggestions
    assert problem.params["line"] == 6
    assert "Deflectxyzq" in problem.message
    assert check.library_count == 60  # an unknown card counts in no section
    assert check.valid is False


def test_unknown_card_is_reported_before_the_cards_start_too():
    check = check_deck("3x Blood Dolll Zzyzx\n" + deck())
    assert codes(check) == ["unknown_card"]
    assert check.problems[0].params["line"] == 1


@pytest.mark.parametrize(
    "line",
    ["0x Earth Meld", "-5x Earth Meld", "100x Earth Meld", "99999999999999999999999x Earth Meld"],
)
def test_an_impossible_count_is_refused_with_its_line(line):
    """0, negative or 100+ copies of a card: the line is named (``bad_count``) rather than
    skipped or read as another count (fresh-user try, issue 15)."""
    with pytest.raises(DeckTextError) as raised:
        check_deck(deck(library="60x Earth Meld\n" + line))
    assert raised.value.code == "bad_count"
    assert raised.value.params == {"line": 6, "text": line[:80]}
    assert line[:20] in str(raised.value)


def test_a_bullet_before_a_count_is_not_a_minus():
    assert check_deck(deck(library="- 60x Earth Meld")).library_count == 60


def test_a_number_before_words_that_are_no_card_is_still_a_comment():
    assert check_deck("2026 was a good year\n" + deck()).valid


def test_nul_and_too_many_lines_are_refused():
    with pytest.raises(DeckTextError, match="NUL"):
        parse_deck(deck() + "\x00")
    with pytest.raises(DeckTextError, match="more than 400 lines"):
        parse_deck(deck() + "1x Earth Meld\n" * deck_rules.MAX_LINES)
    # Blank lines do not count.
    assert parse_deck(deck() + "\n" * 1000).cards


def test_only_the_first_unknown_lines_get_suggestions():
    unknown = "\n".join(f"1x Blood Dolll q{i:02d}" for i in range(30))
    lines = parse_deck(deck(library="60x Earth Meld\n" + unknown)).unknown
    assert len(lines) == 30
    assert all(line.suggestions for line in lines[: deck_rules.MAX_SUGGESTED])
    assert not any(line.suggestions for line in lines[deck_rules.MAX_SUGGESTED :])


def test_unknown_card_without_any_suggestion():
    problem = check_deck(deck(library="59x Earth Meld\n1x Qqqqzzzz")).problems[0]
    assert problem.suggestions == ()


def test_crypt_too_small():
    check = check_deck(deck(crypt="11x Sébastien Goulet"))
    assert codes(check) == ["crypt_too_small"]
    assert check.problems[0].params == {"count": 11, "minimum": 12, "source": "TR §6.2"}
    assert check.crypt_count == 11


@pytest.mark.parametrize(
    ("library", "code"),
    [("59x Earth Meld", "library_too_small"), ("91x Earth Meld", "library_too_large")],
)
def test_library_size_limits(library, code):
    check = check_deck(deck(library=library))
    assert codes(check) == [code]
    assert check.problems[0].card is None


@pytest.mark.parametrize("library", ["60x Earth Meld", "90x Earth Meld"])
def test_library_size_limits_are_inclusive(library):
    assert check_deck(deck(library=library)).valid is True


def test_crypt_groups_more_than_two_consecutive():
    check = check_deck(deck(crypt="6x Anson\n6x Theo Bell (G6)"))  # groups 1 and 6
    assert codes(check) == ["crypt_groups"]
    assert check.problems[0].params == {"groups": "1, 6"}
    three = check_deck(deck(crypt="4x Anson\n4x Theo Bell (G2)\n4x Sébastien Goulet"))
    assert codes(three) == ["crypt_groups"]  # 1, 2, 3


def test_crypt_groups_two_consecutive_and_any_are_fine():
    # Sébastien Goulet is group 3, Black Lotus group 4, Anarch Convert "ANY"
    check = check_deck(deck(crypt="10x Sébastien Goulet\n1x Black Lotus\n1x Anarch Convert"))
    assert check.valid is True


def test_banned_card():
    check = check_deck(deck(library="59x Earth Meld\n1x Dramatic Upheaval"))
    assert codes(check) == ["banned"]
    assert check.problems[0].card == "Dramatic Upheaval"
    assert "TR §4.1.1" in check.problems[0].message


def test_banned_applies_in_every_format():
    text = deck(library="39x Earth Meld\n1x Dramatic Upheaval")
    assert "banned" in codes(check_deck(text, "limited"))


def test_v5_pool():
    assert check_deck(deck(), "v5").valid is False
    check = check_deck(deck(), "v5")
    assert codes(check) == ["not_in_format"]  # Sébastien Goulet; Earth Meld has V5A prints
    assert check.problems[0].card == "Sébastien Goulet"
    assert check.problems[0].params["source"] == "TR §6.4"
    legal = deck(crypt="12x Alek König", library="30x Earth Meld\n30x Deflection")
    assert check_deck(legal, "v5").valid is True


def test_limited_minimums_and_groups():
    small = deck(crypt="6x Anson\n6x Theo Bell (G6)", library="40x Earth Meld")
    assert check_deck(small, "limited").valid is True  # groups not limited, 40 cards
    assert codes(check_deck(deck(library="39x Earth Meld"), "limited")) == ["library_too_small"]
    five = check_deck(deck(crypt="5x Anson", library="25x Earth Meld"), "limited", boosters=5)
    assert five.valid is True  # TR §7.2.1 table: 5 boosters → crypt 5, library 25
    assert codes(check_deck(deck(library="91x Earth Meld"), "limited")) == ["library_too_large"]
    assert deck_rules.size_limits("limited", 20) == (12, 40, 90)


def test_not_in_sets():
    check = check_deck(deck(), sets=("Jyhad",))
    assert codes(check) == ["not_in_sets"]  # Sébastien Goulet; Earth Meld is in Jyhad
    assert check.problems[0].params["sets"] == "Jyhad"
    assert check_deck(deck(crypt="12x Anson"), sets=("jyhad", "VTES")).valid is True
    by_name = check_deck(deck(crypt="12x Anson"), sets=("Anthology I",))
    assert codes(by_name) == ["not_in_sets", "not_in_sets"]


def test_problem_order_and_valid_exactly_when_no_problems():
    text = deck(crypt="6x Anson\n5x Theo Bell (G6)", library="1x Dramatic Upheaval\n1x Zqzqzq")
    check = check_deck(text, "v5")
    assert codes(check) == [
        "unknown_card",
        "crypt_too_small",
        "library_too_small",
        "crypt_groups",
        "banned",
        "not_in_format",  # Anson (Theo Bell (G6) is in the V5 Brujah deck)
        "not_in_format",  # Dramatic Upheaval
    ]
    assert [p.card for p in check.problems[-2:]] == ["Anson", "Dramatic Upheaval"]
    assert [c for c in codes(check) if c not in deck_rules.PROBLEM_CODES] == []
    assert check.valid is False


def test_every_problem_message_is_filled():
    text = deck(crypt="6x Anson\n5x Theo Bell (G6)", library="1x Dramatic Upheaval\n1x Zqzqzq")
    for problem in check_deck(text, "v5", ("Jyhad",)).problems:
        assert "{" not in problem.message
        assert problem.message == deck_rules.MESSAGES[problem.code].format(**problem.params)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("   \n\n", "empty"),
        ("hello there\nhow are you", "no_card"),
        ("x" * 20_001, "too_long"),
    ],
)
def test_unreadable_texts_raise(text, code):
    with pytest.raises(DeckTextError) as raised:
        parse_deck(text)
    assert raised.value.code == code
    assert isinstance(raised.value, UserError)
    assert raised.value.field == "deck"


def test_bad_format_and_set_raise():
    with pytest.raises(DeckTextError) as raised:
        check_deck(deck(), "modern")
    assert (raised.value.code, raised.value.field) == ("unknown_format", "format")
    with pytest.raises(DeckTextError) as raised:
        check_deck(deck(), sets=("No Such Set",))
    assert (raised.value.code, raised.value.field) == ("unknown_set", "sets")


def test_only_unknown_lines_is_not_an_error():
    check = check_deck("3x Qqqqzzzz")
    assert codes(check)[0] == "unknown_card"


# --------------------------------------------------------------------------- summary, TWD


def test_deck_summary():
    summary = deck_rules.deck_summary(check_deck(TWD))
    assert (summary.crypt_count, summary.library_count) == (12, 90)
    assert dict(summary.clans)["Gangrel antitribu"] == 8
    assert dict(summary.clans)["Caitiff"] == 2
    assert dict(summary.disciplines)["obf"] == 10  # every vampire but Anarch Convert
    types = dict(summary.types)
    assert types["Master"] == 16
    assert types["Combat"] == 15
    assert summary.types[0] == ("Action Modifier", 29)  # most copies first


def test_twd_entry_reads_back_with_krcg():
    text = deck_rules.twd_entry(
        event="Especial de São João 2026",
        place="Campina Grande (PB), Brazil",
        date=datetime.date(2026, 6, 21),
        rounds=2,
        final=True,
        players=15,
        winner="Paulo Roberto Barbosa da Silva",
        url="https://www.vekn.net/event-calendar/event/13373",
        deck=check_deck(TWD),
        deck_name="Glorioso Goulet",
        score=(1, 3, 4),
    )
    assert text == TWD.rstrip("\n") + "\n"  # the archive's own layout, exactly
    lines = text.splitlines()
    assert lines[:6] == [
        "Especial de São João 2026",
        "Campina Grande (PB), Brazil",
        "June 21st 2026",
        "2R+F",
        "15 players",
        "Paulo Roberto Barbosa da Silva",
    ]
    back = krcg_parser.deck_from_txt(text.splitlines(), deck_rules.card_index().cards, twda=True)
    assert back.event.players_count == 15 and back.event.rounds == 2
    assert {c.id: c.count for c in back.cards} == {c.id: c.count for c in check_deck(TWD).cards}


def test_twd_entry_without_final_or_score():
    text = deck_rules.twd_entry(
        event="Small",
        place="Online",
        date=datetime.date(2026, 3, 1),
        rounds=3,
        final=False,
        players=6,
        winner="A",
        deck=check_deck(deck()),
    )
    assert text.splitlines()[2:5] == ["March 1st 2026", "3R (no final)", "6 players"]
    assert "--" not in text.splitlines()[7]


# --------------------------------------------------------------------------- card index


def test_index_is_built_once_and_shared_between_threads():
    first = deck_rules.card_index()
    seen = []
    threads = [
        threading.Thread(target=lambda: seen.append(deck_rules.card_index())) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(index is first for index in seen)


def test_the_warm_up_builds_the_shared_index_in_a_daemon_thread(monkeypatch):
    monkeypatch.setattr(deck_rules, "_index", None)
    thread = deck_rules.warm_in_background()
    assert thread.daemon and thread.name == "card-index-warm-up"
    thread.join(timeout=120)
    assert deck_rules._index is not None
    assert deck_rules.card_index() is deck_rules._index


def test_a_forked_child_gets_a_fresh_lock(monkeypatch):
    """gunicorn --preload forks after the warm-up may have taken the lock: the child's
    lock is a new one, free (the parent's thread does not exist there)."""
    held = deck_rules._index_lock
    monkeypatch.setattr(deck_rules, "_index_lock", held)
    with held:
        deck_rules._after_fork_in_child()
        assert deck_rules._index_lock is not held
        assert deck_rules._index_lock.acquire(blocking=False)
        deck_rules._index_lock.release()


def test_a_misspelling_does_not_grow_the_index():
    index = deck_rules.card_index()
    before = len(index.cards._aliases)
    check_deck(deck(library="59x Earth Meld\n1x Deflectoin Zq"))
    check_deck(deck(library="59x Earth Meld\n1x Defletcion"))
    assert len(index.cards._aliases) == before


def test_index_from_a_stored_card_file(tmp_path):
    (tmp_path / "cards.json").write_bytes((DATA / "cards_tiny.json").read_bytes())
    index = deck_rules.build_index(tmp_path)
    assert index.source == "cards.json"
    check = check_deck("12x Anson\n60x Arbitro Test Card", index=index)
    assert check.valid is True
    assert counts(check) == {"Anson": 12, "Arbitro Test Card": 60}
    banned = check_deck("12x Anson\n59x Blood Doll\n1x Dramatic Upheaval", index=index)
    assert codes(banned) == ["banned"]
    assert index.set_code("Fifth Edition") == "V5"  # the packaged expansions


def test_stored_card_data_replaces_the_packaged_data(tmp_path):
    (tmp_path / "cards.json").write_bytes((DATA / "cards_tiny.json").read_bytes())
    try:
        deck_rules.set_card_data_dir(tmp_path)
        assert deck_rules.card_index().source == "cards.json"
        assert len(deck_rules.card_index().cards) == 5
    finally:
        deck_rules.set_card_data_dir(None)
    assert len(deck_rules.card_index().cards) > 4000


@pytest.mark.parametrize(
    "content",
    [b"not json", b"[]", b'[{"kind": "Spell"}]', b'[{"kind": "Crypt", "id": 1}]'],
)
def test_bad_card_files_are_refused(content):
    with pytest.raises(ValueError):
        deck_rules.cards_from_json(content)
