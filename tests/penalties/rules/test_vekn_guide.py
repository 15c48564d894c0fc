"""VEKN judges' guide penalties: catalogue (JG §2–§4, appendix), escalation (JG §1.2.1),
linked infractions (JG §1.2.6), earlier-event context, standings-adjustment timing
(JG §1.1.3), time extensions (JG §1.2.4), organisational cases (JG §5);
docs/rules-vekn-penalties.md.

The expected values below are written from the guide and docs/rules-vekn-penalties.md,
independently of the catalogue in ``penalties/vekn_guide.py``. No database.
"""

from dataclasses import FrozenInstanceError
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from penalties.vekn_guide import (
    LADDER,
    LEVELS,
    RULESETS,
    VEKN_V2,
    AdjustmentIssue,
    Assessment,
    Category,
    ConditionError,
    Escalation,
    ExtensionRequest,
    Incident,
    InvalidCondition,
    InvalidIncident,
    Level,
    MissingCondition,
    PriorPenalty,
    Timing,
    UnknownCondition,
    UnknownInfraction,
    UnknownRuleset,
    adjustment_target,
    assess,
    assess_incidents,
    deviate,
    get_ruleset,
    ladder_level,
    suggest_time_extension,
)

C, W, SA, DQ = "caution", "warning", "standings_adjustment", "disqualification"
PE, TE, UC = "procedural_error", "tournament_error", "unsportsmanlike_conduct"

# The rulebooks live in shared/ beside the repository (as on developers' machines and CI).
RULES_DIR = Path(__file__).resolve().parents[4] / "shared" / "rules"

# code: (category, baseline with every condition "no", {condition: baseline when "yes"})
# From JG §2–§4 and docs/rules-vekn-penalties.md "The catalogue" (a None level: the condition does
# not change the
# baseline).
GUIDE = {
    "2.1": (PE, C, {"advantage": W}),
    "2.2": (PE, C, {}),
    "2.3": (PE, W, {"simple_fix": C}),
    "2.4": (PE, SA, {}),
    "3.1.1": (TE, W, {"irreconcilable": SA}),
    "3.1.2": (TE, SA, {}),
    "3.1.3": (TE, SA, {}),
    "3.2": (TE, SA, {}),
    "3.3": (TE, C, {}),
    "3.4": (TE, C, {}),
    "3.5": (TE, W, {"significant": None}),
    "3.6": (TE, C, {}),
    "3.7": (TE, W, {"pattern": SA, "deck_changed": SA}),
    "3.8": (TE, W, {}),
    "4.1": (UC, W, {}),
    "4.2": (UC, SA, {"malicious": DQ}),
    "4.3": (UC, DQ, {}),
    "4.4": (UC, DQ, {}),
    "4.5": (UC, DQ, {}),
    "4.6": (UC, DQ, {}),
    "4.7": (UC, DQ, {}),
    "4.8": (UC, DQ, {}),
    "4.9": (UC, DQ, {}),
    "4.10": (UC, W, {}),
    "4.11": (UC, DQ, {}),
    "4.12": (UC, W, {"uncorrectable": SA}),
}

# JG §1.2.1, offences 1..8 (the ladder stays at DQ past its end).
FROM = {
    C: [C, C, W, W, SA, SA, DQ, DQ],
    W: [W, W, SA, SA, DQ, DQ, DQ, DQ],
    SA: [SA, SA, DQ, DQ, DQ, DQ, DQ, DQ],
    DQ: [DQ] * 8,
}
# Infractions whose repeats do not follow the ladder (every condition "no").
SPECIAL_REPEATS = {
    "2.4": [SA] * 8,  # JG §2.4: never escalates
    "3.5": [W] * 8,  # JG §3.5: not significant → never escalates
    "4.2": [SA] + [DQ] * 7,  # JG §4.2 Upgrade: "the offense occurs again" → DQ
    "4.10": [W] * 8,  # JG §4.10: warning, then removal (not a penalty step)
}
OPTIONAL = {("3.7", "deck_changed")}  # docs/contracts.md §4's example omits it


def no(code):
    """Every required condition of ``code`` answered "no"."""
    return {name: False for name in GUIDE[code][2] if (code, name) not in OPTIONAL}


def history(code, n, level=C):
    return [PriorPenalty(code, level) for _ in range(n)]


def run(code, conditions=None, n_before=0, prior=(), **kw):
    return assess(
        VEKN_V2,
        code,
        no(code) if conditions is None else conditions,
        history(code, n_before),
        prior,
        **kw,
    )


# ---------------------------------------------------------------------------------------
# Levels and ladder (JG §1.1, §1.2.1; docs/rules-vekn-penalties.md "Levels")
# ---------------------------------------------------------------------------------------


def test_level_codes_and_crosswise_spanish_names():
    assert [level.value for level in Level] == [C, W, SA, DQ]
    assert {level.value: (LEVELS[level].name, LEVELS[level].name_es) for level in Level} == {
        C: ("Caution", "Advertencia"),
        W: ("Warning", "Amonestación"),
        SA: ("Standings Adjustment", "Ajuste en la clasificación"),
        DQ: ("Disqualification", "Descalificación"),
    }
    assert [LEVELS[level].recorded for level in Level] == [False, True, True, True]
    assert [level.severity for level in Level] == [0, 1, 2, 3]


def test_ladder_is_the_guides():
    assert [level.value for level in LADDER] == [C, C, W, W, SA, SA, DQ]


@pytest.mark.parametrize("baseline", [C, W, SA, DQ])
@pytest.mark.parametrize("offence", range(1, 9))
def test_ladder_level(baseline, offence):
    assert ladder_level(Level(baseline), offence) == FROM[baseline][offence - 1]


@pytest.mark.parametrize("offence", [0, -1])
def test_ladder_level_rejects_offence_below_one(offence):
    with pytest.raises(ValueError):
        ladder_level(Level.WARNING, offence)


# ---------------------------------------------------------------------------------------
# Ruleset and catalogue (JG §2–§4, appendix; docs/rules-vekn-penalties.md "The catalogue")
# ---------------------------------------------------------------------------------------


def test_registry_and_version():
    assert RULESETS["vekn"] is VEKN_V2
    assert (VEKN_V2.code, VEKN_V2.version) == ("vekn", "v2")
    assert get_ruleset("vekn") is VEKN_V2
    assert get_ruleset("vekn", "v2") is VEKN_V2
    with pytest.raises(UnknownRuleset) as error:
        get_ruleset("nope")
    assert isinstance(error.value, KeyError)
    assert "nope" in str(error.value)
    with pytest.raises(UnknownRuleset):
        get_ruleset("vekn", "v1")


def test_choices_are_documented_on_the_ruleset():
    assert len(VEKN_V2.choices) >= 10
    assert all(isinstance(c, str) and c for c in VEKN_V2.choices)


def test_catalogue_has_every_infraction_of_sections_2_to_4_in_order():
    assert list(VEKN_V2.catalogue) == list(GUIDE)
    assert len(VEKN_V2.catalogue) == 26


@pytest.mark.parametrize("code", GUIDE)
def test_catalogue_entry(code):
    category, baseline, conditions = GUIDE[code]
    inf = VEKN_V2.catalogue[code]
    assert inf.code == code
    assert inf.category == Category(category)
    assert {"2": PE, "3": TE, "4": UC}[code[0]] == category
    assert inf.baseline == Level(baseline)
    assert [c.name for c in inf.conditions] == list(conditions)
    assert inf.name and inf.name_es and inf.definition and inf.corrective_action
    for condition in inf.conditions:
        assert condition.question.endswith("?") and condition.question_es.startswith("¿")
        assert condition.required == ((code, condition.name) not in OPTIONAL)
    assert inf.source == f"JG §{code}"


def test_catalogue_is_immutable():
    with pytest.raises(TypeError):
        VEKN_V2.catalogue["9.9"] = VEKN_V2.catalogue["2.1"]
    with pytest.raises(FrozenInstanceError):
        VEKN_V2.catalogue["2.1"].baseline = Level.WARNING


def _headings(path, prefix):
    if not path.exists():
        pytest.skip(f"{path} not available")
    return {
        line.lstrip("#").strip().split(" ", 1)[0].rstrip("."): line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.lstrip("#").strip()[:1].isdigit() and prefix(line)
    }


@pytest.mark.parametrize("code", GUIDE)
def test_english_name_is_the_guides_heading(code):
    headings = _headings(RULES_DIR / "vtes-judges-guide.en.md", lambda line: line.startswith("#"))
    assert VEKN_V2.catalogue[code].name in headings[code]


@pytest.mark.parametrize("code", GUIDE)
def test_spanish_name_is_the_translations_heading(code):
    headings = _headings(RULES_DIR / "vtes-judges-guide.es.txt", lambda line: "—" in line)
    assert VEKN_V2.catalogue[code].name_es in headings[code]


def test_appendix_minor_major_pairs():
    """The appendix's "minor / major" pairs are the conditional baselines."""
    pairs = {code: inf.baseline_levels for code, inf in VEKN_V2.catalogue.items()}
    assert pairs["2.1"] == (Level.CAUTION, Level.WARNING)
    assert pairs["2.3"] == (Level.CAUTION, Level.WARNING)
    assert pairs["3.1.1"] == (Level.WARNING, Level.STANDINGS_ADJUSTMENT)
    assert pairs["3.7"] == (Level.WARNING, Level.STANDINGS_ADJUSTMENT)
    assert pairs["4.12"] == (Level.WARNING, Level.STANDINGS_ADJUSTMENT)
    assert pairs["4.2"] == (Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION)
    assert pairs["3.5"] == (Level.WARNING,)


def test_flags():
    cat = VEKN_V2.catalogue
    assert {c for c, i in cat.items() if i.requires_intent} == {
        "4.4",
        "4.5",
        "4.6",
        "4.7",
        "4.8",
        "4.9",
        "4.11",
        "4.12",
    }
    assert {
        c: str(i.report_to_ethics_committee)
        for c, i in cat.items()
        if i.report_to_ethics_committee != "no"
    } == {
        "4.2": "if_escalated",
        "4.3": "by_gravity",
        "4.4": "always",
        "4.5": "by_gravity",
        "4.6": "always",
        "4.7": "always",
        "4.8": "always",
        "4.9": "always",
        "4.11": "always",
    }
    assert {c for c, i in cat.items() if i.written_report} == {
        "4.2",
        "4.3",
        "4.4",
        "4.5",
        "4.6",
        "4.7",
        "4.8",
        "4.9",
        "4.11",
    }
    assert {c for c, i in cat.items() if i.floor_judge_may_confirm} == {"3.1.1", "3.1.2"}
    assert {
        c: i.reclassify_if_intentional for c, i in cat.items() if i.reclassify_if_intentional
    } == {"2.1": "4.7", "2.2": "4.7", "3.3": "4.6", "3.7": "4.7", "3.8": "4.7"}
    assert {c: str(i.escalation) for c, i in cat.items() if i.escalation != "ladder"} == {
        "2.4": "never",
        "3.5": "if_significant",
        "4.2": "repeat_upgrade",
        "4.10": "removal",
    }


def test_organisational_cases_of_section_5():
    cases = VEKN_V2.organisational_cases
    assert list(cases) == ["5.1", "5.1.1", "5.2", "5.3", "5.4"]
    for case in cases.values():
        assert case.name and case.name_es and case.description and case.resolution
        assert case.source == f"JG §{case.code}"
    assert any("2 hours" in line for line in cases["5.2"].resolution)
    assert any("void" in line for line in cases["5.3"].resolution)
    assert cases["5.1"].choices  # the substitute-player [choice]


# ---------------------------------------------------------------------------------------
# First offence and repeats, whole catalogue (JG §1.2.1)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", GUIDE)
def test_first_offence_is_the_baseline(code):
    a = run(code)
    assert (a.level, a.baseline, a.offence) == (GUIDE[code][1], GUIDE[code][1], 1)
    assert a.infraction == code
    assert not a.linked and a.guide_level == a.level


@pytest.mark.parametrize("code", GUIDE)
def test_repeated_offences(code):
    expected = SPECIAL_REPEATS.get(code, FROM[GUIDE[code][1]])
    got = [run(code, n_before=n) for n in range(8)]
    assert [a.level.value for a in got] == expected
    assert [a.offence for a in got] == list(range(1, 9))
    assert {a.baseline.value for a in got} == {GUIDE[code][1]}


@pytest.mark.parametrize(
    ("code", "condition", "level"),
    [
        (code, name, level)
        for code, (_, _, conds) in GUIDE.items()
        for name, level in conds.items()
        if level is not None
    ],
)
def test_condition_yes_changes_the_baseline(code, condition, level):
    conditions = {**no(code), condition: True}
    a = assess(VEKN_V2, code, conditions, [])
    assert (a.baseline, a.level) == (level, level)
    no_answer = assess(VEKN_V2, code, {**no(code), condition: False}, [])
    assert no_answer.baseline == GUIDE[code][1]


@pytest.mark.parametrize(
    ("code", "conditions", "n_before", "expected"),
    [
        # a conditional baseline is decided per offence, then the count applies (SPEC §1.3)
        ("3.7", {"pattern": True}, 1, SA),  # 2nd offence from SA
        ("3.7", {"pattern": True}, 2, DQ),  # 3rd from SA
        ("3.7", {"pattern": False}, 2, SA),  # 3rd from W
        ("3.7", {"pattern": False, "deck_changed": True}, 1, SA),
        ("2.1", {"advantage": True}, 2, SA),  # 3rd from W
        ("2.1", {"advantage": False}, 2, W),  # 3rd from C
        ("2.3", {"simple_fix": True}, 1, C),
        ("2.3", {"simple_fix": True}, 2, W),
        ("2.3", {"simple_fix": False}, 2, SA),
        ("3.1.1", {"irreconcilable": True}, 2, DQ),
        ("4.12", {"uncorrectable": True}, 1, SA),
        ("4.12", {"uncorrectable": True}, 2, DQ),
        ("4.2", {"malicious": True}, 0, DQ),
    ],
)
def test_conditional_baseline_then_count(code, conditions, n_before, expected):
    assert run(code, conditions, n_before).level == expected


def test_counting_is_per_infraction_code():
    others = [PriorPenalty("2.2", C), PriorPenalty("2.3", W), PriorPenalty("3.7", W)] * 3
    a = assess(VEKN_V2, "2.1", {"advantage": False}, others)
    assert (a.offence, a.level) == (1, C)


def test_cautions_count_although_not_in_the_database():
    a = assess(VEKN_V2, "2.2", {}, history("2.2", 2, C))
    assert (a.offence, a.level) == (3, W)


def test_level_of_earlier_penalties_does_not_matter_only_their_number():
    deviated = [PriorPenalty("3.3", DQ), PriorPenalty("3.3", C)]
    assert assess(VEKN_V2, "3.3", {}, deviated).level == W


def test_linked_history_entries_do_not_count():
    hist = [PriorPenalty("2.2", C, linked=True), PriorPenalty("2.2", C, linked=True)]
    a = assess(VEKN_V2, "2.2", {}, hist)
    assert (a.offence, a.level) == (1, C)


def test_history_accepts_plain_mappings():
    a = assess(VEKN_V2, "3.7", {"pattern": False}, [{"infraction": "3.7", "level": "warning"}])
    assert a.offence == 2


# ---------------------------------------------------------------------------------------
# Exceptions (JG §2.4, §3.5, §4.2, §4.10)
# ---------------------------------------------------------------------------------------


def test_failure_to_maintain_game_state_never_escalates():
    for n in range(12):
        a = run("2.4", n_before=n)
        assert a.level == SA and a.offence == n + 1
    assert "never escalate" in a.explanation


def test_public_information_escalates_only_when_significant():
    for n in range(6):
        assert run("3.5", {"significant": False}, n).level == W
    significant = [run("3.5", {"significant": True}, n).level.value for n in range(6)]
    assert significant == [W, W, SA, SA, DQ, DQ]
    # earlier non-significant ones still count as offences
    assert run("3.5", {"significant": True}, 2).offence == 3
    assert "significant" in run("3.5", {"significant": False}, 3).explanation


def test_unsportsmanlike_major_upgrade():
    first = run("4.2", {"malicious": False})
    assert first.level == SA and first.report_to_ethics_committee is False
    assert first.written_report
    repeat = run("4.2", {"malicious": False}, 1)
    assert repeat.level == DQ and not repeat.by_accumulation
    assert repeat.report_to_ethics_committee is True
    malicious = run("4.2", {"malicious": True})
    assert malicious.level == DQ and malicious.report_to_ethics_committee is True
    assert not malicious.by_accumulation


def test_health_and_safety_warning_then_removal():
    first = run("4.10")
    assert (first.level, first.alternatives, first.also) == (W, ("removal",), ())
    for n in range(1, 5):
        repeat = run("4.10", n_before=n)
        assert (repeat.level, repeat.also, repeat.alternatives) == (W, ("removal",), ())
        assert "removed from the event" in repeat.explanation


# ---------------------------------------------------------------------------------------
# Disqualification details (JG §1.1.4, §1.2.1)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [c for c, g in GUIDE.items() if g[1] == DQ])
def test_baseline_disqualifications(code):
    a = run(code)
    assert a.also == ("warning",)
    assert not a.by_accumulation
    assert a.written_report and a.head_judge_approval
    expected = None if code in ("4.3", "4.5") else True
    assert a.report_to_ethics_committee is expected
    assert a.source == f"JG §{code}, §1.2.1, §1.1.4"


def test_disqualification_by_accumulation():
    a = run("2.2", n_before=6)
    assert a.level == DQ and a.by_accumulation
    assert a.also == ("warning",)
    assert a.report_to_ethics_committee is False
    assert "Disqualification without Prize" in a.explanation
    assert "keeps prizes" in a.explanation


@pytest.mark.parametrize("code", GUIDE)
def test_only_disqualifications_include_a_warning(code):
    for n in range(8):
        a = run(code, n_before=n)
        assert ("warning" in a.also) == (a.level == DQ)


@pytest.mark.parametrize(
    ("code", "conditions", "n_before", "approval"),
    [
        ("3.3", {}, 0, False),
        ("3.1.1", {"irreconcilable": True}, 0, False),  # clear decklist error (JG §1.2.2)
        ("3.1.2", {}, 0, False),
        ("3.1.3", {}, 0, True),
        ("3.2", {}, 0, True),
        ("2.4", {}, 0, True),
        ("3.1.2", {}, 2, True),  # a DQ always needs the head judge
        ("4.7", {}, 0, True),
    ],
)
def test_head_judge_approval(code, conditions, n_before, approval):
    assert run(code, conditions, n_before).head_judge_approval is approval


# ---------------------------------------------------------------------------------------
# Earlier events (JG §1.2.1): context, never a step
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", GUIDE)
def test_earlier_events_never_escalate(code):
    prior = history(code, 5, W) + history(code, 2, SA)
    for n in range(4):
        without = run(code, n_before=n)
        with_prior = run(code, n_before=n, prior=prior)
        assert (with_prior.level, with_prior.offence) == (without.level, without.offence)
        assert with_prior.context == ("pre-existing warning",)


def test_any_number_of_earlier_warnings_is_one_pre_existing_warning():
    for k in (1, 2, 7):
        a = run("3.8", prior=history("3.8", k, W))
        assert a.context == ("pre-existing warning",)
        assert a.explanation.count("pre-existing warning") == 1
        assert "never a step" in a.explanation


def test_earlier_event_context_only_for_the_same_code_and_recorded_levels():
    assert run("3.8", prior=history("3.7", 3, W)).context == ()
    assert run("3.3", prior=history("3.3", 3, C)).context == ()  # cautions are not recorded
    assert run("3.3", prior=[PriorPenalty("3.3", C), PriorPenalty("3.3", W)]).context == (
        "pre-existing warning",
    )


# ---------------------------------------------------------------------------------------
# The docs/contracts.md §4 example
# ---------------------------------------------------------------------------------------


def test_contract_example():
    a = assess(
        VEKN_V2,
        "3.7",
        {"pattern": False},
        [PriorPenalty("3.7", Level.WARNING)],
        [PriorPenalty("3.7", Level.WARNING)],
    )
    # JG §3.7: no significant pattern → Warning; JG §1.2.1: a Warning baseline gives
    # Warning for the 2nd offence.
    assert a.as_json() == {
        "level": "warning",
        "offence": 2,
        "baseline": "warning",
        "explanation": a.explanation,
        "source": "JG §3.7, §1.2.1",
        "context": ["pre-existing warning"],
        "alternatives": [],
        "also": [],
    }
    for piece in (
        "offence 2",
        "Warning → Warning → Standings Adjustment",
        "Baseline: Warning",
        "no significant pattern",
        "pre-existing warning",
        "Corrective action",
    ):
        assert piece in a.explanation


def test_assessment_is_frozen():
    a = run("2.1")
    with pytest.raises(FrozenInstanceError):
        a.level = Level.WARNING


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "missing"),
    [
        (code, name)
        for code, (_, _, conds) in GUIDE.items()
        for name in conds
        if (code, name) not in OPTIONAL
    ],
)
def test_missing_condition_names_it(code, missing):
    conditions = {k: v for k, v in no(code).items() if k != missing}
    with pytest.raises(MissingCondition) as error:
        assess(VEKN_V2, code, conditions, [])
    assert isinstance(error.value, ValueError)
    assert error.value.condition == missing and error.value.infraction == code
    assert repr(missing) in str(error.value)


def test_missing_conditions_checked_before_unknown_ones():
    with pytest.raises(MissingCondition) as error:
        assess(VEKN_V2, "3.7", {"patern": True}, [])
    assert error.value.condition == "pattern"


def test_optional_condition_defaults_to_no():
    assert run("3.7", {"pattern": False}).level == W


def test_none_conditions_mean_no_answers():
    assert assess(VEKN_V2, "2.2", None, []).level == C
    with pytest.raises(MissingCondition):
        assess(VEKN_V2, "2.1", None, [])


def test_unknown_condition():
    with pytest.raises(UnknownCondition) as error:
        assess(VEKN_V2, "2.2", {"pattern": True}, [])
    assert error.value.condition == "pattern"
    assert isinstance(error.value, ConditionError)


@pytest.mark.parametrize("value", [1, 0, "yes", None, [], {}])
def test_condition_answers_must_be_booleans(value):
    with pytest.raises(InvalidCondition) as error:
        assess(VEKN_V2, "3.7", {"pattern": value}, [])
    assert error.value.condition == "pattern"


@pytest.mark.parametrize("code", ["9.9", "3.1", "2", "", "3.7 ", None, 3.7, ["3.7"]])
def test_unknown_infraction(code):
    with pytest.raises(UnknownInfraction) as error:
        assess(VEKN_V2, code, {}, [])
    assert isinstance(error.value, KeyError)
    assert "unknown infraction" in str(error.value)


def test_prior_penalty_level_is_validated():
    assert PriorPenalty("2.1", "warning").level is Level.WARNING
    with pytest.raises(ValueError):
        PriorPenalty("2.1", "game_loss")


# ---------------------------------------------------------------------------------------
# Linked infractions (JG §1.2.6)
# ---------------------------------------------------------------------------------------


def test_linked_to_a_more_severe_penalty_is_not_issued():
    grv = run("2.3", {"simple_fix": False})  # warning
    cae = assess(VEKN_V2, "2.2", {}, [], linked_to=grv)
    assert cae.linked and cae.level == C
    assert "§1.2.6" in cae.source
    assert cae.head_judge_approval is False
    assert "does not count" in cae.explanation


def test_linked_tie_keeps_the_first():
    first = run("2.2")
    second = assess(VEKN_V2, "3.6", {}, [], linked_to=first)
    assert second.linked


def test_linked_more_severe_is_issued():
    cae = run("2.2")
    grv = assess(VEKN_V2, "2.3", {"simple_fix": False}, [], linked_to=cae)
    assert not grv.linked and grv.level == W
    assert "supersedes linked 2.2 (caution)" in grv.context
    assert "§1.2.6" in grv.source


def inc(id_, code, person="p1", linked_to=None, level=None, reason=None, **conditions):
    return Incident(id_, person, code, conditions, linked_to, level, reason)


def test_incidents_count_per_person_and_code():
    result = assess_incidents(
        VEKN_V2,
        [
            inc("i1", "3.3"),
            inc("i2", "3.3", "p2"),
            inc("i3", "3.3"),
            inc("i4", "3.3"),
            inc("i5", "3.7", pattern=False),
            inc("i6", "3.3", "p2"),
        ],
    )
    assert list(result) == ["i1", "i2", "i3", "i4", "i5", "i6"]
    assert [(a.offence, a.level.value) for a in result.values()] == [
        (1, C),
        (1, C),
        (2, C),
        (3, W),
        (1, W),
        (2, C),
    ]


def test_incidents_linked_later_less_severe_does_not_count():
    result = assess_incidents(
        VEKN_V2,
        [
            inc("i1", "2.3", simple_fix=False),
            inc("i2", "2.2", linked_to="i1"),
            inc("i3", "2.2"),
            inc("i4", "2.2"),
        ],
    )
    assert not result["i1"].linked and result["i1"].level == W
    assert result["i2"].linked
    assert [result[i].offence for i in ("i3", "i4")] == [1, 2]
    assert "incident i2" in result["i1"].explanation
    assert "incident i1" in result["i2"].explanation


def test_incidents_linked_later_more_severe_unseats_the_earlier():
    result = assess_incidents(
        VEKN_V2,
        [
            inc("i0", "2.2"),
            inc("i1", "2.2", linked_to=None),
            inc("i2", "2.3", linked_to="i1", simple_fix=False),
            inc("i3", "2.2"),
        ],
    )
    assert result["i1"].linked and not result["i2"].linked
    # i1 no longer counts: i3 is the 2nd counted 2.2, not the 3rd
    assert (result["i3"].offence, result["i3"].level) == (2, C)


def test_incidents_linked_groups_are_transitive():
    result = assess_incidents(
        VEKN_V2,
        [
            inc("a", "2.2"),
            inc("b", "3.6", linked_to="a"),
            inc("c", "3.7", linked_to="b", pattern=True),
        ],
    )
    assert [result[i].linked for i in "abc"] == [True, True, False]
    assert result["c"].level == SA


def test_incidents_deviation():
    result = assess_incidents(
        VEKN_V2,
        [
            inc("i1", "3.2", level=Level.WARNING, reason="refused the help and called a judge"),
            inc("i2", "3.2"),
        ],
    )
    assert result["i1"].level == W and result["i1"].guide_level == SA
    assert result["i1"].deviation_reason == "refused the help and called a judge"
    assert "Head-judge deviation" in result["i1"].explanation
    assert result["i2"].offence == 2  # a deviated penalty still counts


def test_incidents_prior_events_per_person():
    result = assess_incidents(
        VEKN_V2,
        [inc("i1", "3.8"), inc("i2", "3.8", "p2")],
        {"p1": [PriorPenalty("3.8", W)]},
    )
    assert result["i1"].context == ("pre-existing warning",)
    assert result["i2"].context == ()
    assert result["i1"].offence == 1


@pytest.mark.parametrize(
    ("incidents", "message"),
    [
        ([inc("i1", "2.2"), inc("i1", "2.2")], "i1: duplicate id"),
        ([inc("i1", "2.2", linked_to="i9")], "i1: linked_to 'i9'"),
        ([inc("i1", "2.2", linked_to="i1")], "i1: linked_to 'i1'"),
        (
            [inc("i1", "2.2"), inc("i2", "2.3", "p2", linked_to="i1", simple_fix=True)],
            "another person",
        ),
        ([inc("i1", "2.2"), inc("i2", "9.9")], "i2: unknown infraction"),
        ([inc("i1", "3.7")], "i1: missing condition 'pattern'"),
        ([inc("i1", "3.7", level="game_loss", pattern=True)], "i1:"),
    ],
)
def test_incidents_errors_name_the_incident(incidents, message):
    with pytest.raises(InvalidIncident) as error:
        assess_incidents(VEKN_V2, incidents)
    assert message in str(error.value)


def test_deviate():
    a = run("2.2")
    assert deviate(a, Level.CAUTION, "same") is a
    up = deviate(a, "disqualification", "cheating suspected, not proven")
    assert up.level == DQ and up.guide_level == C and up.also == ("warning",)
    assert up.report_to_ethics_committee is None and up.head_judge_approval
    down = deviate(run("4.7"), Level.STANDINGS_ADJUSTMENT, None)
    assert down.also == () and "no reason recorded" in down.explanation
    with pytest.raises(ValueError):
        deviate(a, "game_loss", "x")


# ---------------------------------------------------------------------------------------
# Explanations and sources (JG §1.2.3)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", GUIDE)
def test_explanation_and_source(code):
    a = run(code, n_before=2)
    inf = VEKN_V2.catalogue[code]
    assert a.explanation.startswith(f"{code} {inf.name}")
    assert "offence 3" in a.explanation
    assert f"Baseline: {LEVELS[a.baseline].name}" in a.explanation
    assert inf.corrective_action in a.explanation
    assert a.source.startswith(f"JG §{code}, §1.2.1")
    if inf.escalation == Escalation.LADDER:
        assert f"offence 3 gives {LEVELS[a.level].name}".lower() in a.explanation.lower()


def test_condition_consequence_is_explained():
    a = run("3.1.1", {"irreconcilable": True})
    assert "five minutes" in a.explanation


# ---------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------

CODES = st.sampled_from(list(GUIDE))
PENALTIES = st.lists(
    st.builds(PriorPenalty, CODES, st.sampled_from(list(Level)), st.booleans()), max_size=12
)


def answers_for(code):
    return st.fixed_dictionaries({name: st.booleans() for name in GUIDE[code][2]})


@given(data=st.data(), code=CODES, hist=PENALTIES, prior=PENALTIES)
def test_properties(data, code, hist, prior):
    answers = data.draw(answers_for(code))
    a = assess(VEKN_V2, code, answers, hist, prior)
    counted = sum(1 for p in hist if p.infraction == code and not p.linked)
    assert a.offence == counted + 1
    # earlier events never change the level
    assert assess(VEKN_V2, code, answers, hist).level == a.level
    # one more offence never lowers the level
    more = assess(VEKN_V2, code, answers, [*hist, PriorPenalty(code, Level.CAUTION)], prior)
    assert more.level.severity >= a.level.severity
    assert isinstance(a, Assessment) and set(a.as_json()) == {
        "level",
        "offence",
        "baseline",
        "explanation",
        "source",
        "context",
        "alternatives",
        "also",
    }
    assert a.level.severity >= a.baseline.severity


# ---------------------------------------------------------------------------------------
# Standings adjustment timing (JG §1.1.3; docs/rules-vekn-penalties.md "Standings adjustments")
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("timing", "round_", "games", "target", "rule"),
    [
        ("during_game", 2, [1, 2, 3], 2, "same_game"),
        ("during_game", 4, [1, 2, 3, 4], 4, "same_game"),  # the final
        ("during_game", 2, [1, 3], 3, "next_game"),  # no game of theirs in round 2
        ("during_game", 3, [1, 2], 2, "previous_game"),
        ("between_rounds", 2, [1, 2, 3], 3, "next_game"),
        ("between_rounds", 3, [1, 2, 3, 4], 4, "next_game"),  # before the final
        ("between_rounds", 3, [1, 2, 3], 3, "previous_game"),  # no later game (yet)
        ("between_rounds", 1, [1, 3], 3, "next_game"),  # skipped round 2
        ("before_first_round", None, [1, 2, 3], 1, "next_game"),
        ("before_first_round", None, [2, 3], 2, "next_game"),
        ("after_last_game", None, [1, 2, 3], 3, "previous_game"),
        ("after_last_game", 7, [3, 1, 2], 3, "previous_game"),
        ("during_game", 1, [], None, "no_game"),
        ("before_first_round", None, [], None, "no_game"),
    ],
)
def test_adjustment_target(timing, round_, games, target, rule):
    result = adjustment_target(AdjustmentIssue(timing, round_), games)
    assert (result.round, result.rule) == (target, rule)
    assert result.vp == Decimal("-1.0")
    assert result.source == "JG §1.1.3"
    assert result.explanation


def test_adjustment_between_rounds_shows_the_translation_note():
    result = adjustment_target(AdjustmentIssue(Timing.BETWEEN_ROUNDS, 1), [1, 2])
    assert "Spanish translation says the previous game" in result.explanation


@pytest.mark.parametrize(
    ("issue", "games"),
    [
        (AdjustmentIssue("during_game"), [1]),
        (AdjustmentIssue("between_rounds"), [1]),
        (AdjustmentIssue("during_game", -1), [1]),
        (AdjustmentIssue("during_game", 1), [0]),
        (AdjustmentIssue("during_game", 1), ["1"]),
    ],
)
def test_adjustment_target_errors(issue, games):
    with pytest.raises(ValueError):
        adjustment_target(issue, games)


def test_adjustment_issue_rejects_unknown_timing():
    with pytest.raises(ValueError):
        AdjustmentIssue("lunch_break")


# ---------------------------------------------------------------------------------------
# Time extensions (JG §1.2.4; docs/rules-vekn-penalties.md "Time extensions")
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spent", "minutes", "low", "high"),
    [
        (0, 0, 0, 0),
        (Decimal("0.5"), 0, 0, 0),  # brief ruling
        (1, 1, 1, 1),  # +2 baseline, but never more than the time lost
        (Decimal("1.5"), 1, 1, 1),
        (2, 2, 2, 2),  # guide example 1
        (Decimal("2.9"), 2, 2, 2),
        (3, 3, 3, 3),
        (4, 4, 3, 4),  # guide example 2
        (5, 5, 3, 5),
        (Decimal("5.5"), 5, 5, 5),
        (7, 7, 5, 7),
        (10, 10, 5, 10),
        (25, 10, 5, 10),
    ],
)
def test_time_extension_baseline(spent, minutes, low, high):
    s = suggest_time_extension(ExtensionRequest(spent))
    assert (s.minutes, s.low, s.high, s.total, s.capped) == (minutes, low, high, minutes, False)
    assert s.source == "JG §1.2.4"


def test_time_extensions_stack_and_cap():
    # guide example 4: +3 then +2 = +5
    first = suggest_time_extension(ExtensionRequest(3))
    second = suggest_time_extension(ExtensionRequest(2, already_granted=first.total))
    assert (first.minutes, second.minutes, second.total) == (3, 2, 5)
    capped = suggest_time_extension(ExtensionRequest(6, already_granted=8))
    assert (capped.minutes, capped.total, capped.capped) == (2, 10, True)
    assert "head judge" in capped.explanation
    full = suggest_time_extension(ExtensionRequest(3, already_granted=10))
    assert (full.minutes, full.capped) == (0, True)
    authorised = suggest_time_extension(
        ExtensionRequest(6, already_granted=8, head_judge_authorised=True)
    )
    assert (authorised.minutes, authorised.total, authorised.capped) == (6, 14, False)


def test_time_extension_new_end():
    end = datetime(2026, 11, 28, 12, 0)
    s = suggest_time_extension(ExtensionRequest(4, already_granted=2, scheduled_end=end))
    assert s.new_end == datetime(2026, 11, 28, 12, 4)


@pytest.mark.parametrize(
    "request_",
    [
        ExtensionRequest(-1),
        ExtensionRequest("abc"),
        ExtensionRequest(float("nan")),
        ExtensionRequest(True),
        ExtensionRequest(2, already_granted=-1),
        ExtensionRequest(2, already_granted=1.5),
    ],
)
def test_time_extension_errors(request_):
    with pytest.raises(ValueError):
        suggest_time_extension(request_)
