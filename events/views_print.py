"""Printed pages of an event (issue 14): seating by table, "find your seat" by name, result
slips (VEKN tables) or match slips (MyL matches), standings and the incident reports, each
a server-rendered page with a print style sheet (``static/css/print.css``: ``@page`` size
auto, so A4 and Letter both fit; a table card or slip is never split across sheets) and a
QR code of the event's public page (``events.qr``).

The staff pages need ``VIEW_STAFF_PAGES``, like the pages they print. The public seating
print shows what the public seating page shows: the latest published round (staff: the
latest round). What differs between the rulesets comes from the registry
(``events.rulesets``): its ``template_folder`` holds the slips and standings templates,
``pairs_matches`` tells a match from a VEKN table (docs/architecture.md "The ruleset seam").
"""

from __future__ import annotations

import unicodedata

from django.http import HttpRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from events import rulesets, services
from events.access import round_or_404, staff_required, user_permissions
from events.models import Event, Round
from events.permissions import Permission as P
from events.qr import qr_svg
from penalties import rulebooks
from penalties.models import Penalty
from standings.services import event_standings
from standings.tables import StandingsTable


def _absolute(request: HttpRequest, name: str, slug: str) -> str:
    return request.build_absolute_uri(reverse(name, kwargs={"slug": slug}))


def _context(request: HttpRequest, event: Event, *, seating: bool = False, **extra) -> dict:
    """What every printed page shows: the event, its ruleset's spec, the back link, and the
    QR code of the event's public page (``seating``: of its public seating page)."""
    name = "events:public-seating" if seating else "events:public-event"
    url = _absolute(request, name, event.slug)
    return {
        "event": event,
        "spec": rulesets.of(event),
        "qr": qr_svg(url, title=_("Public page")),
        "qr_url": url,
        **extra,
    }


def seat_rows(tables: list[dict], pairs_matches: bool) -> list[dict]:
    """The tables of ``services.round_overview`` for print: ``{"table", "is_bye", "rows"}``
    with one row per seat in seat order, ``{"position", "name", "vekn", "predator",
    "prey"}``. At a VEKN table each player's prey is the next seat and their predator the
    one before, round the table (TR §3.4.1, docs/rules-vekn.md "Seating"); a match has
    neither (``None``)."""
    out = []
    for t in tables:
        seats = t["seats"]
        names = [s.registration.person.name for s in seats]
        cycle = not pairs_matches and len(seats) > 1
        rows = [
            {
                "position": s.position,
                "name": names[i],
                "vekn": s.registration.person.vekn_number,
                "predator": names[i - 1] if cycle else None,
                "prey": names[(i + 1) % len(seats)] if cycle else None,
            }
            for i, s in enumerate(seats)
        ]
        out.append({"table": t["table"], "is_bye": t["table"].is_bye, "rows": rows})
    return out


def sort_key(name: str) -> str:
    """``name`` for sorting: case and accents aside (``"Álvaro"`` → ``"alvaro"``)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_rows(tables: list[dict]) -> list[dict]:
    """Find your seat: every seated player of ``tables`` (:func:`seat_rows`) sorted by
    name (:func:`sort_key`), ``{"name", "table", "seat", "letter"}``; ``letter`` (the
    first letter, upper case, without accent) is set on the first name of each letter
    only, for its heading."""
    rows = sorted(
        (
            {"name": r["name"], "table": t["table"].number, "seat": r["position"]}
            for t in tables
            for r in t["rows"]
        ),
        key=lambda r: (sort_key(r["name"]), r["table"]),
    )
    previous = None
    for row in rows:
        first = sort_key(row["name"])[:1].upper()
        row["letter"] = first if first != previous else ""
        previous = first
    return rows


def _round_tables(rnd: Round) -> list[dict]:
    return seat_rows(services.round_overview(rnd), rulesets.of(rnd.event).pairs_matches)


# ---------------------------------------------------------------- staff
@staff_required(P.VIEW_STAFF_PAGES)
def print_index(request, event):
    """The list of what can be printed: per round, then standings and incident reports."""
    rounds = list(event.rounds.order_by("number"))
    return render(
        request,
        "print/index.html",
        {
            "event": event,
            "rounds": rounds,
            "spec": rulesets.of(event),
            "penalties": Penalty.objects.filter(event=event)
            .exclude(status=Penalty.Status.VOIDED)
            .count(),
        },
    )


@staff_required(P.VIEW_STAFF_PAGES)
def print_seating(request, event, number):
    """A round's seating by table: table number, then each seat in order (VEKN: with its
    predator and prey)."""
    rnd = round_or_404(event, number)
    return render(
        request,
        "print/seating.html",
        _context(request, event, seating=True, round=rnd, tables=_round_tables(rnd), by_table=True),
    )


@staff_required(P.VIEW_STAFF_PAGES)
def print_names(request, event, number):
    """A round's "find your seat" list: every player by name → table and seat."""
    rnd = round_or_404(event, number)
    names = name_rows(_round_tables(rnd))
    return render(
        request,
        "print/seating.html",
        _context(request, event, seating=True, round=rnd, names=names, by_name=True),
    )


@staff_required(P.VIEW_STAFF_PAGES)
def print_slips(request, event, number):
    """One slip per table of a round, from the ruleset's template folder: a VEKN result
    slip (players in seat order, VP and GW boxes, signatures) or a MyL match slip (two
    players, games-won boxes, signatures). Byes get no slip."""
    rnd = round_or_404(event, number)
    spec = rulesets.of(event)
    tables = _round_tables(rnd)
    return render(
        request,
        f"{spec.template_folder}/print_slips.html",
        _context(
            request,
            event,
            round=rnd,
            tables=[t for t in tables if not t["is_bye"]],
            byes=[r["name"] for t in tables if t["is_bye"] for r in t["rows"]],
        ),
    )


@staff_required(P.VIEW_STAFF_PAGES)
def print_standings(request, event):
    """The standings as the staff page computes them, in the ruleset's own columns."""
    if own := rulesets.of(event).manage_page("print_standings"):
        return own(request, event, _context(request, event))
    result = event_standings(event)
    table = StandingsTable.from_result(result, request=request, public=True)
    return render(
        request,
        "manage/print_standings.html",
        _context(request, event, result=result, table=table),
    )


@staff_required(P.VIEW_STAFF_PAGES)
def print_penalties(request, event):
    """The incident reports: one sheet per penalty not voided (oldest first), with the
    infraction's name and level in its own rulebook's words, what was written about it
    (the DQ report when there is one) and signature lines. ``?penalty=<id>``: that one."""
    penalties = (
        Penalty.objects.filter(event=event)
        .exclude(status=Penalty.Status.VOIDED)
        .select_related("person", "reported_by", "confirmed_by", "table", "dq_report")
        .order_by("created_at", "pk")
    )
    one = request.GET.get("penalty", "")
    if one:
        penalties = penalties.filter(pk=int(one) if one.isdecimal() and len(one) < 10 else 0)
    rows = [
        {
            "penalty": p,
            "infraction": rulebooks.infraction_title(p.ruleset, p.infraction),
            "level": rulebooks.level_words(p.ruleset, p.level),
            "report": getattr(p, "dq_report", None),
        }
        for p in penalties
    ]
    return render(request, "print/penalties.html", _context(request, event, rows=rows))


# ---------------------------------------------------------------- public
def public_seating_print(request, slug):
    """The public seating page for print: the latest published round (staff: the latest
    round, marked when unpublished), by table and then by name. Nothing published: the
    "not published" page, as ``events.views.seating_page`` answers."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    staff = bool(user_permissions(request.user, event))
    rounds = event.rounds.order_by("-number")
    rnd = rounds.first() if staff else rounds.filter(seating_published=True).first()
    if rnd is None:
        return render(request, "events/not_published.html", {"event": event, "what": "seating"})
    tables = _round_tables(rnd)
    return render(
        request,
        "print/seating.html",
        _context(
            request,
            event,
            seating=True,
            round=rnd,
            tables=tables,
            names=name_rows(tables),
            by_table=True,
            by_name=True,
            public=True,
            is_staff=staff,
        ),
    )
