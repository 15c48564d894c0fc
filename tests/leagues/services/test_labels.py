"""Translated labels of the bracket texts (leagues/labels.py, issue 5): in English they
read exactly as the rules' stable texts, every text the rules produce has a label (none
falls through untranslated), and the pages use them."""

import pytest
from django.utils import translation

from leagues import labels
from leagues.rules import brackets as bracket_rules


def every_source(spec):
    for tie in spec.ties:
        for source in (tie.first, tie.second):
            yield source
    for _code, source in spec.outcomes:
        yield source


SPECS = [
    bracket_rules.league_post_season(),
    bracket_rules.seeded_knockout("cl", "cl_winners", "cl_runners_up"),
    bracket_rules.seeded_knockout("conf", "cl_thirds", "cl_fourths"),
    bracket_rules.drawn_knockout("ns", "ns_draw", entrants=16),
]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.code)
def test_source_and_stage_labels_read_as_the_rules_in_english(spec):
    with translation.override("en"):
        for source in every_source(spec):
            assert str(labels.source_label(source.as_dict())) == source.label
        for stage in spec.stages:
            expected = bracket_rules.STAGES.get(stage)
            if expected is None:  # a cup round
                from leagues.brackets import cup_stage_name

                expected = cup_stage_name(stage)
            assert str(labels.stage_label(stage)) == expected


def test_every_waiting_text_of_the_rules_has_a_label():
    """Every text the rules say is a code with params (no sentence is parsed back), and
    every bracket code has a label."""
    from leagues.rules.texts import TEXTS, Reason

    assert set(TEXTS) - set(labels.LABELS) == {"text"}
    spec = bracket_rules.league_post_season()
    # The texts a real bracket produces: nothing played yet, tables open.
    standing = bracket_rules.Standing("primera_b", tuple(f"b{i}" for i in range(1, 17)), False)
    filled = bracket_rules.fill_bracket(spec, {"primera_b": standing})
    texts = {slot.waiting_for for view in filled.ties for slot in (view.first, view.second)}
    texts.discard(None)
    assert texts and all(isinstance(t, Reason) and t.code in labels.LABELS for t in texts)
    assert all(isinstance(t.spec.name, Reason) for t in filled.ties if t.spec.name)
    with translation.override("en"):
        result = Reason("waiting_result", {"tie": "qf1"})
        assert result == "the result of qf1"
        assert str(labels.waiting_label(result)) == "the result of qf1"
        assert str(labels.waiting_label("something new")) == "something new"


def test_pending_items_and_moves_have_labels():
    from leagues.rules.texts import Reason

    with translation.override("en"):
        liguilla = Reason("pending_liguilla", {"tie": "lig1"})
        assert liguilla == "lig1: the Liguilla tie to be decided and closed"
        assert str(labels.pending_label(liguilla)) == liguilla
        waiting = Reason(
            "pending_waiting", {"what": "relegation", "why": Reason("waiting_tie_in_table")}
        )
        assert waiting == "relegation: a tie in the table"
        assert str(labels.pending_label(waiting)) == "Relegation: waiting for a tie in the table"
        for code, params in (
            ("move_bottom_two", {}),
            ("move_champion_b", {}),
            ("move_promoted_b", {}),
            ("move_liguilla_stays_a", {"tie": "lig2"}),
        ):
            reason = Reason(code, params)
            assert str(labels.move_label(reason)) == reason
        promoted = Reason("move_liguilla_promoted", {"tie": "lig1"})
        assert promoted == "promoted: won the Liguilla de Promoción lig1 (ANFPES T24 §1.2.3)"
        assert (
            str(labels.move_label(promoted))
            == "promoted to Primera A: won the Liguilla de Promoción lig1 (ANFPES T24 §1.2.3)"
        )
        assert str(labels.nucommunity_format_label("groups_knockout")) == (
            "Groups, then a knockout"
        )


def test_labels_follow_the_active_language(monkeypatch):
    """A catalogue entry is used: with a fake Spanish catalogue the label changes."""
    from django.utils.translation import trans_real

    real = trans_real.gettext
    translation.gettext("x")  # the lazy proxy resolves through translation._trans

    def fake(message):
        return {"winner of %(tie)s": "ganador de %(tie)s", "final": "final (es)"}.get(
            message, real(message)
        )

    monkeypatch.setattr(translation._trans, "gettext", fake)
    with translation.override("es"):
        assert str(labels.source_label({"kind": "winner", "ref": "sf1"})) == "ganador de sf1"


def test_ordinals_in_each_language():
    from django.utils import translation

    from leagues.labels import ordinal_label

    assert [ordinal_label(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
    ]  # fmt: skip
    with translation.override("es"):
        assert ordinal_label(1) == "1.º" and ordinal_label(12) == "12.º"


def test_waiting_texts_of_missing_positions_are_translated():
    from django.utils import translation

    from leagues.labels import waiting_label
    from leagues.rules.texts import Reason

    missing = Reason(
        "waiting_missing_position", {"slot": bracket_rules.position("primera_a", 9).label}
    )
    table = Reason("waiting_table", {"table": "primera_a"})
    assert (missing, table) == ("no 9th of Primera A: staff decision", "the primera_a table")
    with translation.override("es"):
        assert waiting_label(missing) != "no 9th of Primera A: staff decision"
        assert waiting_label(table) != "the primera_a table"


def test_a_reason_is_its_english_text_in_json_and_keeps_its_code():
    """The API emits the rules' texts as plain strings; pages read the code and params."""
    import copy
    import json
    import pickle

    from leagues.rules.texts import Reason

    zone = bracket_rules.better_of(
        "primera_b", bracket_rules.loser("psf1"), bracket_rules.loser("psf2")
    ).label
    assert isinstance(zone, Reason) and zone.code == "source_better_of"
    assert json.dumps({"fed_from": zone}) == (
        '{"fed_from": "better-placed in Primera B of (loser of psf1, loser of psf2)"}'
    )
    for again in (pickle.loads(pickle.dumps(zone)), copy.deepcopy(zone)):
        assert again == zone and again.params["teams"][1].params == {"tie": "psf2"}
    with translation.override("en"):
        assert str(labels.label(zone)) == zone
