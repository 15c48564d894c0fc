"""League seasons (ANFPES T24): seasons, teams, competitions, matches, cards and the
points ledger.

The rules live in :mod:`leagues.rules` (pure, no ORM); :mod:`leagues.services` is the one
adapter that loads these rows, calls the rules and saves what they return. Invariants live
in the database (named constraints below), field names follow the season file
(CONTRACTS §5) so that import and export stay a plain mapping.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from leagues.rules.table import ANFPES_TIE_BREAKERS


def default_tie_breakers() -> list[str]:
    """ANFPES T24 §1.2.1 / SPEC-leagues §2 (codes of :data:`leagues.rules.table.TIE_BREAKERS`)."""
    return list(ANFPES_TIE_BREAKERS)


class Season(models.Model):
    """A league season (SPEC-leagues §1): it holds the teams and the competitions."""

    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=200)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="America/Santiago",
        help_text=_("Time zone of generated matchday deadlines."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at", "slug"]

    def __str__(self):
        return self.name


class Team(models.Model):
    """A team of the season; each team is one human player (SPEC-leagues, intro).

    ``code`` is the team's id in season files (``t1``); ``handle`` is the ``user`` of the
    file, kept even when no account has that username yet; ``user`` links the account."""

    season = models.ForeignKey(
        Season, models.CASCADE, related_name="teams", verbose_name=_("season")
    )
    code = models.CharField(
        _("team id"), max_length=40, help_text=_("Identifier of the team in season files.")
    )
    name = models.CharField(_("name"), max_length=200)
    handle = models.CharField(
        _("player"), max_length=150, help_text=_("The player's user name in season files.")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_teams",
        verbose_name=_("account"),
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["season", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "code"], name="leagues_team_unique_code"),
            models.UniqueConstraint(
                fields=["season", "handle"], name="leagues_team_one_per_player"
            ),
            models.UniqueConstraint(
                fields=["season", "user"],
                condition=Q(user__isnull=False),
                name="leagues_team_one_per_account",
            ),
        ]

    def __str__(self):
        return self.name


class Competition(models.Model):
    """A competition of a season: a league (double round robin), a group stage or a
    knockout (CONTRACTS §5 ``kind``)."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("League")
        GROUPS = "groups", _("Groups")
        KNOCKOUT = "knockout", _("Knockout")

    season = models.ForeignKey(
        Season, models.CASCADE, related_name="competitions", verbose_name=_("season")
    )
    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    name = models.CharField(_("name"), max_length=200)
    legs = models.PositiveSmallIntegerField(_("legs"), default=2)
    tie_breakers = models.JSONField(
        _("tie-breakers"),
        default=default_tie_breakers,
        help_text=_("Ordered tie-breaker codes, points first (stable codes)."),
    )
    title_decider = models.BooleanField(
        _("title decided by a decider match"),
        default=False,
        help_text=_("A tie on points for 1st needs a decider match (Primera B, §1.3.1)."),
    )
    counts_for_compliance = models.BooleanField(_("counts for the compliance table"), default=True)
    start = models.DateField(
        _("start"), null=True, blank=True, help_text=_("First day of matchday 1.")
    )
    position = models.PositiveSmallIntegerField(_("position in the season"), default=0)

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        ordering = ["season", "position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(legs__gte=1), name="leagues_competition_legs"),
        ]

    def __str__(self):
        return self.name


class Entry(models.Model):
    """A team taking part in a competition (the competition's ``teams`` list, in file
    order) and, for a group stage, its group."""

    competition = models.ForeignKey(
        Competition, models.CASCADE, related_name="entries", verbose_name=_("competition")
    )
    team = models.ForeignKey(Team, models.CASCADE, related_name="entries", verbose_name=_("team"))
    position = models.PositiveSmallIntegerField(_("position in the list"))
    group = models.CharField(_("group"), max_length=20, blank=True, default="")

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["competition", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "team"], name="leagues_entry_once_per_competition"
            ),
        ]

    def __str__(self):
        return f"{self.team} @ {self.competition}"


class Match(models.Model):
    """A fixture (CONTRACTS §5 ``matches``). Goals are both set or both empty; ``absent``
    is set only, and always, on a walkover. Walkover deductions are ledger entries
    (:class:`Adjustment`), never edits of the score."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYED = "played", _("Played")
        WALKOVER = "walkover", _("Walkover")
        VOID = "void", _("Void")

    class Absent(models.TextChoices):
        HOME = "home", _("Home team")
        AWAY = "away", _("Away team")
        BOTH = "both", _("Both teams")

    competition = models.ForeignKey(
        Competition, models.CASCADE, related_name="matches", verbose_name=_("competition")
    )
    code = models.CharField(
        _("match id"), max_length=40, help_text=_("Identifier of the match in season files.")
    )
    round = models.PositiveSmallIntegerField(_("matchday"))
    home = models.ForeignKey(
        Team, models.PROTECT, related_name="home_matches", verbose_name=_("home team")
    )
    away = models.ForeignKey(
        Team, models.PROTECT, related_name="away_matches", verbose_name=_("away team")
    )
    home_goals = models.PositiveSmallIntegerField(_("home goals"), null=True, blank=True)
    away_goals = models.PositiveSmallIntegerField(_("away goals"), null=True, blank=True)
    extra_time = models.JSONField(
        _("extra time"),
        null=True,
        blank=True,
        help_text=_("As in the season file: empty, true/false or a [home, away] score."),
    )
    penalties_home = models.PositiveSmallIntegerField(_("home penalties"), null=True, blank=True)
    penalties_away = models.PositiveSmallIntegerField(_("away penalties"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.SCHEDULED)
    absent = models.CharField(_("absent"), max_length=4, choices=Absent, blank=True, default="")
    reported_at = models.DateTimeField(
        _("result posted at"),
        null=True,
        blank=True,
        help_text=_("When the result was posted: the reference of the compliance table."),
    )
    initial_deadline = models.DateTimeField(_("initial deadline"), null=True, blank=True)
    final_deadline = models.DateTimeField(_("final deadline"), null=True, blank=True)
    stream_url = models.CharField(_("stream URL"), max_length=500, blank=True, default="")
    tie = models.CharField(_("tie"), max_length=40, blank=True, default="")
    leg = models.PositiveSmallIntegerField(_("leg"), null=True, blank=True)
    group = models.CharField(_("group"), max_length=20, blank=True, default="")

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["competition", "round", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "code"], name="leagues_match_unique_code"
            ),
            models.CheckConstraint(
                condition=~Q(home=models.F("away")), name="leagues_match_not_against_itself"
            ),
            models.CheckConstraint(
                condition=Q(home_goals__isnull=True) | Q(home_goals__gte=0, away_goals__gte=0),
                name="leagues_match_goals_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(home_goals__isnull=True, away_goals__isnull=True)
                | Q(home_goals__isnull=False, away_goals__isnull=False),
                name="leagues_match_goals_both_or_neither",
            ),
            models.CheckConstraint(
                condition=~Q(status="played") | Q(home_goals__isnull=False),
                name="leagues_match_played_has_score",
            ),
            models.CheckConstraint(
                condition=~Q(status="scheduled") | Q(home_goals__isnull=True),
                name="leagues_match_scheduled_no_score",
            ),
            models.CheckConstraint(
                condition=Q(status="walkover", absent__in=["home", "away", "both"])
                | (~Q(status="walkover") & Q(absent="")),
                name="leagues_match_absent_only_walkover",
            ),
            models.CheckConstraint(
                condition=Q(penalties_home__isnull=True, penalties_away__isnull=True)
                | Q(penalties_home__gte=0, penalties_away__gte=0),
                name="leagues_match_penalties_both_or_neither",
            ),
            models.CheckConstraint(
                condition=Q(initial_deadline__isnull=True)
                | Q(final_deadline__isnull=True)
                | Q(final_deadline__gte=models.F("initial_deadline")),
                name="leagues_match_final_after_initial_deadline",
            ),
            models.CheckConstraint(
                condition=Q(leg__isnull=True) | Q(leg__gte=1, leg__lte=3),
                name="leagues_match_leg_range",
            ),
            models.CheckConstraint(condition=Q(round__gte=1), name="leagues_match_round_min"),
        ]
        # The fixtures page and the table load a competition's matches by matchday.
        indexes = [models.Index(fields=["competition", "round"], name="leagues_match_comp_round")]

    def __str__(self):
        return f"{self.competition.slug} {self.code}"


class Card(models.Model):
    """A booking shown in a match (CONTRACTS §5 ``cards``; SPEC-leagues §5). A second
    yellow in one match is two ``yellow`` rows."""

    class Kind(models.TextChoices):
        YELLOW = "yellow", _("Yellow card")
        RED = "red", _("Red card")

    match = models.ForeignKey(Match, models.CASCADE, related_name="cards", verbose_name=_("match"))
    team = models.ForeignKey(Team, models.PROTECT, related_name="cards", verbose_name=_("team"))
    footballer = models.CharField(_("footballer"), max_length=200)
    card = models.CharField(_("card"), max_length=6, choices=Kind)

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["match", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(card__in=["yellow", "red"]), name="leagues_card_kind"
            ),
        ]

    def __str__(self):
        return f"{self.footballer} ({self.get_card_display()})"


class Adjustment(models.Model):
    """One entry of a competition's points ledger (SPEC-leagues §2; CONTRACTS §5
    ``adjustments``): walkover deductions, tribunal decisions. Never edited nor deleted:
    a mistake is corrected by another entry."""

    competition = models.ForeignKey(
        Competition, models.CASCADE, related_name="adjustments", verbose_name=_("competition")
    )
    team = models.ForeignKey(
        Team, models.PROTECT, related_name="adjustments", verbose_name=_("team")
    )
    points = models.SmallIntegerField(_("points"))
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("points adjustment")
        verbose_name_plural = _("points adjustments")
        ordering = ["competition", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="leagues_adjustment_has_reason"),
        ]

    def __str__(self):
        return f"{self.team} {self.points:+d}: {self.reason}"
