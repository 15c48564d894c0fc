"""The dates of a Mitos y Leyendas penalty: its day in the event's time zone, today there,
and the written appeal's window (MyL conduct rules §5.10: 5 business days, skipping the
public holidays of ``APPEALS_HOLIDAY_COUNTRY``; docs/rules-myl-penalties.md "Appeals
(§4.5, §5.10)"). Read by the MyL adapter (``penalties.myl_services``) and by the national
authority's pages (``penalties.authority``), which the adapter itself imports: so they
live here, below both.
"""

import datetime as dt

from django.conf import settings
from django.utils import timezone

from events.models import Event
from penalties import appeals as appeal_rules
from penalties.models import Penalty


def penalty_day(p: Penalty) -> dt.date:
    """The penalty's date in the event's time zone."""
    return timezone.localtime(p.created_at, p.event.zone).date()


def holiday_country() -> str | None:
    """The country whose public holidays the appeal deadline skips (setting
    ``APPEALS_HOLIDAY_COUNTRY``, Chile by default; empty or ``"none"``: weekends only)."""
    value = getattr(settings, "APPEALS_HOLIDAY_COUNTRY", appeal_rules.DEFAULT_COUNTRY)
    if not value or str(value).strip().lower() == "none":
        return None
    return str(value).strip().upper()


def appeal_window(penalty: Penalty) -> appeal_rules.AppealWindow:
    """The written appeal's window (§5.10): 5 business days from the penalty's day."""
    return appeal_rules.appeal_window(penalty_day(penalty), country=holiday_country())


def today(event: Event | None = None) -> dt.date:
    """Today in the event's time zone (the site's without an event)."""
    if event is not None:
        return timezone.localtime(timezone.now(), event.zone).date()
    return timezone.localdate()
