"""PR101's measure of fit is handed to the linter by its caller (``Options.fit``): the
linter comes before the typesetter and imports none of it.  What the measure says is
what PR101 reports; without one PR101 refuses to run rather than report nothing."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tests.conftest import ROOT
from translator import lint
from translator.diagnostics import REGISTRY
from translator.errors import UsageError
from translator.lint.examples import card_files, lint_files, parse_example

BAD = REGISTRY.get("PR101").bad  # type: ignore[union-attr]


def resources(fit: Any) -> lint.Resources:
    problems: list = []
    found = lint.load_resources(["fr"], lint.Options(fit=fit), problems)
    assert problems == []
    return found


def test_the_findings_are_the_measure_s() -> None:
    asked: list[tuple[str, str]] = []

    def measure(cards: Sequence[tuple[Any, str, Any]]) -> Iterator[tuple[Any, float, float]]:
        asked.extend((card.slug, lang) for card, lang, _ in cards)
        for _, lang, tag in cards:
            if lang == "fr":
                yield tag, 3.25, 0.52

    example = parse_example(BAD)
    found = lint_files(card_files(example), resources(measure), opt_in=["PR101"])
    messages = [f.message for f in found if f.code == "PR101"]
    assert messages == ["the text is 3.2 mm too tall for its box at 52%: shorten it"], found
    assert asked and all(lang in ("en", "fr") for _, lang in asked)


def test_without_a_measure_pr101_says_so() -> None:
    example = parse_example(BAD)
    with pytest.raises(UsageError, match=r"PR101 measures text with the typesetter"):
        lint_files(card_files(example), resources(None), opt_in=["PR101"])


def test_linting_loads_no_typesetter() -> None:
    """The measure the API hands in loads the typesetter when it measures, not before."""
    script = (
        "import sys\n"
        "from translator import api\n"
        "api.lint('cards/sample', languages=['fr'], select=['TR'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('translator.typeset')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
