"""What the markup rules share: the target and its reporter, the printed tokens.

A check sees the :class:`~..parser.ParseResult` the reference parser produced; these
helpers tell which of its tokens Aminduna actually prints, and turn offsets in the
parsed text back into positions in the author's source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from markdown_it.token import Token

from ...diagnostics import Applicability, Diagnostic, Family, Fix, RegistryError, Rule, Target
from ..blocks import Block, InlineText
from ..parser import ParsedParagraph, ParseResult
from ..tree import (
    BREAK_CODE,
    EMPTY_PARAGRAPH_CODE,
    SYMBOL_CODES,
    DropCap,
    Inline,
    Symbol,
    Text,
)

KNOWN_CODES = SYMBOL_CODES | {BREAK_CODE, EMPTY_PARAGRAPH_CODE}


class Reporter:
    """Makes the diagnostics of one markup rule, with positions in the checked source.

    The markup checker hands each check the reporter of its own rule: a diagnostic's
    code and severity are the rule's, never typed in the check.
    """

    __slots__ = ("rule",)

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def at(
        self, result: ParseResult, start: int, end: int, message: str, fix: Fix | None = None
    ) -> Diagnostic:
        """A diagnostic on source characters ``[start, end)`` (at least one, if any)."""
        if fix is not None and self.rule.applicability is Applicability.NONE:
            raise RegistryError(f"rule {self.rule.code} declares no fix, yet its check made one")
        source_map = result.pre.source_map
        if start < len(result.source):
            end = max(end, start + 1)
        line, column = source_map.line_col(start)
        end_line, end_column = line, column
        if end > start:
            end_line, end_column = source_map.line_col(end - 1)
            end_column += 1
        return Diagnostic(
            self.rule.code,
            self.rule.severity,
            message,
            line,
            column,
            end_line,
            end_column,
            start,
            end,
            fix,
        )

    def at_inline(
        self,
        result: ParseResult,
        inline: InlineText,
        start: int,
        end: int,
        message: str,
        fix: Fix | None = None,
    ) -> Diagnostic:
        """A diagnostic on characters ``[start, end)`` of a parsed inline text."""
        source_start = result.source_offset(inline, start)
        source_end = result.source_offset(inline, max(end - 1, start)) + 1
        return self.at(result, source_start, source_end, message, fix)


#: What a markup check reads (the parsed text) and reports (diagnostics).
MARKUP: Target[ParseResult, Reporter, Diagnostic] = Target("markup", Reporter)
#: The markup rules: they read a parse result, in every language.
MARKUP_RULES = Family(prefix="MK", target=MARKUP)
#: The markup target (its former name, still imported as such).
TARGET = MARKUP
#: A markup check: ``(parsed text, its rule's reporter) -> diagnostics``.
MarkupCheck = Callable[[ParseResult, Reporter], Iterator[Diagnostic]]


def block_span(result: ParseResult, block: Block) -> tuple[int, int]:
    """The source characters ``[start, end)`` of a markdown block."""
    to_source = result.pre.source_map.to_source
    return to_source(block.start), to_source(max(block.end - 1, block.start)) + 1


def printed_tokens(tokens: list[Token]) -> Iterator[tuple[Token, bool]]:
    """Tokens of a paragraph with a flag: does Aminduna print what they hold?

    Containers Aminduna drops (links, strike-through, ...) are yielded once, flagged
    as printed if their parent is; what they contain is yielded as not printed.
    """
    dropped_depth = 0
    for token in tokens:
        if token.nesting == 1:
            printed = dropped_depth == 0
            yield token, printed
            if dropped_depth or _drops_content(token):
                dropped_depth += 1
        elif token.nesting == -1:
            if dropped_depth:
                dropped_depth -= 1
            yield token, dropped_depth == 0
        else:
            yield token, dropped_depth == 0


def _drops_content(token: Token) -> bool:
    if token.type == "link_open":
        return not token.meta.get("as_text", False)
    return token.type in ("s_open", "sup_open", "sub_open")


def paragraph_printed(paragraph: ParsedParagraph) -> list[tuple[Token, bool]]:
    """:func:`printed_tokens` of a paragraph, computed once per parse."""
    if paragraph.printed is None:
        paragraph.printed = list(printed_tokens(paragraph.tokens))
    return paragraph.printed


def printed_text_tokens(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token]]:
    for paragraph in result.paragraphs:
        for token, printed in paragraph_printed(paragraph):
            if printed and token.type == "text":
                yield paragraph, token


def node_text(node: Inline) -> str:
    if isinstance(node, Text):
        return node.text
    if isinstance(node, DropCap):
        return node.letter
    if isinstance(node, Symbol):
        return f":{node.code}:"
    return " "


def preview(text: str, limit: int = 40) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def paragraph_tokens(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token, bool]]:
    for paragraph in result.paragraphs:
        for token, printed in paragraph_printed(paragraph):
            yield paragraph, token, printed
