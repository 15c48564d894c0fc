"""The penalties pages' forms (issue 13): every input goes through a form of
``penalties.forms``; bad input (an unknown infraction, a level of the other ruleset, ids
that are not numbers or not this event's, a bad date or number) gives the page's message
or its 404, changes nothing, and never answers 500."""

import datetime as dt
import html
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from events import services as event_services
from events.models import AuditLog, AuthorityRole, Registration
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import myl_services
from penalties import services as vekn_services
from penalties.models import (
    AggressionReport,
    Appeal,
    DisqualificationReport,
    Penalty,
    TimeExtension,
)
from tests.conftest import add_players
from tests.factories import (
    EventFactory,
    EventRoleFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)
from tests.penalties.services.test_myl_services import myl_event, seat_round

HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]
VIEWS = ("views.py", "views_myl.py", "views_authority.py")


def text(response) -> str:
    """The page as a person reads it (entities decoded: ``person's``, not ``&#x27;``)."""
    return html.unescape(response.content.decode())


def _url(name, event, **kw):
    return reverse(name, kwargs={"slug": event.slug, **kw})


# --------------------------------------------------------------------------- the rule
def test_no_penalties_view_reads_request_post_by_hand():
    """Issue 13: the views build forms from ``request.POST``; none reads a field itself,
    and none hides a bug behind ``except ValueError`` (the form validates instead)."""
    folder = Path(__file__).resolve().parents[3] / "penalties"
    for name in VIEWS:
        source = (folder / name).read_text()
        assert "request.POST.get(" not in source, name
        assert "request.POST[" not in source, name
        assert not re.search(r"except\s*\(?[^:]*\bValueError\b", source), name


# --------------------------------------------------------------------------- VEKN
@pytest.fixture
def vekn(event, staff):
    add_players(event, 8)
    rnd = event_services.seat_next_round(event, seed=1)
    other = EventFactory(slug="elsewhere")
    add_players(other, 4)
    other_round = event_services.seat_next_round(other, seed=1)
    return {
        "event": event,
        "round": rnd,
        "users": staff,
        "regs": [s.registration for s in rnd.seats.order_by("table__number", "position")],
        "other": other,
        "other_round": other_round,
    }


def _vekn_log(event, reg, code="3.3", **kw):
    kw.setdefault("again", True)
    kw.setdefault("perms", HEAD)
    return vekn_services.log_penalty(event, reg, code, {}, client_id=uuid.uuid4(), **kw).penalty


def test_vekn_incident_ids_not_of_this_event_are_not_found(client, vekn):
    event, reg = vekn["event"], vekn["regs"][0]
    client.force_login(vekn["users"]["head_judge"])
    url = _url("manage:incident-new", event)
    stranger = vekn["other_round"].seats.first().registration
    other_table = vekn["other_round"].tables.first()
    for query in (
        {"reg": "abc"},
        {"reg": "1.5"},
        {"reg": str(2**70)},
        {"reg": stranger.pk},  # another event's person
        {},
        {"reg": reg.pk, "table": "x"},
        {"reg": reg.pk, "table": other_table.pk},  # another event's table
        {"reg": reg.pk, "code": "9.9.9"},  # no such infraction
        {"reg": reg.pk, "code": "3.1.1.1"},
    ):
        assert client.get(url, query).status_code == 404, query
        confirm = {**query, "code": query.get("code", "3.3"), "confirm": "1"}
        assert client.post(url, confirm).status_code == 404, query
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("level", "game_loss", "Unknown level."),  # a Mitos y Leyendas level
        ("level", "removal", "Unknown level."),
        ("timing", "later", "Unknown timing."),
        ("description", "what\x00happened", "Null characters are not allowed."),
    ],
)
def test_vekn_incident_refuses_a_bad_field_and_saves_nothing(client, vekn, field, value, message):
    event, reg = vekn["event"], vekn["regs"][0]
    client.force_login(vekn["users"]["head_judge"])
    url = _url("manage:incident-new", event)
    data = {
        "reg": reg.pk,
        "code": "3.3",
        "confirm": "1",
        "client_id": str(uuid.uuid4()),
        "deviation_reason": "Because",
        field: value,
    }
    response = client.post(url, data)
    assert response.status_code == 400
    assert message in text(response)
    assert not Penalty.objects.exists()
    # The page without confirming shows the same message and saves nothing either.
    page = client.post(url, {k: v for k, v in data.items() if k != "confirm"})
    assert page.status_code == 200 and message in text(page)
    assert not Penalty.objects.exists()


def test_vekn_incident_linked_to_another_persons_penalty_is_refused(client, vekn):
    event, regs = vekn["event"], vekn["regs"]
    someone_elses = _vekn_log(event, regs[1], "2.2")
    elsewhere = _vekn_log(vekn["other"], vekn["other_round"].seats.first().registration, "2.2")
    client.force_login(vekn["users"]["judge"])
    url = _url("manage:incident-new", event)
    base = {"reg": regs[0].pk, "code": "2.3", "c_simple_fix": "no", "confirm": "1"}
    for linked in (someone_elses.pk, elsewhere.pk, 2**62):
        response = client.post(url, {**base, "linked_to": linked, "client_id": str(uuid.uuid4())})
        assert response.status_code == 400, linked
        assert "A linked infraction is the same person's, in this event." in text(response)
    assert client.post(url, {**base, "linked_to": "abc"}).status_code == 404
    assert Penalty.objects.count() == 2
    assert not Penalty.objects.filter(person=regs[0].person).exists()
    someone_elses.refresh_from_db()
    assert not someone_elses.is_linked


def test_vekn_incident_garbage_answers_and_ids_keep_the_question_open(client, vekn):
    """An answer other than yes/no leaves the question unanswered (the pair of radio
    buttons sends nothing else); a malformed submission id is replaced, as for a page
    opened afresh; htmx still gets the preview fragment."""
    event, reg = vekn["event"], vekn["regs"][0]
    client.force_login(vekn["users"]["judge"])
    url = _url("manage:incident-new", event)
    frag = client.post(
        url,
        {"reg": reg.pk, "code": "3.7", "c_pattern": "maybe", "client_id": "nope"},
        HTTP_HX_REQUEST="true",
    )
    assert frag.status_code == 200
    body = text(frag)
    assert 'id="preview"' in body and "<html" not in body
    assert "Answer the questions above" in body
    page = client.post(url, {"reg": reg.pk, "code": "3.7", "c_pattern": "maybe", "confirm": "1"})
    assert page.status_code == 200 and "disabled" in text(page)
    assert not Penalty.objects.exists()
    saved = client.post(url, {"reg": reg.pk, "code": "3.3", "client_id": "nope", "confirm": "1"})
    assert saved.status_code == 302
    assert Penalty.objects.count() == 1


def test_vekn_penalty_page_actions_refuse_bad_input(client, vekn):
    event = vekn["event"]
    p = _vekn_log(event, vekn["regs"][0], "3.8")
    detail = _url("manage:penalty", event, pk=p.pk)
    client.force_login(vekn["users"]["head_judge"])
    for data, message in (
        ({"action": "explode"}, "Unknown action."),
        ({}, "Unknown action."),
        ({"action": "change", "level": "game_loss", "reason": "x"}, "Unknown level."),
        ({"action": "change", "level": "", "reason": "x"}, "Unknown level."),
        ({"action": "void", "reason": "x\x00y"}, "Null characters are not allowed."),
        ({"action": "void", "reason": ""}, "Say why the penalty is voided."),
    ):
        response = client.post(detail, data, follow=True)
        assert response.status_code == 200, data
        assert message in text(response), data
    p.refresh_from_db()
    assert (p.level, p.status) == ("warning", "confirmed")
    # An action ignores another action's fields: a confirm with a nonsense level is
    # refused by the service for what it is (not pending), not for the level.
    response = client.post(detail, {"action": "confirm", "level": "nonsense"}, follow=True)
    assert "This penalty is not pending." in text(response)


def test_vekn_dq_report_refuses_bad_text(client, vekn):
    event = vekn["event"]
    p = _vekn_log(event, vekn["regs"][0], level="disqualification", deviation_reason="Punched")
    url = _url("manage:dq-report", event, pk=p.pk)
    client.force_login(vekn["users"]["judge"])
    response = client.post(url, {"what_happened": "Punched\x00", "intentional": "on"}, follow=True)
    assert response.status_code == 200
    assert "Null characters are not allowed." in text(response)
    response = client.post(url, {"what_happened": "   "}, follow=True)
    assert "Describe what happened." in text(response)
    assert not DisqualificationReport.objects.exists()
    p.refresh_from_db()
    assert not AuditLog.objects.filter(action="penalty.dq_report").exists()


@pytest.mark.parametrize("minutes", ["abc", "-1", "601", "NaN", "1e999999999", "sNaN", "Infinity"])
def test_time_extension_refuses_minutes_that_are_no_number_of_minutes(client, vekn, minutes):
    event = vekn["event"]
    url = _url("manage:table-extension", event, number=1, table_number=1)
    client.force_login(vekn["users"]["head_judge"])
    message = "Enter the minutes the judge spent at the table (0 to 600)."
    page = client.get(url, {"minutes_spent": minutes})
    assert page.status_code == 200 and message in text(page)
    granted = client.post(
        url, {"minutes_spent": minutes, "confirm": "1", "client_id": str(uuid.uuid4())}
    )
    assert granted.status_code == 200 and message in text(granted)
    frag = client.post(url, {"minutes_spent": minutes}, HTTP_HX_REQUEST="true")
    assert frag.status_code == 200 and message in text(frag)
    assert not TimeExtension.objects.exists()


def test_time_extension_takes_a_comma_and_grants_once(client, vekn):
    event = vekn["event"]
    url = _url("manage:table-extension", event, number=1, table_number=1)
    client.force_login(vekn["users"]["judge"])
    page = text(client.get(url, {"minutes_spent": "2,5"}))
    assert 'value="2.5"' in page
    cid = str(uuid.uuid4())
    data = {"minutes_spent": "2,5", "confirm": "1", "client_id": cid, "reason": "Rules question"}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # a double tap
    ext = TimeExtension.objects.get()
    assert (str(ext.client_id), ext.minutes_spent, ext.reason) == (cid, 2.5, "Rules question")
    refused = client.post(url, {**data, "client_id": str(uuid.uuid4()), "reason": "a\x00b"})
    assert refused.status_code == 200 and "Null characters are not allowed." in text(refused)
    assert TimeExtension.objects.count() == 1


def test_approve_results_reads_only_approved_1(client, vekn):
    event = vekn["event"]
    url = _url("manage:approve-results", event)
    client.force_login(vekn["users"]["head_judge"])
    assert client.post(url, {"approved": "1", "confirm": "1"}).status_code == 302
    event.refresh_from_db()
    assert event.results_approved
    assert client.post(url, {"approved": "yes", "confirm": "1"}).status_code == 302
    event.refresh_from_db()
    assert not event.results_approved


def test_non_competing_person_refuses_a_bad_name_or_number(client, vekn):
    event = vekn["event"]
    url = _url("manage:incident-non-competing", event)
    client.force_login(vekn["users"]["judge"])
    before = Registration.objects.count()
    for data, message in (
        ({"name": "Curious", "vekn_number": "12ab"}, "A VEKN number has only digits."),
        ({"name": "Curious", "vekn_number": "²"}, "A VEKN number has only digits."),
        ({"name": "Curious", "vekn_number": "1" * 21}, "A VEKN number has only digits."),
        ({"name": "x" * 201}, "at most 200 characters"),
        ({"name": "a\x00b"}, "Null characters are not allowed."),
        ({}, "Give the player's name."),
    ):
        response = client.post(url, data, follow=True)
        assert response.status_code == 200, data
        assert message in text(response), data
    assert Registration.objects.count() == before
    response = client.post(url, {"name": "Curious Spectator"})
    assert response.status_code == 302 and "?reg=" in response["Location"]
    assert Registration.objects.filter(event=event, competing=False).count() == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "venue", "round": "1", "minutes_played": "abc", "report": "Closed"}, None),
        ({"action": "venue", "round": "x", "minutes_played": "60", "report": "Closed"}, None),
        ({"action": "venue", "round": "1", "report": "Closed"}, None),
        ({"action": "venue", "round": "1", "minutes_played": str(10**30), "report": "x"}, None),
        (
            {"action": "substitute", "round": "1", "table": "1", "position": "x", "name": "Sub"},
            None,
        ),
        ({"action": "substitute", "round": "1", "table": str(2**40), "position": "1"}, None),
        (
            {
                "action": "substitute",
                "round": "1",
                "table": "1",
                "position": "1",
                "name": "Sub",
                "vekn_number": "12ab",
            },
            "A VEKN number has only digits.",
        ),
        ({"action": "explode"}, "Unknown action."),
        ({"action": "force_majeure", "report": "Storm\x00"}, "Null characters are not allowed."),
    ],
)
def test_organisational_cases_refuse_bad_input(client, vekn, data, message):
    event = vekn["event"]
    url = _url("manage:cases", event)
    client.force_login(vekn["users"]["head_judge"])
    seats = list(vekn["round"].seats.values_list("registration_id", flat=True))
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    assert (message or "Incomplete form: check the numbers.") in text(response)
    event.refresh_from_db()
    assert event.sanctioned and event.force_majeure_at is None
    assert list(vekn["round"].seats.values_list("registration_id", flat=True)) == seats
    assert not AuditLog.objects.filter(action__startswith="event.").exists()
    assert not AuditLog.objects.filter(action="table.substitute").exists()


def test_organisational_cases_rounds_and_tables_the_event_lacks_are_not_found(client, vekn):
    event = vekn["event"]
    url = _url("manage:cases", event)
    client.force_login(vekn["users"]["head_judge"])
    venue = {"action": "venue", "minutes_played": "60", "report": "Closed"}
    assert client.post(url, {**venue, "round": "9"}).status_code == 404
    assert client.post(url, {**venue, "round": "0"}).status_code == 404
    sub = {"action": "substitute", "round": "1", "position": "1", "name": "Sub"}
    assert client.post(url, {**sub, "table": "99"}).status_code == 404
    event.refresh_from_db()
    assert event.sanctioned


# --------------------------------------------------------------------------- MyL
@pytest.fixture
def myl(db):
    event = myl_event(slug="myl-forms")
    users = {}
    for role in (Role.HEAD_JUDGE, Role.JUDGE):
        users[role.value] = UserFactory(username=f"forms-{role.value}")
        EventRoleFactory(event=event, user=users[role.value], role=role)
    users["player"] = UserFactory(username="forms-player")
    person = PersonFactory(name="Ana Rojas", user=users["player"])
    regs = [RegistrationFactory(event=event, person=person)]
    regs += [RegistrationFactory(event=event) for _ in range(3)]
    rnd = seat_round(event, regs, 1)
    other = myl_event(slug="myl-elsewhere")
    other_regs = [RegistrationFactory(event=other) for _ in range(2)]
    other_round = seat_round(other, other_regs, 1)
    return {
        "event": event,
        "users": users,
        "regs": regs,
        "round": rnd,
        "other": other,
        "other_regs": other_regs,
        "other_round": other_round,
    }


def _myl_log(event, reg, code="2.1", conditions=None, **kw):
    kw.setdefault("again", True)
    kw.setdefault("perms", HEAD)
    return myl_services.log_penalty(
        event, reg, code, conditions or {}, client_id=uuid.uuid4(), **kw
    ).penalty


def test_myl_incident_ids_not_of_this_event_are_not_found(client, myl):
    event, reg = myl["event"], myl["regs"][0]
    client.force_login(myl["users"]["head_judge"])
    url = _url("manage:incident-new", event)
    for query in (
        {"reg": "abc"},
        {"reg": myl["other_regs"][0].pk},
        {"reg": reg.pk, "table": myl["other_round"].tables.first().pk},
        {"reg": reg.pk, "table": "-3"},
        {"reg": reg.pk, "code": "4.8"},  # a VEKN code, none in this catalogue
        {"reg": reg.pk, "code": "9.9.9"},
    ):
        assert client.get(url, query).status_code == 404, query
        confirm = {**query, "code": query.get("code", "2.1"), "confirm": "1"}
        assert client.post(url, confirm).status_code == 404, query
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"level": "caution", "deviation_reason": "x"}, "Unknown level."),  # a VEKN level
        ({"timing": "later"}, "Unknown timing."),
        ({"starts_on": "tomorrow", "ends_on": "2026-12-31"}, "Enter dates as YYYY-MM-DD."),
        ({"starts_on": "2026-09-18", "ends_on": "2026-13-45"}, "Enter dates as YYYY-MM-DD."),
        ({"deviation_reason": "x\x00"}, "Null characters are not allowed."),
    ],
)
def test_myl_incident_refuses_a_bad_field_and_saves_nothing(client, myl, extra, message):
    client.force_login(myl["users"]["head_judge"])
    url = _url("manage:incident-new", myl["event"])
    data = {
        "reg": myl["regs"][2].pk,
        "code": "3.1.1",
        "c_grave": "yes",
        "confirm": "1",
        "client_id": str(uuid.uuid4()),
        "starts_on": "2026-09-18",
        "ends_on": "2026-12-31",
        **extra,
    }
    response = client.post(url, data)
    assert response.status_code == 400
    assert message in text(response)
    assert not Penalty.objects.exists()
    frag = client.post(
        url, {k: v for k, v in data.items() if k != "confirm"}, HTTP_HX_REQUEST="true"
    )
    assert frag.status_code == 200 and message in text(frag)
    myl["regs"][2].refresh_from_db()
    assert myl["regs"][2].status == Registration.Status.CHECKED_IN


def test_myl_floor_judge_dates_are_not_read(client, myl):
    """The dates are the head judge's: a floor judge's form has none, so dates sent
    anyway (even malformed) change nothing and the suspension stays pending."""
    client.force_login(myl["users"]["judge"])
    url = _url("manage:incident-new", myl["event"])
    cid = str(uuid.uuid4())
    response = client.post(
        url,
        {
            "reg": myl["regs"][2].pk,
            "code": "3.1.1",
            "c_grave": "yes",
            "confirm": "1",
            "client_id": cid,
            "starts_on": "tomorrow",
        },
    )
    assert response.status_code == 302
    p = Penalty.objects.get(client_id=cid)
    assert p.status == "pending" and not p.sanctions.exists()


def test_myl_penalty_page_actions_refuse_bad_input(client, myl):
    event = myl["event"]
    p = _myl_log(event, myl["regs"][1], "2.1")
    pending = _myl_log(event, myl["regs"][2], "3.1.1", {"grave": True}, perms=frozenset())
    client.force_login(myl["users"]["head_judge"])
    detail = _url("manage:penalty", event, pk=p.pk)
    for data, message in (
        ({"action": "explode"}, "Unknown action."),
        ({"action": "change", "level": "caution", "reason": "x"}, "Unknown level."),
        (
            {"action": "change", "level": "suspension", "reason": "x", "starts_on": "bad"},
            "Enter dates as YYYY-MM-DD.",
        ),
        (
            {"action": "appeal", "statement": "Not me", "decision": "maybe", "reason": "x"},
            "Choose: confirm or revert the penalty.",
        ),
    ):
        response = client.post(detail, data, follow=True)
        assert response.status_code == 200, data
        assert message in text(response), data
    p.refresh_from_db()
    assert (p.level, p.status) == ("warning", "confirmed")
    assert not Appeal.objects.exists()
    pending_page = _url("manage:penalty", event, pk=pending.pk)
    response = client.post(
        pending_page,
        {"action": "confirm", "starts_on": "2026-09-18", "ends_on": "31/12/2026"},
        follow=True,
    )
    assert "Enter dates as YYYY-MM-DD." in text(response)
    pending.refresh_from_db()
    assert pending.status == "pending" and not pending.sanctions.exists()


def test_myl_aggression_report_refuses_an_unknown_kind(client, myl):
    p = _myl_log(myl["event"], myl["regs"][1], "3.1.2", {"grave": False})
    url = _url("manage:myl-aggression-report", myl["event"], pk=p.pk)
    client.force_login(myl["users"]["judge"])
    for data, message in (
        (
            {"kind": "punch", "description": "Shoved", "witnesses": "Beto"},
            "Say whether the aggression was physical, verbal or both.",
        ),
        (
            {"kind": "verbal", "description": "Shoved\x00", "witnesses": "Beto"},
            "Null characters are not allowed.",
        ),
    ):
        response = client.post(url, data)
        assert response.status_code == 400, data
        body = text(response)
        assert message in body and "Beto" in body  # what was typed is kept
    assert not AggressionReport.objects.exists()


def test_myl_written_appeal_and_its_decision_refuse_bad_ids(client, myl, monkeypatch):
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    event = myl["event"]
    own = _myl_log(event, myl["regs"][0], "3.2.2")
    someone_elses = _myl_log(event, myl["regs"][1], "2.1")
    vekn_event = EventFactory(slug="vekn-of-ana")
    vekn_penalty = _vekn_log(vekn_event, RegistrationFactory(event=vekn_event, person=own.person))
    client.force_login(myl["users"]["player"])
    url = reverse("my-sanctions")
    for penalty in ("abc", "", someone_elses.pk, vekn_penalty.pk, 2**70):
        assert client.post(url, {"penalty": penalty, "statement": "x"}).status_code == 404
    response = client.post(url, {"penalty": own.pk, "statement": "x\x00"}, follow=True)
    assert "Null characters are not allowed." in text(response)
    assert not Appeal.objects.exists()
    client.post(url, {"penalty": own.pk, "statement": "I was thinking"})
    appeal = Appeal.objects.get()
    manager = UserFactory(username="forms-op")
    AuthorityRole.objects.create(user=manager, ruleset="myl")
    client.force_login(manager)
    appeals = _url("manage:myl-appeals", event)
    elsewhere = _url("manage:myl-appeals", myl["other"])
    assert client.post(appeals, {"appeal": "zzz", "decision": "confirmed"}).status_code == 404
    assert client.post(elsewhere, {"appeal": appeal.pk, "decision": "confirmed"}).status_code == 404
    response = client.post(
        appeals, {"appeal": appeal.pk, "decision": "maybe", "reason": "x"}, follow=True
    )
    assert "Choose: confirm or revert the penalty." in text(response)
    appeal.refresh_from_db()
    assert appeal.decision == ""
