"""The ``translator`` command line: a thin client of the library.

One module per command group declares its subcommands' arguments next to the commands
(a ``register(commands)`` function each); :mod:`translator.cli.output` writes
everything the commands print; :func:`main` runs one command and turns what went wrong
into an exit code.

Exit codes, for every command: 0 everything fine, 1 findings (or files that need
formatting), 2 usage or input error (unreadable file, bad UTF-8, malformed XML, a card
text the Arcmage converter cannot convert): any :class:`translator.errors.UserError`,
printed as one line.  Anything else is a bug, and surfaces as a traceback.

Heavy libraries (WeasyPrint, translate-toolkit, the spelling dictionaries) are imported
inside the commands that need them, so that starting is quick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .. import __version__
from ..api import LibraryProblems
from ..errors import UsageError, UserError
from ..untrusted import PrintableStream
from . import build, cards, exchange, glossary, lint, markup, memory, review_sheet, theme, workflow
from .common import (
    DISK_FULL,
    EXIT_ERROR,
    EXIT_OK,
    Parser,
    Reported,
    check_languages,
    command_help,
    report_problems,
)

__all__ = ["EXIT_ERROR", "EXIT_OK", "UsageError", "build_parser", "main"]

#: The command groups, in the order ``translator --help`` lists them.
COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (
    markup.register,
    lint.register,
    build.register,  # build, preflight
    workflow.register,  # translate, status, review
    memory.register,  # suggest
    review_sheet.register,
    cards.register,
    exchange.register,  # import, export
    theme.register,
    glossary.register,
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command: each module declares its own."""
    parser = Parser(
        prog="translator",
        **command_help(
            "Translation and typesetting toolchain for Arcmage cards.",
            "translator markup check cards/",
        ),
    )
    parser.add_argument("--version", action="version", version=f"translator {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for register in COMMANDS:
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command ``argv`` (default: the process's arguments), writing its output
    to ``out`` (default: standard output); return its exit code."""
    # Card text is untrusted: what reaches a terminal never holds a raw escape sequence.
    sys.stdout = PrintableStream.around(sys.stdout)
    sys.stderr = PrintableStream.around(sys.stderr)
    out = PrintableStream.around(out or sys.stdout)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        check_languages(args)
        run: Callable[[argparse.Namespace, TextIO], int] = args.run
        return run(args, out)
    except UserError as error:
        return _user_error(error)
    except KeyboardInterrupt:
        print("translator: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as error:  # a file that cannot be read or written, wherever it is
        return _os_error(error)


def _user_error(error: UserError) -> int:
    """Say what the user can fix, in one line (or one line per problem of the library),
    never as a traceback; a command that has already reported its error says nothing."""
    if isinstance(error, LibraryProblems):  # each problem on its line, then how many
        report_problems(error.problems)
    elif isinstance(error, UsageError):
        print(f"translator: error: {error}", file=sys.stderr)
    elif not isinstance(error, Reported):
        print(f"translator: {error}", file=sys.stderr)
    return EXIT_ERROR


def _os_error(error: OSError) -> int:
    """A file that cannot be read or written: its path, the system's reason and what to
    do about it (a full disk is the one cause people can fix without looking)."""
    where = error.filename or "translator"
    hint = "free some space" if error.errno in DISK_FULL else "check the path and its permissions"
    print(f"translator: {where}: {error.strerror or error}: {hint}", file=sys.stderr)
    return EXIT_ERROR
