"""``translator lint`` and the configuration every command that lints reads: thin
callers of :mod:`translator.lint.run`."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..paths import Paths

if TYPE_CHECKING:
    from ..cards.model import Card
    from ..diagnostics import Severity
    from ..lint import Options
    from ..lint.config import Config
    from ..lint.run import FixResult, LintResult, LintSetup

__all__ = ["fix", "lint", "lint_options", "lint_setup", "load_config"]


def load_config(start: str | os.PathLike[str] | None = None, *, file: str | None = None) -> Config:
    """The configuration that applies in ``start`` (default: the current directory):
    the nearest ``translator.toml``, or ``pyproject.toml`` with a
    ``[tool.translator]`` table, up from there; an empty one when there is none.
    ``file`` names the file instead (``translator lint --config FILE``).

    The one reader of the configuration: ``translator lint`` and every command that
    lints on the way (review, translate, import) read it through here, so that
    they all agree.  A problem in the file raises an error naming its line.

    >>> config = load_config("cards/sample")
    >>> config.select, config.fail_on
    ([], None)
    """
    from ..lint import run  # noqa: PLC0415 - the linter loads slowly

    return run.load_config(start, file=file)


def measure_fit(cards: Sequence[tuple[Card, str, Any]]) -> Iterator[tuple[Any, float, float]]:
    """PR101's measure of fit (:data:`translator.lint.context.FitMeasure`): the
    typesetter's, loaded only when a run measures, so that linting without PR101 loads
    no module of the typesetter."""
    from ..typeset.overflow import overflowing  # noqa: PLC0415

    return overflowing(cards)


def lint_options(
    config: Config,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    languages: Sequence[str] = (),
    glossary: Sequence[str] = (),
    fail_on: str | None = None,
) -> tuple[Options, Severity]:
    """The lint options and the severity that fails a run: ``config``'s settings,
    with ``select`` (instead of the configured selection), ``ignore`` (added to it),
    ``fail_on`` (instead of the configured one) and ``glossary`` (library paths with
    glossary files, after the configured ones).

    A rule code or prefix that matches no rule is refused (a typo would silently
    check nothing), naming the configuration file when the code comes from it.

    >>> options, fail_on = lint_options(load_config(), select=["TR1"], languages=["fr"])
    >>> options.select, fail_on.value
    (['TR1'], 'warning')
    """
    from ..lint import run  # noqa: PLC0415

    return run.lint_options(
        config,
        select=select,
        ignore=ignore,
        languages=languages,
        glossary=glossary,
        fail_on=fail_on,
        fit=measure_fit,
    )


def lint(
    paths: Paths | None = None,
    *,
    languages: Sequence[str] = (),
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_on: str | None = None,
    sources: Sequence[str] = (),
    glossary: Sequence[str] = (),
    config: Config | None = None,
) -> LintResult:
    """Lint the card files under ``paths`` (a library, decks, card files, or
    Aminduna JSON files with their English in ``sources``): ``translator lint``.

    ``languages``: only these translations (default: every one); ``select`` and
    ``ignore``: rule codes or prefixes; ``fail_on``: the lowest severity that fails
    the run; ``glossary``: libraries whose glossary files add to the shipped ones
    (default: ``paths``); ``config``: the settings (default: :func:`load_config`
    of the current directory; ``Config()`` for none).

    >>> result = lint("cards/sample", languages=["fr"], select=["TR", "GL"])
    >>> result.summary.findings, result.summary.cards, result.failed
    (0, 24, False)
    """
    from ..lint import run  # noqa: PLC0415

    return run.lint_paths(
        paths,
        languages=languages,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        sources=sources,
        glossary=glossary,
        config=config,
        fit=measure_fit,
    )


def fix(
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
) -> FixResult:
    """Apply the safe fixes of what :func:`lint` finds, lint again and repeat while
    fixes remain (a fix may make another possible): ``translator lint --fix``, or
    ``--diff`` with ``write=False`` (nothing written; the result has the diff).

    Only translations are changed, only what the fixes say, each file atomically; a
    file whose fix would not read back as intended is left alone; fixing twice
    changes nothing the second time.  The options are those of :func:`lint`; Aminduna
    JSON is not fixed (import it first).

    >>> result = fix("cards/sample", languages=["fr"], write=False)
    >>> result.fixed, result.changed
    (0, [])
    """
    from ..lint import run  # noqa: PLC0415

    return run.fix_paths(
        paths,
        write=write,
        languages=languages,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        sources=sources,
        glossary=glossary,
        config=config,
        fit=measure_fit,
    )


def lint_setup(
    languages: Sequence[str], paths: Paths | None = None, *, config: Config | None = None
) -> LintSetup:
    """Glossaries and dictionaries of ``languages`` (English always) with the
    configured options, the glossary files of ``paths`` included; a glossary with
    problems raises :class:`LibraryProblems`.

    >>> setup = lint_setup(["fr"], "cards/sample")
    >>> sorted(setup.resources.languages)
    ['fr']
    """
    from ..lint import run  # noqa: PLC0415

    return run.lint_setup(languages, paths, config=config, fit=measure_fit)
