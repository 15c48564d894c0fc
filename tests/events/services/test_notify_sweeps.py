"""The notifications sent by sweeps (docs/notifications.md): the round about to end, sent
once by ``notify_round_ending`` (events/round_reminders.py); a judge call answered
(events/judge_calls.py); the re-enqueue of stuck deliveries (``notify_sweep``) and the
delivery log's pruning (``prune_deliveries``), in events/notifications.py."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from events import judge_calls, notifications, round_reminders, services
from events.models import Delivery, NotificationPreference, Round, Seat
from events.permissions import ROLE_PERMISSIONS, Role
from penalties.models import TimeExtension
from tests.conftest import add_players
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def opt_in(user, kind):
    NotificationPreference.objects.create(user=user, kind=kind, channel="email")


@pytest.fixture
def running(event):
    """``event`` (120-minute rounds): 8 players with accounts, all opted in to
    ``round_ending``; round 1 published, its clock started 112 minutes ago (8 left); the
    first player's table has 4 minutes of extension."""
    regs = add_players(event, 8)
    users = []
    for i, reg in enumerate(regs):
        user = UserFactory(username=f"p{i}", email=f"p{i}@example.org")
        reg.person.user = user
        reg.person.save(update_fields=["user"])
        opt_in(user, "round_ending")
        users.append(user)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - timedelta(minutes=112))
    extended = Seat.objects.get(round=rnd, registration=regs[0]).table
    TimeExtension.objects.create(table=extended, minutes_spent=4, minutes=4)
    return event, Round.objects.get(pk=rnd.pk), users, extended


def sweep(capture, **kw):
    with capture(execute=True):
        return round_reminders.sweep(**kw)


def test_the_round_ending_notice_gives_each_table_its_time_left_once(
    running, django_capture_on_commit_callbacks
):
    event, rnd, users, extended = running
    mail.outbox = []
    assert sweep(django_capture_on_commit_callbacks, lead_minutes=10) == [rnd]
    assert len(mail.outbox) == 8
    by_address = {m.to[0]: m for m in mail.outbox}
    mine = by_address[users[0].email]
    assert mine.subject == f"{event.name}: Round 1 ends in 12 minutes"
    assert f"Table {extended.number}: 12 minutes left." in mine.body
    other = next(m for m in mail.outbox if f"Table {extended.number}:" not in m.body)
    assert other.subject == f"{event.name}: Round 1 ends in 8 minutes"
    assert Round.objects.get(pk=rnd.pk).ending_notified_at is not None
    # Sent once: the sweep again, and the command, send nothing more.
    assert sweep(django_capture_on_commit_callbacks, lead_minutes=10) == []
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("notify_round_ending", "--minutes", "30", stdout=out)
    assert "0 round(s) notified" in out.getvalue() and len(mail.outbox) == 8


@pytest.mark.parametrize(
    ("change", "lead"),
    [
        ({}, 5),  # 8 minutes left: not yet
        ({"paused_at_ago": 1}, 10),  # paused: waits until it runs again
        ({"started_ago": 130}, 10),  # over already: none
        ({"seating_published": False}, 10),
    ],
    ids=["not-yet", "paused", "over", "hidden"],
)
def test_no_round_ending_notice_when_it_is_not_due(
    running, django_capture_on_commit_callbacks, change, lead
):
    event, rnd, users, _ = running
    now = timezone.now()
    fields = {}
    if "paused_at_ago" in change:
        fields["paused_at"] = now - timedelta(minutes=change["paused_at_ago"])
    if "started_ago" in change:
        fields["started_at"] = now - timedelta(minutes=change["started_ago"])
    if "seating_published" in change:
        fields["seating_published"] = False
    Round.objects.filter(pk=rnd.pk).update(**fields)
    mail.outbox = []
    assert sweep(django_capture_on_commit_callbacks, lead_minutes=lead) == []
    assert mail.outbox == [] and Round.objects.get(pk=rnd.pk).ending_notified_at is None


def test_the_command_uses_the_setting(running, django_capture_on_commit_callbacks, settings):
    settings.NOTIFY_ROUND_ENDING_MINUTES = 10
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("notify_round_ending", stdout=out)
    assert "1 round(s) notified" in out.getvalue()


def test_a_judge_taking_a_call_tells_the_caller(running, django_capture_on_commit_callbacks):
    event, rnd, users, extended = running
    caller = users[0]
    opt_in(caller, "judge_call_answered")
    judge = UserFactory(username="jude", first_name="Jude", last_name="Law")
    call, _created = judge_calls.call_judge(event, caller, "rules")
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        judge_calls.take_call(event, call.pk, judge, perms=ROLE_PERMISSIONS[Role.JUDGE])
    assert [m.to for m in mail.outbox] == [[caller.email]]
    assert mail.outbox[0].subject == f"{event.name}: a judge is coming to table {extended.number}"
    assert "Jude Law answered your call." in mail.outbox[0].body
    assert not Delivery.objects.filter(channel="webhook").exists()
    # Taking it again is nothing: no second notice.
    with django_capture_on_commit_callbacks(execute=True):
        judge_calls.take_call(event, call.pk, judge, perms=ROLE_PERMISSIONS[Role.JUDGE])
    assert len(mail.outbox) == 1


# --------------------------------------------------------------------------- the sweep
def delivery(user, status, *, age_minutes=0, retry_ago=None, attempts=0):
    row = Delivery.objects.create(
        kind="round_started",
        channel="email",
        user=user,
        subject=f"{status} {age_minutes}",
        status=status,
        attempts=attempts,
        next_retry_at=None if retry_ago is None else timezone.now() - timedelta(minutes=retry_ago),
    )
    Delivery.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - timedelta(minutes=age_minutes)
    )
    return row


def test_the_sweep_sends_the_stuck_deliveries_only(db):
    user = UserFactory(username="ana", email="ana@example.org")
    lost = delivery(user, "queued", age_minutes=30)
    fresh = delivery(user, "queued", age_minutes=1)  # its task may still be on its way
    overdue = delivery(user, "retrying", age_minutes=60, retry_ago=20, attempts=2)
    soon = delivery(user, "retrying", age_minutes=60, retry_ago=-5, attempts=2)
    failed = delivery(user, "failed", age_minutes=60, attempts=1)
    given_up = delivery(user, "failed", age_minutes=60, attempts=6)
    mail.outbox = []
    assert notifications.sweep_deliveries(grace_minutes=5) == 2
    status = dict(Delivery.objects.values_list("pk", "status"))
    assert status[lost.pk] == status[overdue.pk] == "sent"
    assert status[fresh.pk] == "queued" and status[soon.pk] == "retrying"
    assert status[failed.pk] == status[given_up.pk] == "failed"
    assert len(mail.outbox) == 2
    # Run again: nothing more (idempotent).
    assert notifications.sweep_deliveries(grace_minutes=5) == 0
    # --failed: the failed one with attempts left is tried again, not the one given up.
    out = StringIO()
    call_command("notify_sweep", "--failed", "--grace", "5", stdout=out)
    assert "1 deliveries enqueued again" in out.getvalue()
    assert Delivery.objects.get(pk=failed.pk).status == "sent"
    assert Delivery.objects.get(pk=given_up.pk).status == "failed"


def test_a_delivery_already_sent_is_not_sent_twice(db):
    user = UserFactory(username="ana", email="ana@example.org")
    row = delivery(user, "queued", age_minutes=30)
    mail.outbox = []
    assert notifications.deliver.call(row.pk) == "sent"
    assert notifications.deliver.call(row.pk) == "sent"
    assert len(mail.outbox) == 1


def test_pruning_keeps_what_is_recent_or_still_to_send(db, settings):
    user = UserFactory(username="ana", email="ana@example.org")
    old_sent = delivery(user, "sent", age_minutes=60 * 24 * 100)
    old_failed = delivery(user, "failed", age_minutes=60 * 24 * 100)
    old_retrying = delivery(user, "retrying", age_minutes=60 * 24 * 100, retry_ago=-1)
    recent = delivery(user, "sent", age_minutes=60 * 24 * 10)
    settings.NOTIFY_LOG_RETENTION_DAYS = 90
    out = StringIO()
    call_command("prune_deliveries", stdout=out)
    assert "2 deliveries deleted" in out.getvalue()
    left = set(Delivery.objects.values_list("pk", flat=True))
    assert left == {old_retrying.pk, recent.pk}
    assert not {old_sent.pk, old_failed.pk} & left
    assert notifications.prune_deliveries(days=5) == 1  # the recent one, 10 days old
    with pytest.raises(ValueError):
        notifications.prune_deliveries(days=0)
