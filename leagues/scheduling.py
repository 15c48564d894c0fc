"""Scheduling a fixture (issue 17; docs/leagues.md "Scheduling a fixture"): the two
players of a fixture propose times, accept one or counter-propose; staff see the fixtures
with no agreed time near their deadline. The ORM adapter of
:mod:`leagues.rules.scheduling` (ANFPES T24 §IV.4).

Every change locks the fixture's row (``select_for_update``), so two acceptances at once
agree one time (the second is refused: "already agreed"), and a proposal racing an
acceptance is refused or replaces times that are no longer open. Errors:
:class:`events.errors.UserError` (the rule refused; nothing saved) and
``PermissionDenied`` (not one of the fixture's two players).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.audit import audit
from events.errors import UserError
from leagues.models import Match, Season, TimeProposal
from leagues.reporting import side_of, target
from leagues.rules import scheduling as rules

MESSAGES = {
    "no_times": gettext_lazy("Propose at least one time."),
    "too_many": gettext_lazy("Propose at most %(max)s times."),
    "naive": gettext_lazy("Give each time with its date and hour."),
    "past": gettext_lazy("That time has already gone by: choose a time in the future."),
    "after_deadline": gettext_lazy(
        "Every time must be before the fixture's final deadline (ANFPES T24 §IV.4)."
    ),
    "agreed": gettext_lazy("A time is already agreed for this fixture."),
    "own_time": gettext_lazy("The other player accepts your times; you cannot accept your own."),
    "not_open": gettext_lazy("That time is no longer proposed: look at the open times again."),
    "not_scheduled": gettext_lazy("This fixture is no longer waiting to be played."),
}


def user_error(exc: rules.SchedulingError, field: str | None = None) -> UserError:
    """The translated :class:`UserError` of a rule's refusal."""
    return UserError(str(MESSAGES[exc.code]) % {"max": rules.MAX_TIMES}, field=field)


def _lock(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("competition__season", "home", "away")
        .get(pk=match.pk)
    )


def agreed_time(match: Match) -> TimeProposal | None:
    """The fixture's accepted proposal, or ``None``."""
    return match.time_proposals.filter(status=TimeProposal.Status.ACCEPTED).first()


def open_times(match: Match) -> list[TimeProposal]:
    """The fixture's open times, earliest first (all from one player)."""
    return list(
        match.time_proposals.filter(status=TimeProposal.Status.OPEN)
        .select_related("team")
        .order_by("starts_at", "id")
    )


def _player_side(user, match: Match) -> str:
    side = side_of(user, match)
    if side is None:
        raise PermissionDenied
    return side


def propose(match: Match, user, times: list[datetime], *, now: datetime | None = None):
    """``user`` (one of the fixture's two players) proposes ``times``: every open time of
    the fixture is replaced (a counter-proposal, or a new proposal of one's own). Returns
    the new open proposals. Audited ``league.times_proposed``."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(match)
        side = _player_side(user, match)
        agreed = match.time_proposals.filter(status=TimeProposal.Status.ACCEPTED).exists()
        try:
            clean = rules.check_times(
                times,
                now=now,
                final_deadline=match.final_deadline,
                agreed=agreed,
                scheduled=match.status == Match.Status.SCHEDULED,
            )
        except rules.SchedulingError as exc:
            raise user_error(exc, field="times") from None
        replaced = match.time_proposals.filter(status=TimeProposal.Status.OPEN).update(
            status=TimeProposal.Status.REPLACED
        )
        team = match.home if side == "home" else match.away
        created = TimeProposal.objects.bulk_create(
            [TimeProposal(match=match, team=team, proposed_by=user, starts_at=t) for t in clean]
        )
        audit(
            None,
            user,
            "league.times_proposed",
            target(match),
            after={"times": [t.isoformat() for t in clean], "replaced": replaced},
        )
    return created


def accept(match: Match, user, proposal_id: int, *, now: datetime | None = None) -> TimeProposal:
    """The other player accepts the open time ``proposal_id``: it becomes the agreed time,
    the other open times are replaced. Audited ``league.time_agreed``."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(match)
        side = _player_side(user, match)
        proposal = (
            match.time_proposals.filter(pk=proposal_id, status=TimeProposal.Status.OPEN)
            .select_related("team")
            .first()
        )
        chosen = None
        if proposal is not None:
            proposer = "home" if proposal.team_id == match.home_id else "away"
            chosen = rules.OpenTime(proposer, proposal.starts_at)
        try:
            rules.check_acceptance(
                chosen,
                side=side,
                now=now,
                final_deadline=match.final_deadline,
                agreed=match.time_proposals.filter(status=TimeProposal.Status.ACCEPTED).exists(),
                scheduled=match.status == Match.Status.SCHEDULED,
            )
        except rules.SchedulingError as exc:
            raise user_error(exc) from None
        match.time_proposals.filter(status=TimeProposal.Status.OPEN).exclude(pk=proposal.pk).update(
            status=TimeProposal.Status.REPLACED
        )
        proposal.status = TimeProposal.Status.ACCEPTED
        proposal.accepted_by = user
        proposal.accepted_at = now
        proposal.save(update_fields=["status", "accepted_by", "accepted_at"])
        audit(
            None,
            user,
            "league.time_agreed",
            target(match),
            after={"proposal": proposal.pk, "starts_at": proposal.starts_at.isoformat()},
        )
    return proposal


def flagged_fixtures(season: Season, *, now: datetime | None = None) -> list[Match]:
    """The season's scheduled fixtures with no agreed time whose next deadline is at most
    :data:`leagues.rules.scheduling.ATTENTION_HOURS` away (or passed initial, final ahead).
    One query; each has ``open_count`` (its open times)."""
    now = now or timezone.now()
    limit = now + timedelta(hours=rules.ATTENTION_HOURS)
    agreed = TimeProposal.objects.filter(match=OuterRef("pk"), status="accepted")
    opened = TimeProposal.objects.filter(match=OuterRef("pk"), status="open")
    candidates = (
        Match.objects.filter(competition__season=season, status=Match.Status.SCHEDULED)
        .filter(
            Q(initial_deadline__gt=now, initial_deadline__lte=limit)
            | Q(final_deadline__gt=now, final_deadline__lte=limit)
        )
        .annotate(has_agreed=Exists(agreed), has_open=Exists(opened))
        .filter(has_agreed=False)
        .select_related("competition", "home__user", "away__user")
        .order_by("final_deadline", "competition__position", "round", "id")
    )
    return [
        m
        for m in candidates
        if rules.needs_attention(m.initial_deadline, m.final_deadline, now, agreed=False)
    ]
