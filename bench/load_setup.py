"""Build the event of the load test through the services (``make bench-load``).

A 300-player VEKN event (vekn-2026 preset): 300 people registered and checked in, round 1
seated (60 tables of 5) and its seating published, its clock started, the standings
published; 20 judge and 10 scorekeeper accounts with their event roles, and an organiser;
each player has an account and a signed-in session (their phone, already signed in: the
locustfile's players keep their own page open and poll their seat, without 300 password
hashes in the ramp). Writes what the
locustfile needs (the event's address, the tables with their players, legal sheets) to
the JSON file named on the command line.

Run with the settings and database of the test: ``DJANGO_SETTINGS_MODULE`` and
``DATABASE_URL`` set, after ``manage.py migrate``. Refuses to run twice on one database.
"""

import datetime as dt
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load_settings")

import django  # noqa: E402

django.setup()

from importlib import import_module  # noqa: E402

from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,  # noqa: E402
)
from django.contrib.auth.hashers import make_password  # noqa: E402

from events import services  # noqa: E402
from events.models import Event, EventRole, Organisation, Person  # noqa: E402
from events.permissions import Role  # noqa: E402
from penalties import time_extensions  # noqa: E402
from standings import vekn  # noqa: E402

SLUG = "load-2026"
PLAYERS = 300
JUDGES = 20
SCOREKEEPERS = 10
PASSWORD = "load-test-password"


def main(out: Path) -> None:
    started = time.perf_counter()
    if Event.objects.filter(slug=SLUG).exists():
        raise SystemExit(f"{SLUG} already exists: use a fresh database")
    User = get_user_model()
    hashed = make_password(PASSWORD)  # one hash for every account: setup stays fast
    org = Organisation.objects.create(
        slug="load-org", name="Load Test VEKN", kind=Organisation.Kind.VEKN_COUNTRY
    )
    organiser = User.objects.create(username="load-organiser", password=hashed)
    event = services.create_event(
        org,
        preset="vekn-2026",
        slug=SLUG,
        name="Load Test Open 2026",
        date=dt.date.today(),
        actor=organiser,
    )
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    judges = [f"judge{i:02d}" for i in range(1, JUDGES + 1)]
    scorekeepers = [f"score{i:02d}" for i in range(1, SCOREKEEPERS + 1)]
    for names, role in ((judges, Role.JUDGE), (scorekeepers, Role.SCOREKEEPER)):
        for name in names:
            user = User.objects.create(username=name, password=hashed)
            EventRole.objects.create(event=event, user=user, role=role)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    sessions = []
    for i in range(1, PLAYERS + 1):
        user = User.objects.create(username=f"player{i:03d}", password=hashed)
        person = Person.objects.create(name=f"Player {i:03d}", vekn_number=f"99{i:05d}", user=user)
        services.register(event, person, organiser, check_in=True)
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions.append(session.session_key)
    rnd = services.seat_next_round(event, organiser, seed=1)
    services.set_seating_published(rnd, True, organiser)
    time_extensions.start_round_clock(rnd, organiser)
    services.set_standings_published(event, True, organiser)
    tables = [
        {
            "number": table.number,
            "pk": table.pk,
            "regs": list(
                table.seats.order_by("position").values_list("registration_id", flat=True)
            ),
        }
        for table in rnd.tables.order_by("number")
    ]
    sheets = {
        str(n): [[str(vp) for vp in sheet] for sheet in sorted(vekn.legal_sheets(n))[:40]]
        for n in (4, 5)
    }
    out.write_text(
        json.dumps(
            {
                "slug": SLUG,
                "round": rnd.number,
                "password": PASSWORD,
                "judges": judges,
                "scorekeepers": scorekeepers,
                "tables": tables,
                "sheets": sheets,
                "player_sessions": sessions,
                "session_cookie": settings.SESSION_COOKIE_NAME,
            }
        )
    )
    print(
        f"setup: {PLAYERS} players (signed in), {len(tables)} tables, {JUDGES} judges, "
        f"{SCOREKEEPERS} scorekeepers in {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "load-setup.json"))
