"""One length limit for the free text people type (issue 12; docs/contracts.md "Free
text", README "Free text").

Every text field a person fills in — an incident's "what happened", a deviation, void or
lift reason, a disqualification or aggression report, an appeal statement and its
reasons, a result override, a force-majeure report, a league dispute, staff decision,
excuse, tribunal or bonus reason — holds at most :data:`FREE_TEXT_MAX_LENGTH`
characters. Three layers enforce it:

- the model field's ``max_length`` (forms and the admin get ``maxlength`` and a
  validation message from it; hand-written ``<textarea>`` get ``maxlength`` from the
  ``FREE_TEXT_MAX_LENGTH`` template variable, :func:`template_context`);
- :func:`check_free_text` in every service that takes text (pages, API, offline sync,
  event and season files), which refuses too long a text with a ``UserError`` naming the
  field and the limit before anything is saved;
- a database ``CHECK (LENGTH(field) <= N)`` (:func:`length_constraint`), so that no other
  path (a shell, a future import) stores more.

No ORM here: the rules modules (``leagues.rules.season``) import the constant.
"""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.db import migrations, models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from events.errors import UserError

FREE_TEXT_MAX_LENGTH = 5000
"""Characters of one free-text field: about 800 words, two printed pages — room for a
disqualification report with its statements (each its own field), far below what would
weigh on a page, an export or the database. **[choice]** One limit for every free-text
field (issue 12), whether it usually holds a line (a void reason) or a page (a report):
one number to document and to remember; one-line fields that already were ``CharField``
(a time extension's reason, 200) keep their column size."""


def check_free_text(
    value, label, *, limit: int = FREE_TEXT_MAX_LENGTH, field: str | None = None
) -> str:
    """``value`` (a string or ``None``) as a string with Windows line breaks made ``\\n``
    (a browser sends a ``<textarea>``'s line breaks as two characters but counts them as
    one), or ``UserError`` when it is longer than ``limit`` characters. ``label``: the
    field's name as the user sees it (a model field's ``verbose_name`` or the form's
    label); ``field``: the form field's name, for ``UserError.field``. A NUL character
    (which PostgreSQL cannot store in text) is a ``UserError`` too, on every path — pages,
    the offline tablet's sync, the API, files — as Django's forms refuse it. Does not
    strip: callers strip as before."""
    text = "" if value is None else str(value)
    text = text.replace("\r\n", "\n")
    if "\x00" in text:
        raise UserError(_("Null characters are not allowed."), field=field)
    if len(text) > limit:
        name = str(label)
        raise UserError(
            _("%(field)s: at most %(limit)s characters (this one has %(length)s).")
            % {"field": name[:1].upper() + name[1:], "limit": limit, "length": len(text)},
            field=field,
        )
    return text


def field_label(model, name: str) -> str:
    """The ``verbose_name`` of ``model``'s field ``name`` (for :func:`check_free_text`)."""
    return str(model._meta.get_field(name).verbose_name)


def length_constraint(table: str, field: str, limit: int = FREE_TEXT_MAX_LENGTH):
    """A ``CheckConstraint`` ``LENGTH(field) <= limit`` named ``<table>_<field>_length``
    (works on SQLite and PostgreSQL)."""

    return models.CheckConstraint(
        condition=LessThanOrEqual(Length(field), limit), name=f"{table}_{field}_length"
    )


def template_context(request) -> dict:
    """Context processor: ``FREE_TEXT_MAX_LENGTH`` for hand-written ``<textarea>``'s
    ``maxlength``."""
    return {"FREE_TEXT_MAX_LENGTH": FREE_TEXT_MAX_LENGTH}


def refuse_over_long_rows(fields: dict[str, tuple[str, ...]], limit: int = FREE_TEXT_MAX_LENGTH):
    """A migration operation run before the length checks are added: when rows saved
    before the limit hold longer text, stop with a message listing how many per field
    (so the operator decides what to shorten; nothing is truncated silently). ``fields``:
    ``{"app_label.Model": ("field", …)}``. Reversible (nothing to undo)."""

    def check(apps, schema_editor):
        found = []
        for label, names in fields.items():
            model = apps.get_model(label)
            for name in names:
                count = (
                    model.objects.using(schema_editor.connection.alias)
                    .annotate(_n=Length(name))
                    .filter(_n__gt=limit)
                    .count()
                )
                if count:
                    found.append(f"{label}.{name}: {count} row(s)")
        if found:
            raise RuntimeError(
                f"Free text longer than {limit} characters was saved before the limit "
                f"(events.limits): {'; '.join(found)}. Shorten these values (see "
                "docs/deploy.md, 'Free-text limit'), then migrate again."
            )

    return migrations.RunPython(check, migrations.RunPython.noop, elidable=True)


def csv_text(value: str) -> str:
    """A free-text cell made safe for spreadsheets: text starting with = + - @ (a formula
    to Excel or LibreOffice) gets a leading apostrophe (OWASP "CSV injection")."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


VEKN_NUMBER_PATTERN = r"^[0-9]{1,20}$"
"""A VEKN number: 1 to 20 ASCII digits (the ``Person`` table's ``CHECK``; docs/contracts.md
§1 ``vekn``). ``str.isdigit`` is not enough: it accepts "²" and other Unicode digits."""


def is_vekn_number(text: str) -> bool:
    """Whether ``text`` is a VEKN number as stored (:data:`VEKN_NUMBER_PATTERN`)."""
    return re.fullmatch(VEKN_NUMBER_PATTERN[1:-1], text) is not None


# --------------------------------------------------------------------------- date window
MIN_YEAR = 2000
"""The earliest year a date typed into the league (a deadline, a posting time, an excuse,
a review, a draw's start, a season file's date) may have (issue 14; docs/leagues.md
"Dates"). **[choice]** ANFPES leagues are played now: year 1 or 1000 is a typo, and the
iCal feed (RFC 5545: four-digit years) and every date arithmetic stay well inside
Python's ``datetime`` range (year 9999 plus a week of deadlines overflowed it)."""

MAX_YEAR = 2100
"""The latest year of that window (see :data:`MIN_YEAR`)."""


def in_date_window(value) -> bool:
    """Whether a ``date`` or ``datetime`` (its own calendar year, naive or aware) lies in
    :data:`MIN_YEAR` … :data:`MAX_YEAR` inclusive."""
    return MIN_YEAR <= value.year <= MAX_YEAR


def date_window_message() -> str:
    """The one message for a date out of the window (forms and services)."""
    return _("Give a date between the years %(min)d and %(max)d.") % {
        "min": MIN_YEAR,
        "max": MAX_YEAR,
    }


def validate_date_window(value) -> None:
    """A form field validator: a date or date-time outside :func:`in_date_window` →
    ``ValidationError`` with :func:`date_window_message` (year 9999 would overflow the
    time-zone conversions and the deadlines computed from it; never a 500)."""
    if value is not None and not in_date_window(value):
        raise ValidationError(date_window_message(), code="date_window")


def check_date_window(value, *, field: str | None = None):
    """``value`` unchanged (``None`` passes), or ``UserError`` (:func:`date_window_message`)
    when it is a date or date-time outside the window."""
    if value is not None and not in_date_window(value):
        raise UserError(date_window_message(), field=field)
    return value


LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})
"""Scripts whose letters look alike ("С" Cyrillic, "C" Latin): a name mixing them is
refused by :func:`clean_public_name`."""


def clean_public_name(text: str, *, field: str | None = None) -> str:
    """A name other people rely on (an organisation's), as it is stored: NFKC-normalised
    (full-width letters become plain), runs of spaces collapsed, trimmed. ``UserError``
    when it holds invisible or direction-changing characters (zero-width spaces, U+202E
    right-to-left override, any Unicode format or control character) or mixes
    lookalike scripts (a Cyrillic "С" in a Latin name), so "VEKN Chile" cannot be
    imitated by a name that looks the same (docs/organisations.md)."""
    name = " ".join(unicodedata.normalize("NFKC", text or "").split())
    if any(unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cs") for ch in name):
        raise UserError(_("The name has invisible or direction-changing characters."), field=field)
    scripts = {
        unicodedata.name(ch, "").split(" ", 1)[0] for ch in name if ch.isalpha()
    } & LOOKALIKE_SCRIPTS
    if len(scripts) > 1:
        raise UserError(
            _("The name mixes alphabets that look alike (Latin, Cyrillic, Greek)."), field=field
        )
    return name
