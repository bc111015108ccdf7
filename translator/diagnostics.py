"""Diagnostics and the rule registry every check plugs into.

Modelled on ruff: each rule is declared once, with :func:`rule`: a stable code (its
family's prefix and a number), a name, a severity, the translation languages it
applies to, a one-line summary, a rationale with a bad and a good example, whether
it has a fix (and whether ``--fix`` may apply it), and its target: the kind of input
its check reads.  Rules are selected by code or prefix (``MK``, ``MK1``, ``MK101``).

A check never types its own code: whoever runs it (the markup checker, the lint
engine) hands it the reporter of its rule, which gives each finding the rule's code
and severity.  The registry imports the modules that declare rules
(:data:`RULE_MODULES`) once, the first time it is asked about their rules; a code
declared twice, or a rule left without its check, stops that import.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar, cast


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


class Applicability(Enum):
    """What ``--fix`` may do with a rule's fixes (ruff's fix applicability)."""

    #: No fix: the right wording depends on what the author meant.
    NONE = "none"
    #: ``--fix`` applies it: the result says what the text meant, written right.
    SAFE = "safe"
    #: A fix that may change what the text says.  No rule has one yet, and ``--fix``
    #: (:mod:`translator.lint.fixes`) does not tell them apart from safe ones.
    UNSAFE = "unsafe"


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
    #: What the fix does, in words (None: the rule has no fix).
    fix: str | None = None
    #: Run only when selected by name or prefix (``--select PR``), never by default:
    #: a rule whose cost does not belong in every run (it typesets the cards).
    opt_in: bool = False
    #: Whether ``--fix`` may apply the fix (:attr:`Applicability.NONE` without one).
    applicability: Applicability = Applicability.NONE
    #: The name of the :class:`Target` the rule's check reads.
    target: str = ""
    #: The translation languages the rule applies to; None: every language.
    languages: frozenset[str] | None = None

    def applies_to(self, lang: str) -> bool:
        """Does the rule check card versions in ``lang``?"""
        return self.languages is None or lang in self.languages

    def explain(self) -> str:
        fix = self.fix or "None: the right wording depends on what you meant."
        languages = (
            "" if self.languages is None else f"\n\nLanguages: {', '.join(sorted(self.languages))}"
        )
        return (
            f"# {self.code} {self.name}\n\n"
            f"Severity: {self.severity.value}"
            + (" (opt-in: runs only when selected)" if self.opt_in else "")
            + languages
            + "\n\n"
            f"{self.summary}\n\n"
            f"## Why\n\n{self.rationale}\n\n"
            f"## Bad\n\n```\n{self.bad}\n```\n\n"
            f"## Good\n\n```\n{self.good}\n```\n\n"
            f"## Fix\n\n{fix}\n"
        )


class RegistryError(Exception):
    """A rule declared wrongly (twice, without its check, ...): a bug in a rule module,
    raised when the module is imported."""


In = TypeVar("In")
R = TypeVar("R")
Out = TypeVar("Out")


class Target(Generic[In, R, Out]):
    """A kind of input rules check, and the reporter their checks are handed.

    A check of a target ``Target[In, R, Out]`` is a function ``(In, R) -> Iterator[Out]``:
    the markup target's read a parsed card text and report diagnostics, the lint
    targets' read one card version (translation) or every version of a language
    (library) and report findings.  The engine's own rules (``checked=False``) have no
    check: the engine reports them with their declaration's reporter.
    """

    __slots__ = ("checked", "name", "reporter")

    def __init__(self, name: str, reporter: Callable[[Rule], R], checked: bool = True) -> None:
        self.name = name
        self.reporter = reporter
        self.checked = checked

    def __repr__(self) -> str:
        return f"Target({self.name!r})"


class Declaration(Generic[In, R, Out]):
    """A declared rule and the reporter bound to it; as a decorator, it registers the
    rule's check."""

    __slots__ = ("_registry", "report", "rule", "target")

    def __init__(
        self, registry: Registry, rule: Rule, target: Target[In, R, Out], report: R
    ) -> None:
        self._registry = registry
        self.rule = rule
        self.target = target
        #: The reporter of this rule: what its check is handed.
        self.report = report

    def __call__(self, check: Callable[[In, R], Iterator[Out]]) -> Callable[[In, R], Iterator[Out]]:
        """Register ``check`` as the rule's check (returned unchanged)."""
        if not self.target.checked:
            raise RegistryError(
                f"rule {self.rule.code}: {self.target.name} rules are reported by the engine "
                "itself and take no check"
            )
        report = self.report

        def bound(subject: In) -> Iterator[Out]:
            return check(subject, report)

        self._registry.attach(self.rule.code, bound)
        return check


#: The modules that declare rules, by target: imported once by the registry, the first
#: time it is asked about the rules of their target (about all rules: all of them).
#: The markup checks, the lint rule families (a package a family with parts, one module
#: a part), and the lint engine (its own rules about ``lint-ignore``).  Checking markup
#: alone does not load the linter.  A new family module is added here (and its package
#: to ``[tool.setuptools] packages`` in pyproject.toml).
RULE_MODULES: dict[str, tuple[str, ...]] = {
    "markup": ("translator.markup.checks",),
    "translation": (
        "translator.lint.rules.translation",
        "translator.lint.rules.emphasis",
        "translator.lint.rules.glossary",
        "translator.lint.rules.french",
        "translator.lint.rules.esperanto",
        "translator.lint.rules.esperanto_grammar",
        "translator.lint.rules.spelling",
    ),
    "library": ("translator.lint.rules.glossary", "translator.lint.rules.printing"),
    "engine": ("translator.lint.engine",),
}
_CODE = re.compile(r"[A-Z]{2}\d{3}")

#: Codes rules no longer have, and the code of the rule that does their work now
#: (ruff's rule redirects): ``--select``, ``--ignore``, the configuration and a card's
#: ``lint-ignore`` naming an old code mean the new one, with a warning naming it.  A
#: redirected code is a whole code, not a prefix; it is never a rule's code again.
REDIRECTS: dict[str, str] = {
    # FR403 longue-portee-defendre (« défendre » next to « longue portée »), dropped on
    # 2026-11-30 (d2eb923): it only ever repeated GL201, for which « défendre contre »
    # is a deprecated term of the Lexique, replaced by « bloquer ».
    "FR403": "GL201",
}


@dataclass
class Registry:
    """All rules, in code order, with the check that implements each, bound to the
    reporter of its rule."""

    modules: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(RULE_MODULES))
    #: Former codes and the codes now (:data:`REDIRECTS`).
    redirects: dict[str, str] = field(default_factory=lambda: dict(REDIRECTS))
    _rules: dict[str, Rule] = field(default_factory=dict)
    _targets: dict[str, object] = field(default_factory=dict)
    _checks: dict[str, Callable[..., Iterator[object]]] = field(default_factory=dict)
    _imported: set[str] = field(default_factory=set)
    _loading: bool = False
    #: Rules declared since the last check that each has its check.
    _unverified: bool = False

    def declare(self, rule: Rule, target: Target[In, R, Out]) -> Declaration[In, R, Out]:
        """Register ``rule`` (a code must be new, and a fix described iff it has one)."""
        problem = self._problem(rule)
        if problem:
            raise RegistryError(f"rule {rule.code}: {problem}")
        self._rules[rule.code] = rule
        self._targets[rule.code] = target
        self._unverified = True
        return Declaration(self, rule, target, target.reporter(rule))

    def _problem(self, rule: Rule) -> str | None:
        if not _CODE.fullmatch(rule.code):
            return "a code is two capitals and three digits (MK101)"
        if rule.code in self._rules:
            return "declared twice"
        if (rule.applicability is Applicability.NONE) != (rule.fix is None):
            return "a rule with a fix says what it does, and only such a rule"
        if rule.languages is not None and not rule.languages:
            return "languages=() would never run: leave it out for every language"
        return None

    def attach(self, code: str, check: Callable[..., Iterator[object]]) -> None:
        """Register rule ``code``'s check, bound to its reporter (by its declaration)."""
        if code in self._checks:
            raise RegistryError(f"rule {code}: a second check")
        self._checks[code] = check

    def _load(self, target: str | None = None) -> None:
        """Import the rule modules of ``target`` (of every target if None) not imported
        yet, then make sure every rule has its check."""
        wanted = [
            module
            for name, modules in self.modules.items()
            if target is None or name == target
            for module in modules
        ]
        missing = [module for module in dict.fromkeys(wanted) if module not in self._imported]
        if missing:
            self._import(missing)
        if not self._unverified:
            return
        unchecked = [
            code
            for code, declared in self._targets.items()
            if isinstance(declared, Target) and declared.checked and code not in self._checks
        ]
        if unchecked:
            raise RegistryError(f"rules declared without a check: {', '.join(sorted(unchecked))}")
        self._unverified = False

    def _import(self, modules: list[str]) -> None:
        """Import rule modules; asking the registry meanwhile (a module that queries it
        when imported) is refused: its answer would lack the rules still to come."""
        if self._loading:
            raise RegistryError(
                "the rule registry was asked about its rules while the rule modules load: "
                "ask when the rules run, not when a module is imported"
            )
        self._loading = True
        try:
            for module in modules:
                importlib.import_module(module)
                self._imported.add(module)
        finally:
            self._loading = False

    def rules(self, target: Target[In, R, Out] | str | None = None) -> list[Rule]:
        """The rules (of one target, or all), in code order."""
        name = target.name if isinstance(target, Target) else target
        self._load(name)
        return [
            self._rules[code]
            for code in sorted(self._rules)
            if name is None or self._rules[code].target == name
        ]

    def get(self, code: str) -> Rule | None:
        self._load()
        return self._rules.get(code.upper())

    def check(self, code: str) -> Callable[..., Iterator[object]]:
        """Rule ``code``'s check, bound to its reporter: it takes the rule's input
        (see :meth:`target`); :meth:`checks` gives them typed."""
        self._load()
        return self._checks[code]

    def checks(
        self, target: Target[In, R, Out], rules: Iterable[Rule]
    ) -> list[tuple[Rule, Callable[[In], Iterator[Out]]]]:
        """The checks of those of ``rules`` that read ``target``, bound to their
        reporters."""
        self._load(target.name)
        # Known by construction: a rule's check was attached under the target it declared.
        return [
            (rule, cast("Callable[[In], Iterator[Out]]", self._checks[rule.code]))
            for rule in rules
            if self._targets[rule.code] is target
        ]

    def target(self, code: str) -> object:
        """The :class:`Target` (kind of input) rule ``code`` checks."""
        self._load()
        return self._targets[code]

    def select(
        self,
        select: Iterable[str] | None = None,
        ignore: Iterable[str] | None = None,
        target: Target[In, R, Out] | str | None = None,
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

    def redirect(self, code: str) -> str | None:
        """The code now of a former rule code (``code`` in any case); None for any
        other code or prefix."""
        return self.redirects.get(code.strip().upper())

    def redirected(self, codes: Iterable[str]) -> tuple[list[str], list[str]]:
        """``codes`` (upper case), each former code replaced by its code now, and a
        warning for each of those (``FR403 is now GL201``)."""
        current: list[str] = []
        warnings: list[str] = []
        for written in codes:
            code = written.upper()
            new = self.redirect(code)
            if new is not None:
                warnings.append(f"{code} is now {new}: write {new}")
            current.append(new or code)
        return current, warnings

    def unknown_prefixes(self, prefixes: Iterable[str]) -> list[str]:
        """Prefixes that select no rule at all (typos worth reporting)."""
        self._load()
        codes = list(self._rules)
        return [p for p in prefixes if not any(c.startswith(p.upper()) for c in codes)]


REGISTRY = Registry()


def rule(
    *,
    code: str,
    name: str,
    severity: Severity,
    summary: str,
    rationale: str,
    bad: str,
    good: str,
    fix: str | None = None,
    target: Target[In, R, Out],
    applicability: Applicability = Applicability.NONE,
    languages: Iterable[str] | None = None,
    opt_in: bool = False,
) -> Declaration[In, R, Out]:
    """Declare a rule: its documentation, its fix, where it applies and what it reads.

    Used as a decorator on the rule's check (``@rule(...)``), or called alone for a
    rule the engine reports itself; the declaration's ``report`` is the rule's
    reporter.  ``languages`` (translation languages) defaults to every language;
    ``fix`` says what the check's fixes do, ``applicability`` whether ``--fix`` may
    apply them.  A rule family declares its rules through its :class:`Family`, which
    supplies ``target`` and ``languages``.
    """
    declared = Rule(
        code=code,
        name=name,
        severity=severity,
        summary=summary,
        rationale=rationale,
        bad=bad,
        good=good,
        fix=fix,
        opt_in=opt_in,
        applicability=applicability,
        target=target.name,
        languages=None if languages is None else frozenset(languages),
    )
    return REGISTRY.declare(declared, target)


@dataclass(frozen=True, slots=True)
class Family(Generic[In, R, Out]):
    """A family of rules (``FR``) or a part of one (``FR2``): what its declarations share.

    Its rules are declared with :meth:`rule`, which supplies the family's ``target``
    and ``languages``, and refuses a code outside the family's ``prefix``: a rule
    lives in the module of its code's family.  :meth:`part` gives a sub-family with
    the same defaults, for the module of one part::

        FRENCH = Family(prefix="FR", target=TRANSLATION, languages=("fr",))
        TYPOGRAPHY = FRENCH.part("FR2")

        @TYPOGRAPHY.rule(code="FR201", name="no-break-space", severity=..., ...)
        def check_no_break_space(subject: Subject, report: Reporter) -> Iterator[Finding]:
            ...
    """

    prefix: str
    target: Target[In, R, Out]
    #: The translation languages of every rule of the family; None: every language.
    languages: tuple[str, ...] | None = None

    def part(self, prefix: str) -> Family[In, R, Out]:
        """The sub-family of the codes starting with ``prefix`` (within this one's)."""
        if not prefix.startswith(self.prefix):
            raise RegistryError(f"family {prefix} is not part of family {self.prefix}")
        return Family(prefix, self.target, self.languages)

    def rule(
        self,
        *,
        code: str,
        name: str,
        severity: Severity,
        summary: str,
        rationale: str,
        bad: str,
        good: str,
        fix: str | None = None,
        applicability: Applicability = Applicability.NONE,
        opt_in: bool = False,
    ) -> Declaration[In, R, Out]:
        """Declare a rule of this family (see :func:`rule`)."""
        if not code.startswith(self.prefix):
            raise RegistryError(f"rule {code}: declared in family {self.prefix}")
        return rule(
            code=code,
            name=name,
            severity=severity,
            summary=summary,
            rationale=rationale,
            bad=bad,
            good=good,
            fix=fix,
            target=self.target,
            applicability=applicability,
            languages=self.languages,
            opt_in=opt_in,
        )


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
    """A Markdown reference of rules: ``docs/rules.md`` is this, of every rule, as
    ``tools/rules_doc.py`` writes it."""
    rules = list(rules)
    lines = [
        f"# {title}",
        "",
        "Generated from the rule registry by `tools/rules_doc.py` (do not edit by hand: "
        "run `.venv/bin/python tools/rules_doc.py`).",
        "The same text is printed by `translator lint --explain CODE`.  Families: "
        "MK markup (also `translator markup check`), TR a translation against its "
        "English card, GL the glossaries, FR the French style guide, EO the Esperanto "
        "house style and grammar, SP spelling, PR what typesetting tells (opt-in), LN "
        "the linter's own findings.  *Checks* is what the rule reads: a card text "
        "(markup), a translation, every translation of a language (library), or the "
        "engine's own bookkeeping; *fix* is `safe` for a fix `--fix` applies.",
        "",
        "| code | name | severity | checks | languages | summary | fix |",
        "|---|---|---|---|---|---|---|",
    ]
    for rule in rules:
        fix = "" if rule.applicability is Applicability.NONE else rule.applicability.value
        languages = "all" if rule.languages is None else ", ".join(sorted(rule.languages))
        summary = rule.summary.replace("|", "\\|")
        lines.append(
            f"| [{rule.code}](#{rule.code.lower()}-{rule.name}) | {rule.name} | "
            f"{rule.severity.value} | {rule.target} | {languages} | {summary} | {fix} |"
        )
    lines.append("")
    for rule in rules:
        lines.append(rule.explain().replace("# ", "## ", 1).replace("\n## ", "\n### "))
    return "\n".join(lines)
