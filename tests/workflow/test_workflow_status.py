"""States and staleness: ``translator status``, ``status --diff`` and ``review``.

A library in a real git repository: the English card changes in a commit, and the
old English text is found in the history by the translation's fingerprint.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.lintkit import copy_sample, edit, git_sample, run
from translator.cards import load_library
from translator.workflow import history, states

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(directory: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(directory), *args], check=True, capture_output=True)


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample, committed to a fresh git repository."""
    return git_sample(tmp_path, monkeypatch)


def _states(deck: Path, *langs: str) -> dict[tuple[str, str], dict]:
    args = ["status", str(deck), "--format", "json"]
    for lang in langs:
        args += ["--lang", lang]
    code, output = run(*args)
    assert code == 0
    return {(c["card"], c["lang"]): c for c in json.loads(output)["cards"]}


def test_the_sample_is_translated_and_up_to_date(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    code, output = run("status", str(deck), "--format", "json")
    data = json.loads(output)
    assert code == 0
    assert len(data["cards"]) == 48  # 24 cards, French and Esperanto
    assert {c["state"] for c in data["cards"]} == {"translated"}
    assert set(data["cards"][0]) >= {"card", "guid", "lang", "state", "changed"}
    assert data["summary"]["languages"]["fr"]["translated"] == 24
    assert data["summary"]["decks"]["sample"]["eo"]["stale"] == 0


def test_a_change_makes_exactly_its_translations_stale(repository: Path) -> None:
    deck = repository
    edit(deck / "courier.en.md", "draws one card", "draws two cards")
    _git(deck.parent, "commit", "-qam", "courier draws two")
    found = _states(deck)
    stale = sorted(key for key, card in found.items() if card["state"] == "stale")
    assert stale == [("courier", "eo"), ("courier", "fr")]
    assert found[("courier", "fr")]["changed"] == ["text"]
    code, output = run("status", str(deck), "--lang", "fr")
    assert code == 0
    assert "courier (fr) stale: the English text changed" in output
    assert "fr               0           0          23           0           1" in output


def test_diff_shows_the_english_change_word_by_word(repository: Path) -> None:
    deck = repository
    edit(deck / "courier.en.md", "draws one card", "draws two cards")
    edit(deck / "courier.en.md", "name2: of the Iron Sky", "name2: of the Copper Sky")
    _git(deck.parent, "commit", "-qam", "courier changes")
    code, output = run("status", str(deck), "--diff", "courier", "--lang", "fr")
    assert code == 0
    assert "the English name2 changed" in output
    assert "of the [-Iron-]{+Copper+} Sky" in output
    assert "draws [-one-]{+two+} [-card-]{+cards+}." in output
    code, output = run("status", str(deck), "--diff", "courier", "--lang", "fr", "--format", "json")
    changes = {c["unit"]: c for c in json.loads(output)["changes"]}
    assert changes["text"]["old"].endswith("draws one card.")
    assert changes["text"]["new"].endswith("draws two cards.")
    assert ["-", "one"] in changes["text"]["diff"] and ["+", "two"] in changes["text"]["diff"]
    assert changes["name2"]["revision"]


def test_the_old_text_is_found_however_old(repository: Path) -> None:
    """Two English changes since the translation: the diff starts from the text the
    translation was made from, not from the previous commit."""
    deck = repository
    edit(deck / "courier.en.md", "draws one card", "draws two cards")
    _git(deck.parent, "commit", "-qam", "first")
    edit(deck / "courier.en.md", "draws two cards", "draws three cards")
    _git(deck.parent, "commit", "-qam", "second")
    library, _ = load_library([str(deck)])
    card = library.find("courier")[0]
    (change,) = states.source_changes(card, "fr")
    assert change.old is not None and change.old.endswith("draws one card.")
    assert change.new.endswith("draws three cards.")


def test_without_git_the_old_text_is_unknown(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)  # not a repository
    edit(deck / "courier.en.md", "draws one card", "draws two cards")
    library, _ = load_library([str(deck)])
    card = library.find("courier")[0]
    old = history.old_source(card.source, card.translations["fr"].fields["source"], ["text"])
    assert old.unknown == ["text"] and not old.versions
    code, output = run("status", str(deck), "--diff", "courier", "--lang", "fr")
    assert code == 0 and "not known" in output and "{+" in output


def test_review_refreshes_the_fingerprint_and_marks_the_date(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = repository
    edit(deck / "courier.en.md", "draws one card", "draws two cards")
    edit(deck / "courier.fr.md", "pioche une carte", "pioche deux cartes")
    before = (deck / "courier.fr.md").read_text("utf-8")
    # A stale card is not reviewed unless forced: the review must see the new English.
    code, output = run("review", "courier", "--lang", "fr", "--library", str(deck))
    said = capsys.readouterr().err
    assert code == 1 and "its text changed" in said and "--force" in said, said
    assert (deck / "courier.fr.md").read_text("utf-8") == before
    code, output = run("review", "courier", "--lang", "fr", "--library", str(deck), "--force")
    assert code == 0, output
    assert "marked" in output and "was stale" in output
    after = (deck / "courier.fr.md").read_text("utf-8")
    # Only the fingerprint line changed, a reviewed line and the translation's own
    # fingerprint were added.
    removed = set(before.splitlines()) - set(after.splitlines())
    added = set(after.splitlines()) - set(before.splitlines())
    assert len(removed) == 1 and next(iter(removed)).startswith("source:")
    assert {line.split(":")[0] for line in added} == {
        "source",
        "reviewed",
        "reviewed-fingerprint",
    }
    found = _states(deck, "fr")
    assert found[("courier", "fr")]["state"] == "reviewed"
    assert found[("courier", "fr")]["reviewed"]
    # Once reviewed, the English changing again makes it stale again.
    edit(deck / "courier.en.md", "draws two cards", "draws three cards")
    assert _states(deck, "fr")[("courier", "fr")]["state"] == "stale"


def test_review_refuses_errors_unless_forced(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "pioche une carte", "pioche 7 cartes")  # TR103: an error
    before = (deck / "courier.fr.md").read_bytes()
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(deck))
    assert code == 1 and (deck / "courier.fr.md").read_bytes() == before
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(deck), "--force")
    assert code == 0 and b"reviewed:" in (deck / "courier.fr.md").read_bytes()


def test_review_and_suggest_find_a_card_by_its_file_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --help says a card file path names a card: it does without --library, outside
    # cards/ and however the path is written.
    deck = copy_sample(tmp_path / "library")
    monkeypatch.chdir(tmp_path)
    code, output = run("review", "library/sample/veil-stalker.fr.md", "--lang", "fr", "--dry-run")
    assert code == 0, output
    absolute = str((deck / "veil-stalker.en.md").resolve())
    code, output = run("suggest", absolute, "--lang", "fr", "--format", "json")
    assert code in (0, 1) and json.loads(output)["card"] == "sample/veil-stalker", output
    code, _ = run("review", "./library/sample/nothing.fr.md", "--lang", "fr")
    assert code == 2


def test_review_of_a_missing_translation_is_a_usage_error(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    (deck / "courier.fr.md").unlink()
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(deck))
    assert code == 2
    code, _ = run("review", "no-such-card", "--lang", "fr", "--library", str(deck))
    assert code == 2
    assert _states(deck, "fr")[("courier", "fr")]["state"] == "missing"


def test_word_diff_keeps_punctuation_apart() -> None:
    assert states.word_diff("Draw a card.", "Draw two cards!") == [
        ("=", "Draw "),
        ("-", "a"),
        ("+", "two"),
        ("=", " "),
        ("-", "card."),
        ("+", "cards!"),
    ]


def test_an_output_that_cannot_be_written_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", "utf-8")
    code, _ = run("export", "po", str(deck), "--lang", "fr", "-o", str(blocked / "x.po"))
    assert code == 2
    error = capsys.readouterr().err
    assert str(blocked) in error and "Traceback" not in error


def test_review_dry_run_and_json(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    before = (deck / "courier.fr.md").read_bytes()
    code, output = run("review", "courier", "--lang", "fr", "--library", str(deck), "--dry-run")
    assert code == 0 and "would mark" in output
    assert (deck / "courier.fr.md").read_bytes() == before
    code, output = run(
        "review",
        "courier",
        "mossgate",
        "--lang",
        "fr",
        "--library",
        str(deck),
        "--by",
        "Léa",
        "--format",
        "json",
    )
    data = json.loads(output)
    assert code == 0 and [r["card"] for r in data["reviewed"]] == ["courier", "mossgate"]
    assert all(r["written"] for r in data["reviewed"])
    assert "reviewer: Léa" in (deck / "mossgate.fr.md").read_text("utf-8")
    # A review without --by does not keep an earlier reviewer's name.
    run("review", "mossgate", "--lang", "fr", "--library", str(deck))
    assert "reviewer:" not in (deck / "mossgate.fr.md").read_text("utf-8")
