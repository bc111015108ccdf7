"""What a run keeps for the next one (translator.cache): used only for the very bytes
it was made from, never trusted when unreadable, never in the way when it cannot be
written; the glossaries read through it are the glossaries read afresh."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from translator import cache
from translator.glossary.loader import load_glossary

from .conftest import ROOT


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("TRANSLATOR_CACHE", str(where))
    return where


def counting(value: object) -> tuple[list[int], object]:
    calls: list[int] = []

    def make() -> object:
        calls.append(1)
        return value

    return calls, make


def test_a_kept_value_is_made_once_for_the_same_files(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\n", encoding="utf-8")
    calls, make = counting({"a": [1, 2]})
    first = cache.kept("thing", [data], [], make)
    second = cache.kept("thing", [data], [], make)
    assert first == second == {"a": [1, 2]}
    assert len(calls) == 1
    assert (folder / "thing.pickle").is_file()


def test_new_bytes_are_seen_even_with_the_same_size_and_date(folder: Path, tmp_path: Path) -> None:
    """An editor or a test that saves twice within a clock tick: the date and the
    size are the same, the bytes are not."""
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\n", encoding="utf-8")
    stat = data.stat()
    cache.kept("thing", [data], [], lambda: "one")
    data.write_text("a: 2\n", encoding="utf-8")
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert cache.kept("thing", [data], [], lambda: "two") == "two"
    data.unlink()
    assert cache.kept("thing", [data], [], lambda: "gone") == "gone"


def test_changed_code_starts_afresh(folder: Path, tmp_path: Path) -> None:
    code = tmp_path / "reader.py"
    code.write_text("x = 1\n", encoding="utf-8")
    cache.kept("thing", [], [code], lambda: "old reader")
    code.write_text("x = 22\n", encoding="utf-8")
    assert cache.kept("thing", [], [code], lambda: "new reader") == "new reader"


@pytest.mark.parametrize("content", [b"", b"garbage", b"0" * 64 + b"not a pickle", b"\x80"])
def test_an_unreadable_cache_file_is_made_afresh(
    folder: Path, tmp_path: Path, content: bytes
) -> None:
    cache.kept("thing", [], [], lambda: "first")
    stored = (folder / "thing.pickle").read_bytes()
    (folder / "thing.pickle").write_bytes(stored[:64] + content if content[:1] == b"0" else content)
    assert cache.kept("thing", [], [], lambda: "again") == "again"


def test_no_cache_folder_keeps_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    calls, make = counting("value")
    assert cache.kept("thing", [], [], make) == "value"
    assert cache.kept("thing", [], [], make) == "value"
    assert len(calls) == 2


def test_a_cache_that_cannot_be_written_only_costs_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("TRANSLATOR_CACHE", str(blocker / "cache"))  # under a file
    assert cache.kept("thing", [], [], lambda: [1]) == [1]
    assert cache.kept("unpicklable", [], [], lambda: lambda: 1)() == 1


@pytest.mark.parametrize("lang", ["en", "fr", "eo"])
def test_a_kept_glossary_is_the_glossary_read_afresh(folder: Path, lang: str) -> None:
    fresh, fresh_problems = load_glossary(lang, [str(ROOT / "cards" / "sample")])
    kept, kept_problems = load_glossary(lang, [str(ROOT / "cards" / "sample")])
    assert (folder / f"glossary-{lang}.pickle").is_file()
    assert kept == fresh
    assert kept is not fresh
    assert kept_problems == fresh_problems


def test_a_library_glossary_edited_is_read_again(folder: Path, tmp_path: Path) -> None:
    library = tmp_path / "cards"
    library.mkdir()
    own = library / "glossary.fr.yaml"
    own.write_text("language: fr\nentries: []\n", encoding="utf-8")
    _, problems = load_glossary("fr", [str(library)])
    assert problems == []
    own.write_text("language: eo\nentries: []\n", encoding="utf-8")
    _, problems = load_glossary("fr", [str(library)])
    assert [p.message for p in problems] == ["language 'eo' in a fr glossary"]
