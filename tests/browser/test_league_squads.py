"""A team's owner pastes the squad on a phone, then reports the bookings and the lineup by
picking footballers from it (docs/leagues.md "Squads"): the picker adds the lines to the
boxes; the pages fit 360 px in English and in Spanish."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import click_and_wait, messages
from tests.leagues.seasons import small_season

pytestmark = pytest.mark.browser


@pytest.fixture
def cup_final(make_user):
    from leagues.services import import_season

    accounts = {name: make_user(name) for name in ("user1", "user2")}
    data = small_season()
    data["competitions"][2]["matches"].append(
        {"id": "k4", "round": 2, "home": "t1", "away": "t2", "tie": "f2", "leg": 1}
    )
    import_season(data)
    return accounts


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_owner_pastes_the_squad_and_picks_from_it(
    live_server, cup_final, browser, browser_log, shots, locale
):
    base = live_server.url
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale=locale,
        extra_http_headers={"Accept-Language": locale},
    )
    context.set_default_timeout(5_000)
    browser_log.watch(context)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")  # in the context's language
    page.locator("#id_username").fill("user1")
    page.locator("#id_password").fill(cup_final["user1"].password)
    click_and_wait(page, page.locator("main form button[type=submit]"))
    page.goto(f"{base}/seasons/t24/squads/t1/")
    page.locator("#squad_lines").fill("13 M. Ballack\n7 K. Dós\nJ. Doe")
    click_and_wait(page, page.locator("#add button[type=submit]"))
    expect(messages(page)).to_contain_text("3")
    expect(page.locator("#squad input[name=name]")).to_have_count(3)
    expect(page.locator("#squad input[name=name]").nth(0)).to_have_value("K. Dós")  # by number
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shots(page, f"squad-{locale}")

    page.goto(f"{base}/competitions/t24-cup/matches/k4/")
    page.locator("details.bookings summary").click()
    picker = page.locator("details.bookings [data-squad-picker]")
    expect(picker).to_be_visible()
    picker.locator("[data-squad-footballer]").fill("M. Ballack")
    picker.locator("[data-squad-card]").select_option("red")
    picker.locator("[data-squad-add]").click()
    picker.locator("[data-squad-footballer]").fill("K. Dós")
    picker.locator("[data-squad-add]").click()
    cards = page.locator("details.bookings textarea")
    assert cards.input_value() == "home; M. Ballack; red\nhome; K. Dós; yellow"
    page.locator("details.lineups summary").click()
    lineup = page.locator("details.lineups [data-squad-picker]")
    lineup.locator("[data-squad-team]").select_option("away")
    assert lineup.locator("[data-squad-footballer]").get_attribute("list") == "squad-away"
    lineup.locator("[data-squad-team]").select_option("home")
    lineup.locator("[data-squad-footballer]").fill("J. Doe")
    lineup.locator("[data-squad-add]").click()
    assert page.locator("details.lineups textarea").input_value() == "home; J. Doe"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shots(page, f"report-picker-{locale}")
    browser_log.assert_clean()
    context.close()
