"""The public pages' cache under load: one worker rebuilds a missing page while the
others wait for it, cached HTML is compact, and logging a caution (which no public page
shows) keeps the cache. And what ``make bench-load`` found: a result save no longer waits
for (or deadlocks with) a judge's penalty being logged at the same table."""

import threading
import time
import uuid
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection, connections, transaction

from events import cache as page_cache
from events.models import Event
from penalties import services as penalty_services
from standings import vekn
from tests.conftest import add_players


def test_one_build_for_many_waiting_requests(db):
    cache.clear()
    builds = []

    def build():
        builds.append(1)
        time.sleep(0.3)
        return "page"

    results = []
    threads = [
        threading.Thread(target=lambda: results.append(page_cache.get_or_build("k", build)))
        for _ in range(5)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert results == ["page"] * 5
    assert len(builds) == 1


def test_compact_html_renders_the_same_words():
    html = "<ul>\n    <li>Ana</li>\n\n    <li>Bruno</li> <li>Carla</li>\n</ul>\n"
    small = page_cache.compact(html)
    assert small == "<ul>\n<li>Ana</li>\n<li>Bruno</li> <li>Carla</li>\n</ul>\n"
    assert len(small) < len(html)


def test_a_caution_keeps_the_cached_public_pages(event, staff):
    add_players(event, 8)
    from events import services

    rnd = services.seat_next_round(event, seed=1)
    reg = event.registrations.first()
    before = Event.objects.get(pk=event.pk).public_version
    # 2.2 Card Access Error: a caution (SPEC-penalties §1.2), not shown publicly.
    penalty_services.log_penalty(
        event, reg, "2.2", {}, client_id=uuid.uuid4(), table=rnd.tables.first()
    )
    assert Event.objects.get(pk=event.pk).public_version == before
    # A disqualification changes the standings: the cache is invalidated.
    penalty_services.log_penalty(
        event, reg, "4.7", {}, client_id=uuid.uuid4(), table=rnd.tables.first()
    )
    assert Event.objects.get(pk=event.pk).public_version > before


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_a_result_save_and_a_penalty_logged_at_once_do_not_deadlock(event):
    """The deadlock ``make bench-load`` hit (one save answered 500): a judge's penalty that
    the public pages show bumps the event's ``public_version`` (a row lock on the event),
    and its foreign keys, checked at commit (Django's are deferred), need FOR KEY SHARE on
    the round. A save at another table of that round locked the table, the round and the
    event FOR UPDATE: it held the round, waited for the event; the judge's commit waited
    for the round. ``save_results`` now locks them FOR NO KEY UPDATE, which FOR KEY SHARE
    does not conflict with: the judge commits, then the save goes on."""
    from events import services

    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    first, second = rnd.tables.order_by("number")[:2]
    reg = first.seats.order_by("position").first().registration
    logged, release = threading.Event(), threading.Event()
    errors: list[Exception] = []

    def judge():
        try:
            with transaction.atomic():
                # 4.7 Unsportsmanlike conduct: a disqualification, shown publicly.
                penalty_services.log_penalty(
                    event, reg, "4.7", {}, client_id=uuid.uuid4(), table=first
                )
                logged.set()
                release.wait(15)
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            errors.append(exc)
        finally:
            connections.close_all()

    def scorekeeper():
        try:
            sheet = sorted(vekn.legal_sheets(second.seats.count()))[0]
            services.save_results(second, [Decimal(v) for v in sheet], version=second.version)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    judging = threading.Thread(target=judge)
    judging.start()
    assert logged.wait(10)
    scoring = threading.Thread(target=scorekeeper)
    scoring.start()
    time.sleep(0.5)  # the save is now waiting for the event row
    release.set()
    judging.join(15)
    scoring.join(15)
    assert errors == []
    assert Event.objects.get(pk=event.pk).public_version >= 2
