"""Final phases in the app (issue 5): the bracket of a ``knockout`` competition and the
card suspensions of a season, built from the stored matches with the pure rules
(:mod:`leagues.rules.ties`, :mod:`leagues.rules.brackets`, :mod:`leagues.rules.cards`;
read-only, bounded queries), and the staff steps that create matches: closing a regular
phase (:func:`close_regular_phase`, Primera A or B by :func:`division_of`), closing a stage
(:func:`advance_stage`: third matches, then the next ties), next season's divisions
(:func:`season_next_divisions`) and the Champagne League draw (:func:`champagne_draw`).

Bracket (:func:`competition_bracket`, CONTRACTS §6 ``GET /api/v1/competitions/<slug>/bracket``):

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

Suspensions (:func:`season_suspensions`, CONTRACTS §6 ``GET /api/v1/seasons/<slug>/suspensions``):

- Scopes (:mod:`leagues.rules.cards`): the league post-season knockouts of the season
  (tie ids of the league post-season, as above) are one scope; every other knockout
  competition (a cup's knockout) is its own scope. League and group stages do not count.
- Played order **[choice]**: competitions in season order, then round, leg and posting
  time; scheduled matches after the others (the first is a team's "next match").
- Match references are ``<competition slug>/<match id>`` (match ids repeat across
  competitions).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import F

from leagues.adapters import LEAGUE_TIES, MATCH_FIELDS, league_final_phase, rule_match
from leagues.models import Card, Competition, Match, Season
from leagues.rules import brackets as bracket_rules
from leagues.rules import cards as card_rules
from leagues.rules import match_rules
from leagues.rules import season as season_rules
from leagues.rules.errors import LeagueRuleError
from leagues.rules.ties import tie_state

__all__ = [
    "bracket_display",
    "competition_bracket",
    "final_four_of",
    "known_spec",
    "set_final_four",
    "season_suspensions",
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
    return list(
        competition.matches.order_by("round", F("leg").asc(nulls_first=True), "id").values(
            *MATCH_FIELDS
        )
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
    """The bracket document (CONTRACTS §6) of a ``knockout`` competition, in one query
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
    "problems"}], "outcomes", "problems"}``.
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
    staff_slots, awards, staff_thirds = _staff_choices(competition)
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


def final_four_of(competition: Competition) -> bool:
    """Whether Primera A's semi-finals are a Final Four on one day (ANFPES T24 §1.1.4);
    staff can switch it off (§1.1.6) when closing the regular phase or later
    (:func:`set_final_four`). Stored in ``staff_choices["final_four"]``, default on."""
    return (competition.staff_choices or {}).get("final_four", True) is not False


def _without_final_four(spec: bracket_rules.BracketSpec) -> bracket_rules.BracketSpec:
    """``spec`` with no tie played on one day (the Final Four switched off)."""
    return replace(
        spec,
        ties=tuple(
            replace(t, same_day=None) if t.same_day == "final_four" else t for t in spec.ties
        ),
    )


def set_final_four(competition, actor, *, final_four: bool, reason: str):
    """League staff switch the Final Four of Primera A's playoffs on or off (ANFPES T24
    §1.1.6: "el Honorable Staff se reserva el derecho de poder prescindir de la
    modalidad"): only the scheduling changes, the semi-finals stay home and away. Only on
    a knockout holding Primera A's semi-finals, before they are played (``UserError``
    otherwise, nothing saved). ``REVIEW_RESULTS``; audited (``league.final_four_set``)."""
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from leagues.access import LeaguePermission

    if not isinstance(final_four, bool):
        raise UserError(_("Choose on or off."))

    def change(comp, doc):
        semis = [t for t in doc["ties"] if t["stage"] == "a_semi_finals"]
        if not semis:
            raise UserError(_("This bracket has no Primera A semi-finals."))
        if (
            comp.matches.filter(tie__in=[t["id"] for t in semis])
            .exclude(status=Match.Status.SCHEDULED)
            .exists()
        ):
            raise UserError(_("The semi-finals are being played already."))
        comp.staff_choices = {**(comp.staff_choices or {}), "final_four": bool(final_four)}
        return {"final_four": bool(final_four)}

    return _choose(
        competition,
        actor,
        LeaguePermission.REVIEW_RESULTS,
        "league.final_four_set",
        reason,
        change,
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
    from leagues import labels

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
                "can_close": any(tie["legs"] for tie in ties)
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
    from leagues import labels

    return labels.problems_text(exc.problems)


# --------------------------------------------------------------------------- broadcast
def is_league_final_phase(competition: Competition) -> bool:
    """Whether ``competition`` is a league final phase — a knockout whose ties are the
    ANFPES league post-season's (:func:`known_spec`), where every match must be streamed
    (ANFPES T24 §1.4 ¶5); cup knockouts are not (§2.2: encouraged only). One query for a
    knockout, none otherwise."""
    if competition.kind != Competition.Kind.KNOCKOUT:
        return False
    ids = {tie or code for tie, code in competition.matches.values_list("tie", "code")}
    return league_final_phase(competition.kind, competition.staff_choices, ids)


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


# --------------------------------------------------------------------------- closed phases
def regular_phase_closed(competition: Competition) -> bool:
    """Whether staff closed the regular phase of this ``league`` competition
    (:func:`close_regular_phase` sets ``Competition.regular_phase_closed_at``). One query,
    read from the database (the caller's copy may predate a closing)."""
    if competition.kind != Competition.Kind.LEAGUE:
        return False
    return Competition.objects.filter(
        pk=competition.pk, regular_phase_closed_at__isnull=False
    ).exists()


def _mark_regular_phase_closed(competition: Competition, actor) -> None:
    """Record the closing on the (locked) competition row."""
    from django.utils import timezone

    competition.regular_phase_closed_at = timezone.now()
    competition.regular_phase_closed_by = actor if getattr(actor, "pk", None) else None
    competition.save(update_fields=["regular_phase_closed_at", "regular_phase_closed_by"])


def ensure_regular_phase_open(competition: Competition) -> None:
    """Refuse (``UserError``) a change of a result, a walkover, an annulment or a points
    entry in a league whose regular phase is closed: the playoffs, promotion ties and
    Liguilla were drawn from its final table, which must not change under them
    (ANFPES T24 §1.1.1, §1.2.1, §1.3: the final phases follow "con la fase regular
    terminada") **[choice]**. Locks the competition row, so it waits for a closing in
    progress (:func:`close_regular_phase` locks it too). Other kinds pass."""
    from django.utils.translation import gettext as _

    from events.errors import UserError

    if competition.kind != Competition.Kind.LEAGUE:
        return
    closed = (
        Competition.objects.select_for_update()
        .filter(pk=competition.pk)
        .values_list("regular_phase_closed_at", flat=True)
    )
    if any(at is not None for at in closed):
        raise UserError(
            _(
                "The regular phase of %(name)s is closed and its final phases were drawn "
                "from its table: its results, walkovers and points can no longer change."
            )
            % {"name": competition.name}
        )


# --------------------------------------------------------------------------- suspensions
def season_suspensions(season: Season) -> dict:
    """The suspensions document (CONTRACTS §6) of ``season``, in 2 queries (1 without a
    knockout match; module docstring for the scopes and the order), by
    :func:`leagues.rules.cards.suspensions`, with the lineups of the results.

    Shape: ``{"season", "suspensions": [{"scope", "team", "name", "footballer", "cause",
    "cards": [{"match", "tie", "card"}], "caused_in", "served_in", "next_match"}],
    "served": […], "flags": [{"match", "team", "name", "footballer", "where",
    "suspension"}], "scopes": [{"scope", "competitions", "require_stream"}], "problems"}``
    (``name``, ``scope``, ``scopes`` and ``problems`` are optional additions). A scope
    whose cards cannot be read (a card of a team not in its match) is listed under
    ``problems`` and left out.
    """
    rows = list(
        Match.objects.filter(competition__season=season, competition__kind="knockout")
        .order_by(
            "competition__position",
            "competition_id",
            "round",
            F("leg").asc(nulls_first=True),
            F("reported_at").asc(nulls_last=True),
            "id",
        )
        .values(*MATCH_FIELDS, "competition__slug", "competition_id", "lineup")
    )
    cards: dict[int, list[season_rules.Card]] = {}
    card_rows = (
        Card.objects.filter(match__competition__season=season, match__competition__kind="knockout")
        .order_by("match_id", "id")
        .values("match_id", "team__code", "footballer", "card")
    )
    for card in card_rows if rows else ():  # no knockout match: no card to read
        cards.setdefault(card["match_id"], []).append(
            season_rules.Card(card["team__code"], card["footballer"], card["card"])
        )
    names: dict[str, str] = {}
    by_competition: dict[str, list[dict]] = {}
    for row in rows:
        names[row["home__code"]] = row["home__name"]
        names[row["away__code"]] = row["away__name"]
        by_competition.setdefault(row["competition__slug"], []).append(row)
    league, scopes = [], []
    for slug, comp_rows in by_competition.items():
        tie_ids = {r["tie"] or r["code"] for r in comp_rows}
        if known_spec(tie_ids) is not None:
            league.append(slug)
        else:
            scopes.append((slug, [slug], False))
    if league:
        scopes.insert(0, ("league_post_season", league, True))

    doc: dict[str, Any] = {
        "season": season.slug,
        "suspensions": [],
        "served": [],
        "flags": [],
        "scopes": [],
        "problems": [],
    }
    for scope, slugs, require_stream in scopes:
        scope_rows = [r for slug in slugs for r in by_competition[slug]]
        played = [r for r in scope_rows if r["status"] != Match.Status.SCHEDULED]
        upcoming = [r for r in scope_rows if r["status"] == Match.Status.SCHEDULED]
        matches = [
            replace(
                rule_match(r, prefix=f"{r['competition__slug']}/"),
                cards=tuple(cards.get(r["pk"], ())),
            )
            for r in played + upcoming
        ]
        # The lineups reported with the results: a suspended footballer named flags the
        # fixture (§1.4 ¶3).
        lineups: dict[str, dict[str, list[str]]] = {}
        for r in played:
            for entry in r.get("lineup") or ():
                if isinstance(entry, dict) and entry.get("team") and entry.get("footballer"):
                    lineups.setdefault(f"{r['competition__slug']}/{r['code']}", {}).setdefault(
                        entry["team"], []
                    ).append(entry["footballer"])
        try:
            report = card_rules.suspensions(matches, require_stream=require_stream, lineups=lineups)
        except LeagueRuleError as exc:
            doc["problems"] += [f"{scope}: {p}" for p in exc.problems]
            continue
        doc["scopes"].append(
            {"scope": scope, "competitions": slugs, "require_stream": require_stream}
        )
        body = report.as_dict()
        for key in ("suspensions", "served"):
            for item in body[key]:
                doc[key].append({"scope": scope, "name": names.get(item["team"]), **item})
        for flag in body["flags"]:
            doc["flags"].append({"scope": scope, "name": names.get(flag["team"]), **flag})
    return doc


def suspension_flags(season: Season, doc: dict | None = None, *, match=None) -> list[dict]:
    """Fixtures staff must review because a lineup or a card report names a footballer
    suspended for that match (ANFPES T24 §1.4 ¶3): the flags of the accepted results
    (:func:`season_suspensions`) and those of the open result reports (pending or
    disputed: their bookings and lineups against the suspensions to serve in that match;
    names compared as the rules compare them, :func:`leagues.rules.cards.footballer_key`:
    case, accents and extra spaces ignored). ``match`` limits them to one fixture.
    Each ``{"match": "<competition>/<id>", "competition", "code", "team", "name",
    "footballer", "where": "lineup"|"cards", "report": pk or None}``. 2–3 queries (none
    for the reports when no suspension is pending)."""
    from leagues.models import ResultReport

    doc = doc if doc is not None else season_suspensions(season)
    wanted = f"{match.competition.slug}/{match.code}" if match is not None else None
    flags = []
    for flag in doc["flags"]:
        if wanted is None or flag["match"] == wanted:
            slug, _sep, code = flag["match"].partition("/")
            flags.append(
                {
                    "match": flag["match"],
                    "competition": slug,
                    "code": code,
                    "team": flag["team"],
                    "name": flag.get("name"),
                    "footballer": flag["footballer"],
                    "where": flag["where"],
                    "report": None,
                }
            )
    pending = {}
    for item in doc["suspensions"]:
        if item.get("next_match") and (wanted is None or item["next_match"] == wanted):
            key = (
                item["next_match"],
                item["team"],
                card_rules.footballer_key(item["footballer"]),
            )
            pending[key] = item
    if not pending:
        return flags
    reports = ResultReport.objects.filter(
        match__competition__season=season,
        match__competition__kind=Competition.Kind.KNOCKOUT,
        status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
    )
    if match is not None:
        reports = reports.filter(match=match)
    for report in reports.values(
        "pk", "match__competition__slug", "match__code", "cards", "lineup"
    ):
        ref = f"{report['match__competition__slug']}/{report['match__code']}"
        named = [("cards", c) for c in report["cards"] or ()] + [
            ("lineup", p) for p in report["lineup"] or ()
        ]
        seen = set()
        for where, entry in named:
            if not isinstance(entry, dict):
                continue
            name = card_rules.footballer_key(entry.get("footballer"))
            item = pending.get((ref, entry.get("team"), name))
            if item is None or (where, entry.get("team"), name) in seen:
                continue
            seen.add((where, entry.get("team"), name))
            flags.append(
                {
                    "match": ref,
                    "competition": report["match__competition__slug"],
                    "code": report["match__code"],
                    "team": item["team"],
                    "name": item.get("name"),
                    "footballer": item["footballer"],
                    "where": where,
                    "report": report["pk"],
                }
            )
    return flags


# --------------------------------------------------------------------------- closing
def _check_final_table(doc: dict, order: list, places: int, too_few: str) -> None:
    """A final table can feed a post-season of ``places`` teams: at least that many teams
    (else ``UserError(too_few)``) and no tie a decision must break among them (SPEC-leagues
    §2: staff decide it on the table first)."""
    from django.utils.translation import gettext as _

    from events.errors import UserError

    if len(order) < places:
        raise UserError(too_few)
    for tie in doc.get("unresolved", []):
        if min(tie["positions"]) <= places:
            raise UserError(
                _("Teams %(teams)s are tied: decide their order on the table first.")
                % {"teams": ", ".join(tie["teams"])}
            )


def _post_season(competition: Competition, slug, name, spec, standing, first_stage):
    """Create the knockout competition of a league's post-season (ANFPES T24 §1.1, §1.3)
    from the bracket ``spec`` filled with the closed ``standing``: returns the new
    competition, the ties of ``first_stage`` and the season's teams by id. ``UserError``
    when the address (default ``<league>-playoffs``) is taken or not valid."""
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from leagues.services import SLUG_RE

    season = competition.season
    slug = slug or f"{competition.slug}-playoffs"
    _check_name(name)
    if not SLUG_RE.match(slug) or Competition.objects.filter(slug=slug).exists():
        raise UserError(_("The address %(slug)s is taken or not valid.") % {"slug": slug})
    filled = bracket_rules.fill_bracket(spec, [standing])
    first_round = [view for view in filled.ties if view.spec.stage == first_stage]
    teams = {t.code: t for t in season.teams.all()}
    last = season.competitions.order_by("-position").values_list("position", flat=True)
    created = Competition.objects.create(
        season=season,
        slug=slug,
        kind=Competition.Kind.KNOCKOUT,
        name=name,
        legs=2,
        tie_breakers=list(competition.tie_breakers),
        counts_for_compliance=False,
        position=(last.first() or 0) + 1,
    )
    return created, first_round, teams


def close_regular_phase(
    competition: Competition,
    actor,
    *,
    slug: str | None = None,
    name: str | None = None,
    final_four: bool = True,
) -> Competition:
    """League staff close the regular phase of a division. Primera B (a league with
    ``title_decider``, :func:`division_of`) goes to :func:`_close_primera_b`. Primera A: the
    Championship playoffs knockout is created from the final table (ANFPES T24 §1.1.3:
    ``qf1`` 1v8, ``qf2`` 4v5, ``qf3`` 2v7, ``qf4`` 3v6, by
    :func:`leagues.rules.brackets.primera_a_playoffs`), with its quarter-finals' two legs
    (round 1, ids ``qf1-1``/``qf1-2`` …; the higher seed hosts the second leg,
    :func:`leagues.rules.ties.leg_hosts`; deadlines empty, staff set them). The later ties
    appear in its bracket as "winner of …" (:func:`competition_bracket`).

    ``slug`` defaults to ``<competition>-playoffs``, ``name`` to "<name> — playoffs".
    Needs :attr:`LeaguePermission.REVIEW_RESULTS`. ``UserError`` when the competition is
    not a league, fixtures remain to be played (scheduled), a tie in the top eight waits
    for a decision, there are fewer than eight teams, or the slug is taken. Audited
    (``league.regular_phase_closed``).
    """
    from django.db import transaction
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    from events.errors import UserError
    from events.services import audit
    from leagues.access import LeaguePermission, require
    from leagues.models import Entry
    from leagues.services import competition_table

    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        season = competition.season
        require(actor, season, LeaguePermission.REVIEW_RESULTS)
        if competition.kind != Competition.Kind.LEAGUE:
            raise UserError(_("Only a league's regular phase can be closed."))
        if regular_phase_closed(competition):
            raise UserError(
                _("The regular phase of %(name)s is already closed.") % {"name": competition.name}
            )
        pending = competition.matches.filter(status=Match.Status.SCHEDULED).count()
        if pending:
            raise UserError(
                ngettext(
                    "%(n)s fixture is still to be played: record it first.",
                    "%(n)s fixtures are still to be played: record them first.",
                    pending,
                )
                % {"n": pending}
            )
        # A must-stream fixture played without its link is a friendly (§1.4 ¶6): the table
        # would be built without it. Staff replay it or add its link first.
        friendlies = list(
            competition.matches.filter(
                status=Match.Status.PLAYED, must_stream=True, stream_url=""
            ).values_list("code", "home__name", "away__name")
        )
        if friendlies:
            raise UserError(
                _(
                    "These fixtures were played without their required stream link and do "
                    "not count: %(matches)s. Order them replayed or add their link first."
                )
                % {"matches": ", ".join(f"{c} ({h} – {a})" for c, h, a in friendlies)}
            )
        doc = competition_table(competition)
        order = [row["team"] for row in doc["rows"]]
        if division_of(competition) == PRIMERA_B:
            return _close_primera_b(competition, actor, doc, order, slug=slug, name=name)
        _check_final_table(doc, order, 8, _("The playoffs need eight teams."))
        playoffs, first_round, teams = _post_season(
            competition,
            slug,
            name or _("%(name)s — playoffs") % {"name": competition.name},
            bracket_rules.primera_a_playoffs(final_four=final_four),
            bracket_rules.Standing("primera_a", tuple(order), closed=True),
            "a_quarter_finals",
        )
        if not final_four:  # on by default (final_four_of)
            playoffs.staff_choices = {"final_four": False}
            playoffs.save(update_fields=["staff_choices"])
        seeds = order[:8]
        Entry.objects.bulk_create(
            [
                Entry(competition=playoffs, team=teams[code], position=i)
                for i, code in enumerate(seeds)
            ]
        )
        created = []
        for view in first_round:
            leg1_home, leg2_home = view.hosts
            for number, (home, away) in enumerate(
                ((leg1_home, leg2_home), (leg2_home, leg1_home)), start=1
            ):
                created.append(
                    Match(
                        competition=playoffs,
                        code=f"{view.spec.id}-{number}",
                        round=1,
                        home=teams[home],
                        away=teams[away],
                        tie=view.spec.id,
                        leg=number,
                    )
                )
        Match.objects.bulk_create(created)
        _mark_regular_phase_closed(competition, actor)
        audit(
            None,
            actor,
            "league.regular_phase_closed",
            f"{season.slug}/{competition.slug}",
            after={
                "playoffs": playoffs.slug,
                "seeds": seeds,
                "ties": {v.spec.id: [v.first.team, v.second.team] for v in first_round},
                "final_four": final_four,
            },
        )
    return playoffs


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
    from leagues.services import competition_table

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
_B_PARTS = (
    bracket_rules.primera_b_promotion(),
    bracket_rules.post_season_zones(),
    bracket_rules.liguilla(),
)
B_POST_SEASON = bracket_rules.BracketSpec(
    "primera_b_post_season",
    tuple(t for part in _B_PARTS for t in part.ties),
    tuple(o for part in _B_PARTS for o in part.outcomes),
    tuple(st for part in _B_PARTS for st in part.stages),
    (PRIMERA_A, PRIMERA_B),
)
"""Primera B's post-season as one knockout: promotion playoffs, zones and the Liguilla
(a Primera A team ranks above any Primera B team for venues, §V ¶3 **[choice]**)."""


def _scope(tie_ids) -> bracket_rules.BracketSpec:
    """The whole specification a league post-season knockout follows: Primera A's
    playoffs, Primera B's post-season, or both."""
    tie_ids = set(tie_ids)
    if tie_ids <= {t.id for t in _A_SPEC.ties}:
        return _A_SPEC
    if tie_ids <= {t.id for t in B_POST_SEASON.ties}:
        return B_POST_SEASON
    return bracket_rules.league_post_season()


def _recorded_closed(targets) -> set[str]:
    """Stages staff closed (audit entries ``league.stage_closed`` of ``targets``)."""
    from events.models import AuditLog

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


def _leg_rows(competition, tie_id, first, second, hosts, legs, round_, teams) -> list[Match]:
    """The matches of a new tie: two legs (leg 1 at ``hosts[0]``; the better-ranked team
    hosts leg 2, :func:`leagues.rules.ties.leg_hosts`; without a rank the first, higher
    seeded slot does **[choice]**) or one match at the first slot's home."""
    if legs == 1:
        return [
            Match(
                competition=competition,
                code=f"{tie_id}-1",
                round=round_,
                home=teams[first],
                away=teams[second],
                tie=tie_id,
                leg=1,
            )
        ]
    leg1_home, leg2_home = hosts or (second, first)
    return [
        Match(
            competition=competition,
            code=f"{tie_id}-{number}",
            round=round_,
            home=teams[home],
            away=teams[away],
            tie=tie_id,
            leg=number,
        )
        for number, (home, away) in enumerate(
            ((leg1_home, leg2_home), (leg2_home, leg1_home)), start=1
        )
    ]


def _add_entries(competition: Competition, codes, teams) -> None:
    from leagues.models import Entry

    present = set(competition.entries.values_list("team__code", flat=True))
    start = competition.entries.count()
    new = [c for c in dict.fromkeys(codes) if c not in present]
    Entry.objects.bulk_create(
        [
            Entry(competition=competition, team=teams[code], position=start + i)
            for i, code in enumerate(new)
        ]
    )


def _close_primera_b(competition, actor, doc, order, *, slug=None, name=None) -> Competition:
    """Primera B's regular phase closed (inside :func:`close_regular_phase`'s
    transaction): its post-season knockout (``<slug>-playoffs``) with the promotion
    semi-finals ``psf1`` 2v5 and ``psf2`` 3v4 (§1.3.2), two legs each; the promotion final,
    the zones (§1.3.4) and the Liguilla (§1.3.5) follow in the same knockout as staff close
    its stages (:func:`advance_stage`)."""
    from django.utils.translation import gettext as _

    from events.services import audit

    season = competition.season
    _check_final_table(doc, order, 11, _("Primera B's post-season needs eleven teams."))
    post, first_round, teams = _post_season(
        competition,
        slug,
        name or _("%(name)s — post-season") % {"name": competition.name},
        bracket_rules.primera_b_promotion(),
        bracket_rules.Standing(PRIMERA_B, tuple(order), closed=True),
        "b_promotion_semi_finals",
    )
    _add_entries(post, order[1:11], teams)
    created = []
    for view in first_round:
        created += _leg_rows(
            post, view.spec.id, view.first.team, view.second.team, view.hosts, 2, 1, teams
        )
    Match.objects.bulk_create(created)
    _mark_regular_phase_closed(competition, actor)
    audit(
        None,
        actor,
        "league.regular_phase_closed",
        f"{season.slug}/{competition.slug}",
        after={
            "division": PRIMERA_B,
            "post_season": post.slug,
            "champion": order[0],
            "ties": {v.spec.id: [v.first.team, v.second.team] for v in first_round},
        },
    )
    return post


# --------------------------------------------------------------------------- stages
def advance_stage(competition: Competition, actor, stage: str) -> dict:
    """League staff close ``stage`` of a knockout (ANFPES T24 §1.1–§1.3; "winners advance
    only after staff close the stage" **[choice]**):

    1. A tie of the stage level after two legs without its third match: the third match
       (leg 3, ``<tie>-3``, same round) is created, hosted by the better regular-phase
       position (§V ¶3; league tables, a Primera A team above a Primera B one) — without a
       rank, by the host of the second leg **[choice]** — and nothing else happens.
    2. Refused (``UserError``) while a tie of the stage is undecided.
    3. Otherwise every tie of the specification not created yet whose two teams are now
       known is created with its legs (semi-finals from the quarter-finals in bracket
       order, the final, Primera B's promotion final and zones, the Liguilla …; round =
       the last round + 1), its teams added to the entries, and the closing is recorded
       (``league.stage_closed``, also when nothing follows, e.g. the final or the Liguilla:
       it makes the champion and the next season's divisions final). Closing a stage
       again creates what became possible since (a Liguilla tie waiting for Primera A's
       table); with nothing new it is refused.

    Knockouts that are not a league post-season (cups from season files) have no
    specification of later rounds: only step 1 applies. Needs ``REVIEW_RESULTS``.
    Returns ``{"third_matches": [tie ids], "created": [tie ids]}``.
    """
    from django.db import transaction
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from events.services import audit
    from leagues.access import LeaguePermission, require

    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        season = competition.season
        require(actor, season, LeaguePermission.REVIEW_RESULTS)
        if competition.kind != Competition.Kind.KNOCKOUT:
            raise UserError(_("Only a knockout has stages to close."))
        rows = _rows(competition)
        matches = [rule_match(row) for row in rows]
        ties = _stored_ties(matches)
        teams = {t.code: t for t in season.teams.all()}
        target = f"{season.slug}/{competition.slug}"
        league = known_spec(ties) is not None
        cup = None if league else _cup_setup(competition)
        staff_slots, awards, staff_thirds = _staff_choices(competition)
        if league:
            spec = _scope(ties)
            standings = league_standings(season)
            _sub, overrides, _problems = _known(spec, ties, awards=awards)
            recorded = _recorded_closed([target])
        elif cup is not None:
            spec, standings = cup
            _sub, overrides, _problems = _known(spec, ties, require_stream=False, awards=awards)
            recorded = _recorded_closed([target])
        else:
            spec, overrides = _generic_spec(ties, 2 if competition.legs >= 2 else 1)
            standings, recorded = {}, set()
        if stage not in {spec.tie(t).stage for t in ties if t in {x.id for x in spec.ties}}:
            raise UserError(_("This knockout has no stage %(stage)s with ties.") % {"stage": stage})
        closed_before = _inferred_closed(spec, ties) | recorded
        closed = closed_before | {stage}
        ids = {t.id for t in spec.ties}
        try:
            filled = bracket_rules.fill_bracket(
                spec,
                standings,
                matches,
                closed_stages=closed,
                overrides={**overrides, **{k: v for k, v in staff_slots.items() if k[0] in ids}},
                awards={t: team for t, team in awards.items() if t in ids},
                third_match_homes={
                    t: team
                    for t, team in ({**staff_thirds, **_third_homes(ties)}).items()
                    if t in ids
                },
                require_stream=league,
            )
        except LeagueRuleError as exc:
            raise UserError(_problems(exc)) from None
        views = [v for v in filled.ties if v.spec.stage == stage]
        thirds = []
        for view in views:
            state = view.state
            stored = ties.get(view.spec.id)
            if (
                stored is None
                or state is None
                or not state.third_match_required
                or state.winner is not None
                or stored.third_match_home() is not None
            ):
                continue
            home = state.third_match_home or stored.second_leg_host() or view.first.team
            away = view.second.team if home == view.first.team else view.first.team
            thirds.append(
                Match(
                    competition=competition,
                    code=f"{view.spec.id}-3",
                    round=stored.round,
                    home=teams[home],
                    away=teams[away],
                    tie=view.spec.id,
                    leg=3,
                )
            )
        if thirds:
            if competition.matches.filter(code__in=[m.code for m in thirds]).exists():
                raise UserError(_("A match with a third match's id exists already."))
            Match.objects.bulk_create(thirds)
            audit(
                None,
                actor,
                "league.third_matches_created",
                target,
                after={"stage": stage, "ties": {m.tie: [m.home.code, m.away.code] for m in thirds}},
            )
            return {"third_matches": [m.tie for m in thirds], "created": []}
        undecided = [v.spec.id for v in views if v.winner is None]
        if undecided:
            raise UserError(
                _("Not every tie of this stage is decided: %(ties)s.")
                % {"ties": ", ".join(undecided)}
            )
        if not league and cup is None:
            raise UserError(
                _(
                    "Every tie of this stage is decided. This knockout has no bracket "
                    "specification: its next round comes with the season file."
                )
            )
        new = [
            v
            for v in filled.ties
            if v.spec.id not in ties
            and v.first.team is not None
            and v.second.team is not None
            and v.first.team != v.second.team
        ]
        if not new and stage in closed_before:
            raise UserError(_("This stage is closed already and nothing new can be created."))
        round_ = max((r["round"] for r in rows), default=0) + 1
        created = []
        for view in new:
            created += _leg_rows(
                competition,
                view.spec.id,
                view.first.team,
                view.second.team,
                view.hosts,
                view.spec.legs,
                round_,
                teams,
            )
        # A tie the tribunal awarded before its legs existed: they are not to be played,
        # and are recorded as award_tie records the legs it voids, so withdrawing the
        # award puts them back to be played.
        award_voided = {}
        for m in created:
            if m.tie in awards:
                m.status = Match.Status.VOID
                award_voided.setdefault(m.tie, []).append(m.code)
        if award_voided:
            choices = dict(competition.staff_choices or {})
            kept = {k: list(v) for k, v in (choices.get("award_voided") or {}).items()}
            for tie_id, new_codes in award_voided.items():
                kept[tie_id] = sorted({*kept.get(tie_id, ()), *new_codes})
            competition.staff_choices = {**choices, "award_voided": kept}
            competition.save(update_fields=["staff_choices"])
        codes = [m.code for m in created]
        if competition.matches.filter(code__in=codes).exists():
            raise UserError(_("A match with one of the new ids exists already."))
        _add_entries(competition, [c for v in new for c in (v.first.team, v.second.team)], teams)
        Match.objects.bulk_create(created)
        audit(
            None,
            actor,
            "league.stage_closed",
            target,
            after={
                "stage": stage,
                "winners": {v.spec.id: v.winner for v in views},
                "created": {v.spec.id: [v.first.team, v.second.team] for v in new},
            }
            | ({"award_voided": award_voided} if award_voided else {}),
        )
    return {"third_matches": [], "created": [v.spec.id for v in new]}


# --------------------------------------------------------------------------- next season
def season_next_divisions(season: Season, competitions=None) -> dict | None:
    """Next season's divisions (:func:`leagues.rules.brackets.next_divisions`) from the
    season's two leagues and its league post-season knockouts; ``None`` when the season has
    no Primera A and Primera B or no post-season yet. Shape: ``{"primera_a": [{"team",
    "name"}] | None, "primera_b": … , "moves": [{"team", "name", "to", "reason"}],
    "stays": [the same: Liguilla teams keeping their division], "pending": [str]}``. Direct relegation with abandoned Primera A teams waits for a
    staff decision (§1.2.2; not entered in the app yet). Bounded queries."""
    comps = list(season.competitions.all()) if competitions is None else list(competitions)
    divisions = {division_of(c) for c in comps} - {None}
    if divisions != {PRIMERA_A, PRIMERA_B}:
        return None
    knockouts = [c for c in comps if c.kind == Competition.Kind.KNOCKOUT]
    rows = list(
        Match.objects.filter(competition__in=knockouts)
        .order_by("round", F("leg").asc(nulls_first=True), "id")
        .values(*MATCH_FIELDS, "competition__slug")
    )
    by_comp: dict[str, list] = {}
    for row in rows:
        by_comp.setdefault(row["competition__slug"], []).append(row)
    used = [
        slug
        for slug, comp_rows in by_comp.items()
        if known_spec({r["tie"] or r["code"] for r in comp_rows}) is not None
    ]
    if not used:
        return None
    matches = [rule_match(r) for slug in used for r in by_comp[slug]]
    ties = _stored_ties(matches)
    spec = bracket_rules.league_post_season()
    ids = {t.id for t in spec.ties}
    # Staff choices of the post-season knockouts, as on their brackets: a tie awarded by
    # the tribunal is decided here too (§III.2), a slot set by hand holds its team.
    staff_slots, awards, staff_thirds = {}, {}, {}
    for comp in knockouts:
        if comp.slug in used:
            slots, won, thirds = _staff_choices(comp)
            staff_slots.update({k: v for k, v in slots.items() if k[0] in ids})
            awards.update({k: v for k, v in won.items() if k in ids})
            staff_thirds.update({k: v for k, v in thirds.items() if k in ids})
    standings = league_standings(season)
    _sub, overrides, _problems = _known(spec, ties, awards=awards)
    closed = _inferred_closed(spec, ties) | _recorded_closed(
        [f"{season.slug}/{slug}" for slug in used]
    )
    team_rows = list(season.teams.values("code", "name", "status"))
    names = {t["code"]: t["name"] for t in team_rows}
    a = standings[PRIMERA_A].order
    b = standings[PRIMERA_B].order
    try:
        filled = bracket_rules.fill_bracket(
            spec,
            standings,
            matches,
            closed_stages=closed,
            overrides={**overrides, **staff_slots},
            awards=awards,
            third_match_homes={**staff_thirds, **_third_homes(ties)},
            require_stream=True,
        )
        gone = {t["code"] for t in team_rows if t["status"] != "active"}
        result = bracket_rules.next_divisions(
            filled,
            a,
            b,
            relegated=bracket_rules.relegation(
                standings[PRIMERA_A],
                abandoned=[t for t in a if t in gone],
                override=_relegation_list(comps),
            ),
            suspended=[t["code"] for t in team_rows if t["status"] == "suspended"],
            expelled=[t["code"] for t in team_rows if t["status"] == "expelled"],
        )
    except LeagueRuleError as exc:
        return {
            "primera_a": None,
            "primera_b": None,
            "moves": [],
            "stays": [],
            "pending": exc.problems,
        }

    def listed(codes):
        return None if codes is None else [{"team": c, "name": names.get(c, c)} for c in codes]

    return {
        "primera_a": listed(result.primera_a),
        "primera_b": listed(result.primera_b),
        "moves": [
            {"team": m.team, "name": names.get(m.team, m.team), "to": m.to, "reason": m.reason}
            for m in result.moves
        ],
        "stays": [
            {"team": m.team, "name": names.get(m.team, m.team), "to": m.to, "reason": m.reason}
            for m in result.stays
        ],
        "pending": list(result.pending),
    }


# --------------------------------------------------------------------------- Champagne League
CHAMPAGNE_DRAW = "league.champagne_draw"
"""Audit action recording a Champagne League draw (seed, pots, order, groups)."""


def _ids(values) -> list[str]:
    """Team ids from a pasted text or a list: one per line, or separated by commas or
    spaces; blanks ignored."""
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    return [str(v).strip() for v in values if str(v).strip()]


def parse_draw_order(text: str) -> list[tuple[str, str]]:
    """A live draw typed by hand: one ``team group`` per line in the order the teams came
    out (``t3 A``; a comma, a semicolon or spaces between). Raises ``UserError`` naming
    the line."""
    from django.utils.translation import gettext as _

    from events.errors import UserError

    order, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.replace(",", " ").replace(";", " ").split()
        if not parts:
            continue
        if len(parts) != 2:
            problems.append(_("line %(n)s: write the team id and the group") % {"n": number})
            continue
        order.append((parts[0], parts[1].upper()))
    if problems:
        raise UserError("; ".join(problems))
    return order


def champagne_draw(
    season: Season,
    actor,
    *,
    base: str,
    primera_a=(),
    primera_b=(),
    newcomers=(),
    method: str = "seed",
    seed: str | None = None,
    order=(),
    slug: str | None = None,
    name: str | None = None,
    legs: int = 2,
    start=None,
) -> tuple[Competition, Any]:
    """League staff draw the Champagne League groups (ANFPES T24 §2.2,
    :mod:`leagues.rules.cups`) and create its ``groups`` competition.

    - ``base``: ``"tables"`` — this season's Primera A and Primera B tables as they stand
      (:func:`league_standings`) — or ``"pasted"`` — ``primera_a``/``primera_b``: the
      ordered team ids of last season's final tables, typed by staff (they are not in the
      database) **[choice: both]**; ``newcomers`` go to the end of the list (pot 4).
      Expelled teams are left out and the list shifts ("la lista correrá").
    - Four pots; the number of groups is the number of teams / 4 (32 teams → 8 groups of
      four, A–H) **[choice: smaller leagues draw fewer groups]**.
    - ``method``: ``"seed"`` (:func:`leagues.rules.cups.draw_groups`; ``seed`` text, blank
      → 64 random bits in decimal) or ``"manual"`` (``order``: ``(team, group)`` as the
      teams came out of a live draw, :func:`leagues.rules.cups.manual_draw`).
    - Creates the competition (``slug`` default ``<season>-champagne``), its entries with
      their groups (entry order = draw order) and a round robin of ``legs`` legs per group
      (:func:`leagues.rules.fixtures.generate_matches`, the generator of imported leagues;
      ids ``a1``… per group; deadlines when ``start`` is given). Audited
      (:data:`CHAMPAGNE_DRAW`, with the seed, pots, order and groups).

    Needs ``MANAGE_DRAFT``. ``UserError`` (nothing saved) for an unknown team, a team twice,
    a wrong number of teams, an invalid hand-entered draw or a taken address.
    """
    import secrets
    from zoneinfo import ZoneInfo

    from django.db import transaction
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from events.services import audit
    from leagues.access import LeaguePermission, require
    from leagues.models import Entry
    from leagues.rules import cups as cup_rules
    from leagues.rules.fixtures import generate_matches
    from leagues.services import SLUG_RE, _match_row

    require(actor, season, LeaguePermission.MANAGE_DRAFT)
    if base == "tables":
        standings = league_standings(season)
        if set(standings) != {PRIMERA_A, PRIMERA_B}:
            raise UserError(_("This season has no Primera A and Primera B tables to draw from."))
        previous_a = list(standings[PRIMERA_A].order)
        previous_b = list(standings[PRIMERA_B].order)
    elif base == "pasted":
        previous_a, previous_b = _ids(primera_a), _ids(primera_b)
    else:
        raise UserError(_("Choose the base of the pots."))
    newcomers = _ids(newcomers)
    teams = {t.code: t for t in season.teams.all()}
    listed = previous_a + previous_b + newcomers
    unknown = [code for code in listed if code not in teams]
    if unknown:
        raise UserError(_("Unknown team ids: %(ids)s.") % {"ids": ", ".join(unknown)})
    participants = [code for code in listed if teams[code].status != "expelled"]
    count = len(participants)
    if count < 8 or count % 4 or count > 4 * len(cup_rules.GROUP_NAMES):
        raise UserError(
            _("The draw needs 8 to 32 teams, a multiple of four; %(n)s given.") % {"n": count}
        )
    group_names = cup_rules.GROUP_NAMES[: count // 4]
    slug = slug or f"{season.slug}-champagne"
    if not SLUG_RE.match(slug) or Competition.objects.filter(slug=slug).exists():
        raise UserError(_("The address %(slug)s is taken or not valid.") % {"slug": slug})
    try:
        pots = cup_rules.champagne_pots(
            previous_a,
            previous_b,
            newcomers=newcomers,
            participants=participants,
            pot_size=count // 4,
        )
        if method == "manual":
            draw = cup_rules.manual_draw(pots.pots, list(order), group_names=group_names)
        elif method == "seed":
            seed = (seed or "").strip() or str(secrets.randbits(64))
            draw = cup_rules.draw_groups(pots.pots, seed, group_names=group_names)
        else:
            raise UserError(_("Choose a seeded draw or a live draw typed by hand."))
    except LeagueRuleError as exc:
        raise UserError(_problems(exc)) from None
    if legs not in (1, 2):
        raise UserError(_("The group stage is played in one or two legs."))
    tz = ZoneInfo(season.time_zone)
    with transaction.atomic():
        last = season.competitions.order_by("-position").values_list("position", flat=True)
        competition = Competition.objects.create(
            season=season,
            slug=slug,
            kind=Competition.Kind.GROUPS,
            name=name or _("Champagne League"),
            legs=legs,
            counts_for_compliance=True,
            start=start,
            position=(last.first() or 0) + 1,
        )
        Entry.objects.bulk_create(
            [
                Entry(competition=competition, team=teams[code], position=i, group=group)
                for i, (code, group) in enumerate(draw.order)
            ]
        )
        rows = []
        for group, members in draw.groups.items():
            generated = generate_matches(
                list(members), legs, start=start, tz=tz, id_prefix=group.lower()
            )
            rows += [_match_row(competition, m, teams, group) for m in generated]
        Match.objects.bulk_create(rows)
        record = draw.as_dict() | {
            "competition": slug,
            "base": base,
            "origin": dict(pots.origin),
            "previous_a": previous_a,
            "previous_b": previous_b,
            "newcomers": newcomers,
        }
        audit(None, actor, CHAMPAGNE_DRAW, f"{season.slug}/{slug}", after=record)
    return competition, draw


def champagne_draws(season: Season) -> list[dict]:
    """The recorded Champagne League draws of ``season``, newest first (from the audit
    log): each ``{"at", "competition", "method", "seed", "order", "groups", "pots",
    "origin"}``. One query."""
    from events.models import AuditLog

    draws = []
    for entry in AuditLog.objects.filter(
        action=CHAMPAGNE_DRAW, target__startswith=f"{season.slug}/"
    ).order_by("-at", "-id"):
        draws.append({"at": entry.at, **(entry.after or {})})
    return draws


# --------------------------------------------------------------------------- cups
CUP_PREFIXES = {"cl": "Champagne League", "conf": "Conference Lag", "ns": "Nucommunity Shit"}
"""Tie id prefixes of the cup knockouts (:mod:`leagues.rules.cups`) → cup name."""


def cup_stage_name(code: str) -> str:
    """``cl_round_of_16`` → "Champagne League: round of 16" (English, like
    :data:`leagues.rules.brackets.STAGES`)."""
    prefix, _sep, rest = code.partition("_")
    return f"{CUP_PREFIXES.get(prefix, prefix)}: {rest.replace('_', ' ')}"


def _cup_setup(competition: Competition):
    """``(spec, standings)`` of a cup knockout created in the app (its ``staff_choices``
    ``"cup"``: the bracket specification and the seeding rankings, stored when it was
    created), else ``None``."""
    cup = (competition.staff_choices or {}).get("cup")
    if not isinstance(cup, dict):
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


def _staff_choices(competition: Competition) -> tuple[dict, dict, dict]:
    """Staff slots ``{(tie, side): team}``, tribunal awards ``{tie: team}`` and chosen
    third-match hosts ``{tie: team}`` stored on the competition."""
    choices = competition.staff_choices or {}
    slots = {}
    for key, team in (choices.get("slots") or {}).items():
        tie_id, _sep, side = key.rpartition(".")
        slots[(tie_id, side)] = team
    return slots, dict(choices.get("awards") or {}), dict(choices.get("third_homes") or {})


def _relegation_list(competitions) -> list[str] | None:
    """The staff relegation list stored on the season's Primera A (§1.2.2), if any."""
    for comp in competitions:
        if division_of(comp) == PRIMERA_A:
            listed = (comp.staff_choices or {}).get("relegation")
            return list(listed["teams"]) if listed else None
    return None


def _check_name(name) -> None:
    """A competition's name fits its column (``UserError`` "name too long" otherwise)."""
    from django.utils.translation import gettext as _

    from events.errors import UserError

    limit = Competition._meta.get_field("name").max_length
    if name and len(name) > limit:
        raise UserError(_("The name is too long: at most %(max)s characters.") % {"max": limit})


def _new_competition(season, *, slug, name, kind, legs=2, counts=False, choices=None):
    """A new competition at the end of the season (``UserError`` for a taken slug)."""
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from leagues.services import SLUG_RE

    _check_name(name)
    if not SLUG_RE.match(slug) or Competition.objects.filter(slug=slug).exists():
        raise UserError(_("The address %(slug)s is taken or not valid.") % {"slug": slug})
    last = season.competitions.order_by("-position").values_list("position", flat=True)
    return Competition.objects.create(
        season=season,
        slug=slug,
        kind=kind,
        name=name,
        legs=legs,
        counts_for_compliance=counts,
        staff_choices=choices or {},
        position=(last.first() or 0) + 1,
    )


def _cup_knockout(season, teams, *, slug, name, cup: dict, counts=False) -> tuple:
    """Create a cup knockout from its stored ``cup`` setup: the competition, its entries
    (seeding order) and the first round's legs (round 1; the better-seeded team hosts leg
    2). Returns ``(competition, {tie: [first, second]})``."""
    competition = _new_competition(
        season,
        slug=slug,
        name=name,
        kind=Competition.Kind.KNOCKOUT,
        legs=cup["legs"],
        counts=counts,
        choices={"cup": cup},
    )
    spec, standings = _cup_setup(competition)
    filled = bracket_rules.fill_bracket(spec, standings)
    first = [v for v in filled.ties if v.spec.stage == spec.stages[0]]
    rows = []
    for view in first:
        rows += _leg_rows(
            competition,
            view.spec.id,
            view.first.team,
            view.second.team,
            view.hosts,
            view.spec.legs,
            1,
            teams,
        )
    _add_entries(competition, [c for v in first for c in (v.first.team, v.second.team)], teams)
    Match.objects.bulk_create(rows)
    return competition, {v.spec.id: [v.first.team, v.second.team] for v in first}


def _group_tables(competition: Competition):
    """The rules' group tables of a ``groups`` competition (:func:`leagues.rules.cups.
    group_tables`, the competition's tie-breakers and staff decisions). 3 queries."""
    from leagues.rules import cups as cup_rules
    from leagues.rules import table as table_rules
    from leagues.services import MATCH_FIELDS as TABLE_FIELDS

    groups: dict[str, list[str]] = {}
    for code, group in competition.entries.order_by("position", "id").values_list(
        "team__code", "group"
    ):
        groups.setdefault(group, []).append(code)
    matches = [
        rule_match(r) for r in competition.matches.order_by("round", "id").values(*TABLE_FIELDS)
    ]
    ledger = [
        season_rules.Adjustment(a["team__code"], a["points"], a["reason"])
        for a in competition.adjustments.order_by("id").values("team__code", "points", "reason")
    ]
    decisions = {
        g: [t for t in competition.decisions if t in members] for g, members in groups.items()
    }
    config = table_rules.TableConfig(tuple(competition.tie_breakers))
    return cup_rules.group_tables(
        dict(sorted(groups.items())), matches, ledger, config=config, decisions=decisions
    )


def close_group_stage(competition: Competition, actor, *, order_across=()) -> list[Competition]:
    """League staff close a cup's group stage (ANFPES T24 §2.2; SPEC-leagues §7) and the
    knockouts are created from the group tables (:func:`leagues.rules.cups.
    cross_group_rankings`): the Champagne League knockout (best group winner v worst
    runner-up …, ``<slug>-knockout``) and the Conference Lag (best 3rd v worst 4th …,
    ``<slug>-conference``; only with groups of four), two-legged ties (the better-seeded
    team hosts leg 2) whose later rounds follow with :func:`advance_stage`. A Nucommunity
    Shit group stage (``staff_choices["cup_groups"] == "nucommunity"``) gets its knockout
    only (ranking codes ``ns_winners``/``ns_runners_up``).

    ``order_across``: team ids, best first, ordering teams of one group position that
    every criterion leaves equal (the staff step of the ranking **[choice]**).

    Needs ``REVIEW_RESULTS``. ``UserError`` (nothing saved) while group matches remain to
    be played, a group table has a tie only staff can break, teams of one position are
    equal across groups without an order, the number of groups is not a power of two, or
    the knockout's address is taken. Audited (``league.group_stage_closed``).
    """
    from django.db import transaction
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    from events.errors import UserError
    from events.services import audit
    from leagues.access import LeaguePermission, require
    from leagues.rules import cups as cup_rules

    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        season = competition.season
        require(actor, season, LeaguePermission.REVIEW_RESULTS)
        if competition.kind != Competition.Kind.GROUPS:
            raise UserError(_("Only a group stage can be closed this way."))
        choices = competition.staff_choices or {}
        if choices.get("knockouts"):
            raise UserError(_("This group stage is closed already."))
        pending = competition.matches.filter(status=Match.Status.SCHEDULED).count()
        if pending:
            raise UserError(
                ngettext(
                    "%(n)s group match is still to be played: record it first.",
                    "%(n)s group matches are still to be played: record them first.",
                    pending,
                )
                % {"n": pending}
            )
        try:
            tables = _group_tables(competition)
        except LeagueRuleError as exc:
            raise UserError(_problems(exc)) from None
        for name, table in tables.items():
            for tie in table.unresolved:
                raise UserError(
                    _("Group %(group)s: teams %(teams)s are tied: decide their order first.")
                    % {"group": name, "teams": ", ".join(map(str, tie.teams))}
                )
        count = len(tables)
        if count < 1 or count & (count - 1):
            raise UserError(_("The knockout needs a power-of-two number of groups."))
        nucommunity = choices.get("cup_groups") == "nucommunity"
        codes = (
            {1: "ns_winners", 2: "ns_runners_up"} if nucommunity else cup_rules.POSITION_RANKINGS
        )
        order_across = _ids(order_across)
        if order_across:
            # Only teams of this group stage that every criterion leaves level across the
            # groups can be ordered by staff.
            members = {str(row.team) for table in tables.values() for row in table.rows}
            unknown = [t for t in order_across if t not in members]
            if unknown:
                raise UserError(
                    _("Not teams of this group stage: %(teams)s.") % {"teams": ", ".join(unknown)}
                )
            if len(set(order_across)) != len(order_across):
                raise UserError(_("Give each team once in the order."))
            plain = cup_rules.cross_group_rankings(tables, codes=codes)
            level = {
                str(standing.order[p - 1])
                for place, standing in plain.items()
                if place in codes
                for p in standing.unresolved
            }
            extra = [t for t in order_across if t not in level]
            if extra:
                raise UserError(
                    _(
                        "%(teams)s: not level on every criterion with another team of the same "
                        "group position: the order is only for teams the criteria leave level."
                    )
                    % {"teams": ", ".join(extra)}
                )
        rankings = cup_rules.cross_group_rankings(
            tables, decisions={p: order_across for p in codes}, codes=codes
        )
        sizes = {len(t.rows) for t in tables.values()}
        wanted = [(1, 2, "cl" if not nucommunity else "ns", "knockout")]
        if not nucommunity and min(sizes) >= 4:
            wanted.append((3, 4, "conf", "conference"))
        for top, bottom, _prefix, _suffix in wanted:
            for place in (top, bottom):
                standing = rankings.get(place)
                if standing is None or not standing.closed:
                    raise UserError(_("The group tables are not complete."))
                if standing.unresolved:
                    tied = [standing.order[p - 1] for p in sorted(standing.unresolved)]
                    raise UserError(
                        _(
                            "Teams %(teams)s are equal on every criterion across the groups: "
                            "give their order."
                        )
                        % {"teams": ", ".join(map(str, tied))}
                    )
        teams = {t.code: t for t in season.teams.all()}
        created, record = [], {}
        for top, bottom, prefix, suffix in wanted:
            cup = {
                "spec": "seeded",
                "prefix": prefix,
                "top": codes[top],
                "bottom": codes[bottom],
                "ties": count,
                "legs": 2,
                "groups": competition.slug,
                "standings": {
                    codes[top]: list(rankings[top].order),
                    codes[bottom]: list(rankings[bottom].order),
                },
            }
            if suffix == "knockout":
                name = _("%(name)s — knockout") % {"name": competition.name}
            else:
                name = _("%(name)s — Conference Lag") % {"name": competition.name}
            knockout, ties = _cup_knockout(
                season, teams, slug=f"{competition.slug}-{suffix}", name=name, cup=cup
            )
            created.append(knockout)
            record[knockout.slug] = {"rankings": cup["standings"], "ties": ties}
        competition.staff_choices = {**choices, "knockouts": [c.slug for c in created]}
        competition.save(update_fields=["staff_choices"])
        audit(
            None,
            actor,
            "league.group_stage_closed",
            f"{season.slug}/{competition.slug}",
            after=record | {"order_across": order_across},
        )
    return created


# --------------------------------------------------------------------------- Nucommunity Shit
NUCOMMUNITY_DRAW = "league.nucommunity_draw"
"""Audit action recording a Nucommunity Shit draw (format, seed, order, groups)."""


def nucommunity_create(
    season: Season,
    actor,
    *,
    format: str,
    teams=(),
    method: str = "seed",
    seed: str | None = None,
    order=(),
    groups: int = 8,
    legs: int = 2,
    slug: str | None = None,
    name: str | None = None,
    start=None,
) -> tuple[Competition, dict]:
    """League staff create the Nucommunity Shit (ANFPES T24 §2.1; SPEC-leagues §7;
    :class:`leagues.rules.cups.NucommunityConfig`):

    - ``format="knockout"``: the entrants (``teams``, blank: every team not expelled, in
      season order) are drawn by lot (:func:`leagues.rules.draft.draw_lots`, ``seed``; or
      ``method="manual"``: ``order`` lists them as drawn live), and the bracket pairs drawn
      1 v 2, 3 v 4 … (:func:`leagues.rules.brackets.drawn_knockout`); a ``knockout``
      competition with its first round, counted for compliance (§IV.1).
    - ``format="groups_knockout"``: the entrants are drawn by lot from one pot and dealt to
      groups A, B … in turn (manual: ``order`` of ``(team, group)``, as the Champagne
      League's live draw); a ``groups`` competition with a round robin of ``legs`` legs per
      group, counted for compliance; its knockout comes from :func:`close_group_stage`.

    ``slug`` defaults to ``<season>-nucommunity``. Needs ``MANAGE_DRAFT``; ``UserError``
    (nothing saved) for a bad format, team, draw or address. Audited
    (:data:`NUCOMMUNITY_DRAW`).
    """
    import secrets
    from zoneinfo import ZoneInfo

    from django.db import transaction
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from events.services import audit
    from leagues.access import LeaguePermission, require
    from leagues.models import Entry
    from leagues.rules import cups as cup_rules
    from leagues.rules.draft import draw_lots
    from leagues.rules.fixtures import generate_matches
    from leagues.services import _match_row

    require(actor, season, LeaguePermission.MANAGE_DRAFT)
    all_teams = {t.code: t for t in season.teams.order_by("id")}
    entrants = _ids(teams) or [c for c, t in all_teams.items() if t.status != "expelled"]
    unknown = [c for c in entrants if c not in all_teams]
    if unknown:
        raise UserError(_("Unknown team ids: %(ids)s.") % {"ids": ", ".join(unknown)})
    if len(set(entrants)) != len(entrants):
        raise UserError(_("A team is listed twice."))
    if legs not in (1, 2):
        raise UserError(_("Ties and groups are played in one or two legs."))
    if format != "knockout" and (
        isinstance(groups, bool) or not isinstance(groups, int) or not 1 <= groups <= 8
    ):
        raise UserError(_("Give the number of groups (1 to 8)."))
    # The rules' checks of the format, as sentences for the page (NucommunityConfig).
    count = len(entrants)
    if format not in ("knockout", "groups_knockout"):
        raise UserError(_("Choose the format: a knockout from a draw, or groups then a knockout."))
    if format == "knockout" and (count < 2 or count & (count - 1)):
        raise UserError(
            _(
                "A knockout from a draw needs a power-of-two number of entrants (2, 4, 8, 16, "
                "32…): %(n)s were given."
            )
            % {"n": count}
        )
    if format == "groups_knockout":
        if groups & (groups - 1):
            raise UserError(_("The number of groups must be a power of two: 1, 2, 4 or 8."))
        if count % groups:
            raise UserError(
                _("The %(n)s entrants do not split evenly into %(groups)s groups.")
                % {"n": count, "groups": groups}
            )
    try:
        config = cup_rules.NucommunityConfig(
            format=format, teams=len(entrants), legs=legs, groups=groups
        )
    except LeagueRuleError as exc:
        raise UserError(_problems(exc)) from None
    slug = slug or f"{season.slug}-nucommunity"
    name = name or _("Nucommunity Shit")
    _check_name(name)
    seed = (seed or "").strip() or None
    if method not in ("seed", "manual"):
        raise UserError(_("Choose a seeded draw or a live draw typed by hand."))
    record: dict[str, Any] = {"format": format, "method": method, "entrants": entrants}
    try:
        if format == "knockout":
            if method == "manual":
                drawn = _ids(order)
                if sorted(drawn) != sorted(entrants):
                    raise UserError(_("The live draw must list every entrant exactly once."))
            else:
                seed = seed or str(secrets.randbits(64))
                drawn = list(draw_lots(entrants, seed).order)
            record |= {"seed": seed if method == "seed" else None, "order": drawn}
        else:
            names = cup_rules.GROUP_NAMES[:groups] if groups <= 8 else None
            if names is None:
                raise UserError(_("At most eight groups."))
            if method == "manual":
                dealt = [(t, g) for t, g in order]
                problems = []
                if sorted(t for t, _g in dealt) != sorted(entrants):
                    problems.append(_("The live draw must list every entrant exactly once."))
                if any(g not in names for _t, g in dealt):
                    problems.append(_("Unknown group in the live draw."))
                size = len(entrants) // groups
                if any(sum(1 for _t, g in dealt if g == n) != size for n in names):
                    problems.append(
                        _("Every group needs %(n)s teams.") % {"n": size},
                    )
                if problems:
                    raise UserError(" ".join(problems))
            else:
                seed = seed or str(secrets.randbits(64))
                lot = draw_lots(entrants, seed).order
                dealt = [(team, names[i % groups]) for i, team in enumerate(lot)]
            record |= {
                "seed": seed if method == "seed" else None,
                "order": [{"team": t, "group": g} for t, g in dealt],
                "groups": {n: [t for t, g in dealt if g == n] for n in names},
            }
    except LeagueRuleError as exc:
        raise UserError(_problems(exc)) from None
    with transaction.atomic():
        if format == "knockout":
            cup = {
                "spec": "drawn",
                "prefix": "ns",
                "ranking": "ns_draw",
                "entrants": len(drawn),
                "legs": legs,
                "standings": {"ns_draw": drawn},
            }
            competition, ties = _cup_knockout(
                season, all_teams, slug=slug, name=name, cup=cup, counts=True
            )
            # Only its first round counts for the compliance table (§IV.1).
            first = competition.matches.order_by("round").values_list("round", flat=True)
            competition.staff_choices = {
                **(competition.staff_choices or {}),
                "compliance_rounds": [first.first() or 1],
            }
            competition.save(update_fields=["staff_choices"])
            record["ties"] = ties
        else:
            competition = _new_competition(
                season,
                slug=slug,
                name=name,
                kind=Competition.Kind.GROUPS,
                legs=legs,
                counts=True,
                choices={"cup_groups": "nucommunity"},
            )
            if start is not None:
                competition.start = start
                competition.save(update_fields=["start"])
            Entry.objects.bulk_create(
                [
                    Entry(competition=competition, team=all_teams[t], position=i, group=g)
                    for i, (t, g) in enumerate(dealt)
                ]
            )
            tz = ZoneInfo(season.time_zone)
            rows = []
            for group, members in record["groups"].items():
                generated = generate_matches(
                    members, legs, start=start, tz=tz, id_prefix=group.lower()
                )
                rows += [_match_row(competition, m, all_teams, group) for m in generated]
            Match.objects.bulk_create(rows)
        record |= {"competition": competition.slug, "first_phase": config.first_phase}
        audit(None, actor, NUCOMMUNITY_DRAW, f"{season.slug}/{competition.slug}", after=record)
    return competition, record


def nucommunity_draws(season: Season) -> list[dict]:
    """The recorded Nucommunity Shit draws of ``season``, newest first. One query."""
    from events.models import AuditLog

    return [
        {"at": entry.at, **(entry.after or {})}
        for entry in AuditLog.objects.filter(
            action=NUCOMMUNITY_DRAW, target__startswith=f"{season.slug}/"
        ).order_by("-at", "-id")
    ]


def add_cup_bonus(season: Season, actor, *, team: str, points, reason: str, client_id=None):
    """League staff enter Nucommunity Shit bonus points for a team's user (§2.1, §IV.2):
    ``points`` a non-zero integer (negative corrects an entry), a reason. Needs
    ``MANAGE_COMPLIANCE``; ``UserError`` for an unknown team, a bad amount or no reason.
    Audited (``league.cup_bonus``).

    Idempotent by ``client_id`` (the staff form's submission id, a UUID unique on the
    entry, issue 12): the same form sent again returns the entry already saved with
    ``already_saved = True`` and adds nothing; a new entry has ``already_saved = False``."""
    from django.db import IntegrityError, transaction
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from events.limits import check_free_text
    from events.services import audit
    from leagues.access import LeaguePermission, require
    from leagues.models import CupBonus

    require(actor, season, LeaguePermission.MANAGE_COMPLIANCE)
    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason for the bonus points."), field="reason")
    try:
        points = int(str(points).strip())
    except ValueError:
        raise UserError(_("The points must be a whole number."), field="points") from None
    if points == 0:
        raise UserError(
            _("The points must not be 0: give the points earned, or a negative number to correct."),
            field="points",
        )
    if abs(points) > 999:
        raise UserError(_("The points must be between −999 and 999."), field="points")
    row = season.teams.filter(code=team).first()
    if row is None:
        raise UserError(_("Unknown team id: %(id)s.") % {"id": team}, field="team")

    def saved():
        existing = CupBonus.objects.filter(client_id=client_id).first()
        if existing is not None:
            if existing.season_id != season.pk:
                raise UserError(_("This form was already used: open the page again."))
            existing.already_saved = True
        return existing

    if client_id is not None and (existing := saved()) is not None:
        return existing
    try:
        with transaction.atomic():
            entry = CupBonus.objects.create(
                season=season,
                team=row,
                points=points,
                reason=reason,
                created_by=actor,
                client_id=client_id,
            )
            audit(
                None,
                actor,
                "league.cup_bonus",
                f"{season.slug}/{row.code}",
                after={"team": row.code, "user": row.handle, "points": points},
                comment=reason,
            )
    except IntegrityError:
        existing = saved() if client_id is not None else None
        if existing is None:
            raise
        return existing
    entry.already_saved = False
    return entry


def season_cup_bonus(season: Season) -> list[dict]:
    """The Nucommunity Shit bonus points per user (:func:`leagues.rules.cups.bonus_totals`):
    ``[{"team", "name", "player", "user", "earned", "forfeited", "payable", "reaped"}]``; a
    user reaped at the season-end compliance review (§IV.2) forfeits them. ``player`` is
    the display name for public pages (:attr:`leagues.models.Team.player_name`), ``user``
    the login (staff pages only). 1 query without entries, 3 more (the compliance table)
    once a season-end review was held."""
    from leagues.models import CupBonus, Review, player_name
    from leagues.rules import cups as cup_rules

    rows = list(
        CupBonus.objects.filter(season=season)
        .order_by("id")
        .values("team__code", "team__name", "team__handle", "points", "reason", *_PLAYER)
    )
    if not rows:
        return []
    reaped: set[str] = set()
    if Review.objects.filter(season=season, kind="season_end").exists():
        from leagues.services import season_compliance_table

        table = season_compliance_table(season)
        reaped = {r.user for r in table.rows if r.loses_cup_bonus}
    info = {
        r["team__handle"]: (r["team__code"], r["team__name"], player_name(*_player(r)))
        for r in rows
    }
    totals = cup_rules.bonus_totals(
        [cup_rules.BonusEntry(r["team__handle"], r["points"], r["reason"]) for r in rows],
        reaped,
    )
    return [
        {
            "team": info[t.user][0],
            "name": info[t.user][1],
            "player": info[t.user][2],
            **t.as_dict(),
        }
        for t in totals
    ]


_PLAYER = ("team__user__first_name", "team__user__last_name")
"""The fields :func:`leagues.models.player_name` needs, for ``.values()`` on cup bonuses."""


def _player(row: dict) -> tuple[str, str, str]:
    return (row["team__user__first_name"], row["team__user__last_name"], row["team__name"])


def cup_bonus_ledger(season: Season) -> list[dict]:
    """The Nucommunity Shit bonus-points ledger of ``season`` entry by entry, oldest
    first: ``[{"team", "name", "player", "user", "points", "reason", "at"}]`` (``player``
    and ``user`` as in :func:`season_cup_bonus`) — corrections are entries of their own
    (negative points, their reason), never netted away (:func:`season_cup_bonus` gives
    the totals). One query."""
    from leagues.models import CupBonus, player_name

    return [
        {
            "team": r["team__code"],
            "name": r["team__name"],
            "player": player_name(*_player(r)),
            "user": r["team__handle"],
            "points": r["points"],
            "reason": r["reason"],
            "at": r["created_at"],
        }
        for r in CupBonus.objects.filter(season=season)
        .order_by("id")
        .values(
            "team__code", "team__name", "team__handle", "points", "reason", "created_at", *_PLAYER
        )
    ]


# --------------------------------------------------------------------------- staff overrides
def _choose(competition: Competition, actor, permission, action: str, reason: str, change):
    """Run ``change(competition, doc)`` under a lock on the competition (its bracket
    document ``doc`` fresh), then save ``staff_choices`` and audit ``action`` with the
    reason. ``change`` returns the audit's ``after`` and raises ``UserError``."""
    from django.db import transaction
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from events.limits import check_free_text
    from events.services import audit
    from leagues.access import require

    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        require(actor, competition.season, permission)
        if not reason:
            raise UserError(_("Give the reason for the decision."), field="reason")
        if competition.kind != Competition.Kind.KNOCKOUT:
            raise UserError(_("Only a knockout has a bracket."))
        before = dict(competition.staff_choices or {})
        after = change(competition, competition_bracket(competition))
        competition.save(update_fields=["staff_choices"])
        audit(
            None,
            actor,
            action,
            f"{competition.season.slug}/{competition.slug}",
            before={k: before.get(k) for k in after},
            after=after,
            comment=reason,
        )
    return competition


def _tie_of(doc: dict, tie_id: str) -> dict:
    from django.utils.translation import gettext as _

    from events.errors import UserError

    for tie in doc["ties"]:
        if tie["id"] == tie_id:
            return tie
    raise UserError(_("No tie %(tie)s in this bracket.") % {"tie": tie_id})


def _tie_team(tie: dict, team: str) -> str:
    from django.utils.translation import gettext as _

    from events.errors import UserError

    pair = [slot["team"] for slot in tie["slots"]]
    if None in pair:
        raise UserError(_("Both teams of %(tie)s must be known first.") % {"tie": tie["id"]})
    if team not in pair:
        raise UserError(_("Choose one of the two teams of %(tie)s.") % {"tie": tie["id"]})
    return team


def _slot_candidates(competition: Competition, doc: dict) -> set[str]:
    """The teams a slot of ``competition``'s bracket can hold when set by hand: a league
    post-season — the teams of the divisions feeding it (Primera A for its playoffs, both
    divisions for Primera B's post-season and its Liguilla, ANFPES T24 §1.1–§1.3); a cup
    knockout created in the app — the teams of the rankings seeding it (the group
    positions it is drawn from: a Conference Lag team is not a Champagne League knockout
    team, §2.2); any other knockout — its entries and the teams of its matches."""
    from leagues.models import Entry

    cup = (competition.staff_choices or {}).get("cup")
    if isinstance(cup, dict):
        return {code for order in cup.get("standings", {}).values() for code in order}
    tie_ids = {t["id"] for t in doc["ties"]}
    if known_spec(tie_ids) is not None:
        divisions = (
            {PRIMERA_A} if tie_ids <= {t.id for t in _A_SPEC.ties} else {PRIMERA_A, PRIMERA_B}
        )
        leagues = [
            c
            for c in competition.season.competitions.filter(kind=Competition.Kind.LEAGUE)
            if division_of(c) in divisions
        ]
        return set(
            Entry.objects.filter(competition__in=leagues).values_list("team__code", flat=True)
        )
    return set(competition.entries.values_list("team__code", flat=True)) | set(doc["teams"])


def set_bracket_slot(competition, actor, *, tie: str, side: str, team: str, reason: str):
    """League staff set a slot by hand (e.g. after abandonments, ANFPES T24 §1.2.2):
    ``side`` ``"first"``/``"second"``, ``team`` a team id of the season (blank: back to
    the slot's source). Only a tie without matches yet (its matches come when the stage
    before it is closed, with the team set here). Refused (``UserError``, nothing saved)
    for a team that does not play in this competition (:func:`_slot_candidates`) or that
    is already in another slot of the same stage (a team plays one tie per stage).
    ``REVIEW_RESULTS``; audited (``league.bracket_slot_set``)."""
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from leagues.access import LeaguePermission

    def change(comp, doc):
        found = _tie_of(doc, tie)
        if side not in ("first", "second"):
            raise UserError(_("Choose the first or the second slot."))
        if found["legs"] or comp.matches.filter(tie=tie).exists():
            raise UserError(
                _("%(tie)s has matches already: correct or void them instead.") % {"tie": tie}
            )
        slots = dict((comp.staff_choices or {}).get("slots") or {})
        if team:
            from leagues import labels

            team_name = comp.season.teams.filter(code=team).values_list("name", flat=True).first()
            if team_name is None:
                raise UserError(_("Unknown team id: %(id)s.") % {"id": team})
            if team not in _slot_candidates(comp, doc):
                raise UserError(
                    _("%(team)s does not play in this competition.") % {"team": team_name}
                )
            for other in doc["ties"]:
                if other["stage"] != found["stage"]:
                    continue
                for other_side, slot in zip(("first", "second"), other["slots"], strict=True):
                    if (other["id"], other_side) != (tie, side) and slot["team"] == team:
                        raise UserError(
                            _(
                                "%(team)s already plays tie %(tie)s of the %(stage)s: a team "
                                "plays one tie per stage."
                            )
                            % {
                                "team": team_name,
                                "tie": other["id"],
                                "stage": labels.stage_label(other["stage"], other["stage"]),
                            }
                        )
            slots[f"{tie}.{side}"] = team
        else:
            slots.pop(f"{tie}.{side}", None)
        comp.staff_choices = {**(comp.staff_choices or {}), "slots": slots}
        return {"slots": slots}

    return _choose(
        competition,
        actor,
        LeaguePermission.REVIEW_RESULTS,
        "league.bracket_slot_set",
        reason,
        change,
    )


def award_tie(competition, actor, *, tie: str, team: str, reason: str):
    """The tribunal awards a tie to one of its teams (ANFPES T24 §III.2): the tie is
    decided (``decided_by`` ``"tribunal"``) whatever its legs; blank ``team`` withdraws
    the award. ``DECIDE_SANCTIONS``; audited (``league.tie_awarded``).

    The tie's legs still to play are not to be played any more: they become ``void``
    (no report form, out of the players' to-do and overdue queues), their open result
    reports are rejected, and their ids are kept in ``staff_choices["award_voided"]``
    (and the audit); withdrawing the award puts those legs back to be played
    **[choice]**."""
    from django.utils import timezone
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from leagues.access import LeaguePermission
    from leagues.models import ResultReport

    def change(comp, doc):
        found = _tie_of(doc, tie)
        choices = comp.staff_choices or {}
        awards = dict(choices.get("awards") or {})
        voided = {k: list(v) for k, v in (choices.get("award_voided") or {}).items()}
        rejected = []
        if team:
            awards[tie] = _tie_team(found, team)
            legs = list(
                comp.matches.select_for_update().filter(tie=tie, status=Match.Status.SCHEDULED)
            )
            open_reports = ResultReport.objects.filter(
                match__in=legs,
                status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
            )
            rejected = sorted(open_reports.values_list("pk", flat=True))
            open_reports.update(
                status=ResultReport.Status.REJECTED,
                resolution=_("The tribunal awarded the tie: this leg is not played."),
                resolved_by=actor,
                resolved_at=timezone.now(),
            )
            Match.objects.filter(pk__in=[m.pk for m in legs]).update(status=Match.Status.VOID)
            codes = sorted({*voided.get(tie, ()), *(m.code for m in legs)})
            if codes:
                voided[tie] = codes
        else:
            # The next tie was drawn with the awarded team: withdrawing would leave it
            # there while this tie is replayed (as set_bracket_slot, refused).
            fed = [
                other["id"]
                for other in doc["ties"]
                if other.get("legs")
                and any((s.get("source") or {}).get("ref") == tie for s in other["slots"])
            ]
            if tie in awards and fed:
                raise UserError(
                    _(
                        "%(next)s was drawn with the awarded team and has matches: correct "
                        "or void them before withdrawing the award."
                    )
                    % {"next": ", ".join(fed)}
                )
            awards.pop(tie, None)
            codes = voided.pop(tie, [])
            comp.matches.filter(code__in=codes, status=Match.Status.VOID).update(
                status=Match.Status.SCHEDULED
            )
        comp.staff_choices = {**choices, "awards": awards, "award_voided": voided}
        after = {"awards": awards, "award_voided": voided}
        if team and rejected:  # the audit names the players' reports it closed
            after["reports_rejected"] = rejected
        return after

    return _choose(
        competition, actor, LeaguePermission.DECIDE_SANCTIONS, "league.tie_awarded", reason, change
    )


def set_third_match_home(competition, actor, *, tie: str, team: str, reason: str):
    """League staff choose the home side of a tie's third match (§V ¶3, §2.2: "staff can
    choose"): stored for the third match to come, or applied to a scheduled third match
    (home and away swapped). Refused once the third match is played. ``REVIEW_RESULTS``;
    audited (``league.third_home_set``)."""
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from leagues.access import LeaguePermission

    def change(comp, doc):
        found = _tie_of(doc, tie)
        _tie_team(found, team)
        if found["legs_required"] != 2:
            raise UserError(_("A one-match tie has no third match."))
        third = comp.matches.filter(tie=tie, leg=3).exclude(status=Match.Status.VOID).first()
        if third is not None:
            if third.status != Match.Status.SCHEDULED:
                raise UserError(_("The third match is played already."))
            if third.home.code != team:
                third.home, third.away = third.away, third.home
                third.save(update_fields=["home", "away"])
        homes = dict((comp.staff_choices or {}).get("third_homes") or {})
        homes[tie] = team
        comp.staff_choices = {**(comp.staff_choices or {}), "third_homes": homes}
        return {"third_homes": homes}

    return _choose(
        competition,
        actor,
        LeaguePermission.REVIEW_RESULTS,
        "league.third_home_set",
        reason,
        change,
    )


RELEGATION_PLACES = 2
"""Teams relegated directly from Primera A: the last two (ANFPES T24 §1.2.1)."""


def set_relegation(season: Season, actor, *, teams, reason: str) -> Competition:
    """League staff enter the teams relegated directly from Primera A when teams abandoned
    it (ANFPES T24 §1.2.2: "el Honorable Staff determinará …, contemplando siempre que
    existirá al menos un equipo descendido directamente"); stored on Primera A and used
    for next season's divisions (:func:`season_next_divisions`). Blank clears it.

    Refused (``UserError``, nothing saved) unless a Primera A team abandoned (left the
    season: suspended or expelled) — otherwise §1.2.1 applies, the last two go down —
    and for a list of more than :data:`RELEGATION_PLACES` teams **[choice: staff may
    relegate fewer after abandonments, never more than the rule's two]**, an empty one, a
    team twice, a team not in Primera A or a team that left already.
    ``REVIEW_RESULTS``; audited (``league.relegation_set``)."""
    from django.db import transaction
    from django.utils.translation import gettext as _

    from events.errors import UserError
    from events.limits import check_free_text
    from events.services import audit
    from leagues.access import LeaguePermission, require

    require(actor, season, LeaguePermission.REVIEW_RESULTS)
    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason for the decision."), field="reason")
    codes = _ids(teams)
    with transaction.atomic():
        primera_a = next(
            (
                c
                for c in season.competitions.select_for_update().order_by("position", "id")
                if division_of(c) == PRIMERA_A
            ),
            None,
        )
        if primera_a is None:
            raise UserError(_("This season has no Primera A."))
        if codes:
            members = dict(primera_a.entries.values_list("team__code", "team__status"))
            abandoned = [code for code, status in members.items() if status != "active"]
            if not abandoned:
                raise UserError(
                    _(
                        "No Primera A team abandoned the season: the 15th and the 16th go "
                        "down (ANFPES T24 §1.2.1). Staff decide only after abandonments "
                        "(§1.2.2)."
                    )
                )
            if len(codes) > RELEGATION_PLACES:
                raise UserError(
                    _(
                        "At most %(n)s teams are relegated directly (ANFPES T24 §1.2.1); "
                        "%(given)s given."
                    )
                    % {"n": RELEGATION_PLACES, "given": len(codes)}
                )
            gone = [code for code in codes if code in abandoned]
            if gone:
                raise UserError(
                    _(
                        "%(teams)s left Primera A already: list the teams relegated among "
                        "those still playing."
                    )
                    % {"teams": ", ".join(gone)}
                )
            try:
                bracket_rules.relegation(
                    bracket_rules.Standing(PRIMERA_A, tuple(members)), override=codes
                )
            except LeagueRuleError as exc:
                raise UserError(_problems(exc)) from None
        before = (primera_a.staff_choices or {}).get("relegation")
        choices = dict(primera_a.staff_choices or {})
        if codes:
            choices["relegation"] = {"teams": codes, "reason": reason}
        else:
            choices.pop("relegation", None)
        primera_a.staff_choices = choices
        primera_a.save(update_fields=["staff_choices"])
        audit(
            None,
            actor,
            "league.relegation_set",
            f"{season.slug}/{primera_a.slug}",
            before={"relegation": before},
            after={"relegation": codes},
            comment=reason,
        )
    return primera_a
