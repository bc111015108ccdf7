"""Affine matrices, as PDF content (``cm``) and SVG (``transform``) write them.

One matrix ``(a, b, c, d, e, f)`` maps a point ``(x, y)`` to ``(a x + c y + e,
b x + d y + f)``; the preflight, the overprint painter and the official look's SVG
reader all compose them, in PDF's order.
"""

from __future__ import annotations

from collections.abc import Sequence

Matrix = tuple[float, float, float, float, float, float]
Point = tuple[float, float]
#: A PDF rectangle (x0, y0, x1, y1), in points.
Box = tuple[float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF row-vector order: ``cm`` makes CTM' = m x CTM; an SVG
    element's transform ``m`` inside its parent's ``n`` is ``multiply(m, n)``)."""
    a, b, c, d, e, f = m
    na, nb, nc, nd, ne, nf = n
    return (
        a * na + b * nc,
        a * nb + b * nd,
        c * na + d * nc,
        c * nb + d * nd,
        e * na + f * nc + ne,
        e * nb + f * nd + nf,
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    """The point ``(x, y)`` mapped by ``m``."""
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def bounds(points: Sequence[Point]) -> Box:
    """The smallest box holding ``points`` (at least one)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def transformed_box(box: Box, m: Matrix) -> Box:
    """``box`` mapped by ``m``: the box its four corners land in."""
    x0, y0, x1, y1 = box
    return bounds([apply(m, x0, y0), apply(m, x1, y0), apply(m, x1, y1), apply(m, x0, y1)])
