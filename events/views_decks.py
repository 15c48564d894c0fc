"""Deck pages (docs/decks.md): the player's "My deck" (paste, live check, the list
registered, read-only once locked: VEKN TR §6.3), the live check's fragment (htmx), a
staff member entering or correcting a player's list (JG §3.1.1), the organiser's
overview (not submitted, invalid, valid), every list printed for deck checks, and the
published decks of an ended event.

Lists are private: only the player and the event's staff see one until the event ends
and the organiser publishes it. Views read input through forms, call
``events.deck_services`` and render; what differs between the games comes from the
ruleset's ``decks`` adapter (``events.deck_checkers``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import deck_play, deck_services, views_deck_play
from events.access import staff_required, user_permissions
from events.deck_checkers import stored_problems
from events.errors import UserError
from events.forms import DeckForm, DeckPreviewForm
from events.forms_decks import DeckLabelForm
from events.models import Event, Registration
from events.permissions import Permission as P
from events.qr import qr_svg


def _deck_context(event, deck) -> dict:
    """The registered ``deck`` shown by section, with its problems in the reader's
    language."""
    spec = deck_services.checker(event)
    sections = []
    if deck is not None:
        for code, label in spec.sections:
            cards = [c for c in deck.cards if c.get("section") == code]
            sections.append(
                {
                    "code": code,
                    "label": label,
                    "cards": cards,
                    "count": sum(c["count"] for c in cards),
                }
            )
    return {
        "deck": deck,
        "sections": sections,
        "problems": stored_problems(deck.problems) if deck else [],
        "placeholder": spec.placeholder,
    }


def _label(request, event, reg, *, name_required: bool = False) -> tuple[str, str]:
    """The deck a page is about (``?label=`` or the posted ``label``; ``""`` outside a
    multi-deck event, VEKN TR §3.1.5) and why a POST may not save under it (``""``: it
    may). A name that is not valid (too long, a NUL) is refused, never read as the
    unnamed deck; a blank name is refused when ``name_required`` (the player's own page:
    "Add a deck" and the unnamed deck share one address, so a blank name would overwrite
    the unnamed deck) or when no unnamed deck exists."""
    if not event.multideck:
        return "", ""
    form = DeckLabelForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return "", str(form.errors["label"][0])
    label = form.cleaned_data["label"]
    if request.method == "POST" and label == "":
        if name_required or deck_services.deck_of(reg, "") is None:
            return "", str(_("Give the deck a name (multi-deck event, TR §3.1.5)."))
    return label, ""


# ---------------------------------------------------------------- the player's page
@login_required
def my_deck(request, slug):
    """The signed-in player's list for this event: GET the form (or, once locked, the
    list read-only); POST save it (an invalid list is saved, flagged). 404 for a user not
    registered in the event."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    reg = deck_services.own_registration(event, request.user)
    if reg is None:
        raise Http404("Not registered in this event")
    locked = deck_services.is_locked(event)
    label, label_error = _label(request, event, reg, name_required=True)
    deck = deck_services.deck_of(reg, label)
    form = DeckForm(request.POST or None, initial={"text": deck.text if deck else ""})
    status = 200
    if request.method == "POST":
        if label_error:
            form.add_error(None, label_error)
        if form.is_valid():
            try:
                saved = deck_services.submit_own(
                    reg, form.cleaned_data["text"], request.user, label=label
                )
            except UserError as exc:
                form.add_error("text", exc.message)
            else:
                if saved.valid:
                    messages.success(request, _("Decklist registered."))
                else:
                    messages.warning(
                        request,
                        _(
                            "Decklist registered, but it has problems: fix them before the deadline."
                        ),
                    )
                return _redirect_to("events:my-deck", event, label, slug=event.slug)
        status = 400
    return render(
        request,
        "events/my_deck.html",
        {
            "event": event,
            "registration": reg,
            "form": form,
            "locked": locked,
            "check_url": reverse("events:deck-check", kwargs={"slug": event.slug}),
            "label": label,
            **_deck_context(event, deck),
            **views_deck_play.player_context(event, reg),
        },
        status=status,
    )


def _redirect_to(name, event, label, **kwargs):
    url = reverse(name, kwargs=kwargs)
    if event.multideck:
        url += "?" + urlencode({"label": label})
    return redirect(url)


@login_required
@require_POST
def deck_check(request, slug):
    """The live check of a list being typed (htmx fragment; nothing saved): its counts per
    section, the problems named in the reader's language, card-name suggestions and the
    cards as read (under their real names). For the
    event's players and staff; 404 for anyone else."""
    event = get_object_or_404(Event, slug=slug)
    if deck_services.own_registration(event, request.user) is None and not user_permissions(
        request.user, event
    ):
        raise Http404("No such event")
    form = DeckPreviewForm(request.POST)
    ctx = {"event": event, "verdict": None, "error": "", "problems": [], "counts": []}
    text = form.cleaned_data["text"] if form.is_valid() else ""
    if not form.is_valid():
        # The form's own words: too long, or a NUL character (not the same problem).
        ctx["error"] = next(iter(form.errors.get("text") or [_("The list is too long.")]))
    elif text.strip():
        try:
            verdict = deck_services.check_text(event, text)
        except UserError as exc:
            ctx["error"] = str(exc.message)
        else:
            spec = deck_services.checker(event)
            ctx.update(
                verdict=verdict,
                problems=stored_problems(verdict.problems),
                counts=[(label, verdict.counts.get(code, 0)) for code, label in spec.sections],
                # Each card under the name it was read as (a close misspelling is matched:
                # the player sees the guess before saving; docs/decks.md).
                sections=[
                    {"label": label, "cards": [c for c in verdict.cards if c["section"] == code]}
                    for code, label in spec.sections
                ],
            )
    return render(request, "events/_deck_check.html", ctx)


# ---------------------------------------------------------------- staff
def _registration(event, reg_id) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("person", "event"), pk=reg_id, event=event
    )


@staff_required(P.VIEW_STAFF_PAGES)
def deck_entry(request, event, reg_id):
    """A player's list for staff: GET it (and the form when the staff member may change
    it); POST enter it for them, or, once locked, correct it with a reason (judges only,
    audited: JG §3.1.1). 403 without the permission."""
    reg = _registration(event, reg_id)
    perms = request.event_permissions
    locked = deck_services.is_locked(event)
    may_edit = bool(
        perms & (deck_services.CORRECT_PERMISSIONS if locked else deck_services.ENTER_PERMISSIONS)
    )
    label, label_error = _label(request, event, reg)
    deck = deck_services.deck_of(reg, label)
    form = DeckForm(request.POST or None, initial={"text": deck.text if deck else ""})
    status = 200
    if request.method == "POST":
        if not may_edit:
            raise PermissionDenied
        if label_error:
            form.add_error(None, label_error)
        if form.is_valid():
            try:
                deck_services.enter_for_player(
                    reg,
                    form.cleaned_data["text"],
                    request.user,
                    perms,
                    reason=form.cleaned_data["reason"],
                    label=label,
                )
            except UserError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(
                    request, _("Decklist of %(name)s saved.") % {"name": reg.person.name}
                )
                if event.multideck:
                    return _redirect_to(
                        "manage:deck-entry", event, label, slug=event.slug, reg_id=reg.pk
                    )
                return redirect("manage:decks", slug=event.slug)
        status = 400
    return render(
        request,
        "manage/deck_entry.html",
        {
            "event": event,
            "r": reg,
            "form": form,
            "locked": locked,
            "may_edit": may_edit,
            "check_url": reverse("events:deck-check", kwargs={"slug": event.slug}),
            "label": label,
            **_deck_context(event, deck),
            **views_deck_play.staff_context(event, reg, perms),
        },
        status=status,
    )


@staff_required(P.VIEW_STAFF_PAGES)
def decks(request, event):
    """The organiser's overview: who has not submitted, who has an invalid list (with its
    problems), who has a valid one. Bounded queries whatever the number of players."""
    return render(
        request,
        "manage/decks.html",
        {
            "event": event,
            "overview": deck_services.overview(event),
            "locked": deck_services.is_locked(event),
            "multideck": deck_play.overview(event) if event.multideck else None,
        },
    )


@staff_required(P.VIEW_STAFF_PAGES)
def print_decks(request, event):
    """Every registered list, one per printed card, for deck checks (``print.css``)."""
    spec = deck_services.checker(event)
    if event.multideck:  # every deck of every player (TR §3.1.5)
        rows = [
            deck_services.DeckRow(p.registration, d)
            for p in deck_play.overview(event)[1]
            for d in p.decks
        ]
    else:
        rows = [row for row in deck_services.overview(event).rows if row.deck is not None]
    lists = [
        {
            "registration": row.registration,
            "deck": row.deck,
            "problems": row.problems,
            "sections": [
                {
                    "label": label,
                    "cards": [c for c in row.deck.cards if c.get("section") == code],
                }
                for code, label in spec.sections
            ],
        }
        for row in rows
    ]
    url = request.build_absolute_uri(reverse("events:public-event", kwargs={"slug": event.slug}))
    return render(
        request,
        "print/decks.html",
        {"event": event, "lists": lists, "qr": qr_svg(url, title=_("Public page")), "qr_url": url},
    )


# ---------------------------------------------------------------- published decks
def public_decks(request, slug):
    """The decks the organiser published, once the event has ended (attributed or
    anonymous), with counts by card type, clan and discipline where the game has them.
    Before the event ends, or with nothing published: 404."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    published = deck_services.published_decks(event)
    if not published:
        raise Http404("No published decks")
    spec = deck_services.checker(event)
    rows = [
        {
            "entry": entry,
            "sections": [
                {"label": label, "cards": [c for c in entry.deck.cards if c.get("section") == code]}
                for code, label in spec.sections
            ],
        }
        for entry in published
    ]
    return render(request, "events/public_decks.html", {"event": event, "rows": rows})
