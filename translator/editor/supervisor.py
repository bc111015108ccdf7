"""``translator lsp`` in two processes: a small one that the editor talks to, and the
language server, which it watches over.

Why two: ``exit`` must end the process within a second whatever the server is doing,
and ``shutdown`` must be answered at once.  Python stops a thread's work only between
two of its instructions (:mod:`.workers`), and a lint may spend a long time inside one
call of C code that holds the interpreter's lock: a regular expression that
backtracks (the spelling check's pattern of addresses and file names was quadratic in
a word's length: a card text of one 65,000-letter word, within every limit, took over
a minute, until its look-behinds).  While it does, no other thread of that process
runs: not the one reading the client's messages, not the event loop; ``shutdown``
and ``exit`` are not even read.  Another process can always end it on time.

The supervisor forks (the server's modules are imported already, so the server starts
at once) and copies, unchanged, the client's bytes to the server and the server's
messages to the client.  It reads the client's small messages as they go by
(:class:`.frames.Frames`, the reader the server uses):

- ``shutdown``: if the server has not answered within :data:`SHUTDOWN_WAIT`, the
  supervisor answers (and drops the server's late answer);
- ``exit``, or the end of standard input (the editor went away): the server has
  :data:`GRACE` to end, as it does when it is not stuck; then it is killed.

The exit status is the server's, or, when it had to be killed, LSP's: 0 after a
shutdown request, 1 without.  The server never outlives the supervisor: on Linux it
asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG``), so that an
editor that kills the process it started kills both; elsewhere it ends when its
input does.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from typing import Any

from .frames import Frames, Message, frame

#: Seconds the server has to answer ``shutdown`` before the supervisor does.
SHUTDOWN_WAIT = 0.25
#: Seconds the server has to end after ``exit`` (or the end of its input).
GRACE = 0.4
#: Bytes of a message looked at: ``exit`` and ``shutdown`` are tiny.
SMALL = 4096
#: Bytes of the client's messages held for a server that does not read them (it is
#: stuck): beyond, the supervisor waits too.
BACKLOG_BYTES = 256 << 20
#: Bytes of one message of the server's: the server is trusted, this is no limit.
SERVER_MESSAGE_BYTES = 1 << 34
#: Bytes read at a time.
CHUNK = 1 << 16


def supervise(stdin: int, stdout: int, server: Callable[[int, int], None]) -> int:
    """Run ``server(input, output)`` in a child process on pipes, relaying
    ``stdin`` and ``stdout`` to it; its exit status (see the module's docstring)."""
    to_server, server_input = _pipe()
    server_output, from_server = _pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the server
        try:
            for descriptor in {server_input, server_output, stdin, stdout} - {2}:
                os.close(descriptor)
            _die_with_parent(parent)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C ends the supervisor
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # the client's pipes are the
            os.dup2(2, 1)  # supervisor's alone; anything printed goes to standard error
            server(to_server, from_server)
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(1)
    os.close(to_server)
    os.close(from_server)
    return Supervisor(pid, stdin, stdout, server_input, server_output).run()


def _pipe() -> tuple[int, int]:
    read, write = os.pipe()
    os.set_inheritable(read, False)
    os.set_inheritable(write, False)
    return read, write


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


class Supervisor:
    """The relay and the clock of one server process."""

    def __init__(self, pid: int, stdin: int, stdout: int, to_server: int, from_server: int) -> None:
        self.pid = pid
        self.stdin, self.stdout = stdin, stdout
        self.to_server, self.from_server = to_server, from_server
        self.changed = threading.Condition()
        self.status: int | None = None
        #: When the client said exit or went away; whether the server had to be killed.
        self.ending: float | None = None
        self.killed = False
        self.exit_said = False
        #: The shutdown request: its id, when it came, who answered it.
        self.shutdown: tuple[Any, float] | None = None
        self.shutdown_answered = False
        self.answered_for_server = False
        self._backlog: deque[bytes | None] = deque()
        self._backlog_bytes = 0
        self._write_lock = threading.Lock()
        self._output_done = threading.Event()

    def run(self) -> int:
        for target in (self._from_client, self._to_server, self._from_server, self._reap):
            threading.Thread(target=target, daemon=True, name=f"lsp-{target.__name__}").start()
        with self.changed:
            while self.status is None:
                self.changed.wait(self._tick())
        self._output_done.wait(GRACE)  # the server's last messages, then its status
        return self.status

    def _tick(self) -> float | None:
        """Do what is due (under the lock); the seconds until something may be."""
        now = time.monotonic()
        waits: list[float] = []
        if self.shutdown is not None and not self.shutdown_answered:
            due = self.shutdown[1] + SHUTDOWN_WAIT
            if now >= due:
                self._answer_shutdown(self.shutdown[0])
            else:
                waits.append(due - now)
        if self.ending is not None and not self.killed:
            due = self.ending + GRACE
            if now >= due:
                self.killed = True  # its status comes to _reap
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
            else:
                waits.append(due - now)
        return min(waits) if waits else None

    def _answer_shutdown(self, ident: Any) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": ident, "result": None}).encode()
        self._write(frame(body))
        self.shutdown_answered = self.answered_for_server = True

    # -- the threads

    def _from_client(self) -> None:
        """The client's bytes, looked at, then queued for the server."""
        frames = Frames(SERVER_MESSAGE_BYTES, keep=SMALL)
        while True:
            try:
                data = os.read(self.stdin, CHUNK)
            except OSError:
                data = b""
            for event in frames.feed(data) if data else []:
                if isinstance(event, Message):
                    self._look(event.body)
            self._queue(data or None)
            if not data:
                with self.changed:
                    if self.ending is None:
                        self.ending = time.monotonic()
                    self.changed.notify_all()
                return

    def _look(self, body: bytes) -> None:
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return
        if not isinstance(message, dict) or ("id" in message and "method" not in message):
            return
        method = message.get("method")
        with self.changed:
            if method == "shutdown" and "id" in message and self.shutdown is None:
                self.shutdown = (message["id"], time.monotonic())
            elif method == "exit" and self.ending is None:
                self.ending, self.exit_said = time.monotonic(), True
            self.changed.notify_all()

    def _queue(self, data: bytes | None) -> None:
        with self.changed:
            while data is not None and self._backlog_bytes > BACKLOG_BYTES:
                self.changed.wait(1)
            self._backlog.append(data)
            self._backlog_bytes += len(data or b"")
            self.changed.notify_all()

    def _to_server(self) -> None:
        broken = False
        while True:
            with self.changed:
                while not self._backlog:
                    self.changed.wait()
                data = self._backlog.popleft()
                self._backlog_bytes -= len(data or b"")
                self.changed.notify_all()
            if data is None:
                with contextlib.suppress(OSError):
                    os.close(self.to_server)
                return
            if not broken:  # a server gone: what the client says is dropped
                broken = not _write_all(self.to_server, data)

    def _from_server(self) -> None:
        """The server's messages, whole, to the client (a late answer to a shutdown
        the supervisor answered dropped)."""
        frames = Frames(SERVER_MESSAGE_BYTES)
        try:
            while data := _read(self.from_server):
                for event in frames.feed(data):
                    if isinstance(event, Message) and not self._late(event.body):
                        self._write(frame(event.body))
        finally:
            self._output_done.set()

    def _late(self, body: bytes) -> bool:
        """Whether ``body`` answers the shutdown request (noted), and the supervisor
        answered it already."""
        with self.changed:
            if self.shutdown is None or len(body) > SMALL:
                return False
            try:
                message = json.loads(body)
            except (ValueError, RecursionError):
                return False
            if not isinstance(message, dict) or "method" in message:
                return False
            if message.get("id") != self.shutdown[0]:
                return False
            late = self.answered_for_server
            self.shutdown_answered = True
            return late

    def _reap(self) -> None:
        _, status = os.waitpid(self.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        with self.changed:
            if self.killed:  # LSP's status: whether shutdown came before exit
                self.status = 0 if self.shutdown is not None and self.exit_said else 1
            elif code < 0:
                print(f"translator lsp: the server was killed (signal {-code})", file=sys.stderr)
                self.status = 1
            else:
                self.status = code
            self.changed.notify_all()

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            _write_all(self.stdout, data)


def _read(descriptor: int) -> bytes:
    try:
        return os.read(descriptor, CHUNK)
    except OSError:
        return b""


def _write_all(descriptor: int, data: bytes) -> bool:
    """Write all of ``data``; False when the other end is gone."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(descriptor, view) :]
    except OSError:
        return False
    return True
