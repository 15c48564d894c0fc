"""The deck checker of each ruleset, behind one interface (the ``decks`` adapter of
``events.rulesets``; docs/decks.md): VEKN lists checked by ``events.deck_rules``
(TR §6.2, §4.1.1, §7.2.1), Mitos y Leyendas registrations by ``events.myl_deck_rules``
with the limits of the event's preset (``events.presets``; conduct rules §3.3.2).

Each checker turns a text into a :class:`DeckVerdict` of plain values (what a ``Deck``
row stores: ``cards`` and ``problems`` as JSON), so services and pages never ask which
game an event plays. Events kernel: no ORM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from events import deck_labels, deck_rules, myl_deck_rules, presets


@dataclass(frozen=True)
class DeckVerdict:
    """A checked decklist: ``valid`` exactly when ``problems`` is empty; ``format`` the
    format checked against (``standard`` | ``limited`` | ``mitos``); ``cards`` a tuple of
    ``{"name", "count", "section"}`` dicts (VEKN ones add the card ``"id"``), in the order
    of :attr:`DeckChecker.sections`; ``problems`` a tuple of ``{"code", "card",
    "message", "params", "suggestions"}`` dicts (stable codes of ``events.deck_rules`` or
    ``events.myl_deck_rules``); ``counts`` the copies per section code."""

    valid: bool
    format: str
    cards: tuple[dict, ...]
    problems: tuple[dict, ...]
    counts: dict[str, int]


@dataclass(frozen=True)
class StoredProblem:
    """A stored problem read back for :func:`events.deck_labels.problem_label`
    (``code``, ``params``, ``message``) and the pages (``card``, ``suggestions``)."""

    code: str
    message: str
    params: dict[str, Any]
    card: str | None = None
    suggestions: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The problem in the active language."""
        return deck_labels.problem_label(self)


def stored_problems(problems: list[dict] | tuple[dict, ...]) -> list[StoredProblem]:
    """The problems of a ``Deck`` row (or a :class:`DeckVerdict`) as :class:`StoredProblem`."""
    return [
        StoredProblem(
            code=p.get("code", ""),
            message=p.get("message", ""),
            params=dict(p.get("params") or {}),
            card=p.get("card"),
            suggestions=tuple(p.get("suggestions") or ()),
        )
        for p in problems
    ]


def _problem_dict(problem) -> dict:
    return {
        "code": problem.code,
        "card": problem.card,
        "message": problem.message,
        "params": dict(problem.params),
        "suggestions": list(getattr(problem, "suggestions", ()) or ()),
    }


class VeknDecks:
    """VEKN decklists (``events.deck_rules``): crypt and library; a limited event is
    checked against TR §7.2.1's minimums, any other against TR §6.2 (standard)."""

    sections = (("crypt", _("Crypt")), ("library", _("Library")))
    publishes_summary = True
    """The published deck shows counts by card type, clan and discipline (deck_summary)."""
    twd = True
    """``export_event --twd`` can write the winner's deck as a TWDA entry."""
    placeholder = "Crypt:\n2\tAnson\n…\nLibrary:\n4\tBlood Doll\n…"

    def format_of(self, event) -> str:
        """The deck format of ``event`` (anything with a ``format``: ``Event.Format``)."""
        return "limited" if getattr(event, "format", "") == "limited" else "standard"

    def check(self, text: str, event) -> DeckVerdict:
        """Check ``text`` for ``event``; ``events.deck_rules.DeckTextError`` (a
        ``UserError``) for an empty, too long or unreadable text."""
        game_format = self.format_of(event)
        check = deck_rules.check_deck(text, game_format)
        return DeckVerdict(
            valid=check.valid,
            format=game_format,
            cards=tuple(
                {"id": c.id, "name": c.name, "count": c.count, "section": c.section}
                for c in check.cards
            ),
            problems=tuple(_problem_dict(p) for p in check.problems),
            counts={"crypt": check.crypt_count, "library": check.library_count},
        )

    def summary(self, cards: list[dict]) -> deck_rules.DeckSummary | None:
        """Counts by card type, clan and discipline of stored ``cards``
        (``events.deck_rules.deck_summary``)."""
        return deck_rules.deck_summary(_parsed(cards))

    def twd_entry(self, cards: list[dict], **fields) -> str:
        """A TWDA entry of stored ``cards`` (``events.deck_rules.twd_entry``; ``fields``
        are its keywords: event, place, date, rounds, final, players, winner…)."""
        return deck_rules.twd_entry(deck=_parsed(cards), **fields)


def _parsed(cards: list[dict]) -> deck_rules.ParsedDeck:
    return deck_rules.ParsedDeck(
        cards=tuple(
            deck_rules.DeckCard(
                id=int(c["id"]), name=c["name"], count=int(c["count"]), section=c["section"]
            )
            for c in cards
            if "id" in c
        )
    )


class MylDecks:
    """Mitos y Leyendas registrations (``events.myl_deck_rules``): main and side deck,
    checked against the event's preset limits (``Preset.deck_limits``; the defaults of
    ``MylDeckLimits`` when the preset has none)."""

    sections = (("main", _("Main deck")), ("side", _("Side deck")))
    publishes_summary = False
    twd = False
    format_code = "mitos"
    """The ``Deck.format`` of a Mitos y Leyendas registration (its limits are the preset's)."""
    placeholder = "Mazo principal\n3 Carta\n…\nSide deck\n2 Carta\n…"

    def format_of(self, event) -> str:
        return self.format_code

    def limits(self, event) -> myl_deck_rules.MylDeckLimits:
        """The deck limits of ``event``'s preset (``events.presets``)."""
        preset = presets.PRESETS.get(getattr(event, "preset", ""))
        return (preset.deck_limits if preset else None) or myl_deck_rules.MylDeckLimits()

    def check(self, text: str, event) -> DeckVerdict:
        """Check ``text`` for ``event``; ``MylDeckTextError`` (a ``UserError``) for an empty
        or too long text."""
        check = myl_deck_rules.check_myl_deck(text, self.limits(event))
        return DeckVerdict(
            valid=check.valid,
            format=self.format_code,
            cards=tuple(
                {"name": line.name, "count": line.count, "section": line.section}
                for line in check.lines
            ),
            problems=tuple(_problem_dict(p) for p in check.problems),
            counts={"main": check.main_count, "side": check.side_count},
        )

    def summary(self, cards: list[dict]) -> None:
        return None

    def twd_entry(self, cards: list[dict], **fields) -> str:
        raise NotImplementedError("Mitos y Leyendas has no Tournament Winning Deck Archive")


VEKN_DECKS = VeknDecks()
MYL_DECKS = MylDecks()
