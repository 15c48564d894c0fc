"""Final phases in the app (issue 5, first steps): the bracket of a ``knockout``
competition and the card suspensions of a season, built from the stored matches with the
pure rules (:mod:`leagues.rules.ties`, :mod:`leagues.rules.brackets`,
:mod:`leagues.rules.cards`). Read-only, bounded queries; nothing is stored.

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

from leagues.models import Card, Competition, Match, Season
from leagues.rules import brackets as bracket_rules
from leagues.rules import cards as card_rules
from leagues.rules import season as season_rules
from leagues.rules.errors import LeagueRuleError
from leagues.rules.ties import tie_state

__all__ = [
    "MATCH_FIELDS",
    "bracket_display",
    "competition_bracket",
    "known_spec",
    "season_suspensions",
]

MATCH_FIELDS = (
    "pk",
    "code",
    "round",
    "home__code",
    "away__code",
    "home__name",
    "away__name",
    "home_goals",
    "away_goals",
    "extra_time",
    "penalties_home",
    "penalties_away",
    "status",
    "absent",
    "reported_at",
    "stream_url",
    "tie",
    "leg",
)


def _specs() -> list[bracket_rules.BracketSpec]:
    """The ANFPES league post-season parts, smallest first, then the whole."""
    parts = [
        bracket_rules.primera_b_promotion(),
        bracket_rules.liguilla(),
        bracket_rules.post_season_zones(),
        bracket_rules.primera_a_playoffs(),
    ]
    return parts + [bracket_rules.league_post_season()]


LEAGUE_TIES = frozenset(t.id for t in bracket_rules.league_post_season().ties)
"""Tie ids of the ANFPES league post-season (both divisions)."""


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


def _extra_time(value):
    return tuple(value) if isinstance(value, list) else value


def _rule_match(row: dict, *, prefix: str = "") -> season_rules.Match:
    """A ``values()`` row (:data:`MATCH_FIELDS`) as the rules' light match; its id is
    ``prefix + code``."""
    penalties = None
    if row["penalties_home"] is not None:
        penalties = (row["penalties_home"], row["penalties_away"])
    return season_rules.Match(
        id=prefix + row["code"],
        round=row["round"],
        home=row["home__code"],
        away=row["away__code"],
        home_goals=row["home_goals"],
        away_goals=row["away_goals"],
        status=row["status"],
        absent=row["absent"] or None,
        reported_at=row["reported_at"],
        extra_time=_extra_time(row["extra_time"]),
        penalties=penalties,
        stream_url=row["stream_url"] or None,
        tie=row["tie"] or None,
        leg=row["leg"],
    )


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
    spec: bracket_rules.BracketSpec, ties: dict[str, _StoredTie]
) -> tuple[bracket_rules.BracketSpec, dict, list[str]]:
    """The part of ``spec`` to show (:func:`_included`), the overrides putting each
    stored team in its slot (module docstring) and problems."""
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
        tie_id: _outcome(stored, sub.tie(tie_id).legs, True) for tie_id, stored in ties.items()
    }
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


def competition_bracket(competition: Competition) -> dict:
    """The bracket document (CONTRACTS §6) of a ``knockout`` competition, in one query
    (module docstring for the rules). Raises :class:`LeagueRuleError` for another kind.

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
    matches = [_rule_match(row) for row in rows]
    ties = _stored_ties(matches)
    legs = 2 if competition.legs >= 2 else 1
    spec = known_spec(ties)
    problems: list[str] = []
    if spec is not None:
        spec, overrides, problems = _known(spec, ties)
        require_stream = True
        stage_names = bracket_rules.STAGES
    else:
        spec, overrides = _generic_spec(ties, legs)
        require_stream = False
        stage_names = {}
    # A stage counts as closed once a later tie fed from it has its matches.
    closed = set()
    for tie_spec in spec.ties:
        if tie_spec.id in ties:
            for ref in tie_spec.first.ties() | tie_spec.second.ties():
                if ref in ties:
                    closed.add(spec.tie(ref).stage)
    third_homes = {
        tie_id: stored.third_match_home()
        for tie_id, stored in ties.items()
        if stored.third_match_home() is not None
    }
    all_matches = [m for stored in ties.values() for m in stored.matches]
    filled = bracket_rules.fill_bracket(
        spec,
        {},
        all_matches,
        closed_stages=closed,
        overrides=overrides,
        third_match_homes=third_homes,
        require_stream=require_stream,
    )
    doc = filled.as_dict()
    for tie in doc["ties"]:
        for side, slot in zip(("first", "second"), tie["slots"], strict=True):
            slot["from_matches"] = (tie["id"], side) in overrides
            slot["overridden"] = False
            if slot["source"]["kind"] == "team":
                slot["fed_from"] = None
    stages = list(dict.fromkeys(t["stage"] for t in doc["ties"]))
    return {
        "competition": competition.slug,
        "name": competition.name,
        "season": competition.season.slug,
        "bracket": doc["bracket"],
        "require_stream": require_stream,
        "teams": names,
        "stages": [{"code": code, "name": stage_names.get(code, "")} for code in stages],
        "ties": doc["ties"],
        "outcomes": doc["outcomes"],
        "problems": problems + doc["problems"],
    }


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
                }
                for slot in tie["slots"]
            ]
            order = [s["team"] for s in tie["slots"]]
            ties.append(
                {
                    **tie,
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
        stages.append({**stage, "ties": ties, "round": int(number) if number.isdigit() else None})
    return stages


# --------------------------------------------------------------------------- suspensions
def season_suspensions(season: Season) -> dict:
    """The suspensions document (CONTRACTS §6) of ``season``, in 2 queries (module
    docstring for the scopes and the order), by :func:`leagues.rules.cards.suspensions`.

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
        .values(*MATCH_FIELDS, "competition__slug", "competition_id")
    )
    cards: dict[int, list[season_rules.Card]] = {}
    for card in (
        Card.objects.filter(match__competition__season=season, match__competition__kind="knockout")
        .order_by("match_id", "id")
        .values("match_id", "team__code", "footballer", "card")
    ):
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
                _rule_match(r, prefix=f"{r['competition__slug']}/"),
                cards=tuple(cards.get(r["pk"], ())),
            )
            for r in played + upcoming
        ]
        try:
            report = card_rules.suspensions(matches, require_stream=require_stream)
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


# --------------------------------------------------------------------------- closing
def close_regular_phase(
    competition: Competition,
    actor,
    *,
    slug: str | None = None,
    name: str | None = None,
    final_four: bool = True,
) -> Competition:
    """League staff close the regular phase of Primera A (a ``league`` competition): the
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
    from leagues.services import SLUG_RE, competition_table

    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        season = competition.season
        require(actor, season, LeaguePermission.REVIEW_RESULTS)
        if competition.kind != Competition.Kind.LEAGUE:
            raise UserError(_("Only a league's regular phase can be closed."))
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
        doc = competition_table(competition)
        order = [row["team"] for row in doc["rows"]]
        if len(order) < 8:
            raise UserError(_("The playoffs need eight teams."))
        for tie in doc.get("unresolved", []):
            if min(tie["positions"]) <= 8:
                raise UserError(
                    _("Teams %(teams)s are tied: decide their order on the table first.")
                    % {"teams": ", ".join(tie["teams"])}
                )
        slug = slug or f"{competition.slug}-playoffs"
        if not SLUG_RE.match(slug) or Competition.objects.filter(slug=slug).exists():
            raise UserError(_("The address %(slug)s is taken or not valid.") % {"slug": slug})
        spec = bracket_rules.primera_a_playoffs(final_four=final_four)
        standing = bracket_rules.Standing("primera_a", tuple(order), closed=True)
        filled = bracket_rules.fill_bracket(spec, [standing])
        first_round = [view for view in filled.ties if view.spec.stage == "a_quarter_finals"]
        teams = {t.code: t for t in season.teams.all()}
        last = season.competitions.order_by("-position").values_list("position", flat=True)
        playoffs = Competition.objects.create(
            season=season,
            slug=slug,
            kind=Competition.Kind.KNOCKOUT,
            name=name or _("%(name)s — playoffs") % {"name": competition.name},
            legs=2,
            tie_breakers=list(competition.tie_breakers),
            counts_for_compliance=False,
            position=(last.first() or 0) + 1,
        )
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
