"""Rating points of stored events and the rankings (TR Appendix A; docs/contracts.md §9;
docs/rules-vekn.md "Ratings"), through imported event files. The worked example:

10 players seated (p11 registered, never seated), 2 rounds and a final.
Round 1: p1–p5 (5, 0, 0, 0, 0), p6–p10 (3, 2, 0, 0, 0).
Round 2: p2, p3, p4, p6, p7 (4, 1, 0, 0, 0); p1, p5, p8, p9, p10 (0, 0, 5, 0, 0).
Preliminary order p1, p8, p2, p6, p7 (the finalists), p3, then the rest.
Final: p1, p8, p2, p6, p7 (0, 0, 3, 2, 0): p2 wins.
coef = log15(100) − 1 = 0.7005: winner + round(63.05) = 63, finalists + round(21.02) = 21.
"""

from datetime import date

import pytest

from events.interchange import export_event, import_event
from events.models import Event, Registration
from standings import rating_services
from standings.services import event_standings, standings_document
from tests.factories import OrganisationFactory

EXPECTED = {
    "p2": 5 + 4 * 7 + 8 * 2 + 63,  # 112: 4 + 3 VP, 1 GW + the final
    "p1": 5 + 4 * 5 + 8 * 1 + 21,  # 54
    "p8": 5 + 4 * 5 + 8 * 1 + 21,  # 54
    "p6": 5 + 4 * 5 + 8 * 1 + 21,  # 54: 3 + 2 VP
    "p7": 5 + 4 * 2 + 21,  # 34
    "p3": 5 + 4 * 1,  # 9
    "p4": 5,
    "p5": 5,
    "p9": 5,
    "p10": 5,
    "p11": None,  # never seated
}


def _seats(players, sheet):
    return [{"player": p, "vp": vp} for p, vp in zip(players, sheet, strict=True)]


def event_file(slug="rated-2026", day="2026-11-28", vekn_base=3200000, **extra):
    """The worked example of the module docstring as an event file."""
    ids = [f"p{i}" for i in range(1, 12)]
    return {
        "format": "arbitro.event/1",
        "ruleset": "vekn",
        "slug": slug,
        "name": f"Open {slug}",
        "date": day,
        "players": [
            {"id": p, "name": f"Player {p[1:]}", "vekn": str(vekn_base + int(p[1:]))} for p in ids
        ],
        "rounds": [
            {
                "number": 1,
                "final": False,
                "tables": [
                    _seats(["p1", "p2", "p3", "p4", "p5"], [5, 0, 0, 0, 0]),
                    _seats(["p6", "p7", "p8", "p9", "p10"], [3, 2, 0, 0, 0]),
                ],
            },
            {
                "number": 2,
                "final": False,
                "tables": [
                    _seats(["p2", "p3", "p4", "p6", "p7"], [4, 1, 0, 0, 0]),
                    _seats(["p1", "p5", "p8", "p9", "p10"], [0, 0, 5, 0, 0]),
                ],
            },
            {
                "number": 3,
                "final": True,
                "tables": [_seats(["p1", "p8", "p2", "p6", "p7"], [0, 0, 3, 2, 0])],
            },
        ],
        **extra,
    }


def _points(event):
    doc = standings_document(event_standings(event))
    return {row["player"]: row["rating_points"] for row in doc["standings"]}


def test_worked_example(db):
    event = import_event(event_file(), organisation=OrganisationFactory(), publish=True)
    assert _points(event) == EXPECTED


def test_national_championship_raises_the_bonus(db):
    # coef 0.9505: winner round(85.55) = 86, finalists round(28.52) = 29.
    event = import_event(event_file(championship="national"), publish=True)
    points = _points(event)
    assert points["p2"] == 5 + 28 + 16 + 86
    assert points["p1"] == 5 + 20 + 8 + 29
    assert points["p3"] == 9


def test_a_grand_prix_imports_exports_and_gets_no_bonus(db):
    """The event file's ``"grand_prix"`` level (docs/contracts.md §9): stored, written
    back, and rated as an ordinary event (TR Appendix A.2.1)."""
    from events.interchange import export_event

    event = import_event(event_file(slug="gp-2026", championship="grand_prix"), publish=True)
    assert event.championship == "grand_prix"
    assert export_event(event)["championship"] == "grand_prix"
    plain = import_event(event_file(), organisation=OrganisationFactory(), publish=True)
    assert _points(event) == _points(plain)


def test_set_restriction_unrates_every_row(db):
    event = import_event(event_file(sets=["Jyhad"]), publish=True)
    assert set(_points(event).values()) == {None}
    assert event.sets == ["Jyhad"] and not event.rated


def test_final_not_played_gives_null(db):
    data = event_file()
    for seat in data["rounds"][2]["tables"][0]:
        del seat["vp"]
    event = import_event(data, publish=True)
    assert set(_points(event).values()) == {None}


def test_disqualified_and_dropped_are_counted_and_rated(db):
    event = import_event(event_file(dropped=["p10"]), publish=True)
    Registration.objects.filter(event=event, code="p3").update(
        status=Registration.Status.DISQUALIFIED
    )
    result = event_standings(event)
    codes = {reg_id: info.code for reg_id, info in result.players.items()}
    points = {codes[r]: p for r, p in result.rating_points.items()}
    assert points["p3"] == 9  # absent from the rows, still rated
    assert points["p10"] == 5
    assert len(points) == 10  # N stays 10: the bonus is unchanged
    assert points["p2"] == EXPECTED["p2"]
    rows = _points(event)
    assert "p3" not in rows


def test_file_round_trip_keeps_the_rating_fields(db):
    event = import_event(
        event_file(championship="continental", online=True, game_format="v5", sets=[]),
        publish=True,
    )
    doc = export_event(event)
    assert (doc["championship"], doc["online"], doc["game_format"], doc["sets"]) == (
        "continental",
        True,
        "v5",
        [],
    )
    assert event.format == Event.Format.CONSTRUCTED


def test_limited_file_marks_the_format(db):
    event = import_event(event_file(game_format="limited"), publish=True)
    assert event.format == Event.Format.LIMITED
    assert export_event(event)["game_format"] == "limited"


def test_old_files_import_unchanged(db):
    event = import_event(event_file(), publish=True)
    assert (event.championship, event.online, event.game_format, event.sets) == (
        "",
        False,
        "standard",
        [],
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [("championship", "world"), ("online", "yes"), ("game_format", "sealed"), ("sets", "Jyhad")],
)
def test_bad_rating_fields_are_located(db, key, value):
    from events.interchange import EventFileError

    with pytest.raises(EventFileError) as error:
        import_event(event_file(**{key: value}))
    assert any(p.startswith(f"{key}:") for p in error.value.problems)


# --- rankings ------------------------------------------------------------------------------


def test_ranking_sums_and_ranks(db):
    import_event(event_file("a", "2026-10-01"), publish=True)
    import_event(event_file("b", "2026-11-01"), publish=True)
    rows = rating_services.ranking("constructed", False, date(2026, 12, 1))
    by_name = {r.name: r for r in rows}
    assert by_name["Player 2"].rating == 2 * 112
    assert by_name["Player 2"].rank == 1
    # p1, p8 and p6 tie at 108: one shared rank, "1224".
    assert [by_name[f"Player {i}"].rank for i in (1, 8, 6)] == [2, 2, 2]
    assert by_name["Player 7"].rank == 5
    assert "Player 11" not in by_name  # never seated


def test_ranking_only_counts_official_events_of_the_group(db):
    import_event(event_file("published", "2026-10-01"), publish=True)
    import_event(event_file("private", "2026-10-02"))  # standings not published
    import_event(event_file("online", "2026-10-03", online=True), publish=True)
    import_event(event_file("limited", "2026-10-04", game_format="limited"), publish=True)
    import_event(event_file("restricted", "2026-10-05", sets=["Jyhad"]), publish=True)
    rows = rating_services.ranking("constructed", False, date(2026, 12, 1))
    assert {e.event for r in rows for e in r.events} == {"published"}
    online = rating_services.ranking("constructed", True, date(2026, 12, 1))
    assert {e.event for r in online for e in r.events} == {"online"}
    limited = rating_services.ranking("limited", False, date(2026, 12, 1))
    assert {e.event for r in limited for e in r.events} == {"limited"}


def test_approved_results_count_without_publishing(db):
    event = import_event(event_file("approved", "2026-10-01"))
    Event.objects.filter(pk=event.pk).update(results_approved=True)
    rows = rating_services.ranking("constructed", False, date(2026, 12, 1))
    assert rows and rows[0].events[0].event == "approved"


def test_ranking_per_organisation(db):
    mine, other = OrganisationFactory(slug="mine"), OrganisationFactory(slug="other")
    import_event(event_file("m", "2026-10-01"), organisation=mine, publish=True)
    import_event(event_file("o", "2026-10-02"), organisation=other, publish=True)
    rows = rating_services.ranking("constructed", False, date(2026, 12, 1), organisation=mine)
    assert {e.event for r in rows for e in r.events} == {"m"}


def test_eighteen_and_twelve_months(db):
    import_event(event_file("old", "2025-06-01"), publish=True)  # exactly 18 months
    import_event(event_file("older", "2025-05-31"), publish=True)
    rows = rating_services.ranking("constructed", False, date(2026, 12, 1))
    assert rows == ()  # nothing in the last 12 months: nobody listed
    import_event(event_file("recent", "2026-11-30"), publish=True)
    rows = rating_services.ranking("constructed", False, date(2026, 12, 1))
    winner = next(r for r in rows if r.name == "Player 2")
    assert {e.event for e in winner.events} == {"old", "recent"}


@pytest.mark.parametrize("events", [2, 9])
def test_bounded_queries(db, django_assert_max_num_queries, events):
    for i in range(events):
        import_event(event_file(f"e{i}", f"2026-{(i % 9) + 1:02d}-15"), publish=True)
    # Cold: the stale events are computed and stored (the same count whatever their
    # number), then read; warm: four queries (which events are stale, the events, the
    # rows, the people).
    with django_assert_max_num_queries(16):
        cold = rating_services.ranking("constructed", False, date(2026, 12, 1))
    with django_assert_max_num_queries(4):
        rows = rating_services.ranking("constructed", False, date(2026, 12, 1))
    assert rows == cold
    assert len(rows) == 10
    top = rows[0]
    assert top.rating == min(events, 8) * 112 and len(top.events) == min(events, 8)


def test_stored_points_follow_a_change_of_the_event(db):
    from events.models import RatedResult
    from events.services import update_event

    event = import_event(event_file("e", "2026-10-01"), publish=True)
    assert rating_services.ranking("constructed", False, date(2026, 12, 1))[0].rating == 112
    assert RatedResult.objects.filter(event=event).count() == 10
    # A change of the event bumps its version: its stored points are recomputed.
    update_event(event, None, championship="national")
    top = rating_services.ranking("constructed", False, date(2026, 12, 1))[0]
    assert top.rating == 5 + 28 + 16 + 86
    update_event(event, None, sets=["Jyhad"])  # a set restriction unrates it
    assert rating_services.ranking("constructed", False, date(2026, 12, 1)) == ()
    assert not RatedResult.objects.filter(event=event).exists()
    assert rating_services.refresh(Event.objects.all()) == 0  # up to date


def test_player_history_says_why(db):
    for i in range(9):
        import_event(event_file(f"e{i}", f"2026-{i + 2:02d}-01"), publish=True)
    import_event(event_file("ancient", "2024-01-01"), publish=True)
    person = Registration.objects.get(event__slug="e0", code="p2").person
    history = rating_services.player_history(person, date(2026, 12, 1))
    whys = {e.result.event: e.why.value for e in history[("constructed", False)]}
    assert whys["ancient"] == "older_than_18_months"
    assert list(whys.values()).count("counted") == 8
    assert list(whys.values()).count("not_best_8") == 1
