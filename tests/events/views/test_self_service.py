"""The players' self-service pages (events/views_self_service.py; docs/players.md):
registering from the event page, the QR check-in address, self drop, the polled seat
fragment (a bounded number of queries, an ETag), and the organiser's pages."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from events import check_in_tokens, services, swiss_services
from events.models import AuditLog, EventRole, Registration
from events.permissions import Role
from penalties import time_extensions
from tests.conftest import add_players, play_round
from tests.factories import EventFactory, PersonFactory, UserFactory

pytestmark = pytest.mark.django_db

MYL = {
    "ruleset": "myl",
    "preset": "myl-2026",
    "round_minutes": 50,
    "preliminary_rounds": 4,
    "best_of": 3,
    "top_cut": 0,
    "final_mode": "none",
}


def player(name):
    user = UserFactory(username=name.lower())
    PersonFactory(name=name, user=user, vekn_number="")
    return user


def url(name, event, **kwargs):
    return reverse(f"events:{name}", kwargs={"slug": event.slug, **kwargs})


def test_register_from_the_event_page_and_double_submit(client):
    event = EventFactory(self_registration=True, capacity=1)
    ana = player("Ana")
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Sign in to register" in page
    client.force_login(ana)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "1 of 1 places left." in page and 'value="register"' in page
    for _ in range(2):  # a double tap
        response = client.post(url("self-register", event), {"action": "register"})
        assert response.status_code == 302
    assert event.registrations.filter(person__user=ana).count() == 1
    assert AuditLog.objects.filter(event=event, action="player.register").count() == 1
    page = client.get(event.get_absolute_url()).content.decode()
    assert "You are registered" in page and "0 of 1 places left." in page
    # A second player: the event is full, the waitlist.
    client.force_login(player("Bea"))
    assert "Join the waitlist" in client.get(event.get_absolute_url()).content.decode()
    client.post(url("self-register", event), {"action": "register"})
    page = client.get(event.get_absolute_url()).content.decode()
    assert "You are on the waitlist: number 1." in page


def test_anonymous_is_sent_to_sign_in(client):
    event = EventFactory(self_registration=True)
    for name in ("self-register", "self-drop", "my-seat"):
        response = client.post(url(name, event)) if name == "self-register" else None
        response = response or client.get(url(name, event))
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not event.registrations.exists()


def test_a_player_acts_only_for_themselves(client):
    """No address names another player: every action is the signed-in person's own, so
    another player's registration cannot be touched (unregistered, dropped, checked in)."""
    event = EventFactory(self_registration=True)
    ana, bea = player("Ana"), player("Bea")
    client.force_login(ana)
    client.post(url("self-register", event), {"action": "register"})
    client.force_login(bea)
    client.post(url("self-register", event), {"action": "unregister"})
    token = check_in_tokens.make_token(event, timezone.now())
    client.get(url("check-in", event, token=token))
    assert client.get(url("self-drop", event)).status_code == 302  # not registered
    reg = event.registrations.get()
    assert reg.person.user == ana and reg.status == Registration.Status.REGISTERED
    assert not AuditLog.objects.filter(actor=bea).exists()


def test_check_in_by_the_qr_address(client):
    event = EventFactory(self_registration=True)
    ana = player("Ana")
    client.force_login(ana)
    client.post(url("self-register", event), {"action": "register"})
    token = check_in_tokens.make_token(event, timezone.now())
    response = client.get(url("check-in", event, token=token))
    assert response.status_code == 302 and response["Location"] == reverse("my-page")
    assert event.registrations.get().status == Registration.Status.CHECKED_IN
    assert client.get(url("check-in", event, token=token)).status_code == 302  # again: harmless
    assert AuditLog.objects.filter(action="player.checked_in").count() == 1


def test_an_old_photo_of_the_code_does_not_work(client):
    event = EventFactory(self_registration=True)
    client.force_login(player("Ana"))
    client.post(url("self-register", event), {"action": "register"})
    old = check_in_tokens.make_token(event, timezone.now() - dt.timedelta(minutes=3))
    response = client.get(url("check-in", event, token=old))
    assert response.status_code == 403
    assert "not valid any more" in response.content.decode()
    assert event.registrations.get().status == Registration.Status.REGISTERED


def test_signing_in_after_the_scan_still_checks_in(client):
    """The scan is remembered in the session while the player signs in (the code may
    have changed meanwhile)."""
    event = EventFactory(self_registration=True)
    ana = player("Ana")
    services.register(event, ana.person)
    token = check_in_tokens.make_token(event, timezone.now())
    response = client.get(url("check-in", event, token=token))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert event.registrations.get().status == Registration.Status.REGISTERED
    client.post(reverse("login"), {"username": "ana", "password": "pw"})
    expired = "1:expired"
    response = client.get(url("check-in", event, token=expired))
    assert response.status_code == 302
    assert event.registrations.get().status == Registration.Status.CHECKED_IN


def test_self_drop_confirmation_then_drop(client):
    event = EventFactory(self_registration=True)
    ana = player("Ana")
    add_players(event, 7)
    reg = services.register(event, ana.person, check_in=True)
    rnd = services.seat_next_round(event, seed=1)
    client.force_login(ana)
    page = client.get(url("self-drop", event)).content.decode()
    assert "ask a judge to drop you" in page and 'name="confirm"' not in page
    assert client.post(url("self-drop", event), {"confirm": "1"}).status_code == 302
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    play_round(rnd)
    page = client.get(url("self-drop", event)).content.decode()
    assert "TR §3.1.4" in page and "Yes, drop me" in page
    # Without the confirmation field nothing happens: the page again.
    assert client.post(url("self-drop", event)).status_code == 200
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    for _ in range(2):
        assert client.post(url("self-drop", event), {"confirm": "1"}).status_code == 302
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DROPPED
    assert AuditLog.objects.filter(action="player.dropped").count() == 1


def test_myl_drop_page_states_the_conduct_rule(client):
    event = EventFactory(self_registration=True, **MYL)
    ana = player("Ana")
    add_players(event, 3)
    services.register(event, ana.person, check_in=True)
    rnd = swiss_services.pair_next_round(event, seed=1)
    for table in rnd.tables.all():
        swiss_services.save_match_result(table, [2, 0], version=table.version)
    client.force_login(ana)
    assert "MyL conduct rules §3.2.5" in client.get(url("self-drop", event)).content.decode()


def _seated_event(ruleset_fields, players):
    event = EventFactory(**ruleset_fields)
    ana = player("Ana")
    add_players(event, players - 1)
    services.register(event, ana.person, check_in=True)
    return event, ana


@pytest.mark.parametrize(
    ("fields", "players", "seated"),
    [({}, 9, swiss_services), (MYL, 4, swiss_services)],
    ids=["vekn", "myl"],
)
def test_my_seat_fragment_bounded_queries_and_etag(
    client, django_assert_max_num_queries, fields, players, seated
):
    event, ana = _seated_event(fields, players)
    client.force_login(ana)
    fragment = url("my-seat", event)
    with django_assert_max_num_queries(4):
        html = client.get(fragment).content.decode()
    assert "Check in at the venue" not in html and "No round is seated yet" in html
    rnd = (
        swiss_services.pair_next_round(event, seed=1)
        if fields
        else services.seat_next_round(event, seed=1)
    )
    assert "being seated" in client.get(fragment).content.decode()
    services.set_seating_published(rnd, True)
    # 8, plus the table's reported result (due countdowns, the seats, the report).
    with django_assert_max_num_queries(11):
        response = client.get(fragment)
    html = response.content.decode()
    seat = rnd.seats.select_related("table").get(registration__person__user=ana)
    assert f"Table {seat.table.number}" in html
    others = seat.table.seats.exclude(pk=seat.pk).select_related("registration__person")
    for other in others:
        assert other.registration.person.name in html
    if fields:
        assert "Opponent:" in html and "Seat " not in html
    else:
        assert f"Seat {seat.position}" in html
    assert response["Cache-Control"] == "private, no-cache"
    again = client.get(fragment, headers={"if-none-match": response["ETag"]})
    assert again.status_code == 304


def test_my_page_polls_the_seat(
    client, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    event, ana = _seated_event({}, 9)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    client.force_login(ana)
    # The page's own queries, plus at most seven per event under way (its seat and its
    # table's reported result).
    with django_assert_max_num_queries(17):
        html = client.get(reverse("my-page")).content.decode()
    assert f'hx-get="{url("my-seat", event)}?v=' in html and 'hx-trigger="every 5s"' in html
    assert "data-clock-now" in html
    version = re.search(r"my-seat/\?v=([0-9a-f]+)", html).group(1)
    # The poll of an unchanged box: an empty 204 (htmx swaps nothing).
    unchanged = client.get(url("my-seat", event), {"v": version})
    assert unchanged.status_code == 204 and unchanged.content == b""
    # Once the clock starts, the box changes: the new one, with its new version.
    with django_capture_on_commit_callbacks(execute=True):
        time_extensions.start_round_clock(rnd)
    changed = client.get(url("my-seat", event), {"v": version})
    assert changed.status_code == 200 and f"?v={version}" not in changed.content.decode()
    assert "Time left" in changed.content.decode()


def test_registration_settings_and_waitlist_move_up(client):
    event = EventFactory()
    organiser, judge = UserFactory(username="olga"), UserFactory(username="jim")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    EventRole.objects.create(event=event, user=judge, role=Role.JUDGE)
    settings_url = reverse("manage:registration-settings", args=[event.slug])
    client.force_login(judge)
    assert client.post(settings_url, {"self_registration": "on"}).status_code == 403
    client.force_login(organiser)
    response = client.post(
        settings_url,
        {"self_registration": "on", "capacity": "1", "registration_closes_at": "2026-11-28T09:30"},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.self_registration and event.capacity == 1
    # typed in the event's time zone (America/Santiago, UTC−3 in November)
    assert event.registration_closes_at == dt.datetime(2026, 11, 28, 12, 30, tzinfo=dt.UTC)
    event.registration_closes_at = None
    event.save()
    for name in ("Ana", "Bea"):
        client.force_login(player(name))
        client.post(url("self-register", event), {"action": "register"})
    client.force_login(organiser)
    assert "Bea" in client.get(settings_url).content.decode()
    response = client.post(settings_url, {"self_registration": "on", "capacity": "2"}, follow=True)
    assert "Bea moved up from the waitlist." in response.content.decode()
    assert event.registrations.count() == 2 and not event.waitlist.exists()


def test_check_in_code_page_shows_a_qr_of_a_valid_address(client):
    event = EventFactory()
    organiser = UserFactory(username="olga")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    page = client.get(reverse("manage:check-in-code", args=[event.slug]))
    html = page.content.decode()
    assert 'class="qr"' in html and "<svg" in html and 'hx-trigger="every 10s"' in html
    assert page["Cache-Control"] == "private, no-store"
    token = re.search(r"/check-in/([^/]+)/", html).group(1)
    assert check_in_tokens.token_is_valid(event, token, timezone.now())
    fragment = client.get(
        reverse("manage:check-in-code", args=[event.slug]), headers={"HX-Request": "true"}
    )
    assert "<h1>" not in fragment.content.decode() and "<svg" in fragment.content.decode()


def test_my_data_lists_the_waitlist(client):
    event = EventFactory(self_registration=True, capacity=1)
    client.force_login(player("Ana"))
    client.post(url("self-register", event), {"action": "register"})
    bea = player("Bea")
    client.force_login(bea)
    client.post(url("self-register", event), {"action": "register"})
    data = client.get(reverse("my-data")).json()
    assert [w["event"] for w in data["waitlist"]] == [event.slug] and data["registrations"] == []


@pytest.mark.parametrize("closes", ["9999-12-31T23:59", "1000-01-01T10:00"])
def test_a_closing_time_outside_the_date_window_is_a_form_error(client, closes):
    """Year 9999 overflowed the time-zone conversion on saving (a 500 found by a new user)."""
    event = EventFactory()
    organiser = UserFactory(username="olga")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    response = client.post(
        reverse("manage:registration-settings", args=[event.slug]),
        {"self_registration": "on", "capacity": "2", "registration_closes_at": closes},
    )
    assert response.status_code == 400
    assert "Give a date between the years 2000 and 2100." in response.content.decode()
    event.refresh_from_db()
    assert not event.self_registration and event.registration_closes_at is None
