"""The judges' pages for Mitos y Leyendas events (MyL conduct §4–§5; docs/rules-myl-penalties.md):
log an infraction in a few taps (player → infraction by section → yes/no questions → the
proposal with the four criteria of §4.3 and the offender's history → confirm or change
with a reason), the penalty's page (head judge: confirm, change, void, the in-event
appeal), the §5.8 aggression report, the Organised Play manager's written appeals and the
player's written appeal from their sanction history.

``penalties.views`` hands MyL events and penalties to these views (same addresses as
VEKN); views build a form of ``penalties.forms`` from the request, call
``penalties.myl_services`` with its cleaned data and render. A ``UserError`` is shown;
anything else is a bug (500)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from events.access import staff_required
from events.audit import entries_about
from events.errors import UserError
from events.models import Person
from events.permissions import Permission as P
from penalties import explanations, myl_reports
from penalties import myl_rules as rules
from penalties import myl_services as services
from penalties.authority import confirmed_hold, hold_words
from penalties.forms import (
    AggressionReportForm,
    AppealDecisionForm,
    MylIncidentForm,
    MylPenaltyActionForm,
    WrittenAppealForm,
    error_messages,
    flash_errors,
    myl_levels,
)
from penalties.models import AggressionReport, Appeal, Penalty, Sanction, Timing
from penalties.myl_terms import level_label
from penalties.services import DuplicateOffence, recent_duplicate, state_token


def _with_names(penalties):
    for p in penalties:
        p.myl_name = services.infraction_name(p.infraction)
        p.level_label = level_label(p.level)
    return penalties


def incident_new(request, event):
    """Steps 2–4 for a MyL event: the infraction (grouped by section), its questions, the
    proposal with the criteria and the history, then confirm or change with a reason.
    Called by ``penalties.views.incident_new`` (permission already checked)."""
    posted, perms = request.method == "POST", request.event_permissions
    can_decide = P.CONFIRM_PENALTIES in perms
    form = MylIncidentForm(
        request.POST if posted else request.GET, event=event, can_decide=can_decide
    )
    form.is_valid()
    if form.not_found():
        raise Http404("No such person, table or infraction")
    clean = form.cleaned_data
    reg, table, code = clean["reg"], clean.get("table"), clean["code"]
    base = {"event": event, "reg": reg, "table": table, "perms": perms, "P": P}
    if not code:
        q = clean.get("q", "")
        ctx = {**base, "groups": services.grouped_catalogue(q), "q": q}
        if request.htmx and request.GET.get("q") is not None:
            return render(request, "penalties/myl/pick_infraction.html#list", ctx)
        return render(request, "penalties/myl/pick_infraction.html", ctx)
    inf, answers, problem = form.infraction, form.answers(), form.problem()
    seat = services.current_match(event, reg, table)
    timing = clean.get("timing") or (Timing.DURING_GAME if seat else Timing.BETWEEN_ROUNDS)
    ctx = {
        **base,
        "inf": inf,
        "severity": rules.SEVERITIES[inf.severity],
        "criteria": rules.CRITERIA,
        "answers": answers,
        "questions": [
            (c, None if c.name not in answers else ("yes" if answers[c.name] else "no"))
            for c in inf.conditions
        ],
        "timing": timing,
        "timings": [
            (Timing.DURING_GAME, _("During the match")),
            (Timing.BETWEEN_ROUNDS, _("Between rounds")),
        ],
        "levels": myl_levels(),
        "client_id": clean["client_id"],
        "in_event": _with_names(list(services.event_penalties(event, reg.person))),
        "earlier": _with_names(services.earlier_events(event, reg.person)),
        "other_rulesets": services.other_ruleset_penalties(event, reg.person),
        "description": clean.get("description", ""),
        "seat": seat,
        "opponent": services.opponent(seat),
        "chosen_level": clean.get("level", ""),
        "deviation_reason": clean.get("deviation_reason", ""),
        "starts_on": (clean.get("starts_on") or event.date).isoformat(),
        "ends_on": clean["ends_on"].isoformat() if clean.get("ends_on") else "",
        "can_decide": can_decide,
        "aggression": inf.code in services.AGGRESSION_CODES,
        "again": clean["again"],
    }
    ctx["recent"] = recent_duplicate(event, reg.person, code, client_id=ctx["client_id"])
    missing = [c.name for c in inf.conditions if c.required and c.name not in answers]
    ctx["missing"] = missing
    if not missing:
        try:
            a = services.preview(event, reg, code, answers)
        except UserError as exc:
            ctx["error"] = str(exc)
        else:
            ctx["assessment"] = a
            ctx["level_label"] = level_label(a.level)
            ctx["level_info"] = rules.LEVELS[a.level]
            ctx["alternatives"] = [(str(x), level_label(x)) for x in a.alternatives]
            ctx["also_labels"] = [level_label(x) for x in a.also]
            ctx["proposal_dq"] = rules.Level.DISQUALIFICATION in (a.level, *a.also)
            ctx["with_dq"] = clean["with_dq"] if clean["with_dq_shown"] else ctx["proposal_dq"]
            ctx["other_levels"] = [
                (v, label) for v, label in ctx["levels"] if v not in (a.level, *a.alternatives)
            ]
            shown = ctx["chosen_level"] or str(a.level)
            ctx["shown_level"] = shown
            ctx["needs_dates"] = shown == "suspension" and ctx["can_decide"]
            ctx["pending"] = (
                shown in services.HEAD_JUDGE_LEVELS and P.CONFIRM_PENALTIES not in perms
            )
    if problem:  # a level, timing, date or text the form refused
        ctx["error"] = problem
    if posted and clean["confirm"] and not missing:
        if problem:
            return render(request, "penalties/myl/incident.html", ctx, status=400)
        try:
            logged = services.log_penalty(
                event,
                reg,
                code,
                answers,
                client_id=ctx["client_id"],
                actor=request.user,
                perms=perms,
                table=table,
                timing=timing,
                level=clean["level"] or None,
                deviation_reason=clean["deviation_reason"],
                description=clean["description"],
                with_dq=clean["with_dq"] if clean["with_dq_shown"] else None,
                starts_on=clean.get("starts_on"),  # a floor judge's form has no dates
                ends_on=clean.get("ends_on"),
                again=clean["again"],
            )
        except DuplicateOffence as exc:
            ctx["error"] = str(exc)
            return render(request, "penalties/myl/incident.html", ctx, status=409)
        except UserError as exc:
            ctx["error"] = str(exc)
        else:
            if logged.created:
                messages.success(
                    request,
                    _("Saved: %(level)s.") % {"level": level_label(logged.penalty.level)},
                )
            else:
                messages.info(request, _("Already saved (this submission was received before)."))
            # From a table: the penalty's page offers the way back to the round.
            page = reverse("manage:penalty", kwargs={"slug": event.slug, "pk": logged.penalty.pk})
            return redirect(page + ("?from=table" if table else ""))
        return render(request, "penalties/myl/incident.html", ctx, status=400)
    if request.htmx and posted:
        return render(request, "penalties/myl/incident.html#preview", ctx)
    return render(request, "penalties/myl/incident.html", ctx)


def penalty_detail(request, event, penalty):
    """A MyL penalty's page: what the rules gave and why, its effects (round of the game
    loss, sanction), appeals, the aggression report; the head judge confirms, changes,
    voids, and records the in-event appeal. Called by ``penalties.views.penalty_detail``."""
    perms = request.event_permissions
    if request.method == "POST":
        if P.CONFIRM_PENALTIES not in perms:
            raise Http404
        form = MylPenaltyActionForm(request.POST)
        if form.is_valid():
            _act_on(request, penalty, form.cleaned_data)
        else:
            flash_errors(request, form)
        return redirect("manage:penalty", slug=event.slug, pk=penalty.pk)

    history = (
        entries_about(penalty)
        .filter(event=event, action__regex=r"^(penalty|sanction|appeal)\.")
        .select_related("actor")[:50]
    )
    appeals = list(penalty.appeals.select_related("submitted_by", "decided_by"))
    window = services.appeal_window(penalty)
    inf = services.RULESET.catalogue.get(penalty.infraction)
    return render(
        request,
        "penalties/myl/detail.html",
        {
            "event": event,
            "penalty": penalty,
            "explanation": explanations.explanation(penalty),
            "void_reason": explanations.void_reason(penalty),
            "inf": inf,
            "name": services.infraction_name(penalty.infraction),
            "level_label": level_label(penalty.level),
            "guide_label": level_label(penalty.guide_level),
            "also_labels": [level_label(x) for x in penalty.also],
            "state": state_token(penalty),
            "sanctions": explanations.with_lift_reasons(
                penalty.sanctions.select_related("lifted_by", "confirmed_by")
            ),
            "appeals": appeals,
            "in_event_appeal": next((a for a in appeals if a.kind == Appeal.Kind.IN_EVENT), None),
            "window": window,
            "aggression": services.is_aggression(penalty),
            "report": AggressionReport.objects.filter(penalty=penalty).first(),
            "earlier": _with_names(services.earlier_events(event, penalty.person)),
            "other_rulesets": services.other_ruleset_penalties(event, penalty.person),
            "history": explanations.history(history),
            "levels": myl_levels(),
            "decisions": [Appeal.Decision.CONFIRMED, Appeal.Decision.REVERTED],
            **_hold(penalty, request.user),
            "perms": perms,
            "P": P,
        },
    )


def _act_on(request, penalty, data) -> None:
    """The head judge's action on a MyL penalty (``MylPenaltyActionForm``'s cleaned data)."""
    action, expected = data["action"], data.get("state") or None
    try:
        if action == MylPenaltyActionForm.CONFIRM:
            services.confirm(
                penalty,
                request.user,
                expected=expected,
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                perms=request.event_permissions,
            )
            messages.success(request, _("Confirmed."))
        elif action == MylPenaltyActionForm.CHANGE:
            services.change_level(
                penalty,
                data["level"],
                data["reason"],
                request.user,
                expected=expected,
                with_dq=data["with_dq"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                perms=request.event_permissions,
            )
            messages.success(request, _("Penalty changed."))
        elif action == MylPenaltyActionForm.VOID:
            services.void(
                penalty,
                data["reason"],
                request.user,
                expected=expected,
                perms=request.event_permissions,
            )
            messages.success(request, _("Voided."))
        else:
            appeal = services.record_in_event_appeal(
                penalty, data["statement"], data["decision"], data["reason"], request.user
            )
            messages.success(
                request, _("Appeal recorded: %(d)s.") % {"d": appeal.get_decision_display()}
            )
    except UserError as exc:
        messages.error(request, str(exc))


@staff_required(P.LOG_PENALTIES)
def aggression_report(request, event, pk):
    """The §5.8 incident report of an aggression (3.1.1, 3.1.2): form and printable view."""
    penalty = get_object_or_404(
        Penalty.objects.select_related("person", "reported_by", "table"), pk=pk, event=event
    )
    if not services.is_aggression(penalty):
        raise Http404
    report = AggressionReport.objects.filter(penalty=penalty).select_related("written_by").first()
    if request.method == "POST":
        form = AggressionReportForm(request.POST)
        problems = [] if form.is_valid() else error_messages(form)
        if not problems:
            try:
                myl_reports.write_aggression_report(
                    penalty, **form.cleaned_data, actor=request.user
                )
            except UserError as exc:
                problems = [str(exc)]
        if problems:
            for problem in problems:
                messages.error(request, problem)
            # What was typed, shown again (a field the form refused is left empty).
            report = AggressionReport(
                penalty=penalty,
                kind=form.cleaned_data.get("kind", ""),
                description=form.cleaned_data.get("description", ""),
                witnesses=form.cleaned_data.get("witnesses", ""),
                authorities_called=form.cleaned_data["authorities_called"],
                authorities_detail=form.cleaned_data.get("authorities_detail", ""),
            )
            return render(
                request,
                "penalties/myl/aggression_report.html",
                _report_context(event, penalty, report, False),
                status=400,
            )
        messages.success(request, _("Report saved."))
        return redirect("manage:myl-aggression-report", slug=event.slug, pk=penalty.pk)
    return render(
        request,
        "penalties/myl/aggression_report.html",
        _report_context(event, penalty, report, bool(request.GET.get("print") and report)),
    )


def _report_context(event, penalty, report, printable):
    return {
        "event": event,
        "penalty": penalty,
        "report": report,
        "saved": report is not None and report.pk is not None,
        "print": printable,
        "kinds": AggressionReport.Kind.choices,
        "name": services.infraction_name(penalty.infraction),
        "level_label": level_label(penalty.level),
        "also_labels": [level_label(x) for x in penalty.also],
        "sanctions": list(penalty.sanctions.all()),
    }


@staff_required(P.DECIDE_APPEALS)
def appeals(request, event):
    """The national Organised Play manager's written appeals of this event (§5.10): the
    pending ones first, each confirmed or reverted with reasons."""
    if request.method == "POST":
        form = AppealDecisionForm(request.POST, event=event)
        if not form.is_valid():
            if "appeal" in form.errors:
                raise Http404("No such appeal")
            flash_errors(request, form)
            return redirect("manage:myl-appeals", slug=event.slug)
        data = form.cleaned_data
        try:
            services.decide_written_appeal(
                data["appeal"], data["decision"], data["reason"], request.user
            )
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Decision recorded."))
        return redirect("manage:myl-appeals", slug=event.slug)
    items = list(services.written_appeals(event))
    for a in items:
        a.penalty.myl_name = services.infraction_name(a.penalty.infraction)
        a.penalty.level_label = level_label(a.penalty.level)
    return render(
        request,
        "penalties/myl/appeals.html",
        {
            "event": event,
            "pending": [a for a in items if not a.decision],
            "decided": [a for a in items if a.decision],
            "elsewhere": list(
                services.pending_written_appeals_for(request.user, exclude_event=event)[:50]
            ),
            "perms": request.event_permissions,
            "P": P,
        },
    )


# --------------------------------------------------------------------------- the player
def annotate_my_penalties(penalties, person) -> None:
    """For the player's sanction history: each MyL penalty's name, level label, appeal
    deadline, appeals and whether a written appeal can still be sent (one query for the
    appeals)."""

    # Each penalty's sanction, any ruleset (a VEKN one escalated by the coordinator): the
    # live one, else the latest lifted one — with its own kind and days, never the days
    # of a lifted suspension under the ban that replaced it (issue 12) [choice].
    shown: dict[int, Sanction] = {}
    for s in Sanction.objects.filter(penalty__in=penalties).order_by(
        "penalty_id", "-lifted_at", "-created_at", "-id"
    ):
        best = shown.get(s.penalty_id)
        if best is None or (best.lifted_at is not None and s.lifted_at is None):
            shown[s.penalty_id] = s
    for p in penalties:
        p.my_sanction = shown.get(p.pk)
    myl = [p for p in penalties if services.mine(p)]
    if not myl:
        return
    by_penalty: dict[int, list[Appeal]] = {}
    for a in Appeal.objects.filter(penalty__in=myl).order_by("submitted_at"):
        by_penalty.setdefault(a.penalty_id, []).append(a)
    for p in myl:
        p.appeals_shown = True  # the page shows its appeals (MyL conduct §5.10)
        p.myl_name = services.infraction_name(p.infraction)
        p.level_label = level_label(p.level)
        window = services.appeal_window(p)
        p.appeal_deadline = window.deadline
        p.appeal_holidays = window.skipped_holidays
        p.my_appeals = by_penalty.get(p.pk, [])
        written = any(a.kind == Appeal.Kind.WRITTEN for a in p.my_appeals)
        p.appeal_open = (
            p.status == Penalty.Status.CONFIRMED
            and not written
            and services.today(p.event) <= window.deadline
        )
        p.appeal_closed = (
            p.status == Penalty.Status.CONFIRMED
            and not written
            and services.today(p.event) > window.deadline
        )


def submit_appeal(request, person):
    """POST from /players/me/sanctions/: the signed-in player's written appeal; ``Http404``
    for a penalty that is not one of their Mitos y Leyendas penalties."""
    form = WrittenAppealForm(request.POST, person=person)
    if not form.is_valid():
        if "penalty" in form.errors:
            raise Http404("No such penalty")
        flash_errors(request, form)
        return redirect("my-sanctions")
    try:
        services.submit_written_appeal(
            form.cleaned_data["penalty"], form.cleaned_data["statement"], request.user
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Appeal sent to the Organised Play manager."))
    return redirect("my-sanctions")


def my_person(user):
    return Person.objects.filter(user=user).first()


def _hold(penalty, user) -> dict:
    """``hold`` (the sanction the national authority confirmed, if any) and
    ``hold_words``: the page then offers no void or change and says why
    (``penalties.authority.refuse_if_confirmed``)."""

    held = confirmed_hold(penalty, user) if penalty.status == "confirmed" else None
    return {"hold": held, "hold_words": hold_words(held) if held else ""}
