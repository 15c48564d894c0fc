import json

from django.core.management.base import BaseCommand, CommandError

from events.deck_services import twd_entry
from events.errors import UserError
from events.interchange import export_event
from events.models import Event


class Command(BaseCommand):
    help = (
        "Print an event as an arbitro.event/1 file (docs/contracts.md §1), or with --twd the "
        "winner's deck as a Tournament Winning Deck Archive entry (docs/contracts.md §8)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument(
            "--twd",
            action="store_true",
            help="print the winner's deck as a TWDA entry (VEKN events with a final)",
        )

    def handle(self, *args, slug, twd=False, **options):
        event = Event.objects.select_related("organisation").filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event {slug!r}")
        if twd:
            try:
                self.stdout.write(twd_entry(event), ending="")
            except UserError as exc:
                raise CommandError(str(exc)) from None
            return
        self.stdout.write(json.dumps(export_event(event), ensure_ascii=False, indent=2))
