"""Stored penalty texts in the reader's language (issue 14, docs/i18n.md "Texts that are
stored"): the explanation recomputed from the stored inputs when that gives back the
stored text, an appeal's revert reason re-worded with its free text kept."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from events.access import user_permissions
from penalties import explanations, services
from penalties.models import Penalty
from tests.conftest import add_players
from tests.penalties.views.test_myl_pages import myl  # noqa: F401 (the MyL event fixture)


@pytest.fixture(autouse=True)
def _language_restored():
    """The pages below activate Spanish for the thread (LocaleMiddleware): put back what
    was active, so that the tests after these read their usual English."""
    before = translation.get_language()
    yield
    if before:
        translation.activate(before)
    else:
        translation.deactivate()


def _log(event, reg, user, language):
    with translation.override(language):
        return services.log_penalty(
            event,
            reg,
            "4.7",
            {},
            client_id=uuid.uuid4(),
            actor=user,
            perms=user_permissions(user, event),
        ).penalty


def test_explanation_logged_in_english_reads_in_spanish(client, event, staff):
    reg = add_players(event, 4)[0]
    head = staff["head_judge"]
    penalty = _log(event, reg, head, "en")
    with translation.override("es"):
        spanish = services.preview(event, reg, "4.7", {}).explanation
    english = penalty.explanation
    assert spanish != english
    with translation.override("es"):
        assert explanations.explanation(penalty) == _spanish_of(penalty)
    client.force_login(head)
    url = reverse("manage:penalty", kwargs={"slug": event.slug, "pk": penalty.pk})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert escape(english) not in page and escape(_spanish_of(penalty)) in page
    page_en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert escape(english) in page_en
    penalty.refresh_from_db()
    assert penalty.explanation == english  # the stored field is never rewritten


def _spanish_of(penalty):
    """The explanation the guide gives in Spanish for the same inputs (nothing earlier)."""
    with translation.override("es"):
        return explanations._recompute_vekn(penalty)


def test_explanation_logged_in_spanish_reads_in_english(event, staff):
    reg = add_players(event, 4)[0]
    penalty = _log(event, reg, staff["head_judge"], "es")
    with translation.override("en"):
        english = explanations.explanation(penalty)
    assert english != penalty.explanation and english
    with translation.override("es"):
        assert explanations.explanation(penalty) == penalty.explanation


def test_an_explanation_that_no_longer_recomputes_is_shown_as_stored(event, staff):
    reg = add_players(event, 4)[0]
    penalty = _log(event, reg, staff["head_judge"], "en")
    Penalty.objects.filter(pk=penalty.pk).update(explanation="Edited by hand.")
    penalty.refresh_from_db()
    with translation.override("es"):
        assert explanations.explanation(penalty) == "Edited by hand."


def test_appeal_revert_reason_in_the_readers_language():
    stored_es = Penalty(void_reason="Revertida en apelación escrita: El video muestra defensa")
    stored_en = Penalty(void_reason="Reverted on written appeal: Video shows self-defence")
    with translation.override("en"):
        assert (
            explanations.void_reason(stored_es)
            == "Reverted on written appeal: El video muestra defensa"
        )
        assert explanations.void_reason(stored_en) == stored_en.void_reason
    with translation.override("es"):
        assert (
            explanations.void_reason(stored_en)
            == "Revertida en apelación escrita: Video shows self-defence"
        )
        other = Penalty(void_reason="Wrong player")
        assert explanations.void_reason(other) == "Wrong player"


def test_my_sanctions_shows_the_revert_reason_in_the_readers_language(client, event, staff):
    reg = add_players(event, 4)[0]
    penalty = _log(event, reg, staff["head_judge"], "en")
    Penalty.objects.filter(pk=penalty.pk).update(
        status=Penalty.Status.VOIDED, void_reason="Reverted on written appeal: Video"
    )
    reg.person.user = staff["outsider"]
    reg.person.save()
    client.force_login(staff["outsider"])
    page = client.get(reverse("my-sanctions"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Revertida en apelación escrita: Video" in page


def test_myl_explanation_and_revert_reason_in_the_readers_language(client, myl, monkeypatch):  # noqa: F811
    """Issue 14: a MyL penalty's stored explanation and an appeal's revert (void reason,
    history comment) read in the reader's language on the MyL penalty page, whatever the
    language of the judge and of the Organised Play manager."""
    import datetime as dt

    from penalties import myl_services
    from penalties.models import Appeal
    from tests.penalties.views.test_myl_pages import _at, _log, _url

    m = myl
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    with translation.override("en"):
        penalty = _at(_log(m, "2.5"), dt.date(2026, 9, 17))
    english = penalty.explanation
    with translation.override("es"):
        spanish = explanations.explanation(penalty)
    assert spanish and spanish != english
    client.force_login(m["users"]["head_judge"])
    url = _url("manage:penalty", m["event"], pk=penalty.pk)
    page_es = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert escape(spanish) in page_es and escape(english) not in page_es
    assert escape(english) in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    appeal = myl_services.submit_written_appeal(penalty, "Sonó mi teléfono", m["users"]["player"])
    with translation.override("es"):
        myl_services.decide_written_appeal(
            appeal, Appeal.Decision.REVERTED, "El video lo aclara", m["users"]["op_manager"]
        )
    penalty.refresh_from_db()
    assert penalty.void_reason == "Revertida en apelación escrita: El video lo aclara"
    page_en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page_en.count("Reverted on written appeal: El video lo aclara") >= 2  # void, history
    assert "Revertida en apelación" not in page_en
    page_es = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Revertida en apelación escrita: El video lo aclara" in page_es
