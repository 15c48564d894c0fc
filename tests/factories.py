"""factory-boy factories for the database tests."""

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from events.models import Event, EventRole, Organisation, OrganisationRole, Person, Registration


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):  # noqa: N805 - factory-boy hook
        if create:
            obj.save()


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"org{n}")
    name = factory.Sequence(lambda n: f"Organisation {n}")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    organisation = factory.SubFactory(OrganisationFactory)
    slug = factory.Sequence(lambda n: f"event-{n}")
    name = factory.Sequence(lambda n: f"Event {n}")
    date = dt.date(2026, 11, 28)
    preliminary_rounds = 3


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    name = factory.Sequence(lambda n: f"Player {n}")
    vekn_number = factory.Sequence(lambda n: f"{1000000 + n}")


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    person = factory.SubFactory(PersonFactory)
    code = factory.Sequence(lambda n: f"p{n}")
    status = Registration.Status.CHECKED_IN


class EventRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EventRole

    event = factory.SubFactory(EventFactory)
    user = factory.SubFactory(UserFactory)


class OrganisationRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = OrganisationRole

    organisation = factory.SubFactory(OrganisationFactory)
    user = factory.SubFactory(UserFactory)
