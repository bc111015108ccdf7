"""Measuring how close a built card is to the official Arcmage look (issue 17's proof).

A helper for the tests, not a test file: the page as the press would print it
(:func:`render_page_srgb`, a soft proof through the CMYK output profile), the official
template placed where the theme prints it (:func:`template_on_page`), a mask that leaves
out what differs by design (artwork, text, symbols: :func:`mask_outside`), and the mean
colour difference over what is left (:func:`delta_e76`).

Colour differences are CIE76 (Euclidean distance in CIELAB), computed by LittleCMS
(Pillow's ImageCms) from sRGB to its built-in LAB profile: D50, the ICC connection
space's white, reached from sRGB's D65 by the profile's own (Bradford) adaptation, the
same for both images.  The LAB images are 8-bit (L* in steps of 0.39, a* and b* in
steps of 1): a difference is exact to about half a unit, well under the 2-3 units a
reader sees side by side.
"""

from __future__ import annotations

import io
import math
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import pikepdf
from PIL import Image, ImageChops, ImageCms, ImageDraw

from translator.themes.arcmage import raster
from translator.typeset import preview

MM_PER_INCH = 25.4


def render_page_srgb(pdf: Path, page: int, dpi: float, profile_path: Path) -> Image.Image:
    """Page ``page`` (1 for the first, as a PDF viewer counts) of ``pdf`` at ``dpi``, as
    a soft proof in sRGB: Ghostscript's CMYK render converted through the CMYK profile
    in ``profile_path`` (relative colorimetric with black point compensation, as the
    previews do).  The page is copied alone into a temporary PDF whose output intent is
    that profile, and proofed by :func:`translator.typeset.preview.render_png` (its
    public function takes the first page and the file's own intent).

    Raises RuntimeError without Ghostscript (a PDFium render would not be a proof),
    ValueError for a page out of range or a profile that is not a usable CMYK one."""
    if not preview.proof_available():
        raise RuntimeError("Ghostscript (gs) is needed for a soft proof")
    icc = profile_path.read_bytes()
    _check_cmyk(icc, profile_path)
    with tempfile.TemporaryDirectory(prefix="official-look-") as folder:
        single = Path(folder) / "page.pdf"
        with pikepdf.open(pdf) as document:
            count = len(document.pages)
            if not 1 <= page <= count:
                raise ValueError(f"{pdf}: no page {page} (it has {count})")
            for index in reversed(range(count)):
                if index != page - 1:
                    del document.pages[index]
            document.Root.OutputIntents = pikepdf.Array([_intent(document, icc)])
            document.save(single)
        return preview.soft_proofs([single], dpi, strict=True)[0].convert("RGB")


def render_pages_srgb(pdfs: Sequence[Path], dpi: float, profile_path: Path) -> list[Image.Image]:
    """The first page of each of ``pdfs`` as :func:`render_page_srgb` proofs it, for
    card PDFs whose output intent is already the profile in ``profile_path`` (as a
    build writes them): in one Ghostscript run for many files (its start costs more
    than proofing a card: 48 cards in 6 s rather than 22 s), through the same steps as
    :func:`translator.typeset.preview.soft_proofs`, but never PDFium's render instead
    of a proof.

    Raises as :func:`render_page_srgb`; ValueError for a file whose output intent is
    not that profile, RuntimeError for one Ghostscript cannot proof."""
    icc = profile_path.read_bytes()
    _check_cmyk(icc, profile_path)
    for pdf in pdfs:
        if preview.intent_of(pdf) != icc:
            raise ValueError(f"{pdf}: its output intent is not {profile_path}")
    return [image.convert("RGB") for image in preview.soft_proofs(pdfs, dpi, strict=True)]


def _check_cmyk(icc: bytes, path: Path) -> None:
    """Refuse a profile LittleCMS cannot convert from CMYK with: the proof would
    silently fall back to PDFium's built-in colours."""
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        if profile.profile.xcolor_space.strip() != "CMYK":
            raise ValueError(f"{path}: not a CMYK profile")
        ImageCms.buildTransform(profile, ImageCms.createProfile("sRGB"), "CMYK", "RGB")
    except (OSError, ImageCms.PyCMSError) as error:
        raise ValueError(f"{path}: not a usable ICC profile ({error})") from None


def _intent(document: pikepdf.Pdf, icc: bytes) -> pikepdf.Dictionary:
    """A PDF/X output intent carrying ``icc``."""
    stream = pikepdf.Stream(document, icc)
    stream["/N"] = 4
    return pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier="Custom",
        DestOutputProfile=stream,
    )


def delta_e76(a: Image.Image, b: Image.Image, mask: Image.Image | None = None) -> float:
    """The mean CIE76 difference of ``a`` and ``b`` (sRGB, the same size) over the
    pixels that count: those where ``mask`` (mode L or 1; all pixels when None) and the
    alpha of each image that has one are fully on (255).  Only fully opaque pixels:
    a half-transparent template pixel prints blended with the border under it, so its
    own colour is not what the page should show.  ValueError when no pixel counts."""
    if a.size != b.size:
        raise ValueError(f"the images differ in size: {a.size} and {b.size}")
    counted = _coverage(a.size, [mask, _alpha(a), _alpha(b)])
    bands = [
        ImageChops.difference(x, y) for x, y in zip(_lab(a).split(), _lab(b).split(), strict=True)
    ]
    # a* and b* are stored offset by 128, so their byte differences are theirs
    colours = Image.merge("RGBA", [*bands, counted]).getcolors(a.width * a.height)
    assert colours is not None  # maxcolors is the pixel count
    total = 0.0
    pixels = 0
    for count, (dl, da, db, on) in colours:
        if on == 255:
            total += count * math.sqrt((dl * 100 / 255) ** 2 + da * da + db * db)
            pixels += count
    if not pixels:
        raise ValueError("the mask leaves no pixel to compare")
    return total / pixels


def _alpha(image: Image.Image) -> Image.Image | None:
    return image.getchannel("A") if image.mode in ("RGBA", "LA") else None


def _coverage(size: tuple[int, int], masks: list[Image.Image | None]) -> Image.Image:
    """The pixels on in every one of ``masks`` (255), the others 0."""
    counted = Image.new("L", size, 255)
    for mask in masks:
        if mask is not None:
            if mask.size != size:
                raise ValueError(f"the mask is {mask.size}, the images {size}")
            on = mask.convert("L").point(lambda value: 255 if value == 255 else 0)
            counted = ImageChops.darker(counted, on)
    return counted


@lru_cache(maxsize=1)
def _to_lab() -> ImageCms.ImageCmsTransform:
    """sRGB to LittleCMS's built-in D50 LAB, relative colorimetric."""
    return ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"),
        ImageCms.createProfile("LAB"),
        "RGB",
        "LAB",
        ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )


def _lab(image: Image.Image) -> Image.Image:
    lab = ImageCms.applyTransform(image.convert("RGB"), _to_lab())
    assert lab is not None  # not in place
    return lab


def template_on_page(
    template_png: Path,
    page_size_px: tuple[int, int],
    dpi: float,
    *,
    border_png: Path | None = None,
    page_mm: tuple[float, float] = raster.PAGE_MM,
    template_mm: tuple[float, float] = raster.TEMPLATE_MM,
) -> Image.Image:
    """The official ``template_png`` placed where the theme prints it, as an RGBA image
    of ``page_size_px`` (a render of the whole print page at ``dpi``): at the offsets of
    :func:`translator.themes.arcmage.raster.compose_frame`, on its pixel grid, with
    that frame image stretched over the ``page_mm`` page box as the PDF draws it, then
    resampled (Lanczos) to the render's pixels.  Transparent outside the template and
    where it is (give its alpha to :func:`delta_e76`), unless ``border_png`` is given:
    then the border is under it, as in Aminduna's print PDF, and all is opaque: the
    better reference for most templates, whose large areas are slightly translucent
    (alpha 0.9-0.99: 40 % of Gaian magic's pixels), which :func:`delta_e76` leaves out
    when given the template's alpha.  The back compares the same way with
    ``template_mm=raster.BACK_MM``."""
    template = raster.load(template_png, template_mm, "a card template")
    size, offset = raster.page_grid(page_mm, template_mm, template.dpi)
    if border_png is not None:
        ground = raster.border_ground(border_png, page_mm, template.dpi, template_mm)
        frame = raster.composite(template, ground, page_mm, template_mm)[0].convert("RGBA")
    else:
        frame = Image.new("RGBA", size, (0, 0, 0, 0))
        frame.paste(template.image, offset)
    # The render's pixel j covers j * 25.4 / dpi mm; the frame's pixel i, i * page / size.
    box = (
        0.0,
        0.0,
        page_size_px[0] * MM_PER_INCH / dpi * size[0] / page_mm[0],
        page_size_px[1] * MM_PER_INCH / dpi * size[1] / page_mm[1],
    )
    frame = _extend(frame, (math.ceil(box[2]), math.ceil(box[3])))
    return frame.resize(page_size_px, Image.Resampling.LANCZOS, box=box)


def _extend(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``frame`` at least ``size`` large, its last column and row repeated (as the soft
    proofs repeat theirs): the render's last pixel reaches past the page box."""
    width, height = frame.size
    if width >= size[0] and height >= size[1]:
        return frame
    extended = Image.new(frame.mode, (max(width, size[0]), max(height, size[1])))
    extended.paste(frame, (0, 0))
    if size[0] > width:
        column = frame.crop((width - 1, 0, width, height))
        extended.paste(column.resize((size[0] - width, height)), (width, 0))
    if size[1] > height:
        row = extended.crop((0, height - 1, extended.width, height))
        extended.paste(row.resize((extended.width, size[1] - height)), (0, height))
    return extended


def mask_outside(
    boxes_mm: list[tuple[float, float, float, float]],
    size_px: tuple[int, int],
    dpi: float,
    grow_mm: float,
) -> Image.Image:
    """A mask (mode L) of ``size_px`` at ``dpi``: on (255) except in ``boxes_mm`` (x, y,
    width, height in mm from the page's top-left corner: artwork, text, symbols), each
    grown by ``grow_mm`` on every side; a pixel a box touches at all is off."""
    mask = Image.new("L", size_px, 255)
    draw = ImageDraw.Draw(mask)
    scale = dpi / MM_PER_INCH
    for x, y, width, height in boxes_mm:
        left = math.floor((x - grow_mm) * scale)
        top = math.floor((y - grow_mm) * scale)
        right = math.ceil((x + width + grow_mm) * scale) - 1
        bottom = math.ceil((y + height + grow_mm) * scale) - 1
        if right >= left and bottom >= top:
            draw.rectangle((left, top, right, bottom), fill=0)
    return mask
