"""Multi-deck pages (VEKN TR §3.1.5, §3.1.5a; docs/decks.md "Multi-deck events",
docs/decks.md): the player says which of their decks they play in the open round,
a judge sets it for them (audited), and the parts of the deck pages and the final's page
that show a player's decks and each finalist's deck for the final.

Views read input through ``events.forms_decks`` and call ``events.deck_play``; the decks
themselves are saved by ``events.deck_services`` through ``events.views_decks``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import deck_play, deck_services
from events.access import staff_required
from events.errors import UserError
from events.forms_decks import DeckPlayForm, JudgeDeckPlayForm
from events.models import Event, Registration
from events.permissions import Permission as P


def _round_label(number: int, final_number: int | None) -> str:
    if final_number is not None and number == final_number:
        return _("Final")
    return _("Round %(n)s") % {"n": number}


def _final_number(event, rounds) -> int | None:
    final = next((r for r in rounds if r.is_final), None)
    if final is not None:
        return final.number
    return event.total_preliminary_rounds + 1 if event.has_final else None


def player_context(event, registration) -> dict:
    """What the player's deck page shows in a multi-deck event: their decks, the open
    round and their choice for it (with the form), each round's deck, and the final's
    deck once recorded. ``{}`` for an ordinary event. Four queries."""
    if not event.multideck:
        return {}
    rounds = list(event.rounds.all())
    number, rnd = deck_play.open_round(event, rounds)
    decks = deck_play.decks_of(registration)
    plays = deck_play.plays_of(registration)
    final_number = _final_number(event, rounds)
    open_play = plays.get(number) if number is not None else None
    return {
        "multideck": True,
        "my_decks": decks,
        "open_number": number,
        "open_label": _round_label(number, final_number) if number is not None else "",
        "open_play": open_play,
        "play_form": DeckPlayForm(
            decks=decks, initial={"deck": open_play.deck.label if open_play else None}
        ),
        "played": [(_round_label(n, final_number), p) for n, p in sorted(plays.items())],
        "final_play": plays.get(final_number) if final_number else None,
        "final_explanation": deck_play.explain(plays.get(final_number) if final_number else None),
    }


def staff_context(event, registration, perms) -> dict:
    """The judge's part of a player's deck page in a multi-deck event: the player's decks,
    each round's deck, and the form to set it (judges only). ``{}`` otherwise."""
    if not event.multideck:
        return {}
    rounds = list(event.rounds.all())
    number, _rnd = deck_play.open_round(event, rounds)
    decks = deck_play.decks_of(registration)
    plays = deck_play.plays_of(registration)
    final_number = _final_number(event, rounds)
    numbers = sorted({r.number for r in rounds} | ({number} if number else set()))
    choices = [(n, _round_label(n, final_number)) for n in numbers]
    may_set = bool(perms & deck_services.CORRECT_PERMISSIONS)
    return {
        "multideck": True,
        "my_decks": decks,
        "played": [(_round_label(n, final_number), p) for n, p in sorted(plays.items())],
        "judge_play_form": JudgeDeckPlayForm(
            decks=decks, rounds=choices, initial={"round_number": number}
        )
        if may_set and decks and choices
        else None,
    }


@login_required
@require_POST
def my_deck_play(request, slug):
    """The player chooses their deck for the open round (before its seating is published
    or it starts). 404 for a user not registered in the event."""
    event = get_object_or_404(Event, slug=slug)
    reg = deck_services.own_registration(event, request.user)
    if reg is None:
        raise Http404("Not registered in this event")
    form = DeckPlayForm(request.POST, decks=deck_play.decks_of(reg))
    if not form.is_valid():
        messages.error(request, _("Choose one of your decks."))
    else:
        try:
            play = deck_play.choose_own(reg, form.cleaned_data["deck"], request.user)
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("You play %(deck)s in round %(n)s.")
                % {"deck": play.deck.label or _("(unnamed deck)"), "n": play.round_number},
            )
    return redirect("events:my-deck", slug=event.slug)


@staff_required(P.VIEW_STAFF_PAGES)
@require_POST
def deck_play_set(request, event, reg_id):
    """A judge sets the deck a player plays in a round (audited ``deck.play_set``; a
    reason once the round's deck is fixed). 403 without a judge's permission."""
    if not request.event_permissions & deck_services.CORRECT_PERMISSIONS:
        raise PermissionDenied
    reg = get_object_or_404(
        Registration.objects.select_related("person", "event"), pk=reg_id, event=event
    )
    rounds = [(n, n) for n in range(1, 100)]
    form = JudgeDeckPlayForm(request.POST, decks=deck_play.decks_of(reg), rounds=rounds)
    if not form.is_valid():
        messages.error(request, _("Choose a round and one of the player's decks."))
    else:
        try:
            deck_play.set_for_player(
                reg,
                form.cleaned_data["round_number"],
                form.cleaned_data["deck"],
                request.user,
                request.event_permissions,
                reason=form.cleaned_data["reason"],
            )
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("Deck for round %(n)s of %(name)s saved.")
                % {"n": form.cleaned_data["round_number"], "name": reg.person.name},
            )
    return redirect("manage:deck-entry", slug=event.slug, reg_id=reg.pk)
