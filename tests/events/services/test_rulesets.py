"""The ruleset registry (events/rulesets.py) is the one list of rulesets."""

import pytest

from events import rulesets
from events.audit import audit, entries_about
from events.models import Ruleset
from tests.factories import EventFactory


def test_the_registry_has_exactly_the_stored_ruleset_codes():
    assert sorted(rulesets.REGISTRY) == sorted(Ruleset.values)
    for code, spec in rulesets.REGISTRY.items():
        assert spec.code == code


def test_an_unknown_code_is_a_lookup_error_naming_it():
    with pytest.raises(rulesets.UnknownRuleset, match="chess"):
        rulesets.get("chess")


def test_every_adapter_path_imports():
    for spec in rulesets.REGISTRY.values():
        for role in spec.adapters:
            assert spec.adapter(role) is not None


@pytest.mark.django_db
def test_an_audit_entry_is_read_back_by_what_it_is_about_not_by_its_display_string():
    first, second = EventFactory(), EventFactory()
    audit(first, None, "event.edit", "same display", about=first)
    audit(second, None, "event.edit", "same display", about=second)
    assert [e.event for e in entries_about(first)] == [first]
