"""A round's deck checks (docs/decks.md, "Deck checks"; JG §3.1.1, §3.1.2): the head judge
chooses players at random or by hand; each chosen player is listed with their registered
list to count against and the buttons "matches" / "does not match". A mismatch opens the
incident flow with the player, their table, a description and the ruleset's deck
infraction already chosen (``manage:incident-new`` with ``reg``, ``table``, ``code`` and
``description``, from ``deck_check_services.incident_prefill``: VEKN JG §3.1.1 for an
illegal registered list, §3.1.2 for a legal one; Mitos y Leyendas §3.3.2, or §3.3.1 /
§3.3.3 as the judge found; ``events.rulesets`` facts).

Views read input through forms and call ``events.deck_check_services``."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from events import deck_check_services as checks
from events import deck_services, rulesets
from events.access import round_or_404, staff_required
from events.deck_checkers import stored_problems
from events.deck_selection import new_seed
from events.errors import UserError
from events.forms_floor import DeckCheckChooseForm, DeckCheckOutcomeForm
from events.models import DeckCheck, Registration, Seat
from events.permissions import Permission as P


def _page(event, number):
    return reverse("manage:deck-checks", kwargs={"slug": event.slug, "number": number})


@staff_required(P.LOG_PENALTIES)
def deck_checks(request, event, number):
    """The round's deck checks, each with the registered list to count against."""
    rnd = round_or_404(event, number)
    spec = deck_services.checker(event)
    rows = [
        {
            "row": row,
            "sections": [
                {"label": label, "cards": [c for c in row.deck.cards if c.get("section") == code]}
                for code, label in spec.sections
            ]
            if row.deck is not None
            else [],
            "problems": stored_problems(row.deck.problems) if row.deck is not None else [],
        }
        for row in checks.round_checks(rnd)
    ]
    chosen = {r["row"].check.registration_id for r in rows}
    seated = [
        s
        for s in Seat.objects.filter(round=rnd)
        .select_related("registration__person", "table")
        .order_by("table__number", "position")
        if s.registration_id not in chosen
    ]
    return render(
        request,
        "manage/deck_checks.html",
        {
            "event": event,
            "round": rnd,
            "rows": rows,
            "seated": seated,
            "can_choose": bool(request.event_permissions & checks.CHOOSE_PERMISSIONS),
            "max_draw": checks.MAX_DRAW,
            "seed": new_seed(),
            "approved": event.results_approved,
            "perms": request.event_permissions,
            "P": P,
            "findings": rulesets.of(event).deck_check_findings,
            "illegal_code": rulesets.of(event).illegal_decklist_infraction,
        },
    )


@staff_required(P.CONFIRM_PENALTIES)
@require_POST
def deck_checks_choose(request, event, number):
    """Draw players at random (``count``) or choose one by hand (``registration``)."""
    rnd = round_or_404(event, number)
    form = DeckCheckChooseForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(_page(event, number))
    data = form.cleaned_data
    try:
        if data["count"] is not None:
            rows = checks.choose_random(
                rnd, data["count"], request.user, request.event_permissions, seed=data["seed"]
            )
            messages.success(
                request,
                ngettext(
                    "%(n)d player drawn for a deck check (seed %(seed)s).",
                    "%(n)d players drawn for a deck check (seed %(seed)s).",
                    len(rows),
                )
                % {"n": len(rows), "seed": rows[0].seed},
            )
        else:
            reg = get_object_or_404(Registration, pk=data["registration"], event=event)
            checks.choose_by_hand(rnd, reg, request.user, request.event_permissions)
            messages.success(request, _("Deck check added."))
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect(_page(event, number))


@staff_required(P.LOG_PENALTIES)
@require_POST
def deck_check_outcome(request, event, number, pk):
    """Record "matches" or "does not match"; a mismatch goes on to the incident flow,
    pre-filled with the player, their table and the infraction (JG §3.1.1 or §3.1.2)."""
    rnd = round_or_404(event, number)
    check = get_object_or_404(DeckCheck, pk=pk, round=rnd)
    form = DeckCheckOutcomeForm(request.POST)
    if not form.is_valid():
        for name, errors in form.errors.items():
            for error in errors:
                if name == "outcome":
                    error = _("Say whether the deck matches its list.")
                elif name in form.fields:
                    error = f"{form.fields[name].label or name}: {error}"
                messages.error(request, error)
        return redirect(_page(event, number))
    try:
        row = checks.record_outcome(
            check,
            form.cleaned_data["outcome"],
            request.user,
            request.event_permissions,
            note=form.cleaned_data["note"],
        )
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect(_page(event, number))
    if row.outcome != DeckCheck.Outcome.MISMATCH:
        messages.success(request, _("The deck matches its list."))
        return redirect(_page(event, number))
    query = checks.incident_prefill(row, form.cleaned_data["finding"])
    if not row.registration.decks.exists():
        warning = _("No registered list: log the infraction for this player (opened below).")
    else:
        warning = _(
            "The deck does not match its list: log the infraction for this player (opened below)."
        )
    messages.warning(request, warning)
    return redirect(
        reverse("manage:incident-new", kwargs={"slug": event.slug}) + "?" + urlencode(query)
    )
