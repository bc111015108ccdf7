"""The ``boxes`` check: a card page's TrimBox and BleedBox as its card size says, and
on a print-and-play sheet, every card placed at the card size and on the paper.

A wrong TrimBox cuts the card in the wrong place, and nothing shows it on screen.
"""

from __future__ import annotations

import pikepdf

from ..geometry import IDENTITY, multiply, transformed_box
from ..sizes import MM_PT, Box, CardSize, pdf_box
from .objects import inherited, lookup, pdf_matrix

MM_PER_PT = 1 / MM_PT
BOX_TOLERANCE_MM = 0.05


def _mm(points: float) -> float:
    """PDF points in millimetres, the unit card sizes and messages speak."""
    return points * MM_PER_PT


def box_faults(page: pikepdf.Dictionary, size: CardSize | None) -> list[str]:
    """What is wrong with the page boxes: the card size's exact trim and bleed, or, for
    sheets (``size`` None), TrimBox inside BleedBox inside MediaBox."""
    media = pdf_box(inherited(page, "/MediaBox"))
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


def sheet_faults(page: pikepdf.Page, size: CardSize) -> list[str]:
    """What is wrong with the cards placed on a print-and-play sheet (a page
    :data:`.names.SHEET_LABEL` names), checked against the card size: each card is a Form
    XObject whose bounding box is its whole page (trim and bleed, as ``translator
    build`` places them), which must be the size's, and whose trim must be on the
    sheet.  A form placed several times is reported once."""
    media = pdf_box(inherited(page.obj, "/MediaBox"))
    resources = inherited(page.obj, "/Resources")
    if media is None:
        return []  # reported by :func:`box_faults`
    faults: list[str] = []
    sizes: dict[str, tuple[float, float, int]] = {}
    ctm, saved = IDENTITY, []
    for instruction in pikepdf.parse_content_stream(page, "q Q cm Do"):
        operands, op = instruction.operands, str(instruction.operator)
        if op == "q":
            saved.append(ctm)
        elif op == "Q" and saved:
            ctm = saved.pop()
        elif op == "cm" and len(operands) == 6:
            ctm = multiply(pdf_matrix(pikepdf.Array(operands)), ctm)
        elif op == "Do" and operands:
            name = str(operands[0])
            form = lookup(resources, "/XObject", name)
            if not isinstance(form, pikepdf.Stream) or form.get("/Subtype") != "/Form":
                continue  # an image
            box = pdf_box(form.get("/BBox"))
            if box is None:
                continue  # an image, or not a card
            placed = transformed_box(box, multiply(pdf_matrix(form.get("/Matrix")), ctm))
            width, height = _mm(placed[2] - placed[0]), _mm(placed[3] - placed[1])
            count = sizes.get(name, (width, height, 0))[2]
            sizes[name] = (width, height, count + 1)
            bleed = size.bleed / MM_PER_PT
            trim = (
                placed[0] + bleed,
                placed[1] + bleed,
                placed[2] - bleed,
                placed[3] - bleed,
            )
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


def _size_faults(trim: Box, bleed: Box, size: CardSize) -> list[str]:
    """A card page's BleedBox and TrimBox against ``size``: the page with its bleed,
    the card as cut, and the trim centred in the bleed (each within
    :data:`BOX_TOLERANCE_MM`)."""
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
        for a, b in (
            (width, size.width),
            (height, size.height),
            (x, size.bleed),
            (y, size.bleed),
        )
    ):
        faults.append(
            f"TrimBox is {width:.2f} x {height:.2f} mm at {x:.2f}, {y:.2f} mm "
            f"in the BleedBox; {size.name} wants {size.width:g} x "
            f"{size.height:g} mm at {size.bleed:g}, {size.bleed:g} mm"
        )
    return faults


def _close(a: float, b: float) -> bool:
    """Equal lengths in mm, within the rounding of points in a PDF."""
    return abs(a - b) <= BOX_TOLERANCE_MM


def _inside(inner: Box, outer: Box) -> bool:
    """``inner`` within ``outer``, with :data:`BOX_TOLERANCE_MM` of slack."""
    tolerance = BOX_TOLERANCE_MM / MM_PER_PT
    return (
        inner[0] >= outer[0] - tolerance
        and inner[1] >= outer[1] - tolerance
        and inner[2] <= outer[2] + tolerance
        and inner[3] <= outer[3] + tolerance
    )


def _show(box: Box) -> str:
    """A box as its message shows it: its corners in mm."""
    return "[" + " ".join(f"{_mm(v):.2f}" for v in box) + "] mm"
