"""Swiss pairings for 1-v-1 matches (Mitos y Leyendas events).

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out. The
adapter loads the entrants of the next round (``standings.myl.pairing_entrants`` builds
them from the results), calls :func:`pair_round` and saves the matches.

Source: ``docs/rules-myl.md`` "Matches" and "Pairings" — 1-v-1 matches, Swiss pairings with score groups, no rematches,
at most one bye per player, a bye is a win. The conduct rules of Mitos y Leyendas do not
fix a pairing algorithm; the choices where they are silent are marked **[choice]** and
follow the common card-game Swiss (score groups, pair down when a group is odd, random
within a group, the bye to the lowest-ranked player who has not had one).

How a round is paired. Every acceptable pairing of the round is a perfect matching of a
graph whose nodes are the entrants (plus one *bye* node when their number is odd) and whose
edges are the matches allowed; networkx's ``max_weight_matching`` (maximum cardinality)
picks the best one, with integer weights that order the criteria strictly (a criterion
always outweighs every criterion below it, whatever the number of players):

1. **Hard rules** — no rematch (two players who already met get no edge) and at most one
   bye per player (a player who had a bye gets no edge to the bye node). If no perfect
   matching is left, :class:`PairingError` says so and names the players who cannot be
   paired. With ``allow_rematches=True`` **[choice: the organiser's fallback for tiny events
   and late rounds]** those edges exist with a penalty instead, so the pairing has the
   fewest possible rematches (a second bye counts as one).
2. **The bye** goes to the lowest-ranked entrant who has not had one, among those whose
   bye still leaves a rematch-free pairing of everybody else (ranks are the current
   standings, competition ranking: lowest = largest ``rank``; entrants tied for the lowest
   rank draw it at random). A bye counts as a won match (3 match points) with games 2–0 in
   best-of-3 and 1–0 in best-of-1 **[choice]** — scored by ``standings.myl``.
3. **Score groups** — entrants with equal match points play each other as far as
   possible: the pairing minimises the sum over its matches of the squared match-point
   difference. That is the classic "pair down": when a score group is odd, one of its
   players floats down and meets a player of the next group, which continues downward;
   one long jump (e.g. 6 against 0 points) costs more than two one-group floats (6–3 and
   3–0), and a pair of unequal points only appears when odd groups or the no-rematch rule
   force it.
4. **Randomness** — what is left (who meets whom within a group, who floats down, the
   bye among tied lowest entrants) is drawn at random from ``seed`` and the round number:
   the same input always gives the same pairing. Round 1 (everybody on 0 points) is
   therefore a seeded random pairing.

Dropped and disqualified players are simply not entrants. Late entries are entrants like
the others (with the points they have, usually 0) **[choice: no automatic losses for the
rounds they missed]**.

Cost: ``max_weight_matching`` is O(n³) in the number of entrants; well under a second for
100 entrants.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = [
    "Entrant",
    "PairedMatch",
    "Pairing",
    "PairingError",
    "pair_round",
]

_RANDOM_RANGE = 1 << 20
"""Random tie-breaking weights are drawn in ``range(_RANDOM_RANGE)``."""


class PairingError(ValueError):
    """A pairing request the organiser can fix (``docs/rules-myl.md`` "Pairings"): fewer than two entrants, a
    player entered twice, or no pairing without a rematch (or a second bye) exists. The
    message says which players cannot be paired; ``allow_rematches=True`` is the fallback.
    """


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player to pair this round (not dropped, not disqualified).

    - ``player``: any hashable id.
    - ``match_points``: match points so far (3 win, 1 draw, 0 loss; a bye is a win).
    - ``rank``: current standings rank, 1 = best; competition ranking, so equal ranks are
      full ties (all tie-breakers equal).
    - ``opponents``: everybody this player has already met (byes excluded); ids of players
      who are no longer entrants are allowed and ignored.
    - ``had_bye``: the player has already received a bye.
    """

    player: Hashable
    match_points: int = 0
    rank: int = 1
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False


@dataclass(frozen=True, slots=True)
class PairedMatch:
    """One match of the round: ``player`` is the better-ranked of the two (table order).
    ``point_difference``: the players' match points apart (0 within a score group, > 0 for
    a pair-down). ``rematch`` is only ever True with ``allow_rematches=True``."""

    table: int
    player: Hashable
    opponent: Hashable
    point_difference: int = 0
    rematch: bool = False

    @property
    def players(self) -> tuple[Hashable, Hashable]:
        return (self.player, self.opponent)


@dataclass(frozen=True, slots=True)
class Pairing:
    """Result of :func:`pair_round`.

    - ``matches``: table 1 first; tables are ordered by the higher match points of the
      pair, then the lower, then the better rank (top tables first).
    - ``bye``: the player who gets the bye, ``None`` when the entrants are even.
    - ``repeated_bye``: the bye is a second bye (only with ``allow_rematches=True``).
    ``pair_downs`` counts the matches between players of unequal match points and
    ``rematches`` the repeated matches.
    """

    round_number: int
    matches: tuple[PairedMatch, ...]
    bye: Hashable | None = None
    repeated_bye: bool = False

    @property
    def rematches(self) -> int:
        return sum(m.rematch for m in self.matches)

    @property
    def pair_downs(self) -> int:
        return sum(1 for m in self.matches if m.point_difference)

    def opponent_of(self, player: Hashable) -> Hashable | None:
        """The opponent of ``player`` this round; ``None`` for the bye or a non-entrant."""
        for m in self.matches:
            if m.player == player:
                return m.opponent
            if m.opponent == player:
                return m.player
        return None


def pair_round(
    entrants: Sequence[Entrant],
    *,
    round_number: int,
    seed: int | str = 0,
    allow_rematches: bool = False,
) -> Pairing:
    """Pair one Swiss round (``docs/rules-myl.md`` "Pairings"); the rules and their order are in the module
    docstring.

    ``entrants``: the players to pair, in any order (among entrants of equal rank the
    order only changes which random numbers they draw). ``round_number`` (≥ 1) and
    ``seed`` make the random draws: the same arguments give the same pairing, in any
    process (no dependence on hash randomisation).

    Raises :class:`PairingError` for fewer than two entrants, a player entered twice, or —
    unless ``allow_rematches`` — when every pairing would repeat a match or give someone a
    second bye. Raises ``ValueError`` for a rank below 1 or negative match points.
    """
    players = [e.player for e in entrants]
    if len(set(players)) != len(players):
        raise PairingError("a player is entered twice for this round")
    if len(players) < 2:
        raise PairingError("at least two players are needed to pair a round")
    for e in entrants:
        if e.rank < 1 or e.match_points < 0:
            raise ValueError(f"{e.player!r}: rank must be ≥ 1 and match points ≥ 0")

    # Entrants from best to lowest rank; input order keeps equal ranks stable.
    order = sorted(range(len(entrants)), key=lambda i: entrants[i].rank)
    ranked = [entrants[i] for i in order]
    position = {e.player: i for i, e in enumerate(ranked)}
    rng = random.Random(f"arbitro-swiss/{seed}/{round_number}")

    # Graph nodes are positions in ``ranked`` (ints hash the same in every run, so the
    # matching does not depend on hash randomisation); the bye is one more position.
    bye_node = len(ranked) if len(ranked) % 2 else None
    nodes = len(ranked) + (bye_node is not None)
    pairs = nodes // 2
    points = [e.match_points for e in ranked]
    max_diff2 = (max(points) - min(points)) ** 2
    lowest_rank = ranked[-1].rank

    # Lexicographic weights (all integers: networkx then computes exactly).
    m_score = _RANDOM_RANGE * pairs + 1
    m_bye = m_score * (max_diff2 * pairs + 1)
    m_repeat = m_bye * (lowest_rank + 1)
    base = m_repeat * (pairs + 2)

    graph = nx.Graph()
    graph.add_nodes_from(range(len(ranked)))
    if bye_node is not None:
        graph.add_node(bye_node)
    for i, a in enumerate(ranked):
        for j in range(i + 1, len(ranked)):
            b = ranked[j]
            repeat = b.player in a.opponents or a.player in b.opponents
            if repeat and not allow_rematches:
                continue
            cost = (
                repeat * m_repeat
                + (points[i] - points[j]) ** 2 * m_score
                + rng.randrange(_RANDOM_RANGE)
            )
            graph.add_edge(i, j, weight=base - cost)
        if bye_node is not None and (allow_rematches or not a.had_bye):
            cost = (
                a.had_bye * m_repeat + (lowest_rank - a.rank) * m_bye + rng.randrange(_RANDOM_RANGE)
            )
            graph.add_edge(i, bye_node, weight=base - cost)

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) != pairs:
        raise PairingError(_explain(ranked, matching, bye_node, round_number))

    bye = None
    repeated_bye = False
    matches = []
    for u, v in matching:
        if bye_node in (u, v):
            entrant = ranked[v if u == bye_node else u]
            bye, repeated_bye = entrant.player, entrant.had_bye
            continue
        i, j = sorted((u, v))
        a, b = ranked[i], ranked[j]
        repeat = b.player in a.opponents or a.player in b.opponents
        matches.append((a, b, repeat))
    matches.sort(
        key=lambda m: (
            -max(m[0].match_points, m[1].match_points),
            -min(m[0].match_points, m[1].match_points),
            position[m[0].player],
        )
    )
    return Pairing(
        round_number=round_number,
        matches=tuple(
            PairedMatch(
                table=n,
                player=a.player,
                opponent=b.player,
                point_difference=abs(a.match_points - b.match_points),
                rematch=repeat,
            )
            for n, (a, b, repeat) in enumerate(matches, start=1)
        ),
        bye=bye,
        repeated_bye=repeated_bye,
    )


def _explain(ranked: list[Entrant], matching: set, bye_node: int | None, number: int) -> str:
    """Why no pairing exists, naming the players a maximum rematch-free matching leaves out."""
    if bye_node is not None and all(e.had_bye for e in ranked):
        reason = "the number of players is odd and every one of them has already had a bye"
    else:
        matched = {node for edge in matching for node in edge}
        left = [ranked[i].player for i in range(len(ranked)) if i not in matched]
        reason = "players {} are left with only opponents they have already played".format(
            ", ".join(repr(p) for p in left)
        )
        if bye_node is not None:
            reason += (
                " (the number of players is odd and the bye can only go to a player who has"
                " not had one)"
            )
    return (
        f"round {number} cannot be paired without a rematch: {reason}; "
        "pair it with rematches allowed (the fewest possible) or by hand"
    )
