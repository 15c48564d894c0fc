"""The event file ``arbitro.event/1`` (docs/contracts.md §1): validation, import and export.

``validate_event_file`` is pure: it takes the decoded JSON and returns a typed
``EventFile`` or raises ``EventFileError`` listing *every* problem with its location
(``round 2, table 3: …``). ``import_event`` saves a validated file in one transaction
(all or nothing); ``export_event`` writes an event back in the same format.

Optional keys we add (docs/contracts.md allows optional additions): ``preliminary_rounds`` and
``final_mode`` (``final`` | ``none`` | ``extra_round``) when the file's rounds alone do
not say them; a table may be an object ``{"seats": [...], "override": "reason"}``.
VEKN files may carry the rating fields (docs/contracts.md §9; TR Appendix A, §6.1.1):
``championship`` (``null`` | ``grand_prix`` | ``national`` | ``continental``), ``online`` (bool),
``game_format`` (``standard`` | ``v5`` | ``limited``, default standard) and ``sets`` (a
list of card sets; non-empty makes the event unrated); the export writes them for VEKN
events.

Mitos y Leyendas files (their ``ruleset`` code, docs/contracts.md): a table is a match, two
seats with ``"games_won"`` (omitted while it is played), and a bye is one seat with
``"bye": true`` (or a table object ``{"seats": [...], "bye": true}``). Optional keys:
``best_of`` (1 | 3, default 3) and ``top_cut`` (0 | 4 | 8) at the top level, and
``"top_cut": true`` on the rounds of the top cut (after the Swiss rounds; the first one's
matches in bracket order 1v8, 4v5, 2v7, 3v6 give the seeds). ``preliminary_rounds`` is the
number of Swiss rounds. Incidents of ``myl`` files use the Mitos y Leyendas conduct rules
(``penalties.myl_services``: MyL sections and levels, no ``linked_to``).
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db import transaction

from events import deck_services, rulesets
from events.audit import audit
from events.errors import UserError
from events.limits import FREE_TEXT_MAX_LENGTH, is_vekn_number
from events.models import (
    Deck,
    DeckPlay,
    Event,
    Organisation,
    Person,
    Registration,
    Round,
    Seat,
    Table,
)
from events.player_lists import MAX_NAME_LENGTH, NamesDisagree, PersonNames, person_names
from events.presets import get_preset
from penalties import services as penalty_services
from penalties import vekn_guide as guide
from penalties.models import Penalty
from standings import myl, vekn

FORMAT = "arbitro.event/1"
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")


class EventFileError(Exception):
    """The file is invalid; ``problems`` lists every problem as ``"location: message"``."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class FilePlayer:
    id: str
    name: str
    vekn: str
    competing: bool = True
    deck: str = ""
    first_name: str = ""
    last_name: str = ""


@dataclass(frozen=True)
class FileSeat:
    player: str
    vp: Decimal | None
    games_won: int | None = None


@dataclass(frozen=True)
class FileTable:
    seats: tuple[FileSeat, ...]
    override: str | None = None
    bye: bool = False


@dataclass(frozen=True)
class FileRound:
    number: int
    final: bool
    tables: tuple[FileTable, ...]
    top_cut: bool = False


@dataclass(frozen=True)
class FileIncident:
    id: str
    person: str
    infraction: str
    conditions: dict
    round: int | None
    timing: str
    linked_to: str | None
    level: str | None
    reason: str | None


@dataclass(frozen=True)
class EventFile:
    slug: str
    name: str
    date: dt.date
    ruleset: str
    players: tuple[FilePlayer, ...]
    rounds: tuple[FileRound, ...]
    toss: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    preliminary_rounds: int | None = None
    final_mode: str | None = None
    incidents: tuple[FileIncident, ...] = field(default=())
    best_of: int = 3
    top_cut: int = 0
    championship: str = ""
    online: bool = False
    game_format: str = "standard"
    sets: tuple[str, ...] = ()


GAME_FORMATS = ("standard", "v5", "limited")
CHAMPIONSHIPS = ("grand_prix", "national", "continental")


def _rating_fields(data: dict, problems: list[str]) -> dict:
    """The optional rating keys of a VEKN file (docs/contracts.md §9), checked."""
    out: dict = {}
    championship = data.get("championship")
    if championship is not None and championship not in CHAMPIONSHIPS:
        problems.append("championship: must be null, 'grand_prix', 'national' or 'continental'")
    elif championship:
        out["championship"] = championship
    online = data.get("online", False)
    if not isinstance(online, bool):
        problems.append("online: must be true or false")
    else:
        out["online"] = online
    game_format = data.get("game_format", "standard")
    if game_format not in GAME_FORMATS:
        problems.append("game_format: must be 'standard', 'v5' or 'limited'")
    else:
        out["game_format"] = game_format
    sets = data.get("sets", [])
    if not isinstance(sets, list) or not all(
        isinstance(s, str) and s.strip() and len(s) <= 100 for s in sets
    ):
        problems.append("sets: must be a list of card set names (at most 100 characters)")
    elif len(sets) > 50:
        problems.append("sets: at most 50 card sets")
    else:
        out["sets"] = tuple(dict.fromkeys(s.strip() for s in sets))
    return out


def _vp(value, where: str, problems: list[str]) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        problems.append(f"{where}: vp must be a number")
        return None
    try:
        vp = Decimal(str(value))
    except InvalidOperation:
        problems.append(f"{where}: vp {value!r} is not a number")
        return None
    if not vp.is_finite() or vp < 0 or vp > 5 or (vp * 2) % 1:
        problems.append(f"{where}: vp {value!r} must be between 0 and 5 in steps of 0.5")
        return None
    return vp


def _file_names(p: dict, where: str, pid: str, pname, problems: list[str]) -> PersonNames:
    """A file player's names: ``name`` and the optional ``first_name`` and ``last_name``
    (docs/contracts.md §1), which, when given, make the name together
    (``player_lists.person_names``); a problem otherwise."""
    name = pname.strip() if isinstance(pname, str) else ""
    parts = []
    for key in ("first_name", "last_name"):
        value = p.get(key, "")
        if not isinstance(value, str) or len(value) > MAX_NAME_LENGTH:
            problems.append(
                f"{where} ({pid}): {key} must be a string of at most {MAX_NAME_LENGTH} characters"
            )
            value = ""
        parts.append(value)
    try:
        return person_names(name, *parts)
    except NamesDisagree as exc:
        problems.append(
            f"{where} ({pid}): name {name!r} is not first_name and last_name together ({exc.expected!r})"
        )
        return PersonNames(name)


def validate_event_file(data) -> EventFile:
    """Check a decoded event file against docs/contracts.md §1 and the VEKN sheet rule
    (TR §3.7.2, §3.5, §3.6; docs/rules-vekn.md "Result sheets"). Returns an ``EventFile``; raises
    ``EventFileError`` with every problem found (never stops at the first)."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise EventFileError(["file: the top level must be a JSON object"])
    if data.get("format") != FORMAT:
        problems.append(f"format: must be {FORMAT!r}, found {data.get('format')!r}")
    ruleset = data.get("ruleset")
    spec = rulesets.REGISTRY.get(ruleset) if isinstance(ruleset, str) else None
    if spec is None:
        codes = " or ".join(repr(code) for code in rulesets.REGISTRY)
        problems.append(f"ruleset: must be {codes}, found {ruleset!r}")
    # a file of a ruleset that pairs 1-v-1 matches (Mitos y Leyendas) has matches, best of
    # N games and a top cut; any other file has VEKN tables and a VEKN final
    matches = spec is not None and spec.pairs_matches
    best_of, top_cut = data.get("best_of", 3), data.get("top_cut", 0)
    if matches:
        if best_of not in (1, 3) or isinstance(best_of, bool):
            problems.append("best_of: must be 1 or 3")
            best_of = 3
        if top_cut not in (0, 4, 8) or isinstance(top_cut, bool):
            problems.append("top_cut: must be 0, 4 or 8")
            top_cut = 0
    slug = data.get("slug")
    if not isinstance(slug, str) or not SLUG_RE.match(slug):
        problems.append("slug: letters, digits, hyphens and underscores only (1–80)")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("name: missing")
    date = None
    try:
        date = dt.date.fromisoformat(str(data.get("date")))
    except ValueError:
        problems.append(f"date: {data.get('date')!r} is not an ISO date (YYYY-MM-DD)")

    players: list[FilePlayer] = []
    seen: set[str] = set()
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        problems.append("players: must be a non-empty list")
        raw_players = []
    for i, p in enumerate(raw_players, start=1):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            problems.append(f"{where}: must be an object")
            continue
        pid, pname, number = p.get("id"), p.get("name"), p.get("vekn") or ""
        if not isinstance(pid, str) or not pid.strip():
            problems.append(f"{where}: id missing")
            continue
        if pid in seen:
            problems.append(f"{where}: id {pid!r} is used twice")
        seen.add(pid)
        if not isinstance(pname, str) or not pname.strip():
            problems.append(f"{where} ({pid}): name missing")
        if not isinstance(number, str) or (number and not is_vekn_number(number)):
            problems.append(f"{where} ({pid}): vekn must be a string of digits")
            number = ""
        competing = p.get("competing", True)
        if not isinstance(competing, bool):
            problems.append(f"{where} ({pid}): competing must be true or false")
            competing = True
        names = _file_names(p, where, pid, pname, problems)
        deck = p.get("deck", "")
        if deck is None:
            deck = ""
        if not isinstance(deck, str):
            problems.append(f"{where} ({pid}): deck must be the decklist's text")
            deck = ""
        elif deck.strip():
            deck = deck.replace("\r\n", "\n").strip()
            reason = _deck_problem(data.get("ruleset"), deck)
            if reason:
                problems.append(f"{where} ({pid}): deck: {reason}")
        players.append(
            FilePlayer(
                pid,
                names.name,
                number,
                competing,
                deck=deck.strip(),
                first_name=names.first,
                last_name=names.last,
            )
        )
    numbers = [p.vekn for p in players if p.vekn]
    for dup in sorted({n for n in numbers if numbers.count(n) > 1}):
        problems.append(f"players: VEKN number {dup} is given to more than one player")

    rounds: list[FileRound] = []
    raw_rounds = data.get("rounds", [])
    if not isinstance(raw_rounds, list):
        problems.append("rounds: must be a list")
        raw_rounds = []
    for ri, r in enumerate(raw_rounds, start=1):
        if matches:
            rounds_problem = _myl_round(r, ri, seen, best_of, problems)
        else:
            rounds_problem = _round(r, ri, seen, problems)
        if rounds_problem is not None:
            rounds.append(rounds_problem)
    if [r.number for r in rounds] != list(range(1, len(rounds) + 1)):
        problems.append("rounds: must be numbered 1, 2, 3… in order")
    finals = [r for r in rounds if r.final]
    if len(finals) > 1 or (finals and rounds[-1] is not finals[0]):
        problems.append("rounds: only the last round can be the final")
    if finals and len(rounds) - 1 < 2:
        problems.append("rounds: a final needs at least 2 preliminary rounds before it (TR §3.1)")

    if matches:
        _myl_rounds_order(rounds, top_cut, data.get("preliminary_rounds"), problems)
    toss = _id_list(data.get("toss"), "toss", seen, problems)
    dropped = _id_list(data.get("dropped"), "dropped", seen, problems)
    incidents = _incidents(data.get("incidents"), seen, len(rounds), problems, ruleset)
    prelim = data.get("preliminary_rounds")
    if prelim is not None and (
        not isinstance(prelim, int) or isinstance(prelim, bool) or prelim < 2
    ):
        problems.append("preliminary_rounds: must be a whole number ≥ 2")
        prelim = None
    final_mode = data.get("final_mode")
    if final_mode is not None and final_mode not in ("final", "none", "extra_round"):
        problems.append("final_mode: must be 'final', 'none' or 'extra_round'")
        final_mode = None
    rating = _rating_fields(data, problems) if spec is not None and spec.rates_players else {}
    if problems:
        raise EventFileError(problems)
    return EventFile(
        slug=slug,
        name=name.strip(),
        date=date,
        ruleset=ruleset,
        players=tuple(players),
        rounds=tuple(rounds),
        toss=toss,
        dropped=dropped,
        preliminary_rounds=prelim,
        final_mode=final_mode,
        incidents=incidents,
        best_of=best_of if matches else 3,
        top_cut=top_cut if matches else 0,
        **rating,
    )


def _games(value, where: str, need: int, problems: list[str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= need:
        problems.append(f"{where}: games_won must be a whole number from 0 to {need}")
        return None
    return value


def _myl_round(r, ri: int, known: set[str], best_of: int, problems: list[str]):
    """A round of a ``myl`` file: matches of two seats with ``games_won``, byes of one."""
    where = f"round {ri}"
    if not isinstance(r, dict):
        problems.append(f"{where}: must be an object")
        return None
    number = r.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        problems.append(f"{where}: number missing")
        return None
    where = f"round {number}"
    if r.get("final", False) is not False:
        problems.append(f"{where}: a myl event has no VEKN final (use top_cut rounds)")
    top_cut = r.get("top_cut", False)
    if not isinstance(top_cut, bool):
        problems.append(f"{where}: top_cut must be true or false")
        top_cut = False
    raw_tables = r.get("tables")
    if not isinstance(raw_tables, list) or not raw_tables:
        problems.append(f"{where}: tables must be a non-empty list")
        return None
    need = best_of // 2 + 1
    tables: list[FileTable] = []
    in_round: set[str] = set()
    for ti, t in enumerate(raw_tables, start=1):
        tw = f"{where}, table {ti}"
        bye = False
        if isinstance(t, dict):
            bye = t.get("bye", False) is True
            t = t.get("seats")
        if not isinstance(t, list):
            problems.append(f"{tw}: must be a list of seats")
            continue
        seats: list[FileSeat] = []
        for si, seat in enumerate(t, start=1):
            sw = f"{tw}, seat {si}"
            if not isinstance(seat, dict) or not isinstance(seat.get("player"), str):
                problems.append(f"{sw}: must be an object with a player id")
                continue
            pid = seat["player"]
            if pid not in known:
                problems.append(f"{sw}: unknown player {pid!r}")
            if pid in in_round:
                problems.append(f"{sw}: {pid} plays twice in this round")
            in_round.add(pid)
            if "vp" in seat:
                problems.append(f"{sw}: a myl seat has games_won, not vp")
            bye = bye or seat.get("bye") is True
            seats.append(FileSeat(pid, None, _games(seat.get("games_won"), sw, need, problems)))
        if bye:
            if len(seats) != 1:
                problems.append(f"{tw}: a bye has one player")
            if top_cut:
                problems.append(f"{tw}: no bye in the top cut")
        elif len(seats) != 2:
            problems.append(f"{tw}: {len(seats)} seats; a match has 2 players")
        else:
            a, b = seats[0].games_won, seats[1].games_won
            if (a is None) != (b is None):
                problems.append(f"{tw}: give games_won for both players or neither")
            elif a is not None and a == need and b == need:
                problems.append(f"{tw}: both players cannot win {need} games")
            elif a is not None and top_cut and a == b:
                problems.append(f"{tw}: a top-cut match cannot be a draw")
        tables.append(FileTable(tuple(seats), None, bye))
    return FileRound(number=number, final=False, tables=tuple(tables), top_cut=top_cut)


def _myl_rounds_order(rounds: list[FileRound], top_cut: int, prelim, problems: list[str]):
    """Top-cut rounds come after every Swiss round, in halving sizes from the cut."""
    swiss = [r for r in rounds if not r.top_cut]
    cut = [r for r in rounds if r.top_cut]
    if cut and rounds[: len(swiss)] != swiss:
        problems.append("rounds: the top-cut rounds come after every Swiss round")
    if cut and not top_cut:
        problems.append("top_cut: the file has top-cut rounds; give top_cut 4 or 8")
    if cut and top_cut:
        sizes = [len(r.tables) for r in cut]
        expected = [top_cut // 2 ** (k + 1) for k in range(len(cut))]
        if sizes != expected:
            problems.append(
                f"rounds: the top {top_cut} has rounds of {expected} matches, found {sizes}"
            )
    if isinstance(prelim, int) and not isinstance(prelim, bool) and cut and prelim != len(swiss):
        problems.append("preliminary_rounds: must equal the Swiss rounds before the top cut")


TIMINGS = tuple(timing.value for timing in guide.Timing)
"""The ``timing`` codes of an incident (docs/contracts.md §1; ``penalties.levels.TimingCode``)."""
LEVELS = tuple(level.value for level in guide.Level)
"""The ``level`` codes a VEKN incident may give (JG §1.1; ``penalties.vekn_guide.Level``)."""


def _incidents(
    value, known: set[str], rounds: int, problems: list[str], ruleset: str = "vekn"
) -> tuple:
    """Validate the ``incidents`` list (docs/contracts.md §1) and assess it with the judges' guide
    engine (the MyL conduct rules for ``myl`` files), so that an unknown infraction or a
    missing condition is a located problem."""

    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append("incidents: must be a list")
        return ()
    out: list[FileIncident] = []
    ids: set[str] = set()
    for n, item in enumerate(value, start=1):
        where = f"incidents[{n}]"
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            problems.append(f"{where}: must be an object with an id")
            continue
        iid = item["id"]
        where = f"incident {iid}"
        if iid in ids:
            problems.append(f"{where}: id used twice")
        ids.add(iid)
        person = item.get("person")
        if person not in known:
            problems.append(f"{where}: unknown person {person!r}")
        conditions = item.get("conditions") or {}
        if not isinstance(conditions, dict) or not all(
            isinstance(v, bool) for v in conditions.values()
        ):
            problems.append(f"{where}: conditions must map names to true/false")
            conditions = {}
        rnd = item.get("round")
        if rnd is not None and (
            not isinstance(rnd, int) or isinstance(rnd, bool) or not 1 <= rnd <= max(rounds, 1)
        ):
            problems.append(f"{where}: round {rnd!r} is not a round of the file")
            rnd = None
        timing = item.get("timing") or guide.Timing.DURING_GAME.value
        if timing not in TIMINGS:
            problems.append(f"{where}: timing must be one of {', '.join(TIMINGS)}")
            timing = guide.Timing.DURING_GAME.value
        if timing in (guide.Timing.DURING_GAME, guide.Timing.BETWEEN_ROUNDS) and rnd is None:
            problems.append(f"{where}: timing {timing} needs a round")
        level = item.get("level")
        if level is not None and level not in LEVELS and _file_incidents(ruleset) is None:
            problems.append(f"{where}: level must be null or one of {', '.join(LEVELS)}")
            level = None
        reason = item.get("reason")
        if level is not None and not (isinstance(reason, str) and reason.strip()):
            problems.append(f"{where}: a level other than the rules' needs a reason")
        if isinstance(reason, str) and len(reason) > FREE_TEXT_MAX_LENGTH:
            problems.append(_too_long(where, "reason", reason))
        out.append(
            FileIncident(
                id=iid,
                person=person if isinstance(person, str) else "",
                infraction=str(item.get("infraction", "")),
                conditions=conditions,
                round=rnd,
                timing=timing,
                linked_to=item.get("linked_to"),
                level=level,
                reason=reason if isinstance(reason, str) else None,
            )
        )
    if (own := _file_incidents(ruleset)) is not None:
        own.check_file_incidents(out, problems)
    elif not problems:
        try:
            guide.assess_incidents(guide.VEKN_V2, [_guide_incident(i) for i in out])
        except (guide.InvalidIncident, guide.UnknownInfraction, ValueError) as exc:
            problems.append(str(exc))
    return tuple(out)


def _too_long(where: str, key: str, text: str) -> str:
    """The problem of a free text over the limit (``events.limits``; docs/contracts.md "Free
    text")."""
    return (
        f"{where}: {key} has {len(text)} characters; at most {FREE_TEXT_MAX_LENGTH} "
        "(free text limit)"
    )


def _guide_incident(i: FileIncident):

    return guide.Incident(
        id=i.id,
        person=i.person,
        infraction=i.infraction,
        conditions=i.conditions,
        linked_to=i.linked_to,
        level=i.level,
        reason=i.reason,
    )


def _id_list(value, key: str, known: set[str], problems: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"{key}: must be a list of player ids")
        return ()
    for v in value:
        if v not in known:
            problems.append(f"{key}: unknown player {v!r}")
    if len(set(value)) != len(value):
        problems.append(f"{key}: a player is listed twice")
    return tuple(value)


def _round(r, ri: int, known: set[str], problems: list[str]) -> FileRound | None:
    where = f"round {ri}"
    if not isinstance(r, dict):
        problems.append(f"{where}: must be an object")
        return None
    number = r.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        problems.append(f"{where}: number missing")
        return None
    where = f"round {number}"
    final = r.get("final", False)
    if not isinstance(final, bool):
        problems.append(f"{where}: final must be true or false")
        final = False
    raw_tables = r.get("tables")
    if not isinstance(raw_tables, list) or not raw_tables:
        problems.append(f"{where}: tables must be a non-empty list")
        return None
    if final and len(raw_tables) != 1:
        problems.append(f"{where}: the final is one table")
    tables: list[FileTable] = []
    in_round: set[str] = set()
    for ti, t in enumerate(raw_tables, start=1):
        tw = f"{where}, table {ti}"
        override = None
        if isinstance(t, dict):
            override = t.get("override")
            if override is not None and (not isinstance(override, str) or not override.strip()):
                problems.append(f"{tw}: override must be a non-empty reason")
                override = None
            elif override is not None and len(override) > FREE_TEXT_MAX_LENGTH:
                problems.append(_too_long(tw, "override", override))
            t = t.get("seats")
        if not isinstance(t, list):
            problems.append(f"{tw}: must be a list of seats")
            continue
        seats: list[FileSeat] = []
        for si, s in enumerate(t, start=1):
            sw = f"{tw}, seat {si}"
            if not isinstance(s, dict) or not isinstance(s.get("player"), str):
                problems.append(f"{sw}: must be an object with a player id")
                continue
            pid = s["player"]
            if pid not in known:
                problems.append(f"{sw}: unknown player {pid!r}")
            if pid in in_round:
                problems.append(f"{sw}: {pid} is seated twice in this round")
            in_round.add(pid)
            seats.append(FileSeat(pid, _vp(s.get("vp"), sw, problems)))
        size_ok = (2 <= len(seats) <= 5) if final else len(seats) in (4, 5)
        if not size_ok:
            problems.append(
                f"{tw}: {len(seats)} seats; a table has 4 or 5 players"
                + (" (a final 2 to 5)" if final else "")
            )
        elif len(seats) in (4, 5) and override is None:
            check = vekn.check_sheet([s.vp for s in seats])
            if not check.valid:
                problems.append(f'{tw}: {check.reason} (add "override": "reason" to accept it)')
        tables.append(FileTable(tuple(seats), override.strip() if override else None))
    return FileRound(number=number, final=final, tables=tuple(tables))


def import_event(
    data, *, organisation=None, replace: bool = False, publish: bool = False, actor=None
):
    """Validate and save an event file in one transaction (docs/contracts.md §1). An existing event
    with the same slug is an error unless ``replace``. Returns the new ``Event``."""

    ef = validate_event_file(data)
    with transaction.atomic():
        existing = Event.objects.select_for_update().filter(slug=ef.slug).first()
        if existing and not replace:
            raise EventFileError(
                [f"slug: an event {ef.slug!r} exists; use --replace to replace it"]
            )
        if existing:
            audit(existing, actor, "event.replace", ef.slug, comment="replaced by an imported file")
            # Seats protect registrations; remove them first, then the event cascades.
            Seat.objects.filter(round__event=existing).delete()
            existing.delete()
        if organisation is None:
            organisation, _ = Organisation.objects.get_or_create(
                slug="imported", defaults={"name": "Imported events"}
            )
        if rulesets.of(ef).pairs_matches:
            event = _create_myl_event(ef, organisation, publish)
        else:
            prelim_count = sum(1 for r in ef.rounds if not r.final)
            has_final = any(r.final for r in ef.rounds)
            final_mode = ef.final_mode or "final"
            if has_final and final_mode != "final":
                raise EventFileError(["final_mode: the file has a final round"])
            event = Event.objects.create(
                organisation=organisation,
                slug=ef.slug,
                name=ef.name,
                date=ef.date,
                ruleset=ef.ruleset,
                preliminary_rounds=ef.preliminary_rounds
                or (prelim_count if has_final else max(prelim_count, 3)),
                final_mode=final_mode,
                standings_published=publish,
                championship=ef.championship,
                online=ef.online,
                game_format=ef.game_format,
                format=Event.Format.LIMITED
                if ef.game_format == Event.GameFormat.LIMITED
                else Event.Format.CONSTRUCTED,
                sets=list(ef.sets),
            )
            extra = 1 if final_mode == "extra_round" else 0
            if prelim_count > event.preliminary_rounds + extra:
                raise EventFileError(["preliminary_rounds: the file has more preliminary rounds"])
        first_seen: dict[str, int] = {}
        for r in ef.rounds:
            for t in r.tables:
                for s in t.seats:
                    first_seen.setdefault(s.player, r.number)
        people_by_number = {
            p.vekn_number: p
            for p in Person.objects.filter(vekn_number__in=[p.vekn for p in ef.players if p.vekn])
        }
        regs: dict[str, Registration] = {}
        toss_pos = {pid: i for i, pid in enumerate(ef.toss, start=1)}
        for p in ef.players:
            person = people_by_number.get(p.vekn) if p.vekn else None
            if person is None:
                person = Person.objects.create(
                    name=p.name, vekn_number=p.vekn, first_name=p.first_name, last_name=p.last_name
                )
            regs[p.id] = Registration.objects.create(
                event=event,
                person=person,
                code=p.id,
                status=Registration.Status.DROPPED
                if p.id in ef.dropped
                else Registration.Status.CHECKED_IN,
                first_round=first_seen.get(p.id, 1),
                toss_position=toss_pos.get(p.id),
                competing=p.competing,
            )
        first_cut = next((r for r in ef.rounds if r.top_cut), None)
        for r in ef.rounds:
            rnd = Round.objects.create(
                event=event,
                number=r.number,
                is_final=r.final,
                is_top_cut=r.top_cut,
                seating_published=True,
                finalists=[regs[p].id for p in _myl_seeds(first_cut)] if r is first_cut else [],
            )
            tables = Table.objects.bulk_create(
                [
                    Table(round=rnd, number=i, override_reason=t.override or "", is_bye=t.bye)
                    for i, t in enumerate(r.tables, start=1)
                ]
            )
            Seat.objects.bulk_create(
                [
                    Seat(
                        table=table,
                        round=rnd,
                        registration=regs[s.player],
                        position=pos,
                        vp=s.vp,
                        games_won=s.games_won,
                    )
                    for table, t in zip(tables, r.tables, strict=True)
                    for pos, s in enumerate(t.seats, start=1)
                ]
            )
        deck_errors = deck_services.import_decks(
            event, {regs[p.id]: p.deck for p in ef.players if p.deck}, actor
        )
        if deck_errors:
            raise EventFileError(deck_errors)
        _import_incidents(event, ef, regs)
        audit(
            event,
            actor,
            "event.import",
            ef.slug,
            after={
                "players": len(ef.players),
                "rounds": len(ef.rounds),
                "incidents": len(ef.incidents),
                "decks": sum(1 for p in ef.players if p.deck),
            },
        )
    return event


def _create_myl_event(ef: EventFile, organisation, publish: bool):
    """A Mitos y Leyendas event with the ``myl-2026`` preset's values and the file's."""

    swiss = sum(1 for r in ef.rounds if not r.top_cut)
    fields = get_preset("myl-2026").event_fields()
    fields.update(
        preliminary_rounds=ef.preliminary_rounds or max(swiss, 2),
        best_of=ef.best_of,
        top_cut=ef.top_cut,
    )
    if swiss > fields["preliminary_rounds"]:
        raise EventFileError(["preliminary_rounds: the file has more Swiss rounds"])
    return Event.objects.create(
        organisation=organisation,
        slug=ef.slug,
        name=ef.name,
        date=ef.date,
        standings_published=publish,
        **fields,
    )


def _myl_seeds(first_cut: FileRound | None) -> list[str]:
    """The top cut's seeds, best first, from its first round's matches in bracket order
    (1v8, 4v5, 2v7, 3v6; top 4: 1v4, 2v3)."""

    if first_cut is None:
        return []
    players = [s.player for t in first_cut.tables for s in t.seats]
    numbers = [n for pair in myl.top_cut_pairs(range(1, len(players) + 1)) for n in pair]
    seeds = [""] * len(players)
    for number, player in zip(numbers, players, strict=True):
        seeds[number - 1] = player
    return seeds


def _file_incidents(code):
    """The module that checks and imports a ruleset's own file incidents (MyL:
    ``penalties.myl_files``, named in ``events.rulesets``); ``None`` for the VEKN
    judges' guide, done here, or for an unknown code (already a file problem)."""
    spec = rulesets.REGISTRY.get(code) if isinstance(code, str) else None
    if spec is None or "file_incidents" not in spec.adapters:
        return None
    return spec.adapter("file_incidents")


def _import_incidents(event, ef: EventFile, regs) -> None:
    """Incidents of a file are what happened: confirmed penalties at the level the rules
    give unless ``level`` says otherwise (docs/contracts.md §1), assessed in file order."""

    if not ef.incidents:
        return
    if (own := _file_incidents(ef.ruleset)) is not None:
        own.import_file_incidents(event, ef.incidents, regs)
        return
    assessments = guide.assess_incidents(guide.VEKN_V2, [_guide_incident(i) for i in ef.incidents])
    rounds = {r.number: r for r in event.rounds.all()}
    saved: dict[str, Penalty] = {}
    for i in ef.incidents:
        a = assessments[i.id]
        reg = regs[i.person]
        saved[i.id] = Penalty.objects.create(
            event=event,
            registration=reg,
            person=reg.person,
            client_id=uuid.uuid4(),
            external_id=i.id,
            infraction=i.infraction,
            conditions=i.conditions,
            round=rounds.get(i.round) if i.round else None,
            round_number=i.round,
            timing=i.timing,
            linked_to=saved.get(i.linked_to) if i.linked_to else None,
            **penalty_services.assessment_fields(a),
            deviation_reason=(i.reason or "").strip() if i.level else "",
            ethics_committee=bool(a.report_to_ethics_committee),
            status=Penalty.Status.CONFIRMED,
        )
        penalty_services.apply_effects(saved[i.id])


def _deck_problem(ruleset, text: str) -> str:
    """Why a player's ``deck`` text cannot be read (the ruleset's deck checker,
    ``events.deck_checkers``: an empty, too long or cardless list), or ``""``. The file's
    event does not exist yet: the list is read with the ruleset's default format."""
    try:
        spec = rulesets.get(ruleset)
    except rulesets.UnknownRuleset:
        return ""
    try:
        spec.adapter("decks").check(text, None)
    except UserError as exc:
        return str(exc.message)
    return ""


def export_event(event) -> dict:
    """The event as an ``arbitro.event/1`` document (docs/contracts.md §1), in bounded queries."""

    regs = list(event.registrations.select_related("person").order_by("id"))
    code = {r.id: r.code for r in regs}
    decks = dict(
        Deck.objects.filter(registration__event=event, label="").values_list(
            "registration_id", "text"
        )
    )
    if event.multideck:
        # A multi-deck event (VEKN TR §3.1.5a): a player's one "deck" is the deck they
        # played in the final, else their first deck by name (docs/decks.md).
        for reg_id, text in (
            Deck.objects.filter(registration__event=event)
            .order_by("-label")
            .values_list("registration_id", "text")
        ):
            decks[reg_id] = text
        final = event.rounds.filter(is_final=True).first()
        if final is not None:
            decks.update(
                DeckPlay.objects.filter(
                    registration__event=event, round_number=final.number
                ).values_list("registration_id", "deck__text")
            )
    rounds = list(event.rounds.order_by("number").prefetch_related("tables"))
    myl_event = rulesets.of(event).pairs_matches
    seats: dict[int, list] = {}
    for s in Seat.objects.filter(round__event=event).order_by("position"):
        seats.setdefault(s.table_id, []).append(s)
    doc_rounds = []
    for rnd in rounds:
        tables = []
        for table in sorted(rnd.tables.all(), key=lambda t: t.number):
            seat_list = []
            for s in seats.get(table.id, []):
                entry = {"player": code[s.registration_id]}
                if myl_event:
                    if table.is_bye:
                        entry["bye"] = True
                    elif s.games_won is not None:
                        entry["games_won"] = s.games_won
                elif s.vp is not None:
                    entry["vp"] = float(s.vp)
                seat_list.append(entry)
            tables.append(
                {"seats": seat_list, "override": table.override_reason}
                if table.override_reason
                else seat_list
            )
        doc_rounds.append(
            {"number": rnd.number, "final": rnd.is_final, "tables": tables}
            | ({"top_cut": True} if rnd.is_top_cut else {})
        )
    doc = {
        "format": FORMAT,
        "ruleset": event.ruleset,
        "slug": event.slug,
        "name": event.name,
        "date": event.date.isoformat(),
        "preliminary_rounds": event.preliminary_rounds,
        "final_mode": event.final_mode,
        "players": [
            {"id": r.code, "name": r.person.name, "vekn": r.person.vekn_number}
            | {k: v for k in ("first_name", "last_name") if (v := getattr(r.person, k))}
            | ({} if r.competing else {"competing": False})
            | ({"deck": decks[r.id]} if r.id in decks else {})
            for r in regs
        ],
        "rounds": doc_rounds,
    }
    if myl_event:
        doc.update(best_of=event.best_of, top_cut=event.top_cut)
    if rulesets.of(event).rates_players:
        doc.update(
            championship=event.championship or None,
            online=event.online,
            game_format=event.game_format,
            sets=list(event.sets or []),
        )
    toss = [r.code for r in sorted(regs, key=lambda r: r.toss_position or 0) if r.toss_position]
    if toss:
        doc["toss"] = toss
    dropped = [r.code for r in regs if r.status == "dropped"]
    if dropped:
        doc["dropped"] = dropped
    incidents = _export_incidents(event, code)
    if incidents:
        doc["incidents"] = incidents
    return doc


def _export_incidents(event, code: dict[int, str]) -> list[dict]:

    out = []
    for p in (
        Penalty.objects.filter(event=event)
        .exclude(status=Penalty.Status.VOIDED)
        .select_related("linked_to")
        .order_by("created_at", "id")
    ):
        out.append(
            {
                "id": p.external_id or f"i{p.pk}",
                "person": code[p.registration_id],
                "infraction": p.infraction,
                "conditions": p.conditions,
                "round": p.round_number,
                "timing": p.timing,
                "linked_to": (p.linked_to.external_id or f"i{p.linked_to.pk}")
                if p.linked_to
                else None,
                "level": p.level if p.level != p.guide_level else None,
                "reason": p.deviation_reason or None,
            }
        )
    return out
