"""Mitos y Leyendas standings: match points, OMW / GW % / OGW with their 33 % floor, game
losses, disqualifications, competition ranking and the top cut (docs/rules-myl.md,
MyL conduct §4.1; docs/rules-myl-penalties.md "Penalties", docs/contracts.md §2)."""

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standings.myl import (
    GameLoss,
    MatchResult,
    RoundResult,
    StandingsInput,
    TopCut,
    bye_games,
    compute_standings,
    match_points,
    pairing_entrants,
    percent,
    top_cut_pairs,
)


def rounds(*matches_per_round):
    """``rounds([("a", "b", 2, 0), ("c",)], ...)``: player, opponent, games; ``("c",)`` is a
    bye, ``("a", "b")`` a match still being played."""
    return tuple(
        RoundResult(number, tuple(MatchResult(*m) for m in matches))
        for number, matches in enumerate(matches_per_round, start=1)
    )


def order(standings):
    return [row.player for row in standings.rows]


def ranks(standings):
    return {row.player: row.rank for row in standings.rows}


# ---------------------------------------------------------------------------------------
# A hand-worked event: 8 players, 4 best-of-3 rounds, no byes, two draws.
#
#   R1  A 2-0 B   C 2-1 D   E 1-1 F   G 0-2 H
#   R2  A 2-1 C   H 2-0 E   F 2-0 B   D 2-1 G
#   R3  A 1-2 H   F 2-0 C   D 2-0 E   B 2-1 G
#   R4  H 2-0 F   A 2-1 D   C 1-1 B   E 2-0 G
#
# Player  results  MP  games    MW% (MP/12, floor 1/3)  GW% (floor 1/3)  opponents
#   A     W W L W   9  7/11     3/4                     7/11             B C H D
#   B     L L W D   4  3/9      1/3                     1/3              A F G C
#   C     W L L D   4  4/10     1/3                     2/5              D A F B
#   D     L W W L   6  6/11     1/2                     6/11             C G E A
#   E     D L L W   4  3/8      1/3                     3/8              F H D G
#   F     D W W L   7  5/8      7/12                    5/8              E B C H
#   G     L L L L   0  2/10     1/3 (0 floored)         1/3 (1/5 floored) H D B E
#   H     W W W W  12  8/9      1                       8/9              G E A F
#
# OMW = mean of the opponents' MW%:
#   A (1/3 + 1/3 + 1 + 1/2)/4 = 13/24 = 54.17 %    E (7/12 + 1 + 1/2 + 1/3)/4 = 29/48 = 60.42 %
#   B (3/4 + 7/12 + 1/3 + 1/3)/4 = 1/2              F (1/3 + 1/3 + 1/3 + 1)/4 = 1/2
#   C (1/2 + 3/4 + 7/12 + 1/3)/4 = 13/24            G (1 + 1/2 + 1/3 + 1/3)/4 = 13/24
#   D (1/3 + 1/3 + 1/3 + 3/4)/4 = 7/16 = 43.75 %    H (1/3 + 1/3 + 3/4 + 7/12)/4 = 1/2
# OGW = mean of the opponents' GW%:
#   A (1/3 + 2/5 + 8/9 + 6/11)/4 = 1073/1980 = 54.19 %
#   B (7/11 + 5/8 + 1/3 + 2/5)/4 = 2633/5280 = 49.87 %
#   C (6/11 + 7/11 + 5/8 + 1/3)/4 = 565/1056 = 53.50 %
#   D (2/5 + 1/3 + 3/8 + 7/11)/4 = 2303/5280 = 43.62 %
#   E (5/8 + 8/9 + 6/11 + 1/3)/4 = 1895/3168 = 59.82 %
#   F (3/8 + 1/3 + 2/5 + 8/9)/4 = 719/1440 = 49.93 %
#   G (8/9 + 6/11 + 1/3 + 3/8)/4 = 1697/3168 = 53.57 %
#   H (1/3 + 3/8 + 7/11 + 5/8)/4 = 65/132 = 49.24 %
# Order: H 12, A 9, F 7, D 6, then E, C, B on 4 MP split by OMW (60.42 > 54.17 > 50), G 0.
# ---------------------------------------------------------------------------------------

EIGHT = StandingsInput(
    players=tuple("ABCDEFGH"),
    rounds=rounds(
        [("A", "B", 2, 0), ("C", "D", 2, 1), ("E", "F", 1, 1), ("G", "H", 0, 2)],
        [("A", "C", 2, 1), ("H", "E", 2, 0), ("F", "B", 2, 0), ("D", "G", 2, 1)],
        [("A", "H", 1, 2), ("F", "C", 2, 0), ("D", "E", 2, 0), ("B", "G", 2, 1)],
        [("H", "F", 2, 0), ("A", "D", 2, 1), ("C", "B", 1, 1), ("E", "G", 2, 0)],
    ),
)

EXPECTED = {
    # player: (MP, W, D, L, MW%, OMW, GW%, OGW)
    "A": (9, 3, 0, 1, F(3, 4), F(13, 24), F(7, 11), F(1073, 1980)),
    "B": (4, 1, 1, 2, F(1, 3), F(1, 2), F(1, 3), F(2633, 5280)),
    "C": (4, 1, 1, 2, F(1, 3), F(13, 24), F(2, 5), F(565, 1056)),
    "D": (6, 2, 0, 2, F(1, 2), F(7, 16), F(6, 11), F(2303, 5280)),
    "E": (4, 1, 1, 2, F(1, 3), F(29, 48), F(3, 8), F(1895, 3168)),
    "F": (7, 2, 1, 1, F(7, 12), F(1, 2), F(5, 8), F(719, 1440)),
    "G": (0, 0, 0, 4, F(1, 3), F(13, 24), F(1, 3), F(1697, 3168)),
    "H": (12, 4, 0, 0, F(1, 1), F(1, 2), F(8, 9), F(65, 132)),
}


def test_hand_worked_event_values():
    s = compute_standings(EIGHT)
    for player, (mp, w, d, loss, mw, omw, gw, ogw) in EXPECTED.items():
        row = s.row(player)
        assert (row.match_points, row.wins, row.draws, row.losses) == (mp, w, d, loss), player
        assert (row.mw_pct, row.omw, row.gw_pct, row.ogw) == (mw, omw, gw, ogw), player
        assert row.matches_played == 4


def test_hand_worked_event_order_and_ranks():
    s = compute_standings(EIGHT)
    assert order(s) == list("HAFDECBG")
    assert [row.rank for row in s.rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert s.top_cut == () and s.champion is None


def test_hand_worked_event_games():
    s = compute_standings(EIGHT)
    assert (s.row("A").games_won, s.row("A").games_played) == (7, 11)
    assert (s.row("G").games_won, s.row("G").games_played) == (2, 10)  # 20 %, floored


def test_as_dict_contract_keys_and_rounding():
    s = compute_standings(EIGHT)
    e = s.row("E").as_dict()
    assert {"rank", "player", "match_points", "omw", "gw_pct", "ogw"} <= e.keys()
    assert (e["rank"], e["player"], e["match_points"]) == (5, "E", 4)
    assert (e["omw"], e["gw_pct"], e["ogw"]) == (
        Decimal("60.42"),
        Decimal("37.50"),
        Decimal("59.82"),
    )
    a = s.row("A").as_dict()
    assert (a["omw"], a["gw_pct"], a["ogw"]) == (
        Decimal("54.17"),
        Decimal("63.64"),
        Decimal("54.19"),
    )
    assert s.row("G").as_dict()["gw_pct"] == Decimal("33.33")
    assert s.row("H").as_dict()["winner"] is False


def test_percent_rounds_half_up():
    assert percent(F(2, 3)) == Decimal("66.67")
    assert percent(F(1, 8)) == Decimal("12.50")
    assert percent(F(1, 800)) == Decimal("0.13")  # 0.125 % → 0.13
    assert percent(F(1)) == Decimal("100.00")


def test_tie_breakers_are_configurable():
    # E, C, B all have 4 MP; by GW% first: C 2/5 > E 3/8 > B 1/3.
    s = compute_standings(replace(EIGHT, tie_breakers=("match_points", "gw_pct", "omw", "ogw")))
    assert order(s) == list("HAFDCEBG")
    # OGW alone: E 59.82 > A 54.19 > G 53.57 > C 53.50 > F 49.93 > B 49.87 > H 49.24 > D.
    s = compute_standings(replace(EIGHT, tie_breakers=("ogw",)))
    assert order(s) == list("EAGCFBHD")


@pytest.mark.parametrize(
    "codes", [("match_points", "sos"), ("omw", "omw"), ("MATCH_POINTS",)], ids=str
)
def test_unknown_or_repeated_tie_breaker(codes):
    with pytest.raises(ValueError, match="tie-breaker"):
        compute_standings(replace(EIGHT, tie_breakers=codes))


def test_match_points_and_bye_games():
    assert (match_points(2, 1), match_points(1, 1), match_points(0, 2)) == (3, 1, 0)
    assert match_points(0, 0) == 1  # intentional draw
    assert bye_games(3) == (2, 0)
    assert bye_games(1) == (1, 0)
    with pytest.raises(ValueError, match="best-of"):
        bye_games(5)


# ---------------------------------------------------------------------------------------
# Ties and competition ranking
# ---------------------------------------------------------------------------------------


def test_full_ties_share_a_rank_1224():
    # A and C are identical on every tie-breaker, and so are B and D.
    data = StandingsInput(
        players=("A", "B", "C", "D"), rounds=rounds([("A", "B", 2, 0), ("C", "D", 2, 0)])
    )
    s = compute_standings(data)
    assert order(s) == ["A", "C", "B", "D"]  # registration order within a tie
    assert ranks(s) == {"A": 1, "C": 1, "B": 3, "D": 3}
    # A recorded toss orders tied rows, the rank stays shared.
    s = compute_standings(replace(data, toss=("C", "D")))
    assert order(s) == ["C", "A", "D", "B"]
    assert ranks(s) == {"A": 1, "C": 1, "B": 3, "D": 3}


def test_no_games_played_is_the_floor():
    # An intentional 0-0 draw: no game played, GW% is the 1/3 floor.
    s = compute_standings(StandingsInput(players=("A", "B"), rounds=rounds([("A", "B", 0, 0)])))
    row = s.row("A")
    assert (row.match_points, row.draws, row.games_played, row.gw_pct) == (1, 1, 0, F(1, 3))
    assert row.omw == F(1, 3)  # B's MW% 1/3


# ---------------------------------------------------------------------------------------
# Byes
# ---------------------------------------------------------------------------------------


def test_bye_is_a_won_match_excluded_from_opponents_lists():
    # Round 1: E has the bye. Round 2: E beats A 2-1.
    data = StandingsInput(
        players=tuple("ABCDE"),
        rounds=rounds(
            [("A", "B", 2, 0), ("C", "D", 2, 1), ("E",)],
            [("E", "A", 2, 1), ("C", "B", 2, 0), ("D",)],
        ),
    )
    s = compute_standings(data)
    e = s.row("E")
    assert (e.match_points, e.wins, e.byes, e.matches_played) == (6, 2, 1, 2)
    assert (e.games_won, e.games_played) == (4, 5)  # bye 2-0 + 2-1
    assert e.mw_pct == 1
    # E's only opponent is A (MW% 3/6 = 1/2): the bye is not an opponent.
    assert e.omw == F(1, 2)
    assert e.ogw == F(3, 5)  # A won 3 of 5 games
    d = s.row("D")
    assert (d.match_points, d.games_won, d.games_played) == (3, 3, 5)  # 1-2 then bye 2-0
    assert d.omw == 1  # C won both


def test_bye_in_best_of_one():
    data = StandingsInput(
        players=("A", "B", "C"), best_of=1, rounds=rounds([("A", "B", 1, 0), ("C",)])
    )
    c = compute_standings(data).row("C")
    assert (c.match_points, c.games_won, c.games_played, c.gw_pct, c.omw) == (3, 1, 1, 1, F(1, 3))


def test_player_with_only_a_bye_has_the_floor_as_omw_and_ogw():
    data = StandingsInput(players=("A", "B", "C"), rounds=rounds([("A", "B", 2, 1), ("C",)]))
    c = compute_standings(data).row("C")
    assert (c.omw, c.ogw) == (F(1, 3), F(1, 3))


# ---------------------------------------------------------------------------------------
# Validation and incomplete matches
# ---------------------------------------------------------------------------------------


def test_incomplete_match_counts_for_nobody():
    data = StandingsInput(
        players=("A", "B", "C", "D"), rounds=rounds([("A", "B", 2, 0), ("C", "D", 1, None)])
    )
    s = compute_standings(data)
    assert s.row("C").matches_played == 0
    assert s.row("C").match_points == 0
    assert s.row("A").omw == F(1, 3)


@pytest.mark.parametrize(
    ("match", "best_of", "message"),
    [
        (("A", "B", 3, 0), 3, "games won"),
        (("A", "B", 2, 2), 3, "both players"),
        (("A", "B", 2, 0), 1, "games won"),
        (("A", "B", 1, 1), 1, "both players"),
        (("A", "B", -1, 0), 3, "games won"),
        (("A", "Z", 2, 0), 3, "not registered"),
        (("A", "A", 2, 0), 3, "plays twice"),
    ],
)
def test_invalid_matches(match, best_of, message):
    data = StandingsInput(players=("A", "B"), best_of=best_of, rounds=rounds([match]))
    with pytest.raises(ValueError, match=message):
        compute_standings(data)


def test_player_twice_in_a_round_and_duplicate_registration():
    with pytest.raises(ValueError, match="plays twice"):
        compute_standings(
            StandingsInput(players=tuple("ABC"), rounds=rounds([("A", "B", 2, 0), ("A",)]))
        )
    with pytest.raises(ValueError, match="registered twice"):
        compute_standings(StandingsInput(players=("A", "A")))
    with pytest.raises(ValueError, match="best-of"):
        compute_standings(StandingsInput(players=("A",), best_of=2))


# ---------------------------------------------------------------------------------------
# Game losses (conduct §4.1: the opponent wins the current round)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("best_of", "games", "expected"),
    [
        (3, (2, 0), (1, 2)),  # A had won: now 1-2
        (3, (2, 1), (1, 2)),
        (3, (1, 1), (1, 2)),
        (3, (0, 2), (0, 2)),  # already lost: unchanged
        (3, (None, None), (0, 2)),  # penalty before the match is played
        (3, (1, None), (1, 2)),
        (1, (1, 0), (0, 1)),
        (1, (0, 0), (0, 1)),
    ],
)
def test_game_loss_gives_the_match_to_the_opponent(best_of, games, expected):
    data = StandingsInput(
        players=("A", "B"),
        best_of=best_of,
        rounds=rounds([("A", "B", *games)]),
        game_losses=(GameLoss(round=1, player="A"),),
    )
    s = compute_standings(data)
    a, b = s.row("A"), s.row("B")
    assert (a.match_points, a.losses, b.match_points, b.wins) == (0, 1, 3, 1)
    assert (a.games_won, b.games_won) == expected
    assert a.games_played == sum(expected)


def test_game_loss_for_both_players_is_a_double_loss():
    data = StandingsInput(
        players=("A", "B"),
        rounds=rounds([("A", "B", 2, 1)]),
        game_losses=(GameLoss(1, "A"), GameLoss(1, "B"), GameLoss(1, "B")),
    )
    s = compute_standings(data)
    assert (s.row("A").match_points, s.row("B").match_points) == (0, 0)
    assert (s.row("A").games_won, s.row("B").games_won) == (1, 1)


def test_game_loss_only_touches_its_round():
    data = StandingsInput(
        players=("A", "B"),
        rounds=rounds([("A", "B", 2, 0)], [("B", "A", 0, 2)]),
        game_losses=(GameLoss(2, "A"),),
    )
    s = compute_standings(data)
    assert (s.row("A").wins, s.row("A").losses) == (1, 1)


@pytest.mark.parametrize(
    ("penalty", "message"),
    [
        (GameLoss(1, "C"), "has a bye"),
        (GameLoss(3, "A"), "not played"),
        (GameLoss(1, "D"), "has no match"),
    ],
)
def test_game_loss_without_a_match(penalty, message):
    data = StandingsInput(
        players=tuple("ABCD"),
        rounds=rounds([("A", "B", 2, 0), ("C",)]),
        game_losses=(penalty,),
    )
    with pytest.raises(ValueError, match=message):
        compute_standings(data)


# ---------------------------------------------------------------------------------------
# Drops and disqualifications
# ---------------------------------------------------------------------------------------


def test_disqualified_player_is_removed_but_counts_for_opponents():
    s = compute_standings(replace(EIGHT, disqualified=frozenset({"H"})))
    assert "H" not in order(s)
    assert order(s) == list("AFDECBG")
    assert [row.rank for row in s.rows] == [1, 2, 3, 4, 5, 6, 7]
    # A's OMW still averages H's MW% (1) with B, C and D.
    assert s.row("A").omw == F(13, 24)
    assert s.row("A").ogw == F(1073, 1980)


def test_dropped_player_keeps_the_row_and_is_not_an_entrant():
    data = replace(EIGHT, dropped=frozenset({"G"}))
    s = compute_standings(data)
    assert s.row("G").dropped and s.row("G").rank == 8
    entrants = pairing_entrants(data, s)
    assert [e.player for e in entrants] == list("ABCDEFH")
    a = entrants[0]
    assert (a.match_points, a.rank, a.opponents, a.had_bye) == (9, 2, frozenset("BCHD"), False)


def test_pairing_entrants_skip_disqualified_and_include_late_entries():
    data = StandingsInput(
        players=("A", "B", "C", "late"),
        rounds=rounds([("A", "B", 2, 0), ("C",)]),
        disqualified=frozenset({"B"}),
    )
    entrants = {e.player: e for e in pairing_entrants(data)}
    assert set(entrants) == {"A", "C", "late"}
    assert entrants["C"].had_bye and entrants["C"].match_points == 3
    assert entrants["late"].match_points == 0 and entrants["late"].rank == 3
    assert entrants["A"].opponents == frozenset({"B"})


# ---------------------------------------------------------------------------------------
# Top cut
# ---------------------------------------------------------------------------------------


def test_top_cut_pairs():
    assert top_cut_pairs("12345678") == (("1", "8"), ("4", "5"), ("2", "7"), ("3", "6"))
    assert top_cut_pairs("1234") == (("1", "4"), ("2", "3"))
    with pytest.raises(ValueError, match="4 or 8"):
        top_cut_pairs("123456")


def test_top_8_full_bracket_and_final_ranking():
    # Swiss order H A F D E C B G → seeds 1..8. QF: H-G, D-E, A-B, F-C.
    # QF winners: H, E, B, F. SF: H-E → E, B-F → F. Final: E-F → F.
    data = replace(EIGHT, top_cut=TopCut(8, ("H", "E", "B", "F", "E", "F", "F")))
    s = compute_standings(data)
    assert s.top_cut == tuple("HAFDECBG")
    stages = [(m.stage, m.number, m.higher_seed, m.lower_seed, m.winner) for m in s.bracket]
    assert stages == [
        (8, 1, "H", "G", "H"),
        (8, 2, "D", "E", "E"),
        (8, 3, "A", "B", "B"),
        (8, 4, "F", "C", "F"),
        (4, 5, "H", "E", "E"),
        (4, 6, "F", "B", "F"),
        (2, 7, "F", "E", "F"),
    ]
    assert s.champion == "F"
    # Champion, finalist, semi-finalists by Swiss order (H, B), quarter-finalists (A, D, C, G).
    assert order(s) == ["F", "E", "H", "B", "A", "D", "C", "G"]
    assert [row.rank for row in s.rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert s.row("F").top_cut_result == "champion" and s.row("F").as_dict()["winner"]
    assert s.row("E").top_cut_result == "finalist"
    assert s.row("H").top_cut_result == "semi_finalist"
    assert s.row("G").top_cut_result == "quarter_finalist"
    assert s.row("H").swiss_rank == 1


def test_top_4_with_the_rest_after_it():
    # Seeds H A F D; SF H-D → H, A-F → A; final H-A → A.
    s = compute_standings(replace(EIGHT, top_cut=TopCut(4, ("H", "A", "A"))))
    assert order(s) == list("AHFDECBG")
    assert ranks(s) == {p: i for i, p in enumerate("AHFDECBG", start=1)}
    assert [r.player for r in s.rows if r.top_cut] == list("AHFD")
    assert s.row("E").top_cut_result is None


def test_top_cut_in_progress_keeps_swiss_ranks():
    s = compute_standings(replace(EIGHT, top_cut=TopCut(4, ("D",))))
    assert s.champion is None
    assert order(s) == list("HAFDECBG")
    assert s.row("H").top_cut_result == "semi_finalist"
    assert [m.winner for m in s.bracket] == ["D", None]


def test_top_cut_skips_dropped_players_and_keeps_ties_below_it():
    data = StandingsInput(
        players=tuple("ABCDEFGH"),
        rounds=rounds([("A", "B", 2, 0), ("C", "D", 2, 0), ("E", "F", 2, 0), ("G", "H", 2, 0)]),
        dropped=frozenset({"A"}),
        top_cut=TopCut(4, ("C", "E", "C")),
    )
    s = compute_standings(data)
    assert s.top_cut == ("C", "E", "G", "B")
    # Seeds: C E G B → C-B, E-G → C, E → final C-E → C.
    assert order(s)[:4] == ["C", "E", "G", "B"]
    # Then the others from rank 5 in Swiss order: A (dropped; tied with C, E, G in the
    # Swiss), then D, F, H, still tied with each other (B, tied with them, is in the cut).
    assert ranks(s)["A"] == 5
    assert ranks(s)["D"] == ranks(s)["F"] == ranks(s)["H"] == 6


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        (TopCut(6), "4 or 8"),
        (TopCut(4, ("A",)), "not playing"),
        (TopCut(4, ("H", "A", "A", "A")), "more top-cut winners"),
    ],
)
def test_top_cut_errors(cut, message):
    with pytest.raises(ValueError, match=message):
        compute_standings(replace(EIGHT, top_cut=cut))


def test_top_cut_needs_enough_players():
    data = StandingsInput(players=("A", "B", "C"), top_cut=TopCut(4))
    with pytest.raises(ValueError, match="needs 4"):
        compute_standings(data)


# ---------------------------------------------------------------------------------------
# Properties of any event
# ---------------------------------------------------------------------------------------

GAMES = [(2, 0), (2, 1), (1, 2), (0, 2), (1, 1), (0, 0), (1, 0), (0, 1)]


@st.composite
def events(draw):
    players = [f"p{i}" for i in range(draw(st.integers(2, 12)))]
    rnds = []
    for _number in range(draw(st.integers(0, 4))):
        shuffled = draw(st.permutations(players))
        matches = [
            (a, b, *draw(st.sampled_from(GAMES)))
            for a, b in zip(shuffled[::2], shuffled[1::2], strict=False)
        ]
        if len(shuffled) % 2:
            matches.append((shuffled[-1],))
        rnds.append(matches)
    dq = draw(st.sets(st.sampled_from(players), max_size=2))
    return StandingsInput(players=tuple(players), rounds=rounds(*rnds), disqualified=frozenset(dq))


@settings(max_examples=100, deadline=None)
@given(events())
def test_standings_invariants(data):
    s = compute_standings(data)
    assert {row.player for row in s.rows} == set(data.players) - data.disqualified
    keys = [(r.match_points, r.omw, r.gw_pct, r.ogw) for r in s.rows]
    assert keys == sorted(keys, reverse=True)
    for row, key in zip(s.rows, keys, strict=True):
        # Competition ranking: 1 + the number of rows strictly better.
        assert row.rank == 1 + sum(other > key for other in keys)
        assert row.match_points == 3 * row.wins + row.draws
        assert row.wins + row.draws + row.losses == row.matches_played == len(data.rounds)
        for value in (row.mw_pct, row.omw, row.gw_pct, row.ogw):
            assert F(1, 3) <= value <= 1
