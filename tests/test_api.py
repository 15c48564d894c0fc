"""CONTRACTS §2–§3: the standings API and the sheet check API."""

import json

import pytest
from django.urls import reverse

from events import services
from standings.services import event_standings

CHECK = "/api/v1/vekn/check-table"


def post(client, body):
    return client.post(CHECK, data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    ("vp", "valid", "complete"),
    [
        ([1.5, 0, 0.5, 0.5], True, True),  # TR §3.7.4 example 2
        ([1, 1, 1, 1], False, True),  # Σ ceil = 4, but nobody can be last standing
        ([1.5, 0, 1.5, 0, 0.5], True, True),  # TR §3.7.4 example 1
        ([1, None, None, None], True, False),
        ([0, 0, 0, 0], True, False),
        ([5, 5, 5, 5, 5], False, True),
        ([0.3, 0, 0, 0], False, None),
    ],
)
def test_check_table(client, vp, valid, complete):
    from decimal import Decimal

    from standings.vekn import check_sheet

    expected = check_sheet([None if v is None else Decimal(str(v)) for v in vp])
    response = post(client, {"vp": vp})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"valid", "complete", "reason"}
    # The API answers exactly what the rule says …
    assert (body["valid"], body["complete"]) == (expected.valid, expected.complete)
    # … and the rule agrees with the hand-made expectations where we stated them.
    if valid is not None:
        assert body["valid"] is valid
    if complete is not None and body["valid"]:
        assert body["complete"] is complete
    assert (body["reason"] is None) == body["valid"]


def test_check_table_example_from_contracts(client):
    assert post(client, {"vp": [1.5, 0, 0.5, 0.5]}).json() == {
        "valid": True,
        "complete": True,
        "reason": None,
    }
    running = post(client, {"vp": [1, 0, None, None]}).json()
    assert running["complete"] is False and running["valid"] is True


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b'{"vp": 3}',
        b'{"vp": ["x", 0, 0, 0]}',
        b'{"vp": [true, 0, 0, 0]}',
        b'{"vp": [NaN, 0, 0, 0]}',
        b'{"vp": ["1e999999999", 0, 0, 0]}',
        b"[" * 100000 + b"]" * 100000,
    ],
)
def test_check_table_bad_input_is_400(client, raw):
    response = client.post(CHECK, data=raw, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json()


def test_check_table_is_post_only(client):
    assert client.get(CHECK).status_code == 405


def test_standings_document(client, played_event, django_assert_max_num_queries):
    event = played_event
    url = reverse("api-standings", kwargs={"slug": event.slug})
    assert client.get(url).status_code == 404  # not published yet
    services.set_standings_published(event, True)
    response = client.get(url)
    assert response.status_code == 200
    doc = response.json()
    assert doc["event"] == event.slug and doc["ruleset"] == "vekn" and doc["final_played"] is False
    assert doc["penalties"] == []
    assert len(doc["standings"]) == 12
    row = doc["standings"][0]
    assert set(row) == {
        "rank",
        "player",
        "name",
        "prelim_gw",
        "prelim_vp",
        "prelim_tp",
        "finalist",
        "final_vp",
        "winner",
        "toss",
    }
    assert row["rank"] == 1 and isinstance(row["prelim_vp"], float)
    ranks = [r["rank"] for r in doc["standings"]]
    assert ranks == sorted(ranks)
    # Same numbers as the rules module.
    result = event_standings(event)
    assert [r["prelim_tp"] for r in doc["standings"]] == [
        r.prelim_tp for r in result.standings.rows
    ]


def test_unknown_event_is_404(client, db):
    assert client.get("/api/v1/events/nope/standings").status_code == 404
