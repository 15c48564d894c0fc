"""Circuits from stored events (docs/ratings.md "Circuits"): saving an organisation's
circuit, and its standings and documents. The rules are ``standings.circuits`` (pure);
the events' standings come from ``standings.services.many_event_standings`` (four queries
whatever their number), so a circuit's standings take six queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from events import rulesets
from events.audit import audit
from events.errors import UserError
from events.models import Circuit, Event, Organisation
from standings import circuits
from standings.services import many_event_standings

__all__ = [
    "CircuitStandings",
    "candidate_events",
    "circuit_document",
    "circuit_standings",
    "circuits_document",
    "counted_events",
    "save_circuit",
]


def _rating_rulesets() -> list[str]:
    return [code for code, spec in rulesets.REGISTRY.items() if spec.rates_players]


def candidate_events(organisation: Organisation):
    """The events ``organisation`` may put in a circuit, most recent first: its own, of a
    ruleset whose events rank players with a final (``rates_players``: VEKN)."""
    return Event.objects.filter(organisation=organisation, ruleset__in=_rating_rulesets()).order_by(
        "-date", "name"
    )


def counted_events(circuit: Circuit):
    """The circuit's events whose results may count, oldest first: official (standings
    published or results approved) with a final round **[choice]** (whether the final
    was played is read from the standings: :func:`circuit_standings`), as for the rankings
    (``standings.rating_services.rated_events``) but sanctioned or not, rated or not."""
    return (
        circuit.events.filter(rounds__is_final=True, final_mode=Event.FinalMode.FINAL)
        .filter(Q(standings_published=True) | Q(results_approved=True))
        .distinct()
        .order_by("date", "id")
    )


_FIELDS = ("name", "starts_on", "ends_on", "scoring", "best", "min_events", "places")


def _snapshot(circuit: Circuit, event_ids) -> dict:
    out = {name: getattr(circuit, name) for name in _FIELDS}
    out["starts_on"] = out["starts_on"].isoformat()
    out["ends_on"] = out["ends_on"].isoformat()
    out["events"] = sorted(event_ids)
    return out


def save_circuit(
    organisation: Organisation,
    actor,
    *,
    name: str,
    starts_on: date,
    ends_on: date,
    scoring: str,
    best: int | None,
    min_events: int,
    places: int,
    events,
    circuit: Circuit | None = None,
) -> Circuit:
    """Create ``organisation``'s circuit, or change ``circuit`` (locked for the change),
    with the chosen ``events`` (an iterable of ``Event``), in one transaction, audited as
    ``circuit.created`` / ``circuit.changed`` with the before and after. ``UserError``
    (nothing saved) for a period that ends before it starts, a value out of range, or an
    event of another organisation, outside the period or of a ruleset without ratings.
    The caller checks that ``actor`` organises ``organisation``."""
    if ends_on < starts_on:
        raise UserError(_("The last day is before the first day."), field="ends_on")
    try:
        circuits.Rules(circuits.Scoring(scoring), best=best, min_events=min_events, places=places)
    except ValueError as exc:
        raise UserError(_("A scoring value is out of range."), field=None) from exc
    chosen = list(events)
    allowed = set(_rating_rulesets())
    for event in chosen:
        if event.organisation_id != organisation.id or event.ruleset not in allowed:
            raise UserError(
                _("%(event)s is not an event of %(org)s that a circuit can score.")
                % {"event": event.name, "org": organisation.name},
                field="events",
            )
        if not starts_on <= event.date <= ends_on:
            raise UserError(
                _("%(event)s is outside the circuit's period.") % {"event": event.name},
                field="events",
            )
    with transaction.atomic():
        before = None
        if circuit is None:
            circuit = Circuit(organisation=organisation)
        else:
            circuit = Circuit.objects.select_for_update().get(
                pk=circuit.pk, organisation=organisation
            )
            before = _snapshot(circuit, circuit.events.values_list("id", flat=True))
        circuit.name = name
        circuit.starts_on, circuit.ends_on = starts_on, ends_on
        circuit.scoring, circuit.best = str(scoring), best
        circuit.min_events, circuit.places = min_events, places
        circuit.save()
        circuit.events.set(chosen)
        audit(
            None,
            actor,
            "circuit.changed" if before else "circuit.created",
            target=f"{organisation.name}: {circuit.name}",
            before=before,
            after=_snapshot(circuit, [e.id for e in chosen]),
            about=circuit,
        )
    return circuit


@dataclass(frozen=True)
class CircuitStandings:
    """A circuit's standings: the ``circuit``, its ``rules``, the ``events`` that count
    (oldest first) and the ``lines`` (``standings.circuits.Line``; player = person id)."""

    circuit: Circuit
    rules: circuits.Rules
    events: list[Event]
    lines: tuple[circuits.Line, ...]


def rules_of(circuit: Circuit) -> circuits.Rules:
    return circuits.Rules(
        circuits.Scoring(circuit.scoring),
        best=circuit.best,
        min_events=circuit.min_events,
        places=circuit.places,
    )


def circuit_standings(circuit: Circuit) -> CircuitStandings:
    """The standings of ``circuit`` (docs/ratings.md "Circuits"): every ranked player of
    each counted event (:func:`counted_events`) with their final rank, GW (preliminary
    plus 1 for the final's winner), VP (preliminary and final), TP and rating points
    (TR §3.7, Appendix A.2), scored by ``standings.circuits.standings``. A disqualified
    player has no rank and scores nothing for the circuit **[choice]**; nor does a
    registered player who never sat at a table (TR Appendix A.2). Five queries."""
    loaded = many_event_standings(list(counted_events(circuit)))
    played = [r for r in loaded.values() if r.standings.final_played]
    events = [r.event for r in played]
    entries = []
    for result in played:
        event = result.event
        points = result.rating_points or {}
        for row, info in result.rows():
            if not row.rounds_played:
                continue  # registered, never seated: not a player of the event
            entries.append(
                circuits.Entry(
                    player=info.person_id if info.person_id is not None else f"r{info.id}",
                    name=info.name,
                    vekn=info.vekn_number or None,
                    event=event.slug,
                    event_name=event.name,
                    date=event.date,
                    rank=row.rank,
                    gw=row.prelim_gw + (1 if row.winner else 0),
                    vp=row.prelim_vp + (row.final_vp or Decimal(0)),
                    tp=row.prelim_tp,
                    rating_points=points.get(row.player),
                )
            )
    rules = rules_of(circuit)
    return CircuitStandings(circuit, rules, events, circuits.standings(entries, rules))


def _number(vp: Decimal) -> float | int:
    return int(vp) if vp == vp.to_integral_value() else float(vp)


def _summary(circuit: Circuit) -> dict:
    return {
        "id": circuit.pk,
        "name": circuit.name,
        "organisation": circuit.organisation.slug,
        "starts_on": circuit.starts_on.isoformat(),
        "ends_on": circuit.ends_on.isoformat(),
        "scoring": circuit.scoring,
        "best": circuit.best,
        "min_events": circuit.min_events,
        "places": circuit.places,
    }


def circuit_document(circuit: Circuit) -> dict:
    """The circuit standings document (docs/ratings.md "Circuit API"): the circuit's
    summary (``id``, ``name``, ``organisation`` slug, ``starts_on``, ``ends_on``,
    ``scoring``, ``best``, ``min_events``, ``places``), its counted ``events`` (``event``
    slug, ``name``, ``date``) and ``rows``: ``{"rank" (null below the minimum attendance),
    "vekn", "name", "points", "gw", "vp", "tp", "played", "qualified", "events": [{"event",
    "date", "rank", "points", "counted"}]}``."""
    result = circuit_standings(circuit)
    doc = _summary(circuit)
    doc["events"] = [
        {"event": e.slug, "name": e.name, "date": e.date.isoformat()} for e in result.events
    ]
    doc["rows"] = [
        {
            "rank": line.rank,
            "vekn": line.vekn,
            "name": line.name,
            "points": line.points,
            "gw": line.gw,
            "vp": _number(line.vp),
            "tp": line.tp,
            "played": line.played,
            "qualified": line.qualified,
            "events": [
                {
                    "event": s.entry.event,
                    "date": s.entry.date.isoformat(),
                    "rank": s.entry.rank,
                    "points": s.points,
                    "counted": s.counted,
                }
                for s in line.entries
            ],
        }
        for line in result.lines
    ]
    return doc


def circuits_of(organisation: Organisation | None = None):
    """Every circuit (or ``organisation``'s), most recent first, with its organisation."""
    qs = Circuit.objects.select_related("organisation").order_by("-starts_on", "name", "id")
    if organisation is not None:
        qs = qs.filter(organisation=organisation)
    return qs


def circuits_document(organisation: Organisation | None = None) -> dict:
    """The circuits list (docs/ratings.md "Circuit API"): ``{"circuits": [summary, …]}``,
    each summary as in :func:`circuit_document`, most recent first. One query."""
    return {"circuits": [_summary(c) for c in circuits_of(organisation)]}
