"""The judge's offline tablet (issue 7): the snapshot the tablet keeps, and the sync of
what a judge entered while the venue's network was down.

Every change goes through the existing services (``events.services.save_results``,
``penalties.services.log_penalty``), so the rules, the optimistic locking and the audit
log are the same as on the ordinary pages. Sync is idempotent by the id the tablet
generated for each entry: an incident by ``Penalty.client_id``, a result by
``ResultSubmission.client_id`` (recorded in the same transaction as the result), so a
retry after a lost answer is "already saved", never a second save or a false conflict.
A result entered on a table version that is no longer current is a conflict: nothing is
saved and the current values are returned for the judge to decide.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass, field
from functools import cache

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events import round_clock, rulesets, services, swiss_services
from events.errors import ConflictError, UserError
from events.models import Event, Registration, ResultSubmission, Round, Seat, Table
from events.permissions import Permission as P
from penalties import myl_services
from penalties import services as penalty_services
from penalties.models import Penalty, Timing
from penalties.myl_terms import level_label
from penalties.time_extensions import extension_minutes_by_table
from penalties.vekn_guide import level_text
from standings import vekn

SAVED, DUPLICATE, CONFLICT, INVALID, FORBIDDEN, ERROR = (
    "saved",
    "duplicate",
    "conflict",
    "invalid",
    "forbidden",
    "error",
)
HTTP_STATUS = {
    SAVED: 200,
    DUPLICATE: 200,
    CONFLICT: 409,
    INVALID: 400,
    FORBIDDEN: 403,
    ERROR: 500,
}
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SyncAnswer:
    """The answer to one synced entry: ``status`` (one of the constants above), a message
    for the judge, and details (the penalty given, the table's current values)."""

    id: str
    status: str
    message: str
    details: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"id": self.id, "status": self.status, "message": self.message, **self.details}


def may_use_tablet(perms) -> bool:
    return P.LOG_PENALTIES in perms or P.ENTER_RESULTS in perms


# --------------------------------------------------------------------------- snapshot
def current_round(event: Event) -> Round | None:
    """The round the floor is playing: the last one seated (the final once it exists)."""
    return event.rounds.order_by("-is_final", "-number").first()


def _vp(value) -> str | None:
    return None if value is None else f"{value:.1f}".removesuffix(".0")


def clock_json(current: round_clock.Clock) -> dict:
    """A clock as the tablet's script hands it to ``static/js/clock.js``: ``state`` (one of
    ``events.round_clock.STATES``), ``end`` (running or over: when it reaches 0, ms since
    1970 UTC on the server's clock; else ``None``), ``left`` (whole seconds left; ``None``
    before the start) and ``extension_minutes`` (a table's time extensions, JG §1.2.4)."""
    return {
        "state": current.state,
        "end": current.end_ms,
        "left": current.seconds_left,
        "extension_minutes": current.extension_minutes,
    }


def table_json(
    table: Table, seats: list[Seat], rnd: Round | None = None, clock: dict | None = None
) -> dict:
    """A table as the tablet shows it: VP per seat (VEKN) and games won (Mitos y Leyendas,
    ``games``; ``bye`` for a match with one player); ``round``: its round's number and
    label, so that an entry says "Round 1 · Table 5" once another round is seated;
    ``clock``: the table's :func:`clock_json` (with its extensions), when known."""
    rnd = rnd or table.round
    return {
        "clock": clock,
        "id": table.pk,
        "number": table.number,
        "label": str(table),
        "round": {
            "number": rnd.number,
            "label": rulesets.round_label(rnd),
            "is_final": rnd.is_final,
        },
        "version": table.version,
        "bye": table.is_bye,
        "seats": [
            {
                "position": s.position,
                "registration": s.registration_id,
                "name": s.registration.person.name,
                "vp": _vp(s.vp),
                "games": s.games_won,
                "loss": s.loss,
            }
            for s in seats
        ],
    }


def snapshot(event: Event, perms) -> dict:
    """What the tablet keeps for offline use, in six queries: the current round's tables
    (id, number, version, seats with registration ids, names, VPs, each table's clock with
    its time extensions), the round's clock (``round.clock``, :func:`clock_json`) and the
    server's time (``server_now``, ms since 1970 UTC: the tablet keeps its offset from
    the device's clock, so the countdown goes on offline, docs/offline.md), the event's other
    active participants (for an incident away from a table) and, for judges, the
    infraction catalogue with its questions in the page's language; for VEKN and people
    who may enter results, the legal sheets of 4 and 5 seats (no query). Only what
    ``perms`` allow: no catalogue without LOG_PENALTIES."""
    can_log = P.LOG_PENALTIES in perms
    can_enter = P.ENTER_RESULTS in perms
    rnd = current_round(event)
    now = timezone.now()
    tables: list[dict] = []
    seated: set[int] = set()
    round_json = None
    if rnd is not None:
        timing = rnd.timing()
        extensions = extension_minutes_by_table(rnd)
        by_table: dict[int, list[Seat]] = {}
        for seat in (
            Seat.objects.filter(round=rnd)
            .select_related("registration__person")
            .order_by("table__number", "position")
        ):
            by_table.setdefault(seat.table_id, []).append(seat)
            seated.add(seat.registration_id)
        tables = [
            table_json(
                t,
                by_table.get(t.pk, []),
                rnd,
                clock_json(round_clock.clock(timing, now, extensions.get(t.number, 0))),
            )
            for t in rnd.tables.order_by("number")
        ]
        round_json = {
            "number": rnd.number,
            "label": rulesets.round_label(rnd, event=event),
            "is_final": rnd.is_final,
            "is_top_cut": rnd.is_top_cut,
            "clock": clock_json(round_clock.clock(timing, now)),
        }
    others = []
    if can_log:
        others = [
            {"registration": r.pk, "name": r.person.name}
            for r in event.registrations.select_related("person")
            .exclude(status__in=[Registration.Status.DROPPED, Registration.Status.DISQUALIFIED])
            .order_by("person__name")
            if r.pk not in seated
        ]
    return {
        "event": {"slug": event.slug, "name": event.name, "time_zone": zone_name(event)},
        "ruleset": event.ruleset,
        "best_of": event.best_of if rulesets.of(event).pairs_matches else None,
        "round": round_json,
        "server_now": round_clock.epoch_ms(now),
        "tables": tables,
        # VEKN: the legal sheets of 4 and 5 seats, for the tablet to refuse an impossible
        # complete sheet before queuing it (the server's check stays the authority).
        "legal_sheets": legal_sheets_json()
        if can_enter and not rulesets.of(event).pairs_matches
        else {},
        "others": others,
        "can_log": can_log,
        "can_enter": can_enter,
        "infractions": _CATALOGUES[rulesets.of(event).adapter("penalties")]() if can_log else [],
    }


@cache
def legal_sheets_json() -> dict[str, list[str]]:
    """``standings.vekn.legal_sheets`` of 4 and 5 seats (107 and 546 sheets), each as the
    tablet writes it: the VP of the playing seats in seat order, ``"2,1,1,0"``,
    ``"1.5,0.5,0,1,1"`` (no trailing ``.0``). No query; computed once per process."""
    return {
        str(n): sorted(",".join(_vp(v) for v in sheet) for sheet in vekn.legal_sheets(n))
        for n in vekn.TABLE_SIZES
    }


def zone_name(event: Event) -> str:
    """The event's time zone's IANA name (the tablet formats its times in it, as the
    round page does, whatever the zone of the tablet's browser)."""
    zone = event.zone
    return getattr(zone, "key", None) or str(zone)


def _conditions_json(inf, spanish: bool) -> list[dict]:
    """An infraction's yes/no questions (either ruleset's ``conditions``)."""
    return [
        {
            "name": c.name,
            "question": c.question_es if spanish else c.question,
            "required": c.required,
        }
        for c in inf.conditions
    ]


def myl_catalogue_json() -> list[dict]:
    """The Mitos y Leyendas conduct rules' catalogue with its yes/no questions."""
    spanish = (get_language() or "").startswith("es")
    return [
        {
            "code": inf.code,
            "name": myl_services.infraction_name(inf.code),
            "common": False,
            "baseline": str(inf.first.level),
            "baseline_label": level_label(inf.first.level),
            "conditions": _conditions_json(inf, spanish),
        }
        for inf in myl_services.RULESET.catalogue.values()
    ]


def catalogue_json() -> list[dict]:
    """The VEKN infraction catalogue (common ones first) with its yes/no questions."""
    penalties = penalty_services
    spanish = (get_language() or "").startswith("es")
    common = set(penalties.COMMON_CODES)
    return [
        {
            "code": inf.code,
            "name": inf.name_es if spanish else inf.name,
            "common": inf.code in common,
            "baseline": str(inf.baseline),
            "baseline_label": level_text(inf.baseline),
            "conditions": _conditions_json(inf, spanish),
        }
        for inf in penalties.catalogue()
    ]


# --------------------------------------------------------------------------- sync
def parse_id(value) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        raise UserError(_("This entry has no valid id.")) from None


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise UserError(_("This entry has no valid %(what)s.") % {"what": what})
    return value


CLOCK_SKEW = dt.timedelta(minutes=2)
"""How far ahead of the server's clock a tablet's clock may be: a time logged up to this
much in the future is taken as "now"."""
MAX_OFFLINE_AGE = dt.timedelta(hours=12)
"""An incident logged longer ago than this (or before its round, or the event, existed)
is recorded at the time it arrives: a tablet whose clock is wrong must not date a
sanction record."""


def client_time(event: Event, value, table: Table | None = None) -> dt.datetime | None:
    """When the judge logged an entry on the tablet (``logged_at``, ISO 8601 with its
    offset, as ``Date.toISOString`` gives), if it can be trusted: not later than the
    server's clock plus :data:`CLOCK_SKEW` (clamped to now), not older than
    :data:`MAX_OFFLINE_AGE`, not before the table's round was seated (or the event was
    created). ``None`` otherwise: the entry is then recorded at the time it arrives."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        at = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if timezone.is_naive(at):
        return None
    now = timezone.now()
    if at > now + CLOCK_SKEW:
        return None
    earliest = max(
        now - MAX_OFFLINE_AGE, table.round.created_at if table is not None else event.created_at
    )
    if at < earliest - CLOCK_SKEW:
        return None
    return min(at, now)


def sync(event: Event, item, actor, perms) -> SyncAnswer:
    """Apply one entry of the tablet's queue (a dict decoded from JSON). Never raises: bad
    input answers ``invalid``; a failure of the server itself while applying it (a bug, a
    database error) answers ``error`` (HTTP 500, JSON) for this entry only, with its
    traceback in the server's log (logger ``events.offline``) and nothing of it saved (one
    transaction, rolled back). The tablet then goes on with the entries queued after it
    and shows this one as stuck (docs/offline.md "When the server fails on an entry")."""
    raw_id = item.get("id") if isinstance(item, dict) else None
    shown_id = str(raw_id)[:40] if raw_id is not None else ""
    try:
        with transaction.atomic():
            return _sync(event, item, raw_id, actor, perms)
    except Exception:
        logger.exception(
            "Tablet sync: the server failed on entry %r of event %s (kind %r, user %s)",
            shown_id,
            event.slug,
            item.get("kind") if isinstance(item, dict) else None,
            getattr(actor, "pk", None),
        )
        return SyncAnswer(
            shown_id,
            ERROR,
            _(
                "The server failed on this entry (an error on its side, written to its log): "
                "nothing of it was saved. The entries after it are still sent."
            ),
        )


def _sync(event: Event, item, raw_id, actor, perms) -> SyncAnswer:
    try:
        if not isinstance(item, dict):
            raise UserError(_("An entry must be a JSON object."))
        client_id = parse_id(raw_id)
        kind = item.get("kind")
        if kind == "incident":
            if P.LOG_PENALTIES not in perms:
                return SyncAnswer(str(raw_id), FORBIDDEN, _("You may not log infractions."))
            return sync_incident(event, client_id, item, actor, perms)
        if kind == "result":
            if P.ENTER_RESULTS not in perms:
                return SyncAnswer(str(raw_id), FORBIDDEN, _("You may not enter results."))
            return sync_result(event, client_id, item, actor, perms)
        raise UserError(_("Unknown kind of entry."))
    except UserError as exc:
        # Bad input: nothing of it is kept (the caller's transaction is rolled back too).
        transaction.set_rollback(True)
        return SyncAnswer(str(raw_id)[:40] if raw_id is not None else "", INVALID, str(exc))


def sync_result(event: Event, client_id: uuid.UUID, item: dict, actor, perms) -> SyncAnswer:
    """Save a table result entered offline, once."""
    cid = str(client_id)
    done = ResultSubmission.objects.filter(client_id=client_id).first()
    if done is not None:
        return _already(event, done, cid)
    table = (
        Table.objects.select_related("round")
        .filter(pk=_int(item.get("table"), _("table")), round__event=event)
        .first()
    )
    if table is None:
        raise UserError(_("This table is not part of the event."))
    version = _int(item.get("version"), _("table version"))
    myl = rulesets.of(event).pairs_matches
    values = item.get("games" if myl else "vp")
    if not isinstance(values, list) or len(values) > 5:
        raise UserError(_("Enter one value per seat."))
    values = [v if v is None else str(v)[:20] for v in values]
    try:
        with transaction.atomic():
            if myl:
                games = [swiss_services.parse_games(v) for v in values]
                outcome = swiss_services.save_match_result(
                    table,
                    games,
                    version=version,
                    actor=actor,
                    may_correct=P.OVERRIDE_RESULTS in perms,
                )
                stored, complete = list(games), games[0] is not None
            else:
                vps = [services.parse_vp(v) for v in values]
                outcome = services.save_results(
                    table,
                    vps,
                    version=version,
                    actor=actor,
                    override_reason=str(item.get("override_reason") or ""),
                    may_override=P.OVERRIDE_RESULTS in perms,
                )
                stored, complete = [_vp(v) for v in vps], outcome.check.complete
            ResultSubmission.objects.create(
                client_id=client_id,
                event=event,
                table=table,
                actor=actor if getattr(actor, "is_authenticated", False) else None,
                base_version=version,
                version=outcome.version,
                values=stored,
            )
    except ConflictError as exc:
        # The same entry sent twice at once: the other request saved it meanwhile.
        done = ResultSubmission.objects.filter(client_id=client_id).first()
        if done is not None:
            return _already(event, done, cid)
        return SyncAnswer(cid, CONFLICT, str(exc), {"table": current_table(table)})
    except IntegrityError:
        done = ResultSubmission.objects.filter(client_id=client_id).first()
        if done is None:
            raise
        return _already(event, done, cid)
    message = (_("%(table)s saved.") if complete else _("%(table)s saved (game running).")) % {
        "table": table
    }
    return SyncAnswer(cid, SAVED, message, {"table": current_table(table)})


def _already(event: Event, done: ResultSubmission, cid: str) -> SyncAnswer:
    if done.event_id != event.pk:
        raise UserError(_("This submission belongs to another event."))
    return SyncAnswer(
        cid,
        DUPLICATE,
        _("%(table)s: already saved (this entry was received before).") % {"table": done.table},
        {"table": current_table(done.table)},
    )


def current_table(table: Table) -> dict:
    """The table as it is now (after a save or someone else's change)."""
    table = Table.objects.select_related("round").get(pk=table.pk)
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__person").order_by("position")
    )
    return table_json(table, seats)


def sync_incident(event: Event, client_id: uuid.UUID, item: dict, actor, perms) -> SyncAnswer:
    """Log an incident entered offline, once; the penalty is the guide's, worked out now
    with the player's history as it stands on the server."""
    cid = str(client_id)
    existing = Penalty.objects.filter(client_id=client_id).select_related("person").first()
    if existing is not None:
        if existing.event_id != event.pk:
            raise UserError(_("This submission belongs to another event."))
        return _incident_answer(event, cid, existing, created=False)
    reg = (
        Registration.objects.select_related("person")
        .filter(pk=_int(item.get("registration"), _("player")), event=event)
        .first()
    )
    if reg is None:
        raise UserError(_("This player is not part of the event."))
    table = None
    if item.get("table") is not None:
        table = (
            Table.objects.select_related("round")
            .filter(pk=_int(item.get("table"), _("table")), round__event=event)
            .first()
        )
        if table is None:
            raise UserError(_("This table is not part of the event."))
    answers = item.get("answers") or {}
    if not isinstance(answers, dict) or not all(
        isinstance(k, str) and isinstance(v, bool) for k, v in answers.items()
    ):
        raise UserError(_("Answer each question with yes or no."))
    code = item.get("code")
    if not isinstance(code, str):
        raise UserError(_("Choose an infraction."))
    timing = item.get("timing") or (Timing.DURING_GAME if table else Timing.BETWEEN_ROUNDS)
    penalties = rulesets.of(event).adapter("penalties")
    sent_at = item.get("logged_at")
    logged_at = client_time(event, sent_at, table)
    logged = penalties.log_penalty(
        event,
        reg,
        code[:20],
        answers,
        client_id=client_id,
        actor=actor,
        perms=perms,
        table=table,
        timing=str(timing),
        description=str(item.get("description") or ""),
        logged_at=logged_at,
        again=item.get("again") is True,
    )
    answer = _incident_answer(event, cid, logged.penalty, created=logged.created)
    if logged.created and sent_at is not None and logged_at is None:
        # Not the time the judge's tablet gave (its clock is wrong, or too long ago): say
        # so, the record carries the time it arrived.
        answer = SyncAnswer(
            answer.id,
            answer.status,
            answer.message
            + " "
            + _("The tablet's time could not be used: recorded at the time it arrived."),
            answer.details,
        )
    return answer


def _incident_answer(event: Event, cid: str, penalty, *, created: bool) -> SyncAnswer:
    """The penalty the rules gave, for the judge to see once synced (a replay too)."""
    details = _penalty_json(event, penalty)
    message = _("%(name)s, %(code)s: %(level)s.") % {
        "name": details["person"],
        "code": details["infraction"],
        "level": details["level_label"],
    }
    if details["status"] == "pending":
        message += " " + _("Waiting for the head judge.")
    if not created:
        message += " " + _("Already saved (this entry was received before).")
    return SyncAnswer(cid, SAVED if created else DUPLICATE, message, {"penalty": details})


def _penalty_json(event: Event, p) -> dict:
    return {
        "id": p.pk,
        "person": p.person.name,
        "infraction": p.infraction,
        "level": p.level,
        "level_label": str(p.get_level_display()),
        "offence": p.offence,
        "status": p.status,
        "status_label": str(p.get_status_display()),
        "logged_at": p.created_at.isoformat() if p.created_at else None,
        "url": reverse("manage:penalty", kwargs={"slug": event.slug, "pk": p.pk}),
    }


_CATALOGUES = {penalty_services: catalogue_json, myl_services: myl_catalogue_json}
"""The tablet's catalogue of each penalties adapter (``events.rulesets``)."""
