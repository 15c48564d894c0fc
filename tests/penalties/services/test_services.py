"""Judging an event: penalties through the services and the standings they change
(JG §1.1–§1.2; docs/rules-vekn-penalties.md)."""

import uuid
from decimal import Decimal

import pytest
from django.urls import reverse

from events import services as event_services
from events.errors import UserError
from events.models import Registration
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import jg5_services, services, time_extensions
from penalties.models import Level, Penalty, TimeExtension
from standings import vekn
from standings.services import event_standings, standings_document
from tests.conftest import add_players

D = Decimal
JUDGE = ROLE_PERMISSIONS[Role.JUDGE]
HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]


def log(event, reg, code, conditions=None, perms=HEAD, **kw):
    """Log one incident; each call is a new offence (``again``) unless told otherwise."""
    kw.setdefault("again", True)
    return services.log_penalty(
        event,
        reg,
        code,
        conditions or {},
        client_id=kw.pop("client_id", uuid.uuid4()),
        perms=perms,
        **kw,
    )


@pytest.fixture
def seated(event):
    add_players(event, 10)
    return event, event_services.seat_next_round(event, seed=1)


def test_slow_play_escalates_caution_caution_warning(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    levels = [log(event, reg, "3.3").penalty for _ in range(3)]
    assert [(p.level, p.offence) for p in levels] == [
        ("caution", 1),
        ("caution", 2),
        ("warning", 3),
    ]
    # Another infraction code has its own count.
    assert log(event, reg, "3.6").penalty.offence == 1


def test_double_submission_creates_one_penalty(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    client_id = uuid.uuid4()
    first = log(event, reg, "3.3", client_id=client_id)
    second = log(event, reg, "3.3", client_id=client_id)
    assert first.created and not second.created
    assert first.penalty.pk == second.penalty.pk
    assert Penalty.objects.count() == 1


def test_floor_judge_sa_pending_until_head_judge(seated, staff):
    event, rnd = seated
    reg = rnd.seats.first().registration
    penalty = log(event, reg, "2.4", perms=JUDGE, table=rnd.tables.first()).penalty
    assert penalty.level == Level.STANDINGS_ADJUSTMENT and penalty.status == "pending"
    services.confirm(penalty, staff["head_judge"], perms=HEAD)
    penalty.refresh_from_db()
    assert penalty.status == "confirmed" and penalty.confirmed_by == staff["head_judge"]


def test_floor_judge_may_confirm_clear_decklist_error(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    penalty = log(event, reg, "3.1.2", perms=JUDGE, timing="between_rounds").penalty
    assert penalty.status == "confirmed"


def _sheet_with_narrow_win():
    """A legal 5-seat sheet where seat 1 wins with 3 VP against 2 VP (a GW)."""
    return next(s for s in sorted(vekn.legal_sheets(5)) if s[0] == 3 and max(s[1:]) == 2)


def test_standings_adjustment_removes_a_game_win(event):
    add_players(event, 10)
    rnd = event_services.seat_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    sheet = _sheet_with_narrow_win()
    event_services.save_results(table, list(sheet), version=table.version)
    winner = table.seats.get(position=1).registration
    row = {r.player: r for r in event_standings(event).standings.rows}[winner.id]
    assert row.prelim_gw == 1 and row.prelim_vp == 3
    penalty = log(event, winner, "2.4", table=table).penalty  # SA during the game
    row = {r.player: r for r in event_standings(event).standings.rows}[winner.id]
    assert row.prelim_gw == 0 and row.prelim_vp == 2  # 2–2: a tie, no GW (JG §1.1.3)
    doc = standings_document(event_standings(event))
    assert doc["penalties"][0]["vp_adjustment"] == {"round": 1, "vp": -1.0}
    assert doc["penalties"][0]["level"] == "standings_adjustment"
    # Voiding it restores everything at once.
    services.void(penalty, "wrong player", perms=HEAD)
    row = {r.player: r for r in event_standings(event).standings.rows}[winner.id]
    assert row.prelim_gw == 1 and row.prelim_vp == 3
    assert standings_document(event_standings(event))["penalties"] == []


def test_pending_sa_does_not_change_standings(event):
    add_players(event, 10)
    rnd = event_services.seat_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    event_services.save_results(table, list(_sheet_with_narrow_win()), version=table.version)
    winner = table.seats.get(position=1).registration
    log(event, winner, "2.4", perms=JUDGE, table=table)
    row = {r.player: r for r in event_standings(event).standings.rows}[winner.id]
    assert row.prelim_gw == 1
    assert standings_document(event_standings(event))["penalties"][0]["pending_approval"] is True


def test_disqualification_removes_player_and_void_restores(seated, staff):
    event, rnd = seated
    reg = rnd.seats.first().registration
    penalty = log(event, reg, "4.7", perms=JUDGE, table=rnd.tables.first()).penalty
    assert penalty.status == "pending" and "warning" in penalty.also
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    services.confirm(penalty, staff["head_judge"], perms=HEAD)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DISQUALIFIED
    assert reg.id not in {r.player for r in event_standings(event).standings.rows}
    services.void(penalty, "appeal upheld", perms=HEAD)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN


def test_void_reassesses_later_offences(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    first, second, third = (log(event, reg, "3.3").penalty for _ in range(3))
    assert third.level == "warning"
    services.void(first, "logged by mistake", perms=HEAD)
    third.refresh_from_db()
    second.refresh_from_db()
    assert (second.offence, third.offence, third.level) == (1, 2, "caution")


def test_deviation_needs_head_judge_and_reason(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    with pytest.raises(UserError, match="head judge"):
        log(event, reg, "3.3", perms=JUDGE, level="warning", deviation_reason="x")
    with pytest.raises(UserError, match="why"):
        log(event, reg, "3.3", level="warning")
    p = log(
        event,
        reg,
        "3.3",
        level="warning",
        deviation_reason="Repeated after a caution from another judge",
    ).penalty
    assert (p.guide_level, p.level) == ("caution", "warning") and p.deviation_reason


def test_approved_results_refuse_new_penalties_except_fraud(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    services.set_results_approved(event, True)
    with pytest.raises(UserError, match="approved"):
        log(event, reg, "3.3")
    p = log(event, reg, "4.8", ethics_committee=True).penalty
    assert p.level == "disqualification" and p.ethics_committee


def test_non_competing_person_needs_vekn_for_sa(seated):
    event, _ = seated
    spectator = services.add_non_competing(event, "Curious Spectator", "")
    assert not spectator.competing
    assert log(event, spectator, "4.1").penalty.level == "warning"
    with pytest.raises(UserError, match="VEKN number"):
        log(event, spectator, "2.4")
    staffer = services.add_non_competing(event, "Staff Member", "7777777")
    assert log(event, staffer, "2.4").penalty.level == "standings_adjustment"
    assert staffer.id not in {r.player for r in event_standings(event).standings.rows}


def test_earlier_event_warning_is_context_not_a_step(event, seated):
    from tests.factories import EventFactory, RegistrationFactory

    event, rnd = seated
    reg = rnd.seats.first().registration
    past = EventFactory(slug="past", date=event.date.replace(year=2025))
    old = RegistrationFactory(event=past, person=reg.person)
    log(past, old, "3.8")
    p = log(event, reg, "3.8").penalty
    assert p.offence == 1 and p.level == "warning"
    assert p.context == ["pre-existing warning"]


def test_time_extension_cumulative_and_capped(seated):
    event, rnd = seated
    table = rnd.tables.first()
    time_extensions.start_round_clock(rnd)
    ext = time_extensions.add_extension(
        table, 4, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
    assert ext.minutes == 4
    time_extensions.add_extension(
        table, 12, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
    assert time_extensions.table_extension_minutes(table) == 10  # capped at 10 in total
    with pytest.raises(UserError):
        time_extensions.add_extension(
            table, 6, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
        )
    with pytest.raises(UserError, match="head judge"):
        time_extensions.add_extension(
            table, 6, client_id=uuid.uuid4(), perms=JUDGE, authorised=True
        )
    time_extensions.add_extension(
        table, 6, client_id=uuid.uuid4(), authorised=True, perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
    assert time_extensions.table_extension_minutes(table) == 16
    table.refresh_from_db()
    rnd.refresh_from_db()
    from datetime import timedelta

    assert time_extensions.table_end_time(table) == rnd.started_at + timedelta(minutes=120 + 16)
    overview = event_services.round_overview(rnd)
    assert overview[0]["extension"] == 16
    assert TimeExtension.objects.count() == 3


def test_sanction_history_page_is_the_players_own(client, seated):
    from tests.factories import UserFactory

    event, rnd = seated
    reg = rnd.seats.first().registration
    other = rnd.seats.last().registration
    log(event, reg, "3.8")
    log(event, other, "4.1")
    user = UserFactory(username="me")
    reg.person.user = user
    reg.person.save()
    client.force_login(user)
    page = client.get(reverse("my-sanctions")).content.decode()
    assert "3.8" in page and "4.1" not in page
    client.logout()
    assert client.get(reverse("my-sanctions")).status_code == 302
    public = client.get(
        reverse("events:public-standings", kwargs={"slug": event.slug})
    ).content.decode()
    assert "3.8" not in public


def test_penalty_report_excludes_cautions(client, seated, staff):
    event, rnd = seated
    reg = rnd.seats.first().registration
    log(event, reg, "3.3")
    log(event, reg, "3.8")
    client.force_login(staff["organiser"])
    data = client.get(reverse("manage:export-penalties-json", kwargs={"slug": event.slug})).json()
    assert [p["infraction"] for p in data["penalties"]] == ["3.8"]
    csv = client.get(
        reverse("manage:export-penalties-csv", kwargs={"slug": event.slug})
    ).content.decode()
    assert "3.8" in csv and "3.3" not in csv


def test_judge_logs_a_caution_in_few_requests(client, seated, staff):
    """Table view → Incident → player → 3.3 → Confirm: the pages a judge taps through."""
    event, rnd = seated
    client.force_login(staff["judge"])
    table = rnd.tables.first()
    seat = table.seats.order_by("position").first()
    round_page = client.get(
        reverse("manage:round", kwargs={"slug": event.slug, "number": 1})
    ).content.decode()
    incident_url = reverse(
        "manage:table-incident",
        kwargs={"slug": event.slug, "number": 1, "table_number": table.number},
    )
    assert incident_url in round_page  # tap 1
    pick = client.get(incident_url).content.decode()
    step2 = (
        reverse("manage:incident-new", kwargs={"slug": event.slug})
        + f"?reg={seat.registration_id}&amp;table={table.pk}"
    )
    assert step2 in pick  # tap 2
    url = reverse("manage:incident-new", kwargs={"slug": event.slug})
    infractions = client.get(url, {"reg": seat.registration_id, "table": table.pk}).content.decode()
    assert "code=3.3" in infractions  # tap 3
    page = client.get(url, {"reg": seat.registration_id, "table": table.pk, "code": "3.3"})
    html = page.content.decode()
    assert "Caution" in html and 'name="confirm"' in html
    client_id = str(uuid.uuid4())
    data = {
        "reg": seat.registration_id,
        "table": table.pk,
        "code": "3.3",
        "client_id": client_id,
        "timing": "during_game",
        "confirm": "1",
    }
    response = client.post(url, data)  # tap 4
    assert response.status_code == 302
    again = client.post(url, data)  # a double tap
    assert again.status_code == 302
    assert Penalty.objects.filter(client_id=client_id).count() == 1
    detail = client.get(response["Location"]).content.decode()
    assert "Saved" in detail


def test_conditions_are_asked_and_required(client, seated, staff):
    event, rnd = seated
    client.force_login(staff["judge"])
    reg = rnd.seats.first().registration
    url = reverse("manage:incident-new", kwargs={"slug": event.slug})
    html = client.get(url, {"reg": reg.pk, "code": "3.7"}).content.decode()
    assert 'name="c_pattern"' in html and "disabled" in html
    preview = client.post(
        url,
        {"reg": reg.pk, "code": "3.7", "c_pattern": "yes", "client_id": str(uuid.uuid4())},
        HTTP_HX_REQUEST="true",
    )
    assert "Standings Adjustment" in preview.content.decode()
    assert not Penalty.objects.exists()


def test_linked_infractions_issue_only_the_most_severe(seated):
    event, rnd = seated
    reg = rnd.seats.first().registration
    first = log(event, reg, "2.2").penalty  # caution
    second = log(event, reg, "2.3", {"simple_fix": False}, linked_to=first).penalty  # warning
    first.refresh_from_db()
    assert first.is_linked and not second.is_linked and second.level == "warning"
    # A lighter linked infraction is recorded as linked and not counted.
    third = log(event, reg, "2.2", linked_to=second).penalty
    assert third.is_linked
    assert log(event, reg, "2.2").penalty.offence == 1  # neither linked 2.2 counted


def test_same_infraction_again_within_minutes_needs_explicit_confirmation(client, seated, staff):
    """A Back + Confirm (new page, new submission id) must not silently log a second one."""
    event, rnd = seated
    client.force_login(staff["judge"])
    reg = rnd.seats.first().registration
    url = reverse("manage:incident-new", kwargs={"slug": event.slug})
    data = {"reg": reg.pk, "code": "3.3", "timing": "between_rounds", "confirm": "1"}
    assert client.post(url, {**data, "client_id": str(uuid.uuid4())}).status_code == 302
    again = client.post(url, {**data, "client_id": str(uuid.uuid4())})
    assert again.status_code == 409 and "already got 3.3" in again.content.decode()
    assert Penalty.objects.count() == 1
    assert (
        client.post(url, {**data, "client_id": str(uuid.uuid4()), "again": "on"}).status_code == 302
    )
    assert Penalty.objects.count() == 2


def test_disqualification_during_a_game_ranks_the_table_without_the_player(event):
    """JG §1.1.4; docs/rules-vekn-penalties.md "Standings adjustments" [choice]: the game goes on;
    the table's GW/TP are computed among the remaining players (the disqualified seat counts as
    last)."""
    add_players(event, 10)
    rnd = event_services.seat_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    seats = list(table.seats.order_by("position"))
    sheet = [D("0.5")] * 5  # time-out, everybody still in
    event_services.save_results(table, sheet, version=table.version)
    cheat = seats[0].registration
    log(event, cheat, "4.7", table=table)
    tps = {r.player: r.prelim_tp for r in event_standings(event).standings.rows}
    assert cheat.id not in tps
    # The four others share places 1–4: (60 + 48 + 36 + 24) / 4 = 42.
    assert [tps[s.registration_id] for s in seats[1:]] == [42, 42, 42, 42]


def test_public_api_lists_only_final_penalties_that_change_standings(client, seated, staff):
    """docs/contracts.md §2 (issue 12): no caution, no warning, nothing pending."""
    event, rnd = seated
    regs = [s.registration for s in rnd.seats.order_by("table__number", "position")]
    log(event, regs[0], "3.3")  # caution
    log(event, regs[1], "3.8")  # warning
    pending = log(event, regs[2], "2.4", perms=JUDGE, table=rnd.tables.first()).penalty
    event_services.set_standings_published(event, True)
    url = reverse("api-standings", kwargs={"slug": event.slug})
    public = client.get(url).json()["penalties"]
    assert [p["infraction"] for p in public] == []
    client.force_login(staff["judge"])
    assert [p["infraction"] for p in client.get(url).json()["penalties"]] == ["3.3", "3.8", "2.4"]
    # The head judge confirms the adjustment: it is final, the public sees it at once.
    services.confirm(pending, staff["head_judge"], perms=HEAD)
    client.logout()
    assert [p["infraction"] for p in client.get(url).json()["penalties"]] == ["2.4"]


def test_approved_results_freeze_every_standings_change(seated, staff):
    event, rnd = seated
    reg = rnd.seats.first().registration
    sa = log(event, reg, "2.4", table=rnd.tables.first()).penalty
    pending = log(event, rnd.seats.last().registration, "4.7", perms=JUDGE).penalty
    services.set_results_approved(event, True)
    event.refresh_from_db()
    for action in (
        lambda: services.void(sa, "oops", perms=HEAD),
        lambda: services.change_level(sa, "warning", "softer", perms=HEAD),
        lambda: services.confirm(pending, perms=HEAD),
        lambda: jg5_services.declare_force_majeure(event, "storm"),
        lambda: event_services.set_status(reg, Registration.Status.DROPPED),
    ):
        with pytest.raises(UserError, match="approved"):
            action()


def test_finalists_are_fixed_when_the_final_starts(played_event):
    event = played_event
    result = event_standings(event)
    for group in result.standings.toss_required:
        event_services.record_toss(event, list(group))
    final = event_services.start_final(event)
    finalists = list(final.finalists)
    assert finalists == list(event_standings(event).standings.finalists)
    # A confirmed adjustment on the 5th finalist no longer changes who plays the final.
    fifth = Registration.objects.get(pk=finalists[-1])
    log(event, fifth, "2.4", timing="after_last_game")
    log(event, fifth, "2.4", timing="after_last_game")
    log(event, fifth, "2.4", timing="after_last_game")
    # (their seeding may move with the adjustment; who plays does not)
    assert set(event_standings(event).standings.finalists) == set(finalists)
    from standings import vekn as vekn_rules

    order = vekn_rules.ritual_order(finalists)
    final.refresh_from_db()
    event_services.place_final_card(final, order[0], 0)  # the lowest qualifier still starts


def test_penalty_change_from_a_stale_page_is_refused(client, seated, staff):
    from events.errors import ConflictError

    event, rnd = seated
    p = log(event, rnd.seats.first().registration, "3.8").penalty
    stale = services.state_token(p)
    services.change_level(p, "standings_adjustment", "first head judge", expected=stale, perms=HEAD)
    with pytest.raises(ConflictError):
        services.change_level(
            p, "disqualification", "second, from an old page", expected=stale, perms=HEAD
        )
    p.refresh_from_db()
    assert p.level == "standings_adjustment"
    # Through the page: the form carries the state it was loaded with.
    client.force_login(staff["head_judge"])
    url = reverse("manage:penalty", kwargs={"slug": event.slug, "pk": p.pk})
    response = client.post(url, {"action": "void", "reason": "x", "state": stale}, follow=True)
    assert "changed this penalty" in response.content.decode()
    p.refresh_from_db()
    assert p.status == "confirmed"
    # A change of level from the stale page is refused too (it used to overwrite).
    response = client.post(
        url,
        {"action": "change", "level": "warning", "reason": "from an old page", "state": stale},
        follow=True,
    )
    assert "changed this penalty" in response.content.decode()
    p.refresh_from_db()
    assert p.level == "standings_adjustment"


def test_final_cannot_start_once_results_are_approved(played_event):
    event = played_event
    services.set_results_approved(event, True)
    event.refresh_from_db()
    with pytest.raises(UserError, match="approved"):
        event_services.start_final(event)
