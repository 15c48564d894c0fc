"""Appeal deadlines for Mitos y Leyendas penalties (MyL conduct §4.5, §5.10;
docs/rules-myl-penalties.md "Appeals"). Pure: no ORM, no request, no clock — the caller passes
the dates.

Two appeals exist. At once, to the event's head judge (§4.5): the decision is final for
the event. In writing, to the national Organised Play manager, "dentro de un plazo de 5
días hábiles" (§5.10), who confirms or reverts the penalty with reasons. This module
computes the written appeal's last day.

**[choice]** How the five business days are counted:

- The penalty's own day is not counted; counting starts the next day.
- A business day is Monday to Friday, except the public holidays of the configured country
  (``country="CL"`` — Chile, where the rulebook is published — by default; ``subdiv``
  adds a region's own holidays, e.g. ``"AP"`` for Arica y Parinacota). ``country=None``
  means weekends only (no holiday calendar). Only public holidays count, not bank
  holidays (Chile's 31 December is a bank holiday, so a business day).
- The deadline is the fifth business day, inclusive: an appeal filed on that day, at any
  time, is in time.

Holidays come from the maintained ``holidays`` package, which follows each year's
moveable and newly declared days.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache

import holidays

__all__ = [
    "APPEAL_BUSINESS_DAYS",
    "DEFAULT_COUNTRY",
    "AppealWindow",
    "appeal_deadline",
    "appeal_in_time",
    "appeal_window",
    "is_business_day",
]

APPEAL_BUSINESS_DAYS = 5
"""MyL conduct §5.10: "dentro de un plazo de 5 días hábiles"."""

DEFAULT_COUNTRY = "CL"
"""Chile, the rulebook's home; configurable per call."""

SOURCE = "MyL conduct §5.10"


@dataclass(frozen=True, slots=True)
class AppealWindow:
    """A written appeal's window: the penalty day (``issued_on``), the last day to file
    (``deadline``), the holidays skipped on the way (``skipped_holidays``: ``(date,
    name)`` pairs, weekdays only), the calendar used and an English ``explanation``."""

    issued_on: date
    deadline: date
    business_days: int
    country: str | None
    subdiv: str | None
    skipped_holidays: tuple[tuple[date, str], ...]
    explanation: str
    source: str = SOURCE


@cache
def _calendar(country: str | None, subdiv: str | None, year: int):
    if country is None:
        return {}
    return holidays.country_holidays(country, subdiv=subdiv, years=year)


def _holiday(day: date, country: str | None, subdiv: str | None) -> str | None:
    return _calendar(country, subdiv, day.year).get(day)


def is_business_day(day: date, country: str | None = DEFAULT_COUNTRY, subdiv=None) -> bool:
    """Monday to Friday and not a public holiday of ``country`` (/``subdiv``)."""
    return day.weekday() < 5 and _holiday(day, country, subdiv) is None


def _as_date(value: date | datetime) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    raise TypeError(f"expected a date, not {value!r}")


def appeal_window(
    issued_at: date | datetime,
    business_days: int = APPEAL_BUSINESS_DAYS,
    country: str | None = DEFAULT_COUNTRY,
    subdiv: str | None = None,
) -> AppealWindow:
    """The written appeal's window for a penalty given on ``issued_at`` (a date, or a
    datetime whose local date is used): see the module docstring for the counting.

    Raises ``ValueError`` for ``business_days`` < 1 or an unknown country/subdivision
    (``NotImplementedError`` from ``holidays`` is turned into ``ValueError``), and
    ``TypeError`` when ``issued_at`` is not a date.
    """
    if isinstance(business_days, bool) or not isinstance(business_days, int) or business_days < 1:
        raise ValueError(f"business_days must be a positive integer, not {business_days!r}")
    start = _as_date(issued_at)
    try:
        _calendar(country, subdiv, start.year)
    except NotImplementedError as error:
        raise ValueError(f"no holiday calendar for {country!r} / {subdiv!r}: {error}") from None
    day, counted = start, 0
    skipped: list[tuple[date, str]] = []
    while counted < business_days:
        day += timedelta(days=1)
        if day.weekday() >= 5:
            continue
        name = _holiday(day, country, subdiv)
        if name is not None:
            skipped.append((day, name))
            continue
        counted += 1
    calendar = (
        "weekends only, no holiday calendar"
        if country is None
        else f"weekends and public holidays of {country}{f'-{subdiv}' if subdiv else ''}"
    )
    text = (
        f"Written appeal to the national Organised Play manager within {business_days} "
        f"business days of the penalty (§5.10): penalty on {start.isoformat()}, counting "
        f"from the next day and skipping {calendar}; last day {day.isoformat()}."
    )
    if skipped:
        text += " Holidays skipped: " + ", ".join(f"{d.isoformat()} {n}" for d, n in skipped) + "."
    return AppealWindow(
        issued_on=start,
        deadline=day,
        business_days=business_days,
        country=country,
        subdiv=subdiv,
        skipped_holidays=tuple(skipped),
        explanation=text,
    )


def appeal_deadline(
    issued_at: date | datetime,
    business_days: int = APPEAL_BUSINESS_DAYS,
    country: str | None = DEFAULT_COUNTRY,
    subdiv: str | None = None,
) -> date:
    """The last day to file a written appeal against a penalty given on ``issued_at``:
    the ``business_days``-th business day after it, weekends and ``country``'s public
    holidays excluded (MyL conduct §5.10; **[choice]** counting in the module docstring).
    E.g. a penalty on Thursday 2026-09-17 in Chile → Friday 2026-09-25 (18 September is a
    holiday and 19 September a Saturday)."""
    return appeal_window(issued_at, business_days, country, subdiv).deadline


def appeal_in_time(
    issued_at: date | datetime,
    filed_at: date | datetime,
    business_days: int = APPEAL_BUSINESS_DAYS,
    country: str | None = DEFAULT_COUNTRY,
    subdiv: str | None = None,
) -> bool:
    """Whether an appeal filed on ``filed_at`` is accepted: not before the penalty and not
    after :func:`appeal_deadline` (the whole last day included)."""
    filed = _as_date(filed_at)
    start = _as_date(issued_at)
    return start <= filed <= appeal_deadline(start, business_days, country, subdiv)
