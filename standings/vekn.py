"""VEKN scoring rules: result sheets, table scores, standings and the final seating ritual.

Pure rules, no ORM and no request: frozen dataclasses in, frozen dataclasses out. The
adapter in ``standings/services.py`` loads what these functions need and saves the result.

Sources: VEKN Tournament Rules ("TR §", ``shared/rules/vekn-tournament-rules.en.md``)
and docs/rules-vekn.md "Result sheets" to "Seating". Choices where the rules are silent are marked
**[choice]**.

Units: Victory Points are ``decimal.Decimal`` multiples of 0.5 (returned with one fractional
digit); Tournament Points and Game Wins are ``int``. Internally sheets are handled in
half-VP units (``int``) so that the enumeration and comparisons are exact and fast.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache

from django.utils.translation import gettext_lazy as _

__all__ = [
    "FinalResult",
    "RoundResult",
    "SeatResult",
    "SeatScore",
    "SheetCheck",
    "StandingRow",
    "Standings",
    "StandingsInput",
    "TableResult",
    "check_sheet",
    "compute_standings",
    "legal_sheets",
    "place_card",
    "ritual_order",
    "score_table",
]

TABLE_SIZES = (4, 5)
"""Seated players at a VEKN table (TR §3.1.2)."""

TP_BY_POSITION = {5: (60, 48, 36, 24, 12), 4: (60, 48, 24, 12)}
"""Tournament Points by table position, best first (TR §3.7.3): at a 4-player table the
3rd place (36) goes to the empty "table bye" position."""

GW_MIN_VP = Decimal(2)
"""A Game Win needs at least this many VP (TR §3.7.1)."""

ZERO = Decimal(0)
_ONE_DIGIT = Decimal("0.1")

# Ways to distinguish which kind of game moment a partial sheet is compared with.
_FINAL = "final"  # the game is over: complete sheets
_RUNNING = "running"  # the game is still going: some players alive, no time-out yet
_ANY = "any"  # either


# ---------------------------------------------------------------------------------------
# Result sheets (TR §3.5, §3.6, §3.7.2; docs/rules-vekn.md "Result sheets")
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetCheck:
    """Outcome of :func:`check_sheet`.

    - ``valid``: False only for an impossible sheet (no legal game gives these values).
    - ``complete``: False while the game is still running (Σ ceil(VP) below the number of
      seats) or some VP is not entered yet (``None``).
    - ``reason``: why the sheet is invalid, ``None`` when valid. It is the English source
      text passed through ``gettext``, so it comes out in the active language.
    """

    valid: bool
    complete: bool
    reason: str | None = None


@cache
def _game_moments(seats: int) -> tuple[frozenset[tuple[int, ...]], frozenset[tuple[int, ...]]]:
    """Simulate every game of ``seats`` players; return (final sheets, running states).

    Values are in half-VP units, seat order. A *running state* is the sheet at any moment
    when two or more players are still in the game (before a time-out).

    Rules simulated (TR §3.5–§3.7.2): predator/prey follow seat order among the players
    still in the game; an oust gives the predator 1 VP; a withdrawal gives the withdrawer
    0.5 VP and the predator nothing; at time-out every player still in gets 0.5; a player
    left alone is the last player standing and gets 1 VP. An intentional draw is a
    time-out (§3.6) and a concession a sequence of ousts (§3.5), so they add no sheets.
    """
    finals: set[tuple[int, ...]] = set()
    running: set[tuple[int, ...]] = set()
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    stack = [(tuple(range(seats)), (0,) * seats)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        alive, halves = state
        if len(alive) == 1:  # last player standing: a full VP
            finals.add(_add(halves, alive, 2))
            continue
        running.add(halves)
        finals.add(_add(halves, alive, 1))  # time-out: half a VP to every survivor
        for i, leaving in enumerate(alive):
            rest = alive[:i] + alive[i + 1 :]
            stack.append((rest, _add(halves, (alive[i - 1],), 2)))  # ousted by predator
            stack.append((rest, _add(halves, (leaving,), 1)))  # withdraws
    return frozenset(finals), frozenset(running)


def _add(halves: tuple[int, ...], seats: Iterable[int], amount: int) -> tuple[int, ...]:
    result = list(halves)
    for seat in seats:
        result[seat] += amount
    return tuple(result)


def _to_vp(halves: int) -> Decimal:
    return (Decimal(halves) / 2).quantize(_ONE_DIGIT)


@cache
def legal_sheets(seats: int) -> frozenset[tuple[Decimal, ...]]:
    """Every VP sheet some legal ending of a ``seats``-player game produces.

    Sheets are tuples of ``Decimal`` VP in seat order (seat 1 first); predator/prey is seat
    order, the last seat's prey being seat 1. Built by simulating all endings (ousts,
    withdrawals, time-out, last player standing — TR §3.5, §3.6, §3.7.2, docs/rules-vekn.md
    "Result sheets"): 107 sheets for 4 seats, 546 for 5. Cached.

    Raises ``ValueError`` when ``seats`` is not 4 or 5.
    """
    _require_table_size(seats)
    finals, _running = _game_moments(seats)
    return frozenset(tuple(_to_vp(v) for v in sheet) for sheet in finals)


@cache
def _projection(seats: int, kind: str, positions: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The values the given seats take together in the game moments of ``kind``."""
    finals, running = _game_moments(seats)
    moments = {_FINAL: finals, _RUNNING: running, _ANY: finals | running}[kind]
    return frozenset(tuple(m[p] for p in positions) for m in moments)


def _require_table_size(seats: int) -> None:
    if seats not in TABLE_SIZES:
        raise ValueError(f"a VEKN table has 4 or 5 players, not {seats}")


def _fmt(value: Decimal) -> str:
    """VP for messages: ``1.5``, ``1``, ``0.3`` (no trailing zeros)."""
    text = f"{value.normalize():f}"
    return "0" if text == "-0" else text


def _fmt_halves(halves: int) -> str:
    return _fmt(Decimal(halves) / 2)


def check_sheet(vps: Sequence[Decimal | None]) -> SheetCheck:
    """Check a VP result sheet of one table (TR §3.7.2, §3.5, §3.6; docs/rules-vekn.md
    "Result sheets", docs/contracts.md §3).

    ``vps`` is the VP per seat in seat order (seat 1 first); ``None`` means not entered yet.
    A sheet is *complete* when every VP is entered and Σ ceil(VP) equals the number of
    seats; it is then valid iff it is one of :func:`legal_sheets`. An incomplete sheet (game
    still running) is not an error: it is valid unless its values are already impossible —
    a VP that is not a number, negative, not in steps of 0.5 or more than any player can
    score, a total above what the table can award, or values that no moment of a legal
    game shows (all VP entered with Σ ceil(VP) below the seat count is read as the running
    game's current sheet; ``None`` seats can take any value).

    Never raises for bad values: the problem is returned in ``reason``.
    """
    seats = len(vps)
    if seats not in TABLE_SIZES:
        return SheetCheck(
            valid=False,
            complete=False,
            reason=_("a VEKN table has 4 or 5 players, this sheet has %(seats)d seats")
            % {"seats": seats},
        )

    values: list[Decimal | None] = []
    problems: list[str] = []
    allowed = {v for sheet in _projection(seats, _ANY, (0,)) for v in sheet}
    for number, raw in enumerate(vps, start=1):
        value, problem = (None, None) if raw is None else _parse_vp(raw, seats, allowed)
        values.append(value)
        if problem is not None:
            problems.append(_("seat %(seat)d: %(problem)s") % {"seat": number, "problem": problem})
    numbers = [v for v in values if v is not None]
    complete = len(numbers) == seats and sum(math.ceil(v) for v in numbers) == seats
    if problems:
        return SheetCheck(valid=False, complete=complete, reason="; ".join(problems))

    halves = [None if v is None else int(v * 2) for v in values]
    entered = [v for v in halves if v is not None]
    if (problem := _total_problem(entered, seats)) is not None:
        return SheetCheck(valid=False, complete=False, reason=problem)

    if len(entered) == seats:
        kind = _FINAL if complete else _RUNNING
    else:
        kind = _ANY
    positions = tuple(i for i, v in enumerate(halves) if v is not None)
    if tuple(halves[i] for i in positions) in _projection(seats, kind, positions):
        return SheetCheck(valid=True, complete=complete)
    return SheetCheck(valid=False, complete=complete, reason=_explain(halves, kind))


def _parse_vp(raw: object, seats: int, allowed: set[int]) -> tuple[Decimal | None, str | None]:
    """One entered VP → (its value if it is a finite number, the problem with it or None).

    ``allowed``: the VP a seat can end with, in half units."""
    try:
        value = raw if isinstance(raw, Decimal) else Decimal(str(raw))
    except (InvalidOperation, ValueError, TypeError):
        return None, _("%(value)r is not a number") % {"value": raw}
    if not value.is_finite():
        return None, _("%(value)s is not a number") % {"value": raw}
    if abs(value.adjusted()) > 6:
        # Astronomically large or small exponents: refuse before any arithmetic, which
        # would otherwise expand them digit by digit (a denial of service).
        return None, _("%(value)s is not a number of victory points") % {"value": str(raw)[:20]}
    if value < 0:
        return value, _("VP cannot be negative (%(vp)s)") % {"vp": _fmt(value)}
    if value > seats:
        return value, _(
            "a player cannot score more than %(max)d VP at a %(seats)d-player table (%(vp)s)"
        ) % {"max": seats, "seats": seats, "vp": _fmt(value)}
    doubled = value * 2
    if doubled != doubled.to_integral_value():
        return value, _("VP must be in steps of 0.5 (%(vp)s)") % {"vp": _fmt(value)}
    if int(doubled) not in allowed:
        if int(doubled) == 2 * seats - 1:
            return value, _(
                "a player cannot score %(vp)s VP at a %(seats)d-player table: after ousting "
                "all %(others)d others they are the last player standing and score %(seats)d"
            ) % {"vp": _fmt(value), "seats": seats, "others": seats - 1}
        return value, _("no legal game gives a player %(vp)s VP at a %(seats)d-player table") % {
            "vp": _fmt(value),
            "seats": seats,
        }
    return value, None


def _ceil_half(halves: int) -> int:
    """ceil(VP) for a VP given in half units: each seat accounts for one player."""
    return -(-halves // 2)


def _total_problem(entered: list[int], seats: int) -> str | None:
    """Σ VP and Σ ceil(VP) cannot exceed the seat count (TR §3.7.2, §3.5, §3.6; docs/rules-vekn.md
    "Result sheets")."""
    total = sum(entered)
    if total > 2 * seats:
        return _("total VP %(total)s is more than the %(seats)d available at this table") % {
            "total": _fmt_halves(total),
            "seats": seats,
        }
    accounted = sum(_ceil_half(v) for v in entered)
    if accounted > seats:
        return _(
            "the sheet accounts for %(count)d players but only %(seats)d are seated: each "
            "ousted player gives 1 VP and each player who withdraws or survives gets 0.5, so "
            "the VP rounded up per seat must add up to %(seats)d"
        ) % {"count": accounted, "seats": seats}
    return None


def _explain(halves: list[int | None], kind: str) -> str:
    """Why no game moment of ``kind`` matches the entered values: the smallest set of
    seats whose values cannot go together, plus single-seat corrections when there are a
    few."""
    entered = [i for i, v in enumerate(halves) if v is not None]
    reason = None
    if kind == _FINAL and all(v % 2 == 0 for v in halves) and max(halves) < 4:
        reason = _(
            "with no half VP on the sheet, the game ended with one player left, who scores "
            "1 VP for the last oust and 1 VP as the last player standing: someone must have "
            "at least 2 VP"
        )
    if reason is None:
        reason = _conflict(halves, entered, kind)
    corrections = _corrections(halves, kind)
    if corrections:
        reason = _("%(reason)s — did you mean %(fixes)s?") % {
            "reason": reason,
            "fixes": _(" or ").join(corrections),
        }
    return reason


def _conflict(halves: list[int | None], entered: list[int], kind: str) -> str:
    """The smallest set of entered seats whose values no game moment of ``kind`` shows."""
    seats = len(halves)
    suffix = _("while the game is running") if kind == _RUNNING else _("in any legal game")
    for size in range(2, min(len(entered), seats - 1) + 1):
        for positions in itertools.combinations(entered, size):
            values = tuple(halves[p] for p in positions)
            if values in _projection(seats, kind, positions):
                continue
            if size > 2:
                return _("seats %(seats)s cannot have %(vps)s VP together %(suffix)s") % {
                    "seats": ", ".join(str(p + 1) for p in positions),
                    "vps": ", ".join(_fmt_halves(v) for v in values),
                    "suffix": suffix,
                }
            first, second = positions
            if second == first + 1:
                template = _(
                    "seat %(seat)d has %(vp)s VP, but seat %(other)d (its prey) has "
                    "%(other_vp)s VP: these cannot go together %(suffix)s"
                )
            elif first == 0 and second == seats - 1:
                template = _(
                    "seat %(seat)d has %(vp)s VP, but seat %(other)d (its predator) has "
                    "%(other_vp)s VP: these cannot go together %(suffix)s"
                )
            else:
                template = _(
                    "seat %(seat)d has %(vp)s VP, but seat %(other)d has %(other_vp)s VP: "
                    "these cannot go together %(suffix)s"
                )
            return template % {
                "seat": first + 1,
                "vp": _fmt_halves(values[0]),
                "other": second + 1,
                "other_vp": _fmt_halves(values[1]),
                "suffix": suffix,
            }
    if kind == _RUNNING:
        return _("no moment of a legal game gives this sheet: is the game over?")
    return _("no legal game ending gives this sheet")


def _corrections(halves: list[int | None], kind: str, limit: int = 3) -> list[str]:
    """The smallest single-seat changes that turn a fully entered sheet into a legal final
    sheet, as "seat N = VP" hints; none if there are more than ``limit`` of them."""
    if kind == _ANY:
        return []
    finals, _running = _game_moments(len(halves))
    candidates = []
    for sheet in finals:
        diff = [i for i, (a, b) in enumerate(zip(sheet, halves, strict=True)) if a != b]
        if len(diff) == 1:
            seat = diff[0]
            candidates.append((abs(sheet[seat] - halves[seat]), seat, sheet[seat]))
    if not candidates:
        return []
    smallest = min(c[0] for c in candidates)
    fixes = sorted((seat, vp) for delta, seat, vp in candidates if delta == smallest)
    if len(fixes) > limit:
        return []
    return [_("seat %(seat)d = %(vp)s") % {"seat": s + 1, "vp": _fmt_halves(v)} for s, v in fixes]


# ---------------------------------------------------------------------------------------
# Table scores (TR §3.7.1, §3.7.3, §3.7.4; docs/rules-vekn.md "Game Win and Tournament Points")
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatScore:
    """Score of one seat in one game: Game Win (0/1), Tournament Points and table rank
    (1..seats, competition ranking: tied players share the best rank)."""

    gw: int
    tp: int
    rank: int


def score_table(vps: Sequence[Decimal], losses: Sequence[bool] | None = None) -> list[SeatScore]:
    """Game Wins, Tournament Points and table ranks of one table (TR §3.7.1, §3.7.3).

    ``vps``: the *adjusted* VP per seat (after standings adjustments, JG §1.1.3; they may be
    negative), 4 or 5 seats. ``losses[i]`` marks a "Loss" seat (TR §3.1.4, §3.3): it scores
    0 VP whatever ``vps`` says, never a GW, and is ranked last at the table below every
    other player **[choice: TR §3.1.2; docs/rules-vekn.md "Seating"]**; several Loss seats tie for
    the last places.

    GW: at least 2 VP and strictly more than every other player (ties: no GW). TP by table
    position: 60/48/36/24/12, at 4-player tables 60/48/24/12 (3rd is the table bye); tied
    players share the average of the positions they cover (always whole, TR §3.7.4).

    Returns one :class:`SeatScore` per seat, in seat order. Raises ``ValueError`` for a
    table that is not 4 or 5 seats or a ``losses`` of another length.
    """
    seats = len(vps)
    _require_table_size(seats)
    if losses is None:
        losses = (False,) * seats
    elif len(losses) != seats:
        raise ValueError(f"{len(losses)} loss flags for a table of {seats} seats")

    # Sort keys: (is a Loss, -VP); equal keys tie.
    keys = [
        (True, ZERO) if loss else (False, -Decimal(vp))
        for vp, loss in zip(vps, losses, strict=True)
    ]
    points = TP_BY_POSITION[seats]
    tp_by_key: dict[tuple[bool, Decimal], tuple[int, int]] = {}
    position = 0
    for key, group in itertools.groupby(sorted(keys)):
        count = len(list(group))
        covered = points[position : position + count]
        tp_by_key[key] = (sum(covered) // count, position + 1)
        position += count

    # GW: the single best non-Loss seat, if it has at least 2 VP.
    contenders = [key for key in keys if not key[0]]
    best = min(contenders, default=None)
    if best is None or -best[1] < GW_MIN_VP or contenders.count(best) > 1:
        best = None
    return [
        SeatScore(gw=int(key == best), tp=tp_by_key[key][0], rank=tp_by_key[key][1]) for key in keys
    ]


# ---------------------------------------------------------------------------------------
# Standings (TR §3.1, §3.1.6, §3.7.5; docs/rules-vekn.md "Standings", "Final")
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a preliminary table: raw VP (``None`` = not entered yet), the sum of the
    standings adjustments on this game (e.g. ``Decimal(-1)``, JG §1.1.3) and whether the
    seat is a "Loss" (TR §3.1.4, §3.3: 0 VP, ranked last)."""

    player: Hashable
    vp: Decimal | None
    vp_adjustment: Decimal = ZERO
    loss: bool = False


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table of 4 or 5 seats, in seat order (seat 1 first)."""

    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A preliminary round (an extra round replacing the final is preliminary, TR §3.1.6)."""

    number: int
    tables: tuple[TableResult, ...]


@dataclass(frozen=True, slots=True)
class FinalResult:
    """The final (TR §3.1.3, §3.7.5): finalists in seat order, raw VP per seat (``None`` =
    not played yet, or a ``None`` inside = not entered yet) and adjustments per seat."""

    seating: tuple[Hashable, ...]
    vps: tuple[Decimal | None, ...] | None = None
    vp_adjustments: tuple[Decimal, ...] | None = None


@dataclass(frozen=True, slots=True)
class StandingsInput:
    """Everything :func:`compute_standings` needs about one VEKN event.

    - ``players``: every registered player, dropped ones included, in registration order
      (which orders rows that stay tied).
    - ``rounds``: preliminary rounds only.
    - ``toss``: the recorded random toss, best first (docs/contracts.md §1); it orders remaining
      ties that touch the top ``finalists_count`` ranks (TR §3.1).
    - ``disqualified``: removed from the standings entirely (JG §1.1.4); their games still
      count for their opponents.
    - ``unavailable_for_final``: absent or dropped players skipped when choosing finalists.
    - ``finalists_count``: 5 (TR §3.1); ``has_final`` False for an event without final
      (TR §3.1.6); ``final``: the final once seated.
    """

    players: tuple[Hashable, ...]
    rounds: tuple[RoundResult, ...]
    toss: tuple[Hashable, ...] = ()
    disqualified: frozenset = frozenset()
    unavailable_for_final: frozenset = frozenset()
    finalists_count: int = 5
    has_final: bool = True
    final: FinalResult | None = None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in the standings.

    ``rank`` is the competition ranking ("1224") of the event (after the final when it is
    played), ``prelim_rank`` the rank after the preliminaries (after the toss). Preliminary
    totals: ``prelim_gw``, ``prelim_vp`` (adjusted VP, ``Decimal``), ``prelim_tp``,
    ``rounds_played`` (complete tables, Loss seats included). ``final_vp`` is the adjusted
    final VP once entered. ``toss`` is the player's 1-based position in the recorded
    ``toss`` when the toss decided their place, else ``None``.
    """

    rank: int
    prelim_rank: int
    player: Hashable
    prelim_gw: int
    prelim_vp: Decimal
    prelim_tp: int
    rounds_played: int
    finalist: bool
    final_vp: Decimal | None
    winner: bool
    toss: int | None


@dataclass(frozen=True, slots=True)
class Standings:
    """Result of :func:`compute_standings`.

    - ``rows``: ordered best first; disqualified players absent.
    - ``finalists``: best seed first; empty when undetermined (no final, or a toss is
      missing for a tie across the cut).
    - ``toss_required``: tied groups (row order) that the rules break by toss but the
      recorded toss does not order yet; they keep a shared rank meanwhile.
    - ``final_played``: every final VP entered.
    - ``disqualified_totals``: ``(player, prelim GW, prelim VP, rounds played)`` of each
      disqualified player, absent from ``rows`` but still rated (TR Appendix A.2).
    """

    rows: tuple[StandingRow, ...]
    finalists: tuple[Hashable, ...]
    toss_required: tuple[tuple[Hashable, ...], ...]
    final_played: bool
    disqualified_totals: tuple[tuple[Hashable, int, Decimal, int], ...] = ()


@dataclass(slots=True)
class _Totals:
    gw: int = 0
    vp: Decimal = ZERO
    tp: int = 0
    rounds: int = 0


def compute_standings(data: StandingsInput) -> Standings:
    """Standings of a VEKN event (TR §3.1, §3.1.6, §3.7.5; docs/rules-vekn.md "Standings", "Final").

    1. Preliminary totals per player: GW, adjusted VP (``vp + vp_adjustment``; a Loss seat
       is 0 + adjustment) and TP from :func:`score_table` on the adjusted VP. A table with
       a seat whose VP is ``None`` (Loss seats aside) is incomplete and counts for nobody.
    2. Order: GW, then VP, then TP, all descending. Tied groups the rules break by toss —
       those touching ranks 1..``finalists_count``, and with a final also those that decide
       who moves up past unavailable players — are ordered by ``toss``; if a member is
       missing from it, the group is listed in ``toss_required`` and keeps a shared rank.
       Other ties stay shared (competition ranking "1224"), rows in registration order.
    3. Finalists: the first ``finalists_count`` players in that order, skipping
       ``unavailable_for_final``; none without a final, and none while a missing toss
       decides who gets in. Once ``final`` is given, its seating is the finalists
       **[choice: what was played wins over the computation]**, seeded by preliminary order.
    4. Final played: winner = most adjusted final VP, ties to the better seed; rank 1 to the
       winner, 2 to the other finalists, non-finalists from (finalists + 1) in preliminary
       order, ties still shared. Before that, ranks are the preliminary ranks.

    Linear in the number of seats plus a sort of the players. Raises ``ValueError`` for
    inconsistent input: a player seated but not registered, seated twice in a round,
    duplicate registrations, a final for an event without final, or final VP of the wrong
    length.
    """
    index = {player: i for i, player in enumerate(data.players)}
    if len(index) != len(data.players):
        raise ValueError("a player is registered twice")
    totals = {player: _Totals() for player in data.players}
    for rnd in data.rounds:
        _add_round(rnd, totals)

    # 2. Preliminary order, ties, toss.
    cut = data.finalists_count
    toss_position: dict[Hashable, int] = {}
    for position, player in enumerate(data.toss, start=1):
        toss_position.setdefault(player, position)

    def sort_key(player: Hashable) -> tuple[int, Decimal, int]:
        t = totals[player]
        return (-t.gw, -t.vp, -t.tp)

    ranked = sorted(
        (p for p in data.players if p not in data.disqualified),
        key=lambda p: (sort_key(p), index[p]),
    )
    order: list[Hashable] = []
    prelim_rank: dict[Hashable, int] = {}
    toss_of: dict[Hashable, int] = {}
    toss_required: list[tuple[Hashable, ...]] = []
    blocked_cut = False  # a missing toss decides who reaches the final
    available_before = 0
    for _key, members in itertools.groupby(ranked, key=sort_key):
        group = list(members)
        start = len(order) + 1
        available = sum(1 for p in group if p not in data.unavailable_for_final)
        open_slots = cut - available_before if data.has_final else 0
        needs_toss = len(group) > 1 and (start <= cut or (open_slots > 0 and available > 1))
        if needs_toss and all(p in toss_position for p in group):
            group.sort(key=toss_position.__getitem__)
            for offset, player in enumerate(group):
                prelim_rank[player] = start + offset
                toss_of[player] = toss_position[player]
        else:
            if needs_toss:
                toss_required.append(tuple(group))
                blocked_cut |= 0 < open_slots < available
            for player in group:
                prelim_rank[player] = start
        order.extend(group)
        available_before += available

    # 3. Finalists.
    final = data.final
    if not data.has_final:
        if final is not None:
            raise ValueError("a final was given for an event without final")
        finalists: tuple[Hashable, ...] = ()
    elif final is not None:
        for player in final.seating:
            if player not in index:
                raise ValueError(f"finalist {player!r} is not registered")
        seated = set(final.seating)
        finalists = tuple(p for p in order if p in seated)
    elif blocked_cut:
        finalists = ()
    else:
        eligible = (p for p in order if p not in data.unavailable_for_final)
        finalists = tuple(itertools.islice(eligible, cut))

    # 4. Final.
    final_vp, winner, final_played = _final_outcome(final, finalists)
    finalist_set = set(finalists)
    if final_played:
        non_finalists = [p for p in order if p not in finalist_set]
        order = [winner, *(p for p in finalists if p != winner), *non_finalists]
        rank = {p: 2 for p in finalists}
        rank[winner] = 1
        first = len(finalists) + 1
        for position, player in enumerate(non_finalists):
            previous = non_finalists[position - 1] if position else None
            if previous is not None and prelim_rank[previous] == prelim_rank[player]:
                rank[player] = rank[previous]
            else:
                rank[player] = first + position
    else:
        rank = prelim_rank

    rows = tuple(
        StandingRow(
            rank=rank[player],
            prelim_rank=prelim_rank[player],
            player=player,
            prelim_gw=totals[player].gw,
            prelim_vp=totals[player].vp.quantize(_ONE_DIGIT),
            prelim_tp=totals[player].tp,
            rounds_played=totals[player].rounds,
            finalist=player in finalist_set,
            final_vp=final_vp.get(player),
            winner=player == winner and final_played,
            toss=toss_of.get(player),
        )
        for player in order
    )
    return Standings(
        rows=rows,
        finalists=finalists,
        toss_required=tuple(toss_required),
        final_played=final_played,
        disqualified_totals=tuple(
            (p, totals[p].gw, totals[p].vp.quantize(_ONE_DIGIT), totals[p].rounds)
            for p in data.players
            if p in data.disqualified
        ),
    )


def _add_round(rnd: RoundResult, totals: dict[Hashable, _Totals]) -> None:
    """Add the complete tables of one preliminary round to the players' totals."""
    seen: set[Hashable] = set()
    for table in rnd.tables:
        for seat in table.seats:
            if seat.player not in totals:
                raise ValueError(f"round {rnd.number}: {seat.player!r} is not registered")
            if seat.player in seen:
                raise ValueError(f"round {rnd.number}: {seat.player!r} is seated twice")
            seen.add(seat.player)
        if any(seat.vp is None and not seat.loss for seat in table.seats):
            continue  # still being played
        adjusted = [(ZERO if seat.loss else seat.vp) + seat.vp_adjustment for seat in table.seats]
        scores = score_table(adjusted, [seat.loss for seat in table.seats])
        for seat, vp, score in zip(table.seats, adjusted, scores, strict=True):
            t = totals[seat.player]
            t.gw += score.gw
            t.vp += vp
            t.tp += score.tp
            t.rounds += 1


def _final_outcome(
    final: FinalResult | None, finalists: tuple[Hashable, ...]
) -> tuple[dict[Hashable, Decimal], Hashable | None, bool]:
    """(adjusted final VP per finalist entered so far, winner, played?) — TR §3.7.5."""
    if final is None or final.vps is None:
        return {}, None, False
    seats = len(final.seating)
    adjustments = final.vp_adjustments or (ZERO,) * seats
    if len(final.vps) != seats or len(adjustments) != seats:
        raise ValueError("the final needs one VP and one adjustment per seat")
    vps = {
        player: (vp + adjustment).quantize(_ONE_DIGIT)
        for player, vp, adjustment in zip(final.seating, final.vps, adjustments, strict=True)
        if vp is not None and player in finalists
    }
    played = all(vp is not None for vp in final.vps) and bool(finalists)
    if not played:
        return vps, None, False
    seed = {player: i for i, player in enumerate(finalists)}
    winner = max(finalists, key=lambda p: (vps[p], -seed[p]))
    return vps, winner, True


# ---------------------------------------------------------------------------------------
# Final seating ritual (TR §3.1.3; docs/rules-vekn.md "Final")
# ---------------------------------------------------------------------------------------


def ritual_order(finalists: Sequence[Hashable]) -> tuple[Hashable, ...]:
    """Order in which finalists place their card (TR §3.1.3): lowest qualifier first.

    ``finalists`` is best seed first (as :attr:`Standings.finalists`); returns the reverse.
    """
    return tuple(reversed(finalists))


def place_card(row: tuple[Hashable, ...], player: Hashable, position: int) -> tuple[Hashable, ...]:
    """One step of the final seating ritual (TR §3.1.3): ``player`` puts their card at
    index ``position`` of the row — 0 is the left end, ``len(row)`` the right end, anything
    between goes between two cards. The finished row read left to right is the seating.

    Returns the new row. Raises ``ValueError`` if the player's card is already in the row
    or ``position`` is outside ``0..len(row)``.
    """
    if player in row:
        raise ValueError(f"{player!r} has already placed their card")
    if not 0 <= position <= len(row):
        raise ValueError(f"position {position} is outside 0..{len(row)}")
    return (*row[:position], player, *row[position:])
