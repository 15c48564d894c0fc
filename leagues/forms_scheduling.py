"""The form of a fixture's proposed times (docs/leagues.md "Scheduling a fixture"): up to
:data:`leagues.rules.scheduling.MAX_TIMES` ``datetime-local`` inputs read in the season's
time zone; empty inputs are skipped (the rules refuse a proposal with none)."""

from zoneinfo import ZoneInfo

from django.utils.translation import gettext_lazy as _

from events.errors import UserError
from leagues.forms import LocalDateTimeField, _SeasonForm
from leagues.rules.scheduling import MAX_TIMES


class ProposeForm(_SeasonForm):
    id_format = "id_propose_%s"

    def __init__(self, *args, zone: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, MAX_TIMES + 1):
            field = LocalDateTimeField(label=_("Time %(n)s") % {"n": n}, required=False)
            field.zone = ZoneInfo(zone) if zone else None
            self.fields[f"time_{n}"] = field

    def times(self):
        """The filled-in times (aware datetimes)."""
        return [v for k, v in self.cleaned_data.items() if k.startswith("time_") and v]

    def user_error(self) -> UserError:
        """The first problem, as the page shows it."""
        for name in self.fields:
            if name in self.errors:
                return UserError(f"{self.fields[name].label}: {self.errors[name][0]}", field=name)
        return UserError(_("Check the form."))
