"""A league administrator creates a season of 16 teams from the site (issue 14, "Done
when"): pastes the teams with their owners, sees a line with a problem in the preview,
fixes it, sees the calendar, creates the season and lands on its staff pages; the public
season and competition pages show it. Screenshots at 360 px (a phone) and 1366 px.

Setup through the ORM is limited to what a person cannot do in the app: the accounts,
and the site administrator's grant of the "League administrators" group.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture
def league_admin(make_user):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission

    account = make_user("ligaadmin")
    for i in range(1, 17):
        make_user(f"dueno{i:02d}")
    make_user("juez")
    group = Group.objects.create(name="League administrators")
    group.permissions.add(Permission.objects.get(codename="add_season"))
    get_user_model().objects.get(username="ligaadmin").groups.add(group)
    return account


def context_of(browser, browser_log, viewport):
    context = browser.new_context(viewport=viewport, locale="en-US", has_touch=True)
    context.set_default_timeout(5_000)
    context.set_default_navigation_timeout(20_000)
    browser_log.watch(context)
    return context


def test_a_league_administrator_creates_a_season_of_sixteen_teams(
    live_server, league_admin, browser, browser_log, shots
):
    from leagues.models import Competition, Season

    base = live_server.url
    phone = context_of(browser, browser_log, PHONE)
    desktop = context_of(browser, browser_log, DESKTOP)
    page = phone.new_page()
    try:
        log_in(page, base, league_admin.username, league_admin.password)
        click_and_wait(page, page.get_by_role("link", name="Create a league season"))
        expect(page.get_by_role("heading", name="New league season")).to_be_visible()
        page.get_by_label("Name", exact=True).first.fill("ANFPES Temporada 25")
        page.get_by_label("Address").fill("anfpes-t25")
        page.locator("#id_primera_a_start").fill("2026-03-02")
        teams = [f"Equipo {i:02d}; dueno{i:02d}" for i in range(1, 17)]
        # A typing mistake: team 16 pasted with team 15's name.
        typo = [*teams[:15], "Equipo 15; dueno16"]
        page.locator("#id_primera_a_teams").fill("\n".join(typo))
        page.locator("#id_tribunal").fill("juez")
        shots(page, "form-360")

        # The preview (htmx) names the bad line; nothing is saved.
        page.get_by_role("button", name="Preview").click()
        preview = page.locator("#preview")
        expect(preview).to_contain_text("Fix the problems")
        expect(preview.locator("tr.line-problem")).to_have_count(1)
        expect(preview.locator("tr.line-problem")).to_contain_text("already on Primera A, line 15")
        shots(page, "preview-problem-360")
        assert not Season.objects.filter(slug="anfpes-t25").exists()

        # Fixed: ready, with the calendar of a 16-team double round robin.
        page.locator("#id_primera_a_teams").fill("\n".join(teams))
        page.get_by_role("button", name="Preview").click()
        expect(preview).to_contain_text("Ready")
        expect(page.locator("#preview-calendar")).to_contain_text(
            "16 teams, 30 matchdays, 240 matches"
        )
        expect(page.locator("#preview-calendar")).to_contain_text("2026-03-09 23:59")
        shots(page, "preview-ready-360")

        # The same form at 1366 px, for the screenshot.
        wide = desktop.new_page()
        log_in(wide, base, league_admin.username, league_admin.password)
        wide.goto(f"{base}/leagues/new/")
        wide.get_by_label("Name", exact=True).first.fill("ANFPES Temporada 25")
        wide.get_by_label("Address").fill("anfpes-t25")
        wide.locator("#id_primera_a_teams").fill("\n".join(typo))
        wide.get_by_role("button", name="Preview").click()
        expect(wide.locator("#preview tr.line-problem")).to_have_count(1)
        shots(wide, "preview-1366")

        # Create: the season's staff pages, with its deadlines and cups.
        click_and_wait(page, page.get_by_role("button", name="Create the season"))
        expect(messages(page)).to_contain_text("Season ANFPES Temporada 25 created: 16 teams.")
        expect(page).to_have_url(f"{base}/seasons/anfpes-t25/manage/")
        expect(page.get_by_role("link", name="Champagne League draw")).to_be_visible()
        shots(page, "created-360")
        league = Competition.objects.get(slug="anfpes-t25-primera-a")
        assert league.entries.count() == 16 and league.matches.count() == 240
        assert set(league.season.roles.values_list("user__username", "role")) == {
            ("ligaadmin", "staff"),
            ("juez", "tribunal"),
        }

        # The public pages show it.
        page.goto(f"{base}/competitions/anfpes-t25-primera-a/")
        expect(page.locator("#table tbody tr")).to_have_count(16)
        wide.goto(f"{base}/seasons/anfpes-t25/")
        expect(wide.locator("main")).to_contain_text("Primera A")
        shots(wide, "season-1366")
    finally:
        phone.close()
        desktop.close()
    browser_log.assert_clean()
