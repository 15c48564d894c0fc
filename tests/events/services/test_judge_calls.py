"""Calling a judge (events/judge_calls.py; docs/players.md "Calling a judge"): one open
call per table, joined by a second tap or a tablemate; one judge takes it; the wait is
recorded (JG §1.2.4); audited; for VEKN and Mitos y Leyendas events."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.http import Http404
from django.utils import timezone

from events import judge_calls, services, swiss_services
from events.errors import ConflictError, UserError
from events.models import AuditLog, JudgeCall
from events.permissions import ROLE_PERMISSIONS, Role
from tests.conftest import add_players
from tests.events.services.test_self_service import RULESETS
from tests.factories import EventFactory, UserFactory
from tests.penalties.services.test_concurrency import run_together

pytestmark = pytest.mark.django_db
JUDGE = ROLE_PERMISSIONS[Role.JUDGE]
T0 = dt.datetime(2026, 5, 1, 15, 0, tzinfo=dt.UTC)


def seated_event(ruleset="vekn"):
    """An event whose round 1 is seated and published; every player has an account.
    Returns (event, round, {registration id: user})."""
    event = EventFactory(**RULESETS[ruleset])
    regs = add_players(event, 8 if ruleset == "vekn" else 4)
    users = {}
    for reg in regs:
        user = UserFactory(username=f"p{reg.pk}")
        reg.person.user = user
        reg.person.save(update_fields=["user"])
        users[reg.pk] = user
    if ruleset == "vekn":
        rnd = services.seat_next_round(event, seed=1)
    else:
        rnd = swiss_services.pair_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    return event, rnd, users


def players_of(rnd, number, users):
    table = rnd.tables.get(number=number)
    return [users[s.registration_id] for s in table.seats.order_by("position")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_call_then_a_double_tap_and_a_tablemate_join_it(ruleset):
    event, rnd, users = seated_event(ruleset)
    me, mate = players_of(rnd, 1, users)[:2]
    call, created = judge_calls.call_judge(event, me, "rules", " Is this legal? ", now=T0)
    assert created and (call.table_number, call.reason, call.note) == (1, "rules", "Is this legal?")
    assert call.round_id == rnd.pk and call.caller.person.user == me
    again, created_again = judge_calls.call_judge(event, me, "rules", now=T0)
    joined, created_joined = judge_calls.call_judge(event, mate, "dispute", now=T0)
    assert again.pk == joined.pk == call.pk and not created_again and not created_joined
    assert JudgeCall.objects.count() == 1
    assert AuditLog.objects.filter(action=judge_calls.CREATED).count() == 1


def test_the_database_refuses_a_second_open_call_for_a_table():
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    call, _ = judge_calls.call_judge(event, me, "rules")
    with pytest.raises(IntegrityError), transaction.atomic():
        JudgeCall.objects.create(
            event=event,
            round=rnd,
            table=call.table,
            table_number=1,
            caller=call.caller,
            reason="other",
        )


def test_reasons_are_the_rulesets():
    event, rnd, users = seated_event("vekn")
    me = players_of(rnd, 1, users)[0]
    assert "conduct" not in dict(judge_calls.reason_choices(event))
    with pytest.raises(UserError):
        judge_calls.call_judge(event, me, "conduct")
    myl, myl_round, myl_users = seated_event("myl")
    assert "conduct" in dict(judge_calls.reason_choices(myl))
    call, _ = judge_calls.call_judge(myl, players_of(myl_round, 1, myl_users)[0], "conduct")
    assert call.reason == "conduct"


def test_a_note_too_long_is_refused_and_nothing_saved():
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    with pytest.raises(UserError):
        judge_calls.call_judge(event, me, "other", "x" * (judge_calls.NOTE_MAX_LENGTH + 1))
    assert not JudgeCall.objects.exists()


def test_only_a_seated_player_calls_and_only_for_their_own_table():
    event, rnd, users = seated_event()
    with pytest.raises(Http404):  # an account not registered in the event
        judge_calls.call_judge(event, UserFactory(username="stranger"), "rules")
    services.set_seating_published(rnd, False)
    with pytest.raises(UserError):  # not published: not seated yet as far as they know
        judge_calls.call_judge(event, players_of(rnd, 1, users)[0], "rules")
    services.set_seating_published(rnd, True)
    call, _ = judge_calls.call_judge(event, players_of(rnd, 2, users)[0], "rules")
    assert call.table_number == 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_judge_takes_a_call_the_second_is_told_who(ruleset):
    event, rnd, users = seated_event(ruleset)
    call, _ = judge_calls.call_judge(event, players_of(rnd, 1, users)[0], "rules", now=T0)
    ana = UserFactory(username="ana", first_name="Ana", last_name="Judge")
    bruno = UserFactory(username="bruno")
    taken = judge_calls.take_call(
        event, call.pk, ana, perms=JUDGE, now=T0 + dt.timedelta(minutes=3)
    )
    assert taken.taken_by == ana and taken.waited_seconds(timezone.now()) == 180
    with pytest.raises(ConflictError, match="Ana Judge"):
        judge_calls.take_call(event, call.pk, bruno, perms=JUDGE)
    assert judge_calls.take_call(event, call.pk, ana, perms=JUDGE).taken_at == taken.taken_at
    entry = AuditLog.objects.get(action=judge_calls.TAKEN)
    assert entry.actor == ana and entry.after == {"waited_seconds": 180}
    assert judge_calls.waits_by_table(rnd) == {1: 180}


def test_closing_frees_the_table_for_a_new_call_and_is_audited():
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    judge = UserFactory(username="judge")
    call, _ = judge_calls.call_judge(event, me, "rules", now=T0)
    closed = judge_calls.close_call(
        event, call.pk, judge, perms=JUDGE, now=T0 + dt.timedelta(minutes=1)
    )
    assert closed.taken_by == judge and closed.closed_at is not None  # taken by closing
    assert judge_calls.close_call(event, call.pk, judge, perms=JUDGE).closed_at == closed.closed_at
    with pytest.raises(UserError):
        judge_calls.take_call(event, call.pk, judge, perms=JUDGE)
    second, created = judge_calls.call_judge(event, me, "time", now=T0 + dt.timedelta(minutes=5))
    assert created and second.pk != call.pk
    assert [i.call.pk for i in judge_calls.queue(event)] == [second.pk]
    assert AuditLog.objects.filter(action=judge_calls.CLOSED).count() == 1
    assert judge_calls.waits_by_table(rnd) == {1: 60}


def test_take_and_close_need_the_judges_permission_and_the_event():
    event, rnd, users = seated_event()
    call, _ = judge_calls.call_judge(event, players_of(rnd, 1, users)[0], "rules")
    keeper = UserFactory(username="keeper")
    with pytest.raises(PermissionDenied):
        judge_calls.take_call(event, call.pk, keeper, perms=ROLE_PERMISSIONS[Role.SCOREKEEPER])
    with pytest.raises(PermissionDenied):
        judge_calls.close_call(event, call.pk, keeper, perms=ROLE_PERMISSIONS[Role.SCOREKEEPER])
    other = EventFactory()
    with pytest.raises(Http404):
        judge_calls.take_call(other, call.pk, keeper, perms=JUDGE)


def test_the_queue_is_oldest_first_with_the_wait():
    event, rnd, users = seated_event()
    late, _ = judge_calls.call_judge(event, players_of(rnd, 2, users)[0], "rules", now=T0)
    early, _ = judge_calls.call_judge(
        event, players_of(rnd, 1, users)[0], "rules", now=T0 - dt.timedelta(minutes=2)
    )
    items = judge_calls.queue(event, now=T0 + dt.timedelta(seconds=65))
    assert [(i.call.pk, i.waited_text, i.taker) for i in items] == [
        (early.pk, "3:05", ""),
        (late.pk, "1:05", ""),
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_judges_taking_at_once_only_one_gets_it():
    event, rnd, users = seated_event()
    call, _ = judge_calls.call_judge(event, players_of(rnd, 1, users)[0], "rules")
    a, b = UserFactory(username="ja"), UserFactory(username="jb")
    answers = run_together(
        lambda: judge_calls.take_call(event, call.pk, a, perms=JUDGE),
        lambda: judge_calls.take_call(event, call.pk, b, perms=JUDGE),
    )
    assert sum(isinstance(x, ConflictError) for x in answers) == 1, answers
    assert AuditLog.objects.filter(action=judge_calls.TAKEN).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_players_of_a_table_calling_at_once_make_one_call():
    event, rnd, users = seated_event()
    me, mate = players_of(rnd, 1, users)[:2]
    answers = run_together(
        lambda: judge_calls.call_judge(event, me, "rules"),
        lambda: judge_calls.call_judge(event, mate, "dispute"),
    )
    assert sorted(created for _, created in answers) == [False, True], answers
    assert JudgeCall.objects.count() == 1
