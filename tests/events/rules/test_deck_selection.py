"""events/deck_selection.py: the best-performing deck of a multi-deck final (VEKN TR
§3.1.5a) and which events may be multi-deck (TR §3.1.5)."""

import random
from decimal import Decimal

import pytest
from django.utils import translation

from events import deck_selection as ds
from events.deck_selection import RoundScore


def r(n, label, gw, vp, tp):
    return RoundScore(round_number=n, deck_label=label, gw=gw, vp=Decimal(str(vp)), tp=tp)


# --- may_be_multideck (TR §3.1.5) -------------------------------------------------------


@pytest.mark.parametrize(
    ("championship", "allowed"),
    [("", True), ("grand_prix", False), ("national", False), ("continental", False)],
)
def test_may_be_multideck(championship, allowed):
    """TR §3.1.5: "neither a national championship, a Grand Prix, or a continental
    championship"."""
    assert ds.may_be_multideck(championship) is allowed


def test_may_be_multideck_matches_the_model_choices():
    from events.models import Event

    values = {value for value, _label in Event.Championship.choices}
    assert values == {"", *ds.REFUSING_CHAMPIONSHIPS}


def test_may_be_multideck_refuses_unknown_levels():
    with pytest.raises(ValueError, match="unknown championship"):
        ds.may_be_multideck("world")


# --- best_performing_deck (TR §3.1.5a) --------------------------------------------------


def test_one_deck_only():
    choice = ds.best_performing_deck([r(1, "A", 0, 1, 24), r(2, "A", 1, 3, 60)])
    assert choice.deck_label == "A"
    assert choice.reason == ds.ONLY_DECK
    assert (choice.round_number, choice.gw, choice.vp, choice.tp) == (2, 1, Decimal(3), 60)
    assert choice.seed is None and choice.tied_labels == () and choice.runner_up is None


def test_one_deck_with_tied_rounds_needs_no_seed_and_names_the_earliest_round():
    choice = ds.best_performing_deck([r(3, "A", 1, 3, 60), r(1, "A", 1, 3, 60)])
    assert (choice.deck_label, choice.round_number, choice.reason) == ("A", 1, ds.ONLY_DECK)


def test_gw_decides_before_vp_and_tp():
    # B's round has more VP and TP but no Game Win: GW comes first.
    rounds = [r(1, "A", 1, 2, 36), r(2, "B", 0, 4, 60)]
    choice = ds.best_performing_deck(rounds)
    assert (choice.deck_label, choice.reason, choice.runner_up) == ("A", ds.BY_GW, "B")


def test_vp_decides_when_gw_ties():
    rounds = [r(1, "A", 1, 3, 48), r(2, "B", 1, 3.5, 48)]
    choice = ds.best_performing_deck(rounds)
    assert (choice.deck_label, choice.reason, choice.vp) == ("B", ds.BY_VP, Decimal("3.5"))


def test_tp_decides_when_gw_and_vp_tie():
    rounds = [r(1, "A", 1, 3, 48), r(2, "B", 1, 3, 60)]
    choice = ds.best_performing_deck(rounds)
    assert (choice.deck_label, choice.reason, choice.round_number) == ("B", ds.BY_TP, 2)


def test_single_best_round_counts_not_totals():
    # A scored more in total (three rounds), B had the single best round.
    rounds = [
        r(1, "A", 1, 2.5, 48),
        r(2, "A", 1, 2.5, 48),
        r(3, "A", 1, 2.5, 48),
        r(4, "B", 1, 3, 36),
    ]
    choice = ds.best_performing_deck(rounds)
    assert (choice.deck_label, choice.reason, choice.round_number) == ("B", ds.BY_VP, 4)


def test_runner_up_is_the_best_other_deck():
    rounds = [r(1, "A", 1, 4, 60), r(2, "B", 0, 1, 12), r(3, "C", 1, 2, 36)]
    choice = ds.best_performing_deck(rounds)
    assert (choice.deck_label, choice.reason, choice.runner_up) == ("A", ds.BY_VP, "C")


def test_empty_label_is_a_deck_like_any_other():
    choice = ds.best_performing_deck([r(1, "", 1, 3, 60), r(2, "B", 0, 1, 12)])
    assert choice.deck_label == "" and choice.reason == ds.BY_GW


def test_tie_needs_a_seed():
    with pytest.raises(ValueError, match="seed"):
        ds.best_performing_deck([r(1, "A", 1, 3, 48), r(2, "B", 1, 3, 48)])


def test_tie_is_drawn_reproducibly_from_the_seed():
    rounds = [r(1, "B", 1, 3, 48), r(2, "A", 1, 3, 48), r(3, "C", 0, 0, 12)]
    for seed in range(40):
        choice = ds.best_performing_deck(rounds, seed=seed)
        assert choice.reason == ds.BY_DRAW
        assert choice.tied_labels == ("A", "B")  # sorted; C did not tie
        assert choice.seed == seed
        # The documented draw: random.Random(seed).choice over the sorted tied labels.
        assert choice.deck_label == random.Random(seed).choice(["A", "B"])
        # Same input, same seed, same answer; the order of the rounds does not matter.
        assert ds.best_performing_deck(list(reversed(rounds)), seed=seed) == choice


def test_draw_reaches_every_tied_deck():
    rounds = [r(1, "A", 1, 3, 48), r(2, "B", 1, 3, 48), r(3, "C", 1, 3, 48)]
    drawn = {ds.best_performing_deck(rounds, seed=s).deck_label for s in range(60)}
    assert drawn == {"A", "B", "C"}


def test_draw_reports_the_chosen_decks_round():
    rounds = [r(1, "A", 1, 3, 48), r(2, "B", 1, 3, 48)]
    for seed in range(10):
        choice = ds.best_performing_deck(rounds, seed=seed)
        assert choice.round_number == {"A": 1, "B": 2}[choice.deck_label]


def test_seed_is_ignored_without_a_tie():
    choice = ds.best_performing_deck([r(1, "A", 1, 3, 48), r(2, "B", 0, 3, 48)], seed=7)
    assert choice.seed is None and choice.reason == ds.BY_GW


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ([], "at least one"),
        ([r(0, "A", 0, 0, 0)], "start at 1"),
        ([r(1, "A", 0, 0, 0), r(1, "B", 0, 0, 0)], "twice"),
        ([r(1, "A", -1, 0, 0)], "negative"),
        ([r(1, "A", 0, -0.5, 0)], "negative"),
        ([r(1, "A", 0, 0, -12)], "negative"),
        ([r(1, "A", 0, 1.25, 0)], "steps of 0.5"),
    ],
)
def test_invalid_rounds(rounds, message):
    with pytest.raises(ValueError, match=message):
        ds.best_performing_deck(rounds, seed=1)


def test_new_seed_fits_a_bigint():
    seeds = {ds.new_seed() for _ in range(20)}
    assert all(0 <= s < 2**63 for s in seeds) and len(seeds) > 1


@pytest.mark.parametrize(
    ("rounds", "seed", "fragments"),
    [
        ([r(1, "A", 1, 3, 60)], None, ["A is the only deck", "round 1: 1 GW, 3 VP, 60 TP"]),
        ([r(1, "A", 1, 3, 60), r(2, "B", 0, 2, 36)], None, ["ahead of B on Game Wins"]),
        ([r(1, "A", 1, 2.5, 48), r(2, "B", 1, 3, 48)], None, ["3 VP", "on Victory Points"]),
        ([r(1, "A", 1, 2.5, 48)], None, ["2.5 VP"]),
        ([r(1, "A", 1, 3, 48), r(2, "B", 1, 3, 60)], None, ["on Tournament Points"]),
        ([r(1, "A", 1, 3, 48), r(2, "B", 1, 3, 48)], 5, ["A, B tied", "seed 5"]),
        ([r(1, "", 1, 3, 48)], None, ["(unnamed deck)"]),
    ],
)
def test_explain(rounds, seed, fragments):
    with translation.override("en"):
        text = ds.best_performing_deck(rounds, seed=seed).explain()
    for fragment in fragments:
        assert fragment in text
