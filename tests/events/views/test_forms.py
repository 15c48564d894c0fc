"""Issue 13: every input of the event pages goes through a form (``events.forms``). A bad
post (not a number, an id out of range, a missing field, another event's registration)
gets the page's message, changes nothing in the database, and is never a server error.
Only ``events.errors.UserError`` is caught by the views; anything else is a bug."""

import ast
import pathlib
import random

import pytest
from django.contrib.messages import get_messages
from django.http import QueryDict
from django.urls import reverse

from events import services
from events import swiss_services as ss
from events.forms import FinalActionForm, PublishForm, SwapSeatsForm, TossForm
from events.models import EventRole, PlayerClaim, Registration, Round, Seat
from events.permissions import Role
from standings.services import event_standings
from tests.conftest import add_players
from tests.events.services.test_swiss_services import make_event
from tests.factories import EventFactory, RegistrationFactory, UserFactory

HUGE = "99999999999999999999999"  # past a bigint: the database would overflow


def said(response) -> list[str]:
    """The messages a response queued, then dropped (as the next page would show them)."""
    found = [str(m) for m in get_messages(response.wsgi_request)]
    response.client.cookies.pop("messages", None)
    return found


def manage(name, event, **kwargs):
    return reverse(f"manage:{name}", kwargs={"slug": event.slug, **kwargs})


def seating(rnd) -> list[tuple]:
    return list(
        Seat.objects.filter(round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "registration_id", "vp")
    )


@pytest.fixture
def seated(event, staff):
    add_players(event, 8)
    return event, services.seat_next_round(event, seed=1)


@pytest.fixture
def stranger(db):
    """A registration of another event."""
    return RegistrationFactory(event=EventFactory(slug="elsewhere"))


# --------------------------------------------------------------------------- players
def test_a_claim_decision_must_be_approve_or_reject(client, event, staff):
    reg = RegistrationFactory(event=event)
    rnd = Round.objects.create(event=event, number=1)
    Seat.objects.create(table=rnd.tables.create(number=1), round=rnd, registration=reg, position=1)
    claim = PlayerClaim.objects.create(
        user=UserFactory(username="claimant"),
        person=reg.person,
        vekn_number=reg.person.vekn_number,
        name="Claimant",
    )
    client.force_login(staff["organiser"])
    url = manage("claim-decide", event, claim_id=claim.pk)
    for data in ({"decision": "maybe"}, {}):
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == ["Incomplete form: try again."]
    claim.refresh_from_db()
    reg.person.refresh_from_db()
    assert claim.status == PlayerClaim.Status.PENDING and reg.person.user is None


def test_a_status_must_be_one_a_page_sets(client, event, staff, stranger):
    reg = RegistrationFactory(event=event, status=Registration.Status.REGISTERED)
    client.force_login(staff["organiser"])
    url = manage("player-status", event, reg_id=reg.pk)
    for data in ({"status": "disqualified"}, {"status": "x" * 5000}, {}):
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == ["Unknown status."]
    htmx = client.post(url, {"status": "zzz"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and "Unknown status." in said(htmx)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED
    # Another event's registration is not found here.
    other = manage("player-status", event, reg_id=stranger.pk)
    assert client.post(other, {"status": "dropped"}).status_code == 404
    before = stranger.status
    stranger.refresh_from_db()
    assert stranger.status == before


# --------------------------------------------------------------------------- rounds
def test_a_swap_names_two_players_of_the_round(client, seated, staff, stranger):
    event, rnd = seated
    before = seating(rnd)
    a, b = (s.registration_id for s in Seat.objects.filter(round=rnd)[:2])
    client.force_login(staff["head_judge"])
    url = manage("round-swap", event, number=1)
    for data in ({"a": "abc", "b": b}, {"a": HUGE, "b": b}, {"a": "0", "b": b}, {"a": a}, {}):
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == ["Choose two players."], data
    response = client.post(url, {"a": a, "b": stranger.pk})
    assert response.status_code == 302
    assert said(response) == ["Choose two different players seated in this round."]
    assert seating(rnd) == before


def test_publish_takes_one_or_zero(client, seated, staff):
    event, rnd = seated
    client.force_login(staff["organiser"])
    response = client.post(manage("round-publish", event, number=1), {"published": "yes"})
    assert response.status_code == 302 and said(response) == ["Incomplete form: try again."]
    rnd.refresh_from_db()
    assert not rnd.seating_published
    response = client.post(manage("publish-standings", event), {"published": "2"})
    assert response.status_code == 302 and said(response) == ["Incomplete form: try again."]
    event.refresh_from_db()
    assert not event.standings_published
    # The buttons' own values still work.
    client.post(manage("round-publish", event, number=1), {"published": "1"})
    rnd.refresh_from_db()
    assert rnd.seating_published
    client.post(manage("round-publish", event, number=1), {"published": "0"})
    rnd.refresh_from_db()
    assert not rnd.seating_published


# --------------------------------------------------------------------------- results
def test_a_result_sheet_needs_its_version(client, seated, staff):
    event, rnd = seated
    before = seating(rnd)
    client.force_login(staff["judge"])
    url = manage("table", event, number=1, table_number=1)
    sheet = {"vp_1": "2", "vp_2": "1", "vp_3": "1", "vp_4": "0"}
    for version in ("x", "-1", "1.5", HUGE + "x"):
        response = client.post(url, {**sheet, "version": version})
        assert response.status_code == 302 and response.url == url, version
        assert said(response) == ["The form is out of date: reload the page."]
    response = client.post(url, sheet)  # no version at all
    assert said(response) == ["The form is out of date: reload the page."]
    # A bad value is the sheet's error, shown on the form with what was typed.
    response = client.post(url, {**sheet, "version": 0, "vp_1": "two"})
    assert response.status_code == 400
    assert "“two” is not a number of victory points." in response.content.decode()
    response = client.post(url, {**sheet, "version": 0, "vp_2": "1\x00"})
    assert response.status_code == 400
    assert seating(rnd) == before


# --------------------------------------------------------------------------- toss & final
def test_a_toss_names_players_of_this_event(client, played_event, staff, stranger):
    event = played_event
    client.force_login(staff["head_judge"])
    ids = list(event.registrations.values_list("id", flat=True)[:2])
    url = manage("toss", event)
    for data in (
        {"player": ["abc", ids[0]]},
        {"player": [HUGE, ids[0]]},
        {"player": ids, "mode": "loaded dice"},
    ):
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == ["Choose the tied players."]
    for data in ({"player": [ids[0], stranger.pk]}, {}):
        response = client.post(url, data)
        assert said(response) == ["A toss must order two or more players of this event."]
    assert not Registration.objects.filter(toss_position__isnull=False).exists()


@pytest.fixture
def final_started(played_event):
    event = played_event
    for group in event_standings(event).standings.toss_required:
        services.record_toss(event, list(group))
    return event, services.start_final(event)


def test_the_final_page_checks_its_action_and_fields(client, final_started, staff, stranger):
    event, final = final_started
    client.force_login(staff["head_judge"])
    url = manage("final", event)
    expected = "Unknown action."
    for data in ({"action": "explode"}, {}):
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == [expected], data
    expected = "Incomplete form: try again."
    for data in (
        {"action": "place", "player": "abc", "position": "0"},
        {"action": "place", "player": HUGE, "position": "0"},
        {"action": "place", "position": "0"},
        {"action": "place", "player": final.finalists[0], "position": "-1"},
        {"action": "place", "player": final.finalists[0]},
        {"action": "first"},
        {"action": "first", "player": "x"},
    ):
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == [expected], data
    response = client.post(url, {"action": "place", "player": stranger.pk, "position": "0"})
    assert said(response) == ["It is another finalist's turn to place their card."]
    final.refresh_from_db()
    assert final.ritual == [] and not final.tables.exists()


def test_the_final_page_before_the_final_starts(client, played_event, staff):
    client.force_login(staff["head_judge"])
    response = client.post(manage("final", played_event), {"action": "undo"})
    assert response.status_code == 302 and said(response) == ["Start the final first."]


# --------------------------------------------------------------------------- staff
def test_staff_removal_names_a_role_of_this_event(client, event, staff):
    client.force_login(staff["organiser"])
    url = manage("staff", event)
    other = EventRole.objects.exclude(event=event).first()
    for value in ("abc", HUGE, "0", "-3", str(other.pk)):
        assert client.post(url, {"remove": value}).status_code == 404, value
    assert EventRole.objects.filter(pk=other.pk).exists()
    assert EventRole.objects.filter(event=event).count() == len(Role)
    # An empty "remove" is the appointment form.
    response = client.post(url, {"remove": "", "username": "nobody", "role": Role.JUDGE})
    assert response.status_code == 200 and "No account has this username." in (
        response.content.decode()
    )


# --------------------------------------------------------------------------- Mitos y Leyendas
@pytest.fixture
def myl(db):
    event, regs = make_event(8, preliminary_rounds=3)
    judge = UserFactory(username="myl-judge")
    EventRole.objects.create(event=event, user=judge, role=Role.HEAD_JUDGE)
    return event, regs, judge


def test_a_match_result_needs_its_version_and_numbers(client, myl):
    event, _regs, judge = myl
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.filter(is_bye=False).order_by("number").first()
    url = manage("myl-match", event, number=1, table_number=table.number)
    client.force_login(judge)
    for data in ({"version": "x", "games_1": "2", "games_2": "0"}, {"games_1": "2"}):
        response = client.post(url, data)
        assert response.status_code == 302 and response.url == url
        assert said(response) == ["The form is out of date: reload the page."]
    response = client.post(url, {"version": table.version, "games_1": "two", "games_2": "0"})
    assert response.status_code == 400 and "is not a number of games" in response.content.decode()
    response = client.post(url, {"version": table.version, "games_1": "\x00", "games_2": "0"})
    assert response.status_code == 400
    assert not Seat.objects.filter(round=rnd, games_won__isnull=False).exists()


def test_pairing_with_rematches_takes_one_or_zero(client, myl):
    event, _regs, judge = myl
    client.force_login(judge)
    response = client.post(manage("myl-pair", event), {"allow_rematches": "please"})
    assert response.status_code == 302 and said(response) == ["Incomplete form: try again."]
    assert not event.rounds.exists()
    rnd = ss.pair_next_round(event, seed=1)
    before = seating(rnd)
    response = client.post(manage("myl-repair", event, number=1), {"allow_rematches": "2"})
    assert response.status_code == 302 and said(response) == ["Incomplete form: try again."]
    assert seating(rnd) == before


def test_a_players_own_result_needs_its_version_and_numbers(client, myl):
    event, _regs, _judge = myl
    rnd = ss.pair_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    table = rnd.tables.filter(is_bye=False).order_by("number").first()
    reg = table.seats.order_by("position").first().registration
    player = UserFactory(username="player-one")
    reg.person.user = player
    reg.person.save()
    client.force_login(player)
    url = reverse("events:my-match", args=[event.slug])
    cases = [
        (
            {"version": "x", "own": "2", "opponent": "0"},
            "The form is out of date: reload the page.",
        ),
        ({"own": "2", "opponent": "0"}, "The form is out of date: reload the page."),
        ({"version": table.version, "own": "2"}, "Enter the games of both players."),
        (
            {"version": table.version, "own": "lots", "opponent": "0"},
            "“lots” is not a number of games.",
        ),
    ]
    for data, message in cases:
        response = client.post(url, data)
        assert response.status_code == 302 and said(response) == [message], data
    assert not Seat.objects.filter(round=rnd, games_won__isnull=False).exists()


def test_a_myl_toss_names_players_of_this_event(client, myl, stranger):
    event, regs, judge = myl
    rng = random.Random(1)
    for number in range(1, event.preliminary_rounds + 1):
        rnd = ss.pair_next_round(event, seed=number)
        for table in rnd.tables.filter(is_bye=False):
            ss.save_match_result(table, rng.choice([(2, 0), (2, 1)]), version=table.version)
    client.force_login(judge)
    response = client.post(manage("toss", event), {"player": [regs[0].pk, stranger.pk]})
    assert said(response) == ["A toss must order two or more players of this event."]
    assert not Registration.objects.filter(toss_position__isnull=False).exists()


# --------------------------------------------------------------------------- the forms alone
def test_flags_ids_and_the_final_steps_clean_to_plain_values():
    def cleaned(form_class, query):
        form = form_class(QueryDict(query))
        return form.cleaned_data if form.is_valid() else None

    assert cleaned(PublishForm, "published=1") == {"published": True}
    assert cleaned(PublishForm, "published=0") == {"published": False}
    assert cleaned(PublishForm, "") == {"published": False}
    assert cleaned(PublishForm, "published=on") is None
    # The toss keeps the order posted (best first).
    assert cleaned(TossForm, "player=9&player=3&player=5") == {"player": [9, 3, 5], "mode": ""}
    assert cleaned(TossForm, "player=3&mode=random")["mode"] == "random"
    assert cleaned(TossForm, f"player=3&player={2**63}") is None
    assert cleaned(SwapSeatsForm, f"a=1&b={2**63 - 1}") == {"a": 1, "b": 2**63 - 1}
    assert cleaned(SwapSeatsForm, "a=1&b=1e3") is None
    assert cleaned(FinalActionForm, "action=place&player=4&position=0") == {
        "action": "place",
        "player": 4,
        "position": 0,
    }
    assert cleaned(FinalActionForm, "action=draw")["action"] == "draw"
    assert cleaned(FinalActionForm, "action=first") is None


# --------------------------------------------------------------------------- the code
VIEW_MODULES = sorted(pathlib.Path(__file__).resolve().parents[3].glob("events/views*.py"))


@pytest.mark.parametrize("path", VIEW_MODULES, ids=lambda p: p.name)
def test_no_event_view_reads_the_post_by_hand(path):
    """Issue 13: the event views read ``request.POST`` only through a form."""
    source = path.read_text()
    for pattern in ("request.POST.get(", "request.POST[", "request.POST.getlist("):
        assert pattern not in source, f"{path.name}: {pattern}"


@pytest.mark.parametrize("path", VIEW_MODULES, ids=lambda p: p.name)
def test_event_views_catch_only_user_errors(path):
    """Issue 13: a view catches ``UserError`` (or ``ConflictError``) and shows it; a
    ``ValueError`` or any other exception is a bug that propagates (logged, 500). The one
    exception: the tablet's sync decodes a JSON body (``json.loads``' ``ValueError``)."""
    allowed = {"UserError", "ConflictError", "IntegrityError"}
    json_decoding = {"ValueError", "RecursionError"}
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ExceptHandler):
            continue
        assert node.type is not None, f"{path.name}:{node.lineno}: bare except"
        kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        names = {k.id if isinstance(k, ast.Name) else ast.unparse(k) for k in kinds}
        if path.name == "views_offline.py" and names == json_decoding:
            continue
        assert names <= allowed, f"{path.name}:{node.lineno}: except {sorted(names)}"


@pytest.mark.parametrize("day", ["0001-01-01", "1000-06-01", "9999-12-31"])
def test_an_event_date_outside_the_date_window_is_a_form_error(db, day):
    """One date window everywhere (events.limits.in_date_window), as the league forms."""
    from events.forms import EventCreateForm

    form = EventCreateForm(data={"name": "Open", "slug": "open", "date": day})
    assert not form.is_valid()
    assert form.errors["date"] == ["Give a date between the years 2000 and 2100."]
    assert (
        "date"
        not in EventCreateForm(data={"name": "Open", "slug": "open", "date": "2026-12-05"}).errors
    )


def test_myl_event_settings_cite_no_vekn_section(db, client, staff):
    """Issue 14: a Mitos y Leyendas event's "at least 2 rounds" cited TR §3.1 (a VEKN
    section); the MyL conduct rules set no number of Swiss rounds, so it cites none. The
    VEKN form keeps its section; the picker lists the registry's rulesets."""
    from events.forms import EventCreateForm

    data = {"name": "Open", "slug": "open", "date": "2026-12-05", "preliminary_rounds": 1}
    myl = EventCreateForm(data={**data, "preset": "myl-2026"})
    assert not myl.is_valid()
    assert myl.errors["preliminary_rounds"] == ["At least 2 Swiss rounds."]
    vekn = EventCreateForm(data={**data, "preset": "vekn-2026"})
    assert not vekn.is_valid()
    assert vekn.errors["preliminary_rounds"] == ["At least 2 preliminary rounds (TR §3.1)."]
    assert [(code, active) for code, _label, active in myl.ruleset_tabs()] == [
        ("vekn-2026", False),
        ("myl-2026", True),
    ]
    rendered = str(EventCreateForm(initial={"preset": "myl-2026"}).as_div())
    assert "TR §" not in rendered
