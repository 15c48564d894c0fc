"""The squads of a season's teams (issue 14; docs/leagues.md "Squads"): the footballers
each team fields, so that cards and lineups name a footballer by identity rather than by
a typed name (ANFPES T24 §1.4: the suspended footballer is the same one however his name
is typed). Imported by :mod:`leagues.models`, where Django finds them.

Invariants held by the database (named constraints): one name per team (compared as the
suspension rules compare names, :func:`leagues.rules.cards.footballer_key`), one shirt
number per team, shirt numbers 1–99, no empty name.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_NUMBER = 99
"""Highest shirt number (the game's own limit) **[choice]**."""


class Footballer(models.Model):
    """A footballer of a team's squad for the season (a :class:`leagues.models.Team` is
    one team of one season): ``name`` as shown, ``name_key`` its compared form
    (:func:`leagues.rules.cards.footballer_key`), an optional shirt ``number``."""

    team = models.ForeignKey(
        "leagues.Team", models.CASCADE, related_name="squad", verbose_name=_("team")
    )
    name = models.CharField(_("name"), max_length=200)
    name_key = models.CharField(_("compared name"), max_length=200, editable=False)
    number = models.PositiveSmallIntegerField(_("shirt number"), null=True, blank=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("squad footballer")
        verbose_name_plural = _("squad footballers")
        ordering = ["team", models.F("number").asc(nulls_last=True), "name_key", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "name_key"], name="leagues_footballer_one_name_per_team"
            ),
            models.UniqueConstraint(
                fields=["team", "number"],
                condition=Q(number__isnull=False),
                name="leagues_footballer_one_number_per_team",
            ),
            models.CheckConstraint(
                condition=Q(number__isnull=True) | Q(number__gte=1, number__lte=MAX_NUMBER),
                name="leagues_footballer_number_range",
            ),
            models.CheckConstraint(
                condition=~Q(name_key="") & ~Q(name=""), name="leagues_footballer_named"
            ),
        ]

    def __str__(self):
        return f"{self.number} {self.name}" if self.number else self.name

    @property
    def label(self) -> str:
        """``"7 · N. Surname"`` (or the name alone): how the report form lists him."""
        return f"{self.number} · {self.name}" if self.number else self.name


class SquadLock(models.Model):
    """Staff closed the squads of ``season``: from then on only league staff change them
    (docs/leagues.md "Squads", **[choice]**: a registration window, as leagues close
    their transfer list). No row: the team owners may still edit their own squad."""

    season = models.OneToOneField(
        "leagues.Season", models.CASCADE, related_name="squad_lock", verbose_name=_("season")
    )
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    locked_at = models.DateTimeField(_("closed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("squad lock")
        verbose_name_plural = _("squad locks")

    def __str__(self):
        return f"{self.season_id} squads closed"
