"""Standings of Mitos y Leyendas events: the adapter between the stored matches and
penalties and the pure rules of :mod:`standings.myl` (docs/rules-myl.md "Standings and
tie-breakers", "Game loss penalty"). The ruleset registry (``events.rulesets``) names this
module as the MyL ``standings`` adapter: :func:`event_standings` and
:func:`standings_document`, as ``standings.services`` for VEKN events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from events import rulesets
from events.limits import csv_text
from events.models import Event, Registration, Round, Seat
from penalties import services as penalty_services
from penalties.models import Level, Penalty, Timing
from standings import myl
from standings.services import PlayerInfo


@dataclass(frozen=True)
class Seated:
    """One seat of a match as loaded (no model instance: a values row)."""

    registration_id: int
    position: int
    games_won: int | None
    loss: bool


@dataclass(frozen=True)
class Match:
    """A match (or a bye) of a round, with what the penalties make of it.

    ``winner``: the registration id that wins (``None`` for a draw or while it is being
    played); ``complete``: the match counts (entered, or decided by a penalty or a drop).
    """

    table_id: int
    number: int
    version: int
    is_bye: bool
    seats: tuple[Seated, ...]
    complete: bool = False
    winner: int | None = None
    penalised: frozenset[int] = frozenset()

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(s.registration_id for s in self.seats)

    @property
    def entered(self) -> bool:
        return not self.is_bye and all(s.games_won is not None for s in self.seats)


@dataclass(frozen=True)
class MylEventStandings:
    """The standings of a MyL event as loaded from the database (:func:`myl_standings`).

    ``standings``: the ``standings.myl.Standings`` (player ids are registration ids);
    ``players``: registration id → ``standings.services.PlayerInfo``; ``rounds``: every
    round; ``matches``: round id → its matches, table order; ``swiss_done``: every Swiss
    round is paired and complete; ``seeds``: the top cut's seeds once it is paired;
    ``note``: why the top cut is not shown in the ranks (inconsistent data), else ``None``.
    """

    event: Event
    standings: myl.Standings
    players: dict
    rounds: list[Round]
    matches: dict[int, list[Match]]
    data: myl.StandingsInput
    swiss_done: bool = False
    seeds: tuple[int, ...] = ()
    note: str | None = None
    ruleset: str = rulesets.MYL.code
    games: dict[int, list[int]] = field(default_factory=dict)

    def code(self, reg_id: int) -> str:
        return self.players[reg_id].code

    def name(self, reg_id: int | None) -> str:
        return "" if reg_id is None else self.players[reg_id].name

    def rows(self):
        """(StandingRow, PlayerInfo) pairs in standings order."""
        return [(row, self.players[row.player]) for row in self.standings.rows]

    @property
    def swiss_rounds(self) -> list[Round]:
        return [r for r in self.rounds if not r.is_top_cut]

    @property
    def top_cut_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.is_top_cut]

    @property
    def champion(self) -> int | None:
        """The top-cut winner: from the standings, or — when the ranks could not apply the
        top cut (``note``) — the winner of the played top-cut final."""
        if self.standings.champion is not None:
            return self.standings.champion
        top = self.top_cut_rounds
        final = self.matches.get(top[-1].id, []) if top else []
        if len(final) == 1 and self.event.top_cut and len(top) == {4: 2, 8: 3}[self.event.top_cut]:
            return final[0].winner
        return None

    def round_complete(self, rnd: Round) -> bool:
        matches = self.matches.get(rnd.id, [])
        return bool(matches) and all(m.complete for m in matches)


def wins_needed(best_of: int) -> int:
    return best_of // 2 + 1


def myl_standings(event: Event) -> MylEventStandings:
    """Standings of a MyL event from the database in four queries (registrations with
    people, rounds, seats with their tables, penalties), whatever its size.

    Confirmed game losses and mid-game disqualifications become ``standings.myl.GameLoss``
    inputs (see the module docstring); disqualified players are removed from the rows
    but their matches count for their opponents (``standings.myl``)."""

    regs = list(Registration.objects.filter(event=event).select_related("person").order_by("id"))
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    rows = (
        Seat.objects.filter(round__event=event)
        .order_by("round__number", "table__number", "position")
        .values_list(
            "round_id",
            "table_id",
            "table__number",
            "table__version",
            "table__is_bye",
            "registration_id",
            "position",
            "games_won",
            "loss",
        )
    )
    penalties = list(
        Penalty.objects.filter(
            event=event,
            level__in=[Level.GAME_LOSS, Level.DISQUALIFICATION],
            status=Penalty.Status.CONFIRMED,
            is_linked=False,
        )
        .order_by("created_at", "id")
        .values_list("registration_id", "level", "round_id", "round_number", "timing", "created_at")
    )
    by_id = {r.id: r for r in rounds}
    gone = {r.id for r in regs if r.status == Registration.Status.DISQUALIFIED}
    tables: dict[int, dict[int, dict]] = {r.id: {} for r in rounds}
    games: dict[int, list[int]] = {}
    for round_id, table_id, number, version, is_bye, reg, position, won, loss in rows:
        entry = tables[round_id].setdefault(
            table_id,
            {"number": number, "version": version, "is_bye": is_bye, "seats": []},
        )
        entry["seats"].append(Seated(reg, position, won, loss))
        games.setdefault(reg, []).append(by_id[round_id].number)

    # Where each player has a (non-bye) match, by round number.
    plays: dict[tuple[int, int], int] = {}
    for rnd in rounds:
        for table_id, t in tables[rnd.id].items():
            if not t["is_bye"]:
                for s in t["seats"]:
                    plays[(rnd.number, s.registration_id)] = table_id
    numbers = [r.number for r in rounds]
    penalised: dict[int, set[int]] = {}  # round number → registration ids losing its match
    for reg, level, round_id, round_number, timing, created_at in penalties:
        number = round_number or (by_id[round_id].number if round_id in by_id else None)
        if number is None:
            earlier = [r.number for r in rounds if r.created_at <= created_at]
            number = earlier[-1] if earlier else None
        if number is None:
            continue
        if level == Level.DISQUALIFICATION:
            if timing == Timing.DURING_GAME and (number, reg) in plays:
                penalised.setdefault(number, set()).add(reg)
            continue
        # A game loss in a round without a match of the player's goes to their next match.
        target = next((n for n in numbers if n >= number and (n, reg) in plays), None)
        if target is not None:
            penalised.setdefault(target, set()).add(reg)

    matches: dict[int, list[Match]] = {}
    for rnd in rounds:
        out = []
        lost_here = penalised.get(rnd.number, set())
        for table_id, t in sorted(tables[rnd.id].items(), key=lambda kv: kv[1]["number"]):
            seats = tuple(t["seats"])
            ids = [s.registration_id for s in seats]
            if t["is_bye"]:
                out.append(Match(table_id, t["number"], t["version"], True, seats, True, ids[0]))
                continue
            lost = {r for r in ids if r in lost_here}
            entered = all(s.games_won is not None for s in seats)
            if not entered:
                # Left (a drop's "Loss") or disqualified before playing it: the match is lost.
                lost |= {s.registration_id for s in seats if s.loss or s.registration_id in gone}
            winner = None
            if len(lost) == 1 and len(ids) == 2:
                winner = next(r for r in ids if r not in lost)
            elif not lost and entered and len(seats) == 2:
                a, b = seats[0].games_won, seats[1].games_won
                winner = ids[0] if a > b else (ids[1] if b > a else None)
            complete = entered or bool(lost)
            out.append(
                Match(
                    table_id,
                    t["number"],
                    t["version"],
                    False,
                    seats,
                    complete,
                    winner,
                    frozenset(lost),
                )
            )
        matches[rnd.id] = out

    competing = [r for r in regs if r.competing]
    played = {s.registration_id for ms in matches.values() for m in ms for s in m.seats}
    S = Registration.Status
    players = tuple(r.id for r in competing if r.id in played or r.status == S.CHECKED_IN)
    in_event = set(players)
    swiss_rounds = [r for r in rounds if not r.is_top_cut]
    top_rounds = [r for r in rounds if r.is_top_cut]
    swiss_input = []
    for rnd in swiss_rounds:
        results = []
        for m in matches[rnd.id]:
            if not all(p in in_event for p in m.players):
                continue  # a non-competing person seated by hand: not scored
            if m.is_bye:
                results.append(myl.MatchResult(player=m.players[0]))
            elif len(m.seats) == 2:
                a, b = m.seats
                # A drop's "Loss" on an unplayed match is scored as a game loss below.
                results.append(
                    myl.MatchResult(a.registration_id, b.registration_id, a.games_won, b.games_won)
                )
        swiss_input.append(myl.RoundResult(number=rnd.number, matches=tuple(results)))
    game_losses = tuple(
        myl.GameLoss(round=rnd.number, player=reg)
        for rnd in swiss_rounds
        for m in matches[rnd.id]
        for reg in sorted(m.penalised)
        if reg in in_event
    )
    seeds = tuple(top_rounds[0].finalists) if top_rounds else ()
    swiss_done = len(swiss_rounds) >= event.preliminary_rounds and all(
        all(m.complete for m in matches[r.id]) for r in swiss_rounds
    )
    winners: list[int] = []
    for rnd in top_rounds:
        decided = [m.winner for m in matches[rnd.id]]
        prefix = []
        for w in decided:
            if w is None:
                break
            prefix.append(w)
        winners.extend(prefix)
        if len(prefix) < len(decided):
            break
    dropped = {r.id for r in competing if r.status == S.DROPPED} - set(seeds)
    toss = tuple(
        r.id for r in sorted(competing, key=lambda r: r.toss_position or 0) if r.toss_position
    )
    base = {
        "players": players,
        "rounds": tuple(swiss_input),
        "best_of": event.best_of,
        "tie_breakers": ("match_points", *event.tie_breaker_order.split(",")),
        "game_losses": game_losses,
        "dropped": frozenset(dropped & in_event),
        "disqualified": frozenset(r.id for r in competing if r.status == S.DISQUALIFIED),
        "toss": toss,
    }
    note = None
    data = myl.StandingsInput(**base)
    if event.top_cut and (top_rounds or swiss_done):
        with_cut = myl.StandingsInput(
            **base, top_cut=myl.TopCut(size=event.top_cut, winners=tuple(winners))
        )
        try:
            standings = myl.compute_standings(with_cut)
        except ValueError as exc:
            standings = None
            note = str(exc)
        if standings is not None and seeds and tuple(standings.top_cut) != seeds:
            standings, note = None, "the Swiss standings changed after the top cut was paired"
        if standings is not None:
            data = with_cut
        else:
            standings = myl.compute_standings(data)
    else:
        standings = myl.compute_standings(data)
    info = {
        r.id: PlayerInfo(
            r.id,
            r.code,
            r.person.name,
            r.person.vekn_number,
            r.status,
            r.person.first_name,
            r.person.last_name,
        )
        for r in regs
    }
    return MylEventStandings(
        event=event,
        standings=standings,
        players=info,
        rounds=rounds,
        matches=matches,
        data=data,
        swiss_done=swiss_done,
        seeds=seeds,
        note=note if top_rounds else None,
        games=games,
    )


# --------------------------------------------------------------------------- pairing


def _pct(value) -> float:
    """A percentage for JSON: a number with two decimals (66.67), rounded half up."""
    return float(myl.percent(value))


def standings_document(result: MylEventStandings, *, public: bool = False) -> dict:
    """The standings JSON document of docs/contracts.md §2 for a MyL event: rows carry
    ``match_points``, ``omw``, ``gw_pct``, ``ogw`` (percentages 0–100 as numbers with two
    decimals, rounded half up) instead of the VEKN columns; ``top_cut`` gives the seeds and
    the bracket. ``public``: the anonymous document's penalties
    (``penalties.services.public_penalties``)."""

    s = result.standings
    toss = {p: i for i, p in enumerate(result.data.toss, start=1)}
    rows = []
    for row, info in result.rows():
        rows.append(
            {
                "rank": row.rank,
                "player": info.code,
                "name": info.name,
                "match_points": row.match_points,
                "omw": _pct(row.omw),
                "gw_pct": _pct(row.gw_pct),
                "ogw": _pct(row.ogw),
                "swiss_rank": row.swiss_rank,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "byes": row.byes,
                "dropped": row.dropped or info.status == "dropped",
                "top_cut": row.top_cut,
                "top_cut_result": row.top_cut_result,
                "winner": row.top_cut_result == "champion",
                "toss": toss.get(row.player),
            }
        )
    doc = {
        "event": result.event.slug,
        "ruleset": result.event.ruleset,
        "best_of": result.event.best_of,
        "final_played": result.champion is not None,
        "standings": rows,
    }
    if result.event.top_cut:
        doc["top_cut"] = {
            "size": result.event.top_cut,
            "seeds": [result.code(p) for p in (result.seeds or s.top_cut)],
            "bracket": [
                {
                    "stage": m.stage,
                    "match": m.number,
                    "players": [result.code(m.higher_seed), result.code(m.lower_seed)],
                    "winner": None if m.winner is None else result.code(m.winner),
                }
                for m in s.bracket
            ],
            "champion": None if result.champion is None else result.code(result.champion),
        }
    doc["penalties"] = penalty_services.penalties_document(
        result.event, result.games, public=public
    )
    return doc


def standings_csv_rows(result: MylEventStandings) -> list[list]:
    """Staff CSV export of a MyL event's standings; the player's code and name go through
    ``events.exports.csv_text`` (no spreadsheet formula), as the VEKN CSV."""
    out = [
        [
            "rank",
            "player",
            "name",
            "match_points",
            "wins",
            "draws",
            "losses",
            "byes",
            "omw",
            "gw_pct",
            "ogw",
            "top_cut_result",
            "status",
        ]
    ]
    for row, info in result.rows():
        out.append(
            [
                row.rank,
                csv_text(info.code),
                csv_text(info.name),
                row.match_points,
                row.wins,
                row.draws,
                row.losses,
                row.byes,
                f"{myl.percent(row.omw)}",
                f"{myl.percent(row.gw_pct)}",
                f"{myl.percent(row.ogw)}",
                row.top_cut_result or "",
                info.status,
            ]
        )
    return out


event_standings = myl_standings
"""The ``standings`` adapter's entry point (``events.rulesets``): as ``myl_standings``."""
