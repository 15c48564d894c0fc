"""Circuit pages and API (docs/ratings.md "Circuits", "Circuit API"): the organiser
creates and changes a circuit of their organisation's events, the public standings page
shows the qualification badges, the JSON list and document, bounded queries."""

import pytest
from django.urls import reverse

from events.interchange import import_event
from events.models import Circuit
from events.permissions import Role
from tests.factories import OrganisationFactory, OrganisationRoleFactory, UserFactory
from tests.standings.services.test_rating_services import event_file


@pytest.fixture
def club(db):
    org = OrganisationFactory(slug="club", name="Club")
    events = [
        import_event(event_file(f"c{i}", f"2026-0{i + 1}-10"), organisation=org, publish=True)
        for i in range(3)
    ]
    return org, events


@pytest.fixture
def organiser(client, club):
    user = UserFactory(username="boss")
    OrganisationRoleFactory(organisation=club[0], user=user, role=Role.ORGANISER)
    client.force_login(user)
    return client


def _form(events, **overrides):
    return {
        "name": "Club circuit",
        "starts_on": "2026-01-01",
        "ends_on": "2026-12-31",
        "scoring": "gp",
        "best": "2",
        "min_events": "1",
        "places": "2",
        "events": [e.pk for e in events],
    } | overrides


def test_organiser_creates_then_changes_a_circuit(organiser, club):
    org, events = club
    page = organiser.get(reverse("circuit-create", args=[org.slug]))
    assert page.status_code == 200
    assert "Open c0" in page.text and "GP points" in page.text
    response = organiser.post(reverse("circuit-create", args=[org.slug]), _form(events))
    circuit = Circuit.objects.get()
    assert response.status_code == 302 and response.url == reverse("circuit", args=[circuit.pk])
    assert (circuit.scoring, circuit.best, circuit.places) == ("gp", 2, 2)
    assert circuit.events.count() == 3

    edit = reverse("circuit-edit", args=[org.slug, circuit.pk])
    response = organiser.post(edit, _form(events[:1], scoring="score", best=""))
    assert response.status_code == 302
    circuit.refresh_from_db()
    assert (circuit.scoring, circuit.best, circuit.events.count()) == ("score", None, 1)
    listing = organiser.get(reverse("organisation-circuits", args=[org.slug]))
    assert "Club circuit" in listing.text


def test_another_organisations_event_is_refused(organiser, club):
    org, events = club
    other = import_event(event_file("theirs", "2026-05-01"), publish=True)
    response = organiser.post(reverse("circuit-create", args=[org.slug]), _form([other]))
    assert response.status_code == 400
    assert not Circuit.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ends_on": "2025-01-01"}, "The last day is before the first day."),
        ({"starts_on": "2026-03-01"}, "Outside the circuit&#x27;s period"),
        ({"min_events": "0"}, "The minimum attendance is at least one event."),
        ({"scoring": "elo"}, "Select a valid choice"),
        ({"best": "0"}, "At least one event counts"),
        ({"ends_on": "9999-12-31"}, "Give a date between the years"),
    ],
)
def test_bad_form_is_400_and_saves_nothing(organiser, club, overrides, message):
    org, events = club
    response = organiser.post(
        reverse("circuit-create", args=[org.slug]), _form(events, **overrides)
    )
    assert response.status_code == 400
    assert message in response.text
    assert not Circuit.objects.exists()


def _circuit(club, **fields):
    org, events = club
    circuit = Circuit.objects.create(
        organisation=org,
        name="Club circuit",
        starts_on="2026-01-01",
        ends_on="2026-12-31",
        **({"scoring": "gp", "places": 1} | fields),
    )
    circuit.events.set(events)
    return circuit


def test_public_standings_page_with_badges(client, club, django_assert_max_num_queries):
    circuit = _circuit(club, places=1, min_events=3)
    with django_assert_max_num_queries(8):
        page = client.get(reverse("circuit", args=[circuit.pk]))
    assert page.status_code == 200
    text = page.text
    assert text.count(">Qualified<") == 1  # only Player 2 (rank 1)
    assert "75" in text  # 3 × 25
    assert "Ranked from 3 events played." in text
    assert "Open c2" in text
    listing = client.get(reverse("circuits"))
    assert "Club circuit" in listing.text


def test_score_page_shows_gw_vp_tp(client, club):
    circuit = _circuit(club, scoring="score", min_events=4)
    text = client.get(reverse("circuit", args=[circuit.pk])).text
    assert "Not enough events" in text and ">GW<" in text and "Qualified" not in text


def test_api_list_and_document(client, club, django_assert_max_num_queries):
    circuit = _circuit(club, best=2, places=2)
    doc = client.get(reverse("api-circuits")).json()
    assert doc == {
        "circuits": [
            {
                "id": circuit.pk,
                "name": "Club circuit",
                "organisation": "club",
                "starts_on": "2026-01-01",
                "ends_on": "2026-12-31",
                "scoring": "gp",
                "best": 2,
                "min_events": 1,
                "places": 2,
            }
        ]
    }
    assert client.get(reverse("api-circuits"), {"organisation": "nobody"}).status_code == 400
    assert client.get(reverse("api-circuits"), {"organisation": "club"}).json() == doc
    with django_assert_max_num_queries(6):
        response = client.get(reverse("api-circuit", args=[circuit.pk]))
    top = response.json()["rows"][0]
    assert (top["name"], top["points"], top["played"], top["qualified"]) == (
        "Player 2",
        50,
        3,
        True,
    )
    assert [e["counted"] for e in top["events"]] == [True, True, False]
    missing = client.get(reverse("api-circuit", args=[999999]))
    assert missing.status_code == 404 and missing.json() == {"error": "no such circuit"}
