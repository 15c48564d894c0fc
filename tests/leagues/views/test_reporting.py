"""Results reported by players (screenshot, posting time), confirmed or disputed by the
opponent, decided by league staff; excuses and concessions (leagues.reporting and the
match page)."""

import io
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from events.errors import UserError
from events.models import AuditLog
from leagues import reporting, services
from leagues.models import Excuse, Match, ResultReport, SeasonRole
from tests.factories import UserFactory
from tests.leagues.seasons import small_season

SANTIAGO = ZoneInfo("America/Santiago")


def png(name="result.png", size=(64, 40), fmt="PNG"):
    buffer = io.BytesIO()
    Image.new("RGB", size, (20, 120, 40)).save(buffer, fmt)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type=f"image/{fmt.lower()}")


@pytest.fixture
def league(db):
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    season = services.import_season(small_season())
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    match = Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug="t24-primera-a", code="m3"
    )  # t1 (user1, home) v t3 (user3, away), unplayed
    now = timezone.now()
    match.initial_deadline = now + timedelta(days=2)
    match.final_deadline = now + timedelta(days=5)
    match.save()
    return {
        "season": season,
        "match": match,
        "home": users["user1"],
        "away": users["user3"],
        "outsider": users["user2"],
        "staff": staff,
        "tribunal": tribunal,
    }


def posted(minutes_ago=30):
    return timezone.now() - timedelta(minutes=minutes_ago)


def report(league, user=None, home=2, away=1, **extra):
    return reporting.report_result(
        league["match"],
        user or league["home"],
        home_goals=home,
        away_goals=away,
        posted_at=extra.pop("posted_at", posted()),
        screenshot=extra.pop("screenshot", png()),
    )


def table_row(team):
    from leagues.models import Competition

    doc = services.competition_table(Competition.objects.get(slug="t24-primera-a"))
    return next(r for r in doc["rows"] if r["team"] == team)


# --------------------------------------------------------------------------- services
def test_a_report_waits_for_the_opponent(league):
    before = table_row("t1")
    r = report(league)
    assert r.status == "pending" and r.team.code == "t1"
    league["match"].refresh_from_db()
    assert league["match"].status == "scheduled"
    assert table_row("t1") == before
    assert AuditLog.objects.filter(action="league.result_reported").count() == 1


def test_confirmation_gives_the_match_its_result_and_posting_time(league):
    when = datetime(2026, 3, 2, 21, 10, tzinfo=SANTIAGO)
    # a fixed past posting time
    r = report(league, posted_at=when)
    before = table_row("t1")
    reporting.confirm_report(r, league["away"])
    m = Match.objects.get(pk=league["match"].pk)
    assert (m.status, m.home_goals, m.away_goals) == ("played", 2, 1)
    assert m.reported_at == when
    after = table_row("t1")
    assert after["points"] == before["points"] + 3
    assert after["played"] == before["played"] + 1
    entry = AuditLog.objects.get(action="league.result_confirmed")
    assert entry.before["status"] == "scheduled" and entry.after["home_goals"] == 2


@pytest.mark.parametrize("who", ["outsider", "staff", "tribunal"])
def test_only_the_two_players_report(league, who):
    with pytest.raises(PermissionDenied):
        report(league, user=league[who])
    assert not ResultReport.objects.exists()


def test_the_reporter_cannot_confirm_their_own_report(league):
    r = report(league)
    with pytest.raises(UserError):
        reporting.confirm_report(r, league["home"])
    with pytest.raises(PermissionDenied):
        reporting.confirm_report(r, league["outsider"])
    assert ResultReport.objects.get().status == "pending"


def test_a_second_report_is_refused_while_one_is_open(league):
    report(league)
    with pytest.raises(UserError, match="already waiting"):
        report(league, user=league["away"], home=0, away=0)
    assert ResultReport.objects.count() == 1


@pytest.mark.parametrize(
    "values",
    [
        {"home": -1},
        {"away": 100},
        {"home": True},
        {"posted_at": timezone.now() + timedelta(hours=1)},
        {"posted_at": datetime(2026, 3, 2, 21, 10)},  # naive
        {"screenshot": None},
    ],
)
def test_bad_reports_are_refused_and_nothing_is_saved(league, values):
    with pytest.raises(UserError):
        report(league, **values)
    assert not ResultReport.objects.exists()


def test_a_played_match_takes_no_report(league):
    m1 = Match.objects.get(competition__slug="t24-primera-a", code="m1")
    with pytest.raises(UserError):
        reporting.report_result(
            m1,
            league["home"],
            home_goals=1,
            away_goals=1,
            posted_at=posted(),
            screenshot=png(),
        )


def test_dispute_then_staff_decide(league):
    r = report(league)
    with pytest.raises(UserError):
        reporting.dispute_report(r, league["away"], "  ")
    reporting.dispute_report(r, league["away"], "It was 1-1")
    r.refresh_from_db()
    assert r.status == "disputed"
    # A disputed report cannot be confirmed any more.
    with pytest.raises(UserError):
        reporting.confirm_report(r, league["away"])
    # Players and the tribunal do not decide results.
    for who in ("home", "tribunal"):
        with pytest.raises(PermissionDenied):
            reporting.resolve_report(r, league[who], decision="accept", reason="x")
    with pytest.raises(UserError, match="reason"):
        reporting.resolve_report(r, league["staff"], decision="accept")
    reporting.resolve_report(
        r, league["staff"], decision="amend", home_goals=1, away_goals=1, reason="video"
    )
    m = Match.objects.get(pk=league["match"].pk)
    assert (m.status, m.home_goals, m.away_goals, m.reported_at) == (
        "played",
        1,
        1,
        r.posted_at,
    )
    r.refresh_from_db()
    assert (r.status, r.resolution, r.resolved_by) == ("resolved", "video", league["staff"])
    assert AuditLog.objects.get(action="league.report_amend").comment == "video"


def test_a_rejected_report_leaves_the_match_unplayed_and_can_be_sent_again(league):
    r = report(league)
    reporting.resolve_report(r, league["staff"], decision="reject", reason="wrong match")
    league["match"].refresh_from_db()
    assert league["match"].status == "scheduled"
    report(league, user=league["away"], home=3, away=3)
    assert ResultReport.objects.filter(status="pending").count() == 1


def test_staff_accept_an_undisputed_report_without_a_reason(league):
    r = report(league)
    reporting.resolve_report(r, league["staff"], decision="accept")
    assert Match.objects.get(pk=league["match"].pk).status == "played"


def test_withdraw_only_by_the_reporter_before_an_answer(league):
    r = report(league)
    with pytest.raises(PermissionDenied):
        reporting.withdraw_report(r, league["away"])
    reporting.withdraw_report(r, league["home"])
    r.refresh_from_db()
    assert r.status == "withdrawn"
    with pytest.raises(UserError):
        reporting.confirm_report(r, league["away"])


def test_a_confirmed_result_changes_only_with_a_reason_and_leaves_a_trail(league):
    r = report(league)
    reporting.confirm_report(r, league["away"])
    match = league["match"]
    with pytest.raises(UserError):
        reporting.correct_result(
            match, league["staff"], home_goals=0, away_goals=0, reported_at=None, reason=""
        )
    with pytest.raises(PermissionDenied):
        reporting.correct_result(
            match, league["home"], home_goals=0, away_goals=0, reported_at=None, reason="x"
        )
    reporting.correct_result(
        match, league["staff"], home_goals=0, away_goals=3, reported_at=None, reason="typo"
    )
    m = Match.objects.get(pk=match.pk)
    assert (m.home_goals, m.away_goals, m.reported_at) == (0, 3, r.posted_at)
    entry = AuditLog.objects.get(action="league.result_corrected")
    assert (entry.before["home_goals"], entry.after["away_goals"], entry.comment) == (
        2,
        3,
        "typo",
    )
    # A player cannot report over it.
    with pytest.raises(UserError):
        report(league)


def test_excuse_request_answer_and_decision(league):
    match = league["match"]
    with pytest.raises(UserError):
        reporting.request_excuse(
            match,
            league["home"],
            date_from=date(2026, 3, 5),
            date_to=date(2026, 3, 1),
            reason="trip",
            evidence=png(),
        )
    with pytest.raises(PermissionDenied):
        reporting.request_excuse(
            match,
            league["outsider"],
            date_from=date(2026, 3, 1),
            date_to=date(2026, 3, 5),
            reason="trip",
            evidence=png(),
        )
    excuse = reporting.request_excuse(
        match,
        league["home"],
        date_from=date(2026, 3, 1),
        date_to=date(2026, 3, 5),
        reason="trip",
        evidence=png("ticket.jpg", fmt="JPEG"),
    )
    assert not excuse.effective
    with pytest.raises(UserError):  # the requester does not answer their own excuse
        reporting.answer_excuse(excuse, league["home"], True)
    with pytest.raises(UserError):  # one waiting at a time
        reporting.request_excuse(
            match,
            league["away"],
            date_from=date(2026, 3, 1),
            date_to=date(2026, 3, 5),
            reason="me too",
            evidence=png(),
        )
    reporting.answer_excuse(excuse, league["away"], True)
    with pytest.raises(PermissionDenied):
        reporting.decide_excuse(excuse, league["tribunal"], True)
    reporting.decide_excuse(excuse, league["staff"], True)
    assert Excuse.objects.get().effective
    # A refused excuse can be asked again; the old one stays in the audit log.
    reporting.decide_excuse(excuse, league["staff"], False)
    reporting.request_excuse(
        match,
        league["away"],
        date_from=date(2026, 3, 2),
        date_to=date(2026, 3, 4),
        reason="work",
        evidence=png(),
    )
    assert Excuse.objects.get().team.code == "t3"
    assert AuditLog.objects.filter(action="league.excuse_replaced").count() == 1


def test_concession_is_final(league):
    reporting.concede(league["match"], league["away"])
    with pytest.raises(UserError):
        reporting.concede(league["match"], league["home"])
    with pytest.raises(PermissionDenied):
        reporting.concede(league["match"], league["outsider"])


def test_a_walkover_or_void_match_takes_no_result(league):
    match = league["match"]
    Match.objects.filter(pk=match.pk).update(status="void")
    with pytest.raises(UserError):
        report(league)
    with pytest.raises(UserError):
        reporting.correct_result(
            match, league["staff"], home_goals=0, away_goals=0, reported_at=None, reason="x"
        )


# --------------------------------------------------------------------------- pages
def match_url(league, name="leagues:match", **extra):
    m = league["match"]
    return reverse(name, kwargs={"slug": m.competition.slug, "code": m.code, **extra})


def test_report_and_confirm_through_the_pages(client, league):
    client.force_login(league["home"])
    page = client.get(match_url(league))
    assert page.status_code == 200 and b'id="report"' in page.content
    local = timezone.localtime(timezone.now() - timedelta(minutes=10), SANTIAGO)
    response = client.post(
        match_url(league, "leagues:match-report"),
        {
            "home_goals": "2",
            "away_goals": "0",
            "posted_at": local.strftime("%Y-%m-%dT%H:%M"),
            "screenshot": png(),
        },
    )
    assert response.status_code == 302
    r = ResultReport.objects.get()
    # The posting time was read in the season's time zone.
    assert r.posted_at == local.replace(second=0, microsecond=0)
    # A double submit does not create a second report.
    again = client.post(
        match_url(league, "leagues:match-report"),
        {
            "home_goals": "2",
            "away_goals": "0",
            "posted_at": local.strftime("%Y-%m-%dT%H:%M"),
            "screenshot": png(),
        },
    )
    assert again.status_code in (400, 302) and ResultReport.objects.count() == 1
    # Outsiders do not see the open report's screenshot; the opponent does.
    shot = match_url(league, "leagues:report-screenshot", pk=r.pk)
    client.force_login(league["outsider"])
    assert client.get(shot).status_code == 404
    assert b"open-report" not in client.get(match_url(league)).content
    client.logout()
    assert client.get(shot).status_code == 404
    client.force_login(league["away"])
    page = client.get(match_url(league))
    assert b"Confirm this result" in page.content
    assert client.get(shot)["Content-Type"] == "image/png"
    response = client.post(match_url(league, "leagues:report-confirm", pk=r.pk))
    assert response.status_code == 302
    assert Match.objects.get(pk=league["match"].pk).status == "played"
    # Once accepted, the screenshot is public evidence of the result.
    client.logout()
    assert client.get(shot).status_code == 200
    assert b"2\xe2\x80\x930" in client.get(match_url(league)).content


@pytest.mark.parametrize(
    "upload, message",
    [
        (SimpleUploadedFile("x.png", b"not an image at all", "image/png"), b"valid image"),
        (png("x.gif", fmt="GIF"), b"JPEG, PNG or WebP"),
    ],
)
def test_the_screenshot_must_be_an_image(client, league, upload, message):
    client.force_login(league["home"])
    response = client.post(
        match_url(league, "leagues:match-report"),
        {
            "home_goals": "1",
            "away_goals": "0",
            "posted_at": "2026-03-02T21:10",
            "screenshot": upload,
        },
    )
    assert response.status_code == 400
    assert message in response.content
    # What was typed is kept.
    assert b'value="2026-03-02T21:10"' in response.content
    assert not ResultReport.objects.exists()


def test_the_screenshot_size_is_limited(client, league, settings):
    settings.LEAGUE_IMAGE_MAX_BYTES = 100
    client.force_login(league["home"])
    response = client.post(
        match_url(league, "leagues:match-report"),
        {
            "home_goals": "1",
            "away_goals": "0",
            "posted_at": "2026-03-02T21:10",
            "screenshot": png(),
        },
    )
    assert response.status_code == 400 and b"too large" in response.content
    assert not ResultReport.objects.exists()


def test_service_errors_show_on_the_page(client, league):
    client.force_login(league["home"])
    future = timezone.localtime(timezone.now() + timedelta(days=1), SANTIAGO)
    response = client.post(
        match_url(league, "leagues:match-report"),
        {
            "home_goals": "1",
            "away_goals": "0",
            "posted_at": future.strftime("%Y-%m-%dT%H:%M"),
            "screenshot": png(),
        },
    )
    assert response.status_code == 400 and b"in the future" in response.content


def test_staff_pages_of_the_match(client, league):
    r = report(league)
    reporting.dispute_report(r, league["away"], "wrong score")
    client.force_login(league["home"])
    assert client.post(match_url(league, "leagues:report-resolve", pk=r.pk)).status_code == 403
    assert client.post(match_url(league, "leagues:match-correct")).status_code == 403
    client.force_login(league["staff"])
    page = client.get(match_url(league))
    assert b"Staff decision" in page.content and b"wrong score" in page.content
    response = client.post(
        match_url(league, "leagues:report-resolve", pk=r.pk), {"decision": "accept", "reason": ""}
    )
    assert response.status_code == 400 and b"reason" in response.content
    response = client.post(
        match_url(league, "leagues:report-resolve", pk=r.pk),
        {"decision": "accept", "reason": "screenshot is clear"},
    )
    assert response.status_code == 302
    assert Match.objects.get(pk=league["match"].pk).status == "played"


def test_match_page_query_count_is_bounded(client, league, django_assert_max_num_queries):
    for _ in range(3):
        r = report(league)
        reporting.withdraw_report(r, league["home"])
    report(league)
    client.force_login(league["away"])
    with django_assert_max_num_queries(12):
        assert client.get(match_url(league)).status_code == 200
    client.logout()
    with django_assert_max_num_queries(8):
        assert client.get(match_url(league)).status_code == 200


def test_unknown_match_answers_404(client, league):
    url = reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "nope"})
    assert client.get(url).status_code == 404


def test_a_played_match_cannot_be_conceded(league):
    r = report(league)
    reporting.confirm_report(r, league["away"])
    with pytest.raises(UserError):
        reporting.concede(league["match"], league["away"])


@pytest.mark.parametrize("years_ago", [2, 2000])
def test_a_posting_time_long_ago_is_refused(league, years_ago):
    with pytest.raises(UserError, match="check the date"):
        report(league, posted_at=timezone.now() - timedelta(days=366 * years_ago))
    assert not ResultReport.objects.exists()


def test_a_posting_time_before_the_competition_started_is_refused(league):
    from leagues.models import Competition

    # The start is the local date of a minute ago, so that the accepted posting time is
    # on it even when the test runs at local midnight.
    posted = timezone.now() - timedelta(minutes=1)
    Competition.objects.filter(slug="t24-primera-a").update(start=timezone.localdate(posted))
    league["match"].competition.refresh_from_db()
    yesterday = posted - timedelta(days=1, hours=2)
    with pytest.raises(UserError, match="check the date"):
        report(league, posted_at=yesterday)
    report(league, posted_at=posted)


def test_a_refused_dispute_shows_its_error_open(client, league):
    r = report(league)
    client.force_login(league["away"])
    response = client.post(match_url(league, "leagues:report-dispute", pk=r.pk), {"reason": "   "})
    assert response.status_code == 400
    assert b"<details open>" in response.content and b"This field is required" in response.content


def test_a_refused_report_on_a_played_match_does_not_offer_the_form_again(client, league):
    reporting.confirm_report(report(league), league["away"])
    client.force_login(league["home"])
    response = client.post(
        match_url(league, "leagues:match-report"),
        {
            "home_goals": "1",
            "away_goals": "0",
            "posted_at": "2026-03-02T21:10",
            "screenshot": png(),
        },
    )
    assert response.status_code == 400
    assert b"already has a result" in response.content
    assert b'id="report"' not in response.content


def test_excuse_dates_must_be_within_a_year(league):
    with pytest.raises(UserError, match="within a year"):
        reporting.request_excuse(
            league["match"],
            league["home"],
            date_from=date(1, 1, 1),
            date_to=date(1, 1, 2),
            reason="trip",
            evidence=png(),
        )
    assert not Excuse.objects.exists()


def test_an_incomplete_report_on_a_played_match_says_why(client, league):
    reporting.confirm_report(report(league), league["away"])
    client.force_login(league["home"])
    response = client.post(match_url(league, "leagues:match-report"), {"home_goals": "1"})
    assert response.status_code == 400 and b"already has a result" in response.content


def test_an_excuse_beyond_the_close_of_its_phase_is_refused(league):
    """Issue 14, ANFPES T24 §IV.5: an excuse "en ningún caso podrá exceder las fechas que ya
    hayan sido establecidas para el cierre" of the phase (its latest final deadline)."""
    match = league["match"]
    closes = services.phase_closing(match)
    assert closes >= match.final_deadline
    last_day = reporting.excuse_last_day(match)
    assert last_day >= closes.astimezone(ZoneInfo(league["season"].time_zone)).date()
    with pytest.raises(UserError, match="beyond the close of its phase") as caught:
        reporting.request_excuse(
            match,
            league["home"],
            date_from=last_day - timedelta(days=2),
            date_to=last_day + timedelta(days=1),
            reason="trip",
            evidence=png(),
        )
    assert caught.value.field == "date_to"
    assert not Excuse.objects.exists()
    reporting.request_excuse(
        match,
        league["home"],
        date_from=last_day - timedelta(days=2),
        date_to=last_day,
        reason="trip",
        evidence=png(),
    )
    assert Excuse.objects.count() == 1
