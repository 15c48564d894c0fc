"""Suspended or banned people cannot be registered to an event whose date falls in the
sanction (Mitos y Leyendas conduct rules §4.1, SPEC-penalties §2.4)."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from events import services
from events.errors import UserError
from penalties.models import Sanction
from tests.factories import EventFactory


@pytest.fixture
def person(db):
    return services.find_or_create_person("Rafa Soto", "")


def sanction(person, kind, start, end=None, **extra):
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
