"""Accessibility of the key pages with axe-core (issue 7), through Playwright and the
``axe-playwright-python`` package (which bundles axe-core's script; no npm).

The demo data (``manage.py load_demo``: a finished VEKN event, one ready to run, the league
seasons with a final phase) plus a first round seated and published on the event ready to
run. Each page is checked at phone, tablet and projector sizes: no violation of impact
"serious" or "critical". On failure the message lists every rule id, its impact and the
offending nodes (their selectors and HTML), page by page.
"""

from io import StringIO

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, NAVIGATION_TIMEOUT_MS
from tests.browser.pages import log_in

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
PROJECTOR = {"width": 1920, "height": 1080}
SIZES = {"phone": PHONE, "tablet": TABLET, "projector": PROJECTOR}
DEMO_PASSWORD = "demo-arbitro"
SERIOUS = {"serious", "critical"}


@pytest.fixture
def demo(transactional_db):
    """The demo data, and round 1 of ``demo-next`` seated, published and started."""
    from django.core.management import call_command

    from events import services
    from events.models import Event, Registration
    from leagues.models import Match

    call_command("load_demo", stdout=StringIO())
    upcoming = Event.objects.get(slug="demo-next")
    upcoming.registrations.update(status=Registration.Status.CHECKED_IN)
    rnd = services.seat_next_round(upcoming, seed=1)
    services.set_seating_published(rnd, True)
    match = (
        Match.objects.filter(competition__slug="anfpes-t24-primera-a")
        .order_by("round", "id")
        .first()
    )
    return {"match": f"/competitions/anfpes-t24-primera-a/matches/{match.code}/"}


def _context(browser, browser_log, size, locale="en-US"):
    context = browser.new_context(viewport=size, locale=locale, has_touch=size["width"] < 1000)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    browser_log.watch(context)
    return context


def _serious(results) -> list[str]:
    """Each serious or critical violation as ``rule (impact): selector — html`` lines."""
    lines = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in SERIOUS:
            continue
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node.get("target", []))
            lines.append(
                f"{violation['id']} ({violation['impact']}): {target} — {node['html'][:160]}"
            )
    return lines


class Checker:
    def __init__(self, page, base):
        self.page, self.base = page, base
        self.axe = Axe()
        self.found: dict[str, list[str]] = {}
        self.rules: set[str] = set()
        self.minor: set[str] = set()

    def check(self, path: str, label: str | None = None, status: int = 200):
        response = self.page.goto(f"{self.base}{path}")
        assert response.status == status, f"{path}: {response.status}"
        expect(self.page.locator("h1").first).to_be_visible()
        self.run(label or path)

    def run(self, label: str):
        """axe on the page as it is now; on a phone, also no sideways scrolling."""
        results = self.axe.run(self.page)
        serious = _serious(results)
        self.minor |= {
            f"{v['id']} ({v.get('impact')})"
            for v in results.response["violations"]
            if v.get("impact") not in SERIOUS
        }
        self.rules |= {line.split(" ", 1)[0] for line in serious}
        width = self.page.evaluate("document.documentElement.scrollWidth")
        viewport = self.page.viewport_size["width"]
        if width > viewport:
            serious.append(f"page wider than the screen: {width} px > {viewport} px")
            self.rules.add("horizontal-scroll")
        if serious:
            self.found[label] = serious

    def assert_clean(self, size_name: str):
        report = "\n".join(
            f"[{size_name}] {page}:\n  " + "\n  ".join(lines) for page, lines in self.found.items()
        )
        print(report or f"[{size_name}] no serious or critical violation")
        print(f"[{size_name}] lesser findings (not failing): {sorted(self.minor) or 'none'}")
        assert not self.found, f"axe rules {sorted(self.rules)}:\n{report}"


PUBLIC = [
    "/",
    "/events/demo-2026/",
    "/events/demo-2026/standings/",
    "/events/demo-2026/seating/",
    "/events/demo-next/seating/",
    "/competitions/anfpes-t24-primera-a/",  # a league table
    "/competitions/anfpes-t23-primera-a/",  # a final phase's bracket
    "/events/demo-2026/results/",
    "/seasons/anfpes-t24/",
    "/seasons/anfpes-t24/compliance/",
    "/accounts/login/",
    "/events/demo-2026/standings/screen/",
    "/events/demo-next/standings/screen/",  # the seating of the round being played
    "/competitions/anfpes-t24-primera-a/screen/",  # a league table on the big screen
]


@pytest.mark.parametrize("size_name", ["phone", "tablet", "projector"])
def test_key_pages_have_no_serious_violations(live_server, demo, browser, browser_log, size_name):
    context = _context(browser, browser_log, SIZES[size_name])
    page = context.new_page()
    checker = Checker(page, live_server.url)
    try:
        for path in PUBLIC:
            checker.check(path)
        checker.check(demo["match"], "league match page")
        checker.check("/events/no-such-event/", "page not found", status=404)
        if size_name != "projector":
            # Staff on a tablet or phone: the judge's incident page and the scorekeeper's
            # result page; the player's own sanctions.
            log_in(page, live_server.url, "judge", DEMO_PASSWORD)
            checker.check("/events/demo-next/manage/rounds/1/", "judge: round")
            checker.check("/events/demo-next/manage/rounds/1/tables/1/incident/", "judge: incident")
            # the next steps of the incident: the infraction list, then the penalty preview
            with page.expect_navigation():
                page.locator(".bigpick a").first.click()
            checker.run("judge: incident, infraction")
            with page.expect_navigation():
                page.locator("#infractions a").first.click()
            expect(page.locator("#preview")).to_be_visible()
            checker.run("judge: incident, preview")
            checker.check("/events/demo-next/manage/rounds/1/tables/1/", "judge: table result")
            page.get_by_role("button", name="Sign out").click()
            log_in(page, live_server.url, "scorekeeper", DEMO_PASSWORD)
            checker.check(
                "/events/demo-next/manage/rounds/1/tables/1/", "scorekeeper: table result"
            )
            page.get_by_role("button", name="Sign out").click()
            log_in(page, live_server.url, "player", DEMO_PASSWORD)
            checker.check("/players/me/sanctions/", "player: my sanctions")
            checker.check(demo["match"], "player: league match page")
            checker.check("/players/me/", "player: my page")
            checker.check("/players/me/fixtures/", "player: my fixtures")
            page.get_by_role("button", name="Sign out").click()
            log_in(page, live_server.url, "organiser", DEMO_PASSWORD)
            checker.check("/events/demo-next/manage/", "organiser: dashboard")
            checker.check("/events/demo-2026/manage/standings/", "organiser: standings")
            checker.check("/seasons/anfpes-t24/manage/", "organiser: league season")
        checker.assert_clean(size_name)
        browser_log.assert_clean()
    finally:
        context.close()


def test_public_pages_in_spanish_have_no_serious_violations(
    live_server, demo, browser, browser_log
):
    """The Spanish pages (the browser asks for Spanish): ``lang="es"`` and the same checks."""
    context = _context(browser, browser_log, PHONE, locale="es-CL")
    page = context.new_page()
    checker = Checker(page, live_server.url)
    try:
        for path in PUBLIC:
            checker.check(path)
            assert page.locator("html").get_attribute("lang") == "es", path
        checker.assert_clean("phone, Spanish")
        browser_log.assert_clean()
    finally:
        context.close()


def test_no_sideways_scroll_at_320_px(live_server, demo, browser, browser_log):
    """Reflow (WCAG 1.4.10, issue 14): at 320 px wide the main public pages and the judge's
    round page scroll only up and down; a wide table scrolls inside its own box."""
    context = _context(browser, browser_log, {"width": 320, "height": 640})
    page = context.new_page()
    wide = []

    def check(path):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, f"{path}: {response.status}"
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 320:
            wide.append(f"{path}: {width} px")

    try:
        for path in ["/", "/events/demo-2026/", "/events/demo-2026/standings/"]:
            check(path)
        for path in ["/events/demo-2026/seating/", "/events/demo-2026/results/"]:
            check(path)
        check("/competitions/anfpes-t24-primera-a/")
        check("/accounts/login/")
        log_in(page, live_server.url, "judge", DEMO_PASSWORD)
        check("/events/demo-next/manage/rounds/1/")
        assert not wide, "pages wider than 320 px:\n" + "\n".join(wide)
        browser_log.assert_clean()
    finally:
        context.close()


FOCUSED = """() => { const e = document.activeElement;
  return [e.tagName, e.textContent.trim().replace(/\\s+/g, ' '), e.getAttribute('tabindex'),
          e.closest('li, section') ? e.closest('li, section').id : null]; }"""


def test_focus_follows_the_players_rows_swaps(
    live_server, organisation, organiser, new_context, browser_log
):
    """Issue 14 (WCAG 2.4.3): checking a player in swaps their row (htmx) and the button
    pressed is gone; the focus goes to the new row's name and status, not back to the
    page's start. A drop's confirmation card takes the focus on its heading, and after
    the drop the focus is on the row again."""
    from tests.browser.pages import add_player, create_event, player_row

    page = new_context().new_page()
    base = live_server.url
    log_in(page, base, organiser.username, organiser.password)
    create_event(page, base, organisation.slug, name="Foco", slug="foco", rounds=2)
    page.goto(f"{base}/events/foco/manage/players/")
    add_player(page, "Ana Focal", "3300001", checked_in=False)
    add_player(page, "Berta Foco", "3300002", checked_in=False)

    row = player_row(page, "Ana Focal")
    row.get_by_role("button", name="Check in", exact=True).click()
    expect(player_row(page, "Ana Focal").locator(".badge")).to_have_text("Checked in")
    expect(player_row(page, "Ana Focal").locator("[tabindex='-1']")).to_be_focused()
    tag, text, tabindex, where = page.evaluate(FOCUSED)
    assert tag == "SPAN" and text.startswith("Ana Focal") and "Checked in" in text
    assert tabindex == "-1" and where.startswith("reg-")
    # Tab goes on from the row: its next control.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Edit"

    player_row(page, "Berta Foco").get_by_role("button", name="Drop", exact=True).click()
    expect(page.locator(".confirm h2")).to_be_focused()
    tag, text, tabindex, where = page.evaluate(FOCUSED)
    assert (tag, text, tabindex) == ("H2", "Drop Berta Foco?", "-1"), text
    assert where.startswith("confirm-")
    page.locator(".confirm").get_by_role("button", name="Drop Berta Foco").click()
    expect(player_row(page, "Berta Foco").locator(".badge")).to_have_text("Dropped")
    expect(player_row(page, "Berta Foco").locator("[tabindex='-1']")).to_be_focused()
    tag, text, _tabindex, where = page.evaluate(FOCUSED)
    assert tag == "SPAN" and text.startswith("Berta Foco") and "Dropped" in text
    browser_log.assert_clean()
