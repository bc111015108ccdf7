"""Themes: the card templates, their CSS, fonts, faction colours and symbols.

The default theme (``templates/default``) ships with the package.  ``--theme DIR``
names another: a directory with a ``theme.yaml`` whose keys override the default's,
and any templates, CSS or symbols of its own; what it lacks comes from the default.
Colours are CMYK percentages, written into the CSS as ``device-cmyk()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml

from .symbols import templates_root

FACTION_KEYS = ("Gaian", "Dark Legion", "Red Banner", "House of Nobles", "The Empire", "None")
FACES = ("regular", "bold", "italic", "bold-italic")


class ThemeError(Exception):
    """A theme that cannot be used: the message names the file and what to do."""


def cmyk(values: list[float] | tuple[float, ...]) -> str:
    """CMYK percentages as a CSS colour WeasyPrint writes as /DeviceCMYK."""
    return "device-cmyk({})".format(" ".join(f"{v / 100:g}" for v in values))


@dataclass
class Theme:
    """A loaded theme: its directories (own first, default last) and settings."""

    name: str
    directories: list[Path]
    fonts: dict[str, Path]
    factions: dict[str, dict[str, tuple[float, ...]]]
    backgrounds: dict[str, dict[str, Path]] = field(default_factory=dict)
    #: An image printed as the card back instead of ``back.html.j2`` (``back:``).
    back: Path | None = None

    @property
    def roots(self) -> list[Path]:
        """What the renderer may read for this theme: its directories and font files."""
        return [*self.directories, *(path.parent for path in self.fonts.values())]

    def environment(self) -> jinja2.Environment:
        return jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(d) for d in self.directories]),
            autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
            lstrip_blocks=True)

    def colours(self, faction: str) -> dict[str, str]:
        found = self.factions.get(faction) or self.factions["None"]
        return {name: cmyk(value) for name, value in found.items()}

    def background(self, faction: str, card_type: str) -> Path | None:
        return self.backgrounds.get(faction, {}).get(card_type)


def _read(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as error:
        raise ThemeError(f"{path}: cannot read the theme: {error}") from error
    if not isinstance(data, dict):
        raise ThemeError(f"{path}: a theme.yaml is a mapping (name, fonts, factions, "
                         "backgrounds)")
    return data


def load_theme(directory: str | Path | None = None) -> Theme:
    """The default theme, overridden by the theme in ``directory`` if given."""
    default = templates_root() / "default"
    directories = [default]
    data = _read(default / "theme.yaml")
    # A theme's own back image, else the default theme's (each relative to its theme).
    back = _image([default], data["back"], "back image") if data.get("back") else None
    if directory is not None:
        own = Path(directory).resolve()
        if not (own / "theme.yaml").is_file():
            raise ThemeError(f"{own}: no theme.yaml (a theme is a directory with a "
                             "theme.yaml, see templates/README.md)")
        override = _read(own / "theme.yaml")
        for key in ("fonts", "factions", "backgrounds"):
            if key in override:
                data[key] = {**data.get(key, {}), **override[key]}
        data["name"] = override.get("name", own.name)
        directories.insert(0, own)
        if override.get("back"):
            back = _image(directories, override["back"], "back image")
    fonts = {face: Path(str(path)) for face, path in (data.get("fonts", {}).get("text")
                                                     or {}).items()}
    missing = [f for f in FACES if f not in fonts]
    if missing:
        raise ThemeError(f"theme {data.get('name')}: no {', '.join(missing)} font in "
                         "fonts.text")
    for face, path in fonts.items():
        if not path.is_file():
            raise ThemeError(f"the {face} font {path} is not installed "
                             "(apt-get install fonts-sil-gentiumplus, as ./dev setup does)")
    factions = {}
    for key in FACTION_KEYS:
        entry = (data.get("factions") or {}).get(key)
        if not isinstance(entry, dict) or not {"ink", "tint"} <= set(entry):
            raise ThemeError(f"theme {data.get('name')}: faction {key!r} needs ink and tint "
                             "(CMYK percentages)")
        factions[key] = {name: tuple(float(v) for v in entry[name]) for name in ("ink", "tint")}
    backgrounds: dict[str, dict[str, Path]] = {}
    for faction, by_type in (data.get("backgrounds") or {}).items():
        for card_type, relative in (by_type or {}).items():
            backgrounds.setdefault(str(faction), {})[str(card_type)] = _image(
                directories, relative, "background")
    return Theme(str(data.get("name", "theme")), directories, fonts, factions, backgrounds,
                 back)


def _image(directories: list[Path], relative: object, what: str) -> Path:
    """An image named in a theme.yaml: inside the theme, and there."""
    path = (directories[0] / str(relative)).resolve()
    if not any(path.is_relative_to(d.resolve()) for d in directories):
        raise ThemeError(f"{directories[0] / 'theme.yaml'}: the {what} {relative!r} is "
                         "outside the theme directory")
    if not path.is_file():
        raise ThemeError(f"{directories[0] / 'theme.yaml'}: the {what} {relative!r} does "
                         "not exist")
    return path
