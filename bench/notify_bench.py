"""Benchmark: publishing the seating of a 300-player VEKN event notifies every player
(docs/notifications.md "How fast"). Measures the publish request (the organiser's POST:
it only enqueues one task, after its commit) and the database worker delivering the 300
e-mails (Django's locmem mailer, no network) and one webhook-free fan-out, on a throwaway
SQLite database with the embedded queue (django-tasks-db). Run:
``.venv/bin/python bench/notify_bench.py``. Targets: publish under 500 ms; every player
notified in under 10 s (issue 17)."""

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
tmp = tempfile.mkdtemp(prefix="arbitro-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core import mail  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

PLAYERS = 300
PUBLISH_TARGET_MS = 500
DELIVER_TARGET_S = 10


def main() -> int:
    # The embedded default queue, as `make run` uses it (test settings run tasks inline).
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.ALLOWED_HOSTS = ["testserver"]
    mail.outbox = []
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from django_tasks_db.models import DBTaskResult

    from events import services
    from events.models import (
        Delivery,
        Event,
        EventRole,
        NotificationPreference,
        Organisation,
        Person,
        Registration,
    )
    from events.permissions import Role

    User = get_user_model()
    org = Organisation.objects.create(slug="bench", name="Bench")
    event = Event.objects.create(
        organisation=org, slug="bench", name="Bench Open", date="2026-12-05"
    )
    organiser = User.objects.create_user("organiser", password="pw")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    users = User.objects.bulk_create(
        [User(username=f"p{i}", email=f"p{i}@example.org") for i in range(PLAYERS)]
    )
    people = Person.objects.bulk_create(
        [Person(name=f"Player {i}", user=u) for i, u in enumerate(users)]
    )
    Registration.objects.bulk_create(
        [
            Registration(event=event, person=p, code=f"c{i}", status="checked_in")
            for i, p in enumerate(people)
        ]
    )
    NotificationPreference.objects.bulk_create(
        [NotificationPreference(user=u, kind="seating_published", channel="email") for u in users]
    )
    start = time.perf_counter()
    rnd = services.seat_next_round(event, seed=1)
    seat_s = time.perf_counter() - start

    client = Client()
    client.force_login(organiser)
    url = f"/events/{event.slug}/manage/rounds/{rnd.number}/publish/"
    # Warm-up (first request of the process: URLs, templates, middleware): hide, twice.
    for _ in range(2):
        client.post(url, {"published": "0"})
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        response = client.post(url, {"published": "1"})
        publish_ms = (time.perf_counter() - start) * 1000
    assert response.status_code == 302, response.status_code
    queued = DBTaskResult.objects.count()

    start = time.perf_counter()
    with CaptureQueriesContext(connection) as worker_ctx:
        call_command("db_worker", "--batch", "--no-reload", "--no-startup-delay", verbosity=0)
    deliver_s = time.perf_counter() - start
    sent = Delivery.objects.filter(status="sent").count()

    print(f"Notifications: {PLAYERS}-player VEKN event, SQLite, database queue, locmem mail")
    print(f"  seating the round (not measured against a target): {seat_s:.2f} s")
    print(
        f"  publish request: {publish_ms:.0f} ms, {len(ctx.captured_queries)} queries, "
        f"{queued} task queued"
    )
    print(
        f"  worker: {sent} deliveries sent, {len(mail.outbox)} e-mails in {deliver_s:.2f} s "
        f"({len(worker_ctx.captured_queries)} queries)"
    )
    ok = (
        publish_ms < PUBLISH_TARGET_MS
        and deliver_s < DELIVER_TARGET_S
        and sent == PLAYERS
        and len(mail.outbox) == PLAYERS
        and queued == 1
    )
    print(
        ("PASS" if ok else "FAIL")
        + f" (targets: publish under {PUBLISH_TARGET_MS} ms with one task queued; all "
        f"{PLAYERS} notified in under {DELIVER_TARGET_S} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
