"""MK2 rules: markdown that Aminduna parses and then silently drops (blocks, links,
inline styles it does not print).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Diagnostic, Severity
from ..parser import ParseResult
from .common import MARKUP_RULES, Reporter, block_span, paragraph_tokens, preview

#: The family of this module's rules (MK2).
FAMILY = MARKUP_RULES.part("MK2")


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


@FAMILY.rule(
    code="MK201",
    name="dropped-block",
    severity=Severity.ERROR,
    summary="Markdown block syntax: Aminduna does not print the block.",
    rationale="Aminduna keeps only paragraphs.  A line starting with `#` (heading), `- `, `+ ` or "
    "`1. ` (list), `>` (quote) or a tab (code), a line of `---`, a `|` table, a "
    "``` fence or a `[id]: url` line is parsed as its markdown block and dropped, "
    "with the lines that belong to it.  An unclosed ``` swallows the rest of the "
    "card.  (`* ` does not start a list: Aminduna's space rewrite breaks it first.)",
    bad="Choose one:\n\n- Draw a card.\n- Gain 2 life.",
    good="Choose one:\\\n– Draw a card.\\\n– Gain 2 life.",
)
def check_dropped_block(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for block in result.blocks:
        if block.kind in ("paragraph", "setext_heading"):
            continue
        message = _BLOCK_MESSAGES[block.kind]
        if block.kind == "fence" and block.unclosed:
            message += ", and as it is never closed, nothing after it is printed either"
        start, end = block_span(result, block)
        yield report.at(result, start, end, message)


@FAMILY.rule(
    code="MK202",
    name="underlined-heading",
    severity=Severity.ERROR,
    summary="A line of `-` or `=` right under a line of text makes that line a heading, "
    "which Aminduna does not print.",
    rationale="In markdown, a line of dashes or equal signs under text underlines it as a heading. "
    "Aminduna then drops the heading: the line above the dashes disappears from the "
    "card, not just the dashes.  Leave a blank line before a separator line (which "
    "is itself not printed either).",
    bad="Draw a card.\n---",
    good="Draw a card.",
)
def check_setext_heading(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for block in result.blocks:
        if block.kind != "setext_heading":
            continue
        start, end = block_span(result, block)
        text = block.nested_inlines[0].text if block.nested_inlines else ""
        yield report.at(
            result,
            start,
            end,
            f'the line under "{preview(text)}" makes it a heading: Aminduna does not print it',
        )


@FAMILY.rule(
    code="MK203",
    name="dropped-link",
    severity=Severity.ERROR,
    summary="A link, image, URL, `www.` address, e-mail address or `r/`/`u/` name: Aminduna "
    "does not print it.",
    rationale="Aminduna's parser recognises links of every kind (`[text](url)`, `http://...`, "
    "`www.x.org`, `name@x.org`, even reddit's `r/name` and `u/name`) and then drops "
    "them, text included.  A URL-like word is enough: `u/x` disappears.",
    bad="Rules at www.arcmage.org.",
    good="Rules at arcmage.org.",
)
def check_dropped_link(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token, printed in paragraph_tokens(result):
        if not printed:
            continue
        meta = token.meta
        if token.type == "hyperlink":
            what = _DROPPED_LINK[meta["kind"]]
            message = f'{what} "{preview(meta["text"])}" is not printed'
        elif token.type == "image":
            message = "an image is not printed"
        elif token.type == "link_open" and not meta.get("as_text"):
            message = "a link is not printed (nor its text)"
        else:
            continue
        yield report.at_inline(result, paragraph.inline, meta["start"], meta["end"], message)


@FAMILY.rule(
    code="MK204",
    name="reference-link-text",
    severity=Severity.WARNING,
    summary="`[text][id]` without a matching `[id]: url` line prints its text without brackets.",
    rationale="Square brackets followed by more brackets read as a reference link; when no "
    "`[id]: url` line defines it, Aminduna prints only the text of the first brackets.",
    bad="Search your library for [Elder] [dragon] cards.",
    good="Search your library for Elder dragon cards.",
)
def check_reference_link_text(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token, printed in paragraph_tokens(result):
        if printed and token.type == "link_open" and token.meta.get("as_text"):
            yield report.at_inline(
                result,
                paragraph.inline,
                token.meta["start"],
                token.meta["end"],
                "brackets read as a reference link: only the text of the first brackets is printed",
            )


@FAMILY.rule(
    code="MK205",
    name="dropped-inline",
    severity=Severity.ERROR,
    summary="Strike-through, superscript, subscript, code, HTML comments and anchors: "
    "Aminduna does not print them.",
    rationale="`~~x~~`, `^x` (up to the next space), `^(x)`, `<sup>x</sup>`, `<sub>x</sub>`, "
    "`` `x` ``, `<!-- x -->` and `<a ...>` are parsed as markdown and dropped with their "
    'content.  A lone `^` before a word is enough: `X^2` prints "X".',
    bad="Costs X^2 resources.",
    good="Costs X squared resources.",
)
def check_dropped_inline(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token, printed in paragraph_tokens(result):
        what = _DROPPED_INLINE.get(token.type)
        if printed and what:
            yield report.at_inline(
                result,
                paragraph.inline,
                token.meta["start"],
                token.meta["end"],
                f"{what} is not printed",
            )
