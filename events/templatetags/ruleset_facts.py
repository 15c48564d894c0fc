"""``{{ event|ruleset_fact:"player_number_label" }}``: a fact of the event's ruleset
(``events.rulesets.RulesetSpec``), so a template asks the registry instead of comparing
ruleset codes (docs/architecture.md "The ruleset seam")."""

from django import template

from events import rulesets

register = template.Library()

FACTS = frozenset(
    {
        "label",
        "player_number_label",
        "player_number_prefix",
        "pairs_matches",
        "person_search_hint",
        "non_competing_hint",
        "penalty_report",
        "written_appeals",
    }
)
"""The facts a template may read."""


@register.filter
def ruleset_fact(obj, name: str):
    """The fact ``name`` (one of :data:`FACTS`) of the ruleset of ``obj`` (anything with a
    ``ruleset`` code: an event, a penalty). ``ValueError`` for another name (a typo in a
    template is a bug, not an empty string)."""
    if name not in FACTS:
        raise ValueError(f"not a ruleset fact a template reads: {name}")
    return getattr(rulesets.of(obj), name)
