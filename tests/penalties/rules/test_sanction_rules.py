"""The reach of a suspension or ban (penalties.sanction_rules; issue 12): pure, no
database."""

import datetime as dt

import pytest

from penalties.sanction_rules import EventFacts, Reach, SanctionFacts, blocks, covers, reach

A, B = 1, 2
DAY = dt.date(2026, 12, 5)


def sanction(**kw):
    base = {
        "starts_on": dt.date(2026, 12, 1),
        "ends_on": None,
        "ruleset": "myl",
        "organisation_id": B,
        "confirmed": False,
        "lifted": False,
    }
    return SanctionFacts(**{**base, **kw})


def event(ruleset="myl", organisation_id=A, date=DAY):
    return EventFacts(date=date, ruleset=ruleset, organisation_id=organisation_id)


@pytest.mark.parametrize(
    "facts, ev, expected",
    [
        # Another organisation's sanction, not confirmed: not yet.
        (sanction(), event(), Reach.PENDING_AUTHORITY),
        # The issuing organisation's own events: at once.
        (sanction(), event(organisation_id=B), Reach.ISSUING_ORGANISATION),
        # Confirmed by the authority: every organisation.
        (sanction(confirmed=True), event(), Reach.CONFIRMED),
        # Never the other ruleset, even confirmed, even the issuing organisation's.
        (sanction(confirmed=True), event(ruleset="vekn"), Reach.OTHER_RULESET),
        (sanction(), event(ruleset="vekn", organisation_id=B), Reach.OTHER_RULESET),
        # Given by the authority itself (no issuer): confirmed at creation.
        (sanction(organisation_id=None, confirmed=True), event(), Reach.CONFIRMED),
        (sanction(organisation_id=None), event(), Reach.PENDING_AUTHORITY),
        # Lifted or outside its period: nothing.
        (sanction(confirmed=True, lifted=True), event(), Reach.LIFTED),
        (sanction(ends_on=dt.date(2026, 12, 4), confirmed=True), event(), Reach.OUTSIDE_PERIOD),
        (sanction(starts_on=dt.date(2026, 12, 6), confirmed=True), event(), Reach.OUTSIDE_PERIOD),
    ],
)
def test_reach(facts, ev, expected):
    assert reach(facts, ev) == expected
    assert blocks(facts, ev) is (expected in (Reach.ISSUING_ORGANISATION, Reach.CONFIRMED))


def test_a_suspension_covers_its_first_and_last_day_only():
    s = sanction(starts_on=dt.date(2026, 12, 1), ends_on=dt.date(2026, 12, 5))
    assert covers(s, dt.date(2026, 12, 1)) and covers(s, dt.date(2026, 12, 5))
    assert not covers(s, dt.date(2026, 11, 30)) and not covers(s, dt.date(2026, 12, 6))
    assert covers(sanction(), dt.date(2099, 1, 1))  # a permanent ban never ends


def test_the_authority_decides_appeals_only_where_it_is_not_staff():
    """events.permissions.permissions_for (issue 12, finding 3)."""
    from events.permissions import Permission as P
    from events.permissions import Role, permissions_for

    assert permissions_for(set(), authority=True) == {P.VIEW_STAFF_PAGES, P.DECIDE_APPEALS}
    for role in Role:
        assert P.DECIDE_APPEALS not in permissions_for({role}, authority=True), role
        assert P.DECIDE_APPEALS not in permissions_for({role}), role
    assert permissions_for(set()) == frozenset()
    assert "op_manager" not in Role.values
