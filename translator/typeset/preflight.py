"""Preflight: prove that a PDF is print-ready before a print shop sees it.

A print shop's RIP takes what it is given: an RGB colour is converted by whatever
profile the RIP has, a font that is not embedded is substituted, an over-inked black
smears and dries badly, a 150 ppi picture prints soft, a wrong TrimBox cuts the card in
the wrong place.  None of it shows on screen, so every PDF we hand over is checked
here, page by page, naming the page, the card and the object at fault:

``colour``
    100 % CMYK: no RGB or grey operator or colour space anywhere it can paint (page
    content, forms, tiling and shading patterns, shadings, images, inline images,
    soft masks, transparency groups, Type3 glyphs, printed annotations).
``font``
    every font embedded and subset (Type3 fonts carry their glyphs: accepted).
``ink``
    total area coverage (C+M+Y+K) at most the limit, measured on Ghostscript's CMYK
    render: what the press lays down, overprint and images included.
``resolution``
    every image at least ``min_ppi`` at the size it is drawn (the CTM at ``Do``).
``boxes``
    TrimBox and BleedBox as the card size says (or merely nested, for print-and-play
    sheets, known by their page labels, whose placed cards must have the card size).
``intent``
    a CMYK output intent, so the RIP knows which CMYK the numbers mean.
``unreadable``
    not a PDF pikepdf can open, or a page that cannot be read.
``knockout`` (a warning)
    white text under 8 pt knocked out of a ground of more than one ink above 10 %
    (or of an image): the plates never register exactly, and such text gets
    coloured fringes (:func:`.pdfx.knockouts`; card pages only, read as painted).
``reversed`` (a warning)
    light text on a darker ground (30 L* lighter, through the output profile), under
    7 pt, or 6 pt bold: the ink spreads into its strokes, and it is hard to read
    (:class:`.pdfx.TextCheck`, in the same reading as ``knockout``; one line per
    size and weight on a page, quoting the text).  Small white text on a dark ground
    of several inks gets both: two faults, two cures.

Ghostscript renders every file once, split over up to :data:`GS_PROCESSES` processes,
while pikepdf checks the structure: a 216-page deck takes about 3 s on two cores
(``bench/preflight.py``).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, TextIO

import pikepdf
from PIL import Image, ImageFilter, ImageMath

from ..limits import MAX_PDF_BYTES
from .geometry import IDENTITY, Matrix, multiply
from .pdfx import TextCheck, intent_profile
from .sizes import MM_PT, Box, CardSize, pdf_box

DEFAULT_DPI = 150.0
"""The ink check's render resolution.  Cards are printed with a screen of about 150
lpi: the press lays ink in cells of 1/150 inch (0.17 mm), so a finer render measures
detail no plate carries, and a coarser one samples too sparsely to find a 0.5 mm
over-inked area (:data:`INK_AREA_MM` is 3 pixels here).  The render is not smoothed
(no interpolation, no anti-aliasing): each pixel samples the colours as drawn.  Its
cost is decoding the artwork, not the pixels: 72 dpi is hardly faster, 300 dpi
quadruples the measuring (about 1.5 ms a card at 150 dpi)."""

GS_PROCESSES = 4
"""At most this many Ghostscript processes (and no more than the cores)."""

FILES_PER_RUN = 200
"""Files given to one Ghostscript run (a command line has a length limit)."""

MIN_PAGES_PER_PROCESS = 8
"""A file is split over processes only in ranges this long: each process reads the
whole file and starts Ghostscript (about 0.1 s), which a short range does not repay."""

MM_PER_PT = 1 / MM_PT
BOX_TOLERANCE_MM = 0.05
INK_AREA_MM = 0.5
"""An over-inked area is reported when it holds a square of this side (3 x 3 pixels at
150 dpi): ink load is a problem of areas (drying, set-off, a sticky sheet), and the
smaller specks are JPEG noise in artwork separated at the limit, a few pixels at
301-304 % in the sample's art."""
INK_ROUNDING = 2
"""Levels (of 255) allowed over the limit: the render rounds each of the four
channels to 8 bits, so a colour exactly at the limit may come out up to 2 levels
(0.8 %) over it."""

CODES = (
    "unreadable",
    "intent",
    "boxes",
    "colour",
    "font",
    "resolution",
    "ink",
    "knockout",
    "reversed",
)
#: The page labels ``translator build`` gives print-and-play sheets: such a page is
#: checked as a sheet (paper, with cards placed on it), not as a card.
SHEET_LABEL = re.compile(r"^sheet \d+( back)?$")
_SUBSET = re.compile(r"^[A-Z]{6}\+")
_PROCESS_COLORANTS = frozenset({"/Cyan", "/Magenta", "/Yellow", "/Black", "/All", "/None"})
_ABBREVIATIONS = {
    "/G": "/DeviceGray",
    "/RGB": "/DeviceRGB",
    "/CMYK": "/DeviceCMYK",
    "/I": "/Indexed",
}
_DEVICE_OPERATORS = {
    "rg": "DeviceRGB fill",
    "RG": "DeviceRGB stroke",
    "g": "DeviceGray fill",
    "G": "DeviceGray stroke",
}
#: Operators that choose a fill or a stroke colour space (k and K: DeviceCMYK; sc and
#: scn alone set a colour in the current space, DeviceGray until one is chosen).
_SETS_FILL = frozenset({"k", "cs", "rg", "g"})
_SETS_STROKE = frozenset({"K", "CS", "RG", "G"})
#: Painting operators, and whether they use the fill and the stroke colour.
_PAINTS = {
    "f": (True, False),
    "F": (True, False),
    "f*": (True, False),
    "S": (False, True),
    "s": (False, True),
    "B": (True, True),
    "B*": (True, True),
    "b": (True, True),
    "b*": (True, True),
    "Tj": (True, False),
    "TJ": (True, False),
    "'": (True, False),
    '"': (True, False),
}
_OPERATORS = frozenset(
    {
        "q",
        "Q",
        "cm",
        "cs",
        "CS",
        "scn",
        "SCN",
        "sh",
        "Do",
        "Tf",
        "gs",
        "INLINE IMAGE",
        *_DEVICE_OPERATORS,
        *_SETS_FILL,
        *_SETS_STROKE,
        *_PAINTS,
    }
)
_PAGE = "page content"
#: The operators the parser returns (qpdf filters them, far faster than Python): inline
#: images come through only when BI, ID and EI are all named.
_WANTED = " ".join(sorted(_OPERATORS - {"INLINE IMAGE"})) + " BI ID EI"

Instructions = list[tuple[str, list]]
Fault = tuple[str, str]
"""(severity, description) of something that is not CMYK."""


@dataclass(frozen=True)
class Problem:
    """One reason a PDF is not print-ready, where it is and what to fix."""

    path: str
    page: int
    card: str
    code: str
    severity: str
    message: str

    def __str__(self) -> str:
        """``path:page (card): code: message``, as the reports print it."""
        return _line(self)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class _FileReport:
    path: str
    pages: int
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


# ---------------------------------------------------------------------------------------
# Geometry


def _matrix(value: object) -> Matrix:
    """A /Matrix entry, or the identity when it is absent or malformed."""
    if isinstance(value, pikepdf.Array) and len(value) == 6:
        try:
            a, b, c, d, e, f = (float(v) for v in value)
        except (TypeError, ValueError):
            return IDENTITY
        return (a, b, c, d, e, f)
    return IDENTITY


def _mm(points: float) -> float:
    return points * MM_PER_PT


# ---------------------------------------------------------------------------------------
# Colour spaces


def _lookup(resources: object, category: str, name: object) -> object | None:
    """``resources[category][name]``, None when any of it is missing."""
    if not isinstance(resources, pikepdf.Dictionary):
        return None
    entries = resources.get(category)
    if not isinstance(entries, pikepdf.Dictionary):
        return None
    return entries.get(str(name))


def _space_fault(space: object, resources: object, depth: int = 0) -> Fault | None:
    """None when ``space`` paints in CMYK only, else why not.

    Named spaces are looked up in ``resources``; an Indexed, Pattern, Separation or
    DeviceN space is judged by its base or alternate; a spot colour with a CMYK
    alternate is only a warning, since the RIP prints it as that alternate unless the
    printer was asked for the extra ink.
    """
    if depth > 8:
        return ("error", "colour space nested too deep")
    if isinstance(space, pikepdf.Name):
        name = _ABBREVIATIONS.get(str(space), str(space))
        if name in ("/DeviceCMYK", "/Pattern"):
            return None
        if name in ("/DeviceRGB", "/DeviceGray"):
            return ("error", name[1:])
        named = _lookup(resources, "/ColorSpace", space)
        if named is None:
            return ("error", f"undefined colour space {name}")
        return _space_fault(named, resources, depth + 1)
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        return _family_fault(space, resources, depth)
    return ("error", f"unknown colour space {space!r}")


def _family_fault(space: pikepdf.Array, resources: object, depth: int) -> Fault | None:
    """:func:`_space_fault` for an array colour space ``[/Family ...]``."""
    family = _ABBREVIATIONS.get(str(space[0]), str(space[0]))
    if len(space) == 1:
        return _space_fault(pikepdf.Name(family), resources, depth + 1)
    if family == "/ICCBased":
        components = int(space[1].get("/N", 0))
        return None if components == 4 else ("error", f"ICCBased with N = {components}")
    if family in ("/Indexed", "/Pattern"):
        fault = _space_fault(space[1], resources, depth + 1)
        return None if fault is None else (fault[0], f"{family[1:]} on {fault[1]}")
    if family in ("/Separation", "/DeviceN") and len(space) >= 3:
        return _colorant_fault(family, space, resources, depth)
    return ("error", family[1:])


def _colorant_fault(
    family: str, space: pikepdf.Array, resources: object, depth: int
) -> Fault | None:
    """A Separation or DeviceN space: its alternate must be CMYK; an ink other than the
    process four (or /All, /None) is a spot colour, a warning."""
    names = [space[1]] if family == "/Separation" else list(space[1])
    label = " ".join(str(n) for n in names)
    fault = _space_fault(space[2], resources, depth + 1)
    if fault is not None:
        return ("error", f"{family[1:]} {label} with a {fault[1]} alternate")
    spots = [str(n) for n in names if str(n) not in _PROCESS_COLORANTS]
    if spots:
        return (
            "warning",
            f"spot colour {' '.join(spots)}, printed as its CMYK "
            "alternate unless the printer has the ink",
        )
    return None


# ---------------------------------------------------------------------------------------
# Fonts


def _font_faults(key: str, font: object) -> list[Fault]:
    """A font not embedded (substituted by the RIP) or not subset (a whole font handed
    over, which some shops refuse and which tempts editing)."""
    if not isinstance(font, pikepdf.Dictionary) or font.get("/Subtype") == "/Type3":
        return []
    base = str(font.get("/BaseFont", "/(unnamed)"))[1:]
    described = font
    descendants = font.get("/DescendantFonts")
    if (
        font.get("/Subtype") == "/Type0"
        and isinstance(descendants, pikepdf.Array)
        and len(descendants) > 0
    ):
        described = descendants[0]
    descriptor = described.get("/FontDescriptor")
    embedded = isinstance(descriptor, pikepdf.Dictionary) and any(
        k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
    )
    if not embedded:
        return [("error", f"font {key} {base} is not embedded")]
    if not _SUBSET.match(base):
        return [("error", f"font {key} {base} is not subset (no ABCDEF+ prefix)")]
    return []


# ---------------------------------------------------------------------------------------
# Content streams


def _within(where: str, label: str) -> str:
    """``label`` nested in ``where``: 'form /Fm2', or 'form /Fm2 in form /Fm1'."""
    return label if where == _PAGE else f"{label} in {where}"


def _suffix(where: str) -> str:
    """' in form /Fm1' for objects drawn outside the page content, else nothing."""
    return "" if where == _PAGE else f" in {where}"


class _ContentChecker:
    """Walks a page's content and everything it draws, tracking the CTM, and collects
    colour, font and resolution faults.

    Parsed content streams and font verdicts are kept by object, so a deck whose pages
    share forms, fonts and images parses each once.  Findings are counted per message,
    so an RGB page gives one line ``rg (DeviceRGB fill) in page content (812 times)``.
    """

    def __init__(self, min_ppi: float) -> None:
        self.min_ppi = min_ppi
        self._parsed: dict[tuple, Instructions] = {}
        self._fonts: dict[tuple, list[Fault]] = {}
        self._found: dict[tuple[str, str, str], int] = {}
        self._walking: list[tuple[int, int]] = []
        self._seen: set[tuple] = set()
        self._pages: dict[tuple, list[tuple[str, str, str]]] = {}
        #: Whether a fill and a stroke colour space were chosen (None: not checked).
        self._colours: list[bool] | None = None

    # -- entry points

    def check_page(self, page: pikepdf.Page) -> list[tuple[str, str, str]]:
        """(code, severity, message) of every fault drawn by ``page``; a page drawing
        the very objects of one already checked (a card repeated in a deck, each back)
        gets that page's verdict without a second walk."""
        key = _drawing_key(page.obj)
        if key is not None and key in self._pages:
            return self._pages[key]
        found = self._check_page(page)
        if key is not None:
            self._pages[key] = found
        return found

    def _check_page(self, page: pikepdf.Page) -> list[tuple[str, str, str]]:
        self._found = {}
        self._seen = set()
        resources = _inherited(page.obj, "/Resources")
        self._group(page.obj, "transparency group of the page", resources)
        self._colours = [False, False]
        self._walk(self._page_instructions(page), resources, IDENTITY, _PAGE, IDENTITY)
        self._colours = None
        self._annotations(page.obj)
        return [
            (code, severity, message if count == 1 else f"{message} ({count} times)")
            for (code, severity, message), count in self._found.items()
        ]

    def _add(self, code: str, severity: str, message: str) -> None:
        key = (code, severity, message)
        self._found[key] = self._found.get(key, 0) + 1

    def _page_instructions(self, page: pikepdf.Page) -> Instructions:
        contents = page.obj.get("/Contents")
        if contents is None:
            return []
        if isinstance(contents, pikepdf.Array):
            key = tuple(c.objgen for c in contents)
        else:
            key = (contents.objgen,)
        return self._cached(key, lambda: pikepdf.parse_content_stream(page, _WANTED))

    def _stream_instructions(self, stream: pikepdf.Object) -> Instructions:
        return self._cached((stream.objgen,), lambda: pikepdf.parse_content_stream(stream, _WANTED))

    def _cached(self, key: tuple, parse: Callable[[], list]) -> Instructions:
        """The operators that matter here, parsed once per stream (direct objects, whose
        objgen is (0, 0), are never cached)."""
        if key in self._parsed:
            return self._parsed[key]
        instructions = [(str(op), list(operands)) for operands, op in parse()]
        if all(k != (0, 0) for k in key):
            self._parsed[key] = instructions
        return instructions

    # -- the interpreter

    def _walk(
        self,
        instructions: Instructions,
        resources: object,
        ctm: Matrix | None,
        where: str,
        base: Matrix | None,
    ) -> None:
        """Interpret ``instructions``: ``ctm`` is None where sizes mean nothing (glyphs,
        soft masks, annotations), ``base`` is the space patterns are relative to."""
        saved: list[Matrix | None] = []
        chosen: list[list[bool] | None] = []
        for op, operands in instructions:
            if self._colours is not None:
                self._default_colour(op, where)
            if op == "q":
                saved.append(ctm)
                chosen.append(None if self._colours is None else list(self._colours))
            elif op == "Q":
                ctm = saved.pop() if saved else ctm
                state = chosen.pop() if chosen else None
                if state is not None and self._colours is not None:
                    self._colours[:] = state
            elif op == "cm":
                ctm = _concat(operands, ctm)
            elif op in _DEVICE_OPERATORS:
                self._add("colour", "error", f"{op} ({_DEVICE_OPERATORS[op]}) in {where}")
            elif op in ("cs", "CS"):
                self._colour_space(op, operands, resources, where)
            elif op in ("scn", "SCN"):
                if operands and isinstance(operands[-1], pikepdf.Name):
                    self._pattern(str(operands[-1]), resources, where, base)
            elif op == "sh":
                self._shading(operands, resources, where)
            elif op == "Do":
                self._do(operands, resources, ctm, where)
            elif op == "Tf":
                self._font(operands, resources, where)
            elif op == "gs":
                self._graphics_state(operands, resources, where)
            elif op == "INLINE IMAGE":
                self._inline_image(operands, resources, ctm, where)

    def _default_colour(self, op: str, where: str) -> None:
        """Paint before any colour is chosen is in DeviceGray (the initial colour
        space, black): not CMYK, though no operator says so."""
        colours = self._colours
        assert colours is not None
        if op in _SETS_FILL:
            colours[0] = True
        elif op in _SETS_STROKE:
            colours[1] = True
        elif op in _PAINTS:
            fill, stroke = _PAINTS[op]
            if (fill and not colours[0]) or (stroke and not colours[1]):
                self._add(
                    "colour",
                    "error",
                    f"{op} paints in the initial DeviceGray "
                    f"(no colour chosen before it) in {where}",
                )

    def _walk_apart(
        self,
        instructions: Instructions,
        resources: object,
        ctm: Matrix | None,
        where: str,
        base: Matrix | None,
    ) -> None:
        """:meth:`_walk` what does not paint with the page's colours (patterns, glyphs,
        soft masks, annotations: each their own state), without the default-colour
        check."""
        colours, self._colours = self._colours, None
        try:
            self._walk(instructions, resources, ctm, where, base)
        finally:
            self._colours = colours

    def _colour_space(self, op: str, operands: list, resources: object, where: str) -> None:
        if not operands:
            return
        name = str(operands[0])
        if name in ("/DeviceCMYK", "/Pattern"):
            return
        fault = _space_fault(operands[0], resources)
        if fault is not None:
            shown = f"{op} {name}" if fault[1] == name[1:] else f"{op} {name} ({fault[1]})"
            self._add("colour", fault[0], f"{shown} in {where}")

    def _pattern(self, name: str, resources: object, where: str, base: Matrix | None) -> None:
        pattern = _lookup(resources, "/Pattern", name)
        if not isinstance(pattern, pikepdf.Object) or not self._first(("pattern", pattern)):
            return
        label = _within(where, f"pattern {name}")
        if pattern.get("/PatternType") == 2:
            fault = _shading_fault(pattern.get("/Shading"), resources)
            if fault is not None:
                self._add("colour", fault[0], f"{label} (shading, {fault[1]})")
            return
        if isinstance(pattern, pikepdf.Stream):
            ctm = None if base is None else multiply(_matrix(pattern.get("/Matrix")), base)
            self._walk_apart(
                self._stream_instructions(pattern),
                pattern.get("/Resources", resources),
                ctm,
                label,
                ctm,
            )

    def _shading(self, operands: list, resources: object, where: str) -> None:
        if not operands:
            return
        fault = _shading_fault(_lookup(resources, "/Shading", operands[0]), resources)
        if fault is not None:
            self._add("colour", fault[0], f"shading {operands[0]} ({fault[1]}) in {where}")

    def _do(self, operands: list, resources: object, ctm: Matrix | None, where: str) -> None:
        if not operands:
            return
        name = str(operands[0])
        xobject = _lookup(resources, "/XObject", name)
        if not isinstance(xobject, pikepdf.Stream):
            return
        if xobject.get("/Subtype") == "/Image":
            self._image(f"image {name}", xobject, resources, ctm, where)
        elif xobject.get("/Subtype") == "/Form":
            self._form(name, xobject, resources, ctm, where)

    def _image(
        self, label: str, image: pikepdf.Object, resources: object, ctm: Matrix | None, where: str
    ) -> None:
        """An image's colour space (a stencil mask has none: it paints the fill colour)
        and its resolution as drawn: the CTM maps the unit square onto the page."""
        if not image.get("/ImageMask", False):
            fault = _image_fault(image, resources)
            if fault is not None:
                self._add("colour", fault[0], f"{label} ({fault[1]}) in {where}")
        if ctm is None:
            return
        width, height = float(image.get("/Width", 0)), float(image.get("/Height", 0))
        drawn_x, drawn_y = math.hypot(ctm[0], ctm[1]) / 72, math.hypot(ctm[2], ctm[3]) / 72
        if drawn_x < 1e-6 or drawn_y < 1e-6:
            return
        ppi_x, ppi_y = width / drawn_x, height / drawn_y
        if round(min(ppi_x, ppi_y)) < self.min_ppi:
            # The pixels and the size on the page: what to look for in the artwork.
            self._add(
                "resolution",
                "error",
                f"{label} ({width:.0f} x {height:.0f} px over {drawn_x * 25.4:.1f} x "
                f"{drawn_y * 25.4:.1f} mm) is {ppi_x:.0f} x {ppi_y:.0f} ppi, "
                f"below {self.min_ppi:g}{_suffix(where)}",
            )

    def _inline_image(
        self, operands: list, resources: object, ctm: Matrix | None, where: str
    ) -> None:
        if operands and isinstance(operands[0], pikepdf.PdfInlineImage):
            self._image("inline image", operands[0].obj, resources, ctm, where)

    def _form(
        self, name: str, form: pikepdf.Object, resources: object, ctm: Matrix | None, where: str
    ) -> None:
        """A form draws in its own space (/Matrix x CTM) with its own resources (or,
        in old files, its parent's); a form that draws itself is walked once."""
        if form.objgen in self._walking:
            return
        label = _within(where, f"form {name}")
        form_resources = form.get("/Resources", resources)
        self._group(form, f"transparency group of {label}", form_resources)
        inner = None if ctm is None else multiply(_matrix(form.get("/Matrix")), ctm)
        self._walking.append(form.objgen)
        colours = None if self._colours is None else list(self._colours)
        try:
            self._walk(self._stream_instructions(form), form_resources, inner, label, inner)
        finally:
            self._walking.pop()
            if colours is not None and self._colours is not None:
                self._colours[:] = colours  # a form is drawn inside q ... Q

    def _group(self, owner: pikepdf.Object, label: str, resources: object) -> None:
        """A transparency group blends in its /CS: an RGB group turns what it holds RGB."""
        group = owner.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and "/CS" in group:
            fault = _space_fault(group.get("/CS"), resources)
            if fault is not None:
                self._add("colour", fault[0], f"{label} is {fault[1]}")

    def _font(self, operands: list, resources: object, where: str) -> None:
        if not operands:
            return
        key = str(operands[0])
        font = _lookup(resources, "/Font", key)
        if not isinstance(font, pikepdf.Dictionary):
            return
        cache = (font.objgen, key) if font.is_indirect else None
        faults = self._fonts.get(cache) if cache else None
        if faults is None:
            faults = _font_faults(key, font)
            if cache:
                self._fonts[cache] = faults
        if not self._first(("font", font)):
            return  # a font is named once a page, however many times it is selected
        for severity, message in faults:
            self._add("font", severity, message + _suffix(where))
        if font.get("/Subtype") == "/Type3":
            self._type3(key, font, resources, where)

    def _type3(self, key: str, font: pikepdf.Dictionary, resources: object, where: str) -> None:
        """A Type3 glyph is a content stream: it may set colours too."""
        procs = font.get("/CharProcs")
        if not isinstance(procs, pikepdf.Dictionary):
            return
        glyph_resources = font.get("/Resources", resources)
        label = _within(where, f"Type3 font {key}")
        for proc in procs.values():
            if isinstance(proc, pikepdf.Stream):
                self._walk_apart(
                    self._stream_instructions(proc), glyph_resources, None, label, None
                )

    def _graphics_state(self, operands: list, resources: object, where: str) -> None:
        """A soft mask's group is content too: checked like any (colour only)."""
        if not operands:
            return
        state = _lookup(resources, "/ExtGState", operands[0])
        smask = state.get("/SMask") if isinstance(state, pikepdf.Dictionary) else None
        if not isinstance(smask, pikepdf.Dictionary):
            return
        group = smask.get("/G")
        if not isinstance(group, pikepdf.Stream) or not self._first(("smask", group)):
            return
        label = _within(where, f"soft mask of {operands[0]}")
        group_resources = group.get("/Resources", resources)
        self._group(group, f"{label} group", group_resources)
        self._walk_apart(self._stream_instructions(group), group_resources, None, label, None)

    def _annotations(self, page: pikepdf.Dictionary) -> None:
        """Printed annotations (flag Print, not Hidden) draw their normal appearance."""
        annots = page.get("/Annots")
        if not isinstance(annots, pikepdf.Array):
            return
        for annot in annots:
            if not isinstance(annot, pikepdf.Dictionary):
                continue
            flags = int(annot.get("/F", 0))
            appearance = _appearance(annot)
            if not flags & 4 or flags & 2 or appearance is None:
                continue
            label = f"annotation {str(annot.get('/Subtype', '/?'))[1:]}"
            resources = appearance.get("/Resources")
            self._group(appearance, f"transparency group of {label}", resources)
            self._walk_apart(self._stream_instructions(appearance), resources, None, label, None)

    def _first(self, key: tuple[str, pikepdf.Object]) -> bool:
        """True the first time this page meets an object (patterns, glyphs, masks are
        walked once a page however often they are used)."""
        kind, obj = key
        marker = (kind, obj.objgen) if obj.is_indirect else (kind, id(obj))
        if marker in self._seen:
            return False
        self._seen.add(marker)
        return True


def _drawing_key(page: pikepdf.Dictionary) -> tuple | None:
    """What a page draws, as object numbers (its content streams, resources, group and
    annotations), or None when any of it is a direct object (no identity to share)."""
    parts: list[object] = []
    for name in ("/Contents", "/Resources", "/Group", "/Annots"):
        value = page.get(name) if name != "/Resources" else _inherited(page, name)
        if value is None:
            parts.append(None)
        elif isinstance(value, pikepdf.Array) and not value.is_indirect:
            if not all(item.is_indirect for item in value):
                return None
            parts.append(tuple(item.objgen for item in value))
        elif value.is_indirect:
            parts.append(value.objgen)
        else:
            return None
    return tuple(parts)


def _concat(operands: list, ctm: Matrix | None) -> Matrix | None:
    if ctm is None or len(operands) != 6:
        return ctm
    try:
        a, b, c, d, e, f = (float(v) for v in operands)
    except (TypeError, ValueError):
        return ctm
    return multiply((a, b, c, d, e, f), ctm)


def _shading_fault(shading: object, resources: object) -> Fault | None:
    if not isinstance(shading, pikepdf.Object) or "/ColorSpace" not in shading:
        return None
    return _space_fault(shading.get("/ColorSpace"), resources)


def _image_fault(image: pikepdf.Object, resources: object) -> Fault | None:
    space = image.get("/ColorSpace")
    if space is not None:
        return _space_fault(space, resources)
    filters = image.get("/Filter")
    if filters == "/JPXDecode" or (
        isinstance(filters, pikepdf.Array) and "/JPXDecode" in [str(f) for f in filters]
    ):
        return ("warning", "JPEG 2000 colour space inside the image, not checked")
    return ("error", "no colour space")


def _appearance(annot: pikepdf.Dictionary) -> pikepdf.Object | None:
    """An annotation's normal appearance stream (the one of its state /AS)."""
    appearances = annot.get("/AP")
    normal = appearances.get("/N") if isinstance(appearances, pikepdf.Dictionary) else None
    if isinstance(normal, pikepdf.Dictionary) and not isinstance(normal, pikepdf.Stream):
        normal = normal.get(str(annot.get("/AS", "/Off")))
    return normal if isinstance(normal, pikepdf.Stream) else None


def _inherited(page: pikepdf.Dictionary, key: str) -> object | None:
    """A page attribute that may sit on a parent /Pages node (Resources, MediaBox)."""
    node: object = page
    for _ in range(64):
        if not isinstance(node, pikepdf.Dictionary):
            return None
        if key in node:
            return node.get(key)
        node = node.get("/Parent")
    return None


# ---------------------------------------------------------------------------------------
# Boxes and output intent


def _box_faults(page: pikepdf.Dictionary, size: CardSize | None) -> list[str]:
    """What is wrong with the page boxes: the card size's exact trim and bleed, or, for
    sheets (``size`` None), TrimBox inside BleedBox inside MediaBox."""
    media = pdf_box(_inherited(page, "/MediaBox"))
    trim, bleed = pdf_box(page.get("/TrimBox")), pdf_box(page.get("/BleedBox"))
    faults = [
        f"no {name}"
        for name, box in (("MediaBox", media), ("TrimBox", trim), ("BleedBox", bleed))
        if box is None
    ]
    if media is None or trim is None or bleed is None:
        return faults
    if size is not None:
        faults += _size_faults(trim, bleed, size)
    elif not _inside(trim, bleed):
        faults.append(f"TrimBox {_show(trim)} is not inside the BleedBox {_show(bleed)}")
    if not _inside(bleed, media):
        faults.append(f"BleedBox {_show(bleed)} is not inside the MediaBox {_show(media)}")
    return faults


def _sheet_faults(page: pikepdf.Page, size: CardSize) -> list[str]:
    """What is wrong with the cards placed on a print-and-play sheet (a page
    :data:`SHEET_LABEL` names), checked against the card size: each card is a Form
    XObject whose bounding box is its whole page (trim and bleed, as ``translator
    build`` places them), which must be the size's, and whose trim must be on the
    sheet.  A form placed several times is reported once."""
    media = pdf_box(_inherited(page.obj, "/MediaBox"))
    resources = _inherited(page.obj, "/Resources")
    if media is None:
        return []  # reported by :func:`_box_faults`
    faults: list[str] = []
    sizes: dict[str, tuple[float, float, int]] = {}
    ctm, saved = IDENTITY, []
    for operands, operator in pikepdf.parse_content_stream(page, "q Q cm Do"):
        op = str(operator)
        if op == "q":
            saved.append(ctm)
        elif op == "Q" and saved:
            ctm = saved.pop()
        elif op == "cm" and len(operands) == 6:
            ctm = multiply(_matrix(pikepdf.Array(operands)), ctm)
        elif op == "Do" and operands:
            name = str(operands[0])
            form = _lookup(resources, "/XObject", name)
            box = (
                pdf_box(form.get("/BBox"))
                if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == "/Form"
                else None
            )
            if box is None:
                continue  # an image, or not a card
            placed = _placed(box, multiply(_matrix(form.get("/Matrix")), ctm))
            width, height = _mm(placed[2] - placed[0]), _mm(placed[3] - placed[1])
            count = sizes.get(name, (width, height, 0))[2]
            sizes[name] = (width, height, count + 1)
            bleed = size.bleed / MM_PER_PT
            trim = (placed[0] + bleed, placed[1] + bleed, placed[2] - bleed, placed[3] - bleed)
            if not _inside(trim, media):
                faults.append(
                    f"the card {name} at {_mm(trim[0] - media[0]):.1f}, "
                    f"{_mm(media[3] - trim[3]):.1f} mm from the top left is cut "
                    f"off by the sheet's edge (its trim {_show(trim)})"
                )
    for name, (width, height, count) in sizes.items():
        if not (_close(width, size.page_width) and _close(height, size.page_height)):
            faults.append(
                f"the card {name}"
                + (f" (placed {count} times)" if count > 1 else "")
                + f" is {width:.2f} x {height:.2f} mm with its bleed; {size.name} "
                f"wants {size.page_width:g} x {size.page_height:g} mm (the trim "
                f"and {size.bleed:g} mm bleed)"
            )
    return faults


def _placed(box: Box, matrix: Matrix) -> Box:
    """``box`` transformed by ``matrix``: the rectangle its corners land in."""
    a, b, c, d, e, f = matrix
    xs = [x * a + y * c + e for x in (box[0], box[2]) for y in (box[1], box[3])]
    ys = [x * b + y * d + f for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(xs), min(ys), max(xs), max(ys))


def _size_faults(trim: Box, bleed: Box, size: CardSize) -> list[str]:
    faults = []
    width, height = _mm(bleed[2] - bleed[0]), _mm(bleed[3] - bleed[1])
    if not (_close(width, size.page_width) and _close(height, size.page_height)):
        faults.append(
            f"BleedBox is {width:.2f} x {height:.2f} mm; {size.name} wants "
            f"{size.page_width:g} x {size.page_height:g} mm (the trim and "
            f"{size.bleed:g} mm bleed)"
        )
    width, height = _mm(trim[2] - trim[0]), _mm(trim[3] - trim[1])
    x, y = _mm(trim[0] - bleed[0]), _mm(trim[1] - bleed[1])
    if not all(
        _close(a, b)
        for a, b in ((width, size.width), (height, size.height), (x, size.bleed), (y, size.bleed))
    ):
        faults.append(
            f"TrimBox is {width:.2f} x {height:.2f} mm at {x:.2f}, {y:.2f} mm "
            f"in the BleedBox; {size.name} wants {size.width:g} x "
            f"{size.height:g} mm at {size.bleed:g}, {size.bleed:g} mm"
        )
    return faults


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= BOX_TOLERANCE_MM


def _inside(inner: Box, outer: Box) -> bool:
    tolerance = BOX_TOLERANCE_MM / MM_PER_PT
    return (
        inner[0] >= outer[0] - tolerance
        and inner[1] >= outer[1] - tolerance
        and inner[2] <= outer[2] + tolerance
        and inner[3] <= outer[3] + tolerance
    )


def _show(box: Box) -> str:
    return "[" + " ".join(f"{_mm(v):.2f}" for v in box) + "] mm"


def _intent_fault(pdf: pikepdf.Pdf) -> str | None:
    """Without a CMYK output intent the CMYK numbers have no meaning a RIP can trust."""
    intents = pdf.Root.get("/OutputIntents")
    if not isinstance(intents, pikepdf.Array) or len(intents) == 0:
        return "no output intent (Root /OutputIntents)"
    components = []
    for intent in intents:
        profile = (
            intent.get("/DestOutputProfile") if isinstance(intent, pikepdf.Dictionary) else None
        )
        if isinstance(profile, pikepdf.Stream):
            components.append(int(profile.get("/N", 0)))
    if 4 in components:
        return None
    if not components:
        return "the output intent has no /DestOutputProfile ICC profile"
    return f"the output intent's profile has {components[0]} components, not 4 (CMYK)"


# ---------------------------------------------------------------------------------------
# Cards: what a page is called in a report


def _card_names(pdf: pikepdf.Pdf, path: Path) -> list[str]:
    """Each page's label when its /PageLabels range has a prefix (a deck labelled by
    card), else the document's title, else the file's stem."""
    info = pdf.trailer.get("/Info")
    title = info.get("/Title") if isinstance(info, pikepdf.Dictionary) else None
    fallback = str(title).strip() if title is not None and str(title).strip() else path.stem
    names = [fallback] * len(pdf.pages)
    for index, (prefix, numbered) in _prefixed_pages(pdf).items():
        # A range without a numbering style labels its pages with the prefix alone:
        # read it here (pikepdf's Page.label takes a millisecond a page).
        label = (pdf.pages[index].label if numbered else prefix).strip()
        names[index] = label or fallback
    return names


def _prefixed_pages(pdf: pikepdf.Pdf) -> dict[int, tuple[str, bool]]:
    """Index -> (prefix, numbered) of the pages whose label range has a /P prefix (a
    flat /Nums tree); numbered when the range has a numbering style (/S)."""
    labels = pdf.Root.get("/PageLabels")
    nums = labels.get("/Nums") if isinstance(labels, pikepdf.Dictionary) else None
    if not isinstance(nums, pikepdf.Array):
        return {}
    starts = [(int(nums[i]), nums[i + 1]) for i in range(0, len(nums) - 1, 2)]
    prefixed: dict[int, tuple[str, bool]] = {}
    count = len(pdf.pages)
    for n, (start, spec) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else count
        if isinstance(spec, pikepdf.Dictionary) and str(spec.get("/P", "")):
            entry = (str(spec.P), "/S" in spec)
            prefixed.update((index, entry) for index in range(start, min(end, count)))
    return prefixed


# ---------------------------------------------------------------------------------------
# Ink: total area coverage on Ghostscript's CMYK render


def ink_available() -> bool:
    """True when Ghostscript (``gs``) can render the ink check."""
    return shutil.which("gs") is not None


@dataclass(frozen=True)
class _InkPage:
    """An over-inked page: the fullest pixel of its over-inked areas (C+M+Y+K in
    levels, 0-1020), where it is (pixels from the top left), and the share of the
    page over the limit."""

    peak: int
    x: int
    y: int
    over: float


def _grain(dpi: float) -> int:
    """The side, in pixels (odd, for a centred filter), of :data:`INK_AREA_MM`."""
    pixels = round(INK_AREA_MM * dpi / 25.4)
    return max(1, pixels if pixels % 2 else pixels - 1)


def _measure(image: Image.Image, threshold: int, grain: int) -> _InkPage | None:
    """The page's over-inked areas, or None when it has none.

    The four separations are summed per pixel as 32-bit integers by ImageMath (in C):
    about 1.5 ms for a 150 dpi card, the whole cost of a clean page.  Only a page
    whose fullest pixel is over the limit pays for the rest: the pixels over it are
    eroded by a ``grain`` square (a minimum filter), so that isolated specks (JPEG
    ringing around dark detail) vanish and areas of at least that size remain.
    """
    c, m, y, k = image.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    if total.getextrema()[1] <= threshold:
        return None
    over = ImageMath.lambda_eval(lambda e: e["t"] > threshold, t=total).convert("L")
    solid = over.filter(ImageFilter.MinFilter(grain)) if grain > 1 else over
    if solid.getbbox() is None:
        return None
    inside = ImageMath.lambda_eval(lambda e: e["t"] * e["s"], t=total, s=solid)
    peak = int(inside.getextrema()[1])
    at_peak = ImageMath.lambda_eval(lambda e: e["t"] == peak, t=inside)
    box = at_peak.getbbox()
    assert box is not None  # the peak is somewhere
    row = at_peak.crop((0, box[1], image.width, box[1] + 1)).getbbox()
    x = row[0] if row else box[0]
    return _InkPage(peak, x, box[1], over.histogram()[1] / (image.width * image.height))


def _pam_pages(stream: IO[bytes]) -> Iterator[Image.Image]:
    """The CMYK pages of a stream of PAM images (``pamcmyk32``), one after another."""
    while True:
        magic = stream.readline()
        if not magic:
            return
        if magic.strip() != b"P7":
            raise ValueError(f"not a PAM image: {magic[:20]!r}")
        header: dict[bytes, bytes] = {}
        for line in iter(stream.readline, b""):
            if line.startswith(b"ENDHDR"):
                break
            key, _, value = line.strip().partition(b" ")
            header[key] = value
        width, height = int(header[b"WIDTH"]), int(header[b"HEIGHT"])
        data = stream.read(width * height * 4)
        if len(data) < width * height * 4:
            raise ValueError("the render was cut short")
        yield Image.frombytes("CMYK", (width, height), data)


@dataclass
class _Segment:
    """Pages ``first``-``last`` of one file, rendered by one Ghostscript process."""

    index: int
    path: Path
    first: int
    last: int
    whole: bool


def _plan(files: Sequence[tuple[Path, int]], processes: int) -> list[list[_Segment]]:
    """Split the work over processes: one file over page ranges, several files whole
    (Ghostscript renders several files in one run, sparing its start-up), the
    largest first, each to the least loaded process."""
    if len(files) == 1:
        path, pages = files[0]
        count = max(1, min(processes, pages // MIN_PAGES_PER_PROCESS))
        bounds = [round(pages * i / count) for i in range(count + 1)]
        return [
            [_Segment(0, path, bounds[i] + 1, bounds[i + 1], count == 1)]
            for i in range(count)
            if bounds[i + 1] > bounds[i]
        ]
    jobs: list[list[_Segment]] = [[] for _ in range(max(1, min(processes, len(files))))]
    loads = [0] * len(jobs)
    order = sorted(range(len(files)), key=lambda i: -files[i][1])
    for i in order:
        lightest = loads.index(min(loads))
        path, pages = files[i]
        jobs[lightest].append(_Segment(i, path, 1, pages, True))
        loads[lightest] += pages
    return [job for job in jobs if job]


class _InkScan:
    """Ghostscript renders in the background while the structure is checked; one
    thread per process reads its pages as they come and measures them."""

    def __init__(self, files: Sequence[tuple[Path, int]], dpi: float, limit: float) -> None:
        self.dpi = dpi
        self.threshold = math.floor(limit * 255 / 100) + INK_ROUNDING
        self.grain = _grain(dpi)
        self.pages: dict[tuple[int, int], _InkPage] = {}
        self.failures: dict[int, str] = {}
        self._lock = threading.Lock()
        processes = max(1, min(GS_PROCESSES, os.cpu_count() or 1))
        self._threads = [
            threading.Thread(target=self._run_job, args=(job,), daemon=True)
            for job in _plan(files, processes)
        ]
        for thread in self._threads:
            thread.start()

    def wait(self) -> None:
        for thread in self._threads:
            thread.join()

    def _run_job(self, job: list[_Segment]) -> None:
        """One process's share, in runs of at most :data:`FILES_PER_RUN` files."""
        for start in range(0, len(job), FILES_PER_RUN):
            self._run(job[start : start + FILES_PER_RUN])

    def _run(self, files: list[_Segment]) -> None:
        """Render and measure ``files``; when Ghostscript fails on several, each is
        rendered again alone to learn which one it cannot read."""
        try:
            error = self._render(files)
        except Exception as unexpected:  # a thread's exception would vanish: report it
            error = f"{type(unexpected).__name__}: {unexpected}"
        if error is None:
            return
        if len(files) > 1:
            for segment in files:
                self._run([segment])
            return
        with self._lock:
            self.failures[files[0].index] = error

    def _command(self, files: list[_Segment]) -> list[str]:
        """Ghostscript writing 8-bit CMYK PAM pages to its standard output.

        No interpolation, so each pixel samples the colours as drawn; its messages go
        to standard error, never into the images; files by absolute path, so that no
        name is read as an option."""
        command = [
            "gs",
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-dNOINTERPOLATE",
            "-sDEVICE=pamcmyk32",
            f"-r{self.dpi:g}",
            "-sstdout=%stderr",
            "-sOutputFile=-",
        ]
        if not files[0].whole:
            command += [f"-dFirstPage={files[0].first}", f"-dLastPage={files[0].last}"]
        return command + [str(segment.path.resolve()) for segment in files]

    def _render(self, files: list[_Segment]) -> str | None:
        """Render ``files``' pages and measure them; the error, if any, as one line."""
        expected = [(s.index, page) for s in files for page in range(s.first, s.last + 1)]
        received = 0
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(
                self._command(files),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
            )
            assert process.stdout is not None
            try:
                for image in _pam_pages(process.stdout):
                    measured = _measure(image, self.threshold, self.grain)
                    if measured is not None and received < len(expected):
                        with self._lock:
                            self.pages[expected[received]] = measured
                    received += 1
            except BaseException:
                process.kill()
                raise
            finally:
                process.stdout.close()
                code = process.wait()
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace").strip().splitlines()
        if code != 0 or received != len(expected):
            last = said[-1].strip() if said else f"exit status {code}"
            return f"{received} of {len(expected)} pages rendered: {last}"
        return None

    def problems(self, index: int, path: str, cards: list[str], limit: float) -> list[Problem]:
        """The ink problems of file ``index``, once :meth:`wait` returned."""
        if index in self.failures:
            return [
                Problem(
                    path,
                    0,
                    "",
                    "ink",
                    "warning",
                    "Ghostscript could not render "
                    f"the file, ink not checked: {self.failures[index]}",
                )
            ]
        found = []
        for (file, page), ink in sorted(self.pages.items()):
            if file != index:
                continue
            x, y = ((v + 0.5) * 25.4 / self.dpi for v in (ink.x, ink.y))
            message = (
                f"total ink {ink.peak / 2.55:.0f} % at {x:.1f}, {y:.1f} mm from the "
                f"top left, over {limit:g} % on {ink.over * 100:.1f} % of the page"
            )
            found.append(Problem(path, page, cards[page - 1], "ink", "error", message))
        return found


# ---------------------------------------------------------------------------------------
# Files


@dataclass
class _Opened:
    """A file pikepdf could open: its index among the files checked, its page count."""

    index: int
    path: Path
    pages: int


def input_fault(path: str | Path) -> str | None:
    """Why ``path`` is no file to check at all (one line), or None: missing, a
    directory, not a regular file (a FIFO or /dev/zero would never end), too large or
    unreadable.  ``translator preflight`` refuses such an input (exit 2) before checking
    anything; a file that is there but is no PDF is a finding (``unreadable``)."""
    try:
        info = Path(path).stat()
    except FileNotFoundError:
        return "no such file: give the path of a PDF"
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    if stat.S_ISDIR(info.st_mode):
        return "a directory, not a PDF: give the PDFs in it (DIR/*.pdf)"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file: give the path of a PDF"
    if info.st_size > MAX_PDF_BYTES:
        return f"larger than {MAX_PDF_BYTES >> 30} GB: not a card PDF"
    try:
        with Path(path).open("rb"):
            pass
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    return None


def _open(path: Path) -> tuple[int, str | None]:
    """``path``'s page count, and why it is not a PDF pikepdf reads (one line) or None."""
    fault = input_fault(path)
    if fault is not None:
        return 0, fault
    try:
        with pikepdf.open(path) as pdf:
            pages = len(pdf.pages)
    except (OSError, pikepdf.PdfError, ValueError, RuntimeError) as error:
        first = str(error).splitlines()[0] if str(error) else repr(error)
        return 0, f"not a readable PDF: {first}"
    return pages, None if pages else "the PDF has no pages"


def _structure(
    path: Path, size: CardSize | None, min_ppi: float, content: bool = True
) -> tuple[list[Problem], list[str]]:
    """Every problem pikepdf finds (all but ink; only boxes and the output intent
    without ``content``), and the page's card names."""
    shown = str(path)
    problems: list[Problem] = []
    checker = _ContentChecker(min_ppi)
    knocked: dict[tuple, list[tuple[str, str]]] = {}
    with pikepdf.open(path) as pdf:
        fault = _intent_fault(pdf)
        if fault is not None:
            problems.append(Problem(shown, 0, "", "intent", "error", fault))
        cards = _card_names(pdf, path)
        # One check for the file's pages: the profile's lightness, the images decoded.
        texts = TextCheck(intent_profile(pdf)) if content and size is not None else None
        for number, page in enumerate(pdf.pages, start=1):
            card = cards[number - 1]
            try:
                sheet = size is not None and SHEET_LABEL.match(card) is not None
                faults = _box_faults(page.obj, None if sheet else size)
                if sheet and size is not None:
                    faults += _sheet_faults(page, size)
                problems += [
                    Problem(shown, number, card, "boxes", "error", message) for message in faults
                ]
                if content:
                    problems += [
                        Problem(shown, number, card, code, severity, message)
                        for code, severity, message in checker.check_page(page)
                    ]
                if texts is not None and not sheet:
                    # Card pages only: a sheet draws the same cards, warned about once.
                    # A page drawing the very objects of one read (a card repeated in a
                    # deck) gets its findings.  Knockouts and reversed text: warnings.
                    key = _drawing_key(page.obj)
                    found = knocked.get(key) if key is not None else None
                    if found is None:
                        found = texts.page(page)
                        if key is not None:
                            knocked[key] = found
                    problems += [
                        Problem(shown, number, card, code, "warning", message)
                        for code, message in found
                    ]
            except (
                pikepdf.PdfError,
                KeyError,
                ValueError,
                TypeError,
                AttributeError,
                IndexError,
            ) as error:
                problems.append(
                    Problem(
                        shown,
                        number,
                        card,
                        "unreadable",
                        "error",
                        f"the page cannot be read: {error}",
                    )
                )
    return problems, cards


def _check_files(
    paths: Sequence[str | Path],
    *,
    size: CardSize | None,
    ink_limit: float,
    min_ppi: float,
    ink: bool,
    dpi: float,
    content: bool = True,
) -> list[_FileReport]:
    """Preflight ``paths``: Ghostscript renders all of them in the background (a few
    processes for the lot, not one per file) while pikepdf checks each in turn."""
    if ink_limit <= 0 or min_ppi <= 0 or dpi <= 0:
        raise ValueError("ink_limit, min_ppi and dpi must be positive")
    reports = [_FileReport(str(p), 0) for p in paths]
    opened: list[_Opened] = []
    for index, path in enumerate(Path(p) for p in paths):
        pages, failure = _open(path)
        if failure is None:
            opened.append(_Opened(index, path, pages))
        else:
            reports[index].problems.append(
                Problem(str(paths[index]), 0, "", "unreadable", "error", failure)
            )
    scan = None
    if ink and opened and ink_available():
        scan = _InkScan([(o.path, o.pages) for o in opened], dpi, ink_limit)
    cards: dict[int, list[str]] = {}
    try:
        for item in opened:
            reports[item.index].pages = item.pages
            try:
                found, cards[item.index] = _structure(item.path, size, min_ppi, content)
            except (
                pikepdf.PdfError,
                KeyError,
                ValueError,
                TypeError,
                AttributeError,
                IndexError,
            ) as error:
                found = [
                    Problem(
                        str(paths[item.index]),
                        0,
                        "",
                        "unreadable",
                        "error",
                        f"the PDF cannot be read: {error}",
                    )
                ]
                cards[item.index] = [item.path.stem] * item.pages
            reports[item.index].problems += found
    finally:
        if scan is not None:
            scan.wait()
    for item in opened:
        report = reports[item.index]
        if scan is not None:
            report.problems += scan.problems(item.index, report.path, cards[item.index], ink_limit)
        elif ink:
            report.problems.append(
                Problem(
                    report.path,
                    0,
                    "",
                    "ink",
                    "warning",
                    "Ghostscript not found, ink coverage not checked (apt-get install ghostscript)",
                )
            )
        report.problems.sort(key=lambda p: (p.page, CODES.index(p.code)))
    return reports


def preflight(
    path: str | Path,
    *,
    size: CardSize | None = None,
    ink_limit: float = 300.0,
    min_ppi: float = 300.0,
    ink: bool = True,
    dpi: float = DEFAULT_DPI,
) -> list[Problem]:
    """Every reason ``path`` is not print-ready (an empty list when it is).

    ``size`` is the card size every card page must have (trim and bleed boxes), and
    every card placed on a print-and-play sheet (a page :data:`SHEET_LABEL` names,
    whose own boxes need only be nested); None: only nested boxes.  ``ink_limit`` is
    the total area coverage allowed, in percent; ``min_ppi`` the resolution images need
    at print size; ``ink`` False skips the render; ``dpi`` is its resolution (see
    :data:`DEFAULT_DPI`).  Problems come by page (0, the whole file, first).
    """
    [report] = _check_files(
        [path], size=size, ink_limit=ink_limit, min_ppi=min_ppi, ink=ink, dpi=dpi
    )
    return report.problems


def preflight_files(
    paths: Sequence[str | Path],
    *,
    size: CardSize | None = None,
    ink_limit: float = 300.0,
    min_ppi: float = 300.0,
    ink: bool = True,
    content: bool = True,
    dpi: float = DEFAULT_DPI,
) -> list[list[Problem]]:
    """:func:`preflight` of many files at once, the problems of each in the order of
    ``paths``: Ghostscript is started a few times for the lot instead of once per
    file (most of the cost of checking one card PDF).  ``content`` False checks only
    the boxes and the output intent (and ``ink`` must be False too): for a file made
    of pages copied unchanged from files already checked whole."""
    if not content and ink:
        raise ValueError("the ink is part of the content: content=False needs ink=False")
    reports = _check_files(
        paths, size=size, ink_limit=ink_limit, min_ppi=min_ppi, ink=ink, dpi=dpi, content=content
    )
    return [report.problems for report in reports]


def _line(problem: Problem) -> str:
    where = (
        problem.path if problem.page == 0 else (f"{problem.path}:{problem.page} ({problem.card})")
    )
    warning = " (warning)" if problem.severity == "warning" else ""
    return f"{where}: {problem.code}: {problem.message}{warning}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def run(
    paths: Sequence[str | Path],
    *,
    size: CardSize | None,
    ink_limit: float = 300.0,
    fmt: str = "text",
    out: TextIO | None = None,
) -> int:
    """Preflight files, print a report (text: `path:page (card): code: message` lines and
    a summary line; json: {"version": 1, "files": [{"path", "pages", "ok", "problems":
    [problem dicts]}], "summary": {"files", "failed", "problems"}}), return 0 when every
    file passes, 1 when one fails (any error-severity problem).

    ``out`` is standard output when None (looked up at call time)."""
    if fmt not in ("text", "json"):
        raise ValueError(f"unknown format {fmt!r}: text or json")
    out = sys.stdout if out is None else out
    reports = _check_files(
        paths, size=size, ink_limit=ink_limit, min_ppi=300.0, ink=True, dpi=DEFAULT_DPI
    )
    failed = sum(not r.ok for r in reports)
    problems = sum(len(r.problems) for r in reports)
    if fmt == "json":
        document = {
            "version": 1,
            "files": [
                {
                    "path": r.path,
                    "pages": r.pages,
                    "ok": r.ok,
                    "problems": [p.to_dict() for p in r.problems],
                }
                for r in reports
            ],
            "summary": {"files": len(reports), "failed": failed, "problems": problems},
        }
        out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        for report in reports:
            for problem in report.problems:
                out.write(_line(problem) + "\n")
        verdict = "all print-ready" if not failed else f"{failed} not print-ready"
        out.write(
            f"preflight: {_plural(len(reports), 'file')}, {verdict}, "
            f"{_plural(problems, 'problem')}\n"
        )
    return 1 if failed else 0
