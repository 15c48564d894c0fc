"""Squads (leagues.squads; docs/leagues.md "Squads"; ANFPES T24 §1.4): who edits them,
pasted lines all or nothing, the database's constraints, the reports' footballers matched
to the squad, and the suspensions keyed on the squad footballer."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues import reporting, services, squads, suspensions
from leagues.models import Card, Footballer, Match, SeasonRole, Team
from tests.factories import UserFactory
from tests.leagues.views.test_reporting import png

pytestmark = pytest.mark.django_db


def cup_season():
    """A cup final over three legs' worth of fixtures: k1 played (a typed yellow for t1's
    "M. Ballack"), k2 to report, k3 scheduled."""
    teams = [{"id": f"t{i}", "name": f"Team {i}", "user": f"user{i}"} for i in (1, 2)]
    cup = {
        "slug": "t24-cup",
        "kind": "knockout",
        "name": "Cup",
        "teams": ["t1", "t2"],
        "matches": [
            {
                "id": "k1",
                "round": 1,
                "home": "t1",
                "away": "t2",
                "home_goals": 1,
                "away_goals": 0,
                "status": "played",
                "reported_at": "2026-03-02T21:10:00-03:00",
                "tie": "sf1",
                "leg": 1,
                "cards": [{"team": "t1", "footballer": "M. Ballack", "card": "yellow"}],
            },
            {"id": "k2", "round": 1, "home": "t2", "away": "t1", "tie": "sf1", "leg": 2},
            {"id": "k3", "round": 2, "home": "t1", "away": "t2", "tie": "f1", "leg": 1},
        ],
    }
    return {"format": "arbitro.season/1", "slug": "t24", "name": "T24", "teams": teams,
            "competitions": [cup]}  # fmt: skip


@pytest.fixture
def cup():
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in (1, 2)}
    season = services.import_season(cup_season())
    staff = UserFactory(username="squad-staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    return {
        "season": season,
        "t1": Team.objects.select_related("season").get(code="t1"),
        "t2": Team.objects.select_related("season").get(code="t2"),
        "staff": staff,
        **users,
    }


def match(code):
    return Match.objects.select_related("competition__season", "home", "away").get(code=code)


# --------------------------------------------------------------------------- editing
def test_the_owner_edits_until_staff_close_the_squads(cup):
    t1 = cup["t1"]
    added = squads.add_footballers(
        t1, cup["user1"], [(1, 13, "Michael  Ballack"), (2, None, "K. Dós")]
    )
    assert [(f.number, f.name, f.name_key) for f in added] == [
        (13, "Michael Ballack", "michael ballack"),
        (None, "K. Dós", "k. dos"),
    ]
    assert AuditLog.objects.filter(action="league.squad_added", target="t24/squads/t1").exists()
    with pytest.raises(PermissionDenied):  # another team's player
        squads.add_footballers(t1, cup["user2"], [(1, 7, "X")])
    with pytest.raises(PermissionDenied):
        squads.set_lock(cup["season"], cup["user1"], True)
    squads.set_lock(cup["season"], cup["staff"], True)
    assert squads.is_locked(cup["season"])
    assert not squads.may_edit(cup["user1"], t1) and squads.may_edit(cup["staff"], t1)
    with pytest.raises(PermissionDenied):
        squads.add_footballers(t1, cup["user1"], [(1, 7, "X")])
    squads.add_footballers(t1, cup["staff"], [(1, 7, "X. Late")])  # staff still may
    squads.set_lock(cup["season"], cup["staff"], False)
    assert squads.may_edit(cup["user1"], t1)
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"league.squads_closed", "league.squads_opened"} <= actions


def test_a_paste_with_a_bad_line_saves_nothing_and_names_each_line(cup):
    t1 = cup["t1"]
    squads.add_footballers(t1, cup["user1"], [(1, 13, "M. Ballack")])
    with pytest.raises(UserError) as refused:
        squads.add_footballers(
            t1,
            cup["user1"],
            [(1, 9, "A. New"), (2, None, "m. BALLACK"), (3, 13, "B. Other"), (4, 100, "C"),
             (5, 9, "D. Twice")],
        )  # fmt: skip
    message = str(refused.value)
    assert "Line 2: m. BALLACK is already in the squad." in message
    assert "Line 3: number 13 is already M. Ballack's." in message
    assert "Line 4: A shirt number goes from 1 to 99." in message
    assert "Line 5: number 9 is already A. New's." in message
    assert list(t1.squad.values_list("name", flat=True)) == ["M. Ballack"]


def test_the_database_holds_the_squads_invariants(cup):
    t1, t2 = cup["t1"], cup["t2"]
    Footballer.objects.create(team=t1, name="N. One", name_key="n. one", number=7)
    Footballer.objects.create(team=t2, name="N. One", name_key="n. one", number=7)  # other team
    for bad in (
        {"name": "N. One", "name_key": "n. one"},
        {"name": "N. Two", "name_key": "n. two", "number": 7},
        {"name": "N. Three", "name_key": "n. three", "number": 0},
        {"name": "N. Four", "name_key": "n. four", "number": 100},
        {"name": "", "name_key": ""},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Footballer.objects.create(team=t1, **bad)


def test_rename_and_remove(cup):
    (f,) = squads.add_footballers(cup["t1"], cup["user1"], [(1, 13, "M. Ballack")])
    squads.add_footballers(cup["t1"], cup["user1"], [(1, 7, "K. Dos")])
    with pytest.raises(UserError, match="Another footballer"):
        squads.change_footballer(f, cup["user1"], name="K. Dós", number=13)
    f.refresh_from_db()
    squads.change_footballer(f, cup["user1"], name="Michael Ballack", number=8)
    f.refresh_from_db()
    assert (f.name, f.name_key, f.number) == ("Michael Ballack", "michael ballack", 8)
    Card.objects.create(match=match("k1"), team=cup["t1"], footballer="x", card="yellow", squad=f)
    with pytest.raises(UserError, match="has cards"):
        squads.remove_footballer(f, cup["user1"])
    other = Footballer.objects.get(name="K. Dos")
    squads.remove_footballer(other, cup["user1"])
    assert not Footballer.objects.filter(pk=other.pk).exists()


# --------------------------------------------------------------------------- reports
def report(cup, code, user, **kwargs):
    return reporting.report_result(
        match(code),
        user,
        home_goals=0,
        away_goals=1,
        posted_at=timezone.now() - timedelta(minutes=20),
        screenshot=png(),
        **kwargs,
    )


def test_a_report_picks_the_squad_footballer_and_flags_the_others(cup):
    (ballack,) = squads.add_footballers(cup["t1"], cup["user1"], [(1, 13, "M. Ballack")])
    r = report(
        cup,
        "k2",
        cup["user2"],
        cards=[
            {"team": "away", "footballer": "#13", "card": "yellow"},
            {"team": "away", "footballer": "Nobody Listed", "card": "yellow"},
            {"team": "home", "footballer": "T. Two", "card": "red"},  # t2 has no squad
        ],
        lineup=[
            {"team": "away", "footballer": "m. ballack"},
            {"team": "away", "footballer": "#13"},
        ],
    )
    assert r.cards == [
        {"team": "t1", "footballer": "M. Ballack", "card": "yellow", "squad": ballack.pk},
        {"team": "t1", "footballer": "Nobody Listed", "card": "yellow", "unlisted": True},
        {"team": "t2", "footballer": "T. Two", "card": "red"},
    ]
    assert r.lineup == [{"team": "t1", "footballer": "M. Ballack", "squad": ballack.pk}]
    assert squads.unlisted(r.cards, r.lineup) == [{"team": "t1", "footballer": "Nobody Listed"}]
    with pytest.raises(UserError, match="No footballer of Team 1 wears #99"):
        reporting.check_cards(match("k2"), [{"team": "t1", "footballer": "#99", "card": "red"}])
    reporting.confirm_report(r, cup["user1"])
    card = Card.objects.get(match__code="k2", footballer="M. Ballack")
    assert card.squad == ballack


def test_two_typings_of_one_squad_footballer_suspend_him_and_a_rename_follows(cup):
    """k1's typed "M. Ballack" and k2's "#13" are one footballer once the squad spells
    him so; renamed, his suspension follows him; named by number in the next match's
    open report, the fixture is flagged (ANFPES T24 §1.4 ¶3)."""
    (ballack,) = squads.add_footballers(cup["t1"], cup["user1"], [(1, 13, "Michael Ballack")])
    r = report(
        cup, "k2", cup["user2"], cards=[{"team": "t1", "footballer": "#13", "card": "yellow"}]
    )
    reporting.confirm_report(r, cup["user1"])
    doc = suspensions.season_suspensions(cup["season"])
    assert doc["suspensions"] == []  # "M. Ballack" (k1) is not the squad's "Michael Ballack"
    squads.change_footballer(ballack, cup["user1"], name="M. Ballack", number=13)
    doc = suspensions.season_suspensions(cup["season"])
    (item,) = doc["suspensions"]
    assert (item["footballer"], item["squad"], item["cause"], item["next_match"]) == (
        "M. Ballack",
        ballack.pk,
        "two_yellows",
        "t24-cup/k3",
    )
    squads.change_footballer(ballack, cup["staff"], name="Michael Ballack", number=13)
    (item,) = suspensions.season_suspensions(cup["season"])["suspensions"]
    assert (item["footballer"], item["squad"]) == ("Michael Ballack", ballack.pk)
    # Named by his number in k3's open report: flagged.
    report(cup, "k3", cup["user2"], lineup=[{"team": "t1", "footballer": "#13"}])
    flags = suspensions.suspension_flags(cup["season"], match=match("k3"))
    assert [(f["footballer"], f["where"]) for f in flags] == [("Michael Ballack", "lineup")]
