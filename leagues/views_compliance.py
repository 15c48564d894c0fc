"""Compliance table, reviews and draft order pages (ANFPES T24 §IV, §III.4, §IV.8; docs/leagues.md
"Compliance table", "Draft order").

Public: ``/seasons/<slug>/compliance/`` and ``/seasons/<slug>/draft/``. Staff
(:func:`leagues.access.season_staff_required`): ``/seasons/<slug>/manage/reviews/``
(``MANAGE_COMPLIANCE``) and ``/seasons/<slug>/manage/draft/`` (``MANAGE_DRAFT``).

Views are thin: the documents come from :func:`leagues.services.season_compliance` and
:mod:`leagues.drafting` in bounded queries; changes are read by the forms of
:mod:`leagues.forms_staff` and go through the services; a form's problem and the services'
:class:`events.errors.UserError` are shown as a message (never a 500), anything else
propagates (logged, 500).
"""

import json
from datetime import datetime

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from events.errors import UserError
from leagues import drafting, services
from leagues.access import LeaguePermission, season_permissions, season_staff_required
from leagues.forms_staff import DraftForm, ReviewForm
from leagues.labels import draft_rule_label, outcome_label
from leagues.models import Review, Season
from leagues.submissions import once


def _staff_links(request, season):
    perms = season_permissions(request.user, season)
    return {
        "can_review": LeaguePermission.MANAGE_COMPLIANCE in perms,
        "can_draft": LeaguePermission.MANAGE_DRAFT in perms,
    }


def _kind_labels():
    return dict(Review.Kind.choices)


def compliance_page(request, slug):
    """Public compliance table: per user points, maximum, percentage, reaped, and each
    fixture's outcome in a ``<details>``."""
    season = get_object_or_404(Season, slug=slug)
    doc = services.season_compliance(season, public=True)
    names = {row["team"]: row["name"] for row in doc["rows"]}
    kinds = _kind_labels()
    rows = []
    for row in doc["rows"]:
        fixtures = [
            {
                **f,
                "label": outcome_label(f["outcome"]),
                "home_name": names.get(f.get("home"), f.get("home")),
                "away_name": names.get(f.get("away"), f.get("away")),
            }
            for f in row["fixtures"]
        ]
        rows.append(
            {
                **row,
                # Fixtures not due yet are only counted: a season has 30 matchdays.
                "fixtures": [f for f in fixtures if f["due"]],
                "not_due": sum(1 for f in fixtures if not f["due"]),
                "reaped_labels": [kinds.get(k, k) for k in row["reaped_in"]],
            }
        )
    reviews = [{**r, "label": kinds.get(r["kind"], r["kind"])} for r in doc["reviews"]]
    return render(
        request,
        "leagues/compliance.html",
        {
            "season": season,
            "rows": rows,
            "reviews": reviews,
            "without_deadlines": doc["without_deadlines"],
            "as_of": timezone.now(),
            **_staff_links(request, season),
        },
    )


def _draft_context(season):
    doc = drafting.draft_order_document(season)
    names = {slot["team"]: slot["name"] for slot in doc["order"]}
    order = [{**slot, "label": draft_rule_label(slot["rule"])} for slot in doc["order"]]
    lot = doc["lot"]
    if lot:
        lot = {
            **lot,
            "entrant_names": [names.get(c, c) for c in lot["entrants"]],
            "order_names": [names.get(c, c) for c in lot["order"]],
            "drawn_at": datetime.fromisoformat(lot["drawn_at"]),
            # A Python string literal of the seed, for the re-run snippet.
            "seed_literal": json.dumps(lot["seed"]),
        }
    return {"doc": doc, "order": order, "lot": lot}


def draft_page(request, slug):
    """Public draft order: each position with the rule that placed it, and the draw by lot
    with its seed and how to re-run it."""
    season = get_object_or_404(Season, slug=slug)
    return render(
        request,
        "leagues/draft.html",
        {"season": season, **_draft_context(season), **_staff_links(request, season)},
    )


@require_http_methods(["GET", "POST"])
@season_staff_required(LeaguePermission.MANAGE_COMPLIANCE)
@once
def staff_reviews(request, season):
    """Reviews: a preview of whom each review not held yet would reap now, a button to
    hold it, and the reviews held with whom they reaped."""
    status = 200
    if request.method == "POST":
        form = ReviewForm(request.POST, zone=season.time_zone)
        try:
            if not form.is_valid():
                raise form.user_error()
            kind = form.cleaned_data["kind"]
            drafting.hold_review(
                season,
                kind,
                request.user,
                at=form.cleaned_data["at"],
                early=form.cleaned_data["early"],
            )
        except UserError as exc:
            # Refused: the page again with the error, answered 400 as the events pages.
            messages.error(request, str(exc))
            status = 400
        else:
            reaped = sum(
                1
                for row in services.season_compliance(season)["rows"]
                if kind in row.get("reaped_in", ())
            )
            messages.success(
                request,
                ngettext(
                    "Review held: %(review)s. %(n)d player reaped.",
                    "Review held: %(review)s. %(n)d players reaped.",
                    reaped,
                )
                % {"review": _kind_labels().get(kind, kind), "n": reaped},
            )
            return redirect("leagues:staff-reviews", slug=season.slug)
    overview = drafting.reviews_overview(season)
    kinds = _kind_labels()
    for item in overview["held"] + overview["pending"]:
        item["label"] = kinds.get(item["kind"], item["kind"])
    return render(
        request,
        "leagues/staff_reviews.html",
        {
            "season": season,
            "season_perms": request.season_permissions,
            "overview": overview,
            "now": timezone.now(),
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
@season_staff_required(LeaguePermission.MANAGE_DRAFT)
@once
def staff_draft(request, season):
    """Draft: enter the base order (one team id per line) and draw lots among the
    suspended teams."""
    typed, status = None, 200
    if request.method == "POST":
        form = DraftForm(request.POST)
        if form["action"].value() != "draw":
            typed = form["base"].value() or ""  # shown again as typed if refused
        try:
            if not form.is_valid():
                raise form.user_error()
            if form.draws():
                lot = drafting.draw_draft_lots(season, request.user, form.cleaned_data["seed"])
                messages.success(request, _("Lots drawn with seed %(seed)s.") % {"seed": lot.seed})
            else:
                drafting.set_draft_base(season, form.base_lines(), request.user)
                messages.success(request, _("Base order saved."))
        except UserError as exc:
            # Show the page again with what was typed (nothing is lost) and the error.
            messages.error(request, str(exc))
            status = 400
        else:
            return redirect("leagues:staff-draft", slug=season.slug)
    context = _draft_context(season)
    teams = list(season.teams.order_by("id"))
    base = season.draft_base or [t.code for t in teams]
    return render(
        request,
        "leagues/staff_draft.html",
        {
            "season": season,
            "season_perms": request.season_permissions,
            "teams": teams,
            "base_text": typed if typed is not None else "\n".join(base),
            "suspended": [t for t in teams if t.status == "suspended"],
            **context,
        },
        status=status,
    )
