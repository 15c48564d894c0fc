"""The VEKN API client (docs/vekn-link.md): sign in for a token, read the member
registry, create an event on the VEKN calendar, send an event's results ("archondata",
TR §9; docs/rules-vekn.md "Reporting").

Shapes, as the VEKN answers them (and as the official Archon reads them):

- every answer is JSON ``{"data": {...}}``; ``data.code`` other than 200 is an error and
  ``data.message`` says which (a ``PLG_API_VEKN_…`` key, translated by :data:`MESSAGES`);
- ``POST /api/vekn/login`` (form ``username``, ``password``) → ``data.auth``, the token;
- ``GET /api/vekn/registry?filter=<prefix>`` (``Authorization: Bearer <token>``) →
  ``data.players``: at most 100 of ``{"veknid", "firstname", "lastname", "countryname",
  "countrycode", "city", ...}`` whose number starts with the prefix;
- ``POST /api/vekn/event`` (form ``name``, ``type``, ``venueid``, ``online``,
  ``startdate``, ``starttime``, ``enddate``, ``endtime``, ``timelimit``, ``rounds``,
  ``final``, ``multideck``, ``proxies``, ``website``, ``description``; header
  ``Vekn-Id``: the organiser's VEKN number) → ``data.id``, the VEKN event id;
- ``POST /api/vekn/archon/<vekn event id>`` (form ``archondata``) → ``data`` (ok).

Errors: :class:`VeknDisabled` (``VEKN_API_URL`` unset), :class:`VeknUnavailable` (no
answer in ``VEKN_TIMEOUT_SECONDS``, a refused connection, a 5xx, an answer that is not
JSON: waiting may fix it, the caller retries), :class:`VeknRefused` (the VEKN answered
no, with its message: retrying the same request will not help). All are
:class:`VeknError`. A token the VEKN no longer accepts (HTTP 401, or a "not authorized"
answer) is dropped and the request made once more after a new sign-in.

No ORM: the events kernel, called by the VEKN link's services and tasks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import httpx
from django.conf import settings

USER_AGENT = "Arbitro-VEKN/1"

# The VEKN API's message keys (from its language file, as the official Archon lists them).
MESSAGES = {
    "PLG_API_VEKN_BAD_REQUEST_MESSAGE": "Bad request",
    "PLG_API_VEKN_REQUIRED_DATA_EMPTY_MESSAGE": "Required data is empty",
    "PLG_API_VEKN_REQUIRED_FILTER_MESSAGE": "Filter cannot be empty",
    "PLG_API_VEKN_USER_NOT_FOUND_MESSAGE": "User not found",
    "PLG_API_VEKN_LOGIN_INVALID_USER_MESSAGE": "Invalid user",
    "PLG_API_VEKN_LOGIN_INVALID_PASSWORD_MESSAGE": "Invalid password",
    "PLG_API_VEKN_REGISTRY_NOT_AUTHORIZED_MESSAGE": "Not authorized",
    "PLG_API_VEKN_REGISTRY_INVALID_VEKNID_MESSAGE": "Invalid VEKN Id",
    "PLG_API_VEKN_ARCHON_INVALID_PARAMETER_MESSAGE": "Invalid parameter",
    "PLG_API_VEKN_ARCHON_EVENT_NOT_FOUND_MESSAGE": "Event not found",
    "PLG_API_VEKN_ARCHON_WRONG_USER_MESSAGE": "The connected user does not match the event creator.",
    "PLG_API_VEKN_ARCHON_ARCHON_ALREADY_SUBMITTED_MESSAGE": "An archon has already been submitted for this event.",
    "PLG_API_VEKN_ARCHON_MISSING_VEKN_NUMBER_MESSAGE": "Some players do not have a VEKN number, or there are some duplicates.",
    "PLG_API_VEKN_ARCHON_ARCHON_PARSE_ERROR_MESSAGE": "An error occurred while parsing the archon data",
    "PLG_API_VEKN_ARCHON_ROUNDS_MISMATCH_MESSAGE": "The provided number of rounds do not match the expected number of rounds from the calendar.",
    "PLG_API_VEKN_ARCHON_TABLE_ROUNDS_MISMATCH_MESSAGE": "The number of rounds covered by the tables do not match the expected number of rounds.",
    "PLG_API_VEKN_ARCHON_TABLE_VEKN_NUMBERS_MISMATCH_MESSAGE": "The VEKN numbers of the players in the tables do not match the VEKN numbers of the ranking.",
    "PLG_API_VEKN_START_DATE_BEFORE_END_DATE_MESSAGE": "Start date must be before end date.",
    "PLG_API_VEKN_EVENT_NAME_LENGTH_MESSAGE": "Event name must be between 3 and 120 characters.",
    "PLG_API_VEKN_INVALID_ROUNDS_MESSAGE": "Invalid numbers of rounds, must be between 2, 3 or 4.",
    "PLG_API_VEKN_INVALID_EVENT_TYPE_MESSAGE": "Invalid event type.",
    "PLG_API_VEKN_NOT_A_PRINCE_MESSAGE": "You are not a prince.",
    "PLG_API_VEKN_INVALID_VENUE_MESSAGE": "Invalid venue.",
    "PLG_API_TOO_MANY_EVENTS_MESSAGE": "You have created too many events over the past month.",
    "PLG_API_VEKN_EVENT_ALREADY_EXISTS_MESSAGE": "An event with the same name already exists for this date.",
    "PLG_API_VEKN_ORGANIZER_VEKN_ID_INVALID_MESSAGE": "Invalid VEKN ID: organizer",
}

EXPIRED = {"PLG_API_VEKN_REGISTRY_NOT_AUTHORIZED_MESSAGE", "Not authorized", "Expired token"}
"""Answers meaning the token is no longer accepted: sign in again and retry once."""


class VeknError(RuntimeError):
    """Anything that kept a VEKN request from succeeding; ``str()`` is the reason."""


class VeknDisabled(VeknError):
    """The link is off: ``VEKN_API_URL`` is not set."""


class VeknUnavailable(VeknError):
    """No usable answer (timeout, refused connection, HTTP 5xx, not JSON): retry later."""


class VeknRefused(VeknError):
    """The VEKN answered no; the message is the VEKN's (e.g. "Invalid venue.")."""


class _Expired(Exception):
    """The token was refused (internal: the client signs in again)."""


@dataclass(frozen=True)
class Member:
    """One member of the VEKN registry: ``veknid`` (digits), names, country, city."""

    veknid: str
    first_name: str
    last_name: str
    country: str = ""
    city: str = ""

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)


def enabled() -> bool:
    """Whether the link is configured (``VEKN_API_URL`` set)."""
    return bool(getattr(settings, "VEKN_API_URL", ""))


_token_lock = threading.Lock()
_token: dict[str, str] = {}  # base URL → token, shared by the process's clients


def forget_token() -> None:
    """Drop the cached token (the tests; a changed account)."""
    with _token_lock:
        _token.clear()


class Client:
    """One VEKN API client; ``Client()`` reads the settings. ``transport`` is for tests."""

    def __init__(self, *, base_url=None, username=None, password=None, timeout=None):
        self.base_url = (base_url if base_url is not None else settings.VEKN_API_URL).rstrip("/")
        if not self.base_url:
            raise VeknDisabled("The VEKN link is disabled (VEKN_API_URL is not set).")
        self.username = username if username is not None else settings.VEKN_API_USERNAME
        self.password = password if password is not None else settings.VEKN_API_PASSWORD
        seconds = timeout if timeout is not None else settings.VEKN_TIMEOUT_SECONDS
        self.http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(seconds),
            headers={"User-Agent": USER_AGENT},
            follow_redirects=False,
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.http.close()

    # ----------------------------------------------------------------- plumbing
    def _send(self, method: str, path: str, **kwargs) -> dict:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.TimeoutException as exc:
            raise VeknUnavailable("The VEKN did not answer in time.") from exc
        except httpx.HTTPError as exc:
            raise VeknUnavailable(f"The VEKN could not be reached: {exc}") from exc
        if response.status_code == 401:
            raise _Expired
        try:
            body = response.json()
        except ValueError:
            body = None
        data = body.get("data") if isinstance(body, dict) else None
        message = ""
        if isinstance(data, dict):
            message = str(data.get("message", "") or "")
        if response.status_code >= 500:
            detail = MESSAGES.get(message, message) or f"HTTP {response.status_code}"
            raise VeknUnavailable(f"VEKN server error: {detail}")
        if not isinstance(data, dict):
            if response.status_code >= 400:
                raise VeknRefused(f"The VEKN refused the request (HTTP {response.status_code}).")
            raise VeknUnavailable("The VEKN's answer is not in the expected format.")
        if str(data.get("code", 200)) != "200" or response.status_code >= 400:
            if message in EXPIRED:
                raise _Expired
            raise VeknRefused(MESSAGES.get(message, message) or "Unknown VEKN error.")
        return data

    def token(self) -> str:
        """The cached token, after signing in if there is none."""
        with _token_lock:
            cached = _token.get(self.base_url)
        if cached:
            return cached
        try:
            data = self._send(
                "POST",
                "/api/vekn/login",
                data={"username": self.username, "password": self.password},
            )
        except _Expired:
            raise VeknRefused("The VEKN refused the sign-in (check VEKN_API_USERNAME).") from None
        token = str(data.get("auth") or "")
        if not token:
            raise VeknUnavailable("The VEKN's sign-in answer has no token.")
        with _token_lock:
            _token[self.base_url] = token
        return token

    def _authorised(self, method: str, path: str, headers=None, **kwargs) -> dict:
        """A request with the token; once more after a new sign-in if it expired."""
        for attempt in (1, 2):
            token = self.token()
            try:
                return self._send(
                    method,
                    path,
                    headers={**(headers or {}), "Authorization": f"Bearer {token}"},
                    **kwargs,
                )
            except _Expired:
                with _token_lock:
                    if _token.get(self.base_url) == token:
                        del _token[self.base_url]
                if attempt == 2:
                    raise VeknRefused("The VEKN refused the account's token.") from None
        raise AssertionError("unreachable")

    # ----------------------------------------------------------------- endpoints
    def registry(self, prefix: str) -> list[Member]:
        """Members whose VEKN number starts with ``prefix`` (at most 100 answered)."""
        data = self._authorised("GET", "/api/vekn/registry", params={"filter": prefix})
        players = data.get("players") or []
        return [
            Member(
                veknid=str(p.get("veknid", "")).strip(),
                first_name=str(p.get("firstname", "") or "").strip(),
                last_name=str(p.get("lastname", "") or "").strip(),
                country=str(p.get("countryname", "") or "").strip(),
                city=str(p.get("city", "") or "").strip(),
            )
            for p in players
            if str(p.get("veknid", "")).strip()
        ]

    def member(self, veknid: str) -> Member | None:
        """The member with exactly this number, ``None`` if the registry has none."""
        return next((m for m in self.registry(veknid) if m.veknid == veknid), None)

    def create_event(self, form: dict, organiser_vekn: str) -> str:
        """Create the event on the VEKN calendar; its VEKN event id."""
        data = self._authorised(
            "POST", "/api/vekn/event", data=form, headers={"Vekn-Id": organiser_vekn}
        )
        vekn_id = str(data.get("id") or "")
        if not vekn_id:
            raise VeknUnavailable("The VEKN's answer has no event id.")
        return vekn_id

    def send_results(self, vekn_event_id: str, archondata: str) -> None:
        """Send the event's report (TR §9) to its VEKN event."""
        self._authorised(
            "POST", f"/api/vekn/archon/{vekn_event_id}", data={"archondata": archondata}
        )


def increment(prefix: str) -> str | None:
    """The next registry prefix after ``prefix`` has been read whole: "3012" → "3013",
    "3019" → "302", "99" → ``None`` (done)."""
    while prefix and prefix[-1] == "9":
        prefix = prefix[:-1]
    if not prefix:
        return None
    return prefix[:-1] + str(int(prefix[-1]) + 1)


def walk_registry(client: Client, start: str = "00", stop: str | None = None):
    """Every member from prefix ``start`` on, in batches (lists of :class:`Member`), as
    the registry answers 100 at most: a full batch narrows to the last number's first five
    digits. ``stop``: stop before a prefix not starting with it (one prefix's members)."""
    prefix: str | None = start
    while prefix and (stop is None or prefix.startswith(stop)):
        batch = client.registry(prefix)
        if batch:
            yield batch
        if len(batch) < 100:
            prefix = increment(prefix)
        else:
            last = batch[-1].veknid
            narrowed = last[:5] if last[-2:] != "99" else increment(last[:5])
            prefix = narrowed if narrowed != prefix else increment(prefix)
        if prefix and len(prefix) < 2:
            prefix += "0"
