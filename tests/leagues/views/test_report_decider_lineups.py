"""Players report a third match with extra time and penalties, and lineups; a lineup or
bookings naming a suspended footballer flags the fixture for staff (issue 5: ANFPES T24
§1.1.2, §1.4 ¶3)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from leagues import bracket_decisions, brackets, phases, reporting, suspensions
from leagues.models import Card, Match, Team
from tests.factories import UserFactory
from tests.leagues.views.test_finals_stages import (
    STREAM,
    higher_seed_wins,
    home_wins,
    play,
    season,  # noqa: F401 - fixture
)
from tests.leagues.views.test_reporting import png

pytestmark = pytest.mark.django_db


@pytest.fixture
def playoffs(season):  # noqa: F811
    players = {}
    for code in ("t1", "t8", "t3", "t6"):
        user = UserFactory(username=f"owner-{code}")
        Team.objects.filter(season=season["season"], code=code).update(user=user)
        players[code] = user
    competition = phases.close_regular_phase(season["a"], season["staff"])
    return {"competition": competition, "players": players, **season}


def get(competition, code):
    return Match.objects.select_related("competition__season", "home", "away").get(
        competition=competition, code=code
    )


def send(match, user, home, away, **extra):
    return reporting.report_result(
        match,
        user,
        home_goals=home,
        away_goals=away,
        posted_at=timezone.now() - timezone.timedelta(minutes=5),
        screenshot=png(),
        stream_url=STREAM,
        **extra,
    )


def test_a_player_reports_a_third_match_won_on_penalties(client, playoffs):
    comp, staff = playoffs["competition"], playoffs["staff"]
    home_wins(comp, "qf4")  # t3 v t6, 1–1 on aggregate
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(comp, tie)
    assert phases.advance_stage(comp, staff, "a_quarter_finals")["third_matches"] == ["qf4"]
    third = get(comp, "qf4-3")
    home_user = playoffs["players"][third.home.code]
    away_user = playoffs["players"][third.away.code]
    # The form offers extra time and penalties on the third match only.
    client.force_login(home_user)
    page = client.get(reverse("leagues:match", kwargs={"slug": comp.slug, "code": "qf4-3"}))
    assert 'name="penalties_home"' in page.content.decode()
    leg = reverse("leagues:match", kwargs={"slug": comp.slug, "code": "qf1-1"})
    client.force_login(playoffs["players"]["t8"])
    assert 'name="penalties_home"' not in client.get(leg).content.decode()
    # Bad combinations are refused, nothing saved.
    for extra, score in (
        (dict(penalties=(5, 4)), (0, 0)),  # penalties without extra time
        (dict(extra_time=True, penalties=(5, 4)), (1, 0)),  # not level
        (dict(extra_time=True, penalties=(4, 4)), (0, 0)),  # no winner
    ):
        with pytest.raises(UserError):
            send(third, home_user, *score, **extra)
    with pytest.raises(UserError, match="third match"):
        send(get(comp, "qf1-1"), playoffs["players"]["t8"], 1, 1, extra_time=True)
    assert not third.reports.exists()
    # The page: a bad form answers 400 with the message, then a good one.
    client.force_login(home_user)
    url = reverse("leagues:match-report", kwargs={"slug": comp.slug, "code": "qf4-3"})
    data = {
        "home_goals": "0",
        "away_goals": "0",
        "posted_at": timezone.localtime(
            timezone.now() - timezone.timedelta(minutes=5),
            timezone=__import__("zoneinfo").ZoneInfo(comp.season.time_zone),
        ).strftime("%Y-%m-%dT%H:%M"),
        "stream_url": STREAM,
        "penalties_home": "5",
        "penalties_away": "4",
    }
    response = client.post(url, data | {"screenshot": png()})
    assert (
        response.status_code == 400 and "still level after extra time" in response.content.decode()
    )
    response = client.post(url, data | {"extra_time": "on", "screenshot": png()})
    assert response.status_code == 302, response.content.decode()[-2000:]
    report = third.reports.get()
    assert (report.extra_time, report.penalties_home, report.penalties_away) == (True, 5, 4)
    reporting.confirm_report(report, away_user)
    third.refresh_from_db()
    assert (third.extra_time, third.penalties_home, third.penalties_away) == (True, 5, 4)
    tie = {t["id"]: t for t in brackets.competition_bracket(comp)["ties"]}["qf4"]
    assert tie["winner"] == third.home.code


def test_a_suspended_footballer_in_a_lineup_flags_the_fixture(client, playoffs):
    comp, staff = playoffs["competition"], playoffs["staff"]
    t1, t8 = playoffs["players"]["t1"], playoffs["players"]["t8"]
    # qf1-1 (t8 v t1): t1's "N. Red" is sent off → suspended for qf1-2.
    play(comp, "qf1-1", 0, 1)
    leg1 = get(comp, "qf1-1")
    Card.objects.create(match=leg1, team=leg1.away, footballer="N. Red", card="red")
    leg2 = get(comp, "qf1-2")  # t1 v t8
    report = send(
        leg2,
        t1,
        2,
        0,
        lineup=[
            {"team": "home", "footballer": "n.  red"},
            {"team": "away", "footballer": "A. Other"},
        ],
    )
    assert report.lineup == [
        {"team": "t1", "footballer": "n. red"},
        {"team": "t8", "footballer": "A. Other"},
    ]
    flags = suspensions.suspension_flags(comp.season)
    assert [(f["match"], f["footballer"], f["where"], f["report"]) for f in flags] == [
        (f"{comp.slug}/qf1-2", "N. Red", "lineup", report.pk)
    ]
    client.force_login(staff)
    home = client.get(reverse("leagues:staff-home", kwargs={"slug": "t24"})).content.decode()
    assert 'id="flags"' in home and "N. Red" in home
    page = reverse("leagues:match", kwargs={"slug": comp.slug, "code": "qf1-2"})
    assert "A suspended footballer is named" in client.get(page).content.decode()
    # Accepted: the match keeps the lineup and the rules flag it.
    reporting.confirm_report(report, t8)
    leg2.refresh_from_db()
    Match.objects.filter(pk=leg2.pk).update(lineup=[{"team": "t1", "footballer": "N. Red"}])
    flags = suspensions.suspension_flags(comp.season)
    assert [(f["match"], f["where"], f["report"]) for f in flags] == [
        (f"{comp.slug}/qf1-2", "lineup", None)
    ]
    # The other fixtures are not flagged; a bad lineup is refused.
    other = reverse("leagues:match", kwargs={"slug": comp.slug, "code": "qf1-1"})
    assert "A suspended footballer is named" not in client.get(other).content.decode()
    with pytest.raises(UserError):
        send(
            get(comp, "qf4-1"),
            playoffs["players"]["t6"],
            1,
            0,
            lineup=[{"team": "x", "footballer": "X"}],
        )


def test_bookings_naming_a_suspended_footballer_flag_an_open_report(playoffs):
    comp = playoffs["competition"]
    t1 = playoffs["players"]["t1"]
    play(comp, "qf1-1", 0, 1)
    leg1 = get(comp, "qf1-1")
    Card.objects.create(match=leg1, team=leg1.away, footballer="N. Red", card="red")
    report = send(
        get(comp, "qf1-2"),
        t1,
        1,
        0,
        cards=[{"team": "t1", "footballer": "N. Red", "card": "yellow"}],
    )
    flags = suspensions.suspension_flags(comp.season, match=get(comp, "qf1-2"))
    assert [(f["where"], f["report"]) for f in flags] == [("cards", report.pk)]
    assert suspensions.suspension_flags(comp.season, match=get(comp, "qf2-1")) == []


def test_the_flagged_pages_cost_bounded_queries(client, playoffs, django_assert_max_num_queries):
    comp = playoffs["competition"]
    play(comp, "qf1-1", 0, 1)
    leg1 = get(comp, "qf1-1")
    Card.objects.create(match=leg1, team=leg1.away, footballer="N. Red", card="red")
    send(
        get(comp, "qf1-2"),
        playoffs["players"]["t1"],
        1,
        0,
        lineup=[{"team": "t1", "footballer": "N. Red"}],
    )
    client.force_login(playoffs["staff"])
    with django_assert_max_num_queries(12):  # 12: the squads (leagues.suspensions)
        html = client.get(reverse("leagues:staff-home", kwargs={"slug": "t24"})).content.decode()
    assert 'id="flags"' in html
    page = reverse("leagues:match", kwargs={"slug": comp.slug, "code": "qf1-2"})
    # 11: one more to tell a league final phase (the stream link is required) from a cup;
    # 12: one more for the staff decisions (their rows, issue 13); 13: the squads
    with django_assert_max_num_queries(14):  # 14: + the match time card (scheduling)
        assert "A suspended footballer is named" in client.get(page).content.decode()


def test_an_award_names_the_open_reports_it_rejects_in_the_audit(playoffs):
    """Review: the players' open reports closed by an award are listed in its audit entry
    (they were rejected by a bulk update no audit entry named)."""
    from events.models import AuditLog
    from leagues.models import ResultReport

    comp = playoffs["competition"]
    report = send(get(comp, "qf4-1"), playoffs["players"]["t3"], 1, 0)
    bracket_decisions.award_tie(comp, playoffs["tribunal"], tie="qf4", team="t6", reason="§III.2")
    report.refresh_from_db()
    assert report.status == ResultReport.Status.REJECTED
    entry = AuditLog.objects.get(action="league.tie_awarded")
    assert entry.after["reports_rejected"] == [report.pk]


def test_a_staff_correction_takes_the_same_decider_checks_as_a_report(playoffs):
    """Review: ``correct_result`` checked penalties by hand — a shoot-out was accepted on
    the first leg of a two-leg tie, or without extra time; it now uses ``check_decider``
    as reports and amendments do (nothing saved when refused)."""
    comp, staff = playoffs["competition"], playoffs["staff"]
    leg1 = get(comp, "qf1-1")
    bad = [
        dict(home_goals=1, away_goals=1, extra_time=True, penalties=(4, 3)),  # not a decider
        dict(home_goals=1, away_goals=1, extra_time=False, penalties=None),  # fine: a leg
    ]
    with pytest.raises(UserError, match="third match or a one-match decider"):
        reporting.correct_result(leg1, staff, reported_at=None, reason="x", **bad[0])
    leg1.refresh_from_db()
    assert leg1.status == "scheduled" and leg1.penalties_home is None
    reporting.correct_result(leg1, staff, reported_at=None, reason="x", **bad[1])
    home_wins(comp, "qf4")
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(comp, tie)
    phases.advance_stage(comp, staff, "a_quarter_finals")
    third = get(comp, "qf4-3")
    with pytest.raises(UserError, match="after extra time"):
        reporting.correct_result(
            third,
            staff,
            home_goals=2,
            away_goals=2,
            reported_at=None,
            reason="x",
            penalties=(4, 3),
            stream_url=STREAM,
        )
    reporting.correct_result(
        third,
        staff,
        home_goals=2,
        away_goals=2,
        reported_at=None,
        reason="x",
        extra_time=True,
        penalties=(4, 3),
        stream_url=STREAM,
    )
    third.refresh_from_db()
    assert (third.penalties_home, third.penalties_away, third.extra_time) == (4, 3, True)


def test_scores_and_shootouts_have_sane_maxima(client, playoffs):
    """Issue 14 (``leagues.rules.scores``): 99–0 and a 99–98 shoot-out are refused by the
    report and the correction services and by the forms; so is a shoot-out that cannot
    happen (9–2); 6–5 after sudden death is fine."""
    comp, staff = playoffs["competition"], playoffs["staff"]
    home_wins(comp, "qf4")
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(comp, tie)
    phases.advance_stage(comp, staff, "a_quarter_finals")
    third = get(comp, "qf4-3")
    home_user = playoffs["players"][third.home.code]
    with pytest.raises(UserError, match="0 to 30"):
        send(third, home_user, 99, 0)
    for penalties, message in (((99, 98), "0 to 30"), ((9, 2), "cannot be a penalty shoot-out")):
        with pytest.raises(UserError, match=message):
            send(third, home_user, 0, 0, extra_time=True, penalties=penalties)
        with pytest.raises(UserError, match=message):
            reporting.correct_result(
                third, staff, home_goals=0, away_goals=0, reported_at=None, reason="x",
                extra_time=True, penalties=penalties, stream_url=STREAM,
            )  # fmt: skip
    with pytest.raises(UserError, match="0 to 30"):
        reporting.correct_result(
            third, staff, home_goals=31, away_goals=0, reported_at=None,
            reason="x", stream_url=STREAM,
        )  # fmt: skip
    assert not third.reports.exists()
    # The forms say the same (a 400 with the message, nothing saved).
    client.force_login(home_user)
    url = reverse("leagues:match-report", kwargs={"slug": comp.slug, "code": "qf4-3"})
    data = {
        "home_goals": "0",
        "away_goals": "0",
        "extra_time": "on",
        "posted_at": timezone.localtime(
            timezone.now() - timezone.timedelta(minutes=5),
            timezone=__import__("zoneinfo").ZoneInfo(comp.season.time_zone),
        ).strftime("%Y-%m-%dT%H:%M"),
        "stream_url": STREAM,
    }
    for pens, message in ((("99", "98"), "less than or equal to 30"), (("9", "2"), "cannot be")):
        response = client.post(
            url,
            data | {"penalties_home": pens[0], "penalties_away": pens[1], "screenshot": png()},
        )
        assert response.status_code == 400 and message in response.content.decode(), pens
    response = client.post(url, data | {"home_goals": "99", "screenshot": png()})
    assert response.status_code == 400
    assert not third.reports.exists()
    send(third, home_user, 0, 0, extra_time=True, penalties=(6, 5))
    assert third.reports.count() == 1
