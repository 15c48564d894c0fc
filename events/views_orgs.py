"""Organisation pages: the organisations I belong to, creating one, and its organisers
(added by username or e-mail, removed, never the last). Views only read forms, call
``events.staffing`` and render; who may do what is docs/organisations.md."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import staffing
from events.access import organisation_organiser_required
from events.errors import UserError
from events.forms import AccountForm, OrganisationForm
from events.models import OrganisationRole
from events.permissions import Role


def _page(org):
    return redirect("organisation", org_slug=org.slug)


@login_required
def organisations(request):
    """The organisations the signed-in user holds a role in, and the way to create one."""
    return render(
        request,
        "organisations/list.html",
        {
            "organisations": staffing.organisations_of(request.user),
            "organiser_of": set(
                OrganisationRole.objects.filter(user=request.user, role=Role.ORGANISER).values_list(
                    "organisation_id", flat=True
                )
            ),
            "limit": staffing.MAX_FOUNDED_ORGANISATIONS,
        },
    )


@login_required
def organisation_create(request):
    """Create an organisation; its creator becomes its first organiser."""
    form = OrganisationForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            org, created = staffing.create_organisation(
                name=data["name"], slug=data["slug"], kind=data["kind"], founder=request.user
            )
        except UserError as exc:
            form.add_error(exc.field or None, exc.message)
        else:
            if created:
                messages.success(
                    request,
                    _("%(org)s created: you are its organiser.") % {"org": org.name},
                )
            else:
                messages.info(request, _("%(org)s was already created.") % {"org": org.name})
            return _page(org)
    return render(
        request,
        "organisations/create.html",
        {"form": form, "limit": staffing.MAX_FOUNDED_ORGANISATIONS},
    )


def _detail(request, org, form, status=200):
    return render(
        request,
        "organisations/detail.html",
        {
            "organisation": org,
            "roles": staffing.organisation_roles(org),
            "form": form,
            "events": org.events.order_by("-date", "name")[:50],
            "history": staffing.organisation_history(org),
        },
        status=status,
    )


@organisation_organiser_required
def organisation(request, org):
    """The organisation's page, for its organisers: organisers, events, history."""
    return _detail(request, org, AccountForm())


@organisation_organiser_required
@require_POST
def organiser_add(request, org):
    """Make an account an organiser of the organisation (username or e-mail)."""
    form = AccountForm(request.POST, actor=request.user)
    if not form.is_valid():
        return _detail(request, org, form, status=400)
    user = form.cleaned_data["username"]
    try:
        created = staffing.add_organiser(org, user, request.user)
    except UserError as exc:
        form.add_error(None, exc.message)
        return _detail(request, org, form, status=400)
    if created:
        messages.success(request, _("%(name)s is now an organiser.") % {"name": user.username})
    else:
        messages.info(request, _("%(name)s is already an organiser.") % {"name": user.username})
    return _page(org)


@organisation_organiser_required
@require_POST
def organisation_role_remove(request, org, role_id):
    """Remove a role of the organisation; never its last organiser."""
    try:
        removed = staffing.remove_organisation_role(org, role_id, request.user)
    except UserError as exc:
        messages.error(request, str(exc))
        return _page(org)
    if removed is None:
        messages.info(request, _("This role was already removed."))
        return _page(org)
    messages.success(
        request,
        _("%(name)s is no longer %(role)s of %(org)s.")
        % {"name": removed.user.username, "role": removed.get_role_display(), "org": org.name},
    )
    if not staffing.is_organiser(request.user, org):
        return redirect("organisations")  # they removed themselves
    return _page(org)
