"""A VEKN number is 1 to 20 ASCII digits everywhere it enters (events.limits): the
person's record, the event file. ``str.isdigit`` accepted "²", which the database's
CHECK then refused with an error page."""

import pytest

from events.errors import UserError
from events.interchange import EventFileError, validate_event_file
from events.limits import is_vekn_number
from events.models import Person
from events.people import find_or_create_person
from tests.events.services.test_interchange import make_file


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("1000123", True),
        ("0", True),
        ("9" * 20, True),
        ("9" * 21, False),
        ("²", False),
        ("١٢٣", False),
        ("12 3", False),
        ("", False),
        ("12a", False),
    ],
)
def test_a_vekn_number_is_one_to_twenty_ascii_digits(text, valid):
    assert is_vekn_number(text) is valid


@pytest.mark.django_db
@pytest.mark.parametrize("number", ["²", "9" * 21, "١٢٣"])
def test_a_person_with_a_number_that_is_not_ascii_digits_is_refused(number):
    with pytest.raises(UserError, match="only digits"):
        find_or_create_person("Ana Pérez", number)
    assert not Person.objects.exists()


def test_an_event_file_with_such_a_number_is_refused_with_its_line():
    data = make_file()
    data["players"][0]["vekn"] = "²"
    with pytest.raises(EventFileError) as refused:
        validate_event_file(data)
    assert "players[1] (p1): vekn must be a string of digits" in str(refused.value)
