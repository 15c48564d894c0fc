"""Permission matrix: every URL × persona → expected status (pattern: pretix's
permission matrix). A new URL without a row here fails ``test_every_url_is_in_the_matrix``."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from events import services
from tests.conftest import add_players
from tests.factories import EventFactory, RegistrationFactory

PERSONAS = [
    "anonymous",
    "outsider",
    "other_organiser",
    "organiser",
    "head_judge",
    "judge",
    "scorekeeper",
]

# name: (method, kwargs kind, statuses in PERSONAS order)
MATRIX = {
    # public
    "home": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    "login": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    "logout": ("post", "none", [302, 302, 302, 302, 302, 302, 302]),
    "signup": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    "my-page": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    "set_language": ("post", "none", [302, 302, 302, 302, 302, 302, 302]),
    "events:public-event": ("get", "event", [200, 200, 200, 200, 200, 200, 200]),
    "events:public-standings": ("get", "event", [200, 200, 200, 200, 200, 200, 200]),
    # big-screen standings for the venue (issue 7): public, only what is published
    "events:public-standings-screen": ("get", "event", [200, 200, 200, 200, 200, 200, 200]),
    "events:public-standings-screen-live": ("get", "event", [200] * 7),
    # the league table's big screen: the fixture has no competition with that slug
    "events:competition-screen": ("get", "event", [404] * 7),
    "events:competition-screen-live": ("get", "event", [404] * 7),
    "events:public-seating": ("get", "event", [200, 200, 200, 200, 200, 200, 200]),
    "events:public-results": ("get", "event", [200, 200, 200, 200, 200, 200, 200]),
    "event-create": ("get", "org", [302, 404, 404, 404, 404, 404, 404]),
    # --- security (issue 7)
    # password reset by e-mail: public forms (an unknown link answers 200 "not valid");
    # the player's own data download needs sign-in
    "password_reset": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    "password_reset_done": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    "password_reset_confirm": ("get", "reset", [200, 200, 200, 200, 200, 200, 200]),
    "password_reset_complete": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    "my-data": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    # changing one's password (issue 12): any signed-in user, for their own account
    "password_change": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    "password_change_done": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    # liveness probe (and the load test's trivial view): public
    "healthz": ("get", "none", [200, 200, 200, 200, 200, 200, 200]),
    # --- end security
    # API (standings unpublished in this fixture)
    "api-standings": ("get", "event", [404, 404, 404, 200, 200, 200, 200]),
    "api-check-table": ("post", "none", [400, 400, 400, 400, 400, 400, 400]),
    "api-penalty": ("post", "ruleset", [400, 400, 400, 400, 400, 400, 400]),
    # league read API: public; the fixture has no season, so every persona gets the 404
    # (tests/leagues/test_api.py checks the 200s)
    "api-competition-table": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "api-season-compliance": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    # league pages: public; the fixture has no season with the event's slug → 404 for all
    # (tests/leagues/test_pages.py checks the 200s); the player's own fixtures need sign-in
    "leagues:season": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:competition": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:my-fixtures": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    "leagues:my-fixtures-ics": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    # --- league: match page and players' actions (leagues/urls_match.py)
    # (the fixture has no competition with the event's slug: 404 once signed in)
    "leagues:fixtures-feed": ("get", "feed", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:match": ("get", "match", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:match-report": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:report-confirm": ("post", "report", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:report-dispute": ("post", "report", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:report-withdraw": ("post", "report", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:report-resolve": ("post", "report", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:report-screenshot": ("get", "report", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:match-correct": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:match-excuse": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:excuse-answer": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:excuse-decide": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:excuse-evidence": ("get", "match", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:match-concede": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-decide-tie": ("post", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-close-regular-phase": (
        "post",
        "event",
        [302, 404, 404, 404, 404, 404, 404],
    ),
    # --- end league match
    # --- league: season staff and tribunal (leagues/urls_staff.py)
    # no season/competition with the fixture's slugs: sign-in first, then 404 for everyone
    # (tests/leagues/test_sanctions.py checks the roles)
    "leagues:staff-home": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-deadlines": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-adjustments": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-abandon": ("get", "team", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-audit": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:match-walkover": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:match-void": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:match-tribunal": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    # --- end league staff
    # --- league: compliance, reviews, draft (leagues/urls_compliance.py)
    # public pages and API: no season with the event's slug → 404 for all
    # (tests/leagues/test_compliance_pages.py checks the 200s and the staff answers)
    "api-season-draft-order": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:compliance": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:draft": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-reviews": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-draft": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    # --- end league compliance
    # --- league finals (leagues/finals.py)
    # public pages and API: no season/competition with the event's slug → 404 for all
    # (tests/leagues/test_finals.py checks the 200s)
    "api-competition-bracket": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "api-season-suspensions": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:suspensions": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    # staff actions: sign-in first, then 404 (no such competition/season); the roles are
    # checked in tests/leagues/test_finals_stages.py and test_champagne_draw.py
    "leagues:competition-advance-stage": ("post", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-champagne": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    # cups and bracket decisions (roles checked in tests/leagues/test_cups_app.py and
    # test_bracket_overrides.py); the cup bonus page is public
    "leagues:cup-bonus": ("get", "event", [404, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-close-group-stage": (
        "post",
        "event",
        [302, 404, 404, 404, 404, 404, 404],
    ),
    "leagues:staff-nucommunity": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-cup-bonus": ("post", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:staff-brackets": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-bracket-slot": ("post", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-bracket-award": ("post", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-bracket-third-home": (
        "post",
        "event",
        [302, 404, 404, 404, 404, 404, 404],
    ),
    "leagues:competition-relegation": ("post", "event", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:competition-bracket-final-four": (
        "post",
        "event",
        [302, 404, 404, 404, 404, 404, 404],
    ),
    # §V incidents and the broadcast requirement on the match page (roles checked in
    # tests/leagues/test_match_incidents.py)
    "leagues:match-incident": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:match-must-stream": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    # a match played without its required stream link: replay or add the link (staff or
    # tribunal; roles checked in tests/leagues/test_final_phase_trial.py)
    "leagues:match-replay-unstreamed": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    "leagues:match-stream-link": ("post", "match", [302, 404, 404, 404, 404, 404, 404]),
    # --- end league finals
    # staff
    "manage:dashboard": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:settings": ("get", "event", [302, 404, 404, 200, 403, 403, 403]),
    "manage:players": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:player-add": ("post", "event", [302, 404, 404, 302, 302, 403, 302]),
    "manage:player-status": ("post", "reg", [302, 404, 404, 302, 302, 403, 302]),
    "manage:claim-decide": ("post", "claim", [302, 404, 404, 404, 403, 403, 403]),
    "manage:round-seat": ("post", "event", [302, 404, 404, 302, 302, 302, 403]),
    "manage:round": ("get", "round", [302, 404, 404, 200, 200, 200, 200]),
    "manage:round-reseat": ("post", "round", [302, 404, 404, 302, 302, 302, 403]),
    "manage:round-swap": ("post", "round", [302, 404, 404, 302, 302, 302, 403]),
    "manage:round-publish": ("post", "round", [302, 404, 404, 302, 302, 403, 403]),
    "manage:table": ("get", "table", [302, 404, 404, 200, 200, 200, 200]),
    "manage:table-check": ("post", "table", [302, 404, 404, 200, 200, 200, 200]),
    "manage:standings": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:toss": ("post", "event", [302, 404, 404, 302, 302, 403, 403]),
    "manage:publish-standings": ("post", "event", [302, 404, 404, 302, 302, 403, 403]),
    "manage:final": ("get", "event", [302, 404, 404, 200, 200, 403, 403]),
    "manage:export-csv": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:export-archondata": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:audit": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:staff": ("get", "event", [302, 404, 404, 200, 403, 403, 403]),
    # --- offline tablet (events/views_offline.py): judges and scorekeepers; an empty sync
    # body is a 400 JSON answer (tests/test_offline_tablet.py checks the rest)
    "manage:tablet": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:tablet-data": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:tablet-sync": ("post", "event", [302, 404, 404, 400, 400, 400, 400]),
    "manage:tablet-worker": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    # --- end offline tablet
    # judging
    "my-sanctions": ("get", "none", [302, 200, 200, 200, 200, 200, 200]),
    "manage:table-incident": ("get", "table", [302, 404, 404, 200, 200, 200, 403]),
    "manage:table-extension": ("get", "table", [302, 404, 404, 200, 200, 200, 403]),
    "manage:round-start": ("post", "round", [302, 404, 404, 302, 302, 302, 403]),
    "manage:incident-person": ("get", "event", [302, 404, 404, 200, 200, 200, 403]),
    "manage:incident-non-competing": ("post", "event", [302, 404, 404, 302, 302, 302, 403]),
    "manage:incident-new": ("get", "incident", [302, 404, 404, 200, 200, 200, 403]),
    "manage:penalties": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:penalty": ("get", "penalty", [302, 404, 404, 200, 200, 200, 200]),
    "manage:dq-report": ("get", "penalty", [302, 404, 404, 200, 200, 200, 403]),
    "manage:approve-results": ("post", "event", [302, 404, 404, 302, 302, 403, 403]),
    "manage:cases": ("get", "event", [302, 404, 404, 200, 200, 403, 403]),
    "manage:export-penalties-csv": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    "manage:export-penalties-json": ("get", "event", [302, 404, 404, 200, 200, 200, 200]),
    # --- myl events (events/views_swiss.py)
    # the fixture is a VEKN event: MyL-only addresses answer 404 once the permission is
    # held (tests/test_swiss_pages.py checks every role on a MyL event)
    "manage:myl-pair": ("post", "event", [302, 404, 404, 404, 404, 404, 403]),
    "manage:myl-repair": ("post", "round", [302, 404, 404, 404, 404, 404, 403]),
    "manage:myl-match": ("get", "table", [302, 404, 404, 404, 404, 404, 404]),
    "manage:myl-top-cut": ("post", "event", [302, 404, 404, 404, 404, 403, 403]),
    "events:my-match": ("get", "event", [302, 404, 404, 404, 404, 404, 404]),
    # --- end myl events
    # --- myl penalties (penalties/views_myl.py)
    # the fixture's penalty is a VEKN one: no aggression report (404 once allowed);
    # written appeals are the OP manager's (tests/test_myl_penalty_pages.py checks the 200s)
    "manage:myl-aggression-report": ("get", "penalty", [302, 404, 404, 404, 404, 404, 403]),
    "manage:myl-appeals": ("get", "event", [302, 404, 404, 403, 403, 403, 403]),
    # --- end myl penalties
}
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
    assert names - set(MATRIX) == set(), "add these URLs to the permission matrix"
    assert set(MATRIX) - names == set(), "the matrix names URLs that no longer exist"


@pytest.fixture
def setup(event, staff):
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    reg = event.registrations.first()
    import uuid

    from penalties import services as penalty_services

    dq = penalty_services.log_penalty(
        event, reg, "4.7", {}, client_id=uuid.uuid4(), table=rnd.tables.first()
    ).penalty
    return {"event": event, "round": rnd, "reg": reg, "users": staff, "penalty": dq}


def _kwargs(kind, s):
    e = s["event"]
    return {
        "none": {},
        "ruleset": {"ruleset": "vekn"},
        "event": {"slug": e.slug},
        "org": {"org_slug": e.organisation.slug},
        "reg": {"slug": e.slug, "reg_id": s["reg"].pk},
        "round": {"slug": e.slug, "number": 1},
        "table": {"slug": e.slug, "number": 1, "table_number": 1},
        "incident": {"slug": e.slug},
        "penalty": {"slug": e.slug, "pk": s["penalty"].pk},
        "claim": {"slug": e.slug, "claim_id": 999999},
        # league URLs: the fixture has no season/competition with the event's slug
        "match": {"slug": e.slug, "code": "m1"},
        "report": {"slug": e.slug, "code": "m1", "pk": 999999},
        "team": {"slug": e.slug, "team": "t1"},
        "feed": {"token": "1:forged-signature"},
        "reset": {"uidb64": "MQ", "token": "not-a-valid-token"},
    }[kind]


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_permission_matrix(client, setup, name):
    method, kind, statuses = MATRIX[name]
    url = reverse(name, kwargs=_kwargs(kind, setup))
    if kind == "incident":
        url += f"?reg={setup['reg'].pk}"
    for persona, expected in zip(PERSONAS, statuses, strict=True):
        client.logout()
        if persona != "anonymous":
            client.force_login(setup["users"][persona])
        response = getattr(client, method)(url)
        assert response.status_code == expected, f"{name} as {persona}: {response.status_code}"


def test_objects_of_another_event_answer_404(client, setup):
    other = EventFactory(slug="elsewhere")
    other_reg = RegistrationFactory(event=other)
    add_players(other, 7)
    services.seat_next_round(other, seed=1)
    client.force_login(setup["users"]["organiser"])
    e = setup["event"].slug
    # A registration of the other event through this event's address.
    url = reverse("manage:player-status", kwargs={"slug": e, "reg_id": other_reg.pk})
    assert client.post(url, {"status": "dropped"}).status_code == 404
    other_reg.refresh_from_db()
    assert other_reg.status == "checked_in"
    # A table number that exists only in the other event.
    assert (
        client.get(
            reverse("manage:table", kwargs={"slug": e, "number": 1, "table_number": 9})
        ).status_code
        == 404
    )
    assert client.get(reverse("manage:round", kwargs={"slug": e, "number": 7})).status_code == 404
    # The other event's pages themselves.
    assert client.get(reverse("manage:dashboard", kwargs={"slug": "elsewhere"})).status_code == 404


def test_organisation_organiser_can_create_events(client, db):
    from events.models import OrganisationRole
    from events.permissions import Role
    from tests.factories import OrganisationFactory, UserFactory

    org = OrganisationFactory(slug="store")
    user = UserFactory(username="boss")
    OrganisationRole.objects.create(organisation=org, user=user, role=Role.ORGANISER)
    client.force_login(user)
    url = reverse("event-create", kwargs={"org_slug": "store"})
    assert client.get(url).status_code == 200
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
