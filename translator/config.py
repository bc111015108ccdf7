"""The configuration file: ``translator.toml``, or ``[tool.translator]`` in pyproject.toml.

The nearest file up from the current directory wins (``translator.toml`` before
``pyproject.toml`` in the same directory); a ``pyproject.toml`` without a
``[tool.translator]`` table is skipped, as ruff does.  Its tables are read by the stage
they configure (``[lint]``: :mod:`translator.lint.config`; ``[library]``: which folders
outside a deck its cards may name).  Reading it is bounded like every input: its size,
its nesting, its numbers.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from .jsonfile import depth
from .limits import MAX_CONFIG_BYTES, MAX_DEPTH
from .textio import InputError, long_number_line, read_text

LIBRARY_KEYS = ("allow-paths",)


def find_config(start: Path | None = None) -> Path | None:
    """The configuration file that applies in ``start`` (default: the current directory)."""
    directory = (start or Path.cwd()).resolve()
    for folder in (directory, *directory.parents):
        candidate = folder / "translator.toml"
        if candidate.is_file():
            return candidate
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _has_table(candidate):
            return candidate
    return None


def _has_table(path: Path) -> bool:
    return _has_table_cached(path, _stamp(path))


def _stamp(path: Path) -> tuple[int, int]:
    """What tells a changed file from the one read before (cached answers key on it:
    every card asks which folders it may read, and reading pyproject.toml for each
    was most of the time of loading a large library)."""
    try:
        info = path.stat()
    except OSError:
        return (0, 0)
    return (info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=64)
def _has_table_cached(path: Path, stamp: tuple[int, int]) -> bool:
    try:
        data, _ = read_toml(path)
    except InputError:
        return True  # let the reader report it
    return isinstance(data.get("tool"), dict) and "translator" in data["tool"]


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """(data, text) of a TOML file; every problem an :class:`InputError` naming it."""
    display = str(path)
    text = read_text(path, MAX_CONFIG_BYTES, "configuration file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", 0) or 0
        raise InputError(display, f"not valid TOML: {error}", line) from None
    except RecursionError:
        raise InputError(
            display, f"nested more than {MAX_DEPTH} levels deep: not a configuration file"
        ) from None
    except ValueError as error:  # a number too long to convert
        raise InputError(
            display, f"not valid TOML: {error}".split(";")[0], long_number_line(text)
        ) from None
    deepest = depth(data)
    if deepest > MAX_DEPTH:
        raise InputError(
            display, f"nested {deepest} levels deep (at most {MAX_DEPTH}): not a configuration file"
        )
    return data, text


def table(path: Path, name: str) -> tuple[dict[str, Any], str, str]:
    """(the ``name`` table, the file's text, how the table is written) of ``path``."""
    data, text = read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        section = tool.get("translator", {}) if isinstance(tool, dict) else {}
        found = section.get(name, {}) if isinstance(section, dict) else {}
        where = f"[tool.translator.{name}]"
    else:
        found, where = data.get(name, {}), f"[{name}]"
    if not isinstance(found, dict):
        raise InputError(str(path), f"{where} must be a table", line_of(text, name))
    return found, text, where


def line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith((key + " ", key + "=")):
            return number
    return 0


@lru_cache(maxsize=16)
def _allowed(path: Path | None, stamp: tuple[int, int]) -> tuple[Path, ...]:
    if path is None:
        return ()
    found, text, where = table(path, "library")
    for key in found:
        if key not in LIBRARY_KEYS:
            raise InputError(
                str(path),
                f"unknown key '{key}' in {where} (one of: {', '.join(LIBRARY_KEYS)})",
                line_of(text, key),
            )
    value = found.get("allow-paths", [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(
            str(path),
            'allow-paths is a list of folders, e.g. allow-paths = ["../shared-art"]',
            line_of(text, "allow-paths"),
        )
    folders = []
    for item in value:
        folder = (path.parent / item).resolve()
        if not folder.is_dir():
            raise InputError(
                str(path),
                f"allow-paths: no folder {item!r} (it is relative to {path.name})",
                line_of(text, "allow-paths"),
            )
        folders.append(folder)
    return tuple(folders)


def allowed_folders(start: Path | None = None) -> tuple[Path, ...]:
    """Folders outside its deck that a card may name files in (``[library]
    allow-paths``), resolved."""
    path = find_config(start)
    return _allowed(path, _stamp(path) if path is not None else (0, 0))


#: What ``[build]`` may set: the defaults of ``translator build``'s options.
BUILD_KEYS = ("fallback", "strict")


def build_defaults(start: Path | None = None) -> dict[str, Any]:
    """``[build]``'s settings (``fallback``: the language printed in place of a missing
    translation, "en"; ``strict``: refuse stale translations and drafts), checked;
    empty when there is no configuration file.  The command line's options win."""
    path = find_config(start)
    if path is None:
        return {}
    found, text, where = table(path, "build")
    for key, value in found.items():
        if key not in BUILD_KEYS:
            raise InputError(
                str(path),
                f"unknown key '{key}' in {where} (one of: {', '.join(BUILD_KEYS)})",
                line_of(text, key),
            )
        if key == "fallback" and value != "en":
            raise InputError(
                str(path),
                'fallback is the language printed for a missing translation: fallback = "en"',
                line_of(text, key),
            )
        if key == "strict" and not isinstance(value, bool):
            raise InputError(str(path), "strict is true or false", line_of(text, key))
    return dict(found)
