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

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import rulesets
from events.audit import audit
from events.errors import ConflictError, UserError
from events.limits import check_free_text, field_label
from events.models import Event, Person, Registration, Round, Seat, Table
from events.people import find_or_create_person
from events.permissions import Permission as P
from penalties import duplicates
from penalties import vekn_guide as guide
from penalties.authority import confirmed_hold, refuse_if_confirmed
from penalties.models import (
    Appeal,
    DisqualificationReport,
    Level,
    Penalty,
    Sanction,
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


def _vekn_penalties():
    """Every VEKN penalty: the only ones the VEKN engine ever reads. A person who plays
    Mitos y Leyendas too carries that game's penalties (levels and section numbers the
    guide does not know): they are never input here, context at most
    (:func:`other_ruleset_penalties`; docs/rules-vekn-penalties.md)."""
    return Penalty.objects.filter(ruleset=RULESET.code)


def event_history(
    event: Event, person: Person, *, before: Penalty | None = None
) -> list[guide.PriorPenalty]:
    """The person's earlier VEKN penalties in this event, oldest first (voided ones
    excluded)."""
    qs = _vekn_penalties().filter(event=event, person=person).exclude(status=Penalty.Status.VOIDED)
    if before is not None:
        qs = (
            qs.filter(created_at__lte=before.created_at)
            .exclude(pk=before.pk)
            .filter(pk__lt=before.pk)
        )
    return [_prior(p) for p in qs.order_by("created_at", "id")]


def earlier_events(event: Event, person: Person) -> list[Penalty]:
    """The person's recorded VEKN penalties (warning and above) of other events held before
    this one — context for the judge, never a ladder step (JG §1.2.1). Another ruleset's
    penalties are not among them (:func:`other_ruleset_penalties`)."""
    return list(
        _vekn_penalties()
        .filter(person=person, event__date__lte=event.date, is_linked=False)
        .exclude(event=event)
        .exclude(status=Penalty.Status.VOIDED)
        .exclude(level=Level.CAUTION)
        .select_related("event")
        .order_by("-event__date")
    )


def other_ruleset_penalties(event: Event, person: Person, ruleset: str | None = None) -> dict:
    """How many penalties ``person`` has under the **other** rulesets than ``ruleset``
    (this module's, VEKN, by default; the MyL code for a Mitos y Leyendas page), in events
    held up to ``event``'s date, voided, linked ones and cautions left out: ``{ruleset
    code: count}``, e.g. ``{<MyL code>: 2}``; ``{}`` when none. One query. Context for the
    judge only ("also has 2 Mitos y Leyendas penalties"): never input to an escalation
    (issue 12; docs/rules-vekn-penalties.md, docs/judging-myl.md **[choice]**)."""

    rows = (
        Penalty.objects.filter(person=person, event__date__lte=event.date, is_linked=False)
        .exclude(event=event)
        .exclude(ruleset=ruleset or RULESET.code)
        .exclude(status=Penalty.Status.VOIDED)
        .exclude(level=Level.CAUTION)
        .values("ruleset")
        .annotate(n=Count("id"))
        .order_by("ruleset")
    )
    return {row["ruleset"]: row["n"] for row in rows}


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
        for p in _vekn_penalties()
        .filter(event=event, person=registration.person)
        .exclude(status=Penalty.Status.VOIDED)
        .exclude(pk=linked_to.pk if linked_to else None)
        .order_by("created_at", "id")
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
@dataclass(frozen=True)
class Logged:
    penalty: Penalty
    created: bool


class DuplicateOffence(UserError):
    """The incident looks like one already logged (``penalties.duplicates``): ``earlier`` is
    that penalty. The message names the person, the code and the time of the earlier one."""

    def __init__(self, earlier: Penalty, event: Event, person: Person, code: str):
        self.earlier = earlier
        super().__init__(
            _(
                "%(name)s already got %(code)s at %(time)s. Tick “This is a new offence” to log another."
            )
            % {
                "name": person.name,
                "code": code,
                "time": timezone.localtime(earlier.created_at, event.zone).strftime("%H:%M"),
            }
        )


def recent_duplicate(
    event: Event, person: Person, code: str, *, client_id=None, at=None, again: bool = False
) -> Penalty | None:
    """The penalty of the same ``code`` already logged for ``person`` in ``event`` that an
    entry at ``at`` (default now; aware) would duplicate (``penalties.duplicates``), or
    ``None``. Only the event's own ruleset's penalties (another game's section numbers
    mean other offences). ``client_id``: the entry's own id, never its own duplicate.
    Voided penalties count too (as the incident form always showed them). One query."""
    at = at or timezone.now()
    rows = {
        p.pk: p
        for p in Penalty.objects.filter(
            event=event,
            ruleset=event.ruleset,
            person=person,
            infraction=code,
            created_at__gte=at - duplicates.WINDOW,
            created_at__lte=at + duplicates.WINDOW,
        ).exclude(client_id=client_id)
    }
    found = duplicates.check(
        duplicates.Entry(code=code, at=at, again=again),
        [duplicates.Earlier(key=p.pk, code=p.infraction, at=p.created_at) for p in rows.values()],
    )
    return None if found is None else rows[found.key]


def refuse_duplicate(
    event: Event, person: Person, code: str, *, client_id, at=None, again: bool = False
) -> None:
    """Raise :class:`DuplicateOffence` when the entry duplicates an earlier penalty; the
    one guard every way of logging (web form, offline sync, API, MyL) goes through, called
    by both ``log_penalty`` adapters inside their transaction, after the row lock."""
    earlier = recent_duplicate(event, person, code, client_id=client_id, at=at, again=again)
    if earlier is not None:
        raise DuplicateOffence(earlier, event, person, code)


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
    ``deviation_reason`` and the CONFIRM permission. After the event's results are approved,
    only a fraud (4.8) referred to the ethics committee is accepted (JG §1.2.5). A standings
    adjustment or above on a non-competing person needs their VEKN number. Raises
    ``UserError``.

    ``logged_at``: when the judge logged it, for an incident entered offline and synced
    later (validated by the caller, ``events.offline.client_time``): it becomes the
    penalty's ``created_at`` and the audit entry records it with the sync time. The
    offence number is still counted when it arrives (``offline_times``).

    ``again``: the judge confirmed a new offence; without it an entry of the same code
    for the same person within minutes of an earlier one raises :class:`DuplicateOffence`
    (``penalties.duplicates``).
    """
    existing = Penalty.objects.filter(client_id=client_id).first()
    if existing is not None:
        if existing.event_id != event.pk:
            raise UserError(_("This submission belongs to another event."))
        return Logged(existing, False)
    inf = infraction(code)
    deviation_reason = check_free_text(
        deviation_reason, field_label(Penalty, "deviation_reason"), field="deviation_reason"
    ).strip()
    description = check_free_text(
        description, field_label(Penalty, "description"), field="description"
    )
    if timing not in Timing.values:
        raise UserError(_("Unknown timing."))
    if level and level not in VEKN_LEVELS:
        raise UserError(_("Unknown level."))
    try:
        with transaction.atomic():
            registration = (
                Registration.objects.select_for_update()
                .select_related("person")
                .get(pk=registration.pk, event=event)
            )
            refuse_duplicate(
                event, registration.person, code, client_id=client_id, at=logged_at, again=again
            )
            event = Event.objects.get(pk=event.pk)
            if event.results_approved and not (code == "4.8" and ethics_committee):
                raise UserError(
                    _(
                        "The event's results are approved: only a fraud case referred to the ethics committee can be added."
                    )
                )
            if linked_to is not None and (
                linked_to.event_id != event.pk or linked_to.person_id != registration.person_id
            ):
                raise UserError(_("A linked infraction is the same person's, in this event."))
            assessment = preview(event, registration, code, conditions, linked_to)
            if level and level != assessment.level:
                if P.CONFIRM_PENALTIES not in perms:
                    raise UserError(
                        _("Only the head judge may give another penalty than the guide's.")
                    )
                if not deviation_reason:
                    raise UserError(_("Say why the penalty differs from the guide's."))
                assessment = guide.deviate(assessment, level, deviation_reason)
            given = str(assessment.level)
            if (
                not registration.competing
                and given in (Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION)
                and not registration.person.vekn_number
            ):
                raise UserError(
                    _("A standings adjustment or above needs the person's VEKN number.")
                )
            if round is None and table is not None:
                round = table.round
            status = (
                Penalty.Status.PENDING
                if _needs_head_judge(given, inf, perms)
                else Penalty.Status.CONFIRMED
            )
            penalty = Penalty.objects.create(
                event=event,
                registration=registration,
                person=registration.person,
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
                reported_by=actor if getattr(actor, "is_authenticated", False) else None,
                confirmed_by=actor
                if status == Penalty.Status.CONFIRMED and getattr(actor, "is_authenticated", False)
                else None,
                confirmed_at=timezone.now() if status == Penalty.Status.CONFIRMED else None,
            )
            offline = offline_times(penalty, logged_at)
            if status == Penalty.Status.CONFIRMED:
                _apply_effects(penalty)
            if linked_to is not None and not assessment.linked:
                # The new infraction is the more severe: the earlier one becomes linked.
                Penalty.objects.filter(pk=linked_to.pk).update(is_linked=True)
                if linked_to.level == Level.DISQUALIFICATION:
                    _restore_registration(linked_to)
                audit(
                    event,
                    actor,
                    "penalty.linked",
                    _target(linked_to),
                    after={"linked_to": penalty.pk},
                    about=linked_to,
                )
            audit(
                event,
                actor,
                "penalty.log",
                _target(penalty),
                after=_snapshot(penalty) | offline,
                about=penalty,
            )
            if linked_to is not None or shown_publicly(penalty):
                page_cache.invalidate(event)
    except IntegrityError:
        # The same client_id submitted twice at once: the other request saved it.
        existing = Penalty.objects.filter(client_id=client_id).first()
        if existing is None:
            raise
        return Logged(existing, False)
    return Logged(penalty, True)


def offline_times(penalty: Penalty, logged_at) -> dict:
    """An incident entered offline (the judge's tablet): ``created_at`` becomes when the
    judge logged it (``logged_at``, already validated by the caller); the audit entry gets
    both times. The offence number and the escalation were worked out on arrival, with the
    offences the server knew then (docs/offline.md). ``{}`` for an ordinary entry."""
    if logged_at is None:
        return {}
    synced_at = penalty.created_at
    Penalty.objects.filter(pk=penalty.pk).update(created_at=logged_at)
    penalty.created_at = logged_at
    return {"logged_at": logged_at.isoformat(), "synced_at": synced_at.isoformat()}


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


def _target(p: Penalty) -> str:
    """The audit target of a penalty: its id first (two penalties for the same section on
    the same person must not share a history), then the section and the person."""
    return f"#{p.pk} {p.infraction} {p.person.name}"[:200]


def _snapshot(p: Penalty) -> dict:
    return {
        "infraction": p.infraction,
        "level": p.level,
        "guide_level": p.guide_level,
        "offence": p.offence,
        "status": p.status,
        "conditions": p.conditions,
        "round": p.round_number,
        "timing": p.timing,
        "deviation_reason": p.deviation_reason,
        "linked": p.is_linked,
    }


def _apply_effects(p: Penalty) -> None:
    """A confirmed disqualification removes the player from the event (JG §1.1.4)."""
    if p.level == Level.DISQUALIFICATION and not p.is_linked:
        Registration.objects.filter(pk=p.registration_id).update(
            status=Registration.Status.DISQUALIFIED
        )


def _ensure_open(event: Event) -> None:
    """Nothing that changes the standings once the event's results are approved (JG
    §1.2.5): reopen them first."""
    if Event.objects.filter(pk=event.pk, results_approved=True).exists():
        raise UserError(_("The event's results are approved: reopen them first."))


def state_token(penalty: Penalty) -> str:
    """What the head judge's form was loaded with (level and status): a change posted from
    a stale page is refused instead of silently overwriting someone else's."""
    return f"{penalty.level}:{penalty.status}:{penalty.deviation_reason}"


def _lock(penalty: Penalty, expected: str | None = None) -> Penalty:
    """The penalty re-read under a row lock (inside the caller's transaction); with
    ``expected`` (a ``state_token``), ``ConflictError`` if it changed meanwhile."""

    locked = (
        Penalty.objects.select_for_update()
        .select_related("person", "event", "registration")
        .get(pk=penalty.pk)
    )
    if expected is not None and state_token(locked) != expected:
        raise ConflictError(
            _("Someone changed this penalty while you were looking at it: check it again.")
        )
    return locked


def confirm(penalty: Penalty, actor=None, *, expected: str | None = None) -> Penalty:
    """The head judge confirms a pending standings adjustment or disqualification."""
    if own := _own_adapter(penalty):
        return own.confirm(penalty, actor, expected=expected)
    _ensure_open(penalty.event)
    with transaction.atomic():
        penalty = _lock(penalty, expected)
        if penalty.status != Penalty.Status.PENDING:
            raise UserError(_("This penalty is not pending."))
        before = _snapshot(penalty)
        penalty.status = Penalty.Status.CONFIRMED
        penalty.confirmed_by = actor if getattr(actor, "is_authenticated", False) else None
        penalty.confirmed_at = timezone.now()
        penalty.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        _apply_effects(penalty)
        audit(
            penalty.event,
            actor,
            "penalty.confirm",
            _target(penalty),
            before,
            _snapshot(penalty),
            about=penalty,
        )
        page_cache.invalidate(penalty.event)
    return penalty


def change_level(
    penalty: Penalty, level: str, reason: str, actor=None, *, expected: str | None = None
) -> Penalty:
    """A head-judge deviation after the fact: give ``level`` instead, with a reason.
    ``UserError`` as :func:`void` for a disqualification escalated by the national
    coordinator into a live sanction."""
    if own := _own_adapter(penalty):
        return own.change_level(penalty, level, reason, actor, expected=expected)
    reason = check_free_text(reason, field_label(Penalty, "deviation_reason"), field="reason")
    reason = reason.strip()
    if level not in VEKN_LEVELS:
        raise UserError(_("Unknown level."))
    if level != penalty.guide_level and not reason:
        raise UserError(_("Say why the penalty differs from the guide's."))
    _ensure_open(penalty.event)
    with transaction.atomic():
        penalty = _lock(penalty, expected)
        if penalty.status == Penalty.Status.VOIDED:
            raise UserError(_("A voided penalty cannot change."))
        refuse_if_confirmed(penalty, actor)
        before = _snapshot(penalty)
        was_dq = penalty.level == Level.DISQUALIFICATION
        penalty.level = level
        penalty.deviation_reason = reason if level != penalty.guide_level else ""
        penalty.save(update_fields=["level", "deviation_reason"])
        if was_dq and level != Level.DISQUALIFICATION:
            _restore_registration(penalty)
            _lift_escalation(penalty, actor, reason or _("The penalty changed."))
        if penalty.status == Penalty.Status.CONFIRMED:
            _apply_effects(penalty)
        audit(
            penalty.event,
            actor,
            "penalty.change",
            _target(penalty),
            before,
            _snapshot(penalty),
            comment=reason,
            about=penalty,
        )
        _reassess(penalty.event, penalty.person, actor)
        page_cache.invalidate(penalty.event)
    return penalty


def mark_voided(penalty: Penalty, reason: str, actor) -> None:
    """Store the void of a locked ``penalty`` (status, reason, who, when); the caller
    undoes its effects and writes the audit entry. Shared by both rulesets."""
    penalty.status = Penalty.Status.VOIDED
    penalty.void_reason = reason
    penalty.voided_by = actor if getattr(actor, "is_authenticated", False) else None
    penalty.voided_at = timezone.now()
    penalty.save(update_fields=["status", "void_reason", "voided_by", "voided_at"])


def void(penalty: Penalty, reason: str, actor=None, *, expected: str | None = None) -> Penalty:
    """Void a penalty with a reason (it stays in the history). Later penalties of the same
    person in the event are reassessed (their offence numbers may drop) and a voided
    disqualification gives the player back their place. ``UserError`` for a
    disqualification the national coordinator escalated into a live suspension or ban:
    only the authority lifts it (``penalties.authority.refuse_if_confirmed``; a superuser
    may, and the sanction is lifted with the penalty)."""
    if own := _own_adapter(penalty):
        return own.void(penalty, reason, actor, expected=expected)
    reason = check_free_text(reason, field_label(Penalty, "void_reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Say why the penalty is voided."))
    _ensure_open(penalty.event)
    with transaction.atomic():
        penalty = _lock(penalty, expected)
        if penalty.status == Penalty.Status.VOIDED:
            raise UserError(_("Already voided."))
        refuse_if_confirmed(penalty, actor)
        before = _snapshot(penalty)
        mark_voided(penalty, reason, actor)
        if penalty.level == Level.DISQUALIFICATION:
            _restore_registration(penalty)
            _lift_escalation(penalty, actor, reason)
        audit(
            penalty.event,
            actor,
            "penalty.void",
            _target(penalty),
            before,
            _snapshot(penalty),
            comment=reason,
            about=penalty,
        )
        _reassess(penalty.event, penalty.person, actor)
        page_cache.invalidate(penalty.event)
    return penalty


def _lift_escalation(penalty: Penalty, actor, reason: str) -> None:
    """A superuser voided or changed a disqualification the national coordinator had
    escalated (no one else may, ``penalties.authority.refuse_if_confirmed``): its
    suspension or ban is lifted with the same reason, audited."""
    for s in Sanction.objects.filter(penalty=penalty, lifted_at__isnull=True):
        s.lifted_at = timezone.now()
        s.lifted_by = actor if getattr(actor, "is_authenticated", False) else None
        s.lift_reason = reason
        s.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        audit(
            penalty.event,
            actor,
            "sanction.lift",
            _target(penalty),
            {"kind": s.kind},
            comment=reason,
            about=penalty,
        )


def _restore_registration(penalty: Penalty) -> None:
    other_dq = (
        Penalty.objects.filter(
            registration=penalty.registration,
            level=Level.DISQUALIFICATION,
            status=Penalty.Status.CONFIRMED,
        )
        .exclude(pk=penalty.pk)
        .exists()
    )
    if not other_dq:
        Registration.objects.filter(
            pk=penalty.registration_id, status=Registration.Status.DISQUALIFIED
        ).update(status=Registration.Status.CHECKED_IN)


def _reassess(event: Event, person: Person, actor) -> None:
    """Recompute what the guide gives for each of the person's remaining penalties in the
    event, in order, after a void or change (nothing stale). A penalty whose level was a
    deviation keeps the level given; its guide level and explanation are refreshed."""
    history: list[guide.PriorPenalty] = []
    prior = [_prior(p) for p in earlier_events(event, person)]
    for p in (
        _vekn_penalties()
        .filter(event=event, person=person)
        .exclude(status=Penalty.Status.VOIDED)
        .order_by("created_at", "id")
    ):
        try:
            a = guide.assess(RULESET, p.infraction, p.conditions, history, prior)
        except (guide.ConditionError, guide.UnknownInfraction):
            history.append(_prior(p))
            continue
        if p.level == Level.DISQUALIFICATION and confirmed_hold(p, actor) is not None:
            # Escalated by the national coordinator: it stays as it is (level, offence
            # number) while the sanction is live [choice].
            history.append(_prior(p))
            continue
        deviated = bool(p.deviation_reason)
        new_level = p.level if deviated else str(a.level)
        if (p.guide_level, p.offence, p.level) != (str(a.level), a.offence, new_level):
            before = _snapshot(p)
            p.guide_level, p.offence, p.level = str(a.level), a.offence, new_level
            p.baseline, p.explanation, p.source = str(a.baseline), a.explanation, a.source
            p.context, p.also = list(a.context), list(a.also)
            was_dq = before["level"] == Level.DISQUALIFICATION
            p.save()
            if was_dq and p.level != Level.DISQUALIFICATION:
                _restore_registration(p)
            elif p.status == Penalty.Status.CONFIRMED:
                _apply_effects(p)
            audit(event, actor, "penalty.reassess", _target(p), before, _snapshot(p), about=p)
        history.append(_prior(p))


def set_results_approved(event: Event, approved: bool, actor=None) -> None:
    """Approve (lock) or reopen the event's results (JG §1.2.5)."""
    with transaction.atomic():
        Event.objects.filter(pk=event.pk).update(results_approved=approved)
        audit(event, actor, "results.approve" if approved else "results.reopen", event.slug)
        page_cache.invalidate(event)


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
            _target(penalty),
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
    adjustments: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
    dq_games: set[tuple[int, int]] = set()
    for p in Penalty.objects.filter(
        event=event,
        level__in=[Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION],
        status=Penalty.Status.CONFIRMED,
        is_linked=False,
    ).order_by("created_at", "id"):
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
