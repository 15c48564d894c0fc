"""The compliance table — "Tuxedo Mask" — and its reviews ("guadañazo").

Sources: docs/leagues.md "Compliance table"; ANFPES T24 §IV.1–§IV.8 and §III.4 ¶2. Units:
compliance points are ``int`` (2/1/0 per counted fixture and user), times are timezone-aware
``datetime`` (any offsets: they are compared as instants), ``ratio`` is an exact ``Fraction`` and
``percentage`` a ``Decimal`` with one fractional digit.

Rules as implemented (**[choice]** where the text is silent):

- Counted fixtures (docs/leagues.md "Compliance table", ANFPES T24 §IV.1): regular phases of both
  leagues, the Champagne League group stage, the Nucommunity Shit's first phase; set per
  competition/stage by the adapter (:func:`counts_by_default` gives the starting value). Only
  counted fixtures are passed to :func:`compute_compliance`. ``void`` fixtures are ignored.
- Per fixture, **both** users get 2 points if the result was posted (``reported_at``, the
  chat message time) by the initial deadline, 1 by the final deadline, 0 later (§IV.5).
  Deadlines are inclusive **to the minute** **[choice]**: chat times are shown in minutes,
  so a post at 23:59:59 meets a 23:59 deadline and one at 00:00 does not. A post after
  ``as_of`` is ignored (the table as it stood then).
- A fixture is *due* once its result is posted or its final deadline has passed; unposted
  and past the final deadline it scores 0 for both (§IV.4). ``max_points = 2 × due``,
  ``percentage = points / max_points`` (docs/leagues.md "Compliance table" **[choice]**);
  ``None`` with nothing due.
- Excuse (§IV.5–§IV.6): asked by one user with matchdays, reason and evidence; effective
  only if the opponent confirmed it and staff approved it. Then both get 2 points when the
  result is posted no later than the phase's closing date (``closes_at``; without one, any
  time). Unposted, it is not due until ``closes_at`` passes, then 0 for both.
- Concession (§IV.7): the conceding user gets 0 and the opponent 2, whenever the result is
  posted, and the fixture is due at once; it overrides an excuse **[choice]**. The match
  must still be played: an unplayed conceded fixture still reaps at a review.
- Walkover **[choice]** (the text does not cover it): the absent user(s) get 0; the user
  who showed up is not penalised (issue 14): 2 points once the walkover is recorded, on
  time or not — a walkover can only be recorded after the final deadline (§III.1,
  "habiéndose cumplido el plazo"), so scoring its recording time would give the present
  user 0 for the opponent's absence (outcome ``showed_up``; ``initial`` when posted by the
  initial deadline, as before).
- Review (§IV.3, docs/leagues.md "Compliance table"): at the end of each half of the round robin
  (and at season end), the users with a counted fixture unplayed past its final deadline (an
  effective excuse: past ``closes_at``) are *reaped*. Unplayed: no result posted by the
  review time; for a walkover, only the absent user(s) are reaped, the user who showed up
  is not at fault **[choice]**; otherwise both users of the fixture are reaped **[choice:
  the rule names no culprit]**. A review covers the fixtures of its ``phases`` — the
  adapter passes the half it closes (and the cup phases due then); ``None`` covers every
  counted fixture, so a first-half fixture still unplayed would reap again at the end.
  Users reaped at a ``season_end`` review also lose their Nucommunity Shit bonus points
  (§IV.2). Reaped users go to the end of the next draft
  (:mod:`leagues.rules.draft`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from leagues.rules.errors import LeagueRuleError

__all__ = [
    "COUNTED_BY_DEFAULT",
    "OUTCOMES",
    "POINTS_FINAL",
    "POINTS_INITIAL",
    "POINTS_LATE",
    "ComplianceFixture",
    "ComplianceRow",
    "ComplianceTable",
    "Excuse",
    "FixtureScore",
    "Review",
    "ReviewResult",
    "compute_compliance",
    "counts_by_default",
    "excuse_problems",
    "fixtures_from_matches",
    "on_time",
    "review",
    "score_fixture",
]

POINTS_INITIAL = 2
"""Result posted within the initial deadline (ANFPES T24 §IV.5)."""
POINTS_FINAL = 1
"""Result posted after the initial but within the final deadline (§IV.5)."""
POINTS_LATE = 0
"""Result posted after the final deadline, or not at all (§IV.5)."""

OUTCOMES = {
    "initial": "Posted by the initial deadline (2).",
    "final": "Posted by the final deadline (1).",
    "late": "Posted after the final deadline (0).",
    "unplayed": "Not posted and past its deadline (0).",
    "excused": "Excuse confirmed and approved, played within the phase (2).",
    "conceded": "This user conceded the fixture's compliance points (0).",
    "conceded_to": "The opponent conceded the fixture's compliance points (2).",
    "absent": "Absent in a walkover (0).",
    "showed_up": "Showed up in a walkover recorded after the deadlines (2).",
    "pending": "Not due yet: not counted.",
}
"""Stable codes of how a fixture was scored for a user (per-fixture detail)."""

COUNTED_BY_DEFAULT = {
    "round_robin": True,
    "group_stage": True,
    "knockout": False,
    "final_four": False,
    "zone": False,
    "promotion_mini_league": False,
}
"""Stage kinds (docs/leagues.md) → counted for compliance (docs/leagues.md "Compliance table",
ANFPES T24 §IV.1)."""


def counts_by_default(stage_kind: str, *, cup_first_phase: bool = False) -> bool:
    """Whether a stage counts for the compliance table unless staff change it.

    League regular phases (``round_robin``) and the Champagne League group stage
    (``group_stage``) count; knockouts, the Final Four, zones and the promotion mini-league
    do not (docs/leagues.md "Compliance table", ANFPES T24 §IV.1). ``cup_first_phase``: the first
    phase of the Nucommunity Shit, which counts whatever its format (§IV.1). Raises
    :class:`LeagueRuleError` for an unknown stage kind.
    """
    if stage_kind not in COUNTED_BY_DEFAULT:
        raise LeagueRuleError(f"unknown stage kind {stage_kind!r}")
    return cup_first_phase or COUNTED_BY_DEFAULT[stage_kind]


@dataclass(frozen=True, slots=True)
class Excuse:
    """A request to be excused for a fixture (ANFPES T24 §IV.5–§IV.6, docs/leagues.md
    "Compliance table").

    ``requested_by``: a user of the fixture; ``matchdays``: the league matchdays ("fechas")
    it covers; ``reason``; ``evidence``: attached screenshots (names or URLs; screenshots
    must be attached, §IV.6). It takes effect only when ``opponent_confirmed`` and
    ``staff_approved`` (:attr:`effective`).
    """

    requested_by: str
    matchdays: tuple[int, ...] = ()
    reason: str = ""
    evidence: tuple[str, ...] = ()
    opponent_confirmed: bool = False
    staff_approved: bool = False

    @property
    def effective(self) -> bool:
        """Confirmed by the opponent and approved by staff (§IV.5)."""
        return self.opponent_confirmed and self.staff_approved


@dataclass(frozen=True, slots=True)
class ComplianceFixture:
    """A counted fixture as the compliance table sees it.

    - ``home_user``/``away_user``: the users of the two teams.
    - ``initial_deadline``/``final_deadline``: the fixture's effective deadlines (after
      staff moves), aware ``datetime``.
    - ``reported_at``: when the result was posted, or ``None``.
    - ``status``/``absent``: as in the season file (docs/contracts.md §5).
    - ``excuse``: an :class:`Excuse` or ``None``; ``conceded_by``: the user who conceded
      the compliance points, or ``None``.
    - ``closes_at``: the closing date of the fixture's phase (half of the round robin,
      group stage), the limit of an excuse (§IV.5); ``phase``: a label reviews can filter
      on (e.g. ``"t24-primera-a/1"``); ``round``: the matchday, for display.
    """

    id: str
    home_user: str
    away_user: str
    initial_deadline: datetime
    final_deadline: datetime
    reported_at: datetime | None = None
    status: str = "scheduled"
    absent: str | None = None
    excuse: Excuse | None = None
    conceded_by: str | None = None
    closes_at: datetime | None = None
    phase: str | None = None
    round: int | None = None

    @property
    def users(self) -> tuple[str, str]:
        """``(home_user, away_user)``."""
        return self.home_user, self.away_user

    def absent_users(self) -> tuple[str, ...]:
        """The users absent in a walkover (none otherwise)."""
        if self.status != "walkover":
            return ()
        return tuple(
            user
            for side, user in (("home", self.home_user), ("away", self.away_user))
            if self.absent in (side, "both")
        )


@dataclass(frozen=True, slots=True)
class FixtureScore:
    """One user's score for one fixture: ``points`` (``None`` while not due), ``outcome``
    (a code of :data:`OUTCOMES`), ``due`` (counted in ``max_points``)."""

    fixture: str
    user: str
    points: int | None
    outcome: str
    due: bool


@dataclass(frozen=True, slots=True)
class Review:
    """A review ("guadañazo", ANFPES T24 §IV.3) held at ``at``: ``code`` names it (e.g.
    ``"first_half"``), ``season_end`` marks the one whose reaped users lose their cup bonus
    points (§IV.2), ``phases`` limits it to fixtures of those phases (``None``: all)."""

    code: str
    at: datetime
    season_end: bool = False
    phases: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """The users a :class:`Review` reaped, in first-seen order, and for each the unplayed
    fixture ids that caused it (``causes``)."""

    review: Review
    reaped: tuple[str, ...]
    causes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ComplianceRow:
    """A user's line (docs/contracts.md §6 ``compliance``: ``points``, ``max_points``,
    ``percentage``, ``reaped`` and per-fixture detail).

    ``ratio``: exact ``points / max_points`` (``None`` with nothing due), the value the
    draft orders by; ``percentage``: ``ratio × 100`` rounded half up to 0.1. ``reaped_in``:
    codes of the reviews that reaped the user; ``loses_cup_bonus``: reaped at season end.
    """

    user: str
    points: int
    max_points: int
    ratio: Fraction | None
    percentage: Decimal | None
    reaped: bool
    reaped_in: tuple[str, ...]
    loses_cup_bonus: bool
    fixtures: tuple[FixtureScore, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (docs/contracts.md §6): ``percentage`` as a number with one decimal."""
        return {
            "user": self.user,
            "points": self.points,
            "max_points": self.max_points,
            "percentage": None if self.percentage is None else float(self.percentage),
            "reaped": self.reaped,
            "reaped_in": list(self.reaped_in),
            "loses_cup_bonus": self.loses_cup_bonus,
            "fixtures": [
                {"fixture": f.fixture, "points": f.points, "outcome": f.outcome, "due": f.due}
                for f in self.fixtures
            ],
        }


@dataclass(frozen=True, slots=True)
class ComplianceTable:
    """Result of :func:`compute_compliance`: ``rows`` best first (ratio, then points, then
    the order users were first met **[choice]**) and the reviews held by ``as_of``."""

    as_of: datetime
    rows: tuple[ComplianceRow, ...]
    reviews: tuple[ReviewResult, ...]

    def row(self, user: str) -> ComplianceRow:
        """The row of ``user``; ``KeyError`` if absent."""
        for row in self.rows:
            if row.user == user:
                return row
        raise KeyError(user)

    @property
    def reaped(self) -> tuple[str, ...]:
        """Users reaped at any review so far, in table order."""
        return tuple(row.user for row in self.rows if row.reaped)


# ---------------------------------------------------------------------------------------


def _aware(value: datetime | None, name: str) -> None:
    if value is not None and (value.tzinfo is None or value.utcoffset() is None):
        raise LeagueRuleError(f"{name} needs a time zone (UTC offset)")


def _minute(value: datetime) -> datetime:
    return value.astimezone(UTC).replace(second=0, microsecond=0)


def on_time(posted: datetime, deadline: datetime) -> bool:
    """Whether ``posted`` meets ``deadline``, to the minute: true up to the last second of
    the deadline's minute (ANFPES T24 §IV; docs/leagues.md "Compliance table" **[choice]**). Both
    aware, any offsets."""
    _aware(posted, "the posting time")
    _aware(deadline, "the deadline")
    return _minute(posted) <= _minute(deadline)


def excuse_problems(excuse: Excuse, fixture: ComplianceFixture) -> tuple[str, ...]:
    """What keeps ``excuse`` from being valid for ``fixture`` (ANFPES T24 §IV.5–§IV.6): the
    requester is not one of its users, no matchday, no reason, no evidence attached, the
    fixture's matchday not covered. Empty when valid (confirmation and approval are
    separate steps: see :attr:`Excuse.effective`)."""
    problems = []
    if excuse.requested_by not in fixture.users:
        problems.append("the excuse must be requested by one of the fixture's users")
    if not excuse.matchdays:
        problems.append("say which matchdays the excuse is for")
    elif fixture.round is not None and fixture.round not in excuse.matchdays:
        problems.append("the excuse does not cover this fixture's matchday")
    if not excuse.reason.strip():
        problems.append("give the reason")
    if not excuse.evidence:
        problems.append("attach the screenshots that support it")
    return tuple(problems)


def _check(fixture: ComplianceFixture) -> None:
    where = f"fixture {fixture.id}"
    if fixture.home_user == fixture.away_user:
        raise LeagueRuleError(f"{where}: the two users must differ")
    if fixture.initial_deadline is None or fixture.final_deadline is None:
        raise LeagueRuleError(f"{where}: a counted fixture needs both deadlines")
    for name in ("initial_deadline", "final_deadline", "reported_at", "closes_at"):
        _aware(getattr(fixture, name), f"{where}: {name}")
    if fixture.final_deadline < fixture.initial_deadline:
        raise LeagueRuleError(f"{where}: the final deadline is before the initial one")
    if fixture.conceded_by is not None and fixture.conceded_by not in fixture.users:
        raise LeagueRuleError(f"{where}: only one of its users can concede")
    if fixture.excuse is not None and fixture.excuse.requested_by not in fixture.users:
        raise LeagueRuleError(f"{where}: the excuse must come from one of its users")
    if fixture.status == "walkover" and fixture.absent not in ("home", "away", "both"):
        raise LeagueRuleError(f"{where}: a walkover needs absent: home, away or both")


def score_fixture(fixture: ComplianceFixture, as_of: datetime) -> tuple[FixtureScore, ...]:
    """Both users' :class:`FixtureScore` for ``fixture`` as of ``as_of`` (ANFPES T24 §IV;
    docs/leagues.md "Compliance table"; the module docstring gives the rules); empty for a ``void``
    fixture. Raises
    :class:`LeagueRuleError` for naive times, equal users or a stranger's concession."""
    _check(fixture)
    _aware(as_of, "as_of")
    if fixture.status == "void":
        return ()
    posted = fixture.reported_at
    if posted is not None and _minute(posted) > _minute(as_of):
        posted = None
    absent = fixture.absent_users()

    def by_deadlines() -> tuple[int | None, str]:
        if posted is not None:
            if on_time(posted, fixture.initial_deadline):
                return POINTS_INITIAL, "initial"
            if on_time(posted, fixture.final_deadline):
                return POINTS_FINAL, "final"
            return POINTS_LATE, "late"
        if on_time(as_of, fixture.final_deadline):
            return None, "pending"
        return POINTS_LATE, "unplayed"

    def excused() -> tuple[int | None, str]:
        closes = fixture.closes_at
        if posted is not None:
            if closes is None or on_time(posted, closes):
                return POINTS_INITIAL, "excused"
            return by_deadlines()
        if closes is None or on_time(as_of, closes):
            return None, "pending"
        return POINTS_LATE, "unplayed"

    scores = []
    for user in fixture.users:
        if fixture.conceded_by is not None:
            points, outcome = (
                (POINTS_LATE, "conceded")
                if user == fixture.conceded_by
                else (POINTS_INITIAL, "conceded_to")
            )
        elif user in absent:
            points, outcome = POINTS_LATE, "absent"
        elif fixture.status == "walkover" and posted is not None:
            points, outcome = by_deadlines()
            if outcome != "initial":
                points, outcome = POINTS_INITIAL, "showed_up"
        elif fixture.excuse is not None and fixture.excuse.effective:
            points, outcome = excused()
        else:
            points, outcome = by_deadlines()
        scores.append(FixtureScore(fixture.id, user, points, outcome, points is not None))
    return tuple(scores)


def review(fixtures: Iterable[ComplianceFixture], held: Review) -> ReviewResult:
    """The users reaped by the review ``held`` (ANFPES T24 §IV.3, docs/leagues.md
    "Compliance table"): for each counted fixture (of ``held.phases``, if given) unplayed at
    ``held.at`` and past its limit (the final deadline, or ``closes_at`` with an effective excuse;
    to the minute), the absent user(s) of a walkover, else both users. See the module docstring."""
    _aware(held.at, "the review time")
    causes: dict[str, list[str]] = {}
    for fixture in fixtures:
        _check(fixture)
        if fixture.status == "void":
            continue
        if held.phases is not None and fixture.phase not in held.phases:
            continue
        if fixture.excuse is not None and fixture.excuse.effective:
            limit = fixture.closes_at
            if limit is None:
                continue
        else:
            limit = fixture.final_deadline
        if on_time(held.at, limit):
            continue  # the limit has not passed yet at the review
        if fixture.status == "walkover":
            culprits = fixture.absent_users()
        elif fixture.reported_at is not None and on_time(fixture.reported_at, held.at):
            culprits = ()
        else:
            culprits = fixture.users
        for user in culprits:
            causes.setdefault(user, []).append(fixture.id)
    return ReviewResult(held, tuple(causes), {u: tuple(ids) for u, ids in causes.items()})


def _percentage(ratio: Fraction | None) -> Decimal | None:
    if ratio is None:
        return None
    value = Decimal(ratio.numerator * 100) / Decimal(ratio.denominator)
    return value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def compute_compliance(
    fixtures: Iterable[ComplianceFixture],
    as_of: datetime,
    *,
    reviews: Sequence[Review] = (),
    users: Sequence[str] = (),
) -> ComplianceTable:
    """The compliance table as of ``as_of`` (docs/leagues.md "Compliance table", ANFPES T24 §IV).

    ``fixtures``: the counted fixtures of the season (all competitions that count);
    ``reviews``: the reviews planned or held — only those with ``at <= as_of`` apply;
    ``users``: users to list even without fixtures (first, in this order).
    Returns a :class:`ComplianceTable`; raises :class:`LeagueRuleError` for bad input.
    """
    _aware(as_of, "as_of")
    fixtures = list(fixtures)
    order: dict[str, int] = {user: i for i, user in enumerate(users)}
    scores: dict[str, list[FixtureScore]] = {user: [] for user in users}
    seen: set[str] = set()
    for fixture in fixtures:
        if fixture.id in seen:
            raise LeagueRuleError(f"fixture {fixture.id} is listed twice")
        seen.add(fixture.id)
        for score in score_fixture(fixture, as_of):
            order.setdefault(score.user, len(order))
            scores.setdefault(score.user, []).append(score)
    held = tuple(
        review(fixtures, r) for r in sorted(reviews, key=lambda r: r.at) if on_time(r.at, as_of)
    )
    rows = []
    for user, items in scores.items():
        due = [s for s in items if s.due]
        points = sum(s.points for s in due)
        max_points = POINTS_INITIAL * len(due)
        ratio = Fraction(points, max_points) if max_points else None
        reaped_in = tuple(r.review.code for r in held if user in r.reaped)
        rows.append(
            ComplianceRow(
                user=user,
                points=points,
                max_points=max_points,
                ratio=ratio,
                percentage=_percentage(ratio),
                reaped=bool(reaped_in),
                reaped_in=reaped_in,
                loses_cup_bonus=any(r.review.season_end and user in r.reaped for r in held),
                fixtures=tuple(items),
            )
        )
    rows.sort(key=lambda r: (r.ratio is None, -(r.ratio or 0), -r.points, order[r.user]))
    return ComplianceTable(as_of, tuple(rows), held)


def fixtures_from_matches(
    matches: Iterable[Any],
    users: Mapping[str, str],
    *,
    phase: str | None = None,
    closes_at: datetime | None = None,
    excuses: Mapping[str, Excuse] | None = None,
    concessions: Mapping[str, str] | None = None,
) -> tuple[ComplianceFixture, ...]:
    """:class:`ComplianceFixture` objects for season-file matches
    (:class:`~leagues.rules.season.Match`) of one counted phase: ``users`` maps team id →
    user; ``excuses`` and ``concessions`` (conceding user) are keyed by match id. Matches
    without both deadlines raise :class:`LeagueRuleError` (a counted fixture needs them)."""
    excuses = excuses or {}
    concessions = concessions or {}
    result = []
    for match in matches:
        if match.initial_deadline is None or match.final_deadline is None:
            raise LeagueRuleError(f"match {match.id}: a counted fixture needs both deadlines")
        result.append(
            ComplianceFixture(
                id=match.id,
                home_user=users[match.home],
                away_user=users[match.away],
                initial_deadline=match.initial_deadline,
                final_deadline=match.final_deadline,
                reported_at=match.reported_at,
                status=match.status,
                absent=match.absent,
                excuse=excuses.get(match.id),
                conceded_by=concessions.get(match.id),
                closes_at=closes_at,
                phase=phase,
                round=match.round,
            )
        )
    return tuple(result)
