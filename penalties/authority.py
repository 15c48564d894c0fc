"""The national authority over sanctions that reach beyond their event (issue 12): the
Mitos y Leyendas Organised Play manager (MyL conduct rules §4.5) and the VEKN national
coordinator (``events.models.AuthorityRole``). The ORM adapter of
``penalties.sanction_rules``: confirm a sanction so that it blocks every organisation's
events of its ruleset, lift one with a reason, escalate a confirmed VEKN disqualification
into a suspension or a permanent ban; and the lists the authority page and the
organisers' players page show.

Every change locks the row (``select_for_update``), checks its state (a double submit
changes nothing and says so) and is written to the audit log of the penalty's event
(``events.audit.audit``). Documented in docs/rules-myl-penalties.md and
docs/rules-vekn-penalties.md ("Sanctions beyond the event").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from events.access import authority_rulesets, holds_staff_role
from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from events.models import Event, EventRole
from events.permissions import AUTHORITIES
from events.sanctions import SANCTION_RELATED, sanction_summary
from penalties.appeal_dates import appeal_window, today
from penalties.models import Appeal, Level, Penalty, Sanction
from penalties.sanction_rules import BLOCKING, Reach

LIST_LIMIT = 200
"""At most this many rows per list on the authority page (oldest pending first)."""


@dataclass(frozen=True)
class Outcome:
    """What an authority action did: ``changed`` False when the row already was in the
    asked state (a double submit); ``sanction`` the row as it is now."""

    sanction: Sanction
    changed: bool


def _actor(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def _require_authority(actor, ruleset: str) -> None:
    if ruleset not in authority_rulesets(actor):
        raise UserError(
            _("Only the national authority of this ruleset can do this."), field="sanction"
        )


def _target(s: Sanction) -> str:
    return f"{s.person.name} — {s.get_kind_display()}"


def _audit(s: Sanction, actor, action: str, *, after=None, comment: str = "") -> None:
    event = s.penalty.event if s.penalty_id else None
    audit(event, actor, action, _target(s), after=after, comment=comment, about=s)


def _lock(sanction_id: int) -> Sanction:
    try:
        return (
            Sanction.objects.select_for_update(of=("self",))
            .select_related("person", "penalty__event")
            .get(pk=sanction_id)
        )
    except Sanction.DoesNotExist:
        raise UserError(_("No such suspension or ban."), field="sanction") from None


def shown_as(s: Sanction) -> str:
    """A sanction's kind and days as a page shows them (``kind:YYYY-MM-DD:YYYY-MM-DD``,
    the last day empty for a ban): the confirm form sends it back, so that a sanction
    changed since the page was loaded is not confirmed unseen."""
    until = s.ends_on.isoformat() if s.ends_on else ""
    return f"{s.kind}:{s.starts_on.isoformat()}:{until}"


def confirm_sanction(sanction_id: int, actor, *, expected: str | None = None) -> Outcome:
    """The authority of the sanction's ruleset confirms it: from now on it blocks the
    events of that ruleset of every organisation (``penalties.sanction_rules``).
    ``UserError``: not the authority, unknown or lifted sanction, or an authority on the
    staff of the event that gave it (no one extends their own event's sanction,
    docs/rules-myl-penalties.md "Sanctions beyond the event"; superusers excepted).
    Already confirmed: nothing changes (``changed`` False)."""
    with transaction.atomic():
        s = _lock(sanction_id)
        _require_authority(actor, s.ruleset)
        if (
            s.penalty_id
            and not getattr(actor, "is_superuser", False)
            and holds_staff_role(actor, s.penalty.event)
        ):
            raise UserError(
                _(
                    "You are on the staff of the event that gave this sanction: another "
                    "authority or a platform administrator confirms it."
                ),
                field="sanction",
            )
        if s.lifted_at is not None:
            raise UserError(_("This suspension or ban was lifted."), field="sanction")
        if s.confirmed_at is not None:
            return Outcome(s, False)
        if expected is not None and expected != shown_as(s):
            raise UserError(
                _(
                    "This suspension or ban changed since the page was loaded (its days "
                    "or kind): look at it again before confirming it."
                ),
                field="sanction",
            )
        s.confirmed_by = _actor(actor)
        s.confirmed_at = timezone.now()
        s.save(update_fields=["confirmed_by", "confirmed_at"])
        _audit(s, actor, "sanction.confirm", after={"ruleset": s.ruleset, "kind": s.kind})
    return Outcome(s, True)


def lift_sanction(sanction_id: int, reason: str, actor) -> Outcome:
    """The authority lifts a sanction (pending or confirmed) with a reason: it blocks
    nothing any more; the row stays, with who lifted it and why. ``UserError``: not the
    authority, no reason or a reason over the free-text limit, unknown sanction. Already
    lifted: nothing changes."""
    reason = check_free_text(reason, field_label(Sanction, "lift_reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason for lifting it."), field="reason")
    with transaction.atomic():
        s = _lock(sanction_id)
        _require_authority(actor, s.ruleset)
        if s.lifted_at is not None:
            return Outcome(s, False)
        s.lifted_at = timezone.now()
        s.lifted_by = _actor(actor)
        s.lift_reason = reason
        s.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        _audit(
            s,
            actor,
            "sanction.lift",
            after={"ruleset": s.ruleset, "kind": s.kind, "by": "authority"},
            comment=reason,
        )
    return Outcome(s, True)


def escalate_disqualification(
    penalty_id: int,
    *,
    kind: str,
    reason: str,
    actor,
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
) -> Outcome:
    """The VEKN national coordinator turns a confirmed disqualification into a
    suspension (first and last day) or a permanent ban (from the penalty's day unless
    ``starts_on`` says otherwise), with a reason: a ``Sanction(ruleset="vekn")`` linked to
    the disqualification, confirmed at creation by the coordinator, no issuing
    organisation **[choice]** (docs/rules-vekn-penalties.md). ``UserError`` for a
    penalty that is not a live VEKN disqualification, bad dates or no reason. A second
    submit finds the live sanction and changes nothing."""
    reason = check_free_text(reason, field_label(Sanction, "reason"), field="reason").strip()
    if kind not in Sanction.Kind.values:
        raise UserError(_("Choose a suspension or a permanent ban."), field="kind")
    if not reason:
        raise UserError(_("Give the reason for the escalation."), field="reason")
    if kind == Sanction.Kind.SUSPENSION:
        if starts_on is None or ends_on is None:
            raise UserError(_("Give the suspension's first and last day."), field="ends_on")
        if ends_on < starts_on:
            raise UserError(
                _("The suspension's last day is before its first day."), field="ends_on"
            )
    escalating = {r for r, a in AUTHORITIES.items() if a.escalates_disqualifications}
    if not escalating & authority_rulesets(actor):
        _require_authority(actor, next(iter(sorted(escalating)), ""))
    with transaction.atomic():
        try:
            p = (
                Penalty.objects.select_for_update(of=("self",))
                .select_related("event", "person")
                .get(pk=penalty_id)
            )
        except Penalty.DoesNotExist:
            raise UserError(_("No such disqualification."), field="penalty") from None
        if not (
            p.ruleset in escalating
            and p.level == Level.DISQUALIFICATION
            and p.status == Penalty.Status.CONFIRMED
            and not p.is_linked
        ):
            raise UserError(
                _("Only a confirmed VEKN disqualification can be escalated."), field="penalty"
            )
        _require_authority(actor, p.ruleset)
        live = Sanction.objects.filter(penalty=p, lifted_at__isnull=True).first()
        if live is not None:
            return Outcome(live, False)
        day = starts_on or timezone.localdate(p.created_at, p.event.zone)
        s = Sanction.objects.create(
            person_id=p.person_id,
            kind=kind,
            starts_on=day,
            ends_on=ends_on if kind == Sanction.Kind.SUSPENSION else None,
            penalty=p,
            reason=reason,
            ruleset=p.ruleset,
            organisation=None,
            confirmed_by=_actor(actor),
            confirmed_at=timezone.now(),
            created_by=_actor(actor),
        )
        s.person = p.person
        _audit(
            s,
            actor,
            "sanction.escalate",
            after={
                "kind": kind,
                "from": day.isoformat(),
                "until": s.ends_on.isoformat() if s.ends_on else None,
            },
            comment=reason,
        )
    return Outcome(s, True)


# --------------------------------------------------------------------------- the event's hands off
def confirmed_hold(penalty: Penalty, actor=None) -> Sanction | None:
    """The unlifted sanction of ``penalty`` that the national authority confirmed (a MyL
    suspension or ban confirmed by the Organised Play manager, a VEKN escalation by the
    national coordinator), or ``None``; always ``None`` for a superuser. While there is
    one, the event's staff cannot void the penalty or change its level or dates: only
    the authority lifts it (its page) or decides the player's written appeal
    (docs/rules-myl-penalties.md "Sanctions beyond the event" **[choice]**)."""
    if getattr(actor, "is_superuser", False):
        return None
    return (
        Sanction.objects.filter(
            penalty_id=penalty.pk, lifted_at__isnull=True, confirmed_at__isnull=False
        )
        .order_by("-confirmed_at", "-id")
        .first()
    )


def hold_words(sanction: Sanction) -> str:
    """Why the event's staff can no longer void or change the penalty, in words."""
    return _(
        "The national authority confirmed this %(kind)s: only it can lift it (its "
        "Suspensions and bans page) or decide the player's written appeal. The event's "
        "staff cannot void or change this penalty."
    ) % {"kind": sanction.get_kind_display().lower()}


def refuse_if_confirmed(penalty: Penalty, actor=None) -> None:
    """``UserError`` (:func:`hold_words`) when ``penalty`` has a sanction the national
    authority confirmed (:func:`confirmed_hold`); superusers pass."""
    held = confirmed_hold(penalty, actor)
    if held is not None:
        raise UserError(hold_words(held), field="penalty")


# --------------------------------------------------------------------------- lists
def _live(today: dt.date):
    return Q(lifted_at__isnull=True) & (Q(ends_on__isnull=True) | Q(ends_on__gte=today))


def live_sanctions(today: dt.date):
    """Sanctions not lifted and not over on ``today`` (a queryset): the ones the
    authority page lists (and the navigation's badge counts, ``penalties.badges``)."""
    return Sanction.objects.filter(_live(today))


def _with_appeals(qs):
    return qs.select_related("person", *SANCTION_RELATED).prefetch_related(
        Prefetch(
            "penalty__appeals",
            queryset=Appeal.objects.select_related("decided_by").order_by("submitted_at"),
        )
    )


def _staffed_events(user) -> frozenset[int]:
    """Ids of the events where ``user`` holds a staff role (on the event or on its
    organisation); superusers: none (they may confirm anything). Two queries."""
    if getattr(user, "is_superuser", False) or not getattr(user, "is_authenticated", False):
        return frozenset()
    own = set(EventRole.objects.filter(user=user).values_list("event_id", flat=True))
    own |= set(Event.objects.filter(organisation__roles__user=user).values_list("id", flat=True))
    return frozenset(own)


def authority_lists(user, today: dt.date | None = None) -> dict[str, dict]:
    """For each ruleset ``user`` is the authority of: ``pending`` (sanctions of every
    organisation's events waiting for confirmation, oldest first), ``confirmed`` (live
    confirmed ones, newest first) and for VEKN ``escalatable`` (confirmed
    disqualifications with no sanction yet, newest first). Bounded: a fixed number of
    queries whatever the rows (at most :data:`LIST_LIMIT` each)."""
    today = today or timezone.localdate()
    out: dict[str, dict] = {}
    staffed = _staffed_events(user)
    for ruleset in sorted(authority_rulesets(user)):
        live = _with_appeals(Sanction.objects.filter(_live(today), ruleset=ruleset))
        pending = list(live.filter(confirmed_at__isnull=True).order_by("created_at", "id"))
        confirmed = list(
            live.filter(confirmed_at__isnull=False).order_by("-confirmed_at", "-id")[:LIST_LIMIT]
        )
        for s in pending[:LIST_LIMIT] + confirmed:
            _describe(s)
            # Confirmed by someone else: the user is on the staff of the event that gave it
            # (:func:`confirm_sanction` refuses them).
            s.own_event = bool(s.penalty_id) and s.penalty.event_id in staffed
            s.shown_as = shown_as(s)
        entry = {"pending": pending[:LIST_LIMIT], "confirmed": confirmed}
        if AUTHORITIES[ruleset].escalates_disqualifications:
            entry["escalatable"] = list(
                Penalty.objects.filter(
                    ruleset=ruleset,
                    level=Level.DISQUALIFICATION,
                    status=Penalty.Status.CONFIRMED,
                    is_linked=False,
                )
                .exclude(Exists(Sanction.objects.filter(penalty=OuterRef("pk"))))
                .select_related("person", "event__organisation", "confirmed_by", "reported_by")
                .order_by("-created_at", "-id")[:LIST_LIMIT]
            )
        out[ruleset] = entry
    return out


def appeal_state(s: Sanction) -> str:
    """The appeal state of a sanction's penalty, in words: none (for a MyL penalty,
    until when a written appeal may still be sent, §5.10); a written appeal pending (with
    its deadline); decided (by whom); the head judge's in-event decision. Needs
    ``penalty__event`` and ``penalty__appeals`` loaded (no query of its own)."""
    if s.penalty_id is None:
        return _("No appeal (given by the authority).")
    appeals = list(s.penalty.appeals.all())
    written = next((a for a in appeals if a.kind == Appeal.Kind.WRITTEN), None)
    in_event = next((a for a in appeals if a.kind == Appeal.Kind.IN_EVENT), None)
    parts = []
    if in_event is not None:
        parts.append(_("Appeal to the head judge: %(d)s.") % {"d": in_event.get_decision_display()})
    if written is not None and not written.decision:
        parts.append(
            _("Written appeal pending (deadline %(d)s).")
            % {"d": written.deadline.isoformat() if written.deadline else "—"}
        )
    elif written is not None:
        parts.append(
            _("Written appeal decided: %(d)s by %(who)s.")
            % {
                "d": written.get_decision_display(),
                "who": written.decided_by.get_full_name() or written.decided_by.get_username()
                if written.decided_by
                else "—",
            }
        )
    if written is None and AUTHORITIES[s.penalty.ruleset].written_appeals:
        # MyL conduct rules §5.10: the written appeal is open for 5 business days.
        deadline = appeal_window(s.penalty).deadline
        if today(s.penalty.event) <= deadline:
            parts.append(
                _("No written appeal yet: the player may send one until %(d)s.")
                % {"d": deadline.isoformat()}
            )
    return " ".join(str(p) for p in parts) or _("No appeal.")


def _describe(s: Sanction) -> Sanction:
    s.summary = sanction_summary(s)
    s.appeal_words = appeal_state(s)
    return s


def reach_words(reach: Reach) -> str:
    """Whether and why a sanction blocks an event, in the active language."""
    words = {
        Reach.OTHER_RULESET: _(
            "Does not block this event: a sanction of the other ruleset (context only)."
        ),
        Reach.PENDING_AUTHORITY: _(
            "Does not block this event yet: another organisation gave it and the "
            "authority has not confirmed it."
        ),
        Reach.ISSUING_ORGANISATION: _("Blocks this event: given by this organisation."),
        Reach.CONFIRMED: _("Blocks this event: confirmed by the national authority."),
        Reach.OUTSIDE_PERIOD: _("Does not block this event: not on its date."),
        Reach.LIFTED: _("Lifted."),
    }
    return str(words[reach])


def sanctions_of_players(event: Event) -> dict[int, list[Sanction]]:
    """Each live sanction (any ruleset, any organisation) of the people registered in
    ``event``, by person id, newest first; each with ``summary`` (kind, ruleset, issuing
    event and organisation, who gave it, the authority's confirmation or that it waits
    for it), ``appeal_words``, ``reach``, ``blocks_here`` and ``reach_words`` (whether
    and why it blocks this event). Two queries whatever the number of players."""
    qs = _with_appeals(
        Sanction.objects.filter(
            _live(min(event.date, timezone.localdate())), person__registrations__event=event
        )
    ).order_by("-starts_on", "-id")
    out: dict[int, list[Sanction]] = {}
    for s in qs:
        _describe(s)
        s.reach = s.reach_for(event)
        s.blocks_here = s.reach in BLOCKING
        s.reach_words = reach_words(s.reach)
        out.setdefault(s.person_id, []).append(s)
    return out
