"""Exports of an event's standings: CSV and the VEKN report ("archondata").

TR §9, ``docs/rules-vekn.md`` "Reporting": per player rank, names, VEKN number, preliminary GW, preliminary
VP, final VP, TP, toss and rating points (TR Appendix A).
"""

from decimal import Decimal

from events.limits import csv_text
from standings.services import EventStandings, row_rating_points

CSV_HEADER = [
    "rank",
    "player",
    "name",
    "vekn",
    "prelim_gw",
    "prelim_vp",
    "prelim_tp",
    "finalist",
    "final_vp",
    "winner",
    "toss",
    "rating_points",
]


def _vp(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.1f}"


def standings_csv_rows(result: EventStandings):
    """Rows of the standings CSV (header first); same columns as the standings API."""
    yield CSV_HEADER
    for row, info in result.rows():
        yield [
            row.rank,
            csv_text(info.code),
            csv_text(info.name),
            csv_text(info.vekn_number),
            row.prelim_gw,
            _vp(row.prelim_vp),
            row.prelim_tp,
            int(row.finalist),
            _vp(row.final_vp),
            int(row.winner),
            row.toss or "",
            _points(row_rating_points(result, row.player)),
        ]


def _points(value: int | None) -> str:
    return "" if value is None else str(value)


def split_name(name: str) -> tuple[str, str]:
    """First and last name guessed from one name field: the first word, then the rest
    **[choice]**: the report asks for two, and a person whose names the organiser did not
    give apart has one (:func:`report_names` prefers those given)."""
    parts = name.strip().split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1] if len(parts) > 1 else ""


def report_names(name: str, first: str = "", last: str = "") -> tuple[str, str]:
    """The first and last names the VEKN report lists (TR §9): those the organiser gave
    (``first``, ``last``: ``Person.first_name``, ``last_name``), else :func:`split_name`'s
    guess from ``name``. ("María José Herrera" given as "María José" + "Herrera" stays so;
    guessed, it would be "María" + "José Herrera".)"""
    if first or last:
        return first, last
    return split_name(name)


ARCHON_HEADER = "2¤"
FIELD_SEPARATOR = "§"
RECORD_SEPARATOR = "¤"


def archondata(result: EventStandings) -> str:
    """The VEKN "archondata" record layout (TR §9; ``docs/rules-vekn.md`` "Reporting"): one record per player in
    standings order, fields ``rank§first name§last name§VEKN number§prelim GW§prelim VP§
    final VP§TP§toss§rating points``, records joined by ``¤`` after a ``2¤`` header. The
    rating points (TR Appendix A.2) are empty while the event gives none.

    **[to verify against the VEKN API]**: the record separator is our reading of the
    spec; the field order is the spec's. Separator characters inside names are replaced
    by spaces so a record can never be split wrongly, and the text fields (names, VEKN
    number) are neutralised as in the CSV (:func:`csv_text`: a leading ``= + - @`` gets an
    apostrophe), since the file is opened in spreadsheets too; names are otherwise
    unchanged.
    """
    records = []
    for row, info in result.rows():
        first, last = report_names(info.name, info.first_name, info.last_name)
        fields = [
            str(row.rank),
            first,
            last,
            info.vekn_number,
            str(row.prelim_gw),
            _vp(row.prelim_vp),
            _vp(row.final_vp) if row.final_vp is not None else "0",
            str(row.prelim_tp),
            str(row.toss or 0),
            _points(row_rating_points(result, row.player)),
        ]
        clean = [f.replace(FIELD_SEPARATOR, " ").replace(RECORD_SEPARATOR, " ") for f in fields]
        clean[1:4] = [csv_text(f) for f in clean[1:4]]  # first name, last name, VEKN number
        records.append(FIELD_SEPARATOR.join(clean))
    return ARCHON_HEADER + RECORD_SEPARATOR.join(records)
