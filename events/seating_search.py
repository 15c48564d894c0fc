"""Preliminary-round seating search: the optimiser behind :func:`seat_round`.

An exact seat plan (min-cost flow) refined by simulated annealing over seat swaps, with
the incremental costs of the rules in :mod:`events.seating_rules` (TR §3.1.2;
``docs/rules-vekn.md`` "Seating"). :mod:`events.seating` re-exports :func:`seat_round`
(importers use it).

Pure Python (standard library only), no database access.
"""

from __future__ import annotations

import collections
import itertools
import math
import random
import time
from collections.abc import Hashable, Sequence

from events.seating_rules import (
    _EPS,
    _GROUP,
    _MIRROR,
    _PRED,
    _PREY,
    _REL,
    _TRANSFERS,
    W1,
    W2,
    W3,
    W4,
    W5,
    W6,
    W7,
    W8,
    W9,
    Seating,
    SeatingError,
    _History,
    table_sizes,
)

# ---------------------------------------------------------------------- optimiser


class _Model:
    """The cost of seating the next round, given the history (incremental form).

    The weighted total of all rounds (new one included) equals a constant plus:

    * for each pair at a table of the new round, a cost depending on their history
      and relative position (R1, R2, R4, R6, R9),
    * for each player, a cost depending on the seat (R5, R7),
    * the two standard deviations R3 and R8, kept exact with integer sums.
    """

    def __init__(self, previous: Sequence[Seating], players: list[Hashable]) -> None:
        history = _History(previous)
        rounds_count = len(previous) + 1
        n = len(players)
        hid = [history.index.get(p) for p in players]
        present = {h for h in hid if h is not None}
        self.trivial = not present
        # everybody in the round has played as often: the mean VP / transfers of the
        # new round are known in advance, which makes the seat plan exact
        self.uniform = len({history.played[h] if h is not None else 0 for h in hid}) <= 1
        # pair and seat costs, seen from each local player
        local = {h: k for k, h in enumerate(hid) if h is not None}
        pair_costs: list[dict[int, tuple[int, ...]]] = [{} for _ in range(n)]
        for (i, j), stats in history.pairs.items():
            a = local.get(i)
            b = local.get(j)
            if a is None or b is None:
                continue
            opp = len(stats[0])
            together = (W2 if opp == rounds_count - 1 else 0) + (W4 if opp == 1 else 0)
            costs = []
            for rel in range(5):
                cost = together
                if len(stats[1 + rel]) == 1:
                    cost += W6 + (W1 if rel in (_PREY, _PRED) else 0)
                if len(stats[6 + _GROUP[rel]]) == 1:
                    cost += W9
                costs.append(cost)
            if any(costs):
                pair_costs[a][b] = tuple(costs)
                pair_costs[b][a] = tuple(costs[_MIRROR[rel]] for rel in range(5))
        self.pair_costs = pair_costs
        # the same, dense: pair_rows[a][b] is pair_costs[a].get(b) (a list index is
        # cheaper than a dict look-up in the search's inner loop)
        pair_rows: list[list[tuple[int, ...] | None]] = []
        for costs in pair_costs:
            row: list[tuple[int, ...] | None] = [None] * n
            for b, c in costs.items():
                row[b] = c
            pair_rows.append(row)
        self.pair_rows = pair_rows
        seat_costs = []
        for h in hid:
            if h is None:
                seat_costs.append((0, 0, 0, 0, 0))
                continue
            seats = history.seats[h]
            seat_costs.append(
                tuple(
                    (W7 if len(seats[s]) == 1 else 0) + (W5 if s == 4 and len(seats[s]) == 1 else 0)
                    for s in range(5)
                )
            )
        self.seat_costs = seat_costs
        # R3 / R8 over every player of any round: values scaled by a common
        # denominator so that sums of squares stay exact integers.
        denominators = {history.played[h] for h in range(len(history.players))}
        denominators |= {(history.played[h] if h is not None else 0) + 1 for h in hid}
        scale = math.lcm(*denominators)
        self.count = len(history.players) + sum(1 for h in hid if h is None)
        s1v = s2v = s1t = s2t = 0
        for h in range(len(history.players)):
            if h in present:
                continue
            v = history.vps[h] * scale // history.played[h]
            t = history.transfers[h] * scale // history.played[h]
            s1v += v
            s2v += v * v
            s1t += t
            s2t += t * t
        self.fixed = (s1v, s2v, s1t, s2t)
        self.scale = scale
        # per local player: scaled mean VP by table size, scaled mean transfers by seat value
        self.vp_values: list[tuple[int, ...]] = []
        self.tr_values: list[tuple[int, ...]] = []
        for h in hid:
            played = vps = transfers = 0
            if h is not None:
                played, vps, transfers = history.played[h], history.vps[h], history.transfers[h]
            factor = scale // (played + 1)
            self.vp_values.append(tuple((vps + size) * factor for size in range(6)))
            self.tr_values.append(tuple((transfers + t) * factor for t in range(5)))

    def spread(self, s1: int, s2: int) -> float:
        """Standard deviation from scaled integer sums."""
        n = self.count
        return math.sqrt(max(0, n * s2 - s1 * s1)) / (self.scale * n)


class _Search:
    """Simulated annealing over swaps of two seats, with incremental delta costs.

    The seating is ``flat``: player indices in seat order, tables in a row (``starts``,
    ``sizes``). The running ``cost`` is the model's cost (the krcg total of all rounds
    minus a constant, TR §3.1.2 criteria R1..R9): ``sum(tcost)`` (pair and seat costs
    per table, integers) plus ``spread_cost`` (R3 and R8, from the integer ``sums``).
    A swap is scored by its delta only: the two players' seat costs and their pairs
    with their table mates (``others``: each position's table mates and the relation
    of each, an index into a pair's 5 costs in ``_Model.pair_rows``), and the spread
    sums; ``tests/events/rules/test_seating_search.py`` checks that each accepted delta equals
    the difference of two full :func:`events.seating_rules.score_rounds` totals.
    """

    def __init__(
        self, model: _Model, sizes: list[int], order: list[int], rng: random.Random
    ) -> None:
        self.model = model
        self.rng = rng
        self.sizes = sizes
        self.starts = []
        tab_of: list[int] = []
        seat_of: list[int] = []
        size_of: list[int] = []
        trans_of: list[int] = []
        start = 0
        for t, size in enumerate(sizes):
            self.starts.append(start)
            for s in range(size):
                tab_of.append(t)
                seat_of.append(s)
                size_of.append(size)
                trans_of.append(_TRANSFERS[size][s])
            start += size
        self.tab_of, self.seat_of, self.size_of, self.trans_of = tab_of, seat_of, size_of, trans_of
        # for each position, the other positions of its table with the relation of the
        # player there seen from the player here (an index into a pair's 5 costs)
        self.others: list[tuple[tuple[int, int], ...]] = []
        for k, t in enumerate(tab_of):
            size, start = sizes[t], self.starts[t]
            rel = _REL[size]
            self.others.append(
                tuple(
                    (p, rel[(seat_of[p] - seat_of[k]) % size])
                    for p in range(start, start + size)
                    if p != k
                )
            )
        # kind of seat (size, seat number) of each position, and positions per kind
        kinds = sorted(set(zip(size_of, seat_of, strict=True)))
        self.kind_of = [kinds.index(kind) for kind in zip(size_of, seat_of, strict=True)]
        self.kind_positions = [
            [k for k in range(len(size_of)) if self.kind_of[k] == i] for i in range(len(kinds))
        ]
        # players that are interchangeable for the seat and spread costs
        keys: dict[tuple, int] = {}
        self.group_of = [
            keys.setdefault(
                (model.vp_values[a], model.tr_values[a], model.seat_costs[a]), len(keys)
            )
            for a in range(len(order))
        ]
        self.group_members: list[list[int]] = [[] for _ in keys]
        for a, g in enumerate(self.group_of):
            self.group_members[g].append(a)
        self.flat: list[int] = []
        self.position: list[int] = [0] * len(order)
        self.tcost: list[int] = []
        self.best: list[int] = []
        self.restart(order)

    def restart(self, order: list[int]) -> None:
        """Start again from the seating ``order`` (players in seat order, tables in a row)."""
        self.flat[:] = order
        self.reset_sums()
        self.best[:] = self.flat
        self.best_cost = self.cost

    def table_cost(self, t: int) -> int:
        start = self.starts[t]
        size = self.sizes[t]
        return self._table_cost(self.flat[start : start + size], size)

    def _table_cost(self, players: list[int], size: int) -> int:
        pair_costs = self.model.pair_costs
        seat_costs = self.model.seat_costs
        rel = _REL[size]
        cost = 0
        for x in range(size):
            a = players[x]
            cost += seat_costs[a][x]
            costs = pair_costs[a]
            if costs:
                for y in range(x + 1, size):
                    c = costs.get(players[y])
                    if c is not None:
                        cost += c[rel[y - x]]
        return cost

    def reset_sums(self) -> None:
        model = self.model
        s1v, s2v, s1t, s2t = model.fixed
        for k, a in enumerate(self.flat):
            self.position[a] = k
            v = model.vp_values[a][self.size_of[k]]
            t = model.tr_values[a][self.trans_of[k]]
            s1v += v
            s2v += v * v
            s1t += t
            s2t += t * t
        self.sums = [s1v, s2v, s1t, s2t]
        self.tcost[:] = [self.table_cost(t) for t in range(len(self.sizes))]
        self.spread_cost = W3 * model.spread(s1v, s2v) + W8 * model.spread(s1t, s2t)
        self.cost = sum(self.tcost) + self.spread_cost

    def anneal(
        self,
        iterations: int,
        t_high: float,
        t_low: float,
        deadline: float,
        reset: int,
        plateau: bool = False,
        floor: float = -1.0,
    ) -> bool:
        """Anneal from ``t_high`` to ``t_low`` (exponential cooling) over
        ``iterations`` swaps, going back to the best state every ``reset`` steps;
        return False if the deadline was hit.

        With ``plateau``, only swaps that leave the seat and spread costs (R3, R5,
        R7, R8) exactly as they are are tried — players on the same kind of seat,
        players with the same figures, or any other such exchange: the seat plan's
        value stays, only who sits with whom changes. The run stops as soon as the
        cost reaches ``floor`` (a known lower bound).
        """
        model = self.model
        rng = self.rng
        random_ = rng.random
        getrandbits = rng.getrandbits

        def below(m: int) -> int:
            """``rng.randrange(m)``: the same draws, fewer calls."""
            bits = m.bit_length()
            r = getrandbits(bits)
            while r >= m:
                r = getrandbits(bits)
            return r

        flat = self.flat
        tab_of, seat_of, size_of, trans_of = self.tab_of, self.seat_of, self.size_of, self.trans_of
        starts, sizes, tcost = self.starts, self.sizes, self.tcost
        vp_values, tr_values, seat_costs = model.vp_values, model.tr_values, model.seat_costs
        rows, others, mirror = model.pair_rows, self.others, _MIRROR
        spread = model.spread
        n = len(flat)
        n_bits = n.bit_length()
        s1v, s2v, s1t, s2t = self.sums
        spread_cost = self.spread_cost
        vp_part, tr_part = W3 * spread(s1v, s2v), W8 * spread(s1t, s2t)  # spread_cost's parts
        count, denominator, sqrt = model.count, model.scale * model.count, math.sqrt
        cost = self.cost
        best_cost = self.best_cost
        kind_of, kind_positions = self.kind_of, self.kind_positions
        group_of, group_members, position = self.group_of, self.group_members, self.position
        exp = math.exp
        log_ratio = math.log(t_low / t_high)
        temperature = t_high
        for step in range(iterations):
            if not step & 255:
                if time.perf_counter() > deadline:
                    self.cost = cost
                    return False
                temperature = t_high * exp(log_ratio * step / iterations)
                if reset and step and not step % reset and cost > best_cost:
                    flat[:] = self.best
                    self.reset_sums()
                    s1v, s2v, s1t, s2t = self.sums
                    vp_part, tr_part = W3 * spread(s1v, s2v), W8 * spread(s1t, s2t)
                    spread_cost = self.spread_cost
                    cost = self.cost
            # k1 = randrange(n), inlined (the same draws: random.Random._randbelow)
            k1 = getrandbits(n_bits)
            while k1 >= n:
                k1 = getrandbits(n_bits)
            t1 = tab_of[k1]
            choice = random_()
            if plateau and choice < 0.3:  # same kind of seat
                partners = kind_positions[kind_of[k1]]
                k2 = partners[below(len(partners))]
            elif plateau and choice < 0.6:  # interchangeable player
                partners = group_members[group_of[flat[k1]]]
                k2 = position[partners[below(len(partners))]]
            elif choice < 0.3:  # reorder a table
                k2 = starts[t1] + below(sizes[t1])
            else:
                k2 = getrandbits(n_bits)
                while k2 >= n:
                    k2 = getrandbits(n_bits)
            if k1 == k2:
                continue
            a = flat[k1]
            b = flat[k2]
            n1v, n2v, n1t, n2t = s1v, s2v, s1t, s2t
            changed = False
            z1, z2 = size_of[k1], size_of[k2]
            if z1 != z2:
                va = vp_values[a]
                vb = vp_values[b]
                oa, na, ob, nb = va[z1], va[z2], vb[z2], vb[z1]
                n1v += na - oa + nb - ob
                n2v += na * na - oa * oa + nb * nb - ob * ob
                changed = True
            r1, r2 = trans_of[k1], trans_of[k2]
            if r1 != r2:
                ta = tr_values[a]
                tb = tr_values[b]
                oa, na, ob, nb = ta[r1], ta[r2], tb[r2], tb[r1]
                n1t += na - oa + nb - ob
                n2t += na * na - oa * oa + nb * nb - ob * ob
                changed = True
            e1, e2 = seat_of[k1], seat_of[k2]
            sa, sb = seat_costs[a], seat_costs[b]
            if plateau:
                if changed and (n1v != s1v or n2v != s2v or n1t != s1t or n2t != s2t):
                    continue
                if sa[e1] + sb[e2] != sa[e2] + sb[e1]:
                    continue
                changed = False
            # delta scoring: only the seat costs of a and b and their pairs with their
            # table mates change (the pair a-b too, when they share a table)
            t2 = tab_of[k2]
            ra, rb = rows[a], rows[b]
            d1 = sb[e1] - sa[e1]
            for p, r in others[k1]:
                if p != k2:
                    x = flat[p]
                    c = rb[x]
                    if c is not None:
                        d1 += c[r]
                    c = ra[x]
                    if c is not None:
                        d1 -= c[r]
                else:  # b moves to k1, a to k2: their relation is the mirror image
                    c = ra[b]
                    if c is not None:
                        d1 += c[mirror[r]] - c[r]
            d2 = sa[e2] - sb[e2]
            for p, r in others[k2]:
                if p != k1:
                    x = flat[p]
                    c = ra[x]
                    if c is not None:
                        d2 += c[r]
                    c = rb[x]
                    if c is not None:
                        d2 -= c[r]
            delta = d1 + d2
            if changed:  # model.spread, inlined; the other part kept when unchanged
                if z1 != z2:
                    q = count * n2v - n1v * n1v
                    new_vp = W3 * (sqrt(q) / denominator if q > 0 else 0.0)
                else:
                    new_vp = vp_part
                if r1 != r2:
                    q = count * n2t - n1t * n1t
                    new_tr = W8 * (sqrt(q) / denominator if q > 0 else 0.0)
                else:
                    new_tr = tr_part
                new_spread = new_vp + new_tr
                delta += new_spread - spread_cost
            if delta <= 0 or random_() < exp(-delta / temperature):
                flat[k1] = b
                flat[k2] = a
                position[a] = k2
                position[b] = k1
                tcost[t1] += d1
                tcost[t2] += d2
                if changed:
                    s1v, s2v, s1t, s2t = n1v, n2v, n1t, n2t
                    vp_part, tr_part, spread_cost = new_vp, new_tr, new_spread
                cost += delta
                if cost < best_cost - _EPS:
                    best_cost = cost
                    self.best[:] = flat
                    if cost <= floor + _EPS:
                        break
        self.sums = [s1v, s2v, s1t, s2t]
        self.spread_cost = spread_cost
        self.cost = cost
        self.best_cost = best_cost
        return True

    def restore_best(self) -> None:
        self.flat[:] = self.best
        self.reset_sums()
        self.best_cost = self.cost

    def polish(self, deadline: float) -> None:
        """Exact seat order of each table (all permutations), until nothing improves."""
        model = self.model
        improved = True
        passes = 0
        while improved and passes < 10:
            improved = False
            passes += 1
            for t, size in enumerate(self.sizes):
                if time.perf_counter() > deadline:
                    return
                start = self.starts[t]
                current = self.flat[start : start + size]
                best_perm = current
                best = self.cost
                s1v, s2v, s1t, s2t = self.sums
                base1 = s1t
                base2 = s2t
                for k, a in enumerate(current):
                    v = model.tr_values[a][self.trans_of[start + k]]
                    base1 -= v
                    base2 -= v * v
                vp_part = W3 * model.spread(s1v, s2v)
                others = self.cost - self.tcost[t] - self.spread_cost
                for perm in itertools.permutations(current):
                    c1, c2 = base1, base2
                    for k, a in enumerate(perm):
                        v = model.tr_values[a][self.trans_of[start + k]]
                        c1 += v
                        c2 += v * v
                    total = (
                        others
                        + self._table_cost(list(perm), size)
                        + vp_part
                        + W8 * model.spread(c1, c2)
                    )
                    if total < best - _EPS:
                        best = total
                        best_perm = list(perm)
                if best_perm is not current:
                    self.flat[start : start + size] = best_perm
                    self.reset_sums()
                    improved = True
        if self.cost < self.best_cost:
            self.best[:] = self.flat
            self.best_cost = self.cost

    def tables(self) -> list[list[int]]:
        return [self.best[s : s + z] for s, z in zip(self.starts, self.sizes, strict=True)]


def _seat_plan(
    model: _Model, sizes: list[int], rng: random.Random, jitter: bool = False
) -> list[int]:
    """A start where every player's seat number minimises R3, then R5/R7, then R8.

    Ignoring who sits with whom, choosing a (table size, seat) for each player is a
    transportation problem: players of the same history are interchangeable and the
    variance of a sum with a known total is a sum of squares. Solved exactly as a
    min-cost flow (integer costs, lexicographic: R3 before R5/R7 before R8); the
    players are then put at random tables having the chosen kind of seat. With
    ``jitter``, ties between equally good plans are broken at random.
    """
    n = len(model.seat_costs)
    count = model.count
    # kinds of seat: (size, seat) -> positions in the flat layout
    slots: dict[tuple[int, int], list[int]] = {}
    position = 0
    for size in sizes:
        for seat in range(size):
            slots.setdefault((size, seat), []).append(position)
            position += 1
    kinds = list(slots)
    # interchangeable players
    groups: dict[tuple, list[int]] = {}
    for a in range(n):
        key = (model.vp_values[a], model.tr_values[a], model.seat_costs[a])
        groups.setdefault(key, []).append(a)
    keys = list(groups)
    # the mean is fixed when everybody has played as often; else estimate it with
    # everybody on an average seat
    s1v, _, s1t, _ = model.fixed
    slot_count = sum(len(positions) for positions in slots.values())
    average_size = sum(size * len(slots[(size, seat)]) for size, seat in kinds) / slot_count
    average_transfer = (
        sum(_TRANSFERS[size][seat] * len(slots[(size, seat)]) for size, seat in kinds) / slot_count
    )
    total_v = float(s1v)
    total_t = float(s1t)
    for a in range(n):
        v4, v5 = model.vp_values[a][4], model.vp_values[a][5]
        total_v += v4 + (v5 - v4) * (average_size - 4)
        t1, t2 = model.tr_values[a][1], model.tr_values[a][2]
        total_t += t1 + (t2 - t1) * (average_transfer - 1)
    # distances to the mean, times the number of players to stay in integers
    sum_v = round(total_v)
    sum_t = round(total_t)
    costs: dict[tuple[int, int], tuple[int, int, int]] = {}
    for g, key in enumerate(keys):
        vps, transfers, seat_costs = key
        for k, (size, seat) in enumerate(kinds):
            dv = vps[size] * count - sum_v
            dt = transfers[_TRANSFERS[size][seat]] * count - sum_t
            costs[(g, k)] = (dv * dv, seat_costs[seat], dt * dt)
    top_t = max((c[2] for c in costs.values()), default=0) * n + 1
    top_seat = max((c[1] for c in costs.values()), default=0) * n * top_t + top_t
    # nodes: 0 source, 1..G groups, then kinds, then sink
    g_count, k_count = len(keys), len(kinds)
    sink = 1 + g_count + k_count
    graph: list[list[list[int]]] = [[] for _ in range(sink + 1)]

    def edge(u: int, v: int, capacity: int, cost: int) -> None:
        graph[u].append([v, capacity, cost, len(graph[v])])
        graph[v].append([u, 0, -cost, len(graph[u]) - 1])

    # random tie-breaks below the last level: they add up to less than one unit
    tie_scale = 4 * n if jitter else 1
    for g, key in enumerate(keys):
        edge(0, 1 + g, len(groups[key]), 0)
        for k in range(k_count):
            dv2, seat_cost, dt2 = costs[(g, k)]
            cost = (dv2 * top_seat + seat_cost * top_t + dt2) * tie_scale
            if jitter:
                cost += rng.randrange(4)
            edge(1 + g, 1 + g_count + k, n, cost)
    for k, kind in enumerate(kinds):
        edge(1 + g_count + k, sink, len(slots[kind]), 0)
    flow = 0
    while flow < n:  # successive shortest paths (SPFA: residual costs can be < 0)
        dist: list[float | int] = [math.inf] * (sink + 1)
        previous: list[tuple[int, int] | None] = [None] * (sink + 1)
        dist[0] = 0
        queue = collections.deque([0])
        queued = [False] * (sink + 1)
        queued[0] = True
        while queue:
            u = queue.popleft()
            queued[u] = False
            for i, (v, capacity, cost, _) in enumerate(graph[u]):
                if capacity > 0 and dist[u] + cost < dist[v]:
                    dist[v] = dist[u] + cost
                    previous[v] = (u, i)
                    if not queued[v]:
                        queued[v] = True
                        queue.append(v)
        if dist[sink] == math.inf:
            break
        push = n - flow
        v = sink
        while v:
            u, i = previous[v]
            push = min(push, graph[u][i][1])
            v = u
        v = sink
        while v:
            u, i = previous[v]
            e = graph[u][i]
            e[1] -= push
            graph[v][e[3]][1] += push
            v = u
        flow += push
    order = [-1] * n
    for kind in kinds:
        rng.shuffle(slots[kind])
    for g, key in enumerate(keys):
        members = groups[key]
        rng.shuffle(members)
        for v, capacity, _, _ in graph[1 + g]:
            if 1 + g_count <= v < sink and capacity < n:
                positions = slots[kinds[v - 1 - g_count]]
                for _ in range(n - capacity):
                    order[positions.pop()] = members.pop()
    # anything left (should not happen): fill in order
    rest = [a for key in keys for a in groups[key]]
    for k in range(n):
        if order[k] < 0:
            order[k] = rest.pop()
    return order


# Search budget (annealing steps): fixed, so that a seed gives one result. One step
# costs a few microseconds whatever the number of players (delta scoring). A full run
# has _RUN_PER_PLAYER steps per player, at least _RUN_MIN; a seat plan's run a third
# of that, at least _PLAN_MIN (a plan's run settles within a few thousand steps). The
# search stops after _STALE full runs in a row without progress. Measured in
# bench/seating_bench.py ("Rounds 2 and 3"; docs/performance.md "Seating").
_BUDGET = 450_000
_PLAN_ATTEMPTS = 6
_RUN_MIN = 20_000
_RUN_PER_PLAYER = 1500
_PLAN_MIN = 8_000
_STALE = 3
_SECOND_PASS_UP_TO = 40  # players
_TEMPERATURE = (3e6, 0.05)  # cost units: R9 is 1, R4 10**6; R1 and R2 never go uphill
_REPAIR_TEMPERATURE = (1e6, 0.05)


def _optimise(
    model: _Model, sizes: list[int], order: list[int], rng: random.Random, deadline: float
) -> tuple[list[int], float, bool]:
    """Search the best seating: seat plans first, then annealing from random starts.

    Returns the best order found (players in seat order, tables in a row), its cost
    (the model's) and whether the search is settled: a known lower bound reached, or
    the deadline hit.

    1. Up to ``_PLAN_ATTEMPTS`` exact seat plans (:func:`_seat_plan`), each followed by
       annealing that only swaps players without changing the plan's value. When
       every player has played as often (the means are then known) and either all
       tables have the same size or the plan breaks no seat rule, the plan's value
       is a lower bound of the whole cost (R3 outweighs any R5/R7/R8 difference,
       R5/R7 any R8 difference), so a seating at that value whose pair rules all
       hold is optimal and the search stops there.
    2. Otherwise (small events where some pair rules must break, 4-player tables,
       late arrivals) annealing over all swaps, alternately from the best seating so
       far (cooler) and from a random one, each run polished by
       :meth:`_Search.polish`, until the budget is spent or ``_STALE`` runs in a row
       bring nothing better.
    """
    n = len(order)
    run = min(_BUDGET, max(_RUN_MIN, _RUN_PER_PLAYER * n))
    reset = max(256, run // 50 // 256 * 256)
    same_sizes = len(set(sizes)) == 1
    search = _Search(model, sizes, order, rng)
    best, best_cost = list(order), math.inf
    floor = -1.0
    budget = _BUDGET
    for attempt in range(_PLAN_ATTEMPTS):
        plan = _seat_plan(model, sizes, rng, jitter=attempt > 0)
        search.restart(plan)
        seat_part = sum(model.seat_costs[a][search.seat_of[k]] for k, a in enumerate(plan))
        if model.uniform and (same_sizes or not seat_part):
            floor = search.spread_cost + seat_part
        steps = min(budget, max(_PLAN_MIN, run // 3))
        finished = search.anneal(steps, *_TEMPERATURE, deadline, reset, True, floor)
        budget -= steps
        search.restore_best()
        search.polish(deadline)
        if search.cost < best_cost - _EPS:
            best, best_cost = list(search.best), search.cost
        if not finished or best_cost <= floor + _EPS or budget <= 0:
            return best, best_cost, not finished or best_cost <= floor + _EPS
    stale = 0
    number = 0
    while budget > 0 and time.perf_counter() < deadline:
        steps = min(budget, run)
        budget -= steps
        if number % 2:  # from scratch
            rng.shuffle(order)
            search.restart(order)
            temperatures = _TEMPERATURE
        else:  # from the best so far: trade what it breaks for lesser rules
            search.restart(best)
            temperatures = _REPAIR_TEMPERATURE
        number += 1
        finished = search.anneal(steps, *temperatures, deadline, reset, False, floor)
        search.restore_best()
        search.polish(deadline)
        if search.cost < best_cost - _EPS:
            best, best_cost = list(search.best), search.cost
            stale = 0
        else:
            stale += 1
        if not finished or best_cost <= floor + _EPS or stale >= _STALE:
            break
    return best, best_cost, not finished or best_cost <= floor + _EPS


def seat_round(
    previous: Sequence[Seating],
    players: Sequence[Hashable],
    *,
    seed: int | None = None,
    time_limit: float = 3.0,
) -> Seating:
    """Seat the next preliminary round (TR §3.1.2; docs/rules-vekn.md "Seating").

    ``previous`` are the rounds already played (seatings, any players: late arrivals
    and drops are fine), ``players`` those who play the new round (4 or more, not 6,
    7 or 11 — for those use :func:`staggered_plan` and pass each round's subset).
    Returns the new seating: tables of 5 first, then tables of 4
    (:func:`table_sizes`), seat 1 first.

    The hard rule comes first: no predator→prey pair is repeated (R1 == 0) whenever
    possible; then the krcg weighted total of all rounds, the new one included, is
    minimised: an exact seat plan (min-cost flow on R3, R5, R7, R8) refined by
    simulated annealing over seat swaps with incremental costs, then annealing from
    random starts when the plan cannot avoid every pair rule, each result polished
    by an exact ordering of each table. The search stops as soon as it reaches a
    provable optimum (every table the same size, everybody with as many games, no
    pair rule broken) — usual for large events — and at once when no player has a
    history (round 1: every seating scores the same, a random one is returned).
    Events of up to 40 players that reach no provable optimum get a second,
    independent search and keep the better result. Typical times, rounds 2 and 3
    (``bench/seating_bench.py rounds``, medians on a 2-core machine): 0.35–0.5 s for
    17 players, under 50 ms for 50 or 300 with full attendance, 0.55–0.7 s for 50 or
    300 with drops and late arrivals.

    The result is deterministic for a given ``seed`` (the search runs a fixed budget
    of steps, never a duration); ``time_limit`` (seconds) is a safety cap: if 90 %
    of it is spent the best seating found so far is returned, which may then depend
    on the machine's speed. Raises :class:`SeatingError` for a bad number of players
    or a player listed twice.
    """
    started = time.perf_counter()
    deadline = started + max(0.0, time_limit) * 0.9
    players = list(players)
    n = len(players)
    if len(set(players)) != n:
        raise SeatingError("A player is listed twice for the round.")
    sizes = table_sizes(n)
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    model = _Model(previous, players)
    if not model.trivial:
        best, cost, settled = _optimise(model, sizes, order, rng, deadline)
        if not settled and n <= _SECOND_PASS_UP_TO:
            # small events: the landscape is rugged (some pair rules must break) and a
            # pass is cheap; a second, independent pass (its own stream, drawn from
            # the seed's) keeps the better of the two, the first on a tie
            again = random.Random(rng.getrandbits(64))
            order = list(range(n))
            again.shuffle(order)
            other, other_cost, _ = _optimise(model, sizes, order, again, deadline)
            if other_cost < cost - _EPS:
                best = other
        order = best
    result: Seating = []
    start = 0
    for size in sizes:
        result.append([players[a] for a in order[start : start + size]])
        start += size
    return result
