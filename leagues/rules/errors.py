"""The one error kind of the league rules: bad input the user (staff, importer) can fix.

Pattern: ``events/seating.py`` ``SeatingError`` and Tabbycat's ``DrawUserError``. The
adapter shows ``problems`` to the user (translated there; the rules only use English text
and stable ``code`` values). A bug is any other exception.
"""

from __future__ import annotations

from collections.abc import Iterable


class LeagueRuleError(ValueError):
    """Input that breaks a league rule or a contract; the user can fix it.

    ``problems`` lists every problem found (each a human-readable English sentence with its
    location, e.g. ``"competition t24-a, match m7: home_goals must be >= 0"``), so that an
    import can print all of them at once (CONTRACTS §1, §5: all-or-nothing). ``str(error)``
    joins them with newlines.
    """

    def __init__(self, problems: str | Iterable[str]):
        self.problems: tuple[str, ...] = (
            (problems,) if isinstance(problems, str) else tuple(problems)
        )
        super().__init__("\n".join(self.problems))
