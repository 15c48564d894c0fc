"""``{{ round|round_name:event }}``: a round's name without a query — "Round 3", "Final",
or the top-cut stage (quarter-finals, semi-finals, top-cut final) from the event's
top-cut size (``events.rulesets.round_label``)."""

from django import template

from events import rulesets

register = template.Library()


@register.filter
def round_name(rnd, event) -> str:
    """The name of ``rnd`` (a ``Round`` of ``event``): top-cut rounds by their stage."""
    return rulesets.round_label(rnd, event=event)
