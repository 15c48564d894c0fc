"""The legacy Archon spreadsheet (the VEKN's Excel workbook "The Archon", v1.5) read into an
``arbitro.event/1`` file (docs/contracts.md §1), so past events import like any other and
give rating points (TR Appendix A; docs/rules-vekn.md "Importing past events").

Pure: a workbook (``openpyxl``) in, a dict out, or :class:`ArchonSheetError` listing every
problem with its sheet and cell (``Round 2 A9: player 17 is not on the Methuselahs
sheet``). No database.

The layout accepted (the one the Archon's own formulas use; anything else is refused
naming the missing sheet or header):

- ``Tournament Info``: B3 event name, B4 event date, B8 format (``Constructed`` |
  ``Limited``), B9 level (``Grand Prix``, ``National Championship`` and ``Continental
  Championship`` are levels of their own; ``Limited`` is a limited event), B11 number of rounds including the final.
- ``Methuselahs``: headers in row 6 (A ``Num.``, B ``First Name``, C ``Last Name``, E
  ``Num.`` under ``V:EKN`` in row 5, G ``Flag`` under ``DQ``, M ``Ranking`` under
  ``Coin``); one player a row from row 7 until the first row without a number.
- ``Round 1`` … ``Round N`` (N = B11 − 1): headers in row 6 (A ``#``, D ``Table#``, E
  ``VPs``); from row 7 one seat a row, in seat order, in blocks of five rows per table
  (a four-player table leaves its fifth row empty). The table is D when it holds a number,
  else the row's block (the Archon's own formula).
- ``Final Round``: headers in row 13 (A ``#``, F ``VPs``); the finalists in rows 14–18 in
  seat order.

**[choice]** An empty VP cell of a seated player counts 0, as the Archon's own formulas
count it (``=IF(ISNUMBER(E7),E7,0)``). The coin ranking (Methuselahs M, smaller first)
becomes the file's ``toss``. A disqualification flag (Methuselahs G) is refused: the
disqualification and its incident go in an event file (docs/contracts.md §1).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

INFO = "Tournament Info"
PLAYERS = "Methuselahs"
FINAL = "Final Round"
FIRST_ROW = 7
FINAL_ROWS = range(14, 19)
TABLE_ROWS = 5
MAX_PLAYERS = 300
MAX_BYTES = 20 * 1024 * 1024

# (sheet, row, column letter, expected header) — the headers that say "this is the Archon".
PLAYER_HEADERS = (
    (6, "A", "Num."),
    (6, "B", "First Name"),
    (6, "C", "Last Name"),
    (5, "E", "V:EKN"),
    (6, "E", "Num."),
)
ROUND_HEADERS = ((6, "A", "#"), (6, "D", "Table#"), (6, "E", "VPs"))
FINAL_HEADERS = ((13, "A", "#"), (13, "F", "VPs"))
INFO_LABELS = ((3, "Event Name"), (4, "Event Date"), (11, "Number of Rounds"))

CHAMPIONSHIPS = {
    "grand prix": "grand_prix",
    "national championship": "national",
    "continental championship": "continental",
}
DATE_FORMATS = ("%d-%b-%y", "%d-%b-%Y", "%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y")


class ArchonSheetError(ValueError):
    """The workbook is not a readable Archon: ``problems`` lists every one, located."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Cell:
    """A located value: ``where`` is ``Sheet A7``."""

    value: object
    where: str


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _number(value) -> Decimal | None:
    """A cell's number (int, float or numeric text), or None for an empty cell."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError from None
    if not number.is_finite():
        raise ValueError
    return number


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:80] or "archon-event"


def _date(value, problems: list[str]) -> str | None:
    where = f"{INFO} B4"
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    text = _text(value)
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    problems.append(f"{where}: the event date is missing or not a date (e.g. 28-NOV-26)")
    return None


def _header_problems(ws, sheet: str, headers) -> list[str]:
    out = []
    for row, column, expected in headers:
        found = _text(ws[f"{column}{row}"].value)
        if found.casefold() != expected.casefold():
            out.append(
                f"{sheet} {column}{row}: the header {expected!r} is missing (found {found!r});"
                " this is not the Archon layout (docs/rules-vekn.md, 'Importing past events')"
            )
    return out


def open_workbook(data: bytes):
    """The workbook of an ``.xlsx`` file's bytes (formula cells read as their last computed
    values), or :class:`ArchonSheetError` for a file that is not one."""
    if len(data) > MAX_BYTES:
        raise ArchonSheetError([f"the file is larger than {MAX_BYTES // (1024 * 1024)} MB"])
    try:
        return load_workbook(io.BytesIO(data), data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as error:
        raise ArchonSheetError([f"not an Excel .xlsx workbook ({error})"]) from None


def read_archon(workbook, *, slug: str | None = None) -> dict:
    """The ``arbitro.event/1`` dict (VEKN) of an Archon workbook (module docstring for the
    layout): ``players`` (``id`` ``p<number>``, ``name``, ``first_name``, ``last_name``,
    ``vekn``), ``rounds`` (the preliminary rounds, then the final), ``toss``, and the
    rating keys ``game_format``, ``championship``, ``online`` (false). ``slug`` defaults to
    the event name and date. Raises :class:`ArchonSheetError` with every problem."""
    problems: list[str] = []
    names = set(workbook.sheetnames)
    missing = [s for s in (INFO, PLAYERS, FINAL) if s not in names]
    if missing:
        raise ArchonSheetError(
            [
                f"sheet {s!r} is missing: this is not the Archon layout"
                " (docs/rules-vekn.md, 'Importing past events')"
                for s in missing
            ]
        )
    info, players_ws, final_ws = workbook[INFO], workbook[PLAYERS], workbook[FINAL]
    for row, label in INFO_LABELS:
        if not _text(info[f"A{row}"].value).casefold().startswith(label.casefold()):
            problems.append(f"{INFO} A{row}: the label {label!r} is missing")
    problems += _header_problems(players_ws, PLAYERS, PLAYER_HEADERS)
    problems += _header_problems(final_ws, FINAL, FINAL_HEADERS)
    if problems:
        raise ArchonSheetError(problems)

    name = _text(info["B3"].value)
    if not name:
        problems.append(f"{INFO} B3: the event name is missing")
    date = _date(info["B4"].value, problems)
    rounds_total = None
    try:
        rounds_total = _number(info["B11"].value)
    except ValueError:
        pass
    prelim = None
    if rounds_total is None or rounds_total != int(rounds_total) or not 3 <= rounds_total <= 13:
        problems.append(
            f"{INFO} B11: the number of rounds including the final must be a whole number"
            " from 3 to 13"
        )
    else:
        prelim = int(rounds_total) - 1
        for n in range(1, prelim + 1):
            if f"Round {n}" not in names:
                problems.append(
                    f"sheet 'Round {n}' is missing ({INFO} B11 says {prelim + 1} rounds)"
                )
    level = _text(info["B9"].value).casefold()
    game_format = (
        "limited"
        if _text(info["B8"].value).casefold() == "limited" or level == "limited"
        else "standard"
    )

    players, known, toss = _players(players_ws, problems)
    rounds = []
    if prelim is not None and not any(p.startswith("sheet 'Round") for p in problems):
        for n in range(1, prelim + 1):
            ws = workbook[f"Round {n}"]
            header = _header_problems(ws, f"Round {n}", ROUND_HEADERS)
            if header:
                problems += header
                continue
            rounds.append({"number": n, "final": False, "tables": _tables(ws, n, known, problems)})
        final = _final(final_ws, known, problems)
        if final:
            rounds.append({"number": prelim + 1, "final": True, "tables": [final]})
    if problems:
        raise ArchonSheetError(problems)
    file = {
        "format": "arbitro.event/1",
        "ruleset": "vekn",
        "slug": slug or _slug(f"{name} {date}"),
        "name": name[:200],
        "date": date,
        "players": players,
        "rounds": rounds,
        "game_format": game_format,
        "championship": CHAMPIONSHIPS.get(level),
        "online": False,
    }
    if toss:
        file["toss"] = toss
    return file


def _players(ws, problems: list[str]) -> tuple[list[dict], set[str], list[str]]:
    players: list[dict] = []
    known: set[str] = set()
    coins: list[tuple[Decimal, str]] = []
    coin_column = _text(ws["M5"].value).casefold() == "coin"
    row = FIRST_ROW
    while row < FIRST_ROW + MAX_PLAYERS + 1:
        where = f"{PLAYERS} A{row}"
        try:
            number = _number(ws[f"A{row}"].value)
        except ValueError:
            problems.append(f"{where}: the player number must be a whole number")
            row += 1
            continue
        if number is None:
            break
        if number != int(number) or number < 1:
            problems.append(f"{where}: the player number must be a whole number ≥ 1")
            row += 1
            continue
        pid = f"p{int(number)}"
        if pid in known:
            problems.append(f"{where}: player number {int(number)} is used twice")
        known.add(pid)
        first, last = _text(ws[f"B{row}"].value), _text(ws[f"C{row}"].value)
        player = {"id": pid, "name": " ".join(n for n in (first, last) if n)}
        if first and last:
            player |= {"first_name": first, "last_name": last}
        if not player["name"]:
            problems.append(f"{PLAYERS} B{row}: player {int(number)} has no name")
        vekn = _text(ws[f"E{row}"].value)
        if vekn:
            if not vekn.isdigit():
                problems.append(f"{PLAYERS} E{row}: the VEKN number {vekn!r} is not digits")
            player["vekn"] = vekn
        if _text(ws[f"G{row}"].value):
            problems.append(
                f"{PLAYERS} G{row}: player {int(number)} is flagged disqualified (DQ); import"
                " this event as an event file with the disqualification's incident"
                " (docs/contracts.md §1)"
            )
        if coin_column:
            try:
                coin = _number(ws[f"M{row}"].value)
            except ValueError:
                coin = None
            if coin is not None and coin > 0:
                coins.append((coin, pid))
        players.append(player)
        row += 1
    if not players:
        problems.append(f"{PLAYERS} A{FIRST_ROW}: no player is listed")
    return players, known, [pid for _coin, pid in sorted(coins)]


def _seat(ws, sheet: str, row: int, vp_column: str, known: set[str], problems: list[str]):
    """``(player id, vp)`` of one seat row, None for an empty row."""
    try:
        number = _number(ws[f"A{row}"].value)
    except ValueError:
        problems.append(f"{sheet} A{row}: the player number must be a whole number")
        return None
    if number is None:
        return None
    pid = f"p{int(number)}"
    if number != int(number) or pid not in known:
        problems.append(f"{sheet} A{row}: player {_text(number)} is not on the {PLAYERS} sheet")
        return None
    try:
        vp = _number(ws[f"{vp_column}{row}"].value)
    except ValueError:
        problems.append(f"{sheet} {vp_column}{row}: the victory points must be a number")
        return None
    return pid, float(vp) if vp is not None else 0.0


def _tables(ws, n: int, known: set[str], problems: list[str]) -> list[list[dict]]:
    sheet = f"Round {n}"
    tables: dict[int, list[dict]] = {}
    seen: set[str] = set()
    last_row = min(ws.max_row, FIRST_ROW + MAX_PLAYERS)
    for row in range(FIRST_ROW, last_row + 1):
        seat = _seat(ws, sheet, row, "E", known, problems)
        if seat is None:
            continue
        pid, vp = seat
        if pid in seen:
            problems.append(f"{sheet} A{row}: player {pid[1:]} is seated twice")
        seen.add(pid)
        try:
            table = _number(ws[f"D{row}"].value)
        except ValueError:
            table = None
        number = int(table) if table is not None else (row - FIRST_ROW) // TABLE_ROWS + 1
        tables.setdefault(number, []).append({"player": pid, "vp": vp})
    if not tables:
        problems.append(f"{sheet} A{FIRST_ROW}: no player is seated")
    return [tables[k] for k in sorted(tables)]


def _final(ws, known: set[str], problems: list[str]) -> list[dict]:
    seats = []
    for row in FINAL_ROWS:
        seat = _seat(ws, FINAL, row, "F", known, problems)
        if seat is not None:
            seats.append({"player": seat[0], "vp": seat[1]})
    if not seats:
        problems.append(f"{FINAL} A14: no finalist is seated (rows 14–18)")
    return seats


def sheet_totals(workbook) -> dict[str, tuple[Decimal, Decimal, Decimal]]:
    """The preliminary totals the workbook itself computed, ``{player id: (GW, VP, TP)}``
    (Methuselahs H, I, J: the Archon's sums of its round sheets), for the players whose
    three cells hold numbers — a workbook saved by a spreadsheet program keeps them; one
    never opened there has none, and nothing is compared."""
    ws = workbook[PLAYERS]
    totals: dict[str, tuple[Decimal, Decimal, Decimal]] = {}
    for row in range(FIRST_ROW, FIRST_ROW + MAX_PLAYERS + 1):
        try:
            number = _number(ws[f"A{row}"].value)
            values = tuple(_number(ws[f"{c}{row}"].value) for c in "HIJ")
        except ValueError:
            continue
        if number is None:
            break
        if all(v is not None for v in values):
            totals[f"p{int(number)}"] = values  # type: ignore[assignment]
    return totals
