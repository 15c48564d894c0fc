"""Draft order (docs/leagues.md "Draft order", ANFPES T24 §III.4, §IV.8): ``leagues.drafting`` and
``GET /api/v1/seasons/<slug>/draft-order``."""

import random
from datetime import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues.drafting import draft_order_document, draw_draft_lots, set_draft_base
from leagues.models import DraftLot, Match, Review, SeasonRole, Team
from leagues.rules.draft import RULES, draw_lots
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import sixteen

pytestmark = pytest.mark.django_db


def at(text):
    return datetime.fromisoformat(text)


@pytest.fixture
def season():
    return import_season(sixteen())


@pytest.fixture
def staff(season):
    user = UserFactory(username="league-staff")
    SeasonRole.objects.create(season=season, user=user, role="staff")
    return user


def codes(doc):
    return [slot["team"] for slot in doc["order"]]


def suspend(*team_codes, status="suspended"):
    Team.objects.filter(code__in=team_codes).update(status=status)


# --------------------------------------------------------------------------- base order
def test_without_a_base_order_the_file_order_stands_in(season):
    doc = draft_order_document(season)
    assert codes(doc) == [f"t{i}" for i in range(1, 17)]
    assert doc["base_order_entered"] is False and doc["lot"] is None
    assert doc["order"][0] == {
        "position": 1,
        "team": "t1",
        "name": "Team 1",
        "rule": "base_order",
        "detail": "base order 1",
        "base_position": 1,
        "percentage": None,
    }
    assert doc["rules"] == RULES


def test_set_draft_base_saves_and_audits(season, staff):
    order = [f"t{i}" for i in range(16, 0, -1)]
    assert set_draft_base(season, [*order[:3], " ", *order[3:]], staff) == order
    season.refresh_from_db()
    assert season.draft_base == order
    log = AuditLog.objects.get(action="draft.base")
    assert (log.before, log.after, log.target) == ([], order, "t24/draft")
    doc = draft_order_document(season)
    assert codes(doc) == order and doc["base_order_entered"] is True


@pytest.mark.parametrize(
    "base",
    [[], ["t1", "t99"], ["t1", "t2", "t1"], ["t1", "t3"]],
    ids=["empty", "unknown", "repeated", "expelled"],
)
def test_set_draft_base_refuses_bad_lists(season, staff, base):
    suspend("t3", status="expelled")
    with pytest.raises(UserError):
        set_draft_base(season, base, staff)
    season.refresh_from_db()
    assert season.draft_base == [] and not AuditLog.objects.filter(action="draft.base")


def test_only_draft_managers_set_the_base_or_draw(season):
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role="tribunal")
    for user in (tribunal, UserFactory(username="nobody")):
        with pytest.raises(PermissionDenied):
            set_draft_base(season, ["t1"], user)
        with pytest.raises(PermissionDenied):
            draw_draft_lots(season, user)


def test_expelled_teams_leave_the_draft_and_teams_left_out_are_listed(season, staff):
    set_draft_base(season, ["t2", "t1", "t3", "t4"], staff)
    suspend("t1", status="expelled")
    doc = draft_order_document(season)
    assert codes(doc) == ["t2", "t3", "t4"]
    assert doc["left_out"] == [f"t{i}" for i in range(5, 17)]


# --------------------------------------------------------------------------- reaped
def test_reaped_users_go_to_the_end_higher_compliance_first(season, staff):
    """Matchdays 1–2 played in time but for two unplayed fixtures, reviewed after."""
    matches = {m.code: m for m in Match.objects.select_related("home", "away")}
    day1 = [m for m in matches.values() if m.round == 1]
    unplayed = [m for m in day1 if {m.home.code, m.away.code} & {"t1", "t2"}]
    for m in matches.values():
        if m.round in (1, 2) and m not in unplayed:
            m.status, m.home_goals, m.away_goals = "played", 1, 1
            m.reported_at = m.initial_deadline  # in time: 2 points each
            if m.code == "m16":  # t1 v t2, matchday 2: by the final deadline only
                m.reported_at = m.final_deadline
            m.save()
    Review.objects.create(season=season, kind="first_half", at=at("2026-03-20T12:00:00-03:00"))
    reaped = {u for m in unplayed for u in (m.home.code, m.away.code)}
    doc = draft_order_document(season, as_of=at("2026-03-21T12:00:00-03:00"))
    tail = [slot for slot in doc["order"] if slot["rule"] == "reaped"]
    assert {s["team"] for s in tail} == reaped
    assert codes(doc)[-len(tail) :] == [s["team"] for s in tail]
    # md1 t1–t16 and t2–t15 unplayed: all four reaped. t15 and t16 then scored 2 of 4, t1
    # and t2 (posted by the final deadline) 1 of 4: higher first, ties in base order.
    assert [(s["team"], s["percentage"]) for s in tail] == [
        ("t15", 50.0),
        ("t16", 50.0),
        ("t1", 25.0),
        ("t2", 25.0),
    ]
    assert tail[0]["detail"] == "compliance 50.0%"


# --------------------------------------------------------------------------- lots
def test_one_suspended_team_goes_last_without_a_draw(season, staff):
    suspend("t5")
    doc = draft_order_document(season)
    assert doc["order"][-1]["team"] == "t5" and doc["order"][-1]["rule"] == "suspended"
    assert doc["draw_required"] is False
    with pytest.raises(UserError):
        draw_draft_lots(season, staff)


def test_two_suspended_teams_wait_for_the_draw_then_take_its_order(season, staff):
    suspend("t9", "t4", "t12")
    pending = draft_order_document(season)
    assert pending["draw_required"] is True and pending["lot"] is None
    assert codes(pending)[-3:] == ["t4", "t9", "t12"]  # base order meanwhile
    assert {s["rule"] for s in pending["order"][-3:]} == {"suspended_lot"}
    assert pending["order"][-1]["detail"] == "awaiting the draw"

    lot = draw_draft_lots(season, staff, seed="anfpes-t24")
    assert lot.entrants == ["t4", "t9", "t12"] and lot.seed == "anfpes-t24"
    assert tuple(lot.order) == draw_lots(["t4", "t9", "t12"], "anfpes-t24").order
    doc = draft_order_document(season)
    assert doc["draw_required"] is False and codes(doc)[-3:] == lot.order
    assert doc["lot"]["seed"] == "anfpes-t24" and doc["lot"]["verified"] is True
    assert doc["lot"]["entrants"] == ["t4", "t9", "t12"]
    # Anyone can re-run it with the documented shuffle.
    items, rng = list(lot.entrants), random.Random(lot.seed)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    assert items == lot.order
    # No re-roll while the draw covers exactly the suspended teams.
    with pytest.raises(UserError):
        draw_draft_lots(season, staff)
    assert DraftLot.objects.count() == 1
    assert AuditLog.objects.get(action="draft.lot").after["seed"] == "anfpes-t24"


def test_a_draw_for_other_teams_no_longer_counts(season, staff):
    suspend("t4", "t9")
    draw_draft_lots(season, staff)
    suspend("t12")
    doc = draft_order_document(season)
    assert doc["draw_required"] is True and doc["lot"] is None
    fresh = draw_draft_lots(season, staff)  # a fresh secrets-based seed
    assert fresh.seed.isdigit() and sorted(fresh.entrants) == ["t12", "t4", "t9"]
    assert draft_order_document(season)["lot"]["seed"] == fresh.seed


# --------------------------------------------------------------------------- API
def url(slug):
    return reverse("api-season-draft-order", kwargs={"slug": slug})


def test_the_draft_order_api(client, season, staff, django_assert_max_num_queries):
    suspend("t2", "t3")
    draw_draft_lots(season, staff, seed=7)
    with django_assert_max_num_queries(4):
        response = client.get(url("t24"))
    assert response.status_code == 200
    doc = response.json()
    assert doc["season"] == "t24" and len(doc["order"]) == 16
    assert doc["lot"]["seed"] == "7" and set(doc["lot"]["order"]) == {"t2", "t3"}
    assert client.post(url("t24")).status_code == 405


def test_the_draft_order_api_of_an_unknown_season_is_404(client):
    response = client.get(url("nope"))
    assert response.status_code == 404 and response.json() == {"error": "no such season"}
