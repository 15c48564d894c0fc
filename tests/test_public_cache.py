"""The public pages' cache under load: one worker rebuilds a missing page while the
others wait for it, cached HTML is compact, and logging a caution (which no public page
shows) keeps the cache."""

import threading
import time
import uuid

from django.core.cache import cache

from events import cache as page_cache
from events.models import Event
from penalties import services as penalty_services
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
