"""The texts of the league reminders (docs/leagues.md "Reminders"), built as
:class:`events.notify_rules.Notice` values: each says what is at stake in the compliance
table ("Tuxedo Mask", ANFPES T24 §IV.4: 2 points played before the initial deadline, 1
before the final deadline, 0 after it; a player below the table's threshold is "guadañado"
at the review, §IV.3). Pure: translated with ``gettext`` in the active language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from events.notify_rules import Kind, Notice

__all__ = ["deadline_notice", "report_notice"]


def deadline_notice(which: str, match_name: str, when: str, url: str) -> Notice:
    """A deadline reminder: ``which`` is ``"initial"`` or ``"final"``, ``when`` the
    deadline already written in the season's time zone."""
    params = {"match": match_name, "when": when, "url": url}
    if which == "initial":
        subject = _("%(match)s: initial deadline %(when)s") % params
        body = (
            _(
                "Play %(match)s before the initial deadline (%(when)s) to earn 2 points in "
                "the compliance table; after it the match earns at most 1 (ANFPES T24 "
                "§IV.4). Agree a time with your opponent: %(url)s"
            )
            % params
        )
    else:
        subject = _("%(match)s: final deadline %(when)s") % params
        body = (
            _(
                "Last chance for a compliance point: play %(match)s before the final "
                "deadline (%(when)s). After it the match earns 0 points in the compliance "
                "table, which counts at the staff's review (ANFPES T24 §IV.3–§IV.4): %(url)s"
            )
            % params
        )
    return Notice(Kind.LEAGUE_DEADLINE, subject, body, url, {"match": match_name, "which": which})


def report_notice(match_name: str, score: str, url: str) -> Notice:
    """A reminder that the opponent's report still waits for the reader's answer."""
    params = {"match": match_name, "score": score, "url": url}
    subject = _("%(match)s: the result %(score)s still waits for you") % params
    body = (
        _(
            "Your opponent reported %(score)s for %(match)s. Confirm it or dispute it: until "
            "then the match is not played in the table, and the compliance table counts "
            "it only once the result is accepted (ANFPES T24 §IV.4). %(url)s"
        )
        % params
    )
    return Notice(Kind.LEAGUE_REPORT, subject, body, url, {"match": match_name, "score": score})
