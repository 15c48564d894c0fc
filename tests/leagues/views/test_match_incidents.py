"""§V incidents and the broadcast requirement in the app (issue 5; ANFPES T24 §1.4, §V):
``leagues.sanctions.record_incident`` / ``set_must_stream``, their endpoints and the match
page — every outcome, the repeated-snow walkover, five sent off 3–0 against a wider score,
the replay fixture, a must-stream fixture without its link not counting (table and
brackets), permissions, bad input refused with nothing saved, the audit log."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues import adapters, brackets, broadcast, sanctions
from leagues.access import season_permissions
from leagues.models import Adjustment, Competition, Match, ResultReport, SeasonRole, Team
from leagues.services import competition_table, import_season
from tests.factories import UserFactory
from tests.leagues.seasons import small_season

pytestmark = pytest.mark.django_db

PA = "t24-primera-a"
CUP = "t24-cup"
GROUPS = "t24-champagne"


# --------------------------------------------------------------------------- fixtures
@pytest.fixture
def small():
    season = import_season(small_season())
    users = {
        "staff": UserFactory(username="league-staff"),
        "tribunal": UserFactory(username="league-tribunal"),
        "player": UserFactory(username="league-player"),
        "outsider": UserFactory(username="league-outsider"),
        "admin": UserFactory(username="league-admin", is_superuser=True, is_staff=True),
    }
    SeasonRole.objects.create(season=season, user=users["staff"], role="staff")
    SeasonRole.objects.create(season=season, user=users["tribunal"], role="tribunal")
    Team.objects.filter(season=season, code="t1").update(user=users["player"])
    return {"season": season, **users}


def match(code, competition=PA) -> Match:
    return Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug=competition, code=code
    )


def with_deadlines(m):
    final = timezone.now() + timedelta(days=2)
    Match.objects.filter(pk=m.pk).update(
        initial_deadline=final - timedelta(days=3), final_deadline=final
    )
    return match(m.code, m.competition.slug)


def snapshot(season):
    """Everything an incident may change: nothing must move after a refusal."""
    return (
        list(
            Match.objects.filter(competition__season=season)
            .order_by("id")
            .values_list(
                "code",
                "status",
                "absent",
                "home_goals",
                "away_goals",
                "reported_at",
                "extra_time",
                "must_stream",
            )
        ),
        Adjustment.objects.count(),
        AuditLog.objects.count(),
    )


def open_report(m):
    return ResultReport.objects.create(
        match=m,
        team=m.home,
        home_goals=1,
        away_goals=0,
        posted_at=timezone.now(),
        screenshot="screenshots/x.png",
        status="pending",
    )


def row(team, competition=PA):
    doc = competition_table(Competition.objects.get(slug=competition))
    return next(r for r in doc["rows"] if r["team"] == team)


def incident(m, user, kind, **details):
    return sanctions.record_incident(m, user, kind, reason=details.pop("reason", "x"), **details)


# --------------------------------------------------------------------------- snow
def test_first_snow_is_a_replay_with_a_new_fixture(small):
    m = with_deadlines(match("m3"))  # t1 – t3, matchday 2
    done = incident(m, small["tribunal"], "snow", reason="snow on the screenshot")
    assert done.outcome.action == "replay" and done.outcome.source == "ANFPES T24 §V ¶2"
    old = match("m3")
    assert old.status == "void"  # kept for the record
    new = match("m3-r")
    assert done.replay.pk == new.pk
    assert (new.home.code, new.away.code, new.round, new.status) == ("t1", "t3", 2, "scheduled")
    assert (new.initial_deadline, new.final_deadline) == (old.initial_deadline, old.final_deadline)
    assert new.home_goals is None and new.reported_at is None
    entry = AuditLog.objects.get(action="league.incident_recorded")
    assert entry.target == "t24/t24-primera-a/m3" and entry.comment == "snow on the screenshot"
    assert entry.actor == small["tribunal"]
    assert entry.before["status"] == "scheduled"
    assert entry.after["incident"] == "snow" and entry.after["replay"] == "m3-r"
    assert (entry.after["home"], entry.after["away"]) == ("t1", "t3")
    assert entry.after["outcome"]["action"] == "replay"
    assert entry.after["prior_snow_offences"] == 0


def test_repeated_snow_is_a_walkover_one_nil_to_the_visitor_without_deduction(small):
    incident(match("m3"), small["tribunal"], "snow")
    ledger = Adjustment.objects.count()
    points_before = row("t3")["points"]
    done = incident(match("m3-r"), small["tribunal"], "snow", reason="snow again")
    assert done.outcome.action == "walkover" and done.outcome.score == (0, 1)
    assert done.replay is None
    again = match("m3-r")
    assert (again.status, again.absent, again.home_goals) == ("walkover", "home", None)
    assert again.reported_at is not None
    assert Adjustment.objects.count() == ledger  # the rules give only the 1–0
    assert row("t3")["points"] == points_before + 3
    assert not Match.objects.filter(code__startswith="m3-r-").exists()
    entry = AuditLog.objects.filter(action="league.incident_recorded").latest("id")
    assert entry.after["prior_snow_offences"] == 1
    assert entry.after["status"] == "walkover" and entry.after["absent"] == "home"


def test_snow_repeat_is_per_home_user_and_opponent(small):
    incident(match("m3"), small["tribunal"], "snow")  # t1 at home against t3
    season = small["season"]
    competition = Competition.objects.get(slug=PA)
    teams = {t.code: t for t in Team.objects.filter(season=season)}
    Match.objects.create(
        competition=competition, code="m4", round=3, home=teams["t3"], away=teams["t1"]
    )
    Match.objects.create(
        competition=competition, code="m5", round=3, home=teams["t1"], away=teams["t4"]
    )
    # The other way round, or another opponent: a first offence, replayed.
    assert incident(match("m4"), small["tribunal"], "snow").outcome.action == "replay"
    assert incident(match("m5"), small["tribunal"], "snow").outcome.action == "replay"
    # Any competition of the season counts: a group match t1 v t3 would be a repeat.
    group = Competition.objects.get(slug=GROUPS)
    Match.objects.create(competition=group, code="g9", round=2, home=teams["t1"], away=teams["t3"])
    assert incident(match("g9", GROUPS), small["tribunal"], "snow").outcome.action == "walkover"


# --------------------------------------------------------------------------- disconnection
def test_disconnection_in_the_first_half_is_a_replay(small):
    done = incident(match("m3"), small["tribunal"], "disconnection", period="first_half")
    assert done.outcome.action == "replay" and done.replay.code == "m3-r"
    assert match("m3").status == "void"


def test_disconnection_later_kept_as_final_is_the_result(small):
    done = incident(
        match("m3"),
        small["tribunal"],
        "disconnection",
        period="second_half",
        agreement="final",
        score=(2, 2),
    )
    assert done.outcome.action == "score_stands"
    m = match("m3")
    assert (m.status, m.home_goals, m.away_goals) == ("played", 2, 2)
    assert m.reported_at is not None
    assert not Match.objects.filter(code="m3-r").exists()


def test_disconnection_later_finished_later_stays_scheduled(small):
    before = snapshot(small["season"])
    done = incident(
        match("m3"),
        small["tribunal"],
        "disconnection",
        period="second_half",
        agreement="continue",
        score=(1, 0),
        reason="lag at 70'",
    )
    assert done.outcome.action == "continue_later" and done.outcome.score == (1, 0)
    assert snapshot(small["season"])[:2] == before[:2]  # nothing but the audit entry
    entry = AuditLog.objects.latest("id")
    assert entry.action == "league.incident_recorded" and entry.comment == "lag at 70'"
    assert entry.after["details"] == {
        "period": "second_half",
        "agreement": "continue",
        "score": [1, 0],
    }
    assert entry.after["status"] == "scheduled"


def test_disconnection_in_extra_time_of_a_knockout(small):
    cup = Competition.objects.get(slug=CUP)
    teams = {t.code: t for t in Team.objects.filter(season=small["season"])}
    Match.objects.create(
        competition=cup, code="k9", round=2, home=teams["t1"], away=teams["t2"], tie="f2", leg=1
    )
    done = incident(
        match("k9", CUP),
        small["tribunal"],
        "disconnection",
        period="extra_time",
        agreement="final",
        score=(2, 1),
    )
    m = match("k9", CUP)
    assert done.outcome.action == "score_stands"
    assert (m.status, m.home_goals, m.away_goals, m.extra_time) == ("played", 2, 1, True)


def test_replay_in_a_knockout_keeps_tie_and_leg(small):
    cup = Competition.objects.get(slug=CUP)
    teams = {t.code: t for t in Team.objects.filter(season=small["season"])}
    Match.objects.create(
        competition=cup, code="k9", round=2, home=teams["t2"], away=teams["t1"], tie="f2", leg=2
    )
    done = incident(match("k9", CUP), small["tribunal"], "snow")
    assert (done.replay.tie, done.replay.leg, done.replay.round) == ("f2", 2, 2)
    assert (done.replay.home.code, done.replay.away.code) == ("t2", "t1")


def test_a_taken_replay_id_gets_a_number(small):
    competition = Competition.objects.get(slug=PA)
    m = match("m3")
    Match.objects.create(competition=competition, code="m3-r", round=2, home=m.home, away=m.away)
    assert incident(match("m3"), small["tribunal"], "snow").replay.code == "m3-r2"


# --------------------------------------------------------------------------- five sent off
@pytest.mark.parametrize(
    ("reduced", "score", "result", "action"),
    [
        ("home", (1, 0), (0, 3), "awarded"),  # 3–0 to the visitor
        ("away", (0, 0), (3, 0), "awarded"),
        ("away", (3, 1), (3, 0), "awarded"),  # a margin of 2: 3–0
        ("away", (4, 0), (4, 0), "score_stands"),  # wider: stands
        ("away", (4, 1), (4, 1), "score_stands"),  # margin 3, more goals: stands
        ("home", (0, 5), (0, 5), "score_stands"),
    ],
)
def test_five_sent_off_is_three_nil_unless_the_score_was_wider(
    small, reduced, score, result, action
):
    done = incident(match("m3"), small["tribunal"], "five_reds", reduced=reduced, score=score)
    assert done.outcome.action == action
    m = match("m3")
    assert (m.status, (m.home_goals, m.away_goals)) == ("played", result)
    assert m.absent == ""


def test_five_sent_off_in_a_played_match_keeps_its_posting_time(small):
    m = match("m1")  # t1 2–1 t2, played
    posted = m.reported_at
    incident(m, small["tribunal"], "five_reds", reduced="away", score=[2, 1])
    m = match("m1")
    assert (m.home_goals, m.away_goals, m.reported_at) == (3, 0, posted)
    before = AuditLog.objects.latest("id").before
    assert (before["home_goals"], before["away_goals"]) == (2, 1)
    assert (row("t1")["goals_for"], row("t2")["goals_against"]) == (3, 3)


def test_five_sent_off_at_a_given_time(small):
    at = timezone.now() - timedelta(hours=3)
    incident(match("m3"), small["tribunal"], "five_reds", reduced="home", score=(0, 0), at=at)
    assert match("m3").reported_at == at


# --------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("kind", "details"),
    [
        ("hail", {}),
        ("snow", {"reason": ""}),
        ("snow", {"reason": "   "}),
        ("disconnection", {}),
        ("disconnection", {"period": "third_half"}),
        ("disconnection", {"period": "extra_time", "agreement": "final", "score": (1, 1)}),
        ("disconnection", {"period": "second_half", "score": (1, 1)}),
        ("disconnection", {"period": "second_half", "agreement": "maybe", "score": (1, 1)}),
        ("disconnection", {"period": "second_half", "agreement": "final"}),
        ("disconnection", {"period": "second_half", "agreement": "final", "score": (1,)}),
        ("disconnection", {"period": "second_half", "agreement": "final", "score": (1, None)}),
        ("five_reds", {"score": (1, 0)}),
        ("five_reds", {"reduced": "both", "score": (1, 0)}),
        ("five_reds", {"reduced": "home"}),
        ("five_reds", {"reduced": "home", "score": (-1, 0)}),
        ("five_reds", {"reduced": "home", "score": (100, 0)}),
        ("five_reds", {"reduced": "home", "score": ("1", 0)}),
        ("five_reds", {"reduced": "home", "score": (True, 0)}),
        (
            "five_reds",
            {"reduced": "home", "score": (1, 0), "at": timezone.now().replace(tzinfo=None)},
        ),
    ],
)
def test_bad_input_is_refused_with_nothing_saved(small, kind, details):
    before = snapshot(small["season"])
    with pytest.raises(UserError):
        incident(match("m3"), small["tribunal"], kind, **details)
    assert snapshot(small["season"]) == before


def test_refused_with_an_open_report_or_in_another_status(small):
    open_report(match("m3"))
    before = snapshot(small["season"])
    with pytest.raises(UserError, match="open result report"):
        incident(match("m3"), small["tribunal"], "snow")
    with pytest.raises(UserError, match="has no incident"):
        incident(match("m2"), small["tribunal"], "snow")  # a walkover
    assert snapshot(small["season"]) == before
    sanctions.void_match(match("m1"), small["tribunal"], "x")
    before = snapshot(small["season"])
    with pytest.raises(UserError, match="has no incident"):
        incident(match("m1"), small["tribunal"], "five_reds", reduced="home", score=(0, 0))
    # A played match cannot be finished later.
    with pytest.raises(UserError, match="can no longer finish it later"):
        incident(
            match("g1", GROUPS),
            small["tribunal"],
            "disconnection",
            period="second_half",
            agreement="continue",
            score=(0, 3),
        )
    assert snapshot(small["season"]) == before


@pytest.mark.parametrize("who", ["staff", "player", "outsider"])
def test_only_the_tribunal_records_an_incident(small, who):
    before = snapshot(small["season"])
    with pytest.raises(PermissionDenied):
        incident(match("m3"), small[who], "snow")
    assert snapshot(small["season"]) == before


def test_a_superuser_records_an_incident(small):
    assert incident(match("m3"), small["admin"], "snow").replay is not None


# --------------------------------------------------------------------------- must stream
def test_must_stream_is_set_and_lifted_by_league_staff(small):
    m = match("m3")
    broadcast.set_must_stream(m, small["staff"], True, reason="title at stake")
    assert match("m3").must_stream is True
    entry = AuditLog.objects.latest("id")
    assert entry.action == "league.must_stream_set" and entry.comment == "title at stake"
    assert (entry.before, entry.after["must_stream"]) == ({"must_stream": False}, True)
    with pytest.raises(UserError, match="already requires"):
        broadcast.set_must_stream(match("m3"), small["staff"], True)
    broadcast.set_must_stream(match("m3"), small["staff"], False)
    assert match("m3").must_stream is False
    with pytest.raises(UserError, match="does not require"):
        broadcast.set_must_stream(match("m3"), small["staff"], False)


@pytest.mark.parametrize("who", ["tribunal", "player", "outsider"])
def test_must_stream_needs_the_calendar_permission(small, who):
    with pytest.raises(PermissionDenied):
        broadcast.set_must_stream(match("m3"), small[who], True)
    assert match("m3").must_stream is False


def test_must_stream_refusals_change_nothing(small):
    before = snapshot(small["season"])
    for m in (match("k1", CUP), match("g1", GROUPS)):  # final phases and cups: no
        with pytest.raises(UserError, match="regular-phase"):
            broadcast.set_must_stream(m, small["staff"], True)
    with pytest.raises(UserError, match="not waiting to be played"):
        broadcast.set_must_stream(match("m1"), small["staff"], True)  # after the fact
    with pytest.raises(UserError):
        broadcast.set_must_stream(match("m3"), small["staff"], "yes")
    open_report(match("m3"))
    before = snapshot(small["season"])
    with pytest.raises(UserError, match="open result report"):
        broadcast.set_must_stream(match("m3"), small["staff"], True)
    assert snapshot(small["season"]) == before


def test_a_must_stream_match_without_its_link_does_not_count_in_the_table(small):
    m = match("m3")
    broadcast.set_must_stream(m, small["staff"], True)
    Match.objects.filter(pk=m.pk).update(
        status="played", home_goals=3, away_goals=0, reported_at=timezone.now()
    )
    t1, t3 = row("t1"), row("t3")
    assert (t1["played"], t3["played"]) == (1, 1)  # m1 for t1, m2 (walkover) for t3
    Match.objects.filter(pk=m.pk).update(stream_url="https://youtube.com/live/x")
    assert (row("t1")["played"], row("t1")["points"]) == (2, t1["points"] + 3)
    # Not required: counts without a link.
    Match.objects.filter(pk=m.pk).update(stream_url="", must_stream=False)
    assert row("t1")["played"] == 2
    # Lifting the requirement after the fact makes it count again.
    Match.objects.filter(pk=m.pk).update(must_stream=True)
    assert row("t1")["played"] == 1
    broadcast.set_must_stream(match("m3"), small["staff"], False)
    assert row("t1")["played"] == 2


def test_a_must_stream_walkover_still_counts(small):
    Match.objects.filter(competition__slug=PA, code="m2").update(must_stream=True)
    assert row("t3")["played"] == 1


def test_brackets_read_a_must_stream_match_without_link_as_void(small):
    row_ = {
        "code": "x1",
        "round": 1,
        "home__code": "t1",
        "away__code": "t2",
        "home_goals": 2,
        "away_goals": 0,
        "extra_time": None,
        "penalties_home": None,
        "penalties_away": None,
        "status": "played",
        "absent": "",
        "reported_at": None,
        "stream_url": "",
        "tie": "",
        "leg": None,
        "must_stream": True,
    }
    assert "must_stream" in adapters.MATCH_FIELDS
    assert adapters.rule_match(row_).status == "void"
    assert adapters.rule_match({**row_, "stream_url": "https://y.tv/1"}).status == "played"
    assert adapters.rule_match({**row_, "must_stream": False}).status == "played"
    # The real bracket loads the field (one query, as before).
    Match.objects.filter(competition__slug=CUP, code="k1").update(must_stream=True)
    doc = brackets.competition_bracket(Competition.objects.get(slug=CUP))
    legs = [leg for tie in doc["ties"] for leg in tie["legs"] if leg["match"] == "k1"]
    assert [(leg["status"], leg["counted"]) for leg in legs] == [("void", False)]


# --------------------------------------------------------------------------- pages
def url(name, slug=PA, code="m3"):
    return reverse(f"leagues:{name}", kwargs={"slug": slug, "code": code})


def test_incident_endpoint_per_role_and_outcomes(client, small):
    target = url("match-incident")
    ok = {"kind": "snow", "reason": "snow", "confirm": "1"}
    response = client.post(target, ok)
    assert response.status_code == 302 and "login" in response["Location"]
    for who in ("player", "outsider"):
        client.force_login(small[who])
        assert client.post(target, ok).status_code == 404
    client.force_login(small["staff"])
    assert client.post(target, ok).status_code == 403
    client.force_login(small["tribunal"])
    assert client.get(target).status_code == 405
    before = snapshot(small["season"])
    for bad in (
        {"kind": "snow", "reason": "x"},  # not confirmed
        {"kind": "snow", "reason": "", "confirm": "1"},
        {"kind": "", "reason": "x", "confirm": "1"},
        {"kind": "five_reds", "reduced": "home", "home_goals": "a", "reason": "x", "confirm": "1"},
        {"kind": "five_reds", "reduced": "home", "home_goals": "1", "reason": "x", "confirm": "1"},
        {"kind": "disconnection", "period": "second_half", "reason": "x", "confirm": "1"},
    ):
        response = client.post(target, bad, follow=True)
        assert response.status_code == 400  # the match page again, with the error
        assert 'class="msg error"' in response.content.decode()
    assert snapshot(small["season"]) == before
    response = client.post(target, ok)
    assert response.status_code == 302 and response["Location"] == url("match", code="m3-r")
    page = client.get(response["Location"]).content.decode()
    assert "annulled and replayed as m3-r" in page
    # Disconnection kept as final, from the form's words.
    response = client.post(
        url("match-incident", code="m3-r"),
        {
            "kind": "disconnection",
            "period": "second_half",
            "agreement": "final",
            "home_goals": "1",
            "away_goals": "1",
            "reason": "lag",
            "confirm": "1",
        },
        follow=True,
    )
    assert "the result is Team 1 1–1 Team 3" in response.content.decode()
    # Five sent off on a played match: the result becomes 3–0.
    client.post(
        url("match-incident", code="m3-r"),
        {
            "kind": "five_reds",
            "reduced": "away",
            "home_goals": "1",
            "away_goals": "1",
            "reason": "five reds",
            "confirm": "1",
        },
    )
    m = match("m3-r")
    assert (m.home_goals, m.away_goals) == (3, 0)
    # Finish later.
    competition = Competition.objects.get(slug=PA)
    Match.objects.create(competition=competition, code="m6", round=3, home=m.home, away=m.away)
    response = client.post(
        url("match-incident", code="m6"),
        {
            "kind": "disconnection",
            "period": "second_half",
            "agreement": "later",
            "home_goals": "0",
            "away_goals": "2",
            "reason": "lag",
            "confirm": "1",
        },
        follow=True,
    )
    assert "played later" in response.content.decode()
    assert match("m6").status == "scheduled"
    assert client.post(url("match-incident", code="m99"), ok).status_code == 404


def test_must_stream_endpoint(client, small):
    target = url("match-must-stream")
    response = client.post(target, {"required": "1"})
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(small["tribunal"])
    assert client.post(target, {"required": "1"}).status_code == 403
    client.force_login(small["staff"])
    response = client.post(target, {"required": "maybe"}, follow=True)
    assert "Choose whether" in response.content.decode()
    assert match("m3").must_stream is False
    response = client.post(target, {"required": "1", "reason": "title"})
    assert response.status_code == 302 and response["Location"] == url("match")
    assert match("m3").must_stream is True
    response = client.post(url("match-must-stream", slug=CUP, code="k1"), {"required": "1"})
    assert response.status_code == 400 and match("k1", CUP).must_stream is False
    client.post(target, {"required": "0"})
    assert match("m3").must_stream is False


def test_match_page_shows_the_broadcast_requirement(client, small):
    m = match("m3")
    client.force_login(small["player"])  # t1, home
    page = client.get(url("match")).content.decode()
    assert "Broadcast required" not in page and 'name="stream_url"' not in page
    broadcast.set_must_stream(m, small["staff"], True)
    page = client.get(url("match")).content.decode()
    assert "Broadcast required" in page
    assert "Stream link (broadcast required)" in page and 'name="stream_url"' in page
    # The player sees neither staff form.
    assert url("match-incident") not in page and url("match-must-stream") not in page
    Match.objects.filter(pk=m.pk).update(
        status="played", home_goals=1, away_goals=0, reported_at=timezone.now()
    )
    page = client.get(url("match")).content.decode()
    assert "a friendly, it does not count" in page


def test_incident_partial_per_role(small):
    m = match("m3")

    def render(user, m=m, **extra):
        perms = season_permissions(user, small["season"])
        return render_to_string(
            "leagues/_match_incidents.html", {"match": m, "season_perms": perms, **extra}
        )

    incident_url, stream_url = url("match-incident"), url("match-must-stream")
    staff_html = render(small["staff"])
    assert stream_url in staff_html and incident_url not in staff_html
    assert 'value="1"' in staff_html and "Require the broadcast" in staff_html
    tribunal_html = render(small["tribunal"])
    assert incident_url in tribunal_html and stream_url not in tribunal_html
    for kind in ("snow", "disconnection", "five_reds"):
        assert f'name="kind" value="{kind}"' in tribunal_html
    assert 'value="extra_time"' not in tribunal_html  # a league match has no extra time
    assert render(small["player"]).strip() == ""
    assert "open result report" in render(small["tribunal"], open_report=True)
    # A played match: the tribunal may still record an incident; staff no toggle.
    played = match("m1")
    assert url("match-incident", code="m1") in render(small["tribunal"], m=played)
    assert url("match-must-stream", code="m1") not in render(small["staff"], m=played)
    # A knockout match: extra time offered; no broadcast toggle (always required).
    k1 = match("k1", CUP)
    Match.objects.filter(pk=k1.pk).update(status="scheduled", home_goals=None, away_goals=None)
    k1 = match("k1", CUP)
    assert 'value="extra_time"' in render(small["tribunal"], m=k1)
    assert render(small["staff"], m=k1).strip() == ""
    # Void or walkover: nothing.
    assert render(small["tribunal"], m=match("m2")).strip() == ""


def test_match_page_shows_the_incident_form_to_the_tribunal(client, small):
    client.force_login(small["tribunal"])
    page = client.get(url("match")).content.decode()
    assert url("match-incident") in page and "Record a §V incident" in page


def test_a_must_stream_match_without_its_link_does_not_count_for_compliance(small):
    """Consistent with the table and the final phases (§1.4 ¶6): a friendly is skipped
    by the compliance table, as a void match."""
    from leagues.services import compliance_inputs, season_compliance_table

    season = Match.objects.get(competition__slug=PA, code="m1").competition.season
    fixture = f"{PA}/m1"

    def fixtures():
        return {f.id for f in compliance_inputs(season).fixtures}

    assert fixture in fixtures()
    Match.objects.filter(competition__slug=PA, code="m1").update(must_stream=True)
    assert fixture in fixtures()  # it has its link
    Match.objects.filter(competition__slug=PA, code="m1").update(stream_url="")
    assert fixture not in fixtures()
    table = season_compliance_table(season)
    assert all(fixture not in {s.fixture for s in r.fixtures} for r in table.rows)
    # Lifting the requirement makes it count again.
    Match.objects.filter(competition__slug=PA, code="m1").update(must_stream=False)
    assert fixture in fixtures()
