"""Decks and print-and-play sheets: card PDFs put together for printing.

:func:`build_cards <translator.typeset.build.build_cards>` writes one PDF per card.
This module puts them together with pikepdf (nothing is rendered again, so what was
proofed one card at a time is exactly what is printed):

* :func:`render_back`: the card back, one page with a card's size and boxes, rendered
  by WeasyPrint from the theme's ``back.html.j2`` (translator's own design), or the
  theme's own image (``back: image.jpg`` in its ``theme.yaml``) full-bleed;
* :func:`deck_pdf`: one PDF per deck and language, each card repeated by its quantity,
  each followed by the back (``duplex``: the pages have the card's size, printed
  double-sided), every back at the end (``end``), or no back (``none``);
* :func:`sheets_pdf`: print-and-play sheets, 3 x 3 cards at exact size on A4 or
  Letter inside the margin the printer cannot print, crop marks on both sides of
  every card's corners in black ink only (``0 0 0 1 K``) drawn after the cards and
  never over a card's trim, and optionally a back sheet after each front sheet, the
  backs in mirrored places for long-edge duplex printing.

A page repeated (a card printed three times, the back forty times) is the same
content stream and resources each time: a deck grows by a few hundred bytes a copy,
not by an image.  Every PDF has page labels naming its pages (``courier.fr``,
``courier.fr back``, ``sheet 2 back``), the CMYK profile as its output intent and the
PDF/X-4 labels (:func:`.pdfx.finish`; the back's black overprints like the cards'), and
is written through a temporary file (a reader never sees half a deck).
"""

from __future__ import annotations

import base64
import io
import math
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pikepdf

from ..limits import MAX_IMAGE_BYTES
from ..pdf import pdfx
from ..pdf.pages import label_pages, set_page_boxes, write_atomic
from ..pdf.profiles import INK_LIMIT, Profile
from ..pdf.sizes import MM_PT, Box, CardSize, pdf_box
from ..textio import read_file
from .artwork import prepare
from .render import Renderer
from .theme import ThemeError
from .weasy import weasyprint

#: Where a deck's backs go: after each card, all at the end, or nowhere.
BACKS = ("duplex", "end", "none")
#: Sheet sizes in mm (portrait): ISO A4 and US Letter (8.5 x 11 in).
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Cards on a sheet: columns and rows.
COLUMNS = ROWS = 3
#: Crop marks: black ink only, 0.25 pt, each prolonging a card's trim line beyond its
#: corner: they start this many mm off the corner (a cut that far off the line still
#: leaves them in the waste), are at most this long, and are never shorter than the
#: minimum (a layout without room for that is refused, see :func:`layout_fault`).
MARK_OFFSET = 0.5
MARK_LENGTH = 5.0
MARK_MIN = 1.0
MARK_WIDTH_PT = 0.25
#: A mark drawn over a card's bleed (in a gutter) is cased in paper white (no ink on
#: any plate), this wide, so that it shows on dark artwork.
MARK_CASING_PT = 1.0
#: The narrowest gutter with room for a crop mark between two cards (0 is allowed: the
#: cards touch and share their cut lines).
MIN_GUTTER = 2 * MARK_OFFSET + MARK_MIN
#: The sheet's outer margin in mm the build keeps free by default: most office
#: printers cannot print the outer 4-5 mm of a sheet.
DEFAULT_MARGIN = 5.0
#: Two lengths closer than this (points) are the same (mm rounded to points).
_EPSILON = 0.01


# ----------------------------------------------------------------------- the card back


def render_back(
    renderer: Renderer,
    out: Path,
    profile: Profile,
    warnings: list[str] | None = None,
    ink_limit: float = INK_LIMIT,
) -> Path:
    """Write the card back to ``out``: a one-page PDF with a card's page boxes (MediaBox
    and BleedBox the trim and bleed, TrimBox the card as cut) and the output intent.

    The page is rendered by WeasyPrint from the theme's ``back.html.j2`` (the default
    theme's design: see that template), with the renderer's fetcher and fonts.  A theme
    whose ``theme.yaml`` says ``back: image.jpg`` (:attr:`Theme.back
    <translator.typeset.theme.Theme.back>`) prints that image instead, covering the
    whole page (centred, cut to the page's proportions): it is converted to CMYK
    through ``profile`` under ``ink_limit`` like artwork, and should be 300 ppi at the
    page's size (trim and bleed).  Warnings about it (a low resolution) are appended
    to ``warnings``; an image that cannot be decoded is a
    :class:`~translator.typeset.theme.ThemeError` (one missing or outside the theme
    is one when the theme is loaded).
    """
    theme, size = renderer.theme, renderer.size
    image = _back_image(renderer, profile, warnings if warnings is not None else [], ink_limit)
    html = (
        theme.environment()
        .get_template("back.html.j2")
        .render(
            size=size, image=image, cos=math.cos, sin=math.sin, pi=math.pi, fonts=theme.font_urls()
        )
    )
    document = weasyprint.HTML(
        string=html, url_fetcher=renderer.fetcher, base_url=theme.directories[0].as_uri() + "/"
    )
    rendered = document.render(font_config=renderer.fonts)
    if len(rendered.pages) != 1:
        raise ThemeError(
            f"back.html.j2 of theme {theme.name} makes {len(rendered.pages)} "
            "pages: a card back is one page"
        )
    with pikepdf.open(io.BytesIO(rendered.write_pdf())) as pdf:
        set_page_boxes(pdf.pages[0], size)
        label_pages(pdf, ["back"])
        pdfx.finish(pdf, profile, "Card back", overprint=True, ink_limit=ink_limit)
        write_atomic(Path(out), pdf)
    return Path(out)


def _back_image(
    renderer: Renderer, profile: Profile, warnings: list[str], ink_limit: float
) -> str | None:
    """The theme's own back image (``back:``) as a ``data:`` URL of a CMYK JPEG, or
    None."""
    path = renderer.theme.back
    if path is None:
        return None
    size = renderer.size
    with tempfile.TemporaryDirectory(prefix="translator-back-") as cache:
        art = prepare(
            path,
            profile,
            Path(cache),
            card="the card back",
            box_mm=(size.page_width, size.page_height),
            ink_limit=ink_limit,
        )
        if art.path is None:
            raise ThemeError(f"the back image {path}: {'; '.join(art.warnings)}")
        warnings.extend(art.warnings)
        encoded = base64.b64encode(read_file(art.path, MAX_IMAGE_BYTES, "back image")).decode()
    return f"data:image/jpeg;base64,{encoded}"


# ------------------------------------------------------------------------------ decks


def deck_pdf(
    card_pdfs: list[tuple[str, int, Path]],
    back: Path,
    out: Path,
    profile: Profile,
    backs: str = "duplex",
    title: str | None = None,
) -> Path:
    """Write one PDF of a deck to ``out``: for each ``(label, quantity, card PDF)`` in
    deck order, the card's page ``quantity`` times, each followed by the back
    (``backs="duplex"``), every front then as many backs (``"end"``), or the fronts
    only (``"none"``).

    ``label`` names the card's pages (``courier.fr``; its backs ``courier.fr back``) in
    the PDF's page labels.  The pages keep the card PDFs' boxes.  A card whose page is
    not the back's size (its back would not line up), a card PDF of more than one page
    or made for another CMYK profile is a :class:`ValueError`.  A page repeated shares
    its content and resources with its first copy."""
    if backs not in BACKS:
        raise ValueError(f"unknown order of backs {backs!r}: {', '.join(BACKS)}")
    with ExitStack() as stack:
        back_page = _source(stack, Path(back), "the card back", profile)
        sources: dict[Path | None, pikepdf.Page] = {None: back_page}
        fronts: list[tuple[str, Path]] = []
        for label, quantity, path in card_pdfs:
            if quantity < 0:
                raise ValueError(f"{label}: a quantity of {quantity}")
            key = Path(path).resolve()
            if key not in sources:
                page = _source(stack, key, label, profile)
                _same_page_size(page, back_page, label)
                sources[key] = page
            fronts += [(label, key)] * quantity
        if not fronts:
            raise ValueError("the deck has no card to print (every quantity is 0)")
        order = _page_order(fronts, backs)
        pdf = stack.enter_context(pikepdf.Pdf.new())
        _append_shared(pdf, [sources[key] for _, key in order], [key for _, key in order])
        label_pages(pdf, [label for label, _ in order])
        share_images(pdf)
        # The pages are the card PDFs' (their black overprints already).
        pdfx.finish(pdf, profile, title or Path(out).stem)
        write_atomic(Path(out), pdf)
    return Path(out)


def _page_order(fronts: list[tuple[str, Path]], backs: str) -> list[tuple[str, Path | None]]:
    """The deck's pages as (label, card PDF, None for the back), with the backs where
    ``backs`` puts them: after each front (duplex), all at the end, or none."""
    if backs == "duplex":
        order: list[tuple[str, Path | None]] = []
        for label, key in fronts:
            order += [(label, key), (f"{label} back", None)]
        return order
    if backs == "end":
        return [*fronts, *((f"{label} back", None) for label, _ in fronts)]
    return list(fronts)


def _append_shared(pdf: pikepdf.Pdf, pages: list[pikepdf.Page], keys: list[Path | None]) -> None:
    """Append ``pages`` to ``pdf``; a page of the same ``key`` as an earlier one is a
    shallow copy of that first copy, sharing its content and resources (made indirect
    so that they are shared), so that a card printed three times is stored once."""
    first: dict[Path | None, pikepdf.Page] = {}
    for page, key in zip(pages, keys, strict=True):
        if key in first:
            pdf.pages.append(first[key])  # a shallow copy: shares contents, resources
            continue
        pdf.pages.append(page)
        copied = pdf.pages[-1]
        if "/Resources" in copied.obj and not copied.obj.Resources.is_indirect:
            # Indirect, the resources dictionary is shared by the copies too.
            copied.obj.Resources = pdf.make_indirect(copied.obj.Resources)
        first[key] = copied


def share_images(pdf: pikepdf.Pdf) -> int:
    """Make every image drawn more than once one object: the card PDFs of a deck each
    carry their own copy of the frame they share (the official look's frames are 1.2 MB
    JPEGs), which a deck of 40 cards would hold 40 times.  Images are the same when
    their encoded bytes and dictionaries are; returns how many copies were dropped.

    Images are grouped by their dictionary, and an image is compared byte for byte
    with the few kept in its group: hashing every image of a 400-card deck cost a
    tenth of a second of each rebuild."""
    kept: dict[str, list[tuple[bytes, pikepdf.Object]]] = {}
    seen: set[tuple[int, int]] = set()
    shared: dict[tuple[int, int], pikepdf.Object] = {}  # an image decided once
    dropped = 0

    def same(xobject: pikepdf.Stream) -> pikepdf.Object:
        """The first image of ``xobject``'s bytes and dictionary (``xobject`` itself
        when it is the first)."""
        if xobject.is_indirect and xobject.objgen in shared:
            return shared[xobject.objgen]
        entries = sorted((k, repr(v)) for k, v in xobject.items() if k != "/Length")
        group = kept.setdefault(repr(entries), [])
        raw = xobject.read_raw_bytes()
        found = next((image for data, image in group if data == raw), None)
        if found is None:
            group.append((raw, xobject))
            found = xobject
        if xobject.is_indirect:
            shared[xobject.objgen] = found
        return found

    def visit(resources: pikepdf.Object | None) -> None:
        nonlocal dropped
        xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
        if not isinstance(xobjects, pikepdf.Dictionary):
            return
        for name in list(xobjects.keys()):
            xobject = xobjects[name]
            if not isinstance(xobject, pikepdf.Stream):
                continue
            if xobject.get("/Subtype") == pikepdf.Name.Form:
                if xobject.is_indirect and xobject.objgen in seen:
                    continue
                if xobject.is_indirect:
                    seen.add(xobject.objgen)
                visit(xobject.get("/Resources"))
                continue
            if xobject.get("/Subtype") != pikepdf.Name.Image:
                continue
            first = same(xobject)
            if first.is_indirect and xobject.is_indirect and first.objgen != xobject.objgen:
                xobjects[name] = first
                dropped += 1

    for page in pdf.pages:
        visit(page.obj.get("/Resources"))
    return dropped


def _source(stack: ExitStack, path: Path, label: str, profile: Profile) -> pikepdf.Page:
    """The page of a card (or back) PDF, kept open until the output is saved (pikepdf
    copies foreign streams when saving)."""
    pdf = stack.enter_context(pikepdf.open(path))
    if len(pdf.pages) != 1:
        raise ValueError(f"{label}: {path} has {len(pdf.pages)} pages, not one card")
    made_for = pdfx.made_for(pdf)  # the profile's description
    if made_for and made_for != profile.description:
        raise ValueError(
            f"{label}: {path} was made for {made_for!r}, not "
            f"{profile.description!r}: build the cards again"
        )
    return pdf.pages[0]


def _box(page: pikepdf.Page, name: str) -> Box:
    """A page's box ``name``, its MediaBox when it has none."""
    found = pdf_box(page.obj.get(name)) or pdf_box(page.obj.MediaBox)
    assert found is not None  # a page pikepdf opened has a MediaBox
    return found


def _same_page_size(page: pikepdf.Page, back: pikepdf.Page, label: str) -> None:
    for name in ("/MediaBox", "/TrimBox"):
        mine, theirs = _box(page, name), _box(back, name)
        if (
            abs((mine[2] - mine[0]) - (theirs[2] - theirs[0])) > _EPSILON
            or abs((mine[3] - mine[1]) - (theirs[3] - theirs[1])) > _EPSILON
        ):
            raise ValueError(
                f"{label}: its page is not the size of the card back "
                f"({name[1:]} {_mm(mine)} vs {_mm(theirs)})"
            )


def _mm(box: Box) -> str:
    return f"{(box[2] - box[0]) / MM_PT:.2f} x {(box[3] - box[1]) / MM_PT:.2f} mm"


# ----------------------------------------------------------------------------- sheets


@dataclass(frozen=True)
class Slot:
    """A card's place on a sheet, in points from the sheet's lower left corner: its
    trim (where it is cut) and its visible area (the trim and as much bleed as the
    gutter leaves room for: half the gutter at most, and none in the sheet's
    margin)."""

    column: int
    row: int
    trim: Box
    visible: Box


def layout_fault(
    size: CardSize, paper: str, gutter: float = 0.0, margin: float = 0.0
) -> str | None:
    """Why 3 x 3 cards of ``size``, ``gutter`` mm apart, cannot go on ``paper`` with
    ``margin`` mm kept free at its edges (None when they can), naming what fits.

    The margin is what the printer cannot print: the cards and the crop marks beyond
    the outer cards (:data:`MARK_OFFSET` and :data:`MARK_MIN` at least) must be inside
    it, or the sheet prints without them, silently (the bleed shown around the outer
    cards stops at the margin: it is cut away).  A gutter is 0 (the cards touch: one
    cut between two) or at least :data:`MIN_GUTTER` (room for a mark between two
    cards)."""
    if paper not in PAPERS:
        return f"unknown paper {paper!r}: {' or '.join(PAPERS)}"
    if gutter < 0 or not math.isfinite(gutter):
        return f"a gutter of {gutter} mm: it is 0 or more"
    if margin < 0 or not math.isfinite(margin):
        return f"a margin of {margin} mm: it is 0 or more"
    if 0 < gutter < MIN_GUTTER - 1e-9:
        return (
            f"--gutter {gutter:g} leaves no room for crop marks between the cards: "
            f"0 (the cards touch, one cut between two) or at least {MIN_GUTTER:g} mm"
        )
    paper_w, paper_h = PAPERS[paper]
    need = MARK_OFFSET + MARK_MIN
    # Per side of the sheet: the paper left beyond the cards and their shortest marks
    # without a gutter, and how much of it a mm of gutter takes.
    sides = [
        ("left and right", (paper_w - COLUMNS * size.width) / 2 - need, (COLUMNS - 1) / 2),
        ("top and bottom", (paper_h - ROWS * size.height) / 2 - need, (ROWS - 1) / 2),
    ]
    side, spare, per_mm = min(sides, key=lambda s: s[1] - s[2] * gutter)
    left = spare - per_mm * gutter
    if left >= margin - 1e-6:
        return None
    block_w = COLUMNS * size.width + (COLUMNS - 1) * gutter
    block_h = ROWS * size.height + (ROWS - 1) * gutter
    if block_w > paper_w or block_h > paper_h:
        said = (
            f"{COLUMNS} x {ROWS} cards of {size.width:g} x {size.height:g} mm with a "
            f"gutter of {gutter:g} mm ({block_w:g} x {block_h:g} mm) do not fit on "
            f"{paper} ({paper_w:g} x {paper_h:g} mm)"
        )
    else:
        said = (
            f"--gutter {gutter:g} leaves "
            if gutter > 0
            else f"{COLUMNS} x {ROWS} {size.name} cards on {paper} leave "
        )
        said += (
            f"{left:.1f} mm at the sheet's {side} edges, under the {margin:g} mm margin"
            if left > 0
            else f"no room at the sheet's {side} edges"
        )
        said += f" (the cards and {need:g} mm of crop marks beyond them must print inside it)"
    return f"{said}: {_fitting(sides, gutter, margin)}"


def _fitting(sides: list[tuple[str, float, float]], gutter: float, margin: float) -> str:
    """What to ask for instead (:func:`layout_fault`): the widest gutter that fits, or
    no gutter, or the widest margin that fits, or another paper or card size."""
    widest = _floor(min((spare - margin) / per_mm for _, spare, per_mm in sides))
    at_zero = min(spare for _, spare, _ in sides)
    if gutter > 0 and widest >= MIN_GUTTER:
        return f"at most --gutter {widest:g}"
    if gutter > 0 and at_zero >= margin - 1e-6:
        return (
            f"only --gutter 0 fits (no gutter of {MIN_GUTTER:g} mm or more), or a "
            "smaller --margin if the printer prints closer to the edge"
        )
    if at_zero > 0:
        return (
            f"at most --margin {_floor(at_zero):g}"
            + (" with --gutter 0" if gutter > 0 else "")
            + ", if the printer prints that close to the edge; or another paper "
            "(--sheets) or card size (--size)"
        )
    return "another paper (--sheets) or card size (--size)"


def _floor(value: float) -> float:
    """``value`` rounded down to a tenth: a value suggested must fit."""
    return math.floor(value * 10 + 1e-6) / 10


def sheet_slots(
    size: CardSize, paper: str = "a4", gutter: float = 0.0, margin: float = 0.0
) -> list[Slot]:
    """The nine places of a sheet, row by row from the top left, centred on the paper;
    :class:`ValueError` (:func:`layout_fault`) for an unknown paper, a negative
    gutter, or cards and crop marks that do not fit inside ``margin``.  A card's
    visible area stops at the margin (a printer would not print its bleed there)."""
    fault = layout_fault(size, paper, gutter, margin)
    if fault is not None:
        raise ValueError(fault)
    paper_w, paper_h = PAPERS[paper]
    block_w = COLUMNS * size.width + (COLUMNS - 1) * gutter
    block_h = ROWS * size.height + (ROWS - 1) * gutter
    left, bottom = (paper_w - block_w) / 2, (paper_h - block_h) / 2
    shown = min(size.bleed, gutter / 2)
    slots = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            x = left + column * (size.width + gutter)
            y = bottom + (ROWS - 1 - row) * (size.height + gutter)
            trim = (x, y, x + size.width, y + size.height)
            visible = (
                max(x - shown, margin),
                max(y - shown, margin),
                min(x + size.width + shown, paper_w - margin),
                min(y + size.height + shown, paper_h - margin),
            )
            slots.append(Slot(column, row, _points(trim), _points(visible)))
    return slots


def _points(box: Box) -> Box:
    x0, y0, x1, y1 = box
    return x0 * MM_PT, y0 * MM_PT, x1 * MM_PT, y1 * MM_PT


def mirrored(slot: Slot, slots: Sequence[Slot]) -> Slot:
    """The place behind ``slot`` on a back sheet printed long-edge duplex: the same row,
    the columns in reverse order."""
    return next(s for s in slots if s.row == slot.row and s.column == COLUMNS - 1 - slot.column)


def crop_marks(slots: Sequence[Slot], page: tuple[float, float], margin: float = 0.0) -> list[Box]:
    """Crop marks for cards in ``slots`` on a page of ``page`` (width, height) points:
    segments ``(x0, y0, x1, y1)`` prolonging every trim line beyond the corners of
    the cards it bounds, from :data:`MARK_OFFSET` mm off the corner, never over a
    card's trim (nor within that offset of one), never in the sheet's outer ``margin``
    mm.  So every card gets a mark on both sides of each corner: in the sheet's
    margins (up to :data:`MARK_LENGTH` mm, from the cards outwards), across the
    gutters (the gap between two cards' corners, or a mark from each side when it is
    long; over the bleed shown there, which is cut away), and beside an empty place.
    With no gutter two neighbours share their cut line, which is marked outside the
    cards only (a mark between them would be on a card).  Shorter than
    :data:`MARK_MIN` mm: left out (:func:`layout_fault` refuses such layouts)."""
    offset, length, shortest = MARK_OFFSET * MM_PT, MARK_LENGTH * MM_PT, MARK_MIN * MM_PT
    edge = margin * MM_PT
    marks: list[Box] = []
    for axis in (0, 1):  # 0: vertical lines (x = a trim edge); 1: horizontal lines
        across, along = axis, 1 - axis  # the line's fixed coordinate, and its direction
        first, last = edge, page[along] - edge  # where the printer prints
        lines = sorted({round(s.trim[across + k], 4) for s in slots for k in (0, 2)})
        for position in lines:
            for low, high in _free_spans(slots, position, across, offset, (first, last)):
                for a, b in _mark_pieces(low, high, (first, last), length):
                    if b - a >= shortest - 1e-9:
                        marks.append(
                            (position, a, position, b) if axis == 0 else (a, position, b, position)
                        )
    return marks


def _free_spans(
    slots: Sequence[Slot],
    position: float,
    across: int,
    offset: float,
    printable: tuple[float, float],
) -> list[tuple[float, float]]:
    """The stretches of the trim line at ``position`` (on coordinate ``across``) where
    a mark may go: within the ``printable`` stretch, not over a card's trim nor within
    ``offset`` of one."""
    along = 1 - across
    first, last = printable
    blocked = sorted(
        (s.trim[along] - offset, s.trim[along + 2] + offset)
        for s in slots
        if s.trim[across] - offset < position < s.trim[across + 2] + offset
    )
    free, start = [], first
    for low, high in blocked:
        if low > start:
            free.append((start, low))
        start = max(start, high)
    if start < last:
        free.append((start, last))
    return free


def _mark_pieces(
    low: float, high: float, printable: tuple[float, float], length: float
) -> list[tuple[float, float]]:
    """The marks of one free stretch: from each end that is beside a card (not the
    printable area's edge), at most ``length`` long; the whole stretch when it lies
    between two cards and is not longer than two marks."""
    first, last = printable
    at_low, at_high = low > first, high < last  # beside a card at that end
    if at_low and at_high and high - low > 2 * length:
        return [(low, low + length), (high - length, high)]
    if at_low and at_high:
        return [(low, high)]
    if at_low:
        return [(low, min(high, low + length))]
    if at_high:
        return [(max(low, high - length), high)]
    return []


def _over(mark: Box, box: Box) -> bool:
    """Whether the segment ``mark`` runs over the inside of ``box``."""
    x0, y0, x1, y1 = mark
    return (
        min(x0, x1) < box[2]
        and max(x0, x1) > box[0]
        and min(y0, y1) < box[3]
        and max(y0, y1) > box[1]
    )


def sheets_pdf(
    card_pdfs: list[tuple[str, Path]],
    out: Path,
    profile: Profile,
    size: CardSize,
    paper: str = "a4",
    gutter: float = 0.0,
    backs: Path | None = None,
    title: str | None = None,
    margin: float = 0.0,
) -> Path:
    """Write print-and-play sheets to ``out``: the cards (``(label, card PDF)``, in
    order, a card as many times as it is listed) 3 x 3 a sheet at their exact trim
    size, centred on ``paper`` (``a4`` or ``letter``, portrait), ``gutter`` mm apart,
    cards and crop marks inside the outer ``margin`` mm the printer cannot print (a
    :class:`ValueError` naming what fits otherwise: :func:`layout_fault`).

    With no gutter the cards touch at their trim lines (one cut between two cards);
    with one, each card shows its bleed up to half the gutter, so a cut a little off
    the line still has the card's ground (a gutter of twice the bleed shows it all).
    Each card is its page as a Form XObject, clipped to that visible area.  Crop marks
    (:func:`crop_marks`: both sides of every card's corners) are drawn last, in black
    ink only, so nothing covers them, and never over a card's trim.

    With ``backs`` (the card back's PDF), every front sheet is followed by a back sheet
    with a back behind each card: the same rows, the columns reversed, so that the
    sheets printed double-sided, flipped on the long edge, put each back behind its
    card.  Page labels: ``sheet 1``, ``sheet 1 back``, ...  A card PDF whose trim is
    not ``size`` is a :class:`ValueError`."""
    if not card_pdfs:
        raise ValueError("no card to put on sheets")
    slots = sheet_slots(size, paper, gutter, margin)
    paper_pt = (PAPERS[paper][0] * MM_PT, PAPERS[paper][1] * MM_PT)
    with ExitStack() as stack:
        pdf = stack.enter_context(pikepdf.Pdf.new())
        forms: dict[Path, tuple[pikepdf.Object, Box]] = {}

        def form(path: Path, label: str) -> tuple[pikepdf.Object, Box]:
            key = Path(path).resolve()
            if key not in forms:
                page = _source(stack, key, label, profile)
                trim = _box(page, "/TrimBox")
                if (
                    abs(trim[2] - trim[0] - size.width * MM_PT) > _EPSILON
                    or abs(trim[3] - trim[1] - size.height * MM_PT) > _EPSILON
                ):
                    raise ValueError(
                        f"{label}: its trim is {_mm(trim)}, not {size.width:g} x {size.height:g} mm"
                    )
                forms[key] = (_form(pdf, page), trim)
            return forms[key]

        labels: list[str] = []
        per_sheet = COLUMNS * ROWS
        for number, first in enumerate(range(0, len(card_pdfs), per_sheet), start=1):
            placed = [
                (slot, form(path, label))
                for slot, (label, path) in zip(
                    slots, card_pdfs[first : first + per_sheet], strict=False
                )
            ]
            _sheet(pdf, paper_pt, placed, margin)
            labels.append(f"sheet {number}")
            if backs is not None:
                back = form(backs, "the card back")
                _sheet(pdf, paper_pt, [(mirrored(slot, slots), back) for slot, _ in placed], margin)
                labels.append(f"sheet {number} back")
        label_pages(pdf, labels)
        share_images(pdf)
        pdfx.finish(pdf, profile, title or Path(out).stem)
        write_atomic(Path(out), pdf)
    return Path(out)


def _form(pdf: pikepdf.Pdf, source: pikepdf.Page) -> pikepdf.Object:
    """The page as a Form XObject of ``pdf``, its bounding box the whole page (bleed
    included: QPDF's default is the TrimBox; the sheet clips it)."""
    form = pdf.copy_foreign(source.as_form_xobject())
    form.BBox = pikepdf.Array(list(_box(source, "/MediaBox")))
    return form


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _sheet(
    pdf: pikepdf.Pdf,
    paper: tuple[float, float],
    placed: Sequence[tuple[Slot, tuple[pikepdf.Object, Box]]],
    margin: float = 0.0,
) -> None:
    """Add a sheet: each card clipped to its visible area, then the crop marks (those
    over a card's bleed on a paper-white casing first, so they show on dark art)."""
    xobjects = pikepdf.Dictionary()
    names: dict[tuple[int, int], str] = {}
    content = []
    for slot, (xobject, trim) in placed:
        name = names.setdefault(xobject.objgen, f"/Card{len(names) + 1}")
        xobjects[name] = xobject
        x0, y0, x1, y1 = slot.visible
        dx, dy = slot.trim[0] - trim[0], slot.trim[1] - trim[1]
        content.append(
            f"q {_number(x0)} {_number(y0)} {_number(x1 - x0)} {_number(y1 - y0)} "
            f"re W n 1 0 0 1 {_number(dx)} {_number(dy)} cm {name} Do Q"
        )
    marks = crop_marks([slot for slot, _ in placed], paper, margin)
    cased = [m for m in marks if any(_over(m, slot.visible) for slot, _ in placed)]
    for segments, width, ink in ((cased, MARK_CASING_PT, 0), (marks, MARK_WIDTH_PT, 1)):
        if segments:
            content.append(f"q {width:g} w 0 J [] 0 d 0 0 0 {ink} K")
            content += [
                f"{_number(a)} {_number(b)} m {_number(c)} {_number(d)} l S"
                for a, b, c, d in segments
            ]
            content.append("Q")
    width, height = paper
    box = pikepdf.Array([0, 0, round(width, 4), round(height, 4)])
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=box,
        CropBox=box,
        TrimBox=box,
        BleedBox=box,
        Resources=pikepdf.Dictionary(XObject=xobjects),
        Contents=pikepdf.Stream(pdf, "\n".join(content).encode("ascii")),
    )
    pdf.pages.append(pikepdf.Page(page))
