"""The players' self-service pages (docs/players.md) and the organiser's side of them:
registering from the event's page, checking in by the venue's QR code, dropping between
rounds, the player's seat on their own page (polled by htmx), the registration settings
and the check-in code. Views read input through forms and call
``events.self_service``; every player page needs a signed-in account (anonymous
visitors are sent to sign in and come back)."""

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from events import cache as page_cache
from events import (
    check_in_tokens,
    headcount,
    judge_calls,
    qr,
    round_clock,
    self_report,
    self_service,
)
from events.access import staff_required
from events.confirmations import Confirmation
from events.errors import UserError
from events.forms import ConfirmForm, RegistrationSettingsForm, SelfRegistrationForm
from events.models import Event, Registration, WaitlistEntry
from events.permissions import Permission as P

PROOF_KEY = "check-in-seen"
"""Session key: event id → when a valid check-in code was scanned (epoch seconds), kept
while the player signs in (``self_service.CHECK_IN_PROOF``)."""


def _event_page(event):
    return redirect(event.get_absolute_url())


# ---------------------------------------------------------------- registering
@login_required
def register(request, slug):
    """POST ``action=register|unregister`` from the event page; a GET (the way back
    from signing in) shows the event page."""
    event = get_object_or_404(Event, slug=slug)
    if request.method != "POST":
        return _event_page(event)
    form = SelfRegistrationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown action."))
        return _event_page(event)
    try:
        if form.cleaned_data["action"] == "register":
            kind, obj = self_service.self_register(event, request.user)
            if kind == self_service.REGISTERED:
                messages.success(request, _("You are registered for %(e)s.") % {"e": event.name})
            else:
                messages.info(
                    request,
                    _("The event is full: you are on the waitlist, number %(n)s.")
                    % {"n": self_service.waitlist.position(obj)},
                )
        else:
            done = self_service.self_unregister(event, request.user)
            if done == "unregistered":
                messages.success(request, _("You are no longer registered."))
            elif done == "left_waitlist":
                messages.success(request, _("You left the waitlist."))
    except UserError as exc:
        messages.error(request, str(exc))
    return _event_page(event)


# ---------------------------------------------------------------- check in by QR
@require_GET
def check_in(request, slug, token):
    """The address of the venue's QR code: a valid token (this minute's or the last)
    checks the signed-in player in. A visitor who must sign in first keeps the proof in
    their session for a few minutes, so the code changing meanwhile does not matter."""
    event = get_object_or_404(Event, slug=slug)
    now = timezone.now()
    proofs = request.session.get(PROOF_KEY, {})
    if check_in_tokens.token_is_valid(event, token, now):
        proofs[str(event.pk)] = int(now.timestamp())
        request.session[PROOF_KEY] = proofs
    seen = proofs.get(str(event.pk))
    if seen is None:
        return render(request, "events/check_in_refused.html", {"event": event}, status=403)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    try:
        self_service.check_in_by_code(
            event,
            request.user,
            seen_at=datetime.fromtimestamp(seen, tz=UTC),
            now=now,
        )
    except UserError as exc:
        messages.error(request, str(exc))
        return _event_page(event)
    proofs.pop(str(event.pk), None)
    request.session[PROOF_KEY] = proofs
    messages.success(request, _("You are checked in for %(e)s.") % {"e": event.name})
    return redirect("my-page")


# ---------------------------------------------------------------- drop
@login_required
def drop(request, slug):
    """The player's own drop: a confirmation page stating what it means (the ruleset's
    words, TR §3.1.4), then the drop (POST ``confirm=1``)."""
    event = get_object_or_404(Event, slug=slug)
    reg = (
        Registration.objects.filter(event=event, person__user=request.user)
        .select_related("event", "person")
        .first()
    )
    if reg is None:
        messages.error(request, _("You are not registered in this event."))
        return _event_page(event)
    if request.method == "POST" and ConfirmForm(request.POST).is_valid():
        try:
            self_service.self_drop(event, request.user)
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("You dropped from %(e)s.") % {"e": event.name})
        return _event_page(event)
    refusal = "" if reg.status == Registration.Status.DROPPED else self_service.drop_refusal(reg)
    confirmation = Confirmation(
        title=_("Drop from %(e)s?") % {"e": event.name},
        consequences=self_service.drop_consequences(event),
        action=reverse("events:self-drop", args=[event.slug]),
        fields={},
        button=_("Yes, drop me"),
        cancel_url=event.get_absolute_url(),
    )
    return render(
        request,
        "events/self_drop.html",
        {"event": event, "reg": reg, "c": confirmation, "refusal": refusal},
    )


# ---------------------------------------------------------------- my seat
@dataclass(frozen=True)
class SeatBox:
    """The polled box of the player's seat: ``reg``, the fragment's ``html`` and its
    ``version`` (a digest of the HTML, sent back by the next poll)."""

    reg: Registration
    html: str
    version: str
    reasons: tuple = ()


SEAT_BOX_SECONDS = 600
"""How long a built seat box stays cached (it is built again sooner when its key or its
clock's end passes; this bounds the staleness of a change nothing announces, a player's
name corrected)."""


def seat_box(
    request, reg: Registration | None, *, waiting: bool = False, error: str = ""
) -> SeatBox:
    """The :class:`SeatBox` of ``reg`` (its event loaded; ``None``: not registered, on
    the waitlist when ``waiting``), with the state of its table's judge call, the
    reasons the player may call a judge for (docs/players.md "Calling a judge") and its
    table's reported result (``events.self_report.table_panel``; ``error``: why the
    player's last report, confirmation or dispute was refused).

    Cached (docs/performance.md "Players keeping their page open"): the key holds the
    registration and its status, the event's ``seating_version``, its floor token
    (``events.cache.floor_token``: the clock's changes, the judge calls, the table's
    reported and saved results) and the language, so a poll of an unchanged box costs no
    query beyond the registration's; a box is built again once its running clock's end or
    its report's countdown passes. A box with an ``error`` is never cached."""
    if reg is None:
        html = render_to_string(
            "events/_my_seat.html", {"missing": True, "waiting": waiting}, request=request
        )
        return SeatBox(reg, html, hashlib.sha256(html.encode()).hexdigest()[:24])
    key = (
        f"seat-box:{reg.pk}:{reg.status}:{reg.event.seating_version}:"
        f"{page_cache.floor_token(reg.event_id)}:{get_language()}"
    )
    now = round_clock.epoch_ms(timezone.now())
    hit = None if error else page_cache.cache.get(key)
    if hit is not None and (hit["until"] is None or now < hit["until"]):
        return SeatBox(reg, hit["html"], hit["version"], tuple(map(tuple, hit["reasons"])))
    seat = self_service.my_seat(reg)
    call = judge_calls.open_call_of_table(seat.table_id) if seat.table_id else None
    panel = self_report.table_panel(reg, seat.table_id) if seat.table_id and not seat.bye else None
    ctx = {
        "reg": reg,
        "event": reg.event,
        "seat": seat,
        "call": call,
        "panel": panel,
        "report_error": error,
        "polled": True,
    }
    reasons: tuple = ()
    if seat.table_id and not seat.bye:
        reasons = tuple(judge_calls.reason_choices(reg.event))
    html = render_to_string("events/_my_seat.html", ctx, request=request)
    box = SeatBox(reg, html, hashlib.sha256(html.encode()).hexdigest()[:24], reasons)
    if error:
        return box
    running = seat.clock is not None and seat.clock.state == round_clock.RUNNING
    ends = [seat.clock.end_ms] if running else []
    stands_at = panel.report.stands_at if panel is not None and panel.report else None
    if stands_at is not None:
        ends.append(round_clock.epoch_ms(stands_at))
    page_cache.cache.set(
        key,
        {
            "html": html,
            "version": box.version,
            # plain strings: a lazy translation costs more to unpickle than the rest
            "reasons": [[str(code), str(label)] for code, label in reasons],
            "until": min(ends) if ends else None,
        },
        SEAT_BOX_SECONDS,
    )
    return box


@login_required
@require_GET
def my_seat(request, slug):
    """The box of the player's own page that htmx polls every few seconds: their seat
    (VEKN table and seat, the others at the table; MyL table and opponent) and the time
    left. A bounded number of queries (``tests/events/views``). The poll sends the
    version it shows (``?v=``): unchanged, the answer is an empty 204, which htmx leaves
    alone (nothing redrawn, nothing read out again); its clock counts down by itself
    (``static/js/clock.js``). Otherwise the new box, with an ``ETag``. The box's bytes
    hold the clock's end instant, never the seconds left, so that they change only when
    the clock does (a start, pause, resume, extension, the end); each answer, a 204 too,
    carries the server's time (``X-Server-Time``, ms) for the phone's offset."""
    reg = (
        Registration.objects.filter(event__slug=slug, person__user=request.user)
        .select_related("event")
        .first()
    )
    waiting = (
        reg is None
        and WaitlistEntry.objects.filter(event__slug=slug, person__user=request.user).exists()
    )
    box = seat_box(request, reg, waiting=waiting)
    if request.GET.get("v") == box.version:
        response = HttpResponse(status=204)
    else:
        etag = f'"{box.version}"'
        if request.headers.get("If-None-Match") == etag:
            response = HttpResponseNotModified()
        else:
            response = render(request, "events/_my_seat_box.html", {"box": box, "slug": slug})
        response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    # the server's time, every poll (static/js/clock.js keeps the offset up to date)
    response[round_clock.SERVER_TIME_HEADER] = str(round_clock.epoch_ms(timezone.now()))
    return response


# ---------------------------------------------------------------- organiser
@staff_required(P.VIEW_STAFF_PAGES)
def registration_settings(request, event):
    """The organiser's self-registration settings and the waitlist, in order."""
    with timezone.override(event.zone):
        data = request.POST if request.method == "POST" else None
        form = RegistrationSettingsForm(data, instance=event)
        if request.method == "POST":
            if P.EDIT_EVENT not in request.event_permissions:
                return HttpResponse(status=403)
            if form.is_valid():
                changed = {k: form.cleaned_data[k] for k in form.changed_data}
                event.refresh_from_db()
                try:
                    made = self_service.update_registration_settings(event, request.user, **changed)
                except UserError as exc:
                    form.add_error(None, str(exc))
                else:
                    messages.success(request, _("Settings saved."))
                    for reg in made:
                        messages.info(
                            request,
                            _("%(name)s moved up from the waitlist.") % {"name": reg.person.name},
                        )
                    return redirect("manage:registration-settings", slug=event.slug)
        return render(
            request,
            "manage/registration_settings.html",
            {
                "event": event,
                "form": form,
                "waitlist": list(event.waitlist.select_related("person")),
                "counts": headcount.player_counts(event),
                "perms": request.event_permissions,
                "P": P,
            },
            status=400 if request.method == "POST" else 200,  # a refused form, shown again
        )


def _code_context(request, event) -> dict:
    now = timezone.now()
    url = request.build_absolute_uri(
        reverse("events:check-in", args=[event.slug, check_in_tokens.make_token(event, now)])
    )
    return {
        "event": event,
        "qr": qr.qr_svg(url, title=_("Check-in code")),
        "url": url,
        "refresh": check_in_tokens.seconds_to_next(now),
        "counts": headcount.player_counts(event),
        "clock_now": round_clock.epoch_ms(now),
    }


@staff_required(P.MANAGE_PLAYERS)
def check_in_code(request, event):
    """The check-in page's QR code, shown at the venue: it changes every minute
    (``events.check_in_tokens``), and the page fetches the next one by itself (an htmx
    request answers the code alone)."""
    ctx = _code_context(request, event)
    if request.htmx:
        response = render(request, "manage/check_in_code.html#code", ctx)
    else:
        response = render(request, "manage/check_in_code.html", ctx)
    response["Cache-Control"] = "private, no-store"
    return response
