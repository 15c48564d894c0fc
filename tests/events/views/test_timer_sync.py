"""One round timer on every device (docs/players.md "The round timer"): the player's seat
box (events/views_self_service.py) and the judge's tablet snapshot (events/offline.py)
hand static/js/clock.js the same end instants (the round's, a table's with its time
extensions), the paused state and the server's time."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from events import round_clock, services
from events.models import Round, Seat
from penalties.models import TimeExtension
from tests.conftest import add_players
from tests.factories import PersonFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(event, staff):
    """``event`` (120-minute rounds) with Ana and 7 others seated in round 1, published,
    its clock started 30 minutes ago; Ana's table got 4 minutes of time extension."""
    ana = UserFactory(username="ana")
    PersonFactory(name="Ana", user=ana, vekn_number="")
    add_players(event, 7)
    services.register(event, ana.person, check_in=True)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    started = timezone.now().replace(microsecond=0) - timedelta(minutes=30)
    Round.objects.filter(pk=rnd.pk).update(started_at=started)
    seat = Seat.objects.select_related("table").get(round=rnd, registration__person__user=ana)
    TimeExtension.objects.create(table=seat.table, minutes_spent=4, minutes=4)
    return {
        "event": event,
        "round": rnd,
        "ana": ana,
        "table": seat.table,
        "started": started,
        "staff": staff,
    }


def ms(moment) -> int:
    return round_clock.epoch_ms(moment)


def seat_url(event):
    return reverse("events:my-seat", kwargs={"slug": event.slug})


def tablet_data(client, floor):
    client.force_login(floor["staff"]["judge"])
    url = reverse("manage:tablet-data", kwargs={"slug": floor["event"].slug})
    return client.get(url).json()


def test_the_phone_gets_its_tables_end_with_the_extension(client, floor):
    event, started = floor["event"], floor["started"]
    client.force_login(floor["ana"])
    before = ms(timezone.now())
    response = client.get(seat_url(event))
    html = response.content.decode()
    end = started + timedelta(minutes=event.round_minutes + 4)
    assert f'data-state="running" data-end="{ms(end)}"' in html
    assert "+4 min" in html and "data-left" not in html
    assert before <= int(response[round_clock.SERVER_TIME_HEADER]) <= ms(timezone.now())


def test_the_phones_box_is_unchanged_as_seconds_pass(client, floor, monkeypatch):
    """Its bytes hold the end instant, not the seconds left: a poll a minute later is an
    empty 204, still carrying the server's time for the offset."""
    client.force_login(floor["ana"])
    first = client.get(seat_url(floor["event"]))
    version = re.search(r"\?v=([0-9a-f]+)", first.content.decode())[1]
    later = timezone.now() + timedelta(minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    again = client.get(seat_url(floor["event"]), {"v": version})
    assert again.status_code == 204
    assert int(again[round_clock.SERVER_TIME_HEADER]) == ms(later)


def test_a_paused_round_shows_paused_with_the_frozen_time_left(client, floor):
    event, started = floor["event"], floor["started"]
    Round.objects.filter(pk=floor["round"].pk).update(paused_at=started + timedelta(minutes=20))
    client.force_login(floor["ana"])
    html = client.get(seat_url(event)).content.decode()
    # 120 + 4 minutes, 20 of them played when the pause began: 104:00 left, frozen.
    assert f'data-state="paused" data-left="{104 * 60}"' in html and "data-end" not in html
    snap = tablet_data(client, floor)
    mine = next(t for t in snap["tables"] if t["number"] == floor["table"].number)
    assert mine["clock"] == {
        "state": "paused",
        "end": None,
        "left": 104 * 60,
        "extension_minutes": 4,
    }
    assert snap["round"]["clock"]["state"] == "paused"
    assert snap["round"]["clock"]["left"] == 100 * 60


def test_the_tablet_gets_the_same_instants_as_the_phone(client, floor):
    event, started = floor["event"], floor["started"]
    before = ms(timezone.now())
    snap = tablet_data(client, floor)
    round_end = ms(started + timedelta(minutes=event.round_minutes))
    assert snap["round"]["clock"]["end"] == round_end
    assert snap["round"]["clock"]["state"] == "running"
    assert before <= snap["server_now"] <= ms(timezone.now())
    ends = {
        t["number"]: (t["clock"]["end"], t["clock"]["extension_minutes"]) for t in snap["tables"]
    }
    extended = floor["table"].number
    assert ends[extended] == (round_end + 4 * 60_000, 4)
    assert all(ends[n] == (round_end, 0) for n in ends if n != extended)
    client.force_login(floor["ana"])
    html = client.get(seat_url(event)).content.decode()
    assert f'data-end="{ends[extended][0]}"' in html


def test_before_the_start_the_tablet_has_no_countdown(client, floor):
    Round.objects.filter(pk=floor["round"].pk).update(started_at=None)
    TimeExtension.objects.all().delete()
    snap = tablet_data(client, floor)
    assert snap["round"]["clock"] == {
        "state": "not_started",
        "end": None,
        "left": None,
        "extension_minutes": 0,
    }


def test_an_unchanged_box_is_served_from_the_cache_until_the_clock_changes(
    client, floor, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    """The poll of 300 phones (docs/performance.md): a box already built costs the
    session's, the account's and the registration's queries only; pausing the clock, a
    judge call and the clock's end make it new."""
    from events import judge_calls
    from events.permissions import ROLE_PERMISSIONS, Role
    from penalties import time_extensions as te

    event = floor["event"]
    client.force_login(floor["ana"])
    first = client.get(seat_url(event))
    version = re.search(r"\?v=([0-9a-f]+)", first.content.decode())[1]
    with django_assert_max_num_queries(3):
        assert client.get(seat_url(event), {"v": version}).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        te.pause_round_clock(floor["round"], perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    paused = client.get(seat_url(event), {"v": version})
    assert paused.status_code == 200 and 'data-state="paused"' in paused.content.decode()
    version = re.search(r"\?v=([0-9a-f]+)", paused.content.decode())[1]
    with django_capture_on_commit_callbacks(execute=True):
        judge_calls.call_judge(event, floor["ana"], "rules")
    called = client.get(seat_url(event), {"v": version})
    assert called.status_code == 200 and "called a judge" in called.content.decode()


def test_a_cached_running_box_turns_over_at_the_end(client, floor, monkeypatch):
    event, started = floor["event"], floor["started"]
    client.force_login(floor["ana"])
    first = client.get(seat_url(event))
    version = re.search(r"\?v=([0-9a-f]+)", first.content.decode())[1]
    after_end = started + timedelta(minutes=event.round_minutes + 4, seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: after_end)
    over = client.get(seat_url(event), {"v": version})
    assert over.status_code == 200 and 'data-state="over"' in over.content.decode()
