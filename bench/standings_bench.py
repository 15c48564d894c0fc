"""Benchmark of ``standings.vekn.compute_standings`` on a large VEKN event.

Builds a random but legal event — 1,000 players, 4 preliminary rounds seated in tables of 5
and 4 (as many 5s as possible, TR §3.1.2), every table a legal result sheet, a few
standings adjustments, Loss seats and drops, a recorded toss, and a played final — then
times ``compute_standings`` and compares the median with the 200 ms target.

Run from the project root: ``.venv/bin/python bench/standings_bench.py [--players N]``.
"""

import argparse
import os
import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from standings.vekn import (  # noqa: E402
    FinalResult,
    RoundResult,
    SeatResult,
    StandingsInput,
    TableResult,
    compute_standings,
    legal_sheets,
)

TARGET_MS = 200.0


def table_sizes(players: int) -> list[int]:
    """Tables of 5, plus 4s when N is not a multiple of 5 (TR §3.1.2; docs/rules-vekn.md
    "Seating")."""
    fours = (5 - players % 5) % 5
    fives = (players - 4 * fours) // 5
    if fives < 0:
        raise SystemExit(f"{players} players cannot be seated in tables of 4 and 5")
    return [5] * fives + [4] * fours


def build_event(players: int, rounds: int, seed: int) -> StandingsInput:
    rng = random.Random(seed)
    ids = tuple(range(1, players + 1))
    sheets = {n: sorted(legal_sheets(n)) for n in (4, 5)}
    sizes = table_sizes(players)
    round_results = []
    for number in range(1, rounds + 1):
        seated = list(ids)
        rng.shuffle(seated)
        tables, start = [], 0
        for size in sizes:
            sheet = rng.choice(sheets[size])
            seats = []
            for player, vp in zip(seated[start : start + size], sheet, strict=True):
                roll = rng.random()
                if roll < 0.01:  # a Loss seat (TR §3.1.4)
                    seats.append(SeatResult(player, None, loss=True))
                elif roll < 0.03:  # a standings adjustment (JG §1.1.3)
                    seats.append(SeatResult(player, vp, vp_adjustment=Decimal(-1)))
                else:
                    seats.append(SeatResult(player, vp))
            tables.append(TableResult(tuple(seats)))
            start += size
        round_results.append(RoundResult(number, tuple(tables)))

    event = StandingsInput(
        players=ids,
        rounds=tuple(round_results),
        toss=tuple(rng.sample(ids, len(ids))),
        disqualified=frozenset(rng.sample(ids, 3)),
        unavailable_for_final=frozenset(rng.sample(ids, 20)),
    )
    finalists = compute_standings(event).finalists
    seating = tuple(rng.sample(finalists, len(finalists)))
    final = FinalResult(seating, rng.choice(sheets[len(seating)]))
    return StandingsInput(
        players=event.players,
        rounds=event.rounds,
        toss=event.toss,
        disqualified=event.disqualified,
        unavailable_for_final=event.unavailable_for_final,
        final=final,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    event = build_event(args.players, args.rounds, args.seed)
    standings = compute_standings(event)  # warm-up (also fills the legal-sheet caches)
    assert standings.final_played and len(standings.rows) == args.players - 3

    timings = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        compute_standings(event)
        timings.append((time.perf_counter() - start) * 1000)

    median, best = statistics.median(timings), min(timings)
    tables = sum(len(r.tables) for r in event.rounds)
    print(
        f"compute_standings: {args.players} players, {args.rounds} rounds ({tables} tables) "
        f"+ final, {args.repeat} runs"
    )
    print(f"median {median:.1f} ms, min {best:.1f} ms, max {max(timings):.1f} ms")
    verdict = "PASS" if median < TARGET_MS else "FAIL"
    print(f"{verdict} (target: median under {TARGET_MS:.0f} ms)")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    raise SystemExit(main())
