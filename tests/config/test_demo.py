"""The demo data of ``make run`` (``manage.py load_demo``): the league season in progress."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from leagues.models import Adjustment, Concession, Excuse, Match, Season, SeasonRole
from leagues.services import season_compliance

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", stdout=StringIO())
    return Season.objects.get(slug="anfpes-t24")


def test_the_demo_league_is_in_progress_around_matchday_6(demo):
    now = timezone.now()
    matches = list(Match.objects.filter(competition__season=demo).select_related("home", "away"))
    assert len(matches) == 240 and demo.teams.count() == 16
    day6 = [m for m in matches if m.round == 6]
    # Today falls inside matchday 6: started, initial deadline still ahead.
    assert day6[0].initial_deadline - timezone.timedelta(days=7) <= now < day6[0].initial_deadline
    # Every past matchday has its results, but one fixture left unplayed past its deadline.
    past = [m for m in matches if m.round < 6]
    unplayed = [m for m in past if m.status == "scheduled"]
    assert len(unplayed) == 1 and unplayed[0].final_deadline < now
    assert all(m.reported_at <= now for m in matches if m.reported_at)
    assert all(m.status == "scheduled" for m in matches if m.round > 6)
    # t1 belongs to the demo player and its matchday-6 fixture is still to play.
    t1 = demo.teams.get(code="t1")
    assert t1.user.username == "player"
    mine = next(m for m in day6 if "t1" in (m.home.code, m.away.code))
    assert mine.status == "scheduled"
    # One walkover with its ledger entry, one excuse (effective), one concession.
    walkover = [m for m in matches if m.status == "walkover"]
    assert len(walkover) == 1
    entry = Adjustment.objects.get(competition__season=demo)
    assert (entry.team, entry.points, entry.reason) == (
        walkover[0].away,
        -3,
        f"walkover {walkover[0].code}",
    )
    assert Excuse.objects.get(match__competition__season=demo).effective
    assert Concession.objects.filter(match__competition__season=demo).count() == 1
    roles = set(SeasonRole.objects.filter(season=demo).values_list("user__username", "role"))
    assert roles == {("organiser", "staff"), ("headjudge", "tribunal")}


def test_the_demo_compliance_table_shows_every_outcome(demo):
    doc = season_compliance(demo)
    outcomes = {f["outcome"] for row in doc["rows"] for f in row["fixtures"]}
    assert {"initial", "final", "late", "unplayed", "excused", "conceded", "conceded_to"} <= (
        outcomes
    )
    assert {"absent", "pending"} <= outcomes
    assert doc["without_deadlines"] == []


def test_the_demo_pages_answer(client, demo):
    for name in ("leagues:season", "leagues:compliance", "leagues:draft"):
        assert client.get(reverse(name, kwargs={"slug": "anfpes-t24"})).status_code == 200
    client.login(username="organiser", password="demo-arbitro")
    for name in ("leagues:staff-reviews", "leagues:staff-draft"):
        assert client.get(reverse(name, kwargs={"slug": "anfpes-t24"})).status_code == 200
    assert client.login(username="liga02", password="demo-arbitro")


def test_load_demo_is_idempotent(demo):
    before = (
        Match.objects.filter(reported_at__isnull=False).count(),
        Season.objects.count(),
        Excuse.objects.count(),
    )
    call_command("load_demo", stdout=StringIO())
    after = (
        Match.objects.filter(reported_at__isnull=False).count(),
        Season.objects.count(),
        Excuse.objects.count(),
    )
    assert before == after


def test_every_demo_final_phase_and_cup_team_has_an_account(client, demo):
    """The T23 seasons' teams (final phases: Primera A and B; cups) can log in with the
    demo password and report their matches."""
    for slug in ("anfpes-t23", "anfpes-t23-cups"):
        teams = list(Season.objects.get(slug=slug).teams.select_related("user"))
        assert len(teams) == 32
        assert all(t.user is not None and t.user.username == t.handle for t in teams), slug
    b1 = Season.objects.get(slug="anfpes-t23").teams.get(code="b1")
    assert b1.user.username == "ligab01" and b1.user.check_password("demo-arbitro")
    assert client.login(username="ligab16", password="demo-arbitro")
    # A Primera B player sees a fixture to report in the post-season.
    page = client.get(reverse("leagues:my-fixtures")).content.decode()
    assert "ANFPES Temporada 23" in page
