"""The bookings screenshot beside the result's (ANFPES T24 §1.4; leagues.reporting
``report_result(bookings_screenshot=...)``, ReportForm, the match page): optional,
validated and re-encoded like the result's, visible to the opponent and staff (the
public once accepted), and a warning when a final-phase report has bookings without it."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation

from events.errors import UserError
from leagues import reporting
from leagues.models import ResultReport
from tests.factories import UserFactory
from tests.leagues.views.test_report_cards import BOOKINGS, league  # noqa: F401 (fixture)
from tests.leagues.views.test_reporting import png

SANTIAGO = ZoneInfo("America/Santiago")


def url(league, name="leagues:match", **extra):  # noqa: F811
    m = league["match"]
    return reverse(name, kwargs={"slug": m.competition.slug, "code": m.code, **extra})


def post(client, league, **files):  # noqa: F811
    local = timezone.localtime(timezone.now() - timedelta(minutes=10), SANTIAGO)
    data = {
        "home_goals": "2",
        "away_goals": "1",
        "posted_at": local.strftime("%Y-%m-%dT%H:%M"),
        "screenshot": png(),
        "cards": "home; J. Doe; yellow",
        **files,
    }
    return client.post(url(league, "leagues:match-report"), data)


def test_the_bookings_screenshot_is_stored_and_shown(client, league):  # noqa: F811
    client.force_login(league["home"])
    response = post(client, league, bookings_screenshot=png("cards.png", size=(30, 20)))
    assert response.status_code == 302
    r = ResultReport.objects.get()
    assert r.bookings_screenshot.name.endswith(".png")
    assert r.bookings_screenshot.name != r.screenshot.name
    shot = url(league, "leagues:report-screenshot", pk=r.pk) + "?image=bookings"
    # The opponent and staff see it, an outsider does not (the report is open).
    for user in (league["away"], league["staff"]):
        client.force_login(user)
        assert client.get(shot).status_code == 200
        page = client.get(url(league))
        assert shot.encode() in page.content
        assert b"bookings-screenshot-missing" not in page.content
    client.force_login(UserFactory(username="outsider"))
    assert client.get(shot).status_code == 404


def test_without_it_the_report_is_kept_and_staff_are_warned(client, league):  # noqa: F811
    client.force_login(league["home"])
    assert post(client, league).status_code == 302
    r = ResultReport.objects.get()
    assert not r.bookings_screenshot
    assert reporting.bookings_screenshot_missing(r)
    client.force_login(league["staff"])
    assert b"bookings-screenshot-missing" in client.get(url(league)).content
    assert (
        client.get(
            url(league, "leagues:report-screenshot", pk=r.pk) + "?image=bookings"
        ).status_code
        == 404
    )


def test_a_bad_bookings_image_is_refused_and_nothing_saved(client, league):  # noqa: F811
    client.force_login(league["home"])
    bad = SimpleUploadedFile("cards.png", b"<html>not an image</html>", content_type="image/png")
    response = post(client, league, bookings_screenshot=bad)
    assert response.status_code == 400
    assert not ResultReport.objects.exists()
    gif = SimpleUploadedFile("cards.gif", png(fmt="GIF").read(), content_type="image/gif")
    assert post(client, league, bookings_screenshot=gif).status_code == 400
    assert not ResultReport.objects.exists()


def test_a_too_large_bookings_image_is_refused(client, league, settings):  # noqa: F811
    client.force_login(league["home"])
    settings.LEAGUE_IMAGE_MAX_BYTES = 200
    response = post(
        client, league, screenshot=png(size=(2, 2)), bookings_screenshot=png(size=(400, 400))
    )
    assert response.status_code == 400 and b"too large" in response.content
    assert not ResultReport.objects.exists()


def test_the_service_refuses_a_truncated_image(league):  # noqa: F811
    broken = SimpleUploadedFile("c.png", png().read()[:40], content_type="image/png")
    with pytest.raises(UserError) as caught:
        reporting.report_result(
            league["match"],
            league["home"],
            home_goals=1,
            away_goals=0,
            posted_at=timezone.now() - timedelta(minutes=5),
            screenshot=png(),
            cards=BOOKINGS[:1],
            bookings_screenshot=broken,
        )
    assert caught.value.field == "bookings_screenshot"
    assert not ResultReport.objects.exists()


def test_a_double_submit_keeps_one_report(client, league):  # noqa: F811
    client.force_login(league["home"])
    assert post(client, league, bookings_screenshot=png()).status_code == 302
    assert post(client, league, bookings_screenshot=png()).status_code in (302, 400)
    assert ResultReport.objects.count() == 1


def test_the_report_form_says_the_bookings_screenshot_is_optional(client, league):  # noqa: F811
    """T24 §1.4 asks for it; the product keeps a report without it (the test above) and
    the page says so, in English and in Spanish, with the field not required."""
    client.force_login(league["home"])
    page = client.get(url(league)).content.decode()
    assert "Screenshot of the bookings (optional)" in page
    assert "without it the report is kept and staff are told" in page
    field = re.search(r'<input[^>]*name="bookings_screenshot"[^>]*>', page).group(0)
    assert "required" not in field
    with translation.override("en"):  # the page's language stays with the request
        page = client.get(url(league), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Captura de las amonestaciones (opcional)" in page
