"""Markup diagnostics: where Aminduna's reading of a card text will surprise its author.

Each rule is registered in :data:`translator.diagnostics.REGISTRY` (family ``MK``)
with its documentation; ``translator markup check --explain CODE`` prints it.  The
checks work on a :class:`~..parser.ParseResult`, so they see exactly what the reference
parser saw: which colons paired up, which blocks it dropped, which spaces vanished.

One module per family: :mod:`.conversion` (MK0, the text cannot be converted),
:mod:`.codes` (MK1, codes, drop caps and symbols), :mod:`.dropped_markdown` (MK2,
markdown Aminduna drops), :mod:`.emphasis` (MK3), :mod:`.characters` (MK4, characters
with a meaning of their own) and :mod:`.lines` (MK5); :mod:`.common` holds what they
share.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...diagnostics import REGISTRY, Diagnostic, Rule
from ..parser import ParseResult, parse
from . import characters, codes, conversion, dropped_markdown, emphasis, lines
from .common import KNOWN_CODES, MARKUP, TARGET, MarkupCheck, Reporter, printed_tokens

__all__ = [
    "KNOWN_CODES",
    "MARKUP",
    "TARGET",
    "MarkupCheck",
    "Reporter",
    "characters",
    "check",
    "check_text",
    "codes",
    "conversion",
    "dropped_markdown",
    "emphasis",
    "lines",
    "printed_tokens",
]


def check(result: ParseResult, rules: Iterable[Rule] | None = None) -> list[Diagnostic]:
    """Run the markup rules (all, or those given) on a parsed card text; each check
    reports through the reporter of its own rule."""
    chosen = list(rules) if rules is not None else REGISTRY.rules(MARKUP)
    found: list[Diagnostic] = []
    for _, check_rule in REGISTRY.checks(MARKUP, chosen):
        found.extend(check_rule(result))
    found.sort(key=lambda d: (d.offset, d.code))
    return found


def check_text(
    text: str, start_line: int = 1, rules: Iterable[Rule] | None = None
) -> list[Diagnostic]:
    """Parse and check a card text."""
    return check(parse(text, start_line), rules)
