"""A judge's entry wins over a result the players reported (docs/players.md "Reporting
your table's result"): the judges' result services (``events.services.save_results``,
``events.swiss_services.save_match_result``) call :func:`close_for_judge` in their own
transaction, so a judge's entry or correction closes the table's open report as
``judged``, audited (``result_report.judged``). In the kernel, below both services and
the players' reporting services (``events.self_report``), which import neither each
other nor this module's callers' private names."""

from __future__ import annotations

from django.utils import timezone

from events import cache as page_cache
from events.audit import audit
from events.models import ResultReport, Table
from events.report_rules import OPEN, Status

JUDGED = "result_report.judged"


def close_for_judge(table: Table, actor, now=None) -> ResultReport | None:
    """Close ``table``'s open report (pending or disputed) as ``judged`` because a judge
    or scorekeeper saved the table's result; the report row is locked first. Returns the
    closed report, ``None`` when the table had no open report. Call it inside the
    caller's transaction (the result save). Every call renews the event's floor token
    (``events.cache.floor_changed``): the table's seat boxes show the saved result."""
    page_cache.floor_changed(table.round.event_id)
    report = (
        ResultReport.objects.select_for_update()
        .filter(table=table, status__in=[s.value for s in OPEN])
        .first()
    )
    if report is None:
        return None
    before = report.status
    report.status = Status.JUDGED.value
    report.decided_at = now or timezone.now()
    report.save(update_fields=["status", "decided_at"])
    audit(
        table.round.event,
        actor,
        JUDGED,
        target=str(report),
        before={"status": before, "values": report.values},
        after={"status": report.status},
        about=report,
    )
    return report
