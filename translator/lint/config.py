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

Every command reads it through :func:`translator.api.load_config` (finding the file,
or the one ``--config`` names), and :func:`translator.api.lint_options` applies the
command line's overrides: one reader, so that ``lint`` and the commands that lint on
the way (``review``, ``translate``, ``import``) agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import config as config_file
from ..problems import did_you_mean
from ..textio import InputError

KEYS = (
    "select",
    "ignore",
    "fail-on",
    "allow-english",
    "glossary",
    "french-spaces",
    "apostrophe",
    "esperanto-quotes",
    "spelling",
)
FAIL_ON = ("error", "warning", "info")
#: Typographic settings and their allowed values (the first is the default).
CHOICES = {
    "french-spaces": ("either", "no-break", "narrow"),
    "apostrophe": ("’", "'"),
    "esperanto-quotes": ("tight", "spaced", "either"),
}


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


find_config = config_file.find_config
_line_of = config_file.line_of


def load_config(path: Path) -> Config:
    """Read and check a configuration file; problems raise :class:`InputError`."""
    display = str(path)
    lint, text, where = config_file.table(path, "lint")
    config_file.allowed_folders(path.parent)  # [library] is checked with the rest
    config = Config(str(path))
    for key, value in lint.items():
        if key not in KEYS:
            raise InputError(
                display,
                f"unknown key '{key}' in {where} ({did_you_mean(key, KEYS)})",
                _line_of(text, key),
            )
        _set(config, key, value, display, _line_of(text, key))
    base = path.parent
    config.glossary = [str(base / p) for p in config.glossary]
    for relative, folder in zip(lint.get("glossary") or [], config.glossary, strict=False):
        if not Path(folder).exists():
            raise InputError(
                display,
                f"glossary: no file or folder {relative!r} (it is relative to {path.name})",
                _line_of(text, "glossary"),
            )
    return config


def _set(config: Config, key: str, value: Any, path: str, line: int) -> None:
    if key in CHOICES:
        if value not in CHOICES[key]:
            raise InputError(
                path, f"{key} is one of {', '.join(map(repr, CHOICES[key]))}, not {value!r}", line
            )
        config.settings[key] = value
        return
    if key == "spelling":
        if not isinstance(value, bool):
            raise InputError(path, f"spelling is true or false, not {value!r}", line)
        config.settings[key] = value
        return
    if key == "fail-on":
        if value not in FAIL_ON:
            raise InputError(path, f"fail-on is one of {', '.join(FAIL_ON)}, not {value!r}", line)
        config.fail_on = value
        return
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(path, f"'{key}' is a list of strings, e.g. {key} = [\"TR\"]", line)
    setattr(config, key.replace("-", "_"), list(value))
