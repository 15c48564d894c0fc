"""Keeping an event's players through the services (events.roster; docs/organisers.md):
correcting and removing a registration, merging two records, lists, check in all."""

import uuid
from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from events import roster, services
from events.audit import entries_about
from events.errors import UserError
from events.models import AuditLog, Person, PlayerClaim, Registration
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import services as penalty_services
from penalties.models import Penalty, Sanction
from tests.conftest import add_players
from tests.factories import (
    EventFactory,
    OrganisationFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)

ORGANISER = ROLE_PERMISSIONS[Role.ORGANISER]
SCOREKEEPER = ROLE_PERMISSIONS[Role.SCOREKEEPER]


def penalise(event, reg):
    return penalty_services.log_penalty(
        event,
        reg,
        "3.3",
        {},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
        again=True,
    ).penalty


# ------------------------------------------------------------------ edit
def test_edit_corrects_name_and_number_audited(event):
    reg = RegistrationFactory(event=event, person=PersonFactory(name="Jhon", vekn_number=""))
    roster.edit_registration(reg, "  John   Smith ", "1234567", None)
    reg.person.refresh_from_db()
    assert (reg.person.name, reg.person.vekn_number) == ("John Smith", "1234567")
    entry = entries_about(reg).get()
    assert entry.action == "player.edit"
    assert entry.before == {"name": "Jhon", "vekn_number": ""}
    # Saving the same values again writes nothing.
    roster.edit_registration(reg, "John Smith", "1234567", None)
    assert entries_about(reg).count() == 1


@pytest.mark.parametrize(
    ("name", "number", "field"),
    [
        ("", "1", "name"),
        ("A" * 201, "", "name"),
        ("Ann", "12a", "vekn_number"),
        ("Ann", "²", "vekn_number"),
    ],
)
def test_edit_refuses_bad_input(event, name, number, field):
    reg = RegistrationFactory(event=event)
    before = (reg.person.name, reg.person.vekn_number)
    with pytest.raises(UserError) as exc:
        roster.edit_registration(reg, name, number, None)
    assert exc.value.field == field
    reg.person.refresh_from_db()
    assert (reg.person.name, reg.person.vekn_number) == before


def test_edit_refuses_a_number_another_record_holds(event):
    # The holder played in this organisation's events: merge them here.
    here = EventFactory(organisation=event.organisation)
    RegistrationFactory(event=here, person=PersonFactory(name="Holder", vekn_number="555"))
    reg = RegistrationFactory(event=event)
    number = reg.person.vekn_number
    with pytest.raises(UserError, match="merge the two records below"):
        roster.edit_registration(reg, reg.person.name, "555", None)
    # A holder this organisation never met: nothing to merge with here (a new user saw
    # "merge the records below" over "no other record to merge with").
    PersonFactory(name="Stranger", vekn_number="556")
    with pytest.raises(UserError, match="belongs to a player of another organisation"):
        roster.edit_registration(reg, reg.person.name, "556", None)
    reg.person.refresh_from_db()
    assert reg.person.vekn_number == number


def test_edit_refuses_a_person_with_history_elsewhere(event):
    reg = RegistrationFactory(event=event)
    RegistrationFactory(event=EventFactory(), person=reg.person)  # another organisation
    with pytest.raises(UserError, match="another organisation"):
        roster.edit_registration(reg, "New name", "", None)
    admin = UserFactory(username="root", is_superuser=True)
    roster.edit_registration(reg, "New name", "", admin)
    reg.person.refresh_from_db()
    assert reg.person.name == "New name"


# ------------------------------------------------------------------ remove
def test_remove_a_registration_that_has_not_played(event):
    reg = RegistrationFactory(event=event)
    person = reg.person
    roster.remove_registration(reg, None)
    assert not Registration.objects.filter(pk=reg.pk).exists()
    assert Person.objects.filter(pk=person.pk).exists()
    entry = AuditLog.objects.get(action="player.remove")
    assert (entry.target_type, entry.target_id) == ("events.registration", reg.pk)


def test_remove_refused_once_seated_played_or_penalised(event):
    regs = add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    seated = rnd.seats.first().registration
    with pytest.raises(UserError, match="seated in Round 1"):
        roster.remove_registration(seated, None)
    rnd.started_at = timezone.now()
    rnd.save()
    with pytest.raises(UserError, match="has played"):
        roster.remove_registration(seated, None)
    late = RegistrationFactory(event=event)  # not seated
    penalise(event, late)
    with pytest.raises(UserError, match="penalty"):
        roster.remove_registration(late, None)
    assert Registration.objects.filter(event=event).count() == len(regs) + 1
    assert not AuditLog.objects.filter(action="player.remove").exists()


def test_remove_refused_once_results_are_approved(event):
    reg = RegistrationFactory(event=event)
    event.results_approved = True
    event.save()
    with pytest.raises(UserError):
        roster.remove_registration(reg, None)


# ------------------------------------------------------------------ merge
def test_merge_moves_the_whole_history(event):
    past = EventFactory(organisation=event.organisation)
    keep = RegistrationFactory(event=event, person=PersonFactory(name="Ana", vekn_number=""))
    old = RegistrationFactory(event=past, person=PersonFactory(name="Ana P.", vekn_number="77"))
    add_players(past, 7)
    services.seat_next_round(past, seed=1)
    penalty = penalise(past, old)
    sanction = Sanction.objects.create(
        person=old.person,
        kind=Sanction.Kind.SUSPENSION,
        starts_on=date(2020, 1, 1),
        ends_on=date(2020, 2, 1),
        ruleset="vekn",
        organisation=event.organisation,
        reason="x",
    )
    account = UserFactory(username="ana")
    old.person.user = account
    old.person.save()
    claim = PlayerClaim.objects.create(user=UserFactory(), person=old.person, vekn_number="77")
    other_id = old.person_id
    person = roster.merge_people(keep, other_id, None, ORGANISER)
    assert not Person.objects.filter(pk=other_id).exists()
    assert (person.vekn_number, person.user_id) == ("77", account.pk)
    old.refresh_from_db()
    assert old.person_id == keep.person_id
    assert old.seats.exists()
    assert Penalty.objects.get(pk=penalty.pk).person_id == keep.person_id
    assert Sanction.objects.get(pk=sanction.pk).person_id == keep.person_id
    assert PlayerClaim.objects.get(pk=claim.pk).person_id == keep.person_id
    entry = entries_about(keep).get(action="player.merge")
    assert entry.before["merged"] == {"id": other_id, "name": "Ana P.", "vekn_number": "77"}
    assert entry.after["moved"]["events.registration"] == 1


def test_merge_refusals(event):
    past = EventFactory(organisation=event.organisation)
    keep = RegistrationFactory(event=event)
    # Needs the organiser's permission, checked by the service itself.
    other = RegistrationFactory(event=past)
    with pytest.raises(PermissionDenied):
        roster.merge_people(keep, other.person_id, None, SCOREKEEPER)
    # Both with a number of their own.
    with pytest.raises(UserError, match="different VEKN numbers"):
        roster.merge_people(keep, other.person_id, None, ORGANISER)
    # Both registered in one event.
    same = RegistrationFactory(event=event, person=PersonFactory(vekn_number=""))
    RegistrationFactory(event=past, person=same.person)
    with pytest.raises(UserError, match="Both records are registered"):
        roster.merge_people(keep, same.person_id, None, ORGANISER)
    # Someone the organisation never met, or nobody, or oneself: the same words.
    stranger = PersonFactory(vekn_number="")
    for pk in (stranger.pk, 999999, keep.person_id):
        with pytest.raises(UserError, match="Choose a player"):
            roster.merge_people(keep, pk, None, ORGANISER)
    assert not AuditLog.objects.filter(action="player.merge").exists()


def test_merge_refused_when_another_organisation_has_history(event):
    past = EventFactory(organisation=event.organisation)
    keep = RegistrationFactory(event=event, person=PersonFactory(vekn_number=""))
    other = RegistrationFactory(event=past)
    RegistrationFactory(event=EventFactory(organisation=OrganisationFactory()), person=other.person)
    with pytest.raises(UserError, match="another organisation"):
        roster.merge_people(keep, other.person_id, None, ORGANISER)
    assert Person.objects.filter(pk=other.person_id).exists()


# ------------------------------------------------------------------ lists
def test_preview_then_save_all_at_once(event):
    past = EventFactory(organisation=event.organisation)
    known = RegistrationFactory(event=past, person=PersonFactory(name="José Pérez", vekn_number=""))
    here = RegistrationFactory(event=event, person=PersonFactory(name="Here", vekn_number="9"))
    text = "name;vekn\nJose  perez;\nNew One;123\nHere;9\nBad;12x\nNew One;\n"
    preview = roster.preview_list(event, text)
    kinds = [(o.line.number, o.kind, o.line.error) for o in preview.outcomes]
    assert kinds == [
        (2, "existing", ""),
        (3, "new", ""),
        (4, "error", "already_registered"),
        (5, "error", "bad_number"),
        (6, "error", "duplicate"),
    ]
    assert roster.save_list(event, text, preview.digest, None, check_in=True) == 2
    regs = event.registrations.exclude(pk=here.pk)
    assert {r.person_id for r in regs} >= {known.person_id}
    assert regs.filter(status=Registration.Status.CHECKED_IN).count() == 2
    assert Person.objects.filter(name="New One", vekn_number="123").count() == 1
    # The confirm step sent twice: refused, nothing saved twice.
    with pytest.raises(UserError, match="changed since the preview"):
        roster.save_list(event, text, preview.digest, None)
    assert event.registrations.count() == 3
    assert AuditLog.objects.filter(action="player.import").count() == 1


def test_save_is_all_or_nothing(event):
    text = "Ana\nBea"
    preview = roster.preview_list(event, text)
    # Someone registers Bea between the preview and the confirm.
    services.register(event, PersonFactory(name="Bea", vekn_number=""))
    RegistrationFactory(
        event=EventFactory(organisation=event.organisation), person=Person.objects.get(name="Bea")
    )
    with pytest.raises(UserError):
        roster.save_list(event, text, preview.digest, None)
    assert not Person.objects.filter(name="Ana").exists()


def test_save_refused_mid_way_saves_nothing(event):
    # A registration refused by the register service itself rolls back the whole list.
    text = "Ana\nBea"
    preview = roster.preview_list(event, text)
    event.rounds.create(number=1, is_final=True)
    with pytest.raises(UserError, match="Line 1: .*Nothing was saved"):
        roster.save_list(event, text, preview.digest, None)
    assert not Person.objects.filter(name__in=["Ana", "Bea"]).exists()


def test_list_limits_are_user_errors(event):
    with pytest.raises(UserError):
        roster.preview_list(event, "")
    with pytest.raises(UserError, match="1,000|1000"):
        roster.preview_list(event, "\n".join(f"P{i}" for i in range(1001)))


def test_a_sanctioned_person_in_the_list_is_an_error(event):
    person = PersonFactory(name="Eva", vekn_number="500")
    Sanction.objects.create(
        person=person,
        kind=Sanction.Kind.PERMANENT_BAN,
        starts_on=date(2020, 1, 1),
        ruleset="vekn",
        confirmed_at=timezone.now(),
        reason="x",
    )
    [o] = roster.preview_list(event, "Eva; 500").outcomes
    assert (o.kind, o.line.error) == ("error", "blocked")
    [o] = roster.preview_list(event, "eva").outcomes
    assert (o.kind, o.line.error) == ("error", "blocked")


# ------------------------------------------------------------------ check in all
def test_check_in_all_and_undo(event):
    regs = [RegistrationFactory(event=event, status="registered") for _ in range(4)]
    services.set_status(regs[0], Registration.Status.CHECKED_IN)
    services.set_status(regs[1], Registration.Status.DROPPED)
    done, left = roster.check_in_all(event, None)
    assert len(done) == 2 and left == []
    statuses = dict(event.registrations.values_list("pk", "status"))
    assert statuses[regs[2].pk] == statuses[regs[3].pk] == "checked_in"
    assert statuses[regs[1].pk] == "dropped"
    # Nothing left: nothing written.
    assert roster.check_in_all(event, None) == ([], [])
    assert AuditLog.objects.filter(action=roster.CHECK_IN_ALL).count() == 1
    # One of them is dropped meanwhile: the undo leaves them dropped.
    services.set_status(regs[3], Registration.Status.DROPPED)
    assert roster.undo_check_in_all(event, None) == 1
    statuses = dict(event.registrations.values_list("pk", "status"))
    assert statuses[regs[0].pk] == "checked_in"  # checked in by hand, not by the action
    assert statuses[regs[2].pk] == "registered"
    assert statuses[regs[3].pk] == "dropped"
    with pytest.raises(UserError):
        roster.undo_check_in_all(event, None)


def test_check_in_all_leaves_sanctioned_players_out(event):
    reg = RegistrationFactory(event=event, status="registered")
    Sanction.objects.create(
        person=reg.person,
        kind=Sanction.Kind.PERMANENT_BAN,
        starts_on=date(2020, 1, 1),
        ruleset="vekn",
        confirmed_at=timezone.now(),
        reason="x",
    )
    done, left = roster.check_in_all(event, None)
    assert (done, left) == ([], [reg.person.name])
    reg.refresh_from_db()
    assert reg.status == "registered"


# ------------------------------------------------------------------ numbers
def test_missing_numbers_asks_the_ruleset(event):
    RegistrationFactory(event=event, person=PersonFactory(name="Zed", vekn_number=""))
    RegistrationFactory(event=event, person=PersonFactory(name="Amy", vekn_number=""))
    RegistrationFactory(event=event)
    RegistrationFactory(event=event, person=PersonFactory(vekn_number=""), competing=False)
    assert roster.missing_numbers(event) == ["Amy", "Zed"]
    myl = EventFactory(ruleset="myl")
    RegistrationFactory(event=myl, person=PersonFactory(vekn_number=""))
    assert roster.missing_numbers(myl) == []


def test_namesakes_only_of_this_organisation(event):
    past = EventFactory(organisation=event.organisation)
    mine = RegistrationFactory(event=past, person=PersonFactory(name="José Pérez"))
    RegistrationFactory(event=EventFactory(), person=PersonFactory(name="Jose Perez"))
    assert roster.namesakes("jose  PEREZ", event) == [mine.person]
    RegistrationFactory(event=event, person=mine.person)
    assert roster.namesakes("jose perez", event) == []


def test_list_preview_checks_sanctions_in_one_query(event, django_assert_max_num_queries):
    """Issue 14: the preview ran one or two sanction queries per line (~1,000 for a
    1,000-line list); now one for the whole list, and it still finds the blocked ones."""
    known = [PersonFactory(name=f"Known {i}", vekn_number=str(7000 + i)) for i in range(100)]
    for p in known:
        RegistrationFactory(event=EventFactory(organisation=event.organisation), person=p)
    ban = {"kind": Sanction.Kind.PERMANENT_BAN, "starts_on": date(2020, 1, 1), "reason": "x"}
    Sanction.objects.create(person=known[3], ruleset="vekn", confirmed_at=timezone.now(), **ban)
    Sanction.objects.create(
        person=PersonFactory(name="Banned Namesake"),
        ruleset="vekn",
        confirmed_at=timezone.now(),
        **ban,
    )
    lines = [f"Known {i}; {7000 + i}" for i in range(100)]
    lines += [f"Newcomer {i}" for i in range(99)] + ["banned namesake"]
    with django_assert_max_num_queries(6):
        preview = roster.preview_list(event, "\n".join(lines))
    blocked = [o.line.number for o in preview.outcomes if o.line.error == "blocked"]
    assert blocked == [4, 200]
    assert len(preview.valid) == 198


def test_list_preview_names_the_rulesets_number(db):
    """Issue 14: a bad number in a MyL list is not called a VEKN number."""
    myl = EventFactory(ruleset="myl")
    [o] = roster.preview_list(myl, "Ana; 12x").outcomes
    assert o.reason == "“12x” is not a player number (1 to 20 digits)"
    [o] = roster.preview_list(EventFactory(), "Ana; 12x").outcomes
    assert o.reason == "“12x” is not a VEKN number (1 to 20 digits)"


def test_edit_keeps_first_and_last_names_apart_audited(event):
    """Issue 14: the correction gives the name in two parts; the name is both together,
    a name that disagrees is refused, and the database refuses a stored disagreement."""
    from django.db import IntegrityError, transaction

    reg = RegistrationFactory(event=event, person=PersonFactory(name="Maria Herrera"))
    roster.edit_registration(reg, "", "", None, first_name="María José", last_name="Herrera")
    reg.person.refresh_from_db()
    person = reg.person
    assert (person.name, person.first_name, person.last_name) == (
        "María José Herrera",
        "María José",
        "Herrera",
    )
    entry = entries_about(reg).get()
    assert entry.after["first_name"] == "María José" and entry.before["first_name"] == ""
    with pytest.raises(UserError) as exc:
        roster.edit_registration(
            reg, "María Herrera", "", None, first_name="María José", last_name="Herrera"
        )
    assert exc.value.field == "name" and "María José Herrera" in exc.value.message
    with pytest.raises(IntegrityError), transaction.atomic():
        Person.objects.filter(pk=person.pk).update(name="Someone Else")
