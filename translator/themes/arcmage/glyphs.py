"""The card-text symbols of the official look, drawn from the official symbol font.

The official cards print cypher discs and marks with a font, ``Fonts/WTactics
Symbols.ttf`` of the template set: Aminduna's generator sets one character of it per
symbol code, at a size of its own (``templates/arcmage/glyphs.yaml`` has the table and
the sizes, read from upstream).  Translator prints symbols as inline SVG drawings, one
file per code (:mod:`translator.typeset.symbols`); :func:`write_symbols` turns the
font's glyphs into such files, for a theme's ``symbols/`` folder, so that printing needs
no font and the colour is CMYK.

Each drawing is the glyph's outline as it is (its figures are holes, as in the font:
the ground shows through them), filled in one ``device-cmyk()`` ink, scaled so that
one viewBox unit is a hundredth of an em of the card text, as the shipped drawings.
Unlike theirs, a viewBox is not the ink's box: it is as tall as the box the stylesheet
(``templates/default/text.css.j2``) gives the kind of symbol, with the glyph on the
baseline of that box (``glyphs.yaml``, ``frames``), and as wide as the glyph's advance,
the glyph at its origin, as the font sets it.  WeasyPrint prints an inline drawing at
the ``width``/``height`` :func:`~translator.typeset.symbols.symbol_svg` writes on it
(from its viewBox): the renderer's stylesheet is a user stylesheet to WeasyPrint, and
its ``.sym svg { width: 100% }`` loses to those attributes.  So the glyph prints at the
official size whatever the symbol box's width, from the box's left.  Column marks get
the stem :func:`translator.typeset.symbols.symbol_svg` runs on with ``tall=`` (the
official cards print none; ``glyphs.yaml`` says why and how to leave it out).
:func:`contact_sheet` shows the drawings beside the default theme's.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

import yaml
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

from ...atomic import write_file
from ...limits import MAX_CONFIG_BYTES
from ...markup.tree import SYMBOL_CODES, symbol_kind
from ...shipped import templates_root
from ...textio import InputError, read_file, read_text
from ...typeset.symbols import SVG_NS, symbol_size, symbol_svg
from ...typeset.theme import FONT_SIGNATURES, MAX_FONT_BYTES, cmyk
from ...yamlfile import safe_load

#: The table of codes, sizes and boxes, in the shipped ``templates/arcmage``.
TABLE = "glyphs.yaml"
#: Written into every drawing: how a file made here is recognised (and replaced).
MADE_BY = "translator.typeset.arcmage.glyphs"
#: Bytes of a drawing read back to see whether it is one of ours (they are 1 to 3 KB).
MAX_DRAWING_BYTES = 1 << 20
#: Units of a drawing in an em of the card text (the shipped drawings' convention).
UNITS = 100


class GlyphError(InputError):
    """A symbol font that cannot be used: not a font, or not the Arcmage symbol font."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(str(path), message)


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Metrics:
    """The card text's font and line height, in em: where its baselines are."""

    ascent: float
    descent: float
    cap: float
    line_height: float = 1.25

    @property
    def first_baseline(self) -> float:
        """Line 1's baseline below the paragraph's top: half-leading plus ascent."""
        return (self.line_height - self.ascent - self.descent) / 2 + self.ascent


@dataclass(frozen=True)
class Table:
    """``glyphs.yaml``: each code's character and shape, the sizes, the boxes."""

    path: Path
    body: float
    sizes: Mapping[str, float]
    codes: Mapping[str, tuple[str, str]]
    shapes: Mapping[str, tuple[float, float]]
    frames: Mapping[str, Mapping[str, float]]
    stem: Mapping[str, Any] | None
    ink: tuple[float, ...]

    def scale(self, code: str) -> float:
        """The symbol's font size in em of the card text (16 / 11.25 for a cypher)."""
        return self.sizes[symbol_kind(code)] / self.body


@cache
def load_table(path: Path | None = None) -> Table:
    """The shipped table (or another file of its shape).  It is the project's data, so
    a broken one is a :class:`ValueError` naming the file, not a user's error."""
    path = path or templates_root() / "arcmage" / TABLE
    try:
        data = safe_load(read_text(path, MAX_CONFIG_BYTES, "symbol table"))
        codes = {
            str(code): (str(entry["char"]), str(entry["shape"]))
            for code, entry in data["codes"].items()
        }
        table = Table(
            path=path,
            body=float(data["body"]),
            sizes={kind: float(size) for kind, size in data["sizes"].items()},
            codes=codes,
            shapes={
                name: (float(low), float(high)) for name, (low, high) in data["shapes"].items()
            },
            frames=data["frames"],
            stem=data.get("stem"),
            ink=tuple(data["ink"]),
        )
    except (InputError, OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"{path}: not a usable symbol table ({type(error).__name__}: {error})"
        ) from None
    unknown = sorted(set(codes) - SYMBOL_CODES)
    shapes = {shape for _, shape in codes.values()} - set(table.shapes)
    if unknown or shapes or len(table.ink) != 4:
        raise ValueError(
            f"{path}: unknown codes {unknown}, shapes {sorted(shapes)}, or an "
            "ink that is not four CMYK percentages"
        )
    return table


# ---------------------------------------------------------------------------- the font


@dataclass(frozen=True)
class Glyph:
    """One glyph of the font, in font units: its advance and ink box."""

    char: str
    name: str
    advance: float
    bounds: tuple[float, float, float, float]

    @property
    def aspect(self) -> float:
        """Its ink's width over its height: what tells a disc from a tag."""
        x0, y0, x1, y1 = self.bounds
        return (x1 - x0) / (y1 - y0) if y1 > y0 else float("inf")


class SymbolFont:
    """The symbol font, opened and checked (:func:`open_font`)."""

    def __init__(self, path: Path, font: TTFont) -> None:
        self.path = path
        self.units = font["head"].unitsPerEm
        self.glyph_set = font.getGlyphSet()
        self.cmap = font.getBestCmap() or {}
        self.metrics = font["hmtx"]

    def glyph(self, char: str) -> Glyph | None:
        """The glyph of ``char``, or None if the font has none (or an empty one)."""
        name = self.cmap.get(ord(char))
        if name is None:
            return None
        pen = BoundsPen(self.glyph_set)
        self.glyph_set[name].draw(pen)
        if pen.bounds is None:
            return None
        return Glyph(char, name, self.metrics[name][0], pen.bounds)

    def path_data(self, glyph: Glyph, scale: float, x: float, baseline: float) -> str:
        """The glyph's outline as SVG path data, ``scale`` viewBox units a font unit,
        its origin at (``x``, ``baseline``) and y downwards."""
        pen = SVGPathPen(self.glyph_set, ntos=number)
        self.glyph_set[glyph.name].draw(TransformPen(pen, (scale, 0, 0, -scale, x, baseline)))
        return pen.getCommands()


def _read_font(data: bytes) -> TTFont:
    """The font in ``data``.  The official font's ``post`` table is broken (format 0),
    and fontTools names glyphs from it: when it cannot, the glyphs are named by their
    index, which is all that is needed here."""
    font = TTFont(io.BytesIO(data))
    try:
        font.getGlyphOrder()
    except Exception:  # fontTools raises several kinds for a post table it cannot read
        font = TTFont(io.BytesIO(data))
        font.setGlyphOrder(
            [".notdef", *(f"glyph{i:05d}" for i in range(1, font["maxp"].numGlyphs))]
        )
    return font


def open_font(path: Path, table: Table | None = None) -> SymbolFont:
    """The symbol font at ``path``, checked: a font file, whose glyphs for the table's
    characters have the shapes the table says (a text font has the same characters).
    Every problem is a :class:`GlyphError` of one line naming the file."""
    table = table or load_table()
    hint = "give the Arcmage symbol font, Fonts/WTactics Symbols.ttf of the template set"
    try:
        data = read_file(path, MAX_FONT_BYTES, "font file")
    except InputError as error:  # missing, a directory, too large...: one kind of error
        raise GlyphError(path, error.message) from None
    if not data.startswith(FONT_SIGNATURES):
        raise GlyphError(path, f"not a font file (TrueType or OpenType): {hint}")
    try:
        font = SymbolFont(path, _read_font(data))
        glyphs = {char: font.glyph(char) for char, _ in table.codes.values()}
    except Exception as error:  # fontTools raises many kinds for a broken font
        raise GlyphError(
            path, f"not a usable font ({type(error).__name__}: {str(error)[:200]}): {hint}"
        ) from None
    if not any(glyphs.values()):
        chars = "".join(sorted({char for char, _ in table.codes.values()}))
        raise GlyphError(path, f"has none of the symbol characters {chars!r}: {hint}")
    for code, (char, shape) in table.codes.items():
        glyph = glyphs[char]
        low, high = table.shapes[shape]
        if glyph is not None and not low <= glyph.aspect <= high:
            raise GlyphError(
                path,
                f"the glyph {char!r} (:{code}:) is {glyph.aspect:.2f} "
                f"times as wide as tall, not a {shape} ({low} to {high}): "
                f"not the Arcmage symbol font; {hint}",
            )
    return font


# ------------------------------------------------------------------------ the drawings


def number(value: float) -> str:
    """A coordinate with two decimals at most, as the shipped drawings write them."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@cache
def official_text() -> Metrics:
    """The metrics of the official look's text font (its base theme's regular face,
    Liberation Serif), read from the font as the stylesheet's are."""
    from ...typeset.theme import font_metrics, load_theme  # noqa: PLC0415 - the theme needs symbols

    return Metrics(**font_metrics(load_theme(templates_root() / "arcmage").fonts["regular"]))


def baseline(code: str, table: Table, text: Metrics) -> tuple[float, float]:
    """The height of ``code``'s box and its baseline below the box's top, in em, as
    text.css.j2 places the box: inline symbols by ``vertical-align``; large marks
    centred on the band from line 1's cap height to line 2's baseline (their baseline),
    whatever the ascent; column marks from ``top`` below the paragraph's, beside line 1.
    """
    kind = symbol_kind(code)
    frame = table.frames[kind]
    height = float(frame["height"])
    if kind == "mark":
        return height, (text.line_height + text.cap) / 2 + height / 2
    if kind == "column":
        return height, text.first_baseline - float(frame["top"])
    return height, height - float(frame["depth"])


def _stem(table: Table, shape: str, glyph: Glyph, scale: float, base: float) -> str:
    """The column mark's stem: a bar down the glyph's left edge, from inside the glyph
    (``stem.from``) to ``stem.length`` em below its baseline, as path data."""
    stem = table.stem or {}
    x0, y0, _x1, y1 = glyph.bounds
    left = x0 * scale
    right = left + float(stem["width"]) * UNITS
    top = base - (y0 + float(stem["from"][shape]) * (y1 - y0)) * scale
    bottom = base + float(stem["length"]) * UNITS
    return f"M{number(left)} {number(top)}H{number(right)}V{number(bottom)}H{number(left)}Z"


def drawing(
    code: str, font: SymbolFont, table: Table, ink: str, text: Metrics | None = None
) -> str | None:
    """The SVG file of ``code`` drawn from ``font``, or None if the font lacks its
    character.  ``ink`` is the fill (a ``device-cmyk()`` colour)."""
    char, shape = table.codes[code]
    glyph = font.glyph(char)
    if glyph is None:
        return None
    text = text or official_text()
    scale = table.scale(code) * UNITS / font.units  # viewBox units per font unit
    height, below = baseline(code, table, text)
    base = below * UNITS
    width = glyph.advance * scale
    x0, y0, x1, y1 = glyph.bounds
    if (
        base - y1 * scale < -0.5
        or base - y0 * scale > height * UNITS + 0.5
        or x0 * scale < -0.5
        or x1 * scale > width + 0.5
    ):
        raise GlyphError(
            font.path,
            f"the glyph {char!r} (:{code}:) does not fit the box "
            f"of its symbol ({number(width / UNITS)} x {height} em): "
            "not the Arcmage symbol font",
        )
    kind = symbol_kind(code)
    aspect = {"mark": "xMinYMax meet", "column": "xMidYMin meet"}.get(kind)
    extra = f' preserveAspectRatio="{aspect}"' if aspect else ""
    paths = [font.path_data(glyph, scale, 0, base)]
    if kind == "column" and table.stem:
        paths.append(_stem(table, shape, glyph, scale, base))
    comment = (
        f"Arcmage card-text symbol :{code}: drawn by {MADE_BY} from the character "
        f"{char!r} of the official Arcmage symbol font ({font.path.name}; WTactics, "
        "GPL-3 or CC BY-SA 4.0), at the size and on the baseline Aminduna's card "
        "generator prints it. Units are hundredths of an em of the card text; the "
        "viewBox is the glyph's advance wide and as tall as the box the stylesheet "
        "gives the symbol; colours are DeviceCMYK."
    )
    lines = [
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {number(width)} {number(height * UNITS)}"{extra}>',
        f"<!-- {comment} -->",
        *(f'<path fill="{ink}" d="{d}"/>' for d in paths),
        "</svg>",
    ]
    return "\n".join(lines) + "\n"


def write_symbols(
    font: Path, out_dir: Path, *, ink: Iterable[float] | None = None, text: Metrics | None = None
) -> list[str]:
    """Write ``out_dir/<code>.svg`` for every symbol code the table maps and the font
    has, and return those codes (in the table's order).

    ``ink``: the glyphs' colour, CMYK percentages (default: the table's, black ink);
    ``text``: the card text font's metrics (default: the official look's, read from its
    Liberation Serif by :func:`official_text`).  A code the font
    lacks gets no file (the default theme's drawing prints instead), and a file of an
    earlier run for it is removed.  Raises :class:`GlyphError` for a font that is not
    the Arcmage symbol font."""
    table = load_table()
    values = tuple(float(v) for v in ink) if ink is not None else table.ink
    if len(values) != 4 or not all(0 <= v <= 100 for v in values):
        raise ValueError(f"ink {values}: four CMYK percentages (0 to 100) expected")
    opened = open_font(Path(font), table)
    # Every drawing made before any is written: a glyph that does not fit stops the
    # import with the symbols folder as it was.
    drawings = {code: drawing(code, opened, table, cmyk(values), text) for code in table.codes}
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for code, svg in drawings.items():
        target = out_dir / f"{code}.svg"
        if svg is not None:
            write_file(target, svg.encode("utf-8"), 0o644, sync_directory=False, within=out_dir)
            written.append(code)
        elif _made_here(target, out_dir):
            target.unlink()
    return written


def _made_here(drawing: Path, folder: Path) -> bool:
    """Whether ``drawing`` is a symbol file an earlier run wrote (regular, in
    ``folder`` itself, marked :data:`MADE_BY`): only those are removed."""
    try:
        data = read_file(drawing, MAX_DRAWING_BYTES, "symbol drawing", beneath=folder)
    except InputError:
        return False
    return MADE_BY.encode("utf-8") in data


# ----------------------------------------------------------------------- contact sheet


def contact_sheet(
    theme_dir: Path, out: Path, codes: Iterable[str] | None = None, dpi: float = 150
) -> Path:
    """A PNG for people to compare: one row per code, the default theme's drawing and
    the theme's (``theme_dir/symbols``), each in its box (grey, so that holes show) on
    the baseline of a text beside it, as the card's stylesheet places it; column marks
    run on 2 em.  Rendered by WeasyPrint (pages stacked), rasterised by pypdfium2."""
    import pypdfium2  # noqa: PLC0415 - only for this picture
    from PIL import Image  # noqa: PLC0415

    from ...typeset.weasy import weasyprint  # noqa: PLC0415 - its libraries found quickly

    pdf = weasyprint.HTML(string=_sheet_html(theme_dir, codes)).write_pdf()
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = [_inked(page.render(scale=dpi / 72).to_pil().convert("RGB")) for page in document]
    finally:
        document.close()
    sheet = Image.new("RGB", (pages[0].width, sum(p.height for p in pages)), "white")
    for i, page in enumerate(pages):
        sheet.paste(page, (0, sum(p.height for p in pages[:i])))
    out.parent.mkdir(parents=True, exist_ok=True)
    # Greys and black only: a palette of 32 keeps the file small.
    sheet.quantize(colors=32).save(out, dpi=(dpi, dpi), optimize=True)
    return out


def _inked(page: Any) -> Any:
    """A rendered page cut to the rows that have ink (and a margin), full width."""
    from PIL import ImageOps  # noqa: PLC0415

    box = ImageOps.invert(page.convert("L")).getbbox() or (0, 0, page.width, page.height)
    margin = 12
    return page.crop((0, max(0, box[1] - margin), page.width, min(page.height, box[3] + margin)))


def _sheet_html(theme_dir: Path, codes: Iterable[str] | None) -> str:
    """The contact sheet's page: each drawing's box aligned on the text's baseline by
    :func:`baseline` (the box's depth below it), as text.css.j2 places it."""
    table = load_table()

    def cell(code: str, theme: Path | None) -> str:
        width, height = symbol_size(code, theme)
        tall = height + 2 if symbol_kind(code) == "column" else None
        _, below = baseline(code, table, official_text())
        depth = (tall or height) - below
        svg = symbol_svg(code, theme_dir=theme, tall=tall)
        return (
            f'<td><span class="box" style="vertical-align: -{number(depth)}em">'
            f"{svg}</span> Hxg <i>{number(width)} x {number(height)}</i></td>"
        )

    rows = "".join(
        f"<tr><th>:{escape(code)}:</th>{cell(code, None)}{cell(code, theme_dir)}</tr>"
        for code in codes or sorted(SYMBOL_CODES, key=_order)
    )
    return (
        "<html><head><style>@page { size: 120mm 297mm; margin: 4mm }"
        ' body { font-family: "Liberation Serif", serif; font-size: 24px;'
        " line-height: 1.25; color: device-cmyk(0 0 0 1) }"
        " th, thead, i { font: 8px sans-serif; text-align: left }"
        " td { padding: 4px 12px 4px 0 } tr { break-inside: avoid }"
        " .box { display: inline-block; background: device-cmyk(0 0 0 0.15) }"
        " .box svg { display: block }</style></head><body><table>"
        "<thead><tr><td>code</td><td>translator default (size in em)</td>"
        "<td>official font</td></tr></thead>"
        f"{rows}</table></body></html>"
    )


def _order(code: str) -> tuple[int, str]:
    """Codes in the table's order (cyphers, large marks, column marks, the arrow)."""
    order = list(load_table().codes)
    return (order.index(code) if code in order else len(order), code)
