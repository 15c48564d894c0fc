"""The notifications' rows (docs/notifications.md): what each person opted in to, their
phones' Web Push subscriptions, each organisation's outgoing webhooks, and the delivery
log (one row per notice and recipient, with its attempts). Imported by ``events.models``
so that Django finds them in the ``events`` app.

Invariants are database constraints: one preference per (person, kind, channel); a
delivery goes to a person (e-mail, push) or to a webhook, never both; its attempts never
exceed ``events.notify_rules.MAX_ATTEMPTS``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.limits import FREE_TEXT_MAX_LENGTH, length_constraint
from events.notify_rules import CHANNEL_LABELS, KIND_LABELS, MAX_ATTEMPTS, Channel

KIND_CHOICES = [(str(kind), label) for kind, label in KIND_LABELS.items()]
CHANNEL_CHOICES = [(str(channel), label) for channel, label in CHANNEL_LABELS.items()]


class NotificationPreference(models.Model):
    """A person opted in to one kind of notice by one channel (e-mail or push). No row:
    not sent (opt-in)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="notification_preferences",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=32, choices=KIND_CHOICES)
    channel = models.CharField(_("channel"), max_length=16, choices=CHANNEL_CHOICES)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "channel"], name="events_notifypref_unique"
            ),
            models.CheckConstraint(
                condition=~Q(channel=Channel.WEBHOOK), name="events_notifypref_personal_channel"
            ),
        ]

    def __str__(self):
        return f"{self.user} {self.kind}/{self.channel}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the phone's service worker posts it: the push
    service's ``endpoint`` and the keys that encrypt the payload, RFC 8291)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("authentication secret"), max_length=100)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self):
        return f"{self.user} {self.endpoint[:40]}…"

    def info(self) -> dict:
        """The subscription as ``pywebpush.webpush`` takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Webhook(models.Model):
    """An organisation's outgoing webhook: each notice of the chosen ``kinds`` about its
    events or seasons is POSTed as JSON to ``url``, signed with ``secret`` (HMAC-SHA256,
    ``events.notify_rules.sign``). A Discord channel's webhook URL works as it is."""

    organisation = models.ForeignKey(
        "events.Organisation",
        models.CASCADE,
        related_name="webhooks",
        verbose_name=_("organisation"),
    )
    name = models.CharField(_("name"), max_length=100)
    url = models.URLField(_("URL"), max_length=500)
    secret = models.CharField(_("signing secret"), max_length=100)
    kinds = models.JSONField(
        _("kinds"), default=list, blank=True, help_text=_("The kinds of notice sent to it.")
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["organisation", "name"]

    def __str__(self):
        return f"{self.organisation}: {self.name}"


class Delivery(models.Model):
    """One notice to one recipient by one channel, and what became of it: every attempt
    increases ``attempts`` and records ``last_error``; a failed attempt schedules the next
    at ``next_retry_at`` (exponential back-off, ``events.notify_rules.retry_delay``)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENT = "sent", _("Sent")
        RETRYING = "retrying", _("Waiting to retry")
        FAILED = "failed", _("Failed")

    kind = models.CharField(_("kind"), max_length=32, choices=KIND_CHOICES)
    channel = models.CharField(_("channel"), max_length=16, choices=CHANNEL_CHOICES)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("recipient"),
    )
    webhook = models.ForeignKey(
        Webhook,
        models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("webhook"),
    )
    organisation = models.ForeignKey(
        "events.Organisation",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("organisation"),
        help_text=_("Whose event or season it is about: its organisers read the log."),
    )
    subject = models.CharField(_("subject"), max_length=300)
    body = models.TextField(_("text"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH)
    url = models.CharField(_("link"), max_length=500, blank=True, default="")
    data = models.JSONField(_("data"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status, default=Status.QUEUED, db_index=True
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(
        _("last error"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH
    )
    next_retry_at = models.DateTimeField(_("next retry"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(channel=Channel.WEBHOOK, webhook__isnull=False, user__isnull=True)
                    | (~Q(channel=Channel.WEBHOOK) & Q(user__isnull=False, webhook__isnull=True))
                ),
                name="events_delivery_one_recipient",
            ),
            models.CheckConstraint(
                condition=Q(attempts__lte=MAX_ATTEMPTS), name="events_delivery_attempts_max"
            ),
            length_constraint("events_delivery", "body"),
            length_constraint("events_delivery", "last_error"),
        ]
        indexes = [models.Index(fields=["organisation", "-created_at"])]

    def __str__(self):
        return f"{self.kind}/{self.channel} #{self.pk} {self.status}"
