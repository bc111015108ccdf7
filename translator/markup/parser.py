"""Parse card text into the document tree, exactly as Aminduna reads it.

The pipeline is a markdown-it-py parser whose core chain is
``arcmage_preprocess`` (the reference's text rewrites) → ``arcmage_block`` (the
reference's block loop, :mod:`.blocks`) → ``arcmage_inline`` (the reference's inline
parsers, :mod:`.inline`).  The token stream is then rendered into a
:class:`~.tree.Document` following Aminduna's ``MarkdownRender``: only paragraphs
survive; ``:br:`` trims the next run's leading spaces; ``:pa:`` empties its
paragraph; whitespace-only runs vanish; ``@@`` becomes a space.

:func:`parse` also returns what the diagnostics need: the tokens, the dropped blocks,
the runs that vanished, the text ``:pa:`` erased, and the places where the reference
would throw.
"""

from __future__ import annotations

import html.entities
import re
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType

from .blocks import Block, InlineText, ReferenceCrash, parse_blocks
from .inline import DOTNET_WHITESPACE, arcmage_inline_plugin, is_url_valid
from .preprocess import SPACE_PLACEHOLDER, Preprocessed, preprocess
from .tree import (
    BREAK_CODE,
    EMPTY_PARAGRAPH_CODE,
    SYMBOL_CODES,
    Document,
    DropCap,
    Inline,
    LineBreak,
    Paragraph,
    Position,
    Symbol,
    Text,
)

#: The entities ``TextRunInline`` decodes: HTML 4's, plus ``&apos;`` and ``&#160;``.
#: Any other ``&name;`` (numeric ones included) is printed as typed.
ENTITIES: dict[str, str] = {name: chr(code) for name, code in html.entities.name2codepoint.items()}
ENTITIES["apos"] = "'"
ENTITIES["#160"] = "\xa0"


def decode_entities(text: str) -> str:
    """``TextRunInline.Parse``: decode the known ``&name;`` entities of a text run."""
    amp = text.find("&")
    if amp < 0:
        return text
    parts: list[str] = []
    last = 0
    while amp >= 0:
        semi = text.find(";", amp + 1)
        if semi < 0:
            break
        name = text[amp + 1 : semi]
        char = ENTITIES.get(name)
        if char is None:
            amp = text.find("&", amp + 1)
            continue
        parts.append(text[last:amp])
        parts.append(char)
        last = semi + 1
        amp = text.find("&", last)
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


_WHITESPACE_CHARS = "".join(sorted(DOTNET_WHITESPACE))


def is_blank(text: str) -> bool:
    """.NET ``string.IsNullOrWhiteSpace``."""
    return not text.strip(_WHITESPACE_CHARS)


def trim_start(text: str) -> str:
    """.NET ``string.TrimStart()``."""
    return text.lstrip(_WHITESPACE_CHARS)


# --------------------------------------------------------------------------------------
# markdown-it-py wiring.


def _core_block(state: StateCore) -> None:
    pre: Preprocessed = state.env["arcmage_pre"]
    md = state.md
    env = state.env

    def probe(inline: InlineText) -> None:
        _, crash = _parse_inline(md, inline.text, env)
        if crash is not None:
            raise ReferenceCrash(inline.to_preprocessed(crash.offset), crash.reason)

    try:
        blocks, _ = parse_blocks(pre.text, 0, len(pre.text), probe=probe)
    except ReferenceCrash as crash:
        state.env["arcmage_block_crashes"].append(crash)
        blocks, _ = parse_blocks(pre.text, 0, len(pre.text), no_crash=True)
    state.env["arcmage_blocks"] = blocks
    references: dict[str, tuple[str, str, str | None]] = {}
    for block in reversed(blocks):
        if block.reference is not None:
            references.setdefault(block.reference[0].lower(), block.reference)
    state.env["arcmage_references"] = references
    for block in blocks:
        if block.kind == "paragraph":
            assert block.inline is not None
            opening = Token("paragraph_open", "p", 1)
            opening.meta = {"block": block}
            inline = Token("inline", "", 0)
            inline.content = block.inline.text
            inline.meta = {"block": block, "inline": block.inline}
            inline.children = []
            state.tokens += [opening, inline, Token("paragraph_close", "p", -1)]
        else:
            dropped = Token("arcmage_dropped", "", 0)
            dropped.meta = {"block": block}
            state.tokens.append(dropped)


def _parse_inline(
    md: MarkdownIt, text: str, env: EnvType
) -> tuple[list[Token], ReferenceCrash | None]:
    """Inline tokens of ``text``; on a reference crash, parse again without crashing."""
    tokens: list[Token] = []
    try:
        md.inline.parse(text, md, env, tokens)
        return tokens, None
    except ReferenceCrash as crash:
        env["_no_crash"] = True
        env["_ignore_links"] = False
        tokens = []
        try:
            md.inline.parse(text, md, env, tokens)
        finally:
            env["_no_crash"] = False
        return tokens, crash


def _core_inline(state: StateCore) -> None:
    md = state.md
    env = state.env
    crashes: list[tuple[InlineText, ReferenceCrash]] = env["arcmage_crashes"]
    for token in state.tokens:
        if token.type == "inline":
            children, crash = _parse_inline(md, token.content, env)
            token.children = children
            if crash is not None:
                crashes.append((token.meta["inline"], crash))
        elif token.type == "arcmage_dropped":
            # The reference parses the inline text of dropped blocks too; a crash
            # there still breaks the card.
            for inline in _nested_inlines(token.meta["block"]):
                _, crash = _parse_inline(md, inline.text, env)
                if crash is not None:
                    crashes.append((inline, crash))


def _nested_inlines(block: Block) -> list[InlineText]:
    found = list(block.nested_inlines)
    for child in block.children:
        if child.inline is not None:
            found.append(child.inline)
        found.extend(_nested_inlines(child))
    return found


@lru_cache(maxsize=1)
def markdown_it() -> MarkdownIt:
    """The markdown-it-py instance configured as the reference's parser."""
    md = MarkdownIt("zero", {"maxNesting": 10_000})
    md.core.ruler.disable(["normalize", "text_join"])
    md.core.ruler.at("block", _core_block)
    md.core.ruler.at("inline", _core_inline)
    md.use(arcmage_inline_plugin)
    return md


# --------------------------------------------------------------------------------------
# Rendering the tokens as Aminduna's MarkdownRender does.


@dataclass(slots=True)
class VanishedRun:
    """A whitespace-only text run the reference dropped (e.g. between two symbols)."""

    text: str
    start: int
    end: int
    inline: InlineText
    #: Index of its token in the paragraph's token list.
    token_index: int


@dataclass(slots=True)
class Erasure:
    """Layout nodes a ``:pa:`` code removed from its paragraph."""

    code_start: int
    inline: InlineText
    erased: tuple[Inline, ...]


@dataclass(slots=True)
class ParsedParagraph:
    block: Block
    inline: InlineText
    tokens: list[Token]
    node: Paragraph
    #: (token, printed?) pairs, computed once for all the checks that read them.
    printed: list[tuple[Token, bool]] | None = None


@dataclass(slots=True)
class Crash:
    """A place where the reference converter throws instead of producing a layout."""

    offset: int  # in the source
    reason: str


@dataclass(slots=True)
class ParseResult:
    """A parsed card text: the layout tree, and what diagnostics need to explain it."""

    source: str
    pre: Preprocessed
    document: Document
    blocks: list[Block]
    paragraphs: list[ParsedParagraph]
    references: dict[str, tuple[str, str, str | None]]
    vanished: list[VanishedRun] = field(default_factory=list)
    erasures: list[Erasure] = field(default_factory=list)
    crashes: list[Crash] = field(default_factory=list)

    def source_offset(self, inline: InlineText, offset: int) -> int:
        """Source offset of ``offset`` in an inline text."""
        return self.pre.source_map.to_source(inline.to_preprocessed(offset))

    def position(self, source_offset: int, source_end: int | None = None) -> Position:
        line, column = self.pre.source_map.line_col(source_offset)
        return Position(
            line, column, source_offset, source_offset if source_end is None else source_end
        )

    def span(self, inline: InlineText, start: int, end: int) -> Position:
        """Position of ``[start, end)`` of an inline text, in the source (resolved lazily)."""
        return Position.deferred(self._span_values, inline, start, end)

    def _span_values(self, inline: InlineText, start: int, end: int) -> tuple[int, int, int, int]:
        source_start = self.source_offset(inline, start)
        source_end = self.source_offset(inline, end - 1) + 1 if end > start else source_start
        line, column = self.pre.source_map.line_col(source_start)
        return line, column, source_start, source_end


class _Context:
    """Aminduna's RenderContext: clones copy bold/italic, never the trim flag."""

    __slots__ = ("bold", "italic", "trim")

    def __init__(self, bold: bool, italic: bool) -> None:
        self.bold = bold
        self.italic = italic
        self.trim = False


_SKIPPED_CONTAINERS = frozenset(("s_open", "sup_open", "sub_open"))
#: Characters .NET's XML writer refuses (it throws on them).
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _render_paragraph(result: ParseResult, inline: InlineText, tokens: list[Token]) -> Paragraph:
    children: list[Inline] = []
    emptied = False
    stack = [_Context(False, False)]
    references = result.references
    i = 0
    n = len(tokens)
    while i < n:
        token = tokens[i]
        kind = token.type
        context = stack[-1]
        if kind == "text":
            start = token.meta["start"]
            raw = token.content
            text = decode_entities(raw)
            if context.trim:
                text = trim_start(text)
                context.trim = False
            if is_blank(text):
                if text:
                    result.vanished.append(VanishedRun(text, start, start + len(raw), inline, i))
            else:
                text = _as_written(text)
                children.append(
                    Text(
                        text,
                        context.bold,
                        context.italic,
                        result.span(inline, start, start + len(raw)),
                    )
                )
        elif kind == "strong_open":
            stack.append(_Context(True, context.italic))
        elif kind == "em_open":
            stack.append(_Context(context.bold, True))
        elif kind in ("strong_close", "em_close", "link_close"):
            stack.pop()
        elif kind == "link_open":
            url = token.meta["url"]
            if url is None:
                reference = references.get(token.meta["ref_id"].lower())
                if reference is not None and is_url_valid(reference[1]):
                    url = reference[1]
            has_children = tokens[i + 1].type != "link_close"
            token.meta["as_text"] = url is None and has_children
            if token.meta["as_text"]:
                # An unresolved reference link: its text is rendered in place, with
                # the same context (not a clone).
                stack.append(context)
            else:
                i = _skip_container(tokens, i)
                continue
        elif kind in _SKIPPED_CONTAINERS:
            i = _skip_container(tokens, i)
            continue
        elif kind == "arc_code":
            name = token.meta["name"]
            span = result.span(inline, token.meta["start"], token.meta["end"])
            if name in SYMBOL_CODES:
                children.append(Symbol(name, span))
            elif name == BREAK_CODE:
                children.append(LineBreak(span))
                context.trim = True
            elif name == EMPTY_PARAGRAPH_CODE:
                if children:
                    result.erasures.append(Erasure(token.meta["start"], inline, tuple(children)))
                children = []
                emptied = True
            else:
                children.append(DropCap(_as_written(name), span))
        i += 1
    for node in children:
        if isinstance(node, Text):
            text = node.text
        elif isinstance(node, DropCap):
            text = node.letter
        else:
            continue
        bad = _INVALID_XML.search(text)
        if bad is not None:
            result.crashes.append(
                Crash(
                    node.pos.offset + bad.start(),
                    f"character U+{ord(bad.group()):04X} cannot be written as XML",
                )
            )
    position = result.span(inline, 0, len(inline.text)) if inline.text else result.position(0)
    return Paragraph(tuple(children), position, emptied)


def _as_written(text: str) -> str:
    """Text as the reference writes it out: ``@@`` is a space, and its XML writer
    turns CR and CRLF (from two trailing spaces, or a stray CR) into LF."""
    if SPACE_PLACEHOLDER in text:
        text = text.replace(SPACE_PLACEHOLDER, " ")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _skip_container(tokens: list[Token], i: int) -> int:
    """Index after the closing token of the container opened at ``i``."""
    depth = 0
    while True:
        depth += tokens[i].nesting
        i += 1
        if depth == 0:
            return i


def _assign_positions(tokens: list[Token], start: int) -> int:
    """Give pending-text tokens their offsets (the rules set them on all others)."""
    cursor = start
    for token in tokens:
        if token.type == "text":
            token.meta = {"start": cursor, "end": cursor + len(token.content)}
            cursor += len(token.content)
        elif token.nesting == 1:
            cursor = token.meta["inner"]
        else:
            cursor = token.meta["end"]
    return cursor


def parse(source: str, start_line: int = 1) -> ParseResult:
    """Parse card text (the ``markdownText`` of a card) as Aminduna does.

    ``start_line`` is the line number of the text's first line in its file, so that
    positions point into card files whose text follows a front matter.
    """
    pre = preprocess(source, start_line)
    env: dict = {
        "arcmage_pre": pre,
        "arcmage_crashes": [],
        "arcmage_block_crashes": [],
        "_ignore_links": False,
        "_no_crash": False,
    }
    tokens = markdown_it().parse(pre.text, env)
    result = ParseResult(
        source, pre, Document(()), env["arcmage_blocks"], [], env["arcmage_references"]
    )
    paragraphs: list[Paragraph] = []
    for token in tokens:
        if token.type != "inline":
            continue
        inline: InlineText = token.meta["inline"]
        children = token.children or []
        _assign_positions(children, 0)
        node = _render_paragraph(result, inline, children)
        paragraphs.append(node)
        result.paragraphs.append(ParsedParagraph(token.meta["block"], inline, children, node))
    result.document = Document(tuple(paragraphs))
    for crash in env["arcmage_block_crashes"]:
        result.crashes.append(Crash(pre.source_map.to_source(crash.offset), crash.reason))
    for inline, crash in env["arcmage_crashes"]:
        result.crashes.insert(
            0,
            Crash(
                result.source_offset(inline, min(crash.offset, max(len(inline.text) - 1, 0))),
                crash.reason,
            ),
        )
    return result


def parse_document(source: str) -> Document:
    """The layout tree of a card text."""
    return parse(source).document


__all__ = [
    "Crash",
    "Erasure",
    "ParseResult",
    "ParsedParagraph",
    "VanishedRun",
    "decode_entities",
    "markdown_it",
    "parse",
    "parse_document",
]
