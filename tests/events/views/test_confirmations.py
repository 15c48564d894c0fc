"""The confirmation step of one-tap actions that are hard to undo (issue 14): a drop and
approving or reopening the results answer with a confirmation page until the form sends
``confirm=1``; with it they act as before."""

import pytest
from django.urls import reverse

from events import services
from events.models import Event, Registration, Seat
from events.permissions import Role
from penalties.models import Penalty
from tests.conftest import add_players
from tests.events.services.test_swiss_services import make_event, play_swiss
from tests.factories import EventRoleFactory, RegistrationFactory, UserFactory

pytestmark = pytest.mark.django_db


def manage(name, event, **kw):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug, **kw})


def text(response) -> str:
    return response.content.decode()


def test_a_drop_asks_first_with_the_consequences(client, event, staff):
    reg = RegistrationFactory(event=event, status=Registration.Status.CHECKED_IN)
    client.force_login(staff["organiser"])
    url = manage("player-status", event, reg_id=reg.pk)
    for _ in range(2):  # a double tap only shows the page again
        response = client.post(url, {"status": "dropped"})
        assert response.status_code == 200
        reg.refresh_from_db()
        assert reg.status == Registration.Status.CHECKED_IN
    page = text(response)
    assert f"Drop {reg.person.name}?" in page and "TR §3.1.4" in page
    assert 'name="confirm" value="1"' in page and 'name="status" value="dropped"' in page
    assert manage("players", event) in page  # cancel
    response = client.post(url, {"status": "dropped", "confirm": "1"})
    assert response.status_code == 302
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DROPPED


def test_check_in_needs_no_confirmation(client, event, staff):
    reg = RegistrationFactory(event=event, status=Registration.Status.REGISTERED)
    client.force_login(staff["organiser"])
    assert client.post(manage("player-status", event, reg_id=reg.pk), {"status": "checked_in"})
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN


def test_an_htmx_drop_gets_the_card_in_the_row(client, event, staff):
    reg = RegistrationFactory(event=event, status=Registration.Status.CHECKED_IN)
    client.force_login(staff["organiser"])
    url = manage("player-status", event, reg_id=reg.pk)
    response = client.post(url, {"status": "dropped"}, HTTP_HX_REQUEST="true")
    card = text(response)
    assert response.status_code == 200 and "<html" not in card
    assert f'id="confirm-{reg.pk}"' in card and f'hx-target="#confirm-{reg.pk}"' in card
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    row = client.post(url, {"status": "dropped", "confirm": "1"}, HTTP_HX_REQUEST="true")
    assert f'id="reg-{reg.pk}"' in text(row)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DROPPED


def test_a_myl_drop_names_its_own_consequences(client):
    event, regs = make_event(8)
    organiser = UserFactory()
    EventRoleFactory(event=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    response = client.post(manage("player-status", event, reg_id=regs[0].pk), {"status": "dropped"})
    assert response.status_code == 200
    assert "not paired in any further round" in text(response)
    assert "TR §3.1.4" not in text(response)


def test_the_drop_page_is_in_spanish(client, event, staff):
    reg = RegistrationFactory(event=event)
    client.force_login(staff["organiser"])
    response = client.post(
        manage("player-status", event, reg_id=reg.pk),
        {"status": "dropped"},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 200 and 'lang="es"' in text(response)


def test_approving_and_reopening_ask_first(client, event, staff):
    client.force_login(staff["head_judge"])
    url = manage("approve-results", event)
    response = client.post(url, {"approved": "1"})
    assert response.status_code == 200
    assert "Every score sheet and result is locked" in text(response)
    assert 'name="approved" value="1"' in text(response)
    assert not Event.objects.get(pk=event.pk).results_approved
    assert client.post(url, {"approved": "1", "confirm": "1"}).status_code == 302
    assert Event.objects.get(pk=event.pk).results_approved
    response = client.post(url, {"approved": "0"})
    assert response.status_code == 200 and "can be changed again" in text(response)
    assert Event.objects.get(pk=event.pk).results_approved
    assert client.post(url, {"approved": "0", "confirm": "1"}).status_code == 302
    assert not Event.objects.get(pk=event.pk).results_approved


def test_asking_for_what_is_already_so_needs_no_confirmation(client, event, staff):
    client.force_login(staff["head_judge"])
    assert client.post(manage("approve-results", event), {}).status_code == 302
    reg = RegistrationFactory(event=event, status=Registration.Status.DROPPED)
    client.force_login(staff["organiser"])
    url = manage("player-status", event, reg_id=reg.pk)
    assert client.post(url, {"status": "dropped"}).status_code == 302


def test_seating_a_round_again_asks_first(client, event, staff):
    add_players(event, 8)
    rnd = services.seat_next_round(event)
    before = sorted(Seat.objects.filter(table__round=rnd).values_list("pk", flat=True))
    client.force_login(staff["organiser"])
    url = manage("round-reseat", event, number=rnd.number)
    response = client.post(url)
    assert response.status_code == 200 and "Seat Round 1 again?" in text(response)
    assert sorted(Seat.objects.filter(table__round=rnd).values_list("pk", flat=True)) == before
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert sorted(Seat.objects.filter(table__round=rnd).values_list("pk", flat=True)) != before


def test_starting_the_final_asks_first(client, played_event, staff):
    event = played_event
    client.force_login(staff["organiser"])
    url = manage("final", event)
    response = client.post(url, {"action": "start"})
    assert response.status_code == 200 and "Start the final?" in text(response)
    assert 'name="action" value="start"' in text(response)
    assert not event.rounds.filter(is_final=True).exists()
    # Confirmed, the service answers (here: the ties for the top 5 need a toss first).
    response = client.post(url, {"action": "start", "confirm": "1"}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert response.redirect_chain and said == ["Ties for the top 5 need a toss first."]


def test_starting_the_top_cut_asks_first_then_not_for_the_next_stage(client):
    event, regs = make_event(8, preliminary_rounds=2, top_cut=4)
    organiser = UserFactory()
    EventRoleFactory(event=event, user=organiser, role=Role.ORGANISER)
    play_swiss(event)
    client.force_login(organiser)
    url = manage("myl-top-cut", event)
    response = client.post(url)
    assert response.status_code == 200 and "Start the top 4?" in text(response)
    assert not event.rounds.filter(is_top_cut=True).exists()
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert event.rounds.filter(is_top_cut=True).count() == 1


def test_approving_warns_of_penalties_still_pending(client, event, staff):
    reg = RegistrationFactory(event=event)
    Penalty.objects.create(
        event=event,
        registration=reg,
        person=reg.person,
        infraction="3.3",
        guide_level="caution",
        level="caution",
        baseline="caution",
        status=Penalty.Status.PENDING,
    )
    client.force_login(staff["head_judge"])
    response = client.post(manage("approve-results", event), {"approved": "1"})
    assert "1 penalty is still pending confirmation" in text(response)
