"""What a person does in Árbitro, step by step, through the browser (Playwright sync API).

Each helper waits for the page to show the outcome of the action, so that tests read as a
sequence of human actions and checks, and fail at the step that went wrong.
"""

import re
from decimal import Decimal

from playwright.sync_api import Page, expect

from standings import vekn


def messages(page: Page):
    return page.locator("ul.messages")


def click_and_wait(page: Page, locator):
    """Click something that submits a form or follows a link, and wait for the new page."""
    with page.expect_navigation():
        locator.click()


def log_in(page: Page, base: str, username: str, password: str):
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    click_and_wait(page, page.locator("main form button[type=submit]"))
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def create_event(
    page: Page, base: str, org_slug: str, *, name: str, slug: str, rounds: int, shots=None
):
    """Create an event from the VEKN preset with ``rounds`` preliminary rounds and a final;
    ends on the event's dashboard. No page links to the form: its address is typed."""
    page.goto(f"{base}/organisations/{org_slug}/events/new/")
    expect(page.get_by_role("heading", name=re.compile("New event"))).to_be_visible()
    page.locator("#id_name").fill(name)
    page.locator("#id_slug").fill(slug)
    page.locator("#id_date").fill("2026-11-28")
    page.locator("#id_preset").select_option("vekn-2026")
    page.locator("#id_preliminary_rounds").fill(str(rounds))
    page.locator("#id_final_mode").select_option("final")
    if shots:
        shots(page, "event-form")
    click_and_wait(page, page.get_by_role("button", name="Create event"))
    expect(messages(page)).to_contain_text("Event created.")
    expect(page).to_have_url(f"{base}/events/{slug}/manage/")


def add_player(page: Page, name: str, vekn_number: str, *, checked_in: bool = True) -> str:
    """Add a player on the players page; returns the confirmation message."""
    page.locator("#id_name").fill(name)
    page.locator("#id_vekn_number").fill(vekn_number)
    page.locator("#id_check_in").set_checked(checked_in)
    click_and_wait(page, page.get_by_role("button", name="Add", exact=True))
    message = messages(page).locator("li").first
    expect(message).to_contain_text(name)
    return message.inner_text()


def player_row(page: Page, name: str):
    return page.locator("#players > li").filter(has=page.get_by_text(name, exact=True))


def set_player_status(page: Page, name: str, button: str, badge: str):
    """Click "Drop" or "Check in" on a player's row (an htmx swap of that row); a drop
    asks first (issue 14): the row becomes the confirmation card, "Drop <name>"."""
    row = player_row(page, name)
    row.get_by_role("button", name=button, exact=True).click()
    if button == "Drop":
        page.locator(".confirm").get_by_role("button", name=f"Drop {name}").click()
    expect(player_row(page, name).locator(".badge")).to_have_text(badge)


def table_sizes(page: Page) -> list[int]:
    cards = page.locator(".tables .table-card")
    return [cards.nth(i).locator("ol > li").count() for i in range(cards.count())]


def table_names(page: Page) -> list[list[str]]:
    """Player names per table card (seat order), without the VP shown after a dash."""
    cards = page.locator(".tables .table-card")
    out = []
    for i in range(cards.count()):
        items = cards.nth(i).locator("ol > li").all_inner_texts()
        out.append([re.split(r" — | Loss$", item)[0].strip() for item in items])
    return out


def type_sheet(page: Page, values: list[str]):
    inputs = page.locator("input.vp")
    expect(inputs).to_have_count(len(values))
    for i, value in enumerate(values):
        inputs.nth(i).fill(value)


def seat_names_on_result_form(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".vp-row label.seat-name").all_inner_texts()]


def enter_legal_sheet(page: Page, values: list[str], table_number: int):
    """On a result form: type ``values``, wait for the live check to call the sheet legal,
    save, and land back on the round page with the confirmation."""
    type_sheet(page, values)
    expect(page.locator("#check")).to_contain_text("Legal result sheet.")
    click_and_wait(page, page.get_by_role("button", name="Save result"))
    expect(messages(page)).to_contain_text(f"Table {table_number} saved.")


def assert_legal(values: list[str]):
    parsed = [Decimal(v.replace(",", ".")) for v in values]
    check = vekn.check_sheet(parsed)
    assert check.valid and check.complete, (values, check)


def open_table(page: Page, table_number: int):
    card = page.locator(".tables .table-card").nth(table_number - 1)
    expect(card.locator("h3")).to_contain_text(f"Table {table_number}")
    click_and_wait(page, card.get_by_role("link", name="Enter result"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {table_number}")
