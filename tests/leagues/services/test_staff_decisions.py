"""Staff decisions in rows (issue 13): the data migration's conversion of a competition's
``staff_choices`` dict into ``StaffDecision`` rows and back, the readers and writers by
kind (leagues/staff_decisions.py) and the table's constraints."""

import importlib

import pytest
from django.db import IntegrityError, transaction

from leagues import staff_decisions
from leagues.models import DECISION_KINDS, Competition, StaffDecision
from leagues.services import import_season
from leagues.staff_decisions import Kind
from tests.leagues.seasons import small_season

MIGRATION = importlib.import_module("leagues.migrations.0013_staff_decisions")
CONSTRAINTS = importlib.import_module("leagues.migrations.0014_staff_decision_constraints")

CHOICES = {
    "slots": {"a_semi_finals.1.home": "T1", "a_final.away": "T4"},
    "awards": {"a_semi_finals.2": "T3"},
    "award_voided": {"a_semi_finals.2": ["M1", "M2"]},
    "third_homes": {},
    "final_four": False,
    "relegation": {"teams": ["T7", "T8"], "reason": "tribunal"},
    "cup": {"prefix": "c", "top": ["T1"], "bottom": ["T2"], "ties": 1},
    "knockouts": ["cup-ko", "cup-conf"],
    "cup_groups": "nucommunity",
    "compliance_rounds": [1],
}


def test_the_migration_splits_a_dict_into_one_row_per_slot_and_back():
    rows = MIGRATION.rows_of(CHOICES)
    assert ("slots", "a_final.away", "T4") in rows
    assert ("third_homes", "", {}) in rows
    assert ("final_four", "", False) in rows
    assert len({(kind, key) for kind, key, _ in rows}) == len(rows) == 11
    assert MIGRATION.choices_of(rows) == CHOICES
    assert MIGRATION.choices_of(MIGRATION.rows_of({})) == {}
    assert set(DECISION_KINDS) == set(Kind.values) == set(CHOICES)


def competition():
    import_season(small_season())
    return Competition.objects.order_by("id").first()


@pytest.mark.django_db
def test_readers_give_each_kind_its_shape_and_writers_keep_them_current():
    comp = competition()
    assert staff_decisions.final_four(comp) is True
    assert (staff_decisions.slots(comp), staff_decisions.awards(comp)) == ({}, {})
    assert staff_decisions.relegation(comp) is None and staff_decisions.cup_setup(comp) is None
    staff_decisions.decide(comp, Kind.SLOTS, "T4", key="a_final.second")
    staff_decisions.decide(comp, Kind.AWARDS, "T3", key="sf2")
    staff_decisions.decide(comp, Kind.AWARD_VOIDED, ["M1", "M2"], key="sf2")
    staff_decisions.decide(comp, Kind.THIRD_HOMES, "T1", key="sf1")
    staff_decisions.decide(comp, Kind.FINAL_FOUR, False)
    staff_decisions.decide(comp, Kind.RELEGATION, {"teams": ["T7"], "reason": "abandoned"})
    staff_decisions.decide(comp, Kind.COMPLIANCE_ROUNDS, [1])
    for fresh in (comp, Competition.objects.get(pk=comp.pk)):
        assert staff_decisions.slots(fresh) == {("a_final", "second"): "T4"}
        assert staff_decisions.awards(fresh) == {"sf2": "T3"}
        assert staff_decisions.award_voided(fresh) == {"sf2": ["M1", "M2"]}
        assert staff_decisions.third_match_hosts(fresh) == {"sf1": "T1"}
        assert staff_decisions.final_four(fresh) is False
        assert staff_decisions.relegation(fresh) == staff_decisions.RelegationList(
            ("T7",), "abandoned"
        )
        assert staff_decisions.compliance_rounds(fresh) == [1]
    assert StaffDecision.objects.filter(competition=comp).count() == 7
    # One row per decision: deciding again replaces it; withdrawing removes it.
    staff_decisions.decide(comp, Kind.SLOTS, "T5", key="a_final.second")
    staff_decisions.withdraw(comp, Kind.AWARDS, key="sf2")
    fresh = Competition.objects.get(pk=comp.pk)
    assert staff_decisions.slots(fresh) == {("a_final", "second"): "T5"}
    assert staff_decisions.awards(fresh) == {} and staff_decisions.stored(fresh, "awards") is None
    assert StaffDecision.objects.filter(competition=comp).count() == 6


@pytest.mark.django_db
def test_the_table_refuses_what_is_not_one_decision():
    comp = competition()
    staff_decisions.decide(comp, Kind.SLOTS, "T4", key="a_final.second")
    bad = [
        {"kind": "slots", "key": "a_final.second", "value": "T1"},  # twice
        {"kind": "cup", "key": "x", "value": {}},  # a key for a one-per-competition kind
        {"kind": "awards", "key": "", "value": "T1"},  # no tie for a keyed kind
        {"kind": "slots", "key": "a_final.home", "value": "T1"},  # no side
        {"kind": "final_four", "key": "", "value": None},  # no value
        {"kind": "whatever", "key": "", "value": 1},  # unknown kind
    ]
    for row in bad:
        with pytest.raises(IntegrityError), transaction.atomic():
            StaffDecision.objects.create(competition=comp, **row)


@pytest.mark.django_db
def test_the_constraints_migration_drops_the_rows_of_the_old_shape():
    from django.apps import apps

    comp = competition()
    staff_decisions.decide(comp, Kind.SLOTS, "T4", key="a_final.second")
    staff_decisions.decide(comp, Kind.FINAL_FOUR, False)
    CONSTRAINTS.drop_shape_rows(apps, None)
    assert StaffDecision.objects.filter(competition=comp).count() == 2
