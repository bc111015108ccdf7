"""The independent corpus (tests/data/independent-corpus): translations written from the
seeds' style guides and lexicons by someone who had not read the linter.

Half of them are correct by every rule of the newest seeds: they must get no finding
at warning or error (a linter that flags correct cards is switched off).  The others
hold one realistic defect each: the rule meant for it (``rules.yaml``, assigned from
the defect's description) must report it.  See the corpus's README.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from translator import cards, lint
from translator.diagnostics import Severity

CORPUS = Path(__file__).resolve().parents[1] / "data" / "independent-corpus"
ANSWERS: dict[str, dict] = yaml.safe_load((CORPUS / "answers.yaml").read_text("utf-8"))
MEANT: dict[str, str] = yaml.safe_load((CORPUS / "rules.yaml").read_text("utf-8"))
CLEAN = sorted(name for name, answer in ANSWERS.items() if answer["verdict"] == "clean")
DEFECTS = sorted(name for name, answer in ANSWERS.items() if answer["verdict"] != "clean")


@pytest.fixture(scope="module")
def by_file() -> dict[str, list[lint.Finding]]:
    library, problems = cards.load_library([str(CORPUS)])
    assert problems == []
    options = lint.Options()
    resources = lint.load_resources(["fr", "eo"], options, problems)
    assert problems == []
    found: dict[str, list[lint.Finding]] = {}
    for finding in lint.lint(library, resources, options).findings:
        found.setdefault(Path(finding.path).name, []).append(finding)
    return found


def _shown(findings: list[lint.Finding]) -> str:
    return "\n".join(f"  {f.line}:{f.column}: {f.code} {f.message}" for f in findings)


def test_the_corpus_is_big_enough() -> None:
    english = list((CORPUS / "cards").glob("*.en.md"))
    french = [n for n in ANSWERS if n.endswith(".fr.md")]
    esperanto = [n for n in ANSWERS if n.endswith(".eo.md")]
    assert len(english) >= 40 and len(french) >= 40 and len(esperanto) >= 24
    assert set(MEANT) == set(DEFECTS)
    assert len(CLEAN) >= len(ANSWERS) // 2 - 5


@pytest.mark.parametrize("name", CLEAN)
def test_a_correct_translation_gets_no_warning(
    by_file: dict[str, list[lint.Finding]], name: str
) -> None:
    loud = [f for f in by_file.get(name, []) if f.severity in (Severity.WARNING, Severity.ERROR)]
    assert not loud, f"false alarms on a correct card:\n{_shown(loud)}"


@pytest.mark.parametrize("name", DEFECTS)
def test_a_defect_is_found_by_its_rule(by_file: dict[str, list[lint.Finding]], name: str) -> None:
    found = by_file.get(name, [])
    assert MEANT[name] in {f.code for f in found}, (
        f"{ANSWERS[name]['class']} ({ANSWERS[name].get('where')}) not found by "
        f"{MEANT[name]}:\n{_shown(found)}"
    )


def test_the_english_cards_are_clean(by_file: dict[str, list[lint.Finding]]) -> None:
    english = [f for name, found in by_file.items() if name.endswith(".en.md") for f in found]
    assert english == []
