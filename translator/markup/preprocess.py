"""The reference converter's text rewrites, applied before any markdown parsing.

Aminduna does not hand the card text to its markdown parser as written: it first
normalises line ends, turns a lone ``\\`` line into an empty-paragraph code, replaces
some spaces by an ``@@`` placeholder and every backslash by ``:br:``.  Most traps of
the dialect come from these rewrites, so they are reproduced here literally, in the
same order, and every rewrite is recorded so that any position in the rewritten text
can be traced back to the character the author typed.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

#: Placeholder the reference puts in place of some spaces; it becomes a space again
#: in the final output, and so does any ``@@`` the author typed.
SPACE_PLACEHOLDER = "@@"

#: The rewrites of the reference's space hack and line-break support, in order:
#: (pattern, replacement, for each replacement character the index of the pattern
#: character it stands for).
_SIMPLE_REWRITES: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    (" *", "@@*", (0, 0, 1)),
    ("* ", "*@@", (0, 1, 1)),
    ("\n ", "\n@@", (0, 1, 1)),
    ("\\", ":br:", (0, 0, 0, 0)),
)
_EMPTY_PARAGRAPH = "\n\\\n\n"
_EMPTY_PARAGRAPH_CODE = "\n:pa:\n\n"
_EMPTY_PARAGRAPH_ALIGN = (0, 1, 1, 1, 1, 2, 3)


@dataclass(slots=True)
class _Rewrite:
    """One global replacement: where each replacement landed, old and new."""

    new_starts: list[int]
    old_starts: list[int]
    new_len: int
    old_len: int
    align: tuple[int, ...]

    def to_old(self, pos: int) -> int:
        i = bisect.bisect_right(self.new_starts, pos) - 1
        if i < 0:
            return pos
        new_start = self.new_starts[i]
        old_start = self.old_starts[i]
        inside = pos - new_start
        if inside < self.new_len:
            return old_start + self.align[inside]
        return old_start + self.old_len + inside - self.new_len


@dataclass(slots=True)
class _TableRewrite:
    """A rewrite recorded character by character (rare, so size does not matter)."""

    index: list[int]

    def to_old(self, pos: int) -> int:
        if pos < len(self.index):
            return self.index[pos]
        return (self.index[-1] + 1 if self.index else 0) + pos - len(self.index)


@dataclass(slots=True)
class SourceMap:
    """Maps offsets in the rewritten text back to the text the author wrote."""

    source: str
    start_line: int = 1
    _rewrites: list[_Rewrite | _TableRewrite] = field(default_factory=list)
    _line_starts: list[int] | None = None

    def to_source(self, pos: int) -> int:
        """The source offset of the character at ``pos`` in the rewritten text."""
        for rewrite in reversed(self._rewrites):
            pos = rewrite.to_old(pos)
        return max(0, min(pos, len(self.source)))

    def line_col(self, source_offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of a source offset."""
        if self._line_starts is None:
            starts = [0]
            find = self.source.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        line = bisect.bisect_right(self._line_starts, source_offset) - 1
        return line + self.start_line, source_offset - self._line_starts[line] + 1


@dataclass(slots=True)
class Preprocessed:
    """The text the reference's markdown parser actually reads."""

    text: str
    source_map: SourceMap


def _replace_all(
    text: str,
    pattern: str,
    replacement: str,
    align: tuple[int, ...],
    rewrites: list[_Rewrite | _TableRewrite],
) -> str:
    if pattern not in text:
        return text
    old_starts: list[int] = []
    find = text.find
    i = find(pattern)
    while i >= 0:
        old_starts.append(i)
        i = find(pattern, i + len(pattern))
    delta = len(replacement) - len(pattern)
    new_starts = [start + n * delta for n, start in enumerate(old_starts)]
    rewrites.append(_Rewrite(new_starts, old_starts, len(replacement), len(pattern), align))
    return text.replace(pattern, replacement)


def preprocess(source: str, start_line: int = 1) -> Preprocessed:
    """Apply the reference's rewrites to ``source``, in the reference's order."""
    rewrites: list[_Rewrite | _TableRewrite] = []
    text = _replace_all(source, "\r\n", "\n", (1,), rewrites)
    if not text.endswith("\n\n"):
        text += "\n\n"
    # Support for empty paragraphs starts with a dummy line, so that a lone `\` on
    # the first line is found too.
    rewrites.append(_Rewrite([0], [0], 1, 0, (0,)))
    text = "\n" + text
    text = _empty_paragraphs(text, rewrites)
    for pattern, replacement, align in _SIMPLE_REWRITES:
        text = _replace_all(text, pattern, replacement, align, rewrites)
    return Preprocessed(text, SourceMap(source, start_line, rewrites))


def _empty_paragraphs(text: str, rewrites: list[_Rewrite | _TableRewrite]) -> str:
    """Replace lone-backslash lines exactly as the reference's loop does.

    The reference restarts its search after every replacement, and the final
    newline of a replacement can start the next match: backslash lines in a row
    chain, sharing one newline.  The same matches are found in one pass over the
    original text by resuming each search on the last character of the previous
    match; a chained replacement then adds its code without its first newline.
    """
    pos = text.find(_EMPTY_PARAGRAPH)
    if pos < 0:
        return text
    pieces: list[str] = []
    index: list[int] = []
    last = 0
    while pos >= 0:
        if pos >= last:
            pieces.append(text[last:pos])
            index.extend(range(last, pos))
            pieces.append(_EMPTY_PARAGRAPH_CODE)
            index.extend(pos + k for k in _EMPTY_PARAGRAPH_ALIGN)
        else:  # chained: the previous code's last newline is this match's first
            pieces.append(_EMPTY_PARAGRAPH_CODE[1:])
            index.extend(pos + k for k in _EMPTY_PARAGRAPH_ALIGN[1:])
        last = pos + len(_EMPTY_PARAGRAPH)
        pos = text.find(_EMPTY_PARAGRAPH, last - 1)
    pieces.append(text[last:])
    index.extend(range(last, len(text)))
    rewrites.append(_TableRewrite(index))
    return "".join(pieces)
