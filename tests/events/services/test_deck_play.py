"""Multi-deck events (VEKN TR §3.1.5, §3.1.5a; docs/decks.md "Multi-deck events"): the
setting and its refusals, players' named decks, the deck played each round (the player
before the seating is published, a judge after, audited), the round without a choice,
the final's best-performing deck with its reason and its recorded draw, the free choice,
and the winner's TWD entry and the event file using the deck played in the final."""

import random
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from events import deck_play, deck_selection, deck_services, services
from events.audit import entries_about
from events.errors import UserError
from events.forms import EventSettingsForm
from events.interchange import export_event
from events.models import AuditLog, DeckPlay, Event, MultiDeck
from events.permissions import ROLE_PERMISSIONS, Role
from standings import vekn
from standings.services import event_standings
from tests.factories import PersonFactory, RegistrationFactory, UserFactory

LEGAL = (
    "12\tDeflection\n20\tBlood Doll\n28\tBum's Rush\n"
    "Crypt:\n4\tTheo Bell\n4\tGratiano\n4\tLucinde, Alastor\n"
)
OTHER = LEGAL.replace("Deflection", "Govern the Unaligned")
JUDGE = ROLE_PERMISSIONS[Role.JUDGE]


def _settings(event, **changes):
    data = {
        f: getattr(event, f)
        for f in EventSettingsForm.Meta.fields
        if f not in ("sets", "decklist_deadline", "best_of", "tie_breaker_order", "top_cut")
    }
    data.update(changes)
    data = {k: ("on" if v is True else "" if v in (False, None) else v) for k, v in data.items()}
    return EventSettingsForm(data, instance=event)


def _player(event, name="ana"):
    user = UserFactory(username=name)
    reg = RegistrationFactory(event=event, person=PersonFactory(user=user, name=name.title()))
    return user, reg


@pytest.fixture
def multi(event):
    event.multideck = MultiDeck.BEST
    event.save()
    return event


# ---------------------------------------------------------------- the setting


def test_an_organiser_announces_multi_deck_in_the_settings(event):
    form = _settings(event, multideck="best")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["multideck"] == "best"


@pytest.mark.parametrize("level", ["national", "continental"])
def test_championships_refuse_multi_deck_with_a_form_error(event, level):
    form = _settings(event, multideck="free", championship=level)
    assert not form.is_valid()
    assert "may not use the multi-deck system (TR §3.1.5)" in form.errors["multideck"][0]
    # An event already multi-deck cannot become a championship either.
    event.refresh_from_db()
    event.multideck = MultiDeck.FREE
    event.save()
    form = _settings(event, championship=level)
    assert not form.is_valid() and "multideck" in form.errors


def test_the_method_is_fixed_once_a_round_is_seated(multi):
    for _ in range(8):
        RegistrationFactory(event=multi, status="checked_in")
    services.seat_next_round(multi, seed=1)
    form = _settings(multi, multideck="free")
    assert not form.is_valid()
    assert "before the first round begins (TR §3.1.5a)" in form.errors["multideck"][0]
    assert _settings(multi, multideck="best").is_valid()  # unchanged is fine


def test_multi_deck_cannot_be_switched_off_once_named_decks_exist(multi):
    user, reg = _player(multi)
    assert _settings(multi, multideck="").is_valid()
    multi.refresh_from_db()  # a valid ModelForm wrote its values on the instance
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    form = _settings(multi, multideck="")
    assert not form.is_valid() and "can no longer be switched off" in form.errors["multideck"][0]


# ---------------------------------------------------------------- the round's deck


def test_a_player_registers_two_decks_and_picks_one_for_the_next_round(multi):
    user, reg = _player(multi)
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    deck_services.submit_own(reg, OTHER, user, label="Ventrue")
    assert [d.label for d in deck_play.decks_of(reg)] == ["Toreador", "Ventrue"]
    assert deck_play.open_round(multi) == (1, None)
    play = deck_play.choose_own(reg, "Ventrue", user)
    assert (play.round_number, play.deck.label, play.reason) == (1, "Ventrue", "")
    play = deck_play.choose_own(reg, "Toreador", user)  # changed: still one row
    assert DeckPlay.objects.filter(registration=reg).count() == 1
    entry = entries_about(play).order_by("-id").first()
    assert entry.action == "deck.play_chosen"
    assert entry.before["deck"] == "Ventrue" and entry.after == {"deck": "Toreador", "round": 1}


def test_an_unknown_deck_or_someone_elses_registration_is_refused(multi):
    user, reg = _player(multi)
    other, _reg = _player(multi, "bea")
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    with pytest.raises(UserError, match="No registered deck is called “Ventrue”"):
        deck_play.choose_own(reg, "Ventrue", user)
    with pytest.raises(PermissionDenied):
        deck_play.choose_own(reg, "Toreador", other)


def test_an_ordinary_event_has_no_round_deck(event):
    user, reg = _player(event)
    deck_services.submit_own(reg, LEGAL, user)
    with pytest.raises(UserError, match="not a multi-deck event"):
        deck_play.choose_own(reg, "", user)


def test_the_choice_closes_when_the_seating_is_published_then_a_judge_sets_it(multi, staff):
    user, reg = _player(multi)
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    deck_services.submit_own(reg, OTHER, user, label="Ventrue")
    for _ in range(7):
        RegistrationFactory(event=multi, status="checked_in")
    reg.status = "checked_in"
    reg.save()
    rnd = services.seat_next_round(multi, seed=1)
    assert deck_play.open_round(multi) == (1, rnd)  # seated, not published: still open
    deck_play.choose_own(reg, "Toreador", user)
    services.set_seating_published(rnd, True)
    assert deck_play.open_round(multi) == (2, None)  # the next round's choice opens
    play = deck_play.choose_own(reg, "Ventrue", user)
    assert play.round_number == 2
    # Round 1 is fixed for the player; a judge changes it with a reason.
    with pytest.raises(UserError, match="say why"):
        deck_play.set_for_player(reg, 1, "Ventrue", staff["judge"], JUDGE)
    with pytest.raises(PermissionDenied):
        deck_play.set_for_player(
            reg, 1, "Ventrue", staff["scorekeeper"], ROLE_PERMISSIONS[Role.SCOREKEEPER]
        )
    play = deck_play.set_for_player(
        reg, 1, "Ventrue", staff["judge"], JUDGE, reason="played Ventrue, forgot to say"
    )
    entry = entries_about(play).order_by("-id").first()
    assert entry.action == "deck.play_set" and entry.comment == "played Ventrue, forgot to say"
    assert entry.before["deck"] == "Toreador" and entry.actor == staff["judge"]
    with pytest.raises(UserError, match="not open yet"):
        deck_play.set_for_player(reg, 3, "Ventrue", staff["judge"], JUDGE)


# ---------------------------------------------------------------- the final (TR §3.1.5a)


def _sheet(size, index, vp, rng):
    """A legal sheet of ``size`` seats giving ``vp`` to seat ``index`` and less to everyone
    else (a Game Win when ``vp`` >= 2)."""
    sheets = [
        s
        for s in sorted(vekn.legal_sheets(size))
        if s[index] == vp and max(s[:index] + s[index + 1 :]) < vp
    ]
    return list(rng.choice(sheets))


def _play(rnd, star, vp, rng):
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        ids = [s.registration_id for s in seats]
        if star.id in ids:
            sheet = _sheet(len(seats), ids.index(star.id), Decimal(vp), rng)
        else:
            sheet = list(rng.choice(sorted(vekn.legal_sheets(len(seats)))))
        services.save_results(table, sheet, version=table.version)


def _event_to_final(event, star_user, star, plan):
    """Play ``event``'s preliminary rounds: ``plan`` is one (deck label or None, VP of the
    star) per round; then toss if needed and start the final."""
    rng = random.Random(7)
    event.preliminary_rounds = len(plan)
    event.save()
    for label, vp in plan:
        if label is not None:
            deck_play.choose_own(star, label, star_user)
        rnd = services.seat_next_round(event, seed=rng.randrange(1000))
        services.set_seating_published(rnd, True)
        _play(rnd, star, vp, rng)
    result = event_standings(event)
    if result.standings.toss_required:
        services.record_toss(event, [r.player for r in result.standings.rows])
    return event_standings(event)


@pytest.fixture
def star(multi):
    user, reg = _player(multi, "star")
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    deck_services.submit_own(reg, OTHER, user, label="Ventrue")
    for _ in range(11):
        RegistrationFactory(event=multi, status="checked_in")
    reg.status = "checked_in"
    reg.save()
    return user, reg


def test_the_final_shows_then_records_the_best_performing_deck_and_why(multi, star, staff):
    user, reg = star
    result = _event_to_final(multi, user, reg, [("Toreador", 3), ("Ventrue", 4), ("Toreador", 2)])
    assert reg.id in result.standings.finalists
    # Before the final starts, the page shows the deck computed now.
    (row,) = [
        r
        for r in deck_play.final_decks(multi, result, result.standings.finalists)
        if r.registration_id == reg.id
    ]
    assert row.deck.label == "Ventrue" and row.pending
    assert row.choice.reason == deck_selection.BY_VP and row.choice.round_number == 2
    assert "round 2: 1 GW, 4 VP, 60 TP" in row.explanation
    assert "ahead of Toreador on Victory Points" in row.explanation
    final = services.start_final(multi, staff["head_judge"])
    created = deck_play.settle_final(multi, event_standings(multi), staff["head_judge"])
    play = DeckPlay.objects.get(registration=reg, round_number=final.number)
    assert play in created and play.deck.label == "Ventrue" and play.reason == "vp"
    assert play.choice["seed"] is None  # no draw was needed
    assert AuditLog.objects.filter(action="deck.final_best", target_id=play.pk).exists()
    # Idempotent: settling again changes nothing.
    assert deck_play.settle_final(multi, event_standings(multi)) == []
    # The player's page reads it back, with the reason.
    assert "round 2: 1 GW, 4 VP, 60 TP" in deck_play.explain(deck_play.final_deck_of(multi, reg))
    # Other finalists with no deck at all are left for a judge.
    rows = deck_play.final_decks(multi, event_standings(multi), final.finalists, final)
    assert any("a judge sets the final's deck" in r.explanation for r in rows if r.deck is None)
    # A judge overrides the best-performing deck only with a reason, shown as theirs.
    with pytest.raises(UserError, match="say why"):
        deck_play.set_for_player(reg, final.number, "Toreador", staff["judge"], JUDGE)
    deck_play.set_for_player(
        reg, final.number, "Toreador", staff["judge"], JUDGE, reason="head judge's ruling"
    )
    rows = deck_play.final_decks(multi, event_standings(multi), final.finalists, final)
    (row,) = [r for r in rows if r.registration_id == reg.id]
    assert row.deck.label == "Toreador" and row.explanation == "Set by a judge."


def test_a_tie_is_drawn_once_with_a_recorded_seed_that_replays(multi, star, staff):
    user, reg = star
    result = _event_to_final(multi, user, reg, [("Toreador", 3), ("Ventrue", 3)])
    (row,) = [
        r
        for r in deck_play.final_decks(multi, result, result.standings.finalists)
        if r.registration_id == reg.id
    ]
    assert row.deck is None and "drawn at random when the final starts" in row.explanation
    final = services.start_final(multi)
    deck_play.settle_final(multi, event_standings(multi))
    play = DeckPlay.objects.get(registration=reg, round_number=final.number)
    assert play.reason == "draw" and play.choice["tied_labels"] == ["Toreador", "Ventrue"]
    seed = play.choice["seed"]
    assert isinstance(seed, int) and seed >= 0
    replay = deck_selection.best_performing_deck(
        [
            deck_selection.RoundScore(1, "Toreador", 1, Decimal(3), 60),
            deck_selection.RoundScore(2, "Ventrue", 1, Decimal(3), 60),
        ],
        seed=seed,
    )
    assert replay.deck_label == play.deck.label
    assert f"seed {seed}" in deck_play.explain(play)


def test_a_round_without_a_choice_keeps_the_previous_rounds_deck(multi, star):
    user, reg = star
    # Round 1 Toreador (2 VP), round 2 not chosen: still Toreador (4 VP), round 3 Ventrue.
    result = _event_to_final(multi, user, reg, [("Toreador", 2), (None, 4), ("Ventrue", 3)])
    (row,) = [
        r
        for r in deck_play.final_decks(multi, result, result.standings.finalists)
        if r.registration_id == reg.id
    ]
    assert row.deck.label == "Toreador" and row.choice.round_number == 2


def test_free_choice_lets_the_finalist_pick_their_final_deck(multi, star, staff):
    multi.multideck = MultiDeck.FREE
    multi.save()
    user, reg = star
    result = _event_to_final(multi, user, reg, [("Toreador", 3), ("Ventrue", 4)])
    final = services.start_final(multi)
    assert deck_play.settle_final(multi, event_standings(multi)) == []
    assert deck_play.open_round(multi)[0] == final.number
    deck_play.choose_own(reg, "Toreador", user)
    rows = deck_play.final_decks(multi, event_standings(multi), final.finalists, final)
    (row,) = [r for r in rows if r.registration_id == reg.id]
    assert row.deck.label == "Toreador" and not row.pending
    other = next(f for f in final.finalists if f != reg.id)
    assert next(r for r in rows if r.registration_id == other).pending
    del result


def test_the_winners_twd_entry_and_the_event_file_use_the_deck_played_in_the_final(
    multi, star, staff
):
    user, reg = star
    _event_to_final(multi, user, reg, [("Toreador", 3), ("Ventrue", 4)])
    final = services.start_final(multi)
    deck_play.settle_final(multi, event_standings(multi))
    # The final: the star wins with 5 VP ... seated by the ritual first.
    for reg_id in vekn.ritual_order(list(final.finalists)):
        services.place_final_card(final, reg_id, 0)
    final.refresh_from_db()
    table = final.tables.get()
    ids = [s.registration_id for s in table.seats.order_by("position")]
    sheet = _sheet(
        len(ids), ids.index(reg.id), Decimal(4 if len(ids) == 4 else 5), random.Random(1)
    )
    services.save_results(table, sheet, version=table.version)
    Event.objects.filter(pk=multi.pk).update(results_approved=True)
    multi.refresh_from_db()
    out = StringIO()
    call_command("export_event", multi.slug, "--twd", stdout=out)
    text = out.getvalue()
    assert "Star" in text and "Govern the Unaligned" in text  # Ventrue, not Toreador
    assert "Deflection" not in text
    doc = export_event(multi)
    mine = next(p for p in doc["players"] if p["name"] == "Star")
    assert mine["deck"] == OTHER.strip()
