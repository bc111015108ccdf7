"""A file written by translator.atomic.write_file is synced, and so is the rename in
its folder: once per file, or once for a batch of card PDFs (the card build)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lintkit import copy_sample
from translator import atomic
from translator.cards import load_library
from translator.pdf.sizes import PRESETS
from translator.typeset import build
from translator.typeset.options import BuildOptions


@pytest.fixture
def synced(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders synced (each time one is)."""
    folders: list[Path] = []
    monkeypatch.setattr(atomic, "_sync_directory", folders.append)
    return folders


def test_a_file_and_its_folder_are_synced(tmp_path: Path, synced: list[Path]) -> None:
    atomic.write_file(tmp_path / "a.txt", b"a", within=tmp_path)
    assert synced == [tmp_path]
    assert (tmp_path / "a.txt").read_bytes() == b"a"


def test_the_folder_is_synced_when_the_caller_says(tmp_path: Path, synced: list[Path]) -> None:
    for name in ("a.txt", "b.txt"):
        atomic.write_file(tmp_path / name, name.encode(), sync_directory=False, within=tmp_path)
    assert synced == []
    atomic.synced_directory(tmp_path / "b.txt")
    assert synced == [tmp_path]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_a_batch_of_card_pdfs_syncs_its_folder_once(
    tmp_path: Path, synced: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    library, _ = load_library([str(copy_sample(tmp_path))])
    batches: list[Path] = []

    def for_the_batch(target: Path) -> None:
        batches.append(target)
        atomic.synced_directory(target)

    monkeypatch.setattr(build, "synced_directory", for_the_batch)
    out = tmp_path / "out"
    options = BuildOptions(PRESETS["arcmage"], cache_dir=tmp_path / "cache")
    results = build.build_cards(library, "en", out, options, slugs=["courier", "flame-lash"])
    assert all(result.path for result in results) and len(results) == 2
    assert len(batches) == 1 and batches[0].parent == out.resolve()
    assert synced.count(out.resolve()) == 1  # not once per card PDF
