"""``{% form_id %}``: the hidden submission id of a league staff or tribunal form, a fresh
UUID each time the form is shown (:mod:`leagues.submissions`)."""

import uuid

from django import template
from django.utils.html import format_html

from leagues.submissions import FIELD

register = template.Library()


@register.simple_tag
def form_id() -> str:
    """``<input type="hidden" name="client_id" value="<uuid4>">``."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4())
