"""Pictures of printed cards: soft proofs of card PDFs, and a contact sheet of a deck.

Made from the very PDFs sent to print, as **soft proofs**: Ghostscript renders the
page to the press's CMYK (its inks as the plates get them, overprint included), and
LittleCMS (Pillow's ImageCms) converts those through the PDF's own output profile
(its output intent) to sRGB.  So a reviewer sees the colours of the press the files
are made for.  A viewer does not: the naive conversion (R = (1 - C)(1 - K) ...)
ignores dot gain and paper and makes every shadow far darker than print (K 80 % is
RGB 51; printed on SWOP paper it is about 88), and PDFium (pypdfium2's build) uses one
built-in table close to US SWOP whatever profile the PDF names: right within 3 levels
for the default profile, wrong for a FOGRA39 or any other press (``--icc``), and
blind to overprint (black text over a tint shows as black on paper white).

The rendering intent is **relative colorimetric with black point compensation**:
paper white becomes screen white and the press's deepest black screen black, the
tones between as the press reproduces them, as Acrobat's and Photoshop's soft proofs
show them by default.  Absolute colorimetric ("simulate paper colour") would tint the
whole card with the paper's own white and grey its blacks: truer on a calibrated
screen beside a print, but on a web page or a review sheet, next to true white, it
only reads as a dull, yellowish card.

The contact sheet and the review sheets' pictures are soft proofs too (they call
:func:`render_png`): everyone reviews the same colours.  Where Ghostscript is
missing, cannot read a PDF, or the PDF has no CMYK output intent, the picture is
PDFium's render (pypdfium2) with its built-in conversion: the layout is exact, the
colours indicative.  Either way the picture has PDFium's size (its page size at
``dpi``, rounded up), so a preview is the same size whichever made it.

Cost, a sample card with artwork, median of 7 on a shared 2-core machine: 255 ms a
preview at 300 dpi (PDFium: 85 ms), 217 ms at 96 dpi (PDFium: 25 ms), of which the
conversion is 19 ms at 300 dpi; the rest is Ghostscript, most of it its start and
reading the file (about 0.18 s for any page).  So many cards in one run cost far
less: the contact sheet renders all its cards in one (24 cards at 90 dpi: 1.1 s,
PDFium 0.6 s).
"""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import pikepdf
import pypdfium2
from PIL import Image, ImageCms, ImageDraw

from ..pdf.preflight.ink import pam_pages
from ..pdf.textcheck import intent_profile

PROOF_INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC
"""Relative colorimetric, with black point compensation (:data:`PROOF_FLAGS`): see
the module's description."""
PROOF_FLAGS = ImageCms.Flags.BLACKPOINTCOMPENSATION

PROOF_VERSION = 1
"""Part of a preview's digest: raise it whenever the soft proof's pixels change."""

FILES_PER_RUN = 100
"""Files given to one Ghostscript run (a command line has a length limit)."""

GS_TIMEOUT = 600.0
"""Seconds a Ghostscript run may take (a run that hangs must not hang the build)."""


def rendering() -> str:
    """What makes the previews here and now: part of their digest, so that previews
    made by PDFium are made again once Ghostscript is installed."""
    if not proof_available():
        return "pdfium"
    return f"soft proof {PROOF_VERSION} ({PROOF_INTENT.name.lower()}, bpc)"


def proof_available() -> bool:
    """True when Ghostscript (``gs``) can render the soft proofs."""
    return shutil.which("gs") is not None


def render_png(
    pdf: str | Path, dpi: float = 300, trim: float | None = None, proof: bool = True
) -> Image.Image:
    """The first page of ``pdf`` at ``dpi``, in sRGB; ``trim`` mm cut from each side
    (the bleed).  A soft proof (:func:`soft_proofs`) unless ``proof`` is False."""
    if proof:
        return soft_proofs([pdf], dpi, trim)[0]
    return _cut(_pdfium(Path(pdf), dpi), dpi, trim)


def soft_proofs(
    pdfs: Sequence[str | Path], dpi: float = 300, trim: float | None = None, strict: bool = False
) -> list[Image.Image]:
    """The first page of each of ``pdfs`` as a soft proof in sRGB (see the module's
    description), in one Ghostscript run for every :data:`FILES_PER_RUN` files; a
    file that cannot be proofed is PDFium's render (``strict``: a RuntimeError naming
    it, for a measurement that a plain render would falsify).  Each picture has the
    size PDFium gives the page at ``dpi``, less ``trim`` mm on every side."""
    if strict and not proof_available():
        raise RuntimeError("Ghostscript (gs) is needed for a soft proof")
    paths = [Path(p) for p in pdfs]
    profiles = [intent_of(path) for path in paths] if proof_available() else [None] * len(paths)
    proofed: dict[int, Image.Image] = {}
    todo = [i for i, profile in enumerate(profiles) if profile is not None]
    for start in range(0, len(todo), FILES_PER_RUN):
        chunk = todo[start : start + FILES_PER_RUN]
        rendered = _proofs([paths[i] for i in chunk], [profiles[i] for i in chunk], dpi)
        proofed.update(
            (i, image) for i, image in zip(chunk, rendered, strict=True) if image is not None
        )
    images = []
    for index, path in enumerate(paths):
        if index in proofed:
            image = _fit(proofed[index], _pdfium_size(path, dpi))
        elif strict:
            raise RuntimeError(
                f"{path}: no soft proof (no CMYK output intent, or Ghostscript cannot render it)"
            )
        else:
            image = _pdfium(path, dpi)
        images.append(_cut(image, dpi, trim))
    return images


def _pdfium(pdf: Path, dpi: float) -> Image.Image:
    """PDFium's render of the first page (its naive CMYK conversion)."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def _pdfium_size(pdf: Path, dpi: float) -> tuple[int, int]:
    """The size PDFium renders the first page at ``dpi``: its (crop box) size in
    points, scaled and rounded up, as pypdfium2 does."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        width, height = document[0].get_size()
    finally:
        document.close()
    return math.ceil(width * dpi / 72), math.ceil(height * dpi / 72)


def _cut(image: Image.Image, dpi: float, trim: float | None) -> Image.Image:
    if trim:
        cut = round(trim / 25.4 * dpi)
        image = image.crop((cut, cut, image.width - cut, image.height - cut))
    return image


def _fit(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` made ``size``: Ghostscript rounds a page's pixels to the nearest,
    PDFium up, so the proof lacks a column or row at most, on the right or at the
    bottom (the bleed's outer edge): the last one is repeated."""
    if image.size == size:
        return image
    width, height = size
    fitted = Image.new(image.mode, size)
    fitted.paste(image.crop((0, 0, min(width, image.width), min(height, image.height))))
    if image.width < width:
        column = fitted.crop((image.width - 1, 0, image.width, height))
        fitted.paste(column.resize((width - image.width, height)), (image.width, 0))
    if image.height < height:
        row = fitted.crop((0, image.height - 1, width, image.height))
        fitted.paste(row.resize((width, height - image.height)), (0, image.height))
    return fitted


def intent_of(pdf: Path) -> bytes | None:
    """The CMYK profile of ``pdf``'s output intent, or None when it has none or cannot
    be read."""
    try:
        with pikepdf.open(pdf) as document:
            return intent_profile(document)
    except (OSError, pikepdf.PdfError, ValueError, TypeError):
        return None
    return None


def _proofs(
    paths: Sequence[Path], profiles: Sequence[bytes | None], dpi: float
) -> list[Image.Image | None]:
    """The first page of each file rendered by Ghostscript in 8-bit CMYK (anti-aliased,
    overprint as the press does it) and converted to sRGB as it comes (a page at a
    time in memory); None for each file when the run fails, then each file is tried
    alone (only the one Ghostscript cannot read goes without its proof).

    ``-dSAFER``, files by absolute path (no name read as an option), messages to
    standard error, never into the pictures."""
    command = [
        "gs",
        "-q",
        "-dSAFER",
        "-dBATCH",
        "-dNOPAUSE",
        "-sDEVICE=pamcmyk32",
        f"-r{dpi:g}",
        "-dUseCropBox",
        "-dTextAlphaBits=4",
        "-dGraphicsAlphaBits=4",
        "-dFirstPage=1",
        "-dLastPage=1",
        "-sstdout=%stderr",
        "-sOutputFile=-",
        *(str(p.resolve()) for p in paths),
    ]
    found: list[Image.Image | None] = []
    try:
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors
            )
            assert process.stdout is not None
            try:
                for cmyk in pam_pages(process.stdout):
                    if len(found) < len(paths):
                        found.append(_to_srgb(cmyk, profiles[len(found)]))
            except (ValueError, KeyError):  # a broken stream: the run failed
                found = []
            finally:
                process.stdout.close()
                code = process.wait(timeout=GS_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        code = -1
    if code == 0 and len(found) == len(paths):
        return found
    if len(paths) == 1:
        return [None]
    return [
        _proofs([path], [profile], dpi)[0] for path, profile in zip(paths, profiles, strict=True)
    ]


@lru_cache(maxsize=8)
def _transform(icc: bytes) -> ImageCms.ImageCmsTransform:
    """CMYK in ``icc`` to sRGB (:data:`PROOF_INTENT`, black point compensation); built
    once per profile (about 15 ms)."""
    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    return ImageCms.buildTransform(source, srgb, "CMYK", "RGB", PROOF_INTENT, flags=PROOF_FLAGS)


def _to_srgb(image: Image.Image, icc: bytes | None) -> Image.Image | None:
    """The CMYK render converted to sRGB through the press's profile (None when
    LittleCMS cannot use it); no profile tag in the picture (untagged means sRGB, as
    before)."""
    if icc is None:
        return None
    try:
        converted = ImageCms.applyTransform(image, _transform(icc))
    except (OSError, ImageCms.PyCMSError):
        return None
    assert converted is not None  # not in place
    converted.info.pop("icc_profile", None)
    return converted


def contact_sheet(
    pdfs: Sequence[str | Path],
    columns: int = 6,
    dpi: float = 110,
    trim: float | None = None,
    gap: int = 12,
) -> Image.Image:
    """The cards side by side, ``columns`` per row, on a light ground: soft proofs,
    all rendered by one Ghostscript run (:func:`soft_proofs`)."""
    images = soft_proofs(pdfs, dpi, trim)
    if not images:
        raise ValueError("no card to show")
    width, height = images[0].size
    rows = -(-len(images) // columns)
    sheet = Image.new(
        "RGB", (columns * (width + gap) + gap, rows * (height + gap) + gap), (236, 236, 232)
    )
    draw = ImageDraw.Draw(sheet)
    for number, image in enumerate(images):
        x = gap + (number % columns) * (width + gap)
        y = gap + (number // columns) * (height + gap)
        sheet.paste(image, (x, y))
        draw.rectangle((x - 1, y - 1, x + width, y + height), outline=(190, 190, 186))
    return sheet


def main() -> None:
    """``python -m translator.typeset.preview OUT.png CARD.pdf...``: a contact sheet."""
    import sys  # noqa: PLC0415

    if len(sys.argv) < 3:
        sys.exit("usage: python -m translator.typeset.preview OUT.png CARD.pdf...")
    contact_sheet(sys.argv[2:], columns=6, dpi=90, trim=2).save(sys.argv[1], optimize=True)


if __name__ == "__main__":
    main()
