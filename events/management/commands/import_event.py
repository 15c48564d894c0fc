from django.core.management.base import BaseCommand, CommandError

from events.interchange import EventFileError, import_event
from events.management.jsonfile import read_json_file
from events.models import Organisation


class Command(BaseCommand):
    help = "Import an arbitro.event/1 file (docs/contracts.md §1). All or nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the JSON file ('-' for standard input)")
        parser.add_argument(
            "--replace", action="store_true", help="replace an event with the same slug"
        )
        parser.add_argument(
            "--organisation", help="slug of the owning organisation (default: imported)"
        )
        parser.add_argument("--publish", action="store_true", help="publish the standings at once")

    def handle(self, *args, file, replace, organisation, publish, **options):
        data = read_json_file(file)
        org = None
        if organisation:
            org = Organisation.objects.filter(slug=organisation).first()
            if org is None:
                raise CommandError(f"organisation {organisation!r} does not exist")
        try:
            event = import_event(data, organisation=org, replace=replace, publish=publish)
        except EventFileError as exc:
            for problem in exc.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was imported") from None
        self.stdout.write(
            f"imported {event.slug}: {event.registrations.count()} players, {event.rounds.count()} rounds"
        )
