"""Pages and API of Mitos y Leyendas events: the creation form, staff pages (pairing,
result entry, top cut), the player's own match, public standings and the JSON document,
permissions per role and bounded queries."""

import random

import pytest
from django.urls import reverse

from events import swiss_services as ss
from events.models import AuthorityRole, Event, EventRole, Registration, ResultReport
from events.permissions import Role
from tests.events.services.test_swiss_services import make_event, play, play_swiss
from tests.factories import EventFactory, OrganisationRoleFactory, RegistrationFactory, UserFactory


@pytest.fixture
def myl(db):
    event, regs = make_event(8, preliminary_rounds=3, top_cut=4)
    users = {}
    for role in Role:
        user = UserFactory(username=f"myl-{role.value}")
        EventRole.objects.create(event=event, user=user, role=role)
        users[role.value] = user
    # The national Organised Play manager: an authority of the ruleset (issue 12).
    users["op_manager"] = UserFactory(username="myl-op_manager")
    AuthorityRole.objects.create(user=users["op_manager"], ruleset="myl")
    users["outsider"] = UserFactory(username="myl-outsider")
    return {"event": event, "regs": regs, "users": users}


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


# --------------------------------------------------------------------------- creation
def test_create_form_offers_the_myl_preset(client, db):
    org_user = UserFactory(username="boss")
    OrganisationRoleFactory(organisation__slug="store", user=org_user, role=Role.ORGANISER)
    client.force_login(org_user)
    create = reverse("event-create", kwargs={"org_slug": "store"})
    vekn = client.get(create).content.decode()
    assert 'name="final_mode"' in vekn and 'name="best_of"' not in vekn
    page = client.get(create + "?preset=myl-2026").content.decode()
    assert 'name="best_of"' in page and 'name="top_cut"' in page
    assert 'name="final_mode"' not in page
    assert 'value="50"' in page  # the preset's round time
    form = {
        "name": "Copa MyL",
        "slug": "copa-myl",
        "date": "2026-12-05",
        "preset": "myl-2026",
        "format": "constructed",
        "preliminary_rounds": 5,
        "round_minutes": 120,
        "best_of": 1,
        "top_cut": 8,
        "time_zone": "America/Santiago",
    }
    response = client.post(create + "?preset=myl-2026", form)
    assert response.status_code == 200 and "40 to 60 minutes" in response.content.decode()
    form["round_minutes"] = 45
    response = client.post(create + "?preset=myl-2026", form)
    assert response.status_code == 302
    event = Event.objects.get(slug="copa-myl")
    assert (event.ruleset, event.preset, event.best_of, event.top_cut) == ("myl", "myl-2026", 1, 8)
    assert (event.preliminary_rounds, event.round_minutes, event.final_mode) == (5, 45, "none")
    assert event.decklists_required is False


def test_settings_keep_games_per_match_once_paired(client, myl):
    event = myl["event"]
    client.force_login(myl["users"]["organiser"])
    settings_url = url("manage:settings", event)
    page = client.get(settings_url).content.decode()
    assert 'name="best_of"' in page and 'name="final_mode"' not in page
    ss.pair_next_round(event, seed=1)
    data = {
        "name": event.name,
        "date": "2026-11-28",
        "format": "constructed",
        "preliminary_rounds": 3,
        "round_minutes": 50,
        "decklists_required": "",
        "best_of": 1,
        "top_cut": 4,
        "time_zone": "America/Santiago",
    }
    response = client.post(settings_url, data)
    assert "games per match can no longer change" in response.content.decode()
    data["best_of"] = 3
    data["round_minutes"] = 55
    assert client.post(settings_url, data).status_code == 302
    event.refresh_from_db()
    assert event.round_minutes == 55


# --------------------------------------------------------------------------- staff pages
def test_pair_enter_results_and_run_the_top_cut_through_the_pages(client, myl):
    event = myl["event"]
    client.force_login(myl["users"]["head_judge"])
    dashboard = client.get(url("manage:dashboard", event)).content.decode()
    assert "Pair round 1" in dashboard
    response = client.post(url("manage:myl-pair", event))
    assert response.status_code == 302 and response.url == url("manage:round", event, number=1)
    page = client.get(response.url).content.decode()
    assert page.count('class="games"') == 8 and 'inputmode="numeric"' in page
    rnd = event.rounds.get()
    for table in rnd.tables.order_by("number"):
        response = client.post(
            url("manage:myl-match", event, number=1, table_number=table.number),
            {"version": table.version, "games_1": "2", "games_2": "1"},
        )
        assert response.status_code == 302
        assert response.url.endswith(f"#match-{table.number}")
    # An impossible score is refused with the reason, nothing saved.
    table = rnd.tables.get(number=1)
    response = client.post(
        url("manage:myl-match", event, number=1, table_number=1),
        {"version": table.version, "games_1": "3", "games_2": "0"},
    )
    assert response.status_code == 400 and "0 to 2 games" in response.content.decode()
    # A stale form is a conflict.
    response = client.post(
        url("manage:myl-match", event, number=1, table_number=1),
        {"version": table.version - 1, "games_1": "0", "games_2": "2"},
    )
    assert response.status_code == 409
    # The VEKN "table" address of a MyL event shows the match form.
    page = client.get(url("manage:table", event, number=1, table_number=1)).content.decode()
    assert 'name="games_1"' in page
    # Round 2 from the round page, then play the rest.
    assert "Pair round 2" in client.get(url("manage:round", event, number=1)).content.decode()
    client.post(url("manage:myl-pair", event))
    play(event.rounds.get(number=2), random.Random(2))
    client.post(url("manage:round-seat", event))  # the VEKN button pairs MyL events too
    play(event.rounds.get(number=3), random.Random(3))
    assert "Start the top 4" in client.get(url("manage:dashboard", event)).content.decode()
    response = client.post(url("manage:myl-top-cut", event), {"confirm": "1"})
    assert response.url == url("manage:round", event, number=4)
    semi = event.rounds.get(number=4)
    page = client.get(response.url).content.decode()
    assert "Semi-finals" in page
    play(semi, random.Random(0), [(2, 0)])
    client.post(url("manage:myl-top-cut", event))
    final = event.rounds.get(number=5)
    play(final, random.Random(0), [(0, 2)])
    champion = final.tables.get().seats.get(position=2).registration.person.name
    standings = client.get(url("manage:standings", event)).content.decode()
    assert f"{champion} wins the event" in standings and "Champion" in standings
    csv_text = client.get(url("manage:export-csv", event)).content.decode()
    assert csv_text.startswith("rank,player,name,match_points")


def test_impossible_pairing_offers_rematches_to_the_head_judge(client, db):
    event, _ = make_event(4, preliminary_rounds=4)
    judge, head = UserFactory(username="fj"), UserFactory(username="hj")
    EventRole.objects.create(event=event, user=judge, role=Role.JUDGE)
    EventRole.objects.create(event=event, user=head, role=Role.HEAD_JUDGE)
    rng = random.Random(5)
    for number in range(1, 4):
        play(ss.pair_next_round(event, seed=number), rng)
    client.force_login(judge)
    response = client.post(url("manage:myl-pair", event), follow=True)
    assert "rematches allowed" in response.content.decode()
    assert response.redirect_chain[-1][0].endswith("?rematches=1")
    response = client.post(url("manage:myl-pair", event), {"allow_rematches": "1"}, follow=True)
    assert "Only the head judge" in response.content.decode()
    assert not event.rounds.filter(number=4).exists()
    client.force_login(head)
    page = client.get(url("manage:dashboard", event) + "?rematches=1").content.decode()
    assert "Pair with rematches allowed" in page
    response = client.post(url("manage:myl-pair", event), {"allow_rematches": "1"})
    assert response.url == url("manage:round", event, number=4)


def test_byes_are_shown(client, db):
    event, _ = make_event(5)
    staff = UserFactory(username="sk")
    EventRole.objects.create(event=event, user=staff, role=Role.SCOREKEEPER)
    ss.pair_next_round(event, seed=1)
    client.force_login(staff)
    page = client.get(url("manage:round", event, number=1)).content.decode()
    assert "bye: a won match" in page and page.count('class="games"') == 4
    event.rounds.update(seating_published=True)
    client.logout()
    seating = client.get(url("events:public-seating", event)).content.decode()
    assert "bye" in seating and "Find your table" in seating


MYL_URLS = {
    # name: (method, kwargs, statuses for anonymous, outsider, organiser, head judge,
    # judge, scorekeeper, OP manager)
    "manage:dashboard": ("get", {}, [302, 404, 200, 200, 200, 200, 200]),
    "manage:round": ("get", {"number": 1}, [302, 404, 200, 200, 200, 200, 200]),
    "manage:standings": ("get", {}, [302, 404, 200, 200, 200, 200, 200]),
    "manage:myl-match": (
        "get",
        {"number": 1, "table_number": 1},
        [302, 404, 200, 200, 200, 200, 403],
    ),
    "manage:myl-pair": ("post", {}, [302, 404, 302, 302, 302, 403, 403]),
    "manage:myl-repair": ("post", {"number": 1}, [302, 404, 302, 302, 302, 403, 403]),
    "manage:myl-top-cut": ("post", {}, [302, 404, 302, 302, 403, 403, 403]),
    "events:my-match": ("get", {}, [302, 200, 200, 200, 200, 200, 200]),
}
MYL_PERSONAS = [
    "anonymous",
    "outsider",
    "organiser",
    "head_judge",
    "judge",
    "scorekeeper",
    "op_manager",
]


@pytest.mark.parametrize("name", sorted(MYL_URLS))
def test_permissions_per_role_on_a_myl_event(client, myl, name):
    method, kwargs, statuses = MYL_URLS[name]
    ss.pair_next_round(myl["event"], seed=1)
    target = url(name, myl["event"], **kwargs)
    for persona, expected in zip(MYL_PERSONAS, statuses, strict=True):
        client.logout()
        if persona != "anonymous":
            client.force_login(myl["users"][persona])
        response = getattr(client, method)(target)
        assert response.status_code == expected, f"{name} as {persona}"


def test_myl_addresses_do_not_exist_for_vekn_events(client, event, staff):
    client.force_login(staff["organiser"])
    assert client.post(url("manage:myl-pair", event)).status_code == 404
    assert client.post(url("manage:myl-top-cut", event)).status_code == 404
    assert client.get(url("events:my-match", event)).status_code == 404


def test_myl_event_has_no_vekn_report_nor_sheet_check(client, myl):
    event = myl["event"]
    ss.pair_next_round(event, seed=1)
    client.force_login(myl["users"]["organiser"])
    assert client.get(url("manage:export-archondata", event)).status_code == 404
    check = url("manage:table-check", event, number=1, table_number=1)
    assert client.post(check).status_code == 404
    assert client.get(url("manage:final", event)).status_code == 404


def test_standings_command_prints_the_myl_document(myl):
    import json
    from io import StringIO

    from django.core.management import call_command

    play_swiss(myl["event"])
    out = StringIO()
    call_command("standings", myl["event"].slug, "--json", stdout=out)
    doc = json.loads(out.getvalue())
    assert doc["ruleset"] == "myl" and "match_points" in doc["standings"][0]
    # Without --json: one line per player with the MyL columns.
    out = StringIO()
    call_command("standings", myl["event"].slug, stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(doc["standings"])
    first = doc["standings"][0]
    assert first["name"] in lines[0] and f"MP {first['match_points']:>3}" in lines[0]


# --------------------------------------------------------------------------- players
def test_a_player_enters_their_match_and_the_opponent_sees_it(client, myl):
    from events import services

    event = myl["event"]
    rnd = ss.pair_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    table = rnd.tables.get(number=2)
    first, second = (s.registration for s in table.seats.order_by("position"))
    accounts = {}
    for reg in (first, second):
        user = UserFactory(username=f"player-{reg.code}")
        reg.person.user = user
        reg.person.save()
        accounts[reg.id] = user
    client.force_login(accounts[second.id])
    page = client.get(url("events:my-match", event)).content.decode()
    assert first.person.name in page and "Games I won" in page
    response = client.post(
        url("events:my-match", event), {"version": table.version, "own": "2", "opponent": "0"}
    )
    assert response.status_code == 302
    # Reported, not saved: the opponent confirms it (docs/players.md).
    assert [s.games_won for s in table.seats.order_by("position")] == [None, None]
    client.force_login(accounts[first.id])
    page = client.get(url("events:my-match", event)).content.decode()
    assert "Confirm this result" in page and 'name="own"' not in page
    report = ResultReport.objects.get(table=table)
    response = client.post(
        url("events:report-confirm", event), {"report": report.pk, "back": "my-match"}
    )
    assert response.status_code == 302 and response["Location"] == url("events:my-match", event)
    assert [s.games_won for s in table.seats.order_by("position")] == [0, 2]
    page = client.get(url("events:my-match", event)).content.decode()
    assert "Result entered" in page and "0–2" in page and 'name="own"' not in page
    table.refresh_from_db()
    response = client.post(
        url("events:my-match", event),
        {"version": table.version, "own": "2", "opponent": "0"},
        follow=True,
    )
    assert "call a judge" in response.content.decode()
    assert [s.games_won for s in table.seats.order_by("position")] == [0, 2]


def test_my_page_links_to_the_current_match(client, myl):
    reg = myl["regs"][0]
    user = UserFactory(username="linked-player")
    reg.person.user = user
    reg.person.save()
    client.force_login(user)
    page = client.get(reverse("my-page")).content.decode()
    assert url("events:my-match", myl["event"]) in page


def test_an_unlinked_account_is_told_to_ask(client, myl):
    client.force_login(myl["users"]["outsider"])
    page = client.get(url("events:my-match", myl["event"])).content.decode()
    assert "not registered in this event" in page


# --------------------------------------------------------------------------- public
def test_public_standings_and_api(client, myl):
    event = myl["event"]
    play_swiss(event)
    assert "not published" in client.get(url("events:public-standings", event)).content.decode()
    api = reverse("api-standings", kwargs={"slug": event.slug})
    assert client.get(api).status_code == 404
    Event.objects.filter(pk=event.pk).update(standings_published=True)
    page = client.get(url("events:public-standings", event)).content.decode()
    assert "OMW %" in page and "GW %" in page and "OGW %" in page and "Game Wins" not in page
    doc = client.get(api).json()
    assert doc["ruleset"] == "myl" and len(doc["standings"]) == 8
    row = doc["standings"][0]
    assert isinstance(row["match_points"], int) and isinstance(row["omw"], float)
    assert doc["top_cut"]["size"] == 4 and len(doc["top_cut"]["seeds"]) == 4
    # A result change shows at once (the cached public copy is invalidated).
    ss.pair_top_cut(event)
    semi = event.rounds.get(is_top_cut=True)
    play(semi, random.Random(0), [(2, 0)])
    ss.pair_top_cut(event)
    play(event.rounds.get(number=5), random.Random(0), [(2, 1)])
    doc = client.get(api).json()
    assert doc["final_played"] is True and doc["standings"][0]["winner"] is True
    page = client.get(url("events:public-standings", event)).content.decode()
    assert "Champion:" in page and "Semi-finals" in page
    champion = doc["standings"][0]["name"]
    assert champion in client.get(url("events:public-event", event)).content.decode()
    results = client.get(url("events:public-results", event)).content.decode()
    assert "Round 1" not in results  # no round's pairings were published
    from events import services

    services.set_seating_published(event.rounds.get(number=1), True)
    results = client.get(url("events:public-results", event)).content.decode()
    assert "Round 1" in results


@pytest.mark.parametrize("players", [16, 48])
def test_pages_use_a_bounded_number_of_queries(client, db, django_assert_max_num_queries, players):
    event, _ = make_event(players, preliminary_rounds=3, top_cut=8)
    organiser = UserFactory(username=f"org-{players}")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    play_swiss(event)
    Event.objects.filter(pk=event.pk).update(standings_published=True)
    with django_assert_max_num_queries(6):
        client.get(url("events:public-standings", event))
    with django_assert_max_num_queries(6):
        client.get(reverse("api-standings", kwargs={"slug": event.slug}))
    client.force_login(organiser)
    # 14, plus the players' reports of the round (due countdowns, the reports).
    with django_assert_max_num_queries(16):
        client.get(url("manage:round", event, number=3))
    with django_assert_max_num_queries(14):
        client.get(url("manage:dashboard", event))
    with django_assert_max_num_queries(14):
        client.get(url("manage:standings", event))


def test_register_refuses_nobody_new_after_the_swiss(db):
    event, _ = make_event(4, preliminary_rounds=2)
    play_swiss(event)
    from events import services
    from events.errors import UserError

    with pytest.raises(UserError):
        services.register(event, RegistrationFactory(event=EventFactory()).person)
    assert Registration.objects.filter(event=event).count() == 4


def test_a_tie_at_the_cut_line_offers_a_toss_that_seeds_the_top_cut(client, db):
    event, regs = make_event(8, preliminary_rounds=2, top_cut=4)
    head = UserFactory(username="hj-toss")
    EventRole.objects.create(event=event, user=head, role=Role.HEAD_JUDGE)
    for number in (1, 2):
        play(ss.pair_next_round(event, seed=number), random.Random(0), [(1, 1)])  # all draws
    client.force_login(head)
    page = client.get(url("manage:standings", event)).content.decode()
    assert "Tie at the top-cut line" in page
    assert len(ss.cut_line_tie(ss.myl_standings(event))) == 8
    response = client.post(
        url("manage:toss", event), {"mode": "random", "player": [r.id for r in regs]}
    )
    assert response.status_code == 302
    page = client.get(url("manage:standings", event)).content.decode()
    assert "Tie at the top-cut line" not in page
    toss = list(
        Registration.objects.filter(event=event)
        .order_by("toss_position")
        .values_list("id", flat=True)
    )
    semi = ss.pair_top_cut(event)
    assert semi.finalists == toss[:4]
    response = client.post(
        url("manage:toss", event), {"mode": "random", "player": [r.id for r in regs]}, follow=True
    )
    assert "The top cut has started" in response.content.decode()


def test_top_cut_rounds_are_named_by_stage_in_the_tabs():
    from types import SimpleNamespace

    from events.models import Round
    from events.templatetags.rounds import round_name

    event = SimpleNamespace(top_cut=8, preliminary_rounds=4)

    assert round_name(Round(number=5, is_top_cut=True), event) == "Quarter-finals"
    assert round_name(Round(number=6, is_top_cut=True), event) == "Semi-finals"
    assert round_name(Round(number=7, is_top_cut=True), event) == "Top-cut final"
    assert round_name(Round(number=3, is_top_cut=False), event) == "Round 3"


# --------------------------------------------------------------------------- publication
def _link(reg, username):
    user = UserFactory(username=username)
    reg.person.user = user
    reg.person.save()
    return user


def test_a_player_neither_sees_nor_enters_a_pairing_before_it_is_published(client, myl):
    """Issue 12: a MyL player saw their opponent and entered a result on *My match* as soon
    as the round was paired, before the judges published the pairings."""
    from events import services

    event = myl["event"]
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    first, second = (s.registration for s in table.seats.order_by("position"))
    client.force_login(_link(first, "player-unpublished"))
    page = client.get(url("events:my-match", event)).content.decode()
    assert second.person.name not in page and 'name="own"' not in page
    assert "pairings are not published" in page
    response = client.post(
        url("events:my-match", event), {"version": table.version, "own": "2", "opponent": "0"}
    )
    assert response.status_code in (200, 302)
    assert [s.games_won for s in table.seats.all()] == [None, None]
    # The service refuses it too, whatever the page.
    with pytest.raises(ss.UserError):
        ss.player_save_result(first, 2, 0, version=table.version)
    # Published: the player sees the match and enters it.
    services.set_seating_published(rnd, True)
    page = client.get(url("events:my-match", event)).content.decode()
    assert second.person.name in page and 'name="own"' in page
    response = client.post(
        url("events:my-match", event), {"version": table.version, "own": "2", "opponent": "0"}
    )
    assert response.status_code == 302
    # Reported: it waits for the opponent's confirmation (docs/players.md).
    assert ResultReport.objects.get(table=table).values == ["2", "0"]


def test_the_next_round_stays_hidden_from_the_player_until_published(client, myl):
    from events import services

    event = myl["event"]
    first_round = ss.pair_next_round(event, seed=1)
    services.set_seating_published(first_round, True)
    play(first_round, random.Random(0), [(2, 0)])
    second_round = ss.pair_next_round(event, seed=2)
    table = second_round.tables.filter(is_bye=False).order_by("number").first()
    me, opponent = (s.registration for s in table.seats.order_by("position"))
    client.force_login(_link(me, "player-next-round"))
    page = client.get(url("events:my-match", event)).content.decode()
    assert "Round 1" in page and "Round 2" not in page
    client.post(
        url("events:my-match", event), {"version": table.version, "own": "2", "opponent": "0"}
    )
    with pytest.raises(ss.UserError):
        ss.player_save_result(me, 2, 0, version=table.version)
    assert [s.games_won for s in table.seats.all()] == [None, None]
    # Nor does the public results page list the unpublished round; staff see it.
    Event.objects.filter(pk=event.pk).update(standings_published=True)
    client.logout()
    results = client.get(url("events:public-results", event)).content.decode()
    assert "Round 1" in results and "Round 2" not in results
    client.force_login(myl["users"]["judge"])
    assert "Round 2" in client.get(url("events:public-results", event)).content.decode()
    services.set_seating_published(second_round, True)
    client.logout()
    assert "Round 2" in client.get(url("events:public-results", event)).content.decode()
