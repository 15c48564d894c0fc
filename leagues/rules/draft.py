"""Draft order of the next season and draws by lot that anyone can re-check.

Sources: docs/leagues.md "Draft order"; ANFPES T24 §III.4 (a suspended team picks last in the first
round of picks; with two or more, their order among the last places is drawn by lot),
§III.4 ¶2 and §IV.8 (users reaped by the compliance review pick last, whatever their
position or division, ordered by their compliance percentage).

Order (**[choice]** where the text is silent):

1. The base order staff entered (``base_order``), minus the teams below.
2. Reaped users (:mod:`leagues.rules.compliance`), higher compliance first; equal
   compliance keeps the base order **[choice]**, no compliance figure goes last.
3. Suspended/abandoned teams after the reaped ones (ANFPES T24 §III.4, §IV.8; docs/leagues.md
   "Draft order" **[choice on the relative order]**: both are "last" in the rules; suspension is the
   heavier sanction). A team both suspended and reaped counts as suspended. With two or more, their
   order is drawn by lot (:func:`draw_lots`), recorded with its seed, or entered by hand from a live
   draw. Expelled teams are not in the next draft at all: leave them out of ``base_order``.

Draws by lot: ``random.Random(seed)`` and a Fisher–Yates shuffle that only uses
``Random.random()`` — the one method whose sequence Python guarantees for a given seed
across versions (``random`` docs, "Notes on Reproducibility") — over the entrants in base
order. Anyone can re-run it with :func:`draw_lots` or :meth:`LotDraw.verify`::

    rng = random.Random(seed)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from leagues.rules.errors import LeagueRuleError

__all__ = [
    "RULES",
    "DraftOrder",
    "DraftSlot",
    "LotDraw",
    "draft_order",
    "draw_lots",
]

RULES = {
    "base_order": "Base order entered by staff (ANFPES T24 §III.4, §IV.8; docs/leagues.md 'Draft order').",
    "reaped": "Reaped by the compliance review: to the end, higher compliance first "
    "(ANFPES T24 §III.4 ¶2, §IV.8).",
    "suspended": "Suspended or abandoned: last (ANFPES T24 §III.4).",
    "suspended_lot": "Suspended or abandoned: last, order drawn by lot (ANFPES T24 §III.4).",
}
"""Stable codes of the rule that placed a team (docs/contracts.md §6 ``draft-order``)."""


@dataclass(frozen=True, slots=True)
class LotDraw:
    """A recorded draw by lot: ``entrants`` in the order they were put in (base order),
    the resulting ``order``, and ``seed`` (``None`` for a live draw entered by hand,
    ``method == "manual"``; else ``method == "seed"``)."""

    entrants: tuple[Hashable, ...]
    order: tuple[Hashable, ...]
    seed: int | str | None
    method: str = "seed"

    def verify(self) -> bool:
        """Re-run a seeded draw and compare; a manual draw only checks it is a permutation."""
        if sorted(map(repr, self.entrants)) != sorted(map(repr, self.order)):
            return False
        if self.method == "manual":
            return True
        return draw_lots(self.entrants, self.seed).order == self.order

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready record."""
        return {
            "method": self.method,
            "seed": self.seed,
            "entrants": list(self.entrants),
            "order": list(self.order),
        }


def draw_lots(entrants: Sequence[Hashable], seed: int | str | None = None) -> LotDraw:
    """Draw the order of ``entrants`` by lot with ``random.Random(seed)`` (module docstring
    gives the algorithm). ``seed``: an ``int`` or ``str``; ``None`` draws a fresh 64-bit
    seed with :mod:`secrets` (recorded in the result). Raises :class:`LeagueRuleError` for a
    repeated entrant or a seed of another type."""
    entrants = tuple(entrants)
    if len(set(entrants)) != len(entrants):
        raise LeagueRuleError("an entrant is listed twice in the draw")
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise LeagueRuleError("the seed must be an integer or a string")
    rng = random.Random(seed)
    items = list(entrants)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return LotDraw(entrants, tuple(items), seed, "seed")


@dataclass(frozen=True, slots=True)
class DraftSlot:
    """One pick position (1-based): the team, the ``rule`` code (:data:`RULES`) that placed
    it and a short English ``detail`` (e.g. ``"compliance 62.5%"``)."""

    position: int
    team: Hashable
    rule: str
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (docs/contracts.md §6 ``draft-order``)."""
        return {
            "position": self.position,
            "team": self.team,
            "rule": self.rule,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class DraftOrder:
    """Result of :func:`draft_order`: the slots and the draw by lot, if one was needed."""

    slots: tuple[DraftSlot, ...]
    lot: LotDraw | None = None

    @property
    def order(self) -> tuple[Hashable, ...]:
        """Teams, first pick first."""
        return tuple(slot.team for slot in self.slots)


def _as_fraction(value: Fraction | Decimal | float | int | None) -> Fraction | None:
    if value is None:
        return None
    if isinstance(value, Fraction | int):
        return Fraction(value)
    return Fraction(str(value))


def draft_order(
    base_order: Sequence[Hashable],
    *,
    reaped: Mapping[Hashable, Fraction | Decimal | float | None] | None = None,
    suspended: Collection[Hashable] = (),
    seed: int | str | None = None,
    lot_result: Sequence[Hashable] | None = None,
) -> DraftOrder:
    """The draft order (ANFPES T24 §III.4, §IV.8; docs/leagues.md "Draft order"; module docstring
    gives the rules).

    - ``base_order``: every team of the draft, first pick first, as staff entered it.
    - ``reaped``: reaped team → its compliance, either every one a ``Fraction`` ratio
      (0…1, as :attr:`~leagues.rules.compliance.ComplianceRow.ratio`) or every one a
      percentage (``Decimal``/number, 0…100), or ``None`` when the team has none.
    - ``suspended``: suspended/abandoned teams.
    - ``seed`` / ``lot_result``: how to order two or more suspended teams — a seeded draw
      (``seed=None`` draws a fresh seed) or a hand-entered live draw ``lot_result``.

    Returns a :class:`DraftOrder`. Raises :class:`LeagueRuleError` for a repeated team, a
    reaped or suspended team not in ``base_order``, or a ``lot_result`` that is not exactly
    the suspended teams.
    """
    base = tuple(base_order)
    reaped = dict(reaped or {})
    suspended = set(suspended)
    problems = []
    if len(set(base)) != len(base):
        problems.append("a team is listed twice in the base order")
    for team in [*reaped, *suspended]:
        if team not in base:
            problems.append(f"{team} is not in the base order")
    kinds = {isinstance(v, Fraction) for v in reaped.values() if v is not None}
    if len(kinds) > 1:
        problems.append("give every compliance as a ratio (Fraction) or every one as a percentage")
    if problems:
        raise LeagueRuleError(problems)

    index = {team: i for i, team in enumerate(base)}
    slots: list[tuple[Hashable, str, str]] = [
        (team, "base_order", f"base order {index[team] + 1}")
        for team in base
        if team not in reaped and team not in suspended
    ]
    ratios = {team: _as_fraction(value) for team, value in reaped.items()}
    for team in sorted(
        (t for t in reaped if t not in suspended),
        key=lambda t: (ratios[t] is None, -(ratios[t] or 0), index[t]),
    ):
        value = reaped[team]
        if value is None:
            detail = "no compliance figure"
        elif isinstance(value, Fraction):
            detail = f"compliance {float(value) * 100:.1f}%"
        else:
            detail = f"compliance {value}%"
        slots.append((team, "reaped", detail))

    lot = None
    entrants = tuple(team for team in base if team in suspended)
    if len(entrants) == 1 and lot_result is None:
        slots.append((entrants[0], "suspended", ""))
    elif entrants:
        if lot_result is not None:
            if sorted(map(repr, lot_result)) != sorted(map(repr, entrants)):
                raise LeagueRuleError("the draw's result must list exactly the suspended teams")
            lot = LotDraw(entrants, tuple(lot_result), None, "manual")
        else:
            lot = draw_lots(entrants, seed)
        for number, team in enumerate(lot.order, start=1):
            slots.append((team, "suspended_lot", f"drawn {number} of {len(lot.order)}"))
    elif lot_result:
        raise LeagueRuleError("the draw's result must list exactly the suspended teams")
    return DraftOrder(
        tuple(DraftSlot(i, team, rule, detail) for i, (team, rule, detail) in enumerate(slots, 1)),
        lot,
    )
