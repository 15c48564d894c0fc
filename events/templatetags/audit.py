"""Template filters that make audit entries readable: ``{{ entry.action|action_label }}``
("league.result_confirmed" → "Result confirmed") and ``{{ entry.after|audit_pairs }}``
(a JSON object → ``[(key, text)]`` with date-times in the current time zone)."""

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format

register = template.Library()


@register.filter
def action_label(code: str) -> str:
    """The last part of a dotted action code, in words."""
    words = str(code or "").rsplit(".", 1)[-1].replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _text(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        if moment.tzinfo is not None and ("T" in value or " " in value):
            return date_format(timezone.localtime(moment), "D j M Y H:i")
        return value
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    return str(value)


@register.filter
def audit_pairs(value) -> list[tuple[str, str]]:
    """``[(key, readable value)]`` of a JSON object; a non-object gives one pair with an
    empty key; nothing for ``None``."""
    if value is None or value == {}:
        return []
    if isinstance(value, dict):
        return [(str(k).replace("_", " "), _text(v)) for k, v in value.items()]
    return [("", _text(value))]
