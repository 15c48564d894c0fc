"""Two-legged ties ("llaves de ida y vuelta") and their third match.

Sources: ANFPES T24 §1.1.2 (the winner is whoever ends the tie with a favourable
difference on the aggregate score; level "tanto en puntos como en diferencia de goles" →
a single match straight away, with extra time and penalties), §1.1.5 (the Primera A final
likewise), §1.2.3 (Liguilla), §1.3.2 and §1.3.4 (promotion playoffs and zones), §2.2 (cup
final phases, and the home side of a cup third match), §V ¶3 (the Primera A final: home is
the better-placed team of the regular phase); docs/leagues-final-phases.md "Primera A", "Primera B",
"Champagne League and Conference Lag"; docs/contracts.md §5 (``tie``, ``leg`` 1|2|3, ``extra_time``,
``penalties``) and §6 (bracket: ``legs``, ``aggregate``, ``third_match_required``, ``winner``).

Rules as implemented (**[choice]** where the text is silent):

- **No away goals**: the text knows only the aggregate. "Level in points and in goal
  difference" (§1.1.2) is the same as a level aggregate over two legs (a level aggregate
  means two draws or one win each by the same margin: the points are level too), so only
  the aggregate is computed.
- A level aggregate → ``third_match_required``; the third match is ``leg`` 3 (docs/contracts.md §5).
  Its winner: the score, else extra time, else the penalty shoot-out. ``extra_time`` of a
  match is ``None``/``False`` (not played), ``True`` (played; the reported score is the
  score after it) or a ``(home, away)`` pair of goals scored in extra time. Both readings
  of a reported score (with or without the extra-time goals) give the same winner, because
  extra time is only played from a level score **[choice: either is accepted]**.
- Legs 1–2 never have extra time or penalties (§1.1.2 sends a level tie to a third match):
  if given they are ignored and reported in ``problems``.
- Which matches count: ``played`` and ``walkover`` legs; ``scheduled`` legs are pending;
  ``void`` legs are ignored (a replayed leg is a ``void`` match plus its replay, so a leg
  number may appear more than once if at most one copy is not ``void``). With
  ``require_stream`` (league final phases, §1.4 ¶5) a played leg without a stream link is a
  friendly: ignored and reported in ``problems`` (:func:`leagues.rules.match_rules.counts`).
- A walkover leg counts with its score, or 1–0 for the team that showed up
  (§III.1 by analogy; in a knockout the tribunal sets the result, §III.2, and can enter
  any score or award the tie: ``awarded_to``). Both absent without a score: the leg does
  not count until the tribunal sets a result (reported in ``problems``).
- Home side of the third match: the better-ranked team of ``rank`` (a mapping team → a
  sortable key, lower is better). Leagues: the better regular-phase position (§V ¶3 says it
  for the Primera A final; we apply it to every league final-phase tie; in the Liguilla a
  Primera A team ranks above any Primera B team) — :mod:`leagues.rules.brackets` builds the
  keys. Cups (§2.2): the better cup position — 1st over 2nd, 3rd over 4th, and between
  equal group positions the one with more group points (then goal difference, goals for,
  wins, fewest no-shows, as the cross-group ranking, :mod:`leagues.rules.cups`). Equal
  keys or no ``rank`` → ``None`` (staff choose, ``third_match_home``).
- Legs 1–2 venues: **[choice]** the better-ranked team hosts the second leg
  (:func:`leg_hosts`); the state accepts any venues as long as the two teams are the tie's.
- ``legs=1`` (a single-match tie, e.g. a decider): level after the match → extra time and
  penalties in that same match; there is no third match.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from leagues.rules.errors import LeagueRuleError
from leagues.rules.match_rules import has_stream

__all__ = [
    "DECIDED_BY",
    "STATUSES",
    "LegResult",
    "TieState",
    "better_ranked",
    "leg_hosts",
    "match_winner",
    "tie_state",
]

STATUSES = ("not_started", "in_progress", "third_match_required", "decided")
"""``TieState.status`` codes (stable)."""

DECIDED_BY = {
    "aggregate": "Aggregate score of the two legs (ANFPES T24 §1.1.2).",
    "score": "Score of the single match.",
    "third_match": "Score of the third match (ANFPES T24 §1.1.2).",
    "extra_time": "Extra time of the deciding match (ANFPES T24 §1.1.2).",
    "penalties": "Penalty shoot-out of the deciding match (ANFPES T24 §1.1.2).",
    "tribunal": "Awarded by the tribunal (ANFPES T24 §III.2).",
}
"""``TieState.decided_by`` codes (stable) → description."""


@dataclass(frozen=True, slots=True)
class LegResult:
    """One leg as the bracket shows it (docs/contracts.md §6 ``legs``).

    ``home_goals``/``away_goals``: the counted score (``None`` while unplayed);
    ``extra_time``: goals in extra time ``(home, away)`` when given as a pair, ``True`` if
    played without a separate score, else ``None``; ``penalties``: ``(home, away)`` or
    ``None``; ``counted``: whether it counts for the tie.
    """

    leg: int
    match: str
    home: Hashable
    away: Hashable
    home_goals: int | None
    away_goals: int | None
    status: str
    counted: bool
    extra_time: tuple[int, int] | bool | None = None
    penalties: tuple[int, int] | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "leg": self.leg,
            "match": self.match,
            "home": self.home,
            "away": self.away,
            "home_goals": self.home_goals,
            "away_goals": self.away_goals,
            "extra_time": list(self.extra_time)
            if isinstance(self.extra_time, tuple)
            else self.extra_time,
            "penalties": list(self.penalties) if self.penalties else None,
            "status": self.status,
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class TieState:
    """The state of a tie (docs/contracts.md §6 bracket fields).

    - ``teams``: the two teams (the expected pair when given, else leg 1's home first).
    - ``legs``: :class:`LegResult` in leg order (void and friendly legs included, not
      counted); ``legs_required``: 1 or 2.
    - ``aggregate``: team → goals over the counted legs 1–2 (a running total while the
      tie is in progress; ``{}`` before any leg).
    - ``third_match_required``: both legs counted and the aggregate level.
    - ``third_match_home``/``third_match_away``: who hosts the third match (``None`` when
      ``rank`` cannot tell and staff did not choose).
    - ``winner``/``loser``: ``None`` while undecided; ``decided_by``: a :data:`DECIDED_BY`
      code; ``status``: a :data:`STATUSES` code.
    - ``problems``: non-fatal issues for staff (a friendly leg, extra time in leg 1, a
      third match at the wrong venue, a level third match without penalties …).
    """

    tie: str | None
    teams: tuple[Hashable, Hashable] | None
    legs: tuple[LegResult, ...]
    legs_required: int
    aggregate: Mapping[Hashable, int]
    third_match_required: bool
    third_match_home: Hashable | None
    third_match_away: Hashable | None
    winner: Hashable | None
    loser: Hashable | None
    decided_by: str | None
    status: str
    problems: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """docs/contracts.md §6 bracket tie fields (plus ``status``, ``decided_by`` …)."""
        return {
            "tie": self.tie,
            "teams": list(self.teams) if self.teams else None,
            "legs": [leg.as_dict() for leg in self.legs],
            "legs_required": self.legs_required,
            "aggregate": dict(self.aggregate),
            "third_match_required": self.third_match_required,
            "third_match_home": self.third_match_home,
            "winner": self.winner,
            "loser": self.loser,
            "decided_by": self.decided_by,
            "status": self.status,
            "problems": list(self.problems),
        }


def better_ranked(a: Hashable, b: Hashable, rank: Mapping[Hashable, Any] | None) -> Hashable | None:
    """The better-ranked of ``a`` and ``b`` (lower ``rank`` key), ``None`` if either is
    missing from ``rank`` or their keys are equal."""
    if not rank or a not in rank or b not in rank or rank[a] == rank[b]:
        return None
    return a if rank[a] < rank[b] else b


def leg_hosts(
    a: Hashable, b: Hashable, rank: Mapping[Hashable, Any] | None
) -> tuple[Hashable, Hashable] | None:
    """``(leg 1 home, leg 2 home)``: the better-ranked team hosts the second leg
    **[choice]**; ``None`` when ``rank`` cannot tell."""
    better = better_ranked(a, b, rank)
    if better is None:
        return None
    return (b, a) if better == a else (a, b)


def _extra_time(match: Any) -> tuple[int, int] | bool | None:
    value = getattr(match, "extra_time", None)
    if value is None or value is False:
        return None
    if value is True:
        return True
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        return (value[0], value[1])
    raise LeagueRuleError(f"match {match.id}: extra_time must be None, a bool or a pair")


def match_winner(match: Any) -> tuple[Hashable | None, str | None]:
    """Winner of a single deciding match (a third match, or a one-leg tie):
    ``(team, how)`` with ``how`` ``"score"``, ``"extra_time"`` or ``"penalties"``; the
    score plus the extra-time goals decide, then the shoot-out (module docstring).
    ``(None, None)`` when unplayed or level without a shoot-out. Raises
    :class:`LeagueRuleError` for a level shoot-out."""
    if match.home_goals is None or match.away_goals is None:
        if match.status == "walkover" and match.absent in ("home", "away"):
            team = match.away if match.absent == "home" else match.home
            return team, "score"
        return None, None
    extra = _extra_time(match)
    home, away = match.home_goals, match.away_goals
    if home != away:
        return (match.home if home > away else match.away), ("extra_time" if extra else "score")
    if isinstance(extra, tuple) and extra[0] != extra[1]:
        return (match.home if extra[0] > extra[1] else match.away), "extra_time"
    if match.penalties is None:
        return None, None
    if match.penalties[0] == match.penalties[1]:
        raise LeagueRuleError(f"match {match.id}: a penalty shoot-out cannot end level")
    return (match.home if match.penalties[0] > match.penalties[1] else match.away), "penalties"


def _counted_score(match: Any) -> tuple[int, int] | None:
    if match.home_goals is not None and match.away_goals is not None:
        return match.home_goals, match.away_goals
    if match.status == "walkover" and match.absent in ("home", "away"):
        return (0, 1) if match.absent == "home" else (1, 0)
    return None


def tie_state(
    matches: Iterable[Any],
    *,
    teams: tuple[Hashable, Hashable] | None = None,
    legs: int = 2,
    rank: Mapping[Hashable, Any] | None = None,
    third_match_home: Hashable | None = None,
    require_stream: bool = False,
    awarded_to: Hashable | None = None,
    tie: str | None = None,
) -> TieState:
    """The state of one tie from its matches (module docstring for the rules).

    - ``matches``: :class:`~leagues.rules.season.Match` objects (or alike) of this tie,
      any order, with ``leg`` 1, 2 or 3 (``None`` is read as 1 for a one-leg tie).
    - ``teams``: the tie's two teams when the bracket knows them (every match must be
      between them); otherwise taken from the matches.
    - ``legs``: 2 (home and away, the ANFPES default) or 1.
    - ``rank``: team → sortable key, lower is better, for the third match's home side.
    - ``third_match_home``: staff's choice, overriding ``rank``.
    - ``require_stream``: league final phase — played legs without a stream link are
      friendlies (ANFPES T24 §1.4 ¶5).
    - ``awarded_to``: the tribunal awarded the tie (§III.2).

    Returns a :class:`TieState`. Raises :class:`LeagueRuleError` for matches of other teams,
    a leg number other than 1–3 (or 3 in a one-leg tie), two non-void copies of one leg, or
    a level shoot-out. A third match entered while none is required does not count (it is
    reported in ``problems``).
    """
    if legs not in (1, 2):
        raise LeagueRuleError("a tie has 1 or 2 legs")
    matches = list(matches)
    where = f"tie {tie}" if tie else "tie"
    problems: list[str] = []
    if teams is None and matches:
        first = min(matches, key=lambda m: m.leg or 1)
        teams = (first.home, first.away)
    if teams is not None:
        teams = (teams[0], teams[1])
        if teams[0] == teams[1]:
            raise LeagueRuleError(f"{where}: a team cannot play itself")
    for key, value in (("awarded_to", awarded_to), ("third_match_home", third_match_home)):
        if value is not None and (teams is None or value not in teams):
            raise LeagueRuleError(f"{where}: {key} must be one of the tie's teams")
    errors = []
    by_leg: dict[int, Any] = {}
    results: list[LegResult] = []
    for match in sorted(matches, key=lambda m: (m.leg or 1, m.status != "void")):
        leg = match.leg or 1
        if leg not in (1, 2, 3) or (legs == 1 and leg == 2):
            errors.append(f"{where}, match {match.id}: leg must be 1–{legs} or 3")
            continue
        if legs == 1 and leg == 3:
            errors.append(f"{where}, match {match.id}: a one-leg tie has no third match")
            continue
        if {match.home, match.away} != set(teams):
            errors.append(f"{where}, match {match.id}: must be {teams[0]} v {teams[1]}")
            continue
        counted = match.status in ("played", "walkover")
        score = _counted_score(match) if counted else None
        if counted and score is None:
            problems.append(
                f"match {match.id}: walkover with both absent — the tribunal must set a result"
            )
            counted = False
        if counted and require_stream and match.status == "played" and not has_stream(match):
            problems.append(
                f"match {match.id}: no stream link — a friendly, it does not count "
                "(ANFPES T24 §1.4)"
            )
            counted = False
        extra = _extra_time(match)
        penalties = match.penalties
        if (extra or penalties) and legs == 2 and leg in (1, 2):
            problems.append(
                f"match {match.id}: extra time and penalties belong to the third match "
                "only (ANFPES T24 §1.1.2); ignored"
            )
            extra, penalties = None, None
        if match.status != "void":
            if leg in by_leg:
                errors.append(f"{where}: leg {leg} is entered twice (void the replaced one)")
                continue
            by_leg[leg] = match if counted else None
        results.append(
            LegResult(
                leg=leg,
                match=match.id,
                home=match.home,
                away=match.away,
                home_goals=score[0] if score else None,
                away_goals=score[1] if score else None,
                status=match.status,
                counted=counted,
                extra_time=extra,
                penalties=penalties,
            )
        )
    if errors:
        raise LeagueRuleError(errors)

    aggregate: dict[Hashable, int] = {}
    if teams is not None and any(by_leg.get(leg) for leg in (1, 2)):
        aggregate = dict.fromkeys(teams, 0)
        for leg in (1, 2):
            match = by_leg.get(leg)
            if match is not None and legs == 2:
                home, away = _counted_score(match)
                aggregate[match.home] += home
                aggregate[match.away] += away

    winner = decided_by = None
    third_required = False
    home_3 = away_3 = None
    if legs == 1:
        match = by_leg.get(1)
        if match is not None:
            aggregate = dict.fromkeys(teams, 0)
            home, away = _counted_score(match)
            aggregate[match.home] += home
            aggregate[match.away] += away
            winner, how = match_winner(match)
            decided_by = how
            if winner is None:
                problems.append(f"match {match.id}: level — enter extra time and penalties")
    elif by_leg.get(1) and by_leg.get(2):
        a, b = teams
        if aggregate[a] != aggregate[b]:
            winner = a if aggregate[a] > aggregate[b] else b
            decided_by = "aggregate"
        else:
            third_required = True
            home_3 = third_match_home or better_ranked(a, b, rank)
            if home_3 is not None:
                away_3 = b if home_3 == a else a
            third = by_leg.get(3)
            if third is not None:
                if home_3 is not None and third.home != home_3:
                    problems.append(
                        f"match {third.id}: the third match should be hosted by {home_3}"
                    )
                winner, how = match_winner(third)
                decided_by = {"score": "third_match"}.get(how, how)
                if winner is None:
                    problems.append(
                        f"match {third.id}: level after extra time — enter the penalty shoot-out"
                    )
    if by_leg.get(3) is not None and not third_required:
        problems.append(
            f"match {by_leg[3].id}: a third match is only played after a level aggregate; "
            "it does not count"
        )
    if awarded_to is not None:
        winner, decided_by = awarded_to, "tribunal"
    loser = None
    if winner is not None:
        loser = teams[1] if winner == teams[0] else teams[0]
        status = "decided"
    elif third_required:
        status = "third_match_required"
    elif any(by_leg.values()):
        status = "in_progress"
    else:
        status = "not_started"
    return TieState(
        tie=tie,
        teams=teams,
        legs=tuple(results),
        legs_required=legs,
        aggregate=aggregate,
        third_match_required=third_required,
        third_match_home=home_3,
        third_match_away=away_3,
        winner=winner,
        loser=loser,
        decided_by=decided_by,
        status=status,
        problems=tuple(problems),
    )
