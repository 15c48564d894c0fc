"""The presets' index by ruleset (events/presets.py), read by the event form's picker."""

from events import rulesets
from events.presets import FIRST_PRESET, PRESETS


def test_each_ruleset_has_its_first_preset_for_the_event_form():
    assert set(FIRST_PRESET) == set(rulesets.REGISTRY)
    assert FIRST_PRESET["vekn"] is PRESETS["vekn-2026"]
    assert FIRST_PRESET["myl"] is PRESETS["myl-2026"]
