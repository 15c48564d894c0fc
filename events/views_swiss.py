"""Pages of Mitos y Leyendas events (docs/rules-myl.md), phone first.

Staff: the overview, round and standings pages of a MyL event are these (the VEKN views
of ``events.views_manage`` hand over to them), plus the actions below, each wrapped by
``staff_required(permission)``. Players: ``my_match`` lets a signed-in player whose
person record is linked to their account enter their current match's result.

Non-MyL events answer 404 on the MyL-only addresses.
"""

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import headcount, judge_calls, round_clock, rulesets, sanctions, self_report
from events import swiss_services as ss
from events.access import round_or_404, staff_required, user_permissions
from events.confirmations import Confirmation, confirmation_page
from events.errors import ConflictError, UserError
from events.forms import ConfirmForm, MatchResultForm, PlayerResultForm, RematchesForm
from events.models import Event, Registration, Seat, Table
from events.permissions import Permission as P
from penalties.time_extensions import extension_minutes_by_table
from standings import myl


def _require_myl(event):
    if not rulesets.of(event).pairs_matches:
        raise Http404("Not a Mitos y Leyendas event")


def _back(event, name="dashboard", anchor="", query="", **kwargs):
    url = reverse(f"manage:{name}", kwargs={"slug": event.slug, **kwargs})
    return redirect(url + (f"?{query}" if query else "") + (f"#{anchor}" if anchor else ""))


def _need(event) -> int:
    return event.best_of // 2 + 1


def _match_rows(result, rnd) -> list[dict]:
    """The matches of ``rnd`` for display: players' names and statuses, games, winner."""
    out = []
    seed_of = {p: i for i, p in enumerate(result.seeds, start=1)} if rnd.is_top_cut else {}
    for m in result.matches.get(rnd.id, []):
        seats = [
            {
                "id": s.registration_id,
                "position": s.position,
                "name": result.name(s.registration_id),
                "status": result.players[s.registration_id].status,
                "games": s.games_won,
                "loss": s.loss,
                "penalised": s.registration_id in m.penalised,
                "winner": m.winner == s.registration_id and not m.is_bye,
                "seed": seed_of.get(s.registration_id),
            }
            for s in m.seats
        ]
        out.append({"match": m, "number": m.number, "seats": seats})
    return out


def _round_context(request, event, result):
    rounds = result.rounds
    last = rounds[-1] if rounds else None
    swiss_rounds = result.swiss_rounds
    top = result.top_cut_rounds
    last_complete = bool(last and result.round_complete(last))
    can_pair = (
        not top and len(swiss_rounds) < event.preliminary_rounds and (last is None or last_complete)
    )
    top_cut_next = None
    if event.top_cut and result.swiss_done and result.champion is None:
        if not top:
            top_cut_next = _("Start the top %(n)s") % {"n": event.top_cut}
        elif last_complete:
            matches = len(result.matches.get(top[-1].id, []))
            top_cut_next = {4: _("Pair the semi-finals"), 2: _("Pair the top-cut final")}.get(
                matches
            )
    return {
        "event": event,
        "result": result,
        "rounds": [(r, ss.round_label(r, len(result.matches.get(r.id, [])))) for r in rounds],
        "last": last,
        "last_complete": last_complete,
        "can_pair": can_pair,
        "next_number": len(swiss_rounds) + 1,
        "top_cut_next": top_cut_next,
        "champion": result.name(result.champion) if result.champion else None,
        "perms": request.event_permissions,
        "P": P,
        "need": _need(event),
    }


def _bracket(result) -> list[tuple[str, list[dict]]]:
    """Top-cut rounds with their matches, for the bracket display."""
    return [
        (ss.round_label(r, len(result.matches.get(r.id, []))), _match_rows(result, r))
        for r in result.top_cut_rounds
    ]


# ---------------------------------------------------------------- staff pages (handed over)
def blocked_rows(event) -> list[dict]:
    """The checked-in players a sanction keeps out (``sanctions.blocked_players``), each
    with the sanction's summary, for the dashboard's drop buttons."""
    return [
        {
            "name": b.name,
            "registration_id": b.registration_id,
            "summary": sanctions.sanction_summary(b.sanction),
        }
        for b in sanctions.blocked_players(event)
    ]


def dashboard(request, event):
    """The staff overview of a MyL event (``manage:dashboard``)."""
    result = ss.myl_standings(event)
    ctx = _round_context(request, event, result)
    ctx.update(
        {
            "counts": headcount.player_counts(event),
            "offer_rematches": request.GET.get("rematches") == "1",
            "bracket": _bracket(result),
            "blocked": blocked_rows(event),
        }
    )
    return render(request, "swiss/dashboard.html", ctx)


def round_page(request, event, number):
    """A round of a MyL event (``manage:round``): its matches with a result form each,
    and what the players reported (``events.self_report``: a due report stands before
    the standings are read)."""
    self_report.settle_due(event)
    result = ss.myl_standings(event)
    rnd = next((r for r in result.rounds if r.number == number), None)
    if rnd is None:
        raise Http404("No such round")
    ctx = _round_context(request, event, result)
    rows = _match_rows(result, rnd)
    rnd.event = event  # the round's length, without another query
    timing, now = rnd.timing(), timezone.now()
    extensions = extension_minutes_by_table(rnd) if rnd.started_at else {}
    waits = judge_calls.waits_by_table(rnd)  # how long a table waited for a judge (JG §1.2.4)
    reports = self_report.round_reports(event, rnd.id)
    for row in rows:
        row["report"] = reports.get(row["number"])
        row["clock"] = round_clock.clock(timing, now, extensions.get(row["number"], 0))
        if seconds := waits.get(row["number"]):
            row["waited"] = f"{seconds // 60}:{seconds % 60:02d}"
    ctx.update(round_clock.page_context(timing, now))
    ctx.update(
        {
            "round": rnd,
            "label": ss.round_label(rnd, len(rows)),
            "matches": rows,
            "complete": result.round_complete(rnd),
            "has_results": any(s["games"] is not None for m in rows for s in m["seats"]),
            "is_last": rnd == result.rounds[-1],
            "editable": rnd == result.rounds[-1] and not event.results_approved,
            "later": rnd != result.rounds[-1],
            "blocked": blocked_rows(event),
            "offer_rematches": request.GET.get("rematches") == "1",
        }
    )
    return render(request, "swiss/round.html", ctx)


def standings_page(request, event):
    """Staff standings of a MyL event (``manage:standings``)."""
    result = ss.myl_standings(event)
    ctx = _round_context(request, event, result)
    ctx.update(
        {
            "bracket": _bracket(result),
            "rows": _standing_rows(result),
            "cut_tie": [(p, result.name(p)) for p in ss.cut_line_tie(result)],
        }
    )
    return render(request, "swiss/standings.html", ctx)


def export_csv(request, event):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = csv.writer(response)
    for line in ss.standings_csv_rows(ss.myl_standings(event)):
        writer.writerow(line)
    return response


def _standing_rows(result) -> list[dict]:
    labels = {
        "champion": _("Champion"),
        "finalist": _("Finalist"),
        "semi_finalist": _("Semi-finalist"),
        "quarter_finalist": _("Quarter-finalist"),
    }
    rows = []
    for row, info in result.rows():
        notes = []
        if row.top_cut_result:
            notes.append(str(labels[row.top_cut_result]))
        elif row.top_cut:
            notes.append(str(_("Top %(n)s") % {"n": result.event.top_cut}))
        if info.status == "dropped":
            notes.append(str(_("dropped")))
        rows.append(
            {
                "rank": row.rank,
                "name": info.name,
                "code": info.code,
                "match_points": row.match_points,
                "record": f"{row.wins}–{row.draws}–{row.losses}",
                "omw": myl.percent(row.omw),
                "gw_pct": myl.percent(row.gw_pct),
                "ogw": myl.percent(row.ogw),
                "note": " · ".join(notes),
                "css": "winner"
                if row.top_cut_result == "champion"
                else ("finalist" if row.top_cut else ""),
            }
        )
    return rows


def public_standings(request, event, staff: bool) -> str:
    """The body of the public standings page of a MyL event (cached by the caller)."""

    result = ss.myl_standings(event)
    return render_to_string(
        "swiss/public_standings.html",
        {
            "event": event,
            "result": result,
            "rows": _standing_rows(result),
            "bracket": _bracket(result),
            "champion": result.name(result.champion) if result.champion else None,
            "is_staff": staff,
        },
        request=request,
    )


def print_standings(request, event, ctx: dict):
    """The printed standings of a MyL event (``manage:print-standings``, issue 14): the
    Swiss table and the top cut, as the public page shows them. ``ctx`` is the printed
    pages' common context (``events.views_print``)."""
    result = ss.myl_standings(event)
    ctx.update(
        {
            "result": result,
            "rows": _standing_rows(result),
            "bracket": _bracket(result),
            "champion": result.name(result.champion) if result.champion else None,
        }
    )
    return render(request, "swiss/print_standings.html", ctx)


def _match_context(request, event, table, games=None, error=None):
    result = ss.myl_standings(event)
    rnd = table.round
    row = next(m for m in _match_rows(result, rnd) if m["match"].table_id == table.id)
    if games is not None:
        for seat, value in zip(row["seats"], games, strict=False):
            seat["games"] = value
    return {
        "event": event,
        "round": rnd,
        "label": ss.round_label(rnd),
        "table": table,
        "m": row,
        "need": _need(event),
        "error": error,
        "perms": request.event_permissions,
        "P": P,
        "locked": ss.match_lock(table, may_correct=P.OVERRIDE_RESULTS in request.event_permissions),
    }


def match_page(request, event, number, table_number):
    """One match's result form (``manage:table`` of a MyL event, and ``myl-match``):
    the games each player won. A judge may correct it after the next round is paired."""
    rnd = round_or_404(event, number)
    table = get_object_or_404(Table.objects.select_related("round"), round=rnd, number=table_number)
    if request.method != "POST":
        return render(request, "swiss/match.html", _match_context(request, event, table))
    form = MatchResultForm(request.POST)
    values = form.values()
    if not form.is_valid():
        if form.stale:
            messages.error(request, _("The form is out of date: reload the page."))
            return redirect(request.path)
        ctx = _match_context(request, event, table, games=values, error=form.first_error())
        return render(request, "swiss/match.html", ctx, status=400)
    try:
        games = [ss.parse_games(v) for v in form.cleaned_values()]
        ss.save_match_result(
            table,
            games,
            version=form.cleaned_data["version"],
            actor=request.user,
            may_correct=P.OVERRIDE_RESULTS in request.event_permissions,
        )
    except ConflictError as exc:
        table.refresh_from_db()
        ctx = _match_context(request, event, table, error=str(exc))
        ctx["your_values"] = values
        return render(request, "swiss/match.html", ctx, status=409)
    except UserError as exc:
        ctx = _match_context(request, event, table, games=values, error=str(exc))
        return render(request, "swiss/match.html", ctx, status=400)
    if games[0] is None:
        messages.info(request, _("Table %(n)s cleared.") % {"n": table.number})
    else:
        messages.success(
            request,
            _("Table %(n)s saved: %(a)s–%(b)s.")
            % {"n": table.number, "a": games[0], "b": games[1]},
        )
    return _back(event, "round", anchor=f"match-{table.number}", number=number)


# ---------------------------------------------------------------- staff actions
@staff_required(P.ENTER_RESULTS)
def match_result(request, event, number, table_number):
    _require_myl(event)
    return match_page(request, event, number, table_number)


def pair_view(request, event):
    """Pair the next Swiss round. ``allow_rematches=1`` (head judge or organiser: the
    ``run_final`` permission) pairs it with the fewest possible rematches."""
    _require_myl(event)
    form = RematchesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return _back(event)
    allow = form.cleaned_data["allow_rematches"]
    if allow and P.RUN_FINAL not in request.event_permissions:
        messages.error(request, _("Only the head judge or the organiser can allow rematches."))
        return _back(event)
    try:
        rnd = ss.pair_next_round(event, request.user, allow_rematches=allow)
    except UserError as exc:
        messages.error(request, str(exc))
        return _back(event, query="rematches=1" if exc.field == "rematches" else "")
    messages.success(request, _("%(round)s paired.") % {"round": rnd})
    return _back(event, "round", number=rnd.number)


def repair_view(request, event, number):
    """Pair the last Swiss round again (no result entered yet)."""
    _require_myl(event)
    rnd = round_or_404(event, number)
    form = RematchesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return _back(event, "round", number=number)
    allow = form.cleaned_data["allow_rematches"]
    if allow and P.RUN_FINAL not in request.event_permissions:
        messages.error(request, _("Only the head judge or the organiser can allow rematches."))
        return _back(event, "round", number=number)
    try:
        ss.repair_round(rnd, request.user, allow_rematches=allow)
        messages.success(request, _("Round paired again."))
    except UserError as exc:
        messages.error(request, str(exc))
        return _back(
            event, "round", number=number, query="rematches=1" if exc.field == "rematches" else ""
        )
    return _back(event, "round", number=number)


pair = staff_required(P.MANAGE_SEATING)(require_POST(pair_view))
repair = staff_required(P.MANAGE_SEATING)(require_POST(repair_view))


@staff_required(P.RUN_FINAL)
@require_POST
def top_cut(request, event):
    """Pair the next top-cut round (the seeds, then the winners)."""
    _require_myl(event)
    # Asked once, when the last Swiss round is paired and no top-cut round is (before
    # that the service refuses anyway; the later stages only pair the winners).
    rounds = list(event.rounds.values_list("is_top_cut", flat=True))
    starting = not any(rounds) and len(rounds) >= event.preliminary_rounds
    if event.top_cut and starting and not ConfirmForm(request.POST).is_valid():
        return confirmation_page(request, event, _top_cut_confirmation(event))
    try:
        rnd = ss.pair_top_cut(event, request.user)
    except UserError as exc:
        messages.error(request, str(exc))
        return _back(event)
    messages.success(request, _("%(round)s paired.") % {"round": ss.round_label(rnd)})
    return _back(event, "round", number=rnd.number)


def _top_cut_confirmation(event) -> Confirmation:
    """Starting the top cut: the seeds come from the Swiss standings as they are."""
    return Confirmation(
        title=_("Start the top %(n)s?") % {"n": event.top_cut},
        consequences=[
            _("The top %(n)s players are seeded from the Swiss standings as they are now.")
            % {"n": event.top_cut},
            _("No further Swiss round can be paired."),
        ],
        action=reverse("manage:myl-top-cut", kwargs={"slug": event.slug}),
        fields={},
        button=_("Start the top %(n)s") % {"n": event.top_cut},
        cancel_url=reverse("manage:dashboard", kwargs={"slug": event.slug}),
    )


# ---------------------------------------------------------------- players
def _save_own_result(request, event, seat, form: PlayerResultForm) -> None:
    """Report a player's own result (``my_match``) from their valid form, in seat order
    (``events.self_report``: the opponent confirms it, or the event's countdown makes it
    stand), and say how it went."""
    own, other = form.cleaned_data["own"], form.cleaned_data["opponent"]
    raw = [own, other] if seat.position == 1 else [other, own]
    try:
        self_report.report_result(event, request.user, raw)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Result sent: %(a)s–%(b)s. Your opponent confirms it.") % {"a": own, "b": other},
        )


@login_required
def my_match(request, slug):
    """The signed-in player's current match in a MyL event, where they report its result
    (their games and their opponent's) and the opponent confirms or disputes it; the
    result stands once confirmed, or after the event's countdown (docs/players.md
    "Reporting your table's result"). Once a result is entered only a judge changes
    it."""
    event = get_object_or_404(Event, slug=slug)
    _require_myl(event)
    person = getattr(request.user, "person", None)
    reg = (
        Registration.objects.filter(event=event, person=person).select_related("person").first()
        if person is not None
        else None
    )
    ctx = {"event": event, "reg": reg, "is_staff": bool(user_permissions(request.user, event))}
    if reg is None:
        return render(request, "swiss/my_match.html", ctx)
    seat = ss.current_match(event, reg)
    if request.method == "POST" and seat is not None:
        form = PlayerResultForm(request.POST)
        if not form.is_valid():
            stale = _("The form is out of date: reload the page.")
            messages.error(request, stale if form.stale else form.first_error())
        else:
            _save_own_result(request, event, seat, form)
        return redirect(reverse("events:my-match", args=[event.slug]))
    if seat is not None:
        later = event.rounds.filter(number__gt=seat.round.number).exists()
        # First: a report whose countdown ran out stands now (events.self_report).
        panel = (
            self_report.table_panel(reg, seat.table_id)
            if not seat.table.is_bye and not later
            else None
        )
        seats = list(Seat.objects.filter(table=seat.table).select_related("registration__person"))
        opponent = next((s for s in seats if s.registration_id != reg.id), None)
        own_seat = next(s for s in seats if s.registration_id == reg.id)
        ctx.update(
            {
                "seat": own_seat,
                "table": seat.table,
                "round": seat.round,
                "label": ss.round_label(seat.round),
                "opponent": opponent,
                "entered": any(s.games_won is not None for s in seats),
                "can_enter": reg.active
                and not later
                and not seat.table.is_bye
                and not event.results_approved
                and all(s.games_won is None for s in seats)
                and (panel is None or panel.can_report),
                "need": _need(event),
                "panel": panel,
                "bye_games": myl.bye_games(event.best_of),
            }
        )
    return render(request, "swiss/my_match.html", ctx)
