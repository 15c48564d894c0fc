"""The one error kind of the league rules: bad input the user (staff, importer) can fix.

Pattern: ``events/seating.py`` ``SeatingError`` and Tabbycat's ``DrawUserError``. A problem
is a :class:`~leagues.rules.texts.Reason`: a stable ``code`` and its ``params``; its
English text (kept in the API, the import reports and ``str(error)``) comes from
:data:`leagues.rules.texts.TEXTS`, and the pages show the translated label of the same
code (:func:`leagues.labels.problem_label`). A problem
given as a plain English sentence has the code ``"text"``. A bug is any other exception.
"""

from __future__ import annotations

from collections.abc import Iterable

from leagues.rules.texts import TEXTS, Reason

__all__ = ["TEXTS", "LeagueRuleError", "Reason"]


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
