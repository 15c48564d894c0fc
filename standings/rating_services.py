"""Rating points and rankings from stored events (TR Appendix A; docs/rules-vekn.md
"Ratings"; docs/contracts.md §9): which events count, their players' rating points, the
rankings of the four VEKN groups and one player's rated events.

Loads in a bounded number of queries whatever the number of events: the events, then
their standings all at once (``standings.services.many_event_standings``: four queries).
The rules are ``standings.ratings``.
"""

from __future__ import annotations

from datetime import date

from django.db.models import Q

from events import rulesets
from events.models import Event, Organisation, Person
from standings import ratings
from standings.services import many_event_standings


def rated_events(*, organisation: Organisation | None = None, since: date | None = None):
    """The events whose results count for the rankings (TR Appendix A, §6.1.1 note;
    docs/rules-vekn.md "Ratings"), a queryset: of a ruleset that ``rates_players``,
    sanctioned, with a final, and official — standings published or results approved
    **[choice]**. ``since``: dated on or after it. Whether the final was played and
    whether a set restriction unrates an event are read from each event
    (:func:`event_results`)."""
    codes = [code for code, spec in rulesets.REGISTRY.items() if spec.rates_players]
    events = Event.objects.filter(
        ruleset__in=codes,
        sanctioned=True,
        final_mode=Event.FinalMode.FINAL,
        rounds__is_final=True,
    ).filter(Q(standings_published=True) | Q(results_approved=True))
    if organisation is not None:
        events = events.filter(organisation=organisation)
    if since is not None:
        events = events.filter(date__gte=since)
    return events.distinct().order_by("date", "id")


def event_results(events, *, person: Person | None = None) -> list[ratings.Result]:
    """Every rating result of ``events`` (an iterable of events, e.g.
    :func:`rated_events`): one ``standings.ratings.Result`` per seated player of each rated
    event whose final is played, keyed by person id; ``person``: that person's only.
    Four queries plus the events' own."""
    events = [e for e in events if e.rated]
    out: list[ratings.Result] = []
    for result in many_event_standings(events).values():
        if not result.rating_points:
            continue
        event = result.event
        category = ratings.category_of(event.game_format)
        for reg_id, points in result.rating_points.items():
            info = result.players[reg_id]
            if person is not None and info.person_id != person.id:
                continue
            out.append(
                ratings.Result(
                    player=info.person_id,
                    vekn=info.vekn_number or None,
                    name=info.name,
                    event=event.slug,
                    date=event.date,
                    category=category,
                    online=event.online,
                    rating_points=points,
                    event_name=event.name,
                )
            )
    return out


def ranking(
    category: str, online: bool, as_of: date, *, organisation: Organisation | None = None
) -> tuple[ratings.RankingRow, ...]:
    """One ranking (TR Appendix A): ``category`` (``constructed`` | ``limited``), on site
    or ``online``, as of ``as_of``, of the whole site or of one ``organisation``'s events.
    Rows as ``standings.ratings.ranking`` gives them (player = person id). Five queries.
    ``ValueError`` for an unknown category."""
    if category not in ratings.CATEGORIES:
        raise ValueError(f"unknown category {category!r}")
    since = ratings.months_before(as_of, ratings.RATED_MONTHS)
    events = rated_events(organisation=organisation, since=since).filter(
        date__lte=as_of, online=online, game_format__in=ratings.FORMATS[category]
    )
    return ratings.ranking(event_results(events), category, online, as_of)


def ranking_document(
    category: str, online: bool, as_of: date, *, organisation: Organisation | None = None
) -> dict:
    """The rankings document of docs/contracts.md §9: ``{"category", "online", "as_of",
    "rows": [{"rank", "vekn", "name", "rating", "events": [{"event", "date",
    "rating_points"}]}]}``."""
    rows = ranking(category, online, as_of, organisation=organisation)
    return {
        "category": category,
        "online": online,
        "as_of": as_of.isoformat(),
        "rows": [
            {
                "rank": row.rank,
                "vekn": row.vekn,
                "name": row.name,
                "rating": row.rating,
                "events": [
                    {
                        "event": r.event,
                        "date": r.date.isoformat(),
                        "rating_points": r.rating_points,
                    }
                    for r in row.events
                ],
            }
            for row in rows
        ],
    }


def player_history(
    person: Person, as_of: date, *, organisation: Organisation | None = None
) -> dict[tuple[str, bool], tuple[ratings.HistoryEntry, ...]]:
    """``person``'s rated events by group ``(category, online)``, each with why it counts
    toward their rating as of ``as_of`` or not (``standings.ratings.player_history``).
    Five queries."""
    events = rated_events(organisation=organisation).filter(registrations__person=person)
    return ratings.player_history(event_results(events, person=person), as_of)
