"""Card artwork for print: CMYK JPEGs made through an ICC profile, cached, checked.

A print shop wants CMYK.  Designing the frames in ``device-cmyk`` takes care of the
templates; artwork is RGB (screens, the generated sample art), so it is converted here,
once, with a colour-managed transform (Pillow's ImageCms, i.e. LittleCMS) into the
printer's CMYK space.  The profile used is the PDF's output intent, so the renderer
gets it from :func:`find_profile` and the images from :func:`prepare`.

Choices, and why:

* **JPEG, not TIFF, and no embedded ICC profile.**  WeasyPrint cannot load CMYK TIFF;
  it embeds a CMYK JPEG as ``/DeviceCMYK /DCTDecode`` untouched.  An embedded profile
  would be copied into the PDF with every image (550 KB instead of 50 KB) and says
  nothing the output intent does not already say.
* **Perceptual rendering intent.**  Screen RGB art (glows, saturated skies) lies partly
  outside a press gamut.  Relative colorimetric clips those colours, flattening
  gradients into bands; perceptual compresses the whole gamut smoothly, which is what
  paintings and photographs want.  (Logos and flat spot colours would prefer
  colorimetric, but those are drawn in ``device-cmyk`` by the templates, not here.)
* **Black point compensation.**  sRGB's black is darker than any press's: without it
  every shadow under the press's black clips to one flat black (the official look's
  dark frames lost their depth, ΔE76 about 9 against the template), and the soft proof,
  which compensates (:mod:`.preview`), showed them darker still.  With it, the image's
  black maps to the press's and the shadows keep their steps (ΔE76 about 2).
* **Untagged images are sRGB**; an image's own embedded RGB or grey profile is honoured
  (one that cannot be used is ignored, and sRGB assumed, silently: it is the usual
  meaning of a broken tag, and a warning could not be repeated on a cache hit).
* **Greyscale goes through the profile as sRGB grey** (R = G = B), not to K only: the
  printer's profile decides the black generation and dot gain for every image alike,
  so a grey picture next to a colour one prints with the same tones.  (A K-only grey
  would be cleaner to register, but its tones would follow no profile.)
* **CMYK images are re-encoded as they are**: they were separated for a press already;
  converting CMYK to CMYK would redo the black generation and muddy the blacks.
* **Transparency is flattened on white**, the card stock under the art.
* **EXIF orientation is applied**: the output carries no EXIF, so a rotated camera
  picture would otherwise print sideways.
* **The cache key is the content**, not the file name or time: sha256 of the source
  bytes, the profile's sha256, :data:`CONVERSION_VERSION` and :data:`JPEG_QUALITY`
  (and the intent).  A hit costs reading and hashing the source plus a JPEG header
  read: 0.1 ms for the sample's 70 KB images, about 1 ms for a 1 MB JPEG.  Files are written
  through a temporary file and ``os.replace``, so a parallel worker never reads half
  an image.  A cached file is read only as the cache folder's own regular file
  (:func:`translator.paths.open_beneath`: no link followed, no FIFO waited on); a
  link, a FIFO or a damaged JPEG in its place is removed and the image converted
  again, never a file read from elsewhere into a PDF, never a hang.
* **A bad image never stops a deck**: missing or unreadable artwork gives a warning and
  a placeholder :class:`Artwork` (``path`` None) that the template draws as a flat
  tint box with the words "artwork missing".
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import os
import shutil
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms, ImageFile, ImageMath, ImageOps, UnidentifiedImageError

from ..atomic import replacing, sweep
from ..cache import PRIVATE_FILE, PRIVATE_FOLDER, cache_directory, mac
from ..limits import MAX_IMAGE_BYTES
from ..paths import open_beneath
from ..pdf.profiles import INK_LIMIT, Profile, band_extrema, band_sum
from ..textio import InputError, read_file

PRINT_PPI = 300
"""The resolution artwork needs at print size; below it a warning names the card."""

JPEG_QUALITY = 92
"""Quality of the cached CMYK JPEGs, a usual print setting.  The sample's 1200 x 992 px
images become 250-390 KB (all four channels at full resolution); 95 would make them
about 40 % larger, 88 about 15 % smaller."""

CONVERSION_VERSION = 2  # 2: black point compensation
"""Part of the cache key: raise it whenever the conversion's output changes."""

INK_HEADROOM = 10.0
"""Percent kept under the ink limit when converting: a profile's blacks reach its own
limit (298 % with Ghostscript's SWOP profile), and JPEG's ringing around dark detail
adds up to ~9 % more, which the preflight would then find."""

RENDERING_INTENT = ImageCms.Intent.PERCEPTUAL
"""Perceptual: out-of-gamut screen colours are compressed, not clipped (see above)."""


@dataclass(frozen=True)
class Artwork:
    """A card's artwork ready for the template.

    ``path`` is the CMYK JPEG in the cache, or None for a placeholder (missing or
    unreadable source: the template draws a tint box saying "artwork missing").
    ``ppi`` is the effective resolution once the image covers the artwork box
    (CSS ``object-fit: cover``); 0 for a placeholder.  ``warnings`` are complete
    messages naming the card, for the renderer to report."""

    path: Path | None
    width_px: int
    height_px: int
    ppi: float
    warnings: tuple[str, ...] = ()

    @property
    def placeholder(self) -> bool:
        """True when there is no image to print, only the placeholder box."""
        return self.path is None


# --------------------------------------------------------------------------- profiles


@lru_cache(maxsize=1)
def _srgb() -> ImageCms.ImageCmsProfile:
    """LittleCMS's built-in sRGB: what an untagged image means."""
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@lru_cache(maxsize=16)
def _transform(
    profile: Profile, mode: str, source_icc: bytes | None, intent: ImageCms.Intent
) -> ImageCms.ImageCmsTransform:
    """A transform from ``mode`` (RGB or L) in ``source_icc`` (None: sRGB) to the
    profile's CMYK.  Building one costs ~13 ms with the SWOP profile: once per run."""
    source = _srgb() if source_icc is None else ImageCms.ImageCmsProfile(io.BytesIO(source_icc))
    transform = ImageCms.buildTransform(
        source,
        profile.cms_profile(),
        mode,
        "CMYK",
        intent,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    # Pillow declares a profile here, and reads only its tobytes() (see _NoTag).
    transform.output_profile = _NoTag()  # type: ignore[assignment]
    return transform


class _NoTag:
    """Stands in for the output profile of a transform.

    Pillow re-serialises the output profile into every converted image's
    ``info["icc_profile"]``: wasted work, since the cached JPEG carries no profile, and
    LittleCMS cannot serialise some valid printer profiles at all (Ghostscript's
    ``ps_cmyk.icc``: "Could not determine profile size").  Should Pillow stop reading
    this attribute, the conversion still works for every profile that serialises."""

    def tobytes(self) -> bytes:
        return b""


# --------------------------------------------------------------------------- artwork


def effective_ppi(width_px: int, height_px: int, box_mm: tuple[float, float]) -> float:
    """Resolution of an image scaled to cover a box of ``box_mm`` (width, height) and
    cropped, as CSS ``object-fit: cover`` does: the scale is set by the axis that
    needs the most enlargement, so the ppi is the smaller of pixels per inch of the
    two axes."""
    box_w, box_h = box_mm
    if box_w <= 0 or box_h <= 0:
        raise ValueError(f"artwork box must be positive, got {box_w} x {box_h} mm")
    return min(width_px * 25.4 / box_w, height_px * 25.4 / box_h)


def _cache_key(source: bytes, profile: Profile, ink_limit: float = INK_LIMIT) -> str:
    """The cache file's name (without ``.jpg``): everything the output depends on."""
    key = hashlib.sha256(source).hexdigest()
    parts = (
        f"v{CONVERSION_VERSION}",
        key,
        profile.sha256,
        f"q{JPEG_QUALITY}",
        f"intent{int(RENDERING_INTENT)}",
        f"ink{ink_limit:g}",
    )
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def prepare(
    image_path: Path | None,
    profile: Profile,
    cache_dir: Path,
    *,
    box_mm: tuple[float, float],
    card: str,
    ink_limit: float = INK_LIMIT,
) -> Artwork:
    """The card's artwork as a CMYK JPEG in ``cache_dir``, converted once per content.

    ``box_mm`` is the artwork box (width, height in mm) the image covers; ``card``
    names the card in warnings.  Never raises for a bad image: a missing, unreadable
    or undecodable file gives a placeholder and a warning.  (An unusable profile or
    an unwritable cache directory does raise: those stop every card alike.)"""
    if image_path is None:
        return Artwork(None, 0, 0, 0.0, (f"{card}: no artwork given: a placeholder is printed",))
    try:
        source = read_file(image_path, MAX_IMAGE_BYTES, "image")
    except InputError as exc:
        if exc.message == "no such file":
            return Artwork(
                None,
                0,
                0,
                0.0,
                (f"{card}: artwork {image_path} not found: a placeholder is printed",),
            )
        return _unreadable(card, image_path, exc.message)

    target = cache_dir / f"{_cache_key(source, profile, ink_limit)}.jpg"
    size = _cached_size(cache_dir, target.name)
    if size is None:
        size = _from_store(target)
    if size is None:
        try:
            image, icc = _decode(source)
        except Exception as exc:  # Pillow's decoders raise many kinds: all mean "bad file"
            return _unreadable(card, image_path, _reason(exc))
        converted = limit_ink(_to_cmyk(image, icc, profile), ink_limit - INK_HEADROOM)
        data = _jpeg(converted)
        _write_atomic(target, data)
        _to_store(target.name, data)
        size = converted.size

    width, height = size
    ppi = effective_ppi(width, height, box_mm)
    warnings: tuple[str, ...] = ()
    if ppi < PRINT_PPI:
        warnings = (
            f"{card}: artwork {image_path.name} is {ppi:.0f} ppi at print size "
            f"({PRINT_PPI} wanted)",
        )
    return Artwork(target, width, height, ppi, warnings)


def _unreadable(card: str, image_path: Path, reason: str) -> Artwork:
    return Artwork(
        None,
        0,
        0,
        0.0,
        (f"{card}: artwork {image_path} cannot be read ({reason}): a placeholder is printed",),
    )


def _reason(exc: Exception) -> str:
    """A short reason for the warning (Pillow's "cannot identify image file
    <_io.BytesIO ...>" would only confuse)."""
    if isinstance(exc, UnidentifiedImageError):
        return "not an image file Pillow can read"
    if isinstance(exc, Image.DecompressionBombError):
        return "too many pixels"
    return str(exc) or type(exc).__name__


def _cached_size(cache_dir: Path, name: str) -> tuple[int, int] | None:
    """The size of the cached JPEG ``name`` from its header, or None when there is
    none, or it is damaged (edited by hand: it is then converted again), or it is not
    the cache folder's own regular file: a link (wherever it leads) or a FIFO is
    never read (:func:`translator.paths.open_beneath`), and is removed so that the
    conversion takes its place (:func:`_discard`)."""
    found = _cached(cache_dir, name)
    return None if found is None else found[1]


def _cached(cache_dir: Path, name: str) -> tuple[bytes, tuple[int, int]] | None:
    """The bytes and size of the cached JPEG ``name`` (see :func:`_cached_size`)."""
    try:
        descriptor = open_beneath(cache_dir, name, what="converted image")
    except FileNotFoundError:
        return None
    except OSError:  # a link, a FIFO, a device, a folder: not ours to read
        _discard(cache_dir / name)
        return None
    try:
        with os.fdopen(descriptor, "rb") as stream:
            data = stream.read(MAX_IMAGE_BYTES + 1)
        if not _sealed(cache_dir, name, data):
            return None
        with Image.open(io.BytesIO(data)) as cached:
            if cached.format == "JPEG" and cached.mode == "CMYK":
                return data, cached.size
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        pass
    return None


# -- the user's store of converted images -----------------------------------------------
#
# A build's cache folder lives in its output folder, so a build into a new folder (a
# second output, a CI job, a test) would convert every image again, the costliest part
# of a build's work after the layout (the official look's frames most of all).  Each
# conversion is also kept in the user's cache folder
# (:func:`translator.cache.cache_directory`), by the same content key and sealed the
# same way, and copied from there into a build's cache folder that lacks it: the
# build's folder still holds every image its PDFs name.  The store keeps the images
# used last, up to :data:`STORE_BYTES`.

STORE_FOLDER = "converted-images"
"""The store's folder in the user's cache folder."""

STORE_BYTES = 1 << 30
"""What the store may hold; past it, the images used longest ago are removed until it
holds three quarters of it."""


def _store() -> Path | None:
    """The store's folder, or None when the user keeps no cache (``TRANSLATOR_CACHE=``,
    or a cache folder that is not the user's own)."""
    directory = cache_directory()
    return None if directory is None else directory / STORE_FOLDER


def _from_store(target: Path) -> tuple[int, int] | None:
    """Copy the converted image ``target`` names from the store into its cache folder,
    with its seal; its size, or None when the store lacks it (or it does not verify).
    The entry is marked used (its time), for :func:`_trim_store`."""
    store = _store()
    if store is None:
        return None
    found = _cached(store, target.name)
    if found is None:
        return None
    data, size = found
    _write_atomic(target, data)
    with contextlib.suppress(OSError):
        os.utime(store / target.name)
    return size


def _to_store(name: str, data: bytes) -> None:
    """Keep a new conversion in the store (readable by the user alone); a store that
    cannot be written only makes a build into another folder slower."""
    store = _store()
    if store is None:
        return
    try:
        store.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
        _write_atomic(store / name, data, PRIVATE_FILE)
        _trim_store(store)
    except OSError:
        return


def _trim_store(store: Path) -> None:
    """Remove the images used longest ago (and their seals) while the store holds more
    than :data:`STORE_BYTES`, down to three quarters of it; and what killed writers
    left there (:func:`translator.atomic.sweep`)."""
    sweep(store)
    entries = []
    total = 0
    with os.scandir(store) as listing:
        for entry in listing:
            if entry.name.endswith(".jpg") and entry.is_file(follow_symlinks=False):
                info = entry.stat(follow_symlinks=False)
                entries.append((info.st_mtime_ns, info.st_size, entry.name))
                total += info.st_size
    if total <= STORE_BYTES:
        return
    for _time, size, name in sorted(entries):
        (store / name).unlink(missing_ok=True)
        (store / _seal_name(name)).unlink(missing_ok=True)
        total -= size
        if total <= STORE_BYTES * 3 // 4:
            break


def _seal_name(name: str) -> str:
    return f"{name}.seal"


def _sealed(cache_dir: Path, name: str, data: bytes) -> bool:
    """Whether the converted image ``name`` holds the very bytes this user's runs wrote
    for that name (its seal beside it, :func:`_seal`): a cache folder in an output
    folder is shared, and two images swapped there (with their seals or not) would
    print each card with the other's artwork; an image another hand wrote or changed
    is converted again."""
    try:
        seal = read_file(cache_dir / _seal_name(name), 1024, "seal", beneath=cache_dir)
    except InputError:
        return False
    return hmac.compare_digest(seal, _seal(name, data))


def _seal(name: str, data: bytes) -> bytes:
    """The seal of the image ``data`` kept as ``name``: the name (the digest of what
    it was converted from) is sealed with the bytes, so that two images swapped with
    their seals still do not verify."""
    return mac(name.encode("utf-8") + b"\0" + data).encode("ascii")


def _discard(entry: Path) -> None:
    """Remove what stands at a cache entry's name and is not a regular file (a link is
    removed itself, never followed; a folder with what it holds): the converted image
    is written in its place.  What cannot be removed makes the write fail, naming
    it."""
    try:
        mode = entry.lstat().st_mode
        if stat.S_ISDIR(mode):
            shutil.rmtree(entry)
        elif not stat.S_ISREG(mode):
            entry.unlink()
    except OSError:
        pass


def _decode(source: bytes) -> tuple[Image.Image, bytes | None]:
    """The image in ``source``, fully decoded (so that a truncated file fails here and
    becomes a placeholder), turned upright by its EXIF orientation, and either CMYK or
    flattened to RGB or L (see :func:`_flatten`); with its usable embedded profile."""
    # WeasyPrint sets Pillow's global LOAD_TRUNCATED_IMAGES on import, which would let
    # a cut-off file through as a half-grey picture: refuse it here, for the decode only.
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(source)) as opened:
            opened.load()
            image = ImageOps.exif_transpose(opened)  # a copy, upright, apart from the file
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    if image.mode == "CMYK":
        return image, None
    return _flatten(image)


def solid_cmyk(rgb: tuple[int, int, int], profile: Profile) -> tuple[float, float, float, float]:
    """An sRGB colour (a theme's flat text or shape colour) as CMYK percentages in the
    profile's space, relative colorimetric: a flat colour in gamut keeps its look
    exactly, one outside is clipped to the nearest (perceptual would shift every colour
    to make room for a gamut it does not have)."""
    pixel = Image.new("RGB", (1, 1), rgb)
    converted = ImageCms.applyTransform(
        pixel, _transform(profile, "RGB", None, ImageCms.Intent.RELATIVE_COLORIMETRIC)
    )
    assert converted is not None  # applyTransform returns the image unless in place
    bands = converted.getpixel((0, 0))
    assert isinstance(bands, tuple)  # a CMYK image's pixel: its four bands
    c, m, y, k = bands
    return (round(c / 2.55, 1), round(m / 2.55, 1), round(y / 2.55, 1), round(k / 2.55, 1))


def _to_cmyk(image: Image.Image, icc: bytes | None, profile: Profile) -> Image.Image:
    """``image`` (CMYK, RGB or L, in ``icc`` or sRGB) as CMYK in the profile's space,
    with no ICC profile or EXIF attached."""
    if image.mode == "CMYK":
        cmyk = image  # separated already: re-encoded as is, no transform
    else:
        try:
            transform = _transform(profile, image.mode, icc, RENDERING_INTENT)
        except (OSError, ImageCms.PyCMSError):  # an odd embedded profile: assume sRGB
            if image.mode == "L":
                image = image.convert("RGB")
            transform = _transform(profile, image.mode, None, RENDERING_INTENT)
        converted = ImageCms.applyTransform(image, transform)
        assert converted is not None  # None only with inPlace=True
        cmyk = converted
    cmyk.info = {}  # no ICC profile (it would be copied into the PDF per image), no EXIF
    return cmyk


def limit_ink(image: Image.Image, limit: float) -> Image.Image:
    """``image`` (CMYK) with at most ``limit`` % of total ink: where a pixel has more,
    its cyan, magenta and yellow are lowered in proportion and its black kept (black
    carries the detail of the shadows; the shift of hue is small in such dark
    colours).  Computed by ImageMath in C: ~50 ms for a 1200 x 992 image, once per
    image thanks to the cache."""
    cap = limit * 2.55
    c, m, y, k = image.split()
    total = band_sum(c, m, y, k)
    if band_extrema(total)[1] <= cap:
        return image
    factor = ImageMath.lambda_eval(
        lambda e: (
            1.0
            - e["max"](e["float"](e["t"]) - cap, 0.0)
            / e["max"](e["float"](e["c"] + e["m"] + e["y"]), 1.0)
        ),
        t=total,
        c=c,
        m=m,
        y=y,
    )
    lowered = [
        ImageMath.lambda_eval(lambda e: e["float"](e["b"]) * e["f"], b=band, f=factor).convert("L")
        for band in (c, m, y)
    ]
    limited = Image.merge("CMYK", (*lowered, k))
    limited.info = image.info
    return limited


def _flatten(image: Image.Image) -> tuple[Image.Image, bytes | None]:
    """``image`` as opaque RGB or L, transparency composited on white, with the
    embedded ICC profile to convert it from (None: sRGB)."""
    icc: bytes | None = image.info.get("icc_profile") or None
    mode = image.mode
    if mode.startswith("I"):  # 16- or 32-bit grey (16-bit PNG): scale to 8 bits
        image = image.convert("I")
        high = image.getextrema()[1]
        if isinstance(high, int | float) and high > 255:
            image = image.point(lambda v: v / 257)
        image = image.convert("L")
    elif mode in ("1", "F"):
        image = image.convert("L")
    elif mode in ("P", "L", "RGB") and "transparency" in image.info:
        image = image.convert("LA" if mode == "L" else "RGBA")
    elif mode == "P":
        image = image.convert("RGB")
    elif mode in ("PA", "RGBa"):
        image = image.convert("RGBA")
    elif mode == "La":
        image = image.convert("LA")

    if image.mode in ("RGBA", "LA"):
        opaque = image.mode[0] if image.mode == "LA" else "RGB"
        white = Image.new(opaque, image.size, 255 if opaque == "L" else (255, 255, 255))
        white.paste(image.convert(opaque), mask=image.getchannel("A"))
        image = white
    elif image.mode not in ("RGB", "L"):
        image = image.convert("RGB")  # YCbCr, RGBX, HSV, LAB...: Pillow knows best

    if icc is not None and not _usable(icc, image.mode):
        icc = None
    if icc is None and image.mode == "L":
        image = image.convert("RGB")  # untagged grey is sRGB grey, as browsers show it
    return image, icc


def _usable(icc: bytes, mode: str) -> bool:
    """True when an embedded profile parses and matches the image (RGB or GRAY)."""
    try:
        space = ImageCms.ImageCmsProfile(io.BytesIO(icc)).profile.xcolor_space.strip()
    except (OSError, ImageCms.PyCMSError):
        return False
    return space == ("RGB" if mode == "RGB" else "GRAY")


def _jpeg(image: Image.Image) -> bytes:
    """``image`` (CMYK) as the JPEG printed."""
    buffer = io.BytesIO()
    # Baseline (not progressive) for the widest RIP support; Huffman tables
    # optimised: lossless and ~6 % smaller.  No icc_profile= (see above).
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return buffer.getvalue()


def _write_atomic(target: Path, data: bytes, mode: int = 0o644) -> None:
    """Write the JPEG through a temporary file in the same directory and rename it:
    readers (other cards, other worker processes) see the whole file or none; then its
    seal (:func:`_sealed`), so that an image without one is never taken as made."""
    folder = target.parent
    with replacing(target, mode, within=folder) as temporary:
        temporary.write_bytes(data)
    seal = folder / _seal_name(target.name)
    _discard(seal)
    with replacing(seal, mode, within=folder) as temporary:
        temporary.write_bytes(_seal(target.name, data))
