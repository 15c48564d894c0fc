"""Benchmark: standings of a 1,000-player event (4 preliminary rounds and a final) through
the whole stack — database load + rules (``event_standings``) and the JSON API — on a
throwaway SQLite database. Run: ``.venv/bin/python bench/standings_db_bench.py``."""

import os
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

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

TARGET_MS = 200


def timed(fn, runs):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples)


def main() -> int:
    call_command("migrate", verbosity=0)
    from events.interchange import import_event
    from standings.services import event_standings
    from tests.events.services.test_interchange import make_file

    event = import_event(make_file(players=1000, rounds=4, final=True, slug="bench"), publish=True)
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["testserver"]
    client = Client()
    with CaptureQueriesContext(connection) as ctx:
        event_standings(event)
    queries = len(ctx.captured_queries)
    reset_queries()
    med, low = timed(lambda: event_standings(event), 15)
    api_med, api_low = timed(lambda: client.get("/api/v1/events/bench/standings"), 15)
    print("event_standings (DB + rules), 1000 players, 4 rounds + final, SQLite")
    print(f"  median {med:.1f} ms, min {low:.1f} ms, {queries} queries")
    print(f"GET /api/v1/events/bench/standings: median {api_med:.1f} ms, min {api_low:.1f} ms")
    ok = med < TARGET_MS
    print(("PASS" if ok else "FAIL") + f" (target: event_standings median under {TARGET_MS} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
