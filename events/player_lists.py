"""Lists of players pasted or uploaded by an organiser, and matching names (pure: no ORM, no
request; ``docs/organisers.md`` "Adding many players at once").

:func:`parse` reads the text into :class:`Line` rows (one per line that is not blank, with
its line number in the text, 1-based); :func:`classify` says what saving each line would
do, given what the database knows (frozen :class:`Candidate` rows the service looked up).
Nothing here saves anything: the service (``events.roster``) does, all lines at once.

Accepted shapes **[choice]**, one player a line:

- a CSV file with a header line naming the columns ``name`` and ``vekn`` (also ``vekn
  number``, ``number``, ``nombre``, ``número``), separated by ``,``, ``;`` or a tab;
- a name alone (``Ana Pérez``; a comma inside a name is kept: ``Pérez, Ana``);
- a name and a number, in either order, separated by ``;``, ``,``, a tab, ``|`` or spaces
  (``Ana Pérez; 1234567``, ``1234567 Ana Pérez``). The last word holding a digit is the
  number, so ``Ana 12a`` is an error (bad number), not a name.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from hashlib import sha256

from django.utils.translation import gettext_lazy as _

MAX_LINES = 1000
"""At most this many players in one list (blank lines not counted)."""
MAX_NAME_LENGTH = 200
"""``Person.name``'s ``max_length``."""
MAX_TEXT_LENGTH = 300_000
"""Characters of a whole list (1,000 lines of a 200-character name and a number, with room)."""

_VEKN = re.compile(r"[0-9]{1,20}")  # events.limits.VEKN_NUMBER_PATTERN, without the anchors
_HEADER_NAMES = {"name", "nombre", "player", "jugador"}
_HEADER_NUMBERS = {"vekn", "vekn number", "vekn_number", "number", "numero", "vekn id", "id"}
_SEPARATORS = ";,\t|"
# The number is the last word holding a digit, after a separator or spaces; or the first.
_NUMBER_LAST = re.compile(
    r"^(?P<name>.*?)[\s;,\t|]+(?P<number>[^\s;,\t|]*\d[^\s;,\t|]*)[\s;,\t|]*$"
)
_NUMBER_FIRST = re.compile(r"^(?P<number>\d+)[\s;,\t|]+(?P<name>\D.*)$")


def name_key(name: str) -> str:
    """Names compared without case, accents or extra spaces ("José  Pérez" = "jose perez")."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class PersonNames:
    """A person's names as stored: ``name`` (shown everywhere) and, when the organiser gave
    them, ``first`` and ``last`` (both ``""``: not given)."""

    name: str
    first: str = ""
    last: str = ""


class NamesDisagree(ValueError):
    """The name typed is not the first and last names together; ``expected`` is what it
    would be."""

    def __init__(self, expected: str):
        super().__init__(expected)
        self.expected = expected


def person_names(name: str, first: str = "", last: str = "") -> PersonNames:
    """The stored names of a person from a form: spaces collapsed in each part; with a
    first or last name given, the name shown is both together ("María José" + "Herrera" →
    "María José Herrera"), whether the name was left empty or typed the same way (compared
    by :func:`name_key`, so "maria jose herrera" takes the parts' spelling) **[choice]**:
    one display name, never two that disagree (``docs/organisers.md`` "Adding a player").

    Raises :class:`NamesDisagree` when a name typed disagrees with its parts. No length
    check here: the callers check ``MAX_NAME_LENGTH``."""
    name, first, last = (" ".join((s or "").split()) for s in (name, first, last))
    if not (first or last):
        return PersonNames(name)
    together = " ".join(part for part in (first, last) if part)
    if name and name_key(name) != name_key(together):
        raise NamesDisagree(together)
    return PersonNames(together, first, last)


class ListError(ValueError):
    """The whole list is refused (too long, nothing in it): ``message`` says why."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = message


# What can be wrong with one line, by code (the preview shows the words).
NO_NAME = "no_name"
NAME_TOO_LONG = "name_too_long"
BAD_NUMBER = "bad_number"
CONTROL_CHARACTERS = "control_characters"
DUPLICATE = "duplicate"
ALREADY_REGISTERED = "already_registered"
NUMBER_OTHER_NAME = "number_other_name"
NAME_AMBIGUOUS = "name_ambiguous"
NUMBER_ONLY_UNKNOWN = "number_only_unknown"
BLOCKED = "blocked"

REASONS = {
    NO_NAME: _("no name"),
    NAME_TOO_LONG: _("the name is longer than %(max)s characters"),
    BAD_NUMBER: _("“%(number)s” is not a %(label)s (1 to 20 digits)"),
    CONTROL_CHARACTERS: _("the line holds invisible control characters"),
    DUPLICATE: _("the same player as line %(line)s"),
    ALREADY_REGISTERED: _("already registered in this event"),
    NUMBER_OTHER_NAME: _("number %(number)s is recorded under another name: check it"),
    NAME_AMBIGUOUS: _("several players have this name: add the number"),
    NUMBER_ONLY_UNKNOWN: _("give the name too: this number has not played here"),
    BLOCKED: _("suspended or banned on this event's date"),
}

# What saving a line does.
NEW = "new"
EXISTING = "existing"
ERROR = "error"


@dataclass(frozen=True)
class Line:
    """One line of the list: ``number`` (1-based, in the text), ``name`` and ``vekn`` as
    read (stripped; ``vekn`` may be ``""``), and ``error`` (a code of :data:`REASONS`, or
    ``""``) with its ``params``."""

    number: int
    name: str
    vekn: str
    error: str = ""
    params: tuple[tuple[str, object], ...] = ()

    @property
    def key(self) -> str:
        return name_key(self.name)


@dataclass(frozen=True)
class Candidate:
    """A person the database knows: ``id``, ``name``, ``vekn`` (``""`` if none), whether
    the event's organisation has met them (``known``: registered in one of its events),
    whether they are registered in this event, and whether a sanction keeps them out."""

    id: int
    name: str
    vekn: str = ""
    known: bool = True
    registered: bool = False
    blocked: bool = False


@dataclass(frozen=True)
class Outcome:
    """What saving ``line`` does: ``kind`` is :data:`NEW`, :data:`EXISTING` (then
    ``person`` is the candidate registered, and ``adds_number`` when the line's number is
    recorded on a person who had none) or :data:`ERROR` (the line's ``error``)."""

    line: Line
    kind: str
    person: Candidate | None = None
    adds_number: bool = False

    @property
    def reason(self) -> str:
        """The error's words, translated (``""`` when none)."""
        if not self.line.error:
            return ""
        params = dict(self.line.params)
        params["label"] = _in_sentence(params.get("label", _("VEKN number")))
        return str(REASONS[self.line.error]) % params


def _header(cells: list[str]) -> tuple[int, int | None] | None:
    """(name column, number column or None) when ``cells`` is a header line, else None."""
    keys = [name_key(c) for c in cells]
    if not any(k in _HEADER_NAMES for k in keys):
        return None
    name_col = next(i for i, k in enumerate(keys) if k in _HEADER_NAMES)
    number_col = next((i for i, k in enumerate(keys) if k in _HEADER_NUMBERS), None)
    return name_col, number_col


def _split_free(text: str) -> tuple[str, str]:
    """(name, number) of a line without a header (see the module docstring)."""
    if m := _NUMBER_FIRST.match(text):
        return m["name"].strip(" " + _SEPARATORS), m["number"]
    if m := _NUMBER_LAST.match(text):
        return m["name"].strip(" " + _SEPARATORS), m["number"]
    if text and text.strip(" " + _SEPARATORS).isdigit():
        return "", text.strip(" " + _SEPARATORS)
    return text.strip(" " + _SEPARATORS), ""


def _in_sentence(label: str) -> str:
    """``label`` as a word inside a sentence: "Player number" → "player number", an
    acronym first kept ("VEKN number", "Número VEKN" → "número VEKN")."""
    label = str(label)
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _check(number: int, name: str, vekn: str, number_label: str = _("VEKN number")) -> Line:
    """The line, with the first thing wrong in it alone (before comparing lines);
    ``number_label`` names the player's number in :data:`BAD_NUMBER`'s reason."""
    if any(unicodedata.category(c) in ("Cc", "Cf") and c != "\t" for c in name + vekn):
        return Line(number, name, vekn, CONTROL_CHARACTERS)
    if vekn and not _VEKN.fullmatch(vekn):
        return Line(
            number, name, vekn, BAD_NUMBER, (("number", vekn[:30]), ("label", number_label))
        )
    if len(name) > MAX_NAME_LENGTH:
        return Line(
            number, name[:MAX_NAME_LENGTH], vekn, NAME_TOO_LONG, (("max", MAX_NAME_LENGTH),)
        )
    if not name and not vekn:
        return Line(number, name, vekn, NO_NAME)
    return Line(number, name, vekn)


def parse(text: str, number_label: str = _("VEKN number")) -> list[Line]:
    """The lines of ``text`` (see the module docstring), blank lines skipped, each checked
    alone and against the lines above it (:data:`DUPLICATE`: the same number, or the same
    name (:func:`name_key`) where either line has no number). ``number_label``: what the
    event's ruleset calls the player's number (``RulesetSpec.player_number_label``), in
    :data:`BAD_NUMBER`'s reason.

    ``ListError`` when the text has more than :data:`MAX_TEXT_LENGTH` characters, more than
    :data:`MAX_LINES` players, or none."""
    if len(text) > MAX_TEXT_LENGTH:
        raise ListError(
            _("The list is too long: at most %(n)s characters.") % {"n": f"{MAX_TEXT_LENGTH:,}"}
        )
    rows = [(i, raw.strip()) for i, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1)]
    rows = [(i, raw) for i, raw in rows if raw.strip(" " + _SEPARATORS)]
    if not rows:
        raise ListError(_("The list is empty: paste one player a line."))
    columns = None
    first = rows[0][1]
    delimiter = next((d for d in ("\t", ";", ",") if d in first), None)
    if delimiter:
        columns = _header([c.strip() for c in next(csv.reader([first], delimiter=delimiter))])
        if columns:
            rows = rows[1:]
    if len(rows) > MAX_LINES:
        raise ListError(
            _("The list has %(n)s players: at most %(max)s at once.")
            % {"n": len(rows), "max": MAX_LINES}
        )
    if not rows:
        raise ListError(_("The list is empty: paste one player a line."))
    lines = []
    for number, raw in rows:
        if columns:
            cells = next(csv.reader([raw], delimiter=delimiter), [])
            name_col, number_col = columns
            name = cells[name_col].strip() if len(cells) > name_col else ""
            vekn = (
                cells[number_col].strip()
                if number_col is not None and len(cells) > number_col
                else ""
            )
        else:
            name, vekn = _split_free(raw)
        lines.append(_check(number, " ".join(name.split()), vekn, number_label))
    return _mark_duplicates(lines)


def _mark_duplicates(lines: Iterable[Line]) -> list[Line]:
    seen_numbers: dict[str, int] = {}
    seen_names: dict[str, tuple[int, str]] = {}
    out = []
    for line in lines:
        if not line.error:
            earlier = seen_numbers.get(line.vekn) if line.vekn else None
            if earlier is None and line.name:
                named = seen_names.get(line.key)
                if named is not None and (not line.vekn or not named[1]):
                    earlier = named[0]
            if earlier is not None:
                line = Line(line.number, line.name, line.vekn, DUPLICATE, (("line", earlier),))
            else:
                if line.vekn:
                    seen_numbers[line.vekn] = line.number
                if line.name:
                    seen_names.setdefault(line.key, (line.number, line.vekn))
        out.append(line)
    return out


def _error(line: Line, code: str, **params) -> Outcome:
    return Outcome(Line(line.number, line.name, line.vekn, code, tuple(params.items())), ERROR)


def classify(
    lines: Iterable[Line],
    by_number: Mapping[str, Candidate],
    by_name: Mapping[str, list[Candidate]],
) -> list[Outcome]:
    """What saving each line does, in order.

    ``by_number``: the person holding each number of the list (any organisation's);
    ``by_name``: by :func:`name_key`, the people the organisation has met (``known``).
    A line with a number finds its holder, whose name must match (``known`` or not: a
    number alone finds only a ``known`` holder, as ``events.people.find_or_create_person``
    **[choice]**); a number nobody holds, with a name of one known person without a
    number, offers that person and records the number on them; a name alone offers the
    one known person of that name (several: an error asking for the number); otherwise
    the line is a new person. An offered person already registered, or kept out by a
    sanction, is an error."""
    out = []
    for line in lines:
        if line.error:
            out.append(Outcome(line, ERROR))
            continue
        person, adds = None, False
        if line.vekn and (holder := by_number.get(line.vekn)) is not None:
            if not line.name and not holder.known:
                out.append(_error(line, NUMBER_ONLY_UNKNOWN))
                continue
            if line.name and name_key(holder.name) != line.key:
                out.append(_error(line, NUMBER_OTHER_NAME, number=line.vekn))
                continue
            person = holder
        elif line.vekn and not line.name:
            out.append(_error(line, NUMBER_ONLY_UNKNOWN))
            continue
        else:
            namesakes = by_name.get(line.key, [])
            if line.vekn:
                namesakes = [c for c in namesakes if not c.vekn]
                if len(namesakes) == 1:
                    person, adds = namesakes[0], True
            elif len(namesakes) > 1:
                out.append(_error(line, NAME_AMBIGUOUS))
                continue
            elif namesakes:
                person = namesakes[0]
        if person is None:
            out.append(Outcome(line, NEW))
        elif person.registered:
            out.append(_error(line, ALREADY_REGISTERED))
        elif person.blocked:
            out.append(_error(line, BLOCKED))
        else:
            out.append(Outcome(line, EXISTING, person, adds))
    return _same_person_twice(out)


def _same_person_twice(outcomes: list[Outcome]) -> list[Outcome]:
    """Two lines that found the same person (a number on one, the name on the other)."""
    first: dict[int, int] = {}
    out = []
    for o in outcomes:
        if o.person is not None:
            if o.person.id in first:
                o = _error(o.line, DUPLICATE, line=first[o.person.id])
            else:
                first[o.person.id] = o.line.number
        out.append(o)
    return out


def digest(outcomes: Iterable[Outcome]) -> str:
    """A short fingerprint of the lines that would be saved (number, name, VEKN, person):
    the confirm step saves only if the list still gives the same one (nothing changed
    since the preview, and it was not saved already)."""
    parts = [
        f"{o.line.number}\x1f{o.line.name}\x1f{o.line.vekn}\x1f{o.person.id if o.person else ''}"
        for o in outcomes
        if o.kind != ERROR
    ]
    return sha256("\x1e".join(parts).encode()).hexdigest()[:32]
