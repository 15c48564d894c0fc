"""events/deck_check_services.py: deck checks of a round (JG §3.1.2; docs/decks.md,
"Deck checks"): the reproducible random draw, the choice by hand, outcomes, the audit, the
database's invariants and the round's tables in progress."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from events import deck_check_services as dc
from events import deck_services, services
from events.audit import entries_about
from events.errors import UserError
from events.models import DeckCheck
from events.permissions import ROLE_PERMISSIONS, Role
from tests.events.services.test_deck_services import LEGAL
from tests.factories import PersonFactory, RegistrationFactory, UserFactory

HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]
JUDGE = ROLE_PERMISSIONS[Role.JUDGE]
SCOREKEEPER = ROLE_PERMISSIONS[Role.SCOREKEEPER]


@pytest.fixture
def world(event):
    regs = [
        RegistrationFactory(event=event, person=PersonFactory(name=f"P{i:02d}")) for i in range(10)
    ]
    deck_services.enter_for_player(regs[0], LEGAL, None, HEAD)
    rnd = services.seat_next_round(event, seed=1)
    return {"event": event, "regs": regs, "round": rnd, "head": UserFactory(username="hj")}


def test_the_random_draw_is_reproducible_from_the_seed(world):
    rnd, regs = world["round"], world["regs"]
    rows = dc.choose_random(rnd, 3, world["head"], HEAD, seed=42)
    ids = sorted(r.pk for r in regs)
    assert [r.registration_id for r in rows] == dc.draw(ids, 3, 42)
    assert all(r.seed == 42 and r.chosen_by == "random" and r.outcome == "pending" for r in rows)
    assert all(r.requested_by == world["head"] for r in rows)
    (entry,) = entries_about(rnd).filter(action="deck_check.drawn")
    assert entry.after == {
        "seed": 42,
        "count": 3,
        "candidates": ids,
        "chosen": [r.registration_id for r in rows],
    }
    # Replaying the audit entry gives the same players.
    assert dc.draw(entry.after["candidates"], 3, entry.after["seed"]) == entry.after["chosen"]


def test_draw_is_independent_of_the_candidates_order():
    assert dc.draw([5, 1, 3, 9], 2, 7) == dc.draw([9, 3, 1, 5], 2, 7)
    assert len(dc.draw([1, 2], 5, 7)) == 2


def test_a_second_draw_skips_players_already_chosen(world):
    first = dc.choose_random(world["round"], 4, None, HEAD, seed=1)
    second = dc.choose_random(world["round"], 20, None, HEAD, seed=2)
    assert len(second) == 6
    assert not {r.registration_id for r in first} & {r.registration_id for r in second}
    with pytest.raises(UserError, match="already has a deck check"):
        dc.choose_random(world["round"], 1, None, HEAD, seed=3)


def test_the_same_draw_sent_twice_is_drawn_once(world):
    """A double tap on Draw sends the page's seed twice (fresh-user try, issue 15): the
    second request returns the first draw's rows and draws, stores and audits nothing."""
    first = dc.choose_random(world["round"], 3, None, HEAD, seed=77)
    again = dc.choose_random(world["round"], 3, None, HEAD, seed=77)
    assert [r.pk for r in again] == [r.pk for r in first]
    assert DeckCheck.objects.count() == 3
    assert entries_about(world["round"]).filter(action="deck_check.drawn").count() == 1
    # Another seed is another draw.
    assert len(dc.choose_random(world["round"], 3, None, HEAD, seed=78)) == 3


def test_deck_checks_are_closed_once_the_results_are_approved(world):
    """After approval (JG §1.2.5) a check could only lead to a penalty the approved
    results refuse: choosing and recording are refused until the results are reopened."""
    check = dc.choose_random(world["round"], 1, None, HEAD, seed=5)[0]
    event = world["event"]
    event.results_approved = True
    event.save(update_fields=["results_approved"])
    seated = world["round"].seats.exclude(registration_id=check.registration_id).first()
    with pytest.raises(UserError, match="approved"):
        dc.choose_random(world["round"], 1, None, HEAD, seed=6)
    with pytest.raises(UserError, match="approved"):
        dc.choose_by_hand(world["round"], seated.registration, None, HEAD)
    with pytest.raises(UserError, match="approved"):
        dc.record_outcome(check, "match", None, HEAD)
    assert DeckCheck.objects.count() == 1
    assert DeckCheck.objects.get().outcome == "pending"


def test_a_fresh_seed_is_stored_when_none_is_given(world):
    rows = dc.choose_random(world["round"], 2, None, HEAD)
    assert rows[0].seed is not None and rows[0].seed == rows[1].seed


@pytest.mark.parametrize("count", [0, -1, dc.MAX_DRAW + 1])
def test_bad_counts_are_refused(world, count):
    with pytest.raises(UserError):
        dc.choose_random(world["round"], count, None, HEAD, seed=1)
    assert not DeckCheck.objects.exists()


@pytest.mark.parametrize("perms", [JUDGE, SCOREKEEPER, frozenset()])
def test_only_the_head_judge_chooses(world, perms):
    with pytest.raises(PermissionDenied):
        dc.choose_random(world["round"], 1, None, perms, seed=1)
    with pytest.raises(PermissionDenied):
        dc.choose_by_hand(world["round"], world["regs"][0], None, perms)


def test_choose_by_hand(world):
    reg = world["regs"][3]
    check = dc.choose_by_hand(world["round"], reg, world["head"], HEAD)
    assert check.chosen_by == "hand" and check.seed is None
    (entry,) = entries_about(check)
    assert entry.action == "deck_check.chosen" and entry.after["registration"] == reg.pk
    with pytest.raises(UserError, match="already has"):
        dc.choose_by_hand(world["round"], reg, None, HEAD)


def test_choose_by_hand_refuses_a_player_not_seated(world, event):
    late = RegistrationFactory(event=event)
    with pytest.raises(UserError, match="not seated"):
        dc.choose_by_hand(world["round"], late, None, HEAD)


def test_outcomes_are_recorded_and_audited(world):
    judge = UserFactory(username="floor")
    (check,) = dc.choose_random(world["round"], 1, None, HEAD, seed=5)
    row = dc.record_outcome(check, "match", judge, JUDGE)
    assert row.outcome == "match" and row.judge == judge and row.decided_at is not None
    row = dc.record_outcome(check, "mismatch", judge, JUDGE, note="  two extra Blood Dolls ")
    assert row.outcome == "mismatch" and row.note == "two extra Blood Dolls"
    entries = list(entries_about(row).filter(action="deck_check.recorded").order_by("pk"))
    assert [e.before["outcome"] for e in entries] == ["pending", "match"]
    assert [e.after["outcome"] for e in entries] == ["match", "mismatch"]


@pytest.mark.parametrize("outcome", ["pending", "maybe", ""])
def test_only_match_or_mismatch_is_an_outcome(world, outcome):
    (check,) = dc.choose_random(world["round"], 1, None, HEAD, seed=5)
    with pytest.raises(UserError):
        dc.record_outcome(check, outcome, None, JUDGE)


def test_a_scorekeeper_records_no_outcome(world):
    (check,) = dc.choose_random(world["round"], 1, None, HEAD, seed=5)
    with pytest.raises(PermissionDenied):
        dc.record_outcome(check, "match", None, SCOREKEEPER)


def test_round_checks_and_tables_in_progress(world, django_assert_max_num_queries):
    rnd, regs = world["round"], world["regs"]
    for reg in regs:
        dc.choose_by_hand(rnd, reg, None, HEAD)
    with django_assert_max_num_queries(3):
        rows = dc.round_checks(rnd)
    assert len(rows) == 10 and all(r.table_number is not None for r in rows)
    by_reg = {r.check.registration_id: r for r in rows}
    assert by_reg[regs[0].pk].deck is not None and by_reg[regs[1].pk].deck is None
    all_tables = {r.table_number for r in rows}
    assert dc.tables_in_progress(rnd) == all_tables
    for r in rows:
        if r.table_number == min(all_tables):
            dc.record_outcome(r.check, "match", None, JUDGE)
    assert dc.tables_in_progress(rnd) == all_tables - {min(all_tables)}


@pytest.mark.parametrize(
    "fields",
    [
        {"chosen_by": "random", "seed": None},
        {"chosen_by": "hand", "seed": 3},
        {"chosen_by": "random", "seed": -1},
        {"chosen_by": "dice", "seed": None},
        {"chosen_by": "hand", "outcome": "match"},  # decided without a time
        {"chosen_by": "hand", "outcome": "unknown"},
    ],
)
def test_the_database_refuses_inconsistent_rows(world, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        DeckCheck.objects.create(
            event=world["event"], round=world["round"], registration=world["regs"][0], **fields
        )


def test_one_check_per_player_and_round_in_the_database(world):
    dc.choose_by_hand(world["round"], world["regs"][0], None, HEAD)
    with pytest.raises(IntegrityError), transaction.atomic():
        DeckCheck.objects.create(
            event=world["event"],
            round=world["round"],
            registration=world["regs"][0],
            chosen_by="hand",
        )
