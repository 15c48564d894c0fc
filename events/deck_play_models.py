"""Multi-deck events' rows (VEKN TR §3.1.5, §3.1.5a; docs/decks.md "Multi-deck events"):
the event's method (``MultiDeck``, stored on ``Event.multideck``) and which registered deck
a player plays in a round (``DeckPlay``), re-exported by ``events.models`` so that Django
finds them in this app. Events kernel."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MULTIDECK_HELP = _(
    "Players may bring several decks and switch between rounds (TR §3.1.5); "
    "announce it before the event. Not at national or continental championships "
    "or Grand Prix events."
)


class MultiDeck(models.TextChoices):
    """Whether an event uses the multi-deck system (TR §3.1.5) and how a finalist's deck is
    decided (TR §3.1.5a). Stored codes: never rename."""

    OFF = "", _("No: one deck for the whole event")
    BEST = "best", _("Yes: the final is played with the best-performing deck")
    FREE = "free", _("Yes: each finalist chooses their deck for the final")


class DeckPlay(models.Model):
    """The deck a player plays in one round of a multi-deck event (TR §3.1.5): one row per
    registration and ``round_number`` (the round's ``Round.number``, the final's included;
    the row may exist before the round is seated). ``deck`` is one of the registration's
    own decks (``events.deck_play`` checks it). ``reason`` is ``""`` for a deck the player
    (or a judge for them) chose, else the code of ``events.deck_selection.REASONS`` for a
    final's best-performing deck, whose ``choice`` holds the computed choice
    (``round_number``, ``gw``, ``vp`` as a string, ``tp``, ``tied_labels``, ``seed``,
    ``runner_up``), so the draw can be replayed; a judge's choice holds
    ``{"by_judge": true}``."""

    registration = models.ForeignKey(
        "events.Registration", models.CASCADE, related_name="deck_plays", verbose_name=_("player")
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    deck = models.ForeignKey(
        "events.Deck", models.PROTECT, related_name="plays", verbose_name=_("deck")
    )
    reason = models.CharField(_("why this deck"), max_length=10, blank=True, default="")
    choice = models.JSONField(_("best-performing deck"), default=dict, blank=True)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("set by"),
    )
    set_at = models.DateTimeField(_("set at"), default=timezone.now)

    class Meta:
        verbose_name = _("deck played")
        verbose_name_plural = _("decks played")
        ordering = ["registration", "round_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "round_number"], name="events_deckplay_once_per_round"
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="events_deckplay_round"),
            models.CheckConstraint(
                condition=Q(reason__in=["", "only_deck", "gw", "vp", "tp", "draw"]),
                name="events_deckplay_reason",
            ),
        ]

    def __str__(self):
        return f"{self.registration_id} · {self.round_number} · {self.deck_id}"
