"""Deck checks (JG §3.1.2; docs/decks.md, "Deck checks"): the head judge chooses
players of a round, at random or by hand; a judge counts each deck against its registered
list and records whether it matches. A mismatch opens the incident flow (``penalties``)
pre-filled by :func:`incident_prefill`: JG §3.1.1 (Illegal Decklist) when the registered
list is itself illegal, JG §3.1.2 when a legal list does not match the deck; for Mitos y
Leyendas §3.3.2, or §3.3.1 / §3.3.3 as the judge found (registry facts of
``events.rulesets``).

The random choice is reproducible: ``random.Random(seed).sample(candidates, count)`` where
``candidates`` are the registration ids of the round's seated players not already chosen
in that round, in increasing order. The seed is stored on each chosen row and the audit
entry ``deck_check.drawn`` holds the seed, the candidates and the chosen ids, so anyone can
replay the draw. The only ORM code of deck checks; every change is audited.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from events import rulesets
from events.audit import audit
from events.deck_checkers import stored_problems
from events.deck_selection import new_seed
from events.errors import UserError
from events.limits import check_free_text
from events.models import Deck, DeckCheck, Registration, Round, Seat
from events.permissions import Permission as P

CHOOSE_PERMISSIONS = frozenset({P.CONFIRM_PENALTIES})
"""Choosing players for a deck check: the head judge's permission."""

RECORD_PERMISSIONS = frozenset({P.LOG_PENALTIES, P.CONFIRM_PENALTIES})
"""Seeing the checks and recording an outcome: any judge of the event."""

MAX_DRAW = 20
"""At most this many players drawn at once."""


def _require(perms, needed) -> None:
    if not frozenset(perms) & needed:
        raise PermissionDenied


def draw(candidates: list[int], count: int, seed: int) -> list[int]:
    """The reproducible draw: ``count`` ids (at most all of them) out of ``candidates``
    sorted, with ``random.Random(seed).sample``; the result keeps the draw's order."""
    pool = sorted(candidates)
    return random.Random(seed).sample(pool, min(count, len(pool)))


def _seated(round_: Round) -> list[int]:
    return list(
        Seat.objects.filter(round=round_).values_list("registration_id", flat=True).distinct()
    )


def _locked_round(round_: Round) -> Round:
    """The round locked, with its event read in the same query; ``UserError`` once the
    event's results are approved (JG §1.2.5: a check then could only lead to a penalty
    the approved results no longer take; reopen them first)."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if rnd.event.results_approved:
        raise UserError(_("The event's results are approved: reopen them first."))
    return rnd


def choose_random(round_: Round, count: int, actor, perms, *, seed: int | None = None):
    """Draw ``count`` (1..:data:`MAX_DRAW`) of ``round_``'s seated players not already
    chosen in it, with ``seed`` (a fresh :func:`events.deck_selection.new_seed` when
    ``None``). Returns the new :class:`DeckCheck` rows, in draw order.

    The page's form carries the seed it was rendered with, so a draw sent twice (a double
    tap, a resent form) is drawn once: when the round already has checks drawn with
    ``seed``, those rows are returned and nothing is drawn or audited again.
    ``PermissionDenied`` without :data:`CHOOSE_PERMISSIONS`; ``UserError`` for a bad
    count, once the results are approved, or when every seated player is already
    chosen."""
    _require(perms, CHOOSE_PERMISSIONS)
    if not isinstance(count, int) or not 1 <= count <= MAX_DRAW:
        raise UserError(
            _("Choose between 1 and %(max)d players.") % {"max": MAX_DRAW}, field="count"
        )
    seed = new_seed() if seed is None else seed
    with transaction.atomic():
        rnd = _locked_round(round_)
        already = list(
            DeckCheck.objects.filter(round=rnd, chosen_by=DeckCheck.ChosenBy.RANDOM, seed=seed)
        )
        if already:
            return already
        taken = set(DeckCheck.objects.filter(round=rnd).values_list("registration_id", flat=True))
        candidates = sorted(set(_seated(rnd)) - taken)
        if not candidates:
            raise UserError(
                _("Every seated player of this round already has a deck check."), field="count"
            )
        chosen = draw(candidates, count, seed)
        rows = [
            DeckCheck(
                event=rnd.event,
                round=rnd,
                registration_id=reg_id,
                chosen_by=DeckCheck.ChosenBy.RANDOM,
                seed=seed,
                requested_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
            for reg_id in chosen
        ]
        DeckCheck.objects.bulk_create(rows)
        audit(
            rnd.event,
            actor,
            "deck_check.drawn",
            _("Round %(number)d: deck checks drawn") % {"number": rnd.number},
            after={"seed": seed, "count": count, "candidates": candidates, "chosen": chosen},
            about=rnd,
        )
    return rows


def choose_by_hand(round_: Round, registration: Registration, actor, perms) -> DeckCheck:
    """Choose ``registration`` (seated in ``round_``) for a deck check. ``PermissionDenied``
    without :data:`CHOOSE_PERMISSIONS`; ``UserError`` if they are not seated in the round
    or already chosen in it, or once the results are approved."""
    _require(perms, CHOOSE_PERMISSIONS)
    with transaction.atomic():
        rnd = _locked_round(round_)
        if registration.event_id != rnd.event_id or registration.pk not in _seated(rnd):
            raise UserError(_("This player is not seated in this round."), field="registration")
        if DeckCheck.objects.filter(round=rnd, registration=registration).exists():
            raise UserError(
                _("This player already has a deck check in this round."), field="registration"
            )
        check = DeckCheck.objects.create(
            event=rnd.event,
            round=rnd,
            registration=registration,
            chosen_by=DeckCheck.ChosenBy.HAND,
            requested_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        audit(
            rnd.event,
            actor,
            "deck_check.chosen",
            f"{registration.person.name}: " + _("round %(number)d") % {"number": rnd.number},
            after={"registration": registration.pk, "round": rnd.number},
            about=check,
        )
    return check


def record_outcome(check: DeckCheck, outcome: str, actor, perms, *, note: str = "") -> DeckCheck:
    """Record that ``check``'s deck matches (``match``) or does not match (``mismatch``)
    its registered list, with an optional ``note``; a recorded outcome may be changed
    (each change audited as ``deck_check.recorded`` with before and after).
    ``PermissionDenied`` without :data:`RECORD_PERMISSIONS`; ``UserError`` for another
    outcome, a too long note or once the results are approved."""
    _require(perms, RECORD_PERMISSIONS)
    if outcome not in (DeckCheck.Outcome.MATCH, DeckCheck.Outcome.MISMATCH):
        raise UserError(_("Say whether the deck matches its list."), field="outcome")
    note = check_free_text(note, _("note"), field="note").strip()
    with transaction.atomic():
        row = (
            DeckCheck.objects.select_for_update(of=("self",))
            .select_related("registration__person", "round", "event")
            .get(pk=check.pk)
        )
        if row.event.results_approved:
            raise UserError(_("The event's results are approved: reopen them first."))
        before = {"outcome": row.outcome, "note": row.note}
        row.outcome = outcome
        row.note = note
        row.judge = actor if getattr(actor, "is_authenticated", False) else None
        row.decided_at = timezone.now()
        row.save()
        audit(
            row.event,
            actor,
            "deck_check.recorded",
            f"{row.registration.person.name}: "
            + _("round %(number)d") % {"number": row.round.number},
            before=before,
            after={"outcome": row.outcome, "note": row.note},
            comment=note,
            about=row,
        )
    return row


@dataclass(frozen=True)
class CheckRow:
    """One deck check on the round's page: the row, the player's table number (``None``
    if no longer seated) and their registered deck (``None`` without one)."""

    check: DeckCheck
    table_number: int | None
    table_id: int | None
    deck: Deck | None


def round_checks(round_: Round) -> list[CheckRow]:
    """The deck checks of ``round_`` with each player's table and registered list (the
    deck labelled ``""``, else their first by label). Three queries."""
    checks = list(
        DeckCheck.objects.filter(round=round_).select_related("registration__person", "judge")
    )
    reg_ids = [c.registration_id for c in checks]
    tables = {
        s.registration_id: (s.table.number, s.table_id)
        for s in Seat.objects.filter(round=round_, registration_id__in=reg_ids).select_related(
            "table"
        )
    }
    decks: dict[int, Deck] = {}
    for d in Deck.objects.filter(registration_id__in=reg_ids).order_by("registration", "label"):
        decks.setdefault(d.registration_id, d)
    return [
        CheckRow(
            c,
            tables.get(c.registration_id, (None, None))[0],
            tables.get(c.registration_id, (None, None))[1],
            decks.get(c.registration_id),
        )
        for c in checks
    ]


def tables_in_progress(round_: Round) -> set[int]:
    """The table numbers of ``round_`` where a deck check is pending (one query)."""
    pending = DeckCheck.objects.filter(round=round_, outcome=DeckCheck.Outcome.PENDING)
    return set(
        Seat.objects.filter(
            round=round_, registration_id__in=pending.values("registration_id")
        ).values_list("table__number", flat=True)
    )


DESCRIPTION_MAX = 1000
"""The pre-filled incident description is cut to this many characters."""


def incident_prefill(check: DeckCheck, finding: str = "") -> dict[str, object]:
    """The query of the incident flow (``manage:incident-new``) a failed ``check`` opens:
    ``{"reg", "code", "table", "description"}`` (``table`` only while the player is seated
    in the check's round, ``code`` omitted when the ruleset names none).

    The code, from the ruleset's facts: ``finding`` when it is one of its
    ``deck_check_findings`` (MyL §3.3.1, §3.3.3); else ``illegal_decklist_infraction``
    when the registered list is illegal or missing (JG §3.1.1; MyL §3.3.2); else
    ``deck_mismatch_infraction`` (a legal list the deck does not match: JG §3.1.2; MyL
    §3.3.2). The description says the round, the list's problems and the judge's note.
    Two queries."""
    spec = rulesets.of(check.event)
    deck = (
        Deck.objects.filter(registration_id=check.registration_id)
        .order_by("label")
        .only("valid", "problems", "label")
        .first()
    )
    illegal = deck is None or not deck.valid
    findings = dict(spec.deck_check_findings)
    if finding in findings:
        code = finding
        what = str(findings[finding])
    elif illegal and spec.illegal_decklist_infraction:
        code = spec.illegal_decklist_infraction
        what = (
            _("no registered list")
            if deck is None
            else _("the registered list is illegal: %(problems)s")
            % {"problems": "; ".join(p.label for p in stored_problems(deck.problems))}
        )
    else:
        code = spec.deck_mismatch_infraction
        what = _("the deck does not match its legal registered list")
    description = _("Deck check, round %(number)d: %(what)s.") % {
        "number": check.round.number,
        "what": what,
    }
    if check.note:
        description += " " + check.note
    query: dict[str, object] = {"reg": check.registration_id}
    if code:
        query["code"] = code
    seat = Seat.objects.filter(round_id=check.round_id, registration_id=check.registration_id)
    if (table_id := seat.values_list("table_id", flat=True).first()) is not None:
        query["table"] = table_id
    query["description"] = description[:DESCRIPTION_MAX]
    return query
