"""The players' self-service (events/self_service.py, events/waitlist.py; docs/players.md):
registering, the waitlist moving up in order, QR check-in, self drop between rounds and
the player's seat, for VEKN and Mitos y Leyendas events."""

import datetime as dt
from types import SimpleNamespace

import pytest
from django.utils import timezone

from events import roster, self_service, services, swiss_services, waitlist
from events.errors import UserError
from events.headcount import player_counts
from events.models import AuditLog, Person, Registration, WaitlistEntry
from tests.conftest import add_players, play_round
from tests.factories import EventFactory, PersonFactory, UserFactory

pytestmark = pytest.mark.django_db

RULESETS = {
    "vekn": {},
    "myl": {
        "ruleset": "myl",
        "preset": "myl-2026",
        "round_minutes": 50,
        "preliminary_rounds": 4,
        "best_of": 3,
        "top_cut": 0,
        "final_mode": "none",
    },
}


def open_event(ruleset="vekn", **fields):
    return EventFactory(self_registration=True, **RULESETS[ruleset], **fields)


def player(name):
    user = UserFactory(username=name.lower())
    PersonFactory(name=name, user=user, vekn_number="")
    return user


def actions(event):
    return list(
        AuditLog.objects.filter(event=event).order_by("at", "id").values_list("action", flat=True)
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_register_within_capacity_then_waitlist_then_move_up_in_order(ruleset):
    event = open_event(ruleset, capacity=2)
    ana, bea, cris, dani = (player(n) for n in ("Ana", "Bea", "Cris", "Dani"))
    assert self_service.self_register(event, ana)[0] == "registered"
    assert self_service.self_register(event, bea)[0] == "registered"
    kind, entry = self_service.self_register(event, cris)
    assert kind == "waitlisted" and waitlist.position(entry) == 1
    kind, entry = self_service.self_register(event, dani)
    assert kind == "waitlisted" and waitlist.position(entry) == 2
    counts = player_counts(event)
    assert (counts.registered, counts.waitlisted) == (2, 2)

    assert self_service.self_unregister(event, ana) == "unregistered"
    names = set(event.registrations.values_list("person__name", flat=True))
    assert names == {"Bea", "Cris"}
    assert list(event.waitlist.values_list("person__name", flat=True)) == ["Dani"]
    assert actions(event)[-3:] == [
        "player.unregister",
        "player.register",
        "player.waitlist_moved_up",
    ]
    moved = AuditLog.objects.get(action="player.waitlist_moved_up")
    assert moved.actor == ana and moved.target == "Cris"


def test_a_second_tap_changes_nothing():
    event = open_event(capacity=1)
    ana, bea = player("Ana"), player("Bea")
    first = self_service.self_register(event, ana)
    again = self_service.self_register(event, ana)
    assert first[1].pk == again[1].pk and event.registrations.count() == 1
    self_service.self_register(event, bea)
    self_service.self_register(event, bea)
    assert WaitlistEntry.objects.filter(event=event).count() == 1
    assert actions(event).count("player.waitlist_join") == 1
    assert self_service.self_unregister(event, bea) == "left_waitlist"
    assert self_service.self_unregister(event, bea) == ""


def test_removing_a_registration_moves_the_waitlist_up():
    event = open_event(capacity=1)
    ana, bea = player("Ana"), player("Bea")
    self_service.self_register(event, ana)
    self_service.self_register(event, bea)
    reg = event.registrations.get()
    roster.remove_registration(reg, actor=UserFactory(username="olga"))
    assert event.registrations.get().person.name == "Bea"
    assert not event.waitlist.exists()


def test_raising_the_capacity_moves_the_waitlist_up():
    event = open_event(capacity=1)
    for name in ("Ana", "Bea", "Cris"):
        self_service.self_register(event, player(name))
    made = self_service.update_registration_settings(event, None, capacity=2)
    assert [r.person.name for r in made] == ["Bea"]
    made = self_service.update_registration_settings(event, None, capacity=None)
    assert [r.person.name for r in made] == ["Cris"]


def test_dropped_and_non_competing_take_no_place():
    event = open_event(capacity=2)
    add_players(event, 1)
    dropped = add_players(event, 1)[0]
    services.set_status(dropped, Registration.Status.DROPPED)
    spectator = add_players(event, 1)[0]
    Registration.objects.filter(pk=spectator.pk).update(competing=False)
    assert waitlist.places_left(event) == 1
    assert self_service.self_register(event, player("Ana"))[0] == "registered"
    assert self_service.self_register(event, player("Bea"))[0] == "waitlisted"


def test_registration_closed_by_the_organiser_the_time_or_round_1():
    event = EventFactory()
    ana = player("Ana")
    with pytest.raises(UserError, match="organiser registers"):
        self_service.self_register(event, ana)
    event = open_event(registration_closes_at=timezone.now() - dt.timedelta(minutes=1))
    with pytest.raises(UserError, match="closed"):
        self_service.self_register(event, ana)
    event = open_event()
    add_players(event, 8)
    services.seat_next_round(event, seed=1)
    with pytest.raises(UserError, match="late arrival"):
        self_service.self_register(event, ana)
    assert not Registration.objects.filter(person__user=ana).exists()


def test_an_account_without_a_person_record_cannot_register():
    event = open_event()
    with pytest.raises(UserError, match="not linked"):
        self_service.self_register(event, UserFactory(username="nobody"))


def test_the_waitlist_stops_once_round_1_is_seated():
    event = open_event(capacity=8)
    add_players(event, 8)
    self_service.self_register(event, player("Late"))
    services.seat_next_round(event, seed=1)
    assert waitlist.move_up(waitlist.lock_event(event)) == []
    assert event.waitlist.count() == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_check_in_by_code(ruleset):
    event = open_event(ruleset)
    ana = player("Ana")
    self_service.self_register(event, ana)
    now = timezone.now()
    reg = self_service.check_in_by_code(event, ana, seen_at=now, now=now)
    assert reg.status == Registration.Status.CHECKED_IN
    entry = AuditLog.objects.get(action="player.checked_in")
    assert entry.actor == ana and entry.comment == "QR code"
    # Again: nothing changes, no second entry.
    self_service.check_in_by_code(event, ana, seen_at=now, now=now)
    assert AuditLog.objects.filter(action="player.checked_in").count() == 1


def test_check_in_by_code_refusals():
    event = open_event(capacity=1)
    ana, bea, cris = player("Ana"), player("Bea"), player("Cris")
    self_service.self_register(event, ana)
    self_service.self_register(event, bea)
    now = timezone.now()
    with pytest.raises(UserError, match="too old"):
        self_service.check_in_by_code(event, ana, seen_at=now - dt.timedelta(minutes=11), now=now)
    with pytest.raises(UserError, match="waitlist"):
        self_service.check_in_by_code(event, bea, seen_at=now, now=now)
    with pytest.raises(UserError, match="not registered"):
        self_service.check_in_by_code(event, cris, seen_at=now, now=now)
    services.set_status(event.registrations.get(), Registration.Status.DROPPED)
    with pytest.raises(UserError, match="no longer playing"):
        self_service.check_in_by_code(event, ana, seen_at=now, now=now)


def test_self_drop_only_between_rounds():
    event = open_event()
    ana = player("Ana")
    self_service.self_register(event, ana)
    reg = event.registrations.get(person__user=ana)
    services.set_status(reg, Registration.Status.CHECKED_IN)
    add_players(event, 7)
    reg.refresh_from_db()
    assert "unregister instead" in self_service.drop_refusal(reg)
    rnd = services.seat_next_round(event, seed=1)
    assert "ask a judge" in self_service.drop_refusal(reg)
    with pytest.raises(UserError, match="ask a judge"):
        self_service.self_drop(event, ana)
    play_round(rnd)
    reg.refresh_from_db()
    assert self_service.drop_refusal(reg) == ""
    dropped = self_service.self_drop(event, ana)
    assert dropped.status == Registration.Status.DROPPED and dropped.dropped_after_round == 1
    seat = rnd.seats.get(registration=reg)
    assert not seat.loss  # the result entered stands
    entry = AuditLog.objects.get(action="player.dropped")
    assert entry.actor == ana and entry.comment == "by the player"
    assert self_service.self_drop(event, ana).pk == reg.pk  # a second tap
    assert AuditLog.objects.filter(action="player.dropped").count() == 1


def test_self_drop_in_a_myl_event_between_rounds():
    event = open_event("myl")
    ana = player("Ana")
    self_service.self_register(event, ana)
    reg = event.registrations.get()
    services.set_status(reg, Registration.Status.CHECKED_IN)
    add_players(event, 3)
    rnd = swiss_services.pair_next_round(event, seed=1)
    assert "ask a judge" in self_service.drop_refusal(Registration.objects.get(pk=reg.pk))
    table = rnd.seats.get(registration=reg).table
    swiss_services.save_match_result(table, [2, 0], version=table.version)
    assert self_service.self_drop(event, ana).status == Registration.Status.DROPPED


def test_my_seat_vekn_table_and_the_others():
    event = open_event()
    regs = add_players(event, 9)  # tables of 5 and 4
    me = regs[0]
    me.event = event
    assert self_service.my_seat(me).state == "no_round"
    rnd = services.seat_next_round(event, seed=1)
    assert self_service.my_seat(me).state == "waiting"
    services.set_seating_published(rnd, True)
    seat = self_service.my_seat(me)
    mine = rnd.seats.select_related("table").get(registration=me)
    assert (seat.state, seat.table, seat.position) == ("seated", mine.table.number, mine.position)
    names = [s.registration.person.name for s in mine.table.seats.order_by("position")]
    assert [o.name for o in seat.others] == [n for n in names if n != me.person.name]
    assert seat.clock.state == "not_started"


def test_my_seat_myl_opponent():
    event = open_event("myl")
    regs = add_players(event, 4)
    me = regs[0]
    me.event = event
    rnd = swiss_services.pair_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    seat = self_service.my_seat(me)
    table = rnd.seats.get(registration=me).table
    other = table.seats.exclude(registration=me).get().registration.person.name
    assert seat.state == "seated" and [o.name for o in seat.others] == [other]


def test_registration_panel_for_anonymous_and_player():
    from django.contrib.auth.models import AnonymousUser

    event = open_event(capacity=1)
    ana = player("Ana")
    panel = self_service.registration_panel(event, AnonymousUser())
    assert (panel.closed, panel.places_left, panel.linked) == ("", 1, False)
    self_service.self_register(event, ana)
    panel = self_service.registration_panel(event, ana)
    assert panel.registration is not None and panel.can_unregister and panel.places_left == 0
    bea = player("Bea")
    self_service.self_register(event, bea)
    panel = self_service.registration_panel(event, bea)
    assert panel.waitlist_position == 1 and panel.waiting == 1


def test_a_waiting_person_kept_out_by_a_sanction_is_skipped(monkeypatch):
    event = open_event(capacity=1)
    ana, bea, cris = player("Ana"), player("Bea"), player("Cris")
    for user in (ana, bea, cris):
        self_service.self_register(event, user)
    bea_person = Person.objects.get(user=bea)
    real = services.blocking_sanction
    monkeypatch.setattr(
        services,
        "blocking_sanction",
        lambda person, ev: (
            SimpleNamespace(ends_on=None, starts_on=dt.date(2026, 1, 1))
            if person.pk == bea_person.pk
            else real(person, ev)
        ),
    )
    monkeypatch.setattr(services, "sanction_summary", lambda s: "")
    self_service.self_unregister(event, ana)
    assert event.registrations.get().person.name == "Cris"
    assert AuditLog.objects.filter(action="player.waitlist_skipped", target="Bea").exists()


def test_merging_a_record_waiting_where_the_other_is_registered_is_refused():
    from events.permissions import ROLE_PERMISSIONS, Role

    event = open_event(capacity=1)
    ana = player("Ana")
    self_service.self_register(event, ana)
    twin = player("Ana Twin")
    self_service.self_register(event, twin)  # waiting
    reg = event.registrations.get()
    other = Person.objects.get(user=twin)
    # The twin record played in another event of the organisation: a merge candidate.
    services.register(EventFactory(organisation=event.organisation), other)
    with pytest.raises(UserError, match="Both records"):
        roster.merge_people(reg, other.pk, None, ROLE_PERMISSIONS[Role.ORGANISER])
    assert event.waitlist.get().person == other


def test_no_self_drop_once_the_final_is_seated():
    """A player out of the final cannot drop from a finished event: it would rewrite the
    standings already played (the fresh-user try dropped from a published event)."""
    event = open_event(preliminary_rounds=2)
    ana = player("Ana")
    self_service.self_register(event, ana)
    reg = event.registrations.get(person__user=ana)
    services.set_status(reg, Registration.Status.CHECKED_IN)
    add_players(event, 9)
    for _ in range(2):
        play_round(services.seat_next_round(event, seed=1))
    final = services.start_final(event)
    if reg.pk in final.finalists:  # take a player out of the final instead
        reg = event.registrations.exclude(pk__in=final.finalists).first()
        reg.person.user = ana = UserFactory(username="outside")
        reg.person.save()
    reg.refresh_from_db()
    assert reg.pk not in final.finalists
    assert "preliminary rounds are over" in self_service.drop_refusal(reg)
    with pytest.raises(UserError, match="preliminary rounds are over"):
        self_service.self_drop(event, ana)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
