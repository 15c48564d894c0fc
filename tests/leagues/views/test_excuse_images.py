"""More than one evidence image for an excuse (ANFPES T24 §IV.6; leagues.reporting
``request_excuse``, ExcuseForm, the match page): one to MAX_EXCUSE_IMAGES images, each
validated and re-encoded; too many or one bad image refuses the whole request and
nothing is saved; the images are shown to the two players and staff only."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.errors import UserError
from leagues import reporting
from leagues.forms import ExcuseForm
from leagues.models import MAX_EXCUSE_IMAGES, Excuse, ExcuseImage
from tests.leagues.views.test_reporting import league, png  # noqa: F401 (fixture)


def url(league, name="leagues:match", **extra):  # noqa: F811
    m = league["match"]
    return reverse(name, kwargs={"slug": m.competition.slug, "code": m.code, **extra})


def ask(league, evidence, user=None):  # noqa: F811
    return reporting.request_excuse(
        league["match"],
        user or league["home"],
        date_from=date(2026, 3, 1),
        date_to=date(2026, 3, 5),
        reason="trip",
        evidence=evidence,
    )


def form_data():
    return {"date_from": "2026-03-01", "date_to": "2026-03-05", "reason": "trip"}


def not_an_image(name="x.png"):
    return SimpleUploadedFile(name, b"<script>alert(1)</script>", content_type="image/png")


def test_three_images_are_kept_in_order(league):  # noqa: F811
    excuse = ask(league, [png("a.png"), png("b.jpg", fmt="JPEG"), png("c.webp", fmt="WEBP")])
    assert excuse.evidence.name.endswith(".png")
    extra = list(ExcuseImage.objects.filter(excuse=excuse))
    assert [(i.position, i.image.name.rsplit(".", 1)[-1]) for i in extra] == [
        (2, "jpg"),
        (3, "webp"),
    ]


def test_one_image_still_works(league):  # noqa: F811
    excuse = ask(league, png())
    assert excuse.evidence and not ExcuseImage.objects.exists()


def test_too_many_images_are_refused_by_the_service(league):  # noqa: F811
    with pytest.raises(UserError) as caught:
        ask(league, [png() for _ in range(MAX_EXCUSE_IMAGES + 1)])
    assert caught.value.field == "evidence"
    assert not Excuse.objects.exists() and not ExcuseImage.objects.exists()


def test_one_bad_image_refuses_all(league):  # noqa: F811
    with pytest.raises(UserError):
        ask(league, [png(), not_an_image()])
    assert not Excuse.objects.exists() and not ExcuseImage.objects.exists()


def test_the_form_checks_each_image(settings):
    data = form_data()
    form = ExcuseForm(data, {"evidence": [png(), not_an_image()]})
    assert not form.is_valid()
    assert "Image 2:" in " ".join(form.errors["evidence"])
    form = ExcuseForm(data, {"evidence": [png() for _ in range(MAX_EXCUSE_IMAGES + 1)]})
    assert not form.is_valid() and "at most" in " ".join(form.errors["evidence"])
    assert not ExcuseForm(data, {}).is_valid()
    settings.LEAGUE_IMAGE_MAX_BYTES = 100
    form = ExcuseForm(data, {"evidence": [png(size=(200, 200))]})
    assert not form.is_valid() and "too large" in " ".join(form.errors["evidence"])
    settings.LEAGUE_IMAGE_MAX_BYTES = 5 * 1024 * 1024
    form = ExcuseForm(data, {"evidence": [png(), png()]})
    assert form.is_valid() and len(form.cleaned_data["evidence"]) == 2


def test_the_page_sends_and_shows_the_images(client, league):  # noqa: F811
    client.force_login(league["home"])
    data = {**form_data(), "evidence": [png("a.png"), png("b.png")]}
    response = client.post(url(league, "leagues:match-excuse"), data)
    assert response.status_code == 302
    second = url(league, "leagues:excuse-evidence") + "?n=2"
    for user in (league["away"], league["staff"]):
        client.force_login(user)
        assert second.encode() in client.get(url(league)).content
        assert client.get(second).status_code == 200
    assert client.get(url(league, "leagues:excuse-evidence") + "?n=3").status_code == 404
    client.force_login(league["outsider"])
    assert client.get(second).status_code == 404
    client.logout()
    assert client.get(second).status_code == 404


def test_the_page_refuses_too_many_and_keeps_nothing(client, league):  # noqa: F811
    client.force_login(league["home"])
    data = {**form_data(), "evidence": [png() for _ in range(MAX_EXCUSE_IMAGES + 1)]}
    response = client.post(url(league, "leagues:match-excuse"), data)
    assert response.status_code == 400 and b"at most" in response.content
    assert not Excuse.objects.exists()
    # A double submit of a good request: one excuse, the second refused.
    data = {**form_data(), "evidence": [png(), png()]}
    assert client.post(url(league, "leagues:match-excuse"), data).status_code == 302
    assert client.post(url(league, "leagues:match-excuse"), data).status_code in (302, 400)
    assert Excuse.objects.count() == 1 and ExcuseImage.objects.count() == 1
