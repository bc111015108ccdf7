"""Helpers shared by the lint tests: one translated card linted in memory, its fixes
applied, a copy of the sample library to break, the command line."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from translator import lint
from translator.cards.files import parse_card_text
from translator.cards.model import Library, source_fingerprint
from translator.cards.state import version_fingerprint
from translator.cli import main
from translator.lint.engine import DEFAULT_SETTINGS, Resources
from translator.lint.fixes import fix_file

from .conftest import ROOT

SAMPLE = ROOT / "cards" / "sample"


def lint_card(
    resources: Resources,
    options: lint.Options,
    english: str,
    text: str,
    *,
    lang: str,
    name: str = "Carte",
    english_name: str = "Card",
    subtype: str | None = None,
    english_subtype: str | None = None,
    settings: dict | None = None,
) -> list[lint.Finding]:
    """The findings on one translation (``lang``) of an English card with these texts."""
    library = Library()
    front = f"name: {english_name}\ntype: Creature\nfaction: Gaian\n"
    if english_subtype:
        front += f"subtype: {english_subtype}\n"
    source = parse_card_text("deck/card.en.md", "deck", f"---\n{front}---\n{english}\n", [])
    assert source is not None
    library.add(source)
    translation_front = f"name: {name}\n" + (f"subtype: {subtype}\n" if subtype else "")
    translation_front += f'source: "{source_fingerprint(source)}"\n'
    problems: list = []
    translation = parse_card_text(
        f"deck/card.{lang}.md", "deck", f"---\n{translation_front}---\n{text}\n", problems
    )
    assert translation is not None and not problems, problems
    library.add(translation)
    resources.settings = {**DEFAULT_SETTINGS, **(settings or {})}
    return lint.lint(library, resources, options).findings


def apply_text_fixes(findings: list[lint.Finding], text: str, lang: str) -> str:
    """``text`` (a card text) once the fixes of ``findings`` on it are applied."""
    content = f"---\nname: Carte\n---\n{text}\n"
    file = parse_card_text(f"deck/card.{lang}.md", "deck", content, [])
    assert file is not None
    done = fix_file(
        file, content, [f.edit for f in findings if f.edit is not None and f.edit.key == "text"]
    )
    assert done is not None
    return done[0].split("---\n", 2)[2].rstrip("\n")


def codes(findings: list[lint.Finding]) -> list[str]:
    return [f.code for f in findings]


def copy_sample(tmp_path: Path) -> Path:
    """A copy of the sample deck to break."""
    target = tmp_path / "sample"
    shutil.copytree(SAMPLE, target)
    return target


def git_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample deck committed to a fresh git repository in ``tmp_path``
    (a translator's own library: ``status --diff`` reads its history), with a
    committer of its own whatever the machine's git configuration."""
    for key, value in (
        ("GIT_AUTHOR_NAME", "t"),
        ("GIT_AUTHOR_EMAIL", "t@example.org"),
        ("GIT_COMMITTER_NAME", "t"),
        ("GIT_COMMITTER_EMAIL", "t@example.org"),
        ("GIT_CONFIG_GLOBAL", "/dev/null"),
    ):
        monkeypatch.setenv(key, value)
    deck = copy_sample(tmp_path)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "sample"]):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    return deck


def stamp_reviews(folder: Path) -> None:
    """Give each translation of ``folder`` that says ``reviewed:`` the fingerprint a
    review takes (``translator review`` writes it; a fixture written by hand has the
    date only, which is no review: translator.cards.state)."""
    for path in sorted(folder.rglob("*.md")):
        text = path.read_text("utf-8")
        if "\nreviewed:" not in text or "\nreviewed-fingerprint:" in text:
            continue
        version = parse_card_text(str(path), path.parent.name, text, [])
        assert version is not None, path
        line = f'reviewed-fingerprint: "{version_fingerprint(version)}"\n'
        start = text.index("\nreviewed:") + 1
        end = text.index("\n", start) + 1
        path.write_text(text[:end] + line + text[end:], "utf-8")


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` of a file (which must hold it) by ``new``."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def run(*args: str) -> tuple[int, str]:
    """The command line's exit code and standard output."""
    out = io.StringIO()
    code = main(list(args), out)
    return code, out.getvalue()
