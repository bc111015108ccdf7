"""MK4 rules: characters with a meaning of their own (`@@`, `\\`, HTML entities and
tags).
"""

from __future__ import annotations

import html.entities
import re
from collections.abc import Iterator

from markdown_it.token import Token

from ...diagnostics import Applicability, Diagnostic, Fix, Severity
from ..parser import ENTITIES, ParsedParagraph, ParseResult, parse
from .common import MARKUP_RULES, Reporter, preview, printed_text_tokens

#: The family of this module's rules (MK4).
FAMILY = MARKUP_RULES.part("MK4")


#: Characters the reference's (unreachable) escape code would have escaped.
_ESCAPABLE = frozenset("\\`*_{}[]()#+-.!|~^&:<>/")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
#: MK401 re-parses the text once per ``@@``; a card has a handful at most.
MAX_AT_AT_CHECKS = 50


@FAMILY.rule(
    code="MK401",
    name="at-at",
    severity=Severity.WARNING,
    summary="`@@` where a plain space would print the same.",
    rationale="Aminduna uses `@@` internally for spaces and turns every `@@` of a card into a "
    "space.  Typed by hand it is only useful where a space would be deleted (between "
    "two symbols); elsewhere it is a surprise waiting for the next editor.",
    bad="Name@@of the card",
    good="Name of the card",
    fix="Replaces `@@` by a space.",
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


@FAMILY.rule(
    code="MK402",
    name="backslash-escape",
    severity=Severity.WARNING,
    summary="A backslash before a markdown character: there are no escapes, it is a line break.",
    rationale="Aminduna turns every `\\` into a line break before parsing, so `\\*` is a line "
    "break followed by `*`, and `\\:` cannot protect a colon.  A backslash is only "
    "right at the end of a line (or alone on a line, for an empty paragraph).",
    bad="Deal 2\\*X damage.",
    good="Deal twice X damage.",
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
    for paragraph, token in printed_text_tokens(result):
        if "&" in token.content:
            for match in _ENTITY.finditer(token.content):
                yield paragraph, token, match


@FAMILY.rule(
    code="MK403",
    name="decoded-entity",
    severity=Severity.INFO,
    summary="An HTML entity that Aminduna decodes: write the character itself.",
    rationale="Aminduna decodes the HTML 4 named entities (`&nbsp;`, `&laquo;`, ...).  The "
    "character itself is easier to read and to check, and other tools (and the "
    "numeric forms) do not decode entities the same way.",
    bad="«&nbsp;Vite&nbsp;!&nbsp;»",
    good="«\u00a0Vite\u00a0!\u00a0»",
    fix="Replaces the entity by its character.",
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


@FAMILY.rule(
    code="MK404",
    name="literal-entity",
    severity=Severity.ERROR,
    summary="An HTML entity that Aminduna does not decode: it is printed as typed.",
    rationale="Only HTML 4 named entities are decoded.  `&#8239;` (the narrow no-break space of "
    "French typography), `&#x202F;` or HTML 5 names like `&NoBreak;` are printed "
    "literally, ampersand and all.",
    bad="Pioche&#8239;!",
    good="Pioche\u202f!",
    fix="Replaces the entity by its character.",
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


@FAMILY.rule(
    code="MK405",
    name="html-tag",
    severity=Severity.WARNING,
    summary="An HTML tag: Aminduna prints it as text.",
    rationale='HTML is not interpreted: `<b>` prints "<b>".  Use `**` for bold and `*` for '
    "italics.  (`<sup>`, `<sub>` and `<a>` are worse: they drop their content, see MK205.)",
    bad="Deal <b>2</b> damage.",
    good="Deal **2** damage.",
)
def check_html_tag(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token in printed_text_tokens(result):
        if "<" not in token.content:
            continue
        for match in _HTML_TAG.finditer(token.content):
            start = token.meta["start"] + match.start()
            yield report.at_inline(
                result,
                paragraph.inline,
                start,
                start + len(match.group(0)),
                f"'{preview(match.group(0))}' is printed as text",
            )
