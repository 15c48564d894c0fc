"""Reporting a table's result from the phones, the pages (events/views_self_report.py;
docs/players.md "Reporting your table's result"): the form and the buttons in the
player's seat box (htmx), players of another table and strangers refused, the judges'
round page showing each table's report, bounded queries, for both rulesets."""

import pytest
from django.urls import reverse

from events import self_report, services
from events.models import EventRole, JudgeCall, ResultReport
from events.permissions import Role
from tests.events.services.test_judge_calls import players_of, seated_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SHEET = {"value_1": "2", "value_2": "1", "value_3": "1", "value_4": "0"}


def url(name, event):
    return reverse(f"events:{name}", kwargs={"slug": event.slug})


def box(client, event):
    return client.get(url("my-seat", event)).content.decode()


def test_a_vekn_table_reports_and_confirms_through_the_seat_box(client):
    event, rnd, users = seated_event()
    me, *others = players_of(rnd, 1, users)
    client.force_login(me)
    assert "Report the result" in box(client, event) and 'name="value_4"' in box(client, event)
    answer = client.post(url("report", event), SHEET, **HTMX).content.decode()
    assert "my-seat-box" in answer and "Waiting for:" in answer
    assert "Confirm this result" not in answer  # the reporter does not confirm
    report = ResultReport.objects.get()
    for other in others:
        client.force_login(other)
        seen = box(client, event)
        assert "Confirm this result" in seen and "Dispute: call a judge" in seen
        answer = client.post(url("report-confirm", event), {"report": report.pk}, **HTMX)
    assert "The reported result stands." in answer.content.decode()
    table = rnd.tables.get(number=1)
    assert [str(s.vp) for s in table.seats.order_by("position")] == ["2.0", "1.0", "1.0", "0.0"]


def test_an_illegal_sheet_is_shown_in_the_box_and_nothing_is_saved(client):
    event, rnd, users = seated_event()
    client.force_login(players_of(rnd, 1, users)[0])
    bad = {**SHEET, "value_4": "1"}  # 2+1+1+1: more VP than the table can score
    answer = client.post(url("report", event), bad, **HTMX).content.decode()
    assert 'role="alert"' in answer and not ResultReport.objects.exists()


def test_a_player_of_another_table_and_a_stranger_are_refused(client):
    event, rnd, users = seated_event()
    me = players_of(rnd, 1, users)[0]
    report = self_report.report_result(event, me, list(SHEET.values()))
    client.force_login(players_of(rnd, 2, users)[0])
    for action in ("report-confirm", "report-dispute"):
        answer = client.post(url(action, event), {"report": report.pk}, **HTMX).content.decode()
        assert "You are not playing at this table." in answer
    assert not report.confirmations.exists() and not JudgeCall.objects.exists()
    client.force_login(UserFactory(username="stranger"))
    assert client.post(url("report-confirm", event), {"report": report.pk}).status_code == 404
    assert client.post(url("report", event), SHEET).status_code == 404
    client.logout()
    response = client.post(url("report-confirm", event), {"report": report.pk})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    report.refresh_from_db()
    assert report.status == "pending"


def test_a_report_of_another_event_is_not_found(client):
    event, rnd, users = seated_event()
    other_event, other_rnd, other_users = seated_event()
    theirs = self_report.report_result(
        other_event, players_of(other_rnd, 1, other_users)[0], list(SHEET.values())
    )
    client.force_login(players_of(rnd, 1, users)[1])
    assert client.post(url("report-confirm", event), {"report": theirs.pk}).status_code == 404
    assert client.get(url("report-confirm", event)).status_code == 405


def test_a_dispute_calls_a_judge_and_the_judges_page_shows_it(
    client, django_assert_max_num_queries
):
    event, rnd, users = seated_event()
    me, mate, third, _ = players_of(rnd, 1, users)
    report = self_report.report_result(event, me, list(SHEET.values()))
    self_report.confirm_report(event, mate, report.pk)
    judge = UserFactory(username="judge")
    EventRole.objects.create(event=event, user=judge, role=Role.JUDGE)
    client.force_login(judge)
    page_url = reverse("manage:round", kwargs={"slug": event.slug, "number": 1})
    page = client.get(page_url).content.decode()
    assert "reported · 1/3 confirmed" in page and "2–1–1–0" in page
    client.force_login(third)
    answer = client.post(
        url("report-dispute", event), {"report": report.pk, "note": "I had 2"}, **HTMX
    ).content.decode()
    assert "disputed the reported result: a judge is called" in answer
    call = JudgeCall.objects.get()
    assert call.reason == "dispute" and call.note == "I had 2"
    client.force_login(judge)
    # The page without reports is 19 queries; the reports add four, whatever their number.
    with django_assert_max_num_queries(23):
        page = client.get(page_url).content.decode()
    assert "disputed by" in page
    table = rnd.tables.get(number=1)
    services.save_results(
        table,
        [services.parse_vp(v) for v in ("3", "1", "0", "0")],
        version=table.version,
        actor=judge,
    )
    assert "report closed by a judge" in client.get(page_url).content.decode()


def test_a_myl_match_reported_on_the_match_page_is_confirmed_there(client):
    event, rnd, users = seated_event("myl")
    me, opponent = players_of(rnd, 1, users)
    table = rnd.tables.get(number=1)
    client.force_login(me)
    client.post(url("my-match", event), {"version": table.version, "own": "2", "opponent": "1"})
    report = ResultReport.objects.get()
    assert report.values == ["2", "1"]
    client.force_login(opponent)
    page = client.get(url("my-match", event)).content.decode()
    assert "Confirm this result" in page and "It stands at" in page
    response = client.post(url("report-confirm", event), {"report": report.pk, "back": "my-match"})
    assert response["Location"] == url("my-match", event)
    assert [s.games_won for s in table.seats.order_by("position")] == [2, 1]


def test_the_judges_result_form_starts_from_a_disputed_report_and_closes_it(client):
    event, rnd, users = seated_event()
    me, mate, *_ = players_of(rnd, 1, users)
    report = self_report.report_result(event, me, list(SHEET.values()))
    self_report.dispute_report(event, mate, report.pk)
    judge = UserFactory(username="judge")
    EventRole.objects.create(event=event, user=judge, role=Role.JUDGE)
    client.force_login(judge)
    table = rnd.tables.get(number=1)
    page_url = reverse("manage:table", kwargs={"slug": event.slug, "number": 1, "table_number": 1})
    page = client.get(page_url).content.decode()
    assert "Pre-filled from the result" in page and "disputed by" in page
    assert 'name="vp_1" value="2"' in page and 'name="vp_4" value="0"' in page
    client.post(
        page_url,
        {"version": table.version, "vp_1": "3", "vp_2": "1", "vp_3": "0", "vp_4": "0"},
    )
    report.refresh_from_db()
    assert report.status == "judged"
    assert [str(s.vp) for s in table.seats.order_by("position")] == ["3.0", "1.0", "0.0", "0.0"]


def test_a_myl_event_sets_its_countdown_and_a_vekn_event_has_none(client):
    from events.models import Event

    event, _rnd, _users = seated_event("myl")
    organiser = UserFactory(username="org")
    EventRole.objects.create(event=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    settings_url = reverse("manage:settings", kwargs={"slug": event.slug})
    assert 'name="report_countdown_minutes"' in client.get(settings_url).content.decode()
    data = {
        "name": event.name,
        "date": "2026-11-28",
        "format": "constructed",
        "preliminary_rounds": event.preliminary_rounds,
        "round_minutes": 50,
        "decklists_required": "",
        "best_of": event.best_of,
        "top_cut": 4,
        "time_zone": "America/Santiago",
        "report_countdown_minutes": 61,
    }
    assert client.post(settings_url, data).status_code == 200  # refused: 1 to 60
    assert Event.objects.get(pk=event.pk).report_countdown_minutes == 5
    data["report_countdown_minutes"] = 10
    assert client.post(settings_url, data).status_code == 302
    assert Event.objects.get(pk=event.pk).report_countdown_minutes == 10
    vekn, _rnd, _users = seated_event()
    EventRole.objects.create(event=vekn, user=organiser, role=Role.ORGANISER)
    page = client.get(reverse("manage:settings", kwargs={"slug": vekn.slug})).content.decode()
    assert 'name="report_countdown_minutes"' not in page
