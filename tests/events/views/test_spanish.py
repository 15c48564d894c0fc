"""Spanish everywhere (issue 14): the seating card's criteria and violations in the
reader's language, Django's own messages in Chile's Spanish, one number and date format
per language (docs/i18n.md)."""

import datetime

import pytest
from django import forms
from django.urls import reverse
from django.utils import formats, translation

from events import seating_labels, services
from events.seating_rules import RULES, Violation, score_rounds


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


def round_page(client, event, number, language):
    url = reverse("manage:round", kwargs={"slug": event.slug, "number": number})
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_seating_card_in_spanish_and_english(client, played_event, staff):
    client.force_login(staff["organiser"])
    spanish = round_page(client, played_event, 3, "es")
    english = round_page(client, played_event, 3, "en")
    assert "Ningún par de jugadores repite la misma relación depredador→presa" in spanish
    assert "No pair of players repeats the same predator→prey relationship" not in spanish
    assert "No pair of players repeats the same predator→prey relationship" in english
    score = services.seating_score(played_event.rounds.get(number=3))
    details = [v.detail for v in score.violations if 3 in v.rounds]
    assert details, "the fixture's third round breaks some criterion"
    for detail in details:  # the English page shows the rules' own sentences
        assert detail.replace("'", "&#x27;") in english
    assert "rondas" in spanish and " again (" not in spanish


def test_every_violation_kind_renders_like_its_english_detail():
    """In English the label layer says exactly what the rule module says."""
    rounds = [
        [["a", "b", "c", "d", "e"], ["f", "g", "h", "i"]],
        [["a", "b", "c", "d", "e"], ["f", "g", "h", "i"]],
        [["e", "a", "b", "c", "d"], ["i", "f", "g", "h"]],
    ]
    score = score_rounds(rounds)
    kinds = {v.kind for v in score.violations}
    assert {"together_every_round", "together_again", "predator_again", "seat_again"} <= kinds
    with translation.override("en"):
        for violation in score.violations:
            assert violation.kind
            assert seating_labels.violation_text(violation) == violation.detail
        assert [str(seating_labels.rule_row(r).description) for r in RULES] == [
            r.description for r in RULES
        ]


def test_a_violation_without_kind_shows_its_english():
    old = Violation("R4", ("a", "b"), "a and b share a table 2 times (rounds 1 and 2)", (1, 2))
    with translation.override("es"):
        assert seating_labels.violation_text(old) == old.detail


def test_violation_numbers_follow_the_language():
    violation = Violation(
        "R8",
        ("a",),
        "",
        (1, 2),
        "transfer_share",
        {"player": "Ana", "value": 2.5, "mean": 2.75, "seats": [1, 4]},
    )
    with translation.override("es"):
        text = seating_labels.violation_text(violation)
        assert text == (
            "Ana promedia 2,50 transferencias iniciales frente a 2,75 de media (puestos 1, 4)"
        )
        assert seating_labels.rounds_text([1, 2]) == "rondas 1 y 2"
    with translation.override("en"):
        assert "2.50 starting transfers against 2.75" in seating_labels.violation_text(violation)


@pytest.mark.parametrize(
    ("field", "value", "spanish"),
    [
        (forms.DateField(), "x", "Ingrese una fecha válida."),
        (forms.IntegerField(), "x", "Ingrese un número entero."),
        (forms.DecimalField(), "x", "Ingrese un número."),
        (forms.CharField(), "", "Este campo es obligatorio."),
        (forms.ChoiceField(choices=[("a", "A")]), "b", "Seleccione una opción válida."),
    ],
)
def test_django_messages_in_chilean_spanish(field, value, spanish):
    with translation.override("es"):
        with pytest.raises(forms.ValidationError) as error:
            field.clean(value)
        message = str(error.value.messages[0])
    assert message.startswith(spanish), message


def test_one_number_and_date_format_per_language():
    day = datetime.date(2026, 12, 2)
    moment = datetime.datetime(2026, 12, 2, 14, 30)
    with translation.override("es"):
        assert formats.number_format(2.5, 1) == "2,5"
        assert formats.number_format(1500, force_grouping=True) == "1.500"
        assert formats.date_format(day) == "2 de diciembre de 2026"
        assert formats.date_format(day, "SHORT_DATE_FORMAT") == "02/12/2026"
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "02/12/2026 14:30"
        assert formats.localize(1500) == "1500"  # no grouping unless asked
    with translation.override("en"):
        assert formats.number_format(2.5, 1) == "2.5"
        assert formats.date_format(day) == "2 December 2026"
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "02/12/2026 14:30"


def test_spanish_page_shows_decimal_comma(client, played_event, staff):
    client.force_login(staff["organiser"])
    url = reverse("manage:round", kwargs={"slug": played_event.slug, "number": 3})
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es-CL").content.decode()
    assert 'lang="es' in spanish
    score = services.seating_score(played_event.rounds.get(number=3))
    r3 = score.rules[2]
    if r3 not in (0, int(r3)):
        assert formats.number_format(r3, 2).replace(".", ",") in spanish


def test_no_fixed_date_pattern_in_templates():
    """Issue 14: templates format dates with the language's named formats
    (config/formats/{es,en}/formats.py), never a fixed pattern; ``U`` (a timestamp for
    scripts) is not a date shown to people."""
    import re
    from pathlib import Path

    from django.conf import settings

    named = {"DATE_FORMAT", "SHORT_DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATETIME_FORMAT"}
    named |= {"TIME_FORMAT", "MONTH_DAY_FORMAT", "YEAR_MONTH_FORMAT", "U"}
    found = []
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in Path(folder).rglob("*.html"):
            for pattern in re.findall(r'\|date:"([^"]*)"', path.read_text()):
                if pattern not in named:
                    found.append(f"{path.name}: {pattern}")
    assert not found


def test_audit_log_dates_in_the_readers_format(client, played_event, staff):
    """The audit log (``_audit_rows.html``) wrote "Wed 2 Dec 2026 14:30" in both
    languages; it now follows DATETIME_FORMAT: "2 de diciembre de 2026 14:30" in Spanish,
    "2 December 2026 14:30" in English."""
    from events.models import AuditLog

    entry = AuditLog.objects.filter(event=played_event).first()
    assert entry is not None, "playing the rounds audits the results"
    AuditLog.objects.filter(pk=entry.pk).update(
        at=datetime.datetime(2026, 12, 2, 17, 30, tzinfo=datetime.UTC)
    )
    played_event.time_zone = "America/Santiago"
    played_event.save()
    client.force_login(staff["organiser"])
    url = reverse("manage:audit", kwargs={"slug": played_event.slug})
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 de diciembre de 2026 14:30" in spanish and "Dec 2026" not in spanish
    assert "2 December 2026 14:30" in english
