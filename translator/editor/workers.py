"""The language server's worker threads: work that can be dropped or stopped.

The protocol runs on the event loop; a lint (tens of milliseconds, but seconds for
some texts within the limits: 65,000 colons make 120,000 findings) and a preview's
render run in a worker thread each, so that the server keeps answering.  Work whose answer nobody
wants any more (the buffer changed, the client cancelled the request, the client
said exit) must not hold the worker: a job still waiting is dropped, and a job
running is stopped by raising :class:`Cancelled` in its thread
(``PyThreadState_SetAsyncExc``).  Python has no other way to stop a thread; the
exception arrives at the thread's next Python instruction, so a job inside one long
call of C code (a regular expression) stops when that call returns.

Stopping a lint half-way leaves nothing half-done that matters: a session files a
buffer's text in its library before linting it, and the next lint files it again;
caches are filled by assignment, once a value is complete.  A render writes its PNG
through :mod:`translator.atomic`, whose temporary file the next run sweeps.

The threads are daemon threads: a worker still busy never keeps the process alive
(:class:`concurrent.futures.ThreadPoolExecutor` joins its threads at exit, which
kept the server running after ``exit`` for as long as a lint took).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class Cancelled(BaseException):
    """Raised in a worker thread to stop the job it runs.  A BaseException, so that
    the ``except Exception`` of the code it interrupts lets it through."""


class Stopped(Exception):
    """What a coroutine awaiting a job gets when the worker stopped the job on its
    own (the server is ending), not because the coroutine was cancelled: an error it
    handles, not a cancellation that pygls would take for its caller's."""


@dataclass(eq=False)
class _Job:
    function: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    cancelled: bool = False
    #: Whether :class:`Cancelled` was sent to its thread (once at most).
    interrupted: bool = False
    done: threading.Event = field(default_factory=threading.Event)


class Worker:
    """One daemon thread that runs jobs one after the other; :meth:`submit` returns an
    asyncio future, and cancelling that future cancels the job."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._running: _Job | None = None
        self._pending: set[_Job] = set()
        self._thread: threading.Thread | None = None
        self._stopped = False

    def submit(self, function: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``function(*args)`` in the worker thread; its result (or exception) in the
        future returned, on the calling event loop."""
        loop = asyncio.get_running_loop()
        job = _Job(function, args, loop.create_future(), loop)
        job.future.add_done_callback(
            lambda future: self.cancel(job) if future.cancelled() else None
        )
        with self._lock:
            if self._stopped:
                job.future.set_exception(Stopped(f"{self.name}: stopped"))
                return job.future
            self._pending.add(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        self._jobs.put(job)
        return job.future

    def cancel(self, job: _Job) -> None:
        """Drop ``job`` if it waits; stop it if it runs."""
        with self._lock:
            job.cancelled = True
            if self._running is job and not job.interrupted and self._thread is not None:
                job.interrupted = True
                _raise_in(self._thread, Cancelled)

    def cancel_all(self) -> None:
        """Cancel every job, waiting or running."""
        with self._lock:
            jobs = list(self._pending)
        for job in jobs:
            self.cancel(job)

    def stop(self) -> None:
        """Cancel everything and take no more work (the server is ending)."""
        with self._lock:
            self._stopped = True
        self.cancel_all()
        self._jobs.put(None)

    def idle(self, timeout: float) -> bool:
        """Whether no job runs, waiting at most ``timeout`` seconds for the one that
        does to stop."""
        deadline = time.monotonic() + timeout
        with self._lock:
            running = self._running
        return running is None or running.done.wait(max(0.0, deadline - time.monotonic()))

    # -- the thread

    def _run(self) -> None:
        job: _Job | None = None
        while True:
            try:
                if job is None:
                    job = self._jobs.get()
                    if job is None:
                        return
                self._execute(job)
                job = None
            except Cancelled:  # it came as the job ended: the job is over all the same
                self._forget(job)
                job = None

    def _execute(self, job: _Job) -> None:
        try:
            with self._lock:
                if job.cancelled:
                    return
                self._running = job
            try:
                result = job.function(*job.args)
            except Cancelled:
                return
            except BaseException as error:
                _settle(job, None, error)
            else:
                _settle(job, result, None)
        finally:
            self._forget(job)

    def _forget(self, job: _Job | None) -> None:
        """The job is over: no :class:`Cancelled` may reach the next one."""
        with self._lock:
            if job is not None and self._running is job:
                self._running = None
                if job.interrupted and self._thread is not None:
                    _raise_in(self._thread, None)  # one not delivered yet: withdrawn
            if job is not None:
                self._pending.discard(job)
                job.done.set()
                if job.cancelled or job.interrupted:
                    _settle(job, None, None, cancelled=True)


def _settle(
    job: _Job, result: Any, error: BaseException | None, *, cancelled: bool = False
) -> None:
    """Give the job's outcome to its future, on its loop (if anyone still waits)."""

    def give() -> None:
        future = job.future
        if future.done():  # a future cancelled by its task is done already
            return
        if cancelled:
            future.set_exception(Stopped(f"{job.function.__qualname__}: stopped"))
        elif error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
        job.loop.call_soon_threadsafe(give)


def _raise_in(thread: threading.Thread, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in ``thread`` at its next Python instruction (None:
    withdraw one not raised yet)."""
    ident = thread.ident
    if ident is None:
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(exception) if exception is not None else None
    )
