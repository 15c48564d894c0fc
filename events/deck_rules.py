"""VEKN decklists: reading the text players paste, and the deck construction rules.

Pure: frozen dataclasses in and out, no ORM, no request (docs/architecture.md). The card
data comes from the ``krcg`` package (MIT), offline: its packaged VEKN card lists, or the
file an operator stored with ``manage.py update_card_data`` (:func:`set_card_data_dir`).
The rules (docs/decks.md): deck sizes (VEKN TR §6.2), crypt groups (at most two
consecutive groups, JG §3.1.1 "incorrect crypt grouping"), the banned list (TR §4.1.1),
the V5 card pool (TR §6.4), limited minimums (TR §7.2.1) and set restrictions (TR §6.1.1).

The public interface, which the deck pages and the API build on:

- :func:`parse_deck` — text → :class:`ParsedDeck` (cards and the lines that name no card),
  raising :class:`DeckTextError` when the text names no card at all;
- :func:`check_deck` — text → :class:`DeckCheck` (``valid`` exactly when ``problems`` is
  empty; each :class:`DeckProblem` has a stable ``code``, its ``params`` for translated
  pages (``events.deck_labels``) and an English ``message`` for the API);
- :func:`deck_summary` — counts by card type, clan and discipline (published decks);
- :func:`twd_entry` — a Tournament Winning Deck Archive entry (``export_event --twd``);
- :func:`card_index` — the process-wide card index, built once, lazily, thread-safe.
"""

from __future__ import annotations

import csv
import datetime
import difflib
import functools
import importlib.metadata
import importlib.resources
import json
import os
import re
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec
from krcg import collections as krcg_collections
from krcg import models as krcg_models
from krcg import parser as krcg_parser
from krcg import providers as krcg_providers
from krcg import vekn_csv
from krcg.utils import normalize

from events.errors import UserError

GAME_FORMATS = ("standard", "v5", "limited")
"""The deck formats (stable codes, docs/contracts.md §8): Standard Constructed (TR §6.1),
V5 (TR §6.4) and limited (TR §7)."""

Section = Literal["crypt", "library"]

CRYPT_MINIMUM = 12
LIBRARY_MINIMUM = 60
LIBRARY_MAXIMUM = 90
"""Constructed deck sizes (TR §6.2): a library of 60 to 90 cards, a crypt of at least 12."""

LIMITED_TABLE = {
    12: (12, 40),
    11: (11, 40),
    10: (10, 40),
    9: (9, 40),
    8: (8, 40),
    7: (7, 35),
    6: (6, 30),
    5: (5, 25),
    4: (4, 20),
    3: (3, 15),
    2: (2, 10),
    1: (1, 5),
}
"""Limited minimums (TR §7.2.1): boosters per player → (crypt, library). With starters,
or without a number of boosters, the minimums are 12 and 40 **[choice]**."""

V5_SETS = ("V5", "V5A", "V5C", "NB", "NB2", "NB3", "FoL", "SoB", "30th", "PP3", "PP4", "SV5")
"""The V5 card pool (TR §6.4) as krcg set codes: the Fifth Edition preconstructed decks
(V5, V5A "Anarch", V5C "Companion"), the New Blood packs (NB, NB2, NB3), Fall of London,
Shadows of Berlin, the 30th Anniversary, Promo Packs 3 and 4 and Sabbat V5. A card is in
the pool when any of its prints is in one of these sets ("any legal print version of the
above cards is legal", TR §6.4)."""

PROBLEM_CODES = (
    "unknown_card",
    "crypt_too_small",
    "library_too_small",
    "library_too_large",
    "crypt_groups",
    "banned",
    "not_in_format",
    "not_in_sets",
)
"""The stable problem codes (docs/contracts.md §8), in the order problems are listed."""

MESSAGES = {
    "unknown_card": "line {line}: no card is called “{name}”",
    "crypt_too_small": "the crypt has {count} cards; it needs at least {minimum} ({source})",
    "library_too_small": "the library has {count} cards; it needs at least {minimum} ({source})",
    "library_too_large": "the library has {count} cards; it may have at most {maximum} ({source})",
    "crypt_groups": (
        "the crypt has vampires of groups {groups}: a crypt may only mix two "
        "consecutive groups (JG §3.1.1)"
    ),
    "banned": "{name} is banned (TR §4.1.1)",
    "not_in_format": "{name} is not in the {format} card pool ({source})",
    "not_in_sets": "{name} has no print in the allowed sets: {sets} (TR §6.1.1)",
}
"""Problem code → English message template, filled with the problem's ``params``."""

MAX_TEXT_LENGTH = 20_000
"""Longest decklist text read, in characters (a 90-card list in any format is under 5,000)."""

MAX_LINES = 400
"""Most non-blank lines read: a list of 90 different library cards and a 40-vampire crypt,
with headers and a description, is under 200. Bounds the public check's work (each line
is matched against the card names)."""

MAX_SUGGESTED = 20
"""Unknown lines beyond this many get no card-name suggestions (the costly part); they
are still listed."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class DeckCard:
    """One card of a deck: the krcg/VEKN card ``id``, its unique ``name`` (with a group or
    advanced suffix where it has one, e.g. ``"Theo Bell (G6)"``), how many copies
    (``count`` ≥ 1) and the ``section`` (``"crypt"`` or ``"library"``)."""

    id: int
    name: str
    count: int
    section: Section


@dataclass(frozen=True, slots=True)
class UnknownLine:
    """A line that gives a count and a name that is no card: its 1-based ``line`` number,
    the ``text`` as written, the ``name`` read from it, the ``count`` and up to five card
    names it may have meant (``suggestions``, best first)."""

    line: int
    text: str
    name: str
    count: int
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedDeck:
    """What a decklist text says: its ``cards`` (crypt first, then library, each in the
    order first written; repeated lines added up) and the ``unknown`` lines. Lines that are
    neither (headers, deck name, comments) are ignored."""

    cards: tuple[DeckCard, ...]
    unknown: tuple[UnknownLine, ...] = ()

    @property
    def crypt_count(self) -> int:
        return sum(card.count for card in self.cards if card.section == "crypt")

    @property
    def library_count(self) -> int:
        return sum(card.count for card in self.cards if card.section == "library")


@dataclass(frozen=True)
class DeckProblem:
    """One reason a deck is not legal.

    ``code``: one of :data:`PROBLEM_CODES` (stable); ``card``: the card's name when the
    problem is about one card (for ``unknown_card``, the name as written), else ``None``;
    ``message``: the English text (the API's); ``suggestions``: card names for
    ``unknown_card``; ``params``: the values of the message, for translated pages
    (``events.deck_labels.problem_label``). Do not mutate ``params``.
    """

    code: str
    card: str | None
    message: str
    suggestions: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The verdict on a decklist: ``valid`` is true exactly when ``problems`` is empty;
    ``crypt_count`` and ``library_count`` count copies of recognised cards."""

    valid: bool
    crypt_count: int
    library_count: int
    cards: tuple[DeckCard, ...]
    problems: tuple[DeckProblem, ...]


class DeckTextError(UserError):
    """The decklist cannot be checked (HTTP 400 in the API): ``code`` (stable) is
    ``empty``, ``too_long``, ``too_many_lines``, ``nul`` (a NUL character, which no
    list holds and the database refuses), ``bad_count`` (a card with 0, a negative or
    more than 99 copies: the line is named rather than read as something else),
    ``no_card`` (it names no card at all), ``unknown_format`` or ``unknown_set``; ``params`` fill its message; ``str(error)`` is the English
    message (the API's; pages: ``events.deck_labels.error_label``); ``field`` names the
    input (``deck``, ``format`` or ``sets``)."""

    def __init__(self, code: str, *, field: str, **params):
        super().__init__(ERROR_MESSAGES[code].format(**params), field=field)
        self.code = code
        self.params = params


ERROR_MESSAGES = {
    "empty": "the decklist is empty",
    "too_long": "the decklist is longer than {limit} characters",
    "too_many_lines": "the decklist has more than {limit} lines",
    "nul": "the decklist contains a NUL character",
    "bad_count": "line {line}: “{text}”: a card has 1 to 99 copies",
    "no_card": "no card could be read from the decklist",
    "unknown_format": "unknown format “{format}”: use one of {formats}",
    "unknown_set": "unknown set “{set}”",
}
"""DeckTextError code → English message template."""


# --------------------------------------------------------------------------- card index


class _Fuzzy:
    """Close names, fast: ``difflib.get_close_matches`` run over only the ``pool`` keys
    sharing the most trigrams with the word (a close misspelling shares most of them)
    instead of over all ~10,000 names, so a list of nonsense lines stays cheap."""

    def __init__(self, keys, pool: int = 150):
        self.keys = list(dict.fromkeys(keys))
        self.pool = pool
        self.postings: dict[str, list[int]] = {}
        for number, key in enumerate(self.keys):
            for gram in self._grams(key):
                self.postings.setdefault(gram, []).append(number)

    @staticmethod
    def _grams(word: str) -> set[str]:
        padded = f"  {word} "
        return {padded[i : i + 3] for i in range(len(padded) - 2)}

    def close(self, word: str, n: int, cutoff: float) -> list[str]:
        shared: Counter = Counter()
        for gram in self._grams(word):
            shared.update(self.postings.get(gram, ()))
        candidates = [self.keys[number] for number, _count in shared.most_common(self.pool)]
        return difflib.get_close_matches(word, candidates, n=n, cutoff=cutoff)


class _CardDict(krcg_collections.CardDict):
    """krcg's card dictionary, whose fuzzy match (a misspelt name) does not remember the
    misspelling: krcg's adds it as an alias, which would grow the shared index with every
    typo a visitor sends. Same matching as krcg's otherwise (difflib, cutoff 0.85, names
    of 6 characters or more)."""

    def prepare(self) -> None:
        """Build the fuzzy-match index now (part of building the card index, once)."""
        self.__dict__["_fuzzy"] = _Fuzzy(k for k in self._dict if isinstance(k, str))

    def _fuzzy_match(self, key):
        if not isinstance(key, str) or len(key) < self._threshold:
            return None
        if "_fuzzy" not in self.__dict__:
            self.prepare()
        matches = self.__dict__["_fuzzy"].close(key, 1, self._cutoff)
        return matches[0] if matches else None


class CardIndex:
    """The VTES cards by id and by name as players write them (case, accents, "The",
    ``(ADV)``, group suffixes ``(G5)``, misspellings close enough; krcg's matching), and
    the expansions. Read-only once built; safe to share between threads.

    ``source`` says where the data came from (``"krcg <version>"`` or the stored file).
    """

    def __init__(self, cards: krcg_collections.CardDict, source: str):
        self.cards = cards
        self.source = source
        if isinstance(cards, _CardDict):
            cards.prepare()
        names = sorted({card.unique_name for card in cards.cards()})
        self._suggestion_keys = {normalize(name): name for name in names}
        self._suggestion_fuzzy = _Fuzzy(self._suggestion_keys)
        self._set_codes: dict[str, str] = {}
        for key, expansion in cards.sets.items():
            self._set_codes[normalize(str(key))] = expansion.code
        self.lookup = functools.lru_cache(maxsize=8192)(self._lookup)
        self.suggestions = functools.lru_cache(maxsize=2048)(self._suggestions)

    def _lookup(self, name: str) -> krcg_models.Card | None:
        """The card a name means, or ``None`` (cached per name: a page checking a list as
        it is typed looks the same names up again and again)."""
        try:
            return self.cards[name]
        except KeyError:
            return None

    def exact(self, name: str) -> krcg_models.Card | None:
        """The card whose name (or alias) is exactly ``name``, without fuzzy matching.
        (krcg's ``FuzzyDict`` offers no exact lookup, so this reads its ``_dict`` and
        ``_aliases``; krcg is pinned below 6 and the tests cover it.)"""
        key = normalize(name)
        known = self.cards._dict
        if key in known:
            return known[key]
        alias = self.cards._aliases.get(key)
        return None if alias is None else known.get(normalize(alias))

    def _suggestions(self, name: str, limit: int = 5) -> tuple[str, ...]:
        """Up to ``limit`` card names close to ``name``, best first (krcg's completion,
        then names that look alike); ``suggestions`` is this, cached."""
        found: list[str] = []
        for card in self.cards.complete(name)[:limit]:
            if card.unique_name not in found:
                found.append(card.unique_name)
        close = self._suggestion_fuzzy.close(normalize(name), limit, 0.6)
        for key in close:
            full = self._suggestion_keys[key]
            if full not in found:
                found.append(full)
        return tuple(found[:limit])

    def set_code(self, name: str) -> str | None:
        """The krcg code of an expansion given by code, name or id (``"Anthology"``,
        ``"Ant1"``…), case and accents ignored; ``None`` if there is no such set."""
        return self._set_codes.get(normalize(str(name)))


_index: CardIndex | None = None
_index_lock = threading.Lock()
_data_dir: Path | None = None

CARDS_FILE = "cards.json"
SETS_FILE = "sets.json"


def set_card_data_dir(path: str | Path | None) -> None:
    """Use the card data stored in ``path`` (``cards.json``, optional ``sets.json``:
    ``manage.py update_card_data``) when it is there, the packaged krcg data otherwise.
    Forgets the current index (the next :func:`card_index` builds it again)."""
    global _data_dir, _index
    with _index_lock:
        _data_dir = Path(path) if path else None
        _index = None


def card_index() -> CardIndex:
    """The process-wide :class:`CardIndex`, built on first use (4–5 s) and kept.

    Built from ``cards.json`` in the card data dir when there is one, else from the VEKN
    card lists krcg packages. Never from the network, and never from krcg's own pickle
    cache (``krcg.loader.load``): that file sits in the shared temp dir, where anyone on
    the machine could plant a pickle, and loading a pickle runs code **[choice]**.
    """
    global _index
    index = _index
    if index is not None:
        return index
    with _index_lock:
        if _index is None:
            _index = build_index(_data_dir)
        return _index


def warm_in_background() -> threading.Thread:
    """Build :func:`card_index` in a daemon thread, so that a served process has it before
    its first live check (4–5 s otherwise, on the first player's phone). Called once per
    process by ``config/wsgi.py``; returns the thread."""
    thread = threading.Thread(target=card_index, name="card-index-warm-up", daemon=True)
    thread.start()
    return thread


def _after_fork_in_child() -> None:
    # A process forked while the warm-up held the lock (gunicorn --preload) gets a fresh
    # lock: the parent's thread does not exist in the child and would never release it.
    global _index_lock
    _index_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def build_index(data_dir: Path | None = None) -> CardIndex:
    """A new :class:`CardIndex` from ``data_dir``'s ``cards.json`` (and ``sets.json``) if
    present, else from krcg's packaged VEKN lists. Raises ``ValueError`` when the stored
    file is not a krcg card list (:func:`cards_from_json`)."""
    cards_file = data_dir / CARDS_FILE if data_dir else None
    if cards_file is not None and cards_file.is_file():
        sets_file = data_dir / SETS_FILE
        cards = cards_from_json(
            cards_file.read_bytes(), sets_file.read_bytes() if sets_file.is_file() else None
        )
        return CardIndex(cards, str(cards_file.name))
    raw, sets = vekn_csv.from_files()
    cards = _CardDict(raw)
    cards.sets = sets
    cards.index()
    return CardIndex(cards, f"krcg {importlib.metadata.version('krcg')}")


def cards_from_json(cards_json: bytes, sets_json: bytes | None = None) -> krcg_collections.CardDict:
    """A krcg card dictionary from a krcg card list (the ``vtes.json`` of krcg's static
    data: a JSON list of cards, each with ``kind`` ``"Crypt"`` or ``"Library"``) and an
    optional list of expansions (krcg's ``expansions.json``; the packaged expansions
    otherwise). Raises ``ValueError`` naming what is wrong."""
    try:
        data = json.loads(cards_json)
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"the card file is not JSON: {error}") from None
    if isinstance(data, dict):
        data = list(data.values())
    if not isinstance(data, list) or not data:
        raise ValueError("the card file must be a non-empty JSON list of cards")
    cards = _CardDict()
    kinds = Counter()
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise ValueError(f"card {number}: not an object")
        kind = item.get("kind")
        cls = {"Crypt": krcg_models.CryptCard, "Library": krcg_models.LibraryCard}.get(kind)
        if cls is None:
            raise ValueError(f"card {number}: kind must be Crypt or Library, not {kind!r}")
        try:
            cards.add(msgspec.convert(item, type=cls))
        except msgspec.ValidationError as error:
            raise ValueError(f"card {number}: {error}") from None
        kinds[kind] += 1
    if not kinds["Crypt"] or not kinds["Library"]:
        raise ValueError("the card file must hold crypt and library cards")
    if sets_json is not None:
        try:
            expansions = msgspec.json.decode(sets_json, type=list[krcg_models.Set])
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise ValueError(f"the sets file: {error}") from None
        for expansion in expansions:
            for key in (expansion.id, expansion.code, expansion.name):
                if key:
                    cards.sets[key] = expansion
    else:
        cards.sets = _packaged_sets()
    cards.index()
    return cards


def _packaged_sets() -> dict:
    """The expansions krcg packages, keyed as ``vekn_csv.from_files`` keys them (id, code
    and name), without building the cards."""
    sets: dict = {
        "Promo": krcg_models.Set(code="Promo", name="Promo"),
        "POD": krcg_models.Set(code="POD", name="Print on Demand"),
    }
    package = importlib.resources.files("krcg.cards")
    with package.joinpath(vekn_csv.BASE_SETS).open(encoding="utf-8-sig") as f:
        for line in csv.DictReader(f):
            expansion = vekn_csv.set_from_vekn(line)
            sets[expansion.id] = sets[expansion.code] = sets[expansion.name] = expansion
    with package.joinpath(vekn_csv.BASE_BUNDLES).open(encoding="utf-8-sig") as f:
        for line in csv.DictReader(f):
            vekn_csv.add_bundle(sets, line)
    return sets


# --------------------------------------------------------------------------- parsing

# Header lines of VDB / TWD / Amaranth / Lackey lists and TWD entries: never cards.
_SECTION_HEADER = re.compile(r"^(crypt|library)\b[^a-z']*(\W.*)?$")
_TWD_HEADERS = (
    re.compile(r"^\d+\s*r\s*(\+\s*f|\(no final\))?$"),  # "3R+F"
    re.compile(r"^(\d+|\?+)\s*players?\b"),  # "24 players"
    re.compile(r"^-*\s*\d\s*gw\s*\d"),  # "-- 4GW9 + 3vp in the final"
    re.compile(r"^(deck\s*)?name\s*:"),  # "Deck Name: …"
    re.compile(r"^((created|deck|played)\s*by|authors?|creators?|players?)\s*:"),
    re.compile(r"^description\b"),
    re.compile(r"^https?://"),
)


def _clean(line: str) -> str:
    # The clean-up krcg's parser does before matching (krcg.parser.Parser.parse_line).
    line = line.rstrip().replace("\u00a0", " ")
    return line.replace(" :", ":").replace("( ", "(").replace(" )", ")")


def _is_section(normal: str) -> bool:
    """A header that starts the cards: ``Crypt…``, ``Library…`` or a card type block
    (``Master (10)``) rather than a deck name or event line."""
    return bool(re.match(krcg_parser._HEADERS_RE, normal)) and not any(
        pattern.match(normal) for pattern in _TWD_HEADERS
    )


def _is_header(normal: str) -> bool:
    if re.match(krcg_parser._HEADERS_RE, normal):
        return True
    if _SECTION_HEADER.match(normal) and not re.match(r"^\d", normal):
        return True
    return any(pattern.match(normal) for pattern in _TWD_HEADERS)


@dataclass(frozen=True, slots=True)
class _Line:
    card: krcg_models.Card | None
    name: str  # as written
    count: int
    ante: bool  # the count came first ("3x Card")
    post: bool  # the count came after the name ("Card x3")


# "1. Name", "2º Name", "3a Jornada": a numbered list or an ordinal, not a count.
_NUMBERED = re.compile(r"^\s*\d+(\s*[º°ª]|[.)ao])\s")
# Count first, then the rest of the line (krcg's regex may read a trailing clan or
# discipline as a comment: "4x Lord Tremere").
_COUNT_AND_REST = re.compile(r"^\s*[xX*]?(\d{1,2})\s*[xX*]?\s+(\S.*?)\s*$")


# A count krcg's reader does not take ("-5x", "100x", "0x" before a card): the line is
# refused (``bad_count``) when the rest is a card's name, rather than read as 5 or skipped.
_ODD_COUNT = re.compile(r"^\s*(?P<count>-\d+|\d{3,}|0+)\s*[xX×*]?\s+(?P<name>\S.*?)\s*$")


_MARKED_COUNT = re.compile(r"([x×*=]\s*\d{1,2}|\(\s*\d{1,2}\s*\))\s*$")


_COLUMNS = re.compile(r"\t|\s{2,}")
_GROUP_TAIL = re.compile(r":\s*(\d)\s*$")


def _card_shaped(name: str) -> bool:
    """Whether a name could be a card's (so its line is reported as unknown): at most
    eight words and 50 characters, not a sentence. Longer lines are comments."""
    return len(name) <= 50 and len(name.split()) <= 8 and not re.search(r"[.!?]\s", name)


def _read_line(index: CardIndex, line: str, started: bool) -> _Line | None:
    """What one line says, or ``None`` for a line that is no card line. Before the cards
    start (``started`` false: no card and no section header yet), a name must match
    exactly unless it is card-shaped and counted first; a line without a count is a card
    only once they started, and only by its exact name (descriptions name cards)."""
    if _NUMBERED.match(line):
        return None
    normal = normalize(line)
    match = re.match(krcg_parser._RE, normal)
    if not match or not match.group("name"):
        return None
    name = match.group("name").strip()
    # The name as written (case and accents kept) for messages: the same match on the
    # line only lowercased, when it keeps the length.
    written = name
    lower = line.lower()
    if len(lower) == len(line):
        same = re.match(krcg_parser._RE, lower)
        if same and same.group("name"):
            start, end = same.span("name")
            written = line[start:end].strip() or name
    ante = bool(match.group("ante_count"))
    post = bool(match.group("post_count")) and not ante
    tail = match.group("crypt_tail")
    count = int(match.group("ante_count") or match.group("post_count") or 1)
    if tail:
        group = tail.strip()[-1:]
        if group.isdigit() and not name.endswith(")"):
            name = f"{name} (g{group})"
    if not (ante or post):
        card = index.exact(name) if started else None
        return _Line(card, written, count, False, False)
    if post and not started and not _MARKED_COUNT.search(normal):
        # "Abomination 8" in a description: a count after the name, before the cards,
        # needs a mark ("Blood Doll x3", "Blood Doll (3)").
        return None
    fuzzy = started or (ante and _card_shaped(name))
    card = index.lookup(name) if fuzzy else index.exact(name)
    if card is None and ante:
        # The name alone, then the first column of a crypt line whose tail krcg's regex
        # does not know ("2x Nakhthorheb   10 OBF PRE SER   Follower :4": ARDB and
        # Amaranth columns are separated by tabs or runs of spaces), with its group.
        rest = _COUNT_AND_REST.match(normal)
        if rest:
            card = index.exact(rest.group(2))
            first = _COLUMNS.split(rest.group(2))[0].strip()
            if card is None and first != rest.group(2):
                group = _GROUP_TAIL.search(rest.group(2))
                if group and not first.endswith(")"):
                    card = index.lookup(f"{first} (g{group.group(1)})")
                card = card or (index.lookup(first) if fuzzy else index.exact(first))
                written = _COLUMNS.split(line.strip())[0]
                written = _COUNT_AND_REST.sub(r"\2", written).strip() or written
    if card is not None:
        crypt = card.kind == krcg_models.Card.Kind.CRYPT
        if (tail and not crypt) or (post and crypt):
            card = None
    return _Line(card, written, count, ante, post)


def parse_deck(text: str, index: CardIndex | None = None) -> ParsedDeck:
    """Read a decklist as players paste it: VDB / TWD text (``Crypt (12 cards, min=…)``,
    ``3x Card Name``, crypt lines with capacity and disciplines), Lackey (``3<TAB>Card``,
    a ``Crypt:`` line), JOL (``3x Card``), Amaranth's text export. Names are matched by
    krcg as people write them (case, accents, ``The``, ``(ADV)``, ``(G5)``, close
    misspellings).

    A line with a count whose name is no card becomes an :class:`UnknownLine` with
    suggestions (the first :data:`MAX_SUGGESTED` of them). Raises :class:`DeckTextError`
    when ``text`` is empty, longer than :data:`MAX_TEXT_LENGTH` or :data:`MAX_LINES`,
    holds a NUL, gives a card an impossible count (``bad_count``), or names no card and
    has no line with a count.
    """
    if not isinstance(text, str) or not text.strip():
        raise DeckTextError("empty", field="deck")
    if len(text) > MAX_TEXT_LENGTH:
        raise DeckTextError("too_long", field="deck", limit=MAX_TEXT_LENGTH)
    if "\x00" in text:
        raise DeckTextError("nul", field="deck")
    lines = text.splitlines()
    if sum(1 for raw in lines if raw.strip()) > MAX_LINES:
        raise DeckTextError("too_many_lines", field="deck", limit=MAX_LINES)
    index = index or card_index()
    counts: dict[int, int] = {}
    found: dict[int, krcg_models.Card] = {}
    unknown: list[UnknownLine] = []
    started = False  # a card or a section header was read
    describing = False  # after "Description:", before the cards
    for number, raw in enumerate(lines, start=1):
        line = _clean(raw)
        normal = normalize(line)
        if not normal or set(normal) <= set("-=_*# "):
            continue
        odd = _ODD_COUNT.match(normal)
        if odd and index.exact(odd.group("name")) is not None:
            raise DeckTextError("bad_count", field="deck", line=number, text=raw.strip()[:80])
        if _is_header(normal):
            started = started or bool(_SECTION_HEADER.match(normal)) or _is_section(normal)
            describing = not started and (describing or normal.startswith("description"))
            continue
        read = _read_line(index, line, started)
        if describing and read is not None and read.card is None:
            continue  # "3 copies of everything" in a description
        if read is None or read.count <= 0:
            continue
        if read.card is not None:
            started = True
            found.setdefault(read.card.id, read.card)
            counts[read.card.id] = counts.get(read.card.id, 0) + read.count
        elif (read.ante or (read.post and started)) and _card_shaped(read.name):
            unknown.append(
                UnknownLine(
                    line=number,
                    text=raw.strip(),
                    name=read.name,
                    count=read.count,
                    suggestions=index.suggestions(normalize(read.name))
                    if len(unknown) < MAX_SUGGESTED
                    else (),
                )
            )
    if not found and not unknown:
        raise DeckTextError("no_card", field="deck")
    crypt = [c for c in found.values() if c.kind == krcg_models.Card.Kind.CRYPT]
    library = [c for c in found.values() if c.kind != krcg_models.Card.Kind.CRYPT]
    cards = tuple(
        DeckCard(id=c.id, name=c.unique_name, count=counts[c.id], section=section)
        for section, group in (("crypt", crypt), ("library", library))
        for c in group
    )
    return ParsedDeck(cards=cards, unknown=tuple(unknown))


# --------------------------------------------------------------------------- rules


def _problem(code: str, card: str | None = None, suggestions=(), **params) -> DeckProblem:
    return DeckProblem(
        code=code,
        card=card,
        message=MESSAGES[code].format(**params),
        suggestions=tuple(suggestions),
        params=params,
    )


def size_limits(game_format: str, boosters: int | None = None) -> tuple[int, int, int]:
    """(crypt minimum, library minimum, library maximum) of a format: 12, 60, 90 for
    ``standard`` and ``v5`` (TR §6.2); for ``limited``, the TR §7.2.1 table by
    ``boosters`` per player (12 and 40 with starters or ``None`` **[choice]**), at most
    90 cards of library."""
    if game_format == "limited":
        if boosters is None:
            crypt, library = LIMITED_TABLE[12]
        else:
            crypt, library = LIMITED_TABLE[min(max(int(boosters), 1), 12)]
        return crypt, library, LIBRARY_MAXIMUM
    return CRYPT_MINIMUM, LIBRARY_MINIMUM, LIBRARY_MAXIMUM


def _group_problem(cards: Iterable[krcg_models.Card]) -> DeckProblem | None:
    groups = sorted(
        {
            int(card.group.value[1:])
            for card in cards
            if getattr(card, "group", None) and card.group != krcg_models.Group.Any
        }
    )
    if groups and groups[-1] - groups[0] > 1:
        return _problem("crypt_groups", groups=", ".join(str(g) for g in groups))
    return None


def _print_sets(card: krcg_models.Card) -> set[str]:
    return {p.set.code for p in card.prints}


def check_deck(
    text: str,
    game_format: str = "standard",
    sets: tuple[str, ...] = (),
    *,
    boosters: int | None = None,
    index: CardIndex | None = None,
) -> DeckCheck:
    """Check a decklist text against the VEKN deck construction rules (docs/decks.md).

    ``game_format``: ``standard`` (TR §6.1), ``v5`` (TR §6.4: every card in
    :data:`V5_SETS`) or ``limited`` (TR §7.2.1: the minimums of ``boosters`` per player,
    crypt groups not limited, any card pool). ``sets``: a set-restricted event's sets
    (TR §6.1.1), by code or name (``"Anthology"``, ``"Ant1"``); each card needs a print in
    one of them. The banned list (TR §4.1.1) applies in every format.

    Problems, in :data:`PROBLEM_CODES` order (unknown cards in line order, the others in
    deck order): ``unknown_card``, ``crypt_too_small``, ``library_too_small``,
    ``library_too_large``, ``crypt_groups``, ``banned``, ``not_in_format``,
    ``not_in_sets``. Unknown cards count towards no section.

    Raises :class:`DeckTextError` (see :func:`parse_deck`), and for an unknown
    ``game_format`` or set name.
    """
    if game_format not in GAME_FORMATS:
        raise DeckTextError(
            "unknown_format", field="format", format=game_format, formats=", ".join(GAME_FORMATS)
        )
    index = index or card_index()
    allowed: list[str] = []
    for name in sets:
        code = index.set_code(name)
        if code is None:
            raise DeckTextError("unknown_set", field="sets", set=name)
        if code not in allowed:
            allowed.append(code)
    parsed = parse_deck(text, index)
    problems: list[DeckProblem] = [
        _problem(
            "unknown_card",
            line.name,
            line.suggestions,
            line=line.line,
            name=line.name,
            text=line.text,
        )
        for line in parsed.unknown
    ]
    crypt_min, library_min, library_max = size_limits(game_format, boosters)
    source = "TR §7.2.1" if game_format == "limited" else "TR §6.2"
    crypt_count, library_count = parsed.crypt_count, parsed.library_count
    if crypt_count < crypt_min:
        problems.append(
            _problem("crypt_too_small", count=crypt_count, minimum=crypt_min, source=source)
        )
    if library_count < library_min:
        problems.append(
            _problem("library_too_small", count=library_count, minimum=library_min, source=source)
        )
    if library_count > library_max:
        problems.append(
            _problem("library_too_large", count=library_count, maximum=library_max, source=source)
        )
    cards = [index.cards[card.id] for card in parsed.cards]
    if game_format != "limited":
        group_problem = _group_problem(c for c in cards if c.kind == krcg_models.Card.Kind.CRYPT)
        if group_problem:
            problems.append(group_problem)
    problems += [_problem("banned", c.unique_name, name=c.unique_name) for c in cards if c.banned]
    if game_format == "v5":
        problems += [
            _problem(
                "not_in_format", c.unique_name, name=c.unique_name, format="V5", source="TR §6.4"
            )
            for c in cards
            if not _print_sets(c) & set(V5_SETS)
        ]
    if allowed:
        problems += [
            _problem("not_in_sets", c.unique_name, name=c.unique_name, sets=", ".join(allowed))
            for c in cards
            if not _print_sets(c) & set(allowed)
        ]
    return DeckCheck(
        valid=not problems,
        crypt_count=crypt_count,
        library_count=library_count,
        cards=parsed.cards,
        problems=tuple(problems),
    )


# --------------------------------------------------------------------------- summary


@dataclass(frozen=True, slots=True)
class DeckSummary:
    """A deck at a glance (the public page of a published deck): copies by library card
    ``types`` (a multi-type card counts under each of its types, e.g.
    ``"Action Modifier/Reaction"`` under both), crypt copies by ``clans``, and by
    ``disciplines`` the crypt copies having each (superior or inferior, krcg trigrams
    such as ``"dom"``). Each is a tuple of (name, copies), most copies first, then by
    name."""

    crypt_count: int
    library_count: int
    types: tuple[tuple[str, int], ...]
    clans: tuple[tuple[str, int], ...]
    disciplines: tuple[tuple[str, int], ...]


def _ranked(counter: Counter) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def deck_summary(check: DeckCheck | ParsedDeck, index: CardIndex | None = None) -> DeckSummary:
    """Counts by card type, clan and discipline of a checked (or parsed) deck."""
    index = index or card_index()
    types: Counter = Counter()
    clans: Counter = Counter()
    disciplines: Counter = Counter()
    for entry in check.cards:
        card = index.cards[entry.id]
        if entry.section == "crypt":
            if getattr(card, "clan", ""):
                clans[card.clan] += entry.count
            for discipline in {d.lower() for d in getattr(card, "disciplines", [])}:
                disciplines[discipline] += entry.count
        else:
            for card_type in card.types:
                types[str(card_type.value)] += entry.count
    crypt_count = sum(c.count for c in check.cards if c.section == "crypt")
    library_count = sum(c.count for c in check.cards if c.section == "library")
    return DeckSummary(
        crypt_count=crypt_count,
        library_count=library_count,
        types=_ranked(types),
        clans=_ranked(clans),
        disciplines=_ranked(disciplines),
    )


# --------------------------------------------------------------------------- TWD entry


def krcg_deck(deck: DeckCheck | ParsedDeck, index: CardIndex | None = None) -> krcg_models.Deck:
    """The deck as a krcg ``Deck`` (for krcg's serialisers: ``krcg.providers``)."""
    index = index or card_index()
    return krcg_models.Deck(
        cards=[krcg_models.CardInDeck.of(index.cards[c.id], c.count) for c in deck.cards]
    )


def twd_entry(
    *,
    event: str,
    place: str,
    date: datetime.date,
    rounds: int,
    final: bool,
    players: int,
    winner: str,
    deck: DeckCheck | ParsedDeck,
    url: str = "",
    deck_name: str = "",
    author: str = "",
    score: tuple[int, float, float] | None = None,
    index: CardIndex | None = None,
) -> str:
    """A Tournament Winning Deck Archive entry, in the archive's text layout (krcg's
    ``providers.serialize_twd``, which krcg's parser reads back with ``twda=True``):

    event name; ``place`` (``"Online"`` for an online event); the date (``"May 1st
    2026"``); ``"3R+F"`` (``"3R (no final)"`` when ``final`` is false); ``"24 players"``;
    the winner; the event's ``url`` if any; a blank line; ``-- 4GW9 + 3vp in final`` when
    ``score`` = (preliminary game wins, preliminary VP, final VP) is given; ``Deck Name:``,
    ``Created by:`` (only when ``author`` is not the winner); then the crypt
    (``Crypt (12 cards, min=…, max=…, avg=…)``, one ``2x Name  capacity  disciplines
    title  clan:group`` line per vampire) and the library by card type
    (``Master (10; 2 trifle)``…). Ends with a newline."""
    index = index or card_index()
    twd = krcg_deck(deck, index)
    twd.event = krcg_models.Event(
        name=event,
        place=place,
        date=date,
        rounds=rounds,
        finals=final,
        players_count=players,
        url=url,
        online=place.strip().lower() == "online",
    )
    twd.player = winner
    twd.name = deck_name
    twd.author = author if author and author != winner else ""
    if score is not None:
        gw, vp, final_vp = score
        twd.score = krcg_models.Score(
            round_gw=int(gw), round_vp=float(vp), finals_vp=float(final_vp), win=True
        )
    return krcg_providers.serialize_twd(twd, index.cards).rstrip("\n") + "\n"
