"""Translated labels of the stable codes of the compliance table, the draft order and the
brackets.

The rules (:mod:`leagues.rules.compliance`, :mod:`leagues.rules.draft`,
:mod:`leagues.rules.brackets`) speak in stable codes with English explanations (kept in
the API); pages show these labels instead (gettext, the lead runs ``makemessages``). A
code or text without a label shows as itself.
"""

import re

from django.utils.translation import gettext_lazy as _

from leagues.rules.errors import Reason

OUTCOME_LABELS = {
    "initial": _("Posted by the initial deadline"),
    "final": _("Posted by the final deadline"),
    "late": _("Posted after the final deadline"),
    "unplayed": _("Not posted and past its deadline"),
    "excused": _("Excused: played within the phase"),
    "conceded": _("Conceded the fixture's points"),
    "conceded_to": _("The opponent conceded the fixture's points"),
    "absent": _("Absent in a walkover"),
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


TIE_NAMES = {
    "Final": _("Final"),
    "Promotion final": _("Promotion final"),
}
TIE_NAME_PATTERNS = (
    (re.compile(r"^Semi-final (\d+)$"), lambda m: _("Semi-final %(n)s") % {"n": m[1]}),
    (
        re.compile(r"^(\d+) v (\d+)$"),
        lambda m: (
            _("%(first)s v %(second)s")
            % {"first": ordinal_label(int(m[1])), "second": ordinal_label(int(m[2]))}
        ),
    ),
    (
        re.compile(r"^(\d+)th A$"),
        lambda m: _("%(position)s of Primera A") % {"position": ordinal_label(int(m[1]))},
    ),
)


def tie_name_label(name: str):
    """A tie's name from the bracket rules (``leagues.rules.brackets``: "Semi-final 1",
    "1 v 8", "12th A", "Final", "Promotion final") in the reader's language; any other
    name (a season file's) as it is."""
    if name in TIE_NAMES:
        return TIE_NAMES[name]
    for pattern, label in TIE_NAME_PATTERNS:
        match = pattern.match(name)
        if match:
            return label(match)
    return name


def source_label(source: dict | None):
    """Where a slot is fed from (a source of the bracket document, ``{"kind", "ref",
    "position"?, "among"?}``), translated: "1st of Primera A", "winner of qf1",
    "better-placed in Primera B of (loser of psf1, loser of psf2)"."""
    if not source:
        return ""
    kind, ref = source.get("kind"), source.get("ref", "")
    if kind == "position":
        return _("%(position)s of %(ranking)s") % {
            "position": ordinal_label(source.get("position") or 0),
            "ranking": ranking_label(ref),
        }
    if kind == "winner":
        return _("winner of %(tie)s") % {"tie": ref}
    if kind == "loser":
        return _("loser of %(tie)s") % {"tie": ref}
    if kind == "team":
        return _("team %(team)s") % {"team": ref}
    inner = ", ".join(str(source_label(s)) for s in source.get("among", ()))
    if kind == "better_of":
        return _("better-placed in %(ranking)s of (%(teams)s)") % {
            "ranking": ranking_label(ref),
            "teams": inner,
        }
    if kind == "worse_of":
        return _("worse-placed in %(ranking)s of (%(teams)s)") % {
            "ranking": ranking_label(ref),
            "teams": inner,
        }
    return source.get("label", ref)


_WAITING = [
    (
        re.compile(r"^staff decision: teams abandoned Primera A \(ANFPES T24 §1\.2\.2\)$"),
        lambda m: _("a staff decision: teams abandoned Primera A (ANFPES T24 §1.2.2)"),
    ),
    (
        re.compile(r"^the (primera_a|primera_b|Primera A|Primera B) table to close$"),
        lambda m: _("the %(table)s table to close") % {"table": _table(m[1])},
    ),
    (
        re.compile(r"^the (.+) table to be closed$"),
        lambda m: _("the %(table)s table to be closed") % {"table": _table(m[1])},
    ),
    (re.compile(r"^a tie in the table$"), lambda m: _("a tie in the table")),
    (
        re.compile(r"^no (.+): staff decision$"),
        lambda m: _("a staff decision: there is no %(slot)s") % {"slot": m[1]},
    ),
    (
        re.compile(r"^the (\S+) table$"),
        lambda m: _("the %(table)s table") % {"table": _table(m[1])},
    ),
    (
        re.compile(r"^the title decider match \(ANFPES T24 §1\.3\.1\)$"),
        lambda m: _("the title decider match (ANFPES T24 §1.3.1)"),
    ),
    (
        re.compile(r"^a staff decision on a tie in the table$"),
        lambda m: _("a staff decision on a tie in the table"),
    ),
    (re.compile(r"^the result of (\S+)$"), lambda m: _("the result of %(tie)s") % {"tie": m[1]}),
    (
        re.compile(r"^staff to close the stage (\S+)$"),
        lambda m: _("staff to close the stage %(stage)s") % {"stage": stage_label(m[1])},
    ),
    (
        re.compile(r"^(\S+) \(another bracket\)$"),
        lambda m: _("%(tie)s (another bracket)") % {"tie": m[1]},
    ),
    (
        re.compile(r"^the (\S+) table$"),
        lambda m: _("the %(table)s table") % {"table": _table(m[1])},
    ),
    (re.compile(r"^not in the bracket$"), lambda m: _("not in the bracket")),
]


def _table(name: str):
    codes = {"Primera A": "primera_a", "Primera B": "primera_b"}
    return ranking_label(codes.get(name, name))


def _match_waiting(text: str):
    """The pattern and match of a waiting text, or ``None`` (unknown text)."""
    for pattern, label in _WAITING:
        found = pattern.match(text)
        if found:
            return label, found
    return None


def waiting_label(text: str | None):
    """What a slot (or next season's divisions) waits for, translated; an unknown text
    shows as itself."""
    if not text:
        return text
    matched = _match_waiting(text)
    return matched[0](matched[1]) if matched else text


_PENDING_HEADS = {
    "relegation": _("Relegation"),
    "champion_b": _("Primera B champion"),
    "promoted_b": _("Promotion final winner"),
}


def pending_label(text: str):
    """One item next season's divisions still wait for
    (:func:`leagues.rules.brackets.next_divisions` ``pending``), translated."""
    head, sep, rest = text.partition(": ")
    if not sep:
        return waiting_label(text)
    if rest == "the Liguilla tie to be decided and closed":
        return _("%(tie)s: the Liguilla tie to be decided and closed") % {"tie": head}
    if head in _PENDING_HEADS:
        return _("%(what)s: waiting for %(why)s") % {
            "what": _PENDING_HEADS[head],
            "why": waiting_label(rest),
        }
    return text


_MOVES = {
    "relegated: last two of Primera A (ANFPES T24 §1.2.1)": _(
        "relegated: last two of Primera A (ANFPES T24 §1.2.1)"
    ),
    "relegated by staff decision (ANFPES T24 §1.2.2)": _(
        "relegated by staff decision (ANFPES T24 §1.2.2)"
    ),
    "relegated (ANFPES T24 §1.2.1–§1.2.2)": _("relegated (ANFPES T24 §1.2.1–§1.2.2)"),
    "Primera B champion (ANFPES T24 §1.3.1)": _("Primera B champion (ANFPES T24 §1.3.1)"),
    "promotion final winner (ANFPES T24 §1.3.2)": _("promotion final winner (ANFPES T24 §1.3.2)"),
    "suspended: relegated (ANFPES T24 §III.4)": _("suspended: relegated (ANFPES T24 §III.4)"),
    "expelled (ANFPES T24 §III.4)": _("expelled (ANFPES T24 §III.4)"),
}
_LIGUILLA_MOVE = re.compile(
    r"^(promoted: won|relegated: lost|stays in Primera A: won|stays in Primera B: lost) "
    r"the Liguilla de Promoción (\S+) \(ANFPES T24 §1\.2\.3\)$"
)
_LIGUILLA_MOVES = {
    "promoted: won": _(
        "promoted to Primera A: won the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "relegated: lost": _(
        "relegated to Primera B: lost the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "stays in Primera A: won": _(
        "stays in Primera A: won the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
    "stays in Primera B: lost": _(
        "stays in Primera B: lost the Liguilla de Promoción %(tie)s (ANFPES T24 §1.2.3)"
    ),
}


def move_label(reason: str):
    """The reason of a move between divisions (or of a team of the Liguilla keeping its
    division), translated."""
    if reason in _MOVES:
        return _MOVES[reason]
    found = _LIGUILLA_MOVE.match(reason)
    if found:
        return _LIGUILLA_MOVES[found[1]] % {"tie": found[2]}
    return reason


def nucommunity_format_label(code: str):
    return NUCOMMUNITY_FORMAT_LABELS.get(code, code)


# Problems the rules raise (:class:`leagues.rules.errors.Reason`: a code and its params;
# the English text stays in the API and the tests) as translated sentences for the pages
# (ANFPES T24 §2.1–§2.2 draws and knockouts).
PROBLEM_LABELS = {
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
"""Problem codes (:data:`leagues.rules.errors.TEXTS`) → labels with named placeholders (a
list parameter is shown joined by commas)."""


def _shown(value):
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else value


def problem_label(problem: Reason | str):
    """A problem raised by the rules as a sentence for the page: the label of its code when
    there is one, else its English text with the first letter capitalised and a full stop
    added."""
    if isinstance(problem, Reason) and problem.code in PROBLEM_LABELS:
        return PROBLEM_LABELS[problem.code] % {k: _shown(v) for k, v in problem.params.items()}
    text = str(problem).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def problems_text(problems) -> str:
    """Several rule problems (:class:`~leagues.rules.errors.Reason` or text) as one message
    (:func:`problem_label` each)."""
    return " ".join(str(problem_label(p)) for p in problems)
