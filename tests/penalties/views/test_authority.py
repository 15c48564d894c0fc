"""Trust between organisations (issue 12, findings 1 and 3): a suspension or ban reaches
other organisations' events only once the ruleset's national authority confirms it; the
authority (Organised Play manager, national coordinator) is granted by an administrator,
never from a staff page, and never decides appeals against an event where it is staff."""

import datetime as dt
import uuid

import pytest
from django.urls import reverse

from events import services as event_services
from events.access import user_permissions
from events.errors import UserError
from events.models import AuditLog, EventRole, OrganisationRole, Registration
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import myl_services
from penalties.models import Appeal, Sanction
from tests.factories import (
    EventFactory,
    OrganisationFactory,
    PersonFactory,
    UserFactory,
)
from tests.penalties.services.test_myl_services import myl_event

PLAYER_NUMBER = "3000001"


def _grant(user, ruleset):
    from events.models import AuthorityRole

    return AuthorityRole.objects.create(user=user, ruleset=ruleset)


def _url(name, event, **kw):
    return reverse(name, kwargs={"slug": event.slug, **kw})


@pytest.fixture
def two_orgs(db):
    """VEKN Chile (organisation A) with a VEKN and a MyL event on 5 December, where its
    player is registered; organisation B with its own MyL event on 1 December."""
    a = OrganisationFactory(slug="vekn-chile", name="VEKN Chile")
    b = OrganisationFactory(slug="tienda-b", name="Tienda B")
    org_a, org_b = UserFactory(username="org-a"), UserFactory(username="org-b")
    OrganisationRole.objects.create(organisation=a, user=org_a, role=Role.ORGANISER)
    OrganisationRole.objects.create(organisation=b, user=org_b, role=Role.ORGANISER)
    player = PersonFactory(name="Rafa Soto", vekn_number=PLAYER_NUMBER)
    a_vekn = EventFactory(slug="a-vekn", organisation=a, date=dt.date(2026, 12, 5))
    a_myl = myl_event(slug="a-myl", organisation=a, date=dt.date(2026, 12, 5))
    b_myl = myl_event(slug="b-myl", organisation=b, date=dt.date(2026, 12, 1))
    regs = {
        "a_vekn": event_services.register(a_vekn, player),
        "a_myl": event_services.register(a_myl, player),
    }
    return {
        "a": a,
        "b": b,
        "org_a": org_a,
        "org_b": org_b,
        "player": player,
        "a_vekn": a_vekn,
        "a_myl": a_myl,
        "b_myl": b_myl,
        "regs": regs,
    }


def _ban_in_b(client, w):
    """B's organiser registers A's player by number in B's MyL event and logs the §3.1.5
    permanent ban as head judge (confirmed at once)."""
    client.force_login(w["org_b"])
    client.post(
        _url("manage:player-add", w["b_myl"]),
        {"name": "Rafa Soto", "vekn_number": PLAYER_NUMBER, "check_in": "on"},
    )
    reg = Registration.objects.get(event=w["b_myl"], person=w["player"])
    p = myl_services.log_penalty(
        w["b_myl"],
        reg,
        "3.1.5",
        {},
        client_id=uuid.uuid4(),
        actor=w["org_b"],
        perms=user_permissions(w["org_b"], w["b_myl"]),
    ).penalty
    assert p.level == "permanent_ban" and p.status == "confirmed"
    return Sanction.objects.get(penalty=p)


def _check_in(client, w, which):
    reg = w["regs"][which]
    client.post(
        reverse("manage:player-status", kwargs={"slug": reg.event.slug, "reg_id": reg.pk}),
        {"status": "checked_in"},
        follow=True,
    )
    reg.refresh_from_db()
    return reg.status


def _set_registered(w, which):
    Registration.objects.filter(pk=w["regs"][which].pk).update(status="registered")


# --------------------------------------------------------------------------- finding 1
def test_another_organisations_ban_waits_for_the_op_manager(client, two_orgs):
    w = two_orgs
    ban = _ban_in_b(client, w)
    # B's own events: at once.
    later_b = myl_event(slug="b-later", organisation=w["b"], date=dt.date(2027, 1, 1))
    with pytest.raises(UserError, match="banned"):
        event_services.register(later_b, w["player"])
    # A's organiser still checks the player in, to A's VEKN and MyL events.
    client.force_login(w["org_a"])
    assert _check_in(client, w, "a_vekn") == "checked_in"
    assert _check_in(client, w, "a_myl") == "checked_in"
    # ... and sees the sanction and its state on the players page.
    page = client.get(_url("manage:players", w["a_myl"])).content.decode()
    assert "Permanent ban" in page and "Mitos y Leyendas" in page
    assert "Tienda B" in page and w["b_myl"].name in page and "org-b" in page
    assert "pending the Organised Play manager" in page
    assert "Does not block this event yet" in page
    vekn_page = client.get(_url("manage:players", w["a_vekn"])).content.decode()
    assert "Permanent ban" in vekn_page and "other ruleset" in vekn_page

    # The national Organised Play manager confirms it on the authority page.
    manager = UserFactory(username="opm", first_name="Olga", last_name="Paz")
    _grant(manager, "myl")
    client.force_login(manager)
    page = client.get(reverse("authority-sanctions")).content.decode()
    assert "Rafa Soto" in page and f'value="{ban.pk}"' in page
    client.post(reverse("authority-sanctions"), {"action": "confirm", "sanction": ban.pk})
    ban.refresh_from_db()
    assert ban.confirmed_by == manager and ban.confirmed_at is not None
    assert AuditLog.objects.filter(event=w["b_myl"], action="sanction.confirm").count() == 1

    # A's MyL event refuses check-in, saying who gave and who confirmed it.
    _set_registered(w, "a_myl")
    client.force_login(w["org_a"])
    response = client.post(
        _url("manage:player-status", w["a_myl"], reg_id=w["regs"]["a_myl"].pk),
        {"status": "checked_in"},
        follow=True,
    )
    text = response.content.decode()
    assert "cannot be checked in" in text
    assert "org-b" in text and "Olga Paz" in text and "Organised Play manager" in text
    w["regs"]["a_myl"].refresh_from_db()
    assert w["regs"]["a_myl"].status == "registered"
    # A's VEKN event: never (another ruleset).
    _set_registered(w, "a_vekn")
    assert _check_in(client, w, "a_vekn") == "checked_in"

    # The manager lifts it with a reason (audited); check-in works again.
    client.force_login(manager)
    client.post(reverse("authority-sanctions"), {"action": "lift", "sanction": ban.pk})
    ban.refresh_from_db()
    assert ban.lifted_at is None  # a reason is required
    client.post(
        reverse("authority-sanctions"),
        {"action": "lift", "sanction": ban.pk, "reason": "Mistaken identity"},
    )
    ban.refresh_from_db()
    assert ban.lifted_at is not None and ban.lifted_by == manager
    entry = AuditLog.objects.get(event=w["b_myl"], action="sanction.lift")
    assert entry.comment == "Mistaken identity" and entry.actor == manager
    client.force_login(w["org_a"])
    assert _check_in(client, w, "a_myl") == "checked_in"


def test_an_authority_never_confirms_its_own_events_sanction(client, two_orgs):
    """An Organised Play manager who organises the event that gave a ban cannot extend it
    to every organisation by confirming it; another authority can."""
    w = two_orgs
    ban = _ban_in_b(client, w)
    _grant(w["org_b"], "myl")  # B's organiser is also the national OP manager
    client.force_login(w["org_b"])
    page = client.get(reverse("authority-sanctions")).content.decode()
    row = page[page.index(f'id="sanction-{ban.pk}"') :].split("</li>")[0]
    assert 'value="confirm"' not in row and "another authority or a platform" in row
    response = client.post(
        reverse("authority-sanctions"), {"action": "confirm", "sanction": ban.pk}, follow=True
    )
    assert "You are on the staff of the event that gave this sanction" in (
        response.content.decode()
    )
    ban.refresh_from_db()
    assert ban.confirmed_at is None
    assert not AuditLog.objects.filter(action="sanction.confirm").exists()
    other = UserFactory(username="opm-2")
    _grant(other, "myl")
    client.force_login(other)
    client.post(reverse("authority-sanctions"), {"action": "confirm", "sanction": ban.pk})
    ban.refresh_from_db()
    assert ban.confirmed_by == other


def test_confirm_and_lift_are_idempotent_and_for_the_rulesets_authority(client, two_orgs):
    w = two_orgs
    ban = _ban_in_b(client, w)
    coordinator = UserFactory(username="coord")
    _grant(coordinator, "vekn")
    client.force_login(coordinator)
    response = client.post(
        reverse("authority-sanctions"), {"action": "confirm", "sanction": ban.pk}, follow=True
    )
    assert "Only the national authority of this ruleset" in response.content.decode()
    ban.refresh_from_db()
    assert ban.confirmed_at is None
    manager = UserFactory(username="opm")
    _grant(manager, "myl")
    client.force_login(manager)
    for _ in range(2):  # a double submit
        client.post(reverse("authority-sanctions"), {"action": "confirm", "sanction": ban.pk})
    assert AuditLog.objects.filter(action="sanction.confirm").count() == 1
    for _ in range(2):
        client.post(
            reverse("authority-sanctions"), {"action": "lift", "sanction": ban.pk, "reason": "x"}
        )
    assert AuditLog.objects.filter(action="sanction.lift", comment="x").count() == 1
    # Garbage never 500s and changes nothing.
    for data in (
        {"action": "confirm", "sanction": "zzz"},
        {"action": "confirm", "sanction": "99999999999999999999999"},
        {"action": "explode"},
        {"action": "escalate", "penalty": 1},
        {"action": "confirm", "sanction": 999999},
    ):
        assert client.post(reverse("authority-sanctions"), data).status_code == 302


def test_the_authority_page_is_for_authorities_only(client, two_orgs):
    url = reverse("authority-sanctions")
    assert client.get(url).status_code == 302
    for user in (two_orgs["org_a"], two_orgs["org_b"], UserFactory()):
        client.force_login(user)
        assert client.get(url).status_code == 404
        assert client.post(url, {"action": "confirm", "sanction": 1}).status_code == 404
    assert url not in client.get(reverse("my-page")).content.decode()
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert client.get(url).status_code == 200
    manager = UserFactory(username="opm")
    _grant(manager, "myl")
    client.force_login(manager)
    assert url in client.get(reverse("my-page")).content.decode()  # the way in


# --------------------------------------------------------------------------- VEKN
def test_the_national_coordinator_escalates_a_vekn_disqualification(client, two_orgs):
    from penalties import services as vekn_services

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
    dq.refresh_from_db()
    assert dq.level == "disqualification" and dq.status == "confirmed"
    coordinator = UserFactory(username="coord", first_name="Nico")
    _grant(coordinator, "vekn")
    client.force_login(coordinator)
    page = client.get(reverse("authority-sanctions")).content.decode()
    assert f'name="penalty" value="{dq.pk}"' in page
    data = {
        "action": "escalate",
        "penalty": dq.pk,
        "kind": "suspension",
        "starts_on": "2026-12-06",
        "ends_on": "2027-06-05",
        "reason": "Repeated cheating",
    }
    for _ in range(2):  # a double submit
        client.post(reverse("authority-sanctions"), data)
    s = Sanction.objects.get(penalty=dq)
    assert (s.ruleset, s.organisation_id, s.confirmed_by) == ("vekn", None, coordinator)
    assert (s.starts_on, s.ends_on) == (dt.date(2026, 12, 6), dt.date(2027, 6, 5))
    entry = AuditLog.objects.get(action="sanction.escalate")
    assert entry.event == w["a_vekn"] and entry.comment == "Repeated cheating"
    # Every organisation's VEKN events on those days; never MyL ones.
    other_vekn = EventFactory(slug="b-vekn", organisation=w["b"], date=dt.date(2027, 1, 9))
    with pytest.raises(UserError, match="suspended"):
        event_services.register(other_vekn, w["player"])
    other_myl = myl_event(slug="b-myl-2", organisation=w["b"], date=dt.date(2027, 1, 9))
    assert event_services.register(other_myl, w["player"])
    # The MyL Organised Play manager cannot escalate.
    manager = UserFactory(username="opm")
    _grant(manager, "myl")
    with pytest.raises(UserError):
        from penalties import authority

        authority.escalate_disqualification(dq.pk, kind="permanent_ban", reason="x", actor=manager)


# --------------------------------------------------------------------------- finding 3
def test_an_organiser_cannot_make_themselves_op_manager(client, two_orgs):
    w = two_orgs
    client.force_login(w["org_a"])
    response = client.post(
        _url("manage:staff", w["a_myl"]), {"username": "org-a", "role": "op_manager"}
    )
    assert response.status_code == 200  # the form, with its error
    assert not EventRole.objects.filter(role="op_manager").exists()
    assert not OrganisationRole.objects.filter(role="op_manager").exists()
    assert 'value="op_manager"' not in response.content.decode()  # not offered either
    assert "decide_appeals" not in user_permissions(w["org_a"], w["a_myl"])


def test_an_authority_never_decides_appeals_against_its_own_event(client, two_orgs):
    w = two_orgs
    player = UserFactory(username="rafa")
    w["player"].user = player
    w["player"].save()
    p = myl_services.log_penalty(
        w["a_myl"],
        w["regs"]["a_myl"],
        "2.5",
        {},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    ).penalty
    appeal = myl_services.submit_written_appeal(
        p, "My phone rang", player, on=myl_services.penalty_day(p)
    )
    url = _url("manage:myl-appeals", w["a_myl"])
    # Organiser of the event's organisation and authority: not their appeal to decide.
    _grant(w["org_a"], "myl")
    # A judge of the event itself who is the authority: neither.
    judge = UserFactory(username="judge-opm")
    EventRole.objects.create(event=w["a_myl"], user=judge, role=Role.JUDGE)
    _grant(judge, "myl")
    for user in (w["org_a"], judge):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(
            url, {"appeal": appeal.pk, "decision": "reverted", "reason": "mine"}
        ).status_code in (403, 404)
        with pytest.raises(UserError, match="staff role"):
            myl_services.decide_written_appeal(appeal, "reverted", "mine", user)
        assert not myl_services.pending_written_appeals_for(user).filter(pk=appeal.pk).exists()
    appeal.refresh_from_db()
    assert appeal.decision == ""
    # The authority of another organisation decides it.
    outside = UserFactory(username="opm")
    _grant(outside, "myl")
    assert myl_services.pending_written_appeals_for(outside).filter(pk=appeal.pk).exists()
    client.force_login(outside)
    client.post(url, {"appeal": appeal.pk, "decision": "confirmed", "reason": "Clear"})
    appeal.refresh_from_db()
    assert appeal.decision == Appeal.Decision.CONFIRMED and appeal.decided_by == outside


def test_op_manager_roles_become_authorities(db):
    """The data migration: every ``op_manager`` role becomes the MyL authority."""
    import importlib

    from django.apps import apps

    from events.models import AuthorityRole

    migration = importlib.import_module("events.migrations.0016_authority_roles")
    event = myl_event(slug="old-myl")
    a, b = UserFactory(username="old-op"), UserFactory(username="old-org-op")
    EventRole.objects.create(event=event, user=a, role="op_manager")
    EventRole.objects.create(event=event, user=a, role=Role.JUDGE)
    OrganisationRole.objects.create(organisation=event.organisation, user=b, role="op_manager")
    OrganisationRole.objects.create(organisation=event.organisation, user=a, role="op_manager")
    migration.op_managers_to_authorities(apps, None)
    assert set(AuthorityRole.objects.values_list("user__username", "ruleset")) == {
        ("old-op", "myl"),
        ("old-org-op", "myl"),
    }
    assert not EventRole.objects.filter(role="op_manager").exists()
    assert not OrganisationRole.objects.filter(role="op_manager").exists()
    assert EventRole.objects.filter(user=a, role=Role.JUDGE).exists()


# --------------------------------------------------------------------------- queries
@pytest.mark.parametrize("players", [3, 12])
def test_players_page_and_authority_page_run_bounded_queries(
    client, two_orgs, players, django_assert_max_num_queries
):
    w = two_orgs
    manager = UserFactory(username="opm")
    _grant(manager, "myl")
    for i in range(players):
        person = PersonFactory(user=UserFactory())
        event_services.register(w["a_myl"], person)
        reg = event_services.register(w["b_myl"], person)
        p = myl_services.log_penalty(
            w["b_myl"],
            reg,
            "3.1.5",
            {},
            client_id=uuid.uuid4(),
            actor=w["org_b"],
            perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
        ).penalty
        if i % 2:  # every other one with a pending written appeal
            myl_services.submit_written_appeal(p, "No", person.user, on=myl_services.penalty_day(p))
    client.force_login(w["org_a"])
    # 15: one more since the players page shows the shared player counts (issue 14);
    # the same for 1 and 3 players, so still no query per player.
    with django_assert_max_num_queries(15):
        page = client.get(_url("manage:players", w["a_myl"])).content.decode()
    assert page.count("Permanent ban") >= players
    assert page.count("Written appeal pending") == players // 2
    assert page.count("the player may send one until") == players - players // 2
    client.force_login(manager)
    with django_assert_max_num_queries(12):
        page = client.get(reverse("authority-sanctions")).content.decode()
    assert page.count('name="action" value="confirm"') == players


def test_only_a_platform_administrator_grants_an_authority(client, db):
    from events.models import AuthorityRole

    target = UserFactory(username="future-opm")
    staff = UserFactory(username="admin-staff", is_staff=True)
    add = reverse("admin:events_authorityrole_add")
    client.force_login(staff)  # Django admin access, not a superuser
    assert client.get(add).status_code == 403
    client.post(add, {"user": target.pk, "ruleset": "myl"})
    assert not AuthorityRole.objects.exists()
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(root)
    assert client.post(add, {"user": target.pk, "ruleset": "myl"}).status_code == 302
    role = AuthorityRole.objects.get()
    assert (role.user, role.ruleset, role.granted_by, role.title) == (
        target,
        "myl",
        root,
        "Organised Play manager",
    )


def test_an_organiser_cannot_put_the_authority_on_its_event_staff(client, two_orgs):
    """The trial's shield: B's organiser appointed the Organised Play manager as a
    scorekeeper of B's event, which kept the manager from confirming B's sanctions and
    deciding its appeals. Refused; a national coordinator (VEKN) is no authority of a MyL
    event and may be appointed."""
    w = two_orgs
    manager = UserFactory(username="opm")
    _grant(manager, "myl")
    coordinator = UserFactory(username="coord")
    _grant(coordinator, "vekn")
    client.force_login(w["org_b"])
    url = _url("manage:staff", w["b_myl"])
    response = client.post(url, {"username": "opm", "role": "scorekeeper"})
    assert response.status_code == 200
    assert "only a platform administrator can make it part" in response.content.decode()
    assert not EventRole.objects.filter(user=manager).exists()
    assert not AuditLog.objects.filter(action="staff.add").exists()
    assert client.post(url, {"username": "coord", "role": "scorekeeper"}).status_code == 302
    assert EventRole.objects.filter(user=coordinator, event=w["b_myl"]).exists()
    assert AuditLog.objects.filter(action="staff.add", event=w["b_myl"]).count() == 1


def test_the_platform_administrator_manages_organisations_and_staff_in_the_admin(client, db):
    """Organisations, their organisers and event roles have admin pages, for superusers
    only (a staff account without superuser rights gets 403)."""
    from events.models import Organisation

    staff = UserFactory(username="admin-staff", is_staff=True)
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    pages = [
        reverse("admin:events_organisation_changelist"),
        reverse("admin:events_organisation_add"),
        reverse("admin:events_eventrole_changelist"),
    ]
    client.force_login(staff)
    assert [client.get(p).status_code for p in pages] == [403, 403, 403]
    client.force_login(root)
    assert [client.get(p).status_code for p in pages] == [200, 200, 200]
    organiser = UserFactory(username="boss-b")
    response = client.post(
        reverse("admin:events_organisation_add"),
        {
            "name": "Tienda B",
            "slug": "tienda-b",
            "kind": Organisation.Kind.OTHER,
            "roles-TOTAL_FORMS": "1",
            "roles-INITIAL_FORMS": "0",
            "roles-0-user": organiser.pk,
            "roles-0-role": Role.ORGANISER,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    org = Organisation.objects.get(slug="tienda-b")
    assert OrganisationRole.objects.filter(organisation=org, user=organiser).exists()


def test_an_over_long_lift_reason_gets_one_message(client, two_orgs):
    w = two_orgs
    ban = _ban_in_b(client, w)
    manager = UserFactory(username="opm")
    _grant(manager, "myl")
    client.force_login(manager)
    response = client.post(
        reverse("authority-sanctions"),
        {"action": "lift", "sanction": ban.pk, "reason": "x" * 1_000_000},
        follow=True,
    )
    page = response.content.decode()
    assert "at most 5000 characters" in page
    assert "Give the reason." not in page
    assert 'maxlength="5000"' in client.get(reverse("authority-sanctions")).content.decode()
    ban.refresh_from_db()
    assert ban.lifted_at is None
