"""Standings adapter: loads an event in a bounded number of queries (four, whatever its
size: registrations, rounds, seats, standings adjustments), builds the pure ``standings.vekn`` input and returns the result with the lookup
data pages and exports need."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from events import rulesets
from events.models import Event, Registration, Round, Seat
from penalties import services as penalty_services
from penalties.organisational import RoundState, force_majeure
from standings import ratings, vekn


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    code: str
    name: str
    vekn_number: str
    status: str
    first_name: str = ""
    last_name: str = ""
    """The name in two parts as the organiser gave them (both ``""``: not given)."""
    person_id: int | None = None


@dataclass(frozen=True)
class EventStandings:
    """``standings``: the computed ``vekn.Standings`` (player ids are registration ids);
    ``players``: registration id → ``PlayerInfo``; ``rounds``: rounds of the event."""

    event: Event
    standings: vekn.Standings
    players: dict[int, PlayerInfo]
    rounds: list[Round]
    games: dict[int, list[int]]
    prelims_done: bool = False
    """Every preliminary round is played: finalists and the toss are meaningful only then."""
    adjustments: dict[tuple[int, int], Decimal] = field(default_factory=dict)
    """What confirmed standings adjustments took (JG §1.1.3): (registration id, round
    number) → VP (negative), as the standings counted them; the pages show them."""
    rating_points: dict[int, int] | None = None
    """Registration id → rating points (TR Appendix A.2; ``standings.ratings``), disqualified
    players included; ``None`` while the final is not played or for an unrated event."""

    def code(self, reg_id: int) -> str:
        return self.players[reg_id].code

    def rows(self):
        """(StandingRow, PlayerInfo) pairs in standings order."""
        return [(row, self.players[row.player]) for row in self.standings.rows]


def event_standings(event: Event) -> EventStandings:
    """Compute the standings of ``event`` (TR §3.1, §3.7; docs/rules-vekn.md
    "Game Win and Tournament Points" to "Final") from the VP adjusted by confirmed standings
    adjustments (JG §1.1.3), in four queries: registrations with people, rounds, seats, adjustments.
    Rows carry rating points once the final is played (TR Appendix A; ``rating_points``).

    A Mitos y Leyendas event gets its own result instead
    (``standings.myl_services.MylEventStandings``, docs/rules-myl.md)."""
    spec = rulesets.of(event)
    if "standings" in spec.adapters:  # a ruleset with its own standings (MyL)
        return spec.adapter("standings").event_standings(event)
    all_regs = list(
        Registration.objects.filter(event=event).select_related("person").order_by("id")
    )
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    seats = list(
        Seat.objects.filter(round__event=event)
        .order_by("round__number", "table__number", "position")
        .values_list("round_id", "table_id", "registration_id", "vp", "loss")
    )
    prepared = _prepare(event, all_regs, rounds, seats)
    effects = penalty_services.standings_effects(event, prepared.games)
    return _compute(prepared, effects)


def many_event_standings(events: list[Event]) -> dict[int, EventStandings]:
    """:func:`event_standings` of many VEKN events at once (the rankings), in four queries
    whatever their number: registrations, rounds, seats, standings effects. Event id →
    standings; an event of a ruleset with its own standings is left out."""
    events = [e for e in events if "standings" not in rulesets.of(e).adapters]
    ids = [e.id for e in events]
    regs: dict[int, list[Registration]] = {i: [] for i in ids}
    for r in Registration.objects.filter(event_id__in=ids).select_related("person").order_by("id"):
        regs[r.event_id].append(r)
    rounds: dict[int, list[Round]] = {i: [] for i in ids}
    for r in Round.objects.filter(event_id__in=ids).order_by("number"):
        rounds[r.event_id].append(r)
    seats: dict[int, list] = {i: [] for i in ids}
    for row in (
        Seat.objects.filter(round__event_id__in=ids)
        .order_by("round__number", "table__number", "position")
        .values_list("round__event_id", "round_id", "table_id", "registration_id", "vp", "loss")
    ):
        seats[row[0]].append(row[1:])
    prepared = {e.id: _prepare(e, regs[e.id], rounds[e.id], seats[e.id]) for e in events}
    effects = penalty_services.standings_effects_many({i: p.games for i, p in prepared.items()})
    return {i: _compute(p, effects[i]) for i, p in prepared.items()}


@dataclass
class _Prepared:
    event: Event
    all_regs: list
    rounds: list
    seats: list
    substitutes: set
    number_of: dict
    games: dict


def _prepare(event, all_regs, rounds, seats) -> _Prepared:
    """The loaded rows of one event, cut by force majeure, and each player's games."""
    # A substitute (non-competing, JG §5.1.1) scores nothing: their seat is ranked last at
    # the table like a "Loss" and they never appear in the standings **[choice]**.
    substitutes = {r.id for r in all_regs if not r.competing}
    seats = [
        (round_id, table_id, reg, vp, loss or reg in substitutes)
        for round_id, table_id, reg, vp, loss in seats
    ]
    if event.force_majeure_at is not None:
        rounds, seats = _force_majeure_cut(rounds, seats)
    number_of = {r.id: r.number for r in rounds}
    games: dict[int, list[int]] = {}
    for round_id, _table, reg_id, _vp, _loss in seats:
        games.setdefault(reg_id, []).append(number_of[round_id])
    return _Prepared(event, all_regs, rounds, seats, substitutes, number_of, games)


def _compute(prepared: _Prepared, effects) -> EventStandings:
    """The standings of one prepared event with its penalties' ``effects``."""
    event, all_regs, rounds, seats = (
        prepared.event,
        prepared.all_regs,
        prepared.rounds,
        prepared.seats,
    )
    substitutes, number_of, games = prepared.substitutes, prepared.number_of, prepared.games
    regs = [r for r in all_regs if r.competing]
    adjustments = effects.adjustments
    final_round = next((r for r in rounds if r.is_final), None)

    played: set[int] = set()
    prelim: dict[int, dict[int, list[vekn.SeatResult]]] = {}
    final_seats: list[tuple[int, Decimal | None]] = []
    for round_id, table_id, reg_id, vp, loss in seats:
        played.add(reg_id)
        number = number_of[round_id]
        if final_round is not None and round_id == final_round.id:
            final_seats.append((reg_id, vp))
            continue
        prelim.setdefault(number, {}).setdefault(table_id, []).append(
            vekn.SeatResult(
                player=reg_id,
                vp=vp,
                vp_adjustment=adjustments.get((reg_id, number), Decimal(0)),
                loss=loss or (reg_id, number) in effects.dq_games,
            )
        )
    S = Registration.Status
    players = tuple(r.id for r in regs if r.id in played or r.status == S.CHECKED_IN) + tuple(
        sorted(substitutes & played)
    )
    toss = tuple(r.id for r in sorted(regs, key=lambda r: r.toss_position or 0) if r.toss_position)
    final = None
    if final_round is not None and not final_seats and final_round.finalists:
        # The final has started but is not seated yet: its finalists are fixed.
        final = vekn.FinalResult(seating=tuple(final_round.finalists), vps=None)
    if final_round is not None and final_seats:
        vps = tuple(vp for _, vp in final_seats)
        final = vekn.FinalResult(
            seating=tuple(reg for reg, _ in final_seats),
            vps=None if all(v is None for v in vps) else vps,
            vp_adjustments=tuple(
                adjustments.get((reg, final_round.number), Decimal(0)) for reg, _ in final_seats
            ),
        )
    data = vekn.StandingsInput(
        players=players,
        rounds=tuple(
            vekn.RoundResult(
                number=n,
                tables=tuple(vekn.TableResult(seats=tuple(t)) for t in tables.values()),
            )
            for n, tables in sorted(prelim.items())
        ),
        toss=toss,
        disqualified=frozenset(r.id for r in regs if r.status == S.DISQUALIFIED)
        | (substitutes & played),
        unavailable_for_final=frozenset(r.id for r in regs if r.status == S.DROPPED),
        finalists_count=event.finalists_count,
        has_final=event.has_final,
        final=final,
    )
    info = {
        r.id: PlayerInfo(
            r.id,
            r.code,
            r.person.name,
            r.person.vekn_number,
            r.status,
            r.person.first_name,
            r.person.last_name,
            r.person_id,
        )
        for r in regs
    }
    computed = vekn.compute_standings(data)
    prelim_numbers = {n for n in prelim}
    incomplete = {number_of[row[0]] for row in seats if row[3] is None}
    prelims_done = (
        event.force_majeure_at is not None
        or len([r for r in rounds if not r.is_final]) >= event.total_preliminary_rounds
    ) and not (prelim_numbers & incomplete)
    return EventStandings(
        event=event,
        standings=computed,
        players=info,
        rounds=rounds,
        games=games,
        prelims_done=prelims_done,
        adjustments={k: v for k, v in adjustments.items() if v},
        rating_points=_rating_points(event, computed, set(games) - substitutes),
    )


def _rating_points(event: Event, computed: vekn.Standings, seated: set[int]):
    """Rating points of the event's players (TR Appendix A.2; docs/rules-vekn.md "Ratings"):
    VP of the preliminaries and the final, preliminary GW, the final's finalists and
    winner; disqualified players get theirs from their preliminary totals. ``seated``:
    the competing players who sat in a counted round (N). ``None`` for an event that does
    not rate (``rates_players``, ``Event.rated``) or whose final is not played."""
    if not rulesets.of(event).rates_players or not event.rated or not computed.final_played:
        return None
    players = [
        ratings.PlayerResult(
            player=row.player,
            vp=row.prelim_vp + (row.final_vp or 0),
            gw=row.prelim_gw,
            finalist=row.finalist,
            winner=row.winner,
            seated=row.player in seated,
        )
        for row in computed.rows
    ] + [
        ratings.PlayerResult(player=player, vp=vp, gw=gw, seated=player in seated)
        for player, gw, vp, _rounds in computed.disqualified_totals
    ]
    return ratings.rating_points(
        ratings.EventResults(
            players=tuple(players),
            championship=event.championship or None,
            final_played=True,
        )
    )


def _force_majeure_cut(rounds, seats):
    """JG §5.3: keep only the rounds that count after force majeure (see
    ``penalties.organisational.force_majeure``)."""

    incomplete = {round_id for round_id, _t, _r, vp, _l in seats if vp is None}
    outcome = force_majeure(
        [RoundState(r.number, r.id not in incomplete, r.is_final) for r in rounds]
    )
    keep = {
        r.id
        for r in rounds
        if (not r.is_final and r.number in outcome.counted_rounds)
        or (r.is_final and outcome.final_counts)
    }
    return [r for r in rounds if r.id in keep], [row for row in seats if row[0] in keep]


def standings_document(result: EventStandings, *, public: bool = False) -> dict:
    """The standings JSON document of docs/contracts.md §2 (``arbitro`` API and
    ``standings --json``). Mitos y Leyendas rows carry ``match_points``, ``omw``, ``gw_pct``,
    ``ogw`` instead (``standings.myl_services.standings_document``). ``public``: the anonymous
    document, whose ``penalties`` are only the final ones that change the standings
    (``penalties.services.public_penalties``, docs/contracts.md §2); same keys."""
    spec = rulesets.of(result.event)
    if "standings" in spec.adapters:
        return spec.adapter("standings").standings_document(result, public=public)
    s = result.standings
    return {
        "event": result.event.slug,
        "ruleset": result.event.ruleset,
        "final_played": s.final_played,
        "standings": [
            {
                "rank": row.rank,
                "player": info.code,
                "name": info.name,
                "prelim_gw": row.prelim_gw,
                "prelim_vp": _vp(row.prelim_vp),
                "prelim_tp": row.prelim_tp,
                "finalist": row.finalist and result.prelims_done,
                "final_vp": None if row.final_vp is None else _vp(row.final_vp),
                "winner": row.winner,
                "toss": row.toss,
                "rating_points": row_rating_points(result, row.player),
            }
            for row, info in result.rows()
        ],
        "penalties": penalty_services.penalties_document(result.event, result.games, public=public),
    }


def row_rating_points(result: EventStandings, reg_id: int) -> int | None:
    """A row's rating points (docs/contracts.md §9), ``None`` when the event gives none."""
    if result.rating_points is None:
        return None
    return result.rating_points.get(reg_id)


def _vp(value: Decimal) -> float:
    """VP as a JSON number with one fractional digit (docs/contracts.md: 1.5, 2.0)."""
    return float(value.quantize(Decimal("0.1")))
