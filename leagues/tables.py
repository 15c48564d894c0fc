"""django-tables2 tables of the league pages (server-side rendering)."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

TIE_BREAKER_LABELS = {
    "points": _("points"),
    "goal_difference": _("goal difference"),
    "goals_for": _("goals for"),
    "won": _("wins"),
    "fewest_no_shows": _("fewest no-shows"),
    "head_to_head": _("head-to-head points"),
    "head_to_head_goal_difference": _("head-to-head goal difference"),
    "head_to_head_goals_for": _("head-to-head goals for"),
    "decision": _("decision"),
}
"""Labels of the stable tie-breaker codes of :mod:`leagues.rules.table`, and of
``decision`` (:data:`leagues.rules.table.DECISION`: a staff decision or a decider match),
which would otherwise show untranslated ("supera al siguiente por decision", issue 14)."""

UNRESOLVED_LABELS = {
    "title_decider": _("Decider match required"),
    "decision_required": _("Staff decision required"),
}


def tie_breaker_label(code):
    return TIE_BREAKER_LABELS.get(code, code)


def _num(title, *, detail=False):
    """Attributes of a number column. ``detail``: hidden on phones (``hide-sm``), so that
    the table fits a 360-pixel screen with position, team, P, GD and points."""
    # app.css lets grid cells wrap anywhere (long names); numbers must not break: its
    # ``.league-table td.num`` rule says so (no style attribute: the content security
    # policy forbids them).
    css = "num hide-sm" if detail else "num"
    return {"td": {"class": css}, "th": {"class": css, "title": title}}


class LeagueTable(tables.Table):
    """Rows of the docs/contracts.md §6 table document (``leagues.services.competition_table``)."""

    position = tables.Column(verbose_name="#", attrs=_num(_("Position")))
    name = tables.Column(verbose_name=_("Team"), attrs={"td": {"class": "team-cell"}})
    played = tables.Column(verbose_name=_("P"), attrs=_num(_("Played")))
    won = tables.Column(verbose_name=_("W"), attrs=_num(_("Won"), detail=True))
    drawn = tables.Column(verbose_name=_("D"), attrs=_num(_("Drawn"), detail=True))
    lost = tables.Column(verbose_name=_("L"), attrs=_num(_("Lost"), detail=True))
    goals_for = tables.Column(verbose_name=_("GF"), attrs=_num(_("Goals for"), detail=True))
    goals_against = tables.Column(verbose_name=_("GA"), attrs=_num(_("Goals against"), detail=True))
    goal_difference = tables.Column(verbose_name=_("GD"), attrs=_num(_("Goal difference")))
    adjustments = tables.Column(verbose_name=_("Adj."), attrs=_num(_("Points adjustments")))
    no_shows = tables.Column(verbose_name=_("NS"), attrs=_num(_("No-shows"), detail=True))
    points = tables.Column(verbose_name=_("Pts"), attrs=_num(_("Points")))

    class Meta:
        orderable = False
        attrs = {"class": "grid league-table"}
        row_attrs = {"class": lambda record: record["css"]}

    def render_name(self, value, record):
        """The team, and under it which criterion placed it above the next team (or the
        flag of a tie only a decision can break): on every screen size."""
        if not record["note"]:
            return value
        return format_html('{}<br><small class="muted">{}</small>', value, record["note"])

    def render_goal_difference(self, value):
        return f"{value:+d}" if value else "0"

    def render_adjustments(self, value):
        return f"{value:+d}" if value else "—"

    def render_no_shows(self, value):
        return value or "—"

    @classmethod
    def from_document(cls, doc, request=None):
        """Build the table from a table document (one group's, for a group stage): the
        note says which criterion placed the team above the next one, or flags a tie
        that only a decider match or a staff decision can break."""
        unresolved = {}
        for tie in doc.get("unresolved", []):
            for team in tie["teams"]:
                unresolved[team] = tie["reason"]
        rows = []
        for row in doc["rows"]:
            if row["team"] in unresolved:
                note = str(UNRESOLVED_LABELS.get(unresolved[row["team"]], _("Tied")))
                css = "unresolved"
            elif row.get("separated_by") and row["separated_by"] != "points":
                note = str(
                    _("above the next on %(criterion)s")
                    % {"criterion": tie_breaker_label(row["separated_by"])}
                )
                css = ""
            else:
                note, css = "", ""
            rows.append({**row, "note": note, "css": css})
        return cls(rows, request=request)
