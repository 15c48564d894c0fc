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


def test_teams_that_are_not_level_cannot_be_ordered_by_a_decision(staff):
    """Issue 14: a decision orders teams every tie-breaker leaves level, nothing else."""
    data = tied_season(False)
    league = data["competitions"][0]
    league["teams"] = ["t1", "t2", "t3"]
    league["matches"].append(
        {"id": "m3", "round": 3, "home": "t1", "away": "t3", "home_goals": 1,
         "away_goals": 0, "status": "played"}
    )  # fmt: skip
    season = services.import_season(data)
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    for order in (["t3", "t1"], ["t2", "t3"], ["t2", "t1", "t3"]):
        with pytest.raises(UserError, match="not level"):
            services.decide_tie(competition, staff, order, "why")
    competition.refresh_from_db()
    assert competition.decisions == []


def test_primera_b_decider_recorded_through_the_page_settles_1st_only(client, staff):
    """Issue 14 (ANFPES T24 §1.3.1): b1, b3, b2 level on points (GD +6, +3, +2), b3 wins the
    decider; staff list b3, b2, b1: b3 is champion, b1 stays 2nd, b2 3rd."""
    data = small_season()
    league = data["competitions"][0]
    league["title_decider"] = True
    league["teams"] = ["b1", "b2", "b3", "v"]
    league["adjustments"] = []
    data["teams"] = [
        *data["teams"],
        *({"id": c, "name": f"Team {c}", "user": f"user_{c}"} for c in ("b1", "b2", "b3", "v")),
    ]
    scores = [("b1", "v", 6, 0), ("b3", "v", 3, 0), ("b2", "v", 2, 0),
              ("b1", "b2", 0, 0), ("b2", "b3", 0, 0), ("b3", "b1", 0, 0)]  # fmt: skip
    league["matches"] = [
        {"id": f"m{i}", "round": i, "home": h, "away": a, "home_goals": hg,
         "away_goals": ag, "status": "played"}
        for i, (h, a, hg, ag) in enumerate(scores, start=1)
    ]  # fmt: skip
    season = services.import_season(data)
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    assert services.competition_table(competition)["unresolved"][0]["reason"] == "title_decider"
    client.force_login(staff)
    decide = reverse("leagues:competition-decide-tie", kwargs={"slug": competition.slug})
    client.post(decide, {"order": ["b3", "b2", "b1"], "reason": "Decider won by b3"})
    competition.refresh_from_db()
    assert competition.decisions == ["b3", "b2", "b1"]
    doc = services.competition_table(competition)
    assert [r["team"] for r in doc["rows"]] == ["b3", "b1", "b2", "v"]
    assert doc["unresolved"] == []


def test_no_decision_once_the_regular_phase_is_closed(staff):
    """Issue 14: the final phases were drawn from the closed table."""
    from django.utils import timezone

    season = services.import_season(tied_season(False))
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    Competition.objects.filter(pk=competition.pk).update(regular_phase_closed_at=timezone.now())
    with pytest.raises(UserError, match="closed"):
        services.decide_tie(competition, staff, ["t2", "t1"], "why")
    competition.refresh_from_db()
    assert competition.decisions == []


def test_the_decision_note_is_translated(client, staff):
    """Issue 14: "por decision" showed the code untranslated; the criterion has a label."""
    from django.utils import translation

    from leagues.rules.table import DECISION
    from leagues.tables import TIE_BREAKER_LABELS

    assert DECISION in TIE_BREAKER_LABELS
    season = services.import_season(tied_season(False))
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    services.decide_tie(competition, staff, ["t2", "t1"], "lots")
    url = reverse("leagues:competition", kwargs={"slug": competition.slug})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    with translation.override("es"):
        assert str(TIE_BREAKER_LABELS[DECISION]) == "decisión"
    assert "por decision" not in page and "supera al siguiente por decisión" in page
