"""Organisations, people, staff roles, events, rounds, tables, seats and the audit log.

Invariants live in the database (named constraints below); services lock rows with
``select_for_update`` where two people may act at once (result entry, seating).
"""

from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Concat
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The judge calls' rows and the notifications' rows (preferences, push subscriptions,
# webhooks, deliveries) live in their own modules and are re-exported here so that
# Django finds them in this app.
from events.call_models import CallReason, JudgeCall  # noqa: F401

# An organisation's circuits (docs/ratings.md "Circuits").
from events.circuit_models import Circuit  # noqa: F401, E402

# A round's deck checks live in their own module (docs/decks.md, "Deck checks").
from events.deck_check_models import DeckCheck  # noqa: F401, E402

# Registered decklists (docs/decks.md).
from events.deck_models import DECK_TEXT_MAX_LENGTH, Deck  # noqa: F401
from events.deck_play_models import MULTIDECK_HELP, DeckPlay, MultiDeck  # noqa: F401
from events.limits import FREE_TEXT_MAX_LENGTH, VEKN_NUMBER_PATTERN, length_constraint
from events.notify_models import (  # noqa: F401
    Delivery,
    NotificationPreference,
    PushSubscription,
    Webhook,
)
from events.permissions import AUTHORITIES, Role

# Stored rating points (docs/ratings.md "How the rankings stay fast").
from events.rating_models import RatedResult, RatingStamp  # noqa: F401, E402

# A table's result reported by its players (docs/players.md "Reporting your table's result").
from events.report_models import ReportConfirmation, ResultReport  # noqa: F401
from events.report_rules import DEFAULT_COUNTDOWN_MINUTES
from events.round_clock import RoundTiming

# The VEKN link's rows (docs/vekn-link.md): the registry, its conflicts, the pushes.
from events.vekn_models import VeknConflict, VeknMember, VeknPush  # noqa: F401, E402


class Organisation(models.Model):
    """A community that owns events: a VEKN country, a store, a league."""

    class Kind(models.TextChoices):
        VEKN_COUNTRY = "vekn_country", _("VEKN country")
        STORE = "store", _("Store")
        LEAGUE = "league", _("League")
        OTHER = "other", _("Other")

    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind, default=Kind.OTHER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
        help_text=_(
            "The account that created it from the site (empty: created by a platform "
            "administrator in the admin). One account creates at most a few "
            "(docs/organisations.md)."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, null=True)

    class Meta:
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")
        ordering = ["name"]

    def __str__(self):
        return self.name


class OrganisationRole(models.Model):
    """A staff role held on every event of an organisation."""

    organisation = models.ForeignKey(
        Organisation, models.CASCADE, related_name="roles", verbose_name=_("organisation")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="organisation_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role)

    class Meta:
        verbose_name = _("organisation role")
        verbose_name_plural = _("organisation roles")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "user", "role"], name="events_orgrole_no_duplicates"
            )
        ]

    def __str__(self):
        return f"{self.user} — {self.get_role_display()} ({self.organisation})"


class Person(models.Model):
    """A player or other participant. Organisers may create one before the player signs up;
    the player's account is linked later (``user``)."""

    name = models.CharField(_("name"), max_length=200)
    # The name in two parts, when the organiser gave them (docs/organisers.md "Adding a
    # player"): the VEKN report asks for both (TR §9). Empty on both: not given, the report
    # guesses (events.exports.report_names). When given, ``name`` is both together
    # (events.player_lists.person_names; the check below).
    first_name = models.CharField(_("first name"), max_length=200, blank=True, default="")
    last_name = models.CharField(_("last name"), max_length=200, blank=True, default="")
    vekn_number = models.CharField(
        _("VEKN number"), max_length=20, blank=True, default="", db_index=True
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="person",
        verbose_name=_("account"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["vekn_number"],
                condition=~Q(vekn_number=""),
                name="events_person_unique_vekn_number",
            ),
            models.CheckConstraint(
                condition=Q(vekn_number="") | Q(vekn_number__regex=VEKN_NUMBER_PATTERN),
                name="events_person_vekn_number_digits",
            ),
            models.CheckConstraint(
                condition=Q(first_name="", last_name="")
                | Q(last_name="", name=F("first_name"))
                | Q(first_name="", name=F("last_name"))
                | Q(name=Concat(F("first_name"), Value(" "), F("last_name"))),
                name="events_person_name_is_first_and_last",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.vekn_number})" if self.vekn_number else self.name


class Ruleset(models.TextChoices):
    VEKN = "vekn", _("VEKN (Vampire: The Eternal Struggle)")
    MYL = "myl", _("Mitos y Leyendas")


class DeckPublication(models.TextChoices):
    """Which decks the public event page shows once the event has ended (docs/decks.md,
    "Privacy and publication").
    Stored codes: never rename."""

    NONE = "none", _("None")
    WINNER = "winner", _("The winner's")
    FINALISTS = "finalists", _("The finalists' (or the top cut's)")
    ALL = "all", _("Every player's")


class Event(models.Model):
    """A tournament. Its rules are copied from a preset (``events.presets``) at creation
    and may be overridden per event (TR §3.1, §3.1.1, §3.1.6)."""

    class FinalMode(models.TextChoices):
        FINAL = "final", _("Final of the top 5")
        NONE = "none", _("No final (fewer than 8 players)")
        EXTRA_ROUND = "extra_round", _("Extra preliminary round instead of a final")

    class Format(models.TextChoices):
        CONSTRUCTED = "constructed", _("Constructed")
        LIMITED = "limited", _("Limited (draft or sealed)")

    class GameFormat(models.TextChoices):
        """VEKN game format: the ranking category (TR Appendix A; docs/rules-vekn.md
        "Ratings"): standard and V5 are constructed, limited is limited."""

        STANDARD = "standard", _("Standard constructed")
        V5 = "v5", _("V5 constructed")
        LIMITED = "limited", _("Limited (draft or sealed)")

    class Championship(models.TextChoices):
        """The event's level: a national or continental championship raises the
        finalists' bonus (TR Appendix A.2.1); a Grand Prix does not (A.2.1: "Grand Prix and
        Qualifiers get no coefficient bonus") but, like both championships, may not use
        the multi-deck system (TR §3.1.5) nor allow proxies (TR §4.5; the product has no
        proxy setting)."""

        NONE = "", _("Not a championship")
        GRAND_PRIX = "grand_prix", _("Grand Prix")
        NATIONAL = "national", _("National championship")
        CONTINENTAL = "continental", _("Continental championship")

    organisation = models.ForeignKey(
        Organisation, models.PROTECT, related_name="events", verbose_name=_("organisation")
    )
    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset, default=Ruleset.VEKN)
    preset = models.CharField(_("preset"), max_length=40, default="vekn-2026")
    format = models.CharField(
        _("format"), max_length=20, choices=Format, default=Format.CONSTRUCTED
    )
    game_format = models.CharField(
        _("game format"), max_length=20, choices=GameFormat, default=GameFormat.STANDARD
    )
    championship = models.CharField(
        _("championship"), max_length=20, choices=Championship, default="", blank=True
    )
    online = models.BooleanField(_("online"), default=False)
    sets = models.JSONField(
        _("set restriction"),
        default=list,
        blank=True,
        help_text=_(
            "The card sets the event is restricted to; empty for none. A restricted "
            "event is not rated (TR §6.1.1)."
        ),
    )
    preliminary_rounds = models.PositiveSmallIntegerField(_("preliminary rounds"), default=3)
    round_minutes = models.PositiveSmallIntegerField(_("round time (minutes)"), default=120)
    final_minutes = models.PositiveSmallIntegerField(_("final time (minutes)"), default=120)
    decklists_required = models.BooleanField(_("decklists required"), default=True)
    decklist_deadline = models.DateTimeField(
        _("decklist deadline"),
        null=True,
        blank=True,
        help_text=_("After it, a player's list is locked (VEKN TR §6.3); empty: no deadline."),
    )
    decklists_lock_at_start = models.BooleanField(
        _("lock decklists when the first round starts"),
        default=True,
        help_text=_("Lists are locked once the first round has started, deadline or not."),
    )
    deck_publication = models.CharField(
        _("decks published after the event"),
        max_length=12,
        choices=DeckPublication,
        default=DeckPublication.NONE,
    )
    decks_attributed = models.BooleanField(
        _("published decks show the player's name"),
        default=True,
        help_text=_("Untick to publish the decks without their players' names."),
    )
    multideck = models.CharField(  # VEKN TR §3.1.5, §3.1.5a (docs/decks.md "Multi-deck events")
        _("multi-deck"),
        max_length=10,
        choices=MultiDeck,
        default="",
        blank=True,
        help_text=MULTIDECK_HELP,
    )
    final_mode = models.CharField(
        _("final"), max_length=20, choices=FinalMode, default=FinalMode.FINAL
    )
    finalists_count = models.PositiveSmallIntegerField(_("finalists"), default=5)
    best_of = models.PositiveSmallIntegerField(
        _("games per match"),
        default=3,
        choices=[(1, _("Best of 1")), (3, _("Best of 3"))],
        help_text=_("Mitos y Leyendas: games per 1-v-1 match."),
    )
    report_countdown_minutes = models.PositiveSmallIntegerField(
        _("minutes to confirm a reported result"),
        default=DEFAULT_COUNTDOWN_MINUTES,
        help_text=_(
            "Mitos y Leyendas: a result a player reports stands after this many minutes "
            "unless the opponent disputes it (docs/players.md)."
        ),
    )
    tie_breaker_order = models.CharField(
        _("tie-breakers after match points"),
        max_length=40,
        default="omw,gw_pct,ogw",
        choices=[
            ("omw,gw_pct,ogw", "OMW → GW → OGW"),
            ("omw,ogw,gw_pct", "OMW → OGW → GW"),
            ("gw_pct,omw,ogw", "GW → OMW → OGW"),
            ("gw_pct,ogw,omw", "GW → OGW → OMW"),
            ("ogw,omw,gw_pct", "OGW → OMW → GW"),
            ("ogw,gw_pct,omw", "OGW → GW → OMW"),
        ],
        help_text=_(
            "Mitos y Leyendas: the order of opponents' match-win %, game-win % and "
            "opponents' game-win % after match points."
        ),
    )
    top_cut = models.PositiveSmallIntegerField(
        _("top cut"),
        default=0,
        choices=[(0, _("No top cut")), (4, _("Top 4")), (8, _("Top 8"))],
        help_text=_("Mitos y Leyendas: single elimination of the top players after the Swiss."),
    )
    standings_published = models.BooleanField(_("standings published"), default=False)
    results_approved = models.BooleanField(_("results approved"), default=False)
    time_zone = models.CharField(_("time zone"), max_length=64, default="America/Santiago")
    sanctioned = models.BooleanField(
        _("sanctioned"),
        default=True,
        help_text=_("False when venue interference or missing tables unsanctioned it (JG §5)."),
    )
    unsanctioned_reason = models.TextField(_("why unsanctioned"), blank=True, default="")
    force_majeure_at = models.DateTimeField(_("stopped by force majeure at"), null=True, blank=True)
    force_majeure_report = models.TextField(
        _("force majeure report"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH
    )
    public_version = models.PositiveIntegerField(
        _("public pages version"),
        default=1,
        editable=False,
        help_text=_("Bumped on every change; part of the public pages' cache keys."),
    )
    seating_version = models.PositiveIntegerField(
        _("seating page version"),
        default=1,
        editable=False,
        help_text=_(
            "Bumped on every change the public seating page may show (not on results); "
            "part of its cache key."
        ),
    )
    # Players' self-service (docs/players.md): registering from the event's page, a
    # capacity with a waitlist beyond it, and a closing time.
    self_registration = models.BooleanField(
        _("players register themselves"),
        default=False,
        help_text=_("Signed-in players register and unregister from the event's page."),
    )
    capacity = models.PositiveSmallIntegerField(
        _("capacity"),
        null=True,
        blank=True,
        help_text=_(
            "The most players registered (empty: no limit). Beyond it players join a "
            "waitlist that moves up in order when a place frees."
        ),
    )
    registration_closes_at = models.DateTimeField(
        _("registration closes at"),
        null=True,
        blank=True,
        help_text=_("Players can no longer register themselves after this time (empty: open)."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(preliminary_rounds__gte=2, preliminary_rounds__lte=20),
                name="events_event_rounds_range",
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__lte=720, final_minutes__lte=720),
                name="events_event_round_minutes_max",
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__gte=120) | ~Q(ruleset="vekn"),
                name="events_event_vekn_round_two_hours",
            ),
            models.CheckConstraint(
                condition=Q(finalists_count__gte=2, finalists_count__lte=5),
                name="events_event_finalists_range",
            ),
            models.CheckConstraint(
                condition=Q(best_of__in=[1, 3]), name="events_event_best_of_1_or_3"
            ),
            models.CheckConstraint(
                condition=Q(report_countdown_minutes__gte=1, report_countdown_minutes__lte=60),
                name="events_event_report_countdown_range",
            ),
            models.CheckConstraint(
                condition=Q(top_cut__in=[0, 4, 8]), name="events_event_top_cut_0_4_8"
            ),
            models.CheckConstraint(
                condition=Q(sanctioned=True) | ~Q(unsanctioned_reason=""),
                name="events_event_unsanctioned_needs_reason",
            ),
            length_constraint("events_event", "force_majeure_report"),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                name="events_event_capacity_positive",
            ),
            models.CheckConstraint(
                condition=Q(deck_publication__in=DeckPublication.values),
                name="events_event_deck_publication_known",
            ),
            models.CheckConstraint(
                condition=Q(game_format__in=["standard", "v5", "limited"]),
                name="events_event_game_format_known",
            ),
            models.CheckConstraint(
                condition=Q(championship__in=["", "grand_prix", "national", "continental"]),
                name="events_event_championship_known",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("events:public-event", args=[self.slug])

    @property
    def zone(self):
        """The event's time zone as a ``tzinfo`` (the site's for an unknown name)."""

        try:
            return ZoneInfo(self.time_zone)
        except (ValueError, KeyError, OSError):
            return timezone.get_current_timezone()

    @property
    def rated(self) -> bool:
        """Whether the event's results count for the VEKN ratings: sanctioned and without
        a set restriction (TR §6.1.1 note, JG §5; docs/rules-vekn.md "Ratings")."""
        return self.sanctioned and not self.sets

    @property
    def has_final(self) -> bool:
        return self.final_mode == self.FinalMode.FINAL

    @property
    def total_preliminary_rounds(self) -> int:
        """Preliminary rounds including the extra round that replaces the final (TR §3.1.6)."""
        extra = 1 if self.final_mode == self.FinalMode.EXTRA_ROUND else 0
        return self.preliminary_rounds + extra


class EventRole(models.Model):
    """A staff role held on one event."""

    event = models.ForeignKey(Event, models.CASCADE, related_name="roles", verbose_name=_("event"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="event_roles", verbose_name=_("user")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role)

    class Meta:
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "role"], name="events_eventrole_no_duplicates"
            )
        ]

    def __str__(self):
        return f"{self.user} — {self.get_role_display()} ({self.event})"


class AuthorityRole(models.Model):
    """The national authority over one ruleset's sanctions and written appeals: the
    Mitos y Leyendas Organised Play manager (MyL conduct rules §4.5) or the VEKN national
    coordinator (``events.permissions.AUTHORITIES``). It confirms or lifts the
    suspensions and bans that reach beyond their event, escalates VEKN disqualifications
    and decides written appeals on every event of its ruleset except those where it holds
    a staff role (``events.access.user_permissions``). Granted only by a platform
    administrator in the Django admin (``events.admin``), never from a product page."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="authority_roles",
        verbose_name=_("user"),
    )
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("granted by"),
    )
    granted_at = models.DateTimeField(_("granted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("national authority")
        verbose_name_plural = _("national authorities")
        ordering = ["ruleset", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="events_authority_once"),
            models.CheckConstraint(
                condition=Q(ruleset__in=Ruleset.values), name="events_authority_ruleset"
            ),
        ]

    def __str__(self):
        return f"{self.user} — {self.title}"

    @property
    def title(self) -> str:
        """ "Organised Play manager" (MyL) or "National coordinator" (VEKN)."""

        return str(AUTHORITIES[self.ruleset].title)


class Registration(models.Model):
    """A person entered in an event. Nothing is deleted: dropping keeps the scores."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")
        DISQUALIFIED = "disqualified", _("Disqualified")

    event = models.ForeignKey(
        Event, models.CASCADE, related_name="registrations", verbose_name=_("event")
    )
    person = models.ForeignKey(
        Person, models.PROTECT, related_name="registrations", verbose_name=_("person")
    )
    code = models.CharField(
        _("player id"),
        max_length=40,
        help_text=_("Identifier of the player in event files (e.g. p1)."),
    )
    status = models.CharField(_("status"), max_length=20, choices=Status, default=Status.REGISTERED)
    competing = models.BooleanField(
        _("competing"),
        default=True,
        help_text=_("False for spectators or staff registered only to receive a penalty."),
    )
    first_round = models.PositiveSmallIntegerField(
        _("first round"), default=1, help_text=_("Late arrivals join from this round.")
    )
    dropped_after_round = models.PositiveSmallIntegerField(
        _("dropped after round"), null=True, blank=True
    )
    toss_position = models.PositiveSmallIntegerField(
        _("toss position"),
        null=True,
        blank=True,
        help_text=_("Order given by the recorded toss that breaks ties, 1 = best."),
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "person"], name="events_reg_once_per_event"),
            models.UniqueConstraint(fields=["event", "code"], name="events_reg_unique_code"),
            models.UniqueConstraint(
                fields=["event", "toss_position"],
                condition=Q(toss_position__isnull=False),
                name="events_reg_unique_toss_position",
            ),
            models.CheckConstraint(condition=Q(first_round__gte=1), name="events_reg_first_round"),
        ]
        # The registration list and standings load by event.
        indexes = [models.Index(fields=["event", "status"], name="events_reg_event_status")]

    def __str__(self):
        return f"{self.person.name} @ {self.event.slug}"

    @property
    def active(self) -> bool:
        return self.status in (self.Status.REGISTERED, self.Status.CHECKED_IN)


class WaitlistEntry(models.Model):
    """A person waiting for a place in a full event (docs/players.md "The waitlist"). Not
    a registration: nothing of the event day (seating, standings, files) sees it. The
    first entry (``created_at``, then ``id``) becomes a registration when a place frees
    (``events.waitlist.move_up``)."""

    event = models.ForeignKey(
        Event, models.CASCADE, related_name="waitlist", verbose_name=_("event")
    )
    person = models.ForeignKey(
        Person, models.CASCADE, related_name="waitlist_entries", verbose_name=_("person")
    )
    created_at = models.DateTimeField(_("joined at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("waitlist entry")
        verbose_name_plural = _("waitlist")
        ordering = ["event", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "person"], name="events_waitlist_once")
        ]

    def __str__(self):
        return f"{self.person.name} (waitlist) @ {self.event_id}"


class Round(models.Model):
    """A preliminary round or the final (``is_final``)."""

    event = models.ForeignKey(Event, models.CASCADE, related_name="rounds", verbose_name=_("event"))
    number = models.PositiveSmallIntegerField(_("number"))
    is_final = models.BooleanField(_("final"), default=False)
    seating_published = models.BooleanField(_("seating published"), default=False)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    paused_at = models.DateTimeField(
        _("paused at"),
        null=True,
        blank=True,
        help_text=_("When the round's clock was paused, while it is paused."),
    )
    paused_seconds = models.PositiveIntegerField(
        _("time paused (seconds)"),
        default=0,
        help_text=_("The round clock's pauses that are over, in seconds."),
    )
    ending_notified_at = models.DateTimeField(
        _("end notice sent at"),
        null=True,
        blank=True,
        help_text=_("When its players were told the round is about to end (sent once)."),
    )
    finalists = models.JSONField(
        _("finalists"),
        default=list,
        blank=True,
        help_text=_(
            "The final's players (registration ids, best seed first), fixed when it starts."
        ),
    )
    first_player_drawn_at = models.DateTimeField(_("first player drawn at"), null=True, blank=True)
    ritual = models.JSONField(
        _("final seating ritual"),
        default=list,
        blank=True,
        help_text=_("Steps of the final's seating ritual: [registration id, position]."),
    )
    is_top_cut = models.BooleanField(
        _("top cut round"),
        default=False,
        help_text=_("Mitos y Leyendas: a single-elimination round after the Swiss rounds."),
    )
    seed = models.BigIntegerField(
        _("pairing seed"),
        null=True,
        blank=True,
        help_text=_("Seed of the random draws of this round's pairing, so it can be re-run."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="events_round_unique_number"),
            models.UniqueConstraint(
                fields=["event"], condition=Q(is_final=True), name="events_round_one_final"
            ),
            models.CheckConstraint(
                condition=Q(paused_at__isnull=True) | Q(started_at__isnull=False),
                name="events_round_paused_after_start",
            ),
        ]

    def __str__(self):
        return str(_("Final")) if self.is_final else str(_("Round %(n)s") % {"n": self.number})

    def timing(self) -> RoundTiming:
        """The round's clock for ``events.round_clock`` (reads ``self.event``'s round or
        final length: one query unless the event is loaded)."""
        event = self.event
        return RoundTiming(
            started_at=self.started_at,
            minutes=event.final_minutes if self.is_final else event.round_minutes,
            paused_at=self.paused_at,
            paused_seconds=self.paused_seconds,
        )


class Table(models.Model):
    """A table of a round. ``version`` increases on every result change so that two people
    entering the same table at once cannot overwrite each other (optimistic locking)."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="tables", verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("number"))
    version = models.PositiveIntegerField(_("version"), default=0)
    override_reason = models.TextField(
        _("judge override"),
        blank=True,
        default="",
        max_length=FREE_TEXT_MAX_LENGTH,
        help_text=_(
            "Why an irregular sheet is accepted (card effects, mid-game disqualification)."
        ),
    )
    is_bye = models.BooleanField(
        _("bye"), default=False, help_text=_("Mitos y Leyendas: one player, a won match.")
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="events_table_unique_number"),
            length_constraint("events_table", "override_reason"),
        ]

    def __str__(self):
        return str(_("Table %(n)s") % {"n": self.number})


class Seat(models.Model):
    """A player's seat at a table and the Victory Points they scored there (raw VP;
    standings adjustments are stored apart, JG §1.1.3)."""

    table = models.ForeignKey(Table, models.CASCADE, related_name="seats", verbose_name=_("table"))
    round = models.ForeignKey(Round, models.CASCADE, related_name="seats", verbose_name=_("round"))
    registration = models.ForeignKey(
        Registration, models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    vp = models.DecimalField(
        _("victory points"), max_digits=3, decimal_places=1, null=True, blank=True
    )
    loss = models.BooleanField(
        _("loss"), default=False, help_text=_("Left after seating or over 15 minutes late.")
    )
    games_won = models.PositiveSmallIntegerField(
        _("games won"),
        null=True,
        blank=True,
        help_text=_("Mitos y Leyendas: games this player won in the match (as reported)."),
    )
    created_at = models.DateTimeField(
        _("seated at"),
        default=timezone.now,
        editable=False,
        help_text=_(
            "When the server recorded this seat: who first seated a player decides their "
            'account claims (docs/deploy.md, "Account claims").'
        ),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="events_seat_unique_position"
            ),
            models.UniqueConstraint(
                fields=["round", "registration"], name="events_seat_once_per_round"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=5), name="events_seat_position_range"
            ),
            models.CheckConstraint(
                condition=Q(vp__isnull=True) | Q(vp__gte=Decimal("0"), vp__lte=Decimal("5")),
                name="events_seat_vp_range",
            ),
            models.CheckConstraint(
                condition=Q(games_won__isnull=True) | Q(games_won__lte=3),
                name="events_seat_games_won_range",
            ),
        ]

    def __str__(self):
        return f"{self.table} seat {self.position}"

    def mark_loss(self) -> None:
        """Take this seat out of its table's sheet: a "Loss", 0 VP (TR §3.1.4 for a drop
        after seating, JG §1.1.4 for a disqualification during the game; docs/rules-vekn.md
        "Seating"). The table's version moves on, so a form loaded before is stale."""
        self.loss = True
        self.vp = Decimal("0")
        self.save(update_fields=["loss", "vp"])
        Table.objects.filter(pk=self.table_id).update(version=models.F("version") + 1)

    def clear_loss(self) -> bool:
        """Give back a seat :meth:`mark_loss` took out (a mistaken drop undone, a
        disqualification voided), as long as nobody entered another seat of its table
        (the sheet was not written without it). ``True`` when given back."""
        others_entered = (
            Seat.objects.filter(table_id=self.table_id, vp__isnull=False)
            .exclude(pk=self.pk)
            .exists()
        )
        if others_entered:
            return False
        self.loss = False
        self.vp = None
        self.save(update_fields=["loss", "vp"])
        Table.objects.filter(pk=self.table_id).update(version=models.F("version") + 1)
        return True


class AuditLog(models.Model):
    """Who changed what, when, with the values before and after. Never edited or deleted
    (pattern: Tabbycat ``actionlog``, pretix ``LoggedModel.log_action``)."""

    event = models.ForeignKey(
        Event,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("event"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("actor"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    action = models.CharField(_("action"), max_length=60)
    target = models.CharField(_("target"), max_length=200, blank=True, default="")
    # What the entry is about, as (model label, primary key): histories are read back by
    # these, never by the display string ``target`` (events.audit.entries_about).
    target_type = models.CharField(_("target type"), max_length=60, blank=True, default="")
    target_id = models.PositiveBigIntegerField(_("target id"), null=True, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    comment = models.TextField(
        _("comment"), blank=True, default="", max_length=FREE_TEXT_MAX_LENGTH
    )

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-id"]
        constraints = [length_constraint("events_auditlog", "comment")]
        # The event's audit page lists entries newest first.
        indexes = [
            models.Index(fields=["event", "-at"], name="events_audit_event_at"),
            # Entries looked up by what they were about (an action on a target); the
            # closed regular phase, once read here, is now a column of the competition.
            models.Index(fields=["action", "target"], name="events_audit_action_target"),
            models.Index(fields=["target_type", "target_id"], name="events_audit_about"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.target}"


class PlayerClaim(models.Model):
    """A new account asking to be linked to an existing person record (found by VEKN
    number). A VEKN number alone is public and proves nothing: only an organiser of an
    organisation where that person first played before the claim, or a platform administrator,
    decides it (``events.people.decidable_claims``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="player_claims",
        verbose_name=_("account"),
    )
    person = models.ForeignKey(
        Person,
        models.CASCADE,
        null=True,
        blank=True,
        related_name="claims",
        verbose_name=_("person"),
        help_text=_("Empty while no record has this VEKN number yet."),
    )
    vekn_number = models.CharField(_("VEKN number"), max_length=20, default="", db_index=True)
    name = models.CharField(_("name given"), max_length=200, blank=True, default="")
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("player claim")
        verbose_name_plural = _("player claims")
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="pending"),
                name="events_claim_one_pending_per_user",
            )
        ]

    def __str__(self):
        return f"{self.user} → VEKN {self.vekn_number}"


class ResultSubmission(models.Model):
    """A table result sent from the judge's offline tablet, recorded with the id the tablet
    generated, so that sending it again (a lost answer, a retry after the network came
    back) is recognised as already saved instead of a second save or a false conflict
    (``events.views_offline``). Written in the same transaction as the result itself."""

    client_id = models.UUIDField(_("submission id"), unique=True)
    event = models.ForeignKey(
        Event, models.CASCADE, related_name="result_submissions", verbose_name=_("event")
    )
    table = models.ForeignKey(
        Table, models.CASCADE, related_name="submissions", verbose_name=_("table")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    base_version = models.PositiveIntegerField(_("version entered on"))
    version = models.PositiveIntegerField(_("version saved"))
    values = models.JSONField(
        _("values entered"),
        default=list,
        help_text=_("Victory points per seat (VEKN) or games won per player (Mitos y Leyendas)."),
    )
    created_at = models.DateTimeField(_("received at"), auto_now_add=True)

    class Meta:
        verbose_name = _("offline result submission")
        verbose_name_plural = _("offline result submissions")
        ordering = ["event", "-created_at"]

    def __str__(self):
        return f"{self.table} v{self.version} ({self.client_id})"
