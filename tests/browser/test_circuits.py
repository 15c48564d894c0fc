"""An organiser sets up a circuit and a player reads its standings and their own rated
events (issue 16, "Done when": a player profile with its counted events and a circuit
standings page; docs/ratings.md "Circuits"). Screenshots at phone and tablet widths.

Setup through the ORM is limited to what a person cannot do in the app: the organiser's
account and role (conftest) and the event files an organiser imports with
``manage.py import_event --publish``.
"""

from datetime import date, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 800}
TABLET = {"width": 820, "height": 1180}
SHOTS = Path("/tmp/shots/wt-circuits")
TODAY = date.today()
DAYS = [TODAY - timedelta(days=30 * (4 - i)) for i in range(4)]


@pytest.fixture
def season(organisation):
    from events.interchange import import_event
    from tests.standings.services.test_rating_services import event_file

    for i in range(4):  # four events of the organisation in the last four months
        import_event(
            event_file(f"club-{i}", DAYS[i].isoformat()), organisation=organisation, publish=True
        )


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("tablet", TABLET)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(TABLET)


def test_circuit_standings_and_player_profile(
    live_server, season, organiser, organisation, new_context, browser_log, shots
):
    page = new_context().new_page()
    log_in(page, live_server.url, organiser.username, organiser.password)
    page.goto(f"{live_server.url}/organisations/{organisation.slug}/")
    click_and_wait(page, page.get_by_role("link", name="Circuits"))
    click_and_wait(page, page.get_by_role("link", name="New circuit"))
    page.get_by_label("Name").fill("Copa 2026")
    page.get_by_label("First day").fill((TODAY - timedelta(days=365)).isoformat())
    page.get_by_label("Last day").fill((TODAY + timedelta(days=30)).isoformat())
    page.get_by_label("GP points (25, 15, 13 … 6, then 3)").check()
    page.get_by_label("Best events counted").fill("3")
    page.get_by_label("Minimum attendance").fill("2")
    page.get_by_label("Qualifying places").fill("1")
    for i, day in enumerate(DAYS):
        page.get_by_label(f"{day:%Y-%m-%d} — Open club-{i}").check()
    _shot(page, "circuit-form")
    click_and_wait(page, page.get_by_role("button", name="Save"))

    # The public standings: Player 2 won all four, the best 3 count: 75 GP points.
    expect(page.get_by_role("heading", name="Copa 2026")).to_be_visible()
    first = page.locator("table.circuit tbody tr").first
    expect(first).to_contain_text("Player 2")
    expect(first).to_contain_text("75")
    expect(first.locator(".badge", has_text="Qualified")).to_be_visible()
    expect(page.locator(".badge", has_text="Qualified")).to_have_count(1)
    expect(page.get_by_text("The best 3 events of each player count.")).to_be_visible()
    _shot(page, "circuit-standings")
    shots(page, "circuit")

    # The player's profile: every rated event counted (four, fewer than 8).
    click_and_wait(page, first.get_by_role("link", name="Player 2"))
    expect(
        page.get_by_role("heading", name="Constructed, on site — rating 448")
    ).to_be_visible()  # 4 × 112
    expect(page.locator("td strong", has_text="Counted")).to_have_count(4)
    _shot(page, "player-profile")
    browser_log.assert_clean()
