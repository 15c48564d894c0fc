"""The pages that keep an event's players (events/views_players.py and the players page;
docs/organisers.md): bad input, another event's registration, another organisation's
organiser, the confirm step sent twice, and the players page's query count."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import AuditLog, Person, Registration
from events.permissions import Role
from tests.conftest import add_players
from tests.factories import (
    EventFactory,
    OrganisationRoleFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)


def url(event, name, **kw):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug, **kw})


@pytest.fixture
def organiser(client, staff):
    client.force_login(staff["organiser"])
    return client


def test_players_page_links_and_warns_of_missing_numbers(organiser, event):
    RegistrationFactory(event=event, person=PersonFactory(name="Numberless", vekn_number=""))
    RegistrationFactory(event=event, status="registered")
    page = organiser.get(url(event, "players")).content.decode()
    assert url(event, "player-list") in page
    assert url(event, "check-in-all") in page
    assert 'id="missing-numbers"' in page and "Numberless" in page
    standings = organiser.get(url(event, "standings")).content.decode()
    assert 'id="missing-numbers"' in standings and "Numberless" in standings


def test_edit_registration_page(organiser, event):
    reg = RegistrationFactory(event=event, person=PersonFactory(name="Jhon", vekn_number=""))
    assert organiser.get(url(event, "registration", reg_id=reg.pk)).status_code == 200
    response = organiser.post(
        url(event, "registration", reg_id=reg.pk), {"name": "John", "vekn_number": "42"}
    )
    assert response.status_code == 302
    reg.person.refresh_from_db()
    assert (reg.person.name, reg.person.vekn_number) == ("John", "42")
    for data in ({"name": "", "vekn_number": ""}, {"name": "X", "vekn_number": "4²"}, {}):
        response = organiser.post(url(event, "registration", reg_id=reg.pk), data)
        assert response.status_code == 400, data
    reg.person.refresh_from_db()
    assert reg.person.name == "John"


def test_another_events_registration_is_404(organiser, event):
    other = RegistrationFactory(event=EventFactory())
    for name in ("registration", "registration-remove", "registration-merge"):
        response = organiser.post(url(event, name, reg_id=other.pk), {"confirm": "1"})
        assert response.status_code == 404, name
    assert Registration.objects.filter(pk=other.pk).exists()


def test_remove_needs_the_box_and_refuses_a_seated_player(organiser, event):
    reg = RegistrationFactory(event=event)
    organiser.post(url(event, "registration-remove", reg_id=reg.pk), {})
    assert Registration.objects.filter(pk=reg.pk).exists()
    organiser.post(url(event, "registration-remove", reg_id=reg.pk), {"confirm": "1"})
    assert not Registration.objects.filter(pk=reg.pk).exists()
    # Twice: the registration is gone, a 404, never a 500.
    response = organiser.post(url(event, "registration-remove", reg_id=reg.pk), {"confirm": "1"})
    assert response.status_code == 404


def test_merge_only_by_an_organiser_and_only_this_organisations_players(client, staff, event):
    past = EventFactory(organisation=event.organisation)
    keep = RegistrationFactory(event=event, person=PersonFactory(vekn_number=""))
    old = RegistrationFactory(event=past)
    client.force_login(staff["scorekeeper"])
    assert (
        client.post(
            url(event, "registration-merge", reg_id=keep.pk), {"other": old.person_id}
        ).status_code
        == 403
    )
    client.force_login(staff["organiser"])
    stranger = RegistrationFactory(event=EventFactory())  # another organisation's player
    client.post(url(event, "registration-merge", reg_id=keep.pk), {"other": stranger.person_id})
    assert Person.objects.filter(pk=stranger.person_id).exists()
    for bad in ({"other": "x"}, {"other": ""}, {}):
        response = client.post(url(event, "registration-merge", reg_id=keep.pk), bad)
        assert response.status_code == 302
    response = client.post(
        url(event, "registration-merge", reg_id=keep.pk), {"other": old.person_id}
    )
    assert response.status_code == 302
    assert not Person.objects.filter(pk=old.person_id).exists()
    old.refresh_from_db()
    assert old.person_id == keep.person_id


def test_another_organisations_organiser_cannot_touch_the_players(client, event):
    other_org_user = UserFactory(username="elsewhere")
    other_event = EventFactory()
    OrganisationRoleFactory(
        organisation=other_event.organisation, user=other_org_user, role=Role.ORGANISER
    )
    reg = RegistrationFactory(event=event)
    client.force_login(other_org_user)
    for name, kw in (
        ("registration", {"reg_id": reg.pk}),
        ("registration-remove", {"reg_id": reg.pk}),
        ("registration-merge", {"reg_id": reg.pk}),
        ("player-list", {}),
        ("player-list-save", {}),
        ("check-in-all", {}),
        ("check-in-all-undo", {}),
    ):
        assert client.post(url(event, name, **kw), {"confirm": "1"}).status_code == 404, name
    # From their own event, this event's registration id is another event's: 404.
    assert client.get(url(other_event, "registration", reg_id=reg.pk)).status_code == 404


def test_list_preview_then_confirm_twice(organiser, event):
    RegistrationFactory(event=event, person=PersonFactory(name="Already", vekn_number="9"))
    text = "Ana Pérez; 1234567\nBea\nAlready; 9\nBad; 12x\nbea"
    response = organiser.post(url(event, "player-list"), {"text": text, "check_in": "on"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "line 4" in page and "is not a VEKN number" in page
    assert "already registered" in page and "the same player as line 2" in page
    assert Person.objects.filter(name="Ana Pérez").count() == 0  # nothing saved yet
    preview = response.context["preview"]
    data = {"text": text, "digest": preview.digest, "check_in": "True"}
    assert organiser.post(url(event, "player-list-save"), data).status_code == 302
    assert event.registrations.count() == 3
    assert event.registrations.filter(person__name="Bea", status="checked_in").exists()
    again = organiser.post(url(event, "player-list-save"), data)
    assert again.status_code == 409
    assert event.registrations.count() == 3


def test_list_bad_input_never_500(organiser, event):
    for data in (
        {},
        {"text": ""},
        {"text": "\n".join(f"P{i}" for i in range(1001))},
        {"text": "x" * 300_001},
    ):
        assert organiser.post(url(event, "player-list"), data).status_code == 400
    for data in ({}, {"text": "Ana", "digest": "nothex"}, {"text": "Ana", "digest": "0" * 32}):
        response = organiser.post(url(event, "player-list-save"), data)
        assert response.status_code in (302, 409), data
    assert not Person.objects.filter(name="Ana").exists()


def test_list_upload(organiser, event):
    upload = SimpleUploadedFile("list.csv", "name,vekn\nÁlvaro,77\n".encode("cp1252"))
    response = organiser.post(url(event, "player-list"), {"upload": upload})
    assert response.status_code == 200
    [outcome] = response.context["preview"].outcomes
    assert (outcome.line.name, outcome.line.vekn, outcome.kind) == ("Álvaro", "77", "new")


def test_check_in_all_confirm_undo_and_double_submit(organiser, event):
    regs = [RegistrationFactory(event=event, status="registered") for _ in range(3)]
    page = organiser.get(url(event, "check-in-all"))
    assert page.status_code == 200 and regs[0].person.name in page.content.decode()
    organiser.post(url(event, "check-in-all"), {})  # no confirmation: nothing
    assert not event.registrations.filter(status="checked_in").exists()
    organiser.post(url(event, "check-in-all"), {"confirm": "1"})
    organiser.post(url(event, "check-in-all"), {"confirm": "1"})  # twice
    assert event.registrations.filter(status="checked_in").count() == 3
    assert AuditLog.objects.filter(action="player.check_in_all").count() == 1
    assert 'id="undo-check-in"' in organiser.get(url(event, "players")).content.decode()
    organiser.post(url(event, "check-in-all-undo"), {"confirm": "1"})
    organiser.post(url(event, "check-in-all-undo"), {"confirm": "1"})  # twice: a message
    assert event.registrations.filter(status="registered").count() == 3


def test_adding_a_known_name_offers_that_person(organiser, event):
    past = EventFactory(organisation=event.organisation)
    known = RegistrationFactory(event=past, person=PersonFactory(name="José Pérez")).person
    response = organiser.post(url(event, "player-add"), {"name": "jose  perez", "check_in": "on"})
    assert response.status_code == 200 and 'id="offer"' in response.content.decode()
    assert not event.registrations.exists()
    organiser.post(
        url(event, "player-add"), {"name": "jose perez", "person": known.pk, "check_in": "on"}
    )
    assert event.registrations.get().person_id == known.pk
    # A person not offered for that name cannot be slipped in.
    stranger = PersonFactory(name="Stranger")
    organiser.post(url(event, "player-add"), {"name": "Someone", "person": stranger.pk})
    assert not event.registrations.filter(person=stranger).exists()


def test_adding_a_known_name_as_someone_else(organiser, event):
    past = EventFactory(organisation=event.organisation)
    RegistrationFactory(event=past, person=PersonFactory(name="Ana"))
    organiser.post(url(event, "player-add"), {"name": "Ana", "new_person": "1"})
    assert Person.objects.filter(name="Ana").count() == 2


@pytest.mark.parametrize("players", [10, 200])
def test_players_page_bounded_queries(organiser, event, players, django_assert_max_num_queries):
    add_players(event, players)
    with django_assert_max_num_queries(20):
        assert organiser.get(url(event, "players")).status_code == 200
    reg = event.registrations.first()
    with django_assert_max_num_queries(25):
        assert organiser.get(url(event, "registration", reg_id=reg.pk)).status_code == 200


def test_myl_event_players_page(client, staff):
    event = EventFactory(ruleset="myl", slug="myl-day")
    OrganisationRoleFactory(
        organisation=event.organisation, user=staff["organiser"], role=Role.ORGANISER
    )
    reg = RegistrationFactory(
        event=event, person=PersonFactory(vekn_number=""), status="registered"
    )
    client.force_login(staff["organiser"])
    page = client.get(url(event, "players")).content.decode()
    assert url(event, "registration", reg_id=reg.pk) in page
    assert 'id="missing-numbers"' not in page  # the ruleset files no numbers
    page = client.get(url(event, "registration", reg_id=reg.pk)).content.decode()
    assert "Player number" in page
    client.post(url(event, "check-in-all"), {"confirm": "1"})
    reg.refresh_from_db()
    assert reg.status == "checked_in"


def test_the_audit_page_reads_the_new_entries(organiser, event):
    past = EventFactory(organisation=event.organisation)
    keep = RegistrationFactory(event=event, person=PersonFactory(vekn_number=""))
    old = RegistrationFactory(event=past)
    RegistrationFactory(event=event, status="registered")
    organiser.post(url(event, "registration-merge", reg_id=keep.pk), {"other": old.person_id})
    organiser.post(url(event, "check-in-all"), {"confirm": "1"})
    organiser.post(url(event, "check-in-all-undo"), {"confirm": "1"})
    organiser.post(url(event, "registration", reg_id=keep.pk), {"name": "Fixed", "vekn_number": ""})
    page = organiser.get(url(event, "audit"))
    assert page.status_code == 200
    text = page.content.decode()
    for words in ("two records merged", "check in all", "Player: corrected"):
        assert words in text, words


def test_players_heading_counts_as_the_shared_counts(organiser, event):
    """Issue 14: the heading counted every registration, a non-competing one too; it now
    says the shared "Registered" count and shows the counts block (docs/organisations.md
    "Player counts")."""
    for _ in range(3):
        RegistrationFactory(event=event)
    RegistrationFactory(event=event, competing=False)
    page = organiser.get(url(event, "players")).content.decode()
    assert "3 players</h2>" in page and "4 players" not in page
    assert 'class="counts"' in page and "Non-competing (not players)" in page


def test_add_player_with_first_and_last_names(organiser, event):
    """Issue 14: the players page takes the name in two parts; the name is both together,
    and a name that disagrees with them is refused in words saying what it would be."""
    page = organiser.get(url(event, "players")).content.decode()
    assert 'id="id_first_name"' in page and 'id="id_last_name"' in page
    response = organiser.post(
        url(event, "player-add"),
        {"name": "", "first_name": "María José", "last_name": "Herrera", "vekn_number": "7000001"},
    )
    assert response.status_code == 302
    person = Person.objects.get(vekn_number="7000001")
    assert (person.name, person.first_name, person.last_name) == (
        "María José Herrera",
        "María José",
        "Herrera",
    )
    response = organiser.post(
        url(event, "player-add"),
        {"name": "Ana Díaz", "first_name": "Ana María", "last_name": "Díaz"},
        follow=True,
    )
    assert "Ana María Díaz" in response.content.decode()
    assert not Person.objects.filter(name__startswith="Ana").exists()
