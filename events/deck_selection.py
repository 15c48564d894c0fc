"""Multi-deck events: which events may use them and which deck a finalist plays (VEKN TR
§3.1.5, §3.1.5a; docs/decks.md).

Pure rules, no ORM: plain frozen dataclasses in and out.

- :func:`may_be_multideck` says whether an event may announce the multi-deck system
  (TR §3.1.5: never at a national championship, a continental championship or a Grand Prix).
- :func:`best_performing_deck` applies the best-performing deck method of TR §3.1.5a: the
  finalist plays the deck of their highest single preliminary round, compared by Game Wins,
  then Victory Points, then Tournament Points; decks tied on all three are drawn at random.
  The draw is a seeded :class:`random.Random`, so the same seed and rounds always give the
  same deck: the caller stores the seed (:func:`new_seed`) with the choice, and anyone can
  replay it.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

# The championship levels of ``Event.championship`` that refuse the multi-deck system.
REFUSING_CHAMPIONSHIPS = frozenset({"grand_prix", "national", "continental"})

# Why a deck was chosen (DeckChoice.reason).
ONLY_DECK = "only_deck"  # every preliminary round was played with the same deck
BY_GW = "gw"  # its best round had more Game Wins than any other deck's best round
BY_VP = "vp"  # same GW, more Victory Points
BY_TP = "tp"  # same GW and VP, more Tournament Points
BY_DRAW = "draw"  # tied on GW, VP and TP: drawn at random among the tied decks
REASONS = (ONLY_DECK, BY_GW, BY_VP, BY_TP, BY_DRAW)


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One preliminary round of one player: ``round_number`` (1-based), the ``deck_label``
    they played it with (``Deck.label``; ``""`` is a label like any other), and their
    score in that round: ``gw`` Game Wins (an int, 0 or 1 in VEKN play), ``vp`` Victory
    Points (a ``Decimal`` multiple of 0.5; an int is accepted) and ``tp`` Tournament
    Points (an int). TR §3.1.5a."""

    round_number: int
    deck_label: str
    gw: int
    vp: Decimal
    tp: int

    def key(self) -> tuple[int, Decimal, int]:
        """The TR §3.1.5a comparison key: (GW, VP, TP), larger is better."""
        return (self.gw, Decimal(self.vp), self.tp)


@dataclass(frozen=True, slots=True)
class DeckChoice:
    """The deck a finalist must play (TR §3.1.5a) and why.

    ``deck_label`` is the chosen deck; ``round_number`` the preliminary round that made it
    the best-performing deck (the earliest of its rounds with the best score); ``gw``,
    ``vp``, ``tp`` that round's score. ``reason`` is one of :data:`REASONS`: the first
    criterion that separated it from the best round of every other deck, ``only_deck``
    when no other deck was played, or ``draw`` when decks tied on all three criteria.
    ``tied_labels`` lists the decks of the draw, sorted (empty unless ``draw``); ``seed``
    is the seed the draw used (``None`` unless ``draw``) and ``runner_up`` the best other
    deck's label (``None`` when only one deck was played)."""

    deck_label: str
    round_number: int
    gw: int
    vp: Decimal
    tp: int
    reason: str
    tied_labels: tuple[str, ...] = ()
    seed: int | None = None
    runner_up: str | None = None

    def explain(self) -> str:
        """The reason as a sentence in the active language (shown on the final's page)."""
        score = _("round %(round)d: %(gw)d GW, %(vp)s VP, %(tp)d TP") % {
            "round": self.round_number,
            "gw": self.gw,
            "vp": _fmt_vp(self.vp),
            "tp": self.tp,
        }
        label = self.deck_label or _("(unnamed deck)")
        if self.reason == ONLY_DECK:
            return _("%(deck)s is the only deck played in the preliminary rounds (%(score)s).") % {
                "deck": label,
                "score": score,
            }
        if self.reason == BY_DRAW:
            return _(
                "%(decks)s tied on GW, VP and TP in their best round (%(score)s); "
                "%(deck)s was drawn at random (seed %(seed)s)."
            ) % {
                "decks": ", ".join(t or _("(unnamed deck)") for t in self.tied_labels),
                "score": score,
                "deck": label,
                "seed": self.seed,
            }
        criterion = {
            BY_GW: _("Game Wins"),
            BY_VP: _("Victory Points"),
            BY_TP: _("Tournament Points"),
        }[self.reason]
        return _(
            "%(deck)s had the best single preliminary round (%(score)s), ahead of "
            "%(other)s on %(criterion)s."
        ) % {
            "deck": label,
            "score": score,
            "other": self.runner_up or _("(unnamed deck)"),
            "criterion": criterion,
        }


def _fmt_vp(value: Decimal) -> str:
    value = Decimal(value)
    return str(value.quantize(Decimal(1))) if value == value.to_integral() else str(value)


def may_be_multideck(championship: str) -> bool:
    """Whether an event may announce the multi-deck system (VEKN TR §3.1.5): not at a
    national championship, a Grand Prix or a continental championship (``championship``
    is ``Event.championship``: ``""`` | ``"grand_prix"`` | ``"national"`` |
    ``"continental"``). An unknown level raises ``ValueError``."""
    if championship not in ("", *REFUSING_CHAMPIONSHIPS):
        raise ValueError(f"unknown championship level {championship!r}")
    return championship not in REFUSING_CHAMPIONSHIPS


def new_seed() -> int:
    """A fresh seed for :func:`best_performing_deck`'s draw: a non-negative 63-bit int
    (fits a ``BigIntegerField``), from the OS's secure random source."""
    return secrets.randbits(63)


def _validate(rounds: Sequence[RoundScore]) -> None:
    if not rounds:
        raise ValueError("a finalist has at least one preliminary round")
    seen: set[int] = set()
    for r in rounds:
        if r.round_number < 1:
            raise ValueError(f"round numbers start at 1 (got {r.round_number})")
        if r.round_number in seen:
            raise ValueError(f"round {r.round_number} appears twice")
        seen.add(r.round_number)
        if r.gw < 0 or r.tp < 0 or Decimal(r.vp) < 0:
            raise ValueError(f"round {r.round_number}: GW, VP and TP cannot be negative")
        if Decimal(r.vp) * 2 != (Decimal(r.vp) * 2).to_integral():
            raise ValueError(f"round {r.round_number}: VP must be in steps of 0.5")


def best_performing_deck(rounds: Sequence[RoundScore], seed: int | None = None) -> DeckChoice:
    """The deck a finalist must play under the best-performing deck method (VEKN TR
    §3.1.5a): the deck of their highest single preliminary round by GW, then VP, then TP.

    ``rounds`` are the finalist's preliminary rounds (any order; at least one; each round
    number once; no negative scores; VP in steps of 0.5, else ``ValueError``). When the
    best rounds of several decks tie on all three criteria, one of them is drawn with
    ``random.Random(seed).choice`` over the tied labels sorted: reproducible from the
    seed. A tie needs a ``seed`` (``ValueError`` without one: the caller draws it with
    :func:`new_seed` and stores it); ties within one deck need no draw. Returns a
    :class:`DeckChoice`."""
    _validate(rounds)
    # The best round of each deck; among its equal rounds, the earliest.
    best: dict[str, RoundScore] = {}
    for r in sorted(rounds, key=lambda r: r.round_number):
        current = best.get(r.deck_label)
        if current is None or r.key() > current.key():
            best[r.deck_label] = r
    ranked = sorted(best.values(), key=lambda r: (r.key(), -r.round_number), reverse=True)
    top = ranked[0]
    if len(ranked) == 1:
        return _choice(top, ONLY_DECK)
    tied = sorted(r.deck_label for r in ranked if r.key() == top.key())
    if len(tied) > 1:
        if seed is None:
            raise ValueError("decks are tied on GW, VP and TP: a seed is needed for the draw")
        drawn = best[random.Random(seed).choice(tied)]
        return _choice(drawn, BY_DRAW, tied_labels=tuple(tied), seed=seed)
    second = ranked[1]
    if top.gw != second.gw:
        reason = BY_GW
    elif Decimal(top.vp) != Decimal(second.vp):
        reason = BY_VP
    else:
        reason = BY_TP
    return _choice(top, reason, runner_up=second.deck_label)


def _choice(r: RoundScore, reason: str, **extra) -> DeckChoice:
    return DeckChoice(
        deck_label=r.deck_label,
        round_number=r.round_number,
        gw=r.gw,
        vp=Decimal(r.vp),
        tp=r.tp,
        reason=reason,
        **extra,
    )
