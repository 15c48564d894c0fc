"""Security and privacy helpers: the player's own data export, the login lockout page and
the throttles (sign-in per client address, password-reset e-mails, public deck checks).

``player_data`` gathers everything the application keeps about one account — the account,
its person record and claims, registrations, waitlist places, penalties (voided ones included, with their
reasons), suspensions, appeals, league teams with their adjustments, excuses and result
reports — in a fixed number of queries whatever the history's length. Other people's
identities (the judges and staff who acted) are left out: the export is the player's data.
"""

import hashlib
from datetime import date, datetime
from decimal import Decimal
from uuid import UUID

from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import render

from events.models import Person, PlayerClaim, Registration, WaitlistEntry
from leagues.models import Adjustment, Excuse, ResultReport, Team
from penalties.models import Appeal, Penalty, Sanction


def _iso(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID | Decimal):
        return str(value)
    return value


def _row(obj, fields):
    return {name: _iso(getattr(obj, name)) for name in fields}


def player_data(user) -> dict:
    """The document of ``/players/me/data.json`` for ``user`` (bounded queries)."""

    person = Person.objects.filter(user=user).first()
    document = {
        "format": "arbitro-player-data",
        "version": 1,
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
        },
        "person": _row(person, ["name", "vekn_number", "created_at"]) if person else None,
        "claims": [
            _row(c, ["vekn_number", "name", "status", "created_at", "decided_at"])
            for c in PlayerClaim.objects.filter(user=user).order_by("created_at", "id")
        ],
        "registrations": [],
        "waitlist": [],
        "penalties": [],
        "sanctions": [],
        "league_teams": [],
        "league_match_reports": [],
        "league_excuses": [],
    }
    if person is not None:
        document["registrations"] = [
            {
                "event": r.event.slug,
                "event_name": r.event.name,
                "event_date": _iso(r.event.date),
                **_row(
                    r,
                    [
                        "code",
                        "status",
                        "competing",
                        "first_round",
                        "dropped_after_round",
                        "created_at",
                    ],
                ),
            }
            for r in Registration.objects.filter(person=person)
            .select_related("event")
            .order_by("event__date", "id")
        ]
        # Waiting for a place in a full event (docs/players.md "The waitlist").
        document["waitlist"] = [
            {"event": w.event.slug, "event_name": w.event.name, **_row(w, ["created_at"])}
            for w in WaitlistEntry.objects.filter(person=person)
            .select_related("event")
            .order_by("created_at", "id")
        ]
        appeals: dict[int, list] = {}
        for a in Appeal.objects.filter(penalty__person=person).order_by("submitted_at", "id"):
            appeals.setdefault(a.penalty_id, []).append(
                _row(
                    a,
                    [
                        "kind",
                        "statement",
                        "submitted_at",
                        "deadline",
                        "decision",
                        "decision_reason",
                        "decided_at",
                    ],
                )
            )
        document["penalties"] = [
            {
                "event": p.event.slug,
                "event_name": p.event.name,
                **_row(
                    p,
                    [
                        "client_id",
                        "ruleset",
                        "ruleset_version",
                        "infraction",
                        "round_number",
                        "timing",
                        "level",
                        "guide_level",
                        "offence",
                        "explanation",
                        "description",
                        "deviation_reason",
                        "is_linked",
                        "status",
                        "created_at",
                        "confirmed_at",
                        "voided_at",
                        "void_reason",
                    ],
                ),
                "appeals": appeals.get(p.pk, []),
            }
            for p in Penalty.objects.filter(person=person)
            .select_related("event")
            .order_by("created_at", "id")
        ]
        document["sanctions"] = [
            {
                "penalty": str(s.penalty.client_id) if s.penalty_id else None,
                **_row(
                    s,
                    [
                        "kind",
                        "ruleset",
                        "starts_on",
                        "ends_on",
                        "reason",
                        "created_at",
                        # When the national authority confirmed it (issue 12).
                        "confirmed_at",
                        "lifted_at",
                        "lift_reason",
                    ],
                ),
            }
            for s in Sanction.objects.filter(person=person)
            .select_related("penalty")
            .order_by("starts_on", "id")
        ]
    teams = list(Team.objects.filter(user=user).select_related("season").order_by("id"))
    adjustments: dict[int, list] = {}
    for adj in (
        Adjustment.objects.filter(team__in=teams)
        .select_related("competition")
        .order_by("created_at", "id")
    ):
        adjustments.setdefault(adj.team_id, []).append(
            {"competition": adj.competition.slug, **_row(adj, ["points", "reason", "created_at"])}
        )
    document["league_teams"] = [
        {
            "season": t.season.slug,
            "season_name": t.season.name,
            **_row(t, ["code", "name", "handle", "status"]),
            "adjustments": adjustments.get(t.pk, []),
        }
        for t in teams
    ]
    document["league_match_reports"] = [
        {
            "competition": r.match.competition.slug,
            "match": r.match.code,
            "team": r.team.code,
            "reported_by_me": r.reported_by_id == user.pk,
            **_row(
                r,
                [
                    "home_goals",
                    "away_goals",
                    "posted_at",
                    "stream_url",
                    "cards",
                    "status",
                    "created_at",
                    "dispute_reason",
                    "responded_at",
                    "resolution",
                    "resolved_at",
                ],
            ),
            "screenshot": r.screenshot.name,
        }
        for r in ResultReport.objects.filter(Q(team__in=teams) | Q(reported_by=user))
        .select_related("match__competition", "team")
        .order_by("created_at", "id")
    ]
    document["league_excuses"] = [
        {
            "competition": e.match.competition.slug,
            "match": e.match.code,
            **_row(
                e,
                [
                    "date_from",
                    "date_to",
                    "reason",
                    "created_at",
                    "opponent_answer",
                    "staff_answer",
                ],
            ),
            "evidence": e.evidence.name,
        }
        for e in Excuse.objects.filter(team__in=teams)
        .select_related("match__competition")
        .order_by("created_at", "id")
    ]
    return document


def client_ip(request) -> str | None:
    """The address a request comes from, for django-axes (``AXES_CLIENT_IP_CALLABLE``).

    Without proxies (``TRUSTED_PROXY_COUNT`` = 0) it is ``REMOTE_ADDR``. Behind *n* trusted
    proxies, each of which appends the address it received the request from to
    ``X-Forwarded-For`` (nginx's ``$proxy_add_x_forwarded_for``, or the outermost one
    replacing the header), the client is the *n*-th entry from the right: entries further
    left were sent by the client and cannot be trusted. With fewer entries than proxies
    (a request that did not come through them) it falls back to ``REMOTE_ADDR``."""

    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    remote = request.META.get("REMOTE_ADDR") or None
    if count <= 0:
        return remote
    entries = [e.strip() for e in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    entries = [e for e in entries if e]
    if len(entries) < count:
        return remote
    return entries[-count]


def locked_out(request, original_response=None, credentials=None):
    """django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``): a page, status 429."""

    cool_off = get_cool_off(request)
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "cooloff_minutes": int(cool_off.total_seconds() // 60) if cool_off else None,
        # Locked by :class:`AddressThrottleBackend` (every username from this address).
        "by_address": getattr(request, "arbitro_address_locked", False),
    }
    return render(
        request,
        "registration/locked_out.html",
        context,
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


# --------------------------------------------------------------------------- throttles
# Counters in the cache (a shared Redis with CACHE_URL; per process otherwise), each in a
# fixed window that starts at its first hit. docs/deploy.md "Security".


def _digest(value: str) -> str:

    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _hits(key: str) -> int:

    return cache.get(key) or 0


def _hit(key: str, window_seconds: int) -> None:

    if cache.add(key, 1, window_seconds):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, window_seconds)


def _address(request) -> str:
    return client_ip(request) or "unknown"


def _sign_in_address_key(request) -> str:
    return f"throttle:sign-in:address:{_digest(_address(request))}"


def sign_in_address_locked(request) -> bool:
    """True once ``LOGIN_ADDRESS_FAILURE_LIMIT`` sign-ins failed from the request's address
    (:func:`client_ip`), whatever the usernames, within ``AXES_COOLOFF_TIME`` of the first.
    It adds to django-axes' lock of one username from one address: it stops one address
    trying many usernames. The limit is well above axes' own so that a venue's players
    sharing one Wi-Fi address are not locked out together **[choice]**."""

    if not settings.AXES_ENABLED or request is None:
        return False
    return _hits(_sign_in_address_key(request)) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


def count_failed_sign_in(sender, credentials=None, request=None, **kwargs) -> None:
    """Receiver of ``user_login_failed`` (connected in ``events.apps``): one more failure
    for the request's address. A success does not reset it (anyone could sign in to their
    own account to go on guessing others)."""

    if not settings.AXES_ENABLED or request is None or not hasattr(request, "META"):
        return
    _hit(_sign_in_address_key(request), int(settings.AXES_COOLOFF_TIME.total_seconds()))


class AddressThrottleBackend:
    """First authentication backend: refuses every sign-in from an address that is
    :func:`sign_in_address_locked`, before any password is checked, and has django-axes'
    middleware answer with the lockout page (:func:`locked_out`, HTTP 429)."""

    def authenticate(self, request, username=None, password=None, **kwargs):

        if sign_in_address_locked(request):
            request.axes_locked_out = True
            request.arbitro_address_locked = True
            raise PermissionDenied
        return None

    # No ``get_user``: this backend never signs anyone in, so sessions (and the test
    # client's ``force_login``, which takes the first backend that has one) never use it.


def password_reset_allowed(request, email: str) -> bool:
    """Whether a password-reset e-mail may be sent for this request, counting it if so:
    at most ``PASSWORD_RESET_LIMIT_PER_EMAIL`` requests for one address (known or not, so
    that the answer never tells whether an account has it) and
    ``PASSWORD_RESET_LIMIT_PER_ADDRESS`` from one client address, per
    ``PASSWORD_RESET_LIMIT_MINUTES``. A refused request is not counted."""

    window = settings.PASSWORD_RESET_LIMIT_MINUTES * 60
    keys = [
        (
            f"throttle:reset:email:{_digest(email.strip().casefold())}",
            settings.PASSWORD_RESET_LIMIT_PER_EMAIL,
        ),
        (
            f"throttle:reset:address:{_digest(_address(request))}",
            settings.PASSWORD_RESET_LIMIT_PER_ADDRESS,
        ),
    ]
    if any(_hits(key) >= limit for key, limit in keys):
        return False
    for key, _limit in keys:
        _hit(key, window)
    return True


def deck_check_allowed(request) -> bool:
    """Whether one more public deck check (``POST /api/v1/vekn/check-deck``,
    docs/contracts.md §8) may run for the request's client address, counting it if so: at
    most ``DECK_CHECK_LIMIT_PER_MINUTE`` a minute. The check writes nothing but costs a few
    milliseconds of CPU per list, so one address cannot keep a worker busy."""

    key = f"throttle:deck-check:address:{_digest(_address(request))}"
    if _hits(key) >= settings.DECK_CHECK_LIMIT_PER_MINUTE:
        return False
    _hit(key, 60)
    return True
