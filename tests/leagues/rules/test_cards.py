"""Card accumulation and suspensions in the final phases (ANFPES T24 §1.4, §2.2;
docs/leagues-final-phases.md "Cards and suspensions"; docs/contracts.md §6 suspensions). No
database.

The semi-final case mirrors a well-known one: Michael Ballack, booked in Germany's 2002
World Cup semi-final against South Korea with a booking already to his name, missed the
final. The footballer and matches below are made up; only the rule is the point.
"""

import pytest

from leagues.rules import LeagueRuleError
from leagues.rules.cards import CAUSES, Named, suspensions
from leagues.rules.season import Card, Match


def match(id, home, away, cards=(), *, tie=None, leg=None, status="played"):
    goals = (1, 0) if status == "played" else (None, None)
    return Match(
        id,
        1,
        home,
        away,
        *goals,
        status=status,
        cards=tuple(Card(*c) for c in cards),
        tie=tie,
        leg=leg,
    )


def test_second_yellow_in_the_semi_final_suspends_for_the_final():
    matches = [
        match("qf1-1", "ger", "usa", [("ger", "M. Ballack", "yellow")], tie="qf1", leg=1),
        match("qf1-2", "usa", "ger", tie="qf1", leg=2),
        match("sf1-1", "kor", "ger", [("ger", "M. Ballack", "yellow")], tie="sf1", leg=1),
        match("sf1-2", "ger", "kor", tie="sf1", leg=2),
        match("final-1", "ger", "bra", tie="final", leg=1, status="scheduled"),
    ]
    # After the first semi-final leg the second leg is the next match …
    early = suspensions(matches[:3] + [match("sf1-2", "ger", "kor", status="scheduled")])
    assert early.suspended("ger") == ("M. Ballack",)
    (pending,) = early.pending["ger"]
    assert pending.cause == "two_yellows" and pending.next_match == "sf1-2"
    assert [(c.match, c.card) for c in pending.cards] == [("qf1-1", "yellow"), ("sf1-1", "yellow")]
    # … here the second yellow comes in the semi-final's last leg: out of the final.
    late = [
        match("qf1-1", "ger", "usa", [("ger", "M. Ballack", "yellow")], tie="qf1", leg=1),
        match("sf1-2", "ger", "kor", [("ger", "M. Ballack", "yellow")], tie="sf1", leg=2),
        match("final-1", "ger", "bra", tie="final", leg=1, status="scheduled"),
    ]
    report = suspensions(late)
    (suspension,) = report.pending["ger"]
    assert (suspension.footballer, suspension.caused_in, suspension.next_match) == (
        "M. Ballack",
        "sf1-2",
        "final-1",
    )
    assert report.pending.get("kor") is None and report.pending.get("bra") is None
    assert report.as_dict()["suspensions"][0]["cards"] == [
        {"match": "qf1-1", "tie": "qf1", "card": "yellow"},
        {"match": "sf1-2", "tie": "sf1", "card": "yellow"},
    ]


def test_a_red_card_suspends_for_the_next_match_then_it_is_served():
    matches = [
        match("m1", "a", "b", [("a", "X", "red")]),
        match("m2", "b", "a"),
        match("m3", "a", "b", status="scheduled"),
    ]
    report = suspensions(matches)
    assert report.pending == {}
    (served,) = report.served
    assert (served.cause, served.caused_in, served.served_in) == ("red", "m1", "m2")
    assert [c.card for c in served.cards] == ["red"]


def test_two_yellows_in_one_match_are_a_sending_off_not_an_accumulation():
    report = suspensions([match("m1", "a", "b", [("a", "X", "yellow"), ("a", "X", "yellow")])])
    (suspension,) = report.pending["a"]
    assert suspension.cause == "second_yellow" and len(suspension.cards) == 2
    assert report.yellows == {}  # not added to the accumulation


def test_yellow_count_restarts_after_a_suspension():
    y = [("a", "X", "yellow")]
    matches = [match("m1", "a", "b", y), match("m2", "a", "b", y), match("m3", "a", "b")]
    matches += [match("m4", "a", "b", y)]
    report = suspensions(matches)
    assert [s.served_in for s in report.served] == ["m3"]
    assert report.pending == {} and report.yellows == {("a", "X"): 1}
    # One more yellow: a new suspension.
    again = suspensions([*matches, match("m5", "a", "b", y)])
    assert [s.caused_in for s in again.pending["a"]] == ["m5"]


def test_counted_per_team_and_names_trimmed():
    matches = [
        match("m1", "a", "b", [("a", "Same Name", "yellow"), ("b", "Same Name", "yellow")]),
        match("m2", "a", "b", [("a", " Same  Name ", "yellow")]),
    ]
    report = suspensions(matches)
    assert report.suspended("a") == ("Same Name",)
    assert report.suspended("b") == ()
    assert report.yellows == {("b", "Same Name"): 1}


def test_liguilla_wipes_yellows_unless_a_suspension_is_pending():
    matches = [
        # Promotion final of b4 (who will lose it and go to the Liguilla, lig3).
        match(
            "pf-1",
            "b4",
            "b2",
            [("b4", "One Yellow", "yellow"), ("b4", "Two Yellows", "yellow")],
            tie="pfinal",
            leg=1,
        ),
        match(
            "pf-2",
            "b2",
            "b4",
            [("b4", "Two Yellows", "yellow"), ("b4", "Sent Off", "red")],
            tie="pfinal",
            leg=2,
        ),
        match("lig3-1", "b4", "a14", tie="lig3", leg=1),
        match("lig3-2", "a14", "b4", [("b4", "One Yellow", "yellow")], tie="lig3", leg=2),
    ]
    report = suspensions(matches)
    served = {(s.footballer, s.cause): s.served_in for s in report.served}
    # Pending suspensions survive the wipe and are served in the Liguilla; the red too.
    assert served == {("Two Yellows", "two_yellows"): "lig3-1", ("Sent Off", "red"): "lig3-1"}
    # "One Yellow" was wiped on reaching the Liguilla: his Liguilla yellow is his first.
    assert report.pending == {}
    assert report.yellows == {("b4", "One Yellow"): 1}
    # Without the wipe (no Liguilla ties) he would be suspended.
    unwiped = suspensions(matches, liguilla_ties=())
    assert unwiped.suspended("b4") == ("One Yellow",)


def test_yellow_kept_for_a_footballer_with_a_pending_suspension_at_the_wipe():
    matches = [
        match("z1", "b6", "b9", [("b6", "P", "yellow")], tie="zb_sf2", leg=1),
        match("z2", "b9", "b6", [("b6", "P", "red")], tie="zb_sf2", leg=2),
        match("l1", "a13", "b6", tie="lig2", leg=1),
        match("l2", "b6", "a13", [("b6", "P", "yellow")], tie="lig2", leg=2),
    ]
    report = suspensions(matches)
    assert [(s.cause, s.served_in) for s in report.served] == [("red", "l1")]
    # His first yellow was not wiped (suspension pending at the wipe): two yellows now.
    assert report.suspended("b6") == ("P",)


def test_void_matches_neither_give_cards_nor_serve():
    matches = [
        match("m1", "a", "b", [("a", "X", "red")]),
        match("friendly", "a", "b", [("a", "Y", "red")], status="void"),
        match("m2", "a", "b", status="scheduled"),
    ]
    report = suspensions(matches)
    assert report.suspended("a") == ("X",)
    assert report.pending["a"][0].next_match == "m2"


def test_friendlies_without_stream_do_not_count_when_streaming_is_required():
    link = "https://youtube.com/live/y"
    matches = [
        Match("m1", 1, "a", "b", 1, 0, "played", stream_url=link, cards=(Card("a", "X", "red"),)),
        match("m2", "a", "b"),  # no stream link: a friendly in a league final phase
        Match("m3", 1, "a", "b", 1, 0, "played", stream_url=link),
    ]
    assert [s.served_in for s in suspensions(matches).served] == ["m2"]
    strict = suspensions(matches, require_stream=True)
    assert [s.served_in for s in strict.served] == ["m3"]


def test_a_walkover_serves_and_a_pending_one_has_no_next_match():
    # m1 red: pending, served by the walkover m2; m3 a second red then pending.
    matches = [
        match("m1", "a", "b", [("a", "X", "red")]),
        Match("m2", 1, "a", "b", status="walkover", absent="away"),
        match("m3", "a", "b", [("a", "X", "red")]),
    ]
    report = suspensions(matches)
    assert [s.served_in for s in report.served] == ["m2"]
    assert report.pending["a"][0].caused_in == "m3" and report.pending["a"][0].next_match is None


def test_lineups_and_card_reports_naming_a_suspended_footballer_flag_the_fixture():
    matches = [
        match("m1", "a", "b", [("a", "X", "red")]),
        match("m2", "a", "b", [("a", "X", "yellow")]),
        match("m3", "a", "b", [("a", "Z", "red")]),
        match("m4", "b", "a", status="scheduled"),
    ]
    lineups = {"m2": {"a": ["X", "W"]}, "m4": {"a": ["Z"], "b": ["X"]}}
    report = suspensions(matches, lineups=lineups)
    flags = [(f.match, f.team, f.footballer, f.where) for f in report.flags]
    assert flags == [
        ("m2", "a", "X", "lineup"),
        ("m2", "a", "X", "cards"),
        ("m4", "a", "Z", "lineup"),
    ]
    assert report.flags[0].suspension.cause == "red"
    assert report.as_dict()["flags"][0]["suspension"]["caused_in"] == "m1"


def test_cards_can_be_given_apart_from_the_matches():
    matches = [match("m1", "a", "b"), match("m2", "a", "b")]
    cards = {"m1": [Card("b", "Q", "yellow")], "m2": [Card("b", "Q", "yellow")]}
    assert suspensions(matches, cards).suspended("b") == ("Q",)


@pytest.mark.parametrize(
    "matches",
    [
        [match("m1", "a", "b", [("c", "X", "red")])],
        [match("m1", "a", "b", [("a", "X", "blue")])],
        [match("m1", "a", "b"), match("m1", "a", "b")],
    ],
)
def test_invalid_input(matches):
    with pytest.raises(LeagueRuleError):
        suspensions(matches)


def test_cause_codes():
    assert set(CAUSES) == {"two_yellows", "second_yellow", "red"}


# --------------------------------------------------------------------------- squads
def test_a_squad_footballer_is_one_footballer_however_his_name_is_typed():
    """docs/leagues.md "Squads": a card naming a squad footballer counts for him, by his
    id, whatever was typed; two footballers whose typed names differ are two."""
    matches = [
        match("m1", "a", "b", [("a", "M. Ballack", "yellow", 7)], tie="qf1", leg=1),
        match("m2", "b", "a", [("a", "Michael Ballack", "yellow", 7)], tie="qf1", leg=2),
        match("m3", "a", "c", tie="sf1", leg=1, status="scheduled"),
    ]
    report = suspensions(matches)
    (pending,) = report.pending["a"]
    assert (pending.footballer, pending.squad, pending.cause) == ("M. Ballack", 7, "two_yellows")
    assert report.as_dict()["suspensions"][0]["squad"] == 7
    # Without the squad the two names are two footballers, one yellow each.
    typed = [
        match(m.id, m.home, m.away, [c[:3] for c in cards], tie=m.tie, leg=m.leg, status=m.status)
        for m, cards in zip(
            matches,
            ([("a", "M. Ballack", "yellow")], [("a", "Michael Ballack", "yellow")], []),
            strict=True,
        )
    ]
    assert suspensions(typed).pending == {}
    same = [typed[0], match("m2", "b", "a", [("a", "M. Ballack", "yellow")], tie="qf1", leg=2)]
    assert "squad" not in suspensions(same + typed[2:]).as_dict()["suspensions"][0]


def test_a_suspended_squad_footballer_in_a_lineup_is_flagged_by_id():
    """The lineup names him otherwise ("Ballack"): his id still flags the fixture, and the
    match does not serve the suspension (§1.4 ¶3)."""
    matches = [
        match("m1", "a", "b", [("a", "M. Ballack", "red", 7)], tie="qf1", leg=1),
        match("m2", "b", "a", tie="qf1", leg=2),
    ]
    lineups = {"m2": {"a": [Named("Ballack", 7)]}}
    report = suspensions(matches, lineups=lineups)
    (flag,) = report.flags
    assert (flag.match, flag.footballer, flag.where, flag.suspension.squad) == (
        "m2",
        "M. Ballack",  # the name first given
        "lineup",
        7,
    )
    assert report.served == () and report.pending["a"][0].squad == 7
    # A plain name that is not his: the suspension is served.
    served = suspensions(matches, lineups={"m2": {"a": ["Ballack"]}})
    assert served.flags == () and served.served[0].served_in == "m2"
