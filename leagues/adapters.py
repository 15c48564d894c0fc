"""The one stored-match → rules converter of the leagues app: a stored
:class:`leagues.models.Match` (an instance, or a ``values()`` row of :data:`MATCH_FIELDS`)
as the rules' :class:`leagues.rules.season.Match`, and whether a played match counts.

Every league path that hands stored matches to the rules — tables, group tables,
brackets, suspensions, the compliance table, walkovers — goes through :func:`rule_match`
(or :func:`rule_match_of`), so they agree on what a match is and on when it does not count:

- **Broadcast** (ANFPES T24 §1.4 ¶5–¶6, :func:`leagues.rules.match_rules.counts`): a
  played match that needs its stream link and has none is a friendly that does not count
  "para todos los efectos". It needs it when staff marked the fixture ``must_stream``
  (regular phase) or when it is a leg of a league final phase (:func:`league_final_phase`).
- A ``must_stream`` fixture without its link is passed to the rules as ``void``
  **[choice]** (the table, the group tables and the brackets ignore it). A league
  final-phase leg keeps its status and its (missing) link: the tie rules see it and mark
  the leg ``counted: false`` (``require_stream``, :func:`leagues.rules.ties.tie_state`);
  paths without a tie rule (the compliance table) skip it with :func:`is_friendly`.

Pure apart from the model's status names; no query.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from leagues.rules import brackets as bracket_rules
from leagues.rules import match_rules
from leagues.rules import season as season_rules

__all__ = [
    "LEAGUE_TIES",
    "MATCH_FIELDS",
    "is_friendly",
    "league_final_phase",
    "rule_match",
    "rule_match_of",
]

MATCH_FIELDS = (
    "pk",
    "code",
    "round",
    "home__code",
    "away__code",
    "home__name",
    "away__name",
    "home_goals",
    "away_goals",
    "extra_time",
    "penalties_home",
    "penalties_away",
    "status",
    "absent",
    "reported_at",
    "initial_deadline",
    "final_deadline",
    "stream_url",
    "tie",
    "leg",
    "must_stream",
)
"""The ``values()`` fields :func:`rule_match` reads (each optional but ``code``,
``round``, the team codes and ``status``)."""

LEAGUE_TIES = frozenset(t.id for t in bracket_rules.league_post_season().ties)
"""Tie ids of the ANFPES league post-season (both divisions)."""


def league_final_phase(kind: str, cup: bool, tie_ids: Iterable[str]) -> bool:
    """Whether a competition is a league final phase, where every match must be streamed
    (ANFPES T24 §1.4 ¶5): a ``knockout`` that is not a cup knockout created in the app
    (``cup``: it has a stored cup setup, :func:`leagues.staff_decisions.is_cup`) and whose
    tie ids (a match without one: its own id) are all ANFPES league post-season ties
    (:data:`LEAGUE_TIES`). Cup knockouts are not (§2.2)."""
    if kind != "knockout" or cup:
        return False
    tie_ids = set(tie_ids)
    return bool(tie_ids) and tie_ids <= LEAGUE_TIES


def is_friendly(row: Mapping[str, Any], *, final_phase: bool = False) -> bool:
    """A played match that needs its stream link — staff marked it ``must_stream``, or it
    is a leg of a league final phase (``final_phase``) — and has none: a friendly that does
    not count (ANFPES T24 §1.4 ¶5–¶6, :func:`leagues.rules.match_rules.counts`).
    ``row``: a ``values()`` dict (``status``, ``stream_url``, ``must_stream``)."""
    if row.get("status") != "played":
        return False
    probe = season_rules.Match(
        id="", round=1, home="h", away="a", stream_url=row.get("stream_url") or None
    )
    if final_phase and not match_rules.counts(probe, "league_final_phase"):
        return True
    return bool(row.get("must_stream")) and not match_rules.counts(
        probe, "regular_phase", must_stream=True
    )


def _extra_time(value):
    return tuple(value) if isinstance(value, list) else value


def rule_match(row: Mapping[str, Any], *, prefix: str = "") -> season_rules.Match:
    """A ``values()`` row (fields of :data:`MATCH_FIELDS`; the team codes as ids) as the
    rules' light match, its id ``prefix + code``. A played ``must_stream`` fixture without
    its link is returned ``void`` (module docstring)."""
    penalties = None
    if row.get("penalties_home") is not None:
        penalties = (row["penalties_home"], row["penalties_away"])
    match = season_rules.Match(
        id=prefix + row["code"],
        round=row["round"],
        home=row["home__code"],
        away=row["away__code"],
        home_goals=row.get("home_goals"),
        away_goals=row.get("away_goals"),
        status=row["status"],
        absent=row.get("absent") or None,
        reported_at=row.get("reported_at"),
        initial_deadline=row.get("initial_deadline"),
        final_deadline=row.get("final_deadline"),
        extra_time=_extra_time(row.get("extra_time")),
        penalties=penalties,
        stream_url=row.get("stream_url") or None,
        tie=row.get("tie") or None,
        leg=row.get("leg"),
    )
    if is_friendly(row):
        return replace(match, status="void")
    return match


def rule_match_of(match, *, prefix: str = "", codes: Mapping | None = None) -> season_rules.Match:
    """A stored :class:`leagues.models.Match` instance as :func:`rule_match` gives its
    ``values()`` row: its teams' codes from ``codes`` (team pk → code) when given, else
    from its loaded ``home`` and ``away``."""
    row = {name: getattr(match, name) for name in MATCH_FIELDS if "__" not in name and name != "pk"}
    if codes is not None:
        row |= {"home__code": codes[match.home_id], "away__code": codes[match.away_id]}
    else:
        row |= {"home__code": match.home.code, "away__code": match.away.code}
    return rule_match(row, prefix=prefix)
