"""The pending-items badges of the navigation (issue 14, ``penalties.badges``): the
penalties the head judge has to confirm on the event's staff tabs; the sanctions to
confirm and written appeals to decide next to the authority's link in the top bar. Only
for the users holding the role; at most two queries."""

import datetime as dt
import uuid

import pytest
from django.test import RequestFactory
from django.urls import reverse

from events.models import AuthorityRole
from events.permissions import Permission as P
from events.permissions import Role
from penalties.badges import pending_for
from penalties.models import Appeal, Penalty, Sanction
from tests.factories import EventFactory, EventRoleFactory, RegistrationFactory, UserFactory

pytestmark = pytest.mark.django_db


def _penalty(event, status, level="caution"):
    reg = RegistrationFactory(event=event)
    return Penalty.objects.create(
        event=event,
        registration=reg,
        person=reg.person,
        client_id=uuid.uuid4(),
        ruleset=event.ruleset,
        infraction="1.1",
        guide_level=level,
        level=level,
        baseline=level,
        status=status,
    )


@pytest.fixture
def world(db):
    event = EventFactory(slug="open-2026")
    head_judge, judge = UserFactory(username="hj"), UserFactory(username="j")
    EventRoleFactory(event=event, user=head_judge, role=Role.HEAD_JUDGE)
    EventRoleFactory(event=event, user=judge, role=Role.JUDGE)
    for _ in range(3):
        _penalty(event, Penalty.Status.PENDING)
    _penalty(event, Penalty.Status.CONFIRMED)
    myl = EventFactory(slug="myl-cup", ruleset="myl", preset="myl-2026")
    confirmed = _penalty(myl, Penalty.Status.CONFIRMED, level="suspension")
    Sanction.objects.create(
        person=confirmed.person,
        kind="suspension",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2999, 1, 1),
        penalty=confirmed,
        ruleset="myl",
        organisation=myl.organisation,
        reason="Aggression",
    )
    Appeal.objects.create(penalty=confirmed, kind=Appeal.Kind.WRITTEN, statement="Unfair")
    manager = UserFactory(username="op-manager")
    AuthorityRole.objects.create(user=manager, ruleset="myl")
    return {"event": event, "hj": head_judge, "judge": judge, "manager": manager}


def manage(name, event):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug})


def test_the_head_judge_sees_the_penalties_to_confirm(client, world):
    client.force_login(world["hj"])
    page = client.get(manage("penalties", world["event"])).content.decode()
    assert "(3 penalties to confirm)" in page
    assert 'class="badge warn count" aria-hidden="true">3</span>' in page
    spanish = client.get(manage("dashboard", world["event"]), HTTP_ACCEPT_LANGUAGE="es")
    assert 'aria-hidden="true">3</span>' in spanish.content.decode()


def test_a_judge_without_the_role_sees_no_badge(client, world):
    client.force_login(world["judge"])
    page = client.get(manage("penalties", world["event"])).content.decode()
    assert "penalties to confirm" not in page and "authority/sanctions" not in page


def test_the_organised_play_manager_sees_sanctions_and_appeals(client, world):
    client.force_login(world["manager"])
    page = client.get(reverse("my-page")).content.decode()
    assert reverse("authority-sanctions") in page
    assert "(1 sanction to confirm)" in page and "(1 written appeal to decide)" in page
    client.force_login(world["hj"])
    assert "sanction to confirm" not in client.get(reverse("my-page")).content.decode()


def test_no_badge_for_a_confirmed_sanction_or_a_decided_appeal(world):
    Sanction.objects.update(confirmed_at=dt.datetime(2026, 1, 2, tzinfo=dt.UTC))
    Appeal.objects.update(decision="confirmed", decision_reason="Fair")
    pending = pending_for(world["manager"])
    assert (pending.sanctions, pending.appeals, pending.authority) == (0, 0, True)


@pytest.mark.parametrize("who", ["hj", "manager", "both", "judge"])
def test_the_counts_take_at_most_two_queries(world, who, django_assert_max_num_queries):
    user = world["manager"] if who in ("manager", "both") else world[who]
    if who == "both":
        EventRoleFactory(event=world["event"], user=user, role=Role.HEAD_JUDGE)
    perms = {P.CONFIRM_PENALTIES} if who in ("hj", "both") else set()
    with django_assert_max_num_queries(2):
        pending = pending_for(user, world["event"], perms)
    assert pending.penalties == (3 if perms else 0)
    assert pending.for_authority == (2 if who in ("manager", "both") else 0)


def test_anonymous_visitors_cost_no_query(world, django_assert_max_num_queries):
    request = RequestFactory().get("/")
    request.user = type("Anon", (), {"is_authenticated": False})()
    with django_assert_max_num_queries(0):
        assert pending_for(request.user).penalties == 0
