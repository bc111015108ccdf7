"""Reading a stranger's file: what the PO, XLIFF and TMX readers share.

A file a translator sends (from Poedit, Weblate, OmegaT) is untrusted input
(docs/security.md): before it is parsed, its XML prologue is checked for entity
declarations and its root named; its problems are told with the line they are on, in
one printable line; and a translation in it is checked against the card markup.
"""

from __future__ import annotations

import re

from lxml import etree

from ..diagnostics import REGISTRY, Severity
from ..markup.checks import TARGET as MARKUP
from ..markup.checks import check_text
from ..untrusted import printable

DECLARATION = re.compile(r"<!(?:DOCTYPE|ENTITY)\b", re.IGNORECASE)
#: The root element's name, after the XML declaration, comments and instructions.
XML_ROOT = re.compile(r"\s*(?:(?:<\?.*?\?>|<!--.*?-->)\s*)*<([^\s/>!?]+)", re.DOTALL)


class Lines:
    """Line numbers of offsets in a text, asked for in increasing order (linear in
    all), or in any order (each a count from the start)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0
        self.line = 1

    def at(self, offset: int) -> int:
        if offset < self.offset:
            self.offset, self.line = 0, 1
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


def parse_problem(kind: str, error: Exception) -> tuple[str, int]:
    """(why the parser refused a file, in one line, and the line it names or 0)."""
    if isinstance(error, AssertionError):  # translate-toolkit's check of the root
        return "its root element is not xliff (XLIFF 1.1 or 1.2)", 0
    if isinstance(error, StopIteration) and kind == "xliff":
        return "it has no <file> element (the XLIFF 1.1 or 1.2 elements)", 0
    if isinstance(error, etree.XMLSyntaxError):
        line = int(error.lineno or 0) if error.lineno else 0
        reason = str(error.msg or error).split(", line ")[0]
        return one_line(reason), line
    message = str(error) or type(error).__name__
    found = re.search(r" on line (\d+)(?::|$)", message)
    if found is not None:
        return one_line(message[: found.start()]), int(found.group(1))
    return one_line(message), 0


def one_line(message: str, limit: int = 200) -> str:
    shown = printable(message.split("\n", 1)[0].strip())
    return shown if len(shown) <= limit else shown[:limit] + "..."


def shown(text: str, limit: int = 80) -> str:
    """``'text'`` with what a terminal should not be sent escaped, shortened."""
    shown = printable(text).replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f"'{shown[:limit]}...'" if len(shown) > limit else f"'{shown}'"


def markup_errors(text: str) -> list[str]:
    """The errors ``translator markup check`` finds in a text (warnings do not stop
    an import)."""
    errors = [rule for rule in REGISTRY.rules(MARKUP) if rule.severity == Severity.ERROR]
    return [f"{d.code} {d.message}" for d in check_text(text, rules=errors)]


def language_code(value: str | None) -> str:
    """A language tag as the memory names languages: ``fr-FR``, ``FR``, ``fr_CA``,
    ``fr-CA.UTF-8``: ``fr``; ``*all*`` stays (TMX's "any language")."""
    return re.split(r"[_\-@.]", (value or "").strip(), maxsplit=1)[0].strip().lower()
