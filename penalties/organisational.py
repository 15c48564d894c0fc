"""Organisational cases of the judges' guide (JG §5; docs/rules-vekn-penalties.md
"Organisational cases") as pure rules.

No ORM: services pass what happened and store the outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MIN_ROUND_MINUTES = 120
"""TR §3.1.1: rounds last at least two hours."""


def venue_interference_unsanctions(minutes_played: int, any_table_ended_on_time: bool) -> bool:
    """JG §5.2 Venue interference: the event becomes unsanctioned when a round lasted less
    than 2 hours **and** at least one of its tables ended on time (a table still playing at
    the forced stop does not by itself unsanction it). ``minutes_played`` ≥ 0; raises
    ``ValueError`` otherwise."""
    if minutes_played < 0:
        raise ValueError("minutes played cannot be negative")
    return minutes_played < MIN_ROUND_MINUTES and any_table_ended_on_time


@dataclass(frozen=True, slots=True)
class RoundState:
    """A round of the event for the force-majeure rule: its number, whether every result
    is in, and whether it is the final."""

    number: int
    complete: bool
    is_final: bool = False


@dataclass(frozen=True, slots=True)
class ForceMajeureOutcome:
    """JG §5.3: ``counted_rounds`` (preliminary round numbers that count), ``final_counts``
    (the final was completed before play stopped), ``no_winner`` (stopped during the
    final), ``void`` (no round was completed: the event is void)."""

    counted_rounds: tuple[int, ...]
    final_counts: bool
    no_winner: bool
    void: bool


def force_majeure(rounds: Sequence[RoundState]) -> ForceMajeureOutcome:
    """Standings after force majeure (JG §5.3): those after the last **fully completed**
    round; rounds after it (complete or not) and any incomplete round are ignored entirely;
    a final interrupted before its end gives no winner; no completed round → void."""
    prelim = sorted((r for r in rounds if not r.is_final), key=lambda r: r.number)
    counted: list[int] = []
    for r in prelim:
        if not r.complete:
            break
        counted.append(r.number)
    final = next((r for r in rounds if r.is_final), None)
    final_counts = bool(final and final.complete and len(counted) == len(prelim))
    return ForceMajeureOutcome(
        counted_rounds=tuple(counted),
        final_counts=final_counts,
        no_winner=bool(final and not final.complete),
        void=not counted,
    )
