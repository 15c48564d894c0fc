"""The match page (``/competitions/<slug>/matches/<id>/``) and the actions on it: the
players report, confirm, dispute or withdraw a result, ask for an excuse, concede the
compliance points; league staff resolve reports, correct results and decide excuses
(the tribunal's forms come from ``leagues.views_staff``).

Public: the result and the screenshots of accepted reports. The two players and the
season's staff also see open reports, dispute texts, staff reasons and the excuse with its
evidence.
Views are thin: :mod:`leagues.reporting` checks, saves and audits; a ``UserError`` is shown
on the page with the form as it was sent (nothing is lost), ``PermissionDenied`` is a 403.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.errors import UserError
from leagues import brackets, phases, reporting, squads, staff_decisions, suspensions
from leagues.access import LeaguePermission, season_permissions
from leagues.forms import (
    CorrectForm,
    DisputeForm,
    ExcuseForm,
    ReportForm,
    ResolveForm,
    YesNoForm,
)
from leagues.models import Concession, Excuse, ExcuseImage, Match, ResultReport
from leagues.submissions import once
from leagues.views_scheduling import schedule_context

ACCEPTED = (ResultReport.Status.CONFIRMED, ResultReport.Status.RESOLVED)
MEDIA_TYPES = {"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


def _match(slug, code) -> Match:
    return get_object_or_404(
        Match.objects.select_related("competition__season", "home__user", "away__user"),
        competition__slug=slug,
        code=code,
    )


def match_url(match: Match) -> str:
    return reverse("leagues:match", kwargs={"slug": match.competition.slug, "code": match.code})


def _page(request, match: Match, *, status=200, **forms):
    """Render the match page; ``forms`` replace the blank forms (a bound form with its
    errors after a failed POST)."""
    season = match.competition.season
    perms = season_permissions(request.user, season)
    side = reporting.side_of(request.user, match)
    private = side is not None or bool(perms)
    reports = list(match.reports.select_related("team", "responded_by", "resolved_by"))
    open_report = next((r for r in reports if r.is_open), None)
    if not private:
        # The public sees an accepted report's score and screenshot; its dispute text and
        # the staff's reason stay with the two players and staff (docs/leagues.md).
        reports = [r for r in reports if r.status in ACCEPTED]
        for r in reports:
            r.dispute_reason = r.resolution = ""
    excuse = Excuse.objects.filter(match=match).select_related("team").first()
    concession = Concession.objects.filter(match=match).select_related("team").first()
    scheduled = match.status == Match.Status.SCHEDULED
    own_team = {"home": match.home, "away": match.away}.get(side)
    zone = season.time_zone
    can_review = LeaguePermission.REVIEW_RESULTS in perms
    # A leg of a tie the tribunal awarded (leagues.bracket_decisions.award_tie): not to be played.
    awarded_to = staff_decisions.awards(match.competition).get(match.tie)
    awarded_name = {match.home.code: match.home.name, match.away.code: match.away.name}.get(
        awarded_to
    )

    flags = []
    if match.competition.kind == "knockout" and private:
        flags = suspensions.suspension_flags(season, match=match)
    final_phase = brackets.is_league_final_phase(match.competition)
    # A closed regular phase is frozen (phases.ensure_regular_phase_open): no staff form.
    phase_closed = can_review and phases.regular_phase_closed(match.competition)
    stream_rule = _stream_rule(match, final_phase)
    compliance = match.competition.counts_for_compliance
    context = {
        "final_phase": final_phase,
        "stream_required": stream_rule == "required",
        "played_without_stream": brackets.played_without_stream(match, final_phase=final_phase),
        "counts_for_compliance": compliance,
        "can_fix_stream": bool(
            {LeaguePermission.REVIEW_RESULTS, LeaguePermission.DECIDE_SANCTIONS} & perms
        ),
        "suspension_flags": flags,
        "tie_awarded_to": awarded_name if match.tie else None,
        "match": match,
        "competition": match.competition,
        "season": season,
        "season_perms": perms,
        "side": side,
        "own_team": own_team,
        "private": private,
        "reports": reports,
        "open_report": open_report if private else None,
        "bookings_screenshot_missing": bool(
            private and open_report and reporting.bookings_screenshot_missing(open_report)
        ),
        "excuse": excuse if private else None,
        "excuse_effective": bool(excuse and excuse.effective),
        "concession": concession,
        "can_review": can_review,
        "can_decide_excuse": LeaguePermission.MANAGE_COMPLIANCE in perms,
        "report_form": (
            forms.get("report_form")
            or ReportForm(zone=zone, decider=reporting.is_decider(match), stream=stream_rule)
        )
        if side and scheduled and not open_report
        else None,
        "dispute_form": forms.get("dispute_form") or DisputeForm(),
        "resolve_form": forms.get("resolve_form")
        or (
            ResolveForm(zone=zone, decider=reporting.is_decider(match))
            if can_review and open_report
            else None
        ),
        "correct_form": forms.get("correct_form")
        or (
            CorrectForm(
                zone=zone,
                knockout=match.competition.kind == "knockout",
                initial={"home_goals": match.home_goals, "away_goals": match.away_goals},
            )
            if can_review
            and not phase_closed
            and match.status in (Match.Status.PLAYED, Match.Status.SCHEDULED)
            and not open_report
            else None
        ),
        "phase_closed": phase_closed,
        "excuse_form": forms.get("excuse_form")
        or (
            ExcuseForm()
            if side
            and scheduled
            and compliance
            and (excuse is None or "no" in (excuse.opponent_answer, excuse.staff_answer))
            else None
        ),
        "error": forms.get("error"),
        # The report form picks footballers from the squads; staff see the names that are
        # not in them (docs/leagues.md "Squads").
        "squads": squads.match_squads(match) if side and scheduled and not open_report else {},
        "unlisted": squads.unlisted(open_report.cards, open_report.lineup)
        if private and open_report and (can_review or LeaguePermission.VIEW_STAFF_PAGES in perms)
        else [],
    }
    # Proposing and agreeing the match time (docs/leagues.md "Scheduling a fixture").
    context.update(schedule_context(request, match))
    return render(request, "leagues/match.html", context, status=status)


def _stream_rule(match: Match, final_phase: bool) -> str:
    """How the report form asks for the stream link (``ReportForm.STREAM_RULES``): required
    in a league final phase (ANFPES T24 §1.4 ¶5) and on a must-stream fixture (§1.4 ¶6),
    encouraged in other knockouts (cups, §2.2), not asked otherwise."""

    if brackets.requires_stream(match, final_phase=final_phase):
        return "required"
    if match.competition.kind == "knockout":
        return "encouraged"
    return "none"


def match_page(request, slug, code):
    return _page(request, _match(slug, code))


def _done(request, match, message):
    messages.success(request, message)
    return redirect(match_url(match))


def _failed(request, match, exc: UserError, **forms):
    """Show the service's error on the page, keeping what the user sent."""
    return _page(request, match, status=400, error=str(exc), **forms)


def refused(request, match: Match, exc: UserError):
    """The match page again with ``exc`` shown, answered 400: a staff or tribunal form of
    the match page refused (:mod:`leagues.views_staff`), as the players' forms are."""
    return _failed(request, match, exc)


@login_required
@require_POST
def report(request, slug, code):
    match = _match(slug, code)

    form = ReportForm(
        request.POST,
        request.FILES,
        zone=match.competition.season.time_zone,
        decider=reporting.is_decider(match),
        stream=_stream_rule(match, brackets.is_league_final_phase(match.competition)),
    )
    if match.status != Match.Status.SCHEDULED:
        return _failed(
            request,
            match,
            UserError(
                _("This match already has a result (%(status)s).")
                % {"status": match.get_status_display()}
            ),
        )
    if not form.is_valid():
        return _page(request, match, status=400, report_form=form)
    try:
        reporting.report_result(match, request.user, **form.service_arguments())
    except UserError as exc:
        return _failed(request, match, exc, report_form=form)
    return _done(request, match, _("Result sent. Your opponent has to confirm it."))


def _report(match, pk) -> ResultReport:
    return get_object_or_404(ResultReport, match=match, pk=pk)


@login_required
@require_POST
def report_confirm(request, slug, code, pk):
    match = _match(slug, code)
    try:
        reporting.confirm_report(_report(match, pk), request.user)
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Result confirmed."))


@login_required
@require_POST
def report_dispute(request, slug, code, pk):
    match = _match(slug, code)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _page(request, match, status=400, dispute_form=form)
    try:
        reporting.dispute_report(_report(match, pk), request.user, form.cleaned_data["reason"])
    except UserError as exc:
        return _failed(request, match, exc, dispute_form=form)
    return _done(request, match, _("Result disputed. League staff will decide."))


@login_required
@require_POST
def report_withdraw(request, slug, code, pk):
    match = _match(slug, code)
    try:
        reporting.withdraw_report(_report(match, pk), request.user)
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Report withdrawn."))


@login_required
@require_POST
@once
def report_resolve(request, slug, code, pk):
    match = _match(slug, code)
    if LeaguePermission.REVIEW_RESULTS not in season_permissions(
        request.user, match.competition.season
    ):
        raise PermissionDenied
    form = ResolveForm(
        request.POST,
        zone=match.competition.season.time_zone,
        decider=reporting.is_decider(match),
    )
    if not form.is_valid():
        return _page(request, match, status=400, resolve_form=form)
    try:
        reporting.resolve_report(_report(match, pk), request.user, **form.service_arguments())
    except UserError as exc:
        return _failed(request, match, exc, resolve_form=form)
    return _done(request, match, _("Decision saved."))


@login_required
@require_POST
@once
def correct(request, slug, code):
    match = _match(slug, code)
    if LeaguePermission.REVIEW_RESULTS not in season_permissions(
        request.user, match.competition.season
    ):
        raise PermissionDenied
    form = CorrectForm(
        request.POST,
        zone=match.competition.season.time_zone,
        knockout=match.competition.kind == "knockout",
    )
    if not form.is_valid():
        return _page(request, match, status=400, correct_form=form)
    try:
        reporting.correct_result(match, request.user, **form.service_arguments())
    except UserError as exc:
        return _failed(request, match, exc, correct_form=form)
    return _done(request, match, _("Result saved."))


@login_required
@require_POST
def excuse_request(request, slug, code):
    match = _match(slug, code)
    form = ExcuseForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, match, status=400, excuse_form=form)
    try:
        reporting.request_excuse(match, request.user, **form.cleaned_data)
    except UserError as exc:
        return _failed(request, match, exc, excuse_form=form)
    return _done(request, match, _("Excuse asked. Your opponent and league staff will answer."))


def _excuse(match) -> Excuse:
    return get_object_or_404(Excuse, match=match)


@login_required
@require_POST
def excuse_answer(request, slug, code):
    match = _match(slug, code)
    form = YesNoForm(request.POST)
    agree = form.is_valid() and form.cleaned_data["agree"]  # anything but "yes" is no
    try:
        reporting.answer_excuse(_excuse(match), request.user, agree)
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Answer saved."))


@login_required
@require_POST
@once
def excuse_decide(request, slug, code):
    match = _match(slug, code)
    form = YesNoForm(request.POST)
    approve = form.is_valid() and form.cleaned_data["approve"]  # anything but "yes" is no
    try:
        reporting.decide_excuse(_excuse(match), request.user, approve)
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Decision saved."))


@login_required
@require_POST
def concede(request, slug, code):
    match = _match(slug, code)
    try:
        reporting.concede(match, request.user)
    except UserError as exc:
        return _failed(request, match, exc)
    return _done(request, match, _("Compliance points conceded."))


def _image(field, *, public: bool):
    name = field.name
    ext = name.rsplit(".", 1)[-1].lower()
    try:
        handle = field.storage.open(name, "rb")
    except (FileNotFoundError, OSError):
        raise Http404("The image is missing") from None
    response = FileResponse(handle, content_type=MEDIA_TYPES.get(ext, "application/octet-stream"))
    response["Cache-Control"] = "public, max-age=86400" if public else "private, max-age=600"
    response["Content-Security-Policy"] = "default-src 'none'; img-src 'self'"
    return response


def report_screenshot(request, slug, code, pk):
    """The screenshot of a report: public once the report was accepted (it is the
    result's evidence), else only for the two players and the season's staff (404).
    ``?image=bookings``: its bookings screenshot instead (ANFPES T24 §1.4; 404 when the
    report has none)."""
    match = _match(slug, code)
    item = _report(match, pk)
    public = item.status in ACCEPTED
    if not public and not reporting.can_view_private(request.user, match):
        raise Http404("No such screenshot")
    if request.GET.get("image") == "bookings":
        if not item.bookings_screenshot:
            raise Http404("No bookings screenshot")
        return _image(item.bookings_screenshot, public=public)
    return _image(item.screenshot, public=public)


def excuse_evidence(request, slug, code):
    """The evidence of an excuse: only the two players and the season's staff. ``?n=2``…:
    its ``n``-th image (``ExcuseImage.position``; 404 when there is none)."""
    match = _match(slug, code)
    if not reporting.can_view_private(request.user, match):
        raise Http404("No such file")
    excuse = _excuse(match)
    n = request.GET.get("n", "1")
    if n == "1":
        return _image(excuse.evidence, public=False)
    if not n.isdigit() or len(n) > 2:
        raise Http404("No such file")
    item = get_object_or_404(ExcuseImage, excuse=excuse, position=int(n))
    return _image(item.image, public=False)
