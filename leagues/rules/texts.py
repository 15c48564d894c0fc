"""What the league rules say, as stable codes with parameters: problems, and the texts of
the brackets (where a slot is fed from, what it waits for, a tie's name, a move between
divisions, what next season still waits for).

A :class:`Reason` is a code and its params. It *is* its English text (a ``str``: the API,
the import reports and the tests read it unchanged), made from :data:`TEXTS`; the pages
show the translated label of the same code and params (:func:`leagues.labels.label`),
never a sentence parsed back. Standard library only (docs/architecture.md
"Layers and the direction of imports"). Sources: ANFPES T24 §1.1–§1.3, §2.1–§2.2, §III.4.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any

RANKING_NAMES = {
    "primera_a": "Primera A",
    "primera_b": "Primera B",
    "cl_winners": "the Champagne League group winners",
    "cl_runners_up": "the Champagne League runners-up",
    "cl_thirds": "the Champagne League thirds",
    "cl_fourths": "the Champagne League fourths",
    "ns_draw": "the Nucommunity Shit draw",
    "ns_winners": "the Nucommunity Shit group winners",
    "ns_runners_up": "the Nucommunity Shit runners-up",
}
"""Ranking codes (stable) → English display name used in slot labels."""


def ordinal(number: int) -> str:
    """English ordinal: 1 → ``"1st"``, 12 → ``"12th"``, 22 → ``"22nd"``."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


TEXTS = {
    # A problem given as a plain English sentence.
    "text": "{text}",
    # Cup draws and knockouts (ANFPES T24 §2.1–§2.2).
    "listed_twice": "a team is listed twice in the previous tables and newcomers",
    "strangers": "not in last season's tables nor among the newcomers: {teams_list}",
    "draw_size": "the draw needs {n} teams ({pots} pots of {size}), got {got}",
    "draw_teams": "the draw must list every team of the pots exactly once",
    "unknown_group": "{team}: unknown group {group_repr}",
    "group_pot_twice": "group {group} has two teams of pot {pot}",
    "knockout_power_of_two": "a knockout needs a power-of-two number of teams",
    "drawn_knockout_power_of_two": "a drawn knockout needs a power-of-two number of entrants",
    "groups_power_of_two": "the number of groups must be a power of two",
    "ties_power_of_two": "the number of first-round ties must be a power of two",
    "uneven_groups": "the teams must split evenly into the groups",
    # Where a slot is fed from (leagues.rules.bracket_engine.Source).
    "source_position": "{position:ordinal} of {ranking:ranking}",
    "source_winner": "winner of {tie}",
    "source_loser": "loser of {tie}",
    "source_team": "team {team}",
    "source_better_of": "better-placed in {ranking:ranking} of ({teams:list})",
    "source_worse_of": "worse-placed in {ranking:ranking} of ({teams:list})",
    # What a slot waits for (leagues.rules.bracket_engine.fill_bracket) or relegation
    # (leagues.rules.presets.anfpes_t24.relegation).
    "waiting_table": "the {table} table",
    "waiting_missing_position": "no {slot}: staff decision",
    "waiting_title_decider": "the title decider match (ANFPES T24 §1.3.1)",
    "waiting_unresolved_tie": "a staff decision on a tie in the table",
    "waiting_table_to_be_closed": "the {table:ranking} table to be closed",
    "waiting_other_bracket": "{tie} (another bracket)",
    "waiting_result": "the result of {tie}",
    "waiting_stage_closed": "staff to close the stage {stage}",
    "waiting_abandoned": "staff decision: teams abandoned Primera A (ANFPES T24 §1.2.2)",
    "waiting_table_to_close": "the {table:ranking} table to close",
    "waiting_tie_in_table": "a tie in the table",
    "waiting_not_in_bracket": "not in the bracket",
    # Names of the ANFPES T24 post-season ties (leagues.rules.presets.anfpes_t24).
    "tie_pairing": "{first} v {second}",
    "tie_semi_final": "Semi-final {n}",
    "tie_final": "Final",
    "tie_promotion_final": "Promotion final",
    "tie_liguilla": "{position:ordinal} A",
    # What next season's divisions wait for (anfpes_t24.next_divisions ``pending``).
    "pending_waiting": "{what}: {why}",
    "pending_liguilla": "{tie}: the Liguilla tie to be decided and closed",
    # Why a team changes division, or keeps it (anfpes_t24.Move ``reason``).
    "move_bottom_two": "relegated: last two of Primera A (ANFPES T24 §1.2.1)",
    "move_staff_relegation": "relegated by staff decision (ANFPES T24 §1.2.2)",
    "move_relegated": "relegated (ANFPES T24 §1.2.1–§1.2.2)",
    "move_champion_b": "Primera B champion (ANFPES T24 §1.3.1)",
    "move_promoted_b": "promotion final winner (ANFPES T24 §1.3.2)",
    "move_liguilla_promoted": "promoted: won the Liguilla de Promoción {tie} (ANFPES T24 §1.2.3)",
    "move_liguilla_relegated": "relegated: lost the Liguilla de Promoción {tie} (ANFPES T24 §1.2.3)",
    "move_liguilla_stays_a": (
        "stays in Primera A: won the Liguilla de Promoción {tie} (ANFPES T24 §1.2.3)"
    ),
    "move_liguilla_stays_b": (
        "stays in Primera B: lost the Liguilla de Promoción {tie} (ANFPES T24 §1.2.3)"
    ),
    "move_suspended": "suspended: relegated (ANFPES T24 §III.4)",
    "move_expelled": "expelled (ANFPES T24 §III.4)",
}
"""Codes → their English text: ``str.format`` with the params, where ``:ordinal`` writes a
number as "1st", ``:ranking`` a ranking code by its :data:`RANKING_NAMES` name and
``:list`` a list joined by commas. Stable: the API and the tests read these texts."""


class _English(Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "ordinal":
            return ordinal(value)
        if format_spec == "ranking":
            return RANKING_NAMES.get(value, value)
        if format_spec == "list":
            return ", ".join(map(str, value))
        return super().format_field(value, format_spec)


_ENGLISH = _English()


class Reason(str):
    """One thing a rule says: ``code`` (a key of :data:`TEXTS`) and ``params`` (the named
    values its text and its label need; a param may itself be a :class:`Reason`). The
    object is the English text (``str(reason)``, JSON, equality); its label in the
    reader's language is :func:`leagues.labels.label`. ``KeyError`` for an unknown code."""

    code: str
    params: Mapping[str, Any]

    def __new__(cls, code: str, params: Mapping[str, Any] | None = None):
        params = dict(params or {})
        self = super().__new__(cls, _ENGLISH.vformat(TEXTS[code], (), params))
        self.code = code
        self.params = params
        return self

    def __repr__(self) -> str:
        return f"Reason({self.code!r}, {self.params!r})"

    def __reduce__(self):
        return (Reason, (self.code, dict(self.params)))
