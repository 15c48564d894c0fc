"""Forms of the penalties pages (issue 13): validation at the boundary, plain values for
the services. Each page builds its form from the request (``request.POST``; the judge's
incident flow and the time extension also from ``request.GET``, its earlier steps being
links) and calls the service with ``cleaned_data``.

A form checks types, ranges and choices: the ids of this event's rows, the infraction
codes and levels of the event's ruleset, dates, numbers. What may be done (a reason
needed, results approved, the head judge's permission, a text's length) stays the
services' to say: they raise ``events.errors.UserError``. Where a form refuses the same
mistake as a service, it says it in the service's words, so a page reads the same
whichever layer caught it. Free text has no ``max_length`` here: the services check it
(``events.limits.check_free_text``) and name the field.

The field names are the hand-written templates' (the judge's tablet posts them with
htmx); the national authority's form is the last one (``penalties.views_authority``).
"""

import uuid
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from events.errors import UserError
from events.limits import FREE_TEXT_MAX_LENGTH
from events.models import Person, Registration, Table
from penalties import myl_services, myl_terms, services
from penalties.models import AggressionReport, Appeal, Penalty, Sanction, Timing

DB_ID = {"min_value": 1, "max_value": 2**63 - 1}
"""The range of a database id (a ``BigAutoField``)."""

UNKNOWN_ACTION = _("Unknown action.")
UNKNOWN_LEVEL = _("Unknown level.")
DATES = _("Enter dates as YYYY-MM-DD.")
DECISION = _("Choose: confirm or revert the penalty.")
DECISIONS = [
    (choice.value, choice.label) for choice in (Appeal.Decision.CONFIRMED, Appeal.Decision.REVERTED)
]
"""An appeal's decisions (MyL conduct rules §4.5, §5.10)."""


def error_messages(form: forms.Form) -> list[str]:
    """The messages of an invalid ``form``, each once: the form's own first, then its
    fields' in their order. Pages show them as they show a service's ``UserError``."""
    found = [str(m) for m in form.non_field_errors()]
    for name in form.fields:
        found += [str(m) for m in form.errors.get(name, ())]
    return list(dict.fromkeys(found))


def flash_errors(request, form: forms.Form) -> None:
    """Show an invalid ``form``'s messages on the next page, as a ``UserError``'s."""
    for message in error_messages(form):
        messages.error(request, message)


# --------------------------------------------------------------------------- fields
class FlagField(forms.Field):
    """``True`` when the request sends ``sent`` under this name (a ticked checkbox sends
    ``on``, a submit button its value), else ``False``; never invalid."""

    widget = forms.HiddenInput

    def __init__(self, sent: str = "on", **kwargs):
        self.sent = sent
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> bool:
        return value == self.sent


class AnswerField(forms.Field):
    """A yes/no question of an infraction (a pair of radio buttons): ``True`` for
    ``yes``, ``False`` for ``no``, ``None`` (unanswered) for anything else — the question
    stays open and the incident cannot be confirmed until it is answered **[choice]**."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> bool | None:
        return {"yes": True, "no": False}.get(value)


class TextField(forms.CharField):
    """Free text as typed: neither stripped nor cut here. The service checks its length
    (``events.limits.check_free_text``, naming the field) and strips it; the form refuses
    only what no text may hold (a NUL character)."""

    def __init__(self, **kwargs):
        super().__init__(required=False, strip=False, **kwargs)


class SubmissionIdField(forms.UUIDField):
    """The page's submission id (``client_id``: a double tap or a resent form saves
    once). Missing or malformed: a new id, as for a page opened afresh — never an error
    (the pages did so before the forms) **[choice]**."""

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> uuid.UUID:
        try:
            return super().to_python(value) or uuid.uuid4()
        except ValidationError:
            return uuid.uuid4()


class RowField(forms.ModelChoiceField):
    """A row of ``queryset`` (the form narrows it to the event) given by its database id.
    Error code ``invalid``: not an id (a whole number from 1 to 2**63 − 1);
    ``invalid_choice``: no such row there (another event's, or none)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            pk = int(str(value).strip())
        except ValueError:
            pk = 0
        if not DB_ID["min_value"] <= pk <= DB_ID["max_value"]:
            raise ValidationError(
                forms.IntegerField.default_error_messages["invalid"], code="invalid"
            )
        return super().to_python(pk)


def date_field() -> forms.DateField:
    """A day as a date input sends it (``YYYY-MM-DD``), optional."""
    return forms.DateField(
        required=False, input_formats=["%Y-%m-%d"], error_messages={"invalid": DATES}
    )


def choice_field(choices, message, **kwargs) -> forms.ChoiceField:
    """An optional choice; a value not among ``choices`` is refused with ``message`` (the
    service's words). Empty passes: the service says what is missing, as before."""
    return forms.ChoiceField(
        choices=choices, required=False, error_messages={"invalid_choice": message}, **kwargs
    )


def vekn_levels() -> list[tuple[str, str]]:
    """The VEKN levels (JG §1.1), for a head judge's deviation or change."""
    return services.level_choices()


def myl_levels() -> list[tuple[str, str]]:
    """The Mitos y Leyendas levels (conduct rules §4.1), lightest first, with their labels."""
    return [(str(level), myl_terms.level_label(level)) for level in myl_terms.Level]


class PersonFields(forms.Form):
    """A person typed by the judge (a non-competing person, a substitute): the name and
    the VEKN number, both optional here (``events.people.find_or_create_person`` says
    which one it needs); within the columns' sizes and digits only."""

    name = forms.CharField(required=False, max_length=Person._meta.get_field("name").max_length)
    vekn_number = forms.RegexField(
        regex=r"^[0-9]{1,20}$",
        required=False,
        error_messages={"invalid": _("A VEKN number has only digits.")},
    )


class ActionForm(forms.Form):
    """A page's form with several actions (``action``): only the chosen action's fields
    (``FIELDS``: action → field names) are read and checked; an unknown or missing
    action is the form's error, ``"Unknown action."`` as before."""

    FIELDS: dict[str, tuple[str, ...]] = {}

    action = forms.ChoiceField(
        choices=(),
        error_messages={"required": UNKNOWN_ACTION, "invalid_choice": UNKNOWN_ACTION},
    )

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        self.fields["action"].choices = [(action, action) for action in self.FIELDS]
        keep = {"action", *self.FIELDS.get(self.data.get("action"), ())}
        for name in [name for name in self.fields if name not in keep]:
            del self.fields[name]


# --------------------------------------------------------------------------- the incident
class IncidentForm(forms.Form):
    """The judge's incident flow, steps 2–4 (``penalties.views.incident_new``): who
    (``reg``: a registration of this event; ``table``: a table of its rounds), the
    infraction ``code`` of the event's ruleset (none yet: ``q`` searches its catalogue),
    the answers ``c_<condition>`` (:class:`AnswerField`), the page's ``client_id``, and
    what the judge adds: ``timing``, a head judge's ``level`` and ``deviation_reason``,
    ``description``, ``again`` (a new offence, not the same one twice) and ``confirm``.

    :meth:`not_found`: the person, table or infraction is not this event's, or an id is
    not a number — the page answers 404, as for an address that does not exist. The other
    errors (unknown level or timing, a bad date…) carry the services' words
    (:meth:`problem`). Subclasses give the ruleset's catalogue (``lookup``: code →
    infraction, ``UserError`` when unknown) and levels."""

    NOT_FOUND = ("reg", "table", "code")
    NOT_A_NUMBER: tuple[str, ...] = ()

    reg = RowField(Registration.objects.none())
    table = RowField(Table.objects.none(), required=False)
    code = forms.CharField(required=False)
    q = forms.CharField(required=False)
    client_id = SubmissionIdField()
    timing = choice_field(Timing.choices, _("Unknown timing."))
    level = choice_field((), UNKNOWN_LEVEL)  # the subclass's levels
    deviation_reason = TextField()
    description = TextField()
    again = FlagField()
    confirm = FlagField("1")

    @staticmethod
    def lookup(code: str):
        """The infraction ``code`` of the ruleset; ``UserError`` when unknown."""
        raise NotImplementedError

    def __init__(self, data, *, event):
        super().__init__(data)
        self.fields["reg"].queryset = Registration.objects.filter(event=event).select_related(
            "person"
        )
        self.fields["table"].queryset = Table.objects.filter(round__event=event).select_related(
            "round"
        )
        self.infraction, self.unknown = None, ""
        code = self.fields["code"].to_python(self.data.get("code"))
        if code:
            try:
                self.infraction = self.lookup(code)
            except UserError as exc:
                self.unknown = str(exc)
        for condition in self.infraction.conditions if self.infraction else ():
            self.fields[f"c_{condition.name}"] = AnswerField()

    def clean_code(self) -> str:
        if self.unknown:
            raise ValidationError(self.unknown, code="invalid_choice")
        return self.cleaned_data["code"]

    def not_found(self) -> bool:
        """Whether the page is one that does not exist (answered 404)."""
        return any(name in self.errors for name in self.NOT_FOUND) or any(
            self.has_error(name, "invalid") for name in self.NOT_A_NUMBER
        )

    def problem(self) -> str:
        """The first error to show (``""`` when none), once :meth:`not_found` is false."""
        return next(iter(error_messages(self)), "") if self.errors else ""

    def answers(self) -> dict[str, bool]:
        """The answered questions, ``{condition name: yes}``."""
        if self.infraction is None:
            return {}
        found = {}
        for condition in self.infraction.conditions:
            answer = self.cleaned_data.get(f"c_{condition.name}")
            if answer is not None:
                found[condition.name] = answer
        return found


LINKED = _("A linked infraction is the same person's, in this event.")


class VeknIncidentForm(IncidentForm):
    """A VEKN incident (JG §1.2): also ``linked_to`` (an earlier penalty of the same
    person in this event caused by the same error, JG §1.2.6) and ``ethics_committee``
    (the head judge refers it)."""

    NOT_A_NUMBER = ("linked_to",)

    linked_to = RowField(
        Penalty.objects.none(), required=False, error_messages={"invalid_choice": LINKED}
    )
    level = choice_field(vekn_levels, UNKNOWN_LEVEL)
    ethics_committee = FlagField()

    lookup = staticmethod(services.infraction)

    def __init__(self, data, *, event):
        super().__init__(data, event=event)
        self.fields["linked_to"].queryset = Penalty.objects.filter(event=event)

    def clean_linked_to(self):
        linked, reg = self.cleaned_data.get("linked_to"), self.cleaned_data.get("reg")
        if linked is not None and reg is not None and linked.person_id != reg.person_id:
            raise ValidationError(LINKED, code="invalid_choice")
        return linked


class MylIncidentForm(IncidentForm):
    """A Mitos y Leyendas incident (conduct rules §4–§5): also ``with_dq`` (a suspension
    or ban given instead also disqualifies; read when ``with_dq_shown``) and, for whoever
    may decide (``can_decide``: the head judge), a suspension's ``starts_on`` and
    ``ends_on``; a floor judge's are not read."""

    with_dq = FlagField()
    with_dq_shown = FlagField("1")
    starts_on = date_field()
    ends_on = date_field()
    level = choice_field(myl_levels, UNKNOWN_LEVEL)

    lookup = staticmethod(myl_services.infraction)

    def __init__(self, data, *, event, can_decide: bool):
        super().__init__(data, event=event)
        if not can_decide:
            del self.fields["starts_on"], self.fields["ends_on"]


# --------------------------------------------------------------------------- VEKN pages
class NonCompetingForm(PersonFields):
    """A spectator or staff member to penalise (JG §1, §1.2.2, §1.2.3, §1.2.5;
    docs/rules-vekn-penalties.md "Who decides")."""


class PenaltyActionForm(ActionForm):
    """The head judge on a VEKN penalty's page: ``confirm``, ``void`` (``reason``),
    ``change`` (``level``, ``reason``). ``state``: the penalty as the page showed it
    (``services.state_token``), so an action from a page left open cannot overwrite a
    newer change (``ConflictError``)."""

    CONFIRM, VOID, CHANGE = "confirm", "void", "change"
    FIELDS = {CONFIRM: ("state",), VOID: ("state", "reason"), CHANGE: ("state", "level", "reason")}

    state = forms.CharField(required=False, strip=False)
    level = choice_field(vekn_levels, UNKNOWN_LEVEL)
    reason = TextField()


class DqReportForm(forms.Form):
    """The written report of a disqualification (JG §1.1.4)."""

    what_happened = TextField()
    statements = TextField()
    witnesses = TextField()
    intentional = FlagField()


class MinutesField(forms.CharField):
    """Minutes the judge spent at a table (JG §1.2.4): a number from 0 to 600, a comma
    accepted for the decimal point, as a ``Decimal``; empty: ``None``."""

    default_error_messages = {
        "invalid": _("Enter the minutes the judge spent at the table (0 to 600).")
    }

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> Decimal | None:
        text = super().to_python(value).replace(",", ".").strip()
        if not text:
            return None
        try:
            minutes = Decimal(text)
        except ArithmeticError:  # decimal.InvalidOperation: not a number
            minutes = None
        if (
            minutes is None
            or not minutes.is_finite()
            or abs(minutes.adjusted()) > 3
            or not 0 <= minutes <= 600
        ):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return minutes


class TimeExtensionForm(forms.Form):
    """A time extension for a table (JG §1.2.4): the minutes spent (the suggestion
    follows), the head judge's leave for more than 10 minutes, a reason, and ``confirm``
    to grant it."""

    minutes_spent = MinutesField()
    authorised = FlagField()
    reason = TextField()
    client_id = SubmissionIdField()
    confirm = FlagField("1")

    def minutes_text(self) -> str:
        """The minutes as the page shows them back: the number read, else what was typed."""
        minutes = self.cleaned_data.get("minutes_spent")
        if minutes is not None:
            return format(minutes, "f")
        return str(self["minutes_spent"].value() or "").strip()


class RoundClockForm(forms.Form):
    """Pause (``action=pause``) or resume (``action=resume``) a round's clock: the button
    says which, so a second click of the same button asks for the same thing again (and is
    refused), never the opposite."""

    action = forms.ChoiceField(choices=[("pause", "pause"), ("resume", "resume")])


class ApproveResultsForm(forms.Form):
    """Approve (``approved=1``) or reopen the event's results (JG §1.2.5); ``confirm``
    (``"1"``): the judge has seen the consequences (the view's confirmation step)."""

    approved = FlagField("1")
    confirm = FlagField("1")


NUMBERS = _("Incomplete form: check the numbers.")


def number_field(max_value: int = 32767, min_value: int | None = 0) -> forms.IntegerField:
    """A whole number the page needs; missing, not a number or out of range: the cases
    page's ``"Incomplete form: check the numbers."``."""
    return forms.IntegerField(
        min_value=min_value,
        max_value=max_value,
        error_messages={
            code: NUMBERS for code in ("required", "invalid", "min_value", "max_value")
        },
    )


class CaseForm(ActionForm, PersonFields):
    """The organisational cases of JG §5 (``penalties.views.organisational_cases``):
    ``venue`` interference (round, minutes played, whether a table ended on time, what
    happened), ``force_majeure`` (what happened) and its ``lift`` (why), a ``substitute``
    (round, table, seat, the substitute's name and VEKN number). Numbers are required:
    rounds, tables and seats from 0 to 32,767 (one the event does not have is answered
    404 by the page, as before), minutes up to a week (a negative count is the rule's to
    refuse, ``penalties.organisational``)."""

    VENUE, FORCE_MAJEURE, LIFT, SUBSTITUTE = "venue", "force_majeure", "lift", "substitute"
    FIELDS = {
        VENUE: ("round", "minutes_played", "table_on_time", "report"),
        FORCE_MAJEURE: ("report",),
        LIFT: ("reason",),
        SUBSTITUTE: ("round", "table", "position", "name", "vekn_number"),
    }

    round = number_field()
    minutes_played = number_field(max_value=7 * 24 * 60, min_value=None)
    table_on_time = FlagField()
    table = number_field()
    position = number_field()
    report = TextField()
    reason = TextField()


# --------------------------------------------------------------------------- MyL pages
class MylPenaltyActionForm(ActionForm):
    """The head judge on a Mitos y Leyendas penalty's page (conduct rules §4–§5):
    ``confirm`` (a suspension with its first and last day), ``change`` (level, reason,
    whether a suspension or ban also disqualifies, a suspension's days), ``void``
    (reason), ``appeal`` (the in-event appeal, §4.5: the player's statement, the
    decision and its reasons); ``state`` as :class:`PenaltyActionForm`."""

    CONFIRM, CHANGE, VOID, APPEAL = "confirm", "change", "void", "appeal"
    FIELDS = {
        CONFIRM: ("state", "starts_on", "ends_on"),
        CHANGE: ("state", "level", "reason", "with_dq", "starts_on", "ends_on"),
        VOID: ("state", "reason"),
        APPEAL: ("statement", "decision", "reason"),
    }

    state = forms.CharField(required=False, strip=False)
    starts_on = date_field()
    ends_on = date_field()
    level = choice_field(myl_levels, UNKNOWN_LEVEL)
    reason = TextField()
    with_dq = FlagField()
    statement = TextField()
    decision = choice_field(DECISIONS, DECISION)


class AggressionReportForm(forms.Form):
    """The §5.8 incident report of an aggression (3.1.1, 3.1.2)."""

    kind = choice_field(
        AggressionReport.Kind.choices, _("Say whether the aggression was physical, verbal or both.")
    )
    description = TextField()
    witnesses = TextField()
    authorities_called = FlagField()
    authorities_detail = TextField()


class AppealDecisionForm(forms.Form):
    """The Organised Play manager's decision on a written appeal of this event (§5.10);
    ``appeal``: one of the event's (else the page answers 404)."""

    appeal = RowField(Appeal.objects.none())
    decision = choice_field(DECISIONS, DECISION)
    reason = TextField()

    def __init__(self, data, *, event):
        super().__init__(data)
        self.fields["appeal"].queryset = Appeal.objects.filter(penalty__event=event)


class WrittenAppealForm(forms.Form):
    """The player's written appeal (§5.10) from their sanction history: ``penalty``, one
    of their own Mitos y Leyendas penalties (else the page answers 404), and the
    ``statement``."""

    penalty = RowField(Penalty.objects.none())
    statement = TextField()

    def __init__(self, data, *, person):
        super().__init__(data)
        self.fields["penalty"].queryset = Penalty.objects.select_related("event").filter(
            person=person, ruleset=myl_services.RULESET.code
        )


# --------------------------------------------------------------------------- the authority
class AuthorityActionForm(forms.Form):
    """One action of the authority page: ``confirm`` a sanction, ``lift`` one (reason
    required), ``escalate`` a VEKN disqualification (kind, reason, a suspension's days)."""

    CONFIRM, LIFT, ESCALATE = "confirm", "lift", "escalate"

    action = forms.ChoiceField(
        choices=[(CONFIRM, _("Confirm")), (LIFT, _("Lift")), (ESCALATE, _("Escalate"))]
    )
    sanction = forms.IntegerField(required=False, **DB_ID)
    penalty = forms.IntegerField(required=False, **DB_ID)
    kind = forms.ChoiceField(label=_("Sanction"), choices=Sanction.Kind.choices, required=False)
    starts_on = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Until"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    expected = forms.CharField(
        required=False,
        max_length=40,
        help_text=_("The sanction as the page showed it (kind and days), for confirm."),
    )
    reason = forms.CharField(
        label=_("Reason"), required=False, max_length=FREE_TEXT_MAX_LENGTH, widget=forms.Textarea
    )

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action in (self.CONFIRM, self.LIFT) and not data.get("sanction"):
            raise forms.ValidationError(_("Choose a suspension or ban."))
        if (
            action in (self.LIFT, self.ESCALATE)
            and "reason" not in self.errors
            and not (data.get("reason") or "").strip()
        ):
            self.add_error("reason", _("Give the reason."))
        if action == self.ESCALATE:
            if not data.get("penalty"):
                raise forms.ValidationError(_("Choose a disqualification."))
            if not data.get("kind"):
                self.add_error("kind", _("Choose a suspension or a permanent ban."))
            if data.get("kind") == Sanction.Kind.SUSPENSION and not (
                data.get("starts_on") and data.get("ends_on")
            ):
                self.add_error("ends_on", _("Give the suspension's first and last day."))
        return data
