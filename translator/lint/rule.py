"""Registering lint rules: the registry of :mod:`translator.diagnostics`, three targets.

``translation`` rules look at one card version (a :class:`~.context.Subject`);
``library`` rules look at every subject of one language at once (consistency across
cards); ``engine`` rules are reported by the engine itself (suppressions).  Markup
rules (target ``markup``) run on every card version's text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..diagnostics import REGISTRY, Check, Rule, Severity

TRANSLATION = "translation"
LIBRARY = "library"
ENGINE = "engine"
MARKUP = "markup"


def rule(
    code: str,
    name: str,
    severity: Severity,
    summary: str,
    rationale: str,
    bad: str,
    good: str,
    fix: str | None = None,
    target: str = TRANSLATION,
    opt_in: bool = False,
) -> Callable[[Check], Check]:
    """Register a lint check with its documentation (shown by ``--explain``)."""
    return REGISTRY.register(
        Rule(code, name, severity, summary, rationale, bad, good, fix, opt_in), target
    )


#: Library rules gather what they need from each subject while it is linted (the
#: parse trees are then freed): code -> function(subject) -> data, stored in
#: ``subject.cache[code]`` for the rule's check.
COLLECTORS: dict[str, Callable[[Any], Any]] = {}


def collects(code: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Decorator: the function gathers library rule ``code``'s data from one subject."""

    def decorate(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
        COLLECTORS[code] = function
        return function

    return decorate
