"""Player accounts link to the person record an organiser created before sign-up."""

from django.urls import reverse

from events.models import Person
from tests.factories import PersonFactory, RegistrationFactory


def signup(client, **extra):
    data = {
        "username": "newplayer",
        "name": "New Player",
        "vekn_number": "",
        "password1": "a-long-pass-phrase-42",
        "password2": "a-long-pass-phrase-42",
    }
    data.update(extra)
    return client.post(reverse("signup"), data)


def test_signup_claims_existing_person_until_an_organiser_confirms(client, db):
    """A VEKN number is public: knowing it must not give access to someone's record."""
    from events.models import EventRole, PlayerClaim
    from events.permissions import Role
    from penalties import services as penalty_services
    from tests.factories import UserFactory

    person = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    reg = RegistrationFactory(person=person)
    import uuid

    penalty_services.log_penalty(reg.event, reg, "3.8", {}, client_id=uuid.uuid4())
    response = signup(client, vekn_number="3200001", name="Someone Else")
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.user is None  # not linked yet
    assert "3.8" not in client.get(reverse("my-sanctions")).content.decode()
    claim = PlayerClaim.objects.get(person=person)
    # An organiser of the event confirms it from the players page.
    organiser = UserFactory(username="org")
    EventRole.objects.create(event=reg.event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    players = client.get(
        reverse("manage:players", kwargs={"slug": reg.event.slug})
    ).content.decode()
    assert "newplayer" in players
    url = reverse("manage:claim-decide", kwargs={"slug": reg.event.slug, "claim_id": claim.pk})
    assert client.post(url, {"decision": "approve"}).status_code == 302
    person.refresh_from_db()
    assert person.user.username == "newplayer"
    client.force_login(person.user)
    assert "3.8" in client.get(reverse("my-sanctions")).content.decode()
    assert reg.event.name in client.get(reverse("my-page")).content.decode()


def test_signup_without_number_creates_person(client, db):
    assert signup(client).status_code == 302
    assert Person.objects.get(user__username="newplayer").name == "New Player"


def test_number_of_another_account_is_refused(client, db):
    from tests.factories import UserFactory

    PersonFactory(vekn_number="3200002", user=UserFactory(username="taken"))
    response = signup(client, vekn_number="3200002")
    assert response.status_code == 200
    assert b"cannot be used for a new account" in response.content
    assert not Person.objects.filter(user__username="newplayer").exists()


def test_bad_vekn_number_refused(client, db):
    response = signup(client, vekn_number="12ab")
    assert response.status_code == 200 and b"only digits" in response.content


def test_unknown_vekn_number_waits_for_an_organiser_too(client, db):
    """No squatting: a number nobody has used yet is not linked at once either."""
    from events.models import PlayerClaim

    assert signup(client, vekn_number="3208888", name="Zoe Fake").status_code == 302
    # No player record is created or named by an unconfirmed claim …
    assert not Person.objects.filter(vekn_number="3208888").exists()
    assert PlayerClaim.objects.filter(vekn_number="3208888", status="pending").exists()
    # … so the organiser can still add the real player, and the claim then shows up.
    from events import services
    from tests.factories import EventFactory

    real = services.find_or_create_person("Zoe Real", "3208888")
    event = EventFactory(slug="claims-event")
    services.register(event, real, check_in=True)
    from events.views_manage import _event_claims

    assert [c.vekn_number for c in _event_claims(event)] == ["3208888"]
    # The organiser confirms: the account is linked to the real record.
    claim = PlayerClaim.objects.get(vekn_number="3208888")
    services.decide_claim(claim, True, None, event)
    real.refresh_from_db()
    assert real.user.username == "newplayer" and real.name == "Zoe Real"
