"""The VEKN link's organiser page: disabled, announced through a fake VEKN, a failure
with the VEKN's message and its retry button (docs/vekn-link.md)."""

import pytest
from django.urls import reverse

from events import vekn_client
from events.models import VeknPush
from tests.factories import EventFactory


@pytest.fixture(autouse=True)
def fresh_token():
    vekn_client.forget_token()
    yield
    vekn_client.forget_token()


def url(name, event):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug})


def test_disabled_link_is_shown_as_such(client, event, staff, settings):
    settings.VEKN_API_URL = ""
    client.force_login(staff["organiser"])
    page = client.get(url("vekn", event)).content.decode()
    assert "The VEKN link is disabled" in page
    assert "VEKN link" in client.get(url("dashboard", event)).content.decode()


def test_myl_event_has_no_vekn_link(client, db, settings, django_assert_max_num_queries):
    from tests.factories import EventRoleFactory, UserFactory

    event = EventFactory(ruleset="myl", round_minutes=50)
    user = UserFactory()
    EventRoleFactory(event=event, user=user, role="organiser")
    client.force_login(user)
    assert "do not go to the VEKN" in client.get(url("vekn", event)).content.decode()


def test_announce_fail_then_retry(
    client,
    event,
    staff,
    settings,
    httpserver,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
):
    settings.VEKN_API_URL = httpserver.url_for("/").rstrip("/")
    httpserver.expect_request("/api/vekn/login").respond_with_json(
        {"data": {"code": 200, "auth": "t"}}
    )
    httpserver.expect_oneshot_request("/api/vekn/event").respond_with_json(
        {"data": {"code": 400, "message": "PLG_API_VEKN_INVALID_VENUE_MESSAGE"}}
    )
    client.force_login(staff["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("vekn-announce", event), {"organiser_vekn": "5600001", "venue_id": 7})
    with django_assert_max_num_queries(12):
        page = client.get(url("vekn", event)).content.decode()
    assert "Failed" in page and "Invalid venue." in page and "Retry" in page
    push = VeknPush.objects.get(event=event)
    httpserver.expect_oneshot_request("/api/vekn/event").respond_with_json(
        {"data": {"code": 200, "id": "777"}}
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("vekn-retry", event), {"push": push.pk})
    page = client.get(url("vekn", event)).content.decode()
    assert "VEKN event 777" in page and "Sent" in page


def test_judges_see_but_cannot_announce(client, event, staff, settings):
    settings.VEKN_API_URL = "http://vekn.invalid"
    client.force_login(staff["judge"])
    assert client.get(url("vekn", event)).status_code == 200
    assert client.post(url("vekn-announce", event), {"organiser_vekn": "1"}).status_code == 403


def test_adding_a_player_warns_softly_about_an_unknown_vekn_number(
    client, event, staff, settings, httpserver
):
    settings.VEKN_API_URL = httpserver.url_for("/").rstrip("/")
    settings.VEKN_TIMEOUT_SECONDS = 1
    httpserver.expect_request("/api/vekn/login").respond_with_data("down", status=503)
    client.force_login(staff["organiser"])
    page = client.post(
        url("player-add", event), {"name": "Nadia Nueva", "vekn_number": "5609999"}, follow=True
    ).content.decode()
    assert "Nadia Nueva registered." in page
    assert "could not be checked" in page
    assert event.registrations.filter(person__vekn_number="5609999").exists()
