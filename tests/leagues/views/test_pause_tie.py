"""Pausing a knockout tie pending the tribunal (a suspended footballer fielded, ANFPES
T24 §1.4 ¶3, §III; leagues.bracket_decisions.pause_tie): league staff pause, the tribunal
unpauses, each with a reason and audited; while paused its stage cannot be closed (no
next tie, no third match) and the bracket shows it; bad requests save nothing."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues import bracket_decisions, brackets, phases
from leagues.models import Match
from tests.factories import UserFactory
from tests.leagues.views.test_finals_stages import (
    higher_seed_wins,
    season,  # noqa: F401 - fixture
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def playoffs(season):  # noqa: F811
    return phases.close_regular_phase(season["a"], season["staff"])


def paused(competition):
    return brackets.paused_ties(competition)


def test_a_paused_tie_blocks_its_stage_until_the_tribunal_unpauses(season, playoffs):  # noqa: F811
    staff, tribunal = season["staff"], season["tribunal"]
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    bracket_decisions.pause_tie(
        playoffs, staff, tie="qf2", paused=True, reason="suspended J. Doe fielded"
    )
    assert set(paused(playoffs)) == {"qf2"}
    entry = AuditLog.objects.get(action="league.tie_paused")
    assert entry.comment == "suspended J. Doe fielded" and entry.after["paused"] == ["qf2"]
    assert paused(playoffs)["qf2"].paused_by == staff
    doc = brackets.competition_bracket(playoffs)
    assert {t["id"]: t["paused"] for t in doc["ties"]}["qf2"] is True
    stage = next(s for s in brackets.bracket_display(doc) if s["code"] == "a_quarter_finals")
    assert stage["paused"] and not stage["can_close"]
    count = Match.objects.count()
    with pytest.raises(UserError, match="paused"):
        phases.advance_stage(playoffs, staff, "a_quarter_finals")
    assert Match.objects.count() == count
    # Staff cannot unpause; the tribunal can.
    with pytest.raises(PermissionDenied):
        bracket_decisions.pause_tie(playoffs, staff, tie="qf2", paused=False, reason="ok")
    bracket_decisions.pause_tie(playoffs, tribunal, tie="qf2", paused=False, reason="no case")
    assert paused(playoffs) == {}
    assert AuditLog.objects.filter(action="league.tie_unpaused").count() == 1
    assert phases.advance_stage(playoffs, staff, "a_quarter_finals")["created"] == ["sf1", "sf2"]
    # Too late once the next tie exists.
    with pytest.raises(UserError, match="too late"):
        bracket_decisions.pause_tie(playoffs, staff, tie="qf2", paused=True, reason="x")


def test_bad_pauses_are_refused_and_nothing_saved(season, playoffs):  # noqa: F811
    staff = season["staff"]
    cases = [
        dict(tie="qf1", paused=True, reason="  "),
        dict(tie="nope", paused=True, reason="x"),
        dict(tie="qf1", paused=False, reason="x"),  # not paused
        dict(tie="qf1", paused="yes", reason="x"),
    ]
    for kwargs in cases:
        with pytest.raises((UserError, PermissionDenied)):
            bracket_decisions.pause_tie(
                playoffs, season["tribunal"] if kwargs["paused"] is False else staff, **kwargs
            )
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            bracket_decisions.pause_tie(playoffs, user, tie="qf1", paused=True, reason="x")
    assert paused(playoffs) == {}
    # Twice: the second is refused, one row and one audit entry.
    bracket_decisions.pause_tie(playoffs, staff, tie="qf1", paused=True, reason="x")
    with pytest.raises(UserError, match="already"):
        bracket_decisions.pause_tie(playoffs, staff, tie="qf1", paused=True, reason="x")
    assert AuditLog.objects.filter(action="league.tie_paused").count() == 1


def test_the_pages(client, season, playoffs):  # noqa: F811
    page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"}) + f"?c={playoffs.slug}"
    url = reverse("leagues:competition-bracket-pause", kwargs={"slug": playoffs.slug})
    data = {"tie": "qf1", "paused": "yes", "reason": "suspended fielded"}
    assert client.post(url, data).status_code == 302 and paused(playoffs) == {}  # sign in
    client.force_login(UserFactory(username="player"))
    assert client.post(url, data).status_code == 404
    client.force_login(season["tribunal"])
    assert client.post(url, data).status_code == 403
    client.force_login(season["staff"])
    assert url in client.get(page).content.decode()
    refused = client.post(url, data | {"paused": "maybe"})
    assert refused.status_code == 400  # the brackets page again, with the message
    assert paused(playoffs) == {}
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"].endswith("#tie-qf1")
    assert set(paused(playoffs)) == {"qf1"}
    # A double submit saves once: the second is refused (paused already), the page again.
    assert client.post(url, data).status_code == 400
    assert AuditLog.objects.filter(action="league.tie_paused").count() == 1
    public = client.get(reverse("leagues:competition", kwargs={"slug": playoffs.slug}))
    assert "paused: waiting for the tribunal" in public.content.decode()
    assert client.post(url, data | {"paused": "no"}).status_code == 403
    client.force_login(season["tribunal"])
    client.post(url, data | {"paused": "no", "reason": "cleared"})
    assert paused(playoffs) == {}


def test_a_tie_without_matches_cannot_be_paused(season, playoffs):  # noqa: F811
    with pytest.raises(UserError, match="no matches"):
        bracket_decisions.pause_tie(playoffs, season["staff"], tie="sf1", paused=True, reason="x")
    assert paused(playoffs) == {}
