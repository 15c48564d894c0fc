"""events/views_deck_checks.py: a round's deck checks page (docs/decks-pages.md, "Deck
checks"): the head judge draws or chooses players, a judge sees the registered list and
records the outcome, a mismatch opens the incident flow with JG §3.1.2 pre-filled, the
round page marks the tables being checked."""

from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import reverse

from events import deck_check_services as dc
from events import deck_services, services
from events.audit import entries_about
from events.models import DeckCheck
from events.permissions import ROLE_PERMISSIONS, Role
from tests.events.services.test_deck_services import LEGAL
from tests.factories import PersonFactory, RegistrationFactory

HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


@pytest.fixture
def rnd(event):
    regs = [
        RegistrationFactory(event=event, person=PersonFactory(name=f"Player {i}")) for i in range(8)
    ]
    deck_services.enter_for_player(regs[0], LEGAL, None, HEAD)
    return services.seat_next_round(event, seed=1)


def test_the_head_judge_draws_players_and_sees_their_lists(client, staff, event, rnd):
    client.force_login(staff["head_judge"])
    page = url("manage:deck-checks", event, number=1)
    response = client.post(url("manage:deck-checks-choose", event, number=1), {"count": "8"})
    assert response.status_code == 302 and response["Location"] == page
    checks = list(DeckCheck.objects.filter(round=rnd))
    assert len(checks) == 8 and len({c.seed for c in checks}) == 1
    html = client.get(page).content.decode()
    assert "Player 0" in html and "Theo Bell" in html and "Blood Doll" in html
    assert f"seed {checks[0].seed}" in html
    assert "No registered list to count against." in html  # the others have none
    assert "Does not match" in html


def test_choosing_by_hand(client, staff, event, rnd):
    client.force_login(staff["head_judge"])
    reg = rnd.seats.first().registration
    client.post(url("manage:deck-checks-choose", event, number=1), {"registration": reg.pk})
    (check,) = DeckCheck.objects.all()
    assert check.registration == reg and check.chosen_by == "hand"


@pytest.mark.parametrize("data", [{}, {"count": "2", "registration": "1"}, {"count": "0"}])
def test_a_bad_choice_is_an_error_message(client, staff, event, rnd, data):
    client.force_login(staff["head_judge"])
    response = client.post(url("manage:deck-checks-choose", event, number=1), data, follow=True)
    assert response.status_code == 200 and not DeckCheck.objects.exists()
    assert list(response.context["messages"])


def test_a_floor_judge_sees_the_page_without_the_choice(client, staff, event, rnd):
    client.force_login(staff["judge"])
    html = client.get(url("manage:deck-checks", event, number=1)).content.decode()
    assert "Choose players" not in html


def test_a_match_is_recorded(client, staff, event, rnd):
    (check,) = dc.choose_random(rnd, 1, None, HEAD, seed=3)
    client.force_login(staff["judge"])
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk), {"outcome": "match"}
    )
    assert response["Location"] == url("manage:deck-checks", event, number=1)
    check.refresh_from_db()
    assert check.outcome == "match" and check.judge == staff["judge"]


def test_a_mismatch_opens_the_incident_flow_with_3_1_2(client, staff, event, rnd):
    reg = rnd.seats.first().registration
    check = dc.choose_by_hand(rnd, reg, None, HEAD)
    client.force_login(staff["judge"])
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk),
        {"outcome": "mismatch", "note": "3 Blood Doll, list says 20"},
    )
    target = urlparse(response["Location"])
    assert target.path == url("manage:incident-new", event)
    seat = rnd.seats.get(registration=reg)
    assert parse_qs(target.query) == {
        "reg": [str(reg.pk)],
        "code": ["3.1.2"],
        "table": [str(seat.table_id)],
    }
    check.refresh_from_db()
    assert check.outcome == "mismatch" and check.note == "3 Blood Doll, list says 20"
    assert entries_about(check).filter(action="deck_check.recorded").exists()
    # The incident flow takes the pre-filled infraction: its questions, not the picker.
    html = client.get(response["Location"]).content.decode()
    assert "Illegal Main Deck" in html and reg.person.name in html
    assert "Missed Mandatory Effect" not in html  # not the list of every infraction


def test_a_check_of_another_round_is_404(client, staff, event, rnd):
    check = dc.choose_by_hand(rnd, rnd.seats.first().registration, None, HEAD)
    client.force_login(staff["judge"])
    response = client.post(
        url("manage:deck-check-outcome", event, number=2, pk=check.pk), {"outcome": "match"}
    )
    assert response.status_code == 404


def test_the_round_page_marks_tables_with_a_check_in_progress(client, staff, event, rnd):
    client.force_login(staff["judge"])
    page = url("manage:round", event, number=1)
    html = client.get(page).content.decode()
    assert "deck check in progress" not in html
    assert url("manage:deck-checks", event, number=1) in html
    check = dc.choose_by_hand(rnd, rnd.seats.first().registration, None, HEAD)
    assert client.get(page).content.decode().count("deck check in progress") == 1
    dc.record_outcome(check, "match", None, HEAD)
    assert "deck check in progress" not in client.get(page).content.decode()


def test_the_page_runs_bounded_queries(client, staff, event, rnd, django_assert_max_num_queries):
    for seat in rnd.seats.all():
        dc.choose_by_hand(rnd, seat.registration, None, HEAD)
    client.force_login(staff["head_judge"])
    with django_assert_max_num_queries(16):
        assert client.get(url("manage:deck-checks", event, number=1)).status_code == 200


def test_a_myl_mismatch_opens_the_deck_registration_infraction(client, db):
    from events import swiss_services
    from tests.events.services.test_swiss_services import make_event as make_myl_event
    from tests.factories import EventRoleFactory, UserFactory

    myl, regs = make_myl_event(6)
    judge = UserFactory(username="myl-judge")
    EventRoleFactory(event=myl, user=judge, role=Role.HEAD_JUDGE)
    rnd = swiss_services.pair_next_round(myl, seed=1)
    check = dc.choose_by_hand(rnd, rnd.seats.first().registration, None, HEAD)
    client.force_login(judge)
    response = client.post(
        url("manage:deck-check-outcome", myl, number=1, pk=check.pk), {"outcome": "mismatch"}
    )
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["code"] == ["3.3.2"]  # conduct rules §3.3.2, not VEKN JG §3.1.2
    assert client.get(url("manage:deck-checks", myl, number=1)).status_code == 200
    round_page = client.get(url("manage:round", myl, number=1)).content.decode()
    assert url("manage:deck-checks", myl, number=1) in round_page
