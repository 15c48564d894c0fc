"""``leagues.services.season_compliance`` fed with the stored excuses, concessions and
reviews (docs/leagues.md "Compliance table", ANFPES T24 §IV), and
``leagues.drafting.hold_review``."""

from datetime import datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues.drafting import hold_review, reviews_overview
from leagues.models import Concession, Excuse, Match, Review, Season, SeasonRole
from leagues.services import import_season, season_compliance
from tests.factories import UserFactory
from tests.leagues.seasons import sixteen

pytestmark = pytest.mark.django_db


def at(text):
    return datetime.fromisoformat(text)


def four_teams(matches, **season):
    """Four teams, one league of 4 matchdays (first half: matchdays 1–2)."""
    return {
        "format": "arbitro.season/1",
        "slug": "t24",
        "name": "Temporada 24",
        "teams": [{"id": f"t{i}", "name": f"Team {i}", "user": f"user{i}"} for i in range(1, 5)],
        "competitions": [
            {
                "slug": "t24-a",
                "kind": "league",
                "name": "Primera A",
                "teams": ["t1", "t2", "t3", "t4"],
                "matches": matches,
            }
        ],
        **season,
    }


def fixture(code, round_, home, away, initial, final, **extra):
    return {
        "id": code,
        "round": round_,
        "home": home,
        "away": away,
        "initial_deadline": initial,
        "final_deadline": final,
        **extra,
    }


def played(posted, home_goals=1, away_goals=0):
    return {
        "status": "played",
        "home_goals": home_goals,
        "away_goals": away_goals,
        "reported_at": posted,
    }


MD1 = ("2026-03-08T23:59:00-03:00", "2026-03-11T23:59:00-03:00")
MD2 = ("2026-03-15T23:59:00-03:00", "2026-03-18T23:59:00-03:00")
MD3 = ("2026-03-22T23:59:00-03:00", "2026-03-25T23:59:00-03:00")
MD4 = ("2026-03-29T23:59:00-03:00", "2026-04-01T23:59:00-03:00")


def rows_of(doc):
    return {r["user"]: r for r in doc["rows"]}


def outcome(doc, user, fixture_id):
    row = rows_of(doc)[user]
    return next((f["outcome"], f["points"]) for f in row["fixtures"] if f["fixture"] == fixture_id)


# --------------------------------------------------------------------------- deadlines
def test_deadlines_to_the_minute_across_time_zones():
    """A result posted 23:59 local meets the deadline, 00:00 does not — whatever offset the
    posting time was written with (the season is in America/Santiago, −03:00 in March)."""
    import_season(
        four_teams(
            [
                # 23:59:59 local on the initial deadline, written in UTC: 2 points.
                fixture("m1", 1, "t1", "t2", *MD1, **played("2026-03-09T02:59:59+00:00")),
                # 00:00 local the day after, written in UTC: after the initial → 1 point.
                fixture("m2", 1, "t3", "t4", *MD1, **played("2026-03-09T03:00:00Z")),
                # 23:59 local on the final deadline, written at −05:00 (21:59): 1 point.
                fixture("m3", 2, "t1", "t3", *MD2, **played("2026-03-18T21:59:00-05:00")),
                # 00:00 local after the final deadline, written at +01:00 (04:00): 0 points.
                fixture("m4", 2, "t2", "t4", *MD2, **played("2026-03-19T04:00:00+01:00")),
            ]
        )
    )
    doc = season_compliance(Season.objects.get(), as_of=at("2026-04-10T12:00:00-04:00"))
    assert outcome(doc, "user1", "t24-a/m1") == ("initial", 2)
    assert outcome(doc, "user2", "t24-a/m1") == ("initial", 2)
    assert outcome(doc, "user3", "t24-a/m2") == ("final", 1)
    assert outcome(doc, "user1", "t24-a/m3") == ("final", 1)
    assert outcome(doc, "user4", "t24-a/m4") == ("late", 0)
    assert (rows_of(doc)["user1"]["points"], rows_of(doc)["user1"]["max_points"]) == (3, 4)
    assert rows_of(doc)["user4"]["percentage"] == 25.0
    # The document speaks the season's time zone (−04:00 once Chile's summer time ends).
    assert doc["as_of"] == "2026-04-10T12:00:00-04:00"


def test_generated_winter_deadlines_follow_the_season_time_zone():
    """Generated deadlines are 23:59 local: −04:00 in July in Chile."""
    season = import_season(sixteen(start="2026-06-28"))
    m1 = Match.objects.get(code="m1")
    assert timezone.localtime(m1.initial_deadline, timezone.get_fixed_timezone(0)).isoformat() == (
        "2026-07-06T03:59:00+00:00"
    )
    Match.objects.filter(code="m1").update(
        status="played", home_goals=0, away_goals=0, reported_at=at("2026-07-06T03:59:59Z")
    )
    Match.objects.filter(code="m2").update(
        status="played", home_goals=0, away_goals=0, reported_at=at("2026-07-06T00:00:00-04:00")
    )
    doc = season_compliance(season, as_of=at("2026-07-20T00:00:00Z"))
    home1, home2 = m1.home.handle, Match.objects.get(code="m2").home.handle
    assert outcome(doc, home1, "t24-primera-b/m1") == ("initial", 2)
    assert outcome(doc, home2, "t24-primera-b/m2") == ("final", 1)


# --------------------------------------------------------------------------- excuses
def excuse(match, team, opponent="", staff=""):
    return Excuse.objects.create(
        match=match,
        team=team,
        date_from=match.initial_deadline.date() - timedelta(days=3),
        date_to=match.final_deadline.date(),
        reason="Hospital",
        evidence="evidence/t24/x.png",
        opponent_answer=opponent,
        staff_answer=staff,
    )


@pytest.mark.parametrize(
    ("opponent", "staff", "expected"),
    [
        ("", "", ("late", 0)),
        ("yes", "", ("late", 0)),
        ("", "yes", ("late", 0)),
        ("no", "yes", ("late", 0)),
        ("yes", "no", ("late", 0)),
        ("yes", "yes", ("excused", 2)),
    ],
)
def test_an_excuse_counts_only_when_the_opponent_and_staff_both_say_yes(opponent, staff, expected):
    # m1 played after its final deadline, but before the first half closes (m3, matchday 2).
    season = import_season(
        four_teams(
            [
                fixture("m1", 1, "t1", "t2", *MD1, **played("2026-03-15T10:00:00-03:00")),
                fixture("m3", 2, "t1", "t3", *MD2),
                fixture("m5", 3, "t1", "t4", *MD3),
                fixture("m7", 4, "t2", "t1", *MD4),
            ]
        )
    )
    match = Match.objects.get(code="m1")
    excuse(match, match.home, opponent, staff)
    doc = season_compliance(season, as_of=at("2026-03-16T00:00:00-03:00"))
    assert outcome(doc, "user1", "t24-a/m1") == expected
    assert outcome(doc, "user2", "t24-a/m1") == expected
    # The first half closes with its last final deadline (m3's); the second with m7's.
    assert doc["phases"] == {
        "t24-a/1": "2026-03-18T23:59:00-03:00",
        "t24-a/2": "2026-04-01T23:59:00-03:00",
    }


def test_an_excused_fixture_is_not_due_until_its_phase_closes():
    season = import_season(
        four_teams(
            [
                fixture("m1", 1, "t1", "t2", *MD1),
                fixture("m3", 2, "t1", "t3", *MD2),
                fixture("m5", 3, "t1", "t4", *MD3),
                fixture("m7", 4, "t2", "t1", *MD4),
            ]
        )
    )
    match = Match.objects.get(code="m1")
    excuse(match, match.away, "yes", "yes")
    before = season_compliance(season, as_of=at("2026-03-18T23:59:59-03:00"))
    assert outcome(before, "user1", "t24-a/m1") == ("pending", None)
    after = season_compliance(season, as_of=at("2026-03-19T00:00:00-03:00"))
    assert outcome(after, "user1", "t24-a/m1") == ("unplayed", 0)


# --------------------------------------------------------------------------- concessions
def test_a_concession_gives_the_opponent_2_and_the_conceding_user_0():
    season = import_season(four_teams([fixture("m1", 1, "t1", "t2", *MD1)]))
    match = Match.objects.get(code="m1")
    Concession.objects.create(match=match, team=match.away)
    # Due at once, before any deadline, and whatever an excuse says.
    excuse(match, match.home, "yes", "yes")
    doc = season_compliance(season, as_of=at("2026-03-02T12:00:00-03:00"))
    assert outcome(doc, "user1", "t24-a/m1") == ("conceded_to", 2)
    assert outcome(doc, "user2", "t24-a/m1") == ("conceded", 0)
    assert (rows_of(doc)["user2"]["points"], rows_of(doc)["user2"]["max_points"]) == (0, 2)


# --------------------------------------------------------------------------- reviews
@pytest.fixture
def halves():
    """Matchdays 1–2 (first half) and 3–4: m2 unplayed, m4 a walkover (t4 absent), m5
    unplayed in the second half."""
    return import_season(
        four_teams(
            [
                fixture("m1", 1, "t1", "t2", *MD1, **played("2026-03-05T10:00:00-03:00")),
                fixture("m2", 1, "t3", "t4", *MD1),
                fixture("m3", 2, "t1", "t3", *MD2, **played("2026-03-20T10:00:00-03:00")),
                fixture(
                    "m4",
                    2,
                    "t2",
                    "t4",
                    *MD2,
                    status="walkover",
                    absent="away",
                    reported_at="2026-03-19T10:00:00-03:00",
                ),
                fixture("m5", 3, "t1", "t2", *MD3),
                fixture("m6", 4, "t3", "t1", *MD4, **played("2026-03-28T10:00:00-03:00")),
            ]
        )
    )


def test_a_first_half_review_reaps_the_users_of_unplayed_first_half_fixtures(halves):
    Review.objects.create(season=halves, kind="first_half", at=at("2026-03-21T12:00:00-03:00"))
    before = season_compliance(halves, as_of=at("2026-03-21T11:59:00-03:00"))
    assert not any(r["reaped"] for r in before["rows"]) and before["reviews"] == []
    doc = season_compliance(halves, as_of=at("2026-04-10T12:00:00-03:00"))
    rows = rows_of(doc)
    # m2 unplayed: both users; m4 walkover: only the absent t4; m5 (second half): nobody.
    assert {u for u, r in rows.items() if r["reaped"]} == {"user3", "user4"}
    assert rows["user4"]["reaped_in"] == ["first_half"]
    assert not rows["user4"]["loses_cup_bonus"]
    assert doc["reviews"] == [
        {
            "kind": "first_half",
            "at": "2026-03-21T12:00:00-03:00",
            "reaped": ["user3", "user4"],
            "causes": {"user3": ["t24-a/m2"], "user4": ["t24-a/m2", "t24-a/m4"]},
        }
    ]


def test_a_season_end_review_covers_everything_and_takes_the_cup_bonus(halves):
    Review.objects.create(season=halves, kind="season_end", at=at("2026-04-05T12:00:00-03:00"))
    rows = rows_of(season_compliance(halves, as_of=at("2026-04-10T12:00:00-03:00")))
    assert {u for u, r in rows.items() if r["reaped"]} == {"user1", "user2", "user3", "user4"}
    assert rows["user1"]["loses_cup_bonus"] and rows["user1"]["reaped_in"] == ["season_end"]


def test_compliance_stays_in_two_queries_with_excuses_concessions_and_reviews(
    halves, django_assert_max_num_queries
):
    m2 = Match.objects.get(code="m2")
    excuse(m2, m2.home, "yes", "no")
    m5 = Match.objects.get(code="m5")
    Concession.objects.create(match=m5, team=m5.away)
    Review.objects.create(season=halves, kind="first_half", at=at("2026-03-21T12:00:00-03:00"))
    Review.objects.create(season=halves, kind="second_half", at=at("2026-04-03T12:00:00-03:00"))
    with django_assert_max_num_queries(2):
        doc = season_compliance(halves, as_of=at("2026-04-10T12:00:00-03:00"))
    assert [r["kind"] for r in doc["reviews"]] == ["first_half", "second_half"]


# --------------------------------------------------------------------------- hold_review
@pytest.fixture
def staff(halves):
    user = UserFactory(username="league-staff")
    SeasonRole.objects.create(season=halves, user=user, role="staff")
    return user


def test_hold_review_records_it_once_with_the_audit_log(halves, staff):
    review = hold_review(halves, "first_half", staff, at=at("2026-03-21T12:00:00-03:00"))
    assert (review.kind, review.held_by) == ("first_half", staff)
    log = AuditLog.objects.get(action="review.hold")
    assert log.target == "t24/review/first_half" and log.actor == staff
    assert log.after["reaped"] == ["user3", "user4"]
    with pytest.raises(UserError):
        hold_review(halves, "first_half", staff)
    assert Review.objects.count() == 1


def test_hold_review_refuses_the_future_unknown_kinds_and_other_people(halves, staff):
    with pytest.raises(UserError):
        hold_review(halves, "second_half", staff, at=timezone.now() + timedelta(minutes=5))
    with pytest.raises(UserError):
        hold_review(halves, "halftime", staff)
    tribunal = UserFactory(username="judge-t")
    SeasonRole.objects.create(season=halves, user=tribunal, role="tribunal")
    with pytest.raises(PermissionDenied):
        hold_review(halves, "second_half", tribunal)
    with pytest.raises(PermissionDenied):
        hold_review(halves, "second_half", UserFactory(username="nobody"))
    assert not Review.objects.exists() and not AuditLog.objects.filter(action="review.hold")


def test_the_reviews_overview_previews_who_would_be_reaped(halves, staff):
    hold_review(halves, "first_half", staff, at=at("2026-03-21T12:00:00-03:00"))
    overview = reviews_overview(halves, now=at("2026-04-10T12:00:00-03:00"))
    assert [h["kind"] for h in overview["held"]] == ["first_half"]
    assert [r["user"] for r in overview["held"][0]["reaped"]] == ["user3", "user4"]
    pending = {p["kind"]: p["reaped"] for p in overview["pending"]}
    assert set(pending) == {"second_half", "season_end"}
    second = {r["user"]: [f["id"] for f in r["fixtures"]] for r in pending["second_half"]}
    assert second == {
        "user3": ["t24-a/m2"],
        "user4": ["t24-a/m2", "t24-a/m4"],
        "user1": ["t24-a/m5"],
        "user2": ["t24-a/m5"],
    }
    assert pending["second_half"][0]["team"] == "t3"
    assert pending["second_half"][0]["fixtures"][0] == {
        "id": "t24-a/m2",
        "round": 1,
        "home": "Team 3",
        "away": "Team 4",
    }


def test_a_season_end_review_before_the_season_ends_asks_for_confirmation(halves, staff):
    """Issue 14: while a fixture is still to be played, the season-end review needs the
    staff's second confirmation (``early``); afterwards it is held as before."""
    from leagues.drafting import fixtures_still_to_play
    from leagues.models import Match

    when = at("2026-04-05T12:00:00-03:00")
    Match.objects.filter(code="m5").update(final_deadline=timezone.now() + timedelta(days=3))
    assert fixtures_still_to_play(halves, when) == 1
    with pytest.raises(UserError, match="has not ended") as caught:
        hold_review(halves, "season_end", staff, at=when)
    assert caught.value.field == "early" and not Review.objects.exists()
    # Other reviews do not ask.
    hold_review(halves, "second_half", staff, at=when)
    review = hold_review(halves, "season_end", staff, at=when, early=True)
    assert review.kind == "season_end"


def test_the_reviews_page_asks_for_the_early_confirmation(client, halves, staff):
    from django.urls import reverse

    from leagues.models import Match

    Match.objects.filter(code="m5").update(final_deadline=timezone.now() + timedelta(days=3))
    client.force_login(staff)
    target = reverse("leagues:staff-reviews", kwargs={"slug": halves.slug})
    page = client.get(target).content.decode()
    assert 'name="early"' in page and "The season has not ended: 1 fixture" in page
    response = client.post(target, {"kind": "season_end", "confirm": "1"}, follow=True)
    assert "has not ended" in response.content.decode()
    assert not Review.objects.filter(kind="season_end").exists()
    client.post(target, {"kind": "season_end", "confirm": "1", "early": "1"})
    assert Review.objects.filter(kind="season_end").exists()
