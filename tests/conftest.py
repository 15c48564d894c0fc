"""Shared fixtures: an event with staff of each role and an outsider (three personas, as
healthchecks' alice/bob/charlie), and helpers to play rounds with legal sheets."""

import random

import pytest

from events import services
from events.models import Registration
from events.permissions import Role
from standings import vekn
from tests.factories import EventFactory, EventRoleFactory, RegistrationFactory, UserFactory


@pytest.fixture(autouse=True)
def _clear_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _language_restored():
    """A page asked in Spanish activates Spanish for the thread (LocaleMiddleware); put
    back what was active, so that no test's messages depend on the one before it."""
    from django.utils import translation

    before = translation.get_language()
    yield
    if before:
        translation.activate(before)
    else:
        translation.deactivate()


@pytest.fixture
def event(db):
    return EventFactory(slug="open-2026", name="Open 2026")


@pytest.fixture
def staff(event):
    """One user per role on ``event``, plus an outsider and a user staffing another event."""
    users = {}
    for role in Role:
        user = UserFactory(username=role.value)
        EventRoleFactory(event=event, user=user, role=role)
        users[role.value] = user
    users["outsider"] = UserFactory(username="outsider")
    other = EventFactory(slug="other-event")
    users["other_organiser"] = UserFactory(username="other_organiser")
    EventRoleFactory(event=other, user=users["other_organiser"], role=Role.ORGANISER)
    return users


def add_players(event, n: int) -> list[Registration]:
    return [RegistrationFactory(event=event) for _ in range(n)]


def play_round(rnd, rng: random.Random | None = None, actor=None):
    """Enter a random legal sheet at every table of ``rnd``."""
    rng = rng or random.Random(rnd.number)
    for table in rnd.tables.order_by("number"):
        size = table.seats.count()
        sheet = rng.choice(sorted(vekn.legal_sheets(size)))
        services.save_results(table, list(sheet), version=table.version, actor=actor)


@pytest.fixture
def played_event(event):
    """``event`` with 12 players (tables 4-4-4) and 3 preliminary rounds played."""
    add_players(event, 12)
    for number in range(1, 4):
        rnd = services.seat_next_round(event, seed=number)
        play_round(rnd)
    return event
