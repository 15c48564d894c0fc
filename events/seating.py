"""Preliminary-round seating: official criteria, scoring and optimisation.

Sources: VEKN Tournament Rules §3.1.2 ("TR §3.1.2"), for users ``docs/rules-vekn.md``
("Seating"). The nine criteria R1..R9, their weights and the way they are measured follow
the reference implementation behind the official VEKN Archon (``krcg.seating``, MIT), so
that :func:`score_rounds` gives exactly the same figures as ``krcg.seating.Score``.

Vocabulary (all positions are 1-based for people, 0-based in the code):

* A *table* is a list of 4 or 5 players in seat order, seat 1 first. Seat 1 plays
  first; a player's *prey* sits in the next seat, the *predator* in the previous one
  (wrapping around the table).
* A *seating* is the list of tables of one round; *rounds* is a list of seatings.
* Relations of a pair at a table, seen from one player: prey, grand-prey,
  grand-predator, predator (5-player table) or prey, cross-table, predator (4-player
  table). Prey and predator are *neighbours*, the others *non-neighbours*.
* Available VP per seat: the table size (krcg's convention; a constant shift of the
  VP a player can actually score, ``size - 1``, which leaves the standard deviation
  unchanged). Starting transfers per seat: 1, 2, 3, 4, 4 (seats 1..5).

This module is pure Python (standard library only) and has no database access. It is the
one importers use: the criteria, table sizes, swaps and scoring live in
:mod:`events.seating_rules`, the optimiser (:func:`seat_round`) in
:mod:`events.seating_search`; both are re-exported here.
"""

from __future__ import annotations

from events.seating_rules import (
    RULES,
    Rule,
    Seating,
    SeatingError,
    SeatingScore,
    Table,
    Violation,
    score_rounds,
    staggered_plan,
    swap_seats,
    table_sizes,
)
from events.seating_search import seat_round

# Re-exported: importers use this module.
__all__ = [
    "RULES",
    "Rule",
    "Seating",
    "SeatingError",
    "SeatingScore",
    "Table",
    "Violation",
    "score_rounds",
    "seat_round",
    "staggered_plan",
    "swap_seats",
    "table_sizes",
]
