"""Bracket engine of the final phases: slots fed from tables and ties, filled as results
come, and generic knockouts (cups).

Model: a :class:`BracketSpec` is a list of :class:`TieSpec` whose two slots are
:class:`Source` s — "1st of Primera A", "winner of qf1", "loser of psf2", "better-placed in
Primera B of (loser of psf1, loser of psf2)". :func:`fill_bracket` resolves every slot from
the final tables (:class:`Standing`) and the ties' matches (:func:`leagues.rules.ties.
tie_state`) and returns a :class:`FilledBracket`. Nothing is stored: re-run it after each
confirmed result. The rules as implemented (closed tables and stages, legs, home sides,
staff overrides) are listed in :mod:`leagues.rules.brackets`, which re-exports every name
here (importers use it); the ANFPES T24 brackets built on this engine are in
:mod:`leagues.rules.presets.anfpes_t24`. Page for users: ``docs/leagues-final-phases.md``
("How a bracket fills"); the JSON shape: ``docs/leagues.md`` ("Bracket of a knockout").
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from leagues.rules.errors import LeagueRuleError
from leagues.rules.texts import Reason
from leagues.rules.ties import TieState, leg_hosts, tie_state

SOURCE_KINDS = ("position", "winner", "loser", "better_of", "worse_of", "team")


# ---------------------------------------------------------------------------------------
# Specification
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """Where a slot is fed from.

    - ``position``: ``ref`` = ranking code (:data:`leagues.rules.texts.RANKING_NAMES`), ``position`` 1-based.
    - ``winner`` / ``loser``: ``ref`` = tie id.
    - ``better_of`` / ``worse_of``: the better/worse placed in ranking ``ref`` of the
      teams fed from ``among``.
    - ``team``: ``ref`` = a team id set directly.
    """

    kind: str
    ref: str
    position: int | None = None
    among: tuple[Source, ...] = ()

    def __post_init__(self):
        if self.kind not in SOURCE_KINDS:
            raise LeagueRuleError(f"unknown source kind {self.kind!r}")
        if self.kind == "position" and (not isinstance(self.position, int) or self.position < 1):
            raise LeagueRuleError("a position source needs a position >= 1")
        if self.kind in ("better_of", "worse_of") and len(self.among) < 2:
            raise LeagueRuleError("better_of/worse_of need at least two sources")

    @property
    def label(self) -> Reason:
        """Where the slot is fed from, as a :class:`~leagues.rules.texts.Reason` (code
        ``source_<kind>``): in English ``"1st of Primera A"``, ``"winner of qf1"`` …"""
        if self.kind == "position":
            return Reason("source_position", {"position": self.position, "ranking": self.ref})
        if self.kind in ("winner", "loser"):
            return Reason(f"source_{self.kind}", {"tie": self.ref})
        if self.kind == "team":
            return Reason("source_team", {"team": self.ref})
        teams = [s.label for s in self.among]
        return Reason(f"source_{self.kind}", {"ranking": self.ref, "teams": teams})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Source:
        """The source of its :meth:`as_dict` (``label`` ignored); :class:`LeagueRuleError`
        for an unknown kind."""
        return cls(
            data.get("kind", ""),
            data.get("ref", ""),
            data.get("position"),
            tuple(cls.from_dict(s) for s in data.get("among", ())),
        )

    def ties(self) -> set[str]:
        """Tie ids this source depends on."""
        if self.kind in ("winner", "loser"):
            return {self.ref}
        return set().union(*(s.ties() for s in self.among)) if self.among else set()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"kind", "ref", "position"?, "among"?, "label"}``."""
        data: dict[str, Any] = {"kind": self.kind, "ref": self.ref, "label": self.label}
        if self.position is not None:
            data["position"] = self.position
        if self.among:
            data["among"] = [s.as_dict() for s in self.among]
        return data


def position(ranking: str, number: int) -> Source:
    """The team at ``number`` (1-based) of ranking ``ranking``."""
    return Source("position", ranking, number)


def winner(tie: str) -> Source:
    """The winner of tie ``tie``."""
    return Source("winner", tie)


def loser(tie: str) -> Source:
    """The loser of tie ``tie``."""
    return Source("loser", tie)


def better_of(ranking: str, *sources: Source) -> Source:
    """The better-placed in ``ranking`` of the teams fed from ``sources``."""
    return Source("better_of", ranking, among=tuple(sources))


def worse_of(ranking: str, *sources: Source) -> Source:
    """The worse-placed in ``ranking`` of the teams fed from ``sources``."""
    return Source("worse_of", ranking, among=tuple(sources))


def team(team_id: str) -> Source:
    """A team set directly."""
    return Source("team", team_id)


@dataclass(frozen=True, slots=True)
class TieSpec:
    """One tie of a bracket: ``first`` (the higher seed) v ``second``, in ``stage``.

    ``legs``: 2 (home and away, third match if level) or 1; ``match_minutes``: match length
    when the rules fix one (the Primera A final: 10, §1.1.5); ``same_day``: a group of ties
    played in one session (``"final_four"``, §1.1.4).
    """

    id: str
    stage: str
    first: Source
    second: Source
    legs: int = 2
    match_minutes: int | None = None
    same_day: str | None = None
    name: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "id": self.id,
            "stage": self.stage,
            "name": self.name,
            "legs": self.legs,
            "match_minutes": self.match_minutes,
            "same_day": self.same_day,
            "first": self.first.as_dict(),
            "second": self.second.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class BracketSpec:
    """A bracket: ``ties`` (a tie may only be fed from ties listed before it), the named
    ``outcomes`` (``(code, Source)`` pairs, e.g. ``("champion_a", winner("final"))``), the
    stage codes in order, ``rank_by``: the ranking codes giving the rank keys of teams
    (third-match home side, leg venues), in priority order, and ``external``: ids of ties
    of another bracket this one is fed from (such slots wait until the brackets are
    combined with :meth:`combine`).

    Raises :class:`LeagueRuleError` for a repeated tie id, a slot fed from an unknown or
    later tie, or a tie in an unlisted stage.
    """

    code: str
    ties: tuple[TieSpec, ...]
    outcomes: tuple[tuple[str, Source], ...] = ()
    stages: tuple[str, ...] = ()
    rank_by: tuple[str, ...] = ()
    external: frozenset[str] = frozenset()

    def __post_init__(self):
        problems, seen = [], set(self.external)
        stages = self.stages or tuple(dict.fromkeys(t.stage for t in self.ties))
        object.__setattr__(self, "stages", stages)
        for spec in self.ties:
            if spec.id in seen:
                problems.append(f"tie {spec.id} is listed twice")
            if spec.stage not in stages:
                problems.append(f"tie {spec.id}: stage {spec.stage} is not listed")
            if spec.legs not in (1, 2):
                problems.append(f"tie {spec.id}: legs must be 1 or 2")
            for source in (spec.first, spec.second):
                for ref in source.ties() - seen:
                    problems.append(f"tie {spec.id} is fed from {ref}, not listed before it")
            if spec.id in self.external:
                problems.append(f"tie {spec.id} is both listed and external")
            seen.add(spec.id)
        for code, source in self.outcomes:
            for ref in source.ties() - seen:
                problems.append(f"outcome {code} is fed from unknown tie {ref}")
        if problems:
            raise LeagueRuleError(problems)

    def tie(self, tie_id: str) -> TieSpec:
        """The :class:`TieSpec` ``tie_id``; ``KeyError`` if absent."""
        for spec in self.ties:
            if spec.id == tie_id:
                return spec
        raise KeyError(tie_id)

    @staticmethod
    def combine(code: str, *specs: BracketSpec) -> BracketSpec:
        """One bracket from several (ties, outcomes, stages and ``rank_by`` in order);
        external ties defined by one of ``specs`` become internal."""
        ties = tuple(t for s in specs for t in s.ties)
        defined = {t.id for t in ties}
        return BracketSpec(
            code,
            ties,
            tuple(o for s in specs for o in s.outcomes),
            tuple(dict.fromkeys(st for s in specs for st in s.stages)),
            tuple(dict.fromkeys(r for s in specs for r in s.rank_by)),
            frozenset().union(*(s.external for s in specs)) - defined,
        )


# ---------------------------------------------------------------------------------------
# Inputs and outputs
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """A final order that feeds slots: ``code`` (a ranking code), ``order`` (team ids, 1st
    first), ``closed`` (the phase is over) and ``unresolved``: position → reason code for
    positions inside a tie only a decision can settle (``title_decider``,
    ``decision_required``, as :mod:`leagues.rules.table`)."""

    code: str
    order: tuple[Hashable, ...]
    closed: bool = True
    unresolved: Mapping[int, str] = field(default_factory=dict)

    def position_of(self, team_id: Hashable) -> int | None:
        """1-based position of ``team_id``, ``None`` if absent."""
        try:
            return self.order.index(team_id) + 1
        except ValueError:
            return None

    @classmethod
    def from_table(cls, code: str, table: Any, closed: bool | None = None) -> Standing:
        """From a :class:`leagues.rules.table.LeagueTable` (``closed`` defaults to its
        ``complete``)."""
        unresolved = {p: tie.reason for tie in table.unresolved for p in tie.positions}
        return cls(
            code,
            tuple(table.order),
            table.complete if closed is None else closed,
            unresolved,
        )


@dataclass(frozen=True, slots=True)
class SlotView:
    """A resolved slot: ``fed_from`` (the source's label), ``team`` (``None`` until known),
    ``provisional`` (who would be there if things stood as now), ``waiting_for`` (why
    ``team`` is still ``None``: a :class:`~leagues.rules.texts.Reason`, code
    ``waiting_…``) and ``overridden`` (staff set the team by hand)."""

    source: Source
    team: Hashable | None
    provisional: Hashable | None = None
    waiting_for: Reason | None = None
    overridden: bool = False

    @property
    def fed_from(self) -> Reason:
        return self.source.label

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "fed_from": self.fed_from,
            "source": self.source.as_dict(),
            "team": self.team,
            "provisional": self.provisional,
            "waiting_for": self.waiting_for,
            "overridden": self.overridden,
        }


@dataclass(frozen=True, slots=True)
class TieView:
    """A tie of a filled bracket: its spec, two slots, its :class:`TieState` (``None``
    until both teams are known), the leg venues (``(leg 1 home, leg 2 home)``) and whether
    its stage is closed."""

    spec: TieSpec
    first: SlotView
    second: SlotView
    state: TieState | None
    hosts: tuple[Hashable, Hashable] | None
    stage_closed: bool

    @property
    def winner(self) -> Hashable | None:
        return self.state.winner if self.state else None

    @property
    def loser(self) -> Hashable | None:
        return self.state.loser if self.state else None

    @property
    def teams(self) -> tuple[Hashable | None, Hashable | None]:
        return (self.first.team, self.second.team)

    def as_dict(self) -> dict[str, Any]:
        """docs/contracts.md §6 bracket tie: ``legs`` (leg results), ``aggregate``,
        ``third_match_required``, ``winner``, and the slots with what they are fed from."""
        state = self.state
        return {
            "id": self.spec.id,
            "stage": self.spec.stage,
            "name": self.spec.name,
            "legs_required": self.spec.legs,
            "match_minutes": self.spec.match_minutes,
            "same_day": self.spec.same_day,
            "slots": [self.first.as_dict(), self.second.as_dict()],
            "hosts": list(self.hosts) if self.hosts else None,
            "legs": [leg.as_dict() for leg in state.legs] if state else [],
            "aggregate": dict(state.aggregate) if state else {},
            "third_match_required": state.third_match_required if state else False,
            "third_match_home": state.third_match_home if state else None,
            "winner": self.winner,
            "loser": self.loser,
            "decided_by": state.decided_by if state else None,
            "status": state.status if state else "waiting",
            "stage_closed": self.stage_closed,
            "problems": list(state.problems) if state else [],
        }


@dataclass(frozen=True, slots=True)
class FilledBracket:
    """Result of :func:`fill_bracket`: tie views in spec order, outcomes by code and
    ``problems`` for staff (non-fatal)."""

    code: str
    ties: tuple[TieView, ...]
    outcomes: Mapping[str, SlotView]
    problems: tuple[str, ...] = ()

    def tie(self, tie_id: str) -> TieView:
        """The :class:`TieView` ``tie_id``; ``KeyError`` if absent."""
        for view in self.ties:
            if view.spec.id == tie_id:
                return view
        raise KeyError(tie_id)

    def pairing(self, tie_id: str) -> tuple[Hashable | None, Hashable | None]:
        """The two teams of ``tie_id`` (``None`` where not yet known)."""
        return self.tie(tie_id).teams

    def stage_complete(self, stage: str) -> bool:
        """Every tie of ``stage`` has a winner (staff may then close it)."""
        views = [v for v in self.ties if v.spec.stage == stage]
        return bool(views) and all(v.winner is not None for v in views)

    def as_dict(self) -> dict[str, Any]:
        """docs/contracts.md §6 ``GET /api/v1/competitions/<slug>/bracket`` body."""
        return {
            "bracket": self.code,
            "ties": [view.as_dict() for view in self.ties],
            "outcomes": {code: slot.as_dict() for code, slot in self.outcomes.items()},
            "problems": list(self.problems),
        }


# ---------------------------------------------------------------------------------------
# Filling
# ---------------------------------------------------------------------------------------


def _rank_keys(standings: Mapping[str, Standing], rank_by: Sequence[str]) -> dict:
    keys: dict[Hashable, tuple[int, int]] = {}
    for index, code in enumerate(rank_by):
        standing = standings.get(code)
        if standing is None:
            continue
        for number, team_id in enumerate(standing.order, start=1):
            keys.setdefault(team_id, (index, number))
    return keys


def fill_bracket(
    spec: BracketSpec,
    standings: Mapping[str, Standing] | Iterable[Standing],
    matches: Iterable[Any] = (),
    *,
    closed_stages: Collection[str] = (),
    overrides: Mapping[tuple[str, str], Hashable] | None = None,
    awards: Mapping[str, Hashable] | None = None,
    third_match_homes: Mapping[str, Hashable] | None = None,
    require_stream: bool = False,
) -> FilledBracket:
    """Fill ``spec`` from the final tables and the results (module docstring for the rules).

    - ``standings``: :class:`Standing` s by code (or an iterable of them).
    - ``matches``: :class:`~leagues.rules.season.Match` objects carrying ``tie`` and
      ``leg`` (docs/contracts.md §5); those of other ties are ignored.
    - ``closed_stages``: stage codes staff closed; winners and losers of a stage advance
      only once it is closed.
    - ``overrides``: ``(tie id, "first" | "second")`` → team, a staff decision replacing
      the slot's source (e.g. after abandonments, ANFPES T24 §1.2.2).
    - ``awards``: tie id → team the tribunal awarded the tie to (§III.2).
    - ``third_match_homes``: tie id → staff's choice of the third match's home side.
    - ``require_stream``: legs without a stream link are friendlies (league final phases,
      §1.4 ¶5).

    Returns a :class:`FilledBracket`. Raises :class:`LeagueRuleError` for an override of an
    unknown tie or side. Problems in a tie's matches (other teams, a leg twice, a level
    shoot-out, matches before the teams are known) are reported in ``problems`` and leave
    that tie without a state.
    """
    if not isinstance(standings, Mapping):
        standings = {s.code: s for s in standings}
    overrides = dict(overrides or {})
    awards = dict(awards or {})
    third_match_homes = dict(third_match_homes or {})
    closed = set(closed_stages)
    ids = {t.id for t in spec.ties}
    for tie_id, side in overrides:
        if tie_id not in ids or side not in ("first", "second"):
            raise LeagueRuleError(f"override {tie_id}.{side}: no such slot")
    by_tie: dict[str, list] = {}
    for match in matches:
        if match.tie in ids:
            by_tie.setdefault(match.tie, []).append(match)
    rank = _rank_keys(standings, spec.rank_by)
    problems: list[str] = []
    views: dict[str, TieView] = {}

    def resolve(source: Source) -> SlotView:
        if source.kind == "team":
            return SlotView(source, source.ref)
        if source.kind == "position":
            standing = standings.get(source.ref)
            if standing is None:
                return SlotView(source, None, None, Reason("waiting_table", {"table": source.ref}))
            if source.position > len(standing.order):
                missing = Reason("waiting_missing_position", {"slot": source.label})
                return SlotView(source, None, None, missing)
            occupant = standing.order[source.position - 1]
            reason = standing.unresolved.get(source.position)
            if reason == "title_decider":
                return SlotView(source, None, occupant, Reason("waiting_title_decider"))
            if reason is not None:
                return SlotView(source, None, occupant, Reason("waiting_unresolved_tie"))
            if not standing.closed:
                closing = Reason("waiting_table_to_be_closed", {"table": source.ref})
                return SlotView(source, None, occupant, closing)
            return SlotView(source, occupant)
        if source.kind in ("winner", "loser"):
            if source.ref not in views:
                return SlotView(
                    source, None, None, Reason("waiting_other_bracket", {"tie": source.ref})
                )
            view = views[source.ref]
            result = view.winner if source.kind == "winner" else view.loser
            if result is None:
                return SlotView(source, None, None, Reason("waiting_result", {"tie": source.ref}))
            if not view.stage_closed:
                closing = Reason("waiting_stage_closed", {"stage": view.spec.stage})
                return SlotView(source, None, result, closing)
            return SlotView(source, result)
        # better_of / worse_of
        inner = [resolve(s) for s in source.among]
        standing = standings.get(source.ref)

        def pick(candidates):
            if standing is None or any(standing.position_of(c) is None for c in candidates):
                raise LeagueRuleError(f"{source.label}: a team is not in the {source.ref} table")
            ordered = sorted(candidates, key=standing.position_of)
            return ordered[0] if source.kind == "better_of" else ordered[-1]

        if all(s.team is not None for s in inner):
            return SlotView(source, pick([s.team for s in inner]))
        waiting = next(s.waiting_for for s in inner if s.team is None)
        guesses = [s.team if s.team is not None else s.provisional for s in inner]
        guess = pick(guesses) if all(g is not None for g in guesses) else None
        return SlotView(source, None, guess, waiting)

    for tie_spec in spec.ties:
        slots = []
        for side in ("first", "second"):
            source = getattr(tie_spec, side)
            if (tie_spec.id, side) in overrides:
                slot = SlotView(source, overrides[(tie_spec.id, side)], overridden=True)
            else:
                slot = resolve(source)
            slots.append(slot)
        first, second = slots
        state = None
        hosts = None
        stage_closed = tie_spec.stage in closed
        tie_matches = by_tie.get(tie_spec.id, [])
        if first.team is not None and second.team is not None:
            if first.team == second.team:
                problems.append(f"tie {tie_spec.id}: both slots hold {first.team}")
            else:
                hosts = leg_hosts(first.team, second.team, rank)
                try:
                    state = tie_state(
                        tie_matches,
                        teams=(first.team, second.team),
                        legs=tie_spec.legs,
                        rank=rank,
                        third_match_home=third_match_homes.get(tie_spec.id),
                        require_stream=require_stream,
                        awarded_to=awards.get(tie_spec.id),
                        tie=tie_spec.id,
                    )
                except LeagueRuleError as error:
                    problems.extend(error.problems)
        elif tie_matches:
            problems.append(f"tie {tie_spec.id}: matches entered before both teams are known")
        if stage_closed and (state is None or state.winner is None):
            problems.append(f"stage {tie_spec.stage} is closed but tie {tie_spec.id} is undecided")
        views[tie_spec.id] = TieView(tie_spec, first, second, state, hosts, stage_closed)

    outcomes = {code: resolve(source) for code, source in spec.outcomes}
    return FilledBracket(spec.code, tuple(views.values()), outcomes, tuple(problems))


# ---------------------------------------------------------------------------------------
# Generic knockouts (cups)
# ---------------------------------------------------------------------------------------

_ROUND_NAMES = {1: "final", 2: "semi_finals", 4: "quarter_finals"}


def _round_code(ties: int) -> str:
    return _ROUND_NAMES.get(ties, f"round_of_{2 * ties}")


def _later_rounds(prefix: str, first_ids: list[str], legs: int, pairing: str) -> list[TieSpec]:
    ties, previous = [], first_ids
    while len(previous) > 1:
        count = len(previous) // 2
        stage = f"{prefix}_{_round_code(count)}"
        ids = [f"{stage}" if count == 1 else f"{stage}_{k}" for k in range(1, count + 1)]
        for k, tie_id in enumerate(ids):
            if pairing == "fold":
                a, b = previous[k], previous[len(previous) - 1 - k]
            else:
                a, b = previous[2 * k], previous[2 * k + 1]
            ties.append(TieSpec(tie_id, stage, winner(a), winner(b), legs))
        previous = ids
    return ties


def seeded_knockout(
    prefix: str, top: str, bottom: str, *, ties: int = 8, legs: int = 2, rank_by=None
) -> BracketSpec:
    """A knockout seeded from two rankings (ANFPES T24 §2.2): first-round tie ``k`` is the
    ``k``-th of ``top`` v the ``(ties + 1 − k)``-th of ``bottom`` (best group winner v
    worst runner-up …); later rounds **[choice]** fixed, the winner of tie ``k`` meets the
    winner of tie ``n + 1 − k`` of the previous round. Tie ids ``<prefix>_round_of_16_1``
    … ``<prefix>_final``; outcome ``<prefix>_champion``."""
    if ties < 1 or ties & (ties - 1):
        raise LeagueRuleError(Reason("ties_power_of_two"))
    stage = f"{prefix}_{_round_code(ties)}"
    first = [
        TieSpec(
            stage if ties == 1 else f"{stage}_{k}",
            stage,
            position(top, k),
            position(bottom, ties + 1 - k),
            legs,
        )
        for k in range(1, ties + 1)
    ]
    specs = first + _later_rounds(prefix, [t.id for t in first], legs, "fold")
    return BracketSpec(
        prefix,
        tuple(specs),
        (
            (f"{prefix}_champion", winner(specs[-1].id)),
            (f"{prefix}_runner_up", loser(specs[-1].id)),
        ),
        rank_by=tuple(rank_by or (top, bottom)),
    )


def drawn_knockout(
    prefix: str, ranking: str = "ns_draw", *, entrants: int = 32, legs: int = 2
) -> BracketSpec:
    """A knockout from a draw order (Nucommunity Shit, ANFPES T24 §2.1 **[choice]**): tie
    ``k`` of the first round is drawn ``2k−1`` v drawn ``2k``; later rounds pair
    neighbours (winner of tie ``2j−1`` v winner of tie ``2j``). The draw order is also the
    rank for third-match home sides (earlier drawn hosts) **[choice]**."""
    if entrants < 2 or entrants & (entrants - 1):
        raise LeagueRuleError(Reason("drawn_knockout_power_of_two"))
    count = entrants // 2
    stage = f"{prefix}_{_round_code(count)}"
    first = [
        TieSpec(
            stage if count == 1 else f"{stage}_{k}",
            stage,
            position(ranking, 2 * k - 1),
            position(ranking, 2 * k),
            legs,
        )
        for k in range(1, count + 1)
    ]
    specs = first + _later_rounds(prefix, [t.id for t in first], legs, "adjacent")
    return BracketSpec(
        prefix,
        tuple(specs),
        (
            (f"{prefix}_champion", winner(specs[-1].id)),
            (f"{prefix}_runner_up", loser(specs[-1].id)),
        ),
        rank_by=(ranking,),
    )
