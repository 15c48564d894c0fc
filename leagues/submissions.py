"""One save per league staff or tribunal form (issue 12): a double click, or a retry after
a lost answer, is "already saved", never a second walkover, points deduction, draw or
audit entry — the idempotency the judges' penalty and result forms have
(``Penalty.client_id``, ``ResultSubmission``).

Each staff form carries a hidden ``client_id``, a UUID generated when the form is shown
(``{% form_id %}``, :mod:`leagues.templatetags.league_forms`). :func:`once` wraps a staff
view: a ``client_id`` already recorded answers "already saved" and leads where the first
answer led; otherwise the view runs in a transaction and, when it saved something (it
queued a success message), a :class:`leagues.models.StaffSubmission` with that id is
recorded in the same transaction — its unique constraint makes two simultaneous copies
one. Ledger entries (:class:`leagues.models.Adjustment`, :class:`leagues.models.CupBonus`)
also keep the id on the row they create (unique), so the service itself cannot append the
same form twice. Actions that only change a state (walkovers, annulments, decisions on
reports and excuses…) also lock the row and check its state, so a replay without the id
is refused with a clear message. A form sent without ``client_id`` (an old page) runs as
before, protected by those state checks only (docs/leagues.md).
"""

from __future__ import annotations

import uuid
from functools import wraps

from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.models import StaffSubmission

FIELD = "client_id"
"""The name of the hidden input of every staff form."""

ALREADY_SAVED = gettext_lazy("Already saved: this form was sent before, nothing was added.")
"""The answer to a form sent again."""


class ClientIdForm(forms.Form):
    """The hidden submission id every staff form carries (:data:`FIELD`)."""

    client_id = forms.UUIDField(required=False)


def client_id(request) -> uuid.UUID | None:
    """The form's submission id (``POST["client_id"]``), ``None`` when absent or not a UUID."""
    form = ClientIdForm(request.POST)
    return form.cleaned_data[FIELD] if form.is_valid() else None


def _queued(request) -> list:
    """The messages queued during this request (``django.contrib.messages`` storage)."""
    return getattr(getattr(request, "_messages", None), "_queued_messages", [])


def _successes(request) -> int:
    return sum(1 for m in _queued(request) if m.level == messages.SUCCESS)


def _drop_messages_after(request, count: int) -> None:
    """Forget what the view queued: its twin's answer is the one that counts."""
    queued = _queued(request)
    del queued[count:]


def _replayed(request, done: StaffSubmission):
    if done.created_by_id is not None and done.created_by_id != request.user.pk:
        return HttpResponseBadRequest(_("This form was already used: open the page again."))
    messages.info(request, ALREADY_SAVED)
    return redirect(done.redirect_to or request.path)


def once(view):
    """Decorator of a league staff or tribunal view (innermost, below the permission
    decorators): a POST whose ``client_id`` was already saved answers "already saved"
    (a redirect to where the first answer led, with an info message) without running the
    view; otherwise the view runs in one transaction with the record of its submission.
    A POST without a ``client_id`` runs as it is. Another user's ``client_id`` is a 400."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        cid = client_id(request) if request.method == "POST" else None
        if cid is None:
            return view(request, *args, **kwargs)
        done = StaffSubmission.objects.filter(client_id=cid).first()
        if done is not None:
            return _replayed(request, done)
        queued_before = len(_queued(request))
        successes_before = _successes(request)
        match = getattr(request, "resolver_match", None)
        action = (match.view_name if match else "") or view.__name__
        try:
            with transaction.atomic():
                response = view(request, *args, **kwargs)
                if _successes(request) > successes_before and response.status_code < 400:
                    StaffSubmission.objects.create(
                        client_id=cid,
                        action=action[:80],
                        path=request.path[:500],
                        redirect_to=(response.get("Location") or "")[:500],
                        created_by=request.user if request.user.is_authenticated else None,
                    )
                    return response
        except IntegrityError:
            done = StaffSubmission.objects.filter(client_id=cid).first()
            if done is None:
                raise
            _drop_messages_after(request, queued_before)
            return _replayed(request, done)
        # Not saved: an error the user can fix — unless a simultaneous copy of this very
        # form was saved meanwhile and this one met its state check.
        done = StaffSubmission.objects.filter(client_id=cid).first()
        if done is not None:
            _drop_messages_after(request, queued_before)
            return _replayed(request, done)
        return response

    wrapped.idempotent = True
    return wrapped
