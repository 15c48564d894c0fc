"""Issue 12: a league staff or tribunal form sent twice (a double click, a retry) saves
once: the second answer is "already saved" (leagues.submissions, Adjustment.client_id,
CupBonus.client_id, StaffSubmission)."""

import re
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import AuditLog
from leagues import cups, sanctions
from leagues.models import Adjustment, Competition, CupBonus, Match, StaffSubmission
from tests.factories import UserFactory
from tests.leagues.views.test_reporting import league  # noqa: F401 - fixture

ALREADY = "Already saved"


def form_ids(html: str, action: str) -> list[str]:
    """The ``client_id`` of each form posting to ``action`` on a page."""
    forms = re.findall(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', html, re.S)
    found = []
    for url, body in forms:
        if url == action:
            found += re.findall(r'name="client_id" value="([0-9a-f-]{36})"', body)
    return found


def page_form_id(html: str) -> str:
    """The ``client_id`` of the first form of a page."""
    return re.search(r'name="client_id" value="([0-9a-f-]{36})"', html).group(1)


def followed_messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


# --------------------------------------------------------------------------- points ledger
def test_the_same_points_deduction_sent_twice_is_saved_once(client, league):  # noqa: F811
    client.force_login(league["tribunal"])
    url = reverse("leagues:staff-adjustments", kwargs={"slug": league["season"].slug})
    # What a double click sends: the same form, with the id generated when it was shown.
    data = {
        "competition": "t24-primera-a",
        "team": "t1",
        "points": "-2",
        "reason": "insulted the referee",
        "client_id": str(uuid.uuid4()),
    }
    before = Adjustment.objects.count()
    first = client.post(url, data)
    assert first.status_code == 302
    second = client.post(url, data, follow=True)
    assert second.status_code == 200
    assert ALREADY in followed_messages(second)
    assert Adjustment.objects.count() == before + 1
    assert AuditLog.objects.filter(action="league.adjustment_added").count() == 1
    entry = Adjustment.objects.get(reason="insulted the referee")
    assert str(entry.client_id) == data["client_id"]
    # A new form (the page shown again: a new id) is a new deduction.
    again = page_form_id(client.get(url).content.decode())
    assert again != data["client_id"]
    client.post(url, {**data, "client_id": again})
    assert Adjustment.objects.count() == before + 2


def test_the_ledger_service_is_idempotent_by_client_id(league):  # noqa: F811
    competition = Competition.objects.select_related("season").get(slug="t24-primera-a")
    team = competition.season.teams.get(code="t1")
    cid = uuid.uuid4()
    first = sanctions.add_adjustment(
        competition, team, -2, "late", league["tribunal"], client_id=cid
    )
    again = sanctions.add_adjustment(
        competition, team, -2, "late", league["tribunal"], client_id=cid
    )
    assert (first.already_saved, again.already_saved) == (False, True)
    assert again.pk == first.pk
    assert Adjustment.objects.filter(client_id=cid).count() == 1
    assert AuditLog.objects.filter(action="league.adjustment_added").count() == 1


def test_another_user_cannot_replay_a_saved_form(client, league):  # noqa: F811
    other = UserFactory(username="tribunal2")
    league["season"].roles.create(user=other, role="tribunal")
    url = reverse("leagues:staff-adjustments", kwargs={"slug": league["season"].slug})
    data = {
        "competition": "t24-primera-a",
        "team": "t1",
        "points": "-2",
        "reason": "late",
        "client_id": str(uuid.uuid4()),
    }
    client.force_login(league["tribunal"])
    assert client.post(url, data).status_code == 302
    client.force_login(other)
    assert client.post(url, data).status_code == 400
    assert Adjustment.objects.filter(reason="late").count() == 1


def test_a_saved_form_id_does_not_bypass_permissions(client, league):  # noqa: F811
    url = reverse("leagues:staff-adjustments", kwargs={"slug": league["season"].slug})
    data = {
        "competition": "t24-primera-a",
        "team": "t1",
        "points": "-2",
        "reason": "late",
        "client_id": str(uuid.uuid4()),
    }
    client.force_login(league["tribunal"])
    client.post(url, data)
    client.force_login(league["outsider"])
    assert client.post(url, data).status_code == 404
    client.logout()
    assert client.post(url, data).status_code == 302  # to the sign-in page
    assert Adjustment.objects.filter(reason="late").count() == 1


# --------------------------------------------------------------------------- match sanctions
def _match_page(client, league):  # noqa: F811
    m = league["match"]
    return client.get(
        reverse("leagues:match", kwargs={"slug": m.competition.slug, "code": m.code})
    ).content.decode()


def _action(league, name):  # noqa: F811
    m = league["match"]
    return reverse(f"leagues:{name}", kwargs={"slug": m.competition.slug, "code": m.code})


def test_the_tribunal_decision_sent_twice_is_already_saved(client, league):  # noqa: F811
    client.force_login(league["tribunal"])
    url = _action(league, "match-tribunal")
    cid = str(uuid.uuid4())
    data = {
        "home_deduction": "3",
        "away_deduction": "1",
        "reason": "neither showed up",
        "confirm": "1",
        "client_id": cid,
    }
    before = Adjustment.objects.count()
    client.post(url, data)
    second = client.post(url, data, follow=True)
    messages = followed_messages(second)
    assert ALREADY in messages and "not waiting to be played" not in messages
    assert Adjustment.objects.count() == before + 2
    assert AuditLog.objects.filter(action="league.tribunal_decision").count() == 1
    assert StaffSubmission.objects.get(client_id=cid).created_by == league["tribunal"]


def test_a_walkover_sent_twice_is_already_saved(client, league):  # noqa: F811
    m = league["match"]
    Match.objects.filter(pk=m.pk).update(
        initial_deadline=timezone.now() - timedelta(days=5),
        final_deadline=timezone.now() - timedelta(days=1),
    )
    client.force_login(league["staff"])
    url = _action(league, "match-walkover")
    cid = str(uuid.uuid4())
    data = {"absent": "away", "confirm": "1", "client_id": cid}
    before = Adjustment.objects.count()
    client.post(url, data)
    second = client.post(url, data, follow=True)
    assert ALREADY in followed_messages(second)
    assert Adjustment.objects.count() == before + 1
    assert AuditLog.objects.filter(action="league.walkover_recorded").count() == 1


def test_a_state_change_replayed_without_its_form_id_is_refused(client, league):  # noqa: F811
    """Without a client id (an old page), the row lock and state check still refuse it."""
    client.force_login(league["tribunal"])
    url = _action(league, "match-void")
    data = {"reason": "restart", "confirm": "1"}
    client.post(url, data)
    second = client.post(url, data, follow=True)
    assert second.status_code == 400  # the match page again, with the service's error
    assert "not waiting to be played" in second.content.decode()
    assert AuditLog.objects.filter(action="league.match_voided").count() == 1


def test_every_staff_form_of_the_match_page_carries_a_form_id(client, league):  # noqa: F811
    client.force_login(UserFactory(is_superuser=True))
    html = _match_page(client, league)
    for name in ("match-walkover", "match-tribunal", "match-void", "match-correct"):
        assert form_ids(html, _action(league, name)), name
    assert len(form_ids(html, _action(league, "match-incident"))) == 3
    ids = re.findall(r'name="client_id" value="([0-9a-f-]{36})"', html)
    assert len(ids) == len(set(ids))  # one id per form


# --------------------------------------------------------------------------- cup bonus
def test_cup_bonus_points_sent_twice_are_saved_once(client, league):  # noqa: F811
    client.force_login(league["staff"])
    url = reverse("leagues:staff-cup-bonus", kwargs={"slug": league["season"].slug})
    page = client.get(
        reverse("leagues:staff-nucommunity", kwargs={"slug": league["season"].slug})
    ).content.decode()
    assert len(form_ids(page, url)) == 1
    cid = str(uuid.uuid4())
    data = {"team": "t1", "points": "2", "reason": "semi-final", "client_id": cid}
    client.post(url, data)
    second = client.post(url, data, follow=True)
    assert ALREADY in followed_messages(second)
    assert CupBonus.objects.count() == 1
    assert str(CupBonus.objects.get().client_id) == cid


def test_the_cup_bonus_service_is_idempotent_by_client_id(league):  # noqa: F811
    cid = uuid.uuid4()
    kwargs = {"team": "t1", "points": 2, "reason": "final", "client_id": cid}
    first = cups.add_cup_bonus(league["season"], league["staff"], **kwargs)
    again = cups.add_cup_bonus(league["season"], league["staff"], **kwargs)
    assert (first.already_saved, again.already_saved, again.pk) == (False, True, first.pk)
    assert CupBonus.objects.count() == 1


@pytest.mark.parametrize(
    "name",
    ["staff-deadlines", "staff-adjustments", "staff-reviews", "staff-draft", "staff-nucommunity"],
)
def test_staff_pages_forms_carry_a_form_id(client, league, name):  # noqa: F811
    client.force_login(UserFactory(is_superuser=True))
    html = client.get(reverse(f"leagues:{name}", kwargs={"slug": league["season"].slug}))
    assert 'name="client_id"' in html.content.decode()


# --------------------------------------------------------------------------- replays without an id
def test_the_same_excuse_decision_twice_changes_nothing(league):  # noqa: F811
    from datetime import date

    from leagues import reporting
    from tests.leagues.views.test_reporting import png

    excuse = reporting.request_excuse(
        league["match"],
        league["home"],
        date_from=date(2026, 3, 1),
        date_to=date(2026, 3, 5),
        reason="trip",
        evidence=png(),
    )
    reporting.decide_excuse(excuse, league["staff"], True)
    reporting.decide_excuse(excuse, league["staff"], True)
    assert AuditLog.objects.filter(action="league.excuse_decided").count() == 1
    reporting.decide_excuse(excuse, league["staff"], False)  # a change is still recorded
    assert AuditLog.objects.filter(action="league.excuse_decided").count() == 2


def test_the_same_correction_twice_is_audited_once(league):  # noqa: F811
    from leagues import reporting

    when = timezone.now() - timedelta(hours=1)
    kwargs = {"home_goals": 3, "away_goals": 1, "reported_at": when, "reason": "typo"}
    reporting.correct_result(league["match"], league["staff"], **kwargs)
    reporting.correct_result(league["match"], league["staff"], **kwargs)
    assert AuditLog.objects.filter(action="league.result_corrected").count() == 1
    reporting.correct_result(league["match"], league["staff"], **{**kwargs, "home_goals": 4})
    assert AuditLog.objects.filter(action="league.result_corrected").count() == 2


def test_the_same_deadlines_twice_are_audited_once(league):  # noqa: F811
    competition = Competition.objects.select_related("season").get(slug="t24-primera-a")
    initial = timezone.now().replace(microsecond=0) + timedelta(days=3)
    final = initial + timedelta(days=2)
    for _ in range(2):
        n = sanctions.move_deadlines(
            competition, league["staff"], initial=initial, final=final, round=2
        )
        assert n == 1
    assert AuditLog.objects.filter(action="league.deadlines_moved").count() == 1


def test_the_same_tie_decision_twice_is_audited_once(db):
    from leagues import services
    from leagues.models import SeasonRole
    from tests.leagues.services.test_decisions import tied_season

    season = services.import_season(tied_season(False))
    staff = UserFactory()
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    competition = Competition.objects.get(slug="t24-primera-a")
    for _ in range(2):
        services.decide_tie(competition, staff, ["t2", "t1"], "decider 3-1")
    assert AuditLog.objects.filter(action="league.tie_decided").count() == 1
    competition.refresh_from_db()
    assert competition.decisions == ["t2", "t1"]


NOT_STAFF_FORMS = {
    # Read-only pages and files.
    "season",
    "suspensions",
    "competition",
    "cup-bonus",
    "compliance",
    "draft",
    "match",
    "report-screenshot",
    "excuse-evidence",
    "my-fixtures",
    "my-fixtures-ics",
    "fixtures-feed",
    "staff-home",
    "staff-audit",
    "staff-brackets",
    "squads",  # the season's squads, read only (its forms post elsewhere)
    "season-next",  # a prefilled form (GET); it posts to season-new, which saves once
    # The players' own forms: one open report per match, one excuse, one concession
    # (database constraints and state checks, leagues.reporting).
    "match-report",
    "report-confirm",
    "report-dispute",
    "report-withdraw",
    "match-excuse",
    "excuse-answer",
    "match-concede",
    # Scheduling a fixture: the two players' own forms; a second proposal replaces the
    # first, a second acceptance is refused (row lock, one agreed time per fixture).
    "schedule-propose",
    "schedule-accept",
    "staff-scheduling",  # read only
}


def test_every_league_staff_form_saves_once():
    """A new staff or tribunal endpoint must be wrapped by leagues.submissions.once."""
    from leagues import urls

    names = {p.name: p.callback for p in urls.urlpatterns}
    assert NOT_STAFF_FORMS <= set(names)
    missing = [
        name
        for name, view in sorted(names.items())
        if name not in NOT_STAFF_FORMS and not getattr(view, "idempotent", False)
    ]
    assert missing == []
    assert len(names) - len(NOT_STAFF_FORMS) == 32  # 3: the squads' forms
