"""Presets bundle an event's rules; an event copies its preset at creation and may
override any value (pattern: Tabbycat ``options/presets.py``).

Preset codes are stored on events: never rename one.
"""

from dataclasses import asdict, dataclass

from django.utils.translation import gettext_lazy as _

from events.myl_deck_rules import MylDeckLimits


@dataclass(frozen=True, slots=True)
class Preset:
    """Default rules of a kind of event.

    ``preliminary_rounds``: ≥ 2 (TR §3.1); ``round_minutes``: ≥ 120 for VEKN (TR §3.1.1);
    ``final_mode``: ``final`` | ``none`` | ``extra_round`` (TR §3.1.6, only with fewer than
    8 players); ``finalists_count``: 5 (TR §3.1).

    Mitos y Leyendas (docs/rules-myl.md): ``preliminary_rounds`` are the Swiss rounds,
    ``round_minutes`` 40–60 (conduct rules §5.5), ``best_of`` 1 or 3 games per match and
    ``top_cut`` 0, 4 or 8. ``None`` (VEKN presets) leaves the model's default.
    ``deck_limits``: the Mitos y Leyendas deck registration's limits (main and side deck
    sizes, copies per card: ``events.myl_deck_rules.MylDeckLimits``, docs/decks.md
    "Mitos y Leyendas"); not an Event field, so :meth:`event_fields` leaves it out.
    """

    code: str
    label: str
    ruleset: str
    preliminary_rounds: int
    round_minutes: int
    final_minutes: int
    decklists_required: bool
    final_mode: str
    finalists_count: int
    format: str = "constructed"
    best_of: int | None = None
    top_cut: int | None = None
    deck_limits: MylDeckLimits | None = None

    def event_fields(self) -> dict:
        """The Event field values this preset sets (everything but code and label; fields
        left ``None`` are not set)."""
        fields = {k: v for k, v in asdict(self).items() if v is not None}
        fields.pop("label")
        fields.pop("deck_limits", None)
        fields["preset"] = fields.pop("code")
        return fields


VEKN_2026 = Preset(
    code="vekn-2026",
    label=_("VEKN 2026 — 3 rounds and a final"),
    ruleset="vekn",
    preliminary_rounds=3,
    round_minutes=120,
    final_minutes=120,
    decklists_required=True,
    final_mode="final",
    finalists_count=5,
)

MYL_2026 = Preset(
    code="myl-2026",
    label=_("Mitos y Leyendas 2026 — Swiss rounds, best of 3"),
    ruleset="myl",
    preliminary_rounds=4,
    round_minutes=50,
    final_minutes=50,
    decklists_required=False,
    final_mode="none",
    finalists_count=5,
    best_of=3,
    top_cut=0,
    deck_limits=MylDeckLimits(),
)

PRESETS: dict[str, Preset] = {p.code: p for p in (VEKN_2026, MYL_2026)}

FIRST_PRESET: dict[str, Preset] = {}
"""Each ruleset code's first preset (in :data:`PRESETS`' order): what the event form's
picker offers for that kind of event."""
for _preset in PRESETS.values():
    FIRST_PRESET.setdefault(_preset.ruleset, _preset)
del _preset


def get_preset(code: str) -> Preset:
    """Return the preset ``code``; ``KeyError`` if there is none."""
    return PRESETS[code]
