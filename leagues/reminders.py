"""League reminders (issue 17; docs/leagues.md "Reminders"): before a fixture's initial and
final deadlines (ANFPES T24 §IV.4) and when a result report still waits for the opponent's
confirmation. Run by the task :func:`send_league_reminders_task` or the management command
``send_league_reminders`` (cron or the scheduler, e.g. every 15 minutes).

Idempotent: each reminder is recorded (:class:`leagues.models.LeagueReminder`, a unique
``key`` per kind, fixture or report, deadline and player) in the same transaction that
enqueues its notice, so running it twice — or two runs at once — never sends one twice;
a deadline moved by staff is a new deadline and gets its own reminder. Players opt in per
kind (``league_deadline``, ``league_report``; docs/notifications.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from events import notifications
from leagues.models import LeagueReminder, Match, ResultReport
from leagues.rules import reminders as texts
from leagues.rules import scheduling as rules


def _url(match: Match) -> str:
    return notifications.absolute(
        reverse("leagues:match", kwargs={"slug": match.competition.slug, "code": match.code})
    )


def _once(key: str, kind: str, match: Match, user_id: int, notice) -> bool:
    """Record the reminder and enqueue its notice; ``False`` when already recorded."""
    try:
        with transaction.atomic():
            LeagueReminder.objects.create(key=key, kind=kind, match=match, user_id=user_id)
            notifications.notify_users(
                notice,
                [user_id],
                organisation_id=match.competition.season.organisation_id,
                webhooks=False,
            )
    except IntegrityError:
        return False
    return True


def send_reminders(now: datetime | None = None) -> int:
    """Send the reminders due at ``now``; returns how many were sent. Queries: two reads,
    then one check per reminder due."""
    now = now or timezone.now()
    horizon = now + timedelta(hours=rules.REMINDER_HOURS)
    sent = 0
    done = set(
        LeagueReminder.objects.filter(sent_at__gte=now - timedelta(days=30)).values_list(
            "key", flat=True
        )
    )
    fixtures = (
        Match.objects.filter(status=Match.Status.SCHEDULED)
        .filter(
            Q(initial_deadline__gt=now, initial_deadline__lte=horizon)
            | Q(final_deadline__gt=now, final_deadline__lte=horizon)
        )
        .select_related("competition__season", "home", "away")
    )
    with notifications.site_language():
        for m in fixtures:
            zone = ZoneInfo(m.competition.season.time_zone)
            name = f"{m.home.name} – {m.away.name}"
            for which, when in rules.deadline_reminders(m.initial_deadline, m.final_deadline, now):
                local = timezone.localtime(when, zone).strftime("%Y-%m-%d %H:%M")
                notice = texts.deadline_notice(
                    which, name, f"{local} ({m.competition.season.time_zone})", _url(m)
                )
                for user_id in (m.home.user_id, m.away.user_id):
                    key = f"{which}:{m.pk}:{when.isoformat()}:{user_id}"
                    if user_id is None or key in done:
                        continue
                    sent += _once(key, which, m, user_id, notice)
        waiting = ResultReport.objects.filter(
            status=ResultReport.Status.PENDING,
            created_at__lte=now - timedelta(hours=rules.REPORT_REMINDER_HOURS),
        ).select_related("match__competition__season", "match__home", "match__away", "team")
        for report in waiting:
            m = report.match
            if not rules.report_reminder_due(report.created_at, now, pending=True):
                continue
            opponent = m.away if report.team_id == m.home_id else m.home
            key = f"report:{report.pk}:{opponent.user_id}"
            if opponent.user_id is None or key in done:
                continue
            notice = texts.report_notice(
                f"{m.home.name} – {m.away.name}",
                f"{report.home_goals}–{report.away_goals}",
                _url(m),
            )
            sent += _once(key, LeagueReminder.Kind.REPORT, m, opponent.user_id, notice)
    return sent


@task
def send_league_reminders_task() -> int:
    """The worker's run of :func:`send_reminders` (for a scheduler that enqueues tasks)."""
    return send_reminders()
