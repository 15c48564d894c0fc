"""The judge's offline tablet (issue 7): its snapshot, its idempotent sync endpoint and
its service worker. The browser side (offline mode, reload, the queue on the page) is in
``tests/browser/test_offline_tablet.py``."""

import datetime as dt
import json
import uuid

import pytest
from django.urls import reverse

from events import services
from events.models import AuditLog, ResultSubmission, Seat, Table
from penalties.models import Penalty
from tests.conftest import add_players

LEGAL_4 = ["2", "1", "1", "0"]  # a legal sheet of a 4-player table (2 + 1 + 1 + 0)
LEGAL_4_OTHER = ["0.5", "0.5", "0.5", "0.5"]  # time-out: half a VP each


@pytest.fixture
def floor(event, staff):
    """``event`` with 8 players seated at two tables of 4 in round 1."""
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    tables = list(rnd.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [4, 4]
    return {"event": event, "round": rnd, "tables": tables, "users": staff}


def _url(event, name):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug})


def _sync(client, event, item, raw=None):
    return client.post(
        _url(event, "tablet-sync"),
        data=raw if raw is not None else json.dumps(item),
        content_type="application/json",
    )


def _result(table, vp, version=None, client_id=None):
    return {
        "id": str(client_id or uuid.uuid4()),
        "kind": "result",
        "table": table.pk,
        "version": table.version if version is None else version,
        "vp": vp,
    }


def _incident(reg, code="3.3", answers=None, table=None, client_id=None, **extra):
    return {
        **extra,
        "id": str(client_id or uuid.uuid4()),
        "kind": "incident",
        "registration": reg.pk,
        "code": code,
        "answers": answers or {},
        "table": table.pk if table else None,
    }


def _seat_regs(table):
    return [s.registration for s in Seat.objects.filter(table=table).order_by("position")]


def _vps(table):
    return [
        None if v is None else f"{v:.1f}"
        for v in Seat.objects.filter(table=table).order_by("position").values_list("vp", flat=True)
    ]


# --------------------------------------------------------------------------- snapshot
def test_snapshot_has_the_round_tables_and_the_catalogue_for_a_judge(
    client, floor, django_assert_max_num_queries
):
    client.force_login(floor["users"]["judge"])
    with django_assert_max_num_queries(9):
        response = client.get(_url(floor["event"], "tablet-data"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["round"]["number"] == 1
    assert [t["number"] for t in data["tables"]] == [1, 2]
    table = data["tables"][0]
    assert table["version"] == floor["tables"][0].version
    assert [s["registration"] for s in table["seats"]] == [
        r.pk for r in _seat_regs(floor["tables"][0])
    ]
    assert all(s["name"] and s["vp"] is None for s in table["seats"])
    assert data["can_log"] and data["can_enter"]
    codes = [i["code"] for i in data["infractions"]]
    assert codes[0] == "3.3" and "2.1" in codes
    two_one = next(i for i in data["infractions"] if i["code"] == "2.1")
    assert two_one["conditions"] and all("question" in c for c in two_one["conditions"])
    assert data["csrf"]


def test_snapshot_queries_do_not_grow_with_the_tables(
    client, event, staff, django_assert_max_num_queries
):
    add_players(event, 40)
    services.seat_next_round(event, seed=1)
    client.force_login(staff["judge"])
    with django_assert_max_num_queries(9):
        data = client.get(_url(event, "tablet-data")).json()
    assert len(data["tables"]) == 8


def test_scorekeeper_snapshot_has_no_catalogue(client, floor):
    client.force_login(floor["users"]["scorekeeper"])
    data = client.get(_url(floor["event"], "tablet-data")).json()
    assert data["can_enter"] and not data["can_log"]
    assert data["infractions"] == [] and data["others"] == []
    assert len(data["tables"]) == 2


def test_snapshot_before_any_round(client, event, staff):
    client.force_login(staff["judge"])
    data = client.get(_url(event, "tablet-data")).json()
    assert data["round"] is None and data["tables"] == []


def test_spanish_catalogue(client, floor):
    client.force_login(floor["users"]["judge"])
    data = client.get(_url(floor["event"], "tablet-data"), HTTP_ACCEPT_LANGUAGE="es").json()
    slow = next(i for i in data["infractions"] if i["code"] == "3.3")
    from penalties.vekn_guide import VEKN_V2

    assert slow["name"] == VEKN_V2.catalogue["3.3"].name_es


# --------------------------------------------------------------------------- page & worker
def test_page_and_worker(client, floor):
    event = floor["event"]
    client.force_login(floor["users"]["judge"])
    page = client.get(_url(event, "tablet"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="tablet-strings"' in html and "js/tablet.js" in html
    assert "<script>" not in html  # nothing inline (CSP)
    worker = client.get(_url(event, "tablet-worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("application/javascript")
    assert worker["Cache-Control"] == "no-cache"
    body = worker.content.decode()
    assert _url(event, "tablet") in body and "/static/js/tablet.js" in body
    # The round page and the dashboard link to it.
    round_page = client.get(reverse("manage:round", kwargs={"slug": event.slug, "number": 1}))
    assert _url(event, "tablet") in round_page.content.decode()
    assert _url(event, "tablet") in client.get(_url(event, "dashboard")).content.decode()


# --------------------------------------------------------------------------- Mitos y Leyendas
@pytest.fixture
def myl_floor(db):
    from events import swiss_services as ss
    from events.models import EventRole
    from events.permissions import Role
    from tests.events.services.test_swiss_services import make_event
    from tests.factories import UserFactory

    event, _ = make_event(5)
    users = {}
    for role in (Role.JUDGE, Role.SCOREKEEPER):
        users[role.value] = UserFactory(username=f"myl-{role.value}")
        EventRole.objects.create(event=event, user=users[role.value], role=role)
    rnd = ss.pair_next_round(event, seed=1)
    tables = list(rnd.tables.order_by("number"))
    return {"event": event, "tables": tables, "users": users}


def test_myl_snapshot_has_matches_byes_and_the_conduct_rules(client, myl_floor):
    client.force_login(myl_floor["users"]["judge"])
    data = client.get(_url(myl_floor["event"], "tablet-data")).json()
    assert data["ruleset"] == "myl" and data["best_of"] == 3
    assert [t["bye"] for t in data["tables"]].count(True) == 1
    assert {i["code"] for i in data["infractions"]} >= {"2.1", "3.2.4"}
    assert client.get(_url(myl_floor["event"], "tablet")).status_code == 200


def test_myl_match_result_once_and_conflict(client, myl_floor):
    event = myl_floor["event"]
    match = next(t for t in myl_floor["tables"] if not t.is_bye)
    client.force_login(myl_floor["users"]["scorekeeper"])
    item = {
        "id": str(uuid.uuid4()),
        "kind": "result",
        "table": match.pk,
        "version": match.version,
        "games": [2, 1],
    }
    assert _sync(client, event, item).json()["status"] == "saved"
    assert _sync(client, event, item).json()["status"] == "duplicate"
    match.refresh_from_db()
    assert match.version == 1
    games = list(
        Seat.objects.filter(table=match).order_by("position").values_list("games_won", flat=True)
    )
    assert games == [2, 1]
    stale = {**item, "id": str(uuid.uuid4()), "games": [0, 2]}
    response = _sync(client, event, stale)
    assert response.status_code == 409
    assert [s["games"] for s in response.json()["table"]["seats"]] == [2, 1]
    assert ResultSubmission.objects.get().values == [2, 1]
    bye = next(t for t in myl_floor["tables"] if t.is_bye)
    response = _sync(client, event, {**item, "id": str(uuid.uuid4()), "table": bye.pk})
    assert response.status_code == 400


def test_myl_incident_once(client, myl_floor):
    event = myl_floor["event"]
    match = next(t for t in myl_floor["tables"] if not t.is_bye)
    reg = _seat_regs(match)[0]
    client.force_login(myl_floor["users"]["judge"])
    item = _incident(reg, "2.1", table=match)
    first = _sync(client, event, item).json()
    assert first["status"] == "saved", first
    assert first["penalty"]["level"] == "warning"
    assert first["penalty"]["level_label"] == "Warning"
    assert _sync(client, event, item).json()["status"] == "duplicate"
    assert Penalty.objects.get(event=event).ruleset == "myl"


# --------------------------------------------------------------------------- results
def test_result_saved_once_and_replay_is_already_saved(client, floor):
    event, table = floor["event"], floor["tables"][0]
    client.force_login(floor["users"]["scorekeeper"])
    item = _result(table, LEGAL_4)
    first = _sync(client, event, item)
    assert first.status_code == 200, first.content
    assert first.json()["status"] == "saved"
    assert first.json()["table"]["version"] == table.version + 1
    # The answer was lost; the tablet sends the same entry again, and again.
    for _ in range(2):
        again = _sync(client, event, item)
        assert again.status_code == 200
        assert again.json()["status"] == "duplicate"
    table.refresh_from_db()
    assert table.version == 1
    assert _vps(table) == ["2.0", "1.0", "1.0", "0.0"]
    assert AuditLog.objects.filter(event=event, action="result.save").count() == 1
    assert ResultSubmission.objects.get().client_id == uuid.UUID(item["id"])


def test_replay_after_someone_else_changed_the_table_is_not_a_false_conflict(client, floor):
    event, table = floor["event"], floor["tables"][0]
    client.force_login(floor["users"]["judge"])
    item = _result(table, LEGAL_4)
    assert _sync(client, event, item).json()["status"] == "saved"
    table.refresh_from_db()
    services.save_results(
        table, [services.parse_vp(v) for v in LEGAL_4_OTHER], version=table.version
    )
    again = _sync(client, event, item)
    assert again.json()["status"] == "duplicate"
    assert _vps(table) == ["0.5", "0.5", "0.5", "0.5"]  # the later change stays


def test_stale_version_is_a_conflict_and_changes_nothing(client, floor):
    event, table = floor["event"], floor["tables"][1]
    client.force_login(floor["users"]["judge"])
    stale_version = table.version
    services.save_results(
        table, [services.parse_vp(v) for v in LEGAL_4_OTHER], version=table.version
    )
    response = _sync(client, event, _result(table, LEGAL_4, version=stale_version))
    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "conflict"
    assert answer["message"]
    assert answer["table"]["version"] == stale_version + 1
    assert [s["vp"] for s in answer["table"]["seats"]] == ["0.5", "0.5", "0.5", "0.5"]
    assert _vps(table) == ["0.5", "0.5", "0.5", "0.5"]
    assert not ResultSubmission.objects.exists()
    # The judge decides to enter theirs on the current version: a new entry, saved.
    again = _sync(client, event, _result(table, LEGAL_4, version=answer["table"]["version"]))
    assert again.json()["status"] == "saved"
    assert _vps(table) == ["2.0", "1.0", "1.0", "0.0"]


def test_illegal_sheet_is_invalid(client, floor):
    event, table = floor["event"], floor["tables"][0]
    client.force_login(floor["users"]["scorekeeper"])
    response = _sync(client, event, _result(table, ["4", "4", "0", "0"]))
    assert response.status_code == 400
    assert response.json()["status"] == "invalid"
    table.refresh_from_db()
    assert table.version == 0


def test_table_of_another_event_is_invalid(client, floor):
    from tests.factories import EventFactory

    other = EventFactory(slug="elsewhere")
    add_players(other, 4)
    other_table = services.seat_next_round(other, seed=1).tables.get()
    client.force_login(floor["users"]["judge"])
    response = _sync(client, floor["event"], _result(other_table, LEGAL_4))
    assert response.status_code == 400
    assert Table.objects.get(pk=other_table.pk).version == 0


# --------------------------------------------------------------------------- incidents
def test_incident_sent_twice_is_one_penalty(client, floor):
    event, table = floor["event"], floor["tables"][0]
    reg = _seat_regs(table)[0]
    client.force_login(floor["users"]["judge"])
    item = _incident(reg, "3.3", table=table)
    first = _sync(client, event, item)
    assert first.status_code == 200, first.content
    answer = first.json()
    assert answer["status"] == "saved"
    assert answer["penalty"]["level"] == "caution"
    assert answer["penalty"]["infraction"] == "3.3"
    assert reg.person.name in answer["message"]
    second = _sync(client, event, item)
    assert second.json()["status"] == "duplicate"
    assert second.json()["penalty"]["id"] == answer["penalty"]["id"]
    penalty = Penalty.objects.get(event=event)
    assert penalty.client_id == uuid.UUID(item["id"])
    assert penalty.table_id == table.pk and penalty.timing == "during_game"
    assert AuditLog.objects.filter(event=event, action="penalty.log").count() == 1


def test_incident_penalty_counts_earlier_offences_at_sync_time(client, floor):
    event, table = floor["event"], floor["tables"][0]
    reg = _seat_regs(table)[1]
    client.force_login(floor["users"]["judge"])
    levels = [
        _sync(client, event, _incident(reg, "3.3", table=table, again=True)).json()["penalty"][
            "level"
        ]
        for _ in range(3)
    ]
    assert levels == ["caution", "caution", "warning"]


def test_a_second_sync_of_the_same_offence_is_refused_unless_new(client, floor):
    """The duplicate-offence guard holds offline: another tablet's entry of the same code
    for the same player minutes later is refused (invalid, nothing saved) unless it says
    ``"again": true``; the tablet's own time is what is compared."""
    event, table = floor["event"], floor["tables"][0]
    reg = _seat_regs(table)[1]
    client.force_login(floor["users"]["judge"])
    first = _sync(client, event, _incident(reg, "3.3", table=table)).json()
    assert first["status"] == "saved"
    dup = _incident(reg, "3.3", table=table)
    refused = _sync(client, event, dup).json()
    assert refused["status"] == "invalid"
    assert "already got 3.3" in refused["message"]
    assert not Penalty.objects.filter(client_id=dup["id"]).exists()
    again = _sync(client, event, {**dup, "again": True}).json()
    assert again["status"] == "saved" and again["penalty"]["level"] == "caution"
    assert Penalty.objects.filter(event=event, person=reg.person).count() == 2


def test_incident_with_a_missing_answer_is_invalid(client, floor):
    from penalties.vekn_guide import VEKN_V2

    code = next(
        inf.code for inf in VEKN_V2.catalogue.values() if any(c.required for c in inf.conditions)
    )
    reg = _seat_regs(floor["tables"][0])[0]
    client.force_login(floor["users"]["judge"])
    response = _sync(client, floor["event"], _incident(reg, code))
    assert response.status_code == 400
    assert response.json()["status"] == "invalid"
    assert not Penalty.objects.exists()


def test_an_incident_with_a_null_character_is_invalid_and_nothing_is_saved(client, floor):
    """The web form refuses NUL characters; the tablet's sync does too (events.limits
    .check_free_text, on every path: PostgreSQL cannot store them)."""
    table = floor["tables"][0]
    reg = _seat_regs(table)[0]
    client.force_login(floor["users"]["judge"])
    response = _sync(client, floor["event"], _incident(reg, table=table, description="a\x00b"))
    assert response.status_code == 400
    assert response.json()["status"] == "invalid"
    assert "Null characters" in response.json()["message"]
    assert not Penalty.objects.exists()


def test_scorekeeper_may_not_log_incidents(client, floor):
    reg = _seat_regs(floor["tables"][0])[0]
    client.force_login(floor["users"]["scorekeeper"])
    response = _sync(client, floor["event"], _incident(reg))
    assert response.status_code == 403
    assert response.json()["status"] == "forbidden"
    assert not Penalty.objects.exists()


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "[1, 2]",
        "null",
        "[" * 100_000,
        json.dumps({"kind": "result"}),
        json.dumps({"id": "not-a-uuid", "kind": "incident"}),
        json.dumps({"id": str(uuid.uuid4()), "kind": "teleport"}),
        json.dumps({"id": str(uuid.uuid4()), "kind": "result", "table": "1", "version": 0}),
        json.dumps({"id": str(uuid.uuid4()), "kind": "result", "table": 2**40, "version": 0}),
        json.dumps({"id": str(uuid.uuid4()), "kind": "incident", "registration": True}),
        json.dumps(
            {"id": str(uuid.uuid4()), "kind": "incident", "registration": 1, "answers": [1]}
        ),
        b"\xff\xfe\x00",
    ],
)
def test_bad_input_is_a_400_json_answer(client, floor, raw):
    client.force_login(floor["users"]["judge"])
    response = _sync(client, floor["event"], None, raw=raw)
    assert response.status_code == 400
    assert response.json()["status"] == "invalid"
    assert response.json()["message"]


def test_bad_values_in_a_result_are_invalid(client, floor):
    table = floor["tables"][0]
    client.force_login(floor["users"]["judge"])
    for vp in (["a", "b", "c", "d"], ["1"] * 9, "2110", [{"x": 1}] * 4, ["NaN"] * 4):
        response = _sync(client, floor["event"], _result(table, vp))
        assert response.status_code == 400, vp
    table.refresh_from_db()
    assert table.version == 0


def test_sync_needs_the_csrf_token(floor):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(floor["users"]["judge"])
    table = floor["tables"][0]
    response = _sync(csrf_client, floor["event"], _result(table, LEGAL_4))
    assert response.status_code == 403
    token = csrf_client.get(_url(floor["event"], "tablet-data")).json()["csrf"]
    response = csrf_client.post(
        _url(floor["event"], "tablet-sync"),
        data=json.dumps(_result(table, LEGAL_4)),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200


def test_sync_is_post_only(client, floor):
    client.force_login(floor["users"]["judge"])
    assert client.get(_url(floor["event"], "tablet-sync")).status_code == 405


# --------------------------------------------------------------------------- time zone, logged time
def test_times_are_the_events_time_zone(client, floor):
    """The tablet formats its times in the event's zone (as the round page), not the
    browser's: the zone is in the snapshot and on the page."""
    event = floor["event"]
    event.time_zone = "Europe/Madrid"
    event.save(update_fields=["time_zone"])
    client.force_login(floor["users"]["judge"])
    data = client.get(_url(event, "tablet-data")).json()
    assert data["event"]["time_zone"] == "Europe/Madrid"
    assert 'data-time-zone="Europe/Madrid"' in client.get(_url(event, "tablet")).content.decode()


def _seated_earlier(floor, hours=3):
    """The round was seated ``hours`` ago (an incident may be logged since then)."""
    import datetime as dt

    from django.utils import timezone

    from events.models import Round

    Round.objects.filter(pk=floor["round"].pk).update(
        created_at=timezone.now() - dt.timedelta(hours=hours)
    )
    for t in floor["tables"]:
        t.round.refresh_from_db()


def _ago(**delta):
    import datetime as dt

    from django.utils import timezone

    return timezone.now() - dt.timedelta(**delta)


def test_incident_is_recorded_when_it_was_logged_offline(client, floor):
    """An hour-long outage: the penalty carries the time the judge logged it on the tablet;
    the audit entry both that time and the time it arrived."""
    event, table = floor["event"], floor["tables"][0]
    _seated_earlier(floor)
    reg = _seat_regs(table)[0]
    client.force_login(floor["users"]["judge"])
    logged = _ago(minutes=65)
    item = {**_incident(reg, "3.3", table=table), "logged_at": logged.isoformat()}
    answer = _sync(client, event, item).json()
    assert answer["status"] == "saved", answer
    assert "could not be used" not in answer["message"]
    penalty = Penalty.objects.get(event=event)
    assert abs((penalty.created_at - logged).total_seconds()) < 0.01
    assert answer["penalty"]["logged_at"] == penalty.created_at.isoformat()
    entry = AuditLog.objects.get(event=event, action="penalty.log")
    assert entry.after["logged_at"] == penalty.created_at.isoformat()
    synced = dt.datetime.fromisoformat(entry.after["synced_at"])
    assert synced > penalty.created_at and abs((synced - _ago()).total_seconds()) < 60
    # The JavaScript's Date.toISOString form (UTC, "Z") is accepted too.
    other = {
        **_incident(_seat_regs(table)[1], "3.3", table=table),
        "logged_at": logged.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
    }
    assert _sync(client, event, other).json()["status"] == "saved"
    second = Penalty.objects.get(person=_seat_regs(table)[1].person)
    assert abs((second.created_at - logged).total_seconds()) < 1


@pytest.mark.parametrize(
    "when, trusted",
    [
        ("future", False),  # a tablet clock 10 minutes ahead
        ("skew", True),  # 1 minute ahead: clock skew, taken as now
        ("old", False),  # 13 hours ago
        ("before-round", False),  # before the round was seated
        ("garbage", False),
        ("naive", False),  # no offset: which zone?
        (None, True),  # an older tablet that sends no time: the time it arrives
    ],
)
def test_an_implausible_logged_time_is_replaced_by_the_servers(client, floor, when, trusted):
    import datetime as dt

    from django.utils import timezone

    event, table = floor["event"], floor["tables"][0]
    _seated_earlier(floor, hours=3)
    reg = _seat_regs(table)[0]
    client.force_login(floor["users"]["judge"])
    values = {
        "future": (timezone.now() + dt.timedelta(minutes=10)).isoformat(),
        "skew": (timezone.now() + dt.timedelta(minutes=1)).isoformat(),
        "old": _ago(hours=13).isoformat(),
        "before-round": _ago(hours=4).isoformat(),
        "garbage": "yesterday at noon",
        "naive": _ago(minutes=5).replace(tzinfo=None).isoformat(),
        None: None,
    }
    item = _incident(reg, "3.3", table=table)
    if when is not None:
        item["logged_at"] = values[when]
    before = timezone.now()
    response = _sync(client, event, item)
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["status"] == "saved"
    penalty = Penalty.objects.get(event=event)
    # the server's time (now), never the implausible one
    assert before - dt.timedelta(seconds=1) <= penalty.created_at <= timezone.now()
    assert ("could not be used" in answer["message"]) is (not trusted)
    entry = AuditLog.objects.get(event=event, action="penalty.log")
    assert ("logged_at" in entry.after) is (when == "skew")


def test_offline_incident_counts_at_sync_and_is_listed_when_logged(client, floor):
    """Documented order (docs/offline.md): the offence number is counted when the entry
    arrives, with the offences the server knows then; the record (and a later recount,
    e.g. after a void) follows the time each was logged."""
    event, table = floor["event"], floor["tables"][0]
    _seated_earlier(floor)
    reg = _seat_regs(table)[2]
    client.force_login(floor["users"]["judge"])
    online = _sync(client, event, _incident(reg, "3.3", table=table)).json()["penalty"]
    offline = {**_incident(reg, "3.3", table=table), "logged_at": _ago(minutes=50).isoformat()}
    late = _sync(client, event, offline).json()["penalty"]
    assert (online["offence"], late["offence"]) == (1, 2)
    assert list(Penalty.objects.filter(event=event).values_list("pk", flat=True)) == [
        late["id"],
        online["id"],
    ]


def test_myl_incident_logged_offline_keeps_its_time(client, myl_floor):
    from events.models import Round

    event = myl_floor["event"]
    Round.objects.filter(event=event).update(created_at=_ago(hours=2))
    match = next(t for t in myl_floor["tables"] if not t.is_bye)
    match.round.refresh_from_db()
    client.force_login(myl_floor["users"]["judge"])
    logged = _ago(minutes=30)
    item = {**_incident(_seat_regs(match)[0], "2.1", table=match), "logged_at": logged.isoformat()}
    assert _sync(client, event, item).json()["status"] == "saved"
    penalty = Penalty.objects.get(event=event)
    assert abs((penalty.created_at - logged).total_seconds()) < 0.01
    entry = AuditLog.objects.get(event=event, action="penalty.log")
    assert entry.after["logged_at"] == penalty.created_at.isoformat() and entry.after["synced_at"]


def test_myl_dashboard_and_round_page_link_to_the_tablet(client, myl_floor):
    event = myl_floor["event"]
    tablet = _url(event, "tablet")
    for role in ("judge", "scorekeeper"):
        client.force_login(myl_floor["users"][role])
        round_page = client.get(reverse("manage:round", kwargs={"slug": event.slug, "number": 1}))
        assert round_page.status_code == 200
        assert "Best of" in round_page.content.decode()  # the Mitos y Leyendas round page
        assert tablet in round_page.content.decode()
        assert tablet in client.get(_url(event, "dashboard")).content.decode()


# --------------------------------------------------------------------------- trial fixes
def test_snapshot_carries_the_legal_sheets_and_each_tables_round(client, floor):
    """The tablet refuses an impossible VEKN sheet before queuing it: the snapshot carries
    ``standings.vekn.legal_sheets`` of 4 and 5 seats, written as the tablet writes a
    sheet; and each table says its round ("Round 1 · Table 5" once round 2 is seated)."""
    from decimal import Decimal

    from standings import vekn

    client.force_login(floor["users"]["scorekeeper"])
    data = client.get(_url(floor["event"], "tablet-data")).json()
    sheets = data["legal_sheets"]
    assert {k: len(v) for k, v in sheets.items()} == {"4": 107, "5": 546}
    for n, written in sheets.items():
        assert {tuple(Decimal(v) for v in s.split(",")) for s in written} == set(
            vekn.legal_sheets(int(n))
        )
    assert ",".join(LEGAL_4) in sheets["4"] and ",".join(LEGAL_4_OTHER) in sheets["4"]
    assert "3,3,0,0" not in sheets["4"] and "2.0,1,1,0" not in sheets["4"]
    assert all(
        t["round"] == {"number": 1, "label": "Round 1", "is_final": False} for t in data["tables"]
    )
    assert data["round"]["is_top_cut"] is False


def test_myl_snapshot_has_no_legal_sheets(client, myl_floor):
    client.force_login(myl_floor["users"]["judge"])
    data = client.get(_url(myl_floor["event"], "tablet-data")).json()
    assert data["legal_sheets"] == {} and data["best_of"] == 3


def test_the_tablets_strings_are_translated(client, floor):
    """The words of the tablet's own checks (the server's messages where they exist)."""
    client.force_login(floor["users"]["judge"])

    def strings(**headers):
        html = client.get(_url(floor["event"], "tablet"), **headers).content.decode()
        raw = html.split('id="tablet-strings" type="application/json">')[1]
        return json.loads(raw.split("</script>")[0])

    english = strings()
    for key in (
        "vp_range",
        "vp_total",
        "vp_illegal",
        "vp_irregular",
        "games_nan",
        "games_both",
        "games_range",
        "games_max",
        "games_draw",
        "games_won",
        "best_of_hint",
        "same_values",
        "earlier_round",
    ):
        assert english[key], key
    spanish = strings(HTTP_ACCEPT_LANGUAGE="es")
    assert spanish["vp_total"] == "Estos VP suman más de lo que %(n)s jugadores pueden anotar."


def _round_2_seated_after_a_change_of_round_1(floor):
    """Round 1 played (table 2 saved by someone while the tablet was offline), then round
    2 seated. Returns (round 1's table 2 as the tablet knew it, its version then)."""
    t1, t2 = floor["tables"]
    stale = t2.version
    services.save_results(t1, [services.parse_vp(v) for v in LEGAL_4], version=t1.version)
    services.save_results(t2, [services.parse_vp(v) for v in LEGAL_4_OTHER], version=t2.version)
    rnd2 = services.seat_next_round(floor["event"], seed=2)
    assert rnd2.number == 2 and rnd2.tables.filter(number=2).exists()
    return t2, stale


def test_a_conflict_on_an_earlier_rounds_table_says_its_round_and_replace_applies_there(
    client, floor
):
    """Round 1's table 2 entered offline, meanwhile someone saved it and round 2 was
    seated: the conflict names "Round 1"; a judge's "Replace them with mine" (a new entry
    on the version now saved, the same table id) corrects round 1's table 2, never round
    2's table 2."""
    event = floor["event"]
    t2, stale = _round_2_seated_after_a_change_of_round_1(floor)
    r2_t2 = Table.objects.get(round__event=event, round__number=2, number=2)
    client.force_login(floor["users"]["judge"])
    response = _sync(client, event, _result(t2, LEGAL_4, version=stale))
    assert response.status_code == 409
    theirs = response.json()["table"]
    assert theirs["id"] == t2.pk and theirs["number"] == 2
    assert theirs["round"] == {"number": 1, "label": "Round 1", "is_final": False}
    # Replace them with mine: what the tablet sends.
    again = _sync(client, event, _result(t2, LEGAL_4, version=theirs["version"]))
    assert again.status_code == 200, again.content
    assert again.json()["table"]["round"]["number"] == 1
    assert _vps(t2) == ["2.0", "1.0", "1.0", "0.0"]
    r2_t2.refresh_from_db()
    assert r2_t2.version == 0 and _vps(r2_t2) == [None] * len(_vps(r2_t2))


def test_a_scorekeeper_replacing_an_earlier_rounds_table_is_refused_clearly(client, floor):
    event = floor["event"]
    t2, stale = _round_2_seated_after_a_change_of_round_1(floor)
    client.force_login(floor["users"]["scorekeeper"])
    theirs = _sync(client, event, _result(t2, LEGAL_4, version=stale)).json()["table"]
    refused = _sync(client, event, _result(t2, LEGAL_4, version=theirs["version"]))
    assert refused.status_code == 400
    assert refused.json()["message"] == (
        "The next round is seated: only a judge can correct this table."
    )
    assert _vps(t2) == ["0.5", "0.5", "0.5", "0.5"]


# --------------------------------------------------------------------------- server errors
def _fails_for(monkeypatch, target, name, when):
    """``target.name`` raises ``RuntimeError`` while ``when(*args)`` is true (a bug of the
    server on one entry), and works as before otherwise."""
    real = getattr(target, name)

    def broken(*args, **kwargs):
        if when(*args):
            raise RuntimeError("boom: a bug on the server")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, broken)


def test_a_server_error_on_one_entry_is_a_json_answer_and_the_next_entry_is_saved(
    client, floor, monkeypatch, caplog
):
    """Issue 12 finding 2: the server failing on one queued entry answers a JSON ``error``
    for that entry (500, logged with its traceback, nothing saved), never an HTML page;
    the entry queued after it is saved; once the bug is gone the same entry (same id) is
    saved once."""
    from penalties import services as penalties

    event, table = floor["event"], floor["tables"][0]
    reg = _seat_regs(table)[0]
    _fails_for(monkeypatch, penalties, "log_penalty", lambda ev, r, *a: r.pk == reg.pk)
    client.raise_request_exception = False
    client.force_login(floor["users"]["judge"])
    stuck = _incident(reg, "3.3", table=table)
    with caplog.at_level("ERROR", logger="events.offline"):
        response = _sync(client, event, stuck)
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    assert answer["status"] == "error" and answer["id"] == stuck["id"]
    assert "nothing of it was saved" in answer["message"]
    logged = [r for r in caplog.records if r.name == "events.offline"]
    assert logged and logged[0].exc_info and "boom" in str(logged[0].exc_info[1])
    assert stuck["id"] in logged[0].getMessage()
    assert not Penalty.objects.exists()
    # The result queued after it is saved.
    after = _sync(client, event, _result(table, LEGAL_4))
    assert after.status_code == 200 and after.json()["status"] == "saved"
    assert _vps(table) == ["2.0", "1.0", "1.0", "0.0"]
    # Fixed on the server: the same entry sent again is saved, once.
    monkeypatch.undo()
    again = _sync(client, event, stuck)
    assert again.json()["status"] == "saved"
    assert _sync(client, event, stuck).json()["status"] == "duplicate"
    assert Penalty.objects.filter(client_id=stuck["id"]).count() == 1


def test_a_server_error_after_a_save_leaves_nothing_half_saved(client, floor, monkeypatch):
    """A failure after the service saved (while the answer is built) rolls the entry back
    whole: no penalty, no audit entry, no result, no submission; answered as ``error``."""
    from events import offline

    event, table = floor["event"], floor["tables"][0]
    reg = _seat_regs(table)[0]
    _fails_for(monkeypatch, offline, "_incident_answer", lambda *a: True)
    _fails_for(monkeypatch, offline, "current_table", lambda *a: True)
    client.raise_request_exception = False
    client.force_login(floor["users"]["judge"])
    incident = _sync(client, event, _incident(reg, "3.3", table=table))
    result = _sync(client, event, _result(table, LEGAL_4))
    assert [incident.status_code, result.status_code] == [500, 500]
    assert [incident.json()["status"], result.json()["status"]] == ["error", "error"]
    assert not Penalty.objects.exists()
    assert not AuditLog.objects.filter(event=event, action__in=["penalty.log", "result.save"])
    assert not ResultSubmission.objects.exists()
    table.refresh_from_db()
    assert table.version == 0 and _vps(table) == [None] * 4


def test_an_incident_for_a_player_with_a_myl_game_loss_syncs(client, floor):
    """The crash behind finding 2: a player of this VEKN event with a confirmed MyL game
    loss elsewhere; the offline incident is saved with the VEKN guide's penalty."""
    from tests.penalties.services.test_rulesets import _myl_history

    event, table = floor["event"], floor["tables"][0]
    reg = _seat_regs(table)[0]
    _myl_history(reg.person, "game_loss")
    client.force_login(floor["users"]["judge"])
    response = _sync(client, event, _incident(reg, "3.3", table=table))
    assert response.status_code == 200, response.content
    assert response.json()["penalty"]["level"] == "caution"
