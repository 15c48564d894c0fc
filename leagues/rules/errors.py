"""The one error kind of the league rules: bad input the user (staff, importer) can fix.

Pattern: ``events/seating.py`` ``SeatingError`` and Tabbycat's ``DrawUserError``. A problem
is a :class:`Reason`: a stable ``code`` and its ``params``; its English text (kept in the
API, the import reports and ``str(error)``) comes from :data:`TEXTS`, and the pages show
the translated label of the same code (:func:`leagues.labels.problem_label`). A problem
given as a plain English sentence has the code ``"text"``. A bug is any other exception.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

TEXTS = {
    "text": "{text}",
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
}
"""Problem codes → their English text (``str.format`` with the params; stable: the API
and the tests read it). ANFPES T24 §2.1–§2.2 (cup draws and knockouts)."""


@dataclass(frozen=True)
class Reason:
    """One problem found by a rule: ``code`` (a key of :data:`TEXTS`) and ``params`` (the
    named values its text and its label need). ``str(reason)`` is the English text."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return TEXTS[self.code].format(**self.params)


def _reason(problem: str | Reason) -> Reason:
    return problem if isinstance(problem, Reason) else Reason("text", {"text": problem})


class LeagueRuleError(ValueError):
    """Input that breaks a league rule or a contract; the user can fix it.

    ``reasons`` lists every problem found (:class:`Reason`), ``problems`` the same as
    English sentences with their location (e.g. ``"competition t24-a, match m7:
    home_goals must be >= 0"``), so that an import can print all of them at once
    (``docs/contracts.md``: import is all or nothing). ``str(error)`` joins them with newlines.
    """

    def __init__(self, problems: str | Reason | Iterable[str | Reason]):
        if isinstance(problems, str | Reason):
            problems = (problems,)
        self.reasons: tuple[Reason, ...] = tuple(_reason(p) for p in problems)
        self.problems: tuple[str, ...] = tuple(str(r) for r in self.reasons)
        super().__init__("\n".join(self.problems))
