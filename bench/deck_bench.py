"""Benchmark: checking VEKN decklists (events/deck_rules.py, docs/decks.md "Performance").

Run from the project root: ``.venv/bin/python bench/deck_bench.py``.

Prints the time to build the card index (once per process), then for a 90-card library
(a real TWDA deck, 102 cards in all) in each paste format (TWD, Lackey, JOL) the time of
``check_deck`` — first call (cold name cache) and the median, min and max of REPEATS
further calls — and the same for a list with five misspelt names (fuzzy matching and
suggestions), and 90 lines naming no card (reported, not checked). Then 1,000 different TWDA decks checked once each
(names not seen before), with the median and the 99th percentile.

Check (issue 15): every median under 50 ms, and the cold first call too. Exit status 1
if a check fails.
"""

import os
import random
import statistics
import string
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from krcg import providers, twda  # noqa: E402

from events import deck_rules  # noqa: E402

REPEATS = 50
LIMIT_MS = 50.0
DATA = ROOT / "tests" / "events" / "rules" / "data"


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> int:
    build = timed(deck_rules.card_index)
    index = deck_rules.card_index()
    print(f"card index built in {build:.0f} ms ({len(index.cards)} cards, {index.source})")
    twd = (DATA / "twd_13373.txt").read_text()
    texts = {
        "TWD": twd,
        "Lackey": (DATA / "lackey_13373.txt").read_text(),
        "JOL": (DATA / "jol_13373.txt").read_text(),
        "TWD, 5 misspelt": twd.replace("Deflection", "Deflecton")
        .replace("Redirection", "Redirectoin")
        .replace("Earth Meld", "Earth Mled")
        .replace("Spying Mission", "Spyng Mission")
        .replace("Conditioning", "Condtioning"),
    }
    failed = False
    print(f"\ncheck_deck, 12 crypt + 90 library cards ({REPEATS} runs after the first):")
    print(f"{'format':<18} {'first':>8} {'median':>8} {'min':>8} {'max':>8}  (ms)")
    for name, text in texts.items():
        first = timed(lambda text=text: deck_rules.check_deck(text))
        runs = [timed(lambda text=text: deck_rules.check_deck(text)) for _ in range(REPEATS)]
        median = statistics.median(runs)
        ok = median < LIMIT_MS and first < LIMIT_MS
        failed |= not ok
        print(
            f"{name:<18} {first:>8.2f} {median:>8.2f} {min(runs):>8.2f} {max(runs):>8.2f}"
            f"  {'PASS' if ok else 'FAIL'}"
        )
    rnd = random.Random(15)
    nonsense = "\n".join(
        "1x " + "".join(rnd.choice(string.ascii_lowercase) for _ in range(12)) for _ in range(90)
    )
    first = timed(lambda: deck_rules.check_deck(nonsense))
    print(f"\n90 lines naming no card (fuzzy match and suggestions each): {first:.2f} ms")
    decks = list(twda.load_local().values())[-1000:]
    texts = [providers.serialize_twd(deck, index.cards) for deck in decks]
    runs = sorted(timed(lambda text=text: deck_rules.check_deck(text)) for text in texts)
    median = statistics.median(runs)
    p99 = runs[int(len(runs) * 0.99) - 1]
    ok = median < LIMIT_MS
    failed |= not ok
    print(
        f"\n{len(texts)} different TWDA decks, once each: median {median:.2f} ms, "
        f"p99 {p99:.2f} ms, max {runs[-1]:.2f} ms  {'PASS' if ok else 'FAIL'}"
    )
    print(
        f"\nTarget: a 90-card list checked under {LIMIT_MS:.0f} ms: {'FAIL' if failed else 'PASS'}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
