"""Mitos y Leyendas conduct rules through the services (penalties.myl_services): logging
with the rules' proposal, repeats across events, effects (game loss round, DQ,
suspension, ban), voids, appeals and aggression reports (docs/rules-myl-penalties.md)."""

import datetime as dt
import uuid

import pytest

from events import services as event_services
from events.errors import ConflictError, UserError
from events.models import AuditLog, Registration, Round, Seat, Table
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import myl_reports
from penalties import myl_services as services
from penalties import services as vekn_services
from penalties.models import AggressionReport, Penalty, Sanction
from tests.factories import EventFactory, PersonFactory, RegistrationFactory, UserFactory

JUDGE = ROLE_PERMISSIONS[Role.JUDGE]
HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]


def myl_event(slug="myl-cup", date=dt.date(2026, 9, 17), **kw):
    return EventFactory(slug=slug, ruleset="myl", round_minutes=50, date=date, **kw)


def op_manager():
    """A national Organised Play manager (MyL conduct rules §4.5), staff of no event."""
    from events.models import AuthorityRole

    user = UserFactory()
    AuthorityRole.objects.create(user=user, ruleset="myl")
    return user


def seat_round(event, regs, number, bye=None, results=None):
    """Round ``number`` pairing ``regs`` two by two (``bye``: a registration alone)."""
    rnd = Round.objects.create(event=event, number=number, seating_published=True)
    for i in range(0, len(regs), 2):
        table = Table.objects.create(round=rnd, number=i // 2 + 1)
        for pos, reg in enumerate(regs[i : i + 2], start=1):
            won = results[i + pos - 1] if results else None
            Seat.objects.create(
                table=table, round=rnd, registration=reg, position=pos, games_won=won
            )
    if bye is not None:
        table = Table.objects.create(round=rnd, number=len(regs) // 2 + 1, is_bye=True)
        Seat.objects.create(table=table, round=rnd, registration=bye, position=1, games_won=2)
    return rnd


@pytest.fixture
def myl(db):
    event = myl_event()
    regs = [RegistrationFactory(event=event) for _ in range(4)]
    rnd = seat_round(event, regs, 1)
    return event, regs, rnd


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


def test_first_instance_is_the_rules_warning_with_explanation(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "2.1").penalty
    assert (p.ruleset, p.level, p.guide_level, p.offence) == ("myl", "warning", "warning", 1)
    assert p.status == "confirmed" and p.source.startswith("MyL conduct §2.1")
    assert "offence 1" in p.explanation
    assert AuditLog.objects.filter(action="penalty.log").count() == 1


def test_repeat_in_event_gives_game_loss_on_the_current_match(myl):
    event, regs, rnd = myl
    log(event, regs[0], "2.1")
    p = log(event, regs[0], "2.1").penalty
    assert (p.level, p.offence) == ("game_loss", 2)
    assert p.round_id == rnd.pk and p.round_number == 1
    assert p.table.seats.filter(registration=regs[0]).exists()


def test_game_loss_between_rounds_or_on_a_bye_has_no_round(db):
    event = myl_event()
    regs = [RegistrationFactory(event=event) for _ in range(3)]
    seat_round(event, regs[:2], 1, bye=regs[2])
    log(event, regs[2], "3.2.2")
    bye_loss = log(event, regs[2], "3.2.2").penalty
    assert bye_loss.level == "game_loss" and bye_loss.round_id is None
    log(event, regs[0], "3.2.2")
    between = log(event, regs[0], "3.2.2", timing="between_rounds").penalty
    assert between.level == "game_loss" and between.round_id is None
    assert between.round_number == 2 and between.timing == "between_rounds"
    assert bye_loss.round_number == 1 and bye_loss.timing == "between_rounds"


def test_earlier_events_count_towards_a_repeat_but_not_vekn_ones(db):
    person = PersonFactory()
    old = myl_event(slug="old", date=dt.date(2026, 5, 1))
    old_reg = RegistrationFactory(event=old, person=person)
    log(old, old_reg, "3.2.2")
    vekn = EventFactory(slug="vekn-old", date=dt.date(2026, 6, 1))
    vekn_reg = RegistrationFactory(event=vekn, person=person)
    vekn_services.log_penalty(
        vekn,
        vekn_reg,
        "2.1",
        {"advantage": False},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    )
    event = myl_event()
    reg = RegistrationFactory(event=event, person=person)
    p = log(event, reg, "3.2.2").penalty
    assert (p.level, p.offence) == ("game_loss", 2)
    assert "in earlier events" in " ".join(p.context)
    # A VEKN 2.1 (or any VEKN penalty) never counts as a MyL repeat.
    assert log(event, reg, "2.1").penalty.offence == 1
    # A later event is not counted from an earlier one.
    assert [e.event.slug for e in services.earlier_events(event, person)] == ["old"]


def test_idempotent_by_client_id(myl):
    event, regs, _ = myl
    cid = uuid.uuid4()
    first = log(event, regs[0], "2.1", client_id=cid)
    second = log(event, regs[0], "2.1", client_id=cid)
    assert first.created and not second.created and first.penalty.pk == second.penalty.pk
    assert Penalty.objects.count() == 1
    other = myl_event(slug="other")
    with pytest.raises(UserError):
        log(other, RegistrationFactory(event=other), "2.1", client_id=cid)


def test_missing_condition_and_unknown_code_are_user_errors(myl):
    event, regs, _ = myl
    with pytest.raises(UserError, match="grave"):
        log(event, regs[0], "3.1.1", {})
    with pytest.raises(UserError):
        log(event, regs[0], "9.9")
    with pytest.raises(UserError):
        log(event, regs[0], "2.1", timing="whenever")
    vekn = EventFactory(slug="plain-vekn")
    with pytest.raises(UserError):
        log(vekn, RegistrationFactory(event=vekn), "2.1")


def test_deviation_needs_reason_and_is_stored(myl):
    event, regs, _ = myl
    with pytest.raises(UserError, match="differs"):
        log(event, regs[0], "2.1", level="game_loss")
    with pytest.raises(UserError):
        log(event, regs[0], "2.1", level="nonsense", deviation_reason="x")
    p = log(event, regs[0], "2.1", level="game_loss", deviation_reason="Second time today").penalty
    assert (p.guide_level, p.level, p.deviation_reason) == (
        "warning",
        "game_loss",
        "Second time today",
    )
    # Giving the rules' level with a stray reason stores no deviation.
    q = log(event, regs[1], "2.1", level="warning", deviation_reason="noise").penalty
    assert q.deviation_reason == ""


def test_disqualification_effect_and_void_restores(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "3.3.4").penalty
    assert p.level == "disqualification" and p.status == "confirmed"
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.DISQUALIFIED
    vekn_services.void(p, "Wrong player", None, perms=HEAD)  # the VEKN entry point hands over
    regs[0].refresh_from_db()
    p.refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN and p.status == "voided"


def test_floor_judge_dq_stays_pending_until_head_judge(myl):
    event, regs, _ = myl
    head = UserFactory()
    p = log(event, regs[0], "3.3.4", perms=JUDGE).penalty
    assert p.status == "pending"
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN
    vekn_services.confirm(p, head, perms=HEAD)
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.DISQUALIFIED
    # A floor judge's warning counts at once.
    assert log(event, regs[1], "2.1", perms=JUDGE).penalty.status == "confirmed"


def test_permanent_ban_with_disqualification(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "3.1.5").penalty
    assert p.level == "permanent_ban" and p.also == ["disqualification"]
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.DISQUALIFIED
    ban = Sanction.objects.get(penalty=p)
    assert ban.kind == "permanent_ban" and ban.ends_on is None
    assert ban.starts_on == services.penalty_day(p)
    # A later Mitos y Leyendas event of the same organisation: blocked at once.
    later = myl_event(slug="later-event", date=dt.date(2027, 1, 1), organisation=event.organisation)
    with pytest.raises(UserError):
        event_services.register(later, regs[0].person)


def test_suspension_needs_dates_and_blocks_registration(myl):
    event, regs, _ = myl
    with pytest.raises(UserError, match="first and last day"):
        log(event, regs[0], "3.1.1", {"grave": True})
    with pytest.raises(UserError, match="before"):
        log(
            event,
            regs[0],
            "3.1.1",
            {"grave": True},
            starts_on="2026-10-01",
            ends_on="2026-09-01",
        )
    with pytest.raises(UserError, match="YYYY"):
        log(event, regs[0], "3.1.1", {"grave": True}, starts_on="soon", ends_on="later")
    assert not Penalty.objects.exists()
    p = log(
        event,
        regs[0],
        "3.1.1",
        {"grave": True},
        starts_on="2026-09-18",
        ends_on="2026-12-31",
    ).penalty
    assert p.level == "suspension" and "disqualification" in p.also
    s = Sanction.objects.get(penalty=p)
    assert (s.starts_on, s.ends_on) == (dt.date(2026, 9, 18), dt.date(2026, 12, 31))
    during = myl_event(slug="during", date=dt.date(2026, 11, 1), organisation=event.organisation)
    with pytest.raises(UserError):
        event_services.register(during, regs[0].person)
    after = myl_event(slug="after", date=dt.date(2027, 1, 1), organisation=event.organisation)
    event_services.register(after, regs[0].person)


def test_pending_suspension_gets_dates_when_confirmed(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "3.1.1", {"grave": True}, perms=JUDGE).penalty
    assert p.status == "pending" and not Sanction.objects.exists()
    with pytest.raises(UserError):
        services.confirm(p, None, perms=HEAD)
    p.refresh_from_db()
    assert p.status == "pending"
    services.confirm(p, None, starts_on="2026-09-18", ends_on="2026-10-18", perms=HEAD)
    assert Sanction.objects.get(penalty=p).ends_on == dt.date(2026, 10, 18)


def test_void_lifts_sanction_and_reassesses(myl):
    event, regs, _ = myl
    first = log(event, regs[0], "3.1.3").penalty
    second = log(event, regs[0], "3.1.3", starts_on="2026-09-18", ends_on="2027-03-01").penalty
    assert second.level == "suspension"
    services.void(first, "Logged on the wrong person", None, perms=HEAD)
    second.refresh_from_db()
    assert (second.offence, second.level) == (1, "warning")
    s = Sanction.objects.get(penalty=second)
    assert s.lifted_at is not None and s.lift_reason == "Logged on the wrong person"
    assert AuditLog.objects.filter(action="sanction.lift").exists()
    assert AuditLog.objects.filter(action="penalty.reassess").exists()


def test_change_level_moves_effects(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "2.1").penalty
    token = vekn_services.state_token(p)
    services.change_level(
        p, "disqualification", "Insulted the judge too", None, expected=token, perms=HEAD
    )
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.DISQUALIFIED
    with pytest.raises(ConflictError):
        services.change_level(p, "warning", "", None, expected=token, perms=HEAD)
    services.change_level(
        p,
        "suspension",
        "Serious",
        None,
        with_dq=False,
        starts_on="2026-09-20",
        ends_on="2026-10-20",
        perms=HEAD,
    )
    regs[0].refresh_from_db()
    p.refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN and p.also == []
    assert Sanction.objects.filter(penalty=p, lifted_at__isnull=True).count() == 1
    services.change_level(p, "warning", "", None, perms=HEAD)
    p.refresh_from_db()
    assert p.level == "warning" and p.deviation_reason == ""
    assert not Sanction.objects.filter(penalty=p, lifted_at__isnull=True).exists()
    with pytest.raises(UserError):
        services.change_level(p, "caution", "x", None, perms=HEAD)


def test_results_approved_refuses_changes_but_not_appeals(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "3.3.4").penalty
    vekn_services.set_results_approved(event, True)
    with pytest.raises(UserError, match="approved"):
        log(event, regs[1], "2.1")
    with pytest.raises(UserError, match="approved"):
        services.void(p, "x", None, perms=HEAD)
    player = UserFactory()
    regs[0].person.user = player
    regs[0].person.save()
    appeal = services.submit_written_appeal(p, "I did not know", player, on=dt.date(2026, 9, 18))
    services.decide_written_appeal(appeal, "reverted", "The cards were genuine", op_manager())
    p.refresh_from_db()
    regs[0].refresh_from_db()
    assert p.status == "voided" and "genuine" in p.void_reason
    assert regs[0].status == Registration.Status.CHECKED_IN


def test_in_event_appeal_confirm_and_revert(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "3.3.4").penalty
    with pytest.raises(UserError):
        services.record_in_event_appeal(p, "", "confirmed", "ok")
    with pytest.raises(UserError):
        services.record_in_event_appeal(p, "Statement", "maybe", "ok")
    with pytest.raises(UserError):
        services.record_in_event_appeal(p, "Statement", "confirmed", "")
    a = services.record_in_event_appeal(p, "They are real", "confirmed", "Checked them")
    assert a.kind == "in_event" and a.decision == "confirmed" and a.decided_at
    with pytest.raises(UserError, match="already"):
        services.record_in_event_appeal(p, "Again", "reverted", "No")
    q = log(event, regs[1], "3.3.4").penalty
    services.record_in_event_appeal(q, "Borrowed deck", "reverted", "Owner confirmed")
    q.refresh_from_db()
    regs[1].refresh_from_db()
    assert q.status == "voided" and regs[1].status == Registration.Status.CHECKED_IN
    assert AuditLog.objects.filter(action="appeal.in_event").count() == 2


def test_written_appeal_deadline_skips_chilean_holiday(myl):
    event, regs, _ = myl
    player = UserFactory()
    regs[0].person.user = player
    regs[0].person.save()
    p = log(event, regs[0], "3.2.2").penalty
    Penalty.objects.filter(pk=p.pk).update(
        created_at=dt.datetime(2026, 9, 17, 15, 0, tzinfo=dt.UTC)
    )
    p.refresh_from_db()
    # Thursday 17 Sep 2026 → 18 Sep (holiday), 19 Sep (Saturday)… → Friday 25 Sep.
    assert services.appeal_window(p).deadline == dt.date(2026, 9, 25)
    with pytest.raises(UserError, match="2026-09-25"):
        services.submit_written_appeal(p, "Late", player, on=dt.date(2026, 9, 26))
    stranger = UserFactory()
    with pytest.raises(UserError, match="penalised player"):
        services.submit_written_appeal(p, "Me", stranger, on=dt.date(2026, 9, 18))
    with pytest.raises(UserError):
        services.submit_written_appeal(p, "  ", player, on=dt.date(2026, 9, 18))
    a = services.submit_written_appeal(p, "I was thinking", player, on=dt.date(2026, 9, 25))
    assert a.deadline == dt.date(2026, 9, 25) and a.decision == ""
    with pytest.raises(UserError, match="already"):
        services.submit_written_appeal(p, "Again", player, on=dt.date(2026, 9, 25))
    services.decide_written_appeal(a, "confirmed", "Stalling was clear", op_manager())
    with pytest.raises(UserError, match="already decided"):
        services.decide_written_appeal(a, "reverted", "x", op_manager())
    p.refresh_from_db()
    assert p.status == "confirmed"


def test_holiday_country_setting(myl, settings):
    event, regs, _ = myl
    p = log(event, regs[0], "2.1").penalty
    Penalty.objects.filter(pk=p.pk).update(
        created_at=dt.datetime(2026, 9, 17, 15, 0, tzinfo=dt.UTC)
    )
    p.refresh_from_db()
    settings.APPEALS_HOLIDAY_COUNTRY = "none"
    assert services.appeal_window(p).deadline == dt.date(2026, 9, 24)
    settings.APPEALS_HOLIDAY_COUNTRY = "CL"
    assert services.appeal_window(p).deadline == dt.date(2026, 9, 25)


def test_reverted_game_loss_leaves_the_standings_inputs(myl):
    """Standings read confirmed, non-voided, non-linked game losses per (registration,
    round): a revert on appeal is enough to take it out."""
    event, regs, rnd = myl
    log(event, regs[0], "3.2.2")
    gl = log(event, regs[0], "3.2.2").penalty

    def game_losses():
        return set(
            Penalty.objects.filter(
                event=event, level="game_loss", status="confirmed", is_linked=False
            ).values_list("registration_id", "round__number")
        )

    assert game_losses() == {(regs[0].pk, 1)}
    services.record_in_event_appeal(gl, "Slow hand", "reverted", "Not stalling")
    assert game_losses() == set()


def test_aggression_report(myl):
    event, regs, _ = myl
    p = log(event, regs[0], "3.1.2", {"grave": False}).penalty
    with pytest.raises(UserError):
        myl_reports.write_aggression_report(p, kind="loud", description="x")
    with pytest.raises(UserError):
        myl_reports.write_aggression_report(p, kind="verbal", description=" ")
    with pytest.raises(UserError, match="authorities"):
        myl_reports.write_aggression_report(
            p, kind="verbal", description="Shouted", authorities_called=True
        )
    r = myl_reports.write_aggression_report(
        p, kind="both", description="Pushed", witnesses="Ana, Beto", actor=None
    )
    assert r.kind == "both" and AggressionReport.objects.count() == 1
    myl_reports.write_aggression_report(p, kind="physical", description="Pushed hard")
    assert AggressionReport.objects.get().kind == "physical"
    other = log(event, regs[1], "2.1").penalty
    with pytest.raises(UserError):
        myl_reports.write_aggression_report(other, kind="verbal", description="x")


def test_penalties_document_lists_myl_levels(myl):
    event, regs, _ = myl
    log(event, regs[0], "2.1")
    log(event, regs[0], "2.1")
    log(event, regs[1], "3.1.5")
    rows = vekn_services.penalties_document(event, {})
    assert [r["level"] for r in rows] == ["warning", "game_loss", "permanent_ban"]
    assert all(r["vp_adjustment"] is None for r in rows)


def test_vekn_void_still_uses_vekn_rules(event):
    """The hand-over to MyL changes nothing for VEKN penalties."""
    reg = RegistrationFactory(event=event)
    p = vekn_services.log_penalty(
        event, reg, "4.7", {}, client_id=uuid.uuid4(), perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    ).penalty
    vekn_services.void(p, "mistake", None, perms=HEAD)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    assert not Sanction.objects.exists()


# --------------------------------------------------------------------------- event files
def _myl_file(incidents):
    return {
        "format": "arbitro.event/1",
        "ruleset": "myl",
        "slug": "myl-file",
        "name": "MyL file",
        "date": "2026-09-17",
        "players": [{"id": f"p{n}", "name": f"Player {n}"} for n in range(1, 5)],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    [{"player": "p1", "games_won": 2}, {"player": "p2", "games_won": 1}],
                    [{"player": "p3", "games_won": 0}, {"player": "p4", "games_won": 2}],
                ],
            }
        ],
        "incidents": incidents,
    }


def test_event_file_incidents_are_checked_with_the_myl_rules(db):
    from events.interchange import EventFileError, validate_event_file

    bad = [
        {"id": "i1", "person": "p1", "infraction": "4.7", "round": 1},
        {"id": "i2", "person": "p1", "infraction": "3.1.1", "round": 1},
        {"id": "i3", "person": "p2", "infraction": "2.1", "round": 1, "level": "caution"},
        {"id": "i4", "person": "p2", "infraction": "2.1", "round": 1, "linked_to": "i3"},
    ]
    with pytest.raises(EventFileError) as err:
        validate_event_file(_myl_file(bad))
    text = "\n".join(err.value.problems)
    assert "incident i1: unknown infraction '4.7'" in text
    assert "incident i2" in text and "grave" in text
    assert "incident i3: level must be null or one of warning" in text
    assert "incident i4: linked incidents are VEKN only" in text


def test_event_file_incidents_import_and_export(db):
    from events.interchange import export_event, import_event

    incidents = [
        {"id": "i1", "person": "p1", "infraction": "3.2.2", "round": 1},
        {"id": "i2", "person": "p1", "infraction": "3.2.2", "round": 1},
        {"id": "i3", "person": "p3", "infraction": "3.1.5", "round": 1},
        {
            "id": "i4",
            "person": "p4",
            "infraction": "2.1",
            "round": 1,
            "level": "game_loss",
            "reason": "Mocked the opponent",
        },
    ]
    event = import_event(_myl_file(incidents))
    got = {
        p.external_id: (p.level, p.offence, p.round_number, p.status)
        for p in Penalty.objects.filter(event=event)
    }
    assert got == {
        "i1": ("warning", 1, 1, "confirmed"),
        "i2": ("game_loss", 2, 1, "confirmed"),
        "i3": ("permanent_ban", 1, 1, "confirmed"),
        "i4": ("game_loss", 1, 1, "confirmed"),
    }
    assert event.registrations.get(code="p3").status == Registration.Status.DISQUALIFIED
    assert Sanction.objects.get(penalty__external_id="i3").kind == "permanent_ban"
    doc = export_event(event)
    levels = {i["id"]: (i["level"], i["reason"]) for i in doc["incidents"]}
    assert levels == {
        "i1": (None, None),
        "i2": (None, None),
        "i3": (None, None),
        "i4": ("game_loss", "Mocked the opponent"),
    }


def test_a_myl_penalty_names_its_infraction_in_both_languages():
    from django.utils import translation

    from penalties.models import Penalty
    from penalties.myl_rules import MYL_V1

    p = Penalty(ruleset="myl", infraction="2.1")
    inf = MYL_V1.catalogue["2.1"]
    with translation.override("en"):
        assert p.infraction_name == inf.name
    with translation.override("es"):
        assert p.infraction_name == inf.title_es
    assert Penalty(ruleset="myl", infraction="9.9").infraction_name == ""


def test_a_myl_warning_is_named_in_the_conduct_rules_terms():
    """Conduct rules §4.1: "Advertencia" (our MyL warning); the VEKN guide's warning is
    "Amonestación". Lists and detail pages read the level from the penalty's ruleset."""
    from django.utils import translation

    from penalties.models import Penalty

    myl, vekn = Penalty(ruleset="myl", level="warning"), Penalty(ruleset="vekn", level="warning")
    with translation.override("es"):
        assert myl.get_level_display() == "Advertencia"
        assert vekn.get_level_display() == "Amonestación"
    assert myl.get_level_display() == vekn.get_level_display() == "Warning"


def test_appeal_decisions_tell_the_penalised_player(myl, django_capture_on_commit_callbacks):
    """A penalty or appeal decision concerning you (docs/notifications.md): the head
    judge's confirmation on appeal, then a written appeal's revert, one notice each."""
    from django.core import mail

    from events.models import NotificationPreference

    event, regs, _ = myl
    player, other = UserFactory(email="pia@example.org"), UserFactory(email="ot@example.org")
    for reg, user in ((regs[0], player), (regs[1], other)):
        reg.person.user = user
        reg.person.save()
        NotificationPreference.objects.create(user=user, kind="penalty_decision", channel="email")
    p = log(event, regs[0], "3.3.4").penalty
    q = log(event, regs[1], "3.3.4").penalty
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        services.record_in_event_appeal(p, "They are real", "confirmed", "Checked them")
    assert [m.subject for m in mail.outbox] == [
        f"{event.name}: a penalty concerning you was confirmed on appeal"
    ]
    appeal = services.submit_written_appeal(q, "I did not", other, on=dt.date(2026, 9, 18))
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        services.decide_written_appeal(appeal, "reverted", "Not so", op_manager())
    assert [m.subject for m in mail.outbox] == [
        f"{event.name}: a penalty concerning you was voided on appeal"
    ]
