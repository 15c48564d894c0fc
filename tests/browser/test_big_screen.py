"""The big-screen standings view on a 1920×1080 projector (issue 7): the seating of the
round being played in large type, then — without anyone touching the screen — the
standings once the round is over and published (htmx polls the live fragment; the test
polls every second instead of every 30)."""

from io import StringIO

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.flaky(reruns=2)]

PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def demo(transactional_db, settings):
    from django.core.management import call_command

    from events import services
    from events.models import Event, Registration

    settings.SCREEN_POLL_SECONDS = 1
    call_command("load_demo", stdout=StringIO())
    upcoming = Event.objects.get(slug="demo-next")
    upcoming.registrations.update(status=Registration.Status.CHECKED_IN)
    rnd = services.seat_next_round(upcoming, seed=1)
    services.set_seating_published(rnd, True)
    return upcoming, rnd


def test_the_screen_follows_the_event_without_a_reload(
    live_server, demo, browser, browser_log, shots
):
    from events import services
    from tests.conftest import play_round

    event, rnd = demo
    context = browser.new_context(viewport=PROJECTOR, locale="en-US")
    browser_log.watch(context)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/demo-next/standings/screen/")
        expect(page.locator(".screen-round")).to_contain_text("Round 1")
        expect(page.locator(".screen-playing")).to_have_text("being played")
        expect(page.locator(".screen-table")).to_have_count(rnd.tables.count())
        expect(page.locator(".screen-wait")).to_contain_text("not published")
        # Large type: a player's name at least 24 px high on the projector.
        size = page.locator(".screen-table li").first.evaluate(
            "li => parseFloat(getComputedStyle(li).fontSize)"
        )
        assert size >= 24, size
        shots(page, "seating")
        # The round ends and the standings are published: the screen follows by itself.
        play_round(rnd)
        services.set_standings_published(event, True)
        expect(page.locator("table.screen-grid tbody tr")).to_have_count(23, timeout=8_000)
        expect(page.locator(".screen-playing")).to_have_count(0)
        expect(page.locator(".screen-table")).to_have_count(0)
        shots(page, "standings")
        # Unpublished again: the standings leave the wall.
        services.set_standings_published(event, False)
        expect(page.locator("table.screen-grid")).to_have_count(0, timeout=8_000)
        # The finished demo event: its final standings in columns.
        page.goto(f"{live_server.url}/events/demo-2026/standings/screen/")
        expect(page.locator("table.screen-grid tbody tr")).to_have_count(25)
        expect(page.locator("tr.winner")).to_have_count(1)
        shots(page, "final-standings")
        # A league table: 16 teams in large type on one screen.
        page.goto(f"{live_server.url}/competitions/anfpes-t24-primera-a/screen/")
        expect(page.locator("table.screen-grid tbody tr")).to_have_count(16)
        assert page.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
        shots(page, "league-table")
        browser_log.assert_clean()
    finally:
        context.close()
