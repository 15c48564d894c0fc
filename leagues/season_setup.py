"""Creating a season from the site (issue 14): league administrators build a season —
Primera A and Primera B with their teams and owners, the staff and tribunal roles, the
matchday calendar — and roll a finished season into the next one with next season's
divisions prefilled (docs/leagues.md "Creating a season from the site").

There is **one way to create a season**: what the pages describe becomes the
``arbitro.season/1`` document of docs/contracts.md §5 (:func:`season_file`), validated
and saved by :func:`leagues.services.import_season`, the code path of
``manage.py import_season`` — the same checks, the same fixture generation
(:func:`leagues.rules.fixtures.generate_matches`), the same rows. Only the roles are added
here, in the same transaction, with one audit entry (``season.create``).

Who is a league administrator (:func:`is_league_admin`): a superuser, or an account
holding Django's ``leagues.add_season`` permission ("Can add season"), which a site
administrator gives directly or through a group **[choice]**: creating seasons is a
site-wide act, not a role on one season (season staff cannot create seasons).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from leagues.models import Competition, Season, SeasonRole
from leagues.phases import season_next_divisions
from leagues.rules.errors import LeagueRuleError
from leagues.rules.fixtures import generate_matches
from leagues.rules.season import FORMAT
from leagues.services import MAX_LENGTHS, SLUG_RE, import_season, validate_season_file

__all__ = [
    "ADMIN_PERMISSION",
    "DIVISIONS",
    "DivisionSetup",
    "Preview",
    "SeasonSetup",
    "TeamLine",
    "create_season",
    "is_league_admin",
    "preview_season",
    "require_league_admin",
    "rollover_initial",
]

ADMIN_PERMISSION = "leagues.add_season"
"""The Django permission that makes an account a league administrator."""

DIVISIONS = ("primera_a", "primera_b")
"""The two divisions of an ANFPES season (ANFPES T24 §1.1, §1.3), in season order."""

SLUG_SUFFIX = {"primera_a": "primera-a", "primera_b": "primera-b"}
"""A division's competition address: ``<season slug>-primera-a`` / ``-primera-b`` [choice]."""

MAX_TEAMS = 64
"""Most teams a division takes from the form (a typing guard: ANFPES divisions have 16)."""


def is_league_admin(user) -> bool:
    """Whether ``user`` may create seasons: a superuser, or an account with
    :data:`ADMIN_PERMISSION` (directly or through a group)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_superuser or user.has_perm(ADMIN_PERMISSION)


def require_league_admin(user) -> None:
    """``PermissionDenied`` unless ``user`` is a league administrator (the services' own
    check, whatever page or script calls them)."""
    if not is_league_admin(user):
        raise PermissionDenied


@dataclass(frozen=True)
class TeamLine:
    """One pasted line ``Team name; owner`` (``line``: 1-based in its division's box)."""

    line: int
    name: str
    owner: str


@dataclass(frozen=True)
class DivisionSetup:
    """A division as the form gives it: ``division`` (one of :data:`DIVISIONS`), its
    ``name``, the first day of matchday 1 (``start``; ``None``: no deadlines yet) and its
    teams; ``problems``: ``(line, message)`` found while reading the lines."""

    division: str
    name: str
    start: date | None
    teams: tuple[TeamLine, ...]
    problems: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class SeasonSetup:
    """A whole season as the form gives it. ``staff`` and ``tribunal``: user names or
    e-mail addresses; ``previous``: the slug of the season it rolls over (or "")."""

    name: str
    slug: str
    time_zone: str
    divisions: tuple[DivisionSetup, ...]
    staff: tuple[str, ...] = ()
    tribunal: tuple[str, ...] = ()
    previous: str = ""


@dataclass
class Preview:
    """What a :class:`SeasonSetup` would create, with every problem found.

    - ``teams``: per division ``{"division", "name", "rows": [{"line", "name", "owner",
      "account", "code", "problems", "note"}]}`` (``account``: the linked user name or
      ``None``; ``note``: a warning that does not block);
    - ``calendar``: per division ``{"name", "teams", "matchdays", "matches", "first",
      "last"}`` (``first``/``last``: the first initial and the last final deadline);
    - ``roles``: ``[{"role", "who", "account", "problem"}]``;
    - ``problems``: the season's own problems (English from the season-file checks or
      translated messages); ``data``: the season file, ``None`` while there are problems.
    """

    teams: list[dict] = field(default_factory=list)
    calendar: list[dict] = field(default_factory=list)
    roles: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    data: dict | None = None

    @property
    def ok(self) -> bool:
        """No problem anywhere: the season can be created."""
        return (
            not self.problems
            and not any(row["problems"] for d in self.teams for row in d["rows"])
            and not any(r["problem"] for r in self.roles)
        )

    def all_problems(self) -> list[str]:
        """Every problem, located: the season's, then each line's, then the roles'."""
        found = list(self.problems)
        for division in self.teams:
            for row in division["rows"]:
                found += [
                    _("%(division)s, line %(line)s: %(problem)s")
                    % {"division": division["name"], "line": row["line"], "problem": p}
                    for p in row["problems"]
                ]
        found += [r["problem"] for r in self.roles if r["problem"]]
        return found


def _accounts(values):
    """User name or e-mail → (user | None, problem | None), in 2 queries."""
    users = get_user_model().objects.filter(is_active=True)
    names = [v for v in values if "@" not in v]
    mails = [v for v in values if "@" in v]
    by_name = {u.username: u for u in users.filter(username__in=names)}
    by_mail: dict[str, list] = {}
    if mails:
        query = Q()
        for mail in mails:
            query |= Q(email__iexact=mail)
        for user in users.filter(query):
            by_mail.setdefault(user.email.casefold(), []).append(user)
    result = {}
    for value in values:
        if "@" in value:
            found = by_mail.get(value.casefold(), [])
            if not found:
                result[value] = (None, _("No account has the e-mail %(mail)s.") % {"mail": value})
            elif len(found) > 1:
                result[value] = (
                    None,
                    _("More than one account has the e-mail %(mail)s: give the user name.")
                    % {"mail": value},
                )
            else:
                result[value] = (found[0], None)
        else:
            result[value] = (by_name.get(value), None)
    return result


def preview_season(actor, setup: SeasonSetup) -> Preview:
    """Check ``setup`` and describe what it would create (:class:`Preview`), saving
    nothing. League administrators only (``PermissionDenied``). Problems per line:
    a duplicate team name (case and spaces ignored) or owner in the season, an e-mail of
    no account or of several; an owner user name with no account yet is a note (the team
    keeps the name, as with a season file, and is linked later). Season problems: the
    slug (letters, digits, hyphens, underscores; unused by seasons and competitions), the
    time zone, a division with fewer than 2 teams, no team at all, and whatever the
    season-file checks find (:func:`leagues.services.validate_season_file`). Bounded
    queries."""
    require_league_admin(actor)
    preview = Preview()
    problems = preview.problems
    if not setup.name.strip():
        problems.append(_("Give the season's name."))
    elif len(setup.name) > MAX_LENGTHS["name"]:
        problems.append(_("The name is too long: at most %(max)s characters.") % {"max": 200})
    if not SLUG_RE.match(setup.slug or ""):
        problems.append(
            _("The address may hold only letters, digits, hyphens and underscores (1–80).")
        )
    try:
        tz = ZoneInfo(setup.time_zone)
    except (ValueError, KeyError):
        tz = None
        problems.append(_("Unknown time zone: %(zone)s.") % {"zone": setup.time_zone})
    owners = [t.owner for d in setup.divisions for t in d.teams if t.owner]
    people = [*setup.staff, *setup.tribunal]
    accounts = _accounts(list(dict.fromkeys([*owners, *people])))
    codes = iter(range(1, 10_000))
    seen_names: dict[str, tuple[str, int]] = {}
    seen_owners: dict[str, tuple[str, int]] = {}
    competitions, teams_doc = [], []
    for division in setup.divisions:
        rows = []
        line_problems: dict[int, list[str]] = {}
        for line, message in division.problems:
            line_problems.setdefault(line, []).append(message)
        for team in division.teams:
            mine = line_problems.pop(team.line, [])
            user, problem = accounts.get(team.owner, (None, None))
            if problem:
                mine.append(problem)
            handle = user.username if user else team.owner
            key = " ".join(team.name.split()).casefold()
            if key in seen_names:
                where = seen_names[key]
                mine.append(
                    _("The team name %(name)s is already on %(division)s, line %(line)s.")
                    % {"name": team.name, "division": where[0], "line": where[1]}
                )
            else:
                seen_names[key] = (division.name, team.line)
            if handle:
                if handle.casefold() in seen_owners:
                    where = seen_owners[handle.casefold()]
                    mine.append(
                        _(
                            "%(owner)s already has a team (%(division)s, line %(line)s): one "
                            "team per player."
                        )
                        % {"owner": handle, "division": where[0], "line": where[1]}
                    )
                else:
                    seen_owners[handle.casefold()] = (division.name, team.line)
            note = ""
            if user is None and not problem and handle:
                note = _("No account with this user name yet: the team keeps it.")
            rows.append(
                {
                    "line": team.line,
                    "name": team.name,
                    "owner": team.owner,
                    "handle": handle,
                    "account": user.username if user else None,
                    "code": f"t{next(codes)}",
                    "problems": mine,
                    "note": note,
                }
            )
        for line, messages in sorted(line_problems.items()):
            rows.append(
                {
                    "line": line,
                    "name": "",
                    "owner": "",
                    "handle": "",
                    "account": None,
                    "code": "",
                    "problems": messages,
                    "note": "",
                }
            )
        rows.sort(key=lambda r: r["line"])
        teams_doc.append({"division": division.division, "name": division.name, "rows": rows})
        good = [r for r in rows if r["code"]]
        if division.teams and len(division.teams) < 2:
            problems.append(_("%(division)s needs at least 2 teams.") % {"division": division.name})
        if len(division.teams) > MAX_TEAMS:
            problems.append(
                _("%(division)s has more than %(max)s teams.")
                % {"division": division.name, "max": MAX_TEAMS}
            )
        if not division.teams:
            continue
        competition = {
            "slug": f"{setup.slug}-{SLUG_SUFFIX[division.division]}",
            "kind": "league",
            "name": division.name,
            "teams": [r["code"] for r in good],
            "legs": 2,
            "title_decider": division.division == "primera_b",
        }
        if division.start:
            competition["start"] = division.start.isoformat()
        competitions.append(competition)
        if tz is not None and len(good) >= 2 and len(good) <= MAX_TEAMS:
            matches = generate_matches([r["code"] for r in good], 2, start=division.start, tz=tz)
            preview.calendar.append(
                {
                    "name": division.name,
                    "teams": len(good),
                    "matchdays": max(m.round for m in matches),
                    "matches": len(matches),
                    "first": min((m.initial_deadline for m in matches), default=None)
                    if division.start
                    else None,
                    "last": max((m.final_deadline for m in matches), default=None)
                    if division.start
                    else None,
                }
            )
    preview.teams = teams_doc
    if not any(d.teams for d in setup.divisions):
        problems.append(_("Paste the teams of at least one division."))
    for role, values in (("staff", setup.staff), ("tribunal", setup.tribunal)):
        for who in dict.fromkeys(values):
            user, problem = accounts.get(who, (None, None))
            if user is None and problem is None:
                problem = _("No account has the user name %(name)s.") % {"name": who}
            preview.roles.append(
                {
                    "role": role,
                    "who": who,
                    "account": user.username if user else None,
                    "problem": problem,
                }
            )
    if SLUG_RE.match(setup.slug or ""):
        if Season.objects.filter(slug=setup.slug).exists():
            problems.append(_("A season with the address %(slug)s exists.") % {"slug": setup.slug})
        taken = Competition.objects.filter(slug__in=[c["slug"] for c in competitions])
        for slug in taken.values_list("slug", flat=True):
            problems.append(_("The address %(slug)s is taken by a competition.") % {"slug": slug})
    data = {
        "format": FORMAT,
        "slug": setup.slug,
        "name": setup.name.strip(),
        "time_zone": setup.time_zone,
        "teams": [
            {"id": r["code"], "name": r["name"], "user": r["handle"]}
            for d in teams_doc
            for r in d["rows"]
            if r["code"]
        ],
        "competitions": competitions,
    }
    if preview.ok:
        try:
            validate_season_file(data)
        except LeagueRuleError as exc:
            problems.extend(exc.problems)
    if preview.ok:
        preview.data = data
    return preview


def create_season(actor, setup: SeasonSetup) -> Season:
    """Create the season ``setup`` describes, all or nothing: the season file of
    :func:`preview_season` saved by :func:`leagues.services.import_season` (teams linked
    to their accounts, each division's double round robin generated with its deadlines),
    then the staff and tribunal roles, in one transaction, audited ``season.create``
    (with the season it rolls over, if any). League administrators only
    (``PermissionDenied``); any problem is a ``UserError`` (the first one; the page
    shows the preview with all of them) and nothing is saved. The same form sent twice
    finds the address taken."""
    require_league_admin(actor)
    preview = preview_season(actor, setup)
    if not preview.ok:
        raise UserError(preview.all_problems()[0])
    try:
        with transaction.atomic():
            season = import_season(preview.data, actor=actor)
            accounts = _accounts([r["who"] for r in preview.roles])
            SeasonRole.objects.bulk_create(
                [
                    SeasonRole(season=season, user=accounts[r["who"]][0], role=r["role"])
                    for r in preview.roles
                ],
                ignore_conflicts=True,
            )
            audit(
                None,
                actor,
                "season.create",
                season.slug,
                after={
                    "divisions": {c["slug"]: len(c["teams"]) for c in preview.data["competitions"]},
                    "staff": sorted({r["account"] for r in preview.roles if r["role"] == "staff"}),
                    "tribunal": sorted(
                        {r["account"] for r in preview.roles if r["role"] == "tribunal"}
                    ),
                    "previous": setup.previous or None,
                },
                comment="created from the site",
            )
    except LeagueRuleError as exc:
        raise UserError(exc.problems[0]) from None
    except IntegrityError:
        # A twin of this form (or another administrator) took the address meanwhile.
        raise UserError(
            _("A season with the address %(slug)s exists.") % {"slug": setup.slug}
        ) from None
    return season


def rollover_initial(actor, season: Season) -> dict:
    """The new-season form prefilled from a finished ``season``: next season's divisions
    as the rules computed them (:func:`leagues.phases.season_next_divisions`: promotion,
    relegation, Liguilla; expelled teams left out), each team as ``Team name; owner``
    (its user name), the same time zone, staff and tribunal. ``UserError`` while the
    divisions are not known (no Primera A / Primera B and post-season, or something still
    awaited: listed). League administrators only (``PermissionDenied``)."""
    require_league_admin(actor)
    divisions = season_next_divisions(season)
    if divisions is None:
        raise UserError(
            _(
                "Next season's divisions are not known: this season needs a Primera A, a "
                "Primera B and their post-season."
            )
        )
    if divisions["primera_a"] is None or divisions["primera_b"] is None:
        raise UserError(
            _("Next season's divisions are still awaited: %(pending)s")
            % {"pending": "; ".join(divisions["pending"]) or "—"}
        )
    teams = {t.code: t for t in season.teams.all()}

    def lines(listed):
        return "\n".join(f"{teams[t['team']].name}; {teams[t['team']].handle}" for t in listed)

    roles: dict[str, list[str]] = {"staff": [], "tribunal": []}
    for role in season.roles.select_related("user").order_by("id"):
        roles.setdefault(role.role, []).append(role.user.username)
    return {
        "previous": season.slug,
        "time_zone": season.time_zone,
        "primera_a_teams": lines(divisions["primera_a"]),
        "primera_b_teams": lines(divisions["primera_b"]),
        "staff": "\n".join(roles["staff"]),
        "tribunal": "\n".join(roles["tribunal"]),
        "moves": divisions["moves"],
    }


def local_text(value: datetime | None, zone: str) -> str:
    """``value`` as ``YYYY-MM-DD HH:MM`` in ``zone`` (the preview's deadlines)."""
    return value.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M") if value else ""
