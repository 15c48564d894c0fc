"""Judging during a running round, end to end in Chromium on tablets (820×1180, touch).

Ten players, round 1 played, round 2 seated and running (tables 5 + 5; table 2 already has
its result: seat 1 won narrowly, 3 VP against 2). A floor judge and a head judge work the
floor on their own tablets:

1. a caution for slow play (3.3) on a player of table 1, in at most 5 taps from the round
   page; an infraction with a question (2.1) previews without saving anything;
2. the same player twice more: the third is a Warning (offence 3), shown before confirming;
3. a double tap on Confirm, and the same form submitted again, save one penalty only;
4. a standings adjustment (2.4) on table 2's narrow winner stays pending (the GW stays)
   until the head judge confirms it: GW gone, −1 VP;
5. a disqualification (4.7) during the round, confirmed by the head judge, with its written
   report and printable version: the player leaves the standings;
6. the head judge voids the first caution: the later 3.3 offences are renumbered;
7. the player sees their own sanctions only; the public standings show no penalty but
   what changed a score: the confirmed standings adjustment, with its round (issue 14);
8. a time extension (+4 min) once the round's clock is started.

Setup through the ORM: users, roles, the organisation, the players and the rounds already
played (``events.services``). Everything the judges do goes through the browser.
Run: ``.venv/bin/pytest tests/browser/test_judging.py -q``. Screenshots:
``test-artifacts/browser/judging/``.
"""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from penalties import vekn_guide as guide
from tests.browser.conftest import ARTIFACTS, Account
from tests.browser.judging_pages import (
    TAP_COUNTER_JS,
    RunningRound,
    back_to_round,
    confirm_button,
    confirm_penalty,
    event_with_round_2_running,
    form_fields,
    give_event_role,
    h1,
    incident_on_table,
    link_account,
    messages,
    open_my_event,
    open_penalty,
    open_tab,
    penalty_pk,
    penalty_rows,
    pick_infraction,
    preview,
    reset_taps,
    resubmit,
    screenshots,
    standings_names,
    standings_row,
    status_badge,
    table_card,
    tap_and_wait,
    taps,
)
from tests.browser.pages import log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SLUG = "copa-judging-2026"
EVENT = "Copa Judging"
ROUND_1 = [("1.5", "0", "1.5", "0", "0.5"), ("2", "1.5", "0", "1", "0")]
NARROW_WIN = ("3", "2", "0", "0", "0")  # table 2 of round 2: seat 1 wins, 3 VP against 2
SHOTS = ARTIFACTS / "judging"
MAX_TAPS_FOR_A_CAUTION = 5
PENALTY_WORDS = re.compile(
    r"caution|warning|slow play|cheating|disqualif|standings adjustment|penalt|sanction", re.I
)


@dataclass(frozen=True)
class Cast:
    """The event with round 2 running, and who is who."""

    running: RunningRound
    judge: Account  # floor judge (role "judge")
    head: Account  # head judge
    player: Account  # the slow player's own account
    slow: str  # table 1, seat 2: slow play
    cheat: str  # table 1, seat 4: cheating
    narrow_winner: str  # table 2, seat 1: 3 VP against 2


@pytest.fixture
def cast(organisation, make_user) -> Cast:
    running = event_with_round_2_running(
        organisation, slug=SLUG, name=EVENT, round_1=ROUND_1, table_2=NARROW_WIN
    )
    table_1, table_2 = running.tables
    judge, head, player = make_user("jude"), make_user("hana"), make_user("pia")
    give_event_role(SLUG, judge.username, "judge")
    give_event_role(SLUG, head.username, "head_judge")
    link_account(player.username, table_1[1])
    return Cast(running, judge, head, player, table_1[1], table_1[3], table_2[0])


def explanation(code: str, levels_before: list[str]) -> str:
    """What the judges' guide engine says for the next offence (the oracle)."""
    history = [guide.PriorPenalty(code, level) for level in levels_before]
    return guide.assess(guide.VEKN_V2, code, {}, history, []).explanation


def clock(text: str) -> datetime:
    """The first HH:MM in ``text``."""
    return datetime.strptime(re.search(r"\d{2}:\d{2}", text).group(0), "%H:%M")


def minutes_after(start: datetime, end: datetime) -> int:
    """Minutes from clock time ``start`` to clock time ``end``, across midnight."""
    return int(((end - start) % timedelta(days=1)).total_seconds() // 60)


def floor_judge_tablet(new_context, base: str, account: Account):
    """The floor judge signs in on a tablet that counts taps and opens round 2."""
    context = new_context()
    context.add_init_script(TAP_COUNTER_JS)
    page = context.new_page()
    log_in(page, base, account.username, account.password)
    open_my_event(page, EVENT)
    tap_and_wait(page, page.get_by_role("link", name="Current round: Round 2"))
    expect(page.get_by_role("heading", level=2, name="Round 2")).to_be_visible()
    return page


def test_judging_during_a_running_round(live_server, cast, new_context, browser_log):
    from penalties.models import DisqualificationReport, Penalty, TimeExtension

    base = live_server.url
    shots = screenshots(SHOTS)
    table_1 = cast.running.tables[0]
    slow, cheat, winner = cast.slow, cast.cheat, cast.narrow_winner

    # 1. A caution for slow play, counted in taps from the round view.
    fj = floor_judge_tablet(new_context, base, cast.judge)
    expect(table_card(fj, 2).locator("h3 .badge")).to_have_text("done")
    expect(table_card(fj, 1).locator("h3 .badge")).to_have_text("playing")
    shots(fj, "round-2-running")
    reset_taps(fj)
    incident_on_table(fj, 1, slow, shots=shots)
    expect(fj.locator("#infractions a").first).to_have_text("3.3 Slow Play")
    shots(fj, "infraction-list")
    pick_infraction(fj, "3.3", "Slow Play")
    expect(preview(fj).locator("h2")).to_contain_text("Caution")
    expect(preview(fj).locator("h2 .badge")).to_have_text("offence 1")
    expect(preview(fj)).to_contain_text(explanation("3.3", []))
    expect(fj.locator("#preview")).to_contain_text("Not saved yet.")
    shots(fj, "slow-play-preview-offence-1")
    first_caution = confirm_penalty(fj)
    tap_count = taps(fj)
    print(f"slow-play caution: {tap_count} taps from the round page")
    assert tap_count <= MAX_TAPS_FOR_A_CAUTION, f"{tap_count} taps for a caution"
    expect(messages(fj)).to_contain_text("Saved: Caution.")
    expect(h1(fj)).to_have_text(f"Caution · {slow}")
    expect(status_badge(fj)).to_have_text("Confirmed")
    saved = fj.locator("section.penalty-preview")
    expect(saved).to_contain_text("Offence 1 of this infraction in the event.")
    expect(saved).to_contain_text("Guide's penalty: Caution")
    expect(saved).to_contain_text(explanation("3.3", []))
    shots(fj, "slow-play-saved-caution")

    # An infraction with a question: no penalty until it is answered, each answer
    # previews its level, and leaving the page saves nothing.
    back_to_round(fj, 2)
    incident_on_table(fj, 1, table_1[0])
    pick_infraction(fj, "2.1", "Missed Mandatory Effect")
    expect(fj.locator("#preview")).to_contain_text("Answer the questions above to see the penalty.")
    expect(confirm_button(fj)).to_be_disabled()
    question = fj.locator("fieldset.question")
    expect(question.locator("legend")).to_contain_text("did missing it give an advantage?")
    question.get_by_label("Yes").tap()
    expect(preview(fj).locator("h2")).to_contain_text("Warning")
    question.get_by_label("No").tap()
    expect(preview(fj).locator("h2")).to_contain_text("Caution")
    expect(confirm_button(fj)).to_be_enabled()
    shots(fj, "missed-effect-preview-with-question")
    tap_and_wait(fj, fj.get_by_role("link", name="other infraction"))
    expect(h1(fj)).to_have_text(f"Infraction · {table_1[0]}")

    # 2 + 3. Twice more on the slow player: the second confirmed with a double tap …
    tap_and_wait(fj, fj.get_by_role("link", name="← Round 2 · Table 1"))
    tap_and_wait(fj, fj.get_by_role("link", name="← Round 2"))
    incident_on_table(fj, 1, slow)
    pick_infraction(fj, "3.3", "Slow Play")
    expect(preview(fj).locator("h2")).to_contain_text("Caution")
    expect(preview(fj).locator("h2 .badge")).to_have_text("offence 2")
    # The same infraction for the same player minutes ago: the app asks to confirm it is new.
    expect(fj.locator("#incident-form")).to_contain_text("Already logged for this player")
    fj.get_by_label("This is a new offence").check()
    fj.wait_for_load_state("networkidle")
    # A double tap sends the form twice: the browser drops the first request's navigation
    # (ERR_ABORTED) for the second one, so wait for where the page ends, not for a
    # particular navigation (which raced: the flake the reruns hid).
    confirm_button(fj).dblclick()
    fj.wait_for_url(re.compile(r"/penalties/\d+/(\?from=table)?$"))
    expect(fj.locator(".messages")).to_contain_text("aved")
    second_caution = penalty_pk(fj)
    expect(h1(fj)).to_have_text(f"Caution · {slow}")
    expect(fj.locator("section.penalty-preview")).to_contain_text("Offence 2 of")

    # … the third escalates to a Warning, shown before confirming …
    back_to_round(fj, 2)
    incident_on_table(fj, 1, slow)
    pick_infraction(fj, "3.3", "Slow Play")
    expect(preview(fj).locator("h2")).to_contain_text("Warning")
    expect(preview(fj).locator("h2 .badge")).to_have_text("offence 3")
    expect(preview(fj)).to_contain_text(explanation("3.3", ["caution", "caution"]))
    expect(preview(fj)).to_contain_text("Offence 3 gives Warning.")
    shots(fj, "slow-play-preview-offence-3-warning")
    fj.get_by_label("This is a new offence").check()
    fj.wait_for_load_state("networkidle")
    sent = form_fields(fj, "#incident-form")
    warning = confirm_penalty(fj)
    expect(messages(fj)).to_contain_text("Saved: Warning.")
    expect(h1(fj)).to_have_text(f"Warning · {slow}")
    expect(fj.locator("section.penalty-preview")).to_contain_text(
        "Offence 3 of this infraction in the event. Guide's penalty: Warning"
    )
    shots(fj, "slow-play-saved-warning")

    # … and the very same form submitted again (a retry): the same penalty, not a new one.
    resubmit(fj, f"/events/{SLUG}/manage/incidents/new/", {**sent, "confirm": "1"})
    expect(messages(fj)).to_contain_text("Already saved (this submission was received before).")
    assert penalty_pk(fj) == warning
    expect(h1(fj)).to_have_text(f"Warning · {slow}")
    tap_and_wait(fj, fj.get_by_role("link", name="← Penalties"))
    rows = penalty_rows(fj, slow)
    expect(rows.locator("td:nth-child(3)")).to_have_text(["3.3"] * 3)
    expect(rows.locator("td:nth-child(4)")).to_have_text(
        ["Warning (offence 3)", "Caution (offence 2)", "Caution"]
    )
    expect(penalty_rows(fj, table_1[0])).to_have_count(0)  # the 2.1 preview saved nothing
    assert len({first_caution, second_caution, warning}) == 3

    # 4. A standings adjustment that takes a Game Win: pending until the head judge confirms.
    open_tab(fj, "Standings")
    before = standings_row(fj, winner)
    assert before.gw >= 1, before
    open_tab(fj, "Round 2")
    incident_on_table(fj, 2, winner)
    pick_infraction(fj, "2.4", "Failure to Maintain Game State")
    expect(preview(fj).locator("h2")).to_contain_text("Standings Adjustment")
    expect(preview(fj)).to_contain_text("Stays pending until the head judge confirms it.")
    shots(fj, "adjustment-preview-pending")
    adjustment = confirm_penalty(fj)
    expect(status_badge(fj)).to_have_text("Pending head judge")
    expect(fj.get_by_role("button", name="Confirm")).to_have_count(0)  # not the floor's call
    shots(fj, "adjustment-saved-pending")
    back_to_round(fj, 2)
    open_tab(fj, "Standings")
    assert standings_row(fj, winner) == before, "a pending adjustment already counts"

    hj = new_context().new_page()  # the head judge's tablet
    log_in(hj, base, cast.head.username, cast.head.password)
    open_my_event(hj, EVENT)
    open_tab(hj, "Penalties")
    waiting = hj.locator("section.card").filter(
        has=hj.get_by_role("heading", name="Waiting for the head judge")
    )
    expect(waiting.locator("a.btn")).to_have_text([f"2.4 · Standings adjustment · {winner}"])
    shots(hj, "penalties-list-pending-adjustment")
    tap_and_wait(hj, waiting.get_by_role("link", name=re.compile(winner)))
    assert penalty_pk(hj) == adjustment
    tap_and_wait(hj, hj.get_by_role("button", name="Confirm"))
    expect(messages(hj)).to_contain_text("Confirmed.")
    expect(status_badge(hj)).to_have_text("Confirmed")
    back_to_round(hj, 2)
    open_tab(hj, "Standings")
    after = standings_row(hj, winner)
    assert (after.gw, after.vp) == (before.gw - 1, before.vp - 1), (before, after)
    assert after.tp == before.tp - 6, "a shared first place: (60 + 48) / 2 = 54 TP, not 60"
    shots(hj, "standings-after-adjustment")

    # 5. A disqualification during the round: pending, confirmed, reported, printed.
    fj.reload()
    open_tab(fj, "Round 2")
    incident_on_table(fj, 1, cheat)
    fj.get_by_placeholder("Search by name or code").fill("cheat")
    expect(fj.locator("#infractions a")).to_have_text(["4.7 Cheating"])
    pick_infraction(fj, "4.7", "Cheating")
    expect(preview(fj).locator("h2")).to_contain_text("Disqualification")
    expect(preview(fj)).to_contain_text("Stays pending until the head judge confirms it.")
    fj.locator("details.card summary").filter(has_text="More").tap()
    fj.locator("#description").fill("Drew two extra cards and hid them under the crypt.")
    dq = confirm_penalty(fj)
    expect(status_badge(fj)).to_have_text("Pending head judge")
    expect(h1(fj)).to_have_text(f"Disqualification · {cheat}")
    back_to_round(fj, 2)
    open_tab(fj, "Standings")
    assert cheat in standings_names(fj), "a pending disqualification already counts"

    open_tab(hj, "Penalties")
    expect(waiting.locator("a.btn")).to_have_text([f"4.7 · Disqualification · {cheat}"])
    tap_and_wait(hj, waiting.get_by_role("link", name=re.compile(cheat)))
    assert penalty_pk(hj) == dq
    expect(hj.locator("section.penalty-preview")).to_contain_text("Drew two extra cards")
    shots(hj, "dq-pending-head-judge")
    tap_and_wait(hj, hj.get_by_role("button", name="Confirm"))
    expect(messages(hj)).to_contain_text("Confirmed.")
    tap_and_wait(hj, hj.get_by_role("link", name="Disqualification report"))
    expect(h1(hj)).to_have_text("Disqualification report")
    hj.get_by_label("What happened").fill(
        "Round 2, table 1: seen drawing two extra cards and hiding them under the crypt."
    )
    hj.get_by_label("Statements").fill("The player says the cards stuck together.")
    witnesses = f"{table_1[0]}, {table_1[2]}; floor judge jude."
    hj.get_by_label("Witnesses").fill(witnesses)
    hj.get_by_label("Intentional (refer to the ethics committee)").check()
    shots(hj, "dq-report-form")
    tap_and_wait(hj, hj.get_by_role("button", name="Save report"))
    expect(messages(hj)).to_contain_text("Report saved.")
    tap_and_wait(hj, hj.get_by_role("link", name="Printable version"))
    printable = hj.locator("main")
    expect(printable).to_contain_text(f"{cheat} · VEKN")
    expect(printable).to_contain_text("seen drawing two extra cards")
    expect(printable).to_contain_text("The player says the cards stuck together.")
    expect(printable).to_contain_text(witnesses)
    expect(printable).to_contain_text("Intentional: referred to the ethics committee.")
    expect(printable.locator("form")).to_have_count(0)
    shots(hj, "dq-report-printable")
    hj.goto(f"{base}/events/{SLUG}/manage/standings/")  # the report page has no way back
    assert cheat not in standings_names(hj), "a disqualified player is still ranked"
    expect(hj.locator("table.standings tbody tr")).to_have_count(9)
    shots(hj, "standings-after-dq")

    # 6. The head judge voids the first caution: the later 3.3 offences are renumbered.
    open_tab(hj, "Penalties")
    open_penalty(hj, first_caution)
    hj.get_by_label("Why it is voided").fill("Logged on the wrong player.")
    tap_and_wait(hj, hj.get_by_role("button", name="Void"))
    expect(messages(hj)).to_contain_text("Voided.")
    expect(status_badge(hj)).to_have_text("Voided")
    expect(hj.locator("section.penalty-preview .msg.error")).to_contain_text(
        "Voided: Logged on the wrong player."
    )
    shots(hj, "caution-voided")
    tap_and_wait(hj, hj.get_by_role("link", name="← Penalties"))
    rows = penalty_rows(hj, slow)
    expect(rows.locator("td:nth-child(4)")).to_have_text(
        ["Caution (offence 2)", "Caution", "Caution"]
    )
    expect(rows.locator("td:nth-child(5)")).to_have_text(["Confirmed", "Confirmed", "Voided"])
    shots(hj, "penalties-list-after-void")
    open_penalty(hj, warning)
    expect(h1(hj)).to_have_text(f"Caution · {slow}")
    expect(hj.locator("section.penalty-preview")).to_contain_text(
        "Offence 2 of this infraction in the event. Guide's penalty: Caution"
    )

    # 7. The player sees their own sanctions (active and voided), nobody else's …
    me = new_context().new_page()
    log_in(me, base, cast.player.username, cast.player.password)
    tap_and_wait(me, me.get_by_role("link", name="My page"))
    tap_and_wait(me, me.get_by_role("link", name="My sanction history"))
    expect(me).to_have_url(f"{base}/players/me/sanctions/")
    mine = me.locator("table.grid tbody tr")
    expect(mine.locator("td:nth-child(2)")).to_have_text(["3.3 Slow Play"] * 3)
    expect(mine.locator("td:nth-child(3)")).to_have_text(["Caution"] * 3)
    expect(mine.locator("td:nth-child(4)")).to_have_text(
        ["Active", "Active", re.compile(r"^Voided\s+Logged on the wrong player\.$")]
    )
    for other in ("2.4", "4.7", cheat, winner):
        expect(me.locator("main")).not_to_contain_text(other)
    shots(me, "player-my-sanctions")

    # … and the public standings, once published, show no penalty.
    tap_and_wait(hj, hj.get_by_role("link", name="← Penalties"))
    open_tab(hj, "Standings")
    tap_and_wait(hj, hj.get_by_role("button", name="Publish standings"))
    expect(messages(hj)).to_contain_text("Standings published.")
    public = new_context().new_page()
    public.goto(f"{base}/events/{SLUG}/standings/")
    expect(public.locator("table.standings tbody tr")).to_have_count(9)
    public_text = public.locator("main").inner_text()
    assert cheat not in public_text
    # What changed a score is shown, with its round (JG §1.1.3, issue 14) …
    note = re.compile(r"−1 VP in Round 2 \(standings adjustment\)")
    winner_row = public.locator("table.standings tbody tr", has_text=winner)
    expect(winner_row).to_contain_text("−1 VP in Round 2 (standings adjustment)")
    # … and nothing else of the penalties: no infraction, level, or sanction.
    rest = note.sub("", public_text)
    assert not PENALTY_WORDS.search(rest), PENALTY_WORDS.search(rest)
    shots(public, "public-standings")

    # 8. A time extension: start the round's clock, 4 minutes at table 1 → +4 min.
    open_tab(fj, "Round 2")
    tap_and_wait(fj, fj.get_by_role("button", name="Start the clock"))
    started = clock(fj.locator(".actions .muted").filter(has_text="Started at").inner_text())
    ends = table_card(fj, 1).locator("p.muted").filter(has_text="Ends")
    assert minutes_after(started, clock(ends.inner_text())) == 120
    tap_and_wait(fj, table_card(fj, 1).get_by_role("link", name="Time"))
    expect(h1(fj)).to_have_text("Time extension · Round 2 · Table 1")
    expect(fj.locator("main")).to_contain_text("0 min granted so far")
    grant = fj.locator("#suggestion button")
    expect(grant).to_be_disabled()
    fj.get_by_label("Minutes the judge spent at the table").tap()
    fj.keyboard.type("4")
    suggestion = fj.locator("#suggestion p.check")
    expect(suggestion).to_contain_text("a complex investigation (3–5 minutes)")
    expect(suggestion).to_contain_text("Suggested: +4 min.")
    expect(grant).to_have_text("Grant +4 min")
    expect(grant).to_be_enabled()
    fj.get_by_label("Reason").fill("Ruling on a contested bleed")
    shots(fj, "time-extension-suggestion")
    tap_and_wait(fj, grant)
    expect(messages(fj)).to_contain_text("Extension granted.")
    ends = table_card(fj, 1).locator("p.muted").filter(has_text="Ends")
    expect(ends).to_contain_text("(+4 min)")
    assert minutes_after(started, clock(ends.inner_text())) == 124
    expect(table_card(fj, 2).locator("p.muted")).not_to_contain_text("+")
    shots(fj, "round-2-end-times")

    # The database agrees with what the pages showed.
    penalties = Penalty.objects.filter(event__slug=SLUG)
    assert sorted(penalties.values_list("infraction", flat=True)) == [
        "2.4",
        "3.3",
        "3.3",
        "3.3",
        "4.7",
    ]
    assert DisqualificationReport.objects.filter(penalty_id=dq, intentional=True).exists()
    assert list(TimeExtension.objects.values_list("minutes", flat=True)) == [4]
    browser_log.assert_clean()


def test_back_then_confirm_again_saves_one_penalty(live_server, cast, new_context):
    """A judge confirms a caution, taps Back and Confirm again: the app warns that this
    player just got the same infraction and saves nothing until the judge says it is a
    new offence."""
    from penalties.models import Penalty

    shots = screenshots(SHOTS, "back-")
    fj = floor_judge_tablet(new_context, live_server.url, cast.judge)
    incident_on_table(fj, 1, cast.slow)
    pick_infraction(fj, "3.3", "Slow Play")
    confirm_penalty(fj)
    fj.go_back()
    expect(h1(fj)).to_have_text("3.3 Slow Play")
    shots(fj, "after-back")
    tap_and_wait(fj, confirm_button(fj))
    shots(fj, "confirmed-again")
    expect(fj.locator(".msg.error")).to_contain_text("already got 3.3")
    assert Penalty.objects.filter(event__slug=SLUG).count() == 1
    # A real second offence is one tick away.
    fj.get_by_label("This is a new offence").check()
    tap_and_wait(fj, confirm_button(fj))
    assert Penalty.objects.filter(event__slug=SLUG).count() == 2
