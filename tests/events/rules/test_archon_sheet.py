"""Reading the legacy Archon workbook into an event file (events/archon_sheet.py;
docs/rules-vekn.md "Importing past events"): the layout accepted, and every other one
refused naming the sheet and cell. No database."""

import datetime as dt

import pytest

from events.archon_sheet import ArchonSheetError, open_workbook, read_archon, sheet_totals
from tests.events.archon_workbook import archon_workbook
from tests.standings.services.test_rating_services import event_file


def read(data: bytes, **kwargs) -> dict:
    return read_archon(open_workbook(data), **kwargs)


def problems(data: bytes) -> list[str]:
    with pytest.raises(ArchonSheetError) as error:
        read(data)
    return error.value.problems


def test_players_rounds_and_final_become_an_event_file():
    event = event_file()
    file = read(archon_workbook(event))
    assert file["format"] == "arbitro.event/1" and file["ruleset"] == "vekn"
    assert (file["name"], file["date"]) == ("Open rated-2026", "2026-11-28")
    assert file["slug"] == "open-rated-2026-2026-11-28"
    first = file["players"][0]
    assert first == {
        "id": "p1",
        "name": "Player 1",
        "first_name": "Player",
        "last_name": "1",
        "vekn": "3200001",
    }
    assert len(file["players"]) == 11
    # Rounds 1 and 2, then the final, seats in seat order with their VP.
    assert [(r["number"], r["final"]) for r in file["rounds"]] == [
        (1, False),
        (2, False),
        (3, True),
    ]
    assert file["rounds"] == [
        {
            **r,
            "tables": [
                [{"player": s["player"], "vp": float(s["vp"])} for s in t] for t in r["tables"]
            ],
        }
        for r in event["rounds"]
    ]
    assert (file["game_format"], file["championship"], file["online"]) == ("standard", None, False)
    assert "toss" not in file


def test_level_format_date_cell_slug_and_coin_toss():
    def date_cell(wb):
        wb["Tournament Info"]["B4"] = dt.datetime(2019, 3, 2)

    data = archon_workbook(
        event_file(),
        level="National Championship",
        game_format="Limited",
        coins={"p6": 2, "p7": 1},
        edit=date_cell,
    )
    file = read(data, slug="chile-2019")
    assert (file["slug"], file["date"]) == ("chile-2019", "2019-03-02")
    assert (file["game_format"], file["championship"]) == ("limited", "national")
    assert file["toss"] == ["p7", "p6"]  # the smaller coin ranking first
    assert (
        read(archon_workbook(event_file(), level="Continental Championship"))["championship"]
        == "continental"
    )


def test_a_four_player_table_leaves_its_fifth_row_and_an_empty_vp_counts_zero():
    event = event_file()
    # Round 1, table 1 at four players (p5 sits out); p2's VP cell left empty.
    event["rounds"][0]["tables"][0] = [
        {"player": "p1", "vp": 4},
        {"player": "p2"},
        {"player": "p3", "vp": 0},
        {"player": "p4", "vp": 0},
    ]

    def no_table_numbers(wb):  # a workbook whose Table# formulas were never computed
        for row in range(7, 17):
            wb["Round 1"][f"D{row}"] = None

    file = read(archon_workbook(event, edit=no_table_numbers))
    tables = file["rounds"][0]["tables"]
    assert [[s["player"] for s in t] for t in tables] == [
        ["p1", "p2", "p3", "p4"],
        ["p6", "p7", "p8", "p9", "p10"],
    ]
    assert tables[0][1] == {"player": "p2", "vp": 0.0}


def test_the_workbook_totals_are_read_when_present():
    data = archon_workbook(event_file(), totals={"p1": (1, 5, 90)})
    assert {k: tuple(map(float, v)) for k, v in sheet_totals(open_workbook(data)).items()} == {
        "p1": (1.0, 5.0, 90.0)
    }


def test_another_workbook_is_refused_naming_the_missing_sheets():
    data = archon_workbook(event_file(), drop_sheets=("Methuselahs", "Final Round"))
    found = problems(data)
    assert len(found) == 2
    assert "sheet 'Methuselahs' is missing" in found[0]
    assert "sheet 'Final Round' is missing" in found[1]
    assert "Importing past events" in found[0]


def test_a_missing_round_sheet_and_a_wrong_header_are_located():
    def break_header(wb):
        wb["Methuselahs"]["E5"] = "Email"

    found = problems(archon_workbook(event_file(), edit=break_header))
    assert found == [
        "Methuselahs E5: the header 'V:EKN' is missing (found 'Email'); this is not the"
        " Archon layout (docs/rules-vekn.md, 'Importing past events')"
    ]
    found = problems(archon_workbook(event_file(), rounds_total=5))
    assert found == ["sheet 'Round 4' is missing (Tournament Info B11 says 5 rounds)"]


def test_bad_values_are_each_located():
    def spoil(wb):
        wb["Tournament Info"]["B3"] = None
        wb["Tournament Info"]["B4"] = "someday"
        wb["Methuselahs"]["E8"] = "32-001"
        wb["Methuselahs"]["G9"] = "DQ"
        wb["Round 2"]["A8"] = 42
        wb["Round 1"]["E9"] = "two"

    found = problems(archon_workbook(event_file(), edit=spoil))
    assert "Tournament Info B3: the event name is missing" in found
    assert any(p.startswith("Tournament Info B4: the event date") for p in found)
    assert "Methuselahs E8: the VEKN number '32-001' is not digits" in found
    assert any(p.startswith("Methuselahs G9: player 3 is flagged disqualified") for p in found)
    assert "Round 2 A8: player 42 is not on the Methuselahs sheet" in found
    assert "Round 1 E9: the victory points must be a number" in found


def test_a_file_that_is_not_a_workbook_is_refused():
    found = problems(b"name,vp\nAna,3\n")
    assert len(found) == 1 and found[0].startswith("not an Excel .xlsx workbook")
