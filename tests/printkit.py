"""Helpers shared by the print tests."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from translator.pdf.profiles import Profile, find_profile

if TYPE_CHECKING:
    from translator.cards.model import Library

#: The default theme's fonts (Debian's fonts-sil-gentiumplus).
DEFAULT_FONTS = Path("/usr/share/fonts/truetype/gentiumplus")
#: Light ink on a dark ground, as the official cards print their reminders: about
#: their #e6daa6 on a dark brown strip (reversed text, for the preflight).
PALE_GOLD = "0.08 0.1 0.36 0"
DARK_BROWN = "0.3 0.6 0.8 0.6"


def skip_without_default_fonts() -> None:
    """Skip the calling test module where the default theme's fonts are missing."""
    if not (DEFAULT_FONTS / "GentiumBookPlus-Bold.ttf").is_file():
        pytest.skip(
            "the default theme's fonts are not installed (apt-get install fonts-sil-gentiumplus)",
            allow_module_level=True,
        )


def cmyk_profile() -> Profile:
    """The CMYK profile a build uses, or the calling test module skipped with why (a
    machine without Ghostscript's profile)."""
    try:
        return find_profile()
    except Exception as error:  # any reason to skip is reported
        pytest.skip(
            f"no CMYK profile: {error} (apt-get install ghostscript)", allow_module_level=True
        )


#: Points in a millimetre.
MM = 72 / 25.4


@dataclass(frozen=True)
class PrintedChar:
    """A character of a PDF page as PDFium reads it (another library than the
    renderer's), in mm from the page's top left: its tight box (x0, y0, x1, y1), its
    origin (x, baseline), its size and the PDF font's name."""

    index: int
    char: str
    box: tuple[float, float, float, float]
    origin: tuple[float, float]
    size_pt: float
    font: str


@cache
def printed_chars(path: str) -> tuple[tuple[PrintedChar, ...], tuple[float, float, float, float]]:
    """The characters of the first page of ``path`` (not the line ends PDFium adds,
    nor unmapped codes) and its TrimBox, in mm from the page's top left.

    A character's size is PDFium's (the ``Tf`` size) times the scale of its matrix
    (text matrix and CTM): WeasyPrint draws in CSS pixels under a 0.75 scale, so
    ``FPDFText_GetFontSize`` alone would say 14 for 10.5 pt."""
    pdf = pypdfium2.PdfDocument(path)
    try:
        page = pdf[0]
        left, _, _, top = page.get_mediabox()
        trim_l, trim_b, trim_r, trim_t = page.get_trimbox()
        textpage = page.get_textpage()
        chars = []
        for index in range(textpage.count_chars()):
            if pdfium_c.FPDFText_IsGenerated(textpage, index):
                continue  # line ends PDFium adds, not printed
            code = pdfium_c.FPDFText_GetUnicode(textpage, index)
            if code in (0, 0xFFFE, 0xFFFF):
                continue
            x0, y0, x1, y1 = textpage.get_charbox(index)
            matrix = pdfium_c.FS_MATRIX()
            pdfium_c.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix))
            scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
            ox, oy = ctypes.c_double(), ctypes.c_double()
            pdfium_c.FPDFText_GetCharOrigin(textpage, index, ctypes.byref(ox), ctypes.byref(oy))
            length = pdfium_c.FPDFText_GetFontInfo(textpage, index, None, 0, None)
            name = ctypes.create_string_buffer(length)
            pdfium_c.FPDFText_GetFontInfo(textpage, index, name, length, None)
            chars.append(
                PrintedChar(
                    index,
                    chr(code),
                    ((x0 - left) / MM, (top - y1) / MM, (x1 - left) / MM, (top - y0) / MM),
                    ((ox.value - left) / MM, (top - oy.value) / MM),
                    pdfium_c.FPDFText_GetFontSize(textpage, index) * scale,
                    name.value.decode("latin-1"),
                )
            )
        textpage.close()
        trim = (
            (trim_l - left) / MM,
            (top - trim_t) / MM,
            (trim_r - left) / MM,
            (top - trim_b) / MM,
        )
        return tuple(chars), trim
    finally:
        pdf.close()


def sample_deck(
    folder: Path, slugs: tuple[str, ...], langs: tuple[str, ...] = ("en", "fr")
) -> Library:
    """A deck in ``folder`` of the sample's cards ``slugs`` (each once) in ``langs``,
    with the sample's artwork, loaded."""
    import shutil

    from tests.conftest import ROOT
    from translator import cards

    sample = ROOT / "cards" / "sample"
    shutil.copytree(sample / "art", folder / "art")
    for slug in slugs:
        for lang in langs:
            shutil.copy(sample / f"{slug}.{lang}.md", folder / f"{slug}.{lang}.md")
    (folder / "deck.yaml").write_text(
        "name: Chosen\ncards:\n" + "".join(f"  {slug}: 1\n" for slug in slugs), encoding="utf-8"
    )
    loaded, problems = cards.load_library([str(folder)])
    assert not problems, problems
    return loaded
