"""The "round about to end" notice (docs/notifications.md "The round's end"): a sweep,
run every minute by ``manage.py notify_round_ending`` (cron or a systemd timer) or by
the :func:`sweep_task` task, that finds the running rounds whose clock has at most
``settings.NOTIFY_ROUND_ENDING_MINUTES`` left and tells their players once.

Sent once: each round's notice is claimed by one conditional update of
``Round.ending_notified_at`` (empty → now) before it is queued, so two sweeps at the same
time, or the same sweep run again, send it once. The clock's rules are
``events.round_clock``; a table's time extensions (JG §1.2.4) come from
``penalties.time_extensions``. Event-day services (docs/architecture.md "Layers").
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from events import notifications, notify_rules, round_clock
from events.models import Round
from penalties.time_extensions import extension_minutes_by_table

LOOK_BACK = timedelta(days=1)
"""Rounds started longer ago than this are not looked at (no round lasts a day)."""


def sweep(now: datetime | None = None, lead_minutes: int | None = None) -> list[Round]:
    """Queue the end notice of every round it is due for (``notify_rules.round_ending_due``:
    running, published, with more than 0 and at most ``lead_minutes`` minutes left, by
    default ``settings.NOTIFY_ROUND_ENDING_MINUTES``) that has not had it. Returns the
    rounds claimed by this call (each at most once, ever). Queries: one for the
    candidates, then two per round claimed (the claim, its tables' extensions)."""
    now = now or timezone.now()
    lead = settings.NOTIFY_ROUND_ENDING_MINUTES if lead_minutes is None else lead_minutes
    candidates = Round.objects.select_related("event").filter(
        seating_published=True,
        started_at__isnull=False,
        started_at__gte=now - LOOK_BACK,
        paused_at__isnull=True,
        ending_notified_at__isnull=True,
    )
    claimed = []
    for rnd in candidates:
        current = round_clock.clock(rnd.timing(), now)
        left = current.seconds_left if current.state == round_clock.RUNNING else None
        if not notify_rules.round_ending_due(left, lead):
            continue
        with transaction.atomic():
            won = Round.objects.filter(pk=rnd.pk, ending_notified_at__isnull=True).update(
                ending_notified_at=now
            )
            if not won:
                continue  # another sweep claimed it meanwhile
            notifications.round_ending(rnd, extension_minutes_by_table(rnd))
        claimed.append(rnd)
    return claimed


@task
def sweep_task() -> int:
    """:func:`sweep` on the worker (for a scheduler that enqueues tasks): the number of
    rounds whose notice it queued."""
    return len(sweep())
