"""Registered decklists: submitting, entering for a player, the lock, a judge's
correction, who may see a list, the organiser's overview and the published decks
(docs/decks.md; VEKN TR §6.3, JG §3.1.1; Mitos y Leyendas §3.3.2).

The only ORM code of decks. Each save runs in one transaction with the registration row
locked, checks its own permission and writes an audit entry (``events.audit``). What
differs between the games is the ``decks`` adapter of ``events.rulesets``
(``events.deck_checkers``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from events import cache as page_cache
from events import rulesets
from events.access import user_permissions
from events.audit import audit
from events.deck_checkers import DeckVerdict, stored_problems
from events.errors import UserError
from events.limits import check_free_text
from events.models import (
    DECK_TEXT_MAX_LENGTH,
    Deck,
    DeckPlay,
    DeckPublication,
    Event,
    Registration,
    Round,
    Seat,
)
from events.permissions import Permission as P
from standings.services import event_standings

ENTER_PERMISSIONS = frozenset({P.MANAGE_PLAYERS, P.LOG_PENALTIES, P.CONFIRM_PENALTIES})
"""Any of these lets a staff member enter a player's list before it is locked."""

CORRECT_PERMISSIONS = frozenset({P.LOG_PENALTIES, P.CONFIRM_PENALTIES})
"""A judge's permissions: any of these lets a staff member correct a locked list, with a
reason (JG §3.1.1 corrective action)."""


def checker(event):
    """The deck checker of ``event``'s ruleset (``events.deck_checkers``)."""
    return rulesets.of(event).adapter("decks")


def check_text(event, text: str) -> DeckVerdict:
    """Check ``text`` as a list for ``event`` (nothing saved); ``UserError`` for an empty,
    too long or unreadable text."""
    return checker(event).check(text, event)


# ---------------------------------------------------------------- the lock


def has_started(event) -> bool:
    """Whether ``event`` has a round (seated or paired): it has started. One query."""
    return Round.objects.filter(event=event).exists()


def is_locked(event, *, now: datetime.datetime | None = None, started: bool | None = None) -> bool:
    """Whether ``event``'s lists are locked (TR §6.3: once received, the deck may not be
    altered): the event has ended (:func:`has_ended`), its ``decklist_deadline`` has
    passed, or ``decklists_lock_at_start`` is set and the event has started (``started``;
    asked of the database when ``None``)."""
    if has_ended(event):
        return True
    now = now or timezone.now()
    if event.decklist_deadline is not None and now >= event.decklist_deadline:
        return True
    if event.decklists_lock_at_start:
        return has_started(event) if started is None else started
    return False


def has_ended(event) -> bool:
    """The event has ended once its results are approved (then decks may be published)."""
    return bool(event.results_approved)


# ---------------------------------------------------------------- reading


def own_registration(event, user) -> Registration | None:
    """``user``'s registration in ``event`` (through their linked player record), or
    ``None``. One query."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Registration.objects.select_related("person").filter(event=event, person__user=user).first()
    )


def deck_of(registration, label: str = "") -> Deck | None:
    """The registration's deck called ``label`` (``""``: the only deck), or ``None``."""
    return Deck.objects.filter(registration=registration, label=label).first()


def may_view(user, registration) -> bool:
    """The player themselves and the event's staff see a list; nobody else until it is
    published (:func:`published_decks`)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if registration.person.user_id == user.pk:
        return True
    return bool(user_permissions(user, registration.event))


# ---------------------------------------------------------------- saving


def _snapshot(deck: Deck | None) -> dict | None:
    if deck is None:
        return None
    return {
        "label": deck.label,
        "text": deck.text,
        "valid": deck.valid,
        "problems": [p["code"] for p in deck.problems],
        "format": deck.format,
        "version": deck.version,
    }


def _save(registration, text: str, actor, *, label: str, action: str, reason: str = "") -> Deck:
    """Check and store ``text`` as ``registration``'s deck ``label`` (inside the caller's
    transaction, registration locked), with one audit entry ``action``; the same text with
    the same verdict as stored is a no-op (returns the stored deck)."""
    event = registration.event
    verdict = check_text(event, text)
    deck = Deck.objects.select_for_update().filter(registration=registration, label=label).first()
    if (
        deck is not None
        and deck.text == text
        and deck.cards == list(verdict.cards)
        and deck.problems == list(verdict.problems)
        and deck.valid == verdict.valid
        and deck.format == verdict.format
    ):
        # The same list again (a double tap, a form sent twice): nothing changes, so no
        # new version and no audit entry.
        return deck
    before = _snapshot(deck)
    if deck is None:
        deck = Deck(registration=registration, label=label)
    else:
        deck.version += 1
    deck.text = text
    deck.cards = list(verdict.cards)
    deck.problems = list(verdict.problems)
    deck.valid = verdict.valid
    deck.format = verdict.format
    deck.submitted_by = actor if getattr(actor, "is_authenticated", False) else None
    deck.submitted_at = timezone.now()
    deck.save()
    audit(
        event,
        actor,
        action,
        f"{registration.person.name}: {label or _('deck')}",
        before=before,
        after=_snapshot(deck),
        comment=reason,
        about=deck,
    )
    if has_ended(event):
        page_cache.invalidate(event, seating=False)
    return deck


def _locked_registration(registration) -> Registration:
    """The registration row locked (not its person's or event's: ``of=("self",)``)."""
    return (
        Registration.objects.select_for_update(of=("self",))
        .select_related("person", "event")
        .get(pk=registration.pk)
    )


def _clean_text(text) -> str:
    """The list as stored: Windows line breaks made ``\\n``, stripped; ``UserError`` for
    an empty one, a NUL character or more than ``DECK_TEXT_MAX_LENGTH`` characters."""
    text = check_free_text(text, _("Decklist"), limit=DECK_TEXT_MAX_LENGTH, field="text").strip()
    if not text:
        raise UserError(_("Paste your decklist."), field="text")
    return text


def submit_own(registration, text: str, user, *, label: str = "") -> Deck:
    """The player ``user`` registers (or, before the lock, replaces) their own list.

    ``PermissionDenied`` unless ``registration`` is ``user``'s; ``UserError`` once the
    lists are locked (TR §6.3) or for an unreadable text. An invalid list is saved,
    flagged (``valid`` false, its problems stored): it is what the player submitted."""
    text = _clean_text(text)
    with transaction.atomic():
        reg = _locked_registration(registration)
        if not getattr(user, "is_authenticated", False) or reg.person.user_id != user.pk:
            raise PermissionDenied
        if is_locked(reg.event):
            raise UserError(
                _("Decklists are locked (TR §6.3): ask a judge to correct yours."), field="text"
            )
        return _save(reg, text, user, label=label, action="deck.submitted")


def enter_for_player(registration, text: str, actor, perms, *, reason: str = "", label: str = ""):
    """A staff member enters or changes ``registration``'s list.

    Before the lock: any of :data:`ENTER_PERMISSIONS` (``deck.entered``). Once locked: a
    judge's permission (:data:`CORRECT_PERMISSIONS`) and a ``reason`` are required; the
    change is audited as ``deck.corrected`` with the reason (JG §3.1.1's corrective
    action). ``PermissionDenied`` (403) without the permission; ``UserError`` without the
    reason or for an unreadable text."""
    text = _clean_text(text)
    perms = frozenset(perms)
    if not perms & ENTER_PERMISSIONS:
        raise PermissionDenied
    reason = check_free_text(reason, _("reason"), field="reason").strip()
    with transaction.atomic():
        reg = _locked_registration(registration)
        if is_locked(reg.event):
            if not perms & CORRECT_PERMISSIONS:
                raise PermissionDenied
            if not reason:
                raise UserError(
                    _("The list is locked: say why it is corrected (JG §3.1.1)."),
                    field="reason",
                )
            return _save(reg, text, actor, label=label, action="deck.corrected", reason=reason)
        return _save(reg, text, actor, label=label, action="deck.entered", reason=reason)


def import_decks(event, texts: dict[Registration, str], actor=None) -> list[str]:
    """Store the decks of an imported event file (``events.interchange``, inside its
    transaction): ``texts`` maps each registration to its list. Returns the problems
    (``"<code>: deck: message"``) of texts that cannot be read, saving none of them then:
    the caller refuses the whole file."""
    errors = []
    verdicts = {}
    for reg, text in texts.items():
        try:
            texts[reg] = text = _clean_text(text)
            verdicts[reg] = check_text(event, text)
        except UserError as exc:
            errors.append(f"player {reg.code}: deck: {exc.message}")
    if errors:
        return errors
    Deck.objects.bulk_create(
        [
            Deck(
                registration=reg,
                text=texts[reg],
                cards=list(v.cards),
                problems=list(v.problems),
                valid=v.valid,
                format=v.format,
                submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
            for reg, v in verdicts.items()
        ]
    )
    return []


# ---------------------------------------------------------------- organiser's overview


@dataclass(frozen=True)
class DeckRow:
    """One player of the overview: the ``registration`` (person loaded) and its ``deck``
    (``None``: not submitted), with the deck's ``problems`` read back."""

    registration: Registration
    deck: Deck | None

    @property
    def problems(self):
        return stored_problems(self.deck.problems) if self.deck else []


@dataclass(frozen=True)
class DeckOverview:
    """Every competing, not dropped registration of an event with its deck: ``missing``
    (no list), ``invalid`` (a list with problems), ``valid``; ``rows`` all of them by
    name."""

    rows: tuple[DeckRow, ...]

    @property
    def missing(self):
        return [r for r in self.rows if r.deck is None]

    @property
    def invalid(self):
        return [r for r in self.rows if r.deck is not None and not r.deck.valid]

    @property
    def valid(self):
        return [r for r in self.rows if r.deck is not None and r.deck.valid]


def overview(event, label: str = "") -> DeckOverview:
    """The decks of ``event``'s players (deck ``label``), in two queries whatever the
    number of players: registrations with their people, and their decks."""
    regs = (
        Registration.objects.filter(event=event, competing=True)
        .exclude(status=Registration.Status.DROPPED)
        .select_related("person")
        .prefetch_related(Prefetch("decks", queryset=Deck.objects.filter(label=label)))
        .order_by("person__name", "id")
    )
    rows = []
    for reg in regs:
        decks = list(reg.decks.all())
        rows.append(DeckRow(reg, decks[0] if decks else None))
    return DeckOverview(tuple(rows))


# ---------------------------------------------------------------- publication


def _winner_and_finalists(event) -> tuple[int | None, list[int]]:
    """The winner's registration id (VEKN: the final's winner; MyL: the top cut's
    champion) and the finalists' (the final's seats, or the first top-cut round's)."""
    stage = (
        Round.objects.filter(event=event, is_final=True).first()
        or Round.objects.filter(event=event, is_top_cut=True).order_by("number").first()
    )
    finalists = (
        list(Seat.objects.filter(round=stage).values_list("registration_id", flat=True))
        if stage
        else []
    )
    result = event_standings(event)
    winner = getattr(result, "champion", None)  # Mitos y Leyendas: the top cut's champion
    if winner is None:
        rows = getattr(result.standings, "rows", ())
        winner = next((r.player for r in rows if getattr(r, "winner", False)), None)
    return winner, finalists


@dataclass(frozen=True)
class PublishedDeck:
    """A deck on the public event page: ``player`` (``""`` when published anonymously),
    ``place`` ("winner", "finalist" or ""), the ``deck`` and its ``summary`` (counts by
    card type, clan and discipline; ``None`` for a game without one)."""

    player: str
    place: str
    deck: Deck
    summary: object


def published_decks(event) -> list[PublishedDeck]:
    """The decks the organiser chose to publish (``Event.deck_publication``: none, the
    winner's, the finalists', all), attributed or anonymous (``decks_attributed``), once
    the event has ended (:func:`has_ended`); ``[]`` before. Bounded queries: the winner
    and finalists (the standings' four and two), then the decks with their people."""
    choice = event.deck_publication
    if not has_ended(event) or choice == DeckPublication.NONE:
        return []
    winner, finalists = _winner_and_finalists(event)
    decks = Deck.objects.filter(registration__event=event).select_related("registration__person")
    if not event.multideck:  # a multi-deck event publishes each player's every deck
        decks = decks.filter(label="")
    if choice == DeckPublication.WINNER:
        decks = decks.filter(registration_id=winner) if winner else decks.none()
    elif choice == DeckPublication.FINALISTS:
        decks = decks.filter(registration_id__in=finalists)
    spec = checker(event)
    result = []
    for deck in decks.order_by("registration__person__name", "label"):
        reg_id = deck.registration_id
        place = "winner" if reg_id == winner else "finalist" if reg_id in finalists else ""
        result.append(
            PublishedDeck(
                player=deck.registration.person.name if event.decks_attributed else "",
                place=place,
                deck=deck,
                summary=spec.summary(deck.cards) if spec.publishes_summary else None,
            )
        )
    result.sort(key=lambda d: (d.place != "winner", d.place != "finalist"))
    return result


def final_deck(event, registration, final: Round | None = None) -> Deck | None:
    """The deck ``registration`` played in ``event``'s final: in a multi-deck event (TR
    §3.1.5a) the one recorded for the final (``DeckPlay``, ``events.deck_play``), else
    their deck of an ordinary event (label ``""``). ``None`` when there is none."""
    if event.multideck:
        final = final or Round.objects.filter(event=event, is_final=True).first()
        play = (
            DeckPlay.objects.filter(registration=registration, round_number=final.number)
            .select_related("deck")
            .first()
            if final
            else None
        )
        return play.deck if play else None
    return deck_of(registration)


def twd_entry(event: Event) -> str:
    """The winner's deck of a VEKN ``event`` as a Tournament Winning Deck Archive entry
    (``events.deck_rules.twd_entry``; ``export_event --twd``): event, place, date, rounds
    and final, players, winner, deck. ``UserError`` when the ruleset has no TWDA, the event
    has no final or winner, or the winner registered no deck (in a multi-deck event: the
    deck recorded for the final, :func:`final_deck`)."""
    spec = checker(event)
    if not spec.twd:
        raise UserError(_("This game has no Tournament Winning Deck Archive."))
    final = Round.objects.filter(event=event, is_final=True).first()
    if final is None:
        raise UserError(_("The event has no final: there is no winner's deck to write."))
    winner, _finalists = _winner_and_finalists(event)
    if winner is None:
        raise UserError(_("The final has no winner yet."))
    reg = Registration.objects.select_related("person").get(pk=winner)
    deck = final_deck(event, reg, final)
    if deck is None:
        raise UserError(_("The winner, %(name)s, registered no deck.") % {"name": reg.person.name})
    players = (
        Seat.objects.filter(round__event=event, round__is_final=False)
        .values("registration_id")
        .distinct()
        .count()
    )
    rounds = Round.objects.filter(event=event, is_final=False).count()
    return spec.twd_entry(
        deck.cards,
        event=event.name,
        place=event.organisation.name if event.organisation_id else "",
        date=event.date,
        rounds=rounds,
        final=True,
        players=players,
        winner=reg.person.name,
    )
