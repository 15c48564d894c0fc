"""Access helpers: fetch an event (or an object of it) *and* check the user's permission
in one call, answering 404 to outsiders (pattern: healthchecks ``hc/front/views.py``).

- anonymous user on a staff page → redirect to the login page;
- signed-in user with no role on the event → 404 (the page does not exist for them);
- staff of the event without the needed permission → 403.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from events.models import Event, EventRole, OrganisationRole
from events.permissions import Permission, permissions_for_roles


def user_permissions(user, event: Event) -> frozenset[Permission]:
    """Permissions ``user`` holds on ``event`` (union of event and organisation roles).
    Cached on the user object for the request."""
    if not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset(Permission)
    cache = user.__dict__.setdefault("_event_permissions", {})
    if event.pk not in cache:
        roles = set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))
        roles |= set(
            OrganisationRole.objects.filter(
                organisation_id=event.organisation_id, user=user
            ).values_list("role", flat=True)
        )
        cache[event.pk] = permissions_for_roles(roles)
    return cache[event.pk]


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
    from events.models import Organisation
    from events.permissions import Role

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
