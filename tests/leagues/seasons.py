"""Season files for the league tests (``arbitro.season/1``, docs/contracts.md §5)."""

from pathlib import Path

DATA = Path(__file__).parent / "rules" / "data"
EPL = DATA / "season-epl-2011-12.json"
"""The real 2011-12 Premier League (see ``tests/leagues/rules/data/README-epl.md``)."""
EPL_TABLE = DATA / "expected-epl-2011-12.table.json"


def small_season(**competition):
    """Four teams, one league with a played match, a walkover with its ledger entry, cards,
    plus a group stage and a knockout tie."""
    teams = [{"id": f"t{i}", "name": f"Team {i}", "user": f"user{i}"} for i in range(1, 5)]
    league = {
        "slug": "t24-primera-a",
        "kind": "league",
        "name": "Primera A",
        "teams": ["t1", "t2", "t3", "t4"],
        "legs": 2,
        "matches": [
            {
                "id": "m1",
                "round": 1,
                "home": "t1",
                "away": "t2",
                "home_goals": 2,
                "away_goals": 1,
                "status": "played",
                "reported_at": "2026-03-02T21:10:00-03:00",
                "initial_deadline": "2026-03-08T23:59:00-03:00",
                "final_deadline": "2026-03-11T23:59:00-03:00",
                "stream_url": "https://twitch.tv/x",
                "cards": [
                    {"team": "t1", "footballer": "N. Surname", "card": "yellow"},
                    {"team": "t2", "footballer": "A. Other", "card": "red"},
                ],
            },
            {
                "id": "m2",
                "round": 1,
                "home": "t3",
                "away": "t4",
                "status": "walkover",
                "absent": "away",
            },
            {"id": "m3", "round": 2, "home": "t1", "away": "t3"},
        ],
        "adjustments": [{"team": "t4", "points": -3, "reason": "walkover m2"}],
        **competition,
    }
    groups = {
        "slug": "t24-champagne",
        "kind": "groups",
        "name": "Champagne League",
        "teams": ["t1", "t2", "t3", "t4"],
        "groups": {"A": ["t1", "t2"], "B": ["t3", "t4"]},
        "matches": [
            {"id": "g1", "round": 1, "home": "t1", "away": "t2", "home_goals": 0, "away_goals": 3},
            {"id": "g2", "round": 1, "home": "t4", "away": "t3", "home_goals": 1, "away_goals": 1},
        ],
    }
    knockout = {
        "slug": "t24-cup",
        "kind": "knockout",
        "name": "Cup",
        "teams": ["t1", "t2"],
        "matches": [
            {
                "id": "k1",
                "round": 1,
                "home": "t1",
                "away": "t2",
                "home_goals": 1,
                "away_goals": 1,
                "tie": "f1",
                "leg": 1,
            },
            {
                "id": "k2",
                "round": 1,
                "home": "t2",
                "away": "t1",
                "home_goals": 0,
                "away_goals": 0,
                "tie": "f1",
                "leg": 2,
            },
            {
                "id": "k3",
                "round": 1,
                "home": "t1",
                "away": "t2",
                "home_goals": 1,
                "away_goals": 1,
                "extra_time": [0, 0],
                "penalties": [5, 4],
                "tie": "f1",
                "leg": 3,
            },
        ],
    }
    return {
        "format": "arbitro.season/1",
        "slug": "t24",
        "name": "Temporada 24",
        "teams": teams,
        "competitions": [league, groups, knockout],
    }


def sixteen(start="2026-03-01", **extra):
    teams = [{"id": f"t{i}", "name": f"Team {i}", "user": f"user{i}"} for i in range(1, 17)]
    league = {
        "slug": "t24-primera-b",
        "kind": "league",
        "name": "Primera B",
        "teams": [t["id"] for t in teams],
        **({"start": start} if start else {}),
        **extra,
    }
    return {
        "format": "arbitro.season/1",
        "slug": "t24",
        "name": "Temporada 24",
        "teams": teams,
        "competitions": [league],
    }
