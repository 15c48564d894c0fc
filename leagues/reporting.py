"""Results reported by the players and what staff do with them; excuses and concessions of
the compliance table. The one ORM adapter for these flows (views call it, rules stay pure).

Result life (issue 4; ANFPES T24 §IV; docs/leagues.md "Compliance table" for the posting time):

1. One of the two players **reports** the score with a screenshot and the time the result
   was posted in the league chat (:func:`report_result`), optionally with the bookings
   (:func:`check_cards`; they become the match's cards when the result is accepted). The
   match does not change yet.
2. The opponent **confirms** it (:func:`confirm_report`): the match takes the score and
   ``reported_at = posted_at``, the reference of the compliance table. Or the opponent
   **disputes** it with a reason (:func:`dispute_report`); the reporter may **withdraw** a
   report nobody answered yet (:func:`withdraw_report`).
3. League staff **resolve** an open report (:func:`resolve_report`): accept it, accept it
   with another score or posting time, or reject it (the match stays unplayed). A reason is
   required except to accept an undisputed report as it is.
4. A result the match already has is never edited silently: :func:`correct_result` needs
   league staff and a reason, and the audit log keeps the values before and after.

Every change runs in one transaction with the match row locked (two phones submitting at
once: one wins, the other gets a clear error) and writes the audit log
(``events.AuditLog``, target ``<season>/<competition>/<match id>``).

Errors: :class:`events.errors.UserError` (translated, shown to the user; nothing saved);
``PermissionDenied`` when the user may not act on this match.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from events import notifications, notify_rules
from events.audit import audit
from events.errors import UserError
from events.limits import check_free_text, field_label
from leagues import images, screenshots, squads
from leagues.access import LeaguePermission, require, season_permissions
from leagues.brackets import requires_stream
from leagues.models import (
    MAX_EXCUSE_IMAGES,
    Card,
    Concession,
    Excuse,
    ExcuseImage,
    Footballer,
    Match,
    ResultReport,
    Team,
)
from leagues.phases import ensure_regular_phase_open
from leagues.rules.cards import footballer_key
from leagues.rules.scores import MAX_GOALS, MAX_SHOOTOUT, shootout_possible
from leagues.services import phase_closing

POSTING_CLOCK_SKEW = timedelta(minutes=5)
"""How far in the future a posting time may be (phone clocks drift) **[choice]**."""
OLDEST_POSTING = timedelta(days=366)
"""How far in the past a posting time may be, at most **[choice]**."""

OPEN = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)


def target(match: Match) -> str:
    """The audit target of a match: ``<season>/<competition>/<match id>``."""
    return f"{match.competition.season.slug}/{match.competition.slug}/{match.code}"


def side_of(user, match: Match) -> str | None:
    """``"home"`` or ``"away"`` when ``user`` is the player of that team of ``match``,
    else ``None`` (anonymous users included)."""
    if not getattr(user, "is_authenticated", False):
        return None
    if match.home.user_id == user.pk:
        return "home"
    if match.away.user_id == user.pk:
        return "away"
    return None


def _team(match: Match, side: str) -> Team:
    return match.home if side == "home" else match.away


def _lock(match: Match) -> Match:
    """The match row again, locked for the transaction, with what the checks need."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("competition__season", "home", "away")
        .get(pk=match.pk)
    )


def _lock_report(report: ResultReport) -> tuple[ResultReport, Match]:
    match = _lock(report.match)
    report = ResultReport.objects.select_for_update().get(pk=report.pk)
    report.match = match
    return report, match


def shootout_message(home: int, away: int) -> str:
    """The one message for a shoot-out score that cannot happen (forms and services;
    :func:`leagues.rules.scores.shootout_possible`)."""
    return _(
        "%(home)s–%(away)s cannot be a penalty shoot-out: five kicks each (it stops once one "
        "side cannot catch up), then one each until one scores and the other misses."
    ) % {"home": home, "away": away}


def _score(home_goals, away_goals) -> tuple[int, int]:
    for value in (home_goals, away_goals):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_GOALS:
            raise UserError(
                _("Goals must be whole numbers from 0 to %(max)s.") % {"max": MAX_GOALS}
            )
    return home_goals, away_goals


def _posted(posted_at: datetime, now: datetime, match: Match) -> datetime:
    """The posting time checked: aware, not in the future (give or take
    :data:`POSTING_CLOCK_SKEW`), not before the competition started (its ``start`` day at
    00:00 in the season's time zone) nor more than :data:`OLDEST_POSTING` ago **[choice]**:
    a typo in the year must not turn a late result into an early one."""
    if posted_at is None or timezone.is_naive(posted_at):
        raise UserError(_("Give the date and time the result was posted."))
    if posted_at > now + POSTING_CLOCK_SKEW:
        raise UserError(_("The posting time is in the future."))
    earliest = now - OLDEST_POSTING
    start = match.competition.start
    if start is not None:
        zone = ZoneInfo(match.competition.season.time_zone)
        earliest = max(earliest, datetime.combine(start, time.min, tzinfo=zone))
    if posted_at < earliest:
        raise UserError(
            _("The posting time is before %(date)s: check the date.")
            % {"date": timezone.localtime(earliest, match_zone(match)).strftime("%Y-%m-%d")}
        )
    return posted_at


def match_zone(match: Match) -> ZoneInfo:
    return ZoneInfo(match.competition.season.time_zone)


def _playable(match: Match) -> None:
    if match.status != Match.Status.SCHEDULED:
        raise UserError(
            _("This match already has a result (%(status)s).")
            % {"status": match.get_status_display()}
        )
    if match.home.status != "active" or match.away.status != "active":
        raise UserError(_("A team of this match is suspended or expelled."))


def _snapshot(match: Match) -> dict:
    return {
        "status": match.status,
        "home_goals": match.home_goals,
        "away_goals": match.away_goals,
        "reported_at": match.reported_at.isoformat() if match.reported_at else None,
    }


def _apply(
    match: Match,
    home_goals: int,
    away_goals: int,
    posted_at: datetime,
    stream_url: str = "",
    report: ResultReport | None = None,
) -> None:
    """The match takes a result; a report's stream link replaces an empty one only. With
    the accepted ``report``: its extra time and penalty shoot-out (a shoot-out only after
    a level score, so a score amended by staff to a winner drops it) and its lineups."""
    match.status = Match.Status.PLAYED
    match.home_goals, match.away_goals = home_goals, away_goals
    match.reported_at = posted_at
    if stream_url and not match.stream_url:
        match.stream_url = stream_url
    fields = ["status", "home_goals", "away_goals", "reported_at", "stream_url"]
    if report is not None:
        match.extra_time = True if report.extra_time else None
        shootout = report.penalties_home is not None and home_goals == away_goals
        match.penalties_home = report.penalties_home if shootout else None
        match.penalties_away = report.penalties_away if shootout else None
        match.lineup = list(report.lineup or [])
        fields += ["extra_time", "penalties_home", "penalties_away", "lineup"]
    match.save(update_fields=fields)


def is_decider(match: Match) -> bool:
    """A match that is decided on the day when level — extra time, then penalties
    (ANFPES T24 §1.1.2, §1.2.3, §1.3.2, §2.2): a knockout's third match (leg 3), or a
    one-match tie (a knockout played in one leg, or a match without a leg number)."""
    if match.competition.kind != "knockout":
        return False
    return match.leg == 3 or match.leg is None or match.competition.legs < 2


def check_decider(match: Match, home_goals: int, away_goals: int, extra_time, penalties):
    """``(extra_time, penalties)`` of a reported result, checked: only for a decider
    (:func:`is_decider`); a shoot-out only after a score still level after extra time,
    and with a winner; and a decider level after extra time needs its shoot-out — it is
    played to a winner (ANFPES T24 §1.1.2, §1.2.3, §2.2: "con tiempo extra y definición a
    penales"); a shoot-out score that can happen, each side 0–30
    (:mod:`leagues.rules.scores`). ``UserError`` otherwise."""
    extra_time = bool(extra_time)
    if penalties is not None:
        if not isinstance(penalties, list | tuple) or len(penalties) != 2:
            raise UserError(_("Give both penalty counts, or neither."))
        for value in penalties:
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 0 <= value <= MAX_SHOOTOUT
            ):
                raise UserError(
                    _("Penalties must be whole numbers from 0 to %(max)s.") % {"max": MAX_SHOOTOUT}
                )
        penalties = tuple(penalties)
    if (extra_time or penalties is not None) and not is_decider(match):
        raise UserError(
            _("Extra time and penalties are for a third match or a one-match decider only.")
        )
    if penalties is not None:
        if home_goals != away_goals or not extra_time:
            raise UserError(_("A penalty shoot-out follows a score still level after extra time."))
        if penalties[0] == penalties[1]:
            raise UserError(_("A penalty shoot-out has a winner."))
        if not shootout_possible(*penalties):
            raise UserError(shootout_message(*penalties))
    _decider_has_winner(match, home_goals, away_goals, penalties)
    return extra_time, penalties


def _decider_has_winner(match: Match, home_goals: int, away_goals: int, penalties) -> None:
    """A third match or one-match decider (:func:`is_decider`) is played to a winner:
    level after extra time, the shoot-out decides (ANFPES T24 §1.1.2, §2.2)."""
    if is_decider(match) and home_goals == away_goals and penalties is None:
        raise UserError(
            _(
                "A third match or decider level after extra time is decided on penalties: "
                "tick extra time and give the penalty shoot-out."
            )
        )


# --------------------------------------------------------------------------- bookings
HOME_WORDS = ("home", "local")
AWAY_WORDS = ("away", "visit", "visita", "visitante")
"""Words for a booking's team besides its id and name (English and Spanish)."""


def check_cards(match: Match, cards) -> list[dict]:
    """The bookings of a report checked against ``match`` (docs/contracts.md §5 ``cards``): a list
    of ``{"team", "footballer", "card"}`` where ``team`` is ``home``/``away`` (or
    ``local``/``visita``), the team id or the team's name (any case); returns them with
    the team id. ``UserError`` (``field="cards"``) for an unknown team, an empty name, a
    card other than yellow/red, or an impossible set for one footballer in one match
    (more than two yellows, two reds, or a red after two yellows: a second yellow is two
    ``yellow`` bookings)."""
    if not cards:
        return []
    if not isinstance(cards, list | tuple):
        raise UserError(_("The bookings must be a list."), field="cards")
    result, problems = [], []
    for number, booking in enumerate(cards, 1):
        if not isinstance(booking, dict):
            problems.append(_("Booking %(n)s is not readable.") % {"n": number})
            continue
        footballer = " ".join(str(booking.get("footballer") or "").split())
        card = booking.get("card")
        team = _side_team(match, booking.get("team"))
        if team is None:
            problems.append(
                _("Booking %(n)s: the team must be home, away, %(home)s or %(away)s, not %(team)s.")
                % {
                    "n": number,
                    "home": match.home.name,
                    "away": match.away.name,
                    "team": booking.get("team") or "—",
                }
            )
            continue
        if not footballer or len(footballer) > 200:
            problems.append(_("Booking %(n)s: give the footballer's name.") % {"n": number})
            continue
        if card not in ("yellow", "red"):
            problems.append(_("Booking %(n)s: the card must be yellow or red.") % {"n": number})
            continue
        result.append({"team": team.code, "footballer": footballer, "card": card})
        if isinstance(booking.get("squad"), int):
            result[-1]["squad"] = booking["squad"]  # checked by squads.resolve
    if not problems:  # "#7" and squad names become the squad's footballer (leagues.squads)
        result = squads.resolve(match, result, field="cards")
    # One footballer however his name was typed, as the suspension rules count him.
    tally: dict[tuple[str, str], list[str]] = {}
    for booking in result:
        key = (booking["team"], footballer_key(booking["footballer"]))
        tally.setdefault(key, []).append(booking["card"])
    for (_team_code, _name), kinds in tally.items():
        yellows, reds = kinds.count("yellow"), kinds.count("red")
        if yellows > 2 or reds > 1 or (yellows == 2 and reds == 1):
            name = next(b["footballer"] for b in result if footballer_key(b["footballer"]) == _name)
            problems.append(
                _(
                    "%(name)s cannot get these cards in one match (a second yellow is "
                    "two yellow bookings, then he is off)."
                )
                % {"name": name}
            )
    if problems:
        raise UserError(" ".join(problems), field="cards")
    return result


def _side_team(match: Match, token) -> Team | None:
    """The team of ``match`` a bookings or lineups line names: ``home``/``away`` (or
    ``local``/``visita``…), its id or its name, case ignored; ``None`` otherwise."""
    token = str(token or "").strip().casefold()
    if token in HOME_WORDS:
        return match.home
    if token in AWAY_WORDS:
        return match.away
    return next(
        (t for t in (match.home, match.away) if token in (t.code.casefold(), t.name.casefold())),
        None,
    )


MAX_LINEUP = 60
"""At most this many footballers in the lineups of one report (both teams)."""


def check_lineup(match: Match, lineup) -> list[dict]:
    """The lineups of a report checked against ``match``: a list of ``{"team",
    "footballer"}`` (``team`` as for bookings, :func:`check_cards`); returns them with the
    team id, each footballer once per team. ``UserError`` (``field="lineup"``) for an
    unknown team, an empty or too long name, or too many names."""
    if not lineup:
        return []
    if not isinstance(lineup, list | tuple) or len(lineup) > MAX_LINEUP:
        raise UserError(
            _("At most %(max)s footballers, one per line.") % {"max": MAX_LINEUP}, field="lineup"
        )
    result, seen, problems = [], set(), []
    for number, entry in enumerate(lineup, 1):
        if not isinstance(entry, dict):
            problems.append(_("Lineup line %(n)s is not readable.") % {"n": number})
            continue
        team = _side_team(match, entry.get("team"))
        footballer = " ".join(str(entry.get("footballer") or "").split())
        if team is None:
            problems.append(
                _("Lineup line %(n)s: the team must be home, away, %(home)s or %(away)s.")
                % {"n": number, "home": match.home.name, "away": match.away.name}
            )
            continue
        if not footballer or len(footballer) > 200:
            problems.append(_("Lineup line %(n)s: give the footballer's name.") % {"n": number})
            continue
        result.append({"team": team.code, "footballer": footballer})
    if problems:
        raise UserError(" ".join(problems), field="lineup")
    once = []  # each footballer once per team, after matching the squads (leagues.squads)
    for entry in squads.resolve(match, result, field="lineup"):
        key = (entry["team"], entry.get("squad") or footballer_key(entry["footballer"]))
        if key not in seen:
            seen.add(key)
            once.append(entry)
    return once


def _apply_cards(match: Match, cards: list[dict]) -> dict:
    """The match's bookings become ``cards`` (team ids): its earlier Card rows are
    replaced. Returns ``{"before", "after"}`` for the audit log."""
    existing = list(match.cards.select_related("team").order_by("id"))
    before = [{"team": c.team.code, "footballer": c.footballer, "card": c.card} for c in existing]
    if existing:
        match.cards.all().delete()
    teams = {match.home.code: match.home, match.away.code: match.away}
    known = set(  # the squad footballers still there (one may have left since the report)
        Footballer.objects.filter(pk__in=[c["squad"] for c in cards if c.get("squad")]).values_list(
            "pk", flat=True
        )
    )
    Card.objects.bulk_create(
        [
            Card(
                match=match,
                team=teams[c["team"]],
                footballer=c["footballer"],
                card=c["card"],
                squad_id=c.get("squad") if c.get("squad") in known else None,
            )
            for c in cards
        ]
    )
    return {"before": before, "after": list(cards)}


def bookings_screenshot_required(match: Match) -> bool:
    """Whether a report of ``match`` with bookings must attach their own screenshot: a
    knockout match (a league final phase or a cup's knockout, where cards accumulate,
    ANFPES T24 §1.4 ¶3 and §2): "responsabilidad de quien suba las capturas, agregar a
    las habituales la captura de amonestaciones". One query at most."""
    return bool(match.tie) or match.competition.kind == match.competition.Kind.KNOCKOUT


def bookings_screenshot_missing(report: ResultReport) -> bool:
    """A report with bookings, in a final phase, without their screenshot (§1.4)."""
    return (
        bool(report.cards)
        and not report.bookings_screenshot
        and (bookings_screenshot_required(report.match))
    )


# --------------------------------------------------------------------------- players
def report_result(
    match: Match,
    user,
    *,
    home_goals: int,
    away_goals: int,
    posted_at: datetime,
    screenshot,
    cards=None,
    stream_url: str = "",
    bookings_screenshot=None,
    lineup=None,
    extra_time: bool = False,
    penalties: tuple[int, int] | None = None,
) -> ResultReport:
    """A player of ``match`` reports its result with a screenshot (an uploaded image file
    the boundary already validated, ``leagues.forms``) and the time the result was posted
    in the chat (aware ``datetime``, at most :data:`POSTING_CLOCK_SKEW` ahead of now).

    ``cards``: the bookings (:func:`check_cards`; the screenshot is their evidence
    **[choice]**), kept with the report; they become the match's cards when the result
    is accepted. ``stream_url``: the broadcast link (an http(s) URL the form validated);
    it becomes the match's when the result is accepted (a final-phase match without one
    does not count, ANFPES T24 §1.4). ``bookings_screenshot``: an optional second image,
    the bookings' own evidence, stored re-encoded like the result's. In a final phase
    (:func:`bookings_screenshot_required`) §1.4 asks for it when bookings are reported;
    a report without it is accepted and the match page warns the opponent and staff
    (:func:`bookings_screenshot_missing`) **[choice: refusing it would refuse reports
    the season's tests and earlier clients send]**.

    Returns the ``pending`` :class:`ResultReport`. Raises ``PermissionDenied`` for anyone
    but the two players; ``UserError`` when the match already has a result or an open
    report, for goals outside 0–99, a missing/future posting time or bad bookings."""
    home_goals, away_goals = _score(home_goals, away_goals)
    if screenshot is None:
        raise UserError(_("Attach the screenshot of the result."))
    extra_time, penalties = check_decider(match, home_goals, away_goals, extra_time, penalties)
    # Stored re-encoded, never the uploaded bytes (leagues.images).
    screenshot = images.reencode(screenshot, field="screenshot")
    if bookings_screenshot is not None:
        bookings_screenshot = images.reencode(bookings_screenshot, field="bookings_screenshot")
    with transaction.atomic():
        match = _lock(match)
        side = side_of(user, match)
        if side is None:
            raise PermissionDenied
        _playable(match)
        posted_at = _posted(posted_at, timezone.now(), match)

        if not (stream_url or "").strip() and requires_stream(match):
            raise UserError(
                _("Give the stream link: without it this match does not count."),
                field="stream_url",
            )
        cards = check_cards(match, cards)
        lineup = check_lineup(match, lineup)
        if match.reports.filter(status__in=OPEN).exists():
            raise UserError(_("A result for this match is already waiting for an answer."))
        try:
            with transaction.atomic():
                report = ResultReport.objects.create(
                    match=match,
                    team=_team(match, side),
                    reported_by=user,
                    home_goals=home_goals,
                    away_goals=away_goals,
                    posted_at=posted_at,
                    screenshot=screenshot,
                    bookings_screenshot=bookings_screenshot or "",
                    cards=cards,
                    stream_url=(stream_url or "").strip(),
                    lineup=lineup,
                    extra_time=extra_time,
                    penalties_home=penalties[0] if penalties else None,
                    penalties_away=penalties[1] if penalties else None,
                )
                # A screenshot already used for another match is flagged to staff.
                screenshots.record(report)
        except IntegrityError:  # the other player's report won the race
            raise UserError(
                _("A result for this match is already waiting for an answer.")
            ) from None
        audit(
            None,
            user,
            "league.result_reported",
            target(match),
            after={
                "report": report.pk,
                "home_goals": home_goals,
                "away_goals": away_goals,
                "posted_at": posted_at.isoformat(),
                "cards": cards,
            },
        )
        notify_report_waiting(match, side, user, home_goals, away_goals)
    return report


def notify_report_waiting(match: Match, side: str, user, home_goals: int, away_goals: int) -> None:
    """After the commit: the opponent of ``side`` (if they opted in to ``league_report``)
    is told a result waits for their confirmation, and the season's organisation's
    webhooks (its Discord channel) that result was reported (docs/notifications.md)."""
    opponent = _team(match, "away" if side == "home" else "home")
    season = match.competition.season
    with notifications.site_language():
        name = f"{match.home.name} – {match.away.name}"
        url = notifications.absolute(
            reverse("leagues:match", kwargs={"slug": match.competition.slug, "code": match.code})
        )
        reporter = user.get_username()
        score = f"{home_goals}–{away_goals}"
        personal = notify_rules.league_report_waiting(name, score, reporter, url)
        channel = notify_rules.league_result_reported(name, score, reporter, url)
    notifications.notify_users(
        personal, [opponent.user_id], organisation_id=season.organisation_id, webhooks=False
    )
    if season.organisation_id is not None:
        notifications.notify_users(channel, [], organisation_id=season.organisation_id)


def _opponent_check(report: ResultReport, match: Match, user) -> None:
    side = side_of(user, match)
    if side is None:
        raise PermissionDenied
    if _team(match, side).pk == report.team_id:
        raise UserError(_("The opponent answers a report, not the player who sent it."))


def confirm_report(report: ResultReport, user) -> ResultReport:
    """The opponent confirms a ``pending`` report: the match takes its score and posting
    time (``reported_at``), and the report's bookings become its cards. ``PermissionDenied`` for anyone but the two players;
    ``UserError`` for the reporter themselves or a report no longer pending."""
    with transaction.atomic():
        report, match = _lock_report(report)
        _opponent_check(report, match, user)
        if report.status != ResultReport.Status.PENDING:
            raise UserError(_("This report was already answered."))
        _playable(match)
        before = _snapshot(match)
        _apply(
            match,
            report.home_goals,
            report.away_goals,
            report.posted_at,
            report.stream_url,
            report=report,
        )
        booked = _apply_cards(match, check_cards(match, report.cards))
        report.status = ResultReport.Status.CONFIRMED
        report.responded_by, report.responded_at = user, timezone.now()
        report.save(update_fields=["status", "responded_by", "responded_at"])
        audit(
            None,
            user,
            "league.result_confirmed",
            target(match),
            before={**before, "cards": booked["before"]},
            after={**_snapshot(match), "report": report.pk, "cards": booked["after"]},
        )
    return report


def dispute_report(report: ResultReport, user, reason: str) -> ResultReport:
    """The opponent disputes a ``pending`` report, saying why; league staff decide
    (:func:`resolve_report`). Same errors as :func:`confirm_report`, plus an empty
    reason."""
    reason = check_free_text(
        reason, field_label(ResultReport, "dispute_reason"), field="reason"
    ).strip()
    if not reason:
        raise UserError(_("Say what is wrong with this result."), field="reason")
    with transaction.atomic():
        report, match = _lock_report(report)
        _opponent_check(report, match, user)
        if report.status != ResultReport.Status.PENDING:
            raise UserError(_("This report was already answered."))
        report.status = ResultReport.Status.DISPUTED
        report.dispute_reason = reason
        report.responded_by, report.responded_at = user, timezone.now()
        report.save(update_fields=["status", "dispute_reason", "responded_by", "responded_at"])
        audit(
            None,
            user,
            "league.result_disputed",
            target(match),
            after={"report": report.pk},
            comment=reason,
        )
    return report


def withdraw_report(report: ResultReport, user) -> ResultReport:
    """The reporter takes back a report nobody answered yet (a typo): ``PermissionDenied``
    for anyone else, ``UserError`` once it was answered."""
    with transaction.atomic():
        report, match = _lock_report(report)
        side = side_of(user, match)
        if side is None or _team(match, side).pk != report.team_id:
            raise PermissionDenied
        if report.status != ResultReport.Status.PENDING:
            raise UserError(_("This report was already answered."))
        report.status = ResultReport.Status.WITHDRAWN
        report.save(update_fields=["status"])
        audit(None, user, "league.result_withdrawn", target(match), after={"report": report.pk})
    return report


# --------------------------------------------------------------------------- staff
def resolve_report(
    report: ResultReport,
    actor,
    *,
    decision: str,
    reason: str = "",
    home_goals: int | None = None,
    away_goals: int | None = None,
    posted_at: datetime | None = None,
    cards=None,
    extra_time: bool | None = None,
    penalties: tuple[int, int] | None = None,
) -> ResultReport:
    """League staff decide an open (pending or disputed) report.

    ``decision``: ``"accept"`` (the report's score and posting time), ``"amend"`` (the
    given ``home_goals``/``away_goals`` and, if given, ``posted_at`` instead) or
    ``"reject"`` (the match stays unplayed; the players may report again). On accept and
    amend the report's bookings become the match's cards (``cards``, for amend only:
    another list of bookings, :func:`check_cards`). For a decider (:func:`is_decider`)
    amend also takes ``extra_time`` and ``penalties`` (``None``: the report's), checked
    by :func:`check_decider` — a level decider needs its shoot-out. ``reason`` is
    required except to accept an undisputed report. Needs
    :attr:`LeaguePermission.REVIEW_RESULTS`; ``UserError`` for a closed report, a match
    that already has a result, or bad values."""
    reason = check_free_text(
        reason, field_label(ResultReport, "resolution"), field="reason"
    ).strip()
    if decision not in ("accept", "amend", "reject"):
        raise UserError(_("Choose accept, amend or reject."))
    with transaction.atomic():
        report, match = _lock_report(report)
        require(actor, match.competition.season, LeaguePermission.REVIEW_RESULTS)
        if report.status not in OPEN:
            raise UserError(_("This report was already decided."))
        if not reason and (decision != "accept" or report.status == ResultReport.Status.DISPUTED):
            raise UserError(_("Give the reason for the decision."), field="reason")
        before = _snapshot(match)
        booked = None
        if decision == "reject":
            report.status = ResultReport.Status.REJECTED
        else:
            _playable(match)
            score = (report.home_goals, report.away_goals)
            when = report.posted_at
            decider = (
                bool(report.extra_time),
                None
                if report.penalties_home is None
                else (report.penalties_home, report.penalties_away),
            )
            if decision == "amend":
                score = _score(home_goals, away_goals)
                if posted_at is not None:
                    when = _posted(posted_at, timezone.now(), match)
                if extra_time is not None or penalties is not None:
                    decider = (bool(extra_time), penalties)
                elif score[0] != score[1]:  # amended to a winner: the shoot-out goes
                    decider = (decider[0], None)
                decider = check_decider(match, *score, *decider)
            else:
                _decider_has_winner(match, *score, decider[1])
            bookings = report.cards
            if decision == "amend" and cards is not None:
                bookings = cards
            report.extra_time = decider[0]
            report.penalties_home, report.penalties_away = decider[1] or (None, None)
            _apply(match, *score, when, report.stream_url, report=report)
            booked = _apply_cards(match, check_cards(match, bookings))
            report.status = ResultReport.Status.RESOLVED
        report.resolution = reason
        report.resolved_by, report.resolved_at = actor, timezone.now()
        report.save(update_fields=["status", "resolution", "resolved_by", "resolved_at"])
        audit(
            None,
            actor,
            f"league.report_{decision}",
            target(match),
            before={**before, "cards": booked["before"]} if booked else before,
            after={**_snapshot(match), "report": report.pk}
            | ({"cards": booked["after"]} if booked else {})
            | (
                {
                    "extra_time": match.extra_time,
                    "penalties": [match.penalties_home, match.penalties_away],
                }
                if booked and is_decider(match)
                else {}
            ),
            comment=reason,
        )
    return report


def correct_result(
    match: Match,
    actor,
    *,
    home_goals: int,
    away_goals: int,
    reported_at: datetime | None,
    reason: str,
    extra_time: bool = False,
    penalties: tuple[int, int] | None = None,
    stream_url: str = "",
) -> Match:
    """League staff set or correct a match's result directly (a played match, or an
    unplayed one without an open report), always with a reason; the audit log keeps the
    values before and after. ``reported_at`` ``None`` keeps the current posting time (now
    for an unplayed match). Needs :attr:`LeaguePermission.REVIEW_RESULTS`. Walkovers and
    annulled matches are the tribunal's (``leagues.sanctions``).

    Knockouts (a third match, ANFPES T24 §1.1.2, §2.2): ``extra_time`` — the score given
    includes extra time; ``penalties`` — the shoot-out ``(home, away)``, checked as a
    report's (:func:`check_decider`: a decider only, after a score level after extra time,
    not level itself; a level decider needs it). ``stream_url``: the broadcast link, which a final-phase
    match needs to count (§1.4); empty keeps the current one. The same correction again (a
    form sent twice) changes nothing and writes no audit entry."""
    reason = check_free_text(reason, _("Reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason for the correction."), field="reason")
    home_goals, away_goals = _score(home_goals, away_goals)
    # The same checks as a report's (a decider only, shoot-out after level extra time).
    extra_time, penalties = check_decider(match, home_goals, away_goals, extra_time, penalties)
    with transaction.atomic():
        match = _lock(match)
        require(actor, match.competition.season, LeaguePermission.REVIEW_RESULTS)

        ensure_regular_phase_open(match.competition)
        if match.status not in (Match.Status.PLAYED, Match.Status.SCHEDULED):
            raise UserError(_("Walkovers and annulled matches are changed by the tribunal."))
        if match.reports.filter(status__in=OPEN).exists():
            raise UserError(_("Decide the open report of this match first."))
        now = timezone.now()
        when = _posted(reported_at, now, match) if reported_at else (match.reported_at or now)
        before = {
            **_snapshot(match),
            "extra_time": match.extra_time,
            "penalties": [match.penalties_home, match.penalties_away],
            "stream_url": match.stream_url,
        }
        stream_url = (stream_url or "").strip()
        if stream_url:
            match.stream_url = stream_url
        match.extra_time = True if extra_time else None
        match.penalties_home, match.penalties_away = penalties or (None, None)
        match.save(update_fields=["extra_time", "penalties_home", "penalties_away", "stream_url"])
        _apply(match, home_goals, away_goals, when)
        after = {
            **_snapshot(match),
            "extra_time": match.extra_time,
            "penalties": [match.penalties_home, match.penalties_away],
            "stream_url": match.stream_url,
        }
        if after == before:
            # The same correction again (a form sent twice): nothing changed, no audit
            # entry (issue 12).
            return match
        audit(
            None,
            actor,
            "league.result_corrected",
            target(match),
            before=before,
            after=after,
            comment=reason,
        )
    return match


# --------------------------------------------------------------------------- compliance
def excuse_last_day(match: Match) -> date | None:
    """The last day an excuse for ``match`` may cover (§IV.5): the day its phase closes
    (:func:`leagues.services.phase_closing`), read in the season's time zone or in UTC,
    whichever is later — a player abroad counts days in another zone **[choice]**.
    ``None`` when the phase has no deadline."""
    closes = phase_closing(match)
    if closes is None:
        return None
    zone = ZoneInfo(match.competition.season.time_zone)
    return max(closes.astimezone(zone).date(), closes.astimezone(UTC).date())


def request_excuse(
    match: Match, user, *, date_from: date, date_to: date, reason: str, evidence
) -> Excuse:
    """A player asks to be excused for ``match`` (ANFPES T24 §IV.5–§IV.6): dates, reason and
    evidence: one upload or a list of 1–:data:`leagues.models.MAX_EXCUSE_IMAGES` (screenshots
    must be attached, §IV.6), each re-encoded before anything is saved. A refused excuse may be asked
    again (the row is replaced, the audit log keeps the old one). ``PermissionDenied`` for
    anyone but the two players; ``UserError`` for a played match, an excuse already
    waiting or granted, dates in the wrong order, no reason, no or too many or bad evidence
    images, or an end date
    after the close of the match's phase (§IV.5, :func:`leagues.services.phase_closing`)."""
    reason = check_free_text(reason, field_label(Excuse, "reason"), field="reason").strip()
    if not reason:
        raise UserError(_("Give the reason."), field="reason")
    uploads = [f for f in (evidence if isinstance(evidence, list | tuple) else [evidence]) if f]
    if not uploads:
        raise UserError(_("Attach the screenshots that support it."), field="evidence")
    if len(uploads) > MAX_EXCUSE_IMAGES:
        raise UserError(
            _("Send at most %(n)s images.") % {"n": MAX_EXCUSE_IMAGES}, field="evidence"
        )
    # Every image re-encoded before anything is saved (one bad image: nothing saved).
    stored = [images.reencode(f, field="evidence") for f in uploads]
    if date_from is None or date_to is None or date_to < date_from:
        raise UserError(_("The end date must be on or after the start date."), field="date_to")
    today = timezone.localdate()
    if date_from < today - OLDEST_POSTING or date_to > today + OLDEST_POSTING:
        raise UserError(
            _("The dates must be within a year of today: check them."), field="date_from"
        )
    with transaction.atomic():
        match = _lock(match)
        side = side_of(user, match)
        if side is None:
            raise PermissionDenied
        _playable(match)
        _counts_for_compliance(match)
        last_day = excuse_last_day(match)
        if last_day is not None and date_to > last_day:
            raise UserError(
                _("An excuse cannot go beyond the close of its phase, %(date)s (ANFPES T24 §IV.5).")
                % {"date": last_day.isoformat()},
                field="date_to",
            )
        old = Excuse.objects.select_for_update().filter(match=match).first()
        if old is not None:
            if "no" not in (old.opponent_answer, old.staff_answer):
                raise UserError(_("An excuse for this match has already been requested."))
            audit(
                None,
                user,
                "league.excuse_replaced",
                target(match),
                before={
                    "reason": old.reason,
                    "opponent": old.opponent_answer,
                    "staff": old.staff_answer,
                },
            )
            old.delete()
        excuse = Excuse.objects.create(
            match=match,
            team=_team(match, side),
            date_from=date_from,
            date_to=date_to,
            reason=reason,
            evidence=stored[0],
        )
        ExcuseImage.objects.bulk_create(
            ExcuseImage(excuse=excuse, position=n, image=image)
            for n, image in enumerate(stored[1:], 2)
        )
        audit(
            None,
            user,
            "league.excuse_requested",
            target(match),
            after={
                "from": date_from.isoformat(),
                "to": date_to.isoformat(),
                "images": len(stored),
            },
            comment=reason,
        )
    return excuse


def _counts_for_compliance(match: Match) -> None:
    """Excuses and concessions are about the compliance table (ANFPES T24 §IV.5, §IV.7):
    refused on a match that does not count for it (league final phases, cup knockouts:
    no deadlines to excuse, no points to concede, §IV.1)."""
    if not match.competition.counts_for_compliance:
        raise UserError(
            _(
                "This match does not count for the compliance table: there is nothing to "
                "excuse or concede."
            )
        )


def answer_excuse(excuse: Excuse, user, agree: bool) -> Excuse:
    """The opponent confirms (``agree``) or refuses the excuse (§IV.5). Only the other
    player of the match, only once."""
    with transaction.atomic():
        match = _lock(excuse.match)
        excuse = Excuse.objects.select_for_update().get(pk=excuse.pk)
        side = side_of(user, match)
        if side is None:
            raise PermissionDenied
        if _team(match, side).pk == excuse.team_id:
            raise UserError(_("The opponent answers an excuse, not the player who asked it."))
        if excuse.opponent_answer:
            raise UserError(_("This excuse was already answered."))
        excuse.opponent_answer = "yes" if agree else "no"
        excuse.save(update_fields=["opponent_answer"])
        audit(None, user, "league.excuse_answered", target(match), after={"agree": bool(agree)})
    return excuse


def decide_excuse(excuse: Excuse, actor, approve: bool) -> Excuse:
    """League staff approve or refuse an excuse (§IV.5; needs
    :attr:`LeaguePermission.MANAGE_COMPLIANCE`). Staff may decide before the opponent
    answered; the excuse counts only with both yes. A decision can be changed (audited).
    The same decision again (a form sent twice) changes nothing and writes no audit entry
    (issue 12)."""
    with transaction.atomic():
        match = _lock(excuse.match)
        require(actor, match.competition.season, LeaguePermission.MANAGE_COMPLIANCE)
        excuse = Excuse.objects.select_for_update().get(pk=excuse.pk)
        before = excuse.staff_answer
        if before == ("yes" if approve else "no"):
            return excuse
        excuse.staff_answer = "yes" if approve else "no"
        excuse.decided_by = actor
        excuse.save(update_fields=["staff_answer", "decided_by"])
        audit(
            None,
            actor,
            "league.excuse_decided",
            target(match),
            before={"staff": before},
            after={"staff": excuse.staff_answer},
        )
    return excuse


def concede(match: Match, user) -> Concession:
    """A player concedes the match's compliance points (ANFPES T24 §IV.7): the opponent
    gets 2, they get 0, and the match must still be played. Final: ``UserError`` if the
    match was already conceded; ``PermissionDenied`` for anyone but the two players."""
    with transaction.atomic():
        match = _lock(match)
        side = side_of(user, match)
        if side is None:
            raise PermissionDenied
        if match.status != Match.Status.SCHEDULED:
            raise UserError(_("Compliance points are conceded before the match is played."))
        _counts_for_compliance(match)
        if Concession.objects.filter(match=match).exists():
            raise UserError(_("This match's compliance points were already conceded."))
        try:
            with transaction.atomic():
                concession = Concession.objects.create(
                    match=match, team=_team(match, side), created_by=user
                )
        except IntegrityError:
            raise UserError(_("This match's compliance points were already conceded.")) from None
        audit(None, user, "league.compliance_conceded", target(match), after={"side": side})
    return concession


def can_view_private(user, match: Match) -> bool:
    """Whether ``user`` sees the match's open reports and excuse evidence: its two players
    and the season's staff."""
    return side_of(user, match) is not None or bool(
        season_permissions(user, match.competition.season)
    )
