"""Staff decisions on ties no tie-breaker separates, and the decider match of the Primera B
title (docs/leagues.md "Tables", ANFPES T24 §1.3.1)."""

import pytest
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues import services
from leagues.models import Competition, SeasonRole
from tests.factories import UserFactory
from tests.leagues.seasons import small_season


def tied_season(title_decider):
    season = small_season()
    league = season["competitions"][0]
    league["title_decider"] = title_decider
    league["teams"] = ["t1", "t2"]
    league["adjustments"] = []
    league["matches"] = [
        {"id": "m1", "round": 1, "home": "t1", "away": "t2", "home_goals": 2,
         "away_goals": 0, "status": "played"},
        {"id": "m2", "round": 2, "home": "t2", "away": "t1", "home_goals": 2,
         "away_goals": 0, "status": "played"},
    ]  # fmt: skip
    return season


@pytest.fixture
def staff(db):
    return UserFactory(username="staff")


@pytest.mark.parametrize("title_decider", [True, False])
def test_staff_decide_the_order_through_the_page(client, staff, title_decider):
    season = services.import_season(tied_season(title_decider))
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    doc = services.competition_table(competition)
    assert doc["unresolved_ties"] == [["t1", "t2"]]
    url = reverse("leagues:competition", kwargs={"slug": competition.slug})
    # The public sees the flag, not the form.
    assert b"decide-tie" not in client.get(url).content
    client.force_login(staff)
    page = client.get(url).content.decode()
    label = "Enter the decider match" if title_decider else "Decide the order"
    assert label in page
    decide = reverse("leagues:competition-decide-tie", kwargs={"slug": competition.slug})
    # No reason: refused, nothing saved.
    client.post(decide, {"order": ["t2", "t1"], "reason": ""})
    competition.refresh_from_db()
    assert competition.decisions == []
    response = client.post(decide, {"order": ["t2", "t1"], "reason": "Decider 3-1 on 2 May"})
    assert response.status_code == 302
    competition.refresh_from_db()
    doc = services.competition_table(competition)
    assert [r["team"] for r in doc["rows"]] == ["t2", "t1"]
    assert doc["unresolved_ties"] == []
    assert doc["rows"][0]["separated_by"] == "decision"
    entry = AuditLog.objects.get(action="league.tie_decided")
    assert entry.after == {"decisions": ["t2", "t1"]} and entry.comment.startswith("Decider")
    # The decision travels with the season file.
    exported = services.export_season(season)
    assert exported["competitions"][0]["decisions"] == ["t2", "t1"]
    again = services.import_season(exported, replace=True)
    assert again.competitions.get(slug="t24-primera-a").decisions == ["t2", "t1"]


def test_bad_decisions_are_refused(staff):
    season = services.import_season(tied_season(False))
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    for order in (["t1"], ["t1", "t1"], ["t1", "t9"]):
        with pytest.raises(UserError):
            services.decide_tie(competition, staff, order, "why")
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.decide_tie(competition, UserFactory(), ["t2", "t1"], "why")
    competition.refresh_from_db()
    assert competition.decisions == []


def test_a_season_file_with_bad_decisions_is_refused(db):
    season = tied_season(False)
    season["competitions"][0]["decisions"] = ["t1", "t3"]
    with pytest.raises(services.LeagueRuleError, match="decisions"):
        services.import_season(season)


def test_level_teams_are_flagged_only_once_the_phase_is_over(client, db):
    data = tied_season(False)
    league = data["competitions"][0]
    league["teams"] = ["t1", "t2", "t3"]
    league["matches"].append({"id": "m3", "round": 3, "home": "t1", "away": "t3"})
    services.import_season(data)
    competition = Competition.objects.get(slug="t24-primera-a")
    url = reverse("leagues:competition", kwargs={"slug": competition.slug})
    assert services.competition_table(competition)["unresolved_ties"] == [["t1", "t2"]]
    assert "Staff decision required" not in client.get(url).content.decode()
    from leagues.models import Match

    Match.objects.filter(code="m3", competition=competition).update(status="void")
    assert "Staff decision required" in client.get(url).content.decode()
