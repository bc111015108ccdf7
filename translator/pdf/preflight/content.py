"""The content-stream interpreter behind the ``colour``, ``font`` and ``resolution``
checks.

A page paints through its content and everything that content draws: forms, tiling
and shading patterns, shadings, images and inline images, soft masks, transparency
groups, Type3 glyphs, printed annotations.  :class:`ContentChecker` walks all of it,
tracking the CTM (the size an image is drawn at gives its resolution), and asks
:mod:`.colour` and :mod:`.fonts` about each colour space and font it meets; given an
:class:`.bound.InkReader`, it has it read the page's ink on the same walk (the colours
painted, their overprint, images, shadings: :mod:`.bound`).  Each content stream is
parsed once, its numbers converted to floats once for every reader of it (these
checks, the ink bound, the text check of :mod:`.pdfx`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pikepdf

from ..geometry import IDENTITY, Matrix, multiply
from ..painter import read_instructions
from .bound import OPERATORS as INK_OPERATORS
from .bound import InkReader, InkState, PageInk
from .colour import Fault, image_fault, shading_fault, space_fault
from .fonts import font_faults
from .objects import inherited, lookup, pdf_matrix

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
        # Read for the ink bound only: a colour set in the current space, the text mode.
        "sc",
        "SC",
        "Tr",
        *_DEVICE_OPERATORS,
        *_SETS_FILL,
        *_SETS_STROKE,
        *_PAINTS,
    }
)
#: The operators :meth:`ContentChecker._default_colour` reads.
_COLOURING = _SETS_FILL | _SETS_STROKE | frozenset(_PAINTS)
#: The operators :meth:`ContentChecker._check_operator` checks (the others of
#: :data:`_OPERATORS` are read for the default colour and the ink bound only).
_CHECKED = frozenset(
    {"cs", "CS", "scn", "SCN", "sh", "Do", "Tf", "gs", "INLINE IMAGE", *_DEVICE_OPERATORS}
)
#: Operators whose operands are numbers, read as such by every reader of the content
#: (the structure checks, the ink bound, the text check): converted once when parsed.
_PAGE = "page content"
#: The operators the parser returns (qpdf filters them, far faster than Python): inline
#: images come through only when BI, ID and EI are all named.
_WANTED = " ".join(sorted(_OPERATORS - {"INLINE IMAGE"})) + " BI ID EI"
#: With the ink bound: the paths and the text's placing too (where each paint lands).
_WANTED_INK = " ".join(sorted((_OPERATORS | INK_OPERATORS) - {"INLINE IMAGE"})) + " BI ID EI"

Instructions = list[tuple[str, list]]


def _within(where: str, label: str) -> str:
    """``label`` nested in ``where``: 'form /Fm2', or 'form /Fm2 in form /Fm1'."""
    return label if where == _PAGE else f"{label} in {where}"


def _suffix(where: str) -> str:
    """' in form /Fm1' for objects drawn outside the page content, else nothing."""
    return "" if where == _PAGE else f" in {where}"


class ContentChecker:
    """Walks a page's content and everything it draws, tracking the CTM, and collects
    colour, font and resolution faults.

    Parsed content streams and font verdicts are kept by object, so a deck whose pages
    share forms, fonts and images parses each once.  Findings are counted per message,
    so an RGB page gives one line ``rg (DeviceRGB fill) in page content (812 times)``.
    """

    def __init__(self, min_ppi: float, ink: InkReader | None = None) -> None:
        self.min_ppi = min_ppi
        #: Reads each page's ink on the same walk (None: not read).
        self.ink = ink
        #: The ink of the page last checked (None without :attr:`ink`).
        self.page_ink: PageInk | None = None
        self._parsed: dict[tuple, Instructions] = {}
        self._wanted = _WANTED if ink is None else _WANTED_INK
        self._fonts: dict[tuple, list[Fault]] = {}
        self._found: dict[tuple[str, str, str], int] = {}
        self._walking: list[tuple[int, int]] = []
        self._seen: set[tuple] = set()
        #: The page's graphics states by (resources, name): :meth:`_named_state`.
        self._states: dict[tuple[int, str], tuple[object, object, object]] = {}
        self._pages: dict[tuple, tuple[list[tuple[str, str, str]], PageInk | None]] = {}
        #: Whether a fill and a stroke colour space were chosen (None: not checked).
        self._colours: list[bool] | None = None

    # -- entry points

    def check_page(self, page: pikepdf.Page) -> list[tuple[str, str, str]]:
        """(code, severity, message) of every fault drawn by ``page``; a page drawing
        the very objects of one already checked (a card repeated in a deck, each back)
        gets that page's verdict without a second walk."""
        key = drawing_key(page.obj)
        if key is not None and key in self._pages:
            found, self.page_ink = self._pages[key]
            return found
        if self.ink is not None:
            self.ink.start()
        found = self._check_page(page)
        self.page_ink = self.ink.page if self.ink is not None else None
        if key is not None:
            self._pages[key] = (found, self.page_ink)
        return found

    def _check_page(self, page: pikepdf.Page) -> list[tuple[str, str, str]]:
        self._found = {}
        self._seen = set()
        self._states = {}
        resources = inherited(page.obj, "/Resources")
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

    def instructions(self, page: pikepdf.Page) -> Instructions:
        """``page``'s content as this checker parsed it (with an ink reader: every
        operator that paints or places paint, :data:`.pdfx.PAINTED_OPERATORS` too)."""
        return self._page_instructions(page)

    def _page_instructions(self, page: pikepdf.Page) -> Instructions:
        contents = page.obj.get("/Contents")
        if contents is None:
            return []
        if isinstance(contents, pikepdf.Array):
            key = tuple(c.objgen for c in contents)
        else:
            key = (contents.objgen,)
        return self._cached(key, lambda: pikepdf.parse_content_stream(page, self._wanted))

    def _stream_instructions(self, stream: pikepdf.Object) -> Instructions:
        return self._cached(
            (stream.objgen,), lambda: pikepdf.parse_content_stream(stream, self._wanted)
        )

    def _cached(self, key: tuple, parse: Callable[[], list]) -> Instructions:
        """The operators that matter here, parsed once per stream (direct objects, whose
        objgen is (0, 0), are never cached)."""
        if key in self._parsed:
            return self._parsed[key]
        # The numbers of the operators of numbers as floats, read once for every reader.
        instructions = read_instructions(parse())
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
        inks: list[InkState] = []
        ink = self.ink
        read = ink.operator if ink is not None else None
        # The same list throughout (a walk apart sets it aside and puts it back; q, Q
        # and forms change it in place): None where the default colour is not checked.
        colours = self._colours
        for op, operands in instructions:
            if read is not None and op in INK_OPERATORS:
                read(op, operands, resources, ctm)
            if op not in _OPERATORS:
                continue  # the bound's alone (paths, the text's placing)
            if colours is not None and op in _COLOURING:
                self._default_colour(op, where)
            if op == "q":
                saved.append(ctm)
                chosen.append(None if colours is None else list(colours))
                if ink is not None:
                    inks.append(ink.state.copy())
            elif op == "Q":
                ctm = saved.pop() if saved else ctm
                state = chosen.pop() if chosen else None
                if state is not None and colours is not None:
                    colours[:] = state
                if ink is not None and inks:
                    ink.state = inks.pop()
            elif op == "cm":
                ctm = _concat(operands, ctm)
            elif op in _CHECKED:
                self._check_operator(op, operands, resources, ctm, where, base)

    def _check_operator(
        self,
        op: str,
        operands: list,
        resources: object,
        ctm: Matrix | None,
        where: str,
        base: Matrix | None,
    ) -> None:
        """Check one operator that uses a colour or a resource (the graphics state's
        save, restore and transform are :meth:`_walk`'s own): a device colour, a colour
        space, a pattern, a shading, an XObject, a font, an ExtGState, an inline image."""
        if op in _DEVICE_OPERATORS:
            self._add("colour", "error", f"{op} ({_DEVICE_OPERATORS[op]}) in {where}")
        elif op in ("cs", "CS"):
            self._colour_space(op, operands, resources, where)
        elif op in ("scn", "SCN"):
            if operands and isinstance(operands[-1], pikepdf.Name):
                if self.ink is not None:
                    self.ink.pattern(op == "scn")
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
        *,
        ink: bool = True,
    ) -> None:
        """:meth:`_walk` what does not paint with the page's colours (patterns, glyphs,
        soft masks, annotations: each their own state), without the default-colour
        check; its ink read from a fresh state, or not at all (``ink`` False: a soft
        mask, which only makes what it masks transparent)."""
        colours, self._colours = self._colours, None
        reader = self.ink
        state = None
        if reader is not None:
            state, reader.state = reader.state, InkState()
            reader.suspended += 0 if ink else 1
            reader.anywhere += 1
        try:
            self._walk(instructions, resources, ctm, where, base)
        finally:
            self._colours = colours
            if reader is not None and state is not None:
                reader.state = state
                reader.suspended -= 0 if ink else 1
                reader.anywhere -= 1

    def _colour_space(self, op: str, operands: list, resources: object, where: str) -> None:
        if not operands:
            return
        name = str(operands[0])
        if name in ("/DeviceCMYK", "/Pattern"):
            return
        fault = space_fault(operands[0], resources)
        if fault is not None:
            shown = f"{op} {name}" if fault[1] == name[1:] else f"{op} {name} ({fault[1]})"
            self._add("colour", fault[0], f"{shown} in {where}")

    def _pattern(self, name: str, resources: object, where: str, base: Matrix | None) -> None:
        pattern = lookup(resources, "/Pattern", name)
        if not isinstance(pattern, pikepdf.Object) or not self._first(("pattern", pattern)):
            return
        label = _within(where, f"pattern {name}")
        if pattern.get("/PatternType") == 2:
            fault = shading_fault(pattern.get("/Shading"), resources)
            if fault is not None:
                self._add("colour", fault[0], f"{label} (shading, {fault[1]})")
            if self.ink is not None:
                self.ink.shading(pattern.get("/Shading"), resources, painted=False)
            return
        if isinstance(pattern, pikepdf.Stream):
            ctm = None if base is None else multiply(pdf_matrix(pattern.get("/Matrix")), base)
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
        shading = lookup(resources, "/Shading", operands[0])
        fault = shading_fault(shading, resources)
        if fault is not None:
            self._add("colour", fault[0], f"shading {operands[0]} ({fault[1]}) in {where}")
        if self.ink is not None:
            self.ink.shading(shading, resources, painted=True)

    def _do(self, operands: list, resources: object, ctm: Matrix | None, where: str) -> None:
        if not operands:
            return
        name = str(operands[0])
        xobject = lookup(resources, "/XObject", name)
        if not isinstance(xobject, pikepdf.Stream):
            return
        if xobject.get("/Subtype") == "/Image":
            if self.ink is not None:
                self.ink.image(xobject, resources, inline=False, ctm=ctm)
            self._image(f"image {name}", xobject, resources, ctm, where)
        elif xobject.get("/Subtype") == "/Form":
            self._form(name, xobject, resources, ctm, where)

    def _image(
        self,
        label: str,
        image: pikepdf.Object,
        resources: object,
        ctm: Matrix | None,
        where: str,
    ) -> None:
        """An image's colour space (a stencil mask has none: it paints the fill colour)
        and its resolution as drawn: the CTM maps the unit square onto the page."""
        if not image.get("/ImageMask", False):
            fault = image_fault(image, resources)
            if fault is not None:
                self._add("colour", fault[0], f"{label} ({fault[1]}) in {where}")
        if ctm is None:
            return
        width, height = float(image.get("/Width", 0)), float(image.get("/Height", 0))
        drawn_x, drawn_y = (
            math.hypot(ctm[0], ctm[1]) / 72,
            math.hypot(ctm[2], ctm[3]) / 72,
        )
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
            if self.ink is not None:
                self.ink.image(operands[0].obj, resources, inline=True, ctm=ctm)
            self._image("inline image", operands[0].obj, resources, ctm, where)

    def _form(
        self,
        name: str,
        form: pikepdf.Object,
        resources: object,
        ctm: Matrix | None,
        where: str,
    ) -> None:
        """A form draws in its own space (/Matrix x CTM) with its own resources (or,
        in old files, its parent's); a form that draws itself is walked once."""
        if form.objgen in self._walking:
            return
        label = _within(where, f"form {name}")
        form_resources = form.get("/Resources", resources)
        self._group(form, f"transparency group of {label}", form_resources)
        inner = None if ctm is None else multiply(pdf_matrix(form.get("/Matrix")), ctm)
        self._walking.append(form.objgen)
        colours = None if self._colours is None else list(self._colours)
        ink = None if self.ink is None else self.ink.state.copy()
        if self.ink is not None:
            self.ink.form(form.get("/BBox"), inner)
        try:
            self._walk(self._stream_instructions(form), form_resources, inner, label, inner)
        finally:
            self._walking.pop()
            if colours is not None and self._colours is not None:
                self._colours[:] = colours  # a form is drawn inside q ... Q
            if ink is not None and self.ink is not None:
                self.ink.state = ink

    def _group(self, owner: pikepdf.Object, label: str, resources: object) -> None:
        """A transparency group blends in its /CS: an RGB group turns what it holds RGB."""
        group = owner.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and "/CS" in group:
            fault = space_fault(group.get("/CS"), resources)
            if fault is not None:
                self._add("colour", fault[0], f"{label} is {fault[1]}")
            if self.ink is not None:
                self.ink.group(group.get("/CS"), resources)

    def _font(self, operands: list, resources: object, where: str) -> None:
        if not operands:
            return
        key = str(operands[0])
        font = lookup(resources, "/Font", key)
        if not isinstance(font, pikepdf.Dictionary):
            return
        cache = (font.objgen, key) if font.is_indirect else None
        faults = self._fonts.get(cache) if cache else None
        if faults is None:
            faults = font_faults(key, font)
            if cache:
                self._fonts[cache] = faults
        if not self._first(("font", font)):
            return  # a font is named once a page, however many times it is selected
        for severity, message in faults:
            self._add("font", severity, message + _suffix(where))
        if font.get("/Subtype") == "/Type3":
            if self.ink is not None:
                self.ink.type3()
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
        state, group = self._named_state(resources, operands[0])
        if self.ink is not None:
            self.ink.graphics_state(state)
        if not isinstance(group, pikepdf.Stream) or not self._first(("smask", group)):
            return
        label = _within(where, f"soft mask of {operands[0]}")
        group_resources = group.get("/Resources", resources)
        if self.ink is not None:
            self.ink.suspended += 1  # a soft mask's colours are no ink: its group's /CS
        try:  # only decides how its luminosity is read
            self._group(group, f"{label} group", group_resources)
        finally:
            if self.ink is not None:
                self.ink.suspended -= 1
        self._walk_apart(
            self._stream_instructions(group), group_resources, None, label, None, ink=False
        )

    def _named_state(self, resources: object, name: object) -> tuple[object, object]:
        """The graphics state ``name`` of ``resources`` and its soft mask's group (None:
        none), looked up once a page (a card sets its few states dozens of times): by
        the resources' object, which the page's walk passes on, kept alive with them."""
        key = (id(resources), str(name))
        found = self._states.get(key)
        if found is None:
            state = lookup(resources, "/ExtGState", name)
            smask = state.get("/SMask") if isinstance(state, pikepdf.Dictionary) else None
            group = smask.get("/G") if isinstance(smask, pikepdf.Dictionary) else None
            found = self._states[key] = (resources, state, group)
        return found[1], found[2]

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
                if self.ink is not None and annot.get("/Subtype") != "/Popup":
                    # Not read here, but Ghostscript may draw it (an appearance of its
                    # own making, another state): the page's ink is its render's.
                    self.ink.give_up("an annotation not printed as read")
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


def drawing_key(page: pikepdf.Dictionary) -> tuple | None:
    """What a page draws, as object numbers (its content streams, resources, group and
    annotations), or None when any of it is a direct object (no identity to share)."""
    parts: list[object] = []
    for name in ("/Contents", "/Resources", "/Group", "/Annots"):
        value = page.get(name) if name != "/Resources" else inherited(page, name)
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
    """``cm``'s matrix times ``ctm``; ``ctm`` unchanged where sizes mean nothing
    (None) or the operands are malformed (a bad ``cm`` is ignored, as viewers do)."""
    if ctm is None or len(operands) != 6:
        return ctm
    try:
        a, b, c, d, e, f = (float(v) for v in operands)
    except (TypeError, ValueError):
        return ctm
    return multiply((a, b, c, d, e, f), ctm)


def _appearance(annot: pikepdf.Dictionary) -> pikepdf.Object | None:
    """An annotation's normal appearance stream (the one of its state /AS)."""
    appearances = annot.get("/AP")
    normal = appearances.get("/N") if isinstance(appearances, pikepdf.Dictionary) else None
    if isinstance(normal, pikepdf.Dictionary) and not isinstance(normal, pikepdf.Stream):
        normal = normal.get(str(annot.get("/AS", "/Off")))
    return normal if isinstance(normal, pikepdf.Stream) else None
