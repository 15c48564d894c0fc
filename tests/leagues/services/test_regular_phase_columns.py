""" "Regular phase closed" in real columns (issue 13): ``close_regular_phase`` sets
``Competition.regular_phase_closed_at``/``_by`` (the audit entry stays), every reader
reads the columns, and the data migration fills them from the audit entries written
before them (reversible)."""

import importlib

import pytest
from django.apps import apps

from events.errors import UserError
from events.models import AuditLog
from leagues import phases, sanctions
from leagues.models import Competition, Match
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import small_season
from tests.leagues.views.test_finals import finished_league  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

MIGRATION = "leagues.migrations.0012_competition_regular_phase_closed"


def test_closing_sets_the_columns_and_keeps_the_audit_entry(finished_league):  # noqa: F811
    competition, staff = finished_league["competition"], finished_league["staff"]
    assert not phases.regular_phase_closed(competition)
    phases.close_regular_phase(competition, staff)
    stored = Competition.objects.get(pk=competition.pk)
    assert stored.regular_phase_closed_by == staff
    entry = AuditLog.objects.get(action="league.regular_phase_closed")
    assert abs((entry.at - stored.regular_phase_closed_at).total_seconds()) < 5
    # The caller's stale copy still sees the closing.
    assert phases.regular_phase_closed(competition)
    with pytest.raises(UserError):
        phases.ensure_regular_phase_open(competition)


def test_the_closed_state_is_the_column_not_the_audit_log():
    season = import_season(small_season())
    league = Competition.objects.get(slug="t24-primera-a")
    # An audit entry alone no longer closes a league (the migration copied them all).
    AuditLog.objects.create(action="league.regular_phase_closed", target="t24/t24-primera-a")
    assert not phases.regular_phase_closed(league)
    Competition.objects.filter(pk=league.pk).update(regular_phase_closed_at="2026-06-01T00:00Z")
    assert phases.regular_phase_closed(league)
    staff = UserFactory(is_superuser=True)
    m3 = Match.objects.select_related("competition__season", "home", "away").get(
        competition=league, code="m3"
    )
    with pytest.raises(UserError, match="regular phase of Primera A is closed"):
        sanctions.void_match(m3, staff, reason="late")
    assert season.competitions.filter(regular_phase_closed_at__isnull=False).count() == 1


def test_the_data_migration_fills_the_columns_from_the_audit_log():
    migration = importlib.import_module(MIGRATION)
    import_season(small_season())
    other = small_season()
    other["slug"] = "t25"
    for c in other["competitions"]:
        c["slug"] = c["slug"].replace("t24", "t25")
    import_season(other)
    first, later = UserFactory(username="first-closer"), UserFactory(username="later")
    entry = AuditLog.objects.create(
        actor=first, action="league.regular_phase_closed", target="t24/t24-primera-a"
    )
    AuditLog.objects.create(
        actor=later, action="league.regular_phase_closed", target="t24/t24-primera-a"
    )
    AuditLog.objects.create(actor=later, action="league.other", target="t25/t25-primera-a")
    migration.closings_from_audit(apps, None)
    closed = {
        c.slug: (c.regular_phase_closed_at, c.regular_phase_closed_by_id)
        for c in Competition.objects.filter(regular_phase_closed_at__isnull=False)
    }
    assert closed == {"t24-primera-a": (entry.at, first.pk)}
    migration.forget_closings(apps, None)
    assert not Competition.objects.filter(regular_phase_closed_at__isnull=False).exists()
    assert AuditLog.objects.filter(action="league.regular_phase_closed").count() == 2
