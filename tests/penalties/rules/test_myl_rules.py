"""Mitos y Leyendas penalties: the catalogue (MyL conduct §2.1–§3.4.3), the severity table
(§4.2), the criteria (§4.3), repeats across events (docs/rules-myl-penalties.md
"How a penalty is proposed") and errors.

The expected values are written by hand from the rulebook's text (quoted per section) and
the [choice]s of MyL conduct §2.1–§3.4.3; docs/rules-myl-penalties.md "How a penalty is proposed"
and ``penalties/myl_rules.py``'s docstring — independently of the module's own tables. No database.
"""

import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from penalties import myl_rules
from penalties.myl_rules import (
    CRITERIA,
    LEVELS,
    MYL_V1,
    RULESETS,
    SEVERITIES,
    VIOLENCE,
    ConditionError,
    InvalidCondition,
    Level,
    MissingCondition,
    PriorPenalty,
    Severity,
    UnknownCondition,
    UnknownInfraction,
    UnknownRuleset,
    assess,
    get_ruleset,
    render_markdown,
)

W, GL, DQ, SUS, PB = "warning", "game_loss", "disqualification", "suspension", "permanent_ban"
LEVE, MOD, GRAVE, MUY = "leve", "moderada", "grave", "muy_grave"

RULES_DIR = Path(__file__).resolve().parents[4] / "shared" / "rules"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules-myl-penalties.md"


def o(level, alt=(), also=()):
    """An expected outcome: (level, alternatives, also)."""
    return (level, tuple(alt), tuple(also))


# code: (severity, first instance, [repeat: offence 2, 3, … — the last holds after],
#        {condition: outcome when yes, first instance and repeats alike})
# "§4.2" in a comment: the section is silent about repeats, so the §4.2 escalated penalty
# of its severity applies, with the first-instance penalty (and the row's initial ones in
# between) as alternatives ([choice] 5 of the module).
CATALOGUE = {
    # §2.1 "Advertencia en primera instancia. Si la conducta persiste, pérdida de juego o
    # descalificación."
    "2.1": (LEVE, o(W), [o(GL, [DQ])], {}),
    # §2.2 "Advertencia en primera instancia. En caso de conducta persistente, pérdida de
    # juego o descalificación."
    "2.2": (MOD, o(W), [o(GL, [DQ])], {}),
    # §2.3 "Advertencia … En caso de reincidencia, se podrá imponer una penalización
    # adicional." — unnamed: §4.2 leve, "pérdida de juego si persiste".
    "2.3": (LEVE, o(W), [o(GL, [W])], {}),
    # §2.4 "Advertencia … En casos graves, el jugador puede ser excluido del torneo."
    # Repeat: §4.2 leve.
    "2.4": (LEVE, o(W), [o(GL, [W])], {"grave": o(DQ)}),
    # §2.5 "Advertencia … En caso de abuso o reincidencia, pérdida de juego o descalificación."
    "2.5": (MOD, o(W), [o(GL, [DQ])], {}),
    # §3.1.1 "Advertencia … En casos graves, descalificación y suspensión." Repeat: §4.2
    # moderada, "descalificación si es reiterativo" (initial "advertencia o pérdida de juego").
    "3.1.1": (MOD, o(W), [o(DQ, [W, GL])], {"grave": o(SUS, also=[DQ])}),
    # §3.1.2 "Advertencia … En casos graves, pérdida del juego, descalificación o prohibición
    # permanente a torneos." Repeat: §4.2 leve.
    "3.1.2": (LEVE, o(W), [o(GL, [W])], {"grave": o(GL, [DQ, PB])}),
    # §3.1.3 "Advertencia … En casos reiterados, suspensión temporal de torneos."
    "3.1.3": (GRAVE, o(W), [o(SUS)], {}),
    # §3.1.4 "Advertencia y si la conducta persiste, descalificación inmediata."
    "3.1.4": (MOD, o(W), [o(DQ)], {}),
    # §3.1.5 "Descalificación inmediata y suspensión permanente a torneos." Repeat: §4.2 muy
    # grave escalates to a permanent ban — the same.
    "3.1.5": (MUY, o(PB, also=[DQ]), [o(PB, also=[DQ])], {}),
    # §3.1.6 "Advertencia y si la conducta persiste, descalificación inmediata."
    "3.1.6": (MOD, o(W), [o(DQ)], {}),
    # §3.2.1 "Advertencia … En caso de reincidencia, pérdida del juego o descalificación."
    "3.2.1": (MOD, o(W), [o(GL, [DQ])], {}),
    # §3.2.2 "Advertencia inicial. En caso de reincidencia, pérdida del juego."
    "3.2.2": (MOD, o(W), [o(GL)], {}),
    # §3.2.3 "Advertencia y corrección inmediata. En caso de reincidencia, pérdida del juego."
    "3.2.3": (MOD, o(W), [o(GL)], {}),
    # §3.2.4 "Advertencia y corrección inmediata. Si es intencional, descalificación."
    # Repeat: §4.2 moderada.
    "3.2.4": (MOD, o(W), [o(DQ, [W, GL])], {"intentional": o(DQ)}),
    # §3.2.5 "Advertencia … En caso de reincidencia, sanción progresiva hasta la suspensión."
    "3.2.5": (
        LEVE,
        o(W),
        [o(GL, [DQ, SUS]), o(DQ, [GL, SUS]), o(SUS, [GL, DQ])],
        {},
    ),
    # §3.2.6 "Advertencia … En caso de abuso, pérdida de juego o descalificación."
    "3.2.6": (MOD, o(W), [o(GL, [DQ])], {}),
    # §3.3.1 "Advertencia inicial y corrección inmediata. Si se detecta intencionalidad o se
    # toma conocimiento en una etapa muy avanzada del torneo, descalificación." Repeat: §4.2
    # moderada.
    "3.3.1": (MOD, o(W), [o(DQ, [W, GL])], {"intentional": o(DQ), "late_stage": o(DQ)}),
    # §3.3.2 "Advertencia y corrección inmediata. En caso de reincidencia, pérdida de juego."
    "3.3.2": (MOD, o(W), [o(GL)], {}),
    # §3.3.3 "Advertencia inicial. Si se reincide, pérdida del juego o descalificación."
    "3.3.3": (MOD, o(W), [o(GL, [DQ])], {}),
    # §3.3.4 "Descalificación Inmediata. Si el acto es reiterado puede ser suspendido
    # temporalmente de futuros torneos."
    "3.3.4": (GRAVE, o(DQ), [o(SUS, also=[DQ])], {}),
    # §3.4.1 "Suspensión temporal … En casos graves, suspensión permanente." Repeat: §4.2
    # muy grave, "prohibición permanente".
    "3.4.1": (MUY, o(SUS), [o(PB, [SUS])], {"grave": o(PB)}),
    # §3.4.2 "Suspensión temporal de torneos." — §4.2 lists "difusión de información
    # confidencial" as muy grave.
    "3.4.2": (MUY, o(SUS), [o(PB, [SUS])], {}),
    # §3.4.3 "Descalificación del torneo y posible suspensión temporal." Repeat: §4.2 grave,
    # "suspensión temporal"; the DQ stays with it.
    "3.4.3": (GRAVE, o(DQ, [SUS]), [o(SUS, also=[DQ])], {}),
}
REQUIRED = {"grave", "intentional"}
SILENT = {"2.3", "2.4", "3.1.1", "3.1.2", "3.1.5", "3.2.4", "3.3.1", "3.4.1", "3.4.2", "3.4.3"}


def no(code):
    """Every required condition of ``code`` answered no."""
    return {name: False for name in CATALOGUE[code][3] if name in REQUIRED}


def prior(code, n, level=W):
    return [PriorPenalty(code, level) for _ in range(n)]


def got(a):
    return (a.level.value, tuple(x.value for x in a.alternatives), tuple(x.value for x in a.also))


def repeat_expected(code, offence):
    repeats = CATALOGUE[code][2]
    return repeats[min(offence - 2, len(repeats) - 1)]


# ---------------------------------------------------------------------------------------
# Levels, severity table, criteria (§4.1–§4.3; docs/contracts.md §2)
# ---------------------------------------------------------------------------------------


def test_level_codes_order_and_names():
    assert [level.value for level in Level] == [W, GL, DQ, SUS, PB]
    assert [level.severity for level in Level] == [0, 1, 2, 3, 4]
    assert {level.value: LEVELS[level].name_es for level in Level} == {
        W: "Advertencia",
        GL: "Pérdida de juego",
        DQ: "Descalificación del torneo",
        SUS: "Suspensión temporal",
        PB: "Prohibición permanente",
    }
    assert all(info.recorded for info in LEVELS.values())  # §4.4
    assert all(info.name and info.effect for info in LEVELS.values())


def test_severity_table():
    table = {
        s.value: (tuple(x.value for x in row.initial), row.escalated.value)
        for s, row in SEVERITIES.items()
    }
    assert table == {
        LEVE: ((W,), GL),
        MOD: ((W, GL), DQ),
        GRAVE: ((GL, DQ), SUS),
        MUY: ((DQ,), PB),
    }
    assert [s.label_es for s in Severity] == ["Leve", "Moderada", "Grave", "Muy grave"]
    assert all(row.examples and row.examples_es for row in SEVERITIES.values())


def test_violence_scale():
    assert [(v.code, v.level.value, tuple(x.value for x in v.alternatives)) for v in VIOLENCE] == [
        ("verbal_minor", W, ()),
        ("threats_or_harassment", GL, (DQ,)),
        ("physical", DQ, (PB,)),
    ]


def test_the_four_criteria():
    assert [c.code for c in CRITERIA] == ["intent", "impact", "repetition", "cooperation"]
    for c in CRITERIA:
        assert c.question.endswith("?") and c.question_es.startswith("¿")
        assert c.source == "MyL conduct §4.3"


# ---------------------------------------------------------------------------------------
# Ruleset and catalogue (§2.1–§3.4.3)
# ---------------------------------------------------------------------------------------


def test_registry():
    assert RULESETS["myl"] is MYL_V1 and get_ruleset("myl") is MYL_V1
    assert get_ruleset("myl", "v1") is MYL_V1
    assert (MYL_V1.code, MYL_V1.version) == ("myl", "v1")
    with pytest.raises(UnknownRuleset) as error:
        get_ruleset("vekn")
    assert isinstance(error.value, KeyError) and "vekn" in str(error.value)
    with pytest.raises(UnknownRuleset):
        get_ruleset("myl", "v2")


def _sections():
    path = RULES_DIR / "mitos-y-leyendas-conduct.es.txt"
    if not path.exists():
        pytest.skip(f"{path} not available")
    text = path.read_text(encoding="utf-8")
    body = text[text.index("\n2. Reglas") : text.index("\n4. Procedimiento")]
    found = {}
    for line in body.splitlines():
        m = re.match(r"^(\d+\.\d+(?:\.\d+)?)\.\s+(.*)$", line)
        if m:
            found[m.group(1)] = m.group(2)
    groups = {"3.1", "3.2", "3.3", "3.4"}  # headings over subsections
    return {code: title for code, title in found.items() if code not in groups}


def test_catalogue_covers_every_section_in_order():
    assert list(MYL_V1.catalogue) == list(_sections())
    assert list(MYL_V1.catalogue) == list(CATALOGUE)
    assert len(MYL_V1.catalogue) == 24  # 5 + 6 + 6 + 4 + 3


@pytest.mark.parametrize("code", CATALOGUE)
def test_spanish_title_is_the_sections(code):
    assert _sections()[code].startswith(MYL_V1.catalogue[code].title_es)


@pytest.mark.parametrize("code", CATALOGUE)
def test_catalogue_entry(code):
    severity, _, _, conditions = CATALOGUE[code]
    inf = MYL_V1.catalogue[code]
    assert inf.code == code and inf.source == f"MyL conduct §{code}"
    assert inf.severity == Severity(severity)
    assert [c.name for c in inf.conditions] == list(conditions)
    for c in inf.conditions:
        assert c.required == (c.name in REQUIRED)
        assert c.question.endswith("?") and c.question_es.startswith("¿")
    assert inf.name and inf.title_es and inf.definition
    assert inf.repeat_from_text == (code not in SILENT)
    assert inf.group.section == (code[0] if code[0] == "2" else code[:3])


def test_conditions_are_the_specs():
    named = {(code, c.name) for code, inf in MYL_V1.catalogue.items() for c in inf.conditions}
    assert named == {
        ("2.4", "grave"),
        ("3.1.1", "grave"),
        ("3.1.2", "grave"),
        ("3.4.1", "grave"),
        ("3.2.4", "intentional"),
        ("3.3.1", "intentional"),
        ("3.3.1", "late_stage"),
    }


def test_catalogue_is_immutable():
    with pytest.raises(TypeError):
        MYL_V1.catalogue["9.9"] = MYL_V1.catalogue["2.1"]
    with pytest.raises(FrozenInstanceError):
        MYL_V1.catalogue["2.1"].first = None


def test_choices_are_documented():
    assert len(MYL_V1.choices) >= 10
    doc = myl_rules.__doc__
    assert doc.count("**[choice]**") >= 13


# ---------------------------------------------------------------------------------------
# First instance and repeats, whole catalogue
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", CATALOGUE)
def test_first_instance(code):
    a = assess(code, no(code))
    first = CATALOGUE[code][1]
    assert got(a) == first
    assert (a.offence, a.baseline.value, a.infraction) == (1, first[0], code)
    assert a.source == f"MyL conduct §{code}"
    assert a.context == ()


@pytest.mark.parametrize("code", CATALOGUE)
@pytest.mark.parametrize("offence", [2, 3, 4, 5])
def test_repeats(code, offence):
    a = assess(code, no(code), prior(code, offence - 1))
    assert got(a) == repeat_expected(code, offence)
    assert a.offence == offence
    assert a.baseline.value == CATALOGUE[code][1][0]
    if code in SILENT:
        assert a.source == f"MyL conduct §{code}, §4.2"
        assert not a.repeat_from_text
    else:
        assert a.source == f"MyL conduct §{code}"
        assert a.repeat_from_text


@pytest.mark.parametrize(
    ("code", "condition"),
    [(code, name) for code, entry in CATALOGUE.items() for name in entry[3]],
)
@pytest.mark.parametrize("offence", [1, 2, 3])
def test_condition_yes(code, condition, offence):
    answers = {**no(code), condition: True}
    a = assess(code, answers, [], prior(code, offence - 1))
    expected_yes = CATALOGUE[code][3][condition]
    assert a.baseline.value == expected_yes[0]
    if offence == 1:
        assert got(a) == expected_yes
    else:
        # [choice] 8: the more severe of the condition's outcome and the repeat's; on a
        # tie, the condition's.
        repeat = repeat_expected(code, offence)
        sev = [level.value for level in Level].index
        assert got(a) == (expected_yes if sev(expected_yes[0]) >= sev(repeat[0]) else repeat)


def test_grave_and_intentional_examples_from_the_spec():
    assert got(assess("3.1.5")) == (PB, (), (DQ,))  # DQ + permanent ban
    assert got(assess("3.2.4", {"intentional": True})) == (DQ, (), ())
    assert got(assess("3.2.4", {"intentional": False})) == (W, (), ())
    assert got(assess("3.3.1", {"intentional": False, "late_stage": True})) == (DQ, (), ())
    assert got(assess("3.1.1", {"grave": True})) == (SUS, (), (DQ,))
    assert got(assess("2.4", {"grave": True})) == (DQ, (), ())
    assert got(assess("3.1.2", {"grave": True})) == (GL, (DQ, PB), ())
    assert got(assess("3.3.4", prior_events=prior("3.3.4", 1, DQ))) == (SUS, (), (DQ,))
    assert got(assess("3.2.2", history=prior("3.2.2", 1))) == (GL, (), ())


# ---------------------------------------------------------------------------------------
# Counting repeats (MyL conduct §2.1–§3.4.3; docs/rules-myl-penalties.md
# "How a penalty is proposed"; §4.3 "Reincidencia")
# ---------------------------------------------------------------------------------------


def test_history_and_prior_events_both_count():
    a = assess("3.2.5", history=prior("3.2.5", 1), prior_events=prior("3.2.5", 1))
    assert a.offence == 3 and a.level.value == DQ
    assert (a.in_event, a.earlier_events) == (1, 1)
    assert a.context == (
        "1 earlier penalty for §3.2.5 in this event",
        "1 earlier penalty for §3.2.5 in earlier events",
    )


def test_an_earlier_event_alone_makes_a_repeat():
    a = assess("2.1", prior_events=prior("2.1", 1))
    assert (a.offence, a.level.value, a.earlier_events) == (2, GL, 1)


def test_only_the_same_section_counts():
    a = assess("2.1", history=prior("2.2", 3) + prior("3.1.2", 1, GL), prior_events=prior("2", 1))
    assert (a.offence, a.level.value) == (1, W)
    assert a.context == ("5 earlier penalties for other sections",)


def test_level_of_earlier_penalties_does_not_matter():
    for level in Level:
        assert assess("3.2.2", history=[PriorPenalty("3.2.2", level)]).offence == 2


def test_linked_entries_do_not_count():
    a = assess("2.1", history=[PriorPenalty("2.1", W, linked=True)])
    assert a.offence == 1 and a.level.value == W


def test_plain_mappings_are_accepted():
    a = assess(
        "2.1",
        {},
        [{"infraction": "2.1", "level": "warning"}],
        [{"infraction": "2.1", "level": "game_loss", "linked": False}],
    )
    assert a.offence == 3


def test_prior_penalty_level_is_validated():
    assert PriorPenalty("2.1", "game_loss").level is Level.GAME_LOSS
    with pytest.raises(ValueError):
        PriorPenalty("2.1", "caution")  # a VEKN level, not a MyL one
    with pytest.raises(ValueError):
        assess("2.1", history=[{"infraction": "2.1", "level": "standings_adjustment"}])


# ---------------------------------------------------------------------------------------
# Errors (docs/contracts.md §4)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["9.9", "3.1", "3", "", "2.1 ", None, 2.1])
def test_unknown_infraction(code):
    with pytest.raises(UnknownInfraction) as error:
        assess(code)
    assert isinstance(error.value, KeyError)
    assert "unknown infraction" in str(error.value) and "'myl'" in str(error.value)


@pytest.mark.parametrize(
    ("code", "missing"),
    [("2.4", "grave"), ("3.1.1", "grave"), ("3.1.2", "grave"), ("3.4.1", "grave")]
    + [("3.2.4", "intentional"), ("3.3.1", "intentional")],
)
def test_missing_condition_names_it(code, missing):
    with pytest.raises(MissingCondition) as error:
        assess(code, {})
    assert isinstance(error.value, ConditionError) and isinstance(error.value, ValueError)
    assert error.value.condition == missing and error.value.infraction == code
    assert f"'{missing}'" in str(error.value) and "missing" in str(error.value)


def test_optional_condition_defaults_to_no():
    assert assess("3.3.1", {"intentional": False}).level.value == W


def test_unknown_condition():
    with pytest.raises(UnknownCondition) as error:
        assess("2.1", {"grave": True})
    assert error.value.condition == "grave" and "none" in str(error.value)
    with pytest.raises(UnknownCondition):
        assess("3.2.4", {"intentional": True, "grave": True})


@pytest.mark.parametrize("value", ["yes", 1, 0, None, []])
def test_condition_answers_must_be_booleans(value):
    with pytest.raises(InvalidCondition):
        assess("3.2.4", {"intentional": value})


# ---------------------------------------------------------------------------------------
# Explanation, suspension length, JSON shape, docs
# ---------------------------------------------------------------------------------------


def test_explanation():
    a = assess("2.3", history=prior("2.3", 1))
    text = a.explanation
    assert "offence 2" in text and "§4.2" in text and "Game Loss" in text
    assert "§4.3" in text and "5 business days" in text
    assert "Corrective action" in text


@pytest.mark.parametrize(
    ("code", "conditions", "n"),
    [("3.1.3", {}, 1), ("3.4.2", {}, 0), ("3.1.1", {"grave": True}, 0), ("3.4.3", {}, 0)],
)
def test_suspension_length_is_left_to_the_judge(code, conditions, n):
    a = assess(code, conditions, prior(code, n))
    assert SUS in {a.level.value, *(x.value for x in a.also + a.alternatives)}
    assert a.suspension_days is None
    assert "no length" in a.explanation


def test_as_json_is_the_contract_shape():
    data = assess("3.1.5").as_json()
    assert data == {
        "level": PB,
        "offence": 1,
        "baseline": PB,
        "explanation": data["explanation"],
        "source": "MyL conduct §3.1.5",
        "context": [],
        "alternatives": [],
        "also": [DQ],
    }


def test_assessment_is_frozen():
    with pytest.raises(FrozenInstanceError):
        assess("2.1").level = Level.PERMANENT_BAN


def test_docs_page_is_generated_from_the_engine():
    page = render_markdown()
    for code, inf in MYL_V1.catalogue.items():
        assert f"| {code} | {inf.name} |" in page
    for choice in MYL_V1.choices:
        assert f"**[choice]** {choice}" in page
    assert DOCS.read_text(encoding="utf-8") == page, (
        "regenerate: .venv/bin/python -m penalties.myl_rules > docs/rules-myl-penalties.md"
    )


# ---------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------

CODES = st.sampled_from(list(CATALOGUE))
ENTRIES = st.lists(
    st.builds(PriorPenalty, CODES, st.sampled_from(list(Level)), st.booleans()), max_size=8
)


@given(code=CODES, history=ENTRIES, earlier=ENTRIES, data=st.data())
def test_properties(code, history, earlier, data):
    answers = {
        c.name: data.draw(st.booleans())
        for c in MYL_V1.catalogue[code].conditions
        if c.required or data.draw(st.booleans())
    }
    a = assess(code, answers, history, earlier)
    same = [p for p in (*history, *earlier) if p.infraction == code and not p.linked]
    assert a.offence == 1 + len(same)
    assert a.level.severity >= a.baseline.severity >= Level.WARNING.severity
    assert a.level not in a.alternatives and a.level not in a.also
    assert all(x.severity < a.level.severity for x in a.also)
    assert a.source.startswith(f"MyL conduct §{code}")
    assert f"offence {a.offence}" in a.explanation
