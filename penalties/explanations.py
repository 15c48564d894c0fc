"""A stored penalty's texts in the reader's language (docs/i18n.md "Texts that are stored").

A penalty's ``explanation`` is stored as the engine wrote it, in the language of the judge
who logged it (the stored field and the files, docs/contracts.md, keep it unchanged). The
penalty page shows :func:`explanation` instead: the judges' guide's assessment recomputed
from the stored inputs (infraction, conditions, the person's earlier penalties of the
event, earlier events, the linked penalty, a head judge's deviation; JG §1.2.1, §1.2.6) in
the active language — but only when that recomputation, in one of the site's languages,
gives back exactly the stored text. The same for a Mitos y Leyendas penalty, from the
MyL conduct rules' engine (``penalties.myl_rules.assess``, MyL conduct §4.2–§4.3, with
the rules' version the penalty was logged under). Otherwise (the history changed since,
an older version of the guide, a ruleset without a recomputation) the stored text is shown
as it is.

A void reason made by an appeal ("Reverted on written appeal: …") is stored translated
for whoever decided; :func:`void_reason` shows it in the reader's language with the free
text unchanged, recognising the stored sentence by its own template in each language.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from events import rulesets
from penalties import lifecycle, myl_services, services
from penalties import myl_rules as myl
from penalties import vekn_guide as guide
from penalties.models import Penalty

APPEAL_REVERTS = (
    gettext_noop("Reverted on written appeal: %(r)s"),
    gettext_noop("Reverted on appeal to the head judge: %(r)s"),
)
"""The stored void reasons of an appeal's revert (``penalties.myl_services``): a
template with the free text ``%(r)s`` (the appeal's reasons) at its end."""


def _recompute_vekn(penalty: Penalty) -> str | None:
    """The VEKN explanation of ``penalty`` from its stored inputs, in the active language
    (:func:`_vekn_engine` once)."""
    return _vekn_engine(penalty)()


def _vekn_engine(penalty: Penalty):
    """A function giving the VEKN explanation of ``penalty`` from its stored inputs, in
    the active language, or ``None`` when the guide refuses them (an infraction or
    condition it no longer knows). The inputs are loaded once, the same as at logging
    (``services.preview``): the person's earlier penalties of the event (voided ones and
    the linked one left out), their earlier events."""
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

    def again() -> str | None:
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

    return again


def _myl_engine(penalty: Penalty):
    """A function giving the MyL explanation of ``penalty`` from its stored inputs, in the
    active language, or ``None`` when the rules refuse them. The inputs are loaded once,
    the same as at logging (``myl_services.preview``): the person's earlier MyL penalties
    of the event (voided ones left out), those of their earlier events, under the
    penalty's rules version."""
    history = [
        myl_services.prior_penalty(p)
        for p in myl_services.event_penalties(penalty.event, penalty.person).filter(
            created_at__lte=penalty.created_at, pk__lt=penalty.pk
        )
    ]
    prior_events = [
        myl_services.prior_penalty(p)
        for p in myl_services.earlier_events(penalty.event, penalty.person)
    ]

    def again() -> str | None:
        try:
            ruleset = myl.get_ruleset(penalty.ruleset, penalty.ruleset_version or None)
            return myl.assess(
                penalty.infraction, penalty.conditions, history, prior_events, ruleset=ruleset
            ).explanation
        except (myl.ConditionError, KeyError, ValueError):
            return None

    return again


_ENGINES = {services: _vekn_engine, myl_services: _myl_engine}
"""Each penalties adapter (``events.rulesets`` ``adapters["penalties"]``) → how its
engine writes a stored penalty's explanation again."""


def explanation(penalty: Penalty) -> str:
    """``penalty.explanation`` in the active language when it can be recomputed exactly
    (see the module), else as stored. A few queries (the person's penalties)."""
    stored = penalty.explanation
    engine = _ENGINES.get(rulesets.of(penalty).adapter("penalties"))
    if not stored or engine is None:
        return stored
    recompute = engine(penalty)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            again = recompute()
        if again is None:
            return stored
        if again == stored:
            return recompute() or stored
    return stored


def void_reason(penalty: Penalty) -> str:
    """``penalty.void_reason`` in the active language when it is an appeal's revert
    (:data:`APPEAL_REVERTS`, stored in any of the site's languages), else as stored."""
    return revert_reason(penalty.void_reason)


def history(entries) -> list:
    """The audit entries of a penalty's history (``events.audit.entries_about``), each
    with ``comment_shown``: its comment through :func:`revert_reason` (a void's entry
    carries the void reason)."""
    entries = list(entries)
    for e in entries:
        e.comment_shown = revert_reason(e.comment or "")
    return entries


def with_lift_reasons(sanctions) -> list:
    """The sanctions of a penalty, each with ``lift_reason_shown``: its ``lift_reason``
    through :func:`revert_reason` (a revert lifts the sanction with the void reason)."""
    sanctions = list(sanctions)
    for s in sanctions:
        s.lift_reason_shown = revert_reason(s.lift_reason)
    return sanctions


def revert_reason(stored: str) -> str:
    """A stored reason (a void reason, a sanction's lift reason, an audit comment) in the
    active language when it is an appeal's revert (:data:`APPEAL_REVERTS`, stored in any of
    the site's languages; the appeal's own free text unchanged), else as stored."""
    for template in APPEAL_REVERTS:
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                head, _sep, tail = gettext(template).partition("%(r)s")
            if tail or not head:
                continue
            if stored.startswith(head):
                return gettext(template) % {"r": stored[len(head) :]}
    return stored
