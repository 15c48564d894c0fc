from django.core.management.base import BaseCommand, CommandError

from events.archon_import import import_archon
from events.interchange import EventFileError, import_event
from events.management.jsonfile import read_json_file
from events.models import Organisation


class Command(BaseCommand):
    help = (
        "Import an arbitro.event/1 file (docs/contracts.md §1), or a legacy Archon .xlsx"
        " workbook (docs/rules-vekn.md 'Importing past events'). All or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", help="path of the JSON file ('-' for standard input) or of an Archon .xlsx"
        )
        parser.add_argument(
            "--replace", action="store_true", help="replace an event with the same slug"
        )
        parser.add_argument(
            "--organisation", help="slug of the owning organisation (default: imported)"
        )
        parser.add_argument("--publish", action="store_true", help="publish the standings at once")
        parser.add_argument(
            "--slug", help="the event's slug, for an Archon workbook (default: its name and date)"
        )

    def handle(self, *args, file, replace, organisation, publish, slug, **options):
        archon = file.lower().endswith(".xlsx")
        if slug and not archon:
            raise CommandError("--slug is for Archon .xlsx workbooks; an event file has its slug")
        org = None
        if organisation:
            org = Organisation.objects.filter(slug=organisation).first()
            if org is None:
                raise CommandError(f"organisation {organisation!r} does not exist")
        try:
            if archon:
                event = import_archon(
                    _read_bytes(file),
                    slug=slug,
                    organisation=org,
                    replace=replace,
                    publish=publish,
                )
            else:
                data = read_json_file(file)
                event = import_event(data, organisation=org, replace=replace, publish=publish)
        except EventFileError as exc:
            for problem in exc.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was imported") from None
        self.stdout.write(
            f"imported {event.slug}: {event.registrations.count()} players, {event.rounds.count()} rounds"
        )


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
