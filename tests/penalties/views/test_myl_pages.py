"""Mitos y Leyendas conduct rules through the pages: the judge's phone flow, the penalty
page (head judge, in-event appeal), the aggression report, the player's written appeal
and the Organised Play manager's decisions; permissions, bad input and query counts."""

import datetime as dt
import re
import uuid

import pytest
from django.urls import reverse

from events.models import AuthorityRole, EventRole, Registration
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import myl_services
from penalties.models import AggressionReport, Appeal, Penalty, Sanction
from tests.factories import (
    EventRoleFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)
from tests.penalties.services.test_myl_services import myl_event, seat_round

HEAD = frozenset({"confirm_penalties"})


@pytest.fixture
def myl(db):
    event = myl_event(slug="myl-open")
    users = {}
    for role in (Role.ORGANISER, Role.HEAD_JUDGE, Role.JUDGE, Role.SCOREKEEPER):
        users[role.value] = UserFactory(username=f"myl-{role.value}")
        EventRoleFactory(event=event, user=users[role.value], role=role)
    # The national OP manager: an authority of the ruleset, granted by an administrator.
    users["op_manager"] = UserFactory(username="myl-op")
    AuthorityRole.objects.create(user=users["op_manager"], ruleset="myl")
    users["outsider"] = UserFactory(username="myl-outsider")
    users["player"] = UserFactory(username="myl-player")
    person = PersonFactory(name="Ana Rojas", user=users["player"])
    regs = [RegistrationFactory(event=event, person=person)]
    regs += [RegistrationFactory(event=event) for _ in range(3)]
    rnd = seat_round(event, regs, 1)
    return {"event": event, "users": users, "regs": regs, "round": rnd}


def _url(name, event, **kw):
    return reverse(name, kwargs={"slug": event.slug, **kw})


def _log(m, code="2.1", conditions=None, reg=0, **kw):
    """Log one incident; each call is a new offence (``again``) unless told otherwise."""
    kw.setdefault("again", True)
    kw.setdefault("perms", ROLE_PERMISSIONS[Role.HEAD_JUDGE])  # the head judge's
    return myl_services.log_penalty(
        m["event"],
        m["regs"][reg],
        code,
        conditions or {},
        client_id=uuid.uuid4(),
        actor=m["users"]["head_judge"],
        **kw,
    ).penalty


def _at(penalty, day):
    Penalty.objects.filter(pk=penalty.pk).update(
        created_at=dt.datetime.combine(day, dt.time(15, 0), tzinfo=dt.UTC)
    )
    penalty.refresh_from_db()
    return penalty


# --------------------------------------------------------------------------- logging
def test_pick_infraction_grouped_by_section_in_both_languages(client, myl):
    client.force_login(myl["users"]["judge"])
    url = _url("manage:incident-new", myl["event"]) + f"?reg={myl['regs'][0].pk}"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "§3.1" in body and "§3.4" in body
    assert "Unauthorised Use of Electronic Devices" in body
    assert "Uso de Dispositivos Electrónicos" in body
    # Search narrows the list (htmx fragment).
    frag = client.get(url + "&q=stall", HTTP_HX_REQUEST="true").content.decode()
    assert "3.2.2" in frag and "3.3.4" not in frag


def test_judge_logs_a_game_loss_in_a_few_taps(client, myl):
    event, reg = myl["event"], myl["regs"][0]
    _log(myl, "3.2.2")  # an earlier warning in this event
    client.force_login(myl["users"]["judge"])
    url = _url("manage:incident-new", event)
    page = client.get(url + f"?reg={reg.pk}&code=3.2.2").content.decode()
    assert "Game Loss" in page and "Intent" in page and "Cooperation" in page
    assert "1 in this event, 0 in earlier events" in page
    assert "round 1" in page
    assert "This is a new offence" in page  # the earlier 3.2.2, minutes ago
    cid = str(uuid.uuid4())
    data = {"reg": reg.pk, "code": "3.2.2", "client_id": cid, "confirm": "1"}
    refused = client.post(url, data)  # the duplicate-offence guard
    assert refused.status_code == 409
    assert "already got 3.2.2" in refused.content.decode()
    assert not Penalty.objects.filter(client_id=cid).exists()
    response = client.post(url, {**data, "again": "on"})
    assert response.status_code == 302
    p = Penalty.objects.get(client_id=cid)
    assert (p.level, p.offence, p.round_number, p.status) == ("game_loss", 2, 1, "confirmed")
    assert p.reported_by == myl["users"]["judge"]
    # A double tap saves nothing new.
    assert client.post(url, data).status_code == 302
    assert Penalty.objects.filter(event=event).count() == 2


def test_preview_fragment_shows_proposal_alternatives_and_history(client, myl):
    older = myl_event(slug="older", date=dt.date(2026, 3, 1))
    old_reg = RegistrationFactory(event=older, person=myl["regs"][0].person)
    myl_services.log_penalty(
        older,
        old_reg,
        "3.1.2",
        {"grave": False},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    )
    client.force_login(myl["users"]["judge"])
    url = _url("manage:incident-new", myl["event"])
    frag = client.post(
        url,
        {"reg": myl["regs"][0].pk, "code": "3.1.2", "c_grave": "yes"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert 'id="preview"' in frag and "<html" not in frag
    assert "Game Loss" in frag and "Permanent Ban" in frag  # proposal and an alternative
    assert "0 in this event, 1 in earlier events" in frag
    # The full page lists the earlier event in the history.
    page = client.get(url + f"?reg={myl['regs'][0].pk}&code=3.1.2&c_grave=no").content.decode()
    assert older.name in page and "Earlier events" in page


def test_deviation_needs_a_reason(client, myl):
    client.force_login(myl["users"]["judge"])
    url = _url("manage:incident-new", myl["event"])
    base = {"reg": myl["regs"][1].pk, "code": "2.1", "confirm": "1", "level": "game_loss"}
    response = client.post(url, {**base, "client_id": str(uuid.uuid4())})
    assert response.status_code == 400 and b"Say why" in response.content
    assert not Penalty.objects.exists()
    cid = str(uuid.uuid4())
    client.post(url, {**base, "client_id": cid, "deviation_reason": "Mocked the opponent"})
    p = Penalty.objects.get(client_id=cid)
    assert (p.guide_level, p.level, p.deviation_reason) == (
        "warning",
        "game_loss",
        "Mocked the opponent",
    )


def test_head_judge_logs_a_suspension_with_dates(client, myl):
    client.force_login(myl["users"]["head_judge"])
    url = _url("manage:incident-new", myl["event"])
    base = {"reg": myl["regs"][2].pk, "code": "3.1.1", "c_grave": "yes", "confirm": "1"}
    page = client.get(url, {k: v for k, v in base.items() if k != "confirm"}).content.decode()
    assert 'name="starts_on"' in page and "Suspension" in page
    bad = client.post(url, {**base, "client_id": str(uuid.uuid4()), "starts_on": "2026-09-18"})
    assert bad.status_code == 400 and b"first and last day" in bad.content
    cid = str(uuid.uuid4())
    client.post(url, {**base, "client_id": cid, "starts_on": "2026-09-18", "ends_on": "2026-12-31"})
    p = Penalty.objects.get(client_id=cid)
    assert p.level == "suspension" and p.status == "confirmed"
    assert Sanction.objects.get(penalty=p).ends_on == dt.date(2026, 12, 31)
    myl["regs"][2].refresh_from_db()
    assert myl["regs"][2].status == Registration.Status.DISQUALIFIED


def test_floor_judge_suspension_pending_then_head_judge_sets_dates(client, myl):
    client.force_login(myl["users"]["judge"])
    url = _url("manage:incident-new", myl["event"])
    cid = str(uuid.uuid4())
    page = client.get(
        url, {"reg": myl["regs"][2].pk, "code": "3.1.1", "c_grave": "yes"}
    ).content.decode()
    assert "pending until the head judge" in page and 'name="starts_on"' not in page
    client.post(
        url,
        {
            "reg": myl["regs"][2].pk,
            "code": "3.1.1",
            "c_grave": "yes",
            "confirm": "1",
            "client_id": cid,
        },
    )
    p = Penalty.objects.get(client_id=cid)
    assert p.status == "pending"
    client.force_login(myl["users"]["head_judge"])
    detail = _url("manage:penalty", myl["event"], pk=p.pk)
    state = re.search(r'name="state" value="([^"]*)"', client.get(detail).content.decode())[1]
    client.post(detail, {"action": "confirm", "state": state, "starts_on": "2026-09-18"})
    p.refresh_from_db()
    assert p.status == "pending"  # no last day: refused
    client.post(
        detail,
        {"action": "confirm", "state": state, "starts_on": "2026-09-18", "ends_on": "2026-10-18"},
    )
    p.refresh_from_db()
    assert p.status == "confirmed" and Sanction.objects.filter(penalty=p).exists()


def test_garbage_input_never_500(client, myl):
    client.force_login(myl["users"]["head_judge"])
    url = _url("manage:incident-new", myl["event"])
    reg = myl["regs"][0].pk
    assert client.get(url + "?reg=abc").status_code == 404
    assert client.get(url + "?reg=999999").status_code == 404
    assert client.get(url + f"?reg={reg}&code=9.9.9").status_code == 404
    for data in (
        {"reg": reg, "code": "3.1.1", "c_grave": "maybe", "confirm": "1"},
        {"reg": reg, "code": "2.1", "confirm": "1", "client_id": "nope"},
        {"reg": reg, "code": "2.1", "confirm": "1", "level": "caution", "deviation_reason": "x"},
        {"reg": reg, "code": "2.1", "confirm": "1", "timing": "later"},
        {
            "reg": reg,
            "code": "3.1.1",
            "c_grave": "yes",
            "confirm": "1",
            "starts_on": "tomorrow",
            "ends_on": "2026-13-45",
        },
    ):
        assert client.post(url, data).status_code in (200, 302, 400, 409)
    p = _log(myl, "3.3.4")
    detail = _url("manage:penalty", myl["event"], pk=p.pk)
    for data in (
        {"action": "explode"},
        {"action": "change", "level": "nonsense"},
        {"action": "change", "level": "suspension", "reason": "x", "starts_on": "bad"},
        {"action": "void", "reason": ""},
        {"action": "appeal", "decision": "maybe"},
        {"action": "confirm"},
    ):
        assert client.post(detail, data).status_code == 302
    p.refresh_from_db()
    assert p.status == "confirmed" and p.level == "disqualification"


# --------------------------------------------------------------------------- penalty page
def test_penalty_page_and_head_judge_actions(client, myl):
    p = _log(myl, "3.3.4")
    detail = _url("manage:penalty", myl["event"], pk=p.pk)
    for who, status in (("judge", 200), ("scorekeeper", 200), ("op_manager", 200)):
        client.force_login(myl["users"][who])
        assert client.get(detail).status_code == status
    client.force_login(myl["users"]["outsider"])
    assert client.get(detail).status_code == 404
    client.force_login(myl["users"]["judge"])
    page = client.get(detail).content.decode()
    assert "Counterfeit Cards" in page and "Disqualification report" in page
    assert 'value="appeal"' not in page  # only the head judge records the appeal
    assert client.post(detail, {"action": "void", "reason": "x"}).status_code == 404
    client.force_login(myl["users"]["head_judge"])
    page = client.get(detail).content.decode()
    assert 'value="appeal"' in page
    client.post(
        detail,
        {
            "action": "appeal",
            "statement": "The cards are printing errors",
            "decision": "reverted",
            "reason": "Confirmed with the publisher",
        },
    )
    p.refresh_from_db()
    myl["regs"][0].refresh_from_db()
    assert p.status == "voided" and myl["regs"][0].status == Registration.Status.CHECKED_IN
    appeal = Appeal.objects.get(penalty=p)
    assert appeal.kind == "in_event" and appeal.decided_by == myl["users"]["head_judge"]
    page = client.get(detail).content.decode()
    assert "Confirmed with the publisher" in page and "Appeal: to the head judge" in page


def test_head_judge_change_and_void_through_page(client, myl):
    p = _log(myl, "2.1", reg=1)
    detail = _url("manage:penalty", myl["event"], pk=p.pk)
    client.force_login(myl["users"]["head_judge"])
    client.post(
        detail,
        {
            "action": "change",
            "level": "permanent_ban",
            "reason": "Threatened an opponent",
            "with_dq": "on",
        },
    )
    p.refresh_from_db()
    myl["regs"][1].refresh_from_db()
    assert p.level == "permanent_ban" and p.also == ["disqualification"]
    assert myl["regs"][1].status == Registration.Status.DISQUALIFIED
    client.post(detail, {"action": "void", "reason": "Wrong person"})
    p.refresh_from_db()
    myl["regs"][1].refresh_from_db()
    assert p.status == "voided" and myl["regs"][1].status == Registration.Status.CHECKED_IN
    assert Sanction.objects.get(penalty=p).lift_reason == "Wrong person"


# --------------------------------------------------------------------------- §5.8 report
def test_aggression_report_form_and_print(client, myl):
    p = _log(myl, "3.1.2", {"grave": True}, reg=1)
    url = _url("manage:myl-aggression-report", myl["event"], pk=p.pk)
    client.force_login(myl["users"]["scorekeeper"])
    assert client.get(url).status_code == 403
    client.force_login(myl["users"]["outsider"])
    assert client.get(url).status_code == 404
    client.force_login(myl["users"]["judge"])
    detail = client.get(_url("manage:penalty", myl["event"], pk=p.pk)).content.decode()
    assert url in detail
    assert client.get(url).status_code == 200
    bad = client.post(url, {"kind": "verbal", "description": "", "witnesses": "Ana"})
    assert bad.status_code == 400 and b"Ana" in bad.content
    assert not AggressionReport.objects.exists()
    response = client.post(
        url,
        {
            "kind": "both",
            "description": "Shoved the opponent after the match",
            "witnesses": "Beto Soto, Carla Díaz",
            "authorities_called": "on",
            "authorities_detail": "Venue security, 18:40",
        },
    )
    assert response.status_code == 302
    printable = client.get(url + "?print=1").content.decode()
    assert "Beto Soto, Carla Díaz" in printable and "Venue security" in printable
    assert "Physical and verbal" in printable and "<form" not in printable.split("</header>")[-1]
    other = _log(myl, "2.1", reg=2)
    assert (
        client.get(_url("manage:myl-aggression-report", myl["event"], pk=other.pk)).status_code
        == 404
    )


# --------------------------------------------------------------------------- appeals
def test_written_appeal_deadline_crosses_a_chilean_holiday(client, myl, monkeypatch):
    p = _at(_log(myl, "3.2.2"), dt.date(2026, 9, 17))  # Thursday; 18 Sep is a holiday
    client.force_login(myl["users"]["player"])
    url = reverse("my-sanctions")
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 25))
    page = client.get(url).content.decode()
    assert "until 25 September 2026" in page and "18/09/2026" in page
    assert 'name="statement"' in page
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 28))
    page = client.get(url).content.decode()
    assert "was 25 September 2026" in page and 'name="statement"' not in page
    response = client.post(url, {"penalty": p.pk, "statement": "Too late?"}, follow=True)
    assert "can no longer be appealed" in response.content.decode()
    assert not Appeal.objects.exists()
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 25))
    client.post(url, {"penalty": p.pk, "statement": "I was thinking, not stalling"})
    appeal = Appeal.objects.get()
    assert appeal.kind == "written" and appeal.deadline == dt.date(2026, 9, 25)
    page = client.get(url).content.decode()
    assert "Written, to the Organised Play manager" in page and 'name="statement"' not in page


def test_player_cannot_appeal_someone_elses_penalty(client, myl, monkeypatch):
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    other = _at(_log(myl, "2.1", reg=1), dt.date(2026, 9, 17))
    client.force_login(myl["users"]["player"])
    url = reverse("my-sanctions")
    assert client.post(url, {"penalty": other.pk, "statement": "x"}).status_code == 404
    assert client.post(url, {"penalty": "abc", "statement": "x"}).status_code == 404
    client.force_login(myl["users"]["outsider"])  # no person linked
    assert client.post(url, {"penalty": other.pk, "statement": "x"}).status_code == 404
    assert not Appeal.objects.exists()


def test_op_manager_decides_written_appeals(client, myl, monkeypatch):
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    p = _at(
        _log(myl, "3.1.1", {"grave": True}, starts_on="2026-09-18", ends_on="2027-09-17"),
        dt.date(2026, 9, 17),
    )
    client.force_login(myl["users"]["player"])
    client.post(reverse("my-sanctions"), {"penalty": p.pk, "statement": "Self-defence"})
    appeal = Appeal.objects.get()
    url = _url("manage:myl-appeals", myl["event"])
    for who in ("organiser", "head_judge", "judge", "scorekeeper"):
        client.force_login(myl["users"][who])
        assert client.get(url).status_code == 403, who
    client.force_login(myl["users"]["outsider"])
    assert client.get(url).status_code == 404
    client.force_login(myl["users"]["op_manager"])
    page = client.get(url).content.decode()
    assert "Self-defence" in page and "Ana Rojas" in page
    response = client.post(url, {"appeal": appeal.pk, "decision": "reverted", "reason": ""})
    assert response.status_code == 302
    appeal.refresh_from_db()
    assert appeal.decision == ""
    client.post(
        url, {"appeal": appeal.pk, "decision": "reverted", "reason": "Video shows self-defence"}
    )
    appeal.refresh_from_db()
    p.refresh_from_db()
    myl["regs"][0].refresh_from_db()
    assert appeal.decision == "reverted" and appeal.decided_by == myl["users"]["op_manager"]
    assert p.status == "voided" and "Video shows self-defence" in p.void_reason
    assert Sanction.objects.get(penalty=p).lifted_at is not None
    assert myl["regs"][0].status == Registration.Status.CHECKED_IN
    assert "Video shows self-defence" in client.get(url).content.decode()
    assert client.post(url, {"appeal": "zzz", "decision": "confirmed"}).status_code == 404
    # The player sees the decision.
    client.force_login(myl["users"]["player"])
    assert "Video shows self-defence" in client.get(reverse("my-sanctions")).content.decode()


# --------------------------------------------------------------------------- queries
def test_pages_run_bounded_queries(client, myl, django_assert_max_num_queries, monkeypatch):
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    for _ in range(3):
        for i in range(4):
            _log(myl, "2.1", reg=i)
    p = _at(_log(myl, "3.1.2", {"grave": True}), dt.date(2026, 9, 17))
    event = myl["event"]
    reg = myl["regs"][0].pk
    client.force_login(myl["users"]["head_judge"])
    with django_assert_max_num_queries(12):
        client.get(_url("manage:incident-new", event) + f"?reg={reg}")
    with django_assert_max_num_queries(20):
        client.get(_url("manage:incident-new", event) + f"?reg={reg}&code=2.1")
    with django_assert_max_num_queries(20):
        client.get(_url("manage:penalty", event, pk=p.pk))
    with django_assert_max_num_queries(12):
        client.get(_url("manage:penalties", event))
    client.force_login(myl["users"]["player"])
    with django_assert_max_num_queries(10):
        client.get(reverse("my-sanctions"))
    client.post(reverse("my-sanctions"), {"penalty": p.pk, "statement": "x"})
    client.force_login(myl["users"]["op_manager"])
    with django_assert_max_num_queries(10):
        client.get(_url("manage:myl-appeals", event))


def test_op_manager_sees_pending_appeals_of_other_events(client, myl, monkeypatch):
    """The Organised Play manager is national (MyL conduct rules §4.5): the written
    appeals of every organisation's MyL events, except those of an event where they
    hold a staff role (issue 12: no one decides appeals against their own event)."""
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    second = myl_event(slug="myl-second", organisation=myl["event"].organisation)
    reg = RegistrationFactory(event=second, person=myl["regs"][0].person)
    p = myl_services.log_penalty(
        second, reg, "2.5", {}, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    ).penalty
    _at(p, dt.date(2026, 9, 17))
    myl_services.submit_written_appeal(p, "My phone rang", myl["users"]["player"])
    # Another organisation's appeal: the national manager sees it too.
    third = myl_event(slug="myl-elsewhere")
    q = myl_services.log_penalty(
        third,
        RegistrationFactory(event=third, person=reg.person),
        "2.5",
        {},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    ).penalty
    _at(q, dt.date(2026, 9, 17))
    myl_services.submit_written_appeal(q, "Seen nationally", myl["users"]["player"])
    # An event where the manager is a judge: not theirs to decide.
    own = myl_event(slug="myl-own")
    EventRole.objects.create(event=own, user=myl["users"]["op_manager"], role=Role.JUDGE)
    r = myl_services.log_penalty(
        own,
        RegistrationFactory(event=own, person=reg.person),
        "2.5",
        {},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    ).penalty
    _at(r, dt.date(2026, 9, 17))
    myl_services.submit_written_appeal(r, "Judged by the manager", myl["users"]["player"])
    client.force_login(myl["users"]["op_manager"])
    page = client.get(_url("manage:myl-appeals", myl["event"])).content.decode()
    assert _url("manage:myl-appeals", second) in page
    assert _url("manage:myl-appeals", third) in page
    assert _url("manage:myl-appeals", own) not in page
    assert client.get(_url("manage:myl-appeals", third)).status_code == 200
    assert client.get(_url("manage:myl-appeals", own)).status_code == 403


def test_the_player_sees_the_period_of_their_suspension(client, myl):
    client.force_login(myl["users"]["head_judge"])
    url = _url("manage:incident-new", myl["event"])
    base = {"reg": myl["regs"][0].pk, "code": "3.1.1", "c_grave": "yes", "confirm": "1"}
    client.post(
        url,
        {
            **base,
            "client_id": str(uuid.uuid4()),
            "starts_on": "2026-12-01",
            "ends_on": "2026-12-31",
        },
    )
    client.force_login(myl["users"]["player"])
    page = client.get(reverse("my-sanctions")).content.decode()
    assert "from 1 December 2026 to 31 December 2026" in page


def test_penalty_pages_read_ruleset_facts(client, myl, event, staff):
    """Issue 14: the person search and the penalties page ask the registry (facts
    ``person_search_hint``, ``non_competing_hint``, ``penalty_report``,
    ``written_appeals``) instead of comparing the ruleset code."""
    client.force_login(myl["users"]["head_judge"])
    pick = client.get(_url("manage:incident-person", myl["event"])).content.decode()
    assert 'placeholder="Name or player number"' in pick and "JG §1.2" not in pick
    listing = client.get(_url("manage:penalties", myl["event"])).content.decode()
    assert "VEKN penalty report" not in listing
    client.force_login(staff["head_judge"])
    pick = client.get(_url("manage:incident-person", event)).content.decode()
    assert 'placeholder="Name or VEKN number"' in pick and "JG §1.2" in pick
    listing = client.get(_url("manage:penalties", event)).content.decode()
    assert "VEKN penalty report" in listing and "Written appeals" not in listing
