"""What a store judge and the players do at a Mitos y Leyendas event, step by step on a
phone (Playwright sync API). Reusable: the game-loss test of the penalties flow builds on
these helpers.

Every helper waits for the page to show the outcome of the action, so that tests read as a
sequence of human actions and checks, and fail at the step that went wrong. Taps are real
touch taps (``locator.tap()`` in a ``has_touch`` context).
"""

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, NAVIGATION_TIMEOUT_MS

PHONE = {"width": 390, "height": 844}
"""A common phone viewport (CSS pixels)."""


def phone_context(browser, browser_log, *, locale: str = "en-US"):
    """A phone-sized touch browser context, watched for browser-side problems (close it)."""
    context = browser.new_context(
        viewport=PHONE, locale=locale, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    browser_log.watch(context)
    return context


def messages(page: Page):
    return page.locator("ul.messages")


def tap_and_wait(page: Page, locator):
    """Tap a link or a submit button and wait for the page it leads to."""
    with page.expect_navigation():
        locator.tap()


def log_in(page: Page, base: str, username: str, password: str):
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    tap_and_wait(page, page.locator("main form button[type=submit]"))
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


# --------------------------------------------------------------------------- event setup
def create_myl_event(
    page: Page,
    base: str,
    org_slug: str,
    *,
    name: str,
    slug: str,
    rounds: int = 4,
    best_of: int = 3,
    top_cut: int = 0,
    date: str = "2026-12-05",
    shots=None,
):
    """Create an event from the Mitos y Leyendas preset (the form's "Mitos y Leyendas"
    tab) on ``date`` (YYYY-MM-DD); ends on the event's dashboard."""
    page.goto(f"{base}/organisations/{org_slug}/events/new/")
    tap_and_wait(page, page.locator("nav.tabs").get_by_role("link", name="Mitos y Leyendas"))
    expect(page.locator("#id_preset")).to_have_value("myl-2026")
    expect(page.locator("#id_round_minutes")).to_have_value("50")
    expect(page.locator("#id_final_mode")).to_have_count(0)
    page.locator("#id_name").fill(name)
    page.locator("#id_slug").fill(slug)
    page.locator("#id_date").fill(date)
    page.locator("#id_preliminary_rounds").fill(str(rounds))
    page.locator("#id_best_of").select_option(str(best_of))
    page.locator("#id_top_cut").select_option(str(top_cut))
    if shots:
        shots(page, "event-form")
    tap_and_wait(page, page.get_by_role("button", name="Create event"))
    expect(messages(page)).to_contain_text("Event created.")
    expect(page).to_have_url(f"{base}/events/{slug}/manage/")


def add_players(page: Page, base: str, slug: str, players: list[tuple[str, str]]):
    """Register and check in ``players`` (name, player number or "") on the players page."""
    page.goto(f"{base}/events/{slug}/manage/players/")
    for name, number in players:
        page.locator("#id_name").fill(name)
        page.locator("#id_vekn_number").fill(number)
        page.locator("#id_check_in").set_checked(True)
        tap_and_wait(page, page.get_by_role("button", name="Add", exact=True))
        expect(messages(page)).to_contain_text(f"{name} registered.")
    expect(page.locator("#players .badge.ok")).to_have_count(len(players))


def open_dashboard(page: Page, base: str, slug: str):
    page.goto(f"{base}/events/{slug}/manage/")
    expect(page.locator("nav.tabs a.active")).to_have_text("Overview")


# --------------------------------------------------------------------------- rounds
def pair_round(page: Page, number: int):
    """Tap "Pair round N" (dashboard or round page) and land on the new round's page."""
    tap_and_wait(page, page.get_by_role("button", name=f"Pair round {number}"))
    expect(messages(page)).to_contain_text(f"Round {number} paired.")
    expect(page.get_by_role("heading", level=2, name=re.compile(f"Round {number}"))).to_be_visible()


def match_card(page: Page, table_number: int):
    card = page.locator(f"#match-{table_number}")
    expect(card.locator("h3")).to_contain_text(f"Table {table_number}")
    return card


def matches(page: Page) -> list[dict]:
    """The round page's matches: table number, players (seat order), bye or not."""
    out = []
    cards = page.locator(".matches .match-card")
    for i in range(cards.count()):
        card = cards.nth(i)
        number = int(card.get_attribute("id").removeprefix("match-"))
        if "bye" in (card.get_attribute("class") or ""):
            name = card.locator(".bye-line strong").inner_text().strip()
            out.append({"table": number, "players": [name], "bye": True})
            continue
        labels = card.locator(".games-row label, .match-result li").all_inner_texts()
        names = [re.split(r" — | Loss| Dropped| Disqualified", t)[0].strip() for t in labels]
        out.append({"table": number, "players": names, "bye": False})
    return out


def enter_match(page: Page, table_number: int, games: tuple[int, int]):
    """Type the games each player won at a match card and save it (back on the round)."""
    card = match_card(page, table_number)
    inputs = card.locator("input.games")
    expect(inputs).to_have_count(2)
    inputs.nth(0).fill(str(games[0]))
    inputs.nth(1).fill(str(games[1]))
    tap_and_wait(page, card.get_by_role("button", name="Save"))
    expect(messages(page)).to_contain_text(f"Table {table_number} saved: {games[0]}–{games[1]}.")
    expect(match_card(page, table_number).locator("h3 .badge")).to_have_text("done")


def play_round(page: Page, result_for) -> list[dict]:
    """Enter every match of the round page: ``result_for(match)`` gives the games (seat
    order), or ``None`` to leave a match alone (entered by its players). Returns the
    matches with their ``games``."""
    played = matches(page)
    for m in played:
        if m["bye"]:
            continue
        m["games"] = result_for(m)
        if m["games"] is not None:
            enter_match(page, m["table"], m["games"])
    expect(page.get_by_role("heading", level=2)).to_contain_text("all results in")
    return played


def top_cut_step(page: Page, button: str, heading: str):
    """Tap a top-cut button ("Start the top 8", "Pair the semi-finals"…) and land on the
    new round's page, whose heading is ``heading``. Starting the top cut asks first
    (issue 14): the confirmation page's button has the same words."""
    tap_and_wait(page, page.get_by_role("button", name=button))
    if button.startswith("Start the top"):
        tap_and_wait(page, page.locator("#confirm").get_by_role("button", name=button))
    expect(messages(page)).to_contain_text(f"{heading} paired.")
    expect(page.get_by_role("heading", level=2, name=re.compile(heading))).to_be_visible()


def publish_pairings(page: Page):
    tap_and_wait(page, page.get_by_role("button", name="Publish pairings"))
    expect(page.get_by_role("button", name="Hide pairings")).to_be_visible()


# --------------------------------------------------------------------------- standings
def publish_standings(page: Page, base: str, slug: str):
    page.goto(f"{base}/events/{slug}/manage/standings/")
    tap_and_wait(page, page.get_by_role("button", name="Publish standings"))
    expect(messages(page)).to_contain_text("Standings published.")


def standings_rows(page: Page) -> list[list[str]]:
    """The standings table's rows as lists of cell texts (rank, player, MP, …)."""
    rows = page.locator("table.myl-standings tbody tr")
    return [
        [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        for i in range(rows.count())
    ]


# --------------------------------------------------------------------------- players
def sign_up(page: Page, base: str, username: str, name: str, number: str, password: str):
    """A player creates an account with their player number (an organiser confirms it)."""
    page.goto(f"{base}/accounts/signup/")
    page.locator("#id_username").fill(username)
    page.locator("#id_name").fill(name)
    page.locator("#id_vekn_number").fill(number)
    page.locator("#id_password1").fill(password)
    page.locator("#id_password2").fill(password)
    tap_and_wait(page, page.locator("main form button[type=submit]"))
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def confirm_claim(page: Page, base: str, slug: str, username: str):
    """The organiser confirms an account's claim on the players page."""
    page.goto(f"{base}/events/{slug}/manage/players/")
    row = page.locator("section.card li").filter(has_text=username)
    tap_and_wait(page, row.get_by_role("button", name="Confirm"))


def enter_my_match(page: Page, base: str, slug: str, own: int, opponent: int):
    """A player reports their current match's result on "My match"; it waits for the
    opponent's confirmation (docs/players.md "Reporting your table's result")."""
    page.goto(f"{base}/events/{slug}/my-match/")
    page.locator("#own").fill(str(own))
    page.locator("#opponent").fill(str(opponent))
    tap_and_wait(page, page.get_by_role("button", name="Send the result"))
    expect(messages(page)).to_contain_text(
        f"Result sent: {own}–{opponent}. Your opponent confirms it."
    )
    expect(page.locator("main")).to_contain_text("Waiting for:")


def try_add_player(page: Page, base: str, slug: str, name: str, number: str):
    """Fill the players page's form and tap "Add", whatever the outcome (the caller checks
    the message)."""
    page.goto(f"{base}/events/{slug}/manage/players/")
    page.locator("#id_name").fill(name)
    page.locator("#id_vekn_number").fill(number)
    page.locator("#id_check_in").set_checked(True)
    tap_and_wait(page, page.get_by_role("button", name="Add", exact=True))


def registered_names(page: Page) -> list[str]:
    """The names on the players page's list."""
    return [t.strip() for t in page.locator("#players li > span > strong").all_inner_texts()]


def standings_points(page: Page) -> dict[str, int]:
    """Match points by player name, from a standings table (the name cell's first line)."""
    return {row[1].splitlines()[0]: int(row[2]) for row in standings_rows(page)}


# --------------------------------------------------------------------------- judging
def give_event_role(page: Page, base: str, slug: str, username: str, role: str = "Judge"):
    """The organiser gives an account a role on the event (its "staff" page)."""
    page.goto(f"{base}/events/{slug}/manage/staff/")
    page.locator("#id_username").fill(username)
    page.locator("#id_role").select_option(label=role)
    tap_and_wait(page, page.get_by_role("button", name="Give role"))
    expect(messages(page)).to_contain_text("Role given.")
    expect(page.locator("main")).to_contain_text(f"{username} — {role}")


def incident_at_match(page: Page, table_number: int, player: str, shots=None):
    """From the round page: "Incident" on the match card, then the player who did it."""
    tap_and_wait(page, match_card(page, table_number).get_by_role("link", name="Incident"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {table_number}")
    if shots:
        shots(page, "incident-who")
    who = page.locator(".bigpick").get_by_role(
        "link", name=re.compile(rf"^\d+\. {re.escape(player)}$")
    )
    tap_and_wait(page, who)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Infraction · {player}")


def incident_for_player(page: Page, base: str, slug: str, player: str):
    """From the Penalties tab: "Log an incident", search the player, tap their name."""
    page.goto(f"{base}/events/{slug}/manage/penalties/")
    tap_and_wait(page, page.get_by_role("link", name="Log an incident"))
    page.locator("main form input[name=q]").fill(player.split()[0])
    tap_and_wait(page, page.get_by_role("button", name="Search"))
    tap_and_wait(page, page.locator(".bigpick").get_by_role("link", name=player, exact=True))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Infraction · {player}")


def pick_myl_infraction(page: Page, code: str, name: str):
    """On the MyL infraction list (grouped by section): tap the section's button."""
    button = page.locator("#infractions a").filter(
        has=page.locator("strong", has_text=re.compile(rf"^{re.escape(code)}$"))
    )
    expect(button).to_contain_text(name)
    tap_and_wait(page, button)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{code} {name}")


def answer_question(page: Page, question: str, yes: bool):
    """Tap Yes or No on a question of the incident page; waits for the new preview."""
    fieldset = page.locator("fieldset.question").filter(has_text=question)
    with page.expect_response(lambda r: r.request.method == "POST" and "/incidents/new/" in r.url):
        fieldset.get_by_label("Yes" if yes else "No", exact=True).tap()


def fill_and_refresh(page: Page, locator, value: str):
    """Fill a field of the incident form and wait for the preview it refreshes."""
    with page.expect_response(lambda r: r.request.method == "POST" and "/incidents/new/" in r.url):
        locator.fill(value)


def myl_preview(page: Page):
    return page.locator("#preview .penalty-preview")


def confirm_incident(page: Page, saved: str) -> str:
    """Tap Confirm on the incident page; lands on the penalty's page ("Saved: …")."""
    tap_and_wait(page, page.locator("#preview").get_by_role("button", name="Confirm"))
    expect(messages(page)).to_contain_text(f"Saved: {saved}.")
    return page.url
