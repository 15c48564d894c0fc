"""Player accounts link to the person record an organiser created before sign-up."""

import pytest
from django.urls import reverse

from events.models import Person
from events.permissions import ROLE_PERMISSIONS, Role
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


def seat(reg, *, bye=False):
    """``reg`` plays a round of its event (a new round, one table; ``bye``: a MyL bye)."""
    from events.models import Round, Seat, Table

    number = reg.event.rounds.count() + 1
    rnd = Round.objects.create(event=reg.event, number=number)
    table = Table.objects.create(round=rnd, number=1, is_bye=bye)
    return Seat.objects.create(table=table, round=rnd, registration=reg, position=1)


def test_signup_claims_existing_person_until_an_organiser_confirms(client, db):
    """A VEKN number is public: knowing it must not give access to someone's record."""
    from events.models import EventRole, PlayerClaim
    from penalties import services as penalty_services
    from tests.factories import UserFactory

    person = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    reg = RegistrationFactory(person=person)
    seat(reg)
    import uuid

    penalty_services.log_penalty(
        reg.event, reg, "3.8", {}, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
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
    """No squatting: a number nobody has used yet is not linked at once either. The
    organiser who then seats the real player is where she first played: they see the
    squatter's claim under the name it gave, reject it, and confirm the real player's."""
    from events import people, services
    from events.models import PlayerClaim
    from events.views_manage import _event_claims
    from tests.factories import EventFactory, OrganisationRoleFactory, UserFactory

    assert signup(client, vekn_number="3208888", name="Zoe Fake").status_code == 302
    # No player record is created or named by an unconfirmed claim …
    assert not Person.objects.filter(vekn_number="3208888").exists()
    claim = PlayerClaim.objects.get(vekn_number="3208888", status="pending")
    # … so the organiser can still add the real player …
    real = people.find_or_create_person("Zoe Real", "3208888")
    event = EventFactory(slug="claims-event")
    organiser = UserFactory(username="org")
    OrganisationRoleFactory(organisation=event.organisation, user=organiser, role=Role.ORGANISER)
    reg = services.register(event, real, check_in=True)
    # … registered only, she has not played: nobody but an administrator decides yet.
    assert list(_event_claims(event, organiser)) == []
    seat(reg)
    pending = list(_event_claims(event, organiser))
    assert [(c.vekn_number, c.name) for c in pending] == [("3208888", "Zoe Fake")]
    people.decide_claim(claim, False, organiser, event)
    client.logout()
    signup(client, username="zoe", vekn_number="3208888", name="Zoe Real")
    people.decide_claim(PlayerClaim.objects.get(status="pending"), True, organiser, event)
    real.refresh_from_db()
    assert real.user.username == "zoe" and real.name == "Zoe Real"


def test_a_player_who_signs_up_before_round_one_is_confirmed_once_seated(client, db):
    """[choice] When the claim was made does not matter, only where the player first
    played: a new player signs up at the venue while being checked in, before round 1,
    and the organiser confirms the claim once the round is seated."""
    from events import people, services
    from events.models import PlayerClaim
    from tests.factories import EventFactory, OrganisationRoleFactory, UserFactory

    event = EventFactory(slug="store-night")
    organiser = UserFactory(username="org")
    OrganisationRoleFactory(organisation=event.organisation, user=organiser, role=Role.ORGANISER)
    ana = people.find_or_create_person("Ana Nueva", "3209999")
    reg = services.register(event, ana, check_in=True)
    signup(client, vekn_number="3209999", name="Ana Nueva")
    claims = PlayerClaim.objects.all()
    assert list(people.decidable_claims(organiser, claims)) == []
    seat(reg)
    assert len(people.decidable_claims(organiser, claims)) == 1
    people.decide_claim(claims.get(), True, organiser, event)
    ana.refresh_from_db()
    assert ana.user.username == "newplayer"


def _claims_world(client):
    """Organisation A ran an event where Ana Rojas (VEKN 3200001) played and got a
    penalty; then an impostor and the real Ana both sign up with her number."""
    import uuid

    from events.models import PlayerClaim
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
    seat(reg)
    penalty_services.log_penalty(
        event_a, reg, "3.8", {}, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
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
    from events import people
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
        people.decide_claim(w["impostor"], True, w["b_organiser"], w["event_b"])
    message = str(refused.value)
    assert "cannot decide this claim" in message
    assert "Ana" not in message and "impostor" not in message and "real_ana" not in message
    # Rejecting the real player's claim is refused as well.
    with pytest.raises(UserError, match="cannot decide this claim"):
        people.decide_claim(w["real"], False, w["b_organiser"], w["event_b"])
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
    refusal = [str(m) for m in response.context["messages"]]
    assert len(refusal) == 1 and "already linked" in refusal[0]
    assert "real_ana" not in refusal[0]
    assert client.post(url, {"decision": "reject"}).status_code == 302
    w["impostor"].refresh_from_db()
    assert w["impostor"].status == "rejected"
    # Both decisions are in A's event's audit log and on A's players page.
    actions = list(
        w["event_a"]
        .audit_entries.filter(action__startswith="player.claim_")
        .values_list("action", "after__account")
    )
    assert sorted(actions) == [
        ("player.claim_approved", "real_ana"),
        ("player.claim_rejected", "impostor"),
    ]


@pytest.mark.parametrize(
    "case",
    [
        "registered_not_seated",
        "non_competing",
        "judge",
        "other_event_only",
        "played_elsewhere_first",
    ],
)
def test_what_does_not_count_as_having_first_played(client, db, case):
    """``decidable_claims``: a seat (a round played) of a competing registration, in an
    event of an organisation (or an event) the user organises — and the first seat
    recorded: a registration without a seat, a judge, an organiser of some other event
    only, or the organisation where the player played second, does not decide."""
    import datetime as dt

    from events import people
    from events.models import PlayerClaim
    from tests.factories import EventFactory, EventRoleFactory, OrganisationRoleFactory, UserFactory

    user = UserFactory(username="deciding")
    event = EventFactory(slug="past")
    ana = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    role = Role.JUDGE if case == "judge" else Role.ORGANISER
    if case == "other_event_only":
        EventRoleFactory(event=EventFactory(slug="elsewhere"), user=user, role=role)
    else:
        OrganisationRoleFactory(organisation=event.organisation, user=user, role=role)
    if case == "played_elsewhere_first":
        # Another organisation seated her first, in an event dated *later* than this one.
        later = EventFactory(slug="later", date=event.date + dt.timedelta(days=1))
        seat(RegistrationFactory(event=later, person=ana))
    if case != "non_competing":
        reg = RegistrationFactory(event=event, person=ana)
        if case != "registered_not_seated":
            seat(reg)
    if case == "non_competing":
        seat(RegistrationFactory(event=event, person=ana, competing=False))
    signup(client, vekn_number="3200001", name="Ana Rojas")
    claims = people.decidable_claims(user, PlayerClaim.objects.all())
    assert list(claims) == []
    # The control: the organisation's organiser, with the first seat before the claim.
    if case in ("judge", "other_event_only"):
        organiser = UserFactory(username="the_organiser")
        OrganisationRoleFactory(
            organisation=event.organisation, user=organiser, role=Role.ORGANISER
        )
        assert len(people.decidable_claims(organiser, PlayerClaim.objects.all())) == 1
    if case == "played_elsewhere_first":
        first = UserFactory(username="first_organiser")
        OrganisationRoleFactory(organisation=later.organisation, user=first, role=Role.ORGANISER)
        assert len(people.decidable_claims(first, PlayerClaim.objects.all())) == 1


def test_the_organiser_of_the_very_event_where_the_player_played_decides(client, db):
    """[choice] An organiser appointed to one event (not the organisation) decides claims
    on that event's players."""
    from events import people
    from events.models import PlayerClaim
    from tests.factories import EventRoleFactory, UserFactory

    reg = RegistrationFactory(person=PersonFactory(vekn_number="3200001"))
    seat(reg)
    organiser = UserFactory(username="event_organiser")
    EventRoleFactory(event=reg.event, user=organiser, role=Role.ORGANISER)
    signup(client, vekn_number="3200001")
    assert len(people.decidable_claims(organiser, PlayerClaim.objects.all())) == 1


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


def test_an_organisation_cannot_make_itself_the_one_that_vouches_for_a_player(client, db):
    """Issue 12 finding 4, as the attacker trial did it: B registers a VEKN Chile player
    in its own MyL event dated today, even seats a round with her, and only then does the
    impostor claim her number: B still may not decide it, not even after back-dating its
    event; VEKN Chile, where she first played, decides, and sees it in its audit log and
    on its players page."""
    import datetime as dt

    from django.utils import timezone

    from events import people, services, swiss_services
    from events.errors import UserError
    from events.models import PlayerClaim
    from tests.factories import (
        EventFactory,
        EventRoleFactory,
        OrganisationFactory,
        OrganisationRoleFactory,
        UserFactory,
    )

    chile = OrganisationFactory(slug="vekn-chile", name="VEKN Chile")
    org_b = OrganisationFactory(slug="org-b", name="Org B")
    a_organiser = UserFactory(username="organiser")
    orgb = UserFactory(username="orgb")
    OrganisationRoleFactory(organisation=chile, user=a_organiser, role=Role.ORGANISER)
    OrganisationRoleFactory(organisation=org_b, user=orgb, role=Role.ORGANISER)
    # VEKN Chile's event, where Camila played a round.
    event_a = EventFactory(organisation=chile, slug="demo-2026", date=dt.date(2026, 11, 28))
    camila = PersonFactory(name="Camila Soto", vekn_number="3200003")
    RegistrationFactory(event=event_a, person=camila)
    for _ in range(3):
        RegistrationFactory(event=event_a)
    services.seat_next_round(event_a, seed=1)
    # B's MyL event, dated today: orgb registers her with name and number …
    event_b = EventFactory(
        organisation=org_b,
        slug="b-myl",
        date=timezone.localdate(),
        ruleset="myl",
        preset="myl-2026",
        round_minutes=50,
        best_of=3,
        top_cut=0,
        final_mode="none",
    )
    client.force_login(orgb)
    add = reverse("manage:player-add", kwargs={"slug": event_b.slug})
    client.post(add, {"name": "Camila Soto", "vekn_number": "3200003", "check_in": "on"})
    assert event_b.registrations.filter(person=camila).exists()
    for _ in range(2):
        RegistrationFactory(event=event_b)
    # … and seats a round with her (a match or a bye), all before the claim.
    rnd = swiss_services.pair_next_round(event_b, seed=1)
    assert rnd.seats.filter(registration__person=camila).exists()
    client.logout()
    signup(client, username="imp3", vekn_number="3200003", name="Camila Soto")
    client.logout()
    claim = PlayerClaim.objects.get(user__username="imp3")
    # B may not approve: not listed, the URL does not exist for B, the service refuses.
    client.force_login(orgb)
    players = client.get(reverse("manage:players", kwargs={"slug": event_b.slug}))
    assert "imp3" not in players.content.decode()
    url = reverse("manage:claim-decide", kwargs={"slug": event_b.slug, "claim_id": claim.pk})
    assert client.post(url, {"decision": "approve"}).status_code == 404
    with pytest.raises(UserError) as refused:
        people.decide_claim(claim, True, orgb, event_b)
    assert "Camila" not in str(refused.value) and "imp3" not in str(refused.value)
    # Back-dating B's event before Chile's does not make B "first" either.
    event_b.date = dt.date(2020, 1, 1)
    event_b.save(update_fields=["date"])
    assert list(people.decidable_claims(orgb, PlayerClaim.objects.all())) == []
    with pytest.raises(UserError, match="cannot decide this claim"):
        people.decide_claim(claim, True, orgb, event_b)
    camila.refresh_from_db()
    assert camila.user is None
    assert people.first_played_event(claim) == event_a
    # VEKN Chile's organiser, where she first played, decides (here: approves).
    client.force_login(a_organiser)
    players = client.get(reverse("manage:players", kwargs={"slug": event_a.slug}))
    assert "imp3" in players.content.decode()
    url = reverse("manage:claim-decide", kwargs={"slug": event_a.slug, "claim_id": claim.pk})
    assert client.post(url, {"decision": "approve"}).status_code == 302
    camila.refresh_from_db()
    assert camila.user.username == "imp3"
    entry = event_a.audit_entries.get(action="player.claim_approved")
    assert entry.actor == a_organiser and entry.after["account"] == "imp3"
    assert not event_b.audit_entries.filter(action__startswith="player.claim_").exists()
    page = client.get(reverse("manage:players", kwargs={"slug": event_a.slug})).content.decode()
    assert "Accounts linked to this organisation" in page and "Camila Soto → imp3" in page
    # Only to those who may decide claims there: not to a judge of the event.
    judge = UserFactory(username="a_judge")
    EventRoleFactory(event=event_a, user=judge, role=Role.JUDGE)
    client.force_login(judge)
    page = client.get(reverse("manage:players", kwargs={"slug": event_a.slug})).content.decode()
    assert "imp3" not in page


def test_the_organisation_of_the_only_event_played_decides(client, db):
    """[choice] A person who played (was seated) in one organisation's event only, before
    the claim, is vouched for by that organisation: it is where they first played."""
    from events import people
    from events.models import PlayerClaim
    from tests.factories import EventFactory, OrganisationRoleFactory, UserFactory

    event = EventFactory(slug="only-one")
    seat(RegistrationFactory(event=event, person=PersonFactory(vekn_number="3200001")), bye=True)
    organiser = UserFactory(username="only_org")
    OrganisationRoleFactory(organisation=event.organisation, user=organiser, role=Role.ORGANISER)
    signup(client, vekn_number="3200001")
    claim = PlayerClaim.objects.get()
    assert list(people.decidable_claims(organiser, PlayerClaim.objects.all())) == [claim]
    people.decide_claim(claim, True, organiser, event)
    assert Person.objects.get(vekn_number="3200001").user.username == "newplayer"


def test_a_player_who_never_played_waits_for_an_administrator(client, db):
    """No seat before the claim (registered only, or never seen): no organiser decides;
    an administrator does, audited on the page's event."""
    from events import people
    from events.errors import UserError
    from events.models import PlayerClaim
    from tests.factories import EventFactory, OrganisationRoleFactory, UserFactory

    event = EventFactory(slug="registered-only")
    RegistrationFactory(event=event, person=PersonFactory(vekn_number="3200001"))
    organiser = UserFactory(username="reg_org")
    OrganisationRoleFactory(organisation=event.organisation, user=organiser, role=Role.ORGANISER)
    signup(client, vekn_number="3200001")
    claim = PlayerClaim.objects.get()
    assert people.first_played_event(claim) is None
    with pytest.raises(UserError, match="cannot decide this claim"):
        people.decide_claim(claim, True, organiser, event)
    admin = UserFactory(username="root", is_superuser=True)
    people.decide_claim(claim, False, admin, event)
    assert event.audit_entries.filter(action="player.claim_rejected").count() == 1


def test_deciding_claims_takes_one_query_for_any_number_of_claims(
    client, db, django_assert_max_num_queries
):
    from events import people
    from events.models import PlayerClaim
    from tests.factories import EventFactory, OrganisationRoleFactory, UserFactory

    event = EventFactory(slug="many")
    organiser = UserFactory(username="many_org")
    OrganisationRoleFactory(organisation=event.organisation, user=organiser, role=Role.ORGANISER)
    for i in range(5):
        seat(RegistrationFactory(event=event, person=PersonFactory(vekn_number=f"320000{i}")))
        signup(client, username=f"claimant{i}", vekn_number=f"320000{i}")
        client.logout()
    with django_assert_max_num_queries(1):
        assert len(list(people.decidable_claims(organiser, PlayerClaim.objects.all()))) == 5


def test_a_player_registered_but_not_yet_seated_at_home_is_not_claimable_elsewhere(client, db):
    """Issue 12 finding 4, as the second attacker trial did it: VEKN Chile registers a new
    player (not seated yet); B registers her number in a back-dated MyL event of its own
    and pairs a round with her before an impostor claims it. B does not vouch for her
    (she was registered in Chile first); Chile does once she has played there."""
    import datetime as dt

    from events import people, services, swiss_services
    from events.errors import UserError
    from events.models import PlayerClaim
    from tests.factories import (
        EventFactory,
        OrganisationFactory,
        OrganisationRoleFactory,
        UserFactory,
    )

    chile = OrganisationFactory(slug="vekn-chile")
    org_b = OrganisationFactory(slug="org-b")
    a_organiser, orgb = UserFactory(username="organiser"), UserFactory(username="borg")
    OrganisationRoleFactory(organisation=chile, user=a_organiser, role=Role.ORGANISER)
    OrganisationRoleFactory(organisation=org_b, user=orgb, role=Role.ORGANISER)
    demo_next = EventFactory(organisation=chile, slug="demo-next")
    zoe = people.find_or_create_person("Zoe Nueva", "3299999")
    home = services.register(demo_next, zoe, check_in=True)
    b_myl = EventFactory(
        organisation=org_b,
        slug="b-myl2",
        date=dt.date(2025, 1, 1),
        ruleset="myl",
        preset="myl-2026",
        round_minutes=50,
        best_of=3,
        top_cut=0,
        final_mode="none",
    )
    services.register(b_myl, zoe, check_in=True)
    services.register(b_myl, PersonFactory(), check_in=True)
    swiss_services.pair_next_round(b_myl, seed=1)
    signup(client, username="imp_zoe", vekn_number="3299999", name="Zoe Nueva")
    claims = PlayerClaim.objects.filter(user__username="imp_zoe")
    assert list(people.decidable_claims(orgb, claims)) == []
    with pytest.raises(UserError, match="cannot decide this claim"):
        people.decide_claim(claims.get(), True, orgb, b_myl)
    # Chile, where she was registered first, decides once she has played there.
    assert list(people.decidable_claims(a_organiser, claims)) == []
    for _ in range(3):
        services.register(demo_next, PersonFactory(), check_in=True)
    services.seat_next_round(demo_next, seed=1)
    assert home.person.vekn_number == "3299999"
    assert len(people.decidable_claims(a_organiser, claims)) == 1
    people.decide_claim(claims.get(), False, a_organiser, demo_next)
    zoe.refresh_from_db()
    assert zoe.user is None
