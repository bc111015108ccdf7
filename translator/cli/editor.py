"""``translator lsp``: the language server for card files, for editors (see
docs/editors.md).  The server itself is :mod:`translator.editor.server`; pygls is
imported when the command runs, never by ``translator --help``."""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, TextIO, cast

from .common import command_help


def cmd_lsp(args: argparse.Namespace, out: TextIO) -> int:
    """``lsp``: serve the Language Server Protocol on standard input and output until
    the editor says exit; 0 after a shutdown request, 1 when the editor went away
    without one (as LSP asks)."""
    from ..editor.server import serve  # noqa: PLC0415 - pygls and the linter load slowly

    # The process's own standard output: ``main`` wraps sys.stdout for terminals.
    stdout = (sys.__stdout__ or sys.stdout).buffer
    return serve(sys.stdin.buffer, cast(BinaryIO, stdout))


def register(commands: argparse._SubParsersAction) -> None:
    """``translator lsp``."""
    p = commands.add_parser(
        "lsp",
        help="the language server for editors (LSP over stdio)",
        **command_help(
            "Speak the Language Server Protocol on standard input and output, for VS Code,\n"
            "Neovim, Helix, Kate, Emacs: diagnostics as you type (markup, the translation\n"
            "against its English card and deck, the glossary, spelling), quick fixes and\n"
            "'apply all safe fixes', hover and completion of glossary terms, symbol codes\n"
            "and abilities, and the commands translator.showEnglish and translator.preview.\n"
            "An editor starts it: see docs/editors.md for the setup of each.",
            "translator lsp\n"
            "  # Neovim (init.lua), for the card files of a library:\n"
            '  #   vim.lsp.start({name = "translator", cmd = {"translator", "lsp"},\n'
            '  #                  root_dir = vim.fs.root(0, {"cards", ".git"})})',
        ),
    )
    p.add_argument(
        "--stdio",
        action="store_true",
        help="standard input and output (the default, and the one transport; some clients pass it)",
    )
    p.set_defaults(run=cmd_lsp)
