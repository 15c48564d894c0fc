"""An organisation's circuits (docs/ratings.md "Circuits"): a period, a chosen set of the
organisation's events, a scoring method, the best N events counted, a minimum attendance
and the qualifying places. Re-exported by ``events.models`` so that Django finds it in
this app. Events kernel; the scoring is ``standings.circuits`` (pure), the services
``standings.circuit_services``.

Invariants in the database: the period ends on or after it starts, a known scoring code,
at least one event counted and attended, no negative places. That every chosen event
belongs to the circuit's organisation and falls in its period is checked by the service
that saves the choice (``standings.circuit_services.save_circuit``), under a row lock.
"""

from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Scoring(models.TextChoices):
    """The scoring codes of ``standings.circuits.Scoring`` (the pure rules; the kernel may
    not import the standings, and ``tests/standings/rules/test_circuits.py`` checks the
    two agree). Stored codes are an API: never rename."""

    RATING = "rating", _("Rating points")
    GP = "gp", _("GP points (25, 15, 13 … 6, then 3)")
    SCORE = "score", _("Score (GW, then VP, then TP)")


class Circuit(models.Model):
    """A series of one organisation's events scored together (docs/ratings.md
    "Circuits"): ``scoring`` (``rating`` | ``gp`` | ``score``: ``standings.circuits.Scoring``),
    ``best`` events counted per player (empty: all), ``min_events`` attended to be
    ranked, ``places`` (the top ranks that qualify; 0: none)."""

    organisation = models.ForeignKey(
        "events.Organisation",
        models.CASCADE,
        related_name="circuits",
        verbose_name=_("organisation"),
    )
    name = models.CharField(_("name"), max_length=200)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    scoring = models.CharField(
        _("scoring"),
        max_length=10,
        choices=Scoring,
        default=Scoring.GP,
    )
    best = models.PositiveSmallIntegerField(
        _("best events counted"),
        null=True,
        blank=True,
        help_text=_("Each player's best results that count; empty: all of them."),
    )
    min_events = models.PositiveSmallIntegerField(
        _("minimum attendance"),
        default=1,
        help_text=_("Events a player must have played to be ranked."),
    )
    places = models.PositiveSmallIntegerField(
        _("qualifying places"),
        default=0,
        help_text=_("The top places that qualify (a badge on the standings); 0: none."),
    )
    events = models.ManyToManyField(
        "events.Event", related_name="circuits", blank=True, verbose_name=_("events")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="events_circuit_period_order"
            ),
            models.CheckConstraint(
                condition=Q(scoring__in=Scoring.values),
                name="events_circuit_scoring_known",
            ),
            models.CheckConstraint(
                condition=Q(best__isnull=True) | Q(best__gte=1), name="events_circuit_best_min"
            ),
            models.CheckConstraint(
                condition=Q(min_events__gte=1), name="events_circuit_min_events_min"
            ),
        ]
        indexes = [
            # The organisation's circuits (its page, the public list filtered by it).
            models.Index(fields=["organisation", "-starts_on"], name="events_circuit_org_idx"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("circuit", args=[self.pk])
