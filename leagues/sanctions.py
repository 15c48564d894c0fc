"""League sanctions and the season calendar: the services of the league staff and the
tribunal (ANFPES T24 §III; docs/leagues.md "Staff and tribunal pages").

- :func:`record_walkover` — one team absent (§III.1) or refusing to play (§III.2).
- :func:`tribunal_decision` — both teams absent (§III.1, last paragraph): the tribunal's
  free entry of a result and of deductions.
- :func:`void_match` — the tribunal annuls a fixture.
- :func:`abandon_team` — a team abandons the season (§III.4).
- :func:`add_adjustment` — a points-ledger entry (docs/leagues.md "Staff and tribunal pages").
- :func:`move_deadlines` — staff move a matchday's or a fixture's deadlines (§IV.4 ¶3).
- :func:`record_incident` — the tribunal records a §V incident (snow, disconnection, five
  players sent off) and its outcome (:func:`leagues.rules.match_rules.incident_outcome`).
- The broadcast requirement (§1.4 ¶5–¶6: must-stream fixtures, replaying a match played
  without its link, adding the link) is in :mod:`leagues.broadcast`.

Like :mod:`leagues.services`, these are ORM adapters around the pure rules of
:mod:`leagues.rules.table`: each one checks the actor's permission itself
(:func:`leagues.access.require`, ``PermissionDenied`` otherwise), validates everything
before writing (a :class:`events.errors.UserError` with a translated message, nothing
saved), then changes the rows it locked (``select_for_update``) in one transaction and
writes the audit log (``events.AuditLog``, no event, target
``<season>/<competition>/<match id>``).

Choices (**[choice]**) where the rules are silent are listed in ``docs/leagues.md``; each is
repeated in the docstring that applies it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from events.limits import FREE_TEXT_MAX_LENGTH, check_date_window, check_free_text
from events.models import AuditLog
from leagues.access import LeaguePermission, require
from leagues.adapters import rule_match_of
from leagues.models import (
    Adjustment,
    Competition,
    Entry,
    Match,
    ResultReport,
    Team,
)
from leagues.phases import ensure_regular_phase_open, final_four_started
from leagues.rules import match_rules
from leagues.rules import table as table_rules
from leagues.rules.errors import LeagueRuleError
from leagues.rules.fixtures import Deadlines
from leagues.rules.scores import MAX_GOALS

__all__ = [
    "INCIDENT_ACTION",
    "MAX_ADJUSTMENT",
    "WALKOVER_DEDUCTION",
    "RecordedIncident",
    "abandon_team",
    "add_adjustment",
    "match_target",
    "move_deadlines",
    "prior_snow_offences",
    "record_incident",
    "record_walkover",
    "tribunal_decision",
    "void_match",
]

WALKOVER_DEDUCTION = 3
"""Points off the absent (or refusing) team's total: ANFPES T24 §III.1–§III.2."""

MAX_ADJUSTMENT = 99
"""Largest ledger entry, either sign (a typing-error guard) **[choice]**."""

OPEN_REPORT = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)


# --------------------------------------------------------------------------- helpers
def match_target(match: Match) -> str:
    """The audit-log target of a match: ``<season>/<competition>/<match id>``."""
    competition = match.competition
    return f"{competition.season.slug}/{competition.slug}/{match.code}"


def _state(match: Match) -> dict:
    """What a sanction changes on a match, for the audit log."""
    return {
        "status": match.status,
        "absent": match.absent,
        "home_goals": match.home_goals,
        "away_goals": match.away_goals,
        "reported_at": match.reported_at.isoformat() if match.reported_at else None,
    }


def _locked_match(match: Match) -> Match:
    """``match`` read again under a row lock, with the caller's competition and teams."""
    locked = Match.objects.select_for_update().get(pk=match.pk)
    locked.competition = match.competition
    locked.home = match.home if match.home_id == locked.home_id else locked.home
    locked.away = match.away if match.away_id == locked.away_id else locked.away
    return locked


def _check_scheduled(match: Match) -> None:
    """A sanction replaces the result of a fixture still to play, and never races an open
    result report: staff resolve or reject the report first."""
    if match.status != Match.Status.SCHEDULED:
        raise UserError(
            _("Match %(code)s is not waiting to be played (it is %(status)s).")
            % {"code": match.code, "status": match.get_status_display().lower()}
        )
    if match.reports.filter(status__in=OPEN_REPORT).exists():
        raise UserError(
            _("Match %(code)s has an open result report: resolve the open report first.")
            % {"code": match.code}
        )


def _reason(reason: str, *, required: bool) -> str:
    """The tribunal's or staff's reason, stripped; ``UserError`` when missing and
    ``required``, or over ``events.limits.FREE_TEXT_MAX_LENGTH`` characters."""
    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    if required and not reason:
        raise UserError(_("Give a reason."), field="reason")
    return reason


def _int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(_("%(name)s must be a whole number.") % {"name": name})
    return value


def _regular_phase_open(competition: Competition) -> None:
    """Refuse a change to a league whose regular phase is closed
    (:func:`leagues.phases.ensure_regular_phase_open`)."""

    ensure_regular_phase_open(competition)


def is_final_phase_leg(match: Match) -> bool:
    """Whether ``match`` is a leg of a final phase (a ``knockout`` competition: playoffs,
    promotion ties, the Liguilla, a cup's knockout): its walkover is the tribunal's
    decision (ANFPES T24 §III.2), not staff's (issue 14)."""
    return match.competition.kind == Competition.Kind.KNOCKOUT


def _counts_in_a_table(competition: Competition) -> bool:
    """Knockouts have no table, so no ledger **[choice]**."""
    return competition.kind != Competition.Kind.KNOCKOUT


# --------------------------------------------------------------------------- walkovers
def record_walkover(
    match: Match,
    actor,
    absent: str,
    *,
    refusal: bool = False,
    reason: str = "",
    at: datetime | None = None,
) -> Match:
    """Record a walkover: ``absent`` (``"home"`` or ``"away"``) did not play the fixture
    (ANFPES T24 §III.1), or, with ``refusal``, refused to play it (§III.2, and a voluntary
    restart, §III.3).

    The match becomes ``walkover`` with that side absent and no score (the table counts it
    1–0 for the team that showed up, :func:`leagues.rules.table.counted_score`);
    ``reported_at`` = ``at`` or now. The absent team gets a ``−3`` ledger entry with the
    reason ``"walkover <match id>"`` (:func:`leagues.rules.table.walkover_adjustments`) —
    ``"refusal <match id>"`` for a refusal: a refusal is recorded as a walkover against
    the refusing team **[choice]**. Knockout competitions have no table, so no ledger entry
    there **[choice]**.

    Permissions: ``RECORD_WALKOVERS`` (staff, tribunal) for a walkover; ``DECIDE_SANCTIONS``
    (tribunal) for a refusal and for any walkover on a final-phase leg
    (:func:`is_final_phase_leg`: §III.2, "con resultado a criterio del Tribunal si es
    alguna llave de definición"), which also need a ``reason``. Raises ``UserError`` when the
    match is not ``scheduled``, has an open (pending or disputed) result report, when a
    plain walkover is recorded before the fixture's final deadline (§III.1: "habiéndose
    cumplido el plazo"; a refusal can be recorded at any time) **[choice]**, for a bad
    ``absent`` or a naive ``at``. Returns the updated match.
    """
    competition = match.competition
    season = competition.season
    tribunal = refusal or is_final_phase_leg(match)
    require(
        actor,
        season,
        LeaguePermission.DECIDE_SANCTIONS if tribunal else LeaguePermission.RECORD_WALKOVERS,
    )
    if absent not in (Match.Absent.HOME, Match.Absent.AWAY):
        raise UserError(_("Choose the team that did not play."), field="absent")
    reason = _reason(reason, required=tribunal)
    if at is not None and (not isinstance(at, datetime) or timezone.is_naive(at)):
        raise UserError(_("Give the time with its time zone."))
    now = timezone.now()
    with transaction.atomic():
        _regular_phase_open(competition)
        locked = _locked_match(match)
        _check_scheduled(locked)
        if not refusal and locked.final_deadline and now <= locked.final_deadline:
            raise UserError(
                _(
                    "The final deadline of match %(code)s has not passed yet: a walkover is "
                    "recorded once it has (a refusal to play can be recorded at any time)."
                )
                % {"code": locked.code}
            )
        before = _state(locked)
        updated = replace(rule_match_of(locked), status="walkover", absent=absent)
        locked.status = Match.Status.WALKOVER
        locked.absent = absent
        locked.home_goals = locked.away_goals = None
        locked.reported_at = at or now
        locked.save(update_fields=["status", "absent", "home_goals", "away_goals", "reported_at"])
        entries = []
        if _counts_in_a_table(competition):
            for entry in table_rules.walkover_adjustments([updated], WALKOVER_DEDUCTION):
                team = locked.home if entry.team == locked.home.code else locked.away
                text = entry.reason
                if refusal:
                    text = f"refusal {locked.code}"
                entries.append(
                    Adjustment.objects.create(
                        competition=competition,
                        team=team,
                        points=entry.points,
                        reason=text,
                        created_by=_user(actor),
                    )
                )
        audit(
            None,
            actor,
            "league.refusal_recorded" if refusal else "league.walkover_recorded",
            target=match_target(locked),
            before=before,
            after={
                **_state(locked),
                "adjustments": [
                    {"team": a.team.code, "points": a.points, "reason": a.reason} for a in entries
                ],
            },
            comment=reason,
        )
    return locked


def tribunal_decision(
    match: Match,
    actor,
    *,
    home_goals: int | None = None,
    away_goals: int | None = None,
    deductions: Mapping[Team, int] | None = None,
    reason: str,
) -> Match:
    """Both teams absent (ANFPES T24 §III.1, last paragraph: "la sanción quedará a criterio
    del Tribunal"): the match becomes a ``walkover`` with ``absent="both"`` and the
    tribunal's score, if any (give both goals or neither; without one the table counts a
    loss for both, **[choice]** of :mod:`leagues.rules.table`), and each non-zero value of
    ``deductions`` (``{Team: points ≤ 0}``, one of the match's two teams, at least −99)
    becomes a ledger entry with reason ``"tribunal <match id>: <reason>"``.

    Permission ``DECIDE_SANCTIONS``. Raises ``UserError`` (nothing saved) for a match that
    is not ``scheduled`` or has an open result report, a missing ``reason``, one goal
    without the other, goals outside 0–30 (:data:`leagues.rules.scores.MAX_GOALS`), a
    deduction for another team or above 0.
    Deductions in a knockout are refused (no table) **[choice]**. Returns the match.
    """
    competition = match.competition
    season = competition.season
    require(actor, season, LeaguePermission.DECIDE_SANCTIONS)
    reason = _reason(reason, required=True)
    # The ledger stores "tribunal <match>: <reason>" (Adjustment.reason): the prefix
    # counts towards the free-text limit.
    check_free_text(
        reason,
        _("Reason"),
        limit=FREE_TEXT_MAX_LENGTH - len(f"tribunal {match.code}: "),
        field="reason",
    )
    if (home_goals is None) != (away_goals is None):
        raise UserError(_("Give both goals or neither."))
    if home_goals is not None:
        for value in (home_goals, away_goals):
            if _int(value, _("Goals")) < 0 or value > MAX_GOALS:
                raise UserError(_("Goals must be between 0 and %(max)d.") % {"max": MAX_GOALS})
    deductions = dict(deductions or {})
    teams = {match.home_id: match.home, match.away_id: match.away}
    for team, points in deductions.items():
        if getattr(team, "pk", None) not in teams:
            raise UserError(_("A deduction can only apply to one of the match's two teams."))
        if _int(points, _("Points")) > 0 or points < -MAX_ADJUSTMENT:
            raise UserError(
                _("A deduction must be between −%(max)d and 0 points.") % {"max": MAX_ADJUSTMENT}
            )
    deductions = {teams[t.pk]: p for t, p in deductions.items() if p}
    if deductions and not _counts_in_a_table(competition):
        raise UserError(_("A knockout has no table: it takes no points deductions."))
    with transaction.atomic():
        _regular_phase_open(competition)
        locked = _locked_match(match)
        _check_scheduled(locked)
        before = _state(locked)
        locked.status = Match.Status.WALKOVER
        locked.absent = Match.Absent.BOTH
        locked.home_goals, locked.away_goals = home_goals, away_goals
        locked.reported_at = timezone.now()
        locked.save(update_fields=["status", "absent", "home_goals", "away_goals", "reported_at"])
        entries = [
            Adjustment.objects.create(
                competition=competition,
                team=team,
                points=points,
                reason=f"tribunal {locked.code}: {reason}",
                created_by=_user(actor),
            )
            for team, points in deductions.items()
        ]
        audit(
            None,
            actor,
            "league.tribunal_decision",
            target=match_target(locked),
            before=before,
            after={
                **_state(locked),
                "adjustments": [{"team": a.team.code, "points": a.points} for a in entries],
            },
            comment=reason,
        )
    return locked


def void_match(match: Match, actor, reason: str) -> Match:
    """Annul a fixture (status ``void``: the table ignores it). Permission
    ``DECIDE_SANCTIONS``; ``reason`` required.

    A ``scheduled`` fixture (without an open result report) or a ``played`` one (the
    tribunal annuls a result, e.g. after a voluntary restart, §III.3 — the score is kept
    for the record) **[choice]**. A walkover is refused: its ledger entries would stay, so
    the tribunal corrects it with ledger entries instead. Raises ``UserError``.
    """
    season = match.competition.season
    require(actor, season, LeaguePermission.DECIDE_SANCTIONS)
    reason = _reason(reason, required=True)
    with transaction.atomic():
        _regular_phase_open(match.competition)
        locked = _locked_match(match)
        if locked.status != Match.Status.PLAYED:
            _check_scheduled(locked)
        before = _state(locked)
        locked.status = Match.Status.VOID
        locked.save(update_fields=["status"])
        audit(
            None,
            actor,
            "league.match_voided",
            target=match_target(locked),
            before=before,
            after=_state(locked),
            comment=reason,
        )
    return locked


# --------------------------------------------------------------------------- abandonment
def abandon_team(team: Team, actor, *, standing: str, award: bool, reason: str) -> dict:
    """A team abandons the season (ANFPES T24 §III.4): the tribunal suspends it until next
    season or expels it (``standing``: ``"suspended"`` or ``"expelled"``), and its
    remaining (``scheduled``) fixtures in every competition of the season are annulled or,
    with ``award``, become walkovers with the team absent and a ``−3`` ledger entry each
    (``"walkover <match id>"``), by :func:`leagues.rules.table.abandonment`; the tribunal
    chooses **[choice]**. Played fixtures stay. Knockouts get no ledger entries.

    Permission ``DECIDE_SANCTIONS``; ``reason`` required. Raises ``UserError`` (nothing
    saved) for an unknown standing, a team that already has it, or an open result report
    on one of its remaining fixtures. Returns ``{"voided": [...], "awarded": [...],
    "adjustments": n}`` with ``<competition>/<match id>`` strings.
    """
    season = team.season
    require(actor, season, LeaguePermission.DECIDE_SANCTIONS)
    if standing not in ("suspended", "expelled"):
        raise UserError(_("Choose suspended or expelled."), field="standing")
    reason = _reason(reason, required=True)
    now = timezone.now()
    with transaction.atomic():
        locked_team = Team.objects.select_for_update().get(pk=team.pk)
        if locked_team.status == standing:
            raise UserError(
                _("%(team)s is already %(standing)s.")
                % {"team": locked_team.name, "standing": locked_team.get_status_display()}
            )
        matches = list(
            Match.objects.select_for_update()
            .filter(competition__season=season, status=Match.Status.SCHEDULED)
            .filter(Q(home=team) | Q(away=team))
            .order_by("competition_id", "round", "id")
        )
        open_reports = sorted(
            ResultReport.objects.filter(match__in=matches, status__in=OPEN_REPORT).values_list(
                "match__code", flat=True
            )
        )
        if open_reports:
            raise UserError(
                _("Resolve the open result reports first: %(matches)s.")
                % {"matches": ", ".join(open_reports)}
            )
        competitions = {c.pk: c for c in Competition.objects.filter(season=season)}
        codes = dict(Team.objects.filter(season=season).values_list("pk", "code"))
        by_competition: dict[int, list[Match]] = {}
        for m in matches:
            by_competition.setdefault(m.competition_id, []).append(m)
        voided, awarded, created = [], [], 0
        for competition_id, rows in by_competition.items():
            competition = competitions[competition_id]
            rule_rows = [rule_match_of(m, codes=codes) for m in rows]
            updated, entries = table_rules.abandonment(
                rule_rows, team.code, award=award, deduction=WALKOVER_DEDUCTION
            )
            for m, new in zip(rows, updated, strict=True):
                if new.status == m.status:
                    continue
                m.status = new.status
                m.absent = new.absent or ""
                if new.status == Match.Status.WALKOVER:
                    m.reported_at = now
                    awarded.append(f"{competition.slug}/{m.code}")
                else:
                    voided.append(f"{competition.slug}/{m.code}")
                m.save(update_fields=["status", "absent", "reported_at"])
            if _counts_in_a_table(competition):
                Adjustment.objects.bulk_create(
                    [
                        Adjustment(
                            competition=competition,
                            team=team,
                            points=entry.points,
                            reason=entry.reason,
                            created_by=_user(actor),
                        )
                        for entry in entries
                    ]
                )
                created += len(entries)
        before = {"status": locked_team.status}
        locked_team.status = standing
        locked_team.save(update_fields=["status"])
        team.status = standing
        result = {"voided": voided, "awarded": awarded, "adjustments": created}
        audit(
            None,
            actor,
            "league.team_abandoned",
            target=f"{season.slug}/teams/{team.code}",
            before=before,
            after={"status": standing, "award": award, **result},
            comment=reason,
        )
    return result


# --------------------------------------------------------------------------- ledger
def add_adjustment(
    competition: Competition,
    team: Team,
    points: int,
    reason: str,
    actor,
    *,
    client_id: uuid.UUID | None = None,
) -> Adjustment:
    """Add an entry to ``competition``'s points ledger (docs/leagues.md "Staff and tribunal pages"):
    ``points``, a non-zero whole number from −99 to 99, for ``team``, which must take part in the
    competition, with a ``reason``. The ledger is never edited nor deleted: a mistake is
    corrected by another entry. Permission ``DECIDE_SANCTIONS``. Raises ``UserError``.

    Idempotent by ``client_id`` (the tribunal form's submission id, unique on the entry,
    issue 12): the same form sent twice — a double click, two simultaneous requests —
    returns the entry already saved with ``already_saved = True`` and adds nothing (no
    second entry, no second audit row); a new entry has ``already_saved = False``."""
    season = competition.season
    require(actor, season, LeaguePermission.DECIDE_SANCTIONS)
    if client_id is not None:
        existing = _saved_adjustment(competition, client_id)
        if existing is not None:
            return existing
    points = _int(points, _("Points"))
    if points == 0 or abs(points) > MAX_ADJUSTMENT:
        raise UserError(
            _("Points must be a whole number from −%(max)d to %(max)d, not 0.")
            % {"max": MAX_ADJUSTMENT},
            field="points",
        )
    reason = _reason(reason, required=True)
    if competition.kind == Competition.Kind.KNOCKOUT:
        raise UserError(_("A knockout has no table: it takes no points adjustments."))
    try:
        with transaction.atomic():
            _regular_phase_open(competition)
            Competition.objects.select_for_update().filter(pk=competition.pk).first()
            if client_id is not None:
                # A simultaneous copy of the form may have been saved while we waited.
                existing = _saved_adjustment(competition, client_id)
                if existing is not None:
                    return existing
            if not Entry.objects.filter(competition=competition, team=team).exists():
                raise UserError(
                    _("%(team)s does not take part in %(competition)s.")
                    % {"team": team.name, "competition": competition.name},
                    field="team",
                )
            entry = Adjustment.objects.create(
                competition=competition,
                team=team,
                points=points,
                reason=reason,
                created_by=_user(actor),
                client_id=client_id,
            )
            audit(
                None,
                actor,
                "league.adjustment_added",
                target=f"{season.slug}/{competition.slug}",
                after={"team": team.code, "points": points, "reason": reason},
            )
    except IntegrityError:
        existing = _saved_adjustment(competition, client_id) if client_id else None
        if existing is None:
            raise
        return existing
    entry.already_saved = False
    return entry


def _saved_adjustment(competition: Competition, client_id: uuid.UUID) -> Adjustment | None:
    """The entry already saved with ``client_id`` (``already_saved = True``); a
    ``UserError`` when that id belongs to another competition's ledger."""
    existing = Adjustment.objects.filter(client_id=client_id).first()
    if existing is None:
        return None
    if existing.competition_id != competition.pk:
        raise UserError(_("This form was already used for another ledger: open the page again."))
    existing.already_saved = True
    return existing


# --------------------------------------------------------------------------- deadlines
def move_deadlines(
    competition: Competition,
    actor,
    *,
    initial: datetime,
    final: datetime,
    round: int | None = None,  # noqa: A002 - the matchday, as in the season file
    match: Match | None = None,
    reason: str = "",
) -> int:
    """Move both deadlines of a matchday (``round``: every fixture of it, whatever its
    status) or of one fixture (``match``) of ``competition`` (docs/leagues.md
    "Staff and tribunal pages": staff can move both; ANFPES T24 §IV.4 ¶3). ``initial`` and ``final``
    are timezone-aware, final not before initial (:class:`leagues.rules.fixtures.Deadlines`).

    Permission ``MANAGE_CALENDAR``. Raises ``UserError`` unless exactly one of ``round`` /
    ``match`` is given, for a matchday without fixtures, a match of another competition,
    naive date-times or final < initial. The audit entry keeps every fixture's deadlines
    before. Returns the number of fixtures given those deadlines; when they all had them
    already (the same form sent twice) nothing is written, not even an audit entry
    (issue 12).
    """
    season = competition.season
    require(actor, season, LeaguePermission.MANAGE_CALENDAR)
    if (round is None) == (match is None):
        raise UserError(_("Choose a matchday or a fixture."))
    for value in (initial, final):
        if not isinstance(value, datetime) or timezone.is_naive(value):
            raise UserError(_("Give both deadlines, with a date and a time."))
        check_date_window(value)
    try:
        Deadlines(initial, final)
    except LeagueRuleError:
        raise UserError(_("The final deadline cannot be before the initial deadline.")) from None
    reason = _reason(reason, required=False)
    with transaction.atomic():
        rows = Match.objects.select_for_update().filter(competition=competition)
        if match is not None:
            if match.competition_id != competition.pk:
                raise UserError(_("That fixture is not in this competition."))
            rows = rows.filter(pk=match.pk)
            where = f"{season.slug}/{competition.slug}/{match.code}"
        else:
            round = _int(round, _("Matchday"))
            rows = rows.filter(round=round)
            where = f"{season.slug}/{competition.slug}/matchday {round}"
        rows = list(rows.order_by("id"))
        if not rows:
            raise UserError(_("Matchday %(n)s has no fixtures.") % {"n": round})
        before = {
            m.code: [
                m.initial_deadline.isoformat() if m.initial_deadline else None,
                m.final_deadline.isoformat() if m.final_deadline else None,
            ]
            for m in rows
        }
        if all(m.initial_deadline == initial and m.final_deadline == final for m in rows):
            return len(rows)  # already so (a form sent twice): no change, no audit entry
        if final_four_started(competition, [m.code for m in rows]):
            raise UserError(
                _(
                    "The Final Four has started: its matches cannot be rescheduled "
                    "(ANFPES T24 §1.1.4)."
                )
            )
        Match.objects.filter(pk__in=[m.pk for m in rows]).update(
            initial_deadline=initial, final_deadline=final
        )
        if match is not None:
            match.initial_deadline, match.final_deadline = initial, final
        audit(
            None,
            actor,
            "league.deadlines_moved",
            target=where,
            before=before,
            after={"initial": initial.isoformat(), "final": final.isoformat()},
            comment=reason,
        )
    return len(rows)


# --------------------------------------------------------------------------- §V incidents
INCIDENT_ACTION = "league.incident_recorded"
"""Audit action of :func:`record_incident`; its ``after`` carries ``incident``, ``home`` and
``away`` (team ids), read back by :func:`prior_snow_offences`."""

PERIODS = ("first_half", "second_half", "extra_time")
AGREEMENTS = ("continue", "final")
REPLAY_SUFFIX = "-r"


@dataclass(frozen=True)
class RecordedIncident:
    """What :func:`record_incident` did: the match as saved, the rules' outcome
    (:class:`leagues.rules.match_rules.IncidentOutcome`) and the new fixture of a replay
    (``None`` otherwise)."""

    match: Match
    outcome: match_rules.IncidentOutcome
    replay: Match | None = None


def prior_snow_offences(match: Match) -> int:
    """Snow incidents recorded earlier this season (any competition) with the same home
    team against the same away team as ``match`` — each team is one user for the season,
    so "the same home user against the same opponent" (ANFPES T24 §V ¶2). Read from the
    audit log of :func:`record_incident` **[choice]**: an incident is a tribunal record,
    not a match field. One query."""
    season = match.competition.season
    return AuditLog.objects.filter(
        action=INCIDENT_ACTION,
        target__startswith=f"{season.slug}/",
        after__incident="snow",
        after__home=match.home.code,
        after__away=match.away.code,
    ).count()


def _goal_pair(score, *, required: bool) -> tuple[int, int] | None:
    if score is None or score == (None, None):
        if required:
            raise UserError(_("Give the score at the moment of the incident."), field="score")
        return None
    if not isinstance(score, tuple | list) or len(score) != 2 or None in score:
        raise UserError(_("Give both goals of the score."), field="score")
    for value in score:
        if _int(value, _("Goals")) < 0 or value > MAX_GOALS:
            raise UserError(_("Goals must be between 0 and %(max)d.") % {"max": MAX_GOALS})
    return (score[0], score[1])


def _replay_code(locked: Match) -> str:
    """``<id>-r``; ``<id>-r2``, ``-r3``… when taken **[choice]**."""
    taken = set(
        Match.objects.filter(
            competition_id=locked.competition_id, code__startswith=locked.code + REPLAY_SUFFIX
        ).values_list("code", flat=True)
    )
    code, n = locked.code + REPLAY_SUFFIX, 1
    while code in taken:
        n += 1
        code = f"{locked.code}{REPLAY_SUFFIX}{n}"
    if len(code) > Match._meta.get_field("code").max_length:
        raise UserError(_("The replay's match id would be too long: annul and add it by hand."))
    return code


def record_incident(
    match: Match,
    actor,
    kind: str,
    *,
    reason: str,
    period: str | None = None,
    agreement: str | None = None,
    score: tuple[int, int] | None = None,
    reduced: str | None = None,
    at: datetime | None = None,
) -> RecordedIncident:
    """The tribunal records a §V incident of ``match`` and applies its outcome
    (:func:`leagues.rules.match_rules.incident_outcome`, which cites each paragraph):

    - ``kind="snow"`` (§V ¶2): the first time → **replay**; when the same home team already
      set snow against the same opponent this season (:func:`prior_snow_offences`) →
      **walkover 1–0 to the visitor**: status ``walkover``, home ``absent``, no score (as
      :func:`record_walkover`), but *no* −3 ledger entry — the text gives only the 1–0
      **[choice of the rules]**.
    - ``kind="disconnection"`` (§V ¶5–¶6): ``period`` ``first_half`` → **replay**;
      ``second_half`` or ``extra_time`` (knockouts only) with the players' ``agreement``
      ``"final"`` → the ``score`` at the disconnection is the result (``played``);
      ``"continue"`` → recorded only, the match stays ``scheduled`` and the remaining time
      is played later.
    - ``kind="five_reds"`` (§V ¶7): ``reduced`` (``home``/``away``) had five players sent
      off at ``score`` → 3–0 to the opponent, or the score when it was already at least 3
      goals wider for the opponent (``played``).

    A replay annuls the match (``void``; a score is kept for the record) and creates a new
    ``scheduled`` fixture ``<id>-r`` with the same teams, matchday, tie, leg, group,
    deadlines and broadcast requirement. An awarded result is posted at ``at`` (aware) or,
    for a match that already had one, keeps its posting time; otherwise now. Extra time
    and penalties are cleared (an extra-time disconnection marks ``extra_time`` true).

    The match must be ``scheduled`` or ``played`` (an incident found after the result was
    confirmed) **[choice]**; a "finish later" agreement needs a ``scheduled`` match.
    Permission ``DECIDE_SANCTIONS`` (the tribunal) **[choice]**; ``reason`` required.
    Raises ``UserError`` (nothing saved) for an unknown kind, period, agreement or side, a
    missing or bad score, a match with an open result report or in another status.
    Audited ``league.incident_recorded``. Returns a :class:`RecordedIncident`.
    """
    competition = match.competition
    season = competition.season
    require(actor, season, LeaguePermission.DECIDE_SANCTIONS)
    if kind not in match_rules.INCIDENTS:
        raise UserError(_("Choose the incident: snow, disconnection or five sent off."))
    reason = _reason(reason, required=True)
    details: dict = {}
    if kind == "disconnection":
        if period not in PERIODS:
            raise UserError(_("Choose when the disconnection happened."), field="period")
        if period == "extra_time" and competition.kind != Competition.Kind.KNOCKOUT:
            raise UserError(_("Only a knockout match has extra time."), field="period")
        details["period"] = period
        if period != "first_half":
            if agreement not in AGREEMENTS:
                raise UserError(
                    _("Choose what the players agreed: finish later or keep the score."),
                    field="agreement",
                )
            details["agreement"] = agreement
            details["score"] = _goal_pair(score, required=True)
    elif kind == "five_reds":
        if reduced not in (Match.Absent.HOME, Match.Absent.AWAY):
            raise UserError(_("Choose the team left with five sent off."), field="reduced")
        details["reduced"] = reduced
        details["score"] = _goal_pair(score, required=True)
    if at is not None and (not isinstance(at, datetime) or timezone.is_naive(at)):
        raise UserError(_("Give the time with its time zone."))
    now = timezone.now()
    with transaction.atomic():
        _regular_phase_open(competition)
        locked = _locked_match(match)
        if locked.status not in (Match.Status.SCHEDULED, Match.Status.PLAYED):
            raise UserError(
                _("Match %(code)s has no incident to record (it is %(status)s).")
                % {"code": locked.code, "status": locked.get_status_display().lower()}
            )
        if locked.reports.filter(status__in=OPEN_REPORT).exists():
            raise UserError(
                _("Match %(code)s has an open result report: resolve the open report first.")
                % {"code": locked.code}
            )
        prior = prior_snow_offences(locked) if kind == "snow" else 0
        try:
            outcome = match_rules.incident_outcome(kind, prior_snow_offences=prior, **details)
        except LeagueRuleError as exc:  # pragma: no cover - validated above
            raise UserError(str(exc)) from None
        before = {**_state(locked), "must_stream": locked.must_stream}
        replay = None
        fields = ["status", "absent", "home_goals", "away_goals", "reported_at"]
        if outcome.action == "replay":
            locked.status = Match.Status.VOID
            locked.save(update_fields=["status"])
            replay = Match.objects.create(
                competition=competition,
                code=_replay_code(locked),
                round=locked.round,
                home=locked.home,
                away=locked.away,
                status=Match.Status.SCHEDULED,
                initial_deadline=locked.initial_deadline,
                final_deadline=locked.final_deadline,
                must_stream=locked.must_stream,
                tie=locked.tie,
                leg=locked.leg,
                group=locked.group,
            )
        elif outcome.action == "continue_later":
            if locked.status != Match.Status.SCHEDULED:
                raise UserError(
                    _(
                        "Match %(code)s already has a result: the players can no longer "
                        "finish it later. Keep the score as final, or annul it."
                    )
                    % {"code": locked.code}
                )
        else:
            if outcome.action == "walkover":
                locked.status = Match.Status.WALKOVER
                locked.absent = Match.Absent.HOME
                locked.home_goals = locked.away_goals = None
            else:  # awarded, score_stands
                locked.status = Match.Status.PLAYED
                locked.absent = ""
                locked.home_goals, locked.away_goals = outcome.score
            locked.extra_time = True if period == "extra_time" else None
            locked.penalties_home = locked.penalties_away = None
            locked.reported_at = at or locked.reported_at or now
            locked.save(update_fields=[*fields, "extra_time", "penalties_home", "penalties_away"])
        audit(
            None,
            actor,
            INCIDENT_ACTION,
            target=match_target(locked),
            before=before,
            after={
                **_state(locked),
                "incident": kind,
                "home": locked.home.code,
                "away": locked.away.code,
                "details": {k: list(v) if isinstance(v, tuple) else v for k, v in details.items()},
                "prior_snow_offences": prior if kind == "snow" else None,
                "outcome": outcome.as_dict(),
                "replay": replay.code if replay else None,
            },
            comment=reason,
        )
    return RecordedIncident(locked, outcome, replay)


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None
