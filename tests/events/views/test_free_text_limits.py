"""One free-text length limit everywhere (issue 12, ``events.limits``): every service that
takes text refuses more than ``FREE_TEXT_MAX_LENGTH`` characters with a message naming
the field and the limit, before anything is saved; pages never answer 500; the database
refuses an over-long value saved straight through the ORM; forms carry ``maxlength``."""

import datetime as dt
import json
import uuid

import pytest
from django.db import IntegrityError, models, transaction
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse

from events.errors import UserError
from events.interchange import EventFileError, validate_event_file
from events.limits import FREE_TEXT_MAX_LENGTH, check_free_text
from events.models import AuditLog, AuthorityRole, Table
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import jg5_services, myl_reports, myl_services
from penalties import services as vekn_services
from penalties.models import (
    AggressionReport,
    Appeal,
    DisqualificationReport,
    Level,
    Penalty,
)
from tests.events.services.test_interchange import make_file
from tests.factories import UserFactory
from tests.penalties.services.test_myl_services import myl_event, seat_round

HUGE = "x" * 1_000_000
"""What a written appeal statement took before the limit (issue 12)."""
LIMIT = FREE_TEXT_MAX_LENGTH
OVER = "y" * (LIMIT + 1)


# --------------------------------------------------------------------------- helper
def test_the_helper_names_the_field_and_the_limit():
    assert check_free_text("a" * LIMIT, "Reason") == "a" * LIMIT
    assert check_free_text(None, "Reason") == ""
    with pytest.raises(UserError) as info:
        check_free_text(OVER, "the player's statement", field="statement")
    message = str(info.value)
    assert message.startswith("The player's statement: at most 5000 characters")
    assert str(LIMIT + 1) in message and info.value.field == "statement"


def test_a_browser_line_break_counts_as_one_character():
    """A ``<textarea maxlength>`` counts a line break once but sends ``\\r\\n``."""
    text = "line\r\n" * (LIMIT // 5)  # LIMIT characters as the browser counts them
    assert len(text.replace("\r\n", "\n")) == LIMIT < len(text)
    assert check_free_text(text, "Reason") == text.replace("\r\n", "\n")
    from events.forms import FreeTextField

    field = FreeTextField()
    assert field.clean(text) == text.replace("\r\n", "\n").strip()


# --------------------------------------------------------------------------- MyL
@pytest.fixture
def myl(db):
    from tests.factories import PersonFactory, RegistrationFactory, UserFactory

    event = myl_event(slug="myl-limits", date=dt.date(2026, 9, 17))
    player = UserFactory(username="limits-player")
    regs = [RegistrationFactory(event=event, person=PersonFactory(user=player))]
    regs += [RegistrationFactory(event=event) for _ in range(3)]
    seat_round(event, regs, 1)
    return {"event": event, "regs": regs, "player": player}


def _myl_log(m, code="2.1", conditions=None, reg=0, **kw):
    return myl_services.log_penalty(
        m["event"],
        m["regs"][reg],
        code,
        conditions or {},
        client_id=uuid.uuid4(),
        perms=frozenset({"confirm_penalties"}),
        **kw,
    ).penalty


def test_written_appeal_statement_is_limited_in_the_service(myl, monkeypatch):
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    p = _myl_log(myl, "3.3.4")
    with pytest.raises(UserError, match="statement: at most 5000 characters"):
        myl_services.submit_written_appeal(p, HUGE, myl["player"])
    assert not Appeal.objects.exists()
    appeal = myl_services.submit_written_appeal(p, "z" * LIMIT, myl["player"])
    assert len(appeal.statement) == LIMIT


def test_written_appeal_statement_is_limited_on_the_page(client, myl, monkeypatch):
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    p = _myl_log(myl, "3.3.4")
    client.force_login(myl["player"])
    url = reverse("my-sanctions")
    page = client.get(url).content.decode()
    assert f'name="statement" required maxlength="{LIMIT}"' in page
    response = client.post(url, {"penalty": p.pk, "statement": HUGE}, follow=True)
    assert response.status_code == 200
    assert "at most 5000 characters" in response.content.decode()
    assert not Appeal.objects.exists()


def test_in_event_appeal_and_written_decision_reasons_are_limited(myl, monkeypatch):
    p = _myl_log(myl, "3.3.4")
    with pytest.raises(UserError, match="statement"):
        myl_services.record_in_event_appeal(p, HUGE, "confirmed", "ok")
    with pytest.raises(UserError, match="Reasons: at most"):
        myl_services.record_in_event_appeal(p, "Statement", "confirmed", HUGE)
    assert not Appeal.objects.exists()
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    appeal = myl_services.submit_written_appeal(p, "I did not know", myl["player"])
    manager = UserFactory(username="op-manager")  # the national Organised Play manager
    AuthorityRole.objects.create(user=manager, ruleset="myl")
    with pytest.raises(UserError, match="Reasons: at most"):
        myl_services.decide_written_appeal(appeal, "reverted", HUGE, manager)
    appeal.refresh_from_db()
    p.refresh_from_db()
    assert appeal.decision == "" and p.status == "confirmed"


def test_myl_incident_description_deviation_and_void_are_limited(myl):
    with pytest.raises(UserError, match="What happened: at most"):
        _myl_log(myl, "2.1", description=HUGE)
    with pytest.raises(UserError, match="Deviation reason: at most"):
        _myl_log(myl, "2.1", level="game_loss", deviation_reason=HUGE)
    assert not Penalty.objects.exists()
    p = _myl_log(myl, "2.1")
    with pytest.raises(UserError, match="Void reason: at most"):
        myl_services.void(p, HUGE, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    with pytest.raises(UserError, match="Deviation reason: at most"):
        myl_services.change_level(p, Level.GAME_LOSS, HUGE, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    p.refresh_from_db()
    assert (p.status, p.level) == ("confirmed", "warning")


def test_aggression_report_is_limited(myl):
    p = _myl_log(myl, "3.1.2", {"grave": False})
    for field in ("description", "witnesses", "authorities_detail"):
        values = {"description": "Shouted", "witnesses": "", "authorities_detail": "Police"}
        values[field] = HUGE
        with pytest.raises(UserError, match="at most 5000 characters"):
            myl_reports.write_aggression_report(p, kind="verbal", authorities_called=True, **values)
    assert not AggressionReport.objects.exists()


def test_aggression_report_page_refuses_and_shows_maxlength(client, myl):
    from events.permissions import Role
    from tests.factories import EventRoleFactory, UserFactory

    judge = UserFactory(username="limits-judge")
    EventRoleFactory(event=myl["event"], user=judge, role=Role.JUDGE)
    p = _myl_log(myl, "3.1.2", {"grave": False}, reg=1)
    url = reverse("manage:myl-aggression-report", kwargs={"slug": "myl-limits", "pk": p.pk})
    client.force_login(judge)
    page = client.get(url).content.decode()
    assert f'name="description" required maxlength="{LIMIT}"' in page
    response = client.post(url, {"kind": "verbal", "description": HUGE})
    assert response.status_code == 400
    assert "at most 5000 characters" in response.content.decode()
    assert not AggressionReport.objects.exists()


# --------------------------------------------------------------------------- VEKN
@pytest.fixture
def seated(event, staff):
    from events import services as event_services
    from tests.conftest import add_players

    add_players(event, 8)
    rnd = event_services.seat_next_round(event, seed=1)
    return {"event": event, "round": rnd, "users": staff}


def _vekn_log(event, reg, code="3.3", **kw):
    return vekn_services.log_penalty(
        event,
        reg,
        code,
        {},
        client_id=uuid.uuid4(),
        perms=frozenset({"confirm_penalties", "log_penalties"}),
        **kw,
    ).penalty


def test_vekn_incident_description_is_limited_in_the_service(seated):
    reg = seated["round"].seats.first().registration
    with pytest.raises(UserError, match="What happened: at most 5000 characters"):
        _vekn_log(seated["event"], reg, description=HUGE)
    with pytest.raises(UserError, match="Deviation reason: at most"):
        _vekn_log(seated["event"], reg, level="warning", deviation_reason=HUGE)
    assert not Penalty.objects.exists()
    p = _vekn_log(seated["event"], reg, description="z" * LIMIT)
    assert len(p.description) == LIMIT
    with pytest.raises(UserError, match="Void reason: at most"):
        vekn_services.void(p, HUGE, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    p.refresh_from_db()
    assert p.status == "confirmed"


def test_vekn_incident_description_is_limited_on_the_page(client, seated):
    reg = seated["round"].seats.first().registration
    client.force_login(seated["users"]["judge"])
    url = reverse("manage:incident-new", kwargs={"slug": seated["event"].slug})
    form = client.get(url, {"reg": reg.pk, "code": "3.3"}).content.decode()
    assert f'name="description" maxlength="{LIMIT}"' in form
    response = client.post(
        url,
        {
            "reg": reg.pk,
            "code": "3.3",
            "confirm": "1",
            "client_id": str(uuid.uuid4()),
            "description": HUGE,
        },
    )
    assert response.status_code < 500
    assert "at most 5000 characters" in response.content.decode()
    assert not Penalty.objects.exists()


def test_dq_report_is_limited_in_the_service_and_on_the_page(client, seated):
    reg = seated["round"].seats.first().registration
    p = _vekn_log(seated["event"], reg, level="disqualification", deviation_reason="Punched")
    assert p.level == Level.DISQUALIFICATION
    referred = p.ethics_committee
    for field in ("what_happened", "statements", "witnesses"):
        values = {"what_happened": "Punched the opponent", "statements": "", "witnesses": ""}
        values[field] = HUGE
        with pytest.raises(UserError, match="at most 5000 characters"):
            vekn_services.write_dq_report(p, intentional=True, **values)
    assert not DisqualificationReport.objects.exists()
    p.refresh_from_db()
    assert p.ethics_committee == referred  # an intentional DQ's referral was not saved
    client.force_login(seated["users"]["judge"])
    url = reverse("manage:dq-report", kwargs={"slug": seated["event"].slug, "pk": p.pk})
    page = client.get(url).content.decode()
    assert f'name="what_happened" required maxlength="{LIMIT}"' in page
    response = client.post(url, {"what_happened": HUGE}, follow=True)
    assert response.status_code == 200
    assert "at most 5000 characters" in response.content.decode()
    assert not DisqualificationReport.objects.exists()
    assert not AuditLog.objects.filter(action="penalty.dq_report").exists()


def test_result_override_and_force_majeure_reports_are_limited(seated):
    from events import services as event_services

    table = seated["round"].tables.first()
    with pytest.raises(UserError, match="Judge override: at most"):
        event_services.save_results(
            table,
            [None] * table.seats.count(),
            version=table.version,
            override_reason=HUGE,
            may_override=True,
        )
    with pytest.raises(UserError, match="Force majeure report: at most"):
        jg5_services.declare_force_majeure(seated["event"], HUGE)
    with pytest.raises(UserError, match="What happened: at most"):
        jg5_services.record_venue_interference(seated["event"], seated["round"], 90, True, HUGE)
    seated["event"].refresh_from_db()
    assert seated["event"].force_majeure_at is None and seated["event"].sanctioned


def test_offline_incident_with_a_huge_description_is_refused_not_truncated(client, seated):
    reg = seated["round"].seats.first().registration
    client.force_login(seated["users"]["judge"])
    item = {
        "id": str(uuid.uuid4()),
        "kind": "incident",
        "registration": reg.pk,
        "code": "3.3",
        "answers": {},
        "table": None,
        "description": HUGE,
    }
    response = client.post(
        reverse("manage:tablet-sync", kwargs={"slug": seated["event"].slug}),
        data=json.dumps(item),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["status"] == "invalid"
    assert "at most 5000 characters" in response.json()["message"]
    assert not Penalty.objects.exists()


# --------------------------------------------------------------------------- files
def test_event_file_incident_reason_over_the_limit_is_a_located_problem():
    doc = make_file(final=False)
    doc["incidents"] = [
        {
            "id": "i1",
            "person": "p2",
            "infraction": "3.3",
            "conditions": {},
            "round": 1,
            "timing": "during_game",
            "linked_to": None,
            "level": "warning",
            "reason": HUGE,
        }
    ]
    with pytest.raises(EventFileError) as info:
        validate_event_file(doc)
    assert "incident i1: reason has 1000000 characters; at most 5000" in "\n".join(
        info.value.problems
    )
    doc["incidents"][0]["reason"] = "r" * LIMIT
    assert validate_event_file(doc).incidents[0].reason == "r" * LIMIT


def test_event_file_override_over_the_limit_is_a_located_problem():
    doc = make_file(players=8, rounds=2, final=False)
    table = doc["rounds"][0]["tables"][0]
    doc["rounds"][0]["tables"][0] = {"seats": table, "override": HUGE}
    with pytest.raises(EventFileError, match="round 1, table 1: override has 1000000"):
        validate_event_file(doc)


# --------------------------------------------------------------------------- leagues
@pytest.fixture
def league(db):
    from django.utils import timezone

    from leagues import services as league_services
    from leagues.models import Match, SeasonRole
    from tests.factories import UserFactory
    from tests.leagues.seasons import small_season

    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    season = league_services.import_season(small_season())
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    match = Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug="t24-primera-a", code="m3"
    )
    now = timezone.now()
    match.initial_deadline = now + dt.timedelta(days=2)
    match.final_deadline = now + dt.timedelta(days=5)
    match.save()
    return {
        "season": season,
        "match": match,
        "home": users["user1"],
        "away": users["user3"],
        "tribunal": tribunal,
        "staff": staff,
    }


def _report(league):
    from django.utils import timezone

    from leagues import reporting
    from tests.leagues.views.test_reporting import png

    return reporting.report_result(
        league["match"],
        league["home"],
        home_goals=2,
        away_goals=1,
        posted_at=timezone.now() - dt.timedelta(minutes=30),
        screenshot=png(),
    )


def test_league_dispute_text_is_limited_in_the_service_and_on_the_page(client, league):
    from leagues import reporting

    r = _report(league)
    with pytest.raises(UserError, match="Reason for the dispute: at most 5000"):
        reporting.dispute_report(r, league["away"], HUGE)
    r.refresh_from_db()
    assert r.status == "pending" and r.dispute_reason == ""
    m = league["match"]
    client.force_login(league["away"])
    page = client.get(
        reverse("leagues:match", kwargs={"slug": m.competition.slug, "code": m.code})
    ).content.decode()
    assert f'maxlength="{LIMIT}"' in page
    url = reverse(
        "leagues:report-dispute",
        kwargs={"slug": m.competition.slug, "code": m.code, "pk": r.pk},
    )
    response = client.post(url, {"reason": HUGE})
    assert response.status_code == 400
    r.refresh_from_db()
    assert r.status == "pending"


def test_staff_resolution_and_excuse_reason_are_limited(league):
    from leagues import reporting

    r = _report(league)
    with pytest.raises(UserError, match="Staff decision: at most"):
        reporting.resolve_report(r, league["staff"], decision="reject", reason=HUGE)
    r.refresh_from_db()
    assert r.status == "pending" and r.resolution == ""


def test_excuse_void_and_cup_bonus_reasons_are_limited(league):
    from leagues import cups, reporting, sanctions
    from leagues.models import CupBonus, Excuse
    from tests.leagues.views.test_reporting import png

    m = league["match"]
    today = dt.date.today()
    with pytest.raises(UserError, match="Reason: at most 5000"):
        reporting.request_excuse(
            m, league["home"], date_from=today, date_to=today, reason=HUGE, evidence=png()
        )
    assert not Excuse.objects.exists()
    with pytest.raises(UserError, match="Reason: at most 5000"):
        sanctions.void_match(m, league["tribunal"], HUGE)
    m.refresh_from_db()
    assert m.status == "scheduled"
    with pytest.raises(UserError, match="Reason: at most 5000"):
        cups.add_cup_bonus(league["season"], league["staff"], team="t1", points=1, reason=HUGE)
    assert not CupBonus.objects.exists()


def test_tribunal_adjustment_reason_is_limited_in_the_service_and_on_the_page(client, league):
    from leagues import sanctions
    from leagues.models import Adjustment, Competition, Team

    pa = Competition.objects.get(slug="t24-primera-a")
    t2 = Team.objects.get(code="t2")
    before = Adjustment.objects.count()
    with pytest.raises(UserError, match="Reason: at most 5000 characters"):
        sanctions.add_adjustment(pa, t2, -2, HUGE, league["tribunal"])
    assert Adjustment.objects.count() == before
    client.force_login(league["tribunal"])
    url = reverse("leagues:staff-adjustments", kwargs={"slug": league["season"].slug})
    page = client.get(url).content.decode()
    assert f'maxlength="{LIMIT}"' in page
    response = client.post(
        url, {"competition": "t24-primera-a", "team": "t2", "points": "-2", "reason": HUGE}
    )
    assert response.status_code == 400  # refused: the page again (docs/leagues.md)
    assert "at most 5000 characters" in response.content.decode()
    assert Adjustment.objects.count() == before


def test_tribunal_decision_counts_the_ledger_prefix(league):
    """The ledger stores "tribunal <match>: <reason>": a reason that fits alone but not with
    the prefix is refused with the room left, not a database error."""
    from leagues import sanctions

    m = league["match"]
    with pytest.raises(UserError, match="Reason: at most 4987 characters"):
        sanctions.tribunal_decision(
            m, league["tribunal"], reason="r" * LIMIT, deductions={m.home: -1}
        )
    m.refresh_from_db()
    assert m.status == "scheduled"


def test_season_file_adjustment_reason_over_the_limit_is_a_problem(db):
    from leagues.rules.errors import LeagueRuleError
    from leagues.services import validate_season_file
    from tests.leagues.seasons import small_season

    doc = small_season()
    league = next(c for c in doc["competitions"] if c["slug"] == "t24-primera-a")
    league["adjustments"][0]["reason"] = HUGE
    with pytest.raises(LeagueRuleError, match="reason has 1000000 characters; at most 5000"):
        validate_season_file(doc)


# --------------------------------------------------------------------------- database
def _text_fields():
    from django.apps import apps

    for app in ("events", "penalties", "leagues"):
        for model in apps.get_app_config(app).get_models():
            for f in model._meta.get_fields():
                if isinstance(f, models.TextField) and not isinstance(f, models.JSONField):
                    yield model, f


MACHINE_WRITTEN = {
    ("penalty", "explanation"),  # the rules engine's text (+ a deviation reason ≤ limit)
    ("event", "unsanctioned_reason"),  # JG §5.2 text + the report (≤ limit)
}

OWN_LIMITS = {
    # A pasted decklist, not prose: the deck rules' limit (a 90-card list is under 5,000
    # characters in any format, but a list with comments may be longer), with its check.
    ("deck", "text"): 20_000,
}


def test_every_user_text_field_has_the_limit_and_a_database_check():
    seen = []
    for model, f in _text_fields():
        key = (model._meta.model_name, f.name)
        if key in MACHINE_WRITTEN:
            continue
        seen.append(key)
        limit = OWN_LIMITS.get(key, LIMIT)
        assert f.max_length == limit, key
        checks = [
            c
            for c in model._meta.constraints
            if isinstance(c, models.CheckConstraint)
            and isinstance(c.condition, LessThanOrEqual)
            and c.condition.lhs.source_expressions[0].name == f.name
            and c.condition.rhs == limit
        ]
        assert len(checks) == 1, key
    assert ("appeal", "statement") in seen and ("adjustment", "reason") in seen
    assert len(seen) >= 21


@pytest.mark.parametrize(
    "factory",
    ["appeal", "penalty", "dq_report", "aggression", "adjustment", "dispute", "table", "audit"],
)
def test_the_database_refuses_an_over_long_text_saved_through_the_orm(myl, league, factory):
    p = _myl_log(myl, "3.1.2", {"grave": False})
    if factory == "appeal":
        obj, field = Appeal(penalty=p, kind="written", statement="ok"), "statement"
    elif factory == "penalty":
        obj, field = p, "description"
    elif factory == "dq_report":
        obj, field = DisqualificationReport(penalty=p, what_happened="ok"), "witnesses"
    elif factory == "aggression":
        obj, field = AggressionReport(penalty=p, kind="verbal", description="ok"), "description"
    elif factory == "adjustment":
        from leagues.models import Adjustment, Competition, Team

        obj = Adjustment(
            competition=Competition.objects.get(slug="t24-primera-a"),
            team=Team.objects.get(code="t2"),
            points=-1,
            reason="ok",
        )
        field = "reason"
    elif factory == "dispute":
        obj, field = _report(league), "dispute_reason"
    elif factory == "table":
        obj, field = Table.objects.first(), "override_reason"
    else:
        obj, field = AuditLog(action="x", comment="ok"), "comment"
    obj.save()
    setattr(obj, field, OVER)
    with pytest.raises(IntegrityError), transaction.atomic():
        obj.save()
    setattr(obj, field, "z" * LIMIT)
    obj.save()
    obj.refresh_from_db()
    assert len(getattr(obj, field)) == LIMIT
