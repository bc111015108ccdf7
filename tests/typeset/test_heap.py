"""The garbage collector while cards are laid out (translator.heap): young
collections only, the thresholds restored after the last of several blocks, and a
worker's heap collected and frozen after each batch."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lintkit import copy_sample
from translator import heap
from translator.cards import load_library
from translator.pdf.sizes import PRESETS
from translator.typeset.build import build_cards
from translator.typeset.options import BuildOptions
from translator.typeset.workers import in_workers


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_young_collections_only_then_as_before(thresholds: tuple[int, int, int]) -> None:
    frozen = gc.get_freeze_count()  # what others froze before (the spelling checker)
    with heap.fewer_collections():
        assert gc.get_threshold() == (
            heap.YOUNG_THRESHOLD,
            thresholds[1],
            heap.NO_FULL_COLLECTION,
        )
        with heap.fewer_collections():  # nested: still held
            pass
        assert gc.get_threshold()[0] == heap.YOUNG_THRESHOLD
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() <= frozen  # not a worker: nothing frozen (some freed)


def test_blocks_in_several_threads_restore_the_thresholds_once_all_end(
    thresholds: tuple[int, int, int],
) -> None:
    first_in, second_out = threading.Event(), threading.Event()

    def first() -> None:
        with heap.fewer_collections():
            first_in.set()
            second_out.wait(5)
            assert gc.get_threshold()[0] == heap.YOUNG_THRESHOLD  # the other ended

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(5)
    with heap.fewer_collections():
        pass
    second_out.set()
    thread.join(5)
    assert gc.get_threshold() == thresholds


def test_a_worker_collects_and_freezes_at_the_end(thresholds: tuple[int, int, int]) -> None:
    garbage: list[object] = []
    garbage.append(garbage)  # a cycle only a collection frees
    del garbage
    with heap.fewer_collections(worker=True):
        pass
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == thresholds


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_build_workers_heap_is_frozen_after_a_batch(tmp_path: Path) -> None:
    library, _ = load_library([str(copy_sample(tmp_path))])
    frozen = gc.get_freeze_count()
    options = BuildOptions(PRESETS["arcmage"], jobs=2, cache_dir=tmp_path / "cache")
    assert len(build_cards(library, "en", tmp_path / "out", options)) == 24
    # (which worker takes which batch, and these calls, is theirs to decide)
    assert any(count > 0 for count in in_workers(2, [gc.get_freeze_count] * 4))
    assert gc.get_freeze_count() <= frozen  # the build's own process: not frozen
