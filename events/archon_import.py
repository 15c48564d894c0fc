"""Importing a past event from the legacy Archon spreadsheet (docs/rules-vekn.md "Importing
past events"): the workbook is read into an ``arbitro.event/1`` file
(:mod:`events.archon_sheet`, pure) and saved by :func:`events.interchange.import_event`, so
it is validated, located and rated (TR Appendix A) exactly like an event file, in one
transaction. The preliminary totals the workbook computed itself (Methuselahs H–J) must
agree with ours, else nothing is saved: a disagreement means the sheet was not read as
its author meant.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from events import archon_sheet
from events.interchange import EventFileError, import_event
from standings.services import event_standings, standings_document


def import_archon(
    data: bytes,
    *,
    slug: str | None = None,
    organisation=None,
    replace: bool = False,
    publish: bool = False,
    actor=None,
):
    """Import the ``.xlsx`` bytes of an Archon workbook as a VEKN event; returns the
    ``Event``. Raises :class:`events.interchange.EventFileError` listing every problem
    (the sheet and cell of a layout or value problem, the file's location of a rule
    problem, each total that disagrees); nothing is saved then."""
    try:
        workbook = archon_sheet.open_workbook(data)
        file = archon_sheet.read_archon(workbook, slug=slug)
        totals = archon_sheet.sheet_totals(workbook)
    except archon_sheet.ArchonSheetError as error:
        raise EventFileError(error.problems) from None
    with transaction.atomic():
        event = import_event(
            file, organisation=organisation, replace=replace, publish=publish, actor=actor
        )
        problems = _disagreements(event, totals)
        if problems:
            raise EventFileError(problems)
    return event


def _disagreements(event, totals: dict[str, tuple[Decimal, Decimal, Decimal]]) -> list[str]:
    """Each player whose preliminary GW, VP or TP differ from the workbook's own sums."""
    if not totals:
        return []
    problems = []
    for row in standings_document(event_standings(event))["standings"]:
        expected = totals.get(row["player"])
        if expected is None:
            continue
        ours = (
            Decimal(row["prelim_gw"]),
            Decimal(str(row["prelim_vp"])),
            Decimal(row["prelim_tp"]),
        )
        for label, mine, theirs in zip(("GW", "VP", "TP"), ours, expected, strict=True):
            if mine != theirs:
                problems.append(
                    f"Methuselahs: player {row['player'][1:]} ({row['name']}) has {theirs} {label}"
                    f" in the workbook but {mine} from its round sheets; nothing was imported"
                )
    return problems
