"""Translated labels of the seating criteria R1..R9 and of their violations.

:mod:`events.seating_rules` is pure: its :class:`~events.seating_rules.Rule` and
:class:`~events.seating_rules.Violation` carry English texts (``description``,
``detail``) and, for the pages, stable codes with params (``code``; ``kind`` and
``params``). This module turns those codes into the reader's language (gettext; numbers
with the language's decimal separator, so ``2.50`` in English and ``2,50``
in Spanish, docs/i18n.md). A code without a label shows its English text unchanged.
Source of the criteria: docs/rules-vekn.md "Seating" (TR §3.1.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from events.seating_rules import Rule, Violation

RULE_DESCRIPTIONS = {
    "R1": gettext_lazy(
        "No pair of players repeats the same predator→prey relationship "
        "(TR §3.1.2; mandatory whenever possible)."
    ),
    "R2": gettext_lazy("No pair of players shares a table in every round, when possible."),
    "R3": gettext_lazy(
        "Available VP are fairly shared between 5- and 4-player tables "
        "(standard deviation of each player's mean)."
    ),
    "R4": gettext_lazy("No pair of players shares a table more often than necessary."),
    "R5": gettext_lazy("Nobody sits in seat 5 more than once."),
    "R6": gettext_lazy(
        "No pair of players repeats the same relative position (prey, grand-prey, "
        "grand-predator, predator or cross-table), when possible."
    ),
    "R7": gettext_lazy("Nobody sits in the same seat twice, when possible."),
    "R8": gettext_lazy(
        "Starting transfers (1, 2, 3, 4, 4 for seats 1–5) are fairly shared "
        "(standard deviation of each player's mean)."
    ),
    "R9": gettext_lazy(
        "No pair of players repeats the same position group (neighbours or "
        "non-neighbours), when possible."
    ),
}
"""Rule code → translated description (the English equals ``Rule.description``)."""

RULE_LABELS = {
    "R1": gettext_lazy("predator-prey repeated"),
    "R2": gettext_lazy("opponents every round"),
    "R3": gettext_lazy("available VP"),
    "R4": gettext_lazy("opponents twice"),
    "R5": gettext_lazy("fifth seat twice"),
    "R6": gettext_lazy("relative position repeated"),
    "R7": gettext_lazy("same seat"),
    "R8": gettext_lazy("starting transfers"),
    "R9": gettext_lazy("position group repeated"),
}
"""Rule code → translated short label (the English equals ``Rule.label``)."""

RELATIONS = {
    "prey": gettext_lazy("prey"),
    "grand-prey": gettext_lazy("grand-prey"),
    "grand-predator": gettext_lazy("grand-predator"),
    "predator": gettext_lazy("predator"),
}

GROUPS = {
    "neighbours": gettext_lazy("neighbours"),
    "non-neighbours": gettext_lazy("non-neighbours"),
}


@dataclass(frozen=True, slots=True)
class RuleRow:
    """A rule as the seating card shows it: ``code``, translated ``label`` and
    ``description``, and its ``weight``."""

    code: str
    label: Any
    description: Any
    weight: int


@dataclass(frozen=True, slots=True)
class ViolationRow:
    """A violation as the seating card shows it: ``rule`` code, translated ``detail``,
    ``players`` and ``rounds`` as in the :class:`Violation`."""

    rule: str
    detail: str
    players: tuple
    rounds: tuple[int, ...]


def rule_row(rule: Rule) -> RuleRow:
    """The translated form of ``rule``."""
    return RuleRow(
        rule.code,
        RULE_LABELS.get(rule.code, rule.label),
        RULE_DESCRIPTIONS.get(rule.code, rule.description),
        rule.weight,
    )


def rounds_text(rounds) -> str:
    """``[1, 2]`` → "rounds 1 and 2" / "rondas 1 y 2"; three or more joined by commas."""
    rounds = [str(r) for r in rounds]
    if len(rounds) == 2:
        return _("rounds %(first)s and %(second)s") % {"first": rounds[0], "second": rounds[1]}
    return _("rounds %(list)s") % {"list": ", ".join(rounds)}


def _number(value: float) -> str:
    """Two decimals, rounded as the English detail rounds them (``f"{v:.2f}"``), with
    the language's decimal separator."""
    return f"{value:.2f}".replace(".", str(get_format("DECIMAL_SEPARATOR")))


def violation_text(violation: Violation) -> str:
    """The violation's ``detail`` in the reader's language (its English when its kind
    has no label, e.g. a violation made before kinds existed)."""
    p = dict(violation.params)
    kind = violation.kind
    when = rounds_text(violation.rounds)
    if kind == "together_every_round":
        text = _("%(a)s and %(b)s share a table in every round") % p
    elif kind == "together_again":
        text = (
            ngettext(
                "%(a)s and %(b)s share a table %(count)d time",
                "%(a)s and %(b)s share a table %(count)d times",
                p["count"],
            )
            % p
        )
    elif kind == "across_again":
        text = _("%(a)s and %(b)s sit across the table again") % p
    elif kind == "relation_again":
        p["relation"] = RELATIONS.get(p["relation"], p["relation"])
        text = _("%(b)s is %(a)s's %(relation)s again") % p
    elif kind == "predator_again":
        text = _("%(predator)s is %(prey)s's predator again") % p
    elif kind == "group_again":
        p["group"] = GROUPS.get(p["group"], p["group"])
        text = _("%(a)s and %(b)s are %(group)s again") % p
    elif kind == "seat_again":
        text = _("%(player)s sits in seat %(seat)s again") % p
    elif kind == "vp_share":
        p.update(value=_number(p["value"]), mean=_number(p["mean"]))
        text = _(
            "%(player)s averages %(value)s available VP against %(mean)s on average "
            "(%(side)s-player tables in %(when)s)"
        ) % {**p, "when": when}
        return text
    elif kind == "transfer_share":
        p.update(value=_number(p["value"]), mean=_number(p["mean"]))
        p["seats"] = ", ".join(str(seat) for seat in p["seats"])
        return (
            _(
                "%(player)s averages %(value)s starting transfers against %(mean)s on average "
                "(seats %(seats)s)"
            )
            % p
        )
    else:
        return violation.detail
    return f"{text} ({when})"


def violation_row(violation: Violation) -> ViolationRow:
    """The translated form of ``violation``."""
    return ViolationRow(
        violation.rule, violation_text(violation), violation.players, violation.rounds
    )


__all__ = [
    "GROUPS",
    "RELATIONS",
    "RULE_DESCRIPTIONS",
    "RULE_LABELS",
    "RuleRow",
    "ViolationRow",
    "rounds_text",
    "rule_row",
    "violation_row",
    "violation_text",
]
