"""The judge calls' rows (docs/players.md "Calling a judge"): a seated player asks for a
judge from their phone; the judges' queue shows it, one judge takes it and closes it.
Imported by ``events.models`` so that Django finds it in the ``events`` app.

Invariants are database constraints: at most one open call per table (a second tap, or
another player of the same table, joins it: ``events.judge_calls.call_judge``); a call is
taken before it is closed, and its note is short.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.limits import length_constraint

NOTE_MAX_LENGTH = 200
"""The longest note a player may add to a call (characters)."""


class CallReason(models.TextChoices):
    """Why a player calls. Stored codes are an API: never rename. Each ruleset offers a
    subset (``events.rulesets.RulesetSpec.judge_call_reasons``)."""

    RULES = "rules", _("A rules question")
    DISPUTE = "dispute", _("A disagreement at the table")
    CARDS = "cards", _("A card or deck problem")
    TIME = "time", _("Time or slow play")
    CONDUCT = "conduct", _("A player's conduct")
    OTHER = "other", _("Something else")


class JudgeCall(models.Model):
    """A table's call for a judge in one round. ``created_at`` → ``taken_at`` is how long
    the table waited, the basis of a time extension (JG §1.2.4); open while ``closed_at``
    is empty."""

    event = models.ForeignKey(
        "events.Event", models.CASCADE, related_name="judge_calls", verbose_name=_("event")
    )
    round = models.ForeignKey(
        "events.Round", models.CASCADE, related_name="judge_calls", verbose_name=_("round")
    )
    table = models.ForeignKey(
        "events.Table", models.CASCADE, related_name="judge_calls", verbose_name=_("table")
    )
    table_number = models.PositiveSmallIntegerField(_("table number"))
    caller = models.ForeignKey(
        "events.Registration",
        models.CASCADE,
        related_name="judge_calls",
        verbose_name=_("called by"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=CallReason.choices)
    note = models.CharField(_("note"), max_length=NOTE_MAX_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(_("called at"), default=timezone.now)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken by"),
    )
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("judge call")
        verbose_name_plural = _("judge calls")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(closed_at__isnull=True),
                name="events_judgecall_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(taken_at__isnull=False),
                name="events_judgecall_taken_before_closed",
            ),
            models.CheckConstraint(
                condition=Q(taken_at__isnull=True) | Q(taken_by__isnull=False),
                name="events_judgecall_taken_by_someone",
            ),
            length_constraint("events_judgecall", "note", NOTE_MAX_LENGTH),
        ]
        indexes = [models.Index(fields=["event", "closed_at"], name="events_judgecall_queue")]

    def __str__(self):
        return str(_("Table %(n)s") % {"n": self.table_number})

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    def waited_seconds(self, now) -> int:
        """Seconds the table waited for a judge: to ``taken_at``, or to ``now`` while
        nobody took it."""
        end = self.taken_at or now
        return max(0, int((end - self.created_at).total_seconds()))
