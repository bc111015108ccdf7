"""The editor's open documents, as the server keeps them.

pygls keeps documents too, but reads a document that is not open from the disk with
a plain ``open()`` on the event loop (a FIFO named like a card stopped the whole
server), applies a change by lines that are not LSP's (``str.splitlines`` breaks at
U+2028 and form feeds; LSP only at ``\\r\\n``, ``\\r``, ``\\n``) and keeps a buffer of
any size.  The server keeps its own: only what the client opened, never a file, each
change applied as :class:`~.session.Lines` counts positions (the client's units; a
position past a line's end is its end, past the last line the text's end), and the
size of each buffer counted as it changes.

A buffer larger than :data:`MAX_BUFFER_BYTES` is not kept at all: its text is dropped
(memory stays bounded whatever a client sends, one change at a time included) and
only its size is known, until the client sends its whole text again (a change
without a range, or closing and opening it).  A buffer above the card-file limit but
below this one is kept, not linted (:func:`.session.too_large`), so that deleting
what made it too large lints it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..limits import MAX_FILE_BYTES
from .session import holds_surrogate, offset_at, utf8_size

#: Bytes (UTF-8) of a buffer the server keeps the text of: 64 times a card file.
MAX_BUFFER_BYTES = MAX_FILE_BYTES

#: A change as LSP sends it: the range (start line, start character, end line, end
#: character; None: the whole text) and the text that replaces it.
Change = tuple[tuple[int, int, int, int] | None, str]


@dataclass
class Buffer:
    uri: str
    #: The text ("" once dropped).
    text: str
    version: int | None
    #: Its size in UTF-8 bytes (a lone surrogate counted as three).
    size: int
    #: Whether the text was dropped (:data:`MAX_BUFFER_BYTES`).
    dropped: bool = False


class Buffers:
    """The open documents by URI."""

    def __init__(self) -> None:
        self._open: dict[str, Buffer] = {}

    def get(self, uri: str) -> Buffer | None:
        return self._open.get(uri)

    def open(self, uri: str, text: str, version: int | None) -> Buffer:
        buffer = Buffer(uri, "", version, 0)
        _replace(buffer, text)
        self._open[uri] = buffer
        return buffer

    def close(self, uri: str) -> None:
        self._open.pop(uri, None)

    def drop(self, uri: str, size: int, version: int | None) -> Buffer:
        """A buffer of ``size`` bytes whose text never came (its message was too large
        to read): open, without text."""
        buffer = self._open.get(uri) or Buffer(uri, "", version, 0)
        buffer.text, buffer.size, buffer.dropped = "", size, True
        buffer.version = version
        self._open[uri] = buffer
        return buffer

    def change(
        self, uri: str, version: int | None, changes: Sequence[Change], encoding: str
    ) -> Buffer | None:
        """Apply ``changes`` in order, each to the text the one before made; None
        when ``uri`` is not open."""
        buffer = self._open.get(uri)
        if buffer is None:
            return None
        for span, text in changes:
            if span is None:
                _replace(buffer, text)
            elif not buffer.dropped:
                _edit(buffer, span, text, encoding)
        buffer.version = version
        return buffer


def _replace(buffer: Buffer, text: str) -> None:
    buffer.size = utf8_size(text)
    buffer.dropped = False
    buffer.text = _paired(text)
    _keep(buffer)


def _edit(buffer: Buffer, span: tuple[int, int, int, int], text: str, encoding: str) -> None:
    old = buffer.text
    start = offset_at(old, span[0], span[1], encoding)
    end = offset_at(old, span[2], span[3], encoding)
    start, end = min(start, end), max(start, end)  # a range given backwards
    buffer.size += utf8_size(text) - utf8_size(old[start:end])
    if buffer.size > MAX_BUFFER_BYTES:
        _keep(buffer)
        return
    new = old[:start] + text + old[end:]
    buffer.text = new
    # Two halves of a pair typed in two changes make one character (of 4 bytes, not
    # 3 and 3: counted again).
    if holds_surrogate(new[max(0, start - 1) : start + len(text) + 1]):
        buffer.text = _paired(new)
        buffer.size = utf8_size(buffer.text)


def _keep(buffer: Buffer) -> None:
    """Drop the text of a buffer above :data:`MAX_BUFFER_BYTES`."""
    if buffer.size > MAX_BUFFER_BYTES:
        buffer.text, buffer.dropped = "", True


def _paired(text: str) -> str:
    """``text`` with each high surrogate followed by a low one made the one character
    they stand for (as JSON makes ``"\\ud83d\\ude00"``); lone ones stay."""
    if not holds_surrogate(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
