"""Notification pages (docs/notifications.md): the signed-in person's preferences (phone
first), the phone's push subscription and its service worker, an organisation's webhooks
and the delivery log staff read. Views read forms and call ``events.notifications``."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from events import notifications, notify_rules
from events.access import organisation_organiser_required
from events.forms import (
    NotificationPreferencesForm,
    PushEndpointForm,
    PushSubscriptionForm,
    WebhookForm,
    json_object,
)
from events.models import Organisation, PushSubscription

LOG_ROWS = 200
"""Rows of the delivery log shown at once (newest first)."""


def _json_form(form_class, request):
    """A form bound to the JSON object the page's script posted ({} when not JSON)."""
    return form_class(json_object(request.body))


@login_required
def preferences(request):
    """The signed-in person's opt-ins: one tick per kind and channel (e-mail, this phone)."""
    # A channel that cannot reach this person is not offered: no e-mail address on the
    # account, or no Web Push keys on this site (docs/notifications.md).
    usable = {"email": bool(request.user.email), "push": bool(settings.VAPID_PUBLIC_KEY)}
    if request.method == "POST":
        form = NotificationPreferencesForm(request.POST)
        if form.is_valid():
            chosen = {(k, c) for k, c in form.cleaned_data["chosen"] if usable.get(c)}
            notifications.set_preferences(request.user, chosen)
            messages.success(request, _("Notification preferences saved."))
            return redirect("notification-preferences")
    else:
        chosen = notifications.preferences_of(request.user)
        form = NotificationPreferencesForm(initial={"chosen": [f"{k}:{c}" for k, c in chosen]})
    chosen_codes = set(form["chosen"].value() or [])
    rows = [
        {
            "label": label,
            "choices": [
                {
                    "code": f"{kind}:{channel}",
                    "label": channel_label,
                    "checked": usable[channel] and f"{kind}:{channel}" in chosen_codes,
                    "disabled": not usable[channel],
                }
                for channel, channel_label in (
                    ("email", _("E-mail")),
                    ("push", _("Phone")),
                )
            ],
        }
        for kind, label in notify_rules.KIND_LABELS.items()
    ]
    return render(
        request,
        "notifications/preferences.html",
        {
            "form": form,
            "rows": rows,
            "email": request.user.email,
            "phones": PushSubscription.objects.filter(user=request.user).count(),
            "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        },
    )


@login_required
@require_POST
def push_subscribe(request):
    """The phone's script posts its push subscription (JSON: endpoint, p256dh, auth)."""
    form = _json_form(PushSubscriptionForm, request)
    if not form.is_valid():
        return JsonResponse({"ok": False, "errors": form.errors}, status=400)
    data = form.cleaned_data
    notifications.subscribe_push(request.user, data["endpoint"], data["p256dh"], data["auth"])
    return JsonResponse({"ok": True})


@login_required
@require_POST
def push_unsubscribe(request):
    """The phone's script removes its subscription (JSON: endpoint)."""
    form = _json_form(PushEndpointForm, request)
    if not form.is_valid():
        return JsonResponse({"ok": False, "errors": form.errors}, status=400)
    removed = notifications.unsubscribe_push(request.user, form.cleaned_data["endpoint"])
    return JsonResponse({"ok": True, "removed": removed})


@require_GET
def push_worker(request):
    """The players' service worker (shows a push, opens its link on a tap). Served from the
    preferences page's folder, so its scope is that folder; ``no-cache`` so that a new
    version is picked up."""
    response = render(
        request, "notifications/push_sw.js", content_type="application/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response


@login_required
def delivery_log(request):
    """The delivery log: superusers see every delivery, organisers their organisations'
    (``?organisation=<slug>`` narrows it)."""
    if not notifications.may_read_log(request.user):
        raise PermissionDenied
    organisation = None
    slug = request.GET.get("organisation", "")
    if slug:
        organisation = get_object_or_404(
            notifications.organisations_readable(request.user), slug=slug
        )
    return render(
        request,
        "notifications/log.html",
        {
            "deliveries": notifications.deliveries_for(request.user, organisation)[:LOG_ROWS],
            "organisation": organisation,
            "organisations": notifications.organisations_readable(request.user),
            "limit": LOG_ROWS,
        },
    )


def _webhooks_page(request, org: Organisation, form, status=200):
    return render(
        request,
        "notifications/webhooks.html",
        {
            "organisation": org,
            "webhooks": [
                (hook, [notify_rules.KIND_LABELS.get(k, k) for k in hook.kinds])
                for hook in org.webhooks.all()
            ],
            "form": form,
            "deliveries": notifications.deliveries_for(request.user, org)[:50],
        },
        status=status,
    )


@organisation_organiser_required
def webhooks(request, org):
    """An organisation's webhooks (add, remove; the signing secret shown to its
    organisers) and its latest deliveries."""
    if request.method == "POST":
        form = WebhookForm(request.POST)
        if not form.is_valid():
            return _webhooks_page(request, org, form, status=400)
        data = form.cleaned_data
        notifications.add_webhook(org, data["name"], data["url"], data["kinds"])
        messages.success(request, _("Webhook added."))
        return redirect("organisation-webhooks", org_slug=org.slug)
    return _webhooks_page(request, org, WebhookForm())


@organisation_organiser_required
@require_POST
def webhook_remove(request, org, webhook_id):
    """Remove one of the organisation's webhooks."""
    if notifications.remove_webhook(org, webhook_id):
        messages.success(request, _("Webhook removed."))
    else:
        messages.info(request, _("This webhook was already removed."))
    return redirect("organisation-webhooks", org_slug=org.slug)
