"""Penalties adapter: the only code that turns the judges' guide engine
(``penalties.vekn_guide``) into database changes, and the standings adjustments the
standings engine applies. Each change runs in one transaction with the person's
registration row locked (so two judges cannot count the same offence twice) and is
written to the audit log.
"""

from __future__ import annotations

import sys
import uuid
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import rulesets, signals
from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from events.models import Event, Person, Registration, Round, Seat, Table
from events.people import find_or_create_person
from events.permissions import Permission as P
from penalties import lifecycle
from penalties import vekn_guide as guide
from penalties.authority import confirmed_hold
from penalties.models import (
    Appeal,
    DisqualificationReport,
    Level,
    Penalty,
    Timing,
)

RULESET = guide.VEKN_V2
COMMON_CODES = ("3.3", "2.1", "2.3", "2.2", "3.6", "3.8", "4.1", "3.7", "3.1.1", "2.4")
"""Infractions listed first on the judge's tablet (the everyday ones)."""


def catalogue() -> list[guide.Infraction]:
    """The ruleset's infractions, the common ones first then guide order."""
    items = list(RULESET.catalogue.values())
    order = {code: i for i, code in enumerate(COMMON_CODES)}
    return sorted(items, key=lambda inf: (order.get(inf.code, len(order)), _code_key(inf.code)))


def _code_key(code: str) -> tuple[int, ...]:
    return tuple(int(x) for x in code.split("."))


def infraction(code: str) -> guide.Infraction:
    """The infraction ``code``; ``UserError`` if unknown."""
    try:
        return RULESET.infraction(code)
    except guide.UnknownInfraction:
        raise UserError(_("Unknown infraction “%(c)s”.") % {"c": code}) from None


# --------------------------------------------------------------------------- history
VEKN_LEVELS = tuple(str(level) for level in guide.Level)
"""The levels a VEKN penalty can have (JG §1.1): caution, warning, standings adjustment,
disqualification — never a Mitos y Leyendas one (``myl_services.MYL_LEVELS``)."""


def level_choices() -> list[tuple[str, str]]:
    """``(code, label)`` of the VEKN levels, lightest first, for a head judge's level list
    (a deviation, the penalty page's "Change"): only this ruleset's levels (JG §1.1)."""
    return [(value, label) for value, label in Level.choices if value in VEKN_LEVELS]


def _prior(p: Penalty) -> guide.PriorPenalty:
    return guide.PriorPenalty(p.infraction, p.level, linked=p.is_linked)


def event_history(
    event: Event, person: Person, *, before: Penalty | None = None
) -> list[guide.PriorPenalty]:
    """The person's earlier VEKN penalties in this event, oldest first (voided ones
    excluded). Only VEKN penalties are ever the engine's input: a person who plays Mitos y
    Leyendas too carries that game's penalties (levels and section numbers the guide does
    not know), context at most (:func:`other_ruleset_penalties`;
    docs/rules-vekn-penalties.md)."""
    qs = lifecycle.event_penalties(event, person, RULESET.code)
    if before is not None:
        qs = (
            qs.filter(created_at__lte=before.created_at)
            .exclude(pk=before.pk)
            .filter(pk__lt=before.pk)
        )
    return [_prior(p) for p in qs]


def earlier_events(event: Event, person: Person) -> list[Penalty]:
    """The person's recorded VEKN penalties (warning and above) of other events held before
    this one — context for the judge, never a ladder step (JG §1.2.1). Another ruleset's
    penalties are not among them (:func:`other_ruleset_penalties`)."""
    return lifecycle.earlier_events(event, person, RULESET.code, without=(Level.CAUTION,))


def other_ruleset_penalties(event: Event, person: Person, ruleset: str | None = None) -> dict:
    """How many penalties ``person`` has under the **other** rulesets than ``ruleset``
    (this module's, VEKN, by default; the MyL code for a Mitos y Leyendas page), in events
    held up to ``event``'s date, voided, linked ones and cautions left out: ``{ruleset
    code: count}``, e.g. ``{<MyL code>: 2}``; ``{}`` when none. One query. Context for the
    judge only ("also has 2 Mitos y Leyendas penalties"): never input to an escalation
    (``penalties.lifecycle.other_ruleset_penalties``)."""
    return lifecycle.other_ruleset_penalties(event, person, ruleset or RULESET.code)


def _as_assessment(p: Penalty) -> guide.Assessment:
    """A stored penalty as the engine's ``Assessment`` (for linking, JG §1.2.6)."""
    return guide.Assessment(
        level=guide.Level(p.level),
        offence=p.offence,
        baseline=guide.Level(p.baseline),
        explanation=p.explanation,
        source=p.source,
        infraction=p.infraction,
    )


def preview(
    event: Event,
    registration: Registration,
    code: str,
    conditions: dict,
    linked_to: Penalty | None = None,
) -> guide.Assessment:
    """What the guide gives for this person's next offence of ``code`` now (nothing saved).
    ``linked_to``: an earlier penalty of the same person caused by the same error (JG
    §1.2.6): only the more severe counts. Raises ``UserError`` for an unknown code or a
    missing/invalid condition answer."""
    infraction(code)
    history = [
        _prior(p)
        for p in lifecycle.event_penalties(event, registration.person, RULESET.code).exclude(
            pk=linked_to.pk if linked_to else None
        )
    ]
    try:
        return guide.assess(
            RULESET,
            code,
            conditions,
            history,
            [_prior(p) for p in earlier_events(event, registration.person)],
            linked_to=_as_assessment(linked_to) if linked_to else None,
        )
    except guide.ConditionError as exc:
        raise UserError(str(exc)) from None


def assessment_fields(a: guide.Assessment) -> dict:
    """The ``Penalty`` fields that record what the engine gave (level given, the guide's
    level, offence number, baseline, explanation, source, context, what comes with it).
    The one mapping from ``vekn_guide.Assessment`` to a stored penalty."""
    return {
        "is_linked": a.linked,
        "guide_level": str(a.guide_level or a.level),
        "level": str(a.level),
        "offence": a.offence,
        "baseline": str(a.baseline),
        "explanation": a.explanation,
        "source": a.source,
        "context": list(a.context),
        "also": list(a.also),
    }


def _own_adapter(obj):
    """The penalties adapter of ``obj``'s ruleset when it has its own (MyL:
    ``penalties.myl_services``, named in ``events.rulesets``); ``None`` for the VEKN
    judges' guide, which is this module."""
    adapter = rulesets.of(obj).adapter("penalties")
    return None if adapter is sys.modules[__name__] else adapter


def apply_effects(p: Penalty) -> None:
    """Public name of the effects of a confirmed penalty on the registration (DQ, JG §1.1.4;
    Mitos y Leyendas penalties: ``penalties.myl_services``)."""
    if own := _own_adapter(p):
        own.apply_effects(p)
        return
    _apply_effects(p)


# --------------------------------------------------------------------------- logging
Logged = lifecycle.Logged
DuplicateOffence = lifecycle.DuplicateOffence
recent_duplicate = lifecycle.recent_duplicate
refuse_duplicate = lifecycle.refuse_duplicate
offline_times = lifecycle.offline_times
state_token = lifecycle.state_token
"""Shared with the MyL adapter (``penalties.lifecycle``), kept here under their names for
the pages and files that read them from the VEKN adapter."""


def _needs_head_judge(level: str, inf: guide.Infraction, perms) -> bool:
    """SA and DQ stay pending until the head judge confirms (JG §1.2.2); a floor judge may
    confirm a clear decklist error (3.1.1, 3.1.2) **[choice]**."""
    if level not in (Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION):
        return False
    if P.CONFIRM_PENALTIES in perms:
        return False
    return not (inf.floor_judge_may_confirm and level == Level.STANDINGS_ADJUSTMENT)


def log_penalty(
    event: Event,
    registration: Registration,
    code: str,
    conditions: dict,
    *,
    client_id: uuid.UUID,
    actor=None,
    perms: frozenset,
    table: Table | None = None,
    round: Round | None = None,
    timing: str = Timing.DURING_GAME,
    level: str | None = None,
    deviation_reason: str = "",
    description: str = "",
    ethics_committee: bool = False,
    external_id: str = "",
    linked_to: Penalty | None = None,
    logged_at=None,
    again: bool = False,
) -> Logged:
    """Record one incident with the penalty the guide gives (JG §1.2; docs/rules-vekn-penalties.md).

    Idempotent: a second submission with the same ``client_id`` returns the saved penalty
    (``created=False``). ``level`` other than the guide's is a head-judge deviation and needs
    ``deviation_reason`` and the CONFIRM permission (``perms``: the caller's, no default).
    After the event's results are approved, only a fraud (4.8) referred to the ethics
    committee is accepted (JG §1.2.5). A standings adjustment or above on a non-competing
    person needs their VEKN number. Raises ``UserError``.

    ``logged_at``: when the judge logged it, for an incident entered offline and synced
    later (validated by the caller, ``events.offline.client_time``): it becomes the
    penalty's ``created_at`` and the audit entry records it with the sync time. The
    offence number is still counted when it arrives (``offline_times``).

    ``again``: the judge confirmed a new offence; without it an entry of the same code
    for the same person within minutes of an earlier one raises :class:`DuplicateOffence`
    (``penalties.duplicates``, run by ``penalties.lifecycle.lock_registration``).
    """
    if (replayed := lifecycle.replay(event, client_id)) is not None:
        return replayed
    inf = infraction(code)
    deviation_reason, description = lifecycle.clean_entry_texts(deviation_reason, description)
    lifecycle.check_timing(timing)
    if level and level not in VEKN_LEVELS:
        raise UserError(_("Unknown level."))

    def write() -> Penalty:
        nonlocal round
        reg, current = lifecycle.lock_registration(
            event, registration, code, client_id=client_id, logged_at=logged_at, again=again
        )
        if current.results_approved and not (code == "4.8" and ethics_committee):
            raise UserError(
                _(
                    "The event's results are approved: only a fraud case referred to the ethics committee can be added."
                )
            )
        if linked_to is not None and (
            linked_to.event_id != current.pk or linked_to.person_id != reg.person_id
        ):
            raise UserError(_("A linked infraction is the same person's, in this event."))
        assessment = preview(current, reg, code, conditions, linked_to)
        if level and level != assessment.level:
            if P.CONFIRM_PENALTIES not in perms:
                raise UserError(_("Only the head judge may give another penalty than the guide's."))
            if not deviation_reason:
                raise UserError(ENGINE.differs())
            assessment = guide.deviate(assessment, level, deviation_reason)
        given = str(assessment.level)
        if (
            not reg.competing
            and given in (Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION)
            and not reg.person.vekn_number
        ):
            raise UserError(_("A standings adjustment or above needs the person's VEKN number."))
        if round is None and table is not None:
            round = table.round
        status = (
            Penalty.Status.PENDING
            if _needs_head_judge(given, inf, perms)
            else Penalty.Status.CONFIRMED
        )
        penalty = Penalty.objects.create(
            event=current,
            registration=reg,
            person=reg.person,
            client_id=client_id,
            external_id=external_id,
            ruleset=RULESET.code,
            ruleset_version=RULESET.version,
            infraction=code,
            conditions=dict(conditions),
            round=round,
            round_number=round.number if round else None,
            table=table,
            timing=timing,
            linked_to=linked_to,
            **assessment_fields(assessment),
            deviation_reason=deviation_reason
            if given != str(assessment.guide_level or given)
            else "",
            description=description.strip(),
            ethics_committee=bool(ethics_committee or assessment.report_to_ethics_committee),
            status=status,
            **lifecycle.decided_by(actor, status),
        )
        if status == Penalty.Status.CONFIRMED:
            _apply_effects(penalty)
        if linked_to is not None and not assessment.linked:
            # The new infraction is the more severe: the earlier one becomes linked.
            Penalty.objects.filter(pk=linked_to.pk).update(is_linked=True)
            if linked_to.level == Level.DISQUALIFICATION:
                lifecycle.restore_registration(linked_to, ENGINE)
            audit(
                current,
                actor,
                "penalty.linked",
                lifecycle.audit_target(linked_to),
                after={"linked_to": penalty.pk},
                about=linked_to,
            )
        lifecycle.audit_logged(penalty, actor, logged_at, ENGINE)
        if linked_to is not None or shown_publicly(penalty):
            page_cache.invalidate(current)
        return penalty

    return lifecycle.log_once(client_id, write)


PUBLIC_LEVELS = (Level.STANDINGS_ADJUSTMENT, Level.GAME_LOSS, Level.DISQUALIFICATION)
"""The levels the public standings document lists (docs/contracts.md §2 **[choice]**): the
ones that change the standings. Cautions and warnings (both rulesets) and MyL suspensions
and bans (a sanction beyond the event, whose in-event effect is the disqualification) are
for the staff."""


def shown_publicly(p: Penalty) -> bool:
    """Whether ``p`` changes what the public pages and the public standings document show
    (confirmed, not linked, a level of :data:`PUBLIC_LEVELS`, docs/contracts.md §2): a
    caution, a warning or a penalty awaiting the head judge does not, so logging one keeps
    the event's cached public pages (a championship day's judges log many). A pending
    appeal (``public_penalties``) is not looked at here: a penalty just logged has none."""
    return p.status == Penalty.Status.CONFIRMED and p.level in PUBLIC_LEVELS and not p.is_linked


def public_penalties(event: Event):
    """The event's penalties an anonymous caller of the standings API sees
    (docs/contracts.md §2 **[choice]**): final ones that change the standings — confirmed
    (not awaiting the head judge), not linked, a level of :data:`PUBLIC_LEVELS`, and not
    under a pending appeal (``penalties.models.Appeal`` without a decision; MyL conduct
    rules §4.5). A queryset of ``Penalty``."""
    return Penalty.objects.filter(
        event=event,
        is_linked=False,
        status=Penalty.Status.CONFIRMED,
        level__in=PUBLIC_LEVELS,
    ).exclude(appeals__decision=Appeal.Decision.PENDING)


def _apply_effects(p: Penalty) -> None:
    """A confirmed disqualification removes the player from the event (JG §1.1.4); one
    during a game also takes their seat out of that table's sheet (:func:`_dq_seat`)."""
    if p.level == Level.DISQUALIFICATION and not p.is_linked:
        Registration.objects.filter(pk=p.registration_id).update(
            status=Registration.Status.DISQUALIFIED
        )
        seat = _dq_seat(p)
        if seat is not None and seat.vp is None:
            seat.mark_loss()


def _dq_seat(p: Penalty) -> Seat | None:
    """The seat of the game ``p`` (a disqualification) was given during, or ``None``
    (given between rounds, or no table known). JG §1.1.4 "Game State Adjustment": the
    game goes on as if the player had never been seated, so their seat is marked like a
    drop after seating (``Seat.mark_loss``, TR §3.1.4) and the sheet is checked without
    it (``events.services.table_check``)."""
    if p.timing != Timing.DURING_GAME or p.table_id is None:
        return None
    return Seat.objects.filter(table_id=p.table_id, registration_id=p.registration_id).first()


def _give_back_seat(p: Penalty) -> None:
    """A disqualification during a game voided or made lighter: the seat
    :func:`_apply_effects` took out comes back while the table's sheet is not written
    without it (``Seat.clear_loss``), unless the player is still kept out or dropped."""
    seat = _dq_seat(p)
    if seat is None or not seat.loss:
        return
    status = Registration.objects.filter(pk=p.registration_id).values_list("status", flat=True)
    if status.first() in (Registration.Status.CHECKED_IN, Registration.Status.REGISTERED):
        seat.clear_loss()


def _removes_player(p: Penalty) -> bool:
    """A VEKN penalty keeps the player out of the event when it is a disqualification
    (JG §1.1.4): a void or a lighter level gives them back their place."""
    return p.level == Level.DISQUALIFICATION


# --------------------------------------------------------------------------- head judge
def confirm(
    penalty: Penalty, actor=None, *, perms: frozenset, expected: str | None = None
) -> Penalty:
    """The head judge confirms a pending standings adjustment or disqualification (JG
    §1.2.2; ``penalties.lifecycle.confirm``): a DQ then removes the player. ``perms``: the
    caller's permissions in the event; ``PermissionDenied`` without ``confirm_penalties``."""
    if own := _own_adapter(penalty):
        return own.confirm(penalty, actor, perms=perms, expected=expected)
    lifecycle.require(perms, P.CONFIRM_PENALTIES)
    return lifecycle.confirm(
        penalty, actor, expected=expected, engine=ENGINE, effects=_apply_effects
    )


def change_level(
    penalty: Penalty,
    level: str,
    reason: str,
    actor=None,
    *,
    perms: frozenset,
    expected: str | None = None,
) -> Penalty:
    """A head-judge deviation after the fact: give ``level`` instead, with a reason
    (``penalties.lifecycle.change_level``; a DQ made lighter gives the player back their
    place and lifts an escalation's sanction). ``UserError`` as :func:`void` for a
    disqualification escalated by the national coordinator into a live sanction;
    ``PermissionDenied`` without ``confirm_penalties`` in ``perms``."""
    if own := _own_adapter(penalty):
        return own.change_level(penalty, level, reason, actor, perms=perms, expected=expected)
    lifecycle.require(perms, P.CONFIRM_PENALTIES)
    reason = lifecycle.clean_change(level, reason, ENGINE)
    if level != penalty.guide_level and not reason:
        raise UserError(ENGINE.differs())

    def apply(p: Penalty, was_dq: bool) -> None:
        p.save(update_fields=["level", "deviation_reason"])
        if was_dq and level != Level.DISQUALIFICATION:
            lifecycle.restore_registration(p, ENGINE)
            _give_back_seat(p)
            lifecycle.lift_sanctions(p, actor, reason or _("The penalty changed."))
        if p.status == Penalty.Status.CONFIRMED:
            _apply_effects(p)

    return lifecycle.change_level(
        penalty, level, reason, actor, expected=expected, engine=ENGINE, apply=apply, reassess=True
    )


def void(
    penalty: Penalty, reason: str, actor=None, *, perms: frozenset, expected: str | None = None
) -> Penalty:
    """Void a penalty with a reason (it stays in the history; ``penalties.lifecycle.void``).
    Later penalties of the same person in the event are reassessed (their offence numbers
    may drop) and a voided disqualification gives the player back their place. ``UserError``
    for a disqualification the national coordinator escalated into a live suspension or
    ban: only the authority lifts it (``penalties.authority.refuse_if_confirmed``; a
    superuser may, and the sanction is lifted with the penalty). ``PermissionDenied``
    without ``confirm_penalties`` in ``perms``."""
    if own := _own_adapter(penalty):
        return own.void(penalty, reason, actor, perms=perms, expected=expected)
    lifecycle.require(perms, P.CONFIRM_PENALTIES)
    with transaction.atomic():
        penalty = lifecycle.void(penalty, reason, actor, expected=expected, engine=ENGINE)
        if penalty.level == Level.DISQUALIFICATION:
            _give_back_seat(penalty)
    return penalty


def _reassess(event: Event, person: Person, actor, reason: str = "") -> None:
    """Recompute what the guide gives for each of the person's remaining penalties in the
    event, in order, after a void or change (``penalties.lifecycle.reassess``). A
    disqualification the national coordinator escalated stays as it is while its sanction
    is live **[choice]**."""

    def assess(p: Penalty, history: list, prior: list) -> guide.Assessment | None:
        try:
            return guide.assess(RULESET, p.infraction, p.conditions, history, prior)
        except (guide.ConditionError, guide.UnknownInfraction):
            return None

    def refresh(p: Penalty, a: guide.Assessment, deviated: bool, was_dq: bool) -> None:
        p.also = list(a.also)
        p.save()
        if was_dq and p.level != Level.DISQUALIFICATION:
            lifecycle.restore_registration(p, ENGINE)
            _give_back_seat(p)
        elif p.status == Penalty.Status.CONFIRMED:
            _apply_effects(p)

    lifecycle.reassess(
        event,
        person,
        actor,
        engine=ENGINE,
        prior=[_prior(p) for p in earlier_events(event, person)],
        as_prior=_prior,
        assess=assess,
        held=lambda p: p.level == Level.DISQUALIFICATION and confirmed_hold(p, actor) is not None,
        refresh=refresh,
    )


ENGINE = lifecycle.Engine(
    code=RULESET.code,
    levels=VEKN_LEVELS,
    removes_player=_removes_player,
    removing_levels=(Level.DISQUALIFICATION,),
    snapshot=lifecycle.snapshot,
    reassess=_reassess,
    differs=lambda: _("Say why the penalty differs from the guide's."),
)
"""What the shared lifecycle (``penalties.lifecycle``) needs to know of the judges' guide."""


def set_results_approved(event: Event, approved: bool, actor=None) -> None:
    """Approve (lock) or reopen the event's results (JG §1.2.5)."""
    with transaction.atomic():
        Event.objects.filter(pk=event.pk).update(results_approved=approved)
        audit(event, actor, "results.approve" if approved else "results.reopen", event.slug)
        page_cache.invalidate(event)
        # The VEKN link queues the results (docs/vekn-link.md), after the commit.
        signals.results_approved.send(sender=Event, event=event, approved=approved)


def write_dq_report(
    penalty: Penalty,
    *,
    what_happened: str,
    statements: str,
    witnesses: str,
    intentional: bool,
    actor=None,
):
    """Save the written report a disqualification needs (JG §1.1.4); an intentional DQ is
    referred to the ethics committee."""
    if penalty.level != Level.DISQUALIFICATION:
        raise UserError(_("Only a disqualification has a report."))
    what_happened, statements, witnesses = (
        check_free_text(value, field_label(DisqualificationReport, name), field=name)
        for name, value in (
            ("what_happened", what_happened),
            ("statements", statements),
            ("witnesses", witnesses),
        )
    )
    if not what_happened.strip():
        raise UserError(_("Describe what happened."))
    with transaction.atomic():
        report, _created = DisqualificationReport.objects.update_or_create(
            penalty=penalty,
            defaults={
                "what_happened": what_happened.strip(),
                "statements": statements.strip(),
                "witnesses": witnesses.strip(),
                "intentional": intentional,
                "written_by": actor if getattr(actor, "is_authenticated", False) else None,
            },
        )
        if intentional and not penalty.ethics_committee:
            Penalty.objects.filter(pk=penalty.pk).update(ethics_committee=True)
        audit(
            penalty.event,
            actor,
            "penalty.dq_report",
            lifecycle.audit_target(penalty),
            after={"intentional": intentional},
            about=penalty,
        )
    return report


def add_non_competing(event: Event, name: str, vekn_number: str, actor=None) -> Registration:
    """Register a spectator or staff member as non-competing, to receive a penalty
    (JG §1.2; docs/rules-vekn-penalties.md "Who decides")."""

    with transaction.atomic():
        person = find_or_create_person(name, vekn_number, organisation=event.organisation)
        reg = Registration.objects.filter(event=event, person=person).first()
        if reg:
            return reg
        existing = set(event.registrations.values_list("code", flat=True))
        n = len(existing) + 1
        while f"x{n}" in existing:
            n += 1
        reg = Registration.objects.create(
            event=event,
            person=person,
            code=f"x{n}",
            competing=False,
            status=Registration.Status.CHECKED_IN,
        )
        audit(event, actor, "player.non_competing", person.name, after={"code": reg.code})
    return reg


# --------------------------------------------------------------------------- standings
@dataclass(frozen=True)
class StandingsEffects:
    """What confirmed penalties change in the standings (JG §1.1.3, §1.1.4):
    ``adjustments``: ``{(registration id, round): total VP}`` (−1 per standings
    adjustment, on the game §1.1.3 says); ``dq_games``: ``{(registration id, round)}`` of
    games a player was disqualified during — the table's GW/TP are then computed as if
    that seat were last, i.e. among the remaining players **[choice]** (JG §1.1.4;
    docs/rules-vekn-penalties.md "Standings adjustments")."""

    adjustments: dict[tuple[int, int], Decimal]
    dq_games: frozenset[tuple[int, int]]


def standings_effects(event: Event, games: dict[int, list[int]]) -> StandingsEffects:
    """One query: the confirmed standings adjustments and mid-game disqualifications.
    ``games`` maps a registration id to the rounds it sat in."""
    return _effects(_effect_penalties().filter(event=event), games)


def standings_effects_many(
    games_by_event: dict[int, dict[int, list[int]]],
) -> dict[int, StandingsEffects]:
    """:func:`standings_effects` of many events at once, in one query: ``games_by_event``
    maps an event id to its ``games``; the result maps each event id to its effects."""
    by_event: dict[int, list[Penalty]] = {event_id: [] for event_id in games_by_event}
    for p in _effect_penalties().filter(event_id__in=list(games_by_event)):
        by_event[p.event_id].append(p)
    return {
        event_id: _effects(by_event[event_id], games) for event_id, games in games_by_event.items()
    }


def _effect_penalties():
    return Penalty.objects.filter(
        level__in=[Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION],
        status=Penalty.Status.CONFIRMED,
        is_linked=False,
    ).order_by("created_at", "id")


def _effects(penalties, games: dict[int, list[int]]) -> StandingsEffects:
    adjustments: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
    dq_games: set[tuple[int, int]] = set()
    for p in penalties:
        if p.level == Level.STANDINGS_ADJUSTMENT:
            target = adjustment_target(p, games.get(p.registration_id, []))
            if target.round is not None:
                adjustments[(p.registration_id, target.round)] += target.vp
        elif p.timing == Timing.DURING_GAME and p.round_number is not None:
            dq_games.add((p.registration_id, p.round_number))
    return StandingsEffects(dict(adjustments), frozenset(dq_games))


def vp_adjustments(event: Event, games: dict[int, list[int]]) -> dict[tuple[int, int], Decimal]:
    """−1 VP per confirmed standings adjustment (see ``standings_effects``)."""
    return standings_effects(event, games).adjustments


def adjustment_target(p: Penalty, games: list[int]) -> guide.AdjustmentTarget:
    timing = p.timing
    number = p.round_number
    if timing in (Timing.DURING_GAME, Timing.BETWEEN_ROUNDS) and number is None:
        timing = Timing.AFTER_LAST_GAME
    return guide.adjustment_target(guide.AdjustmentIssue(timing, number), games)


def preview_adjustment_target(
    event: Event, registration: Registration, table: Table | None, timing: str
):
    """Which game a standings adjustment logged now would hit (JG §1.1.3), for the preview."""
    games = list(
        Seat.objects.filter(round__event=event, registration=registration).values_list(
            "round__number", flat=True
        )
    )
    number = table.round.number if table is not None else (max(games) if games else None)
    if timing in (Timing.DURING_GAME, Timing.BETWEEN_ROUNDS) and number is None:
        timing = Timing.AFTER_LAST_GAME
    try:
        return guide.adjustment_target(guide.AdjustmentIssue(timing, number), games)
    except ValueError:
        return None


def penalties_document(
    event: Event, games: dict[int, list[int]], *, public: bool = False
) -> list[dict]:
    """The ``penalties`` of the standings document (docs/contracts.md §2), one query: every
    penalty but the voided and linked ones (staff, ``manage.py standings --json``), or with
    ``public`` only :func:`public_penalties` (anonymous callers). Same keys either way."""
    penalties = (
        public_penalties(event)
        if public
        else Penalty.objects.filter(event=event, is_linked=False).exclude(
            status=Penalty.Status.VOIDED
        )
    )
    rows = []
    for p in penalties.select_related("registration").order_by("created_at", "id"):
        adjustment = None
        if p.level == Level.STANDINGS_ADJUSTMENT:
            target = adjustment_target(p, games.get(p.registration_id, []))
            if target.round is not None:
                adjustment = {"round": target.round, "vp": float(target.vp)}
        rows.append(
            {
                "incident": p.external_id or f"i{p.pk}",
                "person": p.registration.code,
                "infraction": p.infraction,
                "level": p.level,
                "offence": p.offence,
                "vp_adjustment": adjustment,
                "pending_approval": p.status == Penalty.Status.PENDING,
            }
        )
    return rows
