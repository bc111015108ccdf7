"""The lint targets: what a lint rule's check reads, and the reporter it is handed.

``translation`` rules look at one card version (a :class:`~.context.Subject`);
``library`` rules look at every subject of one language at once (consistency across
cards); ``engine`` rules are reported by the engine itself (suppressions), with no
check.  Markup rules (target ``markup``, :mod:`translator.markup.checks`) run on
every card version's text.  Rules are declared with :func:`translator.diagnostics.rule`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..diagnostics import Target
from ..markup.checks.common import MARKUP
from .context import Reporter, Subject
from .model import Finding

__all__ = [
    "COLLECTORS",
    "ENGINE",
    "LIBRARY",
    "MARKUP",
    "TRANSLATION",
    "LibraryCheck",
    "TranslationCheck",
    "collects",
]

#: One card version: the check gets the subject and its rule's reporter.
TRANSLATION: Target[Subject, Reporter, Finding] = Target("translation", Reporter)
#: Every translation of one language at once (consistency across the library).
LIBRARY: Target[list[Subject], Reporter, Finding] = Target("library", Reporter)
#: Reported by the engine itself, with the declaration's reporter: no check.
ENGINE: Target[Subject, Reporter, Finding] = Target("engine", Reporter, checked=False)

#: A translation check: ``(card version, its rule's reporter) -> findings``.
TranslationCheck = Callable[[Subject, Reporter], Iterator[Finding]]
#: A library check: ``(every version of a language, its rule's reporter) -> findings``.
LibraryCheck = Callable[[list[Subject], Reporter], Iterator[Finding]]
#: What a library rule gathers from one subject while it is linted.
Collector = Callable[[Subject], object]

#: Library rules gather what they need from each subject while it is linted (the
#: parse trees are then freed): code -> function(subject) -> data, stored in
#: ``subject.cache[code]`` for the rule's check.
COLLECTORS: dict[str, Collector] = {}


def collects(code: str) -> Callable[[Collector], Collector]:
    """Decorator: the function gathers library rule ``code``'s data from one subject."""

    def decorate(function: Collector) -> Collector:
        COLLECTORS[code] = function
        return function

    return decorate
