"""The VEKN link's rows (docs/vekn-link.md), re-exported by ``events.models``: the
registry as last read (:class:`VeknMember`), the differences between it and a person
edited here (:class:`VeknConflict`), and what was sent to the VEKN for an event
(:class:`VeknPush`: the calendar entry, then the results)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.limits import FREE_TEXT_MAX_LENGTH, length_constraint


class VeknMember(models.Model):
    """One member of the VEKN registry as the last sync read it (``synced_at``)."""

    veknid = models.CharField(_("VEKN number"), max_length=20, unique=True)
    first_name = models.CharField(_("first name"), max_length=200, blank=True, default="")
    last_name = models.CharField(_("last name"), max_length=200, blank=True, default="")
    country = models.CharField(_("country"), max_length=100, blank=True, default="")
    city = models.CharField(_("city"), max_length=100, blank=True, default="")
    synced_at = models.DateTimeField(_("synced at"))

    class Meta:
        verbose_name = _("VEKN member")
        verbose_name_plural = _("VEKN members")
        ordering = ["veknid"]

    def __str__(self):
        return f"{self.veknid} {self.first_name} {self.last_name}".strip()

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)


class VeknConflict(models.Model):
    """A person whose names here differ from the VEKN registry's after a local edit: the
    sync kept the local names and staff decide (take the VEKN's, or keep ours)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        TOOK_VEKN = "took_vekn", _("VEKN names taken")
        KEPT_LOCAL = "kept_local", _("Local names kept")

    person = models.ForeignKey(
        "events.Person", models.CASCADE, related_name="vekn_conflicts", verbose_name=_("person")
    )
    local_first_name = models.CharField(_("first name here"), max_length=200, blank=True)
    local_last_name = models.CharField(_("last name here"), max_length=200, blank=True)
    vekn_first_name = models.CharField(_("VEKN first name"), max_length=200, blank=True)
    vekn_last_name = models.CharField(_("VEKN last name"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("VEKN registry conflict")
        verbose_name_plural = _("VEKN registry conflicts")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["person"],
                condition=Q(status="open"),
                name="events_vekn_conflict_one_open_per_person",
            ),
        ]

    def __str__(self):
        return f"{self.person_id}: {self.local_first_name} {self.local_last_name} ≠ VEKN"


class VeknPush(models.Model):
    """One thing sent to the VEKN for an event: its calendar entry (``event``) or its
    results (``results``). ``vekn_event_id`` is stored once the VEKN created the event,
    and a retry never creates it again."""

    class Kind(models.TextChoices):
        EVENT = "event", _("Calendar entry")
        RESULTS = "results", _("Results")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENDING = "sending", _("Sending")
        RETRYING = "retrying", _("Waiting to retry")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(
        "events.Event", models.CASCADE, related_name="vekn_pushes", verbose_name=_("event")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(
        _("last error"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH
    )
    next_retry_at = models.DateTimeField(_("next retry at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    vekn_event_id = models.CharField(_("VEKN event id"), max_length=20, blank=True, default="")
    organiser_vekn = models.CharField(
        _("organiser's VEKN number"), max_length=20, blank=True, default=""
    )
    venue_id = models.PositiveIntegerField(_("VEKN venue id"), default=0)
    multideck = models.BooleanField(_("multi-deck"), default=False)
    proxies = models.BooleanField(_("proxies allowed"), default=False)

    class Meta:
        verbose_name = _("VEKN push")
        verbose_name_plural = _("VEKN pushes")
        constraints = [
            models.UniqueConstraint(fields=["event", "kind"], name="events_vekn_push_one_per_kind"),
            models.CheckConstraint(
                condition=Q(kind__in=["event", "results"]), name="events_vekn_push_kind_known"
            ),
            length_constraint("events_veknpush", "last_error"),
        ]

    def __str__(self):
        return f"{self.event_id} {self.kind}: {self.status}"
