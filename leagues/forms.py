"""Forms of the league pages: the boundary where players' and staff input is validated
(types, ranges, images) before :mod:`leagues.reporting` is called.

Images (result screenshots, excuse evidence): JPEG, PNG or WebP, at most
``settings.LEAGUE_IMAGE_MAX_BYTES`` (5 MB), decoded by Pillow (Django's ``ImageField``
verifies the file really is an image of that format, whatever its name says). The
services then store the image re-encoded, metadata and trailing bytes stripped
(:mod:`leagues.images`), never the uploaded bytes.
"""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.forms import FreeTextField, NamedLengths
from events.limits import date_window_message, in_date_window
from leagues.models import MAX_EXCUSE_IMAGES
from leagues.models_squads import MAX_NUMBER
from leagues.reporting import MAX_LINEUP, shootout_message  # the service's limit, one definition
from leagues.rules.scores import MAX_GOALS, MAX_SHOOTOUT, shootout_possible
from leagues.squads import MAX_SQUAD

IMAGE_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
"""Accepted image formats (Pillow names) and their media types."""


def validate_image(upload) -> None:
    """Refuse an upload that is too large or not a JPEG/PNG/WebP image (the format Pillow
    decoded, set by ``forms.ImageField.to_python`` as ``upload.image``)."""
    limit = settings.LEAGUE_IMAGE_MAX_BYTES
    if upload.size > limit:
        raise ValidationError(
            _("The image is too large (%(size)s); the limit is %(limit)s.")
            % {"size": filesizeformat(upload.size), "limit": filesizeformat(limit)}
        )
    image = getattr(upload, "image", None)
    if image is None or image.format not in IMAGE_FORMATS:
        raise ValidationError(_("Send a JPEG, PNG or WebP image."))


class ImageInput(forms.ClearableFileInput):
    """A file input that offers the phone's camera and gallery for images."""

    def __init__(self, attrs=None):
        super().__init__({"accept": ",".join(IMAGE_FORMATS.values()), **(attrs or {})})


class MultipleImageInput(ImageInput):
    """:class:`ImageInput` choosing several images at once (``multiple``)."""

    allow_multiple_selected = True


class MultipleImagesField(forms.ImageField):
    """One to ``max_files`` images sent under one name, each checked as
    :func:`validate_image`; cleans to a list of uploads (in the order sent). Errors name
    the image ("Image 2: …") and refuse more than ``max_files``."""

    widget = MultipleImageInput

    def __init__(self, *args, max_files: int, **kwargs):
        kwargs.setdefault("validators", [validate_image])
        super().__init__(*args, **kwargs)
        self.max_files = max_files

    def clean(self, data, initial=None):
        files = [f for f in (data if isinstance(data, list | tuple) else [data]) if f]
        if not files:
            return super().clean(None, initial)  # "required" or None
        if len(files) > self.max_files:
            raise ValidationError(
                _("Send at most %(n)s images.") % {"n": self.max_files}, code="too_many"
            )
        cleaned, errors = [], []
        for number, upload in enumerate(files, 1):
            try:
                cleaned.append(super().clean(upload, initial))
            except ValidationError as exc:
                prefix = _("Image %(n)s:") % {"n": number} if len(files) > 1 else ""
                errors.extend(f"{prefix} {message}".strip() for message in exc.messages)
        if errors:
            raise ValidationError(errors)
        return cleaned


class LocalDateTimeField(forms.DateTimeField):
    """A ``datetime-local`` input read in the season's time zone (``zone`` set by the
    form), so that "21:10" means 21:10 where the league plays."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("input_formats", ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
        super().__init__(*args, **kwargs)
        self.zone = None

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value
        for fmt in self.input_formats:
            try:
                naive = datetime.strptime(str(value).strip(), fmt)
            except ValueError:
                continue
            if not in_date_window(naive):
                raise ValidationError(date_window_message(), code="date_window")
            return timezone.make_aware(naive, self.zone or timezone.get_current_timezone())
        raise ValidationError(self.error_messages["invalid"], code="invalid")

    def prepare_value(self, value):
        if isinstance(value, datetime) and timezone.is_aware(value) and self.zone:
            value = value.astimezone(self.zone)
        return super().prepare_value(value)


class OwnIds(NamedLengths):
    """A form whose fields' HTML ids start with its own prefix (``id_format``, Django's
    ``auto_id``), so that two forms on one page — a player's report and staff's correction,
    a dispute and an excuse, all on the match page — never repeat an id (issue 14: a label
    would focus the other form's field). A text too long names its field and the limit
    (:class:`events.forms.NamedLengths`)."""

    id_format = "id_%s"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", self.id_format)
        super().__init__(*args, **kwargs)


class _SeasonForm(OwnIds, forms.Form):
    """Reads its date-times in the season's time zone (``zone``, an IANA name)."""

    def __init__(self, *args, zone: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        tz = ZoneInfo(zone) if zone else None
        for field in self.fields.values():
            if isinstance(field, LocalDateTimeField):
                field.zone = tz


def goals_field(label):
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=MAX_GOALS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "goals"}),
    )


MAX_BOOKINGS = 40


def check_shootout(home, away) -> None:
    """A shoot-out that can happen (:func:`leagues.rules.scores.shootout_possible`), when
    both counts are given and differ (a level one has its own message)."""
    if home is not None and away is not None and home != away:
        if not shootout_possible(home, away):
            raise ValidationError(shootout_message(home, away), code="shootout")


"""Most bookings one report may list (a typing guard) **[choice]**."""

CARD_WORDS = {
    "yellow": "yellow",
    "y": "yellow",
    "amarilla": "yellow",
    "red": "red",
    "r": "red",
    "roja": "red",
}
"""Words accepted for a card kind in the bookings box (English and Spanish)."""


def parse_bookings(text: str) -> list[dict]:
    """The bookings box: one booking per line, ``team; footballer; card`` (``team``:
    ``home``, ``away``, the team id or its name — resolved against the match by
    :func:`leagues.reporting.check_cards`; ``card``: ``yellow``/``red``, or ``amarilla``/
    ``roja``; a second yellow in one match is a second ``yellow`` line). Empty lines are
    skipped. Raises ``ValidationError`` naming the first bad lines."""
    bookings, errors = [], []
    lines = [(n, line.strip()) for n, line in enumerate((text or "").splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line]
    if len(lines) > MAX_BOOKINGS:
        raise ValidationError(_("At most %(max)s bookings, one per line.") % {"max": MAX_BOOKINGS})
    for number, line in lines:
        parts = [p.strip() for p in line.split(";")]
        if len(parts) != 3 or not all(parts):
            errors.append(
                _('Line %(n)s: write "team; footballer; card", e.g. "home; N. Surname; yellow".')
                % {"n": number}
            )
            continue
        team, footballer, card = parts
        kind = CARD_WORDS.get(card.lower())
        if kind is None:
            errors.append(
                _("Line %(n)s: the card must be yellow or red, not %(card)s.")
                % {"n": number, "card": card}
            )
            continue
        if len(footballer) > 200 or len(team) > 200:
            errors.append(
                _("Line %(n)s: the name is too long (at most %(max)s characters).")
                % {"n": number, "max": 200}
            )
            continue
        bookings.append({"team": team, "footballer": " ".join(footballer.split()), "card": kind})
    if errors:
        raise ValidationError(errors[:5])
    return bookings


class BookingsField(forms.CharField):
    """A textarea of bookings (:func:`parse_bookings`); its value is a list of
    ``{"team", "footballer", "card"}`` with ``team`` as typed."""

    widget = forms.Textarea(
        attrs={
            "rows": 3,
            "autocapitalize": "words",
            "spellcheck": "false",
            "placeholder": _("home; N. Surname; yellow"),
        }
    )

    def to_python(self, value):
        text = super().to_python(value)
        # Django's refusal of NUL characters (PostgreSQL cannot store them) runs in
        # run_validators, which this field skips: the parsed value is a list.
        ProhibitNullCharactersValidator()(text)
        return parse_bookings(text)

    def validate(self, value):
        """Nothing to add: an empty box is no bookings."""

    def run_validators(self, value):
        """The text was checked by :func:`to_python` and :func:`parse_bookings`."""


def parse_lineup(text: str) -> list[dict]:
    """The lineups box: one footballer per line, ``team; footballer`` (``team`` as in the
    bookings box: ``home``, ``away``, the team id or its name, resolved by
    :func:`leagues.reporting.check_lineup`). Empty lines are skipped. Raises
    ``ValidationError`` naming the first bad lines."""
    lineup, errors = [], []
    lines = [(n, line.strip()) for n, line in enumerate((text or "").splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line]
    if len(lines) > MAX_LINEUP:
        raise ValidationError(_("At most %(max)s footballers, one per line.") % {"max": MAX_LINEUP})
    for number, line in lines:
        parts = [p.strip() for p in line.split(";")]
        if len(parts) != 2 or not all(parts):
            errors.append(
                _('Line %(n)s: write "team; footballer", e.g. "home; N. Surname".') % {"n": number}
            )
            continue
        team, footballer = parts
        if len(footballer) > 200 or len(team) > 200:
            errors.append(
                _("Line %(n)s: the name is too long (at most %(max)s characters).")
                % {"n": number, "max": 200}
            )
            continue
        lineup.append({"team": team, "footballer": " ".join(footballer.split())})
    if errors:
        raise ValidationError(errors[:5])
    return lineup


class LineupField(BookingsField):
    """A textarea of lineups (:func:`parse_lineup`); its value is a list of
    ``{"team", "footballer"}`` with ``team`` as typed."""

    widget = forms.Textarea(
        attrs={
            "rows": 4,
            "autocapitalize": "words",
            "spellcheck": "false",
            "placeholder": _("home; N. Surname"),
        }
    )

    def to_python(self, value):
        text = forms.CharField.to_python(self, value)
        ProhibitNullCharactersValidator()(text)  # as BookingsField.to_python
        return parse_lineup(text)


class ReportForm(_SeasonForm):
    """A player's report: score, screenshot, and when the result was posted in the chat;
    optionally the bookings (final phases, ANFPES T24 §1.4) and their own screenshot
    (``bookings_screenshot``, optional: a final-phase report with bookings and without it
    is kept and staff are warned, :func:`leagues.reporting.report_result`)."""

    home_goals = goals_field(_("Home goals"))
    away_goals = goals_field(_("Away goals"))
    posted_at = LocalDateTimeField(
        label=_("Posted in the chat at"),
    )
    screenshot = forms.ImageField(
        label=_("Screenshot of the result"), validators=[validate_image], widget=ImageInput
    )
    bookings_screenshot = forms.ImageField(
        label=_("Screenshot of the bookings (optional)"),
        required=False,
        validators=[validate_image],
        widget=ImageInput,
        help_text=_(
            "In the final phases ANFPES T24 §1.4 asks for it when you report bookings; "
            "without it the report is kept and staff are told."
        ),
    )
    stream_url = forms.URLField(
        label=_("Stream link"),
        required=False,
        max_length=500,
        assume_scheme="https",
    )
    cards = BookingsField(
        label=_("Bookings (optional)"),
        required=False,
        help_text=_(
            "One booking per line: team; footballer; card. Team: home, away or the team's "
            "name; card: yellow or red (a second yellow in the match is a second yellow "
            "line). Show them on the screenshot."
        ),
    )
    lineup = LineupField(
        label=_("Lineups (optional)"),
        required=False,
        help_text=_(
            "One footballer per line: team; footballer (team: home, away or the team's "
            "name). A suspended footballer named here flags the match for staff."
        ),
    )
    extra_time = forms.BooleanField(label=_("The score includes extra time"), required=False)
    penalties_home = forms.IntegerField(
        label=_("Home penalties"), required=False, min_value=0, max_value=MAX_SHOOTOUT
    )
    penalties_away = forms.IntegerField(
        label=_("Away penalties"), required=False, min_value=0, max_value=MAX_SHOOTOUT
    )

    DECIDER_ONLY = ("extra_time", "penalties_home", "penalties_away")
    """Fields of a third match or a one-match decider only (ANFPES T24 §1.1.2, §2.2)."""

    STREAM_RULES = ("required", "encouraged", "none")
    """How the stream link is asked: ``required`` (a league final phase, §1.4 ¶5, or a
    fixture staff marked must-stream, §1.4 ¶6), ``encouraged`` (cup knockouts, §2.2:
    they count without it), ``none`` (the field is not shown)."""

    def __init__(self, *args, decider: bool = False, stream: str = "none", **kwargs):
        super().__init__(*args, **kwargs)
        self.decider = decider
        self.stream = stream if stream in self.STREAM_RULES else "none"
        field = self.fields["stream_url"]
        if self.stream == "required":
            field.required = True
            field.label = _("Stream link (broadcast required)")
            field.help_text = _(
                "Required: without its stream link this match is a friendly and does not "
                "count (ANFPES T24 §1.4)."
            )
            field.error_messages["required"] = _(
                "Give the stream link: without it this match does not count."
            )
        elif self.stream == "encouraged":
            field.label = _("Stream link (optional)")
            field.help_text = _(
                "Cup matches count without a stream link; streaming is encouraged (§2.2)."
            )
        if not decider:
            for name in self.DECIDER_ONLY:
                self.fields.pop(name)

    def clean(self):
        data = super().clean()
        if not self.decider:
            return data
        home, away = data.get("penalties_home"), data.get("penalties_away")
        if (home is None) != (away is None):
            raise ValidationError(_("Give both penalty counts, or neither."))
        level = data.get("home_goals") is not None and data.get("home_goals") == data.get(
            "away_goals"
        )
        if level and home is None:
            raise ValidationError(
                _(
                    "A third match or decider level after extra time is decided on "
                    "penalties: tick extra time and give the penalty shoot-out."
                )
            )
        if home is not None:
            level = data.get("home_goals") is not None and data.get("home_goals") == data.get(
                "away_goals"
            )
            if not level or not data.get("extra_time"):
                raise ValidationError(
                    _("A penalty shoot-out follows a score still level after extra time.")
                )
            if home == away:
                raise ValidationError(_("A penalty shoot-out has a winner."))
            check_shootout(home, away)
        return data

    def service_arguments(self) -> dict:
        """The cleaned data as :func:`leagues.reporting.report_result` takes it."""
        data = dict(self.cleaned_data)
        home, away = data.pop("penalties_home", None), data.pop("penalties_away", None)
        if self.decider:
            data["penalties"] = None if home is None else (home, away)
            data["extra_time"] = bool(data.get("extra_time"))
        return data


class DisputeForm(OwnIds, forms.Form):
    id_format = "dispute_%s"
    reason = FreeTextField(label=_("What is wrong?"), widget=forms.Textarea(attrs={"rows": 3}))


class ResolveForm(_SeasonForm):
    """Staff decision on an open report."""

    id_format = "resolve_%s"

    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            ("accept", _("Accept the report")),
            ("amend", _("Accept with this score")),
            ("reject", _("Reject the report")),
        ],
        widget=forms.RadioSelect,
    )
    home_goals = goals_field(_("Home goals"))
    away_goals = goals_field(_("Away goals"))
    posted_at = LocalDateTimeField(label=_("Posted in the chat at"), required=False)
    reason = FreeTextField(label=_("Reason"), required=False, widget=forms.Textarea({"rows": 2}))

    extra_time = forms.BooleanField(label=_("The score includes extra time"), required=False)
    penalties_home = forms.IntegerField(
        label=_("Home penalties"), required=False, min_value=0, max_value=MAX_SHOOTOUT
    )
    penalties_away = forms.IntegerField(
        label=_("Away penalties"), required=False, min_value=0, max_value=MAX_SHOOTOUT
    )
    DECIDER_ONLY = ("extra_time", "penalties_home", "penalties_away")

    def __init__(self, *args, decider: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.decider = decider
        self.fields["home_goals"].required = False
        self.fields["away_goals"].required = False
        if not decider:
            for name in self.DECIDER_ONLY:
                self.fields.pop(name)

    def clean(self):
        data = super().clean()
        if data.get("decision") == "amend" and (
            data.get("home_goals") is None or data.get("away_goals") is None
        ):
            raise ValidationError(_("Give both scores to accept with another score."))
        if self.decider and (data.get("penalties_home") is None) != (
            data.get("penalties_away") is None
        ):
            raise ValidationError(_("Give both penalty counts, or neither."))
        check_shootout(data.get("penalties_home"), data.get("penalties_away"))
        return data

    def service_arguments(self) -> dict:
        """The cleaned data as :func:`leagues.reporting.resolve_report` takes it (a
        decider amended: its extra time and shoot-out as given)."""
        data = self.cleaned_data
        args = {
            key: data.get(key)
            for key in ("decision", "reason", "home_goals", "away_goals", "posted_at")
        }
        if self.decider and data.get("decision") == "amend":
            home, away = data.get("penalties_home"), data.get("penalties_away")
            args["extra_time"] = bool(data.get("extra_time"))
            args["penalties"] = None if home is None else (home, away)
        return args


class CorrectForm(_SeasonForm):
    """Staff correction (or entry) of a result, always with a reason."""

    id_format = "correct_%s"

    home_goals = goals_field(_("Home goals"))
    away_goals = goals_field(_("Away goals"))
    reported_at = LocalDateTimeField(label=_("Posted in the chat at"), required=False)
    extra_time = forms.BooleanField(label=_("The score includes extra time"), required=False)
    penalties_home = forms.IntegerField(
        label=_("Home penalties"), required=False, min_value=0, max_value=MAX_SHOOTOUT
    )
    penalties_away = forms.IntegerField(
        label=_("Away penalties"), required=False, min_value=0, max_value=MAX_SHOOTOUT
    )
    stream_url = forms.URLField(
        label=_("Stream link (final phases)"), required=False, max_length=500, assume_scheme="https"
    )
    reason = FreeTextField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    KNOCKOUT_ONLY = ("extra_time", "penalties_home", "penalties_away")

    def __init__(self, *args, knockout: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not knockout:
            for name in self.KNOCKOUT_ONLY:
                self.fields.pop(name)

    def clean(self):
        data = super().clean()
        home, away = data.get("penalties_home"), data.get("penalties_away")
        if (home is None) != (away is None):
            raise ValidationError(_("Give both penalty counts, or neither."))
        check_shootout(home, away)
        return data

    def service_arguments(self) -> dict:
        """The cleaned data as :func:`leagues.reporting.correct_result` takes it."""
        data = dict(self.cleaned_data)
        home, away = data.pop("penalties_home", None), data.pop("penalties_away", None)
        data["penalties"] = None if home is None else (home, away)
        data["extra_time"] = bool(data.get("extra_time"))
        return data


class ExcuseForm(OwnIds, forms.Form):
    """A player's excuse request (ANFPES T24 §IV.5–§IV.6): ``evidence`` is one to
    :data:`leagues.models.MAX_EXCUSE_IMAGES` images (a list of uploads)."""

    id_format = "excuse_%s"

    date_from = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    reason = FreeTextField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))
    evidence = MultipleImagesField(
        label=_("Evidence (screenshots)"),
        max_files=MAX_EXCUSE_IMAGES,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["evidence"].help_text = _(
            "Up to %(n)s images: JPEG, PNG or WebP, at most 5 MB each."
        ) % {"n": MAX_EXCUSE_IMAGES}

    def clean(self):
        data = super().clean()
        for name in ("date_from", "date_to"):
            if data.get(name) and not in_date_window(data[name]):
                self.add_error(name, date_window_message())
                data.pop(name, None)
        if data.get("date_from") and data.get("date_to") and data["date_to"] < data["date_from"]:
            self.add_error("date_to", _("The end date must be on or after the start date."))
        return data


class YesNoForm(forms.Form):
    """A yes/no answer on an excuse (``leagues.reporting.answer_excuse``, ``decide_excuse``):
    ``agree`` and ``approve`` are true only when ``yes`` (anything else, or nothing, is no)."""

    agree = forms.CharField(required=False)
    approve = forms.CharField(required=False)

    def clean_agree(self):
        return self.cleaned_data["agree"] == "yes"

    def clean_approve(self):
        return self.cleaned_data["approve"] == "yes"


# --------------------------------------------------------------------------- squads
SQUAD_LINE = re.compile(r"^#?(\d{1,3})\s*[;\t.\-–)]?\s+(.+)$")
"""A pasted squad line with its shirt number first: ``7 N. Surname``, ``#7; N. Surname``."""


def parse_squad_lines(text: str) -> list[tuple[int, int | None, str]]:
    """The squad box (docs/leagues.md "Squads"): one footballer per line, his shirt number
    first if any — ``7 N. Surname``, ``#7; N. Surname``, ``N. Surname; 7`` or just
    ``N. Surname`` (a tab works as the separator, for a paste from a spreadsheet). Empty
    lines are skipped and keep the numbering. Returns ``(line, number or None, name)``;
    the service checks the names and numbers against the squad. ``ValidationError`` for
    more lines than a squad holds."""
    rows = []
    lines = (text or "").splitlines()
    if len([line for line in lines if line.strip()]) > MAX_SQUAD:
        raise ValidationError(
            _("A squad has at most %(max)s footballers.") % {"max": MAX_SQUAD}, code="max_lines"
        )
    for number, raw in enumerate(lines, 1):
        line = " ".join(raw.replace("\t", " ; ").split())
        if not line:
            continue
        parts = [p.strip() for p in line.split(";")]
        if len(parts) == 2 and parts[1].lstrip("#").isdigit():
            rows.append((number, int(parts[1].lstrip("#")), parts[0]))
            continue
        found = SQUAD_LINE.match(line)
        if found:
            rows.append((number, int(found.group(1)), found.group(2).strip(" ;")))
        else:
            rows.append((number, None, line.strip(" ;")))
    return rows


class SquadLinesForm(OwnIds, forms.Form):
    """Footballers pasted into a squad, one per line (:func:`parse_squad_lines`)."""

    id_format = "squad_%s"
    lines = forms.CharField(
        label=_("Footballers, one per line"),
        max_length=20000,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 6, "spellcheck": "false", "placeholder": _("7 N. Surname")}
        ),
        help_text=_(
            "The shirt number first if there is one: “7 N. Surname”, or just the name. "
            "Paste a column of a spreadsheet as it is."
        ),
    )

    def clean_lines(self):
        ProhibitNullCharactersValidator()(self.cleaned_data["lines"])
        return parse_squad_lines(self.cleaned_data["lines"])


class FootballerForm(OwnIds, forms.Form):
    """Change a squad footballer (``action=save``: his name and shirt number) or take
    him out of the squad (``action=remove``)."""

    id_format = "footballer_%s"
    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    number = forms.IntegerField(
        label=_("Shirt number"), required=False, min_value=1, max_value=MAX_NUMBER
    )
    action = forms.ChoiceField(choices=[("save", "save"), ("remove", "remove")])


class SquadLockForm(forms.Form):
    """League staff close (``closed=yes``) or reopen the season's squads."""

    closed = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no")])
