"""Calling a judge, the pages (events/views_judge_calls.py; docs/players.md "Calling a
judge"): the player's button and the state in their seat box, the judges' queue polled
by htmx (a bounded number of queries), taking and closing, for both rulesets."""

import datetime as dt

import pytest
from django.urls import reverse

from events import judge_calls
from events.models import AuditLog, EventRole, JudgeCall
from events.permissions import Role
from tests.events.services.test_judge_calls import players_of, seated_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def judge_of(event, username, **names):
    user = UserFactory(username=username, **names)
    EventRole.objects.create(event=event, user=user, role=Role.JUDGE)
    return user


def manage(name, event):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug})


@pytest.mark.parametrize("ruleset", ["vekn", "myl"])
def test_a_player_calls_and_sees_a_judge_coming(client, ruleset):
    event, rnd, users = seated_event(ruleset)
    me = players_of(rnd, 1, users)[0]
    client.force_login(me)
    page = client.get(reverse("my-page")).content.decode()
    assert "Call a judge" in page and 'value="rules"' in page
    assert ('value="conduct"' in page) == (ruleset == "myl")
    call_url = reverse("events:call-judge", kwargs={"slug": event.slug})
    for _ in range(2):  # a double tap
        response = client.post(call_url, {"reason": "rules", "note": "Card timing"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("my-page")
    assert JudgeCall.objects.count() == 1
    assert "Your table already called a judge." in response.content.decode()
    box = client.get(reverse("events:my-seat", kwargs={"slug": event.slug})).content.decode()
    assert "waiting for one" in box
    judge = judge_of(event, "j1", first_name="Ana", last_name="Pérez")
    judge_calls.take_call(
        event, JudgeCall.objects.get().pk, judge, perms=frozenset({"log_penalties"})
    )
    box = client.get(reverse("events:my-seat", kwargs={"slug": event.slug})).content.decode()
    assert "A judge is coming: Ana Pérez." in box


def test_a_bad_reason_or_a_long_note_is_refused(client):
    event, rnd, users = seated_event()
    client.force_login(players_of(rnd, 1, users)[0])
    call_url = reverse("events:call-judge", kwargs={"slug": event.slug})
    client.post(call_url, {"reason": "nonsense"})
    client.post(call_url, {"reason": "rules", "note": "x" * 201})
    assert not JudgeCall.objects.exists()


def test_anonymous_and_strangers_cannot_call(client):
    event, rnd, users = seated_event()
    call_url = reverse("events:call-judge", kwargs={"slug": event.slug})
    response = client.post(call_url, {"reason": "rules"})
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(UserFactory(username="stranger"))
    assert client.post(call_url, {"reason": "rules"}).status_code == 404
    assert not JudgeCall.objects.exists()


@pytest.mark.parametrize("ruleset", ["vekn", "myl"])
def test_the_queue_bounded_queries_take_and_close(client, ruleset, django_assert_max_num_queries):
    event, rnd, users = seated_event(ruleset)
    for number in (1, 2):
        judge_calls.call_judge(event, players_of(rnd, number, users)[0], "rules", "help")
    ana = judge_of(event, "ana", first_name="Ana", last_name="Pérez")
    bruno = judge_of(event, "bruno")
    client.force_login(ana)
    with django_assert_max_num_queries(8):
        page = client.get(manage("judge-calls", event)).content.decode()
    assert page.count('class="card judge-call"') == 2 and 'hx-trigger="every 5s"' in page
    judge_calls.call_judge(event, players_of(rnd, 1, users)[1], "dispute")  # joins table 1
    with django_assert_max_num_queries(8):
        fragment = client.get(manage("judge-calls", event), headers={"hx-request": "true"})
    html = fragment.content.decode()
    assert "<h2>" not in html and html.count('class="card judge-call"') == 2
    first = JudgeCall.objects.get(table_number=1)
    page = client.post(manage("judge-call-take", event), {"call": first.pk}, follow=True)
    html = page.content.decode()
    incident = reverse(
        "manage:table-incident",
        kwargs={"slug": event.slug, "number": rnd.number, "table_number": 1},
    )
    assert "Taken by Ana Pérez" in html and incident in html
    client.force_login(bruno)
    page = client.post(manage("judge-call-take", event), {"call": first.pk}, follow=True)
    assert "Already taken by Ana Pérez." in page.content.decode()
    first.refresh_from_db()
    assert first.taken_by == ana
    client.post(manage("judge-call-close", event), {"call": first.pk})
    first.refresh_from_db()
    assert first.closed_at is not None
    assert client.get(manage("judge-calls", event)).content.decode().count('judge-call"') == 1
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {judge_calls.CREATED, judge_calls.TAKEN, judge_calls.CLOSED} <= actions


def test_the_round_page_links_the_queue_and_shows_the_wait(client):
    event, rnd, users = seated_event()
    call, _ = judge_calls.call_judge(event, players_of(rnd, 1, users)[0], "time")
    judge = judge_of(event, "j")
    judge_calls.take_call(
        event,
        call.pk,
        judge,
        perms=frozenset({"log_penalties"}),
        now=call.created_at + dt.timedelta(seconds=125),
    )
    client.force_login(judge)
    page = client.get(
        reverse("manage:round", kwargs={"slug": event.slug, "number": rnd.number})
    ).content.decode()
    assert manage("judge-calls", event) in page and "waited 2:05 for a judge" in page


def test_a_scorekeeper_sees_no_queue(client):
    event, _rnd, _users = seated_event()
    keeper = UserFactory(username="keeper")
    EventRole.objects.create(event=event, user=keeper, role=Role.SCOREKEEPER)
    client.force_login(keeper)
    assert client.get(manage("judge-calls", event)).status_code == 403


def test_the_myl_match_card_shows_the_wait_by_its_time_button(client):
    event, rnd, users = seated_event("myl")
    call, _ = judge_calls.call_judge(event, players_of(rnd, 1, users)[0], "conduct")
    judge = judge_of(event, "j")
    judge_calls.take_call(
        event,
        call.pk,
        judge,
        perms=frozenset({"log_penalties"}),
        now=call.created_at + dt.timedelta(seconds=61),
    )
    client.force_login(judge)
    page = client.get(
        reverse("manage:round", kwargs={"slug": event.slug, "number": rnd.number})
    ).content.decode()
    extension = reverse(
        "manage:table-extension",
        kwargs={"slug": event.slug, "number": rnd.number, "table_number": 1},
    )
    assert "waited 1:01 for a judge" in page and extension in page
    assert client.get(extension).status_code == 200
