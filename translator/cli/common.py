"""What the command modules share: exit codes, the argument parser, how a command
declares its help, the library's problems as printed, and the errors of a print build.
What the commands compute comes from :mod:`translator.api`, the one way in: a command
module imports no stage (the language codes its arguments offer, ``--lang``, are
:func:`translator.languages.codes`, which loads nothing)."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from .. import languages
from .._lazy import lazy_module
from ..errors import UsageError, UserError
from ..paths import OutsideError
from .output import plural

if TYPE_CHECKING:
    from .. import api, diagnostics, textio
    from ..cards import Problem
    from . import reports
else:
    # What the commands run with, loaded by the command that uses it first:
    # ``translator --help`` and the parser every command builds need none of it.
    api = lazy_module("translator.api")
    diagnostics = lazy_module("translator.diagnostics")
    textio = lazy_module("translator.textio")
    reports = lazy_module("translator.cli.reports")

__all__ = [
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "Parser",
    "Reported",
    "UsageError",
    "command_help",
]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
#: What a full disk (or quota) looks like: the hint is then to free some space.
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


class Reported(UserError):
    """Problems were printed already: exit 2."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are a :class:`UsageError` (exit 2, one line)
    rather than argparse's own exit."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise UsageError(message)


def command_help(text: str, example: str) -> dict[str, Any]:
    """A command's description and its example (every ``--help`` shows one), as the
    keywords of ``add_parser``."""
    return {
        "description": text,
        "epilog": f"example:\n  {example}",
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


def command_group(
    commands: argparse._SubParsersAction,
    name: str,
    help_: str,
    text: str,
    example: str,
    metavar: str = "SUBCOMMAND",
) -> argparse._SubParsersAction:
    """A command with subcommands (``translator cards check``): its subparsers."""
    group = commands.add_parser(name, help=help_, **command_help(text, example))
    sub = group.add_subparsers(dest="subcommand", metavar=metavar, parser_class=Parser)
    sub.required = True
    return sub


def add_format(parser: argparse.ArgumentParser) -> None:
    """``--format text|json``: text for people (the default), JSON for scripts."""
    parser.add_argument("--format", choices=("text", "json"), default="text")


def split_codes(values: list[str] | None) -> list[str]:
    """Rule codes given as ``--select TR1,GL --select FR`` (any case), one per item."""
    return [
        code.strip().upper() for value in values or [] for code in value.split(",") if code.strip()
    ]


def explain(code: str, out: TextIO) -> int:
    """``--explain CODE``: a rule's documentation (a former code's: the rule's now), or
    the rules of its family."""
    now = diagnostics.REGISTRY.redirect(code)
    if now is not None:
        print(f"translator: warning: {code.upper()} is now {now}", file=sys.stderr)
        code = now
    rule = diagnostics.REGISTRY.get(code)
    if rule is None:
        close = [r.code for r in diagnostics.REGISTRY.rules() if r.code[:3] == code.upper()[:3]]
        hint = f" (rules of that family: {', '.join(close)})" if close else ""
        raise UsageError(f"unknown rule {code}{hint}")
    out.write(rule.explain())
    return EXIT_OK


# --------------------------------------------------------------------------------------
# the library


#: Problems printed one by one; beyond, how many more (a file with a problem in every
#: one of 60,000 cards must not print a million lines before saying what is wrong).
MAX_PROBLEMS_SHOWN = 1_000


def report_problems(problems: list[Problem]) -> None:
    """The library's problems on stderr (the first :data:`MAX_PROBLEMS_SHOWN`), and
    how many."""
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        print(f"translator: {problem}", file=sys.stderr)
    if len(problems) > MAX_PROBLEMS_SHOWN:
        rest = len(problems) - MAX_PROBLEMS_SHOWN
        print(f"translator: ... and {plural(rest, 'more problem')}", file=sys.stderr)
    if problems:
        print(
            f"translator: {plural(len(problems), 'problem')}; fix them and run again",
            file=sys.stderr,
        )


# --------------------------------------------------------------------------------------
# languages


def check_languages(args: argparse.Namespace) -> None:
    """Every command refuses a language it does not know (exit 2): ``--lang fe`` must
    not lint nothing and report "no findings"."""
    given = getattr(args, "lang", None)
    values = given if isinstance(given, list) else [given] if given else []
    known = [*languages.codes()]
    for value in values:
        for lang in str(value).split(","):
            if lang.strip() not in (*known, "all"):
                raise UsageError(
                    f"--lang {lang.strip()}: unknown language (known: {', '.join(known)})"
                )


# --------------------------------------------------------------------------------------
# print builds (build, review-sheet, preflight)


@contextmanager
def print_errors(out: str) -> Iterator[None]:
    """A file a print build cannot write, in one line naming it as under ``--out``
    (exit 2).  What else stops a build (a theme, artwork or colour profile that cannot
    be used) is a :class:`~translator.errors.UserError` that :func:`translator.cli.main`
    prints."""
    try:
        yield
    except OSError as error:
        # The file that could not be written (translator.atomic names the target, never
        # its temporary file), as under --out as it was typed, and why.
        name = error.filename
        where = (
            Path(os.fsdecode(name)) if isinstance(name, (str, bytes, os.PathLike)) else Path(out)
        )
        with suppress(OSError, ValueError):  # outside --out (the artwork cache, a theme)
            where = Path(out) / where.resolve().relative_to(Path(out).resolve())
        if isinstance(error, OutsideError):
            hint = f"it leads to {error.leads_to}: remove the link, or choose another --out"
        elif error.errno in DISK_FULL:
            hint = "free some space or choose another --out"
        else:
            hint = "choose another --out: a directory you can write to"
        print(
            f"translator: cannot write {where}: {error.strerror or error} ({hint})", file=sys.stderr
        )
        raise Reported from None


def write_named(files: dict[str, str]) -> list[str]:
    """Write each text to the file the user named on the command line (``-o``) or
    beside it, wherever it leads (the one place where a write names no folder it must
    stay in), its folder made if needed; the paths written, in order."""
    for name, text in files.items():
        destination = Path(name)
        try:
            destination.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise textio.InputError(
                str(destination.parent), f"cannot create: {error.strerror}"
            ) from None
        textio.atomic_write(name, text, within=None)  # the user named it
    return list(files)
