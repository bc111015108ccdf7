"""The card-text symbols (cypher discs, marks) as inline SVG for the print templates.

One drawing per code of :data:`translator.markup.tree.SYMBOL_CODES`, in
``templates/default/symbols/<code>.svg``; a theme may replace any of them with its own
``<theme>/symbols/<code>.svg``.  The drawings are inlined into the card's HTML rather
than linked: WeasyPrint writes an inline SVG's ``fill="device-cmyk(c m y k)"`` as
``/DeviceCMYK`` colour (so does an ``<img>``-linked file, but inlining needs no file
access from the renderer and no URL).

Conventions of the shipped drawings (``templates/default/symbols/generate.py`` draws
them):

* the viewBox is the symbol's ink box, in hundredths of an em at the size it is meant
  to print: cyphers ``100 × 100`` (1 em), the inline arrow ``110 × 100``, large marks
  ``210 × 225`` (two lines of 9 pt text at 1.25 leading), column marks ``130 × 130``;
* column marks (``mc``, ``mic``) are drawn for a box one mark wide and as tall as their
  paragraph: ``preserveAspectRatio="xMidYMin meet"`` keeps the hook at the top, and the
  stem, drawn far below the viewBox, is cut by the box's bottom edge;
* every fill is ``device-cmyk()``: black ink only for the body, paper white for the
  knocked-out figures and arrows.  No gradients, opacity, filters, masks or ids.

:func:`symbol_svg` gives each drawing ``width``/``height`` attributes in ``em`` (from
its viewBox), so that it has its intended size even without CSS; a stylesheet's
``width``/``height`` win over them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

from ..errors import UserError
from ..limits import MAX_CONFIG_BYTES
from ..markup.tree import SYMBOL_CODES
from ..shipped import templates_root
from ..textio import InputError, read_file

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
#: Where a theme keeps its symbols, relative to the theme directory.
SYMBOLS_DIR = "symbols"
_VIEWBOX = re.compile(r"^\s*(-?[\d.]+)[\s,]+(-?[\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*$")
_URL_REF = re.compile(r"url\(\s*#([^)\s]+)\s*\)")


class SymbolError(UserError, ValueError):
    """A symbol file that cannot be used (unreadable, not SVG, no viewBox)."""


def default_symbols_dir() -> Path:
    """The shipped drawings: ``templates/default/symbols``."""
    return templates_root() / "default" / SYMBOLS_DIR


@dataclass(frozen=True)
class SymbolDrawing:
    """One symbol file, read and normalised for inlining."""

    code: str
    path: Path
    #: ``(min-x, min-y, width, height)`` of the viewBox.
    view_box: tuple[float, float, float, float]
    #: The root's attributes to keep (``viewBox``, ``preserveAspectRatio``, ...).
    attributes: tuple[tuple[str, str], ...]
    #: The serialised children of the root element.
    content: str

    @property
    def size_em(self) -> tuple[float, float]:
        """Width and height in em: viewBox units are hundredths of an em."""
        return self.view_box[2] / 100, self.view_box[3] / 100


def _check_code(code: str) -> None:
    if code not in SYMBOL_CODES:
        known = ", ".join(sorted(SYMBOL_CODES))
        raise ValueError(f"unknown symbol code {code!r} (known: {known})")


def symbol_path(code: str, theme_dir: str | Path | None = None) -> Path:
    """The file drawing ``code``: the theme's own ``symbols/<code>.svg`` if it has one,
    else the shipped one.  Unknown codes raise :class:`ValueError`."""
    _check_code(code)
    if theme_dir is not None:
        own = Path(theme_dir) / SYMBOLS_DIR / f"{code}.svg"
        if own.is_file():
            if not own.resolve().is_relative_to(Path(theme_dir).resolve()):
                raise SymbolError(
                    f"{own}: a link to {own.resolve()}, outside the theme: "
                    "copy the drawing into the theme"
                )
            return own
    return default_symbols_dir() / f"{code}.svg"


def _name(tag: str) -> str | None:
    """An XML name without the SVG namespace; ``xlink:`` names keep their prefix; names
    in other namespaces (editor metadata such as Inkscape's) give None: they are
    dropped."""
    if not tag.startswith("{"):
        return tag
    namespace, _, local = tag[1:].partition("}")
    if namespace == SVG_NS:
        return local
    if namespace == XLINK_NS:
        return f"xlink:{local}"
    return None


def _text(value: str | None, keep_spaces: bool) -> str:
    if not value or not (keep_spaces or value.strip()):
        return ""
    return escape(value, quote=False)


def serialise_svg(element: ET.Element, prefix: str, in_text: bool = False) -> str:
    """An element (of an SVG file) as inline markup, its ids prefixed with ``prefix``
    so that two symbols on one page cannot clash.  Whitespace between elements is
    dropped, except inside ``<text>``."""
    tag = _name(element.tag)
    if tag is None:
        return _text(element.tail, in_text)
    inside = in_text or tag == "text"
    parts = [f"<{tag}"]
    for key, value in element.attrib.items():
        name = _name(key)
        if name is not None:
            parts.append(f' {name}="{escape(_prefix_ids(name, value, prefix), quote=True)}"')
    inner = _text(element.text, inside) + "".join(
        serialise_svg(child, prefix, inside) for child in element
    )
    parts.append(f">{inner}</{tag}>" if inner else "/>")
    return "".join(parts) + _text(element.tail, in_text)


def _prefix_ids(name: str, value: str, prefix: str) -> str:
    if name == "id":
        return prefix + value
    if name in ("href", "xlink:href") and value.startswith("#"):
        return "#" + prefix + value[1:]
    return _URL_REF.sub(lambda m: f"url(#{prefix}{m.group(1)})", value)


@cache
def _load(path: Path, code: str) -> SymbolDrawing:
    try:
        root = ET.fromstring(read_file(path, MAX_CONFIG_BYTES, "symbol drawing"))
    except InputError as error:
        raise SymbolError(f"{path}: cannot read the symbol :{code}: ({error.message})") from None
    except (OSError, ET.ParseError) as error:
        raise SymbolError(f"{path}: cannot read the symbol :{code}: ({error})") from error
    if root.tag != f"{{{SVG_NS}}}svg":
        raise SymbolError(f"{path}: not an SVG drawing (root <svg> in the SVG namespace)")
    view_box = root.get("viewBox")
    match = _VIEWBOX.match(view_box or "")
    if match is None:
        raise SymbolError(f"{path}: the symbol :{code}: needs a viewBox (min-x min-y width height)")
    x, y, width, height = (float(v) for v in match.groups())
    if width <= 0 or height <= 0:
        raise SymbolError(f"{path}: the symbol :{code}: has an empty viewBox")
    prefix = f"sym-{code}-"
    attributes = tuple(
        (name, _prefix_ids(name, value, prefix))
        for key, value in root.attrib.items()
        if (name := _name(key)) is not None and name not in ("width", "height", "class")
    )
    # Children only; the parser leaves out comments (the drawings' provenance notes).
    content = "".join(serialise_svg(child, prefix) for child in root)
    return SymbolDrawing(code, path, (x, y, width, height), attributes, content)


def symbol_drawing(code: str, theme_dir: str | Path | None = None) -> SymbolDrawing:
    """The drawing of ``code`` (read once, then cached), with the theme's override."""
    return _load(symbol_path(code, theme_dir).resolve(), code)


def symbol_size(code: str, theme_dir: str | Path | None = None) -> tuple[float, float]:
    """The width and height, in em, that the drawing of ``code`` is made for."""
    return symbol_drawing(code, theme_dir).size_em


def _em(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") + "em"


def inline_drawing(path: Path, name: str) -> str:
    """A theme's drawing that is not a symbol (the official look's loyalty mark) as
    inline ``<svg>`` markup filling its box: read and normalised as symbols are (ids
    prefixed with ``name``, comments left out).  Inline, not an ``<img>``: WeasyPrint
    paints an SVG image inside an RGB transparency group, which a CMYK print file may
    not have."""
    drawing = _load(Path(path).resolve(), name)
    attributes = [f'xmlns="{SVG_NS}"']
    if "xlink:" in drawing.content:
        attributes.append(f'xmlns:xlink="{XLINK_NS}"')
    attributes += [
        f'{key}="{escape(value, quote=True)}"'
        for key, value in drawing.attributes
        if not key.startswith("xmlns")
    ]
    attributes += ['width="100%"', 'height="100%"', 'preserveAspectRatio="none"']
    return f"<svg {' '.join(attributes)}>{drawing.content}</svg>"


#: The ink of a theme's own drawings that ``symbol_svg(ink=...)`` recolours.
BLACK_INK = "device-cmyk(0 0 0 1)"


def symbol_svg(
    code: str,
    css_class: str = "",
    *,
    theme_dir: str | Path | None = None,
    tall: float | None = None,
    ink: str | None = None,
) -> str:
    """The inline ``<svg>`` markup of the symbol ``code`` (``g3``, ``m``, ``mis``...).

    ``css_class`` becomes the root's ``class``; ``theme_dir`` is a theme directory
    whose ``symbols/<code>.svg`` replaces the shipped drawing.  The root carries the
    drawing's viewBox and its size in em (``width``/``height``, overridden by CSS);
    comments and editor metadata are left out and ids are prefixed per code.  ``tall``:
    a height in em for the viewBox, kept as wide, running on below the drawing's (a
    column mark's stem, drawn below its viewBox, is visible down to there: WeasyPrint
    clips a drawing to its viewBox, and does not stretch an SVG to a box whose height
    comes from its top and bottom).  ``ink``: a colour for the black (:data:`BLACK_INK`)
    of the theme's own drawing, as the official cards print their symbols in the text's
    colour (the shipped drawings, black discs with white figures, keep theirs).  Raises
    :class:`ValueError` for a code that is not a symbol, :class:`SymbolError` for a
    drawing that cannot be used.
    """
    drawing = symbol_drawing(code, theme_dir)
    width, height = drawing.size_em
    kept = drawing.attributes
    if tall is not None and tall > height:
        x, y, box_width, box_height = drawing.view_box
        box_height *= tall / height
        height = tall
        kept = tuple(
            (name, f"{x:g} {y:g} {box_width:g} {box_height:g}")
            if name == "viewBox"
            else (name, value)
            for name, value in kept
        )
    attributes = [f'xmlns="{SVG_NS}"']
    if "xlink:" in drawing.content or any(n.startswith("xlink:") for n, _ in kept):
        attributes.append(f'xmlns:xlink="{XLINK_NS}"')
    attributes += [
        f'{name}="{escape(value, quote=True)}"'
        for name, value in kept
        if not name.startswith("xmlns")
    ]
    attributes += [f'width="{_em(width)}"', f'height="{_em(height)}"']
    if css_class:
        attributes.append(f'class="{escape(css_class, quote=True)}"')
    content = drawing.content
    if ink is not None and not drawing.path.is_relative_to(default_symbols_dir()):
        content = content.replace(f'"{BLACK_INK}"', f'"{escape(ink, quote=True)}"')
    return f"<svg {' '.join(attributes)}>{content}</svg>"


def forget_drawings() -> None:
    """Drop the drawings read so far: a long-lived process (the editor's preview, the
    watch server) reads them again once a theme's files changed."""
    _load.cache_clear()
