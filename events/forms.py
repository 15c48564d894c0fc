"""Forms: validation at the boundary. Each form cleans its input into plain values that
the services take; rule checks stay in the rules modules."""

import json
import zoneinfo

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from events import notify_rules, player_lists, rulesets, staffing
from events.errors import UserError
from events.forms_decks import multideck_refusal
from events.limits import (
    FREE_TEXT_MAX_LENGTH,
    date_window_message,
    in_date_window,
    validate_date_window,
)
from events.models import DECK_TEXT_MAX_LENGTH, Event, Organisation, Registration
from events.permissions import Role
from events.presets import FIRST_PRESET, PRESETS

MYL_ROUND_MINUTES = (40, 60)
"""Mitos y Leyendas rounds last 40 to 60 minutes (conduct rules §5.5)."""

MYL_ONLY_FIELDS = ("best_of", "tie_breaker_order", "top_cut", "report_countdown_minutes")
VEKN_ONLY_FIELDS = ("final_mode", "final_minutes", "multideck")
RATING_FIELDS = ("game_format", "championship", "online", "sets")
"""The fields the VEKN rating reads (TR Appendix A, §6.1.1), asked only of a ruleset that
``rates_players``; its events show ``game_format`` instead of ``format``."""
SETS_MAX = 50
"""At most 50 card sets in a set restriction, each at most 100 characters."""


def parse_sets(text: str) -> list[str]:
    """A set restriction typed as a comma-separated list ("Jyhad, Sabbat") → its sets,
    trimmed, empty items and repeats dropped, in order. ``UserError`` beyond
    :data:`SETS_MAX` sets or for a set name longer than 100 characters."""
    sets: list[str] = []
    for item in text.replace("\n", ",").split(","):
        name = " ".join(item.split())
        if not name or name in sets:
            continue
        if len(name) > 100:
            raise UserError(_("A card set's name has at most 100 characters."))
        sets.append(name)
    if len(sets) > SETS_MAX:
        raise UserError(_("At most %(n)s card sets.") % {"n": SETS_MAX})
    return sets


def preset_initial(code: str) -> dict:
    """Initial values of the event creation form for preset ``code``: the preset's own
    values for a Mitos y Leyendas preset (the VEKN form keeps the model's defaults)."""
    preset = PRESETS.get(code)
    if preset is None or not rulesets.get(preset.ruleset).pairs_matches:
        return {"preset": code if preset else "vekn-2026"}
    return {**preset.event_fields(), "preset": code}


class NamedLengths:
    """A form mixin: a text over its field's ``max_length`` is refused with the field's
    label and the limit (``"Reason: at most 2000 characters (this one has 2001)."``, the
    message of :func:`events.limits.check_free_text`), not Django's message without the
    field's name. Set per form instance, in the active language."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            limit = getattr(field, "max_length", None)
            if not limit:
                continue
            label = str(field.label or name).replace("%", "%%")
            field.error_messages["max_length"] = _(
                "%(field)s: at most %(limit)s characters (this one has %(length)s)."
            ) % {
                "field": label[:1].upper() + label[1:],
                "limit": limit,
                "length": "%(show_value)d",
            }


class FreeTextField(forms.CharField):
    """A free-text form field (``events.limits``): at most ``FREE_TEXT_MAX_LENGTH``
    characters, a ``<textarea>`` with ``maxlength``; Windows line breaks count as one
    character, as the browser's ``maxlength`` counts them."""

    widget = forms.Textarea

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", FREE_TEXT_MAX_LENGTH)
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        return value.replace("\r\n", "\n") if isinstance(value, str) else value


class EventCreateForm(forms.ModelForm):
    """The event form. Its fields depend on the ruleset of the chosen preset (or of the
    event): VEKN events have the final (TR §3.1), Mitos y Leyendas events the games per
    match and the top cut (docs/rules-myl.md); each ruleset checks its own round time."""

    preset = forms.ChoiceField(label=_("Preset"), choices=())
    sets = forms.CharField(
        label=_("Set restriction"),
        required=False,
        max_length=5000,
        help_text=_(
            "The card sets decks are restricted to, separated by commas; empty for none. "
            "A restricted event is not rated (TR §6.1.1)."
        ),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "slug",
            "date",
            "preset",
            "format",
            "game_format",
            "championship",
            "online",
            "sets",
            "preliminary_rounds",
            "round_minutes",
            "decklists_required",
            "final_mode",
            "best_of",
            "tie_breaker_order",
            "top_cut",
            "report_countdown_minutes",
            "time_zone",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        help_texts = {
            "slug": _(
                "The event's web address, e.g. santiago-open-2026 (letters, digits, hyphens)."
            ),
            "final_mode": _("Events of fewer than 8 players may play without a final (TR §3.1.6)."),
            "round_minutes": _("At least 120 minutes (TR §3.1.1)."),
            "game_format": _("Standard and V5 count for the constructed ranking (TR Appendix A)."),
            "championship": _(
                "A national or continental championship raises the finalists' rating "
                "points (TR Appendix A.2.1); these and a Grand Prix may not use the "
                "multi-deck system (TR §3.1.5)."
            ),
            "online": _("Online events have their own rankings (TR Appendix A)."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset = self._ruleset()
        # Only the presets of the form's ruleset: a MyL form offers no VEKN format.
        self.fields["preset"].choices = [
            (p.code, p.label) for p in PRESETS.values() if p.ruleset == self.ruleset
        ]
        self.fields["preliminary_rounds"].min_value = 2
        self.fields["preliminary_rounds"].widget.attrs["min"] = 2
        self.fields["round_minutes"].widget.attrs["min"] = 120
        self.fields["round_minutes"].max_value = 720
        self.fields["preliminary_rounds"].max_value = 20
        for name in ("round_minutes", "final_minutes", "preliminary_rounds"):
            if name in self.fields:
                field = self.fields[name]
                field.validators.append(
                    MaxValueValidator(720 if name != "preliminary_rounds" else 20)
                )
                field.widget.attrs["max"] = 720 if name != "preliminary_rounds" else 20
        drop = VEKN_ONLY_FIELDS if rulesets.get(self.ruleset).pairs_matches else MYL_ONLY_FIELDS
        for name in drop:
            self.fields.pop(name, None)
        rating_drop = ("format",) if rulesets.get(self.ruleset).rates_players else RATING_FIELDS
        for name in rating_drop:
            self.fields.pop(name, None)
        if "game_format" in self.fields:
            # Optional in a post: the event's current game format (or standard) stays.
            self.fields["game_format"].required = False
        if "sets" in self.fields:
            # Shown (and compared, for ``changed_data``) as the typed list.
            self.initial["sets"] = ", ".join(self.instance.sets or [])
        if "tie_breaker_order" in self.fields:
            # Optional in a post: the event's current order (or the default) stays.
            self.fields["tie_breaker_order"].required = False
        if "report_countdown_minutes" in self.fields:
            # Optional in a post: the event's current countdown (or the default) stays.
            field = self.fields["report_countdown_minutes"]
            field.required = False
            field.min_value, field.max_value = 1, 60
            field.validators += [MinValueValidator(1), MaxValueValidator(60)]
            field.widget.attrs.update({"min": 1, "max": 60})
        if rulesets.get(self.ruleset).pairs_matches:
            low, high = MYL_ROUND_MINUTES
            self.fields["round_minutes"].widget.attrs.update({"min": low, "max": high})
            self.fields["round_minutes"].help_text = _(
                "%(low)s to %(high)s minutes (Mitos y Leyendas conduct rules §5.5)."
            ) % {"low": low, "high": high}
            self.fields["preliminary_rounds"].label = _("Swiss rounds")

    def ruleset_tabs(self) -> list[tuple[str, str, bool]]:
        """The picker of the kind of event: for each ruleset of the registry
        (``events.rulesets.REGISTRY``), its first preset's code, the ruleset's name and
        whether it is this form's ruleset."""
        tabs = []
        for spec in rulesets.REGISTRY.values():
            preset = FIRST_PRESET.get(spec.code)
            if preset is not None:
                tabs.append((preset.code, spec.label, spec.code == self.ruleset))
        return tabs

    def _ruleset(self) -> str:
        """The ruleset this form is for: the event's, else the chosen preset's."""
        if self.instance.pk:
            return self.instance.ruleset
        code = (self.data.get("preset") if self.is_bound else None) or self.initial.get(
            "preset", "vekn-2026"
        )
        preset = PRESETS.get(code)
        return preset.ruleset if preset else "vekn"

    def clean_date(self):
        """The event's day, in the one date window (``events.limits.in_date_window``):
        a year 1 or 9999 is a typo, and breaks calendars and the VEKN report."""
        value = self.cleaned_data.get("date")
        if value is not None and not in_date_window(value):
            raise forms.ValidationError(date_window_message())
        return value

    def clean_time_zone(self):

        value = self.cleaned_data["time_zone"]
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError(
                _("Unknown time zone; use a name like America/Santiago or Europe/Madrid.")
            ) from None
        return value

    def clean_game_format(self):
        return self.cleaned_data.get("game_format") or self.instance.game_format

    def clean_sets(self):
        try:
            return parse_sets(self.cleaned_data.get("sets") or "")
        except UserError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_preliminary_rounds(self):
        value = self.cleaned_data["preliminary_rounds"]
        if value < 2:
            if rulesets.get(self.ruleset).pairs_matches:
                # The MyL conduct rules set no number of Swiss rounds: 2 to 20 is ours
                # (docs/rules-myl.md "Running an event").
                raise forms.ValidationError(_("At least 2 Swiss rounds."))
            raise forms.ValidationError(_("At least 2 preliminary rounds (TR §3.1)."))
        return value

    def clean_round_minutes(self):
        value = self.cleaned_data["round_minutes"]
        if rulesets.get(self.ruleset).pairs_matches:
            low, high = MYL_ROUND_MINUTES
            if not low <= value <= high:
                raise forms.ValidationError(
                    _(
                        "Mitos y Leyendas rounds last %(low)s to %(high)s minutes "
                        "(conduct rules §5.5)."
                    )
                    % {"low": low, "high": high}
                )
            return value
        if value < 120:
            raise forms.ValidationError(_("Rounds last at least two hours (TR §3.1.1)."))
        return value

    def clean_best_of(self):
        value = self.cleaned_data["best_of"]
        if self.instance.pk and value != self.instance.best_of and self.instance.rounds.exists():
            raise forms.ValidationError(
                _("Rounds are paired: the games per match can no longer change.")
            )
        return value

    def clean_report_countdown_minutes(self):
        value = self.cleaned_data.get("report_countdown_minutes")
        return self.instance.report_countdown_minutes if value is None else value

    def clean_tie_breaker_order(self):
        value = self.cleaned_data.get("tie_breaker_order")
        if not value:
            return (
                self.instance.tie_breaker_order
                or Event._meta.get_field("tie_breaker_order").default
            )
        return value

    def clean_top_cut(self):
        value = self.cleaned_data["top_cut"]
        if (
            self.instance.pk
            and value != self.instance.top_cut
            and self.instance.rounds.filter(is_top_cut=True).exists()
        ):
            raise forms.ValidationError(
                _("The top cut has started: its size can no longer change.")
            )
        return value


class EventSettingsForm(EventCreateForm):
    class Meta(EventCreateForm.Meta):
        fields = [
            "name",
            "date",
            "format",
            "game_format",
            "championship",
            "online",
            "sets",
            "preliminary_rounds",
            "round_minutes",
            "final_minutes",
            "decklists_required",
            "decklist_deadline",
            "decklists_lock_at_start",
            "deck_publication",
            "decks_attributed",
            "multideck",
            "final_mode",
            "best_of",
            "tie_breaker_order",
            "top_cut",
            "report_countdown_minutes",
            "time_zone",
        ]
        widgets = {
            **EventCreateForm.Meta.widgets,
            "decklist_deadline": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.pop("preset", None)
        self.fields["decklist_deadline"].validators.append(validate_date_window)
        # A post that leaves the publication out (an older page, a script) keeps the
        # event's choice rather than failing on a field it never showed.
        self.fields["deck_publication"].required = False

    def clean_deck_publication(self):
        return self.cleaned_data.get("deck_publication") or self.instance.deck_publication

    def clean(self):
        data = super().clean()
        if "multideck" in self.fields and (
            reason := multideck_refusal(
                self.instance, data.get("multideck") or "", championship=data.get("championship")
            )
        ):  # VEKN TR §3.1.5, §3.1.5a (docs/decks.md "Multi-deck events")
            self.add_error("multideck", reason)
        return data


def _name_part(label, help_text=""):
    return forms.CharField(
        label=label,
        help_text=help_text,
        max_length=player_lists.MAX_NAME_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class _NamePartsMixin:
    """The name in two optional parts (``first_name``, ``last_name``; docs/organisers.md
    "Adding a player"): ``clean_names`` leaves in ``cleaned_data`` the stored names of
    ``events.player_lists.person_names`` (the name is the parts together when they are
    given), or an error on ``name`` when the name typed disagrees with them."""

    def clean_names(self, data):
        try:
            names = player_lists.person_names(
                data.get("name") or "", data.get("first_name") or "", data.get("last_name") or ""
            )
        except player_lists.NamesDisagree as exc:
            self.add_error(
                "name",
                _(
                    "The name is the first and last names together (“%(name)s”): "
                    "correct one of them, or leave the name empty."
                )
                % {"name": exc.expected},
            )
            return data
        if len(names.name) > player_lists.MAX_NAME_LENGTH:
            self.add_error("name", _("The name is too long."))
            return data
        data.update(name=names.name, first_name=names.first, last_name=names.last)
        return data


class AddPlayerForm(_NamePartsMixin, forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "off"}),
    )
    first_name = _name_part(_("First name(s)"))
    last_name = _name_part(_("Last name(s)"))
    vekn_number = forms.RegexField(
        label=_("VEKN number"),
        regex=r"^[0-9]{1,20}$",
        strip=True,
        required=False,
        error_messages={"invalid": _("A VEKN number has only digits.")},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    check_in = forms.BooleanField(label=_("Checked in"), required=False, initial=True)
    # The answer to "this name has played here: is it this person?" (docs/organisers.md
    # "Adding a player"): the id of the person offered, or a new record anyway.
    person = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    new_person = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, ruleset: str = rulesets.VEKN.code, **kwargs):
        super().__init__(*args, **kwargs)
        _number_label(self, ruleset)

    def clean(self):
        data = self.clean_names(super().clean())
        if not data.get("name") and not data.get("vekn_number"):
            raise forms.ValidationError(_("Give the player's name or VEKN number."))
        # Whether a number alone is enough is the service's to say, in the same words
        # whether or not the number is known (events.people.find_or_create_person).
        return data


def _number_label(form, ruleset: str) -> None:
    """The same field holds each game's player number: the registry's words for it
    (``RulesetSpec.player_number_label``: "VEKN number", "Player number")."""
    spec = rulesets.get(ruleset)
    form.fields["vekn_number"].label = spec.player_number_label
    if spec.pairs_matches:
        form.fields["vekn_number"].error_messages["invalid"] = _("A player number has only digits.")


class EditRegistrationForm(_NamePartsMixin, forms.Form):
    """A registration's person corrected: the name (or its first and last names, which
    make it), and the number (empty: none)."""

    name = forms.CharField(label=_("Name"), max_length=player_lists.MAX_NAME_LENGTH, required=False)
    first_name = _name_part(_("First name(s)"))
    last_name = _name_part(
        _("Last name(s)"),
        _(
            "Optional: the name in two parts, for reports that list them apart. "
            "The name is then both together."
        ),
    )
    vekn_number = forms.RegexField(
        label=_("VEKN number"),
        regex=r"^[0-9]{1,20}$",
        strip=True,
        required=False,
        error_messages={"invalid": _("A VEKN number has only digits.")},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args, ruleset: str = rulesets.VEKN.code, **kwargs):
        super().__init__(*args, **kwargs)
        _number_label(self, ruleset)

    def clean(self):
        data = self.clean_names(super().clean())
        if not data.get("name") and "name" not in self.errors:
            self.add_error("name", _("Give the player's name."))
        return data


class MergeForm(forms.Form):
    """The other record of the same person, among ``candidates`` (people)."""

    other = forms.TypedChoiceField(label=_("The other record"), coerce=int)

    def __init__(self, *args, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].choices = [("", "—")] + [
            (p.pk, f"{p.name} · {p.vekn_number}" if p.vekn_number else p.name) for p in candidates
        ]


class PlayerListForm(forms.Form):
    """A list of players pasted (``text``) or uploaded (``upload``, a CSV or text file in
    UTF-8, else Windows-1252), read by ``events.player_lists.parse``; ``cleaned_data``
    gives the text in ``text`` either way."""

    MAX_UPLOAD_BYTES = player_lists.MAX_TEXT_LENGTH * 2

    text = forms.CharField(
        label=_("Paste the list"),
        required=False,
        strip=False,
        max_length=player_lists.MAX_TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 10, "autocomplete": "off", "spellcheck": "false"}),
    )
    upload = forms.FileField(label=_("or upload a file (CSV or text)"), required=False)
    check_in = forms.BooleanField(label=_("Check them in"), required=False, initial=True)

    def clean(self):
        data = super().clean()
        upload = data.get("upload")
        if upload:
            if upload.size > self.MAX_UPLOAD_BYTES:
                raise forms.ValidationError(
                    _("The file is too big: at most %(n)s KB.")
                    % {"n": self.MAX_UPLOAD_BYTES // 1024}
                )
            raw = upload.read(self.MAX_UPLOAD_BYTES + 1)
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                data["text"] = raw.decode("cp1252", errors="replace")
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste a list, or choose a file."))
        return data


class PlayerListConfirmForm(forms.Form):
    """The confirm step of a list: the same text and the preview's fingerprint."""

    text = forms.CharField(
        strip=False, max_length=player_lists.MAX_TEXT_LENGTH, widget=forms.HiddenInput
    )
    digest = forms.RegexField(regex=r"^[0-9a-f]{32}$", widget=forms.HiddenInput)
    check_in = forms.BooleanField(required=False, widget=forms.HiddenInput)


class ConfirmForm(forms.Form):
    """A "yes, do it" step (check in all, undo it, remove a registration, seat a round
    again, start the top cut: ``events.confirmations``); valid only with ``confirm``."""

    confirm = forms.BooleanField()


class PersonSearchForm(forms.Form):
    """The judges' search for a participant (``penalties.views.pick_person``): a name or a
    number, at most as long as a name (issue 12: a 60,000-character query made SQLite's
    LIKE fail with a server error)."""

    MAX_LENGTH = 200  # Person.name's max_length

    q = forms.CharField(label=_("Search"), max_length=MAX_LENGTH, required=False, strip=True)


class AccountForm(forms.Form):
    """An account named by its username or its e-mail address
    (``events.staffing.find_account``, which limits how many one ``actor`` looks up):
    ``cleaned_data["username"]`` is the user."""

    username = forms.CharField(
        label=_("Username or e-mail"),
        max_length=254,  # an e-mail address (a username has at most 150 characters)
        help_text=_("The account must exist: ask them to sign up first."),
    )

    def __init__(self, *args, actor=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.actor = actor

    def clean_username(self):
        try:
            return staffing.find_account(self.cleaned_data["username"], self.actor)
        except UserError as exc:
            raise forms.ValidationError(exc.message) from None


class StaffForm(AccountForm):
    """The event's staff page: an account and one of the event roles
    (``events.permissions.Role``; the national authorities are granted in the admin)."""

    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class OrganisationForm(forms.ModelForm):
    """A new organisation: its name, address and kind; the kinds offered are those the
    user may create (``events.staffing.creatable_kinds``)."""

    class Meta:
        model = Organisation
        fields = ["name", "slug", "kind"]
        labels = {"slug": _("Address")}
        help_texts = {
            "slug": _("Part of its pages' address: lower-case letters, digits and hyphens."),
        }

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = staffing.creatable_kinds(user)
        self.fields["kind"].initial = Organisation.Kind.STORE

    def validate_unique(self):
        """The service says whether the address is taken (a second submission of the
        same form is not an error there)."""


class SignupForm(UserCreationForm):
    """A player's account. A VEKN number becomes a claim on the person record with that
    number, confirmed later by an organiser (``events.views.signup``); the form accepts
    any number of digits the same way, so it never tells whether a number is known or
    already linked to an account."""

    name = forms.CharField(
        label=_("Name"), max_length=200, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    vekn_number = forms.RegexField(
        label=_("VEKN number"),
        regex=r"^[0-9]{1,20}$",
        required=False,
        error_messages={"invalid": _("A VEKN number has only digits.")},
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        # The e-mail is optional and never shown on public pages; without it the password
        # cannot be reset by e-mail.
        fields = ("username", "email")
        # the purpose of each field for browsers and assistive tools (WCAG 1.3.5)
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}
        help_texts = {
            "email": _("Optional: only used to reset your password; never shown publicly."),
        }


# ---------------------------------------------------------------- staff actions
# The buttons and small forms of the staff pages (``events.views_manage``,
# ``events.views_swiss``). Each cleans what its page posts into plain values; a form that
# is not valid means a crafted or stale post, and the view answers with its message.
# Their choices are button values, never shown: their labels are not translated.

DB_ID = {"min_value": 1, "max_value": 2**63 - 1}
"""The range of a database id a form may name: a positive integer that fits a bigint
(a larger one would make the database raise an overflow error)."""


class FlagField(forms.TypedChoiceField):
    """An on/off button value: ``"1"`` is on, ``"0"`` or nothing is off, anything else
    is not valid."""

    def __init__(self, **kwargs):
        super().__init__(
            choices=(("0", "0"), ("1", "1")),
            coerce=lambda value: value == "1",
            required=False,
            empty_value=False,
            **kwargs,
        )


class IdListField(forms.Field):
    """An id repeated under one name (``<input type="hidden" name="player">`` once per
    player): the ids as ``list[int]`` in the order posted, each in ``DB_ID``'s range."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.item = forms.IntegerField(**DB_ID)

    def to_python(self, value):
        if not value:
            return []
        if not isinstance(value, (list, tuple)):
            value = [value]
        return [self.item.clean(item) for item in value]


class ClaimDecisionForm(forms.Form):
    """Confirm (``approve``) or reject an account's claim (``events.people.decide_claim``)."""

    decision = forms.ChoiceField(choices=(("approve", "approve"), ("reject", "reject")))

    @property
    def approve(self) -> bool:
        return self.cleaned_data["decision"] == "approve"


class PlayerStatusForm(forms.Form):
    """A registration's new status from the players page: registered, checked in or
    dropped (a disqualification is a penalty, ``events.services.set_status``), and
    ``confirm`` (bool) for a drop (issue 14)."""

    status = forms.ChoiceField(
        choices=[
            (value, label)
            for value, label in Registration.Status.choices
            if value != Registration.Status.DISQUALIFIED
        ]
    )
    # The drop's confirmation step (events.confirmations): "1" once the judge has seen
    # the consequences; the view asks for it, the service does not.
    confirm = forms.BooleanField(required=False)


class SwapSeatsForm(forms.Form):
    """Two players of a round whose seats a judge exchanges: their registration ids
    (``events.services.swap_seats`` checks that both sit in the round)."""

    a = forms.IntegerField(**DB_ID)
    b = forms.IntegerField(**DB_ID)


class PublishForm(forms.Form):
    """Publish (``published=1``) or hide (``0``) a round's seating or the standings."""

    published = FlagField()


class RematchesForm(forms.Form):
    """Pair a Mitos y Leyendas round allowing rematches (``allow_rematches=1``), or not."""

    allow_rematches = FlagField()


class TossForm(forms.Form):
    """A toss of tied players (TR §3.1): their registration ids, best first, and whether
    to draw the order at random (``mode=random``) or record it as posted
    (``events.services.record_toss`` checks they are two or more players of the event)."""

    RANDOM, RECORD = "random", "record"

    player = IdListField(required=False)  # none: the service's "two or more players"
    mode = forms.ChoiceField(choices=((RANDOM, RANDOM), (RECORD, RECORD)), required=False)

    @property
    def random(self) -> bool:
        return self.cleaned_data["mode"] == self.RANDOM


class FinalActionForm(forms.Form):
    """One step of the VEKN final's page (TR §3.1.3): ``start`` the final, ``place`` a
    finalist's card (``player``, ``position`` in the row, 0 = left end), ``undo`` the last
    step, name the ``first`` player, or ``draw`` them at random. The services check the
    turn, the finalists and the row's length. Starting asks first (``ConfirmForm``)."""

    START, PLACE, UNDO, FIRST, DRAW = "start", "place", "undo", "first", "draw"
    NEEDS = {PLACE: ("player", "position"), FIRST: ("player",)}

    action = forms.ChoiceField(
        choices=((START, START), (PLACE, PLACE), (UNDO, UNDO), (FIRST, FIRST), (DRAW, DRAW))
    )
    player = forms.IntegerField(required=False, **DB_ID)
    position = forms.IntegerField(required=False, min_value=0)

    def clean(self):
        data = super().clean()
        for name in self.NEEDS.get(data.get("action"), ()):
            if data.get(name) is None and name not in self.errors:
                self.add_error(name, self.fields[name].error_messages["required"])
        return data


class StaffRemoveForm(forms.Form):
    """The "Remove" button of the staff page: the id of the event role to remove, or
    nothing when the page's other form (``StaffForm``) was posted."""

    remove = forms.IntegerField(required=False, **DB_ID)


class VersionedForm(forms.Form):
    """A result form: ``version`` is the table's version the page was loaded with (the
    services answer ``ConflictError`` when someone saved in between)."""

    version = forms.IntegerField(min_value=0, max_value=2**63 - 1)

    @property
    def stale(self) -> bool:
        """Not valid because ``version`` is missing or not a version: the page is out of
        date (or the post crafted)."""
        return "version" in self.errors

    def first_error(self) -> str:
        """The first field's error of a form that is not valid."""
        return next(str(e) for errors in self.errors.values() for e in errors)

    def submitted(self, names) -> list[str]:
        """The values posted under ``names`` as typed (``""`` when absent), to show them
        again."""
        return [self[name].data or "" for name in names]


class ResultSheetForm(VersionedForm):
    """A VEKN table's result sheet: one ``vp_<seat>`` text per seat, in seat order
    (parsed by ``events.services.parse_vp``, checked by ``save_results``), and a judge's
    ``override_reason`` for an impossible sheet (its length is checked by the service)."""

    override_reason = forms.CharField(required=False)

    def __init__(self, *args, seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.names = [f"vp_{i}" for i in range(1, seats + 1)]
        for name in self.names:
            self.fields[name] = forms.CharField(required=False)

    def values(self) -> list[str]:
        """The VP texts as typed, one per seat."""
        return self.submitted(self.names)

    def cleaned_values(self) -> list[str]:
        return [self.cleaned_data[name] for name in self.names]


class MatchResultForm(VersionedForm):
    """A Mitos y Leyendas match's result as a judge enters it: the games each player won
    (``games_1``, ``games_2``, parsed by ``events.swiss_services.parse_games``)."""

    NAMES = ("games_1", "games_2")

    games_1 = forms.CharField(required=False)
    games_2 = forms.CharField(required=False)

    def values(self) -> list[str]:
        return self.submitted(self.NAMES)

    def cleaned_values(self) -> list[str]:
        return [self.cleaned_data[name] for name in self.NAMES]


class PlayerResultForm(VersionedForm):
    """A player's own match result (``events.views_swiss.my_match``): their games
    (``own``) and their opponent's (``opponent``)."""

    own = forms.CharField(required=False)
    opponent = forms.CharField(required=False)


class RegistrationSettingsForm(forms.ModelForm):
    """The organiser's self-registration settings (``events.self_service``): open or
    not, the capacity (empty: no limit) and the closing time, typed in the event's time
    zone (the view activates it)."""

    class Meta:
        model = Event
        fields = ["self_registration", "capacity", "registration_closes_at"]
        widgets = {
            "registration_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            )
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["capacity"].min_value = 1
        self.fields["capacity"].validators.append(MaxValueValidator(2000))
        self.fields["registration_closes_at"].input_formats = ["%Y-%m-%dT%H:%M"]
        self.fields["registration_closes_at"].validators.append(validate_date_window)


class SelfRegistrationForm(forms.Form):
    """A player's own registration button on the event page: ``register`` (or join the
    waitlist) or ``unregister`` (or leave it)."""

    action = forms.ChoiceField(choices=[("register", "register"), ("unregister", "unregister")])


class DeckForm(forms.Form):
    """A decklist as pasted (docs/decks.md): the player's own, or entered for them by
    staff; ``reason`` is required by the service once lists are locked (JG §3.1.1)."""

    text = forms.CharField(
        label=_("Decklist"),
        max_length=DECK_TEXT_MAX_LENGTH,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 14,
                "spellcheck": "false",
                "autocapitalize": "off",
                "autocomplete": "off",
            }
        ),
    )
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=FREE_TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class DeckPreviewForm(forms.Form):
    """The live check of a list being typed (nothing saved): the text, possibly empty."""

    text = forms.CharField(required=False, max_length=DECK_TEXT_MAX_LENGTH, strip=False)


def notification_choices():
    """Every (kind, personal channel) a person may opt in to, as ``"kind:channel"`` codes
    with their labels (docs/notifications.md)."""
    return [
        (
            f"{kind}:{channel}",
            f"{notify_rules.KIND_LABELS[kind]} — {notify_rules.CHANNEL_LABELS[channel]}",
        )
        for kind in notify_rules.Kind
        for channel in notify_rules.PERSONAL_CHANNELS
    ]


class NotificationPreferencesForm(forms.Form):
    """The preferences page: the (kind, channel) pairs ticked. ``cleaned_data["chosen"]``
    is a set of ``(kind, channel)`` codes."""

    chosen = forms.MultipleChoiceField(
        label=_("Notify me"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["chosen"].choices = notification_choices()

    def clean_chosen(self):
        return {tuple(code.split(":", 1)) for code in self.cleaned_data["chosen"]}


def json_object(body: bytes) -> dict:
    """A JSON request body as the data of a form: the object it holds, or ``{}`` when it
    is not JSON or not an object (the form then answers what is missing)."""
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


class PushSubscriptionForm(forms.Form):
    """What the phone's service worker posts (the browser's ``PushSubscription.toJSON()``
    flattened): the push service's endpoint and the two keys (base64url)."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_=-]{20,200}$", max_length=200)
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_=-]{8,100}$", max_length=100)

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint.startswith("https://"):
            raise forms.ValidationError(_("A push endpoint is an https:// address."))
        return endpoint


class PushEndpointForm(forms.Form):
    """The subscription a phone removes (its endpoint)."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")


class WebhookForm(forms.Form):
    """An organisation's new outgoing webhook: a name, the receiver's https:// URL (a
    Discord channel's webhook URL works) and the kinds of notice it gets."""

    name = forms.CharField(label=_("Name"), max_length=100)
    url = forms.URLField(
        label=_("URL"),
        max_length=500,
        assume_scheme="https",
        help_text=_("The receiver's https:// address, e.g. a Discord channel's webhook URL."),
    )
    kinds = forms.MultipleChoiceField(
        label=_("Notices it gets"),
        widget=forms.CheckboxSelectMultiple,
        choices=[(str(k), label) for k, label in notify_rules.KIND_LABELS.items()],
    )

    def clean_url(self):
        url = self.cleaned_data["url"]
        if not url.startswith("https://") or notify_rules.private_host(url):
            raise forms.ValidationError(_("A webhook URL is a public https:// address."))
        return url
