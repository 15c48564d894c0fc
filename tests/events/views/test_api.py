"""docs/contracts.md §2–§3: the standings API and the sheet check API."""

import json

import pytest
from django.urls import reverse

from events import services
from standings.services import event_standings

CHECK = "/api/v1/vekn/check-table"


def post(client, body):
    return client.post(CHECK, data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    ("vp", "valid", "complete"),
    [
        ([1.5, 0, 0.5, 0.5], True, True),  # TR §3.7.4 example 2
        ([1, 1, 1, 1], False, True),  # Σ ceil = 4, but nobody can be last standing
        ([1.5, 0, 1.5, 0, 0.5], True, True),  # TR §3.7.4 example 1
        ([1, None, None, None], True, False),
        ([0, 0, 0, 0], True, False),
        ([5, 5, 5, 5, 5], False, True),
        ([0.3, 0, 0, 0], False, None),
    ],
)
def test_check_table(client, vp, valid, complete):
    from decimal import Decimal

    from standings.vekn import check_sheet

    expected = check_sheet([None if v is None else Decimal(str(v)) for v in vp])
    response = post(client, {"vp": vp})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"valid", "complete", "reason"}
    # The API answers exactly what the rule says …
    assert (body["valid"], body["complete"]) == (expected.valid, expected.complete)
    # … and the rule agrees with the hand-made expectations where we stated them.
    if valid is not None:
        assert body["valid"] is valid
    if complete is not None and body["valid"]:
        assert body["complete"] is complete
    assert (body["reason"] is None) == body["valid"]


def test_check_table_example_from_contracts(client):
    assert post(client, {"vp": [1.5, 0, 0.5, 0.5]}).json() == {
        "valid": True,
        "complete": True,
        "reason": None,
    }
    running = post(client, {"vp": [1, 0, None, None]}).json()
    assert running["complete"] is False and running["valid"] is True


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b'{"vp": 3}',
        b'{"vp": ["x", 0, 0, 0]}',
        b'{"vp": [true, 0, 0, 0]}',
        b'{"vp": [NaN, 0, 0, 0]}',
        b'{"vp": ["1e999999999", 0, 0, 0]}',
        b"[" * 100000 + b"]" * 100000,
    ],
)
def test_check_table_bad_input_is_400(client, raw):
    response = client.post(CHECK, data=raw, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json()


def test_check_table_is_post_only(client):
    assert client.get(CHECK).status_code == 405


def test_standings_document(client, played_event, django_assert_max_num_queries):
    event = played_event
    url = reverse("api-standings", kwargs={"slug": event.slug})
    assert client.get(url).status_code == 404  # not published yet
    services.set_standings_published(event, True)
    response = client.get(url)
    assert response.status_code == 200
    doc = response.json()
    assert doc["event"] == event.slug and doc["ruleset"] == "vekn" and doc["final_played"] is False
    assert doc["penalties"] == []
    assert len(doc["standings"]) == 12
    row = doc["standings"][0]
    assert set(row) == {
        "rank",
        "player",
        "name",
        "prelim_gw",
        "prelim_vp",
        "prelim_tp",
        "finalist",
        "final_vp",
        "winner",
        "toss",
        "rating_points",  # docs/contracts.md §9: null until the final is played
    }
    assert row["rating_points"] is None
    assert row["rank"] == 1 and isinstance(row["prelim_vp"], float)
    ranks = [r["rank"] for r in doc["standings"]]
    assert ranks == sorted(ranks)
    # Same numbers as the rules module.
    result = event_standings(event)
    assert [r["prelim_tp"] for r in doc["standings"]] == [
        r.prelim_tp for r in result.standings.rows
    ]


def test_unknown_event_is_404(client, db):
    assert client.get("/api/v1/events/nope/standings").status_code == 404


# --------------------------------------------------------------------------- public penalties
def _vekn_judged(event):
    """A published VEKN event with a caution, a warning, a pending and a confirmed
    standings adjustment and a disqualification (in that order)."""
    from tests.conftest import add_players
    from tests.penalties.services.test_services import JUDGE, log

    add_players(event, 10)
    rnd = services.seat_next_round(event, seed=1)
    regs = [s.registration for s in rnd.seats.order_by("table__number", "position")]
    table = rnd.tables.first()
    log(event, regs[0], "3.3")  # caution
    log(event, regs[1], "3.8")  # warning
    log(event, regs[2], "2.4", perms=JUDGE, table=table)  # SA awaiting the head judge
    log(event, regs[3], "2.4", table=table)  # SA confirmed by the head judge
    log(event, regs[4], "4.7", table=table)  # a disqualification
    services.set_standings_published(event, True)
    return regs


def _levels(doc):
    return [(p["infraction"], p["level"], p["pending_approval"]) for p in doc["penalties"]]


def test_anonymous_standings_list_only_final_penalties_that_change_standings(client, event, staff):
    """Issue 12: the public pages show no penalty while the anonymous API listed warnings
    (and a MyL game loss under appeal): anonymous callers now get only confirmed standings
    adjustments, game losses and disqualifications; staff keep every one."""
    _vekn_judged(event)
    url = reverse("api-standings", kwargs={"slug": event.slug})
    public = client.get(url).json()
    assert _levels(public) == [
        ("2.4", "standings_adjustment", False),
        ("4.7", "disqualification", False),
    ]
    client.force_login(staff["judge"])
    full = client.get(url).json()
    assert _levels(full) == [
        ("3.3", "caution", False),
        ("3.8", "warning", False),
        ("2.4", "standings_adjustment", True),
        ("2.4", "standings_adjustment", False),
        ("4.7", "disqualification", False),
    ]
    # The same document shape, key by key.
    assert set(public) == set(full)
    assert {frozenset(p) for p in public["penalties"]} == {frozenset(full["penalties"][0])}
    # A signed-in player who is not staff gets the public document.
    client.force_login(staff["outsider"])
    assert _levels(client.get(url).json()) == _levels(public)


def test_the_staff_and_public_standings_documents_never_mix_in_the_cache(client, event, staff):
    from django.test import Client

    _vekn_judged(event)
    url = reverse("api-standings", kwargs={"slug": event.slug})
    judge = Client()
    judge.force_login(staff["judge"])
    # Staff first: the anonymous caller after them still gets the public document …
    assert len(judge.get(url).json()["penalties"]) == 5
    assert len(Client().get(url).json()["penalties"]) == 2
    # … and with the public one cached, staff still get theirs, then the public theirs.
    assert len(judge.get(url).json()["penalties"]) == 5
    anonymous = Client().get(url)
    assert len(anonymous.json()["penalties"]) == 2
    # Nor may a shared HTTP cache mix them: both answers vary on the session cookie.
    for response in (anonymous, judge.get(url)):
        assert "Cookie" in response.headers.get("Vary", "")


def test_the_standings_command_keeps_every_penalty(event, staff):
    """``manage.py standings SLUG --json`` is run by staff on the server: the full list."""
    from io import StringIO

    from django.core.management import call_command

    _vekn_judged(event)
    out = StringIO()
    call_command("standings", event.slug, "--json", stdout=out)
    assert len(json.loads(out.getvalue())["penalties"]) == 5


def test_anonymous_standings_leave_out_a_myl_game_loss_under_appeal(client, db):
    import datetime as dt

    from penalties import myl_services
    from tests.factories import RegistrationFactory, UserFactory
    from tests.penalties.services.test_myl_services import log, myl_event, seat_round

    event = myl_event(slug="myl-api")
    regs = [RegistrationFactory(event=event) for _ in range(4)]
    seat_round(event, regs, 1)
    log(event, regs[0], "2.1")  # a warning
    loss = log(event, regs[0], "2.1").penalty  # the repeat: a game loss
    assert (loss.level, loss.status) == ("game_loss", "confirmed")
    services.set_standings_published(event, True)
    url = reverse("api-standings", kwargs={"slug": event.slug})
    assert _levels(client.get(url).json()) == [("2.1", "game_loss", False)]  # cached now
    player = UserFactory()
    regs[0].person.user = player
    regs[0].person.save()
    appeal = myl_services.submit_written_appeal(loss, "I did not", player, on=dt.date(2026, 9, 18))
    assert client.get(url).json()["penalties"] == []  # under appeal: not final
    from events.models import EventRole
    from events.permissions import Role

    judge = UserFactory()
    EventRole.objects.create(event=event, user=judge, role=Role.JUDGE)
    client.force_login(judge)
    assert _levels(client.get(url).json()) == [
        ("2.1", "warning", False),
        ("2.1", "game_loss", False),
    ]
    client.logout()
    from events.models import AuthorityRole

    manager = UserFactory()  # the national Organised Play manager
    AuthorityRole.objects.create(user=manager, ruleset="myl")
    myl_services.decide_written_appeal(appeal, "confirmed", "The judge saw it", manager)
    assert _levels(client.get(url).json()) == [("2.1", "game_loss", False)]
