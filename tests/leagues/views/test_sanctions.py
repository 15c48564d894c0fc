"""League staff and tribunal (ANFPES T24 §III): the services of ``leagues.sanctions`` and the
pages of ``leagues.views_staff`` — every rule, bad input refused with nothing saved,
permissions per role, the audit log, the table document, bounded queries."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues import sanctions
from leagues.access import season_permissions
from leagues.models import (
    Adjustment,
    Competition,
    Excuse,
    Match,
    ResultReport,
    SeasonRole,
    Team,
)
from leagues.services import competition_table, import_season
from tests.factories import UserFactory
from tests.leagues.seasons import sixteen, small_season

pytestmark = pytest.mark.django_db

PA = "t24-primera-a"
PB = "t24-primera-b"
SANTIAGO = ZoneInfo("America/Santiago")


# --------------------------------------------------------------------------- fixtures
def _people(season):
    users = {
        "staff": UserFactory(username="league-staff"),
        "tribunal": UserFactory(username="league-tribunal"),
        "player": UserFactory(username="league-player"),
        "outsider": UserFactory(username="league-outsider"),
    }
    SeasonRole.objects.create(season=season, user=users["staff"], role="staff")
    SeasonRole.objects.create(season=season, user=users["tribunal"], role="tribunal")
    Team.objects.filter(season=season, code="t1").update(user=users["player"])
    return users


@pytest.fixture
def small():
    season = import_season(small_season())
    return {"season": season, **_people(season)}


@pytest.fixture
def big():
    season = import_season(sixteen())
    return {"season": season, **_people(season)}


def match(code, competition=PA) -> Match:
    return Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug=competition, code=code
    )


def row(competition, team):
    doc = competition_table(Competition.objects.get(slug=competition))
    return next(r for r in doc["rows"] if r["team"] == team)


def snapshot(season):
    """Everything a sanction may change: nothing must move after a refusal."""
    return (
        list(
            Match.objects.filter(competition__season=season)
            .order_by("id")
            .values_list(
                "status",
                "absent",
                "home_goals",
                "away_goals",
                "reported_at",
                "initial_deadline",
                "final_deadline",
            )
        ),
        list(Adjustment.objects.order_by("id").values_list("team_id", "points", "reason")),
        list(Team.objects.order_by("id").values_list("status", flat=True)),
        AuditLog.objects.count(),
    )


def open_report(m, status="pending"):
    return ResultReport.objects.create(
        match=m,
        team=m.home,
        home_goals=1,
        away_goals=0,
        posted_at=timezone.now(),
        screenshot="screenshots/x.png",
        status=status,
    )


def past_deadlines(m, days=1):
    final = timezone.now() - timedelta(days=days)
    Match.objects.filter(pk=m.pk).update(
        initial_deadline=final - timedelta(days=3), final_deadline=final
    )
    m.refresh_from_db()
    return m


# --------------------------------------------------------------------------- walkovers
def test_walkover_is_one_nil_and_three_points_in_the_ledger(small):
    m = match("m3")  # t1 – t3, scheduled, no deadlines
    before = row(PA, "t3")
    updated = sanctions.record_walkover(m, small["staff"], "away", reason="no show")
    m.refresh_from_db()
    assert (m.status, m.absent, m.home_goals, m.away_goals) == ("walkover", "away", None, None)
    assert m.reported_at is not None and updated.pk == m.pk
    entry = Adjustment.objects.latest("id")
    assert (entry.team.code, entry.points, entry.reason) == ("t3", -3, "walkover m3")
    assert entry.created_by == small["staff"]
    # The table: 1–0 for t1 (§III.1), a no-show and −3 for t3.
    t1, t3 = row(PA, "t1"), row(PA, "t3")
    assert (t1["won"], t1["goals_for"]) == (2, 3)
    assert t3["no_shows"] == before["no_shows"] + 1
    assert t3["adjustments"] == before["adjustments"] - 3
    assert t3["points"] == before["points"] - 3
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target, log.actor) == (
        "league.walkover_recorded",
        "t24/t24-primera-a/m3",
        small["staff"],
    )
    assert log.before["status"] == "scheduled" and log.after["status"] == "walkover"
    assert log.after["adjustments"] == [{"team": "t3", "points": -3, "reason": "walkover m3"}]
    assert log.comment == "no show"


def test_walkover_time_can_be_given(small):
    at = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)
    sanctions.record_walkover(match("m3"), small["tribunal"], "home", at=at)
    assert match("m3").reported_at == at
    assert Adjustment.objects.latest("id").team.code == "t1"


def test_walkover_time_must_be_aware(small):
    before = snapshot(small["season"])
    with pytest.raises(UserError):
        sanctions.record_walkover(match("m3"), small["staff"], "home", at=datetime(2026, 4, 1))
    assert snapshot(small["season"]) == before


def test_refusal_is_the_tribunals_and_has_its_own_reason(small):
    m = match("m3")
    with pytest.raises(PermissionDenied):
        sanctions.record_walkover(m, small["staff"], "home", refusal=True, reason="refused")
    with pytest.raises(UserError):
        sanctions.record_walkover(m, small["tribunal"], "home", refusal=True, reason="  ")
    sanctions.record_walkover(m, small["tribunal"], "home", refusal=True, reason="refused")
    m.refresh_from_db()
    assert (m.status, m.absent) == ("walkover", "home")
    entry = Adjustment.objects.latest("id")
    assert (entry.team.code, entry.points, entry.reason) == ("t1", -3, "refusal m3")
    assert AuditLog.objects.latest("id").action == "league.refusal_recorded"
    assert row(PA, "t3")["won"] >= 1


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_walkover_needs_a_role(small, who):
    before = snapshot(small["season"])
    with pytest.raises(PermissionDenied):
        sanctions.record_walkover(match("m3"), small[who], "home")
    with pytest.raises(PermissionDenied):
        sanctions.record_walkover(match("m3"), None, "home")
    assert snapshot(small["season"]) == before


@pytest.mark.parametrize(
    ("code", "absent", "prepare"),
    [
        ("m1", "home", None),  # already played
        ("m2", "home", None),  # already a walkover
        ("m3", "both", None),  # both absent is the tribunal's decision
        ("m3", "", None),
        ("m3", "home", "pending"),
        ("m3", "home", "disputed"),
        ("m3", "home", "future"),  # final deadline not passed
    ],
)
def test_walkover_refused_changes_nothing(small, code, absent, prepare):
    m = match(code)
    if prepare in ("pending", "disputed"):
        open_report(m, prepare)
    if prepare == "future":
        Match.objects.filter(pk=m.pk).update(
            initial_deadline=timezone.now(), final_deadline=timezone.now() + timedelta(days=1)
        )
        m.refresh_from_db()
    before = snapshot(small["season"])
    with pytest.raises(UserError) as error:
        sanctions.record_walkover(m, small["staff"], absent)
    assert str(error.value)
    if prepare in ("pending", "disputed"):
        assert "resolve the open report first" in str(error.value)
    assert snapshot(small["season"]) == before


def test_refusal_can_be_recorded_before_the_final_deadline(small):
    m = match("m3")
    Match.objects.filter(pk=m.pk).update(
        initial_deadline=timezone.now(), final_deadline=timezone.now() + timedelta(days=1)
    )
    m.refresh_from_db()
    sanctions.record_walkover(m, small["tribunal"], "away", refusal=True, reason="refused")
    assert match("m3").status == "walkover"


def test_walkover_after_the_final_deadline(small):
    m = past_deadlines(match("m3"))
    sanctions.record_walkover(m, small["staff"], "home")
    assert match("m3").status == "walkover"


def test_knockout_walkover_has_no_ledger_entry(small):
    cup = Competition.objects.get(slug="t24-cup")
    t1, t2 = Team.objects.get(code="t1"), Team.objects.get(code="t2")
    m = Match.objects.create(competition=cup, code="k9", round=2, home=t1, away=t2)
    count = Adjustment.objects.count()
    # A final-phase leg's walkover is the tribunal's (issue 14, ANFPES T24 §III.2).
    sanctions.record_walkover(match("k9", "t24-cup"), small["tribunal"], "away", reason="absent")
    assert match("k9", "t24-cup").status == "walkover"
    assert Adjustment.objects.count() == count
    assert m.pk


def test_group_stage_walkover_counts_in_the_group_table(small):
    champagne = Competition.objects.get(slug="t24-champagne")
    t1, t2 = Team.objects.get(code="t1"), Team.objects.get(code="t2")
    Match.objects.create(competition=champagne, code="g9", round=2, home=t2, away=t1)
    sanctions.record_walkover(match("g9", "t24-champagne"), small["staff"], "home")
    doc = competition_table(champagne)
    t2_row = next(r for r in doc["groups"]["A"]["rows"] if r["team"] == "t2")
    assert (t2_row["adjustments"], t2_row["no_shows"]) == (-3, 1)


# --------------------------------------------------------------------------- tribunal
def test_both_absent_with_a_score_and_deductions(small):
    m = match("m3")
    t1, t3 = m.home, m.away
    sanctions.tribunal_decision(
        m,
        small["tribunal"],
        home_goals=0,
        away_goals=0,
        deductions={t1: -3, t3: -2},
        reason="both absent, case 12",
    )
    m.refresh_from_db()
    assert (m.status, m.absent, m.home_goals, m.away_goals) == ("walkover", "both", 0, 0)
    entries = list(Adjustment.objects.filter(reason__startswith="tribunal m3").order_by("id"))
    assert [(e.team.code, e.points) for e in entries] == [("t1", -3), ("t3", -2)]
    assert entries[0].reason == "tribunal m3: both absent, case 12"
    assert row(PA, "t3")["no_shows"] == 1 and row(PA, "t1")["no_shows"] == 1
    assert row(PA, "t3")["drawn"] == 1
    log = AuditLog.objects.latest("id")
    assert log.action == "league.tribunal_decision" and log.target == "t24/t24-primera-a/m3"


def test_both_absent_without_score_is_a_loss_for_both_and_zero_is_no_entry(small):
    m = match("m3")
    count = Adjustment.objects.count()
    sanctions.tribunal_decision(m, small["tribunal"], deductions={m.home: 0}, reason="x")
    assert Adjustment.objects.count() == count
    assert row(PA, "t1")["lost"] == 1 and row(PA, "t3")["lost"] == 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"home_goals": 1},
        {"away_goals": 1},
        {"home_goals": -1, "away_goals": 0},
        {"home_goals": 100, "away_goals": 0},
        {"home_goals": "1", "away_goals": 0},
        {"home_goals": True, "away_goals": 0},
        {"deductions": "home+3"},
        {"deductions": "home-100"},
        {"deductions": "other"},
        {"deductions": "home-1.5"},
        {"reason": ""},
        {"reason": "   "},
    ],
)
def test_tribunal_bad_input_changes_nothing(small, kwargs):
    m = match("m3")
    kwargs = dict(kwargs)
    special = kwargs.pop("deductions", None)
    deductions = {}
    if special == "home+3":
        deductions = {m.home: 3}
    elif special == "home-100":
        deductions = {m.home: -100}
    elif special == "home-1.5":
        deductions = {m.home: -1.5}
    elif special == "other":
        deductions = {Team.objects.get(code="t2"): -3}
    reason = kwargs.pop("reason", "decision")
    before = snapshot(small["season"])
    with pytest.raises(UserError):
        sanctions.tribunal_decision(
            m, small["tribunal"], deductions=deductions, reason=reason, **kwargs
        )
    assert snapshot(small["season"]) == before


def test_tribunal_decision_permissions_and_state(small):
    m = match("m3")
    for who in ("staff", "player", "outsider"):
        with pytest.raises(PermissionDenied):
            sanctions.tribunal_decision(m, small[who], reason="x")
    open_report(m)
    with pytest.raises(UserError, match="resolve the open report first"):
        sanctions.tribunal_decision(m, small["tribunal"], reason="x")
    with pytest.raises(UserError):
        sanctions.tribunal_decision(match("m1"), small["tribunal"], reason="x")


# --------------------------------------------------------------------------- void
def test_void_a_scheduled_and_a_played_match(small):
    sanctions.void_match(match("m3"), small["tribunal"], "server down")
    assert match("m3").status == "void"
    t1_before = row(PA, "t1")
    sanctions.void_match(match("m1"), small["tribunal"], "illegal restart (§III.3)")
    m1 = match("m1")
    assert (m1.status, m1.home_goals) == ("void", 2)  # the score is kept for the record
    t1 = row(PA, "t1")
    assert t1["played"] == t1_before["played"] - 1 and t1["points"] == t1_before["points"] - 3
    log = AuditLog.objects.latest("id")
    assert (log.action, log.before["status"], log.after["status"]) == (
        "league.match_voided",
        "played",
        "void",
    )


def test_void_refusals(small):
    before = snapshot(small["season"])
    with pytest.raises(PermissionDenied):
        sanctions.void_match(match("m3"), small["staff"], "x")
    with pytest.raises(UserError):
        sanctions.void_match(match("m3"), small["tribunal"], "")
    with pytest.raises(UserError):
        sanctions.void_match(match("m2"), small["tribunal"], "a walkover keeps its ledger")
    open_report(match("m3"))
    with pytest.raises(UserError):
        sanctions.void_match(match("m3"), small["tribunal"], "x")
    assert snapshot(small["season"])[:3] == before[:3]


# --------------------------------------------------------------------------- abandonment
def test_abandon_annuls_remaining_fixtures(big):
    t1 = Team.objects.get(season=big["season"], code="t1")
    played = Match.objects.filter(competition__slug=PB, home=t1).order_by("id").first()
    Match.objects.filter(pk=played.pk).update(status="played", home_goals=2, away_goals=0)
    result = sanctions.abandon_team(
        t1, big["tribunal"], standing="suspended", award=False, reason="left the league"
    )
    t1.refresh_from_db()
    assert t1.status == "suspended"
    assert len(result["voided"]) == 29 and result["awarded"] == []
    assert result["voided"][0].startswith(f"{PB}/m")
    assert Match.objects.filter(competition__slug=PB, status="void").count() == 29
    assert Match.objects.get(pk=played.pk).status == "played"
    assert Adjustment.objects.count() == 0
    r = row(PB, "t1")
    assert (r["played"], r["points"]) == (1, 3)
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target) == ("league.team_abandoned", "t24/teams/t1")
    assert log.before == {"status": "active"} and log.after["status"] == "suspended"


def test_abandon_awards_walkovers_with_ledger_entries(big):
    t1 = Team.objects.get(season=big["season"], code="t1")
    result = sanctions.abandon_team(
        t1, big["tribunal"], standing="expelled", award=True, reason="expelled"
    )
    assert len(result["awarded"]) == 30 and result["adjustments"] == 30
    assert Match.objects.filter(competition__slug=PB, status="walkover").count() == 30
    entries = Adjustment.objects.filter(team=t1)
    assert entries.count() == 30 and {e.points for e in entries} == {-3}
    assert {e.reason for e in entries} == {
        f"walkover {m.code}" for m in Match.objects.filter(competition__slug=PB, status="walkover")
    }
    r = row(PB, "t1")
    assert (r["played"], r["lost"], r["no_shows"], r["points"]) == (30, 30, 30, -90)
    assert row(PB, "t2")["won"] == 2
    assert Team.objects.get(pk=t1.pk).status == "expelled"


def test_abandon_refusals_change_nothing(big):
    t1 = Team.objects.get(season=big["season"], code="t1")
    before = snapshot(big["season"])
    for who in ("staff", "player", "outsider"):
        with pytest.raises(PermissionDenied):
            sanctions.abandon_team(t1, big[who], standing="suspended", award=True, reason="x")
    with pytest.raises(UserError):
        sanctions.abandon_team(t1, big["tribunal"], standing="gone", award=True, reason="x")
    with pytest.raises(UserError):
        sanctions.abandon_team(t1, big["tribunal"], standing="suspended", award=True, reason="")
    open_report(Match.objects.filter(home=t1).order_by("id").last(), "disputed")
    with pytest.raises(UserError, match="open result reports"):
        sanctions.abandon_team(t1, big["tribunal"], standing="suspended", award=True, reason="x")
    assert snapshot(big["season"]) == before


def test_abandon_twice_with_the_same_standing_is_refused(big):
    t1 = Team.objects.get(season=big["season"], code="t1")
    sanctions.abandon_team(t1, big["tribunal"], standing="suspended", award=False, reason="x")
    with pytest.raises(UserError):
        sanctions.abandon_team(t1, big["tribunal"], standing="suspended", award=False, reason="x")
    # The tribunal may turn a suspension into an expulsion.
    sanctions.abandon_team(t1, big["tribunal"], standing="expelled", award=False, reason="y")
    assert Team.objects.get(pk=t1.pk).status == "expelled"


# --------------------------------------------------------------------------- ledger
def test_add_adjustment(small):
    pa = Competition.objects.get(slug=PA)
    t2 = Team.objects.get(code="t2")
    before = row(PA, "t2")
    entry = sanctions.add_adjustment(
        pa, t2, -2, "late broadcast, tribunal case 4", small["tribunal"]
    )
    assert (entry.points, entry.created_by) == (-2, small["tribunal"])
    assert row(PA, "t2")["points"] == before["points"] - 2
    sanctions.add_adjustment(pa, t2, 2, "correction of the previous entry", small["tribunal"])
    assert row(PA, "t2")["points"] == before["points"]
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target) == ("league.adjustment_added", "t24/t24-primera-a")
    assert log.after == {"team": "t2", "points": 2, "reason": "correction of the previous entry"}


@pytest.mark.parametrize(
    ("points", "reason", "team", "competition"),
    [
        (0, "x", "t2", PA),
        (100, "x", "t2", PA),
        (-100, "x", "t2", PA),
        (True, "x", "t2", PA),
        ("3", "x", "t2", PA),
        (2.5, "x", "t2", PA),
        (-3, "", "t2", PA),
        (-3, "x", "t5", PA),  # not an entry of the competition
        (-3, "x", "t1", "t24-cup"),  # a knockout has no table
    ],
)
def test_add_adjustment_bad_input_changes_nothing(small, points, reason, team, competition):
    Team.objects.create(season=small["season"], code="t5", name="Team 5", handle="user5")
    before = snapshot(small["season"])
    with pytest.raises(UserError):
        sanctions.add_adjustment(
            Competition.objects.get(slug=competition),
            Team.objects.get(code=team),
            points,
            reason,
            small["tribunal"],
        )
    assert snapshot(small["season"]) == before


def test_add_adjustment_is_the_tribunals(small):
    pa, t2 = Competition.objects.get(slug=PA), Team.objects.get(code="t2")
    for who in ("staff", "player", "outsider"):
        with pytest.raises(PermissionDenied):
            sanctions.add_adjustment(pa, t2, -1, "x", small[who])


# --------------------------------------------------------------------------- deadlines
def test_move_a_matchdays_deadlines(big):
    pb = Competition.objects.get(slug=PB)
    initial = datetime(2026, 12, 20, 23, 59, tzinfo=SANTIAGO)
    final = datetime(2026, 12, 23, 23, 59, tzinfo=SANTIAGO)
    old = Match.objects.filter(competition=pb, round=3).first().final_deadline
    assert sanctions.move_deadlines(pb, big["staff"], initial=initial, final=final, round=3) == 8
    rows = Match.objects.filter(competition=pb, round=3)
    assert {(m.initial_deadline, m.final_deadline) for m in rows} == {(initial, final)}
    assert Match.objects.filter(competition=pb, round=4).first().final_deadline != final
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target) == ("league.deadlines_moved", "t24/t24-primera-b/matchday 3")
    assert len(log.before) == 8 and old.isoformat() in {v[1] for v in log.before.values()}
    assert log.after == {"initial": initial.isoformat(), "final": final.isoformat()}


def test_move_one_fixtures_deadlines(big):
    pb = Competition.objects.get(slug=PB)
    m = Match.objects.filter(competition=pb, round=3).order_by("id").first()
    initial = datetime(2026, 12, 20, 23, 59, tzinfo=SANTIAGO)
    assert sanctions.move_deadlines(pb, big["staff"], initial=initial, final=initial, match=m) == 1
    m.refresh_from_db()
    assert m.final_deadline == initial
    others = Match.objects.filter(competition=pb, round=3).exclude(pk=m.pk)
    assert all(o.final_deadline != initial for o in others)


def test_move_deadlines_refusals_change_nothing(big, small_other_competition):
    pb = Competition.objects.get(slug=PB)
    a = datetime(2026, 12, 20, 23, 59, tzinfo=SANTIAGO)
    b = a + timedelta(days=3)
    m = Match.objects.filter(competition=pb).first()
    before = snapshot(big["season"])
    cases = [
        {"initial": a, "final": b},  # neither round nor match
        {"initial": a, "final": b, "round": 3, "match": m},  # both
        {"initial": b, "final": a, "round": 3},  # final before initial
        {"initial": a.replace(tzinfo=None), "final": b, "round": 3},  # naive
        {"initial": None, "final": b, "round": 3},
        {"initial": a, "final": b, "round": 99},  # no such matchday
        {"initial": a, "final": b, "match": small_other_competition},
    ]
    for kwargs in cases:
        with pytest.raises(UserError):
            sanctions.move_deadlines(pb, big["staff"], **kwargs)
    for who in ("tribunal", "player", "outsider"):
        with pytest.raises(PermissionDenied):
            sanctions.move_deadlines(pb, big[who], initial=a, final=b, round=3)
    assert snapshot(big["season"]) == before


@pytest.fixture
def small_other_competition(big):
    """A match of another competition (and season)."""
    data = small_season()
    data["slug"] = "other"
    for c in data["competitions"]:
        c["slug"] = "other-" + c["slug"]
    import_season(data)
    return Match.objects.get(competition__slug="other-t24-primera-a", code="m3")


# --------------------------------------------------------------------------- pages
def url(name, **kwargs):
    return reverse(f"leagues:{name}", kwargs=kwargs)


SEASON_PAGES = ["staff-home", "staff-deadlines", "staff-adjustments", "staff-audit"]


@pytest.mark.parametrize("name", [*SEASON_PAGES, "staff-abandon"])
def test_season_pages_answer_per_role(client, small, name):
    kwargs = {"slug": "t24", **({"team": "t1"} if name == "staff-abandon" else {})}
    expected = {
        "staff": 403 if name == "staff-abandon" else 200,
        "tribunal": 403 if name == "staff-deadlines" else 200,
        "player": 404,
        "outsider": 404,
    }
    target = url(name, **kwargs)
    response = client.get(target)
    assert response.status_code == 302 and "login" in response["Location"]
    for who, status in expected.items():
        client.force_login(small[who])
        assert client.get(target).status_code == status, who
    superuser = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(superuser)
    assert client.get(target).status_code == 200
    # Unknown season or team: 404.
    other = url(name, **{**kwargs, "slug": "nope"})
    assert client.get(other).status_code == 404
    if name == "staff-abandon":
        assert client.get(url(name, slug="t24", team="t99")).status_code == 404


def test_work_queue(client, big, django_assert_max_num_queries):
    season = big["season"]
    # Open reports: one pending (older), one disputed (newer) — the disputed one comes first.
    m_pending, m_disputed, m_excuse = Match.objects.filter(competition__slug=PB).order_by("id")[:3]
    pending = open_report(m_pending, "pending")
    disputed = open_report(m_disputed, "disputed")
    ResultReport.objects.filter(pk=pending.pk).update(created_at=timezone.now() - timedelta(days=2))
    Excuse.objects.create(
        match=m_excuse,
        team=m_excuse.home,
        date_from="2026-03-01",
        date_to="2026-03-05",
        reason="travel",
        evidence="evidence/x.png",
        opponent_answer="yes",
    )
    Excuse.objects.create(
        match=Match.objects.filter(competition__slug=PB).order_by("id")[5],
        team=m_excuse.home,
        date_from="2026-03-01",
        date_to="2026-03-05",
        reason="waiting for the opponent",
        evidence="evidence/y.png",
    )
    client.force_login(big["staff"])
    with django_assert_max_num_queries(10):
        response = client.get(url("staff-home", slug=season.slug))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index(f"{m_disputed.code} ·") < html.index(f"{m_pending.code} ·")
    assert "travel" not in html  # reason not shown in the queue, but the excuse is
    assert html.count("asked by") == 1
    # Every generated fixture of sixteen() is past its final deadline (2026-03 … 2026-09).
    assert response.context["overdue"] and len(response.context["overdue"]) <= 200
    assert response.context["overdue_more"] is True
    assert response.context["overdue_count"] == 240
    assert url("match", slug=PB, code=m_disputed.code) in html
    # Staff cannot open the abandonment form; the tribunal can.
    assert url("staff-abandon", slug="t24", team="t1") not in html
    client.force_login(big["tribunal"])
    assert (
        url("staff-abandon", slug="t24", team="t1")
        in client.get(url("staff-home", slug="t24")).content.decode()
    )
    assert disputed.pk


@pytest.mark.parametrize("name", SEASON_PAGES)
def test_season_pages_cost_bounded_queries(client, big, name, django_assert_max_num_queries):
    for i in range(40):
        AuditLog.objects.create(action="test", target=f"t24/x{i}")
    client.force_login(big["staff"])
    with django_assert_max_num_queries(10):
        assert client.get(url(name, slug="t24")).status_code == 200


def test_deadlines_page_moves_a_matchday_in_the_season_time_zone(client, big):
    client.force_login(big["staff"])
    page = client.get(url("staff-deadlines", slug="t24") + f"?competition={PB}&round=2")
    assert page.status_code == 200
    assert page.context["form"].initial["initial"] == "2026-03-15T23:59"
    response = client.post(
        url("staff-deadlines", slug="t24"),
        {
            "competition": PB,
            "round": "2",
            "initial": "2026-12-01T23:59",
            "final": "2026-12-04T23:59",
            "reason": "holidays",
        },
    )
    assert response.status_code == 302
    m = Match.objects.filter(competition__slug=PB, round=2).first()
    # December in Chile: UTC−3.
    assert m.initial_deadline == datetime(2026, 12, 2, 2, 59, tzinfo=UTC)
    assert m.final_deadline == datetime(2026, 12, 5, 2, 59, tzinfo=UTC)
    assert AuditLog.objects.latest("id").comment == "holidays"


def test_deadlines_page_one_fixture_and_errors(client, big):
    client.force_login(big["staff"])
    m = Match.objects.filter(competition__slug=PB, round=2).order_by("id").first()
    ok = {"competition": PB, "initial": "2026-12-01T20:00", "final": "2026-12-01T22:00"}
    assert (
        client.post(url("staff-deadlines", slug="t24"), {**ok, "match": m.code}).status_code == 302
    )
    m.refresh_from_db()
    assert m.final_deadline == datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
    before = snapshot(big["season"])
    bad = [
        {**ok, "round": "2", "match": m.code},
        ok,
        {**ok, "round": "2", "final": "2026-12-01T19:00"},
        {**ok, "round": "2", "initial": "tomorrow"},
        {**ok, "round": "99"},
        {**ok, "match": "nope"},
    ]
    for data in bad:
        response = client.post(url("staff-deadlines", slug="t24"), data)
        assert response.status_code == 400, data
        assert response.context["form"].errors, data
    assert snapshot(big["season"]) == before
    client.force_login(big["tribunal"])
    assert client.post(url("staff-deadlines", slug="t24"), {**ok, "round": "2"}).status_code == 403


def test_adjustments_page(client, small):
    target = url("staff-adjustments", slug="t24")
    client.force_login(small["staff"])
    html = client.get(target).content.decode()
    assert "walkover m2" in html and 'name="points"' not in html
    assert (
        client.post(
            target, {"competition": PA, "team": "t2", "points": "-1", "reason": "x"}
        ).status_code
        == 403
    )
    client.force_login(small["tribunal"])
    assert 'name="points"' in client.get(target).content.decode()
    count = Adjustment.objects.count()
    response = client.post(
        target, {"competition": PA, "team": "t2", "points": "-1", "reason": "late"}
    )
    assert response.status_code == 302
    assert Adjustment.objects.count() == count + 1
    response = client.post(target, {"competition": PA, "team": "t2", "points": "0", "reason": "x"})
    assert response.status_code == 400 and response.context["form"].errors
    assert Adjustment.objects.count() == count + 1


def test_abandon_page(client, big):
    target = url("staff-abandon", slug="t24", team="t1")
    client.force_login(big["tribunal"])
    assert "30 remaining fixtures" in client.get(target).content.decode()
    data = {"standing": "suspended", "award": "award", "reason": "left"}
    response = client.post(target, data)  # no confirmation
    assert response.status_code == 400 and response.context["errors"]
    assert Team.objects.get(code="t1").status == "active"
    response = client.post(target, {**data, "confirm": "1"})
    assert response.status_code == 302
    assert response["Location"] == url("staff-home", slug="t24")
    assert Team.objects.get(code="t1").status == "suspended"
    assert Adjustment.objects.filter(team__code="t1").count() == 30
    response = client.post(target, {**data, "confirm": "1"})  # already suspended
    assert response.status_code == 400 and response.context["errors"]


def test_audit_page_lists_the_seasons_entries_newest_first(
    client, small, django_assert_max_num_queries
):
    for i in range(55):
        AuditLog.objects.create(action="test", target=f"t24/t24-primera-a/x{i}")
    AuditLog.objects.create(action="test", target="t24x/elsewhere")
    AuditLog.objects.create(action="test", target="other/thing")
    client.force_login(small["staff"])
    with django_assert_max_num_queries(8):
        response = client.get(url("staff-audit", slug="t24"))
    page = response.context["page"]
    assert page.paginator.count == 56  # 55 + the import
    assert page[0].target == "t24/t24-primera-a/x54"
    html = response.content.decode()
    assert "t24x/elsewhere" not in html and "other/thing" not in html
    last = client.get(url("staff-audit", slug="t24") + "?page=2").context["page"]
    assert last[len(last) - 1].action == "season.import"


# --------------------------------------------------------------------------- match endpoints
def test_walkover_endpoint(client, small):
    target = url("match-walkover", slug=PA, code="m3")
    ok = {"absent": "away", "confirm": "1"}
    response = client.post(target, ok)
    assert response.status_code == 302 and "login" in response["Location"]
    for who in ("player", "outsider"):
        client.force_login(small[who])
        assert client.post(target, ok).status_code == 404
    client.force_login(small["staff"])
    assert client.get(target).status_code == 405
    assert client.post(target, {**ok, "refusal": "1", "reason": "x"}).status_code == 403
    response = client.post(target, {"absent": "away"}, follow=True)  # not confirmed
    assert "Tick the confirmation box." in response.content.decode()
    assert match("m3").status == "scheduled"
    response = client.post(target, ok)
    assert response.status_code == 302 and response["Location"] == url("match", slug=PA, code="m3")
    assert match("m3").status == "walkover"
    # A second time: the UserError is shown on the match page again (400), not a 500.
    response = client.post(target, ok, follow=True)
    assert response.status_code == 400
    assert "is not waiting to be played" in response.content.decode()
    assert client.post(url("match-walkover", slug=PA, code="m99"), ok).status_code == 404
    assert client.post(url("match-walkover", slug="nope", code="m3"), ok).status_code == 404


def test_refusal_endpoint(client, small):
    client.force_login(small["tribunal"])
    response = client.post(
        url("match-walkover", slug=PA, code="m3"),
        {"absent": "home", "refusal": "1", "reason": "refused", "confirm": "1"},
    )
    assert response.status_code == 302
    assert Adjustment.objects.latest("id").reason == "refusal m3"


def test_void_endpoint(client, small):
    target = url("match-void", slug=PA, code="m3")
    client.force_login(small["staff"])
    assert client.post(target, {"reason": "x", "confirm": "1"}).status_code == 403
    client.force_login(small["tribunal"])
    client.post(target, {"reason": "x"})  # not confirmed
    assert match("m3").status == "scheduled"
    assert client.post(target, {"reason": "x", "confirm": "1"}).status_code == 302
    assert match("m3").status == "void"


def test_tribunal_endpoint(client, small):
    target = url("match-tribunal", slug=PA, code="m3")
    client.force_login(small["staff"])
    assert client.post(target, {"reason": "x", "confirm": "1"}).status_code == 403
    client.force_login(small["tribunal"])
    before = snapshot(small["season"])
    for bad in (
        {"reason": "x"},  # not confirmed
        {"home_goals": "1", "reason": "x"},
        {"home_goals": "a", "away_goals": "0", "reason": "x"},
        {"home_deduction": "x", "reason": "x"},
        {"home_deduction": "120", "reason": "x"},
        {"reason": ""},
    ):
        data = bad if bad == {"reason": "x"} else {**bad, "confirm": "1"}
        assert client.post(target, data).status_code == 400  # the match page again
    assert snapshot(small["season"]) == before
    response = client.post(
        target,
        {
            "home_goals": "",
            "away_goals": "",
            "home_deduction": "3",
            "away_deduction": "-1",
            "reason": "both absent",
            "confirm": "1",
        },
    )
    assert response.status_code == 302
    assert match("m3").absent == "both"
    entries = Adjustment.objects.filter(reason__startswith="tribunal m3").order_by("id")
    assert [(e.team.code, e.points) for e in entries] == [("t1", -3), ("t3", -1)]


def test_sanctions_partial_per_role(small):
    m = match("m3")

    def render(user):
        perms = season_permissions(user, small["season"])
        return render_to_string(
            "leagues/_match_sanctions.html", {"match": m, "season_perms": perms}
        )

    walkover = url("match-walkover", slug=PA, code="m3")
    tribunal = url("match-tribunal", slug=PA, code="m3")
    void = url("match-void", slug=PA, code="m3")
    staff_html = render(small["staff"])
    assert walkover in staff_html and tribunal not in staff_html and void not in staff_html
    assert 'name="refusal"' not in staff_html
    tribunal_html = render(small["tribunal"])
    assert all(u in tribunal_html for u in (walkover, tribunal, void))
    assert 'name="refusal"' in tribunal_html
    assert render(small["player"]).strip() == ""
    # Not scheduled: nothing.
    played = match("m1")
    perms = season_permissions(small["tribunal"], small["season"])
    html = render_to_string(
        "leagues/_match_sanctions.html", {"match": played, "season_perms": perms}
    )
    assert html.strip() == ""
    Match.objects.filter(pk=m.pk).update(
        initial_deadline=timezone.now(), final_deadline=timezone.now() + timedelta(days=2)
    )
    m.refresh_from_db()
    # Before the final deadline staff (who cannot record a refusal) get no form, only
    # the explanation; the tribunal is told only a refusal can be recorded now.
    assert walkover not in render(small["staff"])
    assert "once the final deadline has passed" in render(small["staff"])
    assert "only a refusal" in render(small["tribunal"])
    past_deadlines(m)
    assert walkover in render(small["staff"])
    assert "only a refusal" not in render(small["staff"])


def test_match_page_shows_the_tribunal_forms(client, small):
    client.force_login(small["tribunal"])
    response = client.get(url("match", slug=PA, code="m3"))
    assert response.status_code == 200
    assert url("match-tribunal", slug=PA, code="m3") in response.content.decode()


def test_a_final_phase_walkover_is_the_tribunals_decision(small, client):
    """Issue 14 (ANFPES T24 §III.2: "con resultado a criterio del Tribunal si es alguna
    llave de definición"): staff cannot record a walkover on a knockout leg, not even on
    the day it is created; the tribunal can, with a reason."""
    cup = Competition.objects.get(slug="t24-cup")
    t1, t2 = Team.objects.get(code="t1"), Team.objects.get(code="t2")
    Match.objects.create(competition=cup, code="k8", round=2, home=t1, away=t2)
    with pytest.raises(PermissionDenied):
        sanctions.record_walkover(match("k8", "t24-cup"), small["staff"], "away", reason="x")
    with pytest.raises(UserError):
        sanctions.record_walkover(match("k8", "t24-cup"), small["tribunal"], "away")
    assert match("k8", "t24-cup").status == "scheduled"
    client.force_login(small["staff"])
    page = client.get(reverse("leagues:match", kwargs={"slug": "t24-cup", "code": "k8"}))
    text = page.content.decode()
    assert "the tribunal&#x27;s decision (§III.2)" in text or "tribunal's decision (§III.2)" in text
    assert "match-walkover" not in text and "/walkover/" not in text
    sanctions.record_walkover(match("k8", "t24-cup"), small["tribunal"], "away", reason="absent")
    assert match("k8", "t24-cup").status == "walkover"
