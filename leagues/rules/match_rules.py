"""Match-level rules of ANFPES T24 §1.4 (broadcast) and §V (official settings, incidents).

Sources: ANFPES T24 §1.4 ¶5–¶6 (final-phase matches of both leagues must be streamed on
YouTube; one that is not "no será válido y contará como amistoso para todos los efectos";
regular phase optional unless a title or a relegation is at stake), §2.2 last ¶ (cup final
phases: streaming encouraged, not required), §III.3 (restarts allowed only for a missing
broadcast, host/server failure or force majeure), §V (snow forbidden; disconnections;
five players sent off); docs/leagues-final-phases.md "Broadcast and incidents".

Shapes: a match is a :class:`~leagues.rules.season.Match` or alike (``stream_url``,
``status``, ``home``, ``away``); scores are ``(home, away)`` tuples of ``int >= 0``.
Errors: :class:`~leagues.rules.errors.LeagueRuleError` for an unknown stage or incident
kind, or a missing/ill-formed argument.

**[choice]** points (the text is silent or ambiguous):

- Stage kinds for the broadcast rule (:data:`BROADCAST`): ``regular_phase`` (optional;
  staff may set ``must_stream`` on a fixture, and then a missing link makes it a friendly
  too — the text says the broadcast paragraph applies "no enteramente", we apply its
  consequence to the fixtures staff marked), ``league_final_phase`` (required),
  ``cup_group_stage`` and ``cup_knockout`` (encouraged only: always counts).
- A stream link is any non-blank ``stream_url``; whether it is really YouTube and was live
  is for staff to check (they void the match by hand otherwise).
- Snow (§V ¶2): the first snow match is replayed; a *repeat* — the same user as home
  choosing snow again against the same opponent (earlier offences counted within the
  season, any competition) — is a 1–0 walkover to the visitor. The text gives only the
  1–0; no ledger deduction is proposed (§III.1's three points are for no-shows).
- Disconnection (§V ¶5–¶6): first half → replay the whole match (the text "insta", urges;
  we return ``replay``); second half or extra time → the parties agree to keep the score and
  finish the remaining time later (``continue_later``) or to keep the score as final
  (``score_stands``); without a recorded agreement the outcome is ``agreement_required``.
- Five sent off (§V ¶7): the match stops and the opponent wins 3–0, unless the on-pitch
  score was already at least as wide for the opponent — a margin of 3 or more (so 4–0 and
  4–1 stand, 2–0 and 3–1 become 3–0). "Mayor a 3-0" is read as the goal margin; with
  an equal margin the real score stands (it has at least as many goals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from leagues.rules.errors import LeagueRuleError
from leagues.rules.texts import ordinal  # re-exported: English ordinals live with the texts

__all__ = [
    "BROADCAST",
    "INCIDENTS",
    "RESTART_REASONS",
    "IncidentOutcome",
    "counts",
    "has_stream",
    "incident_outcome",
    "ordinal",
]

BROADCAST = {
    "regular_phase": "optional",
    "league_final_phase": "required",
    "cup_group_stage": "encouraged",
    "cup_knockout": "encouraged",
}
"""Stage kind → broadcast rule (ANFPES T24 §1.4 ¶5–¶6, §2.2; docs/leagues-final-phases.md
"Broadcast and incidents")."""

INCIDENTS = {
    "snow": "Match played in snow (ANFPES T24 §V ¶2).",
    "disconnection": "Disconnection during the match (ANFPES T24 §V ¶5–¶6).",
    "five_reds": "A team reduced by five red cards (ANFPES T24 §V ¶7).",
}
"""Stable incident codes → description."""

RESTART_REASONS = ("no_broadcast", "host_failure", "force_majeure")
"""The only reasons a match may be restarted (ANFPES T24 §III.3); any other voluntary
restart counts as refusing to play (§III.2)."""


def has_stream(match: Any) -> bool:
    """Whether ``match`` carries a stream link (a non-blank ``stream_url``)."""
    url = getattr(match, "stream_url", None)
    return isinstance(url, str) and bool(url.strip())


def counts(match: Any, stage: str, *, must_stream: bool = False) -> bool:
    """Whether a played ``match`` of a stage of kind ``stage`` (:data:`BROADCAST`) counts.

    A league final-phase match without a stream link is not valid: it is a friendly "para
    todos los efectos" and returns ``False`` (ANFPES T24 §1.4 ¶5). In the regular phase it
    counts unless staff marked the fixture ``must_stream`` (§1.4 ¶6, **[choice]**, module
    docstring); cup phases always count (§2.2: encouraged only). A ``void`` match never
    counts. Raises :class:`LeagueRuleError` for an unknown stage kind.
    """
    if stage not in BROADCAST:
        raise LeagueRuleError(f"unknown stage kind {stage!r}: use one of {', '.join(BROADCAST)}")
    if getattr(match, "status", "played") == "void":
        return False
    required = BROADCAST[stage] == "required" or (stage == "regular_phase" and must_stream)
    return has_stream(match) or not required


@dataclass(frozen=True, slots=True)
class IncidentOutcome:
    """What §V gives for an incident.

    - ``action``: ``replay`` (play the whole match again), ``walkover`` (the result is
      awarded: ``score``), ``awarded`` (five sent off: the awarded ``score``),
      ``score_stands`` (the on-pitch ``score`` is final), ``continue_later`` (keep
      ``score`` and play the remaining time later), ``agreement_required`` (the parties
      must agree and record it).
    - ``score``: ``(home, away)`` goals, or ``None`` when the match is replayed or pending.
    - ``source``: the section applied; ``explanation``: one English sentence.
    """

    incident: str
    action: str
    score: tuple[int, int] | None
    source: str
    explanation: str

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "incident": self.incident,
            "action": self.action,
            "score": list(self.score) if self.score is not None else None,
            "source": self.source,
            "explanation": self.explanation,
        }


def _score(value: Any, name: str) -> tuple[int, int]:
    if (
        not isinstance(value, tuple | list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise LeagueRuleError(f"{name} must be a (home, away) pair of integers >= 0")
    return (value[0], value[1])


def incident_outcome(
    incident: str,
    *,
    prior_snow_offences: int = 0,
    period: str | None = None,
    agreement: str | None = None,
    score: tuple[int, int] | None = None,
    reduced: str | None = None,
) -> IncidentOutcome:
    """The outcome §V gives for ``incident`` (:data:`INCIDENTS`); module docstring for the
    **[choice]** points.

    - ``snow``: ``prior_snow_offences`` = earlier snow matches set by the same home user
      against the same opponent this season. 0 → ``replay``; ≥ 1 → ``walkover`` 1–0 to the
      visitor (§V ¶2).
    - ``disconnection``: ``period`` ``"first_half"`` → ``replay``; ``"second_half"`` or
      ``"extra_time"`` → by ``agreement`` ``"continue"`` (``continue_later``, ``score``
      kept) or ``"final"`` (``score_stands``); no agreement → ``agreement_required``
      (§V ¶5–¶6). ``score`` is the score at the disconnection (needed unless first half).
    - ``five_reds``: ``reduced`` = ``"home"`` or ``"away"``, the team left with five sent
      off; ``score`` at that moment. 3–0 to the opponent unless the score was already at
      least 3 goals wider for it (§V ¶7).

    Raises :class:`LeagueRuleError` for an unknown incident, period, agreement or side, or a
    missing/ill-formed score.
    """
    if incident == "snow":
        if not isinstance(prior_snow_offences, int) or prior_snow_offences < 0:
            raise LeagueRuleError("prior_snow_offences must be an integer >= 0")
        if prior_snow_offences == 0:
            return IncidentOutcome(
                incident,
                "replay",
                None,
                "ANFPES T24 §V ¶2",
                "Snow is forbidden: the match must be replayed.",
            )
        return IncidentOutcome(
            incident,
            "walkover",
            (0, 1),
            "ANFPES T24 §V ¶2",
            "Snow again by the same home user against the same opponent: walkover, "
            "1–0 to the visitor.",
        )
    if incident == "disconnection":
        if period == "first_half":
            return IncidentOutcome(
                incident,
                "replay",
                None,
                "ANFPES T24 §V ¶5",
                "Disconnection in the first half: the whole match is replayed.",
            )
        if period not in ("second_half", "extra_time"):
            raise LeagueRuleError("period must be first_half, second_half or extra_time")
        kept = _score(score, "score")
        if agreement is None:
            return IncidentOutcome(
                incident,
                "agreement_required",
                kept,
                "ANFPES T24 §V ¶6",
                "Disconnection after the first half: the score is kept; the players must "
                "agree to finish later or keep it as final, and record it.",
            )
        if agreement == "continue":
            return IncidentOutcome(
                incident,
                "continue_later",
                kept,
                "ANFPES T24 §V ¶6",
                "Score kept; the remaining time is played later, as agreed.",
            )
        if agreement == "final":
            return IncidentOutcome(
                incident,
                "score_stands",
                kept,
                "ANFPES T24 §V ¶6",
                "Score kept as the final result, as agreed.",
            )
        raise LeagueRuleError("agreement must be continue, final or None")
    if incident == "five_reds":
        if reduced not in ("home", "away"):
            raise LeagueRuleError("reduced must be home or away")
        home, away = _score(score, "score")
        opponent, offender = (away, home) if reduced == "home" else (home, away)
        if opponent - offender >= 3:
            return IncidentOutcome(
                incident,
                "score_stands",
                (home, away),
                "ANFPES T24 §V ¶7",
                "Five sent off, but the score was already at least 3–0 wide for the "
                "opponent: the on-pitch score stands.",
            )
        return IncidentOutcome(
            incident,
            "awarded",
            (0, 3) if reduced == "home" else (3, 0),
            "ANFPES T24 §V ¶7",
            "Five sent off: the match stops and the opponent wins 3–0.",
        )
    raise LeagueRuleError(f"unknown incident {incident!r}: use one of {', '.join(INCIDENTS)}")
