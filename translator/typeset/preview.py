"""Pictures of printed cards: PNG renders of card PDFs, and a contact sheet of a deck.

Rendered with pypdfium2 (PDFium, as in Chromium) from the very PDFs sent to print,
so what reviewers look at is what the printer gets (CMYK converted for the screen by
PDFium's naive conversion: colours are indicative, the layout is exact).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw


def render_png(pdf: str | Path, dpi: float = 300, trim: float | None = None) -> Image.Image:
    """The first page of ``pdf`` at ``dpi``; ``trim`` mm cut from each side (the bleed)."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        image = document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
    if trim:
        cut = round(trim / 25.4 * dpi)
        image = image.crop((cut, cut, image.width - cut, image.height - cut))
    return image


def contact_sheet(pdfs: Sequence[str | Path], columns: int = 6, dpi: float = 110,
                  trim: float | None = None, gap: int = 12) -> Image.Image:
    """The cards side by side, ``columns`` per row, on a light ground."""
    images = [render_png(path, dpi, trim) for path in pdfs]
    if not images:
        raise ValueError("no card to show")
    width, height = images[0].size
    rows = -(-len(images) // columns)
    sheet = Image.new("RGB", (columns * (width + gap) + gap, rows * (height + gap) + gap),
                      (236, 236, 232))
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
