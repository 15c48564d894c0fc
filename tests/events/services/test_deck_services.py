"""Registered decklists (docs/decks.md): submitting, the lock (VEKN TR §6.3), a
judge's correction (JG §3.1.1), the audit, the database's invariants, the organiser's
overview in bounded queries, publication, the event file's ``deck`` and ``--twd``."""

import datetime as dt
import random
from io import StringIO

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from events import deck_services, rulesets, services, swiss_services
from events.audit import entries_about
from events.errors import UserError
from events.interchange import EventFileError, export_event, import_event
from events.models import Deck, Event
from events.permissions import ROLE_PERMISSIONS, Role
from tests.events.services.test_interchange import make_file
from tests.events.services.test_swiss_services import make_event as make_myl_event
from tests.events.services.test_swiss_services import play, play_swiss
from tests.factories import EventFactory, PersonFactory, RegistrationFactory, UserFactory

LEGAL = (
    "12\tDeflection\n20\tBlood Doll\n28\tBum's Rush\n"
    "Crypt:\n4\tTheo Bell\n4\tGratiano\n4\tLucinde, Alastor\n"
)
TYPO = LEGAL.replace("Deflection", "Deflecshun")
MYL_LEGAL = (
    "Mazo principal\n"
    + "\n".join(f"3 Carta {i}" for i in range(16))
    + "\n2 Oro\nSide deck\n3 Extra\n"
)


def _player(event, username="ana"):
    user = UserFactory(username=username)
    reg = RegistrationFactory(event=event, person=PersonFactory(user=user))
    return user, reg


@pytest.fixture
def player(event):
    return _player(event)


def test_a_player_registers_a_legal_list(player):
    user, reg = player
    deck = deck_services.submit_own(reg, LEGAL, user)
    assert deck.valid and deck.problems == [] and deck.format == "standard"
    assert deck.submitted_by == user and deck.version == 1
    assert {c["section"] for c in deck.cards} == {"crypt", "library"}
    assert sum(c["count"] for c in deck.cards if c["section"] == "library") == 60
    (entry,) = entries_about(deck)
    assert entry.action == "deck.submitted" and entry.after["valid"] is True


def test_an_invalid_list_is_saved_flagged_with_its_problems(player):
    user, reg = player
    deck = deck_services.submit_own(reg, TYPO, user)
    assert not deck.valid
    codes = [p["code"] for p in deck.problems]
    assert codes == ["unknown_card", "library_too_small"]
    assert "Deflection" in deck.problems[0]["suggestions"]


def test_resubmitting_before_the_lock_replaces_the_list_and_is_audited(player):
    user, reg = player
    deck_services.submit_own(reg, TYPO, user)
    deck = deck_services.submit_own(reg, LEGAL, user)
    assert deck.version == 2 and deck.valid
    assert Deck.objects.filter(registration=reg).count() == 1
    newest = entries_about(deck).order_by("-id").first()
    assert newest.before["valid"] is False and newest.after["valid"] is True


def test_someone_else_cannot_submit_a_players_list(player, event):
    _user, reg = player
    other, _ = _player(event, "bea")
    with pytest.raises(PermissionDenied):
        deck_services.submit_own(reg, LEGAL, other)


def test_an_unreadable_text_is_refused_and_nothing_is_saved(player):
    user, reg = player
    for text in ("", "   ", "hello there\nno cards here"):
        with pytest.raises(UserError):
            deck_services.submit_own(reg, text, user)
    assert not Deck.objects.exists()


def test_the_deadline_locks_the_list_tr_6_3(player, event):
    user, reg = player
    deck_services.submit_own(reg, TYPO, user)
    event.decklist_deadline = timezone.now() - dt.timedelta(minutes=1)
    event.save()
    reg.refresh_from_db()
    assert deck_services.is_locked(event)
    with pytest.raises(UserError, match="locked"):
        deck_services.submit_own(reg, LEGAL, user)
    assert not Deck.objects.get(registration=reg).valid


def test_the_first_round_locks_the_list_when_the_organiser_chose_so(event):
    for _ in range(8):
        RegistrationFactory(event=event)
    assert not deck_services.is_locked(event)
    services.seat_next_round(event, seed=1)
    assert deck_services.is_locked(event)
    event.decklists_lock_at_start = False
    event.save()
    assert not deck_services.is_locked(event)


def test_staff_enter_a_list_before_the_lock_and_judges_correct_it_after(player, event):
    _user, reg = player
    organiser = UserFactory(username="org")
    judge = ROLE_PERMISSIONS[Role.JUDGE]
    scorekeeper = ROLE_PERMISSIONS[Role.SCOREKEEPER]
    deck = deck_services.enter_for_player(reg, TYPO, organiser, scorekeeper)
    assert entries_about(deck).first().action == "deck.entered"
    event.decklist_deadline = timezone.now() - dt.timedelta(hours=1)
    event.save()
    with pytest.raises(PermissionDenied):  # a scorekeeper is no judge
        deck_services.enter_for_player(reg, LEGAL, organiser, scorekeeper, reason="typo")
    with pytest.raises(UserError, match="why"):  # JG §3.1.1: the correction says why
        deck_services.enter_for_player(reg, LEGAL, organiser, judge)
    deck = deck_services.enter_for_player(
        reg, LEGAL, organiser, judge, reason="The card was Deflection, as played."
    )
    assert deck.valid and deck.version == 2
    entry = entries_about(deck).order_by("-id").first()
    assert entry.action == "deck.corrected"
    assert entry.comment == "The card was Deflection, as played."
    assert entry.before["text"] == TYPO.strip() and entry.after["text"] == LEGAL.strip()
    with pytest.raises(PermissionDenied):
        deck_services.enter_for_player(reg, LEGAL, organiser, frozenset())


def test_the_database_refuses_a_valid_deck_with_problems_and_two_decks_of_one_label(player):
    user, reg = player
    deck = deck_services.submit_own(reg, LEGAL, user)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Deck.objects.filter(pk=deck.pk).update(problems=[{"code": "banned"}])
    with transaction.atomic(), pytest.raises(IntegrityError):
        Deck.objects.filter(pk=deck.pk).update(valid=False)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Deck.objects.create(registration=reg, text="x", valid=True, format="standard")
    with transaction.atomic(), pytest.raises(IntegrityError):
        Deck.objects.filter(pk=deck.pk).update(text="")
    # A multi-deck event (TR §3.1.5): another label is another deck of the registration.
    Deck.objects.create(registration=reg, label="B", text="x", valid=True, format="standard")
    assert reg.decks.count() == 2


def test_mitos_y_leyendas_registrations_use_the_presets_limits(db):
    event = EventFactory(ruleset="myl", preset="myl-2026", round_minutes=50)
    user, reg = _player(event)
    assert rulesets.of(event).adapter("decks").limits(event).side_deck_size == 15
    deck = deck_services.submit_own(reg, MYL_LEGAL, user)
    assert deck.valid and deck.format == "mitos"
    assert {c["section"] for c in deck.cards} == {"main", "side"}
    bad = deck_services.submit_own(reg, MYL_LEGAL.replace("3 Carta 0", "4 Carta 0"), user)
    assert [p["code"] for p in bad.problems] == ["main_deck_size", "too_many_copies"]


def test_the_overview_counts_missing_invalid_and_valid_in_bounded_queries(
    event, django_assert_max_num_queries
):
    regs = [RegistrationFactory(event=event) for _ in range(300)]
    Deck.objects.bulk_create(
        [
            Deck(
                registration=r,
                text="x",
                valid=i % 2 == 0,
                problems=[]
                if i % 2 == 0
                else [{"code": "banned", "message": "m", "params": {"name": "X"}}],
                format="standard",
            )
            for i, r in enumerate(regs[:200])
        ]
    )
    with django_assert_max_num_queries(2):
        ov = deck_services.overview(event)
        assert (len(ov.missing), len(ov.invalid), len(ov.valid)) == (100, 100, 100)
        assert ov.invalid[0].problems[0].label == "X is banned (TR §4.1.1)"


@pytest.fixture
def finished(db):
    """An imported VEKN event with a final (the winner is p3) and a list for every
    player; its results approved."""
    doc = make_file()
    for p in doc["players"]:
        p["deck"] = LEGAL
    event = import_event(doc)
    event.results_approved = True
    event.save()
    return event


def test_the_event_file_carries_each_players_deck(finished):
    assert Deck.objects.filter(registration__event=finished, valid=True).count() == 10
    doc = export_event(finished)
    assert all(p["deck"] == LEGAL.strip() for p in doc["players"])


def test_an_unreadable_deck_in_a_file_is_located_and_nothing_is_imported(db):
    doc = make_file(slug="bad-decks")
    doc["players"][1]["deck"] = "nothing to read here"
    doc["players"][2]["deck"] = 12
    with pytest.raises(EventFileError) as err:
        import_event(doc)
    assert any(p.startswith("players[2] (p2): deck: ") for p in err.value.problems)
    assert "players[3] (p3): deck must be the decklist's text" in err.value.problems
    assert not Event.objects.filter(slug="bad-decks").exists()


def test_export_event_twd_prints_the_winners_deck(finished):
    out = StringIO()
    call_command("export_event", finished.slug, "--twd", stdout=out)
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0] == "Imported Open"
    assert lines[2] == "November 28th 2026" and lines[3] == "3R+F"
    assert lines[4] == "10 players" and lines[5] == "Player 3"
    assert "Crypt (12 cards" in text and "Library (60 cards)" in text
    assert "4x Theo Bell" in text


def test_export_event_twd_explains_what_is_missing(db):
    import_event(make_file(final=False, slug="no-final"))
    with pytest.raises(CommandError, match="no final"):
        call_command("export_event", "no-final", "--twd", stdout=StringIO())
    doc = make_file(slug="no-deck")
    import_event(doc)
    with pytest.raises(CommandError, match="registered no deck"):
        call_command("export_event", "no-deck", "--twd", stdout=StringIO())


def test_publication_follows_the_organisers_choice(finished, django_assert_max_num_queries):
    event = finished
    assert deck_services.published_decks(event) == []  # "none" by default
    event.deck_publication = "winner"
    event.save()
    (winner,) = deck_services.published_decks(event)
    assert winner.player == "Player 3" and winner.place == "winner"
    assert winner.summary.crypt_count == 12 and dict(winner.summary.types)["Reaction"] == 12
    event.deck_publication = "finalists"
    event.decks_attributed = False
    event.save()
    finalists = deck_services.published_decks(event)
    assert len(finalists) == 5 and {d.player for d in finalists} == {""}
    assert finalists[0].place == "winner"
    event.deck_publication = "all"
    event.save()
    with django_assert_max_num_queries(12):
        assert len(deck_services.published_decks(event)) == 10
    event.results_approved = False
    event.save()
    assert deck_services.published_decks(event) == []  # not before the event ends


def test_a_nul_character_or_an_over_long_list_is_refused(player):
    user, reg = player
    with pytest.raises(UserError, match="Null characters"):
        deck_services.submit_own(reg, LEGAL + "\x00", user)
    with pytest.raises(UserError, match="at most 20000 characters"):
        deck_services.submit_own(reg, LEGAL + "#" * 20_001, user)
    assert not Deck.objects.exists()


def test_mitos_y_leyendas_publishes_the_champions_and_the_top_cuts_decks(db):
    event, regs = make_myl_event(8, top_cut=4, preliminary_rounds=2)
    for reg in regs:
        deck_services.enter_for_player(
            reg, MYL_LEGAL, None, ROLE_PERMISSIONS[Role.ORGANISER], reason="paper list"
        )
    play_swiss(event)
    semi = swiss_services.pair_top_cut(event)
    cut = list(semi.seats.values_list("registration_id", flat=True))
    play(semi, random.Random(0), [(2, 1)])
    final = swiss_services.pair_top_cut(event)
    play(final, random.Random(0), [(2, 0)])
    champion = swiss_services.myl_standings(event).champion
    event.results_approved = True
    event.deck_publication = "finalists"
    event.save()
    published = deck_services.published_decks(event)
    assert sorted(d.deck.registration_id for d in published) == sorted(cut)
    assert published[0].deck.registration_id == champion and published[0].place == "winner"
    assert published[0].summary is None  # no card database: the list only
    with pytest.raises(UserError, match="no Tournament Winning Deck Archive"):
        deck_services.twd_entry(event)


def test_the_same_list_sent_twice_is_saved_once(player):
    """A double tap on "Save my list" (fresh-user try, issue 15): the second identical
    save is a no-op, with no new version and no second audit entry."""
    user, reg = player
    first = deck_services.submit_own(reg, LEGAL, user)
    again = deck_services.submit_own(reg, LEGAL, user)
    assert again.pk == first.pk and again.version == first.version == 1
    assert entries_about(first).filter(action="deck.submitted").count() == 1
    changed = deck_services.submit_own(reg, LEGAL + "\n1x Blood Doll", user)
    assert changed.version == 2
    assert entries_about(first).filter(action="deck.submitted").count() == 2
