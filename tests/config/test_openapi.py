"""The public API, described (config/openapi.yaml, config/api_docs.py; docs/contracts.md
"OpenAPI description"): the document is valid OpenAPI 3.1, it documents every public
``/api/v1/`` URL, and every documented response matches what the endpoint returns with
real data."""

import json
from datetime import date

import pytest
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from config import api_docs
from events.interchange import import_event
from events.permissions import Role
from leagues.services import import_season
from standings import circuit_services
from tests.factories import EventRoleFactory, OrganisationFactory, UserFactory
from tests.leagues.seasons import small_season
from tests.leagues.views.test_finals import semi_final_season
from tests.standings.services.test_rating_services import event_file

DOC = api_docs.document()
BASE = "urn:arbitro:openapi"
REGISTRY = Registry().with_resource(
    BASE, Resource.from_contents(DOC, default_specification=DRAFT202012)
)
DECK = "Crypt (12 cards)\n12x Anson\nLibrary (60 cards)\n57x Blood Doll\n3x Deflecton Zq"


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def response_schema(path: str, method: str, status: str) -> dict:
    """The JSON schema the document gives for one response, as a ``$ref`` into the whole
    document (so its own ``$ref`` resolve)."""
    response = DOC["paths"][path][method]["responses"][status]
    if "$ref" in response:
        return {"$ref": BASE + response["$ref"]}
    where = _pointer("paths", path, method, "responses", status, "content", "application/json")
    return {"$ref": f"{BASE}#/{where}/schema"}


def check(path: str, method: str, status: str, response) -> None:
    assert response.status_code == int(status), response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    validator = Draft202012Validator(
        response_schema(path, method, status), registry=REGISTRY, format_checker=FormatChecker()
    )
    validator.validate(response.json())


# ----------------------------------------------------------------------------- the data
def _event(publish=True):
    data = event_file("open-2026", "2026-10-01")
    data["incidents"] = [
        {
            "id": "i1",
            "person": "p2",
            "infraction": "3.7",
            "conditions": {"pattern": False},
            "timing": "during_game",
            "round": 1,
        }
    ]
    return import_event(data, publish=publish)


def _staff_client(client, event):
    user = UserFactory()
    EventRoleFactory(event=event, user=user, role=Role.HEAD_JUDGE)
    client.force_login(user)
    return client


def _post(client, url, body):
    raw = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data=raw, content_type="application/json")


# Each documented response, called for real: (path, method, status, label, call). A call
# gets the test client and returns the response; it makes its own data.
def _standings_public(client):
    _event()
    return client.get("/api/v1/events/open-2026/standings")


def _standings_staff(client):
    event = _event(publish=False)
    response = _staff_client(client, event).get("/api/v1/events/open-2026/standings")
    assert response.json()["penalties"], "the staff document lists the warning"
    return response


def _standings_myl(client):
    players = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 6)]
    matches = [
        [{"player": "p1", "games_won": 2}, {"player": "p2", "games_won": 1}],
        [{"player": "p3", "games_won": 0}, {"player": "p4", "games_won": 2}],
        [{"player": "p5", "bye": True}],
    ]
    import_event(
        {
            "format": "arbitro.event/1",
            "ruleset": "myl",
            "slug": "myl-open",
            "name": "MyL Open",
            "date": "2026-11-28",
            "preliminary_rounds": 2,
            "players": players,
            "rounds": [{"number": 1, "final": False, "tables": matches}],
        },
        publish=True,
    )
    response = client.get("/api/v1/events/myl-open/standings")
    assert response.json()["standings"][0]["match_points"] == 3
    return response


def _rankings(client):
    _event()
    response = client.get("/api/v1/rankings", {"as_of": "2026-12-01"})
    assert response.json()["rows"], "the event is rated"
    return response


def _circuit(client):
    org = OrganisationFactory(slug="club", name="Club")
    event = import_event(event_file("club-1", "2026-03-10"), organisation=org, publish=True)
    circuit = circuit_services.save_circuit(
        org,
        UserFactory(),
        events=[event],
        name="Club circuit 2026",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
        scoring="gp",
        best=None,
        min_events=1,
        places=1,
    )
    return circuit


def _circuits(client):
    _circuit(client)
    response = client.get("/api/v1/circuits", {"organisation": "club"})
    assert response.json()["circuits"][0]["scoring"] == "gp"
    return response


def _circuit_standings(client):
    circuit = _circuit(client)
    response = client.get(f"/api/v1/circuits/{circuit.pk}")
    rows = response.json()["rows"]
    assert rows and rows[0]["rank"] == 1 and rows[0]["qualified"] is True
    return response


def _table(client):
    import_season(small_season())
    return client.get("/api/v1/competitions/t24-primera-a/table")


def _groups(client):
    import_season(small_season())
    response = client.get("/api/v1/competitions/t24-champagne/table")
    assert "groups" in response.json()
    return response


def _bracket(client):
    import_season(small_season())
    return client.get("/api/v1/competitions/t24-cup/bracket")


def _compliance(client):
    import_season(small_season())
    return client.get("/api/v1/seasons/t24/compliance")


def _draft(client):
    import_season(small_season())
    return client.get("/api/v1/seasons/t24/draft-order")


def _suspensions(client):
    import_season(semi_final_season())
    response = client.get("/api/v1/seasons/t24/suspensions")
    assert response.json()["suspensions"], "two footballers are suspended"
    return response


@override_settings(DECK_CHECK_LIMIT_PER_MINUTE=0)
def _deck_throttled(client):
    return _post(client, "/api/v1/vekn/check-deck", {"deck": DECK})


STANDINGS = "/api/v1/events/{slug}/standings"
TABLE = "/api/v1/competitions/{slug}/table"
BRACKET = "/api/v1/competitions/{slug}/bracket"
PENALTY = "/api/v1/rulesets/{ruleset}/penalty"
CASES = [
    (STANDINGS, "get", "200", "public", _standings_public),
    (STANDINGS, "get", "200", "staff", _standings_staff),
    (STANDINGS, "get", "200", "mitos y leyendas", _standings_myl),
    (STANDINGS, "get", "404", "unknown", lambda c: c.get("/api/v1/events/nope/standings")),
    (
        STANDINGS,
        "get",
        "404",
        "unpublished",
        lambda c: (_event(publish=False), c.get("/api/v1/events/open-2026/standings"))[1],
    ),
    ("/api/v1/rankings", "get", "200", "rated event", _rankings),
    (
        "/api/v1/rankings",
        "get",
        "400",
        "bad date",
        lambda c: c.get("/api/v1/rankings", {"as_of": "yesterday"}),
    ),
    (
        "/api/v1/vekn/check-table",
        "post",
        "200",
        "legal",
        lambda c: _post(c, "/api/v1/vekn/check-table", {"vp": [1.5, 0, 0.5, 0.5]}),
    ),
    (
        "/api/v1/vekn/check-table",
        "post",
        "200",
        "impossible",
        lambda c: _post(c, "/api/v1/vekn/check-table", {"vp": [1, 1, 1, 1]}),
    ),
    (
        "/api/v1/vekn/check-table",
        "post",
        "400",
        "no list",
        lambda c: _post(c, "/api/v1/vekn/check-table", {"vp": 3}),
    ),
    (
        "/api/v1/vekn/check-deck",
        "post",
        "200",
        "with problems",
        lambda c: _post(c, "/api/v1/vekn/check-deck", {"deck": DECK}),
    ),
    (
        "/api/v1/vekn/check-deck",
        "post",
        "400",
        "empty",
        lambda c: _post(c, "/api/v1/vekn/check-deck", {"deck": ""}),
    ),
    ("/api/v1/vekn/check-deck", "post", "429", "throttled", _deck_throttled),
    (
        PENALTY,
        "post",
        "200",
        "vekn",
        lambda c: _post(
            c,
            "/api/v1/rulesets/vekn/penalty",
            {
                "infraction": "3.7",
                "conditions": {"pattern": False},
                "history": [{"infraction": "3.7", "level": "warning"}],
            },
        ),
    ),
    (
        PENALTY,
        "post",
        "200",
        "myl",
        lambda c: _post(c, "/api/v1/rulesets/myl/penalty", {"infraction": "2.1"}),
    ),
    (
        PENALTY,
        "post",
        "400",
        "missing condition",
        lambda c: _post(c, "/api/v1/rulesets/vekn/penalty", {"infraction": "3.7"}),
    ),
    (
        PENALTY,
        "post",
        "404",
        "unknown ruleset",
        lambda c: _post(c, "/api/v1/rulesets/chess/penalty", {"infraction": "3.7"}),
    ),
    (TABLE, "get", "200", "league", _table),
    (TABLE, "get", "200", "groups", _groups),
    (TABLE, "get", "404", "unknown", lambda c: c.get("/api/v1/competitions/nope/table")),
    (BRACKET, "get", "200", "knockout", _bracket),
    (BRACKET, "get", "404", "unknown", lambda c: c.get("/api/v1/competitions/nope/bracket")),
    ("/api/v1/seasons/{slug}/compliance", "get", "200", "season", _compliance),
    (
        "/api/v1/seasons/{slug}/compliance",
        "get",
        "404",
        "unknown",
        lambda c: c.get("/api/v1/seasons/nope/compliance"),
    ),
    ("/api/v1/seasons/{slug}/draft-order", "get", "200", "season", _draft),
    (
        "/api/v1/seasons/{slug}/draft-order",
        "get",
        "404",
        "unknown",
        lambda c: c.get("/api/v1/seasons/nope/draft-order"),
    ),
    ("/api/v1/seasons/{slug}/suspensions", "get", "200", "semi-final cards", _suspensions),
    (
        "/api/v1/seasons/{slug}/suspensions",
        "get",
        "404",
        "unknown",
        lambda c: c.get("/api/v1/seasons/nope/suspensions"),
    ),
    ("/api/v1/circuits", "get", "200", "organisation", _circuits),
    (
        "/api/v1/circuits",
        "get",
        "400",
        "unknown organisation",
        lambda c: c.get("/api/v1/circuits", {"organisation": "nope"}),
    ),
    ("/api/v1/circuits/{circuit_id}", "get", "200", "gp", _circuit_standings),
    (
        "/api/v1/circuits/{circuit_id}",
        "get",
        "404",
        "unknown",
        lambda c: c.get("/api/v1/circuits/999999"),
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "method", "status", "label", "call"),
    CASES,
    ids=[f"{m.upper()} {p} {s} {label}" for p, m, s, label, _ in CASES],
)
def test_each_documented_response_matches_the_endpoint(client, path, method, status, label, call):
    check(path, method, status, call(client))


def documented_responses() -> set[tuple[str, str, str]]:
    return {
        (path, method, status)
        for path, item in DOC["paths"].items()
        for method in api_docs.METHODS
        if method in item
        for status in item[method]["responses"]
    }


def test_every_documented_response_is_called_by_a_case():
    called = {(p, m, s) for p, m, s, _label, _call in CASES}
    assert documented_responses() - called == set()
    assert called - documented_responses() == set()


# ------------------------------------------------------------------ the URL configuration
def _routes(patterns, prefix=""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route


def _as_openapi(route: str) -> str:
    """``api/v1/events/<slug:slug>/standings`` → ``/api/v1/events/{slug}/standings``."""
    out, rest = "/", route
    while "<" in rest:
        head, _, tail = rest.partition("<")
        name, _, rest = tail.partition(">")
        out += head + "{" + name.rpartition(":")[2] + "}"
    return out + rest


def public_api_paths() -> set[str]:
    return {
        _as_openapi(route)
        for route in _routes(get_resolver().url_patterns)
        if route.startswith("api/v1/")
    } - set(api_docs.META_PATHS)


def test_every_public_api_url_is_documented():
    paths = public_api_paths()
    assert len(paths) >= 10
    assert paths - set(DOC["paths"]) == set(), "document these in config/openapi.yaml"


def test_every_documented_path_exists():
    assert set(DOC["paths"]) - public_api_paths() == set()


def test_the_url_walk_sees_a_new_api_url():
    assert _as_openapi("api/v1/circuits/<slug:slug>/standings") == (
        "/api/v1/circuits/{slug}/standings"
    )
    assert "/api/v1/rankings" in public_api_paths()


# ------------------------------------------------------------------------ the document
def test_the_document_is_valid_openapi_3_1():
    validate_spec(DOC)
    assert DOC["openapi"].startswith("3.1")


def test_a_schema_refuses_a_document_of_another_shape():
    """The schemas are not empty shells: a row without its rank, a rank as text, or a VEKN
    row without its VEKN keys fails."""
    validator = Draft202012Validator(
        {"$ref": f"{BASE}#/components/schemas/Standings"}, registry=REGISTRY
    )
    good = {
        "event": "e",
        "ruleset": "vekn",
        "final_played": False,
        "standings": [{"rank": 1, "player": "p1", "name": "P", "rating_points": None}],
        "penalties": [],
    }
    vekn_row = {
        "prelim_gw": 1,
        "prelim_vp": 2.5,
        "prelim_tp": 84,
        "finalist": False,
        "final_vp": None,
        "winner": False,
        "toss": None,
    }
    good["standings"][0] |= vekn_row
    validator.validate(good)
    for bad_row in (
        {"player": "p1", "name": "P", **vekn_row},  # no rank
        {"rank": "1", "player": "p1", "name": "P", **vekn_row},  # rank as text
        {"rank": 1, "player": "p1", "name": "P", "rating_points": None},  # a VEKN row without GW
    ):
        with pytest.raises(ValidationError):
            validator.validate({**good, "standings": [bad_row]})


@pytest.mark.django_db
def test_the_document_is_served_as_json(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == json.loads(json.dumps(DOC))


@pytest.mark.django_db
def test_the_page_shows_every_endpoint_offline(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    for path, item in DOC["paths"].items():
        for method in api_docs.METHODS:
            if method in item:
                assert f"{method.upper()} {path}" in html
    # The fields of the documents are listed, nested ones with their path.
    assert "standings[].rating_points" in html and "rows[].events[].rating_points" in html
    # No script or style sheet from another site: the page works without a network.
    assert "://" not in "".join(
        part.split(">")[0] for part in html.split("<script")[1:] + html.split("<link")[1:]
    )
    assert client.get("/api/").url == "/api/v1/docs/"


def test_descriptions_are_escaped_and_their_code_spans_shown_as_code():
    assert api_docs.prose("a `<b>` & `x`") == "a <code>&lt;b&gt;</code> &amp; <code>x</code>"
