"""Staff pages of one event (organiser, head judge, judge, scorekeeper). Every view is
wrapped by ``staff_required(permission)``; views only parse input, call a service and
render. htmx requests get the fragment only (Django template partials)."""

import csv

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import (
    deck_check_services,
    deck_play,
    exports,
    headcount,
    judge_calls,
    people,
    roster,
    round_clock,
    rulesets,
    sanctions,
    seating_labels,
    self_report,
    services,
    staffing,
    vekn_sync,
    views_swiss,
)
from events.access import organisation_organiser_required, round_or_404, staff_required
from events.audit import player_names
from events.confirmations import Confirmation, confirmation_page
from events.errors import ConflictError, UserError
from events.forms import (
    AddPlayerForm,
    ClaimDecisionForm,
    ConfirmForm,
    EventCreateForm,
    EventSettingsForm,
    FinalActionForm,
    PlayerStatusForm,
    PublishForm,
    ResultSheetForm,
    StaffForm,
    StaffRemoveForm,
    SwapSeatsForm,
    TossForm,
    preset_initial,
)
from events.models import AuditLog, PlayerClaim, Registration, Seat, Table
from events.models import EventRole as ER
from events.permissions import Permission as P
from events.permissions import Role
from penalties.authority import sanctions_of_players
from standings import vekn
from standings.services import event_standings
from standings.tables import StandingsTable


def _back(event, name="dashboard", **kwargs):
    return redirect(reverse(f"manage:{name}", kwargs={"slug": event.slug, **kwargs}))


def _fail(request, exc: UserError):
    messages.error(request, str(exc))


# ---------------------------------------------------------------- event
@organisation_organiser_required
def event_create(request, org):
    # ``?preset=myl-2026`` opens the form with that preset's fields and values.
    form = EventCreateForm(
        request.POST or None, initial=preset_initial(request.GET.get("preset", "vekn-2026"))
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            event = services.create_event(
                org,
                preset=data.pop("preset"),
                slug=data.pop("slug"),
                name=data.pop("name"),
                date=data.pop("date"),
                actor=request.user,
                **data,
            )
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            ER.objects.get_or_create(event=event, user=request.user, role=Role.ORGANISER)
            messages.success(request, _("Event created."))
            return _back(event)
    return render(request, "manage/event_form.html", {"form": form, "organisation": org})


@staff_required(P.VIEW_STAFF_PAGES)
def dashboard(request, event):
    if own := rulesets.of(event).manage_page("dashboard"):
        return own(request, event)
    rounds = list(event.rounds.order_by("number"))
    last = rounds[-1] if rounds else None
    return render(
        request,
        "manage/dashboard.html",
        {
            "event": event,
            "rounds": rounds,
            "last": last,
            "last_complete": bool(last and services.round_complete(last)),
            "counts": headcount.player_counts(event),
            "blocked": views_swiss.blocked_rows(event),
            "perms": request.event_permissions,
            "P": P,
            "event_adapters": rulesets.of(event).adapters,
        },
    )


def _vekn_number_warning(request, event, person) -> None:
    """With the VEKN link on, a soft warning when the VEKN registry does not know the
    number or gives it another name (docs/vekn-link.md "The member registry"); never
    blocks the registration, the VEKN unreachable included."""
    if "vekn_link" not in rulesets.of(event).adapters or not person.vekn_number:
        return
    check = vekn_sync.check_number(person.vekn_number, person.name)
    if check.warning:
        messages.warning(request, check.warning)


@staff_required(P.EDIT_EVENT)
def event_settings(request, event):
    form = EventSettingsForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        changed = {k: form.cleaned_data[k] for k in form.changed_data}
        event.refresh_from_db()
        try:
            services.update_event(event, request.user, **changed)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Settings saved."))
            return _back(event)
    return render(request, "manage/settings.html", {"event": event, "form": form})


# ---------------------------------------------------------------- players
@staff_required(P.VIEW_STAFF_PAGES)
def players(request, event):
    return render(request, "manage/players.html", _players_context(request, event))


def _players_context(request, event, form=None, offer=()):
    """The players page: ``form`` (the add form, as typed) and ``offer`` (people of the
    organisation with that name, offered before creating a second record)."""
    regs = list(event.registrations.select_related("person").order_by("person__name"))
    # Each player's live suspensions and bans (any ruleset, any organisation): who gave
    # them, the authority's confirmation, the appeal, whether they block this event.
    by_person = sanctions_of_players(event)
    for r in regs:
        r.sanctions = by_person.get(r.person_id, [])
        r.blocked = any(x.blocks_here for x in r.sanctions)
    return {
        "event": event,
        "registrations": regs,
        "counts": headcount.player_counts(event),
        "form": form or AddPlayerForm(ruleset=event.ruleset),
        "offer": offer,
        "claims": _event_claims(event, request.user),
        "account_links": _account_links(event, request),
        "to_check_in": sum(
            1 for r in regs if r.competing and r.status == Registration.Status.REGISTERED
        ),
        "undo_check_in": roster.last_check_in_all(event)
        if P.MANAGE_PLAYERS in request.event_permissions
        else None,
        "missing_numbers": [r.person.name for r in regs if r.competing and not r.person.vekn_number]
        if rulesets.of(event).reports_player_numbers
        else [],
        "perms": request.event_permissions,
        "P": P,
    }


def _event_claims(event, user):
    """Pending account claims on a VEKN number of a player registered in this event that
    ``user`` may decide (``people.decidable_claims``): others are not even listed."""
    numbers = event.registrations.exclude(person__vekn_number="").values("person__vekn_number")
    pending = PlayerClaim.objects.filter(status=PlayerClaim.Status.PENDING, vekn_number__in=numbers)
    return people.decidable_claims(user, pending).select_related("person", "user")


def _account_links(event, request):
    """The last account claims decided about players who first played in this event's
    organisation (``people.decide_claim`` audits each on that event): who linked or
    refused which account, from any page, administrators included. One query; only for
    those who may decide claims here."""
    if P.EDIT_EVENT not in request.event_permissions:
        return []
    return list(
        AuditLog.objects.filter(
            event__organisation_id=event.organisation_id,
            action__in=("player.claim_approved", "player.claim_rejected"),
        ).select_related("actor", "event")[:20]
    )


@staff_required(P.EDIT_EVENT)
@require_POST
def claim_decide(request, event, claim_id):
    """Confirm or reject an account's claim to a person registered in this event."""
    claim = get_object_or_404(_event_claims(event, request.user), pk=claim_id)
    form = ClaimDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return _back(event, "players")
    try:
        people.decide_claim(claim, form.approve, request.user, event)
    except UserError as exc:
        _fail(request, exc)
    return _back(event, "players")


@staff_required(P.MANAGE_PLAYERS)
@require_POST
def player_add(request, event):
    form = AddPlayerForm(request.POST, ruleset=event.ruleset)
    if form.is_valid():
        data = form.cleaned_data
        offer = (
            roster.namesakes(data["name"], event)
            if data["name"] and not data["vekn_number"] and not data["new_person"]
            else []
        )
        if data["person"]:
            # The organiser picked a person offered for this name: only one offered.
            person = next((p for p in offer if p.pk == data["person"]), None)
            if person is None:
                messages.error(request, _("That player can no longer be chosen: try again."))
                return _back(event, "players")
            try:
                services.register(event, person, request.user, check_in=data["check_in"])
            except UserError as exc:
                _fail(request, exc)
            else:
                messages.success(request, _("%(name)s registered.") % {"name": person.name})
            return _back(event, "players")
        if offer:
            ctx = _players_context(request, event, form=form, offer=offer)
            return render(request, "manage/players.html", ctx)
        try:
            if not form.cleaned_data["vekn_number"]:
                namesake = sanctions.namesake_sanction(form.cleaned_data["name"], event)
                if namesake is not None:
                    raise UserError(
                        _(
                            "A player named %(name)s is suspended or banned on this date: "
                            "give the player number to tell them apart."
                        )
                        % {"name": namesake.person.name},
                        field="vekn_number",
                    )
            person = people.find_or_create_person(
                form.cleaned_data["name"],
                form.cleaned_data["vekn_number"],
                organisation=event.organisation,
                first_name=form.cleaned_data["first_name"],
                last_name=form.cleaned_data["last_name"],
            )
            reg = services.register(
                event, person, request.user, check_in=form.cleaned_data["check_in"]
            )
        except UserError as exc:
            _fail(request, exc)
        else:
            if reg.first_round > 1:
                messages.success(
                    request,
                    _("%(name)s added as a late arrival: plays from round %(n)s.")
                    % {"name": person.name, "n": reg.first_round},
                )
            else:
                messages.success(request, _("%(name)s registered.") % {"name": person.name})
            _vekn_number_warning(request, event, person)
    else:
        for error in form.non_field_errors() + [e for f in form.errors.values() for e in f]:
            messages.error(request, error)
    return _back(event, "players")


@staff_required(P.MANAGE_PLAYERS)
@require_POST
def player_status(request, event, reg_id):
    reg = get_object_or_404(Registration, pk=reg_id, event=event)
    form = PlayerStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown status."))
    elif _drop_unconfirmed(reg, form.cleaned_data):
        return confirmation_page(request, event, _drop_confirmation(request, event, reg))
    else:
        try:
            services.set_status(reg, form.cleaned_data["status"], request.user)
        except UserError as exc:
            _fail(request, exc)
    if request.htmx:
        reg.refresh_from_db()
        reg.sanctions = sanctions_of_players(event).get(reg.person_id, [])
        reg.blocked = any(x.blocks_here for x in reg.sanctions)
        return render(
            request,
            "manage/players.html#row",
            {
                "event": event,
                "r": reg,
                "perms": request.event_permissions,
                "P": P,
                "swap_focus": True,
            },
        )
    return _back(event, "players")


def _drop_unconfirmed(reg, data) -> bool:
    """A drop of a player not yet dropped, without the confirmation (issue 14)."""
    dropped = Registration.Status.DROPPED
    return data["status"] == dropped and reg.status != dropped and not data["confirm"]


def _drop_confirmation(request, event, reg) -> Confirmation:
    """The drop's confirmation: the ruleset's consequences (VEKN: TR §3.1.4)."""
    name = reg.person.name
    action = reverse("manage:player-status", kwargs={"slug": event.slug, "reg_id": reg.pk})
    return Confirmation(
        title=_("Drop %(name)s?") % {"name": name},
        consequences=[
            str(rulesets.of(event).drop_consequence),
            _("You can check them in again later if they come back."),
        ],
        action=action,
        fields={"status": Registration.Status.DROPPED},
        button=_("Drop %(name)s") % {"name": name},
        cancel_url=reverse("manage:players", kwargs={"slug": event.slug}),
        hx_target=f"#confirm-{reg.pk}" if request.htmx else "",
        card_id=f"confirm-{reg.pk}" if request.htmx else "confirm",
    )


# ---------------------------------------------------------------- rounds
def _reseat_confirmation(event, rnd) -> Confirmation:
    """Seating ``rnd`` again from scratch (only while it has no result)."""
    return Confirmation(
        title=_("Seat %(round)s again?") % {"round": rnd},
        consequences=[
            _("Every table is drawn again: the seating the players have seen changes."),
            _("Printed seatings and slips of this round are out of date: print them again."),
        ],
        action=reverse("manage:round-reseat", kwargs={"slug": event.slug, "number": rnd.number}),
        fields={},
        button=_("Seat again"),
        cancel_url=reverse("manage:round", kwargs={"slug": event.slug, "number": rnd.number}),
    )


def _final_confirmation(event) -> Confirmation:
    """Creating the VEKN final from the standings as they are (TR §3.1)."""
    return Confirmation(
        title=_("Start the final?"),
        consequences=[
            _("The finalists are taken from the standings as they are now (TR §3.1)."),
            _("No further preliminary round can be seated."),
        ],
        action=reverse("manage:final", kwargs={"slug": event.slug}),
        fields={"action": FinalActionForm.START},
        button=_("Start the final"),
        cancel_url=reverse("manage:final", kwargs={"slug": event.slug}),
    )


@staff_required(P.MANAGE_SEATING)
@require_POST
def round_seat(request, event):
    if own := rulesets.of(event).manage_page("round_seat"):
        return own(request, event)
    try:
        rnd = services.seat_next_round(event, request.user)
    except UserError as exc:
        _fail(request, exc)
        return _back(event)
    messages.success(request, _("%(round)s seated.") % {"round": rnd})
    return _back(event, "round", number=rnd.number)


@staff_required(P.VIEW_STAFF_PAGES)
def round_detail(request, event, number):
    if own := rulesets.of(event).manage_page("round_detail"):
        return own(request, event, number)
    rnd = round_or_404(event, number)
    score = services.seating_score(rnd) if not rnd.is_final else None
    # Players' reports first: a due one stands before the sheets are read (events.self_report).
    reports = self_report.round_reports(event, rnd.pk)
    tables = services.round_overview(rnd)
    # How long each table waited for a judge it called (JG §1.2.4), by the "Time" button.
    waits = judge_calls.waits_by_table(rnd)
    for t in tables:
        t["report"] = reports.get(t["table"].number)
        if seconds := waits.get(t["table"].number):
            t["waited"] = f"{seconds // 60}:{seconds % 60:02d}"
    names = {s.registration_id: s.registration.person.name for t in tables for s in t["seats"]}
    violations = []
    if score and rnd.number > 1:
        # In round 1 there is no history: every criterion about repeats is moot and the
        # VP/transfer spreads are what a single round gives.
        violations = [
            seating_labels.violation_row(v)
            for v in score.violations
            if rnd.number in v.rounds or not v.rounds
        ]
    return render(
        request,
        "manage/round.html",
        {
            "event": event,
            "round": rnd,
            "tables": tables,
            "score": score,
            "violations": violations,
            "rule_rows": [
                (seating_labels.rule_row(rule), value)
                for rule, value in zip(services.seating_rules.RULES, score.rules, strict=True)
            ]
            if score
            else [],
            "names": names,
            "blocked": views_swiss.blocked_rows(event),
            "perms": request.event_permissions,
            "P": P,
            "complete": services.round_complete(rnd),
            "deck_check_tables": deck_check_services.tables_in_progress(rnd),
            "has_results": any(s.vp is not None for t in tables for s in t["seats"]),
            **round_clock.page_context(rnd.timing(), timezone.now()),
        },
    )


@staff_required(P.MANAGE_SEATING)
@require_POST
def round_reseat(request, event, number):
    if own := rulesets.of(event).manage_page("round_reseat"):
        return own(request, event, number)
    rnd = round_or_404(event, number)
    if not ConfirmForm(request.POST).is_valid():
        return confirmation_page(request, event, _reseat_confirmation(event, rnd))
    try:
        services.reseat_round(rnd, request.user)
        messages.success(request, _("Round seated again."))
    except UserError as exc:
        _fail(request, exc)
    return _back(event, "round", number=number)


@staff_required(P.MANAGE_SEATING)
@require_POST
def round_swap(request, event, number):
    if own := rulesets.of(event).manage_page("round_swap"):
        return own(request, event, number)
    rnd = round_or_404(event, number)
    form = SwapSeatsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose two players."))
        return _back(event, "round", number=number)
    before = services.seating_score(rnd)
    try:
        services.swap_seats(rnd, form.cleaned_data["a"], form.cleaned_data["b"], request.user)
    except UserError as exc:
        _fail(request, exc)
    else:
        after = services.seating_score(rnd)
        messages.success(
            request,
            _("Seats swapped. Seating score %(before)s → %(after)s (lower is better).")
            % {"before": f"{before.total:,.0f}", "after": f"{after.total:,.0f}"},
        )
    return _back(event, "round", number=number)


@staff_required(P.PUBLISH)
@require_POST
def round_publish(request, event, number):
    rnd = round_or_404(event, number)
    back = _back(event, "final") if rnd.is_final else _back(event, "round", number=number)
    form = PublishForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return back
    published = form.cleaned_data["published"]
    services.set_seating_published(rnd, published, request.user)
    if rulesets.of(event).pairs_matches:
        messages.success(request, _("Pairings published.") if published else _("Pairings hidden."))
    else:
        messages.success(request, _("Seating published.") if published else _("Seating hidden."))
    return back


# ---------------------------------------------------------------- results
def _table(event, number, table_number) -> Table:
    rnd = round_or_404(event, number)
    return get_object_or_404(Table.objects.select_related("round"), round=rnd, number=table_number)


def _result_context(request, event, table, values=None, error=None, override=""):
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__person").order_by("position")
    )
    reported = None
    if values is None:
        values = [s.vp for s in seats]
        # A table the players reported (docs/players.md): the form starts from their
        # values; the judge's save closes the report (events.report_locks).
        reported = self_report.open_report(table)
        if reported is not None and all(s.vp is None for s in seats if not s.loss):
            values = [None if v == "—" else v for v in reported.values]
    check = None
    parse_error = None
    try:
        parsed = [services.parse_vp(v) for v in values]
        check = services.table_check([v for s, v in zip(seats, parsed, strict=True) if not s.loss])
    except UserError as exc:
        parse_error = str(exc)
    return {
        "event": event,
        "table": table,
        "round": table.round,
        "rows": list(zip(seats, values, strict=True)),
        "check": check,
        "parse_error": parse_error,
        "all_entered": all(
            v is not None and str(v).strip()
            for v, s in zip(values, seats, strict=True)
            if not s.loss
        ),
        "error": error,
        "override": override,
        "reported": reported,
        "can_override": P.OVERRIDE_RESULTS in request.event_permissions,
        "locked": services.result_lock(
            table, may_override=P.OVERRIDE_RESULTS in request.event_permissions
        ),
    }


@staff_required(P.ENTER_RESULTS)
def table_result(request, event, number, table_number):
    if own := rulesets.of(event).manage_page("table_result"):
        return own(request, event, number, table_number)
    table = _table(event, number, table_number)
    if request.method != "POST":
        return render(request, "manage/result.html", _result_context(request, event, table))
    form = ResultSheetForm(request.POST, seats=table.seats.count())
    values = form.values()
    if not form.is_valid():
        if form.stale:
            messages.error(request, _("The form is out of date: reload the page."))
            return redirect(request.path)
        ctx = _result_context(request, event, table, values=values, error=form.first_error())
        return render(request, "manage/result.html", ctx, status=400)
    override = form.cleaned_data["override_reason"]
    try:
        parsed = [services.parse_vp(v) for v in form.cleaned_values()]
        outcome = services.save_results(
            table,
            parsed,
            version=form.cleaned_data["version"],
            actor=request.user,
            override_reason=override,
            may_override=P.OVERRIDE_RESULTS in request.event_permissions,
        )
    except ConflictError as exc:
        table.refresh_from_db()
        ctx = _result_context(request, event, table, error=str(exc))
        ctx["conflict"] = True
        ctx["your_values"] = values
        return render(request, "manage/result.html", ctx, status=409)
    except UserError as exc:
        ctx = _result_context(
            request, event, table, values=values, error=str(exc), override=override
        )
        return render(request, "manage/result.html", ctx, status=400)
    if outcome.check.complete:
        messages.success(request, _("Table %(n)s saved.") % {"n": table.number})
    else:
        messages.info(request, _("Table %(n)s saved (game still running).") % {"n": table.number})
    if table.round.is_final and P.RUN_FINAL in request.event_permissions:
        return _back(event, "final")
    return _back(event, "round", number=number)


@staff_required(P.ENTER_RESULTS)
@require_POST
def table_check(request, event, number, table_number):
    """htmx: live validation of the sheet as the scorekeeper types (TR §3.7.2, §3.5, §3.6;
    docs/rules-vekn.md "Result sheets")."""
    if own := rulesets.of(event).manage_page("table_check"):
        return own(request, event, number, table_number)
    table = _table(event, number, table_number)
    values = ResultSheetForm(request.POST, seats=table.seats.count()).values()
    ctx = _result_context(request, event, table, values=values)
    return render(request, "manage/result.html#check", ctx)


# ---------------------------------------------------------------- standings & final
@staff_required(P.VIEW_STAFF_PAGES)
def standings(request, event):
    if own := rulesets.of(event).manage_page("standings"):
        return own(request, event)
    result = event_standings(event)
    return render(
        request,
        "manage/standings.html",
        {
            "event": event,
            "result": result,
            "table": StandingsTable.from_result(result, request=request),
            "finalist_names": [result.players[p].name for p in result.standings.finalists]
            if result.prelims_done
            else [],
            "toss_groups": [
                [(pid, result.players[pid].name) for pid in group]
                for group in result.standings.toss_required
            ]
            if result.prelims_done
            else [],
            "missing_numbers": roster.missing_numbers(event),
            "perms": request.event_permissions,
            "P": P,
        },
    )


@staff_required(P.RUN_FINAL)
@require_POST
def toss(request, event):
    form = TossForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the tied players."))
        return _back(event, "standings")
    ids = form.cleaned_data["player"]
    try:
        if form.random:
            order = services.random_toss(event, ids, request.user)
        else:
            services.record_toss(event, ids, request.user)
            order = ids
    except UserError as exc:
        _fail(request, exc)
    else:
        messages.success(request, _("Toss recorded (%(n)s players).") % {"n": len(order)})
    return _back(event, "standings")


@staff_required(P.PUBLISH)
@require_POST
def publish_standings(request, event):
    form = PublishForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return _back(event, "standings")
    published = form.cleaned_data["published"]
    services.set_standings_published(event, published, request.user)
    messages.success(request, _("Standings published.") if published else _("Standings hidden."))
    return _back(event, "standings")


@staff_required(P.RUN_FINAL)
def final(request, event):
    if own := rulesets.of(event).manage_page("final"):
        return own(request, event)
    final_round = event.rounds.filter(is_final=True).first()
    if request.method == "POST":
        form = FinalActionForm(request.POST)
        if not form.is_valid():
            unknown = "action" in form.errors
            messages.error(
                request, _("Unknown action.") if unknown else _("Incomplete form: try again.")
            )
            return _back(event, "final")
        action, data = form.cleaned_data["action"], form.cleaned_data
        unconfirmed = not ConfirmForm(request.POST).is_valid()
        if action == form.START and final_round is None and unconfirmed:
            return confirmation_page(request, event, _final_confirmation(event))
        try:
            if action == form.START:
                services.start_final(event, request.user)
                # A multi-deck final's best-performing decks, drawn once (TR §3.1.5a).
                deck_play.settle_final(event, event_standings(event), request.user)
            elif final_round is None:
                raise UserError(_("Start the final first."))
            elif action == form.PLACE:
                services.place_final_card(
                    final_round, data["player"], data["position"], request.user
                )
            elif action == form.UNDO:
                services.undo_final_card(final_round, request.user)
            elif action == form.FIRST:
                services.set_first_player(final_round, data["player"], request.user)
            else:  # form.DRAW
                services.draw_first_player(final_round, request.user)
        except UserError as exc:
            _fail(request, exc)
        return _back(event, "final")
    result = event_standings(event)
    ctx = {
        "event": event,
        "final": final_round,
        "result": result,
        "finalist_names": [result.players[p].name for p in result.standings.finalists]
        if result.prelims_done
        else [],
        "perms": request.event_permissions,
        "P": P,
        "final_decks": deck_play.final_decks(
            event,
            result,
            (final_round and final_round.finalists)
            or (result.standings.finalists if result.prelims_done else ()),
            final_round,
        ),
    }
    if final_round is not None:
        finalists = list(final_round.finalists) or list(result.standings.finalists)
        order = vekn.ritual_order(finalists)
        row: tuple = ()
        for reg_id, pos in final_round.ritual:
            row = vekn.place_card(row, reg_id, pos)
        steps = []
        partial: tuple = ()
        for reg_id, pos in final_round.ritual:
            partial = vekn.place_card(partial, reg_id, pos)
            steps.append([result.players[p].name for p in partial])
        ctx.update(
            {
                "row": [(p, result.players[p].name) for p in row],
                "steps": steps,
                "next": None
                if len(final_round.ritual) >= len(order)
                else order[len(final_round.ritual)],
                "next_name": None
                if len(final_round.ritual) >= len(order)
                else result.players[order[len(final_round.ritual)]].name,
                "positions": range(len(row) + 1),
                "tables": services.round_overview(final_round),
                "result_entered": final_round.seats.filter(vp__isnull=False).exists(),
                "first_name": next(
                    (
                        result.players[s.registration_id].name
                        for t in services.round_overview(final_round)
                        for s in t["seats"]
                        if s.position == 1
                    ),
                    None,
                )
                if final_round.first_player_drawn_at
                else None,
                "winner_name": next(
                    (result.players[r.player].name for r in result.standings.rows if r.winner),
                    None,
                ),
                "seeds": {p: i for i, p in enumerate(finalists, start=1)},
            }
        )
    return render(request, "manage/final.html", ctx)


# ---------------------------------------------------------------- exports, audit, staff
@staff_required(P.VIEW_STAFF_PAGES)
def export_csv(request, event):
    if own := rulesets.of(event).manage_page("export_csv"):
        return own(request, event)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = csv.writer(response)
    for line in exports.standings_csv_rows(event_standings(event)):
        writer.writerow(line)
    return response


@staff_required(P.VIEW_STAFF_PAGES)
def export_archondata(request, event):
    if own := rulesets.of(event).manage_page("export_archondata"):
        return own(request, event)
    response = HttpResponse(
        exports.archondata(event_standings(event)), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-archondata.txt"'
    return response


@staff_required(P.VIEW_STAFF_PAGES)
def audit_log(request, event):
    """The event's audit log, newest first (500 entries), its players named: three
    queries whatever the entries (issue 14)."""
    entries = AuditLog.objects.filter(event=event).select_related("actor")[:500]
    return render(
        request,
        "manage/audit.html",
        {"event": event, "entries": entries, "names": player_names(event)},
    )


@staff_required(P.MANAGE_STAFF)
def staff(request, event):
    """The event's staff: appoint an account (username or e-mail) to an event role, remove
    one (``events.staffing``; both audited). The organisation's roles are listed too:
    they act on every event of it and are changed on the organisation's page."""
    form = StaffForm(request.POST or None, actor=request.user)
    if request.method == "POST":
        removal = StaffRemoveForm(request.POST)
        if not removal.is_valid():
            raise Http404("No such role")
        if role_id := removal.cleaned_data["remove"]:
            try:
                removed = staffing.remove_staff(event, role_id, request.user)
            except UserError as exc:
                _fail(request, exc)
            else:
                if removed is None:
                    messages.info(request, _("This role was already removed."))
                else:
                    messages.success(
                        request,
                        _("%(name)s is no longer %(role)s of this event.")
                        % {"name": removed.user.username, "role": removed.get_role_display()},
                    )
            return _back(event, "staff")
        if form.is_valid():
            user, role = form.cleaned_data["username"], form.cleaned_data["role"]
            try:
                created = staffing.appoint_staff(event, user, role, request.user)
            except UserError as exc:
                form.add_error(exc.field or None, exc.message)
            else:
                if created:
                    messages.success(request, _("Role given."))
                else:
                    messages.info(
                        request,
                        _("%(name)s already holds this role.") % {"name": user.username},
                    )
                return _back(event, "staff")
    roles, through = staffing.event_staff(event)
    return render(
        request,
        "manage/staff.html",
        {
            "event": event,
            "form": form,
            "roles": roles,
            "organisation_roles": through,
            "organisation_organiser": staffing.is_organiser(request.user, event.organisation),
            "role_help": staffing.role_help(),
        },
    )
