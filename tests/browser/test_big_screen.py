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


# Every row of the page on show, inside the projector's viewport, on one line; and the
# page as a whole no taller than the screen.
VISIBLE_PAGE = """box => {
  const page = box.querySelector("[data-screen-page]:not([hidden])");
  const inside = el => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  };
  const rows = [...page.querySelectorAll("tbody tr")];
  const tables = [...page.querySelectorAll(".screen-table")];
  return {
    number: page.dataset.screenPage,
    names: rows.map(tr => tr.querySelector("td.player").firstChild.textContent.trim()),
    seated: tables.flatMap(t => [...t.querySelectorAll("li")].map(li => li.firstChild.textContent.trim())),
    outside: [...rows, ...tables].filter(el => !inside(el)).length,
    shown: [...box.querySelectorAll("[data-screen-page]")].filter(p => !p.hidden).length,
    height: document.documentElement.scrollHeight,
    oneLine: rows.every(tr => tr.getBoundingClientRect().height < 60),
  };
}"""


def _walk_pages(page, count):
    """Wait for each page in turn (the screen turns them by itself); what each shows."""
    box = page.locator("[data-screen-pages]")
    seen = {}
    for n in range(1, count + 1):
        expect(box).to_have_attribute("data-current", str(n), timeout=10_000)
        info = box.evaluate(VISIBLE_PAGE)
        if info["number"] != str(n):  # turned meanwhile: read it again
            continue
        seen[n] = info
    return seen


@pytest.mark.parametrize("players", [100, 300])
def test_every_player_is_on_some_page_and_nothing_is_cut_off(
    live_server, transactional_db, browser, browser_log, shots, settings, players
):
    from events.interchange import import_event
    from events.models import Person
    from tests.test_interchange import make_file

    settings.SCREEN_PAGE_SECONDS = 1.5
    event = import_event(
        make_file(players=players, rounds=3, final=True, slug=f"big-{players}"), publish=True
    )
    long_name = "Maximiliano Bartolomé Fernández-Arancibia de la Cruz Echeverría"
    Person.objects.filter(name="Player 7").update(name=long_name)
    from events import cache as page_cache

    page_cache.invalidate(event)
    context = browser.new_context(viewport=PROJECTOR, locale="en-US")
    browser_log.watch(context)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/{event.slug}/standings/screen/")
        count = -(-players // 42)
        expect(page.locator("[data-screen-page]")).to_have_count(count)
        seen = {}
        for _ in range(3):  # a page missed while reading it is read on the next turn
            seen.update(_walk_pages(page, count))
            if len(seen) == count:
                break
        assert sorted(seen) == list(range(1, count + 1))
        names = [name for n in sorted(seen) for name in seen[n]["names"]]
        expected = set(event.registrations.values_list("person__name", flat=True))
        assert len(names) == players and set(names) == expected
        for n, info in seen.items():
            assert info["outside"] == 0, (n, info["outside"])
            assert info["shown"] == 1 and info["oneLine"], n
            assert info["height"] <= PROJECTOR["height"], (n, info["height"])
        # The last row of each page: Playwright's own bounding box, within the viewport.
        last = page.locator("[data-screen-page]:not([hidden]) tbody tr").last
        box = last.bounding_box()
        assert box and box["y"] + box["height"] <= PROJECTOR["height"]
        expect(page.locator("[data-screen-page]:not([hidden]) .screen-page-no")).to_contain_text(
            f"/{count}"
        )
        if players == 100:
            expect(page.locator("[data-screen-pages]")).to_have_attribute("data-current", "1")
            shots(page, "page-1-of-3")
        browser_log.assert_clean()
    finally:
        context.close()


def test_pages_survive_the_refresh_and_respect_reduced_motion(
    live_server, transactional_db, browser, browser_log, shots, settings
):
    """A round of 100 being played: its seating in 2 pages, then the standings in 3. The
    htmx refresh (every second here) keeps the page on show; with reduced motion the pages
    still turn (everyone must appear) but without the fade."""
    from events import services
    from tests.conftest import add_players
    from tests.factories import EventFactory

    settings.SCREEN_POLL_SECONDS = 1
    settings.SCREEN_PAGE_SECONDS = 4
    event = EventFactory(slug="big-round", name="Big Round")
    add_players(event, 100)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    # Standings not published: a line by the round's name, the seating still fits.
    context = browser.new_context(viewport=PROJECTOR, locale="en-US")
    browser_log.watch(context)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/{event.slug}/standings/screen/")
        expect(page.locator(".screen-round .screen-wait")).to_contain_text("not published")
        info = page.locator("[data-screen-pages]").evaluate(VISIBLE_PAGE)
        assert len(info["seated"]) == 90 and info["outside"] == 0
        assert info["height"] <= PROJECTOR["height"]
        shots(page, "seating-standings-not-published")
    finally:
        context.close()
    services.set_standings_published(event, True)
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport=PROJECTOR, locale="en-US", reduced_motion=motion)
        browser_log.watch(context)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/events/{event.slug}/standings/screen/")
            box = page.locator("[data-screen-pages]")
            expect(page.locator("[data-screen-page]")).to_have_count(5)
            expect(page.locator(".screen-table")).to_have_count(20)
            info = box.evaluate(VISIBLE_PAGE)
            assert info["number"] == "1" and len(info["seated"]) == 90  # 18 tables of 5
            assert info["outside"] == 0 and info["height"] <= PROJECTOR["height"]
            if motion == "no-preference":
                shots(page, "seating-page-1")
            # Every page turn's fade (an animation only without reduced motion).
            page.evaluate(
                """() => { window.fades = []; new MutationObserver(changes => changes.forEach(c => {
                       if (c.target.classList.contains("screen-enter"))
                         window.fades.push(getComputedStyle(c.target).animationName);
                     })).observe(document.body, {attributes: true, subtree: true,
                                                 attributeFilter: ["class"]}); }"""
            )
            # Refreshed by htmx: the same page stays on show.
            page.evaluate(
                """() => new Promise(done => document.body.addEventListener(
                       "htmx:afterSwap", () => done(), {once: true}))"""
            )
            assert box.evaluate("b => b.dataset.current") == "1"
            assert page.locator("[data-screen-page]:not([hidden])").count() == 1
            expect(box).to_have_attribute("data-current", "2", timeout=8_000)
            info = box.evaluate(VISIBLE_PAGE)
            assert len(info["seated"]) == 100 - 90 and info["outside"] == 0
            fades = page.evaluate("window.fades")
            if motion == "reduce":
                assert fades == [], fades
            else:
                assert fades and set(fades) == {"screen-page-in"}, fades
            expect(box).to_have_attribute("data-current", "3", timeout=8_000)
            info = box.evaluate(VISIBLE_PAGE)
            assert len(info["names"]) == 42 and info["outside"] == 0
            if motion == "no-preference":
                shots(page, "standings-page-3")
            browser_log.assert_clean()
        finally:
            context.close()
