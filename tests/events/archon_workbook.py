"""A small legacy Archon workbook made with openpyxl for the tests (the layout of
``events/archon_sheet.py``), from an ``arbitro.event/1`` dict: no binary in the repo."""

import io

from openpyxl import Workbook


def archon_workbook(
    event: dict,
    *,
    rounds_total=None,
    level="Standard Constructed",
    game_format="Constructed",
    totals=None,
    coins=None,
    drop_sheets=(),
    edit=None,
) -> bytes:
    """The ``.xlsx`` bytes of ``event`` (players, rounds, final) laid out like The Archon
    v1.5: ``totals`` ``{pid: (gw, vp, tp)}`` fill Methuselahs H–J, ``coins`` ``{pid: n}``
    the coin ranking (M); ``edit(workbook)`` changes it before saving."""
    wb = Workbook()
    wb.active.title = "Instructions"
    info = wb.create_sheet("Tournament Info")
    prelims = [r for r in event["rounds"] if not r["final"]]
    for row, label, value in (
        (3, "Event Name:", event["name"]),
        (4, "Event Date (DD-MON-YY):", event["date"]),
        (8, "Format (Constructed/Limited):", game_format),
        (9, "Level (Normal/Qualifier/Championship/Nationals)", level),
        (11, "Number of Rounds (including final):", rounds_total or len(prelims) + 1),
    ):
        info[f"A{row}"], info[f"B{row}"] = label, value
    players = wb.create_sheet("Methuselahs")
    players["A3"] = "Player Information"
    for col, top, header in (
        ("A", "Player", "Num."),
        ("B", "Player", "First Name"),
        ("C", "Player", "Last Name"),
        ("D", "Player", "City"),
        ("E", "V:EKN", "Num."),
        ("G", "DQ", "Flag"),
        ("H", "Results - Rnds 1, 2, 3", "GWs"),
        ("I", None, "VPs"),
        ("J", None, "TPs"),
        ("M", "Coin", "Ranking"),
    ):
        players[f"{col}5"], players[f"{col}6"] = top, header
    number = {}
    for i, p in enumerate(event["players"], start=1):
        row = 6 + i
        number[p["id"]] = int(p["id"][1:])
        first, _, last = p["name"].partition(" ")
        players[f"A{row}"] = number[p["id"]]
        players[f"B{row}"], players[f"C{row}"] = first, last
        players[f"D{row}"] = "Santiago"
        if p.get("vekn"):
            players[f"E{row}"] = int(p["vekn"])
        if totals and p["id"] in totals:
            for col, value in zip("HIJ", totals[p["id"]], strict=True):
                players[f"{col}{row}"] = value
        if coins and p["id"] in coins:
            players[f"M{row}"] = coins[p["id"]]
    for r in prelims:
        ws = wb.create_sheet(f"Round {r['number']}")
        ws["A3"] = f"Round {r['number']}"
        for col, header in zip(
            "ABCDE", ("#", "Player First Name", "Player Last Name", "Table#", "VPs"), strict=True
        ):
            ws[f"{col}6"] = header
        for t, table in enumerate(r["tables"], start=1):
            for s, seat in enumerate(table):
                row = 7 + (t - 1) * 5 + s
                ws[f"A{row}"] = number[seat["player"]]
                ws[f"D{row}"] = t
                if seat.get("vp") is not None:
                    ws[f"E{row}"] = seat["vp"]
    for name in ("Round 2", "Round 3"):
        if name not in wb.sheetnames:
            wb.create_sheet(name)  # The Archon always has three round sheets.
    final = wb.create_sheet("Final Round")
    final["A3"] = "Final Round"
    for col, header in zip(
        "ABCDEF",
        ("#", "Player First Name", "Player Last Name", "Table#", "Tbl Rank", "VPs"),
        strict=True,
    ):
        final[f"{col}13"] = header
    for r in event["rounds"]:
        if r["final"]:
            for s, seat in enumerate(r["tables"][0]):
                final[f"A{14 + s}"] = number[seat["player"]]
                final[f"D{14 + s}"] = 1
                if seat.get("vp") is not None:
                    final[f"F{14 + s}"] = seat["vp"]
    wb.create_sheet("VEKN Report")
    for name in drop_sheets:
        del wb[name]
    if edit:
        edit(wb)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
