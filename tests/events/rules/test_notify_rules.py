"""The notifications' pure rules (events/notify_rules.py, docs/notifications.md): the retry
schedule, the webhook signature and the texts of the notices."""

import hashlib
import hmac
import json

import pytest

from events import notify_rules
from events.notify_rules import Kind, SeatFact


def test_retries_back_off_exponentially_then_give_up():
    delays = [notify_rules.retry_delay(n) for n in range(1, notify_rules.MAX_ATTEMPTS + 1)]
    assert delays == [30, 60, 120, 240, 480, None]
    # The total wait before the last attempt stays under an hour.
    assert sum(d for d in delays if d) == 930
    with pytest.raises(ValueError):
        notify_rules.retry_delay(0)


def test_the_cap_holds_for_a_longer_schedule(monkeypatch):
    monkeypatch.setattr(notify_rules, "MAX_ATTEMPTS", 20)
    assert notify_rules.retry_delay(19) == notify_rules.MAX_RETRY_SECONDS


def test_the_signature_is_the_hmac_sha256_of_the_exact_body():
    body = b'{"content": "hola"}'
    expected = hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert notify_rules.sign("s3cret", body) == f"sha256={expected}"
    assert notify_rules.verify("s3cret", body, f"sha256={expected}")
    assert not notify_rules.verify("other", body, f"sha256={expected}")
    assert not notify_rules.verify("s3cret", body + b" ", f"sha256={expected}")
    assert not notify_rules.verify("s3cret", body, "")


def test_a_vekn_seat_notice_names_table_seat_and_the_others():
    notice = notify_rules.seating_published(
        "Open", "Round 2", SeatFact(3, 4, ("Ana", "Bea")), "/s/", matches=False
    )
    assert notice.kind == Kind.SEATING_PUBLISHED
    assert notice.subject == "Open: seating of Round 2 published"
    assert notice.body == "Table 3, seat 4. At the table: Ana, Bea."
    assert notice.data == {"event": "Open", "round": "Round 2", "table": 3, "seat": 4}


def test_a_myl_pairing_notice_names_the_opponent_or_the_bye():
    paired = notify_rules.seating_published(
        "Liga", "Round 1", SeatFact(7, 1, ("Carla",)), "/s/", matches=True
    )
    assert paired.subject == "Liga: pairings of Round 1 published"
    assert paired.body == "Table 7 against Carla."
    bye = notify_rules.seating_published("Liga", "Round 1", SeatFact(8, 1), "/s/", matches=True)
    assert bye.body == "Table 8 against nobody (a bye)."


def test_the_webhook_body_is_discord_ready_json():
    notice = notify_rules.seating_published("Open", "Round 1", None, "https://x/s/", matches=False)
    payload = json.loads(notice.webhook_body())
    assert payload["content"].startswith("**Open: seating of Round 1 published**\n")
    assert payload["kind"] == "seating_published" and payload["url"] == "https://x/s/"
    long = notify_rules.Notice(Kind.LEAGUE_REPORT, "s", "x" * 5000)
    assert len(json.loads(long.webhook_body())["content"]) == 2000


def test_the_push_body_stays_small():
    notice = notify_rules.Notice(Kind.PENALTY_DECISION, "t", "y" * 5000, "/me/")
    payload = json.loads(notice.push_body())
    assert payload == {"title": "t", "body": "y" * 1000, "url": "/me/"}
    assert len(notice.push_body()) < 4096


def test_penalty_and_league_texts():
    p = notify_rules.penalty_decided("Open", "confirmed", "Warning", "Slow play", "/me/s/")
    assert p.subject == "Open: a penalty concerning you was confirmed"
    assert p.body == "Warning — Slow play."
    r = notify_rules.league_report_waiting("A – B", "2–1", "ana", "/m/")
    assert r.kind == Kind.LEAGUE_REPORT and "Confirm it or dispute it: /m/" in r.body
    c = notify_rules.league_result_reported("A – B", "2–1", "ana", "/m/")
    assert c.subject == "A – B: ana reported 2–1"


def test_only_what_was_chosen_is_wanted():
    chosen = frozenset({("seating_published", "email")})
    assert notify_rules.wanted(Kind.SEATING_PUBLISHED, notify_rules.Channel.EMAIL, chosen)
    assert not notify_rules.wanted(Kind.SEATING_PUBLISHED, notify_rules.Channel.PUSH, chosen)
    assert not notify_rules.wanted(Kind.ROUND_STARTED, notify_rules.Channel.EMAIL, chosen)


def test_a_round_started_notice_gives_the_table_and_the_time():
    mine = notify_rules.round_started("Open", "Round 3", 5, 120, "/s/")
    assert mine.kind == Kind.ROUND_STARTED
    assert (mine.subject, mine.body) == (
        "Open: Round 3 has started",
        "Table 5. 120 minutes on the clock.",
    )
    whole = notify_rules.round_started("Open", "Final", None, 90, "/s/")
    assert whole.body == "90 minutes on the clock." and "table" not in whole.data


def test_a_round_ending_notice_gives_the_minutes_left_at_the_table():
    mine = notify_rules.round_ending("Open", "Round 3", 5, 12, "/s/")
    assert mine.kind == Kind.ROUND_ENDING
    assert (mine.subject, mine.body) == (
        "Open: Round 3 ends in 12 minutes",
        "Table 5: 12 minutes left.",
    )
    assert mine.data == {"event": "Open", "round": "Round 3", "minutes_left": 12, "table": 5}
    one = notify_rules.round_ending("Open", "Final", None, 1, "/s/")
    assert (one.subject, one.body) == (
        "Open: Final ends in 1 minute",
        "1 minute left on the round's clock.",
    )


@pytest.mark.parametrize(
    ("seconds_left", "due"),
    [(None, False), (0, False), (1, True), (600, True), (601, False), (7200, False)],
)
def test_the_round_ending_notice_is_due_in_the_last_minutes_only(seconds_left, due):
    assert notify_rules.round_ending_due(seconds_left, 10) is due


def test_the_round_ending_lead_is_at_least_a_minute():
    with pytest.raises(ValueError):
        notify_rules.round_ending_due(30, 0)


def test_a_judge_call_answered_notice_names_the_judge_and_the_table():
    notice = notify_rules.judge_call_answered("Open", 7, "Jude Law", "/me/")
    assert notice.kind == Kind.JUDGE_CALL_ANSWERED
    assert notice.subject == "Open: a judge is coming to table 7"
    assert notice.body == "Jude Law answered your call." and notice.data["table"] == 7


@pytest.mark.parametrize(
    "address, public",
    [
        ("93.184.216.34", True),
        ("2606:4700:4700::1111", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("192.168.0.10", False),
        ("172.16.5.4", False),
        ("169.254.169.254", False),  # cloud metadata services answer here
        ("::1", False),
        ("fe80::1%eth0", False),
        ("::ffff:127.0.0.1", False),
        ("224.0.0.1", False),
        ("0.0.0.0", False),
        ("not an address", False),
    ],
)
def test_webhooks_go_to_public_addresses_only(address, public):
    assert notify_rules.is_public_address(address) is public


@pytest.mark.parametrize(
    "url, private",
    [
        ("https://discord.com/api/webhooks/1/x", False),
        ("https://localhost/hook", True),
        ("https://api.localhost/hook", True),
        ("https://127.0.0.1:8443/hook", True),
        ("https://[::1]/hook", True),
        ("https://10.0.0.5/hook", True),
        ("https://93.184.216.34/hook", False),
    ],
)
def test_a_webhook_url_naming_this_network_is_refused_at_once(url, private):
    assert notify_rules.private_host(url) is private
