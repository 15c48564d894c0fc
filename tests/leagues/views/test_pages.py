"""League pages: the public season and competition pages (docs/contracts.md §7) and the player's
own fixtures with their iCalendar feed."""

import json
import re
from datetime import datetime

import pytest
from django.urls import reverse

from leagues.models import Match, Team
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import EPL, sixteen, small_season

pytestmark = pytest.mark.django_db

EPL_LEAGUE = "epl-2011-12-league"


@pytest.fixture
def epl():
    return import_season(json.loads(EPL.read_text("utf-8")))


def season_url(slug):
    return reverse("leagues:season", kwargs={"slug": slug})


def competition_url(slug):
    return reverse("leagues:competition", kwargs={"slug": slug})


# --------------------------------------------------------------------------- public pages
def test_season_page_lists_its_competitions(client, epl, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = client.get(season_url("epl-2011-12"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "English Premier League 2011/12" in html
    assert competition_url(EPL_LEAGUE) in html


def test_the_premier_league_table_page(client, epl, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = client.get(competition_url(EPL_LEAGUE))
    assert response.status_code == 200
    html = response.content.decode()
    # Title on goal difference: Manchester City first, above United on goal difference.
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    body = [r for r in rows if "<td" in r and "num" in r]
    assert "Manchester City" in body[0] and "Manchester United" in body[1]
    assert "above the next on goal difference" in body[0]
    assert "89" in body[0]  # points
    # The 47-point trio: WBA above Swansea on goals for, Swansea above Norwich on GD.
    wba = next(r for r in body if "West Bromwich Albion" in r)
    swansea = next(r for r in body if "Swansea City" in r)
    assert "goals for" in wba and "goal difference" in swansea
    assert "Decider match required" not in html
    # 38 matchdays of fixtures with results.
    assert html.count("Matchday ") >= 38
    assert html.count("<li>") >= 380


def test_query_count_does_not_grow_with_fixtures(client, django_assert_max_num_queries):
    import_season(sixteen())
    with django_assert_max_num_queries(8):
        response = client.get(competition_url("t24-primera-b"))
    assert response.status_code == 200


def test_unknown_slugs_answer_404(client, epl):
    assert client.get(season_url("nope")).status_code == 404
    assert client.get(competition_url("nope")).status_code == 404


def test_deadlines_are_shown_in_the_season_time_zone(client):
    import_season(sixteen())  # America/Santiago, 23:59 local, matchday 1 from 2026-03-01
    html = client.get(competition_url("t24-primera-b")).content.decode()
    assert "America/Santiago" in html
    # Matchday 1: initial deadline Sun 8 Mar, final Wed 11 Mar, both 23:59 local time.
    assert "8 March 2026 23:59" in html and "11 March 2026 23:59" in html
    assert "pending" in html


def test_walkover_adjustments_and_groups(client):
    import_season(small_season())
    html = client.get(competition_url("t24-primera-a")).content.decode()
    assert "Walkover" in html
    assert re.search(r"<td class=\"num\"[^>]*>-3</td>", html)  # the ledger entry (Adj.)
    groups = client.get(competition_url("t24-champagne")).content.decode()
    assert "Group A" in groups and "Group B" in groups
    # A knockout has fixtures, no table.
    cup = client.get(competition_url("t24-cup"))
    assert cup.status_code == 200
    assert "on penalties" in cup.content.decode()


def test_unresolved_title_tie_is_flagged(client):
    season = small_season()
    league = season["competitions"][0]
    league["title_decider"] = True
    league["teams"] = ["t1", "t2"]
    league["adjustments"] = []
    league["matches"] = [
        {"id": "m1", "round": 1, "home": "t1", "away": "t2", "home_goals": 2,
         "away_goals": 0, "status": "played"},
        {"id": "m2", "round": 2, "home": "t2", "away": "t1", "home_goals": 2,
         "away_goals": 0, "status": "played"},
    ]  # fmt: skip
    import_season(season)
    html = client.get(competition_url("t24-primera-a")).content.decode()
    assert "Decider match required" in html


def test_team_names_are_escaped(client):
    season = small_season()
    season["teams"][0]["name"] = "<script>alert(1)</script>"
    import_season(season)
    for url in (competition_url("t24-primera-a"), competition_url("t24-champagne")):
        html = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --------------------------------------------------------------------------- player pages
@pytest.fixture
def player():
    import_season(sixteen())
    user = UserFactory(username="user1")
    Team.objects.filter(season__slug="t24", code="t1").update(
        user=user, name="Los <b>Pibes</b>; Sur, Norte"
    )
    return user


def test_player_pages_require_sign_in(client):
    for name in ("leagues:my-fixtures", "leagues:my-fixtures-ics"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_my_fixtures_lists_pending_fixtures(client, player, django_assert_max_num_queries):
    client.force_login(player)
    with django_assert_max_num_queries(6):
        response = client.get(reverse("leagues:my-fixtures"))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("final deadline") == 30  # 30 matchdays, one fixture each
    assert "Los &lt;b&gt;Pibes&lt;/b&gt;" in html
    assert "11/03/2026 23:59" in html


def test_my_fixtures_without_a_team(client):
    client.force_login(UserFactory())
    response = client.get(reverse("leagues:my-fixtures"))
    assert response.status_code == 200
    assert "not linked to a league team" in response.content.decode()


def _unfold(text):
    return text.replace("\r\n ", "")


def test_ical_feed(client, player):
    # A played fixture (t1's last one) leaves the feed.
    last = Match.objects.filter(home__code="t1").order_by("round").last()
    Match.objects.filter(pk=last.pk).update(status="played", home_goals=1, away_goals=0)
    client.force_login(player)
    response = client.get(reverse("leagues:my-fixtures-ics"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    text = response.content.decode("utf-8")
    assert "\n" not in text.replace("\r\n", "")  # CRLF only
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    lines = _unfold(text).split("\r\n")
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR" and lines[-1] == ""
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == 29
    starts = [line for line in lines if line.startswith("DTSTART:")]
    assert len(starts) == 29
    for line in starts:
        datetime.strptime(line, "DTSTART:%Y%m%dT%H%M%SZ")
    # Matchday 1's final deadline, Wed 11 Mar 2026 23:59 in Santiago (−03:00) → 02:59 UTC.
    assert starts[0] == "DTSTART:20260312T025900Z"
    # Matchday 10 is in Santiago's winter time (−04:00): Wed 13 May 23:59 → 03:59 UTC.
    assert "DTSTART:20260514T035900Z" in starts
    # Text values are escaped (semicolon, comma) and not HTML.
    summaries = [line for line in lines if line.startswith("SUMMARY:")]
    assert any("Los <b>Pibes</b>\\; Sur\\, Norte" in s for s in summaries)
    assert len({line for line in lines if line.startswith("UID:")}) == 29


def test_calendar_apps_fetch_the_feed_by_private_token(client, player):
    client.force_login(player)
    page = client.get(reverse("leagues:my-fixtures")).content.decode()
    from leagues.views import feed_token

    url = reverse("leagues:fixtures-feed", kwargs={"token": feed_token(player)})
    assert url in page
    client.logout()
    response = client.get(url)  # no session: the calendar app
    assert response.status_code == 200
    assert response.content.decode().count("BEGIN:VEVENT") == 30
    # A token with a forged signature, or another user's id, is refused.
    forged = f"{player.pk + 1}:" + feed_token(player).split(":", 1)[1]
    assert client.get(reverse("leagues:fixtures-feed", kwargs={"token": forged})).status_code == 404
    player.is_active = False
    player.save()
    assert client.get(url).status_code == 404
