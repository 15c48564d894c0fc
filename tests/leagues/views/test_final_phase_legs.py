"""Final-phase legs (issue 14): deadlines from the day they are created, the Final Four on
one day and locked once started (ANFPES T24 §1.1.4), knockout legs first in *My
fixtures*, and each division's champion announced on the season page."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from events.errors import UserError
from leagues import phases, sanctions
from leagues.models import Match, Team
from leagues.rules.fixtures import matchday_deadlines
from tests.factories import UserFactory
from tests.leagues.views.test_finals_stages import (  # noqa: F401 (fixture)
    finish_stage,
    higher_seed_wins,
    play,
    season,
)

pytestmark = pytest.mark.django_db


def weeks(league_season):
    tz = ZoneInfo(league_season.time_zone)
    return matchday_deadlines(timezone.localdate(timezone=tz), 2, tz)


def test_final_phase_legs_get_deadlines_and_the_final_four_one_day(season):  # noqa: F811
    staff = season["staff"]
    week1, week2 = weeks(season["season"])
    playoffs = phases.close_regular_phase(season["a"], staff)
    qf = {m.code: m for m in playoffs.matches.all()}
    assert (qf["qf1-1"].initial_deadline, qf["qf1-1"].final_deadline) == (
        week1.initial,
        week1.final,
    )
    assert (qf["qf1-2"].initial_deadline, qf["qf1-2"].final_deadline) == (
        week2.initial,
        week2.final,
    )
    for tie in ("qf1", "qf2", "qf3", "qf4"):
        higher_seed_wins(playoffs, tie)
    phases.advance_stage(playoffs, staff, "a_quarter_finals")
    semis = list(playoffs.matches.filter(tie__in=["sf1", "sf2"]))
    assert len(semis) == 4
    # The Final Four: every semi-final leg on the same day (§1.1.4).
    assert {(m.initial_deadline, m.final_deadline) for m in semis} == {(week1.initial, week1.final)}
    # Before it starts staff may reschedule it; once a leg is played, no more.
    later = (week2.initial, week2.final)
    assert sanctions.move_deadlines(playoffs, staff, initial=later[0], final=later[1], round=2) == 4
    play(playoffs, "sf1-1", 1, 0)
    with pytest.raises(UserError, match="Final Four has started"):
        sanctions.move_deadlines(
            playoffs, staff, initial=week1.initial, final=week1.final, match=semis[2]
        )
    # The quarter-finals are not the Final Four: they can still move.
    moved = week1.final + timedelta(days=1)
    assert sanctions.move_deadlines(playoffs, staff, initial=moved, final=moved, round=1) == 8


def test_primera_b_post_season_legs_get_deadlines(season):  # noqa: F811
    post = phases.close_regular_phase(season["b"], season["staff"])
    week1, week2 = weeks(season["season"])
    legs = {m.leg: m.final_deadline for m in post.matches.filter(tie="psf1")}
    assert legs == {1: week1.final, 2: week2.final}


def test_final_phase_legs_come_first_in_my_fixtures(client, season):  # noqa: F811
    user = UserFactory(username="player-t1")
    Team.objects.filter(code="t1").update(user=user)
    playoffs = phases.close_regular_phase(season["a"], season["staff"])
    # Give t1 another fixture still to play, due before the playoffs' legs.
    league_match = season["a"].matches.filter(home__code="t1").first()
    soon = timezone.now() + timedelta(days=1)
    Match.objects.filter(pk=league_match.pk).update(
        status="scheduled", home_goals=None, away_goals=None, initial_deadline=soon,
        final_deadline=soon,
    )  # fmt: skip
    client.force_login(user)
    fixtures = client.get(reverse("leagues:my-fixtures")).context["fixtures"]
    assert [m.competition_id for m in fixtures][:2] == [playoffs.pk, playoffs.pk]
    assert fixtures[-1].pk == league_match.pk


def test_the_season_page_announces_each_divisions_champion(client, season):  # noqa: F811
    staff = season["staff"]
    url = reverse("leagues:season", kwargs={"slug": season["season"].slug})
    playoffs = phases.close_regular_phase(season["a"], staff)
    assert 'id="champions"' not in client.get(url).content.decode()
    phases.close_regular_phase(season["b"], staff)
    page = client.get(url).content.decode()
    # Primera B's champion is its 1st (§1.3.1): t17.
    assert 'id="champions"' in page and "Team 17" in page.split('id="champions"')[1][:600]
    finish_stage(playoffs, "a_quarter_finals", staff, ("qf1", "qf2", "qf3", "qf4"))
    finish_stage(playoffs, "a_semi_finals", staff, ("sf1", "sf2"))
    finish_stage(playoffs, "a_final", staff, ("final",))
    section = client.get(url).content.decode().split('id="champions"')[1].split("</section>")[0]
    assert "Team 1<" in section and "Team 17" in section
