"""Circuits from stored events (docs/ratings.md "Circuits"): saving one (the
organisation's own events in the period only, audited), its standings from imported event
files (the worked example of ``test_rating_services``) and bounded queries."""

from datetime import date
from decimal import Decimal

import pytest

from events.audit import entries_about
from events.errors import UserError
from events.interchange import import_event
from events.models import Circuit
from standings import circuit_services
from tests.factories import OrganisationFactory, UserFactory
from tests.standings.services.test_rating_services import EXPECTED, event_file

# The worked example's final ranks: p2 wins; p1, p8, p6, p7, the other finalists, share
# rank 2; p3 sixth, p5 seventh, p4, p9, p10 eighth.


@pytest.fixture
def org(db):
    return OrganisationFactory(slug="club", name="Club")


def _save(org, events, circuit=None, **overrides):
    values = {
        "name": "Club circuit 2026",
        "starts_on": date(2026, 1, 1),
        "ends_on": date(2026, 12, 31),
        "scoring": "gp",
        "best": None,
        "min_events": 1,
        "places": 0,
    } | overrides
    return circuit_services.save_circuit(
        org, UserFactory(), events=events, circuit=circuit, **values
    )


def _events(org, n, **extra):
    return [
        import_event(
            event_file(f"c{i}", f"2026-{i + 1:02d}-10", **extra), organisation=org, publish=True
        )
        for i in range(n)
    ]


def test_save_creates_and_audits(org):
    events = _events(org, 2)
    circuit = _save(org, events)
    assert set(circuit.events.all()) == set(events)
    entry = entries_about(circuit).get()
    assert entry.action == "circuit.created"
    assert entry.after["events"] == sorted(e.id for e in events)

    changed = _save(org, events[:1], circuit=circuit, name="Renamed", places=3)
    assert changed.pk == circuit.pk and changed.name == "Renamed"
    assert list(changed.events.all()) == events[:1]
    last = entries_about(circuit).order_by("-id").first()
    assert last.action == "circuit.changed"
    assert last.before["name"] == "Club circuit 2026" and last.after["places"] == 3


def test_refuses_another_organisations_event(org):
    other = import_event(event_file("theirs", "2026-03-01"), publish=True)
    with pytest.raises(UserError) as error:
        _save(org, [other])
    assert error.value.field == "events"
    assert not Circuit.objects.exists()


def test_refuses_an_event_outside_the_period(org):
    (event,) = _events(org, 1)
    with pytest.raises(UserError):
        _save(org, [event], starts_on=date(2026, 6, 1))
    assert not Circuit.objects.exists()


@pytest.mark.parametrize(
    "overrides",
    [
        {"ends_on": date(2025, 12, 31)},
        {"best": 0},
        {"min_events": 0},
        {"scoring": "elo"},
    ],
)
def test_refuses_bad_values_saving_nothing(org, overrides):
    with pytest.raises(UserError):
        _save(org, [], **overrides)
    assert not Circuit.objects.exists()


def test_gp_standings(org):
    circuit = _save(org, _events(org, 2))
    result = circuit_services.circuit_standings(circuit)
    by_name = {line.name: line for line in result.lines}
    assert by_name["Player 2"].points == 50 and by_name["Player 2"].rank == 1
    assert by_name["Player 6"].points == 30  # second twice
    assert by_name["Player 3"].points == 2 * 10  # sixth
    assert "Player 11" not in by_name  # never seated: not ranked in the event
    assert [e.slug for e in result.events] == ["c0", "c1"]


def test_rating_standings_best_one(org):
    circuit = _save(org, _events(org, 3), scoring="rating", best=1, places=1)
    lines = circuit_services.circuit_standings(circuit).lines
    top = lines[0]
    assert (top.name, top.points, top.played, top.qualified) == (
        "Player 2",
        EXPECTED["p2"],
        3,
        True,
    )
    assert sum(s.counted for s in top.entries) == 1
    assert not lines[1].qualified


def test_score_standings_and_minimum(org):
    events = _events(org, 2)
    circuit = _save(org, events, scoring="score", min_events=2)
    lines = circuit_services.circuit_standings(circuit).lines
    top = lines[0]
    # p2: 1 GW + the final's win, 4 + 3 VP, per event.
    assert (top.name, top.gw, top.vp) == ("Player 2", 4, Decimal(14))
    assert all(line.rank is not None for line in lines)
    circuit = _save(org, events, circuit=circuit, scoring="score", min_events=3)
    lines = circuit_services.circuit_standings(circuit).lines
    assert all(line.rank is None and not line.qualified for line in lines)


def test_unpublished_and_unfinished_events_do_not_count(org):
    private = import_event(event_file("private", "2026-03-01"), organisation=org)
    data = event_file("nofinal", "2026-04-01")
    for seat in data["rounds"][2]["tables"][0]:
        del seat["vp"]
    unfinished = import_event(data, organisation=org, publish=True)
    circuit = _save(org, [private, unfinished])
    assert circuit_services.circuit_standings(circuit).lines == ()


def test_document_shape(org):
    circuit = _save(org, _events(org, 1), places=2, best=4)
    doc = circuit_services.circuit_document(circuit)
    assert set(doc) == {
        "id",
        "name",
        "organisation",
        "starts_on",
        "ends_on",
        "scoring",
        "best",
        "min_events",
        "places",
        "events",
        "rows",
    }
    assert doc["organisation"] == "club" and doc["scoring"] == "gp" and doc["best"] == 4
    assert doc["events"] == [{"event": "c0", "name": "Open c0", "date": "2026-01-10"}]
    assert doc["rows"][0] == {
        "rank": 1,
        "vekn": "3200002",
        "name": "Player 2",
        "points": 25,
        "gw": 2,
        "vp": 7,
        "tp": doc["rows"][0]["tp"],
        "played": 1,
        "qualified": True,
        "events": [{"event": "c0", "date": "2026-01-10", "rank": 1, "points": 25, "counted": True}],
    }
    # The four other finalists share rank 2: all of them qualify with 2 places.
    assert [r["rank"] for r in doc["rows"]] == [1, 2, 2, 2, 2, 6, 7, 8, 8, 8]
    assert [r["qualified"] for r in doc["rows"]] == [True] * 5 + [False] * 5


@pytest.mark.parametrize("n", [1, 6])
def test_bounded_queries(org, django_assert_max_num_queries, n):
    circuit = _save(org, _events(org, n))
    circuit = Circuit.objects.select_related("organisation").get(pk=circuit.pk)
    with django_assert_max_num_queries(6):
        doc = circuit_services.circuit_document(circuit)
    assert len(doc["events"]) == n and doc["rows"][0]["points"] == 25 * n
