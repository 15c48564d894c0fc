"""iCalendar (RFC 5545) text for a player's pending fixtures, standard library only.

One ``VEVENT`` per fixture at its final deadline, in UTC (``…Z``); lines end with CRLF,
text values are escaped (backslash, semicolon, comma, newline) and long lines folded at
75 octets. A fixture whose deadline is outside the date window
(:func:`events.limits.in_date_window`: a typo saved before the window existed) is left
out rather than written with a year RFC 5545 cannot hold (issue 14).
"""

from datetime import UTC, datetime

from events.limits import in_date_window

__all__ = ["calendar", "escape_text"]


def escape_text(value: str) -> str:
    """Escape a TEXT value (RFC 5545 §3.3.11)."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def _fold(line: str) -> str:
    """Fold a content line to at most 75 octets per physical line (RFC 5545 §3.1),
    never splitting a UTF-8 character."""
    out, current, size = [], "", 0
    for char in line:
        width = len(char.encode("utf-8"))
        limit = 75 if not out else 74  # continuation lines start with one space
        if size + width > limit:
            out.append(current)
            current, size = "", 0
        current += char
        size += width
    out.append(current)
    return "\r\n ".join(out)


def _utc(value: datetime) -> str:
    """``YYYYMMDDTHHMMSSZ`` with a four-digit year (``strftime("%Y")`` drops the zeros of
    years below 1000 on Linux)."""
    v = value.astimezone(UTC)
    return f"{v.year:04d}{v.month:02d}{v.day:02d}T{v.hour:02d}{v.minute:02d}{v.second:02d}Z"


def calendar(events, *, name: str, now: datetime | None = None, domain: str = "arbitro") -> str:
    """The VCALENDAR text of ``events``: dicts with ``uid``, ``start`` (aware datetime),
    ``summary`` and optional ``description`` and ``url``."""
    stamp = _utc(now or datetime.now(UTC))
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Arbitro//League fixtures//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        if not in_date_window(event["start"]):
            continue
        lines += [
            "BEGIN:VEVENT",
            f"UID:{escape_text(event['uid'])}@{domain}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(event['start'])}",
            f"SUMMARY:{escape_text(event['summary'])}",
        ]
        if event.get("description"):
            lines.append(f"DESCRIPTION:{escape_text(event['description'])}")
        if event.get("url"):
            lines.append(f"URL:{event['url']}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)
