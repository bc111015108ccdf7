"""Every rule's fixtures and their snapshots (ruff's): what the rule finds, and its fix.

``tests/lint/fixtures/<CODE>/`` holds, for every registered rule, cases it must judge:
``bad`` (its documented bad example), ``good`` (its good one), then cases taken from
its tests and from the lint corpus.  A lint rule's case is a small card set in the
format of the rule examples (``<case>.txt``: ``en:``, ``fr:``, ``fr.name:``, ``---``
between cards, ``settings.<key>:``, see :mod:`translator.lint.examples`); a markup
rule's is card text (``<case>.md``).  Each case is linted by the real engine (every
default rule, and the case's rule if it is opt-in) and its snapshot,
``<case>.snap`` beside it, holds the findings of the case's rule (file, line, column,
code, message, and the line they are on) and, when the rule has a fix, the files as
``--fix`` leaves them.  A snapshot names the spaces a reader cannot see: ``[nbsp]``
(U+00A0), ``[nnbsp]`` (U+202F), ``[thin]`` (U+2009), ``[tab]``, and other invisible
characters by code point (``[U+000C]``).

A changed finding fails the test with the difference.  When the change is meant, run
``UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/lint/test_lint_fixtures.py
--no-write-guard`` (the guard stops tests writing into the checkout) and read
the rewritten snapshots before committing them: a wrong finding in a snapshot is a bug
recorded as the truth.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator import lint, markup
from translator.diagnostics import REGISTRY, Rule, apply_fixes
from translator.lint.examples import card_files, fix_example, lint_example, parse_example
from translator.lint.rule import MARKUP
from translator.lint.spelling import missing_dictionaries

FIXTURES = ROOT / "tests" / "lint" / "fixtures"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"
CASES = sorted(p for p in FIXTURES.glob("*/*") if p.suffix in (".txt", ".md"))


@pytest.fixture(scope="module")
def resources() -> lint.Resources:
    problems: list = []
    from translator.typeset.overflow import overflowing

    found = lint.load_resources(["fr", "eo"], lint.Options(fit=overflowing), problems)
    assert problems == []
    return found


#: Characters a snapshot shows by name: the spaces the typography rules are about.
SHOWN = {"\u00a0": "[nbsp]", "\u202f": "[nnbsp]", "\t": "[tab]", "\u2009": "[thin]"}


def shown(text: str) -> str:
    """``text`` with its invisible spaces named (:data:`SHOWN`), and its other
    invisible characters by code point (``[U+000C]``)."""
    for char, name in SHOWN.items():
        text = text.replace(char, name)
    return "".join(
        f"[U+{ord(c):04X}]" if (ord(c) < 0x20 and c != "\n") or c == "\ufeff" else c for c in text
    )


def _frame(text: str, line: int) -> str:
    lines = text.split("\n")  # not splitlines(): a lone \r is a character to show
    return f"    | {lines[line - 1]}" if 0 < line <= len(lines) else "    |"


def _markup_snapshot(rule: Rule, text: str) -> list[str]:
    found = [d for d in markup.check_text(text) if d.code == rule.code]
    out = ["## findings", ""]
    for d in found:
        out += [f"{d.line}:{d.column}: {d.code} {d.message}", _frame(text, d.line)]
    if not found:
        out.append("(none)")
    if rule.fix is not None and any(d.fix is not None for d in found):
        fixed, _ = apply_fixes(text, found)
        out += ["", "## fixed", "", fixed]
    return out


def _lint_snapshot(rule: Rule, text: str, origin: str, resources: lint.Resources) -> list[str]:
    example = parse_example(text, origin)
    files = card_files(example)
    found = sorted(
        (f for f in lint_example(example, resources, opt_in=[rule.code]) if f.code == rule.code),
        key=lambda f: f.sort_key(),
    )
    out = ["## findings", ""]
    for f in found:
        out += [
            f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}",
            _frame(files.get(f.path, ""), f.line),
        ]
    if not found:
        out.append("(none)")
    if rule.fix is not None and any(f.edit is not None for f in found):
        fixed = fix_example(example, resources, [rule.code])
        out += ["", "## fixed"]
        for path, content in fixed.items():
            if content != files.get(path):
                out += ["", f"### {path}", "", content.rstrip("\n")]
    return out


def snapshot(case: Path, resources: lint.Resources) -> str:
    """What the case's rule finds on it, and what its fix makes of it, as text."""
    rule = REGISTRY.get(case.parent.name)
    assert rule is not None, f"{case.parent.name} is no rule's code"
    text = case.read_bytes().decode("utf-8")  # as written: a case may hold a \r
    origin = str(case.relative_to(ROOT))
    header = [
        f"# {rule.code} {rule.name}: {origin}",
        "# (tests/lint/test_lint_fixtures.py; UPDATE_SNAPSHOTS=1 rewrites it)",
        "",
    ]
    if rule.target == MARKUP.name:
        body = _markup_snapshot(rule, text.removesuffix("\n"))
    else:
        body = _lint_snapshot(rule, text, origin, resources)
    return shown("\n".join(header + body)) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_the_rule_finds_what_its_snapshot_says(case: Path, resources: lint.Resources) -> None:
    if case.parent.name.startswith("SP") and missing_dictionaries():
        pytest.skip("spelling: no Hunspell dictionary installed")
    found = snapshot(case, resources)
    stored = case.with_suffix(".snap")
    if UPDATE:
        stored.write_text(found, "utf-8")
        return
    assert stored.exists(), f"no snapshot {stored}: run with UPDATE_SNAPSHOTS=1, then read it"
    assert found == stored.read_bytes().decode("utf-8")


def test_every_rule_has_its_fixtures() -> None:
    codes = {rule.code for rule in REGISTRY.rules()}
    with_cases = {case.parent.name for case in CASES}
    assert sorted(codes - with_cases) == [], "rules without a fixture in tests/lint/fixtures"
    assert sorted(with_cases - codes) == [], "fixtures of no rule"
    for code in codes:
        names = {p.stem for p in (FIXTURES / code).iterdir()}
        assert {"bad", "good"} <= names, f"{code}: bad and good (its examples) come first"


def test_every_snapshot_has_its_case() -> None:
    snapshots = {p.with_suffix("") for p in FIXTURES.glob("*/*.snap")}
    assert snapshots == {p.with_suffix("") for p in CASES}
