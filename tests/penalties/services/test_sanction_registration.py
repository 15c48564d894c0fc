"""Suspended or banned people cannot be registered to an event whose date falls in the
sanction (Mitos y Leyendas conduct rules §4.1, docs/rules-myl-penalties.md "Appeals")."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from events import people, services
from events.errors import UserError
from penalties.models import Sanction
from tests.factories import EventFactory


@pytest.fixture
def person(db):
    return people.find_or_create_person("Rafa Soto", "")


def sanction(person, kind, start, end=None, **extra):
    """A sanction the national authority gave (confirmed, no issuing organisation) of
    the factories' events' ruleset (VEKN): it blocks every organisation's VEKN events."""
    extra = {"ruleset": "vekn", "confirmed_at": timezone.now(), **extra}
    return Sanction.objects.create(
        person=person, kind=kind, starts_on=start, ends_on=end, reason="§3.2.5", **extra
    )


@pytest.mark.parametrize(
    "start, end, blocked",
    [
        (date(2026, 11, 1), date(2026, 11, 28), True),  # ends on the event's day
        (date(2026, 11, 28), date(2026, 12, 31), True),  # starts on it
        (date(2026, 11, 1), date(2026, 11, 27), False),  # over the day before
        (date(2026, 11, 29), date(2026, 12, 31), False),  # starts the day after
    ],
)
def test_a_suspension_blocks_events_in_its_period(person, start, end, blocked):
    event = EventFactory(date=date(2026, 11, 28))
    sanction(person, "suspension", start, end)
    if blocked:
        with pytest.raises(UserError, match="suspended"):
            services.register(event, person)
        assert not event.registrations.exists()
    else:
        assert services.register(event, person).person == person


def test_a_permanent_ban_blocks_every_later_event(person):
    sanction(person, "permanent_ban", date(2025, 1, 1))
    with pytest.raises(UserError, match="banned"):
        services.register(EventFactory(date=date(2030, 1, 1)), person)
    # An event before the ban is not affected.
    assert services.register(EventFactory(date=date(2024, 12, 31)), person)


def test_a_lifted_sanction_no_longer_blocks(person):
    s = sanction(person, "suspension", date(2026, 11, 1), date(2026, 12, 31))
    s.lifted_at = timezone.now()
    s.lift_reason = "appeal upheld"
    s.save()
    event = EventFactory(date=date(2026, 11, 28) + timedelta(days=0))
    assert services.register(event, person)


def test_the_database_refuses_an_inverted_period(person):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        sanction(person, "suspension", date(2026, 12, 1), date(2026, 11, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        sanction(person, "permanent_ban", date(2026, 12, 1), date(2026, 12, 2))


def test_a_namesake_without_a_number_is_stopped_on_the_players_page(client, person):
    from django.urls import reverse

    from events.models import OrganisationRole
    from events.permissions import Role
    from tests.factories import UserFactory

    sanction(person, "suspension", date(2026, 11, 1), date(2026, 12, 31))
    event = EventFactory(date=date(2026, 11, 28))
    boss = UserFactory()
    OrganisationRole.objects.create(organisation=event.organisation, user=boss, role=Role.ORGANISER)
    client.force_login(boss)
    url = reverse("manage:player-add", kwargs={"slug": event.slug})
    client.post(url, {"name": "RAFA SOTO", "vekn_number": "", "check_in": "on"})
    assert not event.registrations.exists()
    # Another name goes through.
    client.post(url, {"name": "Rafa Soto Jr", "vekn_number": "", "check_in": "on"})
    assert event.registrations.count() == 1


def test_a_player_suspended_after_registering_cannot_be_checked_in(client, person):
    from django.urls import reverse

    from events.models import OrganisationRole, Registration
    from events.permissions import Role
    from tests.factories import UserFactory

    event = EventFactory(date=date(2026, 11, 28))
    reg = services.register(event, person)
    sanction(person, "suspension", date(2026, 11, 1), date(2026, 12, 31))
    with pytest.raises(UserError, match="cannot be checked in"):
        services.set_status(reg, Registration.Status.CHECKED_IN)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED
    # Dropping is allowed; the players page flags the person.
    services.set_status(reg, Registration.Status.DROPPED)
    boss = UserFactory()
    OrganisationRole.objects.create(organisation=event.organisation, user=boss, role=Role.ORGANISER)
    client.force_login(boss)
    page = client.get(reverse("manage:players", kwargs={"slug": event.slug})).content.decode()
    assert "Suspended on this date" in page
