"""Issue 12: what the public sees of a league match and its players.

- Dispute texts and staff reasons stay with the two players and league staff/tribunal
  once a report is resolved; the public sees the score and the screenshot.
- Public league pages and APIs show display names (the team's name, the account's full
  name), never a login username.
"""

import pytest
from django.urls import reverse

from leagues import reporting
from leagues.models import CupBonus, Review
from tests.factories import UserFactory
from tests.leagues.views.test_reporting import league, png, posted  # noqa: F401 - fixture

DISPUTE = "He paused the game SECRET-DISPUTE"
RESOLUTION = "The stream shows SECRET-STAFF"


@pytest.fixture
def resolved(league):  # noqa: F811
    r = reporting.report_result(
        league["match"],
        league["home"],
        home_goals=2,
        away_goals=1,
        posted_at=posted(),
        screenshot=png(),
    )
    reporting.dispute_report(r, league["away"], DISPUTE)
    reporting.resolve_report(r, league["staff"], decision="accept", reason=RESOLUTION)
    return league | {"report": r}


def _match_page(client, league, who):  # noqa: F811
    if who != "anonymous":
        client.force_login(league[who])
    m = league["match"]
    response = client.get(
        reverse("leagues:match", kwargs={"slug": m.competition.slug, "code": m.code})
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_public_and_unrelated_players_see_the_score_not_the_dispute_or_the_reason(
    client, resolved, who
):
    html = _match_page(client, resolved, who)
    r = resolved["report"]
    assert "<strong>2–1</strong>" in html
    assert (
        reverse(
            "leagues:report-screenshot",
            kwargs={"slug": r.match.competition.slug, "code": r.match.code, "pk": r.pk},
        )
        in html
    )
    assert "SECRET-DISPUTE" not in html
    assert "SECRET-STAFF" not in html


@pytest.mark.parametrize("who", ["home", "away", "staff", "tribunal"])
def test_the_two_players_and_staff_see_the_dispute_and_the_reason(client, resolved, who):
    html = _match_page(client, resolved, who)
    assert "SECRET-DISPUTE" in html
    assert "SECRET-STAFF" in html


# --------------------------------------------------------------------------- usernames
@pytest.fixture
def named(league):  # noqa: F811
    """user1 (t1, Team 1) has a full name; user3 (t3) has none."""
    league["home"].first_name, league["home"].last_name = "Ana", "Rojas"
    league["home"].save()
    league["away"].first_name = league["away"].last_name = ""
    league["away"].save()
    return league


def test_match_page_shows_display_names_not_usernames(client, named):
    html = _match_page(client, named, "anonymous")
    assert "user1" not in html and "user3" not in html
    assert "Ana Rojas" in html


def test_compliance_page_and_api_show_no_usernames(client, named):
    season = named["season"]
    m = named["match"]  # t1 v t3, now past its final deadline, unplayed: both reaped
    m.initial_deadline, m.final_deadline = posted(60 * 24 * 10), posted(60 * 24 * 5)
    m.save()
    Review.objects.create(season=season, kind="second_half", at=posted(1))
    html = client.get(reverse("leagues:compliance", kwargs={"slug": season.slug})).content
    html = html.decode()
    assert "Team 1" in html and "Ana Rojas" in html
    for username in ("user1", "user2", "user3", "user4"):
        assert username not in html
    doc = client.get(f"/api/v1/seasons/{season.slug}/compliance").json()
    text = str(doc)
    for username in ("user1", "user2", "user3", "user4"):
        assert username not in text
    rows = {r["team"]: r for r in doc["rows"]}
    assert rows["t1"]["user"] == "Ana Rojas"
    assert rows["t3"]["user"] == "Team 3"  # no full name: the team's name
    (review,) = doc["reviews"]
    assert set(review["reaped"]) == {"t1", "t3"} == set(review["causes"])


def test_other_public_pages_and_apis_show_no_usernames(client, named):
    season = named["season"]
    for url in (
        f"/api/v1/seasons/{season.slug}/draft-order",
        reverse("leagues:draft", kwargs={"slug": season.slug}),
        reverse("leagues:season", kwargs={"slug": season.slug}),
        reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}),
        "/api/v1/competitions/t24-primera-a/table",
        reverse("leagues:suspensions", kwargs={"slug": season.slug}),
        f"/api/v1/seasons/{season.slug}/suspensions",
    ):
        text = client.get(url).content.decode()
        for username in ("user1", "user2", "user3", "user4"):
            assert username not in text, url


def test_cup_bonus_page_shows_no_usernames(client, named):
    season = named["season"]
    team = season.teams.get(code="t1")
    CupBonus.objects.create(season=season, team=team, points=3, reason="semi-final")
    html = client.get(reverse("leagues:cup-bonus", kwargs={"slug": season.slug})).content
    html = html.decode()
    assert "Team 1" in html and "Ana Rojas" in html
    assert "user1" not in html


def test_a_username_is_never_a_fallback(client, named):
    """A linked account without a full name shows the team's name, never its login."""
    outsider = UserFactory(username="zz-login", first_name="", last_name="")
    season = named["season"]
    team = season.teams.get(code="t2")
    team.user = outsider
    team.save()
    html = client.get(reverse("leagues:compliance", kwargs={"slug": season.slug})).content
    assert b"zz-login" not in html
