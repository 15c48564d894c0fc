"""The ruleset registry: the one place that knows which rulesets exist (pattern: Tabbycat
``draw/manager.py``, ``DRAW_MANAGER_CLASSES``; docs/architecture.md "The ruleset seam").

Each entry of :data:`REGISTRY` maps a ruleset code (the values of
``events.models.Ruleset``, stored on events, penalties and sanctions: never rename one) to
a :class:`RulesetSpec`: its display facts, its template folder and its **adapters**, one
per layer that differs between the games:

``rounds``      event-day: starting, seating or pairing rounds, entering results, the
                manager's round pages (``events`` event-day layer)
``standings``   computing standings from stored results (``standings`` layer)
``penalties``   judging: preview, log, void, change of a penalty (``penalties`` layer)
``decks``       checking a registered decklist (``events.deck_checkers``, kernel)
``result_reports`` a result reported and confirmed by the players
                (``events.report_adapters``, event-day services)
``vekn_link``   what an event sends to the VEKN calendar (``events.vekn_push``,
                event day); a ruleset without it never pushes (docs/vekn-link.md)

Adapters are named by dotted path and imported on first use
(``django.utils.module_loading.import_string``), as Django names its authentication and
cache backends: the registry sits in the kernel and so imports nothing above it, and a
layer only ever asks for its own adapter or one below it (the import contracts in
``pyproject.toml`` check the modules themselves). Adding a third game means adding one
entry here and its adapter modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from django.http import Http404
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _


class UnknownRuleset(LookupError):
    """A ruleset code that no entry of :data:`REGISTRY` has (a corrupt row or file)."""


@dataclass(frozen=True)
class RulesetSpec:
    """One ruleset: ``code`` (as stored), ``label`` (translated name), ``template_folder``
    (where its own event-day templates live, under ``templates/``), ``adapters`` (layer
    role → dotted path of the adapter object, see the module docstring) and the facts
    pages and files read instead of comparing codes:

    - ``pairs_matches``: rounds are 1-v-1 matches (Swiss pairing, best of N games) rather
      than tables of 4–5 seated by the VEKN rules;
    - ``screen_tables_per_page``: tables (or matches) on one page of the venue's big
      screen;
    - ``reports_player_numbers``: the event's results go to a body that files them by
      player number (the VEKN report, ``archondata``), so the approve-results and export
      pages warn about players without one (``docs/organisers.md`` "Before approving");
    - ``rates_players``: the event's results earn VEKN rating points (TR Appendix A): the
      event form and file carry the rating fields (game format, championship, online,
      set restriction), standings rows carry ``rating_points`` and the rankings count
      the event (docs/rules-vekn.md "Ratings");
    - ``player_number_label``: what the player's number (``Person.vekn_number``, the
      same column for every game) is called in this game ("VEKN number", "Player
      number"), and ``player_number_prefix`` the short word shown before it in lists
      ("VEKN 1234", "N.º 1234");
    - ``drop_consequence``: what dropping a player means in this game, shown on the
      drop's confirmation page (VEKN: TR §3.1.4);
    - ``drop_deadline``: until when a player may drop themselves, and what happens
      after, shown on the player's own drop page (docs/players.md "Dropping");
    - ``person_search_hint`` and ``non_competing_hint``: the judges' search for a person
      to penalise, its placeholder and who else may be penalised (VEKN: JG §1.2);
    - ``penalty_report``: the event's penalties go to the VEKN penalty report (a CSV
      export of the penalties page); ``written_appeals``: a penalty may be appealed in
      writing to the national authority (MyL conduct §5.10), the penalties page links the
      appeals (``events.permissions.AUTHORITIES`` says the same of the authority);
    - ``deck_mismatch_infraction``: the catalogue code of the infraction a failed deck
      check opens in the incident flow (VEKN: JG §3.1.2, Illegal Main Deck with a legal
      decklist; MyL: conduct rules §3.3.2, deck registration problems; docs/decks.md
      "Deck checks"), ``""`` to open the infraction picker;
    - ``illegal_decklist_infraction``: the code a deck check opens instead when the
      registered list is itself illegal or missing (VEKN: JG §3.1.1, Illegal Decklist; MyL:
      conduct rules §3.3.2, the registration is wrong), ``""`` for the mismatch's code;
    - ``deck_check_findings``: what else a judge may say a failed deck check found, as
      ``(catalogue code, label)`` pairs offered next to "does not match" (MyL: §3.3.1
      banned or off-format cards, §3.3.3 unauthorised proxies; VEKN: none);
    - ``top_cut_stages``: the names of the top-cut rounds by their number of matches
      (``{2: "Semi-finals", 1: "Top-cut final"}``), read by :func:`round_label`; empty
      for a ruleset without a top cut (a VEKN final is a ``Round.is_final``);
    - ``manage_pages``: the manager pages (view names of ``events.views_manage`` and
      ``events.views_print``) this
      ruleset replaces, each mapped to the dotted path of its own view (called as
      ``view(request, event, *args)`` after the manager view's permission check), or to
      ``""`` when the page does not exist for this ruleset (404). A page not named here is
      the VEKN page of ``events.views_manage``.
    - ``judge_call_reasons``: the reasons a player may pick when calling a judge from
      their phone (codes of ``events.models.CallReason``, in the order offered;
      docs/players.md "Calling a judge"); MyL adds a player's conduct.
    """

    code: str
    label: str
    template_folder: str
    pairs_matches: bool
    screen_tables_per_page: int
    reports_player_numbers: bool = False
    rates_players: bool = False
    adapters: Mapping[str, str] = field(default_factory=dict)
    manage_pages: Mapping[str, str] = field(default_factory=dict)
    top_cut_stages: Mapping[int, str] = field(default_factory=dict)
    player_number_label: str = _("VEKN number")
    player_number_prefix: str = "VEKN"
    drop_consequence: str = _(
        "Their results so far stay in the standings; they are not seated in any further "
        "round (TR §3.1.4)."
    )
    drop_deadline: str = _(
        "Drop before the next round is seated: once it is, leaving gives you a Loss in "
        "that round, and only a judge can drop you (TR §3.1.4, §3.3.2)."
    )
    person_search_hint: str = _("Name or VEKN number")
    non_competing_hint: str = _(
        "Spectators and staff can be penalised; for a standings adjustment or above they "
        "are registered as non-competing and need a VEKN number (JG §1.2)."
    )
    penalty_report: bool = False
    written_appeals: bool = False
    judge_call_reasons: tuple[str, ...] = ("rules", "dispute", "cards", "time", "other")
    deck_mismatch_infraction: str = ""
    illegal_decklist_infraction: str = ""
    deck_check_findings: tuple[tuple[str, str], ...] = ()

    def adapter(self, role: str):
        """The adapter object of ``role`` (``"rounds"``, ``"standings"``,
        ``"penalties"``…), imported on first use. ``KeyError`` if this ruleset has none."""
        return _load(self.adapters[role])

    def manage_page(self, name: str):
        """This ruleset's own view for the manager page ``name``; ``None`` when the VEKN
        page of ``events.views_manage`` applies. ``Http404`` when the page does not exist
        for this ruleset (see ``manage_pages``)."""
        path = self.manage_pages.get(name)
        if path is None:
            return None
        if not path:
            raise Http404(f"No {name} page in a {self.code} event")
        return _load(path)


@cache
def _load(path: str):
    """The module named ``path`` (an adapter module) or the object at ``module.name``."""
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError:
        return import_string(path)


VEKN = RulesetSpec(
    code="vekn",
    label=_("VEKN (Vampire: The Eternal Struggle)"),
    template_folder="manage",
    pairs_matches=False,
    screen_tables_per_page=8,
    reports_player_numbers=True,
    penalty_report=True,
    deck_mismatch_infraction="3.1.2",
    illegal_decklist_infraction="3.1.1",
    rates_players=True,
    adapters=MappingProxyType(
        {
            "penalties": "penalties.services",
            "decks": "events.deck_checkers.VEKN_DECKS",
            "result_reports": "events.report_adapters.VEKN_REPORTS",
            # Calendar entries and results to the VEKN (docs/vekn-link.md).
            "vekn_link": "events.vekn_push.VEKN_LINK",
        }
    ),
)

MYL = RulesetSpec(
    code="myl",
    label=_("Mitos y Leyendas"),
    template_folder="swiss",
    pairs_matches=True,
    screen_tables_per_page=16,
    adapters=MappingProxyType(
        {
            "standings": "standings.myl_services",
            "penalties": "penalties.myl_services",
            "file_incidents": "penalties.myl_files",
            "decks": "events.deck_checkers.MYL_DECKS",
            "result_reports": "events.report_adapters.MYL_REPORTS",
        }
    ),
    player_number_label=_("Player number"),
    player_number_prefix=_("No."),
    person_search_hint=_("Name or player number"),
    non_competing_hint=_(
        "Spectators and staff can be penalised too: they are registered as non-competing."
    ),
    written_appeals=True,
    judge_call_reasons=("rules", "dispute", "cards", "conduct", "time", "other"),
    deck_mismatch_infraction="3.3.2",
    illegal_decklist_infraction="3.3.2",
    deck_check_findings=(
        ("3.3.1", _("Banned or off-format cards (§3.3.1)")),
        ("3.3.3", _("Unauthorised proxies (§3.3.3)")),
    ),
    drop_consequence=_(
        "The matches they played stay in the standings; they are not paired in any further round."
    ),
    drop_deadline=_(
        "Drop before the next round is paired: once it is, tell the head judge, who drops "
        "you (MyL conduct rules §3.2.5)."
    ),
    top_cut_stages=MappingProxyType(
        {4: _("Quarter-finals"), 2: _("Semi-finals"), 1: _("Top-cut final")}
    ),
    manage_pages=MappingProxyType(
        {
            "incident_new": "penalties.views_myl.incident_new",
            "penalty_detail": "penalties.views_myl.penalty_detail",
            "dashboard": "events.views_swiss.dashboard",
            "round_seat": "events.views_swiss.pair_view",
            "round_detail": "events.views_swiss.round_page",
            "round_reseat": "events.views_swiss.repair_view",
            "round_swap": "",
            "table_result": "events.views_swiss.match_page",
            "table_check": "",
            "standings": "events.views_swiss.standings_page",
            "final": "",
            "export_csv": "events.views_swiss.export_csv",
            "export_archondata": "",
            "print_standings": "events.views_swiss.print_standings",
        }
    ),
)

REGISTRY: Mapping[str, RulesetSpec] = MappingProxyType({spec.code: spec for spec in (VEKN, MYL)})
"""Every ruleset, by code. ``events.models.Ruleset`` draws its choices from here."""


def get(code: str) -> RulesetSpec:
    """The spec of ruleset ``code``; :class:`UnknownRuleset` if there is none."""
    try:
        return REGISTRY[code]
    except KeyError:
        raise UnknownRuleset(code) from None


def of(obj) -> RulesetSpec:
    """The spec of anything with a ``ruleset`` code (an event, penalty, sanction, stored
    result or file): ``rulesets.of(event).pairs_matches``."""
    return get(obj.ruleset)


def round_label(rnd, matches: int | None = None, *, event=None) -> str:
    """The one name of a round on every page, file and screen: "Final" for a VEKN final
    (``is_final``), a top-cut round by its stage in its ruleset's words
    (``top_cut_stages``: "Semi-finals", "Top-cut final"), else "Round 3". ``rnd``: a
    ``Round`` (``is_final``, ``is_top_cut``, ``number``); ``event``: its event (default
    ``rnd.event``); ``matches``: the round's number of matches when known, else taken
    from the event's top-cut size (``top_cut`` players halved per stage after its
    ``preliminary_rounds``) without a query, or counted as a last resort. No query when
    ``event`` is given or loaded and ``matches`` can be told."""
    if rnd.is_final or not rnd.is_top_cut:
        return str(rnd)
    event = event if event is not None else rnd.event
    if matches is None:
        stage = rnd.number - event.preliminary_rounds
        if event.top_cut and stage >= 1:
            matches = event.top_cut // 2**stage
        else:
            matches = rnd.tables.count()
    if getattr(event, "ruleset", None):
        stages = of(event).top_cut_stages
    else:  # an event-like object without a ruleset code: any ruleset's stage names
        stages = {k: v for spec in REGISTRY.values() for k, v in spec.top_cut_stages.items()}
    name = stages.get(matches)
    return str(name) if name else str(rnd)
