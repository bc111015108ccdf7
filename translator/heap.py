"""Garbage collection in a step that makes many objects: young collections only, rare.

Parsing a library's cards (the linter) and laying out a batch of cards (the build) make
hundreds of thousands of objects, nearly all freed by their reference counts, in a
process whose long-lived heap is larger still (fonts, dictionaries, the renderer and
its stylesheets: about 550,000 objects in a build worker).  Python's collector scans
the young objects every 700 allocations (which more than doubles the time to parse a
card), and the whole heap whenever what survived young collections has grown by a
quarter: 8 to 12 times in a batch of 240 French cards, 10-13 ms of CPU a card, a fifth
of the build.  Inside :func:`fewer_collections` young collections come every
:data:`YOUNG_THRESHOLD` allocations and full ones not at all; in a build's worker
process, the batch's end collects everything once and then freezes what is left
(:func:`gc.freeze`: that long-lived heap is never walked again), so that the next
batch's collection walks only what that batch made.  In one process, 240 cards:
55.6-59.3 -> 45.1-47.5 ms of CPU a card, the peak memory the same (about 300 MB);
over 48 batches of 40 cards a worker stays at 132-136 MB.

The cost of freezing: an object alive at a batch's end that later becomes garbage in
a reference cycle is never freed; what a worker keeps from batch to batch is its
caches (a renderer per theme, at most 8; fonts measured), and it lives as long as its
pool.  Nothing here unfreezes: what the spelling checker froze stays frozen.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations (less deallocations) between two young collections inside
#: :func:`fewer_collections`; Python's default is 700.
YOUNG_THRESHOLD = 100_000
#: The threshold of full collections inside :func:`fewer_collections`: never reached.
NO_FULL_COLLECTION = 1_000_000_000


class _Held:
    """How many blocks hold the collector, and its thresholds before the first."""

    lock = threading.Lock()
    depth = 0
    saved: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def fewer_collections(worker: bool = False) -> Iterator[None]:
    """Collect only young objects, rarely, while the block runs (blocks may nest or run
    in several threads at once: the collector's thresholds are the process's, set by
    the first and restored by the last).  ``worker``: this is a build's worker process,
    whose heap may be frozen; it collects and freezes at the block's end."""
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
