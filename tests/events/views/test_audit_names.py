"""Issue 14: the event's audit page names the players an entry stores by registration
id or player code (seatings, swaps, the toss, the final's ritual), in a bounded number
of queries (``events.audit.player_names``, ``events/templatetags/audit.py``)."""

import re

from django.urls import reverse

from events import services
from events.audit import PlayerNames
from events.templatetags.audit import audit_pairs
from tests.conftest import add_players, play_round


def test_player_values_in_names():
    names = PlayerNames(by_id={7: "Ana", 8: "Bruno"}, by_code={"p1": "Ana", "p2": "Bruno"})
    assert audit_pairs({"tables": [[7, 8], [9]], "seed": 3}, names) == [
        ("tables", "table 1: Ana, Bruno; table 2: 9"),
        ("seed", "3"),
    ]
    assert audit_pairs({"row": [8, 7], "players": [7, 8]}, names) == [
        ("row", "Bruno, Ana"),
        ("players", "Ana, Bruno"),
    ]
    assert audit_pairs({"toss": ["p2", "p1"], "finalists": ["p1"]}, names) == [
        ("toss", "Bruno, Ana"),
        ("finalists", "Ana"),
    ]
    # Without names (the league's audit page) the values stay as stored; ids the
    # application keeps for itself are never shown.
    assert audit_pairs({"row": [8, 7]}, "") == [("row", "8, 7")]
    assert audit_pairs({"role_id": 4, "role": "judge"}, names) == [("role", "Judge")]


def _audit_page(client, event):
    return client.get(reverse("manage:audit", kwargs={"slug": event.slug}))


def test_the_audit_page_names_players_not_ids(client, event, staff):
    regs = add_players(event, 8)
    rnd = services.seat_next_round(event, seed=1)
    a = rnd.tables.get(number=1).seats.get(position=1).registration
    b = rnd.tables.get(number=2).seats.get(position=1).registration
    services.swap_seats(rnd, a.pk, b.pk, staff["organiser"])
    client.force_login(staff["organiser"])
    page = _audit_page(client, event).content.decode()
    swap = re.search(r"Round: swap.*?</tr>", page, re.S).group(0)
    assert f"{a.person.name}, {b.person.name}" in swap
    seated = re.search(r"Round: seat.*?</tr>", page, re.S).group(0)
    for reg in regs:
        assert reg.person.name in seated
    listed = re.findall(r"table \d+: ([^;<]+)", seated)
    assert len(listed) == 2
    ids = {str(r.pk) for r in regs}
    for row in listed:
        assert not {x.strip() for x in row.split(",")} & ids, row


def test_the_audit_page_costs_the_same_queries_for_more_entries(
    client, event, staff, django_assert_max_num_queries
):
    client.force_login(staff["organiser"])
    add_players(event, 8)
    services.seat_next_round(event, seed=1)
    with django_assert_max_num_queries(12) as small:
        assert _audit_page(client, event).status_code == 200
    for number in (1, 2):
        play_round(event.rounds.get(number=number))
        services.seat_next_round(event, seed=number + 1)
    add_players(event, 12)
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = _audit_page(client, event)
    assert page.status_code == 200 and page.content.decode().count("Result: save") >= 4
