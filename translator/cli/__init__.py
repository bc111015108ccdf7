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
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .. import __version__
from .._lazy import interrupted
from ..errors import LibraryProblems, UsageError, UserError
from ..untrusted import PrintableStream
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

#: The command groups, in the order ``translator --help`` lists them: each module of
#: this package with the commands its ``register`` declares (tests/cli/test_cli.py checks
#: that they agree).  A command's run builds the parser of its own group only.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("markup", ("markup",)),
    ("lint", ("lint",)),
    ("build", ("build", "preflight")),
    ("workflow", ("translate", "status", "review")),
    ("memory", ("suggest",)),
    ("review_sheet", ("review-sheet",)),
    ("cards", ("cards",)),
    ("exchange", ("import", "export")),
    ("theme", ("theme",)),
    ("glossary", ("glossary",)),
    ("sync", ("pull", "push", "login", "logout")),
    ("editor", ("lsp",)),
)


def _register(module: str) -> Callable[[argparse._SubParsersAction], None]:
    register: Callable[[argparse._SubParsersAction], None] = importlib.import_module(
        f".{module}", __name__
    ).register
    return register


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command (each module declares its own), or, for the
    arguments ``argv`` of one command, of that command's group only: importing and
    declaring all eleven groups costs a command about 40 ms it does not use.  Anything
    else (``--help``, no command, an unknown one) gets every command, so that the help
    and the errors list them all."""
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
    word = next((a for a in argv or () if not a.startswith("-")), None)
    chosen = [module for module, names in GROUPS if word in names]
    for module in chosen or [module for module, _ in GROUPS]:
        _register(module)(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command ``argv`` (default: the process's arguments), writing its output
    to ``out`` (default: standard output); return its exit code."""
    # Card text is untrusted: what reaches a terminal never holds a raw escape sequence.
    sys.stdout = PrintableStream.around(sys.stdout)
    sys.stderr = PrintableStream.around(sys.stderr)
    out = PrintableStream.around(out or sys.stdout)
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments)
    try:
        args = parser.parse_args(arguments)
        check_languages(args)
        run: Callable[[argparse.Namespace, TextIO], int] = args.run
        return run(args, out)
    except UserError as error:
        return _user_error(error)
    except KeyboardInterrupt:
        print("translator: interrupted", file=sys.stderr)
        return 130
    except ImportError:
        if not interrupted():
            raise
        print("translator: interrupted", file=sys.stderr)  # a Ctrl-C as a module ran
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
