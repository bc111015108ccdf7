"""The calling thread's deadline: when its requests must have their whole answer.

A time-out on each read of the network does not bound an answer: a server that sends
one byte a second never leaves a read waiting long, and keeps the command for hours.
So every request of translator runs under a deadline for the whole answer (and a
command under one for all of its requests): :func:`deadline` sets it for the calling
thread, and the client :func:`translator.web.http_client` makes waits no read, write or connection
beyond it.  A read cut short by the deadline raises the time-out the read would have
raised; :func:`expired` tells the caller which it was.

Below :mod:`translator.web` and :mod:`translator.transport`, which both read it; it
loads no HTTP library.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_LOCAL = threading.local()


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, this thread's requests end within ``seconds`` (None: no new
    bound): nested deadlines keep the earliest."""
    stack: list[float] = _LOCAL.__dict__.setdefault("stack", [])
    if seconds is None:
        yield
        return
    moment = time.monotonic() + max(0.0, seconds)
    stack.append(min(moment, stack[-1]) if stack else moment)
    try:
        yield
    finally:
        stack.pop()


def time_left() -> float | None:
    """Seconds until this thread's deadline (0 once passed), None without one."""
    stack: list[float] | None = _LOCAL.__dict__.get("stack")
    if not stack:
        return None
    return max(0.0, stack[-1] - time.monotonic())


def expired() -> bool:
    """Whether this thread's deadline has passed."""
    left = time_left()
    return left is not None and left <= 0
