"""Card suspensions of a season in the app (issue 5), computed by
:mod:`leagues.rules.cards` from the stored knockout matches (read-only, bounded queries).

Suspensions (:func:`season_suspensions`, docs/contracts.md §6
``GET /api/v1/seasons/<slug>/suspensions``):

- Scopes (:mod:`leagues.rules.cards`): the league post-season knockouts of the season
  (tie ids of the league post-season, :data:`leagues.adapters.LEAGUE_TIES`) are one scope; every other knockout
  competition (a cup's knockout) is its own scope. League and group stages do not count.
- Played order **[choice]**: competitions in season order, then round, leg and posting
  time; scheduled matches after the others (the first is a team's "next match").
- Match references are ``<competition slug>/<match id>`` (match ids repeat across
  competitions).
- Identity (docs/leagues.md "Squads"): a card or lineup entry is the squad footballer it
  points at (a card's ``squad``, a lineup entry's ``"squad"``), or else the squad
  footballer of that team whose name it matches (:func:`leagues.rules.cards.footballer_key`),
  shown by the squad's name; other names are compared as typed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import F

from leagues.adapters import MATCH_FIELDS, rule_match
from leagues.brackets import known_spec
from leagues.models import (
    Card,
    Competition,
    Footballer,
    Match,
    ResultReport,
    Season,
)
from leagues.rules import cards as card_rules
from leagues.rules import season as season_rules
from leagues.rules.errors import LeagueRuleError

__all__ = [
    "season_suspensions",
    "suspension_flags",
]


# --------------------------------------------------------------------------- suspensions
def _squads(season: Season) -> tuple[dict[int, str], dict[tuple[str, str], int]]:
    """The season's squad footballers: id → name, and (team id, compared name) → id."""
    names, ids = {}, {}
    for row in Footballer.objects.filter(team__season=season).values(
        "pk", "team__code", "name", "name_key"
    ):
        names[row["pk"]] = row["name"]
        ids[(row["team__code"], row["name_key"])] = row["pk"]
    return names, ids


def _who(team: str, footballer, squad, squads) -> tuple[str, int | None]:
    """``(name shown, squad id)`` of a card or lineup entry (module docstring)."""
    names, ids = squads
    if squad not in names:
        squad = ids.get((team, card_rules.footballer_key(footballer)))
    return (names[squad], squad) if squad is not None else (footballer, None)


def season_suspensions(season: Season) -> dict:
    """The suspensions document (docs/contracts.md §6) of ``season``, in 3 queries (1 without a
    knockout match; module docstring for the scopes, the order and the identity), by
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
        .values("match_id", "team__code", "footballer", "card", "squad_id")
    )
    squads = _squads(season) if rows else ({}, {})
    for card in card_rows if rows else ():  # no knockout match: no card to read
        name, squad = _who(card["team__code"], card["footballer"], card["squad_id"], squads)
        cards.setdefault(card["match_id"], []).append(
            season_rules.Card(card["team__code"], name, card["card"], squad)
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
        lineups: dict[str, dict[str, list[card_rules.Named]]] = {}
        for r in played:
            for entry in r.get("lineup") or ():
                if isinstance(entry, dict) and entry.get("team") and entry.get("footballer"):
                    who = _who(entry["team"], entry["footballer"], entry.get("squad"), squads)
                    lineups.setdefault(f"{r['competition__slug']}/{r['code']}", {}).setdefault(
                        entry["team"], []
                    ).append(card_rules.Named(*who))
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
    by the squad footballer when the entry names one, else names compared as the rules
    compare them, :func:`leagues.rules.cards.footballer_key`: case, accents and extra
    spaces ignored). ``match`` limits them to one fixture.
    Each ``{"match": "<competition>/<id>", "competition", "code", "team", "name",
    "footballer", "where": "lineup"|"cards", "report": pk or None}``. 2–3 queries (none
    for the reports when no suspension is pending)."""

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
            ref, team = item["next_match"], item["team"]
            pending[(ref, team, card_rules.footballer_key(item["footballer"]))] = item
            if item.get("squad") is not None:  # the squad footballer, however named
                pending[(ref, team, item["squad"])] = item
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
            team, squad = entry.get("team"), entry.get("squad")
            item = pending.get((ref, team, squad)) if isinstance(squad, int) else None
            item = item or pending.get(
                (ref, team, card_rules.footballer_key(entry.get("footballer")))
            )
            if item is None or (where, team, id(item)) in seen:
                continue
            seen.add((where, team, id(item)))
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
