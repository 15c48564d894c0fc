"""Fixtures of a league: Berger round robin, mirrored halves, venue runs, matchday deadlines
(docs/leagues.md "Fixtures and deadlines", ANFPES T24 §IV.4, docs/contracts.md §5). No database."""

import itertools
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest

from leagues.rules import LeagueRuleError
from leagues.rules.fixtures import (
    DEADLINE_TIME,
    DeadlineOverride,
    Deadlines,
    Matchday,
    Pairing,
    berger_rounds,
    effective_deadlines,
    generate_matches,
    longest_venue_run,
    matchday_deadlines,
    round_robin,
    venue_pattern,
)

CHILE_SUMMER = timezone(timedelta(hours=-3))


def santiago():
    try:
        return ZoneInfo("America/Santiago")
    except ZoneInfoNotFoundError:  # pragma: no cover - depends on the machine's tz database
        pytest.skip("no time zone database on this machine")


def teams(n):
    return [f"t{i}" for i in range(1, n + 1)]


def as_pairs(berger_round):
    return " ".join(f"{a}-{b}" for a, b in berger_round)


# ---------------------------------------------------------------------------------------
# Berger tables (FIDE Handbook C.05 Annex 1)
# ---------------------------------------------------------------------------------------


def test_berger_table_for_four_and_six_is_fides():
    assert [as_pairs(r) for r in berger_rounds(4)] == ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
    assert [as_pairs(r) for r in berger_rounds(6)] == [
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ]


def test_berger_table_for_sixteen_first_rounds_and_last_round():
    rounds = berger_rounds(16)
    assert len(rounds) == 15
    assert as_pairs(rounds[0]) == "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9"
    assert as_pairs(rounds[1]) == "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2"
    assert as_pairs(rounds[2]) == "2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10"
    assert as_pairs(rounds[14]) == "8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1"


@pytest.mark.parametrize("n", [2, 4, 6, 8, 10, 16, 20, 32])
def test_berger_table_is_a_single_round_robin(n):
    rounds = berger_rounds(n)
    assert len(rounds) == n - 1
    for pairs in rounds:
        assert sorted(itertools.chain.from_iterable(pairs)) == list(range(1, n + 1))
    met = Counter(frozenset(p) for pairs in rounds for p in pairs)
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", [-2, 0, 1, 3, 15])
def test_berger_table_needs_an_even_number(n):
    with pytest.raises(LeagueRuleError):
        berger_rounds(n)


# ---------------------------------------------------------------------------------------
# Round robin
# ---------------------------------------------------------------------------------------


def test_sixteen_teams_double_round_robin_shape():
    matchdays = round_robin(teams(16))
    # docs/leagues.md "Fixtures and deadlines": 30 matchdays for 16 teams
    assert len(matchdays) == 30
    assert [m.number for m in matchdays] == list(range(1, 31))
    assert all(len(m.pairings) == 8 and m.bye is None for m in matchdays)
    for matchday in matchdays:
        playing = [t for p in matchday.pairings for t in (p.home, p.away)]
        assert sorted(playing) == sorted(teams(16))
        assert all(p.round == matchday.number for p in matchday.pairings)
    fixtures = Counter((p.home, p.away) for m in matchdays for p in m.pairings)
    assert len(fixtures) == 240 and set(fixtures.values()) == {1}  # each way exactly once
    home = Counter(p.home for m in matchdays for p in m.pairings)
    assert set(home.values()) == {15}


def test_sixteen_teams_never_three_home_or_three_away_in_a_row():
    """The issue's requirement, for ANFPES's 16-team divisions."""
    matchdays = round_robin(teams(16))
    for team in teams(16):
        pattern = venue_pattern(matchdays, team)
        assert "HHH" not in pattern and "AAA" not in pattern, (team, pattern)
        assert longest_venue_run(matchdays, team) <= 2
    assert longest_venue_run(matchdays) == 2


def breaks(matchdays, team):
    pattern = venue_pattern(matchdays, team)
    return sum(a == b for a, b in itertools.pairwise(pattern))


def test_a_berger_half_alternates_as_far_as_possible():
    """A plain Berger half has the minimum number of breaks (n − 2), at most one a team."""
    half = round_robin(teams(16), legs=1, swap_last_two=False)
    counts = [breaks(half, team) for team in teams(16)]
    assert sum(counts) == 14 and max(counts) == 1


def test_the_swap_costs_breaks_but_keeps_runs_at_two():
    """The swap trades alternation for the "never three in a row" property: over the 30
    matchdays 54 breaks (at most 4 a team) instead of 42 (at most 3 a team)."""
    swapped = round_robin(teams(16))
    plain = round_robin(teams(16), swap_last_two=False)
    assert sum(breaks(swapped, t) for t in teams(16)) == 54
    assert max(breaks(swapped, t) for t in teams(16)) == 4
    assert sum(breaks(plain, t) for t in teams(16)) == 42
    assert longest_venue_run(swapped) == 2 and longest_venue_run(plain) == 3


def test_without_the_swap_sixteen_teams_get_three_in_a_row():
    """Why the last two rounds of the first half are swapped."""
    assert longest_venue_run(round_robin(teams(16), swap_last_two=False)) == 3


def test_second_half_mirrors_the_first_with_venues_swapped():
    matchdays = round_robin(teams(16))
    for first, second in zip(matchdays[:15], matchdays[15:], strict=True):
        assert [(p.away, p.home) for p in second.pairings] == [
            (p.home, p.away) for p in first.pairings
        ]


def test_last_two_rounds_of_the_first_half_are_swapped():
    berger = berger_rounds(16)
    numbered = {i + 1: t for i, t in enumerate(teams(16))}
    matchdays = round_robin(teams(16))

    def pairs(rnd):
        return [(numbered[a], numbered[b]) for a, b in rnd]

    def played(matchday):
        return [(p.home, p.away) for p in matchday.pairings]

    assert [played(m) for m in matchdays[:13]] == [pairs(r) for r in berger[:13]]
    assert played(matchdays[13]) == pairs(berger[14])
    assert played(matchdays[14]) == pairs(berger[13])


@pytest.mark.parametrize("n", [n for n in range(5, 41)])
def test_venue_runs_of_two_at_most_for_every_size_but_four(n):
    """Byes skipped: a team's played matches never give three home or away in a row."""
    matchdays = round_robin(teams(n))
    assert longest_venue_run(matchdays) == 2


@pytest.mark.parametrize("n, longest", [(2, 1), (3, 2), (4, 3)])
def test_venue_runs_for_tiny_leagues(n, longest):
    assert longest_venue_run(round_robin(teams(n))) == longest


def test_no_mirrored_double_round_robin_of_four_avoids_three_in_a_row():
    """Exhaustive: every order of K4's three rounds and every venue choice, mirrored."""
    rounds = [[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 4), (2, 3)]]
    best = 99
    for order in itertools.permutations(rounds):
        for flips in itertools.product((False, True), repeat=6):
            flip = iter(flips)
            first = [
                tuple(Pairing(0, b, a) if next(flip) else Pairing(0, a, b) for a, b in rnd)
                for rnd in order
            ]
            second = [tuple(Pairing(0, p.away, p.home) for p in rnd) for rnd in first]
            matchdays = [Matchday(i, rnd) for i, rnd in enumerate(first + second, 1)]
            best = min(best, longest_venue_run(matchdays))
    assert best == 3


@pytest.mark.parametrize("n", [3, 5, 7, 15, 17])
def test_odd_count_gives_each_team_one_bye_per_half(n):
    matchdays = round_robin(teams(n))
    assert len(matchdays) == 2 * n
    byes = Counter(m.bye for m in matchdays)
    assert set(byes) == set(teams(n)) and set(byes.values()) == {2}
    for matchday in matchdays:
        assert len(matchday.pairings) == (n - 1) // 2
        assert matchday.bye not in {t for p in matchday.pairings for t in (p.home, p.away)}
    fixtures = Counter((p.home, p.away) for m in matchdays for p in m.pairings)
    assert len(fixtures) == n * (n - 1) and set(fixtures.values()) == {1}


def test_bye_is_shown_in_the_pattern_and_does_not_break_a_run():
    matchdays = (
        Matchday(1, (Pairing(1, "a", "b"),)),
        Matchday(2, (Pairing(2, "c", "b"),), bye="a"),
        Matchday(3, (Pairing(3, "a", "c"),), bye="b"),
        Matchday(4, (Pairing(4, "a", "b"),)),
    )
    assert venue_pattern(matchdays, "a") == "H-HH"
    assert longest_venue_run(matchdays, "a") == 3
    assert venue_pattern(matchdays, "b") == "AA-A"
    assert longest_venue_run(matchdays, "b") == 3
    assert longest_venue_run(matchdays, "c") == 1  # H A
    assert longest_venue_run(matchdays, "nobody") == 0


@pytest.mark.parametrize("n", [2, 3, 6, 9])
@pytest.mark.parametrize("legs", [1, 2, 3, 4])
def test_legs(n, legs):
    matchdays = round_robin(teams(n), legs)
    size = n + n % 2
    assert len(matchdays) == legs * (size - 1)
    meetings = Counter(frozenset((p.home, p.away)) for m in matchdays for p in m.pairings)
    assert set(meetings.values()) == {legs}


def test_generic_hashable_team_ids_keep_the_given_order_as_berger_numbers():
    matchdays = round_robin([10, 20, 30, 40], legs=1)
    assert [(p.home, p.away) for p in matchdays[0].pairings] == [(10, 40), (20, 30)]


@pytest.mark.parametrize(
    "bad, legs",
    [([], 2), (["a"], 2), (["a", "a"], 2), (["a", "b"], 0), (["a", None], 2)],
)
def test_round_robin_rejects_bad_input(bad, legs):
    with pytest.raises(LeagueRuleError):
        round_robin(bad, legs)


# ---------------------------------------------------------------------------------------
# Deadlines
# ---------------------------------------------------------------------------------------


def test_deadlines_follow_contracts_example():
    """docs/contracts.md §5's example: 2026-03-08 23:59 and 2026-03-11 23:59, -03:00."""
    first = matchday_deadlines(date(2026, 3, 1), 30, CHILE_SUMMER)[0]
    assert first.initial.isoformat() == "2026-03-08T23:59:00-03:00"
    assert first.final.isoformat() == "2026-03-11T23:59:00-03:00"
    assert DEADLINE_TIME == time(23, 59)


def test_deadlines_one_matchday_a_week_initial_plus_three_days():
    start = date(2026, 3, 1)
    deadlines = matchday_deadlines(start, 30, CHILE_SUMMER)
    assert len(deadlines) == 30
    for k, due in enumerate(deadlines, start=1):
        assert due.initial.date() == start + timedelta(days=7 * k)
        assert due.final - due.initial == timedelta(days=3)
        assert due.initial.time() == time(23, 59)
    assert deadlines[-1].initial.date() == date(2026, 9, 27)


def test_deadlines_follow_daylight_saving_in_santiago():
    tz = santiago()
    deadlines = matchday_deadlines(date(2026, 3, 22), 3, tz)
    # Chile leaves summer time at 24:00 on Saturday 4 April 2026.
    assert [d.initial.isoformat() for d in deadlines] == [
        "2026-03-29T23:59:00-03:00",
        "2026-04-05T23:59:00-04:00",
        "2026-04-12T23:59:00-04:00",
    ]
    assert deadlines[0].final.isoformat() == "2026-04-01T23:59:00-03:00"


def test_repeated_wall_time_gives_the_later_instant():
    """4 April 2026 23:00–23:59 happens twice in Santiago: the deadline is the second."""
    tz = santiago()
    (due,) = matchday_deadlines(date(2026, 3, 28), 1, tz)  # initial: 4 April 23:59
    assert due.initial.astimezone(UTC) == datetime(2026, 4, 5, 3, 59, tzinfo=UTC)
    assert due.initial.utcoffset() == timedelta(hours=-4)


def test_skipped_wall_time_moves_past_the_jump():
    """Santiago skips 00:00–00:59 on 6 September 2026: a 00:30 deadline is at 01:30."""
    tz = santiago()
    (due,) = matchday_deadlines(date(2026, 8, 30), 1, tz, at=time(0, 30))
    assert due.initial.isoformat() == "2026-09-06T01:30:00-03:00"


def test_custom_deadline_spacing():
    deadlines = matchday_deadlines(
        date(2026, 1, 1), 2, UTC, every_days=14, initial_days=10, final_days=0, at=time(20)
    )
    assert [d.initial.isoformat() for d in deadlines] == [
        "2026-01-11T20:00:00+00:00",
        "2026-01-25T20:00:00+00:00",
    ]
    assert all(d.final == d.initial for d in deadlines)


def test_deadlines_reject_bad_input():
    with pytest.raises(LeagueRuleError):
        matchday_deadlines(date(2026, 1, 1), 2, None)
    with pytest.raises(LeagueRuleError):
        matchday_deadlines(date(2026, 1, 1), -1, UTC)
    with pytest.raises(LeagueRuleError):
        Deadlines(datetime(2026, 1, 2), datetime(2026, 1, 3))
    with pytest.raises(LeagueRuleError):
        Deadlines(datetime(2026, 1, 3, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC))


def test_staff_move_deadlines_per_matchday_then_per_fixture():
    default = Deadlines(
        datetime(2026, 3, 8, 23, 59, tzinfo=UTC), datetime(2026, 3, 11, 23, 59, tzinfo=UTC)
    )
    later = datetime(2026, 3, 15, 23, 59, tzinfo=UTC)
    latest = datetime(2026, 3, 20, 23, 59, tzinfo=UTC)
    assert effective_deadlines(default) == default
    moved = effective_deadlines(default, matchday=DeadlineOverride(final=later))
    assert moved == Deadlines(default.initial, later)
    both = effective_deadlines(
        default,
        matchday=DeadlineOverride(initial=later, final=latest),
        fixture=DeadlineOverride(initial=default.initial),
    )
    assert both == Deadlines(default.initial, latest)
    with pytest.raises(LeagueRuleError):  # initial moved past the final: staff must move both
        effective_deadlines(default, fixture=DeadlineOverride(initial=latest))


def test_generate_matches_for_an_imported_league_without_matches():
    """docs/contracts.md §5: a league given without matches gets its double round robin."""
    matches = generate_matches(teams(16), start=date(2026, 3, 1), tz=CHILE_SUMMER)
    assert len(matches) == 240
    assert [m.id for m in matches[:3]] == ["m1", "m2", "m3"]
    assert len({m.id for m in matches}) == 240
    assert all(m.status == "scheduled" and m.home_goals is None for m in matches)
    first = matches[0]
    assert (first.round, first.home, first.away) == (1, "t1", "t16")
    assert first.initial_deadline.isoformat() == "2026-03-08T23:59:00-03:00"
    assert matches[-1].round == 30
    assert matches[-1].final_deadline.isoformat() == "2026-09-30T23:59:00-03:00"
    undated = generate_matches(teams(3), legs=1)
    assert len(undated) == 3 and all(m.initial_deadline is None for m in undated)
    with pytest.raises(LeagueRuleError):
        generate_matches(teams(4), start=date(2026, 3, 1))


@pytest.mark.parametrize("n", [5, 6, 8, 16, 20])
def test_more_legs_keep_runs_at_two(n):
    for legs in (3, 4):
        assert longest_venue_run(round_robin(teams(n), legs)) == 2
