"""Enqueue again the deliveries whose task was lost (docs/notifications.md "How it works"):
queued and never tried, or past their retry time, by more than
``NOTIFY_SWEEP_GRACE_MINUTES``; with ``--failed`` also the failed ones with attempts left.
Run it every few minutes (cron, a systemd timer); idempotent (each is sent once)."""

from django.core.management.base import BaseCommand

from events import notifications


class Command(BaseCommand):
    help = "Re-enqueue stuck deliveries (and, with --failed, failed ones with attempts left)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--failed",
            action="store_true",
            help="Also retry failed deliveries that have attempts left (once the cause is fixed).",
        )
        parser.add_argument(
            "--grace",
            type=int,
            default=None,
            help="Minutes a delivery may be late before it counts as stuck "
            "(default: NOTIFY_SWEEP_GRACE_MINUTES).",
        )

    def handle(self, *args, failed=False, grace=None, **options):
        if grace is not None and grace < 0:
            self.stderr.write("--grace must be 0 or more")
            raise SystemExit(2)
        count = notifications.sweep_deliveries(grace_minutes=grace, include_failed=failed)
        self.stdout.write(f"{count} deliveries enqueued again")
