"""What a judge does on the tablet during a round (Playwright sync API), and the ORM setup the
judging test is allowed: users, roles, the event's players and the rounds already played
(through ``events.services``, as the scorekeepers would have).

Every helper waits for the page to show the outcome of the action. Taps are real touch taps
(``locator.tap()`` in a ``has_touch`` context); :data:`TAP_COUNTER_JS` counts the clicks
the browser itself dispatches, so a test can measure how many taps a flow takes.
"""

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from playwright.sync_api import Page, expect

from standings import vekn

# Installed with ``context.add_init_script``: every trusted click (a tap gives one) bumps a
# counter kept in sessionStorage, so it survives the page loads of the flow.
TAP_COUNTER_JS = """
window.addEventListener('click', (e) => {
  if (!e.isTrusted) return;
  const n = Number(sessionStorage.getItem('arbitro-taps') || '0') + 1;
  sessionStorage.setItem('arbitro-taps', String(n));
}, true);
"""


def reset_taps(page: Page):
    page.evaluate("sessionStorage.setItem('arbitro-taps', '0')")


def taps(page: Page) -> int:
    return int(page.evaluate("sessionStorage.getItem('arbitro-taps') || '0'"))


def tap_and_wait(page: Page, locator):
    """Tap a link or a submit button and wait for the page it leads to."""
    with page.expect_navigation():
        locator.tap()


def h1(page: Page):
    return page.get_by_role("heading", level=1)


def messages(page: Page):
    return page.locator("ul.messages")


# --------------------------------------------------------------------------- round page
def table_card(page: Page, number: int):
    card = page.locator(".tables .table-card").nth(number - 1)
    expect(card.locator("h3")).to_contain_text(f"Table {number}")
    return card


def open_my_event(page: Page, name: str):
    """From the home page after signing in: "Manage" on the event in "Events you run"."""
    mine = page.locator("section.card").filter(has_text="Events you run")
    row = mine.locator("li").filter(has_text=name)
    tap_and_wait(page, row.get_by_role("link", name="Manage"))
    expect(h1(page)).to_have_text(name)


def open_tab(page: Page, name: str):
    """One of the staff tabs (Overview, Round 2, Standings, Penalties…)."""
    # A tab may carry a pending-items badge after its name ("Penalties 2 (2 penalties to
    # confirm)"): the name is matched as the link's start.
    tab = page.locator("nav.tabs").get_by_role(
        "link", name=re.compile(rf"^{re.escape(name)}(\s|$)")
    )
    tap_and_wait(page, tab)
    expect(page.locator("nav.tabs a.active")).to_have_text(re.compile(rf"^{re.escape(name)}(\s|$)"))


# --------------------------------------------------------------------------- incident flow
def incident_on_table(page: Page, table_number: int, player: str, shots=None):
    """From the round page: "Incident" on the table's card, then the player."""
    tap_and_wait(page, table_card(page, table_number).get_by_role("link", name="Incident"))
    expect(h1(page)).to_contain_text(f"Table {table_number}")
    if shots:
        shots(page, "incident-who")
    button = page.locator(".bigpick").get_by_role(
        "link", name=re.compile(rf"^\d+\. {re.escape(player)}$")
    )
    tap_and_wait(page, button)
    expect(h1(page)).to_have_text(f"Infraction · {player}")


def back_to_round(page: Page, number: int):
    """From a saved penalty's page: the "Round N" link under the title."""
    tap_and_wait(page, page.locator("main").get_by_role("link", name=f"Round {number}", exact=True))
    expect(page.get_by_role("heading", level=2, name=re.compile(f"Round {number}"))).to_be_visible()


def pick_infraction(page: Page, code: str, name: str):
    """On the infraction list: tap the infraction's button (code and English name)."""
    tap_and_wait(page, page.locator("#infractions").get_by_role("link", name=f"{code} {name}"))
    expect(h1(page)).to_have_text(f"{code} {name}")


def preview(page: Page):
    return page.locator("#preview .penalty-preview")


def confirm_button(page: Page):
    return page.locator("#preview").get_by_role("button", name="Confirm")


def penalty_pk(page: Page) -> int:
    # "?from=table": logged from a table, the page offers "back to the round".
    match = re.search(r"/penalties/(\d+)/(\?from=table)?$", page.url)
    assert match, page.url
    return int(match.group(1))


def confirm_penalty(page: Page) -> int:
    """Tap Confirm on the incident page; returns the saved penalty's id (from its page)."""
    tap_and_wait(page, confirm_button(page))
    expect(page.locator(".messages")).to_contain_text("aved")  # "Saved: …" / "Already saved"
    return penalty_pk(page)


# --------------------------------------------------------------------------- penalty pages
def status_badge(page: Page):
    return page.locator("p.status .badge")


def penalty_rows(page: Page, person: str):
    """Rows of the penalties list (newest first) for ``person``."""
    return page.locator("table.grid tbody tr").filter(
        has=page.locator("td:nth-child(2)", has_text=re.compile(rf"^{re.escape(person)}$"))
    )


def open_penalty(page: Page, pk: int):
    """On the penalties list: follow the row's link to penalty ``pk``."""
    tap_and_wait(page, page.locator(f"table.grid a[href$='/penalties/{pk}/']"))
    expect(page.locator("p.status")).to_be_visible()


# --------------------------------------------------------------------------- standings
@dataclass(frozen=True)
class StandingsRow:
    rank: str
    gw: int
    vp: Decimal
    tp: int


def standings_names(page: Page) -> list[str]:
    return page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts()


def standings_row(page: Page, name: str) -> StandingsRow:
    """The staff standings row of ``name`` (columns: rank, player, VEKN, GW, VP, TP, …)."""
    row = page.locator("table.standings tbody tr").filter(
        has=page.locator("td:nth-child(2)", has_text=re.compile(rf"^{re.escape(name)}$"))
    )
    expect(row).to_have_count(1)
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    return StandingsRow(cells[0], int(cells[3]), Decimal(cells[4]), int(cells[5]))


# --------------------------------------------------------------------------- screenshots
def screenshots(folder, prefix: str = ""):
    """``take(page, "label")`` saves ``folder/<prefix>NN-label.png`` (full page); the
    earlier run's files of this prefix are removed first."""
    folder.mkdir(parents=True, exist_ok=True)
    pattern = f"{prefix}[0-9][0-9]-*.png"
    for old in folder.glob(pattern):
        old.unlink()
    counter = iter(range(1, 100))

    def take(page: Page, label: str):
        path = folder / f"{prefix}{next(counter):02d}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


# --------------------------------------------------------------------------- ORM setup
PLAYERS = [
    ("Ana Rojas", "3200001"),
    ("Bruno Díaz", "3200002"),
    ("Camila Soto", "3200003"),
    ("Diego Fuentes", "3200004"),
    ("Elena Vidal", "3200005"),
    ("Felipe Muñoz", "3200006"),
    ("Gabriela Silva", "3200007"),
    ("Hernán Castro", "3200008"),
    ("Isabel Navarro", "3200009"),
    ("Javier Reyes", "3200010"),
]


def legal(sheet: tuple[str, ...]) -> list[Decimal]:
    """``sheet`` as VP, after checking it is one of the sheets a 5-player game can give."""
    vps = [Decimal(v) for v in sheet]
    assert tuple(vps) in vekn.legal_sheets(len(vps)), sheet
    return vps


@dataclass(frozen=True)
class RunningRound:
    """Round 2 of the event, seated and running: names per table in seat order."""

    slug: str
    tables: list[list[str]]


def event_with_round_2_running(
    organisation,
    *,
    slug: str,
    name: str,
    round_1: list[tuple[str, ...]],
    table_2: tuple[str, ...],
) -> RunningRound:
    """An event of 10 checked-in players: round 1 seated and played (``round_1`` sheets),
    round 2 seated (tables 5 + 5) with only table 2's result (``table_2``) entered."""
    from events import people, services
    from events.models import Seat

    event = services.create_event(
        organisation, preset="vekn-2026", slug=slug, name=name, date=date(2026, 11, 28)
    )
    for name, number in PLAYERS:
        services.register(event, people.find_or_create_person(name, number), check_in=True)
    rnd = services.seat_next_round(event, seed=1)
    for table, sheet in zip(rnd.tables.order_by("number"), round_1, strict=True):
        services.save_results(table, legal(sheet), version=table.version)
    rnd = services.seat_next_round(event, seed=2)
    tables = list(rnd.tables.order_by("number"))
    services.save_results(tables[1], legal(table_2), version=tables[1].version)
    names = [
        [
            s.registration.person.name
            for s in Seat.objects.filter(table=t)
            .select_related("registration__person")
            .order_by("position")
        ]
        for t in tables
    ]
    assert [len(t) for t in names] == [5, 5], names
    return RunningRound(slug, names)


def give_event_role(slug: str, username: str, role: str):
    from django.contrib.auth import get_user_model

    from events.models import Event, EventRole

    EventRole.objects.create(
        event=Event.objects.get(slug=slug),
        user=get_user_model().objects.get(username=username),
        role=role,
    )


def link_account(username: str, person_name: str):
    """Link a user account to the player's Person record (what sign-up matching would do)."""
    from django.contrib.auth import get_user_model

    from events.models import Person

    Person.objects.filter(name=person_name).update(
        user=get_user_model().objects.get(username=username)
    )


# --------------------------------------------------------------------------- resubmission
def form_fields(page: Page, selector: str) -> dict[str, str]:
    """The fields a form would send now (hidden ones included), as the browser sees them."""
    return page.evaluate(
        "(sel) => Object.fromEntries(new FormData(document.querySelector(sel)))", selector
    )


def resubmit(page: Page, action: str, fields: dict[str, str]):
    """Post ``fields`` again from the current page, as a browser retrying a form would
    (same hidden submission id, same CSRF token), and wait for the page it leads to."""
    with page.expect_navigation():
        page.evaluate(
            """([action, fields]) => {
              const form = document.createElement('form');
              form.method = 'post';
              form.action = action;
              for (const [name, value] of Object.entries(fields)) {
                const input = document.createElement('input');
                input.type = 'hidden';
                input.name = name;
                input.value = value;
                form.appendChild(input);
              }
              document.body.appendChild(form);
              form.submit();
            }""",
            [action, fields],
        )
