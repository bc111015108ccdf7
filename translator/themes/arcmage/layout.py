"""Where the official Arcmage cards print what: text, artwork and loyalty marks.

Aminduna's card generator fills an SVG template per faction x card type: it finds
``<g id="overlaylayer">`` (a child of the root) and, among that group's children, the
text elements it fills by id (``nametext``, or ``firstnametext`` + ``lastnametext``;
``cardtypetext``, ``goldcosttext``, ``attacktext``, ``defensetext``, ``infotext``), the
rule text ``cardtext`` (a ``<text>`` placed by its ``transform``, laid out by the
generator in a box of fixed size), the ``artwork`` image, and the loyalty marks
``L1``-``L3`` (groups it shows one to three of).  :func:`read_layout` reads those
positions from one template; :func:`layouts` gives all six factions x six types of a
template set, from its SVGs where it has them, else from the shipped
``templates/arcmage/layout-defaults.yaml`` (made from the upstream set by
``tools/arcmage_layout_defaults.py``).

Units and origin, and why:

* Template user units are 1/90 inch (a page is 230.31496 x 325.98425 = 65 x 92 mm);
  every length of a :class:`Layout` is in mm from the **template page's** top-left
  corner, every font size in pt (1 unit = 0.8 pt), every colour ``#rrggbb``.  Values
  are rounded to 0.01 mm / 0.01 pt when read, so a layout read from an SVG and one
  read from the defaults are the same numbers.
* The root's ``viewBox`` and size are ignored: Aminduna prints from ``<type>.svg``
  after forcing its root to 230.31496 x 325.98425 (no viewBox), so the template's user
  space is the page.  Several ``*_overlay*.svg`` files (used for the web overlay) have
  a ``viewBox="0 0 230 326"`` in a 230 x 325 viewport, but the same user coordinates
  as ``<type>.svg``.
* Every ``transform`` of an element and of its ancestors is applied.
* Aminduna's generator constants that no SVG holds (the rule text box, 190 x 105
  units; the body size, 11.25 units; the font of text elements without a family) are
  the ``generator:`` section of the defaults file (:class:`Generator`).

The loyalty box is the *visual* bounding box of ``L1``: every shape's outline (cubic
and quadratic curves through their extrema, arcs through theirs, plus samples so that
a rotating transform stays close), widened by half its stroke width, reaching to the
tips of its miter joins (within the miter limit: the official marks have sharp
corners whose miters reach up to 1.2 units further), cut by its ``clip-path`` (a
``userSpaceOnUse`` clip path's box).  :func:`loyalty_svg` gives ``L1`` as a
standalone drawing whose viewBox is that box, so that drawn in the box (or at
``y + step``, ``y + 2 step`` for L2, L3) it lands where Aminduna draws it: rendered
by WeasyPrint at 600 dpi, the official marks cover the same pixels either way.

Parsing: ``xml.etree`` (expat, which fetches no external entity), and only bytes that
passed the one check of an SVG template, :func:`.source.svg_problem` (expat as a
stream, before any tree is built): a document declaring entities is refused outright
(a template has no use for them), and so is one larger than
:data:`MAX_TEMPLATE_SVG_BYTES`, nesting elements deeper than :data:`MAX_SVG_DEPTH` or
holding a longer attribute value than ``source.MAX_SVG_ATTRIBUTE_CHARS``.  A problem
is a :class:`LayoutError` of one line naming the file.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Mapping
from copy import deepcopy
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import yamlfile
from ...cards.model import CARD_TYPES, FACTIONS
from ...errors import UserError
from ...limits import MAX_CONFIG_BYTES
from ...pdf.geometry import IDENTITY, Matrix, Point, apply, multiply
from ...shipped import templates_root
from ...textio import InputError, read_file
from ...typeset.symbols import SVG_NS, XLINK_NS, serialise_svg
from ...typeset.theme import faction_slug
from .source import MAX_SVG_BYTES, svg_problem
from .source import MAX_SVG_DEPTH as SOURCE_SVG_DEPTH

#: One template unit (1/90 inch) in mm and in pt.
UNIT_MM = 25.4 / 90
UNIT_PT = 72 / 90
#: Decimals kept of every mm and pt value.
DECIMALS = 2
#: Bytes of a template SVG, and nesting of its elements: the source's limits
#: (:func:`.source.svg_problem`, the one check).
MAX_TEMPLATE_SVG_BYTES = MAX_SVG_BYTES
MAX_SVG_DEPTH = SOURCE_SVG_DEPTH

#: Our names of the text elements, by the id the generator fills.
TEXT_IDS = {
    "name": "nametext",
    "name1": "firstnametext",
    "name2": "lastnametext",
    "type": "cardtypetext",
    "cost": "goldcosttext",
    "attack": "attacktext",
    "defense": "defensetext",
    "info": "infotext",
}
OVERLAY_ID = "overlaylayer"
LOYALTY_IDS = ("L1", "L2", "L3")
ANCHORS = ("start", "middle", "end")

Rect = tuple[float, float, float, float]  # min x, min y, max x, max y

_ID_REF = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)['\"]?\s*\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"\s*,?\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_RGB = re.compile(r"^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$")
_NAMED = {"black": "#000000", "white": "#ffffff"}
#: Samples per curve segment besides its ends and extrema (for rotating transforms).
_SAMPLES = 16


class LayoutError(UserError, ValueError):
    """A template or defaults file that cannot be read: one line naming the file."""


# --- the layout -----------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """A rectangle in mm from the template page's top-left corner."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class TextBox:
    """The rule text's box (``y`` its top) and its body size (pt) and colour."""

    x: float
    y: float
    width: float
    height: float
    size: float
    colour: str


@dataclass(frozen=True)
class Line:
    """A one-line text element: its anchor point (mm) and font."""

    x: float
    baseline: float
    anchor: str
    size: float
    colour: str
    family: str
    weight: str
    style: str


@dataclass(frozen=True)
class Loyalty:
    """The box of the first loyalty mark (L2, L3 are ``step`` mm lower each), and its
    two colours: the fill of its top shape and the stroke of its top stroked shape (a
    gradient's colour half-way), for a theme that draws a mark of its own."""

    x: float
    y: float
    width: float
    height: float
    step: float
    fill: str
    stroke: str


@dataclass(frozen=True, eq=True)
class Layout:
    """Where one template (faction x type) prints what; ``source`` says where it was
    read (an SVG file or the defaults file)."""

    art: Box | None = None
    text: TextBox | None = None
    lines: Mapping[str, Line] = field(default_factory=dict)
    loyalty: Loyalty | None = None
    source: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain YAML-able dicts: ``art``, ``text``, the lines by name, ``loyalty``;
        what the template lacks is absent."""
        data: dict[str, Any] = {}
        if self.art is not None:
            data["art"] = asdict(self.art)
        if self.text is not None:
            data["text"] = asdict(self.text)
        for name in TEXT_IDS:
            if name in self.lines:
                data[name] = asdict(self.lines[name])
        if self.loyalty is not None:
            data["loyalty"] = asdict(self.loyalty)
        return data

    @classmethod
    def from_dict(cls, data: object, where: str, source: str = "") -> Layout:
        """The layout of :meth:`to_dict`'s shape; ``where`` (``file:line``) names it in
        the :class:`LayoutError` of a missing or mistyped value."""
        if not isinstance(data, dict):
            raise LayoutError(f"{where}: a layout is a mapping (art, text, name, ...)")
        unknown = set(data) - {"art", "text", "loyalty", *TEXT_IDS}
        if unknown:
            raise LayoutError(
                f"{where}: unknown key {sorted(unknown)[0]!r} in a layout "
                f"(known: art, text, loyalty, {', '.join(TEXT_IDS)})"
            )
        lines = {
            name: _record(Line, data[name], f"{where}: {name}") for name in TEXT_IDS if name in data
        }
        for name, line in lines.items():
            if line.anchor not in ANCHORS:
                raise LayoutError(
                    f"{where}: {name}.anchor is {line.anchor!r}; give one of {', '.join(ANCHORS)}"
                )
        return cls(
            art=_record(Box, data["art"], f"{where}: art") if "art" in data else None,
            text=_record(TextBox, data["text"], f"{where}: text") if "text" in data else None,
            lines=lines,
            loyalty=(
                _record(Loyalty, data["loyalty"], f"{where}: loyalty")
                if "loyalty" in data
                else None
            ),
            source=source,
        )


def _record(kind: type[Any], data: object, where: str) -> Any:
    """A :class:`Box`, :class:`Line`... from a mapping with exactly its fields, numbers
    where it has numbers (the dataclass's annotations say which)."""
    names = list(kind.__dataclass_fields__)
    if not isinstance(data, dict) or set(data) != set(names):
        raise LayoutError(f"{where}: give exactly {', '.join(names)}")
    values = {}
    for name in names:
        value = data[name]
        wants_number = kind.__dataclass_fields__[name].type == "float"
        if wants_number and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise LayoutError(f"{where}.{name}: a number is needed, not {value!r}")
        if not wants_number and not isinstance(value, str):
            raise LayoutError(f"{where}.{name}: a text is needed, not {value!r}")
        values[name] = float(value) if wants_number else value
    return kind(**values)


@dataclass(frozen=True)
class Generator:
    """Aminduna's generator constants (template units, as its code writes them) that
    no SVG holds: the rule text box, the body size, line spacing and the font of text
    elements that name none."""

    text_width: float
    text_height: float
    body_size: float
    line_spacing: float
    family: str

    @classmethod
    def from_dict(cls, data: object, where: str) -> Generator:
        """The ``generator:`` section of the defaults file."""
        if not isinstance(data, dict):
            raise LayoutError(f"{where}: no generator section (text_box, body, line_spacing)")
        try:
            box, body = data["text_box"], data["body"]
            return cls(
                float(box["width"]),
                float(box["height"]),
                float(body["size"]),
                float(data["line_spacing"]),
                str(body["family"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise LayoutError(
                f"{where}: generator: {error!r} missing or not a number "
                "(text_box: {width, height}, body: {size, family}, "
                "line_spacing)"
            ) from None


# --- the shipped defaults -------------------------------------------------------------


def defaults_path() -> Path:
    """``templates/arcmage/layout-defaults.yaml``."""
    return templates_root() / "arcmage" / "layout-defaults.yaml"


def _defaults_file(path: Path) -> tuple[dict[str, Any], Any]:
    """The defaults file's data and node tree (for line numbers), read once (again
    when it changes)."""
    try:
        info = path.stat()
    except OSError as error:
        raise LayoutError(f"{path}: cannot read: {error.strerror}") from None
    return _read_defaults(path.resolve(), info.st_size, info.st_mtime_ns)


@lru_cache(maxsize=4)
def _read_defaults(path: Path, size: int, mtime: int) -> tuple[dict[str, Any], Any]:
    try:
        data, node = yamlfile.read(path, MAX_CONFIG_BYTES, "layout defaults file")
    except ValueError as error:
        raise LayoutError(str(error)) from None
    if not isinstance(data, dict):
        raise LayoutError(f"{path}: expected a mapping with generator and layouts")
    return data, node


def generator(path: Path | None = None) -> Generator:
    """The generator constants of the defaults file (``path``, else the shipped one)."""
    path = path or defaults_path()
    data, node = _defaults_file(path)
    where = f"{path}:{yamlfile.line_of(node, 'generator')}"
    return Generator.from_dict(data.get("generator"), where)


def default_layout(faction: str, card_type: str, path: Path | None = None) -> Layout:
    """The layout of ``faction`` x ``card_type`` (our slugs) in the defaults file."""
    path = path or defaults_path()
    data, node = _defaults_file(path)
    entry = ((data.get("layouts") or {}).get(faction) or {}).get(card_type)
    where = f"{path}:{yamlfile.line_of(node, 'layouts', faction, card_type)}"
    if entry is None:
        raise LayoutError(
            f"{where}: no layout for {faction} {card_type} "
            "(regenerate it with tools/arcmage_layout_defaults.py)"
        )
    return Layout.from_dict(entry, where, source=str(path))


# --- a template set -------------------------------------------------------------------


def faction_slugs() -> dict[str, str]:
    """Our faction slug (as ``theme.faction_slug`` makes it: ``dark-legion``) -> the
    template set's folder (as Aminduna's Repository makes it: ``dark_legion``)."""
    return {faction_slug(name): name.lower().replace(" ", "_") for name in FACTIONS}


def type_slugs() -> tuple[str, ...]:
    """Our card type slugs, which are also the template file names."""
    return tuple(card_type.lower() for card_type in CARD_TYPES)


def template_svg(templates: Path, faction: str, card_type: str) -> Path | None:
    """The SVG a layout is read from: ``<type>_overlay_plain.svg``, else
    ``<type>.svg``, in the faction's folder of ``templates`` (a ``CardTemplates``
    folder); None when it has neither."""
    folder = templates / faction_slugs()[faction]
    for name in (f"{card_type}_overlay_plain.svg", f"{card_type}.svg"):
        if (folder / name).is_file():
            return folder / name
    return None


def templates_dir(root: Path) -> Path:
    """The ``CardTemplates`` folder of a template set: ``root/CardTemplates`` (root
    shaped like ``wwwroot/arcmage``) or ``root`` itself."""
    inner = root / "CardTemplates"
    return inner if inner.is_dir() else root


def layouts(root: Path, defaults: Path | None = None) -> dict[str, dict[str, Layout]]:
    """Every faction x type's layout (by our slugs) of the template set at ``root``:
    from its SVG when it has one, else from the defaults file; each layout's
    ``source`` says which."""
    templates = templates_dir(Path(root))
    result: dict[str, dict[str, Layout]] = {}
    for faction in faction_slugs():
        result[faction] = {}
        for card_type in type_slugs():
            svg = template_svg(templates, faction, card_type)
            expected = default_layout(faction, card_type, defaults)
            if svg is None:
                result[faction][card_type] = expected
                continue
            found = read_layout(svg, generator(defaults))
            _check_complete(svg, found, expected, card_type)
            result[faction][card_type] = found
    return result


#: The element of a template's overlay group that gives each part of a layout.
ELEMENT_IDS = {"art": "artwork", "text": "cardtext", "loyalty": "L1", **TEXT_IDS}


def _check_complete(svg: Path, found: Layout, expected: Layout, card_type: str) -> None:
    """Refuse a template that lacks a part every template of its type has (the
    defaults file holds the upstream set's): an overlay group emptied, or missing its
    name, would print the cards of that faction and type without it, and the build
    would not know."""
    missing = [part for part in expected.to_dict() if part not in found.to_dict()]
    if missing:
        named = ", ".join(f'id="{ELEMENT_IDS[part]}"' for part in missing)
        raise LayoutError(
            f"{svg}: the {OVERLAY_ID} group has no {named}, which every {card_type} "
            "template has: replace it with the file of wtactics/arcmage"
        )


# --- reading one SVG ------------------------------------------------------------------


@dataclass
class _Document:
    """A parsed template: its root, every element's parent, the elements by id."""

    path: Path
    root: ET.Element
    parents: dict[ET.Element, ET.Element]
    by_id: dict[str, ET.Element]

    def chain(self, element: ET.Element) -> list[ET.Element]:
        """The element's ancestors from the root, and the element."""
        chain = [element]
        while chain[-1] in self.parents:
            chain.append(self.parents[chain[-1]])
        return chain[::-1]

    def ctm(self, element: ET.Element, *, own: bool = True) -> Matrix:
        """Template user space <- the element's (with its own transform or not)."""
        matrix = IDENTITY
        chain = self.chain(element)
        for item in chain if own else chain[:-1]:
            if item is not self.root and item.get("transform"):
                matrix = multiply(self.transform(item), matrix)
        return matrix

    def transform(self, element: ET.Element) -> Matrix:
        """The element's ``transform`` attribute as a matrix."""
        try:
            return parse_transform(element.get("transform") or "")
        except ValueError as error:
            raise LayoutError(f"{self.where(element)}: {error}") from None

    def where(self, element: ET.Element) -> str:
        """``file: <tag id="...">``, for messages."""
        tag = _local(element.tag)
        ident = element.get("id")
        return f"{self.path}: <{tag}{f' id={ident!r}' if ident else ''}>"


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


@lru_cache(maxsize=4)
def _parse(path: Path, size: int, mtime: int) -> _Document:
    """A template SVG, parsed (cached by path, size and modification time; ``path``
    as the caller named it, for messages)."""
    del size, mtime  # the cache's key only
    try:
        data = read_file(path, MAX_TEMPLATE_SVG_BYTES, "template SVG")
    except InputError as error:
        raise LayoutError(str(error)) from None
    problem = svg_problem(data)
    if problem is not None:
        raise LayoutError(
            f"{path}: {problem}; use the official template or re-save it from Inkscape"
        )
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:  # pragma: no cover - svg_problem parsed it already
        raise LayoutError(f"{path}: not an SVG template (malformed XML: {error})") from None
    parents = {child: parent for parent in root.iter() for child in parent}
    by_id: dict[str, ET.Element] = {}
    for element in root.iter():
        ident = element.get("id")
        if ident is not None:
            by_id.setdefault(ident, element)
    return _Document(path, root, parents, by_id)


def _document(svg: Path) -> _Document:
    try:
        info = Path(svg).stat()
    except OSError as error:
        raise LayoutError(f"{svg}: cannot read: {error.strerror}") from None
    return _parse(Path(svg), info.st_size, info.st_mtime_ns)


def _overlay(document: _Document) -> dict[str, ET.Element]:
    """The children of ``<g id="overlaylayer">`` by id, as the generator finds them
    (the group is a child of the root; an id the group holds twice is refused there)."""
    groups = [
        child
        for child in document.root
        if child.tag == f"{{{SVG_NS}}}g" and child.get("id") == OVERLAY_ID
    ]
    if len(groups) != 1:
        raise LayoutError(
            f"{document.path}: not an Aminduna card template (no "
            f'<g id="{OVERLAY_ID}"> under the root <svg>)'
        )
    children: dict[str, ET.Element] = {}
    for child in groups[0]:
        ident = child.get("id")
        if ident in children:
            raise LayoutError(
                f'{document.path}: two elements with id="{ident}" in the '
                f"{OVERLAY_ID} group: keep one"
            )
        if ident is not None:
            children[ident] = child
    return children


def read_layout(svg: Path, constants: Generator | None = None) -> Layout:
    """The layout of one template SVG; ``constants`` the generator's (default: the
    shipped defaults file's)."""
    constants = constants or generator()
    document = _document(svg)
    overlay = _overlay(document)
    art = text = loyalty = None
    if "artwork" in overlay:
        art = _art(document, overlay["artwork"])
    if "cardtext" in overlay:
        text = _text_box(document, overlay["cardtext"], constants)
    lines = {
        name: _line(document, overlay[ident], constants)
        for name, ident in TEXT_IDS.items()
        if ident in overlay
    }
    if "L1" in overlay:
        loyalty = _loyalty(document, overlay)
    return Layout(art, text, lines, loyalty, source=str(svg))


def _mm(value: float) -> float:
    return round(value * UNIT_MM, DECIMALS) + 0.0  # + 0.0: no -0.0


def _pt(value: float) -> float:
    return round(value * UNIT_PT, DECIMALS) + 0.0


def _length(document: _Document, element: ET.Element, name: str) -> float:
    """A coordinate attribute (``x``, ``y``, ``width``...) in user units: its first
    number (``x="1 2 3"`` places only the first glyph there); 0 when absent."""
    value = (element.get(name) or "0").replace(",", " ").split() or ["0"]
    first = value[0].removesuffix("px")
    if _NUMBER.fullmatch(first) is None:
        raise LayoutError(
            f"{document.where(element)}: {name}={element.get(name)!r} is not a number of user units"
        )
    return float(first)


def _bounds(points: Iterable[Point]) -> Rect:
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def _box(rect: Rect) -> Box:
    return Box(_mm(rect[0]), _mm(rect[1]), _mm(rect[2] - rect[0]), _mm(rect[3] - rect[1]))


def _corners(matrix: Matrix, x: float, y: float, width: float, height: float) -> Rect:
    """The bounding box of a transformed rectangle."""
    return _bounds(apply(matrix, px, py) for px in (x, x + width) for py in (y, y + height))


def _art(document: _Document, image: ET.Element) -> Box:
    values = [_length(document, image, name) for name in ("x", "y", "width", "height")]
    return _box(_corners(document.ctm(image), *values))


def _text_box(document: _Document, element: ET.Element, constants: Generator) -> TextBox:
    """The box the generator lays the rule text in: from the text's origin (its
    transform), the generator's width and height; its colour the text's fill."""
    matrix = document.ctm(element)
    x0, y0 = _length(document, element, "x"), _length(document, element, "y")
    left, top, right, bottom = _corners(matrix, x0, y0, constants.text_width, constants.text_height)
    box = _box((left, top, right, bottom))
    size = constants.body_size * _scale(matrix)
    return TextBox(box.x, box.y, box.width, box.height, _pt(size), _text_colour(document, element))


def _line(document: _Document, element: ET.Element, constants: Generator) -> Line:
    matrix = document.ctm(element)
    x, y = apply(matrix, _length(document, element, "x"), _length(document, element, "y"))
    style = _style(document, element)
    anchor = style.get("text-anchor", "start")
    if anchor not in ANCHORS:
        raise LayoutError(
            f"{document.where(element)}: text-anchor {anchor!r} is not one of {', '.join(ANCHORS)}"
        )
    size = _font_size(document, element, style.get("font-size")) * _scale(matrix)
    # A text element that names no family (the type line of most templates: only
    # Inkscape's own -inkscape-font-specification says "Liberation Serif Italic") is in
    # the family of the template's other text, Liberation Serif (generator.family).
    family = _first_family(style.get("font-family")) or constants.family
    return Line(
        _mm(x),
        _mm(y),
        anchor,
        _pt(size),
        _text_colour(document, element),
        family,
        style.get("font-weight", "normal"),
        style.get("font-style", "normal"),
    )


def _first_family(value: str | None) -> str | None:
    """The first family of a ``font-family`` list, without its quotes."""
    if not value:
        return None
    first = value.split(",")[0].strip().strip("'\"").strip()
    return first or None


def _font_size(document: _Document, element: ET.Element, value: str | None) -> float:
    """A font size in user units: ``25px`` or ``25`` (CSS px are user units)."""
    if value is None:
        raise LayoutError(f"{document.where(element)}: no font-size: give one in px")
    number = value.strip().removesuffix("px")
    if _NUMBER.fullmatch(number) is None:
        raise LayoutError(
            f"{document.where(element)}: font-size {value!r}: give it in px (user units)"
        )
    return float(number)


def _text_colour(document: _Document, element: ET.Element) -> str:
    colour = _paint(document, element, _style(document, element).get("fill", "black"))
    if colour is None:
        raise LayoutError(
            f"{document.where(element)}: fill none: the text would not show; give it a colour"
        )
    return colour


# --- styles and colours ---------------------------------------------------------------

#: The properties read, all inherited in SVG.
_PROPERTIES = (
    "font-size",
    "font-family",
    "font-weight",
    "font-style",
    "text-anchor",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-linejoin",
    "stroke-miterlimit",
    "display",
    "clip-path",
    "stop-color",
)
_NOT_INHERITED = ("display", "clip-path", "stop-color")


def _declarations(element: ET.Element) -> dict[str, str]:
    """An element's own presentation attributes, overridden by its ``style``."""
    values = {
        name: element.get(name, "").strip() for name in _PROPERTIES if element.get(name) is not None
    }
    for declaration in (element.get("style") or "").split(";"):
        name, colon, value = declaration.partition(":")
        if colon and name.strip() in _PROPERTIES:
            values[name.strip()] = value.strip()
    return values


def _style(document: _Document, element: ET.Element) -> dict[str, str]:
    """The element's values of :data:`_PROPERTIES`: its own, else inherited from its
    nearest ancestor that sets them (``display`` and ``clip-path`` are its own only)."""
    values: dict[str, str] = {}
    for item in document.chain(element):
        own = _declarations(item)
        if item is not element:
            own = {k: v for k, v in own.items() if k not in _NOT_INHERITED}
        values.update({k: v for k, v in own.items() if v != "inherit"})
    return values


def _hex(value: str) -> str | None:
    """``#abc``, ``#aabbcc``, ``rgb(r, g, b)``, ``black``, ``white`` as ``#rrggbb``."""
    value = value.strip()
    match = _HEX.match(value)
    if match:
        digits = match.group(1).lower()
        return "#" + ("".join(2 * d for d in digits) if len(digits) == 3 else digits)
    match = _RGB.match(value)
    if match:
        return "#" + "".join(f"{min(int(v), 255):02x}" for v in match.groups())
    return _NAMED.get(value.lower())


def _paint(document: _Document, element: ET.Element, value: str) -> str | None:
    """A fill or stroke as ``#rrggbb`` (a gradient: its colour half-way); None for
    ``none``."""
    value = value.strip()
    if value == "none":
        return None
    reference = _ID_REF.match(value)
    if reference:
        target = document.by_id.get(reference.group(1))
        if target is not None and _local(target.tag).endswith("Gradient"):
            return _gradient_middle(document, target)
        fallback = value[reference.end() :].strip()
        if fallback:
            return _paint(document, element, fallback)
        raise LayoutError(
            f"{document.where(element)}: paint {value!r} names no gradient of the file"
        )
    colour = _hex(value)
    if colour is None:
        raise LayoutError(
            f"{document.where(element)}: colour {value!r} not understood: write it as #rrggbb"
        )
    return colour


def _stops(document: _Document, gradient: ET.Element) -> list[tuple[float, str]]:
    """A gradient's (offset, colour) stops, from the gradients it links to
    (``xlink:href``) when it has none of its own."""
    seen: set[int] = set()
    current: ET.Element | None = gradient
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        stops = [child for child in current if _local(child.tag) == "stop"]
        if stops:
            return [_stop(document, stop) for stop in stops]
        link = current.get(f"{{{XLINK_NS}}}href") or current.get("href") or ""
        current = document.by_id.get(link.removeprefix("#"))
    return []


def _stop(document: _Document, stop: ET.Element) -> tuple[float, str]:
    """A gradient stop's offset (0 to 1) and colour."""
    offset = (stop.get("offset") or "0").strip()
    try:
        number = float(offset[:-1]) / 100 if offset.endswith("%") else float(offset)
    except ValueError:
        raise LayoutError(f"{document.where(stop)}: offset {offset!r} is not a number") from None
    colour = _hex(_declarations(stop).get("stop-color", "black"))
    if colour is None:
        raise LayoutError(f"{document.where(stop)}: stop-color not understood: write it as #rrggbb")
    return min(max(number, 0.0), 1.0), colour


def _gradient_middle(document: _Document, gradient: ET.Element) -> str:
    """The colour of a gradient at offset 0.5 (stop opacities left out)."""
    stops = _stops(document, gradient)
    if not stops:
        raise LayoutError(f"{document.where(gradient)}: a gradient without stops")
    before = [stop for stop in stops if stop[0] <= 0.5]
    after = [stop for stop in stops if stop[0] >= 0.5]
    low = before[-1] if before else stops[0]
    high = after[0] if after else stops[-1]
    if high[0] <= low[0]:
        return low[1]
    t = (0.5 - low[0]) / (high[0] - low[0])
    a, b = hex_rgb(low[1]), hex_rgb(high[1])
    return "#" + "".join(f"{round(p + (q - p) * t):02x}" for p, q in zip(a, b, strict=True))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """A ``#rrggbb`` colour (as :class:`Layout` holds them) as its three channels."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


# --- transforms -----------------------------------------------------------------------


def _scale(matrix: Matrix) -> float:
    """How much a matrix scales lengths (areas' square root): for font sizes and
    stroke widths."""
    return math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))


def parse_transform(text: str) -> Matrix:
    """An SVG ``transform`` list (matrix, translate, scale, rotate, skewX, skewY) as one
    matrix; :class:`ValueError` for anything else."""
    matrix = IDENTITY
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TRANSFORM.match(text, position)
        if match is None:
            raise ValueError(f"transform {text!r} not understood")
        name, arguments = match.groups()
        numbers = [float(v) for v in _NUMBER.findall(arguments)]
        matrix = multiply(_one_transform(name, numbers, text), matrix)
        position = match.end()
        while position < len(text) and text[position] in " ,\t\r\n":
            position += 1
    return matrix


def _one_transform(name: str, v: list[float], text: str) -> Matrix:
    counts = {
        "matrix": (6,),
        "translate": (1, 2),
        "scale": (1, 2),
        "rotate": (1, 3),
        "skewX": (1,),
        "skewY": (1,),
    }
    if len(v) not in counts[name]:
        raise ValueError(
            f"transform {text!r}: {name} takes {' or '.join(map(str, counts[name]))} numbers"
        )
    if name == "matrix":
        return (v[0], v[1], v[2], v[3], v[4], v[5])
    if name == "translate":
        return (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
    if name == "scale":
        return (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
    if name == "rotate":
        cos, sin = math.cos(math.radians(v[0])), math.sin(math.radians(v[0]))
        rotation = (cos, sin, -sin, cos, 0.0, 0.0)
        if len(v) == 3:
            to = (1.0, 0.0, 0.0, 1.0, v[1], v[2])
            back = (1.0, 0.0, 0.0, 1.0, -v[1], -v[2])
            return multiply(back, multiply(rotation, to))
        return rotation
    tangent = math.tan(math.radians(v[0]))
    return (
        (1.0, 0.0, tangent, 1.0, 0.0, 0.0)
        if name == "skewX"
        else (1.0, tangent, 0.0, 1.0, 0.0, 0.0)
    )


# --- outlines -------------------------------------------------------------------------


class _PathData:
    """A cursor over SVG path data (the SVG 1.1 grammar: numbers may run together,
    ``1.5.5`` is two, arc flags are single digits)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0

    def skip(self) -> None:
        while self.position < len(self.text) and self.text[self.position] in " \t\r\n,":
            self.position += 1

    def at_end(self) -> bool:
        self.skip()
        return self.position >= len(self.text)

    def command(self) -> str | None:
        """The next command letter, or None when numbers follow (a repeated command)."""
        self.skip()
        char = self.text[self.position]
        if char in "MmZzLlHhVvCcSsQqTtAa":
            self.position += 1
            return char
        if char in "+-.0123456789":
            return None
        raise ValueError(f"unexpected {char!r} at character {self.position + 1}")

    def number(self) -> float:
        self.skip()
        match = _NUMBER.match(self.text, self.position)
        if match is None:
            raise ValueError(f"a number expected at character {self.position + 1}")
        self.position = match.end()
        return float(match.group())

    def numbers(self, count: int) -> list[float]:
        return [self.number() for _ in range(count)]

    def flag(self) -> bool:
        self.skip()
        char = self.text[self.position : self.position + 1]
        if char not in ("0", "1"):
            raise ValueError(f"an arc flag (0 or 1) expected at character {self.position + 1}")
        self.position += 1
        return char == "1"


@dataclass
class Outline:
    """A path's outline: points whose bounding box is the outline's (every segment's
    ends, curves' and arcs' extrema, and samples: see :data:`_SAMPLES`), and its joins
    (vertex, direction in, direction out), where a stroke's miter may reach further."""

    points: list[Point] = field(default_factory=list)
    joins: list[tuple[Point, Point, Point]] = field(default_factory=list)


#: A segment as the joins need it: its end, its direction at its start and at its end.
_Segment = tuple[Point, Point, Point]


def path_outline(d: str) -> Outline:
    """The :class:`Outline` of SVG path data; :class:`ValueError` for malformed data."""
    data = _PathData(d)
    outline = Outline()
    current = start = (0.0, 0.0)
    control: Point | None = None  # the last curve's second control point, for S and T
    command: str | None = None
    segments: list[_Segment] = []  # the current subpath's
    while not data.at_end():
        letter = data.command() or command
        if letter is None:
            raise ValueError("path data must start with a command")
        relative = letter.islower()
        kind = letter.upper()
        origin = current if relative else (0.0, 0.0)
        if kind == "Z":
            if current != start:
                segments.append((start, _minus(start, current), _minus(start, current)))
            _add_joins(outline, segments, closed=True)
            current, control, command, segments = start, None, None, []
            continue
        if kind == "M":
            _add_joins(outline, segments, closed=False)
            x, y = data.numbers(2)
            current = start = (origin[0] + x, origin[1] + y)
            outline.points.append(current)
            control, command, segments = None, "l" if relative else "L", []
            continue
        command = letter
        if kind in "LHV":
            end, tangents, points = _line_segment(kind, data, current, origin)
            control = None
        elif kind in "CSQT":
            end, tangents, points, control = _curve_segment(kind, data, current, control, origin)
        else:  # A
            end, tangents, points = _arc_segment(data, current, origin)
            control = None
        outline.points.extend(points)
        if end != current:
            segments.append((end, *tangents))
        current = end
    _add_joins(outline, segments, closed=False)
    return outline


#: A drawn segment's end, its directions at its start and its end, and its outline
#: points (see :class:`Outline`).
_Drawn = tuple[Point, tuple[Point, Point], list[Point]]


def _line_segment(kind: str, data: _PathData, current: Point, origin: Point) -> _Drawn:
    """An ``L``, ``H`` or ``V`` command's line (``origin``: where relative
    coordinates start from)."""
    ox, oy = origin
    if kind == "L":
        x, y = data.numbers(2)
        end = (ox + x, oy + y)
    elif kind == "H":
        end = (data.number() + ox, current[1])
    else:
        end = (current[0], data.number() + oy)
    return end, (_minus(end, current), _minus(end, current)), [end]


def _curve_segment(
    kind: str, data: _PathData, current: Point, control: Point | None, origin: Point
) -> tuple[Point, tuple[Point, Point], list[Point], Point]:
    """A ``C``, ``S``, ``Q`` or ``T`` command's curve, and the control point the next
    ``S`` or ``T`` reflects; a quadratic curve is handled as the cubic that draws it."""
    ox, oy = origin
    first = (ox + data.number(), oy + data.number()) if kind in "CQ" else _reflect(current, control)
    second = (ox + data.number(), oy + data.number()) if kind in "CS" else first
    x, y = data.numbers(2)
    end = (ox + x, oy + y)
    if kind in "QT":
        control = first
        first = (
            current[0] + 2 / 3 * (control[0] - current[0]),
            current[1] + 2 / 3 * (control[1] - current[1]),
        )
        second = (
            end[0] + 2 / 3 * (control[0] - end[0]),
            end[1] + 2 / 3 * (control[1] - end[1]),
        )
    else:
        control = second
    tangents = (
        _direction(current, first, second, end),
        _direction(end, second, first, current, reverse=True),
    )
    return end, tangents, _cubic_points(current, first, second, end), control


def _arc_segment(data: _PathData, current: Point, origin: Point) -> _Drawn:
    """An ``A`` command's elliptical arc."""
    rx, ry, angle = data.numbers(3)
    large, sweep = data.flag(), data.flag()
    x, y = data.numbers(2)
    end = (origin[0] + x, origin[1] + y)
    points, tangents = _arc(current, rx, ry, angle, large, sweep, end)
    return end, tangents, points


def path_points(d: str) -> list[Point]:
    """The points of :func:`path_outline`."""
    return path_outline(d).points


def _minus(a: Point, b: Point) -> Point:
    return a[0] - b[0], a[1] - b[1]


def _direction(p0: Point, *others: Point, reverse: bool = False) -> Point:
    """A curve's direction at ``p0``: towards the first of ``others`` not at ``p0``
    (from it, with ``reverse``: the direction of travel at the curve's end)."""
    for point in others:
        if point != p0:
            return _minus(p0, point) if reverse else _minus(point, p0)
    return 0.0, 0.0


def _add_joins(outline: Outline, segments: list[_Segment], *, closed: bool) -> None:
    """The joins between a subpath's consecutive segments, and, when it is closed,
    between its last and its first."""
    count = len(segments)
    pairs = count if closed and count > 1 else count - 1
    for index in range(max(pairs, 0)):
        vertex, _, incoming = segments[index]
        outgoing = segments[(index + 1) % count][1]
        outline.joins.append((vertex, incoming, outgoing))


def _miters(outline: Outline, half: float, limit: float) -> list[Point]:
    """The tips of a stroke's miter joins (those within the miter limit; beyond it a
    join is bevelled, within half the stroke width of its vertex)."""
    tips = []
    for vertex, incoming, outgoing in outline.joins:
        u, v = _unit(incoming), _unit(outgoing)
        if u is None or v is None:
            continue
        along = u[0] * v[0] + u[1] * v[1]
        sine = math.sqrt(max(0.0, (1 + along) / 2))  # of half the angle between them
        if sine < 1e-9 or 1 / sine > limit:
            continue
        bisector = _unit((u[0] - v[0], u[1] - v[1]))
        if bisector is None:  # no turn
            continue
        reach = half / sine
        tips.append((vertex[0] + bisector[0] * reach, vertex[1] + bisector[1] * reach))
    return tips


def _unit(vector: Point) -> Point | None:
    length = math.hypot(*vector)
    return None if length < 1e-12 else (vector[0] / length, vector[1] / length)


def _reflect(current: Point, control: Point | None) -> Point:
    """S and T's first control point: the last one's mirror, else the current point."""
    if control is None:
        return current
    return 2 * current[0] - control[0], 2 * current[1] - control[1]


def _cubic_points(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    """A cubic Bézier's end, its extrema on each axis, and samples."""

    def at(t: float) -> Point:
        s = 1 - t
        return (
            s**3 * p0[0] + 3 * s * s * t * p1[0] + 3 * s * t * t * p2[0] + t**3 * p3[0],
            s**3 * p0[1] + 3 * s * s * t * p1[1] + 3 * s * t * t * p2[1] + t**3 * p3[1],
        )

    params = [k / (_SAMPLES + 1) for k in range(1, _SAMPLES + 1)]
    for axis in (0, 1):
        a = -p0[axis] + 3 * p1[axis] - 3 * p2[axis] + p3[axis]
        b = 2 * (p0[axis] - 2 * p1[axis] + p2[axis])
        c = p1[axis] - p0[axis]
        params.extend(t for t in _roots(a, b, c) if 0 < t < 1)
    return [at(t) for t in params] + [p3]


def _roots(a: float, b: float, c: float) -> list[float]:
    """Real roots of ``a t² + b t + c`` (of ``b t + c`` when ``a`` is 0)."""
    if abs(a) < 1e-12:
        return [] if abs(b) < 1e-12 else [-c / b]
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return []
    root = math.sqrt(discriminant)
    return [(-b + root) / (2 * a), (-b - root) / (2 * a)]


def _arc(
    p0: Point, rx: float, ry: float, angle: float, large: bool, sweep: bool, p1: Point
) -> tuple[list[Point], tuple[Point, Point]]:
    """An elliptical arc's end, its extrema and samples, and its directions at its
    ends (the arc's centre found as SVG 1.1's implementation notes F.6.5 say, radii
    scaled up when too small)."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0 or p0 == p1:
        return [p1], (_minus(p1, p0), _minus(p1, p0))
    phi = math.radians(angle)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    excess = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if excess > 1:
        rx, ry = rx * math.sqrt(excess), ry * math.sqrt(excess)
    numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
    factor = math.sqrt(max(0.0, numerator / denominator))
    if large == sweep:
        factor = -factor
    cx1, cy1 = factor * rx * y1 / ry, -factor * ry * x1 / rx
    cx = cos * cx1 - sin * cy1 + (p0[0] + p1[0]) / 2
    cy = sin * cx1 + cos * cy1 + (p0[1] + p1[1]) / 2
    start = math.atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
    delta = math.atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx) - start
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi

    def at(theta: float) -> Point:
        return (
            cx + rx * math.cos(theta) * cos - ry * math.sin(theta) * sin,
            cy + rx * math.cos(theta) * sin + ry * math.sin(theta) * cos,
        )

    def tangent(theta: float) -> Point:
        sign = 1.0 if delta > 0 else -1.0
        return (
            sign * (-rx * math.sin(theta) * cos - ry * math.cos(theta) * sin),
            sign * (-rx * math.sin(theta) * sin + ry * math.cos(theta) * cos),
        )

    thetas = [start + delta * k / (_SAMPLES + 1) for k in range(1, _SAMPLES + 1)]
    low, high = min(start, start + delta), max(start, start + delta)
    for extreme in (math.atan2(-ry * sin, rx * cos), math.atan2(ry * cos, rx * sin)):
        for turn in range(-4, 5):
            theta = extreme + turn * math.pi
            if low < theta < high:
                thetas.append(theta)
    return [at(theta) for theta in thetas] + [p1], (tangent(start), tangent(start + delta))


def _ellipse_points(cx: float, cy: float, rx: float, ry: float) -> list[Point]:
    """An ellipse's outline: its four extrema and samples."""
    count = 4 * (_SAMPLES // 4 + 1)
    turns = [2 * math.pi * k / count for k in range(count)]
    return [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in turns]


def _shape_outline(document: _Document, element: ET.Element) -> Outline | None:
    """The outline of a shape element in its own user space (path, rect, circle,
    ellipse, line, polyline, polygon); None for anything else, or an empty shape."""
    tag = _local(element.tag)

    def number(name: str) -> float:
        return _length(document, element, name)

    try:
        if tag == "path":
            outline = path_outline(element.get("d") or "")
        elif tag in ("polyline", "polygon"):
            values = _NUMBER.findall(element.get("points") or "")
            pairs = [f"{x} {y}" for x, y in zip(values[::2], values[1::2], strict=False)]
            data = ("M " + " L ".join(pairs) + (" Z" if tag == "polygon" else "")) if pairs else ""
            outline = path_outline(data)
        elif tag == "rect":  # a right angle's miter reaches as far as half the stroke
            x, y, width, height = (number(n) for n in ("x", "y", "width", "height"))
            outline = Outline([(x, y), (x + width, y + height)] if width > 0 < height else [])
        elif tag in ("circle", "ellipse"):
            rx, ry = (number("r"),) * 2 if tag == "circle" else (number("rx"), number("ry"))
            outline = Outline(_ellipse_points(number("cx"), number("cy"), rx, ry))
        elif tag == "line":
            outline = Outline([(number("x1"), number("y1")), (number("x2"), number("y2"))])
        else:
            return None
    except ValueError as error:
        raise LayoutError(f"{document.where(element)}: {error}") from None
    return outline if outline.points else None


def _intersect(a: Rect | None, b: Rect | None) -> Rect | None:
    if a is None or b is None:
        return a or b
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def _clip_rect(document: _Document, element: ET.Element, matrix: Matrix) -> Rect | None:
    """The box (template space) of the element's ``clip-path``, in the element's user
    space ``matrix``; None when it has none, or one in ``objectBoundingBox`` units
    (then the outline is not cut: a larger box, never a smaller one)."""
    value = _style(document, element).get("clip-path", "none")
    reference = _ID_REF.match(value)
    if reference is None:
        return None
    clip = document.by_id.get(reference.group(1))
    if clip is None or clip.get("clipPathUnits") == "objectBoundingBox":
        return None
    matrix = multiply(document.transform(clip), matrix)
    return _outline(document, clip, matrix, stroked=False, top=True)


def _outline(
    document: _Document,
    element: ET.Element,
    matrix: Matrix,
    *,
    stroked: bool = True,
    top: bool = False,
) -> Rect | None:
    """The visual bounding box (template space) of an element and what it holds,
    ``matrix`` its parent's user space: outlines widened by half their stroke, cut by
    their clip paths; hidden elements (``display:none``) left out, except ``top``
    itself (the loyalty groups are hidden until the generator shows them)."""
    style = _style(document, element)
    if not top and style.get("display") == "none":
        return None
    if element is not document.root and _local(element.tag) != "clipPath":
        matrix = multiply(document.transform(element), matrix)
    rect: Rect | None = None
    outline = _shape_outline(document, element)
    if outline is not None:
        rect = _bounds(apply(matrix, x, y) for x, y in outline.points)
        if stroked and style.get("stroke", "none") != "none":
            half = _number_property(document, element, style, "stroke-width", "1") / 2
            # Half the stroke around every point: a circle of that radius, mapped by the
            # transform, is an ellipse this wide and tall.
            a, b, c, d, _, _ = matrix
            pad_x, pad_y = half * math.hypot(a, c), half * math.hypot(b, d)
            rect = (rect[0] - pad_x, rect[1] - pad_y, rect[2] + pad_x, rect[3] + pad_y)
            if style.get("stroke-linejoin", "miter") == "miter":
                limit = _number_property(document, element, style, "stroke-miterlimit", "4")
                tips = [apply(matrix, x, y) for x, y in _miters(outline, half, limit)]
                rect = _bounds([*tips, rect[:2], rect[2:]])
    for child in element:
        inner = _outline(document, child, matrix, stroked=stroked)
        if inner is not None:
            rect = (
                inner
                if rect is None
                else (
                    min(rect[0], inner[0]),
                    min(rect[1], inner[1]),
                    max(rect[2], inner[2]),
                    max(rect[3], inner[3]),
                )
            )
    if rect is not None:
        rect = _intersect(rect, _clip_rect(document, element, matrix))
        if rect is not None and (rect[2] < rect[0] or rect[3] < rect[1]):
            return None
    return rect


def _number_property(
    document: _Document, element: ET.Element, style: dict[str, str], name: str, initial: str
) -> float:
    """A numeric style property (``stroke-width`` in user units, ``stroke-miterlimit``)."""
    value = style.get(name, initial).strip().removesuffix("px")
    if _NUMBER.fullmatch(value) is None:
        raise LayoutError(
            f"{document.where(element)}: {name} {value!r}: give a number (of user units)"
        )
    return float(value)


# --- loyalty marks --------------------------------------------------------------------


def _mark_rect(document: _Document, group: ET.Element) -> Rect:
    rect = _outline(document, group, document.ctm(group, own=False), top=True)
    if rect is None:
        raise LayoutError(f"{document.where(group)}: an empty loyalty mark (no shape to show)")
    return rect


def _shapes(document: _Document, element: ET.Element) -> Iterator[ET.Element]:
    """The shapes a group shows, in drawing order (the last is on top)."""
    for child in element:
        if _style(document, child).get("display") == "none":
            continue
        if _shape_outline(document, child) is not None:
            yield child
        yield from _shapes(document, child)


def _loyalty(document: _Document, overlay: dict[str, ET.Element]) -> Loyalty:
    """L1's box, the step down to L2 and L3 (measured from the lowest mark there is:
    the official sets move them by a transform, by their own coordinates or both), and
    its colours."""
    marks = {
        index: _mark_rect(document, overlay[name])
        for index, name in enumerate(LOYALTY_IDS)
        if name in overlay
    }
    first, last = marks[0], max(marks)
    if last:
        step = (marks[last][1] - first[1]) / last
    else:  # one mark only: the next would touch it
        step = first[3] - first[1]
    shapes = list(_shapes(document, overlay["L1"]))
    fills = [colour for shape in shapes if (colour := _shape_paint(document, shape, "fill"))]
    strokes = [colour for shape in shapes if (colour := _shape_paint(document, shape, "stroke"))]
    box = _box(first)
    fill = fills[-1] if fills else "#000000"
    return Loyalty(
        box.x, box.y, box.width, box.height, _mm(step), fill, strokes[-1] if strokes else fill
    )


def _shape_paint(document: _Document, shape: ET.Element, what: str) -> str | None:
    """A shape's fill or stroke as ``#rrggbb`` (None: ``none``); SVG's initial values
    are a black fill and no stroke."""
    initial = "black" if what == "fill" else "none"
    return _paint(document, shape, _style(document, shape).get(what, initial))


def _references(value: str) -> list[str]:
    """Ids an attribute value points to: ``url(#id)`` and ``#id`` (an href)."""
    found = _ID_REF.findall(value)
    if value.startswith("#") and " " not in value:
        found.append(value[1:])
    return found


def _referenced(document: _Document, element: ET.Element) -> list[ET.Element]:
    """The elements outside ``element`` that it needs (gradients, clip paths, filters,
    and what they need in turn), in document order."""
    inside = {id(item) for item in element.iter()}
    wanted: dict[int, ET.Element] = {}
    todo = [element]
    while todo:
        item = todo.pop()
        for node in item.iter():
            for value in node.attrib.values():
                for ident in _references(value):
                    target = document.by_id.get(ident)
                    if target is not None and id(target) not in inside | set(wanted):
                        wanted[id(target)] = target
                        todo.append(target)
    order = {id(item): index for index, item in enumerate(document.root.iter())}
    return sorted(wanted.values(), key=lambda item: order[id(item)])


#: The properties whose value is a colour, which ``recolour`` replaces.
_COLOUR_PROPERTIES = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")


def _recoloured(
    document: _Document, element: ET.Element, recolour: Callable[[str], str], *, solid: bool
) -> ET.Element:
    """A copy of ``element`` whose colours (``#rrggbb``, in attributes and styles) are
    ``recolour``'s, and, ``solid``, whose gradient paints are their colour half-way;
    other paints (``none``, clip paths) are kept."""

    def swap(value: str) -> str:
        reference = _ID_REF.match(value.strip())
        if solid and reference:
            target = document.by_id.get(reference.group(1))
            if target is not None and _local(target.tag).endswith("Gradient"):
                return recolour(_gradient_middle(document, target))
        colour = _hex(value)
        return value if colour is None else recolour(colour)

    copy = deepcopy(element)
    for node in copy.iter():
        for name in _COLOUR_PROPERTIES:
            if node.get(name) is not None:
                node.set(name, swap(node.get(name, "")))
        if node.get("style"):
            declarations = []
            for declaration in node.get("style", "").split(";"):
                name, colon, value = declaration.partition(":")
                colour = colon and name.strip() in _COLOUR_PROPERTIES
                declarations.append(f"{name.strip()}:{swap(value)}" if colour else declaration)
            node.set("style", ";".join(declarations))
    return copy


def loyalty_svg(
    svg: Path,
    prefix: str | None = None,
    recolour: Callable[[str], str] | None = None,
    *,
    solid: bool = False,
) -> str | None:
    """L1 of a template as a standalone SVG document (None when it has no L1): its
    viewBox is L1's visual box in template units, its size that box in mm, the
    gradients, clip paths and filters it uses copied in, every id prefixed with
    ``prefix`` (default: ``<faction folder>-<file name>-``) so that marks of several
    templates on one page cannot clash.

    ``recolour`` maps each ``#rrggbb`` colour of the drawing (fills, strokes, gradient
    stops) to what to write instead: the templates' colours are sRGB, a PDF/X-4 page
    for a CMYK press wants ``device-cmyk()`` (``artwork.solid_cmyk`` converts one).
    ``solid`` paints with each gradient's colour half-way instead of the gradient:
    WeasyPrint (70) writes an SVG gradient as a DeviceRGB shading whatever its stops
    say, so a mark printed in CMYK only must do without."""
    document = _document(svg)
    overlay = _overlay(document)
    group = overlay.get("L1")
    if group is None:
        return None
    left, top, right, bottom = _mark_rect(document, group)
    if prefix is None:
        prefix = re.sub(r"[^A-Za-z0-9_-]", "-", f"{Path(svg).parent.name}-{Path(svg).stem}-")

    def markup(element: ET.Element) -> str:
        if recolour is not None or solid:
            element = _recoloured(document, element, recolour or (lambda c: c), solid=solid)
        return serialise_svg(element, prefix)

    defs = "".join(markup(item) for item in _referenced(document, group))
    body = "".join(markup(child) for child in group)
    matrix = document.ctm(group)
    transform = (
        ""
        if matrix == IDENTITY
        else ' transform="matrix({})"'.format(" ".join(f"{v:.6g}" for v in matrix))
    )
    width, height = right - left, bottom - top
    return (
        f'<svg xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}" '
        f'viewBox="{left:.4f} {top:.4f} {width:.4f} {height:.4f}" '
        f'width="{width * UNIT_MM:.3f}mm" height="{height * UNIT_MM:.3f}mm">'
        f"<defs>{defs}</defs><g{transform}>{body}</g></svg>\n"
    )
