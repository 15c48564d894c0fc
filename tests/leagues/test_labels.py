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
    spec = bracket_rules.league_post_season()
    texts = {
        "staff decision: teams abandoned Primera A (ANFPES T24 §1.2.2)",
        "the Primera A table to close",
        "a tie in the table",
        "the title decider match (ANFPES T24 §1.3.1)",
        "a staff decision on a tie in the table",
        "the Primera B table to be closed",
        "the primera_a table",
        "the result of qf1",
        "staff to close the stage a_quarter_finals",
        "pfinal (another bracket)",
        "not in the bracket",
    }
    # The texts a real bracket produces: nothing played yet, tables open.
    standing = bracket_rules.Standing("primera_b", tuple(f"b{i}" for i in range(1, 17)), False)
    filled = bracket_rules.fill_bracket(spec, {"primera_b": standing})
    texts |= {slot.waiting_for for view in filled.ties for slot in (view.first, view.second)}
    texts.discard(None)
    for text in texts:
        assert labels._match_waiting(text), text
    with translation.override("en"):
        assert str(labels.waiting_label("the result of qf1")) == "the result of qf1"
        assert str(labels.waiting_label("something new")) == "something new"


def test_pending_items_and_moves_have_labels():
    with translation.override("en"):
        assert (
            str(labels.pending_label("lig1: the Liguilla tie to be decided and closed"))
            == "lig1: the Liguilla tie to be decided and closed"
        )
        assert str(labels.pending_label("relegation: a tie in the table")) == (
            "Relegation: waiting for a tie in the table"
        )
        for reason in (
            "relegated: last two of Primera A (ANFPES T24 §1.2.1)",
            "Primera B champion (ANFPES T24 §1.3.1)",
            "promotion final winner (ANFPES T24 §1.3.2)",
            "stays in Primera A: won the Liguilla de Promoción lig2 (ANFPES T24 §1.2.3)",
        ):
            assert str(labels.move_label(reason)) == reason
        assert (
            str(
                labels.move_label(
                    "promoted: won the Liguilla de Promoción lig1 (ANFPES T24 §1.2.3)"
                )
            )
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

    with translation.override("es"):
        assert waiting_label("no 9th of Primera A: staff decision") != (
            "no 9th of Primera A: staff decision"
        )
        assert waiting_label("the primera_a table") != "the primera_a table"
