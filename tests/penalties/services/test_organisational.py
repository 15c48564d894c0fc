"""JG §5 organisational cases through the services: they change standings and the event's
sanctioned status (docs/rules-vekn-penalties.md "Organisational cases")."""

from decimal import Decimal

import pytest

from events import services as event_services
from events.errors import UserError
from events.models import Registration, Seat
from penalties import jg5_services
from standings.services import event_standings
from tests.conftest import add_players, play_round


def test_venue_interference_unsanctions_only_when_rule_says(played_event):
    event = played_event
    rnd = event.rounds.get(number=2)
    assert jg5_services.record_venue_interference(event, rnd, 150, True, "power cut") is False
    event.refresh_from_db()
    assert event.sanctioned
    assert (
        jg5_services.record_venue_interference(event, rnd, 95, True, "venue closed early") is True
    )
    event.refresh_from_db()
    assert not event.sanctioned and "95 minutes" in event.unsanctioned_reason
    with pytest.raises(UserError):
        jg5_services.record_venue_interference(event, rnd, 95, True, "")
    with pytest.raises(UserError, match="minutes played in the round"):
        jg5_services.record_venue_interference(event, rnd, -5, True, "clock wrong")


def test_force_majeure_uses_last_completed_round(event):
    add_players(event, 10)
    play_round(event_services.seat_next_round(event, seed=1))
    rnd2 = event_services.seat_next_round(event, seed=2)
    table = rnd2.tables.get(number=1)
    event_services.save_results(table, [Decimal(5)] + [Decimal(0)] * 4, version=table.version)
    winner = table.seats.get(position=1).registration_id
    assert {r.player: r for r in event_standings(event).standings.rows}[winner].prelim_vp >= 5
    jg5_services.declare_force_majeure(event, "Fire alarm, venue evacuated")
    event.refresh_from_db()
    rows = {r.player: r for r in event_standings(event).standings.rows}
    round1_vp = sum(
        s.vp
        for s in Seat.objects.filter(round__number=1, round__event=event, registration_id=winner)
    )
    assert rows[winner].prelim_vp == round1_vp  # round 2 (incomplete) ignored entirely
    with pytest.raises(UserError):
        jg5_services.declare_force_majeure(event, "again")
    jg5_services.lift_force_majeure(event, "recorded by mistake")
    event.refresh_from_db()
    assert {r.player: r for r in event_standings(event).standings.rows}[winner].prelim_vp >= 5


def test_force_majeure_without_completed_round_voids(event):
    add_players(event, 8)
    event_services.seat_next_round(event, seed=1)
    jg5_services.declare_force_majeure(event, "storm")
    event.refresh_from_db()
    result = event_standings(event)
    assert all(r.prelim_vp == 0 and r.rounds_played == 0 for r in result.standings.rows)


def test_substitute_takes_a_dropped_players_seat(event):
    regs = add_players(event, 10)
    rnd = event_services.seat_next_round(event, seed=1)
    seat = Seat.objects.get(round=rnd, registration=regs[0])
    with pytest.raises(UserError, match="left"):
        jg5_services.seat_substitute(seat.table, seat.position, "Staff Sam", "9999999")
    event_services.set_status(regs[0], Registration.Status.DROPPED)
    sub = jg5_services.seat_substitute(seat.table, seat.position, "Staff Sam", "9999999")
    assert not sub.competing
    table = seat.table
    table.refresh_from_db()
    sheet = [Decimal("0.5")] * 5
    event_services.save_results(table, sheet, version=table.version)
    rows = event_standings(event).standings.rows
    assert sub.id not in {r.player for r in rows}
    others = [s.registration_id for s in table.seats.exclude(registration=sub)]
    tps = {r.player: r.prelim_tp for r in rows}
    # Four players tied on 0.5 VP share places 1–4 of a 5-table (60+48+36+24)/4 = 42;
    # the substitute takes the last place.
    assert all(tps[p] == 42 for p in others)
