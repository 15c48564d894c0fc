"""Forms of the VEKN link's organiser page (events/views_vekn.py; docs/vekn-link.md)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class VeknAnnounceForm(forms.Form):
    """Announce the event on the VEKN calendar."""

    organiser_vekn = forms.RegexField(
        label=_("Organiser's VEKN number"), regex=r"^\d{1,20}$", max_length=20
    )
    venue_id = forms.IntegerField(
        label=_("VEKN venue id"),
        min_value=0,
        required=False,
        initial=0,
        help_text=_("The venue's number on the VEKN site; 0 for an online event."),
    )
    multideck = forms.BooleanField(label=_("Multi-deck"), required=False)
    proxies = forms.BooleanField(label=_("Proxies allowed"), required=False)


class VeknRetryForm(forms.Form):
    """Retry a push; optionally link the VEKN event an earlier attempt created."""

    push = forms.IntegerField(min_value=1)
    vekn_event_id = forms.RegexField(
        label=_("VEKN event id (if it exists already)"), regex=r"^\d{1,20}$", required=False
    )
