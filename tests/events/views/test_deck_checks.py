"""events/views_deck_checks.py: a round's deck checks page (docs/decks.md, "Deck
checks"): the head judge draws or chooses players, a judge sees the registered list and
records the outcome, a mismatch opens the incident flow pre-filled (JG §3.1.1 for an
illegal registered list, §3.1.2 for a legal one; MyL §3.3.2, §3.3.1, §3.3.3), the round
page marks the tables being checked (docs/decks.md "Deck checks")."""

from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import reverse

from events import deck_check_services as dc
from events import deck_services, services
from events.audit import entries_about
from events.models import DeckCheck
from events.permissions import ROLE_PERMISSIONS, Role
from tests.events.services.test_deck_services import LEGAL, MYL_LEGAL, TYPO
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
    reg = rnd.seats.get(registration__person__name="Player 0").registration  # a legal list
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
        "description": [
            "Deck check, round 1: the deck does not match its legal registered list."
            " 3 Blood Doll, list says 20"
        ],
    }
    check.refresh_from_db()
    assert check.outcome == "mismatch" and check.note == "3 Blood Doll, list says 20"
    assert entries_about(check).filter(action="deck_check.recorded").exists()
    # The incident flow takes the pre-filled infraction: its questions, not the picker.
    html = client.get(response["Location"]).content.decode()
    assert "Illegal Main Deck" in html and reg.person.name in html
    assert "the deck does not match its legal registered list" in html  # the description
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
    assert query["description"] == ["Deck check, round 1: no registered list."]
    assert client.get(url("manage:deck-checks", myl, number=1)).status_code == 200
    round_page = client.get(url("manage:round", myl, number=1)).content.decode()
    assert url("manage:deck-checks", myl, number=1) in round_page


def test_an_illegal_registered_list_opens_3_1_1_with_its_problems(client, staff, event, rnd):
    reg = rnd.seats.get(registration__person__name="Player 1").registration
    deck_services.enter_for_player(reg, TYPO, None, HEAD, reason="typo at registration")
    check = dc.choose_by_hand(rnd, reg, None, HEAD)
    client.force_login(staff["judge"])
    page = client.get(url("manage:deck-checks", event, number=1)).content.decode()
    assert "This registered list is illegal: a failed check opens §3.1.1." in page
    assert "Deflecshun" in page  # the problem, named
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk), {"outcome": "mismatch"}
    )
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["code"] == ["3.1.1"]  # JG §3.1.1 Illegal Decklist, not §3.1.2
    assert query["description"][0].startswith(
        "Deck check, round 1: the registered list is illegal: "
    )
    assert "Deflecshun" in query["description"][0]
    html = client.get(response["Location"]).content.decode()
    assert "Illegal Decklist" in html and "irreconcilable" in html  # its question is asked
    assert "Deflecshun" in html


def test_a_missing_list_opens_3_1_1(client, staff, event, rnd):
    reg = rnd.seats.get(registration__person__name="Player 2").registration
    check = dc.choose_by_hand(rnd, reg, None, HEAD)
    client.force_login(staff["judge"])
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk), {"outcome": "mismatch"}
    )
    assert parse_qs(urlparse(response["Location"]).query)["code"] == ["3.1.1"]


def test_a_vekn_check_offers_no_myl_findings(client, staff, event, rnd):
    reg = rnd.seats.get(registration__person__name="Player 0").registration
    check = dc.choose_by_hand(rnd, reg, None, HEAD)
    client.force_login(staff["judge"])
    assert "§3.3.3" not in client.get(url("manage:deck-checks", event, number=1)).content.decode()
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk),
        {"outcome": "mismatch", "finding": "3.3.3"},  # not a VEKN finding: ignored
    )
    assert parse_qs(urlparse(response["Location"]).query)["code"] == ["3.1.2"]


@pytest.mark.parametrize(
    ("finding", "code", "name"),
    [
        ("", "3.3.2", "Deck Registration Problems"),
        ("3.3.1", "3.3.1", "Banned or Off-Format Cards"),
        ("3.3.3", "3.3.3", "Unauthorised Proxies"),
        ("9.9.9", "3.3.2", "Deck Registration Problems"),
    ],
)
def test_a_myl_check_reaches_3_3_1_3_3_2_or_3_3_3(client, db, finding, code, name):
    from events import swiss_services
    from tests.events.services.test_swiss_services import make_event as make_myl_event
    from tests.factories import EventRoleFactory, UserFactory

    myl, regs = make_myl_event(6)
    for reg in regs:
        deck_services.enter_for_player(reg, MYL_LEGAL, None, HEAD, reason="registered")
    judge = UserFactory(username="myl-judge")
    EventRoleFactory(event=myl, user=judge, role=Role.HEAD_JUDGE)
    rnd = swiss_services.pair_next_round(myl, seed=1)
    reg = rnd.seats.first().registration
    check = dc.choose_by_hand(rnd, reg, None, HEAD)
    client.force_login(judge)
    page = client.get(url("manage:deck-checks", myl, number=1)).content.decode()
    assert "Banned or off-format cards (§3.3.1)" in page
    assert "Unauthorised proxies (§3.3.3)" in page
    response = client.post(
        url("manage:deck-check-outcome", myl, number=1, pk=check.pk),
        {"outcome": "mismatch", "finding": finding},
    )
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["code"] == [code] and query["reg"] == [str(reg.pk)]
    assert query["description"][0].startswith("Deck check, round 1: ")
    html = client.get(response["Location"]).content.decode()
    assert name in html and "Deck check, round 1" in html


def test_a_double_tap_on_draw_draws_once(client, staff, event, rnd):
    """The Draw form carries the seed the page was rendered with: sent twice, one draw,
    and the message counts the players in the right number (fresh-user try, issue 15)."""
    client.force_login(staff["head_judge"])
    page = client.get(url("manage:deck-checks", event, number=1))
    seed = page.context["seed"]
    assert f'name="seed" value="{seed}"' in page.content.decode()
    choose = url("manage:deck-checks-choose", event, number=1)
    for _ in range(2):
        response = client.post(choose, {"count": "1", "seed": str(seed)}, follow=True)
    assert DeckCheck.objects.filter(round=rnd).count() == 1
    assert entries_about(rnd).filter(action="deck_check.drawn").count() == 1
    texts = [str(m) for m in response.context["messages"]]
    assert texts == [f"1 player drawn for a deck check (seed {seed})."]


@pytest.mark.parametrize(
    ("note", "expected"),
    [("x" * 6000, "Note: Ensure this value has at most"), ("a\x00b", "Note: Null characters")],
)
def test_a_bad_note_is_named_not_the_outcome(client, staff, event, rnd, note, expected):
    (check,) = dc.choose_random(rnd, 1, None, HEAD, seed=3)
    client.force_login(staff["judge"])
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk),
        {"outcome": "match", "note": note},
        follow=True,
    )
    (message,) = [str(m) for m in response.context["messages"]]
    assert message.startswith(expected), message
    check.refresh_from_db()
    assert check.outcome == "pending"


def test_after_approval_the_page_is_read_only_and_posts_are_refused(client, staff, event, rnd):
    (check,) = dc.choose_random(rnd, 1, None, HEAD, seed=3)
    event.results_approved = True
    event.save(update_fields=["results_approved"])
    client.force_login(staff["head_judge"])
    html = client.get(url("manage:deck-checks", event, number=1)).content.decode()
    assert "deck checks are closed" in html
    assert "Choose players" not in html and 'value="mismatch"' not in html
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk),
        {"outcome": "mismatch"},
        follow=True,
    )
    assert [str(m) for m in response.context["messages"]] == [
        "The event's results are approved: reopen them first."
    ]
    check.refresh_from_db()
    assert check.outcome == "pending"


def test_a_missing_list_says_so_not_that_it_does_not_match(client, staff, event, rnd):
    reg = rnd.seats.exclude(registration__person__name="Player 0").first().registration
    check = dc.choose_by_hand(rnd, reg, None, HEAD)
    client.force_login(staff["judge"])
    response = client.post(
        url("manage:deck-check-outcome", event, number=1, pk=check.pk),
        {"outcome": "mismatch"},
        follow=True,
    )
    texts = [str(m) for m in response.context["messages"]]
    assert texts == ["No registered list: log the infraction for this player (opened below)."]
