"""The VEKN link's services against a local fake VEKN (pytest-httpserver): the registry
sync never overwrites a local edit, the pushes retry without a duplicate event, MyL
events never push, the link off (docs/vekn-link.md)."""

import pytest
from django.core.management import call_command
from werkzeug import Response

from events import vekn_client, vekn_push, vekn_sync
from events.errors import UserError
from events.models import AuditLog, Person, VeknConflict, VeknMember, VeknPush
from penalties import services as penalty_services
from tests.factories import EventFactory, PersonFactory


@pytest.fixture(autouse=True)
def fresh_token():
    vekn_client.forget_token()
    yield
    vekn_client.forget_token()


@pytest.fixture(autouse=True)
def act(django_capture_on_commit_callbacks):
    """``act(fn, *args)``: call ``fn`` and run the tasks it queued after its commit (the
    test's transaction never commits)."""

    def call(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return call


@pytest.fixture
def vekn(httpserver, settings):
    settings.VEKN_API_URL = httpserver.url_for("/").rstrip("/")
    settings.VEKN_API_USERNAME = "prince"
    settings.VEKN_API_PASSWORD = "secret"
    settings.VEKN_TIMEOUT_SECONDS = 1
    httpserver.expect_request("/api/vekn/login", method="POST").respond_with_json(
        {"data": {"code": 200, "auth": "tok"}}
    )
    return httpserver


def registry(server, *players):
    server.expect_oneshot_request("/api/vekn/registry").respond_with_json(
        {
            "data": {
                "players": [
                    {
                        "veknid": v,
                        "firstname": f,
                        "lastname": last,
                        "countryname": "Chile",
                        "city": "X",
                    }
                    for v, f, last in players
                ]
            }
        }
    )


def member(v, first, last):
    return vekn_client.Member(v, first, last, "Chile", "Santiago")


# ------------------------------------------------------------------ registry sync
def test_sync_updates_a_person_following_the_vekn_and_keeps_a_local_edit(db):
    follows = PersonFactory(
        name="Ana Perez", first_name="Ana", last_name="Perez", vekn_number="5600001"
    )
    edited = PersonFactory(
        name="Bob Smith", first_name="Bob", last_name="Smith", vekn_number="5600002"
    )
    first = vekn_sync.apply_batch(
        [member("5600001", "Ana", "Perez"), member("5600002", "Bob", "Smith")]
    )
    assert first.updated == [] and first.conflicts == []
    # Locally, Bob's name is corrected; then the VEKN changes both spellings.
    Person.objects.filter(pk=edited.pk).update(name="Robert Smith", first_name="Robert")
    report = vekn_sync.apply_batch(
        [member("5600001", "Ana", "Pérez"), member("5600002", "Bobby", "Smith")]
    )
    follows.refresh_from_db()
    edited.refresh_from_db()
    assert (follows.name, follows.last_name) == ("Ana Pérez", "Pérez")
    assert report.updated == [follows.pk]
    assert edited.name == "Robert Smith"  # the local edit is never overwritten
    conflict = VeknConflict.objects.get(person=edited)
    assert conflict.status == "open"
    assert (conflict.local_first_name, conflict.vekn_first_name) == ("Robert", "Bobby")
    assert AuditLog.objects.filter(action="person.vekn_sync", target_id=follows.pk).exists()
    assert VeknMember.objects.get(veknid="5600002").first_name == "Bobby"


def test_a_conflict_kept_local_is_not_asked_again_and_taking_vekn_renames(db):
    p = PersonFactory(name="Robert Smith", vekn_number="5600002")
    vekn_sync.apply_batch([member("5600002", "Bobby", "Smith")])
    conflict = VeknConflict.objects.get(person=p, status="open")
    vekn_sync.resolve_conflict(conflict.pk, take_vekn=False, actor=None)
    again = vekn_sync.apply_batch([member("5600002", "Bobby", "Smith")])
    assert again.conflicts == [] and not VeknConflict.objects.filter(status="open").exists()
    with pytest.raises(UserError):
        vekn_sync.resolve_conflict(conflict.pk, take_vekn=True, actor=None)
    # The VEKN changes again: asked again; this time staff take the VEKN's names.
    vekn_sync.apply_batch([member("5600002", "Rob", "Smith")])
    new = VeknConflict.objects.get(person=p, status="open")
    vekn_sync.resolve_conflict(new.pk, take_vekn=True, actor=None)
    p.refresh_from_db()
    assert p.name == "Rob Smith"


def test_the_command_syncs_from_the_fake_vekn(vekn, db, act):
    p = PersonFactory(name="Ana Perez", vekn_number="5600001")
    registry(vekn, ("5600001", "Ana", "Perez"), ("5600003", "Carla", "Diaz"))
    call_command("sync_vekn_registry", "--prefix", "56")
    assert set(VeknMember.objects.values_list("veknid", flat=True)) == {"5600001", "5600003"}
    assert not VeknConflict.objects.filter(person=p).exists()
    assert [m.veknid for m in vekn_sync.search_by_name("carla di")] == ["5600003"]


def test_the_command_refuses_when_the_link_is_disabled(settings, db, act):
    from django.core.management.base import CommandError

    settings.VEKN_API_URL = ""
    with pytest.raises(CommandError, match="disabled"):
        call_command("sync_vekn_registry")


def test_number_check_warns_softly(vekn, db, act):
    VeknMember.objects.create(
        veknid="5600001", first_name="Ana", last_name="Pérez", synced_at="2026-01-01T00:00Z"
    )
    assert vekn_sync.check_number("5600001", "ana perez").warning == ""
    assert "belongs to Ana Pérez" in vekn_sync.check_number("5600001", "Bob").warning
    registry(vekn)  # not synced: asked to the VEKN, which has no such number
    assert "not in the VEKN registry" in vekn_sync.check_number("5600009", "Bob").warning


def test_number_check_when_the_vekn_is_down_is_a_warning_not_an_error(vekn, db, act):
    vekn.expect_request("/api/vekn/registry").respond_with_data("down", status=503)
    assert "could not be checked" in vekn_sync.check_number("5600009", "Bob").warning


def test_number_check_with_the_link_disabled_says_nothing(settings, db, act):
    settings.VEKN_API_URL = ""
    assert vekn_sync.check_number("5600009", "Bob").warning == ""


# ------------------------------------------------------------------ pushes
def test_announce_retries_after_a_500_without_a_duplicate_event(vekn, db, act):
    event = EventFactory(name="Santiago Open")
    calls = []

    def create(request):
        calls.append(request.form["name"])
        if len(calls) == 1:
            return Response(
                '{"data": {"code": 500, "message": "boom"}}',
                status=500,
                content_type="application/json",
            )
        return Response('{"data": {"code": 200, "id": "9001"}}', content_type="application/json")

    vekn.expect_request("/api/vekn/event", method="POST").respond_with_handler(create)
    push = act(vekn_push.announce, event, None, organiser_vekn="5600001", venue_id=3800)
    push.refresh_from_db()
    assert push.status == "retrying" and "boom" in push.last_error and push.attempts == 1
    act(vekn_push.retry, push.pk, event, None)
    push.refresh_from_db()
    assert (push.status, push.vekn_event_id) == ("sent", "9001")
    # Another retry or announce never creates a second VEKN event.
    with pytest.raises(UserError):
        act(vekn_push.retry, push.pk, event, None)
    with pytest.raises(UserError):
        act(vekn_push.announce, event, None, organiser_vekn="5600001")
    VeknPush.objects.filter(pk=push.pk).update(status="queued")
    assert vekn_push.send_push.call(push.pk) == "sent"
    assert calls == ["Santiago Open", "Santiago Open"]


def test_a_refusal_fails_at_once_with_the_vekns_message(vekn, db, act):
    event = EventFactory()
    vekn.expect_request("/api/vekn/event", method="POST").respond_with_json(
        {"data": {"code": 400, "message": "PLG_API_VEKN_NOT_A_PRINCE_MESSAGE"}}
    )
    push = act(vekn_push.announce, event, None, organiser_vekn="5600001")
    push.refresh_from_db()
    assert (push.status, push.last_error) == ("failed", "You are not a prince.")


def test_a_timeout_waits_to_retry(vekn, db, act):
    import time

    event = EventFactory()

    def slow(request):
        time.sleep(1.5)
        return Response("{}", content_type="application/json")

    vekn.expect_request("/api/vekn/event", method="POST").respond_with_handler(slow)
    push = act(vekn_push.announce, event, None, organiser_vekn="5600001")
    push.refresh_from_db()
    assert push.status == "retrying" and "in time" in push.last_error
    assert push.next_retry_at is not None


def test_approving_results_sends_the_archondata(vekn, played_event, act):
    event = played_event
    vekn.expect_request("/api/vekn/event", method="POST").respond_with_json(
        {"data": {"code": 200, "id": "9002"}}
    )
    sent = []
    vekn.expect_request("/api/vekn/archon/9002", method="POST").respond_with_handler(
        lambda r: (
            sent.append(r.form["archondata"])
            or Response('{"data": {"code": 200}}', content_type="application/json")
        )
    )
    act(vekn_push.announce, event, None, organiser_vekn="5600001")
    act(penalty_services.set_results_approved, event, True)
    results = VeknPush.objects.get(event=event, kind="results")
    assert (results.status, results.vekn_event_id) == ("sent", "9002")
    assert len(sent) == 1 and "§" in sent[0]
    assert event.registrations.first().person.vekn_number in sent[0]


def test_myl_events_never_push(vekn, db, act):
    event = EventFactory(ruleset="myl", round_minutes=50)
    assert vekn_push.link_of(event) is None
    with pytest.raises(UserError):
        act(vekn_push.announce, event, None, organiser_vekn="5600001")
    act(penalty_services.set_results_approved, event, True)
    assert not VeknPush.objects.filter(event=event).exists()


def test_disabled_link_refuses_to_announce_and_approval_pushes_nothing(settings, db, act):
    settings.VEKN_API_URL = ""
    event = EventFactory()
    with pytest.raises(UserError, match="not configured"):
        act(vekn_push.announce, event, None, organiser_vekn="5600001")
    act(penalty_services.set_results_approved, event, True)
    assert not VeknPush.objects.exists()


@pytest.mark.parametrize(
    ("game_format", "championship", "expected"),
    [
        ("standard", "", 2),
        ("v5", "", 16),
        ("limited", "", 3),
        ("standard", "grand_prix", 15),
        ("standard", "national", 8),
        ("standard", "continental", 6),
        ("limited", "grand_prix", 3),
        ("limited", "national", 13),
        ("limited", "continental", 14),
    ],
)
def test_the_calendar_type_of_each_level(game_format, championship, expected):
    """The VEKN calendar's event types, as the official Archon's ``TournamentType``."""
    from events.models import Event
    from events.vekn_push import VeknLink

    event = Event(game_format=game_format, championship=championship)
    if game_format == "limited":
        event.format = Event.Format.LIMITED
    assert VeknLink().event_type(event) == expected
