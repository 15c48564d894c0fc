"""A small season with one unplayed fixture for the scheduling tests (user1 home v user3
away; user2 plays in the season but not this fixture; a staff account)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from leagues import services
from leagues.models import Match, SeasonRole
from tests.factories import UserFactory
from tests.leagues.seasons import small_season


@pytest.fixture(name="fixture")
def sched_fixture(db):
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    season = services.import_season(small_season())
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    match = Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug="t24-primera-a", code="m3"
    )
    now = timezone.now()
    match.initial_deadline = now + timedelta(days=2)
    match.final_deadline = now + timedelta(days=5)
    match.save()
    return {
        "season": season,
        "match": match,
        "home": users["user1"],
        "away": users["user3"],
        "outsider": users["user2"],
        "staff": staff,
        "now": now,
    }
