"""The content security policy in a real browser (issue 7): the main pages of a player, a
league visitor, staff and a judge load under the policy with no violation reported —
no inline script, handler or style left — and htmx still works.

Setup through the ORM and the services: the accounts, an event with a played and published
round, and a season file; the pages themselves are visited as a person would.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in

pytestmark = pytest.mark.browser

# Records every CSP violation the page reports, from the first script on.
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile || document.location.pathname}:${e.lineNumber}`);
});
"""


@pytest.fixture
def setup(organiser, organisation):
    from django.contrib.auth import get_user_model

    from events import services
    from events.models import EventRole
    from events.permissions import Role
    from leagues.models import Team
    from leagues.services import import_season
    from tests.conftest import add_players, play_round
    from tests.factories import EventFactory
    from tests.leagues.seasons import small_season

    olga = get_user_model().objects.get(username=organiser.username)
    event = EventFactory(organisation=organisation, slug="csp-open", name="CSP Open")
    EventRole.objects.create(event=event, user=olga, role=Role.ORGANISER)
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    play_round(rnd)
    services.set_standings_published(event, True)
    season = import_season(small_season())
    Team.objects.filter(season=season, code="t1").update(user=olga)
    return {"event": event, "account": organiser}


def _violations(page) -> list[str]:
    return page.evaluate("() => window.__cspViolations || []")


def test_main_pages_load_under_the_policy_without_violations(
    live_server, setup, new_context, browser_log, shots
):
    base = live_server.url
    context = new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    csp_console = []
    context.on(
        "console",
        lambda m: csp_console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page = context.new_page()
    seen = {}

    def visit(path: str, label: str):
        response = page.goto(f"{base}{path}")
        assert response.status == 200, f"{path}: {response.status}"
        assert "script-src 'self'" in response.headers["content-security-policy"]
        expect(page.locator("h1").first).to_be_visible()
        seen[label] = _violations(page)

    # Anonymous visitor.
    visit("/", "home")
    visit("/events/csp-open/standings/", "public standings")
    visit("/competitions/t24-primera-a/", "league competition")
    # The league table's numbers do not wrap: a class rule now, no style attribute.
    number = page.locator("table.league-table td.num").first
    assert number.evaluate("td => getComputedStyle(td).whiteSpace") == "nowrap"
    visit("/competitions/t24-primera-a/matches/m1/", "match")
    visit("/accounts/password-reset/", "password reset")

    # Staff: sign in through the form, then the round page and the judge's first step.
    log_in(page, base, setup["account"].username, setup["account"].password)
    visit("/events/csp-open/manage/rounds/1/", "staff round")
    shots(page, "staff-round")
    click_and_wait(page, page.get_by_role("link", name="Incident").first)
    expect(page.locator("h1")).to_contain_text("Table 1")
    seen["judge incident: who"] = _violations(page)
    click_and_wait(page, page.locator(".bigpick a").first)
    expect(page.locator("h1")).to_contain_text("Infraction")
    # htmx under the policy: the search filters the infraction list in place.
    search = page.get_by_role("searchbox")
    with page.expect_response(re.compile(r"/incidents/new/")):
        search.fill("3.3")
    expect(page.locator("#infractions a")).to_have_count(1)
    seen["judge incident: infraction search (htmx)"] = _violations(page)
    click_and_wait(page, page.locator("#infractions a").first)
    expect(page.locator("#preview")).to_be_visible()
    seen["judge incident: preview"] = _violations(page)
    shots(page, "incident")

    # The player's fixtures: the private calendar address selects itself on a click
    # (static/js/app.js instead of an onclick attribute).
    visit("/players/me/fixtures/", "my fixtures")
    feed = page.locator("input[data-select-on-click]")
    feed.click()
    assert feed.evaluate("el => el.selectionStart === 0 && el.selectionEnd === el.value.length")
    visit("/players/me/", "my page")

    problems = {label: found for label, found in seen.items() if found}
    assert problems == {}, problems
    assert csp_console == []
    assert len(seen) >= 11
    browser_log.assert_clean()
