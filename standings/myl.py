"""Mitos y Leyendas scoring rules: match results, Swiss standings with tie-breakers, top cut.

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out. The
adapter loads the matches, penalties and top-cut results, calls :func:`compute_standings`
and renders :meth:`StandingRow.as_dict` (docs/contracts.md §2: MyL rows carry ``match_points``,
``omw``, ``gw_pct`` and ``ogw``).

Sources: docs/rules-myl.md and docs/rules-myl-penalties.md "Penalties"; the conduct rules of Mitos y
Leyendas (``shared/rules/mitos-y-leyendas-conduct.es.txt``, "conduct §") §4.1 for the game loss.
The conduct rules fix no tournament format, so the scoring follows the common card-game
standard (the match/game-win percentages and their 33 % floor as in the Magic: The
Gathering Tournament Rules, appendix C). Choices are marked **[choice]**.

Units:

- match points, games and counts are ``int``;
- percentages (``mw_pct``, ``omw``, ``gw_pct``, ``ogw``) are exact ``fractions.Fraction``
  ratios between 1/3 and 1 in the dataclasses — standings are sorted and ties decided on
  the exact values; :meth:`StandingRow.as_dict` shows them as ``Decimal`` percentages with
  two fractional digits, rounded half up (``Fraction(2, 3)`` → ``Decimal("66.67")``).

Definitions (per player, over the complete Swiss matches):

- **match points**: 3 per win, 1 per draw, 0 per loss; a bye is a win (3).
- **MW %** (match-win %): match points / (3 × matches played, byes included), floored at
  1/3. Not a tie-breaker itself: it is what the opponents' average uses.
- **GW %** (``gw_pct``, game-win %): games won / games played (both players' games won in
  the player's matches, byes included as 2–0 in best-of-3, 1–0 in best-of-1), floored at
  1/3; 1/3 with no game played (e.g. only intentional 0–0 draws). Drawn games are not
  recorded (the event file only has ``games_won``).
- **OMW** (``omw``): the mean of the opponents' MW %, each already floored at 1/3.
- **OGW** (``ogw``): the mean of the opponents' GW %, each already floored at 1/3.
- Opponents' lists: one entry per match actually played, so an opponent met twice counts
  twice; **byes are excluded** (no opponent); a player with no opponent gets 1/3, the
  floor **[choice]**. Dropped and disqualified opponents count with the matches they
  played (their MW %/GW % over those matches).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from events.swiss import Entrant

__all__ = [
    "BEST_OF",
    "DEFAULT_TIE_BREAKERS",
    "FLOOR",
    "TIE_BREAKERS",
    "GameLoss",
    "MatchResult",
    "RoundResult",
    "StandingRow",
    "Standings",
    "StandingsInput",
    "TopCut",
    "TopCutMatch",
    "bye_games",
    "compute_standings",
    "match_points",
    "pairing_entrants",
    "percent",
    "top_cut_pairs",
]

BEST_OF = (1, 3)
"""Matches are best-of-1 or best-of-3 (docs/rules-myl.md)."""

WIN, DRAW, LOSS = 3, 1, 0
"""Match points (docs/rules-myl.md)."""

FLOOR = Fraction(1, 3)
"""Floor of every MW % and GW % (MTR appendix C uses 0.33; the exact third here)."""

TIE_BREAKERS = ("match_points", "omw", "gw_pct", "ogw")
"""Stable tie-breaker codes (never renamed: stored in event settings)."""

DEFAULT_TIE_BREAKERS = TIE_BREAKERS
"""The common card-game order: match points, OMW, GW %, OGW (docs/rules-myl.md)."""

TOP_CUT_SIZES = (4, 8)

_SEED_ORDER = {4: (1, 4, 2, 3), 8: (1, 8, 4, 5, 2, 7, 3, 6)}
"""First-round seeds of the top cut in bracket order, consecutive pairs meet: 1v8, 4v5,
2v7, 3v6 (winners of the first two meet in a semi-final, the last two in the other), so
seeds 1 and 2 can only meet in the final."""

_STAGES = {2: "finalist", 4: "semi_finalist", 8: "quarter_finalist"}
_HUNDRED = Decimal(100)
_TWO_DIGITS = Decimal("0.01")


def bye_games(best_of: int) -> tuple[int, int]:
    """Games of a bye (won, lost): 2–0 in best-of-3, 1–0 in best-of-1 **[choice]** — the
    score of a won match that went the shortest way."""
    _require_best_of(best_of)
    return (_wins_needed(best_of), 0)


def match_points(games_won: int, opponent_games_won: int) -> int:
    """3 for more games won than the opponent, 1 for as many (draw), 0 for fewer."""
    if games_won > opponent_games_won:
        return WIN
    return DRAW if games_won == opponent_games_won else LOSS


def percent(value: Fraction) -> Decimal:
    """A ratio as a percentage with two fractional digits, half up: 2/3 → 66.67."""
    exact = Decimal(value.numerator) * _HUNDRED / Decimal(value.denominator)
    return exact.quantize(_TWO_DIGITS, rounding=ROUND_HALF_UP)


def _wins_needed(best_of: int) -> int:
    return best_of // 2 + 1


def _require_best_of(best_of: int) -> None:
    if best_of not in BEST_OF:
        raise ValueError(f"matches are best-of-1 or best-of-3, not best-of-{best_of}")


# ---------------------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of a Swiss round (docs/contracts.md §1: a two-seat table with ``games_won``).

    ``opponent`` is ``None`` for a bye (docs/contracts.md ``"bye": true``); a bye needs no games.
    ``games_won`` / ``opponent_games_won``: games each won, ``None`` while the match is
    being played (an incomplete match counts for nobody). Each is at most the wins needed
    (2 in best-of-3, 1 in best-of-1) and they cannot both be; equal games is a draw (a
    1–1 or 0–0 at time, an intentional draw).
    """

    player: Hashable
    opponent: Hashable | None = None
    games_won: int | None = None
    opponent_games_won: int | None = None

    @property
    def bye(self) -> bool:
        return self.opponent is None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A Swiss round: its matches (every player at most once)."""

    number: int
    matches: tuple[MatchResult, ...]


@dataclass(frozen=True, slots=True)
class GameLoss:
    """A ``game_loss`` penalty (conduct §4.1, docs/rules-myl-penalties.md "Penalties"): ``player``
    loses the match of Swiss round ``round`` — "se otorga la victoria al oponente en la ronda
    actual" **[choice: modelled as an input list of penalty effects, the match record stays
    as the players reported it]**. See :func:`compute_standings` for the games it sets."""

    round: int
    player: Hashable


@dataclass(frozen=True, slots=True)
class TopCut:
    """An optional single-elimination top cut of the best ``size`` (4 or 8) players.

    ``winners``: the winner of each top-cut match played so far, in bracket order — the
    first round in the order of :func:`top_cut_pairs` (1v8, 4v5, 2v7, 3v6; top 4: 1v4,
    2v3), then the semi-finals (winner of match 1 v winner of match 2, then 3 v 4), then
    the final. A prefix: the matches not decided yet are simply not listed.
    """

    size: int
    winners: tuple[Hashable, ...] = ()


@dataclass(frozen=True, slots=True)
class StandingsInput:
    """Everything :func:`compute_standings` needs about one MyL event.

    - ``players``: every registered player (dropped, late and disqualified ones included),
      in registration order, which orders the rows that stay fully tied.
    - ``rounds``: the Swiss rounds (not the top cut).
    - ``best_of``: 1 or 3 (games of a bye, the game-loss score, validation).
    - ``tie_breakers``: ordered codes from :data:`TIE_BREAKERS`, e.g. the default
      ``("match_points", "omw", "gw_pct", "ogw")``.
    - ``game_losses``: game-loss penalties (:class:`GameLoss`).
    - ``dropped``: players who left; they keep their rows and results, are not paired any
      more and do not make the top cut **[choice]**.
    - ``disqualified``: removed from the standings; their matches still count for their
      opponents' OMW/OGW **[choice, as VEKN JG §1.1.4]**; not paired.
    - ``toss``: optional recorded random order, best first, that orders fully tied rows
      (e.g. at the top-cut line); tied rows still share their rank.
    - ``top_cut``: the top cut, or ``None``.
    """

    players: tuple[Hashable, ...]
    rounds: tuple[RoundResult, ...] = ()
    best_of: int = 3
    tie_breakers: tuple[str, ...] = DEFAULT_TIE_BREAKERS
    game_losses: tuple[GameLoss, ...] = ()
    dropped: frozenset = field(default_factory=frozenset)
    disqualified: frozenset = field(default_factory=frozenset)
    toss: tuple[Hashable, ...] = ()
    top_cut: TopCut | None = None


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TopCutMatch:
    """One top-cut match: ``stage`` is 8 (quarter-final), 4 (semi-final) or 2 (final);
    ``higher_seed`` had the better Swiss rank; ``winner`` is ``None`` until played."""

    stage: int
    number: int
    higher_seed: Hashable
    lower_seed: Hashable
    winner: Hashable | None = None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line.

    ``rank``: the event rank — after a finished top cut: champion 1, finalist 2, the
    semi-final losers 3 and 4 and the quarter-final losers 5–8 in their Swiss order, then
    the others from ``size + 1`` in Swiss order; otherwise the Swiss rank.
    ``swiss_rank``: competition ranking ("1224") on the tie-breakers. Totals over the
    complete Swiss matches, game losses applied; percentages are exact fractions (module
    docstring). ``top_cut``: the player is in the cut; ``top_cut_result``: ``"champion"``,
    ``"finalist"``, ``"semi_finalist"``, ``"quarter_finalist"`` once eliminated (or
    champion), else ``None``.
    """

    rank: int
    swiss_rank: int
    player: Hashable
    match_points: int
    wins: int
    draws: int
    losses: int
    byes: int
    matches_played: int
    games_won: int
    games_played: int
    mw_pct: Fraction
    omw: Fraction
    gw_pct: Fraction
    ogw: Fraction
    dropped: bool = False
    top_cut: bool = False
    top_cut_result: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The row in the docs/contracts.md §2 shape (the adapter adds ``name``): percentages as
        ``Decimal`` with two fractional digits (66.67), the rest as ``int``/``bool``."""
        return {
            "rank": self.rank,
            "player": self.player,
            "match_points": self.match_points,
            "omw": percent(self.omw),
            "gw_pct": percent(self.gw_pct),
            "ogw": percent(self.ogw),
            "swiss_rank": self.swiss_rank,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "dropped": self.dropped,
            "top_cut": self.top_cut,
            "top_cut_result": self.top_cut_result,
            "winner": self.top_cut_result == "champion",
        }


@dataclass(frozen=True, slots=True)
class Standings:
    """Result of :func:`compute_standings`.

    - ``rows``: best first (event rank, then Swiss order); disqualified players absent.
    - ``top_cut``: the seeded players, seed 1 first (empty without a top cut).
    - ``bracket``: the top-cut matches known so far, in bracket order.
    - ``champion``: the top-cut winner once the final is played, else ``None``.
    """

    rows: tuple[StandingRow, ...]
    top_cut: tuple[Hashable, ...] = ()
    bracket: tuple[TopCutMatch, ...] = ()
    champion: Hashable | None = None

    def row(self, player: Hashable) -> StandingRow:
        """The row of ``player``; ``KeyError`` if absent (e.g. disqualified)."""
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)


# ---------------------------------------------------------------------------------------
# Computation
# ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Totals:
    points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    matches: int = 0
    games_won: int = 0
    games_played: int = 0
    opponents: list = field(default_factory=list)

    @property
    def mw(self) -> Fraction:
        if not self.matches:
            return FLOOR
        return max(FLOOR, Fraction(self.points, 3 * self.matches))

    @property
    def gw(self) -> Fraction:
        if not self.games_played:
            return FLOOR
        return max(FLOOR, Fraction(self.games_won, self.games_played))


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else FLOOR


def compute_standings(data: StandingsInput) -> Standings:
    """Standings of a MyL Swiss event and its top cut (docs/rules-myl.md).

    1. Every complete Swiss match is scored from its games (more games: win 3, equal:
       draw 1, fewer: loss 0); a bye is a win with :func:`bye_games`.
    2. A :class:`GameLoss` makes its player lose that round's match: the opponent's games
       become at least the wins needed (2 in best-of-3, 1 in best-of-1) and the
       penalised player's at most one less (reported 2–0 → 1–2, 1–1 → 1–2, not played yet
       → 0–2) **[choice]**; if both players of a match get one, both lose (0 match points
       each, games capped at wins needed − 1) **[choice]**. Several game losses of the
       same player in the same round count once.
    3. Totals, MW %, GW %, OMW, OGW as in the module docstring; rows sorted by
       ``tie_breakers`` (all descending), fully tied rows by ``toss`` then registration
       order, ranks by competition ranking ("1224") on the tie-breakers. Disqualified
       players get no row.
    4. Top cut: the first ``size`` rows that are not dropped, seeded in row order; the
       bracket and the final ranking as :class:`StandingRow` ``rank`` says.

    Raises ``ValueError`` for inconsistent input: an unregistered or duplicate player, a
    player twice in a round, impossible games, an unknown or repeated tie-breaker code, a
    game loss without a match to apply to (no such round, not playing, or a bye — the
    adapter applies such a penalty to the player's next match), an unknown top-cut size,
    too few players for the cut, or a top-cut winner who is not in that match.
    """
    _require_best_of(data.best_of)
    codes = tuple(data.tie_breakers)
    unknown = [c for c in codes if c not in TIE_BREAKERS]
    if unknown:
        raise ValueError(f"unknown tie-breaker {unknown[0]!r}; use one of {TIE_BREAKERS}")
    if len(set(codes)) != len(codes):
        raise ValueError("a tie-breaker is listed twice")
    index = {player: i for i, player in enumerate(data.players)}
    if len(index) != len(data.players):
        raise ValueError("a player is registered twice")

    totals = {player: _Totals() for player in data.players}
    losses = _game_losses(data)
    for rnd in data.rounds:
        _add_round(rnd, data.best_of, losses.pop(rnd.number, set()), totals)
    if losses:
        number, players = next(iter(losses.items()))
        raise ValueError(f"game loss for {next(iter(players))!r} in round {number}, not played")

    mw = {p: t.mw for p, t in totals.items()}
    gw = {p: t.gw for p, t in totals.items()}
    values = {
        p: {
            "match_points": t.points,
            "omw": _mean([mw[o] for o in t.opponents]),
            "gw_pct": gw[p],
            "ogw": _mean([gw[o] for o in t.opponents]),
        }
        for p, t in totals.items()
    }

    toss = {}
    for position, player in enumerate(data.toss):
        toss.setdefault(player, position)

    def key(player: Hashable) -> tuple:
        return tuple(-values[player][c] for c in codes)

    order = sorted(
        (p for p in data.players if p not in data.disqualified),
        key=lambda p: (key(p), toss.get(p, len(toss)), index[p]),
    )
    swiss_rank: dict[Hashable, int] = {}
    for position, player in enumerate(order, start=1):
        previous = order[position - 2] if position > 1 else None
        same = previous is not None and key(previous) == key(player)
        swiss_rank[player] = swiss_rank[previous] if same else position

    seeds, bracket, result, champion = _top_cut(data, order)
    rank = dict(swiss_rank)
    if champion is not None:
        # Cut players take ranks 1..size one by one; the others follow from size + 1 in
        # Swiss order, still sharing a rank when tied.
        order = _final_order(order, result)
        for position, player in enumerate(order, start=1):
            previous = order[position - 2] if position > 1 else None
            tied = (
                player not in result
                and previous not in result
                and swiss_rank[previous] == swiss_rank[player]
            )
            rank[player] = rank[previous] if tied else position

    seeded = set(seeds)
    rows = tuple(
        StandingRow(
            rank=rank[p],
            swiss_rank=swiss_rank[p],
            player=p,
            match_points=totals[p].points,
            wins=totals[p].wins,
            draws=totals[p].draws,
            losses=totals[p].losses,
            byes=totals[p].byes,
            matches_played=totals[p].matches,
            games_won=totals[p].games_won,
            games_played=totals[p].games_played,
            mw_pct=mw[p],
            omw=values[p]["omw"],
            gw_pct=gw[p],
            ogw=values[p]["ogw"],
            dropped=p in data.dropped,
            top_cut=p in seeded,
            top_cut_result=result.get(p),
        )
        for p in order
    )
    return Standings(rows=rows, top_cut=seeds, bracket=bracket, champion=champion)


def _game_losses(data: StandingsInput) -> dict[int, set[Hashable]]:
    by_round: dict[int, set[Hashable]] = {}
    for penalty in data.game_losses:
        by_round.setdefault(penalty.round, set()).add(penalty.player)
    return by_round


def _add_round(
    rnd: RoundResult, best_of: int, penalised: set[Hashable], totals: dict[Hashable, _Totals]
) -> None:
    """Add the complete matches of one Swiss round (game losses applied) to the totals."""
    need = _wins_needed(best_of)
    seen: set[Hashable] = set()
    for match in rnd.matches:
        pair = (match.player,) if match.bye else (match.player, match.opponent)
        for player in pair:
            if player not in totals:
                raise ValueError(f"round {rnd.number}: {player!r} is not registered")
            if player in seen:
                raise ValueError(f"round {rnd.number}: {player!r} plays twice")
            seen.add(player)

        if match.bye:
            if match.player in penalised:
                raise ValueError(
                    f"round {rnd.number}: game loss for {match.player!r}, who has a bye"
                )
            t = totals[match.player]
            won, lost = bye_games(best_of)
            t.points += WIN
            t.wins += 1
            t.byes += 1
            t.matches += 1
            t.games_won += won
            t.games_played += won + lost
            continue

        a, b = match.games_won, match.opponent_games_won
        for games in (a, b):
            if games is not None and not 0 <= games <= need:
                raise ValueError(
                    f"round {rnd.number}: {games} games won in a best-of-{best_of} match"
                )
        if a == need and b == need:
            raise ValueError(f"round {rnd.number}: both players cannot win {need} games")
        lost_a, lost_b = match.player in penalised, match.opponent in penalised
        if lost_a or lost_b:
            a, b = a or 0, b or 0
            if lost_a:
                a, b = min(a, need - 1), b if lost_b else max(b, need)
            if lost_b:
                a, b = a if lost_a else max(a, need), min(b, need - 1)
            points = (LOSS if lost_a else WIN, LOSS if lost_b else WIN)
        elif a is None or b is None:
            continue  # still being played
        else:
            points = (match_points(a, b), match_points(b, a))
        penalised.discard(match.player)
        penalised.discard(match.opponent)

        for player, opponent, won, got in (
            (match.player, match.opponent, a, points[0]),
            (match.opponent, match.player, b, points[1]),
        ):
            t = totals[player]
            t.points += got
            t.wins += got == WIN
            t.draws += got == DRAW
            t.losses += got == LOSS
            t.matches += 1
            t.games_won += won
            t.games_played += a + b
            t.opponents.append(opponent)
    if penalised:
        raise ValueError(
            f"round {rnd.number}: game loss for {next(iter(penalised))!r}, who has no match"
        )


# ---------------------------------------------------------------------------------------
# Top cut
# ---------------------------------------------------------------------------------------


def top_cut_pairs(seeds: Sequence[Hashable]) -> tuple[tuple[Hashable, Hashable], ...]:
    """First-round matches of a top cut, ``seeds`` best first (4 or 8 players): top 8 →
    1v8, 4v5, 2v7, 3v6; top 4 → 1v4, 2v3 (higher seed first). Winners of consecutive
    matches meet next. Raises ``ValueError`` for another size."""
    size = len(seeds)
    if size not in TOP_CUT_SIZES:
        raise ValueError(f"a top cut has 4 or 8 players, not {size}")
    order = [seeds[s - 1] for s in _SEED_ORDER[size]]
    return tuple(zip(order[::2], order[1::2], strict=True))


def _top_cut(
    data: StandingsInput, order: list[Hashable]
) -> tuple[tuple[Hashable, ...], tuple[TopCutMatch, ...], dict[Hashable, str], Hashable | None]:
    """(seeds, bracket, result per player eliminated or champion, champion)."""
    cut = data.top_cut
    if cut is None:
        return (), (), {}, None
    if cut.size not in TOP_CUT_SIZES:
        raise ValueError(f"a top cut has 4 or 8 players, not {cut.size}")
    eligible = [p for p in order if p not in data.dropped]
    if len(eligible) < cut.size:
        raise ValueError(f"a top {cut.size} needs {cut.size} players, {len(eligible)} remain")
    seeds = tuple(eligible[: cut.size])
    seed = {p: i for i, p in enumerate(seeds)}

    bracket: list[TopCutMatch] = []
    result: dict[Hashable, str] = {}
    winners = iter(cut.winners)
    pairs = list(top_cut_pairs(seeds))
    stage = cut.size
    number = 0
    champion = None
    while True:
        advancing: list[Hashable | None] = []
        for a, b in pairs:
            number += 1
            if a is None or b is None:
                advancing.append(None)
                continue
            high, low = sorted((a, b), key=seed.__getitem__)
            winner = next(winners, None)
            if winner is not None and winner not in (high, low):
                raise ValueError(f"top-cut match {number}: {winner!r} is not playing in it")
            bracket.append(TopCutMatch(stage, number, high, low, winner))
            if winner is not None:
                result[low if winner == high else high] = _STAGES[stage]
                if stage == 2:
                    result[winner] = "champion"
                    champion = winner
            advancing.append(winner)
        if stage == 2:
            break
        pairs = list(zip(advancing[::2], advancing[1::2], strict=True))
        stage //= 2
    if next(winners, None) is not None:
        raise ValueError("more top-cut winners than matches that can be played")
    return seeds, tuple(bracket), result, champion


def _final_order(order: list[Hashable], result: dict[Hashable, str]) -> list[Hashable]:
    """Champion, finalist, semi-finalists then quarter-finalists (each by Swiss order),
    then everybody else in Swiss order."""
    stages = ("champion", "finalist", "semi_finalist", "quarter_finalist")
    cut = [p for s in stages for p in order if result.get(p) == s]
    return cut + [p for p in order if p not in result]


# ---------------------------------------------------------------------------------------
# Next round
# ---------------------------------------------------------------------------------------


def pairing_entrants(
    data: StandingsInput, standings: Standings | None = None
) -> tuple[Entrant, ...]:
    """The entrants of the next Swiss round, for ``events.swiss.pair_round``.

    Every registered player who is neither dropped nor disqualified — late entries
    included, with what they have (usually 0 points) — with their match points and Swiss
    rank (from ``standings``, computed from ``data`` when not given), everybody they have
    been paired against so far (every listed match, complete or not) and whether they had
    a bye. In registration order.
    """
    standings = standings or compute_standings(data)
    rows = {row.player: row for row in standings.rows}
    opponents: dict[Hashable, set[Hashable]] = {p: set() for p in data.players}
    had_bye: set[Hashable] = set()
    for rnd in data.rounds:
        for match in rnd.matches:
            if match.bye:
                had_bye.add(match.player)
            else:
                opponents[match.player].add(match.opponent)
                opponents[match.opponent].add(match.player)
    return tuple(
        Entrant(
            player=p,
            match_points=rows[p].match_points,
            rank=rows[p].swiss_rank,
            opponents=frozenset(opponents[p]),
            had_bye=p in had_bye,
        )
        for p in data.players
        if p not in data.dropped and p not in data.disqualified
    )
