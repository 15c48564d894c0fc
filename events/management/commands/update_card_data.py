"""``manage.py update_card_data FILE [--sets FILE]``: store newer VTES card data.

docs/decks.md "Card data": FILE is a krcg card list (the ``vtes.json`` of krcg's static
data, downloaded by the operator); ``--sets`` its expansions (``expansions.json``). Both
are checked by building a card index from them, then written into ``CARD_DATA_DIR`` as
``cards.json`` / ``sets.json``, replacing the previous files at once. Processes started
afterwards use them instead of the data krcg packages; nothing is ever fetched.
``--clear`` removes the stored files (back to krcg's packaged data).
"""

import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from events import deck_rules


def _write_atomically(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Command(BaseCommand):
    help = (
        "Store a krcg card list (vtes.json) and optionally its expansions (expansions.json) "
        "as the VTES card data used to check decklists (docs/decks.md 'Card data')."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="a krcg card list (vtes.json)")
        parser.add_argument("--sets", help="krcg's expansions list (expansions.json)")
        parser.add_argument(
            "--clear", action="store_true", help="remove the stored data (use krcg's packaged data)"
        )

    def handle(self, *args, file=None, sets=None, clear=False, **options):
        data_dir = Path(settings.CARD_DATA_DIR)
        if clear:
            for name in (deck_rules.CARDS_FILE, deck_rules.SETS_FILE):
                (data_dir / name).unlink(missing_ok=True)
            deck_rules.set_card_data_dir(data_dir)
            self.stdout.write("Removed the stored card data: krcg's packaged data is used.")
            return
        if not file:
            raise CommandError("give a card file (or --clear)")
        try:
            cards_bytes = Path(file).read_bytes()
            sets_bytes = Path(sets).read_bytes() if sets else None
        except OSError as error:
            raise CommandError(f"cannot read {error.filename}: {error.strerror}") from None
        try:
            cards = deck_rules.cards_from_json(cards_bytes, sets_bytes)
        except ValueError as error:
            raise CommandError(str(error)) from None
        _write_atomically(data_dir / deck_rules.CARDS_FILE, cards_bytes)
        if sets_bytes is not None:
            _write_atomically(data_dir / deck_rules.SETS_FILE, sets_bytes)
        deck_rules.set_card_data_dir(data_dir)
        self.stdout.write(
            f"Stored {len(cards)} cards in {data_dir / deck_rules.CARDS_FILE}; "
            "restart the application to use them."
        )
