"""Reporting a table's result from the players' phones (docs/players.md "Reporting your
table's result"): a player reports, the others confirm or dispute, on their seat box
(polled by htmx) or the Mitos y Leyendas match page. Views read input through forms and
call ``events.self_report``; an htmx request is answered with the player's new seat box,
any other with a redirect back to the page it came from."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from events import self_report, views_self_service
from events.errors import UserError
from events.forms_floor import ReportActionForm, ResultReportForm
from events.models import Event, Registration


def _answer(request, event, back: str, error: str = ""):
    if request.htmx and back != "my-match":
        reg = (
            Registration.objects.filter(event=event, person__user=request.user)
            .select_related("event")
            .first()
        )
        box = views_self_service.seat_box(request, reg, error=error)
        return render(request, "events/_my_seat_box.html", {"box": box, "slug": event.slug})
    if error:
        messages.error(request, error)
    if back == "my-match":
        return redirect(reverse("events:my-match", args=[event.slug]))
    return redirect("my-page")


@login_required
@require_POST
def report(request, slug):
    """A player reports the result of their table (one value per seat)."""
    event = get_object_or_404(Event, slug=slug)
    form = ResultReportForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "my-page", str(next(iter(form.errors.values()))[0]))
    back = form.cleaned_data["back"] or "my-page"
    try:
        self_report.report_result(event, request.user, form.values(ResultReportForm.SEATS))
    except UserError as exc:
        return _answer(request, event, back, str(exc))
    return _answer(request, event, back)


def _act(request, slug, action):
    event = get_object_or_404(Event, slug=slug)
    form = ReportActionForm(request.POST)
    if not form.is_valid():
        raise Http404("No such report")
    back = form.cleaned_data["back"] or "my-page"
    try:
        action(event, request.user, form.cleaned_data["report"], form.cleaned_data["note"])
    except UserError as exc:
        return _answer(request, event, back, str(exc))
    return _answer(request, event, back)


@login_required
@require_POST
def confirm(request, slug):
    """A player at the table confirms the reported result."""
    return _act(request, slug, lambda e, u, r, _note: self_report.confirm_report(e, u, r))


@login_required
@require_POST
def dispute(request, slug):
    """A player at the table disputes the reported result: a judge is called."""
    return _act(request, slug, self_report.dispute_report)
