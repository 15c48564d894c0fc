"""The judge's offline tablet (issue 7; ``docs/offline.md``): a page that keeps working
when the venue's network fails, its snapshot, its sync endpoint and its service worker.

- ``tablet``: the page shell; ``static/js/tablet.js`` renders it from the snapshot it
  keeps on the device and queues what the judge enters;
- ``tablet_data``: the snapshot (JSON) — the current round's tables and, for judges, the
  infraction catalogue;
- ``tablet_sync``: one queued entry (JSON) → saved / duplicate / conflict / invalid /
  forbidden / error (the server failed on it);
- ``tablet_worker``: the service worker, served under the page's address so that its
  scope covers the page.

Judges (incidents and results) and scorekeepers (results) use it; others get 403, people
with no role on the event 404 (``events.access``).
"""

import hashlib
import json
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from events import offline
from events.access import staff_required
from events.permissions import Permission as P

# Bump when the service worker's behaviour changes: a new worker replaces the old one and
# drops its cache.
WORKER_VERSION = "3"
SHELL_ASSETS = (
    "favicon.svg",
    "css/app.css",
    "django_htmx/htmx-2.min.js",
    "js/app.js",
    "js/clock.js",
    "js/tablet.js",
)


def tablet_access(view):
    """Staff of the event who may log incidents or enter results."""

    @staff_required(P.VIEW_STAFF_PAGES)
    @wraps(view)
    def wrapped(request, event, *args, **kwargs):
        if not offline.may_use_tablet(request.event_permissions):
            raise PermissionDenied
        return view(request, event, *args, **kwargs)

    return wrapped


def _urls(event) -> dict:
    base = reverse("manage:tablet", kwargs={"slug": event.slug})
    return {
        "page": base,
        "data": reverse("manage:tablet-data", kwargs={"slug": event.slug}),
        "sync": reverse("manage:tablet-sync", kwargs={"slug": event.slug}),
        "worker": reverse("manage:tablet-worker", kwargs={"slug": event.slug}),
    }


def _strings() -> dict:
    """The page's words, translated here (the page's script has no catalogue of its own)."""
    return {
        "online": _("Online"),
        "offline": _("Offline: entries are kept on this tablet"),
        "waiting": _("Waiting to sync: %(n)s"),
        "nothing_waiting": _("Nothing waiting: everything is saved."),
        "attention": _("Needs your decision: %(n)s"),
        "synced": _("Synced"),
        "sync_now": _("Sync now"),
        "syncing": _("Sending…"),
        "snapshot_at": _("Tables as of %(time)s"),
        "offline_ready": _("Ready for offline use"),
        "no_snapshot": _("Open this page once with the network on to keep the round here."),
        "no_round": _("No round is seated yet."),
        "incident": _("Incident"),
        "enter_result": _("Enter result"),
        "result_queued": _("result waiting to sync"),
        "tables": _("Tables"),
        "time_left": _("Time left"),
        "paused": _("paused"),
        "time_up": _("time is up"),
        "table": _("Table %(n)s"),
        "seat": _("Seat %(n)s"),
        "loss": _("Loss"),
        "back": _("Back"),
        "others": _("Someone not at a table"),
        "who": _("Who committed it?"),
        "common": _("Common infractions"),
        "all_infractions": _("All infractions"),
        "search": _("Search infractions"),
        "baseline": _(
            "Guide baseline: %(level)s. The penalty is worked out when it reaches "
            "the server, with the player's earlier offences."
        ),
        "yes": _("Yes"),
        "no": _("No"),
        "optional": _("optional"),
        "note": _("What happened (optional)"),
        "queue_incident": _("Log incident"),
        "answer_all": _("Answer every question first."),
        "queue_result": _("Save result"),
        "vp_label": _("VP of %(name)s"),
        "total": _("Total: %(n)s VP"),
        "games_label": _("Games won by %(name)s"),
        "bye": _("Bye"),
        "result_pending_sent": _(
            "A result of this table is being sent: wait until it is synced to change it."
        ),
        "incident_summary": _("Incident: %(name)s, %(code)s"),
        "result_summary": _("Result: %(table)s — %(vp)s"),
        "conflict_title": _("%(table)s was changed by someone else"),
        "theirs": _("Saved now"),
        "yours": _("Yours, not saved"),
        "keep_theirs": _("Keep the saved values (drop mine)"),
        "send_mine": _("Replace them with mine"),
        "discard": _("Drop this entry"),
        "rejected": _("Not saved"),
        "sign_in": _("Your session has ended: sign in again (nothing is lost), then come back."),
        "server_error": _("The server could not take it now; it will be tried again."),
        # An entry the server failed on (docs/offline.md "When the server fails on an
        # entry"): it never holds up the others; the judge may set it aside.
        "server_error_entry": _(
            "The server failed on this entry (an error on its side): nothing of it was "
            "saved. The entries after it are still sent."
        ),
        "stuck": _("Stuck"),
        "failed_times": _("Failed attempts: %(n)s."),
        "manual_only": _("Tried again only with “Sync now”."),
        "set_aside": _("Set aside"),
        "aside_title": _("Set aside: %(n)s"),
        "set_aside_at": _("set aside at %(time)s"),
        "send_again": _("Send again"),
        "confirm_drop_aside": _(
            "Drop this entry for good? It was never saved and will be lost from this tablet."
        ),
        "result_stuck": _(
            "A result of this table is stuck or set aside: send it again or drop it first."
        ),
        "confirm_discard": _("Drop this entry? It will not be saved."),
        # Checked on the tablet before a result is queued (the server checks again): the
        # server's own messages where they exist.
        "vp_range": _("Each player scores between 0 and %(n)s VP in steps of 0.5."),
        "vp_total": _("These VP add up to more than %(n)s players can score."),
        "vp_illegal": _("This sheet is not a legal game result."),
        "vp_irregular": _(
            "An irregular sheet (a judge's decision) is entered on the table's result page, online."
        ),
        "games_nan": _("“%(v)s” is not a number of games."),
        "games_both": _("Enter the games of both players (or neither, to clear the result)."),
        "games_range": _("In a best-of-%(b)s match each player wins 0 to %(n)s games."),
        "games_max": _("Both players cannot win %(n)s games."),
        "games_draw": _("A top-cut match cannot end in a draw: enter who won."),
        "games_won": _("Games won"),
        "best_of_hint": _("Best of %(b)s: the first to win %(n)s games wins the match."),
        "same_values": _("Already saved with these same values: nothing to decide."),
        "earlier_round": _(
            "%(round)s is over: replacing the values corrects its result, not a table of the "
            "round being played now."
        ),
    }


@tablet_access
@require_GET
def tablet(request, event):
    urls = _urls(event)
    return render(
        request,
        "manage/tablet.html",
        {
            "event": event,
            "urls": urls,
            "strings": _strings(),
            "round": offline.current_round(event),
            "time_zone": offline.zone_name(event),
            "perms": request.event_permissions,
            "P": P,
        },
    )


@tablet_access
@require_GET
@never_cache
def tablet_data(request, event):
    data = offline.snapshot(event, request.event_permissions)
    data["generated_at"] = timezone.now().isoformat()
    data["user"] = request.user.get_username()
    # A fresh token for the page kept by the service worker (the cookie may have changed
    # since, e.g. after signing in again).
    data["csrf"] = get_token(request)
    return JsonResponse(data)


@tablet_access
@require_POST
def tablet_sync(request, event):
    """One entry of the tablet's queue. Answers JSON always: 200 saved/duplicate, 409
    conflict (with the table's current values), 400 invalid, 403 forbidden, 500 error (the
    server failed on this entry: logged, nothing saved; ``offline.sync``)."""
    try:
        item = json.loads(request.body)
    except (ValueError, RecursionError):
        answer = offline.SyncAnswer("", offline.INVALID, _("The entry is not valid JSON."))
    else:
        answer = offline.sync(event, item, request.user, request.event_permissions)
    return JsonResponse(answer.as_json(), status=offline.HTTP_STATUS[answer.status])


@tablet_access
@require_GET
def tablet_worker(request, event):
    """The service worker script. Served from the page's folder so that its default scope
    is the page; ``no-cache`` so that a new version is picked up on the next visit."""
    urls = _urls(event)
    assets = [static(a) for a in SHELL_ASSETS]
    version = hashlib.sha256(
        json.dumps([WORKER_VERSION, urls["page"], assets]).encode()
    ).hexdigest()[:12]
    response = render(
        request,
        "manage/tablet_sw.js",
        {
            "config": json.dumps(
                {
                    "cache": f"arbitro-tablet-{event.slug}-{version}",
                    "prefix": f"arbitro-tablet-{event.slug}-",
                    "page": urls["page"],
                    "assets": assets,
                }
            ),
        },
        content_type="application/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response
