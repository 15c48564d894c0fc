"""Fixtures of a league: Berger round robin, mirrored second half, matchday deadlines.

Sources: docs/leagues.md "Fixtures and deadlines" (double round robin, circle/Berger method, venues
alternating as far as possible, second half mirrored with venues swapped; initial deadline 7
days, final deadline 3 days after it, both movable by staff), ANFPES T24 §1 and §IV.4
("plazo inicial (usualmente, de siete días) y un plazo fatal (usualmente, de los tres días posteriores)"),
docs/contracts.md §5 (a ``league`` without ``matches`` is generated on import from ``start``, one
matchday per week **[choice]**).

The Berger table is FIDE's (Handbook C.05 Annex 1): with ``n`` numbers (``n`` even; an odd
number of teams gets a phantom number ``n`` meaning "bye"), round 1 pairs 1–n, 2–(n−1), …;
each next round adds ``n/2`` to every number except ``n`` (modulo ``n−1``, values 1…n−1)
and keeps each pairing's orientation, except the pairing of ``n``, which turns round. For
six numbers: ``1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1``.
The first number of a pairing is the home team.

**Venue runs** (the issue's requirement "no team plays more than two home or two away in a
row"): a Berger half alone gives every team at most two in a row, but mirroring it puts
round 1 reversed right after round ``n−1`` and some teams get three. Swapping the last two
rounds of the first half (and mirroring the swapped half) fixes it: with ``legs=2`` the
longest run of home or of away matches is 2 for every team count from 5 to 40 (checked in
``tests/leagues/rules/test_fixtures.py``; byes skipped, i.e. a bye neither breaks nor
extends a run), 1 for 2 teams and 2 for 3 teams. With 4 teams no mirrored double round
robin can do it: the tests try all of them and the best has a run of 3. Runs only count
played matches: ``H bye H`` is a run of 2. The price is alternation: for 16 teams, 54
"breaks" (two consecutive matches at the same venue) instead of the plain Berger's 42.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from leagues.rules.errors import LeagueRuleError
from leagues.rules.season import Match

__all__ = [
    "DEADLINE_TIME",
    "EVERY_DAYS",
    "FINAL_DAYS",
    "INITIAL_DAYS",
    "DeadlineOverride",
    "Deadlines",
    "Matchday",
    "Pairing",
    "berger_rounds",
    "effective_deadlines",
    "generate_matches",
    "longest_venue_run",
    "matchday_deadlines",
    "round_robin",
    "venue_pattern",
]

INITIAL_DAYS = 7
"""Days from a matchday's start to its initial deadline (docs/leagues.md "Fixtures and deadlines",
ANFPES T24 §IV.4)."""

FINAL_DAYS = 3
"""Days from the initial to the final deadline (docs/leagues.md "Fixtures and deadlines", ANFPES T24
§IV.4)."""

EVERY_DAYS = 7
"""Days between the starts of consecutive matchdays: one matchday per week (docs/contracts.md §5
**[choice]**)."""

DEADLINE_TIME = time(23, 59)
"""Local time of day of every generated deadline, in the league's time zone. **[choice]**:
the rules give days only; docs/contracts.md §5's example deadlines are at 23:59 (-03:00)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One fixture of a generated schedule: ``home`` receives ``away`` on matchday ``round``."""

    round: int
    home: Hashable
    away: Hashable


@dataclass(frozen=True, slots=True)
class Matchday:
    """A matchday (``number`` 1-based) with its fixtures in board order and the team that
    rests (``bye``; ``None`` with an even number of teams)."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: Hashable | None = None


def berger_rounds(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """FIDE Berger table for ``n`` numbers (``n`` even, ``>= 2``): ``n − 1`` rounds, each a
    tuple of ``n/2`` ``(home, away)`` pairs of 1-based numbers (the circle/Berger method,
    docs/leagues.md "Import and export a season"). Raises :class:`LeagueRuleError` for an odd or too
    small ``n``.
    """
    if n < 2 or n % 2:
        raise LeagueRuleError(f"a Berger table needs an even number of at least 2, not {n}")
    modulus = n - 1

    def shift(number: int) -> int:
        return n if number == n else (number - 1 + n // 2) % modulus + 1

    current = tuple((i, n + 1 - i) for i in range(1, n // 2 + 1))
    rounds = [current]
    for _ in range(n - 2):
        current = tuple(
            (shift(b), shift(a)) if n in (a, b) else (shift(a), shift(b)) for a, b in current
        )
        rounds.append(current)
    return tuple(rounds)


def round_robin(
    teams: Sequence[Hashable], legs: int = 2, *, swap_last_two: bool = True
) -> tuple[Matchday, ...]:
    """The matchdays of a round robin of ``teams`` played ``legs`` times.

    ``teams[i]`` takes Berger number ``i + 1``; an odd count adds a phantom last number and
    the team drawn against it has a bye. With ``swap_last_two`` (the default, as the issue
    asks) the last two rounds of the first half are swapped. Every even-numbered leg is the
    first half with venues swapped, in the same order (docs/leagues.md "Import and export a season":
    the second half mirrors the first); odd legs repeat the first half. So ``legs=2`` gives
    ``2(n−1)`` matchdays for ``n`` teams (30 for 16), each pair meeting once at each venue.

    Returns ``legs × (n−1)`` :class:`Matchday` (``n`` rounded up to even), numbered from 1.
    Raises :class:`LeagueRuleError` for fewer than 2 teams, a repeated team or ``legs < 1``.
    """
    teams = list(teams)
    if len(teams) < 2:
        raise LeagueRuleError("a round robin needs at least 2 teams")
    if len(set(teams)) != len(teams):
        raise LeagueRuleError("a team is listed twice")
    if any(team is None for team in teams):
        raise LeagueRuleError("None is not a team (it means a bye)")
    if legs < 1:
        raise LeagueRuleError("legs must be at least 1")
    size = len(teams) + len(teams) % 2
    numbered: dict[int, Hashable | None] = {i + 1: team for i, team in enumerate(teams)}
    numbered.setdefault(size, None)  # phantom: "bye"
    half = list(berger_rounds(size))
    if swap_last_two and len(half) >= 2:
        half[-2], half[-1] = half[-1], half[-2]
    matchdays = []
    for leg in range(legs):
        mirrored = leg % 2 == 1
        for pairs in half:
            number = len(matchdays) + 1
            pairings, bye = [], None
            for a, b in pairs:
                home, away = (numbered[b], numbered[a]) if mirrored else (numbered[a], numbered[b])
                if home is None or away is None:
                    bye = away if home is None else home
                    continue
                pairings.append(Pairing(number, home, away))
            matchdays.append(Matchday(number, tuple(pairings), bye))
    return tuple(matchdays)


def venue_pattern(matchdays: Sequence[Matchday], team: Hashable) -> str:
    """``team``'s venues matchday by matchday: ``H`` home, ``A`` away, ``-`` bye or not
    playing; e.g. ``"HAHHA-A"``."""
    letters = []
    for matchday in matchdays:
        letter = "-"
        for pairing in matchday.pairings:
            if pairing.home == team:
                letter = "H"
            elif pairing.away == team:
                letter = "A"
        letters.append(letter)
    return "".join(letters)


def longest_venue_run(matchdays: Sequence[Matchday], team: Hashable | None = None) -> int:
    """Longest run of consecutive home (or of away) matches of ``team``, or of the worst
    team when ``team`` is ``None``. Byes are skipped: they neither break nor extend a run
    **[choice: the stricter reading of "in a row"]**. ``0`` if the team never plays."""
    if team is None:
        teams = {p.home for m in matchdays for p in m.pairings}
        teams |= {p.away for m in matchdays for p in m.pairings}
        return max((longest_venue_run(matchdays, t) for t in teams), default=0)
    played = venue_pattern(matchdays, team).replace("-", "")
    best = run = 0
    for index, letter in enumerate(played):
        run = run + 1 if index and played[index - 1] == letter else 1
        best = max(best, run)
    return best


# ---------------------------------------------------------------------------------------
# Deadlines (docs/leagues.md "Fixtures and deadlines", ANFPES T24 §IV.4)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deadlines:
    """A matchday's (or a fixture's) deadlines: timezone-aware ``datetime`` values with
    ``final >= initial``. A result posted up to ``initial`` is on time, up to ``final``
    late but within the "plazo fatal" (ANFPES T24 §IV; docs/leagues.md "Compliance table")."""

    initial: datetime
    final: datetime

    def __post_init__(self):
        for name in ("initial", "final"):
            value = getattr(self, name)
            if value.tzinfo is None or value.utcoffset() is None:
                raise LeagueRuleError(f"the {name} deadline needs a time zone")
        if self.final < self.initial:
            raise LeagueRuleError("the final deadline cannot be before the initial deadline")


@dataclass(frozen=True, slots=True)
class DeadlineOverride:
    """Deadlines moved by staff for a matchday or a fixture (docs/leagues.md
    "Staff and tribunal pages": staff can move both, ANFPES T24 §IV.4 ¶3). ``None`` keeps the
    deadline below it."""

    initial: datetime | None = None
    final: datetime | None = None


def matchday_deadlines(
    start: date,
    matchdays: int,
    tz: tzinfo,
    *,
    every_days: int = EVERY_DAYS,
    initial_days: int = INITIAL_DAYS,
    final_days: int = FINAL_DAYS,
    at: time = DEADLINE_TIME,
) -> tuple[Deadlines, ...]:
    """Default deadlines of matchdays ``1..matchdays`` when matchday 1 starts on ``start``.

    Matchday ``k`` starts on ``start + (k−1)·every_days``; its initial deadline is
    ``initial_days`` later and its final deadline ``final_days`` after that, both at local
    time ``at`` in ``tz`` (a ``zoneinfo.ZoneInfo`` follows daylight saving: the offset of
    each deadline is the one in force on its date; a wall time repeated or skipped by a
    clock change gives the later instant, see :func:`_local`). Defaults: docs/leagues.md
    "Fixtures and deadlines" / ANFPES T24 §IV.4 (7 and 3 days), one matchday per week and 23:59
    **[choices]**. Example: start 2026-03-01 in Chile → matchday 1: 2026-03-08 23:59-03:00 and
    2026-03-11 23:59-03:00.
    """
    if matchdays < 0 or every_days < 0 or initial_days < 0 or final_days < 0:
        raise LeagueRuleError("matchdays and day counts cannot be negative")
    if tz is None:
        raise LeagueRuleError("deadlines need the league's time zone")
    result = []
    for k in range(matchdays):
        initial_day = start + timedelta(days=k * every_days + initial_days)
        final_day = initial_day + timedelta(days=final_days)
        result.append(Deadlines(_local(initial_day, at, tz), _local(final_day, at, tz)))
    return tuple(result)


def _local(day: date, at: time, tz: tzinfo) -> datetime:
    """``day`` at local time ``at`` in ``tz``; when a daylight-saving change makes that
    wall time happen twice, the later instant, and when it skips it, the instant the clock
    jumps past it (the deadline never comes early) **[choice]**."""
    readings = [datetime.combine(day, at, tzinfo=tz).replace(fold=fold) for fold in (0, 1)]
    return max(reading.astimezone(UTC) for reading in readings).astimezone(tz)


def effective_deadlines(
    default: Deadlines,
    *,
    matchday: DeadlineOverride | None = None,
    fixture: DeadlineOverride | None = None,
) -> Deadlines:
    """A fixture's deadlines: the fixture's override, else the matchday's override, else
    the default, each deadline separately (docs/leagues.md "Fixtures and deadlines": staff move them
    per matchday or per fixture). Moving only the initial deadline does not move the final one
    **[choice]**; raises :class:`LeagueRuleError` if the result has final < initial."""
    initial, final = default.initial, default.final
    for override in (matchday, fixture):
        if override is not None:
            initial = override.initial or initial
            final = override.final or final
    return Deadlines(initial, final)


def generate_matches(
    teams: Sequence[str],
    legs: int = 2,
    *,
    start: date | None = None,
    tz: tzinfo | None = None,
    id_prefix: str = "m",
) -> tuple[Match, ...]:
    """The scheduled :class:`~leagues.rules.season.Match` list of a ``league`` competition
    given without matches (docs/contracts.md §5): :func:`round_robin` order, ids ``m1, m2, …`` and,
    when ``start`` is given, the deadlines of :func:`matchday_deadlines` in ``tz``.
    Raises :class:`LeagueRuleError` when ``start`` is given without ``tz``."""
    if start is not None and tz is None:
        raise LeagueRuleError("deadlines need the league's time zone")
    matchdays = round_robin(teams, legs)
    deadlines = matchday_deadlines(start, len(matchdays), tz) if start is not None else None
    matches = []
    for matchday in matchdays:
        for pairing in matchday.pairings:
            due = deadlines[matchday.number - 1] if deadlines else None
            matches.append(
                Match(
                    id=f"{id_prefix}{len(matches) + 1}",
                    round=matchday.number,
                    home=pairing.home,
                    away=pairing.away,
                    initial_deadline=due.initial if due else None,
                    final_deadline=due.final if due else None,
                )
            )
    return tuple(matches)
