"""Diagnostics and the rule registry every check plugs into.

Modelled on ruff: each rule has a stable code (its family's prefix and a number), a
severity, a one-line summary, a rationale with a bad and a good example, and, when
it can be done without guessing the author's intent, a fix.  Rules are selected by
code or prefix (``MK``, ``MK1``, ``MK101``).  The markup rules live in
:mod:`translator.markup.checks`; later stages register theirs here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True, slots=True)
class Fix:
    """Replace source characters ``[start, end)`` by ``replacement``."""

    start: int
    end: int
    replacement: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    #: Source offsets (in the text that was checked) of the reported characters.
    offset: int
    end: int
    fix: Fix | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "fix": None if self.fix is None else self.fix.replacement,
        }


@dataclass(frozen=True, slots=True)
class Rule:
    """What a rule checks, why, and how to comply; shown by ``--explain``."""

    code: str
    name: str
    severity: Severity
    summary: str
    rationale: str
    bad: str
    good: str
    fix: str | None = None
    #: Run only when selected by name or prefix (``--select PR``), never by default:
    #: a rule whose cost does not belong in every run (it typesets the cards).
    opt_in: bool = False

    def explain(self) -> str:
        fix = self.fix or "None: the right wording depends on what you meant."
        return (
            f"# {self.code} {self.name}\n\n"
            f"Severity: {self.severity.value}"
            + (" (opt-in: runs only when selected)" if self.opt_in else "")
            + "\n\n"
            f"{self.summary}\n\n"
            f"## Why\n\n{self.rationale}\n\n"
            f"## Bad\n\n```\n{self.bad}\n```\n\n"
            f"## Good\n\n```\n{self.good}\n```\n\n"
            f"## Fix\n\n{fix}\n"
        )


Check = Callable[[Any], Iterator[Diagnostic]]


@dataclass
class Registry:
    """All rules, in code order, with the check that implements each."""

    _rules: dict[str, Rule] = field(default_factory=dict)
    _checks: dict[str, Check] = field(default_factory=dict)
    _targets: dict[str, str] = field(default_factory=dict)

    def register(self, rule: Rule, target: str) -> Callable[[Check], Check]:
        """Decorator: ``check`` implements ``rule`` on inputs of kind ``target``."""
        if rule.code in self._rules:
            raise ValueError(f"rule code {rule.code} is registered twice")

        def decorate(check: Check) -> Check:
            self._rules[rule.code] = rule
            self._checks[rule.code] = check
            self._targets[rule.code] = target
            return check

        return decorate

    def rules(self, target: str | None = None) -> list[Rule]:
        return [
            self._rules[code]
            for code in sorted(self._rules)
            if target is None or self._targets[code] == target
        ]

    def get(self, code: str) -> Rule | None:
        return self._rules.get(code.upper())

    def check(self, code: str) -> Check:
        return self._checks[code]

    def target(self, code: str) -> str:
        """The kind of input rule ``code`` checks (``markup``, ``translation``, ...)."""
        return self._targets[code]

    def select(
        self,
        select: Iterable[str] | None = None,
        ignore: Iterable[str] | None = None,
        target: str | None = None,
    ) -> list[Rule]:
        """Rules whose code starts with a selected prefix and with no ignored one."""
        chosen = [p.upper() for p in select] if select else [""]
        ignored = [p.upper() for p in ignore] if ignore else []
        return [
            rule
            for rule in self.rules(target)
            if any(rule.code.startswith(p) and (p or not rule.opt_in) for p in chosen)
            and not any(rule.code.startswith(p) for p in ignored)
        ]

    def unknown_prefixes(self, prefixes: Iterable[str]) -> list[str]:
        """Prefixes that select no rule at all (typos worth reporting)."""
        codes = list(self._rules)
        return [p for p in prefixes if not any(c.startswith(p.upper()) for c in codes)]


REGISTRY = Registry()


class Replacement(Protocol):
    """Characters ``[start, end)`` to replace: a markup :class:`Fix` or a lint edit."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def replacement(self) -> str: ...


def apply_replacements(text: str, replacements: Iterable[Replacement]) -> tuple[str, int]:
    """Apply the non-overlapping ``replacements``; returns (text, count).

    Of overlapping ones, the first wins; the others are left for the next run (and
    their findings reported again), never merged by guess.
    """
    parts: list[str] = []
    last = 0
    applied = 0
    for item in sorted(set(replacements), key=lambda r: (r.start, r.end)):
        if item.start < last or item.end > len(text):
            continue
        parts.append(text[last : item.start])
        parts.append(item.replacement)
        last = item.end
        applied += 1
    parts.append(text[last:])
    return "".join(parts), applied


def apply_fixes(text: str, diagnostics: Iterable[Diagnostic]) -> tuple[str, int]:
    """Apply the non-overlapping fixes of ``diagnostics``; returns (text, count)."""
    return apply_replacements(text, [d.fix for d in diagnostics if d.fix is not None])


def rules_reference(rules: Iterable[Rule], title: str) -> str:
    """A Markdown reference of rules (``docs/rules.md`` is generated with this)."""
    rules = list(rules)
    lines = [
        f"# {title}",
        "",
        "Generated from the rule registry: `python -m translator.rulesdoc > docs/rules.md`.",
        "The same text is printed by `translator lint --explain CODE`.  Families: "
        "MK markup (also `translator markup check`), TR a translation against its "
        "English card, GL the glossaries, LN the linter's own findings.",
        "",
        "| code | name | severity | summary | fix |",
        "|---|---|---|---|---|",
    ]
    for rule in rules:
        fix = "yes" if rule.fix else ""
        summary = rule.summary.replace("|", "\\|")
        lines.append(
            f"| [{rule.code}](#{rule.code.lower()}-{rule.name}) | {rule.name} | "
            f"{rule.severity.value} | {summary} | {fix} |"
        )
    lines.append("")
    for rule in rules:
        lines.append(rule.explain().replace("# ", "## ", 1).replace("\n## ", "\n### "))
    return "\n".join(lines)
