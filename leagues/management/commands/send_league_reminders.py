"""``manage.py send_league_reminders``: send the league reminders due now (docs/leagues.md
"Reminders"); idempotent, run it from cron or the scheduler (e.g. every 15 minutes)."""

from django.core.management.base import BaseCommand

from leagues.reminders import send_reminders


class Command(BaseCommand):
    help = "Send the league deadline and report reminders due now (never twice)."

    def handle(self, *args, **options):
        sent = send_reminders()
        self.stdout.write(f"{sent} reminder(s) sent.")
