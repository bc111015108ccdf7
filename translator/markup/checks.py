"""Markup diagnostics: where Aminduna's reading of a card text will surprise its author.

Each rule is registered in :data:`translator.diagnostics.REGISTRY` (family ``MK``)
with its documentation; ``translator markup check --explain CODE`` prints it.  The
checks work on a :class:`~.parser.ParseResult`, so they see exactly what the reference
parser saw: which colons paired up, which blocks it dropped, which spaces vanished.
"""

from __future__ import annotations

import html.entities
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from markdown_it.token import Token

from ..diagnostics import REGISTRY, Check, Diagnostic, Fix, Rule, Severity
from .blocks import Block, InlineText
from .parser import ENTITIES, ParsedParagraph, ParseResult, parse
from .tree import (
    BREAK_CODE,
    EMPTY_PARAGRAPH_CODE,
    SYMBOL_CODES,
    DropCap,
    Inline,
    LineBreak,
    Symbol,
    Text,
)

TARGET = "markup"
KNOWN_CODES = SYMBOL_CODES | {BREAK_CODE, EMPTY_PARAGRAPH_CODE}
_CODE_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9]{0,3}")
#: Characters the reference's (unreachable) escape code would have escaped.
_ESCAPABLE = frozenset("\\`*_{}[]()#+-.!|~^&:<>/")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
#: MK401 re-parses the text once per ``@@``; a card has a handful at most.
MAX_AT_AT_CHECKS = 50
_DROPPED_INLINE = {
    "s_open": "strike-through (~~...~~)",
    "sup_open": "superscript (^...)",
    "sub_open": "subscript (<sub>...</sub>)",
    "code_inline": "code span (`...`)",
    "html_comment": "HTML comment (<!-- ... -->)",
    "html_anchor": "HTML anchor (<a ...>)",
}
_DROPPED_LINK = {
    "url": "URL",
    "angle": "URL",
    "www": "www. address",
    "email": "e-mail address",
    "reddit": "r/ or u/ name",
}
_BLOCK_MESSAGES = {
    "heading": "a line starting with '#' is a heading: Aminduna does not print it",
    "list": "a line starting with '- ', '+ ' or a number and '. ' starts a list: "
    "Aminduna does not print it (nor the indented lines after it)",
    "quote": "a line starting with '>' is a quote: Aminduna does not print it",
    "code": "a line starting with a tab is a code block: Aminduna does not print it",
    "fence": "``` starts a code block: Aminduna does not print it",
    "hr": "a line of ---, *** or ___ is a horizontal rule: Aminduna does not print it",
    "table": "a line with '|' over a '---|---' line is a table: Aminduna does not print it",
    "reference": "'[id]: url' defines a link reference: Aminduna does not print the line",
}


def rule(
    code: str,
    name: str,
    severity: Severity,
    summary: str,
    rationale: str,
    bad: str,
    good: str,
    fix: str | None = None,
) -> Callable[[Check], Check]:
    """Register a markup check with its documentation."""
    return REGISTRY.register(Rule(code, name, severity, summary, rationale, bad, good, fix), TARGET)


class Reporter:
    """Builds diagnostics with positions in the checked source."""

    def __init__(self, result: ParseResult, code: str) -> None:
        self.result = result
        self.rule = REGISTRY.get(code)
        assert self.rule is not None

    def at(self, start: int, end: int, message: str, fix: Fix | None = None) -> Diagnostic:
        """A diagnostic on source characters ``[start, end)`` (at least one, if any)."""
        source_map = self.result.pre.source_map
        if start < len(self.result.source):
            end = max(end, start + 1)
        line, column = source_map.line_col(start)
        end_line, end_column = line, column
        if end > start:
            end_line, end_column = source_map.line_col(end - 1)
            end_column += 1
        assert self.rule is not None
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
        self, inline: InlineText, start: int, end: int, message: str, fix: Fix | None = None
    ) -> Diagnostic:
        result = self.result
        source_start = result.source_offset(inline, start)
        source_end = result.source_offset(inline, max(end - 1, start)) + 1
        return self.at(source_start, source_end, message, fix)

    def block_span(self, block: Block) -> tuple[int, int]:
        to_source = self.result.pre.source_map.to_source
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


def _printed(paragraph: ParsedParagraph) -> list[tuple[Token, bool]]:
    """:func:`printed_tokens` of a paragraph, computed once per parse."""
    if paragraph.printed is None:
        paragraph.printed = list(printed_tokens(paragraph.tokens))
    return paragraph.printed


def _printed_text_tokens(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token]]:
    for paragraph in result.paragraphs:
        for token, printed in _printed(paragraph):
            if printed and token.type == "text":
                yield paragraph, token


def _node_text(node: Inline) -> str:
    if isinstance(node, Text):
        return node.text
    if isinstance(node, DropCap):
        return node.letter
    if isinstance(node, Symbol):
        return f":{node.code}:"
    return " "


def _preview(text: str, limit: int = 40) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------------------
# MK0: the text cannot be converted at all.


@rule(
    "MK001",
    "reference-crash",
    Severity.ERROR,
    "The Arcmage converter throws an exception on this text.",
    "Aminduna's markdown parser has bugs that make it throw instead of producing a "
    "layout: a `www.` address right after a link, a list starting on a line that "
    "continues a quote, elements nested hundreds of levels deep.  The card then "
    "cannot be rendered at all.  The position is where the parser fails.",
    "See u/www.arcmage.org for more.",
    "See arcmage.org for more.",
)
def check_crash(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK001")
    for crash in result.crashes:
        if crash.reason.startswith("character U+"):
            continue  # MK002 reports these, with a fix.
        yield report.at(
            crash.offset, crash.offset + 1, f"the Arcmage converter fails here ({crash.reason})"
        )


_INVISIBLE = {"\ufeff": "BYTE ORDER MARK", "\ufffe": "NONCHARACTER", "\uffff": "NONCHARACTER"}
#: Any character MK002 may report (a carriage return is checked further).
_SUSPECT_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\ufeff\ufffe\uffff]")


@rule(
    "MK002",
    "invalid-character",
    Severity.ERROR,
    "A control or invisible character that Aminduna cannot store or print.",
    "Control characters (NUL, escape, form feed, ...) cannot be written in the layout "
    "XML: Aminduna throws when it meets one in printed text.  A carriage return on its "
    "own (old Mac line ends, or pasted from a word processor) becomes a raw line feed "
    "inside a run of text.  A byte order mark in the middle of a text is invisible "
    "noise.  None of them is ever meant.",
    "Draw a card.\x0c",
    "Draw a card.",
    "Deletes the character; a lone carriage return becomes a line feed.",
)
def check_invalid_character(result: ParseResult) -> Iterator[Diagnostic]:
    source = result.source
    if _SUSPECT_CHARACTER.search(source) is None:
        return
    report = Reporter(result, "MK002")
    for index, char in enumerate(source):
        code = ord(char)
        if char == "\r":
            if source[index + 1 : index + 2] == "\n":
                continue
            yield report.at(
                index, index + 1, "carriage return without a line feed", Fix(index, index + 1, "\n")
            )
        elif (code < 32 and char not in "\t\n") or char in _INVISIBLE:
            name = _INVISIBLE.get(char) or unicodedata.name(char, "") or _control_name(code)
            yield report.at(
                index,
                index + 1,
                f"invisible character U+{code:04X} {name}",
                Fix(index, index + 1, ""),
            )


def _control_name(code: int) -> str:
    return "NULL" if code == 0 else "CONTROL CHARACTER"


# --------------------------------------------------------------------------------------
# MK1: codes, drop caps and symbols.


def _code_tokens(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token]]:
    for paragraph in result.paragraphs:
        for token, printed in _printed(paragraph):
            if printed and token.type == "arc_code":
                yield paragraph, token


def _classify_code(name: str, next_char: str = " ") -> str:
    """How a printed ``:name:`` reads: ``known`` code, proper drop cap ``letter``,
    known code in the wrong ``case``, drop-cap-like ``letters``, typo'd ``code``, or
    ``other`` text that just happens to sit between two colons.

    ``next_char`` (what follows the closing colon) decides between a wrong-case
    code and a multi-letter drop cap: ``:Mi:ne`` is a drop cap, ``:Mi: x`` a code.
    """
    if name in KNOWN_CODES:
        return "known"
    if len(name) == 1 and "A" <= name <= "Z":
        return "letter"
    starts_word = next_char.isalpha()
    if name.lower() in KNOWN_CODES and not starts_word:
        return "case"
    if name.isalpha() and len(name) <= 3:
        if not starts_word and len(name) > 1 and _did_you_mean(name):
            return "code"
        return "letters"
    if _CODE_LIKE.fullmatch(name):
        return "code"
    return "other"


def _next_char(paragraph: ParsedParagraph, token: Token) -> str:
    end = token.meta["end"]
    text = paragraph.inline.text
    return text[end] if end < len(text) else " "


@rule(
    "MK101",
    "colon-pair",
    Severity.ERROR,
    "Two colons in running text pair up into a drop cap.",
    "A `:` followed, later in the paragraph, by another `:` is read as a code; when "
    "the text between them is not a known code, Aminduna prints it as a drop cap: "
    '`At 10:30 and 11:45` prints a huge "30 and 11".  A colon followed by a space '
    "cannot open a code, which is why `Cost: 3` is safe.",
    "At 10:30 and 11:45, draw a card.",
    "At 10 h 30 and 11 h 45, draw a card.",
)
def check_colon_pair(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK101")
    for paragraph, token in _code_tokens(result):
        name = token.meta["name"]
        if _classify_code(name, _next_char(paragraph, token)) == "other":
            yield report.at_inline(
                paragraph.inline,
                token.meta["start"],
                token.meta["end"],
                f"':{_preview(name)}:' prints as a drop cap "
                f'"{_preview(name)}": these colons pair up',
            )


def _did_you_mean(name: str) -> str | None:
    lowered = name.lower()
    for code in sorted(KNOWN_CODES):
        if (
            len(code) == len(lowered)
            and sum(a != b for a, b in zip(code, lowered, strict=True)) == 1
        ):
            return code
        if abs(len(code) - len(lowered)) == 1:
            longer, shorter = (code, lowered) if len(code) > len(lowered) else (lowered, code)
            if any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer))):
                return code
    return None


@rule(
    "MK102",
    "unknown-code",
    Severity.ERROR,
    "A `:code:` that is not a symbol: Aminduna prints it as a drop cap.",
    "Codes are case-sensitive: `:G1:` is not the cypher disc `:g1:` but a drop cap "
    '"G1", `:Br:` is not a line break.  Any code Aminduna does not know becomes a drop '
    "cap.  Known codes: g0-g9, gx, gt, m, m0-m9, ma, mt, mx, mi, mc, mic, mis, br, pa.",
    "Pay :G1: to draw a card.",
    "Pay :g1: to draw a card.",
    "Lower-cases a code that differs from a known one only by case.",
)
def check_unknown_code(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK102")
    for paragraph, token in _code_tokens(result):
        name = token.meta["name"]
        kind = _classify_code(name, _next_char(paragraph, token))
        start, end = token.meta["start"], token.meta["end"]
        if kind == "case":
            source_start = result.source_offset(paragraph.inline, start)
            source_end = result.source_offset(paragraph.inline, end - 1) + 1
            yield report.at(
                source_start,
                source_end,
                f"':{name}:' is not ':{name.lower()}:' (codes are case-sensitive): "
                f'it prints as a drop cap "{name}"',
                Fix(source_start, source_end, f":{name.lower()}:"),
            )
        elif kind == "code":
            guess = _did_you_mean(name)
            hint = f" (did you mean ':{guess}:'?)" if guess else ""
            yield report.at_inline(
                paragraph.inline,
                start,
                end,
                f"':{name}:' is not a known code: it prints as a drop cap \"{name}\"{hint}",
            )


@rule(
    "MK103",
    "drop-cap-letter",
    Severity.WARNING,
    "A drop cap that is not one capital letter.",
    "A drop cap is meant to be the first letter of the paragraph, as a capital: "
    "`:W:hen`.  Aminduna prints `:w:hen` with a small w and `:Wh:en` with two letters "
    "in the drop cap, and its reverse conversion (used when cards are copied) keeps "
    "only the first letter, upper-cased, so the card changes the next time it is "
    "copied.",
    ":wh:en I come into play, draw a card.",
    ":W:hen I come into play, draw a card.",
    "Keeps the first letter, capitalised, in the drop cap and moves the others into the text.",
)
def check_drop_cap_letter(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK103")
    for paragraph, token in _code_tokens(result):
        name = token.meta["name"]
        if _classify_code(name, _next_char(paragraph, token)) != "letters" or (
            len(name) == 1 and name.isupper()
        ):
            continue
        source_start = result.source_offset(paragraph.inline, token.meta["start"])
        source_end = result.source_offset(paragraph.inline, token.meta["end"] - 1) + 1
        capital = name[0].upper() if len(name[0].upper()) == 1 else name[0]
        fixed = f":{capital}:{name[1:].lower() if name[1:].isupper() else name[1:]}"
        if len(name) > 1:
            message = f"the drop cap ':{name}:' holds {len(name)} letters; write ':{capital}:'"
        else:
            message = f"the drop cap ':{name}:' is lower case; write ':{capital}:'"
        yield report.at(source_start, source_end, message, Fix(source_start, source_end, fixed))


@rule(
    "MK104",
    "misplaced-drop-cap",
    Severity.WARNING,
    "A drop cap or large mark that does not start its paragraph.",
    "The layout reserves space for a drop cap (two lines), a large mark (`:m:`, "
    "`:m0:`-`:m9:`, `:ma:`, `:mt:`, `:mx:`, `:mi:`: two lines) or a column mark (`:mc:`, "
    "`:mic:`) only at the start of a paragraph.  Elsewhere the symbol lands in the "
    "middle of a line.  Inline symbols are `:g0:`-`:g9:`, `:gx:`, `:gt:` and `:mis:`.",
    "Deal 1 damage. :m: Draw a card.",
    "Deal 1 damage.\n\n:m: Draw a card.",
)
def check_misplaced_drop_cap(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK104")
    for paragraph in result.paragraphs:
        for node in paragraph.node.children[1:]:
            if isinstance(node, DropCap):
                if _classify_code(node.letter) not in ("letter", "letters"):
                    continue  # MK101 or MK102 explain this one
                what = f"the drop cap ':{node.letter}:'"
            elif isinstance(node, Symbol) and node.kind in ("mark", "column"):
                what = f"the {'column' if node.kind == 'column' else 'large'} mark ':{node.code}:'"
            else:
                continue
            yield report.at(
                node.pos.offset, node.pos.end, f"{what} is not at the start of its paragraph"
            )


@rule(
    "MK105",
    "space-after-drop-cap",
    Severity.WARNING,
    "A space between a drop cap and the rest of its word.",
    "The drop cap is the first letter of the first word: a space after it prints a gap "
    'inside the word (`:C: herche` prints "C herche").',
    ":T: he end.",
    ":T:he end.",
    "Deletes the spaces after the drop cap.",
)
def check_space_after_drop_cap(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK105")
    source = result.source
    for paragraph in result.paragraphs:
        children = paragraph.node.children
        if len(children) > 1:
            first, second = children[0], children[1]
            if not (
                isinstance(first, DropCap)
                and isinstance(second, Text)
                and second.text[:1].isspace()
                and _classify_code(first.letter) in ("letter", "letters")
            ):
                continue
            start = first.pos.end
            end = start
            while end < len(source) and source[end] in " \t":
                end += 1
            fix = Fix(start, end, "") if end > start else None
            yield report.at(
                start,
                max(end, start + 1),
                f"space after the drop cap ':{first.letter}:' prints a gap",
                fix,
            )


@rule(
    "MK106",
    "erasing-empty-paragraph",
    Severity.ERROR,
    "`:pa:` in the middle of a paragraph erases the text before it.",
    "`:pa:` (what a line holding only `\\` becomes) empties its paragraph, so that it "
    "prints as an empty line.  Anywhere but at the start of a paragraph it silently "
    "deletes everything before it in that paragraph.",
    "Draw a card. :pa: Discard a card.",
    "Draw a card.\n\n\\\n\nDiscard a card.",
)
def check_erasing_pa(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK106")
    for erasure in result.erasures:
        erased = "".join(_node_text(n) for n in erasure.erased)
        yield report.at_inline(
            erasure.inline,
            erasure.code_start,
            erasure.code_start + 4,
            f"':pa:' erases what comes before it: \"{_preview(erased)}\" is not printed",
        )


@rule(
    "MK107",
    "vanishing-space",
    Severity.WARNING,
    "A space between two symbols, or between two styled runs, that Aminduna deletes.",
    "Aminduna drops any run of text made only of spaces: the space in `:g1: :g2:` or "
    "in `__bold__ _italic_` is not printed, and the two touch.  A space next to a `*` "
    "survives (the reference protects it), and so does `@@`, which Aminduna prints as "
    "a space.",
    "Pay :g1: :g2:.",
    "Pay :g1:@@:g2:.",
)
def check_vanishing_space(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK107")
    paragraphs = {id(p.inline): p for p in result.paragraphs}
    for run in result.vanished:
        tokens = paragraphs[id(run.inline)].tokens
        index = run.token_index
        if index == 0 or index == len(tokens) - 1:
            continue
        if not (_separates(tokens[index - 1]) and _separates(tokens[index + 1])):
            continue
        yield report.at_inline(
            run.inline,
            run.start,
            run.end,
            "this space is not printed: Aminduna deletes runs of spaces "
            "between two items (write @@ for a space)",
        )


def _separates(token: Token) -> bool:
    """Is this token a printed item that a space next to it would separate?"""
    if token.type == "arc_code":
        return token.meta["name"] not in (BREAK_CODE, EMPTY_PARAGRAPH_CODE)
    return token.type in ("strong_open", "strong_close", "em_open", "em_close", "text")


@rule(
    "MK108",
    "trailing-line-break",
    Severity.WARNING,
    "A line break at the end of a paragraph prints an empty line.",
    "A `\\` at the end of the last line of a paragraph breaks the line once more, which "
    "adds an empty line before the next paragraph (paragraphs already have space "
    "between them).  For a deliberate empty line, use a paragraph holding only `\\`.",
    "Draw a card.\\\n\nDiscard a card.",
    "Draw a card.\n\nDiscard a card.",
    "Deletes the final line break.",
)
def check_trailing_break(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK108")
    for paragraph in result.paragraphs:
        children = paragraph.node.children
        if children and isinstance(children[-1], LineBreak):
            node = children[-1]
            yield report.at(
                node.pos.offset,
                node.pos.end,
                "this line break ends its paragraph: it prints an empty line",
                Fix(node.pos.offset, node.pos.end, ""),
            )


# --------------------------------------------------------------------------------------
# MK2: markdown Aminduna silently drops.


@rule(
    "MK201",
    "dropped-block",
    Severity.ERROR,
    "Markdown block syntax: Aminduna does not print the block.",
    "Aminduna keeps only paragraphs.  A line starting with `#` (heading), `- `, `+ ` or "
    "`1. ` (list), `>` (quote) or a tab (code), a line of `---`, a `|` table, a "
    "``` fence or a `[id]: url` line is parsed as its markdown block and dropped, "
    "with the lines that belong to it.  An unclosed ``` swallows the rest of the "
    "card.  (`* ` does not start a list: Aminduna's space rewrite breaks it first.)",
    "Choose one:\n\n- Draw a card.\n- Gain 2 life.",
    "Choose one:\\\n– Draw a card.\\\n– Gain 2 life.",
)
def check_dropped_block(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK201")
    for block in result.blocks:
        if block.kind in ("paragraph", "setext_heading"):
            continue
        message = _BLOCK_MESSAGES[block.kind]
        if block.kind == "fence" and block.unclosed:
            message += ", and as it is never closed, nothing after it is printed either"
        start, end = report.block_span(block)
        yield report.at(start, end, message)


@rule(
    "MK202",
    "underlined-heading",
    Severity.ERROR,
    "A line of `-` or `=` right under a line of text makes that line a heading, "
    "which Aminduna does not print.",
    "In markdown, a line of dashes or equal signs under text underlines it as a heading. "
    "Aminduna then drops the heading: the line above the dashes disappears from the "
    "card, not just the dashes.  Leave a blank line before a separator line (which "
    "is itself not printed either).",
    "Draw a card.\n---",
    "Draw a card.",
)
def check_setext_heading(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK202")
    for block in result.blocks:
        if block.kind != "setext_heading":
            continue
        start, end = report.block_span(block)
        text = block.nested_inlines[0].text if block.nested_inlines else ""
        yield report.at(
            start,
            end,
            f'the line under "{_preview(text)}" makes it a heading: Aminduna does not print it',
        )


def _paragraph_tokens(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token, bool]]:
    for paragraph in result.paragraphs:
        for token, printed in _printed(paragraph):
            yield paragraph, token, printed


@rule(
    "MK203",
    "dropped-link",
    Severity.ERROR,
    "A link, image, URL, `www.` address, e-mail address or `r/`/`u/` name: Aminduna "
    "does not print it.",
    "Aminduna's parser recognises links of every kind (`[text](url)`, `http://...`, "
    "`www.x.org`, `name@x.org`, even reddit's `r/name` and `u/name`) and then drops "
    "them, text included.  A URL-like word is enough: `u/x` disappears.",
    "Rules at www.arcmage.org.",
    "Rules at arcmage.org.",
)
def check_dropped_link(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK203")
    for paragraph, token, printed in _paragraph_tokens(result):
        if not printed:
            continue
        meta = token.meta
        if token.type == "hyperlink":
            what = _DROPPED_LINK[meta["kind"]]
            message = f'{what} "{_preview(meta["text"])}" is not printed'
        elif token.type == "image":
            message = "an image is not printed"
        elif token.type == "link_open" and not meta.get("as_text"):
            message = "a link is not printed (nor its text)"
        else:
            continue
        yield report.at_inline(paragraph.inline, meta["start"], meta["end"], message)


@rule(
    "MK204",
    "reference-link-text",
    Severity.WARNING,
    "`[text][id]` without a matching `[id]: url` line prints its text without brackets.",
    "Square brackets followed by more brackets read as a reference link; when no "
    "`[id]: url` line defines it, Aminduna prints only the text of the first brackets.",
    "Search your library for [Elder] [dragon] cards.",
    "Search your library for Elder dragon cards.",
)
def check_reference_link_text(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK204")
    for paragraph, token, printed in _paragraph_tokens(result):
        if printed and token.type == "link_open" and token.meta.get("as_text"):
            yield report.at_inline(
                paragraph.inline,
                token.meta["start"],
                token.meta["end"],
                "brackets read as a reference link: only the text of the first brackets is printed",
            )


@rule(
    "MK205",
    "dropped-inline",
    Severity.ERROR,
    "Strike-through, superscript, subscript, code, HTML comments and anchors: "
    "Aminduna does not print them.",
    "`~~x~~`, `^x` (up to the next space), `^(x)`, `<sup>x</sup>`, `<sub>x</sub>`, "
    "`` `x` ``, `<!-- x -->` and `<a ...>` are parsed as markdown and dropped with their "
    'content.  A lone `^` before a word is enough: `X^2` prints "X".',
    "Costs X^2 resources.",
    "Costs X squared resources.",
)
def check_dropped_inline(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK205")
    for paragraph, token, printed in _paragraph_tokens(result):
        what = _DROPPED_INLINE.get(token.type)
        if printed and what:
            yield report.at_inline(
                paragraph.inline, token.meta["start"], token.meta["end"], f"{what} is not printed"
            )


# --------------------------------------------------------------------------------------
# MK3: emphasis.


@rule(
    "MK301",
    "stray-emphasis-marker",
    Severity.WARNING,
    "A `*` or `_` that did not pair up and is printed as is.",
    "Emphasis markers pair with the next identical marker in the paragraph.  One left "
    "over, stuck to a word, is printed literally: `**Deal 2 damage` prints the two "
    "asterisks, and so does `**Horde rouge*,` (the `*` before the comma).  A marker "
    "between spaces (`2 * 3`) or inside a word (`x_y`) is taken as meant.",
    "**Deal 2 damage to target creature.",
    "**Deal 2 damage** to target creature.",
)
def check_stray_marker(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK301")
    source = result.source
    for paragraph, token in _printed_text_tokens(result):
        content = token.content
        for match in re.finditer(r"\*+|_+", content):
            start = result.source_offset(paragraph.inline, token.meta["start"] + match.start())
            end = result.source_offset(paragraph.inline, token.meta["start"] + match.end() - 1) + 1
            before = source[start - 1] if start > 0 else " "
            after = source[end] if end < len(source) else " "
            if before.isalnum() == after.isalnum():
                continue  # `2 * 3`, `(*)`, `x_y`: taken as meant; `rouge*,` is stuck to a word
            yield report.at(
                start,
                end,
                f"'{match.group(0)}' is printed as is: it has no matching marker in this paragraph",
            )


@rule(
    "MK302",
    "intraword-underscore",
    Severity.WARNING,
    "Underscores inside a word make italics.",
    "Unlike common markdown, Aminduna's parser lets `_` open and close emphasis inside a "
    "word: `a_b_c` prints a, an italic b, and c.  Use `*` for emphasis and avoid "
    "underscores in words.",
    "Put a token_1_ into play.",
    "Put a token 1 into play.",
)
def check_intraword_underscore(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK302")
    for paragraph in result.paragraphs:
        text = paragraph.inline.text
        stack: list[Token] = []
        for token, printed in _printed(paragraph):
            if token.type in ("em_open", "strong_open"):
                stack.append(token)
            elif token.type in ("em_close", "strong_close") and stack:
                opening = stack.pop()
                markup = opening.meta.get("markup", "")
                if not printed or not markup.startswith("_"):
                    continue
                start, end = opening.meta["start"], token.meta["end"]
                inside_word = (start > 0 and text[start - 1].isalnum()) or (
                    end < len(text) and text[end].isalnum()
                )
                if inside_word:
                    inner = text[opening.meta["inner"] : token.meta["start"]]
                    yield report.at_inline(
                        paragraph.inline,
                        start,
                        end,
                        f"'{markup}' inside a word makes \"{_preview(inner)}\" italic or bold",
                    )


@rule(
    "MK303",
    "italic-swallows-bold",
    Severity.WARNING,
    "`**` inside an italic span closes and reopens the italics: the bold is lost.",
    "Emphasis markers are not nested by Aminduna's parser: in `*a **b** c*` the first "
    "`*` pairs with the first `*` of `**`.  The result is three italic runs and no "
    "bold.  Use `***b***` for bold italic inside italics.",
    "*Gain **2** life.*",
    "*Gain* ***2*** *life.*",
)
def check_italic_swallows_bold(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK303")
    for paragraph in result.paragraphs:
        tokens = paragraph.tokens
        for closing, opening in itertools.pairwise(tokens):
            if (
                closing.type == "em_close"
                and opening.type == "em_open"
                and closing.meta.get("markup") == "*"
                and opening.meta.get("markup") == "*"
                and closing.meta["end"] == opening.meta["start"]
            ):
                yield report.at_inline(
                    paragraph.inline,
                    closing.meta["start"],
                    opening.meta["start"] + 1,
                    "'**' inside italics closes and reopens them: nothing here is bold",
                )


# --------------------------------------------------------------------------------------
# MK4: characters with a meaning of their own.


@rule(
    "MK401",
    "at-at",
    Severity.WARNING,
    "`@@` where a plain space would print the same.",
    "Aminduna uses `@@` internally for spaces and turns every `@@` of a card into a "
    "space.  Typed by hand it is only useful where a space would be deleted (between "
    "two symbols); elsewhere it is a surprise waiting for the next editor.",
    "Name@@of the card",
    "Name of the card",
    "Replaces `@@` by a space.",
)
def check_at_at(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK401")
    source = result.source
    index = source.find("@@")
    if index < 0:
        return
    layout = result.document.layout()
    checked = 0
    while index >= 0 and checked < MAX_AT_AT_CHECKS:
        checked += 1
        replaced = source[:index] + " " + source[index + 2 :]
        if parse(replaced, result.pre.source_map.start_line).document.layout() == layout:
            yield report.at(
                index,
                index + 2,
                "'@@' prints as a space: write a space",
                Fix(index, index + 2, " "),
            )
        index = source.find("@@", index + 2)


@rule(
    "MK402",
    "backslash-escape",
    Severity.WARNING,
    "A backslash before a markdown character: there are no escapes, it is a line break.",
    "Aminduna turns every `\\` into a line break before parsing, so `\\*` is a line "
    "break followed by `*`, and `\\:` cannot protect a colon.  A backslash is only "
    "right at the end of a line (or alone on a line, for an empty paragraph).",
    "Deal 2\\*X damage.",
    "Deal twice X damage.",
)
def check_backslash_escape(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK402")
    source = result.source
    index = source.find("\\")
    while index >= 0:
        following = source[index + 1 : index + 2]
        if following in _ESCAPABLE and following:
            yield report.at(
                index, index + 2, f"'\\{following}' is not an escape: the backslash is a line break"
            )
            index += 1 if following != "\\" else 2
        else:
            index += 1
        index = source.find("\\", index)


def _entity_char(name: str) -> str | None:
    if name.startswith("#"):
        digits = name[1:]
        try:
            code = int(digits[1:], 16) if digits[:1] in ("x", "X") else int(digits)
            return chr(code) if 0 < code <= 0x10FFFF else None
        except ValueError:
            return None
    return html.entities.html5.get(name + ";")


def _entities(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token, re.Match[str]]]:
    for paragraph, token in _printed_text_tokens(result):
        if "&" in token.content:
            for match in _ENTITY.finditer(token.content):
                yield paragraph, token, match


@rule(
    "MK403",
    "decoded-entity",
    Severity.INFO,
    "An HTML entity that Aminduna decodes: write the character itself.",
    "Aminduna decodes the HTML 4 named entities (`&nbsp;`, `&laquo;`, ...).  The "
    "character itself is easier to read and to check, and other tools (and the "
    "numeric forms) do not decode entities the same way.",
    "«&nbsp;Vite&nbsp;!&nbsp;»",
    "« Vite ! »  (with no-break spaces)",
    "Replaces the entity by its character.",
)
def check_decoded_entity(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK403")
    for paragraph, token, match in _entities(result):
        name = match.group(1)
        char = ENTITIES.get(name)
        if char is None:
            continue
        start = token.meta["start"] + match.start()
        source_start = result.source_offset(paragraph.inline, start)
        source_end = result.source_offset(paragraph.inline, start + len(match.group(0)) - 1) + 1
        yield report.at(
            source_start,
            source_end,
            f"'{match.group(0)}' is U+{ord(char):04X}: write the character",
            Fix(source_start, source_end, char),
        )


@rule(
    "MK404",
    "literal-entity",
    Severity.ERROR,
    "An HTML entity that Aminduna does not decode: it is printed as typed.",
    "Only HTML 4 named entities are decoded.  `&#8239;` (the narrow no-break space of "
    "French typography), `&#x202F;` or HTML 5 names like `&NoBreak;` are printed "
    "literally, ampersand and all.",
    "Pioche&#8239;!",
    "Pioche\u202f!",
    "Replaces the entity by its character.",
)
def check_literal_entity(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK404")
    for paragraph, token, match in _entities(result):
        name = match.group(1)
        if name in ENTITIES:
            continue
        char = _entity_char(name)
        if char is None:
            continue
        start = token.meta["start"] + match.start()
        source_start = result.source_offset(paragraph.inline, start)
        source_end = result.source_offset(paragraph.inline, start + len(match.group(0)) - 1) + 1
        yield report.at(
            source_start,
            source_end,
            f"'{match.group(0)}' is printed as typed: write U+{ord(char[0]):04X} itself",
            Fix(source_start, source_end, char),
        )


@rule(
    "MK405",
    "html-tag",
    Severity.WARNING,
    "An HTML tag: Aminduna prints it as text.",
    'HTML is not interpreted: `<b>` prints "<b>".  Use `**` for bold and `*` for '
    "italics.  (`<sup>`, `<sub>` and `<a>` are worse: they drop their content, see MK205.)",
    "Deal <b>2</b> damage.",
    "Deal **2** damage.",
)
def check_html_tag(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK405")
    for paragraph, token in _printed_text_tokens(result):
        if "<" not in token.content:
            continue
        for match in _HTML_TAG.finditer(token.content):
            start = token.meta["start"] + match.start()
            yield report.at_inline(
                paragraph.inline,
                start,
                start + len(match.group(0)),
                f"'{_preview(match.group(0))}' is printed as text",
            )


# --------------------------------------------------------------------------------------
# MK5: lines.


@rule(
    "MK501",
    "double-space-line-break",
    Severity.WARNING,
    "Two spaces at the end of a line put a raw line feed into the text.",
    "Markdown's hard line break (two trailing spaces) is turned by Aminduna into a line "
    "feed character inside a run of text, not into a layout line break: the card "
    "layout then breaks or not depending on the renderer.  `\\` at the end of the line "
    "is the dialect's line break.",
    "Draw a card.  \nDiscard a card.",
    "Draw a card.\\\nDiscard a card.",
    "Replaces the trailing spaces by `\\`.",
)
def check_double_space_break(result: ParseResult) -> Iterator[Diagnostic]:
    report = Reporter(result, "MK501")
    source = result.source
    for paragraph in result.paragraphs:
        text = paragraph.inline.text
        index = text.find("\r\n")
        while index >= 0:
            end = result.source_offset(paragraph.inline, index + 1) + 1
            start = end
            while start > 0 and source[start - 1] == " ":
                start -= 1
            yield report.at(
                start,
                end,
                "two trailing spaces make a raw line feed: use '\\' for a line break",
                Fix(start, end, "\\"),
            )
            index = text.find("\r\n", index + 2)


# --------------------------------------------------------------------------------------


def check(result: ParseResult, rules: Iterable[Rule] | None = None) -> list[Diagnostic]:
    """Run the markup rules (all, or those given) on a parsed card text."""
    chosen = list(rules) if rules is not None else REGISTRY.rules(TARGET)
    found: list[Diagnostic] = []
    for chosen_rule in chosen:
        found.extend(REGISTRY.check(chosen_rule.code)(result))
    found.sort(key=lambda d: (d.offset, d.code))
    return found


def check_text(
    text: str, start_line: int = 1, rules: Iterable[Rule] | None = None
) -> list[Diagnostic]:
    """Parse and check a card text."""
    return check(parse(text, start_line), rules)
