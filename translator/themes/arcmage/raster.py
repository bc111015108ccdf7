"""The print page's raster images of the official Arcmage look: card frames and the back.

The official template set draws a card as two pictures: the card template
(``CardTemplates/<faction>/<type>.png``, the 65 x 92 mm template page at about 600 dpi,
RGBA with transparent rounded corners and, in many, large areas slightly translucent)
and the faction's print border (``CardTemplates/<faction>/border.png``, 68 x 94 mm: the
trimmed card plus 2 mm of bleed), which Aminduna composites under the template for its
print PDF.  :func:`compose_frame` makes that composite once, as the one image printed
under a card's text; :func:`compose_back` does the same for the official back over the
generic print border.

Choices, and why:

* **The template keeps its own pixels.**  The output is at the template's resolution
  and the template is pasted at a whole-pixel offset, never resampled: its hairlines
  and gradients print as Aminduna renders them.  The offset is the nominal one
  (1.5 mm, 1.0 mm for a frame: the template page's origin, which the text positions
  of the SVG templates are measured from) rounded to the nearest pixel, so the template
  sits within half a pixel (0.02 mm at 600 dpi) of it; :class:`FrameImage` gives the
  exact placement.
* **The border is stretched to the page.**  It is bleed and background: what matters is
  that it covers the whole page, centred.  When its pixel grid differs from the
  template's (the borders are 599.0 dpi, several templates 600.0) it is resampled with
  Lanczos to the page's pixel size; its scale then differs from the nominal by less
  than 0.05 %.
* **The back is never resampled** (the Arcmage logo on it is CC BY-ND 4.0: it must
  print unmodified): the page is laid on the back's own pixel grid, and only the border
  is resampled.  Where the back is opaque the output holds its very pixels.
* **Flattened RGB, no alpha.**  The build converts the image to CMYK through the
  output profile (``artwork.prepare``); what is transparent in the template shows the
  border, what is transparent in both is white, the paper.
* **The resolution comes from the PNG (pHYs) when its physical size is right** (within
  :data:`SIZE_TOLERANCE_MM`), else from the pixels and the nominal width: a few
  official templates (Gaian creature, city and player) are 562 dpi images whose pHYs
  says 599.8.  The pixels' shape must then match the nominal shape closely
  (:data:`SHAPE_TOLERANCE_MM`), so that a wrong file (the back given as a template) is
  refused rather than stretched.
* **Written atomically** (:mod:`translator.atomic`): an interrupted import leaves the
  old image or the new one, never half of one.

Cost: decoding a template, resampling a faction's border (once for its six types) and
writing the PNG make most of an import's time; at most two 10 MB borders are kept.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms, ImageFile, UnidentifiedImageError

from ...atomic import replacing
from ...limits import MAX_IMAGE_BYTES
from ...textio import InputError, read_file

MM_PER_INCH = 25.4

PAGE_MM = (68.0, 94.0)
"""The print page: the 64 x 90 mm card plus 2 mm of bleed on every side."""
TEMPLATE_MM = (65.0, 92.0)
"""A card template's page (230.31496 x 325.98425 units of 1/90 inch)."""
BACK_MM = (64.0, 90.0)
"""The official back: the trimmed card."""

SIZE_TOLERANCE_MM = 1.0
"""How far an input's physical size (pixels over its stated dpi) may be from the
nominal, on each side."""
SHAPE_TOLERANCE_MM = 0.25
"""How far an input's height may be from the nominal when its resolution is derived
from its width (its pHYs is missing or wrong): the official Gaian templates are within
0.01 mm; the back given as a template is 0.6 mm off."""

PNG_COMPRESS_LEVEL = 1
"""zlib level of the written PNGs.  The images are intermediate (a build converts them
to CMYK JPEGs once, kept in the user's store of conversions): the fastest level writes a
frame in a third of the time of Pillow's default 6, for files about a fifth larger, and
writing the frames is the import's largest cost after decoding the templates."""


@dataclass(frozen=True, slots=True)
class FrameImage:
    """A written print page image: where, its pixel size and resolution, and where the
    template (or the back) lies on it, in mm from the page's top-left corner."""

    path: Path
    size_px: tuple[int, int]
    dpi: float
    placement_mm: tuple[float, float, float, float]
    """x, y, width, height of the template's (or back's) image on the page."""

    @property
    def page_mm(self) -> tuple[float, float]:
        """The image's physical size at :attr:`dpi` (the nominal page within half a
        pixel; the page box it is drawn into stretches it by less than 0.05 %)."""
        return (self.size_px[0] / self.dpi * MM_PER_INCH, self.size_px[1] / self.dpi * MM_PER_INCH)


@dataclass(frozen=True, slots=True)
class Raster:
    """An input image, decoded to RGBA (sRGB), with the resolution it is used at."""

    path: Path
    image: Image.Image
    dpi: float


def compose_frame(
    template_png: Path,
    border_png: Path,
    out: Path,
    *,
    page_mm: tuple[float, float] = PAGE_MM,
    template_mm: tuple[float, float] = TEMPLATE_MM,
    within: Path | None = None,
) -> FrameImage:
    """Write ``out``: the faction's print border over the whole page with the card
    template composited over it, centred, at the template's resolution, flattened to
    RGB (see the module's description).  A file of the wrong size or that cannot be
    read raises an :class:`InputError` naming it; nothing is written then.  ``within``:
    the folder ``out`` must lie in, links followed (default: its own folder)."""
    template = load(template_png, template_mm, "a card template")
    ground = border_ground(border_png, page_mm, template.dpi, template_mm)
    image, placement = composite(template, ground, page_mm, template_mm)
    return _write(image, out, template.dpi, placement, within)


def compose_back(
    back_png: Path,
    border_png: Path,
    out: Path,
    *,
    page_mm: tuple[float, float] = PAGE_MM,
    back_mm: tuple[float, float] = BACK_MM,
    within: Path | None = None,
) -> FrameImage:
    """Write ``out``: the official back over the generic print border, centred, on the
    back's own pixel grid (the back is never resampled: where it is opaque, ``out``
    holds its pixels unchanged), flattened to RGB; ``within`` as for
    :func:`compose_frame`."""
    back = load(back_png, back_mm, "the card back")
    ground = border_ground(border_png, page_mm, back.dpi, back_mm)
    image, placement = composite(back, ground, page_mm, back_mm)
    return _write(image, out, back.dpi, placement, within)


def composite(
    inner: Raster,
    ground: Image.Image | None,
    page_mm: tuple[float, float],
    inner_mm: tuple[float, float],
) -> tuple[Image.Image, tuple[float, ...]]:
    """``inner`` pasted over ``ground`` (the page on ``inner``'s pixel grid, RGB, see
    :func:`border_ground`; changed in place; white when None) at its nominal centred
    offset, and ``inner``'s placement (x, y, width, height) in mm.  Kept apart from
    the writing so that tests can build the same page in memory."""
    size, offset = page_grid(page_mm, inner_mm, inner.dpi)
    width, height = inner.image.size
    if (
        offset[0] < 0
        or offset[1] < 0
        or offset[0] + width > size[0]
        or offset[1] + height > size[1]
    ):
        raise InputError(
            str(inner.path),
            f"the image ({width} x {height} px) does not fit "
            f"the {page_mm[0]:g} x {page_mm[1]:g} mm page at its "
            f"{inner.dpi:.1f} dpi: use the template set's own file",
        )
    page = ground if ground is not None else Image.new("RGB", size, "white")
    if page.size != size or page.mode != "RGB":
        raise ValueError(f"the ground is {page.mode} {page.size}, the page {size}")
    page.paste(inner.image, offset, inner.image)  # straight alpha "over" an opaque page
    scale = MM_PER_INCH / inner.dpi
    placement = (offset[0] * scale, offset[1] * scale, width * scale, height * scale)
    return page, placement


def border_ground(
    border_png: Path, page_mm: tuple[float, float], dpi: float, inner_mm: tuple[float, float]
) -> Image.Image:
    """The print border as the page's ground on the pixel grid of an inner image at
    ``dpi``: flattened on white, resampled to the page's pixel size when it differs
    (see the module's description).  A fresh copy each time: the six card types of a
    faction share one border, decoded and resampled once (:func:`_cached_ground`)."""
    size, _offset = page_grid(page_mm, inner_mm, dpi)
    try:
        stat = border_png.stat()
        stamp: tuple[int, ...] = (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = ()  # not cached: load() names the problem
    if not stamp:
        return _flat(load(border_png, page_mm, "a print border").image, size)
    return _cached_ground(border_png, stamp, page_mm, size).copy()


@lru_cache(maxsize=2)
def _cached_ground(
    border_png: Path, stamp: tuple[int, ...], page_mm: tuple[float, float], size: tuple[int, int]
) -> Image.Image:
    """:func:`border_ground`'s work, kept for the next frame of the same faction;
    ``stamp`` (device, inode, mtime, size) makes a changed file a new entry.  Two
    entries: a faction's border at its templates' one or two resolutions (10 MB
    each)."""
    del stamp  # part of the key only
    return _flat(load(border_png, page_mm, "a print border").image, size)


def page_grid(
    page_mm: tuple[float, float], inner_mm: tuple[float, float], dpi: float
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The page's pixel size at ``dpi`` and the pixel offset of the centred inner image
    (the nominal offset, half the difference of the sizes, rounded): shared by the
    frames and by the comparisons of tests/typeset/official_look.py."""
    pixels = dpi / MM_PER_INCH
    size = (round(page_mm[0] * pixels), round(page_mm[1] * pixels))
    offset = (
        round((page_mm[0] - inner_mm[0]) / 2 * pixels),
        round((page_mm[1] - inner_mm[1]) / 2 * pixels),
    )
    return size, offset


def load(path: Path, size_mm: tuple[float, float], what: str) -> Raster:
    """``path`` decoded to RGBA in sRGB, with its resolution (see the module's
    description); an :class:`InputError` naming it when it cannot be read or is not
    ``size_mm`` large."""
    image = _decode(path)
    dpi = resolution(image, size_mm)
    if dpi is None:
        raise InputError(str(path), _size_problem(image, size_mm, what))
    return Raster(path, image, dpi)


def resolution(image: Image.Image, size_mm: tuple[float, float]) -> float | None:
    """The dpi ``image`` is ``size_mm`` large at: its pHYs dpi when that gives the size
    within :data:`SIZE_TOLERANCE_MM`, else its width over the nominal width when its
    height then matches within :data:`SHAPE_TOLERANCE_MM`; None when neither does."""
    width, height = image.size
    stated = image.info.get("dpi")
    if stated and len(stated) == 2 and stated[0] > 0 and abs(stated[0] - stated[1]) < 0.01:
        dpi = float(stated[0])
        if _within(width / dpi * MM_PER_INCH, size_mm[0], SIZE_TOLERANCE_MM) and _within(
            height / dpi * MM_PER_INCH, size_mm[1], SIZE_TOLERANCE_MM
        ):
            return dpi
    dpi = width / size_mm[0] * MM_PER_INCH
    if dpi > 0 and _within(height / dpi * MM_PER_INCH, size_mm[1], SHAPE_TOLERANCE_MM):
        return dpi
    return None


def _within(value: float, nominal: float, tolerance: float) -> bool:
    return abs(value - nominal) <= tolerance


def _size_problem(image: Image.Image, size_mm: tuple[float, float], what: str) -> str:
    """Why ``image`` is refused, in one line: its size as stated and the size wanted."""
    width, height = image.size
    stated = image.info.get("dpi")
    if stated and stated[0] > 0 and stated[1] > 0:
        found = (
            f"{width / stated[0] * MM_PER_INCH:.1f} x "
            f"{height / stated[1] * MM_PER_INCH:.1f} mm ({width} x {height} px at "
            f"{stated[0]:.1f} dpi)"
        )
    else:
        found = f"{width} x {height} px with no resolution, a {width / height:.4f} shape"
    return (
        f"the image is {found}; {what} must be {size_mm[0]:g} x {size_mm[1]:g} mm "
        f"(+/- {SIZE_TOLERANCE_MM:g} mm), or that shape: use the file of the "
        f"official template set"
    )


def _decode(path: Path) -> Image.Image:
    """``path`` fully decoded (a truncated file is refused, whatever WeasyPrint set
    globally) as RGBA in sRGB, with its ``dpi`` kept in ``info``.  Read by the one
    reader of files (a regular file of at most :data:`~translator.limits.MAX_IMAGE_BYTES`:
    no FIFO waited for, no device read without end)."""
    try:
        data = read_file(path, MAX_IMAGE_BYTES, "template image")
    except InputError as error:
        if error.message == "no such file":
            raise InputError(str(path), "no such file: the template set is incomplete") from None
        raise
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(data)) as opened:
            opened.load()
            info = dict(opened.info)
            image = _to_srgb(opened, info.get("icc_profile"))
    except (
        OSError,
        SyntaxError,
        ValueError,
        UnidentifiedImageError,
        Image.DecompressionBombError,
    ) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise InputError(
            str(path), f"cannot read this image ({reason}): use a PNG of the official template set"
        ) from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    image.info = {key: info[key] for key in ("dpi",) if key in info}
    return image


def _to_srgb(image: Image.Image, icc: bytes | None) -> Image.Image:
    """``image`` as RGBA, converted to sRGB when it embeds another RGB profile (the
    official files embed none: untagged means sRGB; an unusable profile is ignored, as
    for artwork)."""
    rgba = image.convert("RGBA")
    if not icc:
        return rgba
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        if source.profile.xcolor_space.strip() != "RGB":
            return rgba
        srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
        converted = ImageCms.profileToProfile(
            rgba,
            source,
            srgb,
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            outputMode="RGBA",
        )
    except (OSError, ImageCms.PyCMSError):
        return rgba
    return converted if converted is not None else rgba


def _flat(border: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``border`` flattened on white (RGB) and, when its pixel size is not ``size``,
    resampled to it with Lanczos (after flattening, so that no transparent pixel's
    colour bleeds in)."""
    low, _high = border.getchannel("A").getextrema()
    if low == 255:
        flat = border.convert("RGB")
    else:
        flat = Image.new("RGB", border.size, "white")
        flat.paste(border, (0, 0), border)
    if flat.size != size:
        flat = flat.resize(size, Image.Resampling.LANCZOS)
    return flat


def _write(
    image: Image.Image,
    out: Path,
    dpi: float,
    placement: tuple[float, ...],
    within: Path | None,
) -> FrameImage:
    """Write ``image`` to ``out`` as PNG with its dpi, atomically, readable by all and
    writable by its owner only (0644), inside ``within`` (default: ``out``'s folder)."""
    with replacing(out, 0o644, within=out.parent if within is None else within) as temporary:
        image.save(temporary, "PNG", dpi=(dpi, dpi), compress_level=PNG_COMPRESS_LEVEL)
    x, y, width, height = placement
    return FrameImage(out, image.size, dpi, (x, y, width, height))
