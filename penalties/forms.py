"""Forms of the national authority's page (``penalties.views_authority``): validation at
the boundary, plain values for ``penalties.authority``."""

from django import forms
from django.utils.translation import gettext_lazy as _

from events.limits import FREE_TEXT_MAX_LENGTH
from penalties.models import Sanction

DB_ID = {"min_value": 1, "max_value": 2**63 - 1}


class AuthorityActionForm(forms.Form):
    """One action of the authority page: ``confirm`` a sanction, ``lift`` one (reason
    required), ``escalate`` a VEKN disqualification (kind, reason, a suspension's days)."""

    CONFIRM, LIFT, ESCALATE = "confirm", "lift", "escalate"

    action = forms.ChoiceField(
        choices=[(CONFIRM, _("Confirm")), (LIFT, _("Lift")), (ESCALATE, _("Escalate"))]
    )
    sanction = forms.IntegerField(required=False, **DB_ID)
    penalty = forms.IntegerField(required=False, **DB_ID)
    kind = forms.ChoiceField(label=_("Sanction"), choices=Sanction.Kind.choices, required=False)
    starts_on = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Until"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    expected = forms.CharField(
        required=False,
        max_length=40,
        help_text=_("The sanction as the page showed it (kind and days), for confirm."),
    )
    reason = forms.CharField(
        label=_("Reason"), required=False, max_length=FREE_TEXT_MAX_LENGTH, widget=forms.Textarea
    )

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action in (self.CONFIRM, self.LIFT) and not data.get("sanction"):
            raise forms.ValidationError(_("Choose a suspension or ban."))
        if (
            action in (self.LIFT, self.ESCALATE)
            and "reason" not in self.errors
            and not (data.get("reason") or "").strip()
        ):
            self.add_error("reason", _("Give the reason."))
        if action == self.ESCALATE:
            if not data.get("penalty"):
                raise forms.ValidationError(_("Choose a disqualification."))
            if not data.get("kind"):
                self.add_error("kind", _("Choose a suspension or a permanent ban."))
            if data.get("kind") == Sanction.Kind.SUSPENSION and not (
                data.get("starts_on") and data.get("ends_on")
            ):
                self.add_error("ends_on", _("Give the suspension's first and last day."))
        return data
