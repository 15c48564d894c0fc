"""The house rules of docs/architecture.md that a tool can check: every module sits in one
layer of the import contracts (``pyproject.toml``, run by ``lint-imports`` in CI), ruleset
codes are spelled and compared only in the registries, no application file grows past
1,000 lines, and imports inside functions are few and explained."""

import importlib
import pkgutil
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("events", "penalties", "standings", "leagues", "config")


def application_files():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def contracts():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["id"]: c for c in data["tool"]["importlinter"]["contracts"]}


def layer_modules(contract):
    names = []
    for layer in contract["layers"]:
        names += [name.strip() for name in re.split(r"[|:]", layer) if name.strip()]
    return names


def modules_of(package):
    module = importlib.import_module(package)
    yield package
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        if ".migrations" not in info.name:
            yield info.name


@pytest.mark.parametrize("package", ["events", "penalties", "standings"])
def test_every_module_of_the_event_apps_sits_in_exactly_one_layer(package):
    listed = layer_modules(contracts()["layers"])

    def homes(module):
        return [name for name in listed if module == name or module.startswith(name + ".")]

    problems = {}
    for module in modules_of(package):
        if module == package:
            continue
        found = homes(module)
        if len(found) != 1:
            problems[module] = found
    assert problems == {}, "add each module to one layer of [tool.importlinter] in pyproject.toml"


RULESET_CODE = re.compile(r"""["']myl["']""")
RULESET_COMPARISON = re.compile(
    r"""ruleset\s*[!=]=|Ruleset\.(MYL|VEKN)\b|\bis_myl\b|\bis_vekn\b|[!=]=\s*["'](myl|vekn)["']"""
)


def occurrences(pattern):
    found = []
    for path in application_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_the_myl_code_is_spelled_in_at_most_eight_places():
    found = occurrences(RULESET_CODE)
    assert len(found) <= 8, "\n".join(found)


def test_rulesets_are_compared_in_at_most_eight_places():
    found = occurrences(RULESET_COMPARISON)
    assert len(found) <= 8, "\n".join(found)


def test_no_application_file_is_over_a_thousand_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for path in application_files()
        if (n := len(path.read_text().splitlines())) > 1000
    }
    assert long == {}


def test_imports_inside_functions_are_at_most_fifteen_and_each_says_why():
    deferred = occurrences(re.compile(r"noqa: PLC0415"))
    assert len(deferred) <= 15, "\n".join(deferred)
    unexplained = [line for line in deferred if not re.search(r"PLC0415\W+\w", line)]
    assert unexplained == [], "\n".join(unexplained)


CROSS_APP_PRIVATE = re.compile(
    r"^\s*from (events|penalties|standings|leagues)\.[\w.]+ import .*\b_[a-z]\w*"
)


def test_no_private_name_crosses_an_app():
    found = []
    for path in application_files():
        app = path.relative_to(ROOT).parts[0]
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = CROSS_APP_PRIVATE.match(line)
            if match and match.group(1) != app:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_tests_follow_the_code_layout():
    """Tests live in ``tests/<app>/{rules,services,views}/`` (docs/architecture.md "Tests"),
    apart from the settings' tests (``tests/config/``), the browser journeys
    (``tests/browser/``) and these project-wide checks at the top."""
    top = {"test_architecture.py", "test_catalogue.py", "test_docs.py"}
    apps = {"events", "penalties", "standings", "leagues"}
    misplaced = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        parts = path.relative_to(ROOT / "tests").parts
        if len(parts) == 1 and parts[0] in top:
            continue
        if parts[0] in {"config", "browser"} and len(parts) == 2:
            continue
        if len(parts) == 3 and parts[0] in apps and parts[1] in {"rules", "services", "views"}:
            continue
        misplaced.append("/".join(parts))
    assert not misplaced, misplaced


def test_templates_never_compare_rulesets():
    """Templates ask the registry (``{{ event|ruleset_fact:"pairs_matches" }}``,
    ``events/templatetags/ruleset_facts.py``) or read what the view gives (the event
    form's picker iterates the registry) rather than compare codes: none is left."""
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"""ruleset\s*[!=]=\s*["']""", line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert not found, "\n".join(found)
