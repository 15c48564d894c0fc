"""Forms of the league staff and tribunal pages (issue 13): the boundary where what staff
post is checked for its type, range and choices before :mod:`leagues.sanctions`,
:mod:`leagues.broadcast`, :mod:`leagues.drafting`, :mod:`leagues.cups`,
:mod:`leagues.phases`, :mod:`leagues.bracket_decisions` or :mod:`leagues.services` is
called with the cleaned values.

Every form keeps the messages the pages gave before (the same gettext strings as the
services), so a bad value reads the same whichever layer catches it. The services still
check everything (they are also called by the API, imports and tests); a form only makes
sure they get values of the right type. Staff pages that answer with a message and a
redirect show :meth:`StaffForm.user_error`: the first problem, in the order of the form's
fields (the order in which the page checked them before). Free texts (reasons) keep the
service's own limit and message (:func:`events.limits.check_free_text`).
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.errors import UserError
from events.forms import FreeTextField, NamedLengths
from events.limits import check_free_text, date_window_message, in_date_window
from leagues.cups import parse_draw_order
from leagues.models import Competition, Match
from leagues.rules import match_rules
from leagues.rules.scores import MAX_GOALS
from leagues.sanctions import AGREEMENTS, MAX_ADJUSTMENT, PERIODS

AGREEMENT_CODES = {"later": "continue", "final": "final"}
"""The incident form's answers → :func:`leagues.rules.match_rules.incident_outcome`
agreements (:data:`leagues.sanctions.AGREEMENTS`)."""


# --------------------------------------------------------------------------- building blocks
class StaffForm(NamedLengths, forms.Form):
    """A staff form whose first problem is shown as a message (:meth:`user_error`); a text
    too long names its field and the limit (:class:`events.forms.NamedLengths`)."""

    def first_error(self) -> str:
        """The first message: the fields' in their order, then the form's own."""
        for name in self.fields:
            if name in self.errors:
                return self.errors[name][0]
        errors = self.non_field_errors()
        return errors[0] if errors else _("Check the form.")

    def all_errors(self) -> list[str]:
        """Every message, the fields' in their order, then the form's own."""
        found = [m for name in self.fields if name in self.errors for m in self.errors[name]]
        return found + list(self.non_field_errors())

    def user_error(self) -> UserError:
        """The first problem as the :class:`events.errors.UserError` the page shows."""
        field = next((name for name in self.fields if name in self.errors), None)
        return UserError(self.first_error(), field=field)


def confirm_field(message) -> forms.BooleanField:
    """The confirmation box: refused with ``message`` when not ticked."""
    return forms.BooleanField(required=True, error_messages={"required": message})


TICK = gettext_lazy("Tick the confirmation box.")


class ReasonField(forms.CharField):
    """A reason (free text, optional here: the service says when it is required, with its
    own message). Longer than :data:`events.limits.FREE_TEXT_MAX_LENGTH` is refused with
    the services' message; Windows line breaks count as one character."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        try:
            return check_free_text(value, _("Reason"))
        except UserError as exc:
            raise ValidationError(str(exc), code="max_length") from None


def text_field(**kwargs) -> forms.CharField:
    """An optional one-line text (a code, an id, a slug): stripped, ``""`` when absent."""
    kwargs.setdefault("required", False)
    return forms.CharField(**kwargs)


def raw_text_field(**kwargs) -> forms.CharField:
    """An optional multi-line text kept as typed (a pasted list): ``""`` when absent."""
    return text_field(strip=False, **kwargs)


class CodeListField(forms.Field):
    """Repeated inputs of one name (``<select multiple>``, checkboxes): the non-empty
    values, stripped, in the order sent. Which codes exist is the service's check."""

    widget = forms.SelectMultiple

    def to_python(self, value):
        if value in self.empty_values:
            return []
        values = value if isinstance(value, list | tuple) else [value]
        return [str(v).strip() for v in values if str(v).strip()]


def whole_number(value, message) -> int | None:
    """``value`` (text) as an integer, ``None`` when blank; ``ValidationError(message)``
    when it is not a whole number."""
    text = "" if value is None else str(value).strip()
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise ValidationError(message, code="invalid") from None


def check_goals(*values) -> None:
    """Goals between 0 and :data:`leagues.rules.scores.MAX_GOALS` (the services' message)."""
    for value in values:
        if value is not None and not 0 <= value <= MAX_GOALS:
            raise ValidationError(
                _("Goals must be between 0 and %(max)d.") % {"max": MAX_GOALS}, code="range"
            )


def local_datetime(text: str, zone: ZoneInfo) -> datetime | None:
    """A ``datetime-local`` value read in the season's time zone; a wall time repeated or
    skipped by a clock change gives the later instant, as generated deadlines do
    (``leagues.rules.fixtures``) **[choice]**. ``None`` if empty, malformed or outside
    the date window (:func:`events.limits.in_date_window`)."""
    try:
        naive = datetime.fromisoformat((text or "").strip())
    except ValueError:
        return None
    if naive.tzinfo is not None or not in_date_window(naive):
        return None
    readings = [naive.replace(tzinfo=zone, fold=fold) for fold in (0, 1)]
    return max(r.astimezone(ZoneInfo("UTC")) for r in readings).astimezone(zone)


# --------------------------------------------------------------------------- season pages
class DeadlinesForm(NamedLengths, forms.Form):
    """Move the deadlines of a matchday or of one fixture (``leagues.sanctions.
    move_deadlines``). Cleaned: ``competition`` (a :class:`Competition` of the season,
    its ``season`` set), ``round`` (int or ``None``), ``match`` (a :class:`Match` of that
    competition or ``None``), ``initial``/``final`` (aware, the season's zone),
    ``reason``."""

    competition = forms.ChoiceField(label=gettext_lazy("Competition"))
    round = forms.IntegerField(
        label=gettext_lazy("Matchday"),
        required=False,
        min_value=1,
        max_value=32767,
        help_text=gettext_lazy("Every fixture of the matchday; or give a fixture below."),
    )
    match = forms.CharField(
        label=gettext_lazy("Or one fixture (match id)"), required=False, max_length=40
    )
    initial = forms.CharField(
        label=gettext_lazy("Initial deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    final = forms.CharField(
        label=gettext_lazy("Final deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    reason = FreeTextField(
        label=gettext_lazy("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, competitions, zone, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone = zone
        self.season = season
        self.competitions = {c.slug: c for c in competitions}
        self.fields["competition"].choices = [(c.slug, c.name) for c in competitions]
        self.fields["initial"].help_text = self.fields["final"].help_text = _(
            "In the season's time zone (%(zone)s)."
        ) % {"zone": zone.key}

    def clean_competition(self):
        competition = self.competitions[self.cleaned_data["competition"]]
        if self.season is not None:
            competition.season = self.season
        return competition

    def clean(self):
        data = super().clean()
        if data.get("round") and data.get("match"):
            raise forms.ValidationError(_("Choose a matchday or a fixture, not both."))
        if not data.get("round") and not data.get("match"):
            raise forms.ValidationError(_("Choose a matchday or a fixture."))
        for name in ("initial", "final"):
            if name in data:
                value = local_datetime(data[name], self.zone)
                if value is None and _is_date_out_of_window(data[name]):
                    self.add_error(name, date_window_message())
                elif value is None:
                    self.add_error(name, _("Enter a date and a time."))
                else:
                    data[name] = value
        code = (data.get("match") or "").strip()
        data["match"] = None
        if code and isinstance(data.get("competition"), Competition):
            match = data["competition"].matches.filter(code=code).first()
            if match is None:
                raise forms.ValidationError(
                    _("No fixture %(code)s in this competition.") % {"code": code}
                )
            data["match"] = match
            data["round"] = None
        return data


class AdjustmentForm(NamedLengths, forms.Form):
    """A points-ledger entry (``leagues.sanctions.add_adjustment``): ``competition`` (a
    league or group stage of the season) and ``team`` (a team of the season) as objects,
    ``points`` within ±``MAX_ADJUSTMENT``, ``reason``."""

    competition = forms.ChoiceField(label=gettext_lazy("Competition"))
    team = forms.ChoiceField(label=gettext_lazy("Team"))
    points = forms.IntegerField(
        label=gettext_lazy("Points"),
        min_value=-MAX_ADJUSTMENT,
        max_value=MAX_ADJUSTMENT,
        help_text=gettext_lazy(
            "Negative for a deduction. A mistake is corrected by another entry."
        ),
    )
    reason = FreeTextField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, competitions, teams, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        self.competitions = {c.slug: c for c in competitions if c.kind != Competition.Kind.KNOCKOUT}
        self.teams = {t.code: t for t in teams}
        self.fields["competition"].choices = [(c.slug, c.name) for c in self.competitions.values()]
        self.fields["team"].choices = [(t.code, f"{t.name} ({t.handle})") for t in teams]

    def clean_competition(self):
        competition = self.competitions[self.cleaned_data["competition"]]
        if self.season is not None:
            competition.season = self.season
        return competition

    def clean_team(self):
        return self.teams[self.cleaned_data["team"]]


class AbandonForm(StaffForm):
    """A team abandons (``leagues.sanctions.abandon_team``): ``award`` (``void`` or
    ``award``, cleaned to a bool), the confirmation, ``standing`` (``suspended`` or
    ``expelled``) and the reason."""

    STANDINGS = ("suspended", "expelled")

    award = forms.ChoiceField(
        choices=[("void", "void"), ("award", "award")],
        error_messages={
            "required": gettext_lazy("Choose what happens to the remaining fixtures."),
            "invalid_choice": gettext_lazy("Choose what happens to the remaining fixtures."),
        },
    )
    confirm = confirm_field(TICK)
    standing = forms.ChoiceField(
        choices=[(s, s) for s in STANDINGS],
        error_messages={
            "required": gettext_lazy("Choose suspended or expelled."),
            "invalid_choice": gettext_lazy("Choose suspended or expelled."),
        },
    )
    reason = ReasonField()

    def clean_award(self):
        return self.cleaned_data["award"] == "award"

    def values(self) -> dict:
        """What the page shows again in its inputs (as typed)."""
        return {name: self[name].value() or "" for name in ("standing", "award", "reason")}


class ReviewForm(StaffForm):
    """Hold a compliance review (``leagues.drafting.hold_review``): the confirmation,
    ``kind`` (checked by the service), ``at`` (optional; an ISO date and time read in
    the season's zone ``zone``, or with its own offset) and ``early`` (the second
    confirmation of a season-end review before the season ends)."""

    confirm = confirm_field(gettext_lazy("Tick the confirmation: a review is held once."))
    kind = text_field()
    at = text_field()
    early = forms.BooleanField(required=False)

    def __init__(self, *args, zone: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone = ZoneInfo(zone)

    def clean_at(self):
        value = self.cleaned_data["at"]
        if not value:
            return None
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            raise ValidationError(_("Enter the date and time as YYYY-MM-DD HH:MM.")) from None
        if not in_date_window(when):
            raise ValidationError(date_window_message())
        return timezone.make_aware(when, self.zone) if timezone.is_naive(when) else when


class DraftForm(StaffForm):
    """The draft page: ``action`` ``draw`` (lots among the suspended teams, ``seed``
    optional) or the base order (``base``: one team id per line, as typed)."""

    action = text_field()
    seed = text_field(empty_value=None)
    base = raw_text_field()

    def draws(self) -> bool:
        return self.cleaned_data["action"] == "draw"

    def base_lines(self) -> list[str]:
        return self.cleaned_data["base"].splitlines()


# --------------------------------------------------------------------------- match sanctions
class WalkoverForm(StaffForm):
    """A walkover or (``refusal``) a refusal to play (``leagues.sanctions.
    record_walkover``): the confirmation, ``absent`` (``home``/``away``), the reason."""

    refusal = forms.BooleanField(required=False)
    confirm = confirm_field(TICK)
    absent = forms.ChoiceField(
        choices=[(Match.Absent.HOME, "home"), (Match.Absent.AWAY, "away")],
        error_messages={
            "required": gettext_lazy("Choose the team that did not play."),
            "invalid_choice": gettext_lazy("Choose the team that did not play."),
        },
    )
    reason = ReasonField()


class ConfirmedReasonForm(StaffForm):
    """The confirmation and a reason (annulment, replay of an unstreamed match)."""

    confirm = confirm_field(TICK)
    reason = ReasonField()


class TribunalForm(StaffForm):
    """Both absent (``leagues.sanctions.tribunal_decision``): the confirmation, the
    tribunal's score (both goals, 0–``MAX_GOALS``, or neither), a deduction for each team
    (a positive number typed is read as that many points off **[choice]**; at most
    ``MAX_ADJUSTMENT``) and the reason. Cleaned: ``home_goals``/``away_goals`` (int or
    ``None``), ``home_deduction``/``away_deduction`` (int ≤ 0), ``reason``."""

    confirm = confirm_field(TICK)
    home_goals = text_field()
    away_goals = text_field()
    home_deduction = text_field()
    away_deduction = text_field()
    reason = ReasonField()

    def _goals(self, name):
        return whole_number(self.cleaned_data[name], _("Goals must be whole numbers."))

    def clean_home_goals(self):
        return self._goals("home_goals")

    def clean_away_goals(self):
        return self._goals("away_goals")

    def _deduction(self, name):
        value = whole_number(self.cleaned_data[name], _("Deductions must be whole numbers."))
        value = -abs(value) if value else 0
        if value < -MAX_ADJUSTMENT:
            raise ValidationError(
                _("A deduction must be between −%(max)d and 0 points.") % {"max": MAX_ADJUSTMENT}
            )
        return value

    def clean_home_deduction(self):
        return self._deduction("home_deduction")

    def clean_away_deduction(self):
        return self._deduction("away_deduction")

    def clean(self):
        data = super().clean()
        goals = [data.get(n) for n in ("home_goals", "away_goals")]
        if "home_goals" in data and "away_goals" in data:
            if (goals[0] is None) != (goals[1] is None):
                raise ValidationError(_("Give both goals or neither."))
            check_goals(*goals)
        return data


class IncidentForm(StaffForm):
    """A §V incident (``leagues.sanctions.record_incident``): the confirmation, ``kind``
    (snow, disconnection, five_reds); for a disconnection ``period`` and, after the first
    half, ``agreement`` (``later``/``final``) and the score; for five sent off ``reduced``
    (``home``/``away``) and the score; the reason. Cleaned: ``kind``, ``reason`` and
    :meth:`details` (the service's keyword arguments for that kind)."""

    confirm = confirm_field(TICK)
    kind = forms.ChoiceField(
        choices=[(k, k) for k in match_rules.INCIDENTS],
        error_messages={
            "required": gettext_lazy("Choose the incident: snow, disconnection or five sent off."),
            "invalid_choice": gettext_lazy(
                "Choose the incident: snow, disconnection or five sent off."
            ),
        },
    )
    period = text_field()
    agreement = text_field()
    reduced = text_field()
    home_goals = text_field()
    away_goals = text_field()
    reason = ReasonField()

    def clean(self):
        data = super().clean()
        kind, details = data.get("kind"), {}
        if kind == "disconnection":
            period = data.get("period") or None
            if period not in PERIODS:
                raise ValidationError(_("Choose when the disconnection happened."))
            details["period"] = period
            if period != "first_half":
                typed = data.get("agreement") or None
                agreement = AGREEMENT_CODES.get(typed, typed)
                if agreement not in AGREEMENTS:
                    raise ValidationError(
                        _("Choose what the players agreed: finish later or keep the score.")
                    )
                details["agreement"] = agreement
                details["score"] = self._score(data)
        elif kind == "five_reds":
            reduced = data.get("reduced") or None
            if reduced not in (Match.Absent.HOME, Match.Absent.AWAY):
                raise ValidationError(_("Choose the team left with five sent off."))
            details["reduced"] = reduced
            details["score"] = self._score(data)
        data["details"] = details
        return data

    @staticmethod
    def _score(data):
        message = _("Goals must be whole numbers.")
        home = whole_number(data.get("home_goals"), message)
        away = whole_number(data.get("away_goals"), message)
        check_goals(home, away)
        return None if home is None and away is None else (home, away)

    def details(self) -> dict:
        return self.cleaned_data["details"]


class MustStreamForm(StaffForm):
    """Require (``1``) or stop requiring (``0``) a fixture's broadcast; the reason.
    Cleaned ``required``: a bool."""

    required = forms.ChoiceField(
        choices=[("0", "0"), ("1", "1")],
        error_messages={
            "required": gettext_lazy("Choose whether the broadcast is required."),
            "invalid_choice": gettext_lazy("Choose whether the broadcast is required."),
        },
    )
    reason = ReasonField()

    def clean_required(self):
        return self.cleaned_data["required"] == "1"


class StreamLinkForm(StaffForm):
    """The stream link of a match played without it (the service checks the address)."""

    stream_url = text_field()
    reason = ReasonField()


# --------------------------------------------------------------------------- final phases
class ConfirmStageForm(StaffForm):
    """Close a knockout's stage: the confirmation and ``stage`` (checked by the service)."""

    confirm = confirm_field(gettext_lazy("Tick the confirmation to close the stage."))
    stage = text_field()


class CloseGroupsForm(StaffForm):
    """Close a cup's group stage: the confirmation and ``order_across`` (team ids, as typed)."""

    confirm = confirm_field(
        gettext_lazy("Tick the confirmation: the knockouts are created from the tables.")
    )
    order_across = raw_text_field()


class CloseRegularPhaseForm(StaffForm):
    """Close Primera A's regular phase: the confirmation and ``final_four`` (on unless
    ``no``; cleaned to a bool)."""

    confirm = confirm_field(
        gettext_lazy("Tick the confirmation: the playoffs are created from the table.")
    )
    final_four = text_field()

    def clean_final_four(self):
        return self.cleaned_data["final_four"] != "no"


def legs_value(value) -> int:
    """The legs of a group's round robin: ``1`` or ``2`` (blank: 2); else refused."""
    if value in ("", None, "2"):
        return 2
    if value == "1":
        return 1
    raise ValidationError(_("Legs: 1 (one match) or 2 (home and away)."))


def start_value(value) -> date | None:
    """The first matchday's date, ``YYYY-MM-DD`` (blank: none), inside the date window
    (:data:`events.limits.MIN_YEAR` … :data:`events.limits.MAX_YEAR`)."""
    if not value:
        return None
    try:
        start = date.fromisoformat(value)
    except ValueError:
        raise ValidationError(_("The start date must be written YYYY-MM-DD.")) from None
    if not in_date_window(start):
        raise ValidationError(date_window_message())
    return start


def _is_date_out_of_window(text: str) -> bool:
    """Whether ``text`` is a well-formed date-time outside the date window."""
    try:
        return not in_date_window(datetime.fromisoformat((text or "").strip()))
    except ValueError:
        return False


class _DrawForm(StaffForm):
    """What the two cup draws share: a seeded or a live draw, address, name, legs, start."""

    method = text_field()
    seed = text_field(empty_value=None)
    order = raw_text_field()
    legs = text_field()
    start = text_field()
    slug = text_field(empty_value=None)
    name = text_field(empty_value=None)

    def clean_legs(self):
        return legs_value(self.cleaned_data["legs"])

    def clean_start(self):
        return start_value(self.cleaned_data["start"])

    def _live_draw(self, data):
        """``order`` as ``[(team, group)]`` (:func:`leagues.cups.parse_draw_order`)."""
        try:
            return parse_draw_order(data.get("order") or "")
        except UserError as exc:
            self.add_error("order", str(exc))
            return []


class ChampagneForm(_DrawForm):
    """The Champagne League draw (``leagues.cups.champagne_draw``): ``base``
    (``tables``/``pasted``), the pasted tables and newcomers (as typed), the draw."""

    field_order = ["order", "legs", "start"]

    base = text_field()
    primera_a = raw_text_field()
    primera_b = raw_text_field()
    newcomers = raw_text_field()

    def clean(self):
        data = super().clean()
        data["order"] = self._live_draw(data) if data.get("method") == "manual" else []
        return data

    def service_arguments(self) -> dict:
        return dict(self.cleaned_data)


class NucommunityForm(_DrawForm):
    """The Nucommunity Shit (``leagues.cups.nucommunity_create``): ``format``, the
    entrants (``teams``, as typed), ``groups`` (a whole number, blank: 8), the draw."""

    field_order = ["order", "groups", "legs", "start"]

    format = text_field()
    teams = raw_text_field()
    groups = text_field()

    def clean_groups(self):
        value = whole_number(
            self.cleaned_data["groups"], _("The number of groups must be a whole number.")
        )
        return 8 if value is None else value

    def clean(self):
        data = super().clean()
        if data.get("method") != "manual":
            data["order"] = []
        elif data.get("format") == "groups_knockout":
            data["order"] = self._live_draw(data)
        return data

    def service_arguments(self) -> dict:
        return dict(self.cleaned_data)


class CupBonusForm(StaffForm):
    """Nucommunity Shit bonus points (``leagues.cups.add_cup_bonus``): the reason, the
    points (a whole number, the service checks 0 and ±999) and ``team`` (an id of the
    season's teams)."""

    reason = ReasonField(
        required=True,
        error_messages={"required": gettext_lazy("Give the reason for the bonus points.")},
    )
    points = text_field()
    team = text_field()

    def __init__(self, *args, teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.codes = set(teams)

    def clean_points(self):
        value = whole_number(self.cleaned_data["points"], _("The points must be a whole number."))
        if value is None:
            raise ValidationError(_("The points must be a whole number."))
        if value == 0:
            raise ValidationError(
                _(
                    "The points must not be 0: give the points earned, or a negative number "
                    "to correct."
                )
            )
        if abs(value) > 999:
            raise ValidationError(_("The points must be between −999 and 999."))
        return value

    def clean_team(self):
        code = self.cleaned_data["team"]
        if code not in self.codes:
            raise ValidationError(_("Unknown team id: %(id)s.") % {"id": code})
        return code


class BracketForm(StaffForm):
    """A staff decision on a bracket (``leagues.bracket_decisions``): ``tie``, ``side``,
    ``team`` (ids, checked by the service), ``final_four`` (``yes``/``no``, for the Final
    Four switch only), ``paused`` (``yes``/``no``, for a tie's pause only) and the reason."""

    tie = text_field()
    side = text_field()
    team = text_field()
    final_four = text_field()
    paused = text_field()
    reason = ReasonField()

    def paused_on(self) -> bool:
        """The pause of a tie: ``yes`` (pause) or ``no`` (unpause); anything else refused."""
        value = self.cleaned_data["paused"]
        if value not in ("yes", "no"):
            raise UserError(_("Choose pause or unpause."), field="paused")
        return value == "yes"

    def final_four_on(self) -> bool:
        """The Final Four switch: ``yes`` or ``no``; anything else refused (``UserError``)."""
        value = self.cleaned_data["final_four"]
        if value not in ("yes", "no"):
            raise UserError(_("Choose on or off."), field="final_four")
        return value == "yes"


class TeamOrderForm(StaffForm):
    """An ordered list of team ids (``order`` or ``teams``, repeated inputs) and a reason:
    a tie decided by staff, the relegation list."""

    order = CodeListField(required=False)
    teams = CodeListField(required=False)
    reason = ReasonField()
