"""The circuit form (docs/ratings.md "Circuits"), read by the organiser's circuit pages
(``events.views_circuits``); the service ``standings.circuit_services.save_circuit``
checks the same again and saves."""

from django import forms
from django.utils.translation import gettext_lazy as _

from events.limits import validate_date_window
from events.models import Circuit


class CircuitForm(forms.ModelForm):
    """A circuit: name, period, scoring, best events counted, minimum attendance,
    qualifying places and the events, chosen among ``events`` (the organisation's events
    a circuit can score, a queryset the view gives). ``cleaned_data["events"]`` is a
    queryset of them, each within the period."""

    class Meta:
        model = Circuit
        fields = [
            "name",
            "starts_on",
            "ends_on",
            "scoring",
            "best",
            "min_events",
            "places",
            "events",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "scoring": forms.RadioSelect,
            "events": forms.CheckboxSelectMultiple,
        }

    def __init__(self, *args, events, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["events"]
        field.queryset = events
        field.required = False
        field.label_from_instance = lambda e: f"{e.date:%Y-%m-%d} — {e.name}"
        for name in ("starts_on", "ends_on"):
            self.fields[name].input_formats = ["%Y-%m-%d"]
            self.fields[name].validators.append(validate_date_window)
        self.fields["min_events"].widget.attrs["min"] = 1
        self.fields["best"].widget.attrs["min"] = 1

    def clean_min_events(self):
        value = self.cleaned_data.get("min_events")
        if value is not None and value < 1:
            raise forms.ValidationError(_("The minimum attendance is at least one event."))
        return value

    def clean_best(self):
        best = self.cleaned_data.get("best")
        if best is not None and best < 1:
            raise forms.ValidationError(_("At least one event counts; leave it empty for all."))
        return best

    def clean(self):
        data = super().clean()
        start, end = data.get("starts_on"), data.get("ends_on")
        if start and end and end < start:
            self.add_error("ends_on", _("The last day is before the first day."))
        elif start and end:
            outside = [e.name for e in data.get("events") or [] if not start <= e.date <= end]
            if outside:
                self.add_error(
                    "events",
                    _("Outside the circuit's period: %(events)s.") % {"events": ", ".join(outside)},
                )
        return data
