"""The "Tuxedo Mask" compliance table and its reviews, to the minute and across time zones
(docs/leagues.md "Compliance table", ANFPES T24 §IV). No database."""

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest

from leagues.rules import LeagueRuleError
from leagues.rules.compliance import (
    COUNTED_BY_DEFAULT,
    OUTCOMES,
    ComplianceFixture,
    Excuse,
    Review,
    compute_compliance,
    counts_by_default,
    excuse_problems,
    fixtures_from_matches,
    on_time,
    review,
    score_fixture,
)
from leagues.rules.fixtures import generate_matches, matchday_deadlines

CL = timezone(timedelta(hours=-3))  # Chile, summer time
MADRID = timezone(timedelta(hours=1))

INITIAL = datetime(2026, 3, 8, 23, 59, tzinfo=CL)  # docs/contracts.md §5 example
FINAL = datetime(2026, 3, 11, 23, 59, tzinfo=CL)
CLOSES = datetime(2026, 6, 30, 23, 59, tzinfo=CL)
LATER = datetime(2026, 12, 31, tzinfo=UTC)


def fx(id="m1", home="ana", away="bea", reported=None, **extra):
    return ComplianceFixture(
        id=id,
        home_user=home,
        away_user=away,
        initial_deadline=extra.pop("initial", INITIAL),
        final_deadline=extra.pop("final", FINAL),
        reported_at=reported,
        status=extra.pop("status", "played" if reported else "scheduled"),
        **extra,
    )


def points(fixture, as_of=LATER):
    return {s.user: (s.points, s.outcome) for s in score_fixture(fixture, as_of)}


def at(text):
    return datetime.fromisoformat(text)


# ---------------------------------------------------------------------------------------
# Deadlines to the minute, time zones included
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "posted, meets",
    [
        ("2026-03-08T23:58:59-03:00", True),
        ("2026-03-08T23:59:00-03:00", True),
        ("2026-03-08T23:59:59.999999-03:00", True),  # the deadline's minute
        ("2026-03-09T00:00:00-03:00", False),
        ("2026-03-09T02:59:59+00:00", True),  # the same instants in UTC
        ("2026-03-09T03:00:00+00:00", False),
        ("2026-03-09T03:59:30+01:00", True),  # and in Madrid
        ("2026-03-09T04:00:00+01:00", False),
        ("2026-03-08T22:59:00-04:00", True),  # and at Chile's winter offset
        ("2026-03-09T00:00:00-02:00", True),  # 23:00 in Santiago
    ],
)
def test_initial_deadline_to_the_minute(posted, meets):
    assert on_time(at(posted), INITIAL) is meets
    expected = (2, "initial") if meets else (1, "final")
    assert points(fx(reported=at(posted))) == {"ana": expected, "bea": expected}


@pytest.mark.parametrize(
    "posted, expected",
    [
        ("2026-03-09T00:00:00-03:00", (1, "final")),
        ("2026-03-11T23:59:59-03:00", (1, "final")),
        ("2026-03-12T02:59:00+00:00", (1, "final")),
        ("2026-03-12T00:00:00-03:00", (0, "late")),
        ("2026-03-12T03:00:00+00:00", (0, "late")),
        ("2026-05-01T12:00:00+00:00", (0, "late")),
    ],
)
def test_final_deadline_to_the_minute(posted, expected):
    assert points(fx(reported=at(posted))) == {"ana": expected, "bea": expected}


def test_results_far_ahead_of_the_deadline_get_two():
    assert points(fx(reported=at("2026-03-01T10:00:00-03:00")))["ana"] == (2, "initial")


def test_santiago_daylight_saving_deadlines():
    """Generated deadlines in America/Santiago: 23:59 local before and after the change to
    winter time (4 April 2026); a post is judged by the instant, whatever its offset."""
    try:
        tz = ZoneInfo("America/Santiago")
    except ZoneInfoNotFoundError:  # pragma: no cover
        pytest.skip("no time zone database on this machine")
    md1, md2 = matchday_deadlines(date(2026, 3, 28), 2, tz)
    assert md1.initial.isoformat() == "2026-04-04T23:59:00-04:00"  # the second 23:59
    assert md2.initial.isoformat() == "2026-04-11T23:59:00-04:00"
    f1 = fx(initial=md1.initial, final=md1.final)
    # 23:59 -03:00 (the first time the clock showed 23:59) is an hour early: on time.
    assert points(replace(f1, reported_at=at("2026-04-04T23:59:00-03:00")))["ana"][0] == 2
    # 00:30 -04:00 on 5 April is after both 23:59s: late for the initial deadline.
    assert points(replace(f1, reported_at=at("2026-04-05T00:30:00-04:00")))["ana"][0] == 1
    # 03:59:59 UTC is still in the deadline's minute.
    assert points(replace(f1, reported_at=at("2026-04-05T03:59:59+00:00")))["ana"][0] == 2
    assert points(replace(f1, reported_at=at("2026-04-05T04:00:00+00:00")))["ana"][0] == 1
    # Same wall time, same tzinfo, different folds: compared as instants.
    first = datetime(2026, 4, 4, 23, 30, tzinfo=tz)
    second = first.replace(fold=1)
    assert on_time(second, md1.initial) and on_time(first, md1.initial)
    assert not on_time(md1.initial + timedelta(minutes=1), md1.initial)


def test_unposted_results_are_pending_until_the_final_deadline_passes():
    f = fx()
    assert points(f, at("2026-03-09T12:00:00-03:00"))["ana"] == (None, "pending")
    assert points(f, at("2026-03-11T23:59:59-03:00"))["ana"] == (None, "pending")
    assert points(f, at("2026-03-12T00:00:00-03:00")) == {
        "ana": (0, "unplayed"),
        "bea": (0, "unplayed"),
    }


def test_a_result_posted_after_as_of_is_not_seen_yet():
    f = fx(reported=at("2026-03-05T20:00:00-03:00"))
    assert points(f, at("2026-03-05T19:00:00-03:00"))["ana"] == (None, "pending")
    assert points(f, at("2026-03-05T20:00:30-03:00"))["ana"] == (2, "initial")


def test_void_fixtures_are_ignored():
    assert score_fixture(fx(status="void"), LATER) == ()
    table = compute_compliance([fx(status="void")], LATER)
    assert table.rows == ()


# ---------------------------------------------------------------------------------------
# Excuses and concessions
# ---------------------------------------------------------------------------------------

GRANTED = Excuse(
    "ana",
    matchdays=(1,),
    reason="travelling",
    evidence=("whatsapp.png",),
    opponent_confirmed=True,
    staff_approved=True,
)


def test_excuse_keeps_full_points_for_both_within_the_phase():
    late = at("2026-04-20T21:00:00-03:00")
    f = fx(reported=late, excuse=GRANTED, closes_at=CLOSES)
    assert points(f) == {"ana": (2, "excused"), "bea": (2, "excused")}
    on_the_minute = replace(f, reported_at=at("2026-06-30T23:59:40-03:00"))
    assert points(on_the_minute)["bea"] == (2, "excused")


def test_excuse_does_not_reach_past_the_phase_closing_date():
    f = fx(reported=at("2026-07-01T00:00:00-03:00"), excuse=GRANTED, closes_at=CLOSES)
    assert points(f) == {"ana": (0, "late"), "bea": (0, "late")}


def test_excused_unposted_fixture_is_pending_until_the_phase_closes():
    f = fx(excuse=GRANTED, closes_at=CLOSES)
    assert points(f, at("2026-05-01T00:00:00-03:00"))["ana"] == (None, "pending")
    assert points(f, at("2026-07-01T00:00:00-03:00"))["ana"] == (0, "unplayed")
    no_close = replace(f, closes_at=None)
    assert points(no_close, LATER)["ana"] == (None, "pending")
    assert points(replace(no_close, reported_at=LATER))["ana"] == (2, "excused")


@pytest.mark.parametrize(
    "excuse",
    [
        replace(GRANTED, opponent_confirmed=False),
        replace(GRANTED, staff_approved=False),
        Excuse("ana"),
    ],
)
def test_excuse_needs_the_opponent_and_staff(excuse):
    assert not excuse.effective
    f = fx(reported=at("2026-03-10T21:00:00-03:00"), excuse=excuse, closes_at=CLOSES)
    assert points(f)["ana"] == (1, "final")


def test_excuse_problems():
    f = fx(round=1)
    assert excuse_problems(GRANTED, f) == ()
    assert excuse_problems(replace(GRANTED, requested_by="eve"), f) == (
        "the excuse must be requested by one of the fixture's users",
    )
    problems = excuse_problems(Excuse("bea"), f)
    assert problems == (
        "say which matchdays the excuse is for",
        "give the reason",
        "attach the screenshots that support it",
    )
    assert excuse_problems(replace(GRANTED, matchdays=(2, 3)), f) == (
        "the excuse does not cover this fixture's matchday",
    )


def test_concession_gives_two_to_the_opponent_and_zero_to_the_conceder():
    for reported in (None, at("2026-03-05T20:00:00-03:00"), at("2026-05-05T20:00:00-03:00")):
        f = fx(reported=reported, conceded_by="bea")
        assert points(f, at("2026-03-06T00:00:00-03:00") if reported is None else LATER) == {
            "ana": (2, "conceded_to"),
            "bea": (0, "conceded"),
        }


def test_concession_overrides_an_excuse():
    f = fx(reported=at("2026-03-05T20:00:00-03:00"), conceded_by="ana", excuse=GRANTED)
    assert points(f) == {"ana": (0, "conceded"), "bea": (2, "conceded_to")}


# ---------------------------------------------------------------------------------------
# Walkovers
# ---------------------------------------------------------------------------------------


def test_walkover_absent_user_gets_zero_present_user_by_posting_time():
    f = fx(status="walkover", absent="away", reported=at("2026-03-07T12:00:00-03:00"))
    assert points(f) == {"ana": (2, "initial"), "bea": (0, "absent")}
    unposted = replace(f, reported_at=None)
    assert points(unposted) == {"ana": (0, "unplayed"), "bea": (0, "absent")}
    both = replace(f, absent="both")
    assert points(both) == {"ana": (0, "absent"), "bea": (0, "absent")}


# ---------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------


def test_points_max_points_and_percentage():
    fixtures = [
        fx("m1", reported=at("2026-03-08T20:00:00-03:00")),  # 2 each
        fx("m2", "ana", "cai", reported=at("2026-03-10T20:00:00-03:00")),  # 1 each
        fx("m3", "bea", "ana"),  # unplayed: 0 each once due
        fx(
            "m4",
            "cai",
            "bea",
            initial=at("2026-03-15T23:59:00-03:00"),
            final=at("2026-03-18T23:59:00-03:00"),
        ),  # not due yet
    ]
    as_of = at("2026-03-13T12:00:00-03:00")
    table = compute_compliance(fixtures, as_of)
    ana, bea, cai = (table.row(u) for u in ("ana", "bea", "cai"))
    assert (ana.points, ana.max_points, ana.ratio, ana.percentage) == (
        3,
        6,
        Fraction(1, 2),
        Decimal("50.0"),
    )
    assert (bea.points, bea.max_points, bea.percentage) == (2, 4, Decimal("50.0"))
    assert (cai.points, cai.max_points, cai.percentage) == (1, 2, Decimal("50.0"))
    assert [f.outcome for f in bea.fixtures] == ["initial", "unplayed", "pending"]
    assert [f.due for f in bea.fixtures] == [True, True, False]
    assert table.as_of == as_of and table.reviews == ()
    # Everyone on 50%: more points first, then the order users were met.
    assert [r.user for r in table.rows] == ["ana", "bea", "cai"]


@pytest.mark.parametrize(
    "scores, percentage",
    [
        ((2, 2, 1), "83.3"),
        ((2, 0, 0), "33.3"),
        ((1, 0, 0, 0, 0, 0), "8.3"),
        ((2, 2, 1, 0), "62.5"),
        ((1, 1, 1, 1, 1, 1, 1, 0), "43.8"),
        ((2,), "100.0"),
        ((0,), "0.0"),
    ],
)
def test_percentage_rounds_half_up_to_one_decimal(scores, percentage):
    post = {
        2: "2026-03-07T10:00:00-03:00",
        1: "2026-03-10T10:00:00-03:00",
        0: "2026-04-01T10:00:00-03:00",
    }
    fixtures = [fx(f"m{i}", "ana", f"u{i}", reported=at(post[s])) for i, s in enumerate(scores)]
    row = compute_compliance(fixtures, LATER).row("ana")
    assert row.percentage == Decimal(percentage)
    assert row.ratio == Fraction(sum(scores), 2 * len(scores))


def test_users_without_due_fixtures_have_no_percentage_and_come_last():
    table = compute_compliance(
        [fx("m1", reported=at("2026-03-10T10:00:00-03:00"))],
        LATER,
        users=["zoe", "ana"],
    )
    assert [r.user for r in table.rows] == ["ana", "bea", "zoe"]
    zoe = table.row("zoe")
    assert (zoe.points, zoe.max_points, zoe.ratio, zoe.percentage) == (0, 0, None, None)
    with pytest.raises(KeyError):
        table.row("nobody")


def test_as_dict():
    table = compute_compliance([fx("m1", reported=at("2026-03-10T10:00:00-03:00"))], LATER)
    assert table.row("ana").as_dict() == {
        "user": "ana",
        "points": 1,
        "max_points": 2,
        "percentage": 50.0,
        "reaped": False,
        "reaped_in": [],
        "loses_cup_bonus": False,
        "fixtures": [{"fixture": "m1", "points": 1, "outcome": "final", "due": True}],
    }
    assert set(OUTCOMES) >= {f.outcome for r in table.rows for f in r.fixtures}


# ---------------------------------------------------------------------------------------
# Reviews ("guadañazo")
# ---------------------------------------------------------------------------------------

# Each review looks at its half (and the cup's counted phase at the first one).
FIRST_HALF = Review("first_half", at("2026-07-01T12:00:00-03:00"), phases=frozenset({"a/1", "cup"}))
SEASON_END = Review(
    "second_half", at("2026-11-30T23:59:00-03:00"), season_end=True, phases=frozenset({"a/2"})
)


def half_fixtures():
    return [
        fx("m1", "ana", "bea", reported=at("2026-03-07T10:00:00-03:00"), phase="a/1"),
        fx("m2", "cai", "dan", phase="a/1"),  # never played → both reaped
        fx("m3", "eva", "fer", reported=at("2026-06-01T10:00:00-03:00"), phase="a/1"),  # late
        fx("m4", "gil", "hal", status="walkover", absent="home", phase="a/1"),
        fx(
            "m5",
            "ivo",
            "jon",
            excuse=replace(GRANTED, requested_by="jon"),
            reported=at("2026-06-29T22:00:00-03:00"),
            closes_at=at("2026-06-30T23:59:00-03:00"),
            phase="a/1",
        ),  # excused, played in time
        fx(
            "m6",
            "kim",
            "leo",
            excuse=replace(GRANTED, requested_by="kim"),
            closes_at=at("2026-06-15T23:59:00-03:00"),
            phase="a/1",
        ),  # excuse ran out
        fx(
            "m7",
            "max",
            "ned",
            phase="a/2",
            initial=at("2026-07-05T23:59:00-03:00"),
            final=at("2026-07-08T23:59:00-03:00"),
        ),  # second half: not due at the review
        fx("m8", "oli", "pia", phase="cup", conceded_by="oli"),  # conceded, never played
        fx("m9", "qui", "ray", status="void", phase="a/1"),
    ]


def test_review_reaps_users_with_unplayed_fixtures_past_the_final_deadline():
    result = review(half_fixtures(), FIRST_HALF)
    assert result.reaped == ("cai", "dan", "gil", "kim", "leo", "oli", "pia")
    assert result.causes["cai"] == ("m2",) and result.causes["oli"] == ("m8",)
    only_league = review(half_fixtures(), replace(FIRST_HALF, phases=frozenset({"a/1"})))
    assert only_league.reaped == ("cai", "dan", "gil", "kim", "leo")
    everything = review(half_fixtures(), replace(FIRST_HALF, phases=None))
    assert everything.reaped == result.reaped  # m7 is not due yet, m9 is void


def test_an_excuse_running_past_the_review_protects_until_it_ends():
    f = fx(
        "m5",
        "ivo",
        "jon",
        excuse=Excuse("ivo", (1,), "travelling", ("chat.png",), True, True),
        closes_at=at("2026-07-15T23:59:00-03:00"),
    )
    assert review([f], FIRST_HALF).reaped == ()
    assert review([f], Review("late", at("2026-07-16T00:00:00-03:00"))).reaped == ("ivo", "jon")


def test_review_limit_is_to_the_minute():
    f = fx("m1", final=at("2026-06-30T23:59:00-03:00"))
    assert review([f], Review("r", at("2026-06-30T23:59:59-03:00"))).reaped == ()
    assert review([f], Review("r", at("2026-07-01T00:00:00-03:00"))).reaped == ("ana", "bea")
    played = replace(f, reported_at=at("2026-07-01T00:00:30-03:00"))
    assert review([played], Review("r", at("2026-07-01T00:00:59-03:00"))).reaped == ()
    assert review([played], Review("r", at("2026-06-30T23:59:59-03:00"))).reaped == ()
    assert review([played], Review("r", at("2026-07-01T03:00:00+00:00"))).reaped == ()
    after = replace(f, reported_at=at("2026-07-01T00:05:00-03:00"))
    assert review([after], Review("r", at("2026-07-01T00:01:00-03:00"))).reaped == ("ana", "bea")


def test_compliance_table_marks_reaped_users_and_season_end_bonus_loss():
    fixtures = half_fixtures()
    fixtures.append(
        fx(
            "m10",
            "ana",
            "cai",
            phase="a/2",
            initial=at("2026-11-01T23:59:00-03:00"),
            final=at("2026-11-04T23:59:00-03:00"),
        )
    )
    reviews = [SEASON_END, FIRST_HALF]
    early = compute_compliance(fixtures, at("2026-07-01T11:59:00-03:00"), reviews=reviews)
    assert early.reviews == () and early.reaped == ()
    mid = compute_compliance(fixtures, at("2026-07-01T12:00:00-03:00"), reviews=reviews)
    assert [r.review.code for r in mid.reviews] == ["first_half"]
    assert set(mid.reaped) == {"cai", "dan", "gil", "kim", "leo", "oli", "pia"}
    assert mid.row("cai").reaped_in == ("first_half",)
    assert not any(r.loses_cup_bonus for r in mid.rows)
    assert mid.row("ivo").fixtures[0].outcome == "excused"
    end = compute_compliance(fixtures, LATER, reviews=reviews)
    assert [r.review.code for r in end.reviews] == ["first_half", "second_half"]
    assert end.reviews[1].reaped == ("max", "ned", "ana", "cai")
    assert end.row("ana").reaped_in == ("second_half",)
    assert end.row("cai").reaped_in == ("first_half", "second_half")
    losing = {r.user for r in end.rows if r.loses_cup_bonus}
    assert losing == {"max", "ned", "ana", "cai"}  # reaped at season end (§IV.2)
    assert end.row("gil").reaped and not end.row("gil").loses_cup_bonus
    assert not end.row("bea").reaped and not end.row("eva").reaped
    assert not end.row("hal").reaped  # showed up in the walkover
    assert not end.row("ivo").reaped and not end.row("jon").reaped


# ---------------------------------------------------------------------------------------
# Helpers and errors
# ---------------------------------------------------------------------------------------


def test_counts_by_default():
    assert counts_by_default("round_robin") and counts_by_default("group_stage")
    for kind in ("knockout", "final_four", "zone", "promotion_mini_league"):
        assert not counts_by_default(kind)
    assert counts_by_default("knockout", cup_first_phase=True)  # Nucommunity Shit
    assert set(COUNTED_BY_DEFAULT) == {
        "round_robin",
        "group_stage",
        "knockout",
        "final_four",
        "zone",
        "promotion_mini_league",
    }
    with pytest.raises(LeagueRuleError):
        counts_by_default("friendly")


def test_fixtures_from_generated_matches():
    matches = generate_matches(["t1", "t2", "t3", "t4"], start=date(2026, 3, 1), tz=CL)
    users = {"t1": "ana", "t2": "bea", "t3": "cai", "t4": "dan"}
    fixtures = fixtures_from_matches(
        matches,
        users,
        phase="a",
        closes_at=CLOSES,
        excuses={"m1": GRANTED},
        concessions={"m2": "bea"},
    )
    assert len(fixtures) == 12
    first = fixtures[0]
    assert (first.home_user, first.away_user, first.round) == ("ana", "dan", 1)
    assert first.initial_deadline == INITIAL and first.final_deadline == FINAL
    assert first.excuse is GRANTED and fixtures[1].conceded_by == "bea"
    assert first.phase == "a" and first.closes_at == CLOSES
    with pytest.raises(LeagueRuleError):
        fixtures_from_matches(generate_matches(["t1", "t2"]), users)


@pytest.mark.parametrize(
    "bad",
    [
        fx(home="ana", away="ana"),
        fx(initial=datetime(2026, 3, 8, 23, 59)),
        fx(reported=datetime(2026, 3, 8, 12, 0)),
        fx(initial=FINAL, final=INITIAL),
        fx(conceded_by="eve"),
        fx(excuse=replace(GRANTED, requested_by="eve")),
        fx(status="walkover"),
        fx(initial=None),
    ],
)
def test_bad_fixtures(bad):
    with pytest.raises(LeagueRuleError):
        score_fixture(bad, LATER)


def test_bad_calls():
    with pytest.raises(LeagueRuleError):
        compute_compliance([fx("m1"), fx("m1")], LATER)
    with pytest.raises(LeagueRuleError):
        compute_compliance([], datetime(2026, 1, 1))
    with pytest.raises(LeagueRuleError):
        review([], Review("r", datetime(2026, 1, 1)))
    with pytest.raises(LeagueRuleError):
        on_time(datetime(2026, 1, 1), INITIAL)


def test_the_user_who_showed_up_at_a_walkover_is_not_penalised():
    """Issue 14: a walkover is recorded after the final deadline (§III.1), so its recording
    time must not cost the user who showed up: 2 points (``showed_up``)."""
    f = fx(status="walkover", absent="away", reported=at("2026-03-20T12:00:00-03:00"))
    assert points(f) == {"ana": (2, "showed_up"), "bea": (0, "absent")}
    assert "showed_up" in OUTCOMES
