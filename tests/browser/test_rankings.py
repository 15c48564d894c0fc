"""A player looks up the VEKN rankings and their own rated events (issue 16, "Done when":
a player profile with its counted events; TR Appendix A; docs/rules-vekn.md "Ratings").

Setup through the ORM is limited to what a person cannot do in the app: the event files
an organiser imports with ``manage.py import_event --publish``.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait

pytestmark = pytest.mark.browser


@pytest.fixture
def history(transactional_db):
    from events.interchange import import_event
    from tests.standings.services.test_rating_services import event_file

    for month in range(2, 11):  # nine events, February to October 2026
        import_event(event_file(f"open-{month}", f"2026-{month:02d}-01"), publish=True)
    import_event(event_file("ancient", "2024-01-01"), publish=True)


def test_player_finds_their_counted_events(live_server, history, new_context, browser_log, shots):
    page = new_context().new_page()
    page.goto(f"{live_server.url}/rankings/?as_of=2026-12-01")
    expect(page.get_by_role("heading", name="Rankings")).to_be_visible()
    first = page.locator("table tbody tr").first
    expect(first).to_contain_text("Player 2")
    expect(first).to_contain_text("896")  # 8 × 112
    shots(page, "rankings")

    click_and_wait(page, page.get_by_role("link", name="Player 2", exact=True))
    expect(page.get_by_role("heading", name="Constructed, on site — rating 896")).to_be_visible()
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(10)
    expect(page.locator("td strong", has_text="Counted")).to_have_count(8)
    expect(rows.filter(has_text="Open open-2")).to_contain_text(
        "Not among the best 8 of the last 18 months"
    )
    expect(rows.filter(has_text="Open ancient")).to_contain_text("More than 18 months before")
    shots(page, "player")

    # An event's link leads to its published standings, with the rating points.
    click_and_wait(page, page.get_by_role("link", name="Open open-10"))
    expect(page.locator("table.standings tbody tr").first).to_contain_text("112")
    browser_log.assert_clean()
