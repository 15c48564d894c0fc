"""Multi-deck pages (events/views_deck_play.py, docs/decks.md "Multi-deck events"): the
settings' refusal, the player's named decks and their deck for the next round, a judge
setting it (audited), the Decks tab and the final's page in bounded queries on a
300-player event."""

import pytest
from django.urls import reverse

from events import deck_play, deck_services
from events.models import Deck, DeckPlay, MultiDeck
from tests.events.services.test_deck_play import LEGAL, OTHER, _event_to_final
from tests.factories import PersonFactory, RegistrationFactory, UserFactory


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


@pytest.fixture
def multi(event):
    event.multideck = MultiDeck.BEST
    event.save()
    return event


@pytest.fixture
def player(multi):
    user = UserFactory(username="ana")
    reg = RegistrationFactory(event=multi, person=PersonFactory(user=user, name="Ana"))
    return user, reg


@pytest.mark.parametrize("level", ["national", "grand_prix", "continental"])
def test_the_settings_page_refuses_multi_deck_at_a_championship(client, event, staff, level):
    """TR §3.1.5: not at a national championship, a Grand Prix or a continental one."""
    client.force_login(staff["organiser"])
    page = client.get(url("manage:settings", event)).content.decode()
    assert 'name="multideck"' in page and "best-performing deck" in page
    assert '<option value="grand_prix">Grand Prix</option>' in page
    event.championship = level
    event.save()
    data = {
        "name": event.name,
        "date": event.date.isoformat(),
        "game_format": "standard",
        "championship": level,
        "preliminary_rounds": 3,
        "round_minutes": 120,
        "final_minutes": 120,
        "decklists_required": "on",
        "deck_publication": "none",
        "multideck": "best",
        "final_mode": "final",
        "time_zone": "America/Santiago",
    }
    response = client.post(url("manage:settings", event), data)
    assert response.status_code == 200
    assert "may not use the multi-deck system (TR §3.1.5)" in response.content.decode()
    event.refresh_from_db()
    assert event.multideck == ""


def test_a_player_registers_two_named_decks_and_picks_one(client, multi, player):
    user, reg = player
    client.force_login(user)
    page = client.get(url("events:my-deck", multi)).content.decode()
    assert "Multi-deck event" in page and 'name="label"' in page
    # A new deck needs a name.
    response = client.post(url("events:my-deck", multi), {"text": LEGAL, "label": ""})
    assert response.status_code == 400 and "Give the deck a name" in response.content.decode()
    response = client.post(url("events:my-deck", multi), {"text": LEGAL, "label": "Toreador"})
    assert response.status_code == 302 and response.url.endswith("?label=Toreador")
    client.post(url("events:my-deck", multi), {"text": OTHER, "label": "Ventrue"})
    assert sorted(Deck.objects.filter(registration=reg).values_list("label", flat=True)) == [
        "Toreador",
        "Ventrue",
    ]
    page = client.get(url("events:my-deck", multi) + "?label=Ventrue").content.decode()
    assert "Registered list: Ventrue" in page and "Govern the Unaligned" in page
    assert "I play in Round 1:" in page
    response = client.post(url("events:my-deck-play", multi), {"deck": "Ventrue"})
    assert response.status_code == 302
    assert DeckPlay.objects.get(registration=reg, round_number=1).deck.label == "Ventrue"
    page = client.get(url("events:my-deck", multi)).content.decode()
    assert "Round 1: you play Ventrue." in page
    # A deck that is not theirs is refused by the form.
    client.post(url("events:my-deck-play", multi), {"deck": "Malkavian"})
    assert DeckPlay.objects.get(registration=reg, round_number=1).deck.label == "Ventrue"


def test_a_judge_sets_a_players_round_deck_and_a_scorekeeper_may_not(client, multi, player, staff):
    user, reg = player
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    deck_services.submit_own(reg, OTHER, user, label="Ventrue")
    entry = url("manage:deck-entry", multi, reg_id=reg.pk)
    client.force_login(staff["judge"])
    # Staff enter a third deck for the player, under its name.
    response = client.post(entry, {"text": LEGAL, "label": "Malkavian"})
    assert response.status_code == 302 and response.url.endswith("?label=Malkavian")
    assert Deck.objects.get(registration=reg, label="Malkavian").submitted_by == staff["judge"]
    page = client.get(entry).content.decode()
    assert "Deck played in each round" in page and "Set the deck" in page
    target = url("manage:deck-play-set", multi, reg_id=reg.pk)
    response = client.post(target, {"round_number": 1, "deck": "Toreador", "reason": ""})
    assert response.status_code == 302
    assert DeckPlay.objects.get(registration=reg, round_number=1).deck.label == "Toreador"
    client.force_login(staff["organiser"])
    audit = client.get(url("manage:audit", multi)).content.decode()
    assert "Deck: set for a round by a judge (TR §3.1.5)" in audit
    client.force_login(staff["scorekeeper"])
    assert "Set the deck" not in client.get(entry).content.decode()
    assert client.post(target, {"round_number": 1, "deck": "Ventrue"}).status_code == 403


def test_the_decks_tab_lists_every_players_decks_in_bounded_queries(
    client, multi, staff, django_assert_max_num_queries
):
    regs = [RegistrationFactory(event=multi) for _ in range(300)]
    decks = []
    for i, reg in enumerate(regs[:200]):
        for label in ("Toreador", "Ventrue") if i % 2 else ("Toreador",):
            decks.append(
                Deck(
                    registration=reg,
                    label=label,
                    text=LEGAL,
                    cards=[],
                    valid=True,
                    problems=[],
                    format="standard",
                )
            )
    Deck.objects.bulk_create(decks)
    saved = {d.registration_id: d for d in Deck.objects.filter(label="Toreador")}
    DeckPlay.objects.bulk_create(
        [DeckPlay(registration_id=r.id, round_number=1, deck=saved[r.id]) for r in regs[:50]]
    )
    client.force_login(staff["organiser"])
    with django_assert_max_num_queries(18):
        html = client.get(url("manage:decks", multi)).content.decode()
    assert html.count('class="badge ok"') == 300
    assert "Deck chosen for round 1." in html and html.count("not chosen") == 250
    assert "not submitted" not in html  # the single-deck counts do not apply
    with django_assert_max_num_queries(14):
        html = client.get(url("manage:print-decks", multi)).content.decode()
    assert html.count("deck-print") >= 300


def test_the_final_page_shows_each_finalists_deck_and_its_reason(
    client, multi, staff, django_assert_max_num_queries
):
    user = UserFactory(username="star")
    reg = RegistrationFactory(
        event=multi, person=PersonFactory(user=user, name="Star"), status="checked_in"
    )
    deck_services.submit_own(reg, LEGAL, user, label="Toreador")
    deck_services.submit_own(reg, OTHER, user, label="Ventrue")
    for _ in range(11):
        RegistrationFactory(event=multi, status="checked_in")
    _event_to_final(multi, user, reg, [("Toreador", 3), ("Ventrue", 4), ("Toreador", 2)])
    client.force_login(staff["head_judge"])
    with django_assert_max_num_queries(30):
        html = client.get(url("manage:final", multi)).content.decode()
    assert "Decks for the final" in html
    assert "round 2: 1 GW, 4 VP, 60 TP" in html and "ahead of Toreador on Victory Points" in html
    response = client.post(url("manage:final", multi), {"action": "start", "confirm": "on"})
    assert response.status_code == 302
    final = multi.rounds.get(is_final=True)
    play = DeckPlay.objects.get(registration=reg, round_number=final.number)
    assert play.deck.label == "Ventrue" and play.reason == "vp"
    html = client.get(url("manage:final", multi)).content.decode()
    assert "Ventrue" in html and "round 2: 1 GW, 4 VP, 60 TP" in html
    client.force_login(user)
    page = client.get(url("events:my-deck", multi)).content.decode()
    assert "Your deck for the final" in page and "round 2: 1 GW, 4 VP, 60 TP" in page
    assert deck_play.open_round(multi) == (None, None)


@pytest.mark.parametrize("label", ["", "   ", "x" * 61, "Tor\x00eador"])
def test_a_blank_or_bad_deck_name_never_overwrites_the_unnamed_deck(client, multi, player, label):
    """The fresh-user try: "Add a deck" with a blank (or too long, or NUL) name replaced the
    player's unnamed deck, registered before multi-deck was announced."""
    user, reg = player
    Deck.objects.create(registration=reg, label="", text=LEGAL, format="standard", valid=True)
    client.force_login(user)
    response = client.post(url("events:my-deck", multi), {"text": OTHER, "label": label})
    assert response.status_code == 400
    (deck,) = Deck.objects.filter(registration=reg)
    assert deck.label == "" and deck.text == LEGAL
