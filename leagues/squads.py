"""The squads of a season's teams (issue 14; docs/leagues.md "Squads"; ANFPES T24 §1.4):
who may edit them, adding footballers from pasted lines, changing and removing one,
closing the squads, and matching the footballers a report names to the squad.

Who edits a squad **[choice]** (docs/leagues.md "Squads"): league staff
(``MANAGE_SQUADS``) always; the team's owner (the player of the team) while the season's
squads are open — staff close them (:func:`set_lock`), as a league closes its
registration window, and from then on only staff change them. Every change is audited
(target ``<season>/squads/<team id>``).

Matching (:func:`resolve`): a card or lineup line naming ``#7`` or a name of the team's
squad (compared as the suspension rules compare names,
:func:`leagues.rules.cards.footballer_key`) becomes that footballer: his name as the
squad spells it and ``"squad": <id>``. A name not in a non-empty squad is kept as typed
and marked ``"unlisted": true``: staff see it (:func:`unlisted`). The card suspensions
then key on the squad footballer (:mod:`leagues.suspensions`).

Errors: :class:`events.errors.UserError` (nothing saved); ``PermissionDenied`` for
someone who may not edit the squad.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from leagues.access import LeaguePermission, season_permissions
from leagues.models import Card, Footballer, Match, Season, SquadLock, Team
from leagues.models_squads import MAX_NUMBER
from leagues.rules.cards import footballer_key

__all__ = [
    "MAX_SQUAD",
    "add_footballers",
    "change_footballer",
    "check_file_squad",
    "claim_cards",
    "is_locked",
    "match_squads",
    "may_edit",
    "remove_footballer",
    "resolve",
    "season_squads",
    "set_lock",
    "unlisted",
]

MAX_SQUAD = 60
"""Most footballers in one squad (a paste guard) **[choice]**."""


def _target(team: Team) -> str:
    return f"{team.season.slug}/squads/{team.code}"


def is_locked(season: Season) -> bool:
    """Whether staff closed the season's squads (one query)."""
    return SquadLock.objects.filter(season=season).exists()


def may_edit(user, team: Team, *, locked: bool | None = None) -> bool:
    """Whether ``user`` may change ``team``'s squad: league staff (``MANAGE_SQUADS``), or
    the team's owner while the squads are open (``locked``: :func:`is_locked`, given to
    spare the query)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if LeaguePermission.MANAGE_SQUADS in season_permissions(user, team.season):
        return True
    if team.user_id != user.pk:
        return False
    return not (is_locked(team.season) if locked is None else locked)


def _require_edit(user, team: Team) -> None:
    if not may_edit(user, team):
        raise PermissionDenied


def season_squads(season: Season) -> dict[str, list[Footballer]]:
    """Team id → its squad (number, then name), every team of ``season`` listed; 2 queries."""
    squads: dict[str, list[Footballer]] = {
        code: [] for code in season.teams.order_by("id").values_list("code", flat=True)
    }
    for footballer in Footballer.objects.filter(team__season=season).select_related("team"):
        squads.setdefault(footballer.team.code, []).append(footballer)
    return squads


def match_squads(match: Match) -> dict[str, list[Footballer]]:
    """``{"home": [...], "away": [...]}``: the two squads of ``match`` (the report form's
    picker); one query."""
    found: dict[str, list[Footballer]] = {"home": [], "away": []}
    for footballer in Footballer.objects.filter(team__in=[match.home_id, match.away_id]):
        found["home" if footballer.team_id == match.home_id else "away"].append(footballer)
    return found


def _check(name: str, number: int | None) -> tuple[str, int | None]:
    name = " ".join(str(name or "").split())
    if not name or len(name) > 200:
        raise UserError(_("Give the footballer's name (at most 200 characters)."), field="name")
    if number is not None and not 1 <= number <= MAX_NUMBER:
        raise UserError(
            _("A shirt number goes from 1 to %(max)s.") % {"max": MAX_NUMBER}, field="number"
        )
    return name, number


def claim_cards(team: Team, footballers: Iterable[Footballer]) -> int:
    """Link ``team``'s cards with no squad footballer whose typed name is one of
    ``footballers`` (compared names) to him, so that his cards stay his after a rename
    **[choice]**. Returns how many; 2 queries."""
    by_key = {f.name_key: f for f in footballers}
    claimed = []
    for card in Card.objects.filter(team=team, squad__isnull=True).only("pk", "footballer"):
        footballer = by_key.get(footballer_key(card.footballer))
        if footballer is not None:
            card.squad = footballer
            claimed.append(card)
    Card.objects.bulk_update(claimed, ["squad"])
    return len(claimed)


def check_file_squad(squad: Any, where: str) -> list[str]:
    """Problems of a team's optional ``squad`` in a season file (docs/contracts.md §5,
    docs/leagues.md "Squads"): a list of ``{"name", "number"}`` (number optional, 1–99),
    names and numbers once per team, at most :data:`MAX_SQUAD`. English, with ``where``."""
    if squad is None:
        return []
    if not isinstance(squad, list) or len(squad) > MAX_SQUAD:
        return [f"{where}: squad must be a list of at most {MAX_SQUAD} footballers"]
    problems, names, numbers = [], set(), set()
    for index, item in enumerate(squad, start=1):
        at = f"{where}, squad {index}"
        name = item.get("name") if isinstance(item, dict) else None
        number = item.get("number") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            problems.append(f"{at}: name must be a text of 1 to 200 characters")
            continue
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_NUMBER
        ):
            problems.append(f"{at}: number must be a whole number from 1 to {MAX_NUMBER}")
        if footballer_key(name) in names:
            problems.append(f"{at}: {name} is listed twice")
        if number is not None and number in numbers:
            problems.append(f"{at}: number {number} is listed twice")
        names.add(footballer_key(name))
        numbers.add(number)
    return problems


def add_footballers(
    team: Team, actor, lines: Sequence[tuple[int, int | None, str]]
) -> list[Footballer]:
    """Add ``lines`` (``(line number, shirt number or None, name)``, as the squad form
    reads pasted lines) to ``team``'s squad, all or nothing. ``UserError`` listing each
    bad line: an empty or too long name, a number out of 1–99, a name or number already
    in the squad (or twice in the paste), more than :data:`MAX_SQUAD` footballers."""
    _require_edit(actor, team)
    with transaction.atomic():
        Team.objects.select_for_update().filter(pk=team.pk).first()  # one paste at a time
        existing = list(team.squad.all())
        names = {f.name_key: f for f in existing}
        numbers = {f.number: f for f in existing if f.number is not None}
        problems, rows = [], []
        for line, number, name in lines:
            try:
                name, number = _check(name, number)
            except UserError as exc:
                problems.append(_("Line %(n)s: %(problem)s") % {"n": line, "problem": exc})
                continue
            key = footballer_key(name)
            if key in names:
                problems.append(
                    _("Line %(n)s: %(name)s is already in the squad.") % {"n": line, "name": name}
                )
                continue
            if number is not None and number in numbers:
                problems.append(
                    _("Line %(n)s: number %(number)s is already %(name)s's.")
                    % {"n": line, "number": number, "name": numbers[number].name}
                )
                continue
            row = Footballer(team=team, name=name, name_key=key, number=number, added_by=actor)
            names[key] = row
            if number is not None:
                numbers[number] = row
            rows.append(row)
        if len(existing) + len(rows) > MAX_SQUAD:
            problems.append(_("A squad has at most %(max)s footballers.") % {"max": MAX_SQUAD})
        if problems:
            raise UserError(" ".join(problems), field="lines")
        if not rows:
            raise UserError(_("Paste at least one footballer."), field="lines")
        Footballer.objects.bulk_create(rows)
        claim_cards(team, rows)  # cards typed before he was in the squad are his
        audit(
            None,
            actor,
            "league.squad_added",
            target=_target(team),
            after=[{"name": r.name, "number": r.number} for r in rows],
        )
    return rows


def change_footballer(footballer: Footballer, actor, *, name: str, number: int | None) -> None:
    """Rename ``footballer`` or change his shirt number (his cards stay his: they point at
    him, and cards typed with his old name are linked to him first). ``UserError`` for a bad value or one another footballer of the squad has."""
    team = footballer.team
    _require_edit(actor, team)
    name, number = _check(name, number)
    before = {"name": footballer.name, "number": footballer.number}
    claim_cards(team, [footballer])  # his cards typed under the old name stay his
    footballer.name, footballer.name_key, footballer.number = name, footballer_key(name), number
    try:
        with transaction.atomic():
            footballer.save(update_fields=["name", "name_key", "number"])
            audit(
                None,
                actor,
                "league.squad_changed",
                target=_target(team),
                before=before,
                after={"name": name, "number": number},
                about=footballer,
            )
    except IntegrityError:
        raise UserError(
            _("Another footballer of the squad has this name or number."), field="name"
        ) from None


def remove_footballer(footballer: Footballer, actor) -> None:
    """Take ``footballer`` out of the squad. Refused (``UserError``) once he has a card in
    the season: his suspensions follow him, so staff keep him (and may rename him)
    **[choice]**."""
    team = footballer.team
    _require_edit(actor, team)
    if footballer.cards.exists():
        raise UserError(
            _("%(name)s has cards this season: he stays in the squad (his suspensions follow him).")
            % {"name": footballer.name}
        )
    with transaction.atomic():
        audit(
            None,
            actor,
            "league.squad_removed",
            target=_target(team),
            before={"name": footballer.name, "number": footballer.number},
        )
        footballer.delete()


def set_lock(season: Season, actor, locked: bool) -> None:
    """Close (``locked``) or reopen the season's squads; league staff only
    (``MANAGE_SQUADS``, else ``PermissionDenied``). Closing twice or reopening open
    squads changes nothing."""
    if LeaguePermission.MANAGE_SQUADS not in season_permissions(actor, season):
        raise PermissionDenied
    with transaction.atomic():
        if locked:
            _lock, created = SquadLock.objects.get_or_create(
                season=season, defaults={"locked_by": actor}
            )
        else:
            created = SquadLock.objects.filter(season=season).delete()[0] > 0
        if created:
            audit(
                None,
                actor,
                "league.squads_closed" if locked else "league.squads_opened",
                target=f"{season.slug}/squads",
            )


def resolve(match: Match, entries: Iterable[dict], *, field: str) -> list[dict]:
    """The bookings or lineup lines of a report (``{"team": <team id>, "footballer",
    …}``, checked by :mod:`leagues.reporting`) matched to the two squads (module
    docstring): a ``#7``, a squad name or an entry's own ``"squad"`` id (of that team's
    squad: a report read again after a rename) → the squad's name and ``"squad": id``; a name
    not in a non-empty squad → ``"unlisted": True``. ``UserError`` (``field``) for a
    ``#number`` no footballer of that squad wears. One query."""
    entries = list(entries)
    if not entries:
        return []
    squads: dict[str, dict] = {match.home.code: {}, match.away.code: {}}
    rows = Footballer.objects.filter(team__in=[match.home_id, match.away_id]).values(
        "pk", "team_id", "name", "name_key", "number"
    )
    code = {match.home_id: match.home.code, match.away_id: match.away.code}
    names = {match.home.code: match.home.name, match.away.code: match.away.name}
    for row in rows:
        squad = squads[code[row["team_id"]]]
        squad[row["name_key"]] = squad[row["pk"]] = row
        if row["number"] is not None:
            squad[f"#{row['number']}"] = row
    result, problems = [], []
    for entry in entries:
        squad = squads.get(entry["team"], {})
        typed = str(entry["footballer"]).strip()
        token = "#" + typed[1:].strip() if typed.startswith("#") else footballer_key(typed)
        given = entry.get("squad")  # already matched (a stored report read again)
        row = squad.get(given if isinstance(given, int) else token) or squad.get(token)
        entry = {k: v for k, v in entry.items() if k not in ("squad", "unlisted")}
        if row is not None:
            result.append({**entry, "footballer": row["name"], "squad": row["pk"]})
        elif token.startswith("#"):
            problems.append(
                _("No footballer of %(team)s wears %(number)s.")
                % {"team": names.get(entry["team"], entry["team"]), "number": token}
            )
        elif squad:
            result.append({**entry, "unlisted": True})
        else:
            result.append(entry)
    if problems:
        raise UserError(" ".join(problems), field=field)
    return result


def unlisted(*groups: Iterable[dict] | None) -> list[dict]:
    """The entries of a report's bookings and lineups marked ``unlisted`` (a typed name
    not in the team's squad, :func:`resolve`), each ``(team, name)`` once: what staff
    check."""
    seen, found = set(), []
    for group in groups:
        for entry in group or ():
            if isinstance(entry, dict) and entry.get("unlisted"):
                key = (entry.get("team"), footballer_key(entry.get("footballer")))
                if key not in seen:
                    seen.add(key)
                    found.append({"team": entry.get("team"), "footballer": entry.get("footballer")})
    return found
