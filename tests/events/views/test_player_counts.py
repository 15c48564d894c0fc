"""Issue 14: one event showed 19, 16 and 17 players on three pages. The counts are now
defined once (``events.player_counts``, loaded by ``events.headcount``) and every page that
shows one labels it: the staff overview (VEKN and MyL), the public event page and the
home page's list agree for an event with drops, a disqualification, a non-competing
person and a late registration."""

import re

import pytest
from django.urls import reverse

from events import headcount, player_counts, services, swiss_services
from events.models import Event, Registration
from events.player_counts import PlayerCounts
from penalties import services as penalty_services
from tests.conftest import add_players
from tests.events.services.test_swiss_services import make_event
from tests.factories import EventRoleFactory, PersonFactory, RegistrationFactory, UserFactory

S = Registration.Status
EXPECTED = PlayerCounts(
    registered=12,
    checked_in=9,
    playing=8,
    late=1,
    not_checked_in=1,
    dropped=1,
    disqualified=1,
    non_competing=1,
)


def test_the_pure_counts_know_every_stored_status():
    assert set(player_counts.STATUSES) == set(S.values)


def _eventful(event, regs, seat_next_round, staff_user):
    """10 checked-in players and one who never checked in; after round 1: one drops, one
    is disqualified, a spectator is registered to receive a penalty, a late arrival is
    checked in (plays from round 2)."""
    RegistrationFactory(event=event, person=PersonFactory(name="Never Came"), status=S.REGISTERED)
    seat_next_round(event, seed=1)
    services.set_status(regs[0], S.DROPPED, staff_user)
    Registration.objects.filter(pk=regs[1].pk).update(status=S.DISQUALIFIED)
    penalty_services.add_non_competing(event, "Spectator", "", staff_user)
    late = services.register(
        event,
        PersonFactory(name="Late Arrival"),
        staff_user,
        check_in=True,
    )
    assert late.first_round == 2
    return event


def _labelled(html: str) -> dict[str, int]:
    block = re.search(r'<dl class="counts".*?</dl>', html, re.S).group(0)
    return {k: int(v) for k, v in re.findall(r"<dt>([^<]+)</dt><dd>(\d+)</dd>", block)}


def _agree(client, event, staff_user):
    counts = headcount.player_counts(event)
    assert counts == EXPECTED
    client.force_login(staff_user)
    dashboard = client.get(reverse("manage:dashboard", kwargs={"slug": event.slug}))
    assert _labelled(dashboard.content.decode()) == {
        "Registered": 12,
        "Playing": 8,
        "Checked in": 9,
        "Not checked in": 1,
        "Late, joining later": 1,
        "Dropped": 1,
        "Disqualified": 1,
        "Non-competing (not players)": 1,
    }
    client.logout()
    public = client.get(event.get_absolute_url()).content.decode()
    assert "12 players registered." in public
    assert _labelled(public) == {
        "Registered": 12,
        "Playing": 8,
        "Late, joining later": 1,
        "Dropped": 1,
        "Disqualified": 1,
    }
    home = client.get(reverse("home")).content.decode()
    assert f"{event.name}</strong></a> " in home
    listed = re.search(re.escape(event.name) + r"</strong></a>.*?(\d+) players", home, re.S)
    assert int(listed.group(1)) == counts.registered
    listed = headcount.with_registered_players(Event.objects.filter(pk=event.pk)).get()
    assert listed.players == counts.registered


def test_vekn_pages_agree(client, event, staff):
    regs = add_players(event, 10)
    _eventful(event, regs, services.seat_next_round, staff["organiser"])
    _agree(client, event, staff["organiser"])


@pytest.mark.django_db
def test_mitos_y_leyendas_pages_agree(client):
    event, regs = make_event(10)
    boss = UserFactory(username="boss")
    EventRoleFactory(event=event, user=boss, role="organiser")
    _eventful(event, regs, swiss_services.pair_next_round, boss)
    _agree(client, event, boss)
