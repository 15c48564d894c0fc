"""Public pages, the player's own pages and account sign-up.

Anonymous public pages are cached per event and language (``events.cache``) and never
personalised, so a burst of visitors at publication hits the cache, not the database.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import (
    headcount,
    results,
    round_clock,
    rulesets,
    security,
    self_service,
    services,
    views_self_service,
)
from events.access import authority_rulesets, user_permissions
from events.forms import SignupForm
from events.models import Event, Person, PlayerClaim, Registration
from events.views_swiss import public_standings
from leagues.models import Season
from standings.services import event_standings
from standings.tables import StandingsTable

LIVE_EVENTS = 3
"""The most events whose current seat my page shows at once."""


def home(request):
    events = list(services.events_with_counts().select_related("organisation")[:50])
    staff_events = list(services.staff_events_for(request.user)[:50])
    return render(
        request,
        "events/home.html",
        {
            "events": events,
            "staff_events": staff_events,
            "organisations": services.organisations_run_by(request.user),
            **_league_links(request.user),
        },
    )


def _league_links(user) -> dict:
    """The league seasons for the home and player pages: the newest seasons, those the
    user runs (a season role; superusers: all) and whether the user plays in a league.
    Three queries."""

    seasons = list(Season.objects.order_by("-created_at")[:20])
    if not user.is_authenticated:
        return {"seasons": seasons, "staff_seasons": [], "plays_in_league": False}
    staff = Season.objects.all() if user.is_superuser else Season.objects.filter(roles__user=user)
    return {
        "seasons": seasons,
        "staff_seasons": list(staff.distinct().order_by("-created_at")[:20]),
        "plays_in_league": user.league_teams.exists(),
    }


def _public_page(request, event: Event, page: str, build):
    """Serve a public page: cached HTML for anonymous visitors, fresh for signed-in ones
    and for a visitor with a flash message waiting (it must not be cached for everyone)."""
    if request.user.is_authenticated or len(messages.get_messages(request)):
        return HttpResponse(build())
    key = page_cache.page_key(event, page, get_language() or "")
    html = page_cache.get_or_build(key, lambda: page_cache.prepare(build()))
    return HttpResponse(page_cache.personalise(html, request))


def _is_staff(request, event) -> bool:
    return bool(user_permissions(request.user, event))


def event_page(request, slug):
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)

    def build():
        rounds = list(event.rounds.order_by("number"))
        winner = None
        counts = headcount.player_counts(event)
        if event.standings_published and any(r.is_final for r in rounds):
            result = event_standings(event)
            winner = next(
                (result.players[r.player].name for r in result.standings.rows if r.winner), None
            )
        elif event.standings_published and any(r.is_top_cut for r in rounds):
            result = event_standings(event)  # Mitos y Leyendas: the top-cut champion
            winner = result.name(result.champion) if result.champion else None
        return render_to_string(
            "events/public_event.html",
            {
                "event": event,
                "winner": winner,
                "rounds": rounds,
                "counts": counts,
                "players": counts.registered,
                "current": rounds[-1] if rounds else None,
                "is_staff": _is_staff(request, event),
                # Anonymous: the same for everyone (the page is cached); signed in: theirs.
                "panel": self_service.registration_panel(event, request.user),
            },
            request=request,
        )

    return _public_page(request, event, "event", build)


def standings_page(request, slug):
    event = get_object_or_404(Event, slug=slug)
    staff = _is_staff(request, event)
    if not event.standings_published and not staff:
        return render(request, "events/not_published.html", {"event": event}, status=200)

    def build():
        if rulesets.of(event).pairs_matches:
            return public_standings(request, event, staff)
        result = event_standings(event)
        table = StandingsTable.from_result(result, request=request, public=True)
        return render_to_string(
            "events/public_standings.html",
            {"event": event, "result": result, "table": table, "is_staff": staff},
            request=request,
        )

    return _public_page(request, event, "standings", build)


def seating_page(request, slug):
    event = get_object_or_404(Event, slug=slug)
    staff = _is_staff(request, event)
    rounds = event.rounds.order_by("-number")
    rnd = rounds.first() if staff else rounds.filter(seating_published=True).first()
    if rnd is None:
        return render(request, "events/not_published.html", {"event": event, "what": "seating"})

    def build():
        return render_to_string(
            "events/public_seating.html",
            {
                "event": event,
                "round": rnd,
                "tables": services.round_overview(rnd),
                "is_staff": staff,
            },
            request=request,
        )

    return _public_page(request, event, "seating", build)


def results_page(request, slug):
    """Every round's tables and results; the public sees only rounds whose seating (MyL:
    pairings) is published, as on the seating page: a round paired but not published yet
    is the staff's (docs/rules-myl.md, "Players enter their own result")."""
    event = get_object_or_404(Event, slug=slug)
    staff = _is_staff(request, event)
    if not event.standings_published and not staff:
        return render(request, "events/not_published.html", {"event": event})

    def build():
        rounds = event.rounds.order_by("number")
        rounds = list(rounds if staff else rounds.filter(seating_published=True))
        return render_to_string(
            "events/public_results.html",
            {
                "event": event,
                "rounds": results.rounds_overview(event, rounds),
                "is_staff": staff,
            },
            request=request,
        )

    return _public_page(request, event, "results", build)


@login_required
def my_page(request):
    person = Person.objects.filter(user=request.user).first()
    registrations = (
        list(
            Registration.objects.filter(person=person)
            .select_related("event")
            .order_by("-event__date")
        )
        if person
        else []
    )
    # The events under way (not approved yet) show the player's seat, polled by htmx
    # (events.views_self_service.my_seat); at most LIVE_EVENTS of them.
    live = [
        views_self_service.seat_box(request, r)
        for r in registrations
        if r.active and not r.event.results_approved
    ][:LIVE_EVENTS]
    return render(
        request,
        "events/my_page.html",
        {
            "person": person,
            # An account not linked yet: the VEKN number it asked for, waiting (docs/players.md).
            "pending_claims": []
            if person
            else list(
                PlayerClaim.objects.filter(
                    user=request.user, status=PlayerClaim.Status.PENDING
                ).values_list("vekn_number", flat=True)
            ),
            "registrations": registrations,
            "live": live,
            "clock_now": round_clock.epoch_ms(timezone.now()),
            "staff_events": services.staff_events_for(request.user),
            # The national authority's page (Organised Play manager, national coordinator).
            "is_authority": bool(authority_rulesets(request.user)),
            **_league_links(request.user),
        },
    )


@login_required
def my_data(request):
    """The signed-in player's own data as a JSON download (``events.security.player_data``):
    account, person record, registrations, every penalty with its reasons, league teams and
    match reports. Never cached: it is personal."""
    document = security.player_data(request.user)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = 'attachment; filename="arbitro-my-data.json"'
    response["Cache-Control"] = "private, no-store"
    return response


def signup(request):
    """A player's account. A VEKN number is never linked at once, whether or not a record
    has it (and the page answers the same either way: it does not tell who holds a
    number): an organiser of the organisation where that person first played before the claim
    confirms it (``people.decidable_claims``). Two sign-ups racing for one username: the
    second gets the form's error, not a server error."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        number = form.cleaned_data["vekn_number"]
        try:
            user, person = _create_account(form, number)
        except IntegrityError:
            if (
                not get_user_model()
                .objects.filter(username__iexact=form.cleaned_data["username"])
                .exists()
            ):
                raise
            form.add_error("username", _("This username was just taken: choose another one."))
            return render(request, "registration/signup.html", {"form": form})
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if number:
            messages.info(
                request,
                _(
                    "Welcome. An organiser of one of your events will confirm that VEKN number "
                    "%(n)s is yours; your events and sanctions then appear here."
                )
                % {"n": number},
            )
        else:
            messages.success(request, _("Welcome, %(name)s.") % {"name": person.name})
        return redirect("my-page")
    return render(request, "registration/signup.html", {"form": form})


def _create_account(form: SignupForm, number: str):
    """Create the account and either its person record (no number) or a pending claim on
    the number, in one transaction: ``(user, person or None)``. ``IntegrityError`` when
    another sign-up took the username in the meantime (nothing is saved then)."""
    with transaction.atomic():
        user = form.save()
        if not number:
            return user, Person.objects.create(name=form.cleaned_data["name"], user=user)
        # A VEKN number is public: whether or not we know it yet, the link waits for an
        # organiser who knows the player (no squatting, no takeover), and an unconfirmed
        # claim creates no player record.
        existing = Person.objects.select_for_update().filter(vekn_number=number).first()
        PlayerClaim.objects.create(
            user=user, person=existing, vekn_number=number, name=form.cleaned_data["name"]
        )
        return user, None


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset by e-mail, throttled (``security.password_reset_allowed``):
    over a limit the form comes back with one message, status 429, and no e-mail is sent.
    The limit counts the address asked for whether or not an account has it, so the
    answer never tells (docs/deploy.md "Security")."""

    def form_valid(self, form):

        if not security.password_reset_allowed(self.request, form.cleaned_data["email"]):
            form.add_error(
                None,
                _(
                    "Too many password-reset e-mails were asked for from here or for this "
                    "address: try again in %(minutes)s minutes."
                )
                % {"minutes": settings.PASSWORD_RESET_LIMIT_MINUTES},
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)
