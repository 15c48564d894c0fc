"""Circuit standings: an organisation's series of events scored together (docs/ratings.md
"Circuits"). What the official Archon calls a league and TopDeck a circuit.

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out. The
adapter in ``standings/circuit_services.py`` loads the circuit's events and their standings.

- :func:`gp_points`: Grand Prix points of one event's final rank, as the official Archon
  scores its leagues: 25 for the winner, 15 for 2nd, ``16 − rank`` for 3rd to 10th
  (13 … 6), 3 for every other ranked player.
- :func:`standings`: each player's best ``best`` events of the circuit scored by rating
  points (TR Appendix A.2), GP points, or score (GW, then VP, then TP: TR §3.7.1, §3.7.3,
  §3.7.4), summed; players below the minimum attendance listed unranked; competition
  ranks ("1224"); the top ``places`` ranks qualify.

Units: VP are ``decimal.Decimal`` (multiples of 0.5); GW, TP, points and ranks are ``int``;
dates are ``datetime.date``.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

__all__ = [
    "Entry",
    "Line",
    "Rules",
    "Scored",
    "Scoring",
    "gp_points",
    "score_of",
    "standings",
]

WINNER_GP = 25
SECOND_GP = 15
OTHER_GP = 3
"""GP points of a ranked player below 10th."""
LAST_SLIDING_RANK = 10
"""3rd to 10th score ``16 − rank``."""


class Scoring(enum.StrEnum):
    """How a circuit scores one event. Stored codes are an API: never rename."""

    RATING = "rating"
    """The event's rating points (TR Appendix A.2); an unrated event scores 0."""
    GP = "gp"
    """Grand Prix points of the final rank (:func:`gp_points`)."""
    SCORE = "score"
    """The event's GW, VP and TP, compared in that order (TR §3.7.1, §3.7.3, §3.7.4)."""


def gp_points(rank: int) -> int:
    """GP points of final rank ``rank`` (≥ 1): 25, 15, then ``16 − rank`` for 3rd to 10th,
    3 for the rest (the official Archon's league scoring). Players sharing a rank share its
    points **[choice]**. ``ValueError`` for a rank below 1."""
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
        raise ValueError(f"a rank is a whole number from 1, not {rank!r}")
    if rank == 1:
        return WINNER_GP
    if rank == 2:
        return SECOND_GP
    if rank <= LAST_SLIDING_RANK:
        return 16 - rank
    return OTHER_GP


@dataclass(frozen=True, slots=True)
class Entry:
    """One ranked player of one event of the circuit: ``player`` (a key; ``name`` and
    ``vekn`` are shown), the ``event`` (a key, e.g. its slug; ``event_name`` is shown),
    its ``date``, the player's final ``rank`` in it (≥ 1), ``gw`` (preliminary game wins
    plus 1 for the final's winner), ``vp`` (preliminary rounds and final), ``tp``
    (preliminary), and ``rating_points`` (``None``: the event gives none)."""

    player: Hashable
    name: str
    vekn: str | None
    event: str
    date: date
    rank: int
    gw: int
    vp: Decimal
    tp: int
    rating_points: int | None = None
    event_name: str = ""


@dataclass(frozen=True, slots=True)
class Rules:
    """A circuit's scoring: ``scoring`` (:class:`Scoring`), ``best`` events counted per
    player (``None``: all of them), ``min_events`` attended to be ranked (≥ 1) and
    ``places`` (the top ranks that qualify, ≥ 0). ``ValueError`` for a value out of range."""

    scoring: Scoring
    best: int | None = None
    min_events: int = 1
    places: int = 0

    def __post_init__(self):
        if self.scoring not in tuple(Scoring):
            raise ValueError(f"unknown scoring {self.scoring!r}")
        if self.best is not None and self.best < 1:
            raise ValueError("at least one event counts")
        if self.min_events < 1:
            raise ValueError("the minimum attendance is at least one event")
        if self.places < 0:
            raise ValueError("qualifying places cannot be negative")


@dataclass(frozen=True, slots=True)
class Scored:
    """One entry as the circuit scores it: ``points`` (rating or GP points; for the score
    method its GW) and whether it is ``counted`` among the player's best events."""

    entry: Entry
    points: int
    counted: bool


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the circuit standings: ``rank`` ("1224"; ``None`` below the minimum
    attendance), the player, ``points`` (the sum over counted events: rating points, GP
    points, or GW for the score method), ``gw``, ``vp``, ``tp`` (sums over counted
    events), ``played`` (events attended), ``qualified`` and every entry, counted first
    (best first), then the others (best first)."""

    rank: int | None
    player: Hashable
    name: str
    vekn: str | None
    points: int
    gw: int
    vp: Decimal
    tp: int
    played: int
    qualified: bool
    entries: tuple[Scored, ...]


def score_of(entry: Entry, scoring: Scoring) -> tuple:
    """The comparable score of one entry, higher is better: ``(rating points,)`` (0 for
    none), ``(GP points,)`` or ``(gw, vp, tp)``."""
    if scoring == Scoring.RATING:
        return (entry.rating_points or 0,)
    if scoring == Scoring.GP:
        return (gp_points(entry.rank),)
    return (entry.gw, entry.vp, entry.tp)


def _best_first(entries: Iterable[Entry], scoring: Scoring) -> list[Entry]:
    """Best first; equal scores: the more recent first, then by event key **[choice]**:
    which of two equal results counts does not change the total."""
    return sorted(
        entries,
        key=lambda e: (
            tuple(-v for v in score_of(e, scoring)),
            -e.date.toordinal(),
            str(e.event),
        ),
    )


def standings(entries: Iterable[Entry], rules: Rules) -> tuple[Line, ...]:
    """The circuit standings of ``entries`` (every ranked player of every event of the
    circuit) under ``rules``.

    Each player's entries are scored (:func:`score_of`), their best ``rules.best`` count
    (all when ``None``) and are summed. Ranked players (``played ≥ rules.min_events``)
    come first: highest total first — points for rating and GP, ``(gw, vp, tp)`` for the
    score method — equal totals sharing a rank ("1224"), then in name order. Players below
    the minimum follow, unranked, in the same order **[choice]**: they see where they stand.
    A ranked player qualifies when their rank is at most ``rules.places``, so players tied
    on the last qualifying rank all qualify **[choice]**. ``ValueError`` when one player
    appears twice in one event or an entry's rank is below 1."""
    by_player: dict[Hashable, list[Entry]] = {}
    seen: set[tuple[Hashable, str]] = set()
    for e in entries:
        if (e.player, e.event) in seen:
            raise ValueError(f"{e.player!r} appears twice in {e.event!r}")
        seen.add((e.player, e.event))
        if e.rank < 1:
            raise ValueError(f"{e.player!r}: a rank starts at 1")
        by_player.setdefault(e.player, []).append(e)

    drafts = []
    for own in by_player.values():
        ordered = _best_first(own, rules.scoring)
        limit = len(ordered) if rules.best is None else rules.best
        counted, rest = ordered[:limit], ordered[limit:]
        scored = tuple(
            [Scored(e, score_of(e, rules.scoring)[0], True) for e in counted]
            + [Scored(e, score_of(e, rules.scoring)[0], False) for e in rest]
        )
        gw = sum(e.gw for e in counted)
        vp = sum((e.vp for e in counted), Decimal(0))
        tp = sum(e.tp for e in counted)
        points = sum(s.points for s in scored if s.counted)
        total = (gw, vp, tp) if rules.scoring == Scoring.SCORE else (points,)
        latest = max(own, key=lambda e: e.date)
        drafts.append((total, latest, points, gw, vp, tp, len(own), scored))

    drafts.sort(key=lambda d: (tuple(-v for v in d[0]), d[1].name.casefold(), str(d[1].player)))
    lines: list[Line] = []
    previous: tuple | None = None
    position = 0
    for total, latest, points, gw, vp, tp, played, scored in drafts:
        if played < rules.min_events:
            continue
        position += 1
        if previous is None or previous[0] != total:
            previous = (total, position)
        rank = previous[1]
        lines.append(
            Line(
                rank,
                latest.player,
                latest.name,
                latest.vekn,
                points,
                gw,
                vp,
                tp,
                played,
                rank <= rules.places,
                scored,
            )
        )
    for _total, latest, points, gw, vp, tp, played, scored in drafts:
        if played >= rules.min_events:
            continue
        lines.append(
            Line(
                None,
                latest.player,
                latest.name,
                latest.vekn,
                points,
                gw,
                vp,
                tp,
                played,
                False,
                scored,
            )
        )
    return tuple(lines)
