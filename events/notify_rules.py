"""What the notifications say and when they are tried again (docs/notifications.md): the
kinds a person may opt in to, the channels, the texts of a notice, the retry schedule of a
failed delivery and the signature of an outgoing webhook.

Pure: frozen dataclasses and the standard library, no ORM and no request
(docs/architecture.md "Layers and the direction of imports"). The texts are translated
with Django's ``gettext`` in the language active where they are built (the worker
activates the site's language, ``settings.LANGUAGE_CODE``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import urlsplit

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext


class Kind(StrEnum):
    """What a notice is about. The codes are stored (preferences, the delivery log) and sent
    in webhook bodies: never renamed (docs/architecture.md "Rules of the house")."""

    SEATING_PUBLISHED = "seating_published"
    ROUND_STARTED = "round_started"
    ROUND_ENDING = "round_ending"
    RESULT_TO_CONFIRM = "result_to_confirm"
    JUDGE_CALL_ANSWERED = "judge_call_answered"
    PENALTY_DECISION = "penalty_decision"
    LEAGUE_DEADLINE = "league_deadline"
    LEAGUE_REPORT = "league_report"


class Channel(StrEnum):
    """How a notice travels. ``webhook`` belongs to organisations, the others to people."""

    EMAIL = "email"
    PUSH = "push"
    WEBHOOK = "webhook"


PERSONAL_CHANNELS = (Channel.EMAIL, Channel.PUSH)
"""The channels a person opts in to on their preferences page."""

KIND_LABELS = {
    Kind.SEATING_PUBLISHED: gettext_lazy("My seat or pairing is published"),
    Kind.ROUND_STARTED: gettext_lazy("A round of mine starts"),
    Kind.ROUND_ENDING: gettext_lazy("A round of mine is about to end"),
    Kind.RESULT_TO_CONFIRM: gettext_lazy("A result waits for my confirmation"),
    Kind.JUDGE_CALL_ANSWERED: gettext_lazy("A judge answers my call"),
    Kind.PENALTY_DECISION: gettext_lazy("A penalty or appeal decision concerns me"),
    Kind.LEAGUE_DEADLINE: gettext_lazy("A league deadline is near"),
    Kind.LEAGUE_REPORT: gettext_lazy("A league report waits for me"),
}
"""Each kind's label on the preferences page and in the delivery log."""

CHANNEL_LABELS = {
    Channel.EMAIL: gettext_lazy("E-mail"),
    Channel.PUSH: gettext_lazy("Phone notification"),
    Channel.WEBHOOK: gettext_lazy("Webhook"),
}

MAX_ATTEMPTS = 6
"""Attempts of one delivery before it is given up (``failed``) **[choice]**: with
:func:`retry_delay` the last one is about 40 minutes after the first."""

FIRST_RETRY_SECONDS = 30
MAX_RETRY_SECONDS = 3600


def retry_delay(attempts: int) -> int | None:
    """Seconds to wait before the next attempt after ``attempts`` failed ones (1, 2, …):
    exponential back-off, 30 s doubled each time (30, 60, 120, 240, 480…) and capped at one
    hour; ``None`` once :data:`MAX_ATTEMPTS` have failed (give up). ``ValueError`` for
    ``attempts < 1``."""
    if attempts < 1:
        raise ValueError("attempts counts the failed attempts: 1 or more")
    if attempts >= MAX_ATTEMPTS:
        return None
    return min(FIRST_RETRY_SECONDS * 2 ** (attempts - 1), MAX_RETRY_SECONDS)


SIGNATURE_HEADER = "X-Arbitro-Signature"
"""The webhook header holding ``sha256=<hex HMAC-SHA256 of the raw body>``."""


def sign(secret: str, body: bytes) -> str:
    """The value of :data:`SIGNATURE_HEADER` for ``body`` (the exact bytes sent):
    ``"sha256="`` and the lowercase hex HMAC-SHA256 keyed with the webhook's secret (UTF-8).
    A receiver recomputes it and compares in constant time (``hmac.compare_digest``)."""
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify(secret: str, body: bytes, header: str) -> bool:
    """Whether ``header`` is :func:`sign`'s value for ``body`` (constant-time compare)."""
    return hmac.compare_digest(sign(secret, body), header or "")


@dataclass(frozen=True)
class Notice:
    """One notice, the same for every channel: ``subject`` (the e-mail's subject, the push
    title), ``body`` (plain text), ``url`` (a path on the site, or ``""``), ``data`` (the
    JSON-safe facts a webhook sends beside the text)."""

    kind: Kind
    subject: str
    body: str
    url: str = ""
    data: dict = field(default_factory=dict)

    def webhook_body(self) -> bytes:
        """The JSON body of an outgoing webhook (UTF-8, keys sorted). ``content`` is the
        text a Discord channel webhook shows as the message **[choice: the same body suits
        Discord and any other receiver; Discord ignores the other keys]**; ``kind``,
        ``url`` and ``data`` are for programs."""
        text = f"**{self.subject}**\n{self.body}" if self.body else self.subject
        payload = {
            "content": text[:2000],  # Discord's limit of one message
            "kind": str(self.kind),
            "subject": self.subject,
            "body": self.body,
            "url": self.url,
            "data": self.data,
        }
        return json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()

    def push_body(self) -> bytes:
        """The Web Push payload the players' service worker shows (JSON: title, body,
        url). Kept under the 4 KB a push service accepts by cutting the body."""
        payload = {"title": self.subject, "body": self.body[:1000], "url": self.url}
        return json.dumps(payload, ensure_ascii=False).encode()


@dataclass(frozen=True)
class SeatFact:
    """One player's place in a published round: ``table`` number, ``seat`` position
    (1-based), and the other players at the table (names, seat order)."""

    table: int
    seat: int
    others: tuple[str, ...] = ()


def seating_published(
    event_name: str, round_label: str, place: SeatFact | None, url: str, *, matches: bool
) -> Notice:
    """A round's seating (VEKN) or pairing (MyL, ``matches``) is published. ``place`` is the
    reader's seat, or ``None`` for the organisation's webhook (the round as a whole)."""
    if matches:
        subject = _("%(event)s: pairings of %(round)s published")
    else:
        subject = _("%(event)s: seating of %(round)s published")
    subject = subject % {"event": event_name, "round": round_label}
    if place is None:
        body = _("See the tables: %(url)s") % {"url": url}
    elif matches:
        body = _("Table %(table)s against %(others)s.") % {
            "table": place.table,
            "others": ", ".join(place.others) or _("nobody (a bye)"),
        }
    else:
        body = _("Table %(table)s, seat %(seat)s. At the table: %(others)s.") % {
            "table": place.table,
            "seat": place.seat,
            "others": ", ".join(place.others),
        }
    data = {"event": event_name, "round": round_label}
    if place is not None:
        data.update(table=place.table, seat=place.seat)
    return Notice(Kind.SEATING_PUBLISHED, subject, body, url, data)


def round_started(
    event_name: str, round_label: str, table: int | None, minutes: int, url: str
) -> Notice:
    """A round's clock started (docs/notifications.md): the reader's ``table`` (``None`` for
    the organisation's webhook) and the round's length in minutes (the event's round or
    final time)."""
    subject = _("%(event)s: %(round)s has started") % {"event": event_name, "round": round_label}
    if table is None:
        body = _("%(minutes)s minutes on the clock.") % {"minutes": minutes}
    else:
        body = _("Table %(table)s. %(minutes)s minutes on the clock.") % {
            "table": table,
            "minutes": minutes,
        }
    data = {"event": event_name, "round": round_label, "minutes": minutes}
    if table is not None:
        data["table"] = table
    return Notice(Kind.ROUND_STARTED, subject, body, url, data)


def round_ending(
    event_name: str, round_label: str, table: int | None, minutes_left: int, url: str
) -> Notice:
    """A round's clock is about to reach its end (docs/notifications.md "The round's end"):
    ``minutes_left`` whole minutes (rounded up) at the reader's ``table`` (its time
    extensions counted, JG §1.2.4), or at the round's clock for the organisation's webhook
    (``table`` ``None``)."""
    subject = ngettext(
        "%(event)s: %(round)s ends in %(minutes)s minute",
        "%(event)s: %(round)s ends in %(minutes)s minutes",
        minutes_left,
    ) % {"event": event_name, "round": round_label, "minutes": minutes_left}
    if table is None:
        body = ngettext(
            "%(minutes)s minute left on the round's clock.",
            "%(minutes)s minutes left on the round's clock.",
            minutes_left,
        ) % {"minutes": minutes_left}
    else:
        body = ngettext(
            "Table %(table)s: %(minutes)s minute left.",
            "Table %(table)s: %(minutes)s minutes left.",
            minutes_left,
        ) % {"table": table, "minutes": minutes_left}
    data = {"event": event_name, "round": round_label, "minutes_left": minutes_left}
    if table is not None:
        data["table"] = table
    return Notice(Kind.ROUND_ENDING, subject, body, url, data)


def round_ending_due(seconds_left: int | None, lead_minutes: int) -> bool:
    """Whether the "about to end" notice of a round is due now: its clock is running with
    more than 0 and at most ``lead_minutes`` minutes left **[choice: a round already over
    when the sweep first sees it gets none; a paused one waits until it runs again]**.
    ``seconds_left`` is the running clock's (``events.round_clock.Clock``), ``None`` for a
    clock not running. ``ValueError`` for ``lead_minutes < 1``."""
    if lead_minutes < 1:
        raise ValueError("lead_minutes must be >= 1")
    return seconds_left is not None and 0 < seconds_left <= lead_minutes * 60


def judge_call_answered(event_name: str, table: int, judge: str, url: str) -> Notice:
    """A judge took the call of the reader's table (docs/players.md "Calling a judge"):
    ``judge`` is the judge's name as players see it."""
    subject = _("%(event)s: a judge is coming to table %(table)s") % {
        "event": event_name,
        "table": table,
    }
    body = _("%(judge)s answered your call.") % {"judge": judge}
    return Notice(
        Kind.JUDGE_CALL_ANSWERED, subject, body, url, {"event": event_name, "table": table}
    )


def penalty_decided(
    event_name: str, decision: str, level: str, infraction: str, url: str
) -> Notice:
    """A penalty concerning the reader was confirmed, changed or voided, or an appeal
    against it decided (JG §1.2.2; MyL conduct §4.5, §5.10). ``decision`` is already in
    words ("confirmed", "confirmed on appeal"…), ``level`` and
    ``infraction`` in the penalty ruleset's words (``penalties.rulebooks``)."""
    subject = _("%(event)s: a penalty concerning you was %(decision)s") % {
        "event": event_name,
        "decision": decision,
    }
    body = _("%(level)s — %(infraction)s.") % {"level": level, "infraction": infraction}
    return Notice(
        Kind.PENALTY_DECISION,
        subject,
        body,
        url,
        {"event": event_name, "level": level, "infraction": infraction},
    )


def result_to_confirm(
    event_name: str, table_label: str, reporter: str, result: str, url: str
) -> Notice:
    """A player at the reader's table reported its result: confirm it or dispute it on
    the player's page (docs/players.md "Reporting your table's result")."""
    subject = _("%(event)s, %(table)s: confirm the result") % {
        "event": event_name,
        "table": table_label,
    }
    body = _("%(reporter)s reported %(result)s. Confirm it or dispute it: %(url)s") % {
        "reporter": reporter,
        "result": result,
        "url": url,
    }
    return Notice(
        Kind.RESULT_TO_CONFIRM,
        subject,
        body,
        url,
        {"event": event_name, "table": table_label, "result": result, "reporter": reporter},
    )


def league_report_waiting(match_name: str, score: str, reporter: str, url: str) -> Notice:
    """A result the opponent reported waits for the reader's confirmation or dispute
    (docs/leagues.md, players' reports)."""
    subject = _("%(match)s: confirm the result %(score)s") % {"match": match_name, "score": score}
    body = _("%(reporter)s reported %(score)s. Confirm it or dispute it: %(url)s") % {
        "reporter": reporter,
        "score": score,
        "url": url,
    }
    return Notice(
        Kind.LEAGUE_REPORT,
        subject,
        body,
        url,
        {"match": match_name, "score": score, "reporter": reporter},
    )


def league_result_reported(match_name: str, score: str, reporter: str, url: str) -> Notice:
    """For the league's channel (its webhook): a result was reported and waits for the
    opponent (docs/leagues.md, players' reports)."""
    subject = _("%(match)s: %(reporter)s reported %(score)s") % {
        "match": match_name,
        "reporter": reporter,
        "score": score,
    }
    body = _("Waiting for the opponent's confirmation: %(url)s") % {"url": url}
    return Notice(
        Kind.LEAGUE_REPORT,
        subject,
        body,
        url,
        {"match": match_name, "score": score, "reporter": reporter},
    )


def wanted(kind: Kind, channel: Channel, chosen: frozenset[tuple[str, str]]) -> bool:
    """Whether a person who opted in to ``chosen`` ((kind, channel) codes) gets ``kind`` by
    ``channel``. Opt-in: nothing is sent that the person did not choose."""
    return (str(kind), str(channel)) in chosen


def is_public_address(address: str) -> bool:
    """Whether ``address`` (an IPv4 or IPv6 address as text) is one a webhook may be sent
    to: a global address, never the server's own network (loopback, private ranges,
    link-local — where cloud metadata services answer —, multicast, reserved), so an
    organisation's webhook cannot make the server call inside its own network
    (docs/notifications.md "For organisations"). Text that is not an address → ``False``."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def private_host(url: str) -> bool:
    """Whether ``url`` names this machine or a private network by itself — ``localhost``
    or an address literal that is not public — which a webhook form refuses at once
    (a name is resolved and checked before each attempt, ``events.notifications``)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return not is_public_address(host)
