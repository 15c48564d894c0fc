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


def test_signup_links_existing_person(client, db):
    person = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    reg = RegistrationFactory(person=person)
    response = signup(client, vekn_number="3200001", name="Ana R.")
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.user.username == "newplayer"
    page = client.get(reverse("my-page"))
    assert reg.event.name.encode() in page.content


def test_signup_without_number_creates_person(client, db):
    assert signup(client).status_code == 302
    assert Person.objects.get(user__username="newplayer").name == "New Player"


def test_number_of_another_account_is_refused(client, db):
    from tests.factories import UserFactory

    PersonFactory(vekn_number="3200002", user=UserFactory(username="taken"))
    response = signup(client, vekn_number="3200002")
    assert response.status_code == 200
    assert b"already belongs to an account" in response.content
    assert not Person.objects.filter(user__username="newplayer").exists()


def test_bad_vekn_number_refused(client, db):
    response = signup(client, vekn_number="12ab")
    assert response.status_code == 200 and b"only digits" in response.content
