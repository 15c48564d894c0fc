"""The notifications' services and tasks (events/notifications.py, docs/notifications.md),
with no network: e-mail into Django's locmem outbox, Web Push and webhooks against a local
HTTP server (pytest-httpserver). The tests run the tasks with the immediate backend (set in
config/settings/test.py) after the commit, and once with the database backend and its
worker."""

import base64
import hashlib
import hmac
import json
import secrets
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from werkzeug import Response

from events import notifications, notify_rules, services
from events.models import Delivery, NotificationPreference, PushSubscription, Webhook
from tests.conftest import add_players
from tests.factories import UserFactory


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def opt_in(user, kind="seating_published", channel="email"):
    NotificationPreference.objects.create(user=user, kind=kind, channel=channel)


def link_accounts(regs, *, email=True):
    users = []
    for i, reg in enumerate(regs):
        user = UserFactory(username=f"player{i}", email=f"player{i}@example.org" if email else "")
        reg.person.user = user
        reg.person.save(update_fields=["user"])
        users.append(user)
    return users


@pytest.fixture
def seated(event):
    regs = add_players(event, 12)
    users = link_accounts(regs)
    rnd = services.seat_next_round(event, seed=1)
    return event, rnd, users


def publish(rnd, capture):
    with capture(execute=True):
        services.set_seating_published(rnd, True)


def test_publishing_a_seating_emails_each_player_who_opted_in_their_seat(
    seated, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    for user in users[:8]:
        opt_in(user)
    opt_in(users[8], kind="penalty_decision")  # another kind: not sent
    publish(rnd, django_capture_on_commit_callbacks)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in users[:8])
    first = next(m for m in mail.outbox if m.to == [users[0].email])
    seat = rnd.seats.select_related("table").get(registration__person__user=users[0])
    assert first.subject == f"{event.name}: seating of Round 1 published"
    assert f"Table {seat.table.number}, seat {seat.position}." in first.body
    assert "/events/open-2026/seating/" in first.body
    rows = Delivery.objects.filter(kind="seating_published")
    assert rows.count() == 8
    assert set(rows.values_list("status", "attempts", "channel")) == {("sent", 1, "email")}
    assert set(rows.values_list("organisation", flat=True)) == {event.organisation_id}


def test_publishing_again_without_hiding_sends_nothing_new(
    seated, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    opt_in(users[0])
    publish(rnd, django_capture_on_commit_callbacks)
    publish(rnd, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.set_seating_published(rnd, False)
    publish(rnd, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2


def test_the_publish_request_only_enqueues_one_task(
    seated, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    event, rnd, users = seated
    for user in users:
        opt_in(user)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with django_assert_max_num_queries(6):
            services.set_seating_published(rnd, True)
    assert len(callbacks) == 1 and not mail.outbox
    # The fan-out reads a fixed few queries whatever the number of players.
    with django_assert_max_num_queries(14):
        callbacks[0]()
    assert len(mail.outbox) == 12


def test_a_failing_queue_never_breaks_the_publish(
    seated, django_capture_on_commit_callbacks, monkeypatch
):
    event, rnd, users = seated
    opt_in(users[0])

    def broken(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr("django.tasks.backends.immediate.ImmediateBackend.enqueue", broken)
    publish(rnd, django_capture_on_commit_callbacks)
    rnd.refresh_from_db()
    assert rnd.seating_published and not mail.outbox


def test_a_failing_mailer_is_logged_and_retried_then_given_up(
    seated, django_capture_on_commit_callbacks, monkeypatch
):
    event, rnd, users = seated
    opt_in(users[0])
    calls = []

    def refuse(self, messages):
        calls.append(messages)
        raise OSError("SMTP server unreachable")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
    publish(rnd, django_capture_on_commit_callbacks)
    delivery = Delivery.objects.get()
    # Immediate backend: each retry runs at once, up to the last attempt.
    assert delivery.status == "failed" and delivery.attempts == notify_rules.MAX_ATTEMPTS
    assert delivery.last_error == "OSError: SMTP server unreachable"
    assert delivery.next_retry_at is None and len(calls) == notify_rules.MAX_ATTEMPTS


def test_an_account_without_address_fails_once_without_retrying(
    event, django_capture_on_commit_callbacks
):
    regs = add_players(event, 4)
    users = link_accounts(regs, email=False)
    rnd = services.seat_next_round(event, seed=1)
    opt_in(users[0])
    publish(rnd, django_capture_on_commit_callbacks)
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("failed", 1)
    assert "no e-mail address" in delivery.last_error


# --------------------------------------------------------------------------- webhooks
def hook_for(event, url, kinds=("seating_published",)):
    return Webhook.objects.create(
        organisation=event.organisation,
        name="Discord",
        url=url,
        secret="s3cret",
        kinds=list(kinds),
    )


def test_the_webhook_gets_one_signed_json_post_per_round(
    seated, httpserver, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    httpserver.expect_request("/hook", method="POST").respond_with_data("", status=204)
    hook_for(event, httpserver.url_for("/hook"))
    publish(rnd, django_capture_on_commit_callbacks)
    assert len(httpserver.log) == 1
    request, _response = httpserver.log[0]
    expected = "sha256=" + hmac.new(b"s3cret", request.get_data(), hashlib.sha256).hexdigest()
    assert request.headers[notify_rules.SIGNATURE_HEADER] == expected
    assert request.headers["Content-Type"] == "application/json"
    body = json.loads(request.get_data())
    assert body["kind"] == "seating_published"
    assert body["content"].startswith(f"**{event.name}: seating of Round 1 published**")
    delivery = Delivery.objects.get(channel="webhook")
    assert request.headers["X-Arbitro-Delivery"] == str(delivery.pk)
    assert (delivery.status, delivery.attempts, delivery.user) == ("sent", 1, None)


def test_a_webhook_answering_500_is_retried_until_it_answers(
    seated, httpserver, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    for _ in range(2):
        httpserver.expect_oneshot_request("/hook", method="POST").respond_with_data(
            "oops", status=500
        )
    httpserver.expect_request("/hook", method="POST").respond_with_data("ok")
    hook_for(event, httpserver.url_for("/hook"))
    publish(rnd, django_capture_on_commit_callbacks)
    assert [r.status_code for _q, r in httpserver.log] == [500, 500, 200]
    delivery = Delivery.objects.get(channel="webhook")
    assert (delivery.status, delivery.attempts) == ("sent", 3)
    assert delivery.last_error == "RuntimeError: HTTP 500: oops"  # the last failure kept
    # Every retry was signed the same way.
    signatures = {q.headers[notify_rules.SIGNATURE_HEADER] for q, _r in httpserver.log}
    assert len(signatures) == 1


def test_a_webhook_to_this_servers_network_is_never_called(
    seated, httpserver, settings, django_capture_on_commit_callbacks
):
    """With the guard on (production), a webhook whose host is this machine fails for
    good before any request: an organisation cannot make the server call its own network."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    event, rnd, users = seated
    httpserver.expect_request("/hook", method="POST").respond_with_data("ok")
    hook_for(event, httpserver.url_for("/hook").replace("http://", "https://"))
    publish(rnd, django_capture_on_commit_callbacks)
    assert httpserver.log == []
    delivery = Delivery.objects.get(channel="webhook")
    assert delivery.status == "failed" and delivery.attempts == 1
    assert "private network" in delivery.last_error


def test_a_webhook_of_another_kind_or_turned_off_gets_nothing(
    seated, httpserver, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    hook_for(event, httpserver.url_for("/a"), kinds=["league_report"])
    off = hook_for(event, httpserver.url_for("/b"))
    off.active = False
    off.save()
    publish(rnd, django_capture_on_commit_callbacks)
    assert httpserver.log == [] and not Delivery.objects.exists()


def test_a_retry_waits_for_the_backoff_on_a_backend_that_defers(seated, monkeypatch):
    """With a backend that supports ``run_after`` (the database one, RQ) the next attempt
    is scheduled at ``next_retry_at``, not run at once."""
    event, rnd, users = seated
    hook = hook_for(event, "http://127.0.0.1:9/unreachable")
    delivery = Delivery.objects.create(
        kind="seating_published", channel="webhook", webhook=hook, subject="s"
    )
    scheduled = []
    monkeypatch.setattr(
        notifications, "enqueue", lambda task, *args, run_after=None: scheduled.append(run_after)
    )
    before = timezone.now()
    notifications.attempt(delivery)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("retrying", 1)
    assert delivery.last_error.startswith("ConnectionError")
    wait = delivery.next_retry_at - before
    assert timedelta(seconds=29) < wait < timedelta(seconds=32)
    assert scheduled == [delivery.next_retry_at]


# --------------------------------------------------------------------------- web push
def vapid_private_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64(key.private_numbers().private_value.to_bytes(32, "big"))


def browser_keys() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64(point), b64(secrets.token_bytes(16))


def test_web_push_posts_an_encrypted_signed_message_to_each_phone(
    seated, httpserver, settings, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    settings.VAPID_PRIVATE_KEY = vapid_private_key()
    settings.VAPID_SUBJECT = "mailto:ops@example.org"
    p256dh, auth = browser_keys()
    notifications.subscribe_push(users[0], httpserver.url_for("/push/phone-1"), p256dh, auth)
    httpserver.expect_request("/push/phone-1", method="POST").respond_with_data("", status=201)
    opt_in(users[0], channel="push")
    publish(rnd, django_capture_on_commit_callbacks)
    assert len(httpserver.log) == 1
    request, _response = httpserver.log[0]
    assert request.headers["Content-Encoding"] == "aes128gcm"
    assert request.headers["Authorization"].startswith("vapid t=")
    assert request.headers["TTL"] == "3600"
    assert len(request.get_data()) > 100  # encrypted, not the plain JSON
    assert b"seating" not in request.get_data()
    delivery = Delivery.objects.get()
    assert (delivery.channel, delivery.status) == ("push", "sent")


def test_a_phone_the_push_service_says_is_gone_is_forgotten(
    seated, httpserver, settings, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    settings.VAPID_PRIVATE_KEY = vapid_private_key()
    for name in ("old", "new"):
        p256dh, auth = browser_keys()
        notifications.subscribe_push(users[0], httpserver.url_for(f"/push/{name}"), p256dh, auth)
    httpserver.expect_request("/push/old").respond_with_response(Response("", status=410))
    httpserver.expect_request("/push/new").respond_with_data("", status=201)
    opt_in(users[0], channel="push")
    publish(rnd, django_capture_on_commit_callbacks)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        httpserver.url_for("/push/new")
    ]
    assert Delivery.objects.get().status == "sent"


def test_push_without_vapid_keys_fails_without_retrying(
    seated, settings, django_capture_on_commit_callbacks
):
    event, rnd, users = seated
    settings.VAPID_PRIVATE_KEY = ""
    opt_in(users[0], channel="push")
    publish(rnd, django_capture_on_commit_callbacks)
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("failed", 1)


# --------------------------------------------------------------------------- preferences
def test_preferences_are_replaced_and_only_personal_channels_are_kept(db):
    user = UserFactory()
    notifications.set_preferences(user, {("seating_published", "email"), ("league_report", "push")})
    stored = notifications.set_preferences(
        user,
        {
            ("league_report", "push"),
            ("penalty_decision", "email"),
            ("penalty_decision", "webhook"),
            ("nope", "email"),
        },
    )
    assert stored == {("league_report", "push"), ("penalty_decision", "email")}
    assert notifications.preferences_of(user) == stored


# --------------------------------------------------------------------------- the database worker
@pytest.mark.django_db(transaction=True)
def test_the_database_backend_queues_and_its_worker_delivers(seated, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    event, rnd, users = seated
    for user in users:
        opt_in(user)
    services.set_seating_published(rnd, True)  # no test transaction: it commits
    assert not mail.outbox and DBTaskResult.objects.count() == 1
    call_command("db_worker", "--batch", "--no-reload", "--no-startup-delay", verbosity=0)
    assert len(mail.outbox) == 12
    assert set(Delivery.objects.values_list("status", flat=True)) == {"sent"}
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


# --------------------------------------------------------------------------- the RQ backend
@pytest.fixture
def rq_queue(settings, monkeypatch):
    """Production's backend (django-tasks-rq on RQ) on an in-memory Redis (fakeredis)."""
    import django_rq.connection_utils
    import django_rq.queues
    import fakeredis
    from django_tasks_rq import Job

    fake = fakeredis.FakeStrictRedis()
    for module in (django_rq.queues, django_rq.connection_utils):
        if hasattr(module, "get_redis_connection"):
            monkeypatch.setattr(module, "get_redis_connection", lambda *args, **kw: fake)
    settings.RQ_QUEUES = {"default": {"URL": "redis://redis.invalid:6379/2"}}
    settings.TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    return fake, django_rq.queues.get_queue("default", job_class=Job)


def run_rq_worker(fake, queue):
    from django_tasks_rq import Job
    from rq import SimpleWorker

    SimpleWorker([queue], connection=fake, job_class=Job).work(burst=True)


def test_the_rq_backend_queues_in_redis_and_its_worker_delivers(
    seated, rq_queue, httpserver, django_capture_on_commit_callbacks
):
    fake, queue = rq_queue
    event, rnd, users = seated
    opt_in(users[0])
    httpserver.expect_request("/hook", method="POST").respond_with_data("", status=204)
    hook_for(event, httpserver.url_for("/hook"))
    publish(rnd, django_capture_on_commit_callbacks)
    assert queue.count == 1 and not mail.outbox and not Delivery.objects.exists()
    run_rq_worker(fake, queue)
    assert queue.count == 0 and [m.to for m in mail.outbox] == [[users[0].email]]
    assert len(httpserver.log) == 1
    assert set(Delivery.objects.values_list("channel", "status")) == {
        ("email", "sent"),
        ("webhook", "sent"),
    }


def test_on_rq_a_failed_attempt_is_scheduled_for_later(seated, rq_queue):
    from rq.registry import ScheduledJobRegistry

    fake, queue = rq_queue
    event, rnd, users = seated
    hook = hook_for(event, "http://127.0.0.1:9/unreachable")
    delivery = Delivery.objects.create(
        kind="seating_published", channel="webhook", webhook=hook, subject="s"
    )
    notifications.attempt(delivery)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("retrying", 1)
    scheduled = ScheduledJobRegistry(queue=queue)
    assert queue.count == 0 and scheduled.count == 1  # not run at once: at next_retry_at
    [job_id] = scheduled.get_job_ids()
    when = scheduled.get_scheduled_time(job_id)
    assert abs((when - delivery.next_retry_at).total_seconds()) < 1


def test_starting_the_round_clock_tells_its_players_their_table_and_time(
    seated, django_capture_on_commit_callbacks
):
    from penalties import time_extensions

    event, rnd, users = seated
    opt_in(users[0], kind="round_started")
    opt_in(users[1])  # seating only: not told of the start
    publish(rnd, django_capture_on_commit_callbacks)
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        time_extensions.start_round_clock(rnd)
    seat = rnd.seats.select_related("table").get(registration__person__user=users[0])
    assert [m.to for m in mail.outbox] == [[users[0].email]]
    assert mail.outbox[0].subject == f"{event.name}: Round 1 has started"
    assert f"Table {seat.table.number}. {event.round_minutes} minutes" in mail.outbox[0].body
