"""The forms of the judges' floor (docs/decks.md "Deck checks", docs/players.md
"Calling a judge"): a player's call for a judge, a judge taking or closing it, the head
judge choosing players for a deck check and a judge's verdict on it."""

from django import forms
from django.utils.translation import gettext_lazy as _

from events import rulesets
from events.call_models import NOTE_MAX_LENGTH as JUDGE_CALL_NOTE_MAX
from events.call_models import CallReason
from events.limits import FREE_TEXT_MAX_LENGTH
from events.models import Event


class JudgeCallForm(forms.Form):
    """A player calls a judge to their table (``events.judge_calls.call_judge``): one of
    the ruleset's reasons and an optional short note."""

    reason = forms.ChoiceField(label=_("Reason"))
    note = forms.CharField(label=_("Note"), required=False, max_length=JUDGE_CALL_NOTE_MAX)

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].choices = [
            (code, CallReason(code).label) for code in rulesets.of(event).judge_call_reasons
        ]


class JudgeCallActionForm(forms.Form):
    """A judge takes or closes a call of the queue: the call's id."""

    call = forms.IntegerField(min_value=1)


class DeckCheckChooseForm(forms.Form):
    """The head judge chooses players for a deck check (docs/decks.md, "Deck
    checks"): ``count`` players drawn at random, or one ``registration`` (a pk) by hand.
    Exactly one of them."""

    count = forms.IntegerField(
        label=_("Players to draw"), required=False, min_value=1, max_value=20
    )
    registration = forms.IntegerField(label=_("Player"), required=False, min_value=1)
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**63 - 1)
    """The draw's seed, rendered with the page: the same draw sent twice is drawn once
    (``events.deck_check_services.choose_random``)."""

    def clean(self):
        data = super().clean()
        if (data.get("count") is None) == (data.get("registration") is None):
            raise forms.ValidationError(_("Draw a number of players or choose one player."))
        return data


class DeckCheckOutcomeForm(forms.Form):
    """A judge's verdict on a deck check: the deck ``match``es its list or not, with an
    optional ``note``."""

    outcome = forms.ChoiceField(
        choices=[("match", _("Matches")), ("mismatch", _("Does not match"))]
    )
    note = forms.CharField(label=_("Note"), required=False, max_length=FREE_TEXT_MAX_LENGTH)
    finding = forms.CharField(required=False, max_length=20)
    """What a failed check found, one of the ruleset's ``deck_check_findings`` codes
    (``events.deck_check_services.incident_prefill`` ignores any other)."""


class ResultReportForm(forms.Form):
    """A player reports their table's result (``events.self_report.report_result``):
    one text value per seat, ``value_1`` … ``value_5`` (VEKN VP, MyL games won), and
    where to go back to."""

    SEATS = 5

    back = forms.ChoiceField(
        choices=[("my-page", "my-page"), ("my-match", "my-match")], required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, self.SEATS + 1):
            self.fields[f"value_{n}"] = forms.CharField(required=False, max_length=8)

    def values(self, seats: int) -> list[str]:
        """The first ``seats`` values, in seat order."""
        return [self.cleaned_data.get(f"value_{n}", "") for n in range(1, seats + 1)]


class ReportActionForm(forms.Form):
    """A player confirms or disputes a reported result: its id, a short ``note`` (a
    dispute's reason for the judge) and where to go back to."""

    report = forms.IntegerField(min_value=1)
    note = forms.CharField(required=False, max_length=JUDGE_CALL_NOTE_MAX)
    back = forms.ChoiceField(
        choices=[("my-page", "my-page"), ("my-match", "my-match")], required=False
    )
