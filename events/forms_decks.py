"""The multi-deck forms (VEKN TR §3.1.5, §3.1.5a; docs/decks.md "Multi-deck events"):
whether an event may change its multi-deck setting, a deck's name, the deck a player plays
in a round, and a judge setting it for them. Events kernel."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events import deck_selection
from events.limits import FREE_TEXT_MAX_LENGTH
from events.models import Deck, Round

LABEL_MAX_LENGTH = Deck._meta.get_field("label").max_length


def multideck_refusal(event, multideck: str, *, championship: str | None = None) -> str:
    """Why ``event`` may not change its multi-deck setting to ``multideck`` (a
    ``MultiDeck`` code), or ``""``. ``championship`` is the level the event will have
    (its own when ``None``). Refused: a national or continental championship or a Grand Prix (TR §3.1.5,
    ``deck_selection.may_be_multideck``); any change once a round is seated (TR §3.1.5a:
    the method is announced before the first round begins); switching it off once a player
    registered a named deck (those decks would be left without a use). Two queries."""
    championship = event.championship if championship is None else championship
    if multideck and not deck_selection.may_be_multideck(championship or ""):
        return _(
            "National and continental championships and Grand Prix events may not use "
            "the multi-deck system (TR §3.1.5)."
        )
    if not event.pk or multideck == event.multideck:
        return ""
    if Round.objects.filter(event=event).exists():
        return _(
            "A round has been seated: the multi-deck system and the final's method are "
            "announced before the first round begins (TR §3.1.5a) and can no longer change."
        )
    if not multideck and Deck.objects.filter(registration__event=event).exclude(label="").exists():
        return _(
            "Players have registered named decks for the multi-deck system: it can no "
            "longer be switched off."
        )
    return ""


class DeckLabelForm(forms.Form):
    """The name of one of a player's decks in a multi-deck event (``Deck.label``): 1 to
    60 characters, spaces at the ends removed."""

    label = forms.CharField(
        label=gettext_lazy("Deck name"),
        max_length=LABEL_MAX_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean_label(self):
        return (self.cleaned_data.get("label") or "").strip()


class DeckPlayForm(forms.Form):
    """The player's deck for the open round: one of their decks' labels."""

    deck = forms.ChoiceField(label=gettext_lazy("Deck"), choices=())

    def __init__(self, *args, decks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = [(d.label, d.label or _("(unnamed deck)")) for d in decks]


class JudgeDeckPlayForm(DeckPlayForm):
    """A judge sets the deck a player plays in a round (``round_number``), with a reason
    once that round's deck is fixed."""

    round_number = forms.TypedChoiceField(label=gettext_lazy("Round"), coerce=int, choices=())
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        required=False,
        max_length=FREE_TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, rounds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round_number"].choices = list(rounds)
