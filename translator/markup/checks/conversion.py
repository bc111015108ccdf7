"""MK0 rules: the text cannot be converted at all (the reference crashes, or a
character cannot be stored).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ...diagnostics import Applicability, Diagnostic, Fix, Severity
from ..parser import ParseResult
from .common import MARKUP_RULES, Reporter

#: The family of this module's rules (MK0).
FAMILY = MARKUP_RULES.part("MK0")


@FAMILY.rule(
    code="MK001",
    name="reference-crash",
    severity=Severity.ERROR,
    summary="The Arcmage converter throws an exception on this text.",
    rationale="Aminduna's markdown parser has bugs that make it throw instead of producing a "
    "layout: a `www.` address right after a link, a list starting on a line that "
    "continues a quote, elements nested hundreds of levels deep.  The card then "
    "cannot be rendered at all.  The position is where the parser fails.",
    bad="See u/www.arcmage.org for more.",
    good="See arcmage.org for more.",
)
def check_crash(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for crash in result.crashes:
        if crash.reason.startswith("character U+"):
            continue  # MK002 reports these, with a fix.
        yield report.at(
            result,
            crash.offset,
            crash.offset + 1,
            f"the Arcmage converter fails here ({crash.reason})",
        )


_INVISIBLE = {"\ufeff": "BYTE ORDER MARK", "\ufffe": "NONCHARACTER", "\uffff": "NONCHARACTER"}
#: Any character MK002 may report (a carriage return is checked further).
_SUSPECT_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\ufeff\ufffe\uffff]")


@FAMILY.rule(
    code="MK002",
    name="invalid-character",
    severity=Severity.ERROR,
    summary="A control or invisible character that Aminduna cannot store or print.",
    rationale="Control characters (NUL, escape, form feed, ...) cannot be written in the layout "
    "XML: Aminduna throws when it meets one in printed text.  A carriage return on its "
    "own (old Mac line ends, or pasted from a word processor) becomes a raw line feed "
    "inside a run of text.  A byte order mark in the middle of a text is invisible "
    "noise.  None of them is ever meant.",
    bad="Draw a card.\x0c",
    good="Draw a card.",
    fix="Deletes the character; a lone carriage return becomes a line feed.",
    applicability=Applicability.SAFE,
)
def check_invalid_character(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    source = result.source
    if _SUSPECT_CHARACTER.search(source) is None:
        return
    for index, char in enumerate(source):
        code = ord(char)
        if char == "\r":
            if source[index + 1 : index + 2] == "\n":
                continue
            yield report.at(
                result,
                index,
                index + 1,
                "carriage return without a line feed",
                Fix(index, index + 1, "\n"),
            )
        elif (code < 32 and char not in "\t\n") or char in _INVISIBLE:
            name = _INVISIBLE.get(char) or unicodedata.name(char, "") or _control_name(code)
            yield report.at(
                result,
                index,
                index + 1,
                f"invisible character U+{code:04X} {name}",
                Fix(index, index + 1, ""),
            )


def _control_name(code: int) -> str:
    return "NULL" if code == 0 else "CONTROL CHARACTER"
