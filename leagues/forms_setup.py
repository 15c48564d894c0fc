"""The form of the new-season pages (issue 14; :mod:`leagues.season_setup`): what a league
administrator types, read into a :class:`leagues.season_setup.SeasonSetup`.

Teams are pasted one per line, ``Team name; owner`` (the owner's user name or e-mail; a
tab works as the separator too, for a paste from a spreadsheet). A line that cannot be
read becomes a problem of that line, shown in the preview beside it; blank lines are
skipped and keep the numbering of the box.
"""

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.limits import validate_date_window
from leagues.forms_staff import StaffForm
from leagues.season_setup import DIVISIONS, DivisionSetup, SeasonSetup, TeamLine
from leagues.services import MAX_LENGTHS

MAX_LINES = 200
"""Most lines a teams box takes (a paste guard)."""

DEFAULT_NAMES = {"primera_a": gettext_lazy("Primera A"), "primera_b": gettext_lazy("Primera B")}

PEOPLE_SEPARATORS = re.compile(r"[\s,;]+")


def parse_team_lines(text: str) -> tuple[tuple[TeamLine, ...], tuple[tuple[int, str], ...]]:
    """``Team name; owner`` lines → the teams read and ``(line, problem)`` for the others."""
    teams, problems = [], []
    for number, raw in enumerate((text or "").splitlines()[:MAX_LINES], start=1):
        line = raw.strip()
        if not line:
            continue
        parts = [p.strip() for p in re.split(r"[;\t]", line)]
        if len(parts) != 2:
            problems.append(
                (
                    number,
                    _("Write the team's name, a semicolon and its owner: “Team name; owner”."),
                )
            )
            continue
        name, owner = parts
        if not name:
            problems.append((number, _("The team's name is missing.")))
        elif len(name) > MAX_LENGTHS["team name"]:
            problems.append(
                (
                    number,
                    _("The team's name is too long: at most %(max)s characters.") % {"max": 200},
                )
            )
        elif not owner:
            problems.append((number, _("The owner is missing: a user name or an e-mail.")))
        elif len(owner) > MAX_LENGTHS["user"] or " " in owner:
            problems.append((number, _("The owner is a user name or an e-mail, without spaces.")))
        else:
            teams.append(TeamLine(number, " ".join(name.split()), owner))
    if len((text or "").splitlines()) > MAX_LINES:
        problems.append((MAX_LINES + 1, _("At most %(max)s lines.") % {"max": MAX_LINES}))
    return tuple(teams), tuple(problems)


class SeasonSetupForm(StaffForm):
    """The new-season page: the season, its two divisions (name, first day, pasted teams),
    the staff and tribunal (user names or e-mails, one per line)."""

    name = forms.CharField(
        max_length=200, error_messages={"required": gettext_lazy("Give the season's name.")}
    )
    slug = forms.CharField(
        max_length=80,
        error_messages={"required": gettext_lazy("Give the season's address.")},
    )
    time_zone = forms.CharField(max_length=64, initial="America/Santiago")
    previous = forms.CharField(max_length=80, required=False)
    primera_a_name = forms.CharField(max_length=200, required=False)
    primera_a_start = forms.DateField(
        required=False,
        error_messages={"invalid": gettext_lazy("Give the first day as YYYY-MM-DD.")},
        validators=[validate_date_window],
    )
    primera_a_teams = forms.CharField(required=False)
    primera_b_name = forms.CharField(max_length=200, required=False)
    primera_b_start = forms.DateField(
        required=False,
        error_messages={"invalid": gettext_lazy("Give the first day as YYYY-MM-DD.")},
        validators=[validate_date_window],
    )
    primera_b_teams = forms.CharField(required=False)
    staff = forms.CharField(required=False)
    tribunal = forms.CharField(required=False)
    step = forms.ChoiceField(choices=[("preview", "preview"), ("create", "create")], required=False)

    @property
    def creates(self) -> bool:
        """The "Create the season" button was pressed (else: a preview)."""
        return self.cleaned_data.get("step") == "create"

    def setup(self) -> SeasonSetup:
        """The cleaned form as a :class:`SeasonSetup` (call after ``is_valid``)."""
        data = self.cleaned_data
        divisions = []
        for division in DIVISIONS:
            teams, problems = parse_team_lines(data[f"{division}_teams"])
            divisions.append(
                DivisionSetup(
                    division=division,
                    name=data[f"{division}_name"].strip() or str(DEFAULT_NAMES[division]),
                    start=data[f"{division}_start"],
                    teams=teams,
                    problems=problems,
                )
            )
        return SeasonSetup(
            name=data["name"].strip(),
            slug=data["slug"].strip(),
            time_zone=data["time_zone"].strip(),
            divisions=tuple(divisions),
            staff=tuple(p for p in PEOPLE_SEPARATORS.split(data["staff"]) if p),
            tribunal=tuple(p for p in PEOPLE_SEPARATORS.split(data["tribunal"]) if p),
            previous=data["previous"].strip(),
        )
