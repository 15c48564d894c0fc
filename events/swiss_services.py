"""Mitos y Leyendas events (docs/rules-myl.md): the adapter between the pure rules
(``events.swiss`` pairs a round, ``standings.myl`` scores it) and the database.

A match is a ``Table`` of two ``Seat`` rows carrying ``games_won``; a bye is a ``Table``
with ``is_bye=True`` and one seat. Swiss rounds are ``Round`` rows numbered from 1; the
top cut follows as rounds with ``is_top_cut=True`` (the first one keeps the seeds, best
first, in ``Round.finalists``). Every change runs in one transaction, writes the audit
log and invalidates the public pages' cache, like ``events.services``.

Choices (documented in ``docs/rules-myl.md``, "Running an event"):

- Pairing a round needs the previous one complete. When no pairing without a rematch (or
  a second bye) exists, the organiser or head judge (permission ``run_final``, the one
  for the head judge's seating decisions) pairs it with rematches allowed — the fewest
  possible.
- Penalties: a confirmed ``game_loss`` makes the player lose the match of its round — or
  of their next match when they had a bye or no match in that round; a confirmed
  ``disqualification`` given *during a game* makes the opponent win that match. A player
  dropped or disqualified while their match is unplayed loses it (for a drop, the "Loss"
  seat ``events.services.set_status`` marks); an entered score takes precedence.
- Players may enter their own match's result (no confirmation by the opponent) while no
  result is entered; after that only staff change it.
- Once the top cut is paired, Swiss results are locked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import report_locks, rulesets, swiss
from events.audit import audit, own_repeat
from events.errors import ConflictError, UserError
from events.models import AuditLog, Event, Registration, Round, Seat, Table
from events.sanctions import refuse_blocked_players
from standings import myl
from standings.myl_services import (  # re-exported: the MyL pages use them from here
    Match,
    MylEventStandings,
    myl_standings,
    standings_csv_rows,
    standings_document,
    wins_needed,
)

__all__ = [
    "standings_csv_rows",
    "Match",
    "MatchOutcome",
    "MylEventStandings",
    "current_match",
    "cut_line_tie",
    "myl_standings",
    "pair_next_round",
    "pair_top_cut",
    "player_save_result",
    "repair_round",
    "round_label",
    "save_match_result",
    "standings_document",
]


# --------------------------------------------------------------------------- loading
class _Named:
    """A registration id that prints as the player's name, so the pairing rules' messages
    name people; equality and hash are the id's."""

    __slots__ = ("id", "name")

    def __init__(self, reg_id: int, name: str):
        self.id = reg_id
        self.name = name

    def __eq__(self, other):
        return isinstance(other, _Named) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return self.name


def _eligible(event: Event, number: int) -> list[int]:
    """Registration ids to pair in round ``number``: checked-in, competing players whose
    first round has come (late entries join with their 0 points)."""
    return list(
        event.registrations.filter(
            status=Registration.Status.CHECKED_IN, competing=True, first_round__lte=number
        )
        .order_by("id")
        .values_list("id", flat=True)
    )


def _pairing(event: Event, number: int, *, seed: int, allow_rematches: bool) -> swiss.Pairing:
    refuse_blocked_players(event)
    result = myl_standings(event)
    eligible = set(_eligible(event, number))
    if len(eligible) < 2:
        raise UserError(_("At least 2 checked-in players are needed to pair a round."))
    # Only the Swiss rounds before this one count (a re-pairing leaves out its own round).
    earlier = myl.StandingsInput(
        players=result.data.players,
        rounds=tuple(r for r in result.data.rounds if r.number < number),
        best_of=result.data.best_of,
        tie_breakers=result.data.tie_breakers,
        game_losses=tuple(g for g in result.data.game_losses if g.round < number),
        dropped=result.data.dropped,
        disqualified=result.data.disqualified,
        toss=result.data.toss,
    )
    named = {rid: _Named(rid, info.name) for rid, info in result.players.items()}
    entrants = [
        swiss.Entrant(
            player=named[e.player],
            match_points=e.match_points,
            rank=e.rank,
            opponents=frozenset(named[o] for o in e.opponents if o in named),
            had_bye=e.had_bye,
        )
        for e in myl.pairing_entrants(earlier)
        if e.player in eligible
    ]
    try:
        return swiss.pair_round(
            entrants, round_number=number, seed=seed, allow_rematches=allow_rematches
        )
    except swiss.PairingError as exc:
        raise UserError(
            _(
                "Round %(n)s cannot be paired without a rematch or a second bye: %(detail)s. "
                "The head judge can pair it with rematches allowed (the fewest possible)."
            )
            % {"n": number, "detail": str(exc)},
            field="rematches",
        ) from None


def _save_pairing(rnd: Round, pairing: swiss.Pairing) -> list:
    """Create the round's matches (table 1 first) and the bye (last table)."""
    specs = [(m.table, False, [m.player.id, m.opponent.id]) for m in pairing.matches]
    if pairing.bye is not None:
        specs.append((len(pairing.matches) + 1, True, [pairing.bye.id]))
    tables = Table.objects.bulk_create(
        [Table(round=rnd, number=n, is_bye=is_bye) for n, is_bye, _p in specs]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, round=rnd, registration_id=reg, position=pos)
            for table, (_n, _b, players) in zip(tables, specs, strict=True)
            for pos, reg in enumerate(players, start=1)
        ]
    )
    return [players for _n, _b, players in specs]


def _new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**62)


def _check_myl(event: Event) -> None:
    if not rulesets.of(event).pairs_matches:
        raise UserError(_("This is not a Mitos y Leyendas event."))
    if event.results_approved:
        raise UserError(_("The event's results are approved: reopen them first."))


def pair_next_round(
    event: Event, actor=None, *, allow_rematches: bool = False, seed: int | None = None
) -> Round:
    """Pair the next Swiss round (docs/rules-myl.md, ``events.swiss``) and store its seed.

    ``UserError`` when the previous round is not complete, every Swiss round is paired,
    the top cut has started, fewer than 2 players are checked in, or no pairing without a
    rematch exists (the message says so; ``allow_rematches=True`` is the head judge's
    fallback)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _check_myl(event)
        rounds = list(event.rounds.order_by("number"))
        if any(r.is_top_cut for r in rounds):
            raise UserError(_("The top cut has started: no more Swiss rounds."))
        if len(rounds) >= event.preliminary_rounds:
            raise UserError(_("All Swiss rounds are paired."))
        if rounds:
            result = myl_standings(event)
            if not result.round_complete(rounds[-1]):
                raise UserError(
                    _("Enter every result of round %(n)s first.") % {"n": rounds[-1].number}
                )
        number = len(rounds) + 1
        seed = _new_seed() if seed is None else seed
        pairing = _pairing(event, number, seed=seed, allow_rematches=allow_rematches)
        rnd = Round.objects.create(event=event, number=number, seed=seed)
        tables = _save_pairing(rnd, pairing)
        audit(
            event,
            actor,
            "round.pair",
            str(rnd),
            after={
                "tables": tables,
                "seed": seed,
                "allow_rematches": allow_rematches,
                "rematches": pairing.rematches,
                "pair_downs": pairing.pair_downs,
            },
        )
        page_cache.invalidate(event)
    return rnd


def repair_round(
    rnd: Round, actor=None, *, allow_rematches: bool = False, seed: int | None = None
) -> Round:
    """Pair the last Swiss round again with a new seed (a late check-in, a mistaken drop),
    only while none of its results is entered."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=rnd.event_id)
        _check_myl(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.is_top_cut:
            raise UserError(_("Top-cut matches follow the seeds: they are not paired again."))
        if event.rounds.filter(number__gt=rnd.number).exists():
            raise UserError(_("Only the last round can be paired again."))
        if Seat.objects.filter(round=rnd, games_won__isnull=False).exists():
            raise UserError(_("Results of this round are entered: it cannot be paired again."))
        before = _round_tables(rnd)
        seed = _new_seed() if seed is None else seed
        Seat.objects.filter(round=rnd).delete()
        Table.objects.filter(round=rnd).delete()
        pairing = _pairing(event, rnd.number, seed=seed, allow_rematches=allow_rematches)
        rnd.seed = seed
        rnd.save(update_fields=["seed"])
        tables = _save_pairing(rnd, pairing)
        audit(
            event,
            actor,
            "round.repair",
            str(rnd),
            {"tables": before},
            {"tables": tables, "seed": seed, "allow_rematches": allow_rematches},
        )
        page_cache.invalidate(event)
    return rnd


def _round_tables(rnd: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, reg in (
        Seat.objects.filter(round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "registration_id")
    ):
        tables.setdefault(number, []).append(reg)
    return list(tables.values())


# --------------------------------------------------------------------------- top cut
def pair_top_cut(event: Event, actor=None) -> Round:
    """Pair the next top-cut round: after the last Swiss round, the seeds from the
    standings (top 8: 1v8, 4v5, 2v7, 3v6; top 4: 1v4, 2v3); then the winners of
    consecutive matches meet, the better seed in seat 1. ``UserError`` when the event has
    no top cut, a Swiss or top-cut result is missing, or the champion is known."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _check_myl(event)
        if not event.top_cut:
            raise UserError(_("This event has no top cut."))
        refuse_blocked_players(event)
        result = myl_standings(event)
        rounds = result.rounds
        if len(result.swiss_rounds) < event.preliminary_rounds or not result.swiss_done:
            raise UserError(_("Play and enter every Swiss round first."))
        top = result.top_cut_rounds
        number = rounds[-1].number + 1
        if not top:
            seeds = tuple(result.standings.top_cut)
            if len(seeds) != event.top_cut:
                raise UserError(
                    _("A top %(n)s needs %(n)s players who have not dropped.")
                    % {"n": event.top_cut}
                )
            pairs = [list(p) for p in myl.top_cut_pairs(seeds)]
            rnd = Round.objects.create(
                event=event, number=number, is_top_cut=True, finalists=list(seeds)
            )
        else:
            last = top[-1]
            winners = [m.winner for m in result.matches[last.id]]
            if any(w is None for w in winners):
                raise UserError(
                    _("Enter the winner of every match of %(round)s first.")
                    % {"round": round_label(last, len(winners))}
                )
            if len(winners) == 1:
                raise UserError(
                    _("The top cut is over: %(name)s is the champion.")
                    % {"name": result.name(winners[0])}
                )
            seed_of = {p: i for i, p in enumerate(top[0].finalists)}
            pairs = [
                sorted(pair, key=lambda p: seed_of.get(p, len(seed_of)))
                for pair in zip(winners[::2], winners[1::2], strict=True)
            ]
            rnd = Round.objects.create(event=event, number=number, is_top_cut=True)
        tables = Table.objects.bulk_create(
            [Table(round=rnd, number=i) for i in range(1, len(pairs) + 1)]
        )
        Seat.objects.bulk_create(
            [
                Seat(table=table, round=rnd, registration_id=reg, position=pos)
                for table, pair in zip(tables, pairs, strict=True)
                for pos, reg in enumerate(pair, start=1)
            ]
        )
        audit(
            event,
            actor,
            "topcut.pair",
            str(rnd),
            after={"tables": [[result.code(p) for p in pair] for pair in pairs]},
        )
        page_cache.invalidate(event)
    return rnd


def cut_line_tie(result: MylEventStandings) -> list[int]:
    """Players fully tied across the top-cut line (every tie-breaker equal) once the Swiss
    is over and before the top cut is paired, unless a toss already orders them all. They
    are seeded in registration order unless the head judge records a toss (``manage:toss``,
    ``events.services.random_toss``) **[choice: a toss is offered, not required]**."""
    size = result.event.top_cut
    rows = result.standings.rows
    if not size or not result.swiss_done or result.top_cut_rounds or len(rows) <= size:
        return []
    eligible = [r for r in rows if not r.dropped]
    if len(eligible) <= size:
        return []
    inside, outside = eligible[size - 1], eligible[size]
    if inside.swiss_rank != outside.swiss_rank:
        return []
    tied = [r.player for r in eligible if r.swiss_rank == inside.swiss_rank]
    return [] if all(p in result.data.toss for p in tied) else tied


def round_label(rnd: Round, matches: int | None = None) -> str:
    """ "Round 3", or the top-cut stage by its number of matches: quarter-finals (4),
    semi-finals (2), final (1) (``events.rulesets.round_label``, the registry's
    ``top_cut_stages``)."""
    return rulesets.round_label(rnd, matches)


# --------------------------------------------------------------------------- results
def match_lock(table: Table, *, may_correct: bool) -> str | None:
    """Why the result of the match ``table`` (its round and event loaded) cannot be
    changed by this caller, or ``None`` when it can (docs/rules-myl.md): the event's
    results are approved, the top cut has started (Swiss results), the next top-cut round
    is paired, or the next round is paired and ``may_correct`` (a judge) is false. At most
    two queries. :func:`save_match_result` refuses with this message; the match page shows
    the result read-only with it."""
    rnd, event = table.round, table.round.event
    if event.results_approved:
        return _("The event's results are approved: reopen them first.")
    if not rnd.is_top_cut and event.rounds.filter(is_top_cut=True).exists():
        return _("The top cut has started: Swiss results are locked.")
    later = event.rounds.filter(number__gt=rnd.number).exists()
    if rnd.is_top_cut and later:
        return _("The next top-cut round is paired: this match is locked.")
    if later and not may_correct:
        return _("The next round is paired: only a judge can correct this match.")
    return None


@dataclass(frozen=True)
class MatchOutcome:
    version: int
    games: tuple[int | None, ...]


def parse_games(value) -> int | None:
    """One games entry: '' or None → not entered; digits → int; ``UserError`` else."""
    if value is None:
        return None
    text = str(value).strip()
    if text == "":
        return None
    if not text.isdigit() or len(text) > 2:
        raise UserError(_("“%(v)s” is not a number of games.") % {"v": text[:10]})
    return int(text)


def check_games(best_of: int, games: Sequence[int | None], *, top_cut: bool = False) -> None:
    """``UserError`` unless ``games`` (two entries) is a possible match result: each
    0..wins needed (2 in best-of-3, 1 in best-of-1), not both the wins needed; a draw is
    allowed (1–1 at time, 0–0) except in the top cut. Both empty clears the result."""
    if len(games) != 2:
        raise UserError(_("A match has two players."))
    a, b = games
    if a is None and b is None:
        return
    if a is None or b is None:
        raise UserError(_("Enter the games of both players (or neither, to clear the result)."))
    need = wins_needed(best_of)
    if not (0 <= a <= need and 0 <= b <= need):
        raise UserError(
            _("In a best-of-%(b)s match each player wins 0 to %(n)s games.")
            % {"b": best_of, "n": need}
        )
    if a == need and b == need:
        raise UserError(_("Both players cannot win %(n)s games.") % {"n": need})
    if top_cut and a == b:
        raise UserError(_("A top-cut match cannot end in a draw: enter who won."))


def _target(table: Table) -> str:
    return f"round {table.round.number} table {table.number}"


def save_match_result(
    table: Table,
    games: Sequence[int | None],
    *,
    version: int,
    actor=None,
    may_correct: bool = False,
    only_if_empty: bool = False,
    comment: str = "",
) -> MatchOutcome:
    """Save the games each player of a match won (seat order), as one transaction.

    ``version`` is the table version the form was loaded with: if somebody saved in
    between, ``ConflictError`` and nothing is saved. Refused for a bye, when the event's
    results are approved, for Swiss results once the top cut is paired, for a top-cut
    match once the next top-cut round is paired, and — unless ``may_correct`` (a judge) —
    once the next round is paired. ``only_if_empty``: refuse when a result is entered
    (a player's own entry)."""
    games = tuple(games)
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("round__event").get(pk=table.pk)
        rnd, event = table.round, table.round.event
        if table.version != version:
            last = (
                AuditLog.objects.filter(event=event, action="result.save", target=_target(table))
                .select_related("actor")
                .first()
            )
            stored = tuple(s.games_won for s in table.seats.order_by("position"))
            if own_repeat(table.version, version, last, actor) and stored == games:
                # The same person sent the same result twice (a double tap, a retry):
                # saved once, the second send answered as the first.
                return MatchOutcome(version=table.version, games=stored)
            who = last.actor.get_username() if last and last.actor else _("someone")
            raise ConflictError(
                _(
                    "%(who)s saved this match while you were typing. Nothing of yours was "
                    "saved: check the result now shown and enter your change again."
                )
                % {"who": who}
            )
        _check_myl(event)
        if table.is_bye:
            raise UserError(_("A bye is a won match: there is no result to enter."))
        if (locked := match_lock(table, may_correct=may_correct)) is not None:
            raise UserError(locked)
        seats = list(table.seats.select_for_update().order_by("position"))
        if only_if_empty and any(s.games_won is not None for s in seats):
            raise UserError(
                _("The result of this match is already entered: ask a judge to correct it.")
            )
        check_games(event.best_of, games, top_cut=rnd.is_top_cut)
        if len(seats) != 2:
            raise UserError(_("A match has two players."))
        before = [s.games_won for s in seats]
        for seat, won in zip(seats, games, strict=True):
            seat.games_won = won
        Seat.objects.bulk_update(seats, ["games_won"])
        table.version += 1
        table.save(update_fields=["version", "updated_at"])
        audit(
            event,
            actor,
            "result.save",
            _target(table),
            {"games": before},
            {"games": list(games)},
            comment=comment,
        )
        report_locks.close_for_judge(table, actor)
        page_cache.invalidate(event)
    return MatchOutcome(version=table.version, games=games)


def current_match(event: Event, reg: Registration) -> Seat | None:
    """The player's seat (with table and round) in the latest round they are paired in
    **whose pairings are published** (``Round.seating_published``), else ``None``. A round
    paired but not published yet is the staff's only, as the VEKN seating is
    (``events.views.seating_page``): the player neither sees their opponent nor enters a
    result before the judges publish it (docs/rules-myl.md, "The player's own match")."""
    return (
        Seat.objects.filter(round__event=event, registration=reg, round__seating_published=True)
        .select_related("table", "round")
        .order_by("-round__number")
        .first()
    )


def player_save_result(
    reg: Registration, own: int | None, opponent: int | None, *, version: int, actor=None
) -> MatchOutcome:
    """A player's result of their own current match saved at once, without the
    opponent's confirmation: their games and their opponent's; only while no result is
    entered, the round's pairings are published (``current_match``) and it is the last
    round. ``UserError`` otherwise. The pages no longer call it: a player's result waits
    for the opponent's confirmation or the event's countdown (``events.self_report``,
    docs/players.md "Reporting your table's result")."""
    if not reg.active:
        raise UserError(_("You are no longer playing in this event."))
    seat = current_match(reg.event, reg)
    if seat is None:
        raise UserError(_("You have no match yet."))
    if reg.event.rounds.filter(number__gt=seat.round.number).exists():
        raise UserError(_("This round is over: ask a judge to correct its result."))
    games = (own, opponent) if seat.position == 1 else (opponent, own)
    return save_match_result(
        seat.table,
        games,
        version=version,
        actor=actor,
        only_if_empty=True,
        comment="entered by a player",
    )


# --------------------------------------------------------------------------- documents
