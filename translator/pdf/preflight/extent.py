"""Where a paint can land on the page: boxes that hold every pixel a path, a text or an
image can change on Ghostscript's render, for the spatial ink bound (:mod:`.bound`).

A box only ever errs on the large side: a path's is that of its points and curve
control points (a Bézier curve stays within their hull), widened for a stroke by half
its line width times the miter limit; a text's is that of its glyphs' outlines, each
at its pen position (the fonts' widths move the pen, as they move Ghostscript's) and
measured on the outline points of the embedded font itself (:class:`GlyphBounds`),
not on its /FontBBox, which nothing checks; every box is then widened by
:data:`MARGIN_PIXELS` of the render (a pixel an outline touches is painted, and
hinting moves points by less than one).  A font this cannot measure (a Type1 font,
a CFF font outside OpenType, a CMap other than Identity-H, vertical writing) makes
the bound give up: the page is rendered.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import re
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import pikepdf

from ..geometry import Box, Matrix, bounds, multiply, transformed_box
from ..painter import text_metrics as pdf_widths  # the widths the text check places text by

#: Render pixels every box is widened by, on each side.
MARGIN_PIXELS = 2.0

#: The miter limit a graphics state starts with.
DEFAULT_MITER = 10.0

#: The box of a glyph without an outline (a space): it paints nothing.
_EMPTY: Box = (0.0, 0.0, 0.0, 0.0)


class Unmeasured(Exception):
    """A font whose glyphs' extents cannot be read: the bound gives up."""


def margin(dpi: float) -> float:
    """:data:`MARGIN_PIXELS` at ``dpi``, in points."""
    return MARGIN_PIXELS * 72.0 / dpi


def points_box(points: Sequence[tuple[float, float]]) -> Box | None:
    """The box of ``points`` (None for none)."""
    return bounds(points) if points else None


def widened(box: Box | None, by: float) -> Box | None:
    """``box`` grown by ``by`` on each side."""
    if box is None:
        return None
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def scale(matrix: Matrix) -> float:
    """The most ``matrix`` stretches a length (at most the root of its squares'
    sum: the Frobenius norm bounds the largest singular value)."""
    a, b, c, d, _, _ = matrix
    return math.sqrt(a * a + b * b + c * c + d * d)


def stroke_reach(width: float, miter: float, join: int, matrix: Matrix) -> float:
    """How far past its path a stroke can paint, in points: half the line width times
    the miter limit for mitred joins, else times the square cap's diagonal."""
    factor = max(math.sqrt(2.0), miter if join == 0 else 1.0)
    return abs(width) / 2 * factor * scale(matrix)


# ------------------------------------------------------------------ fonts


@dataclass(frozen=True)
class FontShape:
    """What places a font's glyphs: the pen's moves (the PDF widths, as Ghostscript
    uses them) and each glyph's outline box in text space units (em: a 1-point font),
    by code; ``whole`` bounds every glyph of the font (a code not in ``glyphs``)."""

    two_byte: bool
    widths: dict[int, float]
    default_width: float
    glyphs: dict[int, Box]
    whole: Box
    #: The least advance of any code (a negative one moves the pen back).
    least_width: float = 0.0

    def glyph(self, code: int) -> Box:
        """A code's outline box (the whole font's for a code it does not map: the
        renderer draws some glyph of the font, .notdef at worst)."""
        return self.glyphs.get(code, self.whole)


class GlyphBounds:
    """The outline boxes of embedded fonts' glyphs, by the digest of the font file:
    measured once per process (a batch's cards share their fonts' subsets)."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[dict[int, Box], Box]] = {}
        self._lock = threading.Lock()

    def of(self, stream: pikepdf.Stream) -> tuple[dict[int, Box], Box]:
        """Each glyph's box by glyph id, in em, and the box of them all, of the font
        file ``stream`` (known by its encoded bytes and filters: not decoded again)."""
        digest = hashlib.sha256(stream.read_raw_bytes())
        for name in ("/Filter", "/DecodeParms"):
            value = stream.get(name)
            digest.update(repr(None if value is None else value.unparse()).encode())
        key = digest.hexdigest()
        with self._lock:
            found = self._known.get(key)
        if found is None:
            try:
                data = stream.read_bytes()
            except pikepdf.PdfError as error:
                raise Unmeasured(f"a font file that cannot be decoded ({error})") from None
            found = _measure_font(data)
            with self._lock:
                self._known[key] = found
        return found


#: Every font measured in this process.
GLYPHS = GlyphBounds()


def _measure_font(data: bytes) -> tuple[dict[int, Box], Box]:
    """Measure a TrueType or OpenType font's outlines: from their points (a TrueType
    glyph's own stored box is not trusted), through fontTools; a glyf table glyph by
    glyph, each simple glyph once per process (:func:`_simple_glyph_boxes`: every card
    has its own subsets of the same fonts)."""
    from fontTools.pens.boundsPen import BoundsPen  # noqa: PLC0415 - heavy, and rare
    from fontTools.ttLib import TTFont, TTLibError  # noqa: PLC0415

    try:
        font = TTFont(io.BytesIO(data), lazy=True)
        units = float(font["head"].unitsPerEm)
        order = font.getGlyphOrder()
        boxes: dict[int, Box] = {}
        simple = _simple_glyph_boxes(font, order) if "glyf" in font else None
        if simple is not None:
            boxes = simple
        elif "glyf" in font:
            table = font["glyf"]
            for gid, name in enumerate(order):
                glyph = table[name]
                if glyph.numberOfContours == 0:
                    boxes[gid] = _EMPTY
                    continue
                glyph.recalcBounds(table)
                boxes[gid] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
        else:
            glyphs = font.getGlyphSet()
            for gid, name in enumerate(order):
                pen = BoundsPen(glyphs)
                glyphs[name].draw(pen)
                boxes[gid] = _EMPTY if pen.bounds is None else pen.bounds
    except (TTLibError, KeyError, ValueError, TypeError, AttributeError, AssertionError) as error:
        raise Unmeasured(f"a font whose outlines cannot be read ({error})") from None
    if units <= 0:
        raise Unmeasured("a font without units per em")
    scaled: dict[int, Box] = {  # an empty box stays one (0 / units is 0)
        gid: _EMPTY if b is _EMPTY else (b[0] / units, b[1] / units, b[2] / units, b[3] / units)
        for gid, b in boxes.items()
    }
    inked = [b for b in scaled.values() if b != _EMPTY]
    if not inked:
        return scaled, _EMPTY
    whole = (
        min(b[0] for b in inked),
        min(b[1] for b in inked),
        max(b[2] for b in inked),
        max(b[3] for b in inked),
    )
    return scaled, whole


#: The box of each simple TrueType glyph measured in this process, by its bytes in the
#: glyf table: a subset keeps its glyphs' outlines as they are in the font, so the cards
#: of a build, each with its own subsets, measure a glyph once (at most
#: :data:`_SIMPLE_KEPT` kept).
_SIMPLE: dict[bytes, Box] = {}
_SIMPLE_KEPT = 1 << 16
#: The size of a glyph's header in the glyf table (its contours, its stored box).
_GLYPH_HEADER = 10


def _simple_glyph_boxes(font: Any, order: Sequence[str]) -> dict[int, Box] | None:
    """Each glyph's box by glyph id, read from the raw glyf table as fontTools reads it
    whole (:func:`_measure_font`): an empty glyph is :data:`_EMPTY`, a simple one (its
    points its own) measured once per process for the same bytes (:data:`_SIMPLE`), a
    composite by fontTools through its components, decoded as it needs them
    (:class:`_GlyphsByNeed`).  None where fontTools must read the table whole: a table
    that does not match its index (fontTools' error is the one to give), a glyph too
    short for its header, a glyph order other than the index's."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph, table__g_l_y_f  # noqa: PLC0415

    loca = font["loca"]
    offsets = [int(offset) for offset in loca]
    data = font.getTableData("glyf")
    if (
        len(offsets) - 1 != len(order)
        or len(set(order)) != len(order)
        or offsets[-1] > len(data)
        or any(offsets[i] > offsets[i + 1] for i in range(len(order)))
    ):
        return None
    blank = table__g_l_y_f()  # what a glyph is decoded with (not extended)
    blank.glyphOrder = list(order)
    blank.glyphs = _GlyphsByNeed(data, offsets, order, Glyph)
    boxes: dict[int, Box] = {}
    for gid in range(len(order)):
        raw = data[offsets[gid] : offsets[gid + 1]]
        contours = int.from_bytes(raw[:2], "big", signed=True) if len(raw) >= 2 else 0
        if not raw or (contours == 0 and len(raw) >= _GLYPH_HEADER):
            boxes[gid] = _EMPTY
            continue
        if len(raw) < _GLYPH_HEADER:
            return None
        box = _SIMPLE.get(raw) if contours > 0 else None
        if box is None:
            glyph = blank[order[gid]]
            glyph.recalcBounds(blank)
            box = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
            if contours > 0:
                if len(_SIMPLE) >= _SIMPLE_KEPT:
                    _SIMPLE.clear()
                _SIMPLE[raw] = box
        boxes[gid] = box
    return boxes


class _GlyphsByNeed(dict):
    """A glyf table's glyphs by name, as fontTools keeps them (each undecoded, from its
    bytes), made when first asked for: a composite's components, a glyph not known by
    its bytes."""

    def __init__(
        self, data: bytes, offsets: Sequence[int], order: Sequence[str], glyph: Any
    ) -> None:
        super().__init__()
        self._data, self._offsets, self._glyph = data, offsets, glyph
        self._ids = {name: gid for gid, name in enumerate(order)}

    def __missing__(self, name: str) -> Any:
        gid = self._ids[name]  # a name not in the font: KeyError, as fontTools'
        made = self[name] = self._glyph(self._data[self._offsets[gid] : self._offsets[gid + 1]])
        return made


def font_shape(font: object, glyphs: GlyphBounds = GLYPHS) -> FontShape:
    """How ``font`` places its glyphs (:class:`FontShape`), or :class:`Unmeasured`.

    A Type0 font with Identity-H and a TrueType descendant maps each code to its glyph
    (through /CIDToGIDMap); a simple TrueType font's codes go through its encoding and
    cmap, so each glyph is bounded by the box of all of the font's."""
    if not isinstance(font, pikepdf.Dictionary):
        raise Unmeasured("a font that cannot be read")
    subtype = font.get("/Subtype")
    metrics = pdf_widths(font)
    if subtype == "/Type0":
        if str(font.get("/Encoding")) != "/Identity-H":
            raise Unmeasured("a composite font with another CMap than Identity-H")
        descendants = font.get("/DescendantFonts")
        descendant = descendants[0] if isinstance(descendants, pikepdf.Array) else None
        if not isinstance(descendant, pikepdf.Dictionary) or not metrics.two_byte:
            raise Unmeasured("a composite font without its descendant")
        by_gid, whole = glyphs.of(_font_file(descendant))
        glyph_map = descendant.get("/CIDToGIDMap")
        if descendant.get("/Subtype") != "/CIDFontType2":
            by_code: dict[int, Box] = {}
        elif glyph_map is None or str(glyph_map) == "/Identity":
            by_code = by_gid
        elif isinstance(glyph_map, pikepdf.Stream):
            table = glyph_map.read_bytes()
            gids = [int.from_bytes(table[i : i + 2], "big") for i in range(0, len(table) - 1, 2)]
            by_code = {cid: by_gid.get(gid, whole) for cid, gid in enumerate(gids)}
        else:
            raise Unmeasured("a composite font with an unreadable /CIDToGIDMap")
        least = min([metrics.default, *metrics.widths.values()])
        return FontShape(True, metrics.widths, metrics.default, by_code, whole, least)
    if subtype == "/TrueType":
        if not metrics.widths:
            raise Unmeasured("a simple font without /Widths")
        _, whole = glyphs.of(_font_file(font))
        least = min([metrics.default, *metrics.widths.values()])
        return FontShape(False, metrics.widths, metrics.default, {}, whole, least)
    raise Unmeasured(f"a {str(subtype)[1:]} font")


def _font_file(font: pikepdf.Dictionary) -> pikepdf.Stream:
    """The embedded TrueType or OpenType file of a font (its descriptor's)."""
    descriptor = font.get("/FontDescriptor")
    if not isinstance(descriptor, pikepdf.Dictionary):
        raise Unmeasured("a font without a descriptor")
    stream = descriptor.get("/FontFile2")
    if stream is None:
        stream = descriptor.get("/FontFile3")
        if isinstance(stream, pikepdf.Stream) and stream.get("/Subtype") != "/OpenType":
            raise Unmeasured("a CFF font outside OpenType")
    if not isinstance(stream, pikepdf.Stream):
        raise Unmeasured("a font not embedded as TrueType or OpenType")
    return stream


@dataclass
class TextState:
    """The text state parameters (part of the graphics state: saved by ``q``)."""

    font: object = None
    size: float = 0.0
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    horizontal: float = 1.0
    leading: float = 0.0
    rise: float = 0.0

    def copy(self) -> TextState:
        copied = TextState.__new__(TextState)  # a dataclass's __init__ costs more
        copied.__dict__.update(self.__dict__)
        return copied


def text_box(
    shape: FontShape, state: TextState, operands: Sequence[object], tm: Matrix, ctm: Matrix
) -> tuple[Box | None, Matrix]:
    """The box on the page of the glyphs ``Tj``/``TJ`` shows (None: no glyph), and the
    text matrix after it (moved past the text): :func:`_quick_box` where the pen only
    moves forward within a string, else glyph by glyph."""
    quick = _quick_box(shape, state, operands)
    if quick is not None:
        box, pen = quick
        after = multiply((1, 0, 0, 1, pen, 0), tm)
        return (None if box is None else transformed_box(box, multiply(tm, ctm))), after
    return _glyph_box(shape, state, operands, tm, ctm)


#: A ``TJ`` array of hexadecimal strings and numbers as pikepdf writes it back (what
#: WeasyPrint writes: a string a glyph, a number between), each string of whole codes
#: (two hexadecimal digits a byte: one byte a code, or two), its strings and numbers:
#: read from that text at a fraction of the cost of its objects one by one.  Its items
#: are apart (pikepdf writes a space between two), so each is matched whole, never
#: given back (possessive): an array that does not match fails at once, not after
#: trying every way of splitting its numbers' digits.
_NUMBER_TEXT = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
_HEX_ARRAYS = {
    unit: re.compile(
        rb"\[(?:\s*+(?:<(?:[0-9A-Fa-f]{%d})*+>|[-+]?+(?:\d++\.?+\d*+|\.\d++)))*+\s*+\]" % unit
    )
    for unit in (2, 4)
}
#: A string's digits, or a number, in such an array, in their order.
_ITEM = re.compile(rb"<([0-9A-Fa-f]*)>|(%s)" % _NUMBER_TEXT)


@dataclass
class _Run:
    """What one operand of ``Tj``/``TJ`` shows: its strings' bytes, one after the other,
    and the sums of its positive and negative numbers (in thousandths of the size)."""

    data: bytes
    back: float = 0.0
    forward: float = 0.0


def _runs(operands: Sequence[object], two_byte: bool) -> list[_Run] | None:
    """Each operand as a :class:`_Run`, or None for an array that is not plain
    hexadecimal strings and numbers, each string of whole codes (two bytes each for
    ``two_byte``; read item by item: :func:`_glyph_box`)."""
    unit = 4 if two_byte else 2
    found = []
    for operand in operands:
        if isinstance(operand, pikepdf.String):
            found.append(_Run(bytes(operand)))
            continue
        if not isinstance(operand, pikepdf.Array):
            continue  # not a string: shows nothing
        text = operand.unparse()
        if not _HEX_ARRAYS[unit].fullmatch(text):
            return None
        items = _ITEM.findall(text)
        numbers = [float(number) for _, number in items if number]
        found.append(
            _Run(
                bytes.fromhex(
                    b"".join([digits for digits, number in items if not number]).decode()
                ),
                sum(n for n in numbers if n > 0),
                -sum(n for n in numbers if n < 0),
            )
        )
    return found


def _quick_box(
    shape: FontShape, state: TextState, operands: Sequence[object]
) -> tuple[Box | None, float] | None:
    """The glyphs' box in text space bounded by the whole font's glyph box from the
    least to the most pen position a run can reach (its numbers moving the pen back or
    forward at most by their sums), and the pen after the text; None when the pen may
    move back otherwise (a negative width, spacing or size), or for an array read
    item by item, where only :func:`_glyph_box` knows.  Several times cheaper, and
    nearly as tight (kerning moves by hundredths of an em)."""
    size, horizontal = state.size, state.horizontal
    across = size * horizontal
    if (
        across <= 0
        or size <= 0
        or state.char_spacing < 0
        or state.word_spacing < 0
        or shape.least_width < 0
    ):
        return None
    runs = _runs(operands, shape.two_byte)
    if runs is None:
        return None
    widths, default = shape.widths, shape.default_width
    spacing = state.char_spacing * horizontal
    pen = 0.0
    low, high = math.inf, -math.inf
    for run in runs:
        data = run.data
        if shape.two_byte:
            count = len(data) // 2
            codes: Sequence[int] = struct.unpack(f">{count}H", data[: count * 2])
        else:
            codes, count = data, len(data)
        moved = sum(map(widths.get, codes, repeat(default, count))) / 1000.0 * across
        moved += spacing * count
        if not shape.two_byte:
            moved += state.word_spacing * horizontal * data.count(32)
        if count:
            low = min(low, pen - run.back / 1000 * across)
            high = max(high, pen + moved + run.forward / 1000 * across)
        pen += moved - (run.back - run.forward) / 1000 * across
    if low > high:
        return None, pen
    x0, y0, x1, y1 = shape.whole
    box = (low + x0 * across, state.rise + y0 * size, high + x1 * across, state.rise + y1 * size)
    return box, pen


def _glyph_box(
    shape: FontShape, state: TextState, operands: Sequence[object], tm: Matrix, ctm: Matrix
) -> tuple[Box | None, Matrix]:
    """:func:`text_box` glyph by glyph, each at its pen position."""
    size, horizontal = state.size, state.horizontal
    across = size * horizontal
    pen = 0.0
    x_low = y_low = math.inf
    x_high = y_high = -math.inf
    glyphs, whole, widths, default = shape.glyphs, shape.whole, shape.widths, shape.default_width
    spacing = state.char_spacing * horizontal
    for operand in operands:
        items = list(operand) if isinstance(operand, pikepdf.Array) else [operand]
        for item in items:
            if not isinstance(item, pikepdf.String):
                with contextlib.suppress(TypeError, ValueError):  # not a number: ignored
                    pen -= float(item) / 1000 * across  # type: ignore[arg-type]
                continue
            data = bytes(item)
            if shape.two_byte:
                codes: Sequence[int] = struct.unpack(
                    f">{len(data) // 2}H", data[: len(data) // 2 * 2]
                )
            else:
                codes = data
            for code in codes:
                gx0, gy0, gx1, gy1 = glyphs.get(code, whole)
                if gx1 > gx0 or gy1 > gy0:  # not a glyph without an outline
                    one, two = pen + gx0 * across, pen + gx1 * across
                    x_low = min(x_low, one, two)
                    x_high = max(x_high, one, two)
                    y_low = min(y_low, gy0 * size, gy1 * size)
                    y_high = max(y_high, gy0 * size, gy1 * size)
                pen += widths.get(code, default) / 1000.0 * across + spacing
                if code == 32 and not shape.two_byte:
                    pen += state.word_spacing * horizontal
    after = multiply((1, 0, 0, 1, pen, 0), tm)
    if x_low > x_high:
        return None, after
    box = (x_low, y_low + state.rise, x_high, y_high + state.rise)
    return transformed_box(box, multiply(tm, ctm)), after
