"""Fixes from the fresh-clone trial of the league final phases and cups (issue 5):
suspended footballers compared normalised and not serving while they play (ANFPES T24
§1.4 ¶3), friendly legs replayed or given their link (§1.4 ¶5), deciders need a winner
(§1.1.2), a closed regular phase is final, and the texts per competition kind."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues import bracket_decisions, brackets, broadcast, cups, phases, reporting, suspensions
from leagues.models import Card, Competition, Match, Team
from leagues.rules import cards as card_rules
from leagues.rules import season as season_rules
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
    extra.setdefault("stream_url", STREAM)
    return reporting.report_result(
        match,
        user,
        home_goals=home,
        away_goals=away,
        posted_at=timezone.now() - timezone.timedelta(minutes=5),
        screenshot=png(),
        **extra,
    )


# ------------------------------------------------------------------ 1. suspensions
def test_footballer_names_are_compared_normalised():
    assert card_rules.footballer_key("  K.   Dós ") == card_rules.footballer_key("k. dos")
    m1 = season_rules.Match(
        id="m1",
        round=1,
        home="a",
        away="b",
        home_goals=1,
        away_goals=0,
        status="played",
        cards=(season_rules.Card("a", "K. Dos", "yellow"),),
    )
    m2 = season_rules.Match(
        id="m2",
        round=2,
        home="b",
        away="a",
        home_goals=1,
        away_goals=0,
        status="played",
        cards=(season_rules.Card("a", "k.  dós", "yellow"),),
    )
    m3 = season_rules.Match(
        id="m3", round=3, home="a", away="b", status="played", home_goals=0, away_goals=0
    )
    m4 = season_rules.Match(id="m4", round=4, home="b", away="a")
    # Two yellows of the same footballer typed differently: one accumulation.
    report = card_rules.suspensions([m1, m2, m4])
    (pending,) = report.pending["a"]
    assert (pending.footballer, pending.cause, pending.next_match) == (
        "K. Dos",
        "two_yellows",
        "m4",
    )
    # Named in the lineup of the next match (lower case): he played, so the suspension is
    # not served there; the match is flagged and the suspension waits for m4.
    report = card_rules.suspensions([m1, m2, m3, m4], lineups={"m3": {"a": ["k. dos"]}})
    assert report.served == ()
    assert [(f.match, f.footballer, f.where) for f in report.flags] == [("m3", "K. Dos", "lineup")]
    assert report.pending["a"][0].next_match == "m4"
    # Not named: m3 serves it.
    report = card_rules.suspensions([m1, m2, m3, m4])
    assert [s.served_in for s in report.served] == ["m3"] and report.pending == {}


def test_a_suspended_footballer_who_played_stays_flagged_after_confirmation(client, playoffs):
    comp = playoffs["competition"]
    t1, t8 = playoffs["players"]["t1"], playoffs["players"]["t8"]
    play(comp, "qf1-1", 0, 1)  # t8 v t1
    leg1 = get(comp, "qf1-1")
    Card.objects.create(match=leg1, team=leg1.away, footballer="K. Dos", card="red")
    leg2 = get(comp, "qf1-2")  # t1 v t8
    report = send(leg2, t8, 2, 0, lineup=[{"team": "home", "footballer": "k. dos"}])
    assert [f["report"] for f in suspensions.suspension_flags(comp.season)] == [report.pk]
    reporting.confirm_report(report, t1)
    doc = suspensions.season_suspensions(comp.season)
    assert doc["served"] == []
    assert [(s["footballer"], s["team"]) for s in doc["suspensions"]] == [("K. Dos", "t1")]
    flags = suspensions.suspension_flags(comp.season)
    assert [(f["match"], f["where"], f["report"]) for f in flags] == [
        (f"{comp.slug}/qf1-2", "lineup", None)
    ]
    api = client.get(f"/api/v1/seasons/{comp.season.slug}/suspensions").json()
    assert [f["match"] for f in api["flags"]] == [f"{comp.slug}/qf1-2"]
    assert api["served"] == [] and len(api["suspensions"]) == 1
    client.force_login(playoffs["staff"])
    home = client.get(reverse("leagues:staff-home", kwargs={"slug": "t24"})).content.decode()
    assert 'id="flags"' in home and "K. Dos" in home


def match_url(comp, code, name="leagues:match"):
    return reverse(name, kwargs={"slug": comp.slug, "code": code})


# ------------------------------------------------------------------ 2. friendly legs
def test_a_final_phase_leg_without_its_link_says_so_and_can_be_replayed(client, playoffs):
    comp, staff, tribunal = playoffs["competition"], playoffs["staff"], playoffs["tribunal"]
    play(comp, "qf1-1", 0, 1)
    Match.objects.filter(competition=comp, code="qf1-1").update(stream_url="")
    Card.objects.create(
        match=get(comp, "qf1-1"), team=get(comp, "qf1-1").home, footballer="X", card="red"
    )
    friendly = "Played without its stream link: a friendly, it does not count."
    url = match_url(comp, "qf1-1")
    assert friendly in client.get(url).content.decode()  # public
    client.force_login(playoffs["players"]["t1"])
    html = client.get(url).content.decode()
    assert friendly in html and 'id="unstreamed"' not in html  # players: no staff actions
    replay = match_url(comp, "qf1-1", "leagues:match-replay-unstreamed")
    assert client.post(replay, {"reason": "x", "confirm": "1"}).status_code == 404
    client.force_login(staff)
    assert 'id="unstreamed"' in client.get(url).content.decode()
    # A bad link is refused with a message; nothing saved.
    link = match_url(comp, "qf1-1", "leagues:match-stream-link")
    response = client.post(link, {"stream_url": "not a link", "reason": "streamed"}, follow=True)
    assert "http(s) address" in response.content.decode()  # the message, back on the page
    assert get(comp, "qf1-1").stream_url == ""
    # The tribunal orders the replay: back to the fixtures to play, the audit keeps it all.
    client.force_login(tribunal)
    response = client.post(replay, {"reason": "no stream"}, follow=True)  # no confirmation
    assert "Tick the confirmation box." in response.content.decode()
    assert get(comp, "qf1-1").status == "played"
    assert client.post(replay, {"reason": "no stream", "confirm": "1"}).status_code == 302
    leg = get(comp, "qf1-1")
    assert (leg.status, leg.home_goals, leg.reported_at) == ("scheduled", None, None)
    assert not Card.objects.filter(match=leg).exists()
    entry = AuditLog.objects.get(action="league.replay_ordered")
    assert entry.before["away_goals"] == 1 and entry.before["cards"][0]["footballer"] == "X"
    assert entry.comment == "no stream"
    # Nothing to replay any more.
    with pytest.raises(UserError, match="not a match played without"):
        broadcast.replay_unstreamed(leg, staff, reason="again")


def test_staff_add_the_link_of_a_streamed_leg(client, playoffs):
    from leagues import broadcast

    comp, staff = playoffs["competition"], playoffs["staff"]
    play(comp, "qf1-1", 0, 1)
    Match.objects.filter(competition=comp, code="qf1-1").update(stream_url="")
    assert not {t["id"]: t for t in brackets.competition_bracket(comp)["ties"]}["qf1"]["legs"][0][
        "counted"
    ]
    with pytest.raises(UserError, match="reason"):
        broadcast.set_stream_link(get(comp, "qf1-1"), staff, STREAM, reason="")
    with pytest.raises(PermissionDenied):
        broadcast.set_stream_link(get(comp, "qf1-1"), playoffs["players"]["t1"], STREAM, reason="x")
    client.force_login(staff)
    link = match_url(comp, "qf1-1", "leagues:match-stream-link")
    assert client.post(link, {"stream_url": STREAM, "reason": "it was streamed"}).status_code == 302
    assert get(comp, "qf1-1").stream_url == STREAM
    assert {t["id"]: t for t in brackets.competition_bracket(comp)["ties"]}["qf1"]["legs"][0][
        "counted"
    ]
    assert AuditLog.objects.filter(action="league.stream_link_set").count() == 1
    # A leg that counts has nothing to add.
    with pytest.raises(UserError):
        broadcast.set_stream_link(get(comp, "qf1-2"), staff, STREAM, reason="x")


def test_the_report_form_requires_the_link_in_league_final_phases_only(client, playoffs):
    from leagues.forms import ReportForm
    from leagues.views_match import _stream_rule

    comp = playoffs["competition"]
    t8 = playoffs["players"]["t8"]  # qf1-1: t8 v t1
    client.force_login(t8)
    html = client.get(match_url(comp, "qf1-1")).content.decode()
    assert "Stream link (broadcast required)" in html
    data = {
        "home_goals": "1",
        "away_goals": "0",
        "posted_at": timezone.localtime(
            timezone.now() - timezone.timedelta(minutes=5),
            timezone=__import__("zoneinfo").ZoneInfo(comp.season.time_zone),
        ).strftime("%Y-%m-%dT%H:%M"),
    }
    response = client.post(
        match_url(comp, "qf1-1", "leagues:match-report"), data | {"screenshot": png()}
    )
    assert response.status_code == 400 and "Give the stream link" in response.content.decode()
    with pytest.raises(UserError, match="stream link"):
        send(get(comp, "qf1-1"), t8, 1, 0, stream_url="")
    assert not get(comp, "qf1-1").reports.exists()
    # Cups: optional, and no "does not count" warning (§2.2).
    cup = ReportForm(stream="encouraged")
    assert not cup.fields["stream_url"].required
    assert "count without a stream link" in str(cup.fields["stream_url"].help_text)
    assert "does not count" not in str(cup.fields["stream_url"].help_text)
    league = playoffs["a"].matches.select_related("competition").first()
    assert _stream_rule(league, False) == "none"
    assert _stream_rule(get(comp, "qf1-1"), True) == "required"


# ------------------------------------------------------------------ 3. deciders
def test_a_level_decider_needs_its_shoot_out(client, playoffs):
    comp, staff = playoffs["competition"], playoffs["staff"]
    home_wins(comp, "qf4")
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(comp, tie)
    phases.advance_stage(comp, staff, "a_quarter_finals")
    third = get(comp, "qf4-3")
    home_user = playoffs["players"][third.home.code]
    for extra in ({}, {"extra_time": True}):
        with pytest.raises(UserError, match="decided on penalties"):
            send(third, home_user, 1, 1, **extra)
    with pytest.raises(UserError, match="decided on penalties"):
        reporting.correct_result(
            third,
            staff,
            home_goals=1,
            away_goals=1,
            reported_at=None,
            reason="x",
            stream_url=STREAM,
        )
    # Staff amending a report of the third match to a level score give the shoot-out.
    report = send(third, home_user, 2, 1, extra_time=True)
    with pytest.raises(UserError, match="decided on penalties"):
        reporting.resolve_report(
            report, staff, decision="amend", reason="typo", home_goals=1, away_goals=1
        )
    client.force_login(staff)
    page = client.get(match_url(comp, "qf4-3")).content.decode()
    assert page.count('name="penalties_home"') == 1  # the staff decision form
    resolve = reverse(
        "leagues:report-resolve", kwargs={"slug": comp.slug, "code": "qf4-3", "pk": report.pk}
    )
    data = {"decision": "amend", "home_goals": "1", "away_goals": "1", "reason": "typo"}
    response = client.post(resolve, data)
    assert response.status_code == 400 and "decided on penalties" in response.content.decode()
    data |= {"extra_time": "on", "penalties_home": "3", "penalties_away": "4"}
    assert client.post(resolve, data).status_code == 302
    third.refresh_from_db()
    assert (third.home_goals, third.extra_time, third.penalties_home, third.penalties_away) == (
        1,
        True,
        3,
        4,
    )
    tie = {t["id"]: t for t in brackets.competition_bracket(comp)["ties"]}["qf4"]
    assert tie["winner"] == third.away.code and tie["decided_by"] == "penalties"
    # 14: the staff Brackets page does not call it "third match required" any more.
    html = client.get(
        reverse("leagues:staff-brackets", kwargs={"slug": "t24"}) + f"?c={comp.slug}"
    ).content.decode()
    card = html[html.index('id="tie-qf4"') :]
    card = card[: card.index("</article>")]
    assert "third match required" not in card
    public = client.get(reverse("leagues:competition", kwargs={"slug": comp.slug})).content.decode()
    assert "Level on aggregate: third match required" not in public  # 15


# ------------------------------------------------------------------ 4, 5, 9. closing
def test_a_closed_regular_phase_is_final(season):  # noqa: F811
    from leagues import broadcast, sanctions

    a, staff, tribunal = season["a"], season["staff"], season["tribunal"]
    # 5: a must-stream fixture played without its link does not count: closing refuses.
    Match.objects.filter(competition=a, code="m1").update(must_stream=True, stream_url="")
    with pytest.raises(UserError, match=r"m1 \(Team"):
        phases.close_regular_phase(a, staff)
    assert not Competition.objects.filter(slug="t24-primera-a-playoffs").exists()
    m1 = Match.objects.select_related("competition__season", "home", "away").get(
        competition=a, code="m1"
    )
    broadcast.replay_unstreamed(m1, tribunal, reason="no stream")
    m1.refresh_from_db()
    assert m1.status == "scheduled"
    reporting.correct_result(
        m1,
        staff,
        home_goals=1,
        away_goals=0,
        reported_at=None,
        reason="replayed",
        stream_url=STREAM,
    )
    phases.close_regular_phase(a, staff)
    # 9: a second closing says so.
    with pytest.raises(UserError, match="already closed"):
        phases.close_regular_phase(a, staff)
    # 4: results, annulments and points of the closed phase no longer change.
    m2 = Match.objects.select_related("competition__season", "home", "away").get(
        competition=a, code="m2"
    )
    with pytest.raises(UserError, match="is closed"):
        reporting.correct_result(
            m2, staff, home_goals=5, away_goals=5, reported_at=None, reason="x"
        )
    with pytest.raises(UserError, match="is closed"):
        sanctions.void_match(m2, tribunal, "x")
    with pytest.raises(UserError, match="is closed"):
        sanctions.add_adjustment(a, m2.home, -3, "late", tribunal)
    with pytest.raises(UserError, match="is closed"):
        broadcast.set_must_stream(m1, staff, False)
    m2.refresh_from_db()
    assert m2.status == "played" and m2.home_goals != 5
    # Primera B is still open.
    b1 = (
        Match.objects.select_related("competition__season", "home", "away")
        .filter(competition=season["b"])
        .first()
    )
    reporting.correct_result(
        b1, staff, home_goals=b1.home_goals, away_goals=b1.away_goals, reported_at=None, reason="ok"
    )


# ------------------------------------------------------------------ 8, 9. bad values
def test_bad_values_are_refused_with_clear_messages(client, season):  # noqa: F811
    from leagues import labels

    staff = season["staff"]
    comp = phases.close_regular_phase(season["a"], staff)
    client.force_login(staff)
    url = reverse("leagues:competition-bracket-final-four", kwargs={"slug": comp.slug})
    for data in ({"final_four": "maybe", "reason": "x"}, {"reason": "x"}):
        response = client.post(url, data, follow=True)
        assert "Choose on or off." in response.content.decode()
    assert brackets.final_four_of(Competition.objects.get(pk=comp.pk))  # unchanged
    assert not AuditLog.objects.filter(action="league.final_four_set").exists()
    with pytest.raises(UserError):
        bracket_decisions.set_final_four(comp, staff, final_four="no", reason="x")
    # Nucommunity: legs 1 or 2 only; a name that fits; a knockout of a power of two.
    page = reverse("leagues:staff-nucommunity", kwargs={"slug": "t24"})
    base = {"format": "groups_knockout", "method": "seed", "groups": "8", "seed": "s"}
    response = client.post(page, base | {"legs": "7"})
    assert response.status_code == 400 and "Legs: 1" in response.content.decode()
    response = client.post(page, base | {"legs": "1", "name": "N" * 5000})
    assert response.status_code == 400 and "name is too long" in response.content.decode()
    response = client.post(page, {"format": "knockout", "method": "seed", "teams": "t1 t2 t3"})
    assert response.status_code == 400
    assert "power-of-two number of entrants" in response.content.decode()
    assert not Competition.objects.filter(slug="t24-nucommunity").exists()
    # Cup bonus of 0 points.
    with pytest.raises(UserError, match="must not be 0"):
        cups.add_cup_bonus(season["season"], staff, team="t1", points=0, reason="x")
    # A slot taken in the stage: team names and the stage's label.
    with pytest.raises(UserError) as caught:
        bracket_decisions.set_bracket_slot(
            comp, staff, tie="sf1", side="first", team="t1", reason="x"
        )
        bracket_decisions.set_bracket_slot(
            comp, staff, tie="sf1", side="second", team="t1", reason="x"
        )
    assert "Team 1 already plays tie sf1" in str(caught.value)
    assert str(labels.stage_label("a_semi_finals")) in str(caught.value)


def test_the_staff_order_across_groups_takes_level_teams_only(season):  # noqa: F811
    from tests.leagues.views.test_cups_app import A, B, play_groups

    groups, _draw = cups.champagne_draw(
        season["season"],
        season["staff"],
        base="pasted",
        primera_a=A,
        primera_b=B,
        method="seed",
        seed="cl-2026",
    )
    play_groups(groups)
    for order, message in (("zz, t1", "Not teams of this group stage: zz"), ("t1", "not level")):
        with pytest.raises(UserError, match=message):
            cups.close_group_stage(groups, season["staff"], order_across=order)
    assert not Competition.objects.filter(kind="knockout").exists()


# ------------------------------------------------------------------ 10, 11, 12. texts
def test_knockout_pages_speak_of_knockouts(client, playoffs):
    comp, tribunal = playoffs["competition"], playoffs["tribunal"]
    client.force_login(tribunal)
    html = client.get(match_url(comp, "qf1-1")).content.decode()
    assert "3 points off the absent team" not in html
    assert "no points are taken off" in html and 'name="home_deduction"' not in html
    league = playoffs["a"]
    Match.objects.filter(competition=league, code="m1").update(
        status="scheduled", home_goals=None, away_goals=None
    )
    # (the league's regular phase is closed: its page still explains the −3)
    html = client.get(match_url(league, "m1")).content.decode()
    assert "3 points off the absent team" in html
    # 11: no excuse nor concession on a playoff match.
    t8 = playoffs["players"]["t8"]
    client.force_login(t8)
    html = client.get(match_url(comp, "qf1-1")).content.decode()
    assert 'id="compliance-actions"' not in html
    with pytest.raises(UserError, match="compliance table"):
        reporting.concede(get(comp, "qf1-1"), t8)
    with pytest.raises(UserError, match="compliance table"):
        reporting.request_excuse(
            get(comp, "qf1-1"),
            t8,
            date_from=timezone.localdate(),
            date_to=timezone.localdate(),
            reason="travel",
            evidence=png(),
        )


def test_the_stage_closing_text_follows_the_competition(client, season):  # noqa: F811
    from tests.leagues.views.test_cups_app import A, B, level_order, play_groups

    staff = season["staff"]
    playoffs = phases.close_regular_phase(season["a"], staff)
    groups, _draw = cups.champagne_draw(
        season["season"],
        staff,
        base="pasted",
        primera_a=A,
        primera_b=B,
        method="seed",
        seed="cl-2026",
    )
    play_groups(groups)
    knockout, _conf = cups.close_group_stage(groups, staff, order_across=level_order(groups))
    client.force_login(staff)
    league = client.get(
        reverse("leagues:competition", kwargs={"slug": playoffs.slug})
    ).content.decode()
    cup = client.get(
        reverse("leagues:competition", kwargs={"slug": knockout.slug})
    ).content.decode()
    assert "the better regular-phase position" in league and "the better cup position" not in league
    assert "the better cup position" in cup and "the better regular-phase position" not in cup


def test_rule_problems_become_sentences():
    from django.utils import translation

    from leagues import labels
    from leagues.rules.errors import LeagueRuleError, Reason

    error = LeagueRuleError(
        [
            Reason("group_pot_twice", {"group": "B", "pot": 3}),
            Reason("unknown_group", {"team": "t9", "group": "Z", "group_repr": "'Z'"}),
        ]
    )
    assert error.problems == ("group B has two teams of pot 3", "t9: unknown group 'Z'")
    with translation.override("en"):
        assert labels.problems_text([Reason("knockout_power_of_two")]) == (
            "A knockout needs a power-of-two number of teams (2, 4, 8, 16, 32…)."
        )
        assert labels.problems_text(error.reasons) == (
            "Group B has two teams of pot 3. t9: unknown group Z."
        )
        assert labels.problems_text(LeagueRuleError("something else").reasons) == (
            "Something else."
        )
        assert labels.problems_text(["something else"]) == "Something else."
    with translation.override("es"):
        strangers = Reason("strangers", {"teams": ["t1", "t2"], "teams_list": ["t1", "t2"]})
        assert str(strangers) == (
            "not in last season's tables nor among the newcomers: ['t1', 't2']"
        )
        assert "t1, t2" in labels.problems_text([strangers])


def test_staff_see_no_correction_form_once_the_regular_phase_is_closed(client, season):  # noqa: F811
    a, staff = season["a"], season["staff"]
    client.force_login(staff)
    url = reverse("leagues:match", kwargs={"slug": a.slug, "code": "m2"})
    assert 'id="correct"' in client.get(url).content.decode()
    assert "can no longer change" not in client.get(url).content.decode()
    phases.close_regular_phase(a, staff)
    html = client.get(url).content.decode()
    assert "can no longer change" in html
    assert reverse("leagues:match-correct", kwargs={"slug": a.slug, "code": "m2"}) not in html


def test_tie_names_in_the_readers_language():
    from django.utils import translation

    from leagues.labels import tie_name_label
    from leagues.rules import brackets as bracket_rules

    spec = bracket_rules.league_post_season()
    names = [spec.tie(t).name for t in ("sf1", "qf1", "lig1", "final")] + ["x"]
    assert names == ["Semi-final 1", "1 v 8", "12th A", "Final", "x"]
    assert [tie_name_label(n) for n in names] == [
        "Semi-final 1",
        "1st v 8th",
        "12th of Primera A",
        "Final",
        "x",
    ]
    with translation.override("es"):
        assert tie_name_label(spec.tie("sf2").name) == "Semifinal 2"
        assert tie_name_label(spec.tie("qf1").name) == "1.º vs. 8.º"
