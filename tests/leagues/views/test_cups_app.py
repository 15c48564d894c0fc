"""Cups in the app (issue 5, ANFPES T24 §2.1–§2.2, §IV.1–§IV.2): closing the Champagne
League group stage into its knockout and the Conference Lag, their later rounds, the
Nucommunity Shit (knockout from a draw, or groups + knockout) and its bonus-points
ledger with reaped users losing it."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues import brackets, cups, phases, staff_decisions
from leagues.models import Competition, CupBonus, Match, Review, SeasonRole
from leagues.rules.draft import draw_lots
from leagues.services import competition_table, import_season
from tests.factories import UserFactory
from tests.leagues.views.test_finals_stages import two_divisions

pytestmark = pytest.mark.django_db

A = "\n".join(f"t{i}" for i in range(1, 17))
B = "\n".join(f"t{i}" for i in range(17, 33))
ORDER = " ".join(f"t{i}" for i in range(1, 33))


def level_order(groups) -> str:
    """The staff order across the groups: only the teams the criteria leave level (the
    service refuses others), in the order of ORDER."""
    from leagues.rules import cups as cup_rules

    tables = cups._group_tables(groups)
    codes = (
        {1: "ns_winners", 2: "ns_runners_up"}
        if staff_decisions.cup_groups(groups) == "nucommunity"
        else cup_rules.POSITION_RANKINGS
    )
    level = {
        str(standing.order[p - 1])
        for place, standing in cup_rules.cross_group_rankings(tables, codes=codes).items()
        if place in codes
        for p in standing.unresolved
    }
    return " ".join(t for t in ORDER.split() if t in level)


@pytest.fixture
def season(db):
    season = import_season(two_divisions())
    staff = UserFactory(username="staff")
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    return {"season": season, "staff": staff, "tribunal": tribunal}


def num(code):
    return int(code[1:])


def draw(season, **extra):
    competition, _draw = cups.champagne_draw(
        season["season"],
        season["staff"],
        base="pasted",
        primera_a=A,
        primera_b=B,
        method="seed",
        seed="cl-2026",
        **extra,
    )
    return competition


def play_groups(competition, goals=num):
    """Every group match won by the lower-numbered team, scoring ``goals(winner)``."""
    matches = list(competition.matches.select_related("home", "away"))
    for m in matches:
        home_wins = num(m.home.code) < num(m.away.code)
        winner = m.home.code if home_wins else m.away.code
        g = goals(winner)
        m.status = "played"
        m.home_goals, m.away_goals = (g, 0) if home_wins else (0, g)
    Match.objects.bulk_update(matches, ["status", "home_goals", "away_goals"])


def legs_of(competition):
    return {
        m.code: (m.tie, m.leg, m.home.code, m.away.code)
        for m in competition.matches.select_related("home", "away")
    }


def play(competition, code, home_goals, away_goals, **extra):
    assert Match.objects.filter(competition=competition, code=code).update(
        status="played", home_goals=home_goals, away_goals=away_goals, **extra
    )


def seed_wins(competition, tie):
    """The host of leg 2 (the better seed) wins 2–0 on aggregate."""
    play(competition, f"{tie}-1", 0, 1)
    play(competition, f"{tie}-2", 1, 0)


def ranked(competition, place):
    """Teams at group ``place`` ranked across the groups as §2.2 says (points, goal
    difference, goals for, wins), from the public table documents."""
    doc = competition_table(competition)
    rows = [g["rows"][place - 1] for g in doc["groups"].values()]
    rows.sort(
        key=lambda r: (
            -r["points"],
            -r["goal_difference"],
            -r["goals_for"],
            -r["won"],
            num(r["team"]),  # the staff order ORDER below, for teams equal on everything
        )
    )
    return [r["team"] for r in rows]


def nothing_created():
    return not Competition.objects.filter(kind="knockout").exists() and not (
        AuditLog.objects.filter(action="league.group_stage_closed").exists()
    )


# --------------------------------------------------------------------------- Champagne
def test_closing_the_groups_creates_the_knockout_and_the_conference_lag(season):
    groups = draw(season)
    play_groups(groups)
    knockout, conference = cups.close_group_stage(
        groups, season["staff"], order_across=level_order(groups)
    )
    assert (knockout.slug, conference.slug) == (
        "t24-champagne-knockout",
        "t24-champagne-conference",
    )
    assert knockout.kind == conference.kind == "knockout"
    assert not knockout.counts_for_compliance and knockout.legs == 2
    winners, runners_up = ranked(groups, 1), ranked(groups, 2)
    thirds, fourths = ranked(groups, 3), ranked(groups, 4)
    legs = legs_of(knockout)
    assert len(legs) == 16
    for k in range(1, 9):
        # Best winner v worst runner-up …; the better seed (the winner) hosts leg 2.
        assert legs[f"cl_round_of_16_{k}-2"] == (
            f"cl_round_of_16_{k}",
            2,
            winners[k - 1],
            runners_up[8 - k],
        )
        assert legs_of(conference)[f"conf_round_of_16_{k}-2"][2:] == (
            thirds[k - 1],
            fourths[8 - k],
        )
    doc = brackets.competition_bracket(knockout)
    tie1 = doc["ties"][0]
    assert [s["fed_from"] for s in tie1["slots"]] == [
        "1st of the Champagne League group winners",
        "8th of the Champagne League runners-up",
    ]
    # Later rounds are shown, fed from the first: winner of tie 1 v winner of tie 8.
    qf1 = next(t for t in doc["ties"] if t["id"] == "cl_quarter_finals_1")
    assert [s["fed_from"] for s in qf1["slots"]] == [
        "winner of cl_round_of_16_1",
        "winner of cl_round_of_16_8",
    ]
    assert doc["stages"][0]["name"] == "Champagne League: round of 16"
    # The group stage says where its knockouts are; closing it again is refused.
    groups.refresh_from_db()
    assert staff_decisions.knockouts(groups) == [knockout.slug, conference.slug]
    with pytest.raises(UserError, match="closed already"):
        cups.close_group_stage(groups, season["staff"])
    entry = AuditLog.objects.get(action="league.group_stage_closed")
    assert entry.after[knockout.slug]["rankings"]["cl_winners"] == winners

    # Later rounds: the existing stage closing. A level tie first gets its third match,
    # hosted by the better cup position (the group winner, §2.2).
    for k in range(1, 8):
        seed_wins(knockout, f"cl_round_of_16_{k}")
    play(knockout, "cl_round_of_16_8-1", 1, 0)  # runner-up at home wins
    play(knockout, "cl_round_of_16_8-2", 1, 0)  # winner at home wins: 1–1
    result = phases.advance_stage(knockout, season["staff"], "cl_round_of_16")
    assert result == {"third_matches": ["cl_round_of_16_8"], "created": []}
    assert legs_of(knockout)["cl_round_of_16_8-3"][2] == winners[7]
    play(knockout, "cl_round_of_16_8-3", 0, 0, extra_time=True, penalties_home=4, penalties_away=5)
    result = phases.advance_stage(knockout, season["staff"], "cl_round_of_16")
    assert result["created"] == [f"cl_quarter_finals_{k}" for k in range(1, 5)]
    legs = legs_of(knockout)
    # qf1: winner of tie 1 (best winner) v winner of tie 8 (the runner-up, on penalties).
    assert legs["cl_quarter_finals_1-2"][2:] == (winners[0], runners_up[0])
    assert knockout.matches.get(code="cl_quarter_finals_1-1").round == 2
    for k in range(1, 5):
        seed_wins(knockout, f"cl_quarter_finals_{k}")
    assert phases.advance_stage(knockout, season["staff"], "cl_quarter_finals")["created"] == [
        "cl_semi_finals_1",
        "cl_semi_finals_2",
    ]
    for k in (1, 2):
        seed_wins(knockout, f"cl_semi_finals_{k}")
    assert phases.advance_stage(knockout, season["staff"], "cl_semi_finals")["created"] == [
        "cl_final"
    ]
    seed_wins(knockout, "cl_final")
    assert phases.advance_stage(knockout, season["staff"], "cl_final")["created"] == []
    doc = brackets.competition_bracket(knockout)
    assert doc["outcomes"]["cl_champion"]["team"] == winners[0]
    # Cup legs count without a stream link (§1.4 is for the league final phases).
    assert not doc["require_stream"] and doc["cup"]


def test_the_group_stage_is_refused_while_open_or_tied(season):
    groups = draw(season)
    staff = season["staff"]
    # Matches remain.
    with pytest.raises(UserError, match="still to be played"):
        cups.close_group_stage(groups, staff)
    # Every winner 1–0: the group tables are clear, but the teams of one position are
    # equal on every criterion across the groups → staff give the order.
    play_groups(groups, goals=lambda team: 1)
    with pytest.raises(UserError, match="equal on every criterion"):
        cups.close_group_stage(groups, staff)
    assert nothing_created()
    # A tie inside a group needing a staff decision: refused too.
    m = groups.matches.filter(group="A").select_related("home", "away").first()
    Match.objects.filter(pk=m.pk).update(home_goals=0, away_goals=0)
    others = groups.matches.filter(group="A").exclude(pk=m.pk)
    others.update(home_goals=0, away_goals=0)
    with pytest.raises(UserError, match="Group A"):
        cups.close_group_stage(groups, staff)
    assert nothing_created()
    # Not a group stage; no role.
    with pytest.raises(UserError):
        cups.close_group_stage(Competition.objects.get(slug="t24-primera-a"), staff)
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            cups.close_group_stage(groups, user)
    assert nothing_created()


def test_staff_order_teams_equal_across_groups(season):
    groups = draw(season)
    play_groups(groups, goals=lambda team: 1)
    order = level_order(groups)
    knockout, _conference = cups.close_group_stage(groups, season["staff"], order_across=order)
    # Group winners are t1…t8 (pot 1), ranked by the staff order: t1 best; runners-up
    # t9…t16: t16 worst → t1 v t16.
    assert legs_of(knockout)["cl_round_of_16_1-2"][2:] == ("t1", "t16")


def test_the_close_button_and_its_permissions(client, season, django_assert_max_num_queries):
    groups = draw(season)
    play_groups(groups)
    page = reverse("leagues:competition", kwargs={"slug": groups.slug})
    action = reverse("leagues:competition-close-group-stage", kwargs={"slug": groups.slug})
    data = {"confirm": "1", "order_across": level_order(groups)}
    assert action not in client.get(page).content.decode()
    assert client.post(action, data).status_code == 302
    client.force_login(UserFactory(username="player"))
    assert client.post(action, data).status_code == 404
    client.force_login(season["tribunal"])
    assert action not in client.get(page).content.decode()
    assert client.post(action, data).status_code == 403
    assert nothing_created()
    client.force_login(season["staff"])
    assert action in client.get(page).content.decode()
    client.post(action, {})  # no confirmation
    assert nothing_created()
    response = client.post(action, data)
    assert response["Location"] == reverse(
        "leagues:competition", kwargs={"slug": "t24-champagne-knockout"}
    )
    with django_assert_max_num_queries(12):
        html = client.get(response["Location"]).content.decode()
    assert "Champagne League: round of 16" in html and "cl_quarter_finals_1" in html
    html = client.get(page).content.decode()
    assert "t24-champagne-conference" in html
    staff_page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"})
    with django_assert_max_num_queries(12):
        html = client.get(staff_page + "?c=t24-champagne-conference").content.decode()
    assert "conf_round_of_16_1" in html and "Set a slot by hand" in html


# --------------------------------------------------------------------------- Nucommunity
def test_a_nucommunity_knockout_from_a_seeded_draw(season):
    entrants = [f"t{i}" for i in range(1, 9)]
    competition, record = cups.nucommunity_create(
        season["season"], season["staff"], format="knockout", teams=entrants, seed="ns-1"
    )
    drawn = list(draw_lots(entrants, "ns-1").order)
    assert record["order"] == drawn and record["seed"] == "ns-1"
    assert competition.kind == "knockout" and competition.counts_for_compliance
    legs = legs_of(competition)
    assert len(legs) == 8
    # Drawn 1st v 2nd, 3rd v 4th …; the earlier drawn hosts leg 2.
    assert legs["ns_quarter_finals_1-2"][2:] == (drawn[0], drawn[1])
    assert legs["ns_quarter_finals_4-2"][2:] == (drawn[6], drawn[7])
    for k in range(1, 5):
        seed_wins(competition, f"ns_quarter_finals_{k}")
    result = phases.advance_stage(competition, season["staff"], "ns_quarter_finals")
    assert result["created"] == ["ns_semi_finals_1", "ns_semi_finals_2"]
    # Neighbours: winner of tie 1 v winner of tie 2.
    assert legs_of(competition)["ns_semi_finals_1-2"][2:] == (drawn[0], drawn[2])
    assert cups.nucommunity_draws(season["season"])[0]["competition"] == competition.slug
    # Only the first phase counts for the compliance table (ANFPES T24 §IV.1).
    # (Its legs have deadlines since issue 14: the counted fixtures are the quarter-finals.)
    from leagues.services import compliance_inputs

    inputs = compliance_inputs(season["season"])
    mine = [f.id for f in inputs.fixtures if f.id.startswith(f"{competition.slug}/")]
    assert len(mine) == 8 and all("quarter" in f for f in mine)


def test_a_nucommunity_groups_and_knockout(season):
    entrants = [f"t{i}" for i in range(1, 17)]
    groups, record = cups.nucommunity_create(
        season["season"],
        season["staff"],
        format="groups_knockout",
        teams=entrants,
        groups=4,
        legs=1,
        seed="ns-g",
    )
    assert groups.kind == "groups" and groups.counts_for_compliance
    assert record["first_phase"] == "ns_groups"
    lot = draw_lots(entrants, "ns-g").order
    assert record["groups"]["A"] == [lot[0], lot[4], lot[8], lot[12]]
    assert groups.matches.count() == 4 * 6
    play_groups(groups)
    (knockout,) = cups.close_group_stage(groups, season["staff"], order_across=level_order(groups))
    assert knockout.slug == "t24-nucommunity-knockout" and not knockout.counts_for_compliance
    winners, runners_up = ranked(groups, 1), ranked(groups, 2)
    assert legs_of(knockout)["ns_quarter_finals_1-2"][2:] == (winners[0], runners_up[3])


def test_a_live_nucommunity_draw_and_bad_input(season):
    s, staff = season["season"], season["staff"]
    competition, record = cups.nucommunity_create(
        s, staff, format="knockout", teams="t4 t3 t2 t1", method="manual", order="t2 t4 t1 t3"
    )
    assert record["seed"] is None
    assert legs_of(competition)["ns_semi_finals_1-2"][2:] == ("t2", "t4")
    before = Competition.objects.count(), Match.objects.count()
    cases = [
        dict(format="knockout", teams="t1 t2 t3"),  # not a power of two
        dict(format="knockout", teams="t1 t2 t99 t3"),
        dict(format="knockout", teams="t1 t1 t2 t3"),
        dict(format="cup", teams="t1 t2"),
        dict(format="knockout", teams="t5 t6", method="guess"),
        dict(format="knockout", teams="t5 t6", method="manual", order="t5"),
        dict(format="knockout", teams="t5 t6", slug="t24-nucommunity"),  # taken
        dict(format="groups_knockout", teams=" ".join(f"t{i}" for i in range(1, 13)), groups=3),
        dict(
            format="groups_knockout",
            teams="t1 t2 t3 t4",
            groups=2,
            method="manual",
            order=[("t1", "A"), ("t2", "A"), ("t3", "A"), ("t4", "B")],
        ),
        dict(format="knockout", teams="t5 t6", legs=3, slug="x-ns"),
        # No groups at all (a tampered form): an error, not a division by zero.
        dict(format="groups_knockout", teams=" ".join(f"t{i}" for i in range(1, 17)), groups=0),
    ]
    for kwargs in cases:
        with pytest.raises(UserError):
            cups.nucommunity_create(s, staff, **kwargs)
    assert (Competition.objects.count(), Match.objects.count()) == before
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            cups.nucommunity_create(s, user, format="knockout", teams="t5 t6", slug="y-ns")
    assert AuditLog.objects.filter(action=cups.NUCOMMUNITY_DRAW).count() == 1


def test_the_nucommunity_page_and_its_permissions(client, season, django_assert_max_num_queries):
    url = reverse("leagues:staff-nucommunity", kwargs={"slug": "t24"})
    data = {"format": "knockout", "teams": "t1 t2 t3 t4", "method": "seed", "seed": "7"}
    assert client.get(url).status_code == 302
    client.force_login(UserFactory(username="player"))
    assert client.post(url, data).status_code == 404
    client.force_login(season["tribunal"])
    assert client.post(url, data).status_code == 403
    assert not Competition.objects.filter(slug="t24-nucommunity").exists()
    client.force_login(season["staff"])
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200
    response = client.post(url, data | {"groups": "many"})
    assert response.status_code == 400
    response = client.post(url, data)
    assert response["Location"] == reverse(
        "leagues:competition", kwargs={"slug": "t24-nucommunity"}
    )
    with django_assert_max_num_queries(10):
        page = client.get(url).content.decode()
    assert "seed 7" in page


# --------------------------------------------------------------------------- bonus points
def test_bonus_points_and_reaped_users_losing_them(client, season, monkeypatch):
    s, staff = season["season"], season["staff"]
    cups.add_cup_bonus(s, staff, team="t1", points=3, reason="NS round of 16")
    cups.add_cup_bonus(s, staff, team="t2", points="5", reason="NS winner")
    cups.add_cup_bonus(s, staff, team="t1", points=-1, reason="correction")
    rows = {r["team"]: r for r in cups.season_cup_bonus(s)}
    assert rows["t1"]["payable"] == 2 and rows["t2"]["payable"] == 5
    assert AuditLog.objects.filter(action="league.cup_bonus").count() == 3
    # Bad input: nothing saved.
    for kwargs in (
        dict(team="t1", points=2, reason=" "),
        dict(team="t1", points="two", reason="x"),
        dict(team="t1", points=0, reason="x"),
        dict(team="t99", points=1, reason="x"),
    ):
        with pytest.raises(UserError):
            cups.add_cup_bonus(s, staff, **kwargs)
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            cups.add_cup_bonus(s, user, team="t1", points=1, reason="x")
    assert CupBonus.objects.count() == 3

    # A season-end review reaped user2 (team t2): its bonus is lost (§IV.2).
    class Row:
        def __init__(self, user, loses):
            self.user, self.loses_cup_bonus = user, loses

    class Table:
        rows = (Row("user1", False), Row("user2", True))

    Review.objects.create(season=s, kind="season_end", at=timezone.now())
    monkeypatch.setattr(cups, "season_compliance_table", lambda season: Table())
    rows = {r["team"]: r for r in cups.season_cup_bonus(s)}
    assert (rows["t2"]["earned"], rows["t2"]["forfeited"], rows["t2"]["payable"]) == (5, 5, 0)
    assert rows["t2"]["reaped"] and rows["t1"]["payable"] == 2
    html = client.get(reverse("leagues:cup-bonus", kwargs={"slug": "t24"})).content.decode()
    assert "reaped at season end" in html and "Team 2" in html
    # The ledger shows each entry with its reason: the correction is not netted away.
    ledger = cups.cup_bonus_ledger(s)
    assert [(e["team"], e["points"], e["reason"]) for e in ledger] == [
        ("t1", 3, "NS round of 16"),
        ("t2", 5, "NS winner"),
        ("t1", -1, "correction"),
    ]
    assert "NS round of 16" in html and "correction" in html and "+3" in html and ">-1<" in html
    season_page = client.get(reverse("leagues:season", kwargs={"slug": "t24"})).content.decode()
    assert reverse("leagues:cup-bonus", kwargs={"slug": "t24"}) in season_page


def test_the_bonus_form_and_its_permissions(client, season, django_assert_max_num_queries):
    url = reverse("leagues:staff-cup-bonus", kwargs={"slug": "t24"})
    data = {"team": "t3", "points": "4", "reason": "NS final"}
    assert client.post(url, data).status_code == 302
    client.force_login(UserFactory(username="player"))
    assert client.post(url, data).status_code == 404
    client.force_login(season["tribunal"])
    assert client.post(url, data).status_code == 403
    assert not CupBonus.objects.exists()
    client.force_login(season["staff"])
    client.post(url, data | {"reason": ""})
    assert not CupBonus.objects.exists()
    assert client.post(url, data).status_code == 302
    assert CupBonus.objects.get().points == 4
    public = reverse("leagues:cup-bonus", kwargs={"slug": "t24"})
    with django_assert_max_num_queries(6):
        assert client.get(public).status_code == 200


# --------------------------------------------------------------------------- demo
def test_the_demo_champagne_group_stage_can_be_closed(client, settings, tmp_path):
    from io import StringIO

    from django.core.management import call_command

    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", stdout=StringIO())
    groups = Competition.objects.get(slug="anfpes-t23-cups-champagne")
    assert not groups.matches.filter(status="scheduled").exists()
    client.force_login(UserFactory._meta.model.objects.get(username="organiser"))
    action = reverse("leagues:competition-close-group-stage", kwargs={"slug": groups.slug})
    response = client.post(action, {"confirm": "1"})
    assert response["Location"].endswith("/anfpes-t23-cups-champagne-knockout/")
    knockout = Competition.objects.get(slug="anfpes-t23-cups-champagne-knockout")
    assert knockout.matches.count() == 16
    assert (
        Competition.objects.get(slug="anfpes-t23-cups-champagne-conference").matches.count() == 16
    )
    call_command("load_demo", stdout=StringIO())
    assert Competition.objects.filter(season__slug="anfpes-t23-cups").count() == 3


def test_the_nucommunity_draw_takes_active_teams_only(season):
    """Issue 14: a suspended or expelled team (§III.4) neither enters by default nor when
    listed; the draw then takes the active teams."""
    from leagues.models import Team

    s, staff = season["season"], season["staff"]
    Team.objects.filter(season=s, code="t31").update(status="suspended")
    Team.objects.filter(season=s, code="t32").update(status="expelled")
    for listed in ("t1 t2 t3 t31", "t1 t2 t3 t32"):
        with pytest.raises(UserError, match="Only active teams"):
            cups.nucommunity_create(s, staff, format="knockout", teams=listed, seed="x")
    assert not Competition.objects.filter(slug="t24-nucommunity").exists()
    Team.objects.filter(season=s, code__in=[f"t{i}" for i in range(17, 31)]).update(
        status="expelled"
    )  # 16 active teams left: t1…t16
    competition, record = cups.nucommunity_create(s, staff, format="knockout", seed="x")
    assert sorted(record["entrants"], key=num) == [f"t{i}" for i in range(1, 17)]
