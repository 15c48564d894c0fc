"""The match page header of a match decided on penalties fits a 360 px phone (issue 14:
it was 547 px wide): the shoot-out note wraps under the score and long team names wrap."""

import pytest

from tests.leagues.seasons import small_season

pytestmark = pytest.mark.browser


@pytest.fixture
def penalties_match(transactional_db):
    from leagues.models import Match
    from leagues.services import import_season

    data = small_season()
    names = {"t1": "Deportivo Universidad Católica", "t2": "Club Atlético Independiente"}
    for team in data["teams"]:
        team["name"] = names.get(team["id"], team["name"])
    data["competitions"][2]["matches"].append(
        {"id": "k4", "round": 2, "home": "t1", "away": "t2", "tie": "f2", "leg": 1}
    )
    import_season(data)
    Match.objects.filter(competition__slug="t24-cup", code="k4").update(
        status="played",
        home_goals=2,
        away_goals=2,
        extra_time=True,
        penalties_home=4,
        penalties_away=3,
    )


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_header_fits_360_px(live_server, penalties_match, browser, browser_log, shots, locale):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale=locale,
        extra_http_headers={"Accept-Language": locale},
    )
    browser_log.watch(context)
    page = context.new_page()
    page.goto(f"{live_server.url}/competitions/t24-cup/matches/k4/")
    header = page.locator("h1.match-title")
    assert "4–3" in header.inner_text()
    widths = page.evaluate(
        "[document.querySelector('h1.match-title').scrollWidth,"
        " document.documentElement.scrollWidth]"
    )
    assert max(widths) <= 360, widths
    shots(page, f"match-penalties-{locale}")
    context.close()
