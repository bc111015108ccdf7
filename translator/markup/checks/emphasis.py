"""MK3 rules: emphasis markers (`*`, `_`) that do not print what they seem to."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from markdown_it.token import Token

from ...diagnostics import Diagnostic, Severity
from ..parser import ParseResult
from .common import MARKUP_RULES, Reporter, paragraph_printed, preview, printed_text_tokens

#: The family of this module's rules (MK3).
FAMILY = MARKUP_RULES.part("MK3")


@FAMILY.rule(
    code="MK301",
    name="stray-emphasis-marker",
    severity=Severity.WARNING,
    summary="A `*` or `_` that did not pair up and is printed as is.",
    rationale="Emphasis markers pair with the next identical marker in the paragraph.  One left "
    "over, stuck to a word, is printed literally: `**Deal 2 damage` prints the two "
    "asterisks, and so does `**Horde rouge*,` (the `*` before the comma).  A marker "
    "between spaces (`2 * 3`) or inside a word (`x_y`) is taken as meant.",
    bad="**Deal 2 damage to target creature.",
    good="**Deal 2 damage** to target creature.",
)
def check_stray_marker(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    source = result.source
    for paragraph, token in printed_text_tokens(result):
        content = token.content
        for match in re.finditer(r"\*+|_+", content):
            start = result.source_offset(paragraph.inline, token.meta["start"] + match.start())
            end = result.source_offset(paragraph.inline, token.meta["start"] + match.end() - 1) + 1
            before = source[start - 1] if start > 0 else " "
            after = source[end] if end < len(source) else " "
            if before.isalnum() == after.isalnum():
                continue  # `2 * 3`, `(*)`, `x_y`: taken as meant; `rouge*,` is stuck to a word
            yield report.at(
                result,
                start,
                end,
                f"'{match.group(0)}' is printed as is: it has no matching marker in this paragraph",
            )


@FAMILY.rule(
    code="MK302",
    name="intraword-underscore",
    severity=Severity.WARNING,
    summary="Underscores inside a word make italics.",
    rationale="Unlike common markdown, Aminduna's parser lets `_` open and close emphasis inside a "
    "word: `a_b_c` prints a, an italic b, and c.  Use `*` for emphasis and avoid "
    "underscores in words.",
    bad="Put a token_1_ into play.",
    good="Put a token 1 into play.",
)
def check_intraword_underscore(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph in result.paragraphs:
        text = paragraph.inline.text
        stack: list[Token] = []
        for token, printed in paragraph_printed(paragraph):
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
                        result,
                        paragraph.inline,
                        start,
                        end,
                        f"'{markup}' inside a word makes \"{preview(inner)}\" italic or bold",
                    )


@FAMILY.rule(
    code="MK303",
    name="italic-swallows-bold",
    severity=Severity.WARNING,
    summary="`**` inside an italic span closes and reopens the italics: the bold is lost.",
    rationale="Emphasis markers are not nested by Aminduna's parser: in `*a **b** c*` the first "
    "`*` pairs with the first `*` of `**`.  The result is three italic runs and no "
    "bold.  Use `***b***` for bold italic inside italics.",
    bad="*Gain **2** life.*",
    good="*Gain* ***2*** *life.*",
)
def check_italic_swallows_bold(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
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
                    result,
                    paragraph.inline,
                    closing.meta["start"],
                    opening.meta["start"] + 1,
                    "'**' inside italics closes and reopens them: nothing here is bold",
                )
