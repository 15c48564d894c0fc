"""Which events a suspension or permanent ban keeps a person out of (issue 12: trust
between organisations). Pure Python: dataclasses in, a verdict out, no ORM; the adapter
is ``events.sanctions.blocking_sanction``.

The rule (docs/rules-myl-penalties.md and docs/rules-vekn-penalties.md, "Sanctions beyond
the event"): a live sanction blocks an event on day D when

1. it covers D (not lifted; D from its first day, up to its last day or for ever);
2. it is of the event's ruleset — **[choice]** a sanction never blocks another ruleset's
   events: there it is shown as context only; and
3. either the event belongs to the issuing organisation (the event that gave it applies
   it at once in its own organisation), or the ruleset's national authority confirmed it
   (the Mitos y Leyendas Organised Play manager, MyL conduct rules §4.5; the VEKN
   national coordinator). A sanction the authority gave itself (an escalated VEKN
   disqualification) has no issuing organisation and is confirmed at creation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum


class Reach(StrEnum):
    """Why a sanction blocks an event, or why not. Stored nowhere; shown on pages."""

    LIFTED = "lifted"
    OUTSIDE_PERIOD = "outside_period"
    OTHER_RULESET = "other_ruleset"
    PENDING_AUTHORITY = "pending_authority"
    ISSUING_ORGANISATION = "issuing_organisation"
    CONFIRMED = "confirmed"


BLOCKING = frozenset({Reach.ISSUING_ORGANISATION, Reach.CONFIRMED})


@dataclass(frozen=True)
class SanctionFacts:
    """What the rule needs of a sanction: ``ends_on`` ``None`` for a permanent ban;
    ``organisation_id`` ``None`` when the authority gave it."""

    starts_on: dt.date
    ends_on: dt.date | None
    ruleset: str
    organisation_id: int | None
    confirmed: bool
    lifted: bool = False


@dataclass(frozen=True)
class EventFacts:
    """What the rule needs of an event: its day, ruleset and organisation."""

    date: dt.date
    ruleset: str
    organisation_id: int


def covers(sanction: SanctionFacts, day: dt.date) -> bool:
    """Whether ``day`` falls in the sanction and it was not lifted (MyL conduct §4.1)."""
    if sanction.lifted or day < sanction.starts_on:
        return False
    return sanction.ends_on is None or day <= sanction.ends_on


def reach(sanction: SanctionFacts, event: EventFacts) -> Reach:
    """Whether (and why) ``sanction`` keeps its person out of ``event``: one of
    :data:`BLOCKING` blocks, any other value does not. Checked in this order: lifted,
    period, ruleset, issuing organisation, the authority's confirmation."""
    if sanction.lifted:
        return Reach.LIFTED
    if not covers(sanction, event.date):
        return Reach.OUTSIDE_PERIOD
    if sanction.ruleset != event.ruleset:
        return Reach.OTHER_RULESET
    if sanction.organisation_id is not None and sanction.organisation_id == event.organisation_id:
        return Reach.ISSUING_ORGANISATION
    if sanction.confirmed:
        return Reach.CONFIRMED
    return Reach.PENDING_AUTHORITY


def blocks(sanction: SanctionFacts, event: EventFacts) -> bool:
    """Whether ``sanction`` keeps its person out of ``event`` (:func:`reach`)."""
    return reach(sanction, event) in BLOCKING
