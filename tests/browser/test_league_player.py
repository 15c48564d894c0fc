"""A league player on a phone: reports a result with a screenshot, the opponent confirms
it, and the public table and compliance table change (issue 4, "Done when").

Setup through the ORM is limited to what a person cannot do in the app: the accounts and
the season file an organiser imports with ``manage.py import_season``.
"""

import io
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, log_in, messages
from tests.leagues.seasons import sixteen

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def season(make_user):
    from django.contrib.auth import get_user_model

    from leagues.services import import_season

    accounts = {name: make_user(name) for name in ("user1", "user2")}
    start = timezone.localdate() - timedelta(days=2)
    # A 16-team double round robin whose matchday 1 started two days ago.
    import_season(sixteen(start=start.isoformat()))
    assert get_user_model().objects.filter(league_teams__isnull=False).count() == 2
    return accounts


def screenshot_file(tmp_path):
    path = tmp_path / "result.png"
    image = Image.new("RGB", (640, 360), (30, 90, 160))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    path.write_bytes(buffer.getvalue())
    return path


def phone(browser, browser_log):
    context = browser.new_context(
        viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True, device_scale_factor=2
    )
    context.set_default_timeout(5_000)
    context.set_default_navigation_timeout(10_000)
    browser_log.watch(context)
    return context


def table_row(page, team):
    return page.locator("#table tr", has=page.get_by_text(team, exact=True))


def test_player_reports_opponent_confirms_tables_change(
    live_server, season, browser, browser_log, shots, tmp_path
):
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from leagues.models import Match, Team

    base = live_server.url
    match = Match.objects.select_related("home", "away").get(
        Q(home__code="t1") | Q(away__code="t1"), competition__slug="t24-primera-b", round=1
    )
    opponent = match.away if match.home.code == "t1" else match.home
    # user2 plays Team 1's first opponent (the import linked user2 to t2).
    Team.objects.filter(code="t2").update(user=None)
    Team.objects.filter(pk=opponent.pk).update(user=get_user_model().objects.get(username="user2"))

    contexts = [phone(browser, browser_log) for _ in range(3)]
    home, away, public = (c.new_page() for c in contexts)
    try:
        # The public sees the table before: nobody has points, nothing is due.
        public.goto(f"{base}/competitions/t24-primera-b/")
        expect(table_row(public, "Team 1")).to_contain_text("0")
        public.goto(f"{base}/seasons/t24/compliance/")
        shots(public, "compliance-before")

        # Player 1 reports from the phone.
        log_in(home, base, "user1", season["user1"].password)
        home.goto(f"{base}/players/me/fixtures/")
        shots(home, "my-fixtures")
        click_and_wait(home, home.get_by_role("link", name="Report the result").first)
        expect(home.get_by_role("heading", name="Report the result")).to_be_visible()
        home.get_by_label("Team 1", exact=True).fill("3")
        home.get_by_label(opponent.name, exact=True).fill("1")
        posted = timezone.localtime(timezone.now(), ZoneInfo("America/Santiago"))
        home.get_by_label("Posted in the chat at").fill(posted.strftime("%Y-%m-%dT%H:%M"))
        home.get_by_label("Screenshot of the result").set_input_files(screenshot_file(tmp_path))
        shots(home, "report-form")
        click_and_wait(home, home.get_by_role("button", name="Send the result"))
        expect(messages(home)).to_contain_text("Your opponent has to confirm it")
        score = "3–1" if match.home.code == "t1" else "1–3"
        expect(home.locator("#open-report")).to_contain_text(score)
        shots(home, "report-sent")

        # Nothing changes in public before the confirmation.
        public.goto(f"{base}/competitions/t24-primera-b/")
        expect(public.locator("#fixtures")).not_to_contain_text(score)

        # The opponent sees it on their fixtures page, opens it and confirms.
        log_in(away, base, "user2", season["user2"].password)
        away.goto(f"{base}/players/me/fixtures/")
        click_and_wait(away, away.get_by_role("link", name="confirm the result"))
        image = away.locator("#open-report img.screenshot")
        expect(image).to_be_visible()
        assert image.evaluate("img => img.complete && img.naturalWidth") == 640
        shots(away, "to-confirm")
        click_and_wait(away, away.get_by_role("button", name="Confirm this result"))
        expect(messages(away)).to_contain_text("Result confirmed.")
        expect(away.locator("h1")).to_contain_text(score)

        # The public table and compliance table changed.
        public.goto(f"{base}/competitions/t24-primera-b/")
        row = table_row(public, "Team 1")
        expect(row).to_contain_text("3")
        expect(public.locator("#table tbody tr").first).to_contain_text("Team 1")
        shots(public, "table-after")
        public.goto(f"{base}/seasons/t24/compliance/")
        expect(public.locator("main")).to_contain_text(re.compile(r"100(\.0)?\s*%"))
        shots(public, "compliance-after")
        # The screenshot is now public evidence on the match page.
        public.goto(f"{base}/competitions/t24-primera-b/matches/{match.code}/")
        expect(public.locator("#reports img.thumb")).to_be_visible()
        shots(public, "match-public")
    finally:
        for context in contexts:
            context.close()
    browser_log.assert_clean()
