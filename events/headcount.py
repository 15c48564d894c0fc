"""The player counts of an event (``events.player_counts``), loaded in two queries; and the
same "registered" count for lists of events, as a database annotation, so that a list
and the event's own pages never disagree (issue 14; docs/organisations.md "Player
counts")."""

from django.db.models import Count, IntegerField, Max, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from events.models import Event, Registration, Round, WaitlistEntry
from events.player_counts import PlayerCounts, count_players

REGISTERED_PLAYERS = Q(registrations__competing=True)
"""The registrations an event list counts as its players: competing ones, whatever their
status (``PlayerCounts.registered``)."""


def player_counts(event: Event) -> PlayerCounts:
    """The :class:`~events.player_counts.PlayerCounts` of ``event``: two queries (the
    registrations' status, competing and first round; the latest round's number with the
    waitlist's length)."""
    rows = list(
        Registration.objects.filter(event=event)
        .order_by()
        .values_list("status", "competing", "first_round")
    )
    latest_round = (
        Round.objects.filter(event=OuterRef("pk"))
        .order_by()
        .values("event")
        .annotate(n=Max("number"))
        .values("n")
    )
    waiting = (
        WaitlistEntry.objects.filter(event=OuterRef("pk"))
        .order_by()
        .values("event")
        .annotate(n=Count("id"))
        .values("n")
    )
    latest, waitlisted = (
        Event.objects.filter(pk=event.pk)
        .annotate(
            latest=Coalesce(Subquery(latest_round, output_field=IntegerField()), Value(0)),
            waiting=Coalesce(Subquery(waiting, output_field=IntegerField()), Value(0)),
        )
        .values_list("latest", "waiting")
        .get()
    )
    return count_players(rows, latest, waitlisted)


def with_registered_players(events: QuerySet[Event]) -> QuerySet[Event]:
    """``events`` annotated with ``players``: the ``registered`` count of each."""
    return events.annotate(players=Count("registrations", filter=REGISTERED_PLAYERS, distinct=True))
