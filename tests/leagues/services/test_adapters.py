"""One stored-match → rules converter (issue 13, :mod:`leagues.adapters`): the paths that
hand stored matches to the rules agree on a league final-phase leg played without its
stream link — a friendly that does not count "para todos los efectos" (ANFPES T24 §1.4
¶5): the bracket, the staff's replay check and the compliance table."""

import pytest

from leagues import adapters, brackets, staff_decisions
from leagues.models import Competition, Match
from leagues.services import compliance_inputs, import_season
from tests.leagues.seasons import small_season

pytestmark = pytest.mark.django_db

CUP = "t24-cup"


@pytest.fixture
def final_phase():
    """The small season whose knockout is a league final (tie ``final``, counted for the
    compliance table), its first leg played without a stream link."""
    doc = small_season()
    knockout = doc["competitions"][2]
    knockout["counts_for_compliance"] = True
    knockout["matches"] = [
        {
            **m,
            "tie": "final",
            "initial_deadline": "2026-05-01T23:59:00-03:00",
            "final_deadline": "2026-05-04T23:59:00-03:00",
            "status": "played",
            "reported_at": "2026-05-02T21:00:00-03:00",
            **({} if m["id"] == "k1" else {"stream_url": "https://youtube.com/live/x"}),
        }
        for m in knockout["matches"]
        if m["leg"] in (1, 2)
    ]
    return import_season(doc)


def stored(code):
    return Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug=CUP, code=code
    )


def test_an_unstreamed_final_phase_leg_counts_nowhere(final_phase):
    k1 = stored("k1")
    assert brackets.is_league_final_phase(k1.competition)
    # The bracket: the leg is shown, not counted.
    doc = brackets.competition_bracket(Competition.objects.get(slug=CUP))
    legs = {leg["match"]: leg["counted"] for tie in doc["ties"] for leg in tie["legs"]}
    assert legs == {"k1": False, "k2": True}
    # The staff's replay check: a friendly to replay.
    assert brackets.played_without_stream(k1)
    assert not brackets.played_without_stream(stored("k2"))
    # The compliance table: skipped like a void match (before issue 13 it was scored).
    inputs = compliance_inputs(final_phase)
    ids = {f.id for f in inputs.fixtures} | set(inputs.missing)
    assert f"{CUP}/k2" in ids
    assert f"{CUP}/k1" not in ids


def test_a_cup_knockout_leg_counts_without_a_link(final_phase):
    staff_decisions.decide(Competition.objects.get(slug=CUP), "cup", True)
    k1 = stored("k1")
    assert not brackets.is_league_final_phase(k1.competition)
    assert not brackets.played_without_stream(k1)
    ids = {f.id for f in compliance_inputs(final_phase).fixtures}
    assert {f"{CUP}/k1", f"{CUP}/k2"} <= ids


def test_instances_and_rows_convert_alike(final_phase):
    for code in ("k1", "k2"):
        row = Match.objects.filter(competition__slug=CUP, code=code).values(*adapters.MATCH_FIELDS)[
            0
        ]
        assert adapters.rule_match_of(stored(code)) == adapters.rule_match(row)
    Match.objects.filter(competition__slug=CUP, code="k1").update(must_stream=True)
    assert adapters.rule_match_of(stored("k1")).status == "void"
