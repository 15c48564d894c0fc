"""Stored rating points (TR Appendix A; docs/ratings.md "How the rankings stay fast"):
one row per player and rated event, so that a ranking reads rows instead of computing
every event's standings. Re-exported by ``events.models`` so that Django finds them in
this app. Events kernel; written only by ``standings.rating_services``.

A :class:`RatingStamp` says which version of its event (``Event.public_version``, bumped
by every change that may show on its public pages: ``events.cache.invalidate``) the
event's :class:`RatedResult` rows were computed from; a ranking recomputes the events
whose stamp is missing or older, under the stamp's row lock, before it reads.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RatingStamp(models.Model):
    """The ``version`` of ``event`` its stored rating points were computed from."""

    event = models.OneToOneField(
        "events.Event",
        models.CASCADE,
        primary_key=True,
        related_name="rating_stamp",
        verbose_name=_("event"),
    )
    version = models.IntegerField(_("version"))

    class Meta:
        verbose_name = _("rating points stamp")
        verbose_name_plural = _("rating points stamps")

    def __str__(self):
        return f"{self.event_id}@{self.version}"


class RatedResult(models.Model):
    """One person's ``rating_points`` at one rated event whose final is played (TR
    Appendix A.2), as ``standings.ratings.rating_points`` computed them."""

    event = models.ForeignKey(
        "events.Event", models.CASCADE, related_name="rated_results", verbose_name=_("event")
    )
    person = models.ForeignKey(
        "events.Person", models.CASCADE, related_name="rated_results", verbose_name=_("person")
    )
    rating_points = models.PositiveIntegerField(_("rating points"))

    class Meta:
        verbose_name = _("rated result")
        verbose_name_plural = _("rated results")
        constraints = [
            models.UniqueConstraint(fields=["event", "person"], name="events_ratedresult_once"),
        ]
        indexes = [
            # A player's rated events (standings.rating_services.player_history).
            models.Index(fields=["person", "event"], name="events_ratedresult_person_idx"),
        ]

    def __str__(self):
        return f"{self.person_id}@{self.event_id}: {self.rating_points}"
