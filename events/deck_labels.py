"""Decklist problems in the reader's language (docs/decks.md).

:mod:`events.deck_rules` and :mod:`events.myl_deck_rules` are pure: a problem carries a
stable ``code``, its ``params`` and an English ``message`` (the API's). The pages show
:func:`problem_label` instead: the same sentence, translated (gettext), from the code and
params, never from the English text. A code without a label shows its English message.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

LABELS = {
    # VEKN (events.deck_rules.MESSAGES).
    "unknown_card": gettext_lazy("line %(line)s: no card is called “%(name)s”"),
    "crypt_too_small": gettext_lazy(
        "the crypt has %(count)s cards; it needs at least %(minimum)s (%(source)s)"
    ),
    "library_too_small": gettext_lazy(
        "the library has %(count)s cards; it needs at least %(minimum)s (%(source)s)"
    ),
    "library_too_large": gettext_lazy(
        "the library has %(count)s cards; it may have at most %(maximum)s (%(source)s)"
    ),
    "crypt_groups": gettext_lazy(
        "the crypt has vampires of groups %(groups)s: a crypt may only mix two "
        "consecutive groups (JG §3.1.1)"
    ),
    "banned": gettext_lazy("%(name)s is banned (TR §4.1.1)"),
    "not_in_format": gettext_lazy("%(name)s is not in the %(format)s card pool (%(source)s)"),
    "not_in_sets": gettext_lazy("%(name)s has no print in the allowed sets: %(sets)s (TR §6.1.1)"),
    # Mitos y Leyendas (events.myl_deck_rules.MESSAGES).
    "unreadable_line": gettext_lazy("line %(line)s: “%(text)s” is not a quantity and a card name"),
    "main_deck_size": gettext_lazy(
        "the main deck has %(count)s cards; it must have exactly %(expected)s"
    ),
    "side_deck_size": gettext_lazy(
        "the side deck has %(count)s cards; it may have at most %(maximum)s"
    ),
    "too_many_copies": gettext_lazy("%(name)s: %(count)s copies; at most %(maximum)s of a card"),
}
"""Problem code → translated message, with ``%(param)s`` placeholders."""


ERROR_LABELS = {
    "empty": gettext_lazy("the decklist is empty"),
    "too_long": gettext_lazy("the decklist is longer than %(limit)s characters"),
    "too_many_lines": gettext_lazy("the decklist has more than %(limit)s lines"),
    "nul": gettext_lazy("the decklist contains a NUL character"),
    "bad_count": gettext_lazy("line %(line)s: “%(text)s”: a card has 1 to 99 copies"),
    "no_card": gettext_lazy("no card could be read from the decklist"),
    "unknown_format": gettext_lazy("unknown format “%(format)s”: use one of %(formats)s"),
    "unknown_set": gettext_lazy("unknown set “%(set)s”"),
}
"""``DeckTextError`` / ``MylDeckTextError`` code → translated message."""


def error_label(error) -> str:
    """A ``DeckTextError`` (or ``MylDeckTextError``) in the active language."""
    label = ERROR_LABELS.get(getattr(error, "code", None))
    if label is None:
        return str(error)
    try:
        return str(label) % dict(error.params)
    except (KeyError, TypeError, ValueError):
        return str(error)


def problem_label(problem) -> str:
    """The problem (a ``DeckProblem`` or ``MylDeckProblem``) in the active language."""
    label = LABELS.get(problem.code)
    if label is None:
        return problem.message
    try:
        return str(label) % dict(problem.params)
    except (KeyError, TypeError, ValueError):
        return problem.message
