"""A stored penalty's texts in the reader's language (docs/i18n.md "Texts that are stored").

A penalty's ``explanation`` is stored as the engine wrote it, in the language of the judge
who logged it (the stored field and the files, docs/contracts.md, keep it unchanged). The
penalty page shows :func:`explanation` instead: the judges' guide's assessment recomputed
from the stored inputs (infraction, conditions, the person's earlier penalties of the
event, earlier events, the linked penalty, a head judge's deviation; JG §1.2.1, §1.2.6) in
the active language — but only when that recomputation, in one of the site's languages,
gives back exactly the stored text. Otherwise (the history changed since, an older
version of the guide, another ruleset's engine) the stored text is shown as it is.

A void reason made by an appeal ("Reverted on written appeal: …") is stored translated
for whoever decided; :func:`void_reason` shows it in the reader's language with the free
text unchanged, recognising the stored sentence by its own template in each language.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from events import rulesets
from penalties import lifecycle, services
from penalties import vekn_guide as guide
from penalties.models import Penalty

APPEAL_REVERTS = (
    gettext_noop("Reverted on written appeal: %(r)s"),
    gettext_noop("Reverted on appeal to the head judge: %(r)s"),
)
"""The stored void reasons of an appeal's revert (``penalties.myl_services``): a
template with the free text ``%(r)s`` (the appeal's reasons) at its end."""


def _recompute(penalty: Penalty) -> str | None:
    """The VEKN explanation of ``penalty`` from its stored inputs, in the active language;
    ``None`` when the guide refuses them (an infraction or condition it no longer knows).
    The same inputs as at logging (``services.preview``): the person's earlier penalties
    of the event (voided ones and the linked one left out), their earlier events."""
    linked = penalty.linked_to
    history = [
        guide.PriorPenalty(p.infraction, p.level, linked=p.is_linked)
        for p in lifecycle.event_penalties(penalty.event, penalty.person, penalty.ruleset)
        .filter(created_at__lte=penalty.created_at, pk__lt=penalty.pk)
        .exclude(pk=linked.pk if linked else None)
    ]
    prior_events = [
        guide.PriorPenalty(p.infraction, p.level, linked=p.is_linked)
        for p in services.earlier_events(penalty.event, penalty.person)
    ]
    linked_to = None
    if linked is not None:
        linked_to = guide.Assessment(
            level=guide.Level(linked.level),
            offence=linked.offence,
            baseline=guide.Level(linked.baseline),
            explanation=linked.explanation,
            source=linked.source,
            infraction=linked.infraction,
        )
    try:
        assessment = guide.assess(
            services.RULESET,
            penalty.infraction,
            penalty.conditions,
            history,
            prior_events,
            linked_to=linked_to,
        )
        if penalty.deviation_reason and penalty.level != str(assessment.level):
            assessment = guide.deviate(assessment, penalty.level, penalty.deviation_reason)
    except (guide.ConditionError, KeyError, ValueError):
        return None
    return assessment.explanation


def explanation(penalty: Penalty) -> str:
    """``penalty.explanation`` in the active language when it can be recomputed exactly
    (see the module), else as stored. A few queries (the person's penalties)."""
    stored = penalty.explanation
    if not stored or rulesets.of(penalty).adapter("penalties") is not services:
        return stored
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            again = _recompute(penalty)
        if again is None:
            return stored
        if again == stored:
            return _recompute(penalty) or stored
    return stored


def void_reason(penalty: Penalty) -> str:
    """``penalty.void_reason`` in the active language when it is an appeal's revert
    (:data:`APPEAL_REVERTS`, stored in any of the site's languages), else as stored."""
    stored = penalty.void_reason
    for template in APPEAL_REVERTS:
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                head, _sep, tail = gettext(template).partition("%(r)s")
            if tail or not head:
                continue
            if stored.startswith(head):
                return gettext(template) % {"r": stored[len(head) :]}
    return stored
