"""A table's result reported by its players (events/self_report.py; docs/players.md
"Reporting your table's result"): a VEKN table's VP confirmed by the three others, a
dispute calling a judge, a judge's entry closing the report, the Mitos y Leyendas
opponent's confirmation and countdown; double submits, two confirming at once, the same
validation and audit as a judge's entry."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.http import Http404

from events import self_report, services, swiss_services
from events.errors import UserError
from events.models import AuditLog, JudgeCall, ResultReport
from tests.events.services.test_judge_calls import players_of, seated_event
from tests.factories import UserFactory
from tests.penalties.services.test_concurrency import run_together

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 5, 1, 15, 0, tzinfo=dt.UTC)
SHEET = ["2", "1", "1", "0"]


def vps(table):
    return [s.vp for s in table.seats.order_by("position")]


def games(table):
    return [s.games_won for s in table.seats.order_by("position")]


def test_four_players_report_and_confirm_and_the_result_stands():
    event, rnd, users = seated_event()
    me, *others = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, SHEET, now=T0)
    assert report.status == "pending" and report.values == ["2.0", "1.0", "1.0", "0.0"]
    assert vps(table) == [None] * 4  # nothing saved before the others confirm
    for i, other in enumerate(others):
        report = self_report.confirm_report(event, other, report.pk, now=T0)
        assert report.status == ("confirmed" if i == 2 else "pending")
    assert vps(table) == [Decimal("2.0"), Decimal("1.0"), Decimal("1.0"), Decimal("0.0")]
    saved = AuditLog.objects.get(action="result.save")  # the judges' own audit entry
    assert saved.actor == others[-1] and "confirmed by the table" in saved.comment
    actions = list(
        AuditLog.objects.filter(target_type="events.resultreport").values_list("action", flat=True)
    )
    assert sorted(actions) == sorted(
        [self_report.REPORTED] + [self_report.CONFIRMED] * 3 + [self_report.STOOD]
    )


def test_a_double_submit_is_one_report_and_another_player_is_told_to_confirm():
    event, rnd, users = seated_event()
    me, mate, *_ = players_of(rnd, 1, users)
    first = self_report.report_result(event, me, SHEET, now=T0)
    again = self_report.report_result(event, me, SHEET, now=T0)
    assert again.pk == first.pk and ResultReport.objects.count() == 1
    with pytest.raises(UserError, match="already reported"):
        self_report.report_result(event, me, ["4", "0", "0", "0"], now=T0)
    with pytest.raises(UserError, match="confirm it or dispute it"):
        self_report.report_result(event, mate, SHEET, now=T0)
    assert AuditLog.objects.filter(action=self_report.REPORTED).count() == 1


def test_a_second_confirmation_changes_nothing():
    event, rnd, users = seated_event()
    me, mate, *_ = players_of(rnd, 1, users)
    report = self_report.report_result(event, me, SHEET, now=T0)
    self_report.confirm_report(event, mate, report.pk, now=T0)
    self_report.confirm_report(event, mate, report.pk, now=T0)
    assert report.confirmations.count() == 1
    assert AuditLog.objects.filter(action=self_report.CONFIRMED).count() == 1


def test_an_illegal_sheet_is_refused_as_for_a_judge_without_override():
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    with pytest.raises(UserError, match="call a judge"):
        self_report.report_result(event, me, ["1", "1", "1", "1"], now=T0)
    with pytest.raises(UserError, match="every player"):
        self_report.report_result(event, me, ["2", "1", "1", ""], now=T0)
    with pytest.raises(UserError, match="not a number"):
        self_report.report_result(event, me, ["two", "1", "1", "0"], now=T0)
    assert (
        not ResultReport.objects.exists()
        and not AuditLog.objects.filter(action__startswith="result_report").exists()
    )


def test_strangers_and_players_of_another_table_are_refused():
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    elsewhere = players_of(rnd, 2, users)[0]
    report = self_report.report_result(event, me, SHEET, now=T0)
    with pytest.raises(UserError, match="not playing at this table"):
        self_report.confirm_report(event, elsewhere, report.pk, now=T0)
    with pytest.raises(UserError, match="not playing at this table"):
        self_report.dispute_report(event, elsewhere, report.pk, now=T0)
    with pytest.raises(Http404):
        self_report.confirm_report(event, UserFactory(), report.pk, now=T0)
    with pytest.raises(UserError, match="You reported"):
        self_report.confirm_report(event, me, report.pk, now=T0)


def test_a_dispute_calls_a_judge_and_a_judges_entry_closes_the_report():
    event, rnd, users = seated_event()
    me, mate, third, _fourth = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, SHEET, now=T0)
    self_report.confirm_report(event, mate, report.pk, now=T0)
    report = self_report.dispute_report(event, third, report.pk, "I had 2 VP", now=T0)
    call = JudgeCall.objects.get()
    assert (report.status, report.judge_call, call.reason) == ("disputed", call, "dispute")
    assert call.table == table and call.note == "I had 2 VP"
    with pytest.raises(UserError, match="no longer waiting"):
        self_report.confirm_report(event, _fourth, report.pk, now=T0)
    judge = UserFactory(username="judge")
    services.save_results(
        table, [Decimal(v) for v in ("3", "1", "0", "0")], version=table.version, actor=judge
    )
    report.refresh_from_db()
    assert report.status == "judged"
    closed = AuditLog.objects.get(action="result_report.judged")
    assert closed.actor == judge and closed.before["status"] == "disputed"
    with pytest.raises(UserError, match="already entered"):
        self_report.report_result(event, me, SHEET, now=T0)  # the judge's entry locks it


def test_a_judge_entering_first_closes_a_pending_report():
    event, rnd, users = seated_event()
    me, mate, *_ = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, SHEET, now=T0)
    services.save_results(table, [Decimal(v) for v in SHEET], version=table.version)
    with pytest.raises(UserError, match="no longer waiting"):
        self_report.confirm_report(event, mate, report.pk, now=T0)
    report.refresh_from_db()
    assert report.status == "judged"


def test_a_dispute_after_the_result_stands_is_refused():
    event, rnd, users = seated_event()
    me, *others = players_of(rnd, 1, users)
    report = self_report.report_result(event, me, SHEET, now=T0)
    for other in others:
        self_report.confirm_report(event, other, report.pk, now=T0)
    with pytest.raises(UserError, match="stands"):
        self_report.dispute_report(event, others[0], report.pk, now=T0)
    assert not JudgeCall.objects.exists()


def test_one_open_report_per_table_is_a_database_constraint():
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    report = self_report.report_result(event, me, SHEET, now=T0)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultReport.objects.create(event=event, table=report.table, reporter=report.reporter)


# ------------------------------------------------------------------ Mitos y Leyendas
def test_myl_the_opponent_confirms():
    event, rnd, users = seated_event("myl")
    me, opponent = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, ["2", "1"], now=T0)
    assert report.stands_at == T0 + dt.timedelta(minutes=event.report_countdown_minutes)
    assert games(table) == [None, None]
    self_report.confirm_report(event, opponent, report.pk, now=T0)
    assert games(table) == [2, 1]
    assert AuditLog.objects.get(action="result.save").actor == opponent


def test_myl_the_result_stands_when_the_countdown_runs_out():
    event, rnd, users = seated_event("myl")
    me, _opponent = players_of(rnd, 1, users)
    event.report_countdown_minutes = 3
    event.save(update_fields=["report_countdown_minutes"])
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, ["2", "0"], now=T0)
    assert self_report.settle_due(event, T0 + dt.timedelta(minutes=2, seconds=59)) == 0
    assert games(table) == [None, None]
    assert self_report.settle_due(event, T0 + dt.timedelta(minutes=3)) == 1
    report.refresh_from_db()
    assert report.status == "confirmed" and games(table) == [2, 0]
    saved = AuditLog.objects.get(action="result.save")
    assert saved.actor is None and "countdown" in saved.comment


def test_myl_a_dispute_stops_the_countdown():
    event, rnd, users = seated_event("myl")
    me, opponent = players_of(rnd, 1, users)
    report = self_report.report_result(event, me, ["2", "0"], now=T0)
    self_report.dispute_report(event, opponent, report.pk, now=T0 + dt.timedelta(minutes=1))
    assert self_report.settle_due(event, T0 + dt.timedelta(hours=1)) == 0
    assert games(rnd.tables.get(number=1)) == [None, None]


def test_myl_an_impossible_result_is_refused():
    event, rnd, users = seated_event("myl")
    me = players_of(rnd, 1, users)[0]
    with pytest.raises(UserError):
        self_report.report_result(event, me, ["2", "2"], now=T0)
    swiss_services.check_games(event.best_of, [2, 1])  # the same check a judge's entry has


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_the_last_two_confirming_at_once_save_the_result_once():
    event, rnd, users = seated_event()
    me, a, b, c = players_of(rnd, 1, users)
    report = self_report.report_result(event, me, SHEET)
    self_report.confirm_report(event, a, report.pk)
    answers = run_together(
        lambda: self_report.confirm_report(event, b, report.pk),
        lambda: self_report.confirm_report(event, c, report.pk),
    )
    assert not any(isinstance(x, Exception) for x in answers), answers
    assert AuditLog.objects.filter(action="result.save").count() == 1
    assert AuditLog.objects.filter(action=self_report.STOOD).count() == 1


def test_the_others_at_the_table_are_asked_to_confirm(django_capture_on_commit_callbacks):
    from django.core import mail

    from events.models import NotificationPreference

    event, rnd, users = seated_event()
    me, *others = players_of(rnd, 1, users)
    elsewhere = players_of(rnd, 2, users)[0]
    for user in [me, *others, elsewhere]:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
        NotificationPreference.objects.create(user=user, kind="result_to_confirm", channel="email")
    with django_capture_on_commit_callbacks(execute=True):
        self_report.report_result(event, me, SHEET, now=T0)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in others)
    first = mail.outbox[0]
    assert first.subject == f"{event.name}, Table 1: confirm the result"
    assert "reported 2–1–1–0" in first.body and "/players/me/" in first.body


def test_the_countdown_stands_when_the_opponents_match_page_is_read(client):
    from django.urls import reverse

    event, rnd, users = seated_event("myl")
    me, opponent = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=event.report_countdown_minutes + 1)
    self_report.report_result(event, me, ["2", "1"], now=past)
    assert games(table) == [None, None]
    client.force_login(opponent)
    page = client.get(reverse("events:my-match", kwargs={"slug": event.slug})).content.decode()
    assert games(table) == [2, 1] and "Result entered" in page
    assert ResultReport.objects.get().status == "confirmed"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_a_judge_saving_while_the_last_player_confirms_one_wins_without_deadlock():
    event, rnd, users = seated_event()
    me, a, b, c = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, SHEET)
    self_report.confirm_report(event, a, report.pk)
    self_report.confirm_report(event, b, report.pk)
    judge = UserFactory(username="judge")
    judged = [Decimal(v) for v in ("3", "1", "0", "0")]
    answers = run_together(
        lambda: self_report.confirm_report(event, c, report.pk),
        lambda: services.save_results(table, judged, version=table.version, actor=judge),
    )
    report.refresh_from_db()
    # Either the players' result stood first (the judge's form is then out of date) or
    # the judge's entry closed the report first (the confirmation is then refused).
    assert report.status in ("confirmed", "judged"), answers
    assert all(
        isinstance(x, (UserError, type(None))) or not isinstance(x, Exception) for x in answers
    ), answers
    assert AuditLog.objects.filter(action="result.save").count() == 1


def test_a_judges_correction_after_the_report_stood_is_not_called_the_players(client):
    event, rnd, users = seated_event()
    me, *others = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    report = self_report.report_result(event, me, SHEET, now=T0)
    for other in others:
        self_report.confirm_report(event, other, report.pk, now=T0)
    reg = table.seats.get(position=1).registration
    assert self_report.table_panel(reg, table.pk).stood
    table.refresh_from_db()
    services.save_results(
        table, [Decimal(v) for v in ("3", "1", "0", "0")], version=table.version, actor=None
    )
    panel = self_report.table_panel(reg, table.pk)
    assert panel.has_result and not panel.stood and not panel.can_report
    report.refresh_from_db()
    assert report.status == "confirmed"  # a report that stood stays so (report_rules.judge)
