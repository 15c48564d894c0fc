"""Issue 14's journey, on a phone (360×800), end to end in Chromium: a new organiser
creates an organisation, creates an event, pastes a list of 17 players (one of them a
person the app already has, offered as that person rather than created again), checks
everybody in at once, fixes a mistyped number, seats round 1 and opens its printable
seating.

Setup through the ORM: the user account and the existing person only; everything else
goes through the product's pages. Screenshots: ``test-artifacts/browser/``.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages, player_row, table_sizes

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PHONE = {"width": 360, "height": 800}
ORG_SLUG = "club-del-sur"
SLUG = "sur-open-2026"
EXISTING = ("Ana Rojas", "3100001")
TYPO = ("Bruno Díaz", "310002", "3100002")  # name, number as pasted, number as it is
OTHERS = [
    ("Camila Soto", "3100003"),
    ("Diego Fuentes", "3100004"),
    ("Elena Vidal", "3100005"),
    ("Felipe Muñoz", "3100006"),
    ("Gabriela Silva", "3100007"),
    ("Hernán Castro", "3100008"),
    ("Isabel Navarro", "3100009"),
    ("Javier Reyes", "3100010"),
    ("Karina Torres", "3100011"),
    ("Lucas Morales", "3100012"),
    ("María Herrera", "3100013"),
    ("Nicolás Pérez", "3100014"),
    ("Olivia Campos", "3100015"),
    ("Pablo Vega", ""),
    ("Renata Ortiz", ""),
]
LIST = [EXISTING, TYPO[:2], *OTHERS]


def assert_fits(page):
    """Nothing wider than the phone's screen (no sideways scrolling)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a {PHONE['width']}px phone"


def test_new_organiser_on_a_phone(live_server, make_user, browser, browser_log, shots):
    from events.models import Person

    assert len(LIST) == 17
    olga = make_user("olga")
    known = Person.objects.create(name=EXISTING[0], vekn_number=EXISTING[1])
    base = live_server.url
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    context.set_default_timeout(5_000)
    context.set_default_navigation_timeout(10_000)
    browser_log.watch(context)
    page = context.new_page()
    try:
        # 1. Sign in and create an organisation (a store: anybody may create one).
        log_in(page, base, olga.username, olga.password)
        page.goto(f"{base}/organisations/")
        shots(page, "organisations-empty")
        click_and_wait(page, page.get_by_role("link", name="Create an organisation"))
        page.locator("#id_name").fill("Club del Sur")
        page.locator("#id_slug").fill(ORG_SLUG)
        shots(page, "organisation-form")
        assert_fits(page)
        click_and_wait(page, page.get_by_role("button", name="Create", exact=True))
        expect(messages(page)).to_contain_text("Club del Sur created: you are its organiser.")
        shots(page, "organisation-created")
        assert_fits(page)

        # 2. Create an event from the VEKN preset: 2 rounds and a final.
        click_and_wait(page, page.get_by_role("link", name="New event"))
        expect(page.get_by_role("heading", name=re.compile("New event"))).to_be_visible()
        page.locator("#id_name").fill("Sur Open 2026")
        page.locator("#id_slug").fill(SLUG)
        page.locator("#id_date").fill("2026-11-28")
        page.locator("#id_preset").select_option("vekn-2026")
        page.locator("#id_preliminary_rounds").fill("2")
        page.locator("#id_final_mode").select_option("final")
        shots(page, "event-form")
        assert_fits(page)
        click_and_wait(page, page.get_by_role("button", name="Create event"))
        expect(messages(page)).to_contain_text("Event created.")
        expect(page).to_have_url(f"{base}/events/{SLUG}/manage/")
        shots(page, "event-dashboard")
        assert_fits(page)

        # 3. Paste the list: 16 new players, and Ana Rojas offered as the person we have.
        click_and_wait(page, page.locator("nav.tabs").get_by_role("link", name="Players"))
        shots(page, "players-empty")
        click_and_wait(page, page.get_by_role("link", name="Add a list of players"))
        text = "\n".join(f"{n}; {v}" if v else n for n, v in LIST)
        page.locator("#list textarea").fill(text)
        page.get_by_label("Check them in").uncheck()  # checked in below, all at once
        shots(page, "list-pasted")
        click_and_wait(page, page.get_by_role("button", name="Preview"))
        preview = page.locator("#preview")
        expect(preview).to_contain_text("17 players will be registered.")
        expect(preview.locator(".badge.ok")).to_have_count(16)
        expect(preview).to_contain_text(f"already known: {EXISTING[0]} · {EXISTING[1]}")
        shots(page, "list-preview")
        assert_fits(page)
        click_and_wait(page, page.get_by_role("button", name="Register 17 players"))
        expect(page.get_by_role("heading", name="17 players")).to_be_visible()
        expect(page.locator("#players > li")).to_have_count(17)
        assert Person.objects.filter(name=EXISTING[0]).get().pk == known.pk
        shots(page, "players-registered")
        assert_fits(page)

        # 4. Check in all, at once.
        click_and_wait(page, page.get_by_role("link", name=re.compile("Check in all")))
        shots(page, "check-in-all")
        assert_fits(page)
        click_and_wait(page, page.get_by_role("button", name="Check in 17 players"))
        expect(page.locator("#players .badge.ok")).to_have_count(17)
        counts = page.locator("dl.counts").first
        expect(counts).to_contain_text("Checked in")
        shots(page, "players-checked-in")
        assert_fits(page)

        # 5. Fix Bruno's mistyped number.
        row = player_row(page, TYPO[0])
        expect(row).to_contain_text(f"VEKN {TYPO[1]}")
        click_and_wait(page, row.get_by_role("link", name=f"Edit {TYPO[0]}"))
        shots(page, "registration-edit")
        assert_fits(page)
        page.locator("#id_vekn_number").fill(TYPO[2])
        click_and_wait(page, page.get_by_role("button", name="Save", exact=True))
        expect(messages(page)).to_contain_text("Player corrected.")
        expect(player_row(page, TYPO[0])).to_contain_text(f"VEKN {TYPO[2]}")
        shots(page, "number-fixed")

        # 6. Seat round 1: 17 players → tables of 5, 4, 4, 4.
        click_and_wait(page, page.locator("nav.tabs").get_by_role("link", name="Overview"))
        click_and_wait(page, page.get_by_role("button", name="Seat round 1"))
        expect(messages(page)).to_contain_text("Round 1 seated.")
        assert sorted(table_sizes(page)) == [4, 4, 4, 5]
        shots(page, "round-1-seated")
        assert_fits(page)

        # 7. Print the seating: the print page, then the seating by table.
        click_and_wait(page, page.locator("nav.tabs").get_by_role("link", name="Print"))
        shots(page, "print-index")
        assert_fits(page)
        round_1 = page.locator("#round-1")
        click_and_wait(page, round_1.get_by_role("link", name="Seating by table"))
        expect(page.get_by_role("button", name="Print this page")).to_be_visible()
        main = page.locator("body")
        for name, _number in LIST:
            expect(main).to_contain_text(name)
        shots(page, "print-seating")
        browser_log.assert_clean()
    finally:
        context.close()
