"""Written appeal deadline for Mitos y Leyendas penalties: 5 business days (MyL conduct
§5.10; docs/rules-myl-penalties.md "Appeals"), weekends and the country's public holidays excluded,
Chile by default. Expected dates worked out by hand on the 2026–2027 calendars. No database."""

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from penalties.appeals import (
    APPEAL_BUSINESS_DAYS,
    DEFAULT_COUNTRY,
    appeal_deadline,
    appeal_in_time,
    appeal_window,
    is_business_day,
)


def test_defaults_are_the_rulebooks():
    assert APPEAL_BUSINESS_DAYS == 5  # §5.10 "5 días hábiles"
    assert DEFAULT_COUNTRY == "CL"


@pytest.mark.parametrize(
    ("issued", "deadline"),
    [
        # Mon → the next Mon: Tue, Wed, Thu, Fri, Mon.
        (date(2026, 3, 2), date(2026, 3, 9)),
        # Fri → the next Fri: the weekend is skipped.
        (date(2026, 3, 6), date(2026, 3, 13)),
        # Sat (a weekend event) → Mon 1, … Fri 5.
        (date(2026, 3, 7), date(2026, 3, 13)),
        # Sun → Mon 1, … Fri 5.
        (date(2026, 3, 8), date(2026, 3, 13)),
    ],
)
def test_weeks_without_holidays(issued, deadline):
    assert appeal_deadline(issued) == deadline


def test_across_fiestas_patrias():
    """Penalty on Thu 17 Sep 2026. Fri 18 (Independence Day) is a holiday, Sat 19 (Army
    Day) is a Saturday anyway: Mon 21, Tue 22, Wed 23, Thu 24, Fri 25."""
    window = appeal_window(date(2026, 9, 17))
    assert window.deadline == date(2026, 9, 25)
    assert [d for d, _ in window.skipped_holidays] == [date(2026, 9, 18)]
    assert "2026-09-18" in window.explanation and "§5.10" in window.explanation
    # Weekends only, the same penalty would end a day earlier: Fri 18 … Thu 24.
    assert appeal_deadline(date(2026, 9, 17), country=None) == date(2026, 9, 24)


def test_across_fiestas_patrias_2027_three_days():
    """2027: Fri 17 Sep (Fiestas Patrias) is a holiday too. Penalty Wed 15: Thu 16, Mon 20,
    Tue 21, Wed 22, Thu 23."""
    assert appeal_deadline(date(2027, 9, 15)) == date(2027, 9, 23)


def test_across_new_year():
    """Penalty on Tue 29 Dec 2026: Wed 30, Thu 31 (a bank holiday only, so a business day),
    Fri 1 Jan 2027 holiday, weekend, Mon 4, Tue 5, Wed 6."""
    window = appeal_window(date(2026, 12, 29))
    assert window.deadline == date(2027, 1, 6)
    assert [d for d, _ in window.skipped_holidays] == [date(2027, 1, 1)]
    assert appeal_deadline(date(2026, 12, 29), country=None) == date(2027, 1, 5)


def test_christmas_then_the_year_end():
    """Penalty on Wed 23 Dec 2026: Thu 24, Fri 25 holiday, Mon 28, Tue 29, Wed 30, Thu 31."""
    assert appeal_deadline(date(2026, 12, 23)) == date(2026, 12, 31)


def test_regional_holiday():
    """Arica y Parinacota keeps 7 June (Mon in 2027); the rest of Chile does not."""
    issued = date(2027, 6, 3)  # Thu
    assert appeal_deadline(issued) == date(2027, 6, 10)
    assert appeal_deadline(issued, subdiv="AP") == date(2027, 6, 11)


def test_another_country():
    """Spain: 12 Oct 2026 (Mon) is a national holiday; Chile keeps it too."""
    issued = date(2026, 10, 9)  # Fri
    assert appeal_deadline(issued, country="ES") == date(2026, 10, 19)
    assert appeal_deadline(issued, country=None) == date(2026, 10, 16)


def test_other_lengths():
    assert appeal_deadline(date(2026, 9, 17), business_days=1) == date(2026, 9, 21)
    assert appeal_deadline(date(2026, 9, 17), business_days=10) == date(2026, 10, 2)


def test_a_datetime_uses_its_date():
    assert appeal_deadline(datetime(2026, 9, 17, 23, 30)) == date(2026, 9, 25)


def test_business_days():
    assert is_business_day(date(2026, 9, 17))
    assert not is_business_day(date(2026, 9, 18))  # holiday
    assert not is_business_day(date(2026, 9, 20))  # Sunday
    assert is_business_day(date(2026, 9, 18), country=None)


def test_in_time():
    issued = date(2026, 9, 17)
    assert appeal_in_time(issued, issued)
    assert appeal_in_time(issued, datetime(2026, 9, 25, 23, 59))
    assert not appeal_in_time(issued, date(2026, 9, 26))
    assert not appeal_in_time(issued, date(2026, 9, 16))


@pytest.mark.parametrize("days", [0, -1, 1.5, True, "5"])
def test_bad_lengths(days):
    with pytest.raises(ValueError):
        appeal_deadline(date(2026, 9, 17), business_days=days)


@pytest.mark.parametrize(("country", "subdiv"), [("XX", None), ("CL", "ZZ")])
def test_unknown_calendar(country, subdiv):
    with pytest.raises(ValueError):
        appeal_deadline(date(2026, 9, 17), country=country, subdiv=subdiv)


def test_not_a_date():
    with pytest.raises(TypeError):
        appeal_deadline("2026-09-17")


@given(st.dates(min_value=date(2024, 1, 1), max_value=date(2030, 12, 31)))
def test_properties(issued):
    deadline = appeal_deadline(issued)
    assert deadline > issued and is_business_day(deadline)
    days = [issued + timedelta(n) for n in range(1, (deadline - issued).days + 1)]
    assert sum(is_business_day(d) for d in days) == 5
    # Never earlier than with weekends only; a week of 5 business days at least.
    assert deadline >= appeal_deadline(issued, country=None) >= issued + timedelta(5)
