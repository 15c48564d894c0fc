"""The notifications' services and tasks (docs/notifications.md): what the actions call to
notify (after their commit), the tasks the worker runs (fan out a published round, create
the deliveries, send them), each channel's sending (e-mail through Django's mailers, Web
Push with ``pywebpush``, signed webhooks with ``requests``), the retries and the delivery
log.

A failed delivery never breaks the action that caused it: the actions only enqueue, after
their transaction commits (``transaction.on_commit``, robust), an enqueue that fails is
logged, and a send that fails is recorded on its ``Delivery`` and tried again later with
exponential back-off (``events.notify_rules.retry_delay``). Events kernel: the penalties,
the event day and the leagues call it (docs/architecture.md "Layers").
"""

from __future__ import annotations

import json
import logging
import secrets
import socket
from collections import defaultdict
from collections.abc import Iterable
from datetime import timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.db.models import Q, QuerySet
from django.tasks import task
from django.urls import reverse
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush

from events import notify_rules, round_clock, rulesets
from events.limits import FREE_TEXT_MAX_LENGTH
from events.models import (
    Delivery,
    NotificationPreference,
    Organisation,
    OrganisationRole,
    PushSubscription,
    Round,
    Seat,
    Webhook,
)
from events.notify_rules import Channel, Kind, Notice
from events.permissions import Role

logger = logging.getLogger(__name__)

USER_AGENT = "Arbitro-Notifications/1"


# --------------------------------------------------------------------------- enqueue
def enqueue(task_obj, *args, run_after=None):
    """Enqueue ``task_obj(*args)`` now; an error of the queue (Redis down, the database
    locked) is logged and swallowed: ``None`` then, else the task result. Delayed
    (``run_after``, an aware datetime) when the backend supports it, else at once."""
    try:
        if run_after is not None and task_obj.get_backend().supports_defer:
            return task_obj.using(run_after=run_after).enqueue(*args)
        return task_obj.enqueue(*args)
    except Exception:
        logger.exception("notifications: could not enqueue %s%r", task_obj.name, args)
        return None


def after_commit(task_obj, *args) -> None:
    """Enqueue ``task_obj(*args)`` once the current transaction commits (at once outside
    one). ``robust``: an error never reaches the action that called it."""
    transaction.on_commit(lambda: enqueue(task_obj, *args), robust=True)


def seating_published(rnd: Round) -> None:
    """A round's seating or pairing was published: one fan-out task after the commit (its
    players and the organisation's webhooks are read by the worker, not the request)."""
    after_commit(fan_out_round, rnd.pk)


def round_started(rnd: Round) -> None:
    """A round's clock started: its seated players (``round_started``) and the
    organisation's webhooks, by one fan-out task after the commit."""
    after_commit(fan_out_round, rnd.pk, str(Kind.ROUND_STARTED))


def notify_users(
    notice: Notice,
    user_ids: Iterable[int | None],
    *,
    organisation_id: int | None = None,
    webhooks: bool = True,
) -> None:
    """Send ``notice`` to these accounts (those that opted in to its kind, by each channel
    they chose), after the commit; with ``webhooks``, also to ``organisation_id``'s
    webhooks that take its kind (a personal notice, a penalty, passes ``False``: it never
    goes to a channel others read). ``organisation_id`` is also whose log shows the
    deliveries. ``None`` ids (a person with no account) are skipped."""
    ids = sorted({pk for pk in user_ids if pk is not None})
    after_commit(dispatch, _notice_dict(notice), ids, organisation_id, webhooks)


def site_language():
    """The language the worker writes notices in (``settings.LANGUAGE_CODE``) **[choice:
    accounts have no language of their own yet]**; a context manager."""
    return translation.override(settings.LANGUAGE_CODE)


def absolute(path: str) -> str:
    """``path`` on the site (``settings.SITE_URL``), for e-mails and webhooks."""
    return f"{settings.SITE_URL}{path}" if path.startswith("/") else path


# --------------------------------------------------------------------------- tasks
def round_ending(rnd: Round, extensions: dict[int, int]) -> None:
    """A round is about to end (``events.round_reminders``, which claimed its one notice):
    its seated players, each with their table's time left (``extensions``: table number →
    minutes of time extension, JG §1.2.4), and the organisation's webhooks, by one fan-out
    task after the commit."""
    after_commit(
        fan_out_round,
        rnd.pk,
        str(Kind.ROUND_ENDING),
        {str(number): minutes for number, minutes in extensions.items()},
    )


@task
def fan_out_round(
    round_id: int, kind: str = Kind.SEATING_PUBLISHED, extensions: dict | None = None
) -> int:
    """The worker's half of :func:`seating_published`, :func:`round_started` and
    :func:`round_ending`: every seated player with an account gets their own notice (VEKN:
    table, seat and the others at the table; MyL: the opponent; a started round: the table
    and the time; a round about to end: the minutes left at the table, with its
    ``extensions``, ``{"table number": minutes}``), the organisation's webhooks the round
    as a whole. A seating hidden again before the task runs sends nothing. Returns the
    number of deliveries created. Queries: a fixed few, whatever the number of players."""
    kind = Kind(kind)
    extensions = {int(k): int(v) for k, v in (extensions or {}).items()}
    rnd = Round.objects.select_related("event").filter(pk=round_id).first()
    if rnd is None or not rnd.seating_published:
        return 0
    event = rnd.event
    seats = list(
        Seat.objects.filter(round=rnd)
        .select_related("table", "registration__person")
        .order_by("table__number", "position")
    )
    by_table = defaultdict(list)
    for seat in seats:
        by_table[seat.table_id].append(seat)
    matches = rulesets.of(event).pairs_matches
    minutes = event.final_minutes if rnd.is_final else event.round_minutes
    now = timezone.now()

    def minutes_left(extension: int = 0) -> int:
        seconds = round_clock.clock(rnd.timing(), now, extension).seconds_left or 0
        return -(-seconds // 60)

    with site_language():
        label = rulesets.round_label(rnd, event=event)
        url = absolute(reverse("events:public-seating", args=[event.slug]))
        personal = []
        for seat in seats:
            user_id = seat.registration.person.user_id
            if user_id is None:
                continue
            if kind == Kind.ROUND_STARTED:
                notice = notify_rules.round_started(
                    event.name, label, seat.table.number, minutes, url
                )
            elif kind == Kind.ROUND_ENDING:
                number = seat.table.number
                notice = notify_rules.round_ending(
                    event.name, label, number, minutes_left(extensions.get(number, 0)), url
                )
            else:
                others = tuple(
                    s.registration.person.name for s in by_table[seat.table_id] if s.pk != seat.pk
                )
                place = notify_rules.SeatFact(seat.table.number, seat.position, others)
                notice = notify_rules.seating_published(
                    event.name, label, place, url, matches=matches
                )
            personal.append((user_id, notice))
        if kind == Kind.ROUND_STARTED:
            whole = notify_rules.round_started(event.name, label, None, minutes, url)
        elif kind == Kind.ROUND_ENDING:
            whole = notify_rules.round_ending(event.name, label, None, minutes_left(), url)
        else:
            whole = notify_rules.seating_published(event.name, label, None, url, matches=matches)
    deliveries = create_deliveries(kind, personal, whole, organisation_id=event.organisation_id)
    send_deliveries(deliveries)
    return len(deliveries)


@task
def dispatch(
    notice: dict, user_ids: list[int], organisation_id: int | None, webhooks: bool = True
) -> int:
    """The worker's half of :func:`notify_users`: the deliveries, then the sending.
    Returns the number of deliveries created."""
    item = _notice_from(notice)
    deliveries = create_deliveries(
        item.kind,
        [(pk, item) for pk in user_ids],
        item if webhooks else None,
        organisation_id=organisation_id,
    )
    send_deliveries(deliveries)
    return len(deliveries)


@task
def deliver(delivery_id: int) -> str:
    """One more attempt of a delivery waiting to retry (scheduled by a failed attempt).
    Returns its status afterwards; a delivery already sent or given up is left alone."""
    with transaction.atomic():
        # The row lock: a delivery the sweep enqueued again while its first task runs is
        # sent by one of them only; the other finds it locked ("busy") or already sent.
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return "busy" if Delivery.objects.filter(pk=delivery_id).exists() else "missing"
        if delivery.status in (Delivery.Status.SENT, Delivery.Status.FAILED):
            return delivery.status
        attempt(delivery)
    return delivery.status


def sweep_deliveries(
    now=None, *, grace_minutes: int | None = None, include_failed: bool = False
) -> int:
    """Enqueue :func:`deliver` again for the deliveries whose task was lost (a worker
    stopped, the queue emptied): *queued* ones never tried, created more than
    ``grace_minutes`` ago (``settings.NOTIFY_SWEEP_GRACE_MINUTES``), and *waiting to
    retry* ones whose retry time passed more than ``grace_minutes`` ago. With
    ``include_failed``, also the *failed* ones that have attempts left (a permanent
    failure: no e-mail address, no phone, a webhook turned off, once fixed): they go back
    to *waiting to retry* **[choice: not by default, since they fail the same way until
    someone fixes the cause]**. Idempotent: a delivery enqueued twice is sent once
    (:func:`deliver` locks it and skips one already sent). Returns how many were enqueued."""
    now = now or timezone.now()
    grace = timedelta(
        minutes=settings.NOTIFY_SWEEP_GRACE_MINUTES if grace_minutes is None else grace_minutes
    )
    if include_failed:
        Delivery.objects.filter(
            status=Delivery.Status.FAILED, attempts__lt=notify_rules.MAX_ATTEMPTS
        ).update(status=Delivery.Status.RETRYING, next_retry_at=now - grace - timedelta(seconds=1))
    stuck = Delivery.objects.filter(
        Q(status=Delivery.Status.QUEUED, created_at__lt=now - grace)
        | Q(status=Delivery.Status.RETRYING, next_retry_at__lt=now - grace)
    ).values_list("pk", flat=True)
    count = 0
    for pk in stuck.iterator():
        if enqueue(deliver, pk) is not None:
            count += 1
    return count


@task
def sweep_deliveries_task() -> int:
    """:func:`sweep_deliveries` on the worker (for a scheduler that enqueues tasks)."""
    return sweep_deliveries()


def prune_deliveries(now=None, *, days: int | None = None) -> int:
    """Delete the delivery log's *sent* and *failed* rows created more than ``days`` ago
    (``settings.NOTIFY_LOG_RETENTION_DAYS``); the ones still queued or waiting to retry
    are kept whatever their age. ``ValueError`` for ``days < 1``. Returns how many rows
    were deleted."""
    days = settings.NOTIFY_LOG_RETENTION_DAYS if days is None else days
    if days < 1:
        raise ValueError("days must be >= 1")
    before = (now or timezone.now()) - timedelta(days=days)
    deleted, _rows = Delivery.objects.filter(
        status__in=[Delivery.Status.SENT, Delivery.Status.FAILED], created_at__lt=before
    ).delete()
    return deleted


# --------------------------------------------------------------------------- deliveries
def create_deliveries(
    kind: Kind,
    personal: list[tuple[int, Notice]],
    whole: Notice | None,
    *,
    organisation_id: int | None,
) -> list[Delivery]:
    """The ``Delivery`` rows of one notice (one bulk insert): for each (account, its notice)
    one per channel the account opted in to for ``kind``, and one per active webhook of
    ``organisation_id`` that takes ``kind`` (with ``whole``)."""
    ids = {pk for pk, _notice in personal}
    chosen = defaultdict(set)
    for user_id, channel in NotificationPreference.objects.filter(
        user_id__in=ids, kind=str(kind)
    ).values_list("user_id", "channel"):
        chosen[user_id].add(channel)
    rows = []
    for user_id, notice in personal:
        for channel in notify_rules.PERSONAL_CHANNELS:
            if str(channel) in chosen[user_id]:
                rows.append(_row(notice, channel, organisation_id, user_id=user_id))
    if whole is not None and organisation_id is not None:
        for hook in Webhook.objects.filter(organisation_id=organisation_id, active=True):
            if str(kind) in hook.kinds:
                rows.append(_row(whole, Channel.WEBHOOK, organisation_id, webhook_id=hook.pk))
    return Delivery.objects.bulk_create(rows)


def _row(notice: Notice, channel: Channel, organisation_id, **recipient) -> Delivery:
    return Delivery(
        kind=str(notice.kind),
        channel=str(channel),
        organisation_id=organisation_id,
        subject=notice.subject[:300],
        body=notice.body[:FREE_TEXT_MAX_LENGTH],
        url=notice.url[:500],
        data=notice.data,
        **recipient,
    )


def send_deliveries(deliveries: list[Delivery]) -> None:
    """One attempt of each delivery; the e-mails share one connection of the default
    mailer. Never raises for a failed send (it is recorded and retried)."""
    if not deliveries:
        return
    users = get_user_model().objects.in_bulk({d.user_id for d in deliveries if d.user_id})
    hooks = Webhook.objects.in_bulk({d.webhook_id for d in deliveries if d.webhook_id})
    pushes = defaultdict(list)
    for sub in PushSubscription.objects.filter(
        user_id__in={d.user_id for d in deliveries if d.channel == Channel.PUSH}
    ):
        pushes[sub.user_id].append(sub)
    connection = mailers.default
    try:
        for delivery in deliveries:
            delivery.user = users.get(delivery.user_id) if delivery.user_id else None
            delivery.webhook = hooks.get(delivery.webhook_id) if delivery.webhook_id else None
            attempt(
                delivery,
                connection=connection,
                subscriptions=pushes.get(delivery.user_id),
                save=False,
            )
    finally:
        connection.close()
        # One update for the batch's outcomes, then the retries (which read them back).
        Delivery.objects.bulk_update(deliveries, OUTCOME_FIELDS, batch_size=500)
    for delivery in deliveries:
        if delivery.status == Delivery.Status.RETRYING:
            enqueue(deliver, delivery.pk, run_after=delivery.next_retry_at)


OUTCOME_FIELDS = ["attempts", "status", "last_error", "next_retry_at", "sent_at"]


def attempt(delivery: Delivery, *, connection=None, subscriptions=None, save=True) -> None:
    """Send ``delivery`` once by its channel and record the outcome on it: ``sent``, or the
    error with ``retrying`` and the next attempt scheduled (``deliver`` with
    ``run_after``), or ``failed`` after ``notify_rules.MAX_ATTEMPTS``. Never raises for a
    failed send. ``save=False``: the caller saves the outcome and schedules the retry
    (:func:`send_deliveries`, in bulk)."""
    delivery.attempts += 1
    try:
        if delivery.channel == Channel.EMAIL:
            send_email(delivery, connection)
        elif delivery.channel == Channel.PUSH:
            send_push(delivery, subscriptions)
        else:
            send_webhook(delivery)
    except Exception as exc:  # any failure of a channel is recorded, never raised
        delay = notify_rules.retry_delay(delivery.attempts)
        delivery.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        if delay is None or isinstance(exc, PermanentFailure):
            delivery.status = Delivery.Status.FAILED
            delivery.next_retry_at = None
        else:
            delivery.status = Delivery.Status.RETRYING
            delivery.next_retry_at = timezone.now() + timedelta(seconds=delay)
        logger.warning(
            "notification %s failed (attempt %s): %s", delivery.pk, delivery.attempts, exc
        )
    else:
        delivery.status = Delivery.Status.SENT
        delivery.sent_at = timezone.now()
        delivery.next_retry_at = None
    if not save:
        return
    delivery.save(update_fields=OUTCOME_FIELDS)
    if delivery.status == Delivery.Status.RETRYING:
        enqueue(deliver, delivery.pk, run_after=delivery.next_retry_at)


class PermanentFailure(Exception):
    """A failure that trying again cannot fix (no e-mail address, no phone subscribed)."""


# --------------------------------------------------------------------------- channels
def send_email(delivery: Delivery, connection=None) -> None:
    """The delivery as a plain-text e-mail to the account's address, through the default
    mailer (``settings.MAILERS``: console in ``make run``, SMTP in production)."""
    address = delivery.user.email if delivery.user else ""
    if not address:
        raise PermanentFailure("the account has no e-mail address")
    body = delivery.body
    if delivery.url:
        body = f"{body}\n\n{delivery.url}"
    message = EmailMessage(delivery.subject, body, None, [address])
    (connection or mailers.default).send_messages([message])


def send_push(delivery: Delivery, subscriptions=None) -> None:
    """The delivery to every phone the account subscribed (Web Push, RFC 8030/8291,
    signed with the VAPID key). A subscription the push service says is gone (404, 410)
    is deleted; any other refusal fails the attempt."""
    if not settings.VAPID_PRIVATE_KEY:
        raise PermanentFailure("Web Push is not configured (VAPID_PRIVATE_KEY)")
    if subscriptions is None:
        subscriptions = list(PushSubscription.objects.filter(user_id=delivery.user_id))
    if not subscriptions:
        raise PermanentFailure("no phone is subscribed")
    data = (
        Notice(Kind(delivery.kind), delivery.subject, delivery.body, delivery.url)
        .push_body()
        .decode()
    )
    errors = []
    for sub in subscriptions:
        try:
            webpush(
                sub.info(),
                data=data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                timeout=settings.NOTIFY_TIMEOUT_SECONDS,
                ttl=3600,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                PushSubscription.objects.filter(pk=sub.pk).delete()
            else:
                errors.append(f"{status}: {exc}")
    if errors and len(errors) == len(subscriptions):
        raise RuntimeError("; ".join(errors))


def send_webhook(delivery: Delivery) -> None:
    """POST the delivery's JSON (``Notice.webhook_body``) to the webhook, signed in
    ``X-Arbitro-Signature`` (HMAC-SHA256 of the body with the webhook's secret). Any
    status outside 2xx fails the attempt (and it is retried)."""
    hook = delivery.webhook
    if hook is None or not hook.active:
        raise PermanentFailure("the webhook was removed or turned off")
    notice = Notice(
        Kind(delivery.kind), delivery.subject, delivery.body, delivery.url, delivery.data
    )
    body = notice.webhook_body()
    check_webhook_host(hook.url)
    response = requests.post(
        hook.url,
        data=body,
        headers={
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            notify_rules.SIGNATURE_HEADER: notify_rules.sign(hook.secret, body),
            "X-Arbitro-Delivery": str(delivery.pk),
            "X-Arbitro-Kind": delivery.kind,
        },
        timeout=settings.NOTIFY_TIMEOUT_SECONDS,
        allow_redirects=False,
    )
    if not 200 <= response.status_code < 300:
        raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")


def check_webhook_host(url: str) -> None:
    """Refuse (``PermanentFailure``) a webhook whose host resolves to any address that is
    not public (:func:`events.notify_rules.is_public_address`), unless
    ``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` is set (the tests' local receiver). Checked before
    every attempt, since a name's addresses may change after the webhook was saved."""
    if settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        return
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise PermanentFailure("a webhook URL is an https:// address")
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise RuntimeError(f"the webhook's host does not resolve: {exc}") from exc
    for info in infos:
        if not notify_rules.is_public_address(info[4][0]):
            raise PermanentFailure(
                f"the webhook's host {parts.hostname} is an address of a private network"
            )


# --------------------------------------------------------------------------- preferences
def preferences_of(user) -> frozenset[tuple[str, str]]:
    """The (kind, channel) codes ``user`` opted in to."""
    return frozenset(
        NotificationPreference.objects.filter(user=user).values_list("kind", "channel")
    )


def set_preferences(user, chosen: Iterable[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """Replace ``user``'s opt-ins by ``chosen`` ((kind, channel) codes of personal
    channels; others are ignored). One transaction. Returns what is stored."""
    valid = {str(k) for k in Kind}
    personal = {str(c) for c in notify_rules.PERSONAL_CHANNELS}
    wanted = {(k, c) for k, c in chosen if k in valid and c in personal}
    with transaction.atomic():
        current = set(preferences_of(user))
        gone = current - wanted
        if gone:
            query = Q()
            for kind, channel in gone:
                query |= Q(kind=kind, channel=channel)
            NotificationPreference.objects.filter(query, user=user).delete()
        NotificationPreference.objects.bulk_create(
            [NotificationPreference(user=user, kind=k, channel=c) for k, c in wanted - current]
        )
    return frozenset(wanted)


def subscribe_push(user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Record (or move to ``user``) the browser's push subscription for ``endpoint``."""
    sub, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )
    return sub


def unsubscribe_push(user, endpoint: str) -> bool:
    """Forget ``user``'s subscription for ``endpoint``; whether there was one."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


# --------------------------------------------------------------------------- staff
def organisations_readable(user) -> QuerySet[Organisation]:
    """The organisations whose delivery log and webhooks ``user`` manages: every one for a
    superuser, else those they organise (docs/organisations.md)."""
    if user.is_superuser:
        return Organisation.objects.all()
    return Organisation.objects.filter(roles__user=user, roles__role=Role.ORGANISER).distinct()


def may_read_log(user) -> bool:
    """Whether ``user`` may open the delivery log (a superuser or an organiser)."""
    return (
        user.is_superuser
        or OrganisationRole.objects.filter(user=user, role=Role.ORGANISER).exists()
    )


def deliveries_for(user, organisation: Organisation | None = None) -> QuerySet[Delivery]:
    """The delivery log ``user`` may read, newest first: all for a superuser (or one
    organisation's), else their organisations'."""
    rows = Delivery.objects.select_related("user", "webhook", "organisation")
    if not user.is_superuser:
        rows = rows.filter(organisation__in=organisations_readable(user))
    if organisation is not None:
        rows = rows.filter(organisation=organisation)
    return rows


def add_webhook(organisation: Organisation, name: str, url: str, kinds: Iterable[str]) -> Webhook:
    """A new webhook of ``organisation`` with a random signing secret (shown to its
    organisers on the notifications page)."""
    valid = {str(k) for k in Kind}
    return Webhook.objects.create(
        organisation=organisation,
        name=name,
        url=url,
        secret=secrets.token_urlsafe(32),
        kinds=sorted(k for k in kinds if k in valid),
    )


def remove_webhook(organisation: Organisation, webhook_id: int) -> bool:
    """Delete one of ``organisation``'s webhooks (its deliveries go with it)."""
    deleted, _rows = Webhook.objects.filter(organisation=organisation, pk=webhook_id).delete()
    return bool(deleted)


# --------------------------------------------------------------------------- helpers
def _notice_dict(notice: Notice) -> dict:
    return json.loads(
        json.dumps(
            {
                "kind": str(notice.kind),
                "subject": notice.subject,
                "body": notice.body,
                "url": notice.url,
                "data": notice.data,
            }
        )
    )


def _notice_from(data: dict) -> Notice:
    return Notice(
        Kind(data["kind"]), data["subject"], data["body"], data.get("url", ""), data.get("data", {})
    )
