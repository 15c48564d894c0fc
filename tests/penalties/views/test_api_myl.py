"""``POST /api/v1/rulesets/myl/penalty`` (docs/contracts.md §4; MyL conduct §2.1–§3.4.3;
docs/rules-myl-penalties.md "How a penalty is proposed"): the penalty calculator for Mitos y
Leyendas, tested on the view function with RequestFactory. For ``myl``, ``history`` and
``prior_events`` both count towards a repeat. No database."""

import json

import pytest
from django.test import Client, RequestFactory
from django.urls import path
from hypothesis import given, settings
from hypothesis import strategies as st

from penalties import api

KEYS = {"level", "offence", "baseline", "explanation", "source", "context", "alternatives", "also"}


def post(body, ruleset="myl", *, raw=False):
    data = body if raw else json.dumps(body)
    request = RequestFactory().post(
        f"/api/v1/rulesets/{ruleset}/penalty", data=data, content_type="application/json"
    )
    response = api.penalty(request, ruleset)
    return response, json.loads(response.content) if response.content else None


def test_first_instance():
    response, body = post({"infraction": "2.1"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert set(body) == KEYS
    assert (body["level"], body["offence"], body["baseline"]) == ("warning", 1, "warning")
    assert body["source"] == "MyL conduct §2.1"
    assert body["alternatives"] == [] and body["also"] == [] and body["context"] == []
    assert "offence 1" in body["explanation"]


def test_history_and_prior_events_both_count():
    """§2.1: warning, then "si la conducta persiste, pérdida de juego o descalificación"."""
    response, body = post(
        {
            "infraction": "2.1",
            "conditions": {},
            "history": [{"infraction": "2.1", "level": "warning"}],
            "prior_events": [{"infraction": "2.1", "level": "game_loss"}],
        }
    )
    assert response.status_code == 200
    assert body["level"] == "game_loss" and body["offence"] == 3
    assert body["baseline"] == "warning"
    assert body["alternatives"] == ["disqualification"] and body["also"] == []
    assert body["context"] == [
        "1 earlier penalty for §2.1 in this event",
        "1 earlier penalty for §2.1 in earlier events",
    ]


@pytest.mark.parametrize(
    ("body", "level", "offence", "baseline", "alternatives", "also"),
    [
        # §3.1.5: "descalificación inmediata y suspensión permanente a torneos".
        ({"infraction": "3.1.5"}, "permanent_ban", 1, "permanent_ban", [], ["disqualification"]),
        # §3.2.2: warning, then game loss on a repeat — from an earlier event too.
        (
            {"infraction": "3.2.2", "prior_events": [{"infraction": "3.2.2", "level": "warning"}]},
            "game_loss",
            2,
            "warning",
            [],
            [],
        ),
        # §3.2.4: "si es intencional, descalificación".
        (
            {"infraction": "3.2.4", "conditions": {"intentional": True}},
            "disqualification",
            1,
            "disqualification",
            [],
            [],
        ),
        (
            {"infraction": "3.2.4", "conditions": {"intentional": False}},
            "warning",
            1,
            "warning",
            [],
            [],
        ),
        # §3.3.4: DQ; "si el acto es reiterado puede ser suspendido temporalmente".
        (
            {
                "infraction": "3.3.4",
                "history": [{"infraction": "3.3.4", "level": "disqualification"}],
            },
            "suspension",
            2,
            "disqualification",
            [],
            ["disqualification"],
        ),
        # §3.1.1 grave: "descalificación y suspensión".
        (
            {"infraction": "3.1.1", "conditions": {"grave": True}},
            "suspension",
            1,
            "suspension",
            [],
            ["disqualification"],
        ),
        # §3.1.2 grave: "pérdida del juego, descalificación o prohibición permanente".
        (
            {"infraction": "3.1.2", "conditions": {"grave": True}},
            "game_loss",
            1,
            "game_loss",
            ["disqualification", "permanent_ban"],
            [],
        ),
        # §3.4.3: "descalificación del torneo y posible suspensión temporal".
        ({"infraction": "3.4.3"}, "disqualification", 1, "disqualification", ["suspension"], []),
        # §3.2.5 offence 4: "sanción progresiva hasta la suspensión".
        (
            {"infraction": "3.2.5", "history": [{"infraction": "3.2.5", "level": "warning"}] * 3},
            "suspension",
            4,
            "warning",
            ["game_loss", "disqualification"],
            [],
        ),
        # Linked entries are not counted.
        (
            {
                "infraction": "2.1",
                "history": [{"infraction": "2.1", "level": "warning", "linked": True}],
            },
            "warning",
            1,
            "warning",
            [],
            [],
        ),
    ],
)
def test_levels(body, level, offence, baseline, alternatives, also):
    response, data = post(body)
    assert response.status_code == 200, data
    assert (
        data["level"],
        data["offence"],
        data["baseline"],
        data["alternatives"],
        data["also"],
    ) == (level, offence, baseline, alternatives, also)


def test_silent_repeat_cites_the_severity_table():
    response, body = post(
        {"infraction": "2.3", "history": [{"infraction": "2.3", "level": "warning"}]}
    )
    assert response.status_code == 200
    assert body["source"] == "MyL conduct §2.3, §4.2"
    assert (body["level"], body["alternatives"]) == ("game_loss", ["warning"])


@pytest.mark.parametrize("code", ["9.9", "3.1", "4.2", "", "2.1 "])
def test_unknown_infraction_is_404(code):
    response, body = post({"infraction": code})
    assert response.status_code == 404
    assert set(body) == {"error"}
    assert "unknown infraction" in body["error"] and "'myl'" in body["error"]


@pytest.mark.parametrize(
    ("infraction", "conditions", "missing"),
    [
        ("2.4", {}, "grave"),
        ("3.1.1", None, "grave"),
        ("3.1.2", {}, "grave"),
        ("3.4.1", {}, "grave"),
        ("3.2.4", {}, "intentional"),
        ("3.3.1", {"late_stage": True}, "intentional"),
    ],
)
def test_missing_condition_is_400_naming_it(infraction, conditions, missing):
    response, body = post({"infraction": infraction, "conditions": conditions})
    assert response.status_code == 400
    assert body["condition"] == missing
    assert f"'{missing}'" in body["error"] and "missing" in body["error"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"infraction": "3.2.4", "conditions": {"intentional": "yes"}}, "true or false"),
        ({"infraction": "2.1", "conditions": {"grave": True}}, "unknown condition 'grave'"),
        ({"infraction": 2.1}, '"infraction"'),
        ({"infraction": "2.1", "conditions": ["grave"]}, '"conditions"'),
        ({"infraction": "2.1", "history": "2.1"}, '"history"'),
        (
            {"infraction": "2.1", "history": [{"infraction": "2.1", "level": "caution"}]},
            "history[0].level",
        ),
        (
            {
                "infraction": "2.1",
                "prior_events": [{"infraction": "2.1", "level": "standings_adjustment"}],
            },
            "prior_events[0].level",
        ),
        (
            {"infraction": "2.1", "prior_events": [{"infraction": "3.7", "level": "warning"}]},
            "prior_events[0].infraction: unknown infraction",
        ),
    ],
)
def test_bad_requests_are_400(body, fragment):
    response, data = post(body)
    assert response.status_code == 400
    assert fragment in data["error"]


def test_not_json_is_400():
    response, body = post(b"{", raw=True)
    assert response.status_code == 400 and body == {"error": "the body is not JSON"}


def test_vekn_is_still_answered_by_its_own_engine():
    response, body = post({"infraction": "2.2"}, "vekn")
    assert response.status_code == 200 and body["level"] == "caution"
    response, body = post({"infraction": "2.1"}, "vekn")  # a VEKN condition is required
    assert response.status_code == 400 and body["condition"] == "advantage"


urlpatterns = [
    path("api/v1/rulesets/<str:ruleset>/penalty", api.penalty, name="api-penalty"),
]


@pytest.mark.urls(__name__)
def test_through_the_middleware_without_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/api/v1/rulesets/myl/penalty",
        {"infraction": "3.1.5"},
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["also"] == ["disqualification"]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=6)
    | st.sampled_from(["2.1", "3.2.4", "3.3.1", "warning", "game_loss", "grave", "intentional"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "infraction",
                    "conditions",
                    "history",
                    "prior_events",
                    "level",
                    "grave",
                    "intentional",
                    "late_stage",
                    "linked",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(body=JSON)
def test_never_a_500(body):
    response, data = post(body)
    assert response.status_code in (200, 400, 404)
    assert isinstance(data, dict)
    if response.status_code == 200:
        assert set(data) == KEYS
    else:
        assert isinstance(data["error"], str)
