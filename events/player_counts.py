"""How many players an event has, counted one way for every page (issue 14: one event
showed 19, 16 and 17 players on three pages, each counting something else unsaid).

Pure: it takes ``(status, competing, first_round)`` of each registration and the latest
round's number, and returns :class:`PlayerCounts`. ``events.headcount.player_counts`` loads
them in one query; the pages show each count with its label
(``templates/events/_player_counts.html``). The definitions are explained to organisers
in docs/organisations.md "Player counts".
"""

from collections.abc import Iterable
from dataclasses import dataclass

REGISTERED = "registered"
CHECKED_IN = "checked_in"
DROPPED = "dropped"
DISQUALIFIED = "disqualified"
STATUSES = (REGISTERED, CHECKED_IN, DROPPED, DISQUALIFIED)
"""The stored codes of ``events.models.Registration.Status`` (``tests`` check they
match)."""


@dataclass(frozen=True)
class PlayerCounts:
    """The counts of one event, all of competing players except ``non_competing``.

    - ``registered``: every competing entrant, whatever their status:
      ``checked_in + not_checked_in + dropped + disqualified``;
    - ``checked_in``: checked in, ``playing + late``;
    - ``playing``: checked in and their first round has come (whom the current or next
      round seats);
    - ``late``: checked in late, joining from a round not seated yet (TR §3.3.1);
    - ``not_checked_in``: registered but not checked in;
    - ``dropped``, ``disqualified``: out of the event (they keep their results);
    - ``non_competing``: people registered only to receive a penalty or to substitute
      (JG §5.1.1), never counted as players;
    - ``waitlisted``: people waiting for a place in a full event (docs/players.md "The
      waitlist"): not registered, so in none of the counts above.
    """

    registered: int = 0
    checked_in: int = 0
    playing: int = 0
    late: int = 0
    not_checked_in: int = 0
    dropped: int = 0
    disqualified: int = 0
    non_competing: int = 0
    waitlisted: int = 0

    @property
    def still_in(self) -> int:
        """Players not out of the event: checked in or still to check in."""
        return self.checked_in + self.not_checked_in

    @property
    def out(self) -> int:
        """Players out of the event: dropped or disqualified."""
        return self.dropped + self.disqualified


def count_players(
    rows: Iterable[tuple[str, bool, int]], latest_round: int, waitlisted: int = 0
) -> PlayerCounts:
    """The :class:`PlayerCounts` of the registrations ``rows`` — ``(status code,
    competing, first round)`` each — when the latest round seated or paired is number
    ``latest_round`` (0 before the first), with ``waitlisted`` people on the waitlist
    (≥ 0). ``ValueError`` for an unknown status or a negative waitlist."""
    if waitlisted < 0:
        raise ValueError("waitlisted must be >= 0")
    totals = dict.fromkeys(
        ("registered", "checked_in", "playing", "late", "not_checked_in", "dropped"), 0
    )
    totals |= {"disqualified": 0, "non_competing": 0, "waitlisted": waitlisted}
    current = max(latest_round, 1)
    for status, competing, first_round in rows:
        if status not in STATUSES:
            raise ValueError(f"unknown registration status {status!r}")
        if not competing:
            totals["non_competing"] += 1
            continue
        totals["registered"] += 1
        if status == CHECKED_IN:
            totals["checked_in"] += 1
            totals["playing" if first_round <= current else "late"] += 1
        elif status == REGISTERED:
            totals["not_checked_in"] += 1
        else:
            totals[status] += 1
    return PlayerCounts(**totals)
