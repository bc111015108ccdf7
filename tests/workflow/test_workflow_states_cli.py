"""Workflow states that cannot lie: every command that acts on a card's state reads the
one ``status`` shows (:mod:`translator.cards.state`), through the command line, on a
library in git.

- a stale translation or a draft is built with a warning naming the card, language and
  English fields changed (``--strict``: not printed);
- a deck or sheet never holds a card in another language unless asked (``--fallback
  en``, or ``[build] fallback`` in translator.toml), and the summary names it;
- a review vouches for the text it saw: an edit of the translation after it makes the
  card *translated* again (and ``push`` skips it: tests/sync/test_sync_push.py);
- ``review`` refuses a stale card unless forced, and prints the lint after the review;
- the summary's warnings are the warning lines printed, and "every file passes" only
  when the preflight has no warning either.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.lintkit import edit, git_sample, run
from translator.cards.files import parse_card_text
from translator.cards.model import field_hash
from translator.cli.build import _build_summary
from translator.pdf.preflight import Problem
from translator.typeset.batch import Report
from translator.typeset.results import CardResult

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(directory: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(directory), *args], check=True, capture_output=True)


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample committed to a fresh git repository, as a translator's own
    library is; the current directory is the repository (translator.toml goes there)."""
    deck = git_sample(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)
    return deck


def _state(deck: Path, card: str, lang: str) -> dict:
    code, output = run("status", str(deck), "--lang", lang, "--format", "json")
    assert code == 0
    return next(c for c in json.loads(output)["cards"] if c["card"] == card)


def _build(deck: Path, *args: str) -> tuple[int, str]:
    return run("build", str(deck), "--out", str(deck.parent / "out"), "--jobs", "1", *args)


@pytest.mark.parametrize(
    ("lang", "old", "new"),
    [("fr", "draws one card", "draws two cards"), ("eo", "draws one card", "draws two cards")],
)
def test_a_stale_translation_is_built_with_a_warning_or_refused_under_strict(
    library: Path, capsys: pytest.CaptureFixture[str], lang: str, old: str, new: str
) -> None:
    edit(library / "courier.en.md", old, new)
    _git(library.parent, "commit", "-qam", "two cards")
    assert _state(library, "courier", lang)["state"] == "stale"
    code, text = _build(library, "--lang", lang, "--card", "courier", "--force")
    said = capsys.readouterr().err
    warning = f"translator: warning: courier ({lang}): stale: the English text changed"
    assert code == 1 and warning in said, said
    assert "1 warning;" in text and "0 warnings" not in text, text
    pdf = library.parent / "out" / f"courier.{lang}.pdf"
    assert pdf.is_file()
    code, text = _build(library, "--lang", lang, "--card", "courier", "--strict")
    said = capsys.readouterr().err
    assert code == 1 and f"courier ({lang}): stale: " in said and "not printed (--strict)" in said
    assert "1 not printed: stale: courier" in text
    assert not pdf.exists()  # the old text is not left for a printer to find
    # --fail-on error: the warning is said, the exit is 0.
    code, _ = _build(library, "--lang", lang, "--card", "courier", "--fail-on", "error")
    assert code == 0 and "stale" in capsys.readouterr().err


def test_a_draft_is_built_with_a_warning(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(library / "courier.fr.md", "status: Draft\n", "status: Draft\nwip: true\n")
    assert _state(library, "courier", "fr")["state"] == "draft"
    code, text = _build(library, "--lang", "fr", "--card", "courier", "--no-preflight")
    said = capsys.readouterr().err
    assert code == 1 and "courier (fr): a draft (wip: true)" in said, said
    assert "1 warning;" in text
    code, _ = _build(library, "--lang", "fr", "--card", "courier", "--strict", "--no-preflight")
    assert code == 1 and "not printed (--strict)" in capsys.readouterr().err


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_deck_missing_a_translation_is_not_written_unless_the_fallback_is_asked(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (library / "courier.fr.md").unlink()
    out = library.parent / "out"
    code, text = _build(library, "--lang", "fr", "--deck", "--sheets", "a4", "--no-preflight")
    said = capsys.readouterr().err
    assert code == 1
    assert "courier (fr): no fr translation: not printed" in said
    assert "sample.fr.deck.pdf not written: 1 card not printed (courier: no fr translation)" in text
    assert "sample.fr.sheets-a4.pdf not written" in text
    assert not (out / "sample.fr.deck.pdf").exists() and not (out / "courier.fr.pdf").exists()
    code, text = _build(library, "--lang", "fr", "--deck", "--fallback", "en", "--no-preflight")
    assert code == 0, text
    assert "1 printed in English: no translation (courier (fr))" in text
    assert (out / "sample.fr.deck.pdf").is_file()
    # The setting instead of the option: a library that prints English where it lacks a
    # translation says so once, in translator.toml.
    (out / "sample.fr.deck.pdf").unlink()
    (library.parent / "translator.toml").write_text('[build]\nfallback = "en"\n', "utf-8")
    code, text = _build(library, "--lang", "fr", "--deck", "--no-preflight")
    assert code == 0 and "1 printed in English" in text, text
    assert (out / "sample.fr.deck.pdf").is_file()
    (library.parent / "translator.toml").write_text('[build]\nfallback = "de"\n', "utf-8")
    code, _ = _build(library, "--lang", "fr", "--deck", "--no-preflight")
    assert code == 2 and "translator.toml:2" in capsys.readouterr().err


def test_an_edit_after_the_review_is_no_longer_reviewed(library: Path) -> None:
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(library))
    assert code == 0
    assert _state(library, "courier", "fr")["state"] == "reviewed"
    edit(library / "courier.fr.md", "pioche une carte", "pioche deux cartes")
    found = _state(library, "courier", "fr")
    assert found["state"] == "translated" and found["edited"] == ["text"]
    code, text = run("status", str(library), "--lang", "fr")
    assert "courier (fr) translated: its text edited since its review on" in text
    # Undoing the edit gives back the text reviewed: reviewed again.
    edit(library / "courier.fr.md", "pioche deux cartes", "pioche une carte")
    assert _state(library, "courier", "fr")["state"] == "reviewed"
    # A review written by hand (or by an older translator) vouches for no text.
    text = (library / "courier.fr.md").read_text("utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("reviewed-fingerprint")]
    (library / "courier.fr.md").write_text("\n".join(lines) + "\n", "utf-8")
    assert _state(library, "courier", "fr")["state"] == "translated"


def test_review_refuses_a_stale_card_and_prints_the_lint_after_the_review(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No fingerprint at all: the lint before the review says so (TR602); after the
    # review, the fingerprint is written and the lint printed must not say it.
    text = (library / "courier.fr.md").read_text("utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("source:")]
    (library / "courier.fr.md").write_text("\n".join(lines) + "\n", "utf-8")
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(library))
    said = capsys.readouterr().err
    assert code == 0 and "TR602" not in said, said
    edit(library / "courier.en.md", "draws one card", "draws two cards")
    before = (library / "courier.fr.md").read_bytes()
    code, output = run("review", "courier", "--lang", "fr", "--library", str(library))
    said = capsys.readouterr().err
    assert code == 1 and "not reviewed: stale" in said and "its text changed" in said, said
    assert "marked" not in output and (library / "courier.fr.md").read_bytes() == before
    assert _state(library, "courier", "fr")["state"] == "stale"
    edit(library / "courier.fr.md", "pioche une carte", "pioche deux cartes")
    code, output = run("review", "courier", "--lang", "fr", "--library", str(library), "--force")
    said = capsys.readouterr().err
    assert code == 0 and "was stale" in output, output
    assert "TR601" not in said  # the lint of the card as reviewed: no longer stale
    assert _state(library, "courier", "fr")["state"] == "reviewed"


def test_the_summary_counts_the_warning_lines_and_passes_only_without_any() -> None:
    report = Report(languages=["fr"])
    report.cards = [CardResult("courier", "fr", "out/courier.fr.pdf", 1.0, warnings=["w"])]
    report.files = ["out/courier.fr.pdf"]
    report.problems = [
        Problem(f"out/c{n}.fr.pdf", 1, f"c{n}.fr", "reversed", "warning", "small") for n in range(5)
    ]
    line = _build_summary(report, "out")
    assert "6 warnings;" in line and "preflight: 5 warnings in 5 files." in line, line
    assert "every file passes" not in line
    assert report.warning_count == 6 and not report.passes() and report.passes("error")
    report.problems = []
    report.cards[0].warnings.clear()
    line = _build_summary(report, "out")
    assert "0 warnings; preflight: every file passes." in line and report.passes()


def test_a_broken_review_fingerprint_is_named_by_cards_check(library: Path) -> None:
    # A hand edit that breaks the fingerprint would silently change the card's state.
    edit(library / "courier.fr.md", "status: Draft\n", 'status: Draft\nreviewed-fingerprint: "x"\n')
    code, said = run("cards", "check", str(library))
    assert code == 2 and "courier.fr.md:6" in said and "not a review fingerprint" in said, said


def test_a_review_is_of_its_card_language_and_english(library: Path) -> None:
    """A review no longer holds once its ``source`` is set without a review (by hand,
    as TR601 says, or by an import that confirms the text), nor in a copy of the file
    to another language or card."""
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(library))
    assert code == 0 and _state(library, "courier", "fr")["state"] == "reviewed"
    shutil.copy(library / "courier.fr.md", library / "courier.eo.md")  # started from French
    found = _state(library, "courier", "eo")
    assert found["state"] == "translated" and found["edited"] == ["review"], found
    edit(library / "courier.en.md", "draws one card", "draws two cards")
    assert _state(library, "courier", "fr")["state"] == "stale"
    # The fingerprint TR601 gives, written by hand: the French still says one card.
    _, report = run("lint", str(library / "courier.fr.md"), "--format", "json")
    [given] = [f["message"] for f in json.loads(report)["findings"] if f["code"] == "TR601"]
    fresh = given.rsplit('source: "', 1)[1].rstrip('"')
    text = (library / "courier.fr.md").read_text("utf-8")
    (library / "courier.fr.md").write_text(
        "\n".join(
            f'source: "{fresh}"' if line.startswith("source:") else line
            for line in text.splitlines()
        )
        + "\n",
        "utf-8",
    )
    found = _state(library, "courier", "fr")
    assert found["state"] == "translated" and found["edited"] == ["review"], found
    code, text = run("status", str(library), "--lang", "fr")
    assert "its review on" in text and "was of another English card" in text


def test_a_translation_that_would_print_english_is_said_so(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translation without the second name or the card text its English card has
    would print the English one: not printed unless --fallback en; a paragraph left
    as the English wrote it is a warning."""
    text = (library / "courier.fr.md").read_text("utf-8")
    (library / "courier.fr.md").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("name2:")) + "\n",
        "utf-8",
    )
    (library / "flame-lash.fr.md").write_text("---\nname: Fouet\n---\n", "utf-8")
    found = _state(library, "courier", "fr")
    assert found["state"] == "translated" and found["english"] == ["name2"]
    assert _state(library, "flame-lash", "fr")["english"] == ["text"]
    build = ["--lang", "fr", "--card", "courier", "--card", "flame-lash", "--deck"]
    code, text = _build(library, *build, "--no-preflight")
    said = capsys.readouterr().err
    assert code == 1, text
    assert "courier (fr): no second name: the English card's would be printed" in said
    assert "flame-lash (fr): no card text: the English card's would be printed" in said
    assert "sample.fr.deck.pdf not written" in text and "courier: no second name" in text
    code, text = _build(library, *build, "--no-preflight", "--fallback", "en")
    assert code == 0 and "2 printed in English" in text, text
    # An English paragraph left in a translation that is no draft.
    english = (library / "courier.en.md").read_text("utf-8").split("---\n", 2)[2]
    last = english.strip().split("\n\n")[-1]
    edit(library / "mossgate.fr.md", "\n---\n", "\n---\n" + last + "\n\n")
    edit(library / "mossgate.en.md", "\n---\n", "\n---\n" + last + "\n\n")
    found = _state(library, "mossgate", "fr")
    assert found["english"] == ["paragraph 1"], found
    code, text = _build(library, "--lang", "fr", "--card", "mossgate", "--no-preflight")
    said = capsys.readouterr().err
    assert code == 1 and "; paragraph 1 is the English text, unchanged: printed" in said, said


@pytest.mark.parametrize("day", ["2026-13-45", "2099-01-01", "yesterday"])
def test_a_review_date_is_a_day_that_has_been(library: Path, day: str) -> None:
    edit(library / "courier.fr.md", "status: Draft\n", f'status: Draft\nreviewed: "{day}"\n')
    code, said = run("cards", "check", str(library))
    assert code == 2 and "courier.fr.md:6" in said and "is not a review date" in said, said


def test_the_review_sheet_says_a_review_no_longer_holds(library: Path) -> None:
    run("review", "courier", "--lang", "fr", "--library", str(library), "--by", "Ana")
    edit(library / "courier.fr.md", "pioche une carte", "pioche deux cartes")
    out = library.parent / "review"
    code, _ = run("review-sheet", str(library), "--lang", "fr", "--out", str(out), "--no-renders")
    page = (out / "sample.fr.html").read_text("utf-8")
    assert code == 0 and "review of " in page and "by Ana no longer holds: its text edited" in page
    assert (
        'class="reviewed">reviewed' not in page.split('id="card-courier"')[1].split("</header>")[0]
    )


def test_fingerprints_of_eight_digits_a_group_see_what_four_did_not(library: Path) -> None:
    """An independent tester found an English change whose four-digit group is the
    old one's (45,030 tries): a fingerprint written now has eight digits a group and
    sees it; one written with four (the sample's) still compares, by its four."""

    def text_group(path: Path) -> str:
        version = parse_card_text(str(path), "sample", path.read_text("utf-8"), [])
        assert version is not None
        return field_hash(version, "text")

    english = library / "courier.en.md"
    before = text_group(english)
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(library))
    assert code == 0 and _state(library, "courier", "fr")["state"] == "reviewed"
    written = (library / "courier.fr.md").read_text("utf-8")
    assert f"-{before}-" in written and len(before) == 8  # the text's group, in full
    edit(english, "draws one card.", "draws 45030 cards.")
    assert text_group(english)[:4] == before[:4]  # what four digits could not tell
    found = _state(library, "courier", "fr")
    assert found["state"] == "stale" and found["changed"] == ["text"], found
