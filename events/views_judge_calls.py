"""Calling a judge (docs/players.md "Calling a judge"): the player's button on their own
page, and the judges' queue of the event (polled by htmx), where one judge takes a call
and closes it. Views read input through forms and call ``events.judge_calls``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from events import judge_calls
from events.access import staff_required
from events.errors import UserError
from events.forms_floor import JudgeCallActionForm, JudgeCallForm
from events.models import Event
from events.permissions import Permission as P


@login_required
@require_POST
def call_judge(request, slug):
    """The player's "Call a judge": records the call for their table (or joins the open
    one) and goes back to their page, which shows its state."""
    event = get_object_or_404(Event, slug=slug)
    form = JudgeCallForm(request.POST, event=event)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, errors[0])
        return redirect("my-page")
    try:
        _call, created = judge_calls.call_judge(
            event, request.user, form.cleaned_data["reason"], form.cleaned_data["note"]
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("A judge has been called.") if created else _("Your table already called a judge."),
        )
    return redirect("my-page")


def _queue_context(event, request):
    return {
        "event": event,
        "items": judge_calls.queue(event, timezone.now()),
        "perms": request.event_permissions,
        "P": P,
    }


@staff_required(P.LOG_PENALTIES)
@require_GET
def queue(request, event):
    """The judges' queue: the open calls, oldest first, with how long each table has
    waited; htmx polls its list every few seconds (a bounded number of queries)."""
    ctx = _queue_context(event, request)
    if request.htmx:
        return render(request, "manage/judge_calls.html#queue", ctx)
    return render(request, "manage/judge_calls.html", ctx)


def _act(request, event, action):
    form = JudgeCallActionForm(request.POST)
    if not form.is_valid():
        raise Http404("No such call")
    try:
        action(event, form.cleaned_data["call"], request.user, perms=request.event_permissions)
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("manage:judge-calls", slug=event.slug)


@staff_required(P.LOG_PENALTIES)
@require_POST
def take(request, event):
    """A judge takes a call; a second judge is told who has it."""
    return _act(request, event, judge_calls.take_call)


@staff_required(P.LOG_PENALTIES)
@require_POST
def close(request, event):
    """A judge closes a call (taking it first if nobody had)."""
    return _act(request, event, judge_calls.close_call)
