"""Event services against the database: registration, seating, results, toss, final."""

from decimal import Decimal

import pytest

from events import people, services
from events.errors import ConflictError, UserError
from events.models import AuditLog, Registration, Seat
from standings.services import event_standings
from tests.conftest import add_players, play_round
from tests.factories import PersonFactory

D = Decimal


def test_seat_round_tables_and_audit(event, staff):
    add_players(event, 23)
    rnd = services.seat_next_round(event, staff["organiser"], seed=1)
    sizes = sorted(t.seats.count() for t in rnd.tables.all())
    assert sizes == [4, 4, 5, 5, 5]
    assert AuditLog.objects.filter(event=event, action="round.seat").count() == 1


def test_next_round_refused_until_results_in(event):
    add_players(event, 8)
    services.seat_next_round(event, seed=1)
    with pytest.raises(UserError, match="Enter every result"):
        services.seat_next_round(event, seed=2)


def test_no_predator_prey_repeat_across_rounds(event):
    add_players(event, 20)
    for n in range(1, 4):
        play_round(services.seat_next_round(event, seed=n))
    rounds = services._previous_seatings(event, 4)
    pairs = set()
    for seating in rounds:
        for table in seating:
            for i, p in enumerate(table):
                pair = (p, table[(i + 1) % len(table)])
                assert pair not in pairs
                pairs.add(pair)


def test_only_checked_in_players_are_seated(event):
    regs = add_players(event, 9)
    regs[0].status = Registration.Status.REGISTERED
    regs[0].save()
    rnd = services.seat_next_round(event, seed=1)
    assert rnd.seats.count() == 8
    assert not rnd.seats.filter(registration=regs[0]).exists()


def test_late_arrival_joins_next_round(event):
    add_players(event, 8)
    play_round(services.seat_next_round(event, seed=1))
    late = services.register(event, PersonFactory(), check_in=True)
    assert late.first_round == 2
    rnd2 = services.seat_next_round(event, seed=2)
    assert rnd2.seats.filter(registration=late).exists()
    assert rnd2.seats.count() == 9


def test_drop_after_seating_gives_a_loss(event):
    regs = add_players(event, 10)
    rnd = services.seat_next_round(event, seed=1)
    services.set_status(regs[0], Registration.Status.DROPPED)
    seat = Seat.objects.get(round=rnd, registration=regs[0])
    assert seat.loss and seat.vp == 0
    table = seat.table
    # The other four players' sheet is validated without the loss seat.
    others = [s for s in table.seats.order_by("position")]
    vps = [None if s.loss else D("0.5") for s in others]
    vps[[s.loss for s in others].index(False)] = D("0.5")
    table.refresh_from_db()
    outcome = services.save_results(
        table, [D(0) if s.loss else D("0.5") for s in others], version=table.version
    )
    assert outcome.check.valid and outcome.check.complete
    # Dropped players are not seated again and keep their scores.
    play_round(rnd)
    rnd2 = services.seat_next_round(event, seed=2)
    assert not rnd2.seats.filter(registration=regs[0]).exists()
    assert regs[0].id in {row.player for row in event_standings(event).standings.rows}


def test_results_validation_and_override(event, staff):
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    with pytest.raises(UserError):
        services.save_results(table, [D(1), D(1), D(1), D(1)], version=table.version)
    # A judge may accept it with a reason.
    outcome = services.save_results(
        table,
        [D(1), D(1), D(1), D(1)],
        version=table.version,
        may_override=True,
        override_reason="Card effect",
        actor=staff["judge"],
    )
    assert outcome.overridden
    table.refresh_from_db()
    assert table.override_reason == "Card effect"
    entry = AuditLog.objects.filter(action="result.save").first()
    assert entry.before["vp"] == [None] * 4 and entry.after["vp"] == ["1.0", "1.0", "1.0", "1.0"]
    assert entry.actor == staff["judge"]


def test_override_without_reason_refused(event):
    add_players(event, 8)
    table = services.seat_next_round(event, seed=1).tables.get(number=1)
    with pytest.raises(UserError):
        services.save_results(table, [D(1), D(1), D(1), D(1)], version=0, may_override=True)
    assert not Seat.objects.filter(table=table, vp__isnull=False).exists()


def test_incomplete_sheet_is_saved(event):
    add_players(event, 8)
    table = services.seat_next_round(event, seed=1).tables.get(number=1)
    out = services.save_results(table, [D(1), None, None, None], version=0)
    assert out.check.valid and not out.check.complete


def test_concurrent_edit_gets_conflict_and_loses_nothing(event, staff):
    add_players(event, 8)
    table = services.seat_next_round(event, seed=1).tables.get(number=1)
    loaded_version = table.version  # both scorekeepers open the form
    services.save_results(
        table, [D(2), D(1), D(1), D(0)], version=loaded_version, actor=staff["judge"]
    )
    with pytest.raises(ConflictError, match="judge"):
        services.save_results(table, [D(2), D("0.5"), D("0.5"), D(1)], version=loaded_version)
    assert [s.vp for s in table.seats.order_by("position")] == [D(2), D(1), D(1), D(0)]


def test_the_same_sheet_sent_twice_by_the_same_person_is_saved_once(event, staff):
    """A double tap or a retry of the same sheet is answered as saved (it was a conflict
    page naming the person themself); the same values from someone else, or other values
    from the same person, are still a conflict."""
    add_players(event, 8)
    table = services.seat_next_round(event, seed=1).tables.get(number=1)
    loaded = table.version
    sheet = [D(2), D(1), D(1), D(0)]
    first = services.save_results(table, sheet, version=loaded, actor=staff["judge"])
    again = services.save_results(table, sheet, version=loaded, actor=staff["judge"])
    assert again.version == first.version and again.check.valid
    assert AuditLog.objects.filter(action="result.save").count() == 1
    with pytest.raises(ConflictError):
        services.save_results(table, sheet, version=loaded, actor=staff["scorekeeper"])
    with pytest.raises(ConflictError):
        services.save_results(table, [D(1), D(2), D(1), D(0)], version=loaded, actor=staff["judge"])


def test_swap_seats_and_refusal_after_results(event):
    add_players(event, 10)
    rnd = services.seat_next_round(event, seed=1)
    t1 = list(rnd.tables.get(number=1).seats.order_by("position"))
    t2 = list(rnd.tables.get(number=2).seats.order_by("position"))
    a, b = t1[0].registration_id, t2[2].registration_id
    services.swap_seats(rnd, a, b)
    assert Seat.objects.get(round=rnd, registration_id=a).table.number == 2
    assert Seat.objects.get(round=rnd, registration_id=b).position == 1
    table = rnd.tables.get(number=1)
    services.save_results(table, [D(1), None, None, None, None], version=table.version)
    with pytest.raises(UserError):
        services.swap_seats(rnd, a, b)


def test_full_event_with_toss_and_final(played_event):
    event = played_event
    result = event_standings(event)
    for group in result.standings.toss_required:
        services.record_toss(event, list(group))
    result = event_standings(event)
    assert not result.standings.toss_required
    finalists = list(result.standings.finalists)
    assert len(finalists) == 5
    final = services.start_final(event)
    # TR §3.1.3 ritual: lowest qualifier first.
    from standings import vekn

    order = vekn.ritual_order(finalists)
    positions = [0, 1, 0, 2, 3]
    for reg, pos in zip(order, positions, strict=True):
        final.refresh_from_db()
        row = services.place_final_card(final, reg, pos)
    assert final.tables.count() == 1
    seated = [s.registration_id for s in final.tables.get().seats.order_by("position")]
    assert seated == row
    services.set_first_player(final, row[2])
    seated = [s.registration_id for s in final.tables.get().seats.order_by("position")]
    assert seated == row[2:] + row[:2]
    table = final.tables.get()
    sheet = next(s for s in sorted(vekn.legal_sheets(5)) if s[0] > max(s[1:]))
    services.save_results(table, list(sheet), version=table.version)
    result = event_standings(event)
    assert result.standings.final_played
    assert result.standings.rows[0].player == seated[0] and result.standings.rows[0].winner
    assert [r.rank for r in result.standings.rows[:5]] == [1, 2, 2, 2, 2]


def test_ritual_refuses_wrong_player(played_event):
    event = played_event
    result = event_standings(event)
    for group in result.standings.toss_required:
        services.record_toss(event, list(group))
    final = services.start_final(event)
    finalists = list(event_standings(event).standings.finalists)
    with pytest.raises(UserError):
        services.place_final_card(final, finalists[0], 0)  # the top seed places last


def test_results_locked_after_next_round_for_scorekeepers(event):
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    play_round(rnd)
    services.seat_next_round(event, seed=2)
    table = rnd.tables.get(number=1)
    with pytest.raises(UserError):
        services.save_results(table, [D(2), D(1), D(1), D(0)], version=table.version)
    out = services.save_results(
        table, [D(2), D(1), D(1), D(0)], version=table.version, may_override=True
    )
    assert out.check.valid


def test_disqualified_player_absent_from_standings(played_event):
    reg = played_event.registrations.first()
    Registration.objects.filter(pk=reg.pk).update(status=Registration.Status.DISQUALIFIED)
    assert reg.id not in {r.player for r in event_standings(played_event).standings.rows}


def test_no_final_only_below_eight_players(event):
    event.final_mode = event.FinalMode.NONE
    event.save()
    add_players(event, 8)
    with pytest.raises(UserError, match="fewer than 8"):
        services.seat_next_round(event, seed=1)
    event.registrations.filter(pk=event.registrations.first().pk).update(status="registered")
    # 7 players: a staggered plan seats one table and rests the others (TR §3.1.2).
    rnd = services.seat_next_round(event, seed=1)
    assert rnd.seats.count() in (4, 5) and rnd.tables.count() == 1


def test_undoing_a_mistaken_drop_takes_back_the_loss(event):
    regs = add_players(event, 10)
    rnd = services.seat_next_round(event, seed=1)
    services.set_status(regs[0], Registration.Status.DROPPED)
    seat = Seat.objects.get(round=rnd, registration=regs[0])
    assert seat.loss
    services.set_status(regs[0], Registration.Status.CHECKED_IN)
    seat.refresh_from_db()
    assert not seat.loss and seat.vp is None


def test_no_late_arrival_once_every_round_is_seated(event):
    event.preliminary_rounds = 2
    event.save()
    add_players(event, 8)
    play_round(services.seat_next_round(event, seed=1))
    services.seat_next_round(event, seed=2)
    with pytest.raises(UserError, match="could not play"):
        services.register(event, PersonFactory(), check_in=True)


def test_vekn_number_of_someone_else_is_refused(db):
    """The holder's name is told only to an organisation where that person played
    (issue 12 finding 4: a refusal never discloses who owns a number to a stranger)."""
    from tests.factories import EventFactory, OrganisationFactory, RegistrationFactory

    ana = PersonFactory(name="Ana Rojas", vekn_number="3200001")
    home = EventFactory(slug="home-event")
    RegistrationFactory(event=home, person=ana)
    with pytest.raises(UserError, match="belongs to Ana Rojas"):
        people.find_or_create_person("Bob Someone", "3200001", organisation=home.organisation)
    for stranger in (None, OrganisationFactory(slug="stranger")):
        with pytest.raises(UserError, match="recorded under another name") as refused:
            people.find_or_create_person("Bob Someone", "3200001", organisation=stranger)
        assert "Ana" not in str(refused.value)
    # Same person, written differently: accepted.
    assert people.find_or_create_person("ana  rojas", "3200001").name == "Ana Rojas"
    # A number alone finds her only where she played; elsewhere the name is asked for, in
    # the same words as for a number nobody has.
    found = people.find_or_create_person("", "3200001", organisation=home.organisation)
    assert found == ana
    stranger = OrganisationFactory(slug="stranger-2")
    answers = []
    for number in ("3200001", "3299999"):
        with pytest.raises(UserError, match="Give the player's name too") as refused:
            people.find_or_create_person("", number, organisation=stranger)
        answers.append(str(refused.value))
    assert answers[0] == answers[1] and "Ana" not in answers[0]
    assert people.find_or_create_person("", "3200001").name == "Ana Rojas"


@pytest.mark.parametrize("players", [6, 7, 11])
def test_staggered_event_everyone_plays_the_same_number_of_games(event, players):
    event.final_mode = event.FinalMode.NONE if players < 8 else event.FinalMode.FINAL
    event.save()
    add_players(event, players)
    for number in range(1, event.total_preliminary_rounds + 1):
        play_round(services.seat_next_round(event, seed=number))
    games = [r.rounds_played for r in event_standings(event).standings.rows]
    # TR §3.1.2: one game fewer than there are rounds, the same for everybody.
    assert games == [event.total_preliminary_rounds - 1] * players


def test_preliminary_results_locked_once_the_final_starts(played_event):
    from events.models import Table

    event = played_event
    result = event_standings(event)
    for group in result.standings.toss_required:
        services.record_toss(event, list(group))
    services.start_final(event)
    table = Table.objects.get(round__event=event, round__number=2, number=1)
    with pytest.raises(UserError, match="final has started"):
        services.save_results(
            table,
            [D(2), D(1), D(1), D(0)],
            version=table.version,
            may_override=True,
            override_reason="x",
        )
    with pytest.raises(UserError, match="final has started"):
        services.update_event(event, None, preliminary_rounds=4)
    services.update_event(event, None, name="Renamed Open")


def test_settings_locked_after_approval(event):
    event.results_approved = True
    event.save()
    with pytest.raises(UserError, match="approved"):
        services.update_event(event, None, name="x")


def test_four_table_with_a_dropped_player_can_be_saved(event):
    regs = add_players(event, 8)  # two tables of 4
    rnd = services.seat_next_round(event, seed=1)
    seat = Seat.objects.get(round=rnd, registration=regs[0])
    services.set_status(regs[0], Registration.Status.DROPPED)
    table = seat.table
    table.refresh_from_db()
    vps = [D(0) if s.loss else D(1) for s in table.seats.order_by("position")]
    out = services.save_results(table, vps, version=table.version)
    assert out.check.valid and out.check.complete and not out.overridden
    with pytest.raises(UserError):
        table.refresh_from_db()
        bad = [D(0) if s.loss else D(9) for s in table.seats.order_by("position")]
        services.save_results(table, bad, version=table.version)


def test_reduced_table_totals_are_checked(event):
    assert services.table_check([D(3), D(3), D(3)]).valid is False
    check = services.table_check([D(2), D(1), D(0)])
    assert check.valid and check.complete
    assert services.table_check([D(1), None, None]).complete is False
