"""``{{ round|round_name:event }}``: a round's name without a query — "Round 3", or the
top-cut stage (quarter-finals, semi-finals, top-cut final) from the event's top-cut size."""

from django import template

from events.swiss_services import round_label

register = template.Library()


@register.filter
def round_name(rnd, event) -> str:
    """The name of ``rnd`` (a ``Round`` of ``event``): top-cut rounds by their stage."""

    if not rnd.is_top_cut or not event.top_cut:
        return str(rnd)
    stage = rnd.number - event.preliminary_rounds  # 1 for the first top-cut round
    matches = event.top_cut // (2**stage) if stage >= 1 else None
    return round_label(rnd, matches or None) if matches else str(rnd)
