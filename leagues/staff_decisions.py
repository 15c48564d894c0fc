"""Staff decisions on a competition's final phases, read and written by kind
(:class:`leagues.models.StaffDecision` rows: one per competition, kind and key, enforced
by the table's constraints; issue 13).

Each reader returns the shape its users need and reads the competition's rows once per
instance (one query, none with ``prefetch_related("staff_decisions")``); the writers
keep that read current. The pure rules (:mod:`leagues.rules`) take what the readers
return as plain inputs (``overrides``, ``awards``, ``third_match_homes``, the relegation
list, ``final_four``). Writers run inside the caller's transaction, with the competition
locked where two staff could decide at once. docs/leagues.md "Staff decisions on brackets";
ANFPES T24 §1.1.4–§1.1.6, §1.2.2, §III.2, §V ¶3, §2.2, §IV.1.
"""

from __future__ import annotations

from dataclasses import dataclass

from leagues.models import DECISIONS_CACHE, KEYED_DECISIONS, Competition, StaffDecision

Kind = StaffDecision.Kind

__all__ = [
    "Kind",
    "RelegationList",
    "award_voided",
    "awards",
    "compliance_rounds",
    "compliance_scope",
    "cup_groups",
    "cup_setup",
    "decide",
    "final_four",
    "is_cup",
    "knockouts",
    "relegation",
    "slots",
    "stored",
    "third_match_hosts",
    "withdraw",
]


def _held(competition: Competition) -> dict[tuple[str, str], object]:
    """``{(kind, key): value}`` of ``competition``'s rows, read once per instance."""
    held = competition.__dict__.get(DECISIONS_CACHE)
    if held is None:
        rows = competition.staff_decisions.all() if competition.pk is not None else ()
        held = {(row.kind, row.key): row.value for row in rows}
        competition.__dict__[DECISIONS_CACHE] = held
    return held


def _keyed(competition: Competition, kind: str) -> dict[str, object]:
    return {key: value for (k, key), value in _held(competition).items() if k == kind and key}


# --------------------------------------------------------------------------- readers
def slots(competition: Competition) -> dict[tuple[str, str], str]:
    """Slots set by hand: ``{(tie id, "first" | "second"): team id}`` (§1.2.2)."""
    found = {}
    for key, team in _keyed(competition, Kind.SLOTS).items():
        tie_id, _sep, side = key.rpartition(".")
        found[(tie_id, side)] = team
    return found


def awards(competition: Competition) -> dict[str, str]:
    """Ties the tribunal awarded: ``{tie id: team id}`` (§III.2)."""
    return dict(_keyed(competition, Kind.AWARDS))


def award_voided(competition: Competition) -> dict[str, list[str]]:
    """The legs an award voided: ``{tie id: [match ids]}`` (back to be played when the
    award is withdrawn)."""
    return {tie: list(codes) for tie, codes in _keyed(competition, Kind.AWARD_VOIDED).items()}


def third_match_hosts(competition: Competition) -> dict[str, str]:
    """Chosen hosts of third matches: ``{tie id: team id}`` (§V ¶3, §2.2)."""
    return dict(_keyed(competition, Kind.THIRD_HOMES))


def final_four(competition: Competition) -> bool:
    """Whether Primera A's semi-finals are a Final Four on one day (§1.1.4); on unless
    staff switched it off (§1.1.6)."""
    return _held(competition).get((Kind.FINAL_FOUR, "")) is not False


@dataclass(frozen=True)
class RelegationList:
    """The teams staff relegate directly from Primera A after abandonments (§1.2.2):
    ``teams`` (ids) and the ``reason`` they gave."""

    teams: tuple[str, ...]
    reason: str


def relegation(competition: Competition) -> RelegationList | None:
    """The staff relegation list stored on Primera A, ``None`` when there is none."""
    value = _held(competition).get((Kind.RELEGATION, ""))
    if not isinstance(value, dict) or not value.get("teams"):
        return None
    return RelegationList(tuple(value["teams"]), value.get("reason", ""))


def cup_setup(competition: Competition) -> dict | None:
    """The stored setup of a cup knockout created in the app (the bracket specification
    and the seeding rankings: ``{"spec"?, "prefix", "top"/"bottom"/"ties" or
    "ranking"/"entrants", "legs", "standings": {code: [team ids]}}``), else ``None``."""
    value = _held(competition).get((Kind.CUP, ""))
    return value if isinstance(value, dict) else None


def is_cup(competition: Competition) -> bool:
    """Whether ``competition`` is a cup knockout created in the app (any stored setup)."""
    return bool(_held(competition).get((Kind.CUP, "")))


def knockouts(competition: Competition) -> list[str]:
    """The slugs of the knockouts a closed group stage created (empty while open)."""
    return list(_held(competition).get((Kind.KNOCKOUTS, "")) or [])


def cup_groups(competition: Competition) -> str | None:
    """Which cup a group stage is (``"nucommunity"``), ``None`` for the Champagne League."""
    return _held(competition).get((Kind.CUP_GROUPS, "")) or None


def compliance_rounds(competition: Competition) -> list[int] | None:
    """The only rounds of ``competition`` that count for the compliance table (§IV.1),
    ``None`` when every round counts."""
    return list(_held(competition).get((Kind.COMPLIANCE_ROUNDS, "")) or []) or None


def compliance_scope(season, slugs) -> tuple[set[str], dict[str, list[int]]]:
    """For the competitions ``slugs`` of ``season``, in one query (none without slugs):
    the cup knockouts created in the app (their slugs) and the rounds that alone count
    for the compliance table (``{slug: [rounds]}``, only where staff limited them,
    ANFPES T24 §IV.1)."""
    cups: set[str] = set()
    counted: dict[str, list[int]] = {}
    if not slugs:
        return cups, counted
    for slug, kind, value in StaffDecision.objects.filter(
        competition__season=season,
        competition__slug__in=list(slugs),
        kind__in=[Kind.CUP, Kind.COMPLIANCE_ROUNDS],
    ).values_list("competition__slug", "kind", "value"):
        if kind == Kind.CUP and value:
            cups.add(slug)
        elif kind == Kind.COMPLIANCE_ROUNDS and value:
            counted[slug] = list(value)
    return cups, counted


def stored(competition: Competition, kind: str):
    """A kind's decisions as stored, for the audit log: ``{key: value}`` for the keyed
    kinds, the value for the others; ``None`` when there is none."""
    if kind in KEYED_DECISIONS:
        return _keyed(competition, kind) or None
    return _held(competition).get((kind, ""))


# --------------------------------------------------------------------------- writers
def decide(competition: Competition, kind: str, value, *, key: str = "", by=None) -> None:
    """Store one decision (``kind``, ``key``: a tie slot ``"<tie>.<side>"`` or a tie id
    for the keyed kinds, "" otherwise) as ``value``, replacing the one held; ``by`` decided
    it. ``value`` must not be ``None`` (:func:`withdraw` removes a decision)."""
    StaffDecision.objects.update_or_create(
        competition=competition,
        kind=kind,
        key=key,
        defaults={"value": value, "decided_by": by},
    )
    _held(competition)[(kind, key)] = value


def withdraw(competition: Competition, kind: str, *, key: str = "") -> None:
    """Remove one decision (nothing happens when there is none)."""
    StaffDecision.objects.filter(competition=competition, kind=kind, key=key).delete()
    _held(competition).pop((kind, key), None)
