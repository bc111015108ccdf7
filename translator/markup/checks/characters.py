"""MK4 rules: characters with a meaning of their own (`@@`, `\\`, HTML entities and
tags).
"""

from __future__ import annotations

import html.entities
import re
from collections.abc import Iterator

from markdown_it.token import Token

from ...diagnostics import Applicability, Diagnostic, Fix, Severity, rule
from ..parser import ENTITIES, ParsedParagraph, ParseResult, parse
from .common import MARKUP, Reporter, _preview, _printed_text_tokens

#: Characters the reference's (unreachable) escape code would have escaped.
_ESCAPABLE = frozenset("\\`*_{}[]()#+-.!|~^&:<>/")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
#: MK401 re-parses the text once per ``@@``; a card has a handful at most.
MAX_AT_AT_CHECKS = 50


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
    target=MARKUP,
    applicability=Applicability.SAFE,
)
def check_at_at(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
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
                result,
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
    target=MARKUP,
)
def check_backslash_escape(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    source = result.source
    index = source.find("\\")
    while index >= 0:
        following = source[index + 1 : index + 2]
        if following in _ESCAPABLE and following:
            yield report.at(
                result,
                index,
                index + 2,
                f"'\\{following}' is not an escape: the backslash is a line break",
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
    "«\u00a0Vite\u00a0!\u00a0»",
    "Replaces the entity by its character.",
    target=MARKUP,
    applicability=Applicability.SAFE,
)
def check_decoded_entity(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token, match in _entities(result):
        name = match.group(1)
        char = ENTITIES.get(name)
        if char is None:
            continue
        start = token.meta["start"] + match.start()
        source_start = result.source_offset(paragraph.inline, start)
        source_end = result.source_offset(paragraph.inline, start + len(match.group(0)) - 1) + 1
        yield report.at(
            result,
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
    target=MARKUP,
    applicability=Applicability.SAFE,
)
def check_literal_entity(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
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
            result,
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
    target=MARKUP,
)
def check_html_tag(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token in _printed_text_tokens(result):
        if "<" not in token.content:
            continue
        for match in _HTML_TAG.finditer(token.content):
            start = token.meta["start"] + match.start()
            yield report.at_inline(
                result,
                paragraph.inline,
                start,
                start + len(match.group(0)),
                f"'{_preview(match.group(0))}' is printed as text",
            )
