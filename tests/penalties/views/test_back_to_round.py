"""After logging an incident from a table (the round page's "Incident" button), the
penalty's page offers "Back to <round>" as its primary button and the table's page
(issue 14); an incident logged without a table does not."""

import pytest
from django.urls import reverse

from events import services as event_services
from events.permissions import Role
from penalties.models import Penalty
from tests.conftest import add_players
from tests.factories import EventRoleFactory, RegistrationFactory, UserFactory
from tests.penalties.services.test_myl_services import myl_event, seat_round

pytestmark = pytest.mark.django_db


def _url(name, event, **kw):
    return reverse(name, kwargs={"slug": event.slug, **kw})


def _log(client, event, data):
    response = client.post(_url("manage:incident-new", event), {**data, "confirm": "1"})
    assert response.status_code == 302
    return response


def test_a_vekn_incident_from_a_table_leads_back_to_the_round(client, event, staff):
    add_players(event, 8)
    rnd = event_services.seat_next_round(event, seed=1)
    table = rnd.tables.order_by("number").first()
    reg = table.seats.first().registration
    client.force_login(staff["judge"])
    # The round page's "Incident" button starts the flow at the table.
    round_page = client.get(_url("manage:round", event, number=1)).content.decode()
    assert _url("manage:table-incident", event, number=1, table_number=table.number) in round_page
    response = _log(client, event, {"reg": reg.pk, "table": table.pk, "code": "3.3"})
    penalty = Penalty.objects.get()
    assert response.url == _url("manage:penalty", event, pk=penalty.pk) + "?from=table"
    page = client.get(response.url).content.decode()
    back = _url("manage:round", event, number=1)
    assert f'<a class="btn" href="{back}">Back to Round 1</a>' in page
    assert _url("manage:table", event, number=1, table_number=table.number) in page
    spanish = client.get(response.url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f'<a class="btn" href="{back}">' in spanish


def test_an_incident_without_a_table_has_no_back_to_round(client, event, staff):
    reg = RegistrationFactory(event=event)
    client.force_login(staff["judge"])
    response = _log(client, event, {"reg": reg.pk, "code": "3.3"})
    assert "?from" not in response.url
    assert "back-to-round" not in client.get(response.url).content.decode()


def test_a_myl_incident_from_a_match_leads_back_to_the_round(client):
    event = myl_event(slug="myl-back")
    judge = UserFactory()
    EventRoleFactory(event=event, user=judge, role=Role.JUDGE)
    regs = [RegistrationFactory(event=event) for _ in range(4)]
    rnd = seat_round(event, regs, 1)
    table = rnd.tables.order_by("number").first()
    reg = table.seats.first().registration
    client.force_login(judge)
    response = _log(client, event, {"reg": reg.pk, "table": table.pk, "code": "2.1"})
    assert response.url.endswith("?from=table")
    page = client.get(response.url).content.decode()
    back = _url("manage:round", event, number=1)
    assert f'<a class="btn" href="{back}">Back to Round 1</a>' in page
    assert _url("manage:table", event, number=1, table_number=table.number) in page
