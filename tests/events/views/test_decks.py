"""Deck pages (events/views_decks.py, docs/decks.md): the player's "My deck" with its
live check, the lock (VEKN TR §6.3), staff entering and correcting a list (JG §3.1.1),
privacy before the event ends, the organiser's overview and printed lists in bounded
queries, the published decks, the settings."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from events import deck_labels, deck_services
from events.interchange import import_event
from events.models import Deck
from events.permissions import Role
from tests.events.services.test_deck_services import LEGAL, MYL_LEGAL, TYPO
from tests.events.services.test_interchange import make_file
from tests.factories import (
    EventFactory,
    EventRoleFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


@pytest.fixture
def player(event):
    user = UserFactory(username="ana")
    reg = RegistrationFactory(event=event, person=PersonFactory(user=user, name="Ana"))
    return user, reg


def test_my_deck_page_has_the_live_check_form(client, player, event):
    user, _reg = player
    client.force_login(user)
    html = client.get(url("events:my-deck", event)).content.decode()
    assert 'hx-trigger="keyup changed delay:500ms' in html
    assert f'hx-post="{url("events:deck-check", event)}"' in html
    assert 'name="text"' in html


def test_the_live_check_names_problems_and_suggests_card_names(client, player, event):
    user, _reg = player
    client.force_login(user)
    response = client.post(url("events:deck-check", event), {"text": TYPO})
    html = response.content.decode()
    assert response.status_code == 200
    assert "line 1: no card is called “Deflecshun”" in html
    assert "Did you mean:" in html and "Deflection" in html
    assert "the library has 48 cards; it needs at least 60 (TR §6.2)" in html
    html = client.post(url("events:deck-check", event), {"text": LEGAL}).content.decode()
    assert "Legal list" in html and "Crypt: 12" in html and "Library: 60" in html
    # A NUL character is named as such, not as a list too long (a new user's report).
    html = client.post(url("events:deck-check", event), {"text": "3 Anson\x00"}).content.decode()
    assert "Null characters are not allowed." in html and "too long" not in html
    assert Deck.objects.count() == 0  # the check saves nothing


def test_the_live_check_shows_each_card_under_the_name_it_was_read_as(client, player, event):
    """A close misspelling is read as a card (docs/decks.md): the live check lists the
    cards by their real names, so the guess is seen before the list is saved."""
    user, _reg = player
    client.force_login(user)
    text = LEGAL.replace("Deflection", "Deflectoin")
    html = client.post(url("events:deck-check", event), {"text": text}).content.decode()
    assert "6 different cards read: check the names" in html
    assert "12× Deflection" in html and "4× Theo Bell" in html
    assert "Deflectoin" not in html


def test_the_live_check_words_problems_by_code_through_deck_labels(
    client, player, event, monkeypatch
):
    """The fragment shows ``events.deck_labels``' sentence (the reader's language), never
    the rules' English ``message``."""
    user, _reg = player
    client.force_login(user)
    monkeypatch.setitem(deck_labels.LABELS, "unknown_card", "sin carta «%(name)s»")
    html = client.post(url("events:deck-check", event), {"text": TYPO}).content.decode()
    assert "sin carta «Deflecshun»" in html and "no card is called" not in html


def test_saving_an_invalid_list_flags_it_and_shows_it_registered(client, player, event):
    user, reg = player
    client.force_login(user)
    response = client.post(url("events:my-deck", event), {"text": TYPO})
    assert response.status_code == 302
    deck = Deck.objects.get(registration=reg)
    assert not deck.valid
    html = client.get(url("events:my-deck", event)).content.decode()
    assert 'id="registered-deck"' in html and "Has problems" in html
    client.post(url("events:my-deck", event), {"text": LEGAL})
    html = client.get(url("events:my-deck", event)).content.decode()
    assert "Legal list" in html and "Theo Bell" in html


def test_after_the_deadline_the_list_is_read_only(client, player, event):
    user, reg = player
    client.force_login(user)
    client.post(url("events:my-deck", event), {"text": LEGAL})
    event.decklist_deadline = timezone.now() - dt.timedelta(minutes=5)
    event.save()
    html = client.get(url("events:my-deck", event)).content.decode()
    assert 'id="deck-locked"' in html and "<textarea" not in html
    assert "Theo Bell" in html
    response = client.post(url("events:my-deck", event), {"text": TYPO})
    assert response.status_code == 400
    assert Deck.objects.get(registration=reg).valid


def test_lists_are_private_before_the_event_ends(client, player, event, staff):
    user, reg = player
    deck_services.submit_own(reg, LEGAL, user)
    other = UserFactory(username="bea")
    RegistrationFactory(event=event, person=PersonFactory(user=other))
    entry = url("manage:deck-entry", event, reg_id=reg.pk)
    # Anonymous: sign in first; another player and an outsider: the pages do not exist.
    assert client.get(url("events:my-deck", event)).status_code == 302
    assert client.get(entry).status_code == 302
    assert client.get(url("events:public-decks", event)).status_code == 404
    for visitor in (other, staff["outsider"], staff["other_organiser"]):
        client.force_login(visitor)
        assert client.get(entry).status_code == 404
        assert client.get(url("manage:decks", event)).status_code == 404
        assert client.get(url("events:public-decks", event)).status_code == 404
        html = client.get(url("events:my-deck", event)).content.decode()
        assert "Theo Bell" not in html
    client.force_login(staff["outsider"])
    assert client.post(url("events:deck-check", event), {"text": LEGAL}).status_code == 404
    client.force_login(staff["judge"])
    assert "Theo Bell" in client.get(entry).content.decode()


def test_staff_enter_before_the_lock_and_only_judges_correct_after(client, player, event, staff):
    _user, reg = player
    entry = url("manage:deck-entry", event, reg_id=reg.pk)
    client.force_login(staff["scorekeeper"])
    assert client.post(entry, {"text": TYPO}).status_code == 302
    event.decklist_deadline = timezone.now() - dt.timedelta(minutes=1)
    event.save()
    assert client.post(entry, {"text": LEGAL, "reason": "typo"}).status_code == 403
    client.force_login(staff["judge"])
    response = client.post(entry, {"text": LEGAL})
    assert response.status_code == 400 and "say why" in response.content.decode()
    assert client.post(entry, {"text": LEGAL, "reason": "Deflection, as played"}).status_code == 302
    deck = Deck.objects.get(registration=reg)
    assert deck.valid and deck.version == 2
    client.force_login(staff["organiser"])
    html = client.get(url("manage:audit", event)).content.decode()
    assert "Deck: corrected by a judge (JG §3.1.1)" in html and "Deflection, as played" in html
    assert "Deck: entered by staff" in html


def test_the_overview_and_printed_lists_run_bounded_queries(
    client, event, staff, django_assert_max_num_queries
):
    regs = [RegistrationFactory(event=event) for _ in range(300)]
    for i, reg in enumerate(regs[:150]):
        Deck.objects.create(
            registration=reg,
            text=LEGAL,
            cards=[{"id": 1, "name": f"Card {i}", "count": 4, "section": "library"}],
            valid=i % 3 != 0,
            problems=[]
            if i % 3
            else [{"code": "banned", "message": "m", "params": {"name": f"Card {i}"}}],
            format="standard",
        )
    client.force_login(staff["organiser"])
    with django_assert_max_num_queries(14):
        html = client.get(url("manage:decks", event)).content.decode()
    assert "150 not submitted · 50 with problems · 100 legal" in html
    assert "Card 0 is banned (TR §4.1.1)" in html
    with django_assert_max_num_queries(12):
        html = client.get(url("manage:print-decks", event)).content.decode()
    assert html.count('class="print-card deck-print"') == 150
    assert "print.css" in html


@pytest.fixture
def finished(db):
    doc = make_file(slug="finished-2026")
    for p in doc["players"]:
        p["deck"] = LEGAL
    event = import_event(doc)
    event.results_approved = True
    event.deck_publication = "winner"
    event.save()
    return event


def test_the_public_page_shows_the_published_decks_with_their_counts(client, finished):
    response = client.get(url("events:public-decks", finished))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Winner" in html and "Player 3" in html
    assert "Reaction 12" in html and "Brujah 4" in html and "dom 12" in html
    assert html.count('class="card published-deck"') == 1
    assert (
        url("events:public-decks", finished)
        in client.get(finished.get_absolute_url()).content.decode()
    )
    finished.deck_publication = "all"
    finished.decks_attributed = False
    finished.save()
    html = client.get(url("events:public-decks", finished)).content.decode()
    assert html.count('class="card published-deck"') == 10 and "Player 3" not in html


def test_the_settings_page_sets_the_deadline_and_publication(client, event, staff):
    client.force_login(staff["organiser"])
    html = client.get(url("manage:settings", event)).content.decode()
    assert 'name="decklist_deadline"' in html and 'type="datetime-local"' in html
    data = {
        "name": event.name,
        "date": "2026-11-28",
        "format": "constructed",
        "preliminary_rounds": 3,
        "round_minutes": 120,
        "final_minutes": 120,
        "decklists_required": "on",
        "decklist_deadline": "2026-11-27T20:00",
        "deck_publication": "finalists",
        "final_mode": "final",
        "time_zone": "America/Santiago",
    }
    # A deadline in year 9999 is a form error, never a 500 (the one date window).
    refused = client.post(
        url("manage:settings", event), data | {"decklist_deadline": "9999-12-31T23:59"}
    )
    assert "Give a date between the years 2000 and 2100." in refused.content.decode()
    event.refresh_from_db()
    assert event.decklist_deadline is None
    assert client.post(url("manage:settings", event), data).status_code == 302
    event.refresh_from_db()
    assert event.deck_publication == "finalists" and not event.decklists_lock_at_start
    assert event.decklist_deadline is not None and event.decks_attributed is False


def test_mitos_y_leyendas_players_register_main_and_side_deck(client, db):
    event = EventFactory(ruleset="myl", preset="myl-2026", round_minutes=50)
    user = UserFactory(username="myl-player")
    reg = RegistrationFactory(event=event, person=PersonFactory(user=user))
    client.force_login(user)
    html = client.post(url("events:deck-check", event), {"text": MYL_LEGAL}).content.decode()
    assert "Main deck: 50" in html and "Side deck: 3" in html and "Legal list" in html
    assert client.post(url("events:my-deck", event), {"text": MYL_LEGAL}).status_code == 302
    assert Deck.objects.get(registration=reg).format == "mitos"
    judge = UserFactory(username="myl-judge")
    EventRoleFactory(event=event, user=judge, role=Role.JUDGE)
    client.force_login(judge)
    html = client.get(url("manage:decks", event)).content.decode()
    assert "0 not submitted · 0 with problems · 1 legal" in html
