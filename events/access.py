"""Access helpers: fetch an event (or an object of it) *and* check the user's permission
in one call, answering 404 to outsiders (pattern: healthchecks ``hc/front/views.py``).

- anonymous user on a staff page → redirect to the login page;
- signed-in user with no role on the event → 404 (the page does not exist for them);
- staff of the event without the needed permission → 403.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, Value
from django.http import Http404
from django.shortcuts import get_object_or_404

from events.models import AuthorityRole, Event, EventRole, Organisation, OrganisationRole, Ruleset
from events.permissions import Permission, Role, permissions_for

AUTHORITY = "__authority__"
"""Marker row of the permissions query: the user is the event's ruleset's authority."""


def authority_rulesets(user) -> frozenset[str]:
    """The rulesets ``user`` is the national authority of (``AuthorityRole``; superusers:
    every ruleset). Cached on the user object for the request."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    if user.is_superuser:
        return frozenset(Ruleset.values)
    if "_authority_rulesets" not in user.__dict__:
        user.__dict__["_authority_rulesets"] = frozenset(
            AuthorityRole.objects.filter(user=user).values_list("ruleset", flat=True)
        )
    return user.__dict__["_authority_rulesets"]


def user_permissions(user, event: Event) -> frozenset[Permission]:
    """Permissions ``user`` holds on ``event``: the union of their event and organisation
    roles, plus the national authority's (``events.permissions.permissions_for``: it sees
    the staff pages of its ruleset's events and decides their appeals, except where it
    holds a staff role). One query; cached on the user object for the request."""
    if not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset(Permission)
    cache = user.__dict__.setdefault("_event_permissions", {})
    if event.pk not in cache:
        rows = (
            EventRole.objects.filter(event=event, user=user)
            .order_by()
            .values_list("role", flat=True)
            .union(
                OrganisationRole.objects.filter(organisation_id=event.organisation_id, user=user)
                .order_by()
                .values_list("role", flat=True),
                AuthorityRole.objects.filter(user=user, ruleset=event.ruleset)
                .order_by()
                .values_list(Value(AUTHORITY, output_field=CharField()), flat=True),
            )
        )
        roles = set(rows)
        authority = AUTHORITY in roles
        roles.discard(AUTHORITY)
        cache[event.pk] = permissions_for(roles, authority=authority)
    return cache[event.pk]


def holds_staff_role(user, event: Event) -> bool:
    """Whether ``user`` holds any staff role on ``event`` (on the event or on its
    organisation): such a user never decides the event's appeals (issue 12)."""
    return (
        EventRole.objects.filter(event=event, user=user).exists()
        or OrganisationRole.objects.filter(
            organisation_id=event.organisation_id, user=user
        ).exists()
    )


def may_decide_appeals(user, event: Event) -> bool:
    """Superusers, or the authority of the event's ruleset holding no staff role on it
    (MyL conduct rules §4.5: the national Organised Play manager; issue 12)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return event.ruleset in authority_rulesets(user) and not holds_staff_role(user, event)


def staff_required(permission: Permission):
    """Decorator for event-scoped staff views: ``view(request, event, **kwargs)``.

    Resolves ``slug`` once, sets ``request.event`` and ``request.event_permissions``.
    """

    def decorator(view):
        @wraps(view)
        def wrapped(request, slug, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
            perms = user_permissions(request.user, event)
            if not perms:
                raise Http404("No such event")
            if permission not in perms:
                raise PermissionDenied
            request.event = event
            request.event_permissions = perms
            return view(request, event, *args, **kwargs)

        wrapped.required_permission = permission
        return wrapped

    return decorator


def organisation_organiser_required(view):
    """Decorator for organisation-level pages (create an event): organisers of the
    organisation (or superusers) only; others get 404."""

    @wraps(view)
    def wrapped(request, org_slug, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        org = get_object_or_404(Organisation, slug=org_slug)
        if not (
            request.user.is_superuser
            or OrganisationRole.objects.filter(
                organisation=org, user=request.user, role=Role.ORGANISER
            ).exists()
        ):
            raise Http404("No such organisation")
        return view(request, org, *args, **kwargs)

    return wrapped


def round_or_404(event, number: int):
    """Round ``number`` of ``event``; ``Http404`` when it has none."""
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404("No such round")
    return rnd
