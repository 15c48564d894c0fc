"""Player accounts link to the person record an organiser created before sign-up."""

import pytest
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


def test_number_of_another_account_gets_the_same_answer_as_any_number(client, db):
    """Sign-up never tells whether a number is linked to an account (nor to which one):
    the claim waits like any other, and the linked record keeps its account."""
    from events.models import PlayerClaim
    from tests.factories import UserFactory

    owner = UserFactory(username="taken")
    person = PersonFactory(name="Ana Rojas", vekn_number="3200002", user=owner)
    response = signup(client, vekn_number="3200002")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "taken" not in page and "Ana Rojas" not in page
    assert "will confirm that VEKN number 3200002 is yours" in page
    person.refresh_from_db()
    assert person.user == owner
    assert PlayerClaim.objects.get(user__username="newplayer").status == "pending"


def test_bad_vekn_number_refused(client, db):
    response = signup(client, vekn_number="12ab")
    assert response.status_code == 200 and b"only digits" in response.content


def test_unknown_vekn_number_waits_for_an_organiser_too(client, db):
    """No squatting: a number nobody has used yet is not linked at once either, and a
    record registered after the claim does not vouch for it (the player did not play
    before the claim): only a platform administrator can link it then."""
    from events import services
    from events.errors import UserError
    from events.models import PlayerClaim
    from events.permissions import Role
    from events.views_manage import _event_claims
    from tests.factories import EventFactory, OrganisationRoleFactory, UserFactory

    assert signup(client, vekn_number="3208888", name="Zoe Fake").status_code == 302
    # No player record is created or named by an unconfirmed claim …
    assert not Person.objects.filter(vekn_number="3208888").exists()
    claim = PlayerClaim.objects.get(vekn_number="3208888", status="pending")
    # … so the organiser can still add the real player …
    real = services.find_or_create_person("Zoe Real", "3208888")
    event = EventFactory(slug="claims-event")
    organiser = UserFactory(username="org")
    OrganisationRoleFactory(organisation=event.organisation, user=organiser, role=Role.ORGANISER)
    services.register(event, real, check_in=True)
    # … but that registration came after the claim: the organiser cannot decide it.
    assert list(_event_claims(event, organiser)) == []
    with pytest.raises(UserError, match="cannot decide this claim"):
        services.decide_claim(claim, True, organiser, event)
    with pytest.raises(UserError, match="cannot decide this claim"):
        services.decide_claim(claim, True, None, event)
    # A platform administrator can (after checking with the player).
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    assert [c.vekn_number for c in _event_claims(event, admin)] == ["3208888"]
    services.decide_claim(claim, True, admin, event)
    real.refresh_from_db()
    assert real.user.username == "newplayer" and real.name == "Zoe Real"


def _claims_world(client):
    """Organisation A ran an event where Ana Rojas (VEKN 3200001) played and got a
    penalty; then an impostor and the real Ana both sign up with her number."""
    import uuid

    from events.models import PlayerClaim
    from events.permissions import Role
    from penalties import services as penalty_services
    from tests.factories import (
        EventFactory,
        OrganisationFactory,
        OrganisationRoleFactory,
        UserFactory,
    )

    org_a = OrganisationFactory(slug="vekn-chile", name="VEKN Chile")
    org_b = OrganisationFactory(slug="other-org", name="Other Org")
    a_organiser = UserFactory(username="a_organiser")
    b_organiser = UserFactory(username="b_organiser")
    OrganisationRoleFactory(organisation=org_a, user=a_organiser, role=Role.ORGANISER)
    OrganisationRoleFactory(organisation=org_b, user=b_organiser, role=Role.ORGANISER)
    event_a = EventFactory(organisation=org_a, slug="a-open")
    event_b = EventFactory(organisation=org_b, slug="b-open")
    ana = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    reg = RegistrationFactory(event=event_a, person=ana)
    penalty_services.log_penalty(event_a, reg, "3.8", {}, client_id=uuid.uuid4())
    signup(client, username="impostor", vekn_number="3200001", name="Ana Rojas")
    client.logout()
    signup(client, username="real_ana", vekn_number="3200001", name="Ana Rojas")
    client.logout()
    claims = {c.user.username: c for c in PlayerClaim.objects.select_related("user")}
    return {
        "a_organiser": a_organiser,
        "b_organiser": b_organiser,
        "event_a": event_a,
        "event_b": event_b,
        "ana": ana,
        "impostor": claims["impostor"],
        "real": claims["real_ana"],
    }


def test_an_organiser_of_another_organisation_cannot_hand_a_player_to_an_impostor(client, db):
    """Issue 12 finding 4: registering the number in one's own event after the claim
    gives no say on it; the refusal names neither the player nor any account."""
    from events import services
    from events.errors import UserError

    w = _claims_world(client)
    client.force_login(w["b_organiser"])
    add = reverse("manage:player-add", kwargs={"slug": w["event_b"].slug})
    # Her number alone does not tell B who she is …
    by_number = client.post(add, {"vekn_number": "3200001", "check_in": "on"}, follow=True)
    assert "Give the player&#x27;s name too" in by_number.content.decode()
    assert "Ana Rojas" not in by_number.content.decode()
    assert not w["event_b"].registrations.exists()
    # … but B may register her with name and number (as the attack did).
    client.post(add, {"name": "Ana Rojas", "vekn_number": "3200001", "check_in": "on"})
    assert w["event_b"].registrations.filter(person=w["ana"]).exists()
    # Not listed on B's players page, and the decision URL does not exist for B.
    players = client.get(reverse("manage:players", kwargs={"slug": w["event_b"].slug}))
    assert "impostor" not in players.content.decode()
    url = reverse(
        "manage:claim-decide", kwargs={"slug": w["event_b"].slug, "claim_id": w["impostor"].pk}
    )
    assert client.post(url, {"decision": "approve"}).status_code == 404
    # The service refuses too, in words that disclose nothing.
    with pytest.raises(UserError) as refused:
        services.decide_claim(w["impostor"], True, w["b_organiser"], w["event_b"])
    message = str(refused.value)
    assert "cannot decide this claim" in message
    assert "Ana" not in message and "impostor" not in message and "real_ana" not in message
    # Rejecting the real player's claim is refused as well.
    with pytest.raises(UserError, match="cannot decide this claim"):
        services.decide_claim(w["real"], False, w["b_organiser"], w["event_b"])
    w["ana"].refresh_from_db()
    w["impostor"].refresh_from_db()
    w["real"].refresh_from_db()
    assert w["ana"].user is None
    assert w["impostor"].status == w["real"].status == "pending"
    # The impostor sees neither Ana's sanction history nor her data.
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="impostor"))
    assert "3.8" not in client.get(reverse("my-sanctions")).content.decode()
    data = client.get(reverse("my-data")).json()
    assert data["person"] is None and data["penalties"] == []


def test_the_organiser_where_the_player_played_before_confirms_the_real_claim(client, db):
    w = _claims_world(client)
    client.force_login(w["a_organiser"])
    players = client.get(reverse("manage:players", kwargs={"slug": w["event_a"].slug}))
    html = players.content.decode()
    assert "impostor" in html and "real_ana" in html
    url = reverse(
        "manage:claim-decide", kwargs={"slug": w["event_a"].slug, "claim_id": w["real"].pk}
    )
    assert client.post(url, {"decision": "approve"}).status_code == 302
    w["ana"].refresh_from_db()
    assert w["ana"].user.username == "real_ana"
    client.force_login(w["ana"].user)
    assert "3.8" in client.get(reverse("my-sanctions")).content.decode()
    # The impostor's claim can then only be rejected, with no account named.
    url = reverse(
        "manage:claim-decide", kwargs={"slug": w["event_a"].slug, "claim_id": w["impostor"].pk}
    )
    client.force_login(w["a_organiser"])
    response = client.post(url, {"decision": "approve"}, follow=True)
    assert "already linked" in response.content.decode()
    assert "real_ana" not in response.content.decode()
    assert client.post(url, {"decision": "reject"}).status_code == 302
    w["impostor"].refresh_from_db()
    assert w["impostor"].status == "rejected"


@pytest.mark.parametrize(
    "case", ["registered_after", "future_event", "non_competing", "judge", "other_event_only"]
)
def test_what_does_not_count_as_having_played_before_the_claim(client, db, case):
    """``decidable_claims``: a competing registration, created before the claim, in an
    event dated on or before the claim's day, of an organisation (or event) the user
    organises; a judge, or an organiser of some other event only, does not decide."""
    import datetime as dt

    from events import services
    from events.models import PlayerClaim
    from events.permissions import Role
    from tests.factories import EventFactory, EventRoleFactory, OrganisationRoleFactory, UserFactory

    user = UserFactory(username="deciding")
    event = EventFactory(slug="past")
    ana = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    role = Role.JUDGE if case == "judge" else Role.ORGANISER
    if case == "other_event_only":
        EventRoleFactory(event=EventFactory(slug="elsewhere"), user=user, role=role)
    else:
        OrganisationRoleFactory(organisation=event.organisation, user=user, role=role)
    if case == "future_event":
        event.date = dt.date.today() + dt.timedelta(days=30)
        event.save()
    if case != "registered_after":
        RegistrationFactory(event=event, person=ana, competing=case != "non_competing")
    signup(client, vekn_number="3200001", name="Ana Rojas")
    if case == "registered_after":
        RegistrationFactory(event=event, person=ana)
    claims = services.decidable_claims(user, PlayerClaim.objects.all())
    assert list(claims) == []
    # The control: the organisation's organiser, a registration before the claim, counts.
    if case in ("judge", "other_event_only"):
        organiser = UserFactory(username="the_organiser")
        OrganisationRoleFactory(
            organisation=event.organisation, user=organiser, role=Role.ORGANISER
        )
        assert len(services.decidable_claims(organiser, PlayerClaim.objects.all())) == 1


def test_the_organiser_of_the_very_event_where_the_player_played_decides(client, db):
    """[choice] An organiser appointed to one event (not the organisation) decides claims
    on that event's players."""
    from events import services
    from events.models import PlayerClaim
    from events.permissions import Role
    from tests.factories import EventRoleFactory, UserFactory

    reg = RegistrationFactory(person=PersonFactory(vekn_number="3200001"))
    organiser = UserFactory(username="event_organiser")
    EventRoleFactory(event=reg.event, user=organiser, role=Role.ORGANISER)
    signup(client, vekn_number="3200001")
    assert len(services.decidable_claims(organiser, PlayerClaim.objects.all())) == 1


def test_a_username_taken_between_the_check_and_the_save_is_a_form_error(client, db, monkeypatch):
    """Issue 12: two sign-ups with one username at once answered 500. Here the other
    sign-up commits right after this one's form was validated (the database's unique
    constraint then refuses the save): the form again, with its error, nothing saved."""
    from django.contrib.auth import get_user_model

    from events.forms import SignupForm
    from events.models import PlayerClaim

    validate = SignupForm.is_valid

    def validated_then_overtaken(form):
        valid = validate(form)
        get_user_model().objects.create_user("newplayer", password="the-other-one-42")
        return valid

    monkeypatch.setattr(SignupForm, "is_valid", validated_then_overtaken)
    response = signup(client, name="Second Comer", vekn_number="3201234")
    assert response.status_code == 200
    assert "This username was just taken" in response.content.decode()
    assert get_user_model().objects.filter(username="newplayer").count() == 1
    assert not PlayerClaim.objects.exists()
    assert not Person.objects.filter(name="Second Comer").exists()
    assert "_auth_user_id" not in client.session
