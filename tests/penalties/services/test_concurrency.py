"""Two people at once: the invariants hold in the database (row locks, unique
constraints). Real concurrency needs PostgreSQL; SQLite serialises writers, so these
tests run on PostgreSQL only (CI runs the suite on both)."""

import threading
import uuid
from decimal import Decimal

import pytest
from django.db import connection

from events import services
from events.errors import ConflictError
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import services as penalty_services
from penalties.models import Penalty
from tests.conftest import add_players

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def run_together(*calls):
    """Run the calls in threads released at the same instant; return results/exceptions."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(i, fn):
        from django.db import connections

        try:
            barrier.wait()
            results[i] = fn()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_scorekeepers_save_the_same_table_at_once(event):
    add_players(event, 8)
    table = services.seat_next_round(event, seed=1).tables.get(number=1)
    a = [Decimal(2), Decimal(1), Decimal(1), Decimal(0)]
    b = [Decimal("0.5")] * 4
    results = run_together(
        lambda: services.save_results(table, a, version=0),
        lambda: services.save_results(table, b, version=0),
    )
    conflicts = [r for r in results if isinstance(r, ConflictError)]
    saved = [r for r in results if not isinstance(r, Exception)]
    assert len(conflicts) == 1 and len(saved) == 1, results
    vps = [s.vp for s in table.seats.order_by("position")]
    assert vps in (a, b)
    table.refresh_from_db()
    assert table.version == 1


def test_the_same_incident_submitted_twice_at_once(event):
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    reg = rnd.seats.first().registration
    client_id = uuid.uuid4()

    def submit():
        return penalty_services.log_penalty(
            event, reg, "3.3", {}, client_id=client_id, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
        )

    results = run_together(submit, submit)
    assert not any(isinstance(r, Exception) for r in results), results
    assert Penalty.objects.filter(client_id=client_id).count() == 1
    assert sorted(r.created for r in results) == [False, True]


def test_two_judges_log_the_same_infraction_count_two_offences(event):
    """Different submissions at once, each judge saying it is a new offence: both saved,
    counted 1 and 2 (registration row lock)."""
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    reg = rnd.seats.first().registration
    results = run_together(
        lambda: penalty_services.log_penalty(
            event,
            reg,
            "3.3",
            {},
            client_id=uuid.uuid4(),
            perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
            again=True,
        ),
        lambda: penalty_services.log_penalty(
            event,
            reg,
            "3.3",
            {},
            client_id=uuid.uuid4(),
            perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
            again=True,
        ),
    )
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(p.offence for p in Penalty.objects.filter(person=reg.person)) == [1, 2]


def test_two_judges_log_one_incident_at_once_and_the_duplicate_guard_keeps_one(event):
    """The same incident logged by two judges in the same instant, neither saying it is a
    new offence: the duplicate-offence guard runs after the registration row lock, so one
    is saved and the other is refused (penalties/duplicates.py)."""
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    reg = rnd.seats.first().registration
    results = run_together(
        lambda: penalty_services.log_penalty(
            event, reg, "3.3", {}, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
        ),
        lambda: penalty_services.log_penalty(
            event, reg, "3.3", {}, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
        ),
    )
    refused = [r for r in results if isinstance(r, penalty_services.DuplicateOffence)]
    assert len(refused) == 1, results
    assert Penalty.objects.filter(person=reg.person).count() == 1


def test_both_players_report_the_same_match_at_once():
    """Two phones send the result of one match in the same instant: one report is kept,
    the other player is told a result is already waiting."""
    from datetime import timedelta

    from django.utils import timezone

    from events.errors import UserError
    from leagues import reporting
    from leagues.models import Match, ResultReport
    from leagues.services import import_season
    from tests.factories import UserFactory
    from tests.leagues.seasons import small_season
    from tests.leagues.views.test_reporting import png

    home, away = UserFactory(username="user1"), UserFactory(username="user3")
    import_season(small_season())
    match = Match.objects.get(competition__slug="t24-primera-a", code="m3")
    posted = timezone.now() - timedelta(minutes=5)

    def send(user, score):
        return reporting.report_result(
            match, user, home_goals=score, away_goals=0, posted_at=posted, screenshot=png()
        )

    results = run_together(lambda: send(home, 1), lambda: send(away, 2))
    refused = [r for r in results if isinstance(r, UserError)]
    kept = [r for r in results if isinstance(r, ResultReport)]
    assert len(refused) == 1 and len(kept) == 1, results
    assert ResultReport.objects.filter(match=match).count() == 1


def test_two_head_judges_confirm_the_same_penalty_at_once(event):
    """A pending standings adjustment confirmed from two tablets in the same instant: one
    confirmation (penalty row lock), one clear refusal, the effects applied once."""
    from events.errors import UserError
    from events.models import AuditLog
    from events.permissions import ROLE_PERMISSIONS, Role

    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    reg = rnd.seats.first().registration
    pending = penalty_services.log_penalty(
        event,
        reg,
        "2.4",
        {},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.JUDGE],
        table=rnd.tables.first(),
    ).penalty
    assert pending.status == Penalty.Status.PENDING
    results = run_together(
        lambda: penalty_services.confirm(pending, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]),
        lambda: penalty_services.confirm(pending, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]),
    )
    refused = [r for r in results if isinstance(r, UserError)]
    confirmed = [r for r in results if isinstance(r, Penalty)]
    assert len(refused) == 1 and len(confirmed) == 1, results
    assert "not pending" in str(refused[0])
    pending.refresh_from_db()
    assert pending.status == Penalty.Status.CONFIRMED
    assert AuditLog.objects.filter(action="penalty.confirm").count() == 1


def test_two_judges_override_the_same_illegal_table_at_once(event):
    """Two judges confirm an illegal sheet (override with a reason) on the same table at
    once: the version check under the table's row lock keeps exactly one."""
    add_players(event, 8)
    table = services.seat_next_round(event, seed=1).tables.get(number=1)
    illegal = [Decimal(4)] * 4

    def override(reason):
        return services.save_results(
            table, illegal, version=0, override_reason=reason, may_override=True
        )

    results = run_together(lambda: override("card check A"), lambda: override("card check B"))
    conflicts = [r for r in results if isinstance(r, ConflictError)]
    assert len(conflicts) == 1 and sum(not isinstance(r, Exception) for r in results) == 1
    table.refresh_from_db()
    assert table.version == 1 and table.override_reason in ("card check A", "card check B")


@pytest.fixture
def league_season(transactional_db):
    from leagues.models import Competition, SeasonRole
    from leagues.services import import_season
    from tests.factories import UserFactory
    from tests.leagues.views.test_finals_stages import play_regular_phases, two_divisions

    import_season(two_divisions())
    play_regular_phases()
    staff = [UserFactory(username="staff1"), UserFactory(username="staff2")]
    season = Competition.objects.get(slug="t24-primera-a").season
    for user in staff:
        SeasonRole.objects.create(season=season, user=user, role=SeasonRole.Role.STAFF)
    return {"staff": staff, "a": Competition.objects.get(slug="t24-primera-a")}


def test_two_staff_close_the_same_stage_at_once(league_season):
    """Two staff members press "Close" on the regular phase, then on the quarter-finals,
    in the same instant: one playoffs competition, one set of semi-finals, and the other
    is told it is already done (competition row lock)."""
    from events.errors import UserError
    from events.models import AuditLog
    from leagues import phases
    from leagues.models import Competition, Match
    from tests.leagues.views.test_finals_stages import higher_seed_wins

    a, (s1, s2) = league_season["a"], league_season["staff"]
    results = run_together(
        lambda: phases.close_regular_phase(a, s1), lambda: phases.close_regular_phase(a, s2)
    )
    assert sum(isinstance(r, UserError) for r in results) == 1, results
    assert Competition.objects.filter(season=a.season, kind="knockout").count() == 1
    assert AuditLog.objects.filter(action="league.regular_phase_closed").count() == 1
    playoffs = next(r for r in results if isinstance(r, Competition))
    assert playoffs.matches.count() == 8

    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    results = run_together(
        lambda: phases.advance_stage(playoffs, s1, "a_quarter_finals"),
        lambda: phases.advance_stage(playoffs, s2, "a_quarter_finals"),
    )
    assert sum(isinstance(r, UserError) for r in results) == 1, results
    assert sorted(
        Match.objects.filter(competition=playoffs, tie__startswith="sf").values_list(
            "code", flat=True
        )
    ) == ["sf1-1", "sf1-2", "sf2-1", "sf2-2"]


def test_the_same_points_deduction_sent_twice_at_once(league_season):
    """A double click on the tribunal's deduction form sends it twice in the same instant:
    one ledger entry, one audit entry, and both answers say it is saved (issue 12:
    ``Adjustment.client_id`` and ``StaffSubmission.client_id`` are unique)."""
    from django.test import Client
    from django.urls import reverse

    from events.models import AuditLog
    from leagues import sanctions
    from leagues.models import Adjustment, SeasonRole, StaffSubmission
    from tests.factories import UserFactory

    a = league_season["a"]
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=a.season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    team = a.entries.first().team
    before = Adjustment.objects.filter(competition=a).count()

    cid = uuid.uuid4()

    def deduct():
        return sanctions.add_adjustment(a, team, -2, "late", tribunal, client_id=cid)

    results = run_together(deduct, deduct)
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(r.already_saved for r in results) == [False, True]
    assert Adjustment.objects.filter(competition=a).count() == before + 1

    # The same through the page: two requests with one form's id.
    url = reverse("leagues:staff-adjustments", kwargs={"slug": a.season.slug})
    data = {
        "competition": a.slug,
        "team": team.code,
        "points": "-1",
        "reason": "double click",
        "client_id": str(uuid.uuid4()),
    }
    clients = [Client(), Client()]
    for c in clients:
        c.force_login(tribunal)
    results = run_together(*[lambda c=c: c.post(url, data).status_code for c in clients])
    assert results == [302, 302], results
    assert Adjustment.objects.filter(reason="double click").count() == 1
    assert StaffSubmission.objects.filter(client_id=data["client_id"]).count() == 1
    assert AuditLog.objects.filter(action="league.adjustment_added").count() == 2


def test_two_signups_with_one_username_at_once(monkeypatch):
    """Both forms validated before either account is saved: one account, and the other
    visitor gets the sign-up form with its error (not a server error)."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from events.forms import SignupForm

    validated = threading.Barrier(2)
    validate = SignupForm.is_valid

    def validate_then_wait(form):
        valid = validate(form)
        validated.wait(10)
        return valid

    monkeypatch.setattr(SignupForm, "is_valid", validate_then_wait)

    def sign_up(name):
        return Client(raise_request_exception=False).post(
            reverse("signup"),
            {
                "username": "same-name",
                "name": name,
                "vekn_number": "",
                "password1": "a-long-pass-phrase-42",
                "password2": "a-long-pass-phrase-42",
            },
        )

    results = run_together(lambda: sign_up("First"), lambda: sign_up("Second"))
    assert sorted(r.status_code for r in results) == [200, 302], results
    refused = next(r for r in results if r.status_code == 200)
    assert "This username was just taken" in refused.content.decode()
    assert get_user_model().objects.filter(username="same-name").count() == 1
