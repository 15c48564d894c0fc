"""Staff decisions on a bracket (issue 5; ANFPES T24 §1.2.2, §III.2, §V ¶3, §2.2): a slot
set by hand, a tie awarded by the tribunal, a third match's host chosen, and the Primera A
relegation list after abandonments — each with a reason, audited, refused with nothing
saved on bad input, on the staff brackets page."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues import bracket_decisions, brackets, cups, phases, staff_decisions
from leagues.models import Competition, Team
from leagues.staff_decisions import Kind
from tests.factories import UserFactory
from tests.leagues.views.test_finals_stages import (
    higher_seed_wins,
    home_wins,
    legs_of,
    play,
    season,  # noqa: F401 - fixture
)

pytestmark = pytest.mark.django_db


def bracket(competition):
    competition.refresh_from_db()
    return {t["id"]: t for t in brackets.competition_bracket(competition)["ties"]}


def choices(competition):
    """The competition's staff decisions by kind, as stored (leagues.staff_decisions)."""
    competition.refresh_from_db()
    held = {kind: staff_decisions.stored(competition, kind) for kind in Kind.values}
    return {kind: value for kind, value in held.items() if value is not None}


@pytest.fixture
def playoffs(season):  # noqa: F811
    return phases.close_regular_phase(season["a"], season["staff"])


def test_a_slot_set_by_hand_feeds_the_next_tie(season, playoffs):  # noqa: F811
    staff = season["staff"]
    bracket_decisions.set_bracket_slot(
        playoffs, staff, tie="sf1", side="first", team="t9", reason="t1 abandoned"
    )
    slot = bracket(playoffs)["sf1"]["slots"][0]
    assert slot["team"] == "t9" and slot["overridden"] and slot["fed_from"] == "winner of qf1"
    entry = AuditLog.objects.get(action="league.bracket_slot_set")
    assert entry.comment == "t1 abandoned" and entry.after == {"slots": {"sf1.first": "t9"}}
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    result = phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert result["created"] == ["sf1", "sf2"]
    # t9 replaces the winner of qf1 (t1); the better-placed t4 hosts leg 2.
    assert legs_of(playoffs)["sf1-2"] == ("sf1", 2, "t4", "t9")
    # Blank team: back to the source (only while the tie has no matches).
    with pytest.raises(UserError, match="matches already"):
        bracket_decisions.set_bracket_slot(
            playoffs, staff, tie="sf1", side="first", team="", reason="x"
        )


def test_bad_slots_are_refused_and_nothing_saved(season, playoffs):  # noqa: F811
    staff = season["staff"]
    cases = [
        dict(tie="sf1", side="first", team="t9", reason="  "),
        dict(tie="nope", side="first", team="t9", reason="x"),
        dict(tie="qf1", side="first", team="t9", reason="x"),  # has matches
        dict(tie="sf1", side="third", team="t9", reason="x"),
        dict(tie="sf1", side="first", team="t99", reason="x"),
    ]
    for kwargs in cases:
        with pytest.raises(UserError):
            bracket_decisions.set_bracket_slot(playoffs, staff, **kwargs)
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            bracket_decisions.set_bracket_slot(
                playoffs, user, tie="sf1", side="first", team="t9", reason="x"
            )
    with pytest.raises(UserError):
        bracket_decisions.set_bracket_slot(
            season["a"], staff, tie="sf1", side="first", team="t9", reason="x"
        )
    assert choices(playoffs) == {} and not AuditLog.objects.filter(action__startswith="league.b")


def test_the_tribunal_awards_a_tie(season, playoffs):  # noqa: F811
    tribunal, staff = season["tribunal"], season["staff"]
    # Staff cannot award; a team outside the tie, a tie without both teams: refused.
    with pytest.raises(PermissionDenied):
        bracket_decisions.award_tie(playoffs, staff, tie="qf4", team="t6", reason="x")
    for kwargs in (
        dict(tie="qf4", team="t1", reason="x"),
        dict(tie="sf1", team="t1", reason="x"),
        dict(tie="qf4", team="t6", reason=""),
    ):
        with pytest.raises(UserError):
            bracket_decisions.award_tie(playoffs, tribunal, **kwargs)
    assert choices(playoffs) == {}
    bracket_decisions.award_tie(
        playoffs, tribunal, tie="qf4", team="t6", reason="t3 refused to play (§III.2)"
    )
    tie = bracket(playoffs)["qf4"]
    assert (tie["winner"], tie["decided_by"]) == ("t6", "tribunal")
    assert AuditLog.objects.get(action="league.tie_awarded").after == {
        "awards": {"qf4": "t6"},
        "award_voided": {"qf4": ["qf4-1", "qf4-2"]},
    }
    # Its unplayed legs are not to be played any more.
    assert set(playoffs.matches.filter(tie="qf4").values_list("status", flat=True)) == {"void"}
    # Withdrawn: blank team; the legs are to be played again.
    bracket_decisions.award_tie(playoffs, tribunal, tie="qf4", team="", reason="appeal upheld")
    assert "awards" not in choices(playoffs)
    assert set(playoffs.matches.filter(tie="qf4").values_list("status", flat=True)) == {"scheduled"}
    # Awarded again; once the semi-final is drawn with t6, withdrawing is refused.
    bracket_decisions.award_tie(playoffs, tribunal, tie="qf4", team="t6", reason="t3 abandoned")
    for tie_id in ("qf1", "qf2", "qf3"):
        higher_seed_wins(playoffs, tie_id)
    phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert legs_of(playoffs)["sf2-2"] == ("sf2", 2, "t2", "t6")
    with pytest.raises(UserError, match="sf2 was drawn"):
        bracket_decisions.award_tie(playoffs, tribunal, tie="qf4", team="", reason="appeal upheld")
    assert choices(playoffs)["awards"] == {"qf4": "t6"}
    assert set(playoffs.matches.filter(tie="qf4").values_list("status", flat=True)) == {"void"}


def test_staff_choose_the_third_match_host(season, playoffs):  # noqa: F811
    staff = season["staff"]
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(playoffs, tie)
    home_wins(playoffs, "qf4")  # t3 v t6 level 1–1
    # Before it exists: the choice is kept and used when the third match is created.
    bracket_decisions.set_third_match_home(
        playoffs, staff, tie="qf4", team="t6", reason="t3's venue"
    )
    phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert legs_of(playoffs)["qf4-3"] == ("qf4", 3, "t6", "t3")
    # A scheduled third match: home and away are swapped.
    bracket_decisions.set_third_match_home(playoffs, staff, tie="qf4", team="t3", reason="back")
    assert legs_of(playoffs)["qf4-3"] == ("qf4", 3, "t3", "t6")
    assert bracket(playoffs)["qf4"]["third_match_home"] == "t3"
    for kwargs in (
        dict(tie="qf4", team="t1", reason="x"),
        dict(tie="qf4", team="t6", reason=""),
        dict(tie="zz", team="t6", reason="x"),
    ):
        with pytest.raises(UserError):
            bracket_decisions.set_third_match_home(playoffs, staff, **kwargs)
    with pytest.raises(PermissionDenied):
        bracket_decisions.set_third_match_home(
            playoffs, season["tribunal"], tie="qf4", team="t6", reason="x"
        )
    play(playoffs, "qf4-3", 2, 1)
    with pytest.raises(UserError, match="played already"):
        bracket_decisions.set_third_match_home(playoffs, staff, tie="qf4", team="t6", reason="x")
    assert legs_of(playoffs)["qf4-3"][2] == "t3"
    assert AuditLog.objects.filter(action="league.third_home_set").count() == 2


def test_the_relegation_list_after_abandonments(season):  # noqa: F811
    s, staff = season["season"], season["staff"]
    phases.close_regular_phase(season["b"], staff)
    Team.objects.filter(season=s, code="t5").update(status="expelled")
    nxt = phases.season_next_divisions(s)
    assert any("relegation" in p for p in nxt["pending"])
    for teams, reason in ((["t20"], "x"), (["t16", "t16"], "x"), (["t16"], "")):
        with pytest.raises(UserError):
            bracket_decisions.set_relegation(s, staff, teams=teams, reason=reason)
    with pytest.raises(PermissionDenied):
        bracket_decisions.set_relegation(s, season["tribunal"], teams=["t16"], reason="x")
    assert choices(season["a"]) == {}
    bracket_decisions.set_relegation(
        s, staff, teams=["t16"], reason="t5 expelled: one team down (§1.2.2)"
    )
    nxt = phases.season_next_divisions(s)
    assert not any(p.startswith("relegation") for p in nxt["pending"])
    down = [m for m in nxt["moves"] if m["to"] == "primera_b"]
    assert [m["team"] for m in down] == ["t16"] and "staff decision" in down[0]["reason"]
    assert AuditLog.objects.get(action="league.relegation_set").after == {"relegation": ["t16"]}
    # Blank clears it.
    bracket_decisions.set_relegation(s, staff, teams=[], reason="undo")
    assert "relegation" not in choices(season["a"])


def test_the_pages_and_their_permissions(client, season, playoffs, django_assert_max_num_queries):  # noqa: F811
    page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"})
    slot = reverse("leagues:competition-bracket-slot", kwargs={"slug": playoffs.slug})
    award = reverse("leagues:competition-bracket-award", kwargs={"slug": playoffs.slug})
    third = reverse("leagues:competition-bracket-third-home", kwargs={"slug": playoffs.slug})
    releg = reverse("leagues:competition-relegation", kwargs={"slug": "t24-primera-a"})
    slot_data = {"tie": "sf1", "side": "first", "team": "t9", "reason": "x"}
    award_data = {"tie": "qf1", "team": "t1", "reason": "x"}
    third_data = {"tie": "qf1", "team": "t8", "reason": "x"}
    releg_data = {"teams": ["t16"], "reason": "x"}
    posts = [(slot, slot_data), (award, award_data), (third, third_data), (releg, releg_data)]
    # Anonymous: sign in first.
    assert client.get(page).status_code == 302
    for url, data in posts:
        assert client.post(url, data).status_code == 302
    # A player without a role: 404 everywhere.
    client.force_login(UserFactory(username="player"))
    assert client.get(page).status_code == 404
    for url, data in posts:
        assert client.post(url, data).status_code == 404
    # The tribunal sees the page and awards; the staff-only actions answer 403.
    client.force_login(season["tribunal"])
    html = client.get(page).content.decode()
    assert award in html and slot not in html and releg not in html
    for url, data in ((slot, slot_data), (third, third_data), (releg, releg_data)):
        assert client.post(url, data).status_code == 403
    assert choices(playoffs) == {} and choices(season["a"]) == {}
    response = client.post(award, award_data)
    assert response["Location"].endswith("#tie-qf1")
    assert choices(playoffs)["awards"] == {"qf1": "t1"}
    # Staff: everything but the award.
    client.force_login(season["staff"])
    assert client.post(award, award_data | {"team": "t8"}).status_code == 403
    with django_assert_max_num_queries(14):
        html = client.get(page + f"?c={playoffs.slug}").content.decode()
    assert slot in html and third in html and releg in html and award not in html
    client.post(slot, slot_data | {"reason": ""})
    assert "slots" not in choices(playoffs)
    client.post(slot, slot_data)
    client.post(third, third_data)
    assert choices(playoffs)["slots"] == {"sf1.first": "t9"}
    assert choices(playoffs)["third_homes"] == {"qf1": "t8"}
    # Only after an abandonment may staff enter the list (§1.2.2).
    client.post(releg, releg_data)
    assert "relegation" not in choices(Competition.objects.get(slug="t24-primera-a"))
    Team.objects.filter(season=season["season"], code="t5").update(status="expelled")
    client.post(releg, releg_data)
    assert choices(Competition.objects.get(slug="t24-primera-a"))["relegation"]["teams"] == ["t16"]
    public = client.get(reverse("leagues:competition", kwargs={"slug": playoffs.slug}))
    text = public.content.decode()
    assert "set by staff" in text and "awarded by the tribunal" in text and page in text


def test_the_staff_page_on_primera_b_post_season(client, season, django_assert_max_num_queries):  # noqa: F811
    post = phases.close_regular_phase(season["b"], season["staff"])
    client.force_login(season["staff"])
    page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"}) + f"?c={post.slug}"
    with django_assert_max_num_queries(24):
        html = client.get(page).content.decode()
    # The promotion final has no matches yet: its slots can be set by hand.
    assert 'id="tie-pfinal"' in html and "Set a slot by hand" in html


# --------------------------------------------------------------------------- validation
def test_a_slot_refuses_a_team_twice_in_a_stage_or_from_elsewhere(season, playoffs):  # noqa: F811
    staff = season["staff"]
    bracket_decisions.set_bracket_slot(
        playoffs, staff, tie="sf1", side="first", team="t9", reason="x"
    )
    cases = [
        # Already in the other slot of the same tie, or in the other tie of the stage.
        (dict(tie="sf1", side="second", team="t9"), "already plays tie sf1"),
        (dict(tie="sf2", side="first", team="t9"), "already plays tie sf1"),
        # A Primera B team in Primera A's playoffs.
        (dict(tie="sf2", side="first", team="t20"), "does not play"),
    ]
    for kwargs, message in cases:
        with pytest.raises(UserError, match=message):
            bracket_decisions.set_bracket_slot(playoffs, staff, reason="x", **kwargs)
    assert choices(playoffs)["slots"] == {"sf1.first": "t9"}
    assert AuditLog.objects.filter(action="league.bracket_slot_set").count() == 1
    # Setting the same slot again to the same team is not a duplicate.
    bracket_decisions.set_bracket_slot(
        playoffs, staff, tie="sf1", side="first", team="t9", reason="y"
    )


def test_a_cup_slot_takes_only_teams_of_that_knockout(cup_knockouts):
    staff, knockout, conference = cup_knockouts
    doc = brackets.competition_bracket(knockout)
    later = next(t for t in doc["ties"] if not t["legs"])
    outsider = next(
        code
        for code in brackets.competition_bracket(conference)["teams"]
        if code not in doc["teams"]
    )
    with pytest.raises(UserError, match="does not play"):
        bracket_decisions.set_bracket_slot(
            knockout, staff, tie=later["id"], side="first", team=outsider, reason="x"
        )
    insider = sorted(doc["teams"])[0]
    bracket_decisions.set_bracket_slot(
        knockout, staff, tie=later["id"], side="first", team=insider, reason="x"
    )


@pytest.fixture
def cup_knockouts(db):
    from io import StringIO

    from django.core.management import call_command

    call_command("load_demo", stdout=StringIO())
    staff = UserFactory._meta.model.objects.get(username="organiser")
    groups = Competition.objects.get(slug="anfpes-t23-cups-champagne")
    knockout, conference = cups.close_group_stage(groups, staff)
    return staff, knockout, conference


def test_the_relegation_list_follows_the_rule(season):  # noqa: F811
    s, staff = season["season"], season["staff"]
    # No abandonment: the last two go down (§1.2.1), staff cannot change it.
    with pytest.raises(UserError, match="1.2.1"):
        bracket_decisions.set_relegation(s, staff, teams=["t16"], reason="x")
    Team.objects.filter(season=s, code="t5").update(status="suspended")
    all_sixteen = [f"t{i}" for i in range(1, 17)]
    for teams, message in (
        (all_sixteen, "At most 2"),
        (["t14", "t15", "t16"], "At most 2"),
        (["t5"], "left Primera A"),
    ):
        with pytest.raises(UserError, match=message):
            bracket_decisions.set_relegation(s, staff, teams=teams, reason="x")
    assert choices(season["a"]) == {}
    bracket_decisions.set_relegation(s, staff, teams=["t15", "t16"], reason="t5 abandoned")
    assert choices(season["a"])["relegation"]["teams"] == ["t15", "t16"]


def test_a_closed_stage_is_not_offered_again_and_a_second_close_is_refused(
    client,
    season,  # noqa: F811
    playoffs,
):
    staff = season["staff"]
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    phases.advance_stage(playoffs, staff, "a_quarter_finals")
    stages = {
        s["code"]: s for s in brackets.bracket_display(brackets.competition_bracket(playoffs))
    }
    assert stages["a_quarter_finals"]["closed"] and not stages["a_quarter_finals"]["can_close"]
    assert stages["a_semi_finals"]["can_close"] and not stages["a_semi_finals"]["closed"]
    with pytest.raises(UserError, match="closed already"):
        phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert playoffs.matches.count() == 12
    client.force_login(staff)
    url = reverse("leagues:competition", kwargs={"slug": playoffs.slug})
    html = client.get(url).content.decode()
    assert html.count('name="stage" value="a_quarter_finals"') == 0
    assert 'name="stage" value="a_semi_finals"' in html
    # Posting it anyway: a clear message, nothing created, no 500.
    action = reverse("leagues:competition-advance-stage", kwargs={"slug": playoffs.slug})
    response = client.post(action, {"stage": "a_quarter_finals", "confirm": "1"}, follow=True)
    assert response.status_code == 400 and "closed already" in response.content.decode()
    assert playoffs.matches.count() == 12


def test_an_awarded_zone_semi_final_feeds_the_zone_final_by_its_source(season):  # noqa: F811
    from tests.leagues.views.test_finals_stages import finish_stage

    staff, tribunal = season["staff"], season["tribunal"]
    post = phases.close_regular_phase(season["b"], staff)
    finish_stage(post, "b_promotion_semi_finals", staff, ["psf1", "psf2"])
    # zb_sf1 (t21 v t26) awarded to the 10th, t26; zb_sf2 won by the 6th, t22, who is
    # better placed and hosts the final's second leg.
    bracket_decisions.award_tie(post, tribunal, tie="zb_sf1", team="t26", reason="t21 absent twice")
    higher_seed_wins(post, "zb_sf2")
    phases.advance_stage(post, staff, "zone_b_semi_finals")
    assert legs_of(post)["zb_final-2"] == ("zb_final", 2, "t22", "t26")
    final = bracket(post)["zb_final"]
    assert [(s["fed_from"], s["team"]) for s in final["slots"]] == [
        ("winner of zb_sf1", "t26"),
        ("winner of zb_sf2", "t22"),
    ]


def test_awarded_liguilla_ties_decide_next_seasons_divisions(client, season):  # noqa: F811
    from tests.leagues.views.test_finals_stages import finish_stage

    staff, tribunal = season["staff"], season["tribunal"]
    post = phases.close_regular_phase(season["b"], staff)
    finish_stage(post, "b_promotion_semi_finals", staff, ["psf1", "psf2"])
    finish_stage(post, "b_promotion_final", staff, ["pfinal"])
    finish_stage(post, "zone_a_semi_finals", staff, ["za_sf1", "za_sf2"])
    finish_stage(post, "zone_b_semi_finals", staff, ["zb_sf1", "zb_sf2"])
    finish_stage(post, "zone_a_final", staff, ["za_final"])
    finish_stage(post, "zone_b_final", staff, ["zb_final"])
    # Liguilla: lig1 awarded to the Primera B side (t21), lig2 played, lig3 awarded to
    # the Primera A side (t14) with its legs unplayed.
    bracket_decisions.award_tie(
        post, tribunal, tie="lig1", team="t21", reason="t12 abandoned the tie"
    )
    higher_seed_wins(post, "lig2")
    bracket_decisions.award_tie(post, tribunal, tie="lig3", team="t14", reason="t19 absent")
    phases.advance_stage(post, staff, "liguilla")
    nxt = phases.season_next_divisions(season["season"])
    assert nxt["pending"] == [] and nxt["primera_a"] is not None
    up = {m["team"] for m in nxt["moves"] if m["to"] == "primera_a"}
    assert up == {"t17", "t18", "t21"}
    html = client.get(reverse("leagues:season", kwargs={"slug": "t24"})).content.decode()
    assert 'id="next-season"' in html and "Team 21" in html


def test_an_awarded_ties_unplayed_legs_leave_the_players_queues(client, season, playoffs):  # noqa: F811
    from django.utils import timezone

    from leagues import reporting
    from leagues.models import Match, ResultReport
    from tests.leagues.views.test_reporting import png

    staff, tribunal = season["staff"], season["tribunal"]
    s = season["season"]
    t3 = Team.objects.get(season=s, code="t3")
    player = UserFactory(username="owner-t3")
    Team.objects.filter(pk=t3.pk).update(user=player)
    deadline = timezone.now() - timezone.timedelta(days=1)
    Match.objects.filter(competition=playoffs, tie="qf4").update(
        initial_deadline=deadline - timezone.timedelta(days=2), final_deadline=deadline
    )
    leg1 = playoffs.matches.get(code="qf4-1")
    report = reporting.report_result(
        leg1,
        player,
        home_goals=1,
        away_goals=0,
        posted_at=timezone.now(),
        screenshot=png(),
        stream_url="https://twitch.tv/x",
    )
    client.force_login(player)
    mine = reverse("leagues:my-fixtures")
    assert "qf4-2/#report" in client.get(mine).content.decode()
    bracket_decisions.award_tie(
        playoffs, tribunal, tie="qf4", team="t3", reason="t6 withdrew (§III.2)"
    )
    report.refresh_from_db()
    assert report.status == ResultReport.Status.REJECTED
    html = client.get(mine).content.decode()
    assert "qf4-2/#report" not in html and "qf4-1/#open-report" not in html
    page = client.get(
        reverse("leagues:match", kwargs={"slug": playoffs.slug, "code": "qf4-2"})
    ).content.decode()
    assert 'id="report"' not in page and "The tribunal awarded the tie qf4" in page
    with pytest.raises(UserError):
        reporting.report_result(
            leg1,
            player,
            home_goals=1,
            away_goals=0,
            posted_at=timezone.now(),
            screenshot=png(),
        )
    assert staff  # league staff: nothing overdue for qf4 in the work queue
    client.force_login(staff)
    html = client.get(reverse("leagues:staff-home", kwargs={"slug": s.slug})).content.decode()
    assert "qf4-1" not in html and "qf4-2" not in html


def test_no_final_four_is_stored_and_shown(client, season):  # noqa: F811
    staff = season["staff"]
    playoffs = phases.close_regular_phase(season["a"], staff, final_four=False)
    assert choices(playoffs) == {"final_four": False}
    sf1 = bracket(playoffs)["sf1"]
    assert sf1["same_day"] is None
    url = reverse("leagues:competition", kwargs={"slug": playoffs.slug})
    assert "No Final Four" in client.get(url).content.decode()
    # Staff switch it back on, with a reason; audited.
    with pytest.raises(UserError):
        bracket_decisions.set_final_four(playoffs, staff, final_four=True, reason=" ")
    with pytest.raises(PermissionDenied):
        bracket_decisions.set_final_four(playoffs, season["tribunal"], final_four=True, reason="x")
    client.force_login(staff)
    action = reverse("leagues:competition-bracket-final-four", kwargs={"slug": playoffs.slug})
    page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"})
    assert action in client.get(page + f"?c={playoffs.slug}").content.decode()
    client.post(action, {"final_four": "yes", "reason": "everyone can on Saturday"})
    assert choices(playoffs)["final_four"] is True
    assert bracket(playoffs)["sf1"]["same_day"] == "final_four"
    assert AuditLog.objects.get(action="league.final_four_set").after == {"final_four": True}
    assert "No Final Four" not in client.get(url).content.decode()
    # Not on Primera B's post-season.
    post = phases.close_regular_phase(season["b"], staff)
    with pytest.raises(UserError, match="semi-finals"):
        bracket_decisions.set_final_four(post, staff, final_four=False, reason="x")


def test_legs_created_void_for_an_award_come_back_when_it_is_withdrawn(
    season,  # noqa: F811
    playoffs,
):
    """A tie awarded before its legs exist gets them void when the stage before it is
    closed; withdrawing the award puts them back to be played, as for legs voided by the
    award itself (review: they stayed void, unplayable, with nothing recording why)."""
    tribunal, staff = season["tribunal"], season["staff"]
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    for side, team in (("first", "t1"), ("second", "t4")):
        bracket_decisions.set_bracket_slot(
            playoffs, staff, tie="sf1", side=side, team=team, reason="x"
        )
    bracket_decisions.award_tie(
        playoffs, tribunal, tie="sf1", team="t1", reason="walkover (§III.2)"
    )
    phases.advance_stage(playoffs, staff, "a_quarter_finals")
    legs = set(playoffs.matches.filter(tie="sf1").values_list("code", "status"))
    assert legs and {status for _code, status in legs} == {"void"}
    assert choices(playoffs)["award_voided"]["sf1"] == sorted(code for code, _s in legs)
    bracket_decisions.award_tie(playoffs, tribunal, tie="sf1", team="", reason="appeal upheld")
    statuses = set(playoffs.matches.filter(tie="sf1").values_list("status", flat=True))
    assert statuses == {"scheduled"}
