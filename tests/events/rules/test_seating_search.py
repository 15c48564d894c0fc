"""The seating optimiser's incremental (delta) scoring (TR §3.1.2; docs/rules-vekn.md
"Seating"): every swap the annealing accepts changes its running cost by exactly what a
full rescoring of the round with :func:`events.seating.score_rounds` says, and its
per-table and spread bookkeeping stays equal to a fresh recomputation.

White-box tests of :mod:`events.seating_search` internals (``_Model``, ``_Search``):
property-style, over many random swaps with fixed seeds."""

import math
import random

import pytest

from events.seating import score_rounds, table_sizes
from events.seating_rules import W3, W8
from events.seating_search import _Model, _Search

HOT = 1e30  # a temperature at which practically every swap is accepted
NEVER = math.inf  # no deadline


def tables_of(search, players):
    """The search's current seating, with the players' names."""
    return [
        [players[a] for a in search.flat[start : start + size]]
        for start, size in zip(search.starts, search.sizes, strict=True)
    ]


def history(players, rounds, seed):
    """``rounds`` previous rounds, each a random seating at tables of table_sizes()."""
    rng = random.Random(seed)
    previous = []
    for _ in range(rounds):
        shuffled = list(players)
        rng.shuffle(shuffled)
        tables, start = [], 0
        for size in table_sizes(len(shuffled)):
            tables.append(shuffled[start : start + size])
            start += size
        previous.append(tables)
    return previous


def scenarios():
    """(previous rounds, players of the new round): uniform histories, 4-player tables,
    late arrivals and drops (players without history, players who left)."""
    cases = []
    for n, rounds in ((9, 1), (13, 2), (17, 2), (20, 1), (23, 3), (34, 2)):
        players = [f"P{i}" for i in range(n)]
        cases.append(pytest.param(history(players, rounds, n), players, id=f"{n}p-{rounds}r"))
    players = [f"P{i}" for i in range(22)]
    previous = history(players, 1, 7)
    late = players[3:] + ["Late1", "Late2", "Late3", "Late4"]  # 3 drops, 4 late arrivals
    cases.append(pytest.param(previous, late, id="late-arrivals-and-drops"))
    return cases


def fresh_costs(search):
    """Per-table costs, spread cost and total recomputed from scratch."""
    tables = [search.table_cost(t) for t in range(len(search.sizes))]
    model = search.model
    s1v, s2v, s1t, s2t = model.fixed
    for k, a in enumerate(search.flat):
        v = model.vp_values[a][search.size_of[k]]
        t = model.tr_values[a][search.trans_of[k]]
        s1v, s2v, s1t, s2t = s1v + v, s2v + v * v, s1t + t, s2t + t * t
    spread = W3 * model.spread(s1v, s2v) + W8 * model.spread(s1t, s2t)
    return tables, spread, sum(tables) + spread


@pytest.mark.parametrize(("previous", "players"), scenarios())
@pytest.mark.parametrize("plateau", [False, True])
def test_swap_deltas_equal_full_rescoring(previous, players, plateau):
    rng = random.Random(2026)
    model = _Model(previous, players)
    order = list(range(len(players)))
    rng.shuffle(order)
    search = _Search(model, table_sizes(len(players)), order, rng)
    before_total = score_rounds([*previous, tables_of(search, players)]).total
    before_cost = search.cost
    accepted = 0
    for _ in range(400):
        flat = list(search.flat)
        search.anneal(1, HOT, HOT, NEVER, 0, plateau)
        if search.flat == flat:
            continue
        accepted += 1
        moved = [k for k in range(len(flat)) if flat[k] != search.flat[k]]
        assert len(moved) == 2  # one swap of two seats
        total = score_rounds([*previous, tables_of(search, players)]).total
        # the running cost moved by exactly the official total's difference
        assert search.cost - before_cost == pytest.approx(total - before_total, abs=1e-4)
        tables, spread, cost = fresh_costs(search)
        assert search.tcost == tables  # integers: exact
        assert search.spread_cost == pytest.approx(spread, abs=1e-6)
        assert search.cost == pytest.approx(cost, abs=1e-4)
        for a, k in enumerate(search.position):
            assert search.flat[k] == a
        before_total, before_cost = total, search.cost
    assert accepted >= (5 if plateau else 40)


@pytest.mark.parametrize(("previous", "players"), scenarios())
def test_long_annealing_keeps_its_books(previous, players):
    """After many steps (cooling, resets to the best), the running cost is still the
    recomputed one, and the best seating kept has the best cost seen."""
    rng = random.Random(11)
    model = _Model(previous, players)
    order = list(range(len(players)))
    rng.shuffle(order)
    search = _Search(model, table_sizes(len(players)), order, rng)
    assert search.anneal(20_000, 3e6, 0.05, NEVER, 1024)
    assert search.cost == pytest.approx(fresh_costs(search)[2], abs=1e-4)
    best_cost = search.best_cost
    search.restore_best()
    assert search.cost == pytest.approx(best_cost, abs=1e-4)
    assert sorted(search.flat) == list(range(len(players)))
