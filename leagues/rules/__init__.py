"""Pure rules of the league part (ANFPES T24): fixtures, tables, compliance, draft order.

No ORM, no request, standard library only: frozen dataclasses in, frozen dataclasses out
(STYLE "Pure rules in the middle"). The adapter (``leagues/services.py``) loads rows, calls
these functions and saves what they return.

Modules:

- :mod:`leagues.rules.season` — the ``arbitro.season/1`` file (CONTRACTS §5) read into
  dataclasses, every problem reported with its location.
- :mod:`leagues.rules.fixtures` — Berger round robin and matchday deadlines (SPEC-leagues §2).
- :mod:`leagues.rules.table` — league table 3/1/0, walkovers, adjustments ledger and the
  ordered tie-breaker codes (SPEC-leagues §2, CONTRACTS §6).
- :mod:`leagues.rules.compliance` — the "Tuxedo Mask" compliance table (SPEC-leagues §8).
- :mod:`leagues.rules.draft` — draft order and draws by lot (SPEC-leagues §9).
- :mod:`leagues.rules.ties` — two-legged ties on aggregate, third matches (SPEC-leagues
  §3–§4, §7).
- :mod:`leagues.rules.brackets` — playoff, promotion, zone and Liguilla brackets whose
  slots say where they are fed from; next season's divisions (SPEC-leagues §3–§4).
- :mod:`leagues.rules.cards` — suspensions from cards in the final phases (SPEC-leagues §5).
- :mod:`leagues.rules.cups` — Champagne League pots, draw and cross-group rankings;
  Nucommunity Shit (SPEC-leagues §7).
- :mod:`leagues.rules.match_rules` — broadcast rule and §V match incidents (SPEC-leagues §6).

Sources are cited as "ANFPES T24 §…" (``shared/rules/anfpes-t24-league.es.txt``),
"SPEC-leagues §…" and "CONTRACTS §…". Choices where the text is silent are marked
**[choice]** in the docstrings.
"""

from leagues.rules.errors import LeagueRuleError

__all__ = ["LeagueRuleError"]
