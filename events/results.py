"""The public results page's rounds, and what changed a score there (issue 14).

:func:`rounds_overview` loads every round's tables and seats at once — a bounded number of
queries whatever the number of rounds — and marks on each seat what a penalty changed:

- VEKN: a standings adjustment's −1 VP on the game it hits (JG §1.1.3;
  ``penalties.services.standings_effects``), as ``seat.vp_adjustment``;
- Mitos y Leyendas: a match lost by penalty (a game loss, a disqualification during the
  match; conduct rules §3, docs/rules-myl-penalties.md), as ``seat.penalised``, from the
  ruleset's standings adapter (``standings.myl_services``), which decides it.

Only confirmed, unlinked penalties count, as in the standings themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from decimal import Decimal

from django.db.models import Sum

from events import rulesets
from events.models import Event, Round, Seat, Table
from events.services import table_check
from penalties import services as penalty_services


def rounds_overview(event: Event, rounds: Sequence[Round]) -> list[tuple[Round, list[dict]]]:
    """``[(round, tables)]`` in the order of ``rounds`` (rounds of ``event``), each table a
    dict as ``events.services.round_overview`` gives (``table``, ``seats``, ``check``,
    ``extension``, ``end``), each seat carrying ``vp_adjustment`` (a negative ``Decimal``
    or ``None``) and ``penalised`` (bool). Four queries, plus the standings adapter's own
    (bounded) ones for a ruleset that has one."""
    rounds = list(rounds)
    if not rounds:
        return []
    ids = [r.id for r in rounds]
    tables = list(
        Table.objects.filter(round_id__in=ids)
        .annotate(extension=Sum("extensions__minutes"))
        .order_by("round_id", "number")
    )
    seats = list(
        Seat.objects.filter(round_id__in=ids)
        .select_related("registration__person")
        .order_by("table__number", "position")
    )
    number_of = {r.id: r.number for r in rounds}
    adjustments, penalised = _score_marks(event, number_of)
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        seat.vp_adjustment = adjustments.get((seat.registration_id, number_of[seat.round_id]))
        seat.penalised = (seat.table_id, seat.registration_id) in penalised
        by_table.setdefault(seat.table_id, []).append(seat)
    by_round: dict[int, list[dict]] = {r.id: [] for r in rounds}
    round_of = {r.id: r for r in rounds}
    for table in tables:
        rnd = round_of[table.round_id]
        table_seats = by_table.get(table.id, [])
        minutes = event.final_minutes if rnd.is_final else event.round_minutes
        extension = table.extension or 0
        end = rnd.started_at + timedelta(minutes=minutes + extension) if rnd.started_at else None
        by_round[rnd.id].append(
            {
                "table": table,
                "seats": table_seats,
                "check": table_check([s.vp for s in table_seats if not s.loss]),
                "extension": extension,
                "end": end,
            }
        )
    return [(r, by_round[r.id]) for r in rounds]


def _score_marks(
    event: Event, number_of: dict[int, int]
) -> tuple[dict[tuple[int, int], Decimal], set[tuple[int, int]]]:
    """(VP adjustments by (registration, round number), {(table id, registration)} of
    matches lost by penalty). A ruleset with its own standings (``standings`` adapter)
    says which matches a penalty decided; the others' adjustments come from the VEKN
    judges' guide (``penalties.services.standings_effects``, one query)."""
    spec = rulesets.of(event)
    if "standings" in spec.adapters:
        result = spec.adapter("standings").event_standings(event)
        lost = {
            (m.table_id, reg)
            for round_id in number_of
            for m in result.matches.get(round_id, [])
            for reg in m.penalised
        }
        return {}, lost
    # Every game of the event, shown or not: an adjustment hits a game counted among all
    # of the player's (JG §1.1.3), whatever rounds this page shows.
    games: dict[int, list[int]] = {}
    for reg, number in (
        Seat.objects.filter(round__event=event)
        .order_by("round__number")
        .values_list("registration_id", "round__number")
    ):
        games.setdefault(reg, []).append(number)
    return penalty_services.standings_effects(event, games).adjustments, set()
