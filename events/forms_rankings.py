"""The rankings' query form (docs/contracts.md §9; TR Appendix A), read by the rankings
API (``events.api``) and pages (``events.views_rankings``)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.limits import date_window_message, in_date_window
from events.models import Organisation


class RankingQueryForm(forms.Form):
    """The rankings' query (docs/contracts.md §9; TR Appendix A): ``category``
    (``constructed`` | ``limited``, default constructed), ``online`` (``true`` |
    ``false``, default false), ``as_of`` (an ISO date, default today) and an optional
    ``organisation`` slug. ``cleaned_data["organisation"]`` is the ``Organisation`` or
    ``None``."""

    category = forms.ChoiceField(
        label=_("Category"),
        required=False,
        choices=[("constructed", _("Constructed")), ("limited", _("Limited"))],
    )
    online = forms.ChoiceField(
        label=_("Online"),
        required=False,
        choices=[("false", _("On site")), ("true", _("Online"))],
    )
    as_of = forms.DateField(label=_("As of"), required=False, input_formats=["%Y-%m-%d"])
    organisation = forms.SlugField(label=_("Organisation"), required=False)

    def clean_category(self):
        return self.cleaned_data.get("category") or "constructed"

    def clean_online(self):
        return self.cleaned_data.get("online") == "true"

    def clean_as_of(self):
        value = self.cleaned_data.get("as_of") or timezone.localdate()
        if not in_date_window(value):
            raise forms.ValidationError(date_window_message())
        return value

    def clean_organisation(self):
        slug = self.cleaned_data.get("organisation")
        if not slug:
            return None
        organisation = Organisation.objects.filter(slug=slug).first()
        if organisation is None:
            raise forms.ValidationError(_("No such organisation."))
        return organisation

    def first_error(self) -> str:
        """The first problem as ``field: message`` (the API's ``error``)."""
        for name, errors in self.errors.items():
            return f"{name}: {errors[0]}"
        return ""


# --------------------------------------------------------------------------- notifications
