"""The forms of the league pages (issue 13, ``leagues/forms_staff.py``): every page reads
its input through a form, and a bad value — not a number, a negative score, another
competition's fixture, a missing field, a null character — gives the page's message and
saves nothing, never a 500."""

import html
import re
from pathlib import Path

import pytest
from django.urls import reverse

from events.models import AuditLog
from leagues.models import (
    Adjustment,
    Competition,
    CupBonus,
    DraftLot,
    Match,
    Review,
    SeasonRole,
    StaffDecision,
    StaffSubmission,
    Team,
)
from leagues.services import import_season
from tests.factories import UserFactory
from tests.leagues.seasons import small_season

pytestmark = pytest.mark.django_db

PA = "t24-primera-a"
LEAGUES = Path(__file__).resolve().parents[3] / "leagues"


@pytest.fixture
def small():
    season = import_season(small_season())
    people = {
        "staff": UserFactory(username="forms-staff"),
        "tribunal": UserFactory(username="forms-tribunal"),
    }
    SeasonRole.objects.create(season=season, user=people["staff"], role="staff")
    SeasonRole.objects.create(season=season, user=people["tribunal"], role="tribunal")
    return {"season": season, **people}


def url(name, **kwargs):
    return reverse(f"leagues:{name}", kwargs=kwargs)


def snapshot():
    """Everything a league form may change: nothing must move after a refusal."""
    return (
        list(
            Match.objects.order_by("id").values_list(
                "status",
                "absent",
                "home_goals",
                "away_goals",
                "initial_deadline",
                "final_deadline",
                "must_stream",
                "stream_url",
            )
        ),
        list(Team.objects.order_by("id").values_list("status", flat=True)),
        list(Competition.objects.order_by("id").values_list("slug", flat=True)),
        Adjustment.objects.count(),
        CupBonus.objects.count(),
        Review.objects.count(),
        DraftLot.objects.count(),
        StaffDecision.objects.count(),
        StaffSubmission.objects.count(),
        AuditLog.objects.count(),
    )


def refused(client, target, data, message, *, status=(400,)):
    """Post ``data``, follow the redirect; the page shows ``message``, nothing changed."""
    before = snapshot()
    response = client.post(target, data, follow=True)
    assert response.status_code in status, (data, response.status_code)
    text = html.unescape(response.content.decode())
    assert message in text, (data, message)
    assert snapshot() == before, data
    return response


# --------------------------------------------------------------------------- no hand parsing
def test_no_league_view_reads_request_post_by_hand():
    """Every input is read by a form (``leagues/forms*.py``): no ``request.POST.get(``,
    ``request.POST[``, ``request.POST.getlist(`` nor an alias of ``request.POST``."""
    pattern = re.compile(r"request\.POST\s*(\.get\(|\.getlist\(|\[)|=\s*request\.POST\s*$", re.M)
    files = sorted(LEAGUES.glob("views*.py")) + [LEAGUES / "submissions.py"]
    assert len(files) >= 6
    offenders = [
        f"{path.name}:{text[: m.start()].count(chr(10)) + 1}"
        for path in files
        for text in [path.read_text()]
        for m in pattern.finditer(text)
    ]
    assert offenders == []


# --------------------------------------------------------------------------- match sanctions
def test_tribunal_form_refuses_bad_scores_and_deductions(client, small):
    client.force_login(small["tribunal"])
    target = url("match-tribunal", slug=PA, code="m3")
    ok = {"reason": "both absent", "confirm": "1"}
    for data, message in (
        ({**ok, "home_goals": "x", "away_goals": "1"}, "Goals must be whole numbers."),
        ({**ok, "home_goals": "-1", "away_goals": "1"}, "Goals must be between 0 and 30."),
        ({**ok, "home_goals": "31", "away_goals": "1"}, "Goals must be between 0 and 30."),
        ({**ok, "home_goals": "1"}, "Give both goals or neither."),
        ({**ok, "home_deduction": "two"}, "Deductions must be whole numbers."),
        ({**ok, "away_deduction": "500"}, "A deduction must be between −99 and 0 points."),
        ({"reason": "x"}, "Tick the confirmation box."),
        ({**ok, "reason": "a\x00b"}, "Null characters are not allowed."),
    ):
        refused(client, target, data, message)


def test_walkover_form_refuses_a_missing_or_unknown_side(client, small):
    client.force_login(small["staff"])
    target = url("match-walkover", slug=PA, code="m3")
    for data in ({"confirm": "1"}, {"confirm": "1", "absent": "both"}):
        refused(client, target, data, "Choose the team that did not play.")
    refused(client, target, {"absent": "home"}, "Tick the confirmation box.")
    # A refusal is the tribunal's, whatever else is wrong with the form.
    assert client.post(target, {"refusal": "1"}).status_code == 403


def test_incident_form_refuses_bad_choices_and_scores(client, small):
    client.force_login(small["tribunal"])
    target = url("match-incident", slug=PA, code="m3")
    ok = {"reason": "storm", "confirm": "1"}
    dc = {**ok, "kind": "disconnection", "period": "second_half", "agreement": "final"}
    reds = {**ok, "kind": "five_reds", "reduced": "home"}
    for data, message in (
        ({**ok, "kind": "flood"}, "Choose the incident: snow, disconnection or five sent off."),
        ({**ok}, "Choose the incident: snow, disconnection or five sent off."),
        ({**dc, "period": "lunch"}, "Choose when the disconnection happened."),
        ({**dc, "agreement": "maybe"}, "Choose what the players agreed"),
        ({**dc, "home_goals": "one", "away_goals": "0"}, "Goals must be whole numbers."),
        ({**reds, "home_goals": "-2", "away_goals": "0"}, "Goals must be between 0 and 30."),
        ({**reds, "reduced": "both", "home_goals": "0", "away_goals": "0"}, "five sent off."),
        ({**reds, "home_goals": "1"}, "Give both goals of the score."),
        ({"kind": "snow", "reason": "x"}, "Tick the confirmation box."),
    ):
        refused(client, target, data, message)


def test_broadcast_forms_refuse_bad_input(client, small):
    client.force_login(small["staff"])
    refused(
        client,
        url("match-must-stream", slug=PA, code="m3"),
        {"required": "maybe"},
        "Choose whether the broadcast is required.",
    )
    refused(
        client,
        url("match-replay-unstreamed", slug=PA, code="m1"),
        {"reason": "no link"},
        "Tick the confirmation box.",
    )
    refused(
        client,
        url("match-stream-link", slug=PA, code="m3"),
        {"stream_url": "x", "reason": "a\x00"},
        "Null characters are not allowed.",
    )


def test_void_form_needs_the_confirmation(client, small):
    client.force_login(small["tribunal"])
    refused(client, url("match-void", slug=PA, code="m3"), {"reason": "x"}, "Tick the confirmation")


def test_an_overlong_reason_gets_the_services_message(client, small):
    client.force_login(small["tribunal"])
    refused(
        client,
        url("match-void", slug=PA, code="m3"),
        {"reason": "x" * 5001, "confirm": "1"},
        "Reason: at most",
    )


# --------------------------------------------------------------------------- season pages
def test_deadlines_form_refuses_another_competitions_fixture(client, small):
    client.force_login(small["staff"])
    target = url("staff-deadlines", slug="t24")
    ok = {"competition": PA, "initial": "2026-12-01T20:00", "final": "2026-12-01T22:00"}
    for data, message in (
        ({**ok, "match": "g1"}, "No fixture g1 in this competition."),  # a Champagne match
        ({**ok, "round": "x"}, "Enter a whole number."),
        ({**ok, "round": "-3"}, "Ensure this value is greater than or equal to 1."),
        ({**ok, "competition": "elsewhere", "round": "1"}, "Select a valid choice."),
        ({**ok, "round": "1", "initial": ""}, "This field is required."),
    ):
        response = refused(client, target, data, message, status=(400,))
        assert response.context["form"].errors


def test_ledger_form_refuses_a_knockout_a_stranger_and_a_non_number(client, small):
    client.force_login(small["tribunal"])
    target = url("staff-adjustments", slug="t24")
    ok = {"competition": PA, "team": "t2", "points": "-1", "reason": "late"}
    for data in (
        {**ok, "competition": "t24-cup"},
        {**ok, "team": "t99"},
        {**ok, "points": "three"},
        {**ok, "points": "-500"},
        {k: v for k, v in ok.items() if k != "reason"},
    ):
        response = refused(client, target, data, "")
        assert response.context["form"].errors, data


def test_abandon_form_refuses_unknown_choices(client, small):
    client.force_login(small["tribunal"])
    target = url("staff-abandon", slug="t24", team="t1")
    ok = {"standing": "suspended", "award": "void", "reason": "left", "confirm": "1"}
    for data, message in (
        ({**ok, "award": "maybe"}, "Choose what happens to the remaining fixtures."),
        ({**ok, "standing": "gone"}, "Choose suspended or expelled."),
        ({**ok, "confirm": ""}, "Tick the confirmation box."),
    ):
        response = refused(client, target, data, message)
        assert message in response.context["errors"]


def test_review_form_refuses_a_bad_time(client, small):
    client.force_login(small["staff"])
    target = url("staff-reviews", slug="t24")
    refused(
        client,
        target,
        {"kind": "first_half", "confirm": "1", "at": "yesterday"},
        "Enter the date and time as YYYY-MM-DD HH:MM.",
    )
    refused(client, target, {"kind": "first_half"}, "Tick the confirmation: a review is held once.")
    refused(client, target, {"kind": "nope", "confirm": "1"}, "Unknown review.")


def test_draft_form_refuses_a_null_character(client, small):
    client.force_login(small["staff"])
    response = refused(
        client,
        url("staff-draft", slug="t24"),
        {"base": "t1\nt2\x00"},
        "Null characters are not allowed.",
        status=(400,),
    )
    assert response.context["base_text"] == "t1\nt2\x00"  # what was typed is not lost


# --------------------------------------------------------------------------- final phases, cups
def test_cup_bonus_form_refuses_bad_points_and_teams(client, small):
    client.force_login(small["staff"])
    target = url("staff-cup-bonus", slug="t24")
    ok = {"team": "t1", "points": "3", "reason": "won"}
    for data, message in (
        ({**ok, "points": "three"}, "The points must be a whole number."),
        ({**ok, "points": ""}, "The points must be a whole number."),
        ({**ok, "points": "0"}, "The points must not be 0"),
        ({**ok, "points": "-5000"}, "The points must be between −999 and 999."),
        ({**ok, "team": "t99"}, "Unknown team id: t99."),
        ({**ok, "reason": ""}, "Give the reason for the bonus points."),
    ):
        refused(client, target, data, message)  # the cup's page again, 400


def test_champagne_form_refuses_bad_legs_dates_and_draws(client, small):
    client.force_login(small["staff"])
    target = url("staff-champagne", slug="t24")
    ok = {"base": "tables", "method": "seed", "seed": "1"}
    for data, message in (
        ({**ok, "legs": "3"}, "Legs: 1 (one match) or 2 (home and away)."),
        ({**ok, "start": "tomorrow"}, "The start date must be written YYYY-MM-DD."),
        ({**ok, "method": "manual", "order": "t1 A extra"}, "write the team id and the group"),
    ):
        response = refused(client, target, data, message, status=(400,))
        assert response.context["form"]["seed"] == "1"  # what was typed is shown again


def test_nucommunity_form_refuses_a_bad_number_of_groups(client, small):
    client.force_login(small["staff"])
    target = url("staff-nucommunity", slug="t24")
    ok = {"format": "groups_knockout", "method": "seed", "seed": "1"}
    for data, message in (
        ({**ok, "groups": "many"}, "The number of groups must be a whole number."),
        ({**ok, "groups": "0"}, "Give the number of groups (1 to 8)."),
        ({**ok, "groups": "2", "legs": "x"}, "Legs: 1 (one match) or 2 (home and away)."),
    ):
        refused(client, target, data, message, status=(400,))


def test_bracket_and_phase_forms_refuse_bad_input(client, small):
    client.force_login(small["staff"])
    refused(
        client,
        url("competition-bracket-final-four", slug="t24-cup"),
        {"final_four": "maybe", "reason": "x"},
        "Choose on or off.",
    )
    refused(
        client,
        url("competition-advance-stage", slug="t24-cup"),
        {"stage": "final"},
        "Tick the confirmation to close the stage.",
    )
    refused(
        client,
        url("competition-close-group-stage", slug="t24-champagne"),
        {},
        "Tick the confirmation: the knockouts are created from the tables.",
    )
    refused(
        client,
        url("competition-close-regular-phase", slug=PA),
        {"final_four": "yes"},
        "Tick the confirmation: the playoffs are created from the table.",
    )
    refused(
        client,
        url("competition-decide-tie", slug=PA),
        {"order": ["t1", "t1"], "reason": "a\x00"},
        "Null characters are not allowed.",
    )
    refused(
        client,
        url("competition-relegation", slug=PA),
        {"teams": ["t1"], "reason": ""},
        "Give the reason for the decision.",
    )


def test_a_malformed_client_id_runs_the_form_as_without_one(client, small):
    client.force_login(small["tribunal"])
    target = url("match-void", slug=PA, code="m3")
    response = client.post(target, {"reason": "x", "confirm": "1", "client_id": "not-a-uuid"})
    assert response.status_code == 302
    assert Match.objects.get(competition__slug=PA, code="m3").status == "void"
    assert StaffSubmission.objects.count() == 0


# --------------------------------------------------------------------------- never a 500
FIELDS = (
    "reason absent refusal home_goals away_goals home_deduction away_deduction kind period "
    "agreement reduced required stream_url stage order_across final_four base primera_a "
    "primera_b newcomers method seed order slug name legs start format teams groups team "
    "points tie side action at competition round match initial final standing award agree "
    "approve client_id"
).split()
GARBAGE = ("", "x", "-1", "9" * 30, "1.5", "a\x00b", "2026-02-30T25:99")
POSTED_PAGES = [
    ("staff-deadlines", {"slug": "t24"}),
    ("staff-adjustments", {"slug": "t24"}),
    ("staff-abandon", {"slug": "t24", "team": "t1"}),
    ("staff-reviews", {"slug": "t24"}),
    ("staff-draft", {"slug": "t24"}),
    ("staff-champagne", {"slug": "t24"}),
    ("staff-nucommunity", {"slug": "t24"}),
    ("staff-cup-bonus", {"slug": "t24"}),
    ("competition-decide-tie", {"slug": PA}),
    ("competition-close-regular-phase", {"slug": PA}),
    ("competition-advance-stage", {"slug": "t24-cup"}),
    ("competition-close-group-stage", {"slug": "t24-champagne"}),
    ("competition-bracket-slot", {"slug": "t24-cup"}),
    ("competition-bracket-award", {"slug": "t24-cup"}),
    ("competition-bracket-third-home", {"slug": "t24-cup"}),
    ("competition-bracket-final-four", {"slug": "t24-cup"}),
    ("competition-relegation", {"slug": PA}),
    ("match-walkover", {"slug": PA, "code": "m3"}),
    ("match-void", {"slug": PA, "code": "m3"}),
    ("match-tribunal", {"slug": PA, "code": "m3"}),
    ("match-incident", {"slug": PA, "code": "m3"}),
    ("match-must-stream", {"slug": PA, "code": "m3"}),
    ("match-replay-unstreamed", {"slug": PA, "code": "m1"}),
    ("match-stream-link", {"slug": PA, "code": "m3"}),
    ("excuse-answer", {"slug": PA, "code": "m3"}),
    ("excuse-decide", {"slug": PA, "code": "m3"}),
]


@pytest.mark.parametrize(("name", "kwargs"), POSTED_PAGES)
def test_garbage_in_every_field_is_never_a_500(client, small, name, kwargs):
    """Every field of every league form at once, filled with a blank, a word, a negative,
    a huge number, a decimal, a null character or an impossible date: an answer below 500
    (the test client raises a view's exception, so a bug fails the test)."""
    boss = UserFactory(username="forms-superuser", is_superuser=True, is_staff=True)
    client.force_login(boss)
    target = url(name, **kwargs)
    for value in GARBAGE:
        data = {field: value for field in FIELDS} | {"confirm": "1"}
        response = client.post(target, data)
        assert response.status_code < 500, (name, value)


@pytest.mark.parametrize(
    ("field", "text"),
    [("bookings", "home; A\x00B; yellow"), ("lineup", "home; Z\x00Z")],
)
def test_the_bookings_and_lineup_boxes_refuse_a_null_character(field, text):
    """Django's CharField refuses NUL characters in run_validators, which these boxes
    skip (their value is a parsed list): they refuse them themselves, before parsing."""
    from django.core.exceptions import ValidationError

    from leagues.forms import BookingsField, LineupField

    box = BookingsField(required=False) if field == "bookings" else LineupField(required=False)
    with pytest.raises(ValidationError, match="Null characters are not allowed"):
        box.clean(text)
    assert box.clean(text.replace("\x00", "")) != []


# --------------------------------------------------------------------------- M5: named limits
def test_a_text_too_long_names_its_field_and_the_limit():
    """Django's bare "Ensure this value has at most…" named no field on the league pages
    that show one message: each league form names the field and its limit."""
    from django.utils import translation

    from leagues.forms import DisputeForm, ReportForm

    form = DisputeForm({"reason": "x" * 5001})
    assert not form.is_valid()
    assert form.errors["reason"] == ["What is wrong?: at most 5000 characters (this one has 5001)."]
    form = ReportForm({"stream_url": "https://example.org/" + "v" * 490}, zone="UTC")
    assert not form.is_valid()
    assert form.errors["stream_url"][0].startswith("Stream link: at most 500 characters")
    with translation.override("es"):
        form = DisputeForm({"reason": "x" * 5001})
        assert not form.is_valid()
        assert "como máximo 5000 caracteres (este tiene 5001)" in form.errors["reason"][0]


def test_the_staff_pages_name_the_field_too_long(client, small):
    client.force_login(small["staff"])
    ok = {"competition": PA, "initial": "2026-12-01T20:00", "final": "2026-12-01T22:00"}
    refused(
        client,
        url("staff-deadlines", slug="t24"),
        {**ok, "match": "m" * 41},
        "Or one fixture (match id): at most 40 characters (this one has 41).",
    )
    client.force_login(small["tribunal"])
    refused(
        client,
        url("staff-adjustments", slug="t24"),
        {"competition": PA, "team": "t2", "points": "-1", "reason": "r" * 5001},
        "Reason: at most 5000 characters (this one has 5001).",
    )


# --------------------------------------------------------------------------- M6: 400 on refusal
@pytest.mark.parametrize(
    ("name", "kwargs", "data"),
    [
        ("staff-adjustments", {"slug": "t24"}, {"competition": PA, "team": "t2", "points": "x"}),
        ("staff-abandon", {"slug": "t24", "team": "t1"}, {"standing": "gone"}),
        ("staff-reviews", {"slug": "t24"}, {"kind": "nope", "confirm": "1"}),
        ("match-void", {"slug": PA, "code": "m3"}, {"reason": "x"}),
        ("match-walkover", {"slug": PA, "code": "m3"}, {"absent": "nobody", "confirm": "1"}),
        ("competition-decide-tie", {"slug": PA}, {"order": ["t1", "t1"]}),
        ("competition-advance-stage", {"slug": "t24-cup"}, {"stage": "final"}),
        ("competition-bracket-final-four", {"slug": "t24-cup"}, {"final_four": "maybe"}),
        ("competition-relegation", {"slug": PA}, {"teams": ["t1"], "reason": ""}),
    ],
)
def test_a_refused_form_answers_400_with_the_page_again(client, small, name, kwargs, data):
    """As the events and penalties pages: an invalid POST is answered 400 with the page and
    its message, not 200 (nor a redirect to a 200 page)."""
    client.force_login(UserFactory(is_superuser=True))
    before = snapshot()
    response = client.post(url(name, **kwargs), data)
    assert response.status_code == 400, response.status_code
    assert b'class="msg error"' in response.content or b"errorlist" in response.content
    assert snapshot() == before


def test_a_booking_or_lineup_name_too_long_says_the_limit():
    from django.core.exceptions import ValidationError

    from leagues.forms import parse_bookings, parse_lineup

    for parse, line in ((parse_bookings, "home; {}; yellow"), (parse_lineup, "home; {}")):
        with pytest.raises(ValidationError) as refused:
            parse("\n" + line.format("n" * 201))
        assert refused.value.messages == ["Line 2: the name is too long (at most 200 characters)."]
