"""Procedural placeholder artwork for Arcmage cards.

Usage:
    python generate.py cards/sample cards/sample/art          # write <slug>.jpg for a deck
    python generate.py cards/sample cards/sample/art --check  # regenerate, compare bytes
    python generate.py cards.json OUTPUT_DIR                  # from a list of cards

The input is a deck directory (the faction and type of each card come from its card
files, the description from ``art/descriptions.yaml``), or a JSON (or YAML) list of
cards, or an object with a "cards" list; each card has "slug", "faction", "type" and a
short English "description".  Every image is drawn
from scratch with Pillow, seeded by the slug, so the same slug always gives the same
bytes (with the same Pillow build).  The description only picks motifs (a hawk, a
shield, a storm, embers...); it is never written into the image.

Output: RGB baseline JPEG, 1200 x 992 px (the 230:190 art box), quality 88, no ICC, no EXIF.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
import math
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

W, H = 1200, 992
QUALITY = 88

Color = tuple[int, int, int]
Point = tuple[float, float]
Transform = Callable[[float, float], Point]


# --------------------------------------------------------------------------- palettes


@dataclass(frozen=True)
class Palette:
    sky: tuple[Color, Color, Color]  # zenith, middle, horizon
    land: tuple[Color, Color, Color, Color]  # far -> near
    accent: Color  # light: sun, glow, runes
    dark: Color  # silhouettes
    metal: Color  # trims, windows, secondary glints
    terrain: str


PALETTES: dict[str, Palette] = {
    "gaian": Palette(
        sky=((58, 92, 74), (150, 160, 100), (238, 204, 128)),
        land=((176, 164, 104), (126, 132, 70), (78, 100, 50), (38, 56, 30)),
        accent=(255, 226, 150),
        dark=(22, 32, 18),
        metal=(214, 170, 84),
        terrain="hills",
    ),
    "darklegion": Palette(
        sky=((14, 8, 26), (62, 30, 84), (156, 88, 150)),
        land=((92, 56, 110), (58, 34, 80), (34, 18, 50), (14, 8, 22)),
        accent=(214, 170, 255),
        dark=(8, 4, 12),
        metal=(150, 60, 200),
        terrain="jagged",
    ),
    "redbanner": Palette(
        sky=((72, 14, 20), (176, 56, 34), (250, 180, 80)),
        land=((168, 76, 48), (118, 42, 30), (72, 22, 20), (32, 8, 10)),
        accent=(255, 220, 120),
        dark=(22, 6, 6),
        metal=(232, 170, 60),
        terrain="mesas",
    ),
    "houseofnobles": Palette(
        sky=((16, 32, 78), (66, 104, 168), (198, 210, 228)),
        land=((120, 138, 172), (74, 94, 136), (42, 56, 94), (18, 26, 50)),
        accent=(238, 244, 255),
        dark=(8, 14, 32),
        metal=(190, 200, 216),
        terrain="snowpeaks",
    ),
    "theempire": Palette(
        sky=((30, 100, 110), (140, 196, 190), (244, 240, 226)),
        land=((222, 222, 206), (178, 150, 108), (82, 128, 122), (34, 60, 60)),
        accent=(255, 248, 228),
        dark=(26, 38, 38),
        metal=(196, 138, 70),
        terrain="terraces",
    ),
    "none": Palette(
        sky=((56, 58, 64), (120, 122, 128), (206, 204, 198)),
        land=((150, 150, 150), (106, 106, 110), (68, 68, 72), (34, 34, 38)),
        accent=(244, 242, 234),
        dark=(18, 18, 20),
        metal=(176, 176, 170),
        terrain="rolling",
    ),
}

FACTION_ALIASES = {"empire": "theempire", "nobles": "houseofnobles", "": "none"}

CITY_ROOFS: dict[str, tuple[str, ...]] = {
    "gaian": ("dome", "dome", "spire", "flat"),
    "darklegion": ("jagged", "jagged", "spire", "spire"),
    "redbanner": ("crenel", "crenel", "spire", "flat"),
    "houseofnobles": ("spire", "spire", "spire", "crenel"),
    "theempire": ("dome", "dome", "flat", "spire"),
    "none": ("crenel", "spire", "flat", "dome"),
}


def faction_key(name: str) -> str:
    key = re.sub(r"[^a-z]", "", name.lower())
    key = FACTION_ALIASES.get(key, key)
    return key if key in PALETTES else "none"


# --------------------------------------------------------------------------- helpers


def clamp8(v: float) -> int:
    return 0 if v < 0 else 255 if v > 255 else int(v)


def mix(a: Color, b: Color, t: float) -> Color:
    return (
        clamp8(a[0] + (b[0] - a[0]) * t + 0.5),
        clamp8(a[1] + (b[1] - a[1]) * t + 0.5),
        clamp8(a[2] + (b[2] - a[2]) * t + 0.5),
    )


def jitter(c: Color, rng: random.Random, amount: int) -> Color:
    return (
        clamp8(c[0] + rng.randint(-amount, amount)),
        clamp8(c[1] + rng.randint(-amount, amount)),
        clamp8(c[2] + rng.randint(-amount, amount)),
    )


@lru_cache(maxsize=24)
def solid(c: Color) -> Image.Image:
    return Image.new("RGB", (W, H), c)


def new_mask() -> Image.Image:
    return Image.new("L", (W, H), 0)


def scale_mask(mask: Image.Image, factor: float) -> Image.Image:
    return mask.point(lambda v: clamp8(v * factor))


def vmask(func: Callable[[int], float]) -> Image.Image:
    """A mask whose value depends only on y."""
    column = Image.frombytes("L", (1, H), bytes(clamp8(func(y)) for y in range(H)))
    return column.resize((W, H), Image.Resampling.NEAREST)


def ramp(y: float, y0: float, y1: float) -> float:
    """0 at y0, 1 at y1, clamped (y0 may be below or above y1)."""
    if y1 == y0:
        return 1.0 if y >= y1 else 0.0
    return min(1.0, max(0.0, (y - y0) / (y1 - y0)))


def paint(img: Image.Image, mask: Image.Image, color: Color) -> None:
    img.paste(color, (0, 0, W, H), mask)


def value_noise(rng: random.Random, grids: Sequence[tuple[int, int, float]]) -> Image.Image:
    """Fractal value noise: random grids upscaled bicubically and averaged."""
    acc: Image.Image | None = None
    total = 0.0
    for gw, gh, weight in grids:
        small = Image.frombytes("L", (gw, gh), rng.randbytes(gw * gh))
        big = small.resize((W, H), Image.Resampling.BICUBIC)
        total += weight
        acc = big if acc is None else Image.blend(acc, big, weight / total)
    assert acc is not None
    lo, hi = acc.getextrema()
    span = max(1, hi - lo)
    return acc.point(lambda v: clamp8((v - lo) * 255 / span))


def soft_threshold(noise: Image.Image, lo: float, hi: float, top: float = 255) -> Image.Image:
    return noise.point(lambda v: clamp8(ramp(v, lo, hi) * top))


def glow(
    img: Image.Image, mask: Image.Image, color: Color, radius: float, strength: float = 1.0
) -> Image.Image:
    """Screen a blurred, coloured copy of mask onto img (cheap: blurred at 1/4 size)."""
    small = mask.resize((W // 4, H // 4), Image.Resampling.BILINEAR)
    small = small.filter(ImageFilter.GaussianBlur(max(0.5, radius / 4)))
    halo = small.resize((W, H), Image.Resampling.BICUBIC)
    halo = scale_mask(halo, strength)
    return ImageChops.screen(img, Image.composite(solid(color), solid((0, 0, 0)), halo))


def make_tf(cx: float, cy: float, s: float, flip: int = 1, rot: float = 0.0) -> Transform:
    cr, sr = math.cos(rot), math.sin(rot)

    def tf(x: float, y: float) -> Point:
        x *= flip
        return (cx + (x * cr - y * sr) * s, cy + (x * sr + y * cr) * s)

    return tf


def ell(
    tf: Transform,
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    n: int = 28,
    a0: float = 0.0,
    a1: float = 2 * math.pi,
) -> list[Point]:
    return [
        tf(cx + rx * math.cos(a0 + (a1 - a0) * i / n), cy + ry * math.sin(a0 + (a1 - a0) * i / n))
        for i in range(n + (0 if a1 - a0 >= 2 * math.pi else 1))
    ]


def poly(d: ImageDraw.ImageDraw, tf: Transform, pts: Sequence[Point], fill: int = 255) -> None:
    d.polygon([tf(x, y) for x, y in pts], fill=fill)


def smooth(pts: Sequence[Point], steps: int = 6, closed: bool = True) -> list[Point]:
    """Catmull-Rom spline through pts (unit coordinates stay unit coordinates)."""
    n = len(pts)
    out: list[Point] = []
    last = n if closed else n - 1
    for i in range(last):
        p0 = pts[(i - 1) % n] if closed or i > 0 else pts[0]
        p1, p2 = pts[i], pts[(i + 1) % n]
        p3 = pts[(i + 2) % n] if closed or i + 2 < n else pts[-1]
        for k in range(steps):
            t = k / steps
            t2, t3 = t * t, t * t * t
            out.append(
                tuple(  # type: ignore[arg-type]
                    0.5
                    * (
                        2 * b
                        + (-a + c) * t
                        + (2 * a - 5 * b + 4 * c - e) * t2
                        + (-a + 3 * b - 3 * c + e) * t3
                    )
                    for a, b, c, e in zip(p0, p1, p2, p3, strict=True)
                )
            )
    if not closed:
        out.append(pts[-1])
    return out


def feather(d: ImageDraw.ImageDraw, tf: Transform, base: Point, tip: Point, width: float) -> None:
    """A lens-shaped feather / leaf from base to tip, in unit coordinates."""
    (bx, by), (tx, ty) = base, tip
    ln = math.hypot(tx - bx, ty - by) or 1.0
    nx, ny = -(ty - by) / ln * width / 2, (tx - bx) / ln * width / 2
    pts = [
        (
            bx + (tx - bx) * f + nx * math.sin(math.pi * min(1.0, f * 1.25)) * (1 - f * 0.4),
            by + (ty - by) * f + ny * math.sin(math.pi * min(1.0, f * 1.25)) * (1 - f * 0.4),
        )
        for f in (0, 0.15, 0.35, 0.55, 0.75, 0.9, 1.0)
    ]
    pts += [
        (
            bx + (tx - bx) * f - nx * math.sin(math.pi * min(1.0, f * 1.25)) * (1 - f * 0.4),
            by + (ty - by) * f - ny * math.sin(math.pi * min(1.0, f * 1.25)) * (1 - f * 0.4),
        )
        for f in (0.9, 0.75, 0.55, 0.35, 0.15)
    ]
    poly(d, tf, pts)


def stroke(
    d: ImageDraw.ImageDraw,
    pts: Sequence[Point],
    w0: float,
    w1: float | None = None,
    fill: int = 255,
) -> None:
    """A tapered polyline in pixel coordinates, with round joints."""
    w1 = w0 if w1 is None else w1
    n = max(1, len(pts) - 1)
    for i in range(len(pts) - 1):
        w = w0 + (w1 - w0) * i / n
        d.line([pts[i], pts[i + 1]], fill=fill, width=max(1, round(w)))
    for i, (x, y) in enumerate(pts):
        r = (w0 + (w1 - w0) * i / n) / 2
        if r >= 1.5:
            d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def words_of(card: dict[str, str]) -> set[str]:
    text = f"{card.get('description', '')} {card['slug'].replace('-', ' ')}".lower()
    out: set[str] = set()
    for w in re.findall(r"[a-z]+", text):
        out.add(w)
        if w.endswith("es") and len(w) > 4:
            out.add(w[:-2])
        if w.endswith("s") and len(w) > 3:
            out.add(w[:-1])
    return out


def has(words: set[str], *stems: str) -> bool:
    return any(w.startswith(s) for w in words for s in stems)


PERSON = (
    "keeper",
    "guard",
    "knight",
    "mage",
    "priest",
    "soldier",
    "warrior",
    "king",
    "queen",
    "lord",
    "lady",
    "witch",
    "wizard",
    "archer",
    "hunter",
    "monk",
    "girl",
    "boy",
    "child",
    "herald",
    "sentinel",
    "champion",
    "druid",
    "shaman",
    "necromancer",
    "noble",
    "sorcer",
    "paladin",
    "scout",
    "rogue",
    "thief",
    "bard",
    "singer",
    "herder",
    "herdsman",
    "woman",
    "man",
    "men",
    "elder",
    "sage",
    "acolyte",
    "templar",
    "legionn",
    "emperor",
    "empress",
)
BIRD = (
    "hawk",
    "eagle",
    "bird",
    "raven",
    "crow",
    "owl",
    "falcon",
    "phoenix",
    "griffin",
    "gryphon",
    "vulture",
    "harpy",
    "swan",
    "heron",
    "kestrel",
)
HORNED = (
    "antelope",
    "addax",
    "goat",
    "stag",
    "deer",
    "elk",
    "ibex",
    "gazelle",
    "oryx",
    "bull",
    "ox",
    "ram",
    "unicorn",
)
CANINE = (
    "wolf",
    "wolv",
    "hound",
    "dog",
    "fox",
    "jackal",
    "lion",
    "cat",
    "panther",
    "tiger",
    "lynx",
)
BULKY = (
    "bear",
    "boar",
    "beast",
    "troll",
    "ogre",
    "golem",
    "behemoth",
    "rhino",
    "mammoth",
    "dragon",
    "wyrm",
    "drake",
)


def is_person(words: set[str]) -> bool:
    return any(w in PERSON or w.endswith(("man", "woman", "men")) for w in words) or has(
        words,
        "keeper",
        "guard",
        "knight",
        "mage",
        "priest",
        "soldier",
        "warrior",
        "witch",
        "wizard",
        "sorcer",
        "druid",
        "shaman",
        "herald",
        "sentinel",
        "paladin",
    )


def beast_kind(words: set[str]) -> str | None:
    if has(words, *HORNED):
        return "horned"
    if has(words, *CANINE):
        return "canine"
    if has(words, *BULKY):
        return "bulky"
    return None


# --------------------------------------------------------------------------- scene parts


def draw_sky(rng: random.Random, pal: Palette, hz: float) -> Image.Image:
    """A gradient built from wavy, slightly tilted painted bands, then softened."""
    img = Image.new("RGB", (W, H), pal.sky[0])
    d = ImageDraw.Draw(img)
    stops = [
        (-40.0, pal.sky[0]),
        (hz * rng.uniform(0.45, 0.65), pal.sky[1]),
        (hz, pal.sky[2]),
        (float(H), mix(pal.sky[2], pal.land[0], 0.6)),
    ]

    def at(y: float) -> Color:
        for (y0, c0), (y1, c1) in itertools.pairwise(stops):
            if y <= y1:
                t = ramp(y, y0, y1)
                return mix(c0, c1, t * t * (3 - 2 * t))
        return stops[-1][1]

    phase, amp = rng.uniform(0, 6.28), rng.uniform(4, 12)
    freq, tilt = rng.uniform(0.004, 0.011), rng.uniform(-0.05, 0.05)
    y = -60.0
    while y < H + 20:
        bh = rng.uniform(7, 16)
        c = jitter(at(y + bh / 2), rng, 5)
        top = [
            (x, y + amp * math.sin(freq * x + phase + y * 0.013) + tilt * (x - W / 2))
            for x in range(-40, W + 41, 40)
        ]
        d.polygon([*top, (W + 40, y + bh + 90), (-40, y + bh + 90)], fill=c)
        y += bh
    return img.filter(ImageFilter.GaussianBlur(5))


def draw_clouds(
    img: Image.Image, rng: random.Random, pal: Palette, hz: float, stormy: bool
) -> Image.Image:
    streaks = value_noise(rng, [(4, 12, 1.0), (8, 24, 0.55), (16, 48, 0.3), (40, 110, 0.15)])
    top_fade = vmask(lambda y: 255 * (1 - ramp(y, hz * 0.35, hz * 0.95)) ** 0.8)
    lit = mix(pal.sky[2], pal.accent, 0.45)
    shade = mix(pal.sky[0], pal.dark, 0.35 if stormy else 0.15)
    lo = 95 if stormy else 130
    body = ImageChops.multiply(
        soft_threshold(streaks, lo, lo + 90, 200 if stormy else 150), top_fade
    )
    img = Image.composite(solid(shade), img, body)
    light = ImageChops.offset(soft_threshold(streaks, lo + 35, lo + 120, 150), 0, -6)
    return Image.composite(solid(lit), img, ImageChops.multiply(light, top_fade))


def draw_sun(
    img: Image.Image, rng: random.Random, pal: Palette, cx: float, cy: float, r: float, moon: bool
) -> Image.Image:
    halo = Image.new("L", (W // 4, H // 4), 0)
    hd = ImageDraw.Draw(halo)
    for i in range(14, 0, -1):
        rr = r * (1 + i * 0.42) / 4
        hd.ellipse((cx / 4 - rr, cy / 4 - rr, cx / 4 + rr, cy / 4 + rr), fill=int(16 * (15 - i)))
    halo = halo.filter(ImageFilter.GaussianBlur(r / 5)).resize((W, H), Image.Resampling.BICUBIC)
    img = ImageChops.screen(
        img, Image.composite(solid(pal.accent), solid((0, 0, 0)), scale_mask(halo, 0.75))
    )
    disk = new_mask()
    ImageDraw.Draw(disk).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    if moon:
        bite = new_mask()
        ox = r * rng.choice((-1, 1)) * rng.uniform(0.35, 0.6)
        ImageDraw.Draw(bite).ellipse(
            (cx - r + ox, cy - r * 1.05 - r * 0.2, cx + r + ox, cy + r * 0.95 - r * 0.2), fill=255
        )
        disk = ImageChops.subtract(disk, bite)
    disk = disk.filter(ImageFilter.GaussianBlur(1.2))
    paint(img, disk, mix(pal.accent, (255, 255, 255), 0.55))
    return img


def midpoint(rng: random.Random, n: int, amp: float, rough: float) -> list[float]:
    pts = [0.0] * (2**n + 1)
    step, scale = 2**n, amp
    while step > 1:
        half = step // 2
        for i in range(half, len(pts) - 1, step):
            pts[i] = (pts[i - half] + pts[i + half]) / 2 + rng.uniform(-1, 1) * scale
        scale *= rough
        step = half
    return pts


N_RIDGE = 129
RIDGE_X = [-30 + (W + 60) * i / (N_RIDGE - 1) for i in range(N_RIDGE)]


def profile(rng: random.Random, style: str, amp: float) -> list[float]:
    """Heights (px above the layer base) at RIDGE_X."""
    h = [0.0] * N_RIDGE
    if style in ("jagged", "snowpeaks", "mesas", "peaks"):
        for _ in range(rng.randint(3, 6)):
            cx = rng.uniform(-0.1, 1.1) * W
            hw = rng.uniform(0.09, 0.22) * W * (0.55 if style == "jagged" else 1.0)
            peak = rng.uniform(0.45, 1.0) * amp
            power = 1.6 if style == "jagged" else 1.1 if style == "snowpeaks" else 0.5
            for i, x in enumerate(RIDGE_X):
                t = 1 - abs(x - cx) / hw
                if t > 0:
                    h[i] = max(h[i], peak * t**power)
        ph, fw = rng.uniform(0, 6.28), rng.uniform(0.006, 0.012)
        h = [
            max(v, amp * 0.07 * (1.3 + math.sin(x * fw + ph)))
            for v, x in zip(h, RIDGE_X, strict=True)
        ]
        if style == "mesas":
            cap = amp * rng.uniform(0.5, 0.7)
            h = [min(v, cap + 0.08 * (v - cap)) if v > cap else v for v in h]
    else:  # hills, rolling, dunes, terraces
        for _ in range(rng.randint(3, 5)):
            cx = rng.uniform(-0.1, 1.1) * W
            hw = rng.uniform(0.12, 0.3) * W
            peak = rng.uniform(0.3, 0.9) * amp
            for i, x in enumerate(RIDGE_X):
                h[i] += peak * math.exp(-(((x - cx) / hw) ** 2))
        if style == "dunes":
            ph = rng.uniform(0, 6.28)
            h = [
                v * 0.6 + amp * 0.25 * (1 + math.sin(x * 0.009 + ph + 0.6 * math.sin(x * 0.011)))
                for v, x in zip(h, RIDGE_X, strict=True)
            ]
        if style == "terraces":
            step = amp * 0.22
            h = [step * math.floor(v / step) + 0.25 * (v % step) for v in h]
    rough = {"jagged": 0.62, "snowpeaks": 0.58, "mesas": 0.5, "dunes": 0.38, "terraces": 0.42}.get(
        style, 0.48
    )
    detail = midpoint(rng, 7, amp * (0.16 if style != "dunes" else 0.05), rough)
    return [max(0.0, v + dv) for v, dv in zip(h, detail, strict=True)]


def height_at(heights: Sequence[float], x: float) -> float:
    f = (x + 30) / (W + 60) * (N_RIDGE - 1)
    i = max(0, min(N_RIDGE - 2, int(f)))
    t = f - i
    return heights[i] * (1 - t) + heights[i + 1] * t


CITY_LAYER = 2


@dataclass
class Layer:
    base: float
    heights: list[float]
    amp: float
    plateau: float = 0.0  # > 0: a flat top for a city between span[0] and span[1]
    span: tuple[float, float] = (0.0, 0.0)

    def ground(self, x: float) -> float:
        return self.base - height_at(self.heights, x)


def draw_layer(
    img: Image.Image,
    rng: random.Random,
    pal: Palette,
    layer: Layer,
    idx: int,
    n: int,
    tex: Image.Image,
    snow: bool,
) -> None:
    t = idx / (n - 1)
    haze = (1 - t) ** 1.4 * 0.62
    pts = [(x, layer.base - hv) for x, hv in zip(RIDGE_X, layer.heights, strict=True)]
    mask = new_mask()
    ImageDraw.Draw(mask).polygon([*pts, (W + 30, H + 30), (-30, H + 30)], fill=255)
    top = min(p[1] for p in pts)
    base = jitter(mix(pal.land[idx], pal.sky[2], haze), rng, 4)
    lit = mix(base, pal.accent, 0.16 * (1 - t) + 0.05)
    deep = mix(base, pal.dark, 0.35)
    fill = Image.composite(solid(lit), solid(base), soft_threshold(tex, 90, 210))
    shade = vmask(lambda y: 200 * ramp(y, top + 40, layer.base + (H - layer.base) * 0.8))
    fill = Image.composite(solid(deep), fill, shade)
    img.paste(fill, (0, 0), mask)
    # a lit rim along the ridge line
    rim = ImageChops.subtract(mask, ImageChops.offset(mask, 0, 3))
    paint(img, scale_mask(rim.filter(ImageFilter.GaussianBlur(1)), 0.45), mix(lit, pal.accent, 0.5))
    if snow and idx < n - 2:
        line = top + (layer.base - top) * rng.uniform(0.22, 0.35)
        cap = ImageChops.multiply(mask, vmask(lambda y: 255 * (1 - ramp(y, line - 10, line + 10))))
        cap = ImageChops.multiply(cap, soft_threshold(tex, 60, 120))
        paint(img, scale_mask(cap, 0.85), mix(pal.accent, base, 0.25 + 0.3 * haze))


def draw_mist(
    img: Image.Image, pal: Palette, layer: Layer, amp: float, tex: Image.Image, strength: float
) -> Image.Image:
    fade = vmask(lambda y: 255 * strength * ramp(y, layer.base - amp * 0.9, layer.base + 20) ** 1.5)
    wisps = ImageChops.multiply(fade, soft_threshold(tex, 30, 200))
    return Image.composite(solid(mix(pal.sky[2], pal.accent, 0.15)), img, wisps)


def silhouette(
    img: Image.Image,
    mask: Image.Image,
    pal: Palette,
    tex: Image.Image,
    light: Point,
    rim_strength: float = 0.9,
) -> None:
    """Fill mask in the faction's dark colour, textured, with a rim light toward `light`."""
    lx, ly = light
    norm = math.hypot(lx, ly) or 1.0
    dx, dy = round(-5 * lx / norm), round(-5 * ly / norm)
    rim = ImageChops.subtract(mask, ImageChops.offset(mask, dx, dy))
    dark2 = mix(pal.dark, pal.land[2], 0.3)
    fill = Image.composite(solid(dark2), solid(pal.dark), soft_threshold(tex, 100, 230))
    img.paste(fill, (0, 0), mask)
    rim = rim.filter(ImageFilter.GaussianBlur(1.6))
    paint(img, scale_mask(rim, rim_strength), mix(pal.accent, pal.sky[2], 0.3))


# --------------------------------------------------------------------------- figures


def draw_person(
    d: ImageDraw.ImageDraw,
    detail: ImageDraw.ImageDraw,
    rng: random.Random,
    tf: Transform,
    words: set[str],
    faction: str,
) -> Point:
    """A cloaked figure, height 1 unit, feet at (0, 0). Returns the unit point of the staff top."""
    unit = abs(tf(1, 0)[0] - tf(0, 0)[0]) or 1.0
    wind = rng.uniform(0.03, 0.1)
    cloak = [
        (0.035, -0.845),
        (0.1, -0.81),
        (0.125, -0.7),
        (0.13, -0.5),
        (0.155, -0.25),
        (0.19, -0.04),
        (0.12, 0.0),
        (0.02, -0.015),
        (-0.08, 0.0),
        (-0.2 - wind, -0.02),
        (-0.27 - 2 * wind, -0.07),
        (-0.25 - 1.6 * wind, -0.3),
        (-0.18 - wind, -0.52),
        (-0.12, -0.72),
        (-0.09, -0.81),
        (-0.035, -0.845),
    ]
    poly(d, tf, smooth(cloak, 5))
    d.polygon(ell(tf, 0.005, -0.905, 0.052, 0.066), fill=255)
    guard = has(words, "guard", "soldier", "warrior", "knight", "sentinel", "legion")
    royal = has(words, "king", "queen", "noble", "lord", "lady", "emperor", "empress")
    if guard:  # helmet with a brim and a short plume
        poly(
            d,
            tf,
            smooth(
                [
                    (-0.065, -0.9),
                    (-0.06, -0.97),
                    (0.0, -1.0),
                    (0.06, -0.97),
                    (0.07, -0.9),
                    (0.0, -0.92),
                ],
                4,
            ),
        )
        poly(
            d, tf, smooth([(-0.01, -0.99), (-0.06, -1.05), (-0.13 - wind, -1.04), (-0.08, -1.0)], 4)
        )
    elif royal:
        for k in (-0.04, 0.0, 0.04):
            poly(d, tf, [(k - 0.018, -0.96), (k, -1.02), (k + 0.018, -0.96)])
    else:  # hood falling back over the shoulders
        poly(
            d,
            tf,
            smooth(
                [
                    (0.068, -0.87),
                    (0.07, -0.95),
                    (0.03, -0.99),
                    (-0.04, -0.99),
                    (-0.085, -0.955),
                    (-0.12 - wind * 0.5, -0.88),
                    (-0.1, -0.83),
                    (0.0, -0.84),
                ],
                4,
            ),
        )
    # arm reaching to the staff / spear
    sx = 0.23
    stroke(
        d,
        smooth([tf(0.06, -0.8), tf(0.15, -0.72), tf(sx, -0.6)], 4, closed=False),
        0.055 * unit,
        0.04 * unit,
    )
    top_y = -1.16
    d.line([tf(sx - 0.01, 0.0), tf(sx + 0.015, top_y)], fill=255, width=max(2, round(0.016 * unit)))
    if guard or has(words, "spear", "lance", "pike"):
        poly(
            d,
            tf,
            smooth(
                [
                    (sx + 0.015 - 0.022, top_y),
                    (sx + 0.015, top_y - 0.14),
                    (sx + 0.015 + 0.022, top_y),
                    (sx + 0.015, top_y + 0.015),
                ],
                3,
            ),
        )
        top_y -= 0.14
    if faction == "redbanner" or has(words, "banner", "flag", "herald"):
        flag = [
            (sx + 0.015, top_y + 0.03),
            (sx + 0.3, top_y + 0.07),
            (sx + 0.23, top_y + 0.14),
            (sx + 0.31, top_y + 0.22),
            (sx + 0.015, top_y + 0.2),
        ]
        poly(d, tf, flag)
    if has(words, "shield", "guard", "knight", "defend", "protect"):
        shield = [
            (0.0, -0.66),
            (0.22, -0.66),
            (0.225, -0.52),
            (0.16, -0.4),
            (0.11, -0.34),
            (0.06, -0.4),
            (-0.005, -0.52),
        ]
        poly(d, tf, shield)
        lw = max(2, round(0.007 * unit))
        detail.line([tf(x, y) for x, y in [*shield, shield[0]]], fill=230, width=lw)
        detail.line([tf(0.11, -0.63), tf(0.11, -0.4)], fill=200, width=lw)
        detail.line([tf(0.03, -0.56), tf(0.19, -0.56)], fill=200, width=lw)
    if has(words, "sing", "song", "chant", "call", "voice", "horn"):
        for k in range(3):
            r = 0.1 + 0.06 * k
            pts = ell(tf, 0.05, -0.9, r, r * 1.15, 12, -0.65, 0.65)
            detail.line(pts, fill=220 - 55 * k, width=max(2, round(0.006 * unit)))
    return (sx + 0.015, top_y)


def draw_beast(
    d: ImageDraw.ImageDraw, tf: Transform, unit: float, kind: str, rng: random.Random
) -> None:
    """A quadruped in profile facing +x, shoulder height 1 unit, feet at y = 0."""
    if kind == "canine":
        body = [
            (0.42, -1.0),
            (0.5, -0.8),
            (0.36, -0.62),
            (0.0, -0.6),
            (-0.38, -0.62),
            (-0.55, -0.72),
            (-0.56, -0.9),
            (-0.3, -0.95),
            (0.1, -0.95),
        ]
        head = [
            (0.36, -0.95),
            (0.5, -1.2),
            (0.62, -1.3),
            (0.72, -1.26),
            (0.96, -1.16),
            (0.95, -1.1),
            (0.72, -1.06),
            (0.52, -0.78),
        ]
        extra = [
            [(0.55, -1.25), (0.57, -1.43), (0.64, -1.28)],
            [(0.62, -1.28), (0.67, -1.44), (0.71, -1.26)],
        ]
        tail = [
            (-0.52, -0.88),
            (-0.78, -0.66),
            (-0.92, -0.38),
            (-0.84, -0.36),
            (-0.68, -0.58),
            (-0.5, -0.74),
        ]
        legs = [
            ((0.3, -0.7), (0.36, -0.35), (0.34, 0)),
            ((0.16, -0.7), (0.12, -0.36), (0.2, 0)),
            ((-0.4, -0.72), (-0.52, -0.4), (-0.46, 0)),
            ((-0.28, -0.72), (-0.34, -0.38), (-0.28, 0)),
        ]
        lw = 0.1
    elif kind == "bulky":
        body = [
            (0.5, -0.98),
            (0.62, -0.72),
            (0.5, -0.5),
            (0.1, -0.44),
            (-0.4, -0.48),
            (-0.62, -0.62),
            (-0.64, -0.9),
            (-0.45, -1.06),
            (-0.05, -1.1),
            (0.25, -1.2),
        ]
        head = [
            (0.5, -1.02),
            (0.68, -1.02),
            (0.8, -0.92),
            (1.0, -0.82),
            (0.99, -0.74),
            (0.8, -0.68),
            (0.58, -0.64),
            (0.46, -0.78),
        ]
        extra = [ell(lambda x, y: (x, y), 0.66, -1.02, 0.05, 0.05, 10)]
        tail = [(-0.62, -0.82), (-0.7, -0.76), (-0.63, -0.7)]
        legs = [
            ((0.36, -0.6), (0.38, -0.3), (0.4, 0)),
            ((0.16, -0.6), (0.12, -0.3), (0.16, 0)),
            ((-0.44, -0.6), (-0.5, -0.3), (-0.46, 0)),
            ((-0.25, -0.6), (-0.28, -0.3), (-0.22, 0)),
        ]
        lw = 0.17
    else:  # horned grazer (antelope, addax, goat...)
        body = [
            (0.38, -1.02),
            (0.48, -0.86),
            (0.36, -0.66),
            (0.0, -0.62),
            (-0.4, -0.66),
            (-0.56, -0.78),
            (-0.54, -0.96),
            (-0.25, -1.0),
            (0.1, -0.98),
        ]
        head = [
            (0.28, -0.98),
            (0.46, -1.4),
            (0.58, -1.56),
            (0.7, -1.56),
            (0.95, -1.44),
            (0.93, -1.38),
            (0.72, -1.38),
            (0.58, -1.3),
            (0.48, -0.78),
        ]
        extra = [[(0.56, -1.5), (0.4, -1.58), (0.55, -1.46)]]
        tail = [(-0.53, -0.94), (-0.64, -0.74), (-0.58, -0.72), (-0.5, -0.86)]
        legs = [
            ((0.3, -0.72), (0.35, -0.36), (0.32, 0)),
            ((0.18, -0.72), (0.12, -0.36), (0.19, 0)),
            ((-0.4, -0.76), (-0.52, -0.4), (-0.44, 0)),
            ((-0.28, -0.76), (-0.34, -0.38), (-0.26, 0)),
        ]
        lw = 0.08
        sweep = rng.uniform(0.8, 1.2)
        for off in (0.0, 0.07):
            horn = [
                tf(
                    0.62 + off - 0.05 * k * sweep - 0.004 * k * k,
                    -1.55 - 0.11 * k + 0.002 * k * k + (0.018 if k % 2 else -0.018) * (k > 0),
                )
                for k in range(9)
            ]
            stroke(d, horn, unit * 0.055, unit * 0.015)
    poly(d, tf, smooth(body, 5))
    poly(d, tf, smooth(head, 4))
    for part in extra:
        poly(d, tf, part)
    poly(d, tf, smooth(tail, 3))
    for leg in legs:
        stroke(d, smooth([tf(*p) for p in leg], 3, closed=False), unit * lw, unit * lw * 0.55)


def draw_bird(d: ImageDraw.ImageDraw, tf: Transform, lift: float) -> None:
    """A raptor seen from below/front, wingspan 2 units, centred on (0, 0)."""

    def w(x: float, y: float) -> Point:
        return (x, y - lift * x * x)

    body = [
        (0.0, -0.27),
        (0.07, -0.2),
        (0.1, 0.0),
        (0.08, 0.22),
        (0.0, 0.3),
        (-0.08, 0.22),
        (-0.1, 0.0),
        (-0.07, -0.2),
    ]
    poly(d, tf, smooth(body, 4))
    d.polygon(ell(tf, 0, -0.25, 0.06, 0.06), fill=255)
    poly(d, tf, smooth([(-0.025, -0.23), (0.025, -0.23), (0.0, -0.15)], 2))
    poly(
        d,
        tf,
        smooth(
            [
                (-0.05, 0.2),
                (0.05, 0.2),
                (0.11, 0.5),
                (0.04, 0.54),
                (0.0, 0.51),
                (-0.04, 0.54),
                (-0.11, 0.5),
            ],
            3,
        ),
    )
    for side in (1, -1):

        def m(p: Point, side: int = side) -> Point:
            return (p[0] * side, p[1])

        arm = [
            (0.05, -0.12),
            (0.25, -0.24),
            (0.45, -0.3),
            (0.6, -0.32),
            (0.67, -0.27),
            (0.66, -0.12),
        ]
        # trailing edge of secondaries, scalloped feather by feather
        for k in range(7):
            fx = 0.6 - 0.078 * k
            fy = 0.02 + 0.1 * (1 - fx / 0.6) ** 0.7
            arm += [(fx, fy + 0.035), (fx - 0.045, fy - 0.005)]
        arm.append((0.06, 0.1))
        poly(d, tf, [m(w(*p)) for p in smooth(arm, 3)])
        # primaries: long separated fingers
        for k, (tx, ty) in enumerate(
            [(1.0, -0.44), (1.02, -0.34), (0.99, -0.23), (0.93, -0.12), (0.84, -0.03)]
        ):
            feather(d, tf, m(w(0.48 + 0.025 * k, -0.27 + 0.05 * k)), m(w(tx, ty)), 0.14)


def draw_small_bird(d: ImageDraw.ImageDraw, x: float, y: float, s: float, flap: float) -> None:
    left = [(x - s, y - s * flap), (x - s * 0.5, y - s * 0.45 * flap - s * 0.15), (x, y)]
    right = [(x, y), (x + s * 0.5, y - s * 0.45 * flap - s * 0.15), (x + s, y - s * flap)]
    stroke(d, left, max(2, s * 0.18), max(1, s * 0.06))
    stroke(d, right, max(2, s * 0.18), max(1, s * 0.06))


# --------------------------------------------------------------------------- symbols


def rune_glyph(rng: random.Random) -> list[tuple[Point, Point]]:
    """2-4 strokes on a 3x3 grid around a vertical stem, like an invented futhark letter."""
    grid = [(gx / 2 - 0.5, gy / 2 - 0.5) for gy in range(3) for gx in range(3)]
    stem_x = rng.choice((-0.5, 0.0, 0.0, 0.5))
    strokes: list[tuple[Point, Point]] = [((stem_x, -0.5), (stem_x, 0.5))]
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(grid, 2)
        if a != b:
            strokes.append((a, b))
    return strokes


def draw_rune_ring(
    d: ImageDraw.ImageDraw,
    rng: random.Random,
    cx: float,
    cy: float,
    r: float,
    width: float,
    count: int,
) -> None:
    d.ellipse(
        (cx - r - width, cy - r - width, cx + r + width, cy + r + width),
        outline=255,
        width=max(2, round(width * 0.12)),
    )
    d.ellipse(
        (cx - r + width, cy - r + width, cx + r - width, cy + r - width),
        outline=255,
        width=max(2, round(width * 0.1)),
    )
    lw = max(2, round(width * 0.14))
    for k in range(count):
        th = 2 * math.pi * k / count
        c, s = math.cos(th), math.sin(th)
        gw = width * 0.9

        def place(p: Point, c: float = c, s: float = s, gw: float = gw) -> Point:
            u, v = p
            rad = r - v * gw * 1.1
            return (cx + rad * c - u * gw * 0.8 * s, cy + rad * s + u * gw * 0.8 * c)

        for a, b in rune_glyph(rng):
            d.line([place(a), place(b)], fill=255, width=lw)


def draw_star(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    n: int,
    step: int,
    rot: float,
    width: int,
) -> None:
    pts = [
        (cx + r * math.cos(rot + 2 * math.pi * k / n), cy + r * math.sin(rot + 2 * math.pi * k / n))
        for k in range(n)
    ]
    for k in range(n):
        d.line([pts[k], pts[(k + step) % n]], fill=255, width=width)


def draw_rays(
    d: ImageDraw.ImageDraw,
    rng: random.Random,
    cx: float,
    cy: float,
    n: int,
    length: float,
    spread: float,
    base_angle: float,
) -> None:
    for k in range(n):
        a = base_angle + spread * (k / max(1, n - 1) - 0.5) + rng.uniform(-0.03, 0.03)
        half = rng.uniform(0.012, 0.035)
        d.polygon(
            [
                (cx, cy),
                (cx + length * math.cos(a - half), cy + length * math.sin(a - half)),
                (cx + length * math.cos(a + half), cy + length * math.sin(a + half)),
            ],
            fill=rng.randint(90, 200),
        )


def draw_sword(d: ImageDraw.ImageDraw, detail: ImageDraw.ImageDraw, tf: Transform) -> None:
    """A sword planted point-down; unit: total height 1, ground at y = 0."""
    unit = abs(tf(1, 0)[0] - tf(0, 0)[0])
    poly(d, tf, [(-0.035, -0.66), (0.035, -0.66), (0.03, -0.1), (0.0, 0.04), (-0.03, -0.1)])
    poly(
        d,
        tf,
        smooth(
            [
                (-0.21, -0.69),
                (-0.14, -0.665),
                (0.14, -0.665),
                (0.21, -0.69),
                (0.15, -0.715),
                (-0.15, -0.715),
            ],
            3,
        ),
    )
    poly(d, tf, [(-0.02, -0.72), (0.02, -0.72), (0.018, -0.9), (-0.018, -0.9)])
    d.polygon(ell(tf, 0, -0.93, 0.045, 0.045), fill=255)
    detail.line([tf(0, -0.64), tf(0, -0.12)], fill=200, width=max(2, round(unit * 0.01)))
    detail.ellipse([*tf(-0.018, -0.948), *tf(0.018, -0.912)], fill=230)


def draw_shield(
    d: ImageDraw.ImageDraw, detail: ImageDraw.ImageDraw, tf: Transform, rng: random.Random
) -> None:
    outline = smooth(
        [
            (-0.34, -0.95),
            (0.0, -0.9),
            (0.34, -0.95),
            (0.33, -0.6),
            (0.24, -0.3),
            (0.0, -0.04),
            (-0.24, -0.3),
            (-0.33, -0.6),
        ],
        6,
    )
    poly(d, tf, outline)
    unit = abs(tf(1, 0)[0] - tf(0, 0)[0])
    lw = max(2, round(unit * 0.012))
    inner = [tf(x * 0.86, -0.5 + (y + 0.5) * 0.86) for x, y in outline]
    detail.line([*inner, inner[0]], fill=220, width=lw)
    emblem = rng.choice(("cross", "chevron", "sun"))
    if emblem == "cross":
        detail.line([tf(0, -0.82), tf(0, -0.2)], fill=220, width=lw * 2)
        detail.line([tf(-0.22, -0.62), tf(0.22, -0.62)], fill=220, width=lw * 2)
    elif emblem == "chevron":
        for k in (0.0, 0.16):
            detail.line(
                [tf(-0.24, -0.45 - k), tf(0, -0.68 - k), tf(0.24, -0.45 - k)],
                fill=220,
                width=lw * 2,
                joint="curve",
            )
    else:
        detail.ellipse([*tf(-0.09, -0.65), *tf(0.09, -0.47)], fill=230)
        for k in range(12):
            a = 2 * math.pi * k / 12
            detail.line(
                [
                    tf(0.13 * math.cos(a), -0.56 + 0.13 * math.sin(a)),
                    tf(0.22 * math.cos(a), -0.56 + 0.22 * math.sin(a)),
                ],
                fill=200,
                width=lw,
            )


def draw_crown(d: ImageDraw.ImageDraw, detail: ImageDraw.ImageDraw, tf: Transform) -> None:
    poly(
        d,
        tf,
        [
            (-0.4, -0.25),
            (0.4, -0.25),
            (0.46, -0.72),
            (0.24, -0.5),
            (0.12, -0.85),
            (0.0, -0.55),
            (-0.12, -0.85),
            (-0.24, -0.5),
            (-0.46, -0.72),
        ],
    )
    poly(d, tf, [(-0.42, -0.25), (0.42, -0.25), (0.42, -0.12), (-0.42, -0.12)])
    for x, y in ((-0.46, -0.72), (-0.12, -0.85), (0.12, -0.85), (0.46, -0.72), (0.0, -0.3)):
        detail.ellipse([*tf(x - 0.035, y - 0.035), *tf(x + 0.035, y + 0.035)], fill=240)


def draw_crystal(d: ImageDraw.ImageDraw, detail: ImageDraw.ImageDraw, tf: Transform) -> None:
    poly(
        d, tf, [(0.0, -1.0), (0.16, -0.68), (0.16, -0.3), (0.0, 0.0), (-0.16, -0.3), (-0.16, -0.68)]
    )
    unit = abs(tf(1, 0)[0] - tf(0, 0)[0])
    lw = max(2, round(unit * 0.006))
    for a, b in (
        ((0.0, -1.0), (0.04, -0.68)),
        ((0.04, -0.68), (0.04, -0.3)),
        ((0.04, -0.3), (0.0, 0.0)),
        ((0.16, -0.68), (0.04, -0.68)),
        ((0.16, -0.3), (0.04, -0.3)),
        ((-0.16, -0.68), (0.04, -0.68)),
    ):
        detail.line([tf(*a), tf(*b)], fill=170, width=lw)
    detail.polygon([tf(0.0, -1.0), tf(0.16, -0.68), tf(0.04, -0.68)], fill=110)


# --------------------------------------------------------------------------- city


def draw_city(
    d: ImageDraw.ImageDraw,
    win: ImageDraw.ImageDraw,
    rng: random.Random,
    x0: float,
    x1: float,
    ground: float,
    tall: float,
    roofs: Sequence[str],
    pennants: bool,
) -> None:
    """A walled city from ``x0`` to ``x1`` on ``ground``: a crenellated wall, towers
    rising towards the keep in the middle (``tall`` high) under roofs chosen among
    ``roofs``, lit windows and the gate (drawn on ``win``)."""
    wall_h = tall * 0.12
    foot = ground + 8
    d.rectangle((x0, ground - wall_h, x1, foot), fill=255)
    merlon = max(8.0, tall * 0.035)
    x = x0
    while x < x1 - merlon:
        d.rectangle(
            (x, ground - wall_h - merlon * 0.9, x + merlon * 0.6, ground - wall_h), fill=255
        )
        x += merlon * 1.3
    n = rng.randint(6, 9)
    centre = (x0 + x1) / 2
    xs = [*sorted(rng.uniform(x0 + 20, x1 - 20) for _ in range(n - 1)), centre]
    for i, tx in enumerate(xs):
        keep = i == n - 1
        closeness = 1 - abs(tx - centre) / ((x1 - x0) / 2 + 1)
        th = tall * (1.0 if keep else rng.uniform(0.35, 0.75) * (0.6 + 0.4 * closeness))
        tw = tall * (0.2 if keep else rng.uniform(0.07, 0.13))
        top = ground - th
        d.rectangle((tx - tw / 2, top, tx + tw / 2, foot), fill=255)
        draw_roof(d, rng, rng.choice(roofs), tx, top, tw, pennants)
        # lit windows (arched slits)
        rows = max(1, int(th / (tw * 0.9)) - 1)
        for r in range(rows):
            if rng.random() < 0.45:
                continue
            wy = top + tw * (0.45 + r * 0.9)
            ww, wh = max(2.0, tw * 0.12), max(4.0, tw * 0.26)
            if wy + wh < ground - wall_h * 0.3:
                win.rectangle((tx - ww / 2, wy, tx + ww / 2, wy + wh), fill=255)
                win.ellipse((tx - ww / 2, wy - ww / 2, tx + ww / 2, wy + ww / 2), fill=255)
    gate_w = tall * 0.12
    win.rectangle(
        (centre - gate_w / 2, ground - wall_h * 0.55, centre + gate_w / 2, ground), fill=150
    )
    win.ellipse(
        (
            centre - gate_w / 2,
            ground - wall_h * 0.55 - gate_w / 2,
            centre + gate_w / 2,
            ground - wall_h * 0.55 + gate_w / 2,
        ),
        fill=150,
    )


def draw_roof(
    d: ImageDraw.ImageDraw,
    rng: random.Random,
    roof: str,
    tx: float,
    top: float,
    tw: float,
    pennants: bool,
) -> None:
    """The roof of a tower ``tw`` wide centred on ``tx``, its top at ``top``: a spire
    (with a pennant), a dome, jagged spikes, crenels, or a flat parapet."""
    if roof == "spire":
        peak = top - tw * rng.uniform(1.2, 2.2)
        d.polygon([(tx - tw * 0.62, top), (tx, peak), (tx + tw * 0.62, top)], fill=255)
        if pennants:
            d.line([(tx, peak), (tx, peak - tw * 0.5)], fill=255, width=max(2, round(tw * 0.05)))
            fl = tw * 0.6
            d.polygon(
                [(tx, peak - tw * 0.5), (tx + fl, peak - tw * 0.4), (tx, peak - tw * 0.28)],
                fill=255,
            )
    elif roof == "dome":
        d.ellipse((tx - tw * 0.55, top - tw * 0.6, tx + tw * 0.55, top + tw * 0.5), fill=255)
        d.polygon(
            [
                (tx - tw * 0.06, top - tw * 0.5),
                (tx, top - tw * 0.95),
                (tx + tw * 0.06, top - tw * 0.5),
            ],
            fill=255,
        )
    elif roof == "jagged":
        k = rng.randint(3, 5)
        pts = [(tx - tw * 0.6, top)]
        for j in range(k):
            fx = -0.5 + (j + 0.5) / k
            pts += [(tx + tw * fx, top - tw * rng.uniform(0.8, 2.6) * (1.3 if j == k // 2 else 1))]
            pts += [(tx + tw * (fx + 0.5 / k), top - tw * 0.15)]
        pts.append((tx + tw * 0.6, top))
        d.polygon(pts, fill=255)
    elif roof == "crenel":
        d.rectangle((tx - tw * 0.6, top - tw * 0.15, tx + tw * 0.6, top + tw * 0.1), fill=255)
        for j in range(4):
            mx = tx - tw * 0.6 + j * tw * 0.37
            d.rectangle((mx, top - tw * 0.38, mx + tw * 0.18, top - tw * 0.1), fill=255)
    else:  # flat with a parapet line
        d.rectangle((tx - tw * 0.56, top - tw * 0.08, tx + tw * 0.56, top + tw * 0.04), fill=255)


# --------------------------------------------------------------------------- brushwork


def brushwork(
    img: Image.Image,
    rng: random.Random,
    count: int,
    length: tuple[float, float],
    width: tuple[float, float],
    alpha: int,
    flow: Image.Image,
    spread: float,
    edge: int,
) -> None:
    """Lens-shaped dabs coloured from a blurred copy of the picture, following a flow field."""
    ds = 4
    small = img.resize((W // ds, H // ds), Image.Resampling.BILINEAR)
    px = small.load()
    fl = flow.resize((W // ds, H // ds), Image.Resampling.BILINEAR).load()
    assert px is not None and fl is not None
    d = ImageDraw.Draw(img, "RGBA")
    sw, sh = W // ds - 1, H // ds - 1
    for _ in range(count):
        x, y = rng.uniform(-10, W + 10), rng.uniform(-10, H + 10)
        sx, sy = min(sw, max(0, int(x / ds))), min(sh, max(0, int(y / ds)))
        r, g, b = px[sx, sy]  # type: ignore[misc]
        # keep crisp edges crisp: skip where the picture changes fast
        contrast = 0
        for nx, ny in ((sx - 2, sy), (sx + 2, sy), (sx, sy - 2), (sx, sy + 2)):
            nr, ng, nb = px[min(sw, max(0, nx)), min(sh, max(0, ny))]  # type: ignore[misc]
            contrast = max(contrast, abs(nr - r) + abs(ng - g) + abs(nb - b))
        if contrast > edge:
            continue
        f = fl[sx, sy]
        a = (f / 255 - 0.5) * spread + rng.uniform(-0.12, 0.12)  # type: ignore[operator]
        ln, wd = rng.uniform(*length) / 2, rng.uniform(*width) / 2
        ca, sa = math.cos(a), math.sin(a)
        k = rng.randint(-7, 7)
        pts = [
            (x - ca * ln, y - sa * ln),
            (x - ca * ln * 0.4 - sa * wd, y - sa * ln * 0.4 + ca * wd),
            (x + ca * ln * 0.4 - sa * wd, y + sa * ln * 0.4 + ca * wd),
            (x + ca * ln, y + sa * ln),
            (x + ca * ln * 0.4 + sa * wd, y + sa * ln * 0.4 - ca * wd),
            (x - ca * ln * 0.4 + sa * wd, y - sa * ln * 0.4 - ca * wd),
        ]
        d.polygon(pts, fill=(clamp8(r + k), clamp8(g + k), clamp8(b + k), alpha))


# --------------------------------------------------------------------------- composition


def seed_of(slug: str) -> int:
    return int.from_bytes(hashlib.sha256(slug.encode("utf-8")).digest()[:8], "big")


@dataclass
class Scene:
    """Everything the type-specific painters share while one card is drawn."""

    rng: random.Random
    faction: str
    pal: Palette
    ctype: str
    words: set[str]
    img: Image.Image
    hz: float  # horizon
    sun: Point
    sun_r: float
    light: Point  # direction the rim light comes from
    texs: list[Image.Image]
    layers: list[Layer]
    subject: Image.Image  # dark silhouette of the main subject
    detail: Image.Image  # glowing trims drawn on the subject
    glowing: Image.Image  # free-floating light: runes, bolts, orbs

    def __post_init__(self) -> None:
        self.sd = ImageDraw.Draw(self.subject)
        self.dd = ImageDraw.Draw(self.detail)
        self.gd = ImageDraw.Draw(self.glowing)

    def has(self, *stems: str) -> bool:
        return has(self.words, *stems)

    @property
    def fiery(self) -> bool:
        return self.has("ember", "fire", "flame", "burn", "blaze", "inferno", "pyre")

    @property
    def ashen(self) -> bool:
        return self.has("ash", "smoke", "cinder", "soot")

    @property
    def stormy(self) -> bool:
        return self.has("storm", "thunder", "lightning", "tempest", "rain")


def paint_event_sky(sc: Scene) -> None:
    """Rays from a sun on the horizon, behind the hills."""
    rng, pal = sc.rng, sc.pal
    rays = new_mask()
    draw_rays(
        ImageDraw.Draw(rays),
        rng,
        sc.sun[0],
        sc.hz + 10,
        rng.randint(9, 15),
        W * 1.1,
        2.4,
        -math.pi / 2 + rng.uniform(-0.2, 0.2),
    )
    rays = rays.filter(ImageFilter.GaussianBlur(6))
    sc.img = glow(sc.img, rays, pal.accent, 30, 0.5)
    sc.img = ImageChops.screen(
        sc.img,
        Image.composite(
            solid(mix(pal.accent, pal.sky[2], 0.3)), solid((0, 0, 0)), scale_mask(rays, 0.45)
        ),
    )
    sc.img = draw_sun(sc.img, rng, pal, sc.sun[0], sc.hz - sc.sun_r * 0.2, sc.sun_r * 1.2, False)


def paint_city(sc: Scene, layer: Layer) -> None:
    """Towers and walls on the plateau of `layer` (drawn just after that layer)."""
    rng, pal = sc.rng, sc.pal
    ground = layer.base - layer.plateau + 2
    city, windows = new_mask(), new_mask()
    draw_city(
        ImageDraw.Draw(city),
        ImageDraw.Draw(windows),
        rng,
        layer.span[0] + 40,
        layer.span[1] - 40,
        ground,
        H * rng.uniform(0.34, 0.42),
        CITY_ROOFS[sc.faction],
        sc.faction in ("redbanner", "houseofnobles"),
    )
    silhouette(sc.img, city, pal, sc.texs[1], sc.light)
    windows = ImageChops.multiply(windows, city)
    sc.img = glow(sc.img, windows, pal.metal, 14, 2.2)
    paint(sc.img, windows, mix(pal.accent, pal.metal, 0.4))
    if sc.fiery or sc.ashen:
        smoke = value_noise(rng, [(14, 4, 1.0), (28, 8, 0.5), (56, 16, 0.25)])
        top = ground - H * 0.55
        fade = vmask(lambda y: 200 * ramp(y, ground + 20, top) ** 0.6 * (1 - ramp(y, top, -40)))
        sc.img = Image.composite(
            solid(mix(pal.land[1], pal.sky[1], 0.4)),
            sc.img,
            ImageChops.multiply(soft_threshold(smoke, 120, 220, 150), fade),
        )


def paint_bird(sc: Scene) -> None:
    rng = sc.rng
    bx, by = W * rng.uniform(0.44, 0.56), H * rng.uniform(0.36, 0.44)
    tf = make_tf(bx, by, W * rng.uniform(0.33, 0.4), 1, rng.uniform(-0.18, 0.18))
    draw_bird(sc.sd, tf, rng.uniform(-0.15, 0.35))
    if sc.stormy:
        x = W * rng.uniform(0.1, 0.3) if bx > W / 2 else W * rng.uniform(0.7, 0.9)
        y = 0.0
        bolt = [(x, y)]
        while y < sc.hz + 40:
            x += rng.uniform(-40, 40)
            y += rng.uniform(30, 70)
            bolt.append((x, y))
        stroke(sc.gd, bolt, 7, 2)
    sc.light = (bx - W / 2 + rng.uniform(-200, 200), -H)


def paint_creature(sc: Scene) -> None:
    if sc.has(*BIRD):
        paint_bird(sc)
        return
    rng, fg = sc.rng, sc.layers[-1]
    gx = W * rng.uniform(0.44, 0.56)
    beast = beast_kind(sc.words)
    flip = rng.choice((-1, 1))
    if not (is_person(sc.words) or beast is None):
        s = H * rng.uniform(0.26, 0.3)
        draw_beast(sc.sd, make_tf(gx - flip * s * 0.1, fg.ground(gx) + 6, s, flip), s, beast, rng)
        return
    fh = H * rng.uniform(0.52, 0.58)
    tf = make_tf(gx, fg.ground(gx) + 6, fh, flip)
    tipx, tipy = draw_person(sc.sd, sc.dd, rng, tf, sc.words, sc.faction)
    if not sc.has("guard", "soldier", "warrior", "knight", "sentinel"):
        tip, r = tf(tipx, tipy - 0.02), fh * 0.025
        sc.gd.ellipse((tip[0] - r, tip[1] - r, tip[0] + r, tip[1] + r), fill=255)
    if beast:  # companions: smaller animals at her/his sides
        for side in (-1, 1):
            for k in range(rng.randint(1, 2)):
                behind = 0.1 if side == -flip else 0.0  # clear of the cape
                bx = gx + side * W * (0.2 + behind + 0.11 * k + rng.uniform(0, 0.04))
                bx = min(W * 0.93, max(W * 0.07, bx))
                s = fh * rng.uniform(0.3, 0.36) * (1 - 0.15 * k)
                facing = -side if k == 0 else rng.choice((-1, 1))
                draw_beast(sc.sd, make_tf(bx, fg.ground(bx) + 6, s, facing), s, beast, rng)


def paint_magic(sc: Scene) -> None:
    rng, gd = sc.rng, sc.gd
    cx, cy, r = W * 0.5, H * rng.uniform(0.38, 0.44), H * rng.uniform(0.25, 0.29)
    draw_rune_ring(gd, rng, cx, cy, r, r * 0.12, rng.randint(12, 18))
    npts, step = rng.choice(((5, 2), (7, 3), (7, 2), (9, 4), (8, 3)))
    draw_star(gd, cx, cy, r * 0.86, npts, step, rng.uniform(0, 6.28), max(2, round(r * 0.012)))
    gd.ellipse((cx - r * 0.1, cy - r * 0.1, cx + r * 0.1, cy + r * 0.1), fill=255)
    if sc.fiery or sc.has("bolt", "strike", "lightning"):
        ang = rng.uniform(0.45, 0.8)
        ex, ey = cx + math.cos(ang) * W * 0.7 * rng.choice((1, -1)), cy + math.sin(ang) * H * 0.8
        pts = [
            (
                cx + (ex - cx) * k / 10 + rng.uniform(-12, 12),
                cy + (ey - cy) * k / 10 + rng.uniform(-12, 12),
            )
            for k in range(11)
        ]
        stroke(gd, pts, r * 0.18, r * 0.02)
        for _ in range(160):
            k = rng.random()
            x = cx + (ex - cx) * k + rng.gauss(0, 60 * (0.3 + k))
            y = cy + (ey - cy) * k + rng.gauss(0, 60 * (0.3 + k))
            er = rng.uniform(1.5, 4.5)
            gd.ellipse((x - er, y - er, x + er, y + er), fill=rng.randint(120, 255))


def paint_enchantment(sc: Scene) -> None:
    rng, gd = sc.rng, sc.gd
    cx, cy = W * 0.5, H * rng.uniform(0.36, 0.42)
    ch = H * rng.uniform(0.3, 0.36)
    draw_crystal(sc.sd, sc.dd, make_tf(cx, cy + ch / 2, ch, 1, rng.uniform(-0.08, 0.08)))
    for k in range(rng.randint(2, 3)):
        a = rng.uniform(-0.6, 0.6)
        rx, ry = ch * (0.7 + 0.18 * k), ch * (0.16 + 0.05 * k)
        ring = [
            (
                cx + rx * math.cos(t) * math.cos(a) - ry * math.sin(t) * math.sin(a),
                cy + rx * math.cos(t) * math.sin(a) + ry * math.sin(t) * math.cos(a),
            )
            for t in [2 * math.pi * j / 90 for j in range(91)]
        ]
        gd.line(ring, fill=190, width=3)
        for _ in range(rng.randint(2, 4)):
            p = ring[rng.randrange(90)]
            mr = rng.uniform(5, 11)
            gd.ellipse((p[0] - mr, p[1] - mr, p[0] + mr, p[1] + mr), fill=255)
    for _ in range(90):
        x, y = rng.gauss(cx, W * 0.2), rng.gauss(cy, H * 0.18)
        mr = rng.uniform(1, 3)
        gd.ellipse((x - mr, y - mr, x + mr, y + mr), fill=rng.randint(100, 255))


def paint_equipment(sc: Scene) -> None:
    rng, sd, dd = sc.rng, sc.sd, sc.dd
    gx = W * 0.5
    ground = sc.layers[-1].ground(gx) + 10
    oh = H * rng.uniform(0.5, 0.56)
    if sc.has("shield", "buckler", "aegis"):
        draw_shield(sd, dd, make_tf(gx, ground - oh * 0.1, oh * 0.8), rng)
    elif sc.has("crown", "diadem", "circlet", "tiara"):
        draw_crown(sd, dd, make_tf(gx, ground - oh * 0.25, oh * 0.6))
    elif sc.has("crystal", "gem", "orb", "stone", "jewel") or sc.ctype == "artifact":
        draw_crystal(sd, dd, make_tf(gx, ground - oh * 0.12, oh * 0.8))
    else:
        draw_sword(sd, dd, make_tf(gx, ground, oh))
    hx, hy = gx, ground - oh * 0.62
    draw_rune_ring(sc.gd, rng, hx, hy, oh * 0.42, oh * 0.045, rng.randint(14, 20))
    rays = new_mask()
    draw_rays(ImageDraw.Draw(rays), rng, hx, hy, 24, H * 0.8, 2 * math.pi, 0)
    sc.img = glow(sc.img, rays.filter(ImageFilter.GaussianBlur(8)), sc.pal.accent, 20, 0.35)
    sc.light = (0.0, -H)


def paint_event(sc: Scene) -> None:
    rng, fg = sc.rng, sc.layers[-1]
    if sc.has("bird", "messenger", "news", "tiding", "flock", "raven", "crow", "wing"):
        lead_x = sc.sun[0] + rng.choice((-1, 1)) * W * 0.12
        lead_y = sc.hz * rng.uniform(0.45, 0.6)
        for k in range(rng.randint(14, 24)):
            side, rank = (1 if k % 2 else -1), (k + 1) // 2
            s = rng.uniform(16, 26) * (1 + 0.08 * rank)
            x = lead_x + side * rank * W * 0.035 + rng.uniform(-20, 20)
            y = lead_y + rank * H * 0.03 + rng.uniform(-14, 14)
            draw_small_bird(sc.sd, x, y, s, rng.uniform(-0.3, 0.6))
    else:  # a comet
        cx, cy = W * rng.uniform(0.2, 0.8), H * rng.uniform(0.12, 0.25)
        ang = rng.uniform(2.4, 2.9) if cx > W / 2 else rng.uniform(0.25, 0.7)
        stroke(
            sc.gd,
            [(cx + math.cos(ang) * ln, cy + math.sin(ang) * ln * 0.4) for ln in (0, 80, 200, 360)],
            18,
            2,
        )
    # standing stones carved with runes, framing the scene
    for side in (-1, 1):
        sx = W / 2 + side * W * rng.uniform(0.3, 0.38)
        sh, swd = H * rng.uniform(0.24, 0.32), W * rng.uniform(0.05, 0.07)
        g = fg.ground(sx) + 12
        sc.sd.polygon(
            [
                (sx - swd / 2, g),
                (sx - swd * 0.45, g - sh),
                (sx - swd * 0.1, g - sh * 1.08),
                (sx + swd * 0.5, g - sh * 0.95),
                (sx + swd / 2, g),
            ],
            fill=255,
        )
        for j in range(3):
            gy = g - sh * (0.8 - 0.22 * j)
            for a, b in rune_glyph(rng):
                sc.dd.line(
                    [
                        (sx + a[0] * swd * 0.45, gy + a[1] * sh * 0.15),
                        (sx + b[0] * swd * 0.45, gy + b[1] * sh * 0.15),
                    ],
                    fill=220,
                    width=3,
                )


PAINTERS: dict[str, Callable[[Scene], None]] = {
    "creature": paint_creature,
    "magic": paint_magic,
    "enchantment": paint_enchantment,
    "equipment": paint_equipment,
    "artifact": paint_equipment,
    "event": paint_event,
}


def build_layers(rng: random.Random, terrain: str, hz: float, city: bool) -> list[Layer]:
    """Four ridges, far to near; the nearest frames the scene, a city gets a plateau."""
    n = 4
    layers: list[Layer] = []
    for i in range(n):
        t = i / (n - 1)
        base = hz + (H - hz) * (0.03 + 0.8 * t**1.25)
        amp = H * (0.26 - 0.15 * t)
        relief = amp * (0.65 if terrain in ("dunes", "rolling", "hills") else 1.0)
        style = terrain if i < n - 1 else ("dunes" if terrain == "dunes" else "hills")
        heights = profile(rng, style, relief)
        layer = Layer(base, heights, amp)
        if i == n - 1:  # low in the middle, rising at the sides
            layer.heights = [
                0.5 * v + relief * 0.9 * (abs(x - W / 2) / (W / 2)) ** 2.2
                for v, x in zip(heights, RIDGE_X, strict=True)
            ]
        elif city and i == CITY_LAYER:
            layer.plateau = rng.uniform(0.08, 0.13) * H
            x0, x1 = W * rng.uniform(0.12, 0.22), W * rng.uniform(0.78, 0.88)
            layer.span = (x0, x1)
            layer.heights = [
                0.12 * v + layer.plateau * min(1.0, max(0.0, min(x - x0 + 120, x1 + 120 - x) / 120))
                for v, x in zip(heights, RIDGE_X, strict=True)
            ]
        layers.append(layer)
    return layers


def render(card: dict[str, str]) -> Image.Image:
    """A card's artwork: sky and sun, a landscape of layers, the subject its type
    paints, its light and embers, brushwork and a vignette, every random choice from
    the slug's seed (in a fixed order: the same slug gives the same bytes)."""
    rng = random.Random(seed_of(card["slug"]))
    faction = faction_key(card.get("faction", "None"))
    pal = PALETTES[faction]
    ctype = re.sub(r"[^a-z]", "", card.get("type", "").lower())
    if ctype not in PAINTERS and ctype != "city":
        ctype = "event"
    words = words_of(card)
    img, hz, (sun_x, sun_y, sun_r) = _sky_and_sun(rng, pal, faction, ctype, words)

    tex = value_noise(rng, [(6, 5, 1.0), (12, 10, 0.5), (30, 25, 0.3), (75, 62, 0.18)])
    texs = [
        tex,
        tex.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        tex.transpose(Image.Transpose.FLIP_TOP_BOTTOM),
        tex.transpose(Image.Transpose.ROTATE_180),
    ]
    flow = value_noise(rng, [(5, 4, 1.0), (10, 8, 0.4)])
    terrain = "dunes" if has(words, "dune", "desert", "sand") else pal.terrain
    sc = Scene(
        rng,
        faction,
        pal,
        ctype,
        words,
        img,
        hz,
        (sun_x, sun_y),
        sun_r,
        (sun_x - W / 2, sun_y - H * 0.7),
        texs,
        build_layers(rng, terrain, hz, ctype == "city"),
        new_mask(),
        new_mask(),
        new_mask(),
    )

    if ctype == "event":
        paint_event_sky(sc)
    paint_landscape(sc)
    # loose brushwork over the landscape, before the crisp main subject
    brushwork(sc.img, rng, 2600, (14, 46), (4, 11), 72, flow, 1.2, 110)
    if ctype in PAINTERS:
        PAINTERS[ctype](sc)
    img = light_subject(sc)
    if (sc.fiery and ctype != "magic") or sc.ashen:
        img = drift_flakes(sc, img)

    # light, unifying brushwork over everything
    brushwork(img, rng, 1600, (8, 26), (3, 7), 45, flow, 1.6, 40)

    # vignette
    rad = Image.radial_gradient("L").resize((W, H), Image.Resampling.BILINEAR)
    vig = rad.point(lambda v: clamp8((v - 110) * 1.3))
    img = Image.composite(solid(pal.dark), img, scale_mask(vig, 0.55))
    return img.filter(ImageFilter.SMOOTH)


def _sky_and_sun(
    rng: random.Random, pal: Palette, faction: str, ctype: str, words: set[str]
) -> tuple[Image.Image, float, tuple[float, float, float]]:
    """The sky (clouds for a storm) with the sun or moon: centred for a spell, off to
    a side otherwise, left out where a spell or a bird fills the sky.  Returns the
    image, the horizon and the sun's (x, y, radius), which the rim light follows."""
    hz = H * rng.uniform(0.5, 0.6)
    img = draw_sky(rng, pal, hz)
    img = draw_clouds(
        img, rng, pal, hz, has(words, "storm", "thunder", "lightning", "tempest", "rain")
    )
    centred = ctype in ("magic", "enchantment", "event")
    sun_x = W * (
        rng.uniform(0.42, 0.58)
        if centred
        else rng.choice((rng.uniform(0.14, 0.34), rng.uniform(0.66, 0.86)))
    )
    sun_y, sun_r = hz * rng.uniform(0.28, 0.62), H * rng.uniform(0.05, 0.085)
    if not (centred or (ctype == "creature" and has(words, *BIRD))):
        night = faction == "darklegion" or has(words, "night", "moon", "midnight", "shadow")
        img = draw_sun(img, rng, pal, sun_x, sun_y, sun_r, night)
    return img, hz, (sun_x, sun_y, sun_r)


def paint_landscape(sc: Scene) -> None:
    """The landscape's layers, far to near, a city on its plateau and mist between
    each layer and the next."""
    n = len(sc.layers)
    for i, layer in enumerate(sc.layers):
        draw_layer(
            sc.img, sc.rng, sc.pal, layer, i, n, sc.texs[i % 4], sc.pal.terrain == "snowpeaks"
        )
        if layer.plateau:
            paint_city(sc, layer)
        if i < n - 1:
            sc.img = draw_mist(
                sc.img, sc.pal, layer, layer.amp, sc.texs[(i + 2) % 4], 0.5 - 0.1 * i
            )


def light_subject(sc: Scene) -> Image.Image:
    """The subject as a rim-lit silhouette, its trims glowing, and the free light
    (runes, bolts, orbs) glowing on top: fiery light warmer."""
    img, pal = sc.img, sc.pal
    if sc.subject.getbbox():
        silhouette(img, sc.subject, pal, sc.texs[2], sc.light)
    if sc.detail.getbbox():
        detail = ImageChops.multiply(sc.detail, sc.subject)
        img = glow(img, detail, pal.accent, 10, 1.6)
        paint(img, scale_mask(detail, 0.8), mix(pal.accent, pal.metal, 0.3))
    if sc.glowing.getbbox():
        colour = mix(pal.accent, (255, 140, 40), 0.6) if sc.fiery else pal.accent
        img = glow(img, sc.glowing, colour, 40, 1.3)
        img = glow(img, sc.glowing, mix(colour, (255, 255, 255), 0.4), 10, 1.5)
        paint(img, scale_mask(sc.glowing, 0.9), mix(colour, (255, 255, 255), 0.7))
    return img


def drift_flakes(sc: Scene, img: Image.Image) -> Image.Image:
    """Drifting embers (glowing) or ash flakes (grey) over the whole picture."""
    rng, pal = sc.rng, sc.pal
    flakes = new_mask()
    ed = ImageDraw.Draw(flakes)
    for _ in range(140):
        x, y = rng.uniform(0, W), rng.uniform(0, H * 0.92)
        er = rng.uniform(1.2, 3.4)
        ed.ellipse((x - er, y - er * 0.7, x + er, y + er * 0.7), fill=rng.randint(110, 255))
    if sc.fiery:
        img = glow(img, flakes, (255, 150, 60), 8, 1.5)
        paint(img, flakes, (255, 214, 150))
    else:
        paint(img, scale_mask(flakes, 0.7), mix(pal.accent, (200, 200, 200), 0.6))
    return img


# --------------------------------------------------------------------------- I/O


def encode(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", quality=QUALITY, optimize=True, progressive=False)
    return buf.getvalue()


SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def load_deck(directory: Path) -> list[dict[str, str]]:
    """Cards of a deck directory: faction and type from the card files."""
    import yaml  # noqa: PLC0415

    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from translator.cards import load_library  # noqa: PLC0415

    library, problems = load_library([str(directory)])
    descriptions = yaml.safe_load(
        (directory / "art" / "descriptions.yaml").read_text(encoding="utf-8")
    )
    cards = []
    for card in library.cards.values():
        if card.source is None:
            continue
        cards.append(
            {
                "slug": card.slug,
                "faction": str(card.get("faction")),
                "type": str(card.get("type")),
                "description": str(descriptions.get(card.slug, card.name())),
            }
        )
    del problems  # missing artwork is what this script is run to fix
    return sorted(cards, key=lambda c: c["slug"])


def load_cards(path: Path) -> list[dict[str, str]]:
    if path.is_dir():
        return load_deck(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml  # noqa: PLC0415  (PyYAML only when a YAML file is given)

        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    if isinstance(data, dict):
        data = data.get("cards", [])
    if not isinstance(data, list):
        raise SystemExit(f"{path}: expected a list of cards")
    cards: list[dict[str, str]] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not SLUG_RE.match(str(item.get("slug", ""))):
            raise SystemExit(f"{path}: card {i} needs a slug of lowercase letters, digits and '-'")
        cards.append({k: str(item.get(k, "")) for k in ("slug", "faction", "type", "description")})
    return cards


def generate(cards: Sequence[dict[str, str]], out: Path, verbose: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for card in cards:
        t0 = time.perf_counter()
        data = encode(render(card))
        (out / f"{card['slug']}.jpg").write_bytes(data)
        if verbose:
            print(
                f"{card['slug']}.jpg  {len(data) / 1024:.0f} KB  {time.perf_counter() - t0:.2f} s"
            )


def check(cards: Sequence[dict[str, str]], out: Path) -> int:
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        generate(cards, Path(tmp), verbose=False)
        for card in cards:
            name = f"{card['slug']}.jpg"
            have = out / name
            if not have.exists():
                print(f"missing: {have}")
                bad += 1
            elif have.read_bytes() != (Path(tmp) / name).read_bytes():
                print(f"differs: {have}")
                bad += 1
    print(f"{len(cards) - bad}/{len(cards)} images identical")
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "cards", type=Path, help="JSON or YAML list of {slug, faction, type, description}"
    )
    ap.add_argument("out", type=Path, help="output directory for <slug>.jpg")
    ap.add_argument(
        "--check",
        action="store_true",
        help="regenerate into a temporary directory and compare with OUT byte for byte",
    )
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    cards = load_cards(args.cards)
    if args.check:
        return check(cards, args.out)
    generate(cards, args.out, verbose=not args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
