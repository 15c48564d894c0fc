import json

from django.core.management.base import BaseCommand, CommandError

from events.interchange import export_event
from events.models import Event


class Command(BaseCommand):
    help = "Print an event as an arbitro.event/1 file (docs/contracts.md §1)."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event {slug!r}")
        self.stdout.write(json.dumps(export_event(event), ensure_ascii=False, indent=2))
