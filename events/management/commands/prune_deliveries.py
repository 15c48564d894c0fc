"""Delete old rows of the delivery log (docs/notifications.md "The delivery log's
retention"): sent and failed deliveries created more than ``NOTIFY_LOG_RETENTION_DAYS``
days ago (90 by default, ``--days`` to override); queued and retrying ones are kept. Run
it daily (cron, a systemd timer)."""

from django.core.management.base import BaseCommand

from events import notifications


class Command(BaseCommand):
    help = "Delete sent and failed deliveries older than the retention (NOTIFY_LOG_RETENTION_DAYS)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help="Keep this many days (default: NOTIFY_LOG_RETENTION_DAYS).",
        )

    def handle(self, *args, days=None, **options):
        if days is not None and days < 1:
            self.stderr.write("--days must be 1 or more")
            raise SystemExit(2)
        deleted = notifications.prune_deliveries(days=days)
        self.stdout.write(f"{deleted} deliveries deleted")
