"""VEKN standings adjustment timing (JG §1.1.3: which game an SA hits) and time
extensions (JG §1.2.4).

Pure, no ORM; re-exported by :mod:`penalties.vekn_guide`, which importers use. User-facing
page: ``docs/rules-vekn-penalties.md`` ("Standings adjustments", "Time extensions").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext

from penalties.levels import TimingCode
from penalties.vekn_terms import GUIDE

# ---------------------------------------------------------------------------------------
# Standings adjustment timing (JG §1.1.3; docs/rules-vekn-penalties.md "Standings adjustments")
# ---------------------------------------------------------------------------------------


Timing = TimingCode
"""When a penalty was issued (docs/contracts.md §1 ``timing``): the vocabulary's codes
(:class:`penalties.levels.TimingCode`), all four of which JG §1.1.3 uses."""


@dataclass(frozen=True, slots=True)
class AdjustmentIssue:
    """When a Standings Adjustment was issued.

    - ``timing``: a :class:`Timing` (or its code).
    - ``round``: for ``during_game``, the round of that game (required); for
      ``between_rounds``, the last round finished before it was issued — **[choice]**:
      ``round=2`` means "between rounds 2 and 3" (required); ignored otherwise.
    """

    timing: Timing
    round: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "timing", Timing(self.timing))


@dataclass(frozen=True, slots=True)
class AdjustmentTarget:
    """The game a Standings Adjustment hits (JG §1.1.3): ``round`` of that game (``None``
    if the person has played no game), ``rule`` (``"same_game"``, ``"next_game"``,
    ``"previous_game"``, ``"no_game"``), ``vp`` (−1.0), and an ``explanation`` in the active
    language."""

    round: int | None
    rule: str
    explanation: str
    vp: Decimal = Decimal("-1.0")
    source: str = f"{GUIDE} §1.1.3"


def adjustment_target(issue: AdjustmentIssue, games_played: Sequence[int]) -> AdjustmentTarget:
    """Which game's VP gets −1 for a Standings Adjustment (JG §1.1.3; docs/rules-vekn-penalties.md "Standings adjustments").

    ``games_played``: the rounds (numbers, the final included) in which the person sat at
    a table, in any order. Resolution: during game G → G; between rounds after round N or
    before round 1 → the next game played after that point; after the last game → the
    last game. When the game it should hit does not exist (no later game yet, event over,
    dropped, not a finalist; or no game in round G), it falls back to the next game played,
    else the last one before — so recompute when more games are played. Several SAs add
    up; VP may go negative (applied by the standings engine).

    Raises ``ValueError`` when ``round`` is missing for ``during_game`` or
    ``between_rounds``, or a round number is not a positive integer.
    """
    games = sorted(set(games_played))
    for game in games:
        if isinstance(game, bool) or not isinstance(game, int) or game < 1:
            raise ValueError(f"round numbers must be positive integers, not {game!r}")
    timing = issue.timing
    if timing in (Timing.DURING_GAME, Timing.BETWEEN_ROUNDS):
        if (
            issue.round is None
            or isinstance(issue.round, bool)
            or not isinstance(issue.round, int)
            or issue.round < 0
        ):
            raise ValueError(f"{timing.value} needs the round number")
    if not games:
        return AdjustmentTarget(
            None,
            "no_game",
            gettext("The person has played no game yet: the −1 VP waits for their next game."),
        )

    def after(n: int) -> int | None:
        return next((g for g in games if g > n), None)

    def last_up_to(n: int) -> int:
        return [g for g in games if g <= n][-1]

    match timing:
        case Timing.DURING_GAME:
            if issue.round in games:
                return AdjustmentTarget(
                    issue.round,
                    "same_game",
                    gettext("Given during the round %(round)s game: −1 VP on that game.")
                    % {"round": issue.round},
                )
            nxt = after(issue.round)
            if nxt is not None:
                return AdjustmentTarget(
                    nxt,
                    "next_game",
                    gettext(
                        "No game of this person in round %(round)s: −1 VP on their next "
                        "game (round %(next)s)."
                    )
                    % {"round": issue.round, "next": nxt},
                )
            prev = last_up_to(issue.round)
            return AdjustmentTarget(
                prev,
                "previous_game",
                gettext(
                    "No game of this person in round %(round)s and none after: −1 VP on "
                    "their previous game (round %(previous)s)."
                )
                % {"round": issue.round, "previous": prev},
            )
        case Timing.BETWEEN_ROUNDS | Timing.BEFORE_FIRST_ROUND:
            point = issue.round if timing is Timing.BETWEEN_ROUNDS else 0
            nxt = after(point)
            note = (
                gettext(
                    " (English text; the Spanish translation says the previous game — the "
                    "English is definitive.)"
                )
                if timing is Timing.BETWEEN_ROUNDS
                else ""
            )
            when = (
                gettext("between rounds, after round %(round)s") % {"round": point}
                if timing is Timing.BETWEEN_ROUNDS
                else gettext("before round 1 pairings")
            )
            if nxt is not None:
                return AdjustmentTarget(
                    nxt,
                    "next_game",
                    gettext(
                        "Given %(when)s: −1 VP on the next game the person plays (round %(next)s)."
                    )
                    % {"when": when, "next": nxt}
                    + note,
                )
            prev = games[-1]
            return AdjustmentTarget(
                prev,
                "previous_game",
                gettext(
                    "Given %(when)s, and the person has played no game since: −1 VP on their "
                    "previous game (round %(previous)s) unless they play again."
                )
                % {"when": when, "previous": prev},
            )
    prev = games[-1]
    return AdjustmentTarget(
        prev,
        "previous_game",
        gettext(
            "Given after the person's last game: −1 VP on that previous game (round %(previous)s)."
        )
        % {"previous": prev},
    )


# ---------------------------------------------------------------------------------------
# Time extensions (JG §1.2.4; docs/rules-vekn-penalties.md "Time extensions")
# ---------------------------------------------------------------------------------------

EXTENSION_CAP = 10
"""Minutes of extension per table per round, unless the head judge authorises more
(JG §1.2.4 "Multiple Time Extensions")."""


@dataclass(frozen=True, slots=True)
class ExtensionRequest:
    """Judge time at a table, for :func:`suggest_time_extension`.

    - ``minutes_spent``: judge time at the table (``Decimal``/``int``/``float`` ≥ 0).
    - ``already_granted``: minutes already granted to this table this round (int ≥ 0).
    - ``head_judge_authorised``: lifts the 10-minute cap (serious disruption).
    - ``scheduled_end``: the table's current end time, to show the new one (optional).
    """

    minutes_spent: Decimal | int | float
    already_granted: int = 0
    head_judge_authorised: bool = False
    scheduled_end: datetime | None = None


@dataclass(frozen=True, slots=True)
class ExtensionSuggestion:
    """A suggested time extension (JG §1.2.4), in whole minutes: ``minutes`` (0 = none),
    the range ``low``–``high`` the guide allows here, the table's ``total`` this round
    after it, whether the cap ``capped`` it, the table's ``new_end`` (when
    ``scheduled_end`` was given) and an ``explanation`` in the active language."""

    minutes: int
    low: int
    high: int
    total: int
    capped: bool
    explanation: str
    new_end: datetime | None = None
    source: str = f"{GUIDE} §1.2.4"


def suggest_time_extension(request: ExtensionRequest) -> ExtensionSuggestion:
    """Suggest a time extension from the judge's time at the table (JG §1.2.4).

    Baseline: under 1 min → none; 1 to under 3 min → +2; 3–5 min → +3 to +5; over 5 min →
    +5 to +10. Never more than the time actually lost: **[choice]** whole minutes, rounded
    down, so 1.5 min lost gives +1. Inside a range the suggestion is the time lost (the
    guide's example: 4 minutes → +4). Extensions stack per table and round, capped at 10
    minutes in total unless ``head_judge_authorised``.

    Raises ``ValueError`` for negative, non-finite or non-numeric inputs.
    """
    try:
        spent = Decimal(str(request.minutes_spent))
    except InvalidOperation:
        raise ValueError(f"minutes_spent is not a number: {request.minutes_spent!r}") from None
    if isinstance(request.minutes_spent, bool) or not spent.is_finite() or spent < 0:
        raise ValueError(f"minutes_spent must be a number ≥ 0, not {request.minutes_spent!r}")
    granted = request.already_granted
    if isinstance(granted, bool) or not isinstance(granted, int) or granted < 0:
        raise ValueError(f"already_granted must be an integer ≥ 0, not {granted!r}")
    lost = math.floor(spent)
    if spent < 1:
        low, high = 0, 0
        bracket = gettext("a brief ruling (under a minute): no extension is normally needed")
    elif spent < 3:
        low, high = 2, 2
        bracket = gettext("a standard ruling (1–3 minutes): +2 minutes")
    elif spent <= 5:
        low, high = 3, 5
        bracket = gettext("a complex investigation (3–5 minutes): +3 to +5 minutes")
    else:
        low, high = 5, 10
        bracket = gettext("a major disruption (over 5 minutes): +5 to +10 minutes")
    nominal = max(low, min(lost, high))
    minutes = min(nominal, lost)
    high = min(high, lost)
    low = min(low, high)
    lines = [
        gettext("Judge time %(spent)s min: %(bracket)s.")
        % {"spent": f"{spent.normalize():f}", "bracket": bracket}
    ]
    if minutes < nominal:
        lines.append(
            gettext("Never more than the time actually lost (%(lost)s min, whole minutes).")
            % {"lost": lost}
        )
    capped = False
    if not request.head_judge_authorised:
        room = max(0, EXTENSION_CAP - granted)
        if minutes > room:
            minutes, capped = room, True
            high, low = min(high, room), min(low, room)
            lines.append(
                gettext(
                    "Extensions at this table this round are capped at %(cap)s minutes "
                    "(%(granted)s already granted) unless the head judge authorises more."
                )
                % {"cap": EXTENSION_CAP, "granted": granted}
            )
    total = granted + minutes
    lines.append(
        gettext("Suggested: +%(minutes)s min (table total %(total)s min this round).")
        % {"minutes": minutes, "total": total}
        if granted
        else gettext("Suggested: +%(minutes)s min.") % {"minutes": minutes}
    )
    new_end = None
    if request.scheduled_end is not None:
        new_end = request.scheduled_end + timedelta(minutes=minutes)
    return ExtensionSuggestion(
        minutes=minutes,
        low=low,
        high=high,
        total=total,
        capped=capped,
        explanation=" ".join(lines),
        new_end=new_end,
    )
