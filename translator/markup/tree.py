"""The typed document tree: what Aminduna lays out on the card.

The tree is the reference's *layout*, not a markdown syntax tree: paragraphs holding
text runs (plain, bold, italic, bold italic), drop caps, symbols and line breaks.
Everything the reference drops (headings, links, ...) is absent, which is the point:
this is what gets printed.  Nodes keep the source position of what produced them, so
a reviewer can be sent to the right character.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

#: Cypher discs, printed inline at text size.
CYPHER_CODES = ("g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "gx", "gt")
#: Large mark symbols: at the start of a paragraph, indenting two lines.
LARGE_MARK_CODES = (
    "m",
    "m0",
    "m1",
    "m2",
    "m3",
    "m4",
    "m5",
    "m6",
    "m7",
    "m8",
    "m9",
    "ma",
    "mt",
    "mx",
    "mi",
)
#: Column marks: indent the lines beside them.
COLUMN_MARK_CODES = ("mc", "mic")
#: The small inline arrow.
INLINE_MARK_CODES = ("mis",)
SYMBOL_CODES = frozenset(CYPHER_CODES + LARGE_MARK_CODES + COLUMN_MARK_CODES + INLINE_MARK_CODES)
#: Codes that are not symbols: a line break and an empty paragraph.
BREAK_CODE = "br"
EMPTY_PARAGRAPH_CODE = "pa"

SymbolKind = Literal["cypher", "mark", "column", "inline-mark"]


def symbol_kind(code: str) -> SymbolKind:
    if code in CYPHER_CODES:
        return "cypher"
    if code in COLUMN_MARK_CODES:
        return "column"
    if code in INLINE_MARK_CODES:
        return "inline-mark"
    return "mark"


class Position:
    """Where a node comes from: 1-based line and column, and the source offsets.

    Positions of parsed nodes are resolved on first use: converting layout XML
    needs none of them, and tracing an offset back through the reference's rewrites
    is the dearest part of parsing.
    """

    __slots__ = ("_pending", "_values")

    def __init__(self, line: int, column: int, offset: int, end: int) -> None:
        self._values = (line, column, offset, end)
        self._pending: tuple[Callable[..., tuple[int, int, int, int]], tuple] | None = None

    @staticmethod
    def deferred(resolve: Callable[..., tuple[int, int, int, int]], *args: object) -> Position:
        """A position computed by ``resolve(*args)`` when first read."""
        position = _new_position(Position)
        position._pending = (resolve, args)
        return position

    def _get(self) -> tuple[int, int, int, int]:
        if self._pending is not None:
            resolve, args = self._pending
            self._values = resolve(*args)
            self._pending = None
        return self._values

    @property
    def line(self) -> int:
        return self._get()[0]

    @property
    def column(self) -> int:
        return self._get()[1]

    @property
    def offset(self) -> int:
        return self._get()[2]

    @property
    def end(self) -> int:
        return self._get()[3]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._get() == other._get()

    def __hash__(self) -> int:
        return hash(self._get())

    def __repr__(self) -> str:
        line, column, offset, end = self._get()
        return f"Position(line={line}, column={column}, offset={offset}, end={end})"


_new_position = object.__new__
_NOWHERE = Position(0, 0, 0, 0)


# Nodes are plain slotted dataclasses (frozen ones are several times slower to build,
# and a card makes dozens); treat them as values and do not mutate them.


@dataclass(slots=True)
class Text:
    text: str
    bold: bool = False
    italic: bool = False
    pos: Position = field(default=_NOWHERE, compare=False)

    @property
    def style(self) -> str:
        """The layout element name: ``n``, ``b``, ``i`` or ``bi``."""
        if self.bold:
            return "bi" if self.italic else "b"
        return "i" if self.italic else "n"


@dataclass(slots=True)
class DropCap:
    """A drop cap; the reference prints whatever stood between the colons."""

    letter: str
    pos: Position = field(default=_NOWHERE, compare=False)


@dataclass(slots=True)
class Symbol:
    code: str
    pos: Position = field(default=_NOWHERE, compare=False)

    @property
    def kind(self) -> SymbolKind:
        return symbol_kind(self.code)


@dataclass(slots=True)
class LineBreak:
    pos: Position = field(default=_NOWHERE, compare=False)


Inline = Text | DropCap | Symbol | LineBreak


@dataclass(slots=True)
class Paragraph:
    children: tuple[Inline, ...]
    pos: Position = field(default=_NOWHERE, compare=False)
    #: The paragraph was emptied by ``:pa:`` (or a lone ``\\`` line); the reference
    #: then writes ``<p></p>`` rather than ``<p />``.
    emptied: bool = field(default=False, compare=False)

    @property
    def is_empty(self) -> bool:
        return not self.children


@dataclass(slots=True)
class Document:
    paragraphs: tuple[Paragraph, ...]

    def layout(self) -> tuple[tuple[tuple[str, str], ...], ...]:
        """The printed layout, without positions, with adjacent same-style text merged.

        Two documents with the same layout print the same card; the reference itself
        sometimes splits a run in two (around a dropped link), which changes nothing.
        """
        result = []
        for paragraph in self.paragraphs:
            items: list[tuple[str, str]] = []
            for node in paragraph.children:
                if isinstance(node, Text):
                    if items and items[-1][0] == node.style:
                        items[-1] = (node.style, items[-1][1] + node.text)
                        continue
                    items.append((node.style, node.text))
                elif isinstance(node, DropCap):
                    items.append(("c", node.letter))
                elif isinstance(node, Symbol):
                    items.append((node.code, ""))
                else:
                    items.append(("br", ""))
            result.append(tuple(items))
        return tuple(result)
