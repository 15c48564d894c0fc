"""The rankings API and pages (docs/contracts.md §9; TR Appendix A; docs/rules-vekn.md
"Ratings"), and the rating fields on the event form and standings page."""

import pytest
from django.urls import reverse

from events.interchange import import_event
from events.models import Event
from tests.factories import (
    EventRoleFactory,
    OrganisationFactory,
    OrganisationRoleFactory,
    UserFactory,
)
from tests.standings.services.test_rating_services import EXPECTED, event_file


def _api(client, **params):
    return client.get(reverse("api-rankings"), params)


def test_api_shape(client, db):
    import_event(event_file("a", "2026-10-01"), publish=True)
    response = _api(client, category="constructed", online="false", as_of="2026-12-01")
    assert response.status_code == 200
    doc = response.json()
    assert set(doc) == {"category", "online", "as_of", "rows"}
    assert (doc["category"], doc["online"], doc["as_of"]) == ("constructed", False, "2026-12-01")
    first = doc["rows"][0]
    assert first == {
        "rank": 1,
        "vekn": "3200002",
        "name": "Player 2",
        "rating": 112,
        "events": [{"event": "a", "date": "2026-10-01", "rating_points": 112}],
    }
    assert [r["rank"] for r in doc["rows"]] == [1, 2, 2, 2, 5, 6, 7, 7, 7, 7]


@pytest.mark.parametrize(
    "params",
    [
        {"category": "draft"},
        {"online": "maybe"},
        {"as_of": "2026-13-01"},
        {"as_of": "yesterday"},
        {"organisation": "nobody"},
    ],
)
def test_api_bad_params_are_400(client, db, params):
    response = _api(client, **params)
    assert response.status_code == 400
    assert set(response.json()) == {"error"} and response.json()["error"]


def test_api_organisation_and_online(client, db):
    org = OrganisationFactory(slug="club")
    import_event(event_file("c", "2026-10-01", online=True), organisation=org, publish=True)
    import_event(event_file("d", "2026-10-02", online=True), publish=True)
    doc = _api(client, online="true", as_of="2026-12-01", organisation="club").json()
    assert {e["event"] for r in doc["rows"] for e in r["events"]} == {"c"}
    assert _api(client, as_of="2026-12-01").json()["rows"] == []  # on site: none


@pytest.mark.parametrize("events", [1, 6])
def test_api_bounded_queries(client, db, django_assert_max_num_queries, events):
    for i in range(events):
        import_event(event_file(f"e{i}", f"2026-{i + 1:02d}-10"), publish=True)
    # The first request stores the events' rating points (the same count whatever their
    # number); the next ones read them (docs/ratings.md "How the rankings stay fast").
    with django_assert_max_num_queries(17):
        doc = _api(client, as_of="2026-12-01").json()
    with django_assert_max_num_queries(5):
        assert _api(client, as_of="2026-12-01").json() == doc
    assert doc["rows"][0]["rating"] == events * 112


def test_standings_api_and_page_carry_rating_points(client, db):
    import_event(event_file("s", "2026-10-01"), publish=True)
    doc = client.get(reverse("api-standings", args=["s"])).json()
    assert {r["player"]: r["rating_points"] for r in doc["standings"]} == EXPECTED
    page = client.get(reverse("events:public-standings", args=["s"])).content.decode()
    assert "Rating points" in page and '<td class="num">112</td>' in page


def test_unrated_standings_page_has_no_rating_column(client, db):
    import_event(event_file("u", "2026-10-01", sets=["Jyhad"]), publish=True)
    page = client.get(reverse("events:public-standings", args=["u"])).content.decode()
    assert "Rating points" not in page
    doc = client.get(reverse("api-standings", args=["u"])).json()
    assert {r["rating_points"] for r in doc["standings"]} == {None}


def test_csv_and_archondata_carry_rating_points(client, db):
    event = import_event(event_file("x", "2026-10-01"), publish=True)
    user = UserFactory(username="org")
    EventRoleFactory(event=event, user=user, role="organiser")
    client.force_login(user)
    csv = client.get(reverse("manage:export-csv", kwargs={"slug": "x"})).content.decode()
    lines = csv.splitlines()
    assert lines[0].endswith(",toss,rating_points")
    assert lines[1].startswith("1,p2,") and lines[1].endswith(",112")
    archon = client.get(reverse("manage:export-archondata", kwargs={"slug": "x"})).content.decode()
    first = archon[2:].split("¤")[0].split("§")
    assert first[0] == "1" and first[-1] == "112"


def test_rankings_page_and_player_page(client, db):
    for i in range(9):
        import_event(event_file(f"e{i}", f"2026-{i + 2:02d}-01"), publish=True)
    import_event(event_file("ancient", "2024-01-01"), publish=True)
    page = client.get(reverse("rankings"), {"as_of": "2026-12-01"}).content.decode()
    assert "Player 2" in page and "896" in page  # 8 × 112
    for label in (
        "Constructed, on site",
        "Constructed, online",
        "Limited, on site",
        "Limited, online",
    ):
        assert label in page
    person = Event.objects.get(slug="e0").registrations.get(code="p2").person
    profile = client.get(
        reverse("rankings-player", args=[person.pk]), {"as_of": "2026-12-01"}
    ).content.decode()
    assert profile.count("<strong>Counted</strong>") == 8
    assert "Not among the best 8 of the last 18 months" in profile
    assert "More than 18 months before" in profile
    assert "Not listed in this ranking" not in profile
    # A year after the last event (October 2026): hidden from the ranking, rating kept.
    later = client.get(
        reverse("rankings-player", args=[person.pk]), {"as_of": "2027-11-01"}
    ).content.decode()
    assert "Not listed in this ranking on this date" in later
    assert "Player 2" not in client.get(reverse("rankings"), {"as_of": "2027-11-01"}).text


def test_rankings_page_bad_query_answers_400_with_the_problem(client, db):
    for query in ({"category": "x"}, {"as_of": "9999-12-31"}, {"as_of": "1970-01-01"}):
        response = client.get(reverse("rankings"), query)
        assert response.status_code == 400
        assert 'class="error-summary" role="alert"' in response.content.decode()
    page = client.get(reverse("rankings"), {"as_of": "9999-12-31"}).content.decode()
    assert "Give a date between the years 2000 and 2100." in page


def test_rankings_offer_only_organisations_with_a_rated_event(client, db):
    OrganisationFactory(name="Spam spam spam", slug="spam")
    club = OrganisationFactory(name="Club de Vampiros", slug="club")
    import_event(event_file("c", "2026-10-01"), organisation=club, publish=True)
    page = client.get(reverse("rankings"), {"as_of": "2026-12-01"}).content.decode()
    assert "Spam spam spam" not in page and '<option value="club">Club de Vampiros' in page


def test_vekn_event_form_asks_the_rating_fields(client, db):
    org = OrganisationFactory(slug="store")
    user = UserFactory(username="ana")
    OrganisationRoleFactory(organisation=org, user=user, role="organiser")
    client.force_login(user)
    url = reverse("event-create", kwargs={"org_slug": org.slug})
    form = client.get(url).content.decode()
    for name in ("game_format", "championship", "online", "sets"):
        assert f'name="{name}"' in form
    assert 'name="format"' not in form
    myl = client.get(url, {"preset": "myl-2026"}).content.decode()
    assert 'name="game_format"' not in myl and 'name="sets"' not in myl
    response = client.post(
        url,
        {
            "name": "Limited night",
            "slug": "limited-night",
            "date": "2026-12-05",
            "preset": "vekn-2026",
            "game_format": "limited",
            "championship": "national",
            "online": "on",
            "sets": "Jyhad, Sabbat War, Jyhad",
            "preliminary_rounds": 3,
            "round_minutes": 120,
            "final_mode": "final",
            "time_zone": "America/Santiago",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug="limited-night")
    assert (event.game_format, event.format, event.championship, event.online, event.sets) == (
        "limited",
        "limited",
        "national",
        True,
        ["Jyhad", "Sabbat War"],
    )
    settings = client.get(reverse("manage:settings", kwargs={"slug": event.slug})).content.decode()
    assert 'value="Jyhad, Sabbat War"' in settings


def test_my_page_links_my_rating(client, db):
    import_event(event_file("m", "2026-10-01"), publish=True)
    person = Event.objects.get(slug="m").registrations.get(code="p2").person
    user = UserFactory(username="p2")
    person.user = user
    person.save(update_fields=["user"])
    client.force_login(user)
    page = client.get(reverse("my-page")).content.decode()
    assert reverse("rankings-player", args=[person.pk]) in page


def test_settings_form_saves_the_rating_fields_and_nothing_spurious(client, db):
    from events.models import AuditLog

    event = import_event(event_file("st", "2026-10-01", sets=["Jyhad"]), publish=False)
    user = UserFactory(username="org2")
    EventRoleFactory(event=event, user=user, role="organiser")
    client.force_login(user)
    url = reverse("manage:settings", kwargs={"slug": event.slug})
    data = {
        "name": event.name,
        "date": "2026-10-01",
        "game_format": "v5",
        "championship": "",
        "sets": "Jyhad",
        "preliminary_rounds": event.preliminary_rounds,
        "round_minutes": 120,
        "final_minutes": 120,
        "final_mode": "final",
        "time_zone": "America/Santiago",
    }
    assert client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert (event.game_format, event.sets, event.online) == ("v5", ["Jyhad"], False)
    update = AuditLog.objects.filter(action="event.update").latest("id")
    assert "sets" not in (update.after or {}) and "game_format" in (update.after or {})
