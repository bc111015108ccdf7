"""Problems in input files: where, what, and how to fix it.

Shared by every stage that reads files people edit (card files, decks, glossaries):
all problems of a run are collected and reported together, each as
``file:line: message (hint)``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from .untrusted import printable


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in an input file: where, what, and how to fix it."""

    path: str
    line: int
    message: str
    hint: str = ""
    column: int = 0

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" + (f":{self.column}" if self.column else "")
        text = f"{where}: {self.message}" + (f" ({self.hint})" if self.hint else "")
        return printable(text)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
        }


def did_you_mean(value: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if value.lower() in lowered:
            close = [lowered[value.lower()]]
    return f"did you mean '{close[0]}'?" if close else f"one of: {', '.join(choices)}"
