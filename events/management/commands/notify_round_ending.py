"""Tell the players of every round about to end (docs/notifications.md "The round's end"):
run it every minute (cron, a systemd timer). Idempotent: each round's notice is sent once,
however often it runs (``events.round_reminders.sweep``)."""

from django.core.management.base import BaseCommand

from events import round_reminders


class Command(BaseCommand):
    help = "Queue the 'round about to end' notice of the rounds it is due for (once each)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--minutes",
            type=int,
            default=None,
            help="Minutes before the end (default: NOTIFY_ROUND_ENDING_MINUTES).",
        )

    def handle(self, *args, minutes=None, **options):
        if minutes is not None and minutes < 1:
            self.stderr.write("--minutes must be 1 or more")
            raise SystemExit(2)
        rounds = round_reminders.sweep(lead_minutes=minutes)
        for rnd in rounds:
            self.stdout.write(f"{rnd.event.slug} {rnd}: end notice queued")
        self.stdout.write(f"{len(rounds)} round(s) notified")
