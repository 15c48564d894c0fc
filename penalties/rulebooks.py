"""Every penalty rulebook, by the ruleset code stored on a penalty: the current
``Ruleset`` of :data:`penalties.vekn_guide.RULESETS` (the judges' guide) and of
:data:`penalties.myl_rules.RULESETS` (the MyL conduct rules).

Code holding a penalty's ``ruleset`` asks here how to show it, instead of testing which
rulebook the code belongs to: :func:`level_words` and :func:`infraction_title`. Each
``Ruleset`` answers in its own terms (docs/architecture.md "The ruleset seam"). Pure, no
ORM.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from penalties import levels as vocabulary
from penalties import myl_rules, vekn_guide

RULESETS: Mapping[str, vekn_guide.Ruleset | myl_rules.Ruleset] = MappingProxyType(
    {**vekn_guide.RULESETS, **myl_rules.RULESETS}
)
"""Current penalty ruleset per stored ruleset code."""


def level_words(ruleset: str, level: str) -> str:
    """How a penalty of ``ruleset`` shows ``level`` in the active language: in Spanish a
    Mitos y Leyendas ``warning`` is *Advertencia* (MyL conduct §4.1), a VEKN ``warning``
    *Amonestación* (JG §1.1.2). A ruleset with no rulebook here gets the models'
    words (:func:`penalties.levels.level_words`); an unknown level code is returned as it
    is."""
    book = RULESETS.get(ruleset)
    return vocabulary.level_words(level) if book is None else book.level_words(level)


def infraction_title(ruleset: str, code: str) -> str:
    """The name of infraction ``code`` of ``ruleset`` in the active language (from its
    catalogue); ``""`` when the ruleset or the code is unknown."""
    book = RULESETS.get(ruleset)
    return "" if book is None else book.infraction_title(code)
