"""Issue 15's done-when journey (docs/decks.md): a player on a phone (360×800) pastes a
Lackey list, sees its problem live (htmx) as they type and fixes it; the organiser sets
the decklist deadline on the event's settings, which locks the list (VEKN TR §6.3: the
player sees it locked, no box to edit); a judge on a tablet (820×1180) checks the deck in
round 1, finds it does not match, and lands in the incident flow with JG §3.1.2 (Illegal
Main Deck, legal decklist) pre-filled for that player and table.

Setup through the ORM: the accounts, the event, its registrations, the judge's role and
round 1's seating (organisers' and judges' pages tested elsewhere). Screenshots:
``test-artifacts/browser/`` and ``/tmp/shots/wt-deckjudge2/``.
"""

import datetime as dt
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 800}
TABLET = {"width": 820, "height": 1180}
SLOW = 30_000  # the machine is loaded: generous timeouts
LACKEY = (
    "12\tDeflecshun\n20\tBlood Doll\n28\tBum's Rush\n"
    "Crypt:\n4\tTheo Bell\n4\tGratiano\n4\tLucinde, Alastor\n"
)
SHOTS = Path("/tmp/shots/wt-deckjudge2")


def context_of(browser, browser_log, viewport, **kwargs):
    context = browser.new_context(viewport=viewport, locale="en-US", has_touch=True, **kwargs)
    context.set_default_timeout(SLOW)
    context.set_default_navigation_timeout(SLOW * 2)
    browser_log.watch(context)
    return context


def shot(page, shots, name):
    shots(page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_listed_deck_locked_then_failing_its_deck_check(
    live_server, make_user, organiser, organisation, browser, browser_log, shots
):
    from django.contrib.auth import get_user_model
    from django.urls import reverse
    from django.utils import timezone

    from events import services
    from events.models import AuditLog, Deck, DeckCheck, Event, EventRole, Person, Registration
    from events.permissions import Role

    users = get_user_model().objects
    ana = make_user("ana")
    judge = make_user("jude")
    event = Event.objects.create(
        organisation=organisation,
        slug="deck-check-open",
        name="Deck Check Open",
        date=timezone.localdate(),
        decklists_required=True,
        decklist_deadline=timezone.now() + dt.timedelta(days=1),
    )
    EventRole.objects.create(
        event=event, user=users.get(username=judge.username), role=Role.HEAD_JUDGE
    )
    person = Person.objects.create(
        name="Ana Rojas", vekn_number="3100001", user=users.get(username=ana.username)
    )
    reg = Registration.objects.create(event=event, person=person, code="p1", status="checked_in")
    for i in range(3):
        Registration.objects.create(
            event=event,
            person=Person.objects.create(name=f"Player {i}", vekn_number=f"310001{i}"),
            code=f"q{i}",
            status="checked_in",
        )
    base = live_server.url

    # 1. The player, on a phone: the live check, then the fixed list saved.
    phone = context_of(browser, browser_log, PHONE, is_mobile=True)
    player = phone.new_page()
    log_in(player, base, ana.username, ana.password)
    player.goto(f"{base}/events/{event.slug}/my-deck/")
    box = player.get_by_label("Decklist")
    box.fill(LACKEY)
    box.press("End")
    check = player.locator("#deck-check")
    # The first check builds the card index (seconds on a loaded machine).
    expect(check).to_contain_text("no card is called “Deflecshun”", timeout=SLOW)
    shot(player, shots, "phone-typo")
    box.fill(LACKEY.replace("Deflecshun", "Deflection"))
    box.press("End")
    expect(check).to_contain_text("Legal list")
    # A double tap saves once (the form drops its second submit; the service would
    # refuse a second version of the same text anyway).
    with player.expect_navigation():
        player.get_by_role("button", name="Save my list").dblclick()
    expect(messages(player)).to_contain_text("Decklist registered.")
    deck = Deck.objects.get(registration=reg)
    assert deck.valid and deck.version == 1
    assert AuditLog.objects.filter(action="deck.submitted").count() == 1

    # 2. The organiser sets the deadline a minute ago: the list is locked.
    tablet = context_of(browser, browser_log, TABLET)
    org = tablet.new_page()
    log_in(org, base, organiser.username, organiser.password)
    org.goto(base + reverse("manage:settings", kwargs={"slug": event.slug}))
    past = (timezone.now() - dt.timedelta(minutes=1)).astimezone(event.zone)
    org.get_by_label("Decklist deadline").fill(past.strftime("%Y-%m-%dT%H:%M"))
    click_and_wait(org, org.get_by_role("button", name="Save"))
    event.refresh_from_db()
    assert event.decklist_deadline is not None and event.decklist_deadline <= timezone.now()
    player.reload()
    expect(player.locator("#deck-locked")).to_be_visible()
    expect(player.locator("textarea")).to_have_count(0)
    expect(player.get_by_role("button", name="Save my list")).to_have_count(0)
    shot(player, shots, "phone-locked")
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]

    # 3. The judge, on a tablet: round 1's deck check finds a mismatch.
    rnd = services.seat_next_round(event, seed=1)
    seat = rnd.seats.get(registration=reg)
    jtablet = context_of(browser, browser_log, TABLET)
    jpage = jtablet.new_page()
    log_in(jpage, base, judge.username, judge.password)
    jpage.goto(base + reverse("manage:deck-checks", kwargs={"slug": event.slug, "number": 1}))
    jpage.get_by_label("Or choose a player").select_option(str(reg.pk))
    click_and_wait(jpage, jpage.get_by_role("button", name="Add"))
    expect(messages(jpage)).to_contain_text("Deck check added.")
    # A double tap on Draw draws one player, once.
    with jpage.expect_navigation():
        jpage.get_by_role("button", name="Draw").dblclick()
    expect(messages(jpage)).to_contain_text("1 player drawn for a deck check")
    assert DeckCheck.objects.filter(round=rnd).count() == 2
    assert AuditLog.objects.filter(action="deck_check.drawn").count() == 1
    card = jpage.locator("section.card", has_text="Ana Rojas")
    expect(card).to_contain_text("Theo Bell")  # the list to count against
    shot(jpage, shots, "tablet-deck-check")
    card.get_by_label("Note").fill("2 Blood Doll missing")
    click_and_wait(jpage, card.get_by_role("button", name="Does not match"))
    assert "/incidents/new/" in jpage.url or "incident" in jpage.url
    main = jpage.locator("main")
    expect(main).to_contain_text("Illegal Main Deck")
    expect(main).to_contain_text("Ana Rojas")
    expect(jpage.locator("#description")).to_have_value(
        "Deck check, round 1: the deck does not match its legal registered list."
        " 2 Blood Doll missing"
    )
    assert f"table={seat.table_id}" in jpage.url
    shot(jpage, shots, "tablet-incident")
    browser_log.assert_clean()
    for c in (phone, tablet, jtablet):
        c.close()
