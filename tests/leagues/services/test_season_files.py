"""Season files through the database (docs/contracts.md §5): import the real 2011-12 Premier
League, export it back, import a broken file (all or nothing, every problem located), and
a league given without matches gets its fixtures and deadlines (docs/leagues.md
"Fixtures and deadlines")."""

import copy
import json
from collections import Counter
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command

from events.models import AuditLog
from leagues.models import Adjustment, Card, Competition, Entry, Match, Season, Team
from leagues.rules.errors import LeagueRuleError
from leagues.rules.fixtures import longest_venue_run, round_robin
from leagues.rules.season import parse_season
from leagues.services import export_season, import_season
from tests.factories import UserFactory
from tests.leagues.seasons import EPL, sixteen, small_season

CHILE = ZoneInfo("America/Santiago")

pytestmark = pytest.mark.django_db


@pytest.fixture
def epl_file():
    return json.loads(EPL.read_text("utf-8"))


# --------------------------------------------------------------------------- import
def test_import_the_real_premier_league(epl_file):
    season = import_season(epl_file)
    assert season.slug == "epl-2011-12" and season.teams.count() == 20
    league = Competition.objects.get(slug="epl-2011-12-league")
    assert league.kind == "league" and league.legs == 2 and league.counts_for_compliance
    assert league.tie_breakers == [
        "points",
        "goal_difference",
        "goals_for",
        "won",
        "fewest_no_shows",
    ]
    assert league.matches.count() == 380
    assert league.matches.filter(status="played").count() == 380
    assert list(league.entries.values_list("team__code", flat=True)) == [
        f"t{i}" for i in range(1, 21)
    ]
    m1 = league.matches.get(code="m1")
    assert (m1.home.code, m1.away.code, m1.home_goals, m1.away_goals) == ("t3", "t20", 1, 2)
    assert m1.reported_at == datetime.fromisoformat("2011-08-13T20:00:00+00:00")
    entry = AuditLog.objects.get(action="season.import")
    assert entry.event is None and entry.target == "epl-2011-12"
    assert entry.after["matches"] == 380


def test_import_keeps_every_field(db):
    account = UserFactory(username="user2")
    season = import_season(small_season())
    assert Team.objects.get(season=season, code="t2").user == account
    assert Team.objects.get(season=season, code="t1").user is None  # no such account yet
    m1 = Match.objects.get(competition__slug="t24-primera-a", code="m1")
    assert m1.stream_url == "https://twitch.tv/x"
    assert m1.initial_deadline == datetime(2026, 3, 8, 23, 59, tzinfo=CHILE)
    assert list(Card.objects.filter(match=m1).values_list("footballer", "card")) == [
        ("N. Surname", "yellow"),
        ("A. Other", "red"),
    ]
    m2 = Match.objects.get(competition__slug="t24-primera-a", code="m2")
    assert (m2.status, m2.absent, m2.home_goals) == ("walkover", "away", None)
    assert Adjustment.objects.get().reason == "walkover m2"
    groups = Entry.objects.filter(competition__slug="t24-champagne")
    assert dict(groups.values_list("team__code", "group")) == {
        "t1": "A",
        "t2": "A",
        "t3": "B",
        "t4": "B",
    }
    assert Match.objects.get(code="g2").group == "B"
    k3 = Match.objects.get(code="k3")
    assert (k3.tie, k3.leg, k3.extra_time, k3.penalties_home, k3.penalties_away) == (
        "f1",
        3,
        [0, 0],
        5,
        4,
    )
    cup = Competition.objects.get(slug="t24-cup")
    # knockouts do not count (ANFPES T24 §IV; docs/leagues.md "Compliance table")
    assert not cup.counts_for_compliance


def test_an_existing_season_needs_replace(db):
    import_season(small_season())
    with pytest.raises(LeagueRuleError) as error:
        import_season(small_season())
    assert error.value.problems == ("season: a season 't24' exists; use --replace to replace it",)
    changed = small_season()
    changed["name"] = "Temporada 24 (bis)"
    season = import_season(changed, replace=True)
    assert Season.objects.get().name == "Temporada 24 (bis)"
    assert Match.objects.filter(competition__season=season).count() == 8
    assert AuditLog.objects.filter(action="season.replace", target="t24").count() == 1


def test_a_competition_slug_of_another_season_is_a_problem(db):
    import_season(small_season())
    other = small_season()
    other["slug"] = "t25"
    with pytest.raises(LeagueRuleError) as error:
        import_season(other)
    assert "competition t24-primera-a: the slug is used by season 't24'" in error.value.problems
    assert Season.objects.count() == 1


# --------------------------------------------------------------------------- all or nothing
def test_a_broken_file_saves_nothing_and_locates_every_problem(epl_file):
    broken = copy.deepcopy(epl_file)
    broken["slug"] = "epl 2011/12"  # not usable in an address
    league = broken["competitions"][0]
    league["matches"][6]["home_goals"] = -1  # m7
    league["matches"][41]["away"] = "t99"  # m42
    league["matches"][99]["status"] = "abandoned"  # m100
    league["tie_breakers"] = ["goal_difference", "points"]
    broken["teams"][3]["user"] = "user1"  # two teams for one player
    with pytest.raises(LeagueRuleError) as error:
        import_season(broken)
    problems = error.value.problems
    for expected in [
        "competition epl-2011-12-league, match m7: home_goals must be an integer from 0 to 99",
        "competition epl-2011-12-league, match m42: away team 't99' is not in this competition",
        "competition epl-2011-12-league, match m100: status must be one of "
        "scheduled, played, walkover, void",
        "team 4: user 'user1' already has a team (one team per user)",
        "season: slug must be letters, digits, hyphens and underscores (1–80)",
        "competition epl-2011-12-league: the tie-breakers must start with points",
    ]:
        assert expected in problems
    assert len(problems) == 6
    assert Season.objects.count() == Team.objects.count() == Match.objects.count() == 0
    assert not AuditLog.objects.exists()


def test_a_database_problem_rolls_back_everything(db, monkeypatch):
    """Even a failure after rows were written leaves nothing behind (one transaction)."""
    from leagues import services

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(services.Adjustment.objects, "bulk_create", fail)
    with pytest.raises(RuntimeError):
        import_season(small_season())
    assert Season.objects.count() == Team.objects.count() == Match.objects.count() == 0


# --------------------------------------------------------------------------- export
def test_round_trip_import_export_import(epl_file):
    season = import_season(epl_file)
    exported = export_season(season)
    assert parse_season(exported) == parse_season(epl_file)
    again = import_season(json.loads(json.dumps(exported)), replace=True)
    assert export_season(again) == exported


def test_round_trip_of_every_field(db):
    original = small_season()
    exported = export_season(import_season(original))
    assert parse_season(exported) == parse_season(original)
    m1 = exported["competitions"][0]["matches"][0]
    assert m1["reported_at"] == "2026-03-02T21:10:00-03:00"
    assert "home_goals" not in exported["competitions"][0]["matches"][2]  # unplayed
    assert exported["competitions"][1]["groups"] == {"A": ["t1", "t2"], "B": ["t3", "t4"]}
    assert exported["time_zone"] == "America/Santiago"
    assert export_season(import_season(exported, replace=True)) == exported


def test_export_reads_a_bounded_number_of_queries(epl_file, django_assert_max_num_queries):
    season = import_season(epl_file)
    with django_assert_max_num_queries(7):  # 7: the teams' squads
        export_season(season)


def test_a_teams_squad_is_an_optional_key_of_the_file():
    """docs/leagues.md "Squads": the file keeps its shape; a team may carry ``squad``,
    imported with its constraints, its typed cards linked to the squad footballer, and
    exported back; a file without squads exports without the key."""
    assert "squad" not in export_season(import_season(small_season()))["teams"][0]
    data = small_season()
    data["teams"][0]["squad"] = [{"name": "N.  Surname", "number": 7}, {"name": "K. Dós"}]
    season = import_season(data, replace=True)
    doc = export_season(season)
    assert doc["teams"][0]["squad"] == [{"name": "N. Surname", "number": 7}, {"name": "K. Dós"}]
    card = Card.objects.get(team__code="t1", footballer="N. Surname")
    assert card.squad.number == 7  # the file's typed card is the squad footballer's
    assert parse_season(doc) == parse_season(data)
    for squad, problem in (
        ([{"name": "A"}, {"name": "a"}], "team 1, squad 2: a is listed twice"),
        ([{"name": "A", "number": 7}, {"name": "B", "number": 7}], "number 7 is listed twice"),
        ([{"name": "A", "number": 100}], "team 1, squad 1: number must be a whole number"),
        ([{"name": ""}], "team 1, squad 1: name must be a text"),
        ("N. Surname", "team 1: squad must be a list"),
    ):
        bad = small_season()
        bad["teams"][0]["squad"] = squad
        with pytest.raises(LeagueRuleError) as refused:
            import_season(bad, replace=True)
        assert any(problem in p for p in refused.value.problems), refused.value.problems


# --------------------------------------------------------------------------- generation
def test_a_league_without_matches_gets_its_double_round_robin(db):
    season = import_season(sixteen())
    matches = list(Match.objects.filter(competition__season=season).select_related("home", "away"))
    assert len(matches) == 240  # 16 × 15
    assert {m.round for m in matches} == set(range(1, 31))
    assert Counter(m.round for m in matches) == dict.fromkeys(range(1, 31), 8)
    assert len({(m.home.code, m.away.code) for m in matches}) == 240  # each venue once
    assert {m.status for m in matches} == {"scheduled"}
    assert [m.code for m in sorted(matches, key=lambda m: m.pk)][:3] == ["m1", "m2", "m3"]
    # Same order as the pure rule (Berger, last two rounds of the first half swapped).
    expected = round_robin([f"t{i}" for i in range(1, 17)], 2)
    assert [(m.round, m.home.code, m.away.code) for m in sorted(matches, key=lambda m: m.pk)] == [
        (p.round, p.home, p.away) for day in expected for p in day.pairings
    ]
    assert longest_venue_run(expected) == 2
    # Deadlines: matchday k starts start + 7(k−1) days; initial +7 days, final +3, 23:59.
    first = [m for m in matches if m.round == 1]
    assert {m.initial_deadline for m in first} == {datetime(2026, 3, 8, 23, 59, tzinfo=CHILE)}
    assert {m.final_deadline for m in first} == {datetime(2026, 3, 11, 23, 59, tzinfo=CHILE)}
    # Chile is at -04:00 from 2026-04-05 to 2026-09-06: still 23:59 local time.
    tenth = {m.initial_deadline for m in matches if m.round == 10}
    assert tenth == {datetime.fromisoformat("2026-05-10T23:59:00-04:00")}
    last = {m.final_deadline for m in matches if m.round == 30}
    assert last == {datetime.fromisoformat("2026-09-30T23:59:00-03:00")}
    assert Competition.objects.get().start == date(2026, 3, 1)


def test_generated_fixtures_appear_in_the_export(db):
    exported = export_season(import_season(sixteen()))
    league = exported["competitions"][0]
    assert league["start"] == "2026-03-01" and len(league["matches"]) == 240
    assert league["matches"][0]["initial_deadline"] == "2026-03-08T23:59:00-03:00"
    assert league["matches"][0]["status"] == "scheduled"
    # Re-importing the export keeps the fixtures instead of generating them again.
    again = import_season(exported, replace=True)
    assert export_season(again) == exported


def test_generation_without_start_has_no_deadlines(db):
    import_season(sixteen(start=None))
    assert Match.objects.count() == 240
    assert not Match.objects.filter(initial_deadline__isnull=False).exists()


def test_generated_deadlines_follow_the_season_time_zone(db):
    data = sixteen()
    data["time_zone"] = "Europe/Madrid"
    import_season(data)
    m1 = Match.objects.get(code="m1")
    assert m1.initial_deadline == datetime(2026, 3, 8, 23, 59, tzinfo=ZoneInfo("Europe/Madrid"))


def test_an_unknown_time_zone_is_a_located_problem(db):
    data = sixteen()
    data["time_zone"] = "Mars/Olympus"
    with pytest.raises(LeagueRuleError) as error:
        import_season(data)
    assert error.value.problems == (
        "season: time_zone 'Mars/Olympus' is not an IANA time zone name",
    )


# --------------------------------------------------------------------------- commands
def test_import_and_export_commands(tmp_path, capsys, db):
    call_command("import_season", str(EPL))
    assert "imported epl-2011-12: 20 teams, 1 competitions, 380 matches" in capsys.readouterr().out
    call_command("export_season", "epl-2011-12")
    printed = json.loads(capsys.readouterr().out)
    assert parse_season(printed) == parse_season(json.loads(EPL.read_text("utf-8")))
    with pytest.raises(CommandError, match=r"1 problem\(s\); nothing was imported"):
        call_command("import_season", str(EPL))
    assert "season: a season 'epl-2011-12' exists; use --replace" in capsys.readouterr().err
    call_command("import_season", str(EPL), "--replace")
    with pytest.raises(CommandError, match="no season 'nope'"):
        call_command("export_season", "nope")


def test_import_command_prints_every_problem(tmp_path, capsys, db):
    data = small_season()
    data["competitions"][0]["matches"][0]["home"] = "t1"
    data["competitions"][0]["matches"][0]["away"] = "t1"
    data["competitions"][0]["adjustments"][0]["reason"] = ""
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(CommandError, match=r"3 problem\(s\); nothing was imported"):
        call_command("import_season", str(path))
    err = capsys.readouterr().err
    assert "competition t24-primera-a, match m1: a team cannot play itself" in err
    assert "competition t24-primera-a, adjustment 1: reason must be a non-empty string" in err
    assert Season.objects.count() == 0
    path.write_text("{not json", "utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_season", str(path))
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_season", str(tmp_path / "missing.json"))


def test_a_season_without_competitions_imports_its_teams(db):
    data = small_season()
    del data["competitions"]
    season = import_season(data)
    assert season.teams.count() == 4 and not season.competitions.exists()
    assert "competitions" in export_season(season)


def test_not_an_object_is_a_problem(db):
    with pytest.raises(LeagueRuleError) as error:
        import_season(["format", "arbitro.season/1"])
    assert error.value.problems == ("the season file must be a JSON object",)
