"""The Spanish catalogue is complete: every message the code marks for translation has
its Spanish (``make messages`` adds new ones empty), and none is left fuzzy (a guess of
``msgmerge`` that nobody checked)."""

import re
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[1] / "locale" / "es" / "LC_MESSAGES" / "django.po"


def _entries():
    text = CATALOGUE.read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        lines = [ln for ln in block.splitlines() if ln and not ln.startswith("#~")]
        if not any(ln.startswith("msgid ") for ln in lines):
            continue
        yield block, lines


def _strings(lines, key):
    """The concatenated values of ``key`` (``msgid``, ``msgstr``, ``msgstr[0]``…)."""
    values, current = {}, None
    for ln in lines:
        match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', ln)
        if match:
            current = match.group(1)
            values[current] = match.group(2)
        elif ln.startswith('"') and current:
            values[current] += ln[1:-1]
    return {k: v for k, v in values.items() if k.startswith(key)}


def test_every_spanish_message_is_translated_and_none_is_fuzzy():
    untranslated, fuzzy = [], []
    for _block, lines in _entries():
        msgid = _strings(lines, "msgid").get("msgid", "")
        if msgid == "":
            continue  # the header
        if any(ln.startswith("#,") and "fuzzy" in ln for ln in lines):
            fuzzy.append(msgid)
        if any(value == "" for value in _strings(lines, "msgstr").values()):
            untranslated.append(msgid)
    assert not untranslated, f"{len(untranslated)} without Spanish: {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy: {fuzzy[:5]}"
