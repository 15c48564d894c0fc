"""The bracket of a ``knockout`` competition in the app (issue 5), built from the stored
matches with the pure rules (:mod:`leagues.rules.ties`, :mod:`leagues.rules.brackets`;
read-only, bounded queries): the bracket document, its display, the broadcast rule of a
league final phase (:func:`is_league_final_phase`, :func:`played_without_stream`), the
divisions and the league tables the post-season is fed from (:func:`division_of`,
:func:`league_standings`) and a cup knockout's stored setup (:func:`cup_stage_name`).
Staff decisions on a bracket are in :mod:`leagues.bracket_decisions`, the steps that
create matches in :mod:`leagues.phases` and :mod:`leagues.cups`.

Bracket (:func:`competition_bracket`, docs/contracts.md §6
``GET /api/v1/competitions/<slug>/bracket``):

- The ties are the stored matches grouped by ``tie`` (a match without one is a one-match
  tie named after the match id). Each tie's state — legs, ``aggregate``,
  ``third_match_required``, ``third_match_home``, ``winner`` — comes from
  :func:`leagues.rules.ties.tie_state` through :func:`leagues.rules.brackets.fill_bracket`.
- **Where a slot is fed from.** When every stored tie id is one of the ANFPES league
  post-season (``qf1``…``final``, ``psf1``…``pfinal``, the zones, ``lig1``…``lig3``), the
  bracket follows that specification (:func:`leagues.rules.brackets.league_post_season`
  and its parts; the smallest part holding every stored tie): every slot says where it is
  fed from ("1st of Primera A", "winner of qf1"), and the later ties of the specification
  fed from stored ones are shown before they have matches, with who would be there
  (``provisional``) until the matches of that tie exist **[choice: staff "close" a stage by
  creating the next tie's matches]**. A league post-season knockout is a final phase: a
  played leg without a stream link is a friendly and does not count (ANFPES T24 §1.4).
  Otherwise (cups, files with other ids) the ties are listed by round, and a slot is "winner
  of X" (or "loser of X") when its team won (lost) an earlier tie of the competition; other
  slots were set directly (``fed_from`` ``null``).
- Which stored team fills which slot of a specified tie: a ``winner``/``loser`` source
  takes the team that won/lost that tie; otherwise the first (higher-seeded) slot is the
  host of the second leg, as :func:`leagues.rules.ties.leg_hosts` schedules it **[choice]**
  (a one-leg tie: its home team).
- Third match home side: the home team of the stored third match when there is one; the
  app does not rank teams across competitions yet, so before it exists the document says
  ``third_match_home: null`` (staff choose, ANFPES T24 §V ¶3 / §2.2).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from django.db.models import Exists, F, OuterRef

from events.models import AuditLog
from leagues import labels, staff_decisions
from leagues.adapters import LEAGUE_TIES, MATCH_FIELDS, league_final_phase, rule_match
from leagues.models import (
    Competition,
    Match,
    Season,
    TiePause,
)
from leagues.rules import brackets as bracket_rules
from leagues.rules import match_rules
from leagues.rules import season as season_rules
from leagues.rules.errors import LeagueRuleError
from leagues.rules.ties import tie_state
from leagues.services import competition_table

__all__ = [
    "CUP_PREFIXES",
    "PRIMERA_A",
    "PRIMERA_B",
    "bracket_display",
    "competition_bracket",
    "cup_stage_name",
    "division_of",
    "final_four_of",
    "is_league_final_phase",
    "known_spec",
    "league_standings",
    "played_without_stream",
    "requires_stream",
]


def _specs() -> list[bracket_rules.BracketSpec]:
    """The ANFPES league post-season parts, smallest first, then the whole."""
    parts = [
        bracket_rules.primera_b_promotion(),
        bracket_rules.liguilla(),
        bracket_rules.post_season_zones(),
        bracket_rules.primera_a_playoffs(),
    ]
    return parts + [bracket_rules.league_post_season()]


def known_spec(tie_ids) -> bracket_rules.BracketSpec | None:
    """The smallest league post-season specification holding every id of ``tie_ids``
    (``None`` when some id is not a league post-season tie, or there is none)."""
    tie_ids = set(tie_ids)
    if not tie_ids or not tie_ids <= LEAGUE_TIES:
        return None
    for spec in _specs():
        if tie_ids <= {t.id for t in spec.ties}:
            return spec
    return None  # pragma: no cover - league_post_season holds them all


def _rows(competition: Competition) -> list[dict]:
    """The competition's matches as ``values()`` rows (:data:`MATCH_FIELDS`), each with
    ``paused``: whether its tie is paused pending the tribunal (in the same query)."""
    paused = TiePause.objects.filter(competition=OuterRef("competition"), tie=OuterRef("tie"))
    return list(
        competition.matches.annotate(paused=Exists(paused))
        .order_by("round", F("leg").asc(nulls_first=True), "id")
        .values(*MATCH_FIELDS, "paused")
    )


@dataclass
class _StoredTie:
    id: str
    round: int
    matches: list[season_rules.Match]

    def teams(self) -> tuple[Hashable, Hashable] | None:
        """Leg 1's home team first (a non-void copy when there is one)."""
        if not self.matches:
            return None
        first = min(self.matches, key=lambda m: (m.leg or 1, m.status == "void"))
        return (first.home, first.away)

    def second_leg_host(self) -> Hashable | None:
        for m in self.matches:
            if m.leg == 2 and m.status != "void":
                return m.home
        return None

    def third_match_home(self) -> Hashable | None:
        for m in self.matches:
            if m.leg == 3 and m.status != "void":
                return m.home
        return None


def _stored_ties(matches: list[season_rules.Match]) -> dict[str, _StoredTie]:
    ties: dict[str, _StoredTie] = {}
    for m in matches:
        tie_id = m.tie or m.id
        stored = ties.setdefault(tie_id, _StoredTie(tie_id, m.round, []))
        stored.round = min(stored.round, m.round)
        stored.matches.append(m if m.tie else replace(m, tie=tie_id))
    return ties


def _outcome(stored: _StoredTie, legs: int, require_stream: bool):
    """``(winner, loser)`` of a stored tie, ``(None, None)`` when undecided or broken."""
    try:
        state = tie_state(stored.matches, legs=legs, require_stream=require_stream, tie=stored.id)
    except LeagueRuleError:
        return None, None
    return state.winner, state.loser


def _generic_spec(ties: dict[str, _StoredTie], legs: int) -> tuple[bracket_rules.BracketSpec, dict]:
    """A specification of the stored ties by round: a team that won (lost) an earlier
    tie is fed from its winner (loser); the others are set directly. Returns the spec and
    the overrides (every slot's stored team)."""
    ordered = sorted(ties.values(), key=lambda t: t.round)
    results: dict[str, tuple] = {}
    specs, overrides = [], {}
    for stored in ordered:
        pair = stored.teams()
        sources = []
        for side, team_id in zip(("first", "second"), pair, strict=True):
            source = bracket_rules.team(team_id)
            for earlier in specs:
                if ties[earlier.id].round >= stored.round:
                    continue
                won, lost = results[earlier.id]
                if team_id == won:
                    source = bracket_rules.winner(earlier.id)
                elif team_id == lost:
                    source = bracket_rules.loser(earlier.id)
            sources.append(source)
            overrides[(stored.id, side)] = team_id
        # A match without a leg number is a one-match tie (a decider, a single final).
        tie_legs = 1 if legs == 1 or all(m.leg is None for m in stored.matches) else 2
        specs.append(
            bracket_rules.TieSpec(
                stored.id,
                f"round_{stored.round}",
                sources[0],
                sources[1],
                tie_legs,
                name=stored.id,
            )
        )
        results[stored.id] = _outcome(stored, tie_legs, False)
    return bracket_rules.BracketSpec("knockout", tuple(specs)), overrides


def _included(spec: bracket_rules.BracketSpec, stored: set[str]) -> list[str]:
    """Tie ids of ``spec`` shown: the stored ones and every tie fed (directly or not)
    from them, in spec order."""
    shown: list[str] = []
    for tie in spec.ties:
        feeds = tie.first.ties() | tie.second.ties()
        if tie.id in stored or feeds & set(shown):
            shown.append(tie.id)
    return shown


def _known(
    spec: bracket_rules.BracketSpec,
    ties: dict[str, _StoredTie],
    *,
    require_stream: bool = True,
    awards: dict | None = None,
) -> tuple[bracket_rules.BracketSpec, dict, list[str]]:
    """The part of ``spec`` to show (:func:`_included`), the overrides putting each
    stored team in its slot (module docstring) and problems. A tie the tribunal awarded
    (``awards``, §III.2) is won by the awarded team whatever its legs, so a later tie fed
    from it puts that team in the "winner of" slot (not by venue)."""
    shown = _included(spec, set(ties))
    ids = set(shown)
    sub_ties = tuple(t for t in spec.ties if t.id in ids)
    fed = set().union(*(t.first.ties() | t.second.ties() for t in sub_ties))
    outcomes = tuple((code, s) for code, s in spec.outcomes if s.ties() <= ids)
    sub = bracket_rules.BracketSpec(
        spec.code,
        sub_ties,
        outcomes,
        tuple(dict.fromkeys(t.stage for t in sub_ties)),
        spec.rank_by,
        frozenset(fed - ids),
    )
    results = {
        tie_id: _outcome(stored, sub.tie(tie_id).legs, require_stream)
        for tie_id, stored in ties.items()
    }
    for tie_id, team_id in (awards or {}).items():
        pair = ties[tie_id].teams() if tie_id in ties else None
        if pair and team_id in pair:
            results[tie_id] = (team_id, pair[1] if team_id == pair[0] else pair[0])
    overrides, problems = {}, []
    for tie_spec in sub_ties:
        stored = ties.get(tie_spec.id)
        if stored is None:
            continue
        pair = list(stored.teams())
        placed: dict[str, Hashable] = {}
        for side in ("first", "second"):
            source = getattr(tie_spec, side)
            if source.kind in ("winner", "loser") and source.ref in results:
                won, lost = results[source.ref]
                team_id = won if source.kind == "winner" else lost
                if team_id in pair:
                    placed[side] = team_id
                    pair.remove(team_id)
        free = [side for side in ("first", "second") if side not in placed]
        if len(free) == 2:
            host = stored.second_leg_host() if tie_spec.legs == 2 else pair[0]
            first = host if host in pair else pair[0]
            placed["first"] = first
            placed["second"] = pair[1] if first == pair[0] else pair[0]
        elif len(free) == 1:
            placed[free[0]] = pair[0]
        for side, team_id in placed.items():
            overrides[(tie_spec.id, side)] = team_id
    return sub, overrides, problems


def _needs_tables(spec: bracket_rules.BracketSpec, stored) -> bool:
    """Some tie of ``spec`` without stored matches is fed from a table (a position, or the
    better/worse placed of several teams): the bracket then needs the league tables."""

    def table_fed(source) -> bool:
        return source.kind in ("position", "better_of", "worse_of")

    return any(table_fed(t.first) or table_fed(t.second) for t in spec.ties if t.id not in stored)


def _inferred_closed(spec: bracket_rules.BracketSpec, ties) -> set[str]:
    """Stages closed because a later tie fed from them has its matches."""
    closed = set()
    for tie_spec in spec.ties:
        if tie_spec.id in ties:
            for ref in tie_spec.first.ties() | tie_spec.second.ties():
                if ref in ties:
                    closed.add(spec.tie(ref).stage)
    return closed


def competition_bracket(competition: Competition, *, standings=None) -> dict:
    """The bracket document (docs/contracts.md §6) of a ``knockout`` competition, in one query
    (module docstring for the rules). Raises :class:`LeagueRuleError` for another kind.

    When a shown tie without matches is fed from a league table (the Liguilla shown in
    Primera B's post-season, the zones before they start), the season's league tables are
    loaded too (:func:`league_standings`, a bounded number of queries).

    Shape: ``{"competition", "name", "season", "bracket", "require_stream", "teams":
    {id: name}, "stages": [{"code", "name"}], "ties": [{"id", "stage", "name",
    "legs_required", "match_minutes", "same_day", "slots": [{"fed_from", "source",
    "team", "provisional", "waiting_for", "overridden", "from_matches"}], "hosts", "legs":
    [{"leg", "match", "home", "away", "home_goals", "away_goals", "extra_time",
    "penalties", "status", "counted"}], "aggregate", "third_match_required",
    "third_match_home", "winner", "loser", "decided_by", "status", "stage_closed",
    "problems", "paused"}], "outcomes", "problems"}`` (``paused``: the tie waits for the
    tribunal, :func:`leagues.bracket_decisions.pause_tie`).
    """
    if competition.kind != Competition.Kind.KNOCKOUT:
        raise LeagueRuleError(f"competition {competition.slug} is not a knockout: no bracket")
    rows = _rows(competition)
    names: dict[str, str] = {}
    for row in rows:
        names[row["home__code"]] = row["home__name"]
        names[row["away__code"]] = row["away__name"]
    matches = [rule_match(row) for row in rows]
    ties = _stored_ties(matches)
    legs = 2 if competition.legs >= 2 else 1
    spec = known_spec(ties)
    cup = _cup_setup(competition) if spec is None else None
    problems: list[str] = []
    staff_slots, awards, staff_thirds = _bracket_inputs(competition)
    if spec is not None:
        if not final_four_of(competition):
            spec = _without_final_four(spec)
        spec, overrides, problems = _known(spec, ties, awards=awards)
        require_stream = True
        stage_names = bracket_rules.STAGES
        if standings is None and _needs_tables(spec, ties):
            standings = league_standings(competition.season)
    elif cup is not None:
        spec, overrides, problems = _known(cup[0], ties, require_stream=False, awards=awards)
        standings = cup[1]
        require_stream = False
        stage_names = {code: cup_stage_name(code) for code in spec.stages}
    else:
        spec, overrides = _generic_spec(ties, legs)
        require_stream = False
        stage_names = {}
    # A stage counts as closed once a later tie fed from it has its matches, or when
    # staff closed it (a last stage: the final, the Liguilla) — the audit log is read
    # only when a fully decided stage is not closed otherwise.
    closed = _inferred_closed(spec, ties)
    if require_stream or cup is not None:
        decided = {
            stage
            for stage in spec.stages
            if stage not in closed
            and all(
                t.id in awards
                or (t.id in ties and _outcome(ties[t.id], t.legs, require_stream)[0] is not None)
                for t in spec.ties
                if t.stage == stage
            )
        }
        if decided:
            target = f"{competition.season.slug}/{competition.slug}"
            closed |= _recorded_closed([target]) & decided
    ids = {t.id for t in spec.ties}
    staff_slots = {key: team for key, team in staff_slots.items() if key[0] in ids}
    overrides = {**overrides, **staff_slots}
    third_homes = {**staff_thirds, **_third_homes(ties)}
    all_matches = [m for stored in ties.values() for m in stored.matches]
    fill = dict(
        closed_stages=closed,
        overrides=overrides,
        awards={t: team for t, team in awards.items() if t in ids},
        third_match_homes={t: team for t, team in third_homes.items() if t in ids},
        require_stream=require_stream,
    )
    try:
        filled = bracket_rules.fill_bracket(spec, standings or {}, all_matches, **fill)
    except LeagueRuleError as exc:
        # A slot the tables cannot place (a team missing from a table): show the stored
        # ties only, with the problem.
        problems += exc.problems
        spec = _stored_only(spec, ties)
        filled = bracket_rules.fill_bracket(spec, {}, all_matches, **fill)
    doc = filled.as_dict()
    for tie in doc["ties"]:
        for side, slot in zip(("first", "second"), tie["slots"], strict=True):
            slot["from_matches"] = (tie["id"], side) in overrides and (
                (tie["id"], side) not in staff_slots
            )
            slot["overridden"] = (tie["id"], side) in staff_slots
            if slot["source"]["kind"] == "team":
                slot["fed_from"] = None
    on_hold = {row["tie"] or row["code"] for row in rows if row["paused"]}
    for tie in doc["ties"]:
        tie["paused"] = tie["id"] in on_hold
    stages = list(dict.fromkeys(t["stage"] for t in doc["ties"]))
    return {
        "competition": competition.slug,
        "name": competition.name,
        "season": competition.season.slug,
        "cup": cup is not None,
        "bracket": doc["bracket"],
        "require_stream": require_stream,
        "final_four": final_four_of(competition),
        "teams": names,
        "stages": [{"code": code, "name": stage_names.get(code, "")} for code in stages],
        "ties": doc["ties"],
        "outcomes": doc["outcomes"],
        "problems": problems + doc["problems"],
    }


def paused_ties(competition: Competition) -> dict[str, TiePause]:
    """The ties of ``competition`` paused pending the tribunal: ``{tie id: TiePause}``
    (one query; :func:`leagues.bracket_decisions.pause_tie`)."""
    return {p.tie: p for p in TiePause.objects.filter(competition=competition)}


def final_four_of(competition: Competition) -> bool:
    """Whether Primera A's semi-finals are a Final Four on one day (ANFPES T24 §1.1.4);
    staff can switch it off (§1.1.6) when closing the regular phase or later
    (:func:`leagues.bracket_decisions.set_final_four`). A staff decision
    (:func:`leagues.staff_decisions.final_four`), on by default."""
    return staff_decisions.final_four(competition)


def _without_final_four(spec: bracket_rules.BracketSpec) -> bracket_rules.BracketSpec:
    """``spec`` with no tie played on one day (the Final Four switched off)."""
    return replace(
        spec,
        ties=tuple(
            replace(t, same_day=None) if t.same_day == "final_four" else t for t in spec.ties
        ),
    )


def _stored_only(spec: bracket_rules.BracketSpec, ties) -> bracket_rules.BracketSpec:
    kept = tuple(t for t in spec.ties if t.id in ties)
    ids = {t.id for t in kept}
    fed = set().union(*(t.first.ties() | t.second.ties() for t in kept)) if kept else set()
    return bracket_rules.BracketSpec(
        spec.code,
        kept,
        tuple((c, s) for c, s in spec.outcomes if s.ties() <= ids),
        tuple(dict.fromkeys(t.stage for t in kept)),
        spec.rank_by,
        frozenset(fed - ids),
    )


def bracket_display(doc: dict) -> list[dict]:
    """The bracket document grouped by stage for the page, team ids replaced by names:
    ``[{"code", "name", "ties": [{…tie, "slots": [{…, "label"}], "legs": [{…, "home_name",
    "away_name"}], "aggregate_pairs": [(name, goals)], "winner_name", "third_home_name"}]}]``."""

    names = doc["teams"]

    def name(team_id):
        return names.get(team_id, team_id) if team_id is not None else None

    stages = []
    for stage in doc["stages"]:
        ties = []
        for tie in doc["ties"]:
            if tie["stage"] != stage["code"]:
                continue
            slots = [
                {
                    **slot,
                    "label": name(slot["team"]),
                    "provisional_name": name(slot["provisional"]),
                    # Translated (the document keeps the rules' English texts).
                    "fed_from_label": labels.source_label(slot["source"])
                    if slot["fed_from"]
                    else None,
                    "waiting_label": labels.waiting_label(slot.get("waiting_for")),
                }
                for slot in tie["slots"]
            ]
            order = [s["team"] for s in tie["slots"]]
            ties.append(
                {
                    **tie,
                    "name": labels.tie_name_label(tie.get("name") or ""),
                    "slots": slots,
                    "legs": [
                        {**leg, "home_name": name(leg["home"]), "away_name": name(leg["away"])}
                        for leg in tie["legs"]
                    ],
                    "aggregate_pairs": [
                        (name(t), tie["aggregate"][t]) for t in order if t in tie["aggregate"]
                    ],
                    "winner_name": name(tie["winner"]),
                    "third_home_name": name(tie["third_match_home"]),
                }
            )
        number = stage["code"].removeprefix("round_")
        closed = bool(ties) and all(tie.get("stage_closed") for tie in ties)
        stages.append(
            {
                **stage,
                "name": labels.stage_label(stage["code"], stage["name"]) if stage["name"] else "",
                "ties": ties,
                "round": int(number) if number.isdigit() else None,
                "has_matches": any(tie["legs"] for tie in ties),
                "closed": closed,
                # Staff are offered "close this stage" while it is open, or once closed
                # only when a tie fed from it can now be created (a Liguilla tie that
                # waited for Primera A's table): closing again creates it.
                "paused": any(tie.get("paused") for tie in ties),
                "can_close": any(tie["legs"] for tie in ties)
                and not any(tie.get("paused") for tie in ties)
                and (not closed or _creatable_after(doc, {tie["id"] for tie in ties})),
            }
        )
    return stages


def _creatable_after(doc: dict, stage_ties: set[str]) -> bool:
    """Some tie of ``doc`` without matches, fed from a tie of ``stage_ties``, has both
    teams known (closing the stage again would create it)."""

    def refs(source) -> set[str]:
        found = {source["ref"]} if source["kind"] in ("winner", "loser") else set()
        for inner in source.get("among", ()):
            found |= refs(inner)
        return found

    for tie in doc["ties"]:
        if tie["legs"] or any(slot["team"] is None for slot in tie["slots"]):
            continue
        if tie["slots"][0]["team"] == tie["slots"][1]["team"]:
            continue
        if any(refs(slot["source"]) & stage_ties for slot in tie["slots"]):
            return True
    return False


def _problems(exc: LeagueRuleError) -> str:
    """The rules' problems as translated sentences (:func:`leagues.labels.problems_text`)."""

    return labels.problems_text(exc.reasons)


# --------------------------------------------------------------------------- broadcast
def is_league_final_phase(competition: Competition) -> bool:
    """Whether ``competition`` is a league final phase — a knockout whose ties are the
    ANFPES league post-season's (:func:`known_spec`), where every match must be streamed
    (ANFPES T24 §1.4 ¶5); cup knockouts are not (§2.2: encouraged only). One query for a
    knockout, none otherwise."""
    if competition.kind != Competition.Kind.KNOCKOUT:
        return False
    ids = {tie or code for tie, code in competition.matches.values_list("tie", "code")}
    return league_final_phase(competition.kind, staff_decisions.is_cup(competition), ids)


def requires_stream(match: Match, *, final_phase: bool | None = None) -> bool:
    """Whether ``match`` counts only with its stream link: a league final-phase match
    (§1.4 ¶5) or a regular-phase fixture staff marked ``must_stream`` (§1.4 ¶6).
    ``final_phase``: :func:`is_league_final_phase` of its competition, if known."""
    if match.must_stream:
        return True
    if final_phase is None:
        final_phase = is_league_final_phase(match.competition)
    return final_phase


def played_without_stream(match: Match, *, final_phase: bool | None = None) -> bool:
    """A played match that requires its stream link (:func:`requires_stream`) and has
    none: a friendly that does not count (ANFPES T24 §1.4 ¶5–¶6)."""
    if match.status != Match.Status.PLAYED or match_rules.has_stream(match):
        return False
    return requires_stream(match, final_phase=final_phase)


# --------------------------------------------------------------------------- divisions
PRIMERA_A = "primera_a"


PRIMERA_B = "primera_b"


def division_of(competition: Competition) -> str | None:
    """Which division a ``league`` competition is: ``"primera_b"`` when it has
    ``title_decider`` (only Primera B's title is settled by a decider match, ANFPES T24
    §1.3.1), else ``"primera_a"`` **[choice: the flag the season file already carries
    marks the division, no new field]**; ``None`` for another kind."""
    if competition.kind != Competition.Kind.LEAGUE:
        return None
    return PRIMERA_B if competition.title_decider else PRIMERA_A


def league_standings(season: Season) -> dict[str, bracket_rules.Standing]:
    """The final tables feeding the league post-season: ``{"primera_a": Standing,
    "primera_b": Standing}`` from the season's ``league`` competitions (the first of each
    division, :func:`division_of`). A table is closed once none of its fixtures is
    scheduled; positions inside an unresolved tie wait. 1 + 4 queries per division."""

    standings: dict[str, bracket_rules.Standing] = {}
    for comp in season.competitions.filter(kind=Competition.Kind.LEAGUE).order_by("position", "id"):
        code = division_of(comp)
        if code in standings:
            continue
        doc = competition_table(comp)
        closed = not comp.matches.filter(status=Match.Status.SCHEDULED).exists()
        unresolved = {
            p: tie["reason"] for tie in doc.get("unresolved", []) for p in tie["positions"]
        }
        standings[code] = bracket_rules.Standing(
            code, tuple(row["team"] for row in doc["rows"]), closed, unresolved
        )
    return standings


_A_SPEC = bracket_rules.primera_a_playoffs()


def _recorded_closed(targets) -> set[str]:
    """Stages staff closed (audit entries ``league.stage_closed`` of ``targets``)."""

    closed = set()
    for after in AuditLog.objects.filter(
        action="league.stage_closed", target__in=list(targets)
    ).values_list("after", flat=True):
        if isinstance(after, dict) and after.get("stage"):
            closed.add(after["stage"])
    return closed


def _third_homes(ties: dict[str, _StoredTie]) -> dict:
    return {
        tie_id: stored.third_match_home()
        for tie_id, stored in ties.items()
        if stored.third_match_home() is not None
    }


def _ids(values) -> list[str]:
    """Team ids from a pasted text or a list: one per line, or separated by commas or
    spaces; blanks ignored."""
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    return [str(v).strip() for v in values if str(v).strip()]


# --------------------------------------------------------------------------- cups
CUP_PREFIXES = {"cl": "Champagne League", "conf": "Conference Lag", "ns": "Nucommunity Shit"}
"""Tie id prefixes of the cup knockouts (:mod:`leagues.rules.cups`) → cup name."""


def cup_stage_name(code: str) -> str:
    """``cl_round_of_16`` → "Champagne League: round of 16" (English, like
    :data:`leagues.rules.brackets.STAGES`)."""
    prefix, _sep, rest = code.partition("_")
    return f"{CUP_PREFIXES.get(prefix, prefix)}: {rest.replace('_', ' ')}"


def _cup_setup(competition: Competition):
    """``(spec, standings)`` of a cup knockout created in the app (its stored setup,
    :func:`leagues.staff_decisions.cup_setup`: the bracket specification and the seeding
    rankings, stored when it was created), else ``None``."""
    cup = staff_decisions.cup_setup(competition)
    if cup is None:
        return None
    legs = cup.get("legs", 2)
    if cup.get("spec") == "drawn":
        spec = bracket_rules.drawn_knockout(
            cup["prefix"], cup["ranking"], entrants=cup["entrants"], legs=legs
        )
    else:
        spec = bracket_rules.seeded_knockout(
            cup["prefix"], cup["top"], cup["bottom"], ties=cup["ties"], legs=legs
        )
    standings = {
        code: bracket_rules.Standing(code, tuple(order), closed=True)
        for code, order in cup["standings"].items()
    }
    return spec, standings


def _bracket_inputs(competition: Competition) -> tuple[dict, dict, dict]:
    """The staff decisions the bracket rules take as inputs: slots ``{(tie, side): team}``
    (``overrides``), tribunal awards ``{tie: team}`` and chosen third-match hosts ``{tie:
    team}`` (:mod:`leagues.staff_decisions`)."""
    return (
        staff_decisions.slots(competition),
        staff_decisions.awards(competition),
        staff_decisions.third_match_hosts(competition),
    )
