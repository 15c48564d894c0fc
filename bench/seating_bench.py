"""Benchmark: our preliminary-round seating against krcg (the library behind the VEKN
Archon), on the official criteria R1..R9 (TR §3.1.2, docs/rules-vekn.md "Seating").

Run from the project root: ``.venv/bin/python bench/seating_bench.py``.

For each event size, rounds 1 and 2 are seated with ``events.seating.seat_round``
(fixed seeds); round 3 is then seated twice from the same history:

* ours: ``seat_round(rounds_1_2, players, seed=3)`` (default 3 s time limit),
* krcg: ``krcg.seating.optimise(rounds, 20000, fixed=2)`` on a ``get_rounds``-style
  list whose rounds 1–2 are ours and whose round 3 is the unseated copy to re-seat.

Both are scored with krcg's ``Score`` and with ``events.seating.score_rounds`` (the
two must agree). The 300-player case must PASS: ours under 5 s, ours R1 == 0 and our
total no worse than krcg's. krcg is skipped for 1000 players (its dense
players × players × 8 matrices make 20,000 iterations take many minutes).
Exit status 1 if a check fails.

First, rounds 2 and 3 for 17, 50 and 300 players (issue 14: "seating rounds 2-3 answers
under 1 s for 17 players"), each with full attendance and with drops and late arrivals
(round 2: 2 drops, 3 late arrivals; round 3: 3 more drops): round 1 seated with seed 1,
round 2 with seed 2, round 3 with seed 3 (default time limit), each timed REPEATS times
(median, min and max in ms; the seating must be the same each time). Printed with the
official total and, for reference, the total that the search before issue 14 reached on
the same seeds with no time limit (``REFERENCE``; round 3 is compared when round 2 is the
reference's seating or another of the same total). Checks: R1 == 0, 17 players under
1 s (median), totals no worse than the reference. ``seating_bench.py rounds`` runs only
this part.
"""

import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from krcg import seating as krcg  # noqa: E402  (dev/bench dependency only)

from events.seating import RULES, score_rounds, seat_round  # noqa: E402

# (players, run krcg); 298 needs 4-player tables (R3/R5 matter), the others are all 5s.
SIZES = ((25, True), (100, True), (298, True), (300, True), (1000, False))
KRCG_ITERATIONS = 20_000


# Rounds 2-3 timings (issue 14).
ROUND_SIZES = (17, 50, 300)
REPEATS = 5
# (players, drops and late arrivals) -> (round 2 total, round 2 seating digest, round 3
# total) reached by the search before issue 14 (commit 56fa48f), no time limit.
REFERENCE = {
    (17, False): (1035551026.0066724, "3790d347eb80", 28410807.77646673),
    (17, True): (1037314657.3548505, "e1c05a0bec28", 38302790.60354255),
    (50, False): (40.0, "820452e7f80b", 26.66666666666666),
    (50, True): (22953861.621146236, "7c1f908bfd67", 17085666.9901393),
    (300, False): (40.0, "3b88fabf4856", 26.666666666666668),
    (300, True): (11182267.614650043, "062a400d83ea", 9002129.345660776),
}


def round_players(n, late):
    """Players of rounds 1, 2 and 3: everybody, or 2 drops and 3 late arrivals in round 2
    and 3 more drops in round 3."""
    players = [f"P{i:04d}" for i in range(n)]
    if not late:
        return players, players, players
    second = players[2:] + ["L1", "L2", "L3"]
    return players, second, second[3:]


def digest(seating):
    return hashlib.sha1(repr(seating).encode()).hexdigest()[:12]


def timed(previous, players, seed):
    """Seat one round REPEATS times: (seating, median, min, max seconds)."""
    times, seatings = [], []
    for _ in range(REPEATS):
        started = time.perf_counter()
        seatings.append(seat_round(previous, players, seed=seed))
        times.append(time.perf_counter() - started)
    if any(s != seatings[0] for s in seatings):
        print("    (the time limit was hit: the seatings differ between repeats)")
    return seatings[0], statistics.median(times), min(times), max(times)


def rounds_2_3():
    """Time rounds 2 and 3 (ROUND_SIZES), compare totals with REFERENCE; failures."""
    failures = []
    print("Rounds 2 and 3: ms (median / min / max of", REPEATS, "runs), official total")
    for n in ROUND_SIZES:
        for late in (False, True):
            label = f"{n} players" + (", drops and late arrivals" if late else "")
            first, second, third = round_players(n, late)
            r1 = seat_round([], first, seed=1)
            ref = REFERENCE.get((n, late))
            rows = []
            r2, *t2 = timed([r1], second, 2)
            rows.append((2, t2, score_rounds([r1, r2]), ref and ref[0], "same"))
            r3, *t3 = timed([r1, r2], third, 3)
            history = "same" if ref and digest(r2) == ref[1] else "other"
            rows.append((3, t3, score_rounds([r1, r2, r3]), ref and ref[2], history))
            for number, (median, low, high), score, reference, history in rows:
                if reference is None:
                    versus = ""
                elif history == "other" and abs(rows[0][2].total - ref[0]) > 1e-6:
                    versus = f"  (reference {reference:,.2f}: from another round 2)"
                else:
                    ok = score.total <= reference * (1 + 1e-12) + 1e-6
                    change = (
                        "same"
                        if abs(score.total - reference) <= 1e-6
                        else ("better" if ok else "WORSE")
                    )
                    versus = f"  reference {reference:,.2f} ({change})"
                    if history == "other":  # round 2 differs, with the same total
                        versus += ", after another round 2 of the same total"
                    if not ok:
                        failures.append(f"{label}, round {number}: total worse than before")
                print(
                    f"  {label:<36} round {number}: {median * 1000:7.0f} ms "
                    f"({low * 1000:.0f} / {high * 1000:.0f})  total {score.total:,.2f}"
                    f"  R1 {score.rules[0]}{versus}"
                )
                if score.rules[0]:
                    failures.append(f"{label}, round {number}: R1 = {score.rules[0]}")
                if n == 17 and median >= 1.0:
                    failures.append(f"{label}, round {number}: {median:.2f} s, not under 1 s")
    for failure in failures:
        print("  FAIL:", failure)
    if not failures:
        print("  rounds 2-3: all checks PASS")
    return failures


def history(players):
    """Rounds 1 and 2 seated by us, with fixed seeds."""
    rounds = []
    for seed in (1, 2):
        rounds.append(seat_round(rounds, players, seed=seed))
    return rounds


def run_ours(rounds, players):
    started = time.perf_counter()
    seating = seat_round(rounds, players, seed=3)
    return [*rounds, seating], time.perf_counter() - started


def run_krcg(rounds, players):
    base = krcg.get_rounds(list(players), 3)
    base[0] = krcg.Round([list(t) for t in rounds[0]])
    base[1] = krcg.Round([list(t) for t in rounds[1]])
    started = time.perf_counter()
    result, _ = krcg.optimise(base, KRCG_ITERATIONS, fixed=2)
    elapsed = time.perf_counter() - started
    return [[list(t) for t in r] for r in result], elapsed


def row(name, elapsed, rounds):
    ours = score_rounds(rounds)
    theirs = krcg.Score([krcg.Round([list(t) for t in r]) for r in rounds])
    agree = abs(ours.total - float(theirs.total)) <= 1e-6 * max(1.0, abs(ours.total))
    cells = [f"{v:.4f}" if isinstance(v, float) else str(v) for v in ours.rules]
    print(
        f"  {name:<6}{elapsed:>8.2f}s "
        + " ".join(f"{c:>7}" for c in cells)
        + f" {ours.total:>18.2f} {float(theirs.total):>18.2f}"
        + ("" if agree else "  <- scores disagree!")
    )
    return ours, agree


def main() -> int:
    began = time.perf_counter()
    round_failures = rounds_2_3()
    if sys.argv[1:] == ["rounds"]:
        return 1 if round_failures else 0
    failures = []
    header = " ".join(f"{r.code:>7}" for r in RULES)
    only = {int(a) for a in sys.argv[1:]}  # e.g. `seating_bench.py 298` runs one size
    for n, with_krcg in SIZES:
        if only and n not in only:
            continue
        players = [f"P{i:04d}" for i in range(n)]
        rounds = history(players)
        print(f"\n{n} players, round 3 (rounds 1-2 seated by us)")
        print(f"  {'':<6}{'time':>9} {header} {'total (ours)':>18} {'total (krcg)':>18}")
        ours_rounds, ours_time = run_ours(rounds, players)
        ours, agree = row("ours", ours_time, ours_rounds)
        if not agree:
            failures.append(f"{n}: score_rounds and krcg Score disagree")
        theirs = None
        if with_krcg:
            krcg_rounds, krcg_time = run_krcg(rounds, players)
            theirs, agree = row("krcg", krcg_time, krcg_rounds)
            if not agree:
                failures.append(f"{n}: score_rounds and krcg Score disagree (krcg seating)")
        else:
            print(f"  krcg  skipped ({KRCG_ITERATIONS} iterations on {n} players are too slow)")
        checks = [
            (f"ours < 5 s ({ours_time:.2f} s)", ours_time < 5.0),
            (f"ours R1 == 0 ({ours.rules[0]})", ours.rules[0] == 0),
        ]
        if theirs is not None:
            checks.append(
                (
                    f"ours total <= krcg total ({ours.total:.2f} vs {theirs.total:.2f})",
                    ours.total <= theirs.total * (1 + 1e-9) + 1e-6,
                )
            )
        for label, ok in checks:
            print(f"  {'PASS' if ok else 'FAIL'}: {label}")
            if not ok and n == 300:
                failures.append(f"{n}: {label}")
    print(f"\nbench time {time.perf_counter() - began:.1f} s")
    if round_failures:
        print("FAILED (rounds 2-3):", "; ".join(round_failures))
    if failures:
        print("FAILED (300 players):", "; ".join(failures))
    if failures or round_failures:
        return 1
    print("300 players: all checks PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
