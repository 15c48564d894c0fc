"""The rows of a table's result reported by its players (docs/players.md "Reporting your
table's result"): the report and each player's confirmation. Imported by
``events.models`` so that Django finds them in the ``events`` app.

Invariants are database constraints: at most one open report (pending or disputed) per
table, a player confirms a report once, the status is one of
``events.report_rules.Status``. The rules of the state machine are
``events.report_rules``; the services ``events.self_report``.
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.report_rules import OPEN, Status


class ResultReport(models.Model):
    """A result a player of the table reported: ``values`` in seat order (VEKN: the VP
    of each seat as text, ``"2.0"``; Mitos y Leyendas: the games each player won, as
    text), ``status`` (``events.report_rules.Status``), ``stands_at`` (the end of a
    countdown, ``None`` without one), ``decided_at`` (when it stood, was disputed or
    closed by a judge) and the ``judge_call`` a dispute made."""

    STATUS_CHOICES = [
        (Status.PENDING.value, _("waiting for confirmations")),
        (Status.CONFIRMED.value, _("confirmed")),
        (Status.DISPUTED.value, _("disputed")),
        (Status.JUDGED.value, _("closed by a judge")),
    ]

    event = models.ForeignKey(
        "events.Event", models.CASCADE, related_name="result_reports", verbose_name=_("event")
    )
    table = models.ForeignKey(
        "events.Table", models.CASCADE, related_name="reports", verbose_name=_("table")
    )
    reporter = models.ForeignKey(
        "events.Registration",
        models.CASCADE,
        related_name="result_reports",
        verbose_name=_("reported by"),
    )
    values = models.JSONField(_("values reported"), default=list)
    status = models.CharField(
        _("status"), max_length=16, choices=STATUS_CHOICES, default=Status.PENDING.value
    )
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)
    stands_at = models.DateTimeField(_("stands at"), null=True, blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    disputed_by = models.ForeignKey(
        "events.Registration",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("disputed by"),
    )
    judge_call = models.ForeignKey(
        "events.JudgeCall",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("judge call"),
    )

    class Meta:
        verbose_name = _("reported result")
        verbose_name_plural = _("reported results")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=[s.value for s in OPEN]),
                name="events_resultreport_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in Status]),
                name="events_resultreport_status",
            ),
            models.CheckConstraint(
                condition=~Q(status=Status.DISPUTED.value) | Q(disputed_by__isnull=False),
                name="events_resultreport_disputed_by_someone",
            ),
        ]

    def __str__(self):
        return str(_("Result reported for table %(n)s") % {"n": self.table.number})

    @property
    def is_open(self) -> bool:
        return self.status in {s.value for s in OPEN}


class ReportConfirmation(models.Model):
    """One player's confirmation of a report (once per player: a constraint)."""

    report = models.ForeignKey(
        ResultReport, models.CASCADE, related_name="confirmations", verbose_name=_("report")
    )
    registration = models.ForeignKey(
        "events.Registration", models.CASCADE, related_name="+", verbose_name=_("player")
    )
    created_at = models.DateTimeField(_("confirmed at"), default=timezone.now)

    class Meta:
        verbose_name = _("confirmation of a reported result")
        verbose_name_plural = _("confirmations of reported results")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "registration"], name="events_reportconfirmation_once"
            )
        ]

    def __str__(self):
        return f"{self.report_id}: {self.registration_id}"
