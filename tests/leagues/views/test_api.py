"""League read API (docs/contracts.md §6): public, no authentication, bounded queries."""

import json
from datetime import datetime

import pytest
from django.urls import reverse

from leagues.services import import_season
from tests.leagues.seasons import EPL, EPL_TABLE, sixteen, small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def epl():
    return import_season(json.loads(EPL.read_text("utf-8")))


def table_url(slug):
    return reverse("api-competition-table", kwargs={"slug": slug})


def compliance_url(slug):
    return reverse("api-season-compliance", kwargs={"slug": slug})


# --------------------------------------------------------------------------- table
def test_the_premier_league_table_is_the_official_one(client, epl):
    expected = json.loads(EPL_TABLE.read_text("utf-8"))
    response = client.get(table_url("epl-2011-12-league"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    doc = response.json()
    assert doc["competition"] == expected["competition"] == "epl-2011-12-league"
    assert doc["tie_breakers"] == [
        "points",
        "goal_difference",
        "goals_for",
        "won",
        "fewest_no_shows",
    ]
    assert doc["unresolved_ties"] == []
    assert len(doc["rows"]) == 20
    for row, want in zip(doc["rows"], expected["rows"], strict=True):
        assert {key: row[key] for key in want} == want
        assert row["adjustments"] == 0 and row["no_shows"] == 0
    # Title on goal difference; the 47-point trio ordered by goal difference then goals for.
    assert doc["rows"][0]["name"] == "Manchester City"
    assert doc["rows"][0]["separated_by"] == "goal_difference"
    trio = [r["name"] for r in doc["rows"] if r["points"] == 47]
    assert trio == ["West Bromwich Albion", "Swansea City", "Norwich City"]


def test_head_to_head_setting_reverses_the_trio(client, epl):
    from leagues.models import Competition

    Competition.objects.filter(slug="epl-2011-12-league").update(
        tie_breakers=["points", "head_to_head", "goal_difference", "goals_for", "won"]
    )
    doc = client.get(table_url("epl-2011-12-league")).json()
    trio = [r["name"] for r in doc["rows"] if r["points"] == 47]
    assert trio == ["Norwich City", "Swansea City", "West Bromwich Albion"]


def test_the_table_reads_a_bounded_number_of_queries(client, epl, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        assert client.get(table_url("epl-2011-12-league")).status_code == 200


def test_walkovers_and_the_ledger_count(client):
    import_season(small_season())
    doc = client.get(table_url("t24-primera-a")).json()
    rows = {r["team"]: r for r in doc["rows"]}
    # m2: walkover, t4 absent → 1–0 for t3, a no-show and −3 from the ledger for t4.
    assert (rows["t3"]["points"], rows["t3"]["goals_for"]) == (3, 1)
    assert (rows["t4"]["points"], rows["t4"]["adjustments"], rows["t4"]["no_shows"]) == (-3, -3, 1)
    assert rows["t1"]["played"] == 1  # m3 is scheduled: not counted
    assert [r["team"] for r in doc["rows"]] == ["t1", "t3", "t2", "t4"]


def test_a_group_stage_gives_one_table_per_group(client):
    import_season(small_season())
    doc = client.get(table_url("t24-champagne")).json()
    assert doc["competition"] == "t24-champagne"
    assert set(doc["groups"]) == {"A", "B"}
    assert [r["team"] for r in doc["groups"]["A"]["rows"]] == ["t2", "t1"]
    group_b = doc["groups"]["B"]
    assert [r["points"] for r in group_b["rows"]] == [1, 1]
    # A draw between the only two teams: every tie-breaker equal → a decision is needed.
    assert group_b["unresolved_ties"] == [["t3", "t4"]]
    assert group_b["unresolved"][0]["reason"] == "decision_required"


def test_primera_b_title_tie_waits_for_a_decider(client):
    from leagues.models import Competition, Match

    data = small_season(title_decider=True)
    import_season(data)
    # Close the phase: every remaining fixture played, t1 and t3 level on points at the top.
    Match.objects.filter(code="m3").update(status="played", home_goals=0, away_goals=0)
    assert Competition.objects.get(slug="t24-primera-a").title_decider
    doc = client.get(table_url("t24-primera-a")).json()
    assert doc["rows"][0]["points"] == doc["rows"][1]["points"] == 4
    assert doc["unresolved"] == [
        {"teams": ["t1", "t3"], "positions": [1, 2], "reason": "title_decider"}
    ]


def test_knockouts_and_unknown_competitions_answer_404(client):
    import_season(small_season())
    response = client.get(table_url("t24-cup"))
    assert response.status_code == 404
    assert response.json() == {"error": "competition t24-cup is a knockout: it has no table"}
    response = client.get(table_url("nope"))
    assert response.status_code == 404 and response.json() == {"error": "no such competition"}


def test_the_table_is_read_only(client, epl):
    assert client.post(table_url("epl-2011-12-league")).status_code == 405


# --------------------------------------------------------------------------- compliance
def test_compliance_scores_both_users_by_the_posting_time(client):
    data = small_season()
    match = data["competitions"][0]["matches"][2]  # m3, t1 v t3, unplayed
    match |= {
        "initial_deadline": "2026-03-15T23:59:00-03:00",
        "final_deadline": "2026-03-18T23:59:00-03:00",
        "home_goals": 1,
        "away_goals": 0,
        "status": "played",
        # Posted at 23:59:30 on the final deadline: still on time to the minute.
        "reported_at": "2026-03-18T23:59:30-03:00",
    }
    import_season(data)
    doc = client.get(compliance_url("t24")).json()
    assert doc["season"] == "t24"
    # Keyed by team: the public document carries display names, not logins (issue 12).
    rows = {r["team"]: r for r in doc["rows"]}
    # m1: posted before its initial deadline → 2 each; m3: by the final deadline → 1 each.
    assert (rows["t1"]["points"], rows["t1"]["max_points"]) == (3, 4)
    assert rows["t1"]["percentage"] == 75.0 and rows["t1"]["user"] == "Team 1"
    assert (rows["t2"]["points"], rows["t2"]["max_points"]) == (2, 2)
    assert rows["t2"]["percentage"] == 100.0
    assert {f["fixture"] for f in rows["t1"]["fixtures"]} == {
        "t24-primera-a/m1",
        "t24-primera-a/m3",
    }
    assert all(row["reaped"] is False for row in doc["rows"])
    # m2 and the group matches have no deadlines; the knockout does not count at all.
    assert doc["without_deadlines"] == [
        "t24-primera-a/m2",
        "t24-champagne/g1",
        "t24-champagne/g2",
    ]


def test_compliance_of_a_generated_season_before_it_starts(client, django_assert_max_num_queries):
    from leagues.models import Season
    from leagues.services import season_compliance

    import_season(sixteen())
    season = Season.objects.get()
    with django_assert_max_num_queries(2):
        doc = season_compliance(season, as_of=datetime.fromisoformat("2026-03-01T00:00:00-03:00"))
    assert len(doc["rows"]) == 16
    assert all(r["max_points"] == 0 and r["percentage"] is None for r in doc["rows"])
    # After matchday 1's final deadline with nothing posted: 0 of 2 for everyone.
    late = season_compliance(season, as_of=datetime.fromisoformat("2026-03-12T00:00:00-03:00"))
    assert {(r["points"], r["max_points"]) for r in late["rows"]} == {(0, 2)}


def test_compliance_of_an_unknown_season_is_404(client):
    response = client.get(compliance_url("nope"))
    assert response.status_code == 404 and response.json() == {"error": "no such season"}


# --------------------------------------------------------------------------- permissions
@pytest.mark.parametrize("persona", ["anonymous", "player", "superuser"])
def test_the_read_api_is_public(client, persona):
    """Mirrors the permission-matrix rows proposed for ``tests/events/views/test_permissions.py``."""
    from tests.factories import UserFactory

    import_season(small_season())
    if persona != "anonymous":
        user = UserFactory(username="user1" if persona == "player" else "root")
        user.is_superuser = user.is_staff = persona == "superuser"
        user.save()
        client.force_login(user)
    assert client.get(table_url("t24-primera-a")).status_code == 200
    assert client.get(compliance_url("t24")).status_code == 200
    assert client.get(table_url("open-2026")).status_code == 404
    assert client.get(compliance_url("open-2026")).status_code == 404
