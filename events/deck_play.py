"""Multi-deck events (VEKN TR §3.1.5, §3.1.5a; docs/decks.md "Multi-deck events"): which
registered deck a player plays each round, and the deck each finalist plays in the final.

The decks themselves are registered, checked and locked by ``events.deck_services`` (one
deck per label); this module only records which of them is played when (``DeckPlay``)
and applies ``events.deck_selection`` to the final. Each change runs in one transaction
with the registration row locked, checks its own permission and is audited
(``deck.play_chosen`` by the player, ``deck.play_set`` by a judge, ``deck.final_best``
for the computed best-performing deck with its seed).

A round without a choice **[choice]** counts as played with the deck of the player's
previous round; before any choice, with their only deck if they registered one; else it
counts for no deck and is left out of the best-performing comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from events import deck_selection
from events.audit import audit
from events.deck_services import CORRECT_PERMISSIONS
from events.errors import UserError
from events.limits import check_free_text
from events.models import Deck, DeckPlay, Event, MultiDeck, Registration, Round, Seat
from standings import vekn

# ---------------------------------------------------------------- reading


def open_round(event, rounds=None) -> tuple[int | None, Round | None]:
    """The round whose deck players may still choose, as (its number, the ``Round`` or
    ``None`` when not seated yet): the last round while its seating is neither published
    nor started, else the next one. The final counts only with the free-choice method
    (with the best-performing deck, TR §3.1.5a decides it). ``(None, None)`` when no round
    is open (not a multi-deck event, the final locked). One query unless ``rounds``."""
    if not event.multideck:
        return None, None
    rounds = sorted(rounds if rounds is not None else event.rounds.all(), key=lambda r: r.number)
    last = rounds[-1] if rounds else None
    if last is not None and not last.seating_published and last.started_at is None:
        if last.is_final and event.multideck != MultiDeck.FREE:
            return None, None
        return last.number, last
    if last is not None and last.is_final:
        return None, None
    number = last.number + 1 if last else 1
    is_final = number > event.total_preliminary_rounds
    if is_final and (not event.has_final or event.multideck != MultiDeck.FREE):
        return None, None
    return number, None


def round_locked(rnd: Round | None) -> bool:
    """A round's deck is fixed once its seating is published or it has started."""
    return rnd is not None and (rnd.seating_published or rnd.started_at is not None)


def plays_of(registration) -> dict[int, DeckPlay]:
    """Round number → the ``DeckPlay`` of ``registration`` (deck loaded). One query."""
    return {
        p.round_number: p
        for p in DeckPlay.objects.filter(registration=registration).select_related("deck")
    }


def decks_of(registration) -> list[Deck]:
    """The registration's decks, by label. One query."""
    return list(Deck.objects.filter(registration=registration).order_by("label"))


@dataclass(frozen=True)
class PlayerDecks:
    """One player of the staff's multi-deck overview: the ``registration`` (person
    loaded), their ``decks`` by label and the deck chosen for the open round (``None``)."""

    registration: Registration
    decks: tuple[Deck, ...]
    open_play: DeckPlay | None


def overview(event) -> tuple[int | None, list[PlayerDecks]]:
    """The open round's number and every competing, not dropped player with their decks
    and their choice for it; four queries whatever the number of players."""
    number, _rnd = open_round(event)
    regs = list(
        Registration.objects.filter(event=event, competing=True)
        .exclude(status=Registration.Status.DROPPED)
        .select_related("person")
        .order_by("person__name", "id")
    )
    decks: dict[int, list[Deck]] = {}
    for d in Deck.objects.filter(registration__event=event).order_by("label"):
        decks.setdefault(d.registration_id, []).append(d)
    plays = {}
    if number is not None:
        plays = {
            p.registration_id: p
            for p in DeckPlay.objects.filter(
                registration__event=event, round_number=number
            ).select_related("deck")
        }
    return number, [PlayerDecks(r, tuple(decks.get(r.id, ())), plays.get(r.id)) for r in regs]


# ---------------------------------------------------------------- choosing


def _locked_registration(registration) -> Registration:
    return (
        Registration.objects.select_for_update(of=("self",))
        .select_related("person", "event")
        .get(pk=registration.pk)
    )


def _deck_named(reg, label: str) -> Deck:
    deck = Deck.objects.filter(registration=reg, label=label).first()
    if deck is None:
        raise UserError(
            _("No registered deck is called “%(label)s”.") % {"label": label}, field="deck"
        )
    return deck


def _set(reg, number: int, deck: Deck, actor, *, action: str, reason: str = "") -> DeckPlay:
    play = DeckPlay.objects.filter(registration=reg, round_number=number).first()
    before = {"deck": play.deck.label, "reason": play.reason} if play else None
    if play is None:
        play = DeckPlay(registration=reg, round_number=number)
    play.deck = deck
    play.reason = ""
    play.choice = {"by_judge": True} if action == "deck.play_set" else {}
    play.set_by = actor if getattr(actor, "is_authenticated", False) else None
    play.save()
    audit(
        reg.event,
        actor,
        action,
        f"{reg.person.name}: {_('round')} {number}",
        before=before,
        after={"deck": deck.label, "round": number},
        comment=reason,
        about=play,
    )
    return play


def choose_own(registration, label: str, user) -> DeckPlay:
    """The player ``user`` says which of their decks (``label``) they play in the open
    round (:func:`open_round`). ``PermissionDenied`` unless the registration is theirs;
    ``UserError`` when the event is not multi-deck, no round is open (its seating is
    published or it has started: ask a judge) or no deck of theirs has that label."""
    with transaction.atomic():
        reg = _locked_registration(registration)
        if not getattr(user, "is_authenticated", False) or reg.person.user_id != user.pk:
            raise PermissionDenied
        event = reg.event
        if not event.multideck:
            raise UserError(_("This event is not a multi-deck event."))
        number, rnd = open_round(event)
        if number is None:
            raise UserError(
                _("No round is open for choosing a deck: ask a judge to set it for you."),
                field="deck",
            )
        if rnd is not None and rnd.is_final and reg.id not in (rnd.finalists or []):
            raise UserError(_("You are not a finalist."), field="deck")
        return _set(reg, number, _deck_named(reg, label), user, action="deck.play_chosen")


def set_for_player(
    registration, round_number: int, label: str, actor, perms, *, reason: str = ""
) -> DeckPlay:
    """A judge (:data:`events.deck_services.CORRECT_PERMISSIONS`) sets the deck
    ``registration`` plays in ``round_number``: a round already seated or the open one.
    Once that round's seating is published or it has started, or for a final decided by
    the best-performing deck (TR §3.1.5a), a ``reason`` is required. Audited as
    ``deck.play_set``. ``PermissionDenied`` (403) without the permission; ``UserError``
    for a round not open yet, a missing reason or an unknown deck."""
    if not frozenset(perms) & CORRECT_PERMISSIONS:
        raise PermissionDenied
    reason = check_free_text(reason, _("reason"), field="reason").strip()
    with transaction.atomic():
        reg = _locked_registration(registration)
        event = reg.event
        if not event.multideck:
            raise UserError(_("This event is not a multi-deck event."))
        rounds = {r.number: r for r in event.rounds.all()}
        number, _open = open_round(event, rounds.values())
        if round_number not in rounds and round_number != number:
            raise UserError(_("That round is not open yet."), field="round_number")
        rnd = rounds.get(round_number)
        needs_reason = round_locked(rnd) or (
            rnd is not None and rnd.is_final and event.multideck == MultiDeck.BEST
        )
        if needs_reason and not reason:
            raise UserError(
                _("That round's deck is already fixed: say why it is changed."), field="reason"
            )
        return _set(
            reg, round_number, _deck_named(reg, label), actor, action="deck.play_set", reason=reason
        )


# ---------------------------------------------------------------- the final (TR §3.1.5a)


def _round_scores(event, reg_ids, adjustments) -> dict[int, dict[int, tuple]]:
    """Registration id → preliminary round number → (GW, adjusted VP, TP), for the tables
    where ``reg_ids`` played (``standings.vekn.score_table``). One query."""
    rows = list(
        Seat.objects.filter(
            round__event=event,
            round__is_final=False,
            table__seats__registration_id__in=list(reg_ids),
        )
        .distinct()
        .order_by("table_id", "position")
        .values_list("table_id", "round__number", "registration_id", "vp", "loss")
    )
    tables: dict[int, list] = {}
    for row in rows:
        tables.setdefault(row[0], []).append(row)
    scores: dict[int, dict[int, tuple]] = {}
    for seats in tables.values():
        if len(seats) not in (4, 5) or any(s[3] is None for s in seats):
            continue
        vps = [s[3] + adjustments.get((s[2], s[1]), Decimal(0)) for s in seats]
        for s, vp, score in zip(
            seats, vps, vekn.score_table(vps, [s[4] for s in seats]), strict=True
        ):
            if s[2] in reg_ids:
                scores.setdefault(s[2], {})[s[1]] = (score.gw, max(vp, Decimal(0)), score.tp)
    return scores


def rounds_with_decks(
    scores: dict[int, tuple], plays: dict[int, DeckPlay], decks: list[Deck]
) -> list[deck_selection.RoundScore]:
    """A finalist's preliminary rounds with the deck of each (the module's rule for a
    round without a choice: the previous round's deck, else the only deck, else left
    out)."""
    only = decks[0].label if len(decks) == 1 else None
    current = None
    result = []
    for number in sorted(scores):
        play = plays.get(number)
        if play is not None:
            current = play.deck.label
        label = current if current is not None else only
        if label is None:
            continue
        gw, vp, tp = scores[number]
        result.append(deck_selection.RoundScore(number, label, gw, vp, tp))
    return result


@dataclass
class FinalDeck:
    """A finalist's deck for the final: ``name``; ``deck`` (``None``: not decided yet);
    ``explanation``, the reason in a sentence (TR §3.1.5a's criterion and round, or the
    draw and its seed); ``pending`` when it is still to be chosen or drawn."""

    registration_id: int
    name: str
    deck: Deck | None = None
    explanation: str = ""
    pending: bool = False
    choice: deck_selection.DeckChoice | None = None
    decks: list = field(default_factory=list)


def _choice_json(c: deck_selection.DeckChoice) -> dict:
    return {
        "deck": c.deck_label,
        "round_number": c.round_number,
        "gw": c.gw,
        "vp": str(c.vp),
        "tp": c.tp,
        "reason": c.reason,
        "tied_labels": list(c.tied_labels),
        "seed": c.seed,
        "runner_up": c.runner_up,
    }


def _choice_of(data: dict) -> deck_selection.DeckChoice:
    return deck_selection.DeckChoice(
        deck_label=data["deck"],
        round_number=data["round_number"],
        gw=data["gw"],
        vp=Decimal(data["vp"]),
        tp=data["tp"],
        reason=data["reason"],
        tied_labels=tuple(data.get("tied_labels") or ()),
        seed=data.get("seed"),
        runner_up=data.get("runner_up"),
    )


def explain(play: DeckPlay | None) -> str:
    """Why ``play``'s deck was chosen, as a sentence (TR §3.1.5a's criterion and round, or
    the draw and its seed), for a computed best-performing deck; ``""`` otherwise."""
    if play is None or not play.reason:
        return ""
    return _choice_of(play.choice).explain()


def final_decks(event, result, finalists, final: Round | None = None) -> list[FinalDeck]:
    """Each finalist's deck for the final (``finalists``: registration ids, best seed
    first; ``result``: the event's ``standings.services.EventStandings``): the one recorded
    for the final, else, with the best-performing method, the deck ``deck_selection``
    computes now (a tie says it is drawn when the final starts), else pending. ``[]`` for
    an event that is not multi-deck. Three queries whatever the number of finalists."""
    if not event.multideck or not finalists:
        return []
    ids = set(finalists)
    number = final.number if final else event.total_preliminary_rounds + 1
    decks: dict[int, list[Deck]] = {}
    for d in Deck.objects.filter(registration_id__in=ids).order_by("label"):
        decks.setdefault(d.registration_id, []).append(d)
    plays: dict[int, dict[int, DeckPlay]] = {}
    for p in DeckPlay.objects.filter(registration_id__in=ids).select_related("deck"):
        plays.setdefault(p.registration_id, {})[p.round_number] = p
    scores = _round_scores(event, ids, result.adjustments)
    answer = []
    for reg_id in finalists:
        row = FinalDeck(reg_id, result.players[reg_id].name, decks=decks.get(reg_id, []))
        mine = plays.get(reg_id, {})
        stored = mine.get(number)
        if stored is not None:
            row.deck = stored.deck
            if stored.reason:
                row.choice = _choice_of(stored.choice)
                row.explanation = row.choice.explain()
            elif stored.choice.get("by_judge"):
                row.explanation = _("Set by a judge.")
            else:
                row.explanation = _("Chosen for the final.")
        elif event.multideck == MultiDeck.FREE:
            row.pending = True
            row.explanation = _("The finalist chooses their deck for the final.")
        else:
            rounds = rounds_with_decks(scores.get(reg_id, {}), mine, row.decks)
            row.pending = True
            if not rounds:
                row.explanation = _(
                    "No deck is recorded for any preliminary round: a judge sets the final's deck."
                )
            else:
                choice = deck_selection.best_performing_deck(rounds, seed=0)
                if choice.reason == deck_selection.BY_DRAW:
                    row.explanation = _(
                        "%(decks)s are tied on GW, VP and TP: the deck is drawn at random "
                        "when the final starts."
                    ) % {"decks": ", ".join(choice.tied_labels)}
                else:
                    row.choice = choice
                    row.deck = next(d for d in row.decks if d.label == choice.deck_label)
                    row.explanation = choice.explain()
        answer.append(row)
    return answer


def settle_final(event: Event, result, actor=None) -> list[DeckPlay]:
    """Record the best-performing deck (TR §3.1.5a) of every finalist of ``event``'s final
    who has none recorded yet: computed by ``deck_selection.best_performing_deck`` with a
    fresh seed (``deck_selection.new_seed``) for a tie, stored with the choice and its
    seed, audited ``deck.final_best``. Idempotent (a finalist already decided keeps their
    deck); nothing for the free-choice method, an event not multi-deck or no final yet.
    A finalist without any recorded round is left for a judge."""
    if event.multideck != MultiDeck.BEST:
        return []
    created = []
    with transaction.atomic():
        final = Round.objects.select_for_update().filter(event=event, is_final=True).first()
        if final is None:
            return []
        rows = final_decks(event, result, list(final.finalists), final)
        regs = {
            r.pk: r
            for r in Registration.objects.filter(pk__in=final.finalists).select_related("person")
        }
        plays: dict[int, dict[int, DeckPlay]] = {}
        for p in DeckPlay.objects.filter(registration_id__in=final.finalists).select_related(
            "deck"
        ):
            plays.setdefault(p.registration_id, {})[p.round_number] = p
        scores = _round_scores(event, set(final.finalists), result.adjustments)
        for row in rows:
            if not row.pending:
                continue
            mine = plays.get(row.registration_id, {})
            rounds = rounds_with_decks(scores.get(row.registration_id, {}), mine, row.decks)
            if not rounds:
                continue
            choice = deck_selection.best_performing_deck(rounds, seed=deck_selection.new_seed())
            deck = next(d for d in row.decks if d.label == choice.deck_label)
            play = DeckPlay.objects.create(
                registration_id=row.registration_id,
                round_number=final.number,
                deck=deck,
                reason=choice.reason,
                choice=_choice_json(choice),
                set_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
            audit(
                event,
                actor,
                "deck.final_best",
                f"{regs[row.registration_id].person.name}: {choice.deck_label}",
                after=_choice_json(choice),
                about=play,
            )
            created.append(play)
    return created


def final_deck_of(event, registration) -> DeckPlay | None:
    """The deck recorded for ``registration`` in ``event``'s final, or ``None``."""
    final = Round.objects.filter(event=event, is_final=True).first()
    if final is None:
        return None
    return (
        DeckPlay.objects.filter(registration=registration, round_number=final.number)
        .select_related("deck")
        .first()
    )
