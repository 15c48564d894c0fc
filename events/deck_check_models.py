"""The deck checks' rows (docs/decks.md, "Deck checks"), re-exported by
``events.models`` so that Django finds them in this app. Events kernel."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.limits import FREE_TEXT_MAX_LENGTH, length_constraint


class DeckCheck(models.Model):
    """A deck check of one player in one round (JG §3.1.2; docs/decks.md, "Deck
    checks"): the head judge chose the player at random (``chosen_by`` ``random``, with the
    ``seed`` of the draw, so it can be replayed: ``events.deck_check_services``) or by hand
    (no seed). A judge counts the deck against the registered list and records the
    ``outcome``: ``pending`` until then, ``match`` or ``mismatch`` (with ``judge`` and
    ``decided_at``); a mismatch is the JG §3.1.2 infraction, logged in the incident flow.
    One check per player and round."""

    class ChosenBy(models.TextChoices):
        RANDOM = "random", _("Random draw")
        HAND = "hand", _("Chosen by hand")

    class Outcome(models.TextChoices):
        PENDING = "pending", _("In progress")
        MATCH = "match", _("Matches the list")
        MISMATCH = "mismatch", _("Does not match the list")

    event = models.ForeignKey(
        "events.Event", models.CASCADE, related_name="deck_checks", verbose_name=_("event")
    )
    round = models.ForeignKey(
        "events.Round", models.CASCADE, related_name="deck_checks", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        "events.Registration", models.CASCADE, related_name="deck_checks", verbose_name=_("player")
    )
    chosen_by = models.CharField(_("chosen by"), max_length=10, choices=ChosenBy)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    outcome = models.CharField(
        _("outcome"), max_length=10, choices=Outcome, default=Outcome.PENDING
    )
    note = models.TextField(_("note"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("judge"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("deck check")
        verbose_name_plural = _("deck checks")
        ordering = ["round", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="events_deckcheck_once_per_round"
            ),
            models.CheckConstraint(
                condition=Q(chosen_by__in=["random", "hand"]), name="events_deckcheck_chosen_by"
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=["pending", "match", "mismatch"]),
                name="events_deckcheck_outcome",
            ),
            models.CheckConstraint(
                condition=Q(chosen_by="random", seed__isnull=False, seed__gte=0)
                | Q(chosen_by="hand", seed__isnull=True),
                name="events_deckcheck_seed_iff_random",
            ),
            models.CheckConstraint(
                condition=Q(outcome="pending", decided_at__isnull=True)
                | (~Q(outcome="pending") & Q(decided_at__isnull=False)),
                name="events_deckcheck_decided_iff_not_pending",
            ),
            length_constraint("events_deckcheck", "note", FREE_TEXT_MAX_LENGTH),
        ]

    def __str__(self):
        return f"{self.round_id} · {self.registration_id} · {self.outcome}"
