"""Draft order and re-checkable draws by lot (docs/leagues.md "Draft order", ANFPES T24 §III.4,
§IV.8). No database."""

import random
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.rules import LeagueRuleError
from leagues.rules.compliance import ComplianceFixture, Review, compute_compliance
from leagues.rules.draft import RULES, LotDraw, draft_order, draw_lots

BASE = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]


def rules(order):
    return [(slot.team, slot.rule) for slot in order.slots]


def test_base_order_alone():
    order = draft_order(BASE)
    assert order.order == tuple(BASE)
    assert [s.position for s in order.slots] == list(range(1, 9))
    assert {s.rule for s in order.slots} == {"base_order"}
    assert order.slots[0].detail == "base order 1" and order.lot is None


def test_reaped_go_to_the_end_by_compliance_higher_first():
    order = draft_order(BASE, reaped={"t2": Fraction(1, 2), "t5": Fraction(3, 4)})
    assert order.order == ("t1", "t3", "t4", "t6", "t7", "t8", "t5", "t2")
    assert rules(order)[-2:] == [("t5", "reaped"), ("t2", "reaped")]
    assert order.slots[-2].detail == "compliance 75.0%"
    assert order.slots[-1].detail == "compliance 50.0%"


def test_equal_compliance_keeps_the_base_order_and_none_goes_last():
    order = draft_order(
        BASE, reaped={"t6": Fraction(1, 2), "t3": Fraction(2, 4), "t1": None, "t8": Fraction(0)}
    )
    assert order.order[-4:] == ("t3", "t6", "t8", "t1")
    assert order.slots[-1].detail == "no compliance figure"


def test_percentages_work_too():
    order = draft_order(BASE, reaped={"t1": Decimal("62.5"), "t2": Decimal("87.5")})
    assert order.order[-2:] == ("t2", "t1")
    assert order.slots[-1].detail == "compliance 62.5%"
    with pytest.raises(LeagueRuleError):
        draft_order(BASE, reaped={"t1": Decimal("62.5"), "t2": Fraction(7, 8)})


def test_single_suspended_team_is_last_without_a_draw():
    order = draft_order(BASE, reaped={"t1": Fraction(1, 3)}, suspended={"t4"})
    assert order.order[-2:] == ("t1", "t4")
    assert rules(order)[-1] == ("t4", "suspended") and order.lot is None


def test_several_suspended_teams_are_drawn_by_lot_after_the_reaped():
    order = draft_order(
        BASE, reaped={"t2": Fraction(9, 10)}, suspended={"t7", "t3", "t5"}, seed=20260301
    )
    assert order.order[:4] == ("t1", "t4", "t6", "t8")
    assert order.order[4] == "t2"
    assert set(order.order[5:]) == {"t3", "t5", "t7"}
    assert [s.rule for s in order.slots[5:]] == ["suspended_lot"] * 3
    assert order.slots[5].detail == "drawn 1 of 3"
    lot = order.lot
    assert lot.entrants == ("t3", "t5", "t7") and lot.seed == 20260301 and lot.method == "seed"
    assert lot.order == order.order[5:]
    assert lot.verify()
    # Anyone can re-check it with the documented algorithm.
    rng = random.Random(20260301)
    items = ["t3", "t5", "t7"]
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    assert tuple(items) == lot.order
    assert lot.as_dict() == {
        "method": "seed",
        "seed": 20260301,
        "entrants": ["t3", "t5", "t7"],
        "order": list(lot.order),
    }


def test_pinned_draws_do_not_change_between_releases():
    """Recorded draws must stay re-checkable: these results are pinned."""
    assert draw_lots(["a", "b", "c", "d", "e"], 1).order == ("b", "e", "c", "d", "a")
    assert draw_lots(["a", "b", "c", "d", "e"], "T24 draft").order == ("c", "b", "d", "a", "e")
    assert draw_lots(["x", "y"], 0).order == ("x", "y")
    assert draw_lots(["a", "b", "c", "d"], 7).order == ("c", "d", "a", "b")


def test_suspended_and_reaped_counts_as_suspended():
    order = draft_order(BASE, reaped={"t1": Fraction(1, 2)}, suspended={"t1"})
    assert rules(order)[-1] == ("t1", "suspended")
    assert [team for team, rule in rules(order) if rule == "reaped"] == []


def test_live_draw_entered_by_hand():
    order = draft_order(BASE, suspended={"t2", "t8"}, lot_result=["t8", "t2"])
    assert order.order[-2:] == ("t8", "t2")
    assert order.lot == LotDraw(("t2", "t8"), ("t8", "t2"), None, "manual")
    assert order.lot.verify()
    with pytest.raises(LeagueRuleError):
        draft_order(BASE, suspended={"t2", "t8"}, lot_result=["t8", "t3"])
    with pytest.raises(LeagueRuleError):
        draft_order(BASE, lot_result=["t8"])


def test_fresh_seed_is_recorded():
    order = draft_order(BASE, suspended={"t1", "t2", "t3"})
    assert isinstance(order.lot.seed, int) and order.lot.verify()
    again = draft_order(BASE, suspended={"t1", "t2", "t3"}, seed=order.lot.seed)
    assert again.order == order.order


def test_tampered_draws_fail_verification():
    lot = draw_lots(["a", "b", "c", "d"], 7)  # c d a b
    assert lot.verify()
    assert not LotDraw(lot.entrants, ("d", "c", "a", "b"), 7).verify()  # order changed
    assert not LotDraw(lot.entrants, lot.order, 8).verify()  # seed changed (8: b d c a)
    assert not LotDraw(lot.entrants, ("a", "b", "c", "z"), None, "manual").verify()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"base_order": ["t1", "t1"]},
        {"base_order": BASE, "reaped": {"t9": Fraction(1)}},
        {"base_order": BASE, "suspended": {"t9"}},
        {"base_order": BASE, "suspended": {"t1", "t2"}, "seed": 1.5},
        {"base_order": BASE, "suspended": {"t1", "t2"}, "seed": True},
    ],
)
def test_bad_input(kwargs):
    with pytest.raises(LeagueRuleError):
        draft_order(**kwargs)


def test_draw_rejects_repeated_entrants():
    with pytest.raises(LeagueRuleError):
        draw_lots(["a", "a"], 1)
    assert draw_lots([], 1).order == () and draw_lots(["a"], 1).order == ("a",)


def test_rule_codes_are_documented():
    order = draft_order(BASE, reaped={"t1": Fraction(1)}, suspended={"t2", "t3"}, seed=3)
    assert {s.rule for s in order.slots} <= set(RULES)
    assert order.slots[0].as_dict() == {
        "position": 1,
        "team": "t4",
        "rule": "base_order",
        "detail": "base order 4",
    }


def test_from_the_compliance_table_to_the_draft():
    """End to end: a review reaps two users; their exact ratios order them in the draft."""
    tz = UTC

    def fixture(id, home, away, reported):
        return ComplianceFixture(
            id,
            home,
            away,
            datetime(2026, 3, 8, 23, 59, tzinfo=tz),
            datetime(2026, 3, 11, 23, 59, tzinfo=tz),
            reported_at=reported,
            status="played" if reported else "scheduled",
        )

    fixtures = [
        fixture("m1", "t1", "t2", None),  # t1 and t2 reaped
        fixture("m2", "t1", "t3", datetime(2026, 3, 7, tzinfo=tz)),
        fixture("m3", "t2", "t4", datetime(2026, 3, 10, tzinfo=tz)),
    ]
    table = compute_compliance(
        fixtures,
        datetime(2026, 7, 1, tzinfo=tz),
        reviews=[Review("first_half", datetime(2026, 6, 30, tzinfo=tz))],
    )
    reaped = {row.user: row.ratio for row in table.rows if row.reaped}
    assert reaped == {"t1": Fraction(1, 2), "t2": Fraction(1, 4)}
    order = draft_order(["t1", "t2", "t3", "t4"], reaped=reaped)
    assert order.order == ("t3", "t4", "t1", "t2")


@given(
    st.permutations(BASE),
    st.dictionaries(st.sampled_from(BASE), st.fractions(0, 1), max_size=4),
    st.sets(st.sampled_from(BASE), max_size=4),
    st.integers(0, 2**64),
)
def test_draft_properties(base, reaped, suspended, seed):
    order = draft_order(base, reaped=reaped, suspended=suspended, seed=seed)
    assert sorted(order.order) == sorted(BASE)
    kinds = [slot.rule for slot in order.slots]
    rank = {"base_order": 0, "reaped": 1, "suspended": 2, "suspended_lot": 2}
    assert [rank[k] for k in kinds] == sorted(rank[k] for k in kinds)
    plain = [slot.team for slot in order.slots if slot.rule == "base_order"]
    assert plain == [t for t in base if t not in reaped and t not in suspended]
    ratios = [reaped[slot.team] for slot in order.slots if slot.rule == "reaped"]
    assert ratios == sorted(ratios, reverse=True)
    assert {s.team for s in order.slots if s.rule.startswith("suspended")} == set(suspended)
    if order.lot is not None:
        assert order.lot.verify()
