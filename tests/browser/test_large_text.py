"""Text at 200 % on a phone (WCAG 1.4.4 and 1.4.10, issue 14): the controls people type
into stay usable. The page is a 360 px phone whose reader set the text size to 200 %
(emulated by the root's font size, ``html { font-size: 200% }``: the site sizes its text in
rem and em, so everything follows). Checked, in English and Spanish:

- the VEKN result sheet: every VP input whole inside its card, at least 44 px wide;
- a league match page: the team names of the header never break inside a word, and the
  report form's score inputs and date-time field stay inside the form (the date and the
  time wrap inside the field rather than being cut).

Screenshots: ``test-artifacts/browser/large_text_*``.
"""

from io import StringIO

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DEMO_PASSWORD = "demo-arbitro"


@pytest.fixture
def demo(transactional_db):
    """The demo data; round 1 of ``demo-next`` seated; a scheduled match of ``player``'s team."""
    from django.core.management import call_command

    from events import services
    from events.models import Event, Registration
    from leagues.models import Match

    call_command("load_demo", stdout=StringIO())
    upcoming = Event.objects.get(slug="demo-next")
    upcoming.registrations.update(status=Registration.Status.CHECKED_IN)
    services.seat_next_round(upcoming, seed=1)
    match = (
        Match.objects.filter(
            competition__slug="anfpes-t24-primera-a", status="scheduled", home__code="t1"
        )
        .order_by("round", "id")
        .first()
    )
    return {"match": f"/competitions/anfpes-t24-primera-a/matches/{match.code}/"}


def log_in(page, base, username):
    """Signs in whatever the page's language (the sign-out button's name is not read)."""
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(DEMO_PASSWORD)
    click_and_wait(page, page.locator("main form button[type=submit]"))
    assert "/accounts/login/" not in page.url


def large_text(page):
    """The reader's text size at 200 % (CSSOM: the content security policy allows it)."""
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    size = page.locator("main p").first.evaluate("p => parseFloat(getComputedStyle(p).fontSize)")
    assert size >= 30, f"body text did not grow: {size} px"


# The boxes of ``selector`` and of their closest ``container``: [left, right, width] each,
# and the page's own width.
BOXES = """([selector, container]) => [...document.querySelectorAll(selector)].map(e => {
  const r = e.getBoundingClientRect(), c = e.closest(container).getBoundingClientRect();
  return {left: r.left, right: r.right, width: r.width, height: r.height,
          inLeft: c.left, inRight: c.right};
})"""

# Words of each team name that the browser broke over two lines (a Range per word gives
# one rectangle per line it is on).
BROKEN_WORDS = """() => [...document.querySelectorAll('h1.match-title .team')].flatMap(team => {
  const text = team.firstChild, broken = [];
  const re = /\\S+/g; let m;
  while ((m = re.exec(text.data))) {
    const range = document.createRange();
    range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) broken.push(m[0]);
  }
  return broken;
})"""


def inside(boxes):
    return [b for b in boxes if b["left"] < b["inLeft"] - 0.5 or b["right"] > b["inRight"] + 0.5]


@pytest.mark.parametrize("locale", ["en-US", "es-CL"])
def test_controls_stay_usable_at_200_percent_text(
    live_server, demo, browser, browser_log, shots, locale
):
    context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True)
    browser_log.watch(context)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "scorekeeper")
        page.goto(f"{live_server.url}/events/demo-next/manage/rounds/1/tables/1/")
        large_text(page)
        expect(page.locator("input.vp")).to_have_count(5)
        vp = page.evaluate(BOXES, ["input.vp", ".card"])
        assert not inside(vp), vp
        assert all(b["width"] >= 44 and b["height"] >= 44 for b in vp), vp
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        with page.expect_response(lambda r: "/check/" in r.url) as checked:
            page.locator("input.vp").first.fill("2")  # typed into, with the live check
        assert checked.value.status == 200
        shots(page, f"sheet-{locale}")

        log_in(page, live_server.url, "player")
        page.goto(f"{live_server.url}{demo['match']}")
        large_text(page)
        assert page.evaluate(BROKEN_WORDS) == []
        teams = page.evaluate(BOXES, ["h1.match-title .team", "main"])
        assert len(teams) == 2 and not inside(teams), teams
        scores = page.evaluate(BOXES, [".score-inputs input", "form"])
        assert len(scores) == 2 and not inside(scores), scores
        when = page.locator("input[type=datetime-local]").first
        expect(when).to_be_visible()
        assert not inside(page.evaluate(BOXES, ["input[type=datetime-local]", "form"]))
        # Its content fits the width it has: the narrowest it can be (date and time on
        # separate lines) is no wider than the field.
        fits = when.evaluate(
            """e => { const shown = e.getBoundingClientRect().width;
              e.style.width = 'min-content'; const least = e.getBoundingClientRect().width;
              e.style.width = ''; return [least, shown]; }"""
        )
        assert fits[0] <= fits[1] + 0.5, fits
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shots(page, f"match-{locale}")
        browser_log.assert_clean()
    finally:
        context.close()
