"""Closing league phases in the app (issue 5): the staff steps that end a regular phase
and create the post-season from its final table (:func:`close_regular_phase`, Primera A
or B by :func:`leagues.brackets.division_of`; the closing is kept in
``Competition.regular_phase_closed_at``/``_by`` and audited), refuse changes to a closed
one (:func:`ensure_regular_phase_open`), close a knockout stage (:func:`advance_stage`:
third matches, then the next ties) and give next season's divisions
(:func:`season_next_divisions`). Rules: :mod:`leagues.rules.brackets`,
:mod:`leagues.rules.ties`; ANFPES T24 §1.1–§1.3.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.audit import audit
from events.errors import UserError
from leagues import staff_decisions
from leagues.access import LeaguePermission, require
from leagues.adapters import MATCH_FIELDS, rule_match
from leagues.brackets import (
    _A_SPEC,
    PRIMERA_A,
    PRIMERA_B,
    _bracket_inputs,
    _cup_setup,
    _generic_spec,
    _inferred_closed,
    _known,
    _recorded_closed,
    _rows,
    _stored_ties,
    _third_homes,
    division_of,
    final_four_of,
    known_spec,
    league_standings,
    paused_ties,
)
from leagues.models import (
    Competition,
    Entry,
    Match,
    Season,
)
from leagues.rules import brackets as bracket_rules
from leagues.rules.errors import LeagueRuleError
from leagues.rules.fixtures import matchday_deadlines
from leagues.services import SLUG_RE, competition_table
from leagues.staff_decisions import Kind

__all__ = [
    "B_POST_SEASON",
    "advance_stage",
    "close_regular_phase",
    "FINAL_FOUR_TIES",
    "date_legs",
    "ensure_regular_phase_open",
    "final_four_started",
    "regular_phase_closed",
    "season_next_divisions",
]


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


# --------------------------------------------------------------------------- closing
def _check_final_table(doc: dict, order: list, places: int, too_few: str) -> None:
    """A final table can feed a post-season of ``places`` teams: at least that many teams
    (else ``UserError(too_few)``) and no tie a decision must break among them (docs/leagues.md
    "Tables": staff decide it on the table first)."""

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
    ``title_decider``, :func:`leagues.brackets.division_of`) goes to :func:`_close_primera_b`. Primera A: the
    Championship playoffs knockout is created from the final table (ANFPES T24 §1.1.3:
    ``qf1`` 1v8, ``qf2`` 4v5, ``qf3`` 2v7, ``qf4`` 3v6, by
    :func:`leagues.rules.brackets.primera_a_playoffs`), with its quarter-finals' two legs
    (round 1, ids ``qf1-1``/``qf1-2`` …; the higher seed hosts the second leg,
    :func:`leagues.rules.ties.leg_hosts`; deadlines empty, staff set them). The later ties
    appear in its bracket as "winner of …" (:func:`leagues.brackets.competition_bracket`).

    ``slug`` defaults to ``<competition>-playoffs``, ``name`` to "<name> — playoffs".
    Needs :attr:`LeaguePermission.REVIEW_RESULTS`. ``UserError`` when the competition is
    not a league, fixtures remain to be played (scheduled), a tie in the top eight waits
    for a decision, there are fewer than eight teams, or the slug is taken. Audited
    (``league.regular_phase_closed``).
    """

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
            staff_decisions.decide(playoffs, Kind.FINAL_FOUR, False, by=actor)
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
        date_legs(playoffs, created)
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


FINAL_FOUR_TIES = frozenset(
    t.id for t in bracket_rules.primera_a_playoffs(final_four=True).ties if t.same_day
)
"""The ties played as the Final Four, on one day (ANFPES T24 §1.1.4)."""


def final_four_started(competition: Competition, codes) -> bool:
    """Whether one of the matches ``codes`` of ``competition`` is a Final Four leg and the
    Final Four has started (one of its legs is no longer scheduled): then no match of it
    is rescheduled (§1.1.4: "sin posibilidad de reprogramar partidos una vez que el Final
    Four comience") **[choice]**: force majeure (the rule's exception) goes through the
    tribunal (a walkover or its decision), not a new deadline."""
    if competition.kind != Competition.Kind.KNOCKOUT or not final_four_of(competition):
        return False
    legs = competition.matches.filter(tie__in=FINAL_FOUR_TIES)
    if not legs.filter(code__in=list(codes)).exists():
        return False
    return legs.exclude(status=Match.Status.SCHEDULED).exists()


def date_legs(competition: Competition, rows: list[Match], *, one_day: bool = False) -> None:
    """Give the new final-phase matches ``rows`` their deadlines (issue 14; docs/leagues.md
    "Final-phase deadlines"), counted from today in the season's time zone as a league
    matchday's are (:func:`leagues.rules.fixtures.matchday_deadlines`, ANFPES T24 §IV.4:
    7 days, then 3 more, at 23:59): leg 1, a one-match tie and a third match get the first
    week's; leg 2 the next week's **[choice]**. ``one_day`` (the Final Four, §1.1.4: "en
    un único acto"): every leg the first week's deadlines, the same day for all."""

    tz = ZoneInfo(competition.season.time_zone)
    weeks = matchday_deadlines(timezone.localdate(timezone=tz), 2, tz)
    for row in rows:
        week = weeks[1] if row.leg == 2 and not one_day else weeks[0]
        row.initial_deadline, row.final_deadline = week.initial, week.final


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
    date_legs(post, created)
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
    2. Refused (``UserError``) while a tie of the stage is undecided, or paused pending
       the tribunal (:func:`leagues.bracket_decisions.pause_tie`; checked before step 1).
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
        staff_slots, awards, staff_thirds = _bracket_inputs(competition)
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
        on_hold = sorted(
            t
            for t in paused_ties(competition)
            if t in ties and t in {x.id for x in spec.ties} and spec.tie(t).stage == stage
        )
        if on_hold:
            raise UserError(
                _("%(ties)s is paused pending the tribunal: nothing is created from it yet.")
                % {"ties": ", ".join(on_hold)}
            )
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
            date_legs(competition, thirds)
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
            legs = _leg_rows(
                competition,
                view.spec.id,
                view.first.team,
                view.second.team,
                view.hosts,
                view.spec.legs,
                round_,
                teams,
            )
            one_day = view.spec.same_day == "final_four" and final_four_of(competition)
            date_legs(competition, legs, one_day=one_day)
            created += legs
        # A tie the tribunal awarded before its legs existed: they are not to be played,
        # and are recorded as award_tie records the legs it voids, so withdrawing the
        # award puts them back to be played.
        award_voided = {}
        for m in created:
            if m.tie in awards:
                m.status = Match.Status.VOID
                award_voided.setdefault(m.tie, []).append(m.code)
        if award_voided:
            kept = staff_decisions.award_voided(competition)
            for tie_id, new_codes in award_voided.items():
                codes = sorted({*kept.get(tie_id, ()), *new_codes})
                staff_decisions.decide(competition, Kind.AWARD_VOIDED, codes, key=tie_id, by=actor)
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
    "name"}] | None, "primera_b": … , "champions": [{"division" (``primera_a``/``primera_b``),
    "team", "name"}] (each division's champion once known: the Primera A playoffs final's
    winner, §1.1.5; Primera B's 1st, §1.3.1), "moves": [{"team", "name", "to", "reason"}],
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
            slots, won, thirds = _bracket_inputs(comp)
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
            "champions": [],
            "moves": [],
            "stays": [],
            "pending": exc.problems,
        }
    # Primera B's champion is announced once staff closed its regular phase (its 1st,
    # after the decider if any, §1.3.1); Primera A's once the playoffs' final is won.
    b_closed = any(
        division_of(c) == PRIMERA_B and c.regular_phase_closed_at is not None for c in comps
    )
    champions = [
        {"division": division, "team": slot.team, "name": names.get(slot.team, slot.team)}
        for division, code in ((PRIMERA_A, "champion_a"), (PRIMERA_B, "champion_b"))
        for slot in [filled.outcomes.get(code)]
        if slot is not None and slot.team is not None and (division == PRIMERA_A or b_closed)
    ]

    def listed(codes):
        return None if codes is None else [{"team": c, "name": names.get(c, c)} for c in codes]

    return {
        "primera_a": listed(result.primera_a),
        "primera_b": listed(result.primera_b),
        "champions": champions,
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


def _relegation_list(competitions) -> list[str] | None:
    """The staff relegation list stored on the season's Primera A (§1.2.2), if any."""
    for comp in competitions:
        if division_of(comp) == PRIMERA_A:
            listed = staff_decisions.relegation(comp)
            return list(listed.teams) if listed else None
    return None


def _check_name(name) -> None:
    """A competition's name fits its column (``UserError`` "name too long" otherwise)."""

    limit = Competition._meta.get_field("name").max_length
    if name and len(name) > limit:
        raise UserError(_("The name is too long: at most %(max)s characters.") % {"max": limit})
