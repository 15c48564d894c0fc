"""Bookings reported with a result (leagues.reporting, ReportForm, the match page): kept
with the report, they become the match's Card rows when the result is accepted, audited;
bad input is refused with a clear error and nothing is saved."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from events.models import AuditLog
from leagues import reporting, services
from leagues.forms import ReportForm, parse_bookings
from leagues.models import Card, Match, ResultReport, SeasonRole
from tests.factories import UserFactory
from tests.leagues.seasons import small_season
from tests.leagues.views.test_reporting import png

SANTIAGO = ZoneInfo("America/Santiago")


@pytest.fixture
def league(db):
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    data = small_season()
    # A scheduled cup final between t1 (home, user1) and t2 (away, user2).
    data["competitions"][2]["matches"].append(
        {"id": "k4", "round": 2, "home": "t1", "away": "t2", "tie": "f2", "leg": 1}
    )
    season = services.import_season(data)
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    match = Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug="t24-cup", code="k4"
    )
    return {
        "season": season,
        "match": match,
        "home": users["user1"],
        "away": users["user2"],
        "staff": staff,
    }


def report(league, cards, user=None):
    return reporting.report_result(
        league["match"],
        user or league["home"],
        home_goals=2,
        away_goals=1,
        posted_at=timezone.now() - timedelta(minutes=20),
        screenshot=png(),
        cards=cards,
    )


def match_cards(league):
    return sorted(
        (c.team.code, c.footballer, c.card)
        for c in Card.objects.filter(match=league["match"]).select_related("team")
    )


BOOKINGS = [
    {"team": "home", "footballer": "J. Doe", "card": "yellow"},
    {"team": "Team 2", "footballer": "R.  Red", "card": "red"},
    {"team": "t1", "footballer": "J. Doe", "card": "yellow"},
]


# --------------------------------------------------------------------------- parsing
def test_one_booking_per_line():
    text = "home; J. Doe; yellow\n\n Visita ;A. Other; ROJA \nTeam 1; N. Surname; amarilla\n"
    assert parse_bookings(text) == [
        {"team": "home", "footballer": "J. Doe", "card": "yellow"},
        {"team": "Visita", "footballer": "A. Other", "card": "red"},
        {"team": "Team 1", "footballer": "N. Surname", "card": "yellow"},
    ]
    assert parse_bookings("") == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("home J. Doe yellow", "Line 1"),
        ("home; J. Doe; yellow\nhome; ; red", "Line 2"),
        ("home; J. Doe; blue", "must be yellow or red"),
        ("\n".join(["home; X; yellow"] * 41), "At most 40"),
    ],
)
def test_bad_lines_are_named(text, message):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as exc:
        parse_bookings(text)
    assert message in " ".join(exc.value.messages)


# --------------------------------------------------------------------------- services
def test_bookings_wait_with_the_report_and_become_cards_on_confirmation(league):
    r = report(league, BOOKINGS)
    assert r.cards == [
        {"team": "t1", "footballer": "J. Doe", "card": "yellow"},
        {"team": "t2", "footballer": "R. Red", "card": "red"},
        {"team": "t1", "footballer": "J. Doe", "card": "yellow"},
    ]
    assert not Card.objects.filter(match=league["match"]).exists()
    assert AuditLog.objects.get(action="league.result_reported").after["cards"] == r.cards
    reporting.confirm_report(r, league["away"])
    assert match_cards(league) == [
        ("t1", "J. Doe", "yellow"),
        ("t1", "J. Doe", "yellow"),
        ("t2", "R. Red", "red"),
    ]
    entry = AuditLog.objects.get(action="league.result_confirmed")
    assert entry.before["cards"] == [] and len(entry.after["cards"]) == 3


def test_reported_cards_feed_the_suspensions(league, client):
    r = report(league, BOOKINGS)
    reporting.confirm_report(r, league["away"])
    doc = client.get(reverse("api-season-suspensions", args=["t24"])).json()
    assert {(s["team"], s["footballer"], s["cause"]) for s in doc["suspensions"]} == {
        ("t1", "J. Doe", "second_yellow"),
        ("t2", "R. Red", "red"),
    }


def test_staff_accept_or_amend_with_the_bookings(league):
    r = report(league, BOOKINGS[:1])
    reporting.resolve_report(r, league["staff"], decision="accept")
    assert match_cards(league) == [("t1", "J. Doe", "yellow")]
    assert AuditLog.objects.get(action="league.report_accept").after["cards"] == r.cards


def test_staff_amend_may_replace_the_bookings(league):
    r = report(league, BOOKINGS)
    reporting.resolve_report(
        r,
        league["staff"],
        decision="amend",
        reason="one yellow only",
        home_goals=2,
        away_goals=2,
        cards=[{"team": "away", "footballer": "R. Red", "card": "yellow"}],
    )
    assert match_cards(league) == [("t2", "R. Red", "yellow")]
    entry = AuditLog.objects.get(action="league.report_amend")
    assert entry.after["cards"] == [{"team": "t2", "footballer": "R. Red", "card": "yellow"}]


def test_a_rejected_report_books_nobody(league):
    r = report(league, BOOKINGS)
    reporting.resolve_report(r, league["staff"], decision="reject", reason="wrong match")
    assert not Card.objects.filter(match=league["match"]).exists()


@pytest.mark.parametrize(
    "cards, message",
    [
        ([{"team": "t3", "footballer": "X", "card": "yellow"}], "the team must be home, away"),
        ([{"team": "home", "footballer": " ", "card": "yellow"}], "footballer's name"),
        ([{"team": "home", "footballer": "X", "card": "blue"}], "yellow or red"),
        ([{"team": "home", "footballer": "X", "card": "yellow"}] * 3, "cannot get these cards"),
        (
            [
                {"team": "home", "footballer": "X", "card": "red"},
                {"team": "t1", "footballer": "x", "card": "red"},
            ],
            "cannot get these cards",
        ),
        (  # one footballer however typed (accents, case, spaces), as the rules count him
            [
                {"team": "home", "footballer": "K. Dós", "card": "yellow"},
                {"team": "home", "footballer": "k.  dos", "card": "yellow"},
                {"team": "home", "footballer": "K. DOS", "card": "yellow"},
            ],
            "cannot get these cards",
        ),
    ],
)
def test_bad_bookings_are_refused_and_nothing_is_saved(league, cards, message):
    with pytest.raises(UserError) as exc:
        report(league, cards)
    assert message in str(exc.value)
    assert not ResultReport.objects.exists()
    assert not AuditLog.objects.filter(action="league.result_reported").exists()


# --------------------------------------------------------------------------- pages
def match_url(league, name="leagues:match", **extra):
    m = league["match"]
    return reverse(name, kwargs={"slug": m.competition.slug, "code": m.code, **extra})


def form_data(cards):
    local = timezone.localtime(timezone.now() - timedelta(minutes=10), SANTIAGO)
    return {
        "home_goals": "1",
        "away_goals": "0",
        "posted_at": local.strftime("%Y-%m-%dT%H:%M"),
        "screenshot": png(),
        "cards": cards,
    }


def test_bookings_through_the_match_page(client, league):
    client.force_login(league["home"])
    page = client.get(match_url(league)).content.decode()
    assert 'name="cards"' in page and "One booking per line" in page
    response = client.post(
        match_url(league, "leagues:match-report"),
        form_data("home; J. Doe; yellow\naway; R. Red; red"),
    )
    assert response.status_code == 302
    r = ResultReport.objects.get()
    assert [c["team"] for c in r.cards] == ["t1", "t2"]
    client.force_login(league["away"])
    page = client.get(match_url(league)).content.decode()
    assert "J. Doe" in page and "R. Red" in page
    client.post(match_url(league, "leagues:report-confirm", pk=r.pk))
    assert match_cards(league) == [("t1", "J. Doe", "yellow"), ("t2", "R. Red", "red")]
    # Accepted bookings are public with the result.
    client.logout()
    assert "R. Red" in client.get(match_url(league)).content.decode()


@pytest.mark.parametrize(
    "text, message",
    [
        ("home, J. Doe, yellow", "Line 1"),
        ("home; J. Doe; green", "must be yellow or red"),
        ("Team 9; J. Doe; yellow", "the team must be home, away"),
    ],
)
def test_bad_bookings_on_the_page_keep_the_form(client, league, text, message):
    client.force_login(league["home"])
    response = client.post(match_url(league, "leagues:match-report"), form_data(text))
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert text in html  # what was typed is kept
    assert not ResultReport.objects.exists()


def test_the_form_without_bookings_is_unchanged():
    form = ReportForm(
        {"home_goals": "1", "away_goals": "0", "posted_at": "2026-03-02T21:10"},
        {"screenshot": png()},
        zone="America/Santiago",
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["cards"] == []


def test_the_stream_link_comes_with_the_report_and_counts_the_final_phase_match(db):
    """A final-phase (knockout) match reported through the app with its broadcast link
    counts (ANFPES T24 §1.4); the link becomes the match's when the result is accepted."""
    from datetime import timedelta

    from django.utils import timezone

    from leagues import reporting
    from leagues.models import Match
    from leagues.services import import_season
    from tests.factories import UserFactory
    from tests.leagues.seasons import small_season
    from tests.leagues.views.test_reporting import png

    home, away = UserFactory(username="user1"), UserFactory(username="user2")
    data = small_season()
    cup = data["competitions"][2]
    cup["matches"] = [{"id": "k1", "round": 1, "home": "t1", "away": "t2", "tie": "f1", "leg": 1}]
    import_season(data)
    match = Match.objects.get(competition__slug="t24-cup", code="k1")
    report = reporting.report_result(
        match,
        home,
        home_goals=1,
        away_goals=0,
        posted_at=timezone.now() - timedelta(minutes=3),
        screenshot=png(),
        stream_url="https://twitch.tv/anfpes/v/123",
    )
    match.refresh_from_db()
    assert match.stream_url == ""  # not before the opponent confirms
    reporting.confirm_report(report, away)
    match.refresh_from_db()
    assert (match.status, match.stream_url) == ("played", "https://twitch.tv/anfpes/v/123")
