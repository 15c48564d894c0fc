"""Pure rules of the league part (ANFPES T24): fixtures, tables, compliance, draft order.

No ORM, no request, standard library only: frozen dataclasses in, frozen dataclasses out
(docs/architecture.md "Layers and the direction of imports"). The adapter (``leagues/services.py``)
loads rows, calls these functions and saves what they return.

Modules:

- :mod:`leagues.rules.season` — the ``arbitro.season/1`` file (docs/contracts.md §5) read into
  dataclasses, every problem reported with its location.
- :mod:`leagues.rules.fixtures` — Berger round robin and matchday deadlines (docs/leagues.md
  "Fixtures and deadlines").
- :mod:`leagues.rules.table` — league table 3/1/0, walkovers, adjustments ledger and the
  ordered tie-breaker codes (docs/leagues.md "Tables", docs/contracts.md §6).
- :mod:`leagues.rules.compliance` — the "Tuxedo Mask" compliance table (ANFPES T24 §IV;
  docs/leagues.md "Compliance table").
- :mod:`leagues.rules.draft` — draft order and draws by lot (ANFPES T24 §III.4, §IV.8;
  docs/leagues.md "Draft order").
- :mod:`leagues.rules.ties` — two-legged ties on aggregate, third matches (ANFPES T24 §1.1, §1.2,
  §1.2.3, §1.3, §II; docs/leagues-final-phases.md "Primera A", "Primera B",
  "Champagne League and Conference Lag").
- :mod:`leagues.rules.brackets` — playoff, promotion, zone and Liguilla brackets whose
  slots say where they are fed from; next season's divisions (ANFPES T24 §1.1, §1.2, §1.2.3, §1.3;
  docs/leagues-final-phases.md "Primera A", "Primera B").
- :mod:`leagues.rules.cards` — suspensions from cards in the final phases (ANFPES T24 §1.4, §2.2;
  docs/leagues-final-phases.md "Cards and suspensions").
- :mod:`leagues.rules.cups` — Champagne League pots, draw and cross-group rankings;
  Nucommunity Shit (docs/leagues-final-phases.md "Nucommunity Shit").
- :mod:`leagues.rules.match_rules` — broadcast rule and §V match incidents
  (docs/leagues-final-phases.md "Broadcast and incidents").

Sources are cited as "ANFPES T24 §…" (``shared/rules/anfpes-t24-league.es.txt``),
the docs pages that document them (docs/leagues.md "Tables", docs/contracts.md §5). Choices where
the text is silent are marked **[choice]** in the docstrings.
"""

from leagues.rules.errors import LeagueRuleError

__all__ = ["LeagueRuleError"]
