"""League staff settle a level third match on the match page: the score after extra
time and the penalty shoot-out (ANFPES T24 §1.1.2, §2.2), with the stream link."""

import pytest
from django.urls import reverse

from events.errors import UserError
from leagues import brackets, reporting
from leagues.models import Competition, Match, SeasonRole
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import small_season


@pytest.fixture
def cup(db):
    data = small_season()
    third = data["competitions"][2]["matches"][2]
    for key in ("home_goals", "away_goals", "extra_time", "penalties"):
        third.pop(key, None)
    third["status"] = "scheduled"
    season = import_season(data)
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    return {"season": season, "staff": staff, "match": Match.objects.get(code="k3")}


def winner(slug="t24-cup"):
    doc = brackets.competition_bracket(Competition.objects.get(slug=slug))
    tie = next(t for t in doc["ties"] if t["id"] == "f1")
    return tie["winner"]


def test_staff_enter_extra_time_and_penalties_through_the_page(client, cup):
    assert winner() is None
    client.force_login(cup["staff"])
    url = reverse("leagues:match", kwargs={"slug": "t24-cup", "code": "k3"})
    page = client.get(url).content.decode()
    assert 'name="penalties_home"' in page and 'name="extra_time"' in page
    correct = reverse("leagues:match-correct", kwargs={"slug": "t24-cup", "code": "k3"})
    # Only one penalty count: refused, nothing saved.
    bad = client.post(
        correct,
        {"home_goals": "1", "away_goals": "1", "penalties_home": "5", "reason": "final"},
    )
    assert bad.status_code == 400
    assert Match.objects.get(code="k3").status == "scheduled"
    response = client.post(
        correct,
        {
            "home_goals": "1",
            "away_goals": "1",
            "extra_time": "on",
            "penalties_home": "5",
            "penalties_away": "4",
            "stream_url": "https://twitch.tv/anfpes/v/9",
            "reason": "Third match played on stream",
        },
    )
    assert response.status_code == 302
    m = Match.objects.get(code="k3")
    assert (m.home_goals, m.away_goals, m.extra_time) == (1, 1, True)
    assert (m.penalties_home, m.penalties_away, m.stream_url) == (
        5,
        4,
        "https://twitch.tv/anfpes/v/9",
    )
    assert winner() == m.home.code


def test_a_shoot_out_needs_a_level_score_and_a_winner(cup):
    for score, pens in (((2, 1), (5, 4)), ((1, 1), (4, 4))):
        with pytest.raises(UserError):
            reporting.correct_result(
                cup["match"],
                cup["staff"],
                home_goals=score[0],
                away_goals=score[1],
                reported_at=None,
                reason="x",
                penalties=pens,
            )
    assert Match.objects.get(code="k3").status == "scheduled"


def test_league_matches_do_not_offer_penalties(client, cup):
    client.force_login(cup["staff"])
    url = reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m3"})
    assert 'name="penalties_home"' not in client.get(url).content.decode()
