"""Block structure of card text, as the reference's markdown parser sees it.

Aminduna uses a vendored Microsoft.Toolkit.Parsers.Markdown, whose block rules differ
from CommonMark in ways that matter to card authors: a line ``---`` under a line of
text turns that line into a heading (which Aminduna drops), a line starting with a
tab starts a code block (dropped), an unclosed `````` swallows the rest of the card,
a line ``1. ...`` starts a list (dropped) while ``* ...`` does not (the space hack ate
its space).  This module replays that parser's line loop.  It is an ordered chain of
small named rules (:data:`BLOCK_RULES`), tried on each line in the reference's order;
the paragraph text it accumulates is handed to the inline parser.

Only paragraphs reach the card.  The other blocks are kept with their extent, so that
diagnostics can say exactly what vanished, and with the inline texts the reference
parses inside them, because a crash there still breaks the whole card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from markdown_it.ruler import Ruler

MARKDOWN_WHITESPACE = frozenset(" \t\r\n")


class ReferenceCrash(Exception):
    """The reference converter throws on this input (an exception, not a result).

    ``offset`` is in the text being parsed (pre-processed text for block rules, the
    inline text for inline rules).
    """

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(reason)
        self.offset = offset
        self.reason = reason


#: URL schemes the reference accepts in links (``MarkdownDocument.KnownSchemes``).
KNOWN_SCHEMES = (
    "http",
    "https",
    "ftp",
    "steam",
    "irc",
    "news",
    "mumble",
    "ssh",
    "ms-windows-store",
    "sip",
)


@dataclass(slots=True)
class InlineText:
    """A run of text the reference hands to its inline parser.

    ``segments`` maps it back to the pre-processed text: each entry is
    ``(offset_in_text, offset_in_preprocessed_text)`` for a contiguous copy; the
    characters a line join inserted map to the end of the joined line.
    """

    text: str
    segments: list[tuple[int, int]]

    def to_preprocessed(self, offset: int) -> int:
        """Offset in the pre-processed text of ``offset`` in this inline text."""
        best = self.segments[0]
        for segment in self.segments:
            if segment[0] > offset:
                break
            best = segment
        return best[1] + offset - best[0]


@dataclass(slots=True)
class Block:
    """A block the reference's parser produced.

    ``kind`` is ``paragraph`` (printed) or one of the dropped kinds: ``heading``,
    ``setext_heading``, ``list``, ``quote``, ``code``, ``fence``, ``hr``, ``table``,
    ``reference``.  ``start``/``end`` are offsets in the pre-processed text.
    """

    kind: str
    start: int
    end: int
    inline: InlineText | None = None
    #: Inline texts parsed inside a dropped block (headings, cells, list items).
    nested_inlines: list[InlineText] = field(default_factory=list)
    #: Blocks parsed inside a dropped block (quotes, list items).
    children: list[Block] = field(default_factory=list)
    #: For link reference definitions: id, url, tooltip.
    reference: tuple[str, str, str | None] | None = None
    #: For a setext heading: the offset of its underline.
    underline: int = -1
    #: For a code fence that is never closed.
    unclosed: bool = False


@dataclass(slots=True)
class LineInfo:
    start_of_line: int
    first_non_ws: int
    end_of_line: int
    start_of_next_line: int

    @property
    def is_blank(self) -> bool:
        return self.first_non_ws == self.end_of_line


def find_next_single_newline(md: str, start: int, end: int) -> tuple[int, int]:
    """(end of line, start of next line), as ``Common.FindNextSingleNewLine``.

    The reference searches the whole string, not just up to ``end``, and treats a
    lone CR as a line end only when no LF follows anywhere.
    """
    lf = md.find("\n", start)
    if lf == -1:
        lf = md.find("\r", start)
        if lf == -1:
            return end, end
    if lf > start and md[lf - 1] == "\r":
        return lf - 1, lf + 1
    return lf, lf + 1


def scan_line_start(md: str, pos: int, end: int, expected: int) -> tuple[int, int, str, int]:
    """Skip a line's leading blanks and up to ``expected`` quote markers.

    The reference repeats this loop in three places.  Returns the start of the line
    after the markers (and the one space each may carry), the first non-blank
    position, its character (``""`` for a blank line) and how many expected markers
    were missing.
    """
    start_of_line = pos
    non_space = pos
    char = ""
    while True:
        while non_space < end:
            c = md[non_space]
            if c == "\r" or c == "\n":
                break
            if c != " " and c != "\t":
                char = c
                break
            non_space += 1
        if expected == 0 or char != ">":
            return start_of_line, non_space, char, expected
        expected -= 1
        non_space += 1
        char = ""
        start_of_line = non_space
        if start_of_line < end and md[start_of_line] == " ":
            start_of_line += 1
            non_space += 1


def parse_lines(md: str, start: int, end: int, quote_depth: int) -> Iterator[LineInfo]:
    """``Common.ParseLines``: lines of a nested block, skipping quote markers."""
    pos = start
    line_starts_new_paragraph = True
    while pos < end:
        start_of_line, non_space, char, missing = scan_line_start(md, pos, end, quote_depth)
        if missing and line_starts_new_paragraph and char != "":
            return
        end_of_line, start_of_next = find_next_single_newline(md, non_space, end)
        yield LineInfo(start_of_line, non_space, end_of_line, start_of_next)
        if char == "":
            line_starts_new_paragraph = True
        pos = start_of_next


def skip_quote_characters(md: str, start: int, end: int, quote_depth: int) -> int:
    """``Common.SkipQuoteCharacters``."""
    return scan_line_start(md, start, end, quote_depth)[0]


# --------------------------------------------------------------------------------------
# The line loop.


@dataclass(slots=True)
class Line:
    """What the block rules see of the current line."""

    md: str
    start_of_line: int
    real_start_of_line: int
    non_space_pos: int
    non_space_char: str
    end_of_line: int
    start_of_next_line: int
    end: int
    quote_depth: int
    no_crash: bool
    probe: Probe | None
    starts_new_paragraph: bool
    paragraph: _ParagraphBuilder
    previous_start_of_line: int
    previous_end_of_line: int


@dataclass(slots=True)
class BlockMatch:
    block: Block
    #: Where the main loop resumes; ``None`` keeps the start of the next line.
    resume: int | None = None
    #: Characters to remove from the end of the pending paragraph (setext headings).
    truncate_paragraph: int = 0


BlockRule = Callable[[Line], BlockMatch | None]
#: Parses an inline text only to see whether the reference would crash on it.
Probe = Callable[[InlineText], None]


class _ParagraphBuilder:
    """The reference's ``StringBuilder paragraphText``, with its source segments."""

    __slots__ = ("length", "parts", "segments")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.segments: list[tuple[int, int]] = []

    def append(self, text: str, source: int) -> None:
        if text:
            self.segments.append((self.length, source))
            self.parts.append(text)
            self.length += len(text)

    def tail(self, n: int) -> str:
        """The last ``n`` characters (looking only at the last parts: lines are long)."""
        text = ""
        for part in reversed(self.parts):
            text = part + text
            if len(text) >= n:
                return text[-n:]
        return text

    def replace_tail(self, text: str) -> None:
        """Overwrite the last ``len(text)`` characters, as the reference's indexer does."""
        n = len(text)
        while len(self.parts[-1]) < n:
            last = self.parts.pop()
            self.parts[-1] += last
        self.parts[-1] = self.parts[-1][:-n] + text

    def truncate(self, n: int) -> None:
        whole = "".join(self.parts)[: self.length - n]
        self.length = len(whole)
        self.parts = [whole] if whole else []
        self.segments = [s for s in self.segments if s[0] < self.length]

    def take(self) -> InlineText:
        inline = InlineText("".join(self.parts), self.segments)
        self.parts = []
        self.length = 0
        self.segments = []
        return inline


def _hash_heading(line: Line) -> BlockMatch | None:
    if line.non_space_char != "#" or line.non_space_pos != line.start_of_line:
        return None
    md, start, end = line.md, line.start_of_line, line.end_of_line
    pos = start
    while pos < end and md[pos] == "#" and pos - start < 6:
        pos += 1
    if pos == start:
        return None
    while pos < end and md[end - 1] == "#":
        end -= 1
    block = Block("heading", start, line.end_of_line)
    block.nested_inlines.append(InlineText(md[pos:end], [(0, pos)]))
    return BlockMatch(block)


def _setext_heading(line: Line) -> BlockMatch | None:
    if (
        line.non_space_char not in ("-", "=")
        or line.non_space_pos != line.start_of_line
        or line.paragraph.length == 0
    ):
        return None
    md = line.md
    first_start, first_end = line.previous_start_of_line, line.previous_end_of_line
    second_start, second_end = line.start_of_line, line.end_of_line
    if second_end <= second_start:
        return None
    underline = md[second_start]
    # The reference's loops advance twice per character: they only look at every
    # other character of the underline, which this keeps.
    pos = second_start + 1
    while pos < second_end:
        if md[pos] != underline:
            break
        pos += 2
    while pos < second_end:
        if md[pos] != " " and md[pos] != "\t":
            return None
        pos += 2
    block = Block("setext_heading", first_start, second_end, underline=second_start)
    block.nested_inlines.append(InlineText(md[first_start:first_end], [(0, first_start)]))
    return BlockMatch(block, truncate_paragraph=first_end - first_start)


def _horizontal_rule(line: Line) -> BlockMatch | None:
    if line.non_space_char not in ("*", "-", "_"):
        return None
    md = line.md
    hr_char = ""
    count = 0
    pos = line.start_of_line
    while pos < line.end_of_line:
        c = md[pos]
        pos += 1
        if c in ("*", "-", "_"):
            if count > 0 and c != hr_char:
                return None
            hr_char = c
            count += 1
        elif c == "\n":
            break
        elif c not in MARKDOWN_WHITESPACE:
            return None
    if count < 3:
        return None
    return BlockMatch(Block("hr", line.start_of_line, line.end_of_line))


def _list(line: Line) -> BlockMatch | None:
    c = line.non_space_char
    if not line.starts_new_paragraph or not (c in "*+-" or "0" <= c <= "9"):
        return None
    parsed = parse_list(line.md, line.real_start_of_line, line.end, line.quote_depth, line.no_crash)
    if parsed is None:
        return None
    block, actual_end = parsed
    return BlockMatch(block, resume=actual_end)


def _code(line: Line) -> BlockMatch | None:
    if not line.starts_new_paragraph or not (
        line.non_space_pos > line.start_of_line or line.non_space_char == "`"
    ):
        return None
    parsed = parse_code(line.md, line.real_start_of_line, line.end, line.quote_depth)
    if parsed is None:
        return None
    block, actual_end = parsed
    return BlockMatch(block, resume=actual_end)


def _table(line: Line) -> BlockMatch | None:
    if not line.starts_new_paragraph:
        return None
    parsed = parse_table(
        line.md, line.real_start_of_line, line.end_of_line, line.end, line.quote_depth, line.probe
    )
    if parsed is None:
        return None
    block, actual_end = parsed
    return BlockMatch(block, resume=actual_end)


#: Quote nesting past which the reference (one recursion per ``>``) would exhaust
#: its stack, like :data:`.inline.MAX_DEPTH` for inlines.
MAX_QUOTE_DEPTH = 100


def _quote(line: Line) -> BlockMatch | None:
    if line.non_space_char != ">":
        return None
    if line.quote_depth >= MAX_QUOTE_DEPTH:
        if line.no_crash:
            return None
        raise ReferenceCrash(line.non_space_pos, f"quotes nested more than {MAX_QUOTE_DEPTH} deep")
    blocks, actual_end = parse_blocks(
        line.md, line.real_start_of_line, line.end, line.quote_depth + 1, line.no_crash, line.probe
    )
    block = Block("quote", line.real_start_of_line, actual_end, children=blocks)
    return BlockMatch(block, resume=actual_end)


def _link_reference(line: Line) -> BlockMatch | None:
    if line.non_space_char != "[":
        return None
    parsed = parse_link_reference(line.md, line.start_of_line, line.end_of_line)
    if parsed is None:
        return None
    return BlockMatch(Block("reference", line.start_of_line, line.end_of_line, reference=parsed))


def _make_block_ruler() -> Ruler[BlockRule]:
    ruler: Ruler[BlockRule] = Ruler()
    for name, rule in (
        ("heading", _hash_heading),
        ("setext_heading", _setext_heading),
        ("hr", _horizontal_rule),
        ("list", _list),
        ("code", _code),
        ("table", _table),
        ("quote", _quote),
        ("reference", _link_reference),
    ):
        ruler.push(name, rule)
    return ruler


#: The block rules, in the order the reference tries them on each line.  The
#: ``setext_heading`` rule must run before ``hr`` (both match ``---``) and ``code``
#: after ``list``; ``list``, ``code`` and ``table`` only start a new paragraph.
BLOCK_RULES = _make_block_ruler()


def parse_blocks(
    md: str,
    start: int,
    end: int,
    quote_depth: int = 0,
    no_crash: bool = False,
    probe: Probe | None = None,
) -> tuple[list[Block], int]:
    """``MarkdownDocument.Parse``: the blocks of ``md[start:end]`` and where it stopped.

    Raises :class:`ReferenceCrash` where the reference throws, unless ``no_crash``
    (then the offending rule just does not match, so the rest can be checked).
    ``probe`` is called on inline texts the reference parses while trying a block
    it then rejects (a table's first row), since a crash there breaks the card too.
    """
    rules = BLOCK_RULES.getRules("")
    blocks: list[Block] = []
    start_of_line = start
    line_starts_new_paragraph = True
    paragraph = _ParagraphBuilder()
    paragraph_start = -1
    previous_real_start = start
    previous_start = start
    previous_end = start

    def end_paragraph(at: int) -> None:
        nonlocal paragraph_start
        if paragraph.length > 0:
            blocks.append(Block("paragraph", paragraph_start, at, inline=paragraph.take()))
        paragraph_start = -1

    while start_of_line < end:
        real_start = start_of_line
        start_of_line, non_space, non_space_char, missing = scan_line_start(
            md, start_of_line, end, quote_depth
        )
        if missing:
            # Fewer quote markers than this quote level needs: the quote may go on
            # (a lazy continuation line) or end here.
            last_indentation = 0
            if real_start > 0:
                last_indentation = md[previous_real_start:previous_end].count(">")
            current_end, _ = find_next_single_newline(md, non_space, end)
            current_indentation = md[real_start:current_end].count(">")
            lazy = last_indentation == 1 and non_space_char != "" and md[real_start] != ">"
            collapse = last_indentation > 1 and 0 < current_indentation < last_indentation
            if not (lazy or collapse):
                end_paragraph(real_start)
                return blocks, real_start

        end_of_line, start_of_next = find_next_single_newline(md, non_space, end)
        if non_space_char == "":
            line_starts_new_paragraph = True
            end_paragraph(end_of_line)
        else:
            line = Line(
                md,
                start_of_line,
                real_start,
                non_space,
                non_space_char,
                end_of_line,
                start_of_next,
                end,
                quote_depth,
                no_crash,
                probe,
                line_starts_new_paragraph,
                paragraph,
                previous_start,
                previous_end,
            )
            match: BlockMatch | None = None
            for rule in rules:
                match = rule(line)
                if match is not None:
                    break
            line_starts_new_paragraph = match is not None
            if match is None:
                if paragraph.length > 0:
                    if paragraph.length > 2 and paragraph.tail(2) == "  ":
                        # Two trailing spaces become a hard line break ("\r\n").
                        paragraph.replace_tail("\r\n")
                    else:
                        paragraph.append(" ", previous_end)
                else:
                    paragraph_start = start_of_line
                paragraph.append(md[start_of_line:end_of_line], start_of_line)
                if start_of_next >= end:
                    end_paragraph(end_of_line)
            else:
                if match.truncate_paragraph:
                    paragraph.truncate(match.truncate_paragraph)
                end_paragraph(match.block.start)
                blocks.append(match.block)
                if match.resume is not None and match.resume > real_start:
                    start_of_next = match.resume
        previous_real_start = real_start
        previous_start = start_of_line
        previous_end = end_of_line
        start_of_line = start_of_next
    return blocks, start_of_line


# --------------------------------------------------------------------------------------
# Multi-line blocks.


def parse_code(md: str, start: int, max_end: int, quote_depth: int) -> tuple[Block, int] | None:
    """``CodeBlock.Parse``: a fenced or indented code block, or ``None``."""
    has_code = False
    actual_end = start
    inside = False
    fenced = False
    for info in parse_lines(md, start, max_end, quote_depth):
        pos = info.start_of_line
        if pos < max_end and md[pos] == "`":
            ticks = 0
            while pos < max_end and ticks < 3:
                if md[pos] != "`":
                    break
                ticks += 1
                pos += 1
            if ticks == 3:
                fenced = True
                inside = not inside
                if not inside:
                    actual_end = info.start_of_next_line
                    has_code = True
                    return Block("fence", start, actual_end), actual_end
        if not inside:
            if pos < max_end and md[pos] == "\t":
                pos += 1
            else:
                spaces = 0
                while pos < max_end and spaces < 4:
                    if md[pos] == " ":
                        spaces += 1
                    elif md[pos] == "\t":
                        spaces += 4
                    else:
                        break
                    pos += 1
                if spaces < 4 and not info.is_blank:
                    break
        has_code = True
        actual_end = info.start_of_next_line
    if not has_code:
        return None
    block = Block("fence" if fenced else "code", start, actual_end, unclosed=inside)
    return block, actual_end


def _list_item_preamble(md: str, start: int, max_end: int) -> int | None:
    """Where a list item's content starts, or ``None`` if the line is no list item."""
    c = md[start]
    if c in "*-+":
        start += 1
    elif "0" <= c <= "9":
        start += 1
        while start < max_end and "0" <= md[start] <= "9":
            start += 1
        if start == max_end or md[start] != ".":
            return None
        start += 1
    else:
        return None
    if start == max_end or md[start] not in (" ", "\t"):
        return None
    return start + 1


def parse_list(
    md: str, start: int, max_end: int, quote_depth: int, no_crash: bool = False
) -> tuple[Block, int] | None:
    """``ListBlock.Parse``: the extent of a list and the texts of its items.

    The nesting of sub-lists does not change what is printed (nothing), so only the
    extent and the item texts (parsed by the reference, hence able to crash it) are
    kept.
    """
    doll_spaces: list[int] = []
    doll_index = -1
    current: list[str] | None = None
    items: list[list[str]] = []
    actual_end = start
    for info in parse_lines(md, start, max_end, quote_depth):
        if not info.is_blank:
            content = None
            if info.first_non_ws - info.start_of_line < (doll_index + 2) * 4:
                content = _list_item_preamble(md, info.first_non_ws, info.end_of_line)
            if content is not None:
                spaces = info.first_non_ws - info.start_of_line
                if spaces in doll_spaces:
                    doll_index = doll_spaces.index(spaces)
                    del doll_spaces[doll_index + 1 :]
                else:
                    doll_index = max(1, 1 + (spaces - 1) // 4)
                    if doll_index < len(doll_spaces):
                        del doll_spaces[doll_index + 1 :]
                    else:
                        doll_index = len(doll_spaces)
                        doll_spaces.append(spaces)
                current = [md[content : info.end_of_line]]
                items.append(current)
            else:
                if current is None:
                    return None
                spaces = info.first_non_ws - info.start_of_line
                if spaces == 0:
                    break
                doll_index = min(doll_index, (spaces - 1) // 4)
                line_start = min(info.first_non_ws, info.start_of_line + (doll_index + 1) * 4)
                current.append(md[line_start : info.end_of_line])
        actual_end = info.end_of_line
    if not items:
        # Inside a quote, a list can start on a line without '>': the reference then
        # sees no line at all and indexes an empty list of lists.
        if no_crash:
            return None
        raise ReferenceCrash(start, "a list starts on a quote's continuation line")
    block = Block("list", start, actual_end)
    for item in items:
        text = " ".join(item)
        block.nested_inlines.append(InlineText(text, [(0, start)]))
    return block, actual_end


def _table_row(
    md: str,
    start: int,
    max_end: int,
    quote_depth: int,
    require_bar: bool,
    cells: list[tuple[int, int]],
) -> int:
    """``TableRow.ParseContents``: appends the cells' extents, returns the next line."""
    pos = skip_quote_characters(md, start, max_end, quote_depth)
    has_bar = False
    if pos < max_end and md[pos] == "|":
        has_bar = True
        pos += 1
    while pos < max_end:
        while pos < max_end and md[pos] in (" ", "\t"):
            pos += 1
        cell_start = pos
        end_of_line_found = True
        while pos < max_end:
            c = md[pos]
            if c == "|":
                has_bar = True
                end_of_line_found = False
                break
            if c == "\n":
                break
            if c == "\r":
                if pos < max_end and pos + 1 < len(md) and md[pos + 1] == "\n":
                    pos += 1
                break
            pos += 1
        end_of_cell = pos
        if end_of_line_found and not has_bar and require_bar:
            return start
        if end_of_cell > cell_start:
            while md[pos - 1] in MARKDOWN_WHITESPACE:
                pos -= 1
        content_end = pos
        if not end_of_line_found or content_end > cell_start:
            cells.append((cell_start, content_end))
        if pos == max_end:
            break
        pos = end_of_cell + 1
        if end_of_line_found:
            break
    return pos


def parse_table(
    md: str,
    start: int,
    end_of_first_line: int,
    max_end: int,
    quote_depth: int,
    probe: Probe | None = None,
) -> tuple[Block, int] | None:
    """``TableBlock.Parse``: a header row, a ``---|---`` row, then rows."""
    block_start = start
    if md.find("|", start, end_of_first_line) < 0:
        return None
    first: list[tuple[int, int]] = []
    start = _table_row(md, start, max_end, quote_depth, True, first)
    second: list[tuple[int, int]] = []
    start = _table_row(md, start, max_end, quote_depth, False, second)
    if not _is_delimiter_row(md, first, second):
        # The reference parsed the first row's cells before giving up.
        if probe is not None:
            for a, b in first:
                probe(InlineText(md[a:b], [(0, a)]))
        return None
    cells = list(first)
    while start < max_end:
        row: list[tuple[int, int]] = []
        start = _table_row(md, start, max_end, quote_depth, True, row)
        if not row:
            break
        cells.extend(row)
    block = Block("table", block_start, start)
    block.nested_inlines.extend(InlineText(md[a:b], [(0, a)]) for a, b in cells)
    return block, start


def _is_delimiter_row(md: str, first: list[tuple[int, int]], second: list[tuple[int, int]]) -> bool:
    if len(second) < len(first):
        return False
    for i in range(len(first)):
        cell = md[second[i][0] : second[i][1]]
        if not cell or cell[0] not in ":-" or cell[-1] not in ":-":
            return False
        if any(ch != "-" for ch in cell[1:-1]):
            return False
    return True


def parse_link_reference(md: str, start: int, end: int) -> tuple[str, str, str | None] | None:
    """``LinkReferenceBlock.Parse``: ``[id]: url "tooltip"``."""
    if start >= end or md[start] != "[":
        return None
    pos = md.find("]", start + 1, end)
    if pos < 0:
        return None
    ref_id = md[start + 1 : pos]
    pos += 1
    if pos == end or md[pos] != ":":
        return None
    pos += 1
    while pos < end and md[pos] in MARKDOWN_WHITESPACE:
        pos += 1
    if pos == end:
        return None
    url_start = pos
    while pos < end and md[pos] not in MARKDOWN_WHITESPACE:
        pos += 1
    url = md[url_start:pos].lstrip("<").rstrip(">")
    pos += 1
    while pos < end and md[pos] in MARKDOWN_WHITESPACE:
        pos += 1
    tooltip = None
    if pos < end:
        opener = md[pos]
        if opener == "(":
            closer = ")"
        elif opener in ('"', "'"):
            closer = opener
        else:
            return None
        pos += 1
        tooltip_start = pos
        while pos < end and md[pos] != closer:
            pos += 1
        if pos == end:
            return None
        tooltip = md[tooltip_start:pos]
        pos += 1
        while pos < end and md[pos] in MARKDOWN_WHITESPACE:
            pos += 1
        if pos < end:
            return None
    return ref_id, url, tooltip
