"""The capacity holds when players register at once (events/waitlist.py,
events/self_service.py; docs/players.md "The waitlist"): the event's row lock
(``select_for_update`` on PostgreSQL; on SQLite each transaction takes the write lock
as it begins, ``transaction_mode`` IMMEDIATE) lets one transaction count the places
at a time. Runs on both databases, in threads with a connection each."""

import threading

import pytest
from django.db import connections

from events import self_service
from events.models import Registration, WaitlistEntry
from tests.factories import EventFactory, PersonFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(*calls):
    """Run the calls in threads released at the same instant; their results or
    exceptions, in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(i, fn):
        try:
            barrier.wait()
            results[i] = fn()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def players(n):
    users = []
    for i in range(n):
        user = UserFactory(username=f"racer{i}")
        PersonFactory(name=f"Racer {i}", user=user, vekn_number="")
        users.append(user)
    return users


def test_two_players_for_the_last_place_at_once():
    event = EventFactory(self_registration=True, capacity=1)
    a, b = players(2)
    results = run_together(
        lambda: self_service.self_register(event, a), lambda: self_service.self_register(event, b)
    )
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(kind for kind, _ in results) == ["registered", "waitlisted"]
    assert Registration.objects.filter(event=event).count() == 1
    assert WaitlistEntry.objects.filter(event=event).count() == 1


def test_six_players_for_three_places_and_one_leaving_at_once():
    event = EventFactory(self_registration=True, capacity=3)
    first, *racers = players(7)
    self_service.self_register(event, first)
    calls = [lambda u=u: self_service.self_register(event, u) for u in racers]
    calls.append(lambda: self_service.self_unregister(event, first))
    results = run_together(*calls)
    assert not any(isinstance(r, Exception) for r in results), results
    assert Registration.objects.filter(event=event).count() == 3
    assert WaitlistEntry.objects.filter(event=event).count() == 3
    assert not Registration.objects.filter(event=event, person__user=first).exists()
