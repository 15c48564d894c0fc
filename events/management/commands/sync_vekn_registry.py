"""``manage.py sync_vekn_registry [--prefix 56 ...] [--queue]``: read the VEKN member
registry and update people by VEKN number (docs/vekn-link.md "The member registry").
Local edits are kept and reported as conflicts. ``--queue``: enqueue the job for the
worker instead (``events.vekn_push.sync_registry_task``; run it from cron or a timer)."""

from django.core.management.base import BaseCommand, CommandError

from events import vekn_client, vekn_sync
from events.notifications import enqueue
from events.vekn_push import sync_registry_task


class Command(BaseCommand):
    help = "Read the VEKN member registry and update people by VEKN number."

    def add_arguments(self, parser):
        parser.add_argument(
            "--prefix",
            action="append",
            default=[],
            help="Only numbers starting with this (repeatable); default all.",
        )
        parser.add_argument(
            "--queue",
            action="store_true",
            help="Enqueue the sync for the worker instead of running it here.",
        )

    def handle(self, *args, prefix, queue, **options):
        if not vekn_client.enabled():
            raise CommandError("The VEKN link is disabled: set VEKN_API_URL.")
        prefixes = prefix or ["00"]
        if queue:
            enqueue(sync_registry_task, prefixes)
            self.stdout.write("Queued the VEKN registry sync.")
            return
        try:
            with vekn_client.Client() as client:
                report = vekn_sync.sync_registry(client, prefixes)
        except vekn_client.VeknError as exc:
            raise CommandError(f"VEKN: {exc}") from exc
        self.stdout.write(
            f"{report.members} members read, {len(report.updated)} people updated, "
            f"{len(report.conflicts)} conflicts kept for staff."
        )
