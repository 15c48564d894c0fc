"""Reports of aggression to the Organised Play manager (MyL conduct rules §5.8;
docs/rules-myl-penalties.md). Moved out of ``penalties.myl_services``; same function."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from penalties.lifecycle import audit_target
from penalties.models import AggressionReport, Penalty
from penalties.myl_services import is_aggression


def write_aggression_report(
    penalty: Penalty,
    *,
    kind: str,
    description: str,
    witnesses: str = "",
    authorities_called: bool = False,
    authorities_detail: str = "",
    actor=None,
) -> AggressionReport:
    """Save the §5.8 incident report of an aggression: kind (physical, verbal, both),
    what happened, witnesses' names, authorities called and which."""
    if not is_aggression(penalty):
        raise UserError(_("Only an aggression has an incident report."))
    description, witnesses, authorities_detail = (
        check_free_text(value, field_label(AggressionReport, name), field=name)
        for name, value in (
            ("description", description),
            ("witnesses", witnesses),
            ("authorities_detail", authorities_detail),
        )
    )
    if kind not in AggressionReport.Kind.values:
        raise UserError(_("Say whether the aggression was physical, verbal or both."))
    if not description.strip():
        raise UserError(_("Describe what happened."))
    if authorities_called and not authorities_detail.strip():
        raise UserError(_("Say which authorities were called, and when."))
    with transaction.atomic():
        report, created = AggressionReport.objects.update_or_create(
            penalty=penalty,
            defaults={
                "kind": kind,
                "description": description.strip(),
                "witnesses": witnesses.strip(),
                "authorities_called": bool(authorities_called),
                "authorities_detail": authorities_detail.strip(),
                "written_by": actor if getattr(actor, "is_authenticated", False) else None,
            },
        )
        audit(
            penalty.event,
            actor,
            "penalty.aggression_report",
            audit_target(penalty),
            after={"kind": kind, "authorities_called": bool(authorities_called)},
            about=penalty,
        )
    return report
