"""Staff pages that keep an event's players (``events.roster``; for organisers:
``docs/organisers.md``): one registration (correct, remove, merge two records), a list
pasted or uploaded (preview, then confirm), and checking everybody in (confirm, undo).
Views read input through forms, call one service and render."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import player_lists, roster
from events.access import staff_required
from events.errors import UserError
from events.forms import (
    ConfirmForm,
    EditRegistrationForm,
    MergeForm,
    PlayerListConfirmForm,
    PlayerListForm,
)
from events.models import Registration
from events.permissions import Permission as P


def _players(event):
    return redirect(reverse("manage:players", kwargs={"slug": event.slug}))


def _registration(event, reg_id) -> Registration:
    """A registration of ``event`` (404 for another event's)."""
    return get_object_or_404(
        Registration.objects.select_related("person", "event__organisation"),
        pk=reg_id,
        event=event,
    )


def _form_errors(form) -> list[str]:
    return [str(e) for e in form.non_field_errors()] + [
        str(e) for name, errs in form.errors.items() if name != "__all__" for e in errs
    ]


# ---------------------------------------------------------------- one registration
@staff_required(P.MANAGE_PLAYERS)
def registration(request, event, reg_id):
    """Correct a registration's name and number (GET: the page; POST: save)."""
    reg = _registration(event, reg_id)
    form = EditRegistrationForm(
        request.POST or None,
        ruleset=event.ruleset,
        initial={
            "name": reg.person.name,
            "first_name": reg.person.first_name,
            "last_name": reg.person.last_name,
            "vekn_number": reg.person.vekn_number,
        },
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                data = form.cleaned_data
                roster.edit_registration(
                    reg,
                    data["name"],
                    data["vekn_number"],
                    request.user,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                )
            except UserError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, _("Player corrected."))
                return _players(event)
        status = 400
    return render(
        request, "manage/registration.html", _context(request, event, reg, form), status=status
    )


def _context(request, event, reg, form=None, merge_form=None):
    may_merge = P.EDIT_EVENT in request.event_permissions
    candidates = roster.merge_candidates(reg) if may_merge else []
    return {
        "event": event,
        "r": reg,
        "form": form or EditRegistrationForm(ruleset=event.ruleset),
        "removal_refusal": roster.removal_refusal(reg),
        "may_merge": may_merge,
        "merge_form": merge_form or MergeForm(candidates=candidates),
        "namesakes": roster.namesakes(reg.person.name, event, exclude=[reg.person_id])
        if may_merge
        else [],
        "perms": request.event_permissions,
        "P": P,
    }


@staff_required(P.MANAGE_PLAYERS)
@require_POST
def registration_remove(request, event, reg_id):
    reg = _registration(event, reg_id)
    if not ConfirmForm(request.POST).is_valid():
        messages.error(request, _("Tick the box to confirm."))
        return redirect("manage:registration", slug=event.slug, reg_id=reg.pk)
    name = reg.person.name
    try:
        roster.remove_registration(reg, request.user)
    except UserError as exc:
        messages.error(request, exc.message)
        return redirect("manage:registration", slug=event.slug, reg_id=reg.pk)
    messages.success(request, _("%(name)s removed from the event.") % {"name": name})
    return _players(event)


@staff_required(P.EDIT_EVENT)
@require_POST
def registration_merge(request, event, reg_id):
    reg = _registration(event, reg_id)
    form = MergeForm(request.POST, candidates=roster.merge_candidates(reg))
    if not form.is_valid():
        messages.error(request, _("Choose the other record of this player."))
        return redirect("manage:registration", slug=event.slug, reg_id=reg.pk)
    try:
        person = roster.merge_people(
            reg, form.cleaned_data["other"], request.user, request.event_permissions
        )
    except UserError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Records merged: %(name)s keeps the history of both.") % {"name": person.name},
        )
    return redirect("manage:registration", slug=event.slug, reg_id=reg.pk)


# ---------------------------------------------------------------- a list of players
@staff_required(P.MANAGE_PLAYERS)
def player_list(request, event):
    """GET: the paste/upload form; POST: the preview (nothing saved)."""
    form = PlayerListForm(request.POST or None, request.FILES or None)
    ctx = {"event": event, "form": form, "preview": None}
    if request.method == "POST":
        if not form.is_valid():
            ctx["errors"] = _form_errors(form)
            return render(request, "manage/player_list.html", ctx, status=400)
        text = form.cleaned_data["text"]
        try:
            preview = roster.preview_list(event, text)
        except UserError as exc:
            ctx["errors"] = [exc.message]
            return render(request, "manage/player_list.html", ctx, status=400)
        ctx.update(_preview_context(preview, text, form.cleaned_data["check_in"]))
    return render(request, "manage/player_list.html", ctx)


def _preview_context(preview, text, check_in):
    return {
        "preview": preview,
        "confirm": PlayerListConfirmForm(
            initial={"text": text, "digest": preview.digest, "check_in": check_in}
        ),
        "NEW": player_lists.NEW,
        "EXISTING": player_lists.EXISTING,
        "edit_form": PlayerListForm(initial={"text": text, "check_in": check_in}),
    }


@staff_required(P.MANAGE_PLAYERS)
@require_POST
def player_list_save(request, event):
    """The confirm step: save every valid line at once, or nothing."""
    form = PlayerListConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The form is out of date: paste the list again."))
        return redirect("manage:player-list", slug=event.slug)
    data = form.cleaned_data
    try:
        count = roster.save_list(
            event, data["text"], data["digest"], request.user, check_in=data["check_in"]
        )
    except UserError as exc:
        ctx = {"event": event, "form": PlayerListForm(), "errors": [exc.message]}
        try:
            ctx.update(
                _preview_context(
                    roster.preview_list(event, data["text"]), data["text"], data["check_in"]
                )
            )
        except UserError:
            pass
        return render(request, "manage/player_list.html", ctx, status=409)
    messages.success(request, _("%(n)s players registered.") % {"n": count})
    return _players(event)


# ---------------------------------------------------------------- check in all
@staff_required(P.MANAGE_PLAYERS)
def check_in_all(request, event):
    """GET: who would be checked in (the confirmation); POST: do it."""
    if request.method == "POST":
        if not ConfirmForm(request.POST).is_valid():
            messages.error(request, _("Tick the box to confirm."))
            return redirect("manage:check-in-all", slug=event.slug)
        try:
            done, left = roster.check_in_all(event, request.user)
        except UserError as exc:
            messages.error(request, exc.message)
            return _players(event)
        if done:
            messages.success(request, _("%(n)s players checked in.") % {"n": len(done)})
        else:
            messages.info(request, _("Nobody was left to check in."))
        if left:
            messages.warning(
                request,
                _("Not checked in (suspended or banned on this date): %(names)s")
                % {"names": ", ".join(left)},
            )
        return _players(event)
    return render(
        request,
        "manage/check_in_all.html",
        {"event": event, "players": roster.to_check_in(event), "form": ConfirmForm()},
    )


@staff_required(P.MANAGE_PLAYERS)
@require_POST
def check_in_all_undo(request, event):
    if not ConfirmForm(request.POST).is_valid():
        messages.error(request, _("Tick the box to confirm."))
        return _players(event)
    try:
        count = roster.undo_check_in_all(event, request.user)
    except UserError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(n)s players are back to registered.") % {"n": count})
    return _players(event)
