"""Issue 15's multi-deck final (VEKN TR §3.1.5, §3.1.5a) in Chromium: on a phone, a player
of a multi-deck event registers two named decks and says before each round which one they
play; the rounds are played; on a tablet, the organiser's final page shows each
finalist's best-performing deck with its reason ("round 2: 1 GW, 4 VP, 60 TP"), starts the
final, and the player's page then shows the deck to play in the final.

Setup through the ORM: the accounts, the event (multi-deck, best-performing deck), eleven
other players, and the rounds' seating and results (the organiser's round pages are
tested elsewhere: tests/browser/test_vekn_event_day.py). Screenshots:
``test-artifacts/browser/`` and ``/tmp/shots/wt-deckmulti/``.
"""

import datetime as dt
import random
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 800}
TABLET = {"width": 820, "height": 1180}
SHOTS = Path("/tmp/shots/wt-deckmulti")
TOREADOR = (
    "12\tDeflection\n20\tBlood Doll\n28\tBum's Rush\n"
    "Crypt:\n4\tTheo Bell\n4\tGratiano\n4\tLucinde, Alastor\n"
)
VENTRUE = TOREADOR.replace("Deflection", "Govern the Unaligned")


def _fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def _play_round(event, star, vp, rng):
    """Seat the next round, publish it and enter every table, ``vp`` for the star alone on
    top of their table."""
    from events import services
    from standings import vekn

    rnd = services.seat_next_round(event, seed=rng.randrange(1000))
    services.set_seating_published(rnd, True)
    for table in rnd.tables.order_by("number"):
        ids = [s.registration_id for s in table.seats.order_by("position")]
        sheets = sorted(vekn.legal_sheets(len(ids)))
        if star.id in ids:
            i = ids.index(star.id)
            sheets = [s for s in sheets if s[i] == vp and max(s[:i] + s[i + 1 :]) < vp]
        services.save_results(table, list(rng.choice(sheets)), version=table.version)


def test_a_multi_deck_final_plays_the_best_performing_deck(
    live_server, make_user, organisation, organiser, browser, browser_log, shots
):
    from django.contrib.auth import get_user_model

    from events.models import DeckPlay, Event, Person, Registration
    from standings.services import event_standings
    from tests.factories import RegistrationFactory

    SHOTS.mkdir(parents=True, exist_ok=True)

    def shot(page, label):
        shutil.copy(shots(page, label), SHOTS / f"{label}.png")

    star_account = make_user("star")
    person = Person.objects.create(
        name="Star Player", user=get_user_model().objects.get(username=star_account.username)
    )
    event = Event.objects.create(
        organisation=organisation,
        slug="multi-open-2026",
        name="Multi Open",
        date=dt.date(2026, 11, 28),
        multideck="best",
        decklists_lock_at_start=False,
    )
    star = Registration.objects.create(event=event, person=person, code="star", status="checked_in")
    for _ in range(11):
        RegistrationFactory(event=event, status="checked_in")
    base = live_server.url
    phone = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    tablet = browser.new_context(viewport=TABLET, locale="en-US", has_touch=True)
    for context in (phone, tablet):
        context.set_default_timeout(10_000)
        context.set_default_navigation_timeout(30_000)
        browser_log.watch(context)
    page = phone.new_page()
    judge = tablet.new_page()
    rng = random.Random(3)
    try:
        # The player registers two named decks on their phone.
        log_in(page, base, star_account.username, star_account.password)
        page.goto(f"{base}/events/{event.slug}/my-deck/")
        expect(page.locator("#my-decks")).to_contain_text("Multi-deck event")
        for name, text in (("Toreador", TOREADOR), ("Ventrue", VENTRUE)):
            page.goto(f"{base}/events/{event.slug}/my-deck/?label=")
            page.get_by_label("Deck name").fill(name)
            page.get_by_label("Decklist").fill(text)
            click_and_wait(page, page.get_by_role("button", name="Save my list"))
            expect(messages(page)).to_contain_text("Decklist registered.")
            expect(page.locator("#registered-deck")).to_contain_text(f"Registered list: {name}")
        expect(page.locator("#my-decks")).to_contain_text("Toreador")
        expect(page.locator("#my-decks")).to_contain_text("Ventrue")
        _fits(page, PHONE["width"])
        shot(page, "phone-two-decks")

        # Before each round, they say which deck they play; the rounds are played.
        for deck, vp in (("Toreador", 3), ("Ventrue", 4), ("Toreador", 2)):
            page.goto(f"{base}/events/{event.slug}/my-deck/")
            page.get_by_label("I play in").select_option(deck)
            click_and_wait(page, page.get_by_role("button", name="Save my choice"))
            expect(messages(page)).to_contain_text(f"You play {deck} in round")
            if deck == "Ventrue":
                shot(page, "phone-round-choice")
            _play_round(event, star, Decimal(vp), rng)
        page.goto(f"{base}/events/{event.slug}/my-deck/")
        played = page.locator("#decks-played")
        expect(played).to_contain_text("Round 2")
        expect(played.locator("li").nth(1)).to_contain_text("Ventrue")

        result = event_standings(event)
        if result.standings.toss_required:
            from events import services

            services.record_toss(event, [r.player for r in result.standings.rows])
        assert star.id in event_standings(event).standings.finalists

        # The organiser's final page, on a tablet: the deck and why, before and after.
        log_in(judge, base, organiser.username, organiser.password)
        judge.goto(f"{base}/events/{event.slug}/manage/final/")
        decks = judge.locator("#final-decks")
        mine = decks.locator("li", has_text="Star Player")
        expect(mine.locator(".final-deck")).to_have_text("Ventrue")
        expect(mine).to_contain_text("round 2: 1 GW, 4 VP, 60 TP")
        expect(mine).to_contain_text("ahead of Toreador on Victory Points")
        _fits(judge, TABLET["width"])
        shot(judge, "tablet-final-decks")
        click_and_wait(judge, judge.get_by_role("button", name="Start the final"))
        click_and_wait(judge, judge.get_by_role("button", name="Start the final"))
        expect(judge.get_by_role("heading", name="Seating ritual")).to_be_visible()
        expect(mine.locator(".final-deck")).to_have_text("Ventrue")
        shot(judge, "tablet-final-started")
        final = event.rounds.get(is_final=True)
        play = DeckPlay.objects.get(registration=star, round_number=final.number)
        assert play.deck.label == "Ventrue" and play.reason == "vp"

        # The Decks tab lists every player's decks.
        judge.goto(f"{base}/events/{event.slug}/manage/decks/")
        expect(judge.locator("#multidecks li", has_text="Star Player")).to_contain_text("Ventrue")
        _fits(judge, TABLET["width"])
        shot(judge, "tablet-decks-tab")

        # The player's page shows the deck to play in the final.
        page.goto(f"{base}/events/{event.slug}/my-deck/")
        expect(page.locator("#final-deck")).to_contain_text("Ventrue")
        expect(page.locator("#final-deck")).to_contain_text("round 2: 1 GW, 4 VP, 60 TP")
        _fits(page, PHONE["width"])
        shot(page, "phone-final-deck")
        browser_log.assert_clean()
    finally:
        phone.close()
        tablet.close()
