"""MK5 rules: line ends (markdown's two-space hard break)."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Applicability, Diagnostic, Fix, Severity
from ..parser import ParseResult
from .common import MARKUP_RULES, Reporter

#: The family of this module's rules (MK5).
FAMILY = MARKUP_RULES.part("MK5")


@FAMILY.rule(
    code="MK501",
    name="double-space-line-break",
    severity=Severity.WARNING,
    summary="Two spaces at the end of a line put a raw line feed into the text.",
    rationale="Markdown's hard line break (two trailing spaces) is turned by Aminduna into a line "
    "feed character inside a run of text, not into a layout line break: the card "
    "layout then breaks or not depending on the renderer.  `\\` at the end of the line "
    "is the dialect's line break.",
    bad="Draw a card.  \nDiscard a card.",
    good="Draw a card.\\\nDiscard a card.",
    fix="Replaces the trailing spaces by `\\`.",
    applicability=Applicability.SAFE,
)
def check_double_space_break(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
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
                result,
                start,
                end,
                "two trailing spaces make a raw line feed: use '\\' for a line break",
                Fix(start, end, "\\"),
            )
            index = text.find("\r\n", index + 2)
