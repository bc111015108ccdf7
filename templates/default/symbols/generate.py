"""Draw the card-text symbols: ``python generate.py [DIR]`` writes ``<code>.svg`` (into
this directory by default).

The drawings are our own: discs, plates and arrows are geometry computed here; digits
and letters are the outlines of Gentium Plus Bold (SIL International, SIL Open Font
License 1.1, Debian ``fonts-sil-gentiumplus``; another copy of the font can be named
with $SYMBOL_FONT), read with fontTools and written into the files as path data, so
that printing needs no font.

Units are hundredths of an em at the size a symbol is meant to print (9 pt text at
1.25 leading): a cypher disc is 100 × 100 (1 em), the inline arrow 110 × 100, a large
mark 210 × 225 (beside two lines), a column mark 130 wide.  Every shape is filled in
DeviceCMYK, which WeasyPrint keeps: the body in black ink only (``device-cmyk(0 0 0
1)``: at text size a rich black would mis-register around the white figures),
knock-outs in paper white (``device-cmyk(0 0 0 0)``).  No strokes, gradients,
opacity, filters, masks or ids.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

FONT = Path(
    os.environ.get("SYMBOL_FONT", "/usr/share/fonts/truetype/gentiumplus/GentiumPlus-Bold.ttf")
)
FIGURE_TOP, CAP_TOP = 1235, 1260  # figure and cap height of Gentium Plus Bold (font units)
INK = "device-cmyk(0 0 0 1)"
PAPER = "device-cmyk(0 0 0 0)"
HERE = Path(__file__).resolve().parent

Point = tuple[float, float]
Curve = Callable[[float], Point]


def num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def pt(p: Point) -> str:
    return f"{num(p[0])} {num(p[1])}"


# --- glyph outlines ---------------------------------------------------------------


@cache
def _font() -> TTFont:
    return TTFont(FONT)


def glyph_path(char: str, cx: float, cy: float, height: float) -> str:
    """The outline of ``char``, scaled so that its cap (or figure) height is ``height``,
    with that height's middle at ``cy`` (overshoots stick out evenly) and its ink box
    centred on ``cx``."""
    glyphs = _font().getGlyphSet()
    glyph = glyphs[_font().getBestCmap()[ord(char)]]
    bounds = BoundsPen(glyphs)
    glyph.draw(bounds)
    x0, _y0, x1, _y1 = bounds.bounds
    scale = height / (FIGURE_TOP if char.isdigit() else CAP_TOP)
    dx = cx - (x0 + x1) / 2 * scale
    dy = cy + height / 2  # baseline
    pen = SVGPathPen(glyphs, ntos=num)
    glyph.draw(TransformPen(pen, (scale, 0, 0, -scale, dx, dy)))
    return pen.getCommands()


# --- curves -----------------------------------------------------------------------


def curve(f: Curve, df: Curve, t0: float, t1: float, pieces: int) -> list[str]:
    """Cubic Bézier segments (``C`` commands) following ``f`` (derivative ``df``) from
    ``t0`` to ``t1``: each piece is the Hermite cubic of its end points and tangents."""
    out = []
    step = (t1 - t0) / pieces
    for i in range(pieces):
        a, b = t0 + i * step, t0 + (i + 1) * step
        pa, pb = f(a), f(b)
        da, db = df(a), df(b)
        c1 = (pa[0] + da[0] * step / 3, pa[1] + da[1] * step / 3)
        c2 = (pb[0] - db[0] * step / 3, pb[1] - db[1] * step / 3)
        out.append(f"C{pt(c1)} {pt(c2)} {pt(pb)}")
    return out


class Arrow:
    """A clockwise arc arrow around (cx, cy), centre-line radius ``r``, from angle
    ``a0`` to ``a1`` (degrees, screen coordinates: 0 east, 90 south), swelling from
    width ``w0`` at the tail to ``w1`` at the head.  The head is ``head_w`` wide and
    ``head_l`` long, its tip on the centre line, its barbs swept back by ``sweep``
    (a fraction of its length).  ``stem`` > 0 adds a straight tail of that length
    going down from the start (which must then be at 180°, west)."""

    def __init__(
        self,
        r: float,
        a0: float,
        a1: float,
        w0: float,
        w1: float,
        head_w: float,
        head_l: float,
        sweep: float = 0.3,
        stem: float = 0.0,
    ) -> None:
        self.r, self.w0, self.w1 = r, w0, w1
        self.t0, self.t1 = math.radians(a0), math.radians(a1)
        self.head_w, self.head_l, self.sweep, self.stem = head_w, head_l, sweep, stem
        self.cx = self.cy = 0.0

    def width(self, t: float) -> float:
        """The shaft's width at angle ``t``: half linear, half smooth-step swelling."""
        u = (t - self.t0) / (self.t1 - self.t0)
        return self.w0 + (self.w1 - self.w0) * (u * u * (3 - 2 * u) * 0.5 + u * 0.5)

    def dwidth(self, t: float) -> float:
        span = self.t1 - self.t0
        u = (t - self.t0) / span
        return (self.w1 - self.w0) * ((6 * u - 6 * u * u) * 0.5 + 0.5) / span

    def polar(self, t: float, rr: float) -> Point:
        return (self.cx + rr * math.cos(t), self.cy + rr * math.sin(t))

    def edge(self, sign: int) -> tuple[Curve, Curve]:
        """The outer (``sign`` 1) or inner (-1) edge of the shaft and its derivative."""

        def f(t: float) -> Point:
            return self.polar(t, self.r + sign * self.width(t) / 2)

        def df(t: float) -> Point:
            rr = self.r + sign * self.width(t) / 2
            dr = sign * self.dwidth(t) / 2
            return (dr * math.cos(t) - rr * math.sin(t), dr * math.sin(t) + rr * math.cos(t))

        return f, df

    def head(self) -> list[Point]:
        """Outer shaft end, outer barb, tip, inner barb, inner shaft end: a straight,
        symmetric head on the arc's end, its axis the arc's tangent turned slightly
        inwards (so that it follows the curve)."""
        t1, r = self.t1, self.r
        px, py = self.polar(t1, r)
        turn = t1 + math.pi / 2 + 0.12 * self.head_l / r
        tx, ty = math.cos(turn), math.sin(turn)
        nx, ny = ty, -tx  # outward normal of the head's axis
        back, fore = self.sweep * self.head_l, (1 - self.sweep) * self.head_l
        half = self.head_w / 2
        return [
            self.polar(t1, r + self.w1 / 2),
            (px - tx * back + nx * half, py - ty * back + ny * half),
            (px + tx * fore, py + ty * fore),
            (px - tx * back - nx * half, py - ty * back - ny * half),
            self.polar(t1, r - self.w1 / 2),
        ]

    def outline_points(self) -> list[Point]:
        outer = self.edge(1)[0]
        inner = self.edge(-1)[0]
        n = 64
        ts = [self.t0 + (self.t1 - self.t0) * i / n for i in range(n + 1)]
        points = [outer(t) for t in ts] + self.head() + [inner(t) for t in ts]
        if self.stem:
            points.append((self.cx - self.r, self.cy + self.stem))
        return points

    def bounds(self) -> tuple[float, float, float, float]:
        points = self.outline_points()
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)

    def centre_in(self, x: float, y: float, w: float, h: float) -> Arrow:
        """Move the arrow so that its ink box is centred in the given box."""
        self.cx = self.cy = 0.0
        x0, y0, x1, y1 = self.bounds()
        self.cx = x + (w - (x1 - x0)) / 2 - x0
        self.cy = y + (h - (y1 - y0)) / 2 - y0
        return self

    def at(self, cx: float, cy: float) -> Arrow:
        self.cx, self.cy = cx, cy
        return self

    def path(self, stem_w: float = 0.0) -> str:
        """The outline as SVG path data (``stem_w``: the straight tail's width)."""
        pieces = max(2, math.ceil(abs(self.t1 - self.t0) / math.radians(30)))
        outer, douter = self.edge(1)
        inner, dinner = self.edge(-1)
        parts = []
        if self.stem:
            half = stem_w / 2
            x = self.cx - self.r
            parts += [
                f"M{pt((x - half, self.cy + self.stem))}",
                f"L{pt((x - half, self.cy))}",
                f"L{pt(outer(self.t0))}",
            ]
        else:
            parts.append(f"M{pt(outer(self.t0))}")
        parts += curve(outer, douter, self.t0, self.t1, pieces)
        parts += [f"L{pt(p)}" for p in self.head()[1:]]
        parts += curve(inner, dinner, self.t1, self.t0, pieces)
        if self.stem:
            half = stem_w / 2
            x = self.cx - self.r
            parts += [f"L{pt((x + half, self.cy))}", f"L{pt((x + half, self.cy + self.stem))}"]
        parts.append("Z")
        return "".join(parts)


def rounded_rect(x: float, y: float, w: float, h: float, rad: float) -> str:
    """A plate with rounded (quarter-circle) corners."""
    k = rad * 0.4477
    return (
        f"M{pt((x + rad, y))}H{num(x + w - rad)}"
        f"C{pt((x + w - k, y))} {pt((x + w, y + k))} {pt((x + w, y + rad))}"
        f"V{num(y + h - rad)}"
        f"C{pt((x + w, y + h - k))} {pt((x + w - k, y + h))} {pt((x + w - rad, y + h))}"
        f"H{num(x + rad)}"
        f"C{pt((x + k, y + h))} {pt((x, y + h - k))} {pt((x, y + h - rad))}"
        f"V{num(y + rad)}"
        f"C{pt((x, y + k))} {pt((x + k, y))} {pt((x + rad, y))}Z"
    )


# --- the symbols --------------------------------------------------------------------


def svg(
    code: str,
    meaning: str,
    width: float,
    height: float,
    body: list[str],
    glyph: str | None = None,
    view_extra: str = "",
) -> str:
    source = (
        f"The {glyph!r} is the outline of that character in Gentium Plus Bold "
        "(SIL International, SIL Open Font License 1.1), converted to a path with "
        "fontTools; the rest is plain geometry."
        if glyph
        else "Plain geometry, no font outline."
    )
    comment = (
        f"Arcmage card-text symbol :{code}: ({meaning}). Drawn for translator by "
        f"templates/default/symbols/generate.py; no artwork copied. {source} "
        f"Units are hundredths of an em; colours are DeviceCMYK."
    )
    view_box = f"0 0 {num(width)} {num(height)}"
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}"{view_extra}>',
        f"<!-- {comment} -->",
    ]
    lines += body
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def fill(d: str, colour: str = INK) -> str:
    return f'<path fill="{colour}" d="{d}"/>'


# Sizes, in hundredths of an em (the viewBoxes).
CYPHER = 100  # disc diameter: 1 em
MARK_W, MARK_H = 210, 225  # large marks: two lines of 9 pt text at 1.25 leading
MARK_RADIUS = 40
INLINE_W, INLINE_H = 110, 100
COLUMN = 130  # column marks: the hook's square; the stem runs on below
COLUMN_STEM = 2000  # far below any paragraph: the box's bottom edge cuts it
FIGURE_IN_DISC = 60  # figure height in a disc (letters: a little less)
FIGURE_IN_MARK = 128


def mark_arrow(scale: float = 1.0) -> Arrow:
    """The mark: a clockwise turn (a marked card is turned sideways), from a thin tail
    swelling towards a straight head."""
    return Arrow(56 * scale, 140, 355, 11 * scale, 27 * scale, 66 * scale, 60 * scale, 0.0)


def cypher(code: str, char: str) -> str:
    r = CYPHER / 2
    height = FIGURE_IN_DISC if char.isdigit() else FIGURE_IN_DISC - 4
    body = [
        f'<circle cx="{num(r)}" cy="{num(r)}" r="{num(r)}" fill="{INK}"/>',
        fill(glyph_path(char, r, r, height), PAPER),
    ]
    return svg(code, f"cypher disc {char}", CYPHER, CYPHER, body, char)


def mark(code: str, char: str | None) -> str:
    body = [fill(rounded_rect(0, 0, MARK_W, MARK_H, MARK_RADIUS))]
    if char is None:
        arrow = mark_arrow().centre_in(28, 28, MARK_W - 56, MARK_H - 56)
        body.append(fill(arrow.path(), PAPER))
        return svg(code, "mark: a plate with a turning arrow", MARK_W, MARK_H, body)
    height = FIGURE_IN_MARK if char.isdigit() else FIGURE_IN_MARK - 8
    body.append(fill(glyph_path(char, MARK_W / 2, MARK_H / 2, height), PAPER))
    return svg(code, f"mark with {char}: a plate with the figure", MARK_W, MARK_H, body, char)


def bare_mark() -> str:
    arrow = mark_arrow(1.3).centre_in(0, 0, MARK_W, MARK_H)
    return svg("mi", "mark, bare turning arrow", MARK_W, MARK_H, [fill(arrow.path())])


def inline_mark() -> str:
    arrow = Arrow(30, 140, 355, 8, 17, 40, 36, 0.0).centre_in(0, 0, INLINE_W, INLINE_H)
    return svg("mis", "small inline mark", INLINE_W, INLINE_H, [fill(arrow.path())])


def column_marks() -> dict[str, str]:
    note = (
        "preserveAspectRatio keeps the hook at the top of a box as tall as the "
        "paragraph; the stem runs on below the viewBox and the box's edge cuts it"
    )
    extra = ' preserveAspectRatio="xMidYMin meet"'
    # bare: a shepherd's crook, the stem turning over into the arrow
    crook = Arrow(40, 180, 358, 12, 24, 52, 46, 0.0, stem=COLUMN_STEM)
    x0, y0, x1, _y1 = crook.at(0, 0).bounds()
    crook.at(6 - x0 + (COLUMN - 12 - (x1 - x0)) / 2, 6 - y0)
    mic = svg(
        "mic",
        f"column mark, bare: {note}",
        COLUMN,
        COLUMN,
        [fill(crook.path(stem_w=12))],
        view_extra=extra,
    )
    # with a plate: a flag on a pole, the plate carrying the turning arrow
    pole = 16
    plate = flag(0, 0, COLUMN, COLUMN, 28, pole)
    arrow = mark_arrow(0.7).centre_in(12, 12, COLUMN - 24, COLUMN - 24)
    mc = svg(
        "mc",
        f"column mark: {note}",
        COLUMN,
        COLUMN,
        [fill(plate), fill(arrow.path(), PAPER)],
        view_extra=extra,
    )
    return {"mic": mic, "mc": mc}


def flag(x: float, y: float, w: float, h: float, rad: float, pole: float) -> str:
    """A rounded plate whose bottom-left corner runs on into a pole down the left."""
    k = rad * 0.4477
    return (
        f"M{pt((x + rad, y))}H{num(x + w - rad)}"
        f"C{pt((x + w - k, y))} {pt((x + w, y + k))} {pt((x + w, y + rad))}"
        f"V{num(y + h - rad)}"
        f"C{pt((x + w, y + h - k))} {pt((x + w - k, y + h))} {pt((x + w - rad, y + h))}"
        f"H{num(x + pole)}V{num(y + COLUMN_STEM)}H{num(x)}"
        f"V{num(y + rad)}"
        f"C{pt((x, y + k))} {pt((x + k, y))} {pt((x + rad, y))}Z"
    )


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    files: dict[str, str] = {}
    for d in "0123456789":
        files[f"g{d}"] = cypher(f"g{d}", d)
    files["gx"] = cypher("gx", "X")
    files["gt"] = cypher("gt", "T")
    files["m"] = mark("m", None)
    for d in "0123456789":
        files[f"m{d}"] = mark(f"m{d}", d)
    for letter in "atx":
        files[f"m{letter}"] = mark(f"m{letter}", letter.upper())
    files["mi"] = bare_mark()
    files.update(column_marks())
    files["mis"] = inline_mark()
    for code, text in files.items():
        (out / f"{code}.svg").write_text(text, encoding="utf-8")
    print(f"{len(files)} symbols written to {out}")


if __name__ == "__main__":
    main()
