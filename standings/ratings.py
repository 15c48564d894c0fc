"""VEKN rating points and rankings (TR Appendix A; docs/rules-vekn.md "Ratings").

Pure rules, no ORM and no request: frozen dataclasses (and, for the many results of a
ranking, the immutable named tuple :class:`Result`) in and out. The
adapter in ``standings/rating_services.py`` loads the events and their standings.

- :func:`rating_points`: the rating points (RtP) every player of one event earns
  (TR Appendix A.2, A.2.1): 5 for attending, 4 per VP scored (preliminary rounds and
  final), 8 per game win (the final's victory included), and the finalist bonus
  ``round(90 × coef)`` for the winner, ``round(30 × coef)`` for the other finalists, with
  ``coef = log15(N²) − 1`` (+ 0.25 for a national, + 1 for a continental championship) and
  N the players seated in at least one round. ``round`` is Python's (half to even), as the
  official Archon computes it.
- :func:`ranking`: one of the four VEKN groups (constructed or limited, on site or online;
  TR Appendix A): the sum of each player's best 8 results among rated events in the 18
  months before the date asked (A.2), players without a rated event in the 12 months
  before it not listed (A.1), competition ranks ("1224").
- :func:`player_history`: one player's results, each with why it counts or not.

Units: VP are ``decimal.Decimal`` multiples of 0.5; rating points are ``int``; dates are
``datetime.date``.
"""

from __future__ import annotations

import calendar
import enum
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from operator import attrgetter
from typing import NamedTuple

__all__ = [
    "BEST_RESULTS",
    "CONSTRUCTED",
    "CATEGORIES",
    "LIMITED",
    "LISTED_MONTHS",
    "RATED_MONTHS",
    "Championship",
    "FORMATS",
    "EventResults",
    "HistoryEntry",
    "PlayerResult",
    "RankingRow",
    "Result",
    "Why",
    "category_of",
    "coefficient",
    "months_before",
    "player_history",
    "ranking",
    "rating_points",
]

BEST_RESULTS = 8
"""At most 8 events count toward a rating (TR Appendix A.2)."""
RATED_MONTHS = 18
"""A rating sums results of the preceding 18 months (TR Appendix A.2)."""
LISTED_MONTHS = 12
"""A player leaves the rankings after 12 months without a rated event (TR Appendix A.1)."""

CONSTRUCTED = "constructed"
LIMITED = "limited"
CATEGORIES = (CONSTRUCTED, LIMITED)
"""The ranking categories (TR Appendix A): Standard Constructed (standard and V5 events)
and Limited (every limited format together)."""

_CONSTRUCTED_FORMATS = frozenset({"standard", "v5"})
FORMATS = {CONSTRUCTED: ("standard", "v5"), LIMITED: ("limited",)}
"""The game formats of each category (TR Appendix A)."""


class Championship(enum.StrEnum):
    """Level of an event (TR Appendix A.2.1): the coefficient bonus (none for a Grand
    Prix)."""

    GRAND_PRIX = "grand_prix"
    NATIONAL = "national"
    CONTINENTAL = "continental"


_BONUS = {
    None: 0.0,
    "": 0.0,
    Championship.GRAND_PRIX: 0.0,  # "Grand Prix and Qualifiers get no coefficient bonus"
    Championship.NATIONAL: 0.25,
    Championship.CONTINENTAL: 1.0,
}
WINNER_POINTS = 90
FINALIST_POINTS = 30
ATTENDING_POINTS = 5
VP_POINTS = 4
GW_POINTS = 8


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player of an event, as the rating reads it: ``vp`` scored in the preliminary
    rounds and the final together (standings adjustments applied), ``gw`` preliminary game
    wins, ``finalist`` and ``winner`` of the final. ``seated``: sat at a table in at least
    one round (only those count and earn points, TR Appendix A.2)."""

    player: Hashable
    vp: Decimal
    gw: int
    finalist: bool = False
    winner: bool = False
    seated: bool = True


@dataclass(frozen=True, slots=True)
class EventResults:
    """What :func:`rating_points` needs of one event: every player (disqualified and
    dropped ones included), the championship level (``None``, ``"national"``,
    ``"continental"``), whether the event is rated at all (``False`` for a set
    restriction, TR §6.1.1 note) and whether its final was played."""

    players: tuple[PlayerResult, ...]
    championship: str | None = None
    rated: bool = True
    final_played: bool = True


def coefficient(size: int, championship: str | None = None) -> float:
    """The finalist bonus coefficient (TR Appendix A.2.1): ``log15(size²) − 1``, plus 0.25
    for a national and 1 for a continental championship. ``size`` ≥ 1 players; 15 players
    give 1. Computed as the official Archon does (``math.log(size * size, 15) - 1``), so the
    rounding of the bonus matches it. Raises ``ValueError`` for a size below 1 or an
    unknown championship level."""
    if size < 1:
        raise ValueError("an event needs at least one player")
    if championship not in _BONUS:
        raise ValueError(f"unknown championship level {championship!r}")
    return math.log(size * size, 15) - 1 + _BONUS[championship]


def rating_points(event: EventResults) -> dict[Hashable, int] | None:
    """Rating points of every seated player of ``event`` (TR Appendix A.2, A.2.1), or
    ``None`` when the event gives none: unrated (a set restriction, TR §6.1.1 note) or its
    final not played.

    ``5 + 4 × vp + 8 × (gw + 1 for the winner)``, plus ``round(90 × coef)`` for the
    winner and ``round(30 × coef)`` for the other finalists (:func:`coefficient`, N = the
    seated players). Players never seated get nothing and are absent from the result.
    VP are multiples of 0.5, so every amount is an integer; raises ``ValueError``
    otherwise, or when more than one winner is given."""
    if not event.rated or not event.final_played:
        return None
    seated = [p for p in event.players if p.seated]
    if not seated:
        return {}
    if sum(1 for p in seated if p.winner) > 1:
        raise ValueError("an event has one winner")
    coef = coefficient(len(seated), event.championship)
    points: dict[Hashable, int] = {}
    for p in seated:
        vp_points = VP_POINTS * p.vp
        if vp_points != vp_points.to_integral_value():
            raise ValueError(f"{p.player!r}: VP must be multiples of 0.5")
        total = ATTENDING_POINTS + int(vp_points) + GW_POINTS * (p.gw + (1 if p.winner else 0))
        if p.winner:
            total += round(WINNER_POINTS * coef)
        elif p.finalist:
            total += round(FINALIST_POINTS * coef)
        points[p.player] = total
    return points


def category_of(game_format: str) -> str:
    """The ranking category of an event's game format (TR Appendix A): ``standard`` and
    ``v5`` → ``constructed``, ``limited`` → ``limited``. Raises ``ValueError`` otherwise."""
    if game_format in _CONSTRUCTED_FORMATS:
        return CONSTRUCTED
    if game_format == LIMITED:
        return LIMITED
    raise ValueError(f"unknown game format {game_format!r}")


def months_before(day: date, months: int) -> date:
    """The same day ``months`` calendar months before ``day``, clamped to the month's last
    day (31 August − 18 months = 28 February) **[choice]**: "18 months" in TR Appendix A.2
    are calendar months, as the official Archon counts them."""
    index = day.year * 12 + (day.month - 1) - months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


class Result(NamedTuple):
    """One player's rating points at one rated event: ``player`` (a key; ``vekn`` and
    ``name`` are shown), the ``event`` (a key, e.g. its slug), its ``date``, ``category``
    (:data:`CATEGORIES`) and ``online``; ``event_name`` is shown. An immutable named tuple
    rather than a frozen dataclass: a ranking builds tens of thousands of them, and a
    tuple is built several times faster (docs/performance.md "Rankings")."""

    player: Hashable
    vekn: str | None
    name: str
    event: str
    date: date
    category: str
    online: bool
    rating_points: int
    event_name: str = ""


@dataclass(frozen=True, slots=True)
class RankingRow:
    """A line of a ranking: ``rank`` ("1224"), the player, ``rating`` (the sum) and the
    ``events`` counted, best first."""

    rank: int
    player: Hashable
    vekn: str | None
    name: str
    rating: int
    events: tuple[Result, ...]


class Why(enum.StrEnum):
    """Why a result counts toward a rating or not (TR Appendix A.2)."""

    COUNTED = "counted"
    NOT_BEST = "not_best_8"
    """Within the 18 months, but 8 better results count."""
    TOO_OLD = "older_than_18_months"
    AFTER = "after_as_of"
    """Played after the date asked."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    result: Result
    why: Why


_EVENT = attrgetter("event")
_POINTS_THEN_DATE = attrgetter("rating_points", "date")


def _best_first(results: Iterable[Result]) -> list[Result]:
    """Best results first; equal points: the more recent first, then by event key
    **[choice]**: which of two equal results counts does not change the rating. (Two
    stable sorts: by event key, then by points and date, highest first.)"""
    ordered = sorted(results, key=_EVENT)
    ordered.sort(key=_POINTS_THEN_DATE, reverse=True)
    return ordered


def _window(results: Iterable[Result], as_of: date) -> list[Result]:
    start = months_before(as_of, RATED_MONTHS)
    return [r for r in results if start <= r.date <= as_of]


def ranking(
    results: Iterable[Result], category: str, online: bool, as_of: date
) -> tuple[RankingRow, ...]:
    """The ranking of one group (``category`` × ``online``, TR Appendix A) as of ``as_of``.

    A rating is the sum of the player's best :data:`BEST_RESULTS` results among those of
    the group dated from ``months_before(as_of, 18)`` to ``as_of``, both included
    (TR Appendix A.2). A player with no result of the group from
    ``months_before(as_of, 12)`` to ``as_of`` is not listed (A.1). Rows: highest rating
    first, ranks "1224" (equal ratings share a rank), ties in name order then player key.
    Linear in the results plus sorts. Raises ``ValueError`` for an unknown category."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}")
    listed_from = months_before(as_of, LISTED_MONTHS)
    start = months_before(as_of, RATED_MONTHS)
    by_player: dict[Hashable, list[Result]] = {}
    for r in results:
        if r.category == category and r.online == online and start <= r.date <= as_of:
            own = by_player.get(r.player)
            if own is None:
                by_player[r.player] = [r]
            else:
                own.append(r)
    lines = []
    for own in by_player.values():
        if max(r.date for r in own) < listed_from:
            continue
        best = tuple(_best_first(own)[:BEST_RESULTS])
        lines.append((sum(r.rating_points for r in best), own[0], best))
    lines.sort(key=lambda line: (-line[0], line[1].name.casefold(), str(line[1].player)))
    rows: list[RankingRow] = []
    for position, (rating, first, best) in enumerate(lines, start=1):
        rank = rows[-1].rank if rows and rows[-1].rating == rating else position
        rows.append(RankingRow(rank, first.player, first.vekn, first.name, rating, best))
    return tuple(rows)


def player_history(
    results: Sequence[Result], as_of: date
) -> dict[tuple[str, bool], tuple[HistoryEntry, ...]]:
    """One player's results by group ``(category, online)``, most recent first, each with
    :class:`Why` it counts toward the rating as of ``as_of`` or not: counted, not among the
    best 8, older than 18 months, or after ``as_of`` (TR Appendix A.2)."""
    start = months_before(as_of, RATED_MONTHS)
    groups: dict[tuple[str, bool], list[Result]] = {}
    for r in results:
        groups.setdefault((r.category, r.online), []).append(r)
    history = {}
    for key, own in sorted(groups.items()):
        counted = set(map(id, _best_first(_window(own, as_of))[:BEST_RESULTS]))
        entries = []
        for r in sorted(own, key=lambda r: (-r.date.toordinal(), str(r.event))):
            if r.date > as_of:
                why = Why.AFTER
            elif r.date < start:
                why = Why.TOO_OLD
            elif id(r) in counted:
                why = Why.COUNTED
            else:
                why = Why.NOT_BEST
            entries.append(HistoryEntry(r, why))
        history[key] = tuple(entries)
    return history
