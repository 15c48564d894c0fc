"""Rating points and rankings from stored events (TR Appendix A; docs/rules-vekn.md
"Ratings"; docs/contracts.md §9): which events count, their players' rating points, the
rankings of the four VEKN groups and one player's rated events.

The rankings read stored rows (``events.models.RatedResult``, one per player and rated
event; docs/ratings.md "How the rankings stay fast"): two queries when every event's
rows are up to date — which events are stale, then the rows with their events and
people. Stale events (their ``RatingStamp`` missing or older than ``public_version``)
are recomputed first, all at once (``standings.services.many_event_standings``: four
queries) and stored, under the stamps' row locks. The rules are ``standings.ratings``.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import F, Q

from events import rulesets
from events.models import Event, Organisation, Person, RatedResult, RatingStamp
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


def _candidates(*, organisation: Organisation | None = None):
    """:func:`rated_events` without the final-round join (stored rows exist only for
    events whose final is played): the events' own columns only."""
    codes = [code for code, spec in rulesets.REGISTRY.items() if spec.rates_players]
    events = Event.objects.filter(
        ruleset__in=codes, sanctioned=True, final_mode=Event.FinalMode.FINAL
    ).filter(Q(standings_published=True) | Q(results_approved=True))
    if organisation is not None:
        events = events.filter(organisation=organisation)
    return events


def refresh(events) -> int:
    """Recompute and store the rating points (``RatedResult``) of those of ``events`` (a
    queryset of events) whose ``RatingStamp`` is missing or older than their
    ``public_version``; returns how many were recomputed. One query when none is stale;
    otherwise, in one transaction with the stale stamps locked (``select_for_update``, in
    event order, so two refreshes never deadlock), four to load the standings and a few
    batched writes. An event computed from a version that changed meanwhile is stamped
    with the older version and recomputed next time."""
    stale = list(
        events.annotate(_stamp=F("rating_stamp__version"))
        .filter(Q(_stamp__isnull=True) | ~Q(_stamp=F("public_version")))
        .order_by("id")
    )
    if not stale:
        return 0
    with transaction.atomic():
        ids = [e.id for e in stale]
        RatingStamp.objects.bulk_create(
            [RatingStamp(event_id=i, version=-1) for i in ids], ignore_conflicts=True
        )
        locked = dict(
            RatingStamp.objects.select_for_update()
            .filter(event_id__in=ids)
            .order_by("event_id")
            .values_list("event_id", "version")
        )
        todo = [e for e in stale if locked.get(e.id) != e.public_version]
        if not todo:
            return 0
        rows = [
            RatedResult(event_id=event_id, person_id=person_id, rating_points=points)
            for event_id, person_id, points in _points(todo)
        ]
        todo_ids = [e.id for e in todo]
        RatedResult.objects.filter(event_id__in=todo_ids).delete()
        RatedResult.objects.bulk_create(rows, batch_size=5000)
        stamps = [RatingStamp(event_id=e.id, version=e.public_version) for e in todo]
        RatingStamp.objects.bulk_update(stamps, ["version"], batch_size=1000)
    return len(todo)


def _points(events) -> list[tuple[int, int, int]]:
    """(event id, person id, rating points) of every rated player of ``events``."""
    out = []
    for result in many_event_standings([e for e in events if e.rated]).values():
        for reg_id, points in (result.rating_points or {}).items():
            person_id = result.players[reg_id].person_id
            if person_id is not None:
                out.append((result.event.id, person_id, points))
    return out


def stored_results(events, *, person: Person | None = None) -> list[ratings.Result]:
    """The stored ``standings.ratings.Result`` of ``events`` (a queryset), refreshed first
    (:func:`refresh`), keyed by person id; ``person``: that person's only. Three queries
    (plus the refresh's): the events, the rows (three integers each), the people."""
    refresh(events)
    info = {
        row[0]: (row[1], row[2], ratings.category_of(row[3]), row[4], row[5])
        for row in events.values_list("id", "slug", "date", "game_format", "online", "name")
    }
    rows = RatedResult.objects.filter(event_id__in=events.values("id"))
    if person is not None:
        rows = rows.filter(person=person)
    triples = list(rows.values_list("person_id", "event_id", "rating_points"))
    people = {
        pk: (name, vekn or None)
        for pk, name, vekn in Person.objects.filter(pk__in=rows.values("person_id")).values_list(
            "id", "name", "vekn_number"
        )
    }
    out = []
    for person_id, event_id, points in triples:
        slug, day, category, online, event_name = info[event_id]
        name, vekn = people[person_id]
        out.append(
            ratings.Result(person_id, vekn, name, slug, day, category, online, points, event_name)
        )
    return out


def ranking(
    category: str, online: bool, as_of: date, *, organisation: Organisation | None = None
) -> tuple[ratings.RankingRow, ...]:
    """One ranking (TR Appendix A): ``category`` (``constructed`` | ``limited``), on site
    or ``online``, as of ``as_of``, of the whole site or of one ``organisation``'s events.
    Rows as ``standings.ratings.ranking`` gives them (player = person id). Four queries
    when the stored rating points are up to date (:func:`refresh`, :func:`stored_results`). ``ValueError`` for
    an unknown category."""
    if category not in ratings.CATEGORIES:
        raise ValueError(f"unknown category {category!r}")
    since = ratings.months_before(as_of, ratings.RATED_MONTHS)
    events = _candidates(organisation=organisation).filter(
        date__gte=since, date__lte=as_of, online=online, game_format__in=ratings.FORMATS[category]
    )
    return ratings.ranking(stored_results(events), category, online, as_of)


def ranking_document(
    category: str, online: bool, as_of: date, *, organisation: Organisation | None = None
) -> dict:
    """The rankings document of docs/contracts.md §9: ``{"category", "online", "as_of",
    "rows": [{"rank", "vekn", "name", "rating", "events": [{"event", "date",
    "rating_points"}]}]}``."""
    rows = ranking(category, online, as_of, organisation=organisation)
    iso: dict[date, str] = {}

    def day(d: date) -> str:
        text = iso.get(d)
        if text is None:
            text = iso[d] = d.isoformat()
        return text

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
                        "date": day(r.date),
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
    Four queries when the stored rating points are up to date (:func:`refresh`)."""
    events = _candidates(organisation=organisation).filter(registrations__person=person)
    return ratings.player_history(stored_results(events, person=person), as_of)
