"""Translated labels of the stable codes of the compliance table and the draft order.

The rules (:mod:`leagues.rules.compliance`, :mod:`leagues.rules.draft`) speak in stable
codes with English explanations; pages show these labels instead (gettext, the lead runs
``makemessages``). A code without a label shows as itself.
"""

from django.utils.translation import gettext_lazy as _

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
