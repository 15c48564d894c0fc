"""Staff decisions in rows (issue 13): the data migration's conversion of a competition's
``staff_choices`` dict into ``StaffDecision`` rows and back, and the model's own split."""

import importlib

import pytest
from django.db import IntegrityError, transaction

from leagues.models import Competition, StaffDecision, choices_to_decisions, decisions_to_choices
from leagues.services import import_season
from tests.leagues.seasons import small_season

MIGRATION = importlib.import_module("leagues.migrations.0013_staff_decisions")

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
    # The model's split is the migration's.
    assert choices_to_decisions(CHOICES) == rows
    assert decisions_to_choices(rows) == CHOICES
    assert MIGRATION.choices_of(MIGRATION.rows_of({})) == {}


@pytest.mark.django_db
def test_rows_round_trip_and_one_decision_per_slot():
    import_season(small_season())
    competition = Competition.objects.order_by("id").first()
    competition.save_staff_choices(CHOICES)
    assert StaffDecision.objects.filter(competition=competition).count() == 11
    assert Competition.objects.get(pk=competition.pk).staff_choices == CHOICES
    competition.save_staff_choices({**CHOICES, "slots": {"a_final.away": "T5"}})
    fresh = Competition.objects.get(pk=competition.pk)
    assert fresh.staff_choices["slots"] == {"a_final.away": "T5"}
    with pytest.raises(IntegrityError), transaction.atomic():
        StaffDecision.objects.create(competition=competition, kind="slots", key="a_final.away")
    with pytest.raises(IntegrityError), transaction.atomic():
        StaffDecision.objects.create(competition=competition, kind="cup", key="x")
