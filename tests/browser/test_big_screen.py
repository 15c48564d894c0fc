"""The big-screen standings view on a 1920×1080 projector (issue 7): the seating of the
round being played in large type, then — without anyone touching the screen — the
standings once the round is over and published (htmx polls the live fragment; the test
polls every second instead of every 30)."""

from io import StringIO

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

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


# Every row of the page on show, inside the projector's viewport, on at most 2 lines (a
# long name wraps rather than being cut); and the page as a whole no taller than the screen.
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
    names: rows.map(tr => tr.querySelector("td.player .screen-name").textContent.trim()),
    seated: tables.flatMap(t => [...t.querySelectorAll("li .screen-name")].map(el => el.textContent.trim())),
    outside: [...rows, ...tables].filter(el => !inside(el)).length,
    shown: [...box.querySelectorAll("[data-screen-page]")].filter(p => !p.hidden).length,
    height: document.documentElement.scrollHeight,
    twoLines: rows.every(tr => tr.getBoundingClientRect().height < 90),
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
    from tests.events.services.test_interchange import make_file

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
        count = -(-players // 20)
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
            assert info["shown"] == 1 and info["twoLines"], n
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
            shots(page, "page-1-of-5")
        browser_log.assert_clean()
    finally:
        context.close()


def test_pages_survive_the_refresh_and_respect_reduced_motion(
    live_server, transactional_db, browser, browser_log, shots, settings
):
    """A round of 100 being played: its seating in 3 pages, then the standings in 5. The
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
        assert len(info["seated"]) == 40 and info["outside"] == 0
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
            expect(page.locator("[data-screen-page]")).to_have_count(8)
            expect(page.locator(".screen-table")).to_have_count(20)
            info = box.evaluate(VISIBLE_PAGE)
            assert info["number"] == "1" and len(info["seated"]) == 40  # 8 tables of 5
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
            assert len(info["seated"]) == 40 and info["outside"] == 0
            fades = page.evaluate("window.fades")
            if motion == "reduce":
                assert fades == [], fades
            else:
                assert fades and set(fades) == {"screen-page-in"}, fades
            expect(box).to_have_attribute("data-current", "3", timeout=8_000)
            info = box.evaluate(VISIBLE_PAGE)
            assert len(info["seated"]) == 100 - 80 and info["outside"] == 0
            expect(box).to_have_attribute("data-current", "4", timeout=8_000)
            info = box.evaluate(VISIBLE_PAGE)
            assert len(info["names"]) == 20 and info["outside"] == 0
            if motion == "no-preference":
                shots(page, "standings-page-4")
            browser_log.assert_clean()
        finally:
            context.close()


# Everything a page on show says about its names: each whole (a 2-line clamp that cuts
# nothing), the seat numbers of the seating, the standings' headings side by side.
NAMES_SHOWN = """box => {
  const page = box.querySelector("[data-screen-page]:not([hidden])");
  const cut = el => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  const lines = el => Math.round(el.getBoundingClientRect().height /
                                 parseFloat(getComputedStyle(el).lineHeight));
  const names = [...page.querySelectorAll(".screen-name")];
  const heads = [...page.querySelectorAll("thead th")];
  const bottom = Math.max(...[...page.querySelectorAll(".screen-table, tbody tr")]
                             .map(el => el.getBoundingClientRect().bottom));
  return {
    number: page.dataset.screenPage,
    kind: page.classList.contains("screen-seating") ? "seating" : "standings",
    names: names.map(el => el.textContent.trim()),
    cut: names.filter(cut).map(el => el.textContent.trim()),
    maxLines: Math.max(...names.map(lines)),
    seats: [...page.querySelectorAll(".screen-table")].map(
      t => [...t.querySelectorAll(".screen-seat")].map(s => s.textContent.trim()).join("")),
    notes: [...page.querySelectorAll("td.note .screen-note")].filter(cut).length,
    headsCut: heads.filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent),
    headsOverlap: heads.slice(1).some((th, i) =>
      heads[i].getBoundingClientRect().right > th.getBoundingClientRect().left + 1),
    bottom: bottom,
    height: document.documentElement.scrollHeight,
    headingLines: lines(document.querySelector(".screen h1")),
  };
}"""

FIRST = [
    "Florencia",
    "Maximiliano",
    "Bartolomé",
    "Guadalupe",
    "Ana",
    "José",
    "Constanza",
    "Ignacio",
    "Valentina",
    "Sebastián",
]
LAST = [
    "Fernández de la Fuente Urrutia",
    "Echeverría Arancibia de la Cruz",
    "Rodríguez-Valenzuela Santibáñez",
    "González de los Ríos Montalva",
    "Villanueva Castro-Larraín Ossa",
    "Sepúlveda Undurraga y Errázuriz",
    "Pérez-Cotapos Bustamante Reyes",
    "Aldunate de la Maza Irarrázaval",
    "Montt Vergara de los Herreros",
    "Balmaceda Fernández Covarrubias",
]


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_long_names_are_whole_and_nothing_overflows(
    live_server, transactional_db, browser, browser_log, shots, settings, locale
):
    """100 players with names of about 40 characters (ten "… Fernández de la Fuente
    Urrutia") and an event name too long for one line: every name on every page whole
    (on up to 2 lines), a seat number before each seated name, the standings' headings
    side by side (Spanish "Puesto" too), notes whole, no page taller than 1080 px."""
    from events import services
    from events.models import Person
    from tests.conftest import add_players, play_round
    from tests.factories import EventFactory

    settings.SCREEN_PAGE_SECONDS = 1.5
    settings.SCREEN_POLL_SECONDS = 600
    event = EventFactory(
        slug="long-names",
        name="Campeonato Nacional de Vampire: The Eternal Struggle — Clasificatorio "
        "Continental de Santiago de Chile 2026",
    )
    registrations = add_players(event, 100)
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    for registration, name in zip(registrations, names, strict=True):
        Person.objects.filter(pk=registration.person_id).update(name=name)
    assert max(map(len, names)) >= 40
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)

    def walk(page, count, kind):
        box = page.locator("[data-screen-pages]")
        seen = {}
        for _ in range(3):
            for n in range(1, count + 1):
                expect(box).to_have_attribute("data-current", str(n), timeout=10_000)
                info = box.evaluate(NAMES_SHOWN)
                if info["number"] == str(n) and info["kind"] == kind:
                    seen[n] = info
                    if n == 1:
                        shots(page, f"{kind}-{locale}")
            if len(seen) == count:
                break
        assert sorted(seen) == list(range(1, count + 1)), kind
        shown = [name for n in sorted(seen) for name in seen[n]["names"]]
        assert sorted(shown) == sorted(names), kind
        for n, info in seen.items():
            assert info["cut"] == [] and info["maxLines"] <= 2, (kind, n, info["cut"])
            assert info["bottom"] <= PROJECTOR["height"], (kind, n, info["bottom"])
            assert info["height"] <= PROJECTOR["height"], (kind, n, info["height"])
            assert info["headingLines"] == 1, (kind, n)
            assert info["headsCut"] == [] and not info["headsOverlap"], (kind, n, info)
            assert info["notes"] == 0, (kind, n)
        return seen

    context = browser.new_context(viewport=PROJECTOR, locale=locale)
    browser_log.watch(context)
    page = context.new_page()
    try:
        url = f"{live_server.url}/events/{event.slug}/standings/screen/"
        page.goto(url)
        # The seating: 20 tables of 5 in pages of 8, seats 1 to 5 before the names.
        expect(page.locator("[data-screen-page]")).to_have_count(3)
        seating = walk(page, 3, "seating")
        assert all(seats == "12345" for info in seating.values() for seats in info["seats"])
        size = page.locator(".screen-table .screen-name").first.evaluate(
            "el => parseFloat(getComputedStyle(el).fontSize)"
        )
        assert size >= 24, size
        # The standings: 100 players in pages of 2 × 10.
        play_round(rnd)
        services.set_standings_published(event, True)
        page.goto(url)
        expect(page.locator("[data-screen-page]")).to_have_count(5)
        walk(page, 5, "standings")
        browser_log.assert_clean()
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_the_winner_and_finalists_notes_are_whole(
    live_server, transactional_db, browser, browser_log, shots, locale
):
    from django.core.management import call_command

    call_command("load_demo", stdout=StringIO())
    context = browser.new_context(viewport=PROJECTOR, locale=locale)
    browser_log.watch(context)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/demo-2026/standings/screen/")
        expect(page.locator("tr.winner")).to_have_count(1)
        notes = page.locator("td.note .screen-note")
        assert notes.count() >= 5  # the winner and the finalists
        texts = notes.all_inner_texts()
        assert ("Winner" if locale == "en-US" else "Ganador") in texts
        assert ("Finalist" if locale == "en-US" else "Finalista") in texts
        cut = notes.evaluate_all(
            "els => els.filter(el => el.scrollWidth > el.clientWidth + 1"
            " || el.getBoundingClientRect().right > el.closest('td').getBoundingClientRect().right + 1)"
            ".length"
        )
        assert cut == 0
        winner = page.locator("tr.winner .screen-name")
        assert winner.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
        assert page.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
        shots(page, f"final-{locale}")
        browser_log.assert_clean()
    finally:
        context.close()


PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize("locale", ["en-US", "es-CL"])
def test_on_a_phone_names_show_and_the_turning_can_be_paused(
    live_server, demo, browser, browser_log, shots, settings, locale
):
    """Issue 14: on a 360 px phone the final standings (2 pages) show every name of the
    page on show (the projector's fixed columns left the names 0 px), and a button pauses
    the turning (WCAG 2.2.2), reached with the keyboard, its state in aria-pressed."""
    settings.SCREEN_PAGE_SECONDS = 1
    context = browser.new_context(viewport=PHONE, locale=locale)
    browser_log.watch(context)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/demo-2026/standings/screen/")
        box = page.locator("[data-screen-pages]")
        expect(page.locator("[data-screen-page]")).to_have_count(2)
        names = page.locator("[data-screen-page]:not([hidden]) td.player .screen-name")
        widths = names.evaluate_all(
            "els => els.map(e => [e.textContent.trim(), e.getBoundingClientRect().width,"
            " e.scrollWidth <= e.clientWidth + 1])"
        )
        assert len(widths) >= 8
        for name, width, whole in widths:
            assert name and width >= 60 and whole, (name, width)
        # "Winner" and "Finalist" on one line each, not a letter a line.
        notes = page.locator("[data-screen-page]:not([hidden]) td.note .screen-note")
        heights = notes.evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(e).fontSize))"
        )
        assert len(heights) == 5 and max(heights) < 2, heights
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shots(page, f"phone-{locale}")
        pause = page.locator("#screen-pause")
        expect(pause).to_be_visible()
        expect(pause).to_have_attribute("aria-pressed", "false")
        for _ in range(10):  # the keyboard reaches it
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "screen-pause":
                break
        assert page.evaluate("document.activeElement.id") == "screen-pause"
        page.keyboard.press("Enter")
        expect(pause).to_have_attribute("aria-pressed", "true")
        shown = box.get_attribute("data-current")
        page.wait_for_timeout(3_000)  # three turns' time, and three refreshes
        assert box.get_attribute("data-current") == shown
        page.keyboard.press(" ")
        expect(pause).to_have_attribute("aria-pressed", "false")
        expect(box).not_to_have_attribute("data-current", shown, timeout=5_000)
        # One page only (the seating of demo-next's round 1): nothing turns, no button.
        page.goto(f"{live_server.url}/events/demo-next/standings/screen/")
        expect(page.locator("[data-screen-page]")).to_have_count(1)
        expect(pause).to_be_hidden()
        browser_log.assert_clean()
    finally:
        context.close()
