"""Cups: the Champagne League (pots, group draw, group tables, knockout seeding, the
Conference Lag) and the Nucommunity Shit (format and bonus-points ledger).

Sources: ANFPES T24 §2.1 (Nucommunity Shit: 32 teams; draw and format announced by the
organisers), §2.2 (Champagne League: the draw uses both divisions' tables of the previous
season, four pots of eight drawn one team at a time into eight groups of four; newcomers go
to the fourth pot "y la lista correrá en consecuencia"; 1st and 2nd → the knockout, 3rd and
4th → the Conference Lag; 1sts and 2nds "se ordenarán de mejor a peor entre sí" and the
best 1st meets the worst 2nd, and so on; likewise best 3rd v worst 4th; two-legged ties,
third match if level, hosted by the better-placed in the cup), §IV.1 (the Nucommunity
Shit's first phase counts for compliance), §IV.2 (a user reaped at season end loses the
Nucommunity Shit bonus points); docs/leagues-final-phases.md "Nucommunity Shit".

Rules as implemented (**[choice]** where the text is silent):

- Pots (ANFPES T24 §II; docs/leagues-final-phases.md "Champagne League and Conference Lag"
  **[choice]**): one list — last season's Primera A table, then Primera B's (regular-phase order),
  then newcomers in the order given — without the teams not taking part, cut into pots of eight: pot
  1 = A 1–8, pot 2 = A 9–16, pot 3 = B 1–8, pot 4 = B 9–16 when nobody left; each team that left
  makes the rest of the list move up one place ("la lista correrá"), and newcomers fill pot 4.
- Draw (:func:`draw_groups`): pots are drawn in order 1→4; inside a pot the teams come
  out one at a time in a random order and go to groups A, B, … H in turn, so each group
  gets exactly one team per pot. The order inside pot ``k`` is
  :func:`leagues.rules.draft.draw_lots` over the pot's teams in pot order with the seed
  ``f"{seed}/pot{k}"`` — anyone can re-run it; the record shows the seed and the order in
  which teams came out. A live draw is entered by hand (:func:`manual_draw`) and validated
  (every team once, groups of four with one team per pot).
- Group tables: :func:`leagues.rules.table.compute_table` per group (ANFPES tie-breakers,
  3/1/0; legs of the group stage are a competition setting, default 2 **[choice]**).
- Ranking across groups (:func:`cross_group_rankings`): the teams of one group position
  (all 1sts, all 2nds …) ranked by points, goal difference, goals for, wins, fewest
  no-shows (the §1.2.1 criteria, ANFPES T24 §II; docs/leagues-final-phases.md
  "Champagne League and Conference Lag" **[choice]**), then a staff order (``decisions``); still
  equal → an unresolved position (the slot waits).
- Knockouts (:func:`champagne_knockout`, :func:`conference_lag`): round one best 1st v
  worst 2nd … (best 3rd v worst 4th for the Conference Lag); later rounds fixed, winner of
  tie ``k`` v winner of tie ``n + 1 − k`` (ANFPES T24 §II; docs/leagues-final-phases.md
  "Champagne League and Conference Lag" **[choice]**).
- Third match home (§2.2): rank keys ``(group position, rank among that position)``, so
  1st beats 2nd, 3rd beats 4th, and between equal positions more group points (then the
  criteria above) — through :func:`leagues.rules.brackets.fill_bracket`.
- Nucommunity Shit (:class:`NucommunityConfig`): ``knockout`` (a drawn bracket, drawn
  ``2k−1`` v ``2k``) or ``groups_knockout`` (groups drawn from one pot, then the same
  seeding as the Champagne League) **[choice]**; its first phase (the group stage, or the
  first knockout round) counts for compliance (§IV.1).
- Bonus points: a ledger entered by staff (docs/leagues-final-phases.md "Nucommunity Shit"
  **[choice]**), per user; a user reaped at a season-end review forfeits all of them (§IV.2).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from leagues.rules.brackets import BracketSpec, Standing, drawn_knockout, seeded_knockout
from leagues.rules.draft import LotDraw, draw_lots
from leagues.rules.errors import LeagueRuleError, Reason
from leagues.rules.match_rules import ordinal
from leagues.rules.table import PRIMERA_A, LeagueTable, TableConfig, compute_table

__all__ = [
    "GROUP_NAMES",
    "POSITION_RANKINGS",
    "BonusEntry",
    "BonusRow",
    "GroupDraw",
    "NucommunityConfig",
    "Pots",
    "bonus_totals",
    "champagne_knockout",
    "champagne_pots",
    "conference_lag",
    "cross_group_rankings",
    "draw_groups",
    "group_tables",
    "manual_draw",
    "nucommunity_bracket",
]

GROUP_NAMES = "ABCDEFGH"
"""Group names of the Champagne League, in draw order."""

POSITION_RANKINGS = {1: "cl_winners", 2: "cl_runners_up", 3: "cl_thirds", 4: "cl_fourths"}
"""Group position → ranking code of :func:`cross_group_rankings` (stable)."""


# ---------------------------------------------------------------------------------------
# Pots and draw
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pots:
    """The pots (pot 1 first, each in list order) and where each team came from
    (``origin``: ``"Primera A 3rd"``, ``"Primera B 12th"``, ``"newcomer"``)."""

    pots: tuple[tuple[Hashable, ...], ...]
    origin: Mapping[Hashable, str] = field(default_factory=dict)

    def pot_of(self, team: Hashable) -> int:
        """1-based pot of ``team``; ``KeyError`` if absent."""
        for number, pot in enumerate(self.pots, start=1):
            if team in pot:
                return number
        raise KeyError(team)


def champagne_pots(
    previous_a: Sequence[Hashable],
    previous_b: Sequence[Hashable],
    *,
    newcomers: Sequence[Hashable] = (),
    participants: Collection[Hashable] | None = None,
    pots: int = 4,
    pot_size: int = 8,
) -> Pots:
    """The Champagne League pots (ANFPES T24 §2.2; module docstring).

    - ``previous_a``/``previous_b``: last season's final regular-phase tables, 1st first.
    - ``newcomers``: teams with no table last season (to the end of the list, pot 4).
    - ``participants``: this cup's teams (default: everyone listed); previous teams not
      taking part are dropped and the list shifts.

    Raises :class:`LeagueRuleError` when the list does not hold exactly ``pots × pot_size``
    teams, a team is listed twice, or a participant is in no list.
    """
    listed = list(previous_a) + list(previous_b) + list(newcomers)
    if len(set(listed)) != len(listed):
        raise LeagueRuleError(Reason("listed_twice"))
    chosen = set(listed) if participants is None else set(participants)
    strangers = chosen - set(listed)
    if strangers:
        teams = sorted(map(str, strangers))
        raise LeagueRuleError(Reason("strangers", {"teams": teams, "teams_list": teams}))
    origin: dict[Hashable, str] = {}
    for name, table in (("Primera A", previous_a), ("Primera B", previous_b)):
        for number, team in enumerate(table, start=1):
            origin[team] = f"{name} {ordinal(number)}"
    for team in newcomers:
        origin[team] = "newcomer"
    ordered = [team for team in listed if team in chosen]
    if len(ordered) != pots * pot_size:
        raise LeagueRuleError(
            Reason(
                "draw_size",
                {"n": pots * pot_size, "pots": pots, "size": pot_size, "got": len(ordered)},
            )
        )
    return Pots(
        tuple(tuple(ordered[i * pot_size : (i + 1) * pot_size]) for i in range(pots)),
        {team: origin[team] for team in ordered},
    )


@dataclass(frozen=True, slots=True)
class GroupDraw:
    """A recorded group draw.

    - ``groups``: group name → teams, pot 1 first.
    - ``order``: ``(team, group)`` in the order the teams came out.
    - ``seed``: the seed (``None`` for a live draw entered by hand); ``method``:
      ``"seed"`` or ``"manual"``; ``lots``: the per-pot :class:`~leagues.rules.draft.LotDraw`
      s of a seeded draw.
    """

    pots: tuple[tuple[Hashable, ...], ...]
    groups: Mapping[str, tuple[Hashable, ...]]
    order: tuple[tuple[Hashable, str], ...]
    seed: int | str | None
    method: str
    lots: tuple[LotDraw, ...] = ()

    def verify(self) -> bool:
        """Re-run a seeded draw and compare; a manual draw is re-validated."""
        try:
            if self.method == "manual":
                again = manual_draw(self.pots, self.order, group_names="".join(self.groups))
            else:
                again = draw_groups(self.pots, self.seed, group_names="".join(self.groups))
        except LeagueRuleError:
            return False
        return again.groups == self.groups and again.order == self.order

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready record of the draw (seed, pots, order, groups)."""
        return {
            "method": self.method,
            "seed": self.seed,
            "pots": [list(p) for p in self.pots],
            "order": [{"team": t, "group": g} for t, g in self.order],
            "groups": {g: list(ts) for g, ts in self.groups.items()},
        }


def _check_pots(pots: Sequence[Sequence[Hashable]], group_names: str) -> tuple[tuple, ...]:
    pots = tuple(tuple(p) for p in pots)
    every = [t for p in pots for t in p]
    if not pots or len(set(every)) != len(every):
        raise LeagueRuleError("every team must be in exactly one pot")
    if len(set(group_names)) != len(group_names):
        raise LeagueRuleError("group names must be distinct")
    for number, pot in enumerate(pots, start=1):
        if len(pot) != len(group_names):
            raise LeagueRuleError(
                f"pot {number} has {len(pot)} teams; one per group needs {len(group_names)}"
            )
    return pots


def draw_groups(
    pots: Sequence[Sequence[Hashable]],
    seed: int | str | None = None,
    *,
    group_names: str = GROUP_NAMES,
) -> GroupDraw:
    """A seeded group draw, one team at a time, one team per pot in each group (module
    docstring gives the procedure). ``pots``: :attr:`Pots.pots` (or the same shape);
    ``seed``: ``int`` or ``str``, ``None`` draws a fresh 64-bit one (recorded). Raises
    :class:`LeagueRuleError` when a pot's size differs from the number of groups or a team
    is in two pots."""
    pots = _check_pots(pots, group_names)
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise LeagueRuleError("the seed must be an integer or a string")
    groups: dict[str, list] = {g: [] for g in group_names}
    order, lots = [], []
    for number, pot in enumerate(pots, start=1):
        lot = draw_lots(pot, f"{seed}/pot{number}")
        lots.append(lot)
        for team, group in zip(lot.order, group_names, strict=True):
            groups[group].append(team)
            order.append((team, group))
    return GroupDraw(
        pots, {g: tuple(ts) for g, ts in groups.items()}, tuple(order), seed, "seed", tuple(lots)
    )


def manual_draw(
    pots: Sequence[Sequence[Hashable]],
    order: Sequence[tuple[Hashable, str]],
    *,
    group_names: str = GROUP_NAMES,
) -> GroupDraw:
    """A live draw entered by hand: ``order`` lists ``(team, group)`` as the teams came
    out. Validated: every team of the pots exactly once, known groups, and every group
    ends with one team of each pot. Groups list their teams pot 1 first. Raises
    :class:`LeagueRuleError` listing every problem."""
    pots = _check_pots(pots, group_names)
    order = tuple((team, group) for team, group in order)
    problems = []
    pot_of = {team: number for number, pot in enumerate(pots, start=1) for team in pot}
    teams = [team for team, _ in order]
    if sorted(map(repr, teams)) != sorted(map(repr, pot_of)):
        problems.append(Reason("draw_teams"))
    groups: dict[str, dict[int, Hashable]] = {g: {} for g in group_names}
    for team, group in order:
        if group not in groups:
            problems.append(
                Reason("unknown_group", {"team": team, "group": group, "group_repr": repr(group)})
            )
            continue
        if team not in pot_of:
            continue
        pot = pot_of[team]
        if pot in groups[group]:
            problems.append(Reason("group_pot_twice", {"group": group, "pot": pot}))
        groups[group][pot] = team
    if problems:
        raise LeagueRuleError(problems)
    return GroupDraw(
        pots,
        {g: tuple(members[p] for p in sorted(members)) for g, members in groups.items()},
        order,
        None,
        "manual",
    )


# ---------------------------------------------------------------------------------------
# Group stage and seeding
# ---------------------------------------------------------------------------------------


def group_tables(
    groups: Mapping[str, Sequence[Hashable]],
    matches: Iterable[Any],
    adjustments: Iterable[Any] = (),
    *,
    config: TableConfig = PRIMERA_A,
    decisions: Mapping[str, Sequence[Hashable]] | None = None,
    phase_closed: bool | None = None,
) -> dict[str, LeagueTable]:
    """One :func:`~leagues.rules.table.compute_table` per group (ANFPES T24 §2.2,
    docs/leagues-final-phases.md "Champagne League and Conference Lag"): each group's matches are
    those between two of its teams; ledger entries go to their team's group; ``decisions``: group →
    staff order. Raises
    :class:`LeagueRuleError` for a match between two groups or a team in two groups."""
    group_of: dict[Hashable, str] = {}
    for name, members in groups.items():
        for team in members:
            if team in group_of:
                raise LeagueRuleError(f"{team} is in groups {group_of[team]} and {name}")
            group_of[team] = name
    per_group: dict[str, list] = {name: [] for name in groups}
    for match in matches:
        home, away = group_of.get(match.home), group_of.get(match.away)
        if home is None or home != away:
            raise LeagueRuleError(f"match {match.id}: both teams must be of one group")
        per_group[home].append(match)
    ledger: dict[str, list] = {name: [] for name in groups}
    for entry in adjustments:
        if entry.team not in group_of:
            raise LeagueRuleError(f"adjustment {entry.reason!r}: unknown team {entry.team}")
        ledger[group_of[entry.team]].append(entry)
    decisions = dict(decisions or {})
    return {
        name: compute_table(
            list(members),
            per_group[name],
            ledger[name],
            config=config,
            decisions=decisions.get(name, ()),
            phase_closed=phase_closed,
        )
        for name, members in groups.items()
    }


_CRITERIA = ("points", "goal_difference", "goals_for", "won", "fewest_no_shows")


def cross_group_rankings(
    tables: Mapping[str, LeagueTable],
    *,
    decisions: Mapping[int, Sequence[Hashable]] | None = None,
    codes: Mapping[int, str] | None = None,
) -> dict[int, Standing]:
    """Rank the teams of each group position across the groups (ANFPES T24 §2.2; criteria
    in the module docstring). Returns group position → :class:`~leagues.rules.brackets.
    Standing` with code :data:`POSITION_RANKINGS` (or ``codes``), closed only when every
    group table is complete and no group has an unresolved tie at that group position
    (who is 3rd in a group may be open while the 1sts are known); teams still equal after
    ``decisions`` (position → staff order, best first) are unresolved
    (``decision_required``)."""
    codes = dict(codes or POSITION_RANKINGS)
    decisions = dict(decisions or {})
    complete = all(t.complete for t in tables.values())
    sizes = {len(t.rows) for t in tables.values()}
    rankings = {}
    for place in range(1, min(sizes) + 1 if sizes else 1):
        rows = [t.rows[place - 1] for t in tables.values()]
        closed = complete and not any(
            place in tie.positions for t in tables.values() for tie in t.unresolved
        )
        staff = {team: i for i, team in enumerate(decisions.get(place, ()))}

        def key(row):
            return (
                -row.points,
                -row.goal_difference,
                -row.goals_for,
                -row.won,
                row.no_shows,
            )

        rows.sort(key=lambda r: (key(r), staff.get(r.team, len(staff))))
        unresolved: dict[int, str] = {}
        for i in range(len(rows)):
            for j in range(i + 1, len(rows)):
                same = key(rows[i]) == key(rows[j])
                if same and (rows[i].team not in staff or rows[j].team not in staff):
                    unresolved[i + 1] = unresolved[j + 1] = "decision_required"
        code = codes.get(place, f"group_position_{place}")
        rankings[place] = Standing(code, tuple(r.team for r in rows), closed, unresolved)
    return rankings


def champagne_knockout(*, legs: int = 2) -> BracketSpec:
    """Champagne League knockout (§2.2): ``cl_round_of_16_k`` = ``k``-th best group winner
    v ``(9−k)``-th best runner-up; later rounds fixed **[choice]**; third match hosted by
    the better cup position (rank by winners then runners-up)."""
    return seeded_knockout("cl", "cl_winners", "cl_runners_up", ties=8, legs=legs)


def conference_lag(*, legs: int = 2) -> BracketSpec:
    """Conference Lag knockout (§2.2): best 3rd v worst 4th, and so on; as
    :func:`champagne_knockout`."""
    return seeded_knockout("conf", "cl_thirds", "cl_fourths", ties=8, legs=legs)


# ---------------------------------------------------------------------------------------
# Nucommunity Shit
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NucommunityConfig:
    """The format staff announce (ANFPES T24 §2.1 **[choice]** of what can be set).

    - ``format``: ``"knockout"`` or ``"groups_knockout"``.
    - ``teams``: entrants (32); ``legs``: legs of each knockout tie (2) and of the group
      round robin; ``groups``: number of groups (8) when ``groups_knockout``;
      ``qualifiers``: teams per group to the knockout (2: 1sts and 2nds, seeded as the
      Champagne League).
    """

    format: str = "knockout"
    teams: int = 32
    legs: int = 2
    groups: int = 8
    qualifiers: int = 2

    def __post_init__(self):
        if self.format not in ("knockout", "groups_knockout"):
            raise LeagueRuleError("format must be knockout or groups_knockout")
        if self.format == "groups_knockout":
            if self.groups < 1:
                raise LeagueRuleError("give at least one group")
            if self.teams % self.groups:
                raise LeagueRuleError(Reason("uneven_groups"))
            if self.qualifiers != 2:
                raise LeagueRuleError("groups + knockout qualifies the 1st and 2nd of each group")
            if self.groups & (self.groups - 1):
                raise LeagueRuleError(Reason("groups_power_of_two"))
        elif self.teams < 2 or self.teams & (self.teams - 1):
            raise LeagueRuleError(Reason("knockout_power_of_two"))

    @property
    def first_phase(self) -> str:
        """The stage that counts for compliance (§IV.1): ``"ns_groups"`` or the first
        knockout round's stage code."""
        if self.format == "groups_knockout":
            return "ns_groups"
        return nucommunity_bracket(self).ties[0].stage


def nucommunity_bracket(config: NucommunityConfig) -> BracketSpec:
    """The Nucommunity Shit knockout: from the draw order (ranking ``ns_draw``) for
    ``knockout``, or from the group winners/runners-up (``ns_winners``/``ns_runners_up``,
    as :func:`cross_group_rankings` with those codes) for ``groups_knockout``."""
    if config.format == "knockout":
        return drawn_knockout("ns", "ns_draw", entrants=config.teams, legs=config.legs)
    return seeded_knockout(
        "ns", "ns_winners", "ns_runners_up", ties=config.groups, legs=config.legs
    )


@dataclass(frozen=True, slots=True)
class BonusEntry:
    """One entry of the Nucommunity Shit bonus-points ledger: ``points`` (``int``) to
    ``user`` with a ``reason``, entered by staff."""

    user: str
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class BonusRow:
    """A user's bonus points: ``earned`` (Σ ledger), ``forfeited`` (lost by being reaped at
    season end, §IV.2), ``payable = earned − forfeited``."""

    user: str
    earned: int
    forfeited: int
    payable: int
    reaped: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "user": self.user,
            "earned": self.earned,
            "forfeited": self.forfeited,
            "payable": self.payable,
            "reaped": self.reaped,
        }


def bonus_totals(
    entries: Iterable[BonusEntry], reaped_at_season_end: Collection[str] = ()
) -> tuple[BonusRow, ...]:
    """Bonus points per user (ANFPES T24 §IV.2): a user reaped at the season-end review
    (:attr:`leagues.rules.compliance.ComplianceRow.loses_cup_bonus`) forfeits all of them.
    Rows in the order users first appear. Raises :class:`LeagueRuleError` for a
    non-integer amount or an entry without a reason."""
    earned: dict[str, int] = {}
    for entry in entries:
        if not isinstance(entry.points, int) or isinstance(entry.points, bool):
            raise LeagueRuleError(f"bonus for {entry.user}: points must be an integer")
        if not str(entry.reason).strip():
            raise LeagueRuleError(f"bonus for {entry.user}: a reason is required")
        earned[entry.user] = earned.get(entry.user, 0) + entry.points
    reaped = set(reaped_at_season_end)
    rows = []
    for user, total in earned.items():
        lost = max(total, 0) if user in reaped else 0
        rows.append(BonusRow(user, total, lost, total - lost, user in reaped))
    return tuple(rows)
