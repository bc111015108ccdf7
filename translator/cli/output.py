"""What every command writes with: plurals, colours, tables, JSON and the progress bar.

The reports of ``markup check`` and ``lint`` are in :mod:`.reports`: they need the
rule registry, which ``translator --help`` (and every parser built) must not load.
The JSON shapes are a contract (``version`` 1): keys may be added, never removed.
Colours only go to a terminal, and never when ``NO_COLOR`` is set (no-color.org).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

#: The formats of ``translator lint --format``.
FORMATS = ("text", "json", "sarif", "github", "gitlab")

# --------------------------------------------------------------------------------------
# words, colours, tables

RED, GREEN, YELLOW, CYAN = "\033[31m", "\033[32m", "\033[33m", "\033[36m"
BOLD, DIM, RESET = "\033[1m", "\033[2m", "\033[0m"

#: A translation's state in ``translator status`` (translated: the normal case, plain).
STATE_COLORS = {"missing": RED, "stale": YELLOW, "draft": CYAN, "translated": "", "reviewed": GREEN}
#: What a word diff removes and adds, as ``git diff --word-diff --color`` shows them.
DIFF_COLORS = {"-": RED, "+": GREEN}


def plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``: every count the command line prints, in English."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def use_color(stream: TextIO) -> bool:
    """Colours for a terminal only (not a file or a pipe), unless ``NO_COLOR`` is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ


def paint(text: str, color: str, on: bool = True) -> str:
    """``text`` in ``color`` when ``on`` (and the colour is not plain)."""
    return f"{color}{text}{RESET}" if on and color else text


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain text table (columns padded with spaces, a dashed line under the headers)."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]
    lines = [
        "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [headers, ["-" * w for w in widths], *rows]
    ]
    return "\n".join(lines)


def dump_json(data: Any, out: TextIO, default: Any = None) -> None:
    """``data`` as indented JSON with its non-ASCII letters as they are, and a newline:
    the shape of every ``--format json``."""
    json.dump(data, out, ensure_ascii=False, indent=2, default=default)
    out.write("\n")


def word_diff_text(pieces: list[tuple[str, str]], color: bool) -> str:
    """git's --word-diff styles: colours on a terminal, [-old-]{+new+} elsewhere."""
    if not color:
        from .. import api  # noqa: PLC0415 - cheap, its stages load when used

        return api.marked_diff(pieces)
    return "".join(text if kind == "=" else paint(text, DIFF_COLORS[kind]) for kind, text in pieces)


# --------------------------------------------------------------------------------------
# progress


class Progress:
    """A progress bar on a terminal (rich, on stderr), nothing otherwise: logs stay
    quiet.  ``advance`` counts cards done; ``stage`` names what is being done."""

    def __init__(self, wanted: bool, total: int) -> None:
        self.bar: Any = None
        if wanted and sys.stderr.isatty() and total:
            from rich.console import Console  # noqa: PLC0415 - only for a terminal
            from rich.progress import (  # noqa: PLC0415
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as Bar  # noqa: PLC0415

            self.bar = Bar(
                TextColumn("{task.description:<16}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),  # rich's default is stdout: the output
                transient=True,
            )
            self.task = self.bar.add_task("cards", total=total)

    def advance(self, count: int) -> None:
        """``count`` more cards done."""
        if self.bar is not None:
            self.bar.advance(self.task, count)

    def stage(self, text: str) -> None:
        """Now doing ``text``."""
        if self.bar is not None:
            self.bar.update(self.task, description=text)

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
