"""Preliminary-round seating rules: the official criteria R1..R9, table sizes, staggered
plans, the judge's swap, and the scoring of rounds.

Sources: VEKN Tournament Rules §3.1.2 ("TR §3.1.2"); the page for users is
``docs/rules-vekn.md`` ("Seating"). Measures follow ``krcg.seating`` (MIT) exactly; the
vocabulary is in :mod:`events.seating`, which re-exports every name here (importers use
it). The optimiser that uses these measures is :mod:`events.seating_search`.

Pure Python (standard library only), no database access.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

Table = list[Hashable]
"""Players of one table in seat order, seat 1 first (4 or 5 players)."""

Seating = list[Table]
"""The tables of one round."""


class SeatingError(ValueError):
    """A seating request the user can fix (TR §3.1.2; docs/rules-vekn.md "Seating").

    Raised for fewer than 4 players, for 6, 7 or 11 players without a staggered plan,
    for a table that does not have 4 or 5 players, for a player seated twice in one
    round, and by :func:`swap_seats` for a player who is not seated.
    """


@dataclass(frozen=True, slots=True)
class Rule:
    """One official seating criterion (docs/rules-vekn.md "Seating", krcg ``RULES``).

    ``code`` is stable ("R1".."R9"), ``weight`` is krcg's weight: a violation of a
    rule always outweighs any number of violations of the rules below it (the
    standard-deviation rules R3 and R8 need a factor 100 over the next one).
    """

    code: str
    label: str
    weight: int
    description: str


RULES: tuple[Rule, ...] = (
    Rule(
        "R1",
        "predator-prey repeated",
        10**10,
        "No pair of players repeats the same predator→prey relationship "
        "(TR §3.1.2; mandatory whenever possible).",
    ),
    Rule(
        "R2",
        "opponents every round",
        10**9,
        "No pair of players shares a table in every round, when possible.",
    ),
    Rule(
        "R3",
        "available VP",
        10**8,
        "Available VP are fairly shared between 5- and 4-player tables "
        "(standard deviation of each player's mean).",
    ),
    Rule(
        "R4",
        "opponents twice",
        10**6,
        "No pair of players shares a table more often than necessary.",
    ),
    Rule(
        "R5",
        "fifth seat twice",
        10**5,
        "Nobody sits in seat 5 more than once.",
    ),
    Rule(
        "R6",
        "relative position repeated",
        10**4,
        "No pair of players repeats the same relative position (prey, grand-prey, "
        "grand-predator, predator or cross-table), when possible.",
    ),
    Rule(
        "R7",
        "same seat",
        10**3,
        "Nobody sits in the same seat twice, when possible.",
    ),
    Rule(
        "R8",
        "starting transfers",
        10**2,
        "Starting transfers (1, 2, 3, 4, 4 for seats 1–5) are fairly shared "
        "(standard deviation of each player's mean).",
    ),
    Rule(
        "R9",
        "position group repeated",
        1,
        "No pair of players repeats the same position group (neighbours or "
        "non-neighbours), when possible.",
    ),
)

_W = tuple(rule.weight for rule in RULES)
W1, W2, W3, W4, W5, W6, W7, W8, W9 = _W

# Relation of the player `offset` seats after a player, seen from that player.
# Indices: 0 prey, 1 grand-prey, 2 grand-predator, 3 predator, 4 cross-table
# (krcg's opponents columns 1..5, in the same order).
_PREY, _GPREY, _GPRED, _PRED, _CROSS = range(5)
_REL = {4: (-1, _PREY, _CROSS, _PRED), 5: (-1, _PREY, _GPREY, _GPRED, _PRED)}
_MIRROR = (_PRED, _GPRED, _GPREY, _PREY, _CROSS)  # the same relation from the other side
_GROUP = (0, 1, 1, 0, 1)  # 0 neighbour, 1 non-neighbour
_REL_NAMES = ("prey", "grand-prey", "grand-predator", "predator", "cross-table")
_TRANSFERS = {4: (1, 2, 3, 4), 5: (1, 2, 3, 4, 4)}
_EPS = 1e-6  # cost differences below this are float noise (R9, the smallest rule, is 1)


@dataclass(frozen=True, slots=True)
class Violation:
    """One breach of a seating rule, for the judge (docs/rules-vekn.md "Seating").

    ``rule`` is a :class:`Rule` code, ``players`` the players concerned (a pair for the
    pair rules R1, R2, R4, R6, R9 — predator first for R1 —, one player for R3, R5,
    R7, R8), ``detail`` an English sentence and ``rounds`` the 1-based round numbers
    involved, when known. ``kind`` and ``params`` (not compared: two violations are equal
    by the four fields above) say the same as ``detail`` as a stable code and its values
    (names as ``str``, numbers as ``int``/``float``), for the pages to render in the
    reader's language (:mod:`events.seating_labels`); kinds:
    ``together_every_round`` (a, b), ``together_again`` (a, b, count),
    ``across_again`` (a, b), ``relation_again`` (a, b, relation: one of
    ``prey grand-prey grand-predator predator``, b is a's relation), ``predator_again``
    (predator, prey), ``group_again`` (a, b, group: ``neighbours``/``non-neighbours``),
    ``seat_again`` (player, seat), ``vp_share`` (player, value, mean, side),
    ``transfer_share`` (player, value, mean, seats: list of ints); every kind also has
    ``rounds`` in ``rounds``.
    """

    rule: str
    players: tuple[Hashable, ...]
    detail: str
    rounds: tuple[int, ...] = ()
    kind: str = field(default="", compare=False)
    params: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class SeatingScore:
    """The official score of some rounds (docs/rules-vekn.md "Seating", krcg ``Score``).

    ``rules`` holds 9 values in R1..R9 order: violation counts (ints) for R1, R2,
    R4..R7, R9 and population standard deviations (floats) of the per-player mean
    available VP (R3) and mean starting transfers (R8). ``total`` is the weighted sum
    ``Σ rules[i] × RULES[i].weight``, lower is better; it is meant to compare
    seatings of the same rounds (a single round counts every pair of opponents as
    "opponents every round", as krcg does). ``violations`` lists one
    :class:`Violation` per counted violation, in rule order, and for R3/R8 one per
    player whose mean is further than ``1 / rounds`` from the average (krcg's
    ``vps`` / ``transfers`` lists; the distance is compared exactly, see
    :func:`score_rounds`).
    """

    rules: tuple[float, ...]
    total: float
    violations: tuple[Violation, ...]

    def by_rule(self) -> dict[str, list[Violation]]:
        """Return the violations grouped by rule code, every code R1..R9 present."""
        result: dict[str, list[Violation]] = {rule.code: [] for rule in RULES}
        for violation in self.violations:
            result[violation.rule].append(violation)
        return result


# --------------------------------------------------------------------------- sizes


def table_sizes(players: int) -> list[int]:
    """Table sizes for a round of ``players`` players (TR §3.1.2; docs/rules-vekn.md "Seating").

    As many 5-player tables as possible, ``(5 - players % 5) % 5`` tables of 4;
    tables of 5 come first. Example: ``table_sizes(13) == [5, 4, 4]``.

    Raises :class:`SeatingError` for fewer than 4 players and for 6, 7 or 11 players
    (they need a :func:`staggered_plan`).
    """
    if players < 4:
        raise SeatingError(f"At least 4 players are needed to seat a round ({players} given).")
    if players in (6, 7, 11):
        raise SeatingError(
            f"{players} players cannot be seated at tables of 4 and 5: "
            "use a staggered plan where some players sit out each round."
        )
    fours = (5 - players % 5) % 5
    fives = (players - 4 * fours) // 5
    return [5] * fives + [4] * fours


def staggered_plan(players: Sequence[Hashable], rounds: int) -> list[list[Hashable]]:
    """Who plays in each round so that everyone plays ``rounds`` games (TR §3.1.2).

    Returns one list per round of the players who play that round, in the order of
    ``players``. For 6, 7 or 11 players some players sit out each round and extra
    rounds are added (krcg ``get_rounds``): the plan has ``rounds + k`` rounds
    (usually ``k == 1``), every player plays exactly ``rounds`` of them, and every
    round has a seatable number of players (4, 5, 8, 9 or 10). Example: 6 players,
    3 games each → 4 rounds of 4, 4, 5 and 5 players. For any other number of
    players the plan is ``rounds`` rounds with everybody.

    Raises :class:`SeatingError` for fewer than 4 players, for ``rounds < 1``, or for
    ``rounds < 2`` with 6, 7 or 11 players.
    """
    players = list(players)
    count = len(players)
    if count < 4:
        raise SeatingError(f"At least 4 players are needed to seat a round ({count} given).")
    if rounds < 1:
        raise SeatingError("At least one round is needed.")
    if count not in (6, 7, 11):
        return [players[:] for _ in range(rounds)]
    if rounds < 2:
        raise SeatingError(f"{count} players need a staggered plan of at least 2 games per player.")
    # number of players who can sit out a round, largest first
    possible_outs: list[int] = []
    for seated in (4, 5, 4 + 4, 4 + 5, 5 + 5):
        if count <= seated:
            break
        possible_outs.insert(0, count - seated)
    additional = 1
    while possible_outs[0] * (rounds + additional) > count * additional:
        additional += 1
    total_rounds = rounds + additional
    excludes = count * additional
    outs: list[int] = []
    # change-making (greedy), careful when the smallest number of outs is 2
    while excludes:
        i = 0
        while (total_rounds - len(outs)) * possible_outs[i] < excludes:
            i += 1
        while i > 0 and 0 < excludes - possible_outs[i] < possible_outs[0]:
            i -= 1
        outs.append(possible_outs[i])
        excludes -= possible_outs[i]
    exclusions = [r for r in range(len(outs)) for _ in range(outs[r])]
    return [
        [
            players[p]
            for p in range(count)
            if not any(exclusions[p + count * c] == r for c in range(additional))
        ]
        for r in range(total_rounds)
    ]


def swap_seats(seating: Seating, a: Hashable, b: Hashable) -> Seating:
    """Return a copy of ``seating`` with players ``a`` and ``b`` exchanged.

    The judge's manual swap (docs/rules-vekn.md "Seating"); use :func:`score_rounds` to show which
    rules the result breaks. The input is not modified. Raises :class:`SeatingError`
    if ``a`` or ``b`` is not seated in ``seating``.
    """
    result = [list(table) for table in seating]
    where: dict[Hashable, tuple[int, int]] = {}
    for t, table in enumerate(result):
        for s, player in enumerate(table):
            if player == a or player == b:
                where[player] = (t, s)
    for player in (a, b):
        if player not in where:
            raise SeatingError(f"{player} is not seated in this round.")
    (ta, sa), (tb, sb) = where[a], where[b]
    result[ta][sa], result[tb][sb] = b, a
    return result


# ------------------------------------------------------------------------- history


class _History:
    """Everything the criteria need, accumulated over rounds (krcg ``measure``)."""

    __slots__ = ("index", "players", "played", "vps", "transfers", "seats", "sits", "pairs")

    def __init__(self, rounds: Sequence[Seating]) -> None:
        self.index: dict[Hashable, int] = {}
        self.players: list[Hashable] = []
        self.played: list[int] = []
        self.vps: list[int] = []  # sum of table sizes
        self.transfers: list[int] = []  # sum of starting transfers
        self.seats: list[list[list[int]]] = []  # player -> seat 0..4 -> rounds
        self.sits: list[list[tuple[int, int, int]]] = []  # player -> (round, size, seat)
        # (i, j) with i < j -> 8 lists of rounds, krcg's opponents columns seen from i:
        # opponent, prey, grand-prey, grand-predator, predator, cross, neighbour, other
        self.pairs: dict[tuple[int, int], list[list[int]]] = {}
        for number, seating in enumerate(rounds, 1):
            self.add(seating, number)

    def player(self, player: Hashable) -> int:
        i = self.index.get(player)
        if i is None:
            i = self.index[player] = len(self.players)
            self.players.append(player)
            self.played.append(0)
            self.vps.append(0)
            self.transfers.append(0)
            self.seats.append([[], [], [], [], []])
            self.sits.append([])
        return i

    def add(self, seating: Seating, number: int) -> None:
        seen: set[Hashable] = set()
        pairs = self.pairs
        for table in seating:
            size = len(table)
            if size not in (4, 5):
                raise SeatingError(f"Round {number}: a table must have 4 or 5 players, not {size}.")
            ids = []
            for seat, player in enumerate(table):
                if player in seen:
                    raise SeatingError(f"Round {number}: {player} is seated twice.")
                seen.add(player)
                i = self.player(player)
                ids.append(i)
                self.played[i] += 1
                self.vps[i] += size
                self.transfers[i] += _TRANSFERS[size][seat]
                self.seats[i][seat].append(number)
                self.sits[i].append((number, size, seat))
            rel = _REL[size]
            for x in range(size):
                for y in range(x + 1, size):
                    i, j, r = ids[x], ids[y], rel[y - x]
                    if i > j:
                        i, j, r = j, i, _MIRROR[r]
                    stats = pairs.get((i, j))
                    if stats is None:
                        stats = pairs[(i, j)] = [[], [], [], [], [], [], [], []]
                    stats[0].append(number)
                    stats[1 + r].append(number)
                    stats[6 + _GROUP[r]].append(number)


def _rounds_text(rounds: Sequence[int]) -> str:
    rounds = list(rounds)
    if len(rounds) == 2:
        return f"rounds {rounds[0]} and {rounds[1]}"
    return "rounds " + ", ".join(str(r) for r in rounds)


def _fair_share(
    sums: list[int], played: list[int], rounds_count: int
) -> tuple[float, float, list[tuple[int, float]]]:
    """Population standard deviation and mean of per-player means, and the players
    whose mean is further than ``1 / rounds_count`` from the average.

    The distance test is exact (fractions): krcg's float mean can list a player who
    is exactly ``1 / rounds_count`` away; this never does.
    """
    size = len(sums)
    if not size:
        return 0.0, 0.0, []
    values = [s / p for s, p in zip(sums, played, strict=True)]
    mean = math.fsum(values) / size
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / size)
    exact_mean = sum((Fraction(s, p) for s, p in zip(sums, played, strict=True)), Fraction(0))
    exact_mean /= size
    limit = Fraction(1, rounds_count)
    far = [
        (i, values[i])
        for i, (s, p) in enumerate(zip(sums, played, strict=True))
        if abs(exact_mean - Fraction(s, p)) > limit
    ]
    return std, mean, far


def score_rounds(rounds: Sequence[Seating]) -> SeatingScore:
    """Score rounds with the official criteria (docs/rules-vekn.md "Seating", krcg ``Score``).

    ``rounds`` is a list of seatings (each a list of tables of 4 or 5 players, seat 1
    first); players may be absent from some rounds (late arrivals, drops, staggered
    plans). Every criterion is measured over all the given rounds; R2 ("opponents
    every round") uses ``len(rounds)``. The figures equal ``krcg.seating.Score``
    (``rules`` exactly for the counts, ``total`` up to float rounding).

    Raises :class:`SeatingError` for a table of another size or a player seated twice
    in one round.

    Known difference: krcg compares a player's R3/R8 distance to the mean with
    floats, so a player exactly ``1 / rounds`` away may appear in its lists; this
    function compares exactly and leaves such a player out (the figures in
    ``rules`` and ``total`` are not affected).
    """
    rounds_count = len(rounds)
    history = _History(rounds)
    names = history.players
    violations: list[Violation] = []
    if not names:
        return SeatingScore(rules=(0, 0, 0.0, 0, 0, 0, 0, 0.0, 0), total=0.0, violations=())

    def name(i: int) -> str:
        return str(names[i])

    # R3 / R8: fair share of available VP and starting transfers
    r3, mean_vps, far_vps = _fair_share(history.vps, history.played, rounds_count)
    r8, mean_transfers, far_transfers = _fair_share(history.transfers, history.played, rounds_count)

    pair_keys = sorted(history.pairs)
    r1: list[Violation] = []
    r2: list[Violation] = []
    r4: list[Violation] = []
    r6: list[Violation] = []
    r9: list[Violation] = []
    for i, j in pair_keys:
        stats = history.pairs[(i, j)]
        together = stats[0]
        if len(together) >= rounds_count:
            r2.append(
                Violation(
                    "R2",
                    (names[i], names[j]),
                    f"{name(i)} and {name(j)} share a table in every round "
                    f"({_rounds_text(together)})",
                    tuple(together),
                    "together_every_round",
                    {"a": name(i), "b": name(j)},
                )
            )
        if len(together) > 1:
            r4.append(
                Violation(
                    "R4",
                    (names[i], names[j]),
                    f"{name(i)} and {name(j)} share a table {len(together)} times "
                    f"({_rounds_text(together)})",
                    tuple(together),
                    "together_again",
                    {"a": name(i), "b": name(j), "count": len(together)},
                )
            )
        for rel in range(5):
            seen = stats[1 + rel]
            if len(seen) <= 1:
                continue
            when = _rounds_text(seen)
            if rel == _CROSS:
                text = f"{name(i)} and {name(j)} sit across the table again ({when})"
                kind, params = "across_again", {"a": name(i), "b": name(j)}
            else:
                text = f"{name(j)} is {name(i)}'s {_REL_NAMES[rel]} again ({when})"
                kind = "relation_again"
                params = {"a": name(i), "b": name(j), "relation": _REL_NAMES[rel]}
            r6.append(Violation("R6", (names[i], names[j]), text, tuple(seen), kind, params))
            if rel in (_PREY, _PRED):
                predator, prey = (i, j) if rel == _PREY else (j, i)
                r1.append(
                    Violation(
                        "R1",
                        (names[predator], names[prey]),
                        f"{name(predator)} is {name(prey)}'s predator again ({when})",
                        tuple(seen),
                        "predator_again",
                        {"predator": name(predator), "prey": name(prey)},
                    )
                )
        for group, label in ((0, "neighbours"), (1, "non-neighbours")):
            seen = stats[6 + group]
            if len(seen) > 1:
                r9.append(
                    Violation(
                        "R9",
                        (names[i], names[j]),
                        f"{name(i)} and {name(j)} are {label} again ({_rounds_text(seen)})",
                        tuple(seen),
                        "group_again",
                        {"a": name(i), "b": name(j), "group": label},
                    )
                )
    r5: list[Violation] = []
    r7: list[Violation] = []
    for i, seats in enumerate(history.seats):
        for seat, seen in enumerate(seats):
            if len(seen) > 1:
                text = f"{name(i)} sits in seat {seat + 1} again ({_rounds_text(seen)})"
                params = {"player": name(i), "seat": seat + 1}
                r7.append(Violation("R7", (names[i],), text, tuple(seen), "seat_again", params))
                if seat == 4:
                    r5.append(Violation("R5", (names[i],), text, tuple(seen), "seat_again", params))

    r3_list = []
    for i, value in far_vps:
        side = 4 if value < mean_vps else 5
        when = tuple(r for r, size, _ in history.sits[i] if size == side)
        r3_list.append(
            Violation(
                "R3",
                (names[i],),
                f"{name(i)} averages {value - 1:.2f} available VP against "
                f"{mean_vps - 1:.2f} on average ({side}-player tables in "
                f"{_rounds_text(when)})",
                when,
                "vp_share",
                {"player": name(i), "value": value - 1, "mean": mean_vps - 1, "side": side},
            )
        )
    r8_list = []
    for i, value in far_transfers:
        sits = history.sits[i]
        seats = ", ".join(str(seat + 1) for _, _, seat in sits)
        r8_list.append(
            Violation(
                "R8",
                (names[i],),
                f"{name(i)} averages {value:.2f} starting transfers against "
                f"{mean_transfers:.2f} on average (seats {seats})",
                tuple(r for r, _, _ in sits),
                "transfer_share",
                {
                    "player": name(i),
                    "value": value,
                    "mean": mean_transfers,
                    "seats": [seat + 1 for _, _, seat in sits],
                },
            )
        )

    rules = (len(r1), len(r2), r3, len(r4), len(r5), len(r6), len(r7), r8, len(r9))
    total = float(sum(value * weight for value, weight in zip(rules, _W, strict=True)))
    for group in (r1, r2, r3_list, r4, r5, r6, r7, r8_list, r9):
        violations.extend(group)
    return SeatingScore(rules=rules, total=total, violations=tuple(violations))
