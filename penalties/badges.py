"""The pending-items badges of the navigation (issue 14): for whoever confirms an event's
penalties (the head judge, the organiser: ``CONFIRM_PENALTIES``), the penalties of that
event pending confirmation (JG §1.2.2); for the national authority (the MyL Organised
Play manager, the VEKN national coordinator: ``events.AuthorityRole``), the sanctions of
its rulesets awaiting confirmation and the written appeals it may decide (MyL conduct
rules §4.5; the lists of ``penalties.authority`` and ``penalties.myl_services``).

:func:`pending_items` is a context processor: the counts are computed only when a page
shows them, in at most two queries (the user's authority roles, unless already known
this request, then one query counting everything), and only for users holding the role.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import F, Func, IntegerField, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from events.access import authority_rulesets
from events.permissions import Permission as P
from penalties.authority import live_sanctions
from penalties.models import Penalty
from penalties.myl_services import pending_written_appeals_for


@dataclass(frozen=True)
class Pending:
    """Counts (whole numbers, 0 when the user does not hold the role): ``penalties`` of
    the current event pending the head judge, ``sanctions`` awaiting the authority's
    confirmation, written ``appeals`` for the authority to decide; ``authority``: the
    user is a national authority (the page's link is shown even at 0)."""

    penalties: int = 0
    sanctions: int = 0
    appeals: int = 0
    authority: bool = False

    @property
    def for_authority(self) -> int:
        return self.sanctions + self.appeals


def _count(qs) -> Coalesce:
    """``qs``'s row count as a scalar subquery (0 when empty)."""
    counted = qs.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def pending_for(user, event=None, event_permissions=frozenset()) -> Pending:
    """The counts for ``user`` (on ``event``'s staff pages when given, with the
    permissions they hold there). At most two queries; none for an anonymous user."""
    if not getattr(user, "is_authenticated", False):
        return Pending()
    rulesets = authority_rulesets(user)
    counts = {}
    if event is not None and P.CONFIRM_PENALTIES in event_permissions:
        counts["penalties"] = _count(
            Penalty.objects.filter(event=event, status=Penalty.Status.PENDING)
        )
    if rulesets:
        today = timezone.localdate()
        pending = live_sanctions(today).filter(ruleset__in=rulesets, confirmed_at__isnull=True)
        counts["sanctions"] = _count(pending)
        counts["appeals"] = _count(pending_written_appeals_for(user))
    if not counts:
        return Pending()
    row = get_user_model().objects.filter(pk=user.pk).values(**counts).first() or {}
    return Pending(**row, authority=bool(rulesets))


def pending_items(request) -> dict:
    """Context processor: ``nav_pending`` (a :class:`Pending`, computed on first use). Not on
    the league site's pages (``leagues``: its staff have their own queues, and its pages
    keep their query budgets)."""
    match = getattr(request, "resolver_match", None)
    if match is not None and "leagues" in match.namespaces:
        return {"nav_pending": Pending()}
    return {
        "nav_pending": SimpleLazyObject(
            lambda: pending_for(
                request.user,
                getattr(request, "event", None),
                getattr(request, "event_permissions", frozenset()),
            )
        )
    }
