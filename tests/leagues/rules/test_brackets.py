"""Final-phase brackets of both divisions, built by hand for 16-team divisions: every
pairing of ANFPES T24 §1.1–§1.3, the zones, the Liguilla, relegation and next season's
divisions (docs/leagues-final-phases.md "Primera A", "Primera B", docs/contracts.md §6). No
database."""

import pytest

from leagues.rules import LeagueRuleError
from leagues.rules.brackets import (
    LIGUILLA_TIES,
    STAGES,
    BracketSpec,
    Relegation,
    Standing,
    TieSpec,
    better_of,
    drawn_knockout,
    fill_bracket,
    league_post_season,
    liguilla,
    loser,
    next_divisions,
    position,
    post_season_zones,
    primera_a_playoffs,
    relegation,
    seeded_knockout,
    team,
    winner,
    worse_of,
)
from leagues.rules.season import Match
from leagues.rules.table import PRIMERA_B, compute_table

A = tuple(f"a{n}" for n in range(1, 17))
B = tuple(f"b{n}" for n in range(1, 17))
STANDINGS = [Standing("primera_a", A), Standing("primera_b", B)]
SPEC = league_post_season()
ALL_STAGES = tuple(STAGES)


def two_legs(tie, first, second, winner_):
    """Leg 1 at the lower seed's ground 0–0; the winner wins leg 2 (at the higher seed's
    ground) 1–0."""
    score = (1, 0) if winner_ == first else (0, 1)
    return [
        Match(f"{tie}-1", 1, second, first, 0, 0, "played", tie=tie, leg=1),
        Match(f"{tie}-2", 2, first, second, *score, "played", tie=tie, leg=2),
    ]


def fill(matches=(), closed=ALL_STAGES, standings=STANDINGS, **kwargs):
    return fill_bracket(SPEC, standings, matches, closed_stages=closed, **kwargs)


def play(results):
    """``results``: tie id → winner; plays the ties in spec order as they fill."""
    matches = []
    for tie_spec in SPEC.ties:
        if tie_spec.id not in results:
            continue
        first, second = fill(matches).pairing(tie_spec.id)
        assert first is not None and second is not None, tie_spec.id
        matches += two_legs(tie_spec.id, first, second, results[tie_spec.id])
    return matches


# A season: favourites win in A; in B 2nd and 4th win the promotion semi-finals, 11th and
# 6th win the zones, the promotion-final loser and the worse zone winner win the Liguilla.
RESULTS = {
    "qf1": "a1",
    "qf2": "a5",
    "qf3": "a2",
    "qf4": "a6",
    "sf1": "a1",
    "sf2": "a2",
    "final": "a2",
    "psf1": "b2",
    "psf2": "b4",
    "pfinal": "b4",
    "za_sf1": "b11",
    "za_sf2": "b8",
    "za_final": "b11",
    "zb_sf1": "b10",
    "zb_sf2": "b6",
    "zb_final": "b6",
    "lig1": "b11",
    "lig2": "a13",
    "lig3": "b2",
}


# ---------------------------------------------------------------------------------------
# Pairings from the tables
# ---------------------------------------------------------------------------------------


def test_first_round_pairings_from_the_final_tables():
    bracket = fill()
    assert bracket.pairing("qf1") == ("a1", "a8")
    assert bracket.pairing("qf2") == ("a4", "a5")
    assert bracket.pairing("qf3") == ("a2", "a7")
    assert bracket.pairing("qf4") == ("a3", "a6")
    assert bracket.pairing("psf1") == ("b2", "b5")
    assert bracket.pairing("psf2") == ("b3", "b4")
    assert bracket.pairing("za_sf2") == ("b7", "b8")
    assert bracket.pairing("zb_sf2") == ("b6", "b9")
    assert bracket.pairing("za_sf1") == (None, "b11")
    assert bracket.pairing("zb_sf1") == (None, "b10")
    assert bracket.pairing("lig1") == ("a12", None)
    assert bracket.pairing("lig2") == ("a13", None)
    assert bracket.pairing("lig3") == ("a14", None)
    assert bracket.outcomes["champion_b"].team == "b1"
    assert bracket.outcomes["champion_a"].team is None


def test_every_slot_says_where_it_is_fed_from():
    bracket = fill()
    labels = {v.spec.id: (v.first.fed_from, v.second.fed_from) for v in bracket.ties}
    assert labels["qf1"] == ("1st of Primera A", "8th of Primera A")
    assert labels["sf2"] == ("winner of qf3", "winner of qf4")
    assert labels["final"] == ("winner of sf1", "winner of sf2")
    assert labels["za_sf1"] == (
        "better-placed in Primera B of (loser of psf1, loser of psf2)",
        "11th of Primera B",
    )
    assert labels["zb_sf1"][0] == "worse-placed in Primera B of (loser of psf1, loser of psf2)"
    assert labels["lig1"] == (
        "12th of Primera A",
        "worse-placed in Primera B of (winner of za_final, winner of zb_final)",
    )
    assert labels["lig2"][1].startswith("better-placed in Primera B of (winner of za_final")
    assert labels["lig3"] == ("14th of Primera A", "loser of pfinal")
    assert bracket.tie("za_sf1").first.waiting_for == "the result of psf1"


def test_semi_finals_follow_the_bracket_order_and_the_final():
    matches = play({k: RESULTS[k] for k in ("qf1", "qf2", "qf3", "qf4", "sf1", "sf2")})
    bracket = fill(matches)
    assert bracket.pairing("sf1") == ("a1", "a5")  # 1v8 side with 4v5
    assert bracket.pairing("sf2") == ("a2", "a6")  # 2v7 side with 3v6
    assert bracket.pairing("final") == ("a1", "a2")


def test_final_four_and_final_settings():
    spec = primera_a_playoffs()
    sf1, sf2, final = spec.tie("sf1"), spec.tie("sf2"), spec.tie("final")
    assert sf1.same_day == sf2.same_day == "final_four"
    assert sf1.legs == sf2.legs == final.legs == 2  # the Final Four keeps home and away
    assert final.match_minutes == 10 and sf1.match_minutes is None
    dropped = primera_a_playoffs(final_four=False)
    assert dropped.tie("sf1").same_day is None and dropped.tie("sf1").legs == 2
    single = primera_a_playoffs(final_four=True, semi_final_legs=1)
    assert single.tie("sf2").legs == 1 and single.tie("final").legs == 2


def test_zones_from_the_promotion_semi_final_losers():
    matches = play({k: RESULTS[k] for k in ("psf1", "psf2")})
    bracket = fill(matches)
    # Losers: b5 (of 2v5) and b3 (of 3v4); b3 is better placed → Zone A.
    assert bracket.pairing("za_sf1") == ("b3", "b11")
    assert bracket.pairing("za_sf2") == ("b7", "b8")
    assert bracket.pairing("zb_sf1") == ("b5", "b10")
    assert bracket.pairing("zb_sf2") == ("b6", "b9")
    assert bracket.pairing("pfinal") == ("b2", "b4")
    zone_a = {t for tie in ("za_sf1", "za_sf2") for t in bracket.pairing(tie)}
    zone_b = {t for tie in ("zb_sf1", "zb_sf2") for t in bracket.pairing(tie)}
    assert zone_a == {"b3", "b7", "b8", "b11"} and zone_b == {"b5", "b6", "b9", "b10"}


def test_zones_when_the_lower_seeds_lose():
    matches = play({"psf1": "b5", "psf2": "b3"})
    bracket = fill(matches)
    assert bracket.pairing("za_sf1") == ("b2", "b11")
    assert bracket.pairing("zb_sf1") == ("b4", "b10")
    assert bracket.pairing("pfinal") == ("b5", "b3")


def test_liguilla_pairings():
    matches = play({k: v for k, v in RESULTS.items() if not k.startswith("lig")})
    bracket = fill(matches)
    # Zone winners b11 (Zone A) and b6 (Zone B): 12th v the worse placed, 13th v the better.
    assert bracket.pairing("lig1") == ("a12", "b11")
    assert bracket.pairing("lig2") == ("a13", "b6")
    assert bracket.pairing("lig3") == ("a14", "b2")  # promotion-final loser
    assert bracket.outcomes["promoted_b"].team == "b4"
    assert bracket.outcomes["zone_a_winner"].team == "b11"
    assert bracket.outcomes["champion_a"].team == "a2"
    assert bracket.outcomes["runner_up_a"].team == "a1"


def test_liguilla_when_zone_b_winner_is_worse_placed():
    results = dict(RESULTS, za_sf2="b7", za_final="b7", zb_sf1="b10", zb_final="b10")
    matches = play({k: v for k, v in results.items() if not k.startswith("lig")})
    bracket = fill(matches)
    assert bracket.pairing("lig1") == ("a12", "b10")
    assert bracket.pairing("lig2") == ("a13", "b7")


# ---------------------------------------------------------------------------------------
# Filling rules: closed tables, closed stages, provisional slots, overrides
# ---------------------------------------------------------------------------------------


def test_open_table_gives_provisional_slots():
    bracket = fill(standings=[Standing("primera_a", A, closed=False), Standing("primera_b", B)])
    qf1 = bracket.tie("qf1")
    assert qf1.teams == (None, None) and qf1.state is None
    assert qf1.first.provisional == "a1"
    assert qf1.first.waiting_for == "the Primera A table to be closed"
    assert bracket.pairing("psf1") == ("b2", "b5")


def test_winners_advance_only_once_the_stage_is_closed():
    matches = play({"qf1": "a1", "qf2": "a5"})
    bracket = fill(matches, closed=())
    sf1 = bracket.tie("sf1")
    assert sf1.teams == (None, None)
    assert (sf1.first.provisional, sf1.second.provisional) == ("a1", "a5")
    assert sf1.first.waiting_for == "staff to close the stage a_quarter_finals"
    assert bracket.stage_complete("a_quarter_finals") is False  # qf3, qf4 unplayed
    closed = fill(matches, closed=("a_quarter_finals",))
    assert closed.pairing("sf1") == ("a1", "a5")
    assert "stage a_quarter_finals is closed but tie qf3 is undecided" in closed.problems


def test_third_match_required_and_its_home_side_in_the_final():
    matches = play({k: RESULTS[k] for k in ("qf1", "qf2", "qf3", "qf4", "sf1", "sf2")})
    matches += [
        Match("f1", 1, "a2", "a1", 1, 0, "played", tie="final", leg=1),
        Match("f2", 2, "a1", "a2", 1, 0, "played", tie="final", leg=2),
    ]
    bracket = fill(matches)
    final = bracket.tie("final")
    assert final.state.third_match_required and final.winner is None
    # ANFPES T24 §V ¶3: the better regular-phase position hosts.
    assert final.state.third_match_home == "a1"
    assert final.hosts == ("a2", "a1")  # the better seed hosts the second leg
    assert bracket.outcomes["champion_a"].waiting_for == "the result of final"
    third = Match(
        "f3", 3, "a1", "a2", 0, 0, "played", extra_time=True, penalties=(3, 4), tie="final", leg=3
    )
    decided = fill([*matches, third])
    assert decided.outcomes["champion_a"].team == "a2"
    assert decided.tie("final").state.decided_by == "penalties"


def test_liguilla_third_match_is_hosted_by_the_primera_a_team():
    matches = play({k: v for k, v in RESULTS.items() if not k.startswith("lig")})
    matches += [
        Match("l1", 1, "b11", "a12", 2, 1, "played", tie="lig1", leg=1),
        Match("l2", 2, "a12", "b11", 1, 0, "played", tie="lig1", leg=2),
    ]
    state = fill(matches).tie("lig1").state
    assert state.third_match_required and state.third_match_home == "a12"


def test_title_decider_in_primera_b_holds_the_champion():
    decider = compute_table(
        B,
        [Match("x1", 1, "b1", "b3", 1, 0, "played"), Match("x2", 1, "b2", "b4", 2, 0, "played")],
        config=PRIMERA_B,
        phase_closed=True,
    )
    standing = Standing.from_table("primera_b", decider)
    assert standing.unresolved[1] == "title_decider"
    bracket = fill(standings=[STANDINGS[0], standing])
    champion = bracket.outcomes["champion_b"]
    assert champion.team is None and champion.provisional == "b2"  # b2: better goal difference
    assert champion.waiting_for == "the title decider match (ANFPES T24 §1.3.1)"
    assert bracket.tie("psf1").first.team is None
    settled = compute_table(
        B,
        [Match("x1", 1, "b1", "b3", 1, 0, "played"), Match("x2", 1, "b2", "b4", 2, 0, "played")],
        config=PRIMERA_B,
        phase_closed=True,
        decisions=["b1", "b2", *B[2:]],
    )
    bracket = fill(standings=[STANDINGS[0], Standing.from_table("primera_b", settled)])
    assert bracket.outcomes["champion_b"].team == "b1"
    # b5–b16 have not played (goal difference 0): they rank above b3 (−1) and b4 (−2).
    assert settled.order[:5] == ("b1", "b2", "b5", "b6", "b7")
    assert bracket.pairing("psf1") == ("b2", "b7")


def test_overrides_awards_and_streams():
    bracket = fill(overrides={("lig3", "first"): "a13"})
    assert bracket.tie("lig3").first.team == "a13" and bracket.tie("lig3").first.overridden
    with pytest.raises(LeagueRuleError):
        fill(overrides={("lig9", "first"): "a1"})
    awarded = fill(awards={"qf1": "a8"})
    assert awarded.tie("qf1").winner == "a8"
    assert awarded.tie("sf1").first.team == "a8"
    legs = [
        Match("q1", 1, "a8", "a1", 0, 2, "played", tie="qf1", leg=1),
        Match("q2", 2, "a1", "a8", 0, 0, "played", tie="qf1", leg=2, stream_url="https://y"),
    ]
    assert fill(legs).tie("qf1").winner == "a1"
    strict = fill(legs, require_stream=True).tie("qf1")
    assert strict.winner is None and strict.state.problems


def test_bad_matches_are_reported_not_raised():
    wrong = [Match("q1", 1, "a1", "a9", 1, 0, "played", tie="qf1", leg=1)]
    bracket = fill(wrong)
    assert bracket.tie("qf1").state is None
    assert any("qf1" in p for p in bracket.problems)
    early = fill([Match("s1", 1, "a1", "a5", 1, 0, "played", tie="sf1", leg=1)])
    assert "tie sf1: matches entered before both teams are known" in early.problems


def test_as_dict_is_the_bracket_document():
    matches = play({"qf1": "a1"})
    data = fill(matches, closed=()).as_dict()
    qf1 = next(t for t in data["ties"] if t["id"] == "qf1")
    assert qf1["winner"] == "a1" and qf1["third_match_required"] is False
    assert qf1["aggregate"] == {"a1": 1, "a8": 0}
    assert [len(qf1["legs"]), qf1["slots"][0]["fed_from"]] == [2, "1st of Primera A"]
    assert qf1["status"] == "decided"
    sf1 = next(t for t in data["ties"] if t["id"] == "sf1")
    assert sf1["status"] == "waiting" and sf1["slots"][0]["provisional"] == "a1"
    assert data["outcomes"]["champion_b"]["team"] == "b1"


# ---------------------------------------------------------------------------------------
# Specs
# ---------------------------------------------------------------------------------------


def test_spec_validation():
    with pytest.raises(LeagueRuleError):
        BracketSpec("x", (TieSpec("t", "s", winner("u"), position("p", 1)),))
    with pytest.raises(LeagueRuleError):
        BracketSpec(
            "x",
            (
                TieSpec("t", "s", team("a"), team("b")),
                TieSpec("t", "s", team("c"), team("d")),
            ),
        )
    with pytest.raises(LeagueRuleError):
        BracketSpec("x", (TieSpec("t", "s", team("a"), team("b"), legs=3),))
    with pytest.raises(LeagueRuleError):
        better_of("primera_b", loser("t"))
    with pytest.raises(LeagueRuleError):
        position("primera_a", 0)
    assert worse_of("primera_b", loser("a"), loser("b")).ties() == {"a", "b"}


def test_partial_specs_wait_for_other_brackets():
    zones = post_season_zones()
    assert zones.external == frozenset({"psf1", "psf2"})
    bracket = fill_bracket(zones, STANDINGS)
    assert bracket.tie("za_sf1").first.waiting_for == "psf1 (another bracket)"
    assert bracket.pairing("za_sf2") == ("b7", "b8")
    assert liguilla().external == frozenset({"za_final", "zb_final", "pfinal"})
    assert SPEC.external == frozenset()
    assert [t.id for t in SPEC.ties if t.stage == "liguilla"] == list(LIGUILLA_TIES)


def test_generic_knockouts():
    seeded = seeded_knockout("k", "w", "r", ties=4)
    assert [(t.first.label, t.second.label) for t in seeded.ties[:4]] == [
        ("1st of w", "4th of r"),
        ("2nd of w", "3rd of r"),
        ("3rd of w", "2nd of r"),
        ("4th of w", "1st of r"),
    ]
    assert [(t.first.ref, t.second.ref) for t in seeded.ties[4:6]] == [
        ("k_quarter_finals_1", "k_quarter_finals_4"),
        ("k_quarter_finals_2", "k_quarter_finals_3"),
    ]
    drawn = drawn_knockout("d", "draw", entrants=4)
    assert [t.id for t in drawn.ties] == ["d_semi_finals_1", "d_semi_finals_2", "d_final"]
    with pytest.raises(LeagueRuleError):
        seeded_knockout("k", "w", "r", ties=6)
    with pytest.raises(LeagueRuleError):
        drawn_knockout("d", entrants=12)


# ---------------------------------------------------------------------------------------
# Relegation and next season
# ---------------------------------------------------------------------------------------


def test_relegation_bottom_two_and_staff_decisions():
    assert relegation(STANDINGS[0]) == Relegation(("a15", "a16"), "bottom_two")
    staff = relegation(STANDINGS[0], override=["a16"])
    assert (staff.teams, staff.rule) == (("a16",), "staff_decision")
    pending = relegation(STANDINGS[0], abandoned={"a3"})
    assert pending.decision_required and pending.teams == ()
    assert pending.proposal == ("a15", "a16")
    with pytest.raises(LeagueRuleError):
        relegation(STANDINGS[0], override=[])  # at least one (§1.2.2)
    with pytest.raises(LeagueRuleError):
        relegation(STANDINGS[0], override=["b1"])
    open_table = relegation(Standing("primera_a", A, closed=False))
    assert open_table.teams == () and open_table.waiting_for
    tied = relegation(Standing("primera_a", A, unresolved={15: "decision_required"}))
    assert tied.teams == ()
    above = relegation(Standing("primera_a", A, unresolved={13: "x", 14: "x"}))
    assert above.teams == ("a15", "a16")  # a tie for 13th–14th does not matter here


def test_next_divisions_follow_from_the_results():
    bracket = fill(play(RESULTS))
    result = next_divisions(bracket, A, B, relegated=relegation(STANDINGS[0]))
    assert result.pending == ()
    up = {m.team for m in result.moves if m.to == "primera_a"}
    down = {m.team for m in result.moves if m.to == "primera_b"}
    # b1 champion, b4 promotion final, b11 and b2 win their Liguilla ties.
    assert up == {"b1", "b4", "b11", "b2"}
    assert down == {"a15", "a16", "a12", "a14"}
    assert len(result.primera_a) == len(result.primera_b) == 16
    assert set(result.primera_a) == (set(A) - down) | up
    assert set(result.primera_b) == (set(B) - up) | down
    reasons = {m.team: m.reason for m in result.moves}
    assert reasons["b11"] == "promoted: won the Liguilla de Promoción lig1 (ANFPES T24 §1.2.3)"
    assert reasons["a12"] == "relegated: lost the Liguilla de Promoción lig1 (ANFPES T24 §1.2.3)"
    # The Liguilla tie Primera A won: both teams keep their division, and say so.
    assert {m.team: (m.to, m.reason) for m in result.stays} == {
        "a13": (
            "primera_a",
            "stays in Primera A: won the Liguilla de Promoción lig2 (ANFPES T24 §1.2.3)",
        ),
        "b6": (
            "primera_b",
            "stays in Primera B: lost the Liguilla de Promoción lig2 (ANFPES T24 §1.2.3)",
        ),
    }
    assert reasons["a16"] == "relegated: last two of Primera A (ANFPES T24 §1.2.1)"


def test_next_divisions_pending_suspended_and_expelled():
    partial = fill(play({k: v for k, v in RESULTS.items() if k != "lig2"}))
    result = next_divisions(partial, A, B, relegated=("a15", "a16"))
    assert result.primera_a is None and any(p.startswith("lig2") for p in result.pending)
    full = fill(play(RESULTS))
    moved = next_divisions(full, A, B, relegated=("a16",), suspended={"a3", "b9"}, expelled={"b16"})
    assert "a3" in moved.primera_b and "a3" not in moved.primera_a
    assert "b9" in moved.primera_b  # a suspended Primera B team stays in B [choice]
    assert "b16" not in moved.primera_a + moved.primera_b
    with pytest.raises(LeagueRuleError):
        next_divisions(full, A, B, relegated=("b1",))


# ---------------------------------------------------------------------------------------
# From a played regular phase
# ---------------------------------------------------------------------------------------


def test_closing_the_regular_phase_makes_the_pairings_appear():
    """A double round robin of each division in which the team listed first wins every
    match, scored by :func:`compute_table`; closing the phase fills the bracket."""
    from leagues.rules.fixtures import round_robin
    from leagues.rules.table import PRIMERA_A

    standings, played = [], {}
    for code, teams, config in (("primera_a", A, PRIMERA_A), ("primera_b", B, PRIMERA_B)):
        rank = {t: i for i, t in enumerate(teams)}
        matches = []
        for day in round_robin(list(reversed(teams))):
            for p in day.pairings:
                home_wins = rank[p.home] < rank[p.away]
                score = (2, 0) if home_wins else (0, 1)
                matches.append(
                    Match(
                        f"{code}-{day.number}-{p.home}",
                        day.number,
                        p.home,
                        p.away,
                        *score,
                        "played",
                    )
                )
        played[code] = matches
        assert len(matches) == 240  # 30 matchdays of 8
        table = compute_table(teams, matches, config=config)
        assert table.complete and table.order == teams
        standings.append(Standing.from_table(code, table))
    bracket = fill_bracket(SPEC, standings)
    assert [bracket.pairing(t) for t in ("qf1", "qf2", "qf3", "qf4")] == [
        ("a1", "a8"),
        ("a4", "a5"),
        ("a2", "a7"),
        ("a3", "a6"),
    ]
    assert [bracket.pairing(t) for t in ("psf1", "psf2")] == [("b2", "b5"), ("b3", "b4")]
    assert bracket.outcomes["champion_b"].team == "b1"
    assert [bracket.pairing(t)[0] for t in LIGUILLA_TIES] == ["a12", "a13", "a14"]
    assert relegation(standings[0]).teams == ("a15", "a16")
    # One match left unplayed: the table is open, slots are only provisional.
    open_a = compute_table(
        A, [*played["primera_a"][:-1], Match("late", 30, "a1", "a2")], config=PRIMERA_A
    )
    provisional = fill_bracket(SPEC, [Standing.from_table("primera_a", open_a), standings[1]])
    assert provisional.pairing("qf1") == (None, None)
    assert provisional.tie("qf1").first.provisional == "a1"
