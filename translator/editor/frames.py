"""The base protocol's framing, read from whatever a client sends.

An LSP message is a header (``Content-Length: N``, maybe other fields, an empty line)
and ``N`` bytes of JSON.  A client with a bug, or anyone who can write to the server's
standard input, may send a header that lies, no header, a length of a terabyte, or
bytes that are no message at all.  Read naively (as pygls does), one bad header puts
the reader out of step for good: every later message is taken for part of a body or
for a header line, and the server goes silent.

:class:`Frames` never loses step.  It looks for the next header wherever it is (not
only at a line's start: what a too-short length left of a body comes before it);
what lies between two messages is skipped and counted; a length above the limit is
refused without reading the body (the body, if it comes, is skipped like any other
bytes that are no header); and a body that holds a header is cut there, the rest read
again.  That last rule loses nothing: JSON cannot hold ``Content-Length: N`` followed
by a bare line break (a string cannot hold a raw line break, and outside strings JSON
has no bare words), so a body with one is a body whose header claimed more bytes than
were sent, and the messages after it are inside it.

Nothing here needs pygls: the language server reads with it (:mod:`.transport`), and
so does the small process that watches over it (:mod:`.supervisor`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A header: ``Content-Length`` and its digits, then any other header fields
#: (``Content-Type``), then the empty line that ends it.  Twenty digits at most: a
#: longer number is no length anybody sends, and is skipped as garbage.
_HEADER = (
    rb"Content-Length[ \t]*:[ \t]*(\d{1,20})[ \t]*\r?\n"
    rb"(?:[!-9;-~][!-~]{0,99}[ \t]*:[^\r\n]{0,1000}\r?\n){0,16}\r?\n"
)
HEADER = re.compile(_HEADER)
#: The same in any case (HTTP's field names have none): thirteen times slower to look
#: for, so looked for only where a ``length`` in another case is.
HEADER_ANY_CASE = re.compile(_HEADER, re.IGNORECASE)
#: What is kept of bytes that hold no header yet: the start of a header may be at
#: their end, and a header with its fields is never longer.
HEADER_BYTES = 18 * 1024 + 64
#: Bytes of a body's start given with a refused (too long) message: what tells which
#: request or document it was (:func:`peek`).
HEAD_BYTES = 64 * 1024
#: Header lines that clients send before ``Content-Length`` (its order is free): not
#: garbage worth a word.
_FIELDS = re.compile(rb"(?:[!-9;-~][!-~]{0,99}[ \t]*:[^\r\n]{0,1000}\r?\n|\r?\n)*")


@dataclass(frozen=True)
class Message:
    """A body, as its header announced it (JSON, unless the client sent garbage)."""

    body: bytes


@dataclass(frozen=True)
class Refused:
    """A header announcing more than the limit: its body is not read.  ``head``:
    what had arrived of the body's start (at most :data:`HEAD_BYTES`)."""

    size: int
    head: bytes


@dataclass(frozen=True)
class Skipped:
    """Bytes between messages that were no message (garbage, a lying header)."""

    size: int


Event = Message | Refused | Skipped


class Frames:
    """A push parser: :meth:`feed` it bytes as they come, it returns the events they
    complete.  Bodies of at most ``keep`` bytes (default: ``limit``) are given whole;
    longer ones up to ``limit`` are passed over in silence (the supervisor looks only
    at small messages, and never holds a large one); longer than ``limit``, the
    message is :class:`Refused`.  A body not kept is never waited for: its bytes are
    looked through for the next header like any others, which finds the next message
    whether or not the body came."""

    def __init__(self, limit: int, keep: int | None = None) -> None:
        self.limit = limit
        self.keep = limit if keep is None else min(keep, limit)
        self._buffer = bytearray()
        #: The length of the body being read (its header consumed), if any, and how
        #: much of it was looked through for a header already.
        self._body: int | None = None
        self._searched = 0
        #: The size of a refused message whose head is still coming.
        self._refused: int | None = None
        self._skipped = 0
        #: Whether the bytes skipped so far are worth a word: not header fields, and
        #: not the body of a message refused or passed over.
        self._garbage = False
        self._quiet = False

    def feed(self, data: bytes) -> list[Event]:
        self._buffer += data
        events: list[Event] = []
        while self._step(events):
            pass
        return events

    def end(self) -> list[Event]:
        """The stream ended: what is left is no message."""
        events: list[Event] = []
        if self._refused is not None:
            self._refuse(events, len(self._buffer))
        if self._buffer:
            self._skip(len(self._buffer), garbage=True)
        self._body = None
        self._report(events)
        return events

    def _step(self, events: list[Event]) -> bool:
        """Make one event, or skip bytes, if the buffer allows; False: more bytes are
        needed."""
        if self._body is not None:
            return self._take_body(events)
        if self._refused is not None:
            return self._take_head(events)
        match = find_header(self._buffer)
        if match is None:
            extra = len(self._buffer) - HEADER_BYTES
            if extra > 0:
                self._skip(extra, garbage=True)
            return False
        size, start, end = int(match.group(1)), match.start(), match.end()
        if start:  # what came before the header: skipped
            fields = _FIELDS.fullmatch(self._buffer, 0, start) is not None
            self._skip(start, garbage=not fields)
        self._report(events)
        del self._buffer[: end - start]
        if size > self.limit:
            self._refused = size
        elif size > self.keep:
            self._quiet = True
        else:
            self._body, self._searched = size, 0
        return True

    def _take_body(self, events: list[Event]) -> bool:
        """The body, once all of it came; cut short as soon as a header shows in it
        (the header claimed more than was sent: the next message is there)."""
        assert self._body is not None
        available = min(len(self._buffer), self._body)
        inner = find_header(self._buffer, max(0, self._searched - HEADER_BYTES), available)
        self._searched = available
        if inner is not None:
            length = inner.start()
        elif available == self._body:
            length = self._body
        else:
            return False
        events.append(Message(bytes(self._buffer[:length])))
        del self._buffer[:length]
        self._body = None
        return True

    def _take_head(self, events: list[Event]) -> bool:
        """A refused message, once the start of its body came (or the next header
        did: nothing more of it is coming)."""
        following = find_header(self._buffer, 0, HEAD_BYTES + HEADER_BYTES)
        if following is not None:
            self._refuse(events, min(following.start(), HEAD_BYTES))
        elif len(self._buffer) >= HEAD_BYTES:
            self._refuse(events, HEAD_BYTES)
        else:
            return False
        return True

    def _refuse(self, events: list[Event], head: int) -> None:
        """Say a message is refused; its body's bytes (left in the buffer) are then
        skipped without a word, up to the next header."""
        assert self._refused is not None
        events.append(Refused(self._refused, bytes(self._buffer[:head])))
        self._refused = None
        self._quiet = True

    def _skip(self, count: int, *, garbage: bool) -> None:
        del self._buffer[:count]
        self._skipped += count
        self._garbage = self._garbage or (garbage and not self._quiet)

    def _report(self, events: list[Event]) -> None:
        if self._skipped and self._garbage:
            events.append(Skipped(self._skipped))
        self._skipped, self._garbage, self._quiet = 0, False, False


def find_header(
    data: bytes | bytearray, start: int = 0, end: int | None = None
) -> re.Match[bytes] | None:
    """The first header in ``data[start:end]``."""
    end = len(data) if end is None else end
    found = HEADER.search(data, start, end)
    window = data[start:end] if found is None else data[start : found.start()]
    if b"ength" in window or b"ENGTH" in window:  # maybe one in another case before
        return HEADER_ANY_CASE.search(data, start, end)
    return found


def frame(body: bytes) -> bytes:
    """A message as the base protocol sends it."""
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


_PEEK = {
    "method": re.compile(rb'"method"\s*:\s*"([^"\\]{1,200})"'),
    "id": re.compile(rb'"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"[^"\\]{0,200}")'),
    "uri": re.compile(rb'"uri"\s*:\s*"([^"\\]{1,4000})"'),
    "version": re.compile(rb'"version"\s*:\s*(\d{1,9})(?![\d.eE])'),
}


def peek(head: bytes) -> dict[str, str | int]:
    """What the start of a refused body says it is, as far as it says (the body is
    never parsed): its ``method``, its ``id`` (a request: its answer is an error),
    the ``uri`` and ``version`` of its document.  Fields after a document's text are
    not seen: a client may send ``method`` last."""
    found: dict[str, str | int] = {}
    for key, pattern in _PEEK.items():
        match = pattern.search(head)
        if match is None:
            continue
        value = match.group(1).decode("utf-8", "replace")
        if key in ("id", "version") and not value.startswith('"'):
            found[key] = int(value)
        else:
            found[key] = value.strip('"') if key == "id" else value
    return found
