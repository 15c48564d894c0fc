"""The ``arbitro.season/1`` file read into dataclasses (docs/contracts.md §5): every problem is
reported with its location. No database."""

import copy
from datetime import date, datetime, timedelta, timezone

import pytest

from leagues.rules import LeagueRuleError
from leagues.rules.season import Adjustment, Card, parse_season

CONTRACT_EXAMPLE = {
    "format": "arbitro.season/1",
    "slug": "t24",
    "name": "Temporada 24",
    "teams": [
        {"id": "t1", "name": "Team 1", "user": "user1"},
        {"id": "t2", "name": "Team 2", "user": "user2"},
    ],
    "competitions": [
        {
            "slug": "t24-primera-a",
            "kind": "league",
            "name": "Primera A",
            "teams": ["t1", "t2"],
            "legs": 2,
            "matches": [
                {
                    "id": "m1",
                    "round": 1,
                    "home": "t1",
                    "away": "t2",
                    "home_goals": 2,
                    "away_goals": 1,
                    "extra_time": None,
                    "penalties": None,
                    "status": "played",
                    "absent": None,
                    "reported_at": "2026-03-02T21:10:00-03:00",
                    "initial_deadline": "2026-03-08T23:59:00-03:00",
                    "final_deadline": "2026-03-11T23:59:00-03:00",
                    "stream_url": None,
                    "cards": [{"team": "t1", "footballer": "N. Surname", "card": "yellow"}],
                }
            ],
            "adjustments": [{"team": "t2", "points": -3, "reason": "walkover m7"}],
        }
    ],
}


def problems_of(data):
    with pytest.raises(LeagueRuleError) as error:
        parse_season(data)
    return error.value.problems


def test_contract_example_reads():
    season = parse_season(CONTRACT_EXAMPLE)
    assert (season.slug, season.name) == ("t24", "Temporada 24")
    assert season.team("t2").user == "user2"
    league = season.competition("t24-primera-a")
    assert (league.kind, league.legs, league.teams) == ("league", 2, ("t1", "t2"))
    (match,) = league.matches
    assert (match.id, match.round, match.home, match.away) == ("m1", 1, "t1", "t2")
    assert (match.home_goals, match.away_goals, match.status) == (2, 1, "played")
    minus_three = timezone(timedelta(hours=-3))
    assert match.reported_at == datetime(2026, 3, 2, 21, 10, tzinfo=minus_three)
    assert match.final_deadline == datetime(2026, 3, 11, 23, 59, tzinfo=minus_three)
    assert match.cards == (Card("t1", "N. Surname", "yellow"),)
    assert league.adjustments == (Adjustment("t2", -3, "walkover m7"),)
    with pytest.raises(KeyError):
        season.team("t9")
    with pytest.raises(KeyError):
        season.competition("nope")


def test_defaults_and_generated_league():
    data = copy.deepcopy(CONTRACT_EXAMPLE)
    league = data["competitions"][0]
    del league["matches"], league["adjustments"], league["legs"]
    league["start"] = "2026-03-01"
    competition = parse_season(data).competitions[0]
    assert competition.matches == () and competition.adjustments == ()
    assert competition.legs == 2 and competition.start == date(2026, 3, 1)


def test_status_is_inferred_from_the_score():
    data = copy.deepcopy(CONTRACT_EXAMPLE)
    match = data["competitions"][0]["matches"][0]
    del match["status"]
    assert parse_season(data).competitions[0].matches[0].status == "played"
    del match["home_goals"], match["away_goals"]
    assert parse_season(data).competitions[0].matches[0].status == "scheduled"


def test_walkover_knockout_and_groups():
    data = copy.deepcopy(CONTRACT_EXAMPLE)
    data["teams"] += [
        {"id": "t3", "name": "Team 3", "user": "user3"},
        {"id": "t4", "name": "Team 4", "user": "user4"},
    ]
    data["competitions"][0]["matches"].append(
        {"id": "m7", "round": 2, "home": "t2", "away": "t1", "status": "walkover", "absent": "home"}
    )
    data["competitions"].append(
        {
            "slug": "cup",
            "kind": "knockout",
            "name": "Cup",
            "teams": ["t1", "t2"],
            "matches": [
                {
                    "id": "k1",
                    "round": 1,
                    "tie": "f",
                    "leg": 3,
                    "home": "t1",
                    "away": "t2",
                    "home_goals": 1,
                    "away_goals": 1,
                    "extra_time": True,
                    "penalties": [5, 4],
                },
            ],
        }
    )
    data["competitions"].append(
        {
            "slug": "champagne",
            "kind": "groups",
            "name": "Champagne League",
            "teams": ["t1", "t2", "t3", "t4"],
            "groups": {"A": ["t1", "t3"], "B": ["t2", "t4"]},
        }
    )
    season = parse_season(data)
    walkover = season.competitions[0].matches[1]
    assert (walkover.status, walkover.absent, walkover.home_goals) == ("walkover", "home", None)
    final = season.competition("cup").matches[0]
    assert (final.tie, final.leg, final.penalties, final.extra_time) == ("f", 3, (5, 4), True)
    assert season.competition("champagne").groups == {"A": ("t1", "t3"), "B": ("t2", "t4")}


def test_every_problem_with_its_location():
    data = copy.deepcopy(CONTRACT_EXAMPLE)
    data["format"] = "arbitro.season/2"
    data["teams"].append({"id": "t1", "name": "Dup", "user": "user1"})
    league = data["competitions"][0]
    league["kind"] = "cup"
    league["legs"] = 0
    league["start"] = "soon"
    match = league["matches"][0]
    match.update(
        home_goals=-1,
        away="t9",
        reported_at="2026-03-02T21:10:00",
        initial_deadline="2026-03-12T23:59:00-03:00",
        penalties=[5],
        cards=[{"team": "t3", "footballer": "", "card": "blue"}],
    )
    league["matches"].append(
        {"id": "m1", "round": 0, "home": "t1", "away": "t1", "status": "walkover", "home_goals": 1}
    )
    league["matches"].append(
        {
            "id": "m3",
            "round": 2,
            "home": "t1",
            "away": "t2",
            "status": "scheduled",
            "home_goals": 1,
            "away_goals": 0,
            "absent": "home",
        }
    )
    league["adjustments"].append({"team": "t7", "points": 1.5, "reason": ""})
    problems = problems_of(data)
    text = "\n".join(problems)
    for expected in [
        "format must be 'arbitro.season/1'",
        "team 3: duplicate team id 't1'",
        "team 3: user 'user1' already has a team",
        "competition t24-primera-a: kind must be one of league, groups, knockout",
        "competition t24-primera-a: legs must be an integer >= 1",
        "competition t24-primera-a: start must be an ISO 8601 date",
        "competition t24-primera-a, match m1: home_goals must be an integer from 0 to 99",
        "competition t24-primera-a, match m1: away team 't9' is not in this competition",
        "competition t24-primera-a, match m1: reported_at needs a UTC offset",
        "competition t24-primera-a, match m1: final_deadline is before initial_deadline",
        "competition t24-primera-a, match m1: penalties must be two integers",
        "competition t24-primera-a, match m1, card 1: team must be one of the two teams",
        "competition t24-primera-a, match m1, card 1: footballer must be a non-empty string",
        "competition t24-primera-a, match m1, card 1: card must be one of yellow, red",
        "round must be an integer >= 1",
        "a team cannot play itself",
        "give both home_goals and away_goals, or neither",
        "a walkover needs absent: home, away or both",
        "a scheduled match cannot have a score",
        "absent is only for walkovers",
        "competition t24-primera-a, adjustment 2: team 't7' is not in this competition",
        "competition t24-primera-a, adjustment 2: points must be an integer",
        "competition t24-primera-a, adjustment 2: reason must be a non-empty string",
    ]:
        assert expected in text, expected


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(teams=[]), "teams must list at least one team"),
        (lambda d: d["competitions"][0].update(teams=["t1", "t1"]), "a team is listed twice"),
        (lambda d: d["competitions"][0].update(teams=["t1", "zz"]), "not among the season's"),
        (
            lambda d: d["competitions"].append(copy.deepcopy(d["competitions"][0])),
            "duplicate competition slug",
        ),
        (
            lambda d: d["competitions"][0]["matches"].append(
                copy.deepcopy(d["competitions"][0]["matches"][0])
            ),
            "duplicate match id",
        ),
        (
            lambda d: d["competitions"][0]["matches"][0].update(
                status="played", home_goals=None, away_goals=None
            ),
            "a played match needs home_goals and away_goals",
        ),
        (
            lambda d: d["competitions"][0]["matches"][0].update(
                status="walkover", absent="away", home_goals=0, away_goals=1
            ),
            "the home team wins",
        ),
        (
            lambda d: d["competitions"][0]["matches"][0].update(status="walkover", absent="home"),
            "the away team wins",
        ),
        (
            lambda d: d["competitions"][0]["matches"][0].update(status="lost"),
            "status must be one of",
        ),
        (lambda d: d["competitions"][0]["matches"][0].update(extra_time="yes"), "extra_time"),
        (
            lambda d: d["competitions"][0]["matches"][0].update(reported_at="yesterday"),
            "is not an ISO 8601 date-time",
        ),
        (
            lambda d: d["competitions"][0]["matches"][0].update(reported_at=5),
            "must be an ISO 8601 date-time string",
        ),
        (lambda d: d["competitions"][0]["matches"][0].update(stream_url=5), "stream_url"),
        (lambda d: d["competitions"][0].update(kind="knockout"), "needs tie"),
        (lambda d: d["competitions"][0].update(kind="groups"), "needs groups"),
        (
            lambda d: d["competitions"][0].update(kind="groups", groups={"A": ["t1"]}),
            "every team must be in exactly one group",
        ),
        (
            lambda d: d["competitions"][0].update(
                kind="groups", groups={"A": ["t1", "t2"], "B": ["t2"]}
            ),
            "a team is in two groups",
        ),
        (lambda d: d["competitions"][0].update(matches=["m1"]), "a match must be an object"),
        (lambda d: d["competitions"].append("x"), "a competition must be an object"),
        (lambda d: d["teams"].append("x"), "a team must be an object"),
    ],
)
def test_single_problems(change, message):
    data = copy.deepcopy(CONTRACT_EXAMPLE)
    change(data)
    assert any(message in p for p in problems_of(data)), problems_of(data)


def test_not_an_object():
    with pytest.raises(LeagueRuleError):
        parse_season(["arbitro.season/1"])
