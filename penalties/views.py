"""The judge's tablet: log an infraction in a few taps (table → player → infraction →
questions → preview → confirm), time extensions, the head judge's confirmations and voids,
penalty exports and the player's own sanction history. Views build a form of
``penalties.forms`` from the request, call ``penalties.services`` with its cleaned data and
render; htmx requests get fragments. A ``UserError`` is shown; anything else is a bug (500)."""

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from events import rulesets
from events.access import round_or_404, staff_required
from events.audit import entries_about
from events.confirmations import Confirmation, confirmation_page
from events.errors import UserError
from events.forms import PersonSearchForm
from events.limits import csv_text
from events.models import Person, Seat, Table
from events.permissions import Permission as P
from penalties import (
    explanations,
    jg5_services,
    rulebooks,
    services,
    time_extensions,
    views_myl,
)
from penalties.authority import confirmed_hold, hold_words
from penalties.forms import (
    ApproveResultsForm,
    CaseForm,
    DqReportForm,
    NonCompetingForm,
    PenaltyActionForm,
    RoundClockForm,
    TimeExtensionForm,
    VeknIncidentForm,
    error_messages,
    flash_errors,
)
from penalties.models import Level, Penalty, Timing
from penalties.vekn_guide import LEVELS


def _table(event, number, table_number) -> Table:
    rnd = round_or_404(event, number)
    return get_object_or_404(Table.objects.select_related("round"), round=rnd, number=table_number)


def _also_label(code: str) -> str:
    """A readable label for an ``also``/``alternatives`` code (a level or "removal")."""
    if code in Level.values:
        return str(Level(code).label)
    return {"removal": _("removal from the event")}.get(code, code)


@staff_required(P.LOG_PENALTIES)
def table_incident(request, event, number, table_number):
    """Step 1 from the round view: who committed it (the table's players, or someone else)."""
    table = _table(event, number, table_number)
    seats = (
        Seat.objects.filter(table=table).select_related("registration__person").order_by("position")
    )
    return render(
        request, "penalties/pick_player.html", {"event": event, "table": table, "seats": seats}
    )


@staff_required(P.LOG_PENALTIES)
def pick_person(request, event):
    """Step 1 without a table: search the event's participants, or add a non-competing person."""

    form = PersonSearchForm(request.GET)
    regs = event.registrations.select_related("person").order_by("person__name")
    if not form.is_valid():  # too long: the error, no search
        regs, q = regs.none(), request.GET.get("q", "")[: PersonSearchForm.MAX_LENGTH]
    else:
        q = form.cleaned_data["q"]
        if q:
            regs = regs.filter(person__name__icontains=q) | regs.filter(person__vekn_number=q)
    return render(
        request,
        "penalties/pick_person.html",
        {"event": event, "registrations": regs[:60], "q": q, "form": form},
    )


@staff_required(P.LOG_PENALTIES)
@require_POST
def add_non_competing(request, event):
    form = NonCompetingForm(request.POST)
    if not form.is_valid():
        flash_errors(request, form)
        return redirect("manage:incident-person", slug=event.slug)
    try:
        reg = services.add_non_competing(
            event, form.cleaned_data["name"], form.cleaned_data["vekn_number"], request.user
        )
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("manage:incident-person", slug=event.slug)
    return redirect(reverse("manage:incident-new", kwargs={"slug": event.slug}) + f"?reg={reg.pk}")


@staff_required(P.LOG_PENALTIES)
def incident_new(request, event):
    """Steps 2–4: choose the infraction, answer its questions, read the preview, confirm."""
    if own := rulesets.of(event).manage_page("incident_new"):
        return own(request, event)
    posted = request.method == "POST"
    form = VeknIncidentForm(request.POST if posted else request.GET, event=event)
    form.is_valid()
    if form.not_found():
        raise Http404("No such person, table or infraction")
    clean = form.cleaned_data
    reg, table, code = clean["reg"], clean.get("table"), clean["code"]
    base = {"event": event, "reg": reg, "table": table, "perms": request.event_permissions, "P": P}
    if not code:
        q = clean.get("q", "").lower()
        items = services.catalogue()
        if q:
            items = [
                i for i in items if q in i.code or q in i.name.lower() or q in i.name_es.lower()
            ]
        ctx = {**base, "infractions": items, "common": services.COMMON_CODES, "q": q}
        if request.htmx and request.GET.get("q") is not None:
            return render(request, "penalties/pick_infraction.html#list", ctx)
        return render(request, "penalties/pick_infraction.html", ctx)
    inf, answers, problem = form.infraction, form.answers(), form.problem()
    linked_to = clean.get("linked_to")
    ctx = {
        **base,
        "inf": inf,
        "answers": answers,
        "questions": [
            (c, None if c.name not in answers else ("yes" if answers[c.name] else "no"))
            for c in inf.conditions
        ],
        "timing": clean.get("timing") or (Timing.DURING_GAME if table else Timing.BETWEEN_ROUNDS),
        "timings": Timing.choices,
        "levels": services.level_choices(),
        "client_id": clean["client_id"],
        # Only read when the form is shown (not by a confirming POST that saves).
        "earlier": SimpleLazyObject(lambda: services.earlier_events(event, reg.person)),
        "other_rulesets": SimpleLazyObject(
            lambda: services.other_ruleset_penalties(event, reg.person)
        ),
        "description": clean.get("description", ""),
        "linkable": Penalty.objects.filter(event=event, person=reg.person, is_linked=False).exclude(
            status=Penalty.Status.VOIDED
        ),
        "linked_to": linked_to,
        "again": clean["again"],
    }
    ctx["recent"] = services.recent_duplicate(event, reg.person, code, client_id=ctx["client_id"])
    missing = [c.name for c in inf.conditions if c.required and c.name not in answers]

    def show_preview():
        """The guide's assessment, for the form. A confirming POST that saves skips it:
        ``log_penalty`` assesses again inside its transaction (one assessment, not two)."""
        if missing:
            return
        try:
            ctx["assessment"] = services.preview(event, reg, code, answers, linked_to)
            ctx["level_info"] = LEVELS[ctx["assessment"].level]
            ctx["also_labels"] = [_also_label(x) for x in ctx["assessment"].also]
            if ctx["assessment"].level == Level.STANDINGS_ADJUSTMENT:
                ctx["target"] = services.preview_adjustment_target(event, reg, table, ctx["timing"])
        except UserError as exc:
            ctx["error"] = str(exc)

    confirming = posted and clean["confirm"] and not missing
    if not confirming:
        show_preview()
        if problem:
            ctx.setdefault("error", problem)
    ctx["missing"] = missing
    if confirming and problem:  # a level, timing, link or text the form refused
        show_preview()
        ctx["error"] = problem
        return render(request, "penalties/incident.html", ctx, status=400)
    if confirming:
        try:
            logged = services.log_penalty(
                event,
                reg,
                code,
                answers,
                client_id=ctx["client_id"],
                actor=request.user,
                perms=request.event_permissions,
                table=table,
                timing=clean["timing"] or Timing.DURING_GAME,
                level=clean["level"] or None,
                deviation_reason=clean["deviation_reason"],
                description=clean["description"],
                ethics_committee=clean["ethics_committee"],
                linked_to=linked_to,
                again=clean["again"],
            )
        except services.DuplicateOffence as exc:
            show_preview()
            ctx["error"] = str(exc)
            return render(request, "penalties/incident.html", ctx, status=409)
        except UserError as exc:
            ctx["error"] = str(exc)
        else:
            if logged.created:
                messages.success(
                    request, _("Saved: %(level)s.") % {"level": logged.penalty.get_level_display()}
                )
            else:
                messages.info(request, _("Already saved (this submission was received before)."))
            # From a table: the penalty's page offers the way back to the round.
            page = reverse("manage:penalty", kwargs={"slug": event.slug, "pk": logged.penalty.pk})
            return redirect(page + ("?from=table" if table else ""))
        error = ctx["error"]
        show_preview()
        ctx["error"] = error  # log_penalty's reason
        return render(request, "penalties/incident.html", ctx, status=400)
    if request.htmx and posted:
        return render(request, "penalties/incident.html#preview", ctx)
    return render(request, "penalties/incident.html", ctx)


@staff_required(P.VIEW_STAFF_PAGES)
def penalty_list(request, event):
    penalties = (
        Penalty.objects.filter(event=event)
        .select_related("person", "registration", "reported_by")
        .order_by("-created_at")
    )
    pending = [p for p in penalties if p.status == Penalty.Status.PENDING]
    return render(
        request,
        "penalties/list.html",
        {
            "event": event,
            "penalties": penalties,
            "pending": pending,
            "perms": request.event_permissions,
            "P": P,
        },
    )


@staff_required(P.VIEW_STAFF_PAGES)
def penalty_detail(request, event, pk):
    penalty = get_object_or_404(
        Penalty.objects.select_related(
            "person", "registration", "reported_by", "confirmed_by", "voided_by", "table"
        ),
        pk=pk,
        event=event,
    )
    if own := rulesets.of(penalty).manage_page("penalty_detail"):
        return own(request, event, penalty)
    if request.method == "POST":
        if P.CONFIRM_PENALTIES not in request.event_permissions:
            raise Http404
        form = PenaltyActionForm(request.POST)
        if form.is_valid():
            _act_on(request, penalty, form.cleaned_data)
        else:
            flash_errors(request, form)
        return redirect("manage:penalty", slug=event.slug, pk=penalty.pk)

    history = entries_about(penalty).filter(event=event, action__startswith="penalty.")
    return render(
        request,
        "penalties/detail.html",
        {
            "event": event,
            "penalty": penalty,
            "explanation": explanations.explanation(penalty),
            "void_reason": explanations.void_reason(penalty),
            "inf": services.RULESET.catalogue.get(penalty.infraction),
            "also_labels": [_also_label(x) for x in penalty.also],
            "state": services.state_token(penalty),
            "earlier": services.earlier_events(event, penalty.person),
            "other_rulesets": services.other_ruleset_penalties(event, penalty.person),
            "history": explanations.history(history.select_related("actor")[:50]),
            "levels": services.level_choices(),
            "perms": request.event_permissions,
            **_hold(penalty, request.user),
            "P": P,
        },
    )


def _act_on(request, penalty, data) -> None:
    """The head judge's action on a VEKN penalty (``PenaltyActionForm``'s cleaned data)."""
    action, expected = data["action"], data.get("state") or None
    try:
        if action == PenaltyActionForm.CONFIRM:
            services.confirm(
                penalty, request.user, expected=expected, perms=request.event_permissions
            )
            messages.success(request, _("Confirmed."))
        elif action == PenaltyActionForm.VOID:
            services.void(
                penalty,
                data["reason"],
                request.user,
                expected=expected,
                perms=request.event_permissions,
            )
            messages.success(request, _("Voided."))
        else:
            services.change_level(
                penalty,
                data["level"],
                data["reason"],
                request.user,
                expected=expected,
                perms=request.event_permissions,
            )
            messages.success(request, _("Penalty changed."))
    except UserError as exc:
        messages.error(request, str(exc))


@staff_required(P.LOG_PENALTIES)
def dq_report(request, event, pk):
    penalty = get_object_or_404(Penalty.objects.select_related("person"), pk=pk, event=event)
    if penalty.level != Level.DISQUALIFICATION:
        raise Http404
    report = getattr(penalty, "dq_report", None)
    if request.method == "POST":
        form = DqReportForm(request.POST)
        if form.is_valid():
            try:
                services.write_dq_report(penalty, **form.cleaned_data, actor=request.user)
            except UserError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Report saved."))
                return redirect("manage:dq-report", slug=event.slug, pk=penalty.pk)
        else:
            flash_errors(request, form)
    return render(
        request,
        "penalties/dq_report.html",
        {
            "event": event,
            "penalty": penalty,
            "report": report,
            "print": request.GET.get("print"),
            "infraction_name": rulebooks.infraction_title(penalty.ruleset, penalty.infraction),
        },
    )


@staff_required(P.LOG_PENALTIES)
def time_extension(request, event, number, table_number):
    """JG §1.2.4: the judge enters the minutes spent, sees the suggestion, grants it."""
    table = _table(event, number, table_number)
    posted = request.method == "POST"
    form = TimeExtensionForm(request.POST if posted else request.GET)
    form.is_valid()
    clean = form.cleaned_data
    minutes, authorised = clean.get("minutes_spent"), clean["authorised"]
    ctx = {
        "event": event,
        "table": table,
        "round": table.round,
        "minutes_spent": form.minutes_text(),
        "authorised": authorised,
        "client_id": clean["client_id"],
        "end": time_extensions.table_end_time(table),
        "granted": time_extensions.table_extension_minutes(table),
        "extensions": table.extensions.select_related("judge"),
        "perms": request.event_permissions,
        "P": P,
    }
    if form.errors:  # the minutes (0 to 600) or the reason
        ctx["error"] = error_messages(form)[0]
    elif minutes is not None:
        try:
            ctx["suggestion"] = time_extensions.suggest_extension(table, minutes, authorised)
        except UserError as exc:
            ctx["error"] = str(exc)
    if posted and clean["confirm"] and "suggestion" in ctx:
        try:
            time_extensions.add_extension(
                table,
                minutes,
                client_id=ctx["client_id"],
                actor=request.user,
                perms=request.event_permissions,
                authorised=authorised,
                reason=clean["reason"],
            )
        except UserError as exc:
            ctx["error"] = str(exc)
        else:
            messages.success(request, _("Extension granted."))
            return redirect("manage:round", slug=event.slug, number=number)
    if request.htmx:
        return render(request, "penalties/extension.html#suggestion", ctx)
    return render(request, "penalties/extension.html", ctx)


@staff_required(P.MANAGE_SEATING)
@require_POST
def start_clock(request, event, number):
    try:
        time_extensions.start_round_clock(
            round_or_404(event, number), request.user, perms=request.event_permissions
        )
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("manage:round", slug=event.slug, number=number)


@staff_required(P.MANAGE_SEATING)
@require_POST
def round_clock(request, event, number):
    """Pause or resume the whole round's clock (``RoundClockForm``)."""
    rnd = round_or_404(event, number)
    form = RoundClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return redirect("manage:round", slug=event.slug, number=number)
    change = {
        "pause": time_extensions.pause_round_clock,
        "resume": time_extensions.resume_round_clock,
    }[form.cleaned_data["action"]]
    try:
        change(rnd, request.user, perms=request.event_permissions)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        paused = form.cleaned_data["action"] == "pause"
        messages.success(request, _("Clock paused.") if paused else _("Clock resumed."))
    return redirect("manage:round", slug=event.slug, number=number)


@staff_required(P.APPROVE_RESULTS)
@require_POST
def approve_results(request, event):
    form = ApproveResultsForm(request.POST)
    form.is_valid()  # never invalid: anything but approved=1 reopens
    approved = form.cleaned_data["approved"]
    if approved != event.results_approved and not form.cleaned_data["confirm"]:
        return confirmation_page(request, event, _approval_confirmation(event, approved))
    services.set_results_approved(event, approved, request.user)
    messages.success(
        request, _("Results approved and locked.") if approved else _("Results reopened.")
    )
    return redirect("manage:standings", slug=event.slug)


def _approval_confirmation(event, approved: bool) -> Confirmation:
    """Approving or reopening the results, with what follows (JG §1.2.5, issue 14)."""
    if approved:
        title, button = _("Approve the results?"), _("Approve results")
        consequences = [
            _("Every score sheet and result is locked: nobody can change them."),
            _(
                "The penalties are final: none can be logged, changed or voided (except "
                "a fraud case referred to the ethics committee)."
            ),
            _("Approving does not publish or hide the standings."),
        ]
        waiting = Penalty.objects.filter(event=event, status=Penalty.Status.PENDING).count()
        if waiting:  # JG §1.2.2: the head judge confirms them before the results close
            consequences.insert(
                0,
                ngettext(
                    "%(n)s penalty is still pending confirmation: confirm or void it first.",
                    "%(n)s penalties are still pending confirmation: confirm or void them first.",
                    waiting,
                )
                % {"n": waiting},
            )
    else:
        title, button = _("Reopen the results?"), _("Reopen results")
        consequences = [
            _("The score sheets, results and penalties can be changed again."),
            _("Reports already sent elsewhere are not withdrawn."),
        ]
    return Confirmation(
        title=title,
        consequences=consequences,
        action=reverse("manage:approve-results", kwargs={"slug": event.slug}),
        fields={"approved": "1" if approved else "0"},
        button=button,
        cancel_url=reverse("manage:standings", kwargs={"slug": event.slug}),
    )


def _penalty_rows(event):
    """The VEKN penalty database report: warnings, standings adjustments and
    disqualifications (not cautions, JG §1.1.1), confirmed and not voided."""
    for p in (
        Penalty.objects.filter(event=event, status=Penalty.Status.CONFIRMED, is_linked=False)
        .exclude(level=Level.CAUTION)
        .select_related("person")
        .order_by("created_at", "id")
    ):
        yield {
            "event": event.slug,
            "date": event.date.isoformat(),
            "vekn": p.person.vekn_number,
            "name": p.person.name,
            "infraction": p.infraction,
            "level": p.level,
            "offence": p.offence,
            "round": p.round_number,
            "deviation": p.deviation_reason,
            "ethics_committee": p.ethics_committee,
        }


@staff_required(P.VIEW_STAFF_PAGES)
def export_penalties_csv(request, event):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-penalties.csv"'
    fields = [
        "event",
        "date",
        "vekn",
        "name",
        "infraction",
        "level",
        "offence",
        "round",
        "deviation",
        "ethics_committee",
    ]
    writer = csv.DictWriter(response, fieldnames=fields)
    writer.writeheader()
    for row in _penalty_rows(event):
        writer.writerow({k: csv_text(v) if isinstance(v, str) else v for k, v in row.items()})
    return response


@staff_required(P.VIEW_STAFF_PAGES)
def export_penalties_json(request, event):
    return JsonResponse(
        {"event": event.slug, "penalties": list(_penalty_rows(event))},
        json_dumps_params={"ensure_ascii": False},
    )


@login_required
def my_sanctions(request):
    """The signed-in player's own sanction history across events (active and voided); for
    Mitos y Leyendas penalties, the written appeal's deadline and form (MyL conduct §5.10)."""

    person = Person.objects.filter(user=request.user).first()
    if request.method == "POST":
        if person is None:
            raise Http404
        return views_myl.submit_appeal(request, person)
    penalties = (
        list(
            Penalty.objects.filter(person=person, is_linked=False)
            .select_related("event")
            .order_by("-created_at")
        )
        if person
        else []
    )
    views_myl.annotate_my_penalties(penalties, person)
    for p in penalties:  # an appeal's revert reason in the reader's language
        p.void_reason_shown = explanations.void_reason(p)
    return render(
        request, "penalties/my_sanctions.html", {"person": person, "penalties": penalties}
    )


@staff_required(P.CONFIRM_PENALTIES)
def organisational_cases(request, event):
    """JG §5: venue interference, force majeure and substitutes, for the head judge."""
    rounds = list(event.rounds.order_by("number"))
    if request.method == "POST":
        form = CaseForm(request.POST)
        if form.is_valid():
            _record_case(request, event, form.cleaned_data)
        else:
            flash_errors(request, form)
        return redirect("manage:cases", slug=event.slug)
    event.refresh_from_db()
    return render(
        request,
        "penalties/cases.html",
        {"event": event, "rounds": rounds, "cases": services.RULESET.organisational_cases.values()},
    )


def _record_case(request, event, data) -> None:
    """One JG §5 case (``CaseForm``'s cleaned data); ``Http404`` for a round or table the
    event does not have."""
    action = data["action"]
    try:
        if action == CaseForm.VENUE:
            rnd = round_or_404(event, data["round"])
            unsanctioned = jg5_services.record_venue_interference(
                event,
                rnd,
                data["minutes_played"],
                data["table_on_time"],
                data["report"],
                request.user,
            )
            if unsanctioned:
                messages.warning(request, _("Recorded: the event is now unsanctioned (JG §5.2)."))
            else:
                messages.success(request, _("Recorded: the event stays sanctioned (JG §5.2)."))
        elif action == CaseForm.FORCE_MAJEURE:
            jg5_services.declare_force_majeure(event, data["report"], request.user)
            messages.warning(
                request, _("Force majeure recorded: standings use the last completed round.")
            )
        elif action == CaseForm.LIFT:
            jg5_services.lift_force_majeure(event, data["reason"], request.user)
            messages.success(request, _("Force majeure lifted."))
        else:
            rnd = round_or_404(event, data["round"])
            table = get_object_or_404(Table, round=rnd, number=data["table"])
            jg5_services.seat_substitute(
                table, data["position"], data["name"], data["vekn_number"], request.user
            )
            messages.success(request, _("Substitute seated."))
    except UserError as exc:
        messages.error(request, str(exc))


def _hold(penalty, user) -> dict:
    """``hold`` (the sanction the national authority confirmed, if any) and
    ``hold_words``: the page then offers no void or change and says why
    (``penalties.authority.refuse_if_confirmed``)."""

    held = confirmed_hold(penalty, user) if penalty.status == "confirmed" else None
    return {"hold": held, "hold_words": hold_words(held) if held else ""}
