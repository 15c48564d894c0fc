"""The Django admin of leagues: site administrators appoint season roles there; results
and the ledger are read-only (they change through the audited league pages)."""

from django.urls import reverse

from leagues.models import Match, ResultReport, Season, SeasonRole
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import small_season


def test_admin_appoints_season_roles_and_shows_results_read_only(client, db):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    judge = UserFactory(username="referee")
    season = import_season(small_season())
    client.force_login(admin)
    url = reverse("admin:leagues_season_change", args=[season.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "name": season.name,
            "time_zone": season.time_zone,
            "roles-TOTAL_FORMS": "1",
            "roles-INITIAL_FORMS": "0",
            "roles-MIN_NUM_FORMS": "0",
            "roles-MAX_NUM_FORMS": "1000",
            "roles-0-user": judge.pk,
            "roles-0-role": "tribunal",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert SeasonRole.objects.get(season=season).user == judge
    match = Match.objects.first()
    assert client.get(reverse("admin:leagues_match_changelist")).status_code == 200
    # Viewing is allowed, changing is not.
    change = reverse("admin:leagues_match_change", args=[match.pk])
    assert client.get(change).status_code == 200
    client.post(change, {"status": "void"})
    match.refresh_from_db()
    assert match.status != "void"
    assert client.get(reverse("admin:leagues_resultreport_changelist")).status_code == 200
    assert not ResultReport.objects.exists()
    assert Season.objects.count() == 1
