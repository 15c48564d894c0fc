"""Mitos y Leyendas deck registration: lines of "quantity card name" in a main deck and a
side deck, checked against the event's format limits (docs/decks.md "Mitos y Leyendas").

There is no public card database for Mitos y Leyendas, so names are not checked against
one: the lines are what the judge counts against at a deck check, and a registration
that breaks the format's limits is the conduct rules' "problemas en la inscripción del
mazo" (§3.3.2). Pure: frozen dataclasses, no ORM, no request (docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from events.errors import UserError
from events.player_lists import name_key

MylSection = Literal["main", "side"]


@dataclass(frozen=True, slots=True)
class MylDeckLimits:
    """A format's deck limits (docs/decks.md; the event's preset gives them).

    ``main_deck_size``: the exact number of cards of the main deck, 50 (the size of the
    community's tournament tools); ``side_deck_size``: the most cards of the side deck,
    15 (tournaments use 10 or 15: 15 by default **[choice]**; 0 forbids a side deck);
    ``max_copies``: the most copies of one card between main and side deck, 3;
    ``unlimited``: names that any number of copies may carry (basic gold, "Oro", by
    default **[choice]**), compared without case or accents.
    """

    main_deck_size: int = 50
    side_deck_size: int = 15
    max_copies: int = 3
    unlimited: tuple[str, ...] = ("Oro",)


@dataclass(frozen=True, slots=True)
class MylDeckLine:
    """One card of the registration: its ``name`` as first written, the ``count`` (≥ 1;
    repeated lines of one name in a section are added up) and the ``section``."""

    name: str
    count: int
    section: MylSection


@dataclass(frozen=True)
class MylDeckProblem:
    """One reason a registration breaks the limits: ``code`` (stable: ``unreadable_line``,
    ``main_deck_size``, ``side_deck_size``, ``too_many_copies``), ``card`` (the name, for
    ``too_many_copies``), the English ``message`` and its ``params`` for translated pages
    (``events.deck_labels.problem_label``)."""

    code: str
    card: str | None
    message: str
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class MylDeckCheck:
    """The verdict: ``valid`` exactly when ``problems`` is empty; the copies counted in
    ``main_count`` and ``side_count``; ``lines`` main deck first, each in written order."""

    valid: bool
    main_count: int
    side_count: int
    lines: tuple[MylDeckLine, ...]
    problems: tuple[MylDeckProblem, ...]


class MylDeckTextError(UserError):
    """The registration is empty (``code`` ``empty``), longer than
    :data:`MAX_TEXT_LENGTH` characters (``too_long``) or holds a NUL character (``nul``:
    no list holds one and the database refuses it); ``params`` fill the message
    (pages: ``events.deck_labels.error_label``)."""

    def __init__(self, code: str, **params):
        text = {
            "empty": "the decklist is empty",
            "too_long": "the decklist is longer than {limit} characters",
            "nul": "the decklist contains a NUL character",
        }[code]
        super().__init__(text.format(**params), field="deck")
        self.code = code
        self.params = params


MAX_TEXT_LENGTH = 20_000

MESSAGES = {
    "unreadable_line": "line {line}: “{text}” is not a quantity and a card name",
    "main_deck_size": "the main deck has {count} cards; it must have exactly {expected}",
    "side_deck_size": "the side deck has {count} cards; it may have at most {maximum}",
    "too_many_copies": "{name}: {count} copies; at most {maximum} of a card",
}

# "Mazo principal", "Main deck", "Mazo:", "Side deck (15)", "Banquillo", "Sideboard".
_MAIN = re.compile(r"^(mazo( principal)?|main( deck)?|principal|deck)\b[\W\d]*$")
_SIDE = re.compile(r"^(side( ?deck| ?board)?|banquillo|mazo (de )?side|reserva)\b[\W\d]*$")
_TOTAL = re.compile(r"^(total|cartas)\b[\W\d]*$")
# "3 Card", "3x Card", "3 x Card", "x3 Card", "Card x3", "Card (3)".
_COUNT_FIRST = re.compile(r"^x?\s*(\d{1,3})\s*[x×]?\s+(\S.*)$", re.I)
_COUNT_LAST = re.compile(r"^(\S.*?)\s*(?:[x×]\s*(\d{1,3})|\((\d{1,3})\))$", re.I)


def _read(line: str) -> tuple[int, str] | None:
    match = _COUNT_FIRST.match(line)
    if match:
        return int(match.group(1)), match.group(2).strip(" -–:\t")
    match = _COUNT_LAST.match(line)
    if match:
        return int(match.group(2) or match.group(3)), match.group(1).strip(" -–:\t")
    return None


def check_myl_deck(text: str, limits: MylDeckLimits | None = None) -> MylDeckCheck:
    """Check a Mitos y Leyendas registration against ``limits`` (default
    :class:`MylDeckLimits`).

    The text is one card per line, ``quantity name`` (``3 Card``, ``3x Card``, ``Card x3``
    also read); lines before any section header, or after ``Mazo principal`` / ``Main
    deck``, are the main deck; after ``Side deck`` / ``Banquillo``, the side deck. Blank
    lines, ``Total: 50`` lines and ``#`` or ``//`` comments are ignored. Names are
    compared without case or accents (``events.player_lists.name_key``) and keep their
    first spelling.

    Problems: ``unreadable_line`` (each, in line order), ``main_deck_size`` (not exactly
    ``main_deck_size``), ``side_deck_size`` (more than ``side_deck_size``),
    ``too_many_copies`` (main plus side above ``max_copies``, names in ``unlimited``
    excepted). Raises :class:`MylDeckTextError` on an empty or too long text or a NUL.
    """
    limits = limits or MylDeckLimits()
    if not isinstance(text, str) or not text.strip():
        raise MylDeckTextError("empty")
    if len(text) > MAX_TEXT_LENGTH:
        raise MylDeckTextError("too_long", limit=MAX_TEXT_LENGTH)
    if "\x00" in text:
        raise MylDeckTextError("nul")
    section: MylSection = "main"
    counts: dict[tuple[MylSection, str], int] = {}
    names: dict[str, str] = {}
    order: list[tuple[MylSection, str]] = []
    problems: list[MylDeckProblem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        key = name_key(line)
        if _SIDE.match(key):
            section = "side"
            continue
        if _MAIN.match(key):
            section = "main"
            continue
        if _TOTAL.match(key):
            continue
        read = _read(line)
        if read is None or read[0] <= 0 or not read[1]:
            problems.append(_problem("unreadable_line", None, line=number, text=line))
            continue
        count, name = read
        card_key = name_key(name)
        names.setdefault(card_key, name)
        slot = (section, card_key)
        if slot not in counts:
            order.append(slot)
            counts[slot] = 0
        counts[slot] += count
    lines = tuple(
        MylDeckLine(name=names[key], count=counts[(sec, key)], section=sec)
        for wanted in ("main", "side")
        for sec, key in order
        if sec == wanted
    )
    main_count = sum(line.count for line in lines if line.section == "main")
    side_count = sum(line.count for line in lines if line.section == "side")
    if main_count != limits.main_deck_size:
        problems.append(
            _problem("main_deck_size", None, count=main_count, expected=limits.main_deck_size)
        )
    if side_count > limits.side_deck_size:
        problems.append(
            _problem("side_deck_size", None, count=side_count, maximum=limits.side_deck_size)
        )
    unlimited = {name_key(name) for name in limits.unlimited}
    copies: dict[str, int] = {}
    for sec, key in order:
        copies[key] = copies.get(key, 0) + counts[(sec, key)]
    for key, count in copies.items():
        if key not in unlimited and count > limits.max_copies:
            problems.append(
                _problem(
                    "too_many_copies",
                    names[key],
                    name=names[key],
                    count=count,
                    maximum=limits.max_copies,
                )
            )
    return MylDeckCheck(
        valid=not problems,
        main_count=main_count,
        side_count=side_count,
        lines=lines,
        problems=tuple(problems),
    )


def _problem(code: str, card: str | None, **params) -> MylDeckProblem:
    return MylDeckProblem(
        code=code, card=card, message=MESSAGES[code].format(**params), params=params
    )
