"""Lint configuration: ``[tool.translator.lint]`` in pyproject.toml, or translator.toml.

The nearest file up from the current directory wins (``translator.toml`` before
``pyproject.toml`` in the same directory); a ``pyproject.toml`` without a
``[tool.translator]`` table is skipped, as ruff does.  In ``translator.toml`` the
table is ``[lint]``.  Command-line options override the file::

    [tool.translator.lint]
    select = ["TR", "GL"]
    ignore = ["TR502"]
    fail-on = "warning"
    allow-english = ["Saltmere"]
    french-spaces = "either"      # before ; : ! ? », inside « »: no-break, narrow, either
    apostrophe = "’"              # or "'"
    esperanto-quotes = "tight"    # «vorto» (the wiki's), "spaced" or "either"
    spelling = true               # Hunspell dictionaries, when installed
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..problems import did_you_mean
from ..textio import InputError

KEYS = ("select", "ignore", "fail-on", "allow-english", "glossary", "french-spaces",
        "apostrophe", "esperanto-quotes", "spelling")
FAIL_ON = ("error", "warning", "info")
#: Typographic settings and their allowed values (the first is the default).
CHOICES = {"french-spaces": ("either", "no-break", "narrow"), "apostrophe": ("’", "'"),
           "esperanto-quotes": ("tight", "spaced", "either")}


@dataclass
class Config:
    """Settings from a configuration file (empty when there is none)."""

    path: str | None = None
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fail_on: str | None = None
    allow_english: list[str] = field(default_factory=list)
    #: Library paths holding glossary files (relative to the configuration file).
    glossary: list[str] = field(default_factory=list)
    #: Style settings for the rules (``french-spaces``, ``apostrophe``, ``spelling``).
    settings: dict[str, object] = field(default_factory=dict)


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
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # let load_config report it
    return isinstance(data.get("tool"), dict) and "translator" in data["tool"]


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith((key + " ", key + "=")):
            return number
    return 0


def load_config(path: Path) -> Config:
    """Read and check a configuration file; problems raise :class:`InputError`."""
    display = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(display, f"cannot read: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise InputError(display, f"not valid UTF-8 (byte {error.start})") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", 0) or 0
        raise InputError(display, f"not valid TOML: {error}", line) from error
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("translator", {})
        lint = table.get("lint", {}) if isinstance(table, dict) else {}
        where = "[tool.translator.lint]"
    else:
        lint = data.get("lint", {})
        where = "[lint]"
    if not isinstance(lint, dict):
        raise InputError(display, f"{where} must be a table", _line_of(text, "lint"))
    config = Config(str(path))
    for key, value in lint.items():
        if key not in KEYS:
            raise InputError(display, f"unknown key '{key}' in {where} "
                                      f"({did_you_mean(key, KEYS)})", _line_of(text, key))
        _set(config, key, value, display, _line_of(text, key))
    base = path.parent
    config.glossary = [str(base / p) for p in config.glossary]
    return config


def _set(config: Config, key: str, value: Any, path: str, line: int) -> None:
    if key in CHOICES:
        if value not in CHOICES[key]:
            raise InputError(path, f"{key} is one of {', '.join(map(repr, CHOICES[key]))}, "
                                   f"not {value!r}", line)
        config.settings[key] = value
        return
    if key == "spelling":
        if not isinstance(value, bool):
            raise InputError(path, f"spelling is true or false, not {value!r}", line)
        config.settings[key] = value
        return
    if key == "fail-on":
        if value not in FAIL_ON:
            raise InputError(path, f"fail-on is one of {', '.join(FAIL_ON)}, not {value!r}",
                             line)
        config.fail_on = value
        return
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(path, f"'{key}' is a list of strings, e.g. {key} = [\"TR\"]", line)
    setattr(config, key.replace("-", "_"), list(value))
