"""The offline tablet's sync under real concurrency: the same entry sent twice at the
same instant (two tabs, a retry racing the first attempt) is saved once. PostgreSQL only,
like ``tests/penalties/services/test_concurrency.py`` (SQLite serialises writers)."""

import uuid

import pytest
from django.db import connection

from events import offline, services
from events.models import AuditLog, ResultSubmission
from events.permissions import Permission
from penalties.models import Penalty
from tests.conftest import add_players
from tests.penalties.services.test_concurrency import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]
PERMS = frozenset(Permission)


@pytest.fixture
def table(event):
    add_players(event, 8)
    return services.seat_next_round(event, seed=1).tables.get(number=1)


def test_the_same_result_sent_twice_at_once_is_saved_once(event, table):
    item = {
        "id": str(uuid.uuid4()),
        "kind": "result",
        "table": table.pk,
        "version": 0,
        "vp": ["2", "1", "1", "0"],
    }
    answers = run_together(
        lambda: offline.sync(event, item, None, PERMS),
        lambda: offline.sync(event, item, None, PERMS),
    )
    assert sorted(a.status for a in answers) == ["duplicate", "saved"], answers
    table.refresh_from_db()
    assert table.version == 1
    assert ResultSubmission.objects.count() == 1
    assert AuditLog.objects.filter(action="result.save").count() == 1


def test_the_same_incident_sent_twice_at_once_is_one_penalty(event, table):
    reg = table.seats.order_by("position").first().registration
    item = {
        "id": str(uuid.uuid4()),
        "kind": "incident",
        "registration": reg.pk,
        "code": "3.3",
        "answers": {},
        "table": table.pk,
    }
    answers = run_together(
        lambda: offline.sync(event, item, None, PERMS),
        lambda: offline.sync(event, item, None, PERMS),
    )
    assert sorted(a.status for a in answers) == ["duplicate", "saved"], answers
    assert Penalty.objects.count() == 1
