# ruff: noqa: F811 (the two_orgs fixture is imported from tests.penalties.views.test_authority)
"""A sanction the national authority confirmed is the authority's (issue 12, the attacker
trial after the authority model): the issuing event's staff can no longer void or change
its penalty (only the authority lifts it, or decides the written appeal); a player whom a
confirmed sanction keeps out but who was checked in before is not seated or paired; the
player's own history shows each penalty's sanction with its own kind and days."""

import datetime as dt
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from events import sanctions, swiss_services
from events import services as event_services
from events.access import user_permissions
from events.errors import UserError
from events.models import AuditLog, EventRole, Registration, Round
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import authority, myl_services
from penalties import services as vekn_services
from penalties.models import Appeal, Penalty, Sanction
from tests.factories import EventFactory, PersonFactory, UserFactory
from tests.penalties.views.test_authority import _ban_in_b, _check_in, _grant, _url, two_orgs  # noqa: F401

HOLD = "national authority confirmed"


def _manager():
    manager = UserFactory(username="opm", first_name="Olga", last_name="Paz")
    _grant(manager, "myl")
    return manager


def _register_in_b(client, w):
    client.force_login(w["org_b"])
    client.post(
        _url("manage:player-add", w["b_myl"]),
        {"name": "Rafa Soto", "vekn_number": "3000001", "check_in": "on"},
    )
    assert Registration.objects.filter(event=w["b_myl"], person=w["player"]).exists()


def _suspension_in_b(w, starts="2026-12-01", ends="2026-12-05"):
    """B's organiser logs a grave 3.1.1 (a suspension with a disqualification) on A's
    player in B's MyL event."""
    reg = Registration.objects.get(event=w["b_myl"], person=w["player"])
    return myl_services.log_penalty(
        w["b_myl"],
        reg,
        "3.1.1",
        {"grave": True},
        client_id=uuid.uuid4(),
        actor=w["org_b"],
        perms=user_permissions(w["org_b"], w["b_myl"]),
        starts_on=starts,
        ends_on=ends,
    ).penalty


# --------------------------------------------------------------------------- 1
def test_the_issuing_organiser_cannot_void_a_confirmed_ban(client, two_orgs):
    w = two_orgs
    ban = _ban_in_b(client, w)
    authority.confirm_sanction(ban.pk, _manager())
    url = _url("manage:penalty", w["b_myl"], pk=ban.penalty_id)
    client.force_login(w["org_b"])
    page = client.get(url).content.decode()
    assert HOLD in page and 'value="void"' not in page and 'value="change"' not in page
    text = client.post(url, {"action": "void", "reason": "Changed my mind"}, follow=True)
    assert HOLD in text.content.decode() and "Voided." not in text.content.decode()
    text = client.post(
        url, {"action": "change", "level": "warning", "reason": "Too harsh"}, follow=True
    ).content.decode()
    assert HOLD in text and "Penalty changed." not in text
    ban.refresh_from_db()
    penalty = Penalty.objects.get(pk=ban.penalty_id)
    assert ban.lifted_at is None and penalty.status == "confirmed"
    assert penalty.level == "permanent_ban"
    assert not AuditLog.objects.filter(action__in=["penalty.void", "sanction.lift"]).exists()
    # The in-event appeal cannot revert it either.
    with pytest.raises(UserError, match=HOLD):
        myl_services.record_in_event_appeal(penalty, "Not me", "reverted", "Sure", w["org_b"])
    assert not Appeal.objects.exists()
    # A platform administrator may: the ban is lifted with the void (audited).
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    myl_services.void(penalty, "Duplicate record", admin, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    ban.refresh_from_db()
    assert ban.lifted_at is not None and ban.lifted_by == admin
    assert AuditLog.objects.filter(action="sanction.lift", actor=admin).exists()


def test_the_issuing_organiser_cannot_lift_a_confirmed_suspension_by_a_change(client, two_orgs):
    w = two_orgs
    _register_in_b(client, w)
    p = _suspension_in_b(w)
    s = Sanction.objects.get(penalty=p)
    authority.confirm_sanction(s.pk, _manager())
    with pytest.raises(UserError, match=HOLD):
        myl_services.change_level(
            p, "warning", "Too harsh", w["org_b"], perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
        )
    with pytest.raises(UserError, match=HOLD):
        myl_services.change_level(
            p,
            "suspension",
            "Shorter",
            w["org_b"],
            ends_on="2026-12-02",
            with_dq=True,
            perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
        )
    with pytest.raises(UserError, match=HOLD):
        myl_services.void(p, "Too harsh", w["org_b"], perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    s.refresh_from_db()
    p.refresh_from_db()
    assert s.lifted_at is None and s.ends_on == dt.date(2026, 12, 5)
    assert (p.level, p.status) == ("suspension", "confirmed")


def test_voiding_an_earlier_penalty_keeps_a_later_confirmed_suspension(client, two_orgs):
    w = two_orgs
    _register_in_b(client, w)
    reg = Registration.objects.get(event=w["b_myl"], person=w["player"])
    kw = {"actor": w["org_b"], "perms": user_permissions(w["org_b"], w["b_myl"]), "again": True}
    first = myl_services.log_penalty(
        w["b_myl"], reg, "3.1.3", {}, client_id=uuid.uuid4(), **kw
    ).penalty
    second = myl_services.log_penalty(
        w["b_myl"],
        reg,
        "3.1.3",
        {},
        client_id=uuid.uuid4(),
        starts_on="2026-12-01",
        ends_on="2027-03-01",
        **kw,
    ).penalty
    assert second.level == "suspension"
    s = Sanction.objects.get(penalty=second)
    authority.confirm_sanction(s.pk, _manager())
    myl_services.void(
        first, "Logged on the wrong person", w["org_b"], perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
    second.refresh_from_db()
    s.refresh_from_db()
    assert second.level == "suspension" and s.lifted_at is None


def test_a_written_appeal_reverted_by_the_authority_still_lifts_it(client, two_orgs):
    w = two_orgs
    ban = _ban_in_b(client, w)
    manager = _manager()
    authority.confirm_sanction(ban.pk, manager)
    player = UserFactory(username="rafa")
    w["player"].user = player
    w["player"].save()
    penalty = Penalty.objects.get(pk=ban.penalty_id)
    appeal = myl_services.submit_written_appeal(
        penalty, "It was not me", player, on=myl_services.penalty_day(penalty)
    )
    myl_services.decide_written_appeal(appeal, "reverted", "Mistaken identity", manager)
    ban.refresh_from_db()
    penalty.refresh_from_db()
    assert penalty.status == "voided" and ban.lifted_at is not None


def test_a_vekn_disqualification_escalated_by_the_coordinator_stays(client, two_orgs):
    w = two_orgs
    head = UserFactory(username="vekn-head")
    EventRole.objects.create(event=w["a_vekn"], user=head, role=Role.HEAD_JUDGE)
    dq = vekn_services.log_penalty(
        w["a_vekn"],
        w["regs"]["a_vekn"],
        "4.7",
        {},
        client_id=uuid.uuid4(),
        actor=head,
        perms=user_permissions(head, w["a_vekn"]),
    ).penalty
    if dq.status != "confirmed":
        vekn_services.confirm(dq, head, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    coordinator = UserFactory(username="coord")
    _grant(coordinator, "vekn")
    s = authority.escalate_disqualification(
        dq.pk, kind="permanent_ban", reason="Repeated cheating", actor=coordinator
    ).sanction
    with pytest.raises(UserError, match=HOLD):
        vekn_services.void(dq, "Oops", head, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    with pytest.raises(UserError, match=HOLD):
        vekn_services.change_level(
            dq, "warning", "Oops", head, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
        )
    client.force_login(head)
    page = client.get(_url("manage:penalty", w["a_vekn"], pk=dq.pk)).content.decode()
    assert HOLD in page and 'value="void"' not in page
    dq.refresh_from_db()
    s.refresh_from_db()
    assert (dq.level, dq.status, s.lifted_at) == ("disqualification", "confirmed", None)
    # A superuser's void lifts the escalation with it.
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    vekn_services.void(dq, "Wrong player", admin, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE])
    s.refresh_from_db()
    assert s.lifted_at is not None and s.lift_reason == "Wrong player"


# --------------------------------------------------------------------------- 2
def _checked_in(event, n):
    return [
        event_services.register(event, PersonFactory(name=f"Extra {event.slug} {i}"), check_in=True)
        for i in range(n)
    ]


def test_a_confirmed_ban_keeps_a_checked_in_player_out_of_the_pairing(client, two_orgs):
    w = two_orgs
    client.force_login(w["org_a"])
    assert _check_in(client, w, "a_myl") == "checked_in"
    extras = _checked_in(w["a_myl"], 3)
    ban = _ban_in_b(client, w)  # B's ban while the player is checked in at A's
    authority.confirm_sanction(ban.pk, _manager())
    client.force_login(w["org_a"])
    page = client.get(_url("manage:players", w["a_myl"])).content.decode()
    assert "Blocks this event" in page
    text = client.post(_url("manage:myl-pair", w["a_myl"]), follow=True).content.decode()
    assert "Rafa Soto" in text and "Drop them" in text
    assert not Round.objects.filter(event=w["a_myl"]).exists()
    with pytest.raises(UserError, match="Rafa Soto"):
        swiss_services.pair_next_round(w["a_myl"])
    # The dashboard lists them with a drop button.
    dash = client.get(_url("manage:dashboard", w["a_myl"])).content.decode()
    reg = w["regs"]["a_myl"]
    assert (
        "Rafa Soto" in dash
        and reverse("manage:player-status", kwargs={"slug": "a-myl", "reg_id": reg.pk}) in dash
    )
    # Dropped: the round is paired without them.
    client.post(
        reverse("manage:player-status", kwargs={"slug": "a-myl", "reg_id": reg.pk}),
        {"status": "dropped", "confirm": "1"},
    )
    rnd = swiss_services.pair_next_round(w["a_myl"])
    assert not rnd.seats.filter(registration=reg).exists()
    # Pairing the round again, or the top cut: the same refusal.
    Sanction.objects.create(
        person=extras[0].person,
        kind="permanent_ban",
        starts_on=dt.date(2026, 12, 1),
        ruleset="myl",
        reason="Confirmed elsewhere",
        confirmed_at=timezone.now(),
    )
    with pytest.raises(UserError, match=extras[0].person.name):
        swiss_services.repair_round(rnd)
    page = client.get(_url("manage:round", w["a_myl"], number=1)).content.decode()
    assert extras[0].person.name in page and "still checked in" in page


def test_seating_a_vekn_round_refuses_a_blocked_checked_in_player(
    db, django_assert_max_num_queries
):
    event = EventFactory(slug="vekn-day", date=dt.date(2026, 12, 5))
    regs = _checked_in(event, 6)
    coordinator = UserFactory(username="coord")
    for reg in regs[:2]:
        Sanction.objects.create(
            person=reg.person,
            kind="suspension",
            starts_on=dt.date(2026, 12, 1),
            ends_on=dt.date(2026, 12, 31),
            ruleset="vekn",
            reason="Escalated",
            confirmed_by=coordinator,
            confirmed_at=timezone.now(),
        )
    # Another ruleset's, or a lifted one, blocks nothing.
    Sanction.objects.create(
        person=regs[2].person,
        kind="permanent_ban",
        starts_on=dt.date(2026, 1, 1),
        ruleset="myl",
        reason="MyL",
        confirmed_at=timezone.now(),
    )
    with django_assert_max_num_queries(1):
        blocked = sanctions.blocked_players(event)
    assert sorted(b.registration_id for b in blocked) == sorted(r.pk for r in regs[:2])
    with pytest.raises(UserError, match=regs[0].person.name):
        event_services.seat_next_round(event)
    assert not Round.objects.filter(event=event).exists()
    for reg in regs[:2]:
        event_services.set_status(reg, "dropped")
    rnd = event_services.seat_next_round(event)
    assert rnd.seats.count() == 4
    # Confirmed while round 1 waits to start: it is not seated again with them either.
    Sanction.objects.create(
        person=regs[3].person,
        kind="permanent_ban",
        starts_on=dt.date(2026, 12, 1),
        ruleset="vekn",
        reason="Escalated",
        confirmed_by=coordinator,
        confirmed_at=timezone.now(),
    )
    with pytest.raises(UserError, match=regs[3].person.name):
        event_services.reseat_round(rnd)


# --------------------------------------------------------------------------- 3
def test_my_history_shows_the_live_sanction_with_its_own_kind_and_days(client, two_orgs):
    w = two_orgs
    _register_in_b(client, w)
    p = _suspension_in_b(w)
    myl_services.change_level(
        p,
        "permanent_ban",
        "Threatened the judge",
        w["org_b"],
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    )
    assert Sanction.objects.filter(penalty=p, lifted_at__isnull=False).count() == 1
    player = UserFactory(username="rafa")
    w["player"].user = player
    w["player"].save()
    client.force_login(player)
    page = client.get(reverse("my-sanctions")).content.decode()
    assert "Permanent ban since" in page
    assert "5 Dec 2026" not in page and "lifted" not in page


def test_changing_a_suspensions_last_day_applies_it(client, two_orgs):
    w = two_orgs
    _register_in_b(client, w)
    p = _suspension_in_b(w)
    myl_services.change_level(
        p,
        "suspension",
        "Longer",
        w["org_b"],
        ends_on="2026-12-20",
        with_dq=True,
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    )
    s = Sanction.objects.get(penalty=p)
    assert (s.starts_on, s.ends_on, s.lifted_at) == (
        dt.date(2026, 12, 1),
        dt.date(2026, 12, 20),
        None,
    )
    entry = AuditLog.objects.get(action="sanction.change")
    assert entry.before["until"] == "2026-12-05" and entry.after["until"] == "2026-12-20"
    with pytest.raises(UserError, match="before"):
        myl_services.change_level(
            p,
            "suspension",
            "x",
            w["org_b"],
            ends_on="2026-11-01",
            with_dq=True,
            perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
        )


def test_a_suspension_changed_while_the_authority_looks_is_not_confirmed_unseen(client, two_orgs):
    """The third trial: the OP manager loads the page showing a suspension to 2027-06-01;
    B shortens it to 2026-12-02; the manager's form, sent as loaded, must not confirm
    the new days. Reloaded, it confirms what it shows."""
    import re

    w = two_orgs
    _register_in_b(client, w)
    p = _suspension_in_b(w, ends="2027-06-01")
    s = Sanction.objects.get(penalty=p)
    manager = _manager()
    client.force_login(manager)
    page = client.get(reverse("authority-sanctions")).content.decode()
    expected = re.search(
        rf'name="sanction" value="{s.pk}"><input type="hidden" '
        r'name="expected" value="([^"]+)"',
        page,
    ).group(1)
    assert expected == "suspension:2026-12-01:2027-06-01"
    myl_services.change_level(
        p,
        "suspension",
        "Shorter",
        w["org_b"],
        ends_on="2026-12-02",
        with_dq=True,
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    )
    data = {"action": "confirm", "sanction": s.pk, "expected": expected}
    response = client.post(reverse("authority-sanctions"), data, follow=True)
    assert "changed since the page was loaded" in response.content.decode()
    s.refresh_from_db()
    assert s.confirmed_at is None
    page = client.get(reverse("authority-sanctions")).content.decode()
    assert 'value="suspension:2026-12-01:2026-12-02"' in page
    data["expected"] = "suspension:2026-12-01:2026-12-02"
    client.post(reverse("authority-sanctions"), data)
    s.refresh_from_db()
    assert s.confirmed_by == manager and s.ends_on == dt.date(2026, 12, 2)
