"""The VEKN link's organiser page (docs/vekn-link.md): the state of the event's calendar
entry and results (queued, sent with the VEKN event id, failed with the VEKN's message),
announcing the event, the retry button."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import vekn_client, vekn_push
from events.access import staff_required
from events.errors import UserError
from events.forms_vekn import VeknAnnounceForm, VeknRetryForm
from events.permissions import Permission as P


@staff_required(P.VIEW_STAFF_PAGES)
def vekn_page(request, event):
    link = vekn_push.link_of(event)
    pushes = vekn_push.pushes(event) if link else {}
    person = getattr(request.user, "person", None)
    form = VeknAnnounceForm(
        initial={"organiser_vekn": getattr(person, "vekn_number", ""), "venue_id": 0}
    )
    return render(
        request,
        "manage/vekn.html",
        {
            "event": event,
            "pushes_to_vekn": link is not None,
            "enabled": vekn_client.enabled(),
            "calendar": pushes.get("event"),
            "results": pushes.get("results"),
            "form": form,
            "can_edit": P.EDIT_EVENT in request.event_permissions,
        },
    )


@staff_required(P.EDIT_EVENT)
@require_POST
def vekn_announce(request, event):
    form = VeknAnnounceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the organiser's VEKN number (digits)."))
        return redirect("manage:vekn", slug=event.slug)
    data = form.cleaned_data
    try:
        vekn_push.announce(
            event,
            request.user,
            organiser_vekn=data["organiser_vekn"],
            venue_id=data["venue_id"] or 0,
            multideck=data["multideck"],
            proxies=data["proxies"],
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Queued for the VEKN calendar."))
    return redirect("manage:vekn", slug=event.slug)


@staff_required(P.EDIT_EVENT)
@require_POST
def vekn_retry(request, event):
    form = VeknRetryForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Incomplete form: try again."))
        return redirect("manage:vekn", slug=event.slug)
    try:
        vekn_push.retry(
            form.cleaned_data["push"], event, request.user, form.cleaned_data["vekn_event_id"] or ""
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Queued again."))
    return redirect("manage:vekn", slug=event.slug)
