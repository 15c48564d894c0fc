"""Brackets of the final phases: slots fed from tables and ties, filled as results come.

Sources: ANFPES T24 §1.1 (Primera A playoffs: 1v8 and 4v5 on one side, 2v7 and 3v6 on the
other; semi-finals in that bracket order as a Final Four; a two-legged final of 10-minute
matches; staff may drop the Final Four format, §1.1.6), §1.2 (15th and 16th relegated;
with abandonments staff decide, at least one team relegated directly; Liguilla: 14th v the
promotion-final loser, 12th and 13th v the zone winners), §1.3 (Primera B champion, or a
decider when tied on points; promotion playoffs 2v5, 3v4 and the promotion final; zones A
and B; 12th v the worse-placed zone winner, 13th v the better-placed), §III.4 (a suspended
Primera A team goes down), §V ¶3; ``docs/leagues-final-phases.md``; docs/contracts.md §6 (bracket:
ties with ``legs``, ``aggregate``, ``third_match_required``, ``winner`` and what each slot is fed
from).

Model: a :class:`BracketSpec` is a list of :class:`TieSpec` whose two slots are
:class:`Source` s — "1st of Primera A", "winner of qf1", "loser of psf2", "better-placed in
Primera B of (loser of psf1, loser of psf2)". :func:`fill_bracket` resolves every slot from
the final tables (:class:`Standing`) and the ties' matches (:func:`leagues.rules.ties.
tie_state`) and returns a :class:`FilledBracket`. Nothing is stored: re-run it after each
confirmed result.

Where it lives (this module re-exports every name; importers use it): the generic engine
(sources, specs, :func:`fill_bracket`, :func:`seeded_knockout`, :func:`drawn_knockout`) in
:mod:`leagues.rules.bracket_engine`; the ANFPES T24 format (stage codes, the Primera A
playoffs, Primera B promotion and zones, the Liguilla, :func:`relegation`,
:func:`next_divisions`) in the preset :mod:`leagues.rules.presets.anfpes_t24`.

Rules as implemented (**[choice]** where the text is silent):

- A table position feeds a slot only once that table is **closed** (the regular phase is
  over) and the position is not inside an unresolved tie (e.g. the Primera B title
  decider, §1.3.1, flagged by :mod:`leagues.rules.table`); before that the slot shows the
  current occupant as ``provisional``.
- A winner or loser advances only once staff have **closed the tie's stage**
  (``closed_stages``, an input); before that it is ``provisional``. Closing a stage with an
  undecided tie is reported in ``problems``.
- Every tie is two-legged with a third match if level (§1.1.2, §1.2.3, §1.3.2, §1.3.4).
  **The Final Four flag does not change the number of legs**: §1.1.2 says the whole final
  phase is played "en cruces de partidos ida y vuelta" and §1.1.5 that the final is played
  "igualmente" home and away; the Final Four (§1.1.4) is about playing both semi-finals in
  one session that cannot be rescheduled. So ``final_four`` only marks the semi-finals
  ``same_day="final_four"``; the number of legs of the semi-finals and of the final are
  separate settings (default 2) for staff who drop or change the format (§1.1.6).
- The final's matches last 10 minutes (§1.1.5): ``match_minutes=10``; other ties ``None``
  (the usual game setting).
- Zones (§1.3.4 gives only their members): inside a zone, semi-finals best v worst and the
  middle two by Primera B position, then a zone final (``docs/leagues-final-phases.md`` "Primera B" **[choice]**). The
  better-placed promotion semi-final loser (positions 2–5) is always the best of its zone,
  so Zone A is ``loser v 11th``, ``7th v 8th``; Zone B ``loser v 10th``, ``6th v 9th``.
- Home side of a third match and of the legs: the better-ranked team (rank keys from the
  standings in ``BracketSpec.rank_by``: ``(index of the first standing holding the team,
  position)``, so in the Liguilla any Primera A team ranks above any Primera B team);
  the better-ranked team hosts the second leg (:func:`leagues.rules.ties.leg_hosts`).
- Staff overrides: any slot can be set by hand (``overrides``, e.g. after abandonments,
  §1.2.2), a tie can be awarded by the tribunal (``awards``, §III.2) and a third match's
  home chosen (``third_match_homes``).
- Relegation (:func:`relegation`): the last two of Primera A; with abandonments the staff
  list is required (at least one team, §1.2.2). Next season (:func:`next_divisions`): up go
  the Primera B champion, the promotion-final winner and every Primera B team winning its
  Liguilla tie; down go the relegated teams, every Primera A team losing its Liguilla tie
  and suspended Primera A teams (§III.4); expelled teams leave both divisions.
"""

from __future__ import annotations

from leagues.rules.bracket_engine import (
    SOURCE_KINDS,
    BracketSpec,
    FilledBracket,
    SlotView,
    Source,
    Standing,
    TieSpec,
    TieView,
    better_of,
    drawn_knockout,
    fill_bracket,
    loser,
    position,
    seeded_knockout,
    team,
    winner,
    worse_of,
)
from leagues.rules.presets.anfpes_t24 import (
    LIGUILLA_TIES,
    STAGES,
    Move,
    NextDivisions,
    Relegation,
    league_post_season,
    liguilla,
    next_divisions,
    post_season_zones,
    primera_a_playoffs,
    primera_b_promotion,
    relegation,
)
from leagues.rules.texts import RANKING_NAMES

# Re-exported: importers use this module.
__all__ = [
    "LIGUILLA_TIES",
    "RANKING_NAMES",
    "SOURCE_KINDS",
    "STAGES",
    "BracketSpec",
    "FilledBracket",
    "Move",
    "NextDivisions",
    "Relegation",
    "SlotView",
    "Source",
    "Standing",
    "TieSpec",
    "TieView",
    "better_of",
    "drawn_knockout",
    "fill_bracket",
    "league_post_season",
    "liguilla",
    "loser",
    "next_divisions",
    "position",
    "post_season_zones",
    "primera_a_playoffs",
    "primera_b_promotion",
    "relegation",
    "seeded_knockout",
    "team",
    "winner",
    "worse_of",
]
