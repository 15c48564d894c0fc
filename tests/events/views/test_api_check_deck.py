"""docs/contracts.md §8: ``POST /api/v1/vekn/check-deck`` — the JSON shape, the 400s, the
throttle, and that it writes nothing (no query at all)."""

import json
from pathlib import Path

import pytest
from django.test import override_settings

CHECK = "/api/v1/vekn/check-deck"
TWD = (Path(__file__).parents[1] / "rules" / "data" / "twd_13373.txt").read_text()


def post(client, body):
    return client.post(CHECK, data=json.dumps(body), content_type="application/json")


def deck(crypt="12x Anson", library="60x Earth Meld"):
    return f"Crypt (12 cards)\n{crypt}\nLibrary (60 cards)\n{library}\n"


def test_the_contract_shape(client):
    # No ``db`` fixture: any query would fail the test (public, no database, writes nothing).
    response = post(client, {"deck": deck(crypt="11x Anson"), "format": "standard"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"valid", "crypt_count", "library_count", "cards", "problems"}
    assert body["valid"] is False
    assert (body["crypt_count"], body["library_count"]) == (11, 60)
    assert body["cards"][0] == {"id": 200107, "name": "Anson", "count": 11, "section": "crypt"}
    assert body["cards"][1]["section"] == "library"
    [problem] = body["problems"]
    assert set(problem) == {"code", "card", "message"}
    assert problem["code"] == "crypt_too_small"
    assert problem["card"] is None
    assert "12" in problem["message"]


def test_a_valid_twd_deck(client):
    body = post(client, {"deck": TWD}).json()  # format defaults to standard
    assert body["valid"] is True
    assert body["problems"] == []
    assert (body["crypt_count"], body["library_count"]) == (12, 90)


def test_unknown_card_carries_suggestions(client):
    body = post(client, {"deck": deck(library="60x Earth Meld\n2x Deflecton Zq")}).json()
    [problem] = body["problems"]
    assert problem["code"] == "unknown_card"
    assert problem["card"] == "Deflecton Zq"
    assert "Deflection" in problem["suggestions"]


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ({"deck": deck(), "format": "v5"}, ["not_in_format"]),  # Anson
        ({"deck": deck(), "format": "limited"}, []),
        ({"deck": deck(), "sets": ["Fifth Edition"]}, ["not_in_sets", "not_in_sets"]),
        ({"deck": deck(), "sets": ["Jyhad", "V5"]}, []),
        ({"deck": deck(), "sets": []}, []),
        ({"deck": deck(library="59x Earth Meld\n1x Dramatic Upheaval")}, ["banned"]),
        ({"deck": deck(crypt="6x Anson\n6x Theo Bell (G6)")}, ["crypt_groups"]),
        ({"deck": deck(library="91x Earth Meld")}, ["library_too_large"]),
        ({"deck": deck(library="59x Earth Meld")}, ["library_too_small"]),
    ],
)
def test_problem_codes(client, body, codes):
    answer = post(client, body).json()
    assert [p["code"] for p in answer["problems"]] == codes
    assert answer["valid"] is (codes == [])


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b'{"deck": 3}',
        b'{"text": "12x Anson"}',
        b'{"deck": ""}',
        b'{"deck": "   "}',
        b'{"deck": "hello there"}',
        b'{"deck": "12x Anson", "format": "modern"}',
        b'{"deck": "12x Anson", "format": 5}',
        b'{"deck": "12x Anson", "sets": "Jyhad"}',
        b'{"deck": "12x Anson", "sets": [1]}',
        b'{"deck": "12x Anson", "sets": ["No Such Set"]}',
        b'{"deck": "12x Anson", "boosters": 3, "format": null}',
        b"[" * 100000 + b"]" * 100000,
    ],
)
def test_bad_input_is_400(client, raw):
    response = client.post(CHECK, data=raw, content_type="application/json")
    assert response.status_code == 400
    assert isinstance(response.json()["error"], str)


def test_a_too_long_deck_is_400(client):
    response = post(client, {"deck": "1x Anson\n" * 5000})
    assert response.status_code == 400
    assert "20000" in response.json()["error"]


def test_post_only_and_no_csrf_token_needed(client):
    assert client.get(CHECK).status_code == 405
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert post(strict, {"deck": deck()}).status_code == 200


@override_settings(DECK_CHECK_LIMIT_PER_MINUTE=3)
def test_throttled_per_address(client):
    for _ in range(3):
        assert post(client, {"deck": deck()}).status_code == 200
    response = post(client, {"deck": deck()})
    assert response.status_code == 429
    assert "error" in response.json()


def test_a_body_too_large_is_a_json_413(client):
    """Above DATA_UPLOAD_MAX_MEMORY_SIZE Django refuses to read the body: under /api/ the
    answer is the API's JSON error, not an HTML page (config/views.py)."""
    big = json.dumps({"deck": "1x Anson\n" * 400_000})
    response = client.post(CHECK, data=big, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert "larger than" in response.json()["error"]


def test_an_unknown_api_address_is_a_json_404(client):
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404 and response.json() == {"error": "not found"}


def test_an_impossible_count_is_a_400_naming_the_line(client):
    response = post(client, {"deck": deck(library="60x Earth Meld\n0x Deflection")})
    assert response.status_code == 400
    assert response.json() == {"error": "line 5: “0x Deflection”: a card has 1 to 99 copies"}


def test_a_nul_is_a_400(client):
    response = post(client, {"deck": deck() + "\x00"})
    assert response.status_code == 400 and "NUL" in response.json()["error"]
