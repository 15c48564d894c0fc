"""Template filters that make audit entries readable: ``{{ entry.action|action_label }}``
("league.result_confirmed" → "Result confirmed") and ``{{ entry.after|audit_pairs:names }}``
(a JSON object → ``[(key, text)]`` with date-times in the current time zone, and the
players an entry stores by registration id or player code named —
``names`` is the page's ``events.audit.PlayerNames``, loaded once for every entry, so
that a page of 500 entries costs no query per entry; issue 14)."""

import functools
import re
from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from events.models import Event, EventRole, Registration
from penalties.explanations import revert_reason
from penalties.levels import LEVEL_WORDS, TIMING_WORDS

register = template.Library()

ACTION_LABELS = {
    "appeal.decide": _("Appeal: decide"),
    "appeal.in_event": _("Appeal: to the head judge"),
    "appeal.written": _("Appeal: written"),
    "league.regular_phase_closed": _("League: regular phase closed"),
    "penalty.aggression_report": _("Penalty: aggression report"),
    "result.save": _("Result: save"),
    "round.pair": _("Round: pair"),
    "round.repair": _("Round: pair again"),
    "sanction.confirm": _("Sanction: confirmed by the authority"),
    "sanction.create": _("Sanction: create"),
    "sanction.change": _("Sanction: change days"),
    "sanction.escalate": _("Sanction: escalated by the authority"),
    "sanction.lift": _("Sanction: lift"),
    "topcut.pair": _("Top cut: pair"),
    "deck.submitted": _("Deck: submitted by the player"),
    "deck.entered": _("Deck: entered by staff"),
    "deck.corrected": _("Deck: corrected by a judge (JG §3.1.1)"),
    "deck.play_chosen": _("Deck: chosen for a round by the player (TR §3.1.5)"),
    "deck.play_set": _("Deck: set for a round by a judge (TR §3.1.5)"),
    "deck.final_best": _("Deck: the final's best-performing deck (TR §3.1.5a)"),
    "draft.base": _("Draft: base"),
    "draft.lot": _("Draft: lot"),
    "event.create": _("Event: create"),
    "event.force_majeure": _("Event: force majeure"),
    "event.force_majeure_lifted": _("Event: force majeure lifted"),
    "event.import": _("Event: import"),
    "event.replace": _("Event: replace"),
    "event.update": _("Event: update"),
    "event.venue_interference": _("Event: venue interference"),
    "final.create": _("Final: create"),
    "final.first_player": _("Final: first player"),
    "final.ritual": _("Final: ritual"),
    "final.ritual_undo": _("Final: ritual undo"),
    "final.seated": _("Final: seated"),
    "league.adjustment_added": _("League: adjustment added"),
    "league.compliance_conceded": _("League: compliance conceded"),
    "league.deadlines_moved": _("League: deadlines moved"),
    "league.excuse_answered": _("League: excuse answered"),
    "league.excuse_decided": _("League: excuse decided"),
    "league.excuse_replaced": _("League: excuse replaced"),
    "league.excuse_requested": _("League: excuse requested"),
    "league.match_voided": _("League: match voided"),
    "league.refusal_recorded": _("League: refusal recorded"),
    "league.report_accept": _("League: report accept"),
    "league.report_amend": _("League: report amend"),
    "league.report_reject": _("League: report reject"),
    "league.result_confirmed": _("League: result confirmed"),
    "league.result_corrected": _("League: result corrected"),
    "league.result_disputed": _("League: result disputed"),
    "league.result_reported": _("League: result reported"),
    "league.result_withdrawn": _("League: result withdrawn"),
    "league.team_abandoned": _("League: team abandoned"),
    "league.tie_decided": _("League: tie decided"),
    "league.tribunal_decision": _("League: tribunal decision"),
    "league.walkover_recorded": _("League: walkover recorded"),
    "penalty.change": _("Penalty: change"),
    "penalty.confirm": _("Penalty: confirm"),
    "penalty.dq_report": _("Penalty: dq report"),
    "penalty.linked": _("Penalty: linked"),
    "penalty.log": _("Penalty: log"),
    "penalty.reassess": _("Penalty: reassess"),
    "penalty.void": _("Penalty: void"),
    "player.approved": _("Player: approved"),
    "player.check_in_all": _("Players: check in all"),
    "player.check_in_all_undone": _("Players: check in all undone"),
    "player.edit": _("Player: corrected"),
    "player.import": _("Players: list added"),
    "player.merge": _("Player: two records merged"),
    "player.remove": _("Player: removed"),
    "player.checked_in": _("Player: checked in"),
    "player.claim_approved": _("Player: claim approved"),
    "player.claim_rejected": _("Player: claim rejected"),
    "player.disqualified": _("Player: disqualified"),
    "player.dropped": _("Player: dropped"),
    "player.non_competing": _("Player: non competing"),
    "player.pending": _("Player: pending"),
    "player.register": _("Player: register"),
    "player.registered": _("Player: registered"),
    "player.rejected": _("Player: rejected"),
    "results.approve": _("Results: approve"),
    "results.reopen": _("Results: reopen"),
    "review.hold": _("Compliance review: hold"),
    "round.hide": _("Round: hide"),
    "round.pause": _("Round: pause the clock"),
    "round.publish": _("Round: publish"),
    "round.reseat": _("Round: reseat"),
    "round.resume": _("Round: resume the clock"),
    "round.seat": _("Round: seat"),
    "round.start": _("Round: start"),
    "round.swap": _("Round: swap"),
    "season.import": _("Season: import"),
    "season.replace": _("Season: replace"),
    "organisation.create": _("Organisation: create"),
    "organisation.organiser_add": _("Organisation: organiser added"),
    "organisation.organiser_remove": _("Organisation: role removed"),
    "staff.add": _("Staff: add"),
    "staff.remove": _("Staff: remove"),
    "standings.hide": _("Standings: hide"),
    "standings.publish": _("Standings: publish"),
    "standings.toss": _("Standings: toss"),
    "table.extension": _("Table: extension"),
    "table.substitute": _("Table: substitute"),
}
"""Words for the audit action codes (stable codes, see the services' ``audit`` calls)."""

KEY_LABELS = {
    "registrations": _("registrations"),
    "left_out": _("left out"),
    "back": _("back to registered"),
    "check_in_all": _("check in all"),
    "kept": _("kept"),
    "merged": _("merged"),
    "moved": _("moved"),
    "registered": _("registered"),
    "new_people": _("new people"),
    "report": _("report"),
    "step": _("step"),
    "staff": _("staff"),
    "seed": _("seed"),
    "row": _("row"),
    "decisions": _("decisions"),
    "code": _("code"),
    "total": _("total"),
    "paused_seconds": _("seconds paused"),
    "to": _("to"),
    "team": _("team"),
    "tables": _("tables"),
    "status": _("status"),
    "side": _("side"),
    "role": _("role"),
    "reason": _("reason"),
    "preset": _("preset"),
    "points": _("points"),
    "order": _("order"),
    "minutes": _("minutes"),
    "linked_to": _("linked to"),
    "late": _("late"),
    "intentional": _("intentional"),
    "initial": _("initial"),
    "from": _("from"),
    "first_round": _("first round"),
    "finalists": _("finalists"),
    "final": _("final"),
    "entrants": _("entrants"),
    "award": _("award"),
    "agree": _("agree"),
    "account": _("account"),
    "home_goals": _("home goals"),
    "away_goals": _("away goals"),
    "reported_at": _("reported at"),
    "posted_at": _("posted at"),
    "kind": _("kind"),
    "at": _("at"),
    "reaped": _("reaped"),
    "causes": _("causes"),
    "teams": _("teams"),
    "competitions": _("competitions"),
    "matches": _("matches"),
    "generated": _("generated"),
    "level": _("level"),
    "vp": _("vp"),
    "absent": _("absent"),
    "before": _("before"),
    "after": _("after"),
    "name": _("name"),
    "slug": _("slug"),
    "date": _("date"),
    "deadline": _("deadline"),
    "initial_deadline": _("initial deadline"),
    "final_deadline": _("final deadline"),
    "standing": _("standing"),
    "voided": _("voided"),
    "awarded": _("awarded"),
    "comment": _("comment"),
    "infraction": _("infraction"),
    "guide_level": _("guide level"),
    "offence": _("offence"),
    "conditions": _("conditions"),
    "timing": _("timing"),
    "deviation_reason": _("deviation reason"),
    "linked": _("linked"),
    "round": _("round"),
    "override": _("override"),
    "loss_in_round": _("loss in round"),
    "logged_at": _("logged at"),
    "synced_at": _("synced at"),
    "allow_rematches": _("allow rematches"),
    "pair_downs": _("pair-downs"),
    "toss": _("toss"),
    "games": _("games"),
    "also": _("also"),
    "players": _("players"),
    "organiser": _("organiser"),
    "rematches": _("rematches"),
}
"""Words for the keys of the values recorded before and after a change."""

HIDDEN_KEYS = frozenset({"role_id"})
"""Keys an entry stores for the application (``events.staffing`` recognises a second
submission by them), never shown."""

PLAYER_KEYS = frozenset({"tables", "row", "toss", "players", "finalists"})
"""Keys whose values name players by registration id (``round.seat``, ``round.pair``,
``final.ritual``, ``standings.toss``, ``round.swap``) or by player code
(``final.create``, ``topcut.pair``): shown as the players' names."""


VALUE_LABELS = {
    # Penalty timing and levels: the vocabulary's words (penalties.levels, the models'
    # choices); penalty status.
    **{timing.value: word for timing, word in TIMING_WORDS.items()},
    "pending": _("Pending head judge"),
    "confirmed": _("Confirmed"),
    "voided": _("Voided"),
    **{level.value: word for level, word in LEVEL_WORDS.items()},
}
"""Words for stored codes shown as audit values (the same texts as the models' choices)."""


@functools.cache
def _model_words() -> tuple[dict, dict]:
    """Field names → verbose names, and field names → {stored choice code → label}, of the
    event, registration and event role models, for the keys and values of settings and status changes that
    ``KEY_LABELS``/``VALUE_LABELS`` do not list (lazy texts: read in the reader's
    language)."""

    keys, values = {}, {}
    for model in (Event, Registration, EventRole):
        for field in model._meta.concrete_fields:
            keys[field.name] = field.verbose_name
            for code, label in field.choices or ():
                if isinstance(code, str):
                    values.setdefault(field.name, {})[code] = label
    return keys, values


def _choice_label(key, value) -> str:
    """``value`` in words: the label of a model field's stored choice when ``key`` is that
    field (``format``: ``constructed`` → "Constructed"), else :func:`_text`."""
    choices = _model_words()[1].get(str(key), {})
    if isinstance(value, str) and value in choices:
        return str(choices[value])
    return _text(value)


def _key_label(key) -> str:
    key = str(key)
    if key in KEY_LABELS:
        return str(KEY_LABELS[key])
    if key in _model_words()[0]:
        return str(_model_words()[0][key])
    return key.replace("_", " ")


TARGET_PATTERN = re.compile(r"^(?:round (?P<round>\d+)|(?P<final>final)) table (?P<table>\d+)$")


@register.filter
def audit_target(target: str) -> str:
    """An audit entry's target in words: the stored ``round 3 table 2`` / ``final table 1``
    (events.services, penalties.services) in the reader's language; anything else as
    stored."""
    match = TARGET_PATTERN.match(str(target or ""))
    if not match:
        return target
    if match["final"]:
        return _("final, table %(table)s") % {"table": match["table"]}
    return _("round %(round)s, table %(table)s") % {
        "round": match["round"],
        "table": match["table"],
    }


@register.filter
def action_label(code: str) -> str:
    """The action in words (translated), else the last part of its code in words."""
    if code in ACTION_LABELS:
        return str(ACTION_LABELS[code])
    words = str(code or "").rsplit(".", 1)[-1].replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _text(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(_("yes")) if value else str(_("no"))
    if isinstance(value, str):
        if value in VALUE_LABELS:
            return str(VALUE_LABELS[value])
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        if moment.tzinfo is not None and ("T" in value or " " in value):
            # The reader's language's format (docs/i18n.md "Numbers and dates").
            return date_format(timezone.localtime(moment), "DATETIME_FORMAT")
        return value
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{_key_label(k)}: {_text(v)}" for k, v in value.items())
    return str(value)


def _player(value, names) -> str:
    """One player stored by registration id or code, by name when ``names`` knows it."""
    if isinstance(value, bool):
        return _text(value)
    if isinstance(value, int) and value in names.by_id:
        return names.by_id[value]
    if isinstance(value, str) and value in names.by_code:
        return names.by_code[value]
    return _text(value)


def _players(value, names) -> str:
    """The players of a :data:`PLAYER_KEYS` value: a list of players (``row``,
    ``toss``…), or a list of tables, each a list of players (``tables``)."""
    if not isinstance(value, list):
        return _player(value, names)
    if value and all(isinstance(t, list) for t in value):
        return "; ".join(
            _("table %(n)s: %(players)s")
            % {"n": n, "players": ", ".join(_player(p, names) for p in table)}
            for n, table in enumerate(value, start=1)
        )
    return ", ".join(_player(p, names) for p in value)


@register.filter
def audit_pairs(value, names=None) -> list[tuple[str, str]]:
    """``[(key, readable value)]`` of a JSON object; a non-object gives one pair with an
    empty key; nothing for ``None``. With ``names`` (``events.audit.PlayerNames``) the
    players of :data:`PLAYER_KEYS` are named; :data:`HIDDEN_KEYS` are left out."""
    if value is None or value == {}:
        return []
    if isinstance(value, dict):
        return [
            (
                _key_label(k),
                _players(v, names) if names and k in PLAYER_KEYS else _choice_label(k, v),
            )
            for k, v in value.items()
            if k not in HIDDEN_KEYS
        ]
    return [("", _text(value))]


@register.filter
def audit_comment(comment: str) -> str:
    """An entry's comment as the reader should read it: an appeal's revert ("Reverted on
    written appeal: …", stored in the decider's language) in the reader's language
    (``penalties.explanations.revert_reason``), any other comment as written."""
    return revert_reason(comment or "")
