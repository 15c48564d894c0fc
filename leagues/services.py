"""League services: the only code that turns the league rules (:mod:`leagues.rules`) into
database rows and back. Every change runs in one transaction and writes the audit log
(``events.AuditLog`` through :func:`events.audit.audit`, with no event and the season
slug as target).

- :func:`import_season` / :func:`export_season` — the ``arbitro.season/1`` file
  (docs/contracts.md §5), all or nothing, every problem located.
- :func:`competition_table` — the table document of docs/contracts.md §6, in bounded queries.
- :func:`season_compliance` — the compliance document of docs/contracts.md §6 (ANFPES T24 §IV;
  docs/leagues.md "Compliance table").

Optional keys we add to the season file (docs/contracts.md:
"they change only by adding optional fields"): on the season ``time_zone`` (IANA name; generated
deadlines use it, default the site's ``TIME_ZONE``); on a competition ``tie_breakers`` (codes of
:data:`leagues.rules.table.TIE_BREAKERS`, ``points`` first), ``title_decider`` (bool,
Primera B §1.3.1), ``counts_for_compliance`` (bool; default: league and groups count,
knockouts do not, ANFPES T24 §IV; docs/leagues.md "Compliance table") and ``decisions`` (team ids,
best first: the staff decisions and decider matches that order teams no tie-breaker separates,
docs/leagues.md "Tables"). ``export_season`` always writes them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text
from leagues import squads
from leagues.access import LeaguePermission, require
from leagues.adapters import is_friendly, league_final_phase, rule_match
from leagues.models import (
    Adjustment,
    Card,
    Competition,
    Entry,
    Footballer,
    Match,
    Review,
    Season,
    Team,
)
from leagues.rules import compliance as compliance_rules
from leagues.rules import season as season_rules
from leagues.rules import table as table_rules
from leagues.rules.cards import footballer_key
from leagues.rules.errors import LeagueRuleError
from leagues.rules.fixtures import generate_matches
from leagues.staff_decisions import compliance_scope

__all__ = [
    "LeagueRuleError",
    "competition_table",
    "export_season",
    "import_season",
    "season_compliance",
    "season_compliance_table",
]

SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")
"""Season and competition slugs appear in addresses (``/api/v1/competitions/<slug>/…``)."""

# Longest texts the database holds (``leagues.models``); checked on import so that a
# long value is a located problem, not a database error.
MAX_LENGTHS = {"team id": 40, "team name": 200, "user": 150, "name": 200, "match id": 40}


# --------------------------------------------------------------------------- import
def _check_additions(data: Any) -> list[str]:
    """Problems with what the database needs beyond :func:`parse_season`: slugs usable in
    addresses, text lengths, and the optional keys of the module docstring. Defensive:
    malformed structure is left to :func:`parse_season` to report."""
    problems: list[str] = []
    if not isinstance(data, Mapping):
        return problems
    slug = data.get("slug")
    if isinstance(slug, str) and slug.strip() and not SLUG_RE.match(slug):
        problems.append("season: slug must be letters, digits, hyphens and underscores (1–80)")
    name = data.get("name")
    if isinstance(name, str) and len(name) > MAX_LENGTHS["name"]:
        problems.append(f"season: name is longer than {MAX_LENGTHS['name']} characters")
    tz = data.get("time_zone")
    if tz is not None and _zone(tz) is None:
        problems.append(f"season: time_zone {tz!r} is not an IANA time zone name")
    teams = data.get("teams")
    for index, team in enumerate(teams if isinstance(teams, list) else (), start=1):
        if not isinstance(team, Mapping):
            continue
        for key, label in (("id", "team id"), ("name", "team name"), ("user", "user")):
            value = team.get(key)
            if isinstance(value, str) and len(value) > MAX_LENGTHS[label]:
                problems.append(
                    f"team {index}: {key} is longer than {MAX_LENGTHS[label]} characters"
                )
        problems += squads.check_file_squad(team.get("squad"), f"team {index}")
    competitions = data.get("competitions")
    for index, raw in enumerate(competitions if isinstance(competitions, list) else (), 1):
        if not isinstance(raw, Mapping):
            continue
        slug = raw.get("slug")
        where = f"competition {slug}" if isinstance(slug, str) and slug else f"competition {index}"
        if isinstance(slug, str) and slug.strip() and not SLUG_RE.match(slug):
            problems.append(f"{where}: slug must be letters, digits, hyphens and underscores")
        if isinstance(raw.get("name"), str) and len(raw["name"]) > MAX_LENGTHS["name"]:
            problems.append(f"{where}: name is longer than {MAX_LENGTHS['name']} characters")
        codes = raw.get("tie_breakers")
        if codes is not None:
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                problems.append(f"{where}: tie_breakers must be a list of codes")
            else:
                try:
                    table_rules.TableConfig(tuple(codes))
                except LeagueRuleError as exc:
                    problems += [f"{where}: {p}" for p in exc.problems]
        for key in ("title_decider", "counts_for_compliance"):
            if raw.get(key) is not None and not isinstance(raw.get(key), bool):
                problems.append(f"{where}: {key} must be true or false")
        decisions = raw.get("decisions")
        if decisions is not None:
            listed = raw.get("teams") if isinstance(raw.get("teams"), list) else []
            if (
                not isinstance(decisions, list)
                or not all(isinstance(t, str) and t in listed for t in decisions)
                or len(set(decisions)) != len(decisions)
            ):
                problems.append(f"{where}: decisions must list the competition's teams once each")
        matches = raw.get("matches")
        for number, match in enumerate(matches if isinstance(matches, list) else (), 1):
            if isinstance(match, Mapping) and isinstance(match.get("id"), str):
                if len(match["id"]) > MAX_LENGTHS["match id"]:
                    problems.append(f"{where}, match {number}: id is too long")
    return problems


def _zone(name: Any) -> tzinfo | None:
    if not isinstance(name, str) or not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def validate_season_file(data: Any) -> season_rules.Season:
    """Check a decoded season file: the contract (:func:`leagues.rules.season.parse_season`)
    and what the database needs (:func:`_check_additions`). Raises
    :class:`LeagueRuleError` listing every problem found."""
    problems = _check_additions(data)
    try:
        parsed = season_rules.parse_season(data)
    except LeagueRuleError as exc:
        problems = [*exc.problems, *problems]
        parsed = None
    if problems:
        raise LeagueRuleError(problems)
    return parsed


def import_season(data: Any, replace: bool = False, *, actor=None) -> Season:
    """Validate and save a season file in one transaction (docs/contracts.md §5): all or nothing.

    A ``league`` competition given without matches gets its double round robin generated
    (:func:`leagues.rules.fixtures.generate_matches`), with matchday deadlines when it has
    a ``start`` (one matchday a week; 7 + 3 days; 23:59 in the season's time zone). An
    existing season with the same slug is a problem unless ``replace``; so is a
    competition slug used by another season. Teams are linked to the account whose
    username is the file's ``user``, when there is one.

    Raises :class:`LeagueRuleError` with every problem (nothing is saved then).
    """
    parsed = validate_season_file(data)
    raw_competitions = {c["slug"]: c for c in data.get("competitions") or ()}
    tz_name = data.get("time_zone") or settings.TIME_ZONE
    tz = ZoneInfo(tz_name)
    with transaction.atomic():
        existing = Season.objects.select_for_update().filter(slug=parsed.slug).first()
        problems = []
        if existing and not replace:
            problems.append(f"season: a season {parsed.slug!r} exists; use --replace to replace it")
        taken = (
            Competition.objects.filter(slug__in=[c.slug for c in parsed.competitions])
            .exclude(season__slug=parsed.slug)
            .values_list("slug", "season__slug")
        )
        for slug, other in taken:
            problems.append(f"competition {slug}: the slug is used by season {other!r}")
        if problems:
            raise LeagueRuleError(problems)
        if existing:
            audit(
                None,
                actor,
                "season.replace",
                parsed.slug,
                before=_summary(existing),
                comment="replaced by an imported file",
            )
            # Matches, cards and the ledger protect teams: remove them first.
            Card.objects.filter(match__competition__season=existing).delete()
            Match.objects.filter(competition__season=existing).delete()
            Adjustment.objects.filter(competition__season=existing).delete()
            existing.delete()

        season = Season.objects.create(slug=parsed.slug, name=parsed.name, time_zone=tz_name)
        accounts = {
            u.username: u
            for u in get_user_model().objects.filter(username__in=[t.user for t in parsed.teams])
        }
        teams = {
            t.code: t
            for t in Team.objects.bulk_create(
                [
                    Team(
                        season=season,
                        code=t.id,
                        name=t.name,
                        handle=t.user,
                        user=accounts.get(t.user),
                    )
                    for t in parsed.teams
                ]
            )
        }
        generated = 0
        for position, comp in enumerate(parsed.competitions):
            raw = raw_competitions[comp.slug]
            counts = raw.get("counts_for_compliance")
            competition = Competition.objects.create(
                season=season,
                slug=comp.slug,
                kind=comp.kind,
                name=comp.name,
                legs=comp.legs,
                tie_breakers=list(raw.get("tie_breakers") or table_rules.ANFPES_TIE_BREAKERS),
                title_decider=bool(raw.get("title_decider", False)),
                counts_for_compliance=comp.kind != "knockout" if counts is None else counts,
                decisions=list(raw.get("decisions") or []),
                start=comp.start,
                position=position,
            )
            group_of = {team: name for name, members in comp.groups.items() for team in members}
            Entry.objects.bulk_create(
                [
                    Entry(
                        competition=competition,
                        team=teams[code],
                        position=i,
                        group=group_of.get(code, ""),
                    )
                    for i, code in enumerate(comp.teams)
                ]
            )
            matches = comp.matches
            if comp.kind == "league" and not matches:
                matches = generate_matches(comp.teams, comp.legs, start=comp.start, tz=tz)
                generated += len(matches)
            rows = Match.objects.bulk_create(
                [_match_row(competition, m, teams, group_of.get(m.home, "")) for m in matches]
            )
            Card.objects.bulk_create(
                [
                    Card(match=row, team=teams[c.team], footballer=c.footballer, card=c.card)
                    for row, m in zip(rows, matches, strict=True)
                    for c in m.cards
                ]
            )
            Adjustment.objects.bulk_create(
                [
                    Adjustment(
                        competition=competition,
                        team=teams[a.team],
                        points=a.points,
                        reason=a.reason,
                        created_by=actor if getattr(actor, "is_authenticated", False) else None,
                    )
                    for a in comp.adjustments
                ]
            )
        # The teams' optional squads (docs/leagues.md "Squads"); their typed cards are theirs.
        raw_teams = {t.get("id"): t for t in data.get("teams") or () if isinstance(t, Mapping)}
        for code, team in teams.items():
            listed = raw_teams.get(code, {}).get("squad") or []
            rows = Footballer.objects.bulk_create(
                [
                    Footballer(
                        team=team,
                        name=" ".join(f["name"].split()),
                        name_key=footballer_key(f["name"]),
                        number=f.get("number"),
                    )
                    for f in listed
                ]
            )
            if rows:
                squads.claim_cards(team, rows)
        audit(
            None, actor, "season.import", season.slug, after=_summary(season, generated=generated)
        )
    return season


def _match_row(competition: Competition, m: season_rules.Match, teams, group: str) -> Match:
    extra_time = list(m.extra_time) if isinstance(m.extra_time, tuple) else m.extra_time
    return Match(
        competition=competition,
        code=m.id,
        round=m.round,
        home=teams[m.home],
        away=teams[m.away],
        home_goals=m.home_goals,
        away_goals=m.away_goals,
        extra_time=extra_time,
        penalties_home=m.penalties[0] if m.penalties else None,
        penalties_away=m.penalties[1] if m.penalties else None,
        status=m.status,
        absent=m.absent or "",
        reported_at=m.reported_at,
        initial_deadline=m.initial_deadline,
        final_deadline=m.final_deadline,
        stream_url=m.stream_url or "",
        tie=m.tie or "",
        leg=m.leg,
        group=group,
    )


def _summary(season: Season, **extra) -> dict:
    return {
        "teams": season.teams.count(),
        "competitions": season.competitions.count(),
        "matches": Match.objects.filter(competition__season=season).count(),
        **extra,
    }


# --------------------------------------------------------------------------- export
def export_season(season: Season) -> dict:
    """The season as an ``arbitro.season/1`` document (docs/contracts.md §5), in 7 queries
    (the teams' optional ``squad``: docs/leagues.md "Squads").

    Generated fixtures appear as matches. Date-times are written in the season's time zone.
    ``parse_season(export_season(s))`` equals the parsed file ``s`` was imported from.
    """
    tz = ZoneInfo(season.time_zone)
    teams = list(season.teams.order_by("id"))
    code = {t.pk: t.code for t in teams}
    squad: dict[int, list[dict]] = {}
    for f in Footballer.objects.filter(team__season=season):
        squad.setdefault(f.team_id, []).append(
            {"name": f.name, **({"number": f.number} if f.number is not None else {})}
        )
    competitions = list(season.competitions.order_by("position", "id"))
    entries: dict[int, list[Entry]] = {}
    for entry in Entry.objects.filter(competition__season=season).order_by("position", "id"):
        entries.setdefault(entry.competition_id, []).append(entry)
    matches: dict[int, list[Match]] = {}
    for match in Match.objects.filter(competition__season=season).order_by("id"):
        matches.setdefault(match.competition_id, []).append(match)
    cards: dict[int, list[Card]] = {}
    for card in Card.objects.filter(match__competition__season=season).order_by("id"):
        cards.setdefault(card.match_id, []).append(card)
    ledger: dict[int, list[Adjustment]] = {}
    for adjustment in Adjustment.objects.filter(competition__season=season).order_by("id"):
        ledger.setdefault(adjustment.competition_id, []).append(adjustment)

    def when(value: datetime | None) -> str | None:
        return None if value is None else timezone.localtime(value, tz).isoformat()

    def match_doc(m: Match, knockout: bool) -> dict:
        doc: dict[str, Any] = {"id": m.code, "round": m.round, "home": code[m.home_id]}
        doc["away"] = code[m.away_id]
        if m.home_goals is not None:
            doc["home_goals"], doc["away_goals"] = m.home_goals, m.away_goals
        doc |= {
            "extra_time": m.extra_time,
            "penalties": None if m.penalties_home is None else [m.penalties_home, m.penalties_away],
            "status": m.status,
            "absent": m.absent or None,
            "reported_at": when(m.reported_at),
            "initial_deadline": when(m.initial_deadline),
            "final_deadline": when(m.final_deadline),
            "stream_url": m.stream_url or None,
            "cards": [
                {"team": code[c.team_id], "footballer": c.footballer, "card": c.card}
                for c in cards.get(m.pk, ())
            ],
        }
        if knockout or m.tie or m.leg is not None:
            doc["tie"], doc["leg"] = m.tie or None, m.leg
        return doc

    competition_docs = []
    for c in competitions:
        members = entries.get(c.pk, [])
        doc: dict[str, Any] = {
            "slug": c.slug,
            "kind": c.kind,
            "name": c.name,
            "teams": [code[e.team_id] for e in members],
            "legs": c.legs,
        }
        if c.start is not None:
            doc["start"] = c.start.isoformat()
        if c.kind == Competition.Kind.GROUPS:
            groups: dict[str, list[str]] = {}
            for e in members:
                groups.setdefault(e.group, []).append(code[e.team_id])
            doc["groups"] = groups
        doc |= {
            "tie_breakers": list(c.tie_breakers),
            "title_decider": c.title_decider,
            "counts_for_compliance": c.counts_for_compliance,
            "decisions": list(c.decisions),
            "matches": [match_doc(m, c.kind == "knockout") for m in matches.get(c.pk, ())],
            "adjustments": [
                {"team": code[a.team_id], "points": a.points, "reason": a.reason}
                for a in ledger.get(c.pk, ())
            ],
        }
        competition_docs.append(doc)
    return {
        "format": season_rules.FORMAT,
        "slug": season.slug,
        "name": season.name,
        "time_zone": season.time_zone,
        "teams": [
            {
                "id": t.code,
                "name": t.name,
                "user": t.handle,
                **({"squad": squad[t.pk]} if squad.get(t.pk) else {}),  # optional
            }
            for t in teams
        ],
        "competitions": competition_docs,
    }


# --------------------------------------------------------------------------- tables
MATCH_FIELDS = (
    "code",
    "round",
    "home__code",
    "away__code",
    "home_goals",
    "away_goals",
    "status",
    "absent",
)


def competition_table(competition: Competition, *, decisions: list[str] | None = None) -> dict:
    """The docs/contracts.md §6 table document of a ``league`` or ``groups`` competition, computed
    by :func:`leagues.rules.table.compute_table` with the competition's tie-breakers, in 3
    queries whatever the number of matches (entries, matches, ledger).

    Each row also carries ``name`` (the team's name) and ``separated_by``; the document
    carries ``unresolved`` (teams, positions, reason) — optional additions. A ``groups``
    competition gives one table per group under ``"groups"``. Raises
    :class:`LeagueRuleError` for a knockout (it has a bracket, not a table). ``decisions``
    replaces the stored :attr:`Competition.decisions` (what the table would be without a
    decision, :func:`decide_tie`).

    Broadcast (ANFPES T24 §1.4 ¶6): a played fixture staff marked ``must_stream`` without
    a stream link is a friendly — :func:`leagues.rules.match_rules.counts` says it does not
    count, and it is passed to the table rules as ``void`` (ignored) **[choice]**.
    """

    if competition.kind == Competition.Kind.KNOCKOUT:
        raise LeagueRuleError(f"competition {competition.slug} is a knockout: it has no table")
    config = table_rules.TableConfig(
        tuple(competition.tie_breakers), title_decider=competition.title_decider
    )
    stored = competition.decisions if decisions is None else decisions
    entries = list(competition.entries.select_related("team").order_by("position", "id"))
    names = {e.team.code: e.team.name for e in entries}
    rows = list(
        competition.matches.order_by("round", "id").values(
            *MATCH_FIELDS, "must_stream", "stream_url"
        )
    )
    matches = [rule_match(r) for r in rows]
    ledger = [
        season_rules.Adjustment(a["team__code"], a["points"], a["reason"])
        for a in competition.adjustments.order_by("id").values("team__code", "points", "reason")
    ]

    def table(teams: list[str]) -> dict:
        members = set(teams)
        result = table_rules.compute_table(
            teams,
            [m for m in matches if m.home in members and m.away in members],
            [a for a in ledger if a.team in members],
            config=config,
            decisions=[t for t in stored if t in members],
        )
        doc = result.as_dict(competition.slug)
        for row in doc["rows"]:
            row["name"] = names[row["team"]]
        return doc

    if competition.kind == Competition.Kind.GROUPS:
        groups: dict[str, list[str]] = {}
        for e in entries:
            groups.setdefault(e.group, []).append(e.team.code)
        return {
            "competition": competition.slug,
            "tie_breakers": list(config.tie_breakers),
            "groups": {
                name: {k: v for k, v in table(teams).items() if k not in ("competition",)}
                for name, teams in groups.items()
            },
        }
    return table([e.team.code for e in entries])


# --------------------------------------------------------------------------- compliance
REVIEW_KINDS = ("first_half", "second_half", "season_end")
"""Codes of :class:`leagues.models.Review` kinds, in season order."""


@dataclass(frozen=True)
class ComplianceInputs:
    """What the compliance rules need for a season, loaded in 2 queries by
    :func:`compliance_inputs`.

    - ``teams``: the season's :class:`Team` rows (file order);
    - ``fixtures``: the counted fixtures as :class:`leagues.rules.compliance.ComplianceFixture`
      (id ``<competition slug>/<match id>``), with excuses, concessions, phase and
      ``closes_at``;
    - ``info``: fixture id → ``{"round", "home", "away"}`` (team codes), for display;
    - ``missing``: counted fixtures without both deadlines (cannot be scored);
    - ``phases``: phase → its closing date (``None`` when none of its fixtures has one);
    - ``first_half``: the phases a ``first_half`` review covers;
    - ``held``: review kind → when it was held.
    """

    teams: list[Team]
    fixtures: list[compliance_rules.ComplianceFixture]
    info: dict[str, dict]
    missing: list[str]
    phases: dict[str, datetime | None]
    first_half: frozenset[str]
    held: dict[str, datetime]

    def rule_review(self, kind: str, at: datetime) -> compliance_rules.Review:
        """The rules' :class:`~leagues.rules.compliance.Review` for a review of ``kind`` at
        ``at``: a ``first_half`` review covers the first-half phases (and group stages);
        ``second_half`` and ``season_end`` cover every counted fixture (ANFPES T24 §IV.3,
        docs/leagues.md "Compliance table")."""
        return compliance_rules.Review(
            code=kind,
            at=at,
            season_end=kind == "season_end",
            phases=self.first_half if kind == "first_half" else None,
        )

    @property
    def users(self) -> list[str]:
        """The users (team handles), in file order."""
        return [t.handle for t in self.teams]


def _phase(kind: str, slug: str, round_: int, max_round: int) -> str:
    """The phase of a fixture: ``<slug>/1`` (matchdays ≤ half the last matchday) or
    ``<slug>/2`` for a league; ``<slug>`` for a group stage or a counted knockout."""
    if kind == Competition.Kind.LEAGUE:
        return f"{slug}/1" if 2 * round_ <= max_round else f"{slug}/2"
    return slug


def phase_closing(match: Match) -> datetime | None:
    """When the compliance phase of ``match`` closes (:func:`compliance_inputs`: the latest
    final deadline among the fixtures of its phase — its half of a league, its group stage
    or counted knockout), ``None`` when none of them has a deadline. The limit of an
    excuse (ANFPES T24 §IV.5: it "en ningún caso podrá exceder las fechas que ya hayan sido
    establecidas para el cierre" of the phase). One query."""
    competition = match.competition
    rows = list(
        Match.objects.filter(competition_id=match.competition_id)
        .exclude(status=Match.Status.VOID)
        .values_list("round", "final_deadline")
    )
    max_round = max((r for r, _at in rows), default=match.round)
    mine = _phase(competition.kind, competition.slug, match.round, max_round)
    closes = [
        at
        for r, at in rows
        if at is not None and _phase(competition.kind, competition.slug, r, max_round) == mine
    ]
    return max(closes, default=None)


def compliance_inputs(season: Season) -> ComplianceInputs:
    """Load what the compliance rules need for ``season`` in 2 queries: the teams (each
    annotated with the time of the season's reviews — at most one per kind — as
    sub-selects) and the counted matches joined with their excuse and concession.

    - Counted: matches of competitions with ``counts_for_compliance``; ``void`` ones are
      skipped (they still count for the length of a round robin), and so are friendlies
      (played without the stream link they needed, :func:`leagues.adapters.is_friendly`).
    - Phases: a ``league`` competition's first half is the matchdays up to half its last
      matchday (``<slug>/1``), the rest the second half (``<slug>/2``); a ``groups`` (or a
      counted ``knockout``) competition is one phase ``<slug>``. The closing date of a
      phase (the limit of an excuse, ANFPES T24 §IV.5) is the latest final deadline among
      its fixtures **[choice]**: the rules give no date, and staff move deadlines per
      fixture, so the phase closes with its last fixture.
    - Excuses (:class:`leagues.models.Excuse`) become the rules'
      :class:`~leagues.rules.compliance.Excuse` (requested by the asking team's user, for
      the fixture's matchday, evidence the stored file name); effective only when both the
      opponent and staff answered yes. Concessions give the conceding team's user.
    """
    review_at = {
        f"review_{kind}": Subquery(
            Review.objects.filter(season=OuterRef("season"), kind=kind).values("at")[:1]
        )
        for kind in REVIEW_KINDS
    }
    teams = list(season.teams.order_by("id").select_related("user").annotate(**review_at))
    handle = {t.code: t.handle for t in teams}
    held: dict[str, datetime] = {}
    if teams:
        for kind in REVIEW_KINDS:
            at = getattr(teams[0], f"review_{kind}")
            if at is not None:
                held[kind] = at
    rows = list(
        Match.objects.filter(competition__season=season, competition__counts_for_compliance=True)
        .order_by("competition__position", "round", "id")
        .values(
            *MATCH_FIELDS,
            "competition__slug",
            "competition__kind",
            "reported_at",
            "initial_deadline",
            "final_deadline",
            "excuse__id",
            "excuse__team__handle",
            "excuse__reason",
            "excuse__evidence",
            "excuse__opponent_answer",
            "excuse__staff_answer",
            "concession__team__handle",
            "must_stream",
            "stream_url",
            "tie",
        )
    )
    # Only a knockout's decisions matter here (its cup setup and counted rounds). A
    # competition may count only some rounds (the Nucommunity Shit's first phase, when it
    # is a knockout: ANFPES T24 §IV.1).
    knockouts = {
        r["competition__slug"] for r in rows if r["competition__kind"] == Competition.Kind.KNOCKOUT
    }
    cups, counted = compliance_scope(season, knockouts)
    rows = [
        row
        for row in rows
        if row["competition__slug"] not in counted
        or row["round"] in counted[row["competition__slug"]]
    ]
    max_round: dict[str, int] = {}
    for row in rows:
        slug = row["competition__slug"]
        max_round[slug] = max(max_round.get(slug, 0), row["round"])
    tie_ids: dict[str, set[str]] = {}
    for row in rows:
        tie_ids.setdefault(row["competition__slug"], set()).add(row["tie"] or row["code"])
    final_phase = {
        row["competition__slug"]: league_final_phase(
            row["competition__kind"],
            row["competition__slug"] in cups,
            tie_ids[row["competition__slug"]],
        )
        for row in rows
    }
    fixtures, missing, info = [], [], {}
    phases: dict[str, datetime | None] = {}
    first_half: set[str] = set()
    for row in rows:
        # Annulled, or played without the stream link it needed (a must-stream fixture,
        # a league final-phase leg: a friendly, as in the table and the brackets):
        # skipped, like void matches.
        if row["status"] == Match.Status.VOID or is_friendly(
            row, final_phase=final_phase[row["competition__slug"]]
        ):
            continue
        slug, kind = row["competition__slug"], row["competition__kind"]
        phase = _phase(kind, slug, row["round"], max_round[slug])
        phases.setdefault(phase, None)
        if kind == Competition.Kind.GROUPS or (
            kind == Competition.Kind.LEAGUE and phase.endswith("/1")
        ):
            first_half.add(phase)
        # Match ids repeat across competitions; fixture ids must not.
        match = rule_match(row, prefix=f"{slug}/")
        if match.initial_deadline is None or match.final_deadline is None:
            missing.append(match.id)
            continue
        closes = phases[phase]
        phases[phase] = (
            match.final_deadline if closes is None else max(closes, match.final_deadline)
        )
        excuse = None
        if row["excuse__id"] is not None:
            excuse = compliance_rules.Excuse(
                requested_by=row["excuse__team__handle"],
                matchdays=(row["round"],),
                reason=row["excuse__reason"],
                evidence=(row["excuse__evidence"],) if row["excuse__evidence"] else (),
                opponent_confirmed=row["excuse__opponent_answer"] == "yes",
                staff_approved=row["excuse__staff_answer"] == "yes",
            )
        (fixture,) = compliance_rules.fixtures_from_matches(
            [match],
            handle,
            phase=phase,
            excuses={match.id: excuse} if excuse else None,
            concessions=(
                {match.id: row["concession__team__handle"]}
                if row["concession__team__handle"]
                else None
            ),
        )
        fixtures.append(fixture)
        info[match.id] = {"round": match.round, "home": match.home, "away": match.away}
    # Closing dates are known only once every fixture of the phase has been seen.
    fixtures = [replace(f, closes_at=phases[f.phase]) for f in fixtures]
    return ComplianceInputs(teams, fixtures, info, missing, phases, frozenset(first_half), held)


def season_compliance_table(
    season: Season, as_of: datetime | None = None, inputs: ComplianceInputs | None = None
) -> compliance_rules.ComplianceTable:
    """The rules' :class:`~leagues.rules.compliance.ComplianceTable` of ``season`` as of
    ``as_of`` (default now), with the reviews held by then (exact ratios, for the draft
    order, ANFPES T24 §III.4, §IV.8; docs/leagues.md "Draft order"). 2 queries, none when ``inputs``
    are given."""
    as_of = as_of or timezone.now()
    inputs = inputs or compliance_inputs(season)
    reviews = [inputs.rule_review(kind, at) for kind, at in inputs.held.items()]
    return compliance_rules.compute_compliance(
        inputs.fixtures, as_of, reviews=reviews, users=inputs.users
    )


def season_compliance(
    season: Season, as_of: datetime | None = None, *, public: bool = False
) -> dict:
    """The compliance document (docs/contracts.md §6, docs/leagues.md "Compliance table", ANFPES T24
    §IV) of ``season`` as of ``as_of`` (default: now), by
    :func:`leagues.rules.compliance.compute_compliance`, in 2 queries (:func:`compliance_inputs`).

    Counted: the non-void matches of the competitions with ``counts_for_compliance``, with
    their excuses, concessions and phases; the reviews held by ``as_of`` reap users
    (``reaped``, ``reaped_in``). Fixture ids are ``<competition slug>/<match id>``. Matches
    without both deadlines cannot be scored and are listed under ``without_deadlines``.

    Shape: ``{"season", "as_of", "rows": [{"team", "name", "user", "points",
    "max_points", "percentage", "reaped", "reaped_in", "loses_cup_bonus", "fixtures":
    [{"fixture", "points", "outcome", "due", "round", "home", "away"}]}],
    "without_deadlines": [...], "phases": {phase: closes_at}, "reviews": [{"kind", "at",
    "reaped", "causes"}]}`` — ``name``, ``round``/``home``/``away``, ``phases`` and
    ``reviews`` are optional additions to docs/contracts.md §6. Date-times in the season's time
    zone.

    ``public=True`` (the public page and API): no login username anywhere — each row's
    ``user`` is the player's display name (:attr:`leagues.models.Team.player_name`: the
    account's full name, else the team's name) and a review's ``reaped`` and ``causes``
    name team ids instead of users **[choice]** (issue 12; docs/leagues.md).
    """
    as_of = as_of or timezone.now()
    tz = ZoneInfo(season.time_zone)
    inputs = compliance_inputs(season)
    table = season_compliance_table(season, as_of, inputs)
    team_of = {t.handle: t for t in inputs.teams}

    def when(value: datetime | None) -> str | None:
        return None if value is None else timezone.localtime(value, tz).isoformat()

    rows = []
    for row in table.rows:
        team = team_of.get(row.user)
        doc = {
            "team": team.code if team else None,
            "name": team.name if team else None,
            **row.as_dict(),
        }
        if public:
            doc["user"] = team.player_name if team else None
        for fixture in doc["fixtures"]:
            fixture |= inputs.info.get(fixture["fixture"], {})
        rows.append(doc)

    def who(user: str) -> str:
        """A reaped user as the document names them: the team id when public."""
        if not public:
            return user
        team = team_of.get(user)
        return team.code if team else None

    return {
        "season": season.slug,
        "as_of": when(as_of),
        "rows": rows,
        "without_deadlines": inputs.missing,
        "phases": {phase: when(closes) for phase, closes in inputs.phases.items()},
        "reviews": [
            {
                "kind": result.review.code,
                "at": when(result.review.at),
                "reaped": [who(user) for user in result.reaped],
                "causes": {who(user): list(ids) for user, ids in result.causes.items()},
            }
            for result in table.reviews
        ],
    }


def _level(competition: Competition, decisions: list[str], teams: set[str]) -> bool:
    """Whether ``teams`` all lie inside one unresolved tie of the competition's table (or of
    one of its groups) computed with ``decisions``; never for a knockout (no table)."""
    if competition.kind == Competition.Kind.KNOCKOUT:
        return False
    doc = competition_table(competition, decisions=decisions)
    tables = doc["groups"].values() if "groups" in doc else [doc]
    return any(teams <= set(tie["teams"]) for table in tables for tie in table["unresolved"])


def decide_tie(competition: Competition, actor, order: list[str], reason: str) -> Competition:
    """League staff order teams that every tie-breaker leaves tied, or record the decider
    match that settled a Primera B title tie (docs/leagues.md "Tables": then a staff decision,
    ANFPES T24 §1.3.1). ``order``: the tied teams' ids, best first; they replace their
    earlier place in :attr:`Competition.decisions`. Needs league staff
    (``REVIEW_RESULTS``); ``UserError`` for an unknown or repeated team or no reason. The
    same decision again changes nothing and writes no audit entry (issue 12).

    Refused (``UserError``, issue 14): teams that are not level — ``order`` must lie inside
    one tie of the table computed without their earlier decision (every tie-breaker equal,
    or level on points for the Primera B title) — and any decision once the regular phase
    is closed (``Competition.regular_phase_closed_at``): the final phases were drawn from
    that table."""

    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason for the decision."), field="reason")
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        require(actor, competition.season, LeaguePermission.REVIEW_RESULTS)
        codes = set(competition.entries.values_list("team__code", flat=True))
        if len(order) < 2 or len(set(order)) != len(order) or not set(order) <= codes:
            raise UserError(_("List each tied team once, best first."))
        if competition.regular_phase_closed_at is not None:
            raise UserError(
                _(
                    "The regular phase of %(name)s is closed and its final phases were drawn "
                    "from its table: its order can no longer change."
                )
                % {"name": competition.name}
            )
        before = list(competition.decisions)
        if not _level(competition, [t for t in before if t not in order], set(order)):
            raise UserError(_("These teams are not level: the tie-breakers already order them."))
        competition.decisions = [t for t in before if t not in order] + list(order)
        if competition.decisions == before:
            return competition  # the same decision again (a form sent twice): no change
        competition.save(update_fields=["decisions"])
        audit(
            None,
            actor,
            "league.tie_decided",
            f"{competition.season.slug}/{competition.slug}",
            before={"decisions": before},
            after={"decisions": competition.decisions},
            comment=reason,
        )
    return competition
