"""Compliance, reviews and draft pages (ANFPES T24 §IV, §III.4, §IV.8; docs/leagues.md
"Compliance table", "Draft order"): public pages, staff pages with their permissions, bounded
queries."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.drafting import draw_draft_lots
from leagues.models import DraftLot, Match, Review, SeasonRole, Team
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import sixteen

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    """Primera B of 16 teams that started 3 weeks ago: matchdays 1–2 past their final
    deadlines; m1 played in time, m2 conceded by its away team, the rest unplayed."""
    start = timezone.localdate() - timedelta(days=21)
    season = import_season(sixteen(start=start.isoformat()))
    m1 = Match.objects.get(code="m1")
    Match.objects.filter(code="m1").update(
        status="played", home_goals=2, away_goals=0, reported_at=m1.initial_deadline
    )
    from leagues.models import Concession

    m2 = Match.objects.select_related("away").get(code="m2")
    Concession.objects.create(match=m2, team=m2.away)
    return season


@pytest.fixture
def users(season):
    staff = UserFactory(username="league-staff")
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role="tribunal")
    return {"staff": staff, "tribunal": tribunal, "outsider": UserFactory(username="outsider")}


def url(name, slug="t24"):
    return reverse(f"leagues:{name}", kwargs={"slug": slug})


# --------------------------------------------------------------------------- public
def test_the_compliance_page(client, season, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get(url("compliance"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Compliance table" in html and "Team 1" in html and "user1" not in html  # no login
    assert "<details>" in html
    # Translated outcome labels, not the codes.
    assert "Posted by the initial deadline" in html
    assert "Conceded the fixture&#x27;s points" in html
    assert "The opponent conceded the fixture&#x27;s points" in html
    assert "Not posted and past its deadline" in html
    assert "Reaped" not in html
    assert url("draft") in html


def test_reaped_users_carry_a_badge(client, season):
    Review.objects.create(season=season, kind="first_half", at=timezone.now())
    html = client.get(url("compliance")).content.decode()
    assert "badge err" in html and "Reaped" in html


def test_the_season_page_links_compliance_and_draft(client, season):
    html = client.get(url("season")).content.decode()
    assert url("compliance") in html and url("draft") in html


def test_the_draft_page_shows_rules_and_the_draw(
    client, season, users, django_assert_max_num_queries
):
    Team.objects.filter(code__in=["t3", "t7"]).update(status="suspended")
    html = client.get(url("draft")).content.decode()
    assert "waiting for the draw" in html
    draw_draft_lots(season, users["staff"], seed="fiesta")
    with django_assert_max_num_queries(4):
        response = client.get(url("draft"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "fiesta" in html and "random.Random(&quot;fiesta&quot;)" in html
    assert "print(items)  # [&#x27;" in html
    assert "Suspended: last, order drawn by lot" in html and "Base order" in html
    assert "re-checked" in html


def test_unknown_seasons_answer_404(client):
    for name in ("compliance", "draft", "staff-reviews", "staff-draft"):
        assert client.get(url(name, "nope")).status_code in (302, 404)
    assert client.get(url("compliance", "nope")).status_code == 404


# --------------------------------------------------------------------------- staff
@pytest.mark.parametrize("name", ["staff-reviews", "staff-draft"])
def test_staff_pages_permissions(client, users, name):
    assert client.get(url(name)).status_code == 302
    for who, status in (("outsider", 404), ("tribunal", 403), ("staff", 200)):
        client.force_login(users[who])
        assert client.get(url(name)).status_code == status, who
        # A staff POST without data is refused: the page again with the message, 400.
        assert client.post(url(name)).status_code == (400 if who == "staff" else status), who


def test_the_reviews_page_previews_and_holds(client, season, users, django_assert_max_num_queries):
    client.force_login(users["staff"])
    with django_assert_max_num_queries(9):
        response = client.get(url("staff-reviews"))
    html = response.content.decode()
    # Unplayed matchday-1/2 fixtures past their deadlines would reap their users now.
    assert "End of the first half" in html and "t24-primera-b/m3" in html
    assert "Team 3 – Team 14 (matchday 1)" in html
    # Without the confirmation nothing is held.
    response = client.post(url("staff-reviews"), {"kind": "first_half"}, follow=True)
    assert "Tick the confirmation" in response.content.decode()
    assert not Review.objects.exists()
    response = client.post(
        url("staff-reviews"), {"kind": "first_half", "confirm": "1"}, follow=True
    )
    assert "Review held" in response.content.decode()
    assert "players reaped" in response.content.decode()
    assert Review.objects.get().held_by == users["staff"]
    # Holding it again is refused with a message on the page (400), not an error page.
    response = client.post(
        url("staff-reviews"), {"kind": "first_half", "confirm": "1"}, follow=True
    )
    assert response.status_code == 400
    assert "already been held" in response.content.decode()
    future = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        url("staff-reviews"), {"kind": "season_end", "at": future, "confirm": "1"}, follow=True
    )
    assert "cannot be held in the future" in response.content.decode()
    response = client.post(
        url("staff-reviews"), {"kind": "season_end", "at": "soon", "confirm": "1"}, follow=True
    )
    assert "YYYY-MM-DD" in response.content.decode()
    assert Review.objects.count() == 1
    html = client.get(url("staff-reviews")).content.decode()
    assert "Reviews held" in html and "league-staff" in html


def test_the_draft_staff_page_saves_the_base_and_draws(client, season, users):
    client.force_login(users["staff"])
    html = client.get(url("staff-draft")).content.decode()
    assert "t1\nt2\nt3" in html  # pre-filled with the file order
    base = "\n".join(f"t{i}" for i in range(16, 0, -1))
    response = client.post(url("staff-draft"), {"action": "base", "base": base}, follow=True)
    assert "Base order saved" in response.content.decode()
    season.refresh_from_db()
    assert season.draft_base[0] == "t16"
    response = client.post(url("staff-draft"), {"action": "base", "base": "t1\nt1"}, follow=True)
    assert "Listed more than once" in response.content.decode()
    response = client.post(url("staff-draft"), {"action": "draw"}, follow=True)
    assert "two or more suspended teams" in response.content.decode()
    Team.objects.filter(code__in=["t3", "t7"]).update(status="suspended")
    response = client.post(url("staff-draft"), {"action": "draw", "seed": "42"}, follow=True)
    assert "Lots drawn with seed 42" in response.content.decode()
    assert DraftLot.objects.get().entrants == ["t7", "t3"]  # base order: t16 … t1


def test_a_refused_base_order_keeps_what_was_typed(client, season, users):
    client.force_login(users["staff"])
    typed = "t16\nt99\nt1"
    response = client.post(url("staff-draft"), {"action": "base", "base": typed})
    assert response.status_code == 400
    html = response.content.decode()
    assert "t99" in html and "t16\nt99\nt1" in html


def test_the_review_banner_counts_the_reaped_players(client, season, users):
    from leagues.drafting import hold_review
    from leagues.services import season_compliance

    hold_review(season, "first_half", users["staff"])
    reaped = [row for row in season_compliance(season)["rows"] if row["reaped"]]
    assert len(reaped) >= 2
    html = client.get(url("compliance")).content.decode()
    assert f"End of the first half: {len(reaped)} players reaped." in html
