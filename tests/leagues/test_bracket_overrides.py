"""Staff decisions on a bracket (issue 5; ANFPES T24 §1.2.2, §III.2, §V ¶3, §2.2): a slot
set by hand, a tie awarded by the tribunal, a third match's host chosen, and the Primera A
relegation list after abandonments — each with a reason, audited, refused with nothing
saved on bad input, on the staff brackets page."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from events.errors import UserError
from events.models import AuditLog
from leagues import finals
from leagues.models import Competition, Team
from tests.factories import UserFactory
from tests.leagues.test_finals_stages import (
    higher_seed_wins,
    home_wins,
    legs_of,
    play,
    season,  # noqa: F401 - fixture
)

pytestmark = pytest.mark.django_db


def bracket(competition):
    competition.refresh_from_db()
    return {t["id"]: t for t in finals.competition_bracket(competition)["ties"]}


def choices(competition):
    competition.refresh_from_db()
    return competition.staff_choices


@pytest.fixture
def playoffs(season):  # noqa: F811
    return finals.close_regular_phase(season["a"], season["staff"])


def test_a_slot_set_by_hand_feeds_the_next_tie(season, playoffs):  # noqa: F811
    staff = season["staff"]
    finals.set_bracket_slot(
        playoffs, staff, tie="sf1", side="first", team="t9", reason="t1 abandoned"
    )
    slot = bracket(playoffs)["sf1"]["slots"][0]
    assert slot["team"] == "t9" and slot["overridden"] and slot["fed_from"] == "winner of qf1"
    entry = AuditLog.objects.get(action="league.bracket_slot_set")
    assert entry.comment == "t1 abandoned" and entry.after == {"slots": {"sf1.first": "t9"}}
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    result = finals.advance_stage(playoffs, staff, "a_quarter_finals")
    assert result["created"] == ["sf1", "sf2"]
    # t9 replaces the winner of qf1 (t1); the better-placed t4 hosts leg 2.
    assert legs_of(playoffs)["sf1-2"] == ("sf1", 2, "t4", "t9")
    # Blank team: back to the source (only while the tie has no matches).
    with pytest.raises(UserError, match="matches already"):
        finals.set_bracket_slot(playoffs, staff, tie="sf1", side="first", team="", reason="x")


def test_bad_slots_are_refused_and_nothing_saved(season, playoffs):  # noqa: F811
    staff = season["staff"]
    cases = [
        dict(tie="sf1", side="first", team="t9", reason="  "),
        dict(tie="nope", side="first", team="t9", reason="x"),
        dict(tie="qf1", side="first", team="t9", reason="x"),  # has matches
        dict(tie="sf1", side="third", team="t9", reason="x"),
        dict(tie="sf1", side="first", team="t99", reason="x"),
    ]
    for kwargs in cases:
        with pytest.raises(UserError):
            finals.set_bracket_slot(playoffs, staff, **kwargs)
    for user in (season["tribunal"], UserFactory(username="player")):
        with pytest.raises(PermissionDenied):
            finals.set_bracket_slot(playoffs, user, tie="sf1", side="first", team="t9", reason="x")
    with pytest.raises(UserError):
        finals.set_bracket_slot(season["a"], staff, tie="sf1", side="first", team="t9", reason="x")
    assert choices(playoffs) == {} and not AuditLog.objects.filter(action__startswith="league.b")


def test_the_tribunal_awards_a_tie(season, playoffs):  # noqa: F811
    tribunal, staff = season["tribunal"], season["staff"]
    # Staff cannot award; a team outside the tie, a tie without both teams: refused.
    with pytest.raises(PermissionDenied):
        finals.award_tie(playoffs, staff, tie="qf4", team="t6", reason="x")
    for kwargs in (
        dict(tie="qf4", team="t1", reason="x"),
        dict(tie="sf1", team="t1", reason="x"),
        dict(tie="qf4", team="t6", reason=""),
    ):
        with pytest.raises(UserError):
            finals.award_tie(playoffs, tribunal, **kwargs)
    assert choices(playoffs) == {}
    finals.award_tie(playoffs, tribunal, tie="qf4", team="t6", reason="t3 refused to play (§III.2)")
    tie = bracket(playoffs)["qf4"]
    assert (tie["winner"], tie["decided_by"]) == ("t6", "tribunal")
    assert AuditLog.objects.get(action="league.tie_awarded").after == {"awards": {"qf4": "t6"}}
    for tie_id in ("qf1", "qf2", "qf3"):
        higher_seed_wins(playoffs, tie_id)
    finals.advance_stage(playoffs, staff, "a_quarter_finals")
    assert legs_of(playoffs)["sf2-2"] == ("sf2", 2, "t2", "t6")
    # Withdrawn: blank team.
    finals.award_tie(playoffs, tribunal, tie="qf4", team="", reason="appeal upheld")
    assert choices(playoffs)["awards"] == {}


def test_staff_choose_the_third_match_host(season, playoffs):  # noqa: F811
    staff = season["staff"]
    for tie in ("qf1", "qf2", "qf3"):
        higher_seed_wins(playoffs, tie)
    home_wins(playoffs, "qf4")  # t3 v t6 level 1–1
    # Before it exists: the choice is kept and used when the third match is created.
    finals.set_third_match_home(playoffs, staff, tie="qf4", team="t6", reason="t3's venue")
    finals.advance_stage(playoffs, staff, "a_quarter_finals")
    assert legs_of(playoffs)["qf4-3"] == ("qf4", 3, "t6", "t3")
    # A scheduled third match: home and away are swapped.
    finals.set_third_match_home(playoffs, staff, tie="qf4", team="t3", reason="back")
    assert legs_of(playoffs)["qf4-3"] == ("qf4", 3, "t3", "t6")
    assert bracket(playoffs)["qf4"]["third_match_home"] == "t3"
    for kwargs in (
        dict(tie="qf4", team="t1", reason="x"),
        dict(tie="qf4", team="t6", reason=""),
        dict(tie="zz", team="t6", reason="x"),
    ):
        with pytest.raises(UserError):
            finals.set_third_match_home(playoffs, staff, **kwargs)
    with pytest.raises(PermissionDenied):
        finals.set_third_match_home(playoffs, season["tribunal"], tie="qf4", team="t6", reason="x")
    play(playoffs, "qf4-3", 2, 1)
    with pytest.raises(UserError, match="played already"):
        finals.set_third_match_home(playoffs, staff, tie="qf4", team="t6", reason="x")
    assert legs_of(playoffs)["qf4-3"][2] == "t3"
    assert AuditLog.objects.filter(action="league.third_home_set").count() == 2


def test_the_relegation_list_after_abandonments(season):  # noqa: F811
    s, staff = season["season"], season["staff"]
    finals.close_regular_phase(season["b"], staff)
    Team.objects.filter(season=s, code="t5").update(status="expelled")
    nxt = finals.season_next_divisions(s)
    assert any("relegation" in p for p in nxt["pending"])
    for teams, reason in ((["t20"], "x"), (["t16", "t16"], "x"), (["t16"], "")):
        with pytest.raises(UserError):
            finals.set_relegation(s, staff, teams=teams, reason=reason)
    with pytest.raises(PermissionDenied):
        finals.set_relegation(s, season["tribunal"], teams=["t16"], reason="x")
    assert choices(season["a"]) == {}
    finals.set_relegation(s, staff, teams=["t16"], reason="t5 expelled: one team down (§1.2.2)")
    nxt = finals.season_next_divisions(s)
    assert not any(p.startswith("relegation") for p in nxt["pending"])
    down = [m for m in nxt["moves"] if m["to"] == "primera_b"]
    assert [m["team"] for m in down] == ["t16"] and "staff decision" in down[0]["reason"]
    assert AuditLog.objects.get(action="league.relegation_set").after == {"relegation": ["t16"]}
    # Blank clears it.
    finals.set_relegation(s, staff, teams=[], reason="undo")
    assert "relegation" not in choices(season["a"])


def test_the_pages_and_their_permissions(client, season, playoffs, django_assert_max_num_queries):  # noqa: F811
    page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"})
    slot = reverse("leagues:competition-bracket-slot", kwargs={"slug": playoffs.slug})
    award = reverse("leagues:competition-bracket-award", kwargs={"slug": playoffs.slug})
    third = reverse("leagues:competition-bracket-third-home", kwargs={"slug": playoffs.slug})
    releg = reverse("leagues:competition-relegation", kwargs={"slug": "t24-primera-a"})
    slot_data = {"tie": "sf1", "side": "first", "team": "t9", "reason": "x"}
    award_data = {"tie": "qf1", "team": "t1", "reason": "x"}
    third_data = {"tie": "qf1", "team": "t8", "reason": "x"}
    releg_data = {"teams": ["t16"], "reason": "x"}
    posts = [(slot, slot_data), (award, award_data), (third, third_data), (releg, releg_data)]
    # Anonymous: sign in first.
    assert client.get(page).status_code == 302
    for url, data in posts:
        assert client.post(url, data).status_code == 302
    # A player without a role: 404 everywhere.
    client.force_login(UserFactory(username="player"))
    assert client.get(page).status_code == 404
    for url, data in posts:
        assert client.post(url, data).status_code == 404
    # The tribunal sees the page and awards; the staff-only actions answer 403.
    client.force_login(season["tribunal"])
    html = client.get(page).content.decode()
    assert award in html and slot not in html and releg not in html
    for url, data in ((slot, slot_data), (third, third_data), (releg, releg_data)):
        assert client.post(url, data).status_code == 403
    assert choices(playoffs) == {} and choices(season["a"]) == {}
    response = client.post(award, award_data)
    assert response["Location"].endswith("#tie-qf1")
    assert choices(playoffs)["awards"] == {"qf1": "t1"}
    # Staff: everything but the award.
    client.force_login(season["staff"])
    assert client.post(award, award_data | {"team": "t8"}).status_code == 403
    with django_assert_max_num_queries(14):
        html = client.get(page + f"?c={playoffs.slug}").content.decode()
    assert slot in html and third in html and releg in html and award not in html
    client.post(slot, slot_data | {"reason": ""})
    assert "slots" not in choices(playoffs)
    client.post(slot, slot_data)
    client.post(third, third_data)
    assert choices(playoffs)["slots"] == {"sf1.first": "t9"}
    assert choices(playoffs)["third_homes"] == {"qf1": "t8"}
    client.post(releg, releg_data)
    assert choices(Competition.objects.get(slug="t24-primera-a"))["relegation"]["teams"] == ["t16"]
    public = client.get(reverse("leagues:competition", kwargs={"slug": playoffs.slug}))
    text = public.content.decode()
    assert "set by staff" in text and "awarded by the tribunal" in text and page in text


def test_the_staff_page_on_primera_b_post_season(client, season, django_assert_max_num_queries):  # noqa: F811
    post = finals.close_regular_phase(season["b"], season["staff"])
    client.force_login(season["staff"])
    page = reverse("leagues:staff-brackets", kwargs={"slug": "t24"}) + f"?c={post.slug}"
    with django_assert_max_num_queries(24):
        html = client.get(page).content.decode()
    # The promotion final has no matches yet: its slots can be set by hand.
    assert 'id="tie-pfinal"' in html and "Set a slot by hand" in html
