"""Printed pages (issue 14, events/views_print.py): seating by table, "find your seat", the
result slips (VEKN) and match slips (MyL), standings, the incident reports and the printed
DQ report; the QR code of the public page, permissions, bounded queries, both languages."""

import random
import re
import uuid

import pytest
from django.urls import reverse

from events import rulesets
from events import services as event_services
from events import swiss_services as ss
from events.permissions import ROLE_PERMISSIONS, Role
from events.qr import qr_svg
from events.views_print import name_rows, seat_rows, sort_key
from penalties import myl_services, rulebooks
from penalties import services as penalty_services
from tests.config.test_security import POLICY, assert_no_inline_code
from tests.conftest import add_players, play_round
from tests.events.services.test_swiss_services import make_event, play
from tests.factories import EventRoleFactory, UserFactory

HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


@pytest.fixture
def big(event, staff):
    """A VEKN event of 100 players (20 tables) with its first round seated and played."""
    add_players(event, 100)
    rnd = event_services.seat_next_round(event, seed=1)
    play_round(rnd)
    return event, rnd


def staff_pages(event, number=1):
    return [
        url("manage:print", event),
        url("manage:print-seating", event, number=number),
        url("manage:print-names", event, number=number),
        url("manage:print-slips", event, number=number),
        url("manage:print-standings", event),
        url("manage:print-penalties", event),
    ]


# --------------------------------------------------------------------------- the rows
def test_seat_rows_give_each_vekn_seat_its_predator_and_prey(big):
    _, rnd = big
    tables = seat_rows(event_services.round_overview(rnd), pairs_matches=False)
    assert len(tables) == 20
    first = tables[0]["rows"]
    assert [r["position"] for r in first] == list(range(1, len(first) + 1))
    names = [r["name"] for r in first]
    for i, row in enumerate(first):
        assert row["prey"] == names[(i + 1) % len(names)]  # the next seat, round the table
        assert row["predator"] == names[i - 1]


def test_name_rows_are_sorted_by_name_with_a_heading_per_letter(big):
    _, rnd = big
    rows = name_rows(seat_rows(event_services.round_overview(rnd), pairs_matches=False))
    assert len(rows) == 100
    keys = [sort_key(r["name"]) for r in rows]
    assert keys == sorted(keys)
    letters = [r["letter"] for r in rows if r["letter"]]
    assert letters == sorted(set(letters))
    seat = rnd.seats.select_related("registration__person", "table").first()
    row = next(r for r in rows if r["name"] == seat.registration.person.name)
    assert (row["table"], row["seat"]) == (seat.table.number, seat.position)


def test_names_sort_without_case_or_accents():
    assert sort_key("Álvaro") == "alvaro" and sort_key("Ñandú") == "nandu"
    tables = [
        {"table": type("T", (), {"number": n})(), "rows": [{"name": name, "position": 1}]}
        for n, name in enumerate(["Zoe", "émile", "Álvaro", "bea"], start=1)
    ]
    rows = name_rows(tables)
    assert [r["name"] for r in rows] == ["Álvaro", "bea", "émile", "Zoe"]
    assert [r["letter"] for r in rows] == ["A", "B", "E", "Z"]


def test_the_qr_code_is_inline_svg_without_style_or_data_uri():
    svg = qr_svg("https://example.org/events/open/", title="Public <page>")
    assert svg.startswith("<svg") and 'class="qr"' in svg
    assert "Public &lt;page&gt;" in svg
    assert "style" not in svg and "data:" not in svg and "<script" not in svg
    with pytest.raises(ValueError):
        qr_svg("")
    with pytest.raises(ValueError):
        qr_svg("https://x.org/" + "a" * 600)


# --------------------------------------------------------------------------- VEKN pages
def test_vekn_print_pages_with_twenty_tables(client, big, staff, django_assert_max_num_queries):
    event, rnd = big
    client.force_login(staff["scorekeeper"])
    for page in staff_pages(event):
        with django_assert_max_num_queries(12):
            response = client.get(page)
        assert response.status_code == 200, page
        html = response.content.decode()
        assert response["Content-Security-Policy"] == POLICY
        assert_no_inline_code(html, page)
    seating = client.get(url("manage:print-seating", event, number=1)).content.decode()
    assert seating.count('class="print-card table-print"') == 20
    assert '<svg viewBox="0 0' in seating and 'class="qr"' in seating
    assert "/events/open-2026/seating/" in seating  # the QR's address, written under it
    assert "css/print.css" in seating and "css/app.css" not in seating
    slips = client.get(url("manage:print-slips", event, number=1)).content.decode()
    assert slips.count('class="print-card slip"') == 20
    assert slips.count('<td class="box"></td><td class="box"></td><td class="sign">') == 100
    names = client.get(url("manage:print-names", event, number=1)).content.decode()
    assert names.count('class="name-row"') == 100
    standings = client.get(url("manage:print-standings", event)).content.decode()
    assert standings.count("<tr class=") >= 100


def test_print_pages_are_staff_only(client, big, staff):
    event, _ = big
    for page in staff_pages(event):
        client.logout()
        assert client.get(page).status_code == 302, page  # to the sign-in page
        client.force_login(staff["outsider"])
        assert client.get(page).status_code == 404, page
        client.force_login(staff["other_organiser"])
        assert client.get(page).status_code == 404, page
    client.force_login(staff["organiser"])
    assert client.get(url("manage:print-slips", event, number=9)).status_code == 404


def test_the_round_page_and_the_staff_tabs_link_to_print(client, big, staff):
    event, _ = big
    client.force_login(staff["judge"])
    html = client.get(url("manage:round", event, number=1)).content.decode()
    assert f'href="{url("manage:print", event)}#round-1"' in html
    index = client.get(url("manage:print", event)).content.decode()
    for name in ("manage:print-seating", "manage:print-names", "manage:print-slips"):
        assert url(name, event, number=1) in index


def test_public_seating_print_follows_the_public_seating(client, big, staff):
    event, rnd = big
    page = url("events:public-seating-print", event)
    response = client.get(page)
    assert response.status_code == 200
    assert b"print-card table-print" not in response.content
    assert b"name-row" not in response.content  # not published: nothing shown
    event_services.set_seating_published(rnd, True)
    html = client.get(page).content.decode()
    assert html.count('class="print-card table-print"') == 20
    assert html.count('class="name-row"') == 100
    assert 'class="qr"' in html
    assert page in client.get(url("events:public-seating", event)).content.decode()
    # Staff see an unpublished round, marked as such.
    event_services.set_seating_published(rnd, False)
    client.force_login(staff["judge"])
    assert "Not published" in client.get(page).content.decode()


def test_public_seating_print_runs_bounded_queries(client, big, django_assert_max_num_queries):
    event, rnd = big
    event_services.set_seating_published(rnd, True)
    with django_assert_max_num_queries(6):
        response = client.get(url("events:public-seating-print", event))
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == POLICY
    assert_no_inline_code(response.content.decode(), "public seating print")


def test_print_pages_in_spanish(client, big, staff):
    event, _ = big
    client.force_login(staff["organiser"])
    client.cookies["django_language"] = "es"
    html = client.get(url("manage:print-seating", event, number=1)).content.decode()
    assert '<html lang="es">' in html
    assert "Mesa 1" in html


# --------------------------------------------------------------------------- penalties
@pytest.fixture
def disqualified(big):
    event, rnd = big
    reg = rnd.seats.order_by("table__number", "position").first().registration
    penalty = penalty_services.log_penalty(
        event,
        reg,
        "3.3",
        {},
        client_id=uuid.uuid4(),
        perms=HEAD,
        level="disqualification",
        deviation_reason="Punched",
        description="Threw the cards",
    ).penalty
    penalty_services.write_dq_report(
        penalty, what_happened="Punched the opponent", statements="", witnesses="", intentional=True
    )
    for _ in range(5):
        penalty_services.log_penalty(
            event, reg, "3.6", {}, client_id=uuid.uuid4(), perms=HEAD, again=True
        )
    return event, penalty


def test_incident_reports_one_sheet_each_with_the_infraction_name(
    client, disqualified, staff, django_assert_max_num_queries
):
    event, penalty = disqualified
    client.force_login(staff["judge"])
    with django_assert_max_num_queries(10):
        html = client.get(url("manage:print-penalties", event)).content.decode()
    assert html.count('class="print-card report') == 6
    assert html.count("new-sheet") == 5
    assert "Punched the opponent" in html
    assert html.count('class="signatures"') == 6
    detail = client.get(url("manage:penalty", event, pk=penalty.pk)).content.decode()
    assert f"{url('manage:print-penalties', event)}?penalty={penalty.pk}" in detail
    one = client.get(url("manage:print-penalties", event) + f"?penalty={penalty.pk}")
    assert one.content.decode().count('class="print-card report') == 1
    bad = client.get(url("manage:print-penalties", event) + "?penalty=abc")
    assert bad.status_code == 200 and b'class="print-card report' not in bad.content


def test_the_printed_dq_report_names_the_infraction_and_has_signature_lines(
    client, disqualified, staff
):
    event, penalty = disqualified
    client.force_login(staff["judge"])
    html = client.get(url("manage:dq-report", event, pk=penalty.pk) + "?print=1").content.decode()
    title = re.search(r"3\.3 ([^·<]+) ·", html)
    assert title and title.group(1).strip()  # the infraction's name after its code
    assert 'class="signatures"' in html and "Player" in html


# --------------------------------------------------------------------------- MyL
@pytest.fixture
def myl_round(db):
    event, _ = make_event(41, preliminary_rounds=3)
    judge = UserFactory(username="myl-print-judge")
    EventRoleFactory(event=event, user=judge, role=Role.JUDGE)
    rnd = ss.pair_next_round(event, seed=1)
    return event, rnd, judge


def test_myl_match_slips_and_standings(client, myl_round, django_assert_max_num_queries):
    event, rnd, judge = myl_round
    assert rulesets.of(event).pairs_matches
    client.force_login(judge)
    with django_assert_max_num_queries(12):
        slips = client.get(url("manage:print-slips", event, number=1))
    html = slips.content.decode()
    assert slips.status_code == 200
    assert html.count('class="print-card slip match-slip"') == 20  # 41 players: one bye
    assert "Bye" in html and "Games won" in html and "VP" not in html
    seating = client.get(url("manage:print-seating", event, number=1)).content.decode()
    assert "Prey" not in seating and seating.count("table-print") == 21
    play(rnd, random.Random(1))
    with django_assert_max_num_queries(14):
        standings = client.get(url("manage:print-standings", event))
    assert standings.status_code == 200
    assert b"myl-standings" in standings.content
    html = client.get(url("manage:round", event, number=1)).content.decode()
    assert f"{url('manage:print', event)}#round-1" in html


def test_myl_incident_reports_in_the_conduct_rules_words(client, myl_round):
    event, rnd, judge = myl_round
    reg = rnd.seats.order_by("table__number", "position").first().registration
    penalty = myl_services.log_penalty(
        event, reg, "2.1", {}, client_id=uuid.uuid4(), perms=HEAD, again=True
    ).penalty
    client.force_login(judge)
    html = client.get(url("manage:print-penalties", event)).content.decode()
    assert html.count('class="print-card report') == 1
    title = rulebooks.infraction_title("myl", "2.1")
    assert title and f"2.1 {title}" in html
    assert rulebooks.level_words("myl", penalty.level) in html
    detail = client.get(url("manage:penalty", event, pk=penalty.pk)).content.decode()
    assert f"{url('manage:print-penalties', event)}?penalty={penalty.pk}" in detail
