"""League final phases, staff actions (issue 5): closing a stage of a knockout
(:func:`leagues.finals.advance_stage`) and the Champagne League draw
(:func:`leagues.finals.champagne_draw`). Thin views: the services check the permissions
again, validate and audit."""

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from events.errors import UserError
from leagues import finals
from leagues.access import LeaguePermission, season_permissions, season_staff_required
from leagues.models import Competition


@login_required
@require_POST
def advance_stage(request, slug):
    """League staff close a stage of a knockout: third matches for level ties, else the
    next ties from the winners. No role → 404; a role without ``REVIEW_RESULTS`` → 403
    (raised by the service)."""
    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if not season_permissions(request.user, competition.season):
        raise Http404("No such competition")
    back = reverse("leagues:competition", kwargs={"slug": slug}) + "#bracket"
    try:
        if not request.POST.get("confirm"):
            raise UserError(_("Tick the confirmation to close the stage."))
        result = finals.advance_stage(competition, request.user, request.POST.get("stage", ""))
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect(back)
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


def _date(value: str):
    value = (value or "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UserError(_("The start date must be written YYYY-MM-DD.")) from None


@require_http_methods(["GET", "POST"])
@season_staff_required(LeaguePermission.MANAGE_DRAFT)
def staff_champagne(request, season):
    """The Champagne League draw: pots from this season's tables or from pasted ordered
    team ids, then a seeded draw or a live draw typed by hand; creates the group stage."""
    form, status = {}, 200
    if request.method == "POST":
        form = request.POST
        try:
            order = []
            if form.get("method") == "manual":
                order = finals.parse_draw_order(form.get("order", ""))
            legs = 1 if form.get("legs") == "1" else 2
            competition, draw = finals.champagne_draw(
                season,
                request.user,
                base=form.get("base", ""),
                primera_a=form.get("primera_a", ""),
                primera_b=form.get("primera_b", ""),
                newcomers=form.get("newcomers", ""),
                method=form.get("method", ""),
                seed=form.get("seed"),
                order=order,
                slug=form.get("slug", "").strip() or None,
                name=form.get("name", "").strip() or None,
                legs=legs,
                start=_date(form.get("start", "")),
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
    draws = finals.champagne_draws(season)
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
            "form": form,
            "draws": draws,
        },
        status=status,
    )
