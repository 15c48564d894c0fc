"""Permission matrix: every URL × persona → expected status (pattern: pretix's
permission matrix). A new URL without a row here fails ``test_every_url_is_in_the_matrix``.

The world (:func:`build_world`) holds two organisations on one installation:

- **organisation A** (``org-a``): a VEKN event (round 1 seated, a disqualification, a
  caution of A's player, a pending account claim) and a Mitos y Leyendas event (round 1
  paired and published; A's player got a warning for disruptive behaviour towards staff,
  3.1.1, an aggression with its §5.8 report form, and appealed it in writing, then a game
  loss for slow play); its ``organiser`` holds the organisation's role, ``head_judge``,
  ``judge`` and ``scorekeeper`` the event roles on both events; ``player`` has an account
  linked to a player record registered in both events;
- **organisation B** (``org-b``): a MyL event run by ``other_organiser`` (organisation
  role) with ``other_judge`` as its head judge; A's player and the claimed record are
  registered there too (the attack of issue 12: an organisation acting on another's
  players);
- **a league season** (``t24``, imported from a season file): ``league_staff`` and
  ``tribunal`` hold the season roles; ``team_player`` plays team t1, ``rival_player``
  team t2; fixtures with an open report (by t1's opponent), a report of t1's own, an
  excuse with its evidence and an accepted report with its screenshot.

Each row names its URL, its method, the object it points at (:data:`TARGETS`), the
status of every persona not listed (``others=``, always explicit) and the personas that
differ; ``data`` is the POST body where a form's own checks would answer before the
permission. Adding a persona is one line in :data:`PERSONAS` (its account is made for
it), its role in :func:`build_world`, and a keyword in each row where it differs from
``others`` (as the authority personas were: ``events.AuthorityRole``). A row may also name, per persona, a known bug: that case is asserted with the
expected status under ``xfail(strict=True)`` in ``test_known_permission_bugs`` (and
left out of the row's own case), so fixing the bug fails that xfail until its entry is
removed. A 500 is a status like any other here (the client does not raise).

A request runs inside a savepoint that is rolled back, with the cache cleared, so every
persona meets the same world (a POST of one persona does not change what the next one
sees). The world is built once per module inside a transaction that is rolled back at
the end (:func:`world`): each row costs its requests only.
"""

import datetime as dt
import io
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from PIL import Image

from events import check_in_tokens, services, swiss_services
from events import deck_check_services as deck_checks
from events import deck_services as decks
from events.models import (
    AuthorityRole,
    Circuit,
    EventRole,
    OrganisationRole,
    PlayerClaim,
    Registration,
)
from events.permissions import ROLE_PERMISSIONS, Role
from leagues import reporting
from leagues import services as league_services
from leagues.models import Footballer, Match, SeasonRole, TimeProposal
from leagues.views import feed_token
from penalties import myl_services
from penalties import services as penalty_services
from tests.events.services.test_deck_services import LEGAL
from tests.factories import (
    EventFactory,
    OrganisationFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)
from tests.leagues.seasons import small_season

PERSONAS = [
    "anonymous",
    "outsider",  # an account with no role and no player record
    "other_organiser",  # organiser of organisation B
    "other_judge",  # head judge of organisation B's event
    "organiser",  # organiser of organisation A
    "head_judge",  # head judge of both of A's events
    "judge",
    "scorekeeper",
    "player",  # A's player with an account (penalised in A's MyL event, appealed)
    "league_staff",
    "tribunal",
    "team_player",  # the player of team t1
    "rival_player",  # the player of team t2 (in none of the scheduled fixtures used)
    "authority",  # the national Organised Play manager (Mitos y Leyendas authority)
    "coordinator",  # the VEKN national coordinator
]


@dataclass(frozen=True)
class Row:
    """One URL on one object: ``statuses`` per persona, ``others`` for everyone else;
    ``bugs``: persona → reason of a known permission bug (the status is the right one)."""

    name: str
    method: str
    target: str
    others: int
    statuses: dict = field(default_factory=dict)
    bugs: dict = field(default_factory=dict)
    data: object = None

    @property
    def id(self) -> str:
        return f"{self.name}@{self.target}"

    def expected(self, persona: str) -> int:
        return self.statuses.get(persona, self.others)


def R(name, method, target, *, others, bugs=None, data=None, **statuses) -> Row:  # noqa: N802
    """A row; ``data``: a function of the world giving the POST body (files are built
    afresh for each request), for forms whose validation would otherwise answer before
    the permission is checked."""
    return Row(name, method, target, others, statuses, bugs or {}, data)


def signed_in(status, **statuses):
    """Keywords for a page every signed-in persona reaches: anonymous → login page."""
    return {"anonymous": 302, "others": status, **statuses}


# The staff of organisation A's events, as the organiser sees them and per role.
A_STAFF = ("organiser", "head_judge", "judge", "scorekeeper")


def a_staff(status, **statuses):
    """Keywords for a page of A's event: anonymous → login, no role → 404, A's staff
    ``status`` unless ``statuses`` says otherwise."""
    return {"anonymous": 302, "others": 404, **dict.fromkeys(A_STAFF, status), **statuses}


def b_staff(status, **statuses):
    """The same for organisation B's event."""
    return {
        "anonymous": 302,
        "others": 404,
        "other_organiser": status,
        "other_judge": status,
        **statuses,
    }


def league(status, **statuses):
    """Keywords for a season staff page: anonymous → login, no season role → 404."""
    return {
        "anonymous": 302,
        "others": 404,
        "league_staff": status,
        "tribunal": status,
        **statuses,
    }


def _posted(w, minutes_ago=30) -> str:
    """A posting time for a league form, in the season's time zone."""
    zone = ZoneInfo(w["season"].time_zone)
    moment = timezone.now().astimezone(zone) - dt.timedelta(minutes=minutes_ago)
    return moment.strftime("%Y-%m-%dT%H:%M")


def REPORT(w):  # noqa: N802
    return {"home_goals": 1, "away_goals": 0, "posted_at": _posted(w), "screenshot": _png()}


def EXCUSE(w):  # noqa: N802
    today = timezone.localdate()
    return {
        "date_from": today.isoformat(),
        "date_to": (today + dt.timedelta(days=1)).isoformat(),
        "reason": "Exams",
        "evidence": _png("evidence.png"),
    }


def CONFIRMED(w):  # noqa: N802
    return {"confirm": "on"}


def DECK(w):  # noqa: N802
    return {"text": LEGAL, "reason": "The list said Deflexion; the deck has Deflection."}


def APPROVE(w):  # noqa: N802
    return {"decision": "approve"}


# fmt: off
MATRIX = [
    # --- public
    R("home", "get", "none", others=200),
    R("login", "get", "none", others=200),
    R("logout", "post", "none", others=302),
    R("signup", "get", "none", others=200),
    R("my-page", "get", "none", **signed_in(200)),
    R("my-data", "get", "none", **signed_in(200)),
    # changing one's own password: any signed-in account
    R("password_change", "get", "none", **signed_in(200)),
    R("password_change_done", "get", "none", **signed_in(200)),
    R("set_language", "post", "none", others=302),
    R("healthz", "get", "none", others=200),
    # the national authorities' sanctions page (events.AuthorityRole, granted in the admin)
    R("authority-sanctions", "get", "none", anonymous=302, others=404, authority=200,
      coordinator=200),
    # password reset by e-mail: public forms (an unknown link answers 200 "not valid")
    R("password_reset", "get", "none", others=200),
    R("password_reset_done", "get", "none", others=200),
    R("password_reset_confirm", "get", "reset", others=200),
    R("password_reset_complete", "get", "none", others=200),
    R("event-create", "get", "org_a", anonymous=302, others=404, organiser=200),
    R("event-create", "get", "org_b", anonymous=302, others=404, other_organiser=200),
    # organisations (issue 14): any account lists its own and may create one; only an
    # organisation's organisers see its page and change its organisers (404 to others,
    # another organisation's role named through A's address included)
    R("organisations", "get", "none", **signed_in(200)),
    R("organisation-create", "get", "none", **signed_in(200)),
    R("organisation", "get", "org_a", anonymous=302, others=404, organiser=200),
    R("organisation", "get", "org_b", anonymous=302, others=404, other_organiser=200),
    R("organisation-organiser-add", "post", "org_a", data=lambda w: {"username": "m-judge"},
      anonymous=302, others=404, organiser=302),
    R("organisation-organiser-add", "post", "org_b", data=lambda w: {"username": "m-judge"},
      anonymous=302, others=404, other_organiser=302),
    # the last organiser is never removed: refused with a message (302 back)
    R("organisation-role-remove", "post", "org_a_role", anonymous=302, others=404,
      organiser=302),
    R("organisation-role-remove", "post", "org_b_role_via_a", anonymous=302, others=404),
    # notifications (docs/notifications.md): one's own preferences and phones (an empty
    # subscription body is a 400); the players' service worker is public; the delivery log
    # for superusers and organisers; an organisation's webhooks for its organisers only
    R("notification-preferences", "get", "none", **signed_in(200)),
    R("push-subscribe", "post", "none", **signed_in(400)),
    R("push-unsubscribe", "post", "none", **signed_in(400)),
    R("push-worker", "get", "none", anonymous=200, others=200),
    R("delivery-log", "get", "none", anonymous=302, others=403, organiser=200,
      other_organiser=200),
    R("organisation-webhooks", "get", "org_a", anonymous=302, others=404, organiser=200),
    R("organisation-webhooks", "get", "org_b", anonymous=302, others=404, other_organiser=200),
    R("organisation-webhook-remove", "post", "org_a_hook", anonymous=302, others=404,
      organiser=302),
    # public event pages, VEKN and MyL; the big screen (issue 7) only shows what is published
    *[
        R(f"events:{name}", "get", target, others=200)
        for name in (
            "public-event", "public-standings", "public-standings-screen",
            "public-standings-screen-live", "public-seating", "public-seating-print",
            "public-results",
        )
        for target in ("vekn", "myl")
    ],
    # the player's own MyL match: a page for every signed-in account (it says when they
    # play no match there); a VEKN event has none
    R("events:my-match", "get", "myl", **signed_in(200)),
    R("events:my-match", "get", "vekn", **signed_in(404)),
    # the players' self-service (docs/players.md): any account may ask, the service
    # answers for its own person only (not registered: back to the event page)
    R("events:self-register", "post", "vekn", **signed_in(302)),
    R("events:self-drop", "get", "vekn", **signed_in(302, player=200)),
    R("events:my-seat", "get", "vekn", **signed_in(200)),
    # calling a judge (docs/players.md): only a player registered in the event, for
    # their own table; every other account is told the event has no such page for them
    R("events:call-judge", "post", "myl", anonymous=302, others=404, player=302,
      data=lambda w: {"reason": "rules"}),
    R("events:call-judge", "post", "vekn", anonymous=302, others=404, player=302,
      data=lambda w: {"reason": "rules"}),
    # a table's result reported by its players (docs/players.md): only a player of the
    # event (not seated here: told so, back to their page); a report of no table of the
    # player's, or none at all, is not found for anyone
    R("events:report", "post", "vekn", anonymous=302, others=404, player=302,
      data=lambda w: {"value_1": "1"}),
    R("events:report", "post", "myl", anonymous=302, others=404, player=302,
      data=lambda w: {"value_1": "1"}),
    R("events:report-confirm", "post", "vekn", anonymous=302, others=404,
      data=lambda w: {"report": 999999}),
    R("events:report-dispute", "post", "myl", anonymous=302, others=404,
      data=lambda w: {"report": 999999}),
    # the QR code's address: a valid token sends a visitor to sign in, checks in the
    # player, sends others back to the event page; an old or forged one is refused
    R("events:check-in", "get", "vekn_token", others=302),
    R("events:check-in", "get", "vekn_bad_token", others=403),
    # --- API (the VEKN standings are unpublished: staff only)
    R("api-standings", "get", "vekn", others=404, **dict.fromkeys(A_STAFF, 200), coordinator=200),
    R("api-standings", "get", "myl", others=404, **dict.fromkeys(A_STAFF, 200), authority=200),
    R("api-check-table", "post", "none", others=400),
    R("api-check-deck", "post", "none", others=400),
    # the VEKN rankings (TR Appendix A): public pages and API
    R("api-rankings", "get", "none", others=200),
    # the public API's description and its page (docs/contracts.md "OpenAPI description")
    R("api-openapi", "get", "none", others=200),
    R("api-docs", "get", "none", others=200),
    R("api", "get", "none", others=302),
    R("rankings", "get", "none", others=200),
    R("rankings-player", "get", "vekn_person", others=200),
    # circuits (docs/ratings.md "Circuits"): public standings, list and API; an
    # organisation's circuit pages for its organisers only, another's circuit through A's
    # address included
    R("circuits", "get", "none", others=200),
    R("circuit", "get", "circuit_a", others=200),
    R("api-circuits", "get", "none", others=200),
    R("api-circuit", "get", "circuit_a", others=200),
    R("organisation-circuits", "get", "org_a", anonymous=302, others=404, organiser=200),
    R("circuit-create", "get", "org_a", anonymous=302, others=404, organiser=200),
    R("circuit-edit", "get", "org_a_circuit", anonymous=302, others=404, organiser=200),
    R("circuit-edit", "get", "circuit_b_via_a", anonymous=302, others=404),
    R("api-penalty", "post", "ruleset_vekn", others=400),
    R("api-penalty", "post", "ruleset_myl", others=400),
    # --- league: public pages and read API
    R("leagues:season", "get", "season", others=200),
    # new seasons (issue 14): league administrators only (superusers, leagues.add_season),
    # which no persona is — a season's own staff and tribunal included
    R("leagues:season-new", "get", "none", **signed_in(403)),
    R("leagues:season-next", "get", "season", **signed_in(403)),
    R("leagues:competition", "get", "league", others=200),
    R("leagues:suspensions", "get", "season", others=200),
    R("leagues:compliance", "get", "season", others=200),
    R("leagues:draft", "get", "season", others=200),
    R("leagues:cup-bonus", "get", "season", others=200),
    R("events:competition-screen", "get", "league", others=200),
    R("events:competition-screen-live", "get", "league", others=200),
    R("api-competition-table", "get", "league", others=200),
    R("api-competition-bracket", "get", "cup", others=200),
    R("api-season-compliance", "get", "season", others=200),
    R("api-season-draft-order", "get", "season", others=200),
    R("api-season-suspensions", "get", "season", others=200),
    R("leagues:my-fixtures", "get", "none", **signed_in(200)),
    R("leagues:my-fixtures-ics", "get", "none", **signed_in(200)),
    R("leagues:fixtures-feed", "get", "feed", others=200),  # a calendar app, by token
    # --- league: the match page and the players' actions (t1 v t3, t3's report open)
    R("leagues:match", "get", "match", others=200),
    R("leagues:match-report", "post", "excuse_match", data=REPORT,
      **signed_in(403, team_player=302)),
    R("leagues:report-confirm", "post", "report", **signed_in(403, team_player=302)),
    R("leagues:report-dispute", "post", "report", data=lambda w: {"reason": "It was 0-1"},
      **signed_in(403, team_player=302)),
    R("leagues:report-withdraw", "post", "own_report", **signed_in(403, team_player=302)),
    R("leagues:report-resolve", "post", "report",
      data=lambda w: {"decision": "accept", "home_goals": 1, "away_goals": 0},
      **signed_in(403, league_staff=302)),
    # an open report's screenshot: the two players and season staff; accepted: public
    R("leagues:report-screenshot", "get", "report", others=404, **dict.fromkeys(
        ("league_staff", "tribunal", "team_player"), 200)),
    R("leagues:report-screenshot", "get", "accepted_report", others=200),
    R("leagues:match-correct", "post", "played_match",
      data=lambda w: {"home_goals": 3, "away_goals": 1, "reason": "Typo in the file"},
      **signed_in(403, league_staff=302)),
    R("leagues:match-excuse", "post", "match", data=EXCUSE, **signed_in(403, team_player=302)),
    R("leagues:excuse-answer", "post", "excuse_match", **signed_in(403, team_player=302)),
    R("leagues:excuse-decide", "post", "excuse_match", **signed_in(403, league_staff=302)),
    R("leagues:excuse-evidence", "get", "excuse_match", others=404, **dict.fromkeys(
        ("league_staff", "tribunal", "team_player"), 200)),
    R("leagues:match-concede", "post", "match", **signed_in(403, team_player=302)),
    # scheduling a fixture: the two players only (302 back to the match page, done or not)
    R("leagues:schedule-propose", "post", "match", data=lambda w: {"time_1": ""},
      **signed_in(403, team_player=302)),
    R("leagues:schedule-accept", "post", "proposal", **signed_in(403, team_player=302)),
    # --- league: competition-level staff actions: 302 back to the page when done, 400 with
    # the page again when refused (``data`` gets past the form's own checks, the service
    # refuses; the bracket forms: the staff brackets page again); the 403s come from the
    # services' permission checks
    R("leagues:competition-decide-tie", "post", "league", data=lambda w: {"reason": "Lots"},
      **league(400, tribunal=403)),
    R("leagues:competition-close-regular-phase", "post", "league", data=CONFIRMED,
      **league(400, tribunal=403)),
    R("leagues:competition-advance-stage", "post", "cup", data=CONFIRMED,
      **league(400, tribunal=403)),
    R("leagues:competition-close-group-stage", "post", "groups", data=CONFIRMED,
      **league(400, tribunal=403)),
    R("leagues:competition-bracket-slot", "post", "cup", **league(400, tribunal=403)),
    R("leagues:competition-bracket-award", "post", "cup", **league(400, league_staff=403)),
    R("leagues:competition-bracket-pause", "post", "cup", **league(400)),
    R("leagues:competition-bracket-third-home", "post", "cup", **league(400, tribunal=403)),
    R("leagues:competition-bracket-final-four", "post", "cup", **league(400)),
    R("leagues:competition-relegation", "post", "league", **league(400, tribunal=403)),
    # --- league: season staff and tribunal pages
    R("leagues:staff-home", "get", "season", **league(200)),
    R("leagues:staff-deadlines", "get", "season", **league(200, tribunal=403)),
    R("leagues:staff-adjustments", "get", "season", **league(200)),
    R("leagues:staff-abandon", "get", "team", **league(200, league_staff=403)),
    R("leagues:staff-audit", "get", "season", **league(200)),
    R("leagues:staff-scheduling", "get", "season", **league(200)),
    R("leagues:staff-reviews", "get", "season", **league(200, tribunal=403)),
    R("leagues:staff-draft", "get", "season", **league(200, tribunal=403)),
    R("leagues:staff-champagne", "get", "season", **league(200, tribunal=403)),
    R("leagues:staff-nucommunity", "get", "season", **league(200, tribunal=403)),
    R("leagues:staff-cup-bonus", "post", "season", **league(400, tribunal=403)),  # refused
    R("leagues:staff-brackets", "get", "season", **league(200)),
    # --- league: match-level staff and tribunal actions (an empty form: refused, the match
    # page again with the message, 400)
    R("leagues:match-walkover", "post", "match", **league(400)),
    R("leagues:match-void", "post", "match", **league(400, league_staff=403)),
    R("leagues:match-tribunal", "post", "match", **league(400, league_staff=403)),
    R("leagues:match-incident", "post", "match", **league(400, league_staff=403)),
    R("leagues:match-must-stream", "post", "match", **league(400, tribunal=403)),
    R("leagues:match-replay-unstreamed", "post", "played_match", **league(400)),
    R("leagues:match-stream-link", "post", "played_match", **league(400)),
    # --- league: squads (docs/leagues.md "Squads"): public to read; league staff and the
    # team's owner (while the squads are open) edit them; staff close them
    R("leagues:squads", "get", "season", others=200),
    R("leagues:team-squad", "post", "team", data=lambda w: {"lines": "7 N. Seven"},
      **signed_in(403, team_player=302, league_staff=302)),
    R("leagues:squad-footballer", "post", "footballer",
      data=lambda w: {"name": "N. Renamed", "number": "9", "action": "save"},
      **signed_in(403, team_player=302, league_staff=302)),
    R("leagues:squads-lock", "post", "season", data=lambda w: {"closed": "yes"},
      **league(302, tribunal=403)),
    # --- staff pages of A's VEKN event
    R("manage:dashboard", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:settings", "get", "vekn", **a_staff(403, organiser=200), coordinator=403),
    # the VEKN link (docs/vekn-link.md): staff see it, the organiser announces and retries
    R("manage:vekn", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:vekn-announce", "post", "vekn", **a_staff(403, organiser=302), coordinator=403),
    R("manage:vekn-retry", "post", "vekn", **a_staff(403, organiser=302), coordinator=403),
    R("manage:players", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:player-add", "post", "vekn", **a_staff(302, judge=403), coordinator=403),
    R("manage:player-status", "post", "vekn_reg", **a_staff(302, judge=403), coordinator=403),
    # a pending claim on a record that played in A's VEKN event: A's organiser decides
    R("manage:claim-decide", "post", "vekn_claim", data=APPROVE, **a_staff(403, organiser=302), coordinator=403),
    # keeping the players (issue 14): correcting, removing, lists, check in all; merging
    # two records rewrites history, so it is the organiser's alone
    R("manage:registration", "get", "vekn_reg", **a_staff(200, judge=403), coordinator=403),
    R("manage:registration-remove", "post", "vekn_reg", **a_staff(302, judge=403), coordinator=403),
    R("manage:registration-merge", "post", "vekn_reg", **a_staff(403, organiser=302), coordinator=403),
    R("manage:player-list", "get", "vekn", **a_staff(200, judge=403), coordinator=403),
    R("manage:player-list-save", "post", "vekn", **a_staff(302, judge=403), coordinator=403),
    R("manage:check-in-all", "get", "vekn", **a_staff(200, judge=403), coordinator=403),
    R("manage:check-in-all-undo", "post", "vekn", **a_staff(302, judge=403), coordinator=403),
    # self-registration settings: staff see them, the organiser changes them
    R("manage:registration-settings", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:registration-settings", "post", "vekn_form", **a_staff(403, organiser=302), coordinator=403),
    R("manage:check-in-code", "get", "vekn", **a_staff(200, judge=403), coordinator=403),
    R("manage:round-seat", "post", "vekn", **a_staff(302, scorekeeper=403), coordinator=403),
    R("manage:round", "get", "vekn_round", **a_staff(200), coordinator=200),
    R("manage:round-reseat", "post", "vekn_round", data=CONFIRMED, **a_staff(302, scorekeeper=403), coordinator=403),
    R("manage:round-swap", "post", "vekn_round", **a_staff(302, scorekeeper=403), coordinator=403),
    R("manage:round-publish", "post", "vekn_round",
      **a_staff(302, judge=403, scorekeeper=403), coordinator=403),
    R("manage:table", "get", "vekn_table", **a_staff(200), coordinator=403),
    R("manage:table-check", "post", "vekn_table", **a_staff(200), coordinator=403),
    R("manage:standings", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:toss", "post", "vekn", **a_staff(302, judge=403, scorekeeper=403), coordinator=403),
    R("manage:publish-standings", "post", "vekn", **a_staff(302, judge=403, scorekeeper=403), coordinator=403),
    R("manage:final", "get", "vekn", **a_staff(200, judge=403, scorekeeper=403), coordinator=403),
    R("manage:export-csv", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:export-archondata", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:audit", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:staff", "get", "vekn", **a_staff(403, organiser=200), coordinator=403),
    # the offline tablet (an empty sync body is a 400 JSON answer)
    R("manage:tablet", "get", "vekn", **a_staff(200), coordinator=403),
    R("manage:tablet-data", "get", "vekn", **a_staff(200), coordinator=403),
    R("manage:tablet-sync", "post", "vekn", **a_staff(400), coordinator=403),
    R("manage:tablet-worker", "get", "vekn", **a_staff(200), coordinator=403),
    # judging on the VEKN event; the incident is about A's player, who has a MyL penalty
    R("my-sanctions", "get", "none", **signed_in(200)),
    R("manage:table-incident", "get", "vekn_table", **a_staff(200, scorekeeper=403), coordinator=403),
    R("manage:table-extension", "get", "vekn_table", **a_staff(200, scorekeeper=403), coordinator=403),
    # the judges' queue of calls (judges and above); a call of no event is a 404
    R("manage:judge-calls", "get", "vekn", **a_staff(200, scorekeeper=403), coordinator=403),
    R("manage:judge-calls", "get", "myl", **a_staff(200, scorekeeper=403), authority=403),
    R("manage:judge-call-take", "post", "vekn", **a_staff(404, scorekeeper=403), coordinator=403,
      data=lambda w: {"call": 999999}),
    R("manage:judge-call-close", "post", "myl", **a_staff(404, scorekeeper=403), authority=403,
      data=lambda w: {"call": 999999}),
    R("manage:round-start", "post", "vekn_round", **a_staff(302, scorekeeper=403), coordinator=403),
    # deck checks (docs/decks.md, "Deck checks"): judges see and record, the head
    # judge (and the organiser) choose
    R("manage:deck-checks", "get", "vekn_round", **a_staff(200, scorekeeper=403), coordinator=403),
    R("manage:deck-checks-choose", "post", "vekn_round", data=lambda w: {"count": "1"},
      **a_staff(302, judge=403, scorekeeper=403), coordinator=403),
    R("manage:deck-check-outcome", "post", "vekn_check", data=lambda w: {"outcome": "match"},
      **a_staff(302, scorekeeper=403), coordinator=403),
    R("manage:round-clock", "post", "vekn_round", **a_staff(302, scorekeeper=403), coordinator=403),
    R("manage:incident-person", "get", "vekn", **a_staff(200, scorekeeper=403), coordinator=403),
    R("manage:incident-non-competing", "post", "vekn", **a_staff(302, scorekeeper=403), coordinator=403),
    R("manage:incident-new", "get", "vekn_incident", **a_staff(200, scorekeeper=403), coordinator=403),
    R("manage:incident-new", "get", "vekn_preview", **a_staff(200, scorekeeper=403),
      coordinator=403),
    R("manage:penalties", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:penalty", "get", "vekn_penalty", **a_staff(200), coordinator=200),
    R("manage:dq-report", "get", "vekn_penalty", **a_staff(200, scorekeeper=403), coordinator=403),
    R("manage:approve-results", "post", "vekn", **a_staff(302, judge=403, scorekeeper=403), coordinator=403),
    R("manage:cases", "get", "vekn", **a_staff(200, judge=403, scorekeeper=403), coordinator=403),
    R("manage:export-penalties-csv", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:export-penalties-json", "get", "vekn", **a_staff(200), coordinator=200),
    # printed pages (issue 14): whoever sees the staff pages
    *[
        R(f"manage:{name}", "get", target, **a_staff(200), coordinator=200)
        for name, target in (
            ("print", "vekn"), ("print-standings", "vekn"), ("print-penalties", "vekn"),
            ("print-seating", "vekn_round"), ("print-names", "vekn_round"),
            ("print-slips", "vekn_round"),
        )
    ],
    # decklists (docs/decks.md): the player's own page and the live check (the
    # event's players and staff), staff pages for whoever sees them; round 1 is seated, so
    # the lists are locked and only judges correct one (with a reason, JG §3.1.1)
    R("events:my-deck", "get", "vekn", **signed_in(404, player=200)),
    R("events:my-deck", "get", "myl", **signed_in(404, player=200)),
    R("events:deck-check", "post", "vekn", data=DECK,
      **a_staff(200, player=200), coordinator=200),
    R("events:deck-check", "post", "myl", data=DECK, **a_staff(200, player=200), authority=200),
    R("events:public-decks", "get", "decks_public", others=200),
    R("manage:decks", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:decks", "get", "myl", **a_staff(200), authority=200),
    R("manage:print-decks", "get", "vekn", **a_staff(200), coordinator=200),
    R("manage:deck-entry", "get", "vekn_reg", **a_staff(200), coordinator=200),
    R("manage:deck-entry", "post", "player_vekn_reg", data=DECK,
      **a_staff(302, scorekeeper=403), coordinator=403),
    # multi-deck (docs/decks.md "Multi-deck events"): the player's round deck, a judge's
    R("events:my-deck-play", "post", "vekn", data=lambda w: {"deck": "x"}, **signed_in(404, player=302)),
    R("manage:deck-play-set", "post", "player_vekn_reg", data=lambda w: {"deck": "x", "round_number": 1},
      **a_staff(302, scorekeeper=403), coordinator=403),
    # MyL-only addresses on a VEKN event: 404 once the permission is held
    R("manage:myl-pair", "post", "vekn", **a_staff(404, scorekeeper=403), coordinator=403),
    R("manage:myl-top-cut", "post", "vekn", **a_staff(404, judge=403, scorekeeper=403), coordinator=403),
    R("manage:myl-aggression-report", "get", "vekn_penalty", **a_staff(404, scorekeeper=403), coordinator=403),
    # --- staff pages of A's MyL event
    R("manage:dashboard", "get", "myl", **a_staff(200), authority=200),
    R("manage:players", "get", "myl", **a_staff(200), authority=200),
    R("manage:round", "get", "myl_round", **a_staff(200), authority=200),
    R("manage:standings", "get", "myl", **a_staff(200), authority=200),
    R("manage:myl-pair", "post", "myl", **a_staff(302, scorekeeper=403), authority=403),
    R("manage:myl-repair", "post", "myl_round", **a_staff(302, scorekeeper=403), authority=403),
    R("manage:myl-match", "get", "myl_table", **a_staff(200), authority=403),
    R("manage:myl-top-cut", "post", "myl", data=CONFIRMED, **a_staff(302, judge=403, scorekeeper=403), authority=403),
    R("manage:export-archondata", "get", "myl", **a_staff(404)),  # VEKN only
    R("manage:incident-new", "get", "myl_incident", **a_staff(200, scorekeeper=403), authority=403),
    R("manage:incident-new", "get", "myl_preview", **a_staff(200, scorekeeper=403), authority=403),
    R("manage:penalties", "get", "myl", **a_staff(200), authority=200),
    R("manage:penalty", "get", "myl_penalty", **a_staff(200), authority=200),
    R("manage:myl-aggression-report", "get", "myl_penalty", **a_staff(200, scorekeeper=403), authority=403),
    R("manage:dq-report", "get", "myl_penalty", **a_staff(404, scorekeeper=403), authority=403),
    *[
        R(f"manage:{name}", "get", target, **a_staff(200), authority=200)
        for name, target in (
            ("print", "myl"), ("print-standings", "myl"), ("print-penalties", "myl"),
            ("print-seating", "myl_round"), ("print-names", "myl_round"),
            ("print-slips", "myl_round"),
        )
    ],
    # written appeals go to the Organised Play manager, none of the event's staff
    R("manage:myl-appeals", "get", "myl", **a_staff(403), authority=200),
    # --- organisation B's event, and A's objects through B's address
    R("manage:dashboard", "get", "event_b", **b_staff(200), authority=200),
    R("manage:players", "get", "event_b", **b_staff(200), authority=200),
    R("manage:penalties", "get", "event_b", **b_staff(200), authority=200),
    R("manage:print-penalties", "get", "event_b", **b_staff(200), authority=200),
    R("manage:penalty", "get", "vekn_penalty_via_b", **b_staff(404)),
    R("manage:dq-report", "get", "vekn_penalty_via_b", **b_staff(404), authority=403),
    R("manage:myl-aggression-report", "get", "myl_penalty_via_b", **b_staff(404), authority=403),
    R("manage:player-status", "post", "vekn_reg_via_b", **b_staff(404), authority=403),
    R("manage:registration", "get", "vekn_reg_via_b", **b_staff(404), authority=403),
    R("manage:registration-remove", "post", "vekn_reg_via_b", **b_staff(404), authority=403),
    R("manage:registration-merge", "post", "vekn_reg_via_b", **b_staff(404, other_judge=403),
      authority=403),
    R("manage:incident-new", "get", "incident_via_b", **b_staff(404), authority=403),
    R("events:my-match", "get", "event_b", **signed_in(200)),
    # the record A's claim is about was registered in B after the claim (issue 12, 4)
    R("manage:claim-decide", "post", "claim_via_b", data=APPROVE,
      **b_staff(404, other_judge=403), authority=403),
]
# fmt: on
SKIPPED_NAMESPACES = {"admin"}  # Django admin has its own staff-only login


def _all_url_names(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace
            if ns in SKIPPED_NAMESPACES:
                continue
            yield from _all_url_names(entry, f"{prefix}{ns}:" if ns else prefix)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + entry.name


def test_every_url_is_in_the_matrix():
    names = set(_all_url_names())
    rows = {row.name for row in MATRIX}
    assert names - rows == set(), "add these URLs to the permission matrix"
    assert rows - names == set(), "the matrix names URLs that no longer exist"


def test_rows_are_well_formed():
    """Every row names known personas and targets, once per (URL, target), and says
    something: a row that answers 404 to everyone tests no permission."""
    ids = [row.id for row in MATRIX]
    assert len(ids) == len(set(ids)), "a (URL, target) pair has two rows"
    for row in MATRIX:
        assert row.target in TARGETS, row.id
        assert row.method in ("get", "post"), row.id
        assert set(row.statuses) | set(row.bugs) <= set(PERSONAS), row.id
        assert {row.expected(p) for p in PERSONAS} != {404}, f"{row.id}: 404 for everyone"


# --------------------------------------------------------------------------- the world
def _png(name="shot.png"):
    buffer = io.BytesIO()
    Image.new("RGB", (32, 20), (20, 120, 40)).save(buffer, "PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


def _season_file(now):
    """The small season of the league tests, with accounts on teams t1 and t2 and the
    fixtures the rows need (deadlines ahead of ``now``)."""
    data = small_season()
    handles = {"t1": "m-team_player", "t2": "m-rival_player", "t3": "m-team3", "t4": "m-team4"}
    for team in data["teams"]:
        team["user"] = handles[team["id"]]
    deadlines = {
        "initial_deadline": (now + dt.timedelta(days=2)).isoformat(),
        "final_deadline": (now + dt.timedelta(days=5)).isoformat(),
    }
    league = data["competitions"][0]
    league["matches"][2].update(deadlines)  # m3: t1 v t3
    league["matches"] += [
        {"id": "m4", "round": 2, "home": "t4", "away": "t1", **deadlines},
        {"id": "m5", "round": 3, "home": "t1", "away": "t4", **deadlines},
        {"id": "m6", "round": 3, "home": "t3", "away": "t1", **deadlines},
    ]
    return data


def build_world() -> dict:
    """Both organisations, their events and the league season (see the module's
    docstring); returns the users by persona and the objects the rows point at."""
    users = {p: UserFactory(username=f"m-{p}") for p in PERSONAS if p != "anonymous"}
    team3, team4 = UserFactory(username="m-team3"), UserFactory(username="m-team4")

    # Organisation A: a VEKN event and a MyL event.
    org_a = OrganisationFactory(slug="org-a", name="Organisation A")
    OrganisationRole.objects.create(
        organisation=org_a, user=users["organiser"], role=Role.ORGANISER
    )
    vekn = EventFactory(organisation=org_a, slug="vekn-a", name="VEKN A")
    myl = EventFactory(
        organisation=org_a,
        slug="myl-a",
        name="MyL A",
        ruleset="myl",
        preset="myl-2026",
        round_minutes=50,
        best_of=3,
        top_cut=0,
        final_mode="none",
    )
    for event in (vekn, myl):
        for role in (Role.HEAD_JUDGE, Role.JUDGE, Role.SCOREKEEPER):
            EventRole.objects.create(event=event, user=users[role.value], role=role)
    person = PersonFactory(name="Ana Rojas", user=users["player"])
    claimed = PersonFactory(name="Bruno Díaz")
    vekn_regs = [
        RegistrationFactory(event=vekn, person=person),
        RegistrationFactory(event=vekn, person=claimed),
    ]
    vekn_regs += [RegistrationFactory(event=vekn) for _ in range(6)]
    vekn_round = services.seat_next_round(vekn, seed=1)
    vekn_check = deck_checks.choose_by_hand(
        vekn_round, vekn_regs[3], None, ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    )
    vekn_penalty = penalty_services.log_penalty(
        vekn,
        vekn_regs[2],
        "4.7",
        {},
        client_id=uuid.uuid4(),
        table=vekn_round.tables.first(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    ).penalty
    penalty_services.log_penalty(  # A's player: a VEKN penalty too (history per ruleset)
        vekn,
        vekn_regs[0],
        "2.1",
        {"advantage": False},
        client_id=uuid.uuid4(),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    )
    claim = PlayerClaim.objects.create(
        user=UserFactory(username="m-claimant"),
        vekn_number=claimed.vekn_number,
        name=claimed.name,
    )
    myl_regs = [RegistrationFactory(event=myl, person=person)]
    # An ended event of A that publishes every deck (docs/decks.md "Privacy and publication").
    decks_event = EventFactory(
        organisation=org_a,
        slug="decks-a",
        name="Decks A",
        results_approved=True,
        deck_publication="all",
    )
    decks.enter_for_player(
        RegistrationFactory(event=decks_event),
        LEGAL,
        users["organiser"],
        ROLE_PERMISSIONS[Role.ORGANISER],
        reason="Entered from the paper list after the event.",
    )
    myl_regs += [RegistrationFactory(event=myl) for _ in range(3)]
    myl_round = swiss_services.pair_next_round(myl, seed=1)
    services.set_seating_published(myl_round, True)

    # Organisation B: a MyL event where A's player and the claimed record registered.
    org_b = OrganisationFactory(slug="org-b", name="Organisation B")
    OrganisationRole.objects.create(
        organisation=org_b, user=users["other_organiser"], role=Role.ORGANISER
    )
    event_b = EventFactory(
        organisation=org_b, slug="myl-b", name="MyL B", ruleset="myl", round_minutes=50
    )
    EventRole.objects.create(event=event_b, user=users["other_judge"], role=Role.HEAD_JUDGE)
    AuthorityRole.objects.create(user=users["authority"], ruleset="myl")
    AuthorityRole.objects.create(user=users["coordinator"], ruleset="vekn")
    for who in (person, claimed):
        RegistrationFactory(event=event_b, person=who)

    # A's player: physical aggression in the MyL event, with its report and an appeal.
    myl_penalty = myl_services.log_penalty(
        myl,
        myl_regs[0],
        "3.1.1",
        {"grave": False},
        client_id=uuid.uuid4(),
        actor=users["head_judge"],
        table=myl_round.tables.get(seats__registration=myl_regs[0]),
        perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
    ).penalty
    myl_services.submit_written_appeal(myl_penalty, "It was not me.", users["player"])
    for _ in range(2):  # slow play twice: a warning, then a confirmed game loss
        myl_services.log_penalty(
            myl,
            myl_regs[0],
            "3.2.2",
            {},
            client_id=uuid.uuid4(),
            actor=users["head_judge"],
            perms=ROLE_PERMISSIONS[Role.HEAD_JUDGE],
            again=True,
        )

    # The league season.
    now = timezone.now()
    season = league_services.import_season(_season_file(now))
    SeasonRole.objects.create(season=season, user=users["league_staff"], role=SeasonRole.Role.STAFF)
    SeasonRole.objects.create(season=season, user=users["tribunal"], role=SeasonRole.Role.TRIBUNAL)
    matches = {
        m.code: m
        for m in Match.objects.select_related("competition__season", "home", "away").filter(
            competition__slug="t24-primera-a"
        )
    }
    posted = now - dt.timedelta(minutes=30)

    def report(code, user, confirm_by=None):
        item = reporting.report_result(
            matches[code], user, home_goals=1, away_goals=0, posted_at=posted, screenshot=_png()
        )
        if confirm_by is not None:
            reporting.confirm_report(item, confirm_by)
        return item

    open_report = report("m3", team3)  # t3's report: t1 (team_player) answers it
    own_report = report("m4", users["team_player"])
    accepted = report("m6", team3, confirm_by=users["team_player"])
    today = timezone.localdate()
    reporting.request_excuse(
        matches["m5"],
        team4,
        date_from=today,
        date_to=today + dt.timedelta(days=1),
        reason="Travelling",
        evidence=_png("evidence.png"),
    )
    sessions = {}
    for persona, user in users.items():
        signed = Client()
        signed.force_login(user)
        sessions[persona] = {settings.SESSION_COOKIE_NAME: signed.session.session_key}
    return {
        "sessions": sessions,
        "users": users,
        "vekn": vekn,
        "vekn_check": vekn_check,
        "myl": myl,
        "event_b": event_b,
        "decks_event": decks_event,
        "org_a": org_a,
        "org_b": org_b,
        "circuit_a": Circuit.objects.create(
            organisation=org_a, name="Circuit A", starts_on=today, ends_on=today
        ),
        "circuit_b": Circuit.objects.create(
            organisation=org_b, name="Circuit B", starts_on=today, ends_on=today
        ),
        "season": season,
        "vekn_reg": vekn_regs[2],
        "player_vekn_reg": vekn_regs[0],
        "player_myl_reg": myl_regs[0],
        "vekn_penalty": vekn_penalty,
        "myl_penalty": myl_penalty,
        "claim": claim,
        "open_report": open_report,
        "own_report": own_report,
        "accepted_report": accepted,
        "feed": feed_token(users["team_player"]),
        "proposal": TimeProposal.objects.create(
            match=matches["m5"],
            team=matches["m5"].away,
            proposed_by=team4,
            starts_at=now + dt.timedelta(hours=5),
        ),
        "footballer": Footballer.objects.create(
            team=season.teams.get(code="t1"), name="N. Squad", name_key="n. squad", number=9
        ),
    }


def _org_role(org) -> int:
    """The id of the organiser role of ``org`` (each organisation of the world has one)."""
    return OrganisationRole.objects.get(organisation=org, role=Role.ORGANISER).pk


def _event(w, key):
    return {"slug": w[key].slug}


def _match(code, report=None):
    def kwargs(w):
        out = {"slug": "t24-primera-a", "code": code}
        if report:
            out["pk"] = w[report].pk
        return out

    return kwargs


# target → (URL keywords from the world, query string)
TARGETS = {
    "none": lambda w: {},
    "reset": lambda w: {"uidb64": "MQ", "token": "not-a-valid-token"},
    "ruleset_vekn": lambda w: {"ruleset": "vekn"},
    "ruleset_myl": lambda w: {"ruleset": "myl"},
    "org_a": lambda w: {"org_slug": w["org_a"].slug},
    "org_b": lambda w: {"org_slug": w["org_b"].slug},
    "org_a_hook": lambda w: {"org_slug": w["org_a"].slug, "webhook_id": 999999},
    "circuit_a": lambda w: {"circuit_id": w["circuit_a"].pk},
    "org_a_circuit": lambda w: {"org_slug": w["org_a"].slug, "circuit_id": w["circuit_a"].pk},
    "circuit_b_via_a": lambda w: {
        "org_slug": w["org_a"].slug,
        "circuit_id": w["circuit_b"].pk,
    },
    "org_a_role": lambda w: {"org_slug": w["org_a"].slug, "role_id": _org_role(w["org_a"])},
    "org_b_role_via_a": lambda w: {"org_slug": w["org_a"].slug, "role_id": _org_role(w["org_b"])},
    "vekn": lambda w: _event(w, "vekn"),
    "decks_public": lambda w: _event(w, "decks_event"),
    "myl": lambda w: _event(w, "myl"),
    "event_b": lambda w: _event(w, "event_b"),
    "vekn_reg": lambda w: {**_event(w, "vekn"), "reg_id": w["vekn_reg"].pk},
    "vekn_token": lambda w: {
        **_event(w, "vekn"),
        "token": check_in_tokens.make_token(w["vekn"], timezone.now()),
    },
    "vekn_form": lambda w: _event(w, "vekn"),  # the same page, posted
    "vekn_bad_token": lambda w: {**_event(w, "vekn"), "token": "12345:forged"},
    "player_vekn_reg": lambda w: {**_event(w, "vekn"), "reg_id": w["player_vekn_reg"].pk},
    "vekn_person": lambda w: {"person_id": w["vekn_reg"].person_id},
    "vekn_round": lambda w: {**_event(w, "vekn"), "number": 1},
    "vekn_check": lambda w: {**_event(w, "vekn"), "number": 1, "pk": w["vekn_check"].pk},
    "myl_round": lambda w: {**_event(w, "myl"), "number": 1},
    "vekn_table": lambda w: {**_event(w, "vekn"), "number": 1, "table_number": 1},
    "myl_table": lambda w: {**_event(w, "myl"), "number": 1, "table_number": 1},
    "vekn_incident": lambda w: _event(w, "vekn"),
    "vekn_preview": lambda w: _event(w, "vekn"),
    "myl_preview": lambda w: _event(w, "myl"),
    "incident_via_b": lambda w: _event(w, "event_b"),
    "vekn_reg_via_b": lambda w: {**_event(w, "event_b"), "reg_id": w["vekn_reg"].pk},
    "myl_incident": lambda w: _event(w, "myl"),
    "vekn_penalty": lambda w: {**_event(w, "vekn"), "pk": w["vekn_penalty"].pk},
    "myl_penalty": lambda w: {**_event(w, "myl"), "pk": w["myl_penalty"].pk},
    "vekn_penalty_via_b": lambda w: {**_event(w, "event_b"), "pk": w["vekn_penalty"].pk},
    "myl_penalty_via_b": lambda w: {**_event(w, "event_b"), "pk": w["myl_penalty"].pk},
    "vekn_claim": lambda w: {**_event(w, "vekn"), "claim_id": w["claim"].pk},
    "claim_via_b": lambda w: {**_event(w, "event_b"), "claim_id": w["claim"].pk},
    "season": lambda w: {"slug": w["season"].slug},
    "league": lambda w: {"slug": "t24-primera-a"},
    "cup": lambda w: {"slug": "t24-cup"},
    "groups": lambda w: {"slug": "t24-champagne"},
    "team": lambda w: {"slug": w["season"].slug, "team": "t1"},
    "footballer": lambda w: {"slug": w["season"].slug, "team": "t1", "pk": w["footballer"].pk},
    "match": _match("m3"),  # t1 v t3, t3's report open
    "played_match": _match("m1"),  # t1 2–1 t2, from the season file
    "report": _match("m3", "open_report"),
    "own_report": _match("m4", "own_report"),  # t4 v t1, t1's report open
    "accepted_report": _match("m6", "accepted_report"),  # t3 v t1, confirmed
    "excuse_match": _match("m5"),  # t1 v t4, t4 asked for an excuse
    "proposal": lambda w: {**_match("m5")(w), "pk": w["proposal"].pk},  # t4 proposed a time
    "feed": lambda w: {"token": w["feed"]},
}
QUERIES = {
    "vekn_incident": lambda w: f"?reg={w['player_vekn_reg'].pk}",
    "vekn_preview": lambda w: f"?reg={w['player_vekn_reg'].pk}&code=2.1&c_advantage=no",
    "myl_preview": lambda w: f"?reg={w['player_myl_reg'].pk}&code=3.2.2",
    "incident_via_b": lambda w: f"?reg={w['vekn_reg'].pk}",
    "myl_incident": lambda w: f"?reg={w['player_myl_reg'].pk}",
}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The world, built once for the module inside a transaction rolled back at its end;
    each test runs in its own savepoint within it (pytest-django's ``db``)."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            data = build_world()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield data
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _url(row, w):
    url = reverse(row.name, kwargs=TARGETS[row.target](w))
    return url + QUERIES.get(row.target, lambda w: "")(w)


def _status(client, w, row, persona, url) -> int:
    """The status ``persona`` gets, in a savepoint rolled back afterwards (signed in by
    the persona's session made with the world: a sign-in per request costs a third of
    the file's time)."""
    cache.clear()
    client.cookies = SimpleCookie(w["sessions"].get(persona, {}))
    with transaction.atomic():
        data = row.data(w) if row.data else None
        status = getattr(client, row.method)(url, data).status_code
        transaction.set_rollback(True)
    return status


@pytest.fixture
def matrix_client(client):
    client.raise_request_exception = False  # a 500 is a status of the matrix
    return client


@pytest.mark.parametrize("row", MATRIX, ids=lambda row: row.id)
def test_permission_matrix(matrix_client, world, db, row):
    url = _url(row, world)
    wrong = []
    for persona in PERSONAS:
        if persona in row.bugs:
            continue  # test_known_permission_bugs
        got = _status(matrix_client, world, row, persona, url)
        if got != row.expected(persona):
            wrong.append(f"{row.name} {url} as {persona}: {got}, expected {row.expected(persona)}")
    assert not wrong, "\n".join(wrong)


KNOWN_BUGS = [
    pytest.param(
        row, persona, id=f"{row.id}-{persona}", marks=pytest.mark.xfail(strict=True, reason=reason)
    )
    for row in MATRIX
    for persona, reason in row.bugs.items()
]


@pytest.mark.parametrize(("row", "persona"), KNOWN_BUGS)
def test_known_permission_bugs(matrix_client, world, db, row, persona):
    got = _status(matrix_client, world, row, persona, _url(row, world))
    assert got == row.expected(persona), f"{row.id} as {persona}: {got}"


def test_every_persona_meets_the_same_world(matrix_client, world, db):
    """A persona's POST is rolled back: the opponent confirms t3's report twice, and the
    second time finds it pending again (else: 400, "already answered")."""
    row = next(r for r in MATRIX if r.id == "leagues:report-confirm@report")
    url = _url(row, world)
    assert [_status(matrix_client, world, row, "team_player", url) for _ in "12"] == [302, 302]
    world["open_report"].refresh_from_db()
    assert world["open_report"].status == "pending"


def test_objects_of_another_organisation_answer_404(client, world, db):
    """A's organiser reaching B's event and objects through A's addresses (and back)."""
    b = world["event_b"]
    b_reg = b.registrations.first()
    client.force_login(world["users"]["organiser"])
    a = world["vekn"].slug
    url = reverse("manage:player-status", kwargs={"slug": a, "reg_id": b_reg.pk})
    assert client.post(url, {"status": "dropped"}).status_code == 404
    assert Registration.objects.get(pk=b_reg.pk).status == b_reg.status
    assert client.get(reverse("manage:dashboard", kwargs={"slug": b.slug})).status_code == 404
    url = reverse("manage:penalty", kwargs={"slug": a, "pk": world["myl_penalty"].pk})
    assert client.get(url).status_code == 404
    assert (
        client.get(
            reverse("manage:table", kwargs={"slug": a, "number": 1, "table_number": 9})
        ).status_code
        == 404
    )
    assert client.get(reverse("manage:round", kwargs={"slug": a, "number": 7})).status_code == 404


def test_organisation_organiser_can_create_events(client, world, db):
    client.force_login(world["users"]["organiser"])
    url = reverse("event-create", kwargs={"org_slug": world["org_a"].slug})
    response = client.post(
        url,
        {
            "name": "Store Cup",
            "slug": "store-cup",
            "date": "2026-12-01",
            "preset": "vekn-2026",
            "format": "constructed",
            "preliminary_rounds": 3,
            "round_minutes": 120,
            "decklists_required": "on",
            "final_mode": "final",
            "time_zone": "America/Santiago",
        },
    )
    assert response.status_code == 302
    assert client.get(reverse("manage:settings", kwargs={"slug": "store-cup"})).status_code == 200
    client.force_login(world["users"]["other_organiser"])
    assert client.get(reverse("manage:settings", kwargs={"slug": "store-cup"})).status_code == 404
