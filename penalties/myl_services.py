"""Mitos y Leyendas conduct rules in the judges' flow: the adapter that turns the pure
engine (``penalties.myl_rules``, appeal deadlines in ``penalties.appeals``) into database
changes — penalties, their effects (game loss, disqualification, suspension, permanent
ban), appeals and aggression reports (docs/rules-myl-penalties.md; MyL conduct §4–§5).

Every change runs in one transaction (the registration or penalty row locked) and is
written to the audit log (``events.audit.audit``). The VEKN adapter
(``penalties.services``) hands MyL penalties over to this module for confirm, change and
void, so both rulesets share the judge's pages and the penalty rows.

Our choices (**[choice]**, documented in ``docs/judging-myl.md`` and ``docs/rules-myl-penalties.md``):

- A floor judge may log any penalty and give another level than the rules' with a reason
  (§4.3: judges weigh the criteria); a disqualification, suspension or permanent ban
  logged by a floor judge stays *pending* until the head judge confirms it (as VEKN JG
  §1.2.2); warnings and game losses count at once.
- A game loss is applied to the player's current match: the round of their seat in the
  event's latest round (``Penalty.round``). When they sit a bye or are not seated in it,
  ``round`` stays empty and ``round_number`` is that round; when the judge says it
  happened between rounds (or before round 1), ``round_number`` is the next round — the
  standings (``events.swiss_services``) then apply it to the player's next match.
- A suspension's first and last day are entered by whoever confirms it (the rules give
  no length); a permanent ban starts on the penalty's day. Both become a ``Sanction``;
  when ``also`` names a disqualification (or the judge ticks it), the player is also
  removed from this event.
- Repeats count this event's and earlier events' MyL penalties (MyL conduct §2.1–§3.4.3;
  docs/rules-myl-penalties.md "How a penalty is proposed"); a void reassesses the person's penalties
  in this event only (later events keep what was decided with the history known then).
- Aggression sections (§5.8 report): 3.1.1 and 3.1.2 (:data:`AGGRESSION_CODES`).
- An appeal's decision applies even after the event's results are approved (that is its
  purpose); other changes need the results reopened, as for VEKN.
"""

from __future__ import annotations

import datetime as dt
import sys
import uuid

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import rulesets
from events.access import authority_rulesets, may_decide_appeals
from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from events.models import (
    Event,
    EventRole,
    OrganisationRole,
    Person,
    Registration,
    Round,
    Seat,
    Table,
)
from events.permissions import Permission as P
from penalties import lifecycle
from penalties import myl_rules as rules
from penalties.appeal_dates import appeal_window, penalty_day, today
from penalties.authority import confirmed_hold, refuse_if_confirmed
from penalties.models import Appeal, Level, Penalty, Sanction, Timing
from penalties.services import shown_publicly

RULESET = rules.MYL_V1
AGGRESSION_CODES = ("3.1.1", "3.1.2")
"""Sections whose incidents are aggressions (verbal or physical mistreatment, threats,
harassment): they get the §5.8 incident report **[choice]**."""
MYL_LEVELS = tuple(str(x) for x in rules.Level)
SANCTION_LEVELS = (Level.SUSPENSION, Level.PERMANENT_BAN)
HEAD_JUDGE_LEVELS = (Level.DISQUALIFICATION, Level.SUSPENSION, Level.PERMANENT_BAN)


# --------------------------------------------------------------------------- catalogue


def mine(obj) -> bool:
    """Whether ``obj`` (an event or a penalty) is judged by this module: the MyL conduct
    rules, by the registry's ``penalties`` adapter of its ruleset (``events.rulesets``)."""
    return rulesets.of(obj).adapter("penalties") is sys.modules[__name__]


def infraction(code: str) -> rules.Infraction:
    """The section ``code``; ``UserError`` if unknown."""
    try:
        return RULESET.infraction(code)
    except rules.UnknownInfraction:
        raise UserError(_("Unknown infraction “%(c)s”.") % {"c": code}) from None


def _spanish() -> bool:
    return (get_language() or "").startswith("es")


def infraction_name(code: str) -> str:
    """The section's name in the active language ("" if unknown)."""
    inf = RULESET.catalogue.get(code)
    if inf is None:
        return ""
    return inf.title_es if _spanish() else inf.name


def grouped_catalogue(q: str = "") -> list[tuple[rules.Group, list[rules.Infraction]]]:
    """The catalogue by the rulebook's headings (§2, §3.1 … §3.4), filtered by ``q``
    (code, English name or Spanish title)."""
    q = (q or "").strip().lower()
    groups: dict[rules.Group, list[rules.Infraction]] = {}
    for inf in RULESET.catalogue.values():
        if q and not (q in inf.code or q in inf.name.lower() or q in inf.title_es.lower()):
            continue
        groups.setdefault(inf.group, []).append(inf)
    return list(groups.items())


def is_aggression(penalty: Penalty) -> bool:
    return mine(penalty) and penalty.infraction in AGGRESSION_CODES


# --------------------------------------------------------------------------- history
def prior_penalty(p: Penalty) -> rules.PriorPenalty:
    """A stored MyL penalty as the engine's ``PriorPenalty`` (section, level, linked)."""
    return rules.PriorPenalty(p.infraction, p.level, linked=p.is_linked)


def event_penalties(event: Event, person: Person):
    """The person's MyL penalties in this event, oldest first, voided ones excluded
    (``penalties.lifecycle.event_penalties``)."""
    return lifecycle.event_penalties(event, person, RULESET.code)


def earlier_events(event: Event, person: Person) -> list[Penalty]:
    """The person's MyL penalties of other events held up to this one's date (they count
    towards a repeat, MyL conduct §2.1–§3.4.3; docs/rules-myl-penalties.md
    "How a penalty is proposed"), newest first, voided and linked ones left out
    (``penalties.lifecycle.earlier_events``)."""
    return lifecycle.earlier_events(event, person, RULESET.code)


def other_ruleset_penalties(event: Event, person: Person) -> dict:
    """``{ruleset code: count}`` of the person's penalties under other rulesets (VEKN) in
    events up to this one's date: context for the judge ("also has 1 VEKN penalty"),
    never a repeat here (``penalties.lifecycle.other_ruleset_penalties``)."""
    return lifecycle.other_ruleset_penalties(event, person, RULESET.code)


def preview(
    event: Event, registration: Registration, code: str, conditions: dict
) -> rules.Assessment:
    """What the rules give for this person's next offence of ``code`` (nothing saved).
    ``UserError`` for an unknown code or a missing/invalid answer."""
    infraction(code)
    history = [prior_penalty(p) for p in event_penalties(event, registration.person)]
    prior = [prior_penalty(p) for p in earlier_events(event, registration.person)]
    try:
        return rules.assess(code, conditions, history, prior)
    except rules.ConditionError as exc:
        raise UserError(str(exc)) from None


def current_match(
    event: Event, registration: Registration, table: Table | None = None
) -> Seat | None:
    """The player's seat in their current match: at ``table`` when given (the judge came
    from it), else in the event's latest round; ``None`` when they are not seated there or
    sit a bye (a game loss then applies to their next match)."""
    seats = Seat.objects.filter(registration=registration).select_related("table", "round")
    if table is not None:
        seat = seats.filter(table=table).first()
    else:
        latest = Round.objects.filter(event=event).order_by("-number").first()
        seat = seats.filter(round=latest).first() if latest else None
    if seat is None or seat.table.is_bye:
        return None
    return seat


def opponent(seat: Seat | None) -> Registration | None:
    if seat is None:
        return None
    other = (
        Seat.objects.filter(table_id=seat.table_id)
        .exclude(pk=seat.pk)
        .select_related("registration__person")
        .first()
    )
    return other.registration if other else None


# --------------------------------------------------------------------------- effects
def _has_dq_effect(level: str, also, status: str, linked: bool) -> bool:
    if status != Penalty.Status.CONFIRMED or linked:
        return False
    return level == Level.DISQUALIFICATION or (
        level in SANCTION_LEVELS and Level.DISQUALIFICATION in (also or [])
    )


def dq_effect(p: Penalty) -> bool:
    """Whether ``p`` removes the player from the event (a confirmed DQ, or a suspension
    or ban given with a disqualification)."""
    return _has_dq_effect(p.level, p.also, p.status, p.is_linked)


def _sanction_reason(p: Penalty) -> str:
    return f"{p.infraction} {infraction_name(p.infraction)} — {p.event.name} ({p.event.date})"


def sync_effects(
    p: Penalty,
    had_dq: bool,
    *,
    actor=None,
    reason: str = "",
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
) -> None:
    """Make the registration and the sanctions match the penalty's current state:
    suspension/ban → one unlifted ``Sanction`` of that kind (others lifted with
    ``reason``); a DQ effect → registration disqualified; a DQ effect gone → registration
    restored (unless another penalty keeps it). Game losses need nothing: the standings
    read them from the penalties."""
    active = p.status == Penalty.Status.CONFIRMED and not p.is_linked
    live = list(Sanction.objects.filter(penalty=p, lifted_at__isnull=True))
    keep: list[Sanction] = []
    if active and p.level in SANCTION_LEVELS:
        keep = [s for s in live if s.kind == p.level]
        if keep and p.level == Level.SUSPENSION and (starts_on or ends_on):
            _change_dates(p, keep[0], starts_on, ends_on, actor=actor, reason=reason)
        if not keep:
            if p.level == Level.SUSPENSION:
                if starts_on is None or ends_on is None:
                    raise UserError(_("Give the suspension's first and last day."))
                if ends_on < starts_on:
                    raise UserError(_("The suspension's last day is before its first day."))
            created = Sanction.objects.create(
                person_id=p.person_id,
                kind=p.level,
                starts_on=starts_on if p.level == Level.SUSPENSION else penalty_day(p),
                ends_on=ends_on if p.level == Level.SUSPENSION else None,
                penalty=p,
                reason=_sanction_reason(p),
                # It blocks the issuing organisation's events at once, others' once the
                # Organised Play manager confirms it (penalties.sanction_rules).
                ruleset=p.ruleset,
                organisation_id=p.event.organisation_id,
                created_by=lifecycle.signed_in(actor),
            )
            keep = [created]
            audit(
                p.event,
                actor,
                "sanction.create",
                lifecycle.audit_target(p),
                after={
                    "kind": p.level,
                    "from": str(starts_on) if p.level == Level.SUSPENSION else None,
                    "until": str(ends_on) if p.level == Level.SUSPENSION else None,
                },
                about=p,
            )
    lifecycle.lift_sanctions(p, actor, reason or _("The penalty changed."), keep=keep)
    if dq_effect(p):
        Registration.objects.filter(pk=p.registration_id).update(
            status=Registration.Status.DISQUALIFIED
        )
    elif had_dq:
        lifecycle.restore_registration(p, ENGINE)


def _change_dates(
    p: Penalty, s: Sanction, starts_on, ends_on, *, actor=None, reason: str = ""
) -> None:
    """New first and/or last day for the live suspension ``s`` of ``p`` (the level kept):
    applied and audited (``sanction.change``) **[choice]**, docs/rules-myl-penalties.md;
    a day left empty keeps the one it had. ``UserError`` for a last day before the first."""
    new_start, new_end = starts_on or s.starts_on, ends_on or s.ends_on
    if new_end is not None and new_end < new_start:
        raise UserError(_("The suspension's last day is before its first day."))
    if (new_start, new_end) == (s.starts_on, s.ends_on):
        return
    before = {"from": str(s.starts_on), "until": str(s.ends_on) if s.ends_on else None}
    s.starts_on, s.ends_on = new_start, new_end
    s.save(update_fields=["starts_on", "ends_on"])
    audit(
        p.event,
        actor,
        "sanction.change",
        lifecycle.audit_target(p),
        before,
        {"from": str(new_start), "until": str(new_end) if new_end else None},
        comment=reason,
        about=p,
    )


def apply_effects(p: Penalty, *, actor=None, starts_on=None, ends_on=None) -> None:
    """The effects of a confirmed MyL penalty (used by event-file imports)."""
    sync_effects(p, False, actor=actor, starts_on=starts_on, ends_on=ends_on)


# --------------------------------------------------------------------------- logging
Logged = lifecycle.Logged
state_token = lifecycle.state_token


def snapshot(p: Penalty) -> dict:
    """A MyL penalty in an audit entry: ``penalties.lifecycle.snapshot`` with ``also``."""
    return lifecycle.snapshot(p, also=True)


def _date(value) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise UserError(_("Enter dates as YYYY-MM-DD.")) from None


def _round_of(event: Event, registration: Registration, table: Table | None, timing: str):
    """``(seat, round number)`` a MyL penalty logged now applies to: the seat of the
    player's current match during a game (``current_match``), else none; the number is
    that match's round, the latest round for a bye or no seat during a game (the
    standings take the next match), else the next round."""
    seat = current_match(event, registration, table) if timing == Timing.DURING_GAME else None
    if seat is not None:
        return seat, seat.round.number
    latest = Round.objects.filter(event=event).order_by("-number").first()
    if timing == Timing.DURING_GAME and latest is not None:
        return None, latest.number
    return None, latest.number + 1 if latest is not None else 1


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
    timing: str = Timing.DURING_GAME,
    level: str | None = None,
    deviation_reason: str = "",
    description: str = "",
    with_dq: bool | None = None,
    starts_on=None,
    ends_on=None,
    external_id: str = "",
    logged_at=None,
    again: bool = False,
) -> Logged:
    """Record one MyL incident with the penalty the rules give, or ``level`` with a
    ``deviation_reason`` (MyL conduct §2.1–§3.4.3, §4.2, §4.3; docs/rules-myl-penalties.md
    "How a penalty is proposed", "Severity table"). Idempotent by ``client_id``.

    A game loss gets the round of the player's current match (``current_match``; none
    between rounds). Disqualifications, suspensions and bans logged without the head
    judge's permission (``perms``: the caller's, no default) stay pending; confirmed ones
    take effect at once (a suspension needs ``starts_on``/``ends_on``). ``with_dq``: for a
    suspension or ban given instead of the rules' penalty, whether it also disqualifies
    from this event (default: when the rules' proposal did). ``logged_at``: when the judge
    logged an incident entered offline (``penalties.lifecycle.offline_times``). ``again``:
    the judge confirmed a new offence, else the duplicate-offence guard applies
    (``penalties.lifecycle.DuplicateOffence``, ``penalties.duplicates``). Raises
    ``UserError``.
    """
    if (replayed := lifecycle.replay(event, client_id)) is not None:
        return replayed
    if not mine(event):
        raise UserError(_("This event does not use the Mitos y Leyendas rules."))
    infraction(code)
    lifecycle.check_timing(timing)
    deviation_reason, description = lifecycle.clean_entry_texts(deviation_reason, description)
    starts_on, ends_on = _date(starts_on), _date(ends_on)

    def write() -> Penalty:
        reg, current = lifecycle.lock_registration(
            event, registration, code, client_id=client_id, logged_at=logged_at, again=again
        )
        if current.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        a = preview(current, reg, code, conditions)
        proposed = str(a.level)
        given, reason = proposed, ""
        also = [str(x) for x in a.also]
        if level and level != proposed:
            if level not in MYL_LEVELS:
                raise UserError(_("Unknown level."))
            if not deviation_reason:
                raise UserError(ENGINE.differs())
            given, reason = level, deviation_reason
            dq_default = Level.DISQUALIFICATION in (proposed, *also)
            also = (
                [Level.DISQUALIFICATION.value]
                if given in SANCTION_LEVELS and (dq_default if with_dq is None else with_dq)
                else []
            )
        status = (
            Penalty.Status.PENDING
            if given in HEAD_JUDGE_LEVELS and P.CONFIRM_PENALTIES not in perms
            else Penalty.Status.CONFIRMED
        )
        seat, number = _round_of(current, reg, table, timing)
        rnd = seat.round if seat else None
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
            round=rnd,
            round_number=number,
            table=seat.table if seat else table,
            timing=timing if rnd or timing != Timing.DURING_GAME else Timing.BETWEEN_ROUNDS,
            guide_level=proposed,
            level=given,
            offence=a.offence,
            baseline=str(a.baseline),
            explanation=a.explanation,
            source=a.source,
            context=list(a.context),
            also=also,
            deviation_reason=reason,
            description=description.strip(),
            status=status,
            **lifecycle.decided_by(actor, status),
        )
        lifecycle.audit_logged(penalty, actor, logged_at, ENGINE)
        sync_effects(penalty, False, actor=actor, starts_on=starts_on, ends_on=ends_on)
        if shown_publicly(penalty):
            page_cache.invalidate(current)
        return penalty

    return lifecycle.log_once(client_id, write)


# --------------------------------------------------------------------------- head judge
def _owns(locked: Penalty) -> None:
    """``UserError`` unless ``locked`` is judged by this module (:func:`mine`)."""
    if not mine(locked):
        raise UserError(_("Not a Mitos y Leyendas penalty."))


def confirm(
    penalty: Penalty,
    actor=None,
    *,
    perms: frozenset,
    expected: str | None = None,
    starts_on=None,
    ends_on=None,
) -> Penalty:
    """The head judge confirms a pending DQ, suspension or ban (a suspension with its
    first and last day); its effects follow (``penalties.lifecycle.confirm``).
    ``PermissionDenied`` without ``confirm_penalties`` in ``perms`` (the caller's)."""
    lifecycle.require(perms, P.CONFIRM_PENALTIES)
    starts_on, ends_on = _date(starts_on), _date(ends_on)
    return lifecycle.confirm(
        penalty,
        actor,
        expected=expected,
        engine=ENGINE,
        effects=lambda p: sync_effects(p, False, actor=actor, starts_on=starts_on, ends_on=ends_on),
    )


def change_level(
    penalty: Penalty,
    level: str,
    reason: str,
    actor=None,
    *,
    perms: frozenset,
    expected: str | None = None,
    with_dq: bool = False,
    starts_on=None,
    ends_on=None,
) -> Penalty:
    """Give ``level`` instead (a reason is needed unless it is the rules' level); the
    effects follow (a sanction lifted or created, the registration restored or removed;
    the same suspension with new ``starts_on``/``ends_on``: its days change, audited).
    ``UserError`` while the national authority's confirmed sanction of the penalty is live
    (``penalties.authority.refuse_if_confirmed``; superusers may); ``PermissionDenied``
    without ``confirm_penalties`` in ``perms``. The shared steps:
    ``penalties.lifecycle.change_level``."""
    lifecycle.require(perms, P.CONFIRM_PENALTIES)
    reason = lifecycle.clean_change(level, reason, ENGINE)
    starts_on, ends_on = _date(starts_on), _date(ends_on)

    def apply(p: Penalty, had_dq: bool) -> None:
        if level == p.guide_level:
            earlier = event_penalties(p.event, p.person).filter(pk__lt=p.pk)
            a = rules.assess(
                p.infraction,
                p.conditions,
                [prior_penalty(e) for e in earlier],
                [prior_penalty(e) for e in earlier_events(p.event, p.person)],
            )
            p.also = [str(x) for x in a.also]
        else:
            p.also = [Level.DISQUALIFICATION.value] if level in SANCTION_LEVELS and with_dq else []
        p.save(update_fields=["level", "deviation_reason", "also"])
        sync_effects(
            p,
            had_dq,
            actor=actor,
            reason=reason or _("The penalty changed."),
            starts_on=starts_on,
            ends_on=ends_on,
        )

    return lifecycle.change_level(
        penalty,
        level,
        reason,
        actor,
        expected=expected,
        engine=ENGINE,
        apply=apply,
        # New suspension days or a disqualification added or taken away are a change.
        also_changes=starts_on is not None
        or ends_on is not None
        or with_dq != (Level.DISQUALIFICATION in penalty.also),
    )


def void(
    penalty: Penalty,
    reason: str,
    actor=None,
    *,
    perms: frozenset,
    expected: str | None = None,
) -> Penalty:
    """Void a MyL penalty with a reason: its sanction is lifted, a disqualification gives
    the player back their place, the standings (computed from penalties) drop its game
    loss, and the person's later penalties in the event are reassessed
    (``penalties.lifecycle.void``). ``UserError`` while the national authority's confirmed
    sanction is live (``penalties.authority.refuse_if_confirmed``; superusers may);
    ``PermissionDenied`` without ``confirm_penalties`` in ``perms`` (the caller's)."""
    lifecycle.require(perms, P.CONFIRM_PENALTIES)
    return lifecycle.void(penalty, reason, actor, expected=expected, engine=ENGINE)


def _void_on_appeal(penalty: Penalty, reason: str, actor) -> Penalty:
    """An appeal's revert (the caller decided the appeal and checked who may): accepted
    even after the results are approved, and even when the national authority confirmed
    its sanction (a written appeal's revert is the authority's decision; the in-event
    appeal checks first)."""
    return lifecycle.void(penalty, reason, actor, expected=None, engine=ENGINE, by_appeal=True)


def _reassess(event: Event, person: Person, actor, reason: str) -> None:
    """Recompute the person's remaining MyL penalties of this event in order (offence
    numbers drop after a void; ``penalties.lifecycle.reassess``). A penalty given at
    another level than the rules' keeps it; the others follow the rules, with their
    effects. One whose sanction the national authority confirmed stays as it is until the
    authority lifts it **[choice]**."""

    def assess(p: Penalty, history: list, prior: list) -> rules.Assessment | None:
        try:
            return rules.assess(p.infraction, p.conditions, history, prior)
        except (rules.ConditionError, rules.UnknownInfraction):
            return None

    def refresh(p: Penalty, a: rules.Assessment, deviated: bool, had_dq: bool) -> None:
        if not deviated:
            p.also = [str(x) for x in a.also]
        p.save()
        try:
            with transaction.atomic():
                sync_effects(p, had_dq, actor=actor, reason=reason)
        except UserError:
            pass  # a suspension reached by reassessment needs its dates: left to the judge

    lifecycle.reassess(
        event,
        person,
        actor,
        engine=ENGINE,
        prior=[prior_penalty(p) for p in earlier_events(event, person)],
        as_prior=prior_penalty,
        assess=assess,
        held=lambda p: p.level in SANCTION_LEVELS and confirmed_hold(p, actor) is not None,
        refresh=refresh,
    )


ENGINE = lifecycle.Engine(
    code=RULESET.code,
    levels=MYL_LEVELS,
    removes_player=dq_effect,
    removing_levels=(Level.DISQUALIFICATION, *SANCTION_LEVELS),
    snapshot=snapshot,
    reassess=_reassess,
    differs=lambda: _("Say why the penalty differs from the rules'."),
    owns=_owns,
)
"""What the shared lifecycle (``penalties.lifecycle``) needs to know of the MyL rules."""


# --------------------------------------------------------------------------- appeals
def record_in_event_appeal(
    penalty: Penalty, statement: str, decision: str, reason: str, actor=None
) -> Appeal:
    """The head judge's review at once (§4.5): the player's statement and the decision,
    final for the event. ``reverted`` voids the penalty with the reason."""
    statement = check_free_text(statement, field_label(Appeal, "statement"), field="statement")
    reason = check_free_text(reason, field_label(Appeal, "decision_reason"), field="reason")
    statement, reason = statement.strip(), reason.strip()
    if not statement:
        raise UserError(_("Write what the player says."))
    if decision not in (Appeal.Decision.CONFIRMED, Appeal.Decision.REVERTED):
        raise UserError(_("Choose: confirm or revert the penalty."))
    if not reason:
        raise UserError(_("Give the reasons for the decision."))
    if not mine(penalty):
        raise UserError(_("Not a Mitos y Leyendas penalty."))
    with transaction.atomic():
        locked = lifecycle.lock(penalty, engine=ENGINE)
        if locked.status != Penalty.Status.CONFIRMED:
            raise UserError(_("Only a confirmed penalty can be appealed."))
        if decision == Appeal.Decision.REVERTED:
            # The head judge's revert is the event's: not over the authority's confirmation.
            refuse_if_confirmed(locked, actor)
        if Appeal.objects.filter(penalty=locked, kind=Appeal.Kind.IN_EVENT).exists():
            raise UserError(_("The head judge already decided an appeal against this penalty."))
        appeal = Appeal.objects.create(
            penalty=locked,
            kind=Appeal.Kind.IN_EVENT,
            statement=statement,
            submitted_by=lifecycle.signed_in(actor),
            decision=decision,
            decision_reason=reason,
            decided_by=lifecycle.signed_in(actor),
            decided_at=timezone.now(),
        )
        audit(
            locked.event,
            actor,
            "appeal.in_event",
            lifecycle.audit_target(locked),
            after={"decision": decision},
            comment=reason,
            about=locked,
        )
        if decision == Appeal.Decision.REVERTED:
            _void_on_appeal(
                locked, _("Reverted on appeal to the head judge: %(r)s") % {"r": reason}, actor
            )
        else:
            lifecycle.notify_decision(locked, "confirmed_on_appeal")
    return appeal


def appealable_by(penalty: Penalty, user) -> bool:
    return (
        mine(penalty)
        and getattr(user, "is_authenticated", False)
        and Person.objects.filter(pk=penalty.person_id, user=user).exists()
    )


def submit_written_appeal(penalty: Penalty, statement: str, user, *, on: dt.date | None = None):
    """The penalised player's written appeal to the national Organised Play manager
    (§5.10), accepted until the deadline (5 business days, the configured country's
    holidays skipped). Raises ``UserError`` (also for a statement over
    ``events.limits.FREE_TEXT_MAX_LENGTH`` characters)."""
    statement = check_free_text(
        statement, field_label(Appeal, "statement"), field="statement"
    ).strip()
    if not appealable_by(penalty, user):
        raise UserError(_("Only the penalised player can appeal this penalty."))
    if not statement:
        raise UserError(_("Write your appeal."))
    window = appeal_window(penalty)
    day = on or today(penalty.event)
    if day > window.deadline:
        raise UserError(
            _(
                "The deadline for a written appeal was %(d)s (5 business days after the penalty): it can no longer be appealed."
            )
            % {"d": window.deadline.isoformat()}
        )
    with transaction.atomic():
        locked = lifecycle.lock(penalty, engine=ENGINE)
        if locked.status != Penalty.Status.CONFIRMED:
            raise UserError(_("Only a confirmed penalty can be appealed."))
        if Appeal.objects.filter(penalty=locked, kind=Appeal.Kind.WRITTEN).exists():
            raise UserError(_("You already appealed this penalty."))
        appeal = Appeal.objects.create(
            penalty=locked,
            kind=Appeal.Kind.WRITTEN,
            statement=statement,
            submitted_by=user,
            deadline=window.deadline,
        )
        audit(
            locked.event,
            user,
            "appeal.written",
            lifecycle.audit_target(locked),
            after={"deadline": window.deadline.isoformat()},
            about=locked,
        )

        if shown_publicly(locked):
            # Under appeal it leaves the public standings document (public_penalties).
            page_cache.invalidate(locked.event, seating=False)
    return appeal


def written_appeals(event: Event):
    """The event's written appeals, pending first, then the newest."""
    return (
        Appeal.objects.filter(penalty__event=event, kind=Appeal.Kind.WRITTEN)
        .select_related("penalty__person", "penalty__event", "submitted_by", "decided_by")
        .order_by("-submitted_at")
    )


def pending_written_appeals_for(user, exclude_event: Event | None = None):
    """Pending written appeals ``user`` may decide, oldest first: superusers all; the
    national authority of a ruleset (``events.AuthorityRole``) those of its ruleset's
    events, except events where it holds a staff role (event or organisation role) — no
    one decides the appeals against their own event (MyL conduct rules §4.5; issue 12).
    Anyone else: none."""

    qs = Appeal.objects.filter(kind=Appeal.Kind.WRITTEN, decision="")
    if not getattr(user, "is_superuser", False):
        rulesets = authority_rulesets(user)
        if not rulesets:
            return qs.none()
        orgs = OrganisationRole.objects.filter(user=user).values("organisation")
        events = EventRole.objects.filter(user=user).values("event")
        qs = qs.filter(penalty__event__ruleset__in=rulesets).exclude(
            Q(penalty__event__organisation__in=orgs) | Q(penalty__event__in=events)
        )
    if exclude_event is not None:
        qs = qs.exclude(penalty__event=exclude_event)
    return qs.select_related("penalty__event", "penalty__person").order_by("submitted_at")


def decide_written_appeal(appeal: Appeal, decision: str, reason: str, actor) -> Appeal:
    """The Organised Play manager confirms or reverts the penalty, with reasons; a revert
    voids it and undoes what it touched (sanction lifted, registration restored, game loss
    out of the standings). ``actor`` must be a superuser or the authority of the event's
    ruleset with no staff role on that event (``events.access.may_decide_appeals``; MyL
    conduct rules §4.5): ``UserError`` otherwise, nothing saved."""

    reason = check_free_text(reason, field_label(Appeal, "decision_reason"), field="reason").strip()
    if decision not in (Appeal.Decision.CONFIRMED, Appeal.Decision.REVERTED):
        raise UserError(_("Choose: confirm or revert the penalty."))
    if not reason:
        raise UserError(_("Give the reasons for the decision."))
    with transaction.atomic():
        appeal = (
            Appeal.objects.select_for_update()
            .select_related("penalty__event", "penalty__person")
            .get(pk=appeal.pk)
        )
        if appeal.kind != Appeal.Kind.WRITTEN:
            raise UserError(_("Not a written appeal."))
        if not may_decide_appeals(actor, appeal.penalty.event):
            raise UserError(
                _(
                    "Only the national Organised Play manager decides written appeals, "
                    "and never on an event where they hold a staff role."
                )
            )
        if appeal.decision:
            raise UserError(_("This appeal is already decided."))
        appeal.decision = decision
        appeal.decision_reason = reason
        appeal.decided_by = lifecycle.signed_in(actor)
        appeal.decided_at = timezone.now()
        appeal.save(update_fields=["decision", "decision_reason", "decided_by", "decided_at"])
        penalty = appeal.penalty
        audit(
            penalty.event,
            actor,
            "appeal.decide",
            lifecycle.audit_target(penalty),
            after={"decision": decision},
            comment=reason,
            about=penalty,
        )
        if decision == Appeal.Decision.REVERTED and penalty.status != Penalty.Status.VOIDED:
            _void_on_appeal(penalty, _("Reverted on written appeal: %(r)s") % {"r": reason}, actor)
        else:
            if decision == Appeal.Decision.CONFIRMED:
                lifecycle.notify_decision(penalty, "confirmed_on_appeal")
            if shown_publicly(penalty):
                # Final again: back in the public standings document (public_penalties).
                page_cache.invalidate(penalty.event, seating=False)
    return appeal
