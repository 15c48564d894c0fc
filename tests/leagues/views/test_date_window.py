"""One date window for the league (issue 14, ``events.limits.MIN_YEAR``/``MAX_YEAR``):
a deadline, a review time, a draw's start or a season file's date in year 1, 1000 or 9999
is a form error (never a 500, nothing saved), and the iCal feed keeps four-digit years."""

from datetime import UTC, datetime

import pytest

from events.errors import UserError
from events.limits import MAX_YEAR, MIN_YEAR, check_date_window, in_date_window
from leagues import ical
from leagues.forms import ExcuseForm, ReportForm
from leagues.forms_staff import ReviewForm, local_datetime, start_value
from leagues.rules.errors import LeagueRuleError
from leagues.rules.season import parse_season
from tests.leagues.seasons import small_season
from tests.leagues.views.test_forms import PA, refused, small, url  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

MESSAGE = f"Give a date between the years {MIN_YEAR} and {MAX_YEAR}."


def test_the_window_is_2000_to_2100():
    assert (MIN_YEAR, MAX_YEAR) == (2000, 2100)
    assert in_date_window(datetime(2000, 1, 1)) and in_date_window(datetime(2100, 12, 31))
    for year in (1, 1000, 1999, 2101, 9999):
        assert not in_date_window(datetime(year, 6, 1))
        with pytest.raises(UserError, match="between the years"):
            check_date_window(datetime(year, 6, 1))


@pytest.mark.parametrize("year", ["0001", "1000", "9999"])
def test_deadlines_out_of_the_window_are_a_form_error(client, small, year):  # noqa: F811
    client.force_login(small["staff"])
    target = url("staff-deadlines", slug="t24")
    data = {"competition": PA, "round": "1", "initial": "2026-12-01T20:00"}
    data["final"] = f"{year}-12-31T23:59"
    response = refused(client, target, data, MESSAGE, status=(400,))
    assert response.context["form"].errors


@pytest.mark.parametrize("year", ["0001", "1000", "9999"])
def test_draw_start_out_of_the_window_is_a_form_error(client, small, year):  # noqa: F811
    client.force_login(small["staff"])
    for name, ok in (
        ("staff-champagne", {"base": "tables", "method": "seed", "seed": "1"}),
        ("staff-nucommunity", {"format": "knockout", "method": "seed", "seed": "1"}),
    ):
        data = {**ok, "start": f"{year}-12-31"}
        refused(client, url(name, slug="t24"), data, MESSAGE, status=(400,))


@pytest.mark.parametrize("year", ["0001", "1000", "9999"])
def test_review_time_out_of_the_window_is_a_form_error(client, small, year):  # noqa: F811
    client.force_login(small["staff"])
    target = url("staff-reviews", slug="t24")
    refused(
        client, target, {"kind": "first_half", "confirm": "1", "at": f"{year}-06-01 10:00"}, MESSAGE
    )


def test_the_forms_refuse_each_date_out_of_the_window():
    for year in ("0001", "1000", "9999"):
        form = ReportForm({"posted_at": f"{year}-12-31T23:59"}, zone="America/Santiago")
        assert not form.is_valid() and MESSAGE in form.errors["posted_at"]
        form = ExcuseForm({"date_from": f"{year}-01-01", "date_to": "2026-01-01", "reason": "x"})
        assert not form.is_valid() and MESSAGE in form.errors["date_from"]
        form = ReviewForm({"kind": "first_half", "confirm": "1", "at": f"{year}-01-01 10:00"},
                          zone="America/Santiago")  # fmt: skip
        assert not form.is_valid() and MESSAGE in form.errors["at"]
        assert local_datetime(f"{year}-12-31T23:59", UTC) is None
        with pytest.raises(Exception, match="between the years"):
            start_value(f"{year}-12-31")


def test_a_season_file_with_a_date_out_of_the_window_is_refused():
    for key, value in (
        ("final_deadline", "9999-12-31T23:59:00-03:00"),
        ("reported_at", "1000-03-02T21:10:00-03:00"),
        ("initial_deadline", "0001-03-08T23:59:00-03:00"),
    ):
        data = small_season()
        data["competitions"][0]["matches"][0][key] = value
        with pytest.raises(LeagueRuleError, match="2000-2100"):
            parse_season(data)
    data = small_season()
    data["competitions"][0]["start"] = "9999-12-31"
    data["competitions"][0]["matches"] = []
    with pytest.raises(LeagueRuleError, match="2000-2100"):
        parse_season(data)


def test_the_ical_feed_writes_four_digit_years_and_leaves_out_typos():
    start = datetime(2026, 3, 12, 2, 59, tzinfo=UTC)
    events = [
        {"uid": "a", "start": start, "summary": "ok"},
        {"uid": "b", "start": datetime(1000, 3, 12, tzinfo=UTC), "summary": "typo"},
        {"uid": "c", "start": datetime(1, 3, 12, tzinfo=UTC), "summary": "typo"},
    ]
    text = ical.calendar(events, name="x", now=datetime(2026, 1, 1, tzinfo=UTC))
    assert text.count("BEGIN:VEVENT") == 1 and "DTSTART:20260312T025900Z" in text
