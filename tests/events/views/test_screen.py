"""The big-screen standings view (events/views_screen.py): what it shows, that it shows
only what is published whoever looks (the projector's laptop is often an organiser's), that
it is served from the public page cache and refreshed by a change, and bounded queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import services
from events import swiss_services as ss
from events.interchange import import_event
from events.models import Event
from tests.conftest import add_players, play_round
from tests.events.services.test_interchange import make_file
from tests.events.services.test_swiss_services import make_event, play_swiss


def screen(event, live=False):
    name = "events:public-standings-screen-live" if live else "events:public-standings-screen"
    return reverse(name, kwargs={"slug": event.slug})


def test_published_standings_on_the_screen(client, played_event):
    event = played_event
    services.set_standings_published(event, True)
    services.set_seating_published(event.rounds.get(number=3), True)
    page = client.get(screen(event))
    assert page.status_code == 200
    html = page.content.decode()
    assert "screen-grid" in html and html.count("<tr") == 12 + 2  # 2 columns (8 + 4)
    # the live fragment is polled every 30 s and is the same markup, without the frame
    assert 'hx-trigger="every 30s"' in html and screen(event, live=True) in html
    live = client.get(screen(event, live=True)).content.decode()
    assert "<html" not in live and "screen-grid" in live and live.strip() in html
    # the current round (published seating, every result in): no seating shown
    assert "Round 3" in live and "being played" not in live and "screen-table" not in live
    # linked from the public standings page
    standings = client.get(reverse("events:public-standings", kwargs={"slug": event.slug}))
    assert screen(event) in standings.content.decode()


def test_linked_from_the_organisers_dashboard(client, played_event, staff):
    client.force_login(staff["organiser"])
    dashboard = client.get(reverse("manage:dashboard", kwargs={"slug": played_event.slug}))
    assert screen(played_event) in dashboard.content.decode()


def test_seating_of_the_round_being_played(client, event):
    add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    html = client.get(screen(event)).content.decode()
    # unpublished seating and standings: nothing but the waiting note
    assert "screen-table" not in html and "Round 1" not in html
    assert "has not published the standings" in html
    services.set_seating_published(rnd, True)
    live = client.get(screen(event, live=True)).content.decode()
    assert "Round 1" in live and "being played" in live and live.count('class="screen-table"') == 2
    name = rnd.seats.select_related("registration__person").first().registration.person.name
    assert name in live
    # each name after its seat number (the order at a VEKN table matters)
    assert live.count('<span class="screen-seat">') == 8
    assert '<li><span class="screen-seat">1</span><span class="screen-name">' in live
    assert "screen-grid" not in live  # standings still unpublished
    play_round(Event.objects.get(pk=event.pk).rounds.get(number=1))
    live = client.get(screen(event, live=True)).content.decode()
    assert "being played" not in live and "screen-table" not in live


@pytest.mark.parametrize("role", ["organiser", "judge"])
def test_unpublished_never_reaches_the_screen_even_for_staff(client, played_event, staff, role):
    """The standings page shows staff the unpublished standings; the screen never does."""
    event = played_event
    anonymous = client.get(screen(event)).content.decode()
    assert "has not published the standings" in anonymous and "screen-grid" not in anonymous
    not_published = client.get(reverse("events:public-standings", kwargs={"slug": event.slug}))
    assert "has not published the standings" in not_published.content.decode()
    client.force_login(staff[role])
    page = client.get(screen(event)).content.decode()
    assert "screen-grid" not in page and "has not published the standings" in page
    assert "screen-grid" not in client.get(screen(event, live=True)).content.decode()
    # unpublishing again after a publication takes the standings off the screen
    services.set_standings_published(event, True)
    assert "screen-grid" in client.get(screen(event, live=True)).content.decode()
    services.set_standings_published(event, False)
    assert "screen-grid" not in client.get(screen(event, live=True)).content.decode()


def test_served_from_the_public_cache_and_refreshed_by_a_change(client, played_event):
    event = played_event
    services.set_standings_published(event, True)
    first = client.get(screen(event, live=True)).content
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(screen(event, live=True)).content
        page = client.get(screen(event)).content
    assert again == first and first.decode().strip() in page.decode()
    # only the event's own row is read (for its public_version)
    assert [q for q in ctx.captured_queries if "events_event" not in q["sql"]] == []
    assert "Round 3" not in first.decode()
    services.set_seating_published(event.rounds.get(number=3), True)
    live = client.get(screen(event, live=True)).content.decode()
    assert "Round 3" in live and "being played" not in live


def test_the_language_is_part_of_the_cache_key(client, played_event):
    services.set_standings_published(played_event, True)
    english = client.get(screen(played_event, live=True), HTTP_ACCEPT_LANGUAGE="en").content
    spanish = client.get(screen(played_event, live=True), HTTP_ACCEPT_LANGUAGE="es").content
    assert b"Standings" in english and b"Clasificaci" in spanish


def test_myl_event_on_the_screen(client, db):
    event, _ = make_event(8, preliminary_rounds=3, top_cut=4)
    play_swiss(event)
    assert "screen-grid" not in client.get(screen(event)).content.decode()
    Event.objects.filter(pk=event.pk).update(standings_published=True)
    ss.pair_top_cut(event)
    html = client.get(screen(event)).content.decode()
    assert "OMW %" in html and html.count("<tr") == 8 + 1
    assert "Pairings" not in html  # the semi-finals' pairings are not published


@pytest.mark.parametrize("players", [25, 300])
def test_bounded_queries(client, db, players, django_assert_max_num_queries):
    event = import_event(
        make_file(players=players, rounds=3, final=True, slug=f"screen-{players}"), publish=True
    )
    # built: 8 queries whatever the size (measured); then from the cache: only the event
    with django_assert_max_num_queries(10):
        html = client.get(screen(event)).content.decode()
    # 20 players a page in 2 columns (25: a second page of 5 in one column; 300: 15 pages,
    # the screen shows them in turn)
    pages, grids = {25: (2, 2 + 1), 300: (15, 15 * 2)}[players]
    assert html.count('<table class="screen-grid"') == grids
    assert html.count("<tr") == players + grids
    assert html.count("data-screen-page=") == pages
    with django_assert_max_num_queries(1):
        assert client.get(screen(event, live=True)).status_code == 200
    with django_assert_max_num_queries(1):
        assert client.get(screen(event)).status_code == 200


# --------------------------------------------------------------------------- language, time
def test_the_language_switch_works_on_the_screen_with_csrf_checks(db, played_event):
    """The screen is served from the cache to anonymous visitors: its language switch
    still carries a token valid for this visitor, and switching shows the Spanish screen."""
    import re

    from django.test import Client

    services.set_standings_published(played_event, True)
    other = Client(enforce_csrf_checks=True)
    other.get(screen(played_event))  # someone else fills the cache
    client = Client(enforce_csrf_checks=True)
    page = client.get(screen(played_event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Updates every 30 seconds." in page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    switched = client.post(
        reverse("set_language"),
        {"language": "es", "next": screen(played_event), "csrfmiddlewaretoken": token},
    )
    assert switched.status_code == 302 and switched["Location"] == screen(played_event)
    spanish = client.get(screen(played_event)).content.decode()
    assert '<html lang="es">' in spanish and "Clasificaci" in spanish


def test_event_pages_show_times_in_the_events_time_zone(client, event, staff):
    """An event in Madrid seen by a server set to Santiago: the round's start and end
    times are Madrid's."""
    import datetime as dt

    from events.models import Round

    add_players(event, 8)
    event.time_zone = "Europe/Madrid"
    event.round_minutes = 120
    event.save()
    rnd = services.seat_next_round(event, seed=1)
    # 09:00 UTC = 10:00 in Madrid (CET) = 06:00 in Santiago (summer time, −03)
    Round.objects.filter(pk=rnd.pk).update(started_at=dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC))
    client.force_login(staff["organiser"])
    page = client.get(
        reverse("manage:round", kwargs={"slug": event.slug, "number": 1})
    ).content.decode()
    assert "10:00" in page and "12:00" in page  # start, and end after 120 minutes
    assert "06:00" not in page and "08:00" not in page


# --------------------------------------------------------------------------- leagues
def test_league_table_on_the_screen(client, db, django_assert_max_num_queries):
    from leagues import services as league_services
    from tests.leagues.seasons import small_season

    league_services.import_season(small_season())
    url = reverse("events:competition-screen", kwargs={"slug": "t24-primera-a"})
    live = reverse("events:competition-screen-live", kwargs={"slug": "t24-primera-a"})
    with django_assert_max_num_queries(8):
        html = client.get(url).content.decode()
    assert html.count("<tbody><tr>") == 1 and html.count('<td class="player">') == 4
    assert "Team 1" in html and 'hx-trigger="every 30s"' in html and live in html
    with django_assert_max_num_queries(6):
        fragment = client.get(live).content.decode()
    assert "<html" not in fragment and "Team 1" in fragment
    # linked from the competition page
    page = client.get(reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}))
    assert url in page.content.decode()
    # a group stage: one table per group
    groups = client.get(reverse("events:competition-screen", kwargs={"slug": "t24-champagne"}))
    assert groups.status_code == 200 and "Group" in groups.content.decode()
    # a knockout has no table
    cup = reverse("events:competition-screen", kwargs={"slug": "t24-cup"})
    assert client.get(cup).status_code == 404


# --------------------------------------------------------------------------- pages
def test_a_big_event_is_shown_in_pages(client, db):
    """Everyone, in pages of 2 columns × 10 rows the screen shows in turn (page n/N in the
    heading; the turning is static/js/screen.js, tested in tests/browser/)."""
    import re

    event = import_event(
        make_file(players=100, rounds=3, final=True, slug="screen-100"), publish=True
    )
    html = client.get(screen(event, live=True)).content.decode()
    pages = re.findall(r'data-screen-page="(\d+)"', html)
    assert pages == ["1", "2", "3", "4", "5"]
    assert "page 1/5" in html and "page 5/5" in html
    assert 'data-seconds="12"' in html
    rows = [len(re.findall("<tr", t)) - 1 for t in html.split('<table class="screen-grid"')[1:]]
    assert rows == [10] * 10 and sum(rows) == 100
    # the note column (winner, finalists) only on the page that has a note: the first
    assert html.count('<th scope="col" class="note">') == 2
    assert html.index('<th scope="col" class="note">') < html.index('data-screen-page="2"')
    page = client.get(screen(event)).content.decode()
    assert "/static/js/screen.js" in page and "<script>" not in page


def test_the_seating_of_a_big_round_is_in_pages_too(client, event):
    add_players(event, 100)
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    live = client.get(screen(event, live=True)).content.decode()
    assert live.count('class="screen-table"') == 20  # 20 tables of 5
    assert live.count("data-screen-page=") == 3  # 8 + 8 + 4 tables
    assert "has not published the standings" in live and "screen-grid" not in live
    services.set_standings_published(event, True)
    live = client.get(screen(event, live=True)).content.decode()
    assert live.count("data-screen-page=") == 3 + 5 and "page 8/8" in live


def test_the_publish_button_says_that_standings_follow_each_result(client, event, staff):
    """Publishing standings makes every later result public at once: the organiser is told
    so next to the button, with how to stop it and what approving the results does."""
    from django.urls import reverse

    client.force_login(staff["organiser"])
    url = reverse("manage:standings", kwargs={"slug": event.slug})
    html = client.get(url).content.decode()
    assert 'aria-describedby="publish-note"' in html and 'id="publish-note"' in html
    assert "Once published, the standings follow every result as it is entered" in html
    assert "You can hide them again" in html and "Approving the results" in html
    services.set_standings_published(event, True)
    html = client.get(url).content.decode()
    assert "Published standings follow every result as it is entered" in html
    assert "Hide them to stop that" in html


def test_the_myl_publish_button_says_so_too(client, db):
    from django.urls import reverse

    from events.models import EventRole
    from events.permissions import Role
    from tests.factories import UserFactory

    event, _ = make_event(6)
    organiser = UserFactory(username="myl-organiser")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    html = client.get(reverse("manage:standings", kwargs={"slug": event.slug})).content.decode()
    assert "MP" in html or "OMW" in html  # the Mitos y Leyendas standings page
    assert 'id="publish-note"' in html
    assert "Once published, the standings follow every result as it is entered" in html
