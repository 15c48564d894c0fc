import json

from django.core.management.base import BaseCommand, CommandError

from leagues.models import Season
from leagues.services import export_season


class Command(BaseCommand):
    help = "Print a season as an arbitro.season/1 file (docs/contracts.md §5)."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        season = Season.objects.filter(slug=slug).first()
        if season is None:
            raise CommandError(f"no season {slug!r}")
        self.stdout.write(json.dumps(export_season(season), ensure_ascii=False, indent=2))
