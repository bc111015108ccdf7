"""The French typography rules measured on prose nobody here wrote (seed 002)."""

from __future__ import annotations

import pytest

from translator.lint import prose

from .conftest import ROOT, shared_dir

SEED = "002_edd54b05ca1c92c3.txt"


@pytest.fixture(scope="module")
def text() -> str:
    shared = shared_dir()
    if shared is None or not (shared / "seeds" / SEED).is_file():
        pytest.skip("../shared/seeds is not next to this checkout (set TRANSLATOR_SHARED)")
    return (shared / "seeds" / SEED).read_text(encoding="utf-8")


def test_the_report_is_up_to_date(text: str) -> None:
    on_disk = (ROOT / "docs" / "lint-typography.md").read_text(encoding="utf-8")
    assert on_disk == prose.report(text, SEED), (
        "regenerate: python -m translator.lint.prose ../shared/seeds/" + SEED
        + " > docs/lint-typography.md")


def test_every_finding_is_judged_and_false_alarms_are_rare(text: str) -> None:
    review = prose.load_review()
    found = prose.lint_prose(text)
    assert len(found) > 100
    verdicts = [prose.verdict(f, review) for f in found]
    assert None not in verdicts, "judge them in glossaries/lint/typography-review.yaml"
    false = sum(1 for v in verdicts if v is not None and v["verdict"] == "false alarm")
    assert false / len(found) < 0.05
    used = {id(v) for v in verdicts}
    assert all(id(item) in used for item in review), "a verdict judges nothing: remove it"


def test_near_misses_of_the_prose(text: str) -> None:
    found = prose.lint_prose(text)
    lines = {f.line for f in found}
    # Timestamps (2021-08-14T15:19:00Z) hold colons between digits: no finding there.
    timestamps = [n for n, line in prose.prose_lines(text) if line.startswith("20")
                  and "T" in line]
    assert len(timestamps) >= 5
    assert not lines & set(timestamps)
    # The one narrow no-break space the pages use is accepted (« NJABCD\u202f: »).
    assert not any(f.text.startswith("NJABCD\u202f: Clarification") and
                   f.finding.code == "FR201" for f in found)


def test_wiki_markup_is_not_prose() -> None:
    lines = dict(prose.prose_lines("==But du jeu==\n* Au moins 1 Oiseau\n"
                                   "{| class=\"wikitable\"\n| style=\"text-align:center;\"|7\n"
                                   "|}\n'''Phase 1''' : poser"))
    assert list(lines.values()) == ["But du jeu", "Au moins 1 Oiseau", "7", "Phase 1 : poser"]
