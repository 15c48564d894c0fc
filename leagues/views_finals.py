"""League final phases, staff actions (issue 5): closing a stage of a knockout
(:func:`leagues.phases.advance_stage`) and the Champagne League draw
(:func:`leagues.cups.champagne_draw`). Thin views: the services check the permissions
again, validate and audit. Each builds its form (:mod:`leagues.forms_staff`) from the
POST: a bad value is shown as the service's errors are (``UserError``); anything else
propagates (logged, 500)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from events.errors import UserError
from leagues import (
    bracket_decisions,
    brackets,
    cups,
    labels,
    phases,
    staff_decisions,
    submissions,
    views,
)
from leagues.access import LeaguePermission, season_permissions, season_staff_required
from leagues.forms_staff import (
    BracketForm,
    ChampagneForm,
    CloseGroupsForm,
    ConfirmStageForm,
    CupBonusForm,
    NucommunityForm,
    TeamOrderForm,
)
from leagues.models import Competition, Season
from leagues.submissions import once


@login_required
@require_POST
@once
def advance_stage(request, slug):
    """League staff close a stage of a knockout: third matches for level ties, else the
    next ties from the winners. No role → 404; a role without ``REVIEW_RESULTS`` → 403
    (raised by the service)."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    back = reverse("leagues:competition", kwargs={"slug": slug}) + "#bracket"
    form = ConfirmStageForm(request.POST)
    try:
        if not form.is_valid():
            raise form.user_error()
        result = phases.advance_stage(competition, request.user, form.cleaned_data["stage"])
    except UserError as exc:
        return views.competition_refused(request, slug, exc)
    if result["third_matches"]:
        messages.success(
            request,
            _("Level on aggregate: third matches created for %(ties)s.")
            % {"ties": ", ".join(result["third_matches"])},
        )
    elif result["created"]:
        messages.success(
            request,
            _("Stage closed: created %(ties)s.") % {"ties": ", ".join(result["created"])},
        )
    else:
        messages.success(request, _("Stage closed: its winners are final."))
    return redirect(back)


@require_http_methods(["GET", "POST"])
@season_staff_required(LeaguePermission.MANAGE_DRAFT)
@once
def staff_champagne(request, season):
    """The Champagne League draw: pots from this season's tables or from pasted ordered
    team ids, then a seeded draw or a live draw typed by hand; creates the group stage."""
    typed, status = {}, 200
    if request.method == "POST":
        form = ChampagneForm(request.POST)
        typed = form.data  # shown again in the inputs, as typed
        try:
            if not form.is_valid():
                raise form.user_error()
            competition, draw = cups.champagne_draw(
                season, request.user, **form.service_arguments()
            )
        except UserError as exc:
            messages.error(request, str(exc))
            status = 400
        else:
            if draw.seed is not None:
                messages.success(
                    request,
                    _("Groups drawn with the seed %(seed)s.") % {"seed": draw.seed},
                )
            else:
                messages.success(request, _("Live draw recorded."))
            return redirect(reverse("leagues:competition", kwargs={"slug": competition.slug}))
    teams = list(season.teams.order_by("id"))
    names = {t.code: t.name for t in teams}
    draws = cups.champagne_draws(season)
    for record in draws:
        record["order_names"] = [
            (i, item["team"], names.get(item["team"], item["team"]), item["group"])
            for i, item in enumerate(record.get("order", []), start=1)
        ]
    return render(
        request,
        "leagues/staff_champagne.html",
        {
            "season": season,
            "season_perms": request.season_permissions,
            "teams": teams,
            "form": typed,
            "draws": draws,
        },
        status=status,
    )


# --------------------------------------------------------------------------- cups
@login_required
@require_POST
@once
def close_group_stage(request, slug):
    """League staff close a cup's group stage: the knockout (and the Conference Lag) are
    created from the group tables (:func:`leagues.cups.close_group_stage`)."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    form = CloseGroupsForm(request.POST)
    try:
        if not form.is_valid():
            raise form.user_error()
        created = cups.close_group_stage(
            competition, request.user, order_across=form.cleaned_data["order_across"]
        )
    except UserError as exc:
        return views.competition_refused(request, slug, exc)
    messages.success(
        request,
        _("Group stage closed: created %(names)s.") % {"names": ", ".join(c.name for c in created)},
    )
    return redirect(reverse("leagues:competition", kwargs={"slug": created[0].slug}))


@require_http_methods(["GET", "POST"])
@season_staff_required(LeaguePermission.MANAGE_DRAFT)
@once
def staff_nucommunity(request, season):
    """The Nucommunity Shit: format (a knockout from a draw, or groups + knockout), a
    seeded draw or a live draw typed by hand; and its bonus-points ledger."""
    typed, status = {}, 200
    if request.method == "POST":
        form = NucommunityForm(request.POST)
        typed = form.data  # shown again in the inputs, as typed
        try:
            if not form.is_valid():
                raise form.user_error()
            competition, _record = cups.nucommunity_create(
                season, request.user, **form.service_arguments()
            )
        except UserError as exc:
            messages.error(request, str(exc))
            status = 400
        else:
            messages.success(request, _("Nucommunity Shit created."))
            return redirect(reverse("leagues:competition", kwargs={"slug": competition.slug}))
    return _nucommunity_page(request, season, request.season_permissions, typed, status=status)


def _nucommunity_page(request, season, perms, typed, *, status=200):
    """The Nucommunity Shit staff page (``typed``: the draw form as sent)."""
    return render(
        request,
        "leagues/staff_nucommunity.html",
        {
            "season": season,
            "season_perms": perms,
            "teams": list(season.teams.order_by("id")),
            "form": typed,
            "draws": [
                {**d, "format_label": labels.nucommunity_format_label(d.get("format", ""))}
                for d in cups.nucommunity_draws(season)
            ],
            "bonus": cups.season_cup_bonus(season),
            "can_bonus": LeaguePermission.MANAGE_COMPLIANCE in perms,
        },
        status=status,
    )


@require_POST
@season_staff_required(LeaguePermission.MANAGE_COMPLIANCE)
@once
def staff_cup_bonus(request, season):
    """League staff enter bonus points of the Nucommunity Shit (user, points, reason)."""
    form = CupBonusForm(request.POST, teams=season.teams.values_list("code", flat=True))
    try:
        if not form.is_valid():
            raise form.user_error()
        entry = cups.add_cup_bonus(
            season,
            request.user,
            team=form.cleaned_data["team"],
            points=form.cleaned_data["points"],
            reason=form.cleaned_data["reason"],
            client_id=submissions.client_id(request),
        )
    except UserError as exc:
        messages.error(request, str(exc))  # the cup's page again, 400
        return _nucommunity_page(request, season, request.season_permissions, {}, status=400)
    if entry.already_saved:
        messages.info(request, submissions.ALREADY_SAVED)
    else:
        messages.success(request, _("Bonus points recorded."))
    return redirect(reverse("leagues:staff-nucommunity", kwargs={"slug": season.slug}) + "#bonus")


# --------------------------------------------------------------------------- overrides
def _bracket_action(request, slug, action, success):
    """Build the :class:`leagues.forms_staff.BracketForm`, then ``action(competition,
    data)`` (its cleaned data); a ``UserError`` of either is shown, then back to the
    bracket page at the tie."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    form = BracketForm(request.POST)
    valid = form.is_valid()
    tie = form.cleaned_data.get("tie", "")
    try:
        if not valid:
            raise form.user_error()
        action(competition, form)
    except UserError as exc:
        # Refused: the brackets page again with the message, 400 (as the events pages).
        messages.error(request, str(exc))
        perms = season_permissions(request.user, competition.season)
        return _brackets_page(request, competition.season, perms, slug, status=400)
    messages.success(request, success)
    anchor = f"#tie-{tie}" if tie else ""
    back = reverse("leagues:staff-brackets", kwargs={"slug": competition.season.slug})
    return redirect(f"{back}?c={slug}{anchor}")


@login_required
@require_POST
@once
def bracket_slot(request, slug):
    """League staff set a slot of a tie without matches by hand (with a reason)."""
    return _bracket_action(
        request,
        slug,
        lambda c, form: bracket_decisions.set_bracket_slot(
            c,
            request.user,
            tie=form.cleaned_data["tie"],
            side=form.cleaned_data["side"],
            team=form.cleaned_data["team"],
            reason=form.cleaned_data["reason"],
        ),
        _("Slot saved."),
    )


@login_required
@require_POST
@once
def bracket_award(request, slug):
    """The tribunal awards a tie (ANFPES T24 §III.2), with a reason."""
    return _bracket_action(
        request,
        slug,
        lambda c, form: bracket_decisions.award_tie(
            c,
            request.user,
            tie=form.cleaned_data["tie"],
            team=form.cleaned_data["team"],
            reason=form.cleaned_data["reason"],
        ),
        _("Award saved."),
    )


@login_required
@require_POST
@once
def bracket_pause(request, slug):
    """League staff pause a tie pending the tribunal (``paused=yes``); the tribunal
    unpauses it (``paused=no``); with a reason (:func:`leagues.bracket_decisions.
    pause_tie`, which checks each permission)."""

    def action(competition, form):
        bracket_decisions.pause_tie(
            competition,
            request.user,
            tie=form.cleaned_data["tie"],
            paused=form.paused_on(),
            reason=form.cleaned_data["reason"],
        )

    return _bracket_action(request, slug, action, _("Tie pause saved."))


@login_required
@require_POST
@once
def bracket_third_home(request, slug):
    """League staff choose the home side of a third match, with a reason."""
    return _bracket_action(
        request,
        slug,
        lambda c, form: bracket_decisions.set_third_match_home(
            c,
            request.user,
            tie=form.cleaned_data["tie"],
            team=form.cleaned_data["team"],
            reason=form.cleaned_data["reason"],
        ),
        _("Third match host saved."),
    )


@login_required
@require_POST
@once
def bracket_final_four(request, slug):
    """League staff switch Primera A's Final Four on or off (§1.1.6), with a reason."""
    return _bracket_action(
        request,
        slug,
        lambda c, form: bracket_decisions.set_final_four(
            c, request.user, final_four=form.final_four_on(), reason=form.cleaned_data["reason"]
        ),
        _("Final Four setting saved."),
    )


@login_required
@require_POST
@once
def relegation(request, slug):
    """League staff record the teams relegated directly from Primera A after abandonments
    (§1.2.2), from any competition page of the season."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    form = TeamOrderForm(request.POST)
    try:
        if not form.is_valid():
            raise form.user_error()
        bracket_decisions.set_relegation(
            competition.season,
            request.user,
            teams=form.cleaned_data["teams"],
            reason=form.cleaned_data["reason"],
        )
    except UserError as exc:
        messages.error(request, str(exc))  # the brackets page again, 400
        perms = season_permissions(request.user, competition.season)
        return _brackets_page(request, competition.season, perms, status=400)
    messages.success(request, _("Relegation list saved."))
    back = reverse("leagues:staff-brackets", kwargs={"slug": competition.season.slug})
    return redirect(back + "#relegation")


def cup_bonus_page(request, slug):
    """Public: the Nucommunity Shit bonus points per user, with what reaped users lost
    (:func:`leagues.cups.season_cup_bonus`: the net totals), and the ledger entry by
    entry with each reason (:func:`leagues.cups.cup_bonus_ledger`: corrections shown,
    not netted); linked from the season page."""

    season = get_object_or_404(Season, slug=slug)
    return render(
        request,
        "leagues/cup_bonus.html",
        {
            "season": season,
            "rows": cups.season_cup_bonus(season),
            "ledger": cups.cup_bonus_ledger(season),
        },
    )


@require_http_methods(["GET"])
@season_staff_required(LeaguePermission.VIEW_STAFF_PAGES)
def staff_brackets(request, season):
    """Staff decisions on the season's knockouts, one bracket at a time (``?c=<slug>``):
    set a slot by hand and choose a third match's host (league staff), award a tie (the
    tribunal), and the Primera A relegation list after abandonments (league staff)."""
    return _brackets_page(request, season, request.season_permissions, request.GET.get("c"))


def _brackets_page(request, season, perms, chosen=None, *, status=200):
    """The staff brackets page on the knockout ``chosen`` (a slug; the first one if
    ``None``); ``status`` 400 when a form of it was refused."""
    knockouts = list(
        season.competitions.filter(kind=Competition.Kind.KNOCKOUT).order_by("position", "id")
    )
    current = next((c for c in knockouts if c.slug == chosen), None)
    current = current or (knockouts[0] if knockouts else None)
    bracket = None
    if current is not None:
        doc = brackets.competition_bracket(current)
        bracket = {"doc": doc, "stages": brackets.bracket_display(doc)}
    teams = list(season.teams.order_by("id"))
    primera_a, relegation = None, None
    if LeaguePermission.REVIEW_RESULTS in perms:
        primera_a = next(
            (c for c in season.competitions.all() if brackets.division_of(c) == brackets.PRIMERA_A),
            None,
        )
        if primera_a is not None:
            relegation = staff_decisions.relegation(primera_a)
    return render(
        request,
        "leagues/staff_brackets.html",
        {
            "season": season,
            "season_perms": perms,
            "knockouts": knockouts,
            "competition": current,
            "bracket": bracket,
            "teams": teams,
            "can_override": LeaguePermission.REVIEW_RESULTS in perms,
            "can_award": LeaguePermission.DECIDE_SANCTIONS in perms,
            "primera_a": primera_a,
            "relegation": relegation,
            "final_four": current is not None and brackets.final_four_of(current),
            "has_a_semi_finals": bracket is not None
            and any(t["stage"] == "a_semi_finals" for t in bracket["doc"]["ties"]),
        },
        status=status,
    )
