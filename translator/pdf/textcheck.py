"""What a print file's text may look like on press: small white text knocked out of
several inks (it misregisters: :func:`knockouts`) and small light text on a darker
ground (reversed text), two preflight warnings (:class:`TextCheck`), read with the
content interpreter (:mod:`.painter`).
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pikepdf
from PIL import Image, ImageCms

from .geometry import Matrix, Point
from .painter import (
    FILL_MODES,
    PAPER,
    Ground,
    Paint,
    Painter,
    Show,
    is_white,
    operand_numbers,
    shown_items,
)

SMALL_TEXT_PT = 8.0
"""White text smaller than this, knocked out of several inks, misregisters visibly:
its strokes are a few tenths of a millimetre, about what the plates may be off."""

INK_PRESENT = 0.10
"""An ink counts in a ground when it is above this share (10 %): a lighter tint's
misregistration is not seen."""


#: What :class:`TextCheck` reads first: the text, its colour, size and font, and the forms.
_TEXT_OPERATORS = (
    "q Q cm cs CS sc SC scn SCN k K g G rg RG gs BT ET Tc Tw Tz TL Ts Tr Tf "
    "Td TD T* Tm Tj TJ ' \" Do"
)


_SIZE_SLACK = 0.005
"""Points a text size may fall short of a floor and still be at it: WeasyPrint writes
sizes in CSS pixels scaled by 0.75, so that 8 pt comes out as 7.9999997."""


def _small_white(show: Show) -> bool:
    """Text filled in paper white, smaller than :data:`SMALL_TEXT_PT`."""
    return (
        show.size < SMALL_TEXT_PT - _SIZE_SLACK and show.mode in FILL_MODES and is_white(show.fill)
    )


def _ink_count(ground: Ground) -> int:
    """How many inks of a flat ground are above :data:`INK_PRESENT`."""
    return 0 if isinstance(ground, str) else sum(1 for v in ground if v > INK_PRESENT)


def _inks(colour: tuple[float, ...]) -> str:
    named = [
        f"{ink} {round(value * 100):g}"
        for ink, value in zip("CMYK", colour, strict=False)
        if value > 1e-6
    ]
    return " ".join(named) + " %"


def _knockout(painter: Painter, show: Show) -> str | None:
    """The ``knockout`` message of a small white text (:func:`_small_white`), or None
    when its ground is paper or one ink: what misregisters on press."""
    grounds = set(painter.grounds_of(show.points, show.ground))
    unknown = sorted(g for g in grounds if isinstance(g, str))
    if unknown:
        ground_text = f"{unknown[0]} (inks not known)"
    else:
        worst = max((g for g in grounds if not isinstance(g, str)), key=_ink_count)
        if _ink_count(worst) < 2:
            return None
        ground_text = f"{_ink_count(worst)} inks ({_inks(worst)})"
    return (
        f"white text of {show.size:.1f} pt knocked out of {ground_text} in "
        f"{show.where}: it misregisters on press (coloured fringes, filled "
        f"counters); print it at {SMALL_TEXT_PT:g} pt or more, or its ground in "
        "one ink (K only, say), or the text in black"
    )


def knockouts(page: pikepdf.Page) -> list[str]:
    """White text smaller than :data:`SMALL_TEXT_PT` on a ground of more than one ink
    above :data:`INK_PRESENT` (or on an image, a shading or a pattern, whose inks are
    not known): what misregisters on press, one message per kind and place, with how
    many times it occurs.  Read from the page as painted, forms included: first its
    text alone (most pages have no small white text: a millisecond), then, if it has
    some, everything painted under it.  :class:`TextCheck` without the ``reversed``
    check (the preflight runs both in one reading)."""
    return [message for _, message in TextCheck(reversed_text=False).page(page)]


# ---------------------------------------------------------------------- reversed text


REVERSED_PT = 7.0
"""Light text on a darker ground ("reversed", knocked out of the ink around it)
smaller than this gets a ``reversed`` warning.  Prepress guides put reversed type at
7 to 8 pt at least, serifs at the upper end: the ink spreads on paper (dot gain) into
the strokes left free, which thins them and fills the serifs and counters in.  7 pt
is the floor the official Arcmage look needs (its rule text shrinks from 9 pt, its
footer is 6.2 pt, pale gold on dark frames); the default theme's white 7.5 pt second
name line (on a K 80 % strip) is above it."""

REVERSED_BOLD_PT = 6.0
"""The same floor for bold text (see :func:`_bold`): its strokes are about half as
thick again as the regular's, so the ink's spread takes less of them and it reads a
point smaller; under 6 pt no weight helps."""

REVERSED_CONTRAST = 30.0
"""How much lighter than its ground (CIE L*, 0 black to 100 paper white) a text must
be to count as reversed: a clear step, so that text on a light tint (white on a 15 %
grey, L* 88 on SWOP) or light grey on paper (darker than its ground) is not; pale gold
(L* about 88) on a dark brown frame (L* 25 to 35) is, by 50 and more."""

EXCERPT_CHARS = 30
"""How much of a reported text its warning quotes (then an ellipsis)."""

SAMPLE_PPI = 75.0
"""The resolution an image under text is decoded at (a JPEG's reduced decoding, an
other image averaged down): what is wanted is the ground's lightness, not its detail,
and a pixel of 0.34 mm is less than a 6 pt letter's x-height.  libjpeg's 1/8 decoding
(75 ppi of a 600 ppi frame) is its cheapest, though not by much: 9 ms for a card's
frame (1606 x 2220 px), 30 ms whole; hence :data:`DECODED_IMAGES`."""

DECODED_IMAGES = 48
"""Images decoded for :class:`TextCheck` are kept, by content, this many at most (200
KB each at :data:`SAMPLE_PPI`): the frames of a deck, or of the separate card files
one preflight checks, repeat (six factions times a few layouts), each page its own
copy of the same bytes."""

MAX_IMAGE_PIXELS = 60_000_000
"""An image under text larger than this is not decoded (its ground is not known):
a card's frame at 1200 ppi is 14 Mpx."""

#: A font's name whose style part says it is bold (``LiberationSerif-Bold``,
#: ``Arial,BoldItalic``, ``Inter-SemiBold``, ``Roboto-Black``).
_BOLD_STYLE = re.compile(r"bold|black|heavy|demi", re.IGNORECASE)
_BOLD_WEIGHT = 600


#: Output profiles decoded, by their stream as stored (its bytes and the entries that
#: decode them): every card PDF of a build embeds the same one, inflated once (0.9 ms a
#: file) instead of in each, and compared as it is stored (a digest of its 140 kB cost
#: 0.15 ms a file).
_PROFILES: list[tuple[bytes, bytes, bytes]] = []
_PROFILES_KEPT = 8


def intent_profile(pdf: pikepdf.Pdf) -> bytes | None:
    """The CMYK ICC profile of ``pdf``'s output intent (what its CMYK numbers mean), or
    None when it has none that can be read."""
    try:
        intents = pdf.Root.get("/OutputIntents")
        if not isinstance(intents, pikepdf.Array):
            return None
        for intent in intents:
            profile = (
                intent.get("/DestOutputProfile") if isinstance(intent, pikepdf.Dictionary) else None
            )
            if isinstance(profile, pikepdf.Stream) and int(profile.get("/N", 0)) == 4:
                return _profile_bytes(profile)
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError):
        return None
    return None


def _profile_bytes(profile: pikepdf.Stream) -> bytes:
    """A profile stream's bytes, decoded once per stored content (:data:`_PROFILES`)."""
    stored = profile.read_raw_bytes()
    decoding = b" ".join(
        b"-" if value is None else value.unparse(resolved=True)
        for value in (profile.get("/Filter"), profile.get("/DecodeParms"))
    )
    for raw, entries, decoded in _PROFILES:
        if raw == stored and entries == decoding:
            return decoded
    found = profile.read_bytes()
    if len(_PROFILES) >= _PROFILES_KEPT:
        _PROFILES.clear()
    _PROFILES.append((stored, decoding, found))
    return found


@lru_cache(maxsize=4)
def _lab(icc: bytes) -> ImageCms.ImageCmsTransform | None:
    """CMYK in ``icc`` to CIE Lab, relative colorimetric (paper white is L* 100); built
    once per profile (about 15 ms), None when LittleCMS cannot use the profile."""
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.buildTransform(
            source,
            ImageCms.createProfile("LAB"),
            "CMYK",
            "LAB",
            ImageCms.Intent.RELATIVE_COLORIMETRIC,
        )
    except (OSError, ImageCms.PyCMSError):
        return None


def _naive_lightness(pixel: bytes) -> float:
    """L* of a CMYK pixel converted as a viewer without a profile does: R = (1 - C)(1 -
    K) ... read as sRGB."""
    black = 1 - pixel[3] / 255
    linear = []
    for value in pixel[:3]:
        channel = (1 - value / 255) * black
        linear.append(channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4)
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    cube = luminance ** (1 / 3) if luminance > 216 / 24389 else (luminance * 24389 / 27 + 16) / 116
    return 116 * cube - 16


class Lightness:
    """The lightness (CIE L*, 0 black to 100 paper white) of DeviceCMYK colours as they
    print, to tell light text from a darker ground.

    Through the file's output profile when it has one (LittleCMS, relative
    colorimetric): the press's own inks, paper and dot gain, so that K 100 % is L* 22
    on Ghostscript's SWOP profile and a four-ink brown as dark as it prints.  Without
    one, the naive conversion a viewer makes (R = (1 - C)(1 - K) ..., as sRGB): its
    shadows are darker than print (K 100 % is L* 0, K 80 % L* 21 where SWOP prints 41),
    but text and ground go through the same conversion, and it is their difference
    that is judged."""

    def __init__(self, profile: bytes | None = None) -> None:
        self._transform = _lab(profile) if profile else None
        self._known: dict[bytes, float] = {}

    def of(self, pixels: Sequence[bytes]) -> list[float]:
        """L* of each CMYK pixel (4 bytes, 0-255 each), converted in one call."""
        wanted = [p for p in dict.fromkeys(pixels) if p not in self._known]
        if wanted and self._transform is not None:
            strip = Image.frombytes("CMYK", (len(wanted), 1), b"".join(wanted))
            try:
                lab = ImageCms.applyTransform(strip, self._transform)
            except (OSError, ImageCms.PyCMSError):  # LittleCMS refused: judge as viewers do
                self._transform = lab = None
            if lab is not None:
                for pixel, value in zip(wanted, lab.tobytes()[::3], strict=True):
                    self._known[pixel] = value * 100 / 255
                wanted = []
        for pixel in wanted:
            self._known[pixel] = _naive_lightness(pixel)
        return [self._known[p] for p in pixels]

    def colour(self, values: Sequence[float]) -> float:
        """L* of a DeviceCMYK colour (0-1 each)."""
        return self.of([_pixel(values)])[0]


def _pixel(values: Sequence[float]) -> bytes:
    return bytes(min(255, max(0, round(v * 255))) for v in values)


def _cmyk_image(image: pikepdf.Object) -> bool:
    """An image whose samples are CMYK, 8 bits each, without a mask (DeviceCMYK or a
    four-channel ICC space): what :func:`_decoded` reads."""
    space = image.get("/ColorSpace")
    if isinstance(space, pikepdf.Array) and len(space) == 2 and space[0] == "/ICCBased":
        four = isinstance(space[1], pikepdf.Stream) and int(space[1].get("/N", 0)) == 4
    else:
        four = space == "/DeviceCMYK"
    return (
        four
        and int(image.get("/BitsPerComponent", 8)) == 8
        and "/SMask" not in image
        and "/Mask" not in image
    )


#: Images decoded, by their bytes' and dictionary's digest and the reduction factor.
_DECODED: dict[tuple[bytes, int], Image.Image | None] = {}


def _decoded(image: pikepdf.Stream, matrix: Matrix) -> Image.Image | None:
    """``image``'s CMYK samples (as the PDF means them: its /Decode applied), reduced to
    about :data:`SAMPLE_PPI` at the size it is drawn with ``matrix``; None when it is
    not a CMYK image this reads, or cannot be decoded.  The same bytes are decoded once
    (:data:`DECODED_IMAGES`).

    A JPEG is decoded reduced (libjpeg's scaled decoding); Pillow inverts an Adobe CMYK
    JPEG's samples as it reads them, which a /Decode of [1 0 ...] (WeasyPrint writes it
    for such JPEGs) also does."""
    try:
        width, height = int(image.Width), int(image.Height)
        if not _cmyk_image(image) or not 0 < width * height <= MAX_IMAGE_PIXELS:
            return None
        drawn = (math.hypot(matrix[0], matrix[1]), math.hypot(matrix[2], matrix[3]))
        wanted = [max(1.0, side * SAMPLE_PPI / 72) for side in drawn]
        factor = max(1, int(min(width / wanted[0], height / wanted[1])))
        raw = image.read_raw_bytes()
        described = repr(sorted((k, str(v)) for k, v in image.items() if k != "/Length"))
        key = (hashlib.sha1(raw + described.encode(), usedforsecurity=False).digest(), factor)
        if key not in _DECODED:
            while len(_DECODED) >= DECODED_IMAGES:
                del _DECODED[next(iter(_DECODED))]
            _DECODED[key] = _decode(image, raw, factor)
        return _DECODED[key]
    except (pikepdf.PdfError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _decode(image: pikepdf.Stream, raw: bytes, factor: int) -> Image.Image | None:
    """:func:`_decoded`'s work: ``image`` (its stream's bytes ``raw``) decoded, reduced
    ``factor`` times."""
    width, height = int(image.Width), int(image.Height)
    try:
        filters = image.get("/Filter")
        names = (
            [str(f) for f in filters]
            if isinstance(filters, pikepdf.Array)
            else [str(filters)]
            if filters is not None
            else []
        )
        if names == ["/DCTDecode"]:
            picture: Image.Image = Image.open(io.BytesIO(raw))
            if picture.mode != "CMYK":
                return None
            inverted = "adobe" in picture.info  # the samples as stored are inverted
            picture.draft("CMYK", (max(1, width // factor), max(1, height // factor)))
            picture.load()
        else:
            data = image.read_bytes()
            if len(data) < width * height * 4:
                return None
            picture = Image.frombytes("CMYK", (width, height), data[: width * height * 4])
            picture = picture.reduce(factor) if factor > 1 else picture
            inverted = False
        decode = operand_numbers(list(image.get("/Decode", [])))
        if decode and len(decode) >= 2 and decode[0] > decode[1]:
            inverted = not inverted
        return picture.point(lambda v: 255 - v) if inverted else picture
    except (
        pikepdf.PdfError,
        OSError,
        ValueError,
        TypeError,
        KeyError,
        AttributeError,
        Image.DecompressionBombError,
    ):
        return None


def _bold(show: Show) -> bool:
    """Whether a text is bold: its font's name says so in its style part (after the
    family: ``LiberationSerif-Bold``), or its descriptor's /FontWeight is 600 or more,
    or the glyphs are filled and stroked (emboldened)."""
    if show.mode in (2, 6):
        return True
    font = show.font
    if not isinstance(font, pikepdf.Dictionary):
        return False
    name = str(font.get("/BaseFont", "")).lstrip("/").split("+")[-1]
    parts = re.split(r"[-,]", name, maxsplit=1)
    if len(parts) == 2 and _BOLD_STYLE.search(parts[1]):
        return True
    try:
        descendants = font.get("/DescendantFonts")
        described = descendants[0] if isinstance(descendants, pikepdf.Array) else font
        descriptor = described.get("/FontDescriptor")
        weight = (
            descriptor.get("/FontWeight") if isinstance(descriptor, pikepdf.Dictionary) else None
        )
        return weight is not None and float(weight) >= _BOLD_WEIGHT
    except (pikepdf.PdfError, TypeError, ValueError, IndexError, AttributeError):
        return False


def _unicode(font: pikepdf.Object | None) -> dict[int, str]:
    """A font's codes to text, from its /ToUnicode CMap (bfchar and bfrange), as a
    reader copies text from the page; empty without one."""
    found: dict[int, str] = {}
    stream = font.get("/ToUnicode") if isinstance(font, pikepdf.Dictionary) else None
    if not isinstance(stream, pikepdf.Stream):
        return found
    try:
        instructions = pikepdf.parse_content_stream(stream, "endbfchar endbfrange")
    except pikepdf.PdfError:
        return found

    def text(value: object) -> str:
        return (
            bytes(value).decode("utf-16-be", "replace") if isinstance(value, pikepdf.String) else ""
        )

    for instruction in instructions:
        operands = list(instruction.operands)
        if str(instruction.operator) == "endbfchar":
            for code, value in zip(operands[0::2], operands[1::2], strict=False):
                if isinstance(code, pikepdf.String):
                    found[int.from_bytes(bytes(code), "big")] = text(value)
            continue
        for start, end, value in zip(operands[0::3], operands[1::3], operands[2::3], strict=False):
            if not (isinstance(start, pikepdf.String) and isinstance(end, pikepdf.String)):
                continue
            first, last = int.from_bytes(bytes(start), "big"), int.from_bytes(bytes(end), "big")
            for offset, number in enumerate(range(first, min(last, first + 65535) + 1)):
                if isinstance(value, pikepdf.Array):
                    found[number] = text(value[offset]) if offset < len(value) else ""
                else:
                    base = text(value)
                    found[number] = base[:-1] + chr(ord(base[-1]) + offset) if base else ""
    return found


@dataclass
class _Reversed:
    """The reversed texts of one size and weight on a page, to report in one line."""

    size: float
    bold: bool
    texts: list[str] = field(default_factory=list)
    light: list[float] = field(default_factory=list)
    dark: list[float] = field(default_factory=list)
    #: Which of the page's texts (:attr:`Painter.shows`, by index) these are, to find
    #: the text blocks they print in.
    shows: list[int] = field(default_factory=list)
    #: What the warning quotes: the text of those blocks as printed (:func:`reading_order`);
    #: None when the page's text could not be read in order, and then :attr:`texts`
    #: alone, joined.
    quote: str | None = None

    def message(self) -> str:
        """What is found, its lightnesses (a range when they differ) and the cure."""
        floor = REVERSED_BOLD_PT if self.bold else REVERSED_PT
        joined = self.quote if self.quote is not None else _joined(self.texts)
        quoted = f"'{_excerpt(joined)}' " if joined else ""
        runs = f" ({len(self.texts)} runs of text)" if len(self.texts) > 1 else ""
        cure = f"print it at {floor:g} pt or more" + (
            "" if self.bold else f", or bold at {REVERSED_BOLD_PT:g} pt or more"
        )
        return (
            f"reversed {'bold ' if self.bold else ''}text under {floor:g} pt: {quoted}"
            f"at {self.size:.1f} pt{runs}, light ({_span(self.light)}) on dark "
            f"({_span(self.dark)}): the ink spreads into its thin strokes; {cure}"
        )


def _joined(texts: Sequence[str]) -> str:
    """The reversed ``texts`` alone, in order, when the page's text cannot be read in
    order (:attr:`_Reversed.quote`): runs are pieces of lines (a font change, a line
    break); a run ends with its space where a word ends, and a line's last run has none,
    so a space is put only between runs that do not already meet at one or at
    punctuation.  The runs of other sizes, weights or colours between them (a drop cap,
    bold words) are not among them: what :func:`reading_order` is for."""
    joined = ""
    for text in texts:
        piece = " ".join(text.split())
        if not piece:
            continue
        if (
            joined
            and not joined.endswith(" ")
            and not text[:1].isspace()
            and piece[0] not in ",.;:!?)»’"
        ):
            joined += " "
        joined += piece + (" " if text[-1:].isspace() else "")
    return joined.strip()


# How a text shown follows the one shown before it on the page (:func:`reading_order`).
_BREAK = 0  # elsewhere: another text block starts
_GLUED = 1  # on the same line, touching it: the same word goes on (a font change)
_SPACED = 2  # on the same line, after a gap: a space
_NEXT_LINE = 3  # at the start of the next line of the same block: a space, unless hyphenated

READING_SPACE_EM = 0.15
"""A gap between two texts on one line wider than this (in em of the smaller text)
reads as a space: a word space is a quarter of an em or more in the fonts of cards
(Gentium's 0.25 em, stretched, never shrunk, by justification), kerning and a font's
side bearings a few hundredths."""

READING_GAP_EM = 3.0
"""A gap on one line wider than this (em) is no longer a space, or an inline symbol
between words (a cypher disc with its spaces is 0.7 to 1.4 em), but another text on
the same baseline: the card's name and its cost, 3.5 em apart and more in the default
theme."""

READING_LINE_EM = 3.2
"""Lines of one text block are at most this far apart (baseline to baseline, em of the
smaller text): 1.25 within a paragraph, 1.75 between paragraphs (half a line between
them), 3 after a one-line paragraph opened by a drop cap or a large mark (two lines
tall) or around an empty paragraph.  The type line or the footer, a box away, are
farther (4 em and more in the official look)."""

READING_LINE_SIZES = 1.02
"""Lines of one text block differ in size by at most this ratio (the writer's
rounding): a text box is scaled whole, so that its lines have one size, bold and
italic runs included; the type line above it (7.5 pt over text of 7.9 pt in the
default theme, 1.8 em above it: as far as a paragraph) has another."""

DROP_CAP_RATIO = 1.5
"""A text of a few letters at least this many times larger than the next text, beside
the lines it shows on, is that text's drop cap: the first letter of its word."""

#: Ends of a line whose word goes on on the next line: a hyphen after a letter.
_HYPHENATED = re.compile(r"\S[-\u2010\u00ad]$")
#: The hyphens a line break adds (a theme's ``hyphenate-character``, U+2010 in the
#: default one, or a soft hyphen shown), not the word's own: card text writes its
#: compounds' hyphens as U+002D (``mort-vivant``), which stays.
_BREAK_HYPHENS = "\u2010\u00ad"


@dataclass(frozen=True)
class _Placed:
    """Where a text shown is printed (page space): its baseline's start and end, the
    unit vectors along its line and up its glyphs, its size."""

    start: Point
    end: Point
    along: Point
    up: Point
    size: float


def _placed(show: Show) -> _Placed | None:
    """Where ``show`` is printed; None when it is not placed (read without its
    position) or its matrix is degenerate."""
    line = show.line
    if line is None or not show.size > 0:
        return None
    a, b, c, d, e, f = line
    across, height = math.hypot(a, b), math.hypot(c, d)
    if not (across > 1e-9 and height > 1e-9 and math.isfinite(show.advance)):
        return None
    end = (e + a * show.advance, f + b * show.advance)
    return _Placed((e, f), end, (a / across, b / across), (c / height, d / height), show.size)


def _glyphs(show: Show) -> int:
    """How many glyphs ``show`` prints (two bytes a glyph in a composite font)."""
    count = sum(len(item) for item in shown_items(show.operands) if isinstance(item, bytes))
    font = show.font
    two_byte = isinstance(font, pikepdf.Dictionary) and font.get("/Subtype") == "/Type0"
    return count // 2 if two_byte else count


def _follows(before: Show, was: _Placed, now: _Placed) -> int:
    """How a text placed at ``now`` follows ``before`` (placed at ``was``) in reading:
    :data:`_GLUED`, :data:`_SPACED`, :data:`_NEXT_LINE` or :data:`_BREAK`."""
    if was.along[0] * now.along[0] + was.along[1] * now.along[1] < 0.99:
        return _BREAK  # another direction: another text
    # How far past the end of the one before it starts, along the line; how far below
    # its baseline (positive: lower), in page points.
    gap = (now.start[0] - was.end[0]) * was.along[0] + (now.start[1] - was.end[1]) * was.along[1]
    drop = (was.start[0] - now.start[0]) * was.up[0] + (was.start[1] - now.start[1]) * was.up[1]
    small, large = min(was.size, now.size), max(was.size, now.size)
    if (
        was.size >= DROP_CAP_RATIO * now.size
        and -was.size <= drop <= 0.3 * now.size
        and -0.3 * now.size <= gap <= 0.5 * was.size
        and _glyphs(before) <= 3
    ):
        return _GLUED  # a drop cap, its word on the line beside it
    if abs(drop) <= 0.3 * small:
        if large <= DROP_CAP_RATIO * small and -0.5 * small <= gap <= READING_GAP_EM * small:
            return _SPACED if gap > READING_SPACE_EM * small else _GLUED
        return _BREAK
    if (
        large <= READING_LINE_SIZES * small
        and 0.6 * small <= drop <= READING_LINE_EM * small
        and gap <= 0
    ):
        return _NEXT_LINE
    return _BREAK


def reading_order(shows: Sequence[Show]) -> list[tuple[int, int]]:
    """Each text shown on a page, in the order painted (the reading order of the
    pages this checks: WeasyPrint paints lines in order, and a drop cap before its
    line), as (its text block, how it follows the one before: :data:`_GLUED`...).

    A warning quotes the text as printed, not the texts it is about alone: a drop cap,
    bold words or the words of another colour are other texts (another font, size or
    operator), which the warning may not concern, and the spaces between texts are
    often no glyph at all but a gap in their positions (a word in bold between plain
    ones: neither run holds the space).  So texts are read with their positions:
    one follows the one before on its line (touching it, or after a gap: a space), or
    starts the next line of the same block (or paragraph), or a drop cap opens it;
    anything else starts another block."""
    found: list[tuple[int, int]] = []
    block = -1
    before: tuple[Show, _Placed] | None = None
    for show in shows:
        now = _placed(show)
        how = _BREAK if before is None or now is None else _follows(*before, now)
        if how == _BREAK:
            block += 1
        found.append((block, how))
        before = None if now is None else (show, now)
    return found


def _line_starts(reading: Sequence[tuple[int, int]], shows: Iterable[int]) -> dict[int, int]:
    """For each text block (of ``reading``, :func:`reading_order`) holding some of the texts
    ``shows`` (their indexes, in order), the index of the text that starts the line of
    the first of them."""
    starts: dict[int, int] = {}
    for number in shows:
        block = reading[number][0]
        if block not in starts:
            first = number
            while first > 0 and reading[first][1] in (_GLUED, _SPACED):
                first -= 1
            starts[block] = first
    return starts


def _top_left(show: Show) -> tuple[float, float]:
    """Where ``show`` starts, to order text blocks top to bottom, then left to right
    (page space, tenths of a point)."""
    placed = _placed(show)
    return (0.0, 0.0) if placed is None else (-round(placed.start[1], 1), placed.start[0])


def _printed(runs: Sequence[tuple[int, str]]) -> str:
    """The text of a block's runs, each (how it follows the one before, its text), as
    printed: a run's own spaces kept (one, however many), a space where the positions
    show one or a line ends.  A word hyphenated at a line's end is read whole (its
    line joins the next without a space, the hyphen the break added left out, so that
    the quote can be found in the card's text); a run with no text (codes its font
    cannot name) keeps the space due before it."""
    joined = ""
    space = False
    for how, text in runs:
        words = " ".join(text.split())
        if how == _NEXT_LINE and _HYPHENATED.search(joined):
            if joined[-1] in _BREAK_HYPHENS:
                joined = joined[:-1]
        elif how in (_SPACED, _NEXT_LINE) or text[:1].isspace():
            space = True
        if words:
            joined += (" " if space and joined else "") + words
            space = text[-1:].isspace()
    return joined


def _excerpt(text: str) -> str:
    """The first :data:`EXCERPT_CHARS` of ``text``, cut after a word when one ends in
    the second half, with an ellipsis when cut."""
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[: EXCERPT_CHARS + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > EXCERPT_CHARS // 2 else cut[:EXCERPT_CHARS]).rstrip() + "…"


def _span(values: Sequence[float]) -> str:
    low, high = round(min(values)), round(max(values))
    return f"L* {low}" if low == high else f"L* {low}-{high}"


class TextCheck:
    """The preflight's warnings about text and its ground, for the pages of one file:

    * ``knockout``: white text under :data:`SMALL_TEXT_PT` knocked out of a ground of
      several inks (:func:`knockouts`): it misregisters;
    * ``reversed``: text at least :data:`REVERSED_CONTRAST` lighter (L*, through the
      file's output profile: :class:`Lightness`) than what is painted under it, a flat
      colour or a CMYK image's pixels, smaller than :data:`REVERSED_PT`
      (:data:`REVERSED_BOLD_PT` bold): the ink's spread makes it hard to read.  One
      line per size and weight on a page, quoting the text.

    White text small enough gets both: two faults with two cures (its ground in one
    ink, or the text in black, for the registration; its size or weight for the ink's
    spread), and 8 pt cures both.

    Both read the page as painted, in one reading: first the text alone (a page with
    no small light text costs 2 ms), then everything painted under it (8 ms).  The
    ground of a text is the median lightness under the points it is looked at; points
    over a shading, a pattern, a transparent fill or an image this does not decode are
    left out, and a text with no known ground is not judged.  One check serves a
    file's pages: the lightnesses and the images decoded are kept."""

    def __init__(self, profile: bytes | None = None, *, reversed_text: bool = True) -> None:
        self.reversed_text = reversed_text
        self.lightness = Lightness(profile)
        self._images: dict[tuple[int, int], Image.Image | None] = {}
        self._unicode: dict[tuple[int, int], dict[int, str]] = {}

    def page(
        self, page: pikepdf.Page, parsed: Sequence[tuple[str, Sequence[Any]]] | None = None
    ) -> list[tuple[str, str]]:
        """(code, message) of every warning about ``page``'s text, knockouts first.
        ``parsed``: the page's content already parsed, with at least
        :data:`PAINTED_OPERATORS` (the preflight's content walk shares its own)."""
        first = Painter(_TEXT_OPERATORS, grounds=False).walked(page, parsed)
        if not any(_small_white(s) or self._small_light(s) for s in first.shows):
            return []
        painter = Painter().walked(page, parsed)
        knocked: dict[str, int] = {}
        reversed_texts: dict[tuple[float, bool], _Reversed] = {}
        for number, show in enumerate(painter.shows):
            message = _knockout(painter, show) if _small_white(show) else None
            if message is not None:
                knocked[message] = knocked.get(message, 0) + 1
            if self._small_light(show):
                self._reversed(painter, show, number, reversed_texts)
        if reversed_texts:
            self._quote(painter.shows, reversed_texts.values())
        return [("knockout", m if n == 1 else f"{m} ({n} times)") for m, n in knocked.items()] + [
            ("reversed", found.message()) for found in reversed_texts.values()
        ]

    def _quote(self, shows: Sequence[Show], groups: Iterable[_Reversed]) -> None:
        """Set each group's :attr:`_Reversed.quote`: its texts as the card prints them
        (:func:`reading_order`), drop cap, bold words and spaces included.  In each text
        block holding some of them, from the start of the line of the first (the
        drop cap or the bold words before it on its line are part of what is read
        there; the lines above, another paragraph maybe in another colour, are not
        what the warning is about) to the block's end; blocks top to bottom (a
        positioned paragraph is painted after the others).  Only those texts are
        decoded, the reversed ones once (a page with reversed text has a dozen or
        two).  A page whose text cannot be read so (a font or string this cannot
        decode) keeps the reversed texts alone, joined as they were (:func:`_joined`):
        a quote is worth no failed check."""
        groups = list(groups)
        texts = {n: text for g in groups for n, text in zip(g.shows, g.texts, strict=False)}
        try:
            reading = reading_order(shows)
            for group in groups:
                starts = _line_starts(reading, group.shows)
                printed = []
                for block, first in sorted(starts.items(), key=lambda s: _top_left(shows[s[1]])):
                    runs: list[tuple[int, str]] = []
                    for number in range(first, len(reading)):
                        if reading[number][0] != block:
                            break
                        if number not in texts:
                            texts[number] = self._text(shows[number])
                        runs.append((reading[number][1] if runs else _BREAK, texts[number]))
                    printed.append(_printed(runs))
                group.quote = " ".join(text for text in printed if text) or None
        except (
            pikepdf.PdfError,
            ValueError,
            TypeError,
            ArithmeticError,
            LookupError,
            AttributeError,
        ):
            return

    def _small_light(self, show: Show) -> bool:
        """A text that may be reversed: filled, opaque, in DeviceCMYK, under
        :data:`REVERSED_PT`, and light enough to be that much lighter than a ground."""
        return (
            self.reversed_text
            and show.size < REVERSED_PT - _SIZE_SLACK
            and show.opaque
            and show.mode in FILL_MODES
            and show.fill.space == "cmyk"
            and len(show.fill.values) == 4
            and self.lightness.colour(show.fill.values) >= REVERSED_CONTRAST
        )

    def _reversed(
        self,
        painter: Painter,
        show: Show,
        number: int,
        found: dict[tuple[float, bool], _Reversed],
    ) -> None:
        """Add ``show`` (the ``number``-th of the page's texts) to the page's reversed
        texts when it is one."""
        bold = _bold(show)
        if show.size >= (REVERSED_BOLD_PT if bold else REVERSED_PT) - _SIZE_SLACK:
            return
        under = painter.under(show.points, show.ground)
        pixels = [p for p in map(self._pixel, under, show.points) if p is not None]
        if not pixels:
            return
        ground = statistics.median(self.lightness.of(pixels))
        light = self.lightness.colour(show.fill.values)
        if light - ground < REVERSED_CONTRAST:
            return
        group = found.setdefault((round(show.size, 1), bold), _Reversed(round(show.size, 1), bold))
        group.texts.append(self._text(show))
        group.shows.append(number)
        group.light.append(light)
        group.dark.append(ground)

    def _pixel(self, paint: Paint | None, point: Point) -> bytes | None:
        """The CMYK pixel ``paint`` (the one :meth:`Painter.under` found, None: paper)
        paints at ``point``, or None when it is not known."""
        x, y = point
        if paint is None:
            return _pixel(PAPER)
        if not isinstance(paint.colour, str):
            return _pixel(paint.colour)
        image = paint.image
        if not isinstance(image, pikepdf.Stream):
            return None
        key = image.objgen
        if key not in self._images or key == (0, 0):
            self._images[key] = _decoded(image, paint.matrix)
        picture = self._images[key]
        a, b, c, d, e, f = paint.matrix
        det = a * d - b * c
        if picture is None or abs(det) < 1e-12:
            return None
        u = ((x - e) * d - (y - f) * c) / det
        v = ((y - f) * a - (x - e) * b) / det
        column = min(picture.width - 1, max(0, int(u * picture.width)))
        row = min(picture.height - 1, max(0, int((1 - v) * picture.height)))
        pixel = picture.getpixel((column, row))
        assert isinstance(pixel, tuple)  # a CMYK picture (_decoded): four bands
        return bytes(pixel)

    def _text(self, show: Show) -> str:
        """What ``show`` shows, as a reader copies it (its font's /ToUnicode; the
        codes as Latin-1 for a simple font without one)."""
        font = show.font
        if not isinstance(font, pikepdf.Dictionary):
            return ""
        key = font.objgen
        if key not in self._unicode or key == (0, 0):
            self._unicode[key] = _unicode(font)
        table = self._unicode[key]
        two_byte = font.get("/Subtype") == "/Type0"
        text: list[str] = []
        for item in shown_items(show.operands):  # a TJ array read at once, as it is placed
            if isinstance(item, bytes):
                if two_byte:
                    text += (
                        table.get(item[i] << 8 | item[i + 1], "")
                        for i in range(0, len(item) - 1, 2)
                    )
                else:
                    text += (table.get(code, "" if code < 32 else chr(code)) for code in item)
            elif item < -250:  # a gap as wide as a space
                text.append(" ")
        return "".join(text)
