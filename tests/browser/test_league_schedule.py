"""Two league players agree a match time on their phones, at the same time in two browser
contexts (issue 17, "Done when"): player A proposes three times, player B accepts one,
both see the agreed time on the match page and on their fixtures.

Setup through the ORM is limited to what a person cannot do in the app: the accounts and
the season file an organiser imports.
"""

from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.pages import log_in
from tests.leagues.seasons import sixteen

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 780}
TABLET = {"width": 820, "height": 1180}
OUT = Path("/tmp/shots/wt-season")


@pytest.fixture
def season(make_user):
    from django.contrib.auth import get_user_model

    from leagues.models import SeasonRole
    from leagues.services import import_season

    accounts = {name: make_user(name) for name in ("user1", "user2", "staff")}
    start = timezone.localdate() - timedelta(days=2)
    season = import_season(sixteen(start=start.isoformat()))
    staff = get_user_model().objects.get(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    return accounts


def context_of(browser, browser_log, viewport):
    context = browser.new_context(
        viewport=viewport, locale="en-US", has_touch=True, is_mobile=True, device_scale_factor=1
    )
    context.set_default_timeout(5_000)
    context.set_default_navigation_timeout(10_000)
    browser_log.watch(context)
    return context


def snap(page, shots, label):
    shots(page, label)
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{label}.png"), full_page=True)


def test_two_players_agree_a_match_time(live_server, season, browser, browser_log, shots):
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from leagues.models import Match, Team

    base = live_server.url
    match = Match.objects.select_related("home", "away", "competition").get(
        Q(home__code="t1") | Q(away__code="t1"), competition__slug="t24-primera-b", round=1
    )
    opponent = match.away if match.home.code == "t1" else match.home
    Team.objects.filter(code="t2").update(user=None)
    Team.objects.filter(pk=opponent.pk).update(user=get_user_model().objects.get(username="user2"))
    zone = ZoneInfo("America/Santiago")
    first = timezone.localtime(timezone.now() + timedelta(hours=6), zone).replace(
        minute=0, second=0, microsecond=0
    )
    times = [first + timedelta(hours=h) for h in (0, 2, 4)]
    assert times[-1] < match.final_deadline
    url = f"{base}/competitions/{match.competition.slug}/matches/{match.code}/"

    a_context = context_of(browser, browser_log, PHONE)
    b_context = context_of(browser, browser_log, PHONE)
    a, b = a_context.new_page(), b_context.new_page()
    try:
        log_in(a, base, "user1", season["user1"].password)
        log_in(b, base, "user2", season["user2"].password)
        a.goto(url)
        b.goto(url)
        expect(a.locator("#schedule")).to_contain_text("No time agreed yet.")
        # A refused time is named in the section (htmx swaps the 400 answer in).
        late = timezone.localtime(match.final_deadline + timedelta(days=2), zone)
        a.get_by_label("Time 1").fill(late.strftime("%Y-%m-%dT%H:%M"))
        a.get_by_role("button", name="Send the times").click()
        expect(a.locator("#schedule [role=alert]")).to_contain_text("final deadline")
        for n, t in enumerate(times, start=1):
            a.get_by_label(f"Time {n}").fill(t.strftime("%Y-%m-%dT%H:%M"))
        snap(a, shots, "phone-propose")
        a.get_by_role("button", name="Send the times").click()  # htmx: no navigation
        expect(a.locator("#schedule")).to_contain_text("waiting for your opponent")
        expect(a.locator("#schedule li")).to_have_count(3)

        # B, on the other phone, reloads and sees the three times.
        b.reload()
        accept = b.get_by_role("button", name="Accept this time")
        expect(accept).to_have_count(3)
        box = accept.nth(1).bounding_box()
        assert box["height"] >= 40  # a large touch target
        snap(b, shots, "phone-to-accept")
        accept.nth(1).click()
        agreed = b.locator("#schedule [data-agreed-time]")
        expect(agreed).to_be_visible()
        snap(b, shots, "phone-agreed")

        # Both see the agreed time: A's match page and both fixtures pages.
        a.reload()
        expect(a.locator("#schedule [data-agreed-time]")).to_be_visible()
        shown = a.locator("#schedule [data-agreed-time]").inner_text()
        assert f"{times[1].hour}:00" in shown.replace(" ", "") or str(times[1].day) in shown
        for page in (a, b):
            page.goto(f"{base}/players/me/fixtures/")
            expect(page.locator("[data-agreed-time]").first).to_be_visible()
        snap(a, shots, "phone-my-fixtures")
        tablet = context_of(browser, browser_log, TABLET)
        t = tablet.new_page()
        log_in(t, base, "user1", season["user1"].password)
        t.goto(url)
        snap(t, shots, "tablet-agreed")
        # League staff: the fixtures of matchday 1 have no agreed time; its initial
        # deadline is five days away, so none is flagged yet, and no screenshot reused.
        staff = tablet.new_page()
        staff.context.clear_cookies()
        log_in(staff, base, "staff", season["staff"].password)
        staff.goto(f"{base}/seasons/t24/manage/scheduling/")
        expect(staff.locator("#flagged")).to_contain_text("Nothing to flag.")
        snap(staff, shots, "tablet-staff-scheduling")
        staff.set_viewport_size(PHONE)
        snap(staff, shots, "phone-staff-scheduling")
        tablet.close()
        assert match.time_proposals.filter(status="accepted").get().starts_at == times[1]
    finally:
        a_context.close()
        b_context.close()
    browser_log.assert_clean()
