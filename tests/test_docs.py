"""Docs you can navigate (issue 13): code cites only what is in the repository, and every
path and section that docs and code name exists. No database.

- (a) Application and test code cites no file from outside the repository (the specs,
  contracts and style guide the project started from); a translatable string (a msgid, user-visible) is
  left as it is, so it is not counted.
- (b) Every repository path written in ``docs/*.md`` and ``README.md`` exists, and every
  relative link of a docs page leads to a file.
- (c) Every ``docs/<page>.md`` the code cites exists; a section it cites
  (``docs/contracts.md §2``) is a numbered heading of that page (``## 2. …``), and a heading
  it quotes (``docs/leagues.md "Tables"``) is the beginning of one of its headings.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CODE_DIRS = ("events", "penalties", "standings", "leagues", "config", "tests", "bench")
SKIP = {"migrations", "__pycache__", "locale", "templates"}
GETTEXT = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
# Spelled in two pieces so that this file does not cite them itself.
OUTSIDE = re.compile(
    "SPEC" r"-(?:events|penalties|leagues)|" "CONTRACTS" r"(?:\s*§|\.md)|" "STYLE" r"(?: \"|\.md)"
)
TOP_DIRS = ("events", "penalties", "standings", "leagues", "config", "tests", "bench", "docs")
TOP_DIRS += ("templates", "static", "locale")
REPO_PATH = re.compile(r"(?<![\w./<>-])(?:" + "|".join(TOP_DIRS) + r")/[\w./*-]*[\w*/]")
DOCS_CITE = re.compile(
    r"docs/([\w-]+\.md)`{0,2}(?:(?P<sec>\s*§\s?\d+(?:\s*(?:,|–|-|and)\s*§\s?\d+)*)"
    r"|,?\s+(?P<q>[\"'])(?P<head>[^\"'§]+?)(?P=q))?"
)

MORE_HEADS = re.compile(r"(?:,| to|–) ?(?P<q>[\"'])(?P<head>[^\"'§]+?)(?P=q)")


def code_files(suffixes=(".py",)):
    for d in CODE_DIRS:
        for p in sorted((ROOT / d).rglob("*")):
            if p.is_file() and p.suffix in suffixes and not SKIP & set(p.relative_to(ROOT).parts):
                yield p


def msgid_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the gettext calls of ``text`` (their strings are msgids)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def pos(lineno, col_bytes):
        line = lines[lineno - 1]
        return starts[lineno - 1] + len(line.encode()[:col_bytes].decode(errors="ignore"))

    spans = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call):
            f = node.func
            name = getattr(f, "id", None) or getattr(f, "attr", None)
            if name in GETTEXT:
                spans.append(
                    (pos(node.lineno, node.col_offset), pos(node.end_lineno, node.end_col_offset))
                )
    return spans


def headings(page: Path) -> list[str]:
    """The headings of ``page``, each also without its number ("4. Cache" and "Cache"), and
    its bold paragraph labels ("**Account claims**"), which code may quote too."""
    out, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.+)", line)):
            head = " ".join(m.group(1).split())
            out += [head, re.sub(r"^\d+\. ", "", head)]
        elif not fenced and (m := re.match(r"\s*(?:[-*] )?\*\*([^*]+)\*\*", line)):
            out.append(m.group(1).strip())
    return out


def test_code_cites_no_file_outside_the_repository():
    found = []
    for p in code_files((".py", ".md")):
        text = p.read_text(encoding="utf-8")
        spans = msgid_spans(text) if p.suffix == ".py" else []
        for m in OUTSIDE.finditer(text):
            if not any(a <= m.start() < b for a, b in spans):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{p.relative_to(ROOT)}:{line}: {m.group(0)}")
    assert not found, "cite the rulebook or a docs/ page instead:\n" + "\n".join(found)


def test_the_check_sees_comments_and_docstrings_but_not_msgids():
    text = (
        "from django.utils.translation import gettext as _\n"
        '"""Doc ('
        "SPEC"
        '-leagues §2)."""\n'
        'X = _("Shown ('
        "SPEC"
        '-leagues §9).")  # '
        "CONTRACTS"
        " §5\n"
    )
    spans = msgid_spans(text)
    outside = [m for m in OUTSIDE.finditer(text) if not any(a <= m.start() < b for a, b in spans)]
    assert len(outside) == 2 and len(list(OUTSIDE.finditer(text))) == 3


def doc_pages():
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: p.name)
def test_every_repository_path_in_the_docs_exists(page):
    text = page.read_text(encoding="utf-8")
    missing = []
    for m in REPO_PATH.finditer(text):
        path = m.group(0).rstrip(".")
        if not list(ROOT.glob(path.rstrip("/"))):
            missing.append(path)
    for m in re.finditer(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        if not (page.parent / target).exists():
            missing.append(f"link {target}")
    assert not missing, f"{page.name} names what does not exist: {sorted(set(missing))}"


def test_every_docs_page_and_section_the_code_cites_exists():
    pages = {p.name: headings(p) for p in (ROOT / "docs").glob("*.md")}
    bad = []
    files = [*code_files(), ROOT / "pyproject.toml", ROOT / "Makefile"]
    for p in files:
        text = " ".join(p.read_text(encoding="utf-8").split())
        text = re.sub(r" ?# ", " ", text)  # comments continued on the next line
        for m in DOCS_CITE.finditer(text):
            page, where = m.group(1), f"{p.relative_to(ROOT)}: {m.group(0)}"
            if page not in pages:
                bad.append(f"{where}: no docs/{page}")
                continue
            for number in re.findall(r"\d+", m.group("sec") or ""):
                if not any(h.startswith(f"{number}. ") for h in pages[page]):
                    bad.append(f"{where}: docs/{page} has no section {number}")
            heads = [m.group("head")] if m.group("head") else []
            end = m.end()
            while heads and (more := MORE_HEADS.match(text, end)):
                heads.append(more.group("head"))
                end = more.end()
            for head in heads:
                if not any(h.startswith(head) for h in pages[page]):
                    bad.append(f"{where}: docs/{page} has no heading starting {head!r}")
    assert not bad, "\n".join(bad)
