"""django-tables2 tables for standings pages (server-side rendering, CSV export)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class StandingsTable(tables.Table):
    """Standings rows (dicts built by ``from_result``) in rank order."""

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    vekn = tables.Column(verbose_name=_("VEKN"), attrs={"td": {"class": "muted"}})
    prelim_gw = tables.Column(verbose_name=_("GW"), attrs={"td": {"class": "num"}})
    prelim_vp = tables.Column(verbose_name=_("VP"), attrs={"td": {"class": "num"}})
    prelim_tp = tables.Column(verbose_name=_("TP"), attrs={"td": {"class": "num"}})
    final_vp = tables.Column(verbose_name=_("Final VP"), attrs={"td": {"class": "num"}}, default="")
    note = tables.Column(verbose_name=_("Notes"), default="", orderable=False)

    class Meta:
        orderable = False
        attrs = {"class": "grid standings"}
        row_attrs = {"class": lambda record: record["css"]}

    @classmethod
    def from_result(cls, result, request=None, *, public: bool = False):
        """Build the table from ``standings.services.EventStandings``; ``public`` hides the
        VEKN numbers (public pages show names and standing only)."""
        rows = []
        for row, info in result.rows():
            notes = []
            if row.winner:
                notes.append(str(_("Winner")))
            elif row.finalist and result.prelims_done:
                notes.append(str(_("Finalist")))
            if row.toss:
                notes.append(str(_("toss #%(n)s") % {"n": row.toss}))
            if info.status == "dropped":
                notes.append(str(_("dropped")))
            rows.append(
                {
                    "rank": row.rank,
                    "name": info.name,
                    "vekn": info.vekn_number,
                    "prelim_gw": row.prelim_gw,
                    "prelim_vp": row.prelim_vp,
                    "prelim_tp": row.prelim_tp,
                    "final_vp": "" if row.final_vp is None else row.final_vp,
                    "note": " · ".join(notes),
                    "css": "winner"
                    if row.winner
                    else ("finalist" if row.finalist and result.prelims_done else ""),
                }
            )
        return cls(rows, exclude=("vekn",) if public else ())
