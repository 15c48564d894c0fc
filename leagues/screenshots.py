"""Reused screenshots (issue 17; docs/leagues.md "Reused screenshots"): the perceptual hash
(``imagehash.phash``, 64 bits) of every stored result screenshot is computed on upload;
one within :data:`leagues.rules.scheduling.REUSE_DISTANCE` bits of a screenshot of
**another match** of the same season is flagged to staff (:class:`ScreenshotReuse`), with
the pair shown on the staff page. Nothing is refused or decided automatically: staff look.

Called inside the report's transaction (:func:`leagues.reporting.report_result`); an image
that cannot be hashed is skipped (it was already decoded and re-encoded by
:mod:`leagues.images`, so this is a storage problem, logged).
"""

from __future__ import annotations

import logging

import imagehash
from PIL import Image

from leagues.models import ResultReport, ScreenshotHash, ScreenshotReuse
from leagues.rules.scheduling import hamming, is_reuse

logger = logging.getLogger(__name__)


def phash_of(file) -> str:
    """The 16-hex-digit perceptual hash of an image file (any object Pillow opens)."""
    file.seek(0)
    with Image.open(file) as image:
        value = str(imagehash.phash(image.convert("RGB")))
    file.seek(0)
    return value


def record(report: ResultReport) -> list[ScreenshotReuse]:
    """Hash ``report``'s screenshots and flag those that look like a screenshot of another
    match of the season. Returns the flags created. Queries: one read of the season's
    hashes per image, bulk inserts."""
    season = report.match.competition.season
    flags = []
    for kind, field in (
        (ScreenshotHash.Image.RESULT, report.screenshot),
        (ScreenshotHash.Image.BOOKINGS, report.bookings_screenshot),
    ):
        if not field:
            continue
        try:
            with field.open("rb") as handle:
                value = phash_of(handle)
        except (OSError, ValueError):
            logger.exception("screenshots: could not hash report %s", report.pk)
            continue
        row = ScreenshotHash.objects.create(report=report, image=kind, phash=value, season=season)
        earlier = ScreenshotHash.objects.filter(season=season).exclude(
            report__match_id=report.match_id
        )
        flags += [
            ScreenshotReuse(hash=row, earlier=other, distance=hamming(value, other.phash))
            for other in earlier.only("pk", "phash")
            if is_reuse(value, other.phash)
        ]
    return ScreenshotReuse.objects.bulk_create(flags)


def reuses(season) -> list[ScreenshotReuse]:
    """The season's reused-screenshot flags, newest first, with both reports' matches.
    One query."""
    return list(
        ScreenshotReuse.objects.filter(hash__season=season).select_related(
            "hash__report__match__competition",
            "hash__report__match__home",
            "hash__report__match__away",
            "hash__report__team",
            "earlier__report__match__competition",
            "earlier__report__match__home",
            "earlier__report__match__away",
            "earlier__report__team",
        )
    )
