"""The round clock through the services and the pages: start, pause and resume the whole
round (penalties/time_extensions.py), the countdown on the round pages and the big screen
(events/round_clock.py, static/js/clock.js), the cache made stale by every change."""

import re
import uuid
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from events import round_clock, services
from events import swiss_services as ss
from events.errors import UserError
from events.models import AuditLog, Event, Round
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import time_extensions as te
from tests.conftest import add_players
from tests.events.services.test_swiss_services import make_event
from tests.factories import EventRoleFactory, UserFactory

ORGANISER = ROLE_PERMISSIONS[Role.ORGANISER]
JUDGE = ROLE_PERMISSIONS[Role.JUDGE]
SCOREKEEPER = ROLE_PERMISSIONS[Role.SCOREKEEPER]


@pytest.fixture
def rnd(event):
    add_players(event, 8)
    return services.seat_next_round(event, seed=1)


def fresh(rnd) -> Round:
    return Round.objects.select_related("event").get(pk=rnd.pk)


def versions(event) -> tuple[int, int]:
    return tuple(
        Event.objects.filter(pk=event.pk).values_list("public_version", "seating_version")[0]
    )


def back_date_pause(rnd, minutes):
    """Make the pause under way ``minutes`` old (the services read the clock now)."""
    Round.objects.filter(pk=rnd.pk).update(paused_at=timezone.now() - timedelta(minutes=minutes))


# ------------------------------------------------------------------ services
def test_pause_and_resume_the_whole_round(rnd):
    te.start_round_clock(rnd, perms=ORGANISER)
    table = rnd.tables.order_by("number").first()
    before = te.table_end_time(fresh(rnd).tables.first())
    te.pause_round_clock(rnd, perms=JUDGE)
    assert fresh(rnd).paused_at is not None
    assert round_clock.clock(fresh(rnd).timing(), timezone.now()).state == round_clock.PAUSED
    back_date_pause(rnd, 10)
    saved = te.resume_round_clock(rnd, perms=JUDGE)
    assert saved.paused_at is None and 599 <= saved.paused_seconds <= 602
    table = fresh(rnd).tables.order_by("number").first()
    after = te.table_end_time(table)
    assert timedelta(minutes=9) < after - before < timedelta(minutes=11)
    # a second pause adds up
    te.pause_round_clock(rnd, perms=JUDGE)
    back_date_pause(rnd, 5)
    assert 899 <= te.resume_round_clock(rnd, perms=JUDGE).paused_seconds <= 905
    actions = list(
        AuditLog.objects.filter(action__in=["round.start", "round.pause", "round.resume"])
        .order_by("id")
        .values_list("action", "target_type")
    )
    assert actions == [
        ("round.start", "events.round"),
        ("round.pause", "events.round"),
        ("round.resume", "events.round"),
        ("round.pause", "events.round"),
        ("round.resume", "events.round"),
    ]


def test_pause_twice_and_resume_without_pause_are_clear_errors(rnd):
    with pytest.raises(UserError, match="has not started"):
        te.pause_round_clock(rnd, perms=ORGANISER)
    with pytest.raises(UserError, match="has not started"):
        te.resume_round_clock(rnd, perms=ORGANISER)
    te.start_round_clock(rnd, perms=ORGANISER)
    with pytest.raises(UserError, match="not paused"):
        te.resume_round_clock(rnd, perms=ORGANISER)
    te.pause_round_clock(rnd, perms=ORGANISER)
    paused_at = fresh(rnd).paused_at
    with pytest.raises(UserError, match="already paused"):
        te.pause_round_clock(rnd, perms=ORGANISER)
    assert fresh(rnd).paused_at == paused_at  # nothing changed
    assert AuditLog.objects.filter(action="round.pause").count() == 1
    with pytest.raises(UserError, match="already started"):
        te.start_round_clock(rnd, perms=ORGANISER)


def test_the_service_checks_the_permission(rnd):
    with pytest.raises(PermissionDenied):
        te.start_round_clock(rnd, perms=SCOREKEEPER)
    te.start_round_clock(rnd, perms=ORGANISER)
    with pytest.raises(PermissionDenied):
        te.pause_round_clock(rnd, perms=SCOREKEEPER)
    with pytest.raises(PermissionDenied):
        te.resume_round_clock(rnd, perms=frozenset())
    assert fresh(rnd).paused_at is None


def test_every_clock_change_makes_the_cached_pages_stale(rnd):
    event = rnd.event
    start = versions(event)
    te.start_round_clock(rnd, perms=ORGANISER)
    started = versions(event)
    assert started[0] == start[0] + 1 and started[1] == start[1]  # not the seating page
    te.pause_round_clock(rnd, perms=ORGANISER)
    assert versions(event)[0] == started[0] + 1
    te.resume_round_clock(rnd, perms=ORGANISER)
    assert versions(event)[0] == started[0] + 2
    te.add_extension(rnd.tables.first(), 4, client_id=uuid.uuid4(), perms=JUDGE)
    assert versions(event)[0] == started[0] + 3


def test_round_overview_counts_extensions_and_pauses(rnd):
    te.start_round_clock(rnd, perms=ORGANISER)
    first, second = rnd.tables.order_by("number")[:2]
    te.add_extension(first, 4, client_id=uuid.uuid4(), perms=JUDGE)
    rows = services.round_overview(fresh(rnd))
    assert rows[0]["clock"].extension_minutes == 4 and rows[1]["clock"].extension_minutes == 0
    assert rows[0]["clock"].seconds_left - rows[1]["clock"].seconds_left in (239, 240, 241)
    assert rows[0]["end"] - rows[1]["end"] == timedelta(minutes=4)
    te.pause_round_clock(rnd, perms=ORGANISER)
    rows = services.round_overview(fresh(rnd))
    assert {r["clock"].state for r in rows} == {round_clock.PAUSED}


def test_a_myl_round_has_its_own_length(db):
    event, _ = make_event(8, preliminary_rounds=3)
    rnd = ss.pair_next_round(event)
    te.start_round_clock(rnd, perms=ORGANISER)
    clock = round_clock.clock(fresh(rnd).timing(), timezone.now())
    assert 49 * 60 < clock.seconds_left <= event.round_minutes * 60 == 50 * 60


# ------------------------------------------------------------------ pages
def round_url(event, number=1, name="manage:round"):
    return reverse(name, kwargs={"slug": event.slug, "number": number})


def test_round_page_shows_the_clock_and_the_buttons(client, rnd, staff):
    event = rnd.event
    client.force_login(staff["judge"])
    html = client.get(round_url(event)).content.decode()
    assert "data-clock data-state" not in html and "Start the clock" in html
    client.post(round_url(event, name="manage:round-start"))
    html = client.get(round_url(event)).content.decode()
    assert 'data-state="running"' in html and "Pause the clock" in html
    assert html.count('data-clock data-state="running"') == 1 + rnd.tables.count()
    assert re.search(r'data-clock-now="\d{13}"', html) and "js/clock.js" in html
    assert re.search(r"data-clock-time>1[12]\d:\d\d<", html)
    response = client.post(round_url(event, name="manage:round-clock"), {"action": "pause"})
    assert response.status_code == 302
    html = client.get(round_url(event)).content.decode()
    assert 'data-state="paused"' in html and "Resume the clock" in html
    assert "Clock paused." in html
    # a second click of the same button: refused, said, nothing changed
    client.post(round_url(event, name="manage:round-clock"), {"action": "pause"})
    html = client.get(round_url(event)).content.decode()
    assert "already paused" in html and 'data-state="paused"' in html
    client.post(round_url(event, name="manage:round-clock"), {"action": "resume"})
    html = client.get(round_url(event)).content.decode()
    assert "Clock resumed." in html and 'data-state="running"' in html
    client.post(round_url(event, name="manage:round-clock"), {"action": "resume"})
    assert "not paused" in client.get(round_url(event)).content.decode()
    # a bad form: said, nothing changed
    client.post(round_url(event, name="manage:round-clock"), {"action": "stop"})
    assert "Incomplete form" in client.get(round_url(event)).content.decode()
    assert fresh(rnd).paused_at is None
    audit = client.get(reverse("manage:audit", kwargs={"slug": event.slug})).content.decode()
    assert "Round: pause the clock" in audit and "Round: resume the clock" in audit


def test_round_page_in_spanish(client, rnd, staff):
    te.start_round_clock(rnd, perms=ORGANISER)
    te.pause_round_clock(rnd, perms=ORGANISER)
    client.force_login(staff["organiser"])
    html = client.get(round_url(rnd.event), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'data-state="paused"' in html and 'lang="es"' in html


def test_no_buttons_without_the_permission(client, rnd, staff):
    te.start_round_clock(rnd, perms=ORGANISER)
    client.force_login(staff["scorekeeper"])
    html = client.get(round_url(rnd.event)).content.decode()
    assert 'data-state="running"' in html and "Pause the clock" not in html
    response = client.post(round_url(rnd.event, name="manage:round-clock"), {"action": "pause"})
    assert response.status_code == 403
    assert fresh(rnd).paused_at is None


def test_another_events_staff_cannot_pause(client, rnd, staff):
    te.start_round_clock(rnd, perms=ORGANISER)
    client.force_login(staff["other_organiser"])
    response = client.post(round_url(rnd.event, name="manage:round-clock"), {"action": "pause"})
    assert response.status_code == 404
    assert fresh(rnd).paused_at is None


def test_myl_round_page_shows_the_clock(client, db):
    event, _ = make_event(8, preliminary_rounds=3)
    rnd = ss.pair_next_round(event)
    user = UserFactory(username="myl-organiser")
    EventRoleFactory(event=event, user=user, role=Role.ORGANISER)
    client.force_login(user)
    client.post(round_url(event, name="manage:round-start"))
    html = client.get(round_url(event)).content.decode()
    assert 'data-state="running"' in html and "Pause the clock" in html
    matches = rnd.tables.filter(is_bye=False).count()
    assert html.count('data-clock data-state="running"') == 1 + matches
    assert re.search(r"data-clock-time>(50:00|49:5\d)<", html)


# ------------------------------------------------------------------ big screen
def screen(event, live=False):
    name = "events:public-standings-screen-live" if live else "events:public-standings-screen"
    return reverse(name, kwargs={"slug": event.slug})


def test_big_screen_shows_the_clock_and_no_controls(client, rnd, staff):
    event = rnd.event
    services.set_seating_published(rnd, True)
    live = client.get(screen(event, live=True)).content.decode()
    assert "data-clock" not in live  # not started
    te.start_round_clock(rnd, perms=ORGANISER)
    response = client.get(screen(event, live=True))
    live = response.content.decode()
    assert 'data-state="running"' in live and "ends " in live
    assert re.fullmatch(r"\d{13}", response["X-Server-Time"])
    page = client.get(screen(event)).content.decode()
    assert re.search(r'id="screen-live"[^>]*data-clock-now="\d{13}"', page)
    assert "__arbitro-server-now__" not in page and "js/clock.js" in page
    assert "Pause the clock" not in page and "round-clock" not in page
    # an organiser signed in on the projector's laptop sees no control either
    client.force_login(staff["organiser"])
    page = client.get(screen(event)).content.decode()
    assert "Pause the clock" not in page and "/clock/" not in page
    client.logout()
    # a pause shows at once, from the cache too
    te.pause_round_clock(rnd, perms=ORGANISER)
    live = client.get(screen(event, live=True)).content.decode()
    assert 'data-state="paused"' in live and "data-end" not in live.split("screen-round")[1][:400]
    # a table's extension shows by its table, with its minutes
    te.resume_round_clock(rnd, perms=ORGANISER)
    te.add_extension(rnd.tables.get(number=1), 4, client_id=uuid.uuid4(), perms=JUDGE)
    live = client.get(screen(event, live=True)).content.decode()
    assert live.count("data-clock ") == 2 and "+4 min" in live


def test_cached_screen_page_gets_the_time_of_each_response(client, rnd):
    services.set_seating_published(rnd, True)
    te.start_round_clock(rnd, perms=ORGANISER)
    first = client.get(screen(rnd.event)).content.decode()
    stamp = re.search(r'data-clock-now="(\d{13})"', first)[1]
    again = client.get(screen(rnd.event)).content.decode()
    assert re.search(r'data-clock-now="(\d{13})"', again)[1] >= stamp
    # the clock's end, not its time left, is what the cached page keeps
    end = re.search(r'data-end="(\d{13})"', first)[1]
    assert f'data-end="{end}"' in again


def test_big_screen_queries_stay_bounded_with_the_clock(client, rnd, django_assert_max_num_queries):
    services.set_seating_published(rnd, True)
    te.start_round_clock(rnd, perms=ORGANISER)
    te.add_extension(rnd.tables.get(number=1), 4, client_id=uuid.uuid4(), perms=JUDGE)
    with django_assert_max_num_queries(10):
        client.get(screen(rnd.event, live=True))
    with django_assert_max_num_queries(1):
        client.get(screen(rnd.event, live=True))
