"""Past events from the legacy Archon spreadsheet (events/archon_import.py, the
``import_event`` command; docs/rules-vekn.md "Importing past events"): imported like an
event file, rated like a played event, all or nothing."""

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from events.archon_import import import_archon
from events.interchange import EventFileError, import_event
from events.models import Event, Person
from standings.services import event_standings, standings_document
from tests.events.archon_workbook import archon_workbook
from tests.standings.services.test_rating_services import EXPECTED, event_file

pytestmark = pytest.mark.django_db


def _rows(event):
    return {r["player"]: r for r in standings_document(event_standings(event))["standings"]}


class _Undo(Exception):
    pass


def _true_totals():
    """The preliminary totals of the worked example, as the Archon would have summed them
    (from the same event imported as a file, then rolled back)."""
    try:
        with transaction.atomic():
            reference = import_event(event_file(slug="reference"))
            totals = {
                pid: (row["prelim_gw"], row["prelim_vp"], row["prelim_tp"])
                for pid, row in _rows(reference).items()
            }
            raise _Undo
    except _Undo:
        pass
    return totals


def test_an_archon_event_is_rated_like_a_played_one():
    data = archon_workbook(event_file(), totals=_true_totals())
    event = import_archon(data, slug="archon-2026", publish=True)
    assert (event.slug, event.name, str(event.date)) == (
        "archon-2026",
        "Open rated-2026",
        "2026-11-28",
    )
    assert event.rounds.count() == 3 and event.standings_published
    rows = _rows(event)
    assert {pid: row["rating_points"] for pid, row in rows.items()} == EXPECTED
    assert rows["p2"]["winner"] is True
    # The archondata fields: first and last names apart, VEKN numbers.
    ana = Person.objects.get(vekn_number="3200002")
    assert (ana.first_name, ana.last_name) == ("Player", "2")


def test_a_championship_level_raises_the_bonus_as_in_an_event_file():
    event = import_archon(archon_workbook(event_file(), level="National Championship"))
    assert event.championship == "national"
    assert _rows(event)["p2"]["rating_points"] == 5 + 28 + 16 + 86


def test_an_illegal_sheet_is_located_and_nothing_is_saved():
    event = event_file()
    event["rounds"][0]["tables"][0] = [
        {"player": p, "vp": 1} for p in ("p1", "p2", "p3", "p4", "p5")
    ]
    with pytest.raises(EventFileError) as error:
        import_archon(archon_workbook(event))
    assert any(p.startswith("round 1, table 1") for p in error.value.problems)
    assert not Event.objects.exists() and not Person.objects.exists()


def test_totals_that_disagree_with_the_round_sheets_save_nothing():
    totals = _true_totals()
    totals["p3"] = (1, totals["p3"][1], totals["p3"][2])  # the workbook says p3 won a game
    with pytest.raises(EventFileError) as error:
        import_archon(archon_workbook(event_file(), totals=totals))
    assert error.value.problems == [
        "Methuselahs: player 3 (Player 3) has 1 GW in the workbook but 0 from its round"
        " sheets; nothing was imported"
    ]
    assert not Event.objects.exists() and not Person.objects.exists()


def test_the_layout_problems_come_back_as_file_problems():
    with pytest.raises(EventFileError) as error:
        import_archon(archon_workbook(event_file(), drop_sheets=("Final Round",)))
    assert error.value.problems[0].startswith("sheet 'Final Round' is missing")


def test_the_command_imports_a_workbook(tmp_path, capsys):
    path = tmp_path / "archon.xlsx"
    path.write_bytes(archon_workbook(event_file()))
    call_command("import_event", str(path), "--slug", "from-excel", "--publish")
    assert "imported from-excel: 11 players, 3 rounds" in capsys.readouterr().out
    with pytest.raises(CommandError, match="problem"):
        call_command("import_event", str(path), "--slug", "from-excel")  # exists: no --replace
    call_command("import_event", str(path), "--slug", "from-excel", "--replace")
    assert Event.objects.filter(slug="from-excel").count() == 1


def test_the_command_refuses_a_broken_workbook_and_a_slug_for_json(tmp_path, capsys):
    path = tmp_path / "other.xlsx"
    path.write_bytes(b"not a zip")
    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_event", str(path))
    assert "not an Excel .xlsx workbook" in capsys.readouterr().err
    with pytest.raises(CommandError, match="--slug is for Archon"):
        call_command("import_event", str(tmp_path / "event.json"), "--slug", "x")
    assert not Event.objects.exists()
