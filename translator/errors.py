"""The project's exceptions: one hierarchy, so that callers can tell a user's mistake
from a bug.

- :class:`TranslatorError` is the base of every exception translator raises on
  purpose.
- :class:`UserError` is bad input the user must fix (an argument, a card file, a theme,
  a glossary): the command line prints its message, one line naming the file and what
  to do, and exits with status 2.  Any other exception is a bug and surfaces as a
  traceback.
- :class:`UsageError` is a wrong argument or option (the command line prefixes it with
  ``error:``, as argparse does).

Library modules subclass :class:`UserError` for their own problems (``InputError``,
``ThemeError``, ``ProfileError``...); classes that callers catch as ``ValueError`` keep
``ValueError`` as a second base.  Nothing of the project is imported here (but for
type checkers), so that every module can use these classes without an import cycle;
the command line imports them without loading the API.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .problems import Problem

__all__ = [
    "InvalidOption",
    "InvalidValue",
    "LibraryProblems",
    "TranslatorError",
    "UsageError",
    "UserError",
]


class TranslatorError(Exception):
    """The base of translator's own exceptions."""


class UserError(TranslatorError):
    """Bad input the user must fix: reported as one line, exit status 2."""


class UsageError(UserError):
    """Wrong arguments or options: reported on stderr after ``error:``, exit status 2."""


class InvalidValue(UserError, ValueError):
    """A value that cannot be used (a setting, an environment variable): a user error,
    and a ``ValueError`` for the library's callers that catch one."""


class InvalidOption(UsageError, ValueError):
    """An option's value that cannot be used (``--size huge``): a usage error, and a
    ``ValueError`` for the library's callers that catch one."""


class LibraryProblems(UserError):
    """The library (or a glossary) has problems that stop the command: each one names
    its file and line in :attr:`problems`.

    The message only counts them: print ``problems`` to show what to fix."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(f"{count} problem{'' if count == 1 else 's'}; fix them and run again")
