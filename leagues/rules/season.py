"""The ``arbitro.season/1`` file (docs/contracts.md §5) read into frozen dataclasses.

:func:`parse_season` takes the decoded JSON (``dict``) and returns a :class:`Season`, or
raises :class:`~leagues.rules.errors.LeagueRuleError` listing **every** problem with its
location (``competition t24-primera-a, match m7: …``), so that ``import_season`` can be
all-or-nothing (docs/contracts.md §1, §5). No database: the adapter saves what this returns.

The dataclasses here (:class:`Match`, :class:`Adjustment`) are also what
:mod:`leagues.rules.table` and :mod:`leagues.rules.fixtures` consume and produce.

Field names are the contract's and are stable (docs/architecture.md "Rules of the house").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from events.limits import FREE_TEXT_MAX_LENGTH, MAX_YEAR, MIN_YEAR, in_date_window
from leagues.rules.errors import LeagueRuleError

__all__ = [
    "ABSENT_VALUES",
    "CARD_VALUES",
    "COMPETITION_KINDS",
    "FORMAT",
    "MATCH_STATUSES",
    "Adjustment",
    "Card",
    "Competition",
    "Match",
    "Season",
    "Team",
    "parse_season",
]

FORMAT = "arbitro.season/1"
"""The ``format`` value of a season file (docs/contracts.md §5)."""

COMPETITION_KINDS = ("league", "groups", "knockout")
"""``kind`` of a competition (docs/contracts.md §5)."""

MATCH_STATUSES = ("scheduled", "played", "walkover", "void")
"""``status`` of a match (docs/contracts.md §5). ``void``: annulled, e.g. the remaining fixtures of
a team that abandoned when staff chose to annul them (docs/leagues.md "Tables", ANFPES T24
§III.4)."""

ABSENT_VALUES = ("home", "away", "both")
"""``absent`` of a walkover: who did not show up (docs/contracts.md §5, ANFPES T24 §III.1)."""

CARD_VALUES = ("yellow", "red")
"""``card`` of a booking (docs/contracts.md §5). A second yellow in one match is two ``yellow``
entries; the suspension rules derive the red from them (ANFPES T24 §1.4, §2.2;
docs/leagues-final-phases.md "Cards and suspensions")."""


@dataclass(frozen=True, slots=True)
class Team:
    """A team of the season; each team is one human player, ``user`` (docs/leagues.md)."""

    id: str
    name: str
    user: str


@dataclass(frozen=True, slots=True)
class Card:
    """A booking shown in a match (docs/contracts.md §5 ``cards``; ANFPES T24 §1.4, §2.2;
    docs/leagues-final-phases.md "Cards and suspensions"). ``squad``: the id of the squad
    footballer when known (docs/leagues.md "Squads"), else ``None`` (a typed name)."""

    team: str
    footballer: str
    card: str
    squad: int | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """One fixture of a competition, as in the season file (docs/contracts.md §5).

    - ``round``: the matchday (1-based) for ``league``/``groups``; for ``knockout`` the
      file's round number.
    - ``home_goals``/``away_goals``: ``int >= 0``, both ``None`` while unplayed. For a
      walkover they may be omitted: the table then uses 1–0 for the team that showed up
      (ANFPES T24 §III.1).
    - ``status``: one of :data:`MATCH_STATUSES`; ``absent``: one of :data:`ABSENT_VALUES`,
      only (and always) for ``walkover``.
    - ``reported_at``: when the result (screenshot) was posted — the reference time of the
      compliance table (ANFPES T24 §IV; docs/leagues.md "Compliance table");
      ``initial_deadline``/``final_deadline``: the fixture's effective deadlines. All three are
      timezone-aware ``datetime`` or ``None``.
    - ``penalties``: ``(home, away)`` shoot-out score or ``None``; ``extra_time``: as given
      in the file (``None``, ``True``/``False`` or a ``(home, away)`` score) **[choice: the
      contract does not fix its type]**.
    - ``tie``/``leg``: knockout only (``leg`` 1, 2 or 3; 3 is the single third match).
    """

    id: str
    round: int
    home: str
    away: str
    home_goals: int | None = None
    away_goals: int | None = None
    status: str = "scheduled"
    absent: str | None = None
    reported_at: datetime | None = None
    initial_deadline: datetime | None = None
    final_deadline: datetime | None = None
    extra_time: Any = None
    penalties: tuple[int, int] | None = None
    stream_url: str | None = None
    cards: tuple[Card, ...] = ()
    tie: str | None = None
    leg: int | None = None


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One entry of a competition's points ledger: ``points`` (``int``, negative for a
    deduction) for ``team`` with a ``reason`` (docs/leagues.md "Tables"; docs/contracts.md §5
    ``adjustments``). Points are never changed by editing results, only by this ledger."""

    team: str
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class Competition:
    """A competition of the season file (docs/contracts.md §5).

    ``matches`` is empty for a league given without matches: its double round robin is
    generated on import from ``start`` (see :func:`leagues.rules.fixtures.generate_matches`).
    ``groups`` maps a group name to its team ids (``kind == "groups"`` only).
    """

    slug: str
    kind: str
    name: str
    teams: tuple[str, ...]
    legs: int = 2
    matches: tuple[Match, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    start: date | None = None
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Season:
    """A whole ``arbitro.season/1`` file (docs/contracts.md §5)."""

    slug: str
    name: str
    teams: tuple[Team, ...]
    competitions: tuple[Competition, ...]

    def team(self, team_id: str) -> Team:
        """The :class:`Team` with id ``team_id``; ``KeyError`` if there is none."""
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(team_id)

    def competition(self, slug: str) -> Competition:
        """The :class:`Competition` with ``slug``; ``KeyError`` if there is none."""
        for competition in self.competitions:
            if competition.slug == slug:
                return competition
        raise KeyError(slug)


# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------


class _Problems:
    """Collects problems with their location instead of stopping at the first."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}" if where else message)


MAX_GOALS = 99
"""No football match has more goals than this; larger values are typing errors [choice]."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(data: Mapping, key: str, where: str, problems: _Problems, *, required=True):
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        problems.add(where, f"{key} must be a non-empty string")
        return None
    return value


def _datetime(value: Any, key: str, where: str, problems: _Problems) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.add(where, f"{key} must be an ISO 8601 date-time string")
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        problems.add(where, f"{key} is not an ISO 8601 date-time: {value!r}")
        return None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        problems.add(where, f"{key} needs a UTC offset (e.g. -03:00): {value!r}")
        return None
    if not in_date_window(parsed):
        problems.add(where, f"{key} must be in the years {MIN_YEAR}-{MAX_YEAR}: {value!r}")
        return None
    return parsed


def _pair(value: Any, key: str, where: str, problems: _Problems) -> tuple[int, int] | None:
    if value is None:
        return None
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(_is_int(v) and v >= 0 for v in value)
    ):
        problems.add(where, f"{key} must be two integers >= 0, e.g. [5, 4]")
        return None
    return (value[0], value[1])


def _parse_match(data: Any, where: str, teams: set[str], kind: str, problems: _Problems):
    if not isinstance(data, Mapping):
        problems.add(where, "a match must be an object")
        return None
    before = len(problems.items)
    match_id = _text(data, "id", where, problems)
    if match_id:
        where = f"{where.rsplit(' ', 1)[0]} {match_id}"
    number = data.get("round")
    if not _is_int(number) or number < 1:
        problems.add(where, "round must be an integer >= 1")
    home, away = data.get("home"), data.get("away")
    for side, team in (("home", home), ("away", away)):
        if team not in teams:
            problems.add(where, f"{side} team {team!r} is not in this competition")
    if home is not None and home == away:
        problems.add(where, "a team cannot play itself")
    goals = data.get("home_goals"), data.get("away_goals")
    for side, value in zip(("home_goals", "away_goals"), goals, strict=True):
        if value is not None and (not _is_int(value) or not 0 <= value <= MAX_GOALS):
            problems.add(where, f"{side} must be an integer from 0 to {MAX_GOALS}")
    if (goals[0] is None) != (goals[1] is None):
        problems.add(where, "give both home_goals and away_goals, or neither")
    has_score = goals[0] is not None and goals[1] is not None
    status = data.get("status") or ("played" if has_score else "scheduled")
    absent = data.get("absent")
    if status not in MATCH_STATUSES:
        problems.add(where, f"status must be one of {', '.join(MATCH_STATUSES)}")
    elif status == "played" and not has_score:
        problems.add(where, "a played match needs home_goals and away_goals")
    elif status == "scheduled" and has_score:
        problems.add(where, "a scheduled match cannot have a score (use status played)")
    if status == "walkover":
        if absent not in ABSENT_VALUES:
            problems.add(where, "a walkover needs absent: home, away or both")
        elif has_score and _is_int(goals[0]) and _is_int(goals[1]):
            if absent == "home" and not goals[1] > goals[0]:
                problems.add(where, "walkover with the home team absent: the away team wins")
            if absent == "away" and not goals[0] > goals[1]:
                problems.add(where, "walkover with the away team absent: the home team wins")
    elif absent is not None:
        problems.add(where, "absent is only for walkovers")
    reported_at = _datetime(data.get("reported_at"), "reported_at", where, problems)
    initial = _datetime(data.get("initial_deadline"), "initial_deadline", where, problems)
    final = _datetime(data.get("final_deadline"), "final_deadline", where, problems)
    if initial and final and final < initial:
        problems.add(where, "final_deadline is before initial_deadline")
    penalties = _pair(data.get("penalties"), "penalties", where, problems)
    extra_time = data.get("extra_time")
    if isinstance(extra_time, list):
        extra_time = _pair(extra_time, "extra_time", where, problems)
    elif extra_time is not None and not isinstance(extra_time, bool):
        problems.add(where, "extra_time must be null, true/false or a [home, away] score")
    stream_url = data.get("stream_url")
    if stream_url is not None and not isinstance(stream_url, str):
        problems.add(where, "stream_url must be a string or null")
    cards = []
    for index, card in enumerate(data.get("cards") or (), start=1):
        at = f"{where}, card {index}"
        if not isinstance(card, Mapping):
            problems.add(at, "a card must be an object")
            continue
        if card.get("team") not in (home, away):
            problems.add(at, "team must be one of the two teams of the match")
        footballer = _text(card, "footballer", at, problems)
        if card.get("card") not in CARD_VALUES:
            problems.add(at, f"card must be one of {', '.join(CARD_VALUES)}")
        cards.append(Card(card.get("team"), footballer or "", card.get("card")))
    tie, leg = data.get("tie"), data.get("leg")
    if kind == "knockout":
        if not isinstance(tie, str) or not tie:
            problems.add(where, "a knockout match needs tie (e.g. qf1)")
        if leg not in (1, 2, 3):
            problems.add(where, "a knockout match needs leg 1, 2 or 3")
    if len(problems.items) > before:
        return None
    return Match(
        id=match_id,
        round=number,
        home=home,
        away=away,
        home_goals=goals[0],
        away_goals=goals[1],
        status=status,
        absent=absent,
        reported_at=reported_at,
        initial_deadline=initial,
        final_deadline=final,
        extra_time=extra_time,
        penalties=penalties,
        stream_url=stream_url,
        cards=tuple(cards),
        tie=tie,
        leg=leg,
    )


def _parse_competition(data: Any, index: int, season_teams: set[str], problems: _Problems):
    where = f"competition {index}"
    if not isinstance(data, Mapping):
        problems.add(where, "a competition must be an object")
        return None
    before = len(problems.items)
    slug = _text(data, "slug", where, problems)
    if slug:
        where = f"competition {slug}"
    kind = data.get("kind")
    if kind not in COMPETITION_KINDS:
        problems.add(where, f"kind must be one of {', '.join(COMPETITION_KINDS)}")
    name = _text(data, "name", where, problems)
    teams = data.get("teams")
    if not isinstance(teams, list) or not teams:
        problems.add(where, "teams must be a non-empty list of team ids")
        teams = []
    for team in teams:
        if team not in season_teams:
            problems.add(where, f"team {team!r} is not among the season's teams")
    if len(set(map(str, teams))) != len(teams):
        problems.add(where, "a team is listed twice")
    team_set = set(teams) & season_teams
    legs = data.get("legs", 2)
    if not _is_int(legs) or legs < 1:
        problems.add(where, "legs must be an integer >= 1")
    start = data.get("start")
    if start is not None:
        try:
            start = date.fromisoformat(start)
        except (TypeError, ValueError):
            problems.add(where, f"start must be an ISO 8601 date: {start!r}")
            start = None
        if start is not None and not in_date_window(start):
            problems.add(where, f"start must be in the years {MIN_YEAR}-{MAX_YEAR}: {start}")
            start = None
    groups: dict[str, tuple[str, ...]] = {}
    if kind == "groups":
        raw = data.get("groups")
        if not isinstance(raw, Mapping) or not raw:
            problems.add(where, "a groups competition needs groups: {name: [team ids]}")
        else:
            seen: set[str] = set()
            for group, members in raw.items():
                if not isinstance(members, list) or not all(m in team_set for m in members):
                    problems.add(f"{where}, group {group}", "members must be team ids of it")
                    continue
                if seen & set(members) or len(set(members)) != len(members):
                    problems.add(f"{where}, group {group}", "a team is in two groups")
                seen |= set(members)
                groups[str(group)] = tuple(members)
            if seen != team_set:
                problems.add(where, "every team must be in exactly one group")
    matches = []
    ids: set[str] = set()
    for number, raw in enumerate(data.get("matches") or (), start=1):
        match = _parse_match(raw, f"{where}, match {number}", team_set, kind, problems)
        if match is None:
            continue
        if match.id in ids:
            problems.add(f"{where}, match {match.id}", "duplicate match id")
        ids.add(match.id)
        matches.append(match)
    adjustments = []
    for number, raw in enumerate(data.get("adjustments") or (), start=1):
        at = f"{where}, adjustment {number}"
        if not isinstance(raw, Mapping):
            problems.add(at, "an adjustment must be an object")
            continue
        if raw.get("team") not in team_set:
            problems.add(at, f"team {raw.get('team')!r} is not in this competition")
        if not _is_int(raw.get("points")):
            problems.add(at, "points must be an integer")
        reason = _text(raw, "reason", at, problems)
        if reason is not None and len(reason) > FREE_TEXT_MAX_LENGTH:
            problems.add(
                at,
                f"reason has {len(reason)} characters; at most {FREE_TEXT_MAX_LENGTH} "
                "(free text limit)",
            )
        adjustments.append(Adjustment(raw.get("team"), raw.get("points"), reason or ""))
    if len(problems.items) > before:
        return None
    return Competition(
        slug=slug,
        kind=kind,
        name=name,
        teams=tuple(teams),
        legs=legs,
        matches=tuple(matches),
        adjustments=tuple(adjustments),
        start=start,
        groups=groups,
    )


def parse_season(data: Any) -> Season:
    """Read a decoded ``arbitro.season/1`` document (docs/contracts.md §5) into a :class:`Season`.

    Checks the contract: format, unique team ids and users, competition kinds, teams of
    each match in its competition, scores (``int >= 0``, both or neither), statuses,
    ``absent`` only and always on walkovers (and the absent side not winning), aware ISO
    8601 date-times (``final_deadline >= initial_deadline``), knockout ``tie``/``leg``,
    groups covering every team once, ledger entries with an integer and a reason.
    A match without ``status`` is ``played`` when it has a score, else ``scheduled``.

    Raises :class:`LeagueRuleError` with every problem found (nothing is returned then).
    """
    problems = _Problems()
    if not isinstance(data, Mapping):
        raise LeagueRuleError("the season file must be a JSON object")
    if data.get("format") != FORMAT:
        problems.add("", f"format must be {FORMAT!r}")
    slug = _text(data, "slug", "season", problems)
    name = _text(data, "name", "season", problems)
    teams = []
    ids: set[str] = set()
    users: set[str] = set()
    for index, raw in enumerate(data.get("teams") or (), start=1):
        where = f"team {index}"
        if not isinstance(raw, Mapping):
            problems.add(where, "a team must be an object")
            continue
        team_id = _text(raw, "id", where, problems)
        team_name = _text(raw, "name", where, problems)
        user = _text(raw, "user", where, problems)
        if team_id in ids:
            problems.add(where, f"duplicate team id {team_id!r}")
        if user in users:
            problems.add(where, f"user {user!r} already has a team (one team per user)")
        ids.add(team_id)
        users.add(user)
        if team_id and team_name and user:
            teams.append(Team(team_id, team_name, user))
    if not teams:
        problems.add("season", "teams must list at least one team")
    competitions = []
    slugs: set[str] = set()
    for index, raw in enumerate(data.get("competitions") or (), start=1):
        competition = _parse_competition(raw, index, {t.id for t in teams}, problems)
        if competition is None:
            continue
        if competition.slug in slugs:
            problems.add(f"competition {competition.slug}", "duplicate competition slug")
        slugs.add(competition.slug)
        competitions.append(competition)
    if problems.items:
        raise LeagueRuleError(problems.items)
    return Season(slug=slug, name=name, teams=tuple(teams), competitions=tuple(competitions))
