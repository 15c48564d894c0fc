"""The check-in QR code's rotating token (events/check_in_tokens.py; docs/players.md
"Checking in by QR code"): accepted in its window and the next, refused older, for
another event or altered."""

import datetime as dt
from types import SimpleNamespace

from events import check_in_tokens as tokens

T0 = dt.datetime(2026, 11, 28, 10, 0, 0, tzinfo=dt.UTC)
EVENT = SimpleNamespace(pk=7, slug="open-2026")


def test_accepted_in_its_window_and_the_next_only():
    token = tokens.make_token(EVENT, T0)
    assert tokens.token_is_valid(EVENT, token, T0)
    assert tokens.token_is_valid(EVENT, token, T0 + dt.timedelta(seconds=59))
    assert tokens.token_is_valid(EVENT, token, T0 + dt.timedelta(seconds=119))
    # An old photo of the code: two windows later it no longer works.
    assert not tokens.token_is_valid(EVENT, token, T0 + dt.timedelta(seconds=120))
    assert not tokens.token_is_valid(EVENT, token, T0 + dt.timedelta(hours=3))
    # Nor one from the future (a clock cannot go back to make it valid early).
    assert not tokens.token_is_valid(EVENT, token, T0 - dt.timedelta(seconds=1))


def test_the_token_changes_every_window():
    assert tokens.make_token(EVENT, T0) == tokens.make_token(EVENT, T0 + dt.timedelta(seconds=59))
    assert tokens.make_token(EVENT, T0) != tokens.make_token(EVENT, T0 + dt.timedelta(seconds=60))


def test_another_event_forged_or_garbage_refused():
    token = tokens.make_token(EVENT, T0)
    other = SimpleNamespace(pk=8, slug="open-2026")
    renamed = SimpleNamespace(pk=7, slug="other")
    assert not tokens.token_is_valid(other, token, T0)
    assert not tokens.token_is_valid(renamed, token, T0)
    window, signature = token.split(":")
    forged = f"{int(window) + 1}:{signature}"
    assert not tokens.token_is_valid(EVENT, forged, T0 + dt.timedelta(seconds=60))
    for junk in ("", "x", "1:2:3", "abc:def"):
        assert not tokens.token_is_valid(EVENT, junk, T0)


def test_seconds_to_next_window():
    assert tokens.seconds_to_next(T0) == 60
    assert tokens.seconds_to_next(T0 + dt.timedelta(seconds=45)) == 15
