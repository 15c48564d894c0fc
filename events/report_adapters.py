"""Each ruleset's half of a result reported by the players (docs/players.md "Reporting
your table's result"), the registry's ``result_reports`` adapter
(``events.rulesets.RulesetSpec.adapters``): how the reported values are read, checked
and saved, and whether a countdown makes them stand.

A reported result goes through **the same validation and the same save** as a judge's
entry: VEKN through ``events.services.table_check`` and ``save_results`` (the legal
sheets, TR §3.7.2; docs/rules-vekn.md "Result sheets"), Mitos y Leyendas through
``events.swiss_services.check_games`` and ``save_match_result`` (docs/rules-myl.md). A
player never overrides an irregular sheet: a judge does. Event-day services.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from events import services
from events import swiss_services as ss
from events.errors import UserError
from events.models import Event, Seat, Table


@dataclass(frozen=True)
class VeknReports:
    """A VEKN table: the VP of every seat; every other player confirms, no countdown."""

    def countdown_seconds(self, event: Event) -> int | None:
        return None

    def parse(self, raw: Sequence[str], seats: Sequence[Seat]) -> list[Decimal | None]:
        """One VP value per seat (seat order): ``UserError`` for a value that is not a
        number; a seat with a "Loss" scores 0 whatever was sent (TR §3.1.4)."""
        if len(raw) != len(seats):
            raise UserError(_("Enter one value per seat (%(n)s seats).") % {"n": len(seats)})
        return [
            Decimal("0") if s.loss else services.parse_vp(v)
            for s, v in zip(seats, raw, strict=True)
        ]

    def check(self, table: Table, seats: Sequence[Seat], values: Sequence) -> None:
        """``UserError`` unless ``values`` is a complete, legal sheet the table may still
        take from its players (``services.result_lock`` without a judge's override)."""
        if (locked := services.result_lock(table, may_override=False)) is not None:
            raise UserError(locked)
        playing = [v for s, v in zip(seats, values, strict=True) if not s.loss]
        if any(v is None for v in playing):
            raise UserError(_("Enter the VP of every player at the table."))
        for vp in playing:
            if vp < 0 or vp > 5 or (vp * 2) % 1:
                raise UserError(_("Each seat scores between 0 and 5 VP in steps of 0.5."))
        check = services.table_check(playing)
        if not check.valid or not check.complete:
            message = check.reason or _("This sheet is not a legal game result.")
            raise UserError(
                _("%(problem)s If the game really ended so, call a judge.") % {"problem": message}
            )

    def has_result(self, seats: Sequence[Seat]) -> bool:
        return any(s.vp is not None for s in seats if not s.loss)

    def apply(self, table: Table, values: Sequence, actor, comment: str) -> None:
        services.save_results(table, values, version=table.version, actor=actor, comment=comment)

    def store(self, values: Sequence) -> list[str]:
        return ["" if v is None else f"{v:.1f}" for v in values]

    def load(self, stored: Sequence[str]) -> list[Decimal | None]:
        return [services.parse_vp(v) for v in stored]

    def show(self, value) -> str:
        """One value as the pages show it: ``2``, ``1.5``."""
        if value is None:
            return "—"
        return f"{value.normalize():f}" if value == value.to_integral() else f"{value:.1f}"


@dataclass(frozen=True)
class MylReports:
    """A Mitos y Leyendas match: the games each player won; the opponent confirms, or
    the result stands after the event's countdown (``Event.report_countdown_minutes``)."""

    def countdown_seconds(self, event: Event) -> int | None:
        return int(event.report_countdown_minutes) * 60

    def parse(self, raw: Sequence[str], seats: Sequence[Seat]) -> list[int | None]:
        if len(raw) != len(seats):
            raise UserError(_("A match has two players."))
        return [ss.parse_games(v) for v in raw]

    def check(self, table: Table, seats: Sequence[Seat], values: Sequence) -> None:
        if table.is_bye:
            raise UserError(_("A bye is a won match: there is no result to enter."))
        if (locked := ss.match_lock(table, may_correct=False)) is not None:
            raise UserError(locked)
        if any(v is None for v in values):
            raise UserError(_("Enter the games of both players."))
        ss.check_games(table.round.event.best_of, values, top_cut=table.round.is_top_cut)

    def has_result(self, seats: Sequence[Seat]) -> bool:
        return any(s.games_won is not None for s in seats)

    def apply(self, table: Table, values: Sequence, actor, comment: str) -> None:
        ss.save_match_result(
            table, values, version=table.version, actor=actor, only_if_empty=True, comment=comment
        )

    def store(self, values: Sequence) -> list[str]:
        return ["" if v is None else str(v) for v in values]

    def load(self, stored: Sequence[str]) -> list[int | None]:
        return [ss.parse_games(v) for v in stored]

    def show(self, value) -> str:
        return "—" if value is None else str(value)


VEKN_REPORTS = VeknReports()
MYL_REPORTS = MylReports()
