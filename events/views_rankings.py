"""Public ranking pages (TR Appendix A; docs/rules-vekn.md "Ratings"): the four VEKN
groups, of the whole site or one organisation, as of any date, and a player's rated
events with why each one counts or not. The JSON is ``events.api.rankings``."""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from events.forms_rankings import RankingQueryForm
from events.models import Organisation, Person
from standings import rating_services
from standings.ratings import LISTED_MONTHS, Why, months_before

GROUPS = (
    ("constructed", False, _("Constructed, on site")),
    ("constructed", True, _("Constructed, online")),
    ("limited", False, _("Limited, on site")),
    ("limited", True, _("Limited, online")),
)
"""The four VEKN ranking groups (TR Appendix A), in the VEKN's order."""

WHY = {
    Why.COUNTED: _("Counted"),
    Why.NOT_BEST: _("Not among the best 8 of the last 18 months"),
    Why.TOO_OLD: _("More than 18 months before"),
    Why.AFTER: _("After the date shown"),
}


def _query(request) -> tuple[dict, str]:
    """The cleaned query and ``""``, or, for a refused query (a date outside the window,
    an unknown organisation), the defaults and the first problem: the page answers 400
    with it instead of a bare 404."""
    form = RankingQueryForm(request.GET)
    if form.is_valid():
        return form.cleaned_data, ""
    default = RankingQueryForm({})
    default.is_valid()
    return default.cleaned_data, form.first_error()


def _group_label(category: str, online: bool) -> str:
    return next(str(label) for c, o, label in GROUPS if (c, o) == (category, online))


def rankings_page(request):
    """``/rankings/?category=constructed&online=false&as_of=…&organisation=…``: one group's
    ranking, with links to the other three groups and the organisations."""
    data, error = _query(request)
    rows = rating_services.ranking(
        data["category"], data["online"], data["as_of"], organisation=data["organisation"]
    )
    return render(
        request,
        "events/rankings.html",
        {
            "rows": rows,
            "query": data,
            "group": _group_label(data["category"], data["online"]),
            "groups": [
                {
                    "category": c,
                    "online": "true" if o else "false",
                    "label": label,
                    "active": (c, o) == (data["category"], data["online"]),
                }
                for c, o, label in GROUPS
            ],
            # Only organisations with a rated event: not every organisation created on
            # the site (an empty or spam one) is offered.
            "organisations": Organisation.objects.filter(events__in=rating_services.rated_events())
            .distinct()
            .order_by("name"),
            "error": error,
        },
        status=400 if error else 200,
    )


def player_page(request, person_id):
    """``/rankings/players/<id>/``: the person's rated events by group, each counted or
    why not (older than 18 months, not among the best 8, after the date shown), and
    whether the group's ranking lists them on that date (TR Appendix A.1)."""
    person = get_object_or_404(Person, pk=person_id)
    data, error = _query(request)
    history = rating_services.player_history(
        person, data["as_of"], organisation=data["organisation"]
    )
    groups = []
    listed_from = months_before(data["as_of"], LISTED_MONTHS)
    for (category, online), entries in history.items():
        groups.append(
            {
                "label": _group_label(category, online),
                # TR Appendix A.1: no rated event in the last 12 months, not listed (the
                # rating is kept).
                "listed": any(listed_from <= e.result.date <= data["as_of"] for e in entries),
                "rating": sum(e.result.rating_points for e in entries if e.why == Why.COUNTED),
                "entries": [
                    {"result": e.result, "counted": e.why == Why.COUNTED, "why": WHY[e.why]}
                    for e in entries
                ],
            }
        )
    return render(
        request,
        "events/rankings_player.html",
        {"person": person, "groups": groups, "query": data, "error": error},
        status=400 if error else 200,
    )
