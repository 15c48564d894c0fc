"""The ruleset registry (events/rulesets.py) is the one list of rulesets."""

import pytest

from events import rulesets
from events.models import Ruleset


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
