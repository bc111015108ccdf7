"""The ink bound: what a page paints proves, without a render, that no pixel of it can
exceed the ink limit, or says why it cannot prove it.

Ghostscript's render (:mod:`.ink`) costs about 16 ms of CPU a card, most of it
decoding the artwork.  Yet a page's ink is no mystery: Ghostscript renders a DeviceCMYK
colour as its four numbers (its own CMYK is the device's, no conversion), an image as
its decoded pixels (no interpolation), and Normal blending is a weighted mean, never
more than the most of what it blends.  So every pixel is paper, or holds what the last
paint covering it left: that paint's own colour (or a mean of it and what was there),
or, under overprint (black text set to ``/OP true /op true /OPM 1``, what the build
does), the paint's inks over the channels it leaves, those of what was painted before
it there.

The bound is spatial (:class:`PageInk`): each paint is placed (:mod:`.extent`: the box
of its path, glyphs or image square, within its clip and its form's /BBox, widened by
two render pixels) and bounded by the most it may leave of each set of channels
(:data:`Bounds`): its own colour, an image's fullest pixels (:class:`Maxima`), a
shading's fullest colour; a paint under overprint by its own inks plus the most of the
channels it leaves of every earlier paint whose box meets its box
(:meth:`PageInk.overprint`).  The build overprints black on flat grounds beside the
artwork, so a card's bound is its fullest ground plus the black, or its artwork: the
sample's cards, default theme and official look, are all decided so (about 2 ms a card
of Python, the walk shared with the structure checks).

Where the bound says too much only because of artwork under black (a box that meets
the art's where the paint does not), the page is rendered with each image replaced by
one flat pixel of the image's fullest C+M+Y (and no K): Ghostscript then places the
text exactly at no cost of decoding, and a proxy pixel is never under the real one's
ink where black overprints it (:func:`proxy_pdf`).  A proxy render that comes near the
limit proves nothing and the page is rendered as it is.

Anything the bound does not read makes it give up and the page is rendered as before
(:attr:`PageInk.unknown` says why): another colour space than DeviceCMYK or an Indexed
space over it (ICC-based CMYK is converted by Ghostscript from its profile to its own,
which can raise the ink; a separation is a plate of its own), a blend mode other than
Normal, a transfer function, a Type3 glyph, a font whose outlines :mod:`.extent` cannot
read, an inline image, a JPEG 2000 image, an image or a shading under overprint, a
pattern painted under overprint.

An image's fullest pixel is measured once per image (decoded as Ghostscript decodes
it, the /Decode array applied) and kept by the digest of its stream: in this process,
and across runs in a build's cache folder (:meth:`ImageStats.keep_in`) and in the
user's (for a build into a new folder), since the same artwork is drawn by a card in
every language and in every build.
"""

from __future__ import annotations

import hashlib
import io
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import pikepdf
from PIL import Image

from ...cache import cache_directory, keep_newest, read_section
from ...paths import clear_odd
from ..geometry import IDENTITY, Matrix, multiply, transformed_box
from ..painter import operand_numbers, set_text_parameter
from ..profiles import band_extrema, band_sum
from .colour import SPACE_ABBREVIATIONS
from .extent import (
    DEFAULT_MITER,
    Box,
    FontShape,
    TextState,
    Unmeasured,
    font_shape,
    margin,
    points_box,
    stroke_reach,
    text_box,
    widened,
)
from .objects import lookup

#: Levels (of 255) of slack on the sum of the four channels of a colour given as numbers:
#: Ghostscript quantises each channel to 8 bits, up to a level off each.  An image's
#: pixels need none: they are 8-bit samples, rendered as they are (decoded by Pillow
#: exactly as by Ghostscript: tested on the sample's artwork and the official frames).
SLACK = 4

#: Changes when what is kept for an image (its maxima) changes meaning.
STATS_VERSION = 1
#: The images' maxima kept across runs, in the user's cache folder.
STATS_FILE = "preflight-ink.json"
#: At most this many images kept there (the most recently measured).
STATS_KEPT = 4096
_STATS_HEADER = ("version", STATS_VERSION)

#: Channel sets as bits: C, M, Y, K.
CYAN, MAGENTA, YELLOW, BLACK = 1, 2, 4, 8
ALL = 15
CMY = 7

_GENERAL_FILTERS = frozenset(
    {"/FlateDecode", "/LZWDecode", "/ASCIIHexDecode", "/ASCII85Decode", "/RunLengthDecode"}
)
_ABBREVIATED_FILTERS = {
    "/Fl": "/FlateDecode",
    "/LZW": "/LZWDecode",
    "/AHx": "/ASCIIHexDecode",
    "/A85": "/ASCII85Decode",
    "/RL": "/RunLengthDecode",
    "/DCT": "/DCTDecode",
}
_NORMAL_BLENDS = frozenset({"/Normal", "/Compatible"})

Levels = tuple[float, float, float, float]
"""A colour's four channels in levels (0-255, as the render has them)."""


class Unknown(Exception):
    """Something on the page the bound does not read: the page is rendered."""


def _mask_sum(levels: Sequence[float], mask: int) -> float:
    return sum(v for i, v in enumerate(levels) if mask >> i & 1)


Bounds = tuple[float, ...]
"""The most a paint may leave of each set of channels, in levels: indexed by the set's
bits (:data:`CYAN` ... :data:`BLACK`), 16 entries, the empty set's 0."""

#: The bounds of no paint: nothing of any channels.
_NOTHING: Bounds = (0.0,) * 16

#: Each set of channels' subsets, by the set's bits.
_SUBMASKS = tuple(tuple(part for part in range(16) if part & mask == part) for mask in range(16))


@lru_cache(maxsize=1024)
def _colour_bounds(levels: Levels) -> Bounds:
    """A colour given as numbers: each channel's level, and one level more for
    Ghostscript's rounding of it (:data:`SLACK` for all four)."""
    return tuple(_mask_sum(levels, mask) + SLACK / 4 * bin(mask).count("1") for mask in range(16))


def _meet(one: Box | None, other: Box | None) -> bool:
    """Whether two boxes overlap (None: anywhere, which meets everything)."""
    if one is None or other is None:
        return True
    return one[0] <= other[2] and other[0] <= one[2] and one[1] <= other[3] and other[1] <= one[3]


def _within(box: Box | None, clip: Box | None) -> Box | None:
    """``box`` cut to ``clip`` (None: anywhere); an empty result is an empty box."""
    if clip is None:
        return box
    if box is None:
        return clip
    return (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))


# ------------------------------------------------------------------ colour spaces


@dataclass(frozen=True)
class Space:
    """A colour space as the bound reads it: DeviceCMYK, an Indexed palette over it,
    or Pattern (its colour comes from the pattern)."""

    kind: str  # "cmyk", "indexed", "pattern"
    #: An Indexed space's palette, in levels.
    palette: tuple[Levels, ...] = ()
    #: An uncoloured pattern's underlying space.
    under: Space | None = None

    def colour(self, operands: Sequence[object]) -> Levels | None:
        """The colour ``sc``/``scn`` sets (None for a pattern's name alone)."""
        numbers = operand_numbers(operands)
        if self.kind == "cmyk":
            if numbers is None or len(numbers) != 4:
                raise Unknown("a DeviceCMYK colour without four numbers")
            return _levels(numbers)
        if self.kind == "indexed":
            if numbers is None or len(numbers) != 1:
                raise Unknown("an Indexed colour without an index")
            index = min(max(round(numbers[0]), 0), len(self.palette) - 1)
            return self.palette[index]
        if self.under is not None and operands and len(operands) > 1:
            return self.under.colour(operands[:-1])
        return None

    def initial(self) -> Levels | None:
        """The colour a space starts with when chosen (``cs``): black for CMYK, the
        first entry of a palette."""
        if self.kind == "cmyk":
            return (0.0, 0.0, 0.0, 255.0)
        if self.kind == "indexed":
            return self.palette[0]
        return None


CMYK_SPACE = Space("cmyk")


def read_space(space: object, resources: object, depth: int = 0) -> Space:
    """``space`` as the bound reads it, or :class:`Unknown`."""
    if depth > 8:
        raise Unknown("a colour space nested too deep")
    if isinstance(space, pikepdf.Name):
        name = SPACE_ABBREVIATIONS.get(str(space), str(space))
        if name == "/DeviceCMYK":
            return CMYK_SPACE
        if name == "/Pattern":
            return Space("pattern")
        named = lookup(resources, "/ColorSpace", space)
        if named is None:
            raise Unknown(f"colour space {name}")
        return read_space(named, resources, depth + 1)
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = SPACE_ABBREVIATIONS.get(str(space[0]), str(space[0]))
        if len(space) == 1:
            return read_space(pikepdf.Name(family), resources, depth + 1)
        if family == "/Indexed" and len(space) >= 4:
            return _indexed(space, resources, depth)
        if family == "/Pattern":
            return Space("pattern", under=read_space(space[1], resources, depth + 1))
        raise Unknown(f"colour space {family}")
    raise Unknown("an unreadable colour space")


def _indexed(space: pikepdf.Array, resources: object, depth: int) -> Space:
    """An Indexed space over DeviceCMYK: its palette, each entry in levels."""
    if read_space(space[1], resources, depth + 1).kind != "cmyk":
        raise Unknown("an Indexed space over another space than DeviceCMYK")
    try:
        hival = int(space[2])
    except (TypeError, ValueError):
        raise Unknown("an Indexed space without a highest index") from None
    table = space[3]
    data = table.read_bytes() if isinstance(table, pikepdf.Stream) else bytes(table)
    count = min(max(hival, 0), 255) + 1
    if len(data) < count * 4:
        raise Unknown("an Indexed palette shorter than its highest index")
    return Space(
        "indexed",
        tuple(
            (float(data[i]), float(data[i + 1]), float(data[i + 2]), float(data[i + 3]))
            for i in range(0, count * 4, 4)
        ),
    )


def _levels(values: Sequence[float]) -> Levels:
    c, m, y, k = (min(max(v, 0.0), 1.0) * 255 for v in values)
    return (c, m, y, k)


# ------------------------------------------------------------------ images


@dataclass(frozen=True)
class Maxima:
    """An image's fullest pixels, in levels: of C+M+Y+K, of C+M+Y, of each channel."""

    total: float
    cmy: float
    channels: Levels

    def of(self, mask: int) -> float:
        """The most any pixel has of the channels in ``mask`` (a sound upper bound:
        exact for all four and for C+M+Y, else the sum of each channel's most)."""
        if mask == ALL:
            return self.total
        if mask == CMY:
            return self.cmy
        bound = _mask_sum(self.channels, mask)
        if mask & CMY == mask:
            bound = min(bound, self.cmy)
        return min(bound, self.total)


def _palette_maxima(palette: Sequence[Levels]) -> Maxima:
    channels = tuple(max(entry[i] for entry in palette) for i in range(4))
    return Maxima(
        max(sum(entry) for entry in palette),
        max(_mask_sum(entry, CMY) for entry in palette),
        (channels[0], channels[1], channels[2], channels[3]),
    )


class ImageStats:
    """Images' maxima by the digest of their stream, measured once per process and
    kept across runs in :data:`STATS_FILE` of a folder (:meth:`keep_in`: a build's
    cache folder; none: in this process only)."""

    def __init__(self, directory: Path | None = None, *, shared: ImageStats | None = None) -> None:
        self._known: dict[str, Maxima] = {}
        self._new: dict[str, Maxima] = {}
        self._lock = threading.Lock()
        self._loaded = False
        #: The record's size and time when it was read (None: there was none).
        self._read: tuple[int, int] | None = None
        self.directory = directory
        #: Kept in the user's cache folder too (:meth:`keep_in`), for a build into a new
        #: folder: the same artwork and frames are drawn by every build.
        self.shared = shared

    def keep_in(self, directory: Path | None) -> None:
        """Keep the maxima in ``directory`` from now on (read from it first), and in
        the user's cache folder (:data:`SHARED_FOLDER`) when there is one."""
        with self._lock:
            if directory != self.directory:
                self.directory = directory
                self._loaded = False
        if self.shared is not None:
            user = cache_directory()
            self.shared.keep_in(None if user is None else user / SHARED_FOLDER)

    def known(self, key: str) -> Maxima | None:
        """The maxima of the image whose :func:`_image_key` is ``key``, when measured in
        this process or kept in the record."""
        with self._lock:
            return self._known_maxima(key)

    def learn(self, key: str, maxima: Maxima) -> None:
        """Keep ``maxima``, measured elsewhere, for the next :meth:`save`."""
        with self._lock:
            self._known[key] = self._new[key] = maxima

    def maxima(self, image: pikepdf.Stream, space: Space) -> Maxima:
        """The image's maxima (its palette's for an Indexed image), or :class:`Unknown`."""
        if space.kind == "indexed":
            return _palette_maxima(space.palette)
        if space.kind != "cmyk":
            raise Unknown("an image in a Pattern space")
        key = _image_key(image)
        found = self.known(key)
        if found is not None:
            return found
        found = self.shared.known(key) if self.shared is not None else None
        if found is not None:
            self.learn(key, found)
            return found
        measured = _measure_image(image)
        self.learn(key, measured)
        if self.shared is not None:
            self.shared.learn(key, measured)
        return measured

    def _known_maxima(self, key: str) -> Maxima | None:
        """The maxima of ``key`` measured in this process or kept in the record.  An
        image not known yet is looked for in the record again if it changed since it
        was read: the build's other worker keeps what it measured after each batch,
        and an image is decoded (about 20 ms) once per build, not once per worker."""
        if not self._loaded:
            self._load()
        found = self._known.get(key)
        if found is None and self._read != self._record_stamp():
            self._load()
            found = self._known.get(key)
        return found

    def _record_stamp(self) -> tuple[int, int] | None:
        path = self._path()
        try:
            info = path.stat() if path is not None else None
        except OSError:
            return None
        return None if info is None else (info.st_size, info.st_mtime_ns)

    def _load(self) -> None:
        """Read the record (:func:`translator.cache.read_section`: the one JSON reader,
        a FIFO or JSON nested too deep is a record missing); an entry that is not six
        levels in range (:func:`_valid_maxima`) is an image not measured yet: measured
        again, never trusted (a maxima of ``"nan"`` or ``-1`` would pass any ink)."""
        self._loaded = True
        self._read = self._record_stamp()  # before reading: a change meanwhile is read next
        for key, value in read_section(self._path(), _STATS_HEADER, "images").items():
            if _valid_maxima(value):
                total, cmy, c, m, y, k = (float(level) for level in value)
                self._known[key] = Maxima(total, cmy, (c, m, y, k))

    def _path(self) -> Path | None:
        return None if self.directory is None else self.directory / STATS_FILE

    def save(self) -> None:
        """Keep what this process measured for the next runs (a cache that cannot be
        written only makes them slower)."""
        if self.shared is not None:
            self.shared.save()
        path = self._path()
        with self._lock:
            if path is None or not self._new:
                return
            fresh, self._new = self._new, {}
        images = {key: [value.total, value.cmy, *value.channels] for key, value in fresh.items()}
        clear_odd(path)  # a link or a FIFO in its place: a record made anew
        keep_newest(path, _STATS_HEADER, "images", images, STATS_KEPT, _valid_maxima)


#: The most of each recorded level: C+M+Y+K, C+M+Y, then each channel (8-bit levels).
_MOST_LEVELS = (4 * 255, 3 * 255, 255, 255, 255, 255)


def _valid_maxima(value: object) -> bool:
    """Whether a recorded entry of images' maxima is six JSON numbers (not ``true``),
    each from 0 to the most its sum of channels can be."""
    return (
        isinstance(value, list)
        and len(value) == len(_MOST_LEVELS)
        and all(
            isinstance(level, int | float) and not isinstance(level, bool) and 0 <= level <= most
            for level, most in zip(value, _MOST_LEVELS, strict=True)
        )
    )


#: The folder of the user's cache folder where images' maxima are kept for every build.
SHARED_FOLDER = "image-maxima"

#: Every image measured in this process.
STATS = ImageStats(shared=ImageStats())

#: The stream entries that decide how an image's samples decode.
_DECODING = ("/Filter", "/DecodeParms", "/Decode", "/BitsPerComponent", "/Width", "/Height")


def _image_key(image: pikepdf.Stream) -> str:
    """A digest of what the image's pixels are made from: its encoded bytes and the
    entries that decode them."""
    digest = hashlib.sha256(f"{STATS_VERSION}".encode())
    for name in _DECODING:
        value = image.get(name)
        shown = value.unparse(resolved=True) if isinstance(value, pikepdf.Object) else value
        digest.update(f"{name}={shown!r};".encode())
    digest.update(image.read_raw_bytes())
    return digest.hexdigest()


def _filters(image: pikepdf.Stream) -> list[str]:
    value = image.get("/Filter")
    names = [value] if isinstance(value, pikepdf.Name) else list(value or [])
    return [_ABBREVIATED_FILTERS.get(str(n), str(n)) for n in names]


def _inverted(image: pikepdf.Stream) -> bool:
    """Whether /Decode inverts the samples (``[1 0 1 0 1 0 1 0]``); any other /Decode
    than that or the default is not read."""
    decode = image.get("/Decode")
    if decode is None:
        return False
    values = operand_numbers(list(decode)) if isinstance(decode, pikepdf.Array) else None
    if values == [0, 1] * 4:
        return False
    if values == [1, 0] * 4:
        return True
    raise Unknown("an image with an unusual /Decode array")


def _measure_image(image: pikepdf.Stream) -> Maxima:
    """Decode a DeviceCMYK image, 8 bits a channel, and measure its fullest pixels.

    A JPEG is decoded by Pillow, which inverts CMYK JPEGs (Adobe's convention):
    the stream's samples are 255 minus Pillow's, and the /Decode array is applied to
    those, as Ghostscript does."""
    if int(image.get("/BitsPerComponent", 0)) != 8:
        raise Unknown("a CMYK image of other than 8 bits a channel")
    width, height = int(image.get("/Width", 0)), int(image.get("/Height", 0))
    if width <= 0 or height <= 0:
        raise Unknown("an image without a size")
    filters = _filters(image)
    inverted = _inverted(image)
    picture: Image.Image
    if filters == ["/DCTDecode"]:
        if image.get("/DecodeParms") is not None:
            raise Unknown("a JPEG image with decoding parameters")
        try:
            picture = Image.open(io.BytesIO(image.read_raw_bytes()))
            picture.load()
        except (OSError, ValueError, SyntaxError) as error:
            raise Unknown(f"a JPEG image Pillow cannot read ({error})") from None
        if picture.mode != "CMYK" or picture.size != (width, height):
            raise Unknown("a JPEG image that is not CMYK of its stated size")
        _plain_jpeg(picture)
        inverted = not inverted  # Pillow's pixels are the samples inverted
    elif all(f in _GENERAL_FILTERS for f in filters):
        try:
            data = image.read_bytes()
        except pikepdf.PdfError as error:
            raise Unknown(f"an image that cannot be decoded ({error})") from None
        if len(data) < width * height * 4:
            raise Unknown("an image with fewer samples than its size")
        picture = Image.frombytes("CMYK", (width, height), data[: width * height * 4])
    else:
        raise Unknown(f"an image compressed with {' '.join(filters)}")
    return _picture_maxima(picture, inverted)


def _plain_jpeg(picture: Image.Image) -> None:
    """A JPEG whose channels are stored as they are (no YCCK transform) at full
    resolution (none subsampled): decoders agree on it to the level; upsampling and
    colour transforms are where libjpeg's versions differ."""
    layers = getattr(picture, "layer", None) or []
    if any((h, v) != (1, 1) for _, h, v, _ in layers) or len(layers) != 4:
        raise Unknown("a JPEG image with subsampled channels")
    if picture.info.get("adobe_transform", 0) != 0:
        raise Unknown("a JPEG image stored as YCCK")


def _picture_maxima(picture: Image.Image, inverted: bool) -> Maxima:
    """The maxima of a CMYK picture's pixels, or of 255 minus them (``inverted``): the
    sums are computed in C (ImageMath), their least and most read at once."""
    c, m, y, k = picture.split()
    cmy = band_sum(c, m, y)
    total = band_sum(cmy, k)  # three sums of the image, not five
    low_total, high_total = band_extrema(total)
    low_cmy, high_cmy = band_extrema(cmy)
    extrema = [band_extrema(band) for band in (c, m, y, k)]
    if inverted:
        channels = tuple(255.0 - float(low) for low, _ in extrema)
        return Maxima(
            1020.0 - float(low_total),
            765.0 - float(low_cmy),
            (channels[0], channels[1], channels[2], channels[3]),
        )
    highs = tuple(float(high) for _, high in extrema)
    return Maxima(float(high_total), float(high_cmy), (highs[0], highs[1], highs[2], highs[3]))


# ------------------------------------------------------------------ shadings


def shading_levels(shading: object, resources: object) -> Levels:
    """A colour at least as full as any a shading paints, channel by channel, or
    :class:`Unknown`: the sum is bounded by the functions' ranges or end colours
    (axial and radial shadings of exponential or stitched functions), a sampled
    function's samples, the /Decode range of a mesh's colours."""
    if not isinstance(shading, pikepdf.Dictionary):
        raise Unknown("an unreadable shading")
    space = read_space(shading.get("/ColorSpace"), resources)
    if space.kind != "cmyk":
        raise Unknown("a shading in another space than DeviceCMYK")
    found = _painted_levels(shading)
    background = shading.get("/Background")
    if background is not None:  # what a shading pattern paints outside the shading
        numbers = (
            operand_numbers(list(background)) if isinstance(background, pikepdf.Array) else None
        )
        if numbers is None or len(numbers) != 4:
            raise Unknown("a shading with an unreadable /Background")
        extra = _levels(numbers)
        found = (
            max(found[0], extra[0]),
            max(found[1], extra[1]),
            max(found[2], extra[2]),
            max(found[3], extra[3]),
        )
    return found


def _painted_levels(shading: pikepdf.Dictionary) -> Levels:
    """The most of each channel a shading's own colours reach."""
    kind = int(shading.get("/ShadingType", 0))
    function = shading.get("/Function")
    if function is not None:
        return _function_levels(function)
    if kind in (4, 5, 6, 7):
        decode = operand_numbers(list(shading.get("/Decode", [])))
        if decode is None or len(decode) < 12:
            raise Unknown("a mesh shading without a /Decode range")
        colours = decode[4:12]
        return _levels([max(colours[2 * i], colours[2 * i + 1]) for i in range(4)])
    raise Unknown(f"a shading of type {kind} without a function")


def _function_levels(function: object, depth: int = 0) -> Levels:
    """The most each output of a shading's function(s) can be, in levels."""
    if depth > 8:
        raise Unknown("functions nested too deep")
    if isinstance(function, pikepdf.Array):
        if len(function) != 4:
            raise Unknown("a shading with other than four functions")
        parts = [_single_output(f) for f in function]
        return (parts[0], parts[1], parts[2], parts[3])
    if not isinstance(function, pikepdf.Dictionary):
        raise Unknown("an unreadable shading function")
    highs = _outputs(function, depth)
    if len(highs) != 4:
        raise Unknown("a shading function without four outputs")
    return _levels(highs)


def _single_output(function: object) -> float:
    if not isinstance(function, pikepdf.Dictionary):
        raise Unknown("an unreadable shading function")
    highs = _outputs(function, 0)
    if len(highs) != 1:
        raise Unknown("a shading function with other than one output")
    return min(max(highs[0], 0.0), 1.0) * 255


def _outputs(function: pikepdf.Dictionary, depth: int) -> list[float]:
    """The most each output of ``function`` can be: its /Range when it has one (what
    it gives is clipped to it), else the most its kind can give."""
    kind = int(function.get("/FunctionType", -1))
    bounds = _range(function)
    if kind == 2:
        c0 = operand_numbers(list(function.get("/C0", [0.0]))) or []
        c1 = operand_numbers(list(function.get("/C1", [1.0]))) or []
        exponent = float(function.get("/N", 1))
        domain = operand_numbers(list(function.get("/Domain", [])))
        if len(c0) != len(c1) or exponent <= 0 or domain != [0, 1]:
            # Inputs are clipped to the domain: on [0, 1], x^N is within [0, 1].
            raise Unknown("an exponential function beyond its two colours")
        # x^N runs from 0 to 1 on [0, 1]: each output between its two ends.
        found = [max(a, b) for a, b in zip(c0, c1, strict=True)]
    elif kind == 3:
        parts = [_outputs(_dictionary(f), depth + 1) for f in function.get("/Functions", [])]
        if not parts or any(len(p) != len(parts[0]) for p in parts):
            raise Unknown("a stitching function without functions")
        found = [max(p[i] for p in parts) for i in range(len(parts[0]))]
    elif kind == 0 and isinstance(function, pikepdf.Stream):
        found = _sampled(function)
    elif bounds is not None:
        found = bounds  # a PostScript calculator: clipped to its range
    else:
        raise Unknown(f"a shading function of type {kind}")
    if bounds is not None:
        found = [min(f, b) for f, b in zip(found, bounds, strict=False)]
    return found


def _dictionary(value: object) -> pikepdf.Dictionary:
    if not isinstance(value, pikepdf.Dictionary):
        raise Unknown("an unreadable shading function")
    return value


def _range(function: pikepdf.Dictionary) -> list[float] | None:
    values = operand_numbers(list(function.get("/Range", [])))
    if not values or len(values) % 2:
        return None
    return [max(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def _sampled(function: pikepdf.Stream) -> list[float]:
    """A sampled function interpolated linearly: never beyond its samples."""
    if int(function.get("/Order", 1)) != 1:
        raise Unknown("a sampled function with cubic interpolation")
    bits = int(function.get("/BitsPerSample", 0))
    bounds = operand_numbers(list(function.get("/Range", [])))
    if bits not in (8, 16) or not bounds:
        raise Unknown("a sampled function not of 8 or 16 bits")
    outputs = len(bounds) // 2
    decode = operand_numbers(list(function.get("/Decode", bounds))) or bounds
    data = function.read_bytes()
    step = bits // 8
    top = (1 << bits) - 1
    found = [-math.inf] * outputs
    count = len(data) // step
    for index in range(count):
        value = int.from_bytes(data[index * step : (index + 1) * step], "big")
        out = index % outputs
        low, high = decode[2 * out], decode[2 * out + 1]
        found[out] = max(found[out], low + value * (high - low) / top)
    if any(f == -math.inf for f in found):
        raise Unknown("a sampled function without samples")
    return found


# ------------------------------------------------------------------ a page's ink


@dataclass(frozen=True)
class Overprint:
    """A colour painted under overprint: its channels replace those under it where
    they are not zero (OPM 1), and the rest show through."""

    levels: Levels
    opaque: bool


@dataclass(frozen=True)
class ImageUse:
    """An image drawn: its maxima and object, and whether it is plain (opaque,
    unmasked, Normal), as a proxy needs."""

    maxima: Maxima
    objgen: tuple[int, int]
    plain: bool


@dataclass
class PageInk:
    """What a page paints, as the bound reads it."""

    #: Why the bound cannot be made (the first thing not read), or None.
    unknown: str | None = None
    #: Colours painted knocking out what is under them (fills, strokes, text, stencil
    #: masks, shadings' fullest colours), in levels.
    colours: list[Levels] = field(default_factory=list)
    overprints: list[Overprint] = field(default_factory=list)
    images: list[ImageUse] = field(default_factory=list)
    #: Images drawn in a soft mask (their pixels make transparency): never replaced.
    masks: set[tuple[int, int]] = field(default_factory=set)
    #: Every paint in order: where (a box on the page, None: anywhere) and the most it
    #: may leave of each set of channels (:data:`Bounds`).
    painted: list[tuple[Box | None, Bounds]] = field(default_factory=list)

    def give_up(self, reason: str) -> None:
        if self.unknown is None:
            self.unknown = reason

    def paint(self, box: Box | None, bounds: Bounds) -> None:
        """Something painted knocking out what is under it (or blending with it, Normal
        blend): within ``box`` (None: anywhere), no pixel holds more of any channels
        than ``bounds`` says or than it held before (a weighted mean never exceeds the
        most of what it means)."""
        self.painted.append((box, bounds))

    def overprint(self, box: Box | None, levels: Levels) -> None:
        """A colour painted under overprint within ``box``: the channels it paints are
        its own (or blend with those under it, when transparent), the others are those
        of what was painted before where it paints, whose bounds are the most of every
        earlier paint whose box meets ``box``."""
        under: Sequence[float] = _NOTHING
        for other, bounds in self.painted:
            if _meet(box, other):
                under = list(map(max, under, bounds))
        own = _colour_bounds(levels)
        raised = sum(1 << i for i in range(4) if levels[i] > 0)
        self.painted.append(
            (
                box,
                tuple(
                    max(own[part] + under[mask & ~part] for part in _SUBMASKS[mask & raised])
                    for mask in range(16)
                ),
            )
        )

    def bound(self) -> float:
        """The most ink (levels, C+M+Y+K) any pixel of the page can hold on the
        render, the rounding of colours given as numbers included (:data:`SLACK`).

        Every pixel is paper, or holds what the last paint covering it left: a paint's
        own colour (or a mean of it and what was under it), or, under overprint, its
        channels over those left by the paints before it there (:meth:`overprint`).
        So no pixel holds more than the most any paint may leave."""
        return max((bounds[ALL] for _, bounds in self.painted), default=0.0)

    def alone(self) -> float:
        """The most ink of anything the page paints on its own (no overprint), as
        :meth:`bound` counts it."""
        return max(
            [
                *(sum(c) + SLACK for c in self.colours),
                *(sum(o.levels) + SLACK for o in self.overprints),
                *(use.maxima.total for use in self.images),
                0.0,
            ]
        )

    def proxy_levels(self, threshold: float) -> dict[tuple[int, int], tuple[int, ...]] | None:
        """Each image's stand-in for a proxy render (one pixel of the image's fullest
        C+M+Y, no K), or None when a proxy cannot decide the page (:meth:`no_proxy`)."""
        if self.no_proxy(threshold) is not None:
            return None
        return {use.objgen: _stand_in(use.maxima.cmy) for use in self.images}

    def no_proxy(self, threshold: float) -> str | None:
        """Why a proxy cannot decide the page, or None: it can when everything is
        read, black is the only ink overprinted (opaque), every image is plain (and in
        no soft mask), and nothing is over the limit on its own.  A page without
        images is its own proxy: it is rendered."""
        if self.unknown is not None:
            return self.unknown
        if not self.images:
            return "overprint on a ground near the limit"
        if self.alone() > threshold:
            return "a colour or an image near the limit on its own"
        for overprint in self.overprints:
            if not overprint.opaque or any(v > 0 for v in overprint.levels[:3]):
                return "overprint of another ink than black, or transparent"
        for use in self.images:
            if not use.plain or use.objgen in self.masks:
                return "an image masked or transparent under overprint"
        return None


def _stand_in(cmy: float) -> tuple[int, ...]:
    """C, M, Y levels (each at most 255) adding up to at least ``cmy``, and no K."""
    left = math.ceil(cmy)
    channels = []
    for _ in range(3):
        channels.append(min(255, left))
        left -= channels[-1]
    return (*channels, 0)


def proxy_pdf(source: Path, stand_ins: dict[tuple[int, int], tuple[int, ...]], to: Path) -> None:
    """``source`` with each image of ``stand_ins`` replaced by one DeviceCMYK pixel of
    its stand-in colour, drawn where the image was (the same object, so every use of
    it is replaced), written to ``to``.

    Rendered, the proxy places everything else as the page has it; where black
    overprints an image, the proxy pixel holds the image's fullest C+M+Y under it,
    so it has at least the ink of the real pixel (whose K is the black's)."""
    with pikepdf.open(source) as pdf:
        for objgen, levels in stand_ins.items():
            image = pdf.get_object(objgen)
            image.write(bytes(levels))
            for name in (
                "/Filter",
                "/DecodeParms",
                "/Decode",
                "/SMask",
                "/Mask",
                "/SMaskInData",
                "/Interpolate",
                "/Alternates",
            ):
                if name in image:
                    del image[name]
            image.Width, image.Height, image.BitsPerComponent = 1, 1, 8
            image.ColorSpace = pikepdf.Name.DeviceCMYK
        pdf.save(to)


def is_normal(blend: object) -> bool:
    """Whether a /BM entry is Normal blending (an array: its first mode known)."""
    if isinstance(blend, pikepdf.Array):
        return len(blend) > 0 and all(str(b) in _NORMAL_BLENDS for b in blend)
    return blend is None or str(blend) in _NORMAL_BLENDS


# ------------------------------------------------------------------ reading the content


#: What :func:`_by_object` keeps.
R = TypeVar("R")


def _by_object(
    cache: dict[tuple[int, int], R], found: pikepdf.Dictionary, read: Callable[[Any], R]
) -> R:
    """``read(found)``, kept in ``cache`` by the object's number when it is indirect (a
    font or a graphics state is used by many pages of a deck, each read once)."""
    if not found.is_indirect:
        return read(found)
    key = found.objgen
    if key not in cache:
        cache[key] = read(found)
    return cache[key]


def _state_settings(extgstate: pikepdf.Dictionary) -> tuple[tuple[str, object], ...]:
    """What a graphics state dictionary sets of :class:`InkState`, in order (``unknown``:
    what the bound does not read: a blend mode other than Normal, a transfer
    function)."""
    found: list[tuple[str, object]] = []
    keys = set(extgstate.keys())  # one call: each lookup in a pikepdf object is one
    if "/OP" in keys:
        found.append(("stroke_overprint", bool(extgstate.OP)))
        if "/op" not in keys:
            found.append(("fill_overprint", bool(extgstate.OP)))
    if "/op" in keys:
        found.append(("fill_overprint", bool(extgstate.op)))
    if "/CA" in keys:
        found.append(("stroke_opaque", float(extgstate.CA) >= 1.0))
    if "/ca" in keys:
        found.append(("fill_opaque", float(extgstate.ca) >= 1.0))
    if "/SMask" in keys:
        found.append(("soft_mask", str(extgstate.SMask) != "/None"))
    if "/BM" in keys and not is_normal(extgstate.BM):
        found.append(("unknown", f"blend mode {extgstate.BM}"))
    for name in ("/TR", "/TR2"):
        value = extgstate.get(name) if name in keys else None
        if value is not None and str(value) not in ("/Identity", "/Default"):
            found.append(("unknown", "a transfer function"))
    return tuple(found)


#: Text rendering modes that fill, and that stroke, the glyphs (3 and 7 paint nothing).
_FILL_MODES = frozenset({0, 2, 4, 6})
_STROKE_MODES = frozenset({1, 2, 5, 6})
_FILLS = frozenset({"f", "F", "f*", "B", "B*", "b", "b*"})
_STROKES = frozenset({"S", "s", "B", "B*", "b", "b*"})
_TEXT = frozenset({"Tj", "TJ", "'", '"'})
#: Path construction, and the text operators that place text.
_PATH = frozenset({"m", "l", "c", "v", "y", "h", "re"})
_TEXT_STATE = frozenset({"Tf", "Tc", "Tw", "Tz", "TL", "Ts"})
_TEXT_PLACE = frozenset({"BT", "ET", "Tm", "Td", "TD", "T*"})
#: Every operator :class:`InkReader` reads (the others change nothing it follows;
#: ``q``, ``Q`` and ``cm`` are the content walk's, which keeps the reader's state).
OPERATORS = frozenset(
    {
        "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN", "rg", "RG", "g", "G", "Tr",
        "W", "W*", "n", "w", "M", "j",
        *_FILLS, *_STROKES, *_TEXT, *_PATH, *_TEXT_STATE, *_TEXT_PLACE,
    }
)  # fmt: skip


@dataclass
class InkState:
    """The graphics state the bound follows (saved by ``q``, restored by ``Q``): the
    fill and stroke colour spaces (None: the initial DeviceGray) and colours (None: a
    pattern's), the overprint of each, their opacity, a soft mask, the text mode; the
    clip's box (None: the whole page), the line's width, miter limit and join, and the
    text state."""

    fill_space: Space | None = None
    fill: Levels | None = None
    stroke_space: Space | None = None
    stroke: Levels | None = None
    fill_overprint: bool = False
    stroke_overprint: bool = False
    fill_opaque: bool = True
    stroke_opaque: bool = True
    soft_mask: bool = False
    mode: int = 0
    clip: Box | None = None
    line_width: float = 1.0
    miter: float = DEFAULT_MITER
    join: int = 0
    text: TextState = field(default_factory=TextState)

    def copy(self) -> InkState:
        copied = InkState.__new__(InkState)  # a dataclass's __init__ costs ten times more
        copied.__dict__.update(self.__dict__)  # the text state shared: copied on a change
        return copied


class InkReader:
    """Reads a page's ink as :class:`.content.ContentChecker` walks it: the checker
    calls it for each operator of :data:`OPERATORS` (with the CTM), each image,
    shading, pattern, group and graphics state, and keeps its state with its own
    (``q``/``Q``, forms, patterns).  Each paint is placed (:mod:`.extent`: its box,
    within the clip's) for the spatial bound (:meth:`PageInk.overprint`); what is
    walked apart from the page's space (patterns, glyphs, annotations: ``anywhere``)
    is placed anywhere."""

    def __init__(self, stats: ImageStats | None = None, dpi: float = 150.0) -> None:
        self.stats = stats or STATS
        #: What each graphics state (by object) sets, read once.
        self._states: dict[tuple[int, int], tuple[tuple[str, object], ...]] = {}
        #: What each direct graphics state dictionary sets, by the Python object the
        #: page's walk looks up once (:meth:`.content.ContentChecker._named_state`), kept
        #: alive with it: for a page.
        self._direct_states: dict[
            int, tuple[pikepdf.Dictionary, tuple[tuple[str, object], ...]]
        ] = {}
        #: How each font (by object) places its glyphs, read once.
        self._fonts: dict[tuple[int, int], FontShape] = {}
        self.margin = margin(dpi)
        self.page = PageInk()
        self.state = InkState()
        #: Walking what paints no ink (a soft mask's group): nothing is read.
        self.suspended = 0
        #: Walking what is not placed in the page's space: every paint is anywhere.
        self.anywhere = 0
        #: The path being built: the box of its points in the space of ``_path_ctm``
        #: (None: none yet), the boxes on the page of its parts built in another,
        #: whether every part is placed.
        self._path_points: Box | None = None
        self._path_boxes: list[Box] = []
        self._path_ctm: Matrix | None = None
        self._path_placed = True
        self._clipping = False
        self._tm: Matrix = IDENTITY
        self._tlm: Matrix = IDENTITY

    def start(self) -> None:
        self.page = PageInk()
        self._direct_states = {}
        self.state = InkState()
        self.suspended = self.anywhere = 0
        self._reset_path()

    @property
    def reading(self) -> bool:
        return self.suspended == 0 and self.page.unknown is None

    def _guard(self, read: Callable[[], None]) -> None:
        if not self.reading:
            return
        try:
            read()
        except (Unknown, Unmeasured) as reason:
            self.page.give_up(str(reason))
        except (pikepdf.PdfError, ValueError, TypeError, KeyError, AttributeError) as error:
            self.page.give_up(f"an object that cannot be read ({error})")

    def _placed(self, box: Box | None) -> Box | None:
        """A paint's box on the page: within the clip's, widened by the margin; None
        (anywhere) when walking apart."""
        if self.anywhere or box is None:
            return None
        return widened(_within(box, self.state.clip), self.margin)

    # -- operators

    def operator(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """An operator of :data:`OPERATORS` (``ctm``: the CTM, None where not known),
        read by its reader of :data:`_READERS`; :meth:`_guard` written out (this runs
        for every operator of a page)."""
        if self.suspended or self.page.unknown is not None:
            return
        try:
            _READERS[op](self, op, operands, resources, ctm)
        except (Unknown, Unmeasured) as reason:
            self.page.give_up(str(reason))
        except (pikepdf.PdfError, ValueError, TypeError, KeyError, AttributeError) as error:
            self.page.give_up(f"an object that cannot be read ({error})")

    def _clip(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """``W``, ``W*``: the path painted next clips what follows."""
        self._clipping = True

    def _line(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """``Tr w M j``: the text mode, the line's width, miter limit and join."""
        numbers = operand_numbers(operands)
        value = numbers[0] if numbers else None
        if value is None:
            return
        if op == "Tr":
            self.state.mode = int(value)
        elif op == "w":
            self.state.line_width = value
        elif op == "M":
            self.state.miter = value
        else:
            self.state.join = int(value)

    def _build(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """A path's points (curves by their control points, which hold them), in the
        space of the CTM: the box of their box's corners on the page holds them all
        (the CTM is the same for a whole path; should it change, what came before is
        placed first).  The box grows point by point, in their order (min and max
        over them all, as :func:`.geometry.bounds` takes them)."""
        if ctm is None:
            self._path_placed = False
            return
        if ctm is not self._path_ctm:
            self._flush_path()
            self._path_ctm = ctm
        numbers = [float(v) for v in operands]
        if op == "re" and len(numbers) == 4:
            x, y, w, h = numbers
            xs: Sequence[float] = (x, x + w)
            ys: Sequence[float] = (y, y + h)
        else:
            xs, ys = numbers[0 : len(numbers) - 1 : 2], numbers[1::2]  # (x, y) pairs
            if not xs:
                return
        box = self._path_points
        if box is None:
            self._path_points = (min(xs), min(ys), max(xs), max(ys))
        else:
            self._path_points = (
                min(box[0], *xs),
                min(box[1], *ys),
                max(box[2], *xs),
                max(box[3], *ys),
            )

    def _flush_path(self) -> None:
        """The points gathered in the space of :attr:`_path_ctm`, placed on the page."""
        box = self._path_points
        if box is not None and self._path_ctm is not None:
            placed = transformed_box(box, self._path_ctm)
            self._path_boxes.append(placed)
        self._path_points = None

    def _path_box(self) -> Box | None:
        """The box on the page of the path built (None: none, or not placed)."""
        self._flush_path()
        box = points_box([c for b in self._path_boxes for c in ((b[0], b[1]), (b[2], b[3]))])
        return box if self._path_placed else None

    def _paint_path(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """A path painted (or ``n``), then the clip it sets applied to what follows."""
        box = self._path_box()
        if op != "n" and box is not None:
            fill = op in _FILLS
            if fill:
                self._paint(True, False, box)
            if op in _STROKES:
                state = self.state
                reach = stroke_reach(state.line_width, state.miter, state.join, ctm or IDENTITY)
                stroked = widened(box, reach) if ctm is not None else None
                self._paint(False, True, stroked)
        elif op != "n":
            self._paint(op in _FILLS, op in _STROKES, None)
        if self._clipping and box is not None and not self.anywhere:
            self.state.clip = _within(box, self.state.clip)
        self._reset_path()

    def _reset_path(self) -> None:
        self._path_points, self._path_boxes, self._path_ctm = None, [], None
        self._path_placed, self._clipping = True, False

    def _text(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """The text state (copied first: ``q`` shares it) and the text matrices."""
        if op in _TEXT_PLACE:
            self._text_place(op, operands)
            return
        text = self.state.text = self.state.text.copy()
        if op == "Tf":
            if len(operands) != 2:
                raise Unknown("Tf without a font and a size")
            text.font = lookup(resources, "/Font", operands[0])
            text.size = float(operands[1])
            return
        numbers = operand_numbers(operands)
        if numbers:
            set_text_parameter(text, op, numbers[0])

    def _text_place(self, op: str, operands: list) -> None:
        """``BT ET Tm Td TD T*``: the text matrix and the line matrix."""
        if op in ("BT", "ET"):
            self._tm = self._tlm = IDENTITY
            return
        numbers = operand_numbers(operands) or []
        if op == "Tm":
            if len(numbers) != 6:
                raise Unknown("Tm without six numbers")
            a, b, c, d, e, f = numbers
            self._tm = self._tlm = (a, b, c, d, e, f)
        elif op in ("Td", "TD"):
            if len(numbers) != 2:
                raise Unknown(f"{op} without two numbers")
            if op == "TD":
                self.state.text = self.state.text.copy()
                self.state.text.leading = -numbers[1]
            self._tm = self._tlm = multiply((1, 0, 0, 1, numbers[0], numbers[1]), self._tlm)
        else:
            self._next_line()

    def _next_line(self) -> None:
        self._tm = self._tlm = multiply((1, 0, 0, 1, 0, -self.state.text.leading), self._tlm)

    def _show(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """A text shown: its glyphs' box painted in the text mode's fill and stroke."""
        text = self.state.text
        if op in ("'", '"'):
            if op == '"':
                text = self.state.text = text.copy()
                spacing = operand_numbers(operands[:2])
                if spacing is None or len(spacing) != 2:
                    raise Unknown('" without its two spacings')
                text.word_spacing, text.char_spacing = spacing
            self._next_line()
            operands = operands[-1:]
        box, self._tm = text_box(self._font(text.font), text, operands, self._tm, ctm or IDENTITY)
        if box is None:
            return
        placed = box if ctm is not None else None
        mode = self.state.mode
        if mode in _FILL_MODES:
            self._paint(True, False, placed)
        if mode in _STROKE_MODES:
            state = self.state
            reach = stroke_reach(state.line_width, state.miter, state.join, ctm or IDENTITY)
            self._paint(False, True, widened(placed, reach))

    def _font(self, font: object) -> FontShape:
        if not isinstance(font, pikepdf.Dictionary):
            raise Unknown("text without a font")
        return _by_object(self._fonts, font, font_shape)

    def _colour(self, op: str, operands: list, resources: object, ctm: Matrix | None) -> None:
        """An operator that sets a colour space or a colour."""
        state = self.state
        if op in ("k", "K"):
            levels = CMYK_SPACE.colour(operands)
            if op == "k":
                state.fill_space, state.fill = CMYK_SPACE, levels
            else:
                state.stroke_space, state.stroke = CMYK_SPACE, levels
        elif op in ("cs", "CS"):
            space = read_space(operands[0], resources) if operands else None
            if space is None:
                raise Unknown(f"{op} without a colour space")
            if op == "cs":
                state.fill_space, state.fill = space, space.initial()
            else:
                state.stroke_space, state.stroke = space, space.initial()
        elif op in ("sc", "scn"):
            state.fill = self._set(state.fill_space, operands, op)
        elif op in ("SC", "SCN"):
            state.stroke = self._set(state.stroke_space, operands, op)
        elif op in ("rg", "RG", "g", "G"):
            raise Unknown(f"a DeviceRGB or DeviceGray colour ({op})")

    @staticmethod
    def _set(space: Space | None, operands: list, op: str) -> Levels | None:
        if space is None:
            raise Unknown(f"{op} in the initial DeviceGray")
        return space.colour(operands)

    def _paint(self, fill: bool, stroke: bool, box: Box | None) -> None:
        """The fill and/or stroke colour painted within ``box`` (before the clip)."""
        state = self.state
        placed = self._placed(box)
        if fill:
            self._paint_with(
                state.fill_space, state.fill, state.fill_overprint, state.fill_opaque, placed
            )
        if stroke:
            self._paint_with(
                state.stroke_space,
                state.stroke,
                state.stroke_overprint,
                state.stroke_opaque,
                placed,
            )

    def _paint_with(
        self,
        space: Space | None,
        levels: Levels | None,
        overprint: bool,
        opaque: bool,
        box: Box | None,
    ) -> None:
        if space is None:
            raise Unknown("paint in the initial DeviceGray")
        if space.kind == "pattern":
            if overprint:
                raise Unknown("a pattern painted under overprint")
            if levels is not None:  # an uncoloured pattern: its colour, as set
                self.page.colours.append(levels)
                self.page.paint(box, _colour_bounds(levels))
            return  # a coloured pattern's own paint was read when it was set
        if levels is None:
            raise Unknown("paint without a colour")
        if overprint:
            self.page.overprints.append(Overprint(levels, opaque and not self.state.soft_mask))
            self.page.overprint(box, levels)
        else:
            self.page.colours.append(levels)
            self.page.paint(box, _colour_bounds(levels))

    # -- what the operators draw

    def graphics_state(self, state: object) -> None:
        """``gs``: overprint, opacity, soft mask, blend mode, transfer functions, the
        line's width, miter limit and join."""
        self._guard(lambda: self._graphics_state(state))

    def _graphics_state(self, extgstate: object) -> None:
        if not isinstance(extgstate, pikepdf.Dictionary):
            raise Unknown("an undefined graphics state")
        if extgstate.is_indirect:
            settings = _by_object(self._states, extgstate, _state_settings)
        else:  # a direct dictionary (WeasyPrint's): the same object for its name a page
            known = self._direct_states.get(id(extgstate))
            if known is None:
                known = self._direct_states[id(extgstate)] = (
                    extgstate,
                    _state_settings(extgstate),
                )
            settings = known[1]
        for name, value in settings:
            if name == "unknown":
                raise Unknown(str(value))
            setattr(self.state, name, value)

    def image(
        self, image: pikepdf.Object, resources: object, inline: bool, ctm: Matrix | None
    ) -> None:
        """An image drawn (``Do`` or inline) on the unit square of ``ctm``."""
        if self.suspended and isinstance(image, pikepdf.Stream):
            self.page.masks.add(image.objgen)
        self._guard(lambda: self._image(image, resources, inline, ctm))

    def _image(
        self, image: pikepdf.Object, resources: object, inline: bool, ctm: Matrix | None
    ) -> None:
        state = self.state
        box = None if ctm is None else transformed_box((0.0, 0.0, 1.0, 1.0), ctm)
        stencil = image.get("/ImageMask", False) or (inline and image.get("/IM", False))
        if stencil:  # a stencil: paints the fill colour
            self._paint(True, False, box)
            return
        if state.fill_overprint:
            raise Unknown("an image under overprint")
        if inline or not isinstance(image, pikepdf.Stream):
            raise Unknown("an inline image")
        space = image.get("/ColorSpace")
        if space is None:
            raise Unknown("an image without a colour space (JPEG 2000)")
        if "/JPXDecode" in _filters(image):
            raise Unknown("a JPEG 2000 image")
        smask = image.get("/SMask")
        if isinstance(smask, pikepdf.Dictionary) and "/Matte" in smask:
            raise Unknown("an image with a premultiplied soft mask (/Matte)")
        maxima = self.stats.maxima(image, read_space(space, resources))
        masked = any(name in image for name in ("/SMask", "/Mask", "/SMaskInData"))
        plain = not masked and state.fill_opaque and not state.soft_mask
        self.page.images.append(ImageUse(maxima, image.objgen, plain))
        self.page.paint(self._placed(box), tuple(maxima.of(mask) for mask in range(16)))

    def shading(self, shading: object, resources: object, painted: bool) -> None:
        """``sh`` (``painted``: it fills the clip), or a shading pattern set as the
        colour (placed anywhere: its paint's path is not known yet): its fullest
        colour."""
        self._guard(lambda: self._shading(shading, resources, painted))

    def _shading(self, shading: object, resources: object, painted: bool) -> None:
        if self.state.fill_overprint:
            raise Unknown("a shading under overprint")
        levels = shading_levels(shading, resources)
        self.page.colours.append(levels)
        box = self._placed(self.state.clip) if painted else None
        self.page.paint(box, _colour_bounds(levels))

    def form(self, bbox: object, ctm: Matrix | None) -> None:
        """A form drawn: its /BBox clips what it paints."""
        numbers = operand_numbers(list(bbox)) if isinstance(bbox, pikepdf.Array) else None
        if ctm is None or self.anywhere or numbers is None or len(numbers) != 4:
            return
        x0, y0, x1, y1 = numbers
        box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        self.state.clip = _within(transformed_box(box, ctm), self.state.clip)

    def pattern(self, fill: bool) -> None:
        """A pattern set as a colour (its paint is read as it is walked)."""
        overprint = self.state.fill_overprint if fill else self.state.stroke_overprint
        if overprint and self.reading:
            self.page.give_up("a pattern set under overprint")

    def group(self, space: object, resources: object) -> None:
        """A transparency group blends in its /CS: CMYK, or the bound gives up."""

        def read() -> None:
            if read_space(space, resources).kind != "cmyk":
                raise Unknown("a transparency group blending in another space than CMYK")

        self._guard(read)

    def type3(self) -> None:
        if self.reading:
            self.page.give_up("a Type3 font")

    def give_up(self, reason: str) -> None:
        if self.reading:
            self.page.give_up(reason)


#: What :class:`InkReader` does with each operator of :data:`OPERATORS`: one lookup an
#: operator, this running for every operator of a page.
_READERS: dict[str, Callable[[InkReader, str, list, object, Matrix | None], None]] = {
    **dict.fromkeys(_PATH, InkReader._build),
    **dict.fromkeys(_FILLS | _STROKES | {"n"}, InkReader._paint_path),
    **dict.fromkeys(("W", "W*"), InkReader._clip),
    **dict.fromkeys(_TEXT_STATE | _TEXT_PLACE, InkReader._text),
    **dict.fromkeys(("Tr", "w", "M", "j"), InkReader._line),
    **dict.fromkeys(
        ("k", "K", "cs", "CS", "sc", "scn", "SC", "SCN", "rg", "RG", "g", "G"), InkReader._colour
    ),
    **dict.fromkeys(_TEXT, InkReader._show),
}
