"""The ANFPES T24 format's post-season: stage codes, the Primera A playoffs, the Primera B
promotion playoffs and zones, the Liguilla de Promoción, relegation and next season's
divisions — built on the generic engine of :mod:`leagues.rules.bracket_engine`.

Sources: ANFPES T24 §1.1 (Primera A playoffs: 1v8 and 4v5 on one side, 2v7 and 3v6 on the
other; semi-finals in that bracket order as a Final Four; a two-legged final of 10-minute
matches; staff may drop the Final Four format, §1.1.6), §1.2 (15th and 16th relegated;
with abandonments staff decide, at least one team relegated directly; Liguilla: 14th v the
promotion-final loser, 12th and 13th v the zone winners), §1.3 (Primera B champion, or a
decider when tied on points; promotion playoffs 2v5, 3v4 and the promotion final; zones A
and B; 12th v the worse-placed zone winner, 13th v the better-placed), §III.4 (a suspended
Primera A team goes down). The divisions' table rules (§1.2.1 tie-breaker order, 3/1/0;
Primera B's title decider, §1.3.1) are :data:`PRIMERA_A`, :data:`PRIMERA_B` and
:data:`ANFPES_TIE_BREAKERS`, defined in :mod:`leagues.rules.table` (the default of its
``TableConfig``) and re-exported here so the whole format reads from this module. Page
for users: ``docs/leagues-final-phases.md`` ("Primera A", "Primera B"). The post-season
names are re-exported by :mod:`leagues.rules.brackets` (importers use it).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass

from leagues.rules.bracket_engine import (
    BracketSpec,
    FilledBracket,
    Standing,
    TieSpec,
    better_of,
    loser,
    position,
    winner,
    worse_of,
)
from leagues.rules.errors import LeagueRuleError
from leagues.rules.table import ANFPES_TIE_BREAKERS, PRIMERA_A, PRIMERA_B
from leagues.rules.texts import Reason

# Re-exported: the format's divisions and tie-breakers (defined in leagues.rules.table).
__all__ = [
    "ANFPES_TIE_BREAKERS",
    "LIGUILLA_TIES",
    "PRIMERA_A",
    "PRIMERA_B",
    "STAGES",
    "Move",
    "NextDivisions",
    "Relegation",
    "league_post_season",
    "liguilla",
    "next_divisions",
    "post_season_zones",
    "primera_a_playoffs",
    "primera_b_promotion",
    "relegation",
]

STAGES = {
    "a_quarter_finals": "Primera A playoffs: quarter-finals (ANFPES T24 §1.1.3)",
    "a_semi_finals": "Primera A playoffs: semi-finals, Final Four (§1.1.4)",
    "a_final": "Primera A playoffs: final (§1.1.5)",
    "b_promotion_semi_finals": "Primera B promotion playoffs: semi-finals (§1.3.2)",
    "b_promotion_final": "Primera B promotion final (§1.3.2)",
    "zone_a_semi_finals": "Post-season Zone A: semi-finals (§1.3.4)",
    "zone_a_final": "Post-season Zone A: final (§1.3.4)",
    "zone_b_semi_finals": "Post-season Zone B: semi-finals (§1.3.4)",
    "zone_b_final": "Post-season Zone B: final (§1.3.4)",
    "liguilla": "Liguilla de Promoción (§1.2.3, §1.3.5)",
}
"""League post-season stage codes (stable) → description."""

LIGUILLA_TIES = ("lig1", "lig2", "lig3")
"""Tie ids of the Liguilla de Promoción (used by :mod:`leagues.rules.cards` for the
yellow-card wipe)."""


# ---------------------------------------------------------------------------------------
# ANFPES T24 league post-season
# ---------------------------------------------------------------------------------------


def _pairing(first: int, second: int) -> Reason:
    """The name of a tie between two table positions: ``"1 v 8"``."""
    return Reason("tie_pairing", {"first": first, "second": second})


def _of_primera_a(position_a: int) -> Reason:
    """The name of a Liguilla tie by its Primera A position: ``"12th A"``."""
    return Reason("tie_liguilla", {"position": position_a})


def primera_a_playoffs(
    *, final_four: bool = True, semi_final_legs: int = 2, final_legs: int = 2, final_minutes=10
) -> BracketSpec:
    """Primera A Championship playoffs (ANFPES T24 §1.1.3–§1.1.6): ``qf1`` 1v8, ``qf2``
    4v5 | ``qf3`` 2v7, ``qf4`` 3v6; ``sf1`` = winners of qf1 and qf2, ``sf2`` = winners of
    qf3 and qf4 (the bracket order, a Final Four on one day when ``final_four``); ``final``
    of ``final_minutes``-minute matches. Outcomes ``champion_a``, ``runner_up_a``.
    ``final_four`` does not change the legs (module docstring)."""
    a = "primera_a"
    same_day = "final_four" if final_four else None
    ties = (
        TieSpec("qf1", "a_quarter_finals", position(a, 1), position(a, 8), name=_pairing(1, 8)),
        TieSpec("qf2", "a_quarter_finals", position(a, 4), position(a, 5), name=_pairing(4, 5)),
        TieSpec("qf3", "a_quarter_finals", position(a, 2), position(a, 7), name=_pairing(2, 7)),
        TieSpec("qf4", "a_quarter_finals", position(a, 3), position(a, 6), name=_pairing(3, 6)),
        TieSpec(
            "sf1",
            "a_semi_finals",
            winner("qf1"),
            winner("qf2"),
            semi_final_legs,
            same_day=same_day,
            name=Reason("tie_semi_final", {"n": 1}),
        ),
        TieSpec(
            "sf2",
            "a_semi_finals",
            winner("qf3"),
            winner("qf4"),
            semi_final_legs,
            same_day=same_day,
            name=Reason("tie_semi_final", {"n": 2}),
        ),
        TieSpec(
            "final",
            "a_final",
            winner("sf1"),
            winner("sf2"),
            final_legs,
            match_minutes=final_minutes,
            name=Reason("tie_final"),
        ),
    )
    return BracketSpec(
        "primera_a_playoffs",
        ties,
        (("champion_a", winner("final")), ("runner_up_a", loser("final"))),
        rank_by=("primera_a",),
    )


def primera_b_promotion() -> BracketSpec:
    """Primera B title and promotion playoffs (ANFPES T24 §1.3.1–§1.3.3): champion = 1st
    (after the decider if tied on points); ``psf1`` 2v5, ``psf2`` 3v4, ``pfinal``.
    Outcomes ``champion_b``, ``promoted_b`` (promotion-final winner) and
    ``promotion_final_loser`` (to the Liguilla)."""
    b = "primera_b"
    ties = (
        TieSpec(
            "psf1", "b_promotion_semi_finals", position(b, 2), position(b, 5), name=_pairing(2, 5)
        ),
        TieSpec(
            "psf2", "b_promotion_semi_finals", position(b, 3), position(b, 4), name=_pairing(3, 4)
        ),
        TieSpec(
            "pfinal",
            "b_promotion_final",
            winner("psf1"),
            winner("psf2"),
            name=Reason("tie_promotion_final"),
        ),
    )
    return BracketSpec(
        "primera_b_promotion",
        ties,
        (
            ("champion_b", position(b, 1)),
            ("promoted_b", winner("pfinal")),
            ("promotion_final_loser", loser("pfinal")),
        ),
        rank_by=("primera_b",),
    )


def post_season_zones() -> BracketSpec:
    """Primera B post-season zones (ANFPES T24 §1.3.4; inside a zone
    ``docs/leagues-final-phases.md`` "Primera B" **[choice]**): Zone A = the better-placed promotion semi-final loser, 7th, 8th, 11th
    (``za_sf1`` loser v 11th, ``za_sf2`` 7th v 8th, ``za_final``); Zone B = the worse-placed
    loser, 6th, 9th, 10th (``zb_sf1`` loser v 10th, ``zb_sf2`` 6th v 9th, ``zb_final``).
    Needs the ties ``psf1``/``psf2`` of :func:`primera_b_promotion` before it."""
    b = "primera_b"
    losers = (loser("psf1"), loser("psf2"))
    ties = (
        TieSpec("za_sf1", "zone_a_semi_finals", better_of(b, *losers), position(b, 11)),
        TieSpec("za_sf2", "zone_a_semi_finals", position(b, 7), position(b, 8)),
        TieSpec("za_final", "zone_a_final", winner("za_sf1"), winner("za_sf2")),
        TieSpec("zb_sf1", "zone_b_semi_finals", worse_of(b, *losers), position(b, 10)),
        TieSpec("zb_sf2", "zone_b_semi_finals", position(b, 6), position(b, 9)),
        TieSpec("zb_final", "zone_b_final", winner("zb_sf1"), winner("zb_sf2")),
    )
    return BracketSpec(
        "post_season_zones",
        ties,
        (("zone_a_winner", winner("za_final")), ("zone_b_winner", winner("zb_final"))),
        rank_by=("primera_b",),
        external=frozenset({"psf1", "psf2"}),
    )


def liguilla() -> BracketSpec:
    """Liguilla de Promoción (ANFPES T24 §1.2.3, §1.3.3, §1.3.5): ``lig1`` 12th of A v
    the zone winner worse placed in the B table, ``lig2`` 13th of A v the better-placed
    zone winner, ``lig3`` 14th of A v the promotion-final loser. Needs the ties of
    :func:`primera_b_promotion` and :func:`post_season_zones` before it."""
    a, b = "primera_a", "primera_b"
    zone_winners = (winner("za_final"), winner("zb_final"))
    ties = (
        TieSpec(
            "lig1", "liguilla", position(a, 12), worse_of(b, *zone_winners), name=_of_primera_a(12)
        ),
        TieSpec(
            "lig2", "liguilla", position(a, 13), better_of(b, *zone_winners), name=_of_primera_a(13)
        ),
        TieSpec("lig3", "liguilla", position(a, 14), loser("pfinal"), name=_of_primera_a(14)),
    )
    return BracketSpec(
        "liguilla",
        ties,
        tuple((f"{tie.id}_winner", winner(tie.id)) for tie in ties),
        rank_by=("primera_a", "primera_b"),
        external=frozenset({"za_final", "zb_final", "pfinal"}),
    )


def league_post_season(
    *, final_four: bool = True, semi_final_legs: int = 2, final_legs: int = 2
) -> BracketSpec:
    """The whole league post-season of ANFPES T24 (both divisions): Primera A playoffs,
    Primera B promotion, zones and Liguilla, with ``rank_by`` Primera A then Primera B."""
    return BracketSpec.combine(
        "league_post_season",
        primera_a_playoffs(
            final_four=final_four, semi_final_legs=semi_final_legs, final_legs=final_legs
        ),
        primera_b_promotion(),
        post_season_zones(),
        liguilla(),
    )


# ---------------------------------------------------------------------------------------
# Relegation and next season
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Relegation:
    """Direct relegation from Primera A (ANFPES T24 §1.2.1–§1.2.2).

    ``teams``: relegated directly (empty until known); ``rule``: ``"bottom_two"`` or
    ``"staff_decision"``; ``decision_required``: abandonments and no staff list yet, with
    ``proposal`` (the bottom two) to start from; ``waiting_for``: why ``teams`` is empty.
    """

    teams: tuple[Hashable, ...]
    rule: str | None
    decision_required: bool = False
    proposal: tuple[Hashable, ...] = ()
    waiting_for: Reason | None = None


def relegation(
    standing_a: Standing,
    *,
    override: Sequence[Hashable] | None = None,
    abandoned: Collection[Hashable] = (),
    places: int = 2,
) -> Relegation:
    """Who goes down directly from Primera A (module docstring). ``standing_a``: the final
    table; ``override``: the staff list (§1.2.2: at least one team, all of Primera A);
    ``abandoned``: teams that abandoned during the season — then the staff list is required.
    Raises :class:`LeagueRuleError` for an empty or foreign staff list."""
    if override is not None:
        override = tuple(override)
        if not override:
            raise LeagueRuleError("at least one team must be relegated directly (§1.2.2)")
        strangers = [t for t in override if t not in standing_a.order]
        if strangers or len(set(override)) != len(override):
            raise LeagueRuleError("the relegated teams must be distinct Primera A teams")
        return Relegation(override, "staff_decision")
    n = len(standing_a.order)
    bottom = tuple(standing_a.order[max(0, n - places) :])
    if abandoned:
        return Relegation(
            (),
            None,
            decision_required=True,
            proposal=bottom,
            waiting_for=Reason("waiting_abandoned"),
        )
    if not standing_a.closed:
        closing = Reason("waiting_table_to_close", {"table": "primera_a"})
        return Relegation((), None, proposal=bottom, waiting_for=closing)
    if any(p in standing_a.unresolved for p in range(n - places + 1, n + 1)):
        tie = Reason("waiting_tie_in_table")
        return Relegation((), None, proposal=bottom, waiting_for=tie)
    return Relegation(bottom, "bottom_two")


@dataclass(frozen=True, slots=True)
class Move:
    """A team changing division for next season: ``to`` is ``"primera_a"``,
    ``"primera_b"`` or ``"out"``; ``reason`` cites the rule (a
    :class:`~leagues.rules.texts.Reason`, code ``move_…``)."""

    team: Hashable
    to: str
    reason: Reason


@dataclass(frozen=True, slots=True)
class NextDivisions:
    """Result of :func:`next_divisions`: next season's divisions (``None`` while
    something is ``pending``), the ``moves`` known so far and what is ``pending``."""

    primera_a: tuple[Hashable, ...] | None
    primera_b: tuple[Hashable, ...] | None
    moves: tuple[Move, ...]
    pending: tuple[Reason, ...]
    stays: tuple[Move, ...] = ()
    """Teams of a decided Liguilla tie that keep their division (``to`` is it)."""


def next_divisions(
    filled: FilledBracket,
    primera_a: Sequence[Hashable],
    primera_b: Sequence[Hashable],
    *,
    relegated: Relegation | Sequence[Hashable],
    suspended: Collection[Hashable] = (),
    expelled: Collection[Hashable] = (),
) -> NextDivisions:
    """Next season's Primera A and Primera B from this season's results (module docstring).

    - ``filled``: the filled :func:`league_post_season` bracket (outcomes ``champion_b``,
      ``promoted_b`` and the Liguilla ties ``lig1``–``lig3``).
    - ``primera_a``/``primera_b``: this season's teams; ``relegated``: a
      :class:`Relegation` or the list of teams relegated directly.
    - ``suspended``: teams suspended until next season (§III.4: a Primera A one goes down;
      a Primera B one stays in B **[choice]**); ``expelled``: leave the league.

    Divisions keep this season's order, newcomers appended in the order of the moves.
    Raises :class:`LeagueRuleError` when a promoted team is not in Primera B or a relegated
    one not in Primera A.
    """
    a, b = list(primera_a), list(primera_b)
    moves: list[Move] = []
    stays: list[Move] = []
    pending: list[Reason] = []
    if isinstance(relegated, Relegation):
        if not relegated.teams:
            why = relegated.waiting_for
            pending.append(Reason("pending_waiting", {"what": "relegation", "why": why}))
        reason = Reason(
            "move_bottom_two" if relegated.rule == "bottom_two" else "move_staff_relegation"
        )
        relegated = relegated.teams
    else:
        reason = Reason("move_relegated")
    for team_id in relegated:
        moves.append(Move(team_id, "primera_b", reason))
    for code, why in (("champion_b", "move_champion_b"), ("promoted_b", "move_promoted_b")):
        slot = filled.outcomes.get(code)
        if slot is None or slot.team is None:
            waiting = slot.waiting_for if slot else Reason("waiting_not_in_bracket")
            pending.append(Reason("pending_waiting", {"what": code, "why": waiting}))
        else:
            moves.append(Move(slot.team, "primera_a", Reason(why)))
    for tie_id in LIGUILLA_TIES:
        view = filled.tie(tie_id)
        if view.winner is None or not view.stage_closed:
            pending.append(Reason("pending_liguilla", {"tie": tie_id}))
            continue
        where = {"tie": tie_id}
        if view.winner in b:
            moves.append(Move(view.winner, "primera_a", Reason("move_liguilla_promoted", where)))
            moves.append(Move(view.loser, "primera_b", Reason("move_liguilla_relegated", where)))
        else:
            stays.append(Move(view.winner, "primera_a", Reason("move_liguilla_stays_a", where)))
            stays.append(Move(view.loser, "primera_b", Reason("move_liguilla_stays_b", where)))
    for team_id in suspended:
        if team_id in a:
            moves.append(Move(team_id, "primera_b", Reason("move_suspended")))
    for team_id in expelled:
        moves.append(Move(team_id, "out", Reason("move_expelled")))
    problems = [
        f"{m.team} is not in {'Primera B' if m.to == 'primera_a' else 'Primera A'}"
        for m in moves
        if (m.to == "primera_a" and m.team not in b) or (m.to == "primera_b" and m.team not in a)
    ]
    if problems:
        raise LeagueRuleError(problems)
    if pending:
        return NextDivisions(None, None, tuple(moves), tuple(pending), tuple(stays))
    final: dict[Hashable, str] = {t: "primera_a" for t in a} | {t: "primera_b" for t in b}
    for move in moves:
        final[move.team] = move.to
    up = [m.team for m in moves if m.to == "primera_a"]
    down = [m.team for m in moves if m.to == "primera_b"]
    next_a = [t for t in a if final[t] == "primera_a"]
    next_a += [t for t in dict.fromkeys(up) if final[t] == "primera_a"]
    next_b = [t for t in b if final[t] == "primera_b"]
    next_b += [t for t in dict.fromkeys(down) if final[t] == "primera_b"]
    return NextDivisions(tuple(next_a), tuple(next_b), tuple(moves), (), tuple(stays))
