"""League table: 3/1/0 points, walkovers, the points ledger and ordered tie-breaker codes.

Sources: docs/leagues.md "Tables"; ANFPES T24 §1.2.1 (order: points, goal difference, goals for,
wins, fewest no-shows), §1.3.1 (Primera B title tie → a decider match), §III.1–§III.2
(walkover and refusal: 1–0 and three points off the absent team's total); docs/contracts.md §6
(the table document and its field names, stable).

Semantics (**[choice]** where the rules are silent):

- ``played`` and ``walkover`` matches count; ``scheduled`` and ``void`` (annulled) do not.
  Extra time and penalties are ignored (knockout only).
- A walkover with one side absent counts as the score given, or 1–0 for the team that
  showed up when no score is given (ANFPES T24 §III.1); the absent team gets a
  ``no_shows`` (the "partidos no presentados" of §1.2.1). A refusal to play (§III.2) is
  recorded as a walkover with the refusing side absent, so it is a no-show too
  **[choice]**. Both absent (§III.1): the tribunal's score if given, else a loss for both
  with no goals **[choice]**; a no-show for both.
- The three points off the absent team (§III.1) are **not** deducted by the table: they
  are an entry of the points ledger (``Adjustment(team, -3, "walkover m7")``, the form of
  docs/contracts.md §5's example), so that every deduction is visible with its reason, tribunal
  decisions for both-absent walkovers are free ledger entries, and a season file
  round-trips without double counting. :func:`walkover_adjustments` gives the entries the
  ledger must hold, :func:`missing_walkover_adjustments` checks a ledger.
- Abandonment (§III.4): :func:`abandonment` annuls the team's remaining fixtures or turns
  them into walkovers with their ledger entries, as staff choose **[choice]**.
- ``points`` = win·W + draw·D + loss·L + Σ ledger (3/1/0 **[choice: the usual scale]**).
- Tie-breaker codes (:data:`TIE_BREAKERS`) are applied in the configured order; ``points``
  must come first. Head-to-head codes compute a mini-table of the matches among the teams
  still tied at that point; when a head-to-head code splits a group but leaves some of it
  tied, the head-to-head codes are re-applied, from the first one of their run, to the
  matches among those teams only (UEFA's re-application) before the next code.
- After the configured codes comes ``decision``: the order staff set (``decisions``,
  docs/leagues.md "Tables": then a staff decision **[choice]**). Teams still tied after it are an
  unresolved tie; they are listed in the input order and reported in
  ``unresolved_ties``, never silently broken — once anything counts (before the first
  result every team is level and nothing is reported). Positions are always 1…n.
- Primera B (``title_decider=True``): a tie on points for 1st once the phase is closed is
  settled only by a decider match (§1.3.1: the decider "determinará al campeón"): the
  first team of the group in ``decisions`` (the decider's winner) is 1st, and until it is
  entered the whole group is an unresolved tie with reason ``title_decider``. Only the
  title is at stake in the decider: the other teams of the group keep the places the
  normal codes give them (then ``decision``), whatever order the decision lists them in
  **[choice]** — 2nd and 3rd seed the promotion playoffs. While the phase is open the
  group is ordered provisionally by the normal codes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from leagues.rules.errors import LeagueRuleError
from leagues.rules.season import ABSENT_VALUES, MATCH_STATUSES, Adjustment

__all__ = [
    "ANFPES_TIE_BREAKERS",
    "DECISION",
    "HEAD_TO_HEAD_CODES",
    "PRIMERA_A",
    "PRIMERA_B",
    "TIE_BREAKERS",
    "UNRESOLVED_REASONS",
    "LeagueTable",
    "TableConfig",
    "TableRow",
    "UnresolvedTie",
    "abandonment",
    "compute_table",
    "counted_score",
    "missing_walkover_adjustments",
    "walkover_adjustments",
]

TIE_BREAKERS = {
    "points": "Points (3 a win, 1 a draw, plus the ledger).",
    "goal_difference": "Goal difference.",
    "goals_for": "Goals scored.",
    "won": "Matches won.",
    "fewest_no_shows": "Fewest walkovers as the absent team.",
    "head_to_head": "Points in the matches among the tied teams.",
    "head_to_head_goal_difference": "Goal difference in the matches among the tied teams.",
    "head_to_head_goals_for": "Goals scored in the matches among the tied teams.",
}
"""Stable tie-breaker codes (docs/contracts.md §6; docs/architecture.md "Rules of the house") →
description. The first five are ANFPES's; the head-to-head ones let a league use them (issue 4)."""

HEAD_TO_HEAD_CODES = frozenset(
    {"head_to_head", "head_to_head_goal_difference", "head_to_head_goals_for"}
)
"""Codes computed on the mini-table of the still-tied teams (re-applied to subsets)."""

DECISION = "decision"
"""The implicit last criterion: the order set by staff or by a decider match."""

ANFPES_TIE_BREAKERS = ("points", "goal_difference", "goals_for", "won", "fewest_no_shows")
"""ANFPES T24 §1.2.1 / docs/leagues.md "Tables", and docs/contracts.md §6's example, in this
order."""

UNRESOLVED_REASONS = {
    "title_decider": "Tie on points for 1st in Primera B: a decider match is required "
    "(ANFPES T24 §1.3.1).",
    "decision_required": "Every tie-breaker is equal: staff must decide the order.",
}
"""Why a tie is unresolved (stable codes)."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A competition's table rules (a preset copies one and may override it).

    - ``tie_breakers``: codes of :data:`TIE_BREAKERS`, ``points`` first, no repeats.
    - ``win``/``draw``/``loss``: points per result (docs/leagues.md "Tables": 3/1/0 **[choice]**).
    - ``title_decider``: a points tie for 1st needs a decider match (ANFPES T24 §1.3.1,
      Primera B).

    Raises :class:`LeagueRuleError` for an unknown, repeated or misplaced code.
    """

    tie_breakers: tuple[str, ...] = ANFPES_TIE_BREAKERS
    win: int = 3
    draw: int = 1
    loss: int = 0
    title_decider: bool = False

    def __post_init__(self):
        codes = tuple(self.tie_breakers)
        object.__setattr__(self, "tie_breakers", codes)
        unknown = [code for code in codes if code not in TIE_BREAKERS]
        if unknown:
            raise LeagueRuleError(f"unknown tie-breaker code(s): {', '.join(unknown)}")
        if len(set(codes)) != len(codes):
            raise LeagueRuleError("a tie-breaker code is repeated")
        if not codes or codes[0] != "points":
            raise LeagueRuleError("the tie-breakers must start with points")


PRIMERA_A = TableConfig()
"""ANFPES T24 Primera A: §1.2.1 order, 3/1/0."""

PRIMERA_B = TableConfig(title_decider=True)
"""ANFPES T24 Primera B: as Primera A, and a points tie for the title needs a decider
match (§1.3.1)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One team's line (docs/contracts.md §6 field names; integers).

    ``goal_difference = goals_for − goals_against``; ``adjustments`` is the ledger's sum
    (included in ``points``); ``no_shows`` counts walkovers with this team absent.
    ``separated_by``: the code that placed this team above the next row (``points``,
    ``goal_difference``, …, ``decision``), ``None`` for the last row and inside an
    unresolved tie.
    """

    position: int
    team: Hashable
    played: int
    won: int
    drawn: int
    lost: int
    goals_for: int
    goals_against: int
    goal_difference: int
    points: int
    adjustments: int
    no_shows: int
    separated_by: str | None

    def as_dict(self) -> dict[str, Any]:
        """The row as in docs/contracts.md §6, plus ``separated_by`` (an added optional field)."""
        return {
            "position": self.position,
            "team": self.team,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "goals_for": self.goals_for,
            "goals_against": self.goals_against,
            "goal_difference": self.goal_difference,
            "points": self.points,
            "adjustments": self.adjustments,
            "no_shows": self.no_shows,
            "separated_by": self.separated_by,
        }


@dataclass(frozen=True, slots=True)
class UnresolvedTie:
    """Teams (in table order, at ``positions``) that only a decision can separate;
    ``reason`` is a code of :data:`UNRESOLVED_REASONS`."""

    teams: tuple[Hashable, ...]
    positions: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class LeagueTable:
    """Result of :func:`compute_table`.

    ``complete``: the phase is closed (no match left to play), as given or inferred.
    """

    tie_breakers: tuple[str, ...]
    rows: tuple[TableRow, ...]
    unresolved: tuple[UnresolvedTie, ...]
    complete: bool

    @property
    def unresolved_ties(self) -> tuple[tuple[Hashable, ...], ...]:
        """docs/contracts.md §6 ``unresolved_ties``: the teams of each unresolved tie."""
        return tuple(tie.teams for tie in self.unresolved)

    @property
    def order(self) -> tuple[Hashable, ...]:
        """Team ids, 1st first."""
        return tuple(row.team for row in self.rows)

    def row(self, team: Hashable) -> TableRow:
        """The row of ``team``; ``KeyError`` if it is not in the table."""
        for row in self.rows:
            if row.team == team:
                return row
        raise KeyError(team)

    def as_dict(self, competition: str) -> dict[str, Any]:
        """The docs/contracts.md §6 document ``GET /api/v1/competitions/<slug>/table``, plus the
        optional ``unresolved`` list (teams, positions, reason) and ``separated_by``."""
        return {
            "competition": competition,
            "tie_breakers": list(self.tie_breakers),
            "rows": [row.as_dict() for row in self.rows],
            "unresolved_ties": [list(tie.teams) for tie in self.unresolved],
            "unresolved": [
                {"teams": list(t.teams), "positions": list(t.positions), "reason": t.reason}
                for t in self.unresolved
            ],
        }


# ---------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------


def counted_score(match: Any) -> tuple[int, int] | None:
    """The ``(home, away)`` score a match counts with in the table, ``None`` if it does not
    count (``scheduled`` or ``void``). A walkover without a score is 1–0 for the team that
    showed up (ANFPES T24 §III.1), 0–0 with both absent (a loss for both, see the module
    docstring). ``match`` is a :class:`~leagues.rules.season.Match` or alike."""
    if match.status in ("scheduled", "void"):
        return None
    if match.home_goals is not None and match.away_goals is not None:
        return match.home_goals, match.away_goals
    if match.status == "walkover":
        return {"home": (0, 1), "away": (1, 0), "both": (0, 0)}[match.absent]
    raise LeagueRuleError(f"match {match.id}: a played match needs a score")


def walkover_adjustments(matches: Iterable[Any], deduction: int = 3) -> tuple[Adjustment, ...]:
    """The ledger entries ANFPES T24 §III.1–§III.2 require for ``matches``: ``−deduction``
    points for the absent team of each walkover with one side absent, with reason
    ``"walkover <match id>"`` (docs/contracts.md §5 example). Both-absent walkovers get none: their
    deductions are the tribunal's to enter."""
    entries = []
    for match in matches:
        if match.status == "walkover" and match.absent in ("home", "away"):
            team = match.home if match.absent == "home" else match.away
            entries.append(Adjustment(team, -deduction, f"walkover {match.id}"))
    return tuple(entries)


def missing_walkover_adjustments(
    matches: Iterable[Any], adjustments: Iterable[Any], deduction: int = 3
) -> tuple[Adjustment, ...]:
    """The entries of :func:`walkover_adjustments` absent from the ledger ``adjustments``
    (compared on team, points and reason), for staff to be warned about."""
    present = [(a.team, a.points, a.reason) for a in adjustments]
    missing = []
    for entry in walkover_adjustments(matches, deduction):
        key = (entry.team, entry.points, entry.reason)
        if key in present:
            present.remove(key)
        else:
            missing.append(entry)
    return tuple(missing)


def abandonment(
    matches: Iterable[Any], team: Hashable, *, award: bool, deduction: int = 3
) -> tuple[tuple[Any, ...], tuple[Adjustment, ...]]:
    """A team abandons the competition (ANFPES T24 §III.4, docs/leagues.md "Tables"): its remaining
    (``scheduled``) fixtures are annulled (``void``) or, with ``award``, become walkovers
    with the team absent, with their ledger entries (:func:`walkover_adjustments`); staff
    choose **[choice]**. Returns ``(matches, new ledger entries)``; other matches are
    returned unchanged. ``matches`` must be dataclasses (``dataclasses.replace``)."""
    updated, awarded = [], []
    for match in matches:
        if match.status == "scheduled" and team in (match.home, match.away):
            if award:
                side = "home" if match.home == team else "away"
                match = replace(match, status="walkover", absent=side)
                awarded.append(match)
            else:
                match = replace(match, status="void")
        updated.append(match)
    return tuple(updated), walkover_adjustments(awarded, deduction)


def _is_goals(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check(teams: Sequence[Hashable], matches: Sequence[Any], adjustments: Sequence[Any]):
    problems = []
    known = set(teams)
    if len(known) != len(teams):
        problems.append("a team is listed twice")
    for match in matches:
        where = f"match {match.id}"
        if match.home not in known or match.away not in known:
            problems.append(f"{where}: its teams must be in the table")
        if match.home == match.away:
            problems.append(f"{where}: a team cannot play itself")
        if match.status not in MATCH_STATUSES:
            problems.append(f"{where}: unknown status {match.status!r}")
            continue
        if match.status == "walkover" and match.absent not in ABSENT_VALUES:
            problems.append(f"{where}: a walkover needs absent: home, away or both")
            continue
        goals = (match.home_goals, match.away_goals)
        if any(g is not None and (not _is_goals(g)) for g in goals):
            problems.append(f"{where}: goals must be integers >= 0")
            continue
        if (goals[0] is None) != (goals[1] is None):
            problems.append(f"{where}: give both goals or neither")
            continue
        if match.status == "walkover" and goals[0] is not None:
            if (match.absent == "home" and goals[0] >= goals[1]) or (
                match.absent == "away" and goals[1] >= goals[0]
            ):
                problems.append(f"{where}: in a walkover the team that showed up wins")
        if match.status == "played" and (match.home_goals is None or match.away_goals is None):
            problems.append(f"{where}: a played match needs a score")
    for adjustment in adjustments:
        if adjustment.team not in known:
            problems.append(f"adjustment {adjustment.reason!r}: unknown team {adjustment.team}")
        if not isinstance(adjustment.points, int):
            problems.append(f"adjustment {adjustment.reason!r}: points must be an integer")
    if problems:
        raise LeagueRuleError(problems)


# ---------------------------------------------------------------------------------------
# Ordering
# ---------------------------------------------------------------------------------------


class _Tally:
    __slots__ = ("played", "won", "drawn", "lost", "goals_for", "goals_against", "no_shows")

    def __init__(self):
        self.played = self.won = self.drawn = self.lost = 0
        self.goals_for = self.goals_against = self.no_shows = 0

    def add(self, scored: int, conceded: int):
        self.played += 1
        self.goals_for += scored
        self.goals_against += conceded
        if scored > conceded:
            self.won += 1
        elif scored < conceded:
            self.lost += 1
        else:
            self.drawn += 1


def _tally(teams: Iterable[Hashable], results) -> dict[Hashable, _Tally]:
    """``results``: ``(home, away, home_goals, away_goals, absent)``; both absent with no
    score given is a loss for both (see module docstring)."""
    tallies = {team: _Tally() for team in teams}
    for home, away, home_goals, away_goals, double_loss in results:
        if double_loss:
            for team in (home, away):
                tallies[team].played += 1
                tallies[team].lost += 1
            continue
        tallies[home].add(home_goals, away_goals)
        tallies[away].add(away_goals, home_goals)
    return tallies


class _Ranker:
    def __init__(self, teams, results, totals, points, config, decisions):
        self.index = {team: i for i, team in enumerate(teams)}
        self.results = results
        self.totals = totals
        self.points = points
        self.config = config
        self.decisions = {team: i for i, team in enumerate(decisions)}
        self.unresolved: list[tuple[tuple[Hashable, ...], str]] = []
        self._mini: dict[frozenset, dict[Hashable, _Tally]] = {}

    def key(self, code: str, team: Hashable, group: frozenset) -> Any:
        """Higher is better."""
        if code == "points":
            return self.points[team]
        if code == DECISION:
            return -self.decisions.get(team, float("inf"))
        if code in HEAD_TO_HEAD_CODES:
            mini = self.mini_table(group)[team]
            if code == "head_to_head":
                c = self.config
                return c.win * mini.won + c.draw * mini.drawn + c.loss * mini.lost
            if code == "head_to_head_goal_difference":
                return mini.goals_for - mini.goals_against
            return mini.goals_for
        tally = self.totals[team]
        if code == "goal_difference":
            return tally.goals_for - tally.goals_against
        if code == "goals_for":
            return tally.goals_for
        if code == "won":
            return tally.won
        if code == "fewest_no_shows":
            return -tally.no_shows
        raise AssertionError(code)  # validated by TableConfig

    def mini_table(self, group: frozenset) -> dict[Hashable, _Tally]:
        """The matches among ``group`` only (computed once per group)."""
        if group not in self._mini:
            among = [r for r in self.results if r[0] in group and r[1] in group]
            self._mini[group] = _tally(group, among)
        return self._mini[group]

    def order(self, group: list, codes: Sequence[str], i: int):
        """(teams in order, separators between consecutive teams)."""
        if len(group) == 1:
            return list(group), []
        if i == len(codes):
            ordered = sorted(group, key=self.index.__getitem__)
            self.unresolved.append((tuple(ordered), "decision_required"))
            return ordered, [None] * (len(group) - 1)
        code = codes[i]
        members = frozenset(group)
        keys = {team: self.key(code, team, members) for team in group}
        ranked = sorted(group, key=lambda t: (-keys[t], self.index[t]))
        classes: list[list] = []
        for team in ranked:
            if classes and keys[classes[-1][0]] == keys[team]:
                classes[-1].append(team)
            else:
                classes.append([team])
        if len(classes) == 1:
            return self.order(group, codes, i + 1)
        restart = i + 1
        if code in HEAD_TO_HEAD_CODES:
            restart = i
            while restart > 0 and codes[restart - 1] in HEAD_TO_HEAD_CODES:
                restart -= 1
        ordered, separators = [], []
        for cls in classes:
            if ordered:
                separators.append(code)
            sub_order, sub_separators = self.order(cls, codes, restart)
            ordered += sub_order
            separators += sub_separators
        return ordered, separators


def compute_table(
    teams: Sequence[Hashable],
    matches: Iterable[Any],
    adjustments: Iterable[Any] = (),
    *,
    config: TableConfig = PRIMERA_A,
    decisions: Sequence[Hashable] = (),
    phase_closed: bool | None = None,
) -> LeagueTable:
    """The league table of ``teams`` after ``matches`` (docs/leagues.md "Tables",
    docs/contracts.md §6).

    - ``teams``: team ids; their order is only used to list teams no rule separates.
    - ``matches``: :class:`~leagues.rules.season.Match` objects (or alike: ``id``, ``home``,
      ``away``, ``home_goals``, ``away_goals``, ``status``, ``absent``).
    - ``adjustments``: the points ledger, :class:`~leagues.rules.season.Adjustment`
      (``team``, ``points``, ``reason``), walkover deductions included (module docstring).
    - ``decisions``: team ids in the order staff decided or a decider match settled, best
      first; used only where every configured code is equal (or, for a Primera B title
      tie, its first listed team is the champion; the others keep their places by the
      codes). Teams not listed stay tied with each other.
    - ``phase_closed``: whether the phase is over; ``None`` infers it (there are matches and
      none is ``scheduled``). Only matters for ``config.title_decider``.

    Returns a :class:`LeagueTable`. Raises :class:`LeagueRuleError` listing every problem
    (unknown team or status, a walkover without ``absent``, a played match without a score,
    negative goals, a ledger entry for an unknown team).
    """
    teams = list(teams)
    matches = list(matches)
    adjustments = list(adjustments)
    _check(teams, matches, adjustments)
    results = []
    no_shows = dict.fromkeys(teams, 0)
    for match in matches:
        score = counted_score(match)
        if score is None:
            continue
        if match.status == "walkover":
            for side in ("home", "away"):
                if match.absent in (side, "both"):
                    no_shows[getattr(match, side)] += 1
        double_loss = (
            match.status == "walkover" and match.absent == "both" and match.home_goals is None
        )
        results.append((match.home, match.away, score[0], score[1], double_loss))
    totals = _tally(teams, results)
    for team, count in no_shows.items():
        totals[team].no_shows = count
    ledger = dict.fromkeys(teams, 0)
    for adjustment in adjustments:
        ledger[adjustment.team] += adjustment.points
    points = {
        team: config.win * t.won + config.draw * t.drawn + config.loss * t.lost + ledger[team]
        for team, t in totals.items()
    }
    if phase_closed is None:
        phase_closed = bool(matches) and all(m.status != "scheduled" for m in matches)
    # Nothing counted yet: every team is level and no tie is worth reporting.
    started = bool(results) or any(ledger.values())

    ranker = _Ranker(teams, results, totals, points, config, decisions)
    normal = (*config.tie_breakers[1:], DECISION)
    by_points = sorted(teams, key=lambda t: (-points[t], ranker.index[t]))
    classes: list[list] = []
    for team in by_points:
        if classes and points[classes[-1][0]] == points[team]:
            classes[-1].append(team)
        else:
            classes.append([team])
    order, separators, unresolved = [], [], []
    for number, cls in enumerate(classes):
        if order:
            separators.append("points")
        title_tie = (
            number == 0 and len(cls) > 1 and config.title_decider and phase_closed and started
        )
        decided = True
        if title_tie:
            # ANFPES T24 §1.3.1: only the decider match (a decision) settles the title; the
            # decider names the champion only, the others keep their places by the codes.
            listed = [team for team in cls if team in ranker.decisions]
            decided = bool(listed)
        if title_tie and decided:
            champion = min(listed, key=ranker.decisions.__getitem__)
            rest, rest_separators = ranker.order([t for t in cls if t != champion], normal, 0)
            sub_order, sub_separators = [champion, *rest], [DECISION, *rest_separators]
        else:
            sub_order, sub_separators = ranker.order(cls, normal, 0)
        if not decided:
            ranker.unresolved.clear()
            unresolved.append((tuple(sub_order), "title_decider"))
            sub_separators = [None] * (len(cls) - 1)
        elif started:
            unresolved += ranker.unresolved
        ranker.unresolved.clear()
        order += sub_order
        separators += sub_separators
    separators.append(None)

    position = {team: i + 1 for i, team in enumerate(order)}
    rows = tuple(
        TableRow(
            position=position[team],
            team=team,
            played=totals[team].played,
            won=totals[team].won,
            drawn=totals[team].drawn,
            lost=totals[team].lost,
            goals_for=totals[team].goals_for,
            goals_against=totals[team].goals_against,
            goal_difference=totals[team].goals_for - totals[team].goals_against,
            points=points[team],
            adjustments=ledger[team],
            no_shows=totals[team].no_shows,
            separated_by=separators[i],
        )
        for i, team in enumerate(order)
    )
    return LeagueTable(
        tie_breakers=config.tie_breakers,
        rows=rows,
        unresolved=tuple(
            UnresolvedTie(group, tuple(position[t] for t in group), reason)
            for group, reason in sorted(unresolved, key=lambda u: position[u[0][0]])
        ),
        complete=phase_closed,
    )
