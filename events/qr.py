"""QR codes for printed pages (issue 14): a page's address as inline SVG markup.

Drawn on the server with ``segno`` (pure Python, no network) and put in the page as an
``<svg>`` element: no image request and no ``data:`` URI, and only presentation
attributes (``stroke``), never a ``style`` attribute, so the content security policy
(``style-src 'self'``, config/settings/base.py) lets it through. Pure: no ORM.
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

MAX_URL_LENGTH = 500
"""The longest address encoded; a page address is far shorter (a slug is at most 50)."""


def qr_svg(url: str, *, title: str = "", scale: int = 4) -> SafeString:
    """``<svg class="qr" viewBox=…>…</svg>`` encoding ``url`` (an absolute address, at
    most :data:`MAX_URL_LENGTH` characters), error correction M (15 % of the code can be
    smudged), a four-module quiet zone; ``title`` (escaped) is its accessible name.
    ``scale`` is the SVG's unit per module: the printed size is set by the CSS (``.qr``).
    ``ValueError`` for an empty or over-long address."""
    if not url or len(url) > MAX_URL_LENGTH:
        raise ValueError(f"A QR code address must be 1 to {MAX_URL_LENGTH} characters")
    code = segno.make(url, error="m", micro=False)
    # segno escapes the title and writes only path data and presentation attributes.
    return mark_safe(
        code.svg_inline(scale=scale, title=title or None, svgclass="qr", omitsize=True)
    )
