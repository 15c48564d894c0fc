"""The broadcast requirement of league matches (ANFPES T24 §1.4 ¶5–¶6): the staff and
tribunal services around :func:`leagues.rules.match_rules.counts`.

- :func:`set_must_stream` — staff require (or stop requiring) the broadcast of a
  regular-phase fixture (§1.4 ¶6).
- :func:`replay_unstreamed` and :func:`set_stream_link` — a match played without the
  stream link it needed (a friendly, §1.4 ¶5–¶6) is ordered replayed, or given its link.

Same conventions as :mod:`leagues.sanctions` (permission checked first, ``UserError`` with
nothing saved, locked rows, one transaction, audited with the match as target).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils.translation import gettext as _

from events.audit import audit
from events.errors import UserError
from leagues.access import LeaguePermission, require, season_permissions
from leagues.brackets import played_without_stream
from leagues.models import (
    Card,
    Competition,
    Match,
)
from leagues.sanctions import (
    _check_scheduled,
    _locked_match,
    _reason,
    _regular_phase_open,
    _state,
    match_target,
)

__all__ = ["replay_unstreamed", "set_must_stream", "set_stream_link"]


def set_must_stream(match: Match, actor, required: bool, *, reason: str = "") -> Match:
    """Require (``required=True``) or stop requiring the broadcast of a regular-phase
    fixture (ANFPES T24 §1.4 ¶6): a ``must_stream`` fixture played without a stream link is
    a friendly and does not count (:func:`leagues.rules.match_rules.counts`; the league
    table passes it to the rules as void, :func:`leagues.services.competition_table`).

    Only fixtures of a ``league`` competition (the regular phase): league final phases
    always need the link and cup phases never do (§1.4 ¶5, §2.2) **[choice]**. Requiring it
    is refused once the match is no longer ``scheduled`` or has an open result report (it
    would void a result after the fact); lifting it is allowed at any time, which makes a
    match played without the link count again **[choice]**. Permission
    ``MANAGE_CALENDAR`` (league staff) **[choice]**. Raises ``UserError`` (nothing saved),
    also when the fixture already is as asked. Audited ``league.must_stream_set``.
    """
    competition = match.competition
    require(actor, competition.season, LeaguePermission.MANAGE_CALENDAR)
    if not isinstance(required, bool):
        raise UserError(_("Choose whether the broadcast is required."))
    if competition.kind != Competition.Kind.LEAGUE:
        raise UserError(
            _(
                "Only a regular-phase fixture can be marked: league final phases always "
                "need their stream link, cup matches never do."
            )
        )
    reason = _reason(reason, required=False)
    with transaction.atomic():
        _regular_phase_open(competition)
        locked = _locked_match(match)
        if locked.must_stream == required:
            text = (
                _("Match %(code)s already requires its broadcast.")
                if required
                else _("Match %(code)s does not require its broadcast.")
            )
            raise UserError(text % {"code": locked.code})
        if required:
            _check_scheduled(locked)
        locked.must_stream = required
        locked.save(update_fields=["must_stream"])
        match.must_stream = required
        audit(
            None,
            actor,
            "league.must_stream_set",
            target=match_target(locked),
            before={"must_stream": not required},
            after={"must_stream": required, "status": locked.status},
            comment=reason,
        )
    return locked


def _staff_or_tribunal(actor, season) -> None:
    """League staff (``REVIEW_RESULTS``) or the tribunal (``DECIDE_SANCTIONS``)."""
    perms = season_permissions(actor, season)
    if LeaguePermission.REVIEW_RESULTS not in perms and (
        LeaguePermission.DECIDE_SANCTIONS not in perms
    ):
        raise PermissionDenied


def _unstreamed_locked(match: Match) -> Match:
    """The match locked, checked to be a friendly for lack of its stream link."""

    locked = _locked_match(match)
    if not played_without_stream(locked):
        raise UserError(
            _(
                "Match %(code)s is not a match played without its required stream link: "
                "nothing to replay or add here (correct or annul it instead)."
            )
            % {"code": locked.code}
        )
    return locked


def replay_unstreamed(match: Match, actor, *, reason: str) -> Match:
    """Order a match played without the stream link it needed replayed (ANFPES T24 §1.4
    ¶5–¶6: it "contará como amistoso"; §III.3 allows restarting for a missing broadcast):
    the match goes back to ``scheduled`` — score, posting time, extra time, penalties,
    lineups and bookings cleared; its accepted report stays in the history — and the
    audit log (``league.replay_ordered``) keeps everything it had, cards included
    **[choice: the same fixture, not a ``-r`` replay, so a tie keeps its leg]**.

    League staff (``REVIEW_RESULTS``) or the tribunal (``DECIDE_SANCTIONS``); ``reason``
    required. ``UserError`` (nothing saved) for a match that counts (it has its link, or
    does not need one), or a league whose regular phase is closed."""

    competition = match.competition
    _staff_or_tribunal(actor, competition.season)
    reason = _reason(reason, required=True)
    with transaction.atomic():
        _regular_phase_open(competition)
        locked = _unstreamed_locked(match)
        before = {
            **_state(locked),
            "extra_time": locked.extra_time,
            "penalties": [locked.penalties_home, locked.penalties_away],
            "lineup": locked.lineup,
            "cards": [
                {"team": c["team__code"], "footballer": c["footballer"], "card": c["card"]}
                for c in Card.objects.filter(match=locked).values(
                    "team__code", "footballer", "card"
                )
            ],
        }
        Card.objects.filter(match=locked).delete()
        locked.status = Match.Status.SCHEDULED
        locked.home_goals = locked.away_goals = None
        locked.reported_at = None
        locked.extra_time = None
        locked.penalties_home = locked.penalties_away = None
        locked.lineup = []
        locked.save(
            update_fields=[
                "status",
                "home_goals",
                "away_goals",
                "reported_at",
                "extra_time",
                "penalties_home",
                "penalties_away",
                "lineup",
            ]
        )
        audit(
            None,
            actor,
            "league.replay_ordered",
            target=match_target(locked),
            before=before,
            after=_state(locked),
            comment=reason,
        )
    return locked


def set_stream_link(match: Match, actor, url: str, *, reason: str) -> Match:
    """Add the stream link of a match played without the link it needed (the players
    streamed it but did not report the link): it counts again (ANFPES T24 §1.4 ¶5–¶6).
    ``url``: an http(s) address of at most 500 characters. League staff or the tribunal;
    ``reason`` required; audited ``league.stream_link_set``. ``UserError`` (nothing saved)
    for a bad address, a match that is not such a friendly, or a closed regular phase."""

    competition = match.competition
    _staff_or_tribunal(actor, competition.season)
    reason = _reason(reason, required=True)
    url = (url or "").strip()
    try:
        if len(url) > 500:
            raise ValidationError("too long")
        URLValidator(schemes=["http", "https"])(url)
    except ValidationError:
        raise UserError(
            _("Give the stream link: an http(s) address of at most 500 characters."),
            field="stream_url",
        ) from None
    with transaction.atomic():
        _regular_phase_open(competition)
        locked = _unstreamed_locked(match)
        locked.stream_url = url
        locked.save(update_fields=["stream_url"])
        audit(
            None,
            actor,
            "league.stream_link_set",
            target=match_target(locked),
            before={"stream_url": ""},
            after={"stream_url": url},
            comment=reason,
        )
    return locked
