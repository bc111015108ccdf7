"""Characters that never belong in card text, and how they are shown.

Control characters (NUL, ESC, BEL, a lone CR), line and paragraph separators, the
bidirectional overrides and the zero-width characters print nothing a player can see:
in a card they are mistakes (pasted from a word processor) or attacks (U+202E turns
the rest of a name around on screen, ESC drives the terminal of whoever lists the
library).  One table serves every reader that refuses them (card files, Aminduna JSON,
PO and XLIFF), the checks that report them in existing files, and the terminal
output, which shows them as escapes instead of sending them raw.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any, TextIO, cast

from .limits import MAX_LINE_CHARS, MAX_TEXT_CHARS

#: Names Unicode does not give (control characters have none in ``unicodedata``).
_CONTROL_NAMES = {
    0x00: "NULL",
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x09: "TAB",
    0x0A: "LINE FEED",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
}

#: Invisible or direction-changing characters that are not controls (category Cf/Zl/Zp).
_INVISIBLE = (
    "\u180e"  # MONGOLIAN VOWEL SEPARATOR
    "\u200b-\u200f"  # zero-width space, joiners, left-to-right and right-to-left marks
    "\u2028\u2029"  # line and paragraph separators
    "\u202a-\u202e"  # bidirectional embeddings and overrides
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u2069"  # bidirectional isolates
    "\ufeff"  # zero-width no-break space (a byte order mark inside text)
    "\ufff9-\ufffb"  # interlinear annotation
    "\ufffe\uffff"  # non-characters
)
#: Refused in a one-line field: every control character (tab and line ends too).
LINE_BAD = re.compile(f"[\x00-\x1f\x7f-\x9f{_INVISIBLE}]")
#: Refused in a card text: the same, but tab, line feed and CR LF line ends.
TEXT_BAD = re.compile(f"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f{_INVISIBLE}]|\r(?!\n)")
#: Escaped on the terminal: what :data:`TEXT_BAD` refuses, except CR (CR LF output).
_SHOWN_ESCAPED = re.compile(f"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f{_INVISIBLE}]")


def describe(char: str) -> str:
    """``U+001B ESCAPE``: a character the reader cannot see, named."""
    code = ord(char)
    name = (
        _CONTROL_NAMES.get(code)
        or unicodedata.name(char, "")
        or ("CONTROL CHARACTER" if code < 0xA0 else "NONCHARACTER")
    )
    return f"U+{code:04X} {name}"


def bad_characters(text: str, one_line: bool) -> list[tuple[int, str]]:
    """(index, character) of each character ``text`` may not hold."""
    pattern = LINE_BAD if one_line else TEXT_BAD
    return [(match.start(), match.group()[0]) for match in pattern.finditer(text)]


def character_problem(text: str, one_line: bool) -> str | None:
    """A message naming the first forbidden character of ``text`` and where, or ``None``."""
    if (LINE_BAD if one_line else TEXT_BAD).search(text) is None:
        return None
    found = bad_characters(text, one_line)
    if not found:
        return None
    index, char = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    line, column = position(text, index)
    where = f"line {line} of the text, " if not one_line and "\n" in text else ""
    return f"holds the invisible character {describe(char)} at {where}character {column}{more}"


def position(text: str, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def too_long(text: str, one_line: bool) -> tuple[str, str] | None:
    """(what is wrong, what to do) when ``text`` is longer than a one-line field or a
    card text may be (:data:`~translator.limits.MAX_LINE_CHARS`, ``MAX_TEXT_CHARS``)."""
    limit = MAX_LINE_CHARS if one_line else MAX_TEXT_CHARS
    if len(text) <= limit:
        return None
    what = "a card field is one short line" if one_line else "a card holds a few hundred"
    return (
        f"is {len(text):,} characters long (at most {limit:,})",
        f"{what}: is this the right file?",
    )


def field_problem(text: str, one_line: bool) -> tuple[str, str] | None:
    """(what is wrong, what to do) with the text of a field (``one_line``) or of a card:
    too long, or holding a character that prints nothing.  Every reader of untrusted
    text asks this one question."""
    found = too_long(text, one_line)
    if found is None:
        problem = character_problem(text, one_line)
        if problem is not None:
            found = (problem, "delete it: it prints nothing")
    return found


def escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control and invisible character written as an escape
    (``\\x1b``, ``\\u202e``): what a terminal may be sent of untrusted text."""
    if _SHOWN_ESCAPED.search(text) is None:
        return text
    return _SHOWN_ESCAPED.sub(lambda match: escape(match.group()), text)


#: The colour codes the command line writes itself, on a terminal only (reset, bold,
#: dim, red, green, yellow, cyan): the one escape sequence a terminal stream passes.
_OWN_SEQUENCE = re.compile(r"\x1b\[(?:0|1|2|31|32|33|36)m")


def printable_output(text: str, colours: bool = False) -> str:
    """:func:`printable` for a whole output stream; with ``colours``, the command
    line's own colour codes are kept."""
    if _SHOWN_ESCAPED.search(text) is None:
        return text
    if not colours:
        return printable(text)
    pieces = []
    last = 0
    for match in _OWN_SEQUENCE.finditer(text):
        pieces.append(printable(text[last : match.start()]))
        pieces.append(match.group())
        last = match.end()
    pieces.append(printable(text[last:]))
    return "".join(pieces)


class PrintableStream:
    """A text stream that writes through :func:`printable_output`: whatever a command
    prints of a card (a name in a table, a message quoting the text) reaches the
    terminal with its control characters shown, not obeyed.  Only on a terminal, where
    the command line colours its output, are its own colour codes passed; a card's
    text could hold the same few codes, which can colour text but not hide it, move
    the cursor or set a title."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        try:
            self._colours = stream.isatty()
        except (AttributeError, ValueError):
            self._colours = False

    @classmethod
    def around(cls, stream: TextIO) -> TextIO:
        """``stream`` written through :func:`printable_output` (once: a stream already
        wrapped is returned as it is)."""
        if isinstance(stream, cls):
            return stream
        # A TextIO by delegation: writes filtered, every other attribute the stream's.
        return cast(TextIO, cls(stream))

    def write(self, text: str) -> int:
        self._stream.write(printable_output(text, self._colours))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


#: The invisible characters alone (no controls): what a comparison may set aside.
_HIDDEN = re.compile(f"[{_INVISIBLE}]")
#: Spaces that print alike: the plain, no-break, narrow no-break and thin spaces.
_SPACES = re.compile("[ \u00a0\u202f\u2009\u2007]")


def spacing_key(text: str) -> str:
    """``text`` with every kind of space made a plain one: two strings with the same
    key differ only in typography (a no-break space before « ! »), which the
    language's typography rules judge, not a comparison of wordings."""
    return _SPACES.sub(" ", text)


def invisible_difference(have: str, want: str) -> str | None:
    """When ``have`` and ``want`` differ only in characters a reader cannot tell
    apart (kinds of space, zero-width characters), where and which: a message that
    shows two identical-looking strings must say what differs."""
    if have == want:
        return None
    if spacing_key(_HIDDEN.sub("", have)) != spacing_key(_HIDDEN.sub("", want)):
        return None
    for index, (a, b) in enumerate(zip(have, want, strict=False)):
        if a != b:
            return f"character {index + 1} is {describe(a)} where it should be {describe(b)}"
    index = min(len(have), len(want))
    longer, what = (have, "has an extra") if len(have) > len(want) else (want, "lacks the")
    return f"character {index + 1}: the text {what} {describe(longer[index])}"
