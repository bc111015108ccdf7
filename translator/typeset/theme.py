"""Themes: the card templates, their CSS, fonts, faction colours and symbols.

The default theme (``templates/default``) ships with the package.  ``--theme DIR``
names another: a directory with a ``theme.yaml`` whose keys override the default's,
and any templates, CSS or symbols of its own; what it lacks comes from the default.
Colours are CMYK percentages, written into the CSS as ``device-cmyk()``.

A theme is not trusted: its ``theme.yaml`` is checked against :data:`SCHEMA` when it is
loaded (before anything is rendered), its font files must be fonts, and its templates
run in Jinja's immutable sandbox with a few variables and filters
(:data:`TEMPLATE_GLOBALS`, :data:`TEMPLATE_FILTERS`), reading only files of the theme
(:class:`ThemeLoader`).  Every problem is a :class:`ThemeError` of one line naming the
file (and line) and what to do (see docs/security.md).
"""

from __future__ import annotations

import os
import signal
import stat
import threading
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml
from jinja2.defaults import DEFAULT_FILTERS
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError, safe_range

from .. import yamlfile
from ..cards.model import CARD_TYPES
from ..errors import UserError
from ..limits import MAX_CONFIG_BYTES
from ..pdf.sizes import card_size
from ..problems import did_you_mean
from ..shipped import templates_root
from ..textio import InputError, decode, read_file

FACTION_KEYS = ("Gaian", "Dark Legion", "Red Banner", "House of Nobles", "The Empire", "None")
FACES = ("regular", "bold", "italic", "bold-italic")
#: The Debian packages with the fonts of the shipped themes (for the message when one
#: is not installed).
SHIPPED_FONT_PACKAGES = {
    "default": "fonts-sil-gentiumplus",
    "arcmage": "fonts-liberation fonts-urw-base35",
}
#: Font roles a theme may add to its text font (``fonts.caps``, ``fonts.footer``, and
#: ``fonts.narrow``: a narrow face the footer is set in when it does not fit its line).
EXTRA_FONTS = ("caps", "footer", "narrow")

#: The first bytes of a font file: TrueType (``00 01 00 00``, ``true``), OpenType
#: (``OTTO``), a TrueType collection (``ttcf``), WOFF and WOFF2.
FONT_SIGNATURES = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf", b"wOFF", b"wOF2")
#: Bytes of a font file (Gentium Book Plus: about 2 MB a face; CJK fonts: 20 MB).
MAX_FONT_BYTES = 50 << 20
#: Bytes of a template file (the default's largest is 8 KB).
MAX_TEMPLATE_BYTES = 1 << 20

#: The filters a theme template may use: those the shipped templates use (the default
#: theme's and the review sheet's), nothing else.
TEMPLATE_FILTERS = ("int", "join", "length", "max", "min", "replace", "round")
#: The global names a theme template may use besides the variables it is given.
TEMPLATE_GLOBALS = ("range",)
#: Largest exponent of ``**`` and longest text or list made with ``*`` in a template.
MAX_POWER = 100
MAX_REPEAT = 1 << 20
#: Items of every ``range()`` of one render together: loops of loops of ``range`` ran
#: for hours (10,000,000,000 steps) with no limit but Jinja's 100,000 per range.
MAX_STEPS = 1_000_000
#: Seconds one render of a template may take (a deck of a few hundred cards renders in
#: well under one): loops over a long text or list, which no count sees, end there.
MAX_RENDER_SECONDS = 30.0


class ThemeError(UserError):
    """A theme that cannot be used: the message names the file and what to do."""


def cmyk(values: list[float] | tuple[float, ...]) -> str:
    """CMYK percentages as a CSS colour WeasyPrint writes as /DeviceCMYK."""
    return "device-cmyk({})".format(" ".join(f"{v / 100:g}" for v in values))


def faction_slug(faction: str) -> str:
    """A faction as a CSS class name and a layout key: 'Dark Legion' -> 'dark-legion'."""
    return faction.lower().replace(" ", "-")


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
    #: Fonts of other roles than the text (``caps``: drop caps, cost and stats;
    #: ``footer``), given to ``page.css.j2`` with the text faces.
    extra_fonts: dict[str, Path] = field(default_factory=dict)
    #: Element positions by faction slug and type slug (``layout:``), for card.css.j2.
    layout: dict[str, Any] = field(default_factory=dict)
    #: The card size the theme is drawn for (``size:``), or None for any size.
    size: str | None = None
    _environment: jinja2.Environment | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_environment": None}  # made again where it is needed

    @property
    def roots(self) -> list[Path]:
        """What the renderer may read for this theme: its directories and its font
        files (the files themselves, not the directories they are in)."""
        return [*self.directories, *self.font_files]

    @property
    def font_files(self) -> list[Path]:
        """Every font file the theme prints with: the text faces, then the others."""
        return [*self.fonts.values(), *self.extra_fonts.values()]

    def font_urls(self) -> dict[str, str]:
        """Every font role and face (``regular``... ``caps``, ``footer``) as a file URL,
        for ``page.css.j2``."""
        return {face: path.as_uri() for face, path in {**self.fonts, **self.extra_fonts}.items()}

    def environment(self) -> jinja2.Environment:
        """The theme's Jinja environment: sandboxed, reading only the theme's files;
        its templates raise :class:`ThemeError` (of one line) for every problem."""
        if self._environment is None:
            self._environment = _sandbox(self.directories)
        return self._environment

    def template(self, name: str) -> jinja2.Template:
        """The template ``name`` of the theme (else of the default theme), compiled;
        its ``render`` raises :class:`ThemeError` for any error in it."""
        return self.environment().get_template(name)

    def render(self, name: str, **variables: Any) -> str:
        """The template ``name`` rendered with ``variables``; any problem is a
        :class:`ThemeError` ``path/to/template:LINE: what went wrong (what to do)``."""
        return self.template(name).render(**variables)

    def metrics(self) -> dict[str, dict[str, float]]:
        """Each font face's vertical metrics in em (``ascent``, ``descent``,
        ``cap``: what Pango lays lines out with, the hhea table's), so that a theme's CSS
        can place a text by its baseline as an SVG template does: in a line of height
        ``h`` em the baseline is ``(h - ascent - descent) / 2 + ascent`` em below the top."""
        return {
            face: font_metrics(path) for face, path in {**self.fonts, **self.extra_fonts}.items()
        }

    def layout_of(self, faction: str, card_type: str) -> dict[str, Any]:
        """The elements of a faction ('Dark Legion') and card type ('Creature') in the
        theme's layout (``layout:``), empty when it has none."""
        return (self.layout.get(faction_slug(faction)) or {}).get(card_type.lower()) or {}

    def text_ink(self, faction: str, card_type: str) -> str | None:
        """The rule text's colour of a faction and card type in the theme's layout (a
        ``device-cmyk()`` colour), or None when the layout does not say."""
        colour = (self.layout_of(faction, card_type).get("text") or {}).get("colour")
        return cmyk(colour) if colour is not None else None

    def colours(self, faction: str) -> dict[str, str]:
        found = self.factions.get(faction) or self.factions["None"]
        return {name: cmyk(value) for name, value in found.items()}

    def background(self, faction: str, card_type: str) -> Path | None:
        return self.backgrounds.get(faction, {}).get(card_type)


@lru_cache(maxsize=32)
def font_metrics(path: Path) -> dict[str, float]:
    """``ascent``, ``descent`` (positive) and ``cap`` height of a font, in em."""
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - only themes that place by baseline

    try:
        font = TTFont(str(path), lazy=True)
        units = font["head"].unitsPerEm
        hhea = font["hhea"]
        os2 = font.get("OS/2", None)
        cap = getattr(os2, "sCapHeight", 0) or 0.7 * units
        return {"ascent": hhea.ascent / units, "descent": -hhea.descent / units, "cap": cap / units}
    except Exception as error:  # fontTools raises many kinds for a broken font
        raise ThemeError(
            f"{path}: not a usable font ({type(error).__name__}: "
            f"{str(error)[:200]}): give a TrueType or OpenType file"
        ) from None


# ----------------------------------------------------------------------- theme.yaml


@dataclass(frozen=True)
class Text:
    """A value of the schema: a non-empty text (a name, a file path)."""

    what: str
    example: str
    nullable: bool = False


@dataclass(frozen=True)
class Colour:
    """A value of the schema: four CMYK percentages, 0 to 100."""

    example: str = "[70, 10, 90, 25]"
    nullable: bool = False


@dataclass(frozen=True)
class Number:
    """A value of the schema: a number from ``low`` to ``high`` (a length in mm, a size
    in pt): the bounds keep a typo from placing text a metre away."""

    what: str
    low: float
    high: float
    nullable: bool = False


@dataclass(frozen=True)
class Choice:
    """A value of the schema: one of a few words (written into CSS, so never free text)."""

    what: str
    choices: tuple[str, ...]
    nullable: bool = False


@dataclass(frozen=True)
class Keys:
    """A value of the schema: a mapping of these keys (each optional unless
    ``required``); ``nullable``: an empty value (``null``) means none."""

    what: str
    example: str
    keys: Mapping[str, Shape]
    required: tuple[str, ...] = ()
    nullable: bool = False


Shape = Text | Colour | Number | Choice | Keys


_FONT_EXAMPLE = "{regular: a.ttf, bold: b.ttf, italic: c.ttf, bold-italic: d.ttf}"
_FACTION_COLOURS = Keys(
    "its two colours",
    "{ink: [70, 10, 90, 25], tint: [8, 0, 14, 0]}",
    {"ink": Colour(), "tint": Colour()},
    required=("ink", "tint"),
)
#: The element boxes of a layout (``layout:``): where a card's name, type line, text...
#: print, in mm from the trim's top-left corner (the card as cut; negative in the
#: bleed), sizes in pt.  A text element is placed by its baseline and anchor, as an SVG
#: text is; a box by its corner and size.
_LENGTH = Number("a length in mm from the trim's top-left corner", -20.0, 400.0)
_SIZE = Number("a size in mm", 0.0, 400.0)
_LINE = Keys(
    "a one-line text's anchor, size and colour",
    "{x: 59.7, baseline: 45.5, anchor: end, size: 13.3, colour: [8, 10, 38, 0]}",
    {
        "x": _LENGTH,
        "baseline": _LENGTH,
        "anchor": Choice("where x is on the text", ("start", "middle", "end")),
        "size": Number("a font size in pt", 4.0, 72.0),
        "colour": Colour(),
    },
    required=("x", "baseline", "anchor", "size"),
)
_BOX = {"x": _LENGTH, "y": _LENGTH, "width": _SIZE, "height": _SIZE}
LAYOUT_LINES = ("name", "name1", "name2", "type", "cost", "attack", "defense", "info")
_ELEMENTS = Keys(
    "a card layout's elements",
    "{name: {x: 59.7, baseline: 45.5, anchor: end, size: 13.3}, art: {x: 0, y: 0, "
    "width: 64, height: 53}}",
    {
        **dict.fromkeys(LAYOUT_LINES, _LINE),
        "art": Keys(
            "the artwork window", "{x: 0, y: 0, width: 64, height: 53}", _BOX, required=tuple(_BOX)
        ),
        "text": Keys(
            "the rule text's box, size and colour",
            "{x: 5.1, y: 58.6, width: 53.6, height: 29.6, size: 9, colour: [8, 10, 38, 0]}",
            {**_BOX, "size": Number("a font size in pt", 4.0, 72.0), "colour": Colour()},
            required=tuple(_BOX),
        ),
        "loyalty": Keys(
            "the first loyalty mark's box, the step to the next and its colours",
            "{x: 58.8, y: 13.3, width: 5.3, height: 7.1, step: 5.6}",
            {
                **_BOX,
                "step": Number("the distance between two marks in mm", -100, 100),
                "fill": Colour(),
                "stroke": Colour(),
                "drawing": Choice(
                    "the mark's drawing: loyalty/<faction>.svg in the theme", ("svg",)
                ),
            },
            required=(*_BOX, "step"),
        ),
    },
)
#: The faction and card-type slugs of a layout (``layout: {gaian: {creature: ...}}``).
FACTION_SLUGS = tuple(faction_slug(key) for key in FACTION_KEYS)
TYPE_SLUGS = tuple(card_type.lower() for card_type in CARD_TYPES)
#: What a theme.yaml holds: every key it may have and what its value must be.
SCHEMA = Keys(
    "the theme's settings",
    "name: my theme",
    {
        "name": Text("the theme's name", "name: my theme"),
        "base": Choice("a theme shipped with translator this one builds on", ("arcmage",)),
        "size": Text("the card size the theme is drawn for", "size: arcmage"),
        "fonts": Keys(
            "font roles",
            f"fonts: {{text: {_FONT_EXAMPLE}}}",
            {
                "text": Keys(
                    "the text font's four faces",
                    f"text: {_FONT_EXAMPLE}",
                    {
                        face: Text(f"the {face} font file", f"{face}: fonts/MyFont-{face}.ttf")
                        for face in FACES
                    },
                    required=FACES,
                ),
                "caps": Text("the font of drop caps, cost and stats", "caps: Caps.otf"),
                "footer": Text("the footer's font", "footer: Sans.ttf"),
                "narrow": Text(
                    "a narrow font for a footer too long for its line", "narrow: SansNarrow.ttf"
                ),
            },
        ),
        "factions": Keys(
            "factions and their colours",
            "factions: {Gaian: {ink: [70, 10, 90, 25], tint: [8, 0, 14, 0]}}",
            dict.fromkeys(FACTION_KEYS, _FACTION_COLOURS),
        ),
        "backgrounds": Keys(
            "factions and their background images",
            "backgrounds: {Gaian: {Creature: gaian.jpg}}",
            {
                key: Keys(
                    "card types and their background images",
                    "{Creature: gaian.jpg}",
                    {
                        card_type: Text(
                            "a background image in the theme",
                            f"{card_type}: {card_type.lower()}.jpg",
                        )
                        for card_type in CARD_TYPES
                    },
                    nullable=True,
                )
                for key in FACTION_KEYS
            },
            nullable=True,
        ),
        "back": Text(
            "an image in the theme printed as the card back", "back: back.jpg", nullable=True
        ),
        "layout": Keys(
            "factions and their card layouts",
            "layout: {gaian: {creature: {name: {...}, text: {...}}}}",
            {
                faction: Keys(
                    "card types and their layouts",
                    "{creature: {name: {...}}}",
                    dict.fromkeys(TYPE_SLUGS, _ELEMENTS),
                )
                for faction in FACTION_SLUGS
            },
            nullable=True,
        ),
    },
)


@dataclass
class _File:
    """One theme.yaml, checked against :data:`SCHEMA`."""

    path: Path
    data: dict[str, Any]
    node: yaml.Node | None

    def where(self, *keys: str | int) -> str:
        return f"{self.path}:{yamlfile.line_of(self.node, *keys)}"


def _kind(value: object) -> str:
    """What a YAML value is, in words (never the value itself, which may be huge)."""
    for types, words in _KINDS:
        if isinstance(value, types):
            return words
    return "a " + type(value).__name__


#: What :func:`_kind` calls each type of YAML value (bool before int: it is one).
_KINDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (type(None), "empty (null)"),
    (bool, "true or false"),
    ((int, float), "a number"),
    (str, "a text"),
    (list, "a list"),
    (dict, "a mapping"),
)


def _show(value: object) -> str:
    """A short scalar as written, else what it is."""
    if isinstance(value, str | int | float | bool) or value is None:
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + "..."
    return _kind(value)


def _dotted(path: tuple[str | int, ...]) -> str:
    return ".".join(str(part) for part in path) or "theme.yaml"


def validate(
    data: object,
    node: yaml.Node | None,
    path: Path,
    shape: Shape = SCHEMA,
    keys: tuple[str | int, ...] = (),
) -> None:
    """Check the value ``data`` of a theme.yaml at ``keys`` against ``shape`` (the whole
    file against :data:`SCHEMA`); the first problem is a :class:`ThemeError` naming the
    file, the line and what to write.  Only the declared shape is walked, so a value of
    any size fails at its first wrong part."""
    name = _dotted(keys)
    # The line of the key (a mapping given as a block starts on the line after it).
    where = f"{path}:{yamlfile.key_line_of(node, *keys) if keys else yamlfile.line_of(node)}"
    if data is None and shape.nullable:
        return
    if isinstance(shape, Keys):
        _validate_mapping(data, node, path, shape, keys, where)
    elif isinstance(shape, Colour):
        _validate_colour(data, node, path, shape, keys, where)
    elif isinstance(shape, Number):
        if (
            isinstance(data, bool)
            or not isinstance(data, int | float)
            or not (shape.low <= data <= shape.high)
        ):
            raise ThemeError(
                f"{where}: {name} is {_show(data)}; it must be {shape.what}, a number "
                f"from {shape.low:g} to {shape.high:g}"
            )
    elif isinstance(shape, Choice):
        if data not in shape.choices:
            raise ThemeError(
                f"{where}: {name} is {_show(data)}; it must be {shape.what}: "
                f"{' or '.join(shape.choices)}"
            )
    elif not isinstance(data, str) or not data.strip() or "\x00" in data or len(data) > 4096:
        raise ThemeError(
            f"{where}: {name} is {_kind(data)}; it must be {shape.what}, "
            f"written as a text (e.g. {shape.example})"
        )


def _validate_mapping(
    data: object,
    node: yaml.Node | None,
    path: Path,
    shape: Keys,
    keys: tuple[str | int, ...],
    where: str,
) -> None:
    """A mapping of the schema: a mapping, no key it does not declare (with the key
    meant), its required keys, then each value against its own shape."""
    name = _dotted(keys)
    if not isinstance(data, dict):
        if not keys:
            raise ThemeError(
                f"{where}: a theme.yaml is a mapping of keys, not "
                f"{_kind(data)} (keys: {', '.join(shape.keys)})"
            )
        raise ThemeError(
            f"{where}: {name} is {_kind(data)}; it must be a mapping of "
            f"{shape.what} (keys: {', '.join(shape.keys)}; e.g. "
            f"{shape.example})"
        )
    for key in data:
        if key not in shape.keys:
            line = (
                yamlfile.key_line_of(node, *keys, key)
                if isinstance(key, str)
                else yamlfile.line_of(node, *keys)
            )
            raise ThemeError(
                f"{path}:{line}: unknown key {_show(key)} in {name} "
                f"({did_you_mean(str(key), tuple(shape.keys))})"
            )
    missing = [key for key in shape.required if key not in data]
    if missing:
        raise ThemeError(
            f"{where}: {name} has no {', '.join(missing)} (give {shape.what}, e.g. {shape.example})"
        )
    for key, value in data.items():
        validate(value, node, path, shape.keys[key], (*keys, key))


def _validate_colour(
    data: object,
    node: yaml.Node | None,
    path: Path,
    shape: Colour,
    keys: tuple[str | int, ...],
    where: str,
) -> None:
    """A colour of the schema: exactly four CMYK percentages, the wrong one named on
    its own line."""
    name = _dotted(keys)
    expected = f"four CMYK percentages from 0 to 100 (c, m, y, k), e.g. {keys[-1]}: {shape.example}"
    if not isinstance(data, list) or len(data) != 4:
        got = f"a list of {len(data)}" if isinstance(data, list) else _kind(data)
        raise ThemeError(f"{where}: {name} is {got}; write {expected}")
    for index, value in enumerate(data):
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 100:
            at = f"{path}:{yamlfile.line_of(node, *keys, index)}"
            raise ThemeError(f"{at}: {name}[{index}] is {_show(value)}; write {expected}")


def _read(path: Path) -> _File:
    """A theme.yaml, read (small, UTF-8, YAML without aliases) and validated."""
    try:
        data, node = yamlfile.read(path, MAX_CONFIG_BYTES, "theme.yaml")
    except ValueError as error:
        raise ThemeError(str(error)) from None
    data = {} if data is None else data
    validate(data, node, path)
    return _File(path, data, node)


def load_theme(directory: str | Path | None = None) -> Theme:
    """The default theme, overridden by the theme in ``directory`` if given: every
    theme.yaml validated, every font and image checked (a :class:`ThemeError`)."""
    default_dir = templates_root() / "default"
    default = _read(default_dir / "theme.yaml")
    files = [default]
    directories = [default_dir]
    if directory is not None:
        own = resolve_theme(directory)
        files.insert(0, _read(own / "theme.yaml"))
        directories.insert(0, own)
        base = files[0].data.get("base")
        if base is not None:
            # A shipped theme it builds on (the official look's templates): between the
            # theme and the default, for templates and settings alike.
            base_dir = templates_root() / str(base)
            files.insert(1, _read(base_dir / "theme.yaml"))
            directories.insert(1, base_dir)
    theme_file = files[0]

    def given(*keys: str) -> _File:
        """The theme.yaml whose value at ``keys`` counts: the theme's, else the default's."""
        for file in files:
            data: Any = file.data
            for key in keys:
                if not isinstance(data, dict) or key not in data:
                    break
                data = data[key]
            else:
                return file
        return files[-1]

    # Fonts: a theme's fonts.text replaces the default's (all four faces).
    source = given("fonts", "text")
    if "text" not in (source.data.get("fonts") or {}):
        raise ThemeError(
            f"{source.path}: no fonts.text (give the four faces of the text "
            f"font: {', '.join(FACES)})"
        )
    fonts = {face: _font(source, face) for face in FACES}
    factions = {}
    for key in FACTION_KEYS:
        found = given("factions", key)
        entry = (found.data.get("factions") or {}).get(key)
        if entry is None:
            raise ThemeError(
                f"{found.where('factions')}: no colours for faction {key!r} "
                f"(give {key}: {{ink: [c, m, y, k], tint: [c, m, y, k]}})"
            )
        factions[key] = {part: tuple(float(v) for v in entry[part]) for part in ("ink", "tint")}
    backgrounds: dict[str, dict[str, Path]] = {}
    for key in FACTION_KEYS:
        found = given("backgrounds", key)
        for card_type in (found.data.get("backgrounds") or {}).get(key) or {}:
            backgrounds.setdefault(key, {})[card_type] = _image(
                directories, found, ("backgrounds", key, card_type), "background"
            )
    back = None
    found = given("back")
    if found.data.get("back") is not None:
        back = _image(directories, found, ("back",), "back image")
    extra_fonts = {}
    for role in EXTRA_FONTS:
        found = given("fonts", role)
        if role in (found.data.get("fonts") or {}):
            extra_fonts[role] = _font(found, role)
    layout = given("layout").data.get("layout") or {}
    size = _size(given("size"))
    name = theme_file.data.get("name") or (
        directories[0].name if directory is not None else "theme"
    )
    return Theme(
        str(name),
        directories,
        fonts,
        factions,
        backgrounds,
        back,
        extra_fonts=extra_fonts,
        layout=layout,
        size=size,
    )


def themes_home() -> Path:
    """Where ``translator theme import-arcmage`` puts a theme by default, and where
    ``--theme NAME`` finds one: ``$XDG_DATA_HOME/translator/themes`` (else
    ``~/.local/share/translator/themes``)."""
    base = os.environ.get("XDG_DATA_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "translator" / "themes"


def resolve_theme(directory: str | Path) -> Path:
    """The theme directory ``directory`` names: a path, or the bare name of a theme
    imported into :func:`themes_home` (``--theme arcmage``)."""
    given = Path(directory)
    own = given.resolve()
    if (own / "theme.yaml").is_file():
        return own
    bare = given.name == str(directory)  # a name, not a path
    named = themes_home() / str(directory)
    if bare and (named / "theme.yaml").is_file():
        return named.resolve()
    if bare and not own.exists():
        raise ThemeError(
            f"{directory}: no such theme directory, and no theme {str(directory)!r} in "
            f"{themes_home()} (give a directory with a theme.yaml, or import the official "
            "look first: translator theme import-arcmage SOURCE)"
        )
    raise ThemeError(
        f"{own}: no theme.yaml (a theme is a directory with a theme.yaml, see templates/README.md)"
    )


def _font(file: _File, face: str) -> Path:
    """A font file named in ``file`` (absolute, or relative to its theme): a regular
    file, not too large, whose first bytes are a font's."""
    keys = ("fonts", face) if face in EXTRA_FONTS else ("fonts", "text", face)
    value = file.data["fonts"][face] if face in EXTRA_FONTS else file.data["fonts"]["text"][face]
    where = file.where(*keys)
    path = Path(value)
    if not path.is_absolute():
        path = file.path.parent / path
    try:
        path = path.resolve()
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        shipped = SHIPPED_FONT_PACKAGES.get(file.path.parent.name)
        if shipped is not None and file.path.parent.parent == templates_root():
            raise ThemeError(
                f"{where}: the {face} font {path} is not installed (apt-get install "
                f"{shipped}, as ./dev setup does)"
            ) from None
        raise ThemeError(
            f"{where}: the {face} font {value!r} does not exist ({path}) (name "
            "a font file, absolute or relative to the theme directory)"
        ) from None
    except (OSError, RuntimeError) as error:
        raise ThemeError(
            f"{where}: cannot read the {face} font {value!r}: "
            f"{getattr(error, 'strerror', None) or error}"
        ) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ThemeError(
                f"{where}: the {face} font {value!r} is not a regular file "
                "(name a .ttf, .otf, .woff or .woff2 file)"
            )
        if info.st_size > MAX_FONT_BYTES:
            raise ThemeError(
                f"{where}: the {face} font {value!r} is "
                f"{info.st_size / (1 << 20):.1f} MB, more than the "
                f"{MAX_FONT_BYTES >> 20} MB a font file may be (is this the "
                "right file?)"
            )
        signature = os.pread(descriptor, 4, 0)
    except OSError as error:
        raise ThemeError(
            f"{where}: cannot read the {face} font {value!r}: {error.strerror or error}"
        ) from None
    finally:
        os.close(descriptor)
    if signature not in FONT_SIGNATURES:
        raise ThemeError(
            f"{where}: the {face} font {value!r} is not a font file (not "
            "TrueType, OpenType, WOFF or WOFF2); name a .ttf, .otf, .woff or "
            ".woff2 file"
        )
    return path


def _size(file: _File) -> str | None:
    """The card size a theme is drawn for, checked where it is written: a typo is
    reported on its theme.yaml line, not later by the renderer with no file named."""
    size = file.data.get("size")
    if size is None:
        return None
    try:
        card_size(str(size))
    except ValueError as error:
        raise ThemeError(f"{file.where('size')}: {error}") from None
    return str(size)


def _image(directories: list[Path], file: _File, keys: tuple[str, ...], what: str) -> Path:
    """An image named in a theme.yaml: inside the theme, and there."""
    relative: Any = file.data
    for key in keys:
        relative = relative[key]
    where = file.where(*keys)
    base = file.path.parent
    try:
        path = (base / str(relative)).resolve()
    except (OSError, RuntimeError) as error:
        raise ThemeError(f"{where}: the {what} {relative!r} cannot be read: {error}") from None
    if not any(path.is_relative_to(d.resolve()) for d in directories):
        raise ThemeError(
            f"{where}: the {what} {relative!r} is outside the theme directory "
            "(copy the image into the theme and name it relative to it)"
        )
    if not path.is_file():
        raise ThemeError(
            f"{where}: the {what} {relative!r} does not exist (name an image "
            "file relative to the theme directory)"
        )
    return path


# ------------------------------------------------------------------------- templates


class TemplateRefused(jinja2.TemplateError):
    """A template the theme may not use (outside the theme, unreadable, not UTF-8);
    ``filename`` and ``lineno`` say where, when it is about that file itself."""

    def __init__(
        self, message: str, filename: str | None = None, lineno: int | None = None
    ) -> None:
        super().__init__(message)
        self.filename = filename
        self.lineno = lineno


def _pieces(name: object) -> list[str]:
    """The parts of a template name, relative to the theme; absolute names, ``..`` and
    backslashes are refused."""
    if not isinstance(name, str) or not name:
        raise TemplateRefused(f"a template name is a non-empty text, not {_kind(name)}")
    shown = _show(name)
    if "\x00" in name or "\\" in name:
        raise TemplateRefused(
            f"the template name {shown} holds a backslash or NUL (name "
            "templates with / relative to the theme directory)"
        )
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise TemplateRefused(
            f"the template name {shown} is an absolute path: a theme "
            "includes only its own templates (name them relative to the "
            "theme directory)"
        )
    parts = name.split("/")
    if ".." in parts:
        raise TemplateRefused(
            f"the template name {shown} goes up with '..': a theme "
            "includes only its own templates (name them relative to the "
            "theme directory)"
        )
    return [part for part in parts if part not in ("", ".")]


class ThemeLoader(jinja2.BaseLoader):
    """Templates from the theme's directories only: its own, then the default theme's.

    A name is relative to a theme directory; the file found is resolved (links
    followed) and must still be inside one of them, a regular UTF-8 file of at most
    :data:`MAX_TEMPLATE_BYTES`.
    """

    def __init__(self, directories: list[Path]) -> None:
        self.directories = [Path(d) for d in directories]
        self.roots = [Path(d).resolve() for d in directories]
        #: Every template file given to Jinja (to find a template's frames in a
        #: traceback).
        self.files: set[str] = set()

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        pieces = _pieces(template)
        if not pieces:
            raise jinja2.TemplateNotFound(template)
        for directory in self.directories:
            candidate = directory.joinpath(*pieces)
            if not os.path.lexists(candidate):
                continue
            shown = str(candidate)
            try:
                resolved = candidate.resolve()
            except (OSError, RuntimeError) as error:
                raise TemplateRefused(f"cannot follow this link: {error}", shown) from None
            if not any(resolved.is_relative_to(root) for root in self.roots):
                raise TemplateRefused(
                    f"a link to {resolved}, outside the theme directories (copy the "
                    "template into the theme instead of linking to it)",
                    shown,
                )
            try:
                data = read_file(resolved, MAX_TEMPLATE_BYTES, "template")
                source = decode(data, shown)
                mtime = os.stat(resolved).st_mtime
            except InputError as error:
                raise TemplateRefused(error.message, shown, error.line or None) from None
            except OSError as error:
                raise TemplateRefused(f"cannot read: {error.strerror or error}", shown) from None
            self.files.add(shown)

            def uptodate(path: Path = resolved, mtime: float = mtime) -> bool:
                try:
                    return os.stat(path).st_mtime == mtime
                except OSError:
                    return False

            return source, shown, uptodate
        raise jinja2.TemplateNotFound(template)


class _ThemeTemplate(jinja2.Template):
    """A theme template whose ``render`` turns every error into a ThemeError."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        _STEPS.taken = 0  # the budget of range() steps is one render's
        try:
            with _time_limit(MAX_RENDER_SECONDS):
                return super().render(*args, **kwargs)
        except ThemeError:
            raise
        except Exception as error:  # anything a template does is the theme's
            # Jinja's own name for a template without one (never one of the loader's).
            where = self.filename or self.name or "<template>"
            raise template_error(error, self.environment, where) from None


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox (no attribute starting with ``_``, no function's
    globals, no method changing a value), with the theme's loader and a cap on the
    size of what ``**`` and ``*`` make."""

    template_class = _ThemeTemplate
    intercepted_binops = frozenset({"**", "*"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if (
            operator == "**"
            and isinstance(right, int | float)
            and (abs(right) > MAX_POWER or (isinstance(left, int) and abs(left).bit_length() > 256))
        ):
            raise SecurityError(f"a power too large to compute (exponent at most {MAX_POWER})")
        if operator == "*":
            for sequence, count in ((left, right), (right, left)):
                if (
                    isinstance(sequence, str | list | tuple)
                    and isinstance(count, int)
                    and len(sequence) * count > MAX_REPEAT
                ):
                    raise SecurityError(f"a repetition longer than {MAX_REPEAT} items")
        return super().call_binop(context, operator, left, right)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, jinja2.Undefined):  # 'cycler' is undefined, not its __init__
            obj._fail_with_undefined_error()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        if isinstance(obj, jinja2.Undefined):
            obj._fail_with_undefined_error()
        return super().getitem(obj, argument)

    def get_template(
        self, name: Any, parent: str | None = None, globals: Any = None
    ) -> jinja2.Template:
        if parent is not None:
            # An include, import or extends: an error is the including template's, and
            # its render reports it with the line.
            return super().get_template(name, parent, globals)
        try:
            return super().get_template(name, parent, globals)
        except ThemeError:
            raise
        except Exception as error:
            theme = self.loader.directories[0] if isinstance(self.loader, ThemeLoader) else "theme"
            raise template_error(error, self, str(theme)) from None


#: The ``range()`` steps the render under way in this thread has taken.
_STEPS = threading.local()


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Within the block, a :class:`SecurityError` once ``seconds`` have passed (a timer
    of the process, SIGALRM): in the main thread only, where Python runs signal
    handlers, which is where a build renders (its workers' main threads too).  A
    render in another thread (the language server's preview) is stopped by its
    worker instead (:mod:`translator.editor.workers`)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise SecurityError(f"a template that runs longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _counted_range(*arguments: int) -> range:
    """Jinja's sandboxed ``range`` (at most 100,000 items), and at most
    :data:`MAX_STEPS` items of all the ranges of one render together."""
    items = safe_range(*arguments)
    _STEPS.taken = getattr(_STEPS, "taken", 0) + len(items)
    if _STEPS.taken > MAX_STEPS:
        raise SecurityError(f"loops of more than {MAX_STEPS:,} steps of range() in all")
    return items


@jinja2.pass_eval_context
def _bounded_join(environment: Any, value: Any, separator: str = "", attribute: Any = None) -> Any:
    """Jinja's ``join``, refused past :data:`MAX_REPEAT` characters: a list joined, then
    listed and joined again, made 488 MB from a line of 300 bytes."""
    joined = DEFAULT_FILTERS["join"](environment, value, separator, attribute)
    if len(joined) > MAX_REPEAT:
        raise SecurityError(f"a joined text longer than {MAX_REPEAT} characters")
    return joined


@jinja2.pass_eval_context
def _bounded_replace(
    environment: Any, value: Any, old: str, new: str, count: int | None = None
) -> Any:
    """Jinja's ``replace``, refused when the text made would pass :data:`MAX_REPEAT`
    characters (each of a million characters replaced by a million)."""
    text = str(value)
    times = text.count(str(old)) if count is None else min(count, text.count(str(old)))
    if len(text) + times * max(0, len(str(new)) - len(str(old))) > MAX_REPEAT:
        raise SecurityError(f"a replaced text longer than {MAX_REPEAT} characters")
    return DEFAULT_FILTERS["replace"](environment, value, old, new, count)


#: What the theme's templates get in place of Jinja's own: the same, bounded.
_BOUNDED_FILTERS = {"join": _bounded_join, "replace": _bounded_replace}


def _sandbox(directories: list[Path]) -> jinja2.Environment:
    environment = _Sandbox(
        loader=ThemeLoader(directories),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals = {"range": _counted_range}
    environment.filters = {
        name: _BOUNDED_FILTERS.get(name, DEFAULT_FILTERS[name]) for name in TEMPLATE_FILTERS
    }
    return environment


def _where(
    error: BaseException, environment: jinja2.Environment, fallback: str
) -> tuple[str, int | None]:
    """The template file and line an error comes from: the error's own (syntax errors,
    refused files), else the innermost template frame of its traceback (Jinja gives
    template frames the template's file name and line)."""
    filename = getattr(error, "filename", None)
    if isinstance(error, jinja2.TemplateSyntaxError | TemplateRefused) and filename:
        return filename, getattr(error, "lineno", None)
    loader = environment.loader
    files = loader.files if isinstance(loader, ThemeLoader) else set()
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if frame.filename in files:
            return frame.filename, frame.lineno
    return fallback, None


def _what(error: BaseException) -> str:
    """What went wrong in a template, and what to do."""
    found = _what_in_source(error)
    return found if found is not None else _what_when_run(error)


#: Where a theme author finds what a template may use.
_LISTED = "templates/README.md lists the variables and filters a theme template has"


def _what_in_source(error: BaseException) -> str | None:
    """What is wrong with the templates as written (found before anything renders):
    a construct the sandbox refuses, a syntax error, a template that is not there;
    None for an error of rendering."""
    if isinstance(error, TemplateRefused):
        return error.message or "refused"
    if isinstance(error, jinja2.TemplateAssertionError):
        return f"{error.message} ({_LISTED})"
    if isinstance(error, jinja2.TemplateSyntaxError):
        return f"template syntax error: {error.message} (fix the Jinja syntax on this line)"
    if isinstance(error, jinja2.TemplatesNotFound):
        names = ", ".join(_show(name) for name in error.templates)
        return (
            f"none of the templates {names} is in the theme or the default theme (add "
            "one to the theme directory, or fix the names)"
        )
    if isinstance(error, jinja2.TemplateNotFound):
        return (
            f"no template {_show(error.name)} in the theme or the default theme (add it "
            "to the theme directory, or fix the name)"
        )
    return None


def _what_when_run(error: BaseException) -> str:
    """What went wrong rendering a template: what the sandbox forbids, a variable or
    filter that does not exist, an endless include, or an expression that fails."""
    if isinstance(error, SecurityError):
        return (
            f"not allowed in a theme template: {error} (theme templates run in a "
            "sandbox: no attribute starting with _, no changing values; see "
            "docs/security.md)"
        )
    if isinstance(error, jinja2.UndefinedError):
        return f"{error.message} ({_LISTED})"
    if isinstance(error, RecursionError):
        return "templates include or call each other without end (remove the include or macro loop)"
    if isinstance(error, jinja2.TemplateError):
        message = error.message or type(error).__name__
        if message.startswith(("No filter named", "No test named")):
            return f"{message} ({_LISTED})"
        return f"{message} (fix the template)"
    return f"{type(error).__name__}: {error} (fix the expression on this line)"


def template_error(
    error: BaseException, environment: jinja2.Environment, fallback: str
) -> ThemeError:
    """A template's error as a ThemeError of one line: ``file:LINE: what (what to do)``."""
    filename, line = _where(error, environment, fallback)
    message = " ".join(_what(error).split())
    if len(message) > 400:
        message = message[:397] + "..."
    where = f"{filename}:{line}" if line else filename
    return ThemeError(f"{where}: {message}")
