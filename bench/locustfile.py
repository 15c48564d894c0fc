"""Event-day load (``make bench-load``; docs/performance.md "Event-day load").

Three crowds against one 300-player VEKN event built by ``bench/load_setup.py``:

- 300 visitors reading the published standings and seating (anonymous, cached pages),
  and now and then ``/healthz``, the trivial Django view they are compared with;
- 20 judges logging incidents through the real views: the incident form, then the
  confirming POST with a client-generated id and the CSRF token; one in ten is sent twice
  (a double tap), which must answer the same redirect and save nothing twice;
- 10 scorekeepers entering results through the real table view: load the form (its
  ``version``), type (the live sheet check, htmx), save. Two people saving the same table
  get a 409 for the second: an expected answer, counted apart, not a failure;
- 300 players keeping their own page open during the round (issue 17): signed in (the
  setup's sessions), they load *My page* once, then poll their seat box every 5 s as
  htmx does (``?v=`` the version shown: 204 while unchanged, the new box otherwise).

``LOAD_SETUP`` names the setup's JSON file; ``LOAD_SCOREKEEPER_WAIT`` (default "3,8") the
scorekeepers' think time in seconds; ``LOAD_COUNTS`` (optional) where to write the
counts of saves, conflicts and double taps at the end. The saturation phases run one
class alone (``HealthzUser`` or ``StandingsUser``) with no think time.
"""

import json
import os
import random
import re
import uuid
from collections import Counter

from locust import FastHttpUser, HttpUser, between, constant, events, task

SETUP = json.loads(open(os.environ.get("LOAD_SETUP", "load-setup.json")).read())
SLUG = SETUP["slug"]
ROUND = SETUP["round"]
COUNTS: Counter = Counter()
VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT_VERSION = re.compile(r"my-seat/\?v=([0-9a-f]+)")


@events.test_stop.add_listener
def _write_counts(**_kwargs):
    path = os.environ.get("LOAD_COUNTS")
    if path:
        with open(path, "w") as fh:
            json.dump(dict(COUNTS), fh)


class StaffUser(HttpUser):
    abstract = True
    accounts: list[str] = []
    _next = 0

    def on_start(self):
        cls = type(self)
        username = cls.accounts[cls._next % len(cls.accounts)]
        cls._next += 1
        self.client.get("/accounts/login/", name="login form")
        with self.client.post(
            "/accounts/login/",
            {
                "username": username,
                "password": SETUP["password"],
                "csrfmiddlewaretoken": self.csrf(),
            },
            name="login",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 302:
                response.failure(f"login of {username} answered {response.status_code}")

    def csrf(self) -> str:
        return self.client.cookies.get("csrftoken", "")

    def post(self, url, data, name, ok, **kwargs):
        data = {**data, "csrfmiddlewaretoken": self.csrf()}
        with self.client.post(
            url,
            data,
            name=name,
            headers={"X-CSRFToken": self.csrf()},
            allow_redirects=False,
            catch_response=True,
            **kwargs,
        ) as response:
            if response.status_code in ok:
                response.success()
            else:
                response.failure(f"{name}: HTTP {response.status_code}")
            return response


class Visitor(HttpUser):
    fixed_count = 300
    wait_time = between(5, 15)

    @task(6)
    def standings(self):
        self.client.get(f"/events/{SLUG}/standings/", name="standings (public, cached)")

    @task(3)
    def seating(self):
        self.client.get(f"/events/{SLUG}/seating/", name="seating (public, cached)")

    @task(1)
    def healthz(self):
        self.client.get("/healthz", name="healthz (trivial view)")


class Judge(StaffUser):
    fixed_count = 20
    wait_time = between(5, 15)
    accounts = SETUP["judges"]

    @task
    def log_incident(self):
        table = random.choice(SETUP["tables"])
        reg = random.choice(table["regs"])
        url = f"/events/{SLUG}/manage/incidents/new/"
        params = {"reg": reg, "table": table["pk"], "code": "3.3"}
        self.client.get(url, params=params, name="incident form")
        data = {
            **params,
            "client_id": str(uuid.uuid4()),
            "timing": "during_game",
            "again": "on",
            "confirm": "1",
        }
        self.post(url, data, "incident log (POST)", ok=(302,))
        COUNTS["incidents"] += 1
        if random.random() < 0.1:  # a double tap: same client id, must not log twice
            self.post(url, data, "incident log (POST, double tap)", ok=(302,))
            COUNTS["double_taps"] += 1


class Scorekeeper(StaffUser):
    fixed_count = 10
    # Seconds between two tables of one scorekeeper; LOAD_SCOREKEEPER_WAIT="30,60" paces
    # them closer to a real round (60 tables over two hours) for the diagnostic run.
    wait_time = between(*map(float, os.environ.get("LOAD_SCOREKEEPER_WAIT", "3,8").split(",")))
    accounts = SETUP["scorekeepers"]

    @task
    def enter_result(self):
        table = random.choice(SETUP["tables"])
        url = f"/events/{SLUG}/manage/rounds/{ROUND}/tables/{table['number']}/"
        form = self.client.get(url, name="result form")
        match = VERSION.search(form.text)
        if not match:
            return
        sheet = random.choice(SETUP["sheets"][str(len(table["regs"]))])
        values = {f"vp_{i}": vp for i, vp in enumerate(sheet, start=1)}
        self.post(url + "check/", values, "result live check (htmx)", ok=(200,))
        self._sleep(random.uniform(1, 3))  # typing and checking the sheet
        response = self.post(
            url, {**values, "version": match.group(1)}, "result save (POST)", ok=(302, 409)
        )
        COUNTS["result_conflicts" if response.status_code == 409 else "result_saves"] += 1

    def _sleep(self, seconds):
        import gevent

        gevent.sleep(seconds)


class Player(HttpUser):
    """A player's phone with *My page* open: the page once, then the seat box's poll
    (``hx-trigger="every 5s"`` in templates/events/_my_seat_box.html)."""

    fixed_count = 300
    wait_time = constant(5)
    _next = 0

    def on_start(self):
        cls = type(self)
        session = SETUP["player_sessions"][cls._next % len(SETUP["player_sessions"])]
        cls._next += 1
        self.client.cookies.set(SETUP["session_cookie"], session)
        with self.client.get("/players/me/", name="my page (player)", catch_response=True) as r:
            match = SEAT_VERSION.search(r.text)
            if r.status_code != 200 or not match:
                r.failure(f"my page: HTTP {r.status_code}, no seat box")
                self.version = ""
            else:
                self.version = match.group(1)

    @task
    def poll_seat(self):
        with self.client.get(
            f"/events/{SLUG}/my-seat/",
            params={"v": self.version},
            name="my seat poll (htmx, player)",
            headers={"HX-Request": "true"},
            catch_response=True,
        ) as response:
            if response.status_code == 204:
                COUNTS["seat_unchanged"] += 1
                response.success()
            elif response.status_code == 200 and SEAT_VERSION.search(response.text):
                self.version = SEAT_VERSION.search(response.text).group(1)
                COUNTS["seat_changed"] += 1
                response.success()
            else:
                response.failure(f"my seat: HTTP {response.status_code}")


class HealthzUser(FastHttpUser):
    """Saturation phase: the trivial view, no think time (the lighter HTTP client, so that
    locust, on the same cores, takes less of the machine than with ``HttpUser``)."""

    wait_time = constant(0)

    @task
    def healthz(self):
        self.client.get("/healthz", name="healthz (saturation)")


class StandingsUser(FastHttpUser):
    """Saturation phase: the cached public standings, no think time."""

    wait_time = constant(0)

    @task
    def standings(self):
        self.client.get(f"/events/{SLUG}/standings/", name="standings (saturation)")


class SeatPollUser(FastHttpUser):
    """Saturation phase: a signed-in player's seat poll, unchanged (204), no think time
    (each user one of the setup's sessions): its cost against ``/healthz``'s."""

    wait_time = constant(0)
    _next = 0

    def on_start(self):
        cls = type(self)
        session = SETUP["player_sessions"][cls._next % len(SETUP["player_sessions"])]
        cls._next += 1
        self.cookie = f"{SETUP['session_cookie']}={session}"
        page = self.client.get("/players/me/", headers={"Cookie": self.cookie}, name="my page")
        match = SEAT_VERSION.search(page.text or "")
        self.version = match.group(1) if match else ""

    @task
    def poll(self):
        with self.client.get(
            f"/events/{SLUG}/my-seat/?v={self.version}",
            headers={"Cookie": self.cookie, "HX-Request": "true"},
            name="my seat poll (saturation)",
            catch_response=True,
        ) as response:
            if response.status_code == 204:
                response.success()
            else:
                response.failure(f"my seat: HTTP {response.status_code}")
