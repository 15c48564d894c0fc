"""The penalty lifecycle both rule engines share, written once: the VEKN judges' guide
adapter (``penalties.services``) and the Mitos y Leyendas one (``penalties.myl_services``)
call it, each handing in what differs (an :class:`Engine`, and a hook per step).

What lives here (docs/architecture.md "The ruleset seam"; docs/rules-vekn-penalties.md and
docs/rules-myl-penalties.md "How a penalty is proposed"):

- :class:`PenaltyAdapter`, the functions every penalties adapter named in
  ``events.rulesets`` offers (the pages, the offline tablet's sync and the VEKN adapter's
  hand-over call them through ``rulesets.of(x).adapter("penalties")``);
- logging once per ``client_id`` (:func:`replay`, :func:`log_once`), the registration row
  lock with the duplicate-offence guard (:func:`lock_registration`,
  ``penalties.duplicates``) and the offline times (:func:`offline_times`);
- the penalty row lock with the stale-page check (:func:`lock`, :func:`state_token`), the
  "results approved" refusal (:func:`ensure_open`, JG §1.2.5);
- the head judge's confirm, change and void (:func:`confirm`, :func:`change_level`,
  :func:`void`; JG §1.2.2: a penalty a floor judge may not give alone waits for the head
  judge), with their audit entries (:func:`audit_target`, :func:`snapshot`,
  ``events.audit``) and what a void undoes (:func:`lift_sanctions`,
  :func:`restore_registration`);
- the history queries (:func:`event_penalties`, :func:`earlier_events`,
  :func:`other_ruleset_penalties`).

Each function runs inside the caller's transaction unless it says it opens one; none
knows a ruleset's rules.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from events import cache as page_cache
from events import notifications, notify_rules
from events.audit import audit
from events.errors import ConflictError, UserError
from events.limits import check_free_text, field_label
from events.models import Event, Person, Registration, Table
from penalties import duplicates
from penalties.authority import refuse_if_confirmed
from penalties.models import Level, Penalty, Sanction, Timing


# --------------------------------------------------------------------------- the protocol
@dataclass(frozen=True)
class Logged:
    """What ``log_penalty`` gives back: the ``penalty`` and whether this call ``created``
    it (``False``: the same ``client_id`` was received before, the saved one is returned)."""

    penalty: Penalty
    created: bool


class PenaltyAdapter(Protocol):
    """The functions every penalties adapter module offers (``events.rulesets``, role
    ``"penalties"``: ``penalties.services`` for VEKN, ``penalties.myl_services`` for Mitos
    y Leyendas). An adapter may add keyword parameters with defaults; it may not drop one
    of these, nor give ``perms`` a default (every service checks the caller's permissions
    itself, docs/architecture.md "Rules of the house"). ``tests/penalties/services/test_lifecycle.py``
    checks each registered adapter against it."""

    def infraction(self, code: str) -> Any:
        """The engine's infraction ``code``; ``UserError`` if unknown."""

    def preview(self, event: Event, registration: Registration, code: str, conditions: dict):
        """What the rules give for this person's next offence of ``code`` (nothing saved);
        ``UserError`` for an unknown code or a missing answer."""

    def earlier_events(self, event: Event, person: Person) -> list[Penalty]:
        """The person's penalties of this ruleset in other events up to this one's date."""

    def other_ruleset_penalties(self, event: Event, person: Person) -> dict:
        """``{ruleset code: count}`` of the person's other rulesets' penalties (context)."""

    def log_penalty(
        self,
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
        external_id: str = "",
        logged_at=None,
        again: bool = False,
    ) -> Logged:
        """Record one incident, idempotent by ``client_id``; ``UserError`` (also
        ``DuplicateOffence``) for what the judge can fix."""

    def confirm(
        self, penalty: Penalty, actor=None, *, perms: frozenset, expected: str | None = None
    ) -> Penalty:
        """The head judge confirms a pending penalty (JG §1.2.2); ``PermissionDenied``
        without ``confirm_penalties`` in ``perms``."""

    def change_level(
        self,
        penalty: Penalty,
        level: str,
        reason: str,
        actor=None,
        *,
        perms: frozenset,
        expected: str | None = None,
    ) -> Penalty:
        """The head judge gives ``level`` instead, with a reason (``perms`` as
        :meth:`confirm`)."""

    def void(
        self,
        penalty: Penalty,
        reason: str,
        actor=None,
        *,
        perms: frozenset,
        expected: str | None = None,
    ) -> Penalty:
        """Void a penalty with a reason; it stays in the history (``perms`` as
        :meth:`confirm`)."""

    def apply_effects(self, p: Penalty) -> None:
        """The effects of a confirmed penalty on the registration (and sanctions)."""

    def state_token(self, penalty: Penalty) -> str:
        """What the head judge's form was loaded with (:func:`state_token`)."""


@dataclass(frozen=True)
class Engine:
    """What differs between two rulesets' penalty lifecycles, handed to the shared steps.

    - ``code``: the ruleset code its penalties are stored with;
    - ``levels``: the levels its penalties can have (``penalties.models.Level`` values);
    - ``removes_player(p)``: whether ``p``, as stored, keeps the player out of the event
      (VEKN: a disqualification; MyL: a confirmed disqualification, or a suspension or ban
      given with one);
    - ``removing_levels``: the levels a penalty can have for ``removes_player`` to hold;
    - ``snapshot(p)``: the audit entry's before/after of a penalty (:func:`snapshot`);
    - ``reassess(event, person, actor, reason)``: recompute the person's remaining
      penalties of the event after a void (offence numbers drop);
    - ``differs``: the message asking why the level differs from the rules' (translated);
    - ``owns(locked)``: raise ``UserError`` when the locked penalty is not this engine's
      (``None``: any penalty reaching it is).
    """

    code: str
    levels: tuple[str, ...]
    removes_player: Callable[[Penalty], bool]
    removing_levels: tuple[str, ...]
    snapshot: Callable[[Penalty], dict]
    reassess: Callable[[Event, Person, Any, str], None]
    differs: Callable[[], str]
    owns: Callable[[Penalty], None] | None = None


def require(perms: frozenset, permission) -> None:
    """Refuse with ``django.core.exceptions.PermissionDenied`` (HTTP 403) unless
    ``permission`` (an ``events.permissions.Permission``) is in ``perms``, the caller's
    permissions in the event (``events.access.user_permissions``). Each service checks its
    own permission (docs/architecture.md "Rules of the house"); the pages check it too, to hide
    what a person may not do."""
    if permission not in perms:
        raise PermissionDenied


def signed_in(actor):
    """``actor`` when it is a signed-in user (stored as who did it), else ``None``."""
    return actor if getattr(actor, "is_authenticated", False) else None


# --------------------------------------------------------------------------- audit
def audit_target(p: Penalty) -> str:
    """The audit target of a penalty: its id first (two penalties for the same section on
    the same person must not share a history), then the section and the person; at most
    200 characters. The entry also names the penalty (``about=``, ``events.audit``)."""
    return f"#{p.pk} {p.infraction} {p.person.name}"[:200]


def snapshot(p: Penalty, *, also: bool = False) -> dict:
    """The penalty's fields an audit entry keeps before and after a change: infraction,
    level, guide level, offence, status, conditions, round, timing, deviation reason,
    linked; with ``also`` the list of what comes with the level (MyL: a disqualification
    with a suspension or ban)."""
    data = {
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
    if also:
        data["also"] = list(p.also or [])
    return data


# --------------------------------------------------------------------------- history
def event_penalties(event: Event, person: Person, ruleset: str) -> QuerySet[Penalty]:
    """The person's penalties of ``ruleset`` in ``event``, oldest first (``created_at``,
    then id), voided ones left out: the history an escalation counts (JG §1.2.1; MyL
    MyL conduct §2.1–§3.4.3; docs/rules-myl-penalties.md "How a penalty is proposed")."""
    return (
        Penalty.objects.filter(event=event, person=person, ruleset=ruleset)
        .exclude(status=Penalty.Status.VOIDED)
        .order_by("created_at", "id")
    )


def earlier_events(
    event: Event, person: Person, ruleset: str, *, without: Iterable[str] = ()
) -> list[Penalty]:
    """The person's penalties of ``ruleset`` in other events held up to ``event``'s date,
    newest event first (then the newest penalty), voided and linked ones left out, and
    those of the levels ``without`` (VEKN: cautions, JG §1.2.1). One query; the event is
    selected with each."""
    qs = (
        Penalty.objects.filter(
            person=person, ruleset=ruleset, event__date__lte=event.date, is_linked=False
        )
        .exclude(event=event)
        .exclude(status=Penalty.Status.VOIDED)
    )
    if without := list(without):
        qs = qs.exclude(level__in=without)
    return list(qs.select_related("event").order_by("-event__date", "-created_at", "-id"))


def other_ruleset_penalties(event: Event, person: Person, ruleset: str) -> dict:
    """How many penalties ``person`` has under the rulesets other than ``ruleset``, in
    events held up to ``event``'s date, voided and linked ones and cautions left out:
    ``{ruleset code: count}``, ``{}`` when none. One query. Context for the judge only
    ("also has 2 Mitos y Leyendas penalties"), never input to an escalation (issue 12;
    docs/rules-vekn-penalties.md, docs/judging-myl.md **[choice]**)."""
    rows = (
        Penalty.objects.filter(person=person, event__date__lte=event.date, is_linked=False)
        .exclude(event=event)
        .exclude(ruleset=ruleset)
        .exclude(status=Penalty.Status.VOIDED)
        .exclude(level=Level.CAUTION)
        .values("ruleset")
        .annotate(n=Count("id"))
        .order_by("ruleset")
    )
    return {row["ruleset"]: row["n"] for row in rows}


# --------------------------------------------------------------------------- logging
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
    one guard every way of logging (web form, offline sync, API, both rulesets) goes
    through, by :func:`lock_registration`."""
    earlier = recent_duplicate(event, person, code, client_id=client_id, at=at, again=again)
    if earlier is not None:
        raise DuplicateOffence(earlier, event, person, code)


def replay(event: Event, client_id: uuid.UUID) -> Logged | None:
    """The penalty already saved with ``client_id`` (``Logged(…, created=False)``: a
    second submission of the same form or tablet entry), or ``None``. ``UserError`` when
    that submission belongs to another event."""
    existing = Penalty.objects.filter(client_id=client_id).first()
    if existing is None:
        return None
    if existing.event_id != event.pk:
        raise UserError(_("This submission belongs to another event."))
    return Logged(existing, False)


def log_once(client_id: uuid.UUID, write: Callable[[], Penalty]) -> Logged:
    """Run ``write`` (which saves one penalty with ``client_id``) in one transaction:
    ``Logged(penalty, True)``. When the same ``client_id`` was saved meanwhile by another
    request (the unique constraint refuses the second), that one: ``created=False``."""
    try:
        with transaction.atomic():
            penalty = write()
    except IntegrityError:
        existing = Penalty.objects.filter(client_id=client_id).first()
        if existing is None:
            raise
        return Logged(existing, False)
    return Logged(penalty, True)


def clean_entry_texts(deviation_reason: str, description: str) -> tuple[str, str]:
    """The incident's deviation reason (stripped) and description, each checked against
    ``events.limits.FREE_TEXT_MAX_LENGTH`` (``UserError`` naming the field)."""
    deviation_reason = check_free_text(
        deviation_reason, field_label(Penalty, "deviation_reason"), field="deviation_reason"
    ).strip()
    description = check_free_text(
        description, field_label(Penalty, "description"), field="description"
    )
    return deviation_reason, description


def check_timing(timing: str) -> None:
    """``UserError`` unless ``timing`` is one of ``penalties.models.Timing``."""
    if timing not in Timing.values:
        raise UserError(_("Unknown timing."))


def lock_registration(
    event: Event, registration: Registration, code: str, *, client_id, logged_at, again: bool
) -> tuple[Registration, Event]:
    """Inside the logging transaction: the registration re-read under a row lock (two
    judges logging the same person at once are counted one after the other), the
    duplicate-offence guard (:func:`refuse_duplicate`, after the lock so two simultaneous
    entries of one incident keep one), and the event re-read (its "results approved"
    flag as it is now)."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("person")
        .get(pk=registration.pk, event=event)
    )
    refuse_duplicate(
        event, registration.person, code, client_id=client_id, at=logged_at, again=again
    )
    return registration, Event.objects.get(pk=event.pk)


def decided_by(actor, status: str) -> dict:
    """The ``Penalty`` fields of who logged it and, when ``status`` is confirmed at once,
    who confirmed it and when."""
    confirmed = status == Penalty.Status.CONFIRMED
    return {
        "reported_by": signed_in(actor),
        "confirmed_by": signed_in(actor) if confirmed else None,
        "confirmed_at": timezone.now() if confirmed else None,
    }


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


def audit_logged(penalty: Penalty, actor, logged_at, engine: Engine) -> None:
    """The ``penalty.log`` audit entry of a penalty just saved, with its offline times
    (:func:`offline_times`)."""
    offline = offline_times(penalty, logged_at)
    audit(
        penalty.event,
        actor,
        "penalty.log",
        audit_target(penalty),
        after=engine.snapshot(penalty) | offline,
        about=penalty,
    )


# --------------------------------------------------------------------------- the head judge
def ensure_open(event: Event) -> None:
    """Nothing that changes the standings once the event's results are approved (JG
    §1.2.5): ``UserError`` asking to reopen them first. Reads the row (not ``event``'s
    possibly stale copy)."""
    if Event.objects.filter(pk=event.pk, results_approved=True).exists():
        raise UserError(_("The event's results are approved: reopen them first."))


def state_token(penalty: Penalty) -> str:
    """What the head judge's form was loaded with (level, status, deviation reason), as
    ``"level:status:reason"``: a change posted from a stale page is refused instead of
    silently overwriting someone else's (:func:`lock`)."""
    return f"{penalty.level}:{penalty.status}:{penalty.deviation_reason}"


def lock(penalty: Penalty, expected: str | None = None, *, engine: Engine | None = None) -> Penalty:
    """The penalty re-read under a row lock (inside the caller's transaction), with its
    person, event and registration. ``engine.owns`` refuses another engine's penalty
    (``UserError``); with ``expected`` (a :func:`state_token`), ``ConflictError`` when it
    changed meanwhile."""
    locked = (
        Penalty.objects.select_for_update()
        .select_related("person", "event", "registration")
        .get(pk=penalty.pk)
    )
    if engine is not None and engine.owns is not None:
        engine.owns(locked)
    if expected is not None and state_token(locked) != expected:
        raise ConflictError(
            _("Someone changed this penalty while you were looking at it: check it again.")
        )
    return locked


def confirm(
    penalty: Penalty,
    actor,
    *,
    expected: str | None,
    engine: Engine,
    effects: Callable[[Penalty], None],
) -> Penalty:
    """The head judge confirms a pending penalty (JG §1.2.2; MyL: a DQ, suspension or ban
    logged by a floor judge): ensure open, lock (stale token → ``ConflictError``), status
    confirmed with who and when, ``effects(penalty)`` (the engine's: a DQ removes the
    player, a sanction is created), the ``penalty.confirm`` audit entry, the public pages
    made stale. One transaction. ``UserError`` when it is not pending."""
    ensure_open(penalty.event)
    with transaction.atomic():
        penalty = lock(penalty, expected, engine=engine)
        if penalty.status != Penalty.Status.PENDING:
            raise UserError(_("This penalty is not pending."))
        before = engine.snapshot(penalty)
        penalty.status = Penalty.Status.CONFIRMED
        penalty.confirmed_by = signed_in(actor)
        penalty.confirmed_at = timezone.now()
        penalty.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        effects(penalty)
        notify_decision(penalty, "confirmed")
        audit(
            penalty.event,
            actor,
            "penalty.confirm",
            audit_target(penalty),
            before,
            engine.snapshot(penalty),
            about=penalty,
        )
        page_cache.invalidate(penalty.event)
    return penalty


DECISION_WORDS = {
    "confirmed": pgettext_lazy("penalty decision", "confirmed"),
    "changed": pgettext_lazy("penalty decision", "changed"),
    "voided": pgettext_lazy("penalty decision", "voided"),
    "confirmed_on_appeal": pgettext_lazy("penalty decision", "confirmed on appeal"),
    "voided_on_appeal": pgettext_lazy("penalty decision", "voided on appeal"),
}


def notify_decision(penalty: Penalty, decision: str) -> None:
    """Tell the penalised player, if they have an account and opted in to
    ``penalty_decision``, that the penalty was ``decision`` (a key of
    :data:`DECISION_WORDS`): queued after the transaction commits, never to a webhook
    (docs/notifications.md). JG §1.2.2; MyL conduct §4.5, §5.10 (an appeal decided:
    ``confirmed_on_appeal``, ``voided_on_appeal``)."""
    user_id = Person.objects.filter(pk=penalty.person_id).values_list("user_id", flat=True).first()
    if user_id is None:
        return
    event = penalty.event
    with notifications.site_language():
        notice = notify_rules.penalty_decided(
            event.name,
            str(DECISION_WORDS[decision]),
            penalty.get_level_display(),
            penalty.infraction_name or penalty.infraction,
            notifications.absolute(reverse("my-sanctions")),
        )
    notifications.notify_users(
        notice, [user_id], organisation_id=event.organisation_id, webhooks=False
    )


def clean_change(level: str, reason: str, engine: Engine) -> str:
    """The reason of a change of level, checked against ``events.limits`` (``UserError``
    naming the field) and stripped; ``UserError`` for a level not in ``engine.levels``."""
    reason = check_free_text(reason, field_label(Penalty, "deviation_reason"), field="reason")
    if level not in engine.levels:
        raise UserError(_("Unknown level."))
    return reason.strip()


def change_level(
    penalty: Penalty,
    level: str,
    reason: str,
    actor,
    *,
    expected: str | None,
    engine: Engine,
    apply: Callable[[Penalty, bool], None],
    reassess: bool = False,
    also_changes: bool = False,
) -> Penalty:
    """A head-judge deviation after the fact: ``level`` instead, with ``reason`` (already
    checked by :func:`clean_change`, with ``level``). Ensure open, lock (stale token →
    ``ConflictError``); ``UserError`` for a voided penalty, for one whose sanction the
    national authority confirmed (``penalties.authority.refuse_if_confirmed``; superusers
    may) and for another level than the rules' without a reason. Then the level and the
    deviation reason are set and ``apply(penalty, removed)`` saves and syncs the effects
    (``removed``: whether it kept the player out before), the ``penalty.change`` audit
    entry is written, with ``reassess`` the person's other penalties are recomputed, and
    the public pages are made stale. One transaction."""
    ensure_open(penalty.event)
    with transaction.atomic():
        penalty = lock(penalty, expected, engine=engine)
        if penalty.status == Penalty.Status.VOIDED:
            raise UserError(_("A voided penalty cannot change."))
        refuse_if_confirmed(penalty, actor)
        if level != penalty.guide_level and not reason:
            raise UserError(engine.differs())
        kept_reason = reason if level != penalty.guide_level else ""
        if not also_changes and level == penalty.level and kept_reason == penalty.deviation_reason:
            # A change of nothing is refused, not written to the history.
            raise UserError(_("Nothing changed: the penalty already has this level and reason."))
        before = engine.snapshot(penalty)
        removed = engine.removes_player(penalty)
        penalty.level = level
        penalty.deviation_reason = reason if level != penalty.guide_level else ""
        apply(penalty, removed)
        notify_decision(penalty, "changed")
        after = engine.snapshot(penalty)
        audit(
            penalty.event,
            actor,
            "penalty.change",
            audit_target(penalty),
            before,
            after,
            comment=reason,
            about=penalty,
        )
        if reassess:
            engine.reassess(penalty.event, penalty.person, actor, reason)
        page_cache.invalidate(penalty.event)
    return penalty


def reassess(
    event: Event,
    person: Person,
    actor,
    *,
    engine: Engine,
    prior: list,
    as_prior: Callable[[Penalty], Any],
    assess: Callable[[Penalty, list, list], Any],
    held: Callable[[Penalty], bool],
    refresh: Callable[[Penalty, Any, bool, bool], None],
) -> None:
    """Recompute the person's remaining penalties of ``engine``'s ruleset in ``event``, in
    order, after a void or a change (offence numbers drop; nothing stale). ``prior``: the
    earlier events' penalties as the engine reads them; ``as_prior(p)``: one penalty as
    the engine's history entry; ``assess(p, history, prior)``: what the rules give now,
    ``None`` when its stored answers no longer fit (it stays as it is); ``held(p)``: it
    stays as it is (the national authority's confirmed sanction, **[choice]**).

    A penalty whose level was a deviation keeps the level given; the others follow the
    rules. When the rules' level, the offence number or the level changes, the guide
    level, offence, level, baseline, explanation, source and context are refreshed, then
    ``refresh(p, assessment, deviated, removed)`` sets the rest, saves and syncs the
    effects (``removed``: whether it kept the player out before), and a
    ``penalty.reassess`` audit entry is written."""
    history: list = []
    for p in event_penalties(event, person, engine.code).select_related("event"):
        a = assess(p, history, prior)
        if a is None or held(p):
            history.append(as_prior(p))
            continue
        deviated = bool(p.deviation_reason)
        new_level = p.level if deviated else str(a.level)
        if (p.guide_level, p.offence, p.level) != (str(a.level), a.offence, new_level):
            before = engine.snapshot(p)
            removed = engine.removes_player(p)
            p.guide_level, p.offence, p.level = str(a.level), a.offence, new_level
            p.baseline, p.explanation, p.source = str(a.baseline), a.explanation, a.source
            p.context = list(a.context)
            refresh(p, a, deviated, removed)
            audit(
                event,
                actor,
                "penalty.reassess",
                audit_target(p),
                before,
                engine.snapshot(p),
                about=p,
            )
        history.append(as_prior(p))


def mark_voided(penalty: Penalty, reason: str, actor) -> None:
    """Store the void of a locked ``penalty`` (status, reason, who, when); :func:`void`
    undoes its effects and writes the audit entry."""
    penalty.status = Penalty.Status.VOIDED
    penalty.void_reason = reason
    penalty.voided_by = signed_in(actor)
    penalty.voided_at = timezone.now()
    penalty.save(update_fields=["status", "void_reason", "voided_by", "voided_at"])


def void(
    penalty: Penalty,
    reason: str,
    actor,
    *,
    expected: str | None,
    engine: Engine,
    by_appeal: bool = False,
) -> Penalty:
    """Void a penalty with a reason (it stays in the history): the reason checked
    (``events.limits``, not empty), ensure open, lock (stale token → ``ConflictError``),
    ``UserError`` when already voided or while the national authority's confirmed
    sanction is live (``penalties.authority.refuse_if_confirmed``; superusers may). Then:
    voided, its live sanctions lifted with the reason, the registration given back when
    the penalty kept the player out (``engine.removes_player``) and no other penalty does
    (:func:`restore_registration`), the ``penalty.void`` audit entry, the person's other
    penalties reassessed (``engine.reassess``), the public pages made stale. One
    transaction. ``by_appeal`` (MyL §4.5, §5.10): an appeal's revert, accepted after the
    results are approved and over the authority's confirmation."""
    reason = check_free_text(reason, field_label(Penalty, "void_reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Say why the penalty is voided."))
    if not by_appeal:
        ensure_open(penalty.event)
    with transaction.atomic():
        penalty = lock(penalty, expected, engine=engine)
        if penalty.status == Penalty.Status.VOIDED:
            raise UserError(_("Already voided."))
        if not by_appeal:
            refuse_if_confirmed(penalty, actor)
        before = engine.snapshot(penalty)
        removed = engine.removes_player(penalty)
        mark_voided(penalty, reason, actor)
        notify_decision(penalty, "voided_on_appeal" if by_appeal else "voided")
        lift_sanctions(penalty, actor, reason)
        if removed:
            restore_registration(penalty, engine)
        audit(
            penalty.event,
            actor,
            "penalty.void",
            audit_target(penalty),
            before,
            engine.snapshot(penalty),
            comment=reason,
            about=penalty,
        )
        engine.reassess(penalty.event, penalty.person, actor, reason)
        page_cache.invalidate(penalty.event)
    return penalty


def lift_sanctions(penalty: Penalty, actor, reason: str, *, keep: Iterable[Sanction] = ()) -> None:
    """Lift every live sanction of ``penalty`` but those in ``keep``, with ``reason``
    (who and when recorded), each with a ``sanction.lift`` audit entry: its suspension or
    ban ends with the penalty (a void, a change of level)."""
    kept = {s.pk for s in keep}
    for s in Sanction.objects.filter(penalty=penalty, lifted_at__isnull=True):
        if s.pk in kept:
            continue
        s.lifted_at = timezone.now()
        s.lifted_by = signed_in(actor)
        s.lift_reason = reason
        s.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        audit(
            penalty.event,
            actor,
            "sanction.lift",
            audit_target(penalty),
            {"kind": s.kind},
            comment=reason,
            about=penalty,
        )


def restore_registration(penalty: Penalty, engine: Engine) -> None:
    """Give the player back their place (disqualified → checked in) unless another
    confirmed penalty of the registration still keeps them out (``engine.removes_player``;
    VEKN JG §1.1.4, MyL conduct §4). One or two queries."""
    others = (
        Penalty.objects.filter(
            registration_id=penalty.registration_id,
            status=Penalty.Status.CONFIRMED,
            level__in=list(engine.removing_levels),
        )
        .exclude(pk=penalty.pk)
        .only("level", "also", "status", "is_linked")
    )
    if not any(engine.removes_player(o) for o in others):
        Registration.objects.filter(
            pk=penalty.registration_id, status=Registration.Status.DISQUALIFIED
        ).update(status=Registration.Status.CHECKED_IN)
