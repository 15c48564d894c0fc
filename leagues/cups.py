"""The cups in the app (issue 5; ANFPES T24 §2): the Champagne League draw
(:func:`champagne_draw`), a cup's group stage closed into its knockouts
(:func:`close_group_stage`), the Nucommunity Shit (:func:`nucommunity_create`) and the cup
bonus ledger (:func:`add_cup_bonus`, :func:`season_cup_bonus`, :func:`cup_bonus_ledger`).
Rules: :mod:`leagues.rules.cups`.
"""

from __future__ import annotations

import secrets
from typing import Any
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.audit import audit
from events.errors import UserError
from events.limits import check_date_window, check_free_text
from events.models import AuditLog
from leagues import staff_decisions
from leagues.access import LeaguePermission, require
from leagues.adapters import rule_match
from leagues.brackets import PRIMERA_A, PRIMERA_B, _cup_setup, _ids, _problems, league_standings
from leagues.models import (
    Competition,
    CupBonus,
    Entry,
    Match,
    Review,
    Season,
    player_name,
)
from leagues.phases import _add_entries, _check_name, _leg_rows, date_legs
from leagues.rules import brackets as bracket_rules
from leagues.rules import cups as cup_rules
from leagues.rules import season as season_rules
from leagues.rules import table as table_rules
from leagues.rules.draft import draw_lots
from leagues.rules.errors import LeagueRuleError
from leagues.rules.fixtures import generate_matches
from leagues.services import MATCH_FIELDS as TABLE_FIELDS
from leagues.services import SLUG_RE, _match_row, season_compliance_table
from leagues.staff_decisions import Kind

__all__ = [
    "CHAMPAGNE_DRAW",
    "NUCOMMUNITY_DRAW",
    "add_cup_bonus",
    "champagne_draw",
    "champagne_draws",
    "close_group_stage",
    "cup_bonus_ledger",
    "nucommunity_create",
    "nucommunity_draws",
    "parse_draw_order",
    "season_cup_bonus",
]


# --------------------------------------------------------------------------- Champagne League
CHAMPAGNE_DRAW = "league.champagne_draw"
"""Audit action recording a Champagne League draw (seed, pots, order, groups)."""


def parse_draw_order(text: str) -> list[tuple[str, str]]:
    """A live draw typed by hand: one ``team group`` per line in the order the teams came
    out (``t3 A``; a comma, a semicolon or spaces between). Raises ``UserError`` naming
    the line."""

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
      (:func:`leagues.brackets.league_standings`) — or ``"pasted"`` — ``primera_a``/``primera_b``: the
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

    require(actor, season, LeaguePermission.MANAGE_DRAFT)
    check_date_window(start, field="start")
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

    draws = []
    for entry in AuditLog.objects.filter(
        action=CHAMPAGNE_DRAW, target__startswith=f"{season.slug}/"
    ).order_by("-at", "-id"):
        draws.append({"at": entry.at, **(entry.after or {})})
    return draws


def _new_competition(season, *, slug, name, kind, legs=2, counts=False, decisions=None):
    """A new competition at the end of the season (``UserError`` for a taken slug), with
    its first staff ``decisions`` (``{kind: value}``, :mod:`leagues.staff_decisions`)."""

    _check_name(name)
    if not SLUG_RE.match(slug) or Competition.objects.filter(slug=slug).exists():
        raise UserError(_("The address %(slug)s is taken or not valid.") % {"slug": slug})
    last = season.competitions.order_by("-position").values_list("position", flat=True)
    competition = Competition.objects.create(
        season=season,
        slug=slug,
        kind=kind,
        name=name,
        legs=legs,
        counts_for_compliance=counts,
        position=(last.first() or 0) + 1,
    )
    for kind, value in (decisions or {}).items():
        staff_decisions.decide(competition, kind, value)
    return competition


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
        decisions={Kind.CUP: cup},
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
    date_legs(competition, rows)
    Match.objects.bulk_create(rows)
    return competition, {v.spec.id: [v.first.team, v.second.team] for v in first}


def _group_tables(competition: Competition):
    """The rules' group tables of a ``groups`` competition (:func:`leagues.rules.cups.
    group_tables`, the competition's tie-breakers and staff decisions). 3 queries."""

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
    """League staff close a cup's group stage (ANFPES T24 §2.2; docs/leagues-final-phases.md
    "Champagne League and Conference Lag") and the knockouts are created from the group tables
    (:func:`leagues.rules.cups. cross_group_rankings`): the Champagne League knockout (best group
    winner v worst runner-up …, ``<slug>-knockout``) and the Conference Lag (best 3rd v worst 4th …,
    ``<slug>-conference``; only with groups of four), two-legged ties (the better-seeded
    team hosts leg 2) whose later rounds follow with :func:`leagues.phases.advance_stage`. A Nucommunity
    Shit group stage (:func:`leagues.staff_decisions.cup_groups` ``"nucommunity"``) gets its knockout
    only (ranking codes ``ns_winners``/``ns_runners_up``).

    ``order_across``: team ids, best first, ordering teams of one group position that
    every criterion leaves equal (the staff step of the ranking **[choice]**).

    Needs ``REVIEW_RESULTS``. ``UserError`` (nothing saved) while group matches remain to
    be played, a group table has a tie only staff can break, teams of one position are
    equal across groups without an order, the number of groups is not a power of two, or
    the knockout's address is taken. Audited (``league.group_stage_closed``).
    """

    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("season").get(pk=competition.pk)
        )
        season = competition.season
        require(actor, season, LeaguePermission.REVIEW_RESULTS)
        if competition.kind != Competition.Kind.GROUPS:
            raise UserError(_("Only a group stage can be closed this way."))
        if staff_decisions.knockouts(competition):
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
        nucommunity = staff_decisions.cup_groups(competition) == "nucommunity"
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
        staff_decisions.decide(competition, Kind.KNOCKOUTS, [c.slug for c in created], by=actor)
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
    """League staff create the Nucommunity Shit (ANFPES T24 §2.1; docs/leagues-final-phases.md
    "Nucommunity Shit";
    :class:`leagues.rules.cups.NucommunityConfig`):

    - ``format="knockout"``: the entrants (``teams``, blank: every active team — neither
      suspended nor expelled, issue 14 — in season order; a listed team that is not active
      is refused) are drawn by lot (:func:`leagues.rules.draft.draw_lots`, ``seed``; or
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

    require(actor, season, LeaguePermission.MANAGE_DRAFT)
    check_date_window(start, field="start")
    all_teams = {t.code: t for t in season.teams.order_by("id")}
    entrants = _ids(teams) or [c for c, t in all_teams.items() if t.status == "active"]
    unknown = [c for c in entrants if c not in all_teams]
    if unknown:
        raise UserError(_("Unknown team ids: %(ids)s.") % {"ids": ", ".join(unknown)})
    # A team that abandoned (suspended or expelled, §III.4) does not enter (issue 14).
    gone = [c for c in entrants if all_teams[c].status != "active"]
    if gone:
        raise UserError(
            _("Only active teams enter the draw: %(ids)s did not.") % {"ids": ", ".join(gone)},
            field="teams",
        )
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
            staff_decisions.decide(
                competition, Kind.COMPLIANCE_ROUNDS, [first.first() or 1], by=actor
            )
            record["ties"] = ties
        else:
            competition = _new_competition(
                season,
                slug=slug,
                name=name,
                kind=Competition.Kind.GROUPS,
                legs=legs,
                counts=True,
                decisions={Kind.CUP_GROUPS: "nucommunity"},
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

    rows = list(
        CupBonus.objects.filter(season=season)
        .order_by("id")
        .values("team__code", "team__name", "team__handle", "points", "reason", *_PLAYER)
    )
    if not rows:
        return []
    reaped: set[str] = set()
    if Review.objects.filter(season=season, kind="season_end").exists():
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
