"""Mitos y Leyendas incidents of event files (docs/contracts.md, event file ``incidents``):
checked with the conduct rules and imported as confirmed penalties. Moved out of
``penalties.myl_services``; same functions."""

from __future__ import annotations

import uuid

from events.models import (
    Event,
    Registration,
)
from penalties import myl_rules as rules
from penalties.models import Level, Penalty
from penalties.myl_services import (
    MYL_LEVELS,
    RULESET,
    dq_effect,
    earlier_events,
    prior_penalty,
    sync_effects,
)


def check_file_incidents(incidents, problems: list[str]) -> None:
    """Assess the ``incidents`` of a ``myl`` event file (docs/contracts.md §1) in file order, so
    that an unknown section, a missing or invalid answer or a level that is not a MyL
    penalty is a located problem. Only this file's incidents count as history here (the
    import adds the database's earlier events)."""
    history: dict[str, list[rules.PriorPenalty]] = {}
    for i in incidents:
        where = f"incident {i.id}"
        if i.linked_to:
            problems.append(f"{where}: linked incidents are VEKN only (linked_to must be null)")
            continue
        if i.level is not None and i.level not in MYL_LEVELS:
            problems.append(f"{where}: level must be null or one of {', '.join(MYL_LEVELS)}")
            continue
        try:
            rules.assess(i.infraction, i.conditions, history.get(i.person, []))
        except rules.UnknownInfraction:
            problems.append(f"{where}: unknown infraction {i.infraction!r} (MyL conduct §2–§3)")
            continue
        except rules.ConditionError as exc:
            problems.append(f"{where}: {exc}")
            continue
        history.setdefault(i.person, []).append(
            rules.PriorPenalty(i.infraction, i.level or rules.Level.WARNING)
        )


def import_file_incidents(event: Event, incidents, regs: dict) -> None:
    """Incidents of a ``myl`` file are what happened: confirmed penalties at the level the
    rules give (this file's earlier incidents and the database's earlier events counting
    towards a repeat) unless ``level`` says otherwise, with their effects. A suspension
    from a file has no dates: it is recorded without a ``Sanction`` (the organiser sets
    one with the penalty's "change"); a permanent ban starts on the penalty's day."""
    rounds = {r.number: r for r in event.rounds.all()}
    history: dict[int, list[rules.PriorPenalty]] = {}
    prior: dict[int, list[rules.PriorPenalty]] = {}
    for i in incidents:
        reg = regs[i.person]
        if reg.person_id not in prior:
            prior[reg.person_id] = [prior_penalty(p) for p in earlier_events(event, reg.person)]
        a = rules.assess(
            i.infraction, i.conditions, history.get(reg.person_id, []), prior[reg.person_id]
        )
        level = i.level or str(a.level)
        deviated = level != str(a.level)
        also = [str(x) for x in a.also] if not deviated else []
        p = Penalty.objects.create(
            event=event,
            registration=reg,
            person=reg.person,
            client_id=uuid.uuid4(),
            external_id=i.id,
            ruleset=RULESET.code,
            ruleset_version=RULESET.version,
            infraction=i.infraction,
            conditions=i.conditions,
            round=rounds.get(i.round) if i.round else None,
            round_number=i.round,
            timing=i.timing,
            guide_level=str(a.level),
            level=level,
            offence=a.offence,
            baseline=str(a.baseline),
            explanation=a.explanation,
            source=a.source,
            context=list(a.context),
            also=also,
            deviation_reason=(i.reason or "").strip() if deviated else "",
            status=Penalty.Status.CONFIRMED,
        )
        if p.level == Level.SUSPENSION:
            if dq_effect(p):
                Registration.objects.filter(pk=reg.pk).update(
                    status=Registration.Status.DISQUALIFIED
                )
        else:
            sync_effects(p, False)
        history.setdefault(reg.person_id, []).append(prior_penalty(p))
