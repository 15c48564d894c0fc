"""Standings tables: django-tables2 for the organiser's page (server-side rendering, CSV
export), and plain row dicts for the public page (``StandingsTable.public_rows``), which is
rendered again after every result save.

The public page used to render the same ``StandingsTable`` through django-tables2, which
inspects a function signature and merges attributes for each of its ~2,100 cells of a
300-player event (≈ 90 % of the page's render time). ``public_rows`` computes every cell
once in Python and ``templates/events/_standings_table.html`` prints them in a plain loop:
the same columns, headers, CSS classes and markup (``tests/events/views/test_public_cache.py``
compares the two).
"""

import django_tables2 as tables
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from events import rulesets


def _abbr_html(short, title) -> SafeString:
    return format_html('<abbr title="{}"><span lang="en">{}</span></abbr>', title, short)


abbr = lazy(_abbr_html, SafeString)
"""A column header ``<abbr title="Game Wins"><span lang="en">GW</span></abbr>``, translated
when rendered (the phone layout shows the short form; the title, in the reader's language,
tells what it stands for). The short forms are the rulebook's English ones in every
language (the Spanish catalogue keeps GW, VP, TP), hence ``lang="en"`` (WCAG 3.1.2)."""


class StandingsTable(tables.Table):
    """Standings rows (dicts built by ``from_result``) in rank order."""

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    vekn = tables.Column(
        verbose_name=_("VEKN"), attrs={"th": {"class": "vekn"}, "td": {"class": "muted vekn"}}
    )
    prelim_gw = tables.Column(
        verbose_name=abbr(_("GW"), _("Game Wins")), attrs={"td": {"class": "num"}}
    )
    prelim_vp = tables.Column(
        verbose_name=abbr(_("VP"), _("Victory Points")), attrs={"td": {"class": "num"}}
    )
    prelim_tp = tables.Column(
        verbose_name=abbr(_("TP"), _("Tournament Points")), attrs={"td": {"class": "num"}}
    )
    final_vp = tables.Column(verbose_name=_("Final VP"), attrs={"td": {"class": "num"}}, default="")
    rating_points = tables.Column(
        verbose_name=abbr(_("RtP"), _("Rating points")), attrs={"td": {"class": "num"}}, default=""
    )
    note = tables.Column(
        verbose_name=_("Notes"),
        default="",
        orderable=False,
        attrs={"th": {"class": "note"}, "td": {"class": "note"}},
    )

    class Meta:
        orderable = False
        attrs = {"class": "grid standings"}
        row_attrs = {"class": lambda record: record["css"]}

    @classmethod
    def from_result(cls, result, request=None, *, public: bool = False):
        """Build the table from ``standings.services.EventStandings``; ``public`` hides the
        VEKN numbers (public pages show names and standing only). The rating points
        column (TR Appendix A) shows only when the event gives them."""
        exclude = ("vekn",) if public else ()
        if getattr(result, "rating_points", None) is None:
            exclude += ("rating_points",)
        return cls(standings_rows(result), exclude=exclude)

    @property
    def public_rows(self) -> list[dict]:
        """The rows for ``templates/events/_standings_table.html`` (:func:`public_rows`)."""
        return public_rows(self.data.data)


def standings_rows(result) -> list[dict]:
    """One dict per player in rank order: the cells of ``StandingsTable`` and ``css``, the
    row's class (``winner``, ``finalist`` or empty)."""
    winner, finalist = str(_("Winner")), str(_("Finalist"))
    dropped = str(_("dropped"))
    by_player = adjustment_notes(result)
    points = getattr(result, "rating_points", None) or {}
    rows = []
    for row, info in result.rows():
        notes = list(by_player.get(row.player, ()))
        if row.winner:
            notes.append(winner)
        elif row.finalist and result.prelims_done:
            notes.append(finalist)
        if row.toss:
            notes.append(str(_("toss #%(n)s") % {"n": row.toss}))
        if info.status == "dropped":
            notes.append(dropped)
        rows.append(
            {
                "rank": row.rank,
                "name": info.name,
                "vekn": info.vekn_number,
                "prelim_gw": row.prelim_gw,
                "prelim_vp": row.prelim_vp,
                "prelim_tp": row.prelim_tp,
                "final_vp": "" if row.final_vp is None else row.final_vp,
                "rating_points": points.get(row.player, ""),
                "note": " · ".join(notes),
                "css": "winner"
                if row.winner
                else ("finalist" if row.finalist and result.prelims_done else ""),
            }
        )
    return rows


def adjustment_notes(result) -> dict[int, list[str]]:
    """What standings adjustments took from each player, with the round they hit (JG
    §1.1.3; ``EventStandings.adjustments``): registration id → notes such as
    "−1 VP in Round 2 (standings adjustment)", in round order. No query: the rounds are
    the result's own."""
    by_number = {r.number: r for r in result.rounds}
    notes: dict[int, list[str]] = {}
    for (player, number), vp in sorted(result.adjustments.items()):
        rnd = by_number.get(number)
        if rnd is None:
            continue
        notes.setdefault(player, []).append(
            str(
                _("%(vp)s VP in %(round)s (standings adjustment)")
                % {
                    "vp": f"{vp.normalize():f}".replace("-", "−"),
                    "round": rulesets.round_label(rnd, event=result.event),
                }
            )
        )
    return notes


def public_rows(rows: list[dict]) -> list[dict]:
    """:func:`standings_rows` as ``templates/events/_standings_table.html`` prints them: with
    each row's ``row_class`` as django-tables2 writes it (its class, then ``even`` or
    ``odd``) and its default ("—") for an empty name."""
    out = []
    for i, row in enumerate(rows):
        parity = "odd" if i % 2 else "even"
        out.append(
            {
                **row,
                "name": "—" if row["name"] in (None, "") else row["name"],
                "row_class": f"{row['css']} {parity}" if row["css"] else parity,
            }
        )
    return out
