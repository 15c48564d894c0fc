"""Closing the stages of the league post-season (leagues/finals.py, issue 5): the next ties
from the winners, third matches, Primera B's promotion playoffs, zones and Liguilla, and
next season's divisions — on hand-built seasons of two 16-team divisions whose regular
phases are fully played (the lower id wins 1–0, so the tables are t1…t16 and t17…t32)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues import brackets, phases
from leagues.models import Competition, Match, SeasonRole
from leagues.services import import_season
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

STREAM = "https://twitch.tv/anfpes"


def two_divisions():
    teams = [{"id": f"t{i}", "name": f"Team {i}", "user": f"user{i}"} for i in range(1, 33)]
    return {
        "format": "arbitro.season/1",
        "slug": "t24",
        "name": "Temporada 24",
        "teams": teams,
        "competitions": [
            {
                "slug": "t24-primera-a",
                "kind": "league",
                "name": "Primera A",
                "teams": [f"t{i}" for i in range(1, 17)],
            },
            {
                "slug": "t24-primera-b",
                "kind": "league",
                "name": "Primera B",
                "title_decider": True,
                "teams": [f"t{i}" for i in range(17, 33)],
            },
        ],
    }


def play_regular_phases():
    matches = list(Match.objects.filter(competition__kind="league").select_related("home", "away"))
    for m in matches:
        home_wins = int(m.home.code[1:]) < int(m.away.code[1:])
        m.status, m.home_goals, m.away_goals = "played", int(home_wins), int(not home_wins)
    Match.objects.bulk_update(matches, ["status", "home_goals", "away_goals"])


@pytest.fixture
def season(db):
    season = import_season(two_divisions())
    play_regular_phases()
    staff = UserFactory(username="staff")
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    return {
        "season": season,
        "staff": staff,
        "tribunal": tribunal,
        "a": Competition.objects.get(slug="t24-primera-a"),
        "b": Competition.objects.get(slug="t24-primera-b"),
    }


def legs_of(competition):
    return {
        m.code: (m.tie, m.leg, m.home.code, m.away.code)
        for m in competition.matches.select_related("home", "away")
    }


def play(competition, code, home_goals, away_goals, **extra):
    updated = Match.objects.filter(competition=competition, code=code).update(
        status="played",
        home_goals=home_goals,
        away_goals=away_goals,
        stream_url=STREAM,
        **extra,
    )
    assert updated == 1, code


def home_wins(competition, tie):
    """Both legs of ``tie`` won 1–0 by the home side: level 1–1 → a third match."""
    play(competition, f"{tie}-1", 1, 0)
    play(competition, f"{tie}-2", 1, 0)


def higher_seed_wins(competition, tie):
    """The host of leg 2 (the better-ranked team) wins the tie 2–0 on aggregate."""
    play(competition, f"{tie}-1", 0, 1)
    play(competition, f"{tie}-2", 1, 0)


def bracket(competition):
    return {t["id"]: t for t in brackets.competition_bracket(competition)["ties"]}


# --------------------------------------------------------------------------- Primera A
def test_primera_a_quarter_finals_to_the_champion(season):
    staff = season["staff"]
    playoffs = phases.close_regular_phase(season["a"], staff)
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(playoffs, tie)
    # qf4 3v6: leg 2 missing → undecided: the stage is not closed, nothing is created.
    play(playoffs, "qf4-1", 0, 1)
    with pytest.raises(UserError, match="qf4"):
        phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert playoffs.matches.count() == 8
    assert not AuditLog.objects.filter(action="league.stage_closed").exists()
    # Level 1–1 on aggregate (Tottenham–Ajax-like): closing creates the third match,
    # hosted by the better regular-phase position (t3, 3rd), and nothing else.
    play(playoffs, "qf4-1", 1, 0)  # t6 1–0 t3
    play(playoffs, "qf4-2", 1, 0)  # t3 1–0 t6
    result = phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert result == {"third_matches": ["qf4"], "created": []}
    assert legs_of(playoffs)["qf4-3"] == ("qf4", 3, "t3", "t6")
    # Still undecided until the third match is played (0–0, 5–4 on penalties as 1977).
    with pytest.raises(UserError, match="qf4"):
        phases.advance_stage(playoffs, staff, "a_quarter_finals")
    play(playoffs, "qf4-3", 0, 0, extra_time=True, penalties_home=4, penalties_away=5)
    result = phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert result == {"third_matches": [], "created": ["sf1", "sf2"]}
    legs = legs_of(playoffs)
    # Semi-finals in bracket order: winner qf1 (t1) v winner qf2 (t4); winner qf3 (t2) v
    # winner qf4 (t6, on penalties); the better-placed team hosts the second leg.
    assert legs["sf1-1"] == ("sf1", 1, "t4", "t1")
    assert legs["sf1-2"] == ("sf1", 2, "t1", "t4")
    assert legs["sf2-1"] == ("sf2", 1, "t6", "t2")
    assert legs["sf2-2"] == ("sf2", 2, "t2", "t6")
    assert playoffs.matches.get(code="sf1-1").round == 2
    ties = bracket(playoffs)
    assert [s["team"] for s in ties["sf2"]["slots"]] == ["t2", "t6"]
    assert ties["qf4"]["winner"] == "t6" and ties["qf4"]["decided_by"] == "penalties"
    # Closing again creates nothing new: refused.
    with pytest.raises(UserError, match="closed already"):
        phases.advance_stage(playoffs, staff, "a_quarter_finals")
    higher_seed_wins(playoffs, "sf1")
    play(playoffs, "sf2-1", 3, 0)  # t6 wins 3–1 on aggregate
    play(playoffs, "sf2-2", 1, 0)
    assert phases.advance_stage(playoffs, staff, "a_semi_finals")["created"] == ["final"]
    legs = legs_of(playoffs)
    assert legs["final-1"] == ("final", 1, "t6", "t1")
    assert legs["final-2"] == ("final", 2, "t1", "t6")
    higher_seed_wins(playoffs, "final")
    assert phases.advance_stage(playoffs, staff, "a_final")["created"] == []
    doc = brackets.competition_bracket(playoffs)
    assert doc["outcomes"]["champion_a"]["team"] == "t1"
    assert AuditLog.objects.filter(action="league.stage_closed").count() == 3
    assert AuditLog.objects.filter(action="league.third_matches_created").count() == 1


def test_a_stage_needs_staff_and_a_known_stage(season):
    playoffs = phases.close_regular_phase(season["a"], season["staff"])
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            phases.advance_stage(playoffs, user, "a_quarter_finals")
    for stage in ("a_semi_finals", "nope", ""):
        with pytest.raises(UserError):
            phases.advance_stage(playoffs, season["staff"], stage)
    with pytest.raises(UserError):
        phases.advance_stage(season["a"], season["staff"], "a_quarter_finals")
    assert playoffs.matches.count() == 8
    assert not AuditLog.objects.filter(action="league.stage_closed").exists()


def test_a_friendly_leg_leaves_the_tie_undecided(season):
    playoffs = phases.close_regular_phase(season["a"], season["staff"])
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    Match.objects.filter(competition=playoffs, code="qf2-2").update(stream_url="")
    with pytest.raises(UserError, match="qf2"):
        phases.advance_stage(playoffs, season["staff"], "a_quarter_finals")
    assert playoffs.matches.count() == 8


# --------------------------------------------------------------------------- Primera B
def finish_stage(competition, stage, staff, ties):
    for tie in ties:
        higher_seed_wins(competition, tie)
    return phases.advance_stage(competition, staff, stage)


def test_primera_b_promotion_zones_liguilla_and_next_divisions(client, season):
    staff = season["staff"]
    # Primera B goes first: the title_decider flag marks it.
    post = phases.close_regular_phase(season["b"], staff)
    assert (post.slug, post.kind) == ("t24-primera-b-playoffs", "knockout")
    # 2nd (t18) v 5th (t21), 3rd (t19) v 4th (t20); the better-placed hosts leg 2.
    assert legs_of(post) == {
        "psf1-1": ("psf1", 1, "t21", "t18"),
        "psf1-2": ("psf1", 2, "t18", "t21"),
        "psf2-1": ("psf2", 1, "t20", "t19"),
        "psf2-2": ("psf2", 2, "t19", "t20"),
    }
    ties = bracket(post)
    assert [s["fed_from"] for s in ties["psf1"]["slots"]] == [
        "2nd of Primera B",
        "5th of Primera B",
    ]
    # The promotion semi-finals: the higher seeds win; the losers t21 (5th) and t20 (4th).
    result = finish_stage(post, "b_promotion_semi_finals", staff, ["psf1", "psf2"])
    assert sorted(result["created"]) == sorted(["pfinal", "za_sf1", "za_sf2", "zb_sf1", "zb_sf2"])
    legs = legs_of(post)
    assert legs["pfinal-2"] == ("pfinal", 2, "t18", "t19")
    # Zone A: the better-placed loser (t20, 4th) v 11th (t27), 7th v 8th; Zone B: the
    # worse-placed loser (t21, 5th) v 10th (t26), 6th v 9th.
    assert legs["za_sf1-2"] == ("za_sf1", 2, "t20", "t27")
    assert legs["za_sf2-2"] == ("za_sf2", 2, "t23", "t24")
    assert legs["zb_sf1-2"] == ("zb_sf1", 2, "t21", "t26")
    assert legs["zb_sf2-2"] == ("zb_sf2", 2, "t22", "t25")
    ties = bracket(post)
    assert ties["za_sf1"]["slots"][0]["fed_from"].startswith("better-placed in Primera B of")
    # The Liguilla shows in the bracket, fed from Primera A's table and the zones.
    assert ties["lig3"]["slots"][0]["fed_from"] == "14th of Primera A"
    # The promotion final: t18 wins; Primera A's regular phase is over (the table is
    # closed), so the Liguilla tie of the promotion-final loser is created.
    result = finish_stage(post, "b_promotion_final", staff, ["pfinal"])
    assert result["created"] == ["lig3"]
    assert legs_of(post)["lig3-2"] == ("lig3", 2, "t14", "t19")
    # Zones: semi-finals, then finals; the Liguilla ties 1–2 come when both zones end.
    finish_stage(post, "zone_a_semi_finals", staff, ["za_sf1", "za_sf2"])
    finish_stage(post, "zone_b_semi_finals", staff, ["zb_sf1", "zb_sf2"])
    assert finish_stage(post, "zone_a_final", staff, ["za_final"])["created"] == []
    assert sorted(finish_stage(post, "zone_b_final", staff, ["zb_final"])["created"]) == [
        "lig1",
        "lig2",
    ]
    legs = legs_of(post)
    # Zone winners t20 (A) and t21 (B): 12th of A v the worse-placed (t21), 13th v the
    # better-placed (t20).
    assert legs["lig1-2"] == ("lig1", 2, "t12", "t21")
    assert legs["lig2-2"] == ("lig2", 2, "t13", "t20")
    # Next season's divisions wait for the Liguilla.
    assert phases.season_next_divisions(season["season"])["primera_a"] is None
    # lig1: the Primera B side wins; lig2, lig3: the Primera A side.
    play(post, "lig1-1", 2, 0)  # t21 at home
    play(post, "lig1-2", 0, 0)
    higher_seed_wins(post, "lig2")
    higher_seed_wins(post, "lig3")
    assert phases.advance_stage(post, staff, "liguilla")["created"] == []
    nxt = phases.season_next_divisions(season["season"])
    up = {m["team"] for m in nxt["moves"] if m["to"] == "primera_a"}
    down = {m["team"] for m in nxt["moves"] if m["to"] == "primera_b"}
    assert up == {"t17", "t18", "t21"}
    assert down == {"t15", "t16", "t12"}
    codes_a = [t["team"] for t in nxt["primera_a"]]
    assert len(codes_a) == 16 and set(codes_a) >= up and not set(codes_a) & down
    page = client.get(reverse("leagues:season", kwargs={"slug": "t24"})).content.decode()
    assert "Next season" in page and "Team 21" in page


def test_primera_b_needs_its_table_resolved(season):
    b = season["b"]
    m = b.matches.first()
    Match.objects.filter(pk=m.pk).update(status="scheduled", home_goals=None, away_goals=None)
    with pytest.raises(UserError, match="still to be played"):
        phases.close_regular_phase(b, season["staff"])
    assert not Competition.objects.filter(kind="knockout").exists()


# --------------------------------------------------------------------------- pages
def test_the_stage_button_and_its_permissions(client, season):
    playoffs = phases.close_regular_phase(season["a"], season["staff"])
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    page_url = reverse("leagues:competition", kwargs={"slug": playoffs.slug})
    action = reverse("leagues:competition-advance-stage", kwargs={"slug": playoffs.slug})
    data = {"stage": "a_quarter_finals", "confirm": "1"}
    # Anonymous: sign in first; the public page has no button.
    assert action not in client.get(page_url).content.decode()
    assert client.post(action, data).status_code == 302
    assert playoffs.matches.count() == 8
    # A player without a role: 404; the tribunal: 403.
    client.force_login(UserFactory(username="player"))
    assert client.post(action, data).status_code == 404
    client.force_login(season["tribunal"])
    assert client.post(action, data).status_code == 403
    assert playoffs.matches.count() == 8
    # Staff: the button, then the confirmation is required.
    client.force_login(season["staff"])
    assert action in client.get(page_url).content.decode()
    client.post(action, {"stage": "a_quarter_finals"})
    assert playoffs.matches.count() == 8
    response = client.post(action, data)
    assert response.status_code == 302 and response["Location"].endswith("#bracket")
    assert playoffs.matches.count() == 12
    page = client.get(response["Location"].split("#")[0]).content.decode()
    assert "sf1" in page and "Team 4" in page


def test_pages_cost_bounded_queries(client, season, django_assert_max_num_queries):
    post = phases.close_regular_phase(season["b"], season["staff"])
    finish_stage(post, "b_promotion_semi_finals", season["staff"], ["psf1", "psf2"])
    url = reverse("api-competition-bracket", kwargs={"slug": post.slug})
    # The zones are in: the bracket reads both league tables for the Liguilla's slots.
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(18):
        assert (
            client.get(reverse("leagues:competition", kwargs={"slug": post.slug})).status_code
            == 200
        )
    with django_assert_max_num_queries(16):
        assert client.get(reverse("leagues:season", kwargs={"slug": "t24"})).status_code == 200


# --------------------------------------------------------------------------- demo
def test_the_demo_final_phases_can_be_played_through(client, settings, tmp_path):
    from io import StringIO

    from django.core.management import call_command

    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", stdout=StringIO())
    staff = UserFactory._meta.model.objects.get(username="organiser")
    playoffs = Competition.objects.get(slug="anfpes-t23-primera-a-playoffs")
    post = Competition.objects.get(slug="anfpes-t23-primera-b-playoffs")
    client.force_login(staff)
    action = reverse("leagues:competition-advance-stage", kwargs={"slug": playoffs.slug})
    client.post(action, {"stage": "a_quarter_finals", "confirm": "1"})
    assert legs_of(playoffs)["qf2-3"][0] == "qf2"
    play(playoffs, "qf2-3", 2, 1)
    client.post(action, {"stage": "a_quarter_finals", "confirm": "1"})
    assert {"sf1-1", "sf2-2"} <= set(legs_of(playoffs))
    result = phases.advance_stage(post, staff, "b_promotion_semi_finals")
    assert "pfinal" in result["created"] and "za_sf1" in result["created"]
    page = client.get(reverse("leagues:competition", kwargs={"slug": post.slug}))
    assert page.status_code == 200 and "lig3" in page.content.decode()
    # The demo season's call still answers (idempotent).
    call_command("load_demo", stdout=StringIO())
    assert Competition.objects.filter(season__slug="anfpes-t23").count() == 4


def test_a_cup_from_a_file_only_gets_third_matches(season):
    from tests.leagues.views.test_finals import leg

    cup = {
        "slug": "t24-cup",
        "kind": "knockout",
        "name": "Cup",
        "teams": ["t1", "t2", "t3", "t4"],
        "matches": [
            leg("a1", "semi-a", 1, "t1", "t2", 1, 0, stream=None),
            leg("a2", "semi-a", 2, "t2", "t1", 1, 0, stream=None),
            leg("b1", "semi-b", 1, "t3", "t4", 2, 0, stream=None),
            leg("b2", "semi-b", 2, "t4", "t3", 0, 1, stream=None),
        ],
    }
    data = two_divisions()
    data["slug"] = "t25"
    data["competitions"] = [cup]
    import_season(data)
    competition = Competition.objects.get(slug="t24-cup")
    SeasonRole.objects.create(
        season=competition.season, user=season["staff"], role=SeasonRole.Role.STAFF
    )
    result = phases.advance_stage(competition, season["staff"], "round_1")
    assert result == {"third_matches": ["semi-a"], "created": []}
    # No rank across competitions: the host of leg 2 hosts the third match.
    assert legs_of(competition)["semi-a-3"] == ("semi-a", 3, "t2", "t1")
    Match.objects.filter(competition=competition, code="semi-a-3").update(
        status="played", home_goals=0, away_goals=1
    )
    with pytest.raises(UserError, match="season file"):
        phases.advance_stage(competition, season["staff"], "round_1")
    assert competition.matches.count() == 5


def test_a_level_promotion_semi_final_is_hosted_by_the_better_placed(season):
    post = phases.close_regular_phase(season["b"], season["staff"])
    home_wins(post, "psf2")  # 3rd (t19) v 4th (t20): 1–1
    higher_seed_wins(post, "psf1")
    result = phases.advance_stage(post, season["staff"], "b_promotion_semi_finals")
    assert result["third_matches"] == ["psf2"]
    assert legs_of(post)["psf2-3"] == ("psf2", 3, "t19", "t20")
    assert not post.matches.filter(tie="pfinal").exists()
