"""Issue 14, the organiser's day without the admin site: organisations created from the
site with their organisers (``events.staffing``, ``events/views_orgs.py``), and the
event's staff appointed and removed from its staff page. Who may do what is
docs/organisations.md."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from events import staffing
from events.audit import entries_about
from events.models import (
    AuditLog,
    AuthorityRole,
    EventRole,
    Organisation,
    OrganisationRole,
)
from events.permissions import Role
from tests.factories import (
    EventFactory,
    EventRoleFactory,
    OrganisationFactory,
    OrganisationRoleFactory,
    UserFactory,
)


def said(response) -> list[str]:
    found = [str(m) for m in get_messages(response.wsgi_request)]
    response.client.cookies.pop("messages", None)
    return found


def org_url(name, org, **kwargs):
    return reverse(name, kwargs={"org_slug": org.slug, **kwargs})


@pytest.fixture
def store(db):
    """A store run by ``boss``; ``rival`` runs another organisation."""
    org = OrganisationFactory(slug="tienda", name="Tienda")
    boss = UserFactory(username="boss", email="boss@example.org")
    OrganisationRoleFactory(organisation=org, user=boss, role=Role.ORGANISER)
    other = OrganisationFactory(slug="otra", name="Otra")
    rival = UserFactory(username="rival")
    OrganisationRoleFactory(organisation=other, user=rival, role=Role.ORGANISER)
    return {"org": org, "boss": boss, "other": other, "rival": rival}


# --------------------------------------------------------------------------- creating
def test_a_signed_in_account_creates_a_store_and_becomes_its_organiser(client, db):
    ana = UserFactory(username="ana")
    client.force_login(ana)
    assert client.get(reverse("organisation-create")).status_code == 200
    data = {"name": "Dragón Rojo", "slug": "dragon-rojo", "kind": "store"}
    response = client.post(reverse("organisation-create"), data)
    org = Organisation.objects.get(slug="dragon-rojo")
    assert response.status_code == 302 and response.url == org_url("organisation", org)
    assert said(response) == ["Dragón Rojo created: you are its organiser."]
    assert org.created_by == ana and org.kind == "store"
    assert list(org.roles.values_list("user__username", "role")) == [("ana", "organiser")]
    assert entries_about(org).get().action == "organisation.create"
    # A second submission of the same form: the same organisation, nothing twice.
    again = client.post(reverse("organisation-create"), data)
    assert again.status_code == 302 and said(again) == ["Dragón Rojo was already created."]
    assert Organisation.objects.filter(slug="dragon-rojo").count() == 1
    assert org.roles.count() == 1 and entries_about(org).count() == 1
    # Its page, the list of my organisations and its event form are the founder's.
    assert client.get(org_url("organisation", org)).status_code == 200
    page = client.get(reverse("organisations")).content.decode()
    assert "Dragón Rojo" in page and org_url("event-create", org) in page
    assert client.get(org_url("event-create", org)).status_code == 200


def test_a_country_association_or_a_league_is_for_platform_administrators(client, db):
    client.force_login(UserFactory(username="ana"))
    form = client.get(reverse("organisation-create")).content.decode()
    assert 'value="store"' in form and 'value="vekn_country"' not in form
    data = {"name": "VEKN Chile", "slug": "vekn-chile", "kind": "vekn_country"}
    response = client.post(reverse("organisation-create"), data)
    assert response.status_code == 200 and not Organisation.objects.exists()
    root = UserFactory(username="root", is_superuser=True)
    client.force_login(root)
    assert client.post(reverse("organisation-create"), data).status_code == 302
    assert Organisation.objects.get(slug="vekn-chile").kind == "vekn_country"


def test_creating_is_limited_and_names_are_not_taken_twice(client, store):
    ana = UserFactory(username="ana")
    client.force_login(ana)
    url = reverse("organisation-create")
    for n in range(staffing.MAX_FOUNDED_ORGANISATIONS):
        assert client.post(url, {"name": f"Club {n}", "slug": f"club-{n}", "kind": "other"})
    response = client.post(url, {"name": "One more", "slug": "one-more", "kind": "other"})
    assert response.status_code == 200
    assert "the most one account may" in response.content.decode()
    assert Organisation.objects.filter(created_by=ana).count() == 3
    client.force_login(UserFactory(username="bea"))
    for data, message in [
        ({"name": "TIENDA", "slug": "tienda-2"}, "An organisation with this name already exists"),
        ({"name": "Nueva", "slug": "tienda"}, "An organisation with the address"),
        ({"name": "Nueva", "slug": "new"}, "This address is reserved"),
        ({"name": "Nueva", "slug": "no spaces"}, "Enter a valid"),
    ]:
        response = client.post(url, {**data, "kind": "store"})
        assert response.status_code == 200 and message in response.content.decode(), data
    assert Organisation.objects.count() == 5


def test_the_organisation_pages_ask_to_sign_in(client, store):
    for url in (reverse("organisations"), reverse("organisation-create")):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response.url


# --------------------------------------------------------------------------- organisers
def test_organisers_are_added_by_username_or_e_mail(client, store):
    org, boss = store["org"], store["boss"]
    cata = UserFactory(username="cata", email="Cata@Example.org")
    dani = UserFactory(username="dani")
    client.force_login(boss)
    add = org_url("organisation-organiser-add", org)
    response = client.post(add, {"username": "cata@example.org"})
    assert response.status_code == 302 and said(response) == ["cata is now an organiser."]
    assert said(client.post(add, {"username": "dani"})) == ["dani is now an organiser."]
    again = client.post(add, {"username": "dani"})  # a second submission
    assert said(again) == ["dani is already an organiser."]
    organisers = set(org.roles.filter(role=Role.ORGANISER).values_list("user__username", flat=True))
    assert organisers == {"boss", "cata", "dani"}
    history = list(entries_about(org).values_list("action", "target", "actor__username"))
    assert history == [
        ("organisation.organiser_add", "dani", "boss"),
        ("organisation.organiser_add", "cata", "boss"),
    ]
    # The new organiser now runs the organisation (its page, its events' staff pages).
    client.force_login(cata)
    assert client.get(org_url("organisation", org)).status_code == 200
    event = EventFactory(organisation=org)
    assert client.get(reverse("manage:staff", kwargs={"slug": event.slug})).status_code == 200
    assert dani.organisation_roles.get().organisation == org


def test_unknown_or_ambiguous_accounts_are_refused_in_words(client, store):
    org = store["org"]
    UserFactory(username="twin1", email="twin@example.org")
    UserFactory(username="twin2", email="TWIN@example.org")
    UserFactory(username="gone", email="gone@example.org", is_active=False)
    client.force_login(store["boss"])
    add = org_url("organisation-organiser-add", org)
    for value, message in [
        ("nobody", "No account has this username."),
        ("nobody@example.org", "No account has this e-mail address."),
        ("gone@example.org", "No account has this e-mail address."),
        ("twin@example.org", "Several accounts use this e-mail address: give the username."),
        ("", "This field is required."),
        ("x" * 300, "at most 254 characters"),
    ]:
        response = client.post(add, {"username": value})
        assert response.status_code == 400, value
        assert message in response.content.decode(), value
    assert org.roles.count() == 1


def test_account_look_ups_are_throttled(client, store, settings):
    client.force_login(store["boss"])
    add = org_url("organisation-organiser-add", store["org"])
    for n in range(staffing.LOOKUPS_PER_HOUR):
        client.post(add, {"username": f"guess{n}@example.org"})
    UserFactory(username="real", email="real@example.org")
    response = client.post(add, {"username": "real@example.org"})
    assert response.status_code == 400
    assert "Too many accounts looked up" in response.content.decode()
    assert not OrganisationRole.objects.filter(user__username="real").exists()


def test_the_national_authority_is_not_made_an_organiser(client, store):
    manager = UserFactory(username="opm")
    AuthorityRole.objects.create(user=manager, ruleset="myl")
    client.force_login(store["boss"])
    response = client.post(org_url("organisation-organiser-add", store["org"]), {"username": "opm"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "an organiser of an organisation" in page and "this event" not in page
    assert not OrganisationRole.objects.filter(user=manager).exists()


def test_the_last_organiser_is_never_removed(client, store):
    org, boss = store["org"], store["boss"]
    role = org.roles.get(user=boss)
    client.force_login(boss)
    remove = org_url("organisation-role-remove", org, role_id=role.pk)
    response = client.post(remove)
    assert response.status_code == 302
    assert said(response) == [
        "boss is the organisation's last organiser: add another organiser before removing them."
    ]
    assert org.roles.filter(pk=role.pk).exists()
    assert not entries_about(org).filter(action="organisation.organiser_remove").exists()


def test_an_organiser_is_removed_once_audited_and_a_second_click_is_harmless(client, store):
    org, boss = store["org"], store["boss"]
    cata = UserFactory(username="cata")
    staffing.add_organiser(org, cata, boss)
    role = org.roles.get(user=cata)
    client.force_login(boss)
    remove = org_url("organisation-role-remove", org, role_id=role.pk)
    response = client.post(remove)
    assert response.status_code == 302
    assert said(response) == ["cata is no longer Organiser of Tienda."]
    assert not org.roles.filter(user=cata).exists()
    entry = entries_about(org).filter(action="organisation.organiser_remove").get()
    assert (entry.actor, entry.target, entry.before) == (
        boss,
        "cata",
        {"account": "cata", "role": "organiser"},
    )
    again = client.post(remove)
    assert again.status_code == 302 and said(again) == ["This role was already removed."]
    assert entries_about(org).filter(action="organisation.organiser_remove").count() == 1
    # The page names accounts, never the role's id.
    page = client.get(org_url("organisation", org)).content.decode()
    assert "Organisation: role removed" in page and f">{role.pk}<" not in page


def test_an_organiser_may_leave_when_another_stays(client, store):
    org, boss = store["org"], store["boss"]
    staffing.add_organiser(org, UserFactory(username="cata"), boss)
    client.force_login(boss)
    response = client.post(
        org_url("organisation-role-remove", org, role_id=org.roles.get(user=boss).pk)
    )
    assert response.status_code == 302 and response.url == reverse("organisations")
    assert client.get(org_url("organisation", org)).status_code == 404


def test_another_organisations_organiser_gets_404_everywhere(client, store):
    org, rival = store["org"], store["rival"]
    role = org.roles.get()
    UserFactory(username="cata")
    client.force_login(rival)
    assert client.get(org_url("organisation", org)).status_code == 404
    assert (
        client.post(org_url("organisation-organiser-add", org), {"username": "cata"}).status_code
        == 404
    )
    assert client.post(org_url("organisation-role-remove", org, role_id=role.pk)).status_code == 404
    # Its own page does not reach the store's roles either.
    other = store["other"]
    response = client.post(org_url("organisation-role-remove", other, role_id=role.pk))
    assert response.status_code == 404
    assert org.roles.filter(pk=role.pk).exists()
    assert not OrganisationRole.objects.filter(user__username="cata").exists()
    assert "Tienda" not in client.get(reverse("organisations")).content.decode()
    # Neither does a judge of the store's events, nor a GET on an action.
    judge = UserFactory(username="judge")
    OrganisationRoleFactory(organisation=org, user=judge, role=Role.JUDGE)
    client.force_login(judge)
    assert client.get(org_url("organisation", org)).status_code == 404
    assert "Tienda" in client.get(reverse("organisations")).content.decode()
    client.force_login(store["boss"])
    assert client.get(org_url("organisation-organiser-add", org)).status_code == 405


# --------------------------------------------------------------------------- event staff
@pytest.fixture
def event_staff(store):
    event = EventFactory(organisation=store["org"], slug="open")
    return {**store, "event": event, "url": reverse("manage:staff", kwargs={"slug": "open"})}


def test_the_organiser_appoints_and_removes_event_staff(client, event_staff):
    w = event_staff
    UserFactory(username="eva", email="eva@example.org")
    client.force_login(w["boss"])
    page = client.get(w["url"]).content.decode()
    assert "Staff of every event of Tienda" in page and "boss" in page
    assert "What each role may do" in page
    response = client.post(w["url"], {"username": "EVA@example.org", "role": Role.HEAD_JUDGE})
    assert response.status_code == 302 and said(response) == ["Role given."]
    again = client.post(w["url"], {"username": "eva", "role": Role.HEAD_JUDGE})
    assert said(again) == ["eva already holds this role."]
    role = EventRole.objects.get(event=w["event"])
    assert (role.user.username, role.role) == ("eva", "head_judge")
    response = client.post(w["url"], {"remove": role.pk})
    assert response.status_code == 302
    assert said(response) == ["eva is no longer Head judge of this event."]
    assert not EventRole.objects.filter(event=w["event"]).exists()
    again = client.post(w["url"], {"remove": role.pk})  # a second click
    assert again.status_code == 302 and said(again) == ["This role was already removed."]
    entries = list(
        AuditLog.objects.filter(event=w["event"]).values_list(
            "action", "target", "target_type", "target_id"
        )
    )
    assert entries == [
        ("staff.remove", "eva", "events.eventrole", role.pk),
        ("staff.add", "eva", "events.eventrole", role.pk),
    ]


def test_the_events_last_organiser_stays_when_the_organisation_has_none(client, db):
    event = EventFactory(slug="lonely")
    alone = UserFactory(username="alone")
    role = EventRoleFactory(event=event, user=alone, role=Role.ORGANISER)
    client.force_login(alone)
    url = reverse("manage:staff", kwargs={"slug": "lonely"})
    response = client.post(url, {"remove": role.pk})
    assert said(response) == [
        "alone is the event's last organiser: appoint another organiser before removing them."
    ]
    assert EventRole.objects.filter(pk=role.pk).exists()


def test_event_staff_pages_are_closed_to_others(client, event_staff):
    w = event_staff
    judge = UserFactory(username="judge")
    role = EventRoleFactory(event=w["event"], user=judge, role=Role.JUDGE)
    other_event = EventFactory(organisation=w["other"], slug="theirs")
    theirs = EventRoleFactory(event=other_event, user=UserFactory(), role=Role.JUDGE)
    client.force_login(w["rival"])
    assert client.get(w["url"]).status_code == 404
    assert client.post(w["url"], {"remove": role.pk}).status_code == 404
    assert client.post(w["url"], {"username": "rival", "role": "organiser"}).status_code == 404
    client.force_login(judge)  # no "manage staff" permission
    assert client.get(w["url"]).status_code == 403
    assert client.post(w["url"], {"remove": role.pk}).status_code == 403
    client.force_login(w["boss"])  # another event's role through this event's page
    assert client.post(w["url"], {"remove": theirs.pk}).status_code == 404
    assert EventRole.objects.filter(pk__in=[role.pk, theirs.pk]).count() == 2
    assert not EventRole.objects.filter(user=w["rival"]).exists()


def test_authority_roles_are_not_offered_on_the_staff_page(client, event_staff):
    client.force_login(event_staff["boss"])
    page = client.get(event_staff["url"]).content.decode()
    offered = {v for v in Role.values if f'value="{v}"' in page}
    assert offered == set(Role.values)
    assert 'value="op_manager"' not in page and "coordinator" not in page.split("<details")[0]


def test_the_organisation_and_staff_pages_have_bounded_queries(
    client, event_staff, django_assert_max_num_queries
):
    w = event_staff
    for n in range(12):
        user = UserFactory(username=f"helper{n}")
        staffing.add_organiser(w["org"], user, w["boss"])
        staffing.appoint_staff(w["event"], user, Role.JUDGE, w["boss"])
    client.force_login(w["boss"])
    with django_assert_max_num_queries(12):
        page = client.get(org_url("organisation", w["org"]))
    assert page.content.decode().count("Organisation: organiser added") == 12
    with django_assert_max_num_queries(12):
        page = client.get(w["url"])
    assert page.content.decode().count("helper") >= 24


@pytest.mark.parametrize(
    "name, message",
    [
        ("Tienda\u200b", "invisible or direction-changing"),  # a zero-width space
        ("Tienda \u202eLTR", "invisible or direction-changing"),  # right-to-left override
        ("Тienda", "alphabets that look alike"),  # a Cyrillic Т
        ("Tienda   ", "An organisation with this name already exists"),  # spaces trimmed
        ("Ｔｉｅｎｄａ", "An organisation with this name already exists"),  # full-width letters
    ],
)
def test_a_name_that_only_looks_like_anothers_is_refused(client, store, name, message):
    """A new user created "VEKN Chile" with a zero-width space, a double space or a
    Cyrillic "С", each shown as the association's name (docs/organisations.md)."""
    client.force_login(UserFactory(username="mallory"))
    before = Organisation.objects.count()
    response = client.post(
        reverse("organisation-create"), {"name": name, "slug": "mallory-shop", "kind": "store"}
    )
    assert message in response.content.decode()
    assert Organisation.objects.count() == before


def test_spaces_inside_a_name_are_collapsed(client, store):
    client.force_login(UserFactory(username="mallory"))
    client.post(
        reverse("organisation-create"), {"name": "Club   de  Rol", "slug": "rol", "kind": "store"}
    )
    assert Organisation.objects.get(slug="rol").name == "Club de Rol"


def test_a_new_account_finds_its_organisations_from_my_page(client, db):
    """A new user had to type /organisations/ to create one: my page links it."""
    client.force_login(UserFactory(username="newbie"))
    page = client.get(reverse("my-page")).content.decode()
    assert f'href="{reverse("organisations")}"' in page


def test_an_account_waiting_for_its_vekn_number_is_told_the_next_step(client, db):
    """A new user who signed up with a VEKN number found "not linked" and no next step."""
    from events.models import PlayerClaim

    user = UserFactory(username="jugadora3")
    PlayerClaim.objects.create(user=user, vekn_number="3900001")
    client.force_login(user)
    page = client.get(reverse("my-page")).content.decode()
    assert "You gave VEKN number 3900001" in page and "ask the organiser at the venue" in page
