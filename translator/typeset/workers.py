"""The build's worker processes: one pool per job count, kept for the next build,
stopped cleanly on Ctrl-C or when the parent dies.

``ProcessPoolExecutor`` with what a long build needs: workers that ignore the
terminal's Ctrl-C (the parent stops them), die with their parent (Linux's
``PR_SET_PDEATHSIG``), and a way for a long-running client (the watch server) to
stop them all (:func:`stop_workers`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager, suppress
from typing import TypeVar

from ..atomic import owner_alive, work_for

T = TypeVar("T")
_POOLS: dict[int, ProcessPoolExecutor] = {}
#: How often a worker looks whether its build is still running (where the system does
#: not tell it, see :func:`_worker_start`), in seconds.
WATCH_INTERVAL = 0.2


def _pool(jobs: int) -> ProcessPoolExecutor:
    """Worker processes kept for the life of this one: importing WeasyPrint and loading
    fonts costs about half a second a process, paid once however many builds follow."""
    if jobs not in _POOLS:
        _POOLS[jobs] = ProcessPoolExecutor(
            max_workers=jobs,
            initializer=_worker_start,
            initargs=(os.getpid(), threading.main_thread().ident),
        )
    return _POOLS[jobs]


def in_workers(
    jobs: int,
    calls: Sequence[Callable[[], T]],
    done: Callable[[T], object] | None = None,
    stopped: Callable[[], object] | None = None,
) -> list[T]:
    """The results of ``calls`` (picklable: module functions and their arguments), in
    their order, run over the build's worker pool of ``jobs`` processes: the cards'
    batches, and the work the main process would do alone after them (the preflight
    of their PDFs).  ``done`` is given each result as it comes (a progress bar).
    Ctrl-C or a failed call stops the build now, not after the calls queued or
    running: the workers are killed (then ``stopped`` cleans up after them)."""
    futures = []
    try:
        # Workers are forked at the first call: a Ctrl-C waits until they ignore it.
        with _sigint_blocked():
            pool = _pool(jobs)
            futures = [pool.submit(call) for call in calls]
        if done is not None:
            for future in as_completed(futures):
                done(future.result())
        return [future.result() for future in futures]
    except BaseException:
        with _sigint_ignored():
            for future in futures:
                future.cancel()
            if _stop(jobs) and stopped is not None:
                stopped()
        raise


def _stop(jobs: int) -> bool:
    """Kill the workers of the pool of ``jobs`` (if there is one) and wait until they are
    gone; the next build makes a new pool.  True if there was one."""
    pool = _POOLS.pop(jobs, None)
    if pool is None:
        return False
    # ProcessPoolExecutor has no public way to stop its workers before Python 3.14
    # (kill_workers): its processes, by pid.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with suppress(OSError, ValueError):  # gone already, or closed
            process.kill()
    # The pool's own thread sees its workers die, reaps them (so that :func:`sweep`
    # knows they are gone) and ends; shutdown waits for it.
    pool.shutdown(wait=True, cancel_futures=True)
    return True


def worker_pids() -> list[int]:
    """The process ids of every pool's workers (what a benchmark measures the memory
    of)."""
    return [pid for pool in _POOLS.values() for pid in (getattr(pool, "_processes", None) or {})]


def stop_workers() -> None:
    """Stop every pool's worker processes (the next build forks new ones): what a
    long-running client (the watch server) does before it ends."""
    for jobs in list(_POOLS):
        _stop(jobs)


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Ctrl-C (SIGINT) held back in this thread's signal mask until the block ends (then
    raised): processes forked meanwhile start with it blocked (see :func:`_worker_start`),
    threads started meanwhile keep it blocked."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    previous = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored while the block runs (the workers being stopped: a second Ctrl-C
    must not leave them half stopped); Python handles it in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: prctl(2) option: the signal a process gets when the thread that forked it ends.
PR_SET_PDEATHSIG = 1


def _worker_start(build: int, main_thread: int | None) -> None:
    """Tie a worker process to the build that started it (its initializer).

    Ctrl-C is for the build, which stops the workers itself: they ignore it.  A worker
    dies with the build: on Linux the kernel kills it when the build's main thread ends
    (``PR_SET_PDEATHSIG``: the signal is sent when the *thread* that forked the worker
    ends, and ProcessPoolExecutor forks its workers in the thread that submits the
    first batch, so only workers forked by the main thread use it), and a thread looks
    every :data:`WATCH_INTERVAL` whether the build is still there (everywhere else).
    A worker never renames a file into place once the build is gone (:func:`work_for`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    unblock = getattr(signal, "pthread_sigmask", None)
    if unblock is not None:  # blocked by :func:`_run` while it forked this process
        unblock(signal.SIG_UNBLOCK, {signal.SIGINT})
    work_for(build)
    if (
        sys.platform.startswith("linux")
        and os.getppid() == build
        and threading.get_ident() == main_thread
    ):
        _die_with_parent()
    if not owner_alive():  # gone before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch, name="translator-watch-build", daemon=True).start()


def _die_with_parent() -> None:
    import ctypes  # noqa: PLC0415

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the watching thread is enough
        pass


def _watch() -> None:
    while owner_alive():
        time.sleep(WATCH_INTERVAL)
    os._exit(1)
