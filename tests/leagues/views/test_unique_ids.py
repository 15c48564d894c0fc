"""HTML ids are unique on every league page (issue 14): two fields with the same id break
their labels (a tap on one label focuses the other field) and screen readers."""

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from leagues.models import Match, SeasonRole, Team
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import small_season

pytestmark = pytest.mark.django_db


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = Counter()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids[value] += 1


def duplicate_ids(text):
    parser = _Ids()
    parser.feed(text)
    return sorted(i for i, n in parser.ids.items() if n > 1)


@pytest.fixture
def people():
    season = import_season(small_season())
    staff, tribunal, player = (UserFactory(username=n) for n in ("s", "t", "user1"))
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    SeasonRole.objects.create(season=season, user=tribunal, role="tribunal")
    Team.objects.filter(season=season, code="t1").update(user=player)
    return {"staff": staff, "tribunal": tribunal, "player": player, "season": season}


def pages(season):
    slug = season.slug
    yield reverse("leagues:season", kwargs={"slug": slug})
    for competition in season.competitions.all():
        yield reverse("leagues:competition", kwargs={"slug": competition.slug})
    for match in Match.objects.filter(competition__season=season).select_related("competition"):
        yield reverse("leagues:match", kwargs={"slug": match.competition.slug, "code": match.code})
    for name in (
        "staff-home", "staff-deadlines", "staff-adjustments", "staff-reviews", "staff-draft",
        "staff-champagne", "staff-nucommunity", "staff-brackets", "staff-cup-bonus",
    ):  # fmt: skip
        yield reverse(f"leagues:{name}", kwargs={"slug": slug})
    yield reverse("leagues:my-fixtures")


@pytest.mark.parametrize("who", ["staff", "tribunal", "player", "staff_player"])
def test_no_league_page_repeats_an_id(client, people, who):
    if who == "staff_player":  # league staff who also play: their report and staff forms
        SeasonRole.objects.create(season=people["season"], user=people["player"], role="staff")
        who = "player"
    client.force_login(people[who])
    found = {}
    for url in pages(people["season"]):
        response = client.get(url)
        if response.status_code != 200:
            continue
        repeated = duplicate_ids(response.content.decode())
        if repeated:
            found[url] = repeated
    assert found == {}


def test_a_match_page_with_an_open_report_repeats_no_id(client, people):
    """The player's dispute and excuse forms and staff's resolve form on one page."""
    from datetime import timedelta

    from django.utils import timezone

    from leagues.models import ResultReport

    match = Match.objects.get(competition__slug="t24-primera-a", code="m3")
    ResultReport.objects.create(
        match=match, team=match.away, home_goals=1, away_goals=0, posted_at=timezone.now()
        - timedelta(minutes=5), screenshot="x.png",
    )  # fmt: skip
    SeasonRole.objects.create(season=people["season"], user=people["player"], role="staff")
    url = reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m3"})
    for who in ("player", "staff"):
        client.force_login(people[who])
        assert duplicate_ids(client.get(url).content.decode()) == [], who
