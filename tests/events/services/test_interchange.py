"""docs/contracts.md §1: event files — import all-or-nothing with located errors, export round
trip."""

import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from events.interchange import EventFileError, export_event, import_event, validate_event_file
from events.models import Event, Person
from standings import vekn
from standings.services import event_standings


def make_file(players=10, rounds=3, final=True, seed=1, slug="imported-2026"):
    """A legal event file: tables of the right sizes, legal sheets."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(1, players + 1)]
    doc = {
        "format": "arbitro.event/1",
        "ruleset": "vekn",
        "slug": slug,
        "name": "Imported Open",
        "date": "2026-11-28",
        "players": [
            {"id": p, "name": f"Player {p[1:]}", "vekn": f"{2000000 + int(p[1:])}"} for p in ids
        ],
        "rounds": [],
    }
    from events.seating import table_sizes

    for n in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        tables, i = [], 0
        for size in table_sizes(players):
            sheet = rng.choice(sorted(vekn.legal_sheets(size)))
            tables.append(
                [
                    {"player": p, "vp": float(v)}
                    for p, v in zip(order[i : i + size], sheet, strict=True)
                ]
            )
            i += size
        doc["rounds"].append({"number": n, "final": False, "tables": tables})
    if final:
        fin = ids[:5]
        sheet = next(s for s in sorted(vekn.legal_sheets(5)) if s[2] > max(s[:2] + s[3:]))
        doc["rounds"].append(
            {
                "number": rounds + 1,
                "final": True,
                "tables": [
                    [{"player": p, "vp": float(v)} for p, v in zip(fin, sheet, strict=True)]
                ],
            }
        )
    return doc


def test_valid_file_validates():
    ef = validate_event_file(make_file())
    assert ef.slug == "imported-2026" and len(ef.rounds) == 4 and ef.rounds[-1].final


def test_every_problem_is_listed_with_its_location():
    doc = make_file()
    doc["rounds"][1]["tables"][1][0]["vp"] = 4.5  # impossible at a 5-table? make sheet illegal
    doc["rounds"][1]["tables"][0][0]["player"] = "ghost"
    doc["rounds"][2]["tables"][0][1]["vp"] = 0.3
    doc["date"] = "28/11/2026"
    with pytest.raises(EventFileError) as info:
        validate_event_file(doc)
    problems = info.value.problems
    assert any(p.startswith("round 2, table 1, seat 1: unknown player 'ghost'") for p in problems)
    assert any(p.startswith("round 2, table 2:") for p in problems)
    assert any(p.startswith("round 3, table 1, seat 2: vp 0.3") for p in problems)
    assert any(p.startswith("date:") for p in problems)


def test_override_accepts_illegal_sheet():
    doc = make_file(players=8, rounds=2, final=False)
    table = doc["rounds"][0]["tables"][0]
    for seat in table:
        seat["vp"] = 1.0
    with pytest.raises(EventFileError):
        validate_event_file(doc)
    doc["rounds"][0]["tables"][0] = {"seats": table, "override": "Card effect: Kine Dominance"}
    assert validate_event_file(doc).rounds[0].tables[0].override


def test_import_is_all_or_nothing(db):
    doc = make_file()
    doc["rounds"][2]["tables"][0][0]["player"] = "ghost"
    with pytest.raises(EventFileError):
        import_event(doc)
    assert not Event.objects.exists() and not Person.objects.exists()


def test_import_export_round_trip(db):
    doc = make_file()
    event = import_event(doc)
    out = export_event(event)
    for key in ("format", "ruleset", "slug", "name", "date", "players", "rounds"):
        assert out[key] == doc[key], key
    result = event_standings(event)
    assert result.standings.final_played
    winners = [r for r in result.standings.rows if r.winner]
    assert len(winners) == 1 and result.players[winners[0].player].code == "p3"


def test_replace_requires_flag(db):
    import_event(make_file())
    with pytest.raises(EventFileError, match="--replace"):
        import_event(make_file())
    event = import_event(make_file(seed=2), replace=True)
    assert Event.objects.filter(slug=event.slug).count() == 1


def test_toss_and_dropped_are_imported(db):
    doc = make_file(final=False)
    doc["toss"] = ["p4", "p2"]
    doc["dropped"] = ["p9"]
    event = import_event(doc)
    out = export_event(event)
    assert out["toss"] == ["p4", "p2"] and out["dropped"] == ["p9"]


def test_incidents_import_as_confirmed_penalties(db):
    """docs/contracts.md §1 incidents: assessed in order, SA applied to the game, DQ removes."""
    doc = make_file(final=False)
    doc["incidents"] = [
        {
            "id": "i1",
            "person": "p2",
            "infraction": "3.7",
            "conditions": {"pattern": False},
            "round": 1,
            "timing": "during_game",
            "linked_to": None,
            "level": None,
            "reason": None,
        },
        {
            "id": "i2",
            "person": "p2",
            "infraction": "3.7",
            "conditions": {"pattern": False},
            "round": 2,
            "timing": "during_game",
            "linked_to": None,
            "level": None,
            "reason": None,
        },
        {"id": "i3", "person": "p3", "infraction": "2.4", "round": 2, "timing": "during_game"},
        {"id": "i4", "person": "p4", "infraction": "4.7", "round": 3, "timing": "during_game"},
        {
            "id": "i5",
            "person": "p5",
            "infraction": "3.3",
            "round": 1,
            "timing": "during_game",
            "level": "warning",
            "reason": "Repeated after an unrecorded caution",
        },
    ]
    event = import_event(doc)
    from standings.services import standings_document

    result = event_standings(event)
    penalties = {p["incident"]: p for p in standings_document(result)["penalties"]}
    assert (penalties["i2"]["level"], penalties["i2"]["offence"]) == ("warning", 2)
    assert penalties["i3"]["vp_adjustment"] == {"round": 2, "vp": -1.0}
    assert "p4" not in {r["player"] for r in standings_document(result)["standings"]}
    assert penalties["i5"]["level"] == "warning"
    exported = export_event(event)["incidents"]
    assert [i["id"] for i in exported] == ["i1", "i2", "i3", "i4", "i5"]
    assert exported[4]["level"] == "warning" and exported[0]["level"] is None
    # The raw VP of p3 is kept; only the adjusted VP moved.
    vp_file = sum(s["vp"] for t in doc["rounds"][1]["tables"] for s in t if s["player"] == "p3")
    raw = sum(
        s["vp"]
        for t in export_event(event)["rounds"][1]["tables"]
        for s in t
        if s["player"] == "p3"
    )
    assert vp_file == raw


def test_bad_incidents_are_located():
    doc = make_file()
    doc["incidents"] = [
        {"id": "i1", "person": "ghost", "infraction": "3.3", "round": 1, "timing": "during_game"},
        {"id": "i2", "person": "p1", "infraction": "3.3", "round": 1, "timing": "sometime"},
    ]
    with pytest.raises(EventFileError) as info:
        validate_event_file(doc)
    assert any(p.startswith("incident i1: unknown person") for p in info.value.problems)
    assert any(p.startswith("incident i2: timing") for p in info.value.problems)
    doc["incidents"] = [
        {"id": "i1", "person": "p1", "infraction": "9.9", "round": 1, "timing": "during_game"}
    ]
    with pytest.raises(EventFileError, match="i1"):
        validate_event_file(doc)
    doc["incidents"] = [
        {"id": "i1", "person": "p1", "infraction": "3.7", "round": 1, "timing": "during_game"}
    ]
    with pytest.raises(EventFileError, match="pattern"):
        validate_event_file(doc)


def test_commands(db, tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(make_file()))
    out = StringIO()
    call_command("import_event", str(path), stdout=out)
    assert "imported imported-2026" in out.getvalue()
    out = StringIO()
    call_command("export_event", "imported-2026", stdout=out)
    assert json.loads(out.getvalue())["slug"] == "imported-2026"
    out = StringIO()
    call_command("standings", "imported-2026", "--json", stdout=out)
    doc = json.loads(out.getvalue())
    assert doc["final_played"] is True and doc["standings"][0]["winner"] is True
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_event", str(bad))
    err = StringIO()
    doc = make_file(slug="second")
    doc["rounds"][0]["tables"][0][0]["player"] = "ghost"
    bad.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_event", str(bad), stderr=err)
    assert "round 1, table 1, seat 1: unknown player 'ghost'" in err.getvalue()


def test_first_and_last_names_import_and_export_only_when_set(db):
    """docs/contracts.md §1 (issue 14): optional ``first_name``/``last_name`` on a player are
    kept and written back; players without them export without the keys; a name that is
    not both together is a located problem."""
    doc = make_file()
    doc["players"][0].update(
        name="María José Herrera", first_name="María José", last_name="Herrera"
    )
    event = import_event(doc)
    person = event.registrations.get(code="p1").person
    assert (person.first_name, person.last_name) == ("María José", "Herrera")
    players = {p["id"]: p for p in export_event(event)["players"]}
    assert players["p1"] == {
        "id": "p1",
        "name": "María José Herrera",
        "vekn": doc["players"][0]["vekn"],
        "first_name": "María José",
        "last_name": "Herrera",
    }
    assert set(players["p2"]) == {"id", "name", "vekn"}

    bad = make_file(slug="bad-names")
    bad["players"][1].update(first_name="Ana", last_name="Díaz")  # name is "Player 2"
    bad["players"][2].update(last_name=7)
    with pytest.raises(EventFileError) as exc:
        import_event(bad)
    text = str(exc.value)
    assert "players[2] (p2): name 'Player 2' is not first_name and last_name together" in text
    assert "players[3] (p3): last_name must be a string" in text
    assert not Event.objects.filter(slug="bad-names").exists()
