"""Proposing and agreeing a fixture's time (leagues.scheduling), the staff's flagged
fixtures, the reminders (leagues.reminders) and reused screenshots (leagues.screenshots)."""

import io
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from PIL import Image, ImageDraw

from events.errors import UserError
from events.models import AuditLog, Delivery, NotificationPreference
from leagues import reminders, reporting, scheduling
from leagues.models import LeagueReminder, Match, ResultReport, ScreenshotReuse, TimeProposal
from tests.leagues.scheduling_fixtures import sched_fixture  # noqa: F401

H = timedelta(hours=1)


def times(f, *hours):
    return [f["now"] + h * H for h in hours]


# ------------------------------------------------------------------ proposals
def test_propose_then_accept(fixture):
    f = fixture
    made = scheduling.propose(f["match"], f["home"], times(f, 5, 3, 5), now=f["now"])
    assert [p.starts_at for p in made] == times(f, 3, 5)
    agreed = scheduling.accept(f["match"], f["away"], made[1].pk, now=f["now"])
    assert agreed.status == "accepted" and agreed.accepted_by == f["away"]
    assert scheduling.agreed_time(f["match"]).starts_at == f["now"] + 5 * H
    assert TimeProposal.objects.get(pk=made[0].pk).status == "replaced"
    assert scheduling.open_times(f["match"]) == []
    actions = list(AuditLog.objects.values_list("action", flat=True))
    assert "league.times_proposed" in actions and "league.time_agreed" in actions


def test_counter_proposal_replaces(fixture):
    f = fixture
    first = scheduling.propose(f["match"], f["home"], times(f, 3), now=f["now"])
    counter = scheduling.propose(f["match"], f["away"], times(f, 4, 6), now=f["now"])
    assert TimeProposal.objects.get(pk=first[0].pk).status == "replaced"
    assert [p.pk for p in scheduling.open_times(f["match"])] == [p.pk for p in counter]
    # The first proposer may no longer accept their replaced time, but accepts the counter.
    with pytest.raises(UserError):
        scheduling.accept(f["match"], f["away"], first[0].pk, now=f["now"])
    scheduling.accept(f["match"], f["home"], counter[0].pk, now=f["now"])
    assert scheduling.agreed_time(f["match"]).pk == counter[0].pk


def test_own_time_refused(fixture):
    f = fixture
    made = scheduling.propose(f["match"], f["home"], times(f, 3), now=f["now"])
    with pytest.raises(UserError, match="cannot accept your own"):
        scheduling.accept(f["match"], f["home"], made[0].pk, now=f["now"])


def test_double_accept_agrees_once(fixture):
    f = fixture
    made = scheduling.propose(f["match"], f["home"], times(f, 3, 4), now=f["now"])
    scheduling.accept(f["match"], f["away"], made[0].pk, now=f["now"])
    with pytest.raises(UserError):
        scheduling.accept(f["match"], f["away"], made[0].pk, now=f["now"])
    with pytest.raises(UserError):
        scheduling.accept(f["match"], f["away"], made[1].pk, now=f["now"])
    assert TimeProposal.objects.filter(status="accepted").count() == 1


def test_database_holds_one_agreed_time(fixture):
    from django.db import IntegrityError, transaction

    f = fixture
    made = scheduling.propose(f["match"], f["home"], times(f, 3, 4), now=f["now"])
    scheduling.accept(f["match"], f["away"], made[0].pk, now=f["now"])
    with pytest.raises(IntegrityError), transaction.atomic():
        TimeProposal.objects.filter(pk=made[1].pk).update(status="accepted", accepted_at=f["now"])


def test_propose_after_deadline_refused_and_nothing_saved(fixture):
    f = fixture
    late = f["match"].final_deadline + H
    with pytest.raises(UserError, match="final deadline"):
        scheduling.propose(f["match"], f["home"], [f["now"] + H, late], now=f["now"])
    assert not TimeProposal.objects.exists()


def test_propose_in_the_past_or_too_many_refused(fixture):
    f = fixture
    with pytest.raises(UserError):
        scheduling.propose(f["match"], f["home"], times(f, -1), now=f["now"])
    with pytest.raises(UserError, match="at most 3"):
        scheduling.propose(f["match"], f["home"], times(f, 1, 2, 3, 4), now=f["now"])
    assert not TimeProposal.objects.exists()


def test_other_players_and_staff_refused(fixture):
    f = fixture
    with pytest.raises(PermissionDenied):
        scheduling.propose(f["match"], f["outsider"], times(f, 3), now=f["now"])
    with pytest.raises(PermissionDenied):
        scheduling.propose(f["match"], f["staff"], times(f, 3), now=f["now"])
    made = scheduling.propose(f["match"], f["home"], times(f, 3), now=f["now"])
    with pytest.raises(PermissionDenied):
        scheduling.accept(f["match"], f["outsider"], made[0].pk, now=f["now"])


def test_agreed_fixture_takes_no_new_proposal(fixture):
    f = fixture
    made = scheduling.propose(f["match"], f["home"], times(f, 3), now=f["now"])
    scheduling.accept(f["match"], f["away"], made[0].pk, now=f["now"])
    with pytest.raises(UserError, match="already agreed"):
        scheduling.propose(f["match"], f["home"], times(f, 4), now=f["now"])


def test_played_fixture_refused(fixture):
    f = fixture
    Match.objects.filter(pk=f["match"].pk).update(status="played", home_goals=1, away_goals=0)
    with pytest.raises(UserError):
        scheduling.propose(f["match"], f["home"], times(f, 3), now=f["now"])


# ------------------------------------------------------------------ flagged
def test_flagged_fixtures(fixture, django_assert_max_num_queries):
    f = fixture
    m = f["match"]
    # Initial deadline in 2 days: 48 h, at the threshold → flagged.
    m.initial_deadline = f["now"] + 47 * H
    m.save()
    with django_assert_max_num_queries(2):
        flagged = scheduling.flagged_fixtures(f["season"], now=f["now"])
    assert [x.pk for x in flagged] == [m.pk]
    assert flagged[0].has_open is False
    made = scheduling.propose(m, f["home"], times(f, 3), now=f["now"])
    assert scheduling.flagged_fixtures(f["season"], now=f["now"])[0].has_open is True
    scheduling.accept(m, f["away"], made[0].pk, now=f["now"])
    assert scheduling.flagged_fixtures(f["season"], now=f["now"]) == []


def test_not_flagged_far_from_deadline(fixture):
    f = fixture
    assert scheduling.flagged_fixtures(f["season"], now=f["now"] - 10 * H) == []


# ------------------------------------------------------------------ reminders
def opt_in(*users, kind="league_deadline"):
    for u in users:
        NotificationPreference.objects.create(user=u, kind=kind, channel="email")


def test_deadline_reminders_once(fixture, django_capture_on_commit_callbacks):
    f = fixture
    opt_in(f["home"], f["away"])
    at = f["match"].initial_deadline - 10 * H  # initial in 10 h, final in 82 h
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.send_reminders(at) == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.send_reminders(at) == 0
        assert reminders.send_reminders(at + H) == 0
    assert LeagueReminder.objects.filter(kind="initial").count() == 2
    body = Delivery.objects.filter(kind="league_deadline").first().body
    assert "2 points in the compliance table" in body
    # The final deadline's reminder comes when it is near, once.
    late = f["match"].final_deadline - 5 * H
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.send_reminders(late) == 2
        assert reminders.send_reminders(late) == 0
    final = Delivery.objects.filter(kind="league_deadline", data__which="final").first()
    assert "0 points in the compliance table" in final.body


def test_moved_deadline_gets_its_own_reminder(fixture, django_capture_on_commit_callbacks):
    f = fixture
    at = f["match"].initial_deadline - 10 * H
    assert reminders.send_reminders(at) == 2
    m = f["match"]
    m.initial_deadline += 2 * H
    m.save()
    assert reminders.send_reminders(at) == 2
    assert reminders.send_reminders(at) == 0


def test_played_fixture_no_reminder(fixture):
    f = fixture
    Match.objects.filter(pk=f["match"].pk).update(status="played", home_goals=1, away_goals=0)
    assert reminders.send_reminders(f["match"].initial_deadline - H) == 0


def png_of(image, fmt="PNG"):
    buffer = io.BytesIO()
    image.save(buffer, fmt, quality=85) if fmt == "JPEG" else image.save(buffer, fmt)
    ext = "jpg" if fmt == "JPEG" else "png"
    return SimpleUploadedFile(f"shot.{ext}", buffer.getvalue(), content_type=f"image/{ext}")


def scoreboard(seed=0):
    """A screenshot-like picture: a gradient and blocks placed by ``seed``."""
    image = Image.new("RGB", (320, 200), (10, 60, 20))
    draw = ImageDraw.Draw(image)
    for x in range(0, 320, 8):
        draw.line([(x, 0), (x, 200)], fill=(x % 255, 90, 150 - x % 120))
    for i in range(6):
        x = (seed * 53 + i * 47) % 260
        y = (seed * 31 + i * 29) % 150
        draw.rectangle([x, y, x + 50, y + 40], fill=((seed * 90 + i * 40) % 255, 230, 30))
    return image


def report_on(match, user, screenshot, at):
    return reporting.report_result(
        match, user, home_goals=1, away_goals=0, posted_at=at - H, screenshot=screenshot
    )


def test_report_reminder_once(fixture):
    f = fixture
    report = report_on(f["match"], f["home"], png_of(scoreboard()), f["now"])
    assert reminders.send_reminders(f["now"] + 2 * H) == 0
    later = report.created_at + 25 * H
    assert reminders.send_reminders(later) >= 1
    assert LeagueReminder.objects.filter(kind="report", user=f["away"]).count() == 1
    call_command("send_league_reminders")
    assert LeagueReminder.objects.filter(kind="report").count() == 1


# ------------------------------------------------------------------ reused screenshots
@pytest.fixture
def second(fixture):
    """A second unplayed fixture of user1 (t1 v t4 on matchday 3)."""
    f = fixture
    m = Match.objects.create(
        competition=f["match"].competition,
        code="m9",
        round=3,
        home=f["match"].home,
        away=Match.objects.get(code="m2").away,
    )
    return Match.objects.select_related("competition__season", "home", "away").get(pk=m.pk)


def test_same_image_resaved_as_jpeg_flagged(fixture, second):
    f = fixture
    image = scoreboard(1)
    report_on(f["match"], f["home"], png_of(image), f["now"])
    report_on(second, f["home"], png_of(image.resize((300, 188)), "JPEG"), f["now"])
    flags = list(ScreenshotReuse.objects.select_related("hash__report", "earlier__report"))
    assert len(flags) == 1
    assert flags[0].hash.report.match_id == second.pk
    assert flags[0].earlier.report.match_id == f["match"].pk
    assert flags[0].distance <= 6


def test_different_image_not_flagged(fixture, second):
    f = fixture
    report_on(f["match"], f["home"], png_of(scoreboard(1)), f["now"])
    report_on(second, f["home"], png_of(scoreboard(7)), f["now"])
    assert not ScreenshotReuse.objects.exists()


def test_same_match_again_not_flagged(fixture):
    f = fixture
    first = report_on(f["match"], f["home"], png_of(scoreboard(2)), f["now"])
    reporting.withdraw_report(ResultReport.objects.get(pk=first.pk), f["home"])
    report_on(f["match"], f["home"], png_of(scoreboard(2)), f["now"])
    assert not ScreenshotReuse.objects.exists()
