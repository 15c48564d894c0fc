"""Sending an event to the VEKN (docs/vekn-link.md "What is sent, and when"): its
calendar entry when the organiser announces it, its results (the report of TR §9,
``events.exports.archondata``) when they are approved (JG §1.2.5). Both are
:class:`~events.vekn_models.VeknPush` rows sent by a ``django.tasks`` task after the
commit, retried with the notifications' back-off (``events.notify_rules.retry_delay``)
while the VEKN is unreachable, failed at once with the VEKN's message when it refuses.
Nothing here blocks the organiser: the actions only enqueue.

No duplicate VEKN event: the VEKN event id is stored the moment the VEKN answers, a push
already holding one never creates another, and a push is claimed (``sending``) under a
row lock before the request so two workers never send it twice. Only rulesets whose
registry entry has the ``vekn_link`` adapter (:data:`VEKN_LINK`) push; the others never.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from events import notify_rules, rulesets, vekn_client, vekn_sync
from events.audit import audit
from events.errors import UserError
from events.exports import archondata
from events.limits import FREE_TEXT_MAX_LENGTH
from events.models import Event, VeknPush
from events.notifications import after_commit, enqueue
from standings.services import event_standings

logger = logging.getLogger(__name__)

STALE_SENDING = timedelta(minutes=10)
"""A push ``sending`` for longer (a worker that died mid-request) may be claimed again."""

# VEKN event types (the VEKN calendar's codes, as the official Archon sends them).
STANDARD, LIMITED, CONTINENTAL, NATIONAL, LIMITED_NATIONAL, LIMITED_CONTINENTAL, V5 = (
    2,
    3,
    6,
    8,
    13,
    14,
    16,
)
GRAND_PRIX = 15  # the calendar's own type (a limited Grand Prix has none: sent as LIMITED)
ALREADY_SUBMITTED = "An archon has already been submitted for this event."


@dataclass(frozen=True)
class VeknLink:
    """The ``vekn_link`` adapter of the VEKN ruleset: what its events send."""

    def event_type(self, event: Event) -> int:
        """The VEKN calendar's event type of ``event`` (format and championship)."""
        if event.format == Event.Format.LIMITED or event.game_format == Event.GameFormat.LIMITED:
            return {"national": LIMITED_NATIONAL, "continental": LIMITED_CONTINENTAL}.get(
                event.championship, LIMITED
            )
        if event.championship:
            return {"grand_prix": GRAND_PRIX, "national": NATIONAL, "continental": CONTINENTAL}[
                event.championship
            ]
        return V5 if event.game_format == Event.GameFormat.V5 else STANDARD

    def event_form(self, event: Event, push: VeknPush) -> dict:
        """The form of ``POST /api/vekn/event`` (events/vekn_client.py)."""
        day = event.date.isoformat()
        return {
            "name": event.name[:120],
            "type": self.event_type(event),
            "venueid": 0 if event.online else push.venue_id,
            "online": int(event.online),
            "startdate": day,
            "starttime": "10:00",
            "enddate": day,
            "endtime": "23:00",
            "timelimit": f"{event.round_minutes // 60}h",
            "rounds": event.preliminary_rounds,
            "final": int(event.has_final),
            "multideck": int(push.multideck),
            "proxies": int(push.proxies),
            "website": f"{settings.SITE_URL}{event.get_absolute_url()}",
            "description": "",
        }

    def report(self, event: Event) -> str:
        """The event's ``archondata`` (TR §9)."""
        return archondata(event_standings(event))


VEKN_LINK = VeknLink()


def link_of(event: Event) -> VeknLink | None:
    """The event's ruleset's VEKN link, ``None`` when its events never push."""
    if "vekn_link" not in rulesets.of(event).adapters:
        return None
    return rulesets.of(event).adapter("vekn_link")


def pushes(event: Event) -> dict[str, VeknPush]:
    """The event's pushes by kind (one query)."""
    return {p.kind: p for p in VeknPush.objects.filter(event=event)}


# ----------------------------------------------------------------------- actions
def announce(
    event: Event,
    actor,
    *,
    organiser_vekn: str,
    venue_id: int = 0,
    multideck: bool = False,
    proxies: bool = False,
) -> VeknPush:
    """Queue the event's calendar entry. ``UserError``: the link is off, the event's
    ruleset does not push, it is not sanctioned, or it is on the calendar already."""
    if link_of(event) is None:
        raise UserError(_("This event's results do not go to the VEKN."))
    if not vekn_client.enabled():
        raise UserError(_("The VEKN link is not configured on this site."))
    if not event.sanctioned:
        raise UserError(_("Only a sanctioned event goes to the VEKN calendar."))
    if not organiser_vekn.isdigit():
        raise UserError(_("Give the organiser's VEKN number (digits)."))
    with transaction.atomic():
        push, _created = VeknPush.objects.select_for_update().get_or_create(
            event=event, kind=VeknPush.Kind.EVENT
        )
        if push.vekn_event_id:
            raise UserError(_("The event is on the VEKN calendar already."))
        if push.status == VeknPush.Status.SENDING:
            raise UserError(_("The event is being sent to the VEKN."))
        push.organiser_vekn, push.venue_id = organiser_vekn, venue_id
        push.multideck, push.proxies = multideck, proxies
        _queue(push)
        audit(event, actor, "vekn.announce", event.slug, about=push)
    return push


def results_approved(event: Event) -> VeknPush | None:
    """Queue the results of an event on the VEKN calendar (its results just approved).
    Nothing for an event that never pushes, the link off or the event not announced."""
    if link_of(event) is None or not vekn_client.enabled():
        return None
    with transaction.atomic():
        if not VeknPush.objects.filter(event=event, kind=VeknPush.Kind.EVENT).exists():
            return None
        push, _created = VeknPush.objects.select_for_update().get_or_create(
            event=event, kind=VeknPush.Kind.RESULTS
        )
        if push.status in (VeknPush.Status.SENT, VeknPush.Status.SENDING):
            return push
        _queue(push)
    return push


def on_results_approved(sender, event, approved, **kwargs) -> None:
    """The receiver of ``events.signals.results_approved`` (connected in
    ``events.apps``): approving queues the results; an error is logged, never raised."""
    if not approved:
        return
    try:
        results_approved(event)
    except Exception:
        logger.exception("VEKN link: could not queue the results of %s", event.pk)


def retry(push_id: int, event: Event, actor, vekn_event_id: str = "") -> VeknPush:
    """Staff's retry of a failed (or waiting) push, at once. ``vekn_event_id``: the VEKN
    event an earlier attempt created (or made by hand), linked instead of creating one."""
    with transaction.atomic():
        push = VeknPush.objects.select_for_update().filter(pk=push_id, event=event).first()
        if push is None:
            raise UserError(_("Nothing to retry."))
        if push.status in (VeknPush.Status.SENT, VeknPush.Status.SENDING):
            raise UserError(_("This was sent already, or is being sent."))
        if vekn_event_id:
            if not vekn_event_id.isdigit() or push.kind != VeknPush.Kind.EVENT:
                raise UserError(_("A VEKN event id is digits, for the calendar entry."))
            push.vekn_event_id = vekn_event_id
        _queue(push)
        audit(event, actor, "vekn.retry", f"{event.slug} {push.kind}", about=push)
    return push


def _queue(push: VeknPush) -> None:
    push.status, push.attempts, push.next_retry_at = VeknPush.Status.QUEUED, 0, None
    push.save()
    after_commit(send_push, push.pk)


# ----------------------------------------------------------------------- the task
@task
def send_push(push_id: int) -> str:
    """The worker's half: claim the push, send it, record the outcome (its new status)."""
    now = timezone.now()
    with transaction.atomic():
        push = (
            VeknPush.objects.select_for_update().select_related("event").filter(pk=push_id).first()
        )
        if push is None:
            return "gone"
        stale = push.status == VeknPush.Status.SENDING and push.updated_at < now - STALE_SENDING
        if push.status not in (VeknPush.Status.QUEUED, VeknPush.Status.RETRYING) and not stale:
            return push.status
        push.status = VeknPush.Status.SENDING
        push.save(update_fields=["status", "updated_at"])
    event = push.event
    try:
        _send(push, event)
    except vekn_client.VeknUnavailable as exc:
        push.attempts += 1
        push.last_error = str(exc)[:FREE_TEXT_MAX_LENGTH]
        delay = notify_rules.retry_delay(push.attempts)
        if delay is None:
            push.status, push.next_retry_at = VeknPush.Status.FAILED, None
        else:
            push.status = VeknPush.Status.RETRYING
            push.next_retry_at = timezone.now() + timedelta(seconds=delay)
    except vekn_client.VeknError as exc:
        push.attempts += 1
        push.status, push.last_error, push.next_retry_at = (
            VeknPush.Status.FAILED,
            str(exc)[:FREE_TEXT_MAX_LENGTH],
            None,
        )
    else:
        push.attempts += 1
        push.status, push.sent_at, push.next_retry_at = VeknPush.Status.SENT, timezone.now(), None
        push.last_error = ""
    push.save()
    if push.status == VeknPush.Status.RETRYING and send_push.get_backend().supports_defer:
        # A queue that cannot wait (the tests' immediate one) leaves it to the retry button.
        enqueue(send_push, push.pk, run_after=push.next_retry_at)
    return push.status


def _send(push: VeknPush, event: Event) -> None:
    link = link_of(event)
    if link is None:
        raise vekn_client.VeknRefused("This event's ruleset does not push to the VEKN.")
    if push.kind == VeknPush.Kind.EVENT:
        if push.vekn_event_id:
            return  # created already: never again
        with vekn_client.Client() as client:
            vekn_id = client.create_event(link.event_form(event, push), push.organiser_vekn)
        # Stored at once, before anything else can fail: a retry finds it.
        VeknPush.objects.filter(pk=push.pk).update(vekn_event_id=vekn_id)
        push.vekn_event_id = vekn_id
        return
    calendar = VeknPush.objects.filter(event=event, kind=VeknPush.Kind.EVENT).first()
    if calendar is None or not calendar.vekn_event_id:
        raise vekn_client.VeknUnavailable(
            "The event is not on the VEKN calendar yet (its entry is still being sent)."
        )
    push.vekn_event_id = calendar.vekn_event_id
    with vekn_client.Client() as client:
        try:
            client.send_results(calendar.vekn_event_id, link.report(event))
        except vekn_client.VeknRefused as exc:
            if str(exc) != ALREADY_SUBMITTED:
                raise
            # An earlier attempt reached the VEKN and its answer was lost: done.


def organiser_url(event: Event) -> str:
    return reverse("manage:dashboard", kwargs={"slug": event.slug})


@task
def sync_registry_task(prefixes: list[str]) -> dict:
    """The scheduled registry sync (``manage.py sync_vekn_registry --queue`` from cron):
    counts of members read, people updated and conflicts."""
    with vekn_client.Client() as client:
        report = vekn_sync.sync_registry(client, prefixes or ["00"])
    return {
        "members": report.members,
        "updated": len(report.updated),
        "conflicts": len(report.conflicts),
    }
