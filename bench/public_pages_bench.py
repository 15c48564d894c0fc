"""Benchmark: rebuilding the public pages of the event-day load test's event.

The 300-player VEKN event of ``bench/load_setup.py`` (vekn-2026 preset, 300 players checked
in, round 1 seated in 60 tables of 5 and published, the standings published), with every
table of round 1 played, on a throwaway SQLite database and the per-process cache. Times,
through the Django test client as an anonymous visitor:

* a cache miss of the public standings and seating pages (the cache is cleared before
  each request: every request renders the page), ms per render (median wall time and
  median CPU time of the process) and queries per render;
* a result save followed by a visit to both pages ("save → rebuild"): what a scorekeeper's
  save costs the server once the visitors come back — the save itself plus every page it
  made stale, rendered once.

``--profile`` prints the top cumulative costs of ``save → rebuild`` (cProfile).

Run from the project root: ``.venv/bin/python bench/public_pages_bench.py [--runs N]``.
"""

import argparse
import cProfile
import datetime as dt
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
tmp = tempfile.mkdtemp(prefix="arbitro-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

PLAYERS = 300


def build_event():
    """The event of ``bench/load_setup.py`` (through the services), round 1 played."""
    from events import services
    from events.models import Organisation, Person
    from standings import vekn

    org = Organisation.objects.create(
        slug="load-org", name="Load Test VEKN", kind=Organisation.Kind.VEKN_COUNTRY
    )
    event = services.create_event(
        org, preset="vekn-2026", slug="load-2026", name="Load Test Open 2026", date=dt.date.today()
    )
    for i in range(1, PLAYERS + 1):
        person = Person.objects.create(name=f"Player {i:03d}", vekn_number=f"99{i:05d}")
        services.register(event, person, check_in=True)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    services.set_standings_published(event, True)
    rng = random.Random(1)
    sheets = {n: sorted(vekn.legal_sheets(n)) for n in (4, 5)}
    for table in rnd.tables.order_by("number"):
        size = table.seats.count()
        services.save_results(table, list(rng.choice(sheets[size])), version=table.version)
    return event, rnd, sheets


def timed(fn, runs):
    """Median wall time and median CPU time of this process (ms): on a shared machine the
    CPU time is the steadier figure (waiting for a core is not counted)."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["testserver"]
    started = time.perf_counter()
    event, rnd, sheets = build_event()
    print(f"setup: {PLAYERS} players, round 1 played, {time.perf_counter() - started:.1f} s")
    client = Client()
    pages = {
        "standings": f"/events/{event.slug}/standings/",
        "seating": f"/events/{event.slug}/seating/",
    }
    for url in pages.values():  # warm up (templates, translations)
        assert client.get(url).status_code == 200

    def miss(url):
        cache.clear()
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    print(f"Cache miss (render), {args.runs} runs each, median wall / CPU time:")
    for name, url in pages.items():
        with CaptureQueriesContext(connection) as ctx:
            miss(url)
        queries = len(ctx.captured_queries)  # now: the next request clears the log
        wall, cpu = timed(lambda url=url: miss(url), args.runs)
        size = len(client.get(url).content)
        print(
            f"  {name:9} {wall:6.1f} / {cpu:6.1f} ms per render, {queries} queries, {size:,} bytes"
        )

    from events import services
    from events.models import Table

    tables = list(rnd.tables.order_by("number"))
    rng = random.Random(2)
    rebuilt = []

    def save_then_visit():
        for url in pages.values():  # both pages cached before the save
            client.get(url)
        table = Table.objects.get(pk=rng.choice(tables).pk)
        size = table.seats.count()
        sheet = list(rng.choice(sheets[size]))
        start, start_cpu = time.perf_counter(), time.process_time()
        services.save_results(table, sheet, version=table.version)
        renders = 0
        for url in pages.values():
            with CaptureQueriesContext(connection) as ctx:
                client.get(url)
            renders += len(ctx.captured_queries) > 1  # a hit: the middleware's one query
        rebuilt.append(renders)
        return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000

    samples = [save_then_visit() for _ in range(args.runs)]
    print(
        "Result save → both pages visited: "
        f"{statistics.median(w for w, _ in samples):.1f} / "
        f"{statistics.median(c for _, c in samples):.1f} ms per save (wall / CPU), "
        f"pages rebuilt per save: {statistics.mean(rebuilt):.1f}"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.runs):
            save_then_visit()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
