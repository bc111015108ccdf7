"""The content interpreter: a page's painting followed closely enough to say which
flat colour lies under a point (paths, clips, images, text, forms, graphics states).

What the black overprint (:mod:`.overprint`) and the text checks (:mod:`.textcheck`)
read a page with; and the content-stream helpers the preflight's bounds and extents
share (:func:`read_instructions`, :func:`operand_numbers`, :func:`set_text_parameter`).
"""

from __future__ import annotations

import binascii
import contextlib
import copy
import itertools
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any, ClassVar

import pikepdf

from .geometry import IDENTITY, Box, Matrix, Point, apply, multiply

RULE_MAX_PT = 1.0
"""A black fill narrower than this (or a black stroke this wide, at most) is a rule:
it overprints like text.  Wider black areas keep knocking out (a solid black over art
would show the art through it, and add its ink)."""


#: A ground: its DeviceCMYK colour (0-1), or what it is when that is not known.
Ground = tuple[float, ...] | str
PAPER: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
_BLACK: tuple[float, ...] = (0.0, 0.0, 0.0, 1.0)
_EVERYWHERE: Box = (-1e7, -1e7, 1e7, 1e7)
_FILLS = {"f": False, "F": False, "f*": True, "B": False, "B*": True, "b": False, "b*": True}
#: Text rendering modes that fill, and that stroke, the glyphs.
FILL_MODES = frozenset({0, 2, 4, 6})
STROKE_MODES = frozenset({1, 2, 5, 6})
_CURVE_STEPS = 6
#: The weights of a cubic Bézier's four points at each flattened point (t = 1/6 ... 1):
#: ``(1-t)^3, 3 (1-t)^2 t, 3 (1-t) t^2, t^3``.
_CURVE_WEIGHTS = tuple(
    (u**3, 3 * u * u * t, 3 * u * t * t, t**3)
    for t, u in ((s / _CURVE_STEPS, 1 - s / _CURVE_STEPS) for s in range(1, _CURVE_STEPS + 1))
)
_MAX_SAMPLES = 32
_MAX_DEPTH = 12


def operand_numbers(operands: Sequence[Any]) -> list[float] | None:
    """The operands as numbers, None when one is not a number: an instruction's
    operands (or an array's items) may be any PDF object, and float() is the test."""
    try:
        return [float(v) for v in operands]
    except (TypeError, ValueError):
        return None


def _matrix(operands: Sequence[Any]) -> Matrix | None:
    """The operands as a matrix; None unless they are six numbers (such a matrix is
    ignored, as viewers do)."""
    numbers = operand_numbers(operands)
    if numbers is None or len(numbers) != 6:
        return None
    a, b, c, d, e, f = numbers
    return (a, b, c, d, e, f)


#: An edge of a polygon: (x0, y0, x1, y1).
Edge = tuple[float, float, float, float]
#: Horizontal bands a region's edges are sorted into (:meth:`_Region.contains`).
_BANDS = 32


@dataclass(frozen=True)
class _Region:
    """An area of the page: polygons (page space) filled by the nonzero or even-odd
    rule."""

    polygons: tuple[tuple[Point, ...], ...]
    even_odd: bool
    box: Box
    #: One axis-aligned rectangle (most clips and grounds): its box says it all.
    rectangle: bool = False
    #: The crossings of the horizontal line at a height, by height (:meth:`_row`).
    _rows: dict[float, tuple[tuple[float, int], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, polygons: Sequence[Sequence[Point]], even_odd: bool) -> _Region | None:
        kept = tuple(tuple(p) for p in polygons if len(p) >= 2)
        if not kept:
            return None
        xs, ys = zip(*itertools.chain.from_iterable(kept), strict=True)
        box = (min(xs), min(ys), max(xs), max(ys))  # geometry.bounds, without a list
        rectangle = False
        if len(kept) == 1:
            corners = {(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])}
            rectangle = set(kept[0]) <= corners and len(set(kept[0])) == 4
        return cls(kept, even_odd, box, rectangle)

    def with_rule(self, even_odd: bool) -> _Region:
        """The same polygons filled by the other rule (a path that fills and clips)."""
        if even_odd == self.even_odd:
            return self
        return _Region(self.polygons, even_odd, self.box, self.rectangle)

    @cached_property
    def _bands(self) -> tuple[float, float, tuple[tuple[Edge, ...], ...]]:
        """The polygons' edges (not horizontal) by horizontal band of the box: a point
        is tested against the few edges of its band, not every edge (the frame of a
        card, a ring of flattened curves, has dozens; ``contains`` runs thousands of
        times a page)."""
        edges = []
        for polygon in self.polygons:
            count = len(polygon)
            for i in range(count):
                (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % count]
                if y0 != y1:
                    edges.append((x0, y0, x1, y1))
        low, high = self.box[1], self.box[3]
        step = max((high - low) / _BANDS, 1e-9)
        bands: list[list[Edge]] = [[] for _ in range(_BANDS)]
        for edge in edges:
            first = min(_BANDS - 1, max(0, int((min(edge[1], edge[3]) - low) / step)))
            last = min(_BANDS - 1, max(0, int((max(edge[1], edge[3]) - low) / step)))
            for band in range(first, last + 1):
                bands[band].append(edge)
        return low, step, tuple(tuple(band) for band in bands)

    def _row(self, y: float) -> tuple[tuple[float, int], ...]:
        """Where the edges of the band of ``y`` cross the horizontal line at ``y``, and
        which way (1 upwards, -1 downwards).  Kept by height: a text's points are in two
        rows, looked at by the clips' test and then under the text, so most points
        are judged on a row already found."""
        row = self._rows.get(y)
        if row is None:
            low, step, bands = self._bands
            row = self._rows[y] = tuple(
                (x0 + (y - y0) * (x1 - x0) / (y1 - y0), 1 if y1 > y0 else -1)
                for x0, y0, x1, y1 in bands[min(_BANDS - 1, max(0, int((y - low) / step)))]
                if (y0 <= y) != (y1 <= y)
            )
        return row

    def contains(self, x: float, y: float) -> bool:
        """Whether ``(x, y)`` is inside: the crossings of the horizontal line through it
        on its right, counted (even-odd) or by direction (nonzero)."""
        box = self.box
        if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
            return False
        if self.rectangle:
            return True
        winding = crossings = 0
        for at, direction in self._row(y):
            if at > x:
                crossings += 1
                winding += direction
        return crossings % 2 == 1 if self.even_odd else winding != 0


_NOWHERE: Box = (math.inf, math.inf, -math.inf, -math.inf)


def _meet(one: Box, other: Box) -> Box:
    """The intersection of two boxes; :data:`_NOWHERE` when a side is not a number (no
    point is inside such a box: every comparison with NaN is false)."""
    if any(map(math.isnan, (*one, *other))):
        return _NOWHERE
    return (
        max(one[0], other[0]),
        max(one[1], other[1]),
        min(one[2], other[2]),
        min(one[3], other[3]),
    )


@dataclass(frozen=True)
class _Clips:
    """The clipping paths in force (page space), in the order they were set: a point is
    painted where all of them contain it.  Most are rectangles, which their boxes'
    intersection judges at once; only the others (:attr:`shapes`) are tested one by
    one."""

    regions: tuple[_Region, ...] = ()
    #: The intersection of the regions' boxes.
    box: Box = (-math.inf, -math.inf, math.inf, math.inf)
    #: The regions that are not one rectangle.
    shapes: tuple[_Region, ...] = ()

    def plus(self, region: _Region) -> _Clips:
        """These clips and ``region`` (a clip set within them)."""
        shapes = self.shapes if region.rectangle else (*self.shapes, region)
        return _Clips((*self.regions, region), _meet(self.box, region.box), shapes)

    def contains(self, x: float, y: float) -> bool:
        box = self.box
        if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
            return False
        return all(shape.contains(x, y) for shape in self.shapes)

    def inside(self, points: list[Point]) -> list[Point]:
        """The ``points`` these clips contain, in order."""
        x0, y0, x1, y1 = self.box
        kept = [p for p in points if x0 <= p[0] <= x1 and y0 <= p[1] <= y1]
        for shape in self.shapes:
            kept = [p for p in kept if shape.contains(p[0], p[1])]
        return kept


_UNCLIPPED = _Clips()


def _text_points(
    placed: Matrix, advance: float, count: int, heights: Sequence[float]
) -> list[Point]:
    """Points along a text (page space, by ``placed``): ``count`` steps from 2 % to
    98 % of its ``advance``, at each of the ``heights`` (text space), in that order;
    :func:`.geometry.apply`'s sums, with the products shared by a step's points."""
    a, b, c, d, e, f = placed
    across = [(c * height, d * height) for height in heights]
    points = []
    for i in range(count):
        along = advance * (0.02 + 0.96 * i / (count - 1))
        x, y = a * along, b * along
        points += [(x + cx + e, y + dy + f) for cx, dy in across]
    return points


@dataclass(frozen=True)
class Paint:
    """Something painted: where (within its clips) and in what colour."""

    region: _Region
    clips: _Clips
    colour: Ground
    #: The box of the region within its clips' boxes: a point outside is not covered.
    box: Box = field(init=False)
    #: What a point in :attr:`box` must also be in to be covered: the region and the
    #: clips that are not their box.
    shapes: tuple[_Region, ...] = field(init=False)
    #: An image XObject painted (``colour`` says "an image"), and the CTM it was drawn
    #: with, so that its pixels can be read under a point (:class:`TextCheck`).
    image: pikepdf.Object | None = None
    matrix: Matrix = IDENTITY

    def __post_init__(self) -> None:
        region = self.region
        shapes = self.clips.shapes if region.rectangle else (region, *self.clips.shapes)
        object.__setattr__(self, "box", _meet(region.box, self.clips.box))
        object.__setattr__(self, "shapes", shapes)


def _covering(paints: Sequence[Paint], x: float, y: float) -> Paint | None:
    """The first of ``paints`` that covers ``(x, y)``: in its box, and in each of its
    :attr:`Paint.shapes`; or None."""
    for paint in paints:
        box = paint.box
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            for shape in paint.shapes:
                if not shape.contains(x, y):
                    break
            else:
                return paint
    return None


@dataclass(frozen=True)
class _Colour:
    """A fill or stroke colour as set: its space (``cmyk`` for DeviceCMYK,
    ``pattern``, or ``other``) and values."""

    space: str = "other"
    values: tuple[float, ...] = (0.0,)


#: The colours a colour space starts with (DeviceCMYK's black) or leaves unknown.
_CMYK_BLACK = _Colour("cmyk", _BLACK)
_PATTERN = _Colour("pattern")
_OTHER = _Colour()


@dataclass
class _State:
    """The graphics state this reading needs (saved by q, restored by Q)."""

    ctm: Matrix = IDENTITY
    clips: _Clips = _UNCLIPPED
    fill: _Colour = field(default_factory=_Colour)
    stroke: _Colour = field(default_factory=_Colour)
    line_width: float = 1.0
    fill_alpha: float = 1.0
    stroke_alpha: float = 1.0
    #: A soft mask or a blend mode other than Normal is in force.
    blended: bool = False
    #: (OP, op, OPM) as the content set them.
    overprint: tuple[bool, bool, int] = (False, False, 0)
    font: pikepdf.Object | None = None
    font_size: float = 0.0
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    horizontal: float = 1.0
    leading: float = 0.0
    rise: float = 0.0
    mode: int = 0


def _written_items(written: bytes) -> list[bytes | float] | None:
    """The items of a TJ array as pikepdf writes it, ``[ <0044> 0 <0055> 15 () 0.5 ]``:
    the hex strings' bytes and the numbers (the float of their text, as of pikepdf's
    number); None when it holds anything else (a literal string but the empty one, a
    name, an array...), to be read from pikepdf's objects.  pikepdf makes a Python
    object of each item, which costs four times this reading: WeasyPrint writes a
    string and a number for every glyph."""
    tokens = written.split()
    if len(tokens) < 2 or tokens[0] != b"[" or tokens[-1] != b"]":
        return None
    items: list[bytes | float] = []
    try:
        for token in itertools.islice(tokens, 1, len(tokens) - 1):
            if token[0] == 60:  # "<": a hex string, whole (no spaces in it)
                if token[-1] != 62:  # not ">": a dictionary
                    return None
                items.append(binascii.unhexlify(token[1:-1]))
            elif token == b"()":
                items.append(b"")
            else:  # a number (a literal string, a name, true... are not floats)
                items.append(float(token))
    except ValueError:  # binascii.Error too
        return None
    return items


@dataclass(frozen=True)
class _GraphicsState:
    """What an ExtGState sets of the graphics state this reading follows (None: not
    set): its alpha, line width, soft mask, blend mode and overprint."""

    fill_alpha: float | None = None
    stroke_alpha: float | None = None
    line_width: float | None = None
    #: A soft mask other than /None (False: /None, which ends one).
    soft_mask: bool | None = None
    #: A blend mode other than Normal.
    blend: bool | None = None
    #: OP, op, OPM.
    overprint_stroke: bool | None = None
    overprint_fill: bool | None = None
    overprint_mode: int | None = None

    @classmethod
    def named(cls, resources: pikepdf.Dictionary, name: str) -> _GraphicsState | None:
        """The ExtGState ``name`` of ``resources``, None when there is none."""
        states = resources.get("/ExtGState")
        found = states.get(name) if isinstance(states, pikepdf.Dictionary) else None
        if not isinstance(found, pikepdf.Dictionary):
            return None
        numbers: list[float | None] = [None, None, None]  # /ca, /CA, /LW
        try:  # the first that is not a number ends the reading of the three
            for i, key in enumerate(("/ca", "/CA", "/LW")):
                if key in found:
                    numbers[i] = float(found[key])
        except (TypeError, ValueError):
            pass
        blend = None
        if "/BM" in found:
            mode = found.BM
            names = [str(m) for m in mode] if isinstance(mode, pikepdf.Array) else [str(mode)]
            blend = names[0] not in ("/Normal", "/Compatible")
        stroke = bool(found.OP) if "/OP" in found else None
        return cls(
            fill_alpha=numbers[0],
            stroke_alpha=numbers[1],
            line_width=numbers[2],
            soft_mask=str(found.SMask) != "/None" if "/SMask" in found else None,
            blend=blend,
            overprint_stroke=stroke,
            overprint_fill=bool(found.op) if "/op" in found else stroke,
            overprint_mode=int(found.OPM) if "/OPM" in found else None,
        )

    def apply(self, state: _State) -> None:
        """Set what this sets in ``state``."""
        if self.fill_alpha is not None:
            state.fill_alpha = self.fill_alpha
        if self.stroke_alpha is not None:
            state.stroke_alpha = self.stroke_alpha
        if self.line_width is not None:
            state.line_width = self.line_width
        if self.soft_mask is not None:
            state.blended = self.soft_mask
        if self.blend is not None:
            state.blended = state.blended or self.blend
        stroke, fill, mode = state.overprint
        state.overprint = (
            stroke if self.overprint_stroke is None else self.overprint_stroke,
            fill if self.overprint_fill is None else self.overprint_fill,
            mode if self.overprint_mode is None else self.overprint_mode,
        )


@dataclass
class _Metrics:
    """Glyph widths of a font (thousandths of the text size), enough to know where a
    string ends."""

    two_byte: bool
    widths: dict[int, float]
    default: float
    scale: float = 0.001

    @cached_property
    def _scaled(self) -> dict[int, float]:
        """The widths per unit of text size (:attr:`scale` applied), by code."""
        return {code: width * self.scale for code, width in self.widths.items()}

    def advance(self, items: Sequence[bytes | float], state: _State) -> float:
        """How far showing ``items`` (a text operator's strings and a TJ array's
        adjustments, in thousandths of the text size: :func:`shown_items`) moves the text
        position (text space, unscaled by the text matrix)."""
        size, horizontal = state.font_size, state.horizontal
        widths, missing = self._scaled, self.default * self.scale
        spacing = state.char_spacing + 0.0
        word = state.char_spacing + state.word_spacing  # after a single-byte space
        advance = 0.0
        for item in items:
            if not isinstance(item, bytes):
                advance -= item / 1000 * size * horizontal
                continue
            total = 0.0
            if self.two_byte:
                for i in range(0, len(item) - 1, 2):
                    width = widths.get(item[i] << 8 | item[i + 1], missing)
                    total += (width * size + spacing) * horizontal
            else:
                for code in item:
                    width = widths.get(code, missing)
                    total += (width * size + (word if code == 32 else spacing)) * horizontal
            advance += total
        return advance


def shown_items(operands: Sequence[Any]) -> list[bytes | float]:
    """What a text operator shows, in order: its strings' bytes, and the numbers a TJ
    array puts between them; other objects are left out."""
    if len(operands) == 1 and isinstance(operands[0], pikepdf.Array):
        written = _written_items(operands[0].unparse())
        if written is not None:
            return written
    items: list[bytes | float] = []
    for operand in operands:
        for item in operand if isinstance(operand, pikepdf.Array) else (operand,):
            kind = type(item)
            if kind is int or kind is Decimal:  # most items: tested first, at once
                items.append(float(item))
            elif isinstance(item, pikepdf.String):
                items.append(bytes(item))
            else:
                with contextlib.suppress(TypeError, ValueError):
                    items.append(float(item))
    return items


def text_metrics(font: pikepdf.Object | None) -> _Metrics:
    """The widths of ``font``: a Type0 font's /W and /DW (two-byte codes, as
    WeasyPrint's Identity-H), a simple font's /Widths, a Type3 font's scaled by its
    /FontMatrix; an unreadable font gives every glyph half an em."""
    if not isinstance(font, pikepdf.Dictionary):
        return _Metrics(False, {}, 500.0)
    try:
        if font.get("/Subtype") == "/Type0":
            descendants = font.get("/DescendantFonts")
            cid = descendants[0] if isinstance(descendants, pikepdf.Array) else None
            widths: dict[int, float] = {}
            listed: pikepdf.Object | list[pikepdf.Object] = (
                cid.get("/W", []) if isinstance(cid, pikepdf.Dictionary) else []
            )
            items, i = list(listed), 0
            while i < len(items) - 1:
                first = int(items[i])
                if isinstance(items[i + 1], pikepdf.Array):
                    for offset, width in enumerate(items[i + 1]):
                        widths[first + offset] = float(width)
                    i += 2
                elif i + 2 < len(items):
                    for code in range(first, min(int(items[i + 1]), first + 65536) + 1):
                        widths[code] = float(items[i + 2])
                    i += 3
                else:
                    break
            default = float(cid.get("/DW", 1000)) if isinstance(cid, pikepdf.Dictionary) else 1000.0
            return _Metrics(True, widths, default)
        first = int(font.get("/FirstChar", 0))
        widths = {first + i: float(w) for i, w in enumerate(font.get("/Widths", []))}
        descriptor = font.get("/FontDescriptor")
        missing = (
            float(descriptor.get("/MissingWidth", 0))
            if isinstance(descriptor, pikepdf.Dictionary)
            else 0.0
        )
        scale = 0.001
        if font.get("/Subtype") == "/Type3":
            matrix = operand_numbers(list(font.get("/FontMatrix", [0.001])))
            scale = abs(matrix[0]) if matrix else 0.001
        return _Metrics(False, widths, missing, scale)
    except (TypeError, ValueError, KeyError, AttributeError, pikepdf.PdfError):
        return _Metrics(False, {}, 500.0)


#: The widths of composite fonts read, by what they are read from (:func:`_widths_key`):
#: the card files of a batch each have their own copy of the batch's fonts.
_WIDTHS: dict[tuple[bytes, str], _Metrics] = {}
_WIDTHS_KEPT = 64
#: A /W array of numbers alone (a reference to another object would read ``n 0 R``).
_NUMBERS_ONLY = re.compile(rb"[0-9.+\-\[\]\s]*")


def _widths_key(font: pikepdf.Object | None) -> tuple[bytes, str] | None:
    """What :func:`text_metrics` reads a composite font's widths from, written out (its
    /W, and its /DW); None for another font, or one whose /W is not numbers alone."""
    if not isinstance(font, pikepdf.Dictionary) or font.get("/Subtype") != "/Type0":
        return None
    descendants = font.get("/DescendantFonts")
    if not isinstance(descendants, pikepdf.Array) or len(descendants) == 0:
        return None
    cid = descendants[0]
    widths = cid.get("/W") if isinstance(cid, pikepdf.Dictionary) else None
    if not isinstance(widths, pikepdf.Array):
        return None
    written = widths.unparse(resolved=True)
    if not _NUMBERS_ONLY.fullmatch(written):
        return None
    return written, repr(cid.get("/DW", 1000))


def _kept_metrics(font: pikepdf.Object | None) -> _Metrics:
    """:func:`text_metrics` of ``font``, read once for the copies of one composite font."""
    key = _widths_key(font)
    if key is None:
        return text_metrics(font)
    found = _WIDTHS.get(key)
    if found is None:
        if len(_WIDTHS) >= _WIDTHS_KEPT:
            _WIDTHS.clear()
        found = _WIDTHS[key] = text_metrics(font)
    return found


@dataclass
class Show:
    """A text-showing operator, as painted."""

    #: How many paints came before it (its ground is among them).
    ground: int
    #: Points of its glyph area (page space) to look at the ground under.
    points: list[Point]
    #: The text size on the page, in points.
    size: float
    fill: _Colour
    stroke: _Colour
    mode: int
    #: Plain painting: opaque, Normal blend, no soft mask.
    opaque: bool
    overprint: tuple[bool, bool, int]
    where: str
    #: The index of the operator in the page's content, and of the BT that opens its
    #: text object (None inside a form).
    index: int | None
    text_object: int | None
    #: The operator's operands (its strings) and font, to name the text and its weight.
    operands: Sequence[object] = ()
    font: pikepdf.Object | None = None
    #: Where it is printed, to read the page's text in order (:func:`reading_order`): its
    #: text matrix times the CTM (page space; None when not placed) and how far it
    #: moves along its line (text space).
    line: Matrix | None = None
    advance: float = 0.0


@dataclass
class _Rule:
    """A pure black path painted: whether it is thin, the points under it."""

    ground: int
    points: list[Point]
    thin: bool
    opaque: bool
    overprint: tuple[bool, bool, int]
    #: The indexes of the path's first operator and of its painting operator.
    start: int
    index: int


@dataclass
class _Walk:
    """The interpreter's state while it reads one content stream: the graphics state
    (and those saved by ``q``), the path being built, the text matrices and the text
    object open; and what the stream is (its resources, where it is, whether it is
    the page's own content)."""

    resources: object
    state: _State
    where: str
    top: bool
    saved: list[_State] = field(default_factory=list)
    path: list[list[Point]] = field(default_factory=list)
    #: The index of the current path's first operator.
    path_start: int | None = None
    #: ``W`` (False) or ``W*`` (True) pending: the next painted path also clips.
    clip: bool | None = None
    tm: Matrix = IDENTITY
    tlm: Matrix = IDENTITY
    #: The index of the ``BT`` of the text object open.
    text_object: int | None = None
    #: The ExtGStates and the fonts of :attr:`resources` found so far, by name.
    graphics: dict[str, _GraphicsState | None] = field(default_factory=dict)
    fonts: dict[str, pikepdf.Object | None] = field(default_factory=dict)


#: A handler of :meth:`Painter._walk`: (painter, walk, operands, operator, index).
_Handler = Callable[["Painter", _Walk, Sequence[Any], str, int], None]


class Painter:
    """Follows a page's painting: every fill, image and shading as a :class:`Paint`
    (in order), every text shown as a :class:`Show`, every black path as a
    :class:`_Rule`.

    It reads as much of PDF's imaging model as deciding what colour lies under a
    point needs: the CTM, clipping paths (nonzero and even-odd), path geometry
    (curves flattened), DeviceCMYK fill colours, images and shadings (colours not
    known), forms (their matrix, bounding box and resources) and text positions (the
    fonts' widths).  Strokes are not a ground (thin lines); text is not a ground."""

    def __init__(self, operators: str = "", grounds: bool = True) -> None:
        #: Only these operators are read (qpdf filters them, far faster than Python),
        #: or all of them.
        self.operators = operators
        #: Whether text is placed (its points, to look at the ground under them).
        self.grounds = grounds
        self.paints: list[Paint] = []
        self.shows: list[Show] = []
        self.rules: list[_Rule] = []
        self.text_gs: set[int] = set()
        self.text_metrics: dict[tuple[int, int], _Metrics] = {}
        self._walking: list[tuple[int, int]] = []

    # -- entry

    def walked(
        self, page: pikepdf.Page, parsed: Sequence[tuple[str, Sequence[Any]]] | None = None
    ) -> Painter:
        """Read ``page``; this painter.  ``parsed``: the page's content already parsed,
        as (operator, operands), with at least every operator this painter reads
        (:data:`PAINTED_OPERATORS`): only those of :attr:`operators` are read."""
        if parsed is None:
            self.page(page)
            return self
        wanted = set(self.operators.split()) if self.operators else None
        if wanted is not None and "BI" in wanted:
            wanted.add("INLINE IMAGE")
        kept = parsed if wanted is None else [i for i in parsed if i[0] in wanted]
        self._walk(kept, page.obj.get("/Resources"), _State(), "page content", top=True)
        return self

    def page(self, page: pikepdf.Page) -> list[Any]:
        """Read ``page`` (and the forms it draws); its parsed content, to edit."""
        instructions = pikepdf.parse_content_stream(page, self.operators)
        resources = page.obj.get("/Resources")
        self._walk(instructions, resources, _State(), "page content", top=True)
        return instructions

    def grounds_of(self, points: Sequence[Point], before: int) -> Iterator[Ground]:
        """The colour under each of ``points`` of the paints before the ``before``-th:
        the last that covers the point, paper where none does (:meth:`under`)."""
        for paint in self.under(points, before):
            yield PAPER if paint is None else paint.colour

    def under(self, points: Sequence[Point], before: int) -> Iterator[Paint | None]:
        """The last of the paints before the ``before``-th that covers each of
        ``points``, or None (paper): one point after the other (a caller may stop at
        the first it refuses).

        The paints whose box is clear of all the points are left out first: a text's
        ground is looked for at a few dozen points, each through the paints from the
        last back to the first that covers it, often the card's background, far back."""
        if not points:
            return
        paints = self.paints[:before]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        low_x, low_y, high_x, high_y = min(xs), min(ys), max(xs), max(ys)
        if not any(map(math.isnan, (low_x, low_y, high_x, high_y))):
            paints = [
                p
                for p in paints
                if p.box[0] <= high_x
                and p.box[2] >= low_x
                and p.box[1] <= high_y
                and p.box[3] >= low_y
            ]
        paints.reverse()
        for x, y in points:
            yield _covering(paints, x, y)

    # -- the interpreter

    def _walk(
        self, instructions: Sequence[Any], resources: object, state: _State, where: str, top: bool
    ) -> None:
        """Interpret ``instructions``, drawn with ``resources`` from ``state``: each operator
        the painter follows has its handler (:attr:`_HANDLERS`), the others change
        nothing it looks at.  ``top``: the page's own content (not a form's), the only one
        whose operators are recorded by index, to be edited."""
        walk = _Walk(resources, state, where, top)
        handlers = self._HANDLERS
        for index, op, operands in _operations(instructions):
            handlers[op](self, walk, operands, op, index)

    # The handlers of _walk, one per family of operators: (walk, operands, operator, its
    # index in the content stream).

    def _save(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``q``: the graphics state saved, for ``Q`` to restore."""
        saved = _State.__new__(_State)  # copy.copy, at a fifth of its cost
        saved.__dict__.update(walk.state.__dict__)
        walk.saved.append(saved)

    def _restore(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Q``: the last saved graphics state back (a ``Q`` too many changes nothing)."""
        if walk.saved:
            walk.state = walk.saved.pop()

    def _transform(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``cm``: the CTM multiplied by the operands' matrix (one that is not six numbers
        is ignored, as viewers do)."""
        matrix = _matrix(operands)
        if matrix is not None:
            walk.state.ctm = multiply(matrix, walk.state.ctm)

    # ``m l c v y h re``: points added to the current path (page space); the index of
    # its first operator is kept, as the start of a rule to edit.  Operands that are not
    # the operator's numbers add nothing.

    def _move(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``m``: a new subpath."""
        if not walk.path:
            walk.path_start = index
        values = operand_numbers(operands)
        if values is not None and len(values) == 2:
            walk.path.append([apply(walk.state.ctm, values[0], values[1])])

    def _line(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``l``: a straight segment."""
        path = walk.path
        if not path:
            walk.path_start = index
            return
        values = operand_numbers(operands)
        if values is not None and len(values) == 2:
            path[-1].append(apply(walk.state.ctm, values[0], values[1]))

    def _curve(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``c v y``: a cubic Bézier segment (``v``: its first control point is the
        current point, ``y``: its second is its end), flattened."""
        path = walk.path
        if not path:
            walk.path_start = index
            return
        values = operand_numbers(operands)
        if not values or not path[-1]:
            return
        ctm = walk.state.ctm
        points = [apply(ctm, values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
        start = path[-1][-1]
        if op == "c" and len(points) == 3:
            one, two, end = points
        elif op == "v" and len(points) == 2:
            one, (two, end) = start, points
        elif op == "y" and len(points) == 2:
            (one, end), two = points, points[1]
        else:
            return
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = start, one, two, end
        path[-1] += [
            (w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3, w0 * y0 + w1 * y1 + w2 * y2 + w3 * y3)
            for w0, w1, w2, w3 in _CURVE_WEIGHTS
        ]

    def _rectangle(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``re``: a closed rectangular subpath."""
        if not walk.path:
            walk.path_start = index
        values = operand_numbers(operands)
        if values is not None and len(values) == 4:
            x, y, w, h = values
            ctm = walk.state.ctm
            walk.path.append(
                [
                    apply(ctm, x, y),
                    apply(ctm, x + w, y),
                    apply(ctm, x + w, y + h),
                    apply(ctm, x, y + h),
                ]
            )

    def _close(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``h``: the subpath closed (every subpath is read as closed already)."""
        if not walk.path:
            walk.path_start = index

    def _clip(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``W``, ``W*``: the path about to be painted also clips (nonzero, even-odd)."""
        walk.clip = op == "W*"

    def _paint_path(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """A fill, stroke or ``n``: the path recorded as painted, the clip it sets applied
        to what follows, and a new path begun."""
        region = _Region.of(walk.path, _FILLS.get(op, False))
        if region is not None:
            self._painted(op, region, walk.state, walk.top, walk.path_start, index)
            if walk.clip is not None:
                walk.state.clips = walk.state.clips.plus(region.with_rule(walk.clip))
        walk.path, walk.path_start, walk.clip = [], None, None

    def _set_colour(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """A colour or colour space set, for filling or stroking."""
        self._colour(op, operands, walk.state)

    def _line_width(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``w``: the line width, which tells a thin rule from a thick one."""
        width = operand_numbers(operands)
        if width:
            walk.state.line_width = width[0]

    def _set_graphics_state(
        self, walk: _Walk, operands: Sequence[Any], op: str, index: int
    ) -> None:
        """``gs``: an ExtGState applied (each read once a stream).  A page's text object
        that sets one is noted: an overprint state wrapped around that whole object
        would be undone inside it."""
        if operands and isinstance(walk.resources, pikepdf.Dictionary):
            name = str(operands[0])
            if name not in walk.graphics:
                walk.graphics[name] = _GraphicsState.named(walk.resources, name)
            found = walk.graphics[name]
            if found is not None:
                found.apply(walk.state)
        if walk.text_object is not None and walk.top:
            self.text_gs.add(walk.text_object)

    def _begin_text(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``BT``: a text object opens, its matrices reset; its index is kept, to wrap it."""
        walk.tm = walk.tlm = IDENTITY
        walk.text_object = index

    def _end_text(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``ET``: the text object closes."""
        walk.text_object = None

    def _set_text_state(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Tc Tw Tz TL Ts Tr Tf``: spacing, scaling, leading, rise, mode or font (each
        font found once a stream)."""
        if op == "Tf" and len(operands) == 2:
            name = str(operands[0])
            if name not in walk.fonts:
                resources = walk.resources
                fonts = (
                    resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
                )
                walk.fonts[name] = (
                    fonts.get(name) if isinstance(fonts, pikepdf.Dictionary) else None
                )
            walk.state.font = walk.fonts[name]
            size = operand_numbers(operands[1:])
            walk.state.font_size = size[0] if size else 0.0
            return
        self._text_state(op, operands, walk.state)

    def _next_line(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Td TD T* ' "``: the text line moved (by the operands, or down one leading);
        ``'`` and ``"`` then show their text there (``"`` after setting the spacings)."""
        state = walk.state
        if op in ("TD", "Td"):
            moved = operand_numbers(operands)
            if moved and len(moved) == 2:
                if op == "TD":
                    state.leading = -moved[1]
                walk.tlm = multiply((1, 0, 0, 1, moved[0], moved[1]), walk.tlm)
        else:
            if op == '"':
                spacing = operand_numbers(operands[:2])
                if spacing and len(spacing) == 2:
                    state.word_spacing, state.char_spacing = spacing
            walk.tlm = multiply((1, 0, 0, 1, 0, -state.leading), walk.tlm)
        walk.tm = walk.tlm
        if op in ("'", '"'):
            self._show_text(walk, operands[-1:], op, index)

    def _text_matrix(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Tm``: the text matrix and the line matrix set."""
        matrix = _matrix(operands)
        if matrix is not None:
            walk.tm = walk.tlm = matrix

    def _show_text(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Tj``, ``TJ``: a text shown, the text matrix moved past it."""
        walk.tm = self._show(
            operands,
            walk.state,
            walk.tm,
            walk.where,
            index if walk.top else None,
            walk.text_object if walk.top else None,
        )

    def _draw_object(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``Do``: an image or a form drawn."""
        self._do(operands, walk.resources, walk.state, walk.where)

    def _paint_shading(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """``sh``: a shading paints its whole clip, in colours not known."""
        x0, y0, x1, y1 = _EVERYWHERE
        region = _Region.of([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], False)
        if region is not None:
            self.paints.append(Paint(region, walk.state.clips, "a shading"))

    def _inline_image(self, walk: _Walk, operands: Sequence[Any], op: str, index: int) -> None:
        """An inline image: it paints, in colours not known."""
        self._image(walk.state, "an image", None)

    _HANDLERS: ClassVar[dict[str, _Handler]] = {
        "q": _save,
        "Q": _restore,
        "cm": _transform,
        "m": _move,
        "l": _line,
        **dict.fromkeys(("c", "v", "y"), _curve),
        "re": _rectangle,
        "h": _close,
        **dict.fromkeys(("W", "W*"), _clip),
        **dict.fromkeys((*_FILLS, "S", "s", "n"), _paint_path),
        **dict.fromkeys(
            ("k", "K", "g", "G", "rg", "RG", "cs", "CS", "sc", "SC", "scn", "SCN"), _set_colour
        ),
        "w": _line_width,
        "gs": _set_graphics_state,
        "BT": _begin_text,
        "ET": _end_text,
        **dict.fromkeys(("Tc", "Tw", "Tz", "TL", "Ts", "Tr", "Tf"), _set_text_state),
        **dict.fromkeys(("Td", "TD", "T*", "'", '"'), _next_line),
        "Tm": _text_matrix,
        **dict.fromkeys(("Tj", "TJ"), _show_text),
        "Do": _draw_object,
        "sh": _paint_shading,
        "INLINE IMAGE": _inline_image,
    }

    def _painted(
        self, op: str, region: _Region, state: _State, top: bool, start: int | None, index: int
    ) -> None:
        """A path painted (its ``region``): a ground when filled; a rule when pure black."""
        opaque = not state.blended
        if op in _FILLS:
            opaque = opaque and state.fill_alpha >= 1.0
            self.paints.append(Paint(region, state.clips, _ground(state.fill, opaque)))
            if top and start is not None and op in ("f", "F", "f*") and is_black(state.fill):
                width = min(region.box[2] - region.box[0], region.box[3] - region.box[1])
                self.rules.append(
                    _Rule(
                        len(self.paints) - 1,
                        _along(region.box),
                        width <= RULE_MAX_PT,
                        opaque,
                        state.overprint,
                        start,
                        index,
                    )
                )
        elif op in ("S", "s") and top and start is not None and is_black(state.stroke):
            scale = math.sqrt(abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2]))
            points = [p for polygon in region.polygons for p in polygon][:_MAX_SAMPLES]
            self.rules.append(
                _Rule(
                    len(self.paints),
                    points,
                    state.line_width * scale <= RULE_MAX_PT,
                    opaque and state.stroke_alpha >= 1.0,
                    state.overprint,
                    start,
                    index,
                )
            )

    @staticmethod
    def _colour(op: str, operands: Sequence[object], state: _State) -> None:
        stroke = op.isupper()
        current = state.stroke if stroke else state.fill
        lower = op.lower()
        if lower == "k":
            values = operand_numbers(operands)
            colour = _Colour("cmyk", tuple(values)) if values and len(values) == 4 else _OTHER
        elif lower in ("g", "rg"):
            colour = _OTHER
        elif lower == "cs":
            name = str(operands[0]) if operands else ""
            colour = (
                _CMYK_BLACK
                if name in ("/DeviceCMYK", "/CMYK")
                else _PATTERN
                if name == "/Pattern"
                else _OTHER
            )
        elif operands and isinstance(operands[-1], pikepdf.Name):  # scn /Pattern name
            colour = _PATTERN
        elif current.space == "cmyk":  # sc, scn: values in the current space
            values = operand_numbers(operands)
            colour = _Colour("cmyk", tuple(values)) if values and len(values) == 4 else current
        else:
            colour = current
        if stroke:
            state.stroke = colour
        else:
            state.fill = colour

    @staticmethod
    def _text_state(op: str, operands: Sequence[object], state: _State) -> None:
        if op == "Tf":  # without its two operands: nothing
            return
        values = operand_numbers(operands)
        if not values:
            return
        if op == "Tr":
            state.mode = int(values[0])
        else:
            set_text_parameter(state, op, values[0])

    def _font_metrics(self, font: pikepdf.Object | None) -> _Metrics:
        key = font.objgen if isinstance(font, pikepdf.Object) and font.is_indirect else None
        if key is None:
            return text_metrics(font)
        if key not in self.text_metrics:
            self.text_metrics[key] = _kept_metrics(font)
        return self.text_metrics[key]

    def _show(
        self,
        operands: Sequence[object],
        state: _State,
        tm: Matrix,
        where: str,
        index: int | None,
        text_object: int | None,
    ) -> Matrix:
        """Record a text shown; the text matrix after it."""
        if not self.grounds:  # its colour and size only (where it is: not needed)
            placed = multiply(tm, state.ctm)
            self.shows.append(
                Show(
                    len(self.paints),
                    [],
                    state.font_size * math.hypot(placed[2], placed[3]),
                    state.fill,
                    state.stroke,
                    state.mode,
                    True,
                    state.overprint,
                    where,
                    index,
                    text_object,
                    operands,
                    state.font,
                )
            )
            return tm
        advance = self._font_metrics(state.font).advance(shown_items(operands), state)
        placed = multiply(tm, state.ctm)
        size = state.font_size * math.hypot(placed[2], placed[3])
        low, high = state.rise + 0.15 * state.font_size, state.rise + 0.5 * state.font_size
        # Two rows of points, an em apart along the line (a ground changing under a
        # text changes over more than an em), at least both ends.
        count = max(
            2, min(_MAX_SAMPLES // 2, math.ceil(abs(advance) / max(state.font_size, 1e-6)) + 1)
        )
        points = state.clips.inside(_text_points(placed, advance, count, (low, high)))
        if points and state.mode not in (3, 7):
            opaque = (
                not state.blended
                and state.fill_alpha >= 1.0
                and (state.mode not in STROKE_MODES or state.stroke_alpha >= 1.0)
            )
            self.shows.append(
                Show(
                    len(self.paints),
                    points,
                    size,
                    state.fill,
                    state.stroke,
                    state.mode,
                    opaque,
                    state.overprint,
                    where,
                    index,
                    text_object,
                    operands,
                    state.font,
                    placed,
                    advance,
                )
            )
        return multiply((1, 0, 0, 1, advance, 0), tm)

    def _do(self, operands: Sequence[object], resources: object, state: _State, where: str) -> None:
        if not operands or not isinstance(resources, pikepdf.Dictionary):
            return
        xobjects = resources.get("/XObject")
        xobject = (
            xobjects.get(str(operands[0])) if isinstance(xobjects, pikepdf.Dictionary) else None
        )
        if not isinstance(xobject, pikepdf.Stream):
            return
        if xobject.get("/Subtype") == "/Image":
            self._image(state, "an image", xobject)
        elif xobject.get("/Subtype") == "/Form":
            self._form(str(operands[0]), xobject, resources, state, where)

    def _image(self, state: _State, what: str, image: pikepdf.Object | None) -> None:
        """An image covers the unit square of the CTM; a stencil mask paints the fill
        colour."""
        ctm = state.ctm
        region = _Region.of(
            [[apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 1, 1), apply(ctm, 0, 1)]], False
        )
        if region is None:
            return
        stencil = image is not None and bool(image.get("/ImageMask", False))
        colour: Ground = (
            _ground(state.fill, state.fill_alpha >= 1.0 and not state.blended) if stencil else what
        )
        plain = not (stencil or state.blended or state.fill_alpha < 1.0)  # its pixels show
        self.paints.append(Paint(region, state.clips, colour, image if plain else None, ctm))

    def _form(
        self, name: str, form: pikepdf.Stream, resources: object, state: _State, where: str
    ) -> None:
        """A form: its matrix, bounding box (a clip) and resources; each form is read
        in every place it is drawn, never inside itself."""
        if form.objgen in self._walking or len(self._walking) >= _MAX_DEPTH:
            return
        inner = copy.copy(state)
        matrix = _matrix(list(form.get("/Matrix", [])))
        if matrix is not None:
            inner.ctm = multiply(matrix, state.ctm)
        box = operand_numbers(list(form.get("/BBox", [])))
        if box is not None and len(box) == 4:
            x0, y0, x1, y1 = box
            region = _Region.of(
                [
                    [
                        apply(inner.ctm, x0, y0),
                        apply(inner.ctm, x1, y0),
                        apply(inner.ctm, x1, y1),
                        apply(inner.ctm, x0, y1),
                    ]
                ],
                False,
            )
            if region is not None:
                inner.clips = inner.clips.plus(region)
        if "/Group" in form:
            inner.blended = inner.blended or state.fill_alpha < 1.0
        self._walking.append(form.objgen)
        try:
            instructions = pikepdf.parse_content_stream(form, self.operators)
            label = f"form {name}" if where == "page content" else f"form {name} in {where}"
            self._walk(instructions, form.get("/Resources", resources), inner, label, top=False)
        except pikepdf.PdfError:
            pass
        finally:
            self._walking.pop()


#: Every operator :class:`Painter` reads (``INLINE IMAGE``: ``BI ... EI``).
PAINTED_OPERATORS = frozenset(Painter._HANDLERS)

#: The operators whose operands are numbers alone (in well-formed content).
NUMERIC_OPERATORS = frozenset(
    {"m", "l", "c", "v", "y", "re", "cm", "w", "M", "j", "J", "i", "Tm", "Td", "TD"}
    | {"Tc", "Tw", "Tz", "TL", "Ts", "Tr", "k", "K", "g", "G", "rg", "RG", "sc", "SC"}
    | {"scn", "SCN"}
)


def read_instructions(instructions: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """pikepdf's parsed ``instructions`` as (operator, operands), the operands of
    :data:`NUMERIC_OPERATORS` as floats: what this module's painter and the
    preflight's readers take (each takes ``float()`` of them).

    pikepdf gives each real operand as a Decimal made from its text, which costs more
    than the rest of the reading of a path: the numbers are read from the content as
    pikepdf writes it back instead, one instruction a line (an inline image's data may
    hold line ends: then every operand is converted from pikepdf's), as the floats of
    the same text.  An operand that is not a number (a pattern's name before ``scn``)
    leaves that instruction's operands as pikepdf has them."""
    lines = pikepdf.unparse_content_stream(instructions).split(b"\n") if instructions else []
    if len(lines) != len(instructions):
        return [_numbers(str(i.operator), i.operands) for i in instructions]
    read: list[tuple[str, list[Any]]] = []
    for instruction, line in zip(instructions, lines, strict=True):
        cut = line.rfind(b" ")
        op = line[cut + 1 :].decode("latin-1")
        if op in NUMERIC_OPERATORS and cut > 0:
            try:
                read.append((op, [float(number) for number in line[:cut].split()]))
                continue
            except ValueError:
                pass
            read.append(_numbers(op, instruction.operands))
        else:
            read.append((op, list(instruction.operands)))
    return read


def _numbers(op: str, operands: Sequence[Any]) -> tuple[str, list[Any]]:
    """(``op``, its operands as floats when it is an operator of numbers and they all
    are, else as they are)."""
    if op in NUMERIC_OPERATORS and operands:
        try:
            return op, [float(value) for value in operands]
        except (TypeError, ValueError):
            pass  # a name (scn /P0) or a malformed operand: read as it is
    return op, list(operands)


def _operations(instructions: Sequence[Any]) -> Iterator[tuple[int, str, Sequence[Any]]]:
    """(index, operator, operands) of each of ``instructions`` that :class:`Painter`
    reads (:data:`PAINTED_OPERATORS`): pikepdf's (:func:`read_instructions`), or
    (operator, operands) pairs read already, given as they are."""
    if instructions and not isinstance(instructions[0], tuple):
        instructions = read_instructions(instructions)
    for index, (op, operands) in enumerate(instructions):
        if op in PAINTED_OPERATORS:
            yield index, op, operands


#: The text state's parameters set by one number (``Tz`` in percent), by operator: the
#: attribute of the same name on every reader's text state (this module's painter, the
#: preflight's ink bound).
TEXT_PARAMETERS = {
    "Tc": "char_spacing",
    "Tw": "word_spacing",
    "Tz": "horizontal",
    "TL": "leading",
    "Ts": "rise",
}


def set_text_parameter(state: object, op: str, value: float) -> None:
    """Set the text parameter of ``op`` (:data:`TEXT_PARAMETERS`) on ``state``."""
    setattr(state, TEXT_PARAMETERS[op], value / 100 if op == "Tz" else value)


def is_black(colour: _Colour) -> bool:
    """Pure black: DeviceCMYK 0 0 0 1."""
    return (
        colour.space == "cmyk"
        and len(colour.values) == 4
        and all(abs(v - b) < 1e-6 for v, b in zip(colour.values, _BLACK, strict=True))
    )


def is_white(colour: _Colour) -> bool:
    """Paper white: DeviceCMYK 0 0 0 0 (no ink at all)."""
    return colour.space == "cmyk" and all(abs(v) < 1e-6 for v in colour.values)


def _ground(colour: _Colour, opaque: bool) -> Ground:
    """What a fill leaves as the ground: its DeviceCMYK colour, or what it is."""
    if not opaque:
        return "a transparent fill"
    if colour.space == "cmyk" and len(colour.values) == 4:
        return tuple(min(1.0, max(0.0, v)) for v in colour.values)
    return "a pattern" if colour.space == "pattern" else "a colour that is not DeviceCMYK"


def _along(box: Box) -> list[Point]:
    """Points along the middle of a box's long side (a rule's ground)."""
    x0, y0, x1, y1 = box
    count = 8
    if x1 - x0 >= y1 - y0:
        return [
            (x0 + (x1 - x0) * (0.02 + 0.96 * i / (count - 1)), (y0 + y1) / 2) for i in range(count)
        ]
    return [((x0 + x1) / 2, y0 + (y1 - y0) * (0.02 + 0.96 * i / (count - 1))) for i in range(count)]
