"""The audit pages show entries in words, with local times (events.templatetags.audit)."""

from django.utils import timezone

from events.templatetags.audit import action_label, audit_pairs


def test_action_codes_in_words():
    assert action_label("league.result_confirmed") == "League: result confirmed"
    assert action_label("round.seat") == "Round: seat"
    assert action_label("unknown.some_thing") == "Some thing"
    assert action_label("") == ""


def test_values_in_words_with_local_times(settings):
    settings.TIME_ZONE = "America/Santiago"
    with timezone.override("America/Santiago"):
        pairs = audit_pairs(
            {
                "status": "played",
                "home_goals": 2,
                "reported_at": "2026-03-03T00:10:00+00:00",
                "agree": True,
                "decisions": ["t2", "t1"],
                "nothing": None,
            }
        )
    assert pairs == [
        ("status", "played"),
        ("home goals", "2"),
        ("reported at", "2 March 2026 21:10"),
        ("agree", "yes"),
        ("decisions", "t2, t1"),
        ("nothing", "—"),
    ]
    assert audit_pairs(None) == [] and audit_pairs({}) == []
    assert audit_pairs([1, 2]) == [("", "1, 2")]
    assert audit_pairs({"day": "2026-03-02"}) == [("day", "2026-03-02")]


def test_stored_targets_and_codes_read_in_the_readers_language():
    from django.utils import translation

    from events.templatetags.audit import audit_pairs, audit_target

    assert audit_target("round 3 table 2") == "round 3, table 2"
    assert audit_target("final table 1") == "final, table 1"
    assert audit_target("#7 3.3 Slow Play") == "#7 3.3 Slow Play"
    pairs = audit_pairs({"timing": "during_game", "guide_level": "caution", "offence": 2})
    assert pairs == [("timing", "During a game"), ("guide level", "Caution"), ("offence", "2")]
    with translation.override("es"):
        assert audit_target("round 3 table 2") == "ronda 3, mesa 2"
        assert dict(audit_pairs({"timing": "during_game"})) != {"timing": "During a game"}


def test_event_settings_and_registration_codes_in_words():
    from django.utils import translation

    from events.templatetags.audit import audit_pairs

    change = {"round_minutes": 40, "format": "constructed", "status": "checked_in", "xy_z": 1}
    assert audit_pairs(change) == [
        ("round time (minutes)", "40"),
        ("format", "Constructed"),
        ("status", "Checked in"),
        ("xy z", "1"),
    ]
    with translation.override("es"):
        spanish = dict(audit_pairs(change))
    assert spanish["duración de la ronda (minutos)"] == "40"
