"""Staff decisions on a bracket (issue 5): a slot set by hand (:func:`set_bracket_slot`),
a tie awarded by the tribunal (:func:`award_tie`), a third match's host
(:func:`set_third_match_home`), the Final Four switch (:func:`set_final_four`) and the
relegation list (:func:`set_relegation`). Each is permission-checked, needs a reason, is
audited, stored as :class:`leagues.models.StaffDecision` rows and read back by kind
(:mod:`leagues.staff_decisions`) by :func:`leagues.brackets.competition_bracket`. ANFPES T24 §1.1.4–§1.1.6, §V ¶3, §2.2.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text
from leagues import labels, staff_decisions
from leagues.access import LeaguePermission, require
from leagues.brackets import (
    _A_SPEC,
    PRIMERA_A,
    PRIMERA_B,
    _ids,
    _problems,
    competition_bracket,
    division_of,
    known_spec,
    paused_ties,
)
from leagues.models import (
    Competition,
    Entry,
    Match,
    ResultReport,
    Season,
    TiePause,
)
from leagues.rules import brackets as bracket_rules
from leagues.rules.errors import LeagueRuleError
from leagues.staff_decisions import Kind

__all__ = [
    "RELEGATION_PLACES",
    "award_tie",
    "pause_tie",
    "set_bracket_slot",
    "set_final_four",
    "set_relegation",
    "set_third_match_home",
]


def set_final_four(competition, actor, *, final_four: bool, reason: str):
    """League staff switch the Final Four of Primera A's playoffs on or off (ANFPES T24
    §1.1.6: "el Honorable Staff se reserva el derecho de poder prescindir de la
    modalidad"): only the scheduling changes, the semi-finals stay home and away. Only on
    a knockout holding Primera A's semi-finals, before they are played (``UserError``
    otherwise, nothing saved). ``REVIEW_RESULTS``; audited (``league.final_four_set``)."""

    if not isinstance(final_four, bool):
        raise UserError(_("Choose on or off."))

    def change(comp, doc):
        semis = [t for t in doc["ties"] if t["stage"] == "a_semi_finals"]
        if not semis:
            raise UserError(_("This bracket has no Primera A semi-finals."))
        if (
            comp.matches.filter(tie__in=[t["id"] for t in semis])
            .exclude(status=Match.Status.SCHEDULED)
            .exists()
        ):
            raise UserError(_("The semi-finals are being played already."))
        staff_decisions.decide(comp, Kind.FINAL_FOUR, bool(final_four), by=actor)
        return {"final_four": bool(final_four)}

    return _choose(
        competition,
        actor,
        LeaguePermission.REVIEW_RESULTS,
        "league.final_four_set",
        reason,
        change,
    )


# --------------------------------------------------------------------------- staff overrides
def _choose(competition: Competition, actor, permission, action: str, reason: str, change):
    """Run ``change(competition, doc)`` under a lock on the competition (its bracket
    document ``doc`` fresh; it stores its decision rows), then audit ``action`` with the
    reason. ``change`` returns the audit's ``after`` and raises ``UserError``; the audit's
    ``before`` holds the same kinds as they were stored (:func:`leagues.staff_decisions.
    stored`)."""

    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        require(actor, competition.season, permission)
        if not reason:
            raise UserError(_("Give the reason for the decision."), field="reason")
        if competition.kind != Competition.Kind.KNOCKOUT:
            raise UserError(_("Only a knockout has a bracket."))
        before = {kind: staff_decisions.stored(competition, kind) for kind in Kind.values}
        after = change(competition, competition_bracket(competition))
        audit(
            None,
            actor,
            action,
            f"{competition.season.slug}/{competition.slug}",
            before={k: before.get(k) for k in after},
            after=after,
            comment=reason,
        )
    return competition


def _tie_of(doc: dict, tie_id: str) -> dict:

    for tie in doc["ties"]:
        if tie["id"] == tie_id:
            return tie
    raise UserError(_("No tie %(tie)s in this bracket.") % {"tie": tie_id})


def _tie_team(tie: dict, team: str) -> str:

    pair = [slot["team"] for slot in tie["slots"]]
    if None in pair:
        raise UserError(_("Both teams of %(tie)s must be known first.") % {"tie": tie["id"]})
    if team not in pair:
        raise UserError(_("Choose one of the two teams of %(tie)s.") % {"tie": tie["id"]})
    return team


def _slot_candidates(competition: Competition, doc: dict) -> set[str]:
    """The teams a slot of ``competition``'s bracket can hold when set by hand: a league
    post-season — the teams of the divisions feeding it (Primera A for its playoffs, both
    divisions for Primera B's post-season and its Liguilla, ANFPES T24 §1.1–§1.3); a cup
    knockout created in the app — the teams of the rankings seeding it (the group
    positions it is drawn from: a Conference Lag team is not a Champagne League knockout
    team, §2.2); any other knockout — its entries and the teams of its matches."""

    cup = staff_decisions.cup_setup(competition)
    if cup is not None:
        return {code for order in cup.get("standings", {}).values() for code in order}
    tie_ids = {t["id"] for t in doc["ties"]}
    if known_spec(tie_ids) is not None:
        divisions = (
            {PRIMERA_A} if tie_ids <= {t.id for t in _A_SPEC.ties} else {PRIMERA_A, PRIMERA_B}
        )
        leagues = [
            c
            for c in competition.season.competitions.filter(kind=Competition.Kind.LEAGUE)
            if division_of(c) in divisions
        ]
        return set(
            Entry.objects.filter(competition__in=leagues).values_list("team__code", flat=True)
        )
    return set(competition.entries.values_list("team__code", flat=True)) | set(doc["teams"])


def set_bracket_slot(competition, actor, *, tie: str, side: str, team: str, reason: str):
    """League staff set a slot by hand (e.g. after abandonments, ANFPES T24 §1.2.2):
    ``side`` ``"first"``/``"second"``, ``team`` a team id of the season (blank: back to
    the slot's source). Only a tie without matches yet (its matches come when the stage
    before it is closed, with the team set here). Refused (``UserError``, nothing saved)
    for a team that does not play in this competition (:func:`_slot_candidates`) or that
    is already in another slot of the same stage (a team plays one tie per stage).
    ``REVIEW_RESULTS``; audited (``league.bracket_slot_set``)."""

    def change(comp, doc):
        found = _tie_of(doc, tie)
        if side not in ("first", "second"):
            raise UserError(_("Choose the first or the second slot."))
        if found["legs"] or comp.matches.filter(tie=tie).exists():
            raise UserError(
                _("%(tie)s has matches already: correct or void them instead.") % {"tie": tie}
            )
        if team:
            team_name = comp.season.teams.filter(code=team).values_list("name", flat=True).first()
            if team_name is None:
                raise UserError(_("Unknown team id: %(id)s.") % {"id": team})
            if team not in _slot_candidates(comp, doc):
                raise UserError(
                    _("%(team)s does not play in this competition.") % {"team": team_name}
                )
            for other in doc["ties"]:
                if other["stage"] != found["stage"]:
                    continue
                for other_side, slot in zip(("first", "second"), other["slots"], strict=True):
                    if (other["id"], other_side) != (tie, side) and slot["team"] == team:
                        raise UserError(
                            _(
                                "%(team)s already plays tie %(tie)s of the %(stage)s: a team "
                                "plays one tie per stage."
                            )
                            % {
                                "team": team_name,
                                "tie": other["id"],
                                "stage": labels.stage_label(other["stage"], other["stage"]),
                            }
                        )
            staff_decisions.decide(comp, Kind.SLOTS, team, key=f"{tie}.{side}", by=actor)
        else:
            staff_decisions.withdraw(comp, Kind.SLOTS, key=f"{tie}.{side}")
        return {"slots": staff_decisions.stored(comp, Kind.SLOTS) or {}}

    return _choose(
        competition,
        actor,
        LeaguePermission.REVIEW_RESULTS,
        "league.bracket_slot_set",
        reason,
        change,
    )


def award_tie(competition, actor, *, tie: str, team: str, reason: str):
    """The tribunal awards a tie to one of its teams (ANFPES T24 §III.2): the tie is
    decided (``decided_by`` ``"tribunal"``) whatever its legs; blank ``team`` withdraws
    the award. ``DECIDE_SANCTIONS``; audited (``league.tie_awarded``).

    The tie's legs still to play are not to be played any more: they become ``void``
    (no report form, out of the players' to-do and overdue queues), their open result
    reports are rejected, and their ids are kept (:func:`leagues.staff_decisions.
    award_voided`, and the audit); withdrawing the award puts those legs back to be played
    **[choice]**."""

    def change(comp, doc):
        found = _tie_of(doc, tie)
        awards = staff_decisions.awards(comp)
        voided = staff_decisions.award_voided(comp)
        rejected = []
        if team:
            awards[tie] = _tie_team(found, team)
            legs = list(
                comp.matches.select_for_update().filter(tie=tie, status=Match.Status.SCHEDULED)
            )
            open_reports = ResultReport.objects.filter(
                match__in=legs,
                status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
            )
            rejected = sorted(open_reports.values_list("pk", flat=True))
            open_reports.update(
                status=ResultReport.Status.REJECTED,
                resolution=_("The tribunal awarded the tie: this leg is not played."),
                resolved_by=actor,
                resolved_at=timezone.now(),
            )
            Match.objects.filter(pk__in=[m.pk for m in legs]).update(status=Match.Status.VOID)
            codes = sorted({*voided.get(tie, ()), *(m.code for m in legs)})
            staff_decisions.decide(comp, Kind.AWARDS, awards[tie], key=tie, by=actor)
            if codes:
                voided[tie] = codes
                staff_decisions.decide(comp, Kind.AWARD_VOIDED, codes, key=tie, by=actor)
        else:
            # The next tie was drawn with the awarded team: withdrawing would leave it
            # there while this tie is replayed (as set_bracket_slot, refused).
            fed = [
                other["id"]
                for other in doc["ties"]
                if other.get("legs")
                and any((s.get("source") or {}).get("ref") == tie for s in other["slots"])
            ]
            if tie in awards and fed:
                raise UserError(
                    _(
                        "%(next)s was drawn with the awarded team and has matches: correct "
                        "or void them before withdrawing the award."
                    )
                    % {"next": ", ".join(fed)}
                )
            awards.pop(tie, None)
            codes = voided.pop(tie, [])
            staff_decisions.withdraw(comp, Kind.AWARDS, key=tie)
            staff_decisions.withdraw(comp, Kind.AWARD_VOIDED, key=tie)
            comp.matches.filter(code__in=codes, status=Match.Status.VOID).update(
                status=Match.Status.SCHEDULED
            )
        after = {"awards": awards, "award_voided": voided}
        if team and rejected:  # the audit names the players' reports it closed
            after["reports_rejected"] = rejected
        return after

    return _choose(
        competition, actor, LeaguePermission.DECIDE_SANCTIONS, "league.tie_awarded", reason, change
    )


def pause_tie(competition, actor, *, tie: str, paused: bool, reason: str):
    """Pause a knockout tie pending the tribunal's decision (a suspended footballer was
    fielded, ANFPES T24 §1.4 ¶3 and §III: "quedarán automáticamente suspendidos"): while
    paused, closing its stage is refused (:func:`leagues.phases.advance_stage`), so no
    third match and no next tie is created from it, and the bracket shows it paused.

    ``paused=True``: league staff (``REVIEW_RESULTS``); refused (``UserError``, nothing
    saved) for an unknown tie, one without matches, one already paused, or one whose
    next tie already has its matches. ``paused=False``: the tribunal (``DECIDE_SANCTIONS``), refused when the tie is
    not paused. Needs a reason; audited (``league.tie_paused`` / ``league.tie_unpaused``)
    with the competition's paused ties after it (``{"paused": [tie ids]}``). docs/leagues.md "Staff decisions on brackets"."""

    if not isinstance(paused, bool):
        raise UserError(_("Choose pause or unpause."))

    def change(comp, doc):
        found = _tie_of(doc, tie)
        held = TiePause.objects.select_for_update().filter(competition=comp, tie=tie)
        if paused:
            if not found["legs"]:
                raise UserError(
                    _("%(tie)s has no matches: only a tie being played can be paused.")
                    % {"tie": tie}
                )
            if held.exists():
                raise UserError(_("%(tie)s is paused already.") % {"tie": tie})
            fed = [
                other["id"]
                for other in doc["ties"]
                if other.get("legs")
                and any((s.get("source") or {}).get("ref") == tie for s in other["slots"])
            ]
            if fed:
                raise UserError(
                    _("%(next)s was created from %(tie)s already: too late to pause it.")
                    % {"next": ", ".join(fed), "tie": found["id"]}
                )
            TiePause.objects.create(competition=comp, tie=tie, reason=reason_text, paused_by=actor)
        elif not held.delete()[0]:
            raise UserError(_("%(tie)s is not paused.") % {"tie": tie})
        return {"paused": sorted(paused_ties(comp))}

    reason_text = check_free_text(reason, _("Reason"), field="reason").strip()
    if paused:
        return _choose(
            competition,
            actor,
            LeaguePermission.REVIEW_RESULTS,
            "league.tie_paused",
            reason,
            change,
        )
    return _choose(
        competition,
        actor,
        LeaguePermission.DECIDE_SANCTIONS,
        "league.tie_unpaused",
        reason,
        change,
    )


def set_third_match_home(competition, actor, *, tie: str, team: str, reason: str):
    """League staff choose the home side of a tie's third match (§V ¶3, §2.2: "staff can
    choose"): stored for the third match to come, or applied to a scheduled third match
    (home and away swapped). Refused once the third match is played. ``REVIEW_RESULTS``;
    audited (``league.third_home_set``)."""

    def change(comp, doc):
        found = _tie_of(doc, tie)
        _tie_team(found, team)
        if found["legs_required"] != 2:
            raise UserError(_("A one-match tie has no third match."))
        third = comp.matches.filter(tie=tie, leg=3).exclude(status=Match.Status.VOID).first()
        if third is not None:
            if third.status != Match.Status.SCHEDULED:
                raise UserError(_("The third match is played already."))
            if third.home.code != team:
                third.home, third.away = third.away, third.home
                third.save(update_fields=["home", "away"])
        staff_decisions.decide(comp, Kind.THIRD_HOMES, team, key=tie, by=actor)
        return {"third_homes": staff_decisions.third_match_hosts(comp)}

    return _choose(
        competition,
        actor,
        LeaguePermission.REVIEW_RESULTS,
        "league.third_home_set",
        reason,
        change,
    )


RELEGATION_PLACES = 2
"""Teams relegated directly from Primera A: the last two (ANFPES T24 §1.2.1)."""


def set_relegation(season: Season, actor, *, teams, reason: str) -> Competition:
    """League staff enter the teams relegated directly from Primera A when teams abandoned
    it (ANFPES T24 §1.2.2: "el Honorable Staff determinará …, contemplando siempre que
    existirá al menos un equipo descendido directamente"); stored on Primera A and used
    for next season's divisions (:func:`leagues.phases.season_next_divisions`). Blank clears it.

    Refused (``UserError``, nothing saved) unless a Primera A team abandoned (left the
    season: suspended or expelled) — otherwise §1.2.1 applies, the last two go down —
    and for a list of more than :data:`RELEGATION_PLACES` teams **[choice: staff may
    relegate fewer after abandonments, never more than the rule's two]**, an empty one, a
    team twice, a team not in Primera A or a team that left already.
    ``REVIEW_RESULTS``; audited (``league.relegation_set``)."""

    require(actor, season, LeaguePermission.REVIEW_RESULTS)
    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason for the decision."), field="reason")
    codes = _ids(teams)
    with transaction.atomic():
        primera_a = next(
            (
                c
                for c in season.competitions.select_for_update().order_by("position", "id")
                if division_of(c) == PRIMERA_A
            ),
            None,
        )
        if primera_a is None:
            raise UserError(_("This season has no Primera A."))
        if codes:
            members = dict(primera_a.entries.values_list("team__code", "team__status"))
            abandoned = [code for code, status in members.items() if status != "active"]
            if not abandoned:
                raise UserError(
                    _(
                        "No Primera A team abandoned the season: the 15th and the 16th go "
                        "down (ANFPES T24 §1.2.1). Staff decide only after abandonments "
                        "(§1.2.2)."
                    )
                )
            if len(codes) > RELEGATION_PLACES:
                raise UserError(
                    _(
                        "At most %(n)s teams are relegated directly (ANFPES T24 §1.2.1); "
                        "%(given)s given."
                    )
                    % {"n": RELEGATION_PLACES, "given": len(codes)}
                )
            gone = [code for code in codes if code in abandoned]
            if gone:
                raise UserError(
                    _(
                        "%(teams)s left Primera A already: list the teams relegated among "
                        "those still playing."
                    )
                    % {"teams": ", ".join(gone)}
                )
            try:
                bracket_rules.relegation(
                    bracket_rules.Standing(PRIMERA_A, tuple(members)), override=codes
                )
            except LeagueRuleError as exc:
                raise UserError(_problems(exc)) from None
        before = staff_decisions.stored(primera_a, Kind.RELEGATION)
        if codes:
            value = {"teams": codes, "reason": reason}
            staff_decisions.decide(primera_a, Kind.RELEGATION, value, by=actor)
        else:
            staff_decisions.withdraw(primera_a, Kind.RELEGATION)
        audit(
            None,
            actor,
            "league.relegation_set",
            f"{season.slug}/{primera_a.slug}",
            before={"relegation": before},
            after={"relegation": codes},
            comment=reason,
        )
    return primera_a
