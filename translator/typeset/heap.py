"""Garbage collection while cards are laid out: young objects only, the rest at the end.

Laying out a batch of cards makes hundreds of thousands of objects (WeasyPrint's boxes
and computed styles, the PDF's objects), nearly all freed by their reference counts,
in a process whose long-lived heap is larger still (fonts, dictionaries, the renderer
and its stylesheets: about 550,000 objects in a worker).  Python's collector runs a
full collection whenever the objects that survived young collections have grown by a
quarter: 8 to 12 times in a batch of 240 French cards, each walking the whole heap,
10-13 ms of CPU a card, a fifth of the build.  During a batch, :func:`batch_collection`
makes young collections rarer (:data:`YOUNG_THRESHOLD`) and leaves full ones out; in a
worker process, the batch's end collects everything once and then freezes what is left
(:func:`gc.freeze`: the long-lived heap is not walked again), so the next batch's
collection walks only what that batch made.  In one process, 240 cards: 55.6-59.3 ->
45.1-47.5 ms of CPU a card, the peak memory the same (about 300 MB).

The cost of freezing: an object alive at a batch's end that later becomes garbage in
a reference cycle is never freed; what a worker keeps from batch to batch is its
caches (a renderer per theme, at most 8; artwork frames; fonts measured), and a
worker lives as long as its pool.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations (less deallocations) between two young collections while cards are laid
#: out; Python's default is 700.
YOUNG_THRESHOLD = 10_000
#: The threshold of full collections while cards are laid out: never reached.
NO_FULL_COLLECTION = 1_000_000_000


class _Held:
    """How many blocks hold the collector, and its thresholds before the first."""

    lock = threading.Lock()
    depth = 0
    saved: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def batch_collection(worker: bool = False) -> Iterator[None]:
    """Collect only young objects while the block runs (blocks may nest or run in
    several threads at once: the collector's thresholds are the process's, set by the
    first and restored by the last).  ``worker``: this is a build's worker process,
    whose heap this module may freeze; it collects and freezes at the block's end."""
    with _Held.lock:
        if _Held.depth == 0:
            _Held.saved = gc.get_threshold()
            gc.set_threshold(YOUNG_THRESHOLD, _Held.saved[1], NO_FULL_COLLECTION)
        _Held.depth += 1
    try:
        yield
    finally:
        with _Held.lock:
            _Held.depth -= 1
            if _Held.depth == 0:
                gc.set_threshold(*_Held.saved)
        if worker:
            gc.collect()
            gc.freeze()
