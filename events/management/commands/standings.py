import json

from django.core.management.base import BaseCommand, CommandError

from events import rulesets
from events.models import Event
from standings.services import event_standings, standings_document


class Command(BaseCommand):
    help = (
        "Print an event's standings (docs/contracts.md §2 document with --json, a table otherwise)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument(
            "--json", action="store_true", help="print the docs/contracts.md §2 JSON document"
        )

    def handle(self, *args, slug, json: bool, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event {slug!r}")
        result = event_standings(event)
        if json:
            self.stdout.write(_dumps(standings_document(result)))
            return
        if rulesets.of(event).pairs_matches:
            # Mitos y Leyendas: the docs/contracts.md §2 rows (match points, OMW, GW, OGW).
            for row in standings_document(result)["standings"]:
                self.stdout.write(
                    f"{row['rank']:>4} {row['name']:<30} MP {row['match_points']:>3}  "
                    f"OMW {row['omw']:>6}  GW {row['gw_pct']:>6}  OGW {row['ogw']:>6}"
                )
            return
        for row, info in result.rows():
            flag = "W" if row.winner else ("F" if row.finalist else " ")
            self.stdout.write(
                f"{row.rank:>4} {flag} {info.name:<30} GW {row.prelim_gw:>2}  VP {row.prelim_vp:>5}  TP {row.prelim_tp:>4}"
            )


def _dumps(doc) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2)
