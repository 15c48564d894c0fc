"""Cups: Champagne League pots, auditable group draw, group tables, cross-group seeding,
the knockout and the Conference Lag; Nucommunity Shit format and bonus ledger (ANFPES T24
§2.1, §2.2, §IV.1–§IV.2; docs/leagues-final-phases.md "Champagne League and Conference Lag"). No
database."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.rules import LeagueRuleError
from leagues.rules.brackets import Standing, fill_bracket
from leagues.rules.cups import (
    GROUP_NAMES,
    POSITION_RANKINGS,
    BonusEntry,
    NucommunityConfig,
    bonus_totals,
    champagne_knockout,
    champagne_pots,
    conference_lag,
    cross_group_rankings,
    draw_groups,
    group_tables,
    manual_draw,
    nucommunity_bracket,
)
from leagues.rules.draft import draw_lots
from leagues.rules.season import Adjustment, Match

A = [f"a{n}" for n in range(1, 17)]
B = [f"b{n}" for n in range(1, 17)]


# ---------------------------------------------------------------------------------------
# Pots and draw
# ---------------------------------------------------------------------------------------


def test_pots_from_last_season_tables():
    pots = champagne_pots(A, B)
    assert pots.pots == (tuple(A[:8]), tuple(A[8:]), tuple(B[:8]), tuple(B[8:]))
    assert pots.origin["a9"] == "Primera A 9th" and pots.origin["b16"] == "Primera B 16th"
    assert pots.pot_of("b9") == 4


def test_newcomers_go_to_pot_4_and_the_list_shifts():
    participants = set(A + B + ["n1", "n2"]) - {"a3", "b10"}
    pots = champagne_pots(A, B, newcomers=["n1", "n2"], participants=participants)
    assert pots.pots[0] == ("a1", "a2", "a4", "a5", "a6", "a7", "a8", "a9")
    assert pots.pots[1][0] == "a10" and pots.pots[1][-1] == "b1"
    assert pots.pots[2] == ("b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9")
    assert pots.pots[3] == ("b11", "b12", "b13", "b14", "b15", "b16", "n1", "n2")
    assert pots.origin["n1"] == "newcomer"


def test_pot_errors():
    with pytest.raises(LeagueRuleError):
        champagne_pots(A, B[:-1])  # 31 teams
    with pytest.raises(LeagueRuleError):
        champagne_pots(A, B, participants=set(A + B) | {"stranger"})
    with pytest.raises(LeagueRuleError):
        champagne_pots(A, ["a1", *B[1:]])


def test_seeded_draw_is_auditable():
    pots = champagne_pots(A, B).pots
    draw = draw_groups(pots, "T24-champagne")
    assert draw.method == "seed" and draw.verify()
    # The recipe: pot k is drawn by lot with the seed "<seed>/pot<k>", teams to A…H in turn.
    for number, pot in enumerate(pots, start=1):
        lot = draw_lots(pot, f"T24-champagne/pot{number}")
        assert [draw.groups[g][number - 1] for g in GROUP_NAMES] == list(lot.order)
    assert draw.order[0] == (draw.groups["A"][0], "A")
    assert [g for _, g in draw.order[:9]] == [*GROUP_NAMES, "A"]
    data = draw.as_dict()
    assert data["seed"] == "T24-champagne" and len(data["order"]) == 32
    tampered = type(draw)(draw.pots, draw.groups, draw.order[::-1], draw.seed, "seed")
    assert not tampered.verify()


def test_fresh_seed_is_recorded():
    draw = draw_groups(champagne_pots(A, B).pots)
    assert isinstance(draw.seed, int) and draw.verify()
    with pytest.raises(LeagueRuleError):
        draw_groups(champagne_pots(A, B).pots, seed=1.5)


team_names = st.lists(
    st.text(alphabet="abcdefghij", min_size=1, max_size=6), min_size=32, max_size=32, unique=True
)


@settings(max_examples=40, deadline=None)
@given(teams=team_names, seed=st.one_of(st.integers(0, 2**64), st.text(max_size=12)))
def test_property_seeded_draw_reproducible_eight_groups_one_per_pot(teams, seed):
    pots = [teams[i * 8 : (i + 1) * 8] for i in range(4)]
    draw = draw_groups(pots, seed)
    again = draw_groups(pots, seed)
    assert draw.groups == again.groups and draw.order == again.order
    assert len(draw.groups) == 8
    for members in draw.groups.values():
        assert len(members) == 4
        assert [next(i for i, pot in enumerate(pots) if t in pot) for t in members] == [0, 1, 2, 3]
    assert sorted(t for t, _ in draw.order) == sorted(teams)
    assert draw.verify()


def test_manual_live_draw():
    pots = champagne_pots(A, B).pots
    order = [(team, GROUP_NAMES[i]) for pot in pots for i, team in enumerate(pot)]
    draw = manual_draw(pots, order)
    assert draw.method == "manual" and draw.seed is None and draw.verify()
    assert draw.groups["A"] == ("a1", "a9", "b1", "b9")
    bad = list(order)
    bad[1] = ("a2", "A")  # two pot-1 teams in group A
    with pytest.raises(LeagueRuleError):
        manual_draw(pots, bad)
    with pytest.raises(LeagueRuleError):
        manual_draw(pots, order[:-1])
    with pytest.raises(LeagueRuleError):
        manual_draw(pots, [*order[:-1], ("b16", "Z")])
    with pytest.raises(LeagueRuleError):
        manual_draw([pots[0][:7], *pots[1:]], order)


# ---------------------------------------------------------------------------------------
# Group stage, seeding and knockouts
# ---------------------------------------------------------------------------------------


def group_stage():
    """8 groups of 4 (``A1`` … ``H4``), double round robin; the better-numbered team always
    wins. Margins: the 1st wins by ``1 + i`` (group index ``i``), the 2nd by
    ``1 + (i + 3) % 8``, the 3rd beats the 4th by ``1 + i``."""
    groups = {g: [f"{g}{n}" for n in range(1, 5)] for g in GROUP_NAMES}
    matches = []
    for i, (g, members) in enumerate(groups.items()):
        margins = {1: 1 + i, 2: 1 + (i + 3) % 8, 3: 1 + i}
        for p in range(4):
            for q in range(p + 1, 4):
                margin = margins[p + 1]
                for leg, (home, away) in enumerate([(p, q), (q, p)], start=1):
                    hg, ag = (margin, 0) if home == p else (0, margin)
                    matches.append(
                        Match(
                            f"{g}{p}{q}{leg}", leg, members[home], members[away], hg, ag, "played"
                        )
                    )
    return groups, matches


def test_group_tables_and_cross_group_rankings():
    groups, matches = group_stage()
    tables = group_tables(groups, matches)
    assert tables["C"].order == ("C1", "C2", "C3", "C4")
    assert tables["C"].row("C1").points == 18 and tables["C"].complete
    rankings = cross_group_rankings(tables)
    assert rankings[1].code == POSITION_RANKINGS[1] == "cl_winners"
    assert rankings[1].order == tuple(f"{g}1" for g in reversed(GROUP_NAMES))  # H1 best
    # Runners-up: goal difference 2·(1 + (i+3) % 8): E2 best, F2 worst.
    assert rankings[2].order[0] == "E2" and rankings[2].order[-1] == "F2"
    assert rankings[3].order[0] == "F3" and rankings[4].order[-1] == "H4"
    assert all(r.closed and not r.unresolved for r in rankings.values())


def test_champagne_knockout_best_winner_v_worst_runner_up():
    groups, matches = group_stage()
    rankings = cross_group_rankings(group_tables(groups, matches))
    bracket = fill_bracket(champagne_knockout(), rankings.values())
    assert bracket.pairing("cl_round_of_16_1") == ("H1", "F2")
    assert bracket.pairing("cl_round_of_16_8") == ("A1", "E2")
    winners = [bracket.pairing(f"cl_round_of_16_{k}")[0] for k in range(1, 9)]
    runners = [bracket.pairing(f"cl_round_of_16_{k}")[1] for k in range(1, 9)]
    assert winners == list(rankings[1].order) and runners == list(rankings[2].order[::-1])
    conference = fill_bracket(conference_lag(), rankings.values())
    assert conference.pairing("conf_round_of_16_1") == ("F3", "H4")
    assert conference.tie("conf_round_of_16_1").first.fed_from == (
        "1st of the Champagne League thirds"
    )


def _level(tie, home, away):
    return [
        Match(f"{tie}-1", 1, home, away, 1, 0, "played", tie=tie, leg=1),
        Match(f"{tie}-2", 2, away, home, 1, 0, "played", tie=tie, leg=2),
    ]


def test_third_match_home_by_cup_position():
    groups, matches = group_stage()
    rankings = cross_group_rankings(group_tables(groups, matches))
    level = _level("cl_round_of_16_1", "F2", "H1")
    bracket = fill_bracket(champagne_knockout(), rankings.values(), level)
    state = bracket.tie("cl_round_of_16_1").state
    assert state.third_match_required and state.third_match_home == "H1"  # 1st v 2nd
    # Two group winners: the better one in the cup (more points; here equal points,
    # then goal difference: H1 ahead of A1).
    ko = champagne_knockout()
    won = []
    for k in range(1, 9):
        best, worst = rankings[1].order[k - 1], rankings[2].order[8 - k]
        won += [
            Match(f"r{k}-1", 1, worst, best, 0, 1, "played", tie=f"cl_round_of_16_{k}", leg=1),
            Match(f"r{k}-2", 2, best, worst, 1, 0, "played", tie=f"cl_round_of_16_{k}", leg=2),
        ]
    won += _level("cl_quarter_finals_1", "A1", "H1")
    bracket = fill_bracket(ko, rankings.values(), won, closed_stages={"cl_round_of_16"})
    assert bracket.pairing("cl_quarter_finals_1") == ("H1", "A1")
    assert bracket.tie("cl_quarter_finals_1").state.third_match_home == "H1"
    conference = fill_bracket(
        conference_lag(), rankings.values(), _level("conf_round_of_16_1", "F3", "H4")
    )
    assert conference.tie("conf_round_of_16_1").state.third_match_home == "F3"  # 3rd v 4th


def test_cross_group_ties_need_a_decision():
    groups = {g: [f"{g}{n}" for n in range(1, 5)] for g in "AB"}
    matches = [Match(f"{g}1", 1, f"{g}1", f"{g}2", 1, 0, "played") for g in "AB"]
    tables = group_tables(groups, matches, phase_closed=True)
    rankings = cross_group_rankings(tables, codes={1: "w", 2: "r"})
    assert rankings[1].unresolved == {1: "decision_required", 2: "decision_required"}
    assert rankings[1].closed  # the 1sts are known ...
    assert not rankings[3].closed  # ... the 3rds are not (3rd and 4th level in each group)
    decided = cross_group_rankings(tables, decisions={1: ["B1", "A1"]})
    assert decided[1].order == ("B1", "A1") and decided[1].unresolved == {}


def test_group_tables_errors_and_ledger():
    groups = {"A": ["x", "y"], "B": ["z", "w"]}
    with pytest.raises(LeagueRuleError):
        group_tables(groups, [Match("m", 1, "x", "z", 1, 0, "played")])
    with pytest.raises(LeagueRuleError):
        group_tables({"A": ["x"], "B": ["x"]}, [])
    with pytest.raises(LeagueRuleError):
        group_tables(groups, [], [Adjustment("q", -3, "walkover")])
    tables = group_tables(groups, [], [Adjustment("w", -3, "walkover m1")])
    assert tables["B"].row("w").points == -3


# ---------------------------------------------------------------------------------------
# Nucommunity Shit
# ---------------------------------------------------------------------------------------


def test_nucommunity_knockout_from_a_draw():
    config = NucommunityConfig()
    spec = nucommunity_bracket(config)
    assert config.first_phase == "ns_round_of_32"
    assert len([t for t in spec.ties if t.stage == "ns_round_of_32"]) == 16
    teams = [f"t{n}" for n in range(1, 33)]
    lot = draw_lots(teams, "ns-T24")
    bracket = fill_bracket(spec, [Standing("ns_draw", lot.order)])
    assert bracket.pairing("ns_round_of_32_1") == lot.order[:2]
    assert bracket.tie("ns_round_of_16_1").first.fed_from == "winner of ns_round_of_32_1"
    assert bracket.tie("ns_round_of_16_1").second.fed_from == "winner of ns_round_of_32_2"


def test_nucommunity_groups_and_knockout():
    config = NucommunityConfig(format="groups_knockout")
    assert config.first_phase == "ns_groups"
    spec = nucommunity_bracket(config)
    assert spec.ties[0].first.label == "1st of the Nucommunity Shit group winners"
    with pytest.raises(LeagueRuleError):
        NucommunityConfig(format="league")
    with pytest.raises(LeagueRuleError):
        NucommunityConfig(teams=24)
    with pytest.raises(LeagueRuleError):
        NucommunityConfig(format="groups_knockout", teams=30)
    with pytest.raises(LeagueRuleError):
        NucommunityConfig(format="groups_knockout", qualifiers=3)


def test_bonus_points_lost_by_users_reaped_at_season_end():
    entries = [
        BonusEntry("u1", 3, "round of 32 win"),
        BonusEntry("u2", 2, "round of 32 win"),
        BonusEntry("u1", 2, "round of 16 win"),
    ]
    rows = {r.user: r for r in bonus_totals(entries, reaped_at_season_end={"u1"})}
    assert (rows["u1"].earned, rows["u1"].forfeited, rows["u1"].payable) == (5, 5, 0)
    assert rows["u1"].reaped and rows["u2"].payable == 2
    assert rows["u2"].as_dict() == {
        "user": "u2",
        "earned": 2,
        "forfeited": 0,
        "payable": 2,
        "reaped": False,
    }
    with pytest.raises(LeagueRuleError):
        bonus_totals([BonusEntry("u1", 1.5, "x")])
    with pytest.raises(LeagueRuleError):
        bonus_totals([BonusEntry("u1", 1, " ")])


def test_a_nucommunity_without_groups_is_refused():
    import pytest

    from leagues.rules.cups import NucommunityConfig
    from leagues.rules.errors import LeagueRuleError

    with pytest.raises(LeagueRuleError, match="at least one group"):
        NucommunityConfig(format="groups_knockout", teams=16, groups=0)
