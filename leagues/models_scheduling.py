"""Scheduling a fixture, the league reminders sent and the screenshots' perceptual hashes
(issue 17; docs/leagues.md "Scheduling a fixture", "Reminders", "Reused screenshots").
Imported by :mod:`leagues.models`, where Django finds them.

Invariants held by the database (named constraints): at most one accepted time per
fixture; one open proposal of the same time per fixture; a reminder is recorded once per
``key`` (kind, fixture or report, deadline, account); one hash per report and image; a
reused-screenshot flag once per pair.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class TimeProposal(models.Model):
    """A time one player offers to play a fixture (ANFPES T24 §IV.4). ``open`` until the
    other player accepts it (``accepted``: the fixture's agreed time) or a new proposal
    replaces it (``replaced``); the rules are :mod:`leagues.rules.scheduling`."""

    class Status(models.TextChoices):
        OPEN = "open", _("Proposed")
        ACCEPTED = "accepted", _("Agreed")
        REPLACED = "replaced", _("Replaced")

    match = models.ForeignKey(
        "leagues.Match", models.CASCADE, related_name="time_proposals", verbose_name=_("match")
    )
    team = models.ForeignKey(
        "leagues.Team", models.PROTECT, related_name="+", verbose_name=_("proposed by team")
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    starts_at = models.DateTimeField(_("time"))
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField(_("proposed at"), auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("proposed time")
        verbose_name_plural = _("proposed times")
        ordering = ["match", "starts_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status="accepted"),
                name="leagues_proposal_one_agreed_per_match",
            ),
            models.UniqueConstraint(
                fields=["match", "starts_at"],
                condition=Q(status="open"),
                name="leagues_proposal_open_time_once",
            ),
            models.CheckConstraint(
                condition=~Q(status="accepted") | Q(accepted_at__isnull=False),
                name="leagues_proposal_accepted_has_time",
            ),
        ]
        indexes = [models.Index(fields=["match", "status"], name="leagues_proposal_match_st")]

    def __str__(self):
        return f"{self.match} {self.starts_at:%Y-%m-%d %H:%M} ({self.status})"


class LeagueReminder(models.Model):
    """A league reminder already sent (``send_league_reminders``), so it is never sent
    twice: ``key`` is ``"<kind>:<match id>:<deadline ISO>:<user id>"`` for a deadline and
    ``"report:<report id>:<user id>"`` for a report waiting for confirmation."""

    class Kind(models.TextChoices):
        INITIAL = "initial", _("Initial deadline")
        FINAL = "final", _("Final deadline")
        REPORT = "report", _("Report to confirm")

    key = models.CharField(_("key"), max_length=120, unique=True)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    match = models.ForeignKey(
        "leagues.Match", models.CASCADE, related_name="+", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="+", verbose_name=_("player")
    )
    sent_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league reminder")
        verbose_name_plural = _("league reminders")
        ordering = ["-sent_at", "-id"]

    def __str__(self):
        return self.key


class ScreenshotHash(models.Model):
    """The perceptual hash (``imagehash.phash``, 64 bits as 16 hex digits) of a report's
    stored screenshot (``image``: ``result`` or ``bookings``), computed on upload."""

    class Image(models.TextChoices):
        RESULT = "result", _("Result screenshot")
        BOOKINGS = "bookings", _("Bookings screenshot")

    report = models.ForeignKey(
        "leagues.ResultReport", models.CASCADE, related_name="hashes", verbose_name=_("report")
    )
    image = models.CharField(_("image"), max_length=10, choices=Image, default=Image.RESULT)
    phash = models.CharField(_("perceptual hash"), max_length=16)
    season = models.ForeignKey(
        "leagues.Season", models.CASCADE, related_name="+", verbose_name=_("season")
    )

    class Meta:
        verbose_name = _("screenshot hash")
        verbose_name_plural = _("screenshot hashes")
        constraints = [
            models.UniqueConstraint(
                fields=["report", "image"], name="leagues_screenshot_hash_once"
            ),
        ]

    def __str__(self):
        return f"{self.report_id} {self.image} {self.phash}"


class ScreenshotReuse(models.Model):
    """A screenshot (``hash``) that looks like one already used for another match
    (``earlier``): ``distance`` bits apart (:data:`leagues.rules.scheduling.REUSE_DISTANCE`).
    Shown to staff; nothing is decided automatically."""

    hash = models.ForeignKey(
        ScreenshotHash, models.CASCADE, related_name="reuses", verbose_name=_("screenshot")
    )
    earlier = models.ForeignKey(
        ScreenshotHash, models.CASCADE, related_name="+", verbose_name=_("earlier screenshot")
    )
    distance = models.PositiveSmallIntegerField(_("differing bits"))
    created_at = models.DateTimeField(_("flagged at"), auto_now_add=True)

    class Meta:
        verbose_name = _("reused screenshot")
        verbose_name_plural = _("reused screenshots")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["hash", "earlier"], name="leagues_reuse_pair_once"),
            models.CheckConstraint(
                condition=~Q(hash=models.F("earlier")), name="leagues_reuse_not_itself"
            ),
        ]

    def __str__(self):
        return f"{self.hash_id} ~ {self.earlier_id} ({self.distance})"
