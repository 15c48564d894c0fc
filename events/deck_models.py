"""Registered decklists (docs/decks.md), re-exported by ``events.models``."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.limits import length_constraint

DECK_TEXT_MAX_LENGTH = 20_000
"""Characters of a registered decklist (``events.deck_rules.MAX_TEXT_LENGTH``, the same as
``events.myl_deck_rules.MAX_TEXT_LENGTH``; a 90-card list in any format is under 5,000)."""


class Deck(models.Model):
    """A registered decklist (VEKN TR §6.3; Mitos y Leyendas §3.3.2): the ``text`` as the
    player (or a staff member for them, or an event file) submitted it, the ``cards`` read
    from it (a list of ``{"name", "count", "section"}``, plus ``"id"`` for VEKN cards) for
    display, and the verdict at save: ``valid`` and ``problems`` (a list of
    ``{"code", "card", "message", "params", "suggestions"}``, empty exactly when valid).
    An invalid list may be saved (it is what the player submitted), flagged.

    ``label`` names the deck in a multi-deck event (TR §3.1.5; ``""`` for the one deck of
    an ordinary event): one deck per registration and label. ``format`` is the format it
    was checked against (``standard`` | ``v5`` | ``limited`` | ``mitos``, Mitos y Leyendas). ``version`` grows
    with every save (the audit log has each change, ``events.deck_services``)."""

    registration = models.ForeignKey(
        "events.Registration", models.CASCADE, related_name="decks", verbose_name=_("registration")
    )
    label = models.CharField(_("deck label"), max_length=60, blank=True, default="")
    text = models.TextField(_("decklist"), max_length=DECK_TEXT_MAX_LENGTH)
    cards = models.JSONField(_("cards"), default=list)
    valid = models.BooleanField(_("valid"), default=False)
    problems = models.JSONField(_("problems"), default=list)
    format = models.CharField(_("format"), max_length=20)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        verbose_name = _("deck")
        verbose_name_plural = _("decks")
        ordering = ["registration", "label"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "label"], name="events_deck_one_per_label"
            ),
            models.CheckConstraint(condition=~Q(text=""), name="events_deck_text_not_empty"),
            length_constraint("events_deck", "text", DECK_TEXT_MAX_LENGTH),
            models.CheckConstraint(
                condition=Q(valid=True, problems=[]) | (Q(valid=False) & ~Q(problems=[])),
                name="events_deck_valid_iff_no_problems",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="events_deck_version"),
        ]

    def __str__(self):
        return f"{self.label or _('deck')} · {self.registration_id}"
