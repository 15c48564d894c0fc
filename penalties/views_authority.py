"""The national authority's page (issue 12): the sanctions of its ruleset(s) waiting for
confirmation from every organisation's events, the confirmed live ones, and for VEKN the
confirmed disqualifications it may escalate. Only authorities (``events.AuthorityRole``)
and superusers: anonymous → login, anyone else → 404 (the page does not exist for them).
Thin: a form cleans the input, ``penalties.authority`` acts and audits."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from events.access import authority_rulesets
from events.errors import UserError
from events.models import Ruleset
from events.permissions import AUTHORITIES
from penalties import authority
from penalties.forms import AuthorityActionForm
from penalties.myl_services import pending_written_appeals_for


def sanctions(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not authority_rulesets(request.user):
        raise Http404("No such page")
    if request.method == "POST":
        form = AuthorityActionForm(request.POST)
        if form.is_valid():
            _act(request, form.cleaned_data)
        else:
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
        return redirect("authority-sanctions")
    lists = authority.authority_lists(request.user)
    labels = dict(Ruleset.choices)
    sections = [
        {
            "ruleset": code,
            "label": labels[code],
            "title": AUTHORITIES[code].title,
            **entry,
        }
        for code, entry in lists.items()
    ]
    return render(
        request,
        "penalties/authority.html",
        {
            "sections": sections,
            "appeals": list(pending_written_appeals_for(request.user)[:50]),
            "form": AuthorityActionForm(),
        },
    )


def _act(request, data) -> None:
    action = data["action"]
    try:
        if action == AuthorityActionForm.CONFIRM:
            outcome = authority.confirm_sanction(
                data["sanction"], request.user, expected=data.get("expected") or None
            )
            done, already = _("Confirmed."), _("It was already confirmed.")
        elif action == AuthorityActionForm.LIFT:
            outcome = authority.lift_sanction(data["sanction"], data["reason"], request.user)
            done, already = _("Lifted."), _("It was already lifted.")
        else:
            outcome = authority.escalate_disqualification(
                data["penalty"],
                kind=data["kind"],
                reason=data["reason"],
                starts_on=data.get("starts_on"),
                ends_on=data.get("ends_on"),
                actor=request.user,
            )
            done, already = _("Escalated."), _("It was already escalated.")
    except UserError as exc:
        messages.error(request, str(exc))
        return
    if outcome.changed:
        messages.success(request, done)
    else:
        messages.info(request, already)
