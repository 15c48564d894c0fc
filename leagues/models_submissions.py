"""The record of league staff and tribunal forms already saved (issue 12), so a form sent
twice is saved once (:func:`leagues.submissions.once`). Imported by :mod:`leagues.models`,
where Django finds it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class StaffSubmission(models.Model):
    """A league staff or tribunal form that was saved (issue 12), recorded with the id
    generated when the form was shown (``client_id``), in the same transaction as what it
    did (:func:`leagues.submissions.once`): the same form sent again — a double click, a
    retry after a lost answer — is "already saved", never a second walkover, deduction,
    draw or audit entry. ``redirect_to`` is where the first answer led."""

    client_id = models.UUIDField(_("submission id"), unique=True)
    action = models.CharField(_("action"), max_length=80)
    path = models.CharField(_("address"), max_length=500)
    redirect_to = models.CharField(_("answered with"), max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("sent by"),
    )
    created_at = models.DateTimeField(_("received at"), auto_now_add=True)

    class Meta:
        verbose_name = _("staff form submission")
        verbose_name_plural = _("staff form submissions")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.action} ({self.client_id})"
