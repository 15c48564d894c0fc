"""The duplicate-offence guard: one incident logged twice is one penalty, not two.

Two judges (or one judge tapping twice, or a tablet syncing what another already sent)
can log the same offence of the same player within moments; counted twice it would
escalate the player's penalty (VEKN: JG §1.2.1, docs/rules-vekn-penalties.md
"Escalation"; MyL: docs/rules-myl-penalties.md "How a penalty is proposed"). **[choice]**
The same infraction code for the same person in the same event within :data:`WINDOW`
(3 minutes) of an earlier entry is taken for the same incident and refused, unless the judge says it is a new offence (the "This is a new offence" box on
the incident form, ``"again": true`` in an offline entry; docs/offline.md). A replay of
the same submission (same ``client_id``) is not a duplicate: it returns the saved penalty
before this guard is asked.

Pure: the adapters (``penalties.services.log_penalty`` and
``penalties.myl_services.log_penalty``) load the earlier entries and call :func:`check`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

WINDOW = timedelta(minutes=3)
"""How close (either way) an earlier entry of the same offence counts as the same one."""


@dataclass(frozen=True)
class Entry:
    """An incident being logged: its infraction ``code``, when the judge logged it (``at``,
    aware datetime; for an offline entry the tablet's time) and ``again``: the judge
    confirmed it is a new offence."""

    code: str
    at: datetime
    again: bool = False


@dataclass(frozen=True)
class Earlier:
    """A penalty already recorded for the same person in the same event: its id (``key``,
    opaque to the rule), infraction ``code`` and when it was logged (``at``, aware)."""

    key: int
    code: str
    at: datetime


def check(entry: Entry, earlier: Iterable[Earlier]) -> Earlier | None:
    """The earlier entry that ``entry`` duplicates (the latest of them), or ``None`` when it
    may be recorded: no earlier entry of the same code within :data:`WINDOW`, or the judge
    confirmed a new offence (``entry.again``)."""
    if entry.again:
        return None
    same = [e for e in earlier if e.code == entry.code and abs(entry.at - e.at) <= WINDOW]
    return max(same, key=lambda e: e.at, default=None)
