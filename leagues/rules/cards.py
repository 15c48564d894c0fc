"""Card accumulation and suspensions in the final phases.

Sources: ANFPES T24 §1.4 ¶1–¶4 (in the whole post-season — Primera A playoffs, promotion
semi-finals and final, zones, Liguilla — two yellow cards accumulated, or a red card
(direct or a second yellow in the same match), suspend the footballer for the next match
his team plays in the final phase; a suspended footballer fielded lets staff pause the tie
and sanction; yellows of the phases before the Liguilla are wiped once both teams reach
it, unless a suspension is still to be served; red cards never), §2.2 last ¶ (the same in
the cup final phases); ANFPES T24 §1.4, §2.2; docs/leagues-final-phases.md "Cards and suspensions";
docs/contracts.md §5 (``cards`` of a match: ``team``, ``footballer``, ``card`` ``yellow``/``red``; a
second yellow in one match is two ``yellow`` entries) and §6 (suspensions: footballers suspended for
their team's next final-phase match, with the cards that caused it).

Rules as implemented (**[choice]** where the text is silent):

- One call covers one **scope** of accumulation: the league post-season of both divisions
  (one scope: §1.4 lists its phases together), or the knockout of one cup. Cards of
  regular phases and group stages are not passed in.
- Counted per footballer *per team*: the key is ``(team, identity)``
  (:func:`identity`): the squad footballer's id when the card or lineup names one
  (docs/leagues.md "Squads": the same footballer however his name was typed), else his
  name compared normalised — case-insensitive, accents ignored, spaces collapsed
  (:func:`footballer_key`; "k. dos" is "K.  Dós") **[choice]**; the name shown is the
  first one given.
- ``matches`` are taken **in the order given** (the adapter sorts them by the time they
  were played); ``played`` and ``walkover`` matches count; ``void`` matches (annulled, or
  friendlies for lack of a stream, §1.4 ¶5) neither give cards nor serve a suspension;
  ``scheduled`` matches are the upcoming ones (the first is the "next match").
- In one match: two yellows, or a red (with or without a yellow), send the footballer off:
  one suspension (``red`` or ``second_yellow``); those yellows are not added to the
  accumulation. Otherwise one yellow adds one; reaching two → one suspension
  (``two_yellows``) and the count restarts (ANFPES T24 §1.4, §2.2; docs/leagues-final-phases.md
  "Cards and suspensions": after a suspension the count restarts **[choice]**). A sending-off and an
  accumulation in one match make one suspension.
- A suspension is served by the team's next counted match (a walkover included) in which
  the footballer is **not** named (lineup or bookings); several pending for one
  footballer are served one per match **[choice]**. A suspended footballer who is named
  in that match played it: the match does not serve the suspension (it stays pending for
  the next match) and the fixture is flagged (§1.4 ¶3: staff pause the tie and sanction)
  **[choice]**. Suspensions still
  pending when the team is out are reported with ``next_match=None``; they do not carry to
  another scope or season **[choice]**.
- Liguilla wipe: at a team's first Liguilla match (a match whose ``tie`` is in
  ``liguilla_ties``), every footballer of that team with no suspension pending loses his
  yellow count; footballers with one pending keep it (the suspension is then served in
  the Liguilla). Red cards and the suspensions they cause are never wiped.
- Flags: a lineup (``lineups``) or a card report naming a footballer while he is
  suspended flags the fixture for staff (§1.4 ¶3); the match still counts as a result,
  but not as the suspension served — staff decide the sanction.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from leagues.rules.brackets import LIGUILLA_TIES
from leagues.rules.errors import LeagueRuleError
from leagues.rules.match_rules import has_stream

__all__ = [
    "CAUSES",
    "CardRef",
    "Flag",
    "Named",
    "Suspension",
    "SuspensionReport",
    "footballer_key",
    "identity",
    "suspensions",
]

CAUSES = {
    "two_yellows": "Two yellow cards accumulated in the final phases (ANFPES T24 §1.4 ¶2).",
    "second_yellow": "Sent off: two yellow cards in one match (ANFPES T24 §1.4 ¶2).",
    "red": "Sent off: red card (ANFPES T24 §1.4 ¶2).",
}
"""Stable codes of what caused a suspension."""

COUNTED = ("played", "walkover")


@dataclass(frozen=True, slots=True)
class CardRef:
    """One card that caused a suspension: the ``match`` id, its ``tie`` (or ``None``)
    and ``card`` (``yellow``/``red``)."""

    match: str
    tie: str | None
    card: str

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"match": self.match, "tie": self.tie, "card": self.card}


@dataclass(frozen=True, slots=True)
class Suspension:
    """A one-match suspension of ``footballer`` of ``team``.

    ``cause``: a :data:`CAUSES` code; ``cards``: the cards that caused it; ``caused_in``:
    the match id where it arose; ``served_in``: the match that served it (``None`` while
    pending); ``next_match``: for a pending one, the team's next scheduled match id, if any.
    """

    team: Hashable
    footballer: str
    cause: str
    cards: tuple[CardRef, ...]
    caused_in: str
    served_in: str | None = None
    next_match: str | None = None
    squad: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """docs/contracts.md §6 ``suspensions`` entry (``squad``, the squad footballer's
        id, only when known: an optional addition)."""
        body = {
            "team": self.team,
            "footballer": self.footballer,
            "cause": self.cause,
            "cards": [c.as_dict() for c in self.cards],
            "caused_in": self.caused_in,
            "served_in": self.served_in,
            "next_match": self.next_match,
        }
        if self.squad is not None:
            body["squad"] = self.squad
        return body


@dataclass(frozen=True, slots=True)
class Flag:
    """A fixture to review: ``footballer`` of ``team`` was named in the ``lineup`` or in
    the ``cards`` (``where``) of ``match`` while serving ``suspension`` (§1.4 ¶3)."""

    match: str
    team: Hashable
    footballer: str
    where: str
    suspension: Suspension

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "match": self.match,
            "team": self.team,
            "footballer": self.footballer,
            "where": self.where,
            "suspension": self.suspension.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class SuspensionReport:
    """Result of :func:`suspensions`.

    - ``pending``: team → suspensions to serve in the team's next match (docs/contracts.md §6).
    - ``served``: suspensions already served, in order.
    - ``flags``: fixtures naming a suspended footballer.
    - ``yellows``: ``(team, footballer)`` → yellow cards currently counting (0 omitted).
    """

    pending: Mapping[Hashable, tuple[Suspension, ...]]
    served: tuple[Suspension, ...]
    flags: tuple[Flag, ...]
    yellows: Mapping[tuple[Hashable, str], int] = field(default_factory=dict)

    def suspended(self, team: Hashable) -> tuple[str, ...]:
        """Footballers of ``team`` suspended for its next match."""
        return tuple(dict.fromkeys(s.footballer for s in self.pending.get(team, ())))

    def as_dict(self) -> dict[str, Any]:
        """docs/contracts.md §6 ``GET /api/v1/seasons/<slug>/suspensions`` body (per team)."""
        return {
            "suspensions": [s.as_dict() for team in self.pending for s in self.pending[team]],
            "served": [s.as_dict() for s in self.served],
            "flags": [f.as_dict() for f in self.flags],
        }


def _name(footballer: str) -> str:
    return " ".join(str(footballer).split())


def footballer_key(footballer: Any) -> str:
    """The form in which footballer names are compared (ANFPES T24 §1.4: the same
    footballer however the players typed him): accents removed, case folded, runs of
    spaces collapsed — ``"  K.   Dós "`` and ``"k. dos"`` give ``"k. dos"`` **[choice]**.
    Used by :func:`suspensions` and by the adapters flagging open reports."""
    text = unicodedata.normalize("NFKD", str(footballer or ""))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.split()).casefold()


def identity(footballer: Any, squad: int | None = None) -> int | str:
    """Who a card or a lineup line names: the squad footballer's id when known
    (docs/leagues.md "Squads"), else the compared name (:func:`footballer_key`). Ids and
    names never collide (an ``int`` against a ``str``)."""
    return squad if squad is not None else footballer_key(footballer)


@dataclass(frozen=True, slots=True)
class Named:
    """A footballer named in a lineup: the ``footballer`` as given and the ``squad``
    footballer's id when known (docs/leagues.md "Squads")."""

    footballer: str
    squad: int | None = None


def _named(item: Any) -> tuple[str, int | None]:
    """A lineup entry: a name, or an object with ``footballer`` and ``squad``."""
    if isinstance(item, str):
        return item, None
    return getattr(item, "footballer", ""), getattr(item, "squad", None)


def suspensions(
    matches: Sequence[Any],
    cards: Mapping[str, Iterable[Any]] | None = None,
    *,
    liguilla_ties: Collection[str] = LIGUILLA_TIES,
    lineups: Mapping[str, Mapping[Hashable, Iterable[str]]] | None = None,
    require_stream: bool = False,
) -> SuspensionReport:
    """Suspensions from the final-phase ``matches`` of one scope (module docstring).

    - ``matches``: :class:`~leagues.rules.season.Match` objects (or alike: ``id``,
      ``home``, ``away``, ``status``, ``tie``, ``cards``) in the order they were played;
      scheduled ones after them.
    - ``cards``: match id → :class:`~leagues.rules.season.Card` s (``team``,
      ``footballer``, ``card``); a match not in it uses its own ``cards``.
    - ``liguilla_ties``: tie ids of the Liguilla (yellow wipe).
    - ``lineups``: match id → team → footballers named in its lineup: names, or objects
      with ``footballer`` and ``squad`` (:class:`Named`).
    - ``require_stream``: league final phases — a played match without a stream link is
      a friendly (ANFPES T24 §1.4 ¶5) and is treated as ``void``.

    Returns a :class:`SuspensionReport`. Raises :class:`LeagueRuleError` for a card of a
    team not in its match, an unknown card kind, or a match listed twice.
    """
    cards = dict(cards or {})
    lineups = dict(lineups or {})
    liguilla = set(liguilla_ties)
    problems, seen = [], set()
    for match in matches:
        if match.id in seen:
            problems.append(f"match {match.id} is listed twice")
        seen.add(match.id)
        for card in cards.get(match.id, getattr(match, "cards", ())):
            if card.team not in (match.home, match.away):
                problems.append(f"match {match.id}: card of {card.team}, not a team of it")
            if card.card not in ("yellow", "red"):
                problems.append(f"match {match.id}: unknown card {card.card!r}")
    if problems:
        raise LeagueRuleError(problems)

    yellows: dict[tuple[Hashable, str], list[CardRef]] = {}
    pending: dict[tuple[Hashable, str], list[Suspension]] = {}
    served: list[Suspension] = []
    flags: list[Flag] = []
    reached_liguilla: set[Hashable] = set()
    next_match: dict[Hashable, str] = {}
    shown: dict[tuple[Hashable, str], str] = {}  # key → the first name given

    def key_of(side, footballer, squad=None) -> tuple[Hashable, int | str]:
        key = (side, identity(footballer, squad))
        shown.setdefault(key, _name(footballer))
        return key

    for match in matches:
        if match.status == "scheduled":
            for side in (match.home, match.away):
                next_match.setdefault(side, match.id)
                for item in lineups.get(match.id, {}).get(side, ()):
                    footballer, squad = _named(item)
                    queue = pending.get(key_of(side, footballer, squad))
                    if queue:
                        flags.append(Flag(match.id, side, _name(footballer), "lineup", queue[0]))
            continue
        if match.status not in COUNTED:
            continue
        if require_stream and match.status == "played" and not has_stream(match):
            continue
        match_cards = list(cards.get(match.id, getattr(match, "cards", ())))
        for side in (match.home, match.away):
            if match.tie in liguilla and side not in reached_liguilla:
                reached_liguilla.add(side)
                for key in list(yellows):
                    if key[0] == side and not pending.get(key):
                        del yellows[key]
            named = [("lineup", *_named(f)) for f in lineups.get(match.id, {}).get(side, ())]
            named += [
                ("cards", c.footballer, getattr(c, "squad", None))
                for c in match_cards
                if c.team == side
            ]
            named_keys: dict[int | str, list[tuple[str, str]]] = {}
            for where, footballer, squad in named:
                named_keys.setdefault(identity(footballer, squad), []).append(
                    (where, _name(footballer))
                )
            # Serve the suspensions due in this match — unless the suspended footballer is
            # named in it (he played): then the fixture is flagged and the suspension stays.
            for key, queue in pending.items():
                if key[0] != side or not queue:
                    continue
                if key[1] in named_keys:
                    places = set()
                    for where, _footballer in named_keys[key[1]]:
                        if where not in places:
                            places.add(where)
                            flags.append(Flag(match.id, side, shown[key], where, queue[0]))
                    continue
                served.append(_served(queue.pop(0), match.id))
            # Cards of this match.
            per_player: dict[tuple[Hashable, str], list[str]] = {}
            for card in match_cards:
                if card.team == side:
                    key = key_of(side, card.footballer, getattr(card, "squad", None))
                    per_player.setdefault(key, []).append(card.card)
            for key, kinds in per_player.items():
                footballer = shown[key]
                squad = key[1] if isinstance(key[1], int) else None
                refs = tuple(CardRef(match.id, match.tie, kind) for kind in kinds)
                if "red" in kinds or kinds.count("yellow") >= 2:
                    cause = "red" if "red" in kinds else "second_yellow"
                    caused = tuple(r for r in refs if r.card == "red") if cause == "red" else refs
                    pending.setdefault(key, []).append(
                        Suspension(side, footballer, cause, caused, match.id, squad=squad)
                    )
                    continue
                yellows.setdefault(key, []).append(refs[0])
                if len(yellows[key]) >= 2:
                    refs = tuple(yellows[key])
                    pending.setdefault(key, []).append(
                        Suspension(side, footballer, "two_yellows", refs, match.id, squad=squad)
                    )
                    del yellows[key]
    by_team: dict[Hashable, list[Suspension]] = {}
    for (side, who), queue in pending.items():
        for suspension in queue:
            by_team.setdefault(side, []).append(
                Suspension(
                    suspension.team,
                    suspension.footballer,
                    suspension.cause,
                    suspension.cards,
                    suspension.caused_in,
                    None,
                    next_match.get(side),
                    who if isinstance(who, int) else None,
                )
            )
    return SuspensionReport(
        {side: tuple(items) for side, items in by_team.items()},
        tuple(served),
        tuple(flags),
        {(key[0], shown[key]): len(refs) for key, refs in yellows.items() if refs},
    )


def _served(suspension: Suspension, match_id: str) -> Suspension:
    return replace(suspension, served_in=match_id)
