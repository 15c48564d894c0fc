from django.core.management.base import BaseCommand, CommandError

from events.management.jsonfile import read_json_file
from leagues.rules.errors import LeagueRuleError
from leagues.services import import_season


class Command(BaseCommand):
    help = "Import an arbitro.season/1 file (docs/contracts.md §5). All or nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the JSON file ('-' for standard input)")
        parser.add_argument(
            "--replace", action="store_true", help="replace a season with the same slug"
        )

    def handle(self, *args, file, replace, **options):
        data = read_json_file(file)
        try:
            season = import_season(data, replace=replace)
        except LeagueRuleError as exc:
            for problem in exc.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was imported") from None
        matches = sum(c.matches.count() for c in season.competitions.all())
        self.stdout.write(
            f"imported {season.slug}: {season.teams.count()} teams, "
            f"{season.competitions.count()} competitions, {matches} matches"
        )
