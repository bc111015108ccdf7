"""The lint corpus (tests/data/lint-corpus): proof that the linter is accurate.

Each broken translation has one defect and must get exactly its rule's code; clean
translations (with near-misses: number words, inflected terms, a typographic minus, a
used ``lint-ignore``) and the English cards must get nothing.  See the corpus's README.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from translator import cards, lint
from translator.diagnostics import REGISTRY

CORPUS = Path(__file__).resolve().parents[1] / "data" / "lint-corpus"
DECK = CORPUS / "broken"

#: Cards the linter gets wrong today: a strict xfail each, until the linter is fixed.
KNOWN_BUGS: dict[str, str] = {}


def _expected() -> tuple[dict[str, str], list[str]]:
    data = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
    clean = list(data.pop("clean"))
    return {str(name): str(code) for name, code in data.items()}, clean


BROKEN, CLEAN = _expected()


def _param(name: str, *values: str) -> pytest.ParameterSet:
    reason = KNOWN_BUGS.get(name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, *values, id=name, marks=marks)


@pytest.fixture(scope="module")
def corpus() -> dict:
    library, problems = cards.load_library([str(CORPUS)])
    loading = list(problems)
    options = lint.Options()
    resources = lint.load_resources(["fr", "eo"], options, problems)
    report = lint.lint(library, resources, options)
    by_file: dict[str, list[lint.Finding]] = {}
    for finding in report.findings:
        by_file.setdefault(Path(finding.path).name, []).append(finding)
    return {
        "library": library,
        "loading": loading,
        "problems": problems,
        "report": report,
        "by_file": by_file,
    }


def _describe(findings: list[lint.Finding]) -> str:
    return "\n".join(f"  {f.path}:{f.line}:{f.column} {f.code} {f.message}" for f in findings)


def test_corpus_loads_without_problems(corpus: dict) -> None:
    assert corpus["loading"] == []
    assert corpus["problems"] == []  # the glossaries and linter data, too


def test_every_translation_is_expected_once() -> None:
    files = {p.name for p in DECK.glob("*.md") if not p.name.endswith(".en.md")}
    listed = set(BROKEN) | set(CLEAN)
    assert not set(BROKEN) & set(CLEAN)
    assert len(CLEAN) == len(set(CLEAN))
    assert files == listed, (
        f"not in expected.yaml: {sorted(files - listed)}; no such file: {sorted(listed - files)}"
    )


def test_deck_lists_every_card_once(corpus: dict) -> None:
    deck = corpus["library"].decks["broken"]
    slugs = {p.name.split(".")[0] for p in DECK.glob("*.en.md")}
    assert set(deck.quantities) == slugs
    assert set(deck.quantities.values()) == {1}


def test_english_sources_have_no_findings(corpus: dict) -> None:
    english = [
        f for name, found in corpus["by_file"].items() if name.endswith(".en.md") for f in found
    ]
    assert english == [], _describe(english)


@pytest.mark.parametrize(
    ("name", "code"), [_param(name, code) for name, code in sorted(BROKEN.items())]
)
def test_broken_card_gets_exactly_its_rule(corpus: dict, name: str, code: str) -> None:
    found = corpus["by_file"].get(name, [])
    assert {f.code for f in found} == {code}, f"expected only {code}:\n{_describe(found)}"


@pytest.mark.parametrize("name", [_param(name) for name in sorted(CLEAN)])
def test_clean_card_gets_nothing(corpus: dict, name: str) -> None:
    found = corpus["by_file"].get(name, [])
    assert found == [], _describe(found)


def test_every_translation_rule_is_proven() -> None:
    families = ("TR", "GL", "LN", "FR", "EO", "SP")
    codes = {r.code for r in REGISTRY.rules() if r.code.startswith(families)}
    assert {code[:2] for code in codes} == set(families), "a rule family is missing"
    missing = sorted(codes - set(BROKEN.values()))
    assert missing == [], f"no broken card for {missing}"


def test_markup_rules_are_proven() -> None:
    markup = {code for code in BROKEN.values() if code.startswith("MK")}
    assert len(markup) >= 5, sorted(markup)


def test_both_languages_are_covered() -> None:
    for lang, least in (("fr", 8), ("eo", 8)):
        assert sum(name.endswith(f".{lang}.md") for name in BROKEN) >= least
        assert any(name.endswith(f".{lang}.md") for name in CLEAN)


def test_fixes_are_strings(corpus: dict) -> None:
    fixed = [f for f in corpus["report"].findings if f.fix is not None]
    assert fixed, "no finding of the corpus carries a fix"
    wrong = [f for f in fixed if not isinstance(f.fix, str)]
    assert wrong == [], _describe(wrong)
