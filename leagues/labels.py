"""Translated labels of the stable codes of the compliance table, the draft order, the
brackets and the rules' problems.

The rules (:mod:`leagues.rules.compliance`, :mod:`leagues.rules.draft`,
:mod:`leagues.rules.brackets`) speak in stable codes; what they say about brackets and
problems is a :class:`~leagues.rules.texts.Reason` (a code and its params, whose English
text the API keeps). Pages show these labels instead (gettext, the lead runs
``makemessages``), built from the code and params by :func:`label` — never by parsing an
English sentence. A code or text without a label shows as itself.
"""

from django.utils.translation import gettext_lazy as _

from leagues.rules.bracket_engine import Source
from leagues.rules.errors import LeagueRuleError
from leagues.rules.texts import Reason

OUTCOME_LABELS = {
    "initial": _("Posted by the initial deadline"),
    "final": _("Posted by the final deadline"),
    "late": _("Posted after the final deadline"),
    "unplayed": _("Not posted and past its deadline"),
    "excused": _("Excused: played within the phase"),
    "conceded": _("Conceded the fixture's points"),
    "conceded_to": _("The opponent conceded the fixture's points"),
    "absent": _("Absent in a walkover"),
    "showed_up": _("Showed up in a walkover"),
    "pending": _("Not due yet"),
}
"""Codes of :data:`leagues.rules.compliance.OUTCOMES` → labels."""

DRAFT_RULE_LABELS = {
    "base_order": _("Base order"),
    "reaped": _("Reaped: to the end, higher compliance first"),
    "suspended": _("Suspended: last"),
    "suspended_lot": _("Suspended: last, order drawn by lot"),
}
"""Codes of :data:`leagues.rules.draft.RULES` → labels."""


def outcome_label(code: str):
    """The label of a compliance outcome code."""
    return OUTCOME_LABELS.get(code, code)


def draft_rule_label(code: str):
    """The label of a draft rule code."""
    return DRAFT_RULE_LABELS.get(code, code)


# --------------------------------------------------------------------------- brackets
# The bracket rules (leagues.rules.brackets) describe stages, slot sources, what a slot
# waits for and next season's moves in English (the API keeps those stable texts); the
# pages show these translated labels, built from the stable codes and sources.

STAGE_LABELS = {
    "a_quarter_finals": _("Primera A playoffs: quarter-finals (ANFPES T24 §1.1.3)"),
    "a_semi_finals": _("Primera A playoffs: semi-finals, Final Four (§1.1.4)"),
    "a_final": _("Primera A playoffs: final (§1.1.5)"),
    "b_promotion_semi_finals": _("Primera B promotion playoffs: semi-finals (§1.3.2)"),
    "b_promotion_final": _("Primera B promotion final (§1.3.2)"),
    "zone_a_semi_finals": _("Post-season Zone A: semi-finals (§1.3.4)"),
    "zone_a_final": _("Post-season Zone A: final (§1.3.4)"),
    "zone_b_semi_finals": _("Post-season Zone B: semi-finals (§1.3.4)"),
    "zone_b_final": _("Post-season Zone B: final (§1.3.4)"),
    "liguilla": _("Liguilla de Promoción (§1.2.3, §1.3.5)"),
}
"""League post-season stage codes (:data:`leagues.rules.brackets.STAGES`) → labels."""

CUP_LABELS = {
    "cl": _("Champagne League"),
    "conf": _("Conference Lag"),
    "ns": _("Nucommunity Shit"),
}
"""Cup tie-id prefixes (:data:`leagues.brackets.CUP_PREFIXES`) → cup names."""

ROUND_LABELS = {
    "final": _("final"),
    "semi_finals": _("semi finals"),
    "quarter_finals": _("quarter finals"),
}

RANKING_LABELS = {
    "primera_a": _("Primera A"),
    "primera_b": _("Primera B"),
    "cl_winners": _("the Champagne League group winners"),
    "cl_runners_up": _("the Champagne League runners-up"),
    "cl_thirds": _("the Champagne League thirds"),
    "cl_fourths": _("the Champagne League fourths"),
    "ns_draw": _("the Nucommunity Shit draw"),
    "ns_winners": _("the Nucommunity Shit group winners"),
    "ns_runners_up": _("the Nucommunity Shit runners-up"),
}
"""Ranking codes (:data:`leagues.rules.brackets.RANKING_NAMES`) → labels."""

NUCOMMUNITY_FORMAT_LABELS = {
    "knockout": _("Knockout from a draw"),
    "groups_knockout": _("Groups, then a knockout"),
}


def stage_label(code: str, default: str = ""):
    """The label of a bracket stage: a league post-season stage, a cup round
    (``cl_round_of_16`` → "Champagne League: round of 16"), else ``default``."""
    if code in STAGE_LABELS:
        return STAGE_LABELS[code]
    prefix, _sep, rest = code.partition("_")
    if prefix in CUP_LABELS and rest:
        return _("%(cup)s: %(round)s") % {"cup": CUP_LABELS[prefix], "round": round_label(rest)}
    return default or code


def round_label(code: str):
    """``semi_finals`` → "semi-finals", ``round_of_16`` → "round of 16"."""
    if code in ROUND_LABELS:
        return ROUND_LABELS[code]
    number = code.removeprefix("round_of_")
    if number.isdigit():
        return _("round of %(n)s") % {"n": number}
    return code.replace("_", " ")


def ranking_label(code: str):
    return RANKING_LABELS.get(code, code)


ORDINALS = {
    "st": _("%(n)sst"),
    "nd": _("%(n)snd"),
    "rd": _("%(n)srd"),
    "th": _("%(n)sth"),
}
"""One message per English suffix, so that each language writes its own ("1.º")."""


def ordinal_label(number: int) -> str:
    """A position as an ordinal: "1st", "22nd"; "1.º" in Spanish."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return ORDINALS[suffix] % {"n": number}


# --------------------------------------------------------------------------- the one mechanism
# What the rules say (leagues.rules.texts.Reason: a code and its params, in English as
# itself) is shown in the reader's language by its code: LABELS gives each code its
# message and, where a param is not shown as it is, how to show it. Nothing is parsed
# back from an English sentence.


def _english(value):
    """A param shown in English as the rules wrote it (today's label: the catalogue has
    no separate message for it)."""
    return str(value)


LABELS = {
    # Where a slot is fed from (leagues.rules.bracket_engine.Source.label).
    "source_position": (
        _("%(position)s of %(ranking)s"),
        {"position": ordinal_label, "ranking": ranking_label},
    ),
    "source_winner": _("winner of %(tie)s"),
    "source_loser": _("loser of %(tie)s"),
    "source_team": _("team %(team)s"),
    "source_better_of": (
        _("better-placed in %(ranking)s of (%(teams)s)"),
        {"ranking": ranking_label},
    ),
    "source_worse_of": (
        _("worse-placed in %(ranking)s of (%(teams)s)"),
        {"ranking": ranking_label},
    ),
    # What a slot (or relegation) waits for.
    "waiting_abandoned": _("a staff decision: teams abandoned Primera A (ANFPES T24 §1.2.2)"),
    "waiting_table_to_close": (_("the %(table)s table to close"), {"table": ranking_label}),
    "waiting_table_to_be_closed": (
        _("the %(table)s table to be closed"),
        {"table": ranking_label},
    ),
    "waiting_tie_in_table": _("a tie in the table"),
    "waiting_missing_position": (
        _("a staff decision: there is no %(slot)s"),
        {"slot": _english},
    ),
    "waiting_table": (_("the %(table)s table"), {"table": ranking_label}),
    "waiting_title_decider": _("the title decider match (ANFPES T24 §1.3.1)"),
    "waiting_unresolved_tie": _("a staff decision on a tie in the table"),
    "waiting_result": _("the result of %(tie)s"),
    "waiting_stage_closed": (
        _("staff to close the stage %(stage)s"),
        {"stage": stage_label},
    ),
    "waiting_other_bracket": _("%(tie)s (another bracket)"),
    "waiting_not_in_bracket": _("not in the bracket"),
    # Names of the post-season ties.
    "tie_pairing": (
        _("%(first)s v %(second)s"),
        {"first": ordinal_label, "second": ordinal_label},
    ),
    "tie_semi_final": _("Semi-final %(n)s"),
    "tie_final": _("Final"),
    "tie_promotion_final": _("Promotion final"),
    "tie_liguilla": (_("%(position)s of Primera A"), {"position": ordinal_label}),
    # What next season's divisions wait for.
    "pending_waiting": (
        _("%(what)s: waiting for %(why)s"),
        {"what": lambda code: _PENDING_HEADS.get(code, code)},
    ),
    "pending_liguilla": _("%(tie)s: the Liguilla tie to be decided and closed"),
    # Moves between divisions.
    "move_bottom_two": _("relegated: last two of Primera A (ANFPES T24 §1.2.1)"),
    "move_staff_relegation": _("relegated by staff decision (ANFPES T24 §1.2.2)"),
    "move_relegated": _("relegated (ANFPES T24 §1.2.1–§1.2.2)"),
    "move_champion_b": _("Primera B champion (ANFPES T24 §1.3.1)"),
    "move_promoted_b": _("promotion final winner (ANFPES T24 §1.3.2)"),
    "move_liguilla_promoted": _(
        "promoted to Primera A: won the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "move_liguilla_relegated": _(
        "relegated to Primera B: lost the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "move_liguilla_stays_a": _(
        "stays in Primera A: won the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "move_liguilla_stays_b": _(
        "stays in Primera B: lost the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "move_suspended": _("suspended: relegated (ANFPES T24 §III.4)"),
    "move_expelled": _("expelled (ANFPES T24 §III.4)"),
    # Problems (ANFPES T24 §2.1–§2.2 draws and knockouts); a list param is shown joined
    # by commas.
    "listed_twice": _("A team is listed twice in last season's tables and the newcomers."),
    "strangers": _("Not in last season's tables nor among the newcomers: %(teams)s."),
    "draw_size": _("The draw needs %(n)s teams (%(pots)s pots of %(size)s); %(got)s were given."),
    "draw_teams": _("The live draw must list every team of the pots exactly once."),
    "unknown_group": _("%(team)s: unknown group %(group)s."),
    "group_pot_twice": _("Group %(group)s has two teams of pot %(pot)s."),
    "knockout_power_of_two": _(
        "A knockout needs a power-of-two number of teams (2, 4, 8, 16, 32…)."
    ),
    "drawn_knockout_power_of_two": _(
        "A knockout needs a power-of-two number of teams (2, 4, 8, 16, 32…)."
    ),
    "groups_power_of_two": _("The number of groups or first-round ties must be a power of two."),
    "ties_power_of_two": _("The number of groups or first-round ties must be a power of two."),
    "uneven_groups": _("The teams must split evenly into the groups."),
}
"""Codes of :data:`leagues.rules.texts.TEXTS` → their message (named placeholders), or
``(message, {param: how to show it})``. A param without its own way is shown as its label
when it is a :class:`~leagues.rules.texts.Reason`, joined by commas when it is a list,
else as it is. The code ``"text"`` (a plain English sentence) has no label."""

_PENDING_HEADS = {
    "relegation": _("Relegation"),
    "champion_b": _("Primera B champion"),
    "promoted_b": _("Promotion final winner"),
}


def _shown(value):
    if isinstance(value, Reason):
        return label(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(_shown(v)) for v in value)
    return value


def label(text):
    """What a rule said, in the reader's language: a :class:`~leagues.rules.texts.Reason`
    with a label (:data:`LABELS`) as that label with its params; anything else (a
    ``Reason`` without a label, a plain text, ``None``) as it is."""
    if not isinstance(text, Reason) or text.code not in LABELS:
        return text
    entry = LABELS[text.code]
    message, shows = entry if isinstance(entry, tuple) else (entry, {})
    if not text.params:
        return message
    return message % {
        name: shows[name](value) if name in shows else _shown(value)
        for name, value in text.params.items()
    }


def tie_name_label(name):
    """A tie's name (``leagues.rules.brackets``: a :class:`~leagues.rules.texts.Reason`
    such as "Semi-final 1", "1 v 8", "12th A", "Final") in the reader's language; any
    other name (a stored tie id) as it is."""
    return label(name)


def source_label(source: dict | None):
    """Where a slot is fed from (a source of the bracket document, ``{"kind", "ref",
    "position"?, "among"?}``), translated: "1st of Primera A", "winner of qf1",
    "better-placed in Primera B of (loser of psf1, loser of psf2)"; a source of an
    unknown kind shows its ``label`` (else its ``ref``)."""
    if not source:
        return ""
    try:
        text = Source.from_dict(source).label
    except LeagueRuleError:
        return source.get("label", source.get("ref", ""))
    return label(text)


def waiting_label(text):
    """What a slot (or next season's divisions) waits for, translated (:func:`label`)."""
    return label(text)


def pending_label(text):
    """One item next season's divisions still wait for
    (:func:`leagues.rules.brackets.next_divisions` ``pending``), translated."""
    return label(text)


def move_label(reason):
    """The reason of a move between divisions (or of a team of the Liguilla keeping its
    division), translated."""
    return label(reason)


def nucommunity_format_label(code: str):
    return NUCOMMUNITY_FORMAT_LABELS.get(code, code)


def problem_label(problem: Reason | str):
    """A problem raised by the rules as a sentence for the page: the label of its code when
    there is one, else its English text with the first letter capitalised and a full stop
    added."""
    if isinstance(problem, Reason) and problem.code in LABELS:
        return label(problem)
    text = str(problem).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def problems_text(problems) -> str:
    """Several rule problems (:class:`~leagues.rules.errors.Reason` or text) as one message
    (:func:`problem_label` each)."""
    return " ".join(str(problem_label(p)) for p in problems)
