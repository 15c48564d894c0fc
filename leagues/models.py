"""League seasons (ANFPES T24): seasons, teams, competitions, matches, cards and the
points ledger.

The rules live in :mod:`leagues.rules` (pure, no ORM); :mod:`leagues.services` is the one
adapter that loads these rows, calls the rules and saves what they return. Invariants live
in the database (named constraints below), field names follow the season file
(docs/contracts.md §5) so that import and export stay a plain mapping.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from events.limits import FREE_TEXT_MAX_LENGTH, length_constraint
from leagues.rules.table import ANFPES_TIE_BREAKERS


def default_tie_breakers() -> list[str]:
    """ANFPES T24 §1.2.1 / docs/leagues.md "Tables" (codes of
    :data:`leagues.rules.table.TIE_BREAKERS`)."""
    return list(ANFPES_TIE_BREAKERS)


class Season(models.Model):
    """A league season (docs/leagues.md): it holds the teams and the competitions."""

    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=200)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="America/Santiago",
        help_text=_("Time zone of generated matchday deadlines."),
    )
    organisation = models.ForeignKey(
        "events.Organisation",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="seasons",
        verbose_name=_("organisation"),
        help_text=_("Its webhooks get the season's notices (docs/notifications.md)."),
    )
    draft_base = models.JSONField(
        _("draft base order"),
        default=list,
        blank=True,
        help_text=_(
            "Team ids, first pick first, as staff entered them (ANFPES T24 §III.4, §IV.8)."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at", "slug"]

    def __str__(self):
        return self.name


class Team(models.Model):
    """A team of the season; each team is one human player (docs/leagues.md).

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
    status = models.CharField(
        _("standing"),
        max_length=10,
        choices=[
            ("active", _("Active")),
            ("suspended", _("Suspended until next season")),
            ("expelled", _("Expelled")),
        ],
        default="active",
        help_text=_("Tribunal decision on a team that abandoned (ANFPES T24 §III.4)."),
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

    @property
    def player_name(self) -> str:
        """The player's name on public pages, APIs and exports (issue 12): the linked
        account's full name, else the team's name — never the login username (``handle``,
        ``user.username``), which would help password guessing (docs/leagues.md). Load
        ``user`` with the team (``select_related``) to avoid a query per team."""
        return player_name(
            self.user.first_name if self.user_id else "",
            self.user.last_name if self.user_id else "",
            self.name,
        )


def player_name(first_name: str, last_name: str, team_name: str) -> str:
    """:attr:`Team.player_name` from plain values (for ``.values()`` queries): ``"First
    Last"`` when the account has a name, else ``team_name``."""
    full = f"{first_name or ''} {last_name or ''}".strip()
    return full or team_name


class Competition(models.Model):
    """A competition of a season: a league (double round robin), a group stage or a
    knockout (docs/contracts.md §5 ``kind``)."""

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
    decisions = models.JSONField(
        _("staff decisions on ties"),
        default=list,
        blank=True,
        help_text=_(
            "Team ids, best first, applied only where every tie-breaker is equal, or a "
            "decider match settled the title (ANFPES T24 §1.3.1)."
        ),
    )
    start = models.DateField(
        _("start"), null=True, blank=True, help_text=_("First day of matchday 1.")
    )
    position = models.PositiveSmallIntegerField(_("position in the season"), default=0)
    regular_phase_closed_at = models.DateTimeField(
        _("regular phase closed at"),
        null=True,
        blank=True,
        help_text=_("Set when staff close a league's regular phase (its final phases are drawn)."),
    )
    regular_phase_closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("regular phase closed by"),
    )

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        ordering = ["season", "position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(legs__gte=1), name="leagues_competition_legs"),
        ]

    def __str__(self):
        return self.name

    def refresh_from_db(self, *args, **kwargs):
        """Reload the fields and forget the staff decisions read so far
        (:mod:`leagues.staff_decisions`)."""
        self.__dict__.pop(DECISIONS_CACHE, None)
        super().refresh_from_db(*args, **kwargs)


DECISIONS_CACHE = "_staff_decisions_held"
"""Attribute of a :class:`Competition` instance holding its :class:`StaffDecision` rows
once read (:mod:`leagues.staff_decisions`)."""

#: Staff decisions kept one row per entry (``key`` = a tie slot ``"<tie>.<side>"`` or a
#: tie id); every other kind is one row per competition with ``key`` "".
KEYED_DECISIONS = ("slots", "awards", "award_voided", "third_homes")

DECISION_KINDS = (
    *KEYED_DECISIONS,
    "final_four",
    "relegation",
    "cup",
    "knockouts",
    "cup_groups",
    "compliance_rounds",
)
"""Every kind of :class:`StaffDecision` (its ``Kind`` choices, checked in the database)."""


class StaffDecision(models.Model):
    """One staff decision on a competition's final phases (issue 13: rows instead of a
    JSON field), read and written by kind in :mod:`leagues.staff_decisions`. One row per
    (competition, kind, key): ``key`` is the tie slot (``"<tie>.first"``/``".second"``)
    for a slot, the tie id for an award, its voided legs or a third-match host, and "" for
    the one-per-competition kinds; ``value`` (never null: withdrawing deletes the row)
    holds the decided team, list or setting. The constraints hold these rules in the
    database. docs/leagues.md "Staff decisions on brackets", ANFPES T24 §1.1.4–§1.1.6, §V ¶3, §2.2."""

    class Kind(models.TextChoices):
        SLOTS = "slots"
        AWARDS = "awards"
        AWARD_VOIDED = "award_voided"
        THIRD_HOMES = "third_homes"
        FINAL_FOUR = "final_four"
        RELEGATION = "relegation"
        CUP = "cup"
        KNOCKOUTS = "knockouts"
        CUP_GROUPS = "cup_groups"
        COMPLIANCE_ROUNDS = "compliance_rounds"

    competition = models.ForeignKey(Competition, models.CASCADE, related_name="staff_decisions")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    key = models.CharField(max_length=80, blank=True, default="")
    value = models.JSONField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["competition", "kind", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "kind", "key"], name="one_staff_decision_per_slot"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=DECISION_KINDS),
                name="staff_decision_known_kind",
            ),
            models.CheckConstraint(
                condition=(models.Q(kind__in=KEYED_DECISIONS) & ~models.Q(key=""))
                | (~models.Q(kind__in=KEYED_DECISIONS) & models.Q(key="")),
                name="staff_decision_key_iff_keyed_kind",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="slots")
                | models.Q(key__endswith=".first")
                | models.Q(key__endswith=".second"),
                name="staff_decision_slot_key_names_a_side",
            ),
            models.CheckConstraint(
                condition=models.Q(value__isnull=False), name="staff_decision_has_a_value"
            ),
        ]

    def __str__(self):
        return f"{self.competition_id} {self.kind} {self.key}".strip()


class TiePause(models.Model):
    """A knockout tie paused pending the tribunal (a suspended footballer fielded, ANFPES
    T24 §1.4 ¶3, §III): nothing is created from it until the tribunal unpauses it (the
    row is deleted; the audit log keeps both). leagues.bracket_decisions.pause_tie."""

    competition = models.ForeignKey(Competition, models.CASCADE, related_name="tie_pauses")
    tie = models.CharField(_("tie"), max_length=40)
    reason = models.TextField(_("reason"), max_length=FREE_TEXT_MAX_LENGTH)
    paused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    paused_at = models.DateTimeField(_("paused at"), auto_now_add=True)

    class Meta:
        verbose_name = _("paused tie")
        verbose_name_plural = _("paused ties")
        constraints = [
            models.UniqueConstraint(fields=["competition", "tie"], name="one_pause_per_tie"),
            length_constraint("leagues_tiepause", "reason"),
        ]

    def __str__(self):
        return f"{self.competition_id} {self.tie}"


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
    """A fixture (docs/contracts.md §5 ``matches``). Goals are both set or both empty; ``absent``
    is set only, and always, on a walkover. Walkover deductions are ledger entries
    (:class:`Adjustment`), never edits of the score."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYED = "played", _("Played")
        WALKOVER = "walkover", _("Walkover")
        VOID = "void", pgettext_lazy("match status", "Void")

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
    must_stream = models.BooleanField(
        _("broadcast required"),
        default=False,
        help_text=_(
            "Set by league staff on a regular-phase fixture: played without a stream link, "
            "it is a friendly and does not count (ANFPES T24 §1.4)."
        ),
    )
    tie = models.CharField(_("tie"), max_length=40, blank=True, default="")
    leg = models.PositiveSmallIntegerField(_("leg"), null=True, blank=True)
    group = models.CharField(_("group"), max_length=20, blank=True, default="")
    lineup = models.JSONField(
        _("lineups"),
        default=list,
        blank=True,
        help_text=_(
            'The footballers named in the lineups reported with the result: [{"team": '
            '"t1", "footballer": "N. Surname"}] (a suspended footballer named flags the '
            "fixture for staff, ANFPES T24 §1.4)."
        ),
    )

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
    """A booking shown in a match (docs/contracts.md §5 ``cards``; ANFPES T24 §1.4, §2.2;
    docs/leagues-final-phases.md "Cards and suspensions"). A second yellow in one match is two
    ``yellow`` rows."""

    class Kind(models.TextChoices):
        YELLOW = "yellow", _("Yellow card")
        RED = "red", _("Red card")

    match = models.ForeignKey(Match, models.CASCADE, related_name="cards", verbose_name=_("match"))
    team = models.ForeignKey(Team, models.PROTECT, related_name="cards", verbose_name=_("team"))
    footballer = models.CharField(_("footballer"), max_length=200)
    card = models.CharField(_("card"), max_length=6, choices=Kind)
    squad = models.ForeignKey(  # the squad footballer when known (leagues.squads)
        "leagues.Footballer", models.SET_NULL, null=True, blank=True, related_name="cards"
    )

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
    """One entry of a competition's points ledger (docs/leagues.md "Tables"; docs/contracts.md §5
    ``adjustments``): walkover deductions, tribunal decisions. Never edited nor deleted:
    a mistake is corrected by another entry."""

    competition = models.ForeignKey(
        Competition, models.CASCADE, related_name="adjustments", verbose_name=_("competition")
    )
    team = models.ForeignKey(
        Team, models.PROTECT, related_name="adjustments", verbose_name=_("team")
    )
    points = models.SmallIntegerField(_("points"))
    reason = models.TextField(_("reason"), max_length=FREE_TEXT_MAX_LENGTH)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    client_id = models.UUIDField(
        _("submission id"),
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text=_(
            "Generated when the tribunal's form was shown: the same form sent twice (a "
            "double click) is already saved, never a second entry. Empty for entries made "
            "by walkovers, abandonments and season files."
        ),
    )

    class Meta:
        verbose_name = _("points adjustment")
        verbose_name_plural = _("points adjustments")
        ordering = ["competition", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="leagues_adjustment_has_reason"),
            length_constraint("leagues_adjustment", "reason"),
        ]

    def __str__(self):
        return f"{self.team} {self.points:+d}: {self.reason}"


# --------------------------------------------------------------------------- staff
class SeasonRole(models.Model):
    """A league role on a season (issue 4): **league staff** run the season (review reports,
    resolve disputes, correct results, move deadlines, approve excuses, hold reviews, enter
    the draft's base order); the **tribunal** decides sanctions (walkovers, refusals,
    both-absent fixtures, abandonment, points adjustments — ANFPES T24 §III). Superusers hold
    both everywhere."""

    class Role(models.TextChoices):
        STAFF = "staff", _("League staff")
        TRIBUNAL = "tribunal", _("Tribunal")

    season = models.ForeignKey(
        Season, models.CASCADE, related_name="roles", verbose_name=_("season")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="season_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role)

    class Meta:
        verbose_name = _("season role")
        verbose_name_plural = _("season roles")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "user", "role"], name="leagues_seasonrole_unique"
            ),
        ]

    def __str__(self):
        return f"{self.user} {self.get_role_display()} @ {self.season}"


# --------------------------------------------------------------------------- results
MAX_GOALS = 99
"""The database's guard on a stored report's goals (its CHECK constraint). What the pages
and services accept is narrower: :data:`leagues.rules.scores.MAX_GOALS` (30, issue 14)."""


def screenshot_path(instance, filename):
    """``screenshots/<season>/<match id>/<random>.<ext>``: never the uploader's file name."""

    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else "img"
    match = instance.match
    return (
        f"screenshots/{match.competition.season.slug}/{match.competition.slug}-{match.code}/"
        f"{secrets.token_hex(8)}.{ext}"
    )


class ResultReport(models.Model):
    """A result reported by one of the two players with its screenshot and the time it was
    posted in the league chat (the reference of the compliance table, ANFPES T24 §IV;
    docs/leagues.md "Compliance table").

    Life: ``pending`` → the opponent ``confirmed`` it (the match takes the result) or
    ``disputed`` it → staff ``resolved`` the dispute (with the report's score or another
    one) or ``rejected`` the report (the match stays unplayed). The reporter may
    ``withdrawn`` a pending report. At most one open (pending or disputed) report per match,
    enforced by the database."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the opponent")
        CONFIRMED = "confirmed", _("Confirmed by the opponent")
        DISPUTED = "disputed", _("Disputed")
        RESOLVED = "resolved", _("Resolved by staff")
        REJECTED = "rejected", _("Rejected by staff")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    match = models.ForeignKey(
        Match, models.CASCADE, related_name="reports", verbose_name=_("match")
    )
    team = models.ForeignKey(
        Team, models.PROTECT, related_name="+", verbose_name=_("reported by team")
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("reported by"),
    )
    home_goals = models.PositiveSmallIntegerField(_("home goals"))
    away_goals = models.PositiveSmallIntegerField(_("away goals"))
    posted_at = models.DateTimeField(
        _("posted at"), help_text=_("Time of the message that posted the result in the chat.")
    )
    screenshot = models.ImageField(_("screenshot"), upload_to=screenshot_path, max_length=200)
    bookings_screenshot = models.ImageField(
        _("bookings screenshot"),
        upload_to=screenshot_path,
        max_length=200,
        blank=True,
        default="",
        help_text=_(
            "The screenshot of the bookings, beside the result's; asked in the final "
            "phases when bookings are reported (ANFPES T24 §1.4)."
        ),
    )
    stream_url = models.URLField(
        _("stream link"),
        max_length=500,
        blank=True,
        default="",
        help_text=_("The match's broadcast; a final-phase match without one does not count."),
    )
    cards = models.JSONField(
        _("bookings"),
        default=list,
        blank=True,
        help_text=_(
            'The bookings reported with the result, as in the season file: [{"team": "t1", '
            '"footballer": "N. Surname", "card": "yellow"}]; they become the match\'s cards '
            "when the result is accepted."
        ),
    )
    extra_time = models.BooleanField(
        _("after extra time"),
        default=False,
        help_text=_("A third match or decider: the score includes extra time."),
    )
    penalties_home = models.PositiveSmallIntegerField(_("home penalties"), null=True, blank=True)
    penalties_away = models.PositiveSmallIntegerField(_("away penalties"), null=True, blank=True)
    lineup = models.JSONField(
        _("lineups"),
        default=list,
        blank=True,
        help_text=_(
            'The footballers of the lineups (optional): [{"team": "t1", "footballer": '
            '"N. Surname"}]; they become the match\'s when the result is accepted.'
        ),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    dispute_reason = models.TextField(
        _("reason for the dispute"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH
    )
    responded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    responded_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    resolution = models.TextField(
        _("staff decision"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    resolved_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        ordering = ["match", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status__in=["pending", "disputed"]),
                name="leagues_report_one_open_per_match",
            ),
            models.CheckConstraint(
                condition=Q(home_goals__lte=MAX_GOALS, away_goals__lte=MAX_GOALS),
                name="leagues_report_goals_range",
            ),
            models.CheckConstraint(
                condition=Q(penalties_home__isnull=True, penalties_away__isnull=True)
                | (
                    Q(penalties_home__isnull=False, penalties_away__isnull=False)
                    & Q(home_goals=models.F("away_goals"))
                    & ~Q(penalties_home=models.F("penalties_away"))
                ),
                name="leagues_report_penalties_after_a_level_score",
            ),
            length_constraint("leagues_report", "dispute_reason"),
            length_constraint("leagues_report", "resolution"),
        ]
        indexes = [models.Index(fields=["status", "match"], name="leagues_report_status")]

    def __str__(self):
        return f"{self.match} {self.home_goals}–{self.away_goals} ({self.get_status_display()})"

    @property
    def is_open(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.DISPUTED)


# --------------------------------------------------------------------------- compliance
def evidence_path(instance, filename):

    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else "img"
    return f"evidence/{instance.match.competition.season.slug}/{secrets.token_hex(8)}.{ext}"


class Excuse(models.Model):
    """An excuse for a fixture (ANFPES T24 §IV.5–§IV.6, docs/leagues.md "Compliance table"):
    asked by one player with dates, reason and evidence; it counts only once the opponent
    confirmed it and staff approved it. One per match (a refused one can be asked again: the row is
    reset, the audit log keeps the history)."""

    class Answer(models.TextChoices):
        WAITING = "", _("Waiting")
        YES = "yes", _("Yes")
        NO = "no", _("No")

    match = models.OneToOneField(
        Match, models.CASCADE, related_name="excuse", verbose_name=_("match")
    )
    team = models.ForeignKey(
        Team, models.PROTECT, related_name="+", verbose_name=_("asked by team")
    )
    date_from = models.DateField(_("from"))
    date_to = models.DateField(_("to"))
    reason = models.TextField(_("reason"), max_length=FREE_TEXT_MAX_LENGTH)
    evidence = models.ImageField(_("evidence"), upload_to=evidence_path, max_length=200)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    opponent_answer = models.CharField(
        _("opponent's answer"), max_length=3, choices=Answer, blank=True, default=""
    )
    staff_answer = models.CharField(
        _("staff decision"), max_length=3, choices=Answer, blank=True, default=""
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        verbose_name = _("excuse")
        verbose_name_plural = _("excuses")
        constraints = [
            models.CheckConstraint(
                condition=Q(date_to__gte=models.F("date_from")), name="leagues_excuse_dates"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="leagues_excuse_has_reason"),
            length_constraint("leagues_excuse", "reason"),
        ]

    def __str__(self):
        return f"{self.match}: {self.reason[:40]}"

    @property
    def effective(self) -> bool:
        return self.opponent_answer == "yes" and self.staff_answer == "yes"


MAX_EXCUSE_IMAGES = 3
"""Evidence images an excuse may carry, the first included (ANFPES T24 §IV.6: "deberán
adjuntarse capturas de pantalla", plural) **[choice: three cover a chat, a calendar and a
certificate; more is a document, sent by e-mail, §IV.7]**."""


class ExcuseImage(models.Model):
    """One more evidence image of an excuse (the first is :attr:`Excuse.evidence`), stored
    re-encoded (leagues.images); ``position`` 2…:data:`MAX_EXCUSE_IMAGES`, in the order sent."""

    excuse = models.ForeignKey(
        Excuse, models.CASCADE, related_name="more_evidence", verbose_name=_("excuse")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    image = models.ImageField(_("evidence"), upload_to=evidence_path, max_length=200)

    class Meta:
        verbose_name = _("excuse evidence image")
        verbose_name_plural = _("excuse evidence images")
        ordering = ["excuse", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["excuse", "position"], name="leagues_excuse_image_position"
            )
        ]

    def __str__(self):
        return f"{self.excuse} #{self.position}"

    @property
    def match(self):
        return self.excuse.match


class Concession(models.Model):
    """A player concedes a fixture's compliance points (ANFPES T24 §IV.7): the opponent
    gets 2, the conceding player 0; the match must still be played. Final: one per match."""

    match = models.OneToOneField(
        Match, models.CASCADE, related_name="concession", verbose_name=_("match")
    )
    team = models.ForeignKey(Team, models.PROTECT, related_name="+", verbose_name=_("team"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("concession")
        verbose_name_plural = _("concessions")

    def __str__(self):
        return f"{self.match} conceded by {self.team}"


class Review(models.Model):
    """A compliance review ("guadañazo", ANFPES T24 §IV.3) held by staff at ``at``:
    ``first_half`` covers the first half of each counted round robin; ``second_half`` and
    ``season_end`` cover every counted fixture; reaped users at ``season_end`` also lose
    their cup bonus points (§IV.2)."""

    class Kind(models.TextChoices):
        FIRST_HALF = "first_half", _("End of the first half")
        SECOND_HALF = "second_half", _("End of the second half")
        SEASON_END = "season_end", _("End of the season")

    season = models.ForeignKey(
        Season, models.CASCADE, related_name="reviews", verbose_name=_("season")
    )
    kind = models.CharField(_("review"), max_length=12, choices=Kind)
    at = models.DateTimeField(_("held at"))
    held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        verbose_name = _("compliance review")
        verbose_name_plural = _("compliance reviews")
        ordering = ["season", "at"]
        constraints = [
            models.UniqueConstraint(fields=["season", "kind"], name="leagues_review_once"),
        ]

    def __str__(self):
        return f"{self.season}: {self.get_kind_display()}"


# --------------------------------------------------------------------------- draft
class DraftLot(models.Model):
    """A draw by lot for the draft (ANFPES T24 §III.4, §IV.8; docs/leagues.md "Draft order"): the
    entrants in base order, the seed and the resulting order, so anyone can re-run it
    (:func:`leagues.rules.draft.draw_lots`). Never edited; a new draw is a new row and the newest
    counts."""

    season = models.ForeignKey(
        Season, models.CASCADE, related_name="draft_lots", verbose_name=_("season")
    )
    entrants = models.JSONField(_("entrants"))
    seed = models.CharField(_("seed"), max_length=100)
    order = models.JSONField(_("order"))
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        verbose_name = _("draw by lot")
        verbose_name_plural = _("draws by lot")
        ordering = ["season", "-drawn_at", "-id"]

    def __str__(self):
        return f"{self.season}: {', '.join(map(str, self.order))} (seed {self.seed})"


# --------------------------------------------------------------------------- cups
class CupBonus(models.Model):
    """One entry of the Nucommunity Shit bonus-points ledger (ANFPES T24 §2.1, §IV.2;
    :func:`leagues.rules.cups.bonus_totals`): points to a team's user, with a reason,
    entered by league staff. Never edited; a mistake is corrected by another entry."""

    season = models.ForeignKey(
        Season, models.CASCADE, related_name="cup_bonuses", verbose_name=_("season")
    )
    team = models.ForeignKey(Team, models.PROTECT, related_name="+", verbose_name=_("team"))
    points = models.SmallIntegerField(_("points"))
    reason = models.TextField(_("reason"), max_length=FREE_TEXT_MAX_LENGTH)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    client_id = models.UUIDField(
        _("submission id"),
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text=_(
            "Generated when the staff form was shown: the same form sent twice is already "
            "saved, never a second entry."
        ),
    )

    class Meta:
        verbose_name = _("cup bonus points")
        verbose_name_plural = _("cup bonus points")
        ordering = ["season", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="leagues_cupbonus_has_reason"),
            length_constraint("leagues_cupbonus", "reason"),
        ]

    def __str__(self):
        return f"{self.team} {self.points:+d}: {self.reason}"


from leagues.models_scheduling import (  # noqa: E402, F401 (found here)
    LeagueReminder,
    ScreenshotHash,
    ScreenshotReuse,
    TimeProposal,
)
from leagues.models_squads import Footballer, SquadLock  # noqa: E402, F401 (found here)
from leagues.models_submissions import StaffSubmission  # noqa: E402, F401 (found here)
