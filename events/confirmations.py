"""The confirmation step of one-tap manager actions that are hard to undo (issue 14):
dropping a player, approving or reopening the results.

The view's form has a ``confirm`` field (``"1"`` once the judge has read the
consequences); without it the view answers with :func:`confirmation_page` instead of
acting. The page is a plain form that posts the same fields again with ``confirm=1``, so
it works without JavaScript and a double tap on the first button only shows the page
again. An htmx request gets the same card in place of the element it targets
(``#confirm`` partial). The services never see the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@dataclass(frozen=True)
class Confirmation:
    """What the confirmation page shows: ``title`` (the question), ``consequences``
    (sentences, each a list item), ``action`` (the URL the form posts to again),
    ``fields`` (the POST fields sent again, hidden, besides ``confirm=1``), ``button``
    (the confirming button's words), ``cancel_url`` and, for an htmx row, ``hx_target``
    (the CSS selector the confirming form swaps, ``""`` for a plain page) and ``card_id``
    (the card's HTML id: one per row when several rows ask at once)."""

    title: str
    consequences: Iterable[str]
    action: str
    fields: Mapping[str, str]
    button: str
    cancel_url: str
    hx_target: str = ""
    card_id: str = "confirm"


def confirmation_page(request: HttpRequest, event, confirmation: Confirmation) -> HttpResponse:
    """The confirmation page (200) of ``confirmation`` for ``event``'s manager pages; for
    an htmx request only its card (``manage/confirm.html#confirm``)."""
    template = "manage/confirm.html#confirm" if request.htmx else "manage/confirm.html"
    return render(request, template, {"event": event, "c": confirmation})
