"""The judge's offline tablet (issue 7), end to end in Chromium with Playwright's offline
mode, as a judge would use it when the venue's Wi-Fi fails mid-round.

Ten players, round 1 played, round 2 running (tables 1 and 2 of five; table 2 already has
its result). The floor judge opens the tablet page online (the service worker and the
snapshot are kept on the device), then the network goes off:

1. two incidents (3.3 Slow Play; 2.1 with its question answered) and table 1's result
   are entered offline: the page shows 3 waiting to sync;
2. the page is reloaded while still offline: the service worker serves it, and the 3
   entries are still waiting; a correction of table 2 is entered too (4 waiting);
3. meanwhile a scorekeeper, online, changes table 2 on the ordinary result page: the
   judge's correction is now stale;
4. the network comes back, and the first answer of the server is lost (the request
   reaches the server, its answer never reaches the tablet); the judge taps "Sync now";
5. every incident and table 1's result are in the database exactly once; table 2 is a
   conflict shown to the judge, not applied; sending a synced entry once more changes
   nothing; the judge keeps the saved values.

Screenshots (820×1180): ``test-artifacts/browser/offline/``.
"""

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.judging_pages import event_with_round_2_running, give_event_role, legal
from tests.browser.pages import click_and_wait, log_in
from tests.browser.test_csp import WATCH_VIOLATIONS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SLUG = "copa-offline-2026"
ROUND_1 = [("1.5", "0", "1.5", "0", "0.5"), ("2", "1.5", "0", "1", "0")]
TABLE_2 = ("3", "2", "0", "0", "0")
TABLE_1_OFFLINE = ("2", "1.5", "0", "1", "0")  # the judge's result of table 1
TABLE_2_JUDGE = ("1.5", "0", "1.5", "0", "0.5")  # the judge's (stale) correction of table 2
TABLE_2_SCOREKEEPER = ("2", "1.5", "0", "1", "0")  # saved online meanwhile
SHOTS = ARTIFACTS / "offline"


@pytest.fixture
def floor(organisation, make_user):
    from events.permissions import Role

    for sheet in (*ROUND_1, TABLE_2, TABLE_1_OFFLINE, TABLE_2_JUDGE, TABLE_2_SCOREKEEPER):
        legal(sheet)
    running = event_with_round_2_running(
        organisation, slug=SLUG, name="Copa Offline", round_1=ROUND_1, table_2=TABLE_2
    )
    judge, scorekeeper = make_user("jude"), make_user("sam")
    give_event_role(SLUG, judge.username, Role.JUDGE)
    give_event_role(SLUG, scorekeeper.username, Role.SCOREKEEPER)
    return {"round": running, "judge": judge, "scorekeeper": scorekeeper}


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def waiting(page):
    return page.locator("#tablet-waiting")


def table_card(page, number):
    return page.locator(f"article.tablet-table[data-table='{number}']")


def log_incident(page, table, seat, code, answers=()):
    table_card(page, table).get_by_role("button", name="Incident").click()
    page.locator(".tablet-choices button.choice").nth(seat - 1).click()
    page.locator(f"button.infraction[data-code='{code}']").first.click()
    for condition, answer in answers:
        page.locator(f"fieldset[data-condition='{condition}']").get_by_role(
            "button", name=answer
        ).click()
    page.get_by_role("button", name="Log incident").click()
    expect(table_card(page, table)).to_be_visible()


def enter_result(page, table, sheet):
    table_card(page, table).get_by_role("button", name="Enter result").click()
    inputs = page.locator("input.tablet-vp")
    expect(inputs).to_have_count(len(sheet))
    for i, value in enumerate(sheet):
        inputs.nth(i).fill(value)
    page.get_by_role("button", name="Save result").click()
    expect(table_card(page, table).locator(".badge.warn")).to_be_visible()


def csp_violations(page) -> list[str]:
    return page.evaluate("() => window.__cspViolations || []")


def stored(page, name):
    return page.evaluate(
        """(name) => {
          for (let i = 0; i < localStorage.length; i++) {
            const key = localStorage.key(i);
            if (key.endsWith('.' + name)) return JSON.parse(localStorage.getItem(key));
          }
          return null;
        }""",
        name,
    )


def test_a_round_judged_offline_arrives_once(live_server, floor, new_context, browser_log):
    from events.models import Event, ResultSubmission, Seat, Table
    from penalties.models import Penalty

    base = live_server.url
    context = new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)

    # From the round page to the tablet, online: snapshot and service worker kept.
    page.goto(f"{base}/events/{SLUG}/manage/rounds/2/")
    click_and_wait(page, page.get_by_role("link", name="Offline tablet"))
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    expect(page.locator("#tablet-net")).to_have_text("Online")
    expect(waiting(page)).to_have_text("Waiting to sync: 0")
    expect(table_card(page, 1)).to_contain_text(floor["round"].tables[0][0])
    shot(page, "01-online")

    # The Wi-Fi fails mid-round.
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    log_incident(page, 1, 1, "3.3")
    log_incident(page, 1, 2, "2.1", [("advantage", "No")])
    enter_result(page, 1, TABLE_1_OFFLINE)
    expect(waiting(page)).to_have_text("Waiting to sync: 3")
    expect(page.locator("#tablet-pending li.tablet-item")).to_have_count(3)
    shot(page, "02-offline-3-waiting")

    assert csp_violations(page) == []

    # Reloaded while offline: the service worker serves the page, the queue is kept.
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    expect(waiting(page)).to_have_text("Waiting to sync: 3")
    expect(table_card(page, 2)).to_be_visible()
    # A correction of table 2, on the version the tablet knows.
    enter_result(page, 2, TABLE_2_JUDGE)
    expect(waiting(page)).to_have_text("Waiting to sync: 4")
    queued = stored(page, "queue")
    assert [item["kind"] for item in queued] == ["incident", "incident", "result", "result"]
    assert Penalty.objects.count() == 0
    shot(page, "03-offline-reloaded-4-waiting")

    # Meanwhile a scorekeeper, online, changes table 2.
    other = new_context().new_page()
    log_in(other, base, floor["scorekeeper"].username, floor["scorekeeper"].password)
    other.goto(f"{base}/events/{SLUG}/manage/rounds/2/tables/2/")
    for i, value in enumerate(TABLE_2_SCOREKEEPER, start=1):
        other.locator(f"#vp_{i}").fill(value)
    click_and_wait(other, other.get_by_role("button", name="Save result"))
    table_2 = Table.objects.get(round__event__slug=SLUG, round__number=2, number=2)
    assert table_2.version == 2

    # The network comes back; the first answer is lost on the way back to the tablet.
    lost = []

    def lose_first_answer(route):
        if not lost:
            response = route.fetch()  # the server receives it and saves it
            lost.append(response.status)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/tablet/sync/", lose_first_answer)
    context.set_offline(False)
    expect(page.locator("#tablet-net")).to_have_text("Online")
    for _ in range(100):  # the route handler runs while Playwright waits
        if lost:
            break
        page.wait_for_timeout(100)
    expect(page.get_by_role("button", name="Sync now")).to_be_enabled()
    assert lost == [200]
    assert Penalty.objects.count() == 1  # saved, though the tablet never heard so
    expect(waiting(page)).to_have_text("Waiting to sync: 4")
    page.get_by_role("button", name="Sync now").click()
    expect(waiting(page)).to_have_text("Waiting to sync: 0", timeout=10_000)

    # The conflict is shown to the judge, not applied.
    attention = page.locator("#tablet-attention")
    expect(attention).to_be_visible()
    expect(attention).to_contain_text("Needs your decision: 1")
    expect(attention).to_contain_text("Table 2 was changed by someone else")
    expect(attention).to_contain_text("sam saved this table")
    shot(page, "04-synced-with-conflict")

    # Every incident and result logged offline arrived once, and only once.
    ids = [item["id"] for item in queued]
    penalties = Penalty.objects.filter(event__slug=SLUG)
    assert penalties.count() == 2
    assert sorted(str(p.client_id) for p in penalties) == sorted(ids[:2])
    assert sorted(p.infraction for p in penalties) == ["2.1", "3.3"]
    submissions = ResultSubmission.objects.all()
    assert [str(s.client_id) for s in submissions] == [ids[2]]
    table_1 = Table.objects.get(round__event__slug=SLUG, round__number=2, number=1)
    assert table_1.version == 1
    assert [
        str(v)
        for v in Seat.objects.filter(table=table_1)
        .order_by("position")
        .values_list("vp", flat=True)
    ] == [f"{float(v):.1f}" for v in TABLE_1_OFFLINE]
    table_2.refresh_from_db()
    assert table_2.version == 2
    assert [
        str(v)
        for v in Seat.objects.filter(table=table_2)
        .order_by("position")
        .values_list("vp", flat=True)
    ] == [f"{float(v):.1f}" for v in TABLE_2_SCOREKEEPER]
    done = page.locator("#tablet-done li")
    expect(done).to_have_count(3)
    expect(page.locator("#tablet-done")).to_contain_text("Caution")
    expect(page.locator("#tablet-done")).to_contain_text(
        "Already saved (this entry was received before)"
    )

    # The same entries sent once more (a retry from another tab): nothing doubled.
    answers = page.evaluate(
        """async ([url, items]) => {
          const snap = Object.keys(localStorage).find((k) => k.endsWith('.snapshot'));
          const csrf = JSON.parse(localStorage.getItem(snap)).csrf;
          const out = [];
          for (const item of items) {
            const r = await fetch(url, {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf},
              body: JSON.stringify(Object.assign({id: item.id, kind: item.kind}, item.payload))});
            out.push((await r.json()).status);
          }
          return out;
        }""",
        [f"/events/{SLUG}/manage/tablet/sync/", queued[:3]],
    )
    assert answers == ["duplicate", "duplicate", "duplicate"]
    assert Penalty.objects.filter(event__slug=SLUG).count() == 2
    assert ResultSubmission.objects.count() == 1

    # The judge keeps the values saved by the scorekeeper.
    attention.get_by_role("button", name="Keep the saved values").click()
    expect(attention).to_be_hidden()
    expect(table_card(page, 2)).to_contain_text(TABLE_2_SCOREKEEPER[0])
    table_2.refresh_from_db()
    assert table_2.version == 2
    assert not Event.objects.get(slug=SLUG).results_approved

    assert csp_violations(page) == []
    # The lost answer is the one failure expected in the browser's log.
    browser_log.problems = [
        p for p in browser_log.problems if "ERR_CONNECTION_RESET" not in p and "ERR_FAILED" not in p
    ]
    browser_log.assert_clean()


def test_screenshots_of_the_tablet(live_server, floor, new_context, browser_log):
    """The incident flow's screens, for a look at the sizes of the targets."""
    base = live_server.url
    context = new_context()
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    table_card(page, 1).get_by_role("button", name="Incident").click()
    shot(page, "10-who")
    page.locator(".tablet-choices button.choice").first.click()
    shot(page, "11-infraction")
    page.locator("button.infraction[data-code='2.1']").first.click()
    page.locator("fieldset[data-condition='advantage']").get_by_role("button", name="Yes").click()
    shot(page, "12-question")
    page.get_by_role("button", name="Log incident").click()
    expect(waiting(page)).to_have_text("Waiting to sync: 0", timeout=10_000)
    table_card(page, 1).get_by_role("button", name="Enter result").click()
    shot(page, "13-result")
    assert json.dumps(stored(page, "done"))  # the synced incident is listed
    browser_log.assert_clean()


def test_the_judge_replaces_a_changed_table_with_their_values(
    live_server, floor, new_context, browser_log
):
    """A conflict resolved the other way: the judge's values, sent again on purpose, on the
    version saved meanwhile (the other person's save is made through the service here)."""
    from events import services
    from events.models import ResultSubmission, Seat, Table

    base = live_server.url
    context = new_context()
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    enter_result(page, 2, TABLE_2_JUDGE)
    expect(waiting(page)).to_have_text("Waiting to sync: 1")
    table_2 = Table.objects.get(round__event__slug=SLUG, round__number=2, number=2)
    services.save_results(table_2, legal(TABLE_2_SCOREKEEPER), version=table_2.version)
    context.set_offline(False)
    attention = page.locator("#tablet-attention")
    expect(attention).to_contain_text("Table 2 was changed by someone else", timeout=10_000)
    attention.get_by_role("button", name="Replace them with mine").click()
    expect(attention).to_be_hidden(timeout=10_000)
    expect(waiting(page)).to_have_text("Waiting to sync: 0")
    table_2.refresh_from_db()
    assert table_2.version == 3
    assert [
        str(v)
        for v in Seat.objects.filter(table=table_2)
        .order_by("position")
        .values_list("vp", flat=True)
    ] == [f"{float(v):.1f}" for v in TABLE_2_JUDGE]
    assert ResultSubmission.objects.get().base_version == 2
    expect(table_card(page, 2)).to_contain_text(TABLE_2_JUDGE[0])
    browser_log.assert_clean()


def test_a_mitos_y_leyendas_match_entered_offline(live_server, make_user, new_context, browser_log):
    """The same tablet on a Mitos y Leyendas event: games won per player, byes without a
    result button; entered offline, saved once when the network returns."""
    from events import swiss_services as ss
    from events.models import ResultSubmission, Seat, Table
    from events.permissions import Role
    from tests.events.services.test_swiss_services import make_event

    event, _ = make_event(5, slug="myl-offline")
    rnd = ss.pair_next_round(event, seed=1)
    judge = make_user("mylj")
    give_event_role(event.slug, judge.username, Role.JUDGE)
    match = rnd.tables.filter(is_bye=False).order_by("number").first()
    bye = rnd.tables.get(is_bye=True)

    context = new_context()
    page = context.new_page()
    log_in(page, live_server.url, judge.username, judge.password)
    page.goto(f"{live_server.url}/events/{event.slug}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    expect(table_card(page, bye.number).get_by_role("button", name="Enter result")).to_have_count(0)
    context.set_offline(True)
    enter_result(page, match.number, ("2", "1"))
    page.reload()
    expect(waiting(page)).to_have_text("Waiting to sync: 1")
    context.set_offline(False)
    expect(waiting(page)).to_have_text("Waiting to sync: 0", timeout=10_000)
    assert Table.objects.get(pk=match.pk).version == 1
    assert list(
        Seat.objects.filter(table=match).order_by("position").values_list("games_won", flat=True)
    ) == [2, 1]
    assert ResultSubmission.objects.count() == 1
    browser_log.assert_clean()


def test_event_time_zone_no_tap_through_and_the_time_an_incident_was_logged(
    live_server, floor, browser, browser_log
):
    """A tablet whose browser is set to another zone (Tokyo) shows the event's time
    (Santiago), as the round page does. A double tap on "Save result" or "Log incident"
    queues once and the second tap does not open table 2's incident screen. An incident
    logged offline 50 minutes before the network came back is recorded at that time."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from events.models import Event, ResultSubmission, Round
    from penalties.models import Penalty
    from tests.browser.conftest import TABLET

    event = Event.objects.get(slug=SLUG)
    event.time_zone = "America/Santiago"
    event.save(update_fields=["time_zone"])
    Round.objects.filter(event=event).update(created_at=timezone.now() - dt.timedelta(hours=2))
    context = browser.new_context(
        viewport=TABLET, locale="en-US", has_touch=True, timezone_id="Asia/Tokyo"
    )
    browser_log.watch(context)
    page = context.new_page()
    try:
        log_in(page, live_server.url, floor["judge"].username, floor["judge"].password)
        page.goto(f"{live_server.url}/events/{SLUG}/manage/tablet/")
        expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
        generated = dt.datetime.fromisoformat(stored(page, "snapshot")["generated_at"])
        santiago = generated.astimezone(ZoneInfo("America/Santiago")).strftime("%H:%M")
        tokyo = generated.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M")
        assert santiago != tokyo
        expect(page.locator("#tablet-snapshot")).to_contain_text(f"Tables as of {santiago}")
        assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
        shot(page, "20-event-time-zone")

        context.set_offline(True)
        expect(page.locator("#tablet-net")).to_contain_text("Offline")
        incident_2 = table_card(page, 2).get_by_role("button", name="Incident").bounding_box()
        table_card(page, 1).get_by_role("button", name="Enter result").click()
        inputs = page.locator("input.tablet-vp")
        for i, value in enumerate(TABLE_1_OFFLINE):
            inputs.nth(i).fill(value)
        save = page.get_by_role("button", name="Save result").bounding_box()
        expect(page.locator("#tablet:not([data-quiet])")).to_be_attached()  # typed at leisure
        # Two quick taps: the first on "Save result", the second where table 2's
        # "Incident" button is once the tables are back.
        page.mouse.click(save["x"] + save["width"] / 2, save["y"] + save["height"] / 2)
        page.mouse.click(
            incident_2["x"] + incident_2["width"] / 2, incident_2["y"] + incident_2["height"] / 2
        )
        expect(table_card(page, 1).locator(".badge.warn")).to_be_visible()
        page.wait_for_timeout(600)
        expect(page.locator(".tablet-choices")).to_have_count(0)
        expect(waiting(page)).to_have_text("Waiting to sync: 1")

        # An incident, its "Log incident" double-tapped.
        table_card(page, 1).get_by_role("button", name="Incident").click()
        page.locator(".tablet-choices button.choice").first.click()
        page.locator("button.infraction[data-code='3.3']").first.click()
        expect(page.locator("#tablet:not([data-quiet])")).to_be_attached()
        page.get_by_role("button", name="Log incident").dblclick()
        expect(waiting(page)).to_have_text("Waiting to sync: 2")
        page.wait_for_timeout(600)
        expect(page.locator(".tablet-choices")).to_have_count(0)
        expect(table_card(page, 1)).to_be_visible()
        # And the views still answer a deliberate tap once the moment has passed.
        table_card(page, 2).get_by_role("button", name="Incident").click()
        expect(page.get_by_role("heading", name="Table 2 · Who committed it?")).to_be_visible()
        page.get_by_role("button", name="← Back").click()
        expect(table_card(page, 2)).to_be_visible()

        # The incident was logged when the outage began, 50 minutes ago.
        logged = timezone.now() - dt.timedelta(minutes=50)
        page.evaluate(
            """(at) => {
              for (let i = 0; i < localStorage.length; i++) {
                const key = localStorage.key(i);
                if (!key.endsWith('.queue')) continue;
                const items = JSON.parse(localStorage.getItem(key));
                items.forEach(it => { if (it.kind === 'incident') it.created = at; });
                localStorage.setItem(key, JSON.stringify(items));
              }
            }""",
            logged.isoformat().replace("+00:00", "Z"),
        )
        context.set_offline(False)
        expect(waiting(page)).to_have_text("Waiting to sync: 0", timeout=15_000)
        penalty = Penalty.objects.get(event=event)
        assert abs((penalty.created_at - logged).total_seconds()) < 1
        assert ResultSubmission.objects.filter(event=event).count() == 1
        shot(page, "21-synced-after-the-outage")
        browser_log.assert_clean()
    finally:
        context.close()


# --------------------------------------------------------------------------- trial fixes
def try_result(page, table, sheet):
    """Types a sheet on a table's result screen and taps "Save result" (it may be refused
    on the tablet: the screen then stays)."""
    table_card(page, table).get_by_role("button", name="Enter result").click()
    inputs = page.locator("input.tablet-vp")
    expect(inputs).to_have_count(len(sheet))
    expect(page.locator("#tablet:not([data-quiet])")).to_be_attached()
    for i, value in enumerate(sheet):
        inputs.nth(i).fill(value)
    page.get_by_role("button", name="Save result").click()


def test_an_impossible_sheet_is_refused_on_the_tablet(live_server, floor, new_context, browser_log):
    """Offline, an impossible VEKN sheet is refused before it is queued, with the reason
    on the result screen: a value out of range, VP adding up to more than the table can
    score (3,3,0,0,0), a complete sheet no legal game gives (2,2,0,0,1). A legal one is
    queued."""
    base = live_server.url
    context = new_context()
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    assert len(stored(page, "snapshot")["legal_sheets"]["5"]) == 546
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    error = page.locator("#tablet-result-error")
    name = floor["round"].tables[0][1]
    cases = [
        (("3", "3", "0", "0", "0"), "These VP add up to more than 5 players can score."),
        (("2", "6", "0", "0", "0"), f"{name}: Each player scores between 0 and 5 VP"),
        (("2", "1.3", "0", "0", "0"), f"{name}: Each player scores between 0 and 5 VP"),
        (("2", "2", "0", "0", "1"), "This sheet is not a legal game result."),
    ]
    try_result(page, 1, cases[0][0])
    for sheet, reason in cases:
        inputs = page.locator("input.tablet-vp")
        for i, value in enumerate(sheet):
            inputs.nth(i).fill(value)
        page.get_by_role("button", name="Save result").click()
        expect(error).to_be_visible()
        expect(error).to_contain_text(reason)
        expect(waiting(page)).to_have_text("Waiting to sync: 0")
    expect(page.locator("input.tablet-vp[aria-invalid='true']")).to_have_count(5)
    shot(page, "30-impossible-sheet-refused")
    # A game still running (2 VP so far) and then the legal end are queued.
    inputs = page.locator("input.tablet-vp")
    for i, value in enumerate(TABLE_1_OFFLINE):
        inputs.nth(i).fill(value)
    page.get_by_role("button", name="Save result").click()
    expect(table_card(page, 1).locator(".badge.warn")).to_be_visible()
    expect(waiting(page)).to_have_text("Waiting to sync: 1")
    expect(page.locator("#tablet-pending")).to_contain_text("Round 2 · Table 1")
    browser_log.assert_clean()


def test_an_earlier_rounds_conflict_says_its_round_and_is_replaced_on_that_table(
    live_server, floor, new_context, browser_log
):
    """Round 2's table 1 entered offline; meanwhile a scorekeeper saves it and round 3 is
    seated. Back online, the card says "Round 2 · Table 1" over round 3's tables, with a
    warning; "Replace them with mine" corrects round 2's table 1 (by its id), never round
    3's table 1. An identical conflict (table 2 saved with the very values the judge
    entered) needs no decision. Screenshot: 31-conflict-of-an-earlier-round."""
    from events import services
    from events.models import Event, Seat, Table

    base = live_server.url
    context = new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    enter_result(page, 1, TABLE_1_OFFLINE)
    enter_result(page, 2, TABLE_2_SCOREKEEPER)
    expect(waiting(page)).to_have_text("Waiting to sync: 2")
    expect(page.locator("#tablet-pending")).to_contain_text("Result: Round 2 · Table 1 — 2, 1.5")

    # Meanwhile: table 1 saved by someone else, table 2 with the judge's very values,
    # and round 3 seated.
    t1 = Table.objects.get(round__event__slug=SLUG, round__number=2, number=1)
    t2 = Table.objects.get(round__event__slug=SLUG, round__number=2, number=2)
    services.save_results(t1, legal(TABLE_2_JUDGE), version=t1.version)
    services.save_results(t2, legal(TABLE_2_SCOREKEEPER), version=t2.version)
    rnd3 = services.seat_next_round(Event.objects.get(slug=SLUG), seed=3)
    assert rnd3.number == 3
    r3_t1 = rnd3.tables.get(number=1)

    context.set_offline(False)
    attention = page.locator("#tablet-attention")
    expect(attention).to_contain_text(
        "Round 2 · Table 1 was changed by someone else", timeout=10_000
    )
    expect(attention).to_contain_text("Needs your decision: 1")  # not table 2
    expect(attention.locator(".tablet-earlier")).to_contain_text(
        "Round 2 is over: replacing the values corrects its result"
    )
    expect(page.locator("#tablet-snapshot")).to_contain_text("Round 3")
    done = page.locator("#tablet-done")
    expect(done).to_contain_text("Round 2 · Table 2")
    expect(done).to_contain_text("Already saved with these same values: nothing to decide.")
    shot(page, "31-conflict-of-an-earlier-round")
    attention.locator(".tablet-item").screenshot(path=str(SHOTS / "31-conflict-card.png"))

    attention.get_by_role("button", name="Replace them with mine").click()
    expect(attention).to_be_hidden(timeout=10_000)
    expect(waiting(page)).to_have_text("Waiting to sync: 0")
    t1.refresh_from_db()
    assert t1.version == 2
    assert [
        f"{v}"
        for v in Seat.objects.filter(table=t1).order_by("position").values_list("vp", flat=True)
    ] == [f"{float(v):.1f}" for v in TABLE_1_OFFLINE]
    r3_t1.refresh_from_db()
    assert r3_t1.version == 0
    assert set(Seat.objects.filter(table=r3_t1).values_list("vp", flat=True)) == {None}
    expect(done).to_contain_text("Round 2 · Table 1")
    assert csp_violations(page) == []
    browser_log.assert_clean()


def test_two_tabs_list_each_synced_entry_once(live_server, floor, new_context, browser_log):
    """Two tabs of the same account share the queue; both are online again at once: each
    entry is listed once under "Synced" (and saved once)."""
    from events.models import ResultSubmission
    from penalties.models import Penalty

    base = live_server.url
    context = new_context()
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    other = context.new_page()
    other.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(other.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    page.bring_to_front()  # a tab in the background paints no frames: clicks would wait
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    log_incident(page, 1, 1, "3.3")
    log_incident(page, 1, 2, "3.3")
    enter_result(page, 1, TABLE_1_OFFLINE)
    expect(waiting(other)).to_have_text("Waiting to sync: 3")
    context.set_offline(False)
    for tab in (page, other):
        expect(waiting(tab)).to_have_text("Waiting to sync: 0", timeout=15_000)
    page.wait_for_timeout(1000)
    for tab in (page, other):
        tab.reload()
        expect(tab.locator("#tablet-done li")).to_have_count(3)
    ids = [e["id"] for e in stored(page, "done")]
    assert len(ids) == len(set(ids)) == 3
    assert Penalty.objects.count() == 2 and ResultSubmission.objects.count() == 1
    browser_log.assert_clean()


def test_mitos_y_leyendas_result_screen_checks_and_labels(
    live_server, make_user, new_context, browser_log
):
    """The MyL result screen says "Games won" and the best-of; 5–0 and 2–2 in a best of 3
    are refused on the tablet, with the reason; the infraction list has no empty "Common
    infractions" heading. Screenshot: 32-myl-result."""
    from events import swiss_services as ss
    from events.permissions import Role
    from tests.events.services.test_swiss_services import make_event

    event, _ = make_event(5, slug="myl-checks")
    rnd = ss.pair_next_round(event, seed=1)
    judge = make_user("mylk")
    give_event_role(event.slug, judge.username, Role.JUDGE)
    match = rnd.tables.filter(is_bye=False).order_by("number").first()

    context = new_context()
    page = context.new_page()
    log_in(page, live_server.url, judge.username, judge.password)
    page.goto(f"{live_server.url}/events/{event.slug}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    error = page.locator("#tablet-result-error")
    try_result(page, match.number, ("5", "0"))
    expect(page.locator(".tablet-vp-head")).to_contain_text("Games won")
    expect(page.locator(".tablet-vp-head")).to_be_visible()
    expect(page.locator(".tablet-best-of")).to_have_text(
        "Best of 3: the first to win 2 games wins the match."
    )
    expect(error).to_have_text("In a best-of-3 match each player wins 0 to 2 games.")
    shot(page, "32-myl-result")
    inputs = page.locator("input.tablet-vp")
    inputs.nth(0).fill("2")
    inputs.nth(1).fill("2")
    page.get_by_role("button", name="Save result").click()
    expect(error).to_have_text("Both players cannot win 2 games.")
    inputs.nth(1).fill("")
    page.get_by_role("button", name="Save result").click()
    expect(error).to_contain_text("Enter the games of both players")
    expect(waiting(page)).to_have_text("Waiting to sync: 0")
    inputs.nth(1).fill("1")
    page.get_by_role("button", name="Save result").click()
    expect(waiting(page)).to_have_text("Waiting to sync: 1")
    # The incident screens: no "Common infractions" heading over nothing.
    table_card(page, match.number).get_by_role("button", name="Incident").click()
    page.locator(".tablet-choices button.choice").first.click()
    expect(page.locator("button.infraction").first).to_be_visible()
    expect(page.get_by_role("heading", name="Common infractions")).to_have_count(0)
    browser_log.assert_clean()


# --------------------------------------------------------------------------- issue 12
def test_a_stuck_entry_never_blocks_the_queue_and_is_set_aside_then_sent_again(
    live_server, floor, new_context, browser_log, monkeypatch
):
    """Issue 12 finding 2: the server fails on two incidents of one player (a bug on its
    side: a JSON error answer); the result queued after them is saved all the same. The
    judge sets both stuck incidents aside (they stay on the tablet, through a reload, and
    are not sent); once the server is fixed, one is sent again (saved once, same id), the
    other dropped after a confirmation. Screenshot: 40-set-aside."""
    from events.models import ResultSubmission, Seat
    from penalties import services as penalties
    from penalties.models import Penalty

    seat = Seat.objects.select_related("registration").get(
        round__event__slug=SLUG, round__number=2, table__number=1, position=1
    )
    real = penalties.log_penalty

    def broken(event, registration, *args, **kwargs):
        if registration.pk == seat.registration_id:
            raise RuntimeError("boom: a bug on the server")
        return real(event, registration, *args, **kwargs)

    monkeypatch.setattr(penalties, "log_penalty", broken)

    base = live_server.url
    context = new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    context.set_offline(True)
    expect(page.locator("#tablet-net")).to_contain_text("Offline")
    log_incident(page, 1, 1, "3.3")
    log_incident(page, 1, 1, "3.6")
    enter_result(page, 1, TABLE_1_OFFLINE)
    expect(waiting(page)).to_have_text("Waiting to sync: 3")
    slow_play, second, result = (item["id"] for item in stored(page, "queue"))

    # Back online: both incidents fail on the server, the result after them is saved.
    context.set_offline(False)
    stuck = page.locator("#tablet-pending li.stuck")
    expect(stuck).to_have_count(2, timeout=10_000)
    expect(waiting(page)).to_have_text("Waiting to sync: 2")
    expect(stuck.first).to_contain_text("Stuck")
    expect(stuck.first).to_contain_text("The server failed on this entry")
    expect(page.locator(f"#tablet-done li[data-id='{result}']")).to_have_count(1)
    shot(page, "39-stuck")
    assert [str(s.client_id) for s in ResultSubmission.objects.all()] == [result]
    assert not Penalty.objects.exists()

    # The judge sets them aside: out of the queue, kept on the tablet.
    for _ in range(2):
        stuck.first.get_by_role("button", name="Set aside").click()
    expect(waiting(page)).to_have_text("Waiting to sync: 0")
    aside = page.locator("#tablet-aside")
    expect(aside).to_be_visible()
    expect(page.locator("#tablet-aside-title")).to_have_text("Set aside: 2")
    items = aside.locator("li.aside")
    expect(items).to_have_count(2)
    expect(items.first).to_contain_text("3.3")
    shot(page, "40-set-aside")
    aside.screenshot(path=str(SHOTS / "40-set-aside-list.png"))
    page.reload()
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    expect(page.locator("#tablet-aside-title")).to_have_text("Set aside: 2")
    expect(waiting(page)).to_have_text("Waiting to sync: 0")
    expect(page.get_by_role("button", name="Sync now")).to_be_disabled()
    assert not Penalty.objects.exists()  # set aside: not sent, even after the reload

    # Fixed on the server: sent again, saved once with its own id.
    monkeypatch.undo()
    items.first.get_by_role("button", name="Send again").click()
    expect(page.locator("#tablet-aside-title")).to_have_text("Set aside: 1", timeout=10_000)
    expect(page.locator(f"#tablet-done li[data-id='{slow_play}']")).to_contain_text("Caution")
    assert [str(p.client_id) for p in Penalty.objects.all()] == [slow_play]

    # The other one is dropped, only once the judge confirms.
    page.once("dialog", lambda dialog: dialog.dismiss())
    items.first.get_by_role("button", name="Drop this entry").click()
    expect(items).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    items.first.get_by_role("button", name="Drop this entry").click()
    expect(aside).to_be_hidden()
    expect(page.locator(f"#tablet-done li[data-id='{second}']")).to_have_attribute(
        "data-status", "dropped"
    )
    assert Penalty.objects.count() == 1
    assert stored(page, "queue") == []

    assert csp_violations(page) == []
    # The server's failures on the two incidents are the errors expected in the log.
    expected = [
        p
        for p in browser_log.problems
        if ("HTTP 500 POST" in p and "/tablet/sync/" in p) or "status of 500" in p
    ]
    assert expected, browser_log.problems
    browser_log.problems = [p for p in browser_log.problems if p not in expected]
    browser_log.assert_clean()


FOCUSED = """() => { const e = document.activeElement;
  return [e.tagName, e.closest('#tablet-main') !== null, e.textContent.trim(),
          e.getAttribute('tabindex')]; }"""


def focused_heading(page, starts_with):
    """The focused element as [tag, inside #tablet-main, text, tabindex], once the focus
    is on a heading whose text starts with ``starts_with``: the view renders, then
    focuses, after the click returns, so a loaded machine must not read the focus in
    between (a wrong focus still fails, after the 10 s wait)."""
    page.wait_for_function(
        """(prefix) => { const e = document.activeElement;
           return e && e.tagName === 'H2' && e.textContent.trim().startsWith(prefix); }""",
        arg=starts_with,
        timeout=10_000,
    )
    return page.evaluate(FOCUSED)


def test_focus_moves_to_the_new_views_heading(live_server, floor, new_context, browser_log):
    """Issue 14 (WCAG 2.4.3): each change of view puts the focus on the new view's heading
    (not a tab stop: tabindex -1), so that a screen reader says where the judge is; back
    on the tables, on their own "Tables" heading."""
    base = live_server.url
    page = new_context().new_page()
    log_in(page, base, floor["judge"].username, floor["judge"].password)
    page.goto(f"{base}/events/{SLUG}/manage/tablet/")
    expect(page.locator("#tablet[data-ready='1']")).to_be_attached(timeout=10_000)
    expect(table_card(page, 1)).to_be_visible()
    name = floor["round"].tables[0][0]

    table_card(page, 1).get_by_role("button", name="Incident").click()
    assert focused_heading(page, "Table 1 · Who") == [
        "H2",
        True,
        "Table 1 · Who committed it?",
        "-1",
    ]
    page.locator(".tablet-choices button.choice").first.click()
    assert focused_heading(page, name) == ["H2", True, name, "-1"]
    page.locator("button.infraction[data-code='3.3']").first.click()
    focused = focused_heading(page, f"{name} · 3.3")
    assert focused[:2] == ["H2", True] and focused[2].startswith(f"{name} · 3.3"), focused
    page.get_by_role("button", name="Log incident").click()
    expect(table_card(page, 1)).to_be_visible()
    assert focused_heading(page, "Tables") == ["H2", True, "Tables", "-1"]

    table_card(page, 1).get_by_role("button", name="Enter result").click()
    expect(page.locator("input.tablet-vp")).to_have_count(5)
    assert focused_heading(page, "Table 1") == ["H2", True, "Table 1", "-1"]
    # The keyboard goes on from the heading: the next Tab lands inside the view.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#tablet-main') !== null")
    page.get_by_role("button", name="← Back").click()
    expect(table_card(page, 1)).to_be_visible()
    assert focused_heading(page, "Tables")[:3] == ["H2", True, "Tables"]
    browser_log.assert_clean()
