"""The Champagne League draw page (leagues/finals.py champagne_draw, ANFPES T24 §2.2):
pots from pasted tables or this season's tables, a seeded draw that anyone can re-run or a
live draw typed by hand, and the group stage it creates."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues import cups
from leagues.models import Competition, Entry, Match, SeasonRole
from leagues.rules import cups as cup_rules
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.views.test_finals_stages import two_divisions

pytestmark = pytest.mark.django_db

A = "\n".join(f"t{i}" for i in range(1, 17))
B = "\n".join(f"t{i}" for i in range(17, 33))


@pytest.fixture
def season(db):
    season = import_season(two_divisions())
    staff = UserFactory(username="staff")
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    return {"season": season, "staff": staff, "tribunal": tribunal}


def url(slug="t24"):
    return reverse("leagues:staff-champagne", kwargs={"slug": slug})


def nothing_saved():
    return not Competition.objects.filter(kind="groups").exists() and not (
        AuditLog.objects.filter(action=cups.CHAMPAGNE_DRAW).exists()
    )


def test_a_seeded_draw_from_pasted_tables(season):
    competition, draw = cups.champagne_draw(
        season["season"],
        season["staff"],
        base="pasted",
        primera_a=A,
        primera_b=B,
        method="seed",
        seed="anfpes-2026",
    )
    assert (competition.slug, competition.kind, competition.legs) == (
        "t24-champagne",
        "groups",
        2,
    )
    # Pot 1 = A 1–8, pot 2 = A 9–16, pot 3 = B 1–8, pot 4 = B 9–16; one per pot per group.
    assert draw.pots[0] == tuple(f"t{i}" for i in range(1, 9))
    assert draw.pots[3] == tuple(f"t{i}" for i in range(25, 33))
    assert list(draw.groups) == list("ABCDEFGH")
    for members in draw.groups.values():
        assert [draw.pots.index(next(p for p in draw.pots if t in p)) for t in members] == [
            0,
            1,
            2,
            3,
        ]
    # Anyone can re-run it from the recorded seed.
    assert draw.verify()
    again = cup_rules.draw_groups(draw.pots, "anfpes-2026")
    assert again.order == draw.order
    record = cups.champagne_draws(season["season"])[0]
    assert record["seed"] == "anfpes-2026" and record["method"] == "seed"
    assert [(o["team"], o["group"]) for o in record["order"]] == list(draw.order)
    # Entries in draw order with their groups; a double round robin per group (12 each).
    entries = list(Entry.objects.filter(competition=competition).order_by("position"))
    assert [(e.team.code, e.group) for e in entries] == list(draw.order)
    matches = Match.objects.filter(competition=competition)
    assert matches.count() == 8 * 12
    for group, members in draw.groups.items():
        rows = matches.filter(group=group).select_related("home", "away")
        assert rows.count() == 12
        assert {m.home.code for m in rows} | {m.away.code for m in rows} == set(members)
    assert matches.filter(code="a1").exists()
    # The group stage has a table per group.
    from leagues.services import competition_table

    assert set(competition_table(competition)["groups"]) == set("ABCDEFGH")


def test_a_fresh_seed_is_recorded_and_newcomers_fill_pot_four(season):
    from leagues.models import Team

    s = season["season"]
    Team.objects.filter(season=s, code="t32").update(status="expelled")
    Team.objects.create(season=s, code="t33", name="Team 33", handle="user33")
    competition, draw = cups.champagne_draw(
        s, season["staff"], base="pasted", primera_a=A, primera_b=B, newcomers="t33", method="seed"
    )
    # The expelled team leaves, the newcomer closes pot 4 ("la lista correrá").
    assert draw.pots[3] == (*(f"t{i}" for i in range(25, 32)), "t33")
    assert str(draw.seed).isdigit()
    record = cups.champagne_draws(s)[0]
    assert record["seed"] == draw.seed and record["origin"]["t33"] == "newcomer"
    assert cup_rules.draw_groups(draw.pots, record["seed"]).order == draw.order
    assert competition.entries.count() == 32


def test_bad_input_is_refused_and_nothing_saved(season):
    staff, s = season["staff"], season["season"]
    cases = [
        dict(base="pasted", primera_a=A + "\nt99", primera_b=B, method="seed"),  # unknown id
        dict(base="pasted", primera_a=A, primera_b=B.replace("t32", ""), method="seed"),  # 31
        dict(base="pasted", primera_a=A + "\nt1", primera_b=B, method="seed"),  # twice
        dict(base="nope", method="seed"),
        dict(base="pasted", primera_a=A, primera_b=B, method="guess"),
        dict(base="pasted", primera_a=A, primera_b=B, method="manual", order=[("t1", "A")]),
    ]
    for kwargs in cases:
        with pytest.raises(UserError):
            cups.champagne_draw(s, staff, **kwargs)
    assert nothing_saved()
    Competition.objects.create(season=s, slug="t24-champagne", kind="knockout", name="x")
    with pytest.raises(UserError, match="taken"):
        cups.champagne_draw(s, staff, base="pasted", primera_a=A, primera_b=B, method="seed")
    assert not AuditLog.objects.filter(action=cups.CHAMPAGNE_DRAW).exists()


def test_a_live_draw_typed_by_hand(season):
    pots = cup_rules.champagne_pots(
        [f"t{i}" for i in range(1, 17)], [f"t{i}" for i in range(17, 33)]
    ).pots
    order = [(team, "ABCDEFGH"[i]) for pot in pots for i, team in enumerate(reversed(pot))]
    text = "\n".join(f"{team} {group.lower()}" for team, group in order)
    competition, draw = cups.champagne_draw(
        season["season"],
        season["staff"],
        base="tables",  # the tables as they stand: t1…t16 and t17…t32 in file order
        method="manual",
        order=cups.parse_draw_order(text),
        slug="t24-cl",
        name="Champagne League 2026",
        legs=1,
    )
    assert draw.method == "manual" and draw.seed is None
    assert draw.groups["A"] == ("t8", "t16", "t24", "t32")
    assert competition.matches.count() == 8 * 6
    # Two teams of one pot in a group: refused, nothing saved.
    bad = order[:]
    bad[1] = (bad[1][0], "A")
    with pytest.raises(UserError, match="pot"):
        cups.champagne_draw(
            season["season"], season["staff"], base="tables", method="manual", order=bad
        )
    with pytest.raises(UserError, match="line 1"):
        cups.parse_draw_order("t1")
    assert Competition.objects.filter(kind="groups").count() == 1


def test_the_service_checks_the_role(season):
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            cups.champagne_draw(
                season["season"], user, base="pasted", primera_a=A, primera_b=B, method="seed"
            )
    assert nothing_saved()


def test_the_page_and_its_permissions(client, season, django_assert_max_num_queries):
    data = {
        "base": "pasted",
        "primera_a": A,
        "primera_b": B,
        "method": "seed",
        "seed": "42",
        "legs": "2",
    }
    assert client.get(url()).status_code == 302
    assert client.post(url(), data).status_code == 302
    assert nothing_saved()
    client.force_login(UserFactory(username="player"))
    assert client.get(url()).status_code == 404
    assert client.post(url(), data).status_code == 404
    client.force_login(season["tribunal"])
    assert client.get(url()).status_code == 403
    assert client.post(url(), data).status_code == 403
    assert nothing_saved()
    client.force_login(season["staff"])
    with django_assert_max_num_queries(10):
        page = client.get(url())
    assert page.status_code == 200 and "Champagne" in page.content.decode()
    # A bad start date: the form comes back with what was typed, nothing saved.
    response = client.post(url(), data | {"start": "tomorrow"})
    assert response.status_code == 400 and "t16" in response.content.decode()
    assert nothing_saved()
    response = client.post(url(), data | {"start": "2026-09-01"})
    assert response.status_code == 302
    assert response["Location"] == reverse("leagues:competition", kwargs={"slug": "t24-champagne"})
    competition = Competition.objects.get(slug="t24-champagne")
    assert competition.matches.exclude(final_deadline=None).count() == 96
    with django_assert_max_num_queries(10):
        page = client.get(url()).content.decode()
    assert "seed 42" in page and "Team 1" in page
    # The competition page shows the eight group tables.
    html = client.get(response["Location"]).content.decode()
    assert "Group H" in html
