"""Benchmark: a VEKN ranking of 5,000 players and 2,000 rated events in its 18-month window
(TR Appendix A; docs/performance.md "Rankings") on a throwaway SQLite database, without
the page cache: the first request stores every event's rating points (the cold path,
``standings.rating_services.refresh``), the next ones read the stored rows. Also the
rankings API, a player's rated events, and the query counts.
Run: ``.venv/bin/python bench/rankings_bench.py``."""

import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
tmp = tempfile.mkdtemp(prefix="arbitro-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402


class CaptureQueriesContext:
    """Counts the queries run on the default connection (``execute_wrapper``)."""

    def __init__(self, conn):
        self.conn, self.captured_queries = conn, []

    def __enter__(self):
        def wrapper(execute, sql, params, many, context):
            self.captured_queries.append(sql)
            return execute(sql, params, many, context)

        self._cm = self.conn.execute_wrapper(wrapper)
        self._cm.__enter__()
        return self

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


PLAYERS = 5000
EVENTS = 2000
PER_EVENT = 20  # 4 tables of 5, two preliminary rounds and a final: 8 events per player
AS_OF = date(2026, 12, 1)
TARGET_MS = 300


def timed(fn, runs):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples)


def build():
    """5,000 people, 2,000 published events over the 18 months before ``AS_OF``, each
    with 20 players, two preliminary rounds of four 5-player tables and a final."""
    from events.models import Event, Organisation, Person, Registration, Round, Seat, Table
    from standings import vekn

    rng = random.Random(16)
    org = Organisation.objects.create(slug="bench", name="Bench")
    people = Person.objects.bulk_create(
        [Person(name=f"Player {i:04d}", vekn_number=f"{3000000 + i}") for i in range(PLAYERS)]
    )
    events = Event.objects.bulk_create(
        [
            Event(
                organisation=org,
                slug=f"e{i}",
                name=f"Event {i}",
                date=AS_OF - timedelta(days=rng.randrange(0, 540)),
                preliminary_rounds=2,
                standings_published=True,
            )
            for i in range(EVENTS)
        ]
    )
    regs = []
    for event in events:
        for n, person in enumerate(rng.sample(people, PER_EVENT), start=1):
            regs.append(Registration(event=event, person=person, code=f"p{n}"))
    regs = Registration.objects.bulk_create(regs, batch_size=5000)
    by_event = {}
    for r in regs:
        by_event.setdefault(r.event_id, []).append(r)
    rounds = Round.objects.bulk_create(
        [
            Round(event=e, number=n, is_final=n == 3, seating_published=True)
            for e in events
            for n in (1, 2, 3)
        ],
        batch_size=5000,
    )
    tables = Table.objects.bulk_create(
        [Table(round=r, number=t) for r in rounds for t in range(1, (2 if r.is_final else 5))],
        batch_size=5000,
    )
    tables_of = {}
    for t in tables:
        tables_of.setdefault(t.round_id, []).append(t)
    sheets = sorted(vekn.legal_sheets(5))
    final_sheet = next(s for s in sheets if s[0] > max(s[1:]))
    seats = []
    for r in rounds:
        players = by_event[r.event_id][:]
        if r.is_final:
            order = players[:5]
            groups = [(tables_of[r.id][0], order, final_sheet)]
        else:
            rng.shuffle(players)
            groups = [
                (t, players[i * 5 : i * 5 + 5], rng.choice(sheets))
                for i, t in enumerate(tables_of[r.id])
            ]
        for table, group, sheet in groups:
            for position, (reg, vp) in enumerate(zip(group, sheet, strict=True), start=1):
                seats.append(
                    Seat(
                        table=table,
                        round=r,
                        registration=reg,
                        position=position,
                        vp=Decimal(str(vp)),
                    )
                )
    Seat.objects.bulk_create(seats, batch_size=5000)
    return people


def main() -> int:
    call_command("migrate", verbosity=0)
    from django.conf import settings

    from events.models import RatedResult
    from standings import rating_services

    settings.ALLOWED_HOSTS = ["testserver"]
    start = time.perf_counter()
    people = build()
    print(f"built {PLAYERS} players, {EVENTS} events in {time.perf_counter() - start:.1f} s")

    def rank():
        return rating_services.ranking("constructed", False, AS_OF)

    start = time.perf_counter()
    with CaptureQueriesContext(connection) as cold_ctx:
        rows = rank()
    cold = (time.perf_counter() - start) * 1000
    stored = RatedResult.objects.count()
    with CaptureQueriesContext(connection) as warm_ctx:
        assert rank() == rows
    med, low = timed(rank, 9)
    client = Client()
    url = f"/api/v1/rankings?category=constructed&online=false&as_of={AS_OF}"
    api_med, api_low = timed(lambda: client.get(url), 9)
    page_med, _ = timed(lambda: client.get(f"/rankings/?as_of={AS_OF}"), 5)
    person = people[0]
    hist_med, _ = timed(lambda: rating_services.player_history(person, AS_OF), 9)
    print(f"ranking: {len(rows)} players listed, {stored} stored results")
    print(
        f"  cold (computes and stores every event's points): {cold:.0f} ms, "
        f"{len(cold_ctx.captured_queries)} queries"
    )
    print(
        f"  warm ranking (service): median {med:.1f} ms, min {low:.1f} ms, "
        f"{len(warm_ctx.captured_queries)} queries"
    )
    print(f"GET {url}: median {api_med:.1f} ms, min {api_low:.1f} ms")
    print(f"GET /rankings/ (page, {len(rows)} rows): median {page_med:.1f} ms")
    print(f"player_history: median {hist_med:.1f} ms")
    ok = api_med < TARGET_MS and len(warm_ctx.captured_queries) <= 4
    print(("PASS" if ok else "FAIL") + f" (target: the rankings API median under {TARGET_MS} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
