"""The pasted list of players and name matching (events.player_lists), without a database."""

import pytest

from events import player_lists as pl
from events.player_lists import Candidate, Line, ListError, classify, parse


def rows(text):
    return [(line.number, line.name, line.vekn, line.error) for line in parse(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ana Pérez", [(1, "Ana Pérez", "", "")]),
        ("Ana Pérez; 1234567", [(1, "Ana Pérez", "1234567", "")]),
        ("Ana Pérez;1234567;", [(1, "Ana Pérez", "1234567", "")]),
        ("Ana Pérez, 1234567", [(1, "Ana Pérez", "1234567", "")]),
        ("Ana Pérez\t1234567", [(1, "Ana Pérez", "1234567", "")]),
        ("Ana Pérez | 1234567", [(1, "Ana Pérez", "1234567", "")]),
        ("Ana Pérez 1234567", [(1, "Ana Pérez", "1234567", "")]),
        ("1234567 Ana Pérez", [(1, "Ana Pérez", "1234567", "")]),
        ("1234567; Ana Pérez", [(1, "Ana Pérez", "1234567", "")]),
        ("Pérez, Ana", [(1, "Pérez, Ana", "", "")]),
        ("  Ana    Pérez  ", [(1, "Ana Pérez", "", "")]),
        ("1234567", [(1, "", "1234567", "")]),
        ("Ana; 12a45", [(1, "Ana", "12a45", pl.BAD_NUMBER)]),
        ("Ana; ²", [(1, "Ana; ²", "", "")]),  # not a digit for the list: part of the name
        ("Ana; 1" + "0" * 20, [(1, "Ana", "1" + "0" * 20, pl.BAD_NUMBER)]),
        ("A" * 201, [(1, "A" * 200, "", pl.NAME_TOO_LONG)]),
        ("A" * 200, [(1, "A" * 200, "", "")]),
        ("Ana\x00Pérez", [(1, "Ana\x00Pérez", "", pl.CONTROL_CHARACTERS)]),
        ("\ufeffAna", [(1, "Ana", "", "")]),
    ],
)
def test_one_line_shapes(text, expected):
    assert rows(text) == expected


def test_blank_lines_skipped_and_numbers_are_the_texts():
    assert rows("\n\nAna\n  \n;\nBea; 12\r\n") == [(3, "Ana", "", ""), (6, "Bea", "12", "")]


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_csv_with_a_header(sep):
    text = f'name{sep}vekn\nAna Pérez{sep}1234567\nBea{sep}\n"Cruz, Carlos"{sep}7'
    if sep != ",":
        text = text.replace('"Cruz, Carlos"', "Cruz, Carlos")
    assert rows(text) == [
        (2, "Ana Pérez", "1234567", ""),
        (3, "Bea", "", ""),
        (4, "Cruz, Carlos", "7", ""),
    ]


def test_header_in_another_order_and_language():
    assert rows("Número;Nombre\n12;Ana") == [(2, "Ana", "12", "")]


def test_header_without_number_column():
    assert rows("name,club\nAna,Madrid") == [(2, "Ana", "", "")]


def test_duplicates_inside_the_list():
    got = rows("Ana; 1\nBea; 1\nAna\nANA  \nJosé\njose; 5\nCarla; 7\ncarla; 8")
    assert got == [
        (1, "Ana", "1", ""),
        (2, "Bea", "1", pl.DUPLICATE),
        (3, "Ana", "", pl.DUPLICATE),
        (4, "ANA", "", pl.DUPLICATE),
        (5, "José", "", ""),
        (6, "jose", "5", pl.DUPLICATE),
        # Two namesakes with two numbers are two people.
        (7, "Carla", "7", ""),
        (8, "carla", "8", ""),
    ]
    assert parse("Ana; 1\nBea; 1")[1].params == (("line", 1),)


def test_whole_list_limits():
    with pytest.raises(ListError):
        parse("")
    with pytest.raises(ListError):
        parse("\n \n;;\n")
    with pytest.raises(ListError):
        parse("name,vekn\n")
    assert len(parse("\n".join(f"P{i}" for i in range(pl.MAX_LINES)))) == pl.MAX_LINES
    with pytest.raises(ListError, match="1001"):
        parse("\n".join(f"P{i}" for i in range(pl.MAX_LINES + 1)))
    with pytest.raises(ListError):
        parse("A" * (pl.MAX_TEXT_LENGTH + 1))


def test_name_key():
    assert pl.name_key("  José   PÉREZ ") == pl.name_key("jose perez") == "jose perez"
    assert pl.name_key("Ñoño") == "nono"


ANA = Candidate(1, "Ana Pérez", "100")
BEA = Candidate(2, "Bea", "")
CAR = Candidate(3, "Carla", "300", known=False)
REG = Candidate(4, "Dora", "400", registered=True)


def outcome(text, by_number=None, by_name=None):
    by_number = by_number if by_number is not None else {c.vekn: c for c in (ANA, CAR, REG)}
    by_name = (
        by_name if by_name is not None else {pl.name_key(c.name): [c] for c in (ANA, BEA, REG)}
    )
    return [
        (o.kind, o.person.id if o.person else None, o.line.error, o.adds_number)
        for o in classify(parse(text), by_number, by_name)
    ]


def test_classify_by_number_and_name():
    assert outcome("ana perez; 100") == [(pl.EXISTING, 1, "", False)]
    assert outcome("100") == [(pl.EXISTING, 1, "", False)]
    assert outcome("Other; 100") == [(pl.ERROR, None, pl.NUMBER_OTHER_NAME, False)]
    # A holder the organisation has not met: found with the right name only.
    assert outcome("Carla; 300") == [(pl.EXISTING, 3, "", False)]
    assert outcome("300") == [(pl.ERROR, None, pl.NUMBER_ONLY_UNKNOWN, False)]
    assert outcome("999") == [(pl.ERROR, None, pl.NUMBER_ONLY_UNKNOWN, False)]
    assert outcome("Ana Perez") == [(pl.EXISTING, 1, "", False)]
    assert outcome("bea") == [(pl.EXISTING, 2, "", False)]
    # A new number for a known person without one: that person, the number added.
    assert outcome("Bea; 222") == [(pl.EXISTING, 2, "", True)]
    # A new number for a namesake who has another: a different person.
    assert outcome("Ana Pérez; 101") == [(pl.NEW, None, "", False)]
    assert outcome("Zoe") == [(pl.NEW, None, "", False)]
    assert outcome("Dora; 400") == [(pl.ERROR, None, pl.ALREADY_REGISTERED, False)]
    assert outcome("Dora") == [(pl.ERROR, None, pl.ALREADY_REGISTERED, False)]
    assert outcome("Ana; 1x") == [(pl.ERROR, None, pl.BAD_NUMBER, False)]


def test_classify_ambiguous_blocked_and_the_same_person_twice():
    other_ana = Candidate(9, "ANA PEREZ", "900")
    assert outcome("Ana Pérez", by_name={"ana perez": [ANA, other_ana]}) == [
        (pl.ERROR, None, pl.NAME_AMBIGUOUS, False)
    ]
    blocked = Candidate(5, "Eva", "500", blocked=True)
    assert outcome("Eva; 500", by_number={"500": blocked}) == [(pl.ERROR, None, pl.BLOCKED, False)]
    assert outcome("Ana Pérez; 100\nana perez") == [
        (pl.EXISTING, 1, "", False),
        (pl.ERROR, None, pl.DUPLICATE, False),
    ]


def test_reasons_are_words_for_every_code():
    for code in pl.REASONS:
        line = Line(3, "Ana", "1", code, (("max", 200), ("number", "1"), ("line", 2)))
        assert pl.Outcome(line, pl.ERROR).reason
    assert pl.Outcome(Line(1, "Ana", ""), pl.NEW).reason == ""


def test_digest_changes_with_what_would_be_saved():
    a = classify(parse("Ana\nBea"), {}, {})
    b = classify(parse("Ana\nBea"), {}, {})
    c = classify(parse("Ana\nBeatriz"), {}, {})
    assert pl.digest(a) == pl.digest(b) != pl.digest(c)
    d = classify(parse("Ana\nBea"), {}, {"bea": [BEA]})
    assert pl.digest(d) != pl.digest(a)


def test_person_names_the_name_is_first_and_last_together():
    """Issue 14: the name given in two parts; the display name is both together."""
    from events.player_lists import NamesDisagree, PersonNames, person_names

    both = PersonNames("María José Herrera", "María José", "Herrera")
    assert person_names("", " María  José ", "Herrera") == both
    assert person_names("María José Herrera", "María José", "Herrera") == both
    # Typed the same way, case and accents aside: the parts' spelling is kept.
    assert person_names("maria jose  herrera", "María José", "Herrera") == both
    assert person_names("Ana  Pérez") == PersonNames("Ana Pérez")
    assert person_names("", "Madonna", "") == PersonNames("Madonna", "Madonna", "")
    with pytest.raises(NamesDisagree) as exc:
        person_names("María Herrera", "María José", "Herrera")
    assert exc.value.expected == "María José Herrera"
