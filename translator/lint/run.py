"""A lint run as the command line makes it: the configuration read, the rule
selection checked, the library and the glossaries loaded, the linter run (and the safe
fixes applied, linted again), with the counts the reports give.

    from translator.lint import run
    result = run.lint_paths(["cards/sample"], languages=["fr"])
    print(result.summary.errors, result.failed)

:mod:`translator.api` calls these (``api.lint``, ``api.fix``, ``api.lint_setup``,
``api.load_config``), and so does every stage that lints on the way (a push, a
review), without going through the API above it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import LibraryProblems, UsageError
from ..paths import Paths, path_list

if TYPE_CHECKING:
    from ..cards import Library, Problem
    from ..diagnostics import Rule, Severity
    from .config import Config
    from .context import FitMeasure, Locator, Resources
    from .engine import Options, Report
    from .model import Finding

__all__ = [
    "FixResult",
    "LintResult",
    "LintSetup",
    "LintSummary",
    "fix_paths",
    "lint_options",
    "lint_paths",
    "lint_setup",
    "load_config",
]


def load_config(start: str | os.PathLike[str] | None = None, *, file: str | None = None) -> Config:
    """The configuration that applies in ``start`` (default: the current directory):
    the nearest ``translator.toml``, or ``pyproject.toml`` with a
    ``[tool.translator]`` table, up from there; an empty one when there is none.
    ``file`` names the file instead (``translator lint --config FILE``).

    The one reader of the configuration: ``translator lint`` and every command that
    lints on the way (review, translate, import) read it through here, so that
    they all agree.  A problem in the file raises an error naming its line.
    """
    from . import config as lint_config  # noqa: PLC0415 - the linter loads slowly

    if file is not None:
        if not Path(file).is_file():
            raise UsageError(f"no configuration file {file}")
        return lint_config.load_config(Path(file))
    path = lint_config.find_config(None if start is None else Path(start))
    return lint_config.load_config(path) if path else lint_config.Config()


def lint_options(
    config: Config,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    languages: Sequence[str] = (),
    glossary: Sequence[str] = (),
    fail_on: str | None = None,
    fit: FitMeasure | None = None,
) -> tuple[Options, Severity]:
    """The lint options and the severity that fails a run: ``config``'s settings,
    with ``select`` (instead of the configured selection), ``ignore`` (added to it),
    ``fail_on`` (instead of the configured one) and ``glossary`` (library paths with
    glossary files, after the configured ones).

    A rule code or prefix that matches no rule is refused (a typo would silently
    check nothing), naming the configuration file when the code comes from it.  A
    former rule code means the code now (:data:`translator.diagnostics.REDIRECTS`),
    with a warning in ``options.redirected``.  ``fit`` is PR101's measure (the
    typesetter's, which comes after the linter: its callers give it).
    """
    from ..diagnostics import REGISTRY, Severity  # noqa: PLC0415
    from .engine import Options  # noqa: PLC0415

    in_file = f" (in {config.path})" if config.path else ""
    if select:
        chosen, redirected = REGISTRY.redirected(select)
    else:
        chosen, redirected = REGISTRY.redirected(config.select)
        redirected = [message + in_file for message in redirected]
    configured, in_config = REGISTRY.redirected(config.ignore)
    added, on_command_line = REGISTRY.redirected(ignore)
    skipped = configured + added
    redirected += [message + in_file for message in in_config] + on_command_line
    unknown = REGISTRY.unknown_prefixes(chosen + skipped)
    if unknown:
        where = f" (in {config.path})" if config.path and not select else ""
        raise UsageError(
            f"no rule matches {', '.join(unknown)}{where} (see 'translator lint --list-rules')"
        )
    options = Options(
        select=chosen,
        ignore=skipped,
        languages=list(languages),
        allow_english=config.allow_english,
        glossary_paths=[*config.glossary, *glossary],
        settings=dict(config.settings),
        redirected=redirected,
        fit=fit,
    )
    return options, Severity(fail_on or config.fail_on or "warning")


@dataclass(frozen=True)
class LintSummary:
    """The counts of a lint run, in the order of the JSON report's ``summary``."""

    cards: int
    errors: int
    warnings: int
    infos: int
    translations: int
    files: int
    #: Findings with a safe fix (``fix`` applies them).
    fixable: int

    @classmethod
    def of(cls, report: Report) -> LintSummary:
        """The counts of ``report``."""
        from ..diagnostics import Severity  # noqa: PLC0415

        return cls(
            cards=report.cards,
            errors=report.count(Severity.ERROR),
            warnings=report.count(Severity.WARNING),
            infos=report.count(Severity.INFO),
            translations=report.translations,
            files=report.files,
            fixable=sum(1 for f in report.findings if f.edit is not None),
        )

    @property
    def findings(self) -> int:
        return self.errors + self.warnings + self.infos

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class LintResult:
    """What the linter found: the findings with their counts, the rules that ran, and
    whether the run fails (a finding at ``fail_on`` or above).

    ``problems`` are files that could not be read as cards or glossaries (the command
    line exits 2 for them, after the report); ``unchecked`` says which languages had
    no spelling dictionary; ``redirected``, which former rule codes the selection
    named, and their codes now.
    """

    report: Report
    rules: list[Rule]
    fail_on: Severity
    problems: list[Problem] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    redirected: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return self.report.findings

    @property
    def files(self) -> int:
        """How many card files were linted."""
        return self.report.files

    @property
    def summary(self) -> LintSummary:
        return LintSummary.of(self.report)

    @property
    def failed(self) -> bool:
        """A finding at ``fail_on`` or above (the command line's exit status 1)."""
        return self.report.failed(self.fail_on)


@dataclass
class _Linting:
    """A library read and the linter set up for it: what :func:`lint` and :func:`fix`
    both start from (``fix`` lints again after each pass)."""

    library: Library
    resources: Resources
    options: Options
    fail_on: Severity
    locator: Locator
    problems: list[Problem]
    json: bool

    def lint(self, library: Library | None = None) -> Report:
        from .engine import lint  # noqa: PLC0415

        return lint(library or self.library, self.resources, self.options, self.locator)

    def result(self, report: Report) -> LintResult:
        from .engine import selected_rules  # noqa: PLC0415
        from .spelling import missing_dictionaries  # noqa: PLC0415

        return LintResult(
            report,
            selected_rules(self.options),
            self.fail_on,
            list(self.problems),
            missing_dictionaries(),
            list(self.options.redirected),
        )


def _linting(
    paths: Paths | None,
    *,
    languages: Sequence[str],
    select: Sequence[str],
    ignore: Sequence[str],
    fail_on: str | None,
    sources: Sequence[str],
    glossary: Sequence[str],
    config: Config | None,
    fixing: bool = False,
    fit: FitMeasure | None = None,
) -> _Linting:
    from .engine import load_resources  # noqa: PLC0415
    from .sources import is_json, load_inputs  # noqa: PLC0415

    options, fails = lint_options(
        load_config() if config is None else config,
        select=select,
        ignore=ignore,
        languages=languages,
        glossary=glossary,
        fail_on=fail_on,
        fit=fit,
    )
    chosen = path_list(paths)
    json_input = any(is_json(p) for p in chosen)
    if sources and not json_input:
        raise UsageError(
            "--source is for Aminduna JSON files: "
            "translator lint deck.fr.json --source deck.en.json"
        )
    inputs = load_inputs(chosen, [os.fspath(s) for s in sources])
    if fixing and json_input:
        raise UsageError(
            "--fix and --diff change card files, not Aminduna JSON: import "
            "it first (translator import arcmage)"
        )
    if not options.glossary_paths and not json_input:
        options.glossary_paths = chosen
    linted = options.languages or _languages_linted(inputs.library, inputs.files)
    problems = list(inputs.problems)
    resources = load_resources(linted, options, problems)
    options.files = inputs.files
    return _Linting(inputs.library, resources, options, fails, inputs.locator, problems, json_input)


def _languages_linted(library: Library, files: set[str]) -> list[str]:
    """The languages whose glossaries and dictionaries a lint needs: those of the card
    files named (the rest of the library is read for context in their languages only),
    else every translation's."""
    cards = library.cards.values()
    if files:
        return sorted(
            {lang for card in cards for lang, f in card.translations.items() if f.path in files}
        )
    return sorted({lang for card in cards for lang in card.translations})


def lint_paths(
    paths: Paths | None = None,
    *,
    languages: Sequence[str] = (),
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_on: str | None = None,
    sources: Sequence[str] = (),
    glossary: Sequence[str] = (),
    config: Config | None = None,
    fit: FitMeasure | None = None,
) -> LintResult:
    """Lint the card files under ``paths`` (a library, decks, card files, or
    Aminduna JSON files with their English in ``sources``): ``translator lint``.

    ``languages``: only these translations (default: every one); ``select`` and
    ``ignore``: rule codes or prefixes; ``fail_on``: the lowest severity that fails
    the run; ``glossary``: libraries whose glossary files add to the shipped ones
    (default: ``paths``); ``config``: the settings (default: :func:`load_config`
    of the current directory; ``Config()`` for none); ``fit``: PR101's measure.
    """
    run = _linting(
        paths,
        languages=languages,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        sources=sources,
        glossary=glossary,
        config=config,
        fit=fit,
    )
    return run.result(run.lint())


@dataclass
class FixResult:
    """What fixing did: how many fixes, in which files (with their new contents and
    the diff), whether they were written, and what the linter still reports."""

    fixed: int
    #: The files changed (written when ``written``), sorted.
    changed: list[str]
    #: The new content of each changed file.
    contents: dict[str, str]
    #: A unified diff of every change (``translator lint --diff``).
    diff: str
    written: bool
    #: The findings left on the library as fixed.
    remaining: LintResult


def fix_paths(
    paths: Paths | None = None,
    *,
    write: bool = True,
    languages: Sequence[str] = (),
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_on: str | None = None,
    sources: Sequence[str] = (),
    glossary: Sequence[str] = (),
    config: Config | None = None,
    fit: FitMeasure | None = None,
) -> FixResult:
    """Apply the safe fixes of what :func:`lint` finds, lint again and repeat while
    fixes remain (a fix may make another possible): ``translator lint --fix``, or
    ``--diff`` with ``write=False`` (nothing written; the result has the diff).

    Only translations are changed, only what the fixes say, each file atomically; a
    file whose fix would not read back as intended is left alone; fixing twice
    changes nothing the second time.  The options are those of :func:`lint`; Aminduna
    JSON is not fixed (import it first).
    """
    from ..textio import atomic_write, read_text  # noqa: PLC0415
    from .fixes import fix_library  # noqa: PLC0415

    run = _linting(
        paths,
        languages=languages,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        sources=sources,
        glossary=glossary,
        config=config,
        fixing=True,
        fit=fit,
    )
    report = run.lint()
    changes = fix_library(
        run.library, lambda library: run.lint(library).findings, report.findings, read_text
    )
    if write:
        for path in changes.changed:
            atomic_write(path, changes.contents[path], within=Path(path).parent)
    # The last lint of the loop is the lint of the library as fixed (same cards, same
    # files: only the findings differ).
    report.findings = changes.findings
    changed = changes.changed
    return FixResult(
        changes.applied,
        changed,
        {path: changes.contents[path] for path in changed},
        changes.diff(),
        write,
        run.result(report),
    )


@dataclass
class LintSetup:
    """The linter set up for a library: what the commands that lint on the way
    (review, translate, import and export) use."""

    resources: Resources
    options: Options
    fail_on: Severity


def lint_setup(
    languages: Sequence[str],
    paths: Paths | None = None,
    *,
    config: Config | None = None,
    fit: FitMeasure | None = None,
) -> LintSetup:
    """Glossaries and dictionaries of ``languages`` (English always) with the
    configured options, the glossary files of ``paths`` included; a glossary with
    problems raises :class:`LibraryProblems`.
    """
    from .engine import load_resources  # noqa: PLC0415

    options, fail_on = lint_options(
        load_config() if config is None else config,
        languages=languages,
        glossary=path_list(paths),
        fit=fit,
    )
    problems: list[Problem] = []
    resources = load_resources(languages, options, problems)
    if problems:
        raise LibraryProblems(problems)
    return LintSetup(resources, options, fail_on)
