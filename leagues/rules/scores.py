"""Sane scores: the most goals a result and a penalty shoot-out may have, and which
shoot-out scores can happen (issue 14; docs/leagues.md "Scores").

Sources: ANFPES T24 §1.1.2, §2.2 (a level decider goes to "definición a penales"); the
shoot-out itself follows football's Laws of the Game (Law 10): five kicks each, stopped as
soon as one side cannot catch up, then one kick each until one scores and the other does
not. Shapes: scores are ``int >= 0``. Pure: no ORM.

**[choice]** points:

- :data:`MAX_GOALS` = 30 goals a side: a PES match of ANFPES's length (10 minutes a
  final, §1.1.5) never comes close; 99–0 is a typing error. The database keeps a wider
  guard (``leagues.models.MAX_GOALS``, 99) for stored history; season files too.
- :data:`MAX_SHOOTOUT` = 30 goals a side in a shoot-out (26 rounds of sudden death after
  the five kicks: far beyond any recorded shoot-out).
- A shoot-out score is possible (:func:`shootout_possible`) when it has a winner and is
  either a score the five kicks each can end on (:data:`REGULATION_SCORES`, e.g. 3–0,
  4–2, 5–4; never 5–0 or 5–1, which stop earlier) or a sudden-death score, one goal apart
  (6–5, 1–0 after 0–0). So 99–98 is refused by the maximum, 9–2 by the rule.
"""

from __future__ import annotations

from itertools import product

__all__ = [
    "MAX_GOALS",
    "MAX_SHOOTOUT",
    "REGULATION_KICKS",
    "REGULATION_SCORES",
    "shootout_possible",
]

MAX_GOALS = 30
"""Most goals a side may have in a result entered on the pages or through the services."""

MAX_SHOOTOUT = 30
"""Most goals a side may have in a penalty shoot-out."""

REGULATION_KICKS = 5
"""Kicks each before sudden death (Law 10)."""


def _regulation_scores(kicks: int) -> frozenset[tuple[int, int]]:
    """Every final ``(first, second)`` score of the first ``kicks`` kicks each, taken in
    turn, stopped as soon as one side cannot catch up; level ones go to sudden death and
    are left out."""
    scores = set()
    for outcome in product((0, 1), repeat=2 * kicks):
        goals, taken = [0, 0], [0, 0]
        for number, scored in enumerate(outcome):
            side = number % 2
            goals[side] += scored
            taken[side] += 1
            left = [kicks - taken[0], kicks - taken[1]]
            if goals[0] > goals[1] + left[1] or goals[1] > goals[0] + left[0]:
                break
        if goals[0] != goals[1]:
            scores.add((goals[0], goals[1]))
    return frozenset(scores)


_FIRST = _regulation_scores(REGULATION_KICKS)
REGULATION_SCORES = _FIRST | {(b, a) for a, b in _FIRST}
"""``(home, away)`` shoot-out scores the five kicks each can end on (either side first)."""


def shootout_possible(home: int, away: int) -> bool:
    """Whether ``home``–``away`` can be the score of a penalty shoot-out: a winner, each side
    at most :data:`MAX_SHOOTOUT`, and a score of the five kicks (:data:`REGULATION_SCORES`)
    or of sudden death (one goal apart)."""
    if not (0 <= home <= MAX_SHOOTOUT and 0 <= away <= MAX_SHOOTOUT) or home == away:
        return False
    return (home, away) in REGULATION_SCORES or abs(home - away) == 1
