"""Uploaded images are stored re-encoded (leagues/images.py; issue 7 security item):
metadata (EXIF GPS …) and bytes appended after the image (an HTML payload) never reach
the storage, the EXIF orientation is applied, sizes are capped, and a broken file is
refused with nothing saved."""

import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from events.errors import UserError
from leagues import images, reporting
from leagues.models import Excuse, ResultReport
from tests.leagues.views.test_reporting import league, png, posted  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

PAYLOAD = b"<html><script>alert(document.cookie)</script></html>"


def jpeg_with_gps(size=(60, 30), orientation=None):
    image = Image.new("RGB", size, (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    gps = {1: "S", 2: (33.0, 26.0, 0.0), 3: "W", 4: (70.0, 39.0, 0.0)}
    exif[0x8825] = gps  # GPSInfo
    if orientation:
        exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif.tobytes(), comment=b"secret comment")
    return buffer.getvalue()


def stored(report) -> bytes:
    report.screenshot.open("rb")
    try:
        return report.screenshot.read()
    finally:
        report.screenshot.close()


def send(league, data, name="shot.png", content_type="image/png"):  # noqa: F811
    return reporting.report_result(
        league["match"],
        league["home"],
        home_goals=1,
        away_goals=0,
        posted_at=posted(),
        screenshot=SimpleUploadedFile(name, data, content_type=content_type),
    )


def test_a_trailing_html_payload_is_not_stored(league, settings, tmp_path):  # noqa: F811
    settings.MEDIA_ROOT = tmp_path
    original = png().read() + PAYLOAD
    report = send(league, original, name="shot.html.png")
    data = stored(report)
    assert PAYLOAD not in data and b"<script" not in data and data != original
    assert report.screenshot.name.endswith(".png")
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (64, 40)


def test_exif_gps_and_comments_are_stripped(league, settings, tmp_path):  # noqa: F811
    settings.MEDIA_ROOT = tmp_path
    original = jpeg_with_gps()
    assert b"PhoneMaker" in original
    report = send(league, original, name="photo.jpg", content_type="image/jpeg")
    data = stored(report)
    assert b"PhoneMaker" not in data and b"secret comment" not in data
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "JPEG"
        assert not image.getexif() and "exif" not in image.info and "comment" not in image.info


def test_the_exif_orientation_is_applied_and_sizes_are_capped():
    # Orientation 6: the camera was turned; the stored image is upright (taller).
    upright = images.reencode(
        SimpleUploadedFile("p.jpg", jpeg_with_gps((60, 30), orientation=6)), field="screenshot"
    )
    with Image.open(io.BytesIO(upright.read())) as image:
        assert image.size == (30, 60) and not image.getexif()
    big = io.BytesIO()
    Image.new("RGB", (images.MAX_SIDE * 2, 100), (0, 0, 0)).save(big, "PNG")
    capped = images.reencode(SimpleUploadedFile("big.png", big.getvalue()))
    with Image.open(io.BytesIO(capped.read())) as image:
        assert image.size == (images.MAX_SIDE, 50)


def test_transparency_and_webp_keep_their_format():
    buffer = io.BytesIO()
    Image.new("RGBA", (8, 8), (0, 0, 0, 0)).save(buffer, "WEBP")
    out = images.reencode(SimpleUploadedFile("a.webp", buffer.getvalue()))
    assert out.name.endswith(".webp")
    with Image.open(io.BytesIO(out.read())) as image:
        assert image.format == "WEBP" and image.mode == "RGBA"


@pytest.mark.parametrize(
    "data",
    [
        b"not an image at all",
        PAYLOAD,
        png().read()[:60],  # truncated
        b"GIF89a" + b"\x00" * 40,
    ],
)
def test_broken_or_other_files_are_refused_and_nothing_saved(league, settings, tmp_path, data):  # noqa: F811
    settings.MEDIA_ROOT = tmp_path
    with pytest.raises(UserError):
        send(league, data)
    assert not ResultReport.objects.exists()
    assert not any(tmp_path.rglob("*.*"))


def test_excuse_evidence_is_re_encoded_too(league, settings, tmp_path):  # noqa: F811
    settings.MEDIA_ROOT = tmp_path
    match = league["match"]
    reporting.request_excuse(
        match,
        league["home"],
        date_from=match.initial_deadline.date() - timedelta(days=1),
        date_to=match.final_deadline.date(),
        reason="travelling",
        evidence=SimpleUploadedFile("e.png", png().read() + PAYLOAD, content_type="image/png"),
    )
    excuse = Excuse.objects.get()
    excuse.evidence.open("rb")
    assert PAYLOAD not in excuse.evidence.read()
    excuse.evidence.close()
