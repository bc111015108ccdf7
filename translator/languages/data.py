"""The languages' data files: YAML under ``glossaries/``, read once, mistakes located.

What translator knows of a language that is a list or a table (its plural
exceptions, its typography, its dictionary's name, its word formation) is data that
its community can read and correct, not code.  Each file is read at most once per
process, on first use (so that a command that never inflects a word never reads
one), through :mod:`translator.yamlfile`; a file that is missing or malformed, or a
value of the wrong kind, is an :class:`~translator.textio.InputError` naming the
file, the line and what to write instead (the command line prints it as one line).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..limits import MAX_CONFIG_BYTES
from ..problems import Problem
from ..shipped import glossaries_root
from ..textio import InputError, decode, read_file
from ..words import normalize

if TYPE_CHECKING:  # PyYAML loads with the first file read, not with the package
    import yaml

#: The file of a language's own data, in its folder of ``glossaries/``.
LANGUAGE_FILE = "language.yaml"


def normalized(words: Iterable[str]) -> frozenset[str]:
    """``words`` as the glossary matcher compares words (NFC, case-folded)."""
    return frozenset(normalize(word) for word in words)


@dataclass(frozen=True)
class DataFile:
    """A mapping of a data file (the whole file, or a section of it), with the YAML
    node that knows the line of each value, so that a wrong value is reported where
    it is written."""

    path: Path
    data: Mapping[str, Any]
    node: yaml.Node | None
    #: The keys from the top of the file to this section (for lines and messages).
    where: tuple[str | int, ...] = ()

    def error(self, key: str, message: str, hint: str) -> InputError:
        """An error about ``key`` of this section, at its line: what is wrong, and
        what to write instead."""
        from .. import yamlfile  # noqa: PLC0415 - PyYAML, when a file is read

        line = yamlfile.line_of(self.node, *self.where, key)
        name = ".".join(str(k) for k in (*self.where, key))
        return InputError(str(self.path), f"{name}: {message} ({hint})", line)

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def section(self, key: str) -> DataFile:
        """The mapping under ``key`` (empty when the key is absent)."""
        value = self.data.get(key)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise self.error(key, "expected a mapping", f"write `{key}:` then indented keys")
        return DataFile(self.path, value, self.node, (*self.where, key))

    def text(self, key: str, default: str | None = None) -> str:
        """A string value; ``default`` when absent (an error when there is none)."""
        value = self.data.get(key)
        if value is None:
            if default is None:
                raise self.error(key, "missing", f"write `{key}: ...`")
            return default
        if not isinstance(value, str):
            raise self.error(key, f"expected text, not {value!r}", 'quote it: "..."')
        return value

    def integer(self, key: str, default: int) -> int:
        """A whole number (``default`` when absent)."""
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"expected a whole number, not {value!r}", f"`{key}: 3`")
        return value

    def flag(self, key: str, default: bool) -> bool:
        """A yes/no value (``default`` when absent)."""
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, not {value!r}", f"`{key}: true`")
        return value

    def words(self, key: str) -> tuple[str, ...]:
        """A list of words, in its order (empty when absent).  YAML reads a bare
        ``on``, ``no`` or ``1`` as something else than a word: they must be quoted."""
        value = self.data.get(key)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.error(key, "expected a list", f"`{key}: [word, word]`")
        for item in value:
            if not isinstance(item, str):
                raise self.error(key, f"{item!r} is not a word", f'quote it: "{_as_written(item)}"')
        return tuple(value)

    def table(self, key: str) -> dict[str, str]:
        """A mapping of words to words (empty when absent)."""
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise self.error(key, "expected words mapped to words", f"`{key}: {{a: b}}`")
        return dict(value)

    def pairs(self, key: str) -> tuple[tuple[str, str], ...]:
        """An ordered list of two-word lists (``[[ending, replacement], ...]``), for
        rules tried in order (empty when absent)."""
        value = self.data.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(w, str) for w in p)
            for p in value
        ):
            raise self.error(key, "expected a list of pairs", f'`{key}: [["al", "aux"]]`')
        return tuple((a, b) for a, b in value)

    def sections(self, key: str) -> tuple[DataFile, ...]:
        """A list of mappings (empty when absent), each a section of its own."""
        value = self.data.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.error(key, "expected a list of mappings", f"`{key}:` then `- key: ...`")
        return tuple(
            DataFile(self.path, item, self.node, (*self.where, key, i))
            for i, item in enumerate(value)
        )


def _as_written(value: object) -> str:
    """How a YAML scalar read as a boolean or a number was probably written."""
    if value is True:
        return "on"
    if value is False:
        return "no"
    return str(value)


@functools.cache
def shipped(relative: str) -> DataFile:
    """The data file ``glossaries/<relative>``, read once per process."""
    root = glossaries_root()
    if root is None:
        raise InputError("glossaries", "translator's data folder is missing: reinstall translator")
    return read(root / relative)


def read(path: Path) -> DataFile:
    """A data file: a YAML mapping, at most :data:`MAX_CONFIG_BYTES`."""
    display = str(path)
    if not path.is_file():
        raise InputError(display, "missing: reinstall translator, or restore the file from git")
    text = decode(read_file(path, MAX_CONFIG_BYTES, "language data file"), display)
    problems: list[Problem] = []
    from .. import yamlfile  # noqa: PLC0415 - PyYAML, when a file is read

    loaded = yamlfile.load(text, display, 1, problems)
    if loaded is None:
        problem = problems[0]
        hint = f" ({problem.hint})" if problem.hint else ""
        raise InputError(display, problem.message + hint, problem.line, problem.column)
    data, node = loaded
    if not isinstance(data, dict):
        raise InputError(display, "expected a mapping of keys (`language: xx` first)", 1)
    return DataFile(path, data, node)


def language_data(code: str) -> DataFile:
    """``glossaries/<code>/language.yaml``: a language's own data."""
    return shipped(f"{code}/{LANGUAGE_FILE}")
