"""Final phases in the app (leagues/finals.py): the bracket of a knockout (API and page)
and the suspensions from the cards of the final phases (API and page), against
hand-built season files (docs/contracts.md §5–§6)."""

from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Card, Competition, Match, Season
from leagues.rules.fixtures import matchday_deadlines
from leagues.services import import_season
from tests.leagues.seasons import small_season

pytestmark = pytest.mark.django_db

STREAM = "https://twitch.tv/anfpes"


def bracket_url(slug):
    return reverse("api-competition-bracket", kwargs={"slug": slug})


def suspensions_url(slug):
    return reverse("api-season-suspensions", kwargs={"slug": slug})


def leg(code, tie, number, home, away, hg=None, ag=None, rnd=1, stream=STREAM, **extra):
    doc = {"id": code, "round": rnd, "home": home, "away": away, "tie": tie, "leg": number}
    if hg is not None:
        doc |= {"home_goals": hg, "away_goals": ag, "status": "played"}
    if stream:
        doc["stream_url"] = stream
    return doc | extra


def yellow(team, name):
    return {"team": team, "footballer": name, "card": "yellow"}


def red(team, name):
    return {"team": team, "footballer": name, "card": "red"}


def season_with(*competitions, teams=8):
    return {
        "format": "arbitro.season/1",
        "slug": "t24",
        "name": "Temporada 24",
        "teams": [{"id": f"t{i}", "name": f"Team {i}", "user": f"user{i}"} for i in range(1, 9)][
            :teams
        ],
        "competitions": list(competitions),
    }


def playoffs(matches, slug="t24-playoffs-a"):
    return {
        "slug": slug,
        "kind": "knockout",
        "name": "Playoffs Primera A",
        "teams": [f"t{i}" for i in range(1, 9)],
        "matches": matches,
    }


QUARTERS = [
    # qf1 1v8: Tottenham–Ajax 2019 as stated in issue 5 (1–0 and 2–3 for Ajax) → 3–3
    # on aggregate, a third match under these rules. The higher seed hosts leg 2.
    leg("q11", "qf1", 1, "t8", "t1", 1, 0),
    leg("q12", "qf1", 2, "t1", "t8", 3, 2),
    # qf2 4v5: the 1987 final as stated in issue 5: won 3–2 on aggregate.
    leg("q21", "qf2", 1, "t5", "t4", 1, 2),
    leg("q22", "qf2", 2, "t4", "t5", 1, 1),
    # qf3 2v7: t2 wins 4–0.
    leg("q31", "qf3", 1, "t7", "t2", 0, 2),
    leg("q32", "qf3", 2, "t2", "t7", 2, 0),
    # qf4 3v6: leg 2 without a stream link — a friendly, it does not count (§1.4).
    leg("q41", "qf4", 1, "t6", "t3", 0, 1),
    leg("q42", "qf4", 2, "t3", "t6", 5, 0, stream=None),
]


# --------------------------------------------------------------------------- bracket API
def test_small_season_cup_third_match_won_on_penalties(client):
    import_season(small_season())
    response = client.get(bracket_url("t24-cup"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    doc = response.json()
    assert doc["competition"] == "t24-cup" and doc["season"] == "t24"
    (tie,) = doc["ties"]
    assert tie["id"] == "f1"
    assert [leg["leg"] for leg in tie["legs"]] == [1, 2, 3]
    assert tie["aggregate"] == {"t1": 1, "t2": 1}
    assert tie["third_match_required"] is True
    assert tie["third_match_home"] == "t1"
    assert (tie["winner"], tie["loser"], tie["decided_by"]) == ("t1", "t2", "penalties")
    assert tie["legs"][2]["penalties"] == [5, 4]
    assert [s["team"] for s in tie["slots"]] == ["t1", "t2"]
    # Set directly in the season file: nothing feeds the slots.
    assert [s["fed_from"] for s in tie["slots"]] == [None, None]
    assert doc["teams"] == {"t1": "Team 1", "t2": "Team 2"}


def test_unknown_slugs_and_non_knockouts_answer_404(client):
    import_season(small_season())
    for slug in ("nope", "t24-primera-a", "t24-champagne"):
        response = client.get(bracket_url(slug))
        assert response.status_code == 404
        assert "error" in response.json()
    assert client.get(suspensions_url("nope")).status_code == 404
    assert "error" in client.get(suspensions_url("nope")).json()


def test_primera_a_playoffs_bracket_says_where_slots_are_fed_from(client):
    semi = [
        leg("s11", "sf1", 1, "t4", "t1", 1, 0, rnd=2),
    ]
    import_season(season_with(playoffs(QUARTERS + semi)))
    doc = client.get(bracket_url("t24-playoffs-a")).json()
    assert doc["bracket"] == "primera_a_playoffs" and doc["require_stream"] is True
    ties = {t["id"]: t for t in doc["ties"]}
    assert list(ties) == ["qf1", "qf2", "qf3", "qf4", "sf1", "sf2", "final"]
    # Tottenham–Ajax 2019 under these rules: 3–3 on aggregate → third match required.
    qf1 = ties["qf1"]
    assert qf1["aggregate"] == {"t8": 3, "t1": 3}
    assert qf1["third_match_required"] is True and qf1["winner"] is None
    assert qf1["status"] == "third_match_required"
    # The higher seed hosts the second leg: slot 1 is "1st of Primera A".
    assert [(s["team"], s["fed_from"]) for s in qf1["slots"]] == [
        ("t1", "1st of Primera A"),
        ("t8", "8th of Primera A"),
    ]
    # 1987 as stated in issue 5: won 3–2 on aggregate, no third match.
    qf2 = ties["qf2"]
    assert qf2["aggregate"] == {"t4": 3, "t5": 2}
    assert qf2["third_match_required"] is False
    assert (qf2["winner"], qf2["decided_by"]) == ("t4", "aggregate")
    # A leg without a stream link is a friendly.
    qf4 = ties["qf4"]
    assert [leg["counted"] for leg in qf4["legs"]] == [True, False]
    assert qf4["winner"] is None and any("stream" in p for p in qf4["problems"])
    # sf1 has matches: winner of qf2 (t4) is known; qf1 is undecided, yet t1 is there.
    sf1 = ties["sf1"]
    assert [(s["team"], s["fed_from"]) for s in sf1["slots"]] == [
        ("t1", "winner of qf1"),
        ("t4", "winner of qf2"),
    ]
    assert sf1["same_day"] == "final_four"
    # sf2 has no matches yet; the quarter-finals are closed (sf1 started): t2 (winner of
    # qf3) is in, qf4 is undecided.
    sf2 = ties["sf2"]
    assert [s["team"] for s in sf2["slots"]] == ["t2", None]
    assert sf2["slots"][0]["fed_from"] == "winner of qf3"
    assert sf2["slots"][1]["waiting_for"] == "the result of qf4"
    assert sf2["status"] == "waiting"
    assert "stage a_quarter_finals is closed but tie qf1 is undecided" in doc["problems"]
    final = ties["final"]
    assert final["match_minutes"] == 10
    assert [s["fed_from"] for s in final["slots"]] == ["winner of sf1", "winner of sf2"]
    assert doc["outcomes"]["champion_a"]["fed_from"] == "winner of final"


def test_winners_are_provisional_until_the_next_stage_starts(client):
    import_season(season_with(playoffs(QUARTERS)))
    ties = {t["id"]: t for t in client.get(bracket_url("t24-playoffs-a")).json()["ties"]}
    slot = ties["sf2"]["slots"][0]
    assert (slot["team"], slot["provisional"]) == (None, "t2")
    assert slot["waiting_for"] == "staff to close the stage a_quarter_finals"


def test_a_cup_bracket_infers_winners_feeding_later_rounds(client):
    cup = {
        "slug": "t24-cup",
        "kind": "knockout",
        "name": "Cup",
        "teams": ["t1", "t2", "t3", "t4"],
        "matches": [
            leg("a1", "semi-a", 1, "t1", "t2", 2, 0, stream=None),
            leg("a2", "semi-a", 2, "t2", "t1", 1, 1, stream=None),
            leg("b1", "semi-b", 1, "t3", "t4", 0, 0, stream=None),
            leg("b2", "semi-b", 2, "t4", "t3", 0, 1, stream=None),
            leg("c1", "final", 1, "t3", "t1", rnd=2, stream=None),
        ],
    }
    import_season(season_with(cup, teams=4))
    doc = client.get(bracket_url("t24-cup")).json()
    assert doc["require_stream"] is False
    ties = {t["id"]: t for t in doc["ties"]}
    assert [s["fed_from"] for s in ties["final"]["slots"]] == [
        "winner of semi-b",
        "winner of semi-a",
    ]
    assert ties["semi-a"]["winner"] == "t1" and ties["semi-b"]["winner"] == "t3"
    assert ties["final"]["status"] == "not_started"
    assert [s["code"] for s in doc["stages"]] == ["round_1", "round_2"]


def test_the_bracket_costs_bounded_queries(client, django_assert_max_num_queries):
    matches = QUARTERS * 1
    import_season(season_with(playoffs(matches)))
    # 3: one more for the staff decisions (their rows, issue 13)
    with django_assert_max_num_queries(3):
        assert client.get(bracket_url("t24-playoffs-a")).status_code == 200
    with django_assert_max_num_queries(6):
        assert (
            client.get(reverse("leagues:competition", args=["t24-playoffs-a"])).status_code == 200
        )


# --------------------------------------------------------------------------- bracket page
def test_the_competition_page_shows_the_bracket_of_a_knockout(client):
    import_season(small_season())
    page = client.get(reverse("leagues:competition", args=["t24-cup"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="bracket"' in html and 'id="tie-f1"' in html
    assert "Third match" in html and "5–4 on penalties" in html
    # Decided on penalties: the "third match required" box is gone (trial item 15).
    assert "third match required" not in html.lower()
    assert "Winner" in html and "Team 1" in html
    # A league has its table, no bracket.
    league = client.get(reverse("leagues:competition", args=["t24-primera-a"])).content.decode()
    assert 'id="bracket"' not in league and 'id="table"' in league
    assert client.get(reverse("leagues:competition", args=["nope"])).status_code == 404


def test_the_page_shows_provisional_slots_and_fed_from(client):
    import_season(season_with(playoffs(QUARTERS)))
    html = client.get(reverse("leagues:competition", args=["t24-playoffs-a"])).content.decode()
    assert "from: winner of qf3" in html
    assert "provisional" in html
    assert "does not count" in html  # the leg without a stream link


# --------------------------------------------------------------------------- suspensions
def semi_final_season():
    """Primera A playoffs (tie ids of the league post-season): J. Doe of t1 is booked in
    both legs of the semi-final — a second yellow accumulated — and misses the final's
    first leg; R. Red of t4 is sent off in leg 2."""
    matches = [
        leg("s11", "sf1", 1, "t4", "t1", 1, 1, rnd=2, cards=[yellow("t1", "J. Doe")]),
        leg(
            "s12",
            "sf1",
            2,
            "t1",
            "t4",
            2,
            0,
            rnd=2,
            cards=[yellow("t1", "J. Doe"), red("t4", "R. Red")],
        ),
        leg("s21", "sf2", 1, "t3", "t2", 0, 1, rnd=2, cards=[yellow("t2", "K. Once")]),
        leg("s22", "sf2", 2, "t2", "t3", 1, 0, rnd=2),
        leg("f1", "final", 1, "t2", "t1", rnd=3),
        leg("f2", "final", 2, "t1", "t2", rnd=3),
    ]
    return season_with(playoffs(matches))


def test_a_second_yellow_in_a_semi_final_suspends_for_the_final(client):
    import_season(semi_final_season())
    response = client.get(suspensions_url("t24"))
    assert response.status_code == 200
    doc = response.json()
    pending = {(s["team"], s["footballer"]): s for s in doc["suspensions"]}
    assert set(pending) == {("t1", "J. Doe"), ("t4", "R. Red")}
    doe = pending[("t1", "J. Doe")]
    assert doe["cause"] == "two_yellows"
    assert [c["match"] for c in doe["cards"]] == ["t24-playoffs-a/s11", "t24-playoffs-a/s12"]
    assert {c["tie"] for c in doe["cards"]} == {"sf1"}
    assert doe["next_match"] == "t24-playoffs-a/f1"
    assert doe["name"] == "Team 1" and doe["scope"] == "league_post_season"
    red_card = pending[("t4", "R. Red")]
    assert red_card["cause"] == "red" and red_card["next_match"] is None  # t4 is out
    # One yellow is not a suspension.
    assert ("t2", "K. Once") not in pending
    assert doc["scopes"] == [
        {"scope": "league_post_season", "competitions": ["t24-playoffs-a"], "require_stream": True}
    ]


def test_a_suspension_is_served_and_a_friendly_neither_books_nor_serves(client):
    data = semi_final_season()
    final = data["competitions"][0]["matches"]
    # The final's first leg is played (J. Doe serves); R. Red's red does not carry.
    final[4] |= {"home_goals": 0, "away_goals": 0, "status": "played"}
    # A semi-final leg without a stream link is a friendly: its cards do not count.
    data["competitions"][0]["matches"].append(
        leg("x1", "sf2", 3, "t2", "t3", 1, 1, rnd=2, stream=None, cards=[red("t3", "F. Ghost")])
    )
    import_season(data)
    doc = client.get(suspensions_url("t24")).json()
    assert [(s["team"], s["footballer"]) for s in doc["suspensions"]] == [("t4", "R. Red")]
    served = {(s["footballer"], s["served_in"]) for s in doc["served"]}
    assert served == {("J. Doe", "t24-playoffs-a/f1")}
    assert all(s["footballer"] != "F. Ghost" for s in doc["suspensions"])


def test_regular_phase_cards_do_not_count_and_cup_scopes_are_separate(client):
    data = small_season()
    # The cup's third match: a red for t2 — one cup scope of its own.
    data["competitions"][2]["matches"][2]["cards"] = [red("t2", "A. Other")]
    import_season(data)
    doc = client.get(suspensions_url("t24")).json()
    # m1 of the league gave "A. Other" a red: regular phase, not counted; the cup one is.
    assert [(s["scope"], s["team"], s["footballer"]) for s in doc["suspensions"]] == [
        ("t24-cup", "t2", "A. Other")
    ]


def test_a_card_report_naming_a_suspended_footballer_flags_the_fixture(client):
    data = semi_final_season()
    final = data["competitions"][0]["matches"]
    final[4] |= {
        "home_goals": 1,
        "away_goals": 0,
        "status": "played",
        "cards": [yellow("t1", "J. Doe")],
    }
    import_season(data)
    doc = client.get(suspensions_url("t24")).json()
    assert [(f["match"], f["footballer"], f["where"]) for f in doc["flags"]] == [
        ("t24-playoffs-a/f1", "J. Doe", "cards")
    ]
    html = client.get(reverse("leagues:suspensions", args=["t24"])).content.decode()
    assert "Fixtures flagged for staff" in html
    assert reverse("leagues:match", args=["t24-playoffs-a", "f1"]) in html


def test_suspensions_cost_bounded_queries(client, django_assert_max_num_queries):
    import_season(semi_final_season())
    # 4 and 5: one more for the squads (a card is its squad footballer, docs/leagues.md)
    with django_assert_max_num_queries(4):
        assert client.get(suspensions_url("t24")).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(reverse("leagues:suspensions", args=["t24"])).status_code == 200


def test_the_suspensions_page(client):
    import_season(semi_final_season())
    page = client.get(reverse("leagues:suspensions", args=["t24"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "J. Doe" in html and "Two yellow cards" in html and "t24-playoffs-a/f1" in html
    assert "R. Red" in html and "no match scheduled yet" in html
    assert client.get(reverse("leagues:suspensions", args=["nope"])).status_code == 404
    season = client.get(reverse("leagues:season", args=["t24"])).content.decode()
    assert reverse("leagues:suspensions", args=["t24"]) in season


def test_no_knockout_no_suspensions(client):
    data = small_season()
    data["competitions"] = data["competitions"][:2]
    import_season(data)
    doc = client.get(suspensions_url("t24")).json()
    assert doc["suspensions"] == [] and doc["scopes"] == []
    assert Season.objects.count() == 1 and Card.objects.count() == 2
    assert not Match.objects.filter(competition__kind=Competition.Kind.KNOCKOUT).exists()


# --------------------------------------------------------------------------- closing
@pytest.fixture
def finished_league(db):
    """Primera A of 16 teams, every fixture played: the lower id wins 1–0, so the final
    table is t1, t2, …, t16."""
    from leagues.models import SeasonRole
    from tests.factories import UserFactory
    from tests.leagues.seasons import sixteen

    data = sixteen(start=None)
    data["competitions"][0] |= {"slug": "t24-primera-a", "name": "Primera A"}
    season = import_season(data)
    matches = list(
        Match.objects.filter(competition__slug="t24-primera-a").select_related("home", "away")
    )
    for m in matches:
        home_wins = int(m.home.code[1:]) < int(m.away.code[1:])
        m.status, m.home_goals, m.away_goals = "played", int(home_wins), int(not home_wins)
    Match.objects.bulk_update(matches, ["status", "home_goals", "away_goals"])
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    return {
        "season": season,
        "staff": staff,
        "competition": Competition.objects.get(slug="t24-primera-a"),
    }


def test_closing_primera_a_creates_the_playoffs(client, finished_league):
    from events.models import AuditLog
    from leagues import phases

    playoffs = phases.close_regular_phase(finished_league["competition"], finished_league["staff"])
    assert (playoffs.slug, playoffs.kind) == ("t24-primera-a-playoffs", "knockout")
    legs = {
        m.code: (m.tie, m.leg, m.home.code, m.away.code, m.final_deadline)
        for m in playoffs.matches.select_related("home", "away")
    }
    # 1v8, 4v5 | 2v7, 3v6; the higher seed hosts the second leg. Deadlines from today
    # (issue 14): leg 1 the first week's, leg 2 the next week's.
    tz = ZoneInfo(finished_league["season"].time_zone)
    week1, week2 = matchday_deadlines(timezone.localdate(timezone=tz), 2, tz)
    assert legs == {
        "qf1-1": ("qf1", 1, "t8", "t1", week1.final),
        "qf1-2": ("qf1", 2, "t1", "t8", week2.final),
        "qf2-1": ("qf2", 1, "t5", "t4", week1.final),
        "qf2-2": ("qf2", 2, "t4", "t5", week2.final),
        "qf3-1": ("qf3", 1, "t7", "t2", week1.final),
        "qf3-2": ("qf3", 2, "t2", "t7", week2.final),
        "qf4-1": ("qf4", 1, "t6", "t3", week1.final),
        "qf4-2": ("qf4", 2, "t3", "t6", week2.final),
    }
    assert AuditLog.objects.filter(action="league.regular_phase_closed").count() == 1
    doc = client.get(bracket_url(playoffs.slug)).json()
    ties = {t["id"]: t for t in doc["ties"]}
    assert [(s["team"], s["fed_from"]) for s in ties["qf2"]["slots"]] == [
        ("t4", "4th of Primera A"),
        ("t5", "5th of Primera A"),
    ]
    assert [s["fed_from"] for s in ties["sf1"]["slots"]] == ["winner of qf1", "winner of qf2"]
    # Closing twice is refused.
    from events.errors import UserError

    with pytest.raises(UserError):
        phases.close_regular_phase(finished_league["competition"], finished_league["staff"])


def test_closing_needs_a_finished_phase_and_staff(finished_league):
    from django.core.exceptions import PermissionDenied

    from events.errors import UserError
    from leagues import phases
    from tests.factories import UserFactory

    competition = finished_league["competition"]
    with pytest.raises((PermissionDenied, UserError)):
        phases.close_regular_phase(competition, UserFactory(username="nobody"))
    Match.objects.filter(pk=competition.matches.first().pk).update(
        status="scheduled", home_goals=None, away_goals=None
    )
    with pytest.raises(UserError, match="still to be played"):
        phases.close_regular_phase(competition, finished_league["staff"])
    assert Competition.objects.filter(kind="knockout").count() == 0


def test_staff_close_the_regular_phase_from_the_competition_page(client, finished_league):
    from django.urls import reverse

    url = reverse("leagues:competition", kwargs={"slug": "t24-primera-a"})
    close = reverse("leagues:competition-close-regular-phase", kwargs={"slug": "t24-primera-a"})
    # The public sees no button; a player without a role gets 404 on the action.
    assert "close-regular-phase" not in client.get(url).content.decode()
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="someone"))
    assert client.post(close, {"confirm": "1"}).status_code == 404
    client.force_login(finished_league["staff"])
    assert "close-regular-phase" in client.get(url).content.decode()
    # Without the confirmation nothing is created.
    client.post(close, {})
    assert not Competition.objects.filter(slug="t24-primera-a-playoffs").exists()
    response = client.post(close, {"confirm": "1"})
    assert response.status_code == 302
    playoffs = Competition.objects.get(slug="t24-primera-a-playoffs")
    assert response["Location"].endswith(f"/competitions/{playoffs.slug}/")
    page = client.get(response["Location"]).content.decode()
    assert "qf1" in page or "Quarter" in page
