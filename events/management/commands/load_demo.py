"""Demo data for `make run`: an organisation, staff and player logins, a finished VEKN
event of 25 players (3 rounds and a final, every sheet legal) and an event of 23
players ready to be run. Idempotent: running it again changes nothing."""

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from events import services
from events.models import Event, EventRole, Organisation, OrganisationRole, Person
from events.permissions import Role
from standings import vekn
from standings.services import event_standings

DEMO_PASSWORD = "demo-arbitro"
LOGINS = [
    ("admin", "superuser", None),
    ("organiser", "organiser of the demo organisation", Role.ORGANISER),
    ("headjudge", "head judge of the demo organisation", Role.HEAD_JUDGE),
    ("judge", "judge of the demo organisation", Role.JUDGE),
    ("scorekeeper", "scorekeeper of the demo organisation", Role.SCOREKEEPER),
    ("player", "a player (Ana Rojas, VEKN 3200001)", None),
]
NAMES = [
    "Ana Rojas",
    "Bruno Díaz",
    "Camila Soto",
    "Diego Fuentes",
    "Elena Vidal",
    "Felipe Muñoz",
    "Gabriela Silva",
    "Hernán Castro",
    "Isabel Navarro",
    "Javier Reyes",
    "Karina Torres",
    "Lucas Morales",
    "María Herrera",
    "Nicolás Pérez",
    "Olivia Campos",
    "Pablo Vega",
    "Renata Ortiz",
    "Sebastián Lagos",
    "Tamara Ríos",
    "Ulises Bravo",
    "Valentina Cruz",
    "Walter Mena",
    "Ximena Paredes",
    "Yerko Salinas",
    "Zoe Araya",
]


class Command(BaseCommand):
    help = "Load the demo data (idempotent) and print the demo logins."

    def handle(self, *args, **options):
        with transaction.atomic():
            created = self._load()
        self.stdout.write(
            self.style.SUCCESS("Demo data " + ("loaded." if created else "already there."))
        )
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for username, what, _role in LOGINS:
            self.stdout.write(f"  {username:<12} {what}")

    def _load(self) -> bool:
        if Event.objects.filter(slug="demo-2026").exists():
            return False
        User = get_user_model()
        org, _ = Organisation.objects.get_or_create(
            slug="vekn-chile",
            defaults={"name": "VEKN Chile", "kind": Organisation.Kind.VEKN_COUNTRY},
        )
        users = {}
        for username, _what, role in LOGINS:
            user = User.objects.filter(username=username).first() or User(username=username)
            user.is_superuser = user.is_staff = username == "admin"
            user.set_password(DEMO_PASSWORD)
            user.save()
            users[username] = user
            if role:
                OrganisationRole.objects.get_or_create(organisation=org, user=user, role=role)
        people = []
        for i, name in enumerate(NAMES, start=1):
            person, _ = Person.objects.get_or_create(
                vekn_number=f"32000{i:02d}", defaults={"name": name}
            )
            people.append(person)
        people[0].user = users["player"]
        people[0].save(update_fields=["user"])

        rng = random.Random(2026)
        organiser = users["organiser"]
        event = services.create_event(
            org,
            preset="vekn-2026",
            slug="demo-2026",
            name="Demo Open 2026",
            date=dt.date(2026, 11, 28),
            actor=organiser,
        )
        EventRole.objects.get_or_create(event=event, user=organiser, role=Role.ORGANISER)
        for person in people:
            services.register(event, person, organiser, check_in=True)
        for number in range(1, event.preliminary_rounds + 1):
            rnd = services.seat_next_round(event, organiser, seed=number)
            services.set_seating_published(rnd, True, organiser)
            self._play(rnd, rng, users["scorekeeper"])
        result = event_standings(event)
        for group in result.standings.toss_required:
            services.random_toss(event, group, users["headjudge"], rng=rng)
        final = services.start_final(event, users["headjudge"])
        finalists = list(event_standings(event).standings.finalists)
        for reg in vekn.ritual_order(finalists):
            final.refresh_from_db()
            services.place_final_card(
                final, reg, rng.randint(0, len(final.ritual)), users["headjudge"]
            )
        final.refresh_from_db()
        services.set_first_player(final, rng.choice(finalists), users["headjudge"])
        services.set_seating_published(final, True, organiser)
        self._play(final, rng, users["headjudge"])
        services.set_standings_published(event, True, organiser)

        upcoming = services.create_event(
            org,
            preset="vekn-2026",
            slug="demo-next",
            name="Demo Cup (not started)",
            date=dt.date(2026, 12, 12),
            actor=organiser,
            preliminary_rounds=2,
        )
        EventRole.objects.get_or_create(event=upcoming, user=organiser, role=Role.ORGANISER)
        for person in people[:23]:
            services.register(upcoming, person, organiser, check_in=False)
        return True

    def _play(self, rnd, rng, actor):
        for table in rnd.tables.order_by("number"):
            size = table.seats.count()
            sheet = rng.choice(sorted(vekn.legal_sheets(size)))
            services.save_results(table, list(sheet), version=table.version, actor=actor)
