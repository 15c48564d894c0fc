"""Uploaded images (result screenshots, excuse evidence) are re-encoded before they are
stored, so what is kept and served is never the uploaded bytes (issue 7, security):

- decoded by Pillow (a file Pillow cannot fully decode is refused), at most
  :data:`MAX_PIXELS` pixels before decoding (a "decompression bomb" is refused);
- the EXIF orientation applied to the pixels (a phone photo stays upright), then every
  piece of metadata dropped — EXIF (GPS position, camera, time), XMP, ICC profile, text
  chunks, comments — and anything appended after the image data (a trailing HTML or
  script payload, a polyglot file);
- scaled down to fit :data:`MAX_SIDE` × :data:`MAX_SIDE` **[choice: a screenshot needs
  no more]**;
- written again in the same format (JPEG quality 90, PNG optimised, WebP quality 90);
  an image with transparency stays PNG/WebP, a JPEG is always RGB.

The name of the stored file is the model's ``upload_to`` (random), with the extension of
the format actually written.
"""

from __future__ import annotations

import io

from django.core.files.base import ContentFile
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from events.errors import UserError

MAX_SIDE = 4096
"""Longest side of a stored image, in pixels."""

MAX_PIXELS = 4096 * 4096
"""Largest image decoded (width × height) before it is scaled down: about 67 MB as RGBA,
so a handful of uploads at once cannot exhaust a server's memory (a 12-megapixel phone
photo fits) **[choice]**."""

FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
"""Formats kept (Pillow names) and the stored file's extension."""


def reencode(upload, *, field: str | None = None) -> ContentFile:
    """A new file holding ``upload`` decoded and encoded again (module docstring). Raises
    :class:`UserError` (with ``field``) for a file that is not a complete JPEG, PNG or WebP
    image. The upload's position is reset; its bytes are never kept."""
    try:
        upload.seek(0)
    except (AttributeError, OSError):
        pass
    try:
        with Image.open(upload) as source:
            fmt = source.format
            if fmt not in FORMATS:
                raise UserError(_("Send a JPEG, PNG or WebP image."), field=field)
            width, height = source.size
            if width * height > MAX_PIXELS:
                raise UserError(_("The image has too many pixels."), field=field)
            source.load()
            image = ImageOps.exif_transpose(source)
    except UserError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise UserError(_("Send a JPEG, PNG or WebP image."), field=field) from None
    # Pixels only: a fresh image carries no info/EXIF/ICC/text chunks of the upload.
    alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    mode = "RGBA" if alpha and fmt != "JPEG" else "RGB"
    try:
        pixels = image.convert(mode)
        pixels.thumbnail((MAX_SIDE, MAX_SIDE))
        clean = Image.new(mode, pixels.size)
        clean.paste(pixels)
    except (OSError, ValueError):
        raise UserError(_("Send a JPEG, PNG or WebP image."), field=field) from None
    out = io.BytesIO()
    if fmt == "JPEG":
        clean.save(out, "JPEG", quality=90, optimize=True)
    elif fmt == "PNG":
        clean.save(out, "PNG", optimize=True)
    else:
        clean.save(out, "WEBP", quality=90)
    name = getattr(upload, "name", "") or "image"
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0] or "image"
    return ContentFile(out.getvalue(), name=f"{stem}.{FORMATS[fmt]}")
