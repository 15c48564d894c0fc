"""The rotating token of an event's check-in QR code (docs/players.md "Checking in by
QR code"): the organiser's check-in page shows a code for an address carrying a token
that changes every :data:`WINDOW_SECONDS`; a player who scans it at the venue is checked
in. A photo of the code sent outside stops working within two windows.

A token is the number of the time window it was made in, signed with Django's
``SECRET_KEY`` (HMAC, ``django.core.signing``) under a salt of its own event, so a token
of one event is worthless for another and nobody can make one without the server. The
current window's token and the previous one's are accepted (a code scanned just before
it changed). Kernel: no ORM, no request.
"""

from __future__ import annotations

from datetime import datetime

from django.core import signing

WINDOW_SECONDS = 60
"""How long one code is shown before the next replaces it; a token is accepted during
its window and the next one (60–120 s after it was shown)."""

ACCEPTED_WINDOWS = 2
"""The current window and the previous one."""


def _signer(event) -> signing.Signer:
    # The salt names the event by its primary key and slug: a new event with a reused
    # slug, or another event, never accepts this one's tokens.
    return signing.Signer(salt=f"events.check-in:{event.pk}:{event.slug}")


def window(now: datetime) -> int:
    """The number of the time window ``now`` (an aware datetime) falls in."""
    return int(now.timestamp()) // WINDOW_SECONDS


def make_token(event, now: datetime) -> str:
    """The token of ``event`` (anything with ``pk`` and ``slug``) for the window of
    ``now``: ``"<window>:<signature>"``, URL-safe."""
    return _signer(event).sign(str(window(now)))


def token_is_valid(event, token: str, now: datetime) -> bool:
    """Whether ``token`` was made by :func:`make_token` for ``event`` in the window of
    ``now`` or the one before it. ``False`` for anything else (a forged, altered,
    another event's or an old token; garbage)."""
    try:
        made = int(_signer(event).unsign(token or ""))
    except (signing.BadSignature, ValueError):
        return False
    return 0 <= window(now) - made < ACCEPTED_WINDOWS


def seconds_to_next(now: datetime) -> int:
    """Seconds until the next window begins (1 to :data:`WINDOW_SECONDS`): when the
    check-in page should show the next code."""
    return WINDOW_SECONDS - int(now.timestamp()) % WINDOW_SECONDS
