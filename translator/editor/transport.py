"""The language server's transport: every message read off the event loop, checked
before pygls sees it, and every request answered, whatever the client sends.

pygls's own reader reads on its event loop's executor with a thread pool that the
interpreter waits for at exit, loses step for good after one bad header, parses JSON
without a depth limit, and drops without an answer a request it cannot read (wrong
types in its parameters, a ``jsonrpc`` other than ``"2.0"``, a request after
``shutdown``): the client waits forever.  Here:

- one daemon thread reads standard input and cuts it into messages
  (:class:`.frames.Frames`: a message of more than :data:`MAX_MESSAGE_BYTES` is
  refused unread, garbage skipped, a lying length found out) and parses each as any
  JSON from outside is parsed (:func:`translator.jsonfile.loads`: UTF-8, nested at
  most 64 deep, no ``NaN`` or endless numbers), handing the loop one message at a
  time (so that memory holds one message, not a backlog);
- the loop checks each against JSON-RPC and LSP before pygls gets it, and answers a
  request it cannot serve with the error JSON-RPC names (parse error, invalid
  request, method not found, invalid params, server not initialized), a request
  after ``shutdown`` included;
- a message refused for its size is answered from what its start says
  (:func:`.frames.peek`): an error for a request, a diagnostic for a document.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import attrs
from lsprotocol import types

from ..jsonfile import loads
from ..limits import MAX_FILE_BYTES
from ..textio import InputError, decode
from .frames import Frames, Message, Refused, Skipped, frame

#: Bytes of one message: a buffer's whole text travels in one (``didOpen``), and a
#: buffer the server keeps may be 64 MB (:data:`.buffers.MAX_BUFFER_BYTES`).
MAX_MESSAGE_BYTES = MAX_FILE_BYTES
#: Bytes read from standard input at a time.
CHUNK = 1 << 16
#: What the client's messages are called in a problem's message.
WHAT = "the editor's message"

ERRORS = types.ErrorCodes
#: LSP's "initialize first" (-32002).
NOT_INITIALIZED = types.ErrorCodes.ServerNotInitialized


@dataclass(frozen=True)
class Parsed:
    """A message's JSON."""

    data: Any


@dataclass(frozen=True)
class Garbled:
    """A body that is no JSON (or JSON beyond the limits): why."""

    reason: str


Item = Parsed | Garbled | Refused | Skipped


class Endpoint(Protocol):
    """What the transport needs of the server (:class:`.server.CardServer`)."""

    @property
    def protocol(self) -> Any: ...

    initialized: bool
    shut_down: bool
    exited: bool

    def log(self, message: str, kind: types.MessageType = ...) -> None: ...

    def refused_message(self, size: int, head: bytes) -> None: ...


class Writer:
    """Standard output for pygls (which writes a whole message per call): written
    in full, or, once the client is gone (a closed pipe), not at all."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor
        self.broken = False
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            if self.broken:
                return
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self.descriptor, view) :]
            except OSError:
                self.broken = True

    def close(self) -> None:
        """pygls closes the writer on ``exit``; the server's end closes it."""


def read_messages(descriptor: int, post: Callable[[Item | None], bool]) -> None:
    """Read ``descriptor`` to its end, giving each message to ``post`` (None at the
    end); stop when ``post`` says the loop is gone.  Runs in a thread of its own."""
    frames = Frames(MAX_MESSAGE_BYTES)
    while True:
        try:
            data = os.read(descriptor, CHUNK)
        except OSError:
            data = b""
        for event in frames.feed(data) if data else frames.end():
            if not post(_item(event)):
                return
        if not data:
            post(None)
            return


def _item(event: Message | Refused | Skipped) -> Item:
    if not isinstance(event, Message):
        return event
    try:
        return Parsed(loads(decode(event.body, WHAT), WHAT))
    except InputError as error:
        return Garbled(str(error))


async def converse(server: Endpoint, stdin: int, writer: Writer) -> None:
    """Serve the client on ``stdin`` until it says exit or goes away."""
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[Item | None] = asyncio.Queue(maxsize=1)

    def post(item: Item | None) -> bool:
        try:
            asyncio.run_coroutine_threadsafe(inbox.put(item), loop).result()
        except (RuntimeError, concurrent.futures.CancelledError, asyncio.CancelledError):
            # the loop is gone, or ending
            return False
        return True

    reader = threading.Thread(
        target=read_messages, args=(stdin, post), name="translator-lsp-reader", daemon=True
    )
    reader.start()
    while not (server.exited or writer.broken):
        item = await inbox.get()
        if item is None:
            return
        receive(server, item)


def receive(server: Endpoint, item: Item) -> None:
    """One item from the client: answered, handed to pygls, or said to be wrong."""
    if isinstance(item, Skipped):
        server.log(
            f"translator: skipped {item.size:,} bytes from the editor that were no LSP "
            "message (a header without Content-Length, or a wrong length)",
            types.MessageType.Warning,
        )
    elif isinstance(item, Refused):
        server.refused_message(item.size, item.head)
    elif isinstance(item, Garbled):
        reply_error(server, None, ERRORS.ParseError, item.reason)
    else:
        _dispatch(server, item.data)


def _dispatch(server: Endpoint, data: Any) -> None:
    problem, ident = _envelope(data)
    if problem is not None:
        reply_error(server, ident, ERRORS.InvalidRequest, f"{WHAT}: {problem}")
        return
    method = data.get("method")
    if method is None:
        _response(server, data)
        return
    request = "id" in data
    protocol = server.protocol
    refusal = _refusal(server, method)
    if refusal is not None:
        if request:
            reply_error(server, ident, *refusal)
        return
    kind = protocol.get_message_type(method)
    if request and "id" not in attrs.fields_dict(kind):  # it would get no answer
        reply_error(server, ident, ERRORS.InvalidRequest, f"{method}: a notification has no id")
        return
    try:
        message = protocol.fm.converter.structure(data, kind)
    except Exception as error:
        reason = f"{method}: its params are not what LSP says ({_mismatch(error)})"
        if request:
            reply_error(server, ident, ERRORS.InvalidParams, reason)
        else:
            server.log(f"translator: ignored {reason}", types.MessageType.Warning)
        return
    try:
        protocol.handle_message(message)
    except Exception as error:
        if request:
            reply_error(server, ident, ERRORS.InternalError, f"{method}: {error}")
        server.log(f"translator: {method} failed: {error!r}", types.MessageType.Error)


def _refusal(server: Endpoint, method: str) -> tuple[int, str] | None:
    """Why ``method`` is not served now (the error's code and message), or None."""
    if not server.initialized and method not in (types.INITIALIZE, types.EXIT):
        return NOT_INITIALIZED, f"{method}: send initialize first"
    if server.shut_down and method != types.EXIT:
        return ERRORS.InvalidRequest, f"{method}: the server is shut down"
    if server.protocol.get_message_type(method) is None:  # not LSP: its params never read
        return ERRORS.MethodNotFound, f"{method}: no such method"
    return None


def _envelope(data: Any) -> tuple[str | None, int | str | None]:
    """What is wrong with a message as JSON-RPC has it (None: nothing), and its id
    when it has one that can be answered."""
    if not isinstance(data, dict):
        return "a message is a JSON object (LSP has no batches)", None
    ident = data.get("id")
    valid = isinstance(ident, str) or (
        isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 1 << 53
    )
    answer = ident if valid else None
    problem = None
    params = data.get("params")
    if "id" in data and not valid:
        problem = "an id is a number or a string"
    elif data.get("jsonrpc") != "2.0":
        problem = 'a message says "jsonrpc": "2.0"'
    elif "method" in data and not isinstance(data["method"], str):
        problem = "a method is a string"
    elif "method" in data and params is not None and not isinstance(params, dict | list):
        problem = "params are an object or an array"
    return problem, answer


def _response(server: Endpoint, data: dict[str, Any]) -> None:
    """A client's answer to a request of the server's (a document shown, a
    capability registered): never answered back."""
    if "id" not in data or ("result" not in data and "error" not in data):
        server.log("translator: ignored a message with neither a method nor a result")
        return
    try:
        server.protocol.answered(data)
    except Exception as error:
        server.log(f"translator: ignored an answer of the editor: {_mismatch(error)}")


def _mismatch(error: Exception) -> str:
    """The first few things cattrs found wrong, in its words."""
    try:
        from cattrs import transform_error  # noqa: PLC0415

        found = transform_error(error)
    except Exception:
        found = [str(error) or type(error).__name__]
    shown = "; ".join(found[:3])
    return shown if len(shown) <= 300 else shown[:299] + "…"


def reply_error(server: Endpoint, ident: int | str | None, code: int, message: str) -> None:
    """Answer request ``ident`` (None: a message whose id is unknown, as JSON-RPC
    answers a parse error) with an error."""
    body = {"jsonrpc": "2.0", "id": ident, "error": {"code": int(code), "message": message}}
    writer = server.protocol.writer
    if writer is not None:
        writer.write(frame(json.dumps(body).encode("utf-8")))
